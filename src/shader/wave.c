/* The pixel shader over a wave of up to 64 lanes (cedar/shader.h:
 * eg_wave_*): the general path's fast form.  Each ALU clause is decoded
 * once (wave_decode.c, the first time it runs) and kept with the program;
 * a run then takes every instruction over all the wave's active lanes
 * before the next one, registers stored as structure of arrays.
 *
 * The lanes come in groups (1: pixels on their own, 4: 2x2 quads), and
 * each group gets exactly what eg_run_ps_lanes (interp.c) gives it on its
 * own: the same per-lane steps (sources read before any write, PV / PS,
 * predicates, AR, KILL, the same eg_alu_eval / eg_alu_eval_group /
 * eg_exec_tex (as its halves eg_tex_prepare / eg_tex_lane) / eg_exec_vtx
 * (eg_vtx_prepare / eg_vtx_lane) / eg_export_lane calls) and the same flow
 * control (cf.c).  Flow control decides on "no lane left" (a jump, a
 * loop's next iteration, LOOP_BREAK's jump): where some groups of the wave
 * would decide one way and some the other, the wave splits (none() below),
 * the second part resuming at the same instruction with the state from
 * before it, so each group always follows the path it would follow alone.
 * Every mask operation of the flow control works lane by lane, which is
 * why splitting a mask by groups gives each group its own.
 *
 * A vertex wave (eg_wave_new_vs) runs the vertex shader the same way,
 * lanes on their own (group 1) as eg_run_vs runs each vertex, with CALL_FS
 * into its fetch shader (whose fetches read the fetch shader's resources;
 * an ALU clause there hands the run back), position and parameter exports
 * by lane, stream-out exports skipped.
 *
 * Anything the interpreter would fault on, and the few things not done
 * here (SEMANTIC fetches, CALL_FS in a pixel wave), make the run return 1:
 * the caller runs the groups through eg_run_ps_lanes, which reports the
 * fault with its message, or runs what is not done here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_rules.h"
#include "eg_regs.h"
#include "interp.h"
#include "wave.h"

#define NGPR 128
#define N EG_WAVE_MAX
#define BAIL 1              /* the run goes back to the interpreter */

/* A decoded clause, by the PC of the CF instruction running it. */
struct clause_slot {
    size_t pc;              /* SIZE_MAX: empty */
    struct wclause c;       /* c.kc: the kcache sets it was decoded under */
};

/* One lane's view of a source: p[l & m], then AND / XOR (ABS / NEG). */
struct lsrc {
    const uint32_t *p;
    uint32_t m, and, xor;
};

struct eg_wave {
    struct eg_program prog;
    struct eg_program fs;   /* a vertex wave's fetch shader (have_fs) */
    bool vs, have_fs;       /* a vertex wave (eg_wave_new_vs) */
    const struct eg_shader_env *env;
    struct clause_slot *clauses;
    unsigned cap;           /* a power of two */
    unsigned nclauses;
    /* the run */
    unsigned n, group;
    const struct eg_ps_input *in;
    struct eg_ps_output *out;
    struct eg_vs_output *vs_out;    /* a vertex wave's, by lane */
    unsigned hw;            /* GPRs hw.. are 0 */
    uint64_t pred, killed;
    struct eg_cf cur;
    struct eg_cf parts[N];  /* parts of the wave waiting to run */
    unsigned nparts;
    uint32_t gpr[NGPR][4][N];
    uint32_t pv[4][N], ps[N];
    int32_t ar[N], ar_before[N];
    union eg_vec4 grad[N][2];
    uint32_t res[EG_NSLOTS][N];
    uint32_t tmp[EG_NSLOTS][3][N];
    uint32_t lanes[EG_NSLOTS][3][N];        /* sources copied for the lane kernels */
    struct lanes_const {
        uint32_t value;
        unsigned n;         /* lanes[k][i][0 .. n-1] hold value (0: not a constant) */
    } lanes_const[EG_NSLOTS][3];
    union eg_vec4 fetch_src[N];     /* a TEX instruction's source in every lane, before it runs */
    union eg_vec4 *scratch;         /* N x EG_SCRATCH_ELEMS, made at the first use */
    unsigned scratch_hi;            /* elements 0 .. scratch_hi - 1 may be written in some lane */
    struct eg_tex_lod_memo lod_memo[N];     /* by the group's first lane */
    struct eg_tex_prep tex_prep;            /* the TEX instruction running (run_fetch_clause) */
    struct eg_vtx_prep vtx_prep;            /* the VTX instruction running */
};

struct eg_wave *eg_wave_new(const struct eg_program *ps, const struct eg_shader_env *env)
{
    struct eg_wave *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->prog = *ps;
    w->env = env;
    return w;
}

