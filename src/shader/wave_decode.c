/* An ALU clause decoded once for the wave engine (wave.h): its groups as
 * run_alu_clause (interp.c) forms them (slot by destination channel, else
 * t; literals after the group), each slot with its op, source kinds
 * (kcache constants and literals read now), predicate select, destination,
 * OMOD / CLAMP and what exec_group checks per lane turned into a flag: a
 * slot the interpreter would fault on is marked, and the wave hands the
 * run back when an active lane reaches it.  A clause the interpreter would
 * stop parsing keeps the groups before the bad one and says so. */
#include <stdlib.h>
#include <string.h>

#include "eg_regs.h"
#include "interp.h"
#include "wave.h"

#define NGPR 128

bool wave_kcache_read(const struct eg_shader_env *env, const struct eg_kc *k, unsigned idx, unsigned chan,
                      bool rel, int32_t off, uint32_t *out)
{
    unsigned size = k->mode == V_SQ_KCACHE_MODE__LOCK_1 ? 16 : 32;
    if (k->mode == V_SQ_KCACHE_MODE__NOP || k->mode == V_SQ_KCACHE_MODE__LOCK_LOOP_INDEX || (!rel && idx >= size) ||
        !env->constant)
        return false;
    int64_t at = (int64_t)k->addr * 16 + idx + (rel ? off : 0);
    if (at < 0 || at > 0xFFFFF)
        return false;
    uint32_t v[4];
    char msg[120];
    if (env->constant(env->ctx, k->bank, (unsigned)at, v, msg, sizeof msg))
        return false;
    *out = v[chan];
    return true;
}

bool wave_decode_src(const struct eg_shader_env *env, const struct eg_kc kc[4], unsigned sel, unsigned chan,
                       bool rel, bool abs, bool neg, const uint32_t *lit, unsigned nlit, struct wsrc *s)
{
    static const unsigned kbase[4] = { V_SQ_ALU_SRC__KCACHE0_BASE, V_SQ_ALU_SRC__KCACHE1_BASE,
                                       V_SQ_ALU_SRC__KCACHE2_BASE, V_SQ_ALU_SRC__KCACHE3_BASE };
    *s = (struct wsrc){ .kind = WS_VALUE, .chan = (uint8_t)chan, .rel = rel, .abs = abs, .neg = neg, .sel = sel };
    uint32_t v = 0;
    if (sel < V_SQ_ALU_SRC__GPR_COUNT) {
        s->kind = WS_GPR;
        s->gpr = (uint16_t)sel;
        return true;
    }
    for (unsigned k = 0; k < 4; k++)
        if (sel >= kbase[k] && sel < kbase[k] + V_SQ_ALU_SRC__KCACHE_SIZE) {
            if (rel) {
                s->kind = WS_KCACHE_REL;
                s->kset = (uint8_t)k;
                s->kidx = (uint16_t)(sel - kbase[k]);
                return true;
            }
            if (!wave_kcache_read(env, &kc[k], sel - kbase[k], chan, false, 0, &v))
                return false;
            goto value;
        }
    switch (sel) {
    case V_SQ_ALU_SRC__ZERO: v = 0; goto value;
    case V_SQ_ALU_SRC__ONE: v = eg_f2u(1.0f); goto value;
    case V_SQ_ALU_SRC__HALF: v = eg_f2u(0.5f); goto value;
    case V_SQ_ALU_SRC__ONE_INT: v = 1; goto value;
    case V_SQ_ALU_SRC__M_ONE_INT: v = 0xFFFFFFFFu; goto value;
    case V_SQ_ALU_SRC__PV: s->kind = WS_PV; return true;
    case V_SQ_ALU_SRC__PS: s->kind = WS_PS; return true;
    case V_SQ_ALU_SRC__LITERAL:
        if (chan >= nlit)
            return false;
        v = lit[chan];
        goto value;
    default:
        break;
    }
    if (sel >= V_SQ_ALU_SRC__PARAM_BASE && sel < V_SQ_ALU_SRC__PARAM_BASE + V_SQ_ALU_SRC__PARAM_COUNT)
        goto value; /* 0: the INTERP instructions look their parameter up themselves */
    return false;
value:
    if (abs)
        v &= 0x7FFFFFFFu;
    if (neg)
        v ^= 0x80000000u;
    s->value = v;
    return true;
}

