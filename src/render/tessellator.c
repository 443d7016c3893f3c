/* The fixed-function tessellator, after the rules of OpenGL 4.6 11.2.2
 * (the tessellation primitive generator), for integer ("equal") spacing:
 *
 * - a level is clamped to [1, max] and rounded up to an integer; a patch
 *   with an outer level <= 0 or NaN is discarded;
 * - triangles: all levels 1 make one triangle; else an inner level of 1
 *   counts as 2.  Inner level n makes concentric triangles: ring k (k = 1,
 *   2, ...) while n - 2k >= 0 has n - 2k segments a side, its corners where
 *   the perpendiculars through the points next to the corners of ring k - 1
 *   meet (barycentric 1 - 4k/3n, 2k/3n, 2k/3n), a single point when
 *   n - 2k = 0 and one triangle when it is 1.  The outermost ring's edges are
 *   subdivided by the outer levels instead (outer 0 the u = 0 edge, 1 the
 *   v = 0 edge, 2 the w = 0 edge);
 * - quads: all levels 1 make one quad (two triangles); else inner levels
 *   of 1 count as 2.  The inner region is the grid of (n0 - 2) x (n1 - 2)
 *   cells from (1/n0, 1/n1) to (1 - 1/n0, 1 - 1/n1) (a line or a point when
 *   a level is 2), the outer edges subdivided by the outer levels (outer 0
 *   u = 0, 1 v = 0, 2 u = 1, 3 v = 1);
 * - isolines: density lines at v = 0, 1/d, .. (d - 1)/d, each of `detail`
 *   segments (the density always rounded as integer spacing).
 *
 * The band between two rings is joined by walking both edges from corner
 * to corner, each point of the inner edge placed where it projects onto
 * the outer one, taking the next point from whichever edge's comes first.
 * The spec leaves that triangulation to the implementation; the hardware's
 * may differ triangle by triangle while covering the same area with the
 * same points.  Fractional spacings are not modelled (a named fault). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessellator.h"

#define EDGE_MAX 66   /* points of one edge: 64 segments, +1, +1 spare */

struct gen {
    struct tess_mesh *m;
    bool flip;        /* emit triangles clockwise */
    bool oom;
};

static bool grow(void **p, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap)
        return true;
    unsigned n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static uint32_t point(struct gen *g, float u, float v)
{
    struct tess_mesh *m = g->m;
    if (!grow((void **)&m->uv, &m->cap_points, m->npoints + 1, sizeof *m->uv)) {
        g->oom = true;
        return 0;
    }
    m->uv[m->npoints][0] = u;
    m->uv[m->npoints][1] = v;
    return m->npoints++;
}

static void prim(struct gen *g, uint32_t a, uint32_t b, uint32_t c)
{
    struct tess_mesh *m = g->m;
    if (!grow((void **)&m->prim, &m->cap_prims, m->nprims + 1, sizeof *m->prim)) {
        g->oom = true;
        return;
    }
    m->prim[m->nprims][0] = a;
    m->prim[m->nprims][1] = b;
    m->prim[m->nprims][2] = c;
    m->nprims++;
}

/* A triangle given counter-clockwise (u right, v up). */
static void tri(struct gen *g, uint32_t a, uint32_t b, uint32_t c)
{
    if (g->flip)
        prim(g, a, c, b);
    else
        prim(g, a, b, c);
}

static bool culled(float f)
{
    return !(f > 0.0f);   /* NaN too */
}

/* A level clamped and rounded as integer spacing, or pow2 (rounded up to
 * a power of two, D3D11's, which GL does not use). */
static unsigned level(float f, enum tess_spacing s, float max)
{
    f = f < 1.0f ? 1.0f : f > max ? max : f;
    unsigned n = (unsigned)ceilf(f);
    if (s == TESS_SPACING_POW2) {
        unsigned p = 1;
        while (p < n)
            p *= 2;
        n = p > (unsigned)max ? (unsigned)max : p;
    }
    return n;
}

/* An edge polyline: point indices and where each lies along the band's
 * outer edge (0 at its first corner, 1 at its last). */
struct edge {
    unsigned n;
    uint32_t idx[EDGE_MAX];
    float t[EDGE_MAX];
};

/* Join the band between outer edge o and inner edge in (both from the
 * same corner to the next, counter-clockwise, the inside on their left). */
static void stitch(struct gen *g, const struct edge *o, const struct edge *in)
{
    unsigned i = 0, j = 0;
    while (i + 1 < o->n || j + 1 < in->n) {
        bool outer = j + 1 >= in->n || (i + 1 < o->n && o->t[i + 1] <= in->t[j + 1]);
        if (outer) {
            tri(g, o->idx[i], o->idx[i + 1], in->idx[j]);
            i++;
        } else {
            tri(g, o->idx[i], in->idx[j + 1], in->idx[j]);
            j++;
        }
    }
}

/* Edge e of a closed ring whose edge k has seg[k] segments and starts at
 * ring[start[k]] (ring has total points; the last edge ends at ring[0]);
 * inner: the points' projections are (j + 1) / (seg + 2), else j / seg. */
