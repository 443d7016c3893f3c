/* The lane kernels (src/shader/alu_lanes.c) against the one-lane reference
 * eg_alu_eval (src/shader/alu_ops.c), bit for bit: every op that has a
 * kernel, over all pairs (triples for three-source ops) of special values
 * (+-0, +-denormals, +-Inf, NaNs with and without payloads, 1.0, -1.0,
 * large and small numbers, INT_MIN / INT_MAX ...) and many pseudo-random
 * sources, with the same integer-result flag and the same KILL / predicate
 * condition per lane, and no write past the lanes asked for.  Each op's
 * rule is also checked against hand-computed IEEE-754 vectors (the rules
 * alu_ops.c states: legacy MUL, denormal flushing of the arithmetic ops
 * only, NaN in MAX / MIN, round-to-nearest-even conversions ...), through
 * both the kernel and eg_alu_eval; every kernel op must have some.  Also
 * the DOT4 / DOT4_IEEE / MAX4 kernel against eg_alu_reduce4, and the
 * OMOD / CLAMP kernel against hand-computed vectors. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "eg_regs.h"
#include "src/shader/alu_lanes.h"
#include "src/shader/interp.h"
#include "tests/common/test_util.h"

#define NL EG_LANES_MAX
#define ANY_NAN 0xFFFFFFFFu     /* expected: some NaN (the payload is the host's) */
#define SENTINEL 0xDEADBEEFu

static const uint32_t specials[] = {
    0x00000000u, 0x80000000u,                       /* +0, -0 (also INT_MIN) */
    0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00400000u, /* denormals */
    0x00800000u, 0x80800000u,                       /* smallest normals */
    0x7F800000u, 0xFF800000u,                       /* +-Inf */
    0x7FC00000u, 0xFFC00000u, 0x7FC12345u, 0x7F800001u, 0xFFA00005u, /* NaNs, quiet and signalling */
    0x7FFFFFFFu,                                    /* INT_MAX (a NaN) */
    0x3F800000u, 0xBF800000u, 0x3F000000u, 0x40000000u, 0xC0200000u, /* 1, -1, 0.5, 2, -2.5 */
    0x3FC00000u, 0x40200000u, 0x40600000u,          /* 1.5, 2.5, 3.5 */
    0x3EFFFFFFu,                                    /* 0.49999997 */
    0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F000000u, 0x0C000000u, 0x8C000000u, /* FLT_MAX, -FLT_MAX, 2^127, +-2^-103 */
    0x4F000000u, 0xCF000000u, 0x4F800000u, 0x4B000001u, /* 2^31, -2^31, 2^32, 2^23 + 1 */
    0x00000002u, 0x0000001Fu, 0x00000020u, 0x00000021u, 0xFFFFFFFFu, 0x00FFFFFFu, 0x01000001u,
    0x11223344u, 0xFFFFFF00u,
};
#define NSPEC (sizeof specials / sizeof specials[0])

static uint32_t rng = 0x9E3779B9u;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

/* A random source: random bits, a float in a small range, a small integer,
 * or a special value. */
static uint32_t rand_value(void)
{
    switch (next() % 5) {
    case 0: return next();
    case 1: return test_f2u((float)(int32_t)(next() % 200001u - 100000) / 1000.0f);
    case 2: return (uint32_t)((int32_t)(next() % 201u) - 100);
    case 3: return specials[next() % NSPEC];
    default: return (next() & 0x807FFFFFu) | ((100u + next() % 56u) << 23); /* floats 2^-27 .. 2^28 */
    }
}

/* Run the kernel over n lanes of sources s and compare every lane with
 * eg_alu_eval. */
static void compare_lanes(bool op3, unsigned op, const struct eg_lanes_kernel *k, uint32_t s[3][NL], unsigned n)
{
    uint32_t r[NL];
    for (unsigned l = 0; l < NL; l++)
        r[l] = SENTINEL;
    const uint32_t *in[3] = { s[0], s[1], s[2] };
    uint64_t cond = k->run(in, r, n);
    for (unsigned l = 0; l < NL; l++) {
        if (l >= n) {
            if (r[l] != SENTINEL)
                fail_msg("%s op 0x%x: lane %u written past n = %u", op3 ? "OP3" : "OP2", op, l, n);
            if ((cond >> l) & 1u)
                fail_msg("%s op 0x%x: condition for lane %u past n = %u", op3 ? "OP3" : "OP2", op, l, n);
            continue;
        }
        const uint32_t src[3] = { s[0][l], s[1][l], s[2][l] };
        uint32_t want;
        struct alu_effects fx;
        assert_int_equal(eg_alu_eval(op3, op, src, &want, &fx), 0);
        bool c = (cond >> l) & 1u;
        if (r[l] != want || fx.int_result != k->int_result)
            fail_msg("%s %s (0x%x): sources %08x %08x %08x: kernel %08x (int %d), eg_alu_eval %08x (int %d)",
                     op3 ? "OP3" : "OP2", eg_alu_op_name(op3, op), op, src[0], src[1], src[2], r[l],
                     k->int_result, want, fx.int_result);
        bool want_c = k->effect == EG_LANES_KILL ? fx.kill : k->effect == EG_LANES_PRED ? fx.cond : false;
        if (c != want_c || fx.is_pred != (k->effect == EG_LANES_PRED) ||
            (fx.kill && k->effect != EG_LANES_KILL))
            fail_msg("%s (0x%x): sources %08x %08x: condition %d, eg_alu_eval kill %d pred %d cond %d",
                     eg_alu_op_name(op3, op), op, src[0], src[1], c, fx.kill, fx.is_pred, fx.cond);
    }
}

