/* Vertex fetch formats (src/shader/vtx_format.c) against the GL spec.
 *
 * Independent sources:
 * - the set of fetchable formats: the data formats Mesa's r600
 *   r600_vertex_data_type produces for the plain vertex formats that
 *   r600_is_buffer_format_supported accepts (read from Mesa, listed here by
 *   name);
 * - where each component lies: the pipe format Mesa fetches with that data
 *   format, its channels from the lowest bits up (util_format naming:
 *   B5G6R5 is B in bits 0..4), written out here per format;
 * - the numbers: OpenGL 4.6 core 2.3.5.1 (UNORM c / (2^b - 1), SNORM
 *   max(c / (2^(b-1) - 1), -1), the older SNORM (2c + 1) / (2^b - 1)),
 *   10.3.7 (SCALED: the integer as a float; INT: the integer), 2.3.4.2-4
 *   (binary16, the unsigned 11- and 10-bit floats), each as a formula here;
 * - vectors worked by hand (the comments show the arithmetic).
 * And one fetch through the interpreter (eg_run_vs): SRF_MODE, ENDIAN_SWAP
 * and DST_SEL from the instruction's fields. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/regdb.h"
#include "cedar/shader.h"
#include "cedar/vtx_format.h"
#include "eg_regs.h"

#define NORM V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM
#define INT V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT
#define SCALED V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED
#define USGN V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED
#define SGN V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED
#define CLAMP V_SQ_SRF_MODE__SRF_MODE_ZERO_CLAMP_MINUS_ONE
#define NOZERO V_SQ_SRF_MODE__SRF_MODE_NO_ZERO

/* The fetchable data formats as Mesa's driver uses them, with the channel
 * widths of the pipe format it fetches that way (lowest bits first) and
 * which channels are floats. */
struct mesa_fmt {
    const char *name;
    unsigned nch, width[4];
    bool is_float, int_only;
};

static const struct mesa_fmt mesa[] = {
    { "FMT_8", 1, { 8 }, false, false },                       /* R8_* */
    { "FMT_4_4", 2, { 4, 4 }, false, false },                  /* R4A4_UNORM */
    { "FMT_16", 1, { 16 }, false, false },                     /* R16_* */
    { "FMT_16_FLOAT", 1, { 16 }, true, false },                /* R16_FLOAT */
    { "FMT_8_8", 2, { 8, 8 }, false, false },                  /* R8G8_* */
    { "FMT_5_6_5", 3, { 5, 6, 5 }, false, false },             /* B5G6R5_UNORM */
    { "FMT_1_5_5_5", 4, { 5, 5, 5, 1 }, false, false },        /* B5G5R5A1_UNORM */
    { "FMT_4_4_4_4", 4, { 4, 4, 4, 4 }, false, false },        /* R4G4B4A4_UNORM */
    { "FMT_5_5_5_1", 4, { 1, 5, 5, 5 }, false, false },        /* A1B5G5R5_UNORM */
    { "FMT_32", 1, { 32 }, false, true },                      /* R32_UINT / SINT */
    { "FMT_32_FLOAT", 1, { 32 }, true, false },
    { "FMT_16_16", 2, { 16, 16 }, false, false },
    { "FMT_16_16_FLOAT", 2, { 16, 16 }, true, false },
    { "FMT_10_11_11_FLOAT", 3, { 11, 11, 10 }, true, false },  /* R11G11B10_FLOAT */
    { "FMT_2_10_10_10", 4, { 10, 10, 10, 2 }, false, false },  /* R10G10B10A2_* */
    { "FMT_8_8_8_8", 4, { 8, 8, 8, 8 }, false, false },
    { "FMT_32_32", 2, { 32, 32 }, false, true },
    { "FMT_32_32_FLOAT", 2, { 32, 32 }, true, false },
    { "FMT_16_16_16_16", 4, { 16, 16, 16, 16 }, false, false },
    { "FMT_16_16_16_16_FLOAT", 4, { 16, 16, 16, 16 }, true, false },
    { "FMT_32_32_32_32", 4, { 32, 32, 32, 32 }, false, true },
    { "FMT_32_32_32_32_FLOAT", 4, { 32, 32, 32, 32 }, true, false },
    { "FMT_32_32_32", 3, { 32, 32, 32 }, false, true },
    { "FMT_32_32_32_FLOAT", 3, { 32, 32, 32 }, true, false },
};
#define NMESA (sizeof mesa / sizeof mesa[0])

static unsigned fmt_value(const char *name)
{
    uint32_t v;
    const struct eg_enum *e = eg_enum_find_name("SQ_DATA_FORMAT");
    assert_non_null(e);
    if (!eg_enum_value_find(e, name, &v))
        fail_msg("%s is not in the ISA's data-format table", name);
    return v;
}