static void ring_edge(struct edge *e, const uint32_t *ring, unsigned total, unsigned start, unsigned seg, bool inner)
{
    e->n = seg + 1;
    for (unsigned j = 0; j <= seg; j++) {
        e->idx[j] = ring[(start + j) % total];
        e->t[j] = inner ? (float)(j + 1) / (float)(seg + 2) : (float)j / (float)seg;
    }
}

/* The outermost ring: edge k from corner k to corner k + 1 (of nc) cut into
 * seg[k] segments; ring[start[k]] is its first point.  Returns the points. */
static unsigned outer_ring(struct gen *g, const float (*corner)[2], unsigned nc, const unsigned *seg, uint32_t *ring,
                           unsigned *start)
{
    unsigned total = 0;
    for (unsigned k = 0; k < nc; k++) {
        start[k] = total;
        const float *a = corner[k], *b = corner[(k + 1) % nc];
        for (unsigned i = 0; i < seg[k]; i++) {
            float t = (float)i / (float)seg[k];
            ring[total++] = point(g, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
        }
    }
    return total;
}

/* Triangle corners in (u, v): u = 1, v = 1, w = 1, counter-clockwise. */
static const float tri_corner[3][2] = {{1.0f, 0.0f}, {0.0f, 1.0f}, {0.0f, 0.0f}};

static void gen_triangle(struct gen *g, enum tess_spacing s, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]) || culled(tf[2]))
        return;
    unsigned o[3] = {level(tf[0], s, max), level(tf[1], s, max), level(tf[2], s, max)};
    unsigned n = level(tf[3], s, max);
    if (n == 1 && o[0] == 1 && o[1] == 1 && o[2] == 1) {
        uint32_t a = point(g, 1.0f, 0.0f), b = point(g, 0.0f, 1.0f), c = point(g, 0.0f, 0.0f);
        tri(g, a, b, c);
        return;
    }
    if (n == 1)
        n = 2;
    /* the outer ring: edge k from corner k to corner k + 1 is w = 0, u = 0,
     * v = 0 in turn, subdivided by outer level 2, 0, 1 */
    const unsigned seg0[3] = {o[2], o[0], o[1]};
    uint32_t ring0[3 * EDGE_MAX], ringk[3 * EDGE_MAX], ringn[3 * EDGE_MAX];
    unsigned start0[3], total0 = outer_ring(g, tri_corner, 3, seg0, ring0, start0);
    /* ring r's points: 3 (n - 2r) of them, or the centre */
    unsigned prev_seg = 0;
    for (unsigned r = 1; 2 * r <= n; r++) {
        unsigned seg = n - 2 * r, total = seg ? 3 * seg : 1;
        float f = 2.0f * (float)r / (float)n, c[3][2];
        for (unsigned k = 0; k < 3; k++)
            for (unsigned x = 0; x < 2; x++)
                c[k][x] = tri_corner[k][x] * (1.0f - f) + f / 3.0f;
        if (seg == 0)
            ringn[0] = point(g, 1.0f / 3.0f, 1.0f / 3.0f);
        for (unsigned k = 0; k < 3 && seg; k++)
            for (unsigned j = 0; j < seg; j++) {
                float t = (float)j / (float)seg;
                const float *a = c[k], *b = c[(k + 1) % 3];
                ringn[k * seg + j] = point(g, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
            }
        for (unsigned k = 0; k < 3; k++) {
            struct edge eo, ei;
            if (r == 1)
                ring_edge(&eo, ring0, total0, start0[k], seg0[k], false);
            else
                ring_edge(&eo, ringk, 3 * prev_seg, k * prev_seg, prev_seg, false);
            ring_edge(&ei, ringn, total, k * seg, seg, true);
            stitch(g, &eo, &ei);
        }
        if (seg == 1)
            tri(g, ringn[0], ringn[1], ringn[2]);
        memcpy(ringk, ringn, total * sizeof *ringk);
        prev_seg = seg;
    }
}

/* Quad corners in (u, v), counter-clockwise. */
static const float quad_corner[4][2] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};

