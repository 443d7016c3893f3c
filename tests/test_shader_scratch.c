/* Scratch memory as Mesa's r600 compiler uses it for temporary arrays too
 * big for registers (sfn ScratchIOInstr / LoadFromScratch): the CF
 * instruction MEM_SCRATCH writes elements of four dwords (direct: element
 * ARRAY_BASE; indexed, TYPE bit 0: ARRAY_BASE + INDEX_GPR.x; COMP_MASK
 * picks the components; BURST_COUNT more from the following GPRs), a
 * VTX-clause MEM instruction with MEM_OP READ_SCRATCH reads them back
 * (ARRAY_BASE, + SRC_GPR.SRC_SEL_X when INDEXED) through DST_SEL, and each
 * lane has its own.  The program is assembled here word by word from the
 * register database's fields (the encoder has no MEM forms); every
 * expected value is the value written, picked out by hand.  The wave's
 * scratch (eg_wave_run) is checked against this interpreter. */
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

#define NL 4

static uint32_t scratch_write(unsigned type, unsigned base, unsigned gpr, unsigned index_gpr)
{
    return S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(base) | S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(type) |
           S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(gpr) | S_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(index_gpr) |
           S_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(3);
}

static uint32_t scratch_write1(unsigned mask, unsigned burst)
{
    return S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__ARRAY_SIZE(63) | S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(mask) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(burst) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__CF_INST(V_SQ_CF_INST__MEM_SCRATCH) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__MARK(1) | S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BARRIER(1);
}

/* EXPORT_DONE of colours 0 .. burst from R<gpr> .., the program's end. */
static void export_colours(uint32_t w[2], unsigned gpr, unsigned burst)
{
    w[0] = S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(0) | S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(V_SQ_EXPORT_TYPE__PIXEL) |
           S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(gpr);
    w[1] = S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(V_SQ_INST_SEL__X) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(V_SQ_INST_SEL__Y) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(V_SQ_INST_SEL__Z) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(V_SQ_INST_SEL__W) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(burst) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(1) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(V_SQ_CF_INST__EXPORT_DONE) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BARRIER(1);
}

/* A READ_SCRATCH into dst through sel (X Y Z W 0 1 MASK). */
static void scratch_read(uint32_t w[4], unsigned dst, unsigned base, bool indexed, unsigned src, unsigned chan,
                         unsigned burst, const unsigned sel[4])
{
    w[0] = S_SQ_MEM_RD_WORD0__MEM_INST(V_SQ_VTX_INST__MEM) | S_SQ_MEM_RD_WORD0__ELEM_SIZE(3) |
           S_SQ_MEM_RD_WORD0__MEM_OP(V_SQ_MEM_OP__READ_SCRATCH) | S_SQ_MEM_RD_WORD0__UNCACHED(1) |
           S_SQ_MEM_RD_WORD0__INDEXED(indexed) | S_SQ_MEM_RD_WORD0__SRC_GPR(src) |
           S_SQ_MEM_RD_WORD0__SRC_SEL_X(chan) | S_SQ_MEM_RD_WORD0__BURST_COUNT(burst);
    w[1] = S_SQ_MEM_RD_WORD1__DST_GPR(dst) | S_SQ_MEM_RD_WORD1__DST_SEL_X(sel[0]) |
           S_SQ_MEM_RD_WORD1__DST_SEL_Y(sel[1]) | S_SQ_MEM_RD_WORD1__DST_SEL_Z(sel[2]) |
           S_SQ_MEM_RD_WORD1__DST_SEL_W(sel[3]) | S_SQ_MEM_RD_WORD1__DATA_FORMAT(V_SQ_DATA_FORMAT__FMT_32_32_32_32) |
           S_SQ_MEM_RD_WORD1__NUM_FORMAT_ALL(V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT);
    w[2] = S_SQ_MEM_RD_WORD2__ARRAY_BASE(base) | S_SQ_MEM_RD_WORD2__ARRAY_SIZE(63);
    w[3] = 0;
}

