/* The Evergreen address map: building a cedar_tile_map, element and FMask
 * addresses, and the inverse.  Formulas: see include/cedar/tiling.h. */
#include "cedar/tiling.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MICRO_TILE_PIXELS 64 /* 8x8 pixels, thin modes only */

static int fail(struct cedar_layout_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_pow2_in(unsigned v, unsigned lo, unsigned hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

/* --- pixel order inside a micro tile --------------------------------------
 * addrlib ComputePixelIndexWithinMicroTile (thin): which coordinate bit feeds
 * each pixel-index bit, lowest first.  0..2 = x0..x2, 3..5 = y0..y2. */
enum { X0, X1, X2, Y0, Y1, Y2 };
static const uint8_t order_disp[5][6] = {
    {X0, X1, X2, Y1, Y0, Y2}, /* 8 bpp */
    {X0, X1, X2, Y0, Y1, Y2}, /* 16 bpp */
    {X0, X1, Y0, X2, Y1, Y2}, /* 32 bpp */
    {X0, Y0, X1, X2, Y1, Y2}, /* 64 bpp */
    {Y0, X0, X1, X2, Y1, Y2}, /* 128 bpp */
};
static const uint8_t order_nondisp[6] = {X0, Y0, X1, Y1, X2, Y2};

static void build_pixel_order(struct cedar_tile_map *m, const uint8_t *bits)
{
    for (unsigned xy = 0; xy < 64; xy++) {
        unsigned coord = (xy & 7) | ((xy >> 3) << 3); /* x0..x2 then y0..y2 */
        unsigned idx = 0;
        for (unsigned b = 0; b < 6; b++)
            idx |= ((coord >> bits[b]) & 1u) << b;
        m->pix_index[xy] = (uint8_t)idx;
        m->pix_xy[idx] = (uint8_t)xy;
    }
    /* Leading x bits of the index give runs of pixels adjacent in x and in memory. */
    unsigned k = 0;
    while (k < 3 && bits[k] == X0 + k)
        k++;
    m->span_elems = (uint8_t)(1u << k);
    m->span_count = (uint8_t)(64u >> k);
    unsigned n = 0;
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x += m->span_elems) {
            m->span_xy[n] = (uint8_t)(y * 8 + x);
            m->span_index[n] = m->pix_index[y * 8 + x];
            n++;
        }
}

/* --- pipe and bank from coordinates ---------------------------------------- */

/* r800addrlib.cpp ComputePipeFromCoord (no 3D-mode rotation, no swizzle).
 * Bits are of the micro-tile coordinates: x3 = bit 0 of x/8, and so on. */
static unsigned pipe_of(const struct cedar_tile_map *m, unsigned x, unsigned y)
{
    unsigned tx = x >> 3, ty = y >> 3;
    unsigned x3 = tx & 1, x4 = (tx >> 1) & 1, x5 = (tx >> 2) & 1;
    unsigned y3 = ty & 1, y4 = (ty >> 1) & 1, y5 = (ty >> 2) & 1;
    switch (m->pipes) {
    case 2:
        return x3 ^ y3;
    case 4:
        return (x4 ^ y3) | (x3 ^ y4) << 1;
    case 8:
        if (m->shader_engines == 1)
            return (x4 ^ y4 ^ x5) | (x3 ^ y5) << 1 | (x4 ^ y3 ^ y5) << 2;
        if (m->se_tile == 16)
            return (x4 ^ y3 ^ x5) | (x3 ^ y5) << 1 | (x4 ^ y4) << 2;
        return (x4 ^ y3 ^ x5) | (x3 ^ y4) << 1 | (x5 ^ y5) << 2;
    default:
        return 0;
    }
}

/* egbaddrlib.cpp ComputeBankFromCoord for 2D thin: bank from the coordinates
 * in units of bank width/height, then rotated per slice by banks/2-1 and per
 * tile-split piece by banks/2+1. */
static unsigned bank_of(const struct cedar_tile_map *m, unsigned x, unsigned y, unsigned slice,
                        unsigned piece)
{
    unsigned tx = (x >> 3) >> log2u(m->bankw * m->pipes);
    unsigned ty = (y >> 3) >> log2u(m->bankh);
    unsigned x3 = tx & 1, x4 = (tx >> 1) & 1, x5 = (tx >> 2) & 1, x6 = (tx >> 3) & 1;
    unsigned y3 = ty & 1, y4 = (ty >> 1) & 1, y5 = (ty >> 2) & 1, y6 = (ty >> 3) & 1;
    unsigned bank;
    switch (m->banks) {
    case 16:
        bank = (x3 ^ y6) | (x4 ^ y5 ^ y6) << 1 | (x5 ^ y4) << 2 | (x6 ^ y3) << 3;
        break;
    case 8:
        bank = (x3 ^ y5) | (x4 ^ y4 ^ y5) << 1 | (x5 ^ y3) << 2;
        break;
    default: /* 4 */
        bank = (x3 ^ y4) | (x4 ^ y3) << 1;
        break;
    }
    bank ^= (m->banks / 2 - 1) * slice;
    bank ^= (m->banks / 2 + 1) * piece;
    return bank & (m->banks - 1);
}

/* --- addresses ------------------------------------------------------------- */

/* Address of byte E of the micro tile holding (x, y) (E counts over all planes
 * of the micro tile, before tile splitting).  Tiled modes only. */
static uint64_t tiled_addr(const struct cedar_tile_map *m, unsigned x, unsigned y, unsigned slice,
                           uint32_t E)
{
    if (m->mode == CEDAR_MODE_1D_THIN) {
        /* egbaddrlib.cpp ComputeSurfaceAddrFromCoordMicroTiled */
        uint64_t tile = (uint64_t)(y >> 3) * (m->width >> 3) + (x >> 3);
        return slice * m->slice_size + tile * m->micro_bytes + E;
    }
    /* egbaddrlib.cpp ComputeSurfaceAddrFromCoordMacroTiled */
    uint32_t piece = E / m->piece_bytes;
    uint32_t e = E % m->piece_bytes;
    uint64_t macro = (uint64_t)(y / m->macro_h) * m->macros_per_row + x / m->macro_w;
    uint32_t tile = ((y >> 3) & (m->bankh - 1)) * m->bankw +
                    (((x >> 3) >> m->lg_pipes) & (m->bankw - 1));
    uint64_t total = m->piece_slice_bytes * (piece + (uint64_t)m->pieces * slice) +
                     macro * m->macro_bytes + (uint64_t)tile * m->piece_bytes + e;
    uint64_t pipe = pipe_of(m, x, y);
    uint64_t bank = bank_of(m, x, y, slice, piece);
    return (total & (m->group_bytes - 1)) | pipe << m->lg_group |
           bank << (m->lg_group + m->lg_pipes) |
           (total >> m->lg_group) << (m->lg_group + m->lg_pipes + m->lg_banks);
}

uint64_t cedar_tile_addr(const struct cedar_tile_map *m, unsigned x, unsigned y, unsigned sample,
                         unsigned slice)
{
    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) /* ComputeSurfaceAddrFromCoordLinear */
        return (((uint64_t)slice * m->height + y) * m->width + x) * m->bpe;
    return tiled_addr(m, x, y, slice, cedar_tile_element_offset(m, x, y, sample));
}

