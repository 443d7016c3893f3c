/* Whole-surface tile and de-tile.  Three paths, fastest first:
 *  - 2D thin where a micro-tile plane fills one pipe-interleave group and
 *    horizontal neighbours sit in adjacent groups (4-byte elements with the
 *    256-byte interleave, 8-byte with 512): the tiled side in address order,
 *    all requested samples in one pass (copy_2d_seq);
 *  - other 2D thin: micro tile by micro tile, addresses from per-coordinate
 *    tables (copy_2d);
 *  - 1D: micro tile by micro tile through cedar_tile_micro.
 * Each copies row spans of pixels that are adjacent both on screen and in
 * memory whole, never one address computation per pixel. */
#include "cedar/tiling.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fixed-size copies compile to a few moves; the span size is one of these. */
static inline void copy_span(uint8_t *d, const uint8_t *s, unsigned n)
{
    switch (n) {
    case 1: *d = *s; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    case 32: memcpy(d, s, 32); break;
    case 64: memcpy(d, s, 64); break;
    default: memcpy(d, s, n); break;
    }
}


/* --- fast path for 2D thin ----------------------------------------------------
 * The map's pieces separate by coordinate (see tile_map.c tiled_addr):
 *  - pipe and bank are XORs of x bits and y bits, so pipe|bank = px ^ py ^ rot
 *    with rot the slice/tile-split rotation;
 *  - the "total" offset is slice/piece part + macro part + tile part + byte;
 *    the first two are multiples of the pipe interleave, so spreading the
 *    total around the pipe/bank bits can be done term by term.
 * A micro tile's run k then sits at xh[mx] + yh[my] + ck[k] + tk[tile][k] with
 * the pipe/bank field (xpb[mx] ^ ypb[my] ^ rotk[k]) << lg_group or'ed in. */

static inline uint64_t spread(const struct cedar_tile_map *m, uint64_t total)
{
    return (total & (m->group_bytes - 1)) |
           (total >> m->lg_group) << (m->lg_group + m->lg_pipes + m->lg_banks);
}

/* pipe | bank << lg_pipes of address `a` */
static inline uint32_t pb_of(const struct cedar_tile_map *m, uint64_t a)
{
    return (uint32_t)(a >> m->lg_group) & ((1u << (m->lg_pipes + m->lg_banks)) - 1);
}

struct plane_tables {
    uint64_t *xh, *yh;
    uint32_t *xpb, *ypb, *xcol, *yrow;
    uint64_t ck[CEDAR_MICRO_RUNS_MAX];
    uint32_t rotk[CEDAR_MICRO_RUNS_MAX];
    uint64_t tk[64][CEDAR_MICRO_RUNS_MAX]; /* tile index (< bankw*bankh <= 64) x run */
    unsigned runs;
};

static int build_tables(const struct cedar_tile_map *m, unsigned sample, unsigned slice,
                        struct plane_tables *t)
{
    unsigned nx = m->width / 8, ny = m->height / 8;
    t->xh = malloc(sizeof(uint64_t) * nx);
    t->yh = malloc(sizeof(uint64_t) * ny);
    t->xpb = malloc(sizeof(uint32_t) * nx);
    t->ypb = malloc(sizeof(uint32_t) * ny);
    t->xcol = malloc(sizeof(uint32_t) * nx);
    t->yrow = malloc(sizeof(uint32_t) * ny);
    if (!t->xh || !t->yh || !t->xpb || !t->ypb || !t->xcol || !t->yrow)
        return -1;
    /* Coordinate parts, taken from the reference map itself: the address of
     * byte 0 of micro tile (mx, 0) / (0, my) in slice 0, piece 0, minus the
     * parts the other coordinate contributes (which are 0 at the origin). */
    for (unsigned mx = 0; mx < nx; mx++) {
        unsigned x = mx * 8;
        uint64_t a = cedar_tile_addr(m, x, 0, 0, 0) - (uint64_t)m->pix_index[0] * m->bpe;
        t->xpb[mx] = pb_of(m, a);
        uint64_t macro = x / m->macro_w;
        t->xh[mx] = spread(m, macro * m->macro_bytes);
        t->xcol[mx] = ((x >> 3) >> m->lg_pipes) & (m->bankw - 1);
    }
    for (unsigned my = 0; my < ny; my++) {
        unsigned y = my * 8;
        uint64_t a = cedar_tile_addr(m, 0, y, 0, 0);
        t->ypb[my] = pb_of(m, a);
        uint64_t macro = (uint64_t)(y / m->macro_h) * m->macros_per_row;
        t->yh[my] = spread(m, macro * m->macro_bytes);
        t->yrow[my] = (y >> 3) & (m->bankh - 1);
    }
    /* Run parts: byte E of the micro tile lies in piece E / piece_bytes. */
    uint32_t plane_bytes = 64u * m->bpe;
    t->runs = plane_bytes / m->run_bytes;
    unsigned rot_slice = (m->banks / 2 - 1) * slice;
    for (unsigned k = 0; k < t->runs; k++) {
        uint32_t E = sample * plane_bytes + k * m->run_bytes;
        uint32_t piece = E / m->piece_bytes, e = E % m->piece_bytes;
        t->ck[k] = spread(m, m->piece_slice_bytes * (piece + (uint64_t)m->pieces * slice));
        t->rotk[k] = ((rot_slice ^ (m->banks / 2 + 1) * piece) & (m->banks - 1)) << m->lg_pipes;
        for (unsigned tile = 0; tile < m->bankw * m->bankh; tile++)
            t->tk[tile][k] = spread(m, (uint64_t)tile * m->piece_bytes + e);
    }
    return 0;
}

