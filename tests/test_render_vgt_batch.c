/* The vertex grouper in batches (vgt_run_batched, src/render/vgt.c) against
 * vgt_run, primitive by primitive: random index streams (inline 32-bit
 * indices, repeats, primitive restarts, instances) of every primitive type,
 * with the reuse block at depth 14 (the kernel's), 200 and off, and caches
 * of 256 and 40 invocations.  What must hold:
 * - fn sees the same primitives (kind, indices, invocations, instance) in
 *   the same order, and the counts are the same;
 * - when fn sees a primitive, each of its vertices went to `pre` before and
 *   is still in a cache of `keep` entries by invocation mod keep that took
 *   every invocation `pre` was handed (so the draw runs no vertex twice);
 * - each `pre` hands at most VGT_VS_BATCH invocations it had not handed before;
 * - fans, polygons and line loops never go to `pre`;
 * - a failure of fn at its k-th primitive leaves the counts vgt_run leaves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define MAXPRIM 10000
#define MAXIDX 1500

static uint32_t rng = 0x9E3779B9u;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

struct prim {
    enum vgt_prim_kind kind;
    unsigned n;
    uint32_t idx[3], instance;
    uint64_t inv[3];
};

struct rec {
    struct prim p[MAXPRIM];
    unsigned n;
    unsigned fail_at;          /* fn fails at this primitive (UINT32_MAX: never) */
    /* the batched run's cache and what went to pre */
    bool batched;
    unsigned keep;
    uint64_t slot[256];
    uint32_t slot_idx[256];
    uint64_t handed;           /* invocations handed before (all are below this + the batch) */
    unsigned pre_calls, runs;
    uint64_t seen_max;         /* 1 + the highest invocation pre was handed */
};

static int record(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                  uint32_t instance)
{
    struct rec *r = ctx;
    if (r->n == r->fail_at)
        return -1;
    assert_true(r->n < MAXPRIM);
    assert_true(n <= 3);
    struct prim *p = &r->p[r->n++];
    p->kind = kind;
    p->n = n;
    p->instance = instance;
    for (unsigned k = 0; k < n; k++) {
        p->idx[k] = idx[k];
        p->inv[k] = inv[k];
        if (r->batched) {
            unsigned s = (unsigned)(inv[k] % r->keep);
            if (r->slot[s] != inv[k] || r->slot_idx[s] != idx[k])
                fail_msg("primitive %u vertex %u (index %u, invocation %llu) is not in the cache of %u (slot holds %llu)",
                         r->n - 1, k, idx[k], (unsigned long long)inv[k], r->keep, (unsigned long long)r->slot[s]);
        }
    }
    return 0;
}

static void pre(void *ctx, const uint32_t *idx, const uint64_t *inv, unsigned n, uint32_t instance)
{
    (void)instance;
    struct rec *r = ctx;
    r->pre_calls++;
    unsigned fresh = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned s = (unsigned)(inv[k] % r->keep);
        if (r->slot[s] == inv[k])
            continue;
        r->slot[s] = inv[k];
        r->slot_idx[s] = idx[k];
        r->runs++;
        if (inv[k] >= r->seen_max) {
            fresh++;
            r->seen_max = inv[k] + 1;
        }
    }
    assert_true(fresh <= VGT_VS_BATCH);
}

static const unsigned types[] = {
    V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST, V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST, V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP,
    V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP, V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST,
    V_VGT_DI_PRIM_TYPE__DI_PT_QUADLIST, V_VGT_DI_PRIM_TYPE__DI_PT_QUADSTRIP, V_VGT_DI_PRIM_TYPE__DI_PT_TRIFAN,
    V_VGT_DI_PRIM_TYPE__DI_PT_POLYGON, V_VGT_DI_PRIM_TYPE__DI_PT_LINELOOP, V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ,
    V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ,
    V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ,
};

static bool kept_long(unsigned t)
{
    return t == V_VGT_DI_PRIM_TYPE__DI_PT_TRIFAN || t == V_VGT_DI_PRIM_TYPE__DI_PT_POLYGON ||
           t == V_VGT_DI_PRIM_TYPE__DI_PT_LINELOOP;
}

static struct rec ref, got;