unsigned cedar_tile_micro_runs(const struct cedar_tile_map *m, unsigned mx, unsigned my, unsigned slice,
                               uint64_t *run, unsigned max)
{
    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED || m->is_fmask || !m->run_bytes)
        return 0;
    /* runs stay inside one tile-split piece and one pipe-interleave group
     * (init_common), so each is contiguous in the address */
    unsigned n = m->micro_bytes / m->run_bytes;
    if (n == 0 || n > max)
        return 0;
    for (unsigned k = 0; k < n; k++)
        run[k] = tiled_addr(m, mx * 8, my * 8, slice, k * m->run_bytes);
    return n;
}

unsigned cedar_fmask_planes(const struct cedar_tile_map *m)
{
    return m->planes;
}

void cedar_fmask_bit(const struct cedar_tile_map *m, unsigned x, unsigned y, unsigned sample,
                     unsigned plane, unsigned slice, uint64_t *byte, unsigned *bit)
{
    /* egbaddrlib.cpp (2014) ComputeFmaskAddrFromCoordMacroTiled: a colour
     * surface of elem_bits-bit elements with `planes` samples, sample = plane;
     * the bit inside the byte is (pixel_index * elem_bits + sample) % 8. */
    unsigned pi = m->pix_index[(y & 7) * 8 + (x & 7)];
    uint32_t bits = plane * MICRO_TILE_PIXELS * m->elem_bits + pi * m->elem_bits;
    *byte = tiled_addr(m, x, y, slice, bits / 8);
    *bit = (pi * m->elem_bits + sample) & 7;
}

