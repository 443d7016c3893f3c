/* The lane counts and ids a compute shader's RAT return address is made of
 * (src/shader/interp.c): MBCNT_32LO_ACCUM_PREV_INT, MBCNT_32HI_INT and the
 * ALU sources SE_ID and HW_WAVE_ID, as Mesa's r600 emits them at the start
 * of a shader that reads images (sfn_shader.cpp allocate_reserved_registers:
 * MBCNT_32LO_ACCUM_PREV_INT in slot x and MBCNT_32HI_INT in slot y of one
 * group, both of -1).
 *
 * A wave of 24 lanes (lane l starts with R0.x = l) turns off lanes 0, 3, 4,
 * 9, 17 and 23 with PRED_SETE_INT ... UPDATE_EXEC_MASK (R0.y = 1 there),
 * then computes the counts and stores them with MEM_RAT at its lane number;
 * the test's RAT callback keeps what each lane stored.  The expectations are
 * written out by hand in the tables below: for src = -1, how many of the
 * lanes still on are below the lane; for src = 0x00F0F0F0, how many of them
 * are below it and have their bit set (lanes 5, 6, 7, 12..15, 20, 21, 22 of
 * those on); MBCNT_32HI_INT is 0 for every lane of a wave of 32 or fewer
 * (it counts lanes 32..63); MBCNT_32LO_ACCUM_PREV_INT adds the next slot's
 * result (a MOV of 100 there); lanes turned off store nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"

#define NLANES 24

struct seen {
    bool stored[2][NLANES];     /* by RAT, by lane */
    uint32_t v[2][NLANES][4];
    unsigned calls;
};

static int rat_keep(void *ctx, unsigned rat, unsigned inst, const uint32_t idx[4], const uint32_t data[4],
                    unsigned comp_mask, char *msg, size_t msglen)
{
    struct seen *s = ctx;
    (void)comp_mask;
    if (inst != V_SQ_RAT_INST__STORE_TYPED || rat > 1 || idx[0] >= NLANES) {
        snprintf(msg, msglen, "unexpected RAT operation %u at %u", inst, idx[0]);
        return -1;
    }
    s->calls++;
    s->stored[rat][idx[0]] = true;
    memcpy(s->v[rat][idx[0]], data, sizeof s->v[rat][idx[0]]);
    return 0;
}

static const struct eg_alu_src zero = {.sel = V_SQ_ALU_SRC__ZERO};

static void op(struct eg_asm *a, unsigned o, unsigned dst, unsigned chan, struct eg_alu_src s0, bool last)
{
    eg_asm_alu(a, &(struct eg_alu){.op = o, .dst = {(uint8_t)dst, (uint8_t)chan, .write = true},
                                   .src = {s0, zero, zero}, .last = last});
}

/* The program: R2 = (MBCNT_32LO(-1) + MBCNT_32HI(-1), MBCNT_32HI(-1),
 * MBCNT_32LO(0x00F0F0F0) + 100, 100), R3 = (HW_WAVE_ID, SE_ID), stored at
 * element R0.x of RATs 0 and 1. */
static size_t build(uint32_t *out, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){.op = V_SQ_ALU_OP2__PRED_SETE_INT, .dst = {0, 0, .write = false},
                                    .src = {eg_src_gpr(0, 1), zero, zero}, .update_pred = true,
                                    .update_exec_mask = true, .last = true});
    op(&a, V_SQ_ALU_OP2__MBCNT_32LO_ACCUM_PREV_INT, 2, 0, eg_src_lit_u(0xFFFFFFFFu), false);
    op(&a, V_SQ_ALU_OP2__MBCNT_32HI_INT, 2, 1, eg_src_lit_u(0xFFFFFFFFu), false);
    op(&a, V_SQ_ALU_OP2__MBCNT_32LO_ACCUM_PREV_INT, 2, 2, eg_src_lit_u(0x00F0F0F0u), false);
    op(&a, V_SQ_ALU_OP2__MOV, 2, 3, eg_src_lit_u(100), true);
    op(&a, V_SQ_ALU_OP2__MOV, 3, 0, eg_src_special(V_SQ_ALU_SRC__HW_WAVE_ID, 0), false);
    op(&a, V_SQ_ALU_OP2__MOV, 3, 1, eg_src_special(V_SQ_ALU_SRC__SE_ID, 0), true);
    for (unsigned r = 0; r < 2; r++)
        eg_asm_mem(&a, &(struct eg_mem_export){
                           .cf_inst = V_SQ_CF_INST__MEM_RAT, .type = 1,
                           .array_base = S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(r) |
                                         S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INST(V_SQ_RAT_INST__STORE_TYPED),
                           .gpr = 2 + r, .index_gpr = 0, .comp_mask = 0xF});
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, out, cap, &n))
        fail_msg("mbcnt program: %s", a.err);
    return n;
}

