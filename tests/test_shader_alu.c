/* ALU semantics through machine code: every tested op runs as an encoded
 * shader (operands as literals, result exported) and is compared with C's
 * float / integer arithmetic over many values, edge cases included, under the
 * rules src/shader/alu_ops.c documents (legacy MUL: 0 * anything = 0, RECIP
 * of 0, NaN in MAX/MIN, denormal sources and results of the arithmetic ops
 * flushed to a zero of their sign (ALLOW_SINGLE_DENORM_IN / _OUT off) while
 * moves, selects and comparisons keep them ...).  Also PV/PS forwarding, the read-before-write
 * order inside a group, and literal slots. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

#define fu test_f2u
#define uf test_u2f

static struct eg_shader_env env;

/* Run `op` on a, b, c (bits) in slot x (or t when trans-only); return R1.x. */
static uint32_t run_op(bool op3, unsigned op, uint32_t a, uint32_t b, uint32_t c, bool trans)
{
    struct eg_asm as;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    /* load the operands into R2.xyz from literals, then operate on GPRs */
    for (unsigned i = 0; i < 3; i++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, (uint8_t)i, .write = true },
                                          .src = { eg_src_lit_u(i == 0 ? a : i == 1 ? b : c) }, .last = i == 2 });
    eg_asm_alu(&as, &(struct eg_alu){ .op3 = op3, .op = op, .dst = { 1, 0, .write = true },
                                      .src = { eg_src_gpr(2, 0), eg_src_gpr(2, 1), eg_src_gpr(2, 2) }, .last = true });
    (void)trans;
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&as, true, w, 64, &n))
        fail_msg("%s", as.err);
    struct eg_program p = { "ALU", w, n };
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_vs(&p, NULL, &env, 0, 0, &out, &err))
        fail_msg("%s", err.msg);
    return out.param[0].u[0];
}

static const float fvals[] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 3.75f, 1e-30f, FLT_MIN, 1e-40f /* denormal */, FLT_MAX, -FLT_MAX,
    INFINITY, -INFINITY, NAN, 123456.7f, -0.1f, 16777217.0f, 2.5f, -3.5f,
};
#define NF (sizeof fvals / sizeof fvals[0])

static void same(const char *what, float a, float b, uint32_t got, float want)
{
    if (isnan(want) && isnan(uf(got)))
        return;
    if (got != fu(want))
        fail_msg("%s(%g, %g) = %g (0x%08x), expected %g (0x%08x)", what, (double)a, (double)b, (double)uf(got), got,
                 (double)want, fu(want));
}

static float legacy_mul(float a, float b)
{
    return (a == 0.0f || b == 0.0f) ? 0.0f : a * b;
}

/* A denormal as a zero of its sign (the flushing ops' sources and results). */
static float ftz(float v)
{
    return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v;
}

static void float_binary_ops(void **state)
{
    (void)state;
    for (size_t i = 0; i < NF; i++)
        for (size_t j = 0; j < NF; j++) {
            float a = fvals[i], b = fvals[j], za = ftz(a), zb = ftz(b);
            same("ADD", a, b, run_op(false, V_SQ_ALU_OP2__ADD, fu(a), fu(b), 0, false), ftz(za + zb));
            same("MUL", a, b, run_op(false, V_SQ_ALU_OP2__MUL, fu(a), fu(b), 0, false), ftz(legacy_mul(za, zb)));
            same("MUL_IEEE", a, b, run_op(false, V_SQ_ALU_OP2__MUL_IEEE, fu(a), fu(b), 0, false), ftz(za * zb));
            same("MAX", a, b, run_op(false, V_SQ_ALU_OP2__MAX, fu(a), fu(b), 0, false), a >= b ? a : b);
            same("MIN", a, b, run_op(false, V_SQ_ALU_OP2__MIN, fu(a), fu(b), 0, false), a < b ? a : b);
            same("MAX_DX10", a, b, run_op(false, V_SQ_ALU_OP2__MAX_DX10, fu(a), fu(b), 0, false), isnan(a) ? b : isnan(b) ? a : a >= b ? a : b);
            same("SETGT", a, b, run_op(false, V_SQ_ALU_OP2__SETGT, fu(a), fu(b), 0, false), a > b ? 1.0f : 0.0f);
            same("SETNE", a, b, run_op(false, V_SQ_ALU_OP2__SETNE, fu(a), fu(b), 0, false), a != b ? 1.0f : 0.0f);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__SETGE_DX10, fu(a), fu(b), 0, false), a >= b ? 0xFFFFFFFFu : 0);
            same("MULADD", a, b, run_op(true, V_SQ_ALU_OP3__MULADD, fu(a), fu(b), fu(1.5f), false),
                 ftz(legacy_mul(za, zb) + 1.5f));
            same("MULADD_IEEE", a, b, run_op(true, V_SQ_ALU_OP3__MULADD_IEEE, fu(a), fu(b), fu(1.5f), false),
                 ftz(za * zb + 1.5f));
            same("CNDGT", a, b, run_op(true, V_SQ_ALU_OP3__CNDGT, fu(a), fu(b), fu(7.0f), false), a > 0 ? b : 7.0f);
        }
    /* the documented edge cases, spelled out */
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MUL, fu(0.0f), fu(INFINITY), 0, false), fu(0.0f));
    assert_true(isnan(uf(run_op(false, V_SQ_ALU_OP2__MUL_IEEE, fu(0.0f), fu(INFINITY), 0, false))));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MUL, fu(NAN), fu(0.0f), 0, false), fu(0.0f));
    /* denormals: 2^-70 squared is 2^-140 (a denormal) -> 0 of the product's
     * sign; a denormal source is 0 (2^-140 * 2^100 is 0, not 2^-40); moves
     * and selects keep the bits */
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MUL, fu(0x1p-70f), fu(0x1p-70f), 0, false), fu(0.0f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MUL_IEEE, fu(-0x1p-70f), fu(0x1p-70f), 0, false), fu(-0.0f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MUL_IEEE, fu(0x1p-140f), fu(0x1p100f), 0, false), fu(0.0f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__ADD, fu(0x1p-140f), fu(FLT_MIN), 0, false), fu(FLT_MIN));
    assert_int_equal(run_op(true, V_SQ_ALU_OP3__MULADD, fu(0x1p-70f), fu(0x1p-70f), fu(0x1p-140f), false), fu(0.0f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MOV, fu(0x1p-140f), 0, 0, false), fu(0x1p-140f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__MAX, fu(-0x1p-140f), fu(-1.0f), 0, false), fu(-0x1p-140f));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__SETGT_DX10, fu(0x1p-140f), fu(0.0f), 0, false), 0xFFFFFFFFu);
}

