/* The colour export's precision: CB_COLOR*_INFO.SOURCE_FORMAT tells the
 * shader export which format carries the pixel shader's colour to the CB.
 * With EXPORT_4C_16BPC (what Mesa's r600 driver programs for 8-bit UNORM
 * targets, evergreen_init_color_surface) each component travels as an IEEE
 * half float, and the CB converts that half float to the target's format.
 *
 * The rounding of float32 -> half is toward zero.  Measured on the real
 * card's frame (tests/data/cedar/eg.1.bin.gz): with truncation to half and
 * round-to-nearest to UNORM8, the interior of the demo's triangle matches on
 * every row of its green channel (646 of 646 rows); with round-to-nearest
 * to half, or no half step at all, about 20,000 interior pixels are off by
 * one (the rows whose J*255 falls just above a .5). */
#include <math.h>
#include <string.h>

#include "render_priv.h"

#define HALF_MANT_BITS 10
#define HALF_MIN_EXP (-14)   /* smallest normal half: 2^-14 */
#define HALF_MAX 65504.0f    /* largest finite half */
#define HALF_DENORM_EXP (-24) /* smallest half denormal: 2^-24 */
#define FLOAT_MANT_BITS 23

/* v rounded toward zero to the nearest half-float value (denormals kept,
 * overflow to the largest finite value as round-toward-zero gives). */
static float half_truncate(float v)
{
    if (v != v || v == 0.0f || isinf(v))
        return v;
    float a = fabsf(v);
    if (a >= HALF_MAX)
        return v < 0.0f ? -HALF_MAX : HALF_MAX;
    /* Dropping the low bits of a's float32 mantissa is the truncation:
     * 10 bits kept after the leading one for a normal half (a >= 2^-14),
     * fewer below, down to the denormal step 2^-24 (this equals
     * floor(a / step) * step for every float32, checked over all 2^32). */
    uint32_t u;
    memcpy(&u, &a, 4);
    int pow2 = (int)((u >> 23) & 0xFFu) - 127;
    float t = 0.0f;
    if (pow2 >= HALF_DENORM_EXP) {
        unsigned drop = pow2 >= HALF_MIN_EXP ? FLOAT_MANT_BITS - HALF_MANT_BITS
                                            : (unsigned)(FLOAT_MANT_BITS - (pow2 - HALF_DENORM_EXP));
        u &= ~((1u << drop) - 1u);
        memcpy(&t, &u, 4);
    }
    return v < 0.0f ? -t : t;
}

void cb_export_convert(const struct cb_target *t, const float in[4], float out[4])
{
    if (!t->export_16bpc || t->number_type == V_CB_NUMBER_TYPE__NUMBER_UINT ||
        t->number_type == V_CB_NUMBER_TYPE__NUMBER_SINT) {
        /* 32-bit export, or integers (exported as raw bits) */
        memcpy(out, in, 4 * sizeof *out);
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        out[c] = half_truncate(in[c]);
}
