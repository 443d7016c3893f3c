/* Internal to src/shader/: the per-value rules of the ALU operations that
 * both eg_alu_eval (alu_ops.c, one lane) and the lane kernels (alu_lanes.c,
 * many lanes) apply; alu_ops.c's top comment says where each comes from. */
#ifndef CEDAR_SHADER_ALU_RULES_H
#define CEDAR_SHADER_ALU_RULES_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "eg_regs.h"
#include "interp.h"

/* A denormal read or written by an arithmetic op: a zero of its sign. */
static inline uint32_t alu_flush(uint32_t u)
{
    return (u & 0x7F800000u) == 0 ? u & 0x80000000u : u;
}

/* Addition and product with a stated NaN: where both operands are NaN,
 * the first one's, quieted.  (x86 gives the NaN of the instruction's first
 * operand, and a C compiler may swap the operands of a + b: the one-lane
 * and the many-lane code would then disagree.  With one NaN operand x86
 * gives that one, quieted, in either order.) */
static inline float alu_nan2(float a)
{
    return eg_u2f(eg_f2u(a) | 0x00400000u);
}

/* (Both tests taken, & not &&: a select without a branch, which the lane
 * kernels' loops can run in vector registers.) */
static inline float alu_add(float a, float b)
{
    float r = a + b;
    return (isnan(a) & isnan(b)) ? alu_nan2(a) : r;
}

static inline float alu_mul(float a, float b)
{
    float r = a * b;
    return (isnan(a) & isnan(b)) ? alu_nan2(a) : r;
}

/* Fused multiply-add, NaN stated the same way: the first NaN source. */
static inline float alu_fma(float a, float b, float c)
{
    if (isnan(a) || isnan(b) || isnan(c))
        return alu_nan2(isnan(a) ? a : isnan(b) ? b : c);
    return fmaf(a, b, c);
}

/* Legacy (DX9) multiply: 0 times anything, even Inf or NaN, is +0. */
static inline float alu_mul_legacy(float a, float b)
{
    float p = alu_mul(a, b);
    return ((a == 0.0f) | (b == 0.0f)) ? 0.0f : p;
}

static inline uint32_t alu_fbool(bool c)
{
    return c ? 0x3F800000u : 0u;    /* 1.0f, 0.0f */
}

static inline uint32_t alu_ibool(bool c)
{
    return c ? 0xFFFFFFFFu : 0u;
}

/* RECIP_CLAMPED and the like: an infinite result becomes +-FLT_MAX. */
static inline float alu_clamp_inf(float v)
{
    if (isinf(v))
        return v > 0 ? FLT_MAX : -FLT_MAX;
    return v;
}

static inline int32_t alu_flt_to_int(float v)
{
    if (isnan(v))
        return 0;
    if (v >= 2147483647.0f)
        return INT32_MAX;
    if (v <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)nearbyintf(v);
}

static inline uint32_t alu_flt_to_uint(float v)
{
    if (isnan(v) || v <= 0.0f)
        return 0;
    if (v >= 4294967295.0f)
        return UINT32_MAX;
    return (uint32_t)nearbyintf(v);
}

static inline int32_t alu_flt_to_int_floor(float v)
{
    return isnan(v) ? 0 : alu_flt_to_int(floorf(v));
}

/* floor(v + 0.5) without the rounding of the addition: v + 0.5 is not exact
 * for |v| >= 2^23, where v is already an integer. */
static inline int32_t alu_flt_to_int_rpi(float v)
{
    if (isnan(v))
        return 0;
    float f = floorf(v);
    return alu_flt_to_int(v - f >= 0.5f ? f + 1.0f : f);
}

/* OMOD (V_SQ_ALU_OMOD__*) and then CLAMP on a float result; integer
 * results do not take them. */
static inline uint32_t alu_out_mod(unsigned omod, bool clamp, uint32_t r)
{
    float f = eg_u2f(r);
    if (omod == V_SQ_ALU_OMOD__M2)
        f *= 2.0f;
    else if (omod == V_SQ_ALU_OMOD__M4)
        f *= 4.0f;
    else if (omod == V_SQ_ALU_OMOD__D2)
        f *= 0.5f;
    if (clamp)
        f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    return eg_f2u(f);
}

#endif
