/* GDS clauses (CF GDS) as Mesa r600 emits them for atomic counters on
 * Evergreen (sfn_instr_mem.cpp, sfn_assembler.cpp): MEM_OP GDS with
 * ALLOC_CONSUME, the counter in UAV_ID, the operand in SRC_SEL_Y of
 * SRC_GPR, the value from before the operation into the destination
 * channel whose DST_SEL is X.  The words are assembled here from the
 * register database's fields (the encoder has no GDS forms); the expected
 * values are worked out by hand from the ISA's operation definitions (see
 * each table row), and the counting properties (distinct values 0..N-1,
 * the final count N) need no model at all. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "cedar/vc_hw.h"
#include "eg_regs.h"

#define NL 4

/* A GDS instruction on counter uav: op with R1.y (a) and R1.z (b), the
 * result into R2.x (dst_x) with R2.yzw masked. */
static void gds_word(uint32_t w[4], unsigned op, unsigned uav, unsigned dst_x)
{
    w[0] = S_SQ_MEM_GDS_WORD0__MEM_INST(V_SQ_VTX_INST__MEM) | S_SQ_MEM_GDS_WORD0__MEM_OP(V_SQ_MEM_OP__GDS) |
           S_SQ_MEM_GDS_WORD0__SRC_GPR(1) | S_SQ_MEM_GDS_WORD0__SRC_SEL_X(V_SQ_INST_SEL__ZERO) |
           S_SQ_MEM_GDS_WORD0__SRC_SEL_Y(V_SQ_INST_SEL__Y) | S_SQ_MEM_GDS_WORD0__SRC_SEL_Z(V_SQ_INST_SEL__Z);
    w[1] = S_SQ_MEM_GDS_WORD1__DST_GPR(2) | S_SQ_MEM_GDS_WORD1__GDS_OP(op) | S_SQ_MEM_GDS_WORD1__UAV_ID(uav) |
           S_SQ_MEM_GDS_WORD1__ALLOC_CONSUME(1);
    w[2] = S_SQ_MEM_GDS_WORD2__DST_SEL_X(dst_x) | S_SQ_MEM_GDS_WORD2__DST_SEL_Y(V_SQ_INST_SEL__MASK) |
           S_SQ_MEM_GDS_WORD2__DST_SEL_Z(V_SQ_INST_SEL__MASK) | S_SQ_MEM_GDS_WORD2__DST_SEL_W(V_SQ_INST_SEL__MASK);
    w[3] = 0;
}

/* CF 0: GDS clause @4 (nins instructions, VALID_PIXEL_MODE as Mesa sets it
 * for a pixel shader); CF 1: EXPORT_DONE colour 0 <- R2, END_OF_PROGRAM.
 * Instructions at dword 8 (CF address 4). */
static void program(uint32_t *w, unsigned nins)
{
    w[0] = S_SQ_CF_WORD0__ADDR(4);
    w[1] = S_SQ_CF_WORD1__COUNT(nins - 1) | S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__GDS) |
           S_SQ_CF_WORD1__VALID_PIXEL_MODE(1) | S_SQ_CF_WORD1__BARRIER(1);
    w[2] = S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(0) | S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(V_SQ_EXPORT_TYPE__PIXEL) |
           S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(2);
    w[3] = S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(V_SQ_INST_SEL__X) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(V_SQ_INST_SEL__Y) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(V_SQ_INST_SEL__Z) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(V_SQ_INST_SEL__W) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(1) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(V_SQ_CF_INST__EXPORT_DONE) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BARRIER(1);
    w[4] = w[5] = w[6] = w[7] = 0;
}

static void *no_mem(void *ctx, uint64_t a, uint64_t n)
{
    (void)ctx, (void)a, (void)n;
    return NULL;
}

/* Run the program for n lanes (helpers: helper-pixel lanes) with R1 = (0,
 * a, b, 0) and R2 = (0xEE, 0xEE, 0xEE, 0xEE) in every lane. */
