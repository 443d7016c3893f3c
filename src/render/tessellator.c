/* The fixed-function tessellator: the pattern of a DX11-class hardware
 * tessellator, whose rules Microsoft's D3D11 reference tessellator
 * (CHWTessellator, MIT licence; Mesa carries a copy in
 * src/gallium/auxiliary/tessellator/, which llvmpipe runs) defines.  This
 * is the model's own implementation of those rules; it predicts the
 * Cedar's output from that reference, it was not measured on a card.
 * tests/test_render_tessellator.c compares it with llvmpipe's output
 * captured through transform feedback (tests/data/tess_llvmpipe.txt).
 *
 * - Factors: a patch with an outer factor <= 0 or NaN is culled.  A factor
 *   is first clamped to VGT_HOS_MAX_TESS_LEVEL (that it comes first is the
 *   model's guess; Mesa's r600 programs 64), then to the spacing's range
 *   (integer [1, 64], fractional_odd [1, 63], fractional_even [2, 64]; NaN
 *   to the low end), rounded up for integer spacing and converted to 16.16
 *   fixed point (round to nearest even).  pow2 spacing is integer spacing
 *   (the reference: the hardware does not tell them apart).  With
 *   fractional_odd an inner factor is at least 1 + 2^-16 when any factor
 *   is above 1, so there is always an inner ring.
 * - Parity: fractional spacings have theirs; integer spacing is odd for an
 *   odd factor, even for an even one, and an inner factor of 1 counts as
 *   even.  Integer or odd spacing with every factor exactly 1 makes the
 *   single triangle (two for a quad).
 * - Points along an edge (16.16): half the factor, h = (f + 2^-16) / 2
 *   (plus 1/2 when odd, or when h is exactly 1/2), gives the points of one
 *   half edge, ceil(h) of them; each is a blend of its places on the edges
 *   of floor(h) and ceil(h) segments a half, weighted by h's fraction, and
 *   the points past the "split point" (2 * (floor(h) without its top bit)
 *   + 1; when odd 2 * (floor(h) - 1 without its top bit) + 1, or 0 when
 *   floor(h) is 1) take the previous index on floor(h)'s edge, so the new
 *   point grows out of the split point as f grows.  The other half mirrors
 *   the first (1 - x); the middle point of an even edge is exactly 1/2.
 *   1/n is 2^16 / n rounded to nearest.
 * - Rings: the outer ring starts at (0, 1) and walks u = 0 down, v = 0 to
 *   the right, then (quads) u = 1 up and v = 1 back, or (triangles) the
 *   w = 0 edge back; inner ring k uses the inner factor's points k ..
 *   n - 1 - k, inset by point k's place across the edge (triangles: by 2/3
 *   of it, the points along the edge moved back by half the inset).  An
 *   even quad axis ends in a row (or column) of points at 1/2, an even
 *   triangle in the centre (1/3, 1/3); an odd triangle ends in one
 *   triangle, an odd quad axis in a strip of quads.
 * - Joining: the outer ring to the first inner ring by the transition
 *   stitch (each half edge walked from its corner toward the middle and
 *   back out, the next point taken from whichever edge's point comes
 *   earlier in the ruler-function order in which points appear as a
 *   factor grows, then a middle quad or triangle when the parities call
 *   for it); inner rings to each other by trapezoids whose diagonals turn
 *   at the middle of the edge; the centre strip with its diagonals from
 *   the inner row forward (for an odd V axis but the middle quad).
 * - Isolines: lines at the density's points but the last (density always
 *   integer spacing), each cut at the detail's points.
 *
 * Triangles come out counter-clockwise with u to the right and v up for
 * TESS_OUT_TRI_CW (the hardware's OUTPUT_TRIANGLE_CW, the reference's
 * "clockwise"), the other way for TESS_OUT_TRI_CCW. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessellator.h"

#define EDGE_MAX 66         /* points of one edge: 64 segments, +1, +1 spare */
#define FX_ONE 0x10000u     /* 16.16 fixed point */
#define FX_HALF 0x8000u
#define FX_INT_MASK 0x7fff0000u
#define FX_FRAC_MASK 0xffffu
#define RULER_STEPS 33      /* the ruler order covers half edges of up to 32 segments */

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

