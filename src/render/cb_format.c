/* The colour block's formats: which channels a CB_COLOR*_INFO.FORMAT stores
 * and where, and how a colour is packed into / unpacked from an element per
 * NUMBER_TYPE, COMP_SWAP and ENDIAN.
 *
 * Layout rule: an element is a little-endian integer; channel X (the first
 * one COMP_SWAP maps) holds its lowest bits, then Y, Z, W upwards.  The
 * format's name lists the widths from the highest bits down: Mesa r600
 * (r600_translate_colorformat) programs COLOR_2_10_10_10 for R10G10B10A2
 * (10-bit R lowest), COLOR_1_5_5_5 for the 5,5,5,1 formats, COLOR_10_11_11_FLOAT
 * for R11G11B10_FLOAT and COLOR_24_8 for the formats whose 8-bit channel is
 * lowest; 8_8_8_8 stores X in byte 0 (the real card's frame).
 * COLOR_10_10_10_2 and COLOR_11_11_10_FLOAT, which Mesa never programs on
 * Evergreen, follow the same rule.
 *
 * Conversions (GL 4.6 section 2.3.5, 17.3.x) where the hardware's rounding is
 * not documented:
 *   UNORM  round(clamp(v, 0, 1) * (2^b - 1)), halves up; ROUND_MODE 1: truncate
 *   SNORM  round(clamp(v, -1, 1) * (2^(b-1) - 1)), halves away from zero
 *   UINT / SINT   the export's bits as an integer, clamped to the channel
 *   USCALED / SSCALED   the float value, clamped, truncated
 *   SRGB   R, G, B encoded (GL's sRGB formula), then UNORM; alpha linear
 *   FLOAT  32-bit: the bits; 16-bit: IEEE half, round to nearest even;
 *          11- and 10-bit (no sign): round to nearest even, negative -> 0,
 *          finite values past the largest -> the largest (EXT_packed_float)
 * The 8-bit UNORM path is the one the real card's frame was matched with
 * (export.c); a 16-bit-per-component export reaches FLOAT targets as an
 * exact half already, so the 16-bit rounding only matters to 32-bit exports.
 */
#include <math.h>
#include <string.h>

#include "render_priv.h"
#include "small_float.h"

/* Channel widths X, Y, Z, W (0: absent; pad: bits after the last channel
 * that are not a channel). */
#define FMT(f, bpe_, fp_, x, y, z, w) {V_CB_FORMAT__##f, bpe_, fp_, {x, y, z, w}}

static const struct cb_format_desc formats[] = {
    FMT(COLOR_8, 1, false, 8, 0, 0, 0),
    FMT(COLOR_16, 2, false, 16, 0, 0, 0),
    FMT(COLOR_16_FLOAT, 2, true, 16, 0, 0, 0),
    FMT(COLOR_8_8, 2, false, 8, 8, 0, 0),
    FMT(COLOR_5_6_5, 2, false, 5, 6, 5, 0),
    FMT(COLOR_1_5_5_5, 2, false, 5, 5, 5, 1),
    FMT(COLOR_4_4_4_4, 2, false, 4, 4, 4, 4),
    FMT(COLOR_32, 4, false, 32, 0, 0, 0),
    FMT(COLOR_32_FLOAT, 4, true, 32, 0, 0, 0),
    FMT(COLOR_16_16, 4, false, 16, 16, 0, 0),
    FMT(COLOR_16_16_FLOAT, 4, true, 16, 16, 0, 0),
    FMT(COLOR_8_24, 4, false, 24, 8, 0, 0),
    FMT(COLOR_24_8, 4, false, 8, 24, 0, 0),
    FMT(COLOR_10_11_11_FLOAT, 4, true, 11, 11, 10, 0),
    FMT(COLOR_11_11_10_FLOAT, 4, true, 10, 11, 11, 0),
    FMT(COLOR_2_10_10_10, 4, false, 10, 10, 10, 2),
    FMT(COLOR_8_8_8_8, 4, false, 8, 8, 8, 8),
    FMT(COLOR_10_10_10_2, 4, false, 2, 10, 10, 10),
    FMT(COLOR_X24_8_32_FLOAT, 8, false, 32, 8, 0, 0),
    FMT(COLOR_32_32, 8, false, 32, 32, 0, 0),
    FMT(COLOR_32_32_FLOAT, 8, true, 32, 32, 0, 0),
    FMT(COLOR_16_16_16_16, 8, false, 16, 16, 16, 16),
    FMT(COLOR_16_16_16_16_FLOAT, 8, true, 16, 16, 16, 16),
    FMT(COLOR_32_32_32_32, 16, false, 32, 32, 32, 32),
    FMT(COLOR_32_32_32_32_FLOAT, 16, true, 32, 32, 32, 32),
};

