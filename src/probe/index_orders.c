/* Index orders for a grid of quads (cedar-probe reuse), written from the
 * published descriptions of each algorithm (facts, not code):
 *
 * - Optimal grid rendering (I. Castaño, "Optimal Grid Rendering", 2009, as
 *   the seed write-up 003 summarises it): vertical strips whose rows fit the
 *   assumed FIFO cache (a grid whose row of vertices is shorter than the
 *   cache is one strip, else strips of cache - 2 quads), each strip's first
 *   row prefetched with degenerate triangles (v, v, v + 1) when
 *   2 x quads + 1 > cache (two rows of the strip do not fit).
 * - Striped: the same strips without the prefetch.
 * - Tipsify (P. Sander, D. Nehab, J. Barczak, "Fast Triangle Reordering for
 *   Vertex Locality and Reduced Overdraw", SIGGRAPH 2007, the paper's
 *   listing): fan around a current vertex, emitting its live triangles; the
 *   next fanning vertex is the adjacent vertex that will still be in a FIFO
 *   of the assumed size after its remaining triangles are emitted (largest
 *   time in cache), else the last dead-end vertex with live triangles, else
 *   the next vertex in input order with live triangles.
 * - Forsyth (T. Forsyth, "Linear-Speed Vertex Cache Optimisation", 2006):
 *   greedy on a simulated 32-entry LRU: vertex score from its cache position
 *   (the last triangle's three vertices 0.75, then (1 - (pos - 3) / 29)^1.5)
 *   plus a valence boost 2 * remaining^-0.5; each step emits the best-scored
 *   triangle among those of the cached vertices (or, when they have none,
 *   of all remaining triangles).  The algorithm's own cache size is fixed
 *   (32), so its order does not depend on the assumed size.
 *
 * Every order keeps each triangle's vertex order (its winding). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/probe.h"

struct out {
    uint32_t *idx;
    size_t n, cap;
    int err;
};

static void put(struct out *o, uint32_t a, uint32_t b, uint32_t c)
{
    if (o->err)
        return;
    if (o->n + 3 > o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 1024;
        uint32_t *p = realloc(o->idx, cap * sizeof *p);
        if (!p) {
            o->err = -ENOMEM;
            return;
        }
        o->idx = p;
        o->cap = cap;
    }
    o->idx[o->n++] = a;
    o->idx[o->n++] = b;
    o->idx[o->n++] = c;
}

/* The grid's two triangles of quad (x, y), in the order and winding every
 * generator keeps: (x,y) (x,y+1) (x+1,y), then (x+1,y) (x,y+1) (x+1,y+1). */
void cedar_probe_grid_quad(unsigned n, unsigned x, unsigned y, uint32_t tri[6])
{
    uint32_t row = n + 1, v00 = y * row + x;
    tri[0] = v00;
    tri[1] = v00 + row;
    tri[2] = v00 + 1;
    tri[3] = v00 + 1;
    tri[4] = v00 + row;
    tri[5] = v00 + row + 1;
}

/* Columns [x0, x1) of quads as one strip, rows top to bottom. */
static void strip(struct out *o, unsigned n, unsigned x0, unsigned x1, unsigned cache, bool prefetch)
{
    if (prefetch && 2 * (x1 - x0) + 1 > cache)
        for (unsigned x = x0; x < x1; x++)
            put(o, x, x, x + 1);      /* the strip's first row enters the cache */
    for (unsigned y = 0; y < n; y++)
        for (unsigned x = x0; x < x1; x++) {
            uint32_t t[6];
            cedar_probe_grid_quad(n, x, y, t);
            put(o, t[0], t[1], t[2]);
            put(o, t[3], t[4], t[5]);
        }
}

static void striped(struct out *o, unsigned n, unsigned cache, bool prefetch)
{
    /* A row of cache - 1 vertices (cache - 2 quads) leaves room for the
     * vertex of the next row that the first triangle brings in. */
    unsigned width = n + 1 < cache ? n : cache - 2;
    for (unsigned x0 = 0; x0 < n; x0 += width)
        strip(o, n, x0, x0 + width < n ? x0 + width : n, cache, prefetch);
}

/* ---- Tipsify ---------------------------------------------------------------- */

struct adjacency {
    uint32_t *start;   /* vertex v's triangles: tris[start[v] .. start[v + 1]) */
    uint32_t *tris;
};