static int run(const uint32_t *w, size_t ndw, uint32_t *counters, unsigned n, uint32_t helpers, uint32_t a,
               uint32_t b, struct eg_ps_output *out, struct eg_shader_err *err)
{
    struct vc_mem mem = { NULL, no_mem, counters };
    struct eg_shader_env env = { .mem = &mem };
    struct eg_program p = { "PS", w, ndw };
    union eg_vec4 regs[NL][3];
    struct eg_ps_input in[NL];
    memset(regs, 0, sizeof regs);
    for (unsigned l = 0; l < n; l++) {
        regs[l][1].u[1] = a;
        regs[l][1].u[2] = b;
        for (unsigned c = 0; c < 4; c++)
            regs[l][2].u[c] = 0xEE;
        in[l] = (struct eg_ps_input){ regs[l], 3, NULL, 0 };
    }
    return eg_run_ps_lanes(&p, &env, in, n, helpers, out, err);
}

/* atomicCounterIncrement as Mesa compiles it (ADD_RET of 1): the four lanes
 * of a quad get 7, 8, 9, 10 in lane order and the counter ends at 11; a
 * second quad goes on from there; the other counters are untouched. */
static void add_ret_counts_per_lane(void **state)
{
    (void)state;
    uint32_t w[12];
    program(w, 1);
    gds_word(&w[8], V_SQ_DS_OP__ADD_RET, 3, V_SQ_INST_SEL__X);
    uint32_t counters[12];
    for (unsigned i = 0; i < 12; i++)
        counters[i] = 100 + i;
    counters[3] = 7;
    struct eg_ps_output out[NL];
    struct eg_shader_err err;
    if (run(w, 12, counters, NL, 0, 1, 0, out, &err))
        fail_msg("run: %s", err.msg);
    for (unsigned l = 0; l < NL; l++) {
        assert_int_equal(out[l].color[0].u[0], 7 + l);
        assert_int_equal(out[l].color[0].u[1], 0xEE);   /* masked channels keep R2 */
    }
    assert_int_equal(counters[3], 11);
    if (run(w, 12, counters, 2, 0, 1, 0, out, &err))
        fail_msg("run: %s", err.msg);
    assert_int_equal(out[0].color[0].u[0], 11);
    assert_int_equal(out[1].color[0].u[0], 12);
    assert_int_equal(counters[3], 13);
    for (unsigned i = 0; i < 12; i++)
        if (i != 3)
            assert_int_equal(counters[i], 100 + i);
}

/* VALID_PIXEL_MODE: helper lanes (1 and 2 here) do not count; the pixels
 * get 0 and 1 in lane order. */
static void helpers_do_not_count(void **state)
{
    (void)state;
    uint32_t w[12];
    program(w, 1);
    gds_word(&w[8], V_SQ_DS_OP__ADD_RET, 0, V_SQ_INST_SEL__X);
    uint32_t counters[12] = { 0 };
    struct eg_ps_output out[NL];
    struct eg_shader_err err;
    if (run(w, 12, counters, NL, 0x6, 1, 0, out, &err))
        fail_msg("run: %s", err.msg);
    assert_int_equal(out[0].color[0].u[0], 0);
    assert_int_equal(out[3].color[0].u[0], 1);
    assert_int_equal(counters[0], 2);
}

/* Two instructions in one clause: each runs for every lane before the
 * next (lane-major would give lane 0 both 0 and 1).  ADD_RET 5 then
 * SUB_RET 5 on counter 1 from 20: the ADDs see 20, 25, 30, 35, the SUBs
 * 40, 35, 30, 25, and the counter is back at 20. */
static void instructions_run_in_turn(void **state)
{
    (void)state;
    uint32_t w[16];
    program(w, 2);
    gds_word(&w[8], V_SQ_DS_OP__ADD_RET, 1, V_SQ_INST_SEL__X);
    gds_word(&w[12], V_SQ_DS_OP__SUB_RET, 1, V_SQ_INST_SEL__X);
    uint32_t counters[12] = { 0, 20 };
    struct eg_ps_output out[NL];
    struct eg_shader_err err;
    if (run(w, 16, counters, NL, 0, 5, 0, out, &err))
        fail_msg("run: %s", err.msg);
    for (unsigned l = 0; l < NL; l++)
        assert_int_equal(out[l].color[0].u[0], 40 - 5 * l);
    assert_int_equal(counters[1], 20);
}

