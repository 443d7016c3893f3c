/* Draw-time surface checks: colour buffers, depth / stencil / HTILE and
 * textures, as the radeon kernel's evergreen_cs_track_validate_cb,
 * _validate_depth, _validate_stencil, _validate_htile, _validate_texture;
 * plus, in strict mode, CMask and FMask against the multisampled colour
 * surface (the kernel keeps those buffers "unused": it never sizes them). */
#include <string.h>

#include "vc_internal.h"
#include "vc_check.h"

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* Strict mode: a surface with all its samples.  The kernel checks every
 * colour buffer as single-sampled (nsamples = 1), which lets an 8x MSAA
 * buffer be 8 times too small.  In CB_RESOLVE mode colour buffer 1 is the
 * single-sampled destination. */
static unsigned cb_samples(const struct vc_ck *c, unsigned id)
{
    if (!c->strict)
        return 1;
    if (id == 1 && G_CB_COLOR_CONTROL__MODE(c->cb_color_control) == V_CB_MODE__CB_RESOLVE)
        return 1;
    return c->nsamples;
}

/* CMask: 4 bits per 8x8 tile; CMASK_SLICE.TILE_MAX counts 128x128-pixel
 * blocks (Mesa r600_texture_get_cmask_info: slice_tile_max =
 * pitch * height / (128 * 128) - 1), so one block is 128 bytes. */
#define CMASK_BLOCK_PIXELS (128u * 128u)
#define CMASK_BLOCK_BYTES (CMASK_BLOCK_PIXELS / 64u * 4u / 8u)

static int check_cmask_fmask(struct vc_ck *c, unsigned id, const struct vc_surf *s, unsigned mslice)
{
    const struct cb_track *cb = &c->cb[id];
    uint32_t info = cb->info;
    bool fast_clear = G_CB_COLOR_INFO__FAST_CLEAR(info), compressed = G_CB_COLOR_INFO__COMPRESSION(info);
    uint64_t pixels = (uint64_t)s->nbx * s->nby;
    char what[24];

    if (fast_clear || (compressed && s->nsamples > 1)) {
        snprintf(what, sizeof(what), "CB_COLOR%u_CMASK", id);
        if (!cb->cmask_bo)
            return vc_fail(c->err, VC_E_CMASK_SIZE, cb->base_dw, what,
                           "colour buffer %u uses CMask without a CMask buffer", id);
        uint64_t blocks = (uint64_t)G_CB_COLOR_CMASK_SLICE__TILE_MAX(cb->cmask_slice) + 1;
        if (blocks * CMASK_BLOCK_PIXELS < pixels)
            return vc_fail(c->err, VC_E_CMASK_SIZE, cb->base_dw, what,
                           "CB_COLOR%u_CMASK_SLICE covers %llu pixels, the surface has %llu (%ux%u)", id,
                           (unsigned long long)(blocks * CMASK_BLOCK_PIXELS), (unsigned long long)pixels,
                           s->nbx, s->nby);
        uint64_t end = ((uint64_t)cb->cmask << 8) + blocks * CMASK_BLOCK_BYTES * mslice;
        if (end > cb->cmask_bo->size)
            return vc_fail(c->err, VC_E_CMASK_SIZE, cb->base_dw, what,
                           "CMask of colour buffer %u ends at 0x%llX, past its %llu-byte buffer", id,
                           (unsigned long long)end, (unsigned long long)cb->cmask_bo->size);
    }
    if (compressed && s->nsamples > 1) {
        snprintf(what, sizeof(what), "CB_COLOR%u_FMASK", id);
        if (!cb->fmask_bo)
            return vc_fail(c->err, VC_E_FMASK_SIZE, cb->base_dw, what,
                           "colour buffer %u is FMask-compressed without an FMask buffer", id);
        /* FMask: one element per pixel, 1 byte for 2x/4x, 4 bytes for 8x
         * (Mesa r600_texture_get_fmask_info); FMASK_SLICE.TILE_MAX counts
         * 8x8 tiles. */
        unsigned fbpe = s->nsamples <= 4 ? 1 : 4;
        uint64_t tiles = (uint64_t)G_CB_COLOR_FMASK_SLICE__TILE_MAX(cb->fmask_slice) + 1;
        if (tiles * 64 < pixels)
            return vc_fail(c->err, VC_E_FMASK_SIZE, cb->base_dw, what,
                           "CB_COLOR%u_FMASK_SLICE covers %llu pixels, the surface has %llu (%ux%u)", id,
                           (unsigned long long)(tiles * 64), (unsigned long long)pixels, s->nbx, s->nby);
        uint64_t end = ((uint64_t)cb->fmask << 8) + tiles * 64 * fbpe * mslice;
        if (end > cb->fmask_bo->size)
            return vc_fail(c->err, VC_E_FMASK_SIZE, cb->base_dw, what,
                           "FMask of colour buffer %u ends at 0x%llX, past its %llu-byte buffer", id,
                           (unsigned long long)end, (unsigned long long)cb->fmask_bo->size);
    }
    return 0;
}

