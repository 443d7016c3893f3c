/* Mip chains of single-sample Evergreen textures, laid out as libdrm_radeon's
 * radeon_surface_init() does for Evergreen (radeon_surface.c:
 * eg_surface_init_2d / eg_surface_init_1d / r6_surface_init_linear_aligned
 * with mip_minify, surf_minify and eg_surf_minify), which is where Mesa r600
 * takes every level's offset, pitch and mode from:
 *
 *  - level i > 0 has max(1, size >> i) texels per dimension rounded up to a
 *    power of two (the level 0 size is kept as it is);
 *  - linear-aligned levels align the width to max(64, interleave / bpe)
 *    texels, 1D-tiled ones to max(8, interleave / (8 * bpe)) texels and
 *    the height to 8 rows; 2D-tiled ones to the macro tile;
 *  - a 2D level narrower or lower than a macro tile, and every level after
 *    it, is 1D-tiled instead;
 *  - an array's layer count is rounded up to a power of two (libdrm's
 *    radeon_surface_sanity: "array size must be a power of 2");
 *  - the levels follow each other: each holds all its slices (3D) or all
 *    the array's layers, the first mip level starts at level 0's size
 *    rounded up to the surface's alignment (linear / 1D: max(256,
 *    interleave); 2D: max(256, macro tile bytes)), later levels right after
 *    the previous one. */
#include <stdio.h>
#include <string.h>

#include "cedar/layout.h"

static unsigned pow2_ceil(unsigned v)
{
    unsigned p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

static unsigned minify(unsigned size, unsigned level)
{
    unsigned v = size >> level ? size >> level : 1;
    return level ? pow2_ceil(v) : v;
}

static unsigned align_to(unsigned v, unsigned a)
{
    return (v + a - 1) / a * a;
}

static int fail(struct cedar_layout_err *err, const char *msg)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s", msg);
    return -1;
}

int cedar_miptree_layout(const struct cedar_miptree_req *r, struct cedar_miptree *out, struct cedar_layout_err *err)
{
    memset(out, 0, sizeof *out);
    if (!r->width || !r->height || !r->depth || !r->array_size || r->width > 16384 || r->height > 16384 ||
        r->depth > 16384)
        return fail(err, "texture size out of range");
    if (r->last_level >= CEDAR_MAX_MIP_LEVELS)
        return fail(err, "more than 16 mip levels");
    if (r->bpe != 1 && r->bpe != 2 && r->bpe != 4 && r->bpe != 8 && r->bpe != 16)
        return fail(err, "bytes per texel not 1, 2, 4, 8 or 16");
    if (cedar_tiling_check(&r->tiling))
        return fail(err, "not an Evergreen tiling configuration");
    const unsigned gb = r->tiling.group_bytes, bpe = r->bpe;

    /* 2D: micro tile bytes split by the tile split, the macro tile */
    unsigned slice_pt = 1, mtilew = 0, mtileh = 0;
    uint64_t mtileb = 0;
    if (r->mode == CEDAR_MODE_2D_THIN) {
        unsigned tileb = 64 * bpe;
        if (!r->tile_split || !r->bankw || !r->bankh || !r->mtilea)
            return fail(err, "2D tiling parameters missing");
        if (tileb > r->tile_split)
            slice_pt = tileb / r->tile_split;
        tileb /= slice_pt;
        mtilew = 8 * r->bankw * r->tiling.pipes * r->mtilea;
        mtileh = 8 * r->bankh * r->tiling.banks / r->mtilea;
        if (!mtileh)
            return fail(err, "macro tile aspect larger than the banks");
        mtileb = (uint64_t)(mtilew / 8) * (mtileh / 8) * tileb;
    }
    uint64_t alignment = 256;
    if (r->mode == CEDAR_MODE_2D_THIN)
        alignment = mtileb > 256 ? mtileb : 256;
    else if (gb > 256)
        alignment = gb;
    out->alignment = alignment;

    unsigned layers = pow2_ceil(r->array_size);
    enum cedar_array_mode mode = r->mode;
    uint64_t offset = 0;
    for (unsigned i = 0; i <= r->last_level; i++) {
        struct cedar_mip_level *l = &out->level[i];
        l->width = minify(r->width, i);
        l->height = minify(r->height, i);
        l->depth = minify(r->depth, i);
        if (mode == CEDAR_MODE_2D_THIN && (l->width < mtilew || l->height < mtileh))
            mode = CEDAR_MODE_1D_THIN;
        l->mode = mode;
        unsigned xalign, yalign;
        switch (mode) {
        case CEDAR_MODE_2D_THIN:
            xalign = mtilew, yalign = mtileh;
            break;
        case CEDAR_MODE_1D_THIN:
            xalign = gb / (8 * bpe) > 8 ? gb / (8 * bpe) : 8, yalign = 8;
            break;
        default:
            xalign = gb / bpe > 64 ? gb / bpe : 64, yalign = 1;
            break;
        }
        l->pitch = align_to(l->width, xalign);
        l->rows = align_to(l->height, yalign);
        l->offset = offset;
        if (mode == CEDAR_MODE_2D_THIN)
            l->slice_size = (uint64_t)(l->pitch / mtilew) * (l->rows / mtileh) * mtileb * slice_pt;
        else
            l->slice_size = (uint64_t)l->pitch * bpe * l->rows;
        l->slices = l->depth * layers;
        offset += l->slice_size * l->slices;
        out->size = offset;
        if (i == 0)
            offset = (offset + alignment - 1) / alignment * alignment;
    }
    out->levels = r->last_level + 1;
    return 0;
}
