/* Whole-surface tile and de-tile: one (slice, sample) plane at a time, a
 * micro tile at a time.  Per micro tile the address map is evaluated once per
 * contiguous run (cedar_tile_micro), then each row span of pixels that are
 * adjacent both on screen and in memory is copied whole. */
#include "cedar/tiling.h"

#include <stdlib.h>
#include <string.h>

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

/* dir 0: tiled -> linear, 1: linear -> tiled */
static int copy_plane(const struct cedar_tile_map *m, uint8_t *tiled, size_t tiled_size,
                      uint8_t *linear, size_t stride, unsigned sample, unsigned slice, int dir)
{
    if (m->is_fmask || tiled_size < m->size || sample >= m->samples || slice >= m->slices)
        return -1;
    const unsigned bpe = m->bpe;
    if ((uint64_t)m->width * bpe > stride)
        return -1;

    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
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

    const unsigned span_bytes = m->span_elems * bpe;
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
    if (m->mode == CEDAR_MODE_2D_THIN)
        return copy_2d(m, tiled, linear, stride, sample, slice, run_of, src_off, dst_off, dir);
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

int cedar_detile(const struct cedar_tile_map *m, const void *tiled, size_t tiled_size,
                 void *linear, size_t stride, unsigned sample, unsigned slice)
{
    /* The tiled buffer is only read when dir == 0. */
    return copy_plane(m, (uint8_t *)(uintptr_t)tiled, tiled_size, linear, stride, sample, slice, 0);
}

int cedar_tile(const struct cedar_tile_map *m, void *tiled, size_t tiled_size,
               const void *linear, size_t stride, unsigned sample, unsigned slice)
{
    return copy_plane(m, tiled, tiled_size, (uint8_t *)(uintptr_t)linear, stride, sample, slice, 1);
}
