/* The small floats of the colour and texture formats (IEEE half, the
 * unsigned 11- and 10-bit floats) worked out from their definitions, for
 * checking the model's bit-level conversions (src/render/small_float.h):
 * a code's value is m * 2^(1 - bias - mant) (denormal) or
 * (2^mant + m) * 2^(e - bias - mant), computed in double; a float becomes
 * the code whose value is nearest (IEEE 754 round to nearest, ties to the
 * even code), found by a search over the codes' values, not on the bits.
 * See test_util.h. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "test_util.h"

/* The value of a code without its sign bit.  The code of exponent emax and
 * mantissa 0 gives 2^(emax - bias), the value a rounding past the largest
 * finite one reaches. */
static double code_value(uint32_t code, unsigned mant, unsigned exp)
{
    uint32_t e = code >> mant, m = code & ((1u << mant) - 1u);
    int bias = (1 << (exp - 1)) - 1;
    if (e == 0)
        return ldexp((double)m, 1 - bias - (int)mant);
    return ldexp((double)((1u << mant) + m), (int)e - bias - (int)mant);
}

uint32_t test_small_float_encode(float v, unsigned mant, unsigned exp, bool sign)
{
    uint32_t inf = ((1u << exp) - 1u) << mant;
    if (isnan(v))
        return inf | (1u << (mant - 1)); /* the quiet NaN the model writes */
    if (signbit(v) && !sign)
        return 0;                        /* EXT_packed_float: negative -> 0 */
    uint32_t s = signbit(v) ? 1u << (mant + exp) : 0u;
    double a = fabs((double)v);
    if (isinf(a))
        return s | inf;                  /* infinity stays (EXT_packed_float too) */
    if (a >= code_value(inf, mant, exp))
        return s | (sign ? inf : inf - 1u);
    /* the code lo with value(lo) <= a < value(lo + 1) */
    uint32_t lo = 0, hi = inf;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (code_value(mid, mant, exp) <= a)
            lo = mid;
        else
            hi = mid;
    }
    /* both differences exact (Sterbenz: neighbouring values are within a
     * factor 2 of a, or value(lo) is 0) where it matters, near the tie */
    double below = a - code_value(lo, mant, exp), above = code_value(hi, mant, exp) - a;
    uint32_t c = below < above ? lo : above < below ? hi : (lo & 1u) ? hi : lo;
    if (c == inf)
        c = sign ? inf : inf - 1u;       /* rounded up past the largest finite value */
    return s | c;
}

double test_small_float_value(uint32_t raw, unsigned mant, unsigned exp, bool sign)
{
    uint32_t emax = (1u << exp) - 1u, code = raw & ((1u << (mant + exp)) - 1u);
    bool neg = sign && ((raw >> (mant + exp)) & 1u);
    double v = (code >> mant) == emax ? ((code & ((1u << mant) - 1u)) ? NAN : INFINITY) : code_value(code, mant, exp);
    return neg ? -v : v;
}
