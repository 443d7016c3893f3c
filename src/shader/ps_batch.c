/* The pixel shader over many pixels at once (cedar/shader.h: eg_ps_batch_*):
 * the program is decoded once (CF instructions, ALU groups with their slots,
 * sources, literals and kcache constants), then every instruction runs for
 * all the batch's pixels before the next one, with the registers stored as
 * structure of arrays, as the hardware runs a wavefront.
 *
 * Each pixel gets exactly what eg_run_ps (interp.c) gives it: the same
 * group semantics (all sources read before any write; PV / PS forwarding),
 * the same operations in the same order (eg_alu_eval per pixel, the INTERP
 * and DOT4 formulas of interp.c), the same OMOD / CLAMP.  Only straight-line
 * programs are taken (ALU clauses, colour exports, NOP): anything with
 * control flow, predication, fetches, relative addressing, depth exports or an
 * instruction the interpreter would refuse is left to eg_run_ps, which runs
 * it or reports the exact fault. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_lanes.h"
#include "alu_rules.h"
#include "eg_regs.h"
#include "interp.h"
#include "isa.h"
#include "wave.h"

#define NGPR 128
#define MAX_STEPS 100000
#define N EG_PS_BATCH_MAX

typedef float v4f __attribute__((vector_size(4 * sizeof(float))));   /* GCC / Clang vector */

enum slot_kind { SLOT_EVAL, SLOT_REDUCE, SLOT_INTERP, SLOT_LOAD_P };

struct bslot {
    bool used, op3;
    uint8_t kind;
    unsigned op, nsrc;
    unsigned nread;         /* sources the slot's own computation reads (INTERP: I/J only, LOAD_P: none) */
    struct wsrc src[3];
    const struct eg_lanes_kernel *kern;     /* SLOT_EVAL: the op's lane kernel, or NULL (eg_alu_eval per lane) */
    unsigned param;         /* INTERP / LOAD_P: parameter index */
    unsigned comp;          /* INTERP: component; LOAD_P: channel */
    int odd, even;          /* INTERP: the slots holding I and J */
    bool write, update_exec;
    unsigned dst_gpr, dst_chan, omod;
    bool clamp;
    /* liveness (plan_lanes) */
    bool live;              /* computed: its result is written, forwarded or it may kill */
    bool to_pv;             /* its PV / PS is read by a later group */
    bool direct;            /* computed straight into its destination GPR's lanes */
};

struct bgroup {
    struct bslot s[EG_NSLOTS];
    /* plan_lanes: each source's lanes where they are fixed (a GPR, PV or PS
     * read as it is), else the buffer read_lanes fills (src_fill lists
     * those it fills per run, as slot * 3 + source); the slots to compute */
    const uint32_t *src[EG_NSLOTS][3];
    uint8_t src_fill[EG_NSLOTS * 3], nfill;
    uint8_t live[EG_NSLOTS], nlive;
};

struct bexport {
    unsigned gpr, base, burst;
    unsigned sel[4];
    bool copy[8][4];        /* GPR channel copied at the export (a later group writes it), else read in place */
};

enum step_kind { STEP_GROUP, STEP_EXPORT };
struct bstep {
    uint8_t kind;
    unsigned index;
};

struct eg_ps_batch {
    struct bgroup *groups;
    unsigned ngroups, cap_groups;
    struct bexport *exports;
    unsigned nexports, cap_exports;
    struct bstep *steps;
    unsigned nsteps, cap_steps;
    unsigned nregs;             /* GPRs the program or its inputs touch */
    unsigned max_param;         /* parameters read: 1 + highest index, 0 none */
    uint8_t exported;           /* colour targets the exports write */
    uint8_t zero_in[NGPR];      /* per GPR: channels read before the program writes them (begin zeroes) */
    uint8_t pv_zero;            /* PV channels (bit 4: PS) read before any group wrote them */
    bool can_kill;              /* a slot may kill (!slot_pure) */
    const uint32_t *color_at[8][4];  /* each colour channel's lanes: color[][] or a GPR's */
    /* per run */
    unsigned n;
    uint32_t (*gpr)[4][N];
    uint32_t pv[4][N], ps[N];
    uint32_t src[EG_NSLOTS][3][N];
    uint32_t res[EG_NSLOTS][N];
    bool int_result[EG_NSLOTS][N];
    uint8_t color_mask;
    uint32_t color[8][4][N];
    bool killed[N];
};

static void *grow(void *p, unsigned *cap, unsigned need, size_t size)
{
    if (need <= *cap)
        return p;
    unsigned c = *cap ? *cap * 2 : 8;
    while (c < need)
        c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (q)
        *cap = c;
    return q;
}

