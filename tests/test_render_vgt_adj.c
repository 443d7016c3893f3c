/* Primitive assembly of the adjacency types with no geometry shader
 * (src/render/vgt.c): the primitives and their vertices against OpenGL 4.6
 * 10.1.11-10.1.14 and table 10.1, worked by hand for auto-generated indices
 * 0..n-1 -- lines with adjacency (0 1 2 3) draw 1-2, line strips with
 * adjacency draw i+1 to i+2, triangles with adjacency (0..5) draw 0 2 4,
 * triangle strips with adjacency draw 2i 2i+2 2i+4 for even i and
 * 2i+2 2i 2i+4 for odd i -- and the counters piglit's
 * arb_pipeline_statistics_query-vert_adj reads: every index is counted and
 * shaded (the spec allows 2 to 4 vertices for one line with adjacency). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define MAXP 16

struct got {
    unsigned n;
    enum vgt_prim_kind kind[MAXP];
    uint32_t v[MAXP][3];
};

static int record(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                  uint32_t instance)
{
    (void)inv;
    (void)instance;
    struct got *g = ctx;
    assert_true(g->n < MAXP);
    g->kind[g->n] = kind;
    for (unsigned k = 0; k < 3; k++)
        g->v[g->n][k] = k < n ? idx[k] : UINT32_MAX;
    g->n++;
    return 0;
}

static void run(unsigned prim_type, uint32_t count, struct got *g, struct vgt_counts *c)
{
    struct vc_regs regs;
    memset(&regs, 0, sizeof regs);
    scene_set_reg(&regs, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
    struct vc_draw d = {.opcode = PKT3_DRAW_INDEX_AUTO, .num_indices = count, .num_instances = 1,
                        .prim_type = prim_type};
    struct vc_draw_err err = {{0}};
    memset(g, 0, sizeof *g);
    int rc = vgt_run(&regs, NULL, &d, record, g, c, &err);
    if (rc)
        fail_msg("vgt_run: %s", err.msg);
}

static void expect(const struct got *g, unsigned n, enum vgt_prim_kind kind, const uint32_t (*v)[3])
{
    assert_int_equal(g->n, n);
    unsigned verts = kind == VGT_LINE ? 2 : 3;
    for (unsigned p = 0; p < n; p++) {
        assert_int_equal(g->kind[p], kind);
        for (unsigned k = 0; k < verts; k++)
            assert_int_equal(g->v[p][k], v[p][k]);
    }
}

static void line_list_adj(void **state)
{
    (void)state;
    struct got g;
    struct vgt_counts c;
    run(V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ, 4, &g, &c);   /* piglit's vert_adj draw */
    static const uint32_t one[][3] = {{1, 2}};
    expect(&g, 1, VGT_LINE, one);
    assert_int_equal(c.ia_primitives, 1);
    assert_in_range(c.ia_vertices, 2, 4);
    assert_in_range(c.vs_invocations, 2, 4);
    run(V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ, 11, &g, &c);  /* 2 whole lines, 3 left over */
    static const uint32_t two[][3] = {{1, 2}, {5, 6}};
    expect(&g, 2, VGT_LINE, two);
}

static void line_strip_adj(void **state)
{
    (void)state;
    struct got g;
    struct vgt_counts c;
    run(V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ, 6, &g, &c);  /* n - 3 segments */
    static const uint32_t want[][3] = {{1, 2}, {2, 3}, {3, 4}};
    expect(&g, 3, VGT_LINE, want);
    run(V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ, 3, &g, &c);
    assert_int_equal(g.n, 0);
}

static void tri_list_adj(void **state)
{
    (void)state;
    struct got g;
    struct vgt_counts c;
    run(V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ, 12, &g, &c);
    static const uint32_t want[][3] = {{0, 2, 4}, {6, 8, 10}};
    expect(&g, 2, VGT_TRIANGLE, want);
    assert_int_equal(c.ia_primitives, 2);
}

static void tri_strip_adj(void **state)
{
    (void)state;
    struct got g;
    struct vgt_counts c;
    run(V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ, 6, &g, &c);   /* only one triangle: 1 3 5 (1-based) */
    static const uint32_t one[][3] = {{0, 2, 4}};
    expect(&g, 1, VGT_TRIANGLE, one);
    /* 12 vertices: (12 - 4) / 2 = 4 triangles; table 10.1 (1-based) first
     * 1 3 5, i = 1 (odd) 2i+3 2i+1 2i+5 = 5 3 7, i = 2 (even) 5 7 9, last
     * i = 3 (odd) 9 7 11. */
    run(V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ, 12, &g, &c);
    static const uint32_t four[][3] = {{0, 2, 4}, {4, 2, 6}, {4, 6, 8}, {8, 6, 10}};
    expect(&g, 4, VGT_TRIANGLE, four);
    run(V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ, 7, &g, &c);   /* (7 - 4) / 2 rounds down to 1 */
    assert_int_equal(g.n, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_list_adj),
        cmocka_unit_test(line_strip_adj),
        cmocka_unit_test(tri_list_adj),
        cmocka_unit_test(tri_strip_adj),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