static void run(const uint32_t *prog, size_t ndw, unsigned wave_id, struct seen *seen)
{
    static const bool off[NLANES] = {[0] = true, [3] = true, [4] = true, [9] = true, [17] = true, [23] = true};
    struct eg_shader_env env = {0};
    env.ctx = seen;
    env.rat = rat_keep;
    env.hw_wave_id = wave_id;
    union eg_vec4 r0[NLANES];
    for (unsigned l = 0; l < NLANES; l++)
        r0[l] = (union eg_vec4){.u = {l, off[l] ? 1u : 0u, 0, 0}};
    const struct eg_program p = {"CS", prog, ndw};
    const struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__CS, V_SQ_SAMPLER_BASE__CS, {.u = {0}}, {.u = {0}}};
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_stage_lanes(&p, &env, &st, r0, NLANES, &out, &err))
        fail_msg("%s", err.msg);
}

/* Worked by hand, lane by lane; -1: the lane is off and stores nothing. */
static const int below_all[NLANES] = {
    -1, 0, 1, -1, -1, 2, 3, 4, 5, -1, 6, 7, 8, 9, 10, 11, 12, -1, 13, 14, 15, 16, 17, -1,
};
static const int below_f0[NLANES] = {
    -1, 0, 0, -1, -1, 0, 1, 2, 3, -1, 3, 3, 3, 4, 5, 6, 7, -1, 7, 7, 7, 8, 9, -1,
};

static void test_counts_under_the_exec_mask(void **state)
{
    (void)state;
    uint32_t prog[256];
    size_t ndw = build(prog, 256);
    struct seen s = {0};
    run(prog, ndw, 7, &s);
    unsigned on = 0;
    for (unsigned l = 0; l < NLANES; l++) {
        assert_int_equal(s.stored[0][l], below_all[l] >= 0);
        assert_int_equal(s.stored[1][l], below_all[l] >= 0);
        if (below_all[l] < 0)
            continue;
        on++;
        assert_int_equal(s.v[0][l][0], (uint32_t)below_all[l]);
        assert_int_equal(s.v[0][l][1], 0);
        assert_int_equal(s.v[0][l][2], (uint32_t)below_f0[l] + 100);
        assert_int_equal(s.v[0][l][3], 100);
    }
    assert_int_equal(s.calls, 2 * on);
}

/* HW_WAVE_ID is what the caller says the wave is; SE_ID is 0 (one shader
 * engine), for every lane. */
static void test_wave_and_engine_ids(void **state)
{
    (void)state;
    uint32_t prog[256];
    size_t ndw = build(prog, 256);
    for (unsigned id = 0; id < 32; id += 13) {
        struct seen s = {0};
        run(prog, ndw, id, &s);
        for (unsigned l = 0; l < NLANES; l++) {
            assert_int_equal(s.stored[1][l], below_all[l] >= 0);
            if (s.stored[1][l]) {
                assert_int_equal(s.v[1][l][0], id);
                assert_int_equal(s.v[1][l][1], 0);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_under_the_exec_mask),
        cmocka_unit_test(test_wave_and_engine_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
