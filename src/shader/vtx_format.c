/* Vertex fetch data formats: which FMT_* of the ISA table the Cedar's
 * vertex fetch reads, and the conversion of a fetched element.
 *
 * Which formats: Mesa's r600 driver decides what its vertex fetches ask of
 * the hardware (src/gallium/drivers/r600/r600_asm.c r600_vertex_data_type,
 * called for every vertex element by r600_create_vertex_fetch_shader and
 * for buffer textures by sfn_instr_mem.cpp; r600_formats.h
 * r600_is_buffer_format_supported says which vertex formats the driver
 * accepts at all).  A format it never produces is treated as one the fetch
 * unit does not read: a draw that fetches it is a GPU fault naming it.
 * Among those are the 3-component 8- and 16-bit formats FMT_8_8_8,
 * FMT_16_16_16 and FMT_16_16_16_FLOAT: Mesa fetches R8G8B8 / R16G16B16
 * attributes with the 4-component format and takes w from the swizzle (a
 * constant 1), and AMD's later vertex fetchers have no 3-component 8-bit
 * format at all (seed 004, the zink write-up: split into three 1-component
 * fetches).  32-bit integer channels are fetched as INT, never NORM (no
 * 32-bit NORM or SCALED vertex formats in r600_is_buffer_format_supported);
 * SCALED reads them as their integer bits too (the conversion is not made
 * for 32-bit channels: Mesa's sfn fetches the LDS-info constants of the
 * tessellation stages, which it uses as integers, as FMT_32_32_32_32 with
 * NUM_FORMAT SCALED).
 *
 * Layouts: a component's bits in the little-endian element; the first
 * component (X) in the lowest bits, as Mesa's vertex path implies (B5G6R5
 * is FMT_5_6_5 with the pipe format's first channel B in X, R10G10B10A2 is
 * FMT_2_10_10_10 with A in W, A1B5G5R5 is FMT_5_5_5_1 with the 1-bit A in X,
 * R11G11B10_FLOAT is FMT_10_11_11_FLOAT; the driver's swizzle then routes
 * X..W to the attribute's R..A).
 *
 * Numbers, the GL rules (OpenGL 4.6 core, 2.3.5.1 and 10.3.7): UNORM
 * c / (2^b - 1); SNORM with SRF_MODE ZERO_CLAMP_MINUS_ONE (what Mesa sets)
 * max(c / (2^(b-1) - 1), -1), with SRF_MODE NO_ZERO the pre-4.2 rule
 * (2c + 1) / (2^b - 1); USCALED / SSCALED the integer as a float; UINT /
 * SINT the integer bits (SINT sign-extended); half floats IEEE binary16,
 * the 11- and 10-bit floats unsigned with a 5-bit exponent (2.3.4.3,
 * 2.3.4.4).  Each value is computed in double and rounded once to float.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/vtx_format.h"
#include "eg_regs.h"

#define D(x) V_SQ_DATA_FORMAT__##x
#define NO(fmt, why) { D(fmt), 0, 0, { 0 }, { 0 }, 0, EG_VTX_FETCH_NO, why }
#define FMT(fmt, bytes, n, lo, bits, fl, fetch, why) { D(fmt), bytes, n, lo, bits, fl, fetch, why }
#define L(...) { __VA_ARGS__ }

static const char never[] = "Mesa's r600 vertex path never produces it (r600_vertex_data_type)";
static const char depth[] = "a depth/stencil layout; Mesa's r600 vertex path never produces it";
static const char tex_only[] = "a texture-only layout; Mesa's r600 vertex path never produces it";
static const char int32[] = "32-bit integer channels as INT, or SCALED read as INT (r600_is_buffer_format_supported: "
                            "no 32-bit NORM or SCALED vertex formats; Mesa's sfn fetches its LDS-info constants as "
                            "FMT_32_32_32_32 SCALED and uses them as integers)";

static const struct eg_vtx_format table[] = {
    NO(FMT_INVALID, "not a format"),
    FMT(FMT_8, 1, 1, L(0), L(8), 0, EG_VTX_FETCH_YES, "R8_*: r600_vertex_data_type"),
    FMT(FMT_4_4, 1, 2, L(0, 4), L(4, 4), 0, EG_VTX_FETCH_YES, "4-bit 2-channel plain formats: r600_vertex_data_type"),
    NO(FMT_3_3_2, never),
    FMT(FMT_16, 2, 1, L(0), L(16), 0, EG_VTX_FETCH_YES, "R16_*: r600_vertex_data_type"),
    FMT(FMT_16_FLOAT, 2, 1, L(0), L(16), 1, EG_VTX_FETCH_YES, "R16_FLOAT: r600_vertex_data_type"),
    FMT(FMT_8_8, 2, 2, L(0, 8), L(8, 8), 0, EG_VTX_FETCH_YES, "R8G8_*: r600_vertex_data_type"),
    FMT(FMT_5_6_5, 2, 3, L(0, 5, 11), L(5, 6, 5), 0, EG_VTX_FETCH_YES, "B5G6R5_UNORM: r600_vertex_data_type"),
    NO(FMT_6_5_5, never),
    FMT(FMT_1_5_5_5, 2, 4, L(0, 5, 10, 15), L(5, 5, 5, 1), 0, EG_VTX_FETCH_YES,
        "B5G5R5A1_UNORM: r600_vertex_data_type"),
    FMT(FMT_4_4_4_4, 2, 4, L(0, 4, 8, 12), L(4, 4, 4, 4), 0, EG_VTX_FETCH_YES,
        "4-bit 4-channel plain formats: r600_vertex_data_type"),
    FMT(FMT_5_5_5_1, 2, 4, L(0, 1, 6, 11), L(1, 5, 5, 5), 0, EG_VTX_FETCH_YES,
        "A1B5G5R5_UNORM: r600_vertex_data_type"),
    FMT(FMT_32, 4, 1, L(0), L(32), 0, EG_VTX_FETCH_INT_ONLY, int32),
    FMT(FMT_32_FLOAT, 4, 1, L(0), L(32), 1, EG_VTX_FETCH_YES, "R32_FLOAT: r600_vertex_data_type"),
    FMT(FMT_16_16, 4, 2, L(0, 16), L(16, 16), 0, EG_VTX_FETCH_YES, "R16G16_*: r600_vertex_data_type"),
    FMT(FMT_16_16_FLOAT, 4, 2, L(0, 16), L(16, 16), 3, EG_VTX_FETCH_YES, "R16G16_FLOAT: r600_vertex_data_type"),
    NO(FMT_8_24, depth),
    NO(FMT_8_24_FLOAT, depth),
    NO(FMT_24_8, depth),
    NO(FMT_24_8_FLOAT, depth),
    NO(FMT_10_11_11, never),
    FMT(FMT_10_11_11_FLOAT, 4, 3, L(0, 11, 22), L(11, 11, 10), 7, EG_VTX_FETCH_YES,
        "R11G11B10_FLOAT: r600_vertex_data_type"),
    NO(FMT_11_11_10, never),
    NO(FMT_11_11_10_FLOAT, "Mesa fetches R11G11B10_FLOAT as FMT_10_11_11_FLOAT, never this one"),
    FMT(FMT_2_10_10_10, 4, 4, L(0, 10, 20, 30), L(10, 10, 10, 2), 0, EG_VTX_FETCH_YES,
        "R10G10B10A2_* / B10G10R10A2_*: r600_vertex_data_type"),
    FMT(FMT_8_8_8_8, 4, 4, L(0, 8, 16, 24), L(8, 8, 8, 8), 0, EG_VTX_FETCH_YES,
        "R8G8B8A8_* (and R8G8B8_*, w from the swizzle): r600_vertex_data_type"),
    NO(FMT_10_10_10_2, "Mesa fetches 10-bit 4-channel formats as FMT_2_10_10_10, never this one"),
    NO(FMT_X24_8_32_FLOAT, depth),
    FMT(FMT_32_32, 8, 2, L(0, 32), L(32, 32), 0, EG_VTX_FETCH_INT_ONLY, int32),
    FMT(FMT_32_32_FLOAT, 8, 2, L(0, 32), L(32, 32), 3, EG_VTX_FETCH_YES, "R32G32_FLOAT: r600_vertex_data_type"),
    FMT(FMT_16_16_16_16, 8, 4, L(0, 16, 32, 48), L(16, 16, 16, 16), 0, EG_VTX_FETCH_YES,
        "R16G16B16A16_* (and R16G16B16_*, w from the swizzle): r600_vertex_data_type"),
    FMT(FMT_16_16_16_16_FLOAT, 8, 4, L(0, 16, 32, 48), L(16, 16, 16, 16), 15, EG_VTX_FETCH_YES,
        "R16G16B16A16_FLOAT (and R16G16B16_FLOAT): r600_vertex_data_type"),
    FMT(FMT_32_32_32_32, 16, 4, L(0, 32, 64, 96), L(32, 32, 32, 32), 0, EG_VTX_FETCH_INT_ONLY, int32),
    FMT(FMT_32_32_32_32_FLOAT, 16, 4, L(0, 32, 64, 96), L(32, 32, 32, 32), 15, EG_VTX_FETCH_YES,
        "R32G32B32A32_FLOAT: r600_vertex_data_type"),
    NO(FMT_1, tex_only),
    NO(FMT_GB_GR, tex_only),
    NO(FMT_BG_RG, tex_only),
    NO(FMT_32_AS_8, tex_only),
    NO(FMT_32_AS_8_8, tex_only),
    NO(FMT_5_9_9_9_SHAREDEXP, tex_only),
    FMT(FMT_8_8_8, 3, 3, L(0, 8, 16), L(8, 8, 8), 0, EG_VTX_FETCH_NO,
        "3-component 8-bit: Mesa fetches R8G8B8 with FMT_8_8_8_8 and w from the swizzle; AMD vertex fetch has "
        "no 3-component 8-bit format (seed 004: three 1-component fetches instead)"),
    FMT(FMT_16_16_16, 6, 3, L(0, 16, 32), L(16, 16, 16), 0, EG_VTX_FETCH_NO,
        "3-component 16-bit: Mesa fetches R16G16B16 with FMT_16_16_16_16 and w from the swizzle"),
    FMT(FMT_16_16_16_FLOAT, 6, 3, L(0, 16, 32), L(16, 16, 16), 7, EG_VTX_FETCH_NO,
        "3-component half float: Mesa fetches R16G16B16_FLOAT with FMT_16_16_16_16_FLOAT and w from the swizzle"),
    FMT(FMT_32_32_32, 12, 3, L(0, 32, 64), L(32, 32, 32), 0, EG_VTX_FETCH_INT_ONLY, int32),
    FMT(FMT_32_32_32_FLOAT, 12, 3, L(0, 32, 64), L(32, 32, 32), 7, EG_VTX_FETCH_YES,
        "R32G32B32_FLOAT: r600_vertex_data_type"),
    NO(FMT_BC1, tex_only),
    NO(FMT_BC2, tex_only),
    NO(FMT_BC3, tex_only),
    NO(FMT_BC4, tex_only),
    NO(FMT_BC5, tex_only),
    NO(FMT_BC6, tex_only),
    NO(FMT_BC7, tex_only),
    NO(FMT_32_AS_32_32_32_32, tex_only),
};

#undef D
#undef NO
#undef FMT
#undef L

const struct eg_vtx_format *eg_vtx_format_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

static int by_data_format(const void *key, const void *entry)
{
    unsigned k = *(const unsigned *)key, e = ((const struct eg_vtx_format *)entry)->data_format;
    return k < e ? -1 : k > e;
}

const struct eg_vtx_format *eg_vtx_format_find(unsigned data_format)
{
    /* the table is in data-format order */
    return bsearch(&data_format, table, sizeof table / sizeof table[0], sizeof table[0], by_data_format);
}