static const struct mesa_fmt *mesa_find(unsigned data_format)
{
    for (size_t i = 0; i < NMESA; i++)
        if (fmt_value(mesa[i].name) == data_format)
            return &mesa[i];
    return NULL;
}

/* ---- the table -------------------------------------------------------- */

static void every_isa_format_has_an_entry_and_only_mesas_are_fetched(void **state)
{
    (void)state;
    const struct eg_enum *e = eg_enum_find_name("SQ_DATA_FORMAT");
    assert_non_null(e);
    size_t n;
    eg_vtx_format_table(&n);
    assert_int_equal(n, e->count);
    unsigned fetchable = 0;
    for (unsigned i = 0; i < e->count; i++) {
        unsigned v = e->values[i].value;
        const struct eg_vtx_format *f = eg_vtx_format_find(v);
        assert_non_null(f);
        assert_int_equal(f->data_format, v);
        assert_non_null(f->why);
        const struct mesa_fmt *m = mesa_find(v);
        bool int_ok = eg_vtx_format_refusal(v, INT) == NULL, norm_ok = eg_vtx_format_refusal(v, NORM) == NULL;
        bool scaled_ok = eg_vtx_format_refusal(v, SCALED) == NULL;
        if (!m) {
            if (int_ok || norm_ok || scaled_ok)
                fail_msg("%s is fetched, but Mesa's r600 never fetches it", e->values[i].name);
            continue;
        }
        fetchable++;
        assert_true(int_ok);
        assert_int_equal(norm_ok, !m->int_only);
        assert_true(scaled_ok); /* 32-bit integer channels: read as INT (Mesa's sfn LDS-info fetches) */
        /* the layout is the pipe format's channels packed from bit 0 */
        assert_int_equal(f->ncomp, m->nch);
        unsigned lo = 0;
        for (unsigned c = 0; c < m->nch; c++) {
            assert_int_equal(f->lo[c], lo);
            assert_int_equal(f->bits[c], m->width[c]);
            assert_int_equal(f->float_mask >> c & 1u, m->is_float);
            lo += m->width[c];
        }
        assert_int_equal(f->bytes * 8, lo);
    }
    assert_int_equal(fetchable, NMESA);
    assert_null(eg_vtx_format_find(4)); /* a gap in the ISA table */
    /* eg_vtx_format_find halves the table: in data-format order, every
     * entry found, nothing past either end */
    const struct eg_vtx_format *t = eg_vtx_format_table(&n);
    for (size_t i = 0; i < n; i++) {
        if (i)
            assert_true(t[i - 1].data_format < t[i].data_format);
        assert_ptr_equal(eg_vtx_format_find(t[i].data_format), &t[i]);
    }
    assert_null(eg_vtx_format_find(t[n - 1].data_format + 1));
    assert_null(eg_vtx_format_find(~0u));
    if (t[0].data_format > 0)
        assert_null(eg_vtx_format_find(0));
    assert_non_null(eg_vtx_format_refusal(4, NORM));
    assert_non_null(eg_vtx_format_refusal(fmt_value("FMT_8"), 3)); /* reserved NUM_FORMAT */
}