/* Each operation once, one lane, by hand from the ISA's definitions:
 * (op, counter before, a, b) -> (counter after, value returned; for the
 * ops without _RET the destination keeps 0xEE). */
static void each_operation(void **state)
{
    (void)state;
    static const struct { unsigned op; uint32_t m, a, b, after, ret; } t[] = {
        { V_SQ_DS_OP__ADD, 5, 3, 0, 8, 0xEE },
        { V_SQ_DS_OP__ADD_RET, 0xFFFFFFFFu, 2, 0, 1, 0xFFFFFFFFu },       /* wraps */
        { V_SQ_DS_OP__SUB_RET, 5, 7, 0, 0xFFFFFFFEu, 5 },
        { V_SQ_DS_OP__RSUB_RET, 5, 7, 0, 2, 5 },                          /* a - m */
        { V_SQ_DS_OP__INC_RET, 4, 9, 0, 5, 4 },                           /* m < a: m + 1 */
        { V_SQ_DS_OP__INC_RET, 9, 9, 0, 0, 9 },                           /* m >= a: 0 */
        { V_SQ_DS_OP__DEC_RET, 4, 9, 0, 3, 4 },                           /* m - 1 */
        { V_SQ_DS_OP__DEC_RET, 0, 9, 0, 9, 0 },                           /* m == 0: a */
        { V_SQ_DS_OP__DEC_RET, 12, 9, 0, 9, 12 },                         /* m > a: a */
        { V_SQ_DS_OP__MIN_INT_RET, 0xFFFFFFFFu, 1, 0, 0xFFFFFFFFu, 0xFFFFFFFFu },  /* -1 < 1 */
        { V_SQ_DS_OP__MAX_INT_RET, 0xFFFFFFFFu, 1, 0, 1, 0xFFFFFFFFu },
        { V_SQ_DS_OP__MIN_UINT_RET, 0xFFFFFFFFu, 1, 0, 1, 0xFFFFFFFFu },
        { V_SQ_DS_OP__MAX_UINT_RET, 0xFFFFFFFFu, 1, 0, 0xFFFFFFFFu, 0xFFFFFFFFu },
        { V_SQ_DS_OP__AND_RET, 0xF0F0u, 0xFF00u, 0, 0xF000u, 0xF0F0u },
        { V_SQ_DS_OP__OR_RET, 0xF0F0u, 0xFF00u, 0, 0xFFF0u, 0xF0F0u },
        { V_SQ_DS_OP__XOR_RET, 0xF0F0u, 0xFF00u, 0, 0x0FF0u, 0xF0F0u },
        { V_SQ_DS_OP__MSKOR_RET, 0xF0F0u, 0x00FFu, 0x0005u, 0xF005u, 0xF0F0u },  /* (m & ~a) | b */
        { V_SQ_DS_OP__XCHG_RET, 3, 44, 0, 44, 3 },
        { V_SQ_DS_OP__CMP_XCHG_RET, 3, 3, 44, 44, 3 },                    /* m == a: b */
        { V_SQ_DS_OP__CMP_XCHG_RET, 3, 4, 44, 3, 3 },                     /* m != a: m */
        { V_SQ_DS_OP__READ_RET, 3, 99, 0, 3, 3 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint32_t w[12];
        program(w, 1);
        gds_word(&w[8], t[i].op, 5, V_SQ_INST_SEL__X);
        uint32_t counters[12] = { 0 };
        counters[5] = t[i].m;
        struct eg_ps_output out[1];
        struct eg_shader_err err;
        if (run(w, 12, counters, 1, 0, t[i].a, t[i].b, out, &err))
            fail_msg("row %zu: %s", i, err.msg);
        if (counters[5] != t[i].after || out[0].color[0].u[0] != t[i].ret)
            fail_msg("row %zu (op 0x%02X): counter 0x%X returned 0x%X, expected 0x%X and 0x%X", i, t[i].op,
                     counters[5], out[0].color[0].u[0], t[i].after, t[i].ret);
    }
}

/* What is not modelled stops the run with a message and leaves the counter
 * alone: GDS memory (ALLOC_CONSUME clear), a counter past the twelve, no
 * counters at all, an op the model does not know (0x3F, the ordered
 * alloc), a destination channel other than X / 0 / masked. */
static void unsupported_forms_stop(void **state)
{
    (void)state;
    struct { const char *what; uint32_t clear1, set1, set2; unsigned op, uav; bool no_counters; } t[] = {
        { "GDS memory", S_SQ_MEM_GDS_WORD1__ALLOC_CONSUME(1), 0, 0, V_SQ_DS_OP__ADD_RET, 0, false },
        { "counter 12", 0, 0, 0, V_SQ_DS_OP__ADD_RET, 12, false },
        { "no counters", 0, 0, 0, V_SQ_DS_OP__ADD_RET, 0, true },
        { "op 0x3F", 0, 0, 0, 0x3F, 0, false },
        { "dst Y", 0, 0, S_SQ_MEM_GDS_WORD2__DST_SEL_Y(V_SQ_INST_SEL__Y), V_SQ_DS_OP__ADD_RET, 0, false },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        uint32_t w[12];
        program(w, 1);
        gds_word(&w[8], t[i].op, t[i].uav & 0xF, V_SQ_INST_SEL__X);
        w[9] = (w[9] & ~t[i].clear1) | t[i].set1;
        if (t[i].set2)
            w[10] = (w[10] & ~SQ_MEM_GDS_WORD2__DST_SEL_Y__MASK) | t[i].set2;
        uint32_t counters[12] = { 0 };
        struct eg_ps_output out[1];
        struct eg_shader_err err = { "" };
        int rc = run(w, 12, t[i].no_counters ? NULL : counters, 1, 0, 1, 0, out, &err);
        if (rc == 0)
            fail_msg("%s: ran", t[i].what);
        if (!strstr(err.msg, "GDS"))
            fail_msg("%s: message '%s' does not name the GDS", t[i].what, err.msg);
        for (unsigned c = 0; c < 12; c++)
            assert_int_equal(counters[c], 0);
    }
}

/* Many threads incrementing one counter through the shader, as the
 * renderer's threads do: every returned value distinct, 0..N-1, and the
 * counter at N. */
#define THREADS 4
#define RUNS 2000
struct worker {
    uint32_t *counters;
    uint32_t got[RUNS * NL];
    int rc;
};

static void *work(void *arg)
{
    struct worker *k = arg;
    uint32_t w[12];
    program(w, 1);
    gds_word(&w[8], V_SQ_DS_OP__ADD_RET, 2, V_SQ_INST_SEL__X);
    for (unsigned r = 0; r < RUNS && !k->rc; r++) {
        struct eg_ps_output out[NL];
        struct eg_shader_err err;
        k->rc = run(w, 12, k->counters, NL, 0, 1, 0, out, &err);
        for (unsigned l = 0; l < NL; l++)
            k->got[r * NL + l] = out[l].color[0].u[0];
    }
    return NULL;
}

static void threads_get_distinct_values(void **state)
{
    (void)state;
    uint32_t counters[12] = { 0 };
    static struct worker k[THREADS];
    pthread_t th[THREADS];
    for (unsigned i = 0; i < THREADS; i++) {
        k[i].counters = counters;
        k[i].rc = 0;
        assert_int_equal(pthread_create(&th[i], NULL, work, &k[i]), 0);
    }
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    const unsigned n = THREADS * RUNS * NL;
    assert_int_equal(counters[2], n);
    uint8_t *seen = calloc(n, 1);
    assert_non_null(seen);
    for (unsigned i = 0; i < THREADS; i++) {
        assert_int_equal(k[i].rc, 0);
        for (unsigned j = 0; j < RUNS * NL; j++) {
            assert_true(k[i].got[j] < n);
            assert_int_equal(seen[k[i].got[j]], 0);
            seen[k[i].got[j]] = 1;
        }
    }
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(add_ret_counts_per_lane),
        cmocka_unit_test(helpers_do_not_count),
        cmocka_unit_test(instructions_run_in_turn),
        cmocka_unit_test(each_operation),
        cmocka_unit_test(unsupported_forms_stop),
        cmocka_unit_test(threads_get_distinct_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
