/* eg_wave (src/shader/wave.c) against the reference interpreter
 * eg_run_ps_lanes run on each group alone: random pixel shaders with
 * control flow (if / else with PUSH / JUMP / ELSE / POP and ALU_PUSH_BEFORE
 * / POP_AFTER / ELSE_AFTER, DX10 and counted loops with LOOP_BREAK /
 * LOOP_CONTINUE / ALU_BREAK / ALU_CONTINUE, also jumps to random places
 * with random pop counts, a subroutine called with CALL under COND ACTIVE,
 * FALSE, BOOL or NOT_BOOL), predication (PRED_SET* and the predicate-counter
 * ops with UPDATE_PRED / UPDATE_EXEC_MASK, PRED_SEL), KILL, MOVA_INT with relative sources,
 * destinations and constants, kcache constants, INTERP and group ops, every
 * op that has a lane kernel (src/shader/alu_lanes.c; sources also denormals,
 * Infs, NaNs and integers), and
 * texture clauses (SAMPLE with the implicit level of detail, SAMPLE_L /
 * _LB / _G, LD, derivatives, RESINFO, GET_LOD), over waves of 2x2 quads with helper
 * lanes and of lone pixels.  Each group's exports must be, byte for byte,
 * what eg_run_ps_lanes gives it; where the wave hands the run back (1),
 * the interpreter must fault on some group.  The same wave object is
 * reused across runs with new inputs, as the renderer reuses it.
 * The vertex wave (eg_wave_new_vs / eg_wave_run_vs): the same random
 * programs as vertex shaders that call a fetch shader (CALL_FS; four
 * vertex fetches by R0.x, some vertices past the buffer's end) and export
 * a position and two parameters, over waves of vertices: each lane's
 * exports must be, byte for byte, what eg_run_vs gives that vertex alone. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/kernel_ops.h"

#define NLANES EG_WAVE_MAX

static uint32_t rng = 2463534242u;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

static unsigned pick(unsigned n)
{
    return next() % n;
}

static float rand_float(void)
{
    static const float specials[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e30f, -1e-30f, 3.0f, 0.25f };
    if (pick(6) == 0)
        return specials[pick(10)];
    return (float)(int32_t)(next() % 2001u - 1000) / 250.0f;
}

/* ---- the environment: 16 constants in bank 0, loop constants, an 8x8 texture with 4 levels */

static uint32_t consts[16][4];
static uint32_t loop_consts[2];
static uint32_t bools;

static int bool_const(void *c, unsigned index, bool *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len;
    *out = bools >> index & 1u;
    return 0;
}

static int constant(void *c, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t len)
{
    (void)c;
    if (bank != 0 || index >= 16) {
        snprintf(msg, len, "no constant %u[%u]", bank, index);
        return -1;
    }
    memcpy(out, consts[index], 16);
    return 0;
}

static int loop_const(void *c, unsigned index, uint32_t *out, char *msg, size_t len)
{
    (void)c;
    if (index >= 2) {
        snprintf(msg, len, "no loop constant %u", index);
        return -1;
    }
    *out = loop_consts[index];
    return 0;
}

static int res(void *c, unsigned r, struct eg_tex_resource *o, char *m, size_t n)
{
    (void)c;
    if (r != V_SQ_FETCH_RESOURCE_BASE__PS && r != V_SQ_FETCH_RESOURCE_BASE__VS) {
        snprintf(m, n, "no resource %u", r);
        return -1;
    }
    *o = (struct eg_tex_resource){ .width = 8, .height = 8, .depth = 1, .dst_sel = EG_SWZ_XYZW,
                                   .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .levels = 4, .samples = 1, .last_level = 3 };
    return 0;
}

static int samp(void *c, unsigned s, unsigned r, struct eg_tex_sampler *o, char *m, size_t n)
{
    (void)c, (void)r, (void)m, (void)n;
    *o = (struct eg_tex_sampler){ .clamp_x = V_SQ_TEX_CLAMP__SQ_TEX_WRAP, .clamp_y = V_SQ_TEX_CLAMP__SQ_TEX_MIRROR,
                                  .mag_filter = s & 1 ? V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR
                                                      : V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT,
                                  .min_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR,
                                  .mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR, .max_lod = 3.0f };
    return 0;
}

static int texel_level(void *c, unsigned r, unsigned level, int x, int y, int z, union eg_vec4 *o, char *m,
                       size_t n)
{
    (void)c, (void)r, (void)z, (void)m, (void)n;
    *o = (union eg_vec4){ .f = { (float)x * 0.125f + (float)level, (float)y * 0.25f, (float)(x ^ y), 1.0f } };
    return 0;
}

