/* Robustness of the shader disassembler and interpreter on hostile
 * microcode: the real shaders of tests/data/shader/ with random word and bit
 * mutations, plus wholly random programs (fixed seeds).  Each must come back
 * with a status (disassembler: OK / UNKNOWN / MALFORMED; interpreter: 0 or
 * -1 with a one-line reason), never a sanitizer report, and must terminate:
 * control flow that loops forever is cut off with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "cedar/vc_hw.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

/* Memory and resources the fuzzed shaders can reach: a small vertex buffer,
 * constants, one 4x4 texture; anything else is refused with a message. */
#define VB_ADDR 0x10000u
static uint8_t vram[1024];
static void *mem_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (addr < VB_ADDR || len > sizeof vram || addr - VB_ADDR > sizeof vram - len)
        return NULL;
    return vram + (addr - VB_ADDR);
}
static const struct vc_mem mem = { .ctx = NULL, .ptr = mem_ptr };

static int vtx_res(void *c, unsigned res, struct eg_vtx_resource *out, char *msg, size_t len)
{
    (void)c;
    if (res % 3 == 2) {
        snprintf(msg, len, "no resource %u", res);
        return -1;
    }
    /* sizes and strides that do and do not fit the buffer */
    *out = (struct eg_vtx_resource){ .base = VB_ADDR, .size = res % 3 ? 4096 : 96, .stride = res % 3 ? 0 : 12,
                                     .data_format = res & 63, .num_format = res % 3 };
    return 0;
}
static int constant(void *c, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t len)
{
    (void)c;
    if (index >= 256) {
        snprintf(msg, len, "no constant %u of bank %u", index, bank);
        return -1;
    }
    for (int i = 0; i < 4; i++)
        out[i] = index * 4 + (unsigned)i + bank;
    return 0;
}
static int tex_res(void *c, unsigned res, struct eg_tex_resource *out, char *msg, size_t len)
{
    (void)c;
    if (res > 4) {
        snprintf(msg, len, "no texture %u", res);
        return -1;
    }
    *out = (struct eg_tex_resource){ .width = 4, .height = 4, .depth = 1, .dst_sel = { 0, 1, 2, 3 },
                                     .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .levels = 1, .samples = 1 };
    return 0;
}
static int tex_samp(void *c, unsigned s, unsigned res, struct eg_tex_sampler *out, char *msg, size_t len)
{
    (void)c, (void)res, (void)msg, (void)len;
    *out = (struct eg_tex_sampler){ .clamp_x = s % 8, .clamp_y = (s + 1) % 8, .clamp_z = s % 4,
                                    .mag_filter = s % 2, .min_filter = s % 3 };
    return 0;
}
static int texel(void *c, unsigned res, int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg,
                 size_t len)
{
    (void)c, (void)res, (void)z, (void)sample;
    if (x < 0 || y < 0 || x >= 4 || y >= 4) {   /* the interpreter must have clamped */
        snprintf(msg, len, "texel (%d,%d) outside the 4x4 texture", x, y);
        fail_msg("texel callback got (%d,%d) outside the texture", x, y);
    }
    for (int i = 0; i < 4; i++)
        out->f[i] = (float)(x + y + i) / 8.0f;
    return 0;
}

static struct eg_shader_env make_env(void)
{
    struct eg_shader_env env = { .mem = &mem, .vtx_resource = vtx_res, .constant = constant,
                                 .tex_resource = tex_res, .tex_sampler = tex_samp, .texel = texel };
    for (int i = 0; i < 32; i++)
        env.vtx_semantic[i] = (uint32_t)i * 7;
    env.vtx_semantic_valid = 0xF0F0F0F0u;
    return env;
}

/* Run everything that takes a program on dw[0..ndw) and check the results
 * are well formed. */
static void run_all(const uint32_t *dw, size_t ndw, FILE *devnull, const struct eg_program *fs)
{
    int d = eg_shader_disasm(dw, ndw, devnull, NULL);
    assert_true(d == EG_DISASM_OK || d == EG_DISASM_UNKNOWN || d == EG_DISASM_MALFORMED);

    struct eg_shader_env env = make_env();
    struct eg_program prog = { "PS", dw, ndw };
    struct eg_shader_err err;
    struct eg_vs_output vo;
    memset(&err, 0, sizeof err);
    int r = eg_run_vs(&prog, fs, &env, 1, 0, &vo, &err);
    assert_true(r == 0 || r == -1);
    if (r) {   /* one line, said something */
        assert_true(err.msg[0] != '\0');
        assert_null(memchr(err.msg, '\n', strnlen(err.msg, sizeof err.msg)));
    }

    union eg_vec4 gpr[4];
    memset(gpr, 0, sizeof gpr);
    gpr[0].f[0] = 0.25f, gpr[0].f[1] = 0.5f;
    struct eg_ps_param param[4];
    const float a[4] = { 0, 1, 2, 3 }, b[4] = { 1, 1, 1, 1 }, c[4] = { -1, 0, 5, 9 };
    for (int i = 0; i < 4; i++)
        eg_ps_param_from_vertices(&param[i], a, b, c);
    struct eg_ps_input in = { gpr, 4, param, 4 };
    struct eg_ps_output po;
    memset(&err, 0, sizeof err);
    r = eg_run_ps(&prog, &env, &in, &po, &err);
    assert_true(r == 0 || r == -1);
    if (r)
        assert_true(err.msg[0] != '\0');

    struct eg_ps_batch *batch = eg_ps_batch_new(&prog, &env, 2);
    if (batch) {
        eg_ps_batch_begin(batch, 7);
        for (unsigned g = 0; g < 2; g++)
            for (unsigned ch = 0; ch < 4; ch++) {
                uint32_t *lane = eg_ps_batch_gpr(batch, g, ch);
                if (lane)
                    for (unsigned l = 0; l < 7; l++)
                        lane[l] = test_rand();
            }
        r = eg_ps_batch_run(batch, param, 4);
        assert_true(r == 0 || r == 1);
        eg_ps_batch_free(batch);
    }
}