static void three_component_8_and_16_bit_formats_are_refused_by_name(void **state)
{
    (void)state;
    const char *names[] = { "FMT_8_8_8", "FMT_16_16_16", "FMT_16_16_16_FLOAT" };
    for (int i = 0; i < 3; i++) {
        unsigned v = fmt_value(names[i]);
        const char *why = eg_vtx_format_refusal(v, NORM);
        assert_non_null(why);
        assert_non_null(strstr(why, "3-component"));
        union eg_vec4 out = { .u = { 7, 7, 7, 7 } };
        const uint8_t bytes[16] = { 1, 2, 3 };
        const struct eg_vtx_numfmt nf = { NORM, USGN, CLAMP };
        assert_int_equal(eg_vtx_format_convert(eg_vtx_format_find(v), &nf, bytes, &out), -1);
        assert_int_equal(out.u[0], 7); /* nothing written */
    }
    assert_non_null(eg_vtx_format_refusal(fmt_value("FMT_32_32"), NORM));
    assert_null(eg_vtx_format_refusal(fmt_value("FMT_32_32"), INT));
    /* SCALED 32-bit integers are their bits, as Mesa's sfn expects of its
     * FMT_32_32_32_32 SCALED LDS-info fetches (R600_DEBUG=tcs: VFETCH ...
     * FMT(DTA:34 NUM:2 COMP:1 MODE:1), then MULADD_UINT24 on the result) */
    union eg_vec4 out;
    const uint8_t bytes[8] = {0x60, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
    const struct eg_vtx_numfmt nf = {SCALED, USGN, CLAMP};
    assert_int_equal(eg_vtx_format_convert(eg_vtx_format_find(fmt_value("FMT_32_32")), &nf, bytes, &out), 2);
    assert_int_equal(out.u[0], 0x60);
    assert_int_equal(out.u[1], 0xFFFFFFFFu);
    assert_int_equal(out.u[3], 1);
}

/* ---- the GL rules, as formulas ------------------------------------------ */

static double gl_unorm(uint64_t c, unsigned b)
{
    return (double)c / (pow(2.0, b) - 1.0);
}

static double gl_snorm(int64_t c, unsigned b, unsigned srf)
{
    if (srf == NOZERO)
        return (2.0 * (double)c + 1.0) / (pow(2.0, b) - 1.0);
    if (b == 1)
        return c < 0 ? -1.0 : 0.0;
    return fmax((double)c / (pow(2.0, b - 1) - 1.0), -1.0);
}

/* An unsigned float (GL 2.3.4.3/4) or binary16 (sign above): E exponent
 * bits (bias 15), M mantissa bits. */
static double gl_small_float(uint32_t v, unsigned m_bits, bool has_sign)
{
    double sign = has_sign && (v >> (m_bits + 5)) & 1 ? -1.0 : 1.0;
    unsigned e = (v >> m_bits) & 31, m = v & ((1u << m_bits) - 1);
    if (e == 0)
        return sign * pow(2.0, -14) * (m / pow(2.0, m_bits));
    if (e == 31)
        return m ? NAN : sign * INFINITY;
    return sign * pow(2.0, (int)e - 15) * (1.0 + m / pow(2.0, m_bits));
}

static void put_bits(uint8_t *e, unsigned lo, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        if (v >> i & 1)
            e[(lo + i) / 8] |= (uint8_t)(1u << ((lo + i) % 8));
}

static void expect_float(float got, double want, const char *what, unsigned c, uint64_t raw)
{
    if (isnan(want)) {
        if (!isnan(got))
            fail_msg("%s comp %u raw 0x%llx: %g, want NaN", what, c, (unsigned long long)raw, got);
        return;
    }
    float w = (float)want;
    if (got != w && fabsf(got - w) > fabsf(w) * 1.2e-7f)
        fail_msg("%s comp %u raw 0x%llx: %.9g, want %.9g", what, c, (unsigned long long)raw, got, want);
}

/* Component values to try for a b-bit channel: the ends, around zero and
 * the sign bit, and a spread in between. */
static unsigned raw_values(unsigned b, uint64_t *out)
{
    uint64_t max = b == 32 ? 0xFFFFFFFFu : (1ull << b) - 1, half = 1ull << (b - 1);
    uint64_t v[] = { 0, 1, 2, half - 1, half, half + 1, max - 1, max, max / 3, max / 5 * 2, 0x5A5A5A5Au & max };
    unsigned n = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        out[n++] = v[i] & max;
    return n;
}

static void every_fetchable_format_and_number_format_follows_gl(void **state)
{
    (void)state;
    const unsigned nums[3] = { NORM, INT, SCALED };
    unsigned checked = 0;
    for (size_t i = 0; i < NMESA; i++) {
        const struct mesa_fmt *m = &mesa[i];
        const struct eg_vtx_format *f = eg_vtx_format_find(fmt_value(m->name));
        for (unsigned k = 0; k < 3; k++)
            for (unsigned comp = USGN; comp <= SGN; comp++)
                for (unsigned srf = CLAMP; srf <= NOZERO; srf++) {
                    if (m->int_only && nums[k] != INT)
                        continue;
                    const struct eg_vtx_numfmt nf = { nums[k], comp, srf };
                    uint64_t vals[16];
                    unsigned nv = raw_values(m->width[0] < 4 ? 4 : m->width[0], vals);
                    for (unsigned t = 0; t < nv; t++) {
                        uint8_t e[16] = { 0 };
                        uint64_t raw[4];
                        unsigned lo = 0;
                        for (unsigned c = 0; c < m->nch; c++) {
                            /* each channel its own value: rotate through the list */
                            uint64_t mask = m->width[c] == 32 ? 0xFFFFFFFFu : (1ull << m->width[c]) - 1;
                            raw[c] = vals[(t + c) % nv] & mask;
                            put_bits(e, lo, m->width[c], raw[c]);
                            lo += m->width[c];
                        }
                        union eg_vec4 out, prepared;
                        assert_int_equal(eg_vtx_format_convert(f, &nf, e, &out), (int)m->nch);
                        /* the prepared conversion: the same bits */
                        struct eg_vtx_conv cv;
                        assert_int_equal(eg_vtx_conv_init(&cv, f, &nf), 0);
                        eg_vtx_conv_run(&cv, e, &prepared);
                        assert_memory_equal(&prepared, &out, sizeof out);
                        for (unsigned c = 0; c < m->nch; c++) {
                            unsigned b = m->width[c];
                            int64_t s = (comp == SGN && (raw[c] >> (b - 1) & 1)) ? (int64_t)raw[c] - (1ll << b)
                                                                                 : (int64_t)raw[c];
                            if (m->is_float) {
                                if (b == 32) {
                                    assert_int_equal(out.u[c], raw[c]); /* IEEE single as stored */
                                } else {
                                    double want = gl_small_float((uint32_t)raw[c], b == 16 ? 10 : b - 5, b == 16);
                                    expect_float(out.f[c], want, m->name, c, raw[c]);
                                }
                            } else if (nums[k] == INT) {
                                assert_int_equal(out.u[c], (uint32_t)s);
                            } else if (nums[k] == SCALED) {
                                expect_float(out.f[c], (double)s, m->name, c, raw[c]);
                            } else if (comp == SGN) {
                                expect_float(out.f[c], gl_snorm(s, b, srf), m->name, c, raw[c]);
                            } else {
                                expect_float(out.f[c], gl_unorm(raw[c], b), m->name, c, raw[c]);
                            }
                            checked++;
                        }
                        /* missing components: 0, w 1 (an integer 1 for INT) */
                        for (unsigned c = m->nch; c < 4; c++) {
                            if (c < 3)
                                assert_int_equal(out.u[c], 0);
                            else if (nums[k] == INT && !m->is_float)
                                assert_int_equal(out.u[3], 1);
                            else
                                assert_true(out.f[3] == 1.0f);
                        }
                    }
                }
    }
    printf("%u component conversions checked against the GL formulas\n", checked);
    assert_true(checked > 5000);
}

/* ---- the prepared conversion --------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void)
{
    /* xorshift64 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The path eg_vtx_conv_init takes for each layout: plain 32-bit words for
 * every 32-bit format it accepts, whole 8- / 16-bit integers for the
 * byte-aligned integer formats, the general conversion for the rest. */
static unsigned expected_path(const char *name)
{
    static const char *const words[] = { "FMT_32", "FMT_32_FLOAT", "FMT_32_32", "FMT_32_32_FLOAT",
                                         "FMT_32_32_32", "FMT_32_32_32_FLOAT", "FMT_32_32_32_32",
                                         "FMT_32_32_32_32_FLOAT" };
    static const char *const units[] = { "FMT_8", "FMT_8_8", "FMT_8_8_8_8", "FMT_16", "FMT_16_16",
                                         "FMT_16_16_16_16" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(name, words[i]))
            return EG_VTX_CONV_WORDS;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(name, units[i]))
            return EG_VTX_CONV_UNITS;
    return EG_VTX_CONV_GENERAL;
}

