/* eg_ps_batch (src/shader/ps_batch.c) against eg_run_ps: random
 * straight-line pixel shaders (vector, trans, OP3, reductions, INTERP pairs,
 * KILL, every op that has a lane kernel (src/shader/alu_lanes.c; sources
 * also denormals, Infs, NaNs and integers), PV / PS forwarding, literals,
 * source modifiers, OMOD / CLAMP, exports
 * with swizzles) run over 64 pixels of random inputs must give, pixel by
 * pixel, the very bits the per-pixel interpreter gives; programs with control
 * flow are refused (NULL), never run differently. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/kernel_ops.h"

static uint32_t rng = 12345;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

static float rand_float(void)
{
    static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e30f, -1e-30f};
    uint32_t r = next();
    if (r % 8 == 0)
        return specials[(r >> 3) % 8];
    return ((float)(int32_t)(next() % 2000001u - 1000000) / 250000.0f);
}

static struct eg_alu_src rand_src(void)
{
    struct eg_alu_src s;
    switch (next() % 8) {
    case 0: s = next() % 3 ? eg_src_lit_f(rand_float()) : eg_src_lit_u(test_odd_bits[next() % TEST_NODD]); break;
    case 1: s = eg_src_special(V_SQ_ALU_SRC__PV, next() % 4); break;
    case 2: s = eg_src_special(V_SQ_ALU_SRC__PS, 0); break;
    case 3: s = eg_src_special(next() % 2 ? V_SQ_ALU_SRC__ONE : V_SQ_ALU_SRC__HALF, 0); break;
    default: s = eg_src_gpr(next() % 4, next() % 4); break;
    }
    s.neg = next() % 4 == 0;
    s.abs = next() % 5 == 0;
    return s;
}

static const struct test_op vec_ops[] = {
    {false, V_SQ_ALU_OP2__ADD}, {false, V_SQ_ALU_OP2__MUL}, {false, V_SQ_ALU_OP2__MAX},
    {false, V_SQ_ALU_OP2__MIN}, {false, V_SQ_ALU_OP2__MOV}, {false, V_SQ_ALU_OP2__FRACT},
    {false, V_SQ_ALU_OP2__SETGT}, {false, V_SQ_ALU_OP2__MUL_IEEE}, {false, V_SQ_ALU_OP2__FLT_TO_INT},
    {false, V_SQ_ALU_OP2__ADD_INT}, {false, V_SQ_ALU_OP2__KILLGT}, {true, V_SQ_ALU_OP3__MULADD},
    {true, V_SQ_ALU_OP3__CNDE}, {true, V_SQ_ALU_OP3__CNDGT_INT},
};
static const unsigned trans_ops[] = {V_SQ_ALU_OP2__RECIP_IEEE, V_SQ_ALU_OP2__SQRT_IEEE, V_SQ_ALU_OP2__EXP_IEEE};

static struct test_kernel_ops kops;   /* the ops with a lane kernel */

static void rand_dst(struct eg_alu *a, unsigned chan)
{
    a->dst.gpr = (uint8_t)(next() % 4);
    a->dst.chan = (uint8_t)chan;
    a->dst.write = a->op3 || next() % 4 != 0;
    a->dst.clamp = next() % 6 == 0;
    a->dst.omod = a->op3 ? 0 : (uint8_t)(next() % 6 == 0 ? 1 + next() % 3 : 0);
}