static int texel(void *c, unsigned r, int x, int y, int z, unsigned s, union eg_vec4 *o, char *m, size_t n)
{
    (void)s;
    return texel_level(c, r, 0, x, y, z, o, m, n);
}

/* the vertex buffer: VB_VERTS records of four vec4s at VB_ADDR, the
 * fetch shader's resource 0 (VB_SIZE bytes: the last vertices are past it) */
#define VB_ADDR 0x10000u
#define VB_VERTS 48
#define VB_STRIDE 64u
#define VB_SIZE (40 * VB_STRIDE)
static uint8_t vb[VB_VERTS * VB_STRIDE];

static void *vb_ptr(void *c, uint64_t addr, uint64_t len)
{
    (void)c;
    return addr >= VB_ADDR && addr + len <= VB_ADDR + sizeof vb ? vb + (addr - VB_ADDR) : NULL;
}

static const struct vc_mem vb_mem = { .ctx = NULL, .ptr = vb_ptr };

static int vtx_res(void *c, unsigned r, struct eg_vtx_resource *o, char *m, size_t n)
{
    (void)c;
    if (r != V_SQ_FETCH_RESOURCE_BASE__FS) {
        snprintf(m, n, "no vertex resource %u", r);
        return -1;
    }
    *o = (struct eg_vtx_resource){ .base = VB_ADDR, .size = VB_SIZE, .stride = VB_STRIDE };
    return 0;
}

static const struct eg_shader_env env = { .constant = constant, .loop_const = loop_const, .bool_const = bool_const,
                                          .mem = &vb_mem, .vtx_resource = vtx_res, .tex_resource = res,
                                          .tex_sampler = samp, .texel = texel, .texel_level = texel_level };

/* ---- random programs: a plan of CF instructions (jump targets by index), then encoded */

enum item_kind { IT_ALU, IT_TEX, IT_FLOW, IT_EXPORT, IT_CALL_FS };
struct item {
    uint8_t kind;
    unsigned inst, target, pops, cond;
    unsigned cf_const;  /* IT_FLOW: CF_CONST (a COND BOOL / NOT_BOOL's boolean) */
    unsigned shape;     /* IT_ALU: 0 plain, 1 a condition after it, 2 the loop's trip count, 3 / 4 break / continue tests */
};

#define MAX_ITEMS 48
static struct item plan[MAX_ITEMS];
static unsigned nplan;
static unsigned sub_at;     /* the subroutine's first item, or MAX_ITEMS: none */

static unsigned add(struct item it)
{
    if (nplan < MAX_ITEMS)
        plan[nplan++] = it;
    return nplan - 1;
}

static void block(unsigned depth, bool in_loop);

/* if (cond) block [else block]: Mesa's layout, or with ALU_POP_AFTER / ELSE_AFTER. */
static void gen_if(unsigned depth, bool in_loop)
{
    add((struct item){ .kind = IT_ALU, .inst = V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, .shape = 1 });
    unsigned jump = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__JUMP, .pops = pick(4) == 0 });
    block(depth + 1, in_loop);
    unsigned els = 0;
    bool has_else = pick(2);
    if (has_else) {
        els = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__ELSE, .pops = pick(4) != 0 });
        block(depth + 1, in_loop);
    }
    unsigned popi = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__POP, .pops = 1 });
    plan[jump].target = has_else ? els + pick(2) : popi + (pick(4) != 0);
    if (has_else)
        plan[els].target = popi + (pick(4) != 0);
}

static void gen_loop(unsigned depth)
{
    unsigned inst = pick(3) ? V_SQ_CF_INST__LOOP_START_DX10 : pick(2) ? V_SQ_CF_INST__LOOP_START
                                                                     : V_SQ_CF_INST__LOOP_START_NO_AL;
    unsigned start = add((struct item){ .kind = IT_FLOW, .inst = inst, .cond = pick(2) });
    /* the trip counter R9.x, and a break when it reaches R4.x (per lane) */
    add((struct item){ .kind = IT_ALU, .inst = V_SQ_CF_ALU_INST__ALU, .shape = 2 });
    unsigned brk[3], nbrk = 0;
    for (unsigned k = 0, nb = 1 + pick(2); k < nb; k++) {
        bool brk_first = k == 0 || pick(2); /* the first always a break: the loop ends */
        if (pick(2)) {
            add((struct item){ .kind = IT_ALU, .inst = brk_first ? V_SQ_CF_ALU_INST__ALU_BREAK : V_SQ_CF_ALU_INST__ALU_CONTINUE,
                               .shape = brk_first ? 3 : 4 });
        } else {
            add((struct item){ .kind = IT_ALU, .inst = V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, .shape = brk_first ? 3 : 4 });
            unsigned j = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__JUMP, .pops = 1 });
            brk[nbrk++] = add((struct item){ .kind = IT_FLOW, .inst = brk_first ? V_SQ_CF_INST__LOOP_BREAK : V_SQ_CF_INST__LOOP_CONTINUE });
            unsigned p = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__POP, .pops = 1 });
            plan[j].target = p + 1;
        }
        block(depth + 1, true);
    }
    unsigned end = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__LOOP_END });
    plan[start].target = end + 1;
    plan[end].target = start + 1;
    for (unsigned k = 0; k < nbrk; k++)
        plan[brk[k]].target = end;
}