static bool add_step(struct eg_ps_batch *b, enum step_kind kind, unsigned index)
{
    struct bstep *s = grow(b->steps, &b->cap_steps, b->nsteps + 1, sizeof *s);
    if (!s)
        return false;
    b->steps = s;
    s[b->nsteps++] = (struct bstep){(uint8_t)kind, index};
    return true;
}

static void use_reg(struct eg_ps_batch *b, unsigned gpr)
{
    if (gpr + 1 > b->nregs)
        b->nregs = gpr + 1;
}

/* One source, as read_src resolves it; false for a relative one (left to
 * the interpreter) or one it faults on. */
static bool decode_src(struct eg_ps_batch *b, const struct eg_shader_env *env, const struct eg_kc kc[4],
                       unsigned sel, unsigned chan, bool rel, bool abs, bool neg, const uint32_t *lit,
                       unsigned nlit, struct wsrc *out)
{
    if (rel || !wave_decode_src(env, kc, sel, chan, false, abs, neg, lit, nlit, out))
        return false;
    if (out->kind == WS_GPR)
        use_reg(b, out->gpr);
    return true;
}

static bool is_interp(unsigned op)
{
    return op == V_SQ_ALU_OP2__INTERP_XY || op == V_SQ_ALU_OP2__INTERP_ZW || op == V_SQ_ALU_OP2__INTERP_X ||
           op == V_SQ_ALU_OP2__INTERP_Z;
}

static bool need_param(struct eg_ps_batch *b, unsigned sel, unsigned *param)
{
    if (sel < V_SQ_ALU_SRC__PARAM_BASE || sel - V_SQ_ALU_SRC__PARAM_BASE >= V_SQ_ALU_SRC__PARAM_COUNT)
        return false;
    *param = sel - V_SQ_ALU_SRC__PARAM_BASE;
    if (*param + 1 > b->max_param)
        b->max_param = *param + 1;
    return true;
}

/* The slots of a decoded group: what exec_group would compute, checked now. */
static bool finish_group(struct eg_ps_batch *b, struct bgroup *g)
{
    struct bslot *s = g->s;
    for (int k = 0; k < EG_NSLOTS; k++) {
        struct bslot *sl = &s[k];
        if (!sl->used)
            continue;
        unsigned op = sl->op;
        if (!sl->op3 && (op == V_SQ_ALU_OP2__DOT4 || op == V_SQ_ALU_OP2__DOT4_IEEE || op == V_SQ_ALU_OP2__MAX4)) {
            for (int v = 0; v < 4; v++)
                if (!s[v].used || s[v].op3 || s[v].op != op)
                    return false;
            if (k == EG_SLOT_T)
                return false;
            sl->kind = SLOT_REDUCE;
            sl->nread = sl->nsrc;
        } else if (!sl->op3 && is_interp(op)) {
            unsigned comp, pair;
            switch (op) {
            case V_SQ_ALU_OP2__INTERP_XY: comp = k < 2 ? (unsigned)k : 1; pair = k < 2 ? (unsigned)k : 1; break;
            case V_SQ_ALU_OP2__INTERP_ZW: comp = k < 2 ? 2 : (unsigned)k; pair = k < 2 ? 0 : (unsigned)k - 2; break;
            case V_SQ_ALU_OP2__INTERP_X: comp = 0; pair = 0; break;
            default: comp = 2; pair = 1; break;
            }
            if (k == EG_SLOT_T)
                return false;
            const struct bslot *even = &s[2 * pair], *odd = &s[2 * pair + 1];
            if (!even->used || !odd->used || even->op != op || odd->op != op)
                return false;
            if (!need_param(b, sl->src[1].sel, &sl->param))
                return false;
            sl->kind = SLOT_INTERP;
            sl->nread = 1;
            sl->comp = comp;
            sl->even = (int)(2 * pair);
            sl->odd = (int)(2 * pair + 1);
        } else if (!sl->op3 && (op == V_SQ_ALU_OP2__INTERP_LOAD_P0 || op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ||
                                op == V_SQ_ALU_OP2__INTERP_LOAD_P20)) {
            if (!need_param(b, sl->src[0].sel, &sl->param))
                return false;
            sl->kind = SLOT_LOAD_P;
            sl->nread = 0;
            sl->comp = sl->src[0].chan;
        } else {
            /* the opcode must be one eg_alu_eval models, and must not
             * change the execute mask (that is control flow) */
            uint32_t zero[3] = {0, 0, 0}, r;
            struct alu_effects fx = {0};
            if (eg_alu_eval(sl->op3, op, zero, &r, &fx))
                return false;
            if (fx.is_pred && !sl->op3 && sl->update_exec)
                return false;
            sl->kind = SLOT_EVAL;
            sl->nread = sl->nsrc;
            sl->kern = eg_lanes_kernel(sl->op3, op);
        }
    }
    return true;
}