static bool is_interp(unsigned op)
{
    return op == V_SQ_ALU_OP2__INTERP_XY || op == V_SQ_ALU_OP2__INTERP_ZW || op == V_SQ_ALU_OP2__INTERP_X ||
           op == V_SQ_ALU_OP2__INTERP_Z;
}

static bool is_load_p(unsigned op)
{
    return op == V_SQ_ALU_OP2__INTERP_LOAD_P0 || op == V_SQ_ALU_OP2__INTERP_LOAD_P10 ||
           op == V_SQ_ALU_OP2__INTERP_LOAD_P20;
}

/* The slot's kind and the checks exec_group makes of it. */
static void classify(struct wgroup *g, int k)
{
    struct wslot *s = &g->s[k];
    unsigned op = s->op;
    if (eg_alu_is_group_op(s->op3, op)) {
        s->kind = WK_GROUP;
        g->any_group = true;
        if (k == EG_SLOT_T)
            s->fault = true;
    } else if (!s->op3 && is_interp(op)) {
        unsigned pair;
        switch (op) {
        case V_SQ_ALU_OP2__INTERP_XY: s->comp = k < 2 ? (unsigned)k : 1; pair = k < 2 ? (unsigned)k : 1; break;
        case V_SQ_ALU_OP2__INTERP_ZW: s->comp = k < 2 ? 2 : (unsigned)k; pair = k < 2 ? 0 : (unsigned)k - 2; break;
        case V_SQ_ALU_OP2__INTERP_X: s->comp = 0; pair = 0; break;
        default: s->comp = 2; pair = 1; break;
        }
        s->kind = WK_INTERP;
        s->even = (int)(2 * pair);
        s->odd = (int)(2 * pair + 1);
        const struct wslot *e = &g->s[s->even], *o = &g->s[s->odd];
        if (k == EG_SLOT_T || !e->used || !o->used || e->op != op || o->op != op)
            s->fault = true;
    } else if (!s->op3 && is_load_p(op)) {
        s->kind = WK_LOAD_P;
    } else if (!s->op3 && op == V_SQ_ALU_OP2__MOVA_INT) {
        s->kind = WK_MOVA;
        g->any_mova = true;
    } else {
        /* whether eg_alu_eval models the opcode depends on nothing else */
        uint32_t zero[3] = { 0, 0, 0 }, r;
        struct alu_effects fx;
        s->kind = WK_EVAL;
        if (eg_alu_eval(s->op3, op, zero, &r, &fx))
            s->fault = true;
        else
            s->kern = eg_lanes_kernel(s->op3, op);
    }
}

/* x..w holding the same four-slot reduction: what eg_alu_eval_group does
 * for them is eg_alu_reduce4. */
static bool is_reduce(const struct wgroup *g)
{
    unsigned op = g->s[0].op;
    if (g->s[0].op3 || (op != V_SQ_ALU_OP2__DOT4 && op != V_SQ_ALU_OP2__DOT4_IEEE && op != V_SQ_ALU_OP2__MAX4))
        return false;
    for (int k = 0; k < 4; k++)
        if (!g->s[k].used || g->s[k].op3 || g->s[k].op != op)
            return false;
    return !g->s[EG_SLOT_T].used || g->s[EG_SLOT_T].kind != WK_GROUP;
}