static void block(unsigned depth, bool in_loop)
{
    for (unsigned n = 1 + pick(3); n-- && nplan < MAX_ITEMS - 12;) {
        if (sub_at < MAX_ITEMS && pick(5) == 0) {
            add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__CALL, .target = sub_at, .cond = pick(4),
                               .cf_const = pick(3) });
            continue;
        }
        unsigned k = pick(10);
        if (k < 3 || depth > 2)
            add((struct item){ .kind = IT_ALU, .inst = pick(4) ? V_SQ_CF_ALU_INST__ALU : V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE,
                               .shape = 0 });
        else if (k < 5)
            add((struct item){ .kind = IT_TEX });
        else if (k < 7)
            gen_if(depth, in_loop);
        else if (k < 9 && !in_loop)
            gen_loop(depth);
        else if (in_loop || pick(2))
            add((struct item){ .kind = IT_TEX });
        else
            /* anywhere, popping anything: both must agree, faults included */
            add((struct item){ .kind = IT_FLOW, .inst = pick(2) ? V_SQ_CF_INST__JUMP : pick(2) ? V_SQ_CF_INST__ELSE : V_SQ_CF_INST__POP,
                               .target = nplan + 1 + pick(4), .pops = pick(4) / 3 });
    }
}

static struct eg_alu_src rsrc(void)
{
    struct eg_alu_src s;
    switch (pick(12)) {
    case 0: s = pick(3) ? eg_src_lit_f(rand_float()) : eg_src_lit_u(test_odd_bits[pick(TEST_NODD)]); break;
    case 1: s = eg_src_special(V_SQ_ALU_SRC__PV, pick(4)); break;
    case 2: s = eg_src_special(V_SQ_ALU_SRC__PS, 0); break;
    case 3: s = eg_src_special(pick(2) ? V_SQ_ALU_SRC__ONE : V_SQ_ALU_SRC__HALF, 0); break;
    case 4: s = eg_src_special(V_SQ_ALU_SRC__KCACHE0_BASE + pick(16), pick(4)); break;
    case 5: s = eg_src_gpr(pick(4), pick(4)); s.rel = true; break;
    default: s = eg_src_gpr(pick(8), pick(4)); break;
    }
    s.neg = pick(5) == 0;
    s.abs = pick(6) == 0;
    return s;
}

static const struct { bool op3; unsigned op; } ops[] = {
    { false, V_SQ_ALU_OP2__ADD }, { false, V_SQ_ALU_OP2__MUL }, { false, V_SQ_ALU_OP2__MAX },
    { false, V_SQ_ALU_OP2__MIN }, { false, V_SQ_ALU_OP2__MOV }, { false, V_SQ_ALU_OP2__FRACT },
    { false, V_SQ_ALU_OP2__SETGT }, { false, V_SQ_ALU_OP2__SETE_DX10 }, { false, V_SQ_ALU_OP2__MUL_IEEE },
    { false, V_SQ_ALU_OP2__FLT_TO_INT }, { false, V_SQ_ALU_OP2__ADD_INT }, { false, V_SQ_ALU_OP2__KILLGT },
    { false, V_SQ_ALU_OP2__PRED_SETGT }, { false, V_SQ_ALU_OP2__PRED_SETE_INT }, { false, V_SQ_ALU_OP2__FLOOR },
    { false, V_SQ_ALU_OP2__PRED_SET_INV }, { false, V_SQ_ALU_OP2__PRED_SET_POP }, { false, V_SQ_ALU_OP2__PRED_SET_CLR },
    { false, V_SQ_ALU_OP2__PRED_SET_RESTORE }, { false, V_SQ_ALU_OP2__PRED_SETGT_PUSH },
    { false, V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT },
    { true, V_SQ_ALU_OP3__MULADD }, { true, V_SQ_ALU_OP3__CNDE }, { true, V_SQ_ALU_OP3__CNDGT_INT },
};

static struct test_kernel_ops kops;   /* the ops with a lane kernel */

