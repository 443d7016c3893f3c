/* The ALU ops beyond the basic float/int set, each run as an encoded shader
 * (operands from literals, result exported) and compared with a value
 * computed here independently of src/shader/alu_ops.c: bit-by-bit loops for
 * the bitfield ops, 64-bit arithmetic for carries and high products, the
 * OpenGL cube-map face table for CUBE, hand-checked IEEE half encodings, and
 * sin / cos of 2*pi*x for Evergreen's SIN / COS (whose operand is in periods).
 * The rule each expectation follows is the one alu_ops.c states. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

#define fu test_f2u
#define uf test_u2f

static struct eg_shader_env env;

/* Finish the program in `as` (an ALU clause already open), export R1 as
 * parameter 0 and run it as a vertex shader. */
static union eg_vec4 run(struct eg_asm *as)
{
    uint32_t w[256];
    size_t n;
    eg_asm_export(as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(as, true, w, 256, &n))
        fail_msg("%s", as->err);
    struct eg_program p = { "ALU", w, n };
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_vs(&p, NULL, &env, 0, 0, &out, &err))
        fail_msg("%s", err.msg);
    return out.param[0];
}

/* R2.xyzw = v (one group of literal moves). */
static void load(struct eg_asm *as, unsigned gpr, const uint32_t v[4])
{
    for (unsigned i = 0; i < 4; i++)
        eg_asm_alu(as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { (uint8_t)gpr, (uint8_t)i, .write = true },
                                         .src = { eg_src_lit_u(v[i]) }, .last = i == 3 });
}

/* `op` on a, b, c; returns R1.x. */
static uint32_t op_(bool op3, unsigned op, uint32_t a, uint32_t b, uint32_t c)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    load(&as, 2, (uint32_t[4]){ a, b, c, 0 });
    eg_asm_alu(&as, &(struct eg_alu){ .op3 = op3, .op = op, .dst = { 1, 0, .write = true },
                                      .src = { eg_src_gpr(2, 0), eg_src_gpr(2, 1), eg_src_gpr(2, 2) }, .last = true });
    return run(&as).u[0];
}

static uint32_t op2(unsigned op, uint32_t a, uint32_t b)
{
    return op_(false, op, a, b, 0);
}

static uint32_t op3(unsigned op, uint32_t a, uint32_t b, uint32_t c)
{
    return op_(true, op, a, b, c);
}

static const uint32_t ivals[] = { 0, 1, 2, 3, 7, 31, 32, 33, 255, 256, 0x7FFFFFFF, 0x80000000u, 0x80000001u,
                                  0xFFFFFFFFu, 0xFFFFFFFEu, 12345, 0xDEADBEEF, 0xFFFF0000u, 0x00FF00FFu, 0x12345678 };
#define NI (sizeof ivals / sizeof ivals[0])

static uint32_t bit(uint32_t x, unsigned i)
{
    return (x >> i) & 1u;
}

/* ---- bitfields ----------------------------------------------------------- */

