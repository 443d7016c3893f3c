/* The common single-slot ALU operations over many lanes (alu_lanes.h): the
 * operation is chosen once per slot, then one tight loop runs it over the
 * lanes, where eg_alu_eval would be called once per lane (a switch over
 * every opcode, its effects zeroed, the denormal flushing decided anew).
 * Each kernel states its op's rule as alu_ops.c's top comment gives it,
 * with the helpers both share (alu_rules.h): the arithmetic ops flush
 * denormal sources and results (FL below), moves, selects, comparisons and
 * conversions take their sources' bits as they are.  Which ops have a
 * kernel: the ones Mesa's r600 compiler emits in the pixel shaders of
 * piglit's shader tests (loops, comparisons, selects, the float and integer
 * arithmetic, the conversions); the rest (the trigonometry, the predicate
 * counters, the bit-field ops, ...) keep the per-lane path. */
#include <math.h>

#include "alu_lanes.h"
#include "alu_rules.h"
#include "eg_regs.h"
#include "interp.h"

#define F(u) eg_u2f(u)
#define U(f) eg_f2u(f)
#define FL(u) alu_flush(u)

/* A kernel of 1, 2 or 3 sources a, b, c: r = expr. */
#define LANES1(name, expr)                                                                       \
    static uint64_t name(const uint32_t *const s[3], uint32_t *restrict r, unsigned n)           \
    {                                                                                            \
        const uint32_t *restrict s0 = s[0];                                                      \
        for (unsigned l = 0; l < n; l++) {                                                       \
            uint32_t a = s0[l];                                                                  \
            r[l] = (expr);                                                                       \
        }                                                                                        \
        return 0;                                                                                \
    }
#define LANES2(name, expr)                                                                       \
    static uint64_t name(const uint32_t *const s[3], uint32_t *restrict r, unsigned n)           \
    {                                                                                            \
        const uint32_t *restrict s0 = s[0], *restrict s1 = s[1];                                 \
        for (unsigned l = 0; l < n; l++) {                                                       \
            uint32_t a = s0[l], b = s1[l];                                                       \
            r[l] = (expr);                                                                       \
        }                                                                                        \
        return 0;                                                                                \
    }
#define LANES3(name, expr)                                                                       \
    static uint64_t name(const uint32_t *const s[3], uint32_t *restrict r, unsigned n)           \
    {                                                                                            \
        const uint32_t *restrict s0 = s[0], *restrict s1 = s[1], *restrict s2 = s[2];            \
        for (unsigned l = 0; l < n; l++) {                                                       \
            uint32_t a = s0[l], b = s1[l], c = s2[l];                                            \
            r[l] = (expr);                                                                       \
        }                                                                                        \
        return 0;                                                                                \
    }
/* A KILL / PRED_SET kernel: the condition cond of a and b, the result res
 * (of the condition c); returns the lanes where it holds. */
#define COND2(name, cond, res)                                                                   \
    static uint64_t name(const uint32_t *const s[3], uint32_t *restrict r, unsigned n)           \
    {                                                                                            \
        const uint32_t *restrict s0 = s[0], *restrict s1 = s[1];                                 \
        uint64_t m = 0;                                                                          \
        for (unsigned l = 0; l < n; l++) {                                                       \
            uint32_t a = s0[l], b = s1[l];                                                       \
            bool c = (cond);                                                                     \
            r[l] = (res);                                                                        \
            m |= (uint64_t)c << l;                                                               \
        }                                                                                        \
        return m;                                                                                \
    }

/* the flushed sources as floats */
#define FA F(FL(a))
#define FB F(FL(b))
#define FC F(FL(c))

