/* RADEON_INFO_TILING_CONFIG decoding and small shared helpers.
 *
 * Field layout as the radeon kernel builds it for Evergreen
 * (evergreen_gpu_init(): tile_config) and libdrm decodes it
 * (radeon_surface.c eg_init_hw_info()): bits 3:0 pipes 0/1/2/3 = 1/2/4/8,
 * bits 7:4 banks 0/1/2 = 4/8/16, bits 11:8 pipe interleave 0/1 = 256/512 B,
 * bits 15:12 DRAM row 0/1/2 = 1/2/4 KB.  The kernel sets no other bit. */
#include "layout_priv.h"

#include <stdarg.h>
#include <stdio.h>

#define TC_PIPES_SHIFT      0
#define TC_BANKS_SHIFT      4
#define TC_INTERLEAVE_SHIFT 8
#define TC_ROW_SHIFT        12
#define TC_FIELD_MASK       0xFu
#define TC_USED_BITS        0xFFFFu

int layout_fail(struct cedar_layout_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return -1;
}

unsigned layout_log2(unsigned pow2)
{
    unsigned l = 0;
    while (pow2 > 1) {
        pow2 >>= 1;
        l++;
    }
    return l;
}

uint64_t layout_align64(uint64_t v, uint64_t pow2)
{
    return (v + pow2 - 1) & ~(pow2 - 1);
}

int cedar_tiling_from_config(uint32_t tiling_config, struct cedar_tiling *out)
{
    unsigned pipes = (tiling_config >> TC_PIPES_SHIFT) & TC_FIELD_MASK;
    unsigned banks = (tiling_config >> TC_BANKS_SHIFT) & TC_FIELD_MASK;
    unsigned ilv = (tiling_config >> TC_INTERLEAVE_SHIFT) & TC_FIELD_MASK;
    unsigned row = (tiling_config >> TC_ROW_SHIFT) & TC_FIELD_MASK;

    if (tiling_config & ~TC_USED_BITS)
        return -1;
    /* libdrm maps any other field value to a default and disables 2D tiling;
     * no Evergreen kernel reports one, so we call it malformed. */
    if (pipes > 3 || banks > 2 || ilv > 1 || row > 2)
        return -1;
    out->pipes = 1u << pipes;
    out->banks = 4u << banks;
    out->group_bytes = 256u << ilv;
    out->row_bytes = 1024u << row;
    return 0;
}

int cedar_tiling_check(const struct cedar_tiling *t)
{
    if (!t)
        return -1;
    if (t->pipes != 1 && t->pipes != 2 && t->pipes != 4 && t->pipes != 8)
        return -1;
    if (t->banks != 4 && t->banks != 8 && t->banks != 16)
        return -1;
    if (t->group_bytes != 256 && t->group_bytes != 512)
        return -1;
    if (t->row_bytes != 1024 && t->row_bytes != 2048 && t->row_bytes != 4096)
        return -1;
    return 0;
}

const char *cedar_array_mode_name(enum cedar_array_mode m)
{
    switch (m) {
    case CEDAR_MODE_LINEAR_ALIGNED: return "linear_aligned";
    case CEDAR_MODE_1D_THIN: return "1d";
    case CEDAR_MODE_2D_THIN: return "2d";
    }
    return "?";
}