static void rdst(struct eg_alu *a, unsigned chan)
{
    static const uint8_t free_gprs[] = { 0, 1, 2, 3, 5, 6, 7, 8 }; /* R4, R9: the loops' trips */
    a->dst.gpr = free_gprs[pick(8)];
    a->dst.chan = (uint8_t)chan;
    a->dst.write = a->op3 || pick(5) != 0;
    a->dst.rel = pick(12) == 0;
    a->dst.clamp = pick(6) == 0;
    a->dst.omod = a->op3 ? 0 : (uint8_t)(pick(6) == 0 ? 1 + pick(3) : 0);
    a->pred_sel = (uint8_t)(pick(5) == 0 ? V_SQ_ALU_PRED_SEL__ZERO + pick(2) : V_SQ_ALU_PRED_SEL__OFF);
}

/* One random group. */
static void rgroup(struct eg_asm *as)
{
    unsigned kind = pick(10);
    if (kind == 0 || kind == 1) {
        /* DOT4 / MAX4 / CUBE, or an INTERP pair set */
        unsigned op = kind == 1 ? (pick(2) ? V_SQ_ALU_OP2__INTERP_XY : V_SQ_ALU_OP2__INTERP_ZW)
                      : pick(3) == 0 ? V_SQ_ALU_OP2__CUBE : pick(2) ? V_SQ_ALU_OP2__DOT4 : V_SQ_ALU_OP2__MAX4;
        for (unsigned c = 0; c < 4; c++) {
            struct eg_alu a = { .op = op };
            rdst(&a, c);
            if (kind == 1) {
                a.src[0] = eg_src_gpr(0, c % 2 ? 0 : 1);
                a.src[1] = eg_src_special(V_SQ_ALU_SRC__PARAM_BASE + pick(2), 0);
            } else {
                a.src[0] = rsrc();
                a.src[1] = rsrc();
            }
            a.last = c == 3;
            eg_asm_alu(as, &a);
        }
        return;
    }
    if (kind == 2) {
        /* AR from a per-lane small integer (R4.y: -2..5) */
        eg_asm_alu(as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOVA_INT, .dst = { 0, 0 },
                                         .src = { eg_src_gpr(4, 1) }, .last = true });
        return;
    }
    unsigned used = 1 + pick(15), last_chan = 0;
    bool trans = pick(3) == 0;
    for (unsigned c = 0; c < 4; c++)
        if ((used >> c) & 1u)
            last_chan = c;
    for (unsigned c = 0; c < 4; c++) {
        if (!((used >> c) & 1u))
            continue;
        unsigned o = pick(sizeof ops / sizeof ops[0]), q = pick(kops.nvec);
        bool kern = pick(2);
        struct eg_alu a = { .op3 = kern ? kops.vec[q].op3 : ops[o].op3, .op = kern ? kops.vec[q].op : ops[o].op };
        rdst(&a, c);
        for (int s = 0; s < 3; s++) {
            a.src[s] = rsrc();
            a.src[s].abs &= !a.op3;
        }
        if (!a.op3 && eg_alu_op_name(false, a.op) && !strncmp(eg_alu_op_name(false, a.op), "PRED_SET", 8)) {
            a.update_pred = pick(2);
            a.update_exec_mask = pick(3) == 0;
        }
        a.last = !trans && c == last_chan;
        eg_asm_alu(as, &a);
    }
    if (trans) {
        unsigned q = pick(kops.ntrans);
        struct eg_alu a = { .op = pick(2) ? V_SQ_ALU_OP2__RECIP_IEEE : V_SQ_ALU_OP2__EXP_IEEE };
        if (pick(2))
            a = (struct eg_alu){ .op3 = kops.trans[q].op3, .op = kops.trans[q].op };
        rdst(&a, pick(4));
        for (int i = 0; i < 3; i++) {
            a.src[i] = rsrc();
            a.src[i].abs &= !a.op3;
        }
        a.last = true;
        eg_asm_alu(as, &a);
    }
}

/* A predicate group: some lanes pass, some not (R0.x against a constant or R4.x). */
static void cond_group(struct eg_asm *as, bool exec)
{
    static const unsigned preds[] = { V_SQ_ALU_OP2__PRED_SETGT, V_SQ_ALU_OP2__PRED_SETGE, V_SQ_ALU_OP2__PRED_SETE_INT,
                                      V_SQ_ALU_OP2__PRED_SETGT_INT };
    unsigned op = preds[pick(4)];
    bool ints = op == V_SQ_ALU_OP2__PRED_SETE_INT || op == V_SQ_ALU_OP2__PRED_SETGT_INT;
    struct eg_alu_src a = ints ? eg_src_gpr(4, pick(2)) : eg_src_gpr(pick(4), pick(4));
    struct eg_alu_src b = ints ? eg_src_lit_u(pick(4)) : eg_src_lit_f(rand_float() * 0.25f);
    eg_asm_alu(as, &(struct eg_alu){ .op = op, .dst = { (uint8_t)pick(8), 3, .write = pick(2) },
                                     .src = { pick(2) ? a : b, pick(2) ? b : a }, .update_pred = true,
                                     .update_exec_mask = exec, .last = true });
}