static void free_tables(struct plane_tables *t)
{
    free(t->xh);
    free(t->yh);
    free(t->xpb);
    free(t->ypb);
    free(t->xcol);
    free(t->yrow);
}

/* 4-byte elements, displayable order (pixel index x0 x1 y0 x2 y1 y2): row r
 * of the micro tile is 16 bytes at 16*(r&1) + 64*(r>>1) and 16 bytes 32
 * further.  Constant offsets let the compiler emit 32 plain moves. */
static inline __attribute__((always_inline)) void
block_bpe4_disp(uint8_t *lin, size_t stride, uint8_t *til, int dir)
{
    for (unsigned r = 0; r < 8; r++) {
        uint8_t *l = lin + r * stride;
        uint8_t *t = til + 16 * (r & 1) + 64 * (r >> 1);
        if (dir == 0) {
            memcpy(l, t, 16);
            memcpy(l + 16, t + 32, 16);
        } else {
            memcpy(t, l, 16);
            memcpy(t + 32, l + 16, 16);
        }
    }
}


/* Macro tile by macro tile, so that reads stay inside one macro tile's bytes
 * and writes go to macro_h rows at a time. */
static inline __attribute__((always_inline)) void
copy_2d_body(const struct cedar_tile_map *m, const struct plane_tables *t, uint8_t *tiled,
             uint8_t *linear, size_t stride, const uint32_t *run_of, const uint32_t *src_off,
             const size_t *dst_off, unsigned spans, unsigned span_bytes, unsigned runs, int shape,
             int dir)
{
    const unsigned bpe = m->bpe, nx = m->width / 8, ny = m->height / 8;
    const unsigned mw = m->macro_w / 8, mh = m->macro_h / 8;
    const unsigned lg = m->lg_group;
    uint64_t run[CEDAR_MICRO_RUNS_MAX];
    for (unsigned my0 = 0; my0 < ny; my0 += mh)
        for (unsigned mx0 = 0; mx0 < nx; mx0 += mw) {
            for (unsigned my = my0; my < my0 + mh; my++) {
                uint8_t *lrow = linear + (size_t)my * 8 * stride;
                const uint64_t yh = t->yh[my];
                const uint32_t ypb = t->ypb[my], yrow = t->yrow[my] * m->bankw;
                for (unsigned mx = mx0; mx < mx0 + mw; mx++) {
                    const uint64_t h = yh + t->xh[mx];
                    const uint32_t pb = ypb ^ t->xpb[mx];
                    const uint64_t *tk = t->tk[yrow + t->xcol[mx]];
                    for (unsigned k = 0; k < runs; k++)
                        run[k] = (h + t->ck[k] + tk[k]) | (uint64_t)(pb ^ t->rotk[k]) << lg;
                    uint8_t *lblock = lrow + (size_t)mx * 8 * bpe;
                    if (runs == 1 && shape == 1) {
                        block_bpe4_disp(lblock, stride, tiled + run[0], dir);
                    } else if (runs == 1) {
                        uint8_t *tb = tiled + run[0];
                        if (dir == 0)
                            for (unsigned i = 0; i < spans; i++)
                                copy_span(lblock + dst_off[i], tb + src_off[i], span_bytes);
                        else
                            for (unsigned i = 0; i < spans; i++)
                                copy_span(tb + src_off[i], lblock + dst_off[i], span_bytes);
                    } else if (dir == 0) {
                        for (unsigned i = 0; i < spans; i++)
                            copy_span(lblock + dst_off[i], tiled + run[run_of[i]] + src_off[i], span_bytes);
                    } else {
                        for (unsigned i = 0; i < spans; i++)
                            copy_span(tiled + run[run_of[i]] + src_off[i], lblock + dst_off[i], span_bytes);
                    }
                }
            }
        }
}

