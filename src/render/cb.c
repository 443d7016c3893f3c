/* The colour block: a target's registers, formats (pack / unpack with the
 * component swap and number type), blending, and the compression metadata:
 *
 * CMask: 4 bits per 8x8-pixel tile.  A tile whose bits are 0 is fast-cleared
 * (Mesa's glClear writes zeros with CP_DMA and puts the colour in
 * CB_COLOR*_CLEAR_WORD0/1): it reads as the clear colour until the CB writes
 * to it, and the CB first expands it (stores the clear colour) then marks it
 * 0xC ("compressed": Mesa r600_texture.c initialises CMask to 0xCC for that
 * state) or 0xF (no FMask).  CMask blocks are 128x128 pixels, 128 bytes each
 * (seed write-up; Mesa r600_texture_get_cmask_info), row-major over the
 * surface; the order of the 256 tiles inside a block is this model's own
 * (row-major, low nibble first): nothing outside the CB reads the bits except
 * whole-buffer fills, which are order-free.
 *
 * FMask: per pixel, one fragment index per sample (cedar_fmask_* of the tiling
 * map); the colour of fragment f lives in sample plane f of the colour
 * surface, so a pixel covered by one primitive stores its colour once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "render_priv.h"

#define CMASK_BLOCK_PIXELS 128u   /* CMask block: 128x128 pixels */
#define CMASK_BLOCK_BYTES 128u    /* 256 tiles x 4 bits */
#define CMASK_TILE_PIXELS 8u
#define CMASK_CLEARED 0x0u
#define CMASK_COMPRESSED 0xCu     /* FMask valid (Mesa: "0xCC = compressed state") */
#define CMASK_EXPANDED 0xFu       /* no FMask: colour stored as is */
#define CB_ROP3_COPY V_CB_ROP3__COPY

static bool blend_on(const struct cb_target *t);

/* A CB_BLEND*_CONTROL that reads the second source (SRC1 factors). */
static bool blend_uses_src1(uint32_t bc)
{
    unsigned f[4] = {G_CB_BLEND_CONTROL__COLOR_SRCBLEND(bc), G_CB_BLEND_CONTROL__COLOR_DESTBLEND(bc),
                     G_CB_BLEND_CONTROL__ALPHA_SRCBLEND(bc), G_CB_BLEND_CONTROL__ALPHA_DESTBLEND(bc)};
    unsigned n = G_CB_BLEND_CONTROL__SEPARATE_ALPHA_BLEND(bc) ? 4 : 2;
    for (unsigned k = 0; k < n; k++)
        if (f[k] >= V_CB_BLEND_FACTOR__BLEND_SRC1_COLOR && f[k] <= V_CB_BLEND_FACTOR__BLEND_INV_SRC1_ALPHA)
            return true;
    return false;
}

