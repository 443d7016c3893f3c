/* Evergreen shader interpreter: a vector of lanes (one vertex, or the pixels
 * of a quad) through the CF program, its ALU clauses (VLIW5 groups: x/y/z/w/t
 * slots, PV/PS forwarding, literals, kcache constants), VTX and TEX clauses,
 * and exports.
 *
 * Execution model (Evergreen ISA, "ALU instruction groups"): every
 * instruction of a group reads its sources before any of the group writes; PV
 * then holds the vector slots' results and PS the trans slot's, whether or not
 * they were written to a GPR.
 *
 * Control flow: cf.c, for the lanes' active mask; here what the lanes do
 * under it.  PRED_SET* with UPDATE_EXEC_MASK deactivates the lanes whose
 * condition fails, with UPDATE_PRED sets the lane's predicate that PRED_SEL
 * tests; a KILL marks the lane's pixel discarded (the renderer drops it);
 * MOVA_INT loads the lane's address register AR, which relative GPR and
 * constant operands (INDEX_MODE AR_X) add to their index.
 * Anything not modelled stops the run with "shader NAME PC n: unsupported ...".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alu_rules.h"
#include "cf.h"
#include "eg_regs.h"
#include "interp.h"
#include "isa.h"

#define NGPR 128
#define MAX_LANES 4         /* a quad */

struct lane {
    union eg_vec4 gpr[NGPR];
    union eg_vec4 pv;
    uint32_t ps;
    int32_t ar;             /* address register (AR.x), MOVA_INT */
    bool pred;              /* predicate bit, PRED_SET* with UPDATE_PRED */
    union eg_vec4 grad[2];  /* SET_GRADIENTS_H / _V, for SAMPLE_G* */
    struct eg_lds_queue oq_a;   /* LDS output queue A (lds.c) */
};

struct machine {
    const struct eg_program *main, *fs;
    const struct eg_shader_env *env;
    struct eg_shader_err *err;
    struct eg_cf cf;        /* the flow control: the running program, PC, masks */
    long at;                /* 64-bit address of the clause instruction running, -1 none */
    unsigned nl;            /* lanes */
    struct lane *ln;
    unsigned cl;            /* the lane an ALU group, fetch or export is running for */
    uint64_t group_active;  /* the lanes active when the running ALU group began (MBCNT) */
    unsigned res_base, sampler_base;    /* of the main program's stage */
    bool is_ps;
    struct eg_kc kc[4];     /* kcache sets of the running ALU clause */
    /* pixel shader */
    const struct eg_ps_input *ps_in;    /* per lane */
    struct eg_ps_output *ps_out;        /* per lane */
    struct eg_vs_output *vs_out;
    struct eg_stream_out *so;           /* NULL: stream-out exports are skipped */
    union eg_vec4 *scratch;             /* nl x EG_SCRATCH_ELEMS, made at the first use */
};

static int fault(struct machine *m, const char *fmt, ...)
{
    char what[140];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = m->cf.prog && m->cf.prog->name ? m->cf.prog->name : "?";
    int len;    /* a truncated message is still a message */
    if (m->at >= 0)
        len = snprintf(m->err->msg, sizeof m->err->msg, "shader %s PC %zu (clause instruction at %ld): %s", name,
                       m->cf.pc, m->at, what);
    else
        len = snprintf(m->err->msg, sizeof m->err->msg, "shader %s PC %zu: %s", name, m->cf.pc, what);
    (void)len;
    return -1;
}

static unsigned cur_res_base(const struct machine *m)
{
    return m->cf.prog == m->fs && m->fs != m->main ? V_SQ_FETCH_RESOURCE_BASE__FS : m->res_base;
}

/* The index a relative operand adds (ALU_WORD0 INDEX_MODE). */
static int rel_index(struct machine *m, const struct lane *L, unsigned mode, int32_t *out)
{
    switch (mode) {
    case V_SQ_ALU_INDEX_MODE__AR_X:
        *out = L->ar;
        return 0;
    case V_SQ_ALU_INDEX_MODE__LOOP:
        if (!eg_cf_loop_index(&m->cf, out))
            return fault(m, "relative addressing by the loop index outside a loop");
        return 0;
    default:
        return fault(m, "unsupported index mode %u", mode);
    }
}

/* ---------------------------------------------------------------- ALU */

struct slot {
    bool used;
    bool op3;
    unsigned op;
    uint32_t w0, w1;
    uint32_t src[3];        /* after NEG/ABS */
    unsigned src_sel[3], src_chan[3];
    uint32_t result;
    struct alu_effects fx;
    bool skip;              /* PRED_SEL: the lane's predicate says no */
};

/* Constant idx of a locked kcache set; rel: plus the index register
 * (a relative constant is read from the buffer, not only the locked lines). */
static int read_kcache(struct machine *m, unsigned set, unsigned idx, unsigned chan, bool rel, int32_t off,
                       uint32_t *out)
{
    unsigned mode = m->kc[set].mode;
    unsigned size = mode == V_SQ_KCACHE_MODE__LOCK_1 ? 16 : 32;
    if (mode == V_SQ_KCACHE_MODE__NOP)
        return fault(m, "constant KC%u[%u] read from an unlocked kcache set", set, idx);
    if (mode == V_SQ_KCACHE_MODE__LOCK_LOOP_INDEX)
        return fault(m, "unsupported kcache mode LOCK_LOOP_INDEX");
    if (!rel && idx >= size)
        return fault(m, "constant KC%u[%u] outside the %u locked constants", set, idx, size);
    if (!m->env->constant)
        return fault(m, "constant read without a constant callback");
    int64_t at = (int64_t)m->kc[set].addr * 16 + idx + (rel ? off : 0);
    if (at < 0 || at > 0xFFFFF)
        return fault(m, "relative constant KC%u[%u%+d] outside its buffer", set, idx, (int)off);
    uint32_t v[4];
    char msg[120] = "";
    if (m->env->constant(m->env->ctx, m->kc[set].bank, (unsigned)at, v, msg, sizeof msg))
        return fault(m, "constant buffer %u[%u]: %s", m->kc[set].bank, (unsigned)at, msg);
    *out = v[chan];
    return 0;
}