unsigned cedar_fmask_fragment(const struct cedar_tile_map *m, const uint8_t *fmask, unsigned x,
                              unsigned y, unsigned sample, unsigned slice)
{
    unsigned frag = 0;
    for (unsigned p = 0; p < m->planes; p++) {
        uint64_t byte;
        unsigned bit;
        cedar_fmask_bit(m, x, y, sample, p, slice, &byte, &bit);
        frag |= ((fmask[byte] >> bit) & 1u) << p;
    }
    return frag;
}

unsigned cedar_fmask_micro(const struct cedar_tile_map *m, unsigned mx, unsigned my, unsigned slice,
                           uint64_t byte[64][4], uint8_t bit0[64][4])
{
    if (!m->is_fmask || m->planes > 4)
        return 0;
    /* A plane of the micro tile is 64 elements of elem_bits; its bytes come
     * in runs of run_bytes that are contiguous in the address (init_common:
     * a run stays inside one tile-split piece and one pipe-interleave
     * group), so one tiled_addr per run places all of them. */
    const uint32_t plane_bytes = MICRO_TILE_PIXELS * m->elem_bits / 8;
    const unsigned runs = plane_bytes / m->run_bytes;
    const unsigned lg_run = log2u(m->run_bytes);   /* a power of two (init_common) */
    for (unsigned p = 0; p < m->planes; p++) {
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        for (unsigned k = 0; k < runs && k < CEDAR_MICRO_RUNS_MAX; k++)
            run[k] = tiled_addr(m, mx * 8, my * 8, slice, p * plane_bytes + k * m->run_bytes);
        for (unsigned xy = 0; xy < MICRO_TILE_PIXELS; xy++) {
            unsigned pi = m->pix_index[xy];
            uint32_t b = (pi * m->elem_bits) >> 3;   /* the pixel's byte in the plane */
            byte[xy][p] = run[b >> lg_run] + (b & (m->run_bytes - 1));
            bit0[xy][p] = (uint8_t)((pi * m->elem_bits) & 7);
        }
    }
    return m->planes;
}

void cedar_fmask_tile_fragments(const struct cedar_tile_map *m, const uint8_t *fmask, unsigned mx,
                                unsigned my, unsigned slice, uint32_t frags[64])
{
    uint64_t byte[64][4];
    uint8_t bit0[64][4];
    unsigned planes = cedar_fmask_micro(m, mx, my, slice, byte, bit0);
    if (!planes)
        return;
    const unsigned sample_mask = (1u << m->samples) - 1u;
    for (unsigned xy = 0; xy < MICRO_TILE_PIXELS; xy++) {
        uint32_t f = 0;
        for (unsigned p = 0; p < planes; p++) {
            /* bit s of the plane's sample bits -> bit p of nibble s */
            uint32_t v = (fmask[byte[xy][p]] >> bit0[xy][p]) & sample_mask;
            v = (v | v << 12) & 0x000F000Fu;
            v = (v | v << 6) & 0x03030303u;
            v = (v | v << 3) & 0x11111111u;
            f |= v << p;
        }
        frags[xy] = f;
    }
}

unsigned cedar_tile_micro(const struct cedar_tile_map *m, unsigned mx, unsigned my,
                          unsigned sample, unsigned slice, uint64_t run[CEDAR_MICRO_RUNS_MAX])
{
    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED || m->is_fmask || m->depth_order)
        return 0;
    uint32_t plane_bytes = MICRO_TILE_PIXELS * m->bpe;
    unsigned n = plane_bytes / m->run_bytes;
    uint32_t E0 = sample * plane_bytes;
    for (unsigned k = 0; k < n; k++)
        run[k] = tiled_addr(m, mx * 8, my * 8, slice, E0 + k * m->run_bytes);
    return n;
}

/* --- inverse ---------------------------------------------------------------- */

