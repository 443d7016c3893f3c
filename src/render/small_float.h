/* The small floats of the colour and texture formats (IEEE half, the
 * unsigned 11- and 10-bit floats of EXT_packed_float) to and from float32,
 * on the bits: inline because the colour block and the texture unit convert
 * every component they store or read.
 *
 * A small float has `mant` mantissa bits, `exp` exponent bits (bias
 * 2^(exp-1) - 1) and, when `sign`, a sign bit above them (IEEE layout).
 * Both directions hold for 2 <= exp <= 7 and 1 <= mant <= 23, where every
 * small float is a normal float32 or zero (the formats use exp 5 and mant
 * 10, 6 or 5). */
#ifndef CEDAR_RENDER_SMALL_FLOAT_H
#define CEDAR_RENDER_SMALL_FLOAT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* float32's layout (IEEE 754 binary32) */
#define F32_MANT_BITS 23
#define F32_BIAS 127
#define F32_SIGN 0x80000000u
#define F32_INF 0x7F800000u
#define F32_QNAN 0x7FC00000u   /* the NaN C's NAN converts to */

/* x / 2^r (1 <= r <= 31) rounded to nearest, ties to even. */
static inline uint32_t sf_shift_rne(uint32_t x, unsigned r)
{
    uint32_t q = x >> r, rem = x & ((1u << r) - 1u), half = 1u << (r - 1);
    return q + (rem > half || (rem == half && (q & 1u)));
}

/* float32 -> small float, round to nearest even.  NaN -> a quiet NaN (the
 * mantissa's top bit); a magnitude past the largest finite value ->
 * infinity with a sign bit (IEEE), the largest finite value without one
 * (EXT_packed_float); negative values (-0 and -inf too) without a sign bit
 * -> 0. */
static inline uint32_t sf_encode(float v, unsigned mant, unsigned exp, bool sign)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    uint32_t inf = ((1u << exp) - 1u) << mant, a = u & ~F32_SIGN, s = 0;
    if (a > F32_INF)
        return inf | (1u << (mant - 1));
    if (u & F32_SIGN) {
        if (!sign)
            return 0;
        s = 1u << (mant + exp);
    }
    if (a == F32_INF)
        return s | inf;
    int bias = (1 << (exp - 1)) - 1;
    unsigned fe = a >> F32_MANT_BITS;
    /* a = m24 * 2^(unb - 23): m24 the significand with its leading one
     * (none for float32's denormals and zero) */
    int unb = fe ? (int)fe - F32_BIAS : 1 - F32_BIAS;
    uint32_t m24 = (a & ((1u << F32_MANT_BITS) - 1u)) | (fe ? 1u << F32_MANT_BITS : 0u);
    uint32_t bits;
    if (unb < 1 - bias) {
        /* a denormal: m24 * 2^(unb - 23) in steps of 2^(1 - bias - mant);
         * r >= 24 - mant >= 1.  Past 24 the quotient is below one half
         * (m24 < 2^24).  A carry out of the mantissa gives the smallest
         * normal's bits, as it should. */
        int r = 24 - unb - bias - (int)mant;
        bits = r > 24 ? 0u : sf_shift_rne(m24, (unsigned)r);
    } else {
        /* normal: the rounded significand (leading one included) added to
         * the exponent less one, so that a carry out of the mantissa moves
         * the exponent up */
        unsigned r = F32_MANT_BITS - mant;
        uint32_t sig = r ? sf_shift_rne(m24, r) : m24;
        bits = ((uint32_t)(unb + bias - 1) << mant) + sig;
        if (bits >= inf)
            bits = sign ? inf : inf - 1u;
    }
    return s | bits;
}

/* small float -> float32, exactly (NaN: the quiet NaN, with the sign). */
static inline float sf_decode(uint32_t raw, unsigned mant, unsigned exp, bool sign)
{
    uint32_t emax = (1u << exp) - 1u;
    uint32_t m = raw & ((1u << mant) - 1u), e = (raw >> mant) & emax;
    uint32_t u = sign && ((raw >> (mant + exp)) & 1u) ? F32_SIGN : 0u;
    int bias = (1 << (exp - 1)) - 1;
    if (e == emax) {
        u |= m ? F32_QNAN : F32_INF;
    } else if (e) {
        u |= (uint32_t)((int)e - bias + F32_BIAS) << F32_MANT_BITS | m << (F32_MANT_BITS - mant);
    } else if (m) {
        /* denormal m * 2^(1 - bias - mant) = 1.f * 2^(p + 1 - bias - mant),
         * p the highest set bit of m */
        unsigned p = 31u - (unsigned)__builtin_clz(m);
        u |= (uint32_t)((int)p + 1 - bias - (int)mant + F32_BIAS) << F32_MANT_BITS |
             ((m << (F32_MANT_BITS - p)) & ((1u << F32_MANT_BITS) - 1u));
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