static int copy_2d(const struct cedar_tile_map *m, uint8_t *tiled, uint8_t *linear, size_t stride,
                   unsigned sample, unsigned slice, const uint32_t *run_of, const uint32_t *src_off,
                   const size_t *dst_off, int dir)
{
    struct plane_tables t;
    memset(&t, 0, sizeof t);
    if (build_tables(m, sample, slice, &t) != 0) {
        free_tables(&t);
        return -1;
    }
    /* The tables must reproduce the reference map: check the plane's corners. */
    unsigned nx = m->width / 8, ny = m->height / 8;
    unsigned cx[2] = {0, nx - 1}, cy[2] = {0, ny - 1};
    for (unsigned i = 0; i < 2; i++)
        for (unsigned j = 0; j < 2; j++) {
            uint64_t ref[CEDAR_MICRO_RUNS_MAX];
            cedar_tile_micro(m, cx[i], cy[j], sample, slice, ref);
            uint64_t h = t.yh[cy[j]] + t.xh[cx[i]];
            uint32_t pb = t.ypb[cy[j]] ^ t.xpb[cx[i]];
            const uint64_t *tk = t.tk[t.yrow[cy[j]] * m->bankw + t.xcol[cx[i]]];
            for (unsigned k = 0; k < t.runs; k++)
                if (((h + t.ck[k] + tk[k]) | (uint64_t)(pb ^ t.rotk[k]) << m->lg_group) != ref[k]) {
                    free_tables(&t);
                    return -1;
                }
        }
    /* Bound: the largest address the tables can form stays inside the surface. */
    uint64_t mx_h = 0, mx_c = 0, mx_t = 0;
    for (unsigned i = 0; i < nx; i++)
        mx_h = t.xh[i] > mx_h ? t.xh[i] : mx_h;
    uint64_t mx_y = 0;
    for (unsigned j = 0; j < ny; j++)
        mx_y = t.yh[j] > mx_y ? t.yh[j] : mx_y;
    for (unsigned k = 0; k < t.runs; k++) {
        mx_c = t.ck[k] > mx_c ? t.ck[k] : mx_c;
        for (unsigned tile = 0; tile < m->bankw * m->bankh; tile++)
            mx_t = t.tk[tile][k] > mx_t ? t.tk[tile][k] : mx_t;
    }
    uint64_t pbmask = ((1ull << (m->lg_pipes + m->lg_banks)) - 1) << m->lg_group;
    if (((mx_h + mx_y + mx_c + mx_t) | pbmask) + m->run_bytes > m->size) {
        free_tables(&t);
        return -1;
    }
    unsigned spans = m->span_count, span_bytes = m->span_elems * m->bpe;
    /* Instantiate the common shapes with constants so the copies unroll:
     * 4-byte displayable (16 spans of 16 bytes), 2- and 1-byte (8 spans of
     * 16 or 8 bytes), 8-byte (32 spans of 16 bytes) in one run. */
    int disp4 = m->bpe == 4 && m->pix_index[1] == 1 && m->pix_index[8] == 4 && m->pix_index[4] == 8;
    if (t.runs == 1 && disp4)
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, 16, 16, 1, 1, dir);
    else if (t.runs == 1 && spans == 16 && span_bytes == 16)
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, 16, 16, 1, 0, dir);
    else if (t.runs == 1 && spans == 8 && span_bytes == 16)
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, 8, 16, 1, 0, dir);
    else if (t.runs == 1 && spans == 8 && span_bytes == 8)
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, 8, 8, 1, 0, dir);
    else if (span_bytes == 16)
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, spans, 16, t.runs, 0, dir);
    else
        copy_2d_body(m, &t, tiled, linear, stride, run_of, src_off, dst_off, spans, span_bytes,
                     t.runs, 0, dir);
    free_tables(&t);
    return 0;
}

/* --- 2D thin in memory order ---------------------------------------------
 * When one run is one whole micro-tile plane (64 * bpe <= pipe interleave and
 * <= tile split), the surface is walked in the order of its bytes: piece-slice by
 * piece-slice, macro tile by macro tile (the macro tiles of a macro-tile row
 * are contiguous), and inside a macro tile group by group.  The tiled side is
 * then read (or written) strictly sequentially, which the hardware
 * prefetchers follow, and a macro-tile row band of the linear image is
 * written.  All samples of a piece can be copied in the same pass (with tile
 * splitting a piece holds several sample planes of a micro tile).
 *
 * Which micro tile sits in a group: inside a macro tile the micro tile at
 * (dx, dy) has tile index T(dx, dy) and pipe/bank pb(dx, dy); pb over the
 * whole surface is an XOR of coordinate bits, so in macro tile (mx0, my0) the
 * group of tile T and pipe/bank q holds the micro tile with
 * pb(dx, dy) = q ^ pb(mx0, my0) ^ rotation.  Both properties are checked on
 * the tables (and the result against cedar_tile_addr) before this path runs.
 *
 * Groups 2i and 2i+1 (pipe bit 0 = x3 ^ y3 on 2+ pipes) normally hold two
 * horizontally adjacent micro tiles; copying them together writes whole
 * 16-pixel rows (a 64-byte cache line at 4 bytes per pixel) at once, which
 * measured 1.4x faster than half-lines (tools/cedar-bench).  The path is
 * only used when that pairing holds (checked in seq_plan_build). */

