/* Surface rules of the radeon kernel's Evergreen checker (evergreen_cs.c:
 * evergreen_surface_check_{linear,linear_aligned,1d,2d},
 * evergreen_surface_value_conv_check), shared by the colour, depth and
 * texture checks. */
#include "vc_internal.h"
#include "vc_check.h"

void vc_tiling_decode(uint32_t cfg, struct vc_tiling *t)
{
    /* evergreen_cs_parse(): four nibbles; unknown encodings take the
     * kernel's defaults (2 pipes, 8 banks, 512-byte groups, 2 KiB rows). */
    static const unsigned pipes[4] = { 1, 2, 4, 8 };
    unsigned p = cfg & 0xF, b = (cfg >> 4) & 0xF, g = (cfg >> 8) & 0xF, r = (cfg >> 12) & 0xF;
    t->npipes = p < 4 ? pipes[p] : 2;
    t->nbanks = b == 0 ? 4 : b == 2 ? 16 : 8;
    t->group_size = g == 0 ? 256 : 512;
    t->row_size = r == 0 ? 1 : r == 2 ? 4 : 2;
}

static const char *mode_name(unsigned mode)
{
    switch (mode) {
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL: return "linear-general";
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED: return "linear-aligned";
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1: return "1D-tiled";
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1: return "2D-tiled";
    default: return "invalid";
    }
}

int vc_surf_conv(struct vc_surf *s, const char *what, uint32_t dword, struct vc_error *err)
{
    switch (s->mode) {
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1:
        break;
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL:
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED:
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1:
        return 0;
    default:
        return vc_fail(err, VC_E_SURF_ARRAY_MODE, dword, what, "%s: invalid array mode %u", what, s->mode);
    }
    /* 2D: each field is a log2 encoding with a hardware range. */
    if (s->nbanks > V_CB_NUM_BANKS__BANKS_16)
        return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: invalid number of banks %u", what, s->nbanks);
    s->nbanks = 2u << s->nbanks;
    if (s->bankw > 3)
        return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: invalid bank width %u", what, s->bankw);
    s->bankw = 1u << s->bankw;
    if (s->bankh > 3)
        return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: invalid bank height %u", what, s->bankh);
    s->bankh = 1u << s->bankh;
    if (s->mtilea > 3)
        return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: invalid macro tile aspect %u", what, s->mtilea);
    s->mtilea = 1u << s->mtilea;
    if (s->tsplit > V_CB_TILE_SPLIT__SPLIT_4KB)
        return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: invalid tile split %u", what, s->tsplit);
    s->tsplit = 64u << s->tsplit;
    return 0;
}

int vc_surf_check(const struct vc_tiling *t, struct vc_surf *s, const char *what, uint32_t dword,
                  struct vc_error *err)
{
    s->bpe = vc_format(s->format)->blocksize;
    unsigned palign = 1, halign = 1;
    switch (s->mode) {
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL:
        s->layer_size = (uint64_t)s->nbx * s->nby * s->bpe * s->nsamples;
        s->base_align = s->bpe;
        break;
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED:
        palign = s->bpe ? t->group_size / s->bpe : 0;
        if (palign < 64)
            palign = 64;
        s->layer_size = (uint64_t)s->nbx * s->nby * s->bpe * s->nsamples;
        s->base_align = t->group_size;
        break;
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1: {
        unsigned div = 8 * s->bpe * s->nsamples;
        palign = div ? t->group_size / div : 0;
        if (palign < 8)
            palign = 8;
        halign = 8;
        s->layer_size = (uint64_t)s->nbx * s->nby * s->bpe;
        s->base_align = t->group_size;
        break;
    }
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1: {
        unsigned tileb = 64 * s->bpe * s->nsamples, slice_pt = 1;
        if (tileb > s->tsplit && s->tsplit)
            slice_pt = tileb / s->tsplit;
        tileb /= slice_pt;
        palign = 8 * s->bankw * t->npipes * s->mtilea;
        halign = s->mtilea ? 8 * s->bankh * s->nbanks / s->mtilea : 0;
        if (!palign || !halign)
            return vc_fail(err, VC_E_SURF_TILING, dword, what, "%s: degenerate macro tile", what);
        uint64_t mtileb = (uint64_t)(palign / 8) * (halign / 8) * tileb;
        uint64_t mtile_pr = s->nbx / palign;
        uint64_t mtile_ps = mtile_pr * s->nby / halign;
        s->layer_size = mtile_ps * mtileb * slice_pt;
        s->base_align = mtileb;
        break;
    }
    default:
        return vc_fail(err, VC_E_SURF_ARRAY_MODE, dword, what, "%s: invalid array mode %u", what, s->mode);
    }
    s->palign = palign;
    s->halign = halign;
    /* The alignments are powers of two in every valid configuration; the
     * kernel tests with a mask, so do we. */
    if (s->nbx & (palign - 1))
        return err ? vc_fail(err, VC_E_SURF_PITCH, dword, what,
                             "%s: pitch %u not aligned to %u for %s", what, s->nbx, palign, mode_name(s->mode))
                   : -1;
    if (s->nby & (halign - 1))
        return err ? vc_fail(err, VC_E_SURF_HEIGHT, dword, what,
                             "%s: height %u not aligned to %u for %s", what, s->nby, halign, mode_name(s->mode))
                   : -1;
    return 0;
}