/* An ALU clause, grouped as run_alu_clause groups it. */
static bool decode_alu_clause(struct eg_ps_batch *b, const struct eg_program *p, const struct eg_shader_env *env,
                              const struct eg_kc kc[4], size_t addr, unsigned nslots)
{
    const uint32_t *dw = p->dw;
    size_t start = 2 * addr, end = start + 2 * (size_t)nslots;
    if (end > p->ndw)
        return false;
    size_t i = start;
    while (i < end) {
        struct eg_alu_group words;
        size_t at;
        char why[120];
        if (eg_alu_group_read(dw, &i, end, &words, &at, why, sizeof why))
            return false;
        struct bgroup g;
        memset(&g, 0, sizeof g);
        for (int k = 0; k < EG_NSLOTS; k++)
            if (words.s[k].used)
                g.s[k] = (struct bslot){ .used = true, .op3 = words.s[k].op3, .op = words.s[k].op,
                                         .nsrc = words.s[k].info->nsrc < 3 ? words.s[k].info->nsrc : 3 };
        const uint32_t *lit = words.lit;
        unsigned nlit = words.nlit;
        for (int k = 0; k < EG_NSLOTS; k++) {
            struct bslot *sl = &g.s[k];
            if (!sl->used)
                continue;
            uint32_t w0 = words.s[k].w0, w1 = words.s[k].w1;
            unsigned sel[3] = {G_SQ_ALU_WORD0__SRC0_SEL(w0), G_SQ_ALU_WORD0__SRC1_SEL(w0), G_SQ_ALU_WORD1_OP3__SRC2_SEL(w1)};
            unsigned chan[3] = {G_SQ_ALU_WORD0__SRC0_CHAN(w0), G_SQ_ALU_WORD0__SRC1_CHAN(w0), G_SQ_ALU_WORD1_OP3__SRC2_CHAN(w1)};
            bool rel[3] = {G_SQ_ALU_WORD0__SRC0_REL(w0), G_SQ_ALU_WORD0__SRC1_REL(w0), G_SQ_ALU_WORD1_OP3__SRC2_REL(w1)};
            bool neg[3] = {G_SQ_ALU_WORD0__SRC0_NEG(w0), G_SQ_ALU_WORD0__SRC1_NEG(w0), G_SQ_ALU_WORD1_OP3__SRC2_NEG(w1)};
            bool abs[3] = {!sl->op3 && G_SQ_ALU_WORD1_OP2__SRC0_ABS(w1), !sl->op3 && G_SQ_ALU_WORD1_OP2__SRC1_ABS(w1), false};
            for (unsigned n = 0; n < sl->nsrc; n++)
                if (!decode_src(b, env, kc, sel[n], chan[n], rel[n], abs[n], neg[n], lit, nlit, &sl->src[n]))
                    return false;
            if (!sl->op3 && G_SQ_ALU_WORD0__INDEX_MODE(w0) && (rel[0] || rel[1] || G_SQ_ALU_WORD1_OP2__DST_REL(w1)))
                return false;
            if (G_SQ_ALU_WORD0__PRED_SEL(w0) != V_SQ_ALU_PRED_SEL__OFF)
                return false;   /* predicated: eg_run_ps */
            sl->write = sl->op3 || G_SQ_ALU_WORD1_OP2__WRITE_MASK(w1);
            if (sl->write && G_SQ_ALU_WORD1_OP2__DST_REL(w1))
                return false;
            sl->dst_gpr = G_SQ_ALU_WORD1_OP2__DST_GPR(w1);
            sl->dst_chan = G_SQ_ALU_WORD1_OP2__DST_CHAN(w1);
            if (sl->write)
                use_reg(b, sl->dst_gpr);
            sl->omod = sl->op3 ? 0 : G_SQ_ALU_WORD1_OP2__OMOD(w1);
            sl->clamp = G_SQ_ALU_WORD1_OP2__CLAMP(w1);
            sl->update_exec = !sl->op3 && G_SQ_ALU_WORD1_OP2__UPDATE_EXECUTE_MASK(w1);
        }
        if (!finish_group(b, &g))
            return false;
        struct bgroup *gs = grow(b->groups, &b->cap_groups, b->ngroups + 1, sizeof *gs);
        if (!gs)
            return false;
        b->groups = gs;
        gs[b->ngroups] = g;
        if (!add_step(b, STEP_GROUP, b->ngroups++))
            return false;
    }
    return true;
}