struct seq_slot {
    uint32_t src;     /* byte offset inside the macro tile of one piece-slice */
    uint32_t t_base;  /* T * pipes * banks: row of the destination table */
    uint16_t q;       /* pipe | bank << lg_pipes of the group */
    uint16_t sample;  /* sample plane inside the piece */
};

struct seq_plan {
    struct seq_slot *slot;
    size_t *doff;      /* [T * PB + local pb] -> offset of the micro tile in the linear block */
    unsigned nslots, samples_per_piece;
    int pairs;         /* slots 2i, 2i+1 are always left/right neighbours */
};

/* Returns 1 if the surface has the shape this path needs and the plan was
 * built, 0 if not (use the general path), -1 on allocation failure. */
static int seq_plan_build(const struct cedar_tile_map *m, const struct plane_tables *t,
                          size_t stride, struct seq_plan *p)
{
    const unsigned plane_bytes = 64u * m->bpe;
    if (m->run_bytes != plane_bytes || m->piece_bytes % plane_bytes || m->group_bytes % m->run_bytes)
        return 0;
    const unsigned nx = m->width / 8, ny = m->height / 8;
    const unsigned mw = m->macro_w / 8, mh = m->macro_h / 8;
    /* XOR-linearity of pipe/bank and the macro/tile split, over every micro tile. */
    if (t->xpb[0] != 0 || t->ypb[0] != 0)
        return 0;
    for (unsigned mx = 0; mx < nx; mx++)
        if (t->xpb[mx] != (t->xpb[mx & ~(mw - 1)] ^ t->xpb[mx & (mw - 1)]) ||
            t->xh[mx] != t->xh[mx & ~(mw - 1)] || t->xcol[mx] != t->xcol[mx & (mw - 1)])
            return 0;
    for (unsigned my = 0; my < ny; my++)
        if (t->ypb[my] != (t->ypb[my & ~(mh - 1)] ^ t->ypb[my & (mh - 1)]) ||
            t->yh[my] != t->yh[my & ~(mh - 1)] || t->yrow[my] != t->yrow[my & (mh - 1)])
            return 0;

    const unsigned pb_bits = m->lg_pipes + m->lg_banks, pbn = 1u << pb_bits;
    const unsigned tiles = m->bankw * m->bankh;
    if ((uint64_t)mw * mh != (uint64_t)tiles * pbn)
        return 0;
    p->samples_per_piece = m->piece_bytes / plane_bytes;
    const unsigned runs_per_group = m->group_bytes / m->run_bytes;
    const uint64_t groups = m->macro_bytes / m->group_bytes;
    p->nslots = (unsigned)(groups * pbn * runs_per_group);
    p->doff = malloc(sizeof(size_t) * tiles * pbn);
    p->slot = malloc(sizeof(struct seq_slot) * p->nslots);
    uint8_t *seen = calloc((size_t)tiles * pbn, 1);
    if (!p->doff || !seen || !p->slot) {
        free(seen);
        return -1;
    }
    /* Destination of every (tile, local pipe/bank); each must occur once. */
    int ok = 1;
    for (unsigned dy = 0; dy < mh && ok; dy++)
        for (unsigned dx = 0; dx < mw && ok; dx++) {
            unsigned idx = (t->yrow[dy] * m->bankw + t->xcol[dx]) * pbn + (t->xpb[dx] ^ t->ypb[dy]);
            if (idx >= tiles * pbn || seen[idx]++)
                ok = 0;
            else
                p->doff[idx] = (size_t)dy * 8 * stride + (size_t)dx * 8 * m->bpe;
        }
    free(seen);
    if (!ok)
        return 0;
    /* Runs of one macro tile of one piece-slice in address order: group row
     * u, then pipe/bank q, then the runs inside the group. */
    unsigned n = 0;
    for (uint64_t u = 0; u < groups; u++)
        for (unsigned q = 0; q < pbn; q++)
            for (unsigned w = 0; w < runs_per_group; w++) {
                uint64_t tot = (u * runs_per_group + w) * m->run_bytes; /* "total" offset */
                struct seq_slot *sl = &p->slot[n++];
                sl->src = (uint32_t)((u << (m->lg_group + pb_bits)) | (uint64_t)q << m->lg_group |
                                     (uint64_t)w * m->run_bytes);
                sl->t_base = (uint32_t)(tot / m->piece_bytes) * pbn;
                sl->q = (uint16_t)q;
                sl->sample = (uint16_t)(tot % m->piece_bytes / plane_bytes);
            }
    /* Pairs: for every XOR constant c, slots 2i and 2i+1 land 8 pixels apart
     * on the same rows, the left one at an even micro-tile column. */
    p->pairs = runs_per_group == 1 && pbn >= 2 && (mw & 1) == 0;
    for (unsigned i = 0; i + 1 < p->nslots && p->pairs; i += 2) {
        const struct seq_slot *a = &p->slot[i], *b = a + 1;
        if (a->t_base != b->t_base || a->sample != b->sample || (a->q ^ b->q) != 1)
            p->pairs = 0;
    }
    for (unsigned idx = 0; idx < tiles * pbn && p->pairs; idx += 2) {
        size_t l = p->doff[idx] < p->doff[idx + 1] ? p->doff[idx] : p->doff[idx + 1];
        size_t r = p->doff[idx] ^ p->doff[idx + 1] ^ l;
        if (r - l != 8u * m->bpe || (l % stride) % (16u * m->bpe) != 0)
            p->pairs = 0;
    }
    return 1;
}