static void bitfield_ops(void **state)
{
    (void)state;
    const uint32_t offs[] = { 0, 1, 5, 16, 24, 31, 32, 35 }, widths[] = { 0, 1, 3, 8, 16, 24, 31, 32, 33 };
    for (size_t i = 0; i < NI; i++)
        for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
            for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
                uint32_t x = ivals[i], off = offs[o] & 31, w = widths[wi] & 31;
                /* bit by bit: field bit k is x's bit off + k, past bit 31
                 * zero (BFE_UINT) or the sign bit (BFE_INT); then sign
                 * extension from field bit w - 1 */
                uint32_t u = 0, s = 0;
                for (unsigned k = 0; k < w; k++) {
                    u |= (off + k < 32 ? bit(x, off + k) : 0) << k;
                    s |= (off + k < 32 ? bit(x, off + k) : bit(x, 31)) << k;
                }
                if (w && bit(s, w - 1))
                    for (unsigned k = w; k < 32; k++)
                        s |= 1u << k;
                assert_int_equal(op3(V_SQ_ALU_OP3__BFE_UINT, x, offs[o], widths[wi]), u);
                assert_int_equal(op3(V_SQ_ALU_OP3__BFE_INT, x, offs[o], widths[wi]), s);
                /* BFM: ones in bits off .. off + w - 1 (those below 32) */
                uint32_t m = 0;
                for (unsigned k = 0; k < w; k++)
                    if (off + k < 32)
                        m |= 1u << (off + k);
                assert_int_equal(op2(V_SQ_ALU_OP2__BFM_INT, widths[wi], offs[o]), m);
            }
    for (size_t i = 0; i < NI; i++)
        for (size_t j = 0; j < NI; j++) {
            uint32_t a = ivals[i], b = ivals[j], mask = ivals[(i + j) % NI];
            uint32_t want = 0;
            for (unsigned k = 0; k < 32; k++)
                want |= (bit(mask, k) ? bit(a, k) : bit(b, k)) << k;
            assert_int_equal(op3(V_SQ_ALU_OP3__BFI_INT, mask, a, b), want);
            for (uint32_t sh = 0; sh < 40; sh += 3) {
                /* bit k of the result is bit k + s of the 64-bit {a, b} */
                uint32_t ba = 0, by = 0, sb = sh & 31, sy = 8 * (sh & 3);
                for (unsigned k = 0; k < 32; k++) {
                    ba |= (k + sb < 32 ? bit(b, k + sb) : bit(a, k + sb - 32)) << k;
                    by |= (k + sy < 32 ? bit(b, k + sy) : bit(a, k + sy - 32)) << k;
                }
                assert_int_equal(op3(V_SQ_ALU_OP3__BIT_ALIGN_INT, a, b, sh), ba);
                assert_int_equal(op3(V_SQ_ALU_OP3__BYTE_ALIGN_INT, a, b, sh), by);
            }
        }
}

static void bit_scans(void **state)
{
    (void)state;
    for (size_t i = 0; i < NI; i++) {
        uint32_t x = ivals[i];
        uint32_t hi = 0xFFFFFFFFu, lo = 0xFFFFFFFFu, shi = 0xFFFFFFFFu, cnt = 0;
        for (int k = 31; k >= 0; k--)
            if (bit(x, (unsigned)k)) {
                hi = 31u - (unsigned)k;
                break;
            }
        for (unsigned k = 0; k < 32; k++)
            if (bit(x, k)) {
                lo = k;
                break;
            }
        /* FFBH_INT: the first bit from the top that differs from the sign */
        for (int k = 30; k >= 0; k--)
            if (bit(x, (unsigned)k) != bit(x, 31)) {
                shi = 31u - (unsigned)k;
                break;
            }
        for (unsigned k = 0; k < 32; k++)
            cnt += bit(x, k);
        assert_int_equal(op2(V_SQ_ALU_OP2__FFBH_UINT, x, 0), hi);
        assert_int_equal(op2(V_SQ_ALU_OP2__FFBL_INT, x, 0), lo);
        assert_int_equal(op2(V_SQ_ALU_OP2__FFBH_INT, x, 0), shi);
        assert_int_equal(op2(V_SQ_ALU_OP2__BCNT_INT, x, 0), cnt);
    }
    /* hand-checked: 1 has 31 leading zeros; -2 (0xFFFFFFFE) has 30 sign copies after bit 31 */
    assert_int_equal(op2(V_SQ_ALU_OP2__FFBH_UINT, 1, 0), 31);
    assert_int_equal(op2(V_SQ_ALU_OP2__FFBH_INT, 0xFFFFFFFEu, 0), 31);
    assert_int_equal(op2(V_SQ_ALU_OP2__FFBH_INT, 0x40000000u, 0), 1);
}

/* ---- integer arithmetic ---------------------------------------------------- */

