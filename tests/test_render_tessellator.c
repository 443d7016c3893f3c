/* The fixed-function tessellator (src/render/tessellator.c):
 *
 * - against llvmpipe (tests/data/tess_llvmpipe.txt: gl_TessCoord of every
 *   vertex llvmpipe's TES emitted, captured by tools/cedar-tessref.c with
 *   transform feedback; llvmpipe runs Microsoft's D3D11 reference
 *   tessellator, which the model follows): for each case the same number of
 *   primitives and the same primitives, compared as sets (llvmpipe's order
 *   of primitives and of the vertices within one is not the hardware's for
 *   sure); a triangle compared with its winding (its vertices rotated to
 *   start at the least), a line with its direction, points as a set.
 *   Coordinates compare exactly (both sides are multiples of 2^-16);
 * - small levels worked by hand -- a triangle at outer = inner = 1 is one
 *   triangle, at 2 the three corners, the three edge midpoints and the
 *   centre joined by six triangles; inner 3 puts the inner triangle's
 *   corners at (5/9, 2/9, 2/9) to 2^-16; quads at 2 give the 3x3 grid in
 *   eight triangles; isolines at density 2, detail 3 give two lines at v = 0
 *   and 1/2 of three segments;
 * - for many level combinations and the three spacings, properties any
 *   correct triangulation has: the triangles cover the domain's area
 *   exactly, all with the requested winding, every inner edge shared by two
 *   triangles in opposite directions, the boundary cut into as many
 *   segments as OpenGL 4.6 11.2.2 says (integer: ceil(f); fractional_even:
 *   the next even integer; fractional_odd: the next odd one), no point
 *   repeated or unused. */
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

#define EPS (1.0 / 65536)   /* the tessellator's 16.16 fixed point */

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
    /* clamped to 64 segments; pow2 is integer spacing to the hardware (the
     * D3D11 reference: rounding to a power of two is the HLSL compiler's) */
    const float big[6] = {100, 1};
    m = gen(TESS_DOMAIN_ISOLINE, TESS_SPACING_INTEGER, TESS_OUT_LINE, big);
    assert_int_equal(m.nprims, 64);
    tess_mesh_free(&m);
    m = gen(TESS_DOMAIN_ISOLINE, TESS_SPACING_POW2, TESS_OUT_LINE, (const float[6]){3, 1});
    assert_int_equal(m.nprims, 3);
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
    /* fractional_odd: all 1 is one quad; fractional_even: at least 2, the 3x3 grid */
    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_FRAC_ODD, TESS_OUT_TRI_CW, in0, 64, why,
                                   sizeof why), 0);
    assert_int_equal(m.nprims, 2);
    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, TESS_SPACING_FRAC_EVEN, TESS_OUT_TRI_CW, in0, 64, why,
                                   sizeof why), 0);
    assert_int_equal(m.nprims, 8);
    assert_int_equal(m.npoints, 9);
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
            assert_false(m->uv[a][0] == m->uv[b][0] && m->uv[a][1] == m->uv[b][1]);
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

/* Segments of an outer edge at level f (OpenGL 4.6 11.2.2, clamped to
 * the spacing's range). */
static unsigned segments(enum tess_spacing s, float f)
{
    if (s == TESS_SPACING_FRAC_EVEN) {
        unsigned n = (unsigned)ceilf(f < 2 ? 2 : f);
        return n + n % 2;
    }
    if (s == TESS_SPACING_FRAC_ODD) {
        unsigned n = (unsigned)ceilf(f < 1 ? 1 : f > 63 ? 63 : f);
        return n + 1 - n % 2;
    }
    return (unsigned)ceilf(f < 1 ? 1 : f);
}