const struct cb_format_desc *cb_format_desc(unsigned format)
{
    for (unsigned i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == format)
            return &formats[i];
    return NULL;
}

static unsigned desc_comps(const struct cb_format_desc *f)
{
    unsigned n = 0;
    while (n < 4 && f->bits[n])
        n++;
    return n;
}

/* Which RGBA component stored channel c holds, per COMP_SWAP (Mesa
 * r600_translate_colorswap: STD = XYZW, ALT = ZYXW, STD_REV = WZYX,
 * ALT_REV = YZWX for four channels; XYZ / ZYX for three (ALT and ALT_REV
 * taken as the four-channel orders' first three: Mesa never programs them);
 * XY / XW / YX / WX for two; X / Y / Z / W for one). */
unsigned cb_swap_component(unsigned comps, unsigned swap, unsigned c)
{
    static const uint8_t four[4][4] = {
        [V_CB_COMP_SWAP__SWAP_STD] = {0, 1, 2, 3},
        [V_CB_COMP_SWAP__SWAP_ALT] = {2, 1, 0, 3},
        [V_CB_COMP_SWAP__SWAP_STD_REV] = {3, 2, 1, 0},
        [V_CB_COMP_SWAP__SWAP_ALT_REV] = {3, 0, 1, 2},
    };
    static const uint8_t three[4][3] = {
        [V_CB_COMP_SWAP__SWAP_STD] = {0, 1, 2},
        [V_CB_COMP_SWAP__SWAP_ALT] = {2, 1, 0},
        [V_CB_COMP_SWAP__SWAP_STD_REV] = {2, 1, 0},
        [V_CB_COMP_SWAP__SWAP_ALT_REV] = {3, 0, 1},
    };
    static const uint8_t two[4][2] = {
        [V_CB_COMP_SWAP__SWAP_STD] = {0, 1},
        [V_CB_COMP_SWAP__SWAP_ALT] = {0, 3},
        [V_CB_COMP_SWAP__SWAP_STD_REV] = {1, 0},
        [V_CB_COMP_SWAP__SWAP_ALT_REV] = {3, 0},
    };
    static const uint8_t one[4] = {0, 1, 2, 3};
    switch (comps) {
    case 4: return four[swap & 3][c];
    case 3: return three[swap & 3][c];
    case 2: return two[swap & 3][c];
    default: return one[swap & 3];
    }
}

int cb_format_init(struct cb_target *t, uint32_t info, char *why, size_t whylen)
{
    t->format = G_CB_COLOR_INFO__FORMAT(info);
    const struct cb_format_desc *f = cb_format_desc(t->format);
    if (!f)
        return rs_msg_fail(why, whylen, "colour format %u is not supported by the model", t->format);
    t->fmt = f;
    t->number_type = G_CB_COLOR_INFO__NUMBER_TYPE(info);
    t->comp_swap = G_CB_COLOR_INFO__COMP_SWAP(info);
    t->endian = G_CB_COLOR_INFO__ENDIAN(info);
    if (f->fp != (t->number_type == V_CB_NUMBER_TYPE__NUMBER_FLOAT))
        return rs_msg_fail(why, whylen, "colour format %u with number type %u (FLOAT goes with the _FLOAT formats only)",
                           t->format, t->number_type);
    if (G_CB_COLOR_INFO__SOURCE_FORMAT(info) == V_CB_SOURCE_FORMAT__EXPORT_2C_32BPC)
        return rs_msg_fail(why, whylen, "SOURCE_FORMAT EXPORT_2C_32BPC is not modelled (Mesa: \"do not use\")");
    t->bpe = f->bpe;
    t->comps = desc_comps(f);
    unsigned shift = 0;
    for (unsigned c = 0; c < 4; c++) {
        t->swizzle[c] = (uint8_t)(c < t->comps ? cb_swap_component(t->comps, t->comp_swap, c) : 4);
        t->shift[c] = (uint8_t)shift;
        shift += f->bits[c];
    }
    t->unorm8 = t->number_type == V_CB_NUMBER_TYPE__NUMBER_UNORM && t->endian == 0 &&
                (t->format == V_CB_FORMAT__COLOR_8 || t->format == V_CB_FORMAT__COLOR_8_8 ||
                 t->format == V_CB_FORMAT__COLOR_8_8_8_8);
    t->blend_clamp = G_CB_COLOR_INFO__BLEND_CLAMP(info);
    t->round_truncate = G_CB_COLOR_INFO__ROUND_MODE(info);
    t->export_16bpc = G_CB_COLOR_INFO__SOURCE_FORMAT(info) == V_CB_SOURCE_FORMAT__EXPORT_4C_16BPC;
    return 0;
}