/* ---- float arithmetic (denormals flushed) */
LANES2(k_add, FL(U(alu_add(FA, FB))))
LANES2(k_mul, FL(U(alu_mul_legacy(FA, FB))))
LANES2(k_mul_ieee, FL(U(alu_mul(FA, FB))))
LANES1(k_fract, FL(U(FA - floorf(FA))))
LANES1(k_exp, FL(U(exp2f(FA))))
LANES1(k_log_clamped, FL(U(alu_clamp_inf(log2f(FA)))))
LANES1(k_log_ieee, FL(U(log2f(FA))))
LANES1(k_recip_clamped, FL(U(alu_clamp_inf(1.0f / FA))))
LANES1(k_recip_ieee, FL(U(1.0f / FA)))
LANES1(k_rsq_clamped, FL(U(alu_clamp_inf(1.0f / sqrtf(FA)))))
LANES1(k_rsq_ieee, FL(U(1.0f / sqrtf(FA))))
LANES1(k_sqrt, FL(U(sqrtf(FA))))
LANES3(k_muladd, FL(U(alu_add(alu_mul_legacy(FA, FB), FC))))
LANES3(k_muladd_m2, FL(U(alu_add(alu_mul_legacy(FA, FB), FC) * 2.0f)))
LANES3(k_muladd_m4, FL(U(alu_add(alu_mul_legacy(FA, FB), FC) * 4.0f)))
LANES3(k_muladd_d2, FL(U(alu_add(alu_mul_legacy(FA, FB), FC) * 0.5f)))
LANES3(k_muladd_ieee, FL(U(alu_add(alu_mul(FA, FB), FC))))
LANES3(k_fma, FL(U(alu_fma(FA, FB, FC))))

/* ---- moves, selects, rounding, conversions (bits as they are) */
LANES1(k_mov, a)
static uint64_t k_zero(const uint32_t *const s[3], uint32_t *restrict r, unsigned n)
{
    (void)s;
    for (unsigned l = 0; l < n; l++)
        r[l] = 0;
    return 0;
}
LANES2(k_max, F(a) >= F(b) ? a : b)
LANES2(k_min, F(a) < F(b) ? a : b)
LANES2(k_max_dx10, isnan(F(a)) ? b : isnan(F(b)) ? a : F(a) >= F(b) ? a : b)
LANES2(k_min_dx10, isnan(F(a)) ? b : isnan(F(b)) ? a : F(a) < F(b) ? a : b)
LANES1(k_trunc, U(truncf(F(a))))
LANES1(k_ceil, U(ceilf(F(a))))
LANES1(k_rndne, U(nearbyintf(F(a))))
LANES1(k_floor, U(floorf(F(a))))
LANES1(k_int_to_flt, U((float)(int32_t)a))
LANES1(k_uint_to_flt, U((float)a))
LANES1(k_ubyte0, U((float)(a & 0xFF)))
LANES1(k_ubyte1, U((float)((a >> 8) & 0xFF)))
LANES1(k_ubyte2, U((float)((a >> 16) & 0xFF)))
LANES1(k_ubyte3, U((float)(a >> 24)))
LANES1(k_flt_to_int, (uint32_t)alu_flt_to_int(F(a)))
LANES1(k_flt_to_uint, alu_flt_to_uint(F(a)))
LANES1(k_flt_to_int_floor, (uint32_t)alu_flt_to_int_floor(F(a)))
LANES1(k_flt_to_int_rpi, (uint32_t)alu_flt_to_int_rpi(F(a)))
LANES3(k_cnde, F(a) == 0.0f ? b : c)
LANES3(k_cndgt, F(a) > 0.0f ? b : c)
LANES3(k_cndge, F(a) >= 0.0f ? b : c)
LANES3(k_cnde_int, (int32_t)a == 0 ? b : c)
LANES3(k_cndgt_int, (int32_t)a > 0 ? b : c)
LANES3(k_cndge_int, (int32_t)a >= 0 ? b : c)

