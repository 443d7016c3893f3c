/* Semantics of the Evergreen ALU operations, as the interpreter models them
 * (AMD "Evergreen Family Instruction Set Architecture", ALU instruction
 * descriptions; which ops Mesa's r600 sfn compiler emits and how it uses
 * them: sfn_instr_alu.cpp).  eg_alu_eval does the single-slot ones;
 * eg_alu_eval_group the ones that read other slots of their group (DOT4,
 * DOT4_IEEE, MAX4, CUBE, DOT, DOT_IEEE).  INTERP_* are in interp.c.
 *
 * Floating-point rules modelled (and checked by tests/test_shader_alu.c and
 * tests/test_shader_alu_ops.c):
 *  - MUL, MULADD*, DOT4, DOT are the "legacy" (DX9) forms: 0 * x = +0 for
 *    every x, Inf and NaN included.  MUL_IEEE, MULADD_IEEE, DOT4_IEEE,
 *    DOT_IEEE follow IEEE-754 (0 * Inf = NaN).  FMA is fused.
 *  - MAX / MIN: src0 >= src1 ? src0 : src1 (resp. <), so a NaN in src1 of MAX
 *    wins and a NaN in src0 loses; MAX_DX10 / MIN_DX10 return the non-NaN
 *    operand (IEEE maxNum/minNum), else the same comparison as MAX/MIN (so the
 *    sign of a zero result follows the operand order, not maxNum's choice).
 *  - SETcc return 1.0 / 0.0; SETcc_DX10 and the integer SETs return ~0 / 0.
 *    Comparisons with NaN are false except SETNE (true).  CNDE / CNDGT /
 *    CNDGE compare src0 with 0 the same way, so a NaN selects src2.
 *  - The PRED_SET family keeps a "predicate counter" in its result: 0.0
 *    where the predicate is set, else how many levels the lane is off.
 *    Sources: Multi2Sim's Evergreen emulator (written from the Evergreen
 *    ISA document) gives PRED_SETcc(_INT) 0.0 where set, 1.0 else; AMD's
 *    Xenos (R500-era) documentation of the same ops, quoted in Xenia's
 *    ucode.h, gives that and the counter ops below (there with an implicit
 *    second operand 1.0 for POP).  Each sets the predicate (cond); the ALU word's
 *    UPDATE_PRED / UPDATE_EXECUTE_MASK decide what that changes.
 *      PRED_SETcc(a, b):      set = a cc b; result 0.0 / 1.0
 *      PRED_SET_INV(a):       set = a == 1.0; result 0.0, else 1.0 for
 *                             a == 0.0, else a
 *      PRED_SET_POP(a, b):    set = a - b <= 0.0; result 0.0, else a - b
 *      PRED_SET_CLR:          set = false; result FLT_MAX
 *      PRED_SET_RESTORE(a):   set = a == 0.0; result 0.0, else a
 *      PRED_SETcc_PUSH(a, b): set = a == 0.0 && b cc 0.0; result 0.0,
 *                             else a + 1.0 (a: the counter, b: the value)
 *    The integer PUSH forms (PRED_SETcc_PUSH_INT, also LT / LE) are
 *    modelled by analogy, no document text for them having been found:
 *    set = a == 0 && b cc 0 (signed), result 0, else the integer a + 1.
 *    Like the comparisons, these ops pass their sources' bits unflushed.
 *  - RECIP_IEEE(+-0) = +-Inf; RECIP_CLAMPED and RECIP_FF clamp an infinite
 *    result to +-FLT_MAX (RECIP_FF is modelled as RECIP_CLAMPED: the ISA
 *    document gives no case where they differ for finite operands).
 *    RECIPSQRT likewise; SQRT/RECIPSQRT of a negative number is NaN.
 *    LOG_CLAMPED(0) = -FLT_MAX, LOG_IEEE(0) = -Inf.
 *  - SIN / COS take the angle divided by 2*pi (Evergreen: the operand is in
 *    periods; the ISA document gives the valid domain as [-256, 256] periods;
 *    Mesa's sfn multiplies by 1/(2*pi) before emitting, as LLVM's R600
 *    backend does for Evergreen but not for R600).  Outside that domain the
 *    result is undefined; chosen: the same periodic function.
 *  - FLT_TO_INT / FLT_TO_UINT round to nearest even (Mesa emits TRUNC before
 *    them for C-style conversion), saturate, and map NaN to 0;
 *    FLT_TO_INT_FLOOR rounds down, FLT_TO_INT_RPI rounds half up
 *    (floor(x + 0.5)), both saturating the same way.
 *  - FLT32_TO_FLT16 rounds to nearest even (IEEE default; the document names
 *    no mode), gives the half in bits 0..15 and zeros above; Inf and NaN stay
 *    Inf and (quiet) NaN, overflow gives Inf.  FLT16_TO_FLT32 reads bits
 *    0..15 only (Mesa's unpackHalf2x16 feeds it the whole word for x).
 *  - Denormals: the arithmetic ops (ADD, the MULs, MULADDs and FMA, DOT4 /
 *    DOT4_IEEE / DOT / DOT_IEEE, EXP, LOG, RECIP*, RECIPSQRT*, SQRT, SIN,
 *    COS, FRACT) read a denormal source as a zero of its sign and give
 *    such a zero for a denormal result: the SQ_PGM_RESOURCES_2_* bits
 *    ALLOW_SINGLE_DENORM_IN / _OUT are 0 as Mesa programs them
 *    (evergreen_state.c writes only SINGLE_ROUND there; evergreend.h
 *    defines the bits).  Moves, selects (MAX, MIN, CND*), comparisons and
 *    conversions pass bits as they are (Mesa moves integers with MOV).
 *    The ALLOW bits themselves are not read (always 0 here).  NaN
 *    payloads are whatever the host's arithmetic produces, except that
 *    where both operands of an addition or product (or more sources of an
 *    FMA) are NaN the result is the first one's, quieted (alu_rules.h
 *    alu_add / alu_mul / alu_fma: stated, so that the one-lane and the
 *    many-lane code agree whatever order the compiler gives the operands).
 *
 * Integer rules:
 *  - Shifts (LSHL/LSHR/ASHR) use the low 5 bits of the shift count.
 *  - BFE_UINT/BFE_INT(x, offset, width): offset and width are their low 5
 *    bits; width 0 gives 0; the field (x >> offset) & ((1 << width) - 1),
 *    BFE_INT sign-extending it from bit width-1 and shifting arithmetically
 *    (nir ubfe / ibfe, which Mesa maps onto them 1:1).  BFM_INT(w, o) = ((1 << w[4:0]) - 1) << o[4:0].
 *    BFI_INT(m, a, b) = (m & a) | (~m & b).
 *  - BIT_ALIGN_INT(hi, lo, s) = low 32 bits of ({hi, lo} >> s[4:0]);
 *    BYTE_ALIGN_INT the same with a shift of 8 * s[1:0].
 *  - FFBH_UINT: the number of leading zeros, -1 for 0 (nir ufind_msb_rev);
 *    FFBH_INT: the leading bits equal to the sign bit, -1 for 0 and -1
 *    (nir ifind_msb_rev); FFBL_INT: trailing zeros, -1 for 0 (find_lsb).
 *  - ADDC_UINT: the carry out of src0 + src1; SUBB_UINT: the borrow of
 *    src0 - src1 (1 when src0 < src1 unsigned).
 *  - RECIP_UINT: 2^32 / src0 truncated, 0xFFFFFFFF for 0 and 1 (the document
 *    gives the result as an estimate of 2^32/x that the division sequence
 *    corrects; chosen: the exact quotient, which every correction step
 *    leaves as it is).  RECIP_INT: the same on |src0|, negated for a
 *    negative src0 (all ones again when |src0| <= 1).
 *  - MUL_UINT24 / MULHI_UINT24 / MULADD_UINT24: the low 24 bits of each
 *    factor; MULHI_UINT24 gives bits 32..47 of the 48-bit product.
 *  - UBYTEn_FLT: byte n of src0 as a float.
 */
