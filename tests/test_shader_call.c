/* Subroutines (CALL / RETURN) and the boolean-constant CF conditions
 * (COND BOOL / NOT_BOOL with CF_CONST).  The programs have the shape of
 * AMD's own Evergreen shaders in xf86-video-ati (evergreen_shader.c: the
 * composite vertex shader and the Xv pixel shader pick one of two
 * subroutines with "CALL COND_BOOL" / "CALL COND_NOT_BOOL" on boolean 0,
 * each subroutine ending in RETURN after the main program's
 * END_OF_PROGRAM; evergreen_accel.c sets the booleans, one SQ_BOOL_CONST
 * register of 32 per stage).  Every expected value is worked out by hand
 * beside it. */
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

static uint32_t bools;      /* the stage's SQ_BOOL_CONST */

static int bool_const(void *c, unsigned index, bool *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len;
    *out = bools >> index & 1u;
    return 0;
}

static const struct eg_shader_env env = { .bool_const = bool_const };

static void mov(struct eg_asm *as, unsigned g, unsigned c, struct eg_alu_src s)
{
    eg_asm_alu(as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { (uint8_t)g, (uint8_t)c, .write = true },
                                     .src = { s }, .last = true });
}

/* R1.y = R1.y op v (float ADD or MUL) */
static void acc(struct eg_asm *as, unsigned op, float v)
{
    eg_asm_alu(as, &(struct eg_alu){ .op = op, .dst = { 1, 1, .write = true },
                                     .src = { eg_src_gpr(1, 1), eg_src_lit_f(v) }, .last = true });
}

static void export_param(struct eg_asm *as)
{
    eg_asm_export(as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW,
                                           .done = true });
}

/* Encode (no END_OF_PROGRAM added: the tests place it), set CF_CONST k on
 * the CF instructions listed in with_const, END_OF_PROGRAM on CF eop. */
static size_t finish(struct eg_asm *as, uint32_t *w, size_t cap, const unsigned *with_const, unsigned n, unsigned k,
                     unsigned eop)
{
    size_t ndw;
    if (eg_asm_finish(as, false, w, cap, &ndw))
        fail_msg("encoder: %s", as->err);
    for (unsigned i = 0; i < n; i++)
        w[2 * with_const[i] + 1] |= S_SQ_CF_WORD1__CF_CONST(k);
    w[2 * eop + 1] |= S_SQ_CF_WORD1__END_OF_PROGRAM(1);
    return ndw;
}

static int run_vs(const uint32_t *w, size_t ndw, const struct eg_shader_env *e, struct eg_vs_output *out,
                  struct eg_shader_err *err)
{
    struct eg_program p = { "VS", w, ndw };
    return eg_run_vs(&p, NULL, e, 0, 0, out, err);
}

/* xf86-video-ati's composite-VS layout: CALL BOOL k -> A, CALL NOT_BOOL k
 * -> B, NOP with END_OF_PROGRAM; A and B each an ALU clause, an export
 * and RETURN. */
static size_t build_pick(uint32_t *w, size_t cap, unsigned k)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 3, 0, V_SQ_CF_COND__BOOL);      /* 0 */
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 6, 0, V_SQ_CF_COND__NOT_BOOL);  /* 1 */
    eg_asm_nop(&as);                                                     /* 2 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 3: A */
    mov(&as, 1, 0, eg_src_lit_f(1.0f));
    acc(&as, V_SQ_ALU_OP2__ADD, 10.0f);
    export_param(&as);                                                   /* 4 */
    eg_asm_return(&as);                                                  /* 5 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 6: B */
    mov(&as, 1, 0, eg_src_lit_f(2.0f));
    acc(&as, V_SQ_ALU_OP2__ADD, 100.0f);
    export_param(&as);                                                   /* 7 */
    eg_asm_return(&as);                                                  /* 8 */
    return finish(&as, w, cap, (const unsigned[]){ 0, 1 }, 2, k, 2);
}

