/* The shader core's execution model on four lanes (a quad): loops with
 * per-lane trip counts, LOOP_BREAK / LOOP_CONTINUE, nested if/else masks,
 * KILL coverage, predication (PRED_SEL, UPDATE_PRED, UPDATE_EXEC_MASK),
 * MOVA_INT with relative GPR and constant operands, and counted loops with
 * the loop index aL.  Each program is laid out as Mesa's r600 compiler lays
 * out its control flow (r600_shader.c / sfn: JUMP to the ELSE, or past the
 * endif's POP with POP_COUNT 1; ELSE past the endif's POP with POP_COUNT 1;
 * LOOP_START to the instruction after LOOP_END, LOOP_END to the one after
 * LOOP_START, LOOP_BREAK / LOOP_CONTINUE to LOOP_END), and every expected
 * value is worked out by hand in the comment beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"

#define NL 4

static uint32_t consts[16][4];
static uint32_t loop_const_value;

static int constant(void *c, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t len)
{
    (void)c;
    if (bank != 0 || index >= 16) {
        snprintf(msg, len, "no constant %u[%u]", bank, index);
        return -1;
    }
    memcpy(out, consts[index], 16);
    return 0;
}

static int loop_const(void *c, unsigned index, uint32_t *out, char *msg, size_t len)
{
    (void)c;
    if (index != 0) {
        snprintf(msg, len, "no loop constant %u", index);
        return -1;
    }
    *out = loop_const_value;
    return 0;
}

static struct eg_alu_src gpr(unsigned g, unsigned c)
{
    return eg_src_gpr(g, c);
}

static struct eg_alu_src lit(uint32_t v)
{
    return eg_src_lit_u(v);
}

static struct eg_alu_src special(unsigned sel)
{
    return eg_src_special(sel, 0);
}

/* A one-instruction group: dst.chan = op(a, b). */
static void op2(struct eg_asm *as, unsigned op, unsigned dg, unsigned dc, struct eg_alu_src a, struct eg_alu_src b)
{
    eg_asm_alu(as, &(struct eg_alu){ .op = op, .dst = { (uint8_t)dg, (uint8_t)dc, .write = true }, .src = { a, b },
                                     .last = true });
}

/* A predicate that sets the exec mask and the predicate (as Mesa's if does). */
static void pred(struct eg_asm *as, unsigned op, struct eg_alu_src a, struct eg_alu_src b)
{
    eg_asm_alu(as, &(struct eg_alu){ .op = op, .dst = { 0, 0, .write = false }, .src = { a, b },
                                     .update_pred = true, .update_exec_mask = true, .last = true });
}

static void export_color(struct eg_asm *as, unsigned g, unsigned burst)
{
    eg_asm_export(as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = g,
                                           .sel = EG_SWZ_XYZW, .burst_count = burst, .done = true });
}

/* Runs the program on NL lanes whose R0 is r0[l]; out[l] the lane's result. */
static void run_lanes(struct eg_asm *as, const union eg_vec4 r0[NL], uint32_t helpers, struct eg_ps_output out[NL])
{
    uint32_t w[1024];
    size_t ndw;
    if (eg_asm_finish(as, true, w, 1024, &ndw))
        fail_msg("encoder: %s", as->err);
    struct eg_program p = { "PS", w, ndw };
    struct eg_shader_env env = { .constant = constant, .loop_const = loop_const };
    struct eg_ps_input in[NL];
    for (int l = 0; l < NL; l++)
        in[l] = (struct eg_ps_input){ &r0[l], 1, NULL, 0 };
    struct eg_shader_err err;
    if (eg_run_ps_lanes(&p, &env, in, NL, helpers, out, &err))
        fail_msg("run: %s", err.msg);
}

static void ints(union eg_vec4 r0[NL], int32_t a, int32_t b, int32_t c, int32_t d)
{
    memset(r0, 0, NL * sizeof *r0);
    r0[0].i[0] = a, r0[1].i[0] = b, r0[2].i[0] = c, r0[3].i[0] = d;
}

/* for (i = 0;; ) { iters++; if (i >= n) break; t = i++; if (t & 1) continue; sum += t; }
 * with n = R0.x per lane; exports (i, sum, iters). */