int vc_check_cb(struct vc_ck *c, unsigned id)
{
    struct cb_track *cb = &c->cb[id];
    char what[24];
    snprintf(what, sizeof(what), "CB_COLOR%u_INFO", id);
    unsigned mslice = G_CB_COLOR_VIEW__SLICE_MAX(cb->view) + 1;
    struct vc_surf s = {
        .nbx = (G_CB_COLOR_PITCH__TILE_MAX(cb->pitch) + 1) * 8,
        .mode = G_CB_COLOR_INFO__ARRAY_MODE(cb->info),
        .format = G_CB_COLOR_INFO__FORMAT(cb->info),
        .tsplit = G_CB_COLOR_ATTRIB__TILE_SPLIT(cb->attrib),
        .nbanks = G_CB_COLOR_ATTRIB__NUM_BANKS(cb->attrib),
        .bankw = G_CB_COLOR_ATTRIB__BANK_WIDTH(cb->attrib),
        .bankh = G_CB_COLOR_ATTRIB__BANK_HEIGHT(cb->attrib),
        .mtilea = G_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(cb->attrib),
        .nsamples = cb_samples(c, id),
    };
    /* the kernel reads the whole SLICE register as the tile count */
    s.nby = (unsigned)(((uint64_t)cb->slice + 1) * 64 / s.nbx);
    if (!vc_format(s.format)->valid_color)
        return vc_fail(c->err, VC_E_CB_FORMAT, cb->base_dw, what, "colour buffer %u: invalid format %u", id,
                       s.format);
    if (vc_surf_conv(&s, what, cb->base_dw, c->err))
        return -1;
    if (vc_surf_check(&c->t, &s, what, cb->base_dw, c->err))
        return -1;
    uint64_t offset = (uint64_t)cb->offset << 8;
    snprintf(what, sizeof(what), "CB_COLOR%u_BASE", id);
    if (offset & (s.base_align - 1))
        return vc_fail(c->err, VC_E_SURF_BASE_ALIGN, cb->base_dw, what,
                       "colour buffer %u: base 0x%llX not aligned to %llu", id, (unsigned long long)offset,
                       (unsigned long long)s.base_align);
    uint64_t end = offset + s.layer_size * mslice;
    if (end > cb->bo->size) {
        bool patched = false;
        /* "old ddx" fix-up: a linear buffer sized w*h*bpp but programmed
         * with the height aligned to 8 gets its SLICE lowered in the IB.
         * Strict mode does not forgive it. */
        if (!c->strict && s.mode == V_ARRAY_MODE__ARRAY_LINEAR_GENERAL && cb->slice_dw) {
            uint64_t min = s.nby > 8 ? s.nby - 8 : 0, nby;
            for (nby = s.nby; nby > min; nby--)
                if (offset + nby * s.nbx * s.bpe * s.nsamples * mslice <= cb->bo->size)
                    break;
            if (nby > min) {
                struct vc_surf s2 = s;
                s2.nby = (unsigned)nby;
                if (!vc_surf_check(&c->t, &s2, what, cb->base_dw, NULL) &&
                    offset + s2.layer_size * mslice <= cb->bo->size) {
                    c->ib[cb->slice_dw] = (uint32_t)(nby * s.nbx / 64 - 1);
                    patched = true;
                }
            }
        }
        if (!patched)
            return vc_fail(c->err, VC_E_SURF_SIZE, cb->base_dw, what,
                           "colour buffer %u (%ux%u, %u bytes/pixel, %u sample%s, %u slice%s) ends at 0x%llX, "
                           "past its %llu-byte buffer", id, s.nbx, s.nby, s.bpe, s.nsamples,
                           s.nsamples == 1 ? "" : "s", mslice, mslice == 1 ? "" : "s",
                           (unsigned long long)end, (unsigned long long)cb->bo->size);
    }
    if (c->strict)
        return check_cmask_fmask(c, id, &s, mslice);
    return 0;
}