#include <float.h>
#include <math.h>

#include "eg_regs.h"
#include "alu_rules.h"
#include "interp.h"

float eg_mul_legacy(float a, float b)
{
    return alu_mul_legacy(a, b);
}

/* sin / cos of an angle given in periods, reduced to [-0.5, 0.5] exactly
 * (x - rint(x) is exact in binary floating point) before the double
 * evaluation, so large arguments keep their period. */
static float trig(float periods, bool cosine)
{
    if (isinf(periods) || isnan(periods))
        return NAN;
    double r = (double)periods - rint((double)periods);
    double rad = 2.0 * 3.14159265358979323846 * r;
    return (float)(cosine ? cos(rad) : sin(rad));
}

/* IEEE binary32 to binary16 bits, round to nearest even. */
static uint32_t flt32_to_flt16(float f)
{
    uint32_t u = eg_f2u(f), sign = (u >> 16) & 0x8000u;
    uint32_t e = (u >> 23) & 0xFF, m = u & 0x7FFFFFu;
    if (e == 0xFF)
        return sign | 0x7C00u | (m ? 0x200u : 0);
    float a = fabsf(f);
    if (a >= 65520.0f)      /* rounds past the largest half, 65504 */
        return sign | 0x7C00u;
    if (a < 0x1p-14f) {
        /* subnormal half: a multiple of 2^-24, rounded to nearest even */
        return sign | (uint32_t)nearbyintf(a * 0x1p24f);
    }
    int exp = (int)e - 127 + 15;
    uint32_t mant = m >> 13, rest = m & 0x1FFFu;
    uint32_t h = ((uint32_t)exp << 10) | mant;
    if (rest > 0x1000u || (rest == 0x1000u && (mant & 1)))
        h++;            /* may carry into the exponent: still correct */
    return sign | h;
}