struct eg_wave *eg_wave_new_vs(const struct eg_program *vs, const struct eg_program *fs, const struct eg_shader_env *env)
{
    struct eg_wave *w = eg_wave_new(vs, env);
    if (!w)
        return NULL;
    w->vs = true;
    w->have_fs = fs != NULL;
    if (fs)
        w->fs = *fs;
    return w;
}

void eg_wave_free(struct eg_wave *w)
{
    if (!w)
        return;
    for (unsigned i = 0; i < w->cap; i++)
        if (w->clauses[i].pc != SIZE_MAX)
            wave_clause_free(&w->clauses[i].c);
    free(w->clauses);
    free(w->scratch);
    free(w);
}

#define EACH_LANE(l, mask) for (uint64_t l##_r = (mask), l; l##_r && (l = (unsigned)__builtin_ctzll(l##_r), 1); l##_r &= l##_r - 1)

/* ---------------------------------------------------------------- decoded clauses */

static struct clause_slot *clause_find(struct eg_wave *w, size_t pc)
{
    if (!w->cap)
        return NULL;
    for (unsigned i = (unsigned)(pc * 2654435761u) & (w->cap - 1);; i = (i + 1) & (w->cap - 1)) {
        if (w->clauses[i].pc == pc || w->clauses[i].pc == SIZE_MAX)
            return &w->clauses[i];
    }
}

static bool clause_grow(struct eg_wave *w)
{
    unsigned cap = w->cap ? 2 * w->cap : 16;
    struct clause_slot *old = w->clauses, *t = malloc(cap * sizeof *t);
    if (!t)
        return false;
    for (unsigned i = 0; i < cap; i++)
        t[i].pc = SIZE_MAX;
    unsigned oc = w->cap;
    w->clauses = t;
    w->cap = cap;
    for (unsigned i = 0; i < oc; i++)
        if (old[i].pc != SIZE_MAX)
            *clause_find(w, old[i].pc) = old[i];
    free(old);
    return true;
}

/* The clause the CF_ALU at the running PC runs, decoded the first time
 * (again when another ALU_EXTENDED before it changed its kcache sets). */
static const struct wclause *clause_at(struct eg_wave *w, const struct eg_kc kc[4], size_t addr, unsigned nslots)
{
    size_t pc = w->cur.pc;
    struct clause_slot *s = clause_find(w, pc);
    if (s && s->pc == pc && !memcmp(s->c.kc, kc, sizeof s->c.kc))
        return &s->c;
    if (s && s->pc == pc) {
        wave_clause_free(&s->c);
    } else {
        if (2 * (w->nclauses + 1) > w->cap && !clause_grow(w))
            return NULL;
        s = clause_find(w, pc);
        w->nclauses++;
    }
    s->pc = pc;
    if (wave_decode_clause(&w->prog, w->env, kc, addr, nslots, &s->c)) {
        s->c = (struct wclause){ .bad = true };
        return NULL;
    }
    return &s->c;
}

/* ---------------------------------------------------------------- ALU */

/* The offset INDEX_MODE adds for lane l: 0, or -1 where interp.c's
 * rel_index faults. */
static int rel_offset(const struct eg_wave *w, unsigned mode, unsigned l, int32_t *off)
{
    if (mode == V_SQ_ALU_INDEX_MODE__AR_X) {
        *off = w->ar[l];
        return 0;
    }
    return mode == V_SQ_ALU_INDEX_MODE__LOOP && eg_cf_loop_index(&w->cur, off) ? 0 : -1;
}

static inline uint32_t lane_src(const struct lsrc *s, unsigned l)
{
    return (s->p[l & s->m] & s->and) ^ s->xor;
}

/* The view of source i of slot k over lanes A (relative ones gathered). */
static int source_view(struct eg_wave *w, const struct wslot *s, const struct wclause *cl, int k, unsigned i,
                       uint64_t A, struct lsrc *v)
{
    const struct wsrc *src = &s->src[i];
    uint32_t and = src->abs ? 0x7FFFFFFFu : 0xFFFFFFFFu, xor = src->neg ? 0x80000000u : 0;
    *v = (struct lsrc){ &src->value, 0, 0xFFFFFFFFu, 0 };
    if (src->rel) {
        EACH_LANE(l, A) {
            int32_t off;
            if (rel_offset(w, s->index_mode, l, &off))
                return BAIL;
        }
    }
    switch (src->kind) {
    case WS_VALUE:
        return 0;
    case WS_PV:
        *v = (struct lsrc){ w->pv[src->chan], N - 1, and, xor };
        return 0;
    case WS_PS:
        *v = (struct lsrc){ w->ps, N - 1, and, xor };
        return 0;
    case WS_GPR:
        if (!src->rel) {
            *v = (struct lsrc){ w->gpr[src->gpr][src->chan], N - 1, and, xor };
            return 0;
        }
        break;
    default:
        break;
    }
    uint32_t *t = w->tmp[k][i];
    EACH_LANE(l, A) {
        int32_t off = 0;
        rel_offset(w, s->index_mode, l, &off); /* valid: checked above */
        uint32_t x;
        if (src->kind == WS_GPR) {
            int32_t g = (int32_t)src->gpr + off;
            if (g < 0 || g >= NGPR)
                return BAIL;
            x = w->gpr[g][src->chan][l];
        } else if (!wave_kcache_read(w->env, &cl->kc[src->kset], src->kidx, src->chan, true, off, &x)) {
            return BAIL;
        }
        t[l] = (x & and) ^ xor;
    }
    *v = (struct lsrc){ t, N - 1, 0xFFFFFFFFu, 0 };
    return 0;
}

