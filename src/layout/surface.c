/* Evergreen colour surfaces, chosen and sized as libdrm_radeon 2.4.114 does.
 *
 * Facts from libdrm radeon/radeon_surface.c (read, not copied):
 *  - eg_surface_best(): the 2D parameters.  Tile split = DRAM row size for
 *    single-sample surfaces, max(2 x bpe x 64, 256) capped at 4096 for MSAA
 *    colour; bank width 1; bank height from the micro tile size (64 B -> 4,
 *    128/256 B -> 2, else 1), doubled until a bank holds one pipe interleave;
 *    macro tile aspect = 2^(floor(log2(bankh x banks / (bankw x pipes))) / 2).
 *    For a non-2D request it only sets defaults (tile split 1024, bankw 1,
 *    bankh by the same interleave rule, aspect min(banks, 8)).
 *  - eg_surface_sanity(): the limits the parameters must respect.
 *  - eg_surface_init_2d()/eg_surf_minify(): macro tile = (8 x bankw x pipes x
 *    aspect) by (8 x bankh x banks / aspect) pixels; width and height are
 *    aligned to it; slice = macro tiles x macro tile bytes x tile slices;
 *    base alignment = max(256, macro tile bytes).  A single-sample non-FMask
 *    surface smaller than one macro tile falls back to 1D (keeping the 2D
 *    alignment).
 *  - eg_surface_init_1d(): width aligned to max(8, interleave / (8 x bpe x
 *    samples)) (scanout: at least 32, 64 for 1 byte), height to 8.
 *  - r6_surface_init_linear_aligned(): width aligned to max(64, interleave /
 *    bpe), base alignment max(256, interleave).
 */
#include "layout_priv.h"

/* Where the hardware can split a micro tile (CB_COLOR*_ATTRIB.TILE_SPLIT). */
#define TILE_SPLIT_MIN 64u
#define TILE_SPLIT_MAX 4096u
/* libdrm's default tile split before it knows better, and the MSAA colour
 * minimum ("tile split must be >= 256 for colorbuffer surfaces"). */
#define TILE_SPLIT_DEFAULT 1024u
#define TILE_SPLIT_MSAA_COLOR_MIN 256u
/* Bank width/height and macro tile aspect are 1, 2, 4 or 8. */
#define BANK_DIM_MAX 8u
/* Base alignment never below 256 bytes (CB_COLOR*_BASE is in 256-byte units). */
#define BASE_ALIGN_MIN 256u
/* Linear-aligned pitch: at least 64 elements. */
#define LINEAR_ALIGNED_MIN_PITCH 64u
/* Scanout pitch in 1D/linear: 32 elements, 64 for 1-byte elements. */
#define SCANOUT_MIN_PITCH 32u
#define SCANOUT_MIN_PITCH_8BPP 64u

static unsigned align_u(unsigned v, unsigned pow2)
{
    return (v + pow2 - 1) & ~(pow2 - 1);
}

static unsigned max_u(unsigned a, unsigned b) { return a > b ? a : b; }
static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