static bool decode_export(struct eg_ps_batch *b, uint32_t w0, uint32_t w1)
{
    struct bexport e = {
        .gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0),
        .base = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0),
        .burst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(w1),
        .sel = {G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(w1), G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(w1),
                G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(w1), G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(w1)},
    };
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0) != V_SQ_EXPORT_TYPE__PIXEL || G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return false;
    for (unsigned k = 0; k <= e.burst; k++)
        if (e.gpr + k >= NGPR || e.base + k >= V_SQ_EXPORT_ARRAY_BASE__PIXEL_MRT_COUNT || e.base + k >= 8)
            return false; /* depth and the rest: eg_run_ps */
    use_reg(b, e.gpr + e.burst);
    for (unsigned k = 0; k <= e.burst; k++)
        b->exported |= (uint8_t)(1u << (e.base + k));
    struct bexport *es = grow(b->exports, &b->cap_exports, b->nexports + 1, sizeof *es);
    if (!es)
        return false;
    b->exports = es;
    es[b->nexports] = e;
    return add_step(b, STEP_EXPORT, b->nexports++);
}

/* Whether slot k's computation can matter besides its result: a KILL (or
 * an op run lane by lane through eg_alu_eval, which may be one). */
static bool slot_pure(const struct bslot *sl)
{
    return sl->kind != SLOT_EVAL || (sl->kern && sl->kern->effect != EG_LANES_KILL);
}

/* What each run must do, from the decoded steps (all of them run every
 * time, in order: a straight-line program):
 *  - PV / PS: which slots' results a later group reads there (a slot's
 *    result replaces PV chan k, or PS for the T slot, whether or not it is
 *    written), and which of them a group reads before any group set them
 *    (begin zeroes those, as it would zero all);
 *  - which slots to compute at all (written, forwarded or with an effect);
 *  - which GPR channels the program reads before writing them (begin zeroes
 *    those; the others are written before being read, or never read);
 *  - which slots may write their GPR's lanes while the group runs (no slot
 *    of the group reads or writes the same channel);
 *  - which exported channels can be read from their GPR after the run (no
 *    later group writes it) instead of being copied. */