/* Every format of the table with every NUM_FORMAT (the reserved 3 too),
 * FORMAT_COMP and SRF_MODE: eg_vtx_conv_init refuses exactly what
 * eg_vtx_format_refusal refuses, takes the path expected_path names, and
 * eg_vtx_conv_run gives eg_vtx_format_convert's bits for random elements
 * and the ones at the ends of each range (zeros, all ones, 0x80 / 0x7F). */
static void prepared_conversion_equals_the_general_one(void **state)
{
    (void)state;
    size_t n;
    const struct eg_vtx_format *t = eg_vtx_format_table(&n);
    const struct eg_enum *df = eg_enum_find_name("SQ_DATA_FORMAT");
    assert_non_null(df);
    unsigned compared = 0, paths[3] = { 0 };
    for (size_t i = 0; i < n; i++)
        for (unsigned num = 0; num < 4; num++)
            for (unsigned comp = USGN; comp <= SGN; comp++)
                for (unsigned srf = CLAMP; srf <= NOZERO; srf++) {
                    const struct eg_vtx_numfmt nf = { num, comp, srf };
                    struct eg_vtx_conv cv;
                    bool refused = eg_vtx_format_refusal_of(&t[i], num) != NULL;
                    assert_int_equal(eg_vtx_conv_init(&cv, &t[i], &nf), refused ? -1 : 0);
                    if (refused)
                        continue;
                    const char *name = eg_enum_value_name(df, t[i].data_format);
                    assert_non_null(name);
                    if (cv.path != expected_path(name))
                        fail_msg("%s num %u: path %u, want %u", name, num, cv.path, expected_path(name));
                    paths[cv.path]++;
                    for (unsigned k = 0; k < 2000; k++) {
                        uint8_t e[16];
                        static const uint8_t ends[4] = { 0x00, 0xFF, 0x80, 0x7F };
                        for (unsigned b = 0; b < 16; b++)
                            e[b] = k < 4 ? ends[k] : k < 8 ? (b & 1 ? ends[k - 4] : 0) : (uint8_t)next_random();
                        union eg_vec4 want, got;
                        assert_int_equal(eg_vtx_format_convert(&t[i], &nf, e, &want), t[i].ncomp);
                        memset(&got, 0xA5, sizeof got);
                        eg_vtx_conv_run(&cv, e, &got);
                        if (memcmp(&got, &want, sizeof got))
                            fail_msg("%s num %u comp %u srf %u element %u: %08x %08x %08x %08x, want %08x %08x "
                                     "%08x %08x", name, num, comp, srf, k, got.u[0], got.u[1], got.u[2], got.u[3],
                                     want.u[0], want.u[1], want.u[2], want.u[3]);
                        compared++;
                    }
                }
    printf("prepared conversion: %u elements compared (pairs by path: %u general, %u words, %u units)\n", compared,
           paths[EG_VTX_CONV_GENERAL], paths[EG_VTX_CONV_WORDS], paths[EG_VTX_CONV_UNITS]);
    assert_true(paths[EG_VTX_CONV_WORDS] >= 8 && paths[EG_VTX_CONV_UNITS] >= 6 * 3 && paths[EG_VTX_CONV_GENERAL] > 0);
}