static int adjacency_build(const uint32_t *ib, size_t ntri, size_t nv, struct adjacency *a)
{
    a->start = calloc(nv + 1, sizeof *a->start);
    a->tris = malloc(3 * ntri * sizeof *a->tris + 1);
    if (!a->start || !a->tris)
        return -ENOMEM;
    for (size_t i = 0; i < 3 * ntri; i++)
        a->start[ib[i] + 1]++;
    for (size_t v = 0; v < nv; v++)
        a->start[v + 1] += a->start[v];
    uint32_t *fill = malloc((nv + 1) * sizeof *fill);
    if (!fill)
        return -ENOMEM;
    memcpy(fill, a->start, (nv + 1) * sizeof *fill);
    for (size_t i = 0; i < 3 * ntri; i++)
        a->tris[fill[ib[i]]++] = (uint32_t)(i / 3);
    free(fill);
    return 0;
}

static void adjacency_free(struct adjacency *a)
{
    free(a->start);
    free(a->tris);
}

static int tipsify(struct out *o, const uint32_t *ib, size_t ntri, size_t nv, unsigned cache)
{
    struct adjacency a;
    int rc = adjacency_build(ib, ntri, nv, &a);
    uint32_t *live = calloc(nv, sizeof *live);
    uint64_t *stamp = calloc(nv, sizeof *stamp);
    uint32_t *dead = malloc(3 * ntri * sizeof *dead + 1);
    uint32_t *cand = malloc(3 * ntri * sizeof *cand + 1);
    bool *done = calloc(ntri + 1, sizeof *done);
    if (rc || !live || !stamp || !dead || !cand || !done) {
        rc = -ENOMEM;
        goto out;
    }
    for (size_t v = 0; v < nv; v++)
        live[v] = a.start[v + 1] - a.start[v];
    size_t ndead = 0, cursor = 0;
    uint64_t time = cache + 1;
    int64_t f = 0;
    while (f >= 0) {
        size_t ncand = 0;
        for (uint32_t k = a.start[f]; k < a.start[f + 1]; k++) {
            uint32_t t = a.tris[k];
            if (done[t])
                continue;
            done[t] = true;
            put(o, ib[3 * t], ib[3 * t + 1], ib[3 * t + 2]);
            for (int j = 0; j < 3; j++) {
                uint32_t v = ib[3 * t + j];
                dead[ndead++] = v;
                cand[ncand++] = v;
                live[v]--;
                if (time - stamp[v] > cache)
                    stamp[v] = time++;
            }
        }
        /* the candidate that stays in the cache longest after its fan */
        int64_t best = -1, prio = -1;
        for (size_t c = 0; c < ncand; c++) {
            uint32_t v = cand[c];
            if (!live[v])
                continue;
            int64_t p = 0;
            if ((int64_t)(time - stamp[v]) + 2 * (int64_t)live[v] <= (int64_t)cache)
                p = (int64_t)(time - stamp[v]);
            if (p > prio) {
                prio = p;
                best = v;
            }
        }
        if (best < 0) {
            while (ndead && best < 0) {
                uint32_t d = dead[--ndead];
                if (live[d])
                    best = d;
            }
            while (best < 0 && cursor < nv) {
                if (live[cursor])
                    best = (int64_t)cursor;
                cursor++;
            }
        }
        f = best;
    }
out:
    adjacency_free(&a);
    free(live);
    free(stamp);
    free(dead);
    free(cand);
    free(done);
    return rc;
}

/* ---- Forsyth ---------------------------------------------------------------- */

#define FORSYTH_CACHE 32

static float forsyth_vertex_score(int pos, uint32_t remaining)
{
    if (!remaining)
        return -1.0f;
    float s = 0.0f;
    if (pos >= 0) {
        if (pos < 3)
            s = 0.75f;
        else
            s = powf(1.0f - (float)(pos - 3) / (float)(FORSYTH_CACHE - 3), 1.5f);
    }
    return s + 2.0f * powf((float)remaining, -0.5f);
}