static const struct eg_ps_param *param_of(const struct eg_wave *w, unsigned l, unsigned sel)
{
    if (!w->in || sel < V_SQ_ALU_SRC__PARAM_BASE)
        return NULL;    /* a vertex wave has no parameters (interp.c faults) */
    const struct eg_ps_input *in = &w->in[l];
    unsigned n = sel - V_SQ_ALU_SRC__PARAM_BASE;
    return n < V_SQ_ALU_SRC__PARAM_COUNT && n < in->nparam ? &in->param[n] : NULL;
}

/* OMOD and CLAMP on a float result. */
static inline uint32_t out_mod(const struct wslot *s, uint32_t r)
{
    return alu_out_mod(s->omod, s->clamp, r);
}

/* Lanes 0 .. nl-1 of source i of slot k (view v) as an array: the view's
 * own lanes when it reads them as they are, else copied into
 * w->lanes[k][i] with ABS / NEG.  A constant stays there for the next
 * group that reads the same one through the same slot and source (a loop's
 * body runs its groups again and again). */
static const uint32_t *lanes_of(struct eg_wave *w, int k, unsigned i, const struct lsrc *v, unsigned nl)
{
    if (v->m && v->and == 0xFFFFFFFFu && !v->xor)
        return v->p;
    uint32_t *buf = w->lanes[k][i];
    if (!v->m) {
        uint32_t x = (v->p[0] & v->and) ^ v->xor;
        struct lanes_const *c = &w->lanes_const[k][i];
        if (c->n < nl || c->value != x) {
            for (unsigned l = 0; l < nl; l++)
                buf[l] = x;
            *c = (struct lanes_const){ x, nl };
        }
        return buf;
    }
    w->lanes_const[k][i].n = 0;
    for (unsigned l = 0; l < nl; l++)
        buf[l] = lane_src(v, l);
    return buf;
}

/* Lanes 0 .. the highest of A: what the lane kernels run over (the
 * results of lanes outside A are never read). */
static unsigned lanes_upto(uint64_t A)
{
    return A ? 64u - (unsigned)__builtin_clzll(A) : 0u;
}

static const uint32_t zero_lanes[N];

/* Slot k's single-slot operation over lanes A. */
static int run_slot(struct eg_wave *w, const struct wslot *s, const struct lsrc v[EG_NSLOTS][3], int k, uint64_t A,
                    uint64_t *intm, uint64_t *killm, uint64_t *predm, uint64_t *condm)
{
    uint32_t *res = w->res[k];
    bool mod = s->omod || s->clamp;
    switch (s->kind) {
    case WK_EVAL:
        if (s->kern) {
            unsigned nl = lanes_upto(A);
            const uint32_t *in[3] = { zero_lanes, zero_lanes, zero_lanes };
            for (unsigned i = 0; i < s->nsrc; i++)
                in[i] = lanes_of(w, k, i, &v[k][i], nl);
            uint64_t c = s->kern->run(in, res, nl) & A;
            if (s->kern->int_result)
                *intm |= A;
            else if (mod)
                eg_lanes_out_mod(s->omod, s->clamp, res, nl);
            if (s->kern->effect == EG_LANES_KILL)
                *killm |= c;
            else if (s->kern->effect == EG_LANES_PRED)
                *predm |= A, *condm |= c;
            return 0;
        }
        EACH_LANE(l, A) {
            const uint32_t in[3] = { lane_src(&v[k][0], l), lane_src(&v[k][1], l), lane_src(&v[k][2], l) };
            struct alu_effects fx;
            eg_alu_eval(s->op3, s->op, in, &res[l], &fx); /* modelled: checked when decoded */
            uint64_t b = 1ull << l;
            if (fx.int_result)
                *intm |= b;
            else if (mod)
                res[l] = out_mod(s, res[l]);
            if (fx.kill)
                *killm |= b;
            if (fx.is_pred) {
                *predm |= b;
                if (fx.cond)
                    *condm |= b;
            }
        }
        return 0;
    case WK_MOVA:
        /* AR = src0 as an integer, clamped to [-256, 255] (interp.c) */
        EACH_LANE(l, A) {
            int32_t a = (int32_t)lane_src(&v[k][0], l);
            res[l] = (uint32_t)(a < -256 ? -256 : a > 255 ? 255 : a);
        }
        *intm |= A;
        return 0;
    case WK_INTERP:
        EACH_LANE(l, A) {
            const struct eg_ps_param *p = param_of(w, l, s->nsrc > 1 ? s->src[1].sel : 0);
            if (!p)
                return BAIL;
            float i = eg_u2f(lane_src(&v[s->odd][0], l)), j = eg_u2f(lane_src(&v[s->even][0], l));
            res[l] = eg_f2u(p->p0[s->comp] + i * p->p10[s->comp] + j * p->p20[s->comp]);
            if (mod)
                res[l] = out_mod(s, res[l]);
        }
        return 0;
    case WK_LOAD_P:
        EACH_LANE(l, A) {
            const struct eg_ps_param *p = param_of(w, l, s->nsrc > 0 ? s->src[0].sel : 0);
            if (!p)
                return BAIL;
            unsigned c = s->nsrc > 0 ? s->src[0].chan : 0;
            float f = s->op == V_SQ_ALU_OP2__INTERP_LOAD_P0    ? p->p0[c]
                      : s->op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ? p->p10[c]
                                                               : p->p20[c];
            res[l] = eg_f2u(f);
            if (mod)
                res[l] = out_mod(s, res[l]);
        }
        return 0;
    default:
        return 0;   /* WK_GROUP: after the others */
    }
}

