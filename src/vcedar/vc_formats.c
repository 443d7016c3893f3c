/* Block sizes of the colour / texture data formats, and which ones a colour
 * buffer may use: the facts of the radeon kernel's color_formats_table
 * (drivers/gpu/drm/radeon/r600_cs.c), keyed by the database's format enum. */
#include "vc_check.h"

#define F(fmt, bw, bh, bytes, color) [V_SQ_DATA_FORMAT__##fmt] = { bw, bh, bytes, color }

static const struct vc_format vc_formats[] = {
    F(FMT_8, 1, 1, 1, 1), F(FMT_4_4, 1, 1, 1, 1), F(FMT_3_3_2, 1, 1, 1, 1), F(FMT_1, 1, 1, 1, 0),
    F(FMT_16, 1, 1, 2, 1), F(FMT_16_FLOAT, 1, 1, 2, 1), F(FMT_8_8, 1, 1, 2, 1),
    F(FMT_5_6_5, 1, 1, 2, 1), F(FMT_6_5_5, 1, 1, 2, 1), F(FMT_1_5_5_5, 1, 1, 2, 1),
    F(FMT_4_4_4_4, 1, 1, 2, 1), F(FMT_5_5_5_1, 1, 1, 2, 1),
    F(FMT_8_8_8, 1, 1, 4, 0),
    F(FMT_32, 1, 1, 4, 1), F(FMT_32_FLOAT, 1, 1, 4, 1), F(FMT_16_16, 1, 1, 4, 1),
    F(FMT_16_16_FLOAT, 1, 1, 4, 1), F(FMT_8_24, 1, 1, 4, 1), F(FMT_8_24_FLOAT, 1, 1, 4, 1),
    F(FMT_24_8, 1, 1, 4, 1), F(FMT_24_8_FLOAT, 1, 1, 4, 1), F(FMT_10_11_11, 1, 1, 4, 1),
    F(FMT_10_11_11_FLOAT, 1, 1, 4, 1), F(FMT_11_11_10, 1, 1, 4, 1),
    F(FMT_11_11_10_FLOAT, 1, 1, 4, 1), F(FMT_2_10_10_10, 1, 1, 4, 1), F(FMT_8_8_8_8, 1, 1, 4, 1),
    F(FMT_10_10_10_2, 1, 1, 4, 1), F(FMT_5_9_9_9_SHAREDEXP, 1, 1, 4, 0),
    F(FMT_32_AS_8, 1, 1, 4, 0), F(FMT_32_AS_8_8, 1, 1, 4, 0),
    F(FMT_16_16_16, 1, 1, 8, 0), F(FMT_16_16_16_FLOAT, 1, 1, 8, 0),
    F(FMT_X24_8_32_FLOAT, 1, 1, 8, 1), F(FMT_32_32, 1, 1, 8, 1), F(FMT_32_32_FLOAT, 1, 1, 8, 1),
    F(FMT_16_16_16_16, 1, 1, 8, 1), F(FMT_16_16_16_16_FLOAT, 1, 1, 8, 1),
    F(FMT_32_32_32, 1, 1, 12, 0), F(FMT_32_32_32_FLOAT, 1, 1, 12, 0),
    F(FMT_32_32_32_32, 1, 1, 16, 1), F(FMT_32_32_32_32_FLOAT, 1, 1, 16, 1),
    F(FMT_GB_GR, 2, 1, 4, 0), F(FMT_BG_RG, 2, 1, 4, 0),
    F(FMT_BC1, 4, 4, 8, 0), F(FMT_BC2, 4, 4, 16, 0), F(FMT_BC3, 4, 4, 16, 0),
    F(FMT_BC4, 4, 4, 8, 0), F(FMT_BC5, 4, 4, 16, 0),
    F(FMT_BC6, 4, 4, 16, 0), F(FMT_BC7, 4, 4, 16, 0),       /* Evergreen and later */
    F(FMT_32_AS_32_32_32_32, 1, 1, 4, 0),                   /* Evergreen and later */
};

const struct vc_format *vc_format(uint32_t fmt)
{
    static const struct vc_format none;
    if (fmt >= sizeof(vc_formats) / sizeof(vc_formats[0]))
        return &none;
    return &vc_formats[fmt];
}
