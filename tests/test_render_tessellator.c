/* The fixed-function tessellator (src/render/tessellator.c) against the
 * rules of OpenGL 4.6 11.2.2 worked by hand for small levels -- a triangle
 * at outer = inner = 1 is one triangle, at 2 the three corners, the three
 * edge midpoints and the centre joined by six triangles; inner 3 puts the
 * inner triangle's corners where the perpendiculars through the points a
 * third along the edges meet (5/9, 2/9, 2/9); quads at 2 give the 3x3 grid
 * in eight triangles; isolines at density 2, detail 3 give two lines at
 * v = 0 and 1/2 of three segments -- and, for every level combination up
 * to 7, properties any correct triangulation has: the triangles cover the
 * domain's area exactly, all with the requested winding, every inner edge
 * shared by two triangles in opposite directions, the boundary cut into as
 * many segments as the outer levels say, no point repeated or unused. */
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "src/render/tessellator.h"

#define EPS 1e-6

static struct tess_mesh gen(enum tess_domain d, enum tess_spacing s, enum tess_output o, const float tf[6])
{
    struct tess_mesh m = {0};
    char why[120] = "";
    assert_int_equal(tess_generate(&m, d, s, o, tf, 64.0f, why, sizeof why), 0);
    return m;
}

/* Point k is (u, v) (to EPS); -1 when no point is. */
static int find(const struct tess_mesh *m, double u, double v)
{
    for (unsigned k = 0; k < m->npoints; k++)
        if (fabs(m->uv[k][0] - u) < EPS && fabs(m->uv[k][1] - v) < EPS)
            return (int)k;
    return -1;
}