static void carries_and_products(void **state)
{
    (void)state;
    for (size_t i = 0; i < NI; i++)
        for (size_t j = 0; j < NI; j++) {
            uint32_t a = ivals[i], b = ivals[j];
            uint64_t sum = (uint64_t)a + b;
            assert_int_equal(op2(V_SQ_ALU_OP2__ADDC_UINT, a, b), (uint32_t)(sum >> 32));
            assert_int_equal(op2(V_SQ_ALU_OP2__SUBB_UINT, a, b), (int64_t)a - (int64_t)b < 0 ? 1u : 0u);
            uint64_t p24 = (uint64_t)(a % (1u << 24)) * (b % (1u << 24));
            assert_int_equal(op2(V_SQ_ALU_OP2__MUL_UINT24, a, b), (uint32_t)p24);
            assert_int_equal(op2(V_SQ_ALU_OP2__MULHI_UINT24, a, b), (uint32_t)(p24 >> 32));
            assert_int_equal(op3(V_SQ_ALU_OP3__MULADD_UINT24, a, b, 5), (uint32_t)(p24 + 5));
            int64_t sp = (int64_t)(int32_t)a * (int32_t)b;
            assert_int_equal(op2(V_SQ_ALU_OP2__MULHI_INT, a, b), (uint32_t)((uint64_t)sp >> 32));
            assert_int_equal(op2(V_SQ_ALU_OP2__MULLO_UINT, a, b), (uint32_t)((uint64_t)a * b));
            assert_int_equal(op2(V_SQ_ALU_OP2__ASHR_INT, a, b),
                             (uint32_t)(int32_t)floor((double)(int32_t)a / (double)(1ull << (b & 31))));
            for (unsigned n = 0; n < 4; n++)
                assert_int_equal(op2(V_SQ_ALU_OP2__UBYTE0_FLT + n, a, 0), fu((float)((a / (1u << (8 * n))) % 256)));
        }
}

/* RECIP_UINT / RECIP_INT: the quotient q of 2^32 / |x| (q * x <= 2^32 < (q + 1) * x),
 * all ones for 0 and 1; the sign of x for RECIP_INT. */
static void integer_reciprocals(void **state)
{
    (void)state;
    for (size_t i = 0; i < NI; i++) {
        uint32_t x = ivals[i], q = op2(V_SQ_ALU_OP2__RECIP_UINT, x, 0);
        if (x <= 1) {
            assert_int_equal(q, 0xFFFFFFFFu);
        } else {
            assert_true((uint64_t)q * x <= (1ull << 32));
            assert_true(((uint64_t)q + 1) * x > (1ull << 32));
        }
        int32_t sx = (int32_t)x;
        uint64_t mag = sx < 0 ? (uint64_t)(-(int64_t)sx) : (uint64_t)sx;
        int64_t want = mag <= 1 ? -1 : (int64_t)((1ull << 32) / mag);
        if (mag > 1 && sx < 0)
            want = -want;
        assert_int_equal(op2(V_SQ_ALU_OP2__RECIP_INT, x, 0), (uint32_t)want);
    }
    /* hand-checked: 2^32 / 3 = 1431655765.33 */
    assert_int_equal(op2(V_SQ_ALU_OP2__RECIP_UINT, 3, 0), 1431655765u);
}

/* ---- conversions ------------------------------------------------------------ */

static void float_to_int_rounding(void **state)
{
    (void)state;
    const float v[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f, 1e10f,
                        -1e10f, 2147483520.0f, -2147483648.0f, 8388609.0f, -8388609.5f, INFINITY, -INFINITY, NAN };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        double d = v[i];
        /* saturating conversions of the exactly rounded double */
        double fl = floor(d), rpi = floor(d + 0.5);
        int64_t want_floor = isnan(d) ? 0 : fl >= 2147483647.0 ? INT32_MAX : fl <= -2147483648.0 ? INT32_MIN : (int64_t)fl;
        int64_t want_rpi = isnan(d) ? 0 : rpi >= 2147483647.0 ? INT32_MAX : rpi <= -2147483648.0 ? INT32_MIN : (int64_t)rpi;
        assert_int_equal(op2(V_SQ_ALU_OP2__FLT_TO_INT_FLOOR, fu(v[i]), 0), (uint32_t)(int32_t)want_floor);
        assert_int_equal(op2(V_SQ_ALU_OP2__FLT_TO_INT_RPI, fu(v[i]), 0), (uint32_t)(int32_t)want_rpi);
    }
}