static void plan_lanes(struct eg_ps_batch *b)
{
    unsigned pv_need = 0;
    for (unsigned i = b->nsteps; i-- > 0;) {
        if (b->steps[i].kind != STEP_GROUP)
            continue;
        struct bslot *s = b->groups[b->steps[i].index].s;
        for (int k = 0; k < EG_NSLOTS; k++) {
            if (!s[k].used)
                continue;
            s[k].to_pv = (pv_need >> k) & 1u;
            s[k].live = s[k].write || s[k].to_pv || !slot_pure(&s[k]);
            b->can_kill |= !slot_pure(&s[k]);
        }
        for (int k = 0; k < EG_NSLOTS; k++)
            if (s[k].used)
                pv_need &= ~(1u << k);
        for (int k = 0; k < EG_NSLOTS; k++)
            for (unsigned n = 0; s[k].used && n < s[k].nsrc; n++) {
                if (s[k].src[n].kind == WS_PV)
                    pv_need |= 1u << s[k].src[n].chan;
                else if (s[k].src[n].kind == WS_PS)
                    pv_need |= 1u << EG_SLOT_T;
            }
    }
    b->pv_zero = (uint8_t)pv_need;
    uint8_t written[NGPR] = {0};
    for (unsigned i = 0; i < b->nsteps; i++) {
        if (b->steps[i].kind == STEP_EXPORT) {
            const struct bexport *e = &b->exports[b->steps[i].index];
            for (unsigned k = 0; k <= e->burst; k++)
                for (int c = 0; c < 4; c++)
                    if (e->sel[c] <= V_SQ_INST_SEL__W && !((written[e->gpr + k] >> e->sel[c]) & 1u))
                        b->zero_in[e->gpr + k] |= (uint8_t)(1u << e->sel[c]);
            continue;
        }
        struct bslot *s = b->groups[b->steps[i].index].s;
        uint8_t read[NGPR] = {0};
        for (int k = 0; k < EG_NSLOTS; k++)
            for (unsigned n = 0; s[k].used && n < s[k].nsrc; n++)
                if (s[k].src[n].kind == WS_GPR) {
                    unsigned g = s[k].src[n].gpr, c = s[k].src[n].chan;
                    read[g] |= (uint8_t)(1u << c);
                    if (!((written[g] >> c) & 1u))
                        b->zero_in[g] |= (uint8_t)(1u << c);
                }
        for (int k = 0; k < EG_NSLOTS; k++) {
            if (!s[k].used || !s[k].write)
                continue;
            unsigned g = s[k].dst_gpr, c = s[k].dst_chan;
            bool alone = !((read[g] >> c) & 1u);
            for (int o = 0; o < EG_NSLOTS; o++)
                if (o != k && s[o].used && s[o].write && s[o].dst_gpr == g && s[o].dst_chan == c)
                    alone = false;
            s[k].direct = alone;
        }
        for (int k = 0; k < EG_NSLOTS; k++)
            if (s[k].used && s[k].write)
                written[s[k].dst_gpr] |= (uint8_t)(1u << s[k].dst_chan);
    }
    /* backwards: the GPR channels a later group writes */
    uint8_t later[NGPR] = {0};
    for (unsigned t = 0; t < 8; t++)
        for (int c = 0; c < 4; c++)
            b->color_at[t][c] = b->color[t][c];
    for (unsigned i = b->nsteps; i-- > 0;) {
        if (b->steps[i].kind == STEP_GROUP) {
            const struct bslot *s = b->groups[b->steps[i].index].s;
            for (int k = 0; k < EG_NSLOTS; k++)
                if (s[k].used && s[k].write)
                    later[s[k].dst_gpr] |= (uint8_t)(1u << s[k].dst_chan);
            continue;
        }
        struct bexport *e = &b->exports[b->steps[i].index];
        for (unsigned k = 0; k <= e->burst; k++)
            for (int c = 0; c < 4; c++)
                e->copy[k][c] = e->sel[c] <= V_SQ_INST_SEL__W && ((later[e->gpr + k] >> e->sel[c]) & 1u);
    }
    /* each group's source table and slot list */
    for (unsigned i = 0; i < b->ngroups; i++) {
        struct bgroup *g = &b->groups[i];
        g->nfill = g->nlive = 0;
        for (int k = 0; k < EG_NSLOTS; k++) {
            for (unsigned n = 0; n < 3; n++)
                g->src[k][n] = b->src[k][n]; /* a source not read here: its lanes as they were */
            if (!g->s[k].used)
                continue;
            if (g->s[k].live)
                g->live[g->nlive++] = (uint8_t)k;
            for (unsigned n = 0; n < g->s[k].nread; n++) {
                const struct wsrc *w = &g->s[k].src[n];
                if (w->abs || w->neg || w->kind == WS_VALUE)
                    g->src_fill[g->nfill++] = (uint8_t)(k * 3 + n);
                else
                    g->src[k][n] = w->kind == WS_GPR ? b->gpr[w->gpr][w->chan]
                                   : w->kind == WS_PV ? b->pv[w->chan]
                                                      : b->ps;
            }
        }
    }
    /* forwards: the last export writing a channel says where it is */
    for (unsigned i = 0; i < b->nsteps; i++) {
        if (b->steps[i].kind != STEP_EXPORT)
            continue;
        const struct bexport *e = &b->exports[b->steps[i].index];
        for (unsigned k = 0; k <= e->burst; k++)
            for (int c = 0; c < 4; c++) {
                unsigned a = e->base + k, sel = e->sel[c];
                if (sel <= V_SQ_INST_SEL__W && !e->copy[k][c])
                    b->color_at[a][c] = b->gpr[e->gpr + k][sel];
                else if (sel <= V_SQ_INST_SEL__W || sel == V_SQ_INST_SEL__ZERO || sel == V_SQ_INST_SEL__ONE)
                    b->color_at[a][c] = b->color[a][c];
            }
    }
}