static double area2(const struct tess_mesh *m, unsigned p)
{
    const float *a = m->uv[m->prim[p][0]], *b = m->uv[m->prim[p][1]], *c = m->uv[m->prim[p][2]];
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

static void tri_all_ones(void **state)
{
    (void)state;
    const float tf[6] = {1, 1, 1, 1};
    struct tess_mesh m = gen(TESS_DOMAIN_TRIANGLE, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, tf);
    assert_int_equal(m.npoints, 3);
    assert_int_equal(m.nprims, 1);
    assert_true(find(&m, 1, 0) >= 0 && find(&m, 0, 1) >= 0 && find(&m, 0, 0) >= 0);
    assert_true(area2(&m, 0) > 0.99 && area2(&m, 0) < 1.01);   /* counter-clockwise, the whole domain */
    tess_mesh_free(&m);
}

static void tri_level2(void **state)
{
    (void)state;
    /* all 2, and inner 1 with outer 2 (inner counts as 2): the same */
    const float tfs[2][6] = {{2, 2, 2, 2}, {2, 2, 2, 1}};
    for (unsigned t = 0; t < 2; t++) {
        struct tess_mesh m = gen(TESS_DOMAIN_TRIANGLE, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, tfs[t]);
        assert_int_equal(m.npoints, 7);
        assert_int_equal(m.nprims, 6);
        const double pts[7][2] = {{1, 0}, {0, 1}, {0, 0}, {0.5, 0.5}, {0, 0.5}, {0.5, 0}, {1.0 / 3, 1.0 / 3}};
        for (unsigned k = 0; k < 7; k++)
            assert_true(find(&m, pts[k][0], pts[k][1]) >= 0);
        int c = find(&m, 1.0 / 3, 1.0 / 3);
        for (unsigned p = 0; p < m.nprims; p++) {
            assert_true((int)m.prim[p][0] == c || (int)m.prim[p][1] == c || (int)m.prim[p][2] == c);
            assert_true(fabs(area2(&m, p) - 1.0 / 6) < EPS);   /* six equal triangles */
        }
        tess_mesh_free(&m);
    }
}

static void tri_inner3(void **state)
{
    (void)state;
    const float tf[6] = {1, 1, 1, 3};
    struct tess_mesh m = gen(TESS_DOMAIN_TRIANGLE, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, tf);
    assert_int_equal(m.npoints, 6);
    assert_int_equal(m.nprims, 7);   /* two per edge band, the inner triangle */
    assert_true(find(&m, 5.0 / 9, 2.0 / 9) >= 0);
    assert_true(find(&m, 2.0 / 9, 5.0 / 9) >= 0);
    assert_true(find(&m, 2.0 / 9, 2.0 / 9) >= 0);
    tess_mesh_free(&m);
}

static void quad_level2(void **state)
{
    (void)state;
    const float tf[6] = {2, 2, 2, 2, 2, 2};
    struct tess_mesh m = gen(TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, tf);
    assert_int_equal(m.npoints, 9);
    assert_int_equal(m.nprims, 8);
    for (unsigned j = 0; j < 3; j++)
        for (unsigned i = 0; i < 3; i++)
            assert_true(find(&m, i / 2.0, j / 2.0) >= 0);
    for (unsigned p = 0; p < m.nprims; p++)
        assert_true(fabs(area2(&m, p) - 0.25) < EPS);
    tess_mesh_free(&m);
}

static void quad_ones_and_inner3(void **state)
{
    (void)state;
    const float ones[6] = {1, 1, 1, 1, 1, 1};
    struct tess_mesh m = gen(TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, ones);
    assert_int_equal(m.npoints, 4);
    assert_int_equal(m.nprims, 2);
    tess_mesh_free(&m);
    const float in3[6] = {1, 1, 1, 1, 3, 3};
    m = gen(TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, in3);
    assert_int_equal(m.npoints, 8);
    assert_int_equal(m.nprims, 10);
    for (unsigned k = 0; k < 4; k++)
        assert_true(find(&m, (1 + k % 2) / 3.0, (1 + k / 2) / 3.0) >= 0);
    tess_mesh_free(&m);
}

static void isolines(void **state)
{
    (void)state;
    const float tf[6] = {3, 2};   /* detail 3, density 2 */
    struct tess_mesh m = gen(TESS_DOMAIN_ISOLINE, TESS_SPACING_INTEGER, TESS_OUT_LINE, tf);
    assert_int_equal(m.npoints, 8);
    assert_int_equal(m.nprims, 6);
    assert_int_equal(m.per_prim, 2);
    for (unsigned j = 0; j < 2; j++)
        for (unsigned i = 0; i < 4; i++)
            assert_true(find(&m, i / 3.0, j / 2.0) >= 0);
    assert_true(find(&m, 0, 1) < 0);   /* no line at v = 1 */
    for (unsigned p = 0; p < m.nprims; p++) {
        const float *a = m.uv[m.prim[p][0]], *b = m.uv[m.prim[p][1]];
        assert_true(fabs(a[1] - b[1]) < EPS && fabs(b[0] - a[0] - 1.0 / 3) < EPS);
    }
    tess_mesh_free(&m);
    /* clamped to 64 segments; pow2 rounds 3 up to 4 */
    const float big[6] = {100, 1};
    m = gen(TESS_DOMAIN_ISOLINE, TESS_SPACING_INTEGER, TESS_OUT_LINE, big);
    assert_int_equal(m.nprims, 64);
    tess_mesh_free(&m);
    m = gen(TESS_DOMAIN_ISOLINE, TESS_SPACING_POW2, TESS_OUT_LINE, (const float[6]){3, 1});
    assert_int_equal(m.nprims, 4);
    tess_mesh_free(&m);
}

static void culled_and_refused(void **state)
{
    (void)state;
    const float zero[6] = {1, 0, 1, 4}, nan_[6] = {NAN, 1, 1, 1, 1, 1};
    struct tess_mesh m = gen(TESS_DOMAIN_TRIANGLE, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, zero);
    assert_int_equal(m.npoints, 0);
    assert_int_equal(m.nprims, 0);
    tess_mesh_free(&m);
    m = gen(TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, nan_);
    assert_int_equal(m.nprims, 0);
    /* a zero inner level is no reason to cull */
    const float in0[6] = {1, 1, 1, 1, 0, 0};
    char why[120] = "";
    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW, in0, 64, why,
                                   sizeof why), 0);
    assert_int_equal(m.nprims, 2);
    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_FRAC_ODD, TESS_OUT_TRI_CW, in0, 64, why,
                                   sizeof why), -1);
    assert_non_null(strstr(why, "fractional_odd"));
    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_LINE, in0, 64, why,
                                   sizeof why), -1);
    tess_mesh_free(&m);
}

static void point_mode(void **state)
{
    (void)state;
    const float tf[6] = {2, 2, 2, 2, 2, 2};
    struct tess_mesh m = gen(TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_POINT, tf);
    assert_int_equal(m.npoints, 9);
    assert_int_equal(m.nprims, 9);
    assert_int_equal(m.per_prim, 1);
    tess_mesh_free(&m);
}

