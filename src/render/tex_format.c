/* Texel formats: where each component of a FMT_* texel lies and how its
 * bits become a number.
 *
 * Layouts: Mesa r600_state_common.c r600_translate_texformat picks the
 * FMT_* of each pipe format, whose first channel (util_format: the lowest
 * bits / first byte) is the data format's X (the resource swizzle then
 * routes X..W to R, G, B, A): B5G6R5 is FMT_5_6_5 with X = B in bits 0..4,
 * R10G10B10A2 is FMT_2_10_10_10 with W in bits 30..31, Z24_UNORM_S8_UINT is
 * FMT_8_24 with X = Z in bits 0..23, R11G11B10_FLOAT is FMT_10_11_11_FLOAT.
 *
 * Numbers (OpenGL 4.6 core, 2.3.5): UNORM c / (2^n - 1); SNORM
 * max(c / (2^(n-1) - 1), -1) (SRF_MODE ZERO_CLAMP_MINUS_ONE, what Mesa
 * sets; SRF_MODE NO_ZERO is the older (2c + 1) / (2^n - 1)); INT the
 * integer, sign-extended for SIGNED; SCALED the integer as a float; 16-bit
 * floats IEEE half, 11- and 10-bit floats unsigned with a 5-bit exponent
 * (2.3.4.3, 2.3.4.4), the shared-exponent format per
 * EXT_texture_shared_exponent (value = mantissa * 2^(exponent - 15 - 9)).
 * Each fixed-point conversion is computed in double and rounded once to
 * float; the small floats are float32 values exactly (small_float.h).
 */
#include <math.h>
#include <string.h>

#include "small_float.h"
#include "texture.h"

#define F(c) (1u << (c))

