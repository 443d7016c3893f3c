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
 * Control flow (Evergreen ISA, "Flow control"): the lanes run in lockstep
 * under an active mask.  A lane is active, or inactive for one of three
 * reasons: a branch not taken, a LOOP_BREAK or a LOOP_CONTINUE.
 * PUSH / ALU_PUSH_BEFORE save the active mask on the branch stack,
 * POP restores it; ELSE inverts the active lanes against the saved mask;
 * JUMP / ELSE jump (popping POP_COUNT entries) only when no lane is left
 * active, LOOP_BREAK / LOOP_CONTINUE only when no lane of the loop is left
 * for the iteration; a loop keeps its own frame: the lanes
 * that entered, those that broke (inactive until the loop ends) and those
 * that continued (inactive until LOOP_END, which starts the next iteration
 * with every lane that entered and did not break).  A mask restored by POP or ELSE
 * inside a loop keeps broken and continued lanes inactive.
 * PRED_SET* with UPDATE_EXEC_MASK deactivates the lanes whose condition
 * fails, with UPDATE_PRED sets the lane's predicate that PRED_SEL tests;
 * a KILL marks the lane's pixel discarded (the renderer drops it);
 * MOVA_INT loads the lane's address register AR, which relative GPR and
 * constant operands (INDEX_MODE AR_X) add to their index.
 * Anything not modelled stops the run with "shader NAME PC n: unsupported ...".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eg_regs.h"
#include "interp.h"
#include "isa.h"

#define NGPR 128
#define MAX_STACK 32
#define MAX_LOOPS 8
#define MAX_CALLS 8
#define MAX_STEPS 100000    /* CF instructions per run: stops runaway jumps */
#define MAX_LANES 4         /* a quad */

struct lane {
    union eg_vec4 gpr[NGPR];
    union eg_vec4 pv;
    uint32_t ps;
    int32_t ar;             /* address register (AR.x), MOVA_INT */
    bool pred;              /* predicate bit, PRED_SET* with UPDATE_PRED */
};

struct loop_frame {
    uint32_t saved;         /* lanes active before LOOP_START (active again after the loop) */
    uint32_t entered;       /* lanes that entered the loop */
    uint32_t brk, cont;     /* lanes inactive by LOOP_BREAK / LOOP_CONTINUE */
    unsigned sp;            /* branch stack depth at LOOP_START */
    bool counted;           /* LOOP_START / _NO_AL: SQ_LOOP_CONST iterations */
    uint32_t left;          /* counted: iterations left */
    int32_t index, inc;     /* aL and its step */
};

struct machine {
    const struct eg_program *main, *fs, *prog;   /* prog: the one running */
    const struct eg_shader_env *env;
    struct eg_shader_err *err;
    size_t pc;
    long at;                /* 64-bit address of the clause instruction running, -1 none */
    unsigned nl;            /* lanes */
    struct lane *ln;
    unsigned cl;            /* the lane an ALU group, fetch or export is running for */
    uint32_t active;        /* lanes executing */
    uint32_t all;           /* every lane */
    uint32_t valid;         /* lanes that are pixels, not helpers */
    uint32_t stack[MAX_STACK];
    unsigned sp;
    struct loop_frame loops[MAX_LOOPS];
    unsigned nloops;
    struct { const struct eg_program *prog; size_t pc; } calls[MAX_CALLS];
    unsigned ncalls;
    unsigned res_base, sampler_base;    /* of the main program's stage */
    bool is_ps;
    /* kcache sets of the running ALU clause */
    struct { unsigned bank, addr, mode; } kc[4];
    uint32_t ext_w0, ext_w1;
    bool have_ext;
    /* pixel shader */
    const struct eg_ps_input *ps_in;    /* per lane */
    struct eg_ps_output *ps_out;        /* per lane */
    struct eg_vs_output *vs_out;
};

static int fault(struct machine *m, const char *fmt, ...)
{
    char what[140];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *name = m->prog && m->prog->name ? m->prog->name : "?";
    int len;    /* a truncated message is still a message */
    if (m->at >= 0)
        len = snprintf(m->err->msg, sizeof m->err->msg, "shader %s PC %zu (clause instruction at %ld): %s", name,
                       m->pc, m->at, what);
    else
        len = snprintf(m->err->msg, sizeof m->err->msg, "shader %s PC %zu: %s", name, m->pc, what);
    (void)len;
    return -1;
}