static void kernels_equal_eval(void **state)
{
    (void)state;
    unsigned nops = 0;
    uint64_t lanes = 0;
    for (int form = 0; form < 2; form++) {
        bool op3 = form == 1;
        for (unsigned op = 0; op < (op3 ? 32u : 256u); op++) {
            const struct eg_lanes_kernel *k = eg_lanes_kernel(op3, op);
            if (!k)
                continue;
            nops++;
            uint32_t s[3][NL];
            unsigned n = 0;
            /* every pair of specials, src2 cycling; every triple for OP3 */
            for (unsigned i = 0; i < NSPEC; i++)
                for (unsigned j = 0; j < NSPEC; j++)
                    for (unsigned m = 0; m < (op3 ? NSPEC : 1); m++) {
                        s[0][n] = specials[i];
                        s[1][n] = specials[j];
                        s[2][n] = specials[op3 ? m : (i + j) % NSPEC];
                        if (++n == NL) {
                            compare_lanes(op3, op, k, s, n);
                            lanes += n;
                            n = 0;
                        }
                    }
            if (n)
                compare_lanes(op3, op, k, s, n);
            lanes += n;
            /* random sources, in runs of every length 1 .. NL */
            for (unsigned run = 0; run < 400; run++) {
                n = 1 + run % NL;
                for (unsigned l = 0; l < n; l++)
                    for (unsigned i = 0; i < 3; i++)
                        s[i][l] = rand_value();
                compare_lanes(op3, op, k, s, n);
                lanes += n;
            }
        }
    }
    print_message("%u ops with a kernel, %llu lanes compared\n", nops, (unsigned long long)lanes);
    assert_true(nops >= 60);
}

/* ---- hand-computed vectors */

struct vec {
    bool op3;
    unsigned op;
    uint32_t a, b, c;
    uint32_t want;      /* ANY_NAN: some NaN */
    int cond;           /* KILL / PRED_SET: the lane's condition (0 / 1); -1 for the others */
};

#define V2(op, a, b, want) { false, V_SQ_ALU_OP2__##op, a, b, 0, want, -1 }
#define V2C(op, a, b, want, cond) { false, V_SQ_ALU_OP2__##op, a, b, 0, want, cond }
#define V3(op, a, b, c, want) { true, V_SQ_ALU_OP3__##op, a, b, c, want, -1 }

/* 1.0 3F800000, 2.0 40000000, 3.0 40400000, -1.0 BF800000, 0.25 3E800000,
 * 0.5 3F000000, 4.0 40800000, Inf 7F800000, FLT_MAX 7F7FFFFF */