/* A point at 16.16 (u, v). */
static uint32_t point(struct gen *g, uint32_t u, uint32_t v)
{
    struct tess_mesh *m = g->m;
    if (!grow((void **)&m->uv, &m->cap_points, m->npoints + 1, sizeof *m->uv)) {
        g->oom = true;
        return 0;
    }
    m->uv[m->npoints][0] = (float)u * (1.0f / (float)FX_ONE);   /* exact: u <= 2^16 */
    m->uv[m->npoints][1] = (float)v * (1.0f / (float)FX_ONE);
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

/* ---- 16.16 fixed point ---------------------------------------------- */

/* A clamped factor (in [1, 64]) to 16.16, rounding to nearest even. */
static uint32_t fx_from(float f)
{
    return (uint32_t)lrintf(f * (float)FX_ONE);
}

static uint32_t fx_ceil(uint32_t x)
{
    return x & FX_FRAC_MASK ? (x & FX_INT_MASK) + FX_ONE : x;
}

/* 1/n in 16.16, rounded to nearest (n in 1..64). */
static uint32_t fx_recip(unsigned n)
{
    return n ? (2u * FX_ONE + n) / (2u * n) : 0xffffffffu;
}

static unsigned drop_top_bit(unsigned x)
{
    unsigned b = 1;
    while (b <= x / 2)
        b *= 2;
    return x ? x & ~b : 0;
}

/* ---- one factor's points along an edge ---------------------------------- */

struct axis {
    bool odd;
    unsigned npoints;      /* along the whole edge, both ends included */
    unsigned half;         /* points of a half edge (an even edge's middle not counted) */
    int split;             /* the point that splits off floor(h)'s grid */
    uint32_t frac;         /* h's fraction */
    uint32_t inv_floor, inv_ceil;   /* 1 / segments of the whole edge at floor(h), ceil(h) */
};

static void axis_init(struct axis *a, uint32_t fx, bool odd)
{
    a->odd = odd;
    uint32_t h = (fx + 1) / 2;
    a->npoints = odd ? (fx_ceil(FX_HALF + h) * 2) >> 16 : ((fx_ceil(h) * 2) >> 16) + 1;
    if (odd || h == FX_HALF)
        h += FX_HALF;
    uint32_t lo = h & FX_INT_MASK, hi = fx_ceil(h);
    a->frac = h - lo;
    a->half = hi >> 16;
    if (hi == lo)
        a->split = (int)a->half + 1;   /* never reached */
    else if (odd)
        a->split = lo == FX_ONE ? 0 : (int)(drop_top_bit((lo >> 16) - 1) * 2 + 1);
    else
        a->split = (int)(drop_top_bit(lo >> 16) * 2 + 1);
    unsigned seg_lo = (lo * 2) >> 16, seg_hi = (hi * 2) >> 16;
    if (odd)
        seg_lo--, seg_hi--;
    a->inv_floor = fx_recip(seg_lo);
    a->inv_ceil = fx_recip(seg_hi);
}

/* Point i (0 .. npoints - 1) of the edge, 16.16 from its start. */
static uint32_t axis_at(const struct axis *a, unsigned i)
{
    bool mirror = i >= a->half;
    if (mirror)
        i = 2 * a->half - i - (a->odd ? 1 : 0);
    if (i == a->half)
        return FX_HALF;
    uint32_t on_hi = i, on_lo = (int)i > a->split ? i - 1 : i;
    uint32_t x = on_lo * a->inv_floor * (FX_ONE - a->frac) + on_hi * a->inv_ceil * a->frac;
    x = (x + FX_HALF) >> 16;
    return mirror ? FX_ONE - x : x;
}

/* Step k of the transition stitch's walk (the ruler-function order in
 * which points appear on a half edge as the factor grows): the place, on a
 * half edge of the largest factor, of the point that step k adds; a row
 * advances at step k when it has more points than that.  0 and 32 first,
 * then for k - 1 = 2^t * (2j + 1): 2^(4 - t) + j (16, 8, 17, 4, 18, ...). */
static unsigned ruler_place(unsigned k)
{
    if (k < 2)
        return k ? 32 : 0;
    unsigned x = k - 1, t = 0;
    while (!(x & 1))
        x >>= 1, t++;
    return (1u << (4 - t)) + (x - 1) / 2;
}

/* ---- joining two rows of points --------------------------------------- */

/* A row of point indices from one corner to the next. */
struct row {
    unsigned n;
    uint32_t idx[EDGE_MAX];
};

/* The transition band between outer row o (half-edge count oh, parity
 * oodd) and inner row in (ih, iodd). */
static void stitch_transition(struct gen *g, const struct row *o, unsigned oh, bool oodd, const struct row *in,
                              unsigned ih, bool iodd)
{
    if (iodd)
        ih--;
    if (oodd)
        oh--;
    unsigned a = 0, b = 0;   /* next outer, next inner */
#define OUT_STEP() (tri(g, o->idx[a], o->idx[a + 1], in->idx[b]), a++)
#define IN_STEP() (tri(g, in->idx[b], o->idx[a], in->idx[b + 1]), b++)
    if (ruler_place(0) < oh)
        OUT_STEP();
    for (unsigned k = 1; k < RULER_STEPS; k++) {
        if (ruler_place(k) < ih)
            IN_STEP();
        if (ruler_place(k) < oh)
            OUT_STEP();
    }
    if (iodd && oodd) {
        tri(g, in->idx[b], o->idx[a], in->idx[b + 1]);
        tri(g, in->idx[b + 1], o->idx[a], o->idx[a + 1]);
        a++, b++;
    } else if (oodd) {
        tri(g, in->idx[b], o->idx[a], o->idx[a + 1]);
        a++;
    } else if (iodd) {
        IN_STEP();
    }
    for (unsigned k = RULER_STEPS - 1; k >= 1; k--) {
        if (ruler_place(k) < oh)
            OUT_STEP();
        if (ruler_place(k) < ih)
            IN_STEP();
    }
    if (ruler_place(0) < oh)
        OUT_STEP();
#undef OUT_STEP
#undef IN_STEP
}

enum diagonals { DIAG_INNER_FORWARD, DIAG_INNER_FORWARD_BUT_MIDDLE, DIAG_MIRRORED };

/* Quads between inner row in and outer row o; a trapezoid's outer row has
 * one more point at each end. */
static void stitch_regular(struct gen *g, bool trapezoid, enum diagonals d, const struct row *o, const struct row *in)
{
    unsigned a = 0, b = 0, n = in->n, p = 0;
    if (trapezoid)
        tri(g, o->idx[a], o->idx[a + 1], in->idx[b]), a++;
    switch (d) {
    case DIAG_INNER_FORWARD:
        for (; p + 1 < n; p++, a++, b++) {
            tri(g, in->idx[b], o->idx[a], o->idx[a + 1]);
            tri(g, in->idx[b], o->idx[a + 1], in->idx[b + 1]);
        }
        break;
    case DIAG_INNER_FORWARD_BUT_MIDDLE:
        for (; p + 1 < n / 2; p++, a++, b++) {
            tri(g, o->idx[a], o->idx[a + 1], in->idx[b]);
            tri(g, in->idx[b], o->idx[a + 1], in->idx[b + 1]);
        }
        tri(g, o->idx[a], in->idx[b + 1], in->idx[b]);
        tri(g, o->idx[a], o->idx[a + 1], in->idx[b + 1]);
        a++, b++, p += 2;
        for (; p < n; p++, a++, b++) {
            tri(g, o->idx[a], o->idx[a + 1], in->idx[b]);
            tri(g, in->idx[b], o->idx[a + 1], in->idx[b + 1]);
        }
        break;
    default:
        for (; p < n / 2; p++, a++, b++) {
            tri(g, o->idx[a], in->idx[b + 1], in->idx[b]);
            tri(g, o->idx[a], o->idx[a + 1], in->idx[b + 1]);
        }
        for (; p + 1 < n; p++, a++, b++) {
            tri(g, in->idx[b], o->idx[a], o->idx[a + 1]);
            tri(g, in->idx[b], o->idx[a + 1], in->idx[b + 1]);
        }
        break;
    }
    if (trapezoid)
        tri(g, o->idx[a], o->idx[a + 1], in->idx[b]);
}

/* ---- factors ------------------------------------------------------------ */

struct spacing {
    bool integer;          /* integer (or pow2) spacing; else fractional */
    bool odd;              /* fractional_odd */
    float lo, hi;          /* the factor range */
};

static struct spacing spacing_of(enum tess_spacing s)
{
    switch (s) {
    case TESS_SPACING_FRAC_ODD: return (struct spacing){false, true, 1.0f, 63.0f};
    case TESS_SPACING_FRAC_EVEN: return (struct spacing){false, false, 2.0f, 64.0f};
    default: return (struct spacing){true, false, 1.0f, 64.0f};
    }
}

/* f clamped to [lo, hi] (NaN to lo) and max, rounded up for integer spacing. */
static float clamp_factor(float f, float lo, float hi, float max, bool integer)
{
    if (f > max)
        f = max;
    f = f >= lo ? f : lo;
    f = f <= hi ? f : hi;
    return integer ? ceilf(f) : f;
}

static bool parity_odd(const struct spacing *s, float f, bool inner)
{
    if (!s->integer)
        return s->odd;
    return ((int)f & 1) && !(inner && f == 1.0f);
}

static bool culled(float f)
{
    return !(f > 0.0f);   /* NaN too */
}

/* The inner factor's lower bound: fractional_odd keeps an inner ring when
 * any factor (given) is above 1. */
static float inner_lo(const struct spacing *s, const float *f, unsigned n)
{
    if (!s->odd)
        return s->lo;
    const float above = 1.0f + 1.0f / (2.0f * (float)FX_ONE);
    for (unsigned k = 0; k < n; k++)
        if (f[k] > above)
            return 1.0f + 1.0f / (float)FX_ONE;
    return s->lo;
}

/* ---- rings ------------------------------------------------------------------ */

/* A closed ring of nedges edges, each a row from its corner to the next. */
struct ring {
    unsigned nedges;
    struct row edge[4];
};

/* Close ring r whose edges' points (all but each edge's last) were made in
 * order from first: edge e has n[e] points. */
static void ring_close(struct ring *r, unsigned nedges, const unsigned *n, uint32_t first)
{
    unsigned total = 0;
    for (unsigned e = 0; e < nedges; e++)
        total += n[e] - 1;
    r->nedges = nedges;
    unsigned at = 0;
    for (unsigned e = 0; e < nedges; e++) {
        r->edge[e].n = n[e];
        for (unsigned j = 0; j < n[e]; j++)
            r->edge[e].idx[j] = first + (at + j) % total;
        at += n[e] - 1;
    }
}

/* ---- triangles ------------------------------------------------------------ */

static void gen_triangle(struct gen *g, enum tess_spacing sp, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]) || culled(tf[2]))
        return;
    struct spacing s = spacing_of(sp);
    float o[3], in;
    for (unsigned e = 0; e < 3; e++)
        o[e] = clamp_factor(tf[e], s.lo, s.hi, max, s.integer);
    in = clamp_factor(tf[3], inner_lo(&s, o, 3), s.hi, max, s.integer);
    uint32_t fo[3] = {fx_from(o[0]), fx_from(o[1]), fx_from(o[2])}, fi = fx_from(in);
    if ((s.integer || s.odd) && fi == FX_ONE && fo[0] == FX_ONE && fo[1] == FX_ONE && fo[2] == FX_ONE) {
        uint32_t a = point(g, 0, FX_ONE), b = point(g, 0, 0), c = point(g, FX_ONE, 0);
        tri(g, a, b, c);
        return;
    }
    struct axis ao[3], ai;
    for (unsigned e = 0; e < 3; e++)
        axis_init(&ao[e], fo[e], parity_odd(&s, o[e], false));
    axis_init(&ai, fi, parity_odd(&s, in, true));
    unsigned ni = ai.npoints < (ai.odd ? 4u : 3u) ? (ai.odd ? 4u : 3u) : ai.npoints;

    /* the outer ring: u = 0 from v = 1 down, v = 0 from u = 0 right, w = 0
     * from u = 1 back to v = 1 */
    struct ring outer, inner;
    unsigned n[3];
    uint32_t first = g->m->npoints;
    for (unsigned e = 0; e < 3; e++) {
        n[e] = ao[e].npoints;
        for (unsigned j = 0; j + 1 < n[e]; j++) {
            uint32_t t = axis_at(&ao[e], e == 1 ? j : n[e] - 1 - j);
            if (e == 0)
                point(g, 0, t);
            else if (e == 1)
                point(g, t, 0);
            else
                point(g, t, FX_ONE - t);
        }
    }
    ring_close(&outer, 3, n, first);
    unsigned rings = (ni + 1) / 2;   /* the even centre point counts as a ring */
    for (unsigned k = 1; k < rings; k++) {
        unsigned m = ni - 2 * k;      /* points of each edge of ring k */
        first = g->m->npoints;
        if (m == 1) {                 /* the centre */
            uint32_t c = point(g, FX_ONE / 3, FX_ONE / 3);
            inner.nedges = 3;
            for (unsigned e = 0; e < 3; e++)
                inner.edge[e].n = 1, inner.edge[e].idx[0] = c;
        } else {
            uint32_t inset = (axis_at(&ai, k) * (2 * FX_ONE / 3) + FX_HALF) >> 16;
            uint32_t back = (inset + 1) / 2;
            for (unsigned e = 0; e < 3; e++) {
                n[e] = m;
                for (unsigned j = 0; j + 1 < m; j++) {
                    uint32_t t = axis_at(&ai, e == 1 ? k + j : ni - 1 - k - j) - back;
                    if (e == 0)
                        point(g, inset, t);
                    else if (e == 1)
                        point(g, t, inset);
                    else
                        point(g, t, FX_ONE - t - inset);
                }
            }
            ring_close(&inner, 3, n, first);
        }
        for (unsigned e = 0; e < 3; e++) {
            if (k == 1)
                stitch_transition(g, &outer.edge[e], ao[e].half, ao[e].odd, &inner.edge[e], ai.half, ai.odd);
            else
                stitch_regular(g, true, DIAG_MIRRORED, &outer.edge[e], &inner.edge[e]);
        }
        outer = inner;
    }
    if (ai.odd)   /* the innermost ring is a triangle */
        tri(g, outer.edge[0].idx[0], outer.edge[1].idx[0], outer.edge[2].idx[0]);
}

