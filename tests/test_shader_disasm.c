/* Shader disassembler on microcode encoded by others: the seed author's
 * shaders (whose every field the seed's write-up decodes by hand) and the
 * radeon/Mesa Evergreen blit shaders; plus malformed and random input. */
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

static char *dis(const uint32_t *w, size_t n, int *status)
{
    char *buf;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    *status = eg_shader_disasm(w, n, m, NULL);
    fclose(m);
    return buf;
}

static void expect(const char *path, const char *const *want, size_t nwant)
{
    uint32_t w[256];
    size_t n = test_load_words(path, w, 256);
    int st;
    char *s = dis(w, n, &st);
    if (st != EG_DISASM_OK)
        fail_msg("%s: status %d\n%s", path, st, s);
    for (size_t i = 0; i < nwant; i++)
        if (!strstr(s, want[i]))
            fail_msg("%s: missing \"%s\" in:\n%s", path, want[i], s);
    if (strstr(s, "unknown") || strstr(s, "error"))
        fail_msg("%s:\n%s", path, s);
    free(s);
}

/* The seed's tables: VS[0] CALL_FS count 1; VS[1] EXPORT_DONE type POS base 60
 * R1 xyzw; VS[2] EXPORT_DONE PARAM 0 R2, EOP. */
static void seed_vs(void **state)
{
    (void)state;
    const char *want[] = { "0000  00000000 84c00400", "CALL_FS          ADDR:0 COUNT:1",
                           "EXPORT_DONE      POS0, R1.xyzw\n", "EXPORT_DONE      PARAM0, R2.xyzw EOP" };
    expect("tests/data/shader/seed_vs.bin", want, 4);
}

/* FS[0] VC addr 2 count 1 (2 instructions); FS[1] RETURN; VFC[0]/[1]
 * VC_FETCH_SEMANTIC sem 0x90 / 0x92, buffer 0x1f, src R0.x, FMT_32_32_32_FLOAT
 * (0x30), signed, dst xyz1, offsets 0 / 12. */
static void seed_fs(void **state)
{
    (void)state;
    const char *want[] = { "VC               @2 2 instructions", "RETURN",
                           "SEMANTIC  SEM[0x90].xyz1, R0.x, RID:31 FMT_32_32_32_FLOAT NORM SIGNED OFFSET:0",
                           "SEMANTIC  SEM[0x92].xyz1, R0.x, RID:31 FMT_32_32_32_FLOAT NORM SIGNED OFFSET:12" };
    expect("tests/data/shader/seed_fs.bin", want, 4);
}

/* PS[0] CF_ALU addr 2 count 5 (6 slots); PS[1] EXPORT_DONE PIXEL 0 R1 sel
 * x,y,z,1 EOP; ALU[0..1] INTERP_Z (0xd9) z/w, ALU[2..5] INTERP_XY (0xd6),
 * src0 R0.y in the even slots and R0.x in the odd ones, src1 0x1c0 (param 0),
 * bank swizzle 5 (VEC_210); written: z, then x and y. */
static void seed_ps(void **state)
{
    (void)state;
    const char *want[] = { "ALU              @2 6 slots", "EXPORT_DONE      PIXEL0, R1.xyz1 EOP",
                           "0 z: INTERP_Z R1.z, R0.y, PARAM0.x  VEC_210", "0 w: INTERP_Z __.w, R0.x, PARAM0.x  VEC_210",
                           "1 x: INTERP_XY R1.x, R0.y, PARAM0.x  VEC_210", "1 y: INTERP_XY R1.y, R0.x, PARAM0.x",
                           "1 z: INTERP_XY __.z, R0.y", "1 w: INTERP_XY __.w, R0.x" };
    expect("tests/data/shader/seed_ps.bin", want, 8);
}

/* The blit VS: a vertex-fetch clause of two FMT_32_32_FLOAT fetches (position
 * to R1, texture coordinate to R0, 8 bytes apart), export both. */