int rs_fail(struct vc_draw_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int rs_msg_fail(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- target set-up ---------------------------------------------------------- */

static enum cedar_array_mode array_mode_of(unsigned hw, bool *ok)
{
    *ok = true;
    switch (hw) {
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL:
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED:
        return CEDAR_MODE_LINEAR_ALIGNED;
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1:
        return CEDAR_MODE_1D_THIN;
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1:
        return CEDAR_MODE_2D_THIN;
    default:
        *ok = false;
        return CEDAR_MODE_LINEAR_ALIGNED;
    }
}

/* [a, a + na) and [b, b + nb) share no byte. */
static bool bytes_apart(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa + na <= pb || pb + nb <= pa;
}

int cb_target_init(struct vc_render *r, struct cb_target *t, unsigned i, unsigned samples,
                   const struct vc_regs *regs, const struct vc_mem *mem, struct vc_draw_err *err)
{
    uint32_t info = vc_reg(regs, REG_CB_COLOR_INFO(i));
    uint32_t attrib = vc_reg(regs, REG_CB_COLOR_ATTRIB(i));
    uint32_t pitch = vc_reg(regs, REG_CB_COLOR_PITCH(i));
    uint32_t slice = vc_reg(regs, REG_CB_COLOR_SLICE(i));
    uint64_t base = (uint64_t)vc_reg(regs, REG_CB_COLOR_BASE(i)) << 8;
    struct cedar_layout_err lerr = {{0}};

    memset(t, 0, sizeof *t);
    t->index = i;
    t->format = G_CB_COLOR_INFO__FORMAT(info);
    if (t->format == V_CB_FORMAT__COLOR_INVALID)
        return 1;
    char why[160];
    if (cb_format_init(t, info, why, sizeof why))
        return rs_fail(err, "CB%u: %s", i, why);
    t->samples = samples;
    t->clear_word[0] = i < 8 ? vc_reg(regs, REG_CB_COLOR_CLEAR_WORD0(i)) : 0;
    t->clear_word[1] = i < 8 ? vc_reg(regs, REG_CB_COLOR_CLEAR_WORD1(i)) : 0;

    bool ok;
    struct cedar_surface s = {0};
    s.mode = array_mode_of(G_CB_COLOR_INFO__ARRAY_MODE(info), &ok);
    if (!ok)
        return rs_fail(err, "CB%u: array mode %u is not supported", i, G_CB_COLOR_INFO__ARRAY_MODE(info));
    if (samples > 1 && s.mode != CEDAR_MODE_2D_THIN)
        return rs_fail(err, "CB%u: %u samples need a 2D-tiled surface", i, samples);
    s.aligned_width = (G_CB_COLOR_PITCH__TILE_MAX(pitch) + 1) * 8;
    uint64_t tiles = (uint64_t)G_CB_COLOR_SLICE__TILE_MAX(slice) + 1;
    s.aligned_height = (unsigned)(tiles * 64 / s.aligned_width);
    if (s.aligned_height == 0)
        return rs_fail(err, "CB%u: SLICE smaller than one row of tiles", i);
    s.width = s.aligned_width;
    s.height = s.aligned_height;
    s.bpe = t->bpe;
    s.samples = samples;
    s.tile_split = 64u << G_CB_COLOR_ATTRIB__TILE_SPLIT(attrib);
    s.bankw = 1u << G_CB_COLOR_ATTRIB__BANK_WIDTH(attrib);
    s.bankh = 1u << G_CB_COLOR_ATTRIB__BANK_HEIGHT(attrib);
    s.mtilea = 1u << G_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(attrib);
    s.tiling = r->tiling;
    /* NUM_BANKS only means something to a 2D-tiled surface: bare-metal
     * linear buffers leave it 0 (eg.cmds.0.bin's CB0), which would read
     * as an impossible 2 banks; keep the device's bank count for them. */
    if (s.mode == CEDAR_MODE_2D_THIN)
        s.tiling.banks = 2u << G_CB_COLOR_ATTRIB__NUM_BANKS(attrib);
    if (s.mode != CEDAR_MODE_2D_THIN) {
        s.tile_split = 0;
        s.bankw = s.bankh = s.mtilea = 1;
    }
    /* CB_COLOR*_VIEW.SLICE_START: the slice drawn into (Mesa points BASE
     * at the mip level and names the layer here); slice s of a 2D-tiled
     * surface has its banks rotated (the tiling map's slice argument), so
     * the map covers slices 0..s and every address names s. */
    t->slice = i < 8 ? G_CB_COLOR_VIEW__SLICE_START(vc_reg(regs, REG_CB_COLOR_VIEW(i))) : 0;
    struct cedar_tile_opts opts = {.slices = t->slice + 1};
    if (G_CB_COLOR_ATTRIB__NON_DISP_TILING_ORDER(attrib))
        opts.order = CEDAR_MICRO_NON_DISPLAYABLE;
    if (cedar_tile_map_init(&t->map, &s, &opts, &lerr))
        return rs_fail(err, "CB%u: %s", i, lerr.msg);
    t->width = t->map.width;
    t->height = t->map.height;
    t->mem = vc_mem_ptr(mem, base, t->map.size);
    if (!t->mem)
        return rs_fail(err, "CB%u: surface at 0x%llx (%llu bytes) is not inside one buffer", i,
                       (unsigned long long)base, (unsigned long long)t->map.size);
    t->ac = &t->ac_store;
    t->ac->mx = t->ac->my = -1;
    /* Linear surfaces have no micro-tile runs (cedar_tile_micro returns none):
     * per_run 0 sends every access through cedar_tile_addr. */
    t->per_run = s.mode != CEDAR_MODE_LINEAR_ALIGNED && t->map.run_bytes && t->map.run_bytes % t->bpe == 0
                     ? t->map.run_bytes / t->bpe
                     : 0;
    /* the kept address tables hold slice 0's addresses */
    t->ctab = t->per_run && t->slice == 0 ? render_addr_table(r, &t->map) : NULL;
    for (unsigned pi = 0; pi < 64 && t->per_run; pi++) {
        t->pix_run[pi] = (uint8_t)(pi / t->per_run);
        t->pix_off[pi] = (uint16_t)(pi % t->per_run * t->bpe);
    }
    for (unsigned i = 0; i < 64 && t->per_run; i++) {
        t->raster_run[i] = t->pix_run[t->map.pix_index[i]];
        t->raster_off[i] = t->pix_off[t->map.pix_index[i]];
    }
    t->raster_quads = t->bpe == 4 && t->per_run >= 64;
    for (unsigned i = 0; i < 64 && t->raster_quads; i++)
        t->raster_quads = t->raster_off[i] == t->raster_off[i & ~3u] + 4 * (i & 3u);

    t->fmask_on = samples > 1 && G_CB_COLOR_INFO__COMPRESSION(info) && i < 8;
    if (t->fmask_on) {
        struct cedar_surface fs = s;
        uint32_t fslice = vc_reg(regs, REG_CB_COLOR_FMASK_SLICE(i));
        uint64_t fbase = (uint64_t)vc_reg(regs, REG_CB_COLOR_FMASK(i)) << 8;
        fs.samples = 1;
        fs.bpe = samples == 8 ? 4 : 1;
        fs.bankh = 1u << G_CB_COLOR_ATTRIB__FMASK_BANK_HEIGHT(attrib);
        fs.aligned_height =
            (unsigned)(((uint64_t)G_CB_COLOR_FMASK_SLICE__TILE_MAX(fslice) + 1) * 64 / fs.aligned_width);
        fs.height = fs.aligned_height;
        if (fs.aligned_height < t->height)
            return rs_fail(err, "CB%u: FMASK_SLICE covers %u rows, the surface %u", i, fs.aligned_height,
                           t->height);
        struct cedar_tile_opts fopts = {.slices = t->slice + 1};
        if (cedar_fmask_map_init(&t->fmap, &fs, samples, &fopts, &lerr))
            return rs_fail(err, "CB%u FMask: %s", i, lerr.msg);
        t->fmask = vc_mem_ptr(mem, fbase, t->fmap.size);
        if (!t->fmask)
            return rs_fail(err, "CB%u: FMask at 0x%llx (%llu bytes) is not inside one buffer", i,
                           (unsigned long long)fbase, (unsigned long long)t->fmap.size);
        t->ftab = t->slice == 0 ? render_addr_table(r, &t->fmap) : NULL;
        t->fplanes = cedar_fmask_planes(&t->fmap);
    }
    t->cmask_on = G_CB_COLOR_INFO__FAST_CLEAR(info) && i < 8;
    if (t->cmask_on) {
        uint64_t cbase = (uint64_t)vc_reg(regs, REG_CB_COLOR_CMASK(i)) << 8;
        uint32_t cslice = vc_reg(regs, REG_CB_COLOR_CMASK_SLICE(i));
        unsigned bx = (t->width + CMASK_BLOCK_PIXELS - 1) / CMASK_BLOCK_PIXELS;
        unsigned by = (t->height + CMASK_BLOCK_PIXELS - 1) / CMASK_BLOCK_PIXELS;
        uint64_t blocks = (uint64_t)G_CB_COLOR_CMASK_SLICE__TILE_MAX(cslice) + 1;
        if (blocks < (uint64_t)bx * by)
            return rs_fail(err, "CB%u: CMASK_SLICE has %llu blocks, the surface needs %u", i,
                           (unsigned long long)blocks, bx * by);
        t->cmask_blocks_x = bx;
        t->cmask_size = blocks * CMASK_BLOCK_BYTES;
        /* CMask slices follow one another, CMASK_SLICE blocks each */
        cbase += (uint64_t)t->slice * t->cmask_size;
        t->cmask = vc_mem_ptr(mem, cbase, t->cmask_size);
        if (!t->cmask)
            return rs_fail(err, "CB%u: CMask at 0x%llx is not inside one buffer", i,
                           (unsigned long long)cbase);
    }
    t->meta_apart = t->fmask_on && t->cmask_on && bytes_apart(t->mem, t->map.size, t->fmask, t->fmap.size) &&
                    bytes_apart(t->mem, t->map.size, t->cmask, t->cmask_size) &&
                    bytes_apart(t->fmask, t->fmap.size, t->cmask, t->cmask_size);
    if (i < 8)
        t->blend = vc_reg(regs, REG_CB_BLEND_CONTROL(i));
    t->rop3 = G_CB_COLOR_CONTROL__ROP3(vc_reg(regs, REG_CB_COLOR_CONTROL));
    t->dual_src = blend_on(t) && blend_uses_src1(t->blend);
    uint32_t tmask = vc_reg(regs, REG_CB_TARGET_MASK) >> (4 * i);
    t->write_mask = tmask & 0xFu;
    return 0;
}

/* ---- CMask ------------------------------------------------------------------ */

static void cmask_locate(const struct cb_target *t, unsigned x, unsigned y, uint64_t *byte, unsigned *shift)
{
    unsigned block = (y / CMASK_BLOCK_PIXELS) * t->cmask_blocks_x + x / CMASK_BLOCK_PIXELS;
    unsigned tile = ((y % CMASK_BLOCK_PIXELS) / CMASK_TILE_PIXELS) * (CMASK_BLOCK_PIXELS / CMASK_TILE_PIXELS) +
                    (x % CMASK_BLOCK_PIXELS) / CMASK_TILE_PIXELS;
    *byte = (uint64_t)block * CMASK_BLOCK_BYTES + tile / 2;
    *shift = (tile & 1) * 4;
}

static unsigned cmask_get(const struct cb_target *t, unsigned x, unsigned y)
{
    uint64_t byte;
    unsigned shift;
    cmask_locate(t, x, y, &byte, &shift);
    if (byte >= t->cmask_size)
        return CMASK_EXPANDED;
    return (t->cmask[byte] >> shift) & 0xFu;
}

static void cmask_set(struct cb_target *t, unsigned x, unsigned y, unsigned v)
{
    uint64_t byte;
    unsigned shift;
    cmask_locate(t, x, y, &byte, &shift);
    if (byte >= t->cmask_size)
        return;
    t->cmask[byte] = (uint8_t)((t->cmask[byte] & ~(0xFu << shift)) | (v << shift));
}

bool cb_tile_cleared(const struct cb_target *t, unsigned x, unsigned y)
{
    return t->cmask_on && cmask_get(t, x, y) == CMASK_CLEARED;
}

/* ---- FMask ------------------------------------------------------------------ */

/* Where a pixel's fragment indices live: bit P of every sample's index is
 * in one byte per plane P, samples at consecutive bits from that plane's
 * bit for sample 0 (cedar_fmask_bit: bit = pixel bits + sample). */
struct fmask_px {
    const uint32_t *byte;         /* [plane] */
    const uint8_t *bit0;          /* [plane] */
    unsigned planes;
};

/* Make (x, y)'s micro tile the cached one. */
static inline struct cb_addr_cache *tile_cache(const struct cb_target *t, unsigned x, unsigned y)
{
    struct cb_addr_cache *c = t->ac;
    int mx = (int)(x >> 3), my = (int)(y >> 3);
    if (c->mx != mx || c->my != my) {
        c->mx = mx;
        c->my = my;
        c->have_plane = 0;
        c->have_fmask = 0;
        c->expanded = false;
        c->ctile = t->ctab ? addr_table_color(t->ctab, (unsigned)mx, (unsigned)my) : NULL;
        c->ftile = t->ftab ? addr_table_fmask(t->ftab, (unsigned)mx, (unsigned)my) : NULL;
    }
    return c;
}

static void fmask_locate(const struct cb_target *t, unsigned x, unsigned y, struct fmask_px *fp)
{
    struct cb_addr_cache *c = tile_cache(t, x, y);
    unsigned i = (y & 7) * 8 + (x & 7);
    fp->planes = t->fplanes;
    if (c->ftile) {
        fp->byte = c->ftile->byte[i];
        fp->bit0 = c->ftile->bit0[i];
        return;
    }
    if (!((c->have_fmask >> i) & 1u)) {
        for (unsigned p = 0; p < fp->planes; p++) {
            uint64_t byte;
            unsigned bit;
            cedar_fmask_bit(&t->fmap, x, y, 0, p, t->slice, &byte, &bit);
            c->fbyte[i][p] = (uint32_t)byte;
            c->fbit0[i][p] = (uint8_t)bit;
        }
        c->have_fmask |= 1ull << i;
    }
    fp->byte = c->fbyte[i];
    fp->bit0 = c->fbit0[i];
}

static inline uint32_t fmask_read_at(const struct cb_target *t, const struct fmask_px *fp)
{
    return cb_fmask_frags(t->fmask, fp->byte, fp->bit0, fp->planes, t->samples);
}

static uint32_t fmask_read(const struct cb_target *t, unsigned x, unsigned y)
{
    struct fmask_px fp;
    fmask_locate(t, x, y, &fp);
    return fmask_read_at(t, &fp);
}

static void fmask_write_at(struct cb_target *t, const struct fmask_px *fp, unsigned s, unsigned frag)
{
    for (unsigned p = 0; p < fp->planes; p++) {
        uint8_t bit = (uint8_t)(1u << (fp->bit0[p] + s));
        if ((frag >> p) & 1u)
            t->fmask[fp->byte[p]] |= bit;
        else
            t->fmask[fp->byte[p]] &= (uint8_t)~bit;
    }
}

static void fmask_write_sample(struct cb_target *t, unsigned x, unsigned y, unsigned s, unsigned frag)
{
    struct fmask_px fp;
    fmask_locate(t, x, y, &fp);
    fmask_write_at(t, &fp, s, frag);
}

uint32_t cb_fmask_read(const struct cb_target *t, unsigned x, unsigned y)
{
    return fmask_read(t, x, y);
}

static inline unsigned frag_of(uint32_t frags, unsigned s)
{
    return (frags >> (4 * s)) & 0xFu;
}

/* ---- element access --------------------------------------------------------- */

uint8_t *cb_plane_ptr_slow(const struct cb_target *t, unsigned x, unsigned y, unsigned plane)
{
    if (!t->per_run)
        return t->mem + cedar_tile_addr(&t->map, x, y, plane, t->slice);
    struct cb_addr_cache *c = tile_cache(t, x, y);
    if (c->ctile) {
        unsigned i = cedar_tile_pixel_index(&t->map, x, y);
        return t->mem + c->ctile->run[plane * c->ctile->nrun + t->pix_run[i]] + t->pix_off[i];
    }
    if (!((c->have_plane >> plane) & 1u)) {
        cedar_tile_micro(&t->map, x >> 3, y >> 3, plane, t->slice, c->run[plane]);
        c->have_plane |= 1u << plane;
    }
    unsigned i = cedar_tile_pixel_index(&t->map, x, y);
    return t->mem + c->run[plane][t->pix_run[i]] + t->pix_off[i];
}

static inline uint8_t *plane_ptr(const struct cb_target *t, unsigned x, unsigned y, unsigned plane)
{
    return cb_plane_ptr(t, x, y, plane);
}

void cb_clear_element(const struct cb_target *t, uint8_t *out)
{
    /* CLEAR_WORD0/1 hold the colour in the surface's own format (Mesa
     * evergreen_set_clear_color packs it with the surface format). */
    uint8_t words[8];
    memcpy(words, &t->clear_word[0], 4);
    memcpy(words + 4, &t->clear_word[1], 4);
    memset(out, 0, t->bpe);
    memcpy(out, words, t->bpe < 8 ? t->bpe : 8);
}

void cb_read_sample_raw(const struct cb_target *t, unsigned x, unsigned y, unsigned sample, uint8_t *out)
{
    if (cb_tile_cleared(t, x, y)) {
        cb_clear_element(t, out);
        return;
    }
    unsigned plane = sample;
    if (t->fmask_on)
        plane = frag_of(fmask_read(t, x, y), sample);
    cb_copy_el(out, plane_ptr(t, x, y, plane), t->bpe);
}

void cb_read_sample(const struct cb_target *t, unsigned x, unsigned y, unsigned sample, float rgba[4])
{
    uint8_t raw[16];
    cb_read_sample_raw(t, x, y, sample, raw);
    cb_unpack(t, raw, rgba);
}

static void whole_tile_meta(struct cb_target *t, struct cb_addr_cache *c, unsigned x0, unsigned y0);

void cb_tile_expand(struct cb_target *t, unsigned x, unsigned y)
{
    /* Only the CB changes a tile's CMask during a draw, and only from
     * cleared to expanded: once seen expanded, a tile stays so. */
    struct cb_addr_cache *c = tile_cache(t, x, y);
    if (c->expanded)
        return;
    if (!cb_tile_cleared(t, x, y)) {
        c->expanded = true;
        return;
    }
    uint8_t el[16];
    cb_clear_element(t, el);
    unsigned x0 = x & ~7u, y0 = y & ~7u;
    uint8_t clear_bits = (uint8_t)(((1u << t->samples) - 1u) & 0xFFu);
    if (t->fmask_on && c->ctile && c->ftile && x0 + 8 <= t->width && y0 + 8 <= t->height) {
        /* the same stores through the tile's kept addresses */
        const struct color_tile *ct = c->ctile;
        const struct fmask_tile *ft = c->ftile;
        if (t->meta_apart && t->bpe == 4 && t->per_run >= 64) {
            /* plane 0 is run 0's first 64 elements; the FMask and CMask
             * stores as the whole-tile path makes them (the colour, FMask
             * and CMask bytes apart: their order is free) */
            cb_fill_run4(t->mem + ct->run[0], el);
            whole_tile_meta(t, c, x0, y0);
            return;
        }
        unsigned planes = t->fplanes;
        uint8_t *fmask = t->fmask;
        for (unsigned i = 0; i < 64; i++) {
            cb_copy_el(t->mem + ct->run[t->raster_run[i]] + t->raster_off[i], el, t->bpe);
            for (unsigned p = 0; p < planes; p++)
                fmask[ft->byte[i][p]] &= (uint8_t)~(clear_bits << ft->bit0[i][p]);
        }
        cmask_set(t, x, y, CMASK_COMPRESSED);
        c->expanded = true;
        return;
    }
    if (!t->fmask_on && c->ctile && x0 + 8 <= t->width && y0 + 8 <= t->height) {
        /* the loop below's stores through the tile's kept addresses, in its
         * order; one sample of 4-byte elements: the tile's 64 are run 0's
         * first 64, every one of them the same element */
        const struct color_tile *ct = c->ctile;
        if (t->samples == 1 && t->bpe == 4 && t->per_run >= 64)
            cb_fill_run4(t->mem + ct->run[0], el);
        else
            for (unsigned i = 0; i < 64; i++)
                for (unsigned s = 0; s < t->samples; s++)
                    cb_copy_el(t->mem + ct->run[s * ct->nrun + t->raster_run[i]] + t->raster_off[i], el, t->bpe);
        cmask_set(t, x, y, CMASK_EXPANDED);
        c->expanded = true;
        return;
    }
    for (unsigned py = y0; py < y0 + 8 && py < t->height; py++)
        for (unsigned px = x0; px < x0 + 8 && px < t->width; px++) {
            if (t->fmask_on) {
                /* colour in plane 0, every sample's fragment index 0 */
                cb_copy_el(plane_ptr(t, px, py, 0), el, t->bpe);
                struct fmask_px fp;
                fmask_locate(t, px, py, &fp);
                for (unsigned p = 0; p < fp.planes; p++)
                    t->fmask[fp.byte[p]] &= (uint8_t)~(clear_bits << fp.bit0[p]);
            } else {
                for (unsigned s = 0; s < t->samples; s++)
                    cb_copy_el(plane_ptr(t, px, py, s), el, t->bpe);
            }
        }
    cmask_set(t, x, y, t->fmask_on ? CMASK_COMPRESSED : CMASK_EXPANDED);
    tile_cache(t, x, y)->expanded = true;
}

void cb_pixel_decompress(struct cb_target *t, unsigned x, unsigned y)
{
    if (!t->fmask_on)
        return;
    cb_tile_expand(t, x, y);
    uint32_t frags = fmask_read(t, x, y);
    uint8_t colour[RS_MAX_SAMPLES][16];
    for (unsigned s = 0; s < t->samples; s++)
        cb_copy_el(colour[s], plane_ptr(t, x, y, frag_of(frags, s)), t->bpe);
    for (unsigned s = 0; s < t->samples; s++) {
        cb_copy_el(plane_ptr(t, x, y, s), colour[s], t->bpe);
        if (frag_of(frags, s) != s)
            fmask_write_sample(t, x, y, s, s);
    }
}

/* ---- blending ----------------------------------------------------------------- */

static float blend_factor(unsigned f, const float src[4], const float src1[4], const float dst[4],
                          const float cst[4], unsigned comp)
{
    bool alpha = comp == 3;
    switch (f) {
    case V_CB_BLEND_FACTOR__BLEND_ZERO: return 0.0f;
    case V_CB_BLEND_FACTOR__BLEND_ONE: return 1.0f;
    case V_CB_BLEND_FACTOR__BLEND_SRC_COLOR: return src[comp];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_SRC_COLOR: return 1.0f - src[comp];
    case V_CB_BLEND_FACTOR__BLEND_SRC_ALPHA: return src[3];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_SRC_ALPHA: return 1.0f - src[3];
    case V_CB_BLEND_FACTOR__BLEND_DST_ALPHA: return dst[3];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_DST_ALPHA: return 1.0f - dst[3];
    case V_CB_BLEND_FACTOR__BLEND_DST_COLOR: return dst[comp];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_DST_COLOR: return 1.0f - dst[comp];
    case V_CB_BLEND_FACTOR__BLEND_SRC_ALPHA_SATURATE: {
        float a = src[3] < 1.0f - dst[3] ? src[3] : 1.0f - dst[3];
        return alpha ? 1.0f : a;
    }
    case V_CB_BLEND_FACTOR__BLEND_CONST_COLOR: return cst[comp];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_CONST_COLOR: return 1.0f - cst[comp];
    case V_CB_BLEND_FACTOR__BLEND_CONST_ALPHA: return cst[3];
    case V_CB_BLEND_FACTOR__BLEND_ONE_MINUS_CONST_ALPHA: return 1.0f - cst[3];
    /* dual-source: the pixel shader's second colour (export 1) */
    case V_CB_BLEND_FACTOR__BLEND_SRC1_COLOR: return src1[comp];
    case V_CB_BLEND_FACTOR__BLEND_INV_SRC1_COLOR: return 1.0f - src1[comp];
    case V_CB_BLEND_FACTOR__BLEND_SRC1_ALPHA: return src1[3];
    case V_CB_BLEND_FACTOR__BLEND_INV_SRC1_ALPHA: return 1.0f - src1[3];
    default: return 0.0f;
    }
}

static float combine(unsigned fcn, float s, float sf, float d, float df)
{
    switch (fcn) {
    case V_CB_COMB_FCN__COMB_SRC_MINUS_DST: return s * sf - d * df;
    case V_CB_COMB_FCN__COMB_MIN_DST_SRC: return s < d ? s : d;
    case V_CB_COMB_FCN__COMB_MAX_DST_SRC: return s > d ? s : d;
    case V_CB_COMB_FCN__COMB_DST_MINUS_SRC: return d * df - s * sf;
    default: return s * sf + d * df;
    }
}

static bool blend_on(const struct cb_target *t)
{
    return G_CB_BLEND_CONTROL__BLEND_CONTROL_ENABLE(t->blend) &&
           t->number_type != V_CB_NUMBER_TYPE__NUMBER_UINT && t->number_type != V_CB_NUMBER_TYPE__NUMBER_SINT;
}

/* BLEND_CLAMP: the sources clamped to the target's range first (Mesa sets
 * it for UNORM, SNORM and SRGB targets: [0, 1], SNORM [-1, 1]). */
static void blend_clamp_src(const struct cb_target *t, const float in[4], float out[4])
{
    float lo = t->number_type == V_CB_NUMBER_TYPE__NUMBER_SNORM ? -1.0f : 0.0f;
    for (unsigned c = 0; c < 4; c++) {
        out[c] = in[c];
        if (t->blend_clamp && !t->fmt->fp)
            out[c] = out[c] < lo ? lo : out[c] > 1.0f ? 1.0f : out[c];
    }
}

static void blend(const struct cb_target *t, const float cst[4], const float src_in[4], const float src1_in[4],
                  const float dst[4], float out[4])
{
    static const float none[4] = {0, 0, 0, 0};
    float src[4], src1[4];
    blend_clamp_src(t, src_in, src);
    blend_clamp_src(t, src1_in ? src1_in : none, src1);
    bool separate = G_CB_BLEND_CONTROL__SEPARATE_ALPHA_BLEND(t->blend);
    for (unsigned c = 0; c < 4; c++) {
        bool a = c == 3 && separate;
        unsigned sf = a ? G_CB_BLEND_CONTROL__ALPHA_SRCBLEND(t->blend) : G_CB_BLEND_CONTROL__COLOR_SRCBLEND(t->blend);
        unsigned df = a ? G_CB_BLEND_CONTROL__ALPHA_DESTBLEND(t->blend) : G_CB_BLEND_CONTROL__COLOR_DESTBLEND(t->blend);
        unsigned fn = a ? G_CB_BLEND_CONTROL__ALPHA_COMB_FCN(t->blend) : G_CB_BLEND_CONTROL__COLOR_COMB_FCN(t->blend);
        out[c] = combine(fn, src[c], blend_factor(sf, src, src1, dst, cst, c), dst[c],
                         blend_factor(df, src, src1, dst, cst, c));
    }
}

/* CB_COLOR_CONTROL.ROP3 on the stored bits: result bit = bit
 * (P << 2 | S << 1 | D) of ROP3 (the Windows ROP3 index; 0xCC copies the
 * source).  The pattern P is taken as 0: Mesa writes GL's 4-bit logic op
 * into both nibbles, so it never matters.  GL (4.6 17.3.9) leaves float
 * targets alone. */
static bool rop_on(const struct cb_target *t)
{
    return t->rop3 != CB_ROP3_COPY && !t->fmt->fp;
}

static void rop_apply(const struct cb_target *t, const uint8_t *dst, uint8_t *el)
{
    for (unsigned b = 0; b < t->bpe; b++) {
        uint8_t s = el[b], d = dst[b], r = 0;
        for (unsigned k = 0; k < 4; k++) {
            if (!((t->rop3 >> k) & 1u))
                continue;
            uint8_t sm = (k & 2) ? s : (uint8_t)~s, dm = (k & 1) ? d : (uint8_t)~d;
            r |= sm & dm;
        }
        el[b] = r;
    }
}

/* The stores need the destination: blending, a write mask, a ROP. */
static bool reads_dst(const struct cb_target *t)
{
    return blend_on(t) || t->write_mask != 0xFu || rop_on(t);
}

/* The element stored for colour rgba over the element `old`: packed, through
 * the ROP, with the masked-off channels kept. */
static void masked_element(const struct cb_target *t, const float rgba[4], const uint8_t *old, uint8_t *out)
{
    cb_pack(t, rgba, out);
    if (rop_on(t))
        rop_apply(t, old, out);
    if (t->write_mask != 0xFu)
        cb_keep_channels(t, t->write_mask, old, out);
}

/* One colour for every covered sample: one fragment, stored in the lowest
 * plane the covered samples showed that no uncovered sample still shows,
 * else in the lowest plane nobody shows.  *moved: the covered samples that
 * showed another fragment (they now show the target). */
static inline unsigned one_colour_target(uint32_t frags, uint32_t coverage, unsigned samples, uint32_t *moved)
{
    uint32_t all = (1u << samples) - 1u, kept = 0, groups = 0;
    for (unsigned s = 0; s < samples; s++) {
        if ((coverage >> s) & 1u)
            groups |= 1u << frag_of(frags, s);
        else
            kept |= 1u << frag_of(frags, s);
    }
    uint32_t reuse = groups & ~kept & all, spare = ~kept & all;
    unsigned target = reuse ? (unsigned)__builtin_ctz(reuse) : spare ? (unsigned)__builtin_ctz(spare) : RS_MAX_SAMPLES;
    *moved = 0;
    for (unsigned s = 0; s < samples; s++)
        if (((coverage >> s) & 1u) && frag_of(frags, s) != target)
            *moved |= 1u << s;
    return target;
}

/* Samples `moved` of a pixel now show fragment `target`: one
 * read-modify-write per FMask plane. */
static inline void fmask_move(struct cb_target *t, const uint32_t *byte, const uint8_t *bit0, uint32_t moved,
                              unsigned target)
{
    if (!moved)
        return;
    for (unsigned p = 0; p < t->fplanes; p++) {
        uint8_t bits = (uint8_t)(moved << bit0[p]);
        if ((target >> p) & 1u)
            t->fmask[byte[p]] |= bits;
        else
            t->fmask[byte[p]] &= (uint8_t)~bits;
    }
}

void cb_write(struct cb_target *t, const float cst[4], unsigned x, unsigned y, uint32_t coverage,
              const float exported[4])
{
    cb_write_dual(t, cst, x, y, coverage, exported, NULL);
}

void cb_write_dual(struct cb_target *t, const float cst[4], unsigned x, unsigned y, uint32_t coverage,
                   const float exported[4], const float exported1[4])
{
    if (x >= t->width || y >= t->height || t->write_mask == 0)
        return;
    float rgba[4];
    cb_export_convert(t, exported, rgba);
    uint32_t all = (t->samples >= 32 ? 0xFFFFFFFFu : (1u << t->samples) - 1u);
    coverage &= all;
    if (!coverage)
        return;
    cb_tile_expand(t, x, y);
    bool do_blend = blend_on(t), rmw = reads_dst(t);
    float src1[4], *s1 = NULL;
    if (exported1) {
        cb_export_convert(t, exported1, src1);
        s1 = src1;
    }
    uint8_t el[16];

    if (!t->fmask_on) {
        if (!rmw)
            cb_pack(t, rgba, el);
        for (unsigned s = 0; s < t->samples; s++) {
            if (!((coverage >> s) & 1u))
                continue;
            uint8_t *p = plane_ptr(t, x, y, s);
            if (rmw) {
                float dst[4], res[4];
                cb_unpack(t, p, dst);
                if (do_blend)
                    blend(t, cst, rgba, s1, dst, res);
                else
                    memcpy(res, rgba, sizeof res);
                masked_element(t, res, p, el);
            }
            cb_copy_el(p, el, t->bpe);
        }
        return;
    }

    /* FMask: group the covered samples by the fragment they showed; each
     * group gets its new colour stored once, in its old plane when no
     * uncovered sample still shows that fragment, else in a free plane. */
    struct fmask_px fp;
    fmask_locate(t, x, y, &fp);
    uint32_t frags = fmask_read_at(t, &fp);
    uint32_t kept = 0;     /* fragments still shown by uncovered samples */
    uint32_t groups = 0;   /* fragments shown by covered samples */
    for (unsigned s = 0; s < t->samples; s++) {
        if ((coverage >> s) & 1u)
            groups |= 1u << frag_of(frags, s);
        else
            kept |= 1u << frag_of(frags, s);
    }
    bool same_result = !rmw;
    uint8_t results[RS_MAX_SAMPLES][16];
    unsigned target_of[RS_MAX_SAMPLES];
    uint32_t taken = kept;
    if (same_result) {
        cb_pack(t, rgba, results[0]);
        uint32_t moved;
        unsigned target = one_colour_target(frags, coverage, t->samples, &moved);
        cb_copy_el(plane_ptr(t, x, y, target), results[0], t->bpe);
        fmask_move(t, fp.byte, fp.bit0, moved, target);
        return;
    }
    for (unsigned f = 0; f < t->samples; f++) {
        if (!((groups >> f) & 1u))
            continue;
        uint8_t *p = plane_ptr(t, x, y, f);
        float dst[4], res[4];
        cb_unpack(t, p, dst);
        if (do_blend)
            blend(t, cst, rgba, s1, dst, res);
        else
            memcpy(res, rgba, sizeof res);
        masked_element(t, res, p, results[f]);
        if (!((kept >> f) & 1u)) {
            target_of[f] = f;
            taken |= 1u << f;
        } else {
            target_of[f] = RS_MAX_SAMPLES;
        }
    }
    for (unsigned f = 0; f < t->samples; f++) {
        if (!((groups >> f) & 1u) || target_of[f] != RS_MAX_SAMPLES)
            continue;
        for (unsigned g = 0; g < t->samples; g++)
            if (!((taken >> g) & 1u)) {
                target_of[f] = g;
                taken |= 1u << g;
                break;
            }
    }
    for (unsigned f = 0; f < t->samples; f++)
        if (((groups >> f) & 1u) && target_of[f] < t->samples)
            cb_copy_el(plane_ptr(t, x, y, target_of[f]), results[f], t->bpe);
    for (unsigned s = 0; s < t->samples; s++) {
        if (!((coverage >> s) & 1u))
            continue;
        unsigned f = frag_of(frags, s);
        if (target_of[f] != f && target_of[f] < t->samples)
            fmask_write_at(t, &fp, s, target_of[f]);
    }
}

/* An exported component as an 8-bit UNORM channel: to_unorm of the
 * export's half float (export.h), without a branch.  Inside (0, 1) the
 * half-float truncation of v >= 2^-14 (a normal half) is dropping the low
 * 13 bits of its float32 mantissa; below 2^-14 (where that is not the
 * truncation) the result is 0 either way (masked or not, v * 255 + 0.5 <
 * 0.52).  v >= 1 (its half, truncated toward zero, is >= 1 too) gives 255,
 * v <= 0 and NaN 0: the clamp to 1 and 0 below, before the same float
 * operations to_unorm does (v * 255, then + 0.5 unless truncating). */
struct unorm8_export {
    uint32_t keep;      /* mantissa bits the export keeps */
    float bias;         /* 0.5 (round to nearest) or 0 (ROUND_MODE truncate) */
};

static inline struct unorm8_export unorm8_export_of(const struct cb_target *t)
{
    struct unorm8_export e = {~0u, t->round_truncate ? 0.0f : 0.5f};
    if (t->export_16bpc)
        e.keep = ~((1u << (FLOAT_MANT_BITS - HALF_MANT_BITS)) - 1u);
    return e;
}

static inline uint8_t unorm8_of_export(struct unorm8_export e, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    u &= e.keep;
    float h;
    memcpy(&h, &u, 4);
    float c = v > 0.0f ? (v < 1.0f ? h : 1.0f) : 0.0f;
    float s = c * 255.0f;
    return (uint8_t)(int32_t)(s + e.bias);
}

/* cb_write_tile's own path: one colour per fragment, stored as 8-bit
 * UNORM RGBA through the kept address tables. */
static bool cb_write_direct(const struct cb_target *t)
{
    return t->fmask_on && !reads_dst(t) && t->unorm8 && t->bpe == 4 && t->comps == 4 &&
           t->ctab && t->ftab;
}

/* cb_write_tile's path for a target without FMask (one sample, or samples
 * in planes of their own): the exported colour stored as 8-bit UNORM RGBA in
 * every covered sample's plane through the kept address tables, as
 * cb_write_dual's plane loop stores cb_pack's element. */
static bool cb_write_plain_direct(const struct cb_target *t)
{
    return !t->fmask_on && !reads_dst(t) && t->unorm8 && t->bpe == 4 && t->comps == 4 && t->ctab;
}

/* The four 8-bit UNORM channels of an exported colour, stored a byte at a
 * time: bytes gathered on the stack and copied as one word would wait for
 * the four byte stores to retire (no store-to-load forwarding). */
static inline void store_unorm8x4(const struct cb_target *t, struct unorm8_export e, const float rgba[4],
                                  uint8_t *dst)
{
    uint8_t b0 = unorm8_of_export(e, rgba[t->swizzle[0]]), b1 = unorm8_of_export(e, rgba[t->swizzle[1]]),
            b2 = unorm8_of_export(e, rgba[t->swizzle[2]]), b3 = unorm8_of_export(e, rgba[t->swizzle[3]]);
    dst[0] = b0;
    dst[1] = b1;
    dst[2] = b2;
    dst[3] = b3;
}

/* The whole-tile path (cb_write_whole_tile, cb_write_whole_tile_lanes):
 * for the 64 pixels of one fast-cleared micro tile inside the surface,
 * every sample covered (render_priv.h), cb_tile_expand's stores (the clear
 * colour in plane 0, every FMask index 0, CMask compressed) followed by
 * each pixel's (fragment 0 again, nothing moves) leave the same bytes as the
 * colours stored in plane 0 with the expand's FMask and CMask writes, the
 * clear colour never stored (the stores' order is free: t->meta_apart).
 *
 * Its conditions on the target and the tile at (x0, y0)
 * (8-aligned): its address cache when they hold, NULL when not. */
static struct cb_addr_cache *whole_tile_cache(struct cb_target *t, unsigned x0, unsigned y0)
{
    if (!t->meta_apart || !cb_write_direct(t) || x0 + 8 > t->width || y0 + 8 > t->height)
        return NULL;
    struct cb_addr_cache *c = tile_cache(t, x0, y0);
    if (c->expanded || !c->ctile || !c->ftile || !cb_tile_cleared(t, x0, y0))
        return NULL;
    return c;
}

/* The whole-tile path's FMask and CMask writes, after the colours. */
static void whole_tile_meta(struct cb_target *t, struct cb_addr_cache *c, unsigned x0, unsigned y0)
{
    const struct fmask_tile *ft = c->ftile;
    uint8_t clear_bits = (uint8_t)((1u << t->samples) - 1u);
    if (ft->span_len && t->samples == t->fmap.samples) {
        /* the same bits cleared, byte by byte (bytes with none of the
         * tile's bits are not even rewritten: another thread's tile may
         * share them) */
        uint8_t *fm = t->fmask + ft->span_lo;
        if (ft->span_whole) /* every bit of the span is one to clear */
            memset(fm, 0, ft->span_len);
        else
            for (unsigned k = 0; k < ft->span_len; k++)
                if (ft->span_used[k])
                    fm[k] &= (uint8_t)~ft->span_used[k];
    } else {
        for (unsigned i = 0; i < 64; i++)
            for (unsigned p = 0; p < t->fplanes; p++)
                t->fmask[ft->byte[i][p]] &= (uint8_t)~(clear_bits << ft->bit0[i][p]);
    }
    cmask_set(t, x0, y0, CMASK_COMPRESSED);
    c->expanded = true;
}

bool cb_write_whole_tile(struct cb_target *t, const struct cb_fragment *f, unsigned n)
{
    uint32_t all = (1u << t->samples) - 1u;
    if (n != 64)
        return false;
    unsigned x0 = f[0].x & ~7u, y0 = f[0].y & ~7u;
    uint64_t seen = 0;
    for (unsigned l = 0; l < n; l++) {
        if ((f[l].x & ~7u) != x0 || (f[l].y & ~7u) != y0 || (f[l].coverage & all) != all)
            return false;
        seen |= 1ull << ((f[l].y & 7) * 8 + (f[l].x & 7));
    }
    if (seen != ~0ull)
        return false;
    struct cb_addr_cache *c = whole_tile_cache(t, x0, y0);
    if (!c)
        return false;
    const struct color_tile *ct = c->ctile;
    const struct unorm8_export ex = unorm8_export_of(t);
    for (unsigned l = 0; l < n; l++) {
        unsigned i = (f[l].y & 7) * 8 + (f[l].x & 7);
        store_unorm8x4(t, ex, f[l].rgba, t->mem + ct->run[t->raster_run[i]] + t->raster_off[i]);
    }
    whole_tile_meta(t, c, x0, y0);
    return true;
}

/* unorm8_of_export on four floats at once (GCC / Clang vector types): the
 * same mask, compares, product, sum and truncating conversion in every
 * lane, so the same byte per lane. */
typedef float v4f __attribute__((vector_size(4 * sizeof(float))));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cb_write_whole_tile_lanes stores a pixel's four bytes as one little-endian host word"
#endif
typedef uint32_t v4u __attribute__((vector_size(4 * sizeof(uint32_t))));
typedef int32_t v4i __attribute__((vector_size(4 * sizeof(int32_t))));

static inline v4u unorm8x4_of_export(struct unorm8_export e, const uint32_t bits[4])
{
    v4u u, h;
    memcpy(&u, bits, sizeof u);
    h = u & e.keep;
    v4f v, one = {1.0f, 1.0f, 1.0f, 1.0f};
    memcpy(&v, &u, sizeof v);
    v4u onebits, cbits;
    memcpy(&onebits, &one, sizeof onebits);
    v4u pos = (v4u)(v > 0.0f), below1 = (v4u)(v < 1.0f);
    cbits = pos & ((below1 & h) | (~below1 & onebits));   /* v > 0 ? (v < 1 ? h : 1) : 0 */
    v4f c;
    memcpy(&c, &cbits, sizeof c);
    v4f sum = c * 255.0f + e.bias;
    /* c in [0, 1]: sum in [0, 255.5], its truncation a byte already */
    return (v4u)__builtin_convertvector(sum, v4i);
}

/* The 64 colours of lane[] (as cb_write_whole_tile_lanes takes them) as
 * 8-bit UNORM RGBA in plane `plane` of the tile whose runs are ct. */
static void lanes_to_plane(const struct cb_target *t, const struct color_tile *ct, unsigned plane,
                           const uint32_t *const lane[4])
{
    const struct unorm8_export ex = unorm8_export_of(t);
    /* stored byte k of a pixel: its channel swizzle[k] */
    const uint32_t *sw[4] = {lane[t->swizzle[0]], lane[t->swizzle[1]], lane[t->swizzle[2]], lane[t->swizzle[3]]};
    const uint64_t *run = &ct->run[plane * ct->nrun];
    /* the tile's plane in one run (2D tiling's usual micro tile) */
    bool one_run = t->per_run >= 64;
    uint8_t *base = t->mem + run[0];
    for (unsigned i = 0; i < 64; i += 4) {
        /* four pixels' bytes 0..3 packed into one word each, byte 0 lowest
         * (stored as a host word: see the byte-order check above) */
        v4u px = unorm8x4_of_export(ex, &sw[0][i]) | unorm8x4_of_export(ex, &sw[1][i]) << 8 |
                 unorm8x4_of_export(ex, &sw[2][i]) << 16 | unorm8x4_of_export(ex, &sw[3][i]) << 24;
        if (t->raster_quads)   /* 2D tiling's 32-bit displayable order: x0 x1 lowest */
            memcpy(base + t->raster_off[i], &px, sizeof px);
        else if (one_run)
            for (unsigned q = 0; q < 4; q++) {
                uint32_t word = px[q];
                memcpy(base + t->raster_off[i + q], &word, 4);
            }
        else
            for (unsigned q = 0; q < 4; q++) {
                uint32_t word = px[q];
                memcpy(t->mem + run[t->raster_run[i + q]] + t->raster_off[i + q], &word, 4);
            }
    }
}

bool cb_write_whole_tile_lanes(struct cb_target *t, unsigned x0, unsigned y0, const uint32_t *const lane[4])
{
    if ((x0 | y0) & 7u)
        return false;
    if (cb_write_plain_direct(t)) {
        /* no FMask: every sample's plane gets the tile's colours, after
         * the CMask expand cb_write_dual starts with */
        if (x0 + 8 > t->width || y0 + 8 > t->height || !tile_cache(t, x0, y0)->ctile)
            return false;
        cb_tile_expand(t, x0, y0);
        const struct color_tile *ct = tile_cache(t, x0, y0)->ctile;
        for (unsigned s = 0; s < t->samples; s++)
            lanes_to_plane(t, ct, s, lane);
        return true;
    }
    struct cb_addr_cache *c = whole_tile_cache(t, x0, y0);
    if (!c)
        return false;
    lanes_to_plane(t, c->ctile, 0, lane);
    whole_tile_meta(t, c, x0, y0);
    return true;
}

void cb_write_tile(struct cb_target *t, const float cst[4], const struct cb_fragment *f, unsigned n)
{
    bool direct = cb_write_direct(t), plain = !direct && cb_write_plain_direct(t);
    uint32_t all = (1u << t->samples) - 1u;
    if (direct && cb_write_whole_tile(t, f, n))
        return;
    const struct cb_addr_cache *c = NULL;
    const struct unorm8_export ex = unorm8_export_of(t);
    for (unsigned l = 0; l < n; l++) {
        unsigned x = f[l].x, y = f[l].y;
        uint32_t coverage = f[l].coverage & all;
        if (!(direct || plain) || x >= t->width || y >= t->height || !coverage) {
            cb_write_dual(t, cst, x, y, f[l].coverage, f[l].rgba, f[l].src1);
            continue;
        }
        if (!c || c->mx != (int)(x >> 3) || c->my != (int)(y >> 3)) {
            cb_tile_expand(t, x, y);
            c = tile_cache(t, x, y);
        }
        if (!c->ctile || (direct && !c->ftile)) {
            cb_write(t, cst, x, y, f[l].coverage, f[l].rgba);
            continue;
        }
        unsigned i = (y & 7) * 8 + (x & 7);
        if (plain) {
            /* cb_write_dual's plane loop: the element in each covered
             * sample's plane */
            const struct color_tile *ct = c->ctile;
            const uint8_t *first = NULL;
            for (uint32_t cv = coverage; cv; cv &= cv - 1u) {
                unsigned s = (unsigned)__builtin_ctz(cv);
                uint8_t *dst = t->mem + ct->run[s * ct->nrun + t->raster_run[i]] + t->raster_off[i];
                if (first)
                    memcpy(dst, first, 4);
                else
                    store_unorm8x4(t, ex, f[l].rgba, dst);
                first = dst;
            }
            continue;
        }
        /* cb_write's one-colour FMask path, through the tile's tables */
        /* cb_export_convert (UNORM: half floats when 16 bits per
         * component) and cb_pack's 8-bit UNORM path, inline */
        uint32_t frags = cb_fmask_frags(t->fmask, c->ftile->byte[i], c->ftile->bit0[i], t->fplanes, t->samples);
        uint32_t moved = 0;
        /* every sample covered and showing fragment 0 (a fresh or fully
         * overwritten pixel): fragment 0 again, nothing moves */
        unsigned target = coverage == all && frags == 0 ? 0 : one_colour_target(frags, coverage, t->samples, &moved);
        store_unorm8x4(t, ex, f[l].rgba,
                       t->mem + c->ctile->run[target * c->ctile->nrun + t->raster_run[i]] + t->raster_off[i]);
        fmask_move(t, c->ftile->byte[i], c->ftile->bit0[i], moved, target);
    }
}