static void gen_quad(struct gen *g, enum tess_spacing s, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]) || culled(tf[2]) || culled(tf[3]))
        return;
    unsigned o[4], a = level(tf[4], s, max), b = level(tf[5], s, max);
    bool ones = a == 1 && b == 1;
    for (unsigned k = 0; k < 4; k++) {
        o[k] = level(tf[k], s, max);
        ones &= o[k] == 1;
    }
    if (ones) {
        uint32_t p[4];
        for (unsigned k = 0; k < 4; k++)
            p[k] = point(g, quad_corner[k][0], quad_corner[k][1]);
        tri(g, p[0], p[1], p[2]);
        tri(g, p[0], p[2], p[3]);
        return;
    }
    a = a < 2 ? 2 : a;
    b = b < 2 ? 2 : b;
    /* the outer ring: bottom (v = 0, outer 1), right (u = 1, outer 2), top
     * (v = 1, outer 3), left (u = 0, outer 0) */
    const unsigned seg0[4] = {o[1], o[2], o[3], o[0]};
    uint32_t ring0[4 * EDGE_MAX];
    unsigned start0[4], total0 = outer_ring(g, quad_corner, 4, seg0, ring0, start0);
    /* the inner grid: (a - 1) x (b - 1) points */
    unsigned gu = a - 1, gv = b - 1;
    uint32_t *grid = malloc((size_t)gu * gv * sizeof *grid);
    if (!grid) {
        g->oom = true;
        return;
    }
    for (unsigned j = 0; j < gv; j++)
        for (unsigned i = 0; i < gu; i++)
            grid[j * gu + i] = point(g, (float)(i + 1) / (float)a, (float)(j + 1) / (float)b);
    for (unsigned k = 0; k < 4; k++) {
        struct edge eo, ei;
        ring_edge(&eo, ring0, total0, start0[k], seg0[k], false);
        unsigned seg = k % 2 == 0 ? gu - 1 : gv - 1, den = k % 2 == 0 ? a : b;
        ei.n = seg + 1;
        for (unsigned j = 0; j <= seg; j++) {
            unsigned i, v;
            switch (k) {
            case 0: i = j, v = 0; break;
            case 1: i = gu - 1, v = j; break;
            case 2: i = gu - 1 - j, v = gv - 1; break;
            default: i = 0, v = gv - 1 - j; break;
            }
            ei.idx[j] = grid[v * gu + i];
            ei.t[j] = (float)(j + 1) / (float)den;
        }
        stitch(g, &eo, &ei);
    }
    for (unsigned j = 0; j + 1 < gv; j++)
        for (unsigned i = 0; i + 1 < gu; i++) {
            uint32_t p00 = grid[j * gu + i], p10 = grid[j * gu + i + 1];
            uint32_t p01 = grid[(j + 1) * gu + i], p11 = grid[(j + 1) * gu + i + 1];
            tri(g, p00, p10, p11);
            tri(g, p00, p11, p01);
        }
    free(grid);
}

static void gen_isoline(struct gen *g, enum tess_spacing s, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]))
        return;
    unsigned detail = level(tf[0], s, max), density = level(tf[1], TESS_SPACING_INTEGER, max);
    for (unsigned j = 0; j < density; j++) {
        uint32_t prev = 0;
        for (unsigned i = 0; i <= detail; i++) {
            uint32_t p = point(g, (float)i / (float)detail, (float)j / (float)density);
            if (i)
                prim(g, prev, p, p);
            prev = p;
        }
    }
}

static int fail(char *why, size_t whylen, const char *msg)
{
    snprintf(why, whylen, "%s", msg);
    return -1;
}

int tess_generate(struct tess_mesh *m, enum tess_domain domain, enum tess_spacing spacing, enum tess_output out,
                  const float tf[TESS_MAX_FACTORS], float max_level, char *why, size_t whylen)
{
    m->npoints = m->nprims = 0;
    if (spacing == TESS_SPACING_FRAC_ODD || spacing == TESS_SPACING_FRAC_EVEN)
        return fail(why, whylen, spacing == TESS_SPACING_FRAC_ODD ? "fractional_odd spacing is not modelled"
                                                                  : "fractional_even spacing is not modelled");
    if ((domain == TESS_DOMAIN_ISOLINE) != (out == TESS_OUT_LINE) && out != TESS_OUT_POINT)
        return fail(why, whylen, domain == TESS_DOMAIN_ISOLINE ? "triangles out of an isoline domain"
                                                               : "lines out of a triangle or quad domain");
    if (!(max_level >= 1.0f))
        max_level = TESS_MAX_LEVEL;
    if (max_level > TESS_MAX_LEVEL)
        max_level = TESS_MAX_LEVEL;
    struct gen g = {m, out == TESS_OUT_TRI_CCW, false};
    switch (domain) {
    case TESS_DOMAIN_TRIANGLE: gen_triangle(&g, spacing, tf, max_level); break;
    case TESS_DOMAIN_QUAD: gen_quad(&g, spacing, tf, max_level); break;
    default: gen_isoline(&g, spacing, tf, max_level); break;
    }
    if (g.oom) {
        m->npoints = m->nprims = 0;
        return fail(why, whylen, "out of memory");
    }
    m->per_prim = domain == TESS_DOMAIN_ISOLINE ? 2 : 3;
    if (out == TESS_OUT_POINT) {
        /* every domain point once */
        m->nprims = 0;
        for (uint32_t k = 0; k < m->npoints && !g.oom; k++)
            prim(&g, k, k, k);
        m->per_prim = 1;
        if (g.oom) {
            m->npoints = m->nprims = 0;
            return fail(why, whylen, "out of memory");
        }
    }
    return 0;
}

void tess_mesh_free(struct tess_mesh *m)
{
    free(m->uv);
    free(m->prim);
    memset(m, 0, sizeof *m);
}