static int read_src(struct machine *m, struct lane *L, unsigned sel, unsigned chan, bool rel,
                    unsigned index_mode, const uint32_t *lit, unsigned nlit, const union eg_vec4 *pv, uint32_t ps,
                    uint32_t *out)
{
    int32_t off = 0;
    if (rel && rel_index(m, L, index_mode, &off))
        return -1;
    if (sel < V_SQ_ALU_SRC__GPR_COUNT) {
        int32_t g = (int32_t)sel + off;
        if (g < 0 || g >= NGPR)
            return fault(m, "relative source R%u%+d outside the registers", sel, (int)off);
        *out = L->gpr[g].u[chan];
        return 0;
    }
    static const unsigned kbase[4] = { V_SQ_ALU_SRC__KCACHE0_BASE, V_SQ_ALU_SRC__KCACHE1_BASE,
                                       V_SQ_ALU_SRC__KCACHE2_BASE, V_SQ_ALU_SRC__KCACHE3_BASE };
    for (unsigned k = 0; k < 4; k++)
        if (sel >= kbase[k] && sel < kbase[k] + V_SQ_ALU_SRC__KCACHE_SIZE)
            return read_kcache(m, k, sel - kbase[k], chan, rel, off, out);
    switch (sel) {
    case V_SQ_ALU_SRC__ZERO: *out = 0; return 0;
    case V_SQ_ALU_SRC__ONE: *out = eg_f2u(1.0f); return 0;
    case V_SQ_ALU_SRC__HALF: *out = eg_f2u(0.5f); return 0;
    case V_SQ_ALU_SRC__ONE_INT: *out = 1; return 0;
    case V_SQ_ALU_SRC__M_ONE_INT: *out = 0xFFFFFFFFu; return 0;
    case V_SQ_ALU_SRC__PV: *out = pv->u[chan]; return 0;
    case V_SQ_ALU_SRC__PS: *out = ps; return 0;
    case V_SQ_ALU_SRC__SE_ID: *out = 0; return 0;   /* the Cedar has one shader engine */
    case V_SQ_ALU_SRC__HW_WAVE_ID: *out = m->env->hw_wave_id; return 0;
    case V_SQ_ALU_SRC__LDS_OQ_A:
    case V_SQ_ALU_SRC__LDS_OQ_A_POP:
        /* the queue's oldest value (whichever channel is named) */
        if (eg_lds_take(&L->oq_a, sel == V_SQ_ALU_SRC__LDS_OQ_A_POP, out))
            return fault(m, "LDS_OQ_A%s of an empty LDS output queue", sel == V_SQ_ALU_SRC__LDS_OQ_A_POP ? "_POP" : "");
        return 0;
    case V_SQ_ALU_SRC__LITERAL:
        if (chan >= nlit)
            return fault(m, "literal .%c missing after its group", "xyzw"[chan]);
        *out = lit[chan];
        return 0;
    default:
        break;
    }
    if (sel >= V_SQ_ALU_SRC__PARAM_BASE && sel < V_SQ_ALU_SRC__PARAM_BASE + V_SQ_ALU_SRC__PARAM_COUNT) {
        *out = 0;   /* only the INTERP instructions read parameters; they look them up themselves */
        return 0;
    }
    return fault(m, "unsupported ALU source selector %u", sel);
}

static const struct eg_ps_param *param_of(struct machine *m, unsigned sel)
{
    if (!m->ps_in || sel < V_SQ_ALU_SRC__PARAM_BASE)
        return NULL;
    const struct eg_ps_input *in = &m->ps_in[m->cl];
    unsigned n = sel - V_SQ_ALU_SRC__PARAM_BASE;
    if (n >= V_SQ_ALU_SRC__PARAM_COUNT || n >= in->nparam)
        return NULL;
    return &in->param[n];
}

static bool is_interp(unsigned op)
{
    return op == V_SQ_ALU_OP2__INTERP_XY || op == V_SQ_ALU_OP2__INTERP_ZW || op == V_SQ_ALU_OP2__INTERP_X ||
           op == V_SQ_ALU_OP2__INTERP_Z;
}

/* INTERP_XY/ZW/X/Z: a pair of slots computes one component as
 * P0 + I*P10 + J*P20, the odd slot reading I and the even slot J in src0
 * (r600_shader.c evergreen_interp_alu; the seed's pixel shader).  Each slot's
 * result is the component of its own channel: XY's x and y slots give X and Y
 * (Y computed by the z/w pair), ZW's z and w slots Z and W (Z by the x/y pair),
 * INTERP_X's x slot X, INTERP_Z's z slot Z.  The other slots' partial values are
 * modelled as the same completed value. */
static int exec_interp(struct machine *m, struct slot *s, int k)
{
    unsigned op = s[k].op;
    unsigned comp, pair;
    switch (op) {
    case V_SQ_ALU_OP2__INTERP_XY: comp = k < 2 ? (unsigned)k : 1; pair = k < 2 ? (unsigned)k : 1; break;
    case V_SQ_ALU_OP2__INTERP_ZW: comp = k < 2 ? 2 : (unsigned)k; pair = k < 2 ? 0 : (unsigned)k - 2; break;
    case V_SQ_ALU_OP2__INTERP_X: comp = 0; pair = 0; break;
    default: comp = 2; pair = 1; break;     /* INTERP_Z */
    }
    if (k == EG_SLOT_T)
        return fault(m, "%s in the trans slot", eg_alu_op_name(false, op));
    const struct slot *even = &s[2 * pair], *odd = &s[2 * pair + 1];
    if (!even->used || !odd->used || even->op != op || odd->op != op)
        return fault(m, "%s without its slot pair %c%c", eg_alu_op_name(false, op), "xyzw"[2 * pair],
                     "xyzw"[2 * pair + 1]);
    const struct eg_ps_param *p = param_of(m, s[k].src_sel[1]);
    if (!p)
        return fault(m, "%s of parameter %d, which the pixel has no value for", eg_alu_op_name(false, op),
                     (int)s[k].src_sel[1] - (int)V_SQ_ALU_SRC__PARAM_BASE);
    float i = eg_u2f(odd->src[0]), j = eg_u2f(even->src[0]);
    s[k].result = eg_f2u(p->p0[comp] + i * p->p10[comp] + j * p->p20[comp]);
    return 0;
}

/* MBCNT_32LO_ACCUM_PREV_INT / MBCNT_32HI_INT's masked bit count for the
 * running lane: how many of the lanes below it, among those active when the
 * group began, have their bit set in src, the lanes of the wave's low half
 * (0..31: bit l of src for lane l) or of its high half (32..63: bit l - 32).
 * Mesa passes src = -1 (sfn_shader.cpp allocate_reserved_registers), so a
 * lane gets the number of active lanes below it in that half; the model's
 * compute waves have 32 lanes, so MBCNT_32HI_INT gives them 0. */