static void fractional_levels(void **state)
{
    (void)state;
    struct tess_mesh m = {0};
    char why[120];
    const float lv[] = {1.0f, 1.3f, 2.0f, 2.5f, 3.7f, 4.0f, 5.2f, 6.9f, 9.5f, 17.4f};
    const unsigned nlv = sizeof lv / sizeof lv[0];
    for (unsigned sp = 0; sp < 2; sp++) {
        enum tess_spacing s = sp ? TESS_SPACING_FRAC_EVEN : TESS_SPACING_FRAC_ODD;
        for (unsigned i = 0; i < nlv; i++)
            for (unsigned j = 0; j < nlv; j += 2)
                for (unsigned k = 0; k < nlv; k += 3) {
                    /* inner levels above 1: fractional_odd makes an inner level
                     * of 1 1 + 2^-16, whose ring lies on the outer one (zero-
                     * area triangles, as llvmpipe's: the "odd" cases of
                     * against_llvmpipe) */
                    float a = lv[i], b = lv[j], c = lv[k], in = lv[1 + (i + j + k) % (nlv - 1)];
                    float in2 = lv[1 + (i * 3 + k) % (nlv - 1)];
                    const float tri[6] = {a, b, c, in};
                    for (unsigned w = 0; w < 2; w++) {
                        assert_int_equal(tess_generate(&m, TESS_DOMAIN_TRIANGLE, s,
                                                       w ? TESS_OUT_TRI_CCW : TESS_OUT_TRI_CW, tri, 64, why,
                                                       sizeof why), 0);
                        check_mesh(&m, false, w, segments(s, a) + segments(s, b) + segments(s, c));
                    }
                    const float quad[6] = {a, b, c, in2, in, lv[1 + j % (nlv - 1)]};
                    assert_int_equal(tess_generate(&m, TESS_DOMAIN_QUAD, s, TESS_OUT_TRI_CW, quad, 64, why,
                                                   sizeof why), 0);
                    check_mesh(&m, true, false, segments(s, a) + segments(s, b) + segments(s, c) + segments(s, in2));
                }
    }
    tess_mesh_free(&m);
}

/* ---- llvmpipe's output (tests/data/tess_llvmpipe.txt) ---- */

#define REF_PATH "tests/data/tess_llvmpipe.txt"

/* One primitive as up to three (u, v), normalised for comparing. */
struct rprim {
    float c[6];
};

static int cmp_prim(const void *a, const void *b)
{
    const struct rprim *x = a, *y = b;
    for (unsigned k = 0; k < 6; k++)
        if (x->c[k] != y->c[k])
            return x->c[k] < y->c[k] ? -1 : 1;
    return 0;
}