static void half_conversions(void **state)
{
    (void)state;
    /* hand-checked IEEE binary16 encodings */
    const struct { float f; uint32_t h; } hv[] = {
        { 1.0f, 0x3C00 }, { -2.0f, 0xC000 }, { 0.0f, 0 }, { -0.0f, 0x8000 }, { 65504.0f, 0x7BFF },
        { 65519.0f, 0x7BFF }, { 65520.0f, 0x7C00 }, { 1e6f, 0x7C00 }, { INFINITY, 0x7C00 }, { -INFINITY, 0xFC00 },
        { 0x1p-24f, 0x0001 }, { 0x1p-25f, 0x0000 }, { 0x1.8p-24f, 0x0002 }, { 0x1p-14f, 0x0400 },
        { 0.1f, 0x2E66 }, { 1.0f / 3.0f, 0x3555 }, { 0.5f + 0x1p-12f, 0x3800 }, { 0.5f + 0x1.8p-11f, 0x3802 }, { 0.5f + 0x1.8p-12f, 0x3801 },
        { 2049.0f, 0x6800 }, { 2051.0f, 0x6802 },
    };
    for (size_t i = 0; i < sizeof hv / sizeof hv[0]; i++) {
        uint32_t got = op2(V_SQ_ALU_OP2__FLT32_TO_FLT16, fu(hv[i].f), 0);
        if (got != hv[i].h)
            fail_msg("FLT32_TO_FLT16(%a) = 0x%04x, expected 0x%04x", (double)hv[i].f, got, hv[i].h);
    }
    uint32_t nan = op2(V_SQ_ALU_OP2__FLT32_TO_FLT16, fu(NAN), 0);
    assert_true((nan & 0x7C00) == 0x7C00 && (nan & 0x3FF) != 0 && nan <= 0xFFFF);
    /* FLT16_TO_FLT32 reads bits 0..15: every 37th half, with junk above, round trips */
    for (uint32_t h = 0; h < 0x10000; h += 37) {
        uint32_t f = op2(V_SQ_ALU_OP2__FLT16_TO_FLT32, h | 0xABCD0000u, 0);
        bool is_nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
        if (is_nan) {
            assert_true(isnan(uf(f)));
            continue;
        }
        /* the value by definition: (-1)^s 2^(e-15) (1 + m/1024), subnormals 2^-14 (m/1024) */
        unsigned e = (h >> 10) & 31, m = h & 1023;
        double want = e == 31 ? INFINITY : e == 0 ? ldexp(m, -24) : ldexp(1024 + m, (int)e - 25);
        if (h & 0x8000)
            want = -want;
        assert_int_equal(f, fu((float)want));
        assert_int_equal(op2(V_SQ_ALU_OP2__FLT32_TO_FLT16, f, 0), h);
    }
}

/* ---- transcendentals ---------------------------------------------------------- */

static void sin_cos_in_periods(void **state)
{
    (void)state;
    /* hand-checked: a quarter period is 1, half a period -1 for COS */
    assert_int_equal(op2(V_SQ_ALU_OP2__SIN, fu(0.25f), 0), fu(1.0f));
    assert_int_equal(op2(V_SQ_ALU_OP2__SIN, fu(-0.25f), 0), fu(-1.0f));
    assert_int_equal(op2(V_SQ_ALU_OP2__COS, fu(0.5f), 0), fu(-1.0f));
    assert_int_equal(op2(V_SQ_ALU_OP2__COS, fu(0.0f), 0), fu(1.0f));
    assert_int_equal(op2(V_SQ_ALU_OP2__SIN, fu(0.0f), 0), fu(0.0f));
    assert_int_equal(op2(V_SQ_ALU_OP2__SIN, fu(100.25f), 0), fu(1.0f));
    assert_true(fabsf(uf(op2(V_SQ_ALU_OP2__SIN, fu(0.125f), 0)) - 0.70710678f) < 1e-6f);
    assert_true(isnan(uf(op2(V_SQ_ALU_OP2__SIN, fu(INFINITY), 0))));
    /* across the documented domain [-256, 256] periods: sin(2 pi x) */
    for (int i = -2560; i <= 2560; i += 7) {
        float x = (float)i / 10.0f + 0.013f;
        double s = sin(2.0 * M_PI * (double)x), c = cos(2.0 * M_PI * (double)x);
        float gs = uf(op2(V_SQ_ALU_OP2__SIN, fu(x), 0)), gc = uf(op2(V_SQ_ALU_OP2__COS, fu(x), 0));
        if (fabs(gs - s) > 1e-5 || fabs(gc - c) > 1e-5)
            fail_msg("SIN/COS(%g) = %g, %g; expected %g, %g", (double)x, (double)gs, (double)gc, s, c);
    }
}