/* One random group into the open clause. */
static void rand_group(struct eg_asm *as)
{
    unsigned kind = next() % 6;
    if (kind == 0 || kind == 1) {
        /* a four-slot reduction or an INTERP pair set */
        unsigned op = kind == 0 ? (next() % 2 ? V_SQ_ALU_OP2__DOT4 : V_SQ_ALU_OP2__MAX4)
                                : (next() % 2 ? V_SQ_ALU_OP2__INTERP_XY : V_SQ_ALU_OP2__INTERP_ZW);
        for (unsigned c = 0; c < 4; c++) {
            struct eg_alu a = {.op = op};
            rand_dst(&a, c);
            if (kind == 1) {
                a.src[0] = eg_src_gpr(0, c % 2 ? 0 : 1); /* odd slot I, even slot J */
                a.src[1] = eg_src_special(V_SQ_ALU_SRC__PARAM_BASE + next() % 2, 0);
                a.dst.clamp = false, a.dst.omod = 0;
            } else {
                a.src[0] = rand_src();
                a.src[1] = rand_src();
            }
            a.last = c == 3;
            eg_asm_alu(as, &a);
        }
        return;
    }
    unsigned used = 1 + next() % 15;
    bool trans = next() % 3 == 0;
    unsigned last_chan = 0;
    for (unsigned c = 0; c < 4; c++)
        if ((used >> c) & 1u)
            last_chan = c;
    for (unsigned c = 0; c < 4; c++) {
        if (!((used >> c) & 1u))
            continue;
        const struct test_op *d = next() % 2 ? &kops.vec[next() % kops.nvec] : &vec_ops[next() % (sizeof vec_ops / sizeof vec_ops[0])];
        struct eg_alu a = {.op3 = d->op3, .op = d->op};
        rand_dst(&a, c);
        for (int s = 0; s < 3; s++)
            a.src[s] = rand_src();
        a.last = !trans && c == last_chan;
        eg_asm_alu(as, &a);
    }
    if (trans) {
        struct eg_alu a = {.op = trans_ops[next() % 3]};
        if (next() % 2) {
            const struct test_op *d = &kops.trans[next() % kops.ntrans];
            a = (struct eg_alu){.op3 = d->op3, .op = d->op};
        }
        rand_dst(&a, next() % 4);
        for (int i = 0; i < 3; i++)
            a.src[i] = rand_src();
        a.last = true;
        eg_asm_alu(as, &a);
    }
}

static void rand_param(struct eg_ps_param *p)
{
    for (int c = 0; c < 4; c++) {
        p->p0[c] = rand_float();
        p->p10[c] = rand_float();
        p->p20[c] = rand_float();
    }
}

/* One run of batch b (program `it`) over n pixels of random inputs and
 * parameters (left in par), compared with eg_run_ps pixel by pixel.
 * Returns n. */
static unsigned run_and_compare(struct eg_ps_batch *b, const struct eg_program *prog, const struct eg_shader_env *env,
                                int it, unsigned n, struct eg_ps_param par[2])
{
    union eg_vec4 in[EG_PS_BATCH_MAX][2];
    eg_ps_batch_begin(b, n);
    for (unsigned l = 0; l < n; l++)
        for (unsigned g = 0; g < 2; g++)
            for (unsigned c = 0; c < 4; c++) {
                in[l][g].f[c] = rand_float();
                uint32_t *lane = eg_ps_batch_gpr(b, g, c);
                if (lane)
                    lane[l] = in[l][g].u[c];
            }
    rand_param(&par[0]);
    rand_param(&par[1]);
    assert_int_equal(eg_ps_batch_run(b, par, 2), 0);
    bool any_killed = false;
    for (unsigned l = 0; l < n; l++) {
        struct eg_ps_input pin = {in[l], 2, par, 2};
        struct eg_ps_output o;
        struct eg_shader_err err;
        if (eg_run_ps(prog, env, &pin, &o, &err))
            fail_msg("program %d taken by the batch but refused per pixel: %s", it, err.msg);
        assert_int_equal(o.color_mask, eg_ps_batch_color_mask(b));
        assert_int_equal(o.killed, eg_ps_batch_killed(b)[l]);
        any_killed |= o.killed;
        for (unsigned t = 0; t < 2; t++)
            for (unsigned c = 0; c < 4; c++)
                if (o.color[t].u[c] != eg_ps_batch_color(b, t, c)[l])
                    fail_msg("program %d pixel %u colour %u.%c: per pixel 0x%08x, batch 0x%08x", it, l, t,
                             "xyzw"[c], o.color[t].u[c], eg_ps_batch_color(b, t, c)[l]);
    }
    assert_int_equal(any_killed, eg_ps_batch_any_killed(b));
    return n;
}