/* The group ops of g over lanes A, from the other slots' results. */
static int run_group_ops(struct eg_wave *w, const struct wgroup *g, const struct lsrc v[EG_NSLOTS][3], uint64_t A)
{
    const struct wslot *s = g->s;
    if (g->reduce) {
        unsigned nl = lanes_upto(A);
        const uint32_t *a[4], *b[4];
        for (int k = 0; k < 4; k++) {
            a[k] = lanes_of(w, k, 0, &v[k][0], nl);
            b[k] = lanes_of(w, k, 1, &v[k][1], nl);
        }
        uint32_t *r = w->lanes[EG_SLOT_T][0];
        w->lanes_const[EG_SLOT_T][0].n = 0;
        eg_lanes_reduce4(s[0].op, a, b, r, nl);
        for (int k = 0; k < 4; k++) {
            memcpy(w->res[k], r, nl * sizeof *r);
            if (s[k].omod || s[k].clamp)
                eg_lanes_out_mod(s[k].omod, s[k].clamp, w->res[k], nl);
        }
        return 0;
    }
    EACH_LANE(l, A) {
        struct eg_alu_group_slot gs[4];
        uint32_t r[4];
        for (int k = 0; k < 4; k++) {
            bool group = s[k].used && s[k].kind == WK_GROUP;
            gs[k] = (struct eg_alu_group_slot){ s[k].used, s[k].op3, s[k].op,
                                                { s[k].used ? lane_src(&v[k][0], l) : 0,
                                                  s[k].used ? lane_src(&v[k][1], l) : 0 } };
            r[k] = s[k].used && !group ? w->res[k][l] : 0;
        }
        const char *why;
        if (eg_alu_eval_group(gs, r, &why))
            return BAIL;
        for (int k = 0; k < 4; k++)
            if (s[k].used && s[k].kind == WK_GROUP)
                w->res[k][l] = s[k].omod || s[k].clamp ? out_mod(&s[k], r[k]) : r[k];
    }
    return 0;
}