int cedar_tile_coord(const struct cedar_tile_map *m, uint64_t off, struct cedar_tile_coord *out)
{
    if (off >= m->size || m->is_fmask)
        return -1;
    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
        uint64_t el = off / m->bpe;
        out->byte = (unsigned)(off % m->bpe);
        out->sample = 0;
        out->x = (unsigned)(el % m->width);
        out->y = (unsigned)(el / m->width % m->height);
        out->slice = (unsigned)(el / m->width / m->height);
        return 0;
    }
    unsigned mx, my, slice;
    uint32_t E;
    if (m->mode == CEDAR_MODE_1D_THIN) {
        slice = (unsigned)(off / m->slice_size);
        uint64_t rem = off % m->slice_size;
        uint64_t tile = rem / m->micro_bytes;
        E = (uint32_t)(rem % m->micro_bytes);
        mx = (unsigned)(tile % (m->width >> 3));
        my = (unsigned)(tile / (m->width >> 3));
    } else {
        /* Take the pipe and bank bits out, then undo the linear part; the
         * micro tile is the one of the macro tile whose pipe and bank match
         * (egbaddrlib ComputeSurfaceCoordFromAddrMacroTiled solves the same
         * equations per aspect ratio; a search over the pipes*banks
         * candidates is simpler and exact). */
        unsigned lg = m->lg_group, lp = m->lg_pipes, lb = m->lg_banks;
        unsigned pipe = (unsigned)((off >> lg) & (m->pipes - 1));
        unsigned bank = (unsigned)((off >> (lg + lp)) & (m->banks - 1));
        uint64_t total = ((off >> (lg + lp + lb)) << lg) | (off & (m->group_bytes - 1));
        uint64_t ps = total / m->piece_slice_bytes;
        uint64_t rem = total % m->piece_slice_bytes;
        slice = (unsigned)(ps / m->pieces);
        unsigned piece = (unsigned)(ps % m->pieces);
        uint64_t macro = rem / m->macro_bytes;
        uint64_t mrem = rem % m->macro_bytes;
        unsigned tile = (unsigned)(mrem / m->piece_bytes);
        E = piece * m->piece_bytes + (uint32_t)(mrem % m->piece_bytes);
        unsigned row = tile / m->bankw, col = tile % m->bankw;
        unsigned mx0 = (unsigned)(macro % m->macros_per_row) * (m->macro_w >> 3);
        unsigned my0 = (unsigned)(macro / m->macros_per_row) * (m->macro_h >> 3);
        unsigned rows = (m->macro_h >> 3) / m->bankh;
        int found = 0;
        for (unsigned q = 0; q < m->mtilea && !found; q++)
            for (unsigned p = 0; p < m->pipes && !found; p++)
                for (unsigned r = 0; r < rows && !found; r++) {
                    unsigned cx = mx0 + (q * m->bankw + col) * m->pipes + p;
                    unsigned cy = my0 + r * m->bankh + row;
                    if (pipe_of(m, cx * 8, cy * 8) == pipe &&
                        bank_of(m, cx * 8, cy * 8, slice, piece) == bank) {
                        mx = cx;
                        my = cy;
                        found = 1;
                    }
                }
        if (!found)
            return -1; /* cannot happen for offsets below size: the map is a bijection */
    }
    uint32_t plane_bytes = MICRO_TILE_PIXELS * m->bpe;
    unsigned xy = m->pix_xy[(E % plane_bytes) / m->bpe];
    out->sample = E / plane_bytes;
    if (m->depth_order) {
        xy = m->pix_xy[E / m->bpe / m->samples];
        out->sample = E / m->bpe % m->samples;
    }
    out->byte = E % m->bpe;
    out->x = mx * 8 + (xy & 7);
    out->y = my * 8 + (xy >> 3);
    out->slice = slice;
    return 0;
}

/* --- building the map ----------------------------------------------------- */