static void build_loop(struct eg_asm *as)
{
    eg_asm_init(as);
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 0 */
    op2(as, V_SQ_ALU_OP2__MOV, 1, 0, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    op2(as, V_SQ_ALU_OP2__MOV, 1, 1, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    op2(as, V_SQ_ALU_OP2__MOV, 1, 2, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    eg_asm_flow(as, V_SQ_CF_INST__LOOP_START_DX10, 14, 0, 0);                 /* 1 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 2 */
    op2(as, V_SQ_ALU_OP2__ADD_INT, 1, 2, gpr(1, 2), special(V_SQ_ALU_SRC__ONE_INT));
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);           /* 3 */
    pred(as, V_SQ_ALU_OP2__PRED_SETGE_INT, gpr(1, 0), gpr(0, 0));
    eg_asm_flow(as, V_SQ_CF_INST__JUMP, 7, 1, 0);                             /* 4 */
    eg_asm_flow(as, V_SQ_CF_INST__LOOP_BREAK, 13, 0, 0);                      /* 5 */
    eg_asm_flow(as, V_SQ_CF_INST__POP, 7, 1, 0);                              /* 6 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 7 */
    op2(as, V_SQ_ALU_OP2__MOV, 2, 0, gpr(1, 0), gpr(1, 0));
    op2(as, V_SQ_ALU_OP2__ADD_INT, 1, 0, gpr(1, 0), special(V_SQ_ALU_SRC__ONE_INT));
    op2(as, V_SQ_ALU_OP2__AND_INT, 2, 1, gpr(2, 0), special(V_SQ_ALU_SRC__ONE_INT));
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);           /* 8 */
    pred(as, V_SQ_ALU_OP2__PRED_SETNE_INT, gpr(2, 1), special(V_SQ_ALU_SRC__ZERO));
    eg_asm_flow(as, V_SQ_CF_INST__JUMP, 12, 1, 0);                            /* 9 */
    eg_asm_flow(as, V_SQ_CF_INST__LOOP_CONTINUE, 13, 0, 0);                   /* 10 */
    eg_asm_flow(as, V_SQ_CF_INST__POP, 12, 1, 0);                             /* 11 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 12 */
    op2(as, V_SQ_ALU_OP2__ADD_INT, 1, 1, gpr(1, 1), gpr(2, 0));
    eg_asm_flow(as, V_SQ_CF_INST__LOOP_END, 2, 0, 0);                         /* 13 */
    export_color(as, 1, 0);                                                   /* 14 */
}

static void loop_trip_counts_per_lane(void **state)
{
    (void)state;
    struct eg_asm as;
    union eg_vec4 r0[NL];
    struct eg_ps_output out[NL];
    /* n = 1, 2, 3, 5: the body's top runs for i = 0..n (n+1 times); sum of
     * the even t below n: 0, 0, 0+2, 0+2+4 */
    static const int32_t n[NL] = { 1, 2, 3, 5 }, sum[NL] = { 0, 0, 2, 6 };
    build_loop(&as);
    ints(r0, n[0], n[1], n[2], n[3]);
    run_lanes(&as, r0, 0, out);
    for (int l = 0; l < NL; l++) {
        assert_int_equal(out[l].color_mask, 1);
        assert_int_equal(out[l].color[0].i[0], n[l]);
        assert_int_equal(out[l].color[0].i[1], sum[l]);
        assert_int_equal(out[l].color[0].i[2], n[l] + 1);
    }
    /* n = 0 everywhere: every lane breaks in the first iteration (the
     * LOOP_BREAK jumps to LOOP_END), i = sum = 0, iters = 1 */
    ints(r0, 0, 0, 0, 0);
    run_lanes(&as, r0, 0, out);
    for (int l = 0; l < NL; l++) {
        assert_int_equal(out[l].color[0].i[0], 0);
        assert_int_equal(out[l].color[0].i[1], 0);
        assert_int_equal(out[l].color[0].i[2], 1);
    }
}

/* if (v >= 2) { if (v == 3) r = 30; else r = 20; } else { if (v == 0) r = 5; else r = 10; } */
static void build_nested_if(struct eg_asm *as)
{
    eg_asm_init(as);
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);           /* 0 */
    pred(as, V_SQ_ALU_OP2__PRED_SETGE_INT, gpr(0, 0), lit(2));
    eg_asm_flow(as, V_SQ_CF_INST__JUMP, 7, 0, 0);                             /* 1: to the outer ELSE */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);           /* 2 */
    pred(as, V_SQ_ALU_OP2__PRED_SETE_INT, gpr(0, 0), lit(3));
    eg_asm_flow(as, V_SQ_CF_INST__JUMP, 5, 0, 0);                             /* 3 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 4 */
    op2(as, V_SQ_ALU_OP2__MOV, 1, 0, lit(30), lit(30));
    eg_asm_flow(as, V_SQ_CF_INST__ELSE, 7, 1, 0);                             /* 5 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_POP_AFTER, NULL);             /* 6 */
    op2(as, V_SQ_ALU_OP2__MOV, 1, 0, lit(20), lit(20));
    eg_asm_flow(as, V_SQ_CF_INST__ELSE, 14, 1, 0);                            /* 7: outer ELSE */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);           /* 8 */
    pred(as, V_SQ_ALU_OP2__PRED_SETE_INT, gpr(0, 0), special(V_SQ_ALU_SRC__ZERO));
    eg_asm_flow(as, V_SQ_CF_INST__JUMP, 11, 0, 0);                            /* 9 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);                       /* 10 */
    op2(as, V_SQ_ALU_OP2__MOV, 1, 0, lit(5), lit(5));
    eg_asm_flow(as, V_SQ_CF_INST__ELSE, 13, 1, 0);                            /* 11 */
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU_POP_AFTER, NULL);             /* 12 */
    op2(as, V_SQ_ALU_OP2__MOV, 1, 0, lit(10), lit(10));
    eg_asm_flow(as, V_SQ_CF_INST__POP, 14, 1, 0);                             /* 13 */
    export_color(as, 1, 0);                                                   /* 14 */
}