/* One group over the active lanes: exec_group for each of them. */
static int run_group(struct eg_wave *w, const struct wclause *cl, const struct wgroup *g)
{
    uint64_t A = w->cur.active;
    const struct wslot *s = g->s;
    struct lsrc v[EG_NSLOTS][3];
    uint64_t skip[EG_NSLOTS] = { 0 }, intm[EG_NSLOTS] = { 0 }, killm[EG_NSLOTS] = { 0 };
    uint64_t predm[EG_NSLOTS] = { 0 }, condm[EG_NSLOTS] = { 0 };
    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used)
            continue;
        if (s[k].fault)
            return BAIL;
        if (s[k].psel == V_SQ_ALU_PRED_SEL__ZERO)
            skip[k] = w->pred;
        else if (s[k].psel == V_SQ_ALU_PRED_SEL__ONE)
            skip[k] = ~w->pred;
        for (unsigned i = 0; i < 3; i++)
            if (source_view(w, &s[k], cl, k, i, A, &v[k][i]))
                return BAIL;
    }
    for (int k = 0; k < EG_NSLOTS; k++)
        if (s[k].used && run_slot(w, &s[k], (const struct lsrc(*)[3])v, k, A, &intm[k], &killm[k], &predm[k],
                                  &condm[k]))
            return BAIL;
    if (g->any_group && run_group_ops(w, g, (const struct lsrc(*)[3])v, A))
        return BAIL;
    /* writes, relative ones by AR as it was before the group's MOVA_INT */
    if (g->any_mova && g->any_rel)
        memcpy(w->ar_before, w->ar, sizeof w->ar);
    const int32_t *ar = g->any_mova && g->any_rel ? w->ar_before : w->ar;
    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used)
            continue;
        uint64_t W = A & ~skip[k];
        const uint32_t *res = w->res[k];
        if (s[k].write && !s[k].dst_rel) {
            uint32_t *dst = w->gpr[s[k].dst_gpr][s[k].dst_chan];
            if (W == ~0ull)
                memcpy(dst, res, sizeof w->res[k]);
            else
                EACH_LANE(l, W)
                    dst[l] = res[l];
        } else if (s[k].write) {
            EACH_LANE(l, W) {
                int32_t off = ar[l];
                if (s[k].index_mode != V_SQ_ALU_INDEX_MODE__AR_X && rel_offset(w, s[k].index_mode, l, &off))
                    return BAIL;
                int32_t gi = (int32_t)s[k].dst_gpr + off;
                if (gi < 0 || gi >= NGPR)
                    return BAIL;
                w->gpr[gi][s[k].dst_chan][l] = res[l];
            }
        }
        if (s[k].kind == WK_MOVA)
            EACH_LANE(l, W)
                w->ar[l] = (int32_t)res[l];
    }
    /* PV / PS, kill, predicate, execute mask */
    for (int k = 0; k < EG_NSLOTS; k++) {
        if (!s[k].used)
            continue;
        uint64_t W = A & ~skip[k];
        uint32_t *to = k == EG_SLOT_T ? w->ps : w->pv[k];
        if (W == ~0ull)
            memcpy(to, w->res[k], sizeof w->res[k]);
        else
            EACH_LANE(l, W)
                to[l] = w->res[k][l];
        w->killed |= killm[k] & W;
        if (s[k].op3)
            continue;
        uint64_t P = predm[k] & W;
        if (s[k].update_pred)
            w->pred = (w->pred & ~P) | (condm[k] & P);
        if (s[k].update_exec)
            w->cur.active &= ~(P & ~condm[k]);
    }
    return 0;
}

static int run_alu_clause(void *ctx, struct eg_cf *c, const struct eg_kc kc[4], size_t addr, unsigned nslots)
{
    struct eg_wave *w = ctx;
    (void)c;    /* w->cur */
    if (w->cur.prog != &w->prog)
        return BAIL;    /* an ALU clause in the fetch shader: clauses are kept by the main program's PC */
    const struct wclause *cl = clause_at(w, kc, addr, nslots);
    if (!cl)
        return BAIL;
    if (cl->max_write > w->hw)
        w->hw = cl->max_write;
    for (unsigned i = 0; i < cl->ng && w->cur.active; i++)
        if (run_group(w, cl, &cl->g[i]))
            return BAIL;
    return cl->bad ? BAIL : 0;
}

/* ---------------------------------------------------------------- fetch */

/* Lane l's register r as a vec4. */
static void get_reg(const struct eg_wave *w, unsigned r, unsigned l, union eg_vec4 *v)
{
    for (unsigned c = 0; c < 4; c++)
        v->u[c] = w->gpr[r][c][l];
}

static void set_reg(struct eg_wave *w, unsigned r, unsigned l, const union eg_vec4 *v)
{
    for (unsigned c = 0; c < 4; c++)
        w->gpr[r][c][l] = v->u[c];
}

/* ---------------------------------------------------------------- scratch */

/* Lane l's scratch elements (interp.c lane_scratch: zeros before the run's
 * first write, eg_wave_run clearing what the previous run wrote); NULL when
 * out of memory. */
static union eg_vec4 *lane_scratch(struct eg_wave *w, unsigned l)
{
    if (!w->scratch && !(w->scratch = calloc((size_t)N * EG_SCRATCH_ELEMS, sizeof *w->scratch)))
        return NULL;
    return w->scratch + (size_t)l * EG_SCRATCH_ELEMS;
}

/* MEM_SCRATCH (interp.c scratch_write) for the lanes A. */
static int scratch_write(struct eg_wave *w, uint64_t A, uint32_t w0, uint32_t w1)
{
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0) != 3 || G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return BAIL;
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0), ig = G_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(w0);
    unsigned mask = G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1);
    unsigned burst = G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(w1);
    bool indexed = G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0) & 1u;
    if (gpr + burst >= NGPR)
        return BAIL;
    EACH_LANE(l, A) {
        union eg_vec4 *sc = lane_scratch(w, l);
        if (!sc)
            return BAIL;
        int64_t e = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
        if (indexed)
            e += (int32_t)w->gpr[ig][0][l];
        for (unsigned b = 0; b <= burst; b++, e++) {
            if (e < 0 || e >= EG_SCRATCH_ELEMS)
                continue;
            for (unsigned c = 0; c < 4; c++)
                if ((mask >> c) & 1u)
                    sc[e].u[c] = w->gpr[gpr + b][c][l];
            if ((unsigned)e + 1 > w->scratch_hi)
                w->scratch_hi = (unsigned)e + 1;
        }
    }
    return 0;
}