/* ---- group ops: CUBE, DOT / DOT_IEEE ------------------------------------------- */

/* OpenGL 4.6 table 8.19 (cube-map face selection): the major axis, face
 * index (+X, -X, +Y, -Y, +Z, -Z = 0..5), sc, tc and ma. */
static void gl_cube(float rx, float ry, float rz, float *sc, float *tc, float *ma, float *face)
{
    float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz);
    if (az >= ax && az >= ay) {
        *face = rz >= 0 ? 4 : 5, *sc = rz >= 0 ? rx : -rx, *tc = -ry, *ma = rz;
    } else if (ay >= ax) {
        *face = ry >= 0 ? 2 : 3, *sc = rx, *tc = ry >= 0 ? rz : -rz, *ma = ry;
    } else {
        *face = rx >= 0 ? 0 : 1, *sc = rx >= 0 ? -rz : rz, *tc = -ry, *ma = rx;
    }
}

static void cube_faces(void **state)
{
    (void)state;
    const float dirs[][3] = { { 1, 0.5f, -0.25f }, { -3, 1, 2 }, { 0.1f, 0.9f, -0.3f }, { 0.2f, -5, 4 },
                              { 0.5f, 0.25f, 2 }, { -0.5f, 0.25f, -0.75f }, { 1, 1, 1 }, { 1, 1, 0 }, { -2, 2, 0 } };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        float x = dirs[i][0], y = dirs[i][1], z = dirs[i][2];
        struct eg_asm as;
        eg_asm_init(&as);
        eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
        load(&as, 2, (uint32_t[4]){ fu(x), fu(y), fu(z), 0 });
        /* Mesa's operand order: src0 = (z, z, x, y), src1 = (y, x, z, z) */
        const unsigned c0[4] = { 2, 2, 0, 1 }, c1[4] = { 1, 0, 2, 2 };
        for (unsigned c = 0; c < 4; c++)
            eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__CUBE, .dst = { 1, (uint8_t)c, .write = true },
                                              .src = { eg_src_gpr(2, c0[c]), eg_src_gpr(2, c1[c]) }, .last = c == 3 });
        union eg_vec4 r = run(&as);
        float sc, tc, ma, face;
        gl_cube(x, y, z, &sc, &tc, &ma, &face);
        assert_true(r.f[0] == tc);
        assert_true(r.f[1] == sc);
        assert_true(r.f[2] == 2 * ma);
        assert_true(r.f[3] == face);
    }
}

/* fdot3 as Mesa's sfn splits it: DOT_IEEE in slots c, c+1, MUL_IEEE in
 * slot c+2, the sum written by slot c. */
static float dot3(unsigned dot_op, unsigned mul_op, unsigned c, const float a[3], const float b[3])
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    load(&as, 2, (uint32_t[4]){ fu(a[0]), fu(a[1]), fu(a[2]), 0 });
    load(&as, 3, (uint32_t[4]){ fu(b[0]), fu(b[1]), fu(b[2]), 0 });
    for (unsigned k = 0; k < 3; k++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = k < 2 ? dot_op : mul_op, .dst = { k ? 9 : 1, (uint8_t)(c + k), .write = k == 0 },
                                          .src = { eg_src_gpr(2, k), eg_src_gpr(3, k) }, .last = k == 2 });
    return run(&as).f[c];
}