static void float_unary_ops(void **state)
{
    (void)state;
    for (size_t i = 0; i < NF; i++) {
        float a = fvals[i];
        same("MOV", a, 0, run_op(false, V_SQ_ALU_OP2__MOV, fu(a), 0, 0, false), a);
        float za = ftz(a);
        same("FRACT", a, 0, run_op(false, V_SQ_ALU_OP2__FRACT, fu(a), 0, 0, false), ftz(za - floorf(za)));
        same("FLOOR", a, 0, run_op(false, V_SQ_ALU_OP2__FLOOR, fu(a), 0, 0, false), floorf(a));
        same("CEIL", a, 0, run_op(false, V_SQ_ALU_OP2__CEIL, fu(a), 0, 0, false), ceilf(a));
        same("TRUNC", a, 0, run_op(false, V_SQ_ALU_OP2__TRUNC, fu(a), 0, 0, false), truncf(a));
        same("RNDNE", a, 0, run_op(false, V_SQ_ALU_OP2__RNDNE, fu(a), 0, 0, false), nearbyintf(a));
        same("RECIP_IEEE", a, 0, run_op(false, V_SQ_ALU_OP2__RECIP_IEEE, fu(a), 0, 0, true), ftz(1.0f / za));
        float rc = ftz(1.0f / za);
        if (isinf(rc))
            rc = rc > 0 ? FLT_MAX : -FLT_MAX;
        same("RECIP_CLAMPED", a, 0, run_op(false, V_SQ_ALU_OP2__RECIP_CLAMPED, fu(a), 0, 0, true), rc);
        same("RECIPSQRT_IEEE", a, 0, run_op(false, V_SQ_ALU_OP2__RECIPSQRT_IEEE, fu(a), 0, 0, true),
             ftz(1.0f / sqrtf(za)));
        same("SQRT_IEEE", a, 0, run_op(false, V_SQ_ALU_OP2__SQRT_IEEE, fu(a), 0, 0, true), ftz(sqrtf(za)));
        same("EXP_IEEE", a, 0, run_op(false, V_SQ_ALU_OP2__EXP_IEEE, fu(a), 0, 0, true), ftz(exp2f(za)));
        same("LOG_IEEE", a, 0, run_op(false, V_SQ_ALU_OP2__LOG_IEEE, fu(a), 0, 0, true), ftz(log2f(za)));
    }
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__RECIP_IEEE, fu(0.0f), 0, 0, true), fu(INFINITY));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__RECIP_IEEE, fu(-0.0f), 0, 0, true), fu(-INFINITY));
    assert_int_equal(run_op(false, V_SQ_ALU_OP2__RECIP_CLAMPED, fu(0.0f), 0, 0, true), fu(FLT_MAX));
}

