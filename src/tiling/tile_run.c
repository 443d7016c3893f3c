/* Runs of elements in row order <-> a tiled surface: what the asynchronous
 * DMA engine's L2T / T2L copies and tiled writes move (count elements from
 * (x, y) on, the element after the end of a row being the first of the
 * next).  Micro tile by micro tile: one cedar_tile_micro per micro tile the
 * run touches, then the row spans of that tile inside the run, each copied
 * whole (see cedar_tile_micro and the span fields of the map). */
#include "cedar/tiling.h"

#include <stdbool.h>
#include <string.h>

static unsigned min_u(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

static unsigned max_u(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

/* Element by element, in run order: a run whose linear side lies in the
 * surface's own bytes then gives what the engine's element order gives.
 * A micro tile's runs serve its elements until the run leaves it. */
static void copy_elements(const struct cedar_tile_map *m, uint8_t *tiled, uint8_t *lin, unsigned slice,
                          uint64_t first, uint64_t n, bool to_tiled)
{
    const unsigned W = m->width, bpe = m->bpe, per_run = m->run_bytes / bpe;
    uint64_t run[CEDAR_MICRO_RUNS_MAX];
    uint64_t held = UINT64_MAX;   /* the micro tile run[] is of: (y / 8) * (W / 8) + x / 8 */
    for (uint64_t e = 0; e < n; e++) {
        const uint64_t at = first + e;
        const unsigned x = (unsigned)(at % W), y = (unsigned)(at / W);
        uint64_t off;
        if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
            off = cedar_tile_addr(m, x, y, 0, slice);
        } else {
            const uint64_t tile = (uint64_t)(y / 8) * (W / 8) + x / 8;
            if (tile != held) {
                cedar_tile_micro(m, x / 8, y / 8, 0, slice, run);
                held = tile;
            }
            const unsigned i = m->pix_index[(y & 7) * 8 + (x & 7)];
            off = run[i / per_run] + (uint64_t)(i % per_run) * bpe;
        }
        if (to_tiled)
            memmove(tiled + off, lin + e * bpe, bpe);
        else
            memmove(lin + e * bpe, tiled + off, bpe);
    }
}

static uint64_t copy_run(const struct cedar_tile_map *m, uint8_t *tiled, uint8_t *lin, unsigned slice,
                         uint64_t first, uint64_t count, bool to_tiled)
{
    if (m->is_fmask || m->depth_order || m->samples != 1 || slice >= m->slices)
        return 0;
    const uint64_t plane = (uint64_t)m->width * m->height;
    if (first >= plane || count == 0)
        return 0;
    const uint64_t n = count < plane - first ? count : plane - first;
    const unsigned bpe = m->bpe;
    /* the run reads or writes only its slice's bytes */
    const uintptr_t tb = (uintptr_t)tiled + slice * m->slice_size, lb = (uintptr_t)lin;
    if (lb < tb + m->slice_size && tb < lb + n * bpe) {
        copy_elements(m, tiled, lin, slice, first, n, to_tiled);
        return n;
    }
    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
        uint8_t *t = tiled + cedar_tile_addr(m, (unsigned)(first % m->width), (unsigned)(first / m->width), 0, slice);
        memcpy(to_tiled ? t : lin, to_tiled ? lin : t, n * bpe);
        return n;
    }
    /* The run covers row y0 from x0, whole rows, then row y1 up to x1. */
    const unsigned W = m->width, span = m->span_elems, per_run = m->run_bytes / bpe;
    const uint64_t last = first + n - 1;
    const unsigned y0 = (unsigned)(first / W), x0 = (unsigned)(first % W);
    const unsigned y1 = (unsigned)(last / W), x1 = (unsigned)(last % W) + 1;
    for (unsigned my = y0 / 8; my <= y1 / 8; my++) {
        const unsigned ya = max_u(y0, my * 8), yb = min_u(y1, my * 8 + 7);
        unsigned mx_lo = 0, mx_hi = W / 8 - 1;
        if (ya == yb) {   /* one row of this band: only its micro tiles */
            mx_lo = (ya == y0 ? x0 : 0) / 8;
            mx_hi = ((ya == y1 ? x1 : W) - 1) / 8;
        }
        for (unsigned mx = mx_lo; mx <= mx_hi; mx++) {
            uint64_t run[CEDAR_MICRO_RUNS_MAX];
            bool have_runs = false;
            for (unsigned y = ya; y <= yb; y++) {
                const unsigned a = max_u(y == y0 ? x0 : 0, mx * 8), b = min_u(y == y1 ? x1 : W, mx * 8 + 8);
                if (a >= b)
                    continue;
                if (!have_runs) {
                    cedar_tile_micro(m, mx, my, 0, slice, run);
                    have_runs = true;
                }
                uint8_t *l = lin + ((uint64_t)y * W + a - first) * bpe;
                for (unsigned x = a; x < b;) {
                    /* pixels x .. e - 1: one span, adjacent in the tile's bytes */
                    const unsigned e = min_u(b, (x | (span - 1)) + 1);
                    const unsigned i = m->pix_index[(y & 7) * 8 + (x & 7)];
                    uint8_t *t = tiled + run[i / per_run] + (uint64_t)(i % per_run) * bpe;
                    const size_t len = (size_t)(e - x) * bpe;
                    if (to_tiled)
                        memcpy(t, l, len);
                    else
                        memcpy(l, t, len);
                    l += len;
                    x = e;
                }
            }
        }
    }
    return n;
}

uint64_t cedar_tile_run(const struct cedar_tile_map *m, void *tiled, const void *linear, unsigned slice,
                        uint64_t first, uint64_t count)
{
    return copy_run(m, tiled, (uint8_t *)(uintptr_t)linear, slice, first, count, true);
}

uint64_t cedar_detile_run(const struct cedar_tile_map *m, const void *tiled, void *linear, unsigned slice,
                          uint64_t first, uint64_t count)
{
    return copy_run(m, (uint8_t *)(uintptr_t)tiled, linear, slice, first, count, false);
}