static void subroutine_by_boolean(void **state)
{
    (void)state;
    static const unsigned ks[] = { 0, 5, 31 };
    for (unsigned i = 0; i < 3; i++) {
        uint32_t w[256];
        size_t n = build_pick(w, 256, ks[i]);
        /* the boolean alone, everything but it, nothing, everything */
        const uint32_t sets[4] = { 1u << ks[i], ~(1u << ks[i]), 0, ~0u };
        for (unsigned s = 0; s < 4; s++) {
            bools = sets[s];
            bool b = bools >> ks[i] & 1u;
            struct eg_vs_output out;
            struct eg_shader_err err;
            if (run_vs(w, n, &env, &out, &err))
                fail_msg("%s", err.msg);
            /* exactly one subroutine ran, once: x names it, y counts (A adds 10, B 100) */
            assert_true(out.param[0].f[0] == (b ? 1.0f : 2.0f));
            assert_true(out.param[0].f[1] == (b ? 10.0f : 100.0f));
        }
    }
}

/* main: CALL A; export; EOP.  A: y += 1; CALL B; y += 2; RETURN.
 * B: y *= 10; RETURN.  y = (0 + 1) * 10 + 2 = 12: B returned into the
 * middle of A, and A to main. */
static void nested_calls_return_in_order(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 2, 0, V_SQ_CF_COND__ACTIVE);    /* 0 */
    export_param(&as);                                                   /* 1: EOP */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 2: A */
    acc(&as, V_SQ_ALU_OP2__ADD, 1.0f);
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 6, 0, V_SQ_CF_COND__ACTIVE);    /* 3 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 4 */
    acc(&as, V_SQ_ALU_OP2__ADD, 2.0f);
    eg_asm_return(&as);                                                  /* 5 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 6: B */
    acc(&as, V_SQ_ALU_OP2__MUL, 10.0f);
    eg_asm_return(&as);                                                  /* 7 */
    uint32_t w[256];
    size_t n = finish(&as, w, 256, NULL, 0, 0, 1);
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (run_vs(w, n, &env, &out, &err))
        fail_msg("%s", err.msg);
    assert_true(out.param[0].f[1] == 12.0f);
}

/* COND FALSE never calls; a JUMP (taken when its condition holds for no
 * lane) with COND BOOL skips its block exactly when the boolean is clear. */
static void false_and_boolean_jumps(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 5, 0, V_SQ_CF_COND__FALSE);     /* 0 */
    eg_asm_flow(&as, V_SQ_CF_INST__JUMP, 3, 0, V_SQ_CF_COND__BOOL);      /* 1: skip 2 when clear */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 2 */
    acc(&as, V_SQ_ALU_OP2__ADD, 5.0f);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 3 */
    acc(&as, V_SQ_ALU_OP2__ADD, 1.0f);
    export_param(&as);                                                   /* 4: EOP */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 5: never called */
    acc(&as, V_SQ_ALU_OP2__ADD, 1000.0f);
    eg_asm_return(&as);                                                  /* 6 */
    uint32_t w[256];
    size_t n = finish(&as, w, 256, (const unsigned[]){ 1 }, 1, 7, 4);
    for (unsigned b = 0; b < 2; b++) {
        bools = b << 7;
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (run_vs(w, n, &env, &out, &err))
            fail_msg("%s", err.msg);
        assert_true(out.param[0].f[1] == (b ? 6.0f : 1.0f));
    }
}

/* On a quad: CALL with COND ACTIVE under an if that left lanes 1 and 3
 * active runs the subroutine for them only (run with the whole quad it
 * would write lanes 0 and 2 too), and the POP after the RETURN gives every
 * lane back; with no lane active nothing is written. */