static uint32_t mbcnt(const struct machine *m, uint32_t src, bool hi)
{
    uint64_t below = m->cl >= 64 ? ~0ull : (1ull << m->cl) - 1;
    uint64_t bits = hi ? (uint64_t)src << 32 : (uint64_t)src;
    return (uint32_t)__builtin_popcountll(below & m->group_active & bits);
}

/* One lane (m->cl) through one instruction group. */
static int exec_group(struct machine *m, struct slot *s, const uint32_t *lit, unsigned nlit)
{
    struct lane *L = &m->ln[m->cl];
    const union eg_vec4 pv = L->pv;
    const uint32_t ps = L->ps;

    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used)
            continue;
        uint32_t w0 = s[k].w0, w1 = s[k].w1;
        unsigned psel = G_SQ_ALU_WORD0__PRED_SEL(w0);
        if (psel == V_SQ_ALU_PRED_SEL__ZERO || psel == V_SQ_ALU_PRED_SEL__ONE)
            s[k].skip = L->pred != (psel == V_SQ_ALU_PRED_SEL__ONE);
        else if (psel != V_SQ_ALU_PRED_SEL__OFF)
            return fault(m, "reserved PRED_SEL %u", psel);
        const struct eg_alu_op_info *info = eg_alu_op_info(s[k].op3, s[k].op);
        unsigned nsrc = info ? info->nsrc : 0;
        unsigned sel[3] = { G_SQ_ALU_WORD0__SRC0_SEL(w0), G_SQ_ALU_WORD0__SRC1_SEL(w0), G_SQ_ALU_WORD1_OP3__SRC2_SEL(w1) };
        unsigned chan[3] = { G_SQ_ALU_WORD0__SRC0_CHAN(w0), G_SQ_ALU_WORD0__SRC1_CHAN(w0), G_SQ_ALU_WORD1_OP3__SRC2_CHAN(w1) };
        bool rel[3] = { G_SQ_ALU_WORD0__SRC0_REL(w0), G_SQ_ALU_WORD0__SRC1_REL(w0), G_SQ_ALU_WORD1_OP3__SRC2_REL(w1) };
        /* an LDS instruction keeps its index offset in the negate bits */
        bool lds = s[k].op3 && s[k].op == V_SQ_ALU_OP3__LDS_IDX_OP;
        bool neg[3] = { !lds && G_SQ_ALU_WORD0__SRC0_NEG(w0), !lds && G_SQ_ALU_WORD0__SRC1_NEG(w0),
                        !lds && G_SQ_ALU_WORD1_OP3__SRC2_NEG(w1) };
        bool abs[3] = { !s[k].op3 && G_SQ_ALU_WORD1_OP2__SRC0_ABS(w1), !s[k].op3 && G_SQ_ALU_WORD1_OP2__SRC1_ABS(w1), false };
        for (unsigned i = 0; i < nsrc && i < 3; i++) {
            if (read_src(m, L, sel[i], chan[i], rel[i], G_SQ_ALU_WORD0__INDEX_MODE(w0), lit, nlit, &pv, ps,
                         &s[k].src[i]))
                return -1;
            /* ABS then NEG, on the sign bit (float modifiers) */
            if (abs[i])
                s[k].src[i] &= 0x7FFFFFFFu;
            if (neg[i])
                s[k].src[i] ^= 0x80000000u;
            s[k].src_sel[i] = sel[i];
            s[k].src_chan[i] = chan[i];
        }
    }

    /* results: the single-slot ops, then the group ops (eg_alu_eval_group:
     * DOT / DOT_IEEE add the next slot's finished result) */
    bool group = false;
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < EG_NSLOTS; k++) {
            if (!s[k].used)
                continue;
            unsigned op = s[k].op;
            bool gop = eg_alu_is_group_op(s[k].op3, op);
            /* adds the next slot's result, as DOT does (Mesa r600_isa.c
             * AF_PREV_NEXT for both; Mesa pairs it with MBCNT_32HI_INT in
             * the slot after it), so it is taken with the group ops */
            bool accum = !s[k].op3 && op == V_SQ_ALU_OP2__MBCNT_32LO_ACCUM_PREV_INT;
            if ((gop || accum) && k == EG_SLOT_T)
                return fault(m, "%s in the trans slot", eg_alu_op_name(false, op));
            if ((gop || accum) != (pass == 1))
                continue;
            if (accum) {
                if (k == EG_SLOT_W || !s[k + 1].used)
                    return fault(m, "%s without an instruction in the next slot", eg_alu_op_name(false, op));
                s[k].fx = (struct alu_effects){ .int_result = true };
                s[k].result = mbcnt(m, s[k].src[0], false) + s[k + 1].result;
            } else if (!s[k].op3 && op == V_SQ_ALU_OP2__MBCNT_32HI_INT) {
                s[k].fx = (struct alu_effects){ .int_result = true };
                s[k].result = mbcnt(m, s[k].src[0], true);
            } else if (gop) {
                if (!group) {
                    struct eg_alu_group_slot g[4];
                    uint32_t res[4];
                    const char *why = "";
                    for (int v = 0; v < 4; v++) {
                        g[v] = (struct eg_alu_group_slot){ s[v].used, s[v].op3, s[v].op, { s[v].src[0], s[v].src[1] } };
                        res[v] = s[v].result;
                    }
                    if (eg_alu_eval_group(g, res, &why))
                        return fault(m, "%s %s", eg_alu_op_name(false, op), why);
                    for (int v = 0; v < 4; v++)
                        if (s[v].used && eg_alu_is_group_op(s[v].op3, s[v].op))
                            s[v].result = res[v];
                    group = true;
                }
                s[k].fx = (struct alu_effects){ 0 };
            } else if (!s[k].op3 && is_interp(op)) {
                s[k].fx = (struct alu_effects){ 0 };
                if (exec_interp(m, s, k))
                    return -1;
            } else if (!s[k].op3 && (op == V_SQ_ALU_OP2__INTERP_LOAD_P0 || op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ||
                                     op == V_SQ_ALU_OP2__INTERP_LOAD_P20)) {
                s[k].fx = (struct alu_effects){ 0 };
                const struct eg_ps_param *p = param_of(m, s[k].src_sel[0]);
                if (!p)
                    return fault(m, "%s of a parameter the pixel has no value for", eg_alu_op_name(false, op));
                unsigned c = s[k].src_chan[0];
                float v = op == V_SQ_ALU_OP2__INTERP_LOAD_P0 ? p->p0[c] : op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ? p->p10[c] : p->p20[c];
                s[k].result = eg_f2u(v);
            } else if (s[k].op3 && op == V_SQ_ALU_OP3__LDS_IDX_OP) {
                /* no result: it writes the LDS and its queue */
                char why[120] = "";
                s[k].fx = (struct alu_effects){ .int_result = true };
                if (!s[k].skip && eg_lds_exec(m->env, s[k].w0, s[k].w1, s[k].src, &L->oq_a, why, sizeof why))
                    return fault(m, "%s", why);
            } else if (!s[k].op3 && op == V_SQ_ALU_OP2__GROUP_BARRIER) {
                /* the lanes run every group together, so each has done all
                 * before the barrier when any goes past it */
                s[k].fx = (struct alu_effects){ .int_result = true };
                s[k].result = 0;
                char why[120] = "";
                if (!s[k].skip && m->env->barrier && m->env->barrier(m->env->barrier_ctx, why, sizeof why))
                    return fault(m, "GROUP_BARRIER: %s", why);
            } else if (!s[k].op3 && op == V_SQ_ALU_OP2__MOVA_INT) {
                /* AR = src0 as an integer, clamped to [-256, 255] (Evergreen
                 * ISA, MOVA_INT); it is what relative operands add */
                int32_t a = (int32_t)s[k].src[0];
                s[k].fx = (struct alu_effects){ .int_result = true };
                s[k].result = (uint32_t)(a < -256 ? -256 : a > 255 ? 255 : a);
            } else if (eg_alu_eval(s[k].op3, op, s[k].src, &s[k].result, &s[k].fx)) {
                const char *name = eg_alu_op_name(s[k].op3, op);
                return fault(m, "unsupported ALU %s opcode 0x%02x (%s)", s[k].op3 ? "OP3" : "OP2", op, name ? name : "unknown");
            }
            /* output modifier and clamp apply to float results */
            if (!s[k].fx.int_result) {
                unsigned omod = s[k].op3 ? 0 : G_SQ_ALU_WORD1_OP2__OMOD(s[k].w1);
                bool clamp = G_SQ_ALU_WORD1_OP2__CLAMP(s[k].w1);
                if (omod || clamp)
                    s[k].result = alu_out_mod(omod, clamp, s[k].result);
            }
        }
    }

    /* writes (relative ones by the AR value before the group's MOVA_INT) */
    int32_t ar = L->ar;
    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used || s[k].skip)
            continue;
        uint32_t w0 = s[k].w0, w1 = s[k].w1;
        bool mova = !s[k].op3 && s[k].op == V_SQ_ALU_OP2__MOVA_INT;
        bool lds = s[k].op3 && s[k].op == V_SQ_ALU_OP3__LDS_IDX_OP;
        bool write = !mova && !lds && (s[k].op3 || G_SQ_ALU_WORD1_OP2__WRITE_MASK(w1));
        if (write) {
            int32_t g = (int32_t)G_SQ_ALU_WORD1_OP2__DST_GPR(w1);
            if (G_SQ_ALU_WORD1_OP2__DST_REL(w1)) {
                int32_t off;
                unsigned mode = G_SQ_ALU_WORD0__INDEX_MODE(w0);
                if (mode == V_SQ_ALU_INDEX_MODE__AR_X)
                    off = ar;
                else if (rel_index(m, L, mode, &off))
                    return -1;
                if (g + off < 0 || g + off >= NGPR)
                    return fault(m, "relative destination R%d%+d outside the registers", (int)g, (int)off);
                g += off;
            }
            L->gpr[g].u[G_SQ_ALU_WORD1_OP2__DST_CHAN(w1)] = s[k].result;
        }
        if (mova)
            L->ar = (int32_t)s[k].result;
    }
    /* PV/PS, kill and predicate */
    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used || s[k].skip || (s[k].op3 && s[k].op == V_SQ_ALU_OP3__LDS_IDX_OP))
            continue;
        uint32_t w1 = s[k].w1;
        if (k == EG_SLOT_T)
            L->ps = s[k].result;
        else
            L->pv.u[k] = s[k].result;
        if (s[k].fx.kill) {
            if (!m->is_ps)
                return fault(m, "KILL outside a pixel shader");
            /* the pixel is discarded at its export; it keeps running (its
             * values stay visible to its quad's neighbours) */
            m->ps_out[m->cl].killed = true;
        }
        if (s[k].fx.is_pred && !s[k].op3) {
            if (G_SQ_ALU_WORD1_OP2__UPDATE_PRED(w1))
                L->pred = s[k].fx.cond;
            if (G_SQ_ALU_WORD1_OP2__UPDATE_EXECUTE_MASK(w1) && !s[k].fx.cond)
                m->cf.active &= ~(1ull << m->cl);
        }
    }
    return 0;
}