static int init_common(struct cedar_tile_map *m, const struct cedar_surface *s,
                       const struct cedar_tile_opts *opts, unsigned elem_bits, unsigned planes,
                       const uint8_t *order, struct cedar_layout_err *err)
{
    const struct cedar_tiling *t = &s->tiling;
    m->mode = s->mode;
    m->width = s->aligned_width;
    m->height = s->aligned_height;
    m->elem_bits = elem_bits;
    m->planes = planes;
    m->slices = opts && opts->slices ? opts->slices : 1;
    m->pipes = t->pipes;
    m->banks = t->banks;
    m->group_bytes = t->group_bytes;
    m->bankw = s->bankw;
    m->bankh = s->bankh;
    m->mtilea = s->mtilea;
    m->tile_split = s->tile_split;
    m->shader_engines = opts && opts->shader_engines ? opts->shader_engines : 2;
    m->se_tile = opts && opts->se_tile ? opts->se_tile : 32;
    if (m->pipes != 8)
        m->shader_engines = 1; /* more than one SE only on 8-pipe parts (R800 sanity check) */

    if (m->mode != CEDAR_MODE_LINEAR_ALIGNED && m->mode != CEDAR_MODE_1D_THIN &&
        m->mode != CEDAR_MODE_2D_THIN)
        return fail(err, "unknown array mode %d", (int)m->mode);
    if (m->width == 0 || m->height == 0 || m->width > 32768 || m->height > 32768)
        return fail(err, "surface size %ux%u out of range", m->width, m->height);
    if (m->slices > 2048)
        return fail(err, "%u slices: at most 2048", m->slices);
    if (m->mode != CEDAR_MODE_2D_THIN && planes > 1 && !m->is_fmask)
        return fail(err, "%u samples need a 2D tiled surface (no linear or 1D MSAA)", planes);
    if (m->width % 8)
        return fail(err, "pitch %u is not a multiple of 8 pixels", m->width);
    if (m->mode != CEDAR_MODE_LINEAR_ALIGNED && m->height % 8)
        return fail(err, "height %u is not a multiple of the 8-pixel micro tile", m->height);
    if (!is_pow2_in(m->pipes, 1, 8))
        return fail(err, "%u pipes: must be 1, 2, 4 or 8", m->pipes);
    if (!is_pow2_in(m->banks, 4, 16))
        return fail(err, "%u banks: must be 4, 8 or 16", m->banks);
    if (m->group_bytes != 256 && m->group_bytes != 512)
        return fail(err, "pipe interleave %u: must be 256 or 512 bytes", m->group_bytes);
    if (m->shader_engines != 1 && m->shader_engines != 2)
        return fail(err, "%u shader engines: must be 1 or 2", m->shader_engines);
    if (m->se_tile != 16 && m->se_tile != 32)
        return fail(err, "shader engine tile size %u: must be 16 or 32", m->se_tile);

    m->lg_group = log2u(m->group_bytes);
    m->lg_pipes = log2u(m->pipes);
    m->lg_banks = log2u(m->banks);
    m->micro_bytes = MICRO_TILE_PIXELS * elem_bits * planes / 8;
    build_pixel_order(m, order);

    uint64_t plane_bytes = (uint64_t)m->width * m->height * elem_bits / 8;
    if (m->mode == CEDAR_MODE_2D_THIN) {
        if (!is_pow2_in(m->bankw, 1, 8) || !is_pow2_in(m->bankh, 1, 8) ||
            !is_pow2_in(m->mtilea, 1, 8))
            return fail(err, "bank width %u, bank height %u, macro aspect %u: each must be 1, 2, 4 or 8",
                        m->bankw, m->bankh, m->mtilea);
        if (m->mtilea > m->banks)
            return fail(err, "macro aspect %u exceeds the %u banks", m->mtilea, m->banks);
        if (!is_pow2_in(m->tile_split, 64, 4096))
            return fail(err, "tile split %u: must be 64, 128, ..., 4096 bytes", m->tile_split);
        m->macro_w = 8 * m->bankw * m->pipes * m->mtilea;
        m->macro_h = 8 * m->bankh * m->banks / m->mtilea;
        if (m->width % m->macro_w || m->height % m->macro_h)
            return fail(err, "%ux%u is not a whole number of %ux%u macro tiles", m->width,
                        m->height, m->macro_w, m->macro_h);
        m->pieces = 1;
        m->piece_bytes = m->micro_bytes;
        if (m->micro_bytes > m->tile_split) {
            m->pieces = m->micro_bytes / m->tile_split;
            m->piece_bytes = m->tile_split;
        }
        /* egbaddrlib ComputeSurfaceAlignmentsMacroTiled: bank_height_align =
         * group / (tile_size * bank_width), i.e. one bank's share of a macro
         * tile fills at least a pipe-interleave group.  (addrlib also wants it
         * to fit a DRAM row, but libdrm, which Mesa r600 uses, lays out e.g.
         * 16-byte 2x MSAA with a 2 KB tile split on 1 KB rows: not checked.) */
        uint64_t share = (uint64_t)m->piece_bytes * m->bankw * m->bankh;
        /* Not for depth / stencil maps: libdrm gives the stencil of a 4x
         * depth buffer 64-byte pieces with the depth's bank height 2
         * (Mesa r600 programs DB_STENCIL_INFO.TILE_SPLIT 0 with it). */
        if (share < m->group_bytes && !(opts && opts->depth_sample_order))
            return fail(err, "tile size %u x bank width %u x bank height %u = %llu is below the "
                        "%u-byte pipe interleave", m->piece_bytes, m->bankw, m->bankh,
                        (unsigned long long)share, m->group_bytes);
        m->macros_per_row = m->width / m->macro_w;
        /* Offsets below are "total" offsets: one pipe and bank's share; the
         * pipe and bank bits are inserted into the address afterwards. */
        m->macro_bytes = share;
        m->piece_slice_bytes = (uint64_t)m->macros_per_row * (m->height / m->macro_h) * m->macro_bytes;
        m->slice_size = m->piece_slice_bytes * m->pieces * m->pipes * m->banks;
        /* A run is contiguous in total offset (one plane of one piece) and
         * does not cross a pipe-interleave group. */
        uint32_t run = MICRO_TILE_PIXELS * elem_bits / 8;
        if (run > m->piece_bytes)
            run = m->piece_bytes;
        if (run > m->group_bytes)
            run = m->group_bytes;
        m->run_bytes = run;
    } else {
        m->bankw = m->bankh = m->mtilea = 1;
        m->pieces = 1;
        m->piece_bytes = m->micro_bytes;
        m->slice_size = plane_bytes * planes;
        m->run_bytes = MICRO_TILE_PIXELS * elem_bits / 8;
    }
    if (plane_bytes * planes != m->slice_size)
        return fail(err, "internal: slice size mismatch"); /* every byte belongs to one element */
    m->size = m->slice_size * m->slices;
    return 0;
}

