/* FMask layout, as Mesa r600's r600_texture_get_fmask_info() asks libdrm for it
 * (Mesa src/gallium/drivers/r600/r600_texture.c, through the radeon winsys'
 * radeon_winsys_surface_init(), which skips radeon_surface_best() for FMask):
 *  - a 2D surface of the colour surface's width and height with one sample,
 *    the colour surface's flags plus RADEON_SURF_FMASK;
 *  - 1 byte per pixel for 2 and 4 samples, 4 bytes for 8 (Evergreen and
 *    later; R600/R700 would double it);
 *  - tile split, bank width and macro tile aspect copied from the colour
 *    surface, bank height 4 for 2 and 4 samples, else the colour's;
 *  - FMASK_SLICE.TILE_MAX = pixels / 64 - 1; alignment max(256, libdrm's).
 * RADEON_SURF_FMASK keeps libdrm from falling back to 1D for small sizes. */
#include "layout_priv.h"

#define FMASK_BPE_2_4_SAMPLES 1u
#define FMASK_BPE_8_SAMPLES   4u
#define FMASK_BANKH_2_4_SAMPLES 4u
#define FMASK_MIN_ALIGN 256u

int cedar_fmask_layout(const struct cedar_surface *color, struct cedar_fmask *out,
                       struct cedar_layout_err *err)
{
    struct cedar_surface_req req = {0};
    struct layout_tile_params p;
    struct cedar_fmask f = {0};

    if (!color || !out)
        return layout_fail(err, "no colour surface or no output");
    if (color->samples != 2 && color->samples != 4 && color->samples != 8)
        return layout_fail(err, "an FMask needs 2, 4 or 8 samples, not %u", color->samples);
    if (color->mode != CEDAR_MODE_2D_THIN)
        return layout_fail(err, "an FMask needs a 2D-tiled colour surface");

    req.width = color->width;
    req.height = color->height;
    req.bpe = color->samples == 8 ? FMASK_BPE_8_SAMPLES : FMASK_BPE_2_4_SAMPLES;
    req.samples = 1;
    req.mode = CEDAR_MODE_2D_THIN;
    req.scanout = color->scanout;
    req.fmask = true;

    p.tile_split = color->tile_split;
    p.bankw = color->bankw;
    p.mtilea = color->mtilea;
    p.bankh = color->samples <= 4 ? FMASK_BANKH_2_4_SAMPLES : color->bankh;

    if (layout_check_request(&req, &color->tiling, err))
        return -1;
    if (layout_surface_init(&req, &color->tiling, &p, &f.surf, err)) {
        struct cedar_layout_err inner = {{0}};
        if (err)
            inner = *err;
        return layout_fail(err, "FMask refused by the allocator: %s", inner.msg);
    }
    if (f.surf.alignment < FMASK_MIN_ALIGN)
        f.surf.alignment = FMASK_MIN_ALIGN;
    f.offset = 0;
    f.bank_height = f.surf.bankh;
    f.bank_height_enc = layout_log2(f.bank_height);
    /* r600_texture_get_fmask_info(): nblk_x x nblk_y / 64, minus one unless 0;
     * the same as the FMask surface's own SLICE_TILE_MAX. */
    f.slice_tile_max = f.surf.slice_tile_max;
    *out = f;
    return 0;
}