/* ---- vectors worked by hand --------------------------------------------- */

static void convert(const char *name, unsigned num, unsigned comp, unsigned srf, const uint8_t *bytes,
                    union eg_vec4 *out)
{
    const struct eg_vtx_numfmt nf = { num, comp, srf };
    const struct eg_vtx_format *f = eg_vtx_format_find(fmt_value(name));
    assert_true(eg_vtx_format_convert(f, &nf, bytes, out) > 0);
    struct eg_vtx_conv cv;
    union eg_vec4 prepared;
    assert_int_equal(eg_vtx_conv_init(&cv, f, &nf), 0);
    eg_vtx_conv_run(&cv, bytes, &prepared);
    assert_memory_equal(&prepared, out, sizeof *out);
}

static void assert_f4(const union eg_vec4 *v, float x, float y, float z, float w)
{
    const float want[4] = { x, y, z, w };
    for (int c = 0; c < 4; c++)
        if (v->f[c] != want[c])
            fail_msg("component %d: %.9g, want %.9g", c, v->f[c], want[c]);
}

static void hand_checked_vectors(void **state)
{
    (void)state;
    union eg_vec4 v;
    /* 8_8_8_8 UNORM: 0, 255 -> 1, 128 -> 128/255, 1 -> 1/255 */
    convert("FMT_8_8_8_8", NORM, USGN, CLAMP, (const uint8_t[]){ 0, 255, 128, 1 }, &v);
    assert_f4(&v, 0.0f, 1.0f, 128.0f / 255.0f, 1.0f / 255.0f);
    /* SNORM (GL 4.2+): -128 and -127 both -1, 0 exactly 0, 127 -> 1 */
    convert("FMT_8_8_8_8", NORM, SGN, CLAMP, (const uint8_t[]){ 0x80, 0x81, 0x00, 0x7F }, &v);
    assert_f4(&v, -1.0f, -1.0f, 0.0f, 1.0f);
    /* SNORM NO_ZERO: (2c+1)/255: -128 -> -1, 127 -> 1, 0 -> 1/255, -1 -> -1/255 */
    convert("FMT_8_8_8_8", NORM, SGN, NOZERO, (const uint8_t[]){ 0x80, 0x7F, 0x00, 0xFF }, &v);
    assert_f4(&v, -1.0f, 1.0f, 1.0f / 255.0f, -1.0f / 255.0f);
    /* 2_10_10_10, word 0xE00003FF: x = 0x3FF, y = 0, z = 0x200, w = 3 */
    const uint8_t w1010102[4] = { 0xFF, 0x03, 0x00, 0xE0 };
    convert("FMT_2_10_10_10", NORM, USGN, CLAMP, w1010102, &v);
    assert_f4(&v, 1.0f, 0.0f, 512.0f / 1023.0f, 1.0f);
    /* signed: x = -1 -> -1/511, z = -512 -> clamped -1, w = -1 -> -1/1 */
    convert("FMT_2_10_10_10", NORM, SGN, CLAMP, w1010102, &v);
    assert_f4(&v, -1.0f / 511.0f, 0.0f, -1.0f, -1.0f);
    convert("FMT_2_10_10_10", SCALED, SGN, CLAMP, w1010102, &v);
    assert_f4(&v, -1.0f, 0.0f, -512.0f, -1.0f);
    convert("FMT_2_10_10_10", INT, USGN, CLAMP, w1010102, &v);
    assert_true(v.u[0] == 1023 && v.u[1] == 0 && v.u[2] == 512 && v.u[3] == 3);
    /* halves: 0x3C00 = 1, 0xC000 = -2, 0x7BFF = 65504, 0x0001 = 2^-24 */
    convert("FMT_16_16_16_16_FLOAT", NORM, USGN, CLAMP,
            (const uint8_t[]){ 0x00, 0x3C, 0x00, 0xC0, 0xFF, 0x7B, 0x01, 0x00 }, &v);
    assert_f4(&v, 1.0f, -2.0f, 65504.0f, 0x1p-24f);
    convert("FMT_16_FLOAT", NORM, USGN, CLAMP, (const uint8_t[]){ 0x00, 0x7C }, &v);
    assert_true(isinf(v.f[0]) && v.f[0] > 0 && v.f[1] == 0.0f && v.f[3] == 1.0f);
    /* 10_11_11_FLOAT, word 0x801C03C0: x = 0x3C0 (e 15, m 0: 1.0), y = 0x380
     * (e 14: 0.5), z = 0x200 (10-bit, e 16: 2.0) */
    convert("FMT_10_11_11_FLOAT", NORM, USGN, CLAMP, (const uint8_t[]){ 0xC0, 0x03, 0x1C, 0x80 }, &v);
    assert_f4(&v, 1.0f, 0.5f, 2.0f, 1.0f);
    /* 5_6_5, word 0xF800: z = 31/31; word 0x07E0: y = 63/63 */
    convert("FMT_5_6_5", NORM, USGN, CLAMP, (const uint8_t[]){ 0x00, 0xF8 }, &v);
    assert_f4(&v, 0.0f, 0.0f, 1.0f, 1.0f);
    convert("FMT_5_6_5", NORM, USGN, CLAMP, (const uint8_t[]){ 0xE0, 0x07 }, &v);
    assert_f4(&v, 0.0f, 1.0f, 0.0f, 1.0f);
    /* 5_5_5_1: the 1-bit X in bit 0; 1_5_5_5: the 1-bit W in bit 15 */
    convert("FMT_5_5_5_1", NORM, USGN, CLAMP, (const uint8_t[]){ 0x01, 0x00 }, &v);
    assert_f4(&v, 1.0f, 0.0f, 0.0f, 0.0f);
    convert("FMT_1_5_5_5", NORM, USGN, CLAMP, (const uint8_t[]){ 0x1F, 0x80 }, &v);
    assert_f4(&v, 1.0f, 0.0f, 0.0f, 1.0f);
    /* 16 SSCALED 0x8000 = -32768; 16 UNORM 0x8000 = 32768/65535 */
    convert("FMT_16", SCALED, SGN, CLAMP, (const uint8_t[]){ 0x00, 0x80 }, &v);
    assert_f4(&v, -32768.0f, 0.0f, 0.0f, 1.0f);
    convert("FMT_16", NORM, USGN, CLAMP, (const uint8_t[]){ 0x00, 0x80 }, &v);
    assert_f4(&v, 32768.0f / 65535.0f, 0.0f, 0.0f, 1.0f);
    /* INT: sign-extended bits; w an integer 1 */
    convert("FMT_8", INT, SGN, CLAMP, (const uint8_t[]){ 0xFE }, &v);
    assert_true(v.i[0] == -2 && v.u[1] == 0 && v.u[2] == 0 && v.u[3] == 1);
    convert("FMT_32_32", INT, SGN, CLAMP, (const uint8_t[]){ 0xFF, 0xFF, 0xFF, 0xFF, 5, 0, 0, 0 }, &v);
    assert_true(v.i[0] == -1 && v.u[1] == 5 && v.u[2] == 0 && v.u[3] == 1);
    /* 32_32_32 SCALED: the integer bits (as Mesa's LDS-info constants are
     * used), w an integer 1 */
    convert("FMT_32_32_32", SCALED, USGN, CLAMP, (const uint8_t[]){ 7, 0, 0, 0, 0, 0, 0, 0x80, 0xFF, 0xFF, 0xFF, 0xFF },
            &v);
    assert_true(v.u[0] == 7 && v.u[1] == 0x80000000u && v.u[2] == 0xFFFFFFFFu && v.u[3] == 1);
    /* 32_32_32_32_FLOAT: -0.0, a NaN with its payload, 1.5, the smallest
     * denormal, each as stored (little-endian words) */
    convert("FMT_32_32_32_32_FLOAT", NORM, SGN, CLAMP,
            (const uint8_t[]){ 0, 0, 0, 0x80, 0x01, 0x02, 0xC0, 0x7F, 0, 0, 0xC0, 0x3F, 1, 0, 0, 0 }, &v);
    assert_true(v.u[0] == 0x80000000u && v.u[1] == 0x7FC00201u && v.f[2] == 1.5f && v.u[3] == 1);
}