/* ---- depth / stencil --------------------------------------------------------- */

static int check_htile(struct vc_ck *c, unsigned nbx, unsigned nby)
{
    if (!c->htile_bo)
        return vc_fail(c->err, VC_E_DB, 0, "DB_HTILE_DATA_BASE", "HTILE enabled without an HTILE buffer");
    if (G_DB_HTILE_SURFACE__LINEAR(c->htile_surface)) {
        nbx = (unsigned)round_up(nbx, 16 * 8);
        nby = (unsigned)round_up(nby, c->t.npipes * 8);
    } else {
        switch (c->t.npipes) {
        case 8: nbx = (unsigned)round_up(nbx, 64 * 8); nby = (unsigned)round_up(nby, 64 * 8); break;
        case 4: nbx = (unsigned)round_up(nbx, 64 * 8); nby = (unsigned)round_up(nby, 32 * 8); break;
        case 2: nbx = (unsigned)round_up(nbx, 32 * 8); nby = (unsigned)round_up(nby, 32 * 8); break;
        case 1: nbx = (unsigned)round_up(nbx, 32 * 8); nby = (unsigned)round_up(nby, 16 * 8); break;
        default:
            return vc_fail(c->err, VC_E_DB, 0, "DB_HTILE_SURFACE", "invalid number of pipes %u", c->t.npipes);
        }
    }
    uint64_t size = round_up((uint64_t)(nbx >> 3) * (nby >> 3) * 4, (uint64_t)c->t.npipes * 2048);
    size += c->htile_offset;
    if (size > c->htile_bo->size)
        return vc_fail(c->err, VC_E_DB, 0, "DB_HTILE_DATA_BASE",
                       "HTILE of %llu bytes does not fit its %llu-byte buffer", (unsigned long long)size,
                       (unsigned long long)c->htile_bo->size);
    return 0;
}

static int check_db_bo(struct vc_ck *c, const struct vc_surf *s, unsigned mslice, uint32_t offset8,
                       const struct vc_reloc_bo *bo, const char *what)
{
    uint64_t offset = (uint64_t)offset8 << 8;
    if (!bo)
        return vc_fail(c->err, VC_E_DB, 0, what, "%s enabled without a buffer", what);
    if (offset & (s->base_align - 1))
        return vc_fail(c->err, VC_E_SURF_BASE_ALIGN, 0, what, "%s: base 0x%llX not aligned to %llu", what,
                       (unsigned long long)offset, (unsigned long long)s->base_align);
    if (offset + s->layer_size * mslice > bo->size)
        return vc_fail(c->err, VC_E_SURF_SIZE, 0, what, "%s: %ux%u surface past its %llu-byte buffer", what,
                       s->nbx, s->nby, (unsigned long long)bo->size);
    return 0;
}

static void db_surf(const struct vc_ck *c, struct vc_surf *s, unsigned *mslice)
{
    *mslice = G_DB_DEPTH_VIEW__SLICE_MAX(c->db_depth_view) + 1;
    s->nbx = (G_DB_DEPTH_SIZE__PITCH_TILE_MAX(c->db_depth_size) + 1) * 8;
    s->nby = (unsigned)(((uint64_t)c->db_depth_slice + 1) * 64 / s->nbx);
    s->mode = G_DB_Z_INFO__ARRAY_MODE(c->db_z_info);
    s->nbanks = G_DB_Z_INFO__NUM_BANKS(c->db_z_info);
    s->bankw = G_DB_Z_INFO__BANK_WIDTH(c->db_z_info);
    s->bankh = G_DB_Z_INFO__BANK_HEIGHT(c->db_z_info);
    s->mtilea = G_DB_Z_INFO__MACRO_TILE_ASPECT(c->db_z_info);
    s->nsamples = 1;
}