struct eg_ps_batch *eg_ps_batch_new(const struct eg_program *ps, const struct eg_shader_env *env,
                                    unsigned input_gprs)
{
    struct eg_ps_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    if (input_gprs)
        use_reg(b, input_gprs - 1);
    struct eg_kc kc[4];
    uint32_t ext_w0 = 0, ext_w1 = 0;
    bool have_ext = false;
    size_t pc = 0;
    for (unsigned steps = 0;; steps++) {
        if (steps >= MAX_STEPS || 2 * pc + 2 > ps->ndw)
            goto refuse;
        uint32_t w0 = ps->dw[2 * pc], w1 = ps->dw[2 * pc + 1];
        enum eg_cf_form form = eg_cf_form_of(w1);
        bool eop = false;
        if (form == EG_CF_ALU) {
            unsigned inst = G_SQ_CF_ALU_WORD1__CF_INST(w1);
            if (inst == V_SQ_CF_ALU_INST__ALU_EXTENDED) {
                ext_w0 = w0, ext_w1 = w1, have_ext = true;
                pc++;
                continue;
            }
            if (inst != V_SQ_CF_ALU_INST__ALU || G_SQ_CF_ALU_WORD1__ALT_CONST(w1))
                goto refuse;
            kc[0] = (struct eg_kc){G_SQ_CF_ALU_WORD0__KCACHE_BANK0(w0), G_SQ_CF_ALU_WORD1__KCACHE_ADDR0(w1),
                                    G_SQ_CF_ALU_WORD0__KCACHE_MODE0(w0)};
            kc[1] = (struct eg_kc){G_SQ_CF_ALU_WORD0__KCACHE_BANK1(w0), G_SQ_CF_ALU_WORD1__KCACHE_ADDR1(w1),
                                    G_SQ_CF_ALU_WORD1__KCACHE_MODE1(w1)};
            kc[2].mode = kc[3].mode = V_SQ_KCACHE_MODE__NOP;
            if (have_ext) {
                kc[2] = (struct eg_kc){G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK2(ext_w0),
                                        G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR2(ext_w1),
                                        G_SQ_CF_ALU_WORD0_EXT__KCACHE_MODE2(ext_w0)};
                kc[3] = (struct eg_kc){G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK3(ext_w0),
                                        G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR3(ext_w1),
                                        G_SQ_CF_ALU_WORD1_EXT__KCACHE_MODE3(ext_w1)};
                have_ext = false;
            }
            if (!decode_alu_clause(b, ps, env, kc, G_SQ_CF_ALU_WORD0__ADDR(w0), G_SQ_CF_ALU_WORD1__COUNT(w1) + 1))
                goto refuse;
        } else if (form == EG_CF_EXPORT) {
            unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(w1);
            if (inst != V_SQ_CF_INST__EXPORT && inst != V_SQ_CF_INST__EXPORT_DONE)
                goto refuse;
            if (!decode_export(b, w0, w1))
                goto refuse;
            eop = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(w1);
        } else {
            if (G_SQ_CF_WORD1__CF_INST(w1) != V_SQ_CF_INST__NOP ||
                G_SQ_CF_WORD1__COND(w1) != V_SQ_CF_COND__ACTIVE)
                goto refuse;
            eop = G_SQ_CF_WORD1__END_OF_PROGRAM(w1);
        }
        if (eop)
            break;
        pc++;
    }
    b->gpr = calloc(b->nregs ? b->nregs : 1, sizeof *b->gpr);
    if (!b->gpr)
        goto refuse;
    plan_lanes(b);
    return b;
refuse:
    eg_ps_batch_free(b);
    return NULL;
}

void eg_ps_batch_free(struct eg_ps_batch *b)
{
    if (!b)
        return;
    free(b->groups);
    free(b->exports);
    free(b->steps);
    free(b->gpr);
    free(b);
}

/* Only what a run reads before writing it is zeroed (plan_lanes), and only
 * its n lanes: every read is of lanes l < n. */
void eg_ps_batch_begin(struct eg_ps_batch *b, unsigned n)
{
    b->n = n = n > N ? N : n;
    for (unsigned g = 0; g < b->nregs; g++)
        for (unsigned c = 0; b->zero_in[g] && c < 4; c++)
            if ((b->zero_in[g] >> c) & 1u)
                memset(b->gpr[g][c], 0, n * sizeof(uint32_t));
    for (unsigned k = 0; b->pv_zero && k < EG_NSLOTS; k++)
        if ((b->pv_zero >> k) & 1u)
            memset(k == EG_SLOT_T ? b->ps : b->pv[k], 0, n * sizeof(uint32_t));
}

uint32_t *eg_ps_batch_gpr(struct eg_ps_batch *b, unsigned gpr, unsigned chan)
{
    return gpr < b->nregs && chan < 4 ? b->gpr[gpr][chan] : NULL;
}

/* A source's lanes: the GPR / PV / PS lanes themselves when read as they
 * are (a group writes those only after all its slots ran, so they hold
 * still meanwhile), else copied into out with the constant or abs / neg. */