static void nested_if_else_masks(void **state)
{
    (void)state;
    struct eg_asm as;
    union eg_vec4 r0[NL];
    struct eg_ps_output out[NL];
    build_nested_if(&as);
    static const int32_t v[3][NL] = { { 0, 1, 2, 3 }, { 3, 3, 3, 3 }, { 1, 0, 1, 0 } };
    for (int k = 0; k < 3; k++) {
        ints(r0, v[k][0], v[k][1], v[k][2], v[k][3]);
        run_lanes(&as, r0, 0, out);
        for (int l = 0; l < NL; l++) {
            static const int32_t want[4] = { 5, 10, 20, 30 };   /* by v, from the program's text */
            assert_int_equal(out[l].color_mask, 1);
            assert_int_equal(out[l].color[0].i[0], want[v[k][l]]);
        }
    }
}

static void kill_coverage(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    /* KILLGT(0, x): kills where 0 > x */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__KILLGT, .dst = { 0, 0, .write = false },
                                      .src = { special(V_SQ_ALU_SRC__ZERO), gpr(0, 0) }, .last = true });
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 0, gpr(0, 0), gpr(0, 0));
    export_color(&as, 1, 0);
    union eg_vec4 r0[NL] = { { .f = { -1.0f } }, { .f = { -0.0f } }, { .f = { 0.5f } }, { .f = { -3.0f } } };
    struct eg_ps_output out[NL];
    run_lanes(&as, r0, 0, out);
    /* 0 > -1: killed; 0 > -0: no (equal); 0 > 0.5: no; 0 > -3: killed */
    static const bool killed[NL] = { true, false, false, true };
    for (int l = 0; l < NL; l++)
        assert_int_equal(out[l].killed, killed[l]);
}

static void predication(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 0, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 1, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    /* predicate only: pred = (x > 1) */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__PRED_SETGT_INT, .dst = { 0, 0, .write = false },
                                      .src = { gpr(0, 0), special(V_SQ_ALU_SRC__ONE_INT) }, .update_pred = true,
                                      .last = true });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 0, .write = true },
                                      .src = { lit(7) }, .pred_sel = V_SQ_ALU_PRED_SEL__ONE });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 1, .write = true },
                                      .src = { lit(9) }, .pred_sel = V_SQ_ALU_PRED_SEL__ZERO, .last = true });
    /* then the exec mask: lanes with x == 3 stop here and export nothing */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__PRED_SETNE_INT, .dst = { 0, 0, .write = false },
                                      .src = { gpr(0, 0), lit(3) }, .update_exec_mask = true, .last = true });
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 2, lit(1), lit(1));
    export_color(&as, 1, 0);
    union eg_vec4 r0[NL];
    ints(r0, 0, 1, 2, 3);
    struct eg_ps_output out[NL];
    run_lanes(&as, r0, 0, out);
    /* x = 0, 1: pred false -> R1 = (0, 9, 1); x = 2: pred true -> (7, 0, 1); x = 3: inactive */
    static const int32_t want[3][2] = { { 0, 9 }, { 0, 9 }, { 7, 0 } };
    for (int l = 0; l < 3; l++) {
        assert_int_equal(out[l].color_mask, 1);
        assert_int_equal(out[l].color[0].i[0], want[l][0]);
        assert_int_equal(out[l].color[0].i[1], want[l][1]);
        assert_int_equal(out[l].color[0].i[2], 1);
    }
    assert_int_equal(out[3].color_mask, 0);
}