static const struct vec vecs[] = {
    /* ADD / MUL / MUL_IEEE: denormal sources and results are zeros of their sign */
    V2(ADD, 0x3F800000u, 0x40000000u, 0x40400000u),                 /* 1 + 2 = 3 */
    V2(ADD, 0x00000001u, 0x00000000u, 0x00000000u),                 /* denormal + 0 = +0 */
    V2(ADD, 0x00800000u, 0x80000001u, 0x00800000u),                 /* 2^-126 + (-denormal -> -0) */
    V2(ADD, 0x00000001u, 0x00800000u, 0x00800000u),                 /* (denormal -> +0) + 2^-126 */
    V2(ADD, 0x00800001u, 0x80800000u, 0x00000000u),                 /* exact 2^-149: denormal result -> +0 */
    V2(ADD, 0x7F800000u, 0xFF800000u, ANY_NAN),                     /* Inf - Inf */
    V2(MUL, 0x00000000u, 0x7F800000u, 0x00000000u),                 /* legacy: 0 * Inf = 0 */
    V2(MUL, 0x7FC00000u, 0x80000000u, 0x00000000u),                 /* legacy: NaN * -0 = +0 */
    V2(MUL, 0x40000000u, 0x40400000u, 0x40C00000u),                 /* 2 * 3 = 6 */
    V2(MUL, 0x00400000u, 0x7F000000u, 0x00000000u),                 /* denormal source -> 0 */
    V2(MUL_IEEE, 0x00000000u, 0x7F800000u, ANY_NAN),                /* IEEE: 0 * Inf = NaN */
    V2(MUL_IEEE, 0x00800000u, 0x3F000000u, 0x00000000u),            /* 2^-127: denormal result -> +0 */
    V2(MUL_IEEE, 0x80800000u, 0x3F000000u, 0x80000000u),            /* -2^-127 -> -0 */
    V2(MUL_IEEE, 0x40000000u, 0xBF800000u, 0xC0000000u),            /* 2 * -1 = -2 */
    /* MAX / MIN: src0 >= src1 ? src0 : src1 (<); the DX10 forms drop a NaN */
    V2(MAX, 0x3F800000u, 0x40000000u, 0x40000000u),
    V2(MAX, 0x7FC00000u, 0x3F800000u, 0x3F800000u),                 /* NaN in src0 loses */
    V2(MAX, 0x3F800000u, 0x7FC12345u, 0x7FC12345u),                 /* NaN in src1 wins */
    V2(MAX, 0x80000000u, 0x00000000u, 0x80000000u),                 /* -0 >= +0: src0 */
    V2(MAX, 0x00000001u, 0x00000000u, 0x00000001u),                 /* denormal kept */
    V2(MIN, 0x7FC00000u, 0x3F800000u, 0x3F800000u),
    V2(MIN, 0x3F800000u, 0x7FC12345u, 0x7FC12345u),
    V2(MIN, 0x00000000u, 0x80000000u, 0x80000000u),                 /* +0 < -0 false: src1 */
    V2(MAX_DX10, 0x7FC00000u, 0x3F800000u, 0x3F800000u),
    V2(MAX_DX10, 0x3F800000u, 0x7FC00000u, 0x3F800000u),
    V2(MAX_DX10, 0x00000000u, 0x80000000u, 0x00000000u),
    V2(MIN_DX10, 0x3F800000u, 0x7FC00000u, 0x3F800000u),
    V2(MIN_DX10, 0x7FC00000u, 0xBF800000u, 0xBF800000u),
    V2(MIN_DX10, 0x40000000u, 0x3F800000u, 0x3F800000u),
    /* SET: 1.0 / 0.0; SET_DX10 and the integer SETs: ~0 / 0; NaN compares false but NE */
    V2(SETE, 0x00000000u, 0x80000000u, 0x3F800000u),                /* +0 == -0 */
    V2(SETE, 0x7FC00000u, 0x7FC00000u, 0x00000000u),
    V2(SETGT, 0x40000000u, 0x3F800000u, 0x3F800000u),
    V2(SETGT, 0x00000001u, 0x00000000u, 0x3F800000u),               /* denormals compare as they are */
    V2(SETGE, 0x3F800000u, 0x3F800000u, 0x3F800000u),
    V2(SETGE, 0x7FC00000u, 0x3F800000u, 0x00000000u),
    V2(SETNE, 0x7FC00000u, 0x7FC00000u, 0x3F800000u),
    V2(SETNE, 0x3F800000u, 0x3F800000u, 0x00000000u),
    V2(SETE_DX10, 0x3F800000u, 0x3F800000u, 0xFFFFFFFFu),
    V2(SETE_DX10, 0x7FC00000u, 0x3F800000u, 0x00000000u),
    V2(SETGT_DX10, 0x3F800000u, 0xBF800000u, 0xFFFFFFFFu),
    V2(SETGE_DX10, 0xBF800000u, 0x3F800000u, 0x00000000u),
    V2(SETNE_DX10, 0x7FC00000u, 0x3F800000u, 0xFFFFFFFFu),
    V2(SETNE_DX10, 0x00000000u, 0x80000000u, 0x00000000u),
    V2(SETE_INT, 0x80000000u, 0x00000000u, 0x00000000u),            /* integers: -0 is not 0 */
    V2(SETE_INT, 0x00000007u, 0x00000007u, 0xFFFFFFFFu),
    V2(SETGT_INT, 0x00000000u, 0xFFFFFFFFu, 0xFFFFFFFFu),           /* 0 > -1 */
    V2(SETGE_INT, 0x80000000u, 0x7FFFFFFFu, 0x00000000u),           /* INT_MIN >= INT_MAX: no */
    V2(SETNE_INT, 0x00000001u, 0x00000002u, 0xFFFFFFFFu),
    V2(SETGT_UINT, 0x00000000u, 0xFFFFFFFFu, 0x00000000u),          /* 0 > 4294967295: no */
    V2(SETGE_UINT, 0x00000005u, 0x00000005u, 0xFFFFFFFFu),
    /* FRACT (flushes), the roundings (do not) */
    V2(FRACT, 0x3FA00000u, 0, 0x3E800000u),                         /* 1.25 -> 0.25 */
    V2(FRACT, 0xBFA00000u, 0, 0x3F400000u),                         /* -1.25 -> 0.75 */
    V2(FRACT, 0x80000005u, 0, 0x00000000u),                         /* -denormal -> -0 - -0 = +0 */
    V2(FRACT, 0x7F800000u, 0, ANY_NAN),
    V2(TRUNC, 0xBFC00000u, 0, 0xBF800000u),                         /* -1.5 -> -1 */
    V2(CEIL, 0x3F99999Au, 0, 0x40000000u),                          /* 1.2 -> 2 */
    V2(CEIL, 0xBF000000u, 0, 0x80000000u),                          /* -0.5 -> -0 */
    V2(RNDNE, 0x40200000u, 0, 0x40000000u),                         /* 2.5 -> 2 */
    V2(RNDNE, 0x40600000u, 0, 0x40800000u),                         /* 3.5 -> 4 */
    V2(FLOOR, 0xBF000000u, 0, 0xBF800000u),                         /* -0.5 -> -1 */
    V2(FLOOR, 0x80000001u, 0, 0xBF800000u),                         /* -denormal not flushed: -1 */
    /* shifts: the count's low 5 bits */
    V2(ASHR_INT, 0x80000000u, 4, 0xF8000000u),
    V2(ASHR_INT, 0x80000000u, 33, 0xC0000000u),
    V2(LSHR_INT, 0x80000000u, 31, 0x00000001u),
    V2(LSHR_INT, 0xF0000000u, 36, 0x0F000000u),
    V2(LSHL_INT, 0x00000001u, 32, 0x00000001u),
    V2(LSHL_INT, 0x00000001u, 35, 0x00000008u),
    /* MOV: bits as they are */
    V2(MOV, 0x00000001u, 0, 0x00000001u),
    V2(MOV, 0x7FC12345u, 0, 0x7FC12345u),
    V2(ALU_NOP, 0x3F800000u, 0, 0x00000000u),
    /* PRED_SET: 0.0 where set (cond 1), else 1.0 */
    V2C(PRED_SETE, 0x3F800000u, 0x3F800000u, 0x00000000u, 1),
    V2C(PRED_SETE, 0x7FC00000u, 0x7FC00000u, 0x3F800000u, 0),
    V2C(PRED_SETGT, 0x3F800000u, 0x40000000u, 0x3F800000u, 0),
    V2C(PRED_SETGE, 0x80000000u, 0x00000000u, 0x00000000u, 1),
    V2C(PRED_SETNE, 0x7FC00000u, 0x3F800000u, 0x00000000u, 1),
    V2C(PRED_SETE_INT, 0x80000000u, 0x00000000u, 0x3F800000u, 0),
    V2C(PRED_SETGT_INT, 0x00000001u, 0xFFFFFFFFu, 0x00000000u, 1),
    V2C(PRED_SETGE_INT, 0xFFFFFFFFu, 0x00000000u, 0x3F800000u, 0),
    V2C(PRED_SETNE_INT, 0x00000005u, 0x00000000u, 0x00000000u, 1),
    V2C(PRED_SETGT_UINT, 0xFFFFFFFFu, 0x00000001u, 0x00000000u, 1),
    V2C(PRED_SETGE_UINT, 0x00000000u, 0xFFFFFFFFu, 0x3F800000u, 0),
    /* KILL: 1.0 where the lane dies (cond 1) */
    V2C(KILLE, 0x00000000u, 0x80000000u, 0x3F800000u, 1),
    V2C(KILLE, 0x7FC00000u, 0x7FC00000u, 0x00000000u, 0),
    V2C(KILLGT, 0x40000000u, 0x3F800000u, 0x3F800000u, 1),
    V2C(KILLGE, 0xBF800000u, 0x00000000u, 0x00000000u, 0),
    V2C(KILLNE, 0x7FC00000u, 0x3F800000u, 0x3F800000u, 1),
    V2C(KILLE_INT, 0x00000003u, 0x00000003u, 0x3F800000u, 1),
    V2C(KILLGT_INT, 0xFFFFFFFFu, 0x00000000u, 0x00000000u, 0),
    V2C(KILLGE_INT, 0x00000000u, 0x00000000u, 0x3F800000u, 1),
    V2C(KILLNE_INT, 0x00000001u, 0x00000001u, 0x00000000u, 0),
    V2C(KILLGT_UINT, 0xFFFFFFFFu, 0x00000000u, 0x3F800000u, 1),
    V2C(KILLGE_UINT, 0x00000000u, 0x00000001u, 0x00000000u, 0),
    /* integer arithmetic */
    V2(AND_INT, 0xF0F0F0F0u, 0x0FF00FF0u, 0x00F000F0u),
    V2(OR_INT, 0xF0000000u, 0x0000000Fu, 0xF000000Fu),
    V2(XOR_INT, 0xFFFF0000u, 0xFF00FF00u, 0x00FFFF00u),
    V2(NOT_INT, 0x0000FFFFu, 0, 0xFFFF0000u),
    V2(ADD_INT, 0xFFFFFFFFu, 0x00000001u, 0x00000000u),
    V2(SUB_INT, 0x00000000u, 0x00000001u, 0xFFFFFFFFu),
    V2(MAX_INT, 0xFFFFFFFFu, 0x00000001u, 0x00000001u),
    V2(MIN_INT, 0xFFFFFFFFu, 0x00000001u, 0xFFFFFFFFu),
    V2(MAX_UINT, 0xFFFFFFFFu, 0x00000001u, 0xFFFFFFFFu),
    V2(MIN_UINT, 0xFFFFFFFFu, 0x00000001u, 0x00000001u),
    V2(MULLO_INT, 0x00010000u, 0x00010000u, 0x00000000u),
    V2(MULLO_INT, 0x00000003u, 0xFFFFFFFEu, 0xFFFFFFFAu),
    V2(MULLO_UINT, 0x0000FFFFu, 0x00010001u, 0xFFFFFFFFu),
    V2(MULHI_INT, 0xFFFFFFFFu, 0x00000001u, 0xFFFFFFFFu),           /* -1 * 1: high word of -1 */
    V2(MULHI_INT, 0x40000000u, 0x00000008u, 0x00000002u),
    V2(MULHI_UINT, 0xFFFFFFFFu, 0x00000002u, 0x00000001u),
    V2(MUL_UINT24, 0x01000001u, 0x00000003u, 0x00000003u),
    V2(MULHI_UINT24, 0x00FFFFFFu, 0x00FFFFFFu, 0x0000FFFFu),        /* 0xFFFFFE000001 >> 32 */
    /* conversions: round to nearest even, saturate, NaN -> 0 */
    V2(FLT_TO_INT, 0x40200000u, 0, 0x00000002u),                    /* 2.5 -> 2 */
    V2(FLT_TO_INT, 0x40600000u, 0, 0x00000004u),                    /* 3.5 -> 4 */
    V2(FLT_TO_INT, 0xC0200000u, 0, 0xFFFFFFFEu),                    /* -2.5 -> -2 */
    V2(FLT_TO_INT, 0x7FC00000u, 0, 0x00000000u),
    V2(FLT_TO_INT, 0x4F32D05Eu, 0, 0x7FFFFFFFu),                    /* 3e9 */
    V2(FLT_TO_INT, 0xCF32D05Eu, 0, 0x80000000u),                    /* -3e9 */
    V2(FLT_TO_UINT, 0xBF800000u, 0, 0x00000000u),
    V2(FLT_TO_UINT, 0x4F9502F9u, 0, 0xFFFFFFFFu),                   /* 5e9 */
    V2(FLT_TO_UINT, 0x40200000u, 0, 0x00000002u),
    V2(FLT_TO_INT_FLOOR, 0xBF000000u, 0, 0xFFFFFFFFu),              /* -0.5 -> -1 */
    V2(FLT_TO_INT_FLOOR, 0x40600000u, 0, 0x00000003u),
    V2(FLT_TO_INT_RPI, 0x40200000u, 0, 0x00000003u),                /* 2.5 -> 3 */
    V2(FLT_TO_INT_RPI, 0xC0200000u, 0, 0xFFFFFFFEu),                /* -2.5 -> -2 */
    V2(FLT_TO_INT_RPI, 0x3EFFFFFFu, 0, 0x00000000u),                /* 0.49999997 -> 0 */
    V2(INT_TO_FLT, 0xFFFFFFFFu, 0, 0xBF800000u),
    V2(INT_TO_FLT, 0x01000001u, 0, 0x4B800000u),                    /* 16777217 -> 16777216 */
    V2(UINT_TO_FLT, 0xFFFFFFFFu, 0, 0x4F800000u),                   /* -> 2^32 */
    V2(UBYTE0_FLT, 0x11223344u, 0, 0x42880000u),                    /* 68 */
    V2(UBYTE1_FLT, 0x11223344u, 0, 0x424C0000u),                    /* 51 */
    V2(UBYTE2_FLT, 0x11223344u, 0, 0x42080000u),                    /* 34 */
    V2(UBYTE3_FLT, 0x11223344u, 0, 0x41880000u),                    /* 17 */
    /* EXP / LOG / RECIP / RECIPSQRT / SQRT (flush; CLAMPED / FF: +-FLT_MAX for +-Inf) */
    V2(EXP_IEEE, 0x40400000u, 0, 0x41000000u),                      /* 2^3 */
    V2(EXP_IEEE, 0xFF800000u, 0, 0x00000000u),
    V2(EXP_IEEE, 0xC3020000u, 0, 0x00000000u),                      /* 2^-130: denormal -> 0 */
    V2(LOG_IEEE, 0x41000000u, 0, 0x40400000u),                      /* log2 8 = 3 */
    V2(LOG_IEEE, 0x00000000u, 0, 0xFF800000u),
    V2(LOG_IEEE, 0x00000001u, 0, 0xFF800000u),                      /* denormal read as 0 */
    V2(LOG_CLAMPED, 0x00000000u, 0, 0xFF7FFFFFu),
    V2(LOG_CLAMPED, 0x3F800000u, 0, 0x00000000u),
    V2(RECIP_IEEE, 0x40800000u, 0, 0x3E800000u),                    /* 1/4 */
    V2(RECIP_IEEE, 0x80000000u, 0, 0xFF800000u),                    /* 1/-0 = -Inf */
    V2(RECIP_IEEE, 0x00000001u, 0, 0x7F800000u),                    /* denormal -> +0 -> Inf */
    V2(RECIP_IEEE, 0x7F000000u, 0, 0x00000000u),                    /* 2^-127: denormal -> 0 */
    V2(RECIP_CLAMPED, 0x00000000u, 0, 0x7F7FFFFFu),
    V2(RECIP_CLAMPED, 0x40000000u, 0, 0x3F000000u),
    V2(RECIP_FF, 0x80000000u, 0, 0xFF7FFFFFu),
    V2(RECIPSQRT_IEEE, 0x40800000u, 0, 0x3F000000u),                /* 1/sqrt 4 */
    V2(RECIPSQRT_IEEE, 0x00000000u, 0, 0x7F800000u),
    V2(RECIPSQRT_IEEE, 0xBF800000u, 0, ANY_NAN),
    V2(RECIPSQRT_CLAMPED, 0x00000000u, 0, 0x7F7FFFFFu),
    V2(RECIPSQRT_FF, 0x80000000u, 0, 0xFF7FFFFFu),                  /* sqrt -0 = -0 */
    V2(SQRT_IEEE, 0x40800000u, 0, 0x40000000u),
    V2(SQRT_IEEE, 0xBF800000u, 0, ANY_NAN),
    V2(SQRT_IEEE, 0x80000000u, 0, 0x80000000u),
    V2(SQRT_IEEE, 0x00400000u, 0, 0x00000000u),                     /* denormal -> 0 */
    /* MULADD: legacy product, then the sum (and its scale); IEEE and fused forms */
    V3(MULADD, 0x00000000u, 0x7F800000u, 0x3F800000u, 0x3F800000u), /* 0 * Inf + 1 = 1 */
    V3(MULADD, 0x40000000u, 0x40400000u, 0x3F800000u, 0x40E00000u), /* 2 * 3 + 1 = 7 */
    V3(MULADD, 0x00000001u, 0x7F000000u, 0x00000000u, 0x00000000u), /* denormal source -> 0 */
    V3(MULADD_M2, 0x40000000u, 0x40400000u, 0x3F800000u, 0x41600000u), /* 14 */
    V3(MULADD_M4, 0x40000000u, 0x40400000u, 0x3F800000u, 0x41E00000u), /* 28 */
    V3(MULADD_D2, 0x40000000u, 0x40400000u, 0x3F800000u, 0x40600000u), /* 3.5 */
    V3(MULADD_IEEE, 0x00000000u, 0x7F800000u, 0x3F800000u, ANY_NAN),
    /* (1 + 2^-23)(1 - 2^-24) = 1 + 2^-24 - 2^-47: rounded, 1, and 1 - 1 = 0;
     * fused, 2^-24 - 2^-47 exactly */
    V3(MULADD_IEEE, 0x3F800001u, 0x3F7FFFFFu, 0xBF800000u, 0x00000000u),
    V3(FMA, 0x3F800001u, 0x3F7FFFFFu, 0xBF800000u, 0x337FFFFEu),
    V3(FMA, 0x40000000u, 0x40400000u, 0x3F800000u, 0x40E00000u),
    /* CND*: src0 against 0 (float: NaN selects src2; integer: -0 is not 0) */
    V3(CNDE, 0x80000000u, 0x11111111u, 0x22222222u, 0x11111111u),
    V3(CNDE, 0x7FC00000u, 0x11111111u, 0x22222222u, 0x22222222u),
    V3(CNDE, 0x00000001u, 0x11111111u, 0x22222222u, 0x22222222u),   /* a denormal is not 0 here */
    V3(CNDGT, 0x3F800000u, 0x11111111u, 0x22222222u, 0x11111111u),
    V3(CNDGT, 0x7FC00000u, 0x11111111u, 0x22222222u, 0x22222222u),
    V3(CNDGE, 0x80000000u, 0x11111111u, 0x22222222u, 0x11111111u),
    V3(CNDGE, 0xBF800000u, 0x11111111u, 0x22222222u, 0x22222222u),
    V3(CNDE_INT, 0x80000000u, 0x11111111u, 0x22222222u, 0x22222222u),
    V3(CNDE_INT, 0x00000000u, 0x11111111u, 0x22222222u, 0x11111111u),
    V3(CNDGT_INT, 0xFFFFFFFFu, 0x11111111u, 0x22222222u, 0x22222222u),
    V3(CNDGE_INT, 0x00000000u, 0x11111111u, 0x22222222u, 0x11111111u),
    /* integer OP3 */
    V3(BFI_INT, 0xFF00FF00u, 0x12345678u, 0xABCDEF01u, 0x12CD5601u),
    V3(MULADD_UINT24, 0x01000002u, 0x00000003u, 0x00000004u, 0x0000000Au),
};