static inline const uint32_t *read_lanes(const struct eg_ps_batch *b, const struct wsrc *s, uint32_t *out,
                                         const uint32_t (*pv)[N], const uint32_t *ps)
{
    unsigned n = b->n;
    const uint32_t *from;
    switch (s->kind) {
    case WS_VALUE:
        for (unsigned l = 0; l < n; l++)
            out[l] = s->value;
        return out;
    case WS_GPR: from = b->gpr[s->gpr][s->chan]; break;
    case WS_PV: from = pv[s->chan]; break;
    default: from = ps; break; /* WS_PS */
    }
    if (!s->abs && !s->neg)
        return from;
    uint32_t and = s->abs ? 0x7FFFFFFFu : 0xFFFFFFFFu, xor = s->neg ? 0x80000000u : 0;
    for (unsigned l = 0; l < n; l++)
        out[l] = (from[l] & and) ^ xor;
    return out;
}

static void run_group(struct eg_ps_batch *b, const struct bgroup *g, const struct eg_ps_param *param)
{
    const struct bslot *s = g->s;
    unsigned n = b->n;
    /* sources, with PV / PS as the previous group left them: the fixed
     * ones from the plan, the others filled (REDUCE reads all four slots') */
    const uint32_t *src[EG_NSLOTS][3];
    memcpy(src, g->src, sizeof src);
    for (unsigned f = 0; f < g->nfill; f++) {
        unsigned k = g->src_fill[f] / 3, i = g->src_fill[f] % 3;
        src[k][i] = read_lanes(b, &s[k].src[i], b->src[k][i], (const uint32_t(*)[N])b->pv, b->ps);
    }
    for (unsigned j = 0; j < g->nlive; j++) {
        unsigned k = g->live[j];
        const struct bslot *sl = &s[k];
        uint32_t *res = sl->direct ? b->gpr[sl->dst_gpr][sl->dst_chan] : b->res[k];
        bool *intr = b->int_result[k];
        switch (sl->kind) {
        case SLOT_REDUCE: {
            const uint32_t *a[4] = { src[0][0], src[1][0], src[2][0], src[3][0] };
            const uint32_t *c[4] = { src[0][1], src[1][1], src[2][1], src[3][1] };
            eg_lanes_reduce4(sl->op, a, c, res, n);
            if (sl->omod || sl->clamp)   /* a float result */
                eg_lanes_out_mod(sl->omod, sl->clamp, res, n);
            continue;
        }
        case SLOT_INTERP: {
            const struct eg_ps_param *p = &param[sl->param];
            float p0 = p->p0[sl->comp], p10 = p->p10[sl->comp], p20 = p->p20[sl->comp];
            const uint32_t *is = src[sl->odd][0], *js = src[sl->even][0];
            /* four lanes at a time: each lane the same two products and
             * two sums in the same order (vector lanes round like the
             * scalar operations), so the same bits */
            const v4f vp0 = {p0, p0, p0, p0}, vp10 = {p10, p10, p10, p10}, vp20 = {p20, p20, p20, p20};
            unsigned l = 0;
            for (; l + 8 <= n; l += 8) {   /* two vectors per step: half the loop's own work */
                v4f vi0, vi1, vj0, vj1;
                memcpy(&vi0, &is[l], sizeof vi0);
                memcpy(&vi1, &is[l + 4], sizeof vi1);
                memcpy(&vj0, &js[l], sizeof vj0);
                memcpy(&vj1, &js[l + 4], sizeof vj1);
                v4f r0 = vp0 + vi0 * vp10 + vj0 * vp20, r1 = vp0 + vi1 * vp10 + vj1 * vp20;
                memcpy(&res[l], &r0, sizeof r0);
                memcpy(&res[l + 4], &r1, sizeof r1);
            }
            for (; l + 4 <= n; l += 4) {
                v4f vi, vj;
                memcpy(&vi, &is[l], sizeof vi);
                memcpy(&vj, &js[l], sizeof vj);
                v4f r = vp0 + vi * vp10 + vj * vp20;
                memcpy(&res[l], &r, sizeof r);
            }
            for (; l < n; l++)
                res[l] = eg_f2u(p0 + eg_u2f(is[l]) * p10 + eg_u2f(js[l]) * p20);
            if (sl->omod || sl->clamp)
                eg_lanes_out_mod(sl->omod, sl->clamp, res, n);
            continue;
        }
        case SLOT_LOAD_P: {
            const struct eg_ps_param *p = &param[sl->param];
            float v = sl->op == V_SQ_ALU_OP2__INTERP_LOAD_P0 ? p->p0[sl->comp]
                      : sl->op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ? p->p10[sl->comp] : p->p20[sl->comp];
            for (unsigned l = 0; l < n; l++)
                res[l] = eg_f2u(v);
            if (sl->omod || sl->clamp)
                eg_lanes_out_mod(sl->omod, sl->clamp, res, n);
            continue;
        }
        default:
            if (sl->kern) {
                const uint32_t *in[3] = { src[k][0], src[k][1], src[k][2] };
                uint64_t c = sl->kern->run(in, res, n);
                if (sl->kern->int_result)
                    continue;   /* no OMOD / CLAMP */
                if (sl->kern->effect == EG_LANES_KILL)
                    for (unsigned l = 0; l < n; l++)
                        b->killed[l] |= (c >> l) & 1u;
                if (sl->omod || sl->clamp)
                    eg_lanes_out_mod(sl->omod, sl->clamp, res, n);
                continue;
            }
            for (unsigned l = 0; l < n; l++) {
                uint32_t in[3] = {sl->nsrc > 0 ? src[k][0][l] : 0, sl->nsrc > 1 ? src[k][1][l] : 0,
                                  sl->nsrc > 2 ? src[k][2][l] : 0};
                struct alu_effects fx = {0};
                eg_alu_eval(sl->op3, sl->op, in, &res[l], &fx); /* modelled: checked when decoded */
                intr[l] = fx.int_result;
                if (fx.kill)
                    b->killed[l] = true;
            }
            break;
        }
        if (sl->omod || sl->clamp)
            for (unsigned l = 0; l < n; l++)
                if (!intr[l])
                    res[l] = alu_out_mod(sl->omod, sl->clamp, res[l]);
    }
    for (unsigned j = 0; j < g->nlive; j++) {
        unsigned k = g->live[j];
        const uint32_t *res = s[k].direct ? b->gpr[s[k].dst_gpr][s[k].dst_chan] : b->res[k];
        if (s[k].write && !s[k].direct)
            memcpy(b->gpr[s[k].dst_gpr][s[k].dst_chan], res, n * sizeof(uint32_t));
        if (s[k].to_pv)
            memcpy(k == EG_SLOT_T ? b->ps : b->pv[k], res, n * sizeof(uint32_t));
    }
}