static void batched_matches_one_by_one(void **state)
{
    (void)state;
    static uint32_t ib[MAXIDX];
    unsigned cases = 0, prims = 0, runs_total = 0, batches = 0;
    for (int it = 0; it < 600; it++) {
        unsigned t = types[next() % (sizeof types / sizeof types[0])];
        unsigned depth_kind = next() % 3, keep = next() % 2 ? 256 : 40;
        struct vc_regs regs;
        memset(&regs, 0, sizeof regs);
        scene_set_reg(&regs, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
        if (depth_kind == 1)
            scene_set_reg(&regs, REG_VGT_VERTEX_REUSE_BLOCK_CNTL, S_VGT_VERTEX_REUSE_BLOCK_CNTL__VTX_REUSE_DEPTH(200));
        else if (depth_kind == 2)
            scene_set_reg(&regs, REG_VGT_REUSE_OFF, S_VGT_REUSE_OFF__REUSE_OFF(1));
        bool restart = next() % 3 == 0;
        if (restart) {
            scene_set_reg(&regs, REG_VGT_MULTI_PRIM_IB_RESET_EN, S_VGT_MULTI_PRIM_IB_RESET_EN__RESET_EN(1));
            scene_set_reg(&regs, REG_VGT_MULTI_PRIM_IB_RESET_INDX, 0xFFFFFFFFu);
        }
        uint32_t n = 1 + next() % MAXIDX, range = 1 + next() % 300;
        for (uint32_t k = 0; k < n; k++) {
            /* mostly a walk with repeats of recent indices, as meshes reuse them */
            ib[k] = next() % 4 == 0 && k ? ib[k - 1 - next() % (k < 8 ? k : 8)] : next() % range;
            if (restart && next() % 40 == 0)
                ib[k] = 0xFFFFFFFFu;
        }
        struct vc_draw d = { .opcode = PKT3_DRAW_INDEX_IMMD, .num_indices = n, .num_instances = 1 + next() % 3,
                             .prim_type = t, .index_type = V_VGT_INDEX_TYPE_MODE__VGT_INDEX_32, .immd = ib,
                             .immd_dwords = n };
        /* a third of the cases fail at some primitive */
        unsigned fail_at = next() % 3 == 0 ? next() % (n + 1) : UINT32_MAX;
        struct vgt_counts cr, cg;
        struct vc_draw_err er = {{0}}, eg = {{0}};
        memset(&ref, 0, sizeof ref);
        ref.fail_at = fail_at;
        int rr = vgt_run(&regs, NULL, &d, record, &ref, &cr, &er);
        memset(&got, 0, sizeof got);
        got.fail_at = fail_at;
        /* batches need room for the reuse FIFO and the assembler's vertices */
        unsigned depth = depth_kind == 0 ? 14 : depth_kind == 1 ? 200 : 0;
        bool batching = !kept_long(t) && keep > depth + 8;
        got.batched = batching;
        got.keep = keep;
        memset(got.slot, 0xFF, sizeof got.slot);
        int rg = vgt_run_batched(&regs, NULL, &d, record, pre, keep, &got, &cg, &eg);
        assert_int_equal(rr, rg);
        assert_string_equal(er.msg, eg.msg);
        assert_int_equal(cr.ia_vertices, cg.ia_vertices);
        assert_int_equal(cr.ia_primitives, cg.ia_primitives);
        assert_int_equal(cr.vs_invocations, cg.vs_invocations);
        assert_int_equal(ref.n, got.n);
        for (unsigned j = 0; j < ref.n; j++) {
            const struct prim *a = &ref.p[j], *b = &got.p[j];
            if (a->kind != b->kind || a->n != b->n || a->instance != b->instance ||
                memcmp(a->idx, b->idx, a->n * sizeof a->idx[0]) || memcmp(a->inv, b->inv, a->n * sizeof a->inv[0]))
                fail_msg("case %d (type %u): primitive %u differs", it, t, j);
        }
        if (!batching)
            assert_int_equal(got.pre_calls, 0);
        if (batching && rr == 0) {
            /* every vertex a primitive used ran once, none again */
            uint64_t distinct = 0;
            static uint8_t used[MAXIDX * 3 + 8];
            memset(used, 0, sizeof used);
            for (unsigned j = 0; j < ref.n; j++)
                for (unsigned k = 0; k < ref.p[j].n; k++)
                    if (!used[ref.p[j].inv[k]]++)
                        distinct++;
            assert_int_equal(got.runs, distinct);
        }
        cases++;
        prims += ref.n;
        runs_total += got.runs;
        batches += got.pre_calls;
    }
    printf("vgt batches: %u cases, %u primitives, %u vertex runs in %u batches\n", cases, prims, runs_total, batches);
    assert_true(batches > 1000);
}

/* A draw of no index and 2^32 - 1 instances: nothing assembled, counted or
 * drawn, at once (an alarm ends the test when the instances are walked one
 * by one: tens of minutes under the sanitizers). */
static void no_index_many_instances(void **state)
{
    (void)state;
    struct vc_regs regs;
    memset(&regs, 0, sizeof regs);
    scene_set_reg(&regs, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
    static const unsigned opcodes[2] = { PKT3_DRAW_INDEX_AUTO, PKT3_DRAW_INDEX_2 };
    for (unsigned o = 0; o < 2; o++) {
        struct vc_draw d = { .opcode = opcodes[o], .num_indices = 0, .num_instances = 0xFFFFFFFFu,
                             .prim_type = V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST,
                             .index_type = V_VGT_INDEX_TYPE_MODE__VGT_INDEX_32, .immd = NULL, .immd_dwords = 0 };
        struct vgt_counts c;
        struct vc_draw_err e = {{0}};
        memset(&got, 0, sizeof got);
        got.fail_at = UINT32_MAX;
        alarm(20);
        int r = vgt_run_batched(&regs, NULL, &d, record, pre, 256, &got, &c, &e);
        alarm(0);
        assert_int_equal(r, 0);
        assert_int_equal(got.n, 0);
        assert_int_equal(got.pre_calls, 0);
        assert_int_equal(c.ia_vertices, 0);
        assert_int_equal(c.ia_primitives, 0);
        assert_int_equal(c.vs_invocations, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batched_matches_one_by_one),
        cmocka_unit_test(no_index_many_instances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