/* The real shaders with 1..8 random words replaced or bits flipped, and cut
 * at random lengths. */
static void mutated_real_shaders(void **state)
{
    (void)state;
    static const char *files[] = { "tests/data/shader/seed_vs.bin", "tests/data/shader/seed_ps.bin",
                                   "tests/data/shader/seed_fs.bin", "tests/data/shader/blit_vs.bin",
                                   "tests/data/shader/blit_ps.bin" };
    uint32_t orig[4096], w[4096], fsw[4096];
    size_t nfs = test_load_words("tests/data/shader/seed_fs.bin", fsw, 4096);
    struct eg_program fs = { "FS", fsw, nfs };
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    test_rand_seed(0x5eed0001);
    double t0 = test_now();
    unsigned runs = 0;
    for (unsigned f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n = test_load_words(files[f], orig, 4096);
        assert_true(n > 0);
        for (unsigned it = 0; it < 3000; it++) {
            memcpy(w, orig, n * 4);
            size_t len = n;
            unsigned muts = 1 + test_rand() % 8;
            for (unsigned m = 0; m < muts; m++) {
                size_t at = test_rand() % n;
                switch (test_rand() % 3) {
                case 0: w[at] = test_rand(); break;
                case 1: w[at] ^= 1u << (test_rand() % 32); break;
                default: w[at] ^= (test_rand() & 0xFFu) << (8 * (test_rand() % 4)); break;
                }
            }
            if (test_rand() % 8 == 0)
                len = test_rand() % (n + 1);
            run_all(w, len, devnull, test_rand() % 4 ? &fs : NULL);
            runs++;
        }
    }
    fclose(devnull);
    print_message("%u mutated shaders in %.1f s\n", runs, test_now() - t0);
}

/* Wholly random words (CF-heavy: random CF instructions with small addresses
 * so jumps, calls and loops land inside the program). */
static void random_programs(void **state)
{
    (void)state;
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    test_rand_seed(0x5eed0002);
    uint32_t w[64];
    double t0 = test_now();
    for (unsigned it = 0; it < 20000; it++) {
        size_t n = 2 + 2 * (test_rand() % 31);
        for (size_t i = 0; i < n; i += 2) {
            if (it % 2) {
                w[i] = test_rand() % (n / 2 + 2);    /* ADDR inside (or just past) the program */
                w[i + 1] = S_SQ_CF_WORD1__CF_INST(test_rand() % 32) | S_SQ_CF_WORD1__COUNT(test_rand() % 4) |
                           S_SQ_CF_WORD1__POP_COUNT(test_rand() % 8) |
                           S_SQ_CF_WORD1__END_OF_PROGRAM(test_rand() % 16 == 0) | (test_rand() & 0xC0000000u);
            } else {
                w[i] = test_rand();
                w[i + 1] = test_rand();
            }
        }
        run_all(w, n, devnull, NULL);
    }
    fclose(devnull);
    print_message("20000 random programs in %.1f s\n", test_now() - t0);
}

/* A CF program that jumps to itself forever: the interpreter must stop it
 * with a message, the disassembler must not follow it forever either. */
static void infinite_cf_loop_is_bounded(void **state)
{
    (void)state;
    /* ELSE at the top level turns every pixel off and jumps to 1; JUMP with
     * no pixel active jumps (to itself) */
    const uint32_t self_jump[6] = {
        S_SQ_CF_WORD0__ADDR(1), S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__ELSE),
        S_SQ_CF_WORD0__ADDR(1), S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__JUMP),
        0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__NOP) | S_SQ_CF_WORD1__END_OF_PROGRAM(1),
    };
    /* LOOP_START_DX10 ... LOOP_END jumping back, with no loop constant limit in sight */
    const uint32_t loop_back[6] = {
        S_SQ_CF_WORD0__ADDR(2), S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__LOOP_START_DX10),
        S_SQ_CF_WORD0__ADDR(1), S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__LOOP_END),
        0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__NOP) | S_SQ_CF_WORD1__END_OF_PROGRAM(1),
    };
    /* a CALL to itself: unbounded recursion */
    const uint32_t self_call[4] = {
        S_SQ_CF_WORD0__ADDR(0), S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__CALL),
        0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__NOP) | S_SQ_CF_WORD1__END_OF_PROGRAM(1),
    };
    const struct { const uint32_t *dw; size_t n; } progs[] = { { self_jump, 6 }, { loop_back, 6 }, { self_call, 4 } };
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    for (unsigned p = 0; p < 3; p++) {
        double t0 = test_now();
        struct eg_shader_env env = make_env();
        struct eg_program prog = { "VS", progs[p].dw, progs[p].n };
        struct eg_shader_err err = { { 0 } };
        struct eg_vs_output vo;
        int r = eg_run_vs(&prog, NULL, &env, 0, 0, &vo, &err);
        print_message("program %u: r=%d %.3f s\n", p, r, test_now() - t0);
        assert_int_equal(r, -1);
        print_message("program %u: %s\n", p, err.msg);
        assert_true(err.msg[0] != '\0');
        assert_true(test_now() - t0 < 2.0);
        int d = eg_shader_disasm(progs[p].dw, progs[p].n, devnull, NULL);
        assert_true(d == EG_DISASM_OK || d == EG_DISASM_UNKNOWN || d == EG_DISASM_MALFORMED);
    }
    fclose(devnull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(infinite_cf_loop_is_bounded),
        cmocka_unit_test(mutated_real_shaders),
        cmocka_unit_test(random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