/* READ_SCRATCH (fetch.c eg_exec_scratch_read) for the lanes A, on a copy of
 * the registers it reads and writes (the words rewritten to name them R0
 * and R1 ..). */
static int scratch_read(struct eg_wave *w, const uint32_t words[4], uint64_t A)
{
    uint32_t ww[4];
    memcpy(ww, words, sizeof ww);
    unsigned sg = G_SQ_MEM_RD_WORD0__SRC_GPR(ww[0]), dg = G_SQ_MEM_RD_WORD1__DST_GPR(ww[1]);
    unsigned burst = G_SQ_MEM_RD_WORD0__BURST_COUNT(ww[0]);
    if (dg + burst >= NGPR)
        return BAIL;
    ww[0] = (ww[0] & ~SQ_MEM_RD_WORD0__SRC_GPR__MASK) | S_SQ_MEM_RD_WORD0__SRC_GPR(0);
    ww[1] = (ww[1] & ~SQ_MEM_RD_WORD1__DST_GPR__MASK) | S_SQ_MEM_RD_WORD1__DST_GPR(1);
    if (dg + burst + 1 > w->hw)
        w->hw = dg + burst + 1;
    EACH_LANE(l, A) {
        union eg_vec4 r[2 + (SQ_MEM_RD_WORD0__BURST_COUNT__MASK >> 26)];
        const union eg_vec4 *sc = lane_scratch(w, l);
        char msg[160];
        if (!sc)
            return BAIL;
        get_reg(w, sg, l, &r[0]);
        for (unsigned b = 0; b <= burst; b++)
            get_reg(w, dg + b, l, &r[1 + b]);
        if (eg_exec_scratch_read(r, sc, ww, msg, sizeof msg))
            return BAIL;
        for (unsigned b = 0; b <= burst; b++)
            set_reg(w, dg + b, l, &r[1 + b]);
    }
    return 0;
}

/* ---------------------------------------------------------------- fetch clauses */

/* A point sample's lanes A (source GPR sg, destination dg) read together
 * (eg_tex_point_lanes); false: not taken, nothing written. */
static bool tex_point_wave(struct eg_wave *w, unsigned sg, unsigned dg, uint64_t A)
{
    _Static_assert(N <= EG_TEX_LANES_MAX, "a wave's lanes in one batch");
    uint8_t lane[N];
    unsigned n = 0;
    EACH_LANE(l, A)
        lane[n++] = (uint8_t)l;
    const uint32_t *const src[4] = { w->gpr[sg][0], w->gpr[sg][1], w->gpr[sg][2], w->gpr[sg][3] };
    uint32_t *const dst[4] = { w->gpr[dg][0], w->gpr[dg][1], w->gpr[dg][2], w->gpr[dg][3] };
    return eg_tex_point_lanes(&w->tex_prep, n, lane, src, dst) == 0;
}

/* A TEX or VTX clause over the lanes A: each instruction prepared once
 * (eg_tex_prepare, eg_vtx_prepare), then run for one lane at a time: a TEX
 * instruction through eg_tex_lane on a copy of the two registers it reads
 * and writes (the words rewritten to name them R0, R1), a FETCH through
 * eg_vtx_lane with the lane's index into its destination register: what
 * eg_exec_tex / eg_exec_vtx do for the lane (a point sample's lanes all at
 * once when tex_point_wave takes them). */