/* The properties of a correct triangulation of the domain. */
static void check_mesh(const struct tess_mesh *m, bool quad, bool ccw_out, unsigned boundary_segments)
{
    double sum = 0;
    for (unsigned p = 0; p < m->nprims; p++) {
        double a = area2(m, p);
        assert_true(ccw_out ? a < -1e-9 : a > 1e-9);
        sum += fabs(a) / 2;
    }
    assert_true(fabs(sum - (quad ? 1.0 : 0.5)) < 1e-4);
    for (unsigned a = 0; a < m->npoints; a++)
        for (unsigned b = a + 1; b < m->npoints; b++)
            assert_false(fabs(m->uv[a][0] - m->uv[b][0]) < EPS && fabs(m->uv[a][1] - m->uv[b][1]) < EPS);
    /* each directed edge once; an edge with no opposite lies on the boundary */
    unsigned n = m->nprims * 3, boundary = 0;
    uint32_t (*e)[2] = malloc(n * sizeof *e);
    bool *used = calloc(m->npoints, 1);
    assert_non_null(e);
    assert_non_null(used);
    for (unsigned p = 0; p < m->nprims; p++)
        for (unsigned k = 0; k < 3; k++) {
            e[3 * p + k][0] = m->prim[p][k];
            e[3 * p + k][1] = m->prim[p][(k + 1) % 3];
            used[m->prim[p][k]] = true;
        }
    for (unsigned i = 0; i < n; i++) {
        unsigned same = 0, opp = 0;
        for (unsigned j = 0; j < n; j++) {
            same += e[j][0] == e[i][0] && e[j][1] == e[i][1];
            opp += e[j][0] == e[i][1] && e[j][1] == e[i][0];
        }
        assert_int_equal(same, 1);
        if (!opp) {
            const float *a = m->uv[e[i][0]], *b = m->uv[e[i][1]];
            bool on = quad ? (fabs(a[0] - b[0]) < EPS && (fabs(a[0]) < EPS || fabs(a[0] - 1) < EPS)) ||
                                 (fabs(a[1] - b[1]) < EPS && (fabs(a[1]) < EPS || fabs(a[1] - 1) < EPS))
                           : (fabs(a[0]) < EPS && fabs(b[0]) < EPS) || (fabs(a[1]) < EPS && fabs(b[1]) < EPS) ||
                                 (fabs(a[0] + a[1] - 1) < EPS && fabs(b[0] + b[1] - 1) < EPS);
            assert_true(on);
            boundary++;
        }
    }
    assert_int_equal(boundary, boundary_segments);
    for (unsigned k = 0; k < m->npoints; k++)
        assert_true(used[k]);
    free(e);
    free(used);
}

static void every_small_level(void **state)
{
    (void)state;
    struct tess_mesh m = {0};
    char why[120];
    for (unsigned o0 = 1; o0 <= 7; o0 += 2)
        for (unsigned o1 = 1; o1 <= 7; o1 += 3)
            for (unsigned o2 = 1; o2 <= 6; o2++)
                for (unsigned in = 1; in <= 7; in++) {
                    const float tri[6] = {(float)o0, (float)o1, (float)o2, (float)in - 0.5f};
                    for (unsigned w = 0; w < 2; w++) {
                        assert_int_equal(tess_generate(&m, TESS_DOMAIN_TRIANGLE, TESS_SPACING_INTEGER,
                                                       w ? TESS_OUT_TRI_CCW : TESS_OUT_TRI_CW, tri, 64, why,
                                                       sizeof why), 0);
                        check_mesh(&m, false, w, o0 + o1 + o2);
                    }
                    const float quad[6] = {(float)o0, (float)o1, (float)o2, (float)in, (float)in, (float)(8 - in)};
                    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_INTEGER, TESS_OUT_TRI_CW,
                                                   quad, 64, why, sizeof why), 0);
                    check_mesh(&m, true, false, o0 + o1 + o2 + in);
                }
    tess_mesh_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tri_all_ones),       cmocka_unit_test(tri_level2),  cmocka_unit_test(tri_inner3),
        cmocka_unit_test(quad_level2),        cmocka_unit_test(quad_ones_and_inner3), cmocka_unit_test(isolines),
        cmocka_unit_test(culled_and_refused), cmocka_unit_test(point_mode),  cmocka_unit_test(every_small_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