static bool matches(uint32_t got, uint32_t want)
{
    return want == ANY_NAN ? isnan(test_u2f(got)) : got == want;
}

static void hand_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
        const struct vec *v = &vecs[i];
        const struct eg_lanes_kernel *k = eg_lanes_kernel(v->op3, v->op);
        const char *name = eg_alu_op_name(v->op3, v->op);
        if (!k)
            fail_msg("vector %zu: %s has no kernel", i, name);
        uint32_t s[3][1] = { { v->a }, { v->b }, { v->c } }, r = SENTINEL, ref;
        const uint32_t *in[3] = { s[0], s[1], s[2] };
        uint64_t cond = k->run(in, &r, 1);
        struct alu_effects fx;
        assert_int_equal(eg_alu_eval(v->op3, v->op, (const uint32_t[3]){ v->a, v->b, v->c }, &ref, &fx), 0);
        if (!matches(r, v->want) || !matches(ref, v->want))
            fail_msg("%s(%08x, %08x, %08x): want %08x, kernel %08x, eg_alu_eval %08x", name, v->a, v->b, v->c,
                     v->want, r, ref);
        if (v->cond >= 0 && ((int)(cond & 1u) != v->cond || (k->effect == EG_LANES_KILL ? fx.kill : fx.cond) != v->cond))
            fail_msg("%s(%08x, %08x): condition want %d, kernel %d", name, v->a, v->b, v->cond, (int)(cond & 1u));
        if (v->cond < 0)
            assert_int_equal(k->effect, EG_LANES_PLAIN);
        else
            assert_int_not_equal(k->effect, EG_LANES_PLAIN);
    }
    /* every op with a kernel has vectors */
    for (int form = 0; form < 2; form++)
        for (unsigned op = 0; op < (form ? 32u : 256u); op++) {
            if (!eg_lanes_kernel(form, op))
                continue;
            size_t i = 0;
            while (i < sizeof vecs / sizeof vecs[0] && (vecs[i].op3 != (form == 1) || vecs[i].op != op))
                i++;
            if (i == sizeof vecs / sizeof vecs[0])
                fail_msg("%s has a kernel but no hand-computed vector", eg_alu_op_name(form, op));
        }
}