static void seq_plan_free(struct seq_plan *p)
{
    free(p->slot);
    free(p->doff);
}

/* One 16-pixel row of two 4-byte displayable micro tiles: 16 bytes at o and
 * o + 32 of each. */
static inline __attribute__((always_inline)) void
pair_row_bpe4(uint8_t *l, uint8_t *ta, uint8_t *tb, unsigned o, int dir)
{
    if (dir == 0) {
        memcpy(l, ta + o, 16);
        memcpy(l + 16, ta + o + 32, 16);
        memcpy(l + 32, tb + o, 16);
        memcpy(l + 48, tb + o + 32, 16);
    } else {
        memcpy(ta + o, l, 16);
        memcpy(ta + o + 32, l + 16, 16);
        memcpy(tb + o, l + 32, 16);
        memcpy(tb + o + 32, l + 48, 16);
    }
}

/* Two horizontally adjacent micro tiles (left at ta, right at tb), row by
 * row so that each linear row segment is written in one go. */
static inline __attribute__((always_inline)) void
seq_pair(uint8_t *lb, size_t stride, uint8_t *ta, uint8_t *tb, unsigned bpe,
         const uint32_t *src_off, const size_t *dst_off, unsigned spans, unsigned span_bytes,
         int shape, int dir)
{
    if (shape == 1) {
        /* 4-byte displayable: row r of a micro tile is 16 bytes at
         * 16*(r&1) + 64*(r>>1) and 16 bytes 32 further (see block_bpe4_disp).
         * Spelled out: GCC 12 keeps a loop here, with spills, 12% slower. */
        pair_row_bpe4(lb, ta, tb, 0, dir);
        pair_row_bpe4(lb + stride, ta, tb, 16, dir);
        pair_row_bpe4(lb + 2 * stride, ta, tb, 64, dir);
        pair_row_bpe4(lb + 3 * stride, ta, tb, 80, dir);
        pair_row_bpe4(lb + 4 * stride, ta, tb, 128, dir);
        pair_row_bpe4(lb + 5 * stride, ta, tb, 144, dir);
        pair_row_bpe4(lb + 6 * stride, ta, tb, 192, dir);
        pair_row_bpe4(lb + 7 * stride, ta, tb, 208, dir);
        return;
    }
    const unsigned per_row = spans / 8;
    uint8_t *lr = lb + 8 * bpe;
    for (unsigned k0 = 0; k0 < spans; k0 += per_row) {
        if (dir == 0) {
            for (unsigned k = k0; k < k0 + per_row; k++)
                copy_span(lb + dst_off[k], ta + src_off[k], span_bytes);
            for (unsigned k = k0; k < k0 + per_row; k++)
                copy_span(lr + dst_off[k], tb + src_off[k], span_bytes);
        } else {
            for (unsigned k = k0; k < k0 + per_row; k++)
                copy_span(ta + src_off[k], lb + dst_off[k], span_bytes);
            for (unsigned k = k0; k < k0 + per_row; k++)
                copy_span(tb + src_off[k], lr + dst_off[k], span_bytes);
        }
    }
}

static inline __attribute__((always_inline)) void
seq_body(const struct cedar_tile_map *m, const struct plane_tables *t, const struct seq_plan *p,
         uint8_t *tiled, uint8_t *const *plane, size_t stride, unsigned slice,
         const uint32_t *src_off, const size_t *dst_off, unsigned spans, unsigned span_bytes,
         int shape, int dir, unsigned my_lo, unsigned my_hi)
{
    const unsigned nx = m->width / 8, bpe = m->bpe;
    const unsigned mw = m->macro_w / 8, mh = m->macro_h / 8, spp = p->samples_per_piece;
    const unsigned rot_slice = (m->banks / 2 - 1) * slice;
    const struct seq_slot *slot = p->slot;
    const size_t *doff = p->doff;
    for (unsigned piece = 0; piece < m->pieces; piece++) {
        uint8_t *const *pl = plane + piece * spp;
        int any = 0;
        for (unsigned r = 0; r < spp; r++)
            any |= pl[r] != NULL;
        if (!any)
            continue;
        const uint64_t ck = spread(m, m->piece_slice_bytes * (piece + (uint64_t)m->pieces * slice));
        const uint32_t rot = ((rot_slice ^ (m->banks / 2 + 1) * piece) & (m->banks - 1)) << m->lg_pipes;
        for (unsigned my0 = my_lo; my0 < my_hi; my0 += mh)
            for (unsigned mx0 = 0; mx0 < nx; mx0 += mw) {
                uint8_t *src = tiled + ck + t->yh[my0] + t->xh[mx0];
                const uint32_t c = t->xpb[mx0] ^ t->ypb[my0] ^ rot;
                const size_t lbase = (size_t)my0 * 8 * stride + (size_t)mx0 * 8 * bpe;
                for (unsigned i = 0; i < p->nslots; i += 2) {
                    const struct seq_slot *a = &slot[i];
                    uint8_t *lin = pl[a->sample];
                    if (!lin)
                        continue;
                    size_t da = doff[a->t_base + (a->q ^ c)];
                    size_t db = doff[a[1].t_base + (a[1].q ^ c)];
                    uint8_t *ta = src + a->src, *tb = src + a[1].src;
                    if (db < da) {
                        uint8_t *tt = ta;
                        ta = tb;
                        tb = tt;
                        da = db;
                    }
                    seq_pair(lin + lbase + da, stride, ta, tb, bpe, src_off, dst_off, spans,
                             span_bytes, shape, dir);
                }
            }
    }
}

