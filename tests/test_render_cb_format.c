/* The colour block's formats (src/render/cb_format.c) against expectations
 * worked out here, not by the code under test:
 *  - hand-packed elements of every format class Mesa r600 renders to on
 *    Evergreen: 8/16/32-bit channels, 5_6_5 (R5G6B5 and B5G6R5), 1_5_5_5
 *    (B5G5R5A1), 4_4_4_4, 2_10_10_10, 10_11_11 float, 16/32-bit floats,
 *    SNORM / UINT / SINT / SRGB, each component swap, ENDIAN 8IN32;
 *  - the GL conversion formulas (GL 4.6 2.3.5) computed here in double over
 *    a sweep of values for UNORM and SNORM at every channel width;
 *  - IEEE half and the unsigned 11/10-bit floats on hand-worked corner
 *    vectors (ties to even, denormals, overflow, negatives, NaN), and the
 *    half conversion against the C compiler's _Float16 where it has one;
 *  - the small-float conversions against their definitions worked out in
 *    double (tests/common/small_float_ref.c) over every float exponent,
 *    every code's value, rounding midpoint and neighbours, and the specials;
 *  - unpack(pack(v)) returns v for every representable value of a channel;
 *  - the write mask keeps exactly the masked channels' bits;
 *  - every format's element against one assembled here bit by bit from the
 *    layout rule (channel X lowest, then Y, Z, W; ENDIAN's byte swaps),
 *    packed, unpacked and merged under every write mask. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "eg_regs.h"
#include "src/render/render_priv.h"
#include "tests/common/test_util.h"

static uint32_t info_of(unsigned format, unsigned ntype, unsigned swap)
{
    return S_CB_COLOR_INFO__FORMAT(format) | S_CB_COLOR_INFO__NUMBER_TYPE(ntype) | S_CB_COLOR_INFO__COMP_SWAP(swap);
}

static void target_of(struct cb_target *t, uint32_t info)
{
    char why[160] = "";
    memset(t, 0, sizeof *t);
    if (cb_format_init(t, info, why, sizeof why))
        fail_msg("cb_format_init(0x%08x): %s", info, why);
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* pack rgba and compare with the little-endian value `want` of t->bpe bytes
 * (want_hi: bytes 8..15) */
static void expect_pack(uint32_t info, float r, float g, float b, float a, uint64_t want, uint64_t want_hi)
{
    struct cb_target t;
    target_of(&t, info);
    float rgba[4] = {r, g, b, a};
    uint8_t el[16] = {0}, exp[16] = {0};
    for (unsigned i = 0; i < 8; i++) {
        exp[i] = (uint8_t)(want >> (8 * i));
        exp[8 + i] = (uint8_t)(want_hi >> (8 * i));
    }
    cb_pack(&t, rgba, el);
    for (unsigned i = 0; i < t.bpe; i++)
        if (el[i] != exp[i])
            fail_msg("format %u ntype %u swap %u: byte %u is 0x%02x, expected 0x%02x", t.format, t.number_type,
                     t.comp_swap, i, el[i], exp[i]);
}

#define U V_CB_NUMBER_TYPE__NUMBER_UNORM
#define STD V_CB_COMP_SWAP__SWAP_STD
#define ALT V_CB_COMP_SWAP__SWAP_ALT
#define REV V_CB_COMP_SWAP__SWAP_STD_REV
#define ALTREV V_CB_COMP_SWAP__SWAP_ALT_REV
#define F(x) V_CB_FORMAT__COLOR_##x