/* ---- quads ------------------------------------------------------------------ */

static void gen_quad(struct gen *g, enum tess_spacing sp, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]) || culled(tf[2]) || culled(tf[3]))
        return;
    struct spacing s = spacing_of(sp);
    float o[4], in[2], all[6];
    for (unsigned e = 0; e < 4; e++)
        o[e] = all[e] = clamp_factor(tf[e], s.lo, s.hi, max, s.integer);
    all[4] = tf[4], all[5] = tf[5];
    float ilo = inner_lo(&s, all, 6);
    for (unsigned x = 0; x < 2; x++)
        in[x] = clamp_factor(tf[4 + x], ilo, s.hi, max, s.integer);
    uint32_t fo[4], fi[2] = {fx_from(in[0]), fx_from(in[1])};
    bool ones = fi[0] == FX_ONE && fi[1] == FX_ONE;
    for (unsigned e = 0; e < 4; e++) {
        fo[e] = fx_from(o[e]);
        ones &= fo[e] == FX_ONE;
    }
    if ((s.integer || s.odd) && ones) {
        uint32_t p00 = point(g, 0, 0), p10 = point(g, FX_ONE, 0), p11 = point(g, FX_ONE, FX_ONE);
        uint32_t p01 = point(g, 0, FX_ONE);
        tri(g, p00, p10, p01);
        tri(g, p10, p11, p01);
        return;
    }
    struct axis ao[4], ai[2];
    unsigned ni[2];
    for (unsigned e = 0; e < 4; e++)
        axis_init(&ao[e], fo[e], parity_odd(&s, o[e], false));
    for (unsigned x = 0; x < 2; x++) {
        axis_init(&ai[x], fi[x], parity_odd(&s, in[x], true));
        unsigned lo = ai[x].odd ? 4 : 3;
        ni[x] = ai[x].npoints < lo ? lo : ai[x].npoints;
    }

    /* the outer ring: u = 0 from v = 1 down, v = 0 right, u = 1 up, v = 1 left */
    struct ring outer, inner;
    unsigned n[4];
    uint32_t first = g->m->npoints;
    for (unsigned e = 0; e < 4; e++) {
        n[e] = ao[e].npoints;
        for (unsigned j = 0; j + 1 < n[e]; j++) {
            uint32_t t = axis_at(&ao[e], e == 1 || e == 2 ? j : n[e] - 1 - j);
            if (e % 2)
                point(g, t, e == 3 ? FX_ONE : 0);
            else
                point(g, e == 2 ? FX_ONE : 0, t);
        }
    }
    ring_close(&outer, 4, n, first);
    /* rings to the centre on each axis (an even axis' middle row counts) */
    unsigned to_centre[2] = {(ni[0] + 1) / 2, (ni[1] + 1) / 2};
    unsigned rings = to_centre[0] < to_centre[1] ? to_centre[0] : to_centre[1];
    for (unsigned k = 1; k < rings; k++) {
        unsigned m[2] = {ni[0] - 2 * k, ni[1] - 2 * k};   /* points of ring k's u / v edges */
        first = g->m->npoints;
        if (m[0] == 1 || m[1] == 1) {
            /* an even axis' middle: a row at v = 1/2 (or a column at u =
             * 1/2), walked out and back as the ring's edges */
            bool column = !(ni[0] > ni[1]);
            const struct axis *along = &ai[column ? 1 : 0];
            unsigned len = column ? m[1] : m[0];
            struct row line = {len, {0}};
            for (unsigned j = 0; j < len; j++) {
                uint32_t t = axis_at(along, column ? ni[1] - 1 - k - j : k + j);
                line.idx[j] = column ? point(g, FX_HALF, t) : point(g, t, FX_HALF);
            }
            struct row back = {len, {0}}, start = {1, {line.idx[0]}}, end = {1, {line.idx[len - 1]}};
            for (unsigned j = 0; j < len; j++)
                back.idx[j] = line.idx[len - 1 - j];
            inner.nedges = 4;
            if (column) {   /* down the column, its foot, up, its head */
                inner.edge[0] = line, inner.edge[1] = end, inner.edge[2] = back, inner.edge[3] = start;
            } else {        /* its left end, along the row, its right end, back */
                inner.edge[0] = start, inner.edge[1] = line, inner.edge[2] = end, inner.edge[3] = back;
            }
        } else {
            uint32_t u0 = axis_at(&ai[0], k), u1 = axis_at(&ai[0], ni[0] - 1 - k);
            uint32_t v0 = axis_at(&ai[1], k), v1 = axis_at(&ai[1], ni[1] - 1 - k);
            for (unsigned e = 0; e < 4; e++) {
                n[e] = m[(e + 1) % 2];
                for (unsigned j = 0; j + 1 < n[e]; j++) {
                    switch (e) {
                    case 0: point(g, u0, axis_at(&ai[1], ni[1] - 1 - k - j)); break;
                    case 1: point(g, axis_at(&ai[0], k + j), v0); break;
                    case 2: point(g, u1, axis_at(&ai[1], k + j)); break;
                    default: point(g, axis_at(&ai[0], ni[0] - 1 - k - j), v1); break;
                    }
                }
            }
            ring_close(&inner, 4, n, first);
        }
        for (unsigned e = 0; e < 4; e++) {
            const struct axis *ia = &ai[(e + 1) % 2];
            if (k == 1)
                stitch_transition(g, &outer.edge[e], ao[e].half, ao[e].odd, &inner.edge[e], ia->half, ia->odd);
            else
                stitch_regular(g, true, DIAG_MIRRORED, &outer.edge[e], &inner.edge[e]);
        }
        outer = inner;
    }
    /* an odd axis' middle: a strip of quads inside the last ring */
    struct row a, b;
    if (ni[0] > ni[1] && ai[1].odd) {
        /* bottom row (outer) to top row (inner), left to right */
        a = outer.edge[1];
        b.n = outer.edge[3].n;
        for (unsigned j = 0; j < b.n; j++)
            b.idx[j] = outer.edge[3].idx[b.n - 1 - j];
        stitch_regular(g, false, DIAG_INNER_FORWARD, &a, &b);
    } else if (ni[1] >= ni[0] && ai[0].odd) {
        /* left column (outer) to right column (inner), top to bottom */
        a = outer.edge[0];
        b.n = outer.edge[2].n;
        for (unsigned j = 0; j < b.n; j++)
            b.idx[j] = outer.edge[2].idx[b.n - 1 - j];
        stitch_regular(g, false, ai[1].odd ? DIAG_INNER_FORWARD_BUT_MIDDLE : DIAG_INNER_FORWARD, &a, &b);
    }
}

/* ---- isolines ------------------------------------------------------------- */

static void gen_isoline(struct gen *g, enum tess_spacing sp, const float tf[], float max)
{
    if (culled(tf[0]) || culled(tf[1]))
        return;
    struct spacing s = spacing_of(sp);
    float detail = clamp_factor(tf[0], s.lo, s.hi, max, s.integer);
    float density = clamp_factor(tf[1], 1.0f, 64.0f, max, true);
    struct axis ad, al;
    axis_init(&ad, fx_from(detail), parity_odd(&s, detail, false));
    axis_init(&al, fx_from(density), (int)density & 1);
    for (unsigned j = 0; j + 1 < al.npoints; j++) {
        uint32_t v = axis_at(&al, j), prev = 0;
        for (unsigned i = 0; i < ad.npoints; i++) {
            uint32_t p = point(g, axis_at(&ad, i), v);
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