static int run_alu_clause(struct machine *m, size_t addr, unsigned nslots)
{
    const uint32_t *dw = m->cf.prog->dw;
    size_t start = 2 * addr, end = start + 2 * (size_t)nslots;
    if (end > m->cf.prog->ndw)
        return fault(m, "ALU clause @%zu of %u slots runs past the end of the shader", addr, nslots);
    size_t i = start;
    while (i < end) {
        struct eg_alu_group g;
        size_t at = (size_t)m->at;
        char why[120];
        int rc = eg_alu_group_read(dw, &i, end, &g, &at, why, sizeof why);
        m->at = (long)at;
        if (rc)
            return fault(m, "%s", why);
        struct slot s[EG_NSLOTS];
        memset(s, 0, sizeof s);
        for (int k = 0; k < EG_NSLOTS; k++)
            if (g.s[k].used)
                s[k] = (struct slot){ .used = true, .op3 = g.s[k].op3, .op = g.s[k].op, .w0 = g.s[k].w0,
                                      .w1 = g.s[k].w1 };
        /* each active lane through the group (a lane a KILL or an
         * UPDATE_EXEC_MASK deactivates skips the rest of the clause) */
        m->group_active = m->cf.active;
        for (m->cl = 0; m->cl < m->nl; m->cl++) {
            if (!(m->cf.active >> m->cl & 1u))
                continue;
            struct slot ls[EG_NSLOTS];
            memcpy(ls, s, sizeof ls);
            if (exec_group(m, ls, g.lit, g.nlit))
                return -1;
        }
    }
    m->at = -1;
    return 0;
}

/* ---------------------------------------------------------------- scratch */

/* Lane l's scratch elements (zeros before the first write). */
static union eg_vec4 *lane_scratch(struct machine *m, unsigned l)
{
    if (!m->scratch) {
        m->scratch = calloc((size_t)m->nl * EG_SCRATCH_ELEMS, sizeof *m->scratch);
        if (!m->scratch) {
            fault(m, "out of memory for scratch");
            return NULL;
        }
    }
    return m->scratch + (size_t)l * EG_SCRATCH_ELEMS;
}