/* ---- comparisons: SET 1.0 / 0.0, SET_DX10 and the integer SETs ~0 / 0 */
LANES2(k_sete, alu_fbool(F(a) == F(b)))
LANES2(k_setgt, alu_fbool(F(a) > F(b)))
LANES2(k_setge, alu_fbool(F(a) >= F(b)))
LANES2(k_setne, alu_fbool(F(a) != F(b)))
LANES2(k_sete_dx10, alu_ibool(F(a) == F(b)))
LANES2(k_setgt_dx10, alu_ibool(F(a) > F(b)))
LANES2(k_setge_dx10, alu_ibool(F(a) >= F(b)))
LANES2(k_setne_dx10, alu_ibool(F(a) != F(b)))
LANES2(k_sete_int, alu_ibool(a == b))
LANES2(k_setgt_int, alu_ibool((int32_t)a > (int32_t)b))
LANES2(k_setge_int, alu_ibool((int32_t)a >= (int32_t)b))
LANES2(k_setne_int, alu_ibool(a != b))
LANES2(k_setgt_uint, alu_ibool(a > b))
LANES2(k_setge_uint, alu_ibool(a >= b))

/* ---- KILL: 1.0 where the lane is killed; PRED_SET: 0.0 where the predicate is set */
COND2(k_kille, F(a) == F(b), alu_fbool(c))
COND2(k_killgt, F(a) > F(b), alu_fbool(c))
COND2(k_killge, F(a) >= F(b), alu_fbool(c))
COND2(k_killne, F(a) != F(b), alu_fbool(c))
COND2(k_kille_int, a == b, alu_fbool(c))
COND2(k_killgt_int, (int32_t)a > (int32_t)b, alu_fbool(c))
COND2(k_killge_int, (int32_t)a >= (int32_t)b, alu_fbool(c))
COND2(k_killne_int, a != b, alu_fbool(c))
COND2(k_killgt_uint, a > b, alu_fbool(c))
COND2(k_killge_uint, a >= b, alu_fbool(c))
COND2(k_pred_sete, F(a) == F(b), alu_fbool(!c))
COND2(k_pred_setgt, F(a) > F(b), alu_fbool(!c))
COND2(k_pred_setge, F(a) >= F(b), alu_fbool(!c))
COND2(k_pred_setne, F(a) != F(b), alu_fbool(!c))
COND2(k_pred_sete_int, a == b, alu_fbool(!c))
COND2(k_pred_setgt_int, (int32_t)a > (int32_t)b, alu_fbool(!c))
COND2(k_pred_setge_int, (int32_t)a >= (int32_t)b, alu_fbool(!c))
COND2(k_pred_setne_int, a != b, alu_fbool(!c))
COND2(k_pred_setgt_uint, a > b, alu_fbool(!c))
COND2(k_pred_setge_uint, a >= b, alu_fbool(!c))

