/* The MSAA allocation as Mesa r600 makes it (r600_texture_create_object():
 * r600_texture_allocate_fmask() then r600_texture_allocate_cmask()): the
 * colour samples at offset 0, the FMask at the colour size aligned to the
 * FMask alignment, the CMask after it at the CMask alignment, all in one
 * buffer; the resolve target is a separate single-sample surface. */
#include "layout_priv.h"

/* r600_choose_tiling(): "Make small textures 1D tiled." */
#define MESA_SMALL_TEXTURE_DIM 16u

int cedar_msaa_layout(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                      struct cedar_msaa_layout *out, struct cedar_layout_err *err)
{
    struct cedar_msaa_layout m = {0};
    struct cedar_surface_req creq;

    if (!req || !out)
        return layout_fail(err, "no request or no output");
    creq = *req;
    /* Mesa never makes an MSAA surface scanout (r600_init_surface() asserts
     * it); the flag belongs to the resolve target. */
    if (req->samples > 1)
        creq.scanout = false;
    if (cedar_surface_layout(&creq, t, &m.color, err))
        return -1;

    if (cedar_cmask_layout(&m.color, &m.cmask, err))
        return -1;

    if (req->samples == 1) {
        m.total_size = m.color.size;
        *out = m;
        return 0;
    }

    if (cedar_fmask_layout(&m.color, &m.fmask, err))
        return -1;
    m.fmask.offset = layout_align64(m.color.size, m.fmask.surf.alignment);
    uint64_t end = m.fmask.offset + m.fmask.surf.size;
    m.cmask.offset = layout_align64(end, m.cmask.alignment);
    m.total_size = m.cmask.offset + m.cmask.size;

    struct cedar_surface_req rreq = {
        .width = req->width,
        .height = req->height,
        .bpe = req->bpe,
        .samples = 1,
        .mode = (req->width <= MESA_SMALL_TEXTURE_DIM || req->height <= MESA_SMALL_TEXTURE_DIM)
                    ? CEDAR_MODE_1D_THIN
                    : CEDAR_MODE_2D_THIN,
        .scanout = req->scanout,
        .fmask = false,
    };
    if (cedar_surface_layout(&rreq, t, &m.resolve, err))
        return -1;
    *out = m;
    return 0;
}
