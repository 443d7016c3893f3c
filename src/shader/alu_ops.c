/* Semantics of the single-slot Evergreen ALU operations, as the interpreter
 * models them (AMD "Evergreen Family Instruction Set Architecture", ALU
 * instruction descriptions).  The group-level ones (DOT4, MAX4, INTERP_*) are
 * in interp.c.
 *
 * Floating-point rules modelled (and checked by tests/test_shader_alu.c):
 *  - MUL, MULADD*, DOT4 are the "legacy" (DX9) forms: 0 * x = +0 for every x,
 *    Inf and NaN included.  MUL_IEEE, MULADD_IEEE, DOT4_IEEE follow IEEE-754
 *    (0 * Inf = NaN).
 *  - MAX / MIN: src0 >= src1 ? src0 : src1 (resp. <), so a NaN in src1 of MAX
 *    wins and a NaN in src0 loses; MAX_DX10 / MIN_DX10 return the non-NaN
 *    operand (IEEE maxNum/minNum), else the same comparison as MAX/MIN (so the
 *    sign of a zero result follows the operand order, not maxNum's choice).
 *  - SETcc return 1.0 / 0.0; SETcc_DX10 and the integer SETs return ~0 / 0.
 *    Comparisons with NaN are false except SETNE (true).
 *  - RECIP_IEEE(+-0) = +-Inf; RECIP_CLAMPED and RECIP_FF clamp an infinite
 *    result to +-FLT_MAX (RECIP_FF is modelled as RECIP_CLAMPED).
 *    RECIPSQRT likewise; SQRT/RECIPSQRT of a negative number is NaN.
 *    LOG_CLAMPED(0) = -FLT_MAX, LOG_IEEE(0) = -Inf.
 *  - FLT_TO_INT / FLT_TO_UINT round to nearest even (Mesa emits TRUNC before
 *    them for C-style conversion), saturate, and map NaN to 0.
 *  - Denormals are kept (the hardware's flushing is not modelled); NaN
 *    payloads are whatever the host's arithmetic produces.
 *  - Integer shifts use the low 5 bits of the shift count.
 */
#include <float.h>
#include <math.h>

#include "eg_regs.h"
#include "interp.h"

float eg_mul_legacy(float a, float b)
{
    if (a == 0.0f || b == 0.0f)
        return 0.0f;
    return a * b;
}

static uint32_t fbool(bool c)
{
    return eg_f2u(c ? 1.0f : 0.0f);
}

static uint32_t ibool(bool c)
{
    return c ? 0xFFFFFFFFu : 0u;
}

static float clamp_inf(float v)
{
    if (isinf(v))
        return v > 0 ? FLT_MAX : -FLT_MAX;
    return v;
}

static int32_t flt_to_int(float v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483647.0f)
        return INT32_MAX;
    if (v <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)nearbyintf(v);
}

static uint32_t flt_to_uint(float v)
{
    if (isnan(v) || v <= 0.0f)
        return 0;
    if (v >= 4294967295.0f)
        return UINT32_MAX;
    return (uint32_t)nearbyintf(v);
}

/* Float condition of a SET / KILL / PRED_SET / CND op. */
enum cc { CC_E, CC_GT, CC_GE, CC_NE };

static bool fcc(enum cc c, float a, float b)
{
    switch (c) {
    case CC_E: return a == b;
    case CC_GT: return a > b;
    case CC_GE: return a >= b;
    default: return a != b;
    }
}

static bool icc(enum cc c, int32_t a, int32_t b)
{
    switch (c) {
    case CC_E: return a == b;
    case CC_GT: return a > b;
    case CC_GE: return a >= b;
    default: return a != b;
    }
}

static bool ucc(enum cc c, uint32_t a, uint32_t b)
{
    switch (c) {
    case CC_E: return a == b;
    case CC_GT: return a > b;
    case CC_GE: return a >= b;
    default: return a != b;
    }
}