/* MEM_SCRATCH for the running lane (Mesa sfn ScratchIOInstr: ELEM_SIZE 3):
 * element ARRAY_BASE (+ INDEX_GPR.x, a signed integer, when TYPE is an
 * indexed one: bit 0) and the BURST_COUNT following get RW_GPR and the GPRs
 * after it, the components COMP_MASK names.  Elements outside the scratch
 * are dropped. */
static int scratch_write(struct machine *m, uint32_t w0, uint32_t w1)
{
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0) != 3 || G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return fault(m, "unsupported MEM_SCRATCH form (ELEM_SIZE %u, RW_REL %u)",
                     G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0), G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0));
    union eg_vec4 *sc = lane_scratch(m, m->cl);
    if (!sc)
        return -1;
    const struct lane *L = &m->ln[m->cl];
    int64_t e = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0) & 1u)
        e += (int32_t)L->gpr[G_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(w0)].u[0];
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0), mask = G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1);
    for (unsigned b = 0; b <= G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1); b++, e++) {
        if (gpr + b >= NGPR)
            return fault(m, "MEM_SCRATCH of R%u", gpr + b);
        if (e < 0 || e >= EG_SCRATCH_ELEMS)
            continue;
        for (unsigned c = 0; c < 4; c++)
            if ((mask >> c) & 1u)
                sc[e].u[c] = L->gpr[gpr + b].u[c];
    }
    return 0;
}

/* ---------------------------------------------------------------- rings */

/* MEM_RING .. MEM_RING3 for the running lane (an ES's or GS's output to its
 * ring item: Mesa sfn MemRingOutInstr, ELEM_SIZE 3, COMP_MASK 0xF): ARRAY_BASE
 * counts dwords (the ES writes the GS input at ring offset / 4, which the GS
 * fetches at 16 bytes per input), the index GPR's x (WRITE_IND, TYPE bit 0)
 * and each burst element count elements of ELEM_SIZE + 1 dwords (the GS adds
 * its output count per emitted vertex to the index, and the copy shader reads
 * output i of vertex k at k * SQ_GS_VERT_ITEMSIZE + 4 i dwords). */
static int ring_write(struct machine *m, unsigned ring, uint32_t w0, uint32_t w1)
{
    if (!m->env->ring_write)
        return fault(m, "MEM_RING%u outside the geometry path (no ring)", ring);
    unsigned elem = G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0) + 1;
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return fault(m, "unsupported relative MEM_RING%u", ring);
    const struct lane *L = &m->ln[m->cl];
    int64_t dw = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0) & 1u)
        dw += (int64_t)(int32_t)L->gpr[G_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(w0)].u[0] * elem;
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0), mask = G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1);
    if (elem < 4)
        mask &= (1u << elem) - 1u;
    for (unsigned b = 0; b <= G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1); b++, dw += elem) {
        if (gpr + b >= NGPR)
            return fault(m, "MEM_RING%u of R%u", ring, gpr + b);
        if (dw < 0)
            return fault(m, "MEM_RING%u to dword %lld of the ring item", ring, (long long)dw);
        char msg[120] = "";
        if (m->env->ring_write(m->env->ctx, ring, (uint64_t)dw, L->gpr[gpr + b].u, mask, msg, sizeof msg))
            return fault(m, "MEM_RING%u: %s", ring, msg);
    }
    return 0;
}

/* ---------------------------------------------------------------- fetch */

static int run_fetch_clause(struct machine *m, bool tex, size_t addr, unsigned count)
{
    size_t start = 2 * addr, end = start + 4 * (size_t)count;
    if (addr & 1)
        return fault(m, "fetch clause @%zu is not 128-bit aligned", addr);
    if (end > m->cf.prog->ndw)
        return fault(m, "%s clause @%zu of %u instructions runs past the end of the shader", tex ? "TEX" : "VTX",
                     addr, count);
    for (size_t at = start; at < end; at += 4) {
        m->at = (long)(at / 2);
        /* every lane's source as it is before any lane writes: a texture
         * instruction's derivatives read the quad's neighbours */
        union eg_vec4 src[MAX_LANES];
        struct eg_tex_lod_memo memo = { false, 0.0f };
        struct eg_tex_prep prep;    /* the TEX instruction, prepared by its first lane (eg_exec_tex's two halves) */
        bool prepared = false;
        if (tex && m->is_ps)
            for (unsigned l = 0; l < m->nl; l++)
                src[l] = m->ln[l].gpr[G_SQ_TEX_WORD0__SRC_GPR(m->cf.prog->dw[at])];
        for (unsigned l = 0; l < m->nl; l++) {
            if (!(m->cf.active >> l & 1u))
                continue;
            char msg[160] = "";
            union eg_vec4 *gpr = m->ln[l].gpr;
            /* the lanes of another stage are invocations, not a quad: each
             * on its own, as a single lane */
            union eg_vec4 own;
            if (tex && !m->is_ps)
                own = m->ln[l].gpr[G_SQ_TEX_WORD0__SRC_GPR(m->cf.prog->dw[at])];
            struct eg_tex_quad q = m->is_ps ? (struct eg_tex_quad){ src, m->nl, l, m->ln[l].grad, &memo }
                                            : (struct eg_tex_quad){ &own, 1, 0, m->ln[l].grad, NULL };
            const uint32_t *w = m->cf.prog->dw + at;
            int r;
            if (tex && G_SQ_TEX_WORD0__TEX_INST(w[0]) == V_SQ_TEX_INST__VFETCH) {
                r = eg_exec_vtx(m->env, gpr, cur_res_base(m), w, msg, sizeof msg);
            } else if (tex) {
                r = prepared ? 0 : eg_tex_prepare(m->env, cur_res_base(m), m->sampler_base, w, &prep, msg, sizeof msg);
                prepared = true;
                if (!r)
                    r = eg_tex_lane(&prep, gpr, &q, msg, sizeof msg);
            } else if (G_SQ_VTX_WORD0__VTX_INST(w[0]) == V_SQ_VTX_INST__MEM) {
                const union eg_vec4 *sc = lane_scratch(m, l);
                if (!sc)
                    return -1;
                r = eg_exec_scratch_read(gpr, sc, w, msg, sizeof msg);
            } else {
                r = eg_exec_vtx(m->env, gpr, cur_res_base(m), w, msg, sizeof msg);
            }
            if (r)
                return fault(m, "%s", msg);
        }
    }
    m->at = -1;
    return 0;
}