static const struct tex_format formats[] = {
    /* format, bytes, comps, lo[], bits[], float components, shared exponent */
    { V_SQ_DATA_FORMAT__FMT_8, 1, 1, { 0 }, { 8 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_4_4, 1, 2, { 0, 4 }, { 4, 4 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_16, 2, 1, { 0 }, { 16 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_16_FLOAT, 2, 1, { 0 }, { 16 }, F(0), false },
    { V_SQ_DATA_FORMAT__FMT_8_8, 2, 2, { 0, 8 }, { 8, 8 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_5_6_5, 2, 3, { 0, 5, 11 }, { 5, 6, 5 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_1_5_5_5, 2, 4, { 0, 5, 10, 15 }, { 5, 5, 5, 1 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_4_4_4_4, 2, 4, { 0, 4, 8, 12 }, { 4, 4, 4, 4 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_32, 4, 1, { 0 }, { 32 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_32_FLOAT, 4, 1, { 0 }, { 32 }, F(0), false },
    { V_SQ_DATA_FORMAT__FMT_16_16, 4, 2, { 0, 16 }, { 16, 16 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_16_16_FLOAT, 4, 2, { 0, 16 }, { 16, 16 }, F(0) | F(1), false },
    { V_SQ_DATA_FORMAT__FMT_8_24, 4, 2, { 0, 24 }, { 24, 8 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_24_8, 4, 2, { 0, 8 }, { 8, 24 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_10_11_11_FLOAT, 4, 3, { 0, 11, 22 }, { 11, 11, 10 }, F(0) | F(1) | F(2), false },
    { V_SQ_DATA_FORMAT__FMT_2_10_10_10, 4, 4, { 0, 10, 20, 30 }, { 10, 10, 10, 2 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_8_8_8_8, 4, 4, { 0, 8, 16, 24 }, { 8, 8, 8, 8 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_5_9_9_9_SHAREDEXP, 4, 4, { 0, 9, 18, 27 }, { 9, 9, 9, 5 }, 0, true },
    { V_SQ_DATA_FORMAT__FMT_X24_8_32_FLOAT, 8, 2, { 0, 32 }, { 32, 8 }, F(0), false },
    { V_SQ_DATA_FORMAT__FMT_32_32, 8, 2, { 0, 32 }, { 32, 32 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_32_32_FLOAT, 8, 2, { 0, 32 }, { 32, 32 }, F(0) | F(1), false },
    { V_SQ_DATA_FORMAT__FMT_16_16_16_16, 8, 4, { 0, 16, 32, 48 }, { 16, 16, 16, 16 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_16_16_16_16_FLOAT, 8, 4, { 0, 16, 32, 48 }, { 16, 16, 16, 16 }, 0xF, false },
    { V_SQ_DATA_FORMAT__FMT_32_32_32_32, 16, 4, { 0, 32, 64, 96 }, { 32, 32, 32, 32 }, 0, false },
    { V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT, 16, 4, { 0, 32, 64, 96 }, { 32, 32, 32, 32 }, 0xF, false },
};

#undef F

const struct tex_format *tex_format_find(unsigned data_format)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].data_format == data_format)
            return &formats[i];
    return NULL;
}

float tex_srgb_to_linear(float c)
{
    double v = c;
    return (float)(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
}

static float fixed_to_float(uint32_t raw, unsigned n, bool is_signed, const struct tex_numfmt *nf)
{
    if (nf->num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED)
        return is_signed ? (float)(int32_t)raw : (float)raw;
    if (!is_signed)
        return (float)((double)raw / (double)((UINT64_C(1) << n) - 1));
    int64_t sv = (int32_t)raw;
    if (nf->srf_mode == V_SQ_SRF_MODE__SRF_MODE_NO_ZERO)
        return (float)((2.0 * (double)sv + 1.0) / (double)((UINT64_C(1) << n) - 1));
    if (n == 1)
        return sv < 0 ? -1.0f : 0.0f; /* no positive value: -1 or 0 */
    double v = (double)sv / (double)((UINT64_C(1) << (n - 1)) - 1);
    return (float)(v < -1.0 ? -1.0 : v);
}

static uint32_t le32(const uint8_t *w)
{
    return (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
}

/* 32-bit word k of a texel of `bytes` bytes (1, 2 or a multiple of 4; the
 * bytes past a 1- or 2-byte texel read as 0), read where it lies: no
 * component straddles a word. */
static uint32_t texel_word(const uint8_t *texel, unsigned bytes, unsigned k)
{
    if (bytes >= 4)
        return le32(texel + 4 * k);
    return bytes == 2 ? (uint32_t)texel[0] | (uint32_t)texel[1] << 8 : texel[0];
}

void tex_format_decode(const struct tex_format *f, const struct tex_numfmt *nf, const uint8_t *texel,
                       union eg_vec4 *out)
{
    if (f->shared_exp) {
        /* X, Y, Z: 9-bit mantissas of the exponent in W */
        uint32_t word = le32(texel);
        int e = (int)(word >> f->lo[3]) - 15 - 9;
        for (unsigned c = 0; c < 3; c++)
            out->f[c] = (float)ldexp((double)((word >> f->lo[c]) & 0x1FFu), e);
        out->f[3] = 1.0f;
        return;
    }
    bool as_int = nf->num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT;
    out->u[0] = out->u[1] = out->u[2] = 0;
    out->u[3] = as_int ? 1u : 0x3F800000u; /* 1 or 1.0f */
    for (unsigned c = 0; c < f->comps; c++) {
        unsigned lo = f->lo[c], n = f->bits[c];
        uint32_t word = texel_word(texel, f->bytes, lo / 32);
        uint32_t raw = n == 32 ? word : (word >> (lo % 32)) & ((1u << n) - 1);
        if ((f->is_float >> c) & 1u) {
            if (n == 32)
                out->u[c] = raw;
            else if (n == 16)
                out->f[c] = sf_decode(raw, 10, 5, true);
            else if (n == 11)
                out->f[c] = sf_decode(raw, 6, 5, false);
            else
                out->f[c] = sf_decode(raw, 5, 5, false);
            continue;
        }
        bool is_signed = nf->comp[c] == V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED;
        if (is_signed && n < 32 && (raw >> (n - 1)))
            raw |= ~((1u << n) - 1); /* sign-extend */
        if (as_int)
            out->u[c] = raw;
        else
            out->f[c] = fixed_to_float(raw, n, is_signed, nf);
    }
    if (nf->degamma && !as_int)
        for (unsigned c = 0; c < 3 && c < f->comps; c++)
            if (!((f->is_float >> c) & 1u) && nf->comp[c] != V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED)
                out->f[c] = tex_srgb_to_linear(out->f[c]);
}
