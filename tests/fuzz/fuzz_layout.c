/* The layout calculator (cedar_msaa_layout, cedar_surface_layout) on any
 * request and any RADEON_INFO_TILING_CONFIG value.  Besides not crashing:
 *  - a refusal says why in one line;
 *  - a layout covers the request (aligned size >= requested, the mode is
 *    the requested one or the documented 2D -> 1D fallback, MSAA stays
 *    2D), its size holds every sample of every aligned pixel and the
 *    register encodings decode back to it;
 *  - the address map can be built for every surface made (colour, FMask,
 *    resolve) and addresses no byte past the surface;
 *  - the MSAA buffer holds colour, FMask and CMask in that order, each at
 *    its alignment, without overlap.
 * Input: the tiling config (32 bits), width and height (16 bits each), then
 * bytes for bpe, samples, mode and flags; bit 7 of the last one asks for raw
 * 8-bit bpe / samples / mode values instead of the valid ones. */
#include <stdbool.h>

#include "cedar/layout.h"
#include "cedar/tiling.h"
#include "fuzz_util.h"

static void check_map(const struct cedar_surface *s, const char *what)
{
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    FUZZ_CHECK(cedar_tile_map_init(&m, s, NULL, &err) == 0, "%s: no address map: %s", what, err.msg);
    FUZZ_CHECK(m.size <= s->size, "%s: the map addresses %llu bytes of a %llu-byte surface", what,
               (unsigned long long)m.size, (unsigned long long)s->size);
    /* the far corner's last sample */
    uint64_t a = cedar_tile_addr(&m, m.width - 1, m.height - 1, m.samples - 1, 0);
    FUZZ_CHECK(a + m.bpe <= s->size, "%s: the last element past the surface", what);
}

static void check_surface(const struct cedar_surface_req *req, const struct cedar_surface *s, const char *what)
{
    FUZZ_CHECK(s->width == req->width && s->height == req->height && s->bpe == req->bpe &&
                   s->samples == req->samples,
               "%s: the request's fields changed", what);
    FUZZ_CHECK(s->mode == req->mode || (req->mode == CEDAR_MODE_2D_THIN && s->mode == CEDAR_MODE_1D_THIN),
               "%s: mode %d for a request of mode %d", what, s->mode, req->mode);
    FUZZ_CHECK(s->samples == 1 || s->mode == CEDAR_MODE_2D_THIN, "%s: MSAA not 2D", what);
    FUZZ_CHECK(s->aligned_width >= s->width && s->aligned_height >= s->height, "%s: aligned size smaller", what);
    FUZZ_CHECK(s->aligned_width % 8 == 0 && (s->mode == CEDAR_MODE_LINEAR_ALIGNED || s->aligned_height % 8 == 0),
               "%s: %ux%u not whole micro tiles", what, s->aligned_width, s->aligned_height);
    FUZZ_CHECK(s->size >= (uint64_t)s->aligned_width * s->aligned_height * s->bpe * s->samples,
               "%s: %llu bytes for %ux%u x %u B x %u samples", what, (unsigned long long)s->size, s->aligned_width,
               s->aligned_height, s->bpe, s->samples);
    FUZZ_CHECK(s->pitch_tile_max + 1 == s->aligned_width / 8, "%s: PITCH_TILE_MAX", what);
    FUZZ_CHECK((uint64_t)s->slice_tile_max + 1 == (uint64_t)s->aligned_width * s->aligned_height / 64,
               "%s: SLICE_TILE_MAX", what);
    FUZZ_CHECK(64u << s->tile_split_enc == s->tile_split && 1u << s->bankw_enc == s->bankw &&
                   1u << s->bankh_enc == s->bankh && 1u << s->mtilea_enc == s->mtilea &&
                   2u << s->num_banks_enc == s->tiling.banks,
               "%s: ATTRIB encodings", what);
    FUZZ_CHECK(s->alignment && !(s->alignment & (s->alignment - 1)), "%s: alignment %llu", what,
               (unsigned long long)s->alignment);
    check_map(s, what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned bpe[] = { 1, 2, 4, 8, 16 }, samples[] = { 1, 2, 4, 8 };
    struct fuzz_in in = { data, size };
    uint32_t config = fuzz_u32(&in);
    struct cedar_surface_req req = { .width = fuzz_u16(&in), .height = fuzz_u16(&in) };
    uint8_t b = fuzz_u8(&in), sm = fuzz_u8(&in), mode = fuzz_u8(&in), f = fuzz_u8(&in);
    if (f & 0x80) {
        req.bpe = b;
        req.samples = sm;
        req.mode = (enum cedar_array_mode)mode;
    } else {
        req.bpe = bpe[b % 5];
        req.samples = samples[sm % 4];
        req.mode = (enum cedar_array_mode)(mode % 3);
    }
    req.scanout = f & 1;
    req.fmask = f & 2;
    struct cedar_tiling t = { 3, 3, 3, 3 };
    if (cedar_tiling_from_config(config, &t)) {
        FUZZ_CHECK(t.pipes == 3 && t.banks == 3 && t.group_bytes == 3 && t.row_bytes == 3,
                   "a refused config 0x%X changed the facts", config);
        return 0;
    }
    FUZZ_CHECK(cedar_tiling_check(&t) == 0, "config 0x%X decodes to facts cedar_tiling_check refuses", config);
    struct cedar_layout_err err;
    struct cedar_surface s;
    if (cedar_surface_layout(&req, &t, &s, &err) == 0)
        check_surface(&req, &s, "surface");
    else
        fuzz_check_line("surface refusal", err.msg);
    if (req.fmask)
        return 0;
    struct cedar_msaa_layout m;
    if (cedar_msaa_layout(&req, &t, &m, &err)) {
        fuzz_check_line("MSAA refusal", err.msg);
        return 0;
    }
    check_surface(&req, &m.color, "colour");
    FUZZ_CHECK(m.cmask.size > 0 && m.cmask.alignment && m.cmask.offset % m.cmask.alignment == 0, "CMask placement");
    if (req.samples == 1) {
        FUZZ_CHECK(m.total_size == m.color.size, "single-sample total size");
        return 0;
    }
    const struct cedar_surface *fm = &m.fmask.surf;
    FUZZ_CHECK(fm->mode == CEDAR_MODE_2D_THIN || fm->mode == CEDAR_MODE_1D_THIN, "FMask mode %d", fm->mode);
    FUZZ_CHECK(m.fmask.offset >= m.color.size && m.fmask.offset % fm->alignment == 0, "FMask placement");
    FUZZ_CHECK(m.cmask.offset >= m.fmask.offset + fm->size, "CMask overlaps the FMask");
    FUZZ_CHECK(m.total_size == m.cmask.offset + m.cmask.size, "total size");
    struct cedar_tile_map fmap;
    FUZZ_CHECK(cedar_fmask_map_init(&fmap, fm, req.samples, NULL, &err) == 0, "no FMask map: %s", err.msg);
    FUZZ_CHECK(fmap.size <= fm->size, "the FMask map addresses %llu bytes of %llu", (unsigned long long)fmap.size,
               (unsigned long long)fm->size);
    struct cedar_surface_req rreq = req;
    rreq.samples = 1;
    rreq.mode = CEDAR_MODE_2D_THIN;
    check_surface(&rreq, &m.resolve, "resolve");
    return 0;
}