static void endian_swaps(void **state)
{
    (void)state;
    uint8_t b[8] = { 0x3F, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00 };  /* 1.0f, 2.0f big-endian */
    eg_vtx_endian_swap(b, 8, V_SQ_ENDIAN__ENDIAN_8IN32);
    union eg_vec4 v;
    convert("FMT_32_32_FLOAT", NORM, USGN, CLAMP, b, &v);
    assert_f4(&v, 1.0f, 2.0f, 0.0f, 1.0f);
    uint8_t h[4] = { 0x12, 0x34, 0xAB, 0xCD };
    eg_vtx_endian_swap(h, 4, V_SQ_ENDIAN__ENDIAN_8IN16);
    assert_memory_equal(h, ((const uint8_t[]){ 0x34, 0x12, 0xCD, 0xAB }), 4);
    uint8_t q[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    eg_vtx_endian_swap(q, 8, V_SQ_ENDIAN__ENDIAN_8IN64);
    assert_memory_equal(q, ((const uint8_t[]){ 8, 7, 6, 5, 4, 3, 2, 1 }), 8);
    eg_vtx_endian_swap(q, 8, V_SQ_ENDIAN__ENDIAN_NONE);
    assert_int_equal(q[0], 8);
}

/* ---- through the interpreter -------------------------------------------- */

#define VB_ADDR 0x200000u
static uint8_t vram[256];

static void *mem_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    return addr >= VB_ADDR && addr + len <= VB_ADDR + sizeof vram ? vram + (addr - VB_ADDR) : NULL;
}