static void writes_and_reads_per_lane(void **state)
{
    (void)state;
    /* Registers at the start, lane l:
     *   R1 = (10l+1, 10l+2, 10l+3, 10l+4), R2 = (100l+5 .. 100l+8), R3.x = 7 + l, R4 = (1000l + 9..12)
     * CF 0: MEM_SCRATCH direct element 5 <- R1, all components; burst 1: element 6 <- R2
     * CF 1: MEM_SCRATCH indexed element 2 + R3.x <- R4, components x and z
     * CF 2: VC clause @4: READ_SCRATCH R5 <- element 5, burst 1 (R6 <- element 6);
     *       READ_SCRATCH R7 <- element 2 + R3.x, sel (W, Z, Y, X); R8 <- element 40 (never written), sel (X, 1, 0, MASK)
     * CF 3: EXPORT_DONE colours 0..3 <- R5..R8, END_OF_PROGRAM */
    uint32_t w[32];
    memset(w, 0, sizeof w);
    w[0] = scratch_write(0, 5, 1, 0);
    w[1] = scratch_write1(0xF, 1);
    w[2] = scratch_write(1, 2, 4, 3);
    w[3] = scratch_write1(0x5, 0);
    w[4] = S_SQ_CF_WORD0__ADDR(4);
    w[5] = S_SQ_CF_WORD1__COUNT(2) | S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__VC) | S_SQ_CF_WORD1__BARRIER(1);
    export_colours(&w[6], 5, 3);
    const unsigned xyzw[4] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__W };
    const unsigned wzyx[4] = { V_SQ_INST_SEL__W, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__X };
    const unsigned x10m[4] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__ONE, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__MASK };
    scratch_read(&w[8], 5, 5, false, 0, 0, 1, xyzw);
    scratch_read(&w[12], 7, 2, true, 3, 0, 0, wzyx);
    scratch_read(&w[16], 8, 40, false, 0, 0, 0, x10m);
    struct eg_program p = { "PS", w, 20 };
    union eg_vec4 regs[NL][5];
    struct eg_ps_input in[NL];
    memset(regs, 0, sizeof regs);
    for (unsigned l = 0; l < NL; l++) {
        for (unsigned c = 0; c < 4; c++) {
            regs[l][1].u[c] = 10 * l + 1 + c;
            regs[l][2].u[c] = 100 * l + 5 + c;
            regs[l][4].u[c] = 1000 * l + 9 + c;
        }
        regs[l][3].u[0] = 7 + l;
        in[l] = (struct eg_ps_input){ regs[l], 5, NULL, 0 };
    }
    struct eg_shader_env env = { 0 };
    struct eg_ps_output out[NL];
    struct eg_shader_err err;
    if (eg_run_ps_lanes(&p, &env, in, NL, 0, out, &err))
        fail_msg("run: %s", err.msg);
    for (unsigned l = 0; l < NL; l++) {
        for (unsigned c = 0; c < 4; c++) {
            assert_int_equal(out[l].color[0].u[c], 10 * l + 1 + c);   /* element 5 = R1 */
            assert_int_equal(out[l].color[1].u[c], 100 * l + 5 + c);  /* element 6 = R2 (the burst) */
        }
        /* element 9 + l = (R4.x, 0, R4.z, 0), read as (w, z, y, x) */
        assert_int_equal(out[l].color[2].u[0], 0);
        assert_int_equal(out[l].color[2].u[1], 1000 * l + 11);
        assert_int_equal(out[l].color[2].u[2], 0);
        assert_int_equal(out[l].color[2].u[3], 1000 * l + 9);
        /* element 40: zeros; sel (X, 1, 0, MASK): 0, integer 1, 0, R8.w as it was (0) */
        assert_int_equal(out[l].color[3].u[0], 0);
        assert_int_equal(out[l].color[3].u[1], 1);
        assert_int_equal(out[l].color[3].u[2], 0);
    }
    /* the disassembler names both (cedar-pm4 --shader) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    int dis = eg_shader_disasm(w, 20, f, NULL);
    fclose(f);
    assert_int_equal(dis, EG_DISASM_OK);
    assert_non_null(strstr(text, "MEM_SCRATCH"));
    assert_non_null(strstr(text, "READ_SCRATCH R7.wzyx, base 2 + R3.x"));
    free(text);
    /* another MEM_OP is refused by name */
    w[8] = (w[8] & ~S_SQ_MEM_RD_WORD0__MEM_OP(7)) | S_SQ_MEM_RD_WORD0__MEM_OP(V_SQ_MEM_OP__READ_MEM);
    assert_int_equal(eg_run_ps_lanes(&p, &env, in, NL, 0, out, &err), -1);
    assert_non_null(strstr(err.msg, "MEM_OP 2"));
}

static uint32_t rng = 0x2545F491u;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

/* A scratch index: in range, at the ends, past them, negative. */
static uint32_t rand_index(void)
{
    static const int32_t odd[] = { -3, -1, 0, 4093, 4094, 4095, 5000, 38 };
    return (uint32_t)(next() % 3 ? (int32_t)(next() % 12) : odd[next() % 8]);
}

/* The wave (eg_wave_run, src/shader/wave.c) runs scratch writes and reads
 * itself: over 64 lanes, in quads and alone, with helper lanes, random
 * indices (negative and past the end included), component masks and
 * bursts, each group's exports must be, byte for byte, what
 * eg_run_ps_lanes gives it alone.  The program reads an element before
 * writing any, and the same wave runs again and again: what one run wrote
 * must read as zeros in the next. */