static int eval_op3(unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    float a = eg_u2f(s[0]), b = eg_u2f(s[1]), c = eg_u2f(s[2]);
    switch (op) {
    case V_SQ_ALU_OP3__MULADD: *r = eg_f2u(eg_mul_legacy(a, b) + c); return 0;
    case V_SQ_ALU_OP3__MULADD_M2: *r = eg_f2u((eg_mul_legacy(a, b) + c) * 2.0f); return 0;
    case V_SQ_ALU_OP3__MULADD_M4: *r = eg_f2u((eg_mul_legacy(a, b) + c) * 4.0f); return 0;
    case V_SQ_ALU_OP3__MULADD_D2: *r = eg_f2u((eg_mul_legacy(a, b) + c) * 0.5f); return 0;
    case V_SQ_ALU_OP3__MULADD_IEEE: *r = eg_f2u(a * b + c); return 0;
    case V_SQ_ALU_OP3__FMA: *r = eg_f2u(fmaf(a, b, c)); return 0;
    case V_SQ_ALU_OP3__CNDE: *r = a == 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDGT: *r = a > 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDGE: *r = a >= 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDE_INT: *r = (int32_t)s[0] == 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__CNDGT_INT: *r = (int32_t)s[0] > 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__CNDGE_INT: *r = (int32_t)s[0] >= 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__BFE_UINT: {
        unsigned off = s[1] & 31, w = s[2] & 31;
        *r = w ? (s[0] >> off) & (w == 32 ? ~0u : ((1u << w) - 1)) : 0;
        fx->int_result = true;
        return 0;
    }
    case V_SQ_ALU_OP3__BFI_INT: *r = (s[0] & s[1]) | (~s[0] & s[2]); fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__MULADD_UINT24:
        *r = (s[0] & 0xFFFFFFu) * (s[1] & 0xFFFFFFu) + s[2];
        fx->int_result = true;
        return 0;
    default: return -1;
    }
}