static const struct vc_mem mem = { .ctx = NULL, .ptr = mem_ptr };

static uint64_t res_size = sizeof vram;   /* the resource's SIZE + 1 */

static int vtx_res(void *c, unsigned res, struct eg_vtx_resource *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len, (void)res;
    *out = (struct eg_vtx_resource){ .base = VB_ADDR, .size = res_size, .stride = 16 };
    return 0;
}

/* A vertex shader that fetches vertex `vid` with v into R1 (R1 preset by an
 * earlier fetch of 32_32_32_32_FLOAT at offset 64: 9, 9, 9, 9) and exports
 * it as parameter 0. */
static int run_fetch(const struct eg_vtx *v, uint32_t vid, union eg_vec4 *out, struct eg_shader_err *err)
{
    struct eg_asm a;
    eg_asm_init(&a);
    eg_asm_vtx_clause(&a);
    eg_asm_vtx(&a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA,
                                     .dst_gpr = 1, .mega_fetch_count = 15, .const_buf_no_stride = true,
                                     .dst_sel = { 0, 1, 2, 3 }, .offset = 64,
                                     .data_format = V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT });
    eg_asm_vtx(&a, v);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW,
                                           .done = true });
    uint32_t w[64];
    size_t n;
    if (eg_asm_finish(&a, true, w, 64, &n))
        fail_msg("%s", a.err);
    struct eg_shader_env env = { .mem = &mem, .vtx_resource = vtx_res };
    struct eg_program vs = { "TEST", w, n };
    struct eg_vs_output o;
    int r = eg_run_vs(&vs, NULL, &env, vid, 0, &o, err);
    *out = o.param[0];
    return r;
}