static void relative_addressing(void **state)
{
    (void)state;
    for (int i = 0; i < 16; i++)
        consts[i][1] = 1000u + (uint32_t)i;
    struct eg_asm as;
    eg_asm_init(&as);
    const struct eg_kcache kc[2] = { { 0, 0, V_SQ_KCACHE_MODE__LOCK_1 }, { 0, 0, V_SQ_KCACHE_MODE__NOP } };
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, kc);
    for (unsigned r = 0; r < 4; r++) {
        op2(&as, V_SQ_ALU_OP2__MOV, 10 + r, 0, lit(100 + r), lit(100 + r));
        op2(&as, V_SQ_ALU_OP2__MOV, 20 + r, 1, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    }
    /* AR = R0.x; in the same group a relative read still sees the AR before
     * it (0 at the start): R2.z = R10.x */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOVA_INT, .dst = { 0, 0 }, .src = { gpr(0, 0) } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 2, .write = true },
                                      .src = { { .sel = 10, .chan = 0, .rel = true } }, .last = true });
    /* R2.x = R[10 + AR].x; R[20 + AR].y = 55; R2.y = KC0[1 + AR].y */
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 0, .write = true },
                                      .src = { { .sel = 10, .chan = 0, .rel = true } } });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 20, 1, .write = true, .rel = true },
                                      .src = { lit(55) }, .last = true });
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 1, .write = true },
                                      .src = { { .sel = V_SQ_ALU_SRC__KCACHE0_BASE + 1, .chan = 1, .rel = true } },
                                      .last = true });
    for (unsigned r = 0; r < 4; r++)
        op2(&as, V_SQ_ALU_OP2__MOV, 3, r, gpr(20 + r, 1), gpr(20 + r, 1));
    export_color(&as, 2, 1);
    union eg_vec4 r0[NL];
    ints(r0, 0, 1, 2, 3);
    struct eg_ps_output out[NL];
    run_lanes(&as, r0, 0, out);
    for (int l = 0; l < NL; l++) {
        assert_int_equal(out[l].color_mask, 3);
        assert_int_equal(out[l].color[0].u[0], 100u + (unsigned)l);     /* R10+i */
        assert_int_equal(out[l].color[0].u[1], 1001u + (unsigned)l);    /* constant 1+i */
        assert_int_equal(out[l].color[0].u[2], 100u);                   /* AR still 0 */
        for (int r = 0; r < 4; r++)
            assert_int_equal(out[l].color[1].u[r], r == l ? 55u : 0u);  /* only R20+i written */
    }
    /* MOVA_INT clamps to [-256, 255]: R0.x = 300 reads R[10 + 255]: outside the registers */
    ints(r0, 300, 0, 0, 0);
    uint32_t w[1024];
    size_t ndw;
    assert_int_equal(eg_asm_finish(&as, true, w, 1024, &ndw), 0);
    struct eg_program p = { "PS", w, ndw };
    struct eg_shader_env env = { .constant = constant };
    struct eg_ps_input in[NL];
    for (int l = 0; l < NL; l++)
        in[l] = (struct eg_ps_input){ &r0[l], 1, NULL, 0 };
    struct eg_shader_err err;
    assert_int_equal(eg_run_ps_lanes(&p, &env, in, NL, 0, out, &err), -1);
    assert_non_null(strstr(err.msg, "relative source R10+255 outside the registers"));
}