static void wave_matches_lanes(void **state)
{
    (void)state;
    static union eg_vec4 regs[EG_WAVE_MAX][10];
    static struct eg_ps_input in[EG_WAVE_MAX];
    static struct eg_ps_output out[EG_WAVE_MAX];
    struct eg_shader_env env = { 0 };
    const unsigned xyzw[4] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__W };
    const unsigned wzyx[4] = { V_SQ_INST_SEL__W, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__X };
    const unsigned x10m[4] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__ONE, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__MASK };
    unsigned compared = 0;
    for (unsigned prog = 0; prog < 12; prog++) {
        /* CF 0: VC @6: READ_SCRATCH R9 <- element 2 + R3.y (nothing written yet in this run)
         * CF 1: MEM_SCRATCH element 5 <- R1, burst 0 or 1 (element 6 <- R2)
         * CF 2: MEM_SCRATCH indexed element 2 + R3.x <- R4, a random component mask
         * CF 3: VC @8: R5 <- element 5 (burst 1: R6 <- element 6); R7 <- element 2 + R3.x through wzyx;
         *       R8 <- element 40, never written
         * CF 4: EXPORT_DONE colours 0..4 <- R5..R9 */
        uint32_t w[28];
        memset(w, 0, sizeof w);
        w[0] = S_SQ_CF_WORD0__ADDR(6);
        w[1] = S_SQ_CF_WORD1__COUNT(0) | S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__VC) | S_SQ_CF_WORD1__BARRIER(1);
        w[2] = scratch_write(0, 5, 1, 0);
        w[3] = scratch_write1(0xF, prog % 2);
        w[4] = scratch_write(1, 2, 4, 3);
        w[5] = scratch_write1(next() % 16, 0);
        w[6] = S_SQ_CF_WORD0__ADDR(8);
        w[7] = S_SQ_CF_WORD1__COUNT(2) | S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__VC) | S_SQ_CF_WORD1__BARRIER(1);
        export_colours(&w[8], 5, 4);
        scratch_read(&w[12], 9, 2, true, 3, 1, 0, xyzw);
        scratch_read(&w[16], 5, 5, false, 0, 0, prog % 2, xyzw);
        scratch_read(&w[20], 7, 2, true, 3, 0, 0, wzyx);
        scratch_read(&w[24], 8, 40, false, 0, 0, 0, x10m);
        struct eg_program p = { "PS", w, 28 };
        struct eg_wave *wv = eg_wave_new(&p, &env);
        assert_non_null(wv);
        for (unsigned run = 0; run < 6; run++) {
            unsigned group = run % 2 ? 4 : 1;
            uint64_t helpers = 0;
            for (unsigned l = 0; l < EG_WAVE_MAX; l++) {
                for (unsigned r = 0; r < 10; r++)
                    for (unsigned c = 0; c < 4; c++)
                        regs[l][r].u[c] = next();
                regs[l][3].u[0] = rand_index();
                regs[l][3].u[1] = rand_index();
                in[l] = (struct eg_ps_input){ regs[l], 10, NULL, 0 };
                if (next() % 5 == 0)
                    helpers |= 1ull << l;
            }
            assert_int_equal(eg_wave_run(wv, in, EG_WAVE_MAX, group, helpers, out), 0);
            for (unsigned g0 = 0; g0 < EG_WAVE_MAX; g0 += group) {
                struct eg_ps_output ref[4];
                struct eg_shader_err err;
                if (eg_run_ps_lanes(&p, &env, &in[g0], group, (uint32_t)(helpers >> g0) & ((1u << group) - 1), ref,
                                    &err))
                    fail_msg("program %u run %u lanes %u..: %s", prog, run, g0, err.msg);
                for (unsigned l = 0; l < group; l++) {
                    for (unsigned t = 0; t < 5; t++)
                        for (unsigned c = 0; c < 4; c++)
                            if (ref[l].color[t].u[c] != out[g0 + l].color[t].u[c])
                                fail_msg("program %u run %u lane %u colour %u.%c: alone 0x%08x, wave 0x%08x", prog,
                                         run, g0 + l, t, "xyzw"[c], ref[l].color[t].u[c], out[g0 + l].color[t].u[c]);
                    assert_memory_equal(&ref[l], &out[g0 + l], sizeof ref[l]);
                    compared++;
                }
            }
        }
        eg_wave_free(wv);
    }
    print_message("%u lanes compared\n", compared);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_and_reads_per_lane),
        cmocka_unit_test(wave_matches_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