static bool is_pow2_in(unsigned v, unsigned lo, unsigned hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

/* floor(log2(x)), 0 for x < 2 (libdrm log2_int()). */
static unsigned log2_floor(unsigned x)
{
    unsigned l = 0;
    while (x >= 2) {
        x >>= 1;
        l++;
    }
    return l;
}

int layout_check_request(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         struct cedar_layout_err *err)
{
    if (!req || !t)
        return layout_fail(err, "no request or no tiling facts");
    if (req->width < 1 || req->width > LAYOUT_MAX_DIM)
        return layout_fail(err, "width %u out of range 1..%u", req->width, LAYOUT_MAX_DIM);
    if (req->height < 1 || req->height > LAYOUT_MAX_DIM)
        return layout_fail(err, "height %u out of range 1..%u", req->height, LAYOUT_MAX_DIM);
    if (req->bpe != 1 && req->bpe != 2 && req->bpe != 4 && req->bpe != 8 && req->bpe != 16)
        return layout_fail(err, "bytes per element %u is not 1, 2, 4, 8 or 16", req->bpe);
    if (req->samples != 1 && req->samples != 2 && req->samples != 4 && req->samples != 8)
        return layout_fail(err, "sample count %u is not 1, 2, 4 or 8", req->samples);
    if (req->mode != CEDAR_MODE_LINEAR_ALIGNED && req->mode != CEDAR_MODE_1D_THIN &&
        req->mode != CEDAR_MODE_2D_THIN)
        return layout_fail(err, "unknown array mode %d", (int)req->mode);
    if (req->samples > 1 && req->mode != CEDAR_MODE_2D_THIN)
        return layout_fail(err, "MSAA (%u samples) needs the 2d mode, not %s", req->samples,
                           cedar_array_mode_name(req->mode));
    if (cedar_tiling_check(t))
        return layout_fail(err,
                           "tiling facts not an Evergreen's: pipes %u, banks %u, interleave %u, "
                           "row %u",
                           t->pipes, t->banks, t->group_bytes, t->row_bytes);
    return 0;
}

/* Bytes of one 8x8 micro tile as the bank rules see it: capped at the tile
 * split. */
static unsigned split_tile_bytes(unsigned tile_split, unsigned bpe, unsigned samples)
{
    return min_u(tile_split, LAYOUT_MICRO_TILE_PIXELS * bpe * samples);
}

/* Smallest bank height, starting from bankh, with which one bank holds at
 * least one pipe interleave; libdrm stops doubling after 8 (the result is
 * then 16, which the sanity check rejects). */
static unsigned bankh_for_interleave(unsigned bankh, unsigned tileb, unsigned bankw,
                                     unsigned group_bytes)
{
    for (; bankh <= BANK_DIM_MAX; bankh *= 2) {
        if (tileb * bankh * bankw >= group_bytes)
            break;
    }
    return bankh;
}

/* eg_surface_sanity() for a 2D layout. */
static int check_params(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                        const struct layout_tile_params *p, struct cedar_layout_err *err)
{
    if (!is_pow2_in(p->tile_split, TILE_SPLIT_MIN, TILE_SPLIT_MAX))
        return layout_fail(err, "tile split %u is not 64..4096", p->tile_split);
    if (!is_pow2_in(p->mtilea, 1, BANK_DIM_MAX))
        return layout_fail(err, "macro tile aspect %u is not 1, 2, 4 or 8", p->mtilea);
    if (p->mtilea > t->banks)
        return layout_fail(err, "macro tile aspect %u exceeds the %u banks", p->mtilea, t->banks);
    if (!is_pow2_in(p->bankw, 1, BANK_DIM_MAX))
        return layout_fail(err, "bank width %u is not 1, 2, 4 or 8", p->bankw);
    if (!is_pow2_in(p->bankh, 1, BANK_DIM_MAX))
        return layout_fail(err, "bank height %u is not 1, 2, 4 or 8", p->bankh);
    unsigned tileb = split_tile_bytes(p->tile_split, req->bpe, req->samples);
    if (tileb * p->bankh * p->bankw < t->group_bytes)
        return layout_fail(err,
                           "a bank of %u x %u tiles of %u bytes holds less than the %u-byte "
                           "pipe interleave",
                           p->bankw, p->bankh, tileb, t->group_bytes);
    return 0;
}

/* eg_surface_best(). */
static int choose_params(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         struct layout_tile_params *p, struct cedar_layout_err *err)
{
    p->tile_split = TILE_SPLIT_DEFAULT;
    p->bankw = 1;
    p->mtilea = min_u(t->banks, BANK_DIM_MAX);
    p->bankh = bankh_for_interleave(1, split_tile_bytes(p->tile_split, req->bpe, req->samples),
                                    p->bankw, t->group_bytes);
    if (req->mode != CEDAR_MODE_2D_THIN)
        return 0;
    if (check_params(req, t, p, err))
        return -1;

    if (req->samples > 1) {
        /* SAMPLE_SPLIT = tile_split / (bpe x 64): libdrm aims for 2. */
        p->tile_split = max_u(2 * req->bpe * LAYOUT_MICRO_TILE_PIXELS, TILE_SPLIT_MSAA_COLOR_MIN);
        p->tile_split = min_u(p->tile_split, TILE_SPLIT_MAX);
    } else {
        p->tile_split = t->row_bytes;
    }

    unsigned tileb = split_tile_bytes(p->tile_split, req->bpe, req->samples);
    p->bankw = 1;
    if (tileb == 64)
        p->bankh = 4;
    else if (tileb == 128 || tileb == 256)
        p->bankh = 2;
    else
        p->bankh = 1;
    p->bankh = bankh_for_interleave(p->bankh, tileb, p->bankw, t->group_bytes);

    unsigned h_over_w = (p->bankh * t->banks) / (p->bankw * t->pipes);
    p->mtilea = 1u << (log2_floor(h_over_w) >> 1);
    return 0;
}

static void set_registers(struct cedar_surface *s)
{
    s->pitch_tile_max = s->aligned_width / LAYOUT_MICRO_TILE_W - 1;
    /* Mesa evergreen_set_color_surface_common(): minus one unless zero. */
    s->slice_tile_max = (unsigned)((uint64_t)s->aligned_width * s->aligned_height /
                                   LAYOUT_MICRO_TILE_PIXELS);
    if (s->slice_tile_max)
        s->slice_tile_max -= 1;
    s->tile_split_enc = layout_log2(s->tile_split / TILE_SPLIT_MIN);
    s->bankw_enc = layout_log2(s->bankw);
    s->bankh_enc = layout_log2(s->bankh);
    s->mtilea_enc = layout_log2(s->mtilea);
    s->num_banks_enc = layout_log2(s->tiling.banks) - 1;
}

/* eg_surface_init_1d(); alignment is what the surface already demanded (the
 * 2D alignment when falling back). */
static void init_1d(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                    uint64_t alignment, struct cedar_surface *s)
{
    unsigned xalign = t->group_bytes / (LAYOUT_MICRO_TILE_W * req->bpe * req->samples);
    xalign = max_u(LAYOUT_MICRO_TILE_W, xalign);
    if (req->scanout)
        xalign = max_u(req->bpe == 1 ? SCANOUT_MIN_PITCH_8BPP : SCANOUT_MIN_PITCH, xalign);
    unsigned yalign = LAYOUT_MICRO_TILE_H;

    s->mode = CEDAR_MODE_1D_THIN;
    s->align_x = xalign;
    s->align_y = yalign;
    s->tile_bytes = 0;
    s->slices_per_tile = 0;
    s->macro_tile_bytes = 0;
    s->alignment = alignment > max_u(BASE_ALIGN_MIN, t->group_bytes)
                       ? alignment
                       : max_u(BASE_ALIGN_MIN, t->group_bytes);
    s->aligned_width = align_u(req->width, xalign);
    s->aligned_height = align_u(req->height, yalign);
    s->pitch_bytes = (uint64_t)s->aligned_width * req->bpe * req->samples;
    s->slice_bytes = s->pitch_bytes * s->aligned_height;
    s->size = s->slice_bytes;
}

/* r6_surface_init_linear_aligned(). */
static void init_linear_aligned(const struct cedar_surface_req *req,
                                const struct cedar_tiling *t, struct cedar_surface *s)
{
    unsigned xalign = max_u(LINEAR_ALIGNED_MIN_PITCH, t->group_bytes / req->bpe);

    s->mode = CEDAR_MODE_LINEAR_ALIGNED;
    s->align_x = xalign;
    s->align_y = 1;
    s->alignment = max_u(BASE_ALIGN_MIN, t->group_bytes);
    s->aligned_width = align_u(req->width, xalign);
    s->aligned_height = req->height;
    s->pitch_bytes = (uint64_t)s->aligned_width * req->bpe * req->samples;
    s->slice_bytes = s->pitch_bytes * s->aligned_height;
    s->size = s->slice_bytes;
}

/* eg_surface_init_2d() + eg_surf_minify() for level 0. */
static void init_2d(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                    const struct layout_tile_params *p, struct cedar_surface *s)
{
    unsigned tileb = LAYOUT_MICRO_TILE_PIXELS * req->bpe * req->samples;
    unsigned slice_pt = 1;
    if (tileb > p->tile_split)
        slice_pt = tileb / p->tile_split;
    tileb /= slice_pt;

    unsigned mtilew = LAYOUT_MICRO_TILE_W * p->bankw * t->pipes * p->mtilea;
    unsigned mtileh = LAYOUT_MICRO_TILE_H * p->bankh * t->banks / p->mtilea;
    unsigned mtileb = (mtilew / LAYOUT_MICRO_TILE_W) * (mtileh / LAYOUT_MICRO_TILE_H) * tileb;
    uint64_t alignment = max_u(BASE_ALIGN_MIN, mtileb);

    if (req->samples == 1 && !req->fmask && (req->width < mtilew || req->height < mtileh)) {
        init_1d(req, t, alignment, s);
        return;
    }

    s->mode = CEDAR_MODE_2D_THIN;
    s->align_x = mtilew;
    s->align_y = mtileh;
    s->tile_bytes = tileb;
    s->slices_per_tile = slice_pt;
    s->macro_tile_bytes = mtileb;
    s->alignment = alignment;
    s->aligned_width = align_u(req->width, mtilew);
    s->aligned_height = align_u(req->height, mtileh);
    uint64_t macro_tiles = (uint64_t)(s->aligned_width / mtilew) * (s->aligned_height / mtileh);
    s->pitch_bytes = (uint64_t)s->aligned_width * req->bpe * req->samples;
    s->slice_bytes = macro_tiles * mtileb * slice_pt;
    s->size = s->slice_bytes;
}

int layout_surface_init(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                        const struct layout_tile_params *p, struct cedar_surface *out,
                        struct cedar_layout_err *err)
{
    struct cedar_surface s = {0};

    s.requested_mode = req->mode;
    s.scanout = req->scanout;
    s.fmask = req->fmask;
    s.width = req->width;
    s.height = req->height;
    s.bpe = req->bpe;
    s.samples = req->samples;
    s.tiling = *t;
    s.tile_split = p->tile_split;
    s.bankw = p->bankw;
    s.bankh = p->bankh;
    s.mtilea = p->mtilea;

    switch (req->mode) {
    case CEDAR_MODE_LINEAR_ALIGNED:
        init_linear_aligned(req, t, &s);
        break;
    case CEDAR_MODE_1D_THIN:
        init_1d(req, t, 0, &s);
        break;
    case CEDAR_MODE_2D_THIN:
        if (check_params(req, t, p, err))
            return -1;
        init_2d(req, t, p, &s);
        break;
    default:
        return layout_fail(err, "unknown array mode %d", (int)req->mode);
    }
    set_registers(&s);
    *out = s;
    return 0;
}

int cedar_surface_layout(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         struct cedar_surface *out, struct cedar_layout_err *err)
{
    struct layout_tile_params p;

    if (!out)
        return layout_fail(err, "no output surface");
    if (layout_check_request(req, t, err))
        return -1;
    if (choose_params(req, t, &p, err))
        return -1;
    return layout_surface_init(req, t, &p, out, err);
}