/* A GDS clause (GDS operations, TF_WRITE): each instruction for every
 * active lane in turn, lanes in order (the GDS serves one request at a
 * time). */
static int run_gds_clause(struct machine *m, size_t addr, unsigned count)
{
    size_t start = 2 * addr, end = start + 4 * (size_t)count;
    if (addr & 1)
        return fault(m, "GDS clause @%zu is not 128-bit aligned", addr);
    if (end > m->cf.prog->ndw)
        return fault(m, "GDS clause @%zu of %u instructions runs past the end of the shader", addr, count);
    for (size_t at = start; at < end; at += 4) {
        m->at = (long)(at / 2);
        for (unsigned l = 0; l < m->nl; l++) {
            char msg[160] = "";
            if ((m->cf.active >> l & 1u) &&
                eg_exec_gds(m->env, m->ln[l].gpr, NGPR, m->cf.prog->dw + at, msg, sizeof msg))
                return fault(m, "%s", msg);
        }
    }
    m->at = -1;
    return 0;
}

/* ---------------------------------------------------------------- exports */

int eg_export_decode(bool is_ps, uint32_t w0, uint32_t w1, unsigned b, struct eg_export_target *t, char *why,
                     size_t whylen)
{
    unsigned type = G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0);
    unsigned a = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0) + b;
    t->sel[0] = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(w1);
    t->sel[1] = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(w1);
    t->sel[2] = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(w1);
    t->sel[3] = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(w1);
    t->xyzw = t->sel[0] == V_SQ_INST_SEL__X && t->sel[1] == V_SQ_INST_SEL__Y && t->sel[2] == V_SQ_INST_SEL__Z &&
              t->sel[3] == V_SQ_INST_SEL__W;
    if (type == V_SQ_EXPORT_TYPE__POS && !is_ps && a >= V_SQ_EXPORT_ARRAY_BASE__POS0 &&
        a < V_SQ_EXPORT_ARRAY_BASE__POS0 + 4) {
        t->kind = EG_EXPORT_POS;
        t->index = a - V_SQ_EXPORT_ARRAY_BASE__POS0;
    } else if (type == V_SQ_EXPORT_TYPE__PARAM && !is_ps && a < V_SQ_EXPORT_ARRAY_BASE__PARAM_COUNT) {
        t->kind = EG_EXPORT_PARAM;
        t->index = a;
    } else if (type == V_SQ_EXPORT_TYPE__PIXEL && is_ps && a < V_SQ_EXPORT_ARRAY_BASE__PIXEL_MRT_COUNT) {
        t->kind = EG_EXPORT_COLOR;
        t->index = a;
    } else if (type == V_SQ_EXPORT_TYPE__PIXEL && is_ps && a == V_SQ_EXPORT_ARRAY_BASE__PIXEL_Z) {
        t->kind = EG_EXPORT_Z;
        t->index = 0;
    } else {
        snprintf(why, whylen, "unsupported export: type %u array base %u in a %s", type, a,
                 is_ps ? "pixel shader" : "vertex shader");
        return -1;
    }
    return 0;
}

void eg_export_apply(const struct eg_export_target *t, const union eg_vec4 *src, struct eg_ps_output *po,
                     struct eg_vs_output *vo)
{
    union eg_vec4 *dst;
    switch (t->kind) {
    case EG_EXPORT_POS:
        dst = &vo->pos[t->index];
        if (!(vo->pos_mask >> t->index & 1u))
            *dst = (union eg_vec4){ 0 };    /* the first export there: what it masks is 0 */
        vo->pos_mask |= (uint8_t)(1u << t->index);
        break;
    case EG_EXPORT_PARAM:
        dst = &vo->param[t->index];
        if (!(vo->param_mask >> t->index & 1u))
            *dst = (union eg_vec4){ 0 };
        vo->param_mask |= 1u << t->index;
        break;
    case EG_EXPORT_COLOR:
        dst = &po->color[t->index];
        po->color_mask |= (uint8_t)(1u << t->index);
        break;
    default:
        /* x the depth, y the stencil reference, z the sample mask (Mesa
         * r600_shader.c / sfn_shader_fs.cpp export gl_FragStencilRefARB's
         * integer as .y of ARRAY_BASE 61, gl_SampleMask's as .z, the depth
         * as .x, each in its own export, the rest masked) */
        if (t->sel[0] <= V_SQ_INST_SEL__W) {
            po->depth = src->f[t->sel[0]];
            po->depth_written = true;
        }
        if (t->sel[1] <= V_SQ_INST_SEL__W) {
            po->stencil = src->u[t->sel[1]];
            po->stencil_written = true;
        }
        if (t->sel[2] <= V_SQ_INST_SEL__W) {
            po->mask = src->u[t->sel[2]];
            po->mask_written = true;
        }
        return;
    }
    if (t->xyzw) {
        *dst = *src;
        return;
    }
    for (int c = 0; c < 4; c++) {
        switch (t->sel[c]) {
        case V_SQ_INST_SEL__X: case V_SQ_INST_SEL__Y: case V_SQ_INST_SEL__Z: case V_SQ_INST_SEL__W:
            dst->u[c] = src->u[t->sel[c]];
            break;
        case V_SQ_INST_SEL__ZERO: dst->f[c] = 0.0f; break;
        case V_SQ_INST_SEL__ONE: dst->f[c] = 1.0f; break;
        default: break;     /* MASK: not written */
        }
    }
}

int eg_export_lane(bool is_ps, uint32_t w0, uint32_t w1, unsigned b, const union eg_vec4 *src,
                   struct eg_ps_output *po, struct eg_vs_output *vo, char *why, size_t whylen)
{
    struct eg_export_target t;
    if (eg_export_decode(is_ps, w0, w1, b, &t, why, whylen))
        return -1;
    eg_export_apply(&t, src, po, vo);
    return 0;
}

static int do_export(struct machine *m, uint32_t w0, uint32_t w1)
{
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return fault(m, "unsupported relative export");
    for (unsigned b = 0; b <= G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(w1); b++) {
        if (gpr + b >= NGPR)
            return fault(m, "export of R%u", gpr + b);
        char why[120];
        if (eg_export_lane(m->is_ps, w0, w1, b, &m->ln[m->cl].gpr[gpr + b], m->is_ps ? &m->ps_out[m->cl] : NULL,
                           m->vs_out, why, sizeof why))
            return fault(m, "%s", why);
    }
    return 0;
}

/* ---------------------------------------------------------------- the flow control's callbacks */