static void test_hand_packed(void **state)
{
    (void)state;
    /* R8 0.5 -> 127.5 rounds up */
    expect_pack(info_of(F(8), U, STD), 0.5f, 0, 0, 1, 0x80, 0);
    /* A8 (ALT_REV: the one channel is alpha) */
    expect_pack(info_of(F(8), U, ALTREV), 0, 0, 0, 0.2f, 51, 0);
    /* R16 0.5 -> 32767.5 -> 32768 */
    expect_pack(info_of(F(16), U, STD), 0.5f, 0, 0, 1, 0x8000, 0);
    /* R16 1/3 -> 21845 */
    expect_pack(info_of(F(16), U, STD), 1.0f / 3.0f, 0, 0, 1, 21845, 0);
    /* L8A8 (ALT: X = R, Y = A) */
    expect_pack(info_of(F(8_8), U, ALT), 1, 0, 0, 0, 0x00FF, 0);
    /* R5G6B5: R in bits 0..4, G 0.5*63 = 31.5 -> 32 in 5..10 */
    expect_pack(info_of(F(5_6_5), U, STD), 1, 0.5f, 0, 1, 0x041F, 0);
    /* B5G6R5 (STD_REV): R in the top five bits */
    expect_pack(info_of(F(5_6_5), U, REV), 1, 0.5f, 0, 1, 0xFC00, 0);
    /* B5G5R5A1 (ALT: X = B, Y = G, Z = R, W = A) */
    expect_pack(info_of(F(1_5_5_5), U, ALT), 1, 0, 0, 1, 0xFC00, 0);
    expect_pack(info_of(F(1_5_5_5), U, ALT), 0, 0, 1, 0.4f, 0x001F, 0);
    /* R4G4B4A4: 0.5*15 = 7.5 -> 8 */
    expect_pack(info_of(F(4_4_4_4), U, STD), 0.5f, 1, 0, 0, 0x00F8, 0);
    /* R10G10B10A2: R 1023, B 511.5 -> 512, A 1/3*3 = 1 */
    expect_pack(info_of(F(2_10_10_10), U, STD), 1, 0, 0.5f, 1.0f / 3.0f, 0x600003FFu, 0);
    /* B10G10R10A2 (ALT) */
    expect_pack(info_of(F(2_10_10_10), U, ALT), 1, 0, 0, 1, 0xFFF00000u, 0);
    /* R8G8B8A8 / B8G8R8A8 */
    expect_pack(info_of(F(8_8_8_8), U, STD), 1, 0.5f, 0, 0.2f, 0x330080FFu, 0);
    expect_pack(info_of(F(8_8_8_8), U, ALT), 1, 0.5f, 0, 0.2f, 0x33FF8000u, 0);
    /* sRGB: 0.5 -> 188 (0.7354 * 255 = 187.5), alpha linear */
    expect_pack(info_of(F(8_8_8_8), V_CB_NUMBER_TYPE__NUMBER_SRGB, STD), 0.5f, 0, 1, 0.5f, 0x80FF00BCu, 0);
    /* R16G16 SNORM: -1 -> -32767 (0x8001), 0.5 -> 16383.5 -> 16384 */
    expect_pack(info_of(F(16_16), V_CB_NUMBER_TYPE__NUMBER_SNORM, STD), -1, 0.5f, 0, 1, 0x40008001u, 0);
    /* R8 SNORM -0.5 -> -63.5 -> -64 (away from zero) */
    expect_pack(info_of(F(8), V_CB_NUMBER_TYPE__NUMBER_SNORM, STD), -0.5f, 0, 0, 1, 0xC0, 0);
    /* R16 UINT / SINT: the export's bits, clamped */
    expect_pack(info_of(F(16), V_CB_NUMBER_TYPE__NUMBER_UINT, STD), from_bits(70000), 0, 0, 0, 0xFFFF, 0);
    expect_pack(info_of(F(16), V_CB_NUMBER_TYPE__NUMBER_UINT, STD), from_bits(1234), 0, 0, 0, 1234, 0);
    expect_pack(info_of(F(16), V_CB_NUMBER_TYPE__NUMBER_SINT, STD), from_bits((uint32_t)-40000), 0, 0, 0, 0x8000, 0);
    expect_pack(info_of(F(16), V_CB_NUMBER_TYPE__NUMBER_SINT, STD), from_bits((uint32_t)-5), 0, 0, 0, 0xFFFB, 0);
    /* R10G10B10A2 UINT: alpha 7 clamps to 3 */
    expect_pack(info_of(F(2_10_10_10), V_CB_NUMBER_TYPE__NUMBER_UINT, STD), from_bits(5), from_bits(2000),
                from_bits(0), from_bits(7), 0xC00FFC05u, 0);
    /* R32 UINT and R32G32 float: raw bits */
    expect_pack(info_of(F(32), V_CB_NUMBER_TYPE__NUMBER_UINT, STD), from_bits(0xDEADBEEF), 0, 0, 0, 0xDEADBEEF, 0);
    expect_pack(info_of(F(32_32_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), 1.0f, -2.5f, 0, 0,
                0xC02000003F800000ull, 0);
    /* RGBA32F: 16 bytes */
    expect_pack(info_of(F(32_32_32_32_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), 1.0f, 2.0f, 0.5f, -1.0f,
                0x400000003F800000ull, 0xBF8000003F000000ull);
    /* RGBA16F: 1, -2, 65504, 1/3 -> 0x3C00, 0xC000, 0x7BFF, 0x3555 */
    expect_pack(info_of(F(16_16_16_16_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), 1.0f, -2.0f, 65504.0f,
                1.0f / 3.0f, 0x35557BFFC0003C00ull, 0);
    /* R16G16 float, BGRA-style swap not used: G=0.5 (0x3800) */
    expect_pack(info_of(F(16_16_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), 0, 0.5f, 0, 0, 0x38000000u, 0);
    /* R11G11B10F: R 1.0 = 15 << 6, G 2.0 = 16 << 6 at bit 11, B 0.5 = 14 << 5 at bit 22 */
    expect_pack(info_of(F(10_11_11_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), 1.0f, 2.0f, 0.5f, 1,
                0x702003C0u, 0);
    /* R32F with ENDIAN 8IN32: bytes of 0x3F800000 big-endian */
    expect_pack(info_of(F(32_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD) | S_CB_COLOR_INFO__ENDIAN(2), 1.0f, 0,
                0, 0, 0x0000803Fu, 0);
    /* RGBA16 UNORM with ENDIAN 8IN16: each 16-bit word byte-swapped */
    expect_pack(info_of(F(16_16_16_16), U, STD) | S_CB_COLOR_INFO__ENDIAN(1), 1.0f, 0, 0.5f, 0,
                0x000000800000FFFFull, 0);
}

/* GL 4.6 eq. 2.3: UNORM round(v * (2^b - 1)); SNORM round(v * (2^(b-1) - 1)),
 * in double, for a sweep of values and every width the formats have. */
static void test_gl_formulas(void **state)
{
    (void)state;
    static const struct { unsigned format, bits; } f[] = {
        {F(8), 8}, {F(16), 16}, {F(32), 32}, {F(4_4_4_4), 4}, {F(5_6_5), 5}, {F(2_10_10_10), 10},
    };
    for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++)
        for (unsigned sn = 0; sn < 2; sn++) {
            if (sn && f[k].bits < 8)
                continue; /* Mesa has no SNORM 4/5-bit colour formats */
            struct cb_target t;
            target_of(&t, info_of(f[k].format, sn ? V_CB_NUMBER_TYPE__NUMBER_SNORM : U, STD));
            for (int i = -300; i <= 1300; i++) {
                float v = (float)i / 1000.0f + 0.000123f;
                double c = sn ? (v < -1 ? -1 : v > 1 ? 1 : v) : (v < 0 ? 0 : v > 1 ? 1 : v);
                double max = sn ? ldexp(1, (int)f[k].bits - 1) - 1 : ldexp(1, (int)f[k].bits) - 1;
                double s = c * max;
                int64_t want = (int64_t)(s < 0 ? -floor(-s + 0.5) : floor(s + 0.5));
                float rgba[4] = {v, 0, 0, 0};
                uint8_t el[16] = {0};
                cb_pack(&t, rgba, el);
                uint64_t raw = 0;
                memcpy(&raw, el, t.bpe);
                uint64_t m = f[k].bits >= 32 ? 0xFFFFFFFFull : (1ull << f[k].bits) - 1u;
                if ((raw & m) != ((uint64_t)want & m))
                    fail_msg("%u-bit %s %.6f: 0x%llx, expected %lld", f[k].bits, sn ? "SNORM" : "UNORM", v,
                             (unsigned long long)(raw & m), (long long)want);
                float back[4];
                cb_unpack(&t, el, back);
                if (fabs(back[0] - (double)want / max) > 1e-6)
                    fail_msg("%u-bit unpack %lld: %.9f", f[k].bits, (long long)want, back[0]);
            }
        }
}

static void test_small_floats(void **state)
{
    (void)state;
    static const struct { float v; unsigned mant; bool sign; uint32_t want; } h[] = {
        {1.0f, 10, true, 0x3C00},  {-2.0f, 10, true, 0xC000}, {65504.0f, 10, true, 0x7BFF},
        {65519.0f, 10, true, 0x7BFF}, /* below the tie: down */
        {65520.0f, 10, true, 0x7C00}, /* the tie rounds to even: infinity */
        {0x1p-24f, 10, true, 0x0001}, {0x1p-25f, 10, true, 0x0000}, /* tie to even 0 */
        {0x3p-25f, 10, true, 0x0002}, /* 1.5 steps -> 2 */
        {0x1.ff8p-15f, 10, true, 0x03FF}, /* largest denormal: 1023 steps */
        {0x1.ffcp-15f, 10, true, 0x0400}, /* 1023.5 steps: the tie goes to even (2^-14) */
        {1.0f + 0x1p-11f, 10, true, 0x3C00}, /* tie -> even mantissa 0 */
        {1.0f + 0x3p-11f, 10, true, 0x3C02}, /* tie -> even mantissa 2 */
        {-0.0f, 10, true, 0x8000},
        {1.0f, 6, false, 0x3C0},    {65024.0f, 6, false, 0x7BF}, {1e6f, 6, false, 0x7BF}, /* saturates */
        {-3.0f, 6, false, 0x000},   {0x1p-20f, 6, false, 0x001}, /* smallest 11-bit denormal */
        {1.0f, 5, false, 0x1E0},    {64512.0f, 5, false, 0x3DF}, {0.5f, 5, false, 0x1C0},
    };
    for (unsigned i = 0; i < sizeof h / sizeof h[0]; i++) {
        uint32_t got = cb_float_to_small(h[i].v, h[i].mant, 5, h[i].sign);
        if (got != h[i].want)
            fail_msg("%a to %u-bit mantissa: 0x%x, expected 0x%x", h[i].v, h[i].mant, got, h[i].want);
    }
    assert_int_equal(cb_float_to_small(INFINITY, 6, 5, false), 0x7C0);
    uint32_t nan11 = cb_float_to_small(NAN, 6, 5, false);
    assert_true((nan11 >> 6) == 0x1F && (nan11 & 0x3F) != 0);
    assert_true(isnan(cb_small_to_float(0x7E00, 10, 5, true)));
    assert_true(isinf(cb_small_to_float(0x7C00, 10, 5, true)));
    /* every half and every 11- and 10-bit float survives the round trip */
    for (uint32_t u = 0; u < 0x10000; u++) {
        if ((u & 0x7C00) == 0x7C00 && (u & 0x3FF))
            continue;
        float f = cb_small_to_float(u, 10, 5, true);
        assert_int_equal(cb_float_to_small(f, 10, 5, true), u);
        if (u < 0x7C0)
            assert_int_equal(cb_float_to_small(cb_small_to_float(u, 6, 5, false), 6, 5, false), u);
        if (u < 0x3E0)
            assert_int_equal(cb_float_to_small(cb_small_to_float(u, 5, 5, false), 5, 5, false), u);
    }
#if defined(__FLT16_MAX__)
    /* the compiler's float -> _Float16 (IEEE round to nearest even) on a sweep */
    for (uint32_t i = 0; i < 2000000; i++) {
        uint32_t bits = i * 2147u + 0x30000000u;
        float v;
        memcpy(&v, &bits, 4);
        if (!isfinite(v))
            continue;
        _Float16 hf = (_Float16)v;
        uint16_t want;
        memcpy(&want, &hf, 2);
        if (cb_float_to_small(v, 10, 5, true) != want)
            fail_msg("%a: 0x%x, _Float16 0x%x", v, cb_float_to_small(v, 10, 5, true), want);
    }
#endif
}

/* The three small floats: mantissa bits and whether a sign bit. */
static const struct { unsigned mant; bool sign; const char *name; } small[] = {
    {10, true, "half"}, {6, false, "11-bit"}, {5, false, "10-bit"},
};

static void expect_small(float v, unsigned k)
{
    uint32_t got = cb_float_to_small(v, small[k].mant, 5, small[k].sign);
    uint32_t want = test_small_float_encode(v, small[k].mant, 5, small[k].sign);
    if (got != want)
        fail_msg("%a (0x%08x) to %s: 0x%x, by the definition 0x%x", (double)v, test_f2u(v), small[k].name, got,
                 want);
}

/* Float -> small float against the definition (nearest code by value, ties
 * to the even code, found by search), on every float exponent with random
 * mantissas, both signs; on every code's value, the midpoints between
 * neighbouring codes and the floats either side of them; and the specials.
 * The definition itself is first held to the hand-worked vectors. */
static void test_small_floats_by_definition(void **state)
{
    (void)state;
    static const struct { float v; unsigned k; uint32_t want; } hand[] = {
        {1.0f, 0, 0x3C00}, {65504.0f, 0, 0x7BFF}, {65520.0f, 0, 0x7C00}, {0x1p-24f, 0, 0x0001},
        {0x1p-25f, 0, 0x0000}, {0x3p-25f, 0, 0x0002}, {-0.0f, 0, 0x8000}, {-1.0f, 0, 0xBC00},
        {-65520.0f, 0, 0xFC00}, {0x1p-14f, 0, 0x0400}, {-2.0f, 1, 0}, {-0.0f, 1, 0}, {-INFINITY, 2, 0},
        {65024.0f, 1, 0x7BF}, {65279.0f, 1, 0x7BF}, {65280.0f, 1, 0x7BF}, /* past the largest: saturates */
        {INFINITY, 1, 0x7C0}, {64512.0f, 2, 0x3DF}, {65536.0f, 2, 0x3DF}, {0x1p-19f, 2, 0x001},
        {0x1p-20f, 1, 0x001}, {0x1p-21f, 1, 0x000}, {0x3p-21f, 1, 0x002},
    };
    for (unsigned i = 0; i < sizeof hand / sizeof hand[0]; i++) {
        unsigned k = hand[i].k;
        uint32_t ref = test_small_float_encode(hand[i].v, small[k].mant, 5, small[k].sign);
        uint32_t got = cb_float_to_small(hand[i].v, small[k].mant, 5, small[k].sign);
        if (ref != hand[i].want || got != hand[i].want)
            fail_msg("%a to %s: definition 0x%x, model 0x%x, by hand 0x%x", (double)hand[i].v, small[k].name, ref,
                     got, hand[i].want);
    }
    /* NaN: a quiet NaN, whatever its sign or payload */
    static const uint32_t nans[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FBFFFFFu};
    for (unsigned i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        assert_int_equal(cb_float_to_small(from_bits(nans[i]), 10, 5, true), 0x7E00);
        assert_int_equal(cb_float_to_small(from_bits(nans[i]), 6, 5, false), 0x7E0);
        assert_int_equal(cb_float_to_small(from_bits(nans[i]), 5, 5, false), 0x3F0);
    }
    test_rand_seed(12);
    unsigned checked = 0;
    for (unsigned k = 0; k < 3; k++) {
        /* every float exponent (denormals and specials too), both signs */
        for (uint32_t e = 0; e < 256; e++)
            for (uint32_t sgn = 0; sgn < 2; sgn++)
                for (unsigned i = 0; i < 300; i++) {
                    uint32_t m = i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 0x7FFFFF : test_rand() & 0x7FFFFF;
                    expect_small(from_bits(sgn << 31 | e << 23 | m), k);
                    checked++;
                }
        /* every code's value, the midpoint to the next one (exact: one bit
         * more than a code), and the floats either side of both */
        uint32_t inf = 0x1Fu << small[k].mant;
        for (uint32_t c = 0; c < inf; c++) {
            float v = (float)test_small_float_value(c, small[k].mant, 5, false);
            float mid = (float)((test_small_float_value(c, small[k].mant, 5, false) +
                                 test_small_float_value(c + 1, small[k].mant, 5, false)) / 2);
            if (c + 1 == inf)
                mid = (float)((double)v + ldexp(1, 15 - (int)small[k].mant - 1)); /* half a step past the largest */
            const float probe[] = {v, nextafterf(v, 0), nextafterf(v, INFINITY), mid, nextafterf(mid, 0),
                                   nextafterf(mid, INFINITY)};
            for (unsigned i = 0; i < 6; i++) {
                expect_small(probe[i], k);
                expect_small(-probe[i], k);
                checked += 2;
            }
        }
    }
    assert_true(checked > 3 * 256 * 2 * 300);
}

/* Small float -> float: every code gives its value exactly (NaN codes a
 * NaN with the code's sign). */
static void test_small_float_values(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 3; k++) {
        unsigned width = small[k].mant + 5 + small[k].sign;
        for (uint32_t u = 0; u < 1u << width; u++) {
            float got = cb_small_to_float(u, small[k].mant, 5, small[k].sign);
            double want = test_small_float_value(u, small[k].mant, 5, small[k].sign);
            bool neg = small[k].sign && (u >> (width - 1));
            if (isnan(want) ? !isnan(got) || (bool)signbit(got) != neg
                            : (double)got != want || (bool)signbit(got) != (bool)signbit(want))
                fail_msg("%s 0x%x: %a, by the definition %a", small[k].name, u, (double)got, want);
        }
    }
}

/* Every value a channel can hold unpacks and packs back to itself. */
static void test_round_trip(void **state)
{
    (void)state;
    static const unsigned fmts[][2] = {
        {F(8), U}, {F(16), U}, {F(5_6_5), U}, {F(1_5_5_5), U}, {F(4_4_4_4), U}, {F(2_10_10_10), U},
        {F(16), V_CB_NUMBER_TYPE__NUMBER_SNORM}, {F(8), V_CB_NUMBER_TYPE__NUMBER_SRGB},
        {F(16), V_CB_NUMBER_TYPE__NUMBER_UINT}, {F(16), V_CB_NUMBER_TYPE__NUMBER_SINT},
        {F(16_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT}, {F(10_11_11_FLOAT), V_CB_NUMBER_TYPE__NUMBER_FLOAT},
    };
    for (unsigned k = 0; k < sizeof fmts / sizeof fmts[0]; k++)
        for (unsigned swap = 0; swap < 4; swap++) {
            struct cb_target t;
            target_of(&t, info_of(fmts[k][0], fmts[k][1], swap));
            unsigned total = 0;
            for (unsigned c = 0; c < t.comps; c++)
                total += t.fmt->bits[c];
            uint32_t step = total > 16 ? 0x10001u : 1u;
            for (uint64_t u = 0; u < (1ull << total); u += step) {
                uint8_t el[16] = {0}, back[16] = {0};
                memcpy(el, &u, t.bpe);
                if (t.fmt->fp) {
                    /* NaN patterns need not survive: skip them */
                    bool nan = false;
                    for (unsigned c = 0; c < t.comps; c++) {
                        unsigned b = t.fmt->bits[c], m = b == 16 ? 10 : b - 5;
                        uint32_t v = (uint32_t)(u >> t.shift[c]) & ((1u << b) - 1u);
                        nan |= ((v >> m) & 0x1F) == 0x1F && (v & ((1u << m) - 1u));
                    }
                    if (nan)
                        continue;
                }
                /* SNORM's most negative value reads as -1 like the next one
                 * (GL 4.6 eq. 2.2) and packs as that one */
                if (t.number_type == V_CB_NUMBER_TYPE__NUMBER_SNORM && u == 0x8000)
                    continue;
                float rgba[4];
                cb_unpack(&t, el, rgba);
                cb_pack(&t, rgba, back);
                if (memcmp(el, back, t.bpe))
                    fail_msg("format %u ntype %u swap %u: 0x%llx packs back as another value", t.format,
                             t.number_type, swap, (unsigned long long)u);
            }
        }
}

static void test_write_mask(void **state)
{
    (void)state;
    struct cb_target t;
    /* R5G6B5, only green written: bits 5..10 new, the rest kept */
    target_of(&t, info_of(F(5_6_5), U, STD));
    uint8_t old[2] = {0xFF, 0xFF}, el[2];
    float rgba[4] = {0, 0, 0, 0};
    cb_pack(&t, rgba, el);
    cb_keep_channels(&t, 0x2, old, el);
    assert_int_equal(el[0] | el[1] << 8, 0xF81F);
    /* B10G10R10A2, red and alpha kept */
    target_of(&t, info_of(F(2_10_10_10), U, ALT));
    uint8_t old4[4] = {0x12, 0x34, 0x56, 0x78}, el4[4];
    float white[4] = {1, 1, 1, 1};
    cb_pack(&t, white, el4);
    cb_keep_channels(&t, 0x6, old4, el4);
    uint32_t o = 0x78563412u, got = (uint32_t)el4[0] | (uint32_t)el4[1] << 8 | (uint32_t)el4[2] << 16 |
                                    (uint32_t)el4[3] << 24;
    /* red is channel Z (bits 20..29), alpha W (30..31) */
    assert_int_equal(got, (o & 0xFFF00000u) | 0x000FFFFFu);
}

/* ENDIAN's byte swap (CB_COLOR*_INFO: bytes reversed in 16-, 32- or 64-bit
 * words for 8IN16 / 8IN32 / 8IN64; an element narrower than the word is
 * left as it is), in place. */
static void swap_bytes(uint8_t *el, unsigned bpe, unsigned endian)
{
    unsigned w = endian == 1 ? 2 : endian == 2 ? 4 : endian == 3 ? 8 : 1;
    if (bpe < w)
        return;
    for (unsigned o = 0; o < bpe; o += w)
        for (unsigned i = 0; i < w / 2; i++) {
            uint8_t x = el[o + i];
            el[o + i] = el[o + w - 1 - i];
            el[o + w - 1 - i] = x;
        }
}

static unsigned bit_of(const uint8_t *el, unsigned b)
{
    return (el[b / 8] >> (b % 8)) & 1u;
}

static void set_bit(uint8_t *el, unsigned b, unsigned v)
{
    el[b / 8] = (uint8_t)((el[b / 8] & ~(1u << (b % 8))) | (v << (b % 8)));
}

/* Every format, swap and ENDIAN: random channel values packed (UINT for
 * the fixed-point formats, so a channel holds the value's bits; FLOAT for
 * the float ones, with values that are exactly a code) against the element
 * assembled bit by bit (channel X from bit 0, then Y, Z, W, each its
 * width; then the byte swap); unpacked back to the values; and merged with
 * a random old element under every write mask, bit by bit. */
static void test_layout_bit_by_bit(void **state)
{
    (void)state;
    static const unsigned fmts[] = {
        F(8), F(16), F(16_FLOAT), F(8_8), F(5_6_5), F(1_5_5_5), F(4_4_4_4), F(32), F(32_FLOAT), F(16_16),
        F(16_16_FLOAT), F(8_24), F(24_8), F(10_11_11_FLOAT), F(11_11_10_FLOAT), F(2_10_10_10), F(8_8_8_8),
        F(10_10_10_2), F(X24_8_32_FLOAT), F(32_32), F(32_32_FLOAT), F(16_16_16_16), F(16_16_16_16_FLOAT),
        F(32_32_32_32), F(32_32_32_32_FLOAT),
    };
    test_rand_seed(7);
    unsigned checked = 0;
    for (unsigned fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (unsigned swap = 0; swap < 4; swap++)
            for (unsigned endian = 0; endian < 4; endian++)
                for (unsigned rep = 0; rep < 40; rep++) {
                    const struct cb_format_desc *d = cb_format_desc(fmts[fi]);
                    assert_non_null(d);
                    unsigned ntype = d->fp ? V_CB_NUMBER_TYPE__NUMBER_FLOAT : V_CB_NUMBER_TYPE__NUMBER_UINT;
                    struct cb_target t;
                    target_of(&t, info_of(fmts[fi], ntype, swap) | S_CB_COLOR_INFO__ENDIAN(endian));
                    /* channel values: codes of each channel's width */
                    uint32_t code[4] = {0};
                    float rgba[4] = {0, 0, 0, 1};
                    uint8_t want[16] = {0};
                    unsigned at = 0;
                    for (unsigned c = 0; c < t.comps; c++) {
                        unsigned b = d->bits[c];
                        uint32_t m = b >= 32 ? 0xFFFFFFFFu : (1u << b) - 1u;
                        unsigned mant = b == 16 ? 10 : b - 5;
                        do
                            code[c] = test_rand() & m;
                        while (d->fp && b < 32 && (code[c] >> mant & 0x1F) == 0x1F); /* no inf / NaN codes */
                        rgba[t.swizzle[c]] = d->fp && b < 32
                                                 ? (float)test_small_float_value(code[c], mant, 5, b == 16)
                                                 : from_bits(code[c]);
                        for (unsigned i = 0; i < b; i++)
                            set_bit(want, at + i, (code[c] >> i) & 1u);
                        at += b;
                    }
                    swap_bytes(want, t.bpe, endian);
                    uint8_t el[16] = {0};
                    cb_pack(&t, rgba, el);
                    for (unsigned i = 0; i < t.bpe; i++)
                        if (el[i] != want[i])
                            fail_msg("format %u swap %u endian %u: byte %u packs as 0x%02x, bit by bit 0x%02x",
                                     fmts[fi], swap, endian, i, el[i], want[i]);
                    float back[4];
                    cb_unpack(&t, want, back);
                    for (unsigned c = 0; c < t.comps; c++)
                        if (test_f2u(back[t.swizzle[c]]) != test_f2u(rgba[t.swizzle[c]]))
                            fail_msg("format %u swap %u endian %u: channel %u unpacks as 0x%08x, packed 0x%08x",
                                     fmts[fi], swap, endian, c, test_f2u(back[t.swizzle[c]]),
                                     test_f2u(rgba[t.swizzle[c]]));
                    /* write masks: the channels of masked-off components
                     * from old, every other bit (pad bits too) from the new */
                    uint8_t old[16];
                    for (unsigned i = 0; i < 16; i++)
                        old[i] = (uint8_t)test_rand();
                    for (unsigned mask = 0; mask < 16; mask++) {
                        uint8_t got[16], o[16], n[16], merged[16];
                        memcpy(got, want, 16);
                        cb_keep_channels(&t, mask, old, got);
                        memcpy(o, old, 16);
                        memcpy(n, want, 16);
                        swap_bytes(o, t.bpe, endian);
                        swap_bytes(n, t.bpe, endian);
                        memcpy(merged, n, 16);
                        unsigned lo = 0;
                        for (unsigned c = 0; c < t.comps; c++) {
                            if (!((mask >> t.swizzle[c]) & 1u))
                                for (unsigned i = lo; i < lo + d->bits[c]; i++)
                                    set_bit(merged, i, bit_of(o, i));
                            lo += d->bits[c];
                        }
                        swap_bytes(merged, t.bpe, endian);
                        if (memcmp(got, merged, t.bpe))
                            fail_msg("format %u swap %u endian %u mask 0x%x: the kept channels differ", fmts[fi],
                                     swap, endian, mask);
                    }
                    checked++;
                }
    assert_int_equal(checked, 25 * 4 * 4 * 40);
}

static void test_refused(void **state)
{
    (void)state;
    struct cb_target t;
    char why[160];
    memset(&t, 0, sizeof t);
    /* FLOAT on a non-float format, a non-float type on a float format, an
     * unknown format */
    assert_int_equal(cb_format_init(&t, info_of(F(16), V_CB_NUMBER_TYPE__NUMBER_FLOAT, STD), why, sizeof why), -1);
    assert_int_equal(cb_format_init(&t, info_of(F(16_FLOAT), U, STD), why, sizeof why), -1);
    assert_int_equal(cb_format_init(&t, info_of(F(3_3_2), U, STD), why, sizeof why), -1);
    assert_non_null(strstr(why, "not supported"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_packed), cmocka_unit_test(test_gl_formulas),
        cmocka_unit_test(test_small_floats), cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_write_mask),  cmocka_unit_test(test_refused),
        cmocka_unit_test(test_small_floats_by_definition), cmocka_unit_test(test_small_float_values),
        cmocka_unit_test(test_layout_bit_by_bit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