static void emit_alu(struct eg_asm *as, const struct item *it)
{
    const struct eg_kcache kc[2] = { { 0, 0, V_SQ_KCACHE_MODE__LOCK_1 }, { 0, 0, V_SQ_KCACHE_MODE__NOP } };
    eg_asm_alu_clause(as, it->inst, kc);
    if (it->shape == 2) {
        /* R9.x += 1; then the break test is its own clause */
        eg_asm_alu(as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__ADD_INT, .dst = { 9, 0, .write = true },
                                         .src = { eg_src_gpr(9, 0), eg_src_special(V_SQ_ALU_SRC__ONE_INT, 0) },
                                         .last = true });
        return;
    }
    if (it->shape == 3 || it->shape == 4) {
        /* break when R9.x >= R4.x, continue while R9.x < R4.z: a PUSH_BEFORE
         * keeps the lanes that leave active, ALU_BREAK / _CONTINUE turn
         * them off */
        bool brk = it->shape == 3, off = it->inst != V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE;
        struct eg_alu_src r9 = eg_src_gpr(9, 0), r4 = eg_src_gpr(4, brk ? 0 : 2);
        bool ge = brk != off;   /* R9 >= R4 keeps them, else R4 > R9 */
        eg_asm_alu(as, &(struct eg_alu){ .op = ge ? V_SQ_ALU_OP2__PRED_SETGE_INT : V_SQ_ALU_OP2__PRED_SETGT_INT,
                                         .dst = { 0, 0 }, .src = { ge ? r9 : r4, ge ? r4 : r9 },
                                         .update_pred = true, .update_exec_mask = true, .last = true });
        return;
    }
    for (unsigned g = 0, ng = 1 + pick(2); g < ng; g++)
        rgroup(as);
    if (it->shape == 1 || it->inst == V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE)
        cond_group(as, true);
    else if (pick(3) == 0)
        cond_group(as, pick(2));
}

static void emit_tex(struct eg_asm *as)
{
    static const unsigned insts[] = { V_SQ_TEX_INST__SAMPLE, V_SQ_TEX_INST__SAMPLE_L, V_SQ_TEX_INST__SAMPLE_LB,
                                      V_SQ_TEX_INST__LD, V_SQ_TEX_INST__GET_GRADIENTS_H,
                                      V_SQ_TEX_INST__GET_GRADIENTS_V, V_SQ_TEX_INST__SET_GRADIENTS_H,
                                      V_SQ_TEX_INST__SAMPLE_G, V_SQ_TEX_INST__GET_TEXTURE_RESINFO,
                                      V_SQ_TEX_INST__GET_LOD };
    eg_asm_tex_clause(as);
    for (unsigned k = 0, n = 1 + pick(2); k < n; k++) {
        unsigned inst = insts[pick(sizeof insts / sizeof insts[0])];
        struct eg_tex t = { .inst = inst, .sampler_id = pick(2), .src_gpr = pick(8), .dst_gpr = 5 + pick(4),
                            .inst_mod = pick(2), .coord_normalized = { true, true, true, true } };
        if (inst == V_SQ_TEX_INST__LD)
            t.src_gpr = 4;  /* integer coordinates */
        for (int c = 0; c < 4; c++) {
            t.src_sel[c] = (uint8_t)pick(4);
            t.dst_sel[c] = (uint8_t)(pick(6) == 0 ? V_SQ_INST_SEL__MASK : pick(4));
        }
        eg_asm_tex(as, &t);
    }
}

static char last_err[160];
static bool vs_mode;    /* encode: a vertex shader's exports */