int eg_alu_eval(bool op3, unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    *fx = (struct alu_effects){ 0 };
    if (op3)
        return eval_op3(op, s, r, fx);

    float a = eg_u2f(s[0]), b = eg_u2f(s[1]);
    int32_t ia = (int32_t)s[0], ib = (int32_t)s[1];
    uint32_t ua = s[0], ub = s[1];

    /* comparisons first: one table for SET / KILL / PRED_SET */
    struct { unsigned op; enum cc cc; char kind; char type; } cmp[] = {
        /* kind: S = SET (1.0/0.0), D = SET_DX10 / integer SET (~0/0), K = KILL, P = PRED_SET */
        /* type: f = float, i = int, u = uint */
        { V_SQ_ALU_OP2__SETE, CC_E, 'S', 'f' },          { V_SQ_ALU_OP2__SETGT, CC_GT, 'S', 'f' },
        { V_SQ_ALU_OP2__SETGE, CC_GE, 'S', 'f' },        { V_SQ_ALU_OP2__SETNE, CC_NE, 'S', 'f' },
        { V_SQ_ALU_OP2__SETE_DX10, CC_E, 'D', 'f' },     { V_SQ_ALU_OP2__SETGT_DX10, CC_GT, 'D', 'f' },
        { V_SQ_ALU_OP2__SETGE_DX10, CC_GE, 'D', 'f' },   { V_SQ_ALU_OP2__SETNE_DX10, CC_NE, 'D', 'f' },
        { V_SQ_ALU_OP2__SETE_INT, CC_E, 'D', 'i' },      { V_SQ_ALU_OP2__SETGT_INT, CC_GT, 'D', 'i' },
        { V_SQ_ALU_OP2__SETGE_INT, CC_GE, 'D', 'i' },    { V_SQ_ALU_OP2__SETNE_INT, CC_NE, 'D', 'i' },
        { V_SQ_ALU_OP2__SETGT_UINT, CC_GT, 'D', 'u' },   { V_SQ_ALU_OP2__SETGE_UINT, CC_GE, 'D', 'u' },
        { V_SQ_ALU_OP2__KILLE, CC_E, 'K', 'f' },         { V_SQ_ALU_OP2__KILLGT, CC_GT, 'K', 'f' },
        { V_SQ_ALU_OP2__KILLGE, CC_GE, 'K', 'f' },       { V_SQ_ALU_OP2__KILLNE, CC_NE, 'K', 'f' },
        { V_SQ_ALU_OP2__KILLE_INT, CC_E, 'K', 'i' },     { V_SQ_ALU_OP2__KILLGT_INT, CC_GT, 'K', 'i' },
        { V_SQ_ALU_OP2__KILLGE_INT, CC_GE, 'K', 'i' },   { V_SQ_ALU_OP2__KILLNE_INT, CC_NE, 'K', 'i' },
        { V_SQ_ALU_OP2__KILLGT_UINT, CC_GT, 'K', 'u' },  { V_SQ_ALU_OP2__KILLGE_UINT, CC_GE, 'K', 'u' },
        { V_SQ_ALU_OP2__PRED_SETE, CC_E, 'P', 'f' },     { V_SQ_ALU_OP2__PRED_SETGT, CC_GT, 'P', 'f' },
        { V_SQ_ALU_OP2__PRED_SETGE, CC_GE, 'P', 'f' },   { V_SQ_ALU_OP2__PRED_SETNE, CC_NE, 'P', 'f' },
        { V_SQ_ALU_OP2__PRED_SETE_INT, CC_E, 'P', 'i' }, { V_SQ_ALU_OP2__PRED_SETGT_INT, CC_GT, 'P', 'i' },
        { V_SQ_ALU_OP2__PRED_SETGE_INT, CC_GE, 'P', 'i' }, { V_SQ_ALU_OP2__PRED_SETNE_INT, CC_NE, 'P', 'i' },
        { V_SQ_ALU_OP2__PRED_SETGT_UINT, CC_GT, 'P', 'u' }, { V_SQ_ALU_OP2__PRED_SETGE_UINT, CC_GE, 'P', 'u' },
    };
    for (unsigned i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
        if (cmp[i].op != op)
            continue;
        bool c = cmp[i].type == 'f' ? fcc(cmp[i].cc, a, b)
               : cmp[i].type == 'i' ? icc(cmp[i].cc, ia, ib) : ucc(cmp[i].cc, ua, ub);
        switch (cmp[i].kind) {
        case 'S': *r = fbool(c); break;
        case 'D': *r = ibool(c); fx->int_result = true; break;
        case 'K': *r = fbool(c); fx->kill = c; break;
        default: *r = fbool(c); fx->is_pred = true; fx->cond = c; break;
        }
        return 0;
    }

    float f;
    switch (op) {
    case V_SQ_ALU_OP2__ADD: f = a + b; break;
    case V_SQ_ALU_OP2__MUL: f = eg_mul_legacy(a, b); break;
    case V_SQ_ALU_OP2__MUL_IEEE: f = a * b; break;
    case V_SQ_ALU_OP2__MAX: f = a >= b ? a : b; break;
    case V_SQ_ALU_OP2__MIN: f = a < b ? a : b; break;
    case V_SQ_ALU_OP2__MAX_DX10: f = isnan(a) ? b : isnan(b) ? a : a >= b ? a : b; break;
    case V_SQ_ALU_OP2__MIN_DX10: f = isnan(a) ? b : isnan(b) ? a : a < b ? a : b; break;
    case V_SQ_ALU_OP2__FRACT: f = a - floorf(a); break;
    case V_SQ_ALU_OP2__TRUNC: f = truncf(a); break;
    case V_SQ_ALU_OP2__CEIL: f = ceilf(a); break;
    case V_SQ_ALU_OP2__RNDNE: f = nearbyintf(a); break;
    case V_SQ_ALU_OP2__FLOOR: f = floorf(a); break;
    case V_SQ_ALU_OP2__MOV: *r = s[0]; return 0;
    case V_SQ_ALU_OP2__ALU_NOP: *r = 0; fx->int_result = true; return 0;
    case V_SQ_ALU_OP2__EXP_IEEE: f = exp2f(a); break;
    case V_SQ_ALU_OP2__LOG_IEEE: f = log2f(a); break;
    case V_SQ_ALU_OP2__LOG_CLAMPED: f = clamp_inf(log2f(a)); break;
    case V_SQ_ALU_OP2__RECIP_IEEE: f = 1.0f / a; break;
    case V_SQ_ALU_OP2__RECIP_CLAMPED:
    case V_SQ_ALU_OP2__RECIP_FF: f = clamp_inf(1.0f / a); break;
    case V_SQ_ALU_OP2__RECIPSQRT_IEEE: f = 1.0f / sqrtf(a); break;
    case V_SQ_ALU_OP2__RECIPSQRT_CLAMPED:
    case V_SQ_ALU_OP2__RECIPSQRT_FF: f = clamp_inf(1.0f / sqrtf(a)); break;
    case V_SQ_ALU_OP2__SQRT_IEEE: f = sqrtf(a); break;
    case V_SQ_ALU_OP2__SIN: f = sinf(a); break;
    case V_SQ_ALU_OP2__COS: f = cosf(a); break;
    case V_SQ_ALU_OP2__INT_TO_FLT: f = (float)ia; break;
    case V_SQ_ALU_OP2__UINT_TO_FLT: f = (float)ua; break;
    default:
        fx->int_result = true;
        switch (op) {
        case V_SQ_ALU_OP2__FLT_TO_INT: *r = (uint32_t)flt_to_int(a); return 0;
        case V_SQ_ALU_OP2__FLT_TO_UINT: *r = flt_to_uint(a); return 0;
        case V_SQ_ALU_OP2__AND_INT: *r = ua & ub; return 0;
        case V_SQ_ALU_OP2__OR_INT: *r = ua | ub; return 0;
        case V_SQ_ALU_OP2__XOR_INT: *r = ua ^ ub; return 0;
        case V_SQ_ALU_OP2__NOT_INT: *r = ~ua; return 0;
        case V_SQ_ALU_OP2__ADD_INT: *r = ua + ub; return 0;
        case V_SQ_ALU_OP2__SUB_INT: *r = ua - ub; return 0;
        case V_SQ_ALU_OP2__MAX_INT: *r = (uint32_t)(ia > ib ? ia : ib); return 0;
        case V_SQ_ALU_OP2__MIN_INT: *r = (uint32_t)(ia < ib ? ia : ib); return 0;
        case V_SQ_ALU_OP2__MAX_UINT: *r = ua > ub ? ua : ub; return 0;
        case V_SQ_ALU_OP2__MIN_UINT: *r = ua < ub ? ua : ub; return 0;
        case V_SQ_ALU_OP2__LSHL_INT: *r = ua << (ub & 31); return 0;
        case V_SQ_ALU_OP2__LSHR_INT: *r = ua >> (ub & 31); return 0;
        case V_SQ_ALU_OP2__ASHR_INT:
            *r = (uint32_t)(ia >> (ub & 31));   /* arithmetic on every C11 target we build on */
            return 0;
        case V_SQ_ALU_OP2__MULLO_INT:
        case V_SQ_ALU_OP2__MULLO_UINT: *r = ua * ub; return 0;
        case V_SQ_ALU_OP2__MULHI_INT: *r = (uint32_t)(((int64_t)ia * ib) >> 32); return 0;
        case V_SQ_ALU_OP2__MULHI_UINT: *r = (uint32_t)(((uint64_t)ua * ub) >> 32); return 0;
        case V_SQ_ALU_OP2__MUL_UINT24: *r = (ua & 0xFFFFFFu) * (ub & 0xFFFFFFu); return 0;
        case V_SQ_ALU_OP2__BFREV_INT: {
            uint32_t v = 0;
            for (int i = 0; i < 32; i++)
                v |= ((ua >> i) & 1u) << (31 - i);
            *r = v;
            return 0;
        }
        case V_SQ_ALU_OP2__BCNT_INT: *r = (uint32_t)__builtin_popcount(ua); return 0;
        default: return -1;
        }
    }
    *r = eg_f2u(f);
    return 0;
}
