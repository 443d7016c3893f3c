/* The MSAA allocation as Mesa r600 makes it (r600_texture_create_object():
 * r600_texture_allocate_fmask() then r600_texture_allocate_cmask()): the
 * colour samples at offset 0, the FMask at the colour size aligned to the
 * FMask alignment, the CMask after it at the CMask alignment, all in one
 * buffer; the resolve target is a separate single-sample surface.
 *
 * The resolve target is requested 2D and left to libdrm's fallback.  Mesa's
 * r600_choose_tiling() would already ask for 1D when width or height <= 16;
 * on a Cedar libdrm falls back to 1D for all of those anyway, so the two
 * differ only in the (unused) 2D parameters and the base alignment libdrm
 * keeps after a fallback. */
#include "layout_priv.h"

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
        .mode = CEDAR_MODE_2D_THIN,
        .scanout = req->scanout,
        .fmask = false,
    };
    if (cedar_surface_layout(&rreq, t, &m.resolve, err))
        return -1;
    *out = m;
    return 0;
}