static void counted_loop_index(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 0 */
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 0, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    eg_asm_flow(&as, V_SQ_CF_INST__LOOP_START, 4, 0, 0);                      /* 1 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 2 */
    op2(&as, V_SQ_ALU_OP2__ADD_INT, 1, 0, gpr(1, 0), special(V_SQ_ALU_SRC__ONE_INT));
    eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 10, 0, .write = true, .rel = true },
                                      .src = { gpr(1, 0) }, .index_mode = V_SQ_ALU_INDEX_MODE__LOOP,
                                      .last = true });
    eg_asm_flow(&as, V_SQ_CF_INST__LOOP_END, 2, 0, 0);                        /* 3 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 4 */
    op2(&as, V_SQ_ALU_OP2__MOV, 2, 0, gpr(12, 0), gpr(12, 0));
    op2(&as, V_SQ_ALU_OP2__MOV, 2, 1, gpr(15, 0), gpr(15, 0));
    op2(&as, V_SQ_ALU_OP2__MOV, 2, 2, gpr(18, 0), gpr(18, 0));
    op2(&as, V_SQ_ALU_OP2__MOV, 2, 3, gpr(1, 0), gpr(1, 0));
    export_color(&as, 2, 0);
    union eg_vec4 r0[NL];
    ints(r0, 0, 0, 0, 0);
    struct eg_ps_output out[NL];
    /* COUNT 3, INIT 2, INC 3: aL = 2, 5, 8; R12.x = 1, R15.x = 2, R18.x = 3 */
    loop_const_value = 3u | 2u << 12 | 3u << 24;
    run_lanes(&as, r0, 0, out);
    assert_int_equal(out[0].color[0].u[0], 1);
    assert_int_equal(out[0].color[0].u[1], 2);
    assert_int_equal(out[0].color[0].u[2], 3);
    assert_int_equal(out[0].color[0].u[3], 3);
    /* COUNT 0: the body never runs; INC -1 (0xFF) from INIT 6: aL = 6, 5, 4 -> R16, R15, R14 */
    loop_const_value = 0u | 6u << 12 | 0xFFu << 24;
    run_lanes(&as, r0, 0, out);
    assert_int_equal(out[0].color[0].u[3], 0);
    loop_const_value = 3u | 6u << 12 | 0xFFu << 24;
    run_lanes(&as, r0, 0, out);
    assert_int_equal(out[0].color[0].u[1], 2);     /* R15 = the second iteration's count */
    assert_int_equal(out[0].color[0].u[3], 3);
}

/* R1.x = 0, then a loop whose body adds 1 and breaks (LOOP_START_DX10 at
 * CF instruction 1), R1 exported: into w, its length in *ndw. */
static void break_loop_program(uint32_t w[256], size_t *ndw)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 0 */
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 0, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    eg_asm_flow(&as, V_SQ_CF_INST__LOOP_START_DX10, 5, 0, 0);                 /* 1 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 2 */
    op2(&as, V_SQ_ALU_OP2__ADD_INT, 1, 0, gpr(1, 0), special(V_SQ_ALU_SRC__ONE_INT));
    eg_asm_flow(&as, V_SQ_CF_INST__LOOP_BREAK, 4, 0, 0);                      /* 3 */
    eg_asm_flow(&as, V_SQ_CF_INST__LOOP_END, 2, 0, 0);                        /* 4 */
    export_color(&as, 1, 0);                                                  /* 5 */
    assert_int_equal(eg_asm_finish(&as, true, w, 256, ndw), 0);
}

/* VALID_PIXEL_MODE on LOOP_START: helper lanes stay out of the loop. */
static void helpers_and_valid_pixel_mode(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t ndw;
    break_loop_program(w, &ndw);
    w[3] |= S_SQ_CF_WORD1__VALID_PIXEL_MODE(1);     /* LOOP_START's word 1 */
    struct eg_program p = { "PS", w, ndw };
    struct eg_shader_env env = { .constant = constant };
    union eg_vec4 r0[NL];
    ints(r0, 0, 0, 0, 0);
    struct eg_ps_input in[NL];
    for (int l = 0; l < NL; l++)
        in[l] = (struct eg_ps_input){ &r0[l], 1, NULL, 0 };
    struct eg_ps_output out[NL];
    struct eg_shader_err err;
    /* lanes 1 and 3 helpers: they skip the body (R1.x stays 0), the others run it once */
    assert_int_equal(eg_run_ps_lanes(&p, &env, in, NL, 0xA, out, &err), 0);
    for (int l = 0; l < NL; l++)
        assert_int_equal(out[l].color[0].u[0], l & 1 ? 0u : 1u);
}

/* eg_program_has_loop against programs assembled here: each LOOP_START
 * form found wherever it stands before END_OF_PROGRAM, none in a straight
 * program, nor in words after END_OF_PROGRAM, nor past a program's end. */