static void blit_vs(void **state)
{
    (void)state;
    const char *want[] = { "VC               @4 2 instructions", "EXPORT_DONE      POS0, R1.xyzw",
                           "EXPORT_DONE      PARAM0, R0.xyzw EOP",
                           "FETCH     R1.xy01, R0.x, RID:0 FMT_32_32_FLOAT", "FETCH     R0.xy01, R0.x, RID:0 FMT_32_32_FLOAT",
                           "OFFSET:8" };
    expect("tests/data/shader/blit_vs.bin", want, 6);
}

/* The blit PS: INTERP_XY into R0.xy, SAMPLE R0 with R0.xy01, export R0. */
static void blit_ps(void **state)
{
    (void)state;
    const char *want[] = { "ALU              @3 4 slots", "TC               @8 1 instructions",
                           "EXPORT_DONE      PIXEL0, R0.xyzw EOP", "x: INTERP_XY R0.x, R0.y, PARAM0.x",
                           "SAMPLE    R0.xyzw, R0.xy01, RID:0, SID:0" };
    expect("tests/data/shader/blit_ps.bin", want, 5);
}

static void malformed_and_unknown(void **state)
{
    (void)state;
    uint32_t w[64];
    int st;
    char *s;
    /* cut the blit PS before its TEX clause ends */
    size_t n = test_load_words("tests/data/shader/blit_ps.bin", w, 64);
    s = dis(w, n - 4, &st);
    assert_int_equal(st, EG_DISASM_MALFORMED);
    assert_non_null(strstr(s, "error: TEX clause @8 of 1 instructions runs past the end"));
    free(s);
    /* a CF program with no end */
    s = dis(w, 3, &st);
    assert_int_equal(st, EG_DISASM_MALFORMED);
    free(s);
    s = dis(w, 0, &st);
    assert_int_equal(st, EG_DISASM_MALFORMED);
    free(s);
    /* an unknown CF instruction (0x3F) and an unknown ALU opcode (OP2 0x7F) */
    n = test_load_words("tests/data/shader/seed_ps.bin", w, 64);
    w[5] = (w[5] & ~SQ_ALU_WORD1_OP2__ALU_INST__MASK) | S_SQ_ALU_WORD1_OP2__ALU_INST(0x7F);
    s = dis(w, n, &st);
    assert_int_equal(st, EG_DISASM_UNKNOWN);
    assert_non_null(strstr(s, "unknown OP2 0x7f"));
    free(s);
    uint32_t cf[2] = { 0, S_SQ_CF_WORD1__CF_INST(0x3F) | S_SQ_CF_WORD1__END_OF_PROGRAM(1) };
    s = dis(cf, 2, &st);
    assert_int_equal(st, EG_DISASM_UNKNOWN);
    assert_non_null(strstr(s, "unknown CF_INST 0x3f"));
    free(s);
}

/* Random words and lengths never crash or read out of bounds (ASan watches). */
static void random_input(void **state)
{
    (void)state;
    uint32_t x = 12345;
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    int seen[3] = { 0 };
    for (int it = 0; it < 20000; it++) {
        size_t n = (size_t)(it % 40);
        uint32_t *w = malloc((n ? n : 1) * sizeof *w);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            w[i] = x;
            /* keep addresses small so clauses often land inside the buffer */
            if (i % 2 == 0 && (x & 1))
                w[i] &= 0x1F;
        }
        int st = eg_shader_disasm(w, n, null, NULL);
        assert_true(st >= 0 && st <= 2);
        seen[st]++;
        free(w);
    }
    fclose(null);
    assert_true(seen[EG_DISASM_MALFORMED] > 0);
    assert_true(seen[EG_DISASM_UNKNOWN] > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_vs),  cmocka_unit_test(seed_fs), cmocka_unit_test(seed_ps),
        cmocka_unit_test(blit_vs),  cmocka_unit_test(blit_ps), cmocka_unit_test(malformed_and_unknown),
        cmocka_unit_test(random_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