static void dot_prev_next(void **state)
{
    (void)state;
    const float a[3] = { 1, 2, 3 }, b[3] = { 4, -5, 6 };
    for (unsigned c = 0; c < 2; c++)
        assert_true(dot3(V_SQ_ALU_OP2__DOT_IEEE, V_SQ_ALU_OP2__MUL_IEEE, c, a, b) == 1 * 4 - 2 * 5 + 3 * 6);
    /* legacy: 0 * Inf = 0; IEEE: NaN */
    const float z[3] = { 0, 2, 3 }, inf[3] = { INFINITY, 1, 1 };
    assert_true(dot3(V_SQ_ALU_OP2__DOT, V_SQ_ALU_OP2__MUL, 0, z, inf) == 5.0f);
    assert_true(isnan(dot3(V_SQ_ALU_OP2__DOT_IEEE, V_SQ_ALU_OP2__MUL_IEEE, 0, z, inf)));
}

/* ---- predicate counters ---------------------------------------------------------- */

/* `op` on (a, b) with UPDATE_PRED, then R1.y = 1.0 under PRED_SEL ONE and
 * R1.z = 1.0 under PRED_SEL ZERO: the counter in R1.x, the predicate in y / z. */
static union eg_vec4 pred_op(unsigned op, uint32_t a, uint32_t b)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    load(&as, 2, (uint32_t[4]){ a, b, 0, 0 });
    /* the predicate set first, so a "clear" must clear it */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__PRED_SETE, .src = { eg_src_special(V_SQ_ALU_SRC__ZERO, 0),
                                      eg_src_special(V_SQ_ALU_SRC__ZERO, 0) }, .update_pred = true, .last = true });
    eg_asm_alu(&as, &(struct eg_alu){ .op = op, .dst = { 1, 0, .write = true },
                                      .src = { eg_src_gpr(2, 0), eg_src_gpr(2, 1) }, .update_pred = true,
                                      .last = true });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 1, .write = true },
                                      .src = { eg_src_special(V_SQ_ALU_SRC__ONE, 0) },
                                      .pred_sel = V_SQ_ALU_PRED_SEL__ONE });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 2, .write = true },
                                      .src = { eg_src_special(V_SQ_ALU_SRC__ONE, 0) },
                                      .pred_sel = V_SQ_ALU_PRED_SEL__ZERO, .last = true });
    return run(&as);
}

/* Hand-checked vectors of the Evergreen ISA's predicate-counter pseudo-code
 * (the rules at the top of alu_ops.c): the counter result, and whether the
 * predicate is set. */