static void interpreter_applies_srf_mode_endian_and_dst_sel(void **state)
{
    (void)state;
    memset(vram, 0, sizeof vram);
    const float nine[4] = { 9, 9, 9, 9 };
    memcpy(vram + 64, nine, 16);
    /* vertex 1 at byte 16: 8-bit values 0x80, 0x00, 0x7F, 0xFF */
    memcpy(vram + 16, (const uint8_t[]){ 0x80, 0x00, 0x7F, 0xFF }, 4);
    struct eg_vtx v = { .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA, .dst_gpr = 1,
                        .mega_fetch_count = 3, .data_format = V_SQ_DATA_FORMAT__FMT_8_8_8_8,
                        .num_format = NORM, .format_comp = SGN, .srf_mode = NOZERO,
                        .dst_sel = { V_SQ_INST_SEL__W, V_SQ_INST_SEL__X, V_SQ_INST_SEL__MASK, V_SQ_INST_SEL__ONE } };
    union eg_vec4 o;
    struct eg_shader_err err;
    if (run_fetch(&v, 1, &o, &err))
        fail_msg("%s", err.msg);
    /* x <- w = (2(-1)+1)/255, y <- x = -1, z kept (9), w = 1 */
    assert_f4(&o, -1.0f / 255.0f, -1.0f, 9.0f, 1.0f);
    v.srf_mode = CLAMP;
    v.dst_sel[0] = V_SQ_INST_SEL__Y, v.dst_sel[1] = V_SQ_INST_SEL__Z;
    if (run_fetch(&v, 1, &o, &err))
        fail_msg("%s", err.msg);
    assert_f4(&o, 0.0f, 1.0f, 9.0f, 1.0f);
    /* 16_16 with 8IN16: bytes 0x80 0x00 read as 0x8000 */
    memcpy(vram + 32, (const uint8_t[]){ 0x80, 0x00, 0xFF, 0xFF }, 4);
    v = (struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA, .dst_gpr = 1,
                         .mega_fetch_count = 3, .data_format = V_SQ_DATA_FORMAT__FMT_16_16, .num_format = SCALED,
                         .format_comp = SGN, .endian_swap = V_SQ_ENDIAN__ENDIAN_8IN16, .dst_sel = { 0, 1, 2, 3 } };
    if (run_fetch(&v, 2, &o, &err))
        fail_msg("%s", err.msg);
    assert_f4(&o, -32768.0f, -1.0f, 0.0f, 1.0f);
    /* a refused format is a fault naming it */
    v.data_format = V_SQ_DATA_FORMAT__FMT_8_8_8;
    assert_int_equal(run_fetch(&v, 0, &o, &err), -1);
    printf("%s\n", err.msg);
    assert_non_null(strstr(err.msg, "FMT_8_8_8 "));
    assert_non_null(strstr(err.msg, "cannot be fetched"));
    v.data_format = V_SQ_DATA_FORMAT__FMT_32_32_32;
    v.num_format = NORM;
    assert_int_equal(run_fetch(&v, 0, &o, &err), -1);
    assert_non_null(strstr(err.msg, "FMT_32_32_32 "));
    assert_non_null(strstr(err.msg, "SQ_NUM_FORMAT_NORM"));
}

/* A resource larger than the buffer under it (the fetch cannot take the
 * whole resource's bytes at once): an element inside the buffer reads as
 * it does when the resource fits, one past the buffer but inside the
 * resource is a fault naming its address, one past the resource reads as
 * zero bytes. */
static void resource_larger_than_its_buffer(void **state)
{
    (void)state;
    memset(vram, 0, sizeof vram);
    const float nine[4] = { 9, 9, 9, 9 };
    memcpy(vram + 64, nine, 16);
    const float v3[4] = { 1.5f, -2.0f, 0.25f, 8.0f };
    memcpy(vram + 48, v3, 16);
    struct eg_vtx v = { .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA, .dst_gpr = 1,
                        .mega_fetch_count = 15, .data_format = V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT,
                        .dst_sel = { 0, 1, 2, 3 } };
    union eg_vec4 o;
    struct eg_shader_err err;
    for (int big = 0; big < 2; big++) {
        res_size = big ? 4096 : sizeof vram;
        if (run_fetch(&v, 3, &o, &err))
            fail_msg("%s", err.msg);
        assert_f4(&o, 1.5f, -2.0f, 0.25f, 8.0f);
    }
    /* vertex 100: byte 1600, inside the 4096-byte resource, past vram */
    assert_int_equal(run_fetch(&v, 100, &o, &err), -1);
    assert_non_null(strstr(err.msg, "outside GPU memory"));
    assert_non_null(strstr(err.msg, "0x200640"));
    /* vertex 300: byte 4800, past the resource: zero bytes, all four
     * components of the format */
    if (run_fetch(&v, 300, &o, &err))
        fail_msg("%s", err.msg);
    assert_f4(&o, 0.0f, 0.0f, 0.0f, 0.0f);
    res_size = sizeof vram;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_isa_format_has_an_entry_and_only_mesas_are_fetched),
        cmocka_unit_test(three_component_8_and_16_bit_formats_are_refused_by_name),
        cmocka_unit_test(every_fetchable_format_and_number_format_follows_gl),
        cmocka_unit_test(prepared_conversion_equals_the_general_one),
        cmocka_unit_test(hand_checked_vectors),
        cmocka_unit_test(endian_swaps),
        cmocka_unit_test(interpreter_applies_srf_mode_endian_and_dst_sel),
        cmocka_unit_test(resource_larger_than_its_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