static bool vless(const float *a, const float *b)
{
    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* Triangles rotated to start at their least vertex (winding kept). */
static void normalise(struct rprim *p, unsigned verts)
{
    if (verts != 3)
        return;
    unsigned lo = 0;
    for (unsigned k = 1; k < 3; k++)
        if (vless(&p->c[2 * k], &p->c[2 * lo]))
            lo = k;
    struct rprim q = {{0}};
    for (unsigned k = 0; k < 3; k++) {
        q.c[2 * k] = p->c[2 * ((lo + k) % 3)];
        q.c[2 * k + 1] = p->c[2 * ((lo + k) % 3) + 1];
    }
    *p = q;
}

static void against_llvmpipe(void **state)
{
    (void)state;
    FILE *f = fopen(REF_PATH, "r");
    assert_non_null(f);
    char line[512];
    unsigned ncases = 0, same_order = 0, nprims_total = 0;
    struct tess_mesh m = {0};
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char dom[8], sp[8], ord[8];
        float lv[6];
        assert_int_equal(sscanf(line, "case %7s %7s %7s %f %f %f %f %f %f", dom, sp, ord, &lv[0], &lv[1], &lv[2],
                                &lv[3], &lv[4], &lv[5]), 9);
        unsigned n, verts;
        assert_non_null(fgets(line, sizeof line, f));
        assert_int_equal(sscanf(line, "prims %u %u", &n, &verts), 2);
        assert_true(verts >= 1 && verts <= 3);
        struct rprim *ref = calloc(n + 1, sizeof *ref), *mine = calloc(n + 1, sizeof *mine);
        assert_non_null(ref);
        assert_non_null(mine);
        for (unsigned p = 0; p < n; p++) {
            assert_non_null(fgets(line, sizeof line, f));
            char *s = line, *end;
            for (unsigned k = 0; k < 2 * verts; k++, s = end) {
                ref[p].c[k] = strtof(s, &end);
                assert_true(end != s);
            }
        }
        /* the model's call: GL's levels as r600's HS writes them (tessellator.h),
         * GL ccw as Mesa programs it (OUTPUT_TRIANGLE_CW, tess_state.c) */
        enum tess_domain d = !strcmp(dom, "tri") ? TESS_DOMAIN_TRIANGLE : !strcmp(dom, "quad") ? TESS_DOMAIN_QUAD
                                                                                                : TESS_DOMAIN_ISOLINE;
        enum tess_spacing s = !strcmp(sp, "equal") ? TESS_SPACING_INTEGER : !strcmp(sp, "odd") ? TESS_SPACING_FRAC_ODD
                                                                                              : TESS_SPACING_FRAC_EVEN;
        enum tess_output o = !strcmp(ord, "point") ? TESS_OUT_POINT : !strcmp(ord, "line") ? TESS_OUT_LINE
                             : !strcmp(ord, "cw") ? TESS_OUT_TRI_CCW : TESS_OUT_TRI_CW;
        float tf[6] = {0};
        if (d == TESS_DOMAIN_TRIANGLE)
            tf[0] = lv[0], tf[1] = lv[1], tf[2] = lv[2], tf[3] = lv[4];
        else if (d == TESS_DOMAIN_QUAD)
            memcpy(tf, lv, sizeof tf);
        else
            tf[0] = lv[1], tf[1] = lv[0];
        char why[120] = "";
        assert_int_equal(tess_generate(&m, d, s, o, tf, 64.0f, why, sizeof why), 0);
        if (m.nprims != n)
            fprintf(stderr, "%s %s %s %g %g %g %g %g %g: %u primitives, llvmpipe %u\n", dom, sp, ord, lv[0], lv[1],
                    lv[2], lv[3], lv[4], lv[5], m.nprims, n);
        assert_int_equal(m.nprims, n);
        assert_int_equal(m.per_prim, verts);
        for (unsigned p = 0; p < n; p++)
            for (unsigned k = 0; k < verts; k++) {
                mine[p].c[2 * k] = m.uv[m.prim[p][k]][0];
                mine[p].c[2 * k + 1] = m.uv[m.prim[p][k]][1];
            }
        same_order += n == 0 || !memcmp(ref, mine, n * sizeof *ref);
        for (unsigned p = 0; p < n; p++) {
            normalise(&ref[p], verts);
            normalise(&mine[p], verts);
        }
        qsort(ref, n, sizeof *ref, cmp_prim);
        qsort(mine, n, sizeof *mine, cmp_prim);
        for (unsigned p = 0; p < n; p++)
            if (cmp_prim(&ref[p], &mine[p])) {
                fprintf(stderr, "%s %s %s %g %g %g %g %g %g: llvmpipe's (%a %a) (%a %a) (%a %a), the model's "
                                "(%a %a) (%a %a) (%a %a)\n", dom, sp, ord, lv[0], lv[1], lv[2], lv[3], lv[4], lv[5],
                        ref[p].c[0], ref[p].c[1], ref[p].c[2], ref[p].c[3], ref[p].c[4], ref[p].c[5], mine[p].c[0],
                        mine[p].c[1], mine[p].c[2], mine[p].c[3], mine[p].c[4], mine[p].c[5]);
                fail();
            }
        free(ref);
        free(mine);
        ncases++;
        nprims_total += n;
    }
    fclose(f);
    tess_mesh_free(&m);
    assert_true(ncases >= 50);
    printf("tessellator: %u cases, %u primitives as llvmpipe's; %u in llvmpipe's order too\n", ncases, nprims_total,
           same_order);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tri_all_ones),       cmocka_unit_test(tri_level2),  cmocka_unit_test(tri_inner3),
        cmocka_unit_test(quad_level2),        cmocka_unit_test(quad_ones_and_inner3), cmocka_unit_test(isolines),
        cmocka_unit_test(culled_and_refused), cmocka_unit_test(point_mode),  cmocka_unit_test(every_small_level),
        cmocka_unit_test(fractional_levels),  cmocka_unit_test(against_llvmpipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