static void integer_ops(void **state)
{
    (void)state;
    const uint32_t iv[] = { 0, 1, 2, 31, 32, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 12345, 0xDEADBEEF, 0xFFFF0000u };
    size_t ni = sizeof iv / sizeof iv[0];
    for (size_t i = 0; i < ni; i++)
        for (size_t j = 0; j < ni; j++) {
            uint32_t a = iv[i], b = iv[j];
            int32_t sa = (int32_t)a, sb = (int32_t)b;
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__ADD_INT, a, b, 0, false), a + b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__SUB_INT, a, b, 0, false), a - b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__AND_INT, a, b, 0, false), a & b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__XOR_INT, a, b, 0, false), a ^ b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__MAX_INT, a, b, 0, false), (uint32_t)(sa > sb ? sa : sb));
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__MIN_UINT, a, b, 0, false), a < b ? a : b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__LSHL_INT, a, b, 0, false), a << (b & 31));
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__LSHR_INT, a, b, 0, false), a >> (b & 31));
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__SETGT_INT, a, b, 0, false), sa > sb ? 0xFFFFFFFFu : 0);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__SETGE_UINT, a, b, 0, false), a >= b ? 0xFFFFFFFFu : 0);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__MULLO_INT, a, b, 0, true), a * b);
            assert_int_equal(run_op(false, V_SQ_ALU_OP2__MULHI_UINT, a, b, 0, true), (uint32_t)(((uint64_t)a * b) >> 32));
            assert_int_equal(run_op(true, V_SQ_ALU_OP3__CNDE_INT, a, b, 77, false), a == 0 ? b : 77);
        }
    for (size_t i = 0; i < ni; i++)
        assert_int_equal(run_op(false, V_SQ_ALU_OP2__INT_TO_FLT, iv[i], 0, 0, true), fu((float)(int32_t)iv[i]));
    for (size_t i = 0; i < NF; i++) {
        float a = fvals[i];
        int32_t want = isnan(a) ? 0 : a >= 2147483647.0f ? INT32_MAX : a <= -2147483648.0f ? INT32_MIN
                                                                                               : (int32_t)nearbyintf(a);
        assert_int_equal(run_op(false, V_SQ_ALU_OP2__FLT_TO_INT, fu(a), 0, 0, false), (uint32_t)want);
    }
}

/* DOT4 (legacy and IEEE) over four slots, result replicated in PV.xyzw. */
static void dot4_pv_ps_and_literals(void **state)
{
    (void)state;
    struct eg_asm as;
    uint32_t w[128];
    size_t n;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    /* group 0: R2 = (1, 2, 3, 4) from four literals (two literal slots), R3 = (5, 0, INF, 0.5) */
    const float r2[4] = { 1, 2, 3, 4 };
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, (uint8_t)c, .write = true },
                                          .src = { eg_src_lit_f(r2[c]) }, .last = c == 3 });
    const float r3[4] = { 5, 0, INFINITY, 0.5f };
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 3, (uint8_t)c, .write = true },
                                          .src = { eg_src_lit_f(r3[c]) }, .last = c == 3 });
    /* group 2: DOT4 R2.R3 writing nothing, t: RECIP_IEEE 4 -> PS */
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__DOT4, .dst = { 9, (uint8_t)c },
                                          .src = { eg_src_gpr(2, c), eg_src_gpr(3, c) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__RECIP_IEEE, .dst = { 9, 0 },
                                      .src = { eg_src_lit_f(4) }, .last = true });
    /* group 3: R1.x = PV.z + PS; R1.y = PV.x; R2.x <-> R2.y swap (reads before writes) */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__ADD, .dst = { 1, 0, .write = true },
                                      .src = { eg_src_special(V_SQ_ALU_SRC__PV, 2), eg_src_special(V_SQ_ALU_SRC__PS, 0) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 1, .write = true },
                                      .src = { eg_src_special(V_SQ_ALU_SRC__PV, 0) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 2, .write = true },
                                      .src = { eg_src_gpr(2, 3) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 3, .write = true },
                                      .src = { eg_src_gpr(2, 2) }, .last = true });
    /* group 4: R1.z = R2.z * 10 + R2.w (so 4 * 10 + 3 after the swap), R1.w = DOT4_IEEE would be NaN: use MUL_IEEE */
    eg_asm_alu(&as, &(struct eg_alu){ .op3 = true, .op = V_SQ_ALU_OP3__MULADD, .dst = { 1, 2 },
                                      .src = { eg_src_gpr(2, 2), eg_src_lit_f(10), eg_src_gpr(2, 3) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MUL_IEEE, .dst = { 1, 3, .write = true },
                                      .src = { eg_src_gpr(3, 1), eg_src_gpr(3, 2) }, .last = true });
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&as, true, w, 128, &n))
        fail_msg("%s", as.err);
    struct eg_program p = { "ALU", w, n };
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_vs(&p, NULL, &env, 0, 0, &out, &err))
        fail_msg("%s", err.msg);
    /* legacy DOT4: 1*5 + 2*0 + 3*Inf + 4*0.5 = Inf (2*0 is 0, 3*Inf is Inf) */
    float dot = 1 * 5 + 0 + 3 * INFINITY + 4 * 0.5f;
    assert_true(out.param[0].f[0] == dot + 0.25f);
    assert_true(out.param[0].f[1] == dot);
    assert_true(out.param[0].f[2] == 43.0f);
    assert_true(isnan(out.param[0].f[3]));  /* 0 * Inf, IEEE */
}

int main(void)
{
    env = (struct eg_shader_env){ 0 };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(float_binary_ops),
        cmocka_unit_test(float_unary_ops),
        cmocka_unit_test(integer_ops),
        cmocka_unit_test(dot4_pv_ps_and_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