/* One copy_2d_seq call's arguments, for its threads. */
struct seq_job {
    const struct cedar_tile_map *m;
    const struct plane_tables *t;
    const struct seq_plan *p;
    uint8_t *tiled;
    uint8_t *const *plane;
    size_t stride;
    unsigned slice;
    const uint32_t *src_off;
    const size_t *dst_off;
    int dir;
    unsigned my_lo, my_hi;   /* micro-tile rows, multiples of the macro tile's */
};

static void seq_job_run(const struct seq_job *j)
{
    const struct cedar_tile_map *m = j->m;
    const unsigned spans = m->span_count, span_bytes = m->span_elems * m->bpe;
    const int disp4 = m->bpe == 4 && m->pix_index[1] == 1 && m->pix_index[8] == 4 && m->pix_index[4] == 8;
    /* Constant shapes so the copies unroll (see copy_2d). */
    if (disp4)
        seq_body(m, j->t, j->p, j->tiled, j->plane, j->stride, j->slice, j->src_off, j->dst_off, 16, 16, 1,
                 j->dir, j->my_lo, j->my_hi);
    else if (spans == 32 && span_bytes == 16)
        seq_body(m, j->t, j->p, j->tiled, j->plane, j->stride, j->slice, j->src_off, j->dst_off, 32, 16, 0,
                 j->dir, j->my_lo, j->my_hi);
    else
        seq_body(m, j->t, j->p, j->tiled, j->plane, j->stride, j->slice, j->src_off, j->dst_off, spans,
                 span_bytes, 0, j->dir, j->my_lo, j->my_hi);
}

static void *seq_job_thread(void *arg)
{
    seq_job_run(arg);
    return NULL;
}

/* Copies of at least this many bytes are split over threads: each takes a
 * band of macro-tile rows, so they write disjoint bytes on both sides. */
#define THREAD_MIN_BYTES (16u << 20)
#define MAX_COPY_THREADS 4

static unsigned copy_threads(size_t bytes)
{
    if (bytes < THREAD_MIN_BYTES)
        return 1;
    static long online; /* glibc reads /sys for it: once per process */
    long n = __atomic_load_n(&online, __ATOMIC_RELAXED);
    if (!n) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        __atomic_store_n(&online, n, __ATOMIC_RELAXED);
    }
    return n < 1 ? 1u : n > MAX_COPY_THREADS ? MAX_COPY_THREADS : (unsigned)n;
}

/* Runs job over its rows, on up to copy_threads(bytes) threads (a band
 * whose thread cannot start runs here: the same bytes, later). */
static void seq_job_split(const struct seq_job *job, unsigned mh, size_t bytes)
{
    unsigned bands = (job->my_hi - job->my_lo + mh - 1) / mh, n = copy_threads(bytes);
    if (n > bands)
        n = bands;
    if (n < 2) {
        seq_job_run(job);
        return;
    }
    struct seq_job part[MAX_COPY_THREADS];
    pthread_t tid[MAX_COPY_THREADS];
    bool started[MAX_COPY_THREADS] = {false};
    for (unsigned i = 0; i < n; i++) {
        part[i] = *job;
        part[i].my_lo = job->my_lo + bands * i / n * mh;
        part[i].my_hi = i + 1 == n ? job->my_hi : job->my_lo + bands * (i + 1) / n * mh;
    }
    for (unsigned i = 1; i < n; i++)
        started[i] = pthread_create(&tid[i], NULL, seq_job_thread, &part[i]) == 0;
    seq_job_run(&part[0]);
    for (unsigned i = 1; i < n; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            seq_job_run(&part[i]);
    }
}

/* Copies the sample planes of `slice` whose plane[] entry is non-NULL.
 * Returns 1 when done, 0 when the surface needs the general path, -1 on
 * failure. */