static void run_export(struct eg_ps_batch *b, const struct bexport *e)
{
    unsigned n = b->n;
    for (unsigned k = 0; k <= e->burst; k++) {
        unsigned a = e->base + k;
        b->color_mask |= (uint8_t)(1u << a);
        for (int c = 0; c < 4; c++) {
            uint32_t *dst = b->color[a][c];
            unsigned sel = e->sel[c];
            if (sel <= V_SQ_INST_SEL__W) {
                if (e->copy[k][c])   /* else read in place (color_at) */
                    memcpy(dst, b->gpr[e->gpr + k][sel], n * sizeof(uint32_t));
            }
            else if (sel == V_SQ_INST_SEL__ZERO || sel == V_SQ_INST_SEL__ONE)
                for (unsigned l = 0; l < n; l++)
                    dst[l] = eg_f2u(sel == V_SQ_INST_SEL__ONE ? 1.0f : 0.0f);
            /* MASK: not written */
        }
    }
}

int eg_ps_batch_run(struct eg_ps_batch *b, const struct eg_ps_param *param, unsigned nparam)
{
    if (b->max_param > nparam)
        return 1; /* eg_run_ps reports the missing parameter */
    b->color_mask = 0;
    /* color[][] needs no clearing: a channel no export writes stays as
     * calloc left it (0, what a MASK component reads), and every run writes
     * the others (all exports run) */
    if (b->can_kill)   /* else all false since calloc */
        memset(b->killed, 0, sizeof b->killed);
    for (unsigned i = 0; i < b->nsteps; i++) {
        if (b->steps[i].kind == STEP_GROUP)
            run_group(b, &b->groups[b->steps[i].index], param);
        else
            run_export(b, &b->exports[b->steps[i].index]);
    }
    return 0;
}

uint8_t eg_ps_batch_color_mask(const struct eg_ps_batch *b)
{
    return b->color_mask;
}

const uint32_t *eg_ps_batch_color(const struct eg_ps_batch *b, unsigned target, unsigned chan)
{
    return target < 8 && chan < 4 ? b->color_at[target][chan] : NULL;
}

const bool *eg_ps_batch_killed(const struct eg_ps_batch *b)
{
    return b->killed;
}

bool eg_ps_batch_can_kill(const struct eg_ps_batch *b)
{
    return b->can_kill;
}

bool eg_ps_batch_any_killed(const struct eg_ps_batch *b)
{
    if (!b->can_kill)
        return false;
    for (unsigned l = 0; l < b->n; l++)
        if (b->killed[l])
            return true;
    return false;
}