/* The plan encoded; false when the encoder refuses it. */
static bool encode(uint32_t *w, size_t cap, size_t *ndw)
{
    struct eg_asm as;
    eg_asm_init(&as);
    for (unsigned i = 0; i < nplan; i++) {
        const struct item *it = &plan[i];
        switch (it->kind) {
        case IT_ALU: emit_alu(&as, it); break;
        case IT_TEX: emit_tex(&as); break;
        case IT_CALL_FS: eg_asm_call_fs(&as); break;
        case IT_FLOW:
            eg_asm_flow(&as, it->inst, it->target, it->pops,
                        it->inst == V_SQ_CF_INST__CALL || it->inst == V_SQ_CF_INST__JUMP ? it->cond : V_SQ_CF_COND__ACTIVE);
            break;
        default: break;
        }
    }
    if (vs_mode) {
        eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS, .array_base = 60, .gpr = pick(4),
                                               .sel = EG_SWZ_XYZW });
        /* the parameters: sometimes with masked, 0 and 1 components, and
         * sometimes parameter 1 exported twice (the second export keeps
         * what it masks from the first) */
        static const uint8_t sels[7] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y,    V_SQ_INST_SEL__Z,   V_SQ_INST_SEL__W,
                                         V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ONE, V_SQ_INST_SEL__MASK };
        struct eg_export pe = { .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = 0, .gpr = 6, .sel = EG_SWZ_XYZW,
                                .burst_count = 1, .done = true };
        if (pick(2))
            for (unsigned c = 0; c < 4; c++)
                pe.sel[c] = sels[pick(7)];
        if (pick(3) == 0) {
            struct eg_export first = { .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = 1, .gpr = 5 };
            for (unsigned c = 0; c < 4; c++)
                first.sel[c] = sels[pick(7)];
            eg_asm_export(&as, &first);
        }
        eg_asm_export(&as, &pe);
        goto encoded;
    }
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = pick(4),
                                           .sel = EG_SWZ_XYZW, .burst_count = 1 });
    if (pick(4) == 0)
        eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL,
                                               .array_base = V_SQ_EXPORT_ARRAY_BASE__PIXEL_Z, .gpr = 5,
                                               .sel = { 0, 1, V_SQ_INST_SEL__MASK, V_SQ_INST_SEL__MASK } });
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 2, .gpr = 6,
                                           .sel = EG_SWZ_XYZW, .done = true });
encoded:;
    bool ok = eg_asm_finish(&as, true, w, cap, ndw) == 0;
    snprintf(last_err, sizeof last_err, "%s", as.err);
    for (unsigned i = 0; ok && i < nplan; i++)   /* plan item i is CF instruction i */
        if (plan[i].kind == IT_FLOW)
            w[2 * i + 1] |= S_SQ_CF_WORD1__CF_CONST(plan[i].cf_const);
    return ok;
}

/* A random program's plan (a vertex shader's starts with CALL_FS), its
 * booleans and loop constants. */
static void plan_program(bool call_fs)
{
    nplan = 0;
    sub_at = MAX_ITEMS;
    if (call_fs)
        add((struct item){ .kind = IT_CALL_FS });
    if (pick(2)) {
        /* a subroutine first, jumped over (COND FALSE: always taken), ending in RETURN */
        unsigned j = add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__JUMP, .cond = V_SQ_CF_COND__FALSE });
        unsigned at = nplan;
        block(1, false);
        add((struct item){ .kind = IT_FLOW, .inst = V_SQ_CF_INST__RETURN });
        plan[j].target = nplan;
        sub_at = at;
    }
    bools = next();
    block(0, false);
    loop_consts[0] = (1 + pick(4)) | (uint32_t)pick(5) << 12 | (uint32_t)(pick(5) - 2) << 24;
    loop_consts[1] = loop_consts[0];
}

/* ---- the comparison */

struct lane_in {
    union eg_vec4 gpr[5];
};

static void rand_inputs(struct lane_in *li, struct eg_ps_param par[2], struct eg_ps_input *in, unsigned n)
{
    for (unsigned p = 0; p < 2; p++)
        for (int c = 0; c < 4; c++) {
            par[p].p0[c] = rand_float();
            par[p].p10[c] = rand_float();
            par[p].p20[c] = rand_float();
        }
    for (unsigned l = 0; l < n; l++) {
        for (unsigned g = 0; g < 4; g++)
            for (int c = 0; c < 4; c++)
                li[l].gpr[g].f[c] = rand_float();
        li[l].gpr[4].i[0] = (int32_t)pick(5);         /* loop trips */
        li[l].gpr[4].i[1] = (int32_t)pick(8) - 2;     /* AR */
        li[l].gpr[4].i[2] = (int32_t)pick(8);
        li[l].gpr[4].i[3] = (int32_t)pick(3);
        in[l] = (struct eg_ps_input){ li[l].gpr, 5, par, 2 };
    }
}

struct tally {
    unsigned programs, runs, bailed, lanes;
};