static int copy_2d_seq(const struct cedar_tile_map *m, uint8_t *tiled, uint8_t *const *plane,
                       size_t stride, unsigned slice, const uint32_t *src_off,
                       const size_t *dst_off, int dir)
{
    /* Pairs need one micro-tile plane per group (see seq_plan_build). */
    if (m->run_bytes != 64u * m->bpe || m->run_bytes != m->group_bytes)
        return 0;
    struct plane_tables t;
    memset(&t, 0, sizeof t);
    struct seq_plan p;
    memset(&p, 0, sizeof p);
    int rc = build_tables(m, 0, 0, &t) != 0 ? -1 : seq_plan_build(m, &t, stride, &p);
    /* Without pairs (1- and 2-byte elements: several micro tiles per group)
     * this order writes quarter and half cache lines and measured slower
     * than copy_2d (1280x768: 5.8 vs 10 GB/s at 1 byte, 11.5 vs 18 at 2). */
    if (rc == 1 && !p.pairs)
        rc = 0;
    if (rc != 1)
        goto out;
    /* Cross-check against the reference map: the first pixel of every slot
     * of the first and the last macro tile of every piece-slice. */
    const unsigned nx = m->width / 8, ny = m->height / 8, mw = m->macro_w / 8, mh = m->macro_h / 8;
    const unsigned spp = p.samples_per_piece, rot_slice = (m->banks / 2 - 1) * slice;
    const unsigned px0 = m->pix_xy[0] & 7, py0 = m->pix_xy[0] >> 3;
    for (unsigned piece = 0; piece < m->pieces && rc == 1; piece++) {
        const uint64_t ck = spread(m, m->piece_slice_bytes * (piece + (uint64_t)m->pieces * slice));
        const uint32_t rot = ((rot_slice ^ (m->banks / 2 + 1) * piece) & (m->banks - 1)) << m->lg_pipes;
        const unsigned corner[2][2] = {{0, 0}, {nx - mw, ny - mh}};
        for (unsigned c = 0; c < 2 && rc == 1; c++) {
            const unsigned mx0 = corner[c][0], my0 = corner[c][1];
            const uint64_t base = ck + t.yh[my0] + t.xh[mx0];
            const uint32_t cc = t.xpb[mx0] ^ t.ypb[my0] ^ rot;
            for (unsigned i = 0; i < p.nslots; i++) {
                const struct seq_slot *sl = &p.slot[i];
                size_t d = p.doff[sl->t_base + (sl->q ^ cc)];
                unsigned dy = (unsigned)(d / stride / 8), dx = (unsigned)(d % stride / m->bpe / 8);
                unsigned x = (mx0 + dx) * 8 + px0, y = (my0 + dy) * 8 + py0;
                if (cedar_tile_addr(m, x, y, piece * spp + sl->sample, slice) != base + sl->src) {
                    rc = 0; /* not the map: leave it to the general path */
                    break;
                }
            }
        }
    }
    /* Bound: the largest source offset the tables can form. */
    if (rc == 1) {
        uint64_t mx_h = 0, mx_y = 0, mx_s = 0;
        for (unsigned i = 0; i < nx; i++)
            mx_h = t.xh[i] > mx_h ? t.xh[i] : mx_h;
        for (unsigned j = 0; j < ny; j++)
            mx_y = t.yh[j] > mx_y ? t.yh[j] : mx_y;
        for (unsigned i = 0; i < p.nslots; i++)
            mx_s = p.slot[i].src > mx_s ? p.slot[i].src : mx_s;
        uint64_t ck_max = spread(m, m->piece_slice_bytes * (m->pieces - 1 + (uint64_t)m->pieces * slice));
        if (ck_max + mx_h + mx_y + mx_s + m->run_bytes > m->size)
            rc = 0;
    }
    if (rc == 1) {
        const struct seq_job job = {m, &t, &p, tiled, plane, stride, slice, src_off, dst_off, dir, 0, ny};
        size_t planes = 0;
        for (unsigned i = 0; i < 8; i++)
            planes += plane[i] != NULL;
        seq_job_split(&job, mh, planes * m->height * (size_t)m->width * m->bpe);
    }
out:
    seq_plan_free(&p);
    free_tables(&t);
    return rc;
}

/* The general paths for one (slice, sample) plane: 2D thin through the
 * per-coordinate tables, 1D through cedar_tile_micro. */