static void call_under_a_branch(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);     /* 0: if (R0.x & 1) */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__AND_INT, .dst = { 2, 0, .write = true },
                                      .src = { eg_src_gpr(0, 0), eg_src_special(V_SQ_ALU_SRC__ONE_INT, 0) },
                                      .last = true });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__PRED_SETNE_INT, .src = { eg_src_gpr(2, 0),
                                      eg_src_special(V_SQ_ALU_SRC__ZERO, 0) }, .update_pred = true,
                                      .update_exec_mask = true, .last = true });
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 4, 0, V_SQ_CF_COND__ACTIVE);    /* 1 */
    eg_asm_flow(&as, V_SQ_CF_INST__POP, 3, 1, V_SQ_CF_COND__ACTIVE);     /* 2 */
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 1, .sel = EG_SWZ_XYZW,
                                            .done = true });             /* 3: EOP */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                 /* 4 */
    acc(&as, V_SQ_ALU_OP2__ADD, 3.0f);
    eg_asm_return(&as);                                                  /* 5 */
    uint32_t w[256];
    size_t n = finish(&as, w, 256, NULL, 0, 0, 3);
    struct eg_program p = { "PS", w, n };
    for (unsigned odd = 0; odd < 2; odd++) {
        union eg_vec4 r0[4] = { { .i = { 0 } }, { .i = { 1 } }, { .i = { 2 } }, { .i = { 3 } } };
        if (!odd)
            r0[1].i[0] = r0[3].i[0] = 4;    /* no odd lane: the CALL finds no lane */
        struct eg_ps_input in[4];
        for (int l = 0; l < 4; l++)
            in[l] = (struct eg_ps_input){ &r0[l], 1, NULL, 0 };
        struct eg_ps_output out[4];
        struct eg_shader_err err;
        if (eg_run_ps_lanes(&p, &env, in, 4, 0, out, &err))
            fail_msg("%s", err.msg);
        for (int l = 0; l < 4; l++)
            assert_true(out[l].color[0].f[1] == (odd && (l & 1) ? 3.0f : 0.0f));
    }
}

static void expect_fault(const uint32_t *w, size_t n, const struct eg_shader_env *e, const char *want)
{
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(run_vs(w, n, e, &out, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("fault \"%s\", want \"%s\"", err.msg, want);
}

static void faults_are_named(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t n = build_pick(w, 256, 2);
    /* no boolean constants to test */
    expect_fault(w, n, &(struct eg_shader_env){ 0 }, "CF condition on boolean constant 2 without boolean constants");
    /* a CALL with a POP_COUNT */
    w[1] |= S_SQ_CF_WORD1__POP_COUNT(1);
    bools = 4;
    expect_fault(w, n, &env, "unsupported CALL with POP_COUNT 1");
    /* a subroutine calling itself without end */
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 2, 0, V_SQ_CF_COND__ACTIVE);    /* 0 */
    export_param(&as);                                                   /* 1: EOP */
    eg_asm_flow(&as, V_SQ_CF_INST__CALL, 2, 0, V_SQ_CF_COND__ACTIVE);    /* 2 */
    eg_asm_return(&as);                                                  /* 3 */
    n = finish(&as, w, 256, NULL, 0, 0, 1);
    expect_fault(w, n, &env, "call stack overflow");
}

/* The disassembler lists each subroutine after the main program (the
 * Xv pixel shader's layout: subroutines past END_OF_PROGRAM), with the
 * conditions and the clauses they run. */
static void disassembles_subroutines(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t n = build_pick(w, 256, 3);
    char *text = test_disasm(w, n);
    for (const char *want = "CALL             ADDR:3 COND:BOOL CF_CONST:3\0CALL             ADDR:6 COND:NOT_BOOL "
                            "CF_CONST:3\0; subroutine at 3\0; subroutine at 6\0RETURN\0"
                            "0x40000000(2)\0";
         *want; want += strlen(want) + 1)
        if (!strstr(text, want))
            fail_msg("\"%s\" missing from:\n%s", want, text);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(subroutine_by_boolean),
        cmocka_unit_test(nested_calls_return_in_order),
        cmocka_unit_test(false_and_boolean_jumps),
        cmocka_unit_test(call_under_a_branch),
        cmocka_unit_test(faults_are_named),
        cmocka_unit_test(disassembles_subroutines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