/* ---- integer (shift counts: their low 5 bits) */
LANES2(k_and, a & b)
LANES2(k_or, a | b)
LANES2(k_xor, a ^ b)
LANES1(k_not, ~a)
LANES2(k_add_int, a + b)
LANES2(k_sub_int, a - b)
LANES2(k_max_int, (int32_t)a > (int32_t)b ? a : b)
LANES2(k_min_int, (int32_t)a < (int32_t)b ? a : b)
LANES2(k_max_uint, a > b ? a : b)
LANES2(k_min_uint, a < b ? a : b)
LANES2(k_lshl, a << (b & 31))
LANES2(k_lshr, a >> (b & 31))
LANES2(k_ashr, (uint32_t)((int32_t)a >> (b & 31)))
LANES2(k_mullo, a * b)
LANES2(k_mulhi_int, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
LANES2(k_mulhi_uint, (uint32_t)(((uint64_t)a * b) >> 32))
LANES2(k_mul_uint24, (a & 0xFFFFFFu) * (b & 0xFFFFFFu))
LANES2(k_mulhi_uint24, (uint32_t)(((uint64_t)(a & 0xFFFFFFu) * (b & 0xFFFFFFu)) >> 32))
LANES3(k_muladd_uint24, (a & 0xFFFFFFu) * (b & 0xFFFFFFu) + c)
LANES3(k_bfi, (a & b) | (~a & c))

#define FLOAT(k) { k, false, EG_LANES_PLAIN }
#define INT(k) { k, true, EG_LANES_PLAIN }
#define KILL(k) { k, false, EG_LANES_KILL }
#define PRED(k) { k, false, EG_LANES_PRED }

static const struct eg_lanes_kernel op2[256] = {
    [V_SQ_ALU_OP2__ADD] = FLOAT(k_add),
    [V_SQ_ALU_OP2__MUL] = FLOAT(k_mul),
    [V_SQ_ALU_OP2__MUL_IEEE] = FLOAT(k_mul_ieee),
    [V_SQ_ALU_OP2__MAX] = FLOAT(k_max),
    [V_SQ_ALU_OP2__MIN] = FLOAT(k_min),
    [V_SQ_ALU_OP2__MAX_DX10] = FLOAT(k_max_dx10),
    [V_SQ_ALU_OP2__MIN_DX10] = FLOAT(k_min_dx10),
    [V_SQ_ALU_OP2__SETE] = FLOAT(k_sete),
    [V_SQ_ALU_OP2__SETGT] = FLOAT(k_setgt),
    [V_SQ_ALU_OP2__SETGE] = FLOAT(k_setge),
    [V_SQ_ALU_OP2__SETNE] = FLOAT(k_setne),
    [V_SQ_ALU_OP2__SETE_DX10] = INT(k_sete_dx10),
    [V_SQ_ALU_OP2__SETGT_DX10] = INT(k_setgt_dx10),
    [V_SQ_ALU_OP2__SETGE_DX10] = INT(k_setge_dx10),
    [V_SQ_ALU_OP2__SETNE_DX10] = INT(k_setne_dx10),
    [V_SQ_ALU_OP2__FRACT] = FLOAT(k_fract),
    [V_SQ_ALU_OP2__TRUNC] = FLOAT(k_trunc),
    [V_SQ_ALU_OP2__CEIL] = FLOAT(k_ceil),
    [V_SQ_ALU_OP2__RNDNE] = FLOAT(k_rndne),
    [V_SQ_ALU_OP2__FLOOR] = FLOAT(k_floor),
    [V_SQ_ALU_OP2__ASHR_INT] = INT(k_ashr),
    [V_SQ_ALU_OP2__LSHR_INT] = INT(k_lshr),
    [V_SQ_ALU_OP2__LSHL_INT] = INT(k_lshl),
    [V_SQ_ALU_OP2__MOV] = FLOAT(k_mov),
    [V_SQ_ALU_OP2__ALU_NOP] = INT(k_zero),
    [V_SQ_ALU_OP2__PRED_SETGT_UINT] = PRED(k_pred_setgt_uint),
    [V_SQ_ALU_OP2__PRED_SETGE_UINT] = PRED(k_pred_setge_uint),
    [V_SQ_ALU_OP2__PRED_SETE] = PRED(k_pred_sete),
    [V_SQ_ALU_OP2__PRED_SETGT] = PRED(k_pred_setgt),
    [V_SQ_ALU_OP2__PRED_SETGE] = PRED(k_pred_setge),
    [V_SQ_ALU_OP2__PRED_SETNE] = PRED(k_pred_setne),
    [V_SQ_ALU_OP2__KILLE] = KILL(k_kille),
    [V_SQ_ALU_OP2__KILLGT] = KILL(k_killgt),
    [V_SQ_ALU_OP2__KILLGE] = KILL(k_killge),
    [V_SQ_ALU_OP2__KILLNE] = KILL(k_killne),
    [V_SQ_ALU_OP2__AND_INT] = INT(k_and),
    [V_SQ_ALU_OP2__OR_INT] = INT(k_or),
    [V_SQ_ALU_OP2__XOR_INT] = INT(k_xor),
    [V_SQ_ALU_OP2__NOT_INT] = INT(k_not),
    [V_SQ_ALU_OP2__ADD_INT] = INT(k_add_int),
    [V_SQ_ALU_OP2__SUB_INT] = INT(k_sub_int),
    [V_SQ_ALU_OP2__MAX_INT] = INT(k_max_int),
    [V_SQ_ALU_OP2__MIN_INT] = INT(k_min_int),
    [V_SQ_ALU_OP2__MAX_UINT] = INT(k_max_uint),
    [V_SQ_ALU_OP2__MIN_UINT] = INT(k_min_uint),
    [V_SQ_ALU_OP2__SETE_INT] = INT(k_sete_int),
    [V_SQ_ALU_OP2__SETGT_INT] = INT(k_setgt_int),
    [V_SQ_ALU_OP2__SETGE_INT] = INT(k_setge_int),
    [V_SQ_ALU_OP2__SETNE_INT] = INT(k_setne_int),
    [V_SQ_ALU_OP2__SETGT_UINT] = INT(k_setgt_uint),
    [V_SQ_ALU_OP2__SETGE_UINT] = INT(k_setge_uint),
    [V_SQ_ALU_OP2__KILLGT_UINT] = KILL(k_killgt_uint),
    [V_SQ_ALU_OP2__KILLGE_UINT] = KILL(k_killge_uint),
    [V_SQ_ALU_OP2__PRED_SETE_INT] = PRED(k_pred_sete_int),
    [V_SQ_ALU_OP2__PRED_SETGT_INT] = PRED(k_pred_setgt_int),
    [V_SQ_ALU_OP2__PRED_SETGE_INT] = PRED(k_pred_setge_int),
    [V_SQ_ALU_OP2__PRED_SETNE_INT] = PRED(k_pred_setne_int),
    [V_SQ_ALU_OP2__KILLE_INT] = KILL(k_kille_int),
    [V_SQ_ALU_OP2__KILLGT_INT] = KILL(k_killgt_int),
    [V_SQ_ALU_OP2__KILLGE_INT] = KILL(k_killge_int),
    [V_SQ_ALU_OP2__KILLNE_INT] = KILL(k_killne_int),
    [V_SQ_ALU_OP2__FLT_TO_INT] = INT(k_flt_to_int),
    [V_SQ_ALU_OP2__EXP_IEEE] = FLOAT(k_exp),
    [V_SQ_ALU_OP2__LOG_CLAMPED] = FLOAT(k_log_clamped),
    [V_SQ_ALU_OP2__LOG_IEEE] = FLOAT(k_log_ieee),
    [V_SQ_ALU_OP2__RECIP_CLAMPED] = FLOAT(k_recip_clamped),
    [V_SQ_ALU_OP2__RECIP_FF] = FLOAT(k_recip_clamped),
    [V_SQ_ALU_OP2__RECIP_IEEE] = FLOAT(k_recip_ieee),
    [V_SQ_ALU_OP2__RECIPSQRT_CLAMPED] = FLOAT(k_rsq_clamped),
    [V_SQ_ALU_OP2__RECIPSQRT_FF] = FLOAT(k_rsq_clamped),
    [V_SQ_ALU_OP2__RECIPSQRT_IEEE] = FLOAT(k_rsq_ieee),
    [V_SQ_ALU_OP2__SQRT_IEEE] = FLOAT(k_sqrt),
    [V_SQ_ALU_OP2__MULLO_INT] = INT(k_mullo),
    [V_SQ_ALU_OP2__MULHI_INT] = INT(k_mulhi_int),
    [V_SQ_ALU_OP2__MULLO_UINT] = INT(k_mullo),
    [V_SQ_ALU_OP2__MULHI_UINT] = INT(k_mulhi_uint),
    [V_SQ_ALU_OP2__FLT_TO_UINT] = INT(k_flt_to_uint),
    [V_SQ_ALU_OP2__INT_TO_FLT] = FLOAT(k_int_to_flt),
    [V_SQ_ALU_OP2__UINT_TO_FLT] = FLOAT(k_uint_to_flt),
    [V_SQ_ALU_OP2__UBYTE0_FLT] = FLOAT(k_ubyte0),
    [V_SQ_ALU_OP2__UBYTE1_FLT] = FLOAT(k_ubyte1),
    [V_SQ_ALU_OP2__UBYTE2_FLT] = FLOAT(k_ubyte2),
    [V_SQ_ALU_OP2__UBYTE3_FLT] = FLOAT(k_ubyte3),
    [V_SQ_ALU_OP2__FLT_TO_INT_RPI] = INT(k_flt_to_int_rpi),
    [V_SQ_ALU_OP2__FLT_TO_INT_FLOOR] = INT(k_flt_to_int_floor),
    [V_SQ_ALU_OP2__MULHI_UINT24] = INT(k_mulhi_uint24),
    [V_SQ_ALU_OP2__MUL_UINT24] = INT(k_mul_uint24),
};

static const struct eg_lanes_kernel op3[32] = {
    [V_SQ_ALU_OP3__BFI_INT] = INT(k_bfi),
    [V_SQ_ALU_OP3__FMA] = FLOAT(k_fma),
    [V_SQ_ALU_OP3__MULADD_UINT24] = INT(k_muladd_uint24),
    [V_SQ_ALU_OP3__MULADD] = FLOAT(k_muladd),
    [V_SQ_ALU_OP3__MULADD_M2] = FLOAT(k_muladd_m2),
    [V_SQ_ALU_OP3__MULADD_M4] = FLOAT(k_muladd_m4),
    [V_SQ_ALU_OP3__MULADD_D2] = FLOAT(k_muladd_d2),
    [V_SQ_ALU_OP3__MULADD_IEEE] = FLOAT(k_muladd_ieee),
    [V_SQ_ALU_OP3__CNDE] = FLOAT(k_cnde),
    [V_SQ_ALU_OP3__CNDGT] = FLOAT(k_cndgt),
    [V_SQ_ALU_OP3__CNDGE] = FLOAT(k_cndge),
    [V_SQ_ALU_OP3__CNDE_INT] = INT(k_cnde_int),
    [V_SQ_ALU_OP3__CNDGT_INT] = INT(k_cndgt_int),
    [V_SQ_ALU_OP3__CNDGE_INT] = INT(k_cndge_int),
};

const struct eg_lanes_kernel *eg_lanes_kernel(bool op3_form, unsigned op)
{
    const struct eg_lanes_kernel *k = op3_form ? (op < 32 ? &op3[op] : NULL) : (op < 256 ? &op2[op] : NULL);
    return k && k->run ? k : NULL;
}

void eg_lanes_reduce4(unsigned op, const uint32_t *const a[4], const uint32_t *const b[4], uint32_t *restrict r,
                      unsigned n)
{
    /* eg_alu_reduce4's sums and comparisons, in its order */
    if (op == V_SQ_ALU_OP2__MAX4) {
        for (unsigned l = 0; l < n; l++) {
            float acc = -INFINITY;
            for (int k = 0; k < 4; k++) {
                float x = F(a[k][l]);
                acc = x >= acc ? x : acc;
            }
            r[l] = U(acc);
        }
        return;
    }
    bool legacy = op == V_SQ_ALU_OP2__DOT4;
    for (unsigned l = 0; l < n; l++) {
        float acc = 0.0f;
        for (int k = 0; k < 4; k++) {
            float x = F(FL(a[k][l])), y = F(FL(b[k][l]));
            acc = alu_add(acc, legacy ? alu_mul_legacy(x, y) : alu_mul(x, y));
        }
        r[l] = FL(U(acc));
    }
}

void eg_lanes_out_mod(unsigned omod, bool clamp, uint32_t *r, unsigned n)
{
    for (unsigned l = 0; l < n; l++)
        r[l] = alu_out_mod(omod, clamp, r[l]);
}