/* DOT4 / DOT4_IEEE / MAX4 over lanes against eg_alu_reduce4, and a few by hand. */
static void reductions(void **state)
{
    (void)state;
    static const unsigned ops[] = { V_SQ_ALU_OP2__DOT4, V_SQ_ALU_OP2__DOT4_IEEE, V_SQ_ALU_OP2__MAX4 };
    uint32_t a[4][NL], b[4][NL], r[NL];
    const uint32_t *pa[4] = { a[0], a[1], a[2], a[3] }, *pb[4] = { b[0], b[1], b[2], b[3] };
    for (unsigned o = 0; o < 3; o++)
        for (unsigned run = 0; run < 600; run++) {
            unsigned n = 1 + run % NL;
            for (unsigned l = 0; l < NL; l++) {
                for (int k = 0; k < 4; k++) {
                    a[k][l] = run < 300 ? specials[next() % NSPEC] : rand_value();
                    b[k][l] = run < 300 ? specials[next() % NSPEC] : rand_value();
                }
                r[l] = SENTINEL;
            }
            eg_lanes_reduce4(ops[o], pa, pb, r, n);
            for (unsigned l = 0; l < NL; l++) {
                uint32_t x[4] = { a[0][l], a[1][l], a[2][l], a[3][l] }, y[4] = { b[0][l], b[1][l], b[2][l], b[3][l] };
                uint32_t want = l < n ? eg_alu_reduce4(ops[o], x, y) : SENTINEL;
                if (r[l] != want)
                    fail_msg("%s lane %u of %u: %08x, want %08x", eg_alu_op_name(false, ops[o]), l, n, r[l], want);
            }
        }
    /* by hand: (1, 2, 3, 4) . (0.5, 0.5, 0.5, 0.5) = 5; legacy 0 * Inf = 0 in DOT4, NaN in DOT4_IEEE;
     * a denormal product term is 0; MAX4 of (-1, NaN, 3, 2) = 3 */
    static const struct { unsigned op; uint32_t a[4], b[4], want; } hv[] = {
        { V_SQ_ALU_OP2__DOT4, { 0x3F800000u, 0x40000000u, 0x40400000u, 0x40800000u },
          { 0x3F000000u, 0x3F000000u, 0x3F000000u, 0x3F000000u }, 0x40A00000u },
        { V_SQ_ALU_OP2__DOT4, { 0x00000000u, 0x3F800000u, 0, 0 }, { 0x7F800000u, 0x3F800000u, 0, 0 }, 0x3F800000u },
        { V_SQ_ALU_OP2__DOT4_IEEE, { 0x00000000u, 0x3F800000u, 0, 0 }, { 0x7F800000u, 0x3F800000u, 0, 0 }, ANY_NAN },
        { V_SQ_ALU_OP2__DOT4_IEEE, { 0x00400000u, 0x3F800000u, 0, 0 }, { 0x7F000000u, 0x3F800000u, 0, 0 }, 0x3F800000u },
        { V_SQ_ALU_OP2__MAX4, { 0xBF800000u, 0x7FC00000u, 0x40400000u, 0x40000000u }, { 0 }, 0x40400000u },
    };
    for (size_t i = 0; i < sizeof hv / sizeof hv[0]; i++) {
        const uint32_t *ha[4] = { &hv[i].a[0], &hv[i].a[1], &hv[i].a[2], &hv[i].a[3] };
        const uint32_t *hb[4] = { &hv[i].b[0], &hv[i].b[1], &hv[i].b[2], &hv[i].b[3] };
        uint32_t got;
        eg_lanes_reduce4(hv[i].op, ha, hb, &got, 1);
        if (!matches(got, hv[i].want))
            fail_msg("%s vector %zu: %08x, want %08x", eg_alu_op_name(false, hv[i].op), i, got, hv[i].want);
    }
}

