/* CMask layout, as Mesa r600's r600_texture_get_cmask_info() computes it
 * (src/gallium/drivers/r600/r600_texture.c):
 *  - 4 bits per 8x8-pixel tile;
 *  - the CMask cache holds 1024 bits per pipe, so one cache line covers
 *    256 x pipes tiles = 256 x pipes x 64 pixels, laid out as a power-of-two
 *    width (next power of two >= sqrt(pixels)) times the rest; on a 2-pipe
 *    Cedar: 256x128 pixels;
 *  - the requested width/height are aligned to that, the slice is
 *    (pixels x 4 bits / 8) / 64 bytes rounded up to pipes x interleave;
 *  - CMASK_SLICE.TILE_MAX counts 128x128-pixel tiles, minus one;
 *  - alignment max(256, pipes x interleave). */
#include "layout_priv.h"

#define CMASK_BITS_PER_TILE  4u
#define CMASK_CACHE_BITS_PER_PIPE 1024u
#define CMASK_SLICE_TILE_PIXELS (128u * 128u)  /* CB_COLOR*_CMASK_SLICE unit */
#define CMASK_MIN_ALIGN 256u

/* floor(sqrt(n)) by bisection; Mesa takes sqrt() of an exact integer and
 * truncates, which is the same for the sizes here. */
static unsigned isqrt(unsigned n)
{
    unsigned lo = 0, hi = 65536;
    while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        if ((uint64_t)mid * mid <= n)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static unsigned next_pow2(unsigned v)
{
    unsigned p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

int cedar_cmask_layout(const struct cedar_surface *color, struct cedar_cmask *out,
                       struct cedar_layout_err *err)
{
    if (!color || !out)
        return layout_fail(err, "no colour surface or no output");
    if (cedar_tiling_check(&color->tiling))
        return layout_fail(err, "the colour surface carries no valid tiling facts");
    if (color->width < 1 || color->width > LAYOUT_MAX_DIM || color->height < 1 ||
        color->height > LAYOUT_MAX_DIM)
        return layout_fail(err, "colour surface size %ux%u out of range", color->width,
                           color->height);

    const struct cedar_tiling *t = &color->tiling;
    unsigned tiles_per_line = CMASK_CACHE_BITS_PER_PIPE / CMASK_BITS_PER_TILE * t->pipes;
    unsigned pixels_per_line = tiles_per_line * LAYOUT_MICRO_TILE_PIXELS;
    unsigned line_w = next_pow2(isqrt(pixels_per_line));
    unsigned line_h = pixels_per_line / line_w;

    unsigned pitch = (color->width + line_w - 1) / line_w * line_w;
    unsigned height = (color->height + line_h - 1) / line_h * line_h;
    unsigned base_align = t->pipes * t->group_bytes;
    uint64_t pixels = (uint64_t)pitch * height;
    uint64_t slice_bytes = ((pixels * CMASK_BITS_PER_TILE + 7) / 8) / LAYOUT_MICRO_TILE_PIXELS;

    out->cache_width = line_w;
    out->cache_height = line_h;
    out->aligned_width = pitch;
    out->aligned_height = height;
    out->offset = 0;
    out->slice_tile_max = (unsigned)(pixels / CMASK_SLICE_TILE_PIXELS) - 1;
    out->alignment = base_align > CMASK_MIN_ALIGN ? base_align : CMASK_MIN_ALIGN;
    out->size = layout_align64(slice_bytes, base_align);
    return 0;
}
