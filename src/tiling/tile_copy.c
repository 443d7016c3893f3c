/* Whole-surface tile and de-tile: one (slice, sample) plane at a time, a
 * micro tile at a time.  Per micro tile the address map is evaluated once per
 * contiguous run (cedar_tile_micro), then each row span of pixels that are
 * adjacent both on screen and in memory is copied whole. */
#include "cedar/tiling.h"

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