static int cf_alu(void *ctx, struct eg_cf *c, const struct eg_kc kc[4], size_t addr, unsigned nslots)
{
    struct machine *m = ctx;
    (void)c;
    memcpy(m->kc, kc, sizeof m->kc);
    return run_alu_clause(m, addr, nslots);
}

static int cf_fetch(void *ctx, struct eg_cf *c, bool tex, size_t addr, unsigned count, uint64_t lanes)
{
    (void)c, (void)lanes;   /* c->active holds them */
    return run_fetch_clause(ctx, tex, addr, count);
}

static int cf_gds(void *ctx, struct eg_cf *c, size_t addr, unsigned count, uint64_t lanes)
{
    (void)c, (void)lanes;   /* c->active holds them */
    return run_gds_clause(ctx, addr, count);
}

/* A vertex shader's stream-out export (MEM_STREAMn_BUFm) of the running
 * lane, recorded when the caller asked for them. */
static int stream_write(struct machine *m, unsigned inst, uint32_t w0, uint32_t w1)
{
    if (m->is_ps)
        return fault(m, "stream-out export in a pixel shader");
    if (!m->so)
        return 0;
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0) || G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1) || gpr >= NGPR)
        return fault(m, "unsupported stream-out export form (R%u, relative %u, burst %u)", gpr,
                     G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0), G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1) + 1);
    if (m->so->n == EG_STREAM_MAX_WRITES)
        return fault(m, "more than %d stream-out exports", EG_STREAM_MAX_WRITES);
    struct eg_stream_write *s = &m->so->w[m->so->n++];
    unsigned k = inst - V_SQ_CF_INST__MEM_STREAM0_BUF0;
    s->stream = (uint8_t)(k / 4);
    s->buf = (uint8_t)(k % 4);
    s->comp_mask = (uint8_t)G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1);
    s->dword = (uint16_t)G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
    memcpy(s->v, m->ln[m->cl].gpr[gpr].u, sizeof s->v);
    return 0;
}

/* A MEM_RAT / MEM_RAT_CACHELESS store of the running lane (the word-0
 * fields SQ_CF_ALLOC_EXPORT_WORD0_RAT): one element, as Mesa's
 * sfn_instr_mem.cpp RatInstr emits them (burst 1, RAT_ID as encoded). */
static int rat_write(struct machine *m, uint32_t w0, uint32_t w1)
{
    unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INST(w0), type = G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__TYPE(w0);
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RW_GPR(w0), idx = G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__INDEX_GPR(w0);
    if (!m->env->rat)
        return fault(m, "a RAT store (MEM_RAT) where the stage has no random-access targets");
    if (G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INDEX_MODE(w0) || G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RW_REL(w0) ||
        G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1) || (type != 1 && type != 3) || gpr >= NGPR || idx >= NGPR)
        return fault(m, "unsupported RAT store form (index mode %u, relative %u, burst %u, type %u, R%u, index R%u)",
                     G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INDEX_MODE(w0), G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RW_REL(w0),
                     G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1) + 1, type, gpr, idx);
    char msg[120] = "";
    const struct lane *L = &m->ln[m->cl];
    if (m->env->rat(m->env->ctx, G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(w0), inst, L->gpr[idx].u, L->gpr[gpr].u,
                    G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1), msg, sizeof msg))
        return fault(m, "RAT %u: %s", G_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(w0), msg);
    return 0;
}

/* An export (or a scratch or stream-out write) for each active lane. */
static int cf_export(void *ctx, struct eg_cf *c, uint32_t w0, uint32_t w1)
{
    struct machine *m = ctx;
    unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(w1);
    if (inst >= V_SQ_CF_INST__MEM_STREAM0_BUF0 && inst <= V_SQ_CF_INST__MEM_STREAM3_BUF3) {
        for (m->cl = 0; m->cl < m->nl; m->cl++)
            if ((c->active >> m->cl & 1u) && stream_write(m, inst, w0, w1))
                return -1;
        return 0;
    }
    bool scratch = inst == V_SQ_CF_INST__MEM_SCRATCH;
    int ring = inst == V_SQ_CF_INST__MEM_RING ? 0 : inst >= V_SQ_CF_INST__MEM_RING1 && inst <= V_SQ_CF_INST__MEM_RING3
                                                      ? (int)(inst - V_SQ_CF_INST__MEM_RING1) + 1 : -1;
    if (ring >= 0) {
        for (m->cl = 0; m->cl < m->nl; m->cl++)
            if ((c->active >> m->cl & 1u) && ring_write(m, (unsigned)ring, w0, w1))
                return -1;
        return 0;
    }
    if (inst == V_SQ_CF_INST__MEM_RAT || inst == V_SQ_CF_INST__MEM_RAT_CACHELESS) {
        for (m->cl = 0; m->cl < m->nl; m->cl++)
            if ((c->active >> m->cl & 1u) && rat_write(m, w0, w1))
                return -1;
        return 0;
    }
    if (inst != V_SQ_CF_INST__EXPORT && inst != V_SQ_CF_INST__EXPORT_DONE && !scratch)
        return fault(m, "unsupported CF instruction 0x%02x (%s)", inst,
                     eg_cf_inst_name(w1) ? eg_cf_inst_name(w1) : "unknown");
    for (m->cl = 0; m->cl < m->nl; m->cl++)
        if ((c->active >> m->cl & 1u) && (scratch ? scratch_write(m, w0, w1) : do_export(m, w0, w1)))
            return -1;
    return 0;
}

/* EMIT_VERTEX / CUT_VERTEX / EMIT_CUT_VERTEX for each lane passing. */
static int cf_emit(void *ctx, struct eg_cf *c, unsigned inst, unsigned stream, uint64_t lanes)
{
    struct machine *m = ctx;
    (void)c;
    if (!m->env->emit) /* not a GS */
        return fault(m, "unsupported CF instruction 0x%02x (%s)", inst, eg_cf_inst_name(S_SQ_CF_WORD1__CF_INST(inst)));
    bool emit = inst != V_SQ_CF_INST__CUT_VERTEX, cut = inst != V_SQ_CF_INST__EMIT_VERTEX;
    for (m->cl = 0; m->cl < m->nl; m->cl++) {
        if (!(lanes >> m->cl & 1u))
            continue;
        char msg[120] = "";
        if (m->env->emit(m->env->ctx, stream, emit, cut, msg, sizeof msg))
            return fault(m, "%s: %s", eg_cf_inst_name(S_SQ_CF_WORD1__CF_INST(inst)), msg);
    }
    return 0;
}

