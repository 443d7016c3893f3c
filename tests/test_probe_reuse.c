/* The virtual Cedar's vertex-reuse model and pipeline-statistics counters
 * (src/render/vgt_reuse.c, src/vcedar/vc_pipestat.c), against results worked
 * by hand from the model as stated there (a FIFO of the last
 * VTX_REUSE_DEPTH distinct vertices, 14 by default; every index through it,
 * degenerate triangles' too; empty at each draw):
 *   0 1 1 2 3 4 5 5 5       6 invocations (0, 1, 2, 3, 4, 5 once each)
 *   (0 1 2) x N             3 invocations whatever N
 *   0..14, 0 1 2            18: 15 distinct, then 0 was pushed out by 14,
 *                           1 by 0 and 2 by 1
 *   0..13, 0 then 1 2 ...   14: 0 is still among the last 14
 * The end-to-end cases go through the probe session on the virtual Cedar:
 * the counters as EVENT_WRITE SAMPLE_PIPELINESTAT writes them around a
 * DRAW_INDEX, in Mesa's layout (cedar_pipestats_decode). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/probe.h"
#include "src/render/render_priv.h"

/* ---- the model alone --------------------------------------------------------- */

static uint64_t run_model(struct vgt_reuse *r, const uint32_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        vgt_reuse_vertex(r, idx[i]);
    return r->invocations;
}

static void model_fifo(void **state)
{
    (void)state;
    struct vc_regs regs;
    memset(&regs, 0, sizeof regs);
    struct vgt_reuse r;
    vgt_reuse_init(&r, &regs);
    assert_int_equal(r.depth, 14);   /* 0 in the register: the kernel's 14 */
    static const uint32_t deg[9] = {0, 1, 1, 2, 3, 4, 5, 5, 5};
    assert_int_equal(run_model(&r, deg, 9), 6);

    uint32_t seq[18];
    for (unsigned i = 0; i < 15; i++)
        seq[i] = i;
    seq[15] = 0, seq[16] = 1, seq[17] = 2;
    vgt_reuse_init(&r, &regs);
    assert_int_equal(run_model(&r, seq, 18), 18);
    seq[14] = 0;                     /* 0..13, then 0 again: a hit */
    vgt_reuse_init(&r, &regs);
    assert_int_equal(run_model(&r, seq, 15), 14);

    /* a hit does not refresh: 0..13, 0, 14 pushes 0 out, then 0 misses */
    uint32_t s2[17];
    for (unsigned i = 0; i < 14; i++)
        s2[i] = i;
    s2[14] = 0, s2[15] = 14, s2[16] = 0;
    vgt_reuse_init(&r, &regs);
    assert_int_equal(run_model(&r, s2, 17), 16);

    /* equal invocation numbers for reused vertices */
    vgt_reuse_init(&r, &regs);
    uint64_t a = vgt_reuse_vertex(&r, 7), b = vgt_reuse_vertex(&r, 9), c = vgt_reuse_vertex(&r, 7);
    assert_true(a == c && a != b);
}

static void model_registers(void **state)
{
    (void)state;
    struct vc_regs regs;
    memset(&regs, 0, sizeof regs);
    regs.context[(REG_VGT_VERTEX_REUSE_BLOCK_CNTL - SPACE_CONTEXT_START) / 4] =
        S_VGT_VERTEX_REUSE_BLOCK_CNTL__VTX_REUSE_DEPTH(3);
    struct vgt_reuse r;
    vgt_reuse_init(&r, &regs);
    assert_int_equal(r.depth, 3);
    /* depth 3: 0 1 2 3 pushes 0 out; 0 then misses (and pushes 1 out) */
    static const uint32_t s[6] = {0, 1, 2, 3, 0, 1};
    assert_int_equal(run_model(&r, s, 6), 6);
    regs.context[(REG_VGT_REUSE_OFF - SPACE_CONTEXT_START) / 4] = S_VGT_REUSE_OFF__REUSE_OFF(1);
    vgt_reuse_init(&r, &regs);
    static const uint32_t same[5] = {4, 4, 4, 4, 4};
    assert_int_equal(run_model(&r, same, 5), 5);   /* reuse off: every index runs */
}

/* ---- through the virtual Cedar ----------------------------------------------- */