/* ---- channel conversions ------------------------------------------------- */

static float srgb_encode(float v)
{
    if (!(v > 0.0f))
        return 0.0f;
    if (v >= 1.0f)
        return 1.0f;
    return v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

static float srgb_decode(float v)
{
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

static uint32_t bits_max(unsigned bits)
{
    return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
}

/* float -> b-bit UNORM.  8 bits in float arithmetic (the path matched with
 * the real card), wider in double so that 2^b - 1 is exact. */
static uint32_t to_unorm(float v, unsigned bits, bool truncate)
{
    if (!(v > 0.0f))
        return 0;
    if (v >= 1.0f)
        return bits_max(bits);
    if (bits <= 8) {
        float s = v * (float)bits_max(bits);
        return (uint32_t)(truncate ? s : s + 0.5f);
    }
    double s = (double)v * (double)bits_max(bits);
    return (uint32_t)(truncate ? s : s + 0.5);
}

static uint32_t to_snorm(float v, unsigned bits, bool truncate)
{
    double max = (double)((1u << (bits - 1)) - 1u);
    double d = v != v ? 0.0 : (double)v;
    d = d < -1.0 ? -1.0 : d > 1.0 ? 1.0 : d;
    double s = d * max;
    int64_t i = (int64_t)(truncate ? s : (s < 0 ? s - 0.5 : s + 0.5));
    return (uint32_t)i & bits_max(bits);
}

static uint32_t to_scaled(float v, unsigned bits, bool is_signed)
{
    double d = v != v ? 0.0 : (double)v;
    double lo = is_signed ? -(double)(1ull << (bits - 1)) : 0.0;
    double hi = is_signed ? (double)((1ull << (bits - 1)) - 1u) : (double)bits_max(bits);
    d = d < lo ? lo : d > hi ? hi : d;
    return (uint32_t)(int64_t)d & bits_max(bits);
}

/* The export's bits as an integer, clamped to a b-bit channel. */
static uint32_t to_uint(float v, unsigned bits)
{
    uint32_t raw;
    memcpy(&raw, &v, 4);
    return raw > bits_max(bits) ? bits_max(bits) : raw;
}

static uint32_t to_sint(float v, unsigned bits)
{
    int32_t raw;
    memcpy(&raw, &v, 4);
    if (bits >= 32)
        return (uint32_t)raw;
    int32_t lo = -(int32_t)(1u << (bits - 1)), hi = (int32_t)(1u << (bits - 1)) - 1;
    return (uint32_t)(raw < lo ? lo : raw > hi ? hi : raw) & bits_max(bits);
}

/* float <-> the small floats: small_float.h, on the bits (the rules are
 * there: round to nearest even; overflow to infinity with a sign bit, to
 * the largest finite value without one; negative values without a sign
 * bit -> 0). */
uint32_t cb_float_to_small(float v, unsigned mant, unsigned exp, bool sign)
{
    return sf_encode(v, mant, exp, sign);
}

float cb_small_to_float(uint32_t u, unsigned mant, unsigned exp, bool sign)
{
    return sf_decode(u, mant, exp, sign);
}

static uint32_t to_float_bits(float v, unsigned bits)
{
    switch (bits) {
    case 32: {
        uint32_t u;
        memcpy(&u, &v, 4);
        return u;
    }
    case 16: return sf_encode(v, 10, 5, true);
    case 11: return sf_encode(v, 6, 5, false);
    default: return sf_encode(v, 5, 5, false);
    }
}

static float from_float_bits(uint32_t u, unsigned bits)
{
    switch (bits) {
    case 32: {
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case 16: return sf_decode(u, 10, 5, true);
    case 11: return sf_decode(u, 6, 5, false);
    default: return sf_decode(u, 5, 5, false);
    }
}

/* ---- element bits ------------------------------------------------------- */

/* An element as little-endian 32-bit words: no format has a channel across
 * a word boundary (the table above), so a channel is a shift and a mask in
 * one word. */
static uint32_t ld_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void st_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* The words of an element of bpe bytes (1, 2, 4, 8 or 16) at el; the
 * words past it are 0. */
static void load_words(const uint8_t *el, unsigned bpe, uint32_t w[4])
{
    w[0] = w[1] = w[2] = w[3] = 0;
    if (bpe < 4) {
        w[0] = bpe == 2 ? (uint32_t)el[0] | (uint32_t)el[1] << 8 : el[0];
        return;
    }
    for (unsigned k = 0; k < bpe / 4; k++)
        w[k] = ld_le32(el + 4 * k);
}

/* bpe bytes of the element w to el. */
static void store_words(const uint32_t w[4], unsigned bpe, uint8_t *el)
{
    if (bpe < 4) {
        el[0] = (uint8_t)w[0];
        if (bpe == 2)
            el[1] = (uint8_t)(w[0] >> 8);
        return;
    }
    for (unsigned k = 0; k < bpe / 4; k++)
        st_le32(el + 4 * k, w[k]);
}

/* CB_COLOR*_INFO.ENDIAN: bytes swapped inside 16-, 32- or 64-bit words
 * (ENDIAN_8IN16 / 8IN32 / 8IN64) between the element and memory. */
static void endian_swap(unsigned endian, uint8_t *el, unsigned bpe)
{
    static const unsigned word[4] = {1, 2, 4, 8};
    unsigned w = word[endian & 3];
    if (w == 1 || bpe < w)
        return;
    for (unsigned o = 0; o + w <= bpe; o += w)
        for (unsigned i = 0; i < w / 2; i++) {
            uint8_t x = el[o + i];
            el[o + i] = el[o + w - 1 - i];
            el[o + w - 1 - i] = x;
        }
}

/* ---- pack / unpack ------------------------------------------------------ */

static uint32_t pack_channel(const struct cb_target *t, unsigned c, float v)
{
    unsigned bits = t->fmt->bits[c];
    if (t->fmt->fp)
        return to_float_bits(v, bits);
    switch (t->number_type) {
    case V_CB_NUMBER_TYPE__NUMBER_SNORM: return to_snorm(v, bits, t->round_truncate);
    case V_CB_NUMBER_TYPE__NUMBER_UINT: return to_uint(v, bits);
    case V_CB_NUMBER_TYPE__NUMBER_SINT: return to_sint(v, bits);
    case V_CB_NUMBER_TYPE__NUMBER_USCALED: return to_scaled(v, bits, false);
    case V_CB_NUMBER_TYPE__NUMBER_SSCALED: return to_scaled(v, bits, true);
    case V_CB_NUMBER_TYPE__NUMBER_SRGB:
        return to_unorm(t->swizzle[c] == 3 ? v : srgb_encode(v), bits, t->round_truncate);
    default: return to_unorm(v, bits, t->round_truncate);
    }
}

static float unpack_channel(const struct cb_target *t, unsigned c, uint32_t u)
{
    unsigned bits = t->fmt->bits[c];
    if (t->fmt->fp)
        return from_float_bits(u, bits);
    switch (t->number_type) {
    case V_CB_NUMBER_TYPE__NUMBER_SNORM: {
        int32_t s = bits >= 32 ? (int32_t)u : (int32_t)(u << (32 - bits)) >> (32 - bits);
        double f = (double)s / (double)((1u << (bits - 1)) - 1u);
        return (float)(f < -1.0 ? -1.0 : f);
    }
    case V_CB_NUMBER_TYPE__NUMBER_UINT: {
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case V_CB_NUMBER_TYPE__NUMBER_SINT: {
        int32_t s = bits >= 32 ? (int32_t)u : (int32_t)(u << (32 - bits)) >> (32 - bits);
        float f;
        memcpy(&f, &s, 4);
        return f;
    }
    case V_CB_NUMBER_TYPE__NUMBER_USCALED: return (float)u;
    case V_CB_NUMBER_TYPE__NUMBER_SSCALED:
        return (float)(bits >= 32 ? (int32_t)u : (int32_t)(u << (32 - bits)) >> (32 - bits));
    case V_CB_NUMBER_TYPE__NUMBER_SRGB: {
        float f = bits <= 8 ? (float)u / (float)bits_max(bits) : (float)((double)u / bits_max(bits));
        return t->swizzle[c] == 3 ? f : srgb_decode(f);
    }
    default:
        return bits <= 8 ? (float)u / (float)bits_max(bits) : (float)((double)u / bits_max(bits));
    }
}

/* The four-channel float formats with ENDIAN 0 (the MSAA float targets),
 * as the general loop in cb_pack computes them: false for another. */
static bool pack_float4(const struct cb_target *t, const float rgba[4], uint8_t *out)
{
    if (t->endian)
        return false;
    uint32_t u[4];
    switch (t->format) {
    case V_CB_FORMAT__COLOR_16_16_16_16_FLOAT:
        for (unsigned c = 0; c < 4; c++)
            u[c] = sf_encode(rgba[t->swizzle[c]], 10, 5, true);
        st_le32(out, u[0] | u[1] << 16);
        st_le32(out + 4, u[2] | u[3] << 16);
        return true;
    case V_CB_FORMAT__COLOR_32_32_32_32_FLOAT:
        for (unsigned c = 0; c < 4; c++) {
            memcpy(&u[c], &rgba[t->swizzle[c]], 4);
            st_le32(out + 4 * c, u[c]);
        }
        return true;
    default:
        return false;
    }
}

void cb_pack(const struct cb_target *t, const float rgba[4], uint8_t *out)
{
    if (t->unorm8) {
        /* the common case, as the general loop below computes it */
        for (unsigned c = 0; c < t->comps; c++)
            out[c] = (uint8_t)to_unorm(rgba[t->swizzle[c]], 8, t->round_truncate);
        return;
    }
    if (pack_float4(t, rgba, out))
        return;
    uint32_t w[4] = {0};
    for (unsigned c = 0; c < t->comps; c++) {
        unsigned sh = t->shift[c];
        uint32_t v = pack_channel(t, c, rgba[t->swizzle[c]]) & bits_max(t->fmt->bits[c]);
        w[sh / 32] |= v << (sh % 32);
    }
    if (!t->endian) {
        store_words(w, t->bpe, out);
        return;
    }
    uint8_t el[16];
    store_words(w, t->bpe, el);
    endian_swap(t->endian, el, t->bpe);
    memcpy(out, el, t->bpe);
}

void cb_unpack(const struct cb_target *t, const uint8_t *in, float rgba[4])
{
    uint32_t w[4];
    if (t->endian) {
        uint8_t el[16];
        memcpy(el, in, t->bpe);
        endian_swap(t->endian, el, t->bpe);
        load_words(el, t->bpe, w);
    } else {
        load_words(in, t->bpe, w);
    }
    rgba[0] = rgba[1] = rgba[2] = 0.0f;
    rgba[3] = 1.0f;
    for (unsigned c = 0; c < t->comps; c++) {
        unsigned sh = t->shift[c], bits = t->fmt->bits[c];
        rgba[t->swizzle[c]] = unpack_channel(t, c, (w[sh / 32] >> (sh % 32)) & bits_max(bits));
    }
}

void cb_keep_channels(const struct cb_target *t, unsigned write_mask, const uint8_t *old, uint8_t *el)
{
    uint8_t a[16], b[16];
    memcpy(a, old, t->bpe);
    memcpy(b, el, t->bpe);
    endian_swap(t->endian, a, t->bpe);
    endian_swap(t->endian, b, t->bpe);
    uint32_t wa[4], wb[4], keep[4] = {0};
    load_words(a, t->bpe, wa);
    load_words(b, t->bpe, wb);
    for (unsigned c = 0; c < t->comps; c++)
        if (!((write_mask >> t->swizzle[c]) & 1u))
            keep[t->shift[c] / 32] |= bits_max(t->fmt->bits[c]) << (t->shift[c] % 32);
    for (unsigned k = 0; k < 4; k++)
        wb[k] = (wb[k] & ~keep[k]) | (wa[k] & keep[k]);
    store_words(wb, t->bpe, b);
    endian_swap(t->endian, b, t->bpe);
    memcpy(el, b, t->bpe);
}