static int check_stencil(struct vc_ck *c)
{
    struct vc_surf s = { 0 };
    unsigned mslice;
    db_surf(c, &s, &mslice);
    s.tsplit = G_DB_STENCIL_INFO__TILE_SPLIT(c->db_s_info);
    if (G_DB_STENCIL_INFO__FORMAT(c->db_s_info) != V_DB_STENCIL_FORMAT__STENCIL_8)
        return vc_fail(c->err, VC_E_DB, 0, "DB_STENCIL_INFO", "stencil: invalid format %u",
                       G_DB_STENCIL_INFO__FORMAT(c->db_s_info));
    s.format = V_CB_FORMAT__COLOR_8;   /* checked like an 8-bit colour surface */
    if (vc_surf_conv(&s, "stencil", 0, c->err))
        return -1;
    if (vc_surf_check(&c->t, &s, "stencil", 0, NULL)) {
        /* old user space aligned stencil like 32-bit depth: try that */
        s.format = V_CB_FORMAT__COLOR_8_8_8_8;
        if (vc_surf_check(&c->t, &s, "stencil", 0, c->err))
            return -1;
    }
    if (check_db_bo(c, &s, mslice, c->db_s_read_offset, c->db_s_read_bo, "DB_STENCIL_READ_BASE") ||
        check_db_bo(c, &s, mslice, c->db_s_write_offset, c->db_s_write_bo, "DB_STENCIL_WRITE_BASE"))
        return -1;
    if (G_DB_Z_INFO__TILE_SURFACE_ENABLE(c->db_z_info))
        return check_htile(c, s.nbx, s.nby);
    return 0;
}

static int check_depth(struct vc_ck *c)
{
    struct vc_surf s = { 0 };
    unsigned mslice;
    db_surf(c, &s, &mslice);
    s.tsplit = G_DB_Z_INFO__TILE_SPLIT(c->db_z_info);
    switch (G_DB_Z_INFO__FORMAT(c->db_z_info)) {
    case V_DB_Z_FORMAT__Z_16: s.format = V_SQ_DATA_FORMAT__FMT_16; break;
    case V_DB_Z_FORMAT__Z_24:
    case V_DB_Z_FORMAT__Z_32_FLOAT: s.format = V_CB_FORMAT__COLOR_8_8_8_8; break;
    default:
        return vc_fail(c->err, VC_E_DB, 0, "DB_Z_INFO", "depth: invalid format %u",
                       G_DB_Z_INFO__FORMAT(c->db_z_info));
    }
    if (vc_surf_conv(&s, "depth", 0, c->err) || vc_surf_check(&c->t, &s, "depth", 0, c->err))
        return -1;
    if (check_db_bo(c, &s, mslice, c->db_z_read_offset, c->db_z_read_bo, "DB_Z_READ_BASE") ||
        check_db_bo(c, &s, mslice, c->db_z_write_offset, c->db_z_write_bo, "DB_Z_WRITE_BASE"))
        return -1;
    if (G_DB_Z_INFO__TILE_SURFACE_ENABLE(c->db_z_info))
        return check_htile(c, s.nbx, s.nby);
    return 0;
}

int vc_check_db(struct vc_ck *c)
{
    if (G_DB_STENCIL_INFO__FORMAT(c->db_s_info) != V_DB_STENCIL_FORMAT__STENCIL_INVALID &&
        G_DB_DEPTH_CONTROL__STENCIL_ENABLE(c->db_depth_control) && check_stencil(c))
        return -1;
    if (G_DB_Z_INFO__FORMAT(c->db_z_info) != V_DB_Z_FORMAT__Z_INVALID &&
        G_DB_DEPTH_CONTROL__Z_ENABLE(c->db_depth_control) && check_depth(c))
        return -1;
    return 0;
}

/* ---- textures ------------------------------------------------------------------ */

static unsigned nblocks(unsigned n, unsigned block)
{
    return block ? (n + block - 1) / block : 0;
}

/* r600_mip_minify(): level > 0 rounds up to a power of two. */
static unsigned mip_minify(unsigned size, unsigned level)
{
    unsigned v = size >> level;
    if (v < 1)
        v = 1;
    if (level > 0) {
        unsigned p = 1;
        while (p < v)
            p <<= 1;
        v = p;
    }
    return v;
}