float eg_half_to_float(uint32_t h)
{
    unsigned sign = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 1024), (int)e - 25);
    return sign ? -v : v;
}

static uint32_t ffbh_uint(uint32_t v)
{
    return v ? (uint32_t)__builtin_clz(v) : 0xFFFFFFFFu;
}

static uint32_t ffbh_int(uint32_t v)
{
    uint32_t x = (v & 0x80000000u) ? ~v : v;
    return x ? (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu;
}

static uint32_t recip_uint(uint32_t v)
{
    return v <= 1 ? 0xFFFFFFFFu : (uint32_t)((UINT64_C(1) << 32) / v);
}

static uint32_t recip_int(int32_t v)
{
    uint32_t mag = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    if (mag <= 1)
        return 0xFFFFFFFFu;
    uint32_t q = recip_uint(mag);
    return v < 0 ? 0u - q : q;
}

static uint32_t bfe(uint32_t x, uint32_t offset, uint32_t width, bool sign)
{
    unsigned off = offset & 31, w = width & 31;
    if (!w)
        return 0;
    /* BFE_INT shifts arithmetically: a field reaching past bit 31 takes
     * copies of the sign bit (nir ibfe: x >> offset when offset + width >= 32) */
    uint32_t f = (sign ? (uint32_t)((int32_t)x >> off) : x >> off) & ((1u << w) - 1);
    if (sign && (f >> (w - 1)) & 1)
        f |= ~((1u << w) - 1);
    return f;
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

/* The predicate-counter ops (see the top): 0 with *r and *fx set, -1 when
 * op is none of them. */
static int pred_counter(unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    float a = eg_u2f(s[0]), b = eg_u2f(s[1]);
    int32_t ia = (int32_t)s[0], ib = (int32_t)s[1];
    bool set;
    float res;
    switch (op) {
    case V_SQ_ALU_OP2__PRED_SET_INV:
        set = a == 1.0f;
        res = set ? 0.0f : a == 0.0f ? 1.0f : a;
        break;
    case V_SQ_ALU_OP2__PRED_SET_POP: {
        float d = a - b;
        set = d <= 0.0f;
        res = set ? 0.0f : d;
        break;
    }
    case V_SQ_ALU_OP2__PRED_SET_CLR:
        set = false;
        res = FLT_MAX;
        break;
    case V_SQ_ALU_OP2__PRED_SET_RESTORE:
        set = a == 0.0f;
        res = set ? 0.0f : a;
        break;
    default: {
        /* swap: the value is the comparison's second operand (LT / LE as 0 > b, 0 >= b) */
        static const struct { unsigned op; enum cc cc; bool integer, swap; } push[] = {
            { V_SQ_ALU_OP2__PRED_SETE_PUSH, CC_E, false, false },
            { V_SQ_ALU_OP2__PRED_SETGT_PUSH, CC_GT, false, false },
            { V_SQ_ALU_OP2__PRED_SETGE_PUSH, CC_GE, false, false },
            { V_SQ_ALU_OP2__PRED_SETNE_PUSH, CC_NE, false, false },
            { V_SQ_ALU_OP2__PRED_SETE_PUSH_INT, CC_E, true, false },
            { V_SQ_ALU_OP2__PRED_SETGT_PUSH_INT, CC_GT, true, false },
            { V_SQ_ALU_OP2__PRED_SETGE_PUSH_INT, CC_GE, true, false },
            { V_SQ_ALU_OP2__PRED_SETNE_PUSH_INT, CC_NE, true, false },
            { V_SQ_ALU_OP2__PRED_SETLT_PUSH_INT, CC_GT, true, true },
            { V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT, CC_GE, true, true },
        };
        unsigned i = 0;
        while (i < sizeof push / sizeof push[0] && push[i].op != op)
            i++;
        if (i == sizeof push / sizeof push[0])
            return -1;
        fx->is_pred = true;
        if (push[i].integer) {
            fx->cond = ia == 0 && (push[i].swap ? icc(push[i].cc, 0, ib) : icc(push[i].cc, ib, 0));
            fx->int_result = true;
            *r = fx->cond ? 0u : (uint32_t)ia + 1u;
        } else {
            fx->cond = a == 0.0f && fcc(push[i].cc, b, 0.0f);
            *r = eg_f2u(fx->cond ? 0.0f : a + 1.0f);
        }
        return 0;
    }
    }
    fx->is_pred = true;
    fx->cond = set;
    *r = eg_f2u(res);
    return 0;
}

static int eval_op3(unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    float a = eg_u2f(s[0]), b = eg_u2f(s[1]), c = eg_u2f(s[2]);
    switch (op) {
    case V_SQ_ALU_OP3__MULADD: *r = eg_f2u(alu_add(alu_mul_legacy(a, b), c)); return 0;
    case V_SQ_ALU_OP3__MULADD_M2: *r = eg_f2u(alu_add(alu_mul_legacy(a, b), c) * 2.0f); return 0;
    case V_SQ_ALU_OP3__MULADD_M4: *r = eg_f2u(alu_add(alu_mul_legacy(a, b), c) * 4.0f); return 0;
    case V_SQ_ALU_OP3__MULADD_D2: *r = eg_f2u(alu_add(alu_mul_legacy(a, b), c) * 0.5f); return 0;
    case V_SQ_ALU_OP3__MULADD_IEEE: *r = eg_f2u(alu_add(alu_mul(a, b), c)); return 0;
    case V_SQ_ALU_OP3__FMA: *r = eg_f2u(alu_fma(a, b, c)); return 0;
    case V_SQ_ALU_OP3__CNDE: *r = a == 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDGT: *r = a > 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDGE: *r = a >= 0.0f ? s[1] : s[2]; return 0;
    case V_SQ_ALU_OP3__CNDE_INT: *r = (int32_t)s[0] == 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__CNDGT_INT: *r = (int32_t)s[0] > 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__CNDGE_INT: *r = (int32_t)s[0] >= 0 ? s[1] : s[2]; fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__BFE_UINT: *r = bfe(s[0], s[1], s[2], false); fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__BFE_INT: *r = bfe(s[0], s[1], s[2], true); fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__BIT_ALIGN_INT:
        *r = (uint32_t)((((uint64_t)s[0] << 32) | s[1]) >> (s[2] & 31));
        fx->int_result = true;
        return 0;
    case V_SQ_ALU_OP3__BYTE_ALIGN_INT:
        *r = (uint32_t)((((uint64_t)s[0] << 32) | s[1]) >> (8 * (s[2] & 3)));
        fx->int_result = true;
        return 0;
    case V_SQ_ALU_OP3__BFI_INT: *r = (s[0] & s[1]) | (~s[0] & s[2]); fx->int_result = true; return 0;
    case V_SQ_ALU_OP3__MULADD_UINT24:
        *r = (s[0] & 0xFFFFFFu) * (s[1] & 0xFFFFFFu) + s[2];
        fx->int_result = true;
        return 0;
    default: return -1;
    }
}

/* The ops that flush denormal sources and results (see the top). */
static bool flushes(bool op3, unsigned op)
{
    if (op3)
        return op == V_SQ_ALU_OP3__MULADD || op == V_SQ_ALU_OP3__MULADD_M2 || op == V_SQ_ALU_OP3__MULADD_M4 ||
               op == V_SQ_ALU_OP3__MULADD_D2 || op == V_SQ_ALU_OP3__MULADD_IEEE || op == V_SQ_ALU_OP3__FMA;
    switch (op) {
    case V_SQ_ALU_OP2__ADD: case V_SQ_ALU_OP2__MUL: case V_SQ_ALU_OP2__MUL_IEEE: case V_SQ_ALU_OP2__FRACT:
    case V_SQ_ALU_OP2__EXP_IEEE: case V_SQ_ALU_OP2__LOG_CLAMPED: case V_SQ_ALU_OP2__LOG_IEEE:
    case V_SQ_ALU_OP2__RECIP_CLAMPED: case V_SQ_ALU_OP2__RECIP_FF: case V_SQ_ALU_OP2__RECIP_IEEE:
    case V_SQ_ALU_OP2__RECIPSQRT_CLAMPED: case V_SQ_ALU_OP2__RECIPSQRT_FF: case V_SQ_ALU_OP2__RECIPSQRT_IEEE:
    case V_SQ_ALU_OP2__SQRT_IEEE: case V_SQ_ALU_OP2__SIN: case V_SQ_ALU_OP2__COS:
        return true;
    default:
        return false;
    }
}

static int eval(bool op3, unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx);

int eg_alu_eval(bool op3, unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    if (!flushes(op3, op))
        return eval(op3, op, s, r, fx);
    const uint32_t f[3] = { alu_flush(s[0]), alu_flush(s[1]), alu_flush(s[2]) };
    int rc = eval(op3, op, f, r, fx);
    if (rc == 0)
        *r = alu_flush(*r);
    return rc;
}

uint32_t eg_alu_reduce4(unsigned op, const uint32_t a[4], const uint32_t b[4])
{
    float acc = op == V_SQ_ALU_OP2__MAX4 ? -INFINITY : 0.0f;
    for (int k = 0; k < 4; k++) {
        if (op == V_SQ_ALU_OP2__MAX4) {
            float x = eg_u2f(a[k]);
            acc = x >= acc ? x : acc;
        } else {
            float x = eg_u2f(alu_flush(a[k])), y = eg_u2f(alu_flush(b[k]));
            acc = alu_add(acc, op == V_SQ_ALU_OP2__DOT4 ? alu_mul_legacy(x, y) : alu_mul(x, y));
        }
    }
    return op == V_SQ_ALU_OP2__MAX4 ? eg_f2u(acc) : alu_flush(eg_f2u(acc));
}

static int eval(bool op3, unsigned op, const uint32_t s[3], uint32_t *r, struct alu_effects *fx)
{
    *fx = (struct alu_effects){ 0 };
    if (op3)
        return eval_op3(op, s, r, fx);

    float a = eg_u2f(s[0]), b = eg_u2f(s[1]);
    int32_t ia = (int32_t)s[0], ib = (int32_t)s[1];
    uint32_t ua = s[0], ub = s[1];

    /* one table for SET / KILL / PRED_SET (static: not rebuilt on the
     * stack for every instruction of every pixel) */
    static const struct { unsigned op; enum cc cc; char kind; char type; } cmp[] = {
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
    float f;
    switch (op) {
    case V_SQ_ALU_OP2__ADD: f = alu_add(a, b); break;
    case V_SQ_ALU_OP2__MUL: f = alu_mul_legacy(a, b); break;
    case V_SQ_ALU_OP2__MUL_IEEE: f = alu_mul(a, b); break;
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
    case V_SQ_ALU_OP2__LOG_CLAMPED: f = alu_clamp_inf(log2f(a)); break;
    case V_SQ_ALU_OP2__RECIP_IEEE: f = 1.0f / a; break;
    case V_SQ_ALU_OP2__RECIP_CLAMPED:
    case V_SQ_ALU_OP2__RECIP_FF: f = alu_clamp_inf(1.0f / a); break;
    case V_SQ_ALU_OP2__RECIPSQRT_IEEE: f = 1.0f / sqrtf(a); break;
    case V_SQ_ALU_OP2__RECIPSQRT_CLAMPED:
    case V_SQ_ALU_OP2__RECIPSQRT_FF: f = alu_clamp_inf(1.0f / sqrtf(a)); break;
    case V_SQ_ALU_OP2__SQRT_IEEE: f = sqrtf(a); break;
    case V_SQ_ALU_OP2__SIN: f = trig(a, false); break;
    case V_SQ_ALU_OP2__COS: f = trig(a, true); break;
    case V_SQ_ALU_OP2__FLT16_TO_FLT32: f = eg_half_to_float(ua); break;
    case V_SQ_ALU_OP2__UBYTE0_FLT: f = (float)(ua & 0xFF); break;
    case V_SQ_ALU_OP2__UBYTE1_FLT: f = (float)((ua >> 8) & 0xFF); break;
    case V_SQ_ALU_OP2__UBYTE2_FLT: f = (float)((ua >> 16) & 0xFF); break;
    case V_SQ_ALU_OP2__UBYTE3_FLT: f = (float)(ua >> 24); break;
    case V_SQ_ALU_OP2__INT_TO_FLT: f = (float)ia; break;
    case V_SQ_ALU_OP2__UINT_TO_FLT: f = (float)ua; break;
    default:
        /* the comparisons: looked up only for ops the switch above does
         * not take (the arithmetic ones run per lane of every pixel) */
        for (unsigned i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
            if (cmp[i].op != op)
                continue;
            bool c = cmp[i].type == 'f' ? fcc(cmp[i].cc, a, b)
                   : cmp[i].type == 'i' ? icc(cmp[i].cc, ia, ib) : ucc(cmp[i].cc, ua, ub);
            switch (cmp[i].kind) {
            case 'S': *r = alu_fbool(c); break;
            case 'D': *r = alu_ibool(c); fx->int_result = true; break;
            case 'K': *r = alu_fbool(c); fx->kill = c; break;
            default: *r = alu_fbool(!c); fx->is_pred = true; fx->cond = c; break;
            }
            return 0;
        }
        if (!pred_counter(op, s, r, fx))
            return 0;
        fx->int_result = true;
        switch (op) {
        case V_SQ_ALU_OP2__FLT_TO_INT: *r = (uint32_t)alu_flt_to_int(a); return 0;
        case V_SQ_ALU_OP2__FLT_TO_UINT: *r = alu_flt_to_uint(a); return 0;
        case V_SQ_ALU_OP2__FLT_TO_INT_FLOOR: *r = (uint32_t)alu_flt_to_int_floor(a); return 0;
        case V_SQ_ALU_OP2__FLT_TO_INT_RPI: *r = (uint32_t)alu_flt_to_int_rpi(a); return 0;
        case V_SQ_ALU_OP2__FLT32_TO_FLT16: *r = flt32_to_flt16(a); return 0;
        case V_SQ_ALU_OP2__ADDC_UINT: *r = ua + ub < ua; return 0;
        case V_SQ_ALU_OP2__SUBB_UINT: *r = ua < ub; return 0;
        case V_SQ_ALU_OP2__RECIP_UINT: *r = recip_uint(ua); return 0;
        case V_SQ_ALU_OP2__RECIP_INT: *r = recip_int(ia); return 0;
        case V_SQ_ALU_OP2__BFM_INT: *r = ((1u << (ua & 31)) - 1) << (ub & 31); return 0;
        case V_SQ_ALU_OP2__FFBH_UINT: *r = ffbh_uint(ua); return 0;
        case V_SQ_ALU_OP2__FFBH_INT: *r = ffbh_int(ua); return 0;
        case V_SQ_ALU_OP2__FFBL_INT: *r = ua ? (uint32_t)__builtin_ctz(ua) : 0xFFFFFFFFu; return 0;
        case V_SQ_ALU_OP2__MULHI_UINT24:
            *r = (uint32_t)(((uint64_t)(ua & 0xFFFFFFu) * (ub & 0xFFFFFFu)) >> 32);
            return 0;
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

bool eg_alu_is_group_op(bool op3, unsigned op)
{
    return !op3 && (op == V_SQ_ALU_OP2__DOT4 || op == V_SQ_ALU_OP2__DOT4_IEEE || op == V_SQ_ALU_OP2__MAX4 ||
                    op == V_SQ_ALU_OP2__CUBE || op == V_SQ_ALU_OP2__DOT || op == V_SQ_ALU_OP2__DOT_IEEE);
}

/* CUBE (nir_op_cube_amd, which Mesa emits as CUBE with src0 = (z, z, x, y),
 * src1 = (y, x, z, z) over slots x..w): the face whose axis has the largest
 * magnitude, ties going to z, then y (the order nir's definition and GCN's
 * V_CUBEID document; the Evergreen document gives none), and the face's
 * s / t coordinates and twice the signed major axis:
 *   slot x: t, slot y: s, slot z: 2 * major axis, slot w: face id (float). */
static void cube(float x, float y, float z, uint32_t out[4])
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), s, t, ma, id;
    if (az >= ax && az >= ay) {
        ma = z;
        id = z >= 0 ? 4.0f : 5.0f;
        s = z >= 0 ? x : -x;
        t = -y;
    } else if (ay >= ax) {
        ma = y;
        id = y >= 0 ? 2.0f : 3.0f;
        s = x;
        t = y >= 0 ? z : -z;
    } else {
        ma = x;
        id = x >= 0 ? 0.0f : 1.0f;
        s = x >= 0 ? -z : z;
        t = -y;
    }
    out[0] = eg_f2u(t);
    out[1] = eg_f2u(s);
    out[2] = eg_f2u(2.0f * ma);
    out[3] = eg_f2u(id);
}

int eg_alu_eval_group(const struct eg_alu_group_slot slot[4], uint32_t result[4], const char **why)
{
    bool any4 = false;
    for (int k = 0; k < 4; k++)
        if (slot[k].used && eg_alu_is_group_op(slot[k].op3, slot[k].op) && slot[k].op != V_SQ_ALU_OP2__DOT &&
            slot[k].op != V_SQ_ALU_OP2__DOT_IEEE)
            any4 = true;
    if (any4) {
        /* four-slot ops: each of x..w contributes, all get the result (CUBE:
         * each its own component) */
        unsigned op = 0;
        for (int k = 0; k < 4; k++)
            if (slot[k].used && eg_alu_is_group_op(false, slot[k].op))
                op = slot[k].op;
        for (int k = 0; k < 4; k++)
            if (!slot[k].used || slot[k].op3 || slot[k].op != op) {
                *why = "needs all four vector slots";
                return -1;
            }
        if (op == V_SQ_ALU_OP2__CUBE) {
            cube(eg_u2f(slot[2].src[0]), eg_u2f(slot[3].src[0]), eg_u2f(slot[0].src[0]), result);
            return 0;
        }
        uint32_t sa[4], sb[4];
        for (int k = 0; k < 4; k++)
            sa[k] = slot[k].src[0], sb[k] = slot[k].src[1];
        uint32_t r = eg_alu_reduce4(op, sa, sb);
        for (int k = 0; k < 4; k++)
            result[k] = r;
        return 0;
    }
    /* DOT / DOT_IEEE (Mesa r600_isa.c: AF_PREV_NEXT): the product plus the
     * next slot's result; Mesa's sfn splits an n-component dot into DOTs in
     * slots c .. c+n-2 and a MUL(_IEEE) in slot c+n-1, the sum landing in
     * slot c.  So the slots are evaluated from w down. */
    for (int k = 3; k >= 0; k--) {
        if (!slot[k].used || !eg_alu_is_group_op(slot[k].op3, slot[k].op))
            continue;
        if (k == 3 || !slot[k + 1].used) {
            *why = "DOT without an instruction in the next slot";
            return -1;
        }
        float a = eg_u2f(alu_flush(slot[k].src[0])), b = eg_u2f(alu_flush(slot[k].src[1]));
        float p = slot[k].op == V_SQ_ALU_OP2__DOT ? alu_mul_legacy(a, b) : alu_mul(a, b);
        result[k] = alu_flush(eg_f2u(alu_add(p, eg_u2f(alu_flush(result[k + 1])))));
    }
    return 0;
}