/* One run of the wave against each group alone. */
static void compare(struct eg_wave *wv, const struct eg_program *p, unsigned group, unsigned n, int it,
                    struct tally *t)
{
    static struct lane_in li[NLANES];
    static struct eg_ps_input in[NLANES];
    static struct eg_ps_output out[NLANES];
    struct eg_ps_param par[2];
    rand_inputs(li, par, in, n);
    uint64_t helpers = 0;
    if (pick(2))
        for (unsigned l = 0; l < n; l++)
            if (pick(4) == 0)
                helpers |= 1ull << l;
    int rc = eg_wave_run(wv, in, n, group, helpers, out);
    assert_true(rc == 0 || rc == 1);
    t->runs++;
    bool some_fault = false;
    for (unsigned g0 = 0; g0 < n; g0 += group) {
        struct eg_ps_output ref[4];
        struct eg_shader_err err;
        if (eg_run_ps_lanes(p, &env, &in[g0], group, (uint32_t)(helpers >> g0) & ((1u << group) - 1), ref, &err)) {
            if (!some_fault && getenv("WAVE_FAULTS"))
                printf("fault: %s\n", err.msg);
            some_fault = true;
            continue;
        }
        if (rc)
            continue;
        for (unsigned l = 0; l < group; l++) {
            if (memcmp(&ref[l], &out[g0 + l], sizeof ref[l]) != 0) {
                for (unsigned t2 = 0; t2 < 8; t2++)
                    for (unsigned c = 0; c < 4; c++)
                        if (ref[l].color[t2].u[c] != out[g0 + l].color[t2].u[c])
                            fail_msg("program %d (group %u, %u lanes) lane %u colour %u.%c: alone 0x%08x, wave 0x%08x",
                                     it, group, n, g0 + l, t2, "xyzw"[c], ref[l].color[t2].u[c],
                                     out[g0 + l].color[t2].u[c]);
                fail_msg("program %d (group %u) lane %u: mask %x/%x killed %d/%d depth %d/%d", it, group, g0 + l,
                         ref[l].color_mask, out[g0 + l].color_mask, ref[l].killed, out[g0 + l].killed,
                         ref[l].depth_written, out[g0 + l].depth_written);
            }
            t->lanes++;
        }
    }
    if (rc) {
        t->bailed++;
        if (!some_fault)
            fail_msg("program %d: the wave handed back a run no group faults on", it);
    }
}

static void wave_matches_groups(void **state)
{
    (void)state;
    struct tally t = { 0 };
    test_kernel_ops(&kops);
    for (unsigned i = 0; i < 16; i++)
        for (int c = 0; c < 4; c++)
            {
            union eg_vec4 v = { .f = { rand_float() } };
            consts[i][c] = pick(3) ? (uint32_t)((int32_t)pick(7) - 2) : v.u[0];
        }
    for (int it = 0; it < 250; it++) {
        plan_program(false);
        uint32_t w[4096];
        size_t ndw;
        if (!encode(w, 4096, &ndw)) {
            static int shown;
            if (shown++ < 3)
                printf("not encoded: %s\n", last_err);
            continue;
        }
        struct eg_program p = { "PS", w, ndw };
        struct eg_wave *wv = eg_wave_new(&p, &env);
        assert_non_null(wv);
        t.programs++;
        for (int r = 0; r < 3; r++) {
            unsigned group = pick(3) ? 4 : 1;
            unsigned n = pick(2) ? NLANES : group * (1 + pick(NLANES / group));
            compare(wv, &p, group, n, it, &t);
        }
        eg_wave_free(wv);
    }
    printf("wave: %u programs, %u runs (%u handed back, each with a faulting group), %u lanes compared\n",
           t.programs, t.runs, t.bailed, t.lanes);
    assert_true(t.programs > 200);
    assert_true(t.lanes > 20000);
    assert_true(t.bailed * 2 < t.runs);
}

/* The fetch shader: R1..R3 the record's first three vec4s as floats, R4
 * its last as integers (loop trips, AR), by the vertex id in R0.x. */
static size_t fetch_shader(uint32_t *w, size_t cap)
{
    struct eg_asm as;
    size_t ndw;
    eg_asm_init(&as);
    eg_asm_vtx_clause(&as);
    for (unsigned k = 0; k < 4; k++)
        eg_asm_vtx(&as, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .dst_gpr = 1 + k, .mega_fetch_count = 15,
                                          .dst_sel = { 0, 1, 2, 3 }, .offset = 16 * k,
                                          .data_format = k < 3 ? V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT
                                                               : V_SQ_DATA_FORMAT__FMT_32_32_32_32,
                                          .num_format = k < 3 ? 0 : V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT });
    eg_asm_return(&as);
    assert_int_equal(eg_asm_finish(&as, false, w, cap, &ndw), 0);
    return ndw;
}