bool eg_vtx_fetch_int(const struct eg_vtx_format *f, unsigned num_format)
{
    return num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT ||
           (f->fetch == EG_VTX_FETCH_INT_ONLY && num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED);
}

const char *eg_vtx_format_refusal(unsigned data_format, unsigned num_format)
{
    return eg_vtx_format_refusal_of(eg_vtx_format_find(data_format), num_format);
}

const char *eg_vtx_format_refusal_of(const struct eg_vtx_format *f, unsigned num_format)
{
    if (!f)
        return "not a data format of the ISA table";
    if (f->fetch == EG_VTX_FETCH_NO)
        return f->why;
    if (f->fetch == EG_VTX_FETCH_INT_ONLY && num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM)
        return f->why;
    if (num_format > V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED)
        return "NUM_FORMAT 3 is reserved";
    return NULL;
}

void eg_vtx_endian_swap(uint8_t *p, unsigned n, unsigned endian)
{
    if (endian == V_SQ_ENDIAN__ENDIAN_NONE)
        return;
    unsigned unit = endian == V_SQ_ENDIAN__ENDIAN_8IN16 ? 2 : endian == V_SQ_ENDIAN__ENDIAN_8IN32 ? 4 : 8;
    for (unsigned i = 0; i + unit <= n; i += unit)
        for (unsigned a = i, b = i + unit - 1; a < b; a++, b--) {
            uint8_t t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* Bits lo .. lo + n - 1 (n <= 32) of a little-endian element. */
static uint32_t field(const uint8_t *e, unsigned lo, unsigned n)
{
    uint64_t v = 0;
    unsigned first = lo / 8, last = (lo + n - 1) / 8;
    for (unsigned i = last + 1; i-- > first;)
        v = v << 8 | e[i];
    v >>= lo % 8;
    return (uint32_t)(n == 32 ? v : v & ((UINT64_C(1) << n) - 1));
}

/* A float with a 5-bit exponent (bias 15) above mbits of mantissa, and a
 * sign bit above those when signed: binary16 (10, signed), the 11-bit (6)
 * and 10-bit (5) unsigned floats. */
static double minifloat(uint32_t raw, unsigned mbits, bool sign)
{
    uint32_t mant = raw & ((1u << mbits) - 1u), expo = (raw >> mbits) & 0x1Fu;
    double mag;
    if (expo == 0x1F)
        mag = mant ? NAN : INFINITY;
    else if (expo == 0)
        mag = ldexp(mant, 1 - 15 - (int)mbits);     /* denormal */
    else
        mag = ldexp((double)(mant + (1u << mbits)), (int)expo - 15 - (int)mbits);
    return sign && (raw >> (mbits + 5) & 1u) ? -mag : mag;
}

static double snorm(int64_t c, unsigned n, unsigned srf_mode)
{
    double full = ldexp(1.0, (int)n) - 1.0;    /* 2^n - 1 */
    if (srf_mode == V_SQ_SRF_MODE__SRF_MODE_NO_ZERO)
        return (2.0 * (double)c + 1.0) / full;
    if (n == 1)
        return c < 0 ? -1.0 : 0.0;              /* 2^0 - 1 = 0: only -1 and 0 exist */
    double v = (double)c / (ldexp(1.0, (int)n - 1) - 1.0);
    return v < -1.0 ? -1.0 : v;
}

/* The components a format lacks: 0, w 1 (an integer 1 when the fetch
 * yields integers and the format has no float). */
static union eg_vec4 missing(const struct eg_vtx_format *f, bool as_int)
{
    union eg_vec4 v;
    v.u[0] = v.u[1] = v.u[2] = 0;
    if (as_int && !f->float_mask)
        v.u[3] = 1;
    else
        v.f[3] = 1.0f;
    return v;
}

int eg_vtx_format_convert(const struct eg_vtx_format *f, const struct eg_vtx_numfmt *nf, const uint8_t *bytes,
                          union eg_vec4 *out)
{
    if (eg_vtx_format_refusal_of(f, nf->num_format))
        return -1;
    bool as_int = eg_vtx_fetch_int(f, nf->num_format);
    bool is_signed = nf->format_comp == V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED;
    union eg_vec4 v = missing(f, as_int);
    for (unsigned c = 0; c < f->ncomp; c++) {
        unsigned n = f->bits[c];
        uint32_t raw = field(bytes, f->lo[c], n);
        if (f->float_mask >> c & 1u) {
            if (n == 32)
                v.u[c] = raw;
            else
                v.f[c] = (float)minifloat(raw, n == 16 ? 10 : n - 5, n == 16);
            continue;
        }
        int64_t s = raw;
        if (is_signed && (raw >> (n - 1) & 1u))
            s -= INT64_C(1) << n;
        if (as_int)
            v.u[c] = (uint32_t)s;
        else if (nf->num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED)
            v.f[c] = (float)s;
        else if (is_signed)
            v.f[c] = (float)snorm(s, n, nf->srf_mode);
        else
            v.f[c] = (float)((double)raw / (ldexp(1.0, (int)n) - 1.0));
    }
    *out = v;
    return f->ncomp;
}

/* Whether every component c of f is bits c * w .. c * w + w - 1, w = width. */
static bool packed_units(const struct eg_vtx_format *f, unsigned width)
{
    for (unsigned c = 0; c < f->ncomp; c++)
        if (f->bits[c] != width || f->lo[c] != c * width)
            return false;
    return f->ncomp > 0;
}

int eg_vtx_conv_init(struct eg_vtx_conv *cv, const struct eg_vtx_format *f, const struct eg_vtx_numfmt *nf)
{
    if (eg_vtx_format_refusal_of(f, nf->num_format))
        return -1;
    bool as_int = eg_vtx_fetch_int(f, nf->num_format);
    unsigned all = (1u << f->ncomp) - 1u;
    *cv = (struct eg_vtx_conv){ .f = f, .nf = *nf, .path = EG_VTX_CONV_GENERAL, .ncomp = f->ncomp,
                                .is_signed = nf->format_comp == V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED,
                                .fill = missing(f, as_int) };
    /* 32-bit words: a float's bits as stored, an integer's (sign-extended
     * to 32 bits: the same bits) when fetched as an integer */
    if (packed_units(f, 32) && ((f->float_mask & all) == all || (!f->float_mask && as_int))) {
        cv->path = EG_VTX_CONV_WORDS;
        cv->unit = 4;
        return 0;
    }
    if (f->float_mask || !(packed_units(f, 8) || packed_units(f, 16)))
        return 0;
    unsigned n = f->bits[0];
    cv->path = EG_VTX_CONV_UNITS;
    cv->unit = (uint8_t)(n / 8);
    cv->div = ldexp(1.0, (int)n) - 1.0;
    if (as_int)
        cv->op = EG_VTX_OP_BITS;
    else if (nf->num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED)
        cv->op = EG_VTX_OP_SCALED;
    else if (!cv->is_signed)
        cv->op = EG_VTX_OP_UNORM;
    else if (nf->srf_mode == V_SQ_SRF_MODE__SRF_MODE_NO_ZERO)
        cv->op = EG_VTX_OP_SNORM_NO_ZERO;
    else {
        cv->op = EG_VTX_OP_SNORM;
        cv->div = ldexp(1.0, (int)n - 1) - 1.0;
    }
    return 0;
}

void eg_vtx_conv_run(const struct eg_vtx_conv *cv, const uint8_t *bytes, union eg_vec4 *out)
{
    if (cv->path == EG_VTX_CONV_GENERAL) {
        eg_vtx_format_convert(cv->f, &cv->nf, bytes, out);
        return;
    }
    union eg_vec4 v = cv->fill;
    if (cv->path == EG_VTX_CONV_WORDS) {
        for (unsigned c = 0; c < cv->ncomp; c++, bytes += 4)
            v.u[c] = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
                     (uint32_t)bytes[3] << 24;
        *out = v;
        return;
    }
    for (unsigned c = 0; c < cv->ncomp; c++) {
        int32_t s;
        if (cv->unit == 1)
            s = cv->is_signed ? (int8_t)bytes[c] : (int32_t)bytes[c];
        else {
            uint16_t raw = (uint16_t)(bytes[2 * c] | bytes[2 * c + 1] << 8);
            s = cv->is_signed ? (int16_t)raw : (int32_t)raw;
        }
        switch (cv->op) {
        case EG_VTX_OP_BITS: v.u[c] = (uint32_t)s; break;
        case EG_VTX_OP_SCALED: v.f[c] = (float)s; break;
        case EG_VTX_OP_UNORM: v.f[c] = (float)((double)s / cv->div); break;
        case EG_VTX_OP_SNORM_NO_ZERO: v.f[c] = (float)((2.0 * (double)s + 1.0) / cv->div); break;
        default: {
            double x = (double)s / cv->div;
            v.f[c] = (float)(x < -1.0 ? -1.0 : x);
        }
        }
    }
    *out = v;
}

/* The interpreter's older entry points (cedar/shader.h). */
int eg_fmt_bytes(unsigned data_format)
{
    const struct eg_vtx_format *f = eg_vtx_format_find(data_format);
    return f && f->bytes ? f->bytes : -1;
}

int eg_fmt_convert(unsigned data_format, unsigned num_format, unsigned format_comp, const uint8_t *p,
                   union eg_vec4 *out)
{
    const struct eg_vtx_numfmt nf = { num_format, format_comp, V_SQ_SRF_MODE__SRF_MODE_ZERO_CLAMP_MINUS_ONE };
    return eg_vtx_format_convert(eg_vtx_format_find(data_format), &nf, p, out);
}