static int copy_plane_general(const struct cedar_tile_map *m, uint8_t *tiled, size_t tiled_size,
                              uint8_t *linear, size_t stride, unsigned sample, unsigned slice,
                              const uint32_t *run_of, const uint32_t *src_off,
                              const size_t *dst_off, int dir)
{
    if (m->mode == CEDAR_MODE_2D_THIN)
        return copy_2d(m, tiled, linear, stride, sample, slice, run_of, src_off, dst_off, dir);
    const unsigned bpe = m->bpe, spans = m->span_count, span_bytes = m->span_elems * bpe;
    const uint64_t limit = tiled_size - m->run_bytes;
    uint64_t run[CEDAR_MICRO_RUNS_MAX];
    for (unsigned my = 0; my < m->height / 8; my++) {
        uint8_t *lrow = linear + (size_t)my * 8 * stride;
        for (unsigned mx = 0; mx < m->width / 8; mx++) {
            unsigned n = cedar_tile_micro(m, mx, my, sample, slice, run);
            for (unsigned r = 0; r < n; r++)
                if (run[r] > limit)
                    return -1; /* cannot happen: the map stays inside m->size */
            uint8_t *lblock = lrow + (size_t)mx * 8 * bpe;
            if (dir == 0) {
                for (unsigned k = 0; k < spans; k++)
                    copy_span(lblock + dst_off[k], tiled + run[run_of[k]] + src_off[k], span_bytes);
            } else {
                for (unsigned k = 0; k < spans; k++)
                    copy_span(tiled + run[run_of[k]] + src_off[k], lblock + dst_off[k], span_bytes);
            }
        }
    }
    return 0;
}

/* Samples first .. first+count-1 of `slice`; sample first+i goes to/from
 * linear + i * plane_stride.  dir 0: tiled -> linear, 1: linear -> tiled. */
static int copy_samples(const struct cedar_tile_map *m, uint8_t *tiled, size_t tiled_size,
                        uint8_t *linear, size_t stride, size_t plane_stride, unsigned first,
                        unsigned count, unsigned slice, int dir)
{
    if (m->is_fmask || m->depth_order || tiled_size < m->size || slice >= m->slices || count == 0 ||
        first >= m->samples || count > m->samples - first)
        return -1;
    const unsigned bpe = m->bpe;
    if ((uint64_t)m->width * bpe > stride)
        return -1;
    /* Planes must not overlap (and their offsets must not wrap). */
    if (count > 1 && (plane_stride / stride < m->height || plane_stride > SIZE_MAX / count))
        return -1;

    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) { /* one sample only (tile_map.c) */
        size_t row = (size_t)m->width * bpe;
        for (unsigned y = 0; y < m->height; y++) {
            uint8_t *t = tiled + cedar_tile_addr(m, 0, y, 0, slice);
            uint8_t *l = linear + (size_t)y * stride;
            if (dir == 0)
                memcpy(l, t, row);
            else
                memcpy(t, l, row);
        }
        return 0;
    }

    const unsigned per_run = m->run_bytes / bpe;
    const unsigned run_shift = __builtin_ctz(per_run);
    const unsigned spans = m->span_count;
    /* Byte offset of each span inside its run and inside the linear block. */
    uint32_t run_of[64], src_off[64];
    size_t dst_off[64];
    for (unsigned k = 0; k < spans; k++) {
        unsigned idx = m->span_index[k], xy = m->span_xy[k];
        run_of[k] = idx >> run_shift;
        src_off[k] = (idx & (per_run - 1)) * bpe;
        dst_off[k] = (size_t)(xy >> 3) * stride + (size_t)(xy & 7) * bpe;
    }
    if (m->mode == CEDAR_MODE_2D_THIN) {
        uint8_t *plane[8] = {NULL}; /* samples <= 8 (tile_map.c) */
        for (unsigned i = 0; i < count; i++)
            plane[first + i] = linear + i * plane_stride;
        int rc = copy_2d_seq(m, tiled, plane, stride, slice, src_off, dst_off, dir);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
    }
    for (unsigned i = 0; i < count; i++)
        if (copy_plane_general(m, tiled, tiled_size, linear + i * plane_stride, stride, first + i,
                               slice, run_of, src_off, dst_off, dir) != 0)
            return -1;
    return 0;
}

int cedar_detile(const struct cedar_tile_map *m, const void *tiled, size_t tiled_size,
                 void *linear, size_t stride, unsigned sample, unsigned slice)
{
    /* The tiled buffer is only read when dir == 0. */
    return copy_samples(m, (uint8_t *)(uintptr_t)tiled, tiled_size, linear, stride, 0, sample, 1,
                        slice, 0);
}

int cedar_tile(const struct cedar_tile_map *m, void *tiled, size_t tiled_size,
               const void *linear, size_t stride, unsigned sample, unsigned slice)
{
    return copy_samples(m, tiled, tiled_size, (uint8_t *)(uintptr_t)linear, stride, 0, sample, 1,
                        slice, 1);
}

int cedar_detile_samples(const struct cedar_tile_map *m, const void *tiled, size_t tiled_size,
                         void *linear, size_t stride, size_t plane_stride, unsigned slice)
{
    return copy_samples(m, (uint8_t *)(uintptr_t)tiled, tiled_size, linear, stride, plane_stride,
                        0, m->samples, slice, 0);
}

int cedar_tile_samples(const struct cedar_tile_map *m, void *tiled, size_t tiled_size,
                       const void *linear, size_t stride, size_t plane_stride, unsigned slice)
{
    return copy_samples(m, tiled, tiled_size, (uint8_t *)(uintptr_t)linear, stride, plane_stride,
                        0, m->samples, slice, 1);
}