static void predicate_counters(void **state)
{
    (void)state;
    static const struct { unsigned op; float a, b, r; bool set; } f[] = {
        { V_SQ_ALU_OP2__PRED_SETGT, 2.0f, 1.0f, 0.0f, true },   /* the plain ones: 0.0 where set */
        { V_SQ_ALU_OP2__PRED_SETGT, 1.0f, 2.0f, 1.0f, false },
        { V_SQ_ALU_OP2__PRED_SETE, 3.0f, 3.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SETNE, NAN, NAN, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SET_INV, 1.0f, 0, 0.0f, true },     /* counter 1 -> 0: on again */
        { V_SQ_ALU_OP2__PRED_SET_INV, 0.0f, 0, 1.0f, false },    /* 0 -> 1: off */
        { V_SQ_ALU_OP2__PRED_SET_INV, 3.0f, 0, 3.0f, false },    /* deeper: stays */
        { V_SQ_ALU_OP2__PRED_SET_POP, 3.0f, 1.0f, 2.0f, false },
        { V_SQ_ALU_OP2__PRED_SET_POP, 3.0f, 3.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SET_POP, 0.5f, 1.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SET_POP, 5.0f, 2.0f, 3.0f, false },
        { V_SQ_ALU_OP2__PRED_SET_CLR, 7.0f, 7.0f, FLT_MAX, false },
        { V_SQ_ALU_OP2__PRED_SET_RESTORE, 0.0f, 0, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SET_RESTORE, -0.0f, 0, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SET_RESTORE, 2.0f, 0, 2.0f, false },
        { V_SQ_ALU_OP2__PRED_SETGT_PUSH, 0.0f, 1.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SETGT_PUSH, 0.0f, -1.0f, 1.0f, false },
        { V_SQ_ALU_OP2__PRED_SETGT_PUSH, 2.0f, 1.0f, 3.0f, false },  /* already off: one deeper */
        { V_SQ_ALU_OP2__PRED_SETE_PUSH, 0.0f, 0.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SETE_PUSH, 0.0f, 0.5f, 1.0f, false },
        { V_SQ_ALU_OP2__PRED_SETGE_PUSH, 0.0f, 0.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SETGE_PUSH, 0.0f, -0.5f, 1.0f, false },
        { V_SQ_ALU_OP2__PRED_SETNE_PUSH, 0.0f, 2.0f, 0.0f, true },
        { V_SQ_ALU_OP2__PRED_SETNE_PUSH, 1.0f, 2.0f, 2.0f, false },
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        union eg_vec4 v = pred_op(f[i].op, fu(f[i].a), fu(f[i].b));
        if (v.u[0] != fu(f[i].r) || v.f[1] != (f[i].set ? 1.0f : 0.0f) || v.f[2] != (f[i].set ? 0.0f : 1.0f))
            fail_msg("%s(%g, %g): %g, predicate %g/%g; want %g, %s", eg_alu_op_name(false, f[i].op),
                     (double)f[i].a, (double)f[i].b, (double)v.f[0], (double)v.f[1], (double)v.f[2],
                     (double)f[i].r, f[i].set ? "set" : "clear");
    }
    static const struct { unsigned op; int32_t a, b, r; bool set; } n[] = {
        { V_SQ_ALU_OP2__PRED_SETE_PUSH_INT, 0, 0, 0, true },
        { V_SQ_ALU_OP2__PRED_SETE_PUSH_INT, 0, 5, 1, false },
        { V_SQ_ALU_OP2__PRED_SETE_PUSH_INT, 2, 0, 3, false },
        { V_SQ_ALU_OP2__PRED_SETGT_PUSH_INT, 0, 1, 0, true },
        { V_SQ_ALU_OP2__PRED_SETGT_PUSH_INT, 0, -1, 1, false },
        { V_SQ_ALU_OP2__PRED_SETGE_PUSH_INT, 0, 0, 0, true },
        { V_SQ_ALU_OP2__PRED_SETNE_PUSH_INT, 0, 0, 1, false },
        { V_SQ_ALU_OP2__PRED_SETLT_PUSH_INT, 0, -1, 0, true },
        { V_SQ_ALU_OP2__PRED_SETLT_PUSH_INT, 0, 0, 1, false },
        { V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT, 0, 0, 0, true },
        { V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT, 0, 1, 1, false },
    };
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        union eg_vec4 v = pred_op(n[i].op, (uint32_t)n[i].a, (uint32_t)n[i].b);
        if (v.i[0] != n[i].r || v.f[1] != (n[i].set ? 1.0f : 0.0f))
            fail_msg("%s(%d, %d): %d, predicate %g; want %d, %s", eg_alu_op_name(false, n[i].op), n[i].a, n[i].b,
                     v.i[0], (double)v.f[1], n[i].r, n[i].set ? "set" : "clear");
    }
}

/* ---- disassembly --------------------------------------------------------------- */