static int run_fetch_clause(void *ctx, struct eg_cf *c, bool tex, size_t addr, unsigned count, uint64_t A)
{
    struct eg_wave *w = ctx;
    (void)c;
    size_t start = 2 * addr, end = start + 4 * (size_t)count;
    const struct eg_program *prog = w->cur.prog;   /* a vertex wave's fetch shader too */
    if ((addr & 1) || end > prog->ndw)
        return BAIL;
    /* the fetch shader's resources are its own (interp.c cur_res_base) */
    unsigned res_base = prog == &w->fs ? V_SQ_FETCH_RESOURCE_BASE__FS
                        : w->vs        ? V_SQ_FETCH_RESOURCE_BASE__VS : V_SQ_FETCH_RESOURCE_BASE__PS;
    unsigned sampler_base = w->vs ? V_SQ_SAMPLER_BASE__VS : V_SQ_SAMPLER_BASE__PS;
    union eg_vec4 *src = w->fetch_src;
    for (size_t at = start; at < end; at += 4) {
        uint32_t ww[4];
        memcpy(ww, prog->dw + at, sizeof ww);
        unsigned sg, dg;
        if (tex) {
            sg = G_SQ_TEX_WORD0__SRC_GPR(ww[0]);
            dg = G_SQ_TEX_WORD1__DST_GPR(ww[1]);
            ww[0] = (ww[0] & ~SQ_TEX_WORD0__SRC_GPR__MASK) | S_SQ_TEX_WORD0__SRC_GPR(0);
            ww[1] = (ww[1] & ~SQ_TEX_WORD1__DST_GPR__MASK) | S_SQ_TEX_WORD1__DST_GPR(1);
            /* prepared when a lane runs it (with none, nothing is read) */
            char msg[160];
            if (A && eg_tex_prepare(w->env, res_base, sampler_base, ww, &w->tex_prep, msg, sizeof msg))
                return BAIL;
            /* the quad's sources: LD, the queries and a point sample
             * (no level of detail) read only the lane's own */
            if (A && !w->tex_prep.ld && !w->tex_prep.info && !w->tex_prep.nsamples && !w->tex_prep.point)
                for (unsigned l = 0; l < w->n; l++)
                    get_reg(w, sg, l, &src[l]);
        } else {
            if (G_SQ_VTX_WORD0__VTX_INST(ww[0]) == V_SQ_VTX_INST__MEM) {
                if (scratch_read(w, ww, A))
                    return BAIL;
                continue;
            }
            if (G_SQ_VTX_WORD0__VTX_INST(ww[0]) != V_SQ_VTX_INST__FETCH)
                return BAIL;    /* SEMANTIC: the interpreter */
            dg = G_SQ_VTX_WORD1_GPR__DST_GPR(ww[1]);
            if (dg + 1 > w->hw)
                w->hw = dg + 1;
            if (!A)
                continue;       /* with no lane, nothing is read */
            /* prepared once, then each lane's index into its register */
            char msg[160];
            struct eg_vtx_prep *p = &w->vtx_prep;
            if (eg_vtx_prepare(w->env, res_base, ww, p, msg, sizeof msg))
                return BAIL;
            EACH_LANE(l, A) {
                union eg_vec4 d;
                get_reg(w, p->dst_gpr, l, &d);
                if (eg_vtx_lane(p, w->gpr[p->src_gpr][p->src_sel][l], &d, msg, sizeof msg))
                    return BAIL;
                set_reg(w, p->dst_gpr, l, &d);
            }
            continue;
        }
        if (dg + 1 > w->hw)
            w->hw = dg + 1;
        if (w->tex_prep.point && tex_point_wave(w, sg, dg, A))
            continue;
        memset(w->lod_memo, 0, sizeof w->lod_memo);
        EACH_LANE(l, A) {
            union eg_vec4 r[2];
            char msg[160];
            get_reg(w, sg, l, &r[0]);
            get_reg(w, dg, l, &r[1]);
            /* a vertex wave's lanes are invocations on their own, as
             * interp.c runs another stage's lanes (no level-of-detail memo) */
            unsigned q = l - l % w->group;
            struct eg_tex_quad quad = { &src[q], w->group, l - q, w->grad[l], w->vs ? NULL : &w->lod_memo[q] };
            if (eg_tex_lane(&w->tex_prep, r, &quad, msg, sizeof msg))
                return BAIL;
            set_reg(w, dg, l, &r[1]);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- exports */

static int run_export(void *ctx, struct eg_cf *c, uint32_t w0, uint32_t w1)
{
    struct eg_wave *w = ctx;
    unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(w1);
    if (inst == V_SQ_CF_INST__MEM_SCRATCH)
        return c->active ? scratch_write(w, c->active, w0, w1) : 0;
    if (w->vs && inst >= V_SQ_CF_INST__MEM_STREAM0_BUF0 && inst <= V_SQ_CF_INST__MEM_STREAM3_BUF3)
        return 0;       /* skipped, as eg_run_vs skips them */
    if (inst != V_SQ_CF_INST__EXPORT && inst != V_SQ_CF_INST__EXPORT_DONE)
        return BAIL;    /* the rest: the interpreter */
    if (!c->active)
        return 0;
    unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0);
    if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
        return BAIL;
    for (unsigned b = 0; b <= G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(w1); b++) {
        if (gpr + b >= NGPR)
            return BAIL;
        struct eg_export_target t;
        char why[120];
        if (eg_export_decode(!w->vs, w0, w1, b, &t, why, sizeof why))
            return BAIL;
        EACH_LANE(l, c->active) {
            union eg_vec4 src;
            get_reg(w, gpr + b, l, &src);
            eg_export_apply(&t, &src, w->vs ? NULL : &w->out[l], w->vs ? &w->vs_out[l] : NULL);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- flow control */

/* Lanes of the groups in which x has no lane, among the part's lanes. */
static uint64_t empty_groups(const struct eg_wave *w, uint64_t x)
{
    if (w->group == 1)
        return w->cur.all & ~x;
    uint64_t q = (x | x >> 1 | x >> 2 | x >> 3) & 0x1111111111111111ull;
    return w->cur.all & ~(q * 0xFu);
}

static void restrict_cf(struct eg_cf *c, uint64_t keep)
{
    c->active &= keep;
    c->all &= keep;
    c->valid &= keep;
    for (unsigned i = 0; i < c->sp; i++)
        c->stack[i] &= keep;
    for (unsigned i = 0; i < c->nloops; i++) {
        c->loops[i].saved &= keep;
        c->loops[i].entered &= keep;
        c->loops[i].brk &= keep;
        c->loops[i].cont &= keep;
    }
}

/* "No lane in x": true or false for every group of the running part, or,
 * where the groups differ, false for those that have one while those that
 * have none are set aside to run this instruction again from `before`. */
static bool none(void *ctx, struct eg_cf *c, const struct eg_cf *before, uint64_t x)
{
    struct eg_wave *w = ctx;
    uint64_t z = empty_groups(w, x);
    if (z == c->all)
        return true;
    if (z) {
        struct eg_cf *p = &w->parts[w->nparts++];
        *p = *before;
        restrict_cf(p, z);
        restrict_cf(c, ~z);
    }
    return false;
}

static int fault(void *ctx, struct eg_cf *c, const char *what)
{
    (void)ctx, (void)c, (void)what;
    return BAIL;
}

/* The run from the start values set: every group to its end, or BAIL. */
static int run_wave(struct eg_wave *w, unsigned n, unsigned group, uint64_t helpers)
{
    memset(w->pv, 0, sizeof w->pv);
    memset(w->ps, 0, sizeof w->ps);
    memset(w->ar, 0, sizeof w->ar);
    memset(w->grad, 0, sizeof w->grad);
    if (w->scratch_hi) {
        for (unsigned l = 0; l < N; l++)
            memset(w->scratch + (size_t)l * EG_SCRATCH_ELEMS, 0, w->scratch_hi * sizeof *w->scratch);
        w->scratch_hi = 0;
    }
    w->pred = w->killed = 0;
    uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    w->cur.prog = &w->prog;
    w->cur.pc = 0;
    w->cur.steps = 0;
    w->cur.active = w->cur.all = all;
    w->cur.valid = all & ~helpers;
    w->cur.sp = w->cur.nloops = w->cur.ncalls = 0;
    w->cur.have_ext = false;
    w->nparts = 0;
    const struct eg_cf_ops ops = { .ctx = w, .fs = w->have_fs ? &w->fs : NULL, .env = w->env, .alu = run_alu_clause,
                                   .fetch = run_fetch_clause, .export = run_export, .none = none, .split = n > group,
                                   .fault = fault };
    for (;;) {
        if (eg_cf_run(&ops, &w->cur))
            return BAIL;
        if (!w->nparts)
            break;
        w->cur = w->parts[--w->nparts];
    }
    return 0;
}

int eg_wave_run(struct eg_wave *w, const struct eg_ps_input *in, unsigned n, unsigned group, uint64_t helpers,
                struct eg_ps_output *out)
{
    if (w->vs || n == 0 || n > N || (group != 1 && group != 4) || n % group)
        return BAIL;
    w->n = n;
    w->group = group;
    w->in = in;
    w->out = out;
    w->vs_out = NULL;
    memset(out, 0, n * sizeof *out);
    unsigned top = w->hw;
    for (unsigned l = 0; l < n; l++)
        if (in[l].ngpr > top)
            top = in[l].ngpr < NGPR ? in[l].ngpr : NGPR;
    memset(w->gpr, 0, (size_t)top * sizeof w->gpr[0]);
    w->hw = top;
    for (unsigned l = 0; l < n; l++)
        for (unsigned i = 0; i < in[l].ngpr && i < NGPR; i++)
            set_reg(w, i, l, &in[l].gpr[i]);
    if (run_wave(w, n, group, helpers))
        return BAIL;
    EACH_LANE(l, w->killed)
        out[l].killed = true;
    return 0;
}

int eg_wave_run_vs(struct eg_wave *w, const union eg_vec4 *r0, unsigned n, struct eg_vs_output *out)
{
    if (!w->vs || n == 0 || n > N)
        return BAIL;
    w->n = n;
    w->group = 1;
    w->in = NULL;
    w->out = NULL;
    w->vs_out = out;
    for (unsigned l = 0; l < n; l++)
        out[l].pos_mask = 0, out[l].param_mask = 0;   /* each export's first write clears the rest */
    unsigned top = w->hw > 2 ? w->hw : 2;
    memset(w->gpr, 0, (size_t)top * sizeof w->gpr[0]);
    w->hw = top;
    for (unsigned l = 0; l < n; l++)
        set_reg(w, 0, l, &r0[l]);   /* R1 and the rest 0, as eg_run_vs starts a lane */
    if (run_wave(w, n, 1, 0))
        return BAIL;
    return w->killed ? BAIL : 0;    /* KILL outside a pixel shader: interp.c faults */
}