int vc_check_texture(struct vc_ck *c, const struct vc_reloc_bo *tex, const struct vc_reloc_bo *mip,
                     size_t w, const char *what)
{
    uint32_t d[8];
    memcpy(d, &c->ib[w], sizeof(d));
    unsigned dim = G_SQ_TEX_RESOURCE_WORD0__DIM(d[0]);
    unsigned llevel = G_SQ_TEX_RESOURCE_WORD5__LAST_LEVEL(d[5]);
    unsigned mslice = G_SQ_TEX_RESOURCE_WORD5__LAST_ARRAY(d[5]) + 1;
    unsigned width = G_SQ_TEX_RESOURCE_WORD0__TEX_WIDTH(d[0]) + 1;
    unsigned height = G_SQ_TEX_RESOURCE_WORD1__TEX_HEIGHT(d[1]) + 1;
    unsigned depth = G_SQ_TEX_RESOURCE_WORD1__TEX_DEPTH(d[1]) + 1;
    struct vc_surf s = {
        .format = G_SQ_TEX_RESOURCE_WORD7__DATA_FORMAT(d[7]),
        .mode = G_SQ_TEX_RESOURCE_WORD1__ARRAY_MODE(d[1]),
        .tsplit = G_SQ_TEX_RESOURCE_WORD6__TILE_SPLIT(d[6]),
        .nbanks = G_SQ_TEX_RESOURCE_WORD7__NUM_BANKS(d[7]),
        .bankw = G_SQ_TEX_RESOURCE_WORD7__BANK_WIDTH(d[7]),
        .bankh = G_SQ_TEX_RESOURCE_WORD7__BANK_HEIGHT(d[7]),
        .mtilea = G_SQ_TEX_RESOURCE_WORD7__MACRO_TILE_ASPECT(d[7]),
        .nsamples = 1,
    };
    const struct vc_format *f = vc_format(s.format);
    uint32_t at = (uint32_t)w;
    s.nbx = nblocks((G_SQ_TEX_RESOURCE_WORD0__PITCH(d[0]) + 1) * 8, f->blockwidth);
    s.nby = nblocks(height, f->blockheight);
    uint64_t toffset = (uint64_t)d[2] << 8, moffset = (uint64_t)d[3] << 8;

    if (!f->blockwidth)
        return vc_fail(c->err, VC_E_TEXTURE, at, what, "%s: invalid format %u", what, s.format);
    switch (dim) {
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY:
        depth = 1;
        break;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA:
        s.nsamples = 1u << llevel;   /* LAST_LEVEL holds log2(samples) */
        llevel = 0;
        depth = 1;
        break;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_3D:
        break;
    default:
        return vc_fail(c->err, VC_E_TEXTURE, at, what, "%s: invalid dimension %u", what, dim);
    }
    if (vc_surf_conv(&s, what, at, c->err))
        return -1;
    vc_surf_check(&c->t, &s, what, at, NULL);   /* alignment for the height */
    s.nby = (unsigned)round_up(s.nby, s.halign ? s.halign : 1);
    if (vc_surf_check(&c->t, &s, what, at, c->err))
        return -1;
    if (toffset & (s.base_align - 1))
        return vc_fail(c->err, VC_E_SURF_BASE_ALIGN, at, what, "%s: base 0x%llX not aligned to %llu", what,
                       (unsigned long long)toffset, (unsigned long long)s.base_align);
    if (s.nsamples <= 1 && (moffset & (s.base_align - 1)))
        return vc_fail(c->err, VC_E_SURF_BASE_ALIGN, at, what, "%s: mip base 0x%llX not aligned to %llu", what,
                       (unsigned long long)moffset, (unsigned long long)s.base_align);
    toffset += s.layer_size * (dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? depth : mslice);
    if (toffset > tex->size)
        return vc_fail(c->err, VC_E_SURF_SIZE, at, what, "%s (%ux%u) ends at 0x%llX, past its %llu-byte buffer",
                       what, s.nbx, s.nby, (unsigned long long)toffset, (unsigned long long)tex->size);
    if (!mip) {
        if (llevel)
            return vc_fail(c->err, VC_E_TEXTURE, at, what, "%s: %u mip levels without a MIP_ADDRESS relocation",
                           what, llevel);
        return 0;
    }
    for (unsigned i = 1; i <= llevel; i++) {
        unsigned wi = mip_minify(width, i), hi = mip_minify(height, i), di = mip_minify(depth, i);
        s.nbx = nblocks(wi, f->blockwidth);
        s.nby = nblocks(hi, f->blockheight);
        if (s.mode == V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) {
            if (s.nbx < s.palign || s.nby < s.halign)
                s.mode = V_ARRAY_MODE__ARRAY_1D_TILED_THIN1;
            vc_surf_check(&c->t, &s, what, at, NULL);
        }
        s.nbx = (unsigned)round_up(s.nbx, s.palign ? s.palign : 1);
        s.nby = (unsigned)round_up(s.nby, s.halign ? s.halign : 1);
        if (vc_surf_check(&c->t, &s, what, at, c->err))
            return -1;
        moffset += s.layer_size * (dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? di : mslice);
        if (moffset > mip->size)
            return vc_fail(c->err, VC_E_SURF_SIZE, at, what, "%s: mip level %u ends at 0x%llX, past its %llu-byte "
                           "buffer", what, i, (unsigned long long)moffset, (unsigned long long)mip->size);
    }
    return 0;
}