/* The masks, and the exports they name (eg_wave_run_vs leaves the rest
 * undefined; eg_run_vs clears them). */
static bool same_exports(const struct eg_vs_output *a, const struct eg_vs_output *b)
{
    if (a->pos_mask != b->pos_mask || a->param_mask != b->param_mask)
        return false;
    for (unsigned k = 0; k < 4; k++)
        if ((a->pos_mask >> k & 1u) && memcmp(&a->pos[k], &b->pos[k], sizeof a->pos[k]))
            return false;
    for (unsigned k = 0; k < 32; k++)
        if ((a->param_mask >> k & 1u) && memcmp(&a->param[k], &b->param[k], sizeof a->param[k]))
            return false;
    return true;
}

static void vertex_wave_matches_eg_run_vs(void **state)
{
    (void)state;
    struct tally t = { 0 };
    test_kernel_ops(&kops);
    uint32_t fsw[256];
    struct eg_program fs = { "FS", fsw, fetch_shader(fsw, 256) };
    vs_mode = true;
    for (int it = 0; it < 250; it++) {
        plan_program(true);
        uint32_t w[4096];
        size_t ndw;
        if (!encode(w, 4096, &ndw))
            continue;
        struct eg_program p = { "VS", w, ndw };
        struct eg_wave *wv = eg_wave_new_vs(&p, &fs, &env);
        assert_non_null(wv);
        t.programs++;
        /* a pixel wave's run refuses it */
        assert_int_equal(eg_wave_run(wv, NULL, 1, 1, 0, NULL), 1);
        for (int r = 0; r < 3; r++) {
            for (unsigned v = 0; v < VB_VERTS; v++)
                for (unsigned k = 0; k < 16; k++) {
                    union eg_vec4 x = { .f = { rand_float() } };
                    uint32_t u = k < 12 ? x.u[0] : k == 12 ? pick(5) : k == 13 ? (uint32_t)((int32_t)pick(8) - 2) : pick(8);
                    memcpy(vb + v * VB_STRIDE + 4 * k, &u, 4);
                }
            unsigned n = pick(2) ? NLANES : 1 + pick(NLANES);
            uint32_t instance = pick(4);
            static union eg_vec4 r0[NLANES];
            static struct eg_vs_output out[NLANES];
            for (unsigned l = 0; l < n; l++)
                r0[l] = (union eg_vec4){ .u = { pick(VB_VERTS + 4), 0, 0, instance } };
            memset(out, 0xA5, sizeof out);  /* what the run need not clear: not zeros */
            int rc = eg_wave_run_vs(wv, r0, n, out);
            assert_true(rc == 0 || rc == 1);
            t.runs++;
            bool some_fault = false;
            for (unsigned l = 0; l < n; l++) {
                struct eg_vs_output ref;
                struct eg_shader_err err;
                if (eg_run_vs(&p, &fs, &env, r0[l].u[0], instance, &ref, &err)) {
                    some_fault = true;
                    continue;
                }
                if (rc)
                    continue;
                if (!same_exports(&ref, &out[l])) {
                    for (unsigned c = 0; c < 4; c++)
                        if (ref.pos[0].u[c] != out[l].pos[0].u[c] || ref.param[0].u[c] != out[l].param[0].u[c] ||
                            ref.param[1].u[c] != out[l].param[1].u[c])
                            fail_msg("program %d (%u lanes) lane %u (vertex %u) .%c: position 0x%08x/0x%08x, "
                                     "param0 0x%08x/0x%08x, param1 0x%08x/0x%08x (alone/wave)", it, n, l, r0[l].u[0],
                                     "xyzw"[c], ref.pos[0].u[c], out[l].pos[0].u[c], ref.param[0].u[c],
                                     out[l].param[0].u[c], ref.param[1].u[c], out[l].param[1].u[c]);
                    fail_msg("program %d lane %u: masks %x/%x %x/%x", it, l, ref.pos_mask, out[l].pos_mask,
                             ref.param_mask, out[l].param_mask);
                }
                t.lanes++;
            }
            if (rc) {
                t.bailed++;
                if (!some_fault)
                    fail_msg("program %d: the vertex wave handed back a run no vertex faults on", it);
            }
        }
        eg_wave_free(wv);
    }
    vs_mode = false;
    printf("vertex wave: %u programs, %u runs (%u handed back, each with a faulting vertex), %u vertices compared\n",
           t.programs, t.runs, t.bailed, t.lanes);
    assert_true(t.programs > 200);
    assert_true(t.lanes > 10000);
    assert_true(t.bailed * 2 < t.runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wave_matches_groups),
        cmocka_unit_test(vertex_wave_matches_eg_run_vs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