int cedar_tile_map_init(struct cedar_tile_map *m, const struct cedar_surface *s,
                        const struct cedar_tile_opts *opts, struct cedar_layout_err *err)
{
    memset(m, 0, sizeof *m);
    unsigned bpe = s->bpe;
    if (!is_pow2_in(bpe, 1, 16))
        return fail(err, "%u bytes per element: must be 1, 2, 4, 8 or 16", bpe);
    if (!is_pow2_in(s->samples, 1, 8))
        return fail(err, "%u samples: must be 1, 2, 4 or 8", s->samples);
    enum cedar_micro_order ord = opts ? opts->order : CEDAR_MICRO_DISPLAYABLE;
    const uint8_t *order = ord == CEDAR_MICRO_NON_DISPLAYABLE ? order_nondisp
                                                               : order_disp[log2u(bpe)];
    m->bpe = bpe;
    m->samples = s->samples;
    m->depth_order = opts && opts->depth_sample_order && s->samples > 1;
    m->sample_step = m->depth_order ? 1 : MICRO_TILE_PIXELS;
    m->pixel_step = m->depth_order ? s->samples : 1;
    return init_common(m, s, opts, bpe * 8, s->samples, order, err);
}

int cedar_fmask_map_init(struct cedar_tile_map *m, const struct cedar_surface *fmask_surf,
                         unsigned color_samples, const struct cedar_tile_opts *opts,
                         struct cedar_layout_err *err)
{
    memset(m, 0, sizeof *m);
    if (color_samples != 2 && color_samples != 4 && color_samples != 8)
        return fail(err, "FMask needs 2, 4 or 8 colour samples, not %u", color_samples);
    if (fmask_surf->mode == CEDAR_MODE_LINEAR_ALIGNED)
        return fail(err, "an FMask surface is tiled (1D or 2D), not linear");
    /* egbaddrlib ComputeFmaskNumPlanesFromNumSamples, with 2x laid out as 4x */
    unsigned eff = color_samples == 2 ? 4 : color_samples;
    m->is_fmask = 1;
    m->samples = color_samples;
    m->bpe = 0;
    return init_common(m, fmask_surf, opts, eff, eff == 8 ? 4 : 2, order_nondisp, err);
}