static void decode_slot(struct wgroup *g, int k, uint32_t w0, uint32_t w1, const struct eg_shader_env *env,
                        const struct eg_kc kc[4], const uint32_t *lit, unsigned nlit, unsigned *max_write)
{
    struct wslot *s = &g->s[k];
    const unsigned sel[3] = { G_SQ_ALU_WORD0__SRC0_SEL(w0), G_SQ_ALU_WORD0__SRC1_SEL(w0),
                              G_SQ_ALU_WORD1_OP3__SRC2_SEL(w1) };
    const unsigned chan[3] = { G_SQ_ALU_WORD0__SRC0_CHAN(w0), G_SQ_ALU_WORD0__SRC1_CHAN(w0),
                               G_SQ_ALU_WORD1_OP3__SRC2_CHAN(w1) };
    const bool rel[3] = { G_SQ_ALU_WORD0__SRC0_REL(w0), G_SQ_ALU_WORD0__SRC1_REL(w0),
                          G_SQ_ALU_WORD1_OP3__SRC2_REL(w1) };
    const bool neg[3] = { G_SQ_ALU_WORD0__SRC0_NEG(w0), G_SQ_ALU_WORD0__SRC1_NEG(w0),
                          G_SQ_ALU_WORD1_OP3__SRC2_NEG(w1) };
    const bool abs[3] = { !s->op3 && G_SQ_ALU_WORD1_OP2__SRC0_ABS(w1), !s->op3 && G_SQ_ALU_WORD1_OP2__SRC1_ABS(w1),
                          false };
    s->psel = G_SQ_ALU_WORD0__PRED_SEL(w0);
    if (s->psel != V_SQ_ALU_PRED_SEL__OFF && s->psel != V_SQ_ALU_PRED_SEL__ZERO &&
        s->psel != V_SQ_ALU_PRED_SEL__ONE)
        s->fault = true;
    s->index_mode = G_SQ_ALU_WORD0__INDEX_MODE(w0);
    for (unsigned i = 0; i < 3; i++) /* unread sources are 0, as in exec_group */
        s->src[i] = (struct wsrc){ .kind = WS_VALUE };
    for (unsigned i = 0; i < s->nsrc; i++) {
        if (!wave_decode_src(env, kc, sel[i], chan[i], rel[i], abs[i], neg[i], lit, nlit, &s->src[i]))
            s->fault = true;
        g->any_rel |= rel[i];
    }
    bool mova = !s->op3 && s->op == V_SQ_ALU_OP2__MOVA_INT;
    s->write = !mova && (s->op3 || G_SQ_ALU_WORD1_OP2__WRITE_MASK(w1));
    s->dst_gpr = G_SQ_ALU_WORD1_OP2__DST_GPR(w1);
    s->dst_chan = G_SQ_ALU_WORD1_OP2__DST_CHAN(w1);
    s->dst_rel = s->write && G_SQ_ALU_WORD1_OP2__DST_REL(w1);
    g->any_rel |= s->dst_rel;
    if (s->write) {
        unsigned top = s->dst_rel ? NGPR : s->dst_gpr + 1;
        if (top > *max_write)
            *max_write = top;
    }
    s->omod = s->op3 ? 0 : G_SQ_ALU_WORD1_OP2__OMOD(w1);
    s->clamp = G_SQ_ALU_WORD1_OP2__CLAMP(w1);
    s->update_pred = !s->op3 && G_SQ_ALU_WORD1_OP2__UPDATE_PRED(w1);
    s->update_exec = !s->op3 && G_SQ_ALU_WORD1_OP2__UPDATE_EXECUTE_MASK(w1);
}

int wave_decode_clause(const struct eg_program *p, const struct eg_shader_env *env, const struct eg_kc kc[4],
                       size_t addr, unsigned nslots, struct wclause *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->kc, kc, sizeof out->kc);
    const uint32_t *dw = p->dw;
    size_t start = 2 * addr, end = start + 2 * (size_t)nslots;
    unsigned cap = 0;
    if (end > p->ndw) {
        out->bad = true;
        return 0;
    }
    size_t i = start;
    while (i < end) {
        struct eg_alu_group words;
        size_t at;
        char why[120];
        if (eg_alu_group_read(dw, &i, end, &words, &at, why, sizeof why))
            goto bad;
        struct wgroup g;
        memset(&g, 0, sizeof g);
        for (int k = 0; k < EG_NSLOTS; k++)
            if (words.s[k].used)
                g.s[k] = (struct wslot){ .used = true, .op3 = words.s[k].op3, .op = words.s[k].op,
                                         .nsrc = (uint8_t)(words.s[k].info->nsrc < 3 ? words.s[k].info->nsrc : 3) };
        const uint32_t *lit = words.lit;
        unsigned nlit = words.nlit;
        for (int k = 0; k < EG_NSLOTS; k++)
            if (g.s[k].used)
                decode_slot(&g, k, words.s[k].w0, words.s[k].w1, env, kc, lit, nlit, &out->max_write);
        for (int k = 0; k < EG_NSLOTS; k++)
            if (g.s[k].used)
                classify(&g, k);
        g.reduce = g.any_group && is_reduce(&g);
        if (out->ng == cap) {
            unsigned c = cap ? 2 * cap : 8;
            struct wgroup *n = realloc(out->g, c * sizeof *n);
            if (!n) {
                wave_clause_free(out);
                return -1;
            }
            out->g = n;
            cap = c;
        }
        out->g[out->ng++] = g;
    }
    return 0;
bad:
    out->bad = true;
    return 0;
}

void wave_clause_free(struct wclause *c)
{
    free(c->g);
    c->g = NULL;
    c->ng = 0;
}