static int cf_fault(void *ctx, struct eg_cf *c, const char *what)
{
    (void)c;
    return fault(ctx, "%s", what);
}

static int run(struct machine *m)
{
    const struct eg_cf_ops ops = { .ctx = m, .fs = m->fs, .env = m->env, .alu = cf_alu, .fetch = cf_fetch,
                                   .gds = cf_gds, .export = cf_export, .emit = cf_emit, .fault = cf_fault };
    m->cf.prog = m->main;
    m->cf.pc = 0;
    return eg_cf_run(&ops, &m->cf);
}

/* ---------------------------------------------------------------- entry points */

static struct machine *machine_init(struct machine *m, struct lane *ln, unsigned nl, const struct eg_program *main,
                                    const struct eg_shader_env *env, struct eg_shader_err *err)
{
    memset(m, 0, sizeof *m);
    memset(ln, 0, nl * sizeof *ln);
    m->main = main;
    m->env = env;
    m->err = err;
    m->at = -1;
    m->ln = ln;
    m->nl = nl;
    m->cf.active = m->cf.all = m->cf.valid = (1ull << nl) - 1u;
    err->msg[0] = '\0';
    return m;
}

/* eg_run_stage, recording the stream-out exports in `so` when not NULL. */
static int run_stage(const struct eg_program *prog, const struct eg_program *fs, const struct eg_shader_env *env,
                     const struct eg_stage_start *start, struct eg_vs_output *out, struct eg_stream_out *so,
                     struct eg_shader_err *err)
{
    struct lane lane;
    struct machine mach, *m = machine_init(&mach, &lane, 1, prog, env, err);
    m->fs = fs;
    m->so = so;
    if (so)
        so->n = 0;
    m->res_base = start->res_base;
    m->sampler_base = start->sampler_base;
    m->vs_out = out;
    memset(out, 0, sizeof *out);
    lane.gpr[0] = start->r0;
    lane.gpr[1] = start->r1;
    int rc = run(m);
    free(m->scratch);
    return rc;
}

int eg_run_stage(const struct eg_program *prog, const struct eg_program *fs, const struct eg_shader_env *env,
                 const struct eg_stage_start *start, struct eg_vs_output *out, struct eg_shader_err *err)
{
    return run_stage(prog, fs, env, start, out, NULL, err);
}

int eg_run_stage_lanes(const struct eg_program *prog, const struct eg_shader_env *env, const struct eg_stage_start *start,
                       const union eg_vec4 *r0, unsigned n, struct eg_vs_output *out, struct eg_shader_err *err)
{
    if (n == 0 || n > EG_STAGE_MAX_LANES) {
        snprintf(err->msg, sizeof err->msg, "shader %s: %u lanes (1..%d)", prog->name ? prog->name : "?", n,
                 EG_STAGE_MAX_LANES);
        return -1;
    }
    struct lane *ln = malloc(n * sizeof *ln);
    if (!ln) {
        snprintf(err->msg, sizeof err->msg, "shader %s: out of memory", prog->name ? prog->name : "?");
        return -1;
    }
    struct machine mach, *m = machine_init(&mach, ln, n, prog, env, err);
    m->res_base = start->res_base;
    m->sampler_base = start->sampler_base;
    m->vs_out = out;
    memset(out, 0, sizeof *out);
    for (unsigned l = 0; l < n; l++) {
        ln[l].gpr[0] = r0[l];
        ln[l].gpr[1] = start->r1;
    }
    int rc = run(m);
    free(m->scratch);
    free(ln);
    return rc;
}

int eg_run_vs_stream(const struct eg_program *vs, const struct eg_program *fs, const struct eg_shader_env *env,
                     uint32_t vertex_id, uint32_t instance_id, struct eg_vs_output *out, struct eg_stream_out *so,
                     struct eg_shader_err *err)
{
    /* the VS starts with R0.x = vertex index, R0.w = instance id */
    struct eg_stage_start st = { V_SQ_FETCH_RESOURCE_BASE__VS, V_SQ_SAMPLER_BASE__VS,
                                 { .u = { vertex_id, 0, 0, instance_id } }, { .u = { 0 } } };
    return run_stage(vs, fs, env, &st, out, so, err);
}

int eg_run_vs(const struct eg_program *vs, const struct eg_program *fs, const struct eg_shader_env *env,
              uint32_t vertex_id, uint32_t instance_id, struct eg_vs_output *out, struct eg_shader_err *err)
{
    /* the VS starts with R0.x = vertex index, R0.w = instance id */
    struct eg_stage_start st = { V_SQ_FETCH_RESOURCE_BASE__VS, V_SQ_SAMPLER_BASE__VS,
                                 { .u = { vertex_id, 0, 0, instance_id } }, { .u = { 0 } } };
    return eg_run_stage(vs, fs, env, &st, out, err);
}

void eg_ps_param_from_vertices(struct eg_ps_param *p, const float v0[4], const float v1[4], const float v2[4])
{
    for (int c = 0; c < 4; c++) {
        p->p0[c] = v0[c];
        p->p10[c] = v1[c] - v0[c];
        p->p20[c] = v2[c] - v0[c];
    }
}

int eg_run_ps(const struct eg_program *ps, const struct eg_shader_env *env, const struct eg_ps_input *in,
              struct eg_ps_output *out, struct eg_shader_err *err)
{
    return eg_run_ps_lanes(ps, env, in, 1, 0, out, err);
}

int eg_run_ps_lanes(const struct eg_program *ps, const struct eg_shader_env *env, const struct eg_ps_input *in,
                    unsigned n, uint32_t helpers, struct eg_ps_output *out, struct eg_shader_err *err)
{
    struct lane ln[MAX_LANES];
    if (n == 0 || n > MAX_LANES) {
        snprintf(err->msg, sizeof err->msg, "shader %s: %u lanes (1..%d)", ps->name ? ps->name : "?", n, MAX_LANES);
        return -1;
    }
    struct machine mach, *m = machine_init(&mach, ln, n, ps, env, err);
    m->is_ps = true;
    m->res_base = V_SQ_FETCH_RESOURCE_BASE__PS;
    m->sampler_base = V_SQ_SAMPLER_BASE__PS;
    m->ps_in = in;
    m->ps_out = out;
    m->cf.valid &= ~(uint64_t)helpers;
    memset(out, 0, n * sizeof *out);
    for (unsigned l = 0; l < n; l++)
        for (unsigned i = 0; i < in[l].ngpr && i < NGPR; i++)
            ln[l].gpr[i] = in[l].gpr[i];
    int rc = run(m);
    free(m->scratch);
    return rc;
}
