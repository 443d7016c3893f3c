/* The half-float step of a 16-bit-per-component colour export (export.c
 * says where the rounding toward zero comes from); inline because the
 * colour block applies it to every component it writes. */
#ifndef CEDAR_RENDER_EXPORT_H
#define CEDAR_RENDER_EXPORT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "render_priv.h"

#define HALF_MANT_BITS 10
#define HALF_MIN_EXP (-14)   /* smallest normal half: 2^-14 */
#define HALF_MIN_NORMAL 0x1p-14f
#define HALF_MAX 65504.0f    /* largest finite half */
#define HALF_DENORM_EXP (-24) /* smallest half denormal: 2^-24 */
#define FLOAT_MANT_BITS 23

/* v rounded toward zero to the nearest half-float value (denormals kept,
 * overflow to the largest finite value as round-toward-zero gives). */
static inline float cb_half_truncate(float v)
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

#endif