static int forsyth(struct out *o, const uint32_t *ib, size_t ntri, size_t nv)
{
    struct adjacency a;
    int rc = adjacency_build(ib, ntri, nv, &a);
    uint32_t *live = calloc(nv, sizeof *live);
    int *pos = malloc(nv * sizeof *pos + 1);
    float *vscore = malloc(nv * sizeof *vscore + 1);
    float *tscore = malloc(ntri * sizeof *tscore + 1);
    bool *done = calloc(ntri + 1, sizeof *done);
    if (rc || !live || !pos || !vscore || !tscore || !done) {
        rc = -ENOMEM;
        goto out;
    }
    for (size_t v = 0; v < nv; v++) {
        live[v] = a.start[v + 1] - a.start[v];
        pos[v] = -1;
        vscore[v] = forsyth_vertex_score(-1, live[v]);
    }
    for (size_t t = 0; t < ntri; t++)
        tscore[t] = vscore[ib[3 * t]] + vscore[ib[3 * t + 1]] + vscore[ib[3 * t + 2]];
    uint32_t lru[FORSYTH_CACHE + 3];
    unsigned nlru = 0;
    size_t scan = 0;   /* triangles before it are all emitted */
    for (size_t emitted = 0; emitted < ntri; emitted++) {
        int64_t best = -1;
        float bs = -1e30f;
        for (unsigned c = 0; c < nlru; c++) {
            uint32_t v = lru[c];
            for (uint32_t k = a.start[v]; k < a.start[v + 1]; k++) {
                uint32_t t = a.tris[k];
                if (!done[t] && tscore[t] > bs) {
                    bs = tscore[t];
                    best = t;
                }
            }
        }
        if (best < 0) {
            while (done[scan])
                scan++;
            for (size_t t = scan; t < ntri; t++)
                if (!done[t] && tscore[t] > bs) {
                    bs = tscore[t];
                    best = (int64_t)t;
                }
        }
        uint32_t t = (uint32_t)best;
        done[t] = true;
        put(o, ib[3 * t], ib[3 * t + 1], ib[3 * t + 2]);
        /* the triangle's vertices to the front of the LRU, in order */
        uint32_t nl[FORSYTH_CACHE + 3];
        unsigned m = 0;
        for (int j = 0; j < 3; j++) {
            uint32_t v = ib[3 * t + j];
            live[v]--;
            bool dup = false;
            for (unsigned q = 0; q < m; q++)
                dup |= nl[q] == v;
            if (!dup)
                nl[m++] = v;
        }
        for (unsigned c = 0; c < nlru; c++) {
            bool dup = false;
            for (unsigned q = 0; q < m && !dup; q++)
                dup = nl[q] == lru[c];
            if (!dup)
                nl[m++] = lru[c];
        }
        /* rescore every vertex that was or is in the cache, and its triangles */
        for (unsigned c = 0; c < m; c++)
            pos[nl[c]] = c < FORSYTH_CACHE ? (int)c : -1;
        for (unsigned c = 0; c < m; c++) {
            uint32_t v = nl[c];
            float ns = forsyth_vertex_score(pos[v], live[v]);
            float d = ns - vscore[v];
            vscore[v] = ns;
            if (d != 0.0f)
                for (uint32_t k = a.start[v]; k < a.start[v + 1]; k++)
                    tscore[a.tris[k]] += d;
        }
        nlru = m < FORSYTH_CACHE ? m : FORSYTH_CACHE;
        memcpy(lru, nl, nlru * sizeof *lru);
    }
out:
    adjacency_free(&a);
    free(live);
    free(pos);
    free(vscore);
    free(tscore);
    free(done);
    return rc;
}

/* ---- entry ------------------------------------------------------------------- */

const char *cedar_probe_order_name(enum cedar_probe_order order)
{
    switch (order) {
    case CEDAR_PROBE_OPTIMAL: return "optimal";
    case CEDAR_PROBE_STRIPED: return "striped";
    case CEDAR_PROBE_TIPSIFY: return "tipsify";
    case CEDAR_PROBE_FORSYTH: return "forsyth";
    default: return "?";
    }
}

int cedar_probe_grid_indices(enum cedar_probe_order order, unsigned n, unsigned cache,
                             uint32_t **indices, size_t *count)
{
    *indices = NULL;
    *count = 0;
    if (n < 1 || n > CEDAR_PROBE_MAX_GRID || cache < 3 || cache > CEDAR_PROBE_MAX_CACHE)
        return -EINVAL;
    struct out o = {0};
    if (order == CEDAR_PROBE_OPTIMAL || order == CEDAR_PROBE_STRIPED) {
        striped(&o, n, cache, order == CEDAR_PROBE_OPTIMAL);
    } else if (order == CEDAR_PROBE_TIPSIFY || order == CEDAR_PROBE_FORSYTH) {
        /* the plain row-by-row grid is their input */
        struct out in = {0};
        strip(&in, n, 0, n, cache, false);
        if (in.err) {
            free(in.idx);
            return in.err;
        }
        size_t nv = (size_t)(n + 1) * (n + 1);
        int rc = order == CEDAR_PROBE_TIPSIFY ? tipsify(&o, in.idx, in.n / 3, nv, cache)
                                              : forsyth(&o, in.idx, in.n / 3, nv);
        free(in.idx);
        if (rc)
            o.err = rc;
    } else {
        return -EINVAL;
    }
    if (o.err) {
        free(o.idx);
        return o.err;
    }
    *indices = o.idx;
    *count = o.n;
    return 0;
}