static void batch_matches_per_pixel(void **state)
{
    (void)state;
    struct eg_shader_env env;
    memset(&env, 0, sizeof env);
    unsigned accepted = 0, compared = 0, refused_runnable = 0;
    test_kernel_ops(&kops);
    for (int it = 0; it < 300; it++) {
        struct eg_asm as;
        eg_asm_init(&as);
        unsigned nclauses = 1 + next() % 2;
        for (unsigned k = 0; k < nclauses; k++) {
            eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
            unsigned ng = 1 + next() % 6;
            for (unsigned g = 0; g < ng; g++)
                rand_group(&as);
            if (k + 1 < nclauses && next() % 2) {
                /* an export between the clauses: of GPRs the next clause
                 * may rewrite, to colour 1 (which the last export may
                 * leave) or 0 */
                uint8_t msel[4];
                for (int c = 0; c < 4; c++)
                    msel[c] = (uint8_t)(next() % 7 == 0 ? V_SQ_INST_SEL__ZERO + next() % 3 : next() % 4);
                eg_asm_export(&as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = next() % 2,
                                                      .gpr = next() % 4,
                                                      .sel = {msel[0], msel[1], msel[2], msel[3]}});
            }
        }
        uint8_t sel[4];
        for (int c = 0; c < 4; c++)
            sel[c] = (uint8_t)(next() % 7 == 0 ? V_SQ_INST_SEL__ZERO + next() % 3 : next() % 4);
        eg_asm_export(&as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = 1,
                                              .sel = {sel[0], sel[1], sel[2], sel[3]},
                                              .burst_count = next() % 2, .done = true});
        uint32_t w[1024];
        size_t ndw;
        if (eg_asm_finish(&as, true, w, 1024, &ndw))
            continue; /* not encodable (e.g. too many literals): another one */
        struct eg_program prog = {"PS", w, ndw};
        struct eg_ps_batch *b = eg_ps_batch_new(&prog, &env, 2);
        if (!b) {
            union eg_vec4 g[2] = {{.f = {0.25f, 0.5f, 0, 0}}};
            struct eg_ps_param par[2];
            memset(par, 0, sizeof par);
            struct eg_ps_input pin = {g, 2, par, 2};
            struct eg_ps_output o;
            struct eg_shader_err err;
            if (eg_run_ps(&prog, &env, &pin, &o, &err) == 0)
                refused_runnable++;
            continue;
        }
        accepted++;
        /* three runs of the same batch, the second of all 64 lanes: a run
         * must not depend on what the one before left in the lanes (begin
         * zeroes only what the program reads before writing it, colours are
         * not cleared per run) */
        struct eg_ps_param par[2];
        for (int run = 0; run < 3; run++)
            compared += run_and_compare(b, &prog, &env, it, run == 1 ? EG_PS_BATCH_MAX : 1 + next() % EG_PS_BATCH_MAX,
                                        par);
        unsigned n = 1 + next() % EG_PS_BATCH_MAX;
        /* a parameter the primitive does not have: left to eg_run_ps */
        eg_ps_batch_begin(b, n);
        assert_int_equal(eg_ps_batch_run(b, par, 0) == 1 || eg_ps_batch_run(b, par, 0) == 0, 1);
        eg_ps_batch_free(b);
    }
    printf("batch: %u of 300 random programs taken, %u pixels compared, %u refused that eg_run_ps runs\n",
           accepted, compared, refused_runnable);
    assert_true(accepted > 100);
    assert_int_equal(refused_runnable, 0);
}

/* Control flow (Mesa's if/else shape) is left to the per-pixel interpreter. */
static void control_flow_refused(void **state)
{
    (void)state;
    struct eg_shader_env env;
    memset(&env, 0, sizeof env);
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__PRED_SETGT, .dst = {0, 0, .write = false},
                                     .src = {eg_src_gpr(0, 0), eg_src_special(V_SQ_ALU_SRC__HALF, 0)},
                                     .update_exec_mask = true, .update_pred = true, .last = true});
    eg_asm_cf(&as, V_SQ_CF_INST__POP);
    eg_asm_export(&as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 0, .sel = {0, 1, 2, 3},
                                          .done = true});
    uint32_t w[256];
    size_t ndw;
    assert_int_equal(eg_asm_finish(&as, true, w, 256, &ndw), 0);
    struct eg_program prog = {"PS", w, ndw};
    assert_null(eg_ps_batch_new(&prog, &env, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_matches_per_pixel),
        cmocka_unit_test(control_flow_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