struct fixture {
    struct cedar_dev *dev;
    struct cedar_probe *p;
    struct cedar_demo_vertex v[32];
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    char err[512];
    if (!f || cedar_demo_open_virtual(&f->dev, err, sizeof err) != 0)
        return -1;
    /* 16 vertices on a line (any positions do for the reuse cases) ... */
    for (unsigned i = 0; i < 16; i++) {
        f->v[i].pos[0] = -0.9f + 0.1f * (float)i;
        f->v[i].pos[1] = (i % 2) ? 0.5f : -0.5f;
        f->v[i].pos[3] = 1.0f;
        f->v[i].color[3] = 1.0f;
    }
    /* ... and 16..19: the corners of pixels [32, 64) x [32, 64) of 128 x 128
     * (x = 2 px / 128 - 1, y = 1 - 2 py / 128) */
    static const float sq[4][2] = {{-0.5f, 0.5f}, {0.0f, 0.5f}, {-0.5f, 0.0f}, {0.0f, 0.0f}};
    for (unsigned i = 0; i < 4; i++) {
        f->v[16 + i].pos[0] = sq[i][0];
        f->v[16 + i].pos[1] = sq[i][1];
        f->v[16 + i].pos[3] = 1.0f;
        f->v[16 + i].color[3] = 1.0f;
    }
    struct cedar_probe_config pc = { .width = 128, .height = 128, .samples = 1, .vertices = f->v,
                                     .num_vertices = 20, .max_indices = 3 * 1000 };
    cedar_tiling_from_config(0x11, &pc.tiling);
    if (cedar_probe_open(f->dev, &pc, &f->p, err, sizeof err) != 0) {
        print_error("%s\n", err);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    cedar_probe_close(f->p);
    cedar_dev_destroy(f->dev);
    free(f);
    return 0;
}

static struct cedar_pipestats draw(struct fixture *f, const uint32_t *idx, size_t n)
{
    struct cedar_pipestats st;
    char err[512];
    if (cedar_probe_draw_stats(f->p, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST, idx, n, &st, err, sizeof err) != 0)
        fail_msg("%s", err);
    return st;
}

static void degenerate_triangles(void **state)
{
    struct fixture *f = *state;
    static const uint32_t deg[9] = {0, 1, 1, 2, 3, 4, 5, 5, 5};
    struct cedar_pipestats st = draw(f, deg, 9);
    assert_int_equal(st.vs_invocations, 6);
    assert_int_equal(st.ia_vertices, 9);
    assert_int_equal(st.ia_primitives, 3);
    assert_int_equal(st.c_invocations, 3);
    assert_int_equal(st.gs_invocations, 0);
    assert_int_equal(st.cs_invocations, 0);
}

static void repeated_triangle(void **state)
{
    struct fixture *f = *state;
    static const unsigned batches[] = {1, 2, 32, 33, 100, 1000};
    uint32_t *idx = malloc(3 * 1000 * sizeof *idx);
    assert_non_null(idx);
    for (unsigned k = 0; k < 3 * 1000; k++)
        idx[k] = k % 3;
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
        struct cedar_pipestats st = draw(f, idx, 3 * (size_t)batches[b]);
        assert_int_equal(st.vs_invocations, 3);
        assert_int_equal(st.ia_primitives, batches[b]);
    }
    free(idx);
}

static void fifo_eviction(void **state)
{
    struct fixture *f = *state;
    uint32_t seq[18];
    for (unsigned i = 0; i < 15; i++)
        seq[i] = i;
    seq[15] = 0, seq[16] = 1, seq[17] = 2;
    assert_int_equal(draw(f, seq, 18).vs_invocations, 18);
    seq[14] = 0;
    seq[15] = 1, seq[16] = 2, seq[17] = 3;   /* 0..13, then 0 1 2 3: all hits */
    assert_int_equal(draw(f, seq, 18).vs_invocations, 14);
}

/* A 32 x 32-pixel square as two triangles: 1024 pixel-shader invocations
 * (one sample: one per covered pixel; the shared edge belongs to one
 * triangle), 4 vertices shaded, 2 primitives through the clipper. */
static void square_pixels(void **state)
{
    struct fixture *f = *state;
    static const uint32_t quad[6] = {16, 18, 17, 17, 18, 19};
    struct cedar_pipestats st = draw(f, quad, 6);
    assert_int_equal(st.ps_invocations, 1024);
    assert_int_equal(st.vs_invocations, 4);
    assert_int_equal(st.c_invocations, 2);
    assert_int_equal(st.c_primitives, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_fifo),
        cmocka_unit_test(model_registers),
        cmocka_unit_test(degenerate_triangles),
        cmocka_unit_test(repeated_triangle),
        cmocka_unit_test(fifo_eviction),
        cmocka_unit_test(square_pixels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