static void loop_detection(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t ndw;
    break_loop_program(w, &ndw);
    struct eg_program p = { "PS", w, ndw };
    assert_true(eg_program_has_loop(&p));
    /* the other two forms of LOOP_START (word 1 of CF instruction 1) */
    const unsigned forms[] = { V_SQ_CF_INST__LOOP_START, V_SQ_CF_INST__LOOP_START_NO_AL };
    for (unsigned k = 0; k < 2; k++) {
        uint32_t v[256];
        memcpy(v, w, ndw * 4);
        v[3] = (v[3] & ~SQ_CF_WORD1__CF_INST__MASK) | S_SQ_CF_WORD1__CF_INST(forms[k]);
        struct eg_program q = { "PS", v, ndw };
        assert_true(eg_program_has_loop(&q));
    }
    /* the program cut before its LOOP_START: no loop seen (and nothing read past ndw) */
    struct eg_program cut = { "PS", w, 3 };
    assert_false(eg_program_has_loop(&cut));

    /* a straight program, then a LOOP_START's words after its END_OF_PROGRAM */
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                      /* 0 */
    op2(&as, V_SQ_ALU_OP2__MOV, 1, 0, special(V_SQ_ALU_SRC__ZERO), special(V_SQ_ALU_SRC__ZERO));
    export_color(&as, 1, 0);                                                  /* 1 */
    uint32_t st[256];
    size_t nst;
    assert_int_equal(eg_asm_finish(&as, true, st, 254, &nst), 0);
    struct eg_program straight = { "PS", st, nst };
    assert_false(eg_program_has_loop(&straight));
    assert_true(G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(st[3]));
    /* CF instruction 2 (the words after the export) as a LOOP_START: not part of the program */
    uint32_t after[256];
    memcpy(after, st, nst * 4);
    after[4] = 0;
    after[5] = S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__LOOP_START_DX10);
    struct eg_program tail = { "PS", after, nst > 6 ? nst : 6 };
    assert_false(eg_program_has_loop(&tail));
    /* the same words before the END_OF_PROGRAM: a loop */
    after[3] &= ~SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM__MASK;
    assert_true(eg_program_has_loop(&tail));
}

/* eg_program_tex_fetches against programs assembled here: the
 * instructions of every TC clause before END_OF_PROGRAM (two clauses of 3
 * and 5), not a VC clause's, and not a TC clause's words after the end. */
static void tex_fetch_count(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);                                                   /* 0 */
    for (unsigned k = 0; k < 3; k++)
        eg_asm_tex(&as, &(struct eg_tex){ .inst = V_SQ_TEX_INST__LD, .src_gpr = 0, .dst_gpr = 1 + k,
                                          .dst_sel = EG_SWZ_XYZW });
    eg_asm_vtx_clause(&as);                                                   /* 1 */
    for (unsigned k = 0; k < 2; k++)
        eg_asm_vtx(&as, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .src_gpr = 0, .dst_gpr = 4 + k,
                                          .dst_sel = EG_SWZ_XYZW });
    eg_asm_tex_clause(&as);                                                   /* 2 */
    for (unsigned k = 0; k < 5; k++)
        eg_asm_tex(&as, &(struct eg_tex){ .inst = V_SQ_TEX_INST__SAMPLE, .src_gpr = 0, .dst_gpr = 6 + k,
                                          .dst_sel = EG_SWZ_XYZW });
    export_color(&as, 1, 0);                                                  /* 3 */
    uint32_t w[256];
    size_t ndw;
    if (eg_asm_finish(&as, true, w, 254, &ndw))
        fail_msg("encoder: %s", as.err);
    struct eg_program p = { "PS", w, ndw };
    assert_int_equal(eg_program_tex_fetches(&p), 8);
    assert_false(eg_program_has_loop(&p));
    /* cut after the first clause's CF word: its 3 only */
    struct eg_program cut = { "PS", w, 2 };
    assert_int_equal(eg_program_tex_fetches(&cut), 3);
    /* CF instruction 4, after the export's END_OF_PROGRAM, as a TC clause of 16: not counted */
    uint32_t after[256];
    memcpy(after, w, ndw * 4);
    after[8] = 0;
    after[9] = S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__TC) | S_SQ_CF_WORD1__COUNT(15);
    struct eg_program tail = { "PS", after, ndw };
    assert_int_equal(eg_program_tex_fetches(&tail), 8);
    /* the same words before the END_OF_PROGRAM: 16 more */
    after[7] &= ~SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM__MASK;
    assert_int_equal(eg_program_tex_fetches(&tail), 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loop_trip_counts_per_lane),
        cmocka_unit_test(tex_fetch_count),
        cmocka_unit_test(nested_if_else_masks),
        cmocka_unit_test(kill_coverage),
        cmocka_unit_test(predication),
        cmocka_unit_test(relative_addressing),
        cmocka_unit_test(counted_loop_index),
        cmocka_unit_test(helpers_and_valid_pixel_mode),
        cmocka_unit_test(loop_detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