/* OMOD (x2, x4, /2) and then CLAMP to [0, 1], NaN clamping to 0. */
static void output_modifiers(void **state)
{
    (void)state;
    static const struct { unsigned omod; bool clamp; uint32_t in, want; } v[] = {
        { V_SQ_ALU_OMOD__M2, false, 0x3FC00000u, 0x40400000u },     /* 1.5 * 2 = 3 */
        { V_SQ_ALU_OMOD__M4, false, 0x3F400000u, 0x40400000u },     /* 0.75 * 4 = 3 */
        { V_SQ_ALU_OMOD__D2, false, 0x40400000u, 0x3FC00000u },     /* 3 / 2 */
        { V_SQ_ALU_OMOD__OFF, true, 0x40000000u, 0x3F800000u },     /* 2 -> 1 */
        { V_SQ_ALU_OMOD__OFF, true, 0xC0400000u, 0x00000000u },     /* -3 -> 0 */
        { V_SQ_ALU_OMOD__OFF, true, 0x7FC00000u, 0x00000000u },     /* NaN -> 0 */
        { V_SQ_ALU_OMOD__OFF, true, 0x3F000000u, 0x3F000000u },
        { V_SQ_ALU_OMOD__M2, true, 0x3F400000u, 0x3F800000u },      /* 0.75 * 2 = 1.5, clamped after: 1 */
        { V_SQ_ALU_OMOD__D2, true, 0x3FC00000u, 0x3F400000u },      /* 1.5 / 2 = 0.75 */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t r[3] = { v[i].in, v[i].in, SENTINEL };
        eg_lanes_out_mod(v[i].omod, v[i].clamp, r, 2);
        if (r[0] != v[i].want || r[1] != v[i].want || r[2] != SENTINEL)
            fail_msg("omod %u clamp %d of %08x: %08x, want %08x", v[i].omod, v[i].clamp, v[i].in, r[0], v[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_equal_eval),
        cmocka_unit_test(hand_vectors),
        cmocka_unit_test(reductions),
        cmocka_unit_test(output_modifiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