static void disassembles_every_added_op(void **state)
{
    (void)state;
    static const unsigned ops2[] = {
        V_SQ_ALU_OP2__ADDC_UINT, V_SQ_ALU_OP2__SUBB_UINT, V_SQ_ALU_OP2__RECIP_UINT, V_SQ_ALU_OP2__RECIP_INT,
        V_SQ_ALU_OP2__BFM_INT, V_SQ_ALU_OP2__FLT32_TO_FLT16, V_SQ_ALU_OP2__FLT16_TO_FLT32, V_SQ_ALU_OP2__UBYTE0_FLT,
        V_SQ_ALU_OP2__UBYTE3_FLT, V_SQ_ALU_OP2__FFBH_UINT, V_SQ_ALU_OP2__FFBH_INT, V_SQ_ALU_OP2__FFBL_INT,
        V_SQ_ALU_OP2__FLT_TO_INT_RPI, V_SQ_ALU_OP2__FLT_TO_INT_FLOOR, V_SQ_ALU_OP2__MULHI_UINT24, V_SQ_ALU_OP2__SIN,
        V_SQ_ALU_OP2__DOT_IEEE, V_SQ_ALU_OP2__DOT, V_SQ_ALU_OP2__PRED_SET_INV, V_SQ_ALU_OP2__PRED_SET_POP,
        V_SQ_ALU_OP2__PRED_SET_CLR, V_SQ_ALU_OP2__PRED_SET_RESTORE, V_SQ_ALU_OP2__PRED_SETGE_PUSH,
        V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT,
    };
    static const unsigned ops3[] = { V_SQ_ALU_OP3__BFE_INT, V_SQ_ALU_OP3__BIT_ALIGN_INT, V_SQ_ALU_OP3__BYTE_ALIGN_INT };
    struct eg_asm as;
    uint32_t w[512];
    size_t n;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    for (size_t i = 0; i < sizeof ops2 / sizeof ops2[0]; i++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = ops2[i], .dst = { 1, 0, .write = true },
                                          .src = { eg_src_gpr(2, 0), eg_src_gpr(2, 1) }, .last = true });
    for (size_t i = 0; i < sizeof ops3 / sizeof ops3[0]; i++)
        eg_asm_alu(&as, &(struct eg_alu){ .op3 = true, .op = ops3[i], .dst = { 1, 0, .write = true },
                                          .src = { eg_src_gpr(2, 0), eg_src_gpr(2, 1), eg_src_gpr(2, 2) }, .last = true });
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__CUBE, .dst = { 1, (uint8_t)c, .write = true },
                                          .src = { eg_src_gpr(2, c), eg_src_gpr(2, c) }, .last = c == 3 });
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&as, true, w, 512, &n))
        fail_msg("%s", as.err);
    char *text = test_disasm(w, n);
    for (size_t i = 0; i < sizeof ops2 / sizeof ops2[0]; i++)
        if (!strstr(text, eg_alu_op_name(false, ops2[i])))
            fail_msg("%s missing from the disassembly", eg_alu_op_name(false, ops2[i]));
    for (size_t i = 0; i < sizeof ops3 / sizeof ops3[0]; i++)
        assert_non_null(strstr(text, eg_alu_op_name(true, ops3[i])));
    assert_non_null(strstr(text, "CUBE"));
    free(text);
    /* the texture instructions the interpreter runs, with their modifiers */
    static const unsigned tex[] = { V_SQ_TEX_INST__SAMPLE_C, V_SQ_TEX_INST__SAMPLE_C_L, V_SQ_TEX_INST__SAMPLE_C_LZ,
                                    V_SQ_TEX_INST__SAMPLE_LB, V_SQ_TEX_INST__GATHER4, V_SQ_TEX_INST__GATHER4_C,
                                    V_SQ_TEX_INST__GET_NUMBER_OF_SAMPLES, V_SQ_TEX_INST__LD };
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; i++)
        eg_asm_tex(&as, &(struct eg_tex){ .inst = tex[i], .inst_mod = tex[i] == V_SQ_TEX_INST__GATHER4 ? 2 : 0,
                                          .src_sel = EG_SWZ_XYZW, .dst_gpr = 1, .dst_sel = EG_SWZ_XYZW,
                                          .offset = { 2, -2, 0 } });
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&as, true, w, 512, &n))
        fail_msg("%s", as.err);
    text = test_disasm(w, n);
    assert_non_null(strstr(text, "MODE:2"));     /* GATHER4's component */
    for (const char *want = "SAMPLE_C_LZ\0SAMPLE_C_L\0SAMPLE_LB\0GATHER4_C\0GET_NUMBER_OF_SAMPLES\0LD\0OFFSET:2,-2,0\0";
         *want; want += strlen(want) + 1)
        if (!strstr(text, want))
            fail_msg("%s missing from:\n%s", want, text);
    free(text);
}

int main(void)
{
    env = (struct eg_shader_env){ 0 };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bitfield_ops),
        cmocka_unit_test(bit_scans),
        cmocka_unit_test(carries_and_products),
        cmocka_unit_test(integer_reciprocals),
        cmocka_unit_test(float_to_int_rounding),
        cmocka_unit_test(half_conversions),
        cmocka_unit_test(sin_cos_in_periods),
        cmocka_unit_test(cube_faces),
        cmocka_unit_test(dot_prev_next),
        cmocka_unit_test(predicate_counters),
        cmocka_unit_test(disassembles_every_added_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