static unsigned cur_res_base(const struct machine *m)
{
    return m->prog == m->fs && m->fs != m->main ? V_SQ_FETCH_RESOURCE_BASE__FS : m->res_base;
}

/* The index a relative operand adds (ALU_WORD0 INDEX_MODE). */
static int rel_index(struct machine *m, const struct lane *L, unsigned mode, int32_t *out)
{
    switch (mode) {
    case V_SQ_ALU_INDEX_MODE__AR_X:
        *out = L->ar;
        return 0;
    case V_SQ_ALU_INDEX_MODE__LOOP:
        if (!m->nloops)
            return fault(m, "relative addressing by the loop index outside a loop");
        *out = m->loops[m->nloops - 1].index;
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

static int read_src(struct machine *m, const struct lane *L, unsigned sel, unsigned chan, bool rel,
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
        bool neg[3] = { G_SQ_ALU_WORD0__SRC0_NEG(w0), G_SQ_ALU_WORD0__SRC1_NEG(w0), G_SQ_ALU_WORD1_OP3__SRC2_NEG(w1) };
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
            if (gop && k == EG_SLOT_T)
                return fault(m, "%s in the trans slot", eg_alu_op_name(false, op));
            if (gop != (pass == 1))
                continue;
            if (gop) {
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
                float f = eg_u2f(s[k].result);
                if (omod == V_SQ_ALU_OMOD__M2)
                    f *= 2.0f;
                else if (omod == V_SQ_ALU_OMOD__M4)
                    f *= 4.0f;
                else if (omod == V_SQ_ALU_OMOD__D2)
                    f *= 0.5f;
                if (G_SQ_ALU_WORD1_OP2__CLAMP(s[k].w1))
                    f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
                if (omod || G_SQ_ALU_WORD1_OP2__CLAMP(s[k].w1))
                    s[k].result = eg_f2u(f);
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
        bool write = !mova && (s[k].op3 || G_SQ_ALU_WORD1_OP2__WRITE_MASK(w1));
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
        if (!s[k].used || s[k].skip)
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
                m->active &= ~(1u << m->cl);
        }
    }
    return 0;
}

static int run_alu_clause(struct machine *m, size_t addr, unsigned nslots)
{
    const uint32_t *dw = m->prog->dw;
    size_t start = 2 * addr, end = start + 2 * (size_t)nslots;
    if (end > m->prog->ndw)
        return fault(m, "ALU clause @%zu of %u slots runs past the end of the shader", addr, nslots);
    size_t i = start;
    while (i < end) {
        struct slot s[EG_NSLOTS];
        memset(s, 0, sizeof s);
        unsigned nlit = 0;
        bool last = false;
        while (!last) {
            if (i >= end)
                return fault(m, "ALU group without LAST at the end of its clause");
            m->at = (long)(i / 2);
            uint32_t w0 = dw[i], w1 = dw[i + 1];
            i += 2;
            last = G_SQ_ALU_WORD0__LAST(w0);
            bool op3 = eg_alu_is_op3(w1);
            unsigned op = eg_alu_opcode(w1);
            const struct eg_alu_op_info *info = eg_alu_op_info(op3, op);
            if (!info)
                return fault(m, "unsupported ALU %s opcode 0x%02x (unknown)", op3 ? "OP3" : "OP2", op);
            /* the slot: the destination channel's, else t (see disasm.c) */
            unsigned chan = G_SQ_ALU_WORD1_OP2__DST_CHAN(w1);
            int k;
            if (!(info->slots & EG_SLOT_VEC) || s[chan].used)
                k = EG_SLOT_T;
            else
                k = (int)chan;
            if (s[k].used || (k == EG_SLOT_T && !(info->slots & EG_SLOT_TRANS)))
                return fault(m, "ALU group has no free slot for %s", eg_alu_op_name(op3, op));
            s[k] = (struct slot){ .used = true, .op3 = op3, .op = op, .w0 = w0, .w1 = w1 };
            unsigned used = eg_alu_literals_read(w0, w1, info->nsrc);
            if (used > nlit)
                nlit = used;
        }
        unsigned nlit_dw = (nlit + 1) & ~1u;
        if (i + nlit_dw > end)
            return fault(m, "ALU literals run past the end of their clause");
        const uint32_t *lit = dw + i;
        i += nlit_dw;
        /* each active lane through the group (a lane a KILL or an
         * UPDATE_EXEC_MASK deactivates skips the rest of the clause) */
        for (m->cl = 0; m->cl < m->nl; m->cl++) {
            if (!(m->active >> m->cl & 1u))
                continue;
            struct slot ls[EG_NSLOTS];
            memcpy(ls, s, sizeof ls);
            if (exec_group(m, ls, lit, nlit))
                return -1;
        }
    }
    m->at = -1;
    return 0;
}

/* ---------------------------------------------------------------- fetch */

static int run_fetch_clause(struct machine *m, bool tex, size_t addr, unsigned count)
{
    size_t start = 2 * addr, end = start + 4 * (size_t)count;
    if (addr & 1)
        return fault(m, "fetch clause @%zu is not 128-bit aligned", addr);
    if (end > m->prog->ndw)
        return fault(m, "%s clause @%zu of %u instructions runs past the end of the shader", tex ? "TEX" : "VTX",
                     addr, count);
    for (size_t at = start; at < end; at += 4) {
        m->at = (long)(at / 2);
        for (unsigned l = 0; l < m->nl; l++) {
            if (!(m->active >> l & 1u))
                continue;
            char msg[160] = "";
            union eg_vec4 *gpr = m->ln[l].gpr;
            int r = tex ? eg_exec_tex(m->env, gpr, cur_res_base(m), m->sampler_base, m->prog->dw + at, msg, sizeof msg)
                        : eg_exec_vtx(m->env, gpr, cur_res_base(m), m->prog->dw + at, msg, sizeof msg);
            if (r)
                return fault(m, "%s", msg);
        }
    }
    m->at = -1;
    return 0;
}

/* ---------------------------------------------------------------- exports */

static int do_export(struct machine *m, uint32_t w0, uint32_t w1)
{
    unsigned type = G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0);
    unsigned base = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0);
    unsigned burst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(w1);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return fault(m, "unsupported relative export");
    const unsigned sel[4] = { G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(w1), G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(w1),
                              G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(w1), G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(w1) };
    for (unsigned b = 0; b <= burst; b++) {
        if (gpr + b >= NGPR)
            return fault(m, "export of R%u", gpr + b);
        const union eg_vec4 *src = &m->ln[m->cl].gpr[gpr + b];
        union eg_vec4 *dst;
        unsigned a = base + b;
        if (type == V_SQ_EXPORT_TYPE__POS && !m->is_ps && a >= V_SQ_EXPORT_ARRAY_BASE__POS0 &&
            a < V_SQ_EXPORT_ARRAY_BASE__POS0 + 4) {
            dst = &m->vs_out->pos[a - V_SQ_EXPORT_ARRAY_BASE__POS0];
            m->vs_out->pos_mask |= (uint8_t)(1u << (a - V_SQ_EXPORT_ARRAY_BASE__POS0));
        } else if (type == V_SQ_EXPORT_TYPE__PARAM && !m->is_ps && a < V_SQ_EXPORT_ARRAY_BASE__PARAM_COUNT) {
            dst = &m->vs_out->param[a];
            m->vs_out->param_mask |= 1u << a;
        } else if (type == V_SQ_EXPORT_TYPE__PIXEL && m->is_ps && a < V_SQ_EXPORT_ARRAY_BASE__PIXEL_MRT_COUNT) {
            dst = &m->ps_out[m->cl].color[a];
            m->ps_out[m->cl].color_mask |= (uint8_t)(1u << a);
        } else if (type == V_SQ_EXPORT_TYPE__PIXEL && m->is_ps && a == V_SQ_EXPORT_ARRAY_BASE__PIXEL_Z) {
            /* x the depth, y the stencil reference (Mesa r600_shader.c
             * exports gl_FragStencilRefARB's integer as .y of ARRAY_BASE 61,
             * the depth as .x, each in its own export, the rest masked) */
            struct eg_ps_output *po = &m->ps_out[m->cl];
            if (sel[0] <= V_SQ_INST_SEL__W) {
                union eg_vec4 z = *src;
                po->depth = z.f[sel[0]];
                po->depth_written = true;
            }
            if (sel[1] <= V_SQ_INST_SEL__W) {
                po->stencil = src->u[sel[1]];
                po->stencil_written = true;
            }
            continue;
        } else {
            return fault(m, "unsupported export: type %u array base %u in a %s", type, a,
                         m->is_ps ? "pixel shader" : "vertex shader");
        }
        for (int c = 0; c < 4; c++) {
            switch (sel[c]) {
            case V_SQ_INST_SEL__X: case V_SQ_INST_SEL__Y: case V_SQ_INST_SEL__Z: case V_SQ_INST_SEL__W:
                dst->u[c] = src->u[sel[c]];
                break;
            case V_SQ_INST_SEL__ZERO: dst->f[c] = 0.0f; break;
            case V_SQ_INST_SEL__ONE: dst->f[c] = 1.0f; break;
            default: break;     /* MASK: not written */
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- CF */

/* A mask restored from the stack, less the lanes a LOOP_BREAK or a
 * LOOP_CONTINUE of the innermost loop has taken out since it was saved. */
static uint32_t restored(const struct machine *m, uint32_t mask)
{
    mask &= m->all;
    if (m->nloops) {
        const struct loop_frame *f = &m->loops[m->nloops - 1];
        mask &= ~(f->brk | f->cont);
    }
    return mask;
}

static int pop(struct machine *m, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned floor = m->nloops ? m->loops[m->nloops - 1].sp : 0;
        if (m->sp <= floor)
            return fault(m, "POP of %u entries from a branch stack holding %u", n, m->sp - floor + i);
        m->active = restored(m, m->stack[--m->sp]);
    }
    return 0;
}

/* A taken jump: pop POP_COUNT entries, go to addr. */
static int jump(struct machine *m, unsigned pops, size_t addr, size_t *next)
{
    *next = addr;
    return pop(m, pops);
}

static int push(struct machine *m)
{
    if (m->sp >= MAX_STACK)
        return fault(m, "branch stack overflow");
    m->stack[m->sp++] = m->active;
    return 0;
}

/* ELSE: the lanes active at the matching push that are not active now. */
static void invert(struct machine *m)
{
    unsigned floor = m->nloops ? m->loops[m->nloops - 1].sp : 0;
    uint32_t outer = m->sp > floor ? m->stack[m->sp - 1] : m->nloops ? m->loops[m->nloops - 1].entered : m->all;
    m->active = restored(m, outer & ~m->active);
}

/* The lanes for which a CF instruction's condition holds (CF_WORD1 COND;
 * VALID_PIXEL_MODE leaves helper lanes out). */
static int cf_pass(struct machine *m, uint32_t w1, uint32_t *out)
{
    uint32_t pass = m->active;
    switch (G_SQ_CF_WORD1__COND(w1)) {
    case V_SQ_CF_COND__ACTIVE:
        break;
    case V_SQ_CF_COND__FALSE:
        pass = 0;
        break;
    default:
        return fault(m, "unsupported CF condition %u (boolean constants)", G_SQ_CF_WORD1__COND(w1));
    }
    if (G_SQ_CF_WORD1__VALID_PIXEL_MODE(w1))
        pass &= m->valid;
    *out = pass;
    return 0;
}

static int loop_start(struct machine *m, unsigned inst, uint32_t w1, size_t addr, size_t *next)
{
    uint32_t pass;
    if (cf_pass(m, w1, &pass))
        return -1;
    if (m->nloops >= MAX_LOOPS)
        return fault(m, "loops nested deeper than %d", MAX_LOOPS);
    struct loop_frame f = { .saved = m->active, .sp = m->sp };
    if (inst != V_SQ_CF_INST__LOOP_START_DX10) {
        /* SQ_LOOP_CONST: COUNT bits 0..11, INIT 12..23, INC 24..31 (signed) */
        if (!m->env->loop_const)
            return fault(m, "LOOP_START without loop constants");
        uint32_t c;
        char msg[120] = "";
        if (m->env->loop_const(m->env->ctx, G_SQ_CF_WORD1__CF_CONST(w1), &c, msg, sizeof msg))
            return fault(m, "loop constant %u: %s", G_SQ_CF_WORD1__CF_CONST(w1), msg);
        f.counted = true;
        f.left = c & 0xFFF;
        int32_t init = (int32_t)(c >> 12 & 0xFFF), inc = (int8_t)(c >> 24);
        if (inst == V_SQ_CF_INST__LOOP_START) {
            f.index = init, f.inc = inc;
        } else if (m->nloops) {     /* NO_AL: aL stays the enclosing loop's */
            f.index = m->loops[m->nloops - 1].index;
        }
        if (f.left == 0)
            pass = 0;
    }
    if (!pass) {
        *next = addr;   /* the instruction after the matching LOOP_END */
        return pop(m, G_SQ_CF_WORD1__POP_COUNT(w1));
    }
    f.entered = pass;
    m->loops[m->nloops++] = f;
    m->active = pass;
    return 0;
}

static int loop_end(struct machine *m, uint32_t w1, size_t addr, size_t *next)
{
    if (!m->nloops)
        return fault(m, "LOOP_END outside a loop");
    struct loop_frame *f = &m->loops[m->nloops - 1];
    /* the iteration's branch entries are gone: every lane that entered and
     * did not break runs the next one (continued lanes and those a branch
     * left inactive alike) */
    m->sp = f->sp;
    m->active = f->entered & m->all & ~f->brk;
    f->cont = 0;
    bool again = m->active != 0;
    if (f->counted && --f->left == 0)
        again = false;
    uint32_t pass;
    if (cf_pass(m, w1, &pass))
        return -1;
    if (again && pass) {
        f->index += f->inc;
        *next = addr;   /* the instruction after LOOP_START */
        return 0;
    }
    m->active = f->saved & m->all;
    m->nloops--;
    m->active = restored(m, m->active);
    return pop(m, G_SQ_CF_WORD1__POP_COUNT(w1));
}

/* LOOP_BREAK / LOOP_CONTINUE, and the lanes ALU_BREAK / ALU_CONTINUE's
 * clause turned off: out of the loop's iteration. */
static int loop_leave(struct machine *m, bool brk, uint32_t lanes)
{
    if (!m->nloops)
        return fault(m, "%s outside a loop", brk ? "LOOP_BREAK" : "LOOP_CONTINUE");
    struct loop_frame *f = &m->loops[m->nloops - 1];
    if (brk)
        f->brk |= lanes;
    else
        f->cont |= lanes;
    m->active &= ~lanes;
    return 0;
}

static int run_cf_alu(struct machine *m, uint32_t w0, uint32_t w1)
{
    unsigned inst = G_SQ_CF_ALU_WORD1__CF_INST(w1);
    m->kc[0].bank = G_SQ_CF_ALU_WORD0__KCACHE_BANK0(w0);
    m->kc[0].mode = G_SQ_CF_ALU_WORD0__KCACHE_MODE0(w0);
    m->kc[0].addr = G_SQ_CF_ALU_WORD1__KCACHE_ADDR0(w1);
    m->kc[1].bank = G_SQ_CF_ALU_WORD0__KCACHE_BANK1(w0);
    m->kc[1].mode = G_SQ_CF_ALU_WORD1__KCACHE_MODE1(w1);
    m->kc[1].addr = G_SQ_CF_ALU_WORD1__KCACHE_ADDR1(w1);
    m->kc[2].mode = m->kc[3].mode = V_SQ_KCACHE_MODE__NOP;
    if (m->have_ext) {
        m->kc[2].bank = G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK2(m->ext_w0);
        m->kc[2].mode = G_SQ_CF_ALU_WORD0_EXT__KCACHE_MODE2(m->ext_w0);
        m->kc[2].addr = G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR2(m->ext_w1);
        m->kc[3].bank = G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK3(m->ext_w0);
        m->kc[3].mode = G_SQ_CF_ALU_WORD1_EXT__KCACHE_MODE3(m->ext_w1);
        m->kc[3].addr = G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR3(m->ext_w1);
        m->have_ext = false;
    }
    if (G_SQ_CF_ALU_WORD1__ALT_CONST(w1))
        return fault(m, "unsupported ALT_CONST");
    switch (inst) {
    case V_SQ_CF_ALU_INST__ALU:
    case V_SQ_CF_ALU_INST__ALU_POP_AFTER:
    case V_SQ_CF_ALU_INST__ALU_POP2_AFTER:
    case V_SQ_CF_ALU_INST__ALU_ELSE_AFTER:
    case V_SQ_CF_ALU_INST__ALU_BREAK:
    case V_SQ_CF_ALU_INST__ALU_CONTINUE:
        break;
    case V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE:
        if (push(m))
            return -1;
        break;
    default:
        return fault(m, "unsupported CF_ALU instruction %u (%s)", inst, eg_cf_inst_name(w1));
    }
    uint32_t before = m->active;
    if (m->active && run_alu_clause(m, G_SQ_CF_ALU_WORD0__ADDR(w0), G_SQ_CF_ALU_WORD1__COUNT(w1) + 1))
        return -1;
    switch (inst) {
    case V_SQ_CF_ALU_INST__ALU_POP_AFTER:
        return pop(m, 1);
    case V_SQ_CF_ALU_INST__ALU_POP2_AFTER:
        return pop(m, 2);
    case V_SQ_CF_ALU_INST__ALU_ELSE_AFTER:
        invert(m);
        return 0;
    case V_SQ_CF_ALU_INST__ALU_BREAK:
    case V_SQ_CF_ALU_INST__ALU_CONTINUE:
        /* the lanes the clause's predicate turned off leave the iteration */
        return loop_leave(m, inst == V_SQ_CF_ALU_INST__ALU_BREAK, before & ~m->active & m->all);
    default:
        return 0;
    }
}

/* An export for each active lane. */
static int run_export(struct machine *m, uint32_t w0, uint32_t w1)
{
    unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(w1);
    if (inst != V_SQ_CF_INST__EXPORT && inst != V_SQ_CF_INST__EXPORT_DONE)
        return fault(m, "unsupported CF instruction 0x%02x (%s)", inst,
                     eg_cf_inst_name(w1) ? eg_cf_inst_name(w1) : "unknown");
    for (m->cl = 0; m->cl < m->nl; m->cl++)
        if ((m->active >> m->cl & 1u) && do_export(m, w0, w1))
            return -1;
    return 0;
}

static int run(struct machine *m)
{
    m->prog = m->main;
    m->pc = 0;
    for (unsigned steps = 0;; steps++) {
        if (steps >= MAX_STEPS)
            return fault(m, "more than %d CF instructions executed (a loop?)", MAX_STEPS);
        if (2 * m->pc + 2 > m->prog->ndw)
            return fault(m, "the CF program runs past the end of the shader (%zu dwords)", m->prog->ndw);
        uint32_t w0 = m->prog->dw[2 * m->pc], w1 = m->prog->dw[2 * m->pc + 1];
        enum eg_cf_form form = eg_cf_form_of(w1);
        bool eop = false;
        size_t next = m->pc + 1;

        if (form == EG_CF_ALU) {
            if (G_SQ_CF_ALU_WORD1__CF_INST(w1) == V_SQ_CF_ALU_INST__ALU_EXTENDED) {
                m->ext_w0 = w0, m->ext_w1 = w1, m->have_ext = true;
                m->pc = next;
                continue;
            }
            if (run_cf_alu(m, w0, w1))
                return -1;
        } else if (form == EG_CF_EXPORT) {
            if (run_export(m, w0, w1))
                return -1;
            eop = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(w1);
        } else {
            unsigned inst = G_SQ_CF_WORD1__CF_INST(w1);
            size_t addr = G_SQ_CF_WORD0__ADDR(w0);
            unsigned pops = G_SQ_CF_WORD1__POP_COUNT(w1);
            eop = G_SQ_CF_WORD1__END_OF_PROGRAM(w1);
            uint32_t pass;
            if (cf_pass(m, w1, &pass))
                return -1;
            switch (inst) {
            case V_SQ_CF_INST__NOP:
            case V_SQ_CF_INST__WAIT_ACK:
                break;
            case V_SQ_CF_INST__TC:
            case V_SQ_CF_INST__VC: {
                uint32_t keep = m->active;
                m->active = pass;
                int r = pass ? run_fetch_clause(m, inst == V_SQ_CF_INST__TC, addr, G_SQ_CF_WORD1__COUNT(w1) + 1) : 0;
                m->active = keep;
                if (r)
                    return -1;
                break;
            }
            case V_SQ_CF_INST__CALL_FS:
                if (!m->fs)
                    return fault(m, "CALL_FS but no fetch shader");
                if (m->ncalls >= MAX_CALLS)
                    return fault(m, "call stack overflow");
                m->calls[m->ncalls].prog = m->prog;
                m->calls[m->ncalls++].pc = next;
                m->prog = m->fs;
                next = addr;
                break;
            case V_SQ_CF_INST__RETURN:
                if (m->ncalls == 0)
                    return 0;   /* a top-level RETURN ends the program */
                m->ncalls--;
                m->prog = m->calls[m->ncalls].prog;
                next = m->calls[m->ncalls].pc;
                break;
            case V_SQ_CF_INST__PUSH:
                /* push, then jump (popping) when the condition holds for no lane */
                if (push(m))
                    return -1;
                if (!pass && jump(m, pops, addr, &next))
                    return -1;
                break;
            case V_SQ_CF_INST__POP:
                if (pop(m, pops))
                    return -1;
                break;
            case V_SQ_CF_INST__JUMP:
                if (!pass && jump(m, pops, addr, &next))
                    return -1;
                break;
            case V_SQ_CF_INST__ELSE:
                /* invert against the state at the matching push; like JUMP,
                 * pop POP_COUNT entries only when jumping (Mesa's ELSE carries
                 * the pop of an endif merged into ALU_POP_AFTER) */
                invert(m);
                if (cf_pass(m, w1, &pass))
                    return -1;
                if (!pass && jump(m, pops, addr, &next))
                    return -1;
                break;
            case V_SQ_CF_INST__LOOP_START:
            case V_SQ_CF_INST__LOOP_START_NO_AL:
            case V_SQ_CF_INST__LOOP_START_DX10:
                if (loop_start(m, inst, w1, addr, &next))
                    return -1;
                break;
            case V_SQ_CF_INST__LOOP_END:
                if (loop_end(m, w1, addr, &next))
                    return -1;
                break;
            case V_SQ_CF_INST__LOOP_BREAK:
            case V_SQ_CF_INST__LOOP_CONTINUE:
                /* the lanes passing leave; jump to LOOP_END when no lane of
                 * the loop is left for this iteration (one a branch made
                 * inactive still runs the rest of the body after its POP) */
                if (loop_leave(m, inst == V_SQ_CF_INST__LOOP_BREAK, pass))
                    return -1;
                if (!(m->loops[m->nloops - 1].entered & ~m->loops[m->nloops - 1].brk &
                      ~m->loops[m->nloops - 1].cont & m->all) && jump(m, pops, addr, &next))
                    return -1;
                break;
            default: {
                const char *n = eg_cf_inst_name(w1);
                return fault(m, "unsupported CF instruction 0x%02x (%s)", inst, n ? n : "unknown");
            }
            }
        }
        if (eop)
            return 0;
        m->pc = next;
    }
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
    m->active = m->all = m->valid = (1u << nl) - 1u;
    err->msg[0] = '\0';
    return m;
}

int eg_run_vs(const struct eg_program *vs, const struct eg_program *fs, const struct eg_shader_env *env,
              uint32_t vertex_id, uint32_t instance_id, struct eg_vs_output *out, struct eg_shader_err *err)
{
    struct lane lane;
    struct machine mach, *m = machine_init(&mach, &lane, 1, vs, env, err);
    m->fs = fs;
    m->res_base = V_SQ_FETCH_RESOURCE_BASE__VS;
    m->sampler_base = V_SQ_SAMPLER_BASE__VS;
    m->vs_out = out;
    memset(out, 0, sizeof *out);
    /* the VS starts with R0.x = vertex index, R0.w = instance id */
    lane.gpr[0].u[0] = vertex_id;
    lane.gpr[0].u[3] = instance_id;
    return run(m);
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
    m->valid &= ~helpers;
    memset(out, 0, n * sizeof *out);
    for (unsigned l = 0; l < n; l++)
        for (unsigned i = 0; i < in[l].ngpr && i < NGPR; i++)
            ln[l].gpr[i] = in[l].gpr[i];
    return run(m);
}
