/* Shader encoder: reproduces, word for word, shaders encoded by independent
 * sources (the seed author's shaders that ran on a real HD 7350, the
 * radeon/Mesa Evergreen blit pixel shader), and round-trips every instruction
 * kind through the disassembler. */
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

static void assert_words(const uint32_t *got, size_t ngot, const char *path)
{
    uint32_t want[256];
    size_t n = test_load_words(path, want, 256);
    if (ngot != n)
        fail_msg("%s: %zu dwords encoded, %zu expected", path, ngot, n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: dword %zu is 0x%08x, expected 0x%08x", path, i, got[i], want[i]);
}

/* The seed's vertex shader: CALL_FS; export R1 as position 0, R2 as param 0. */
static void seed_vs_reproduced(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_call_fs(&a);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS, .array_base = 60, .gpr = 1,
                                           .sel = EG_SWZ_XYZW, .done = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = 0, .gpr = 2,
                                           .sel = EG_SWZ_XYZW, .done = true });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), 0);
    assert_words(w, n, "tests/data/shader/seed_vs.bin");
}

/* The seed's fetch shader: two semantic fetches of FMT_32_32_32_FLOAT from
 * resource 31, 12 bytes apart, w = 1; then RETURN. */
static void seed_fs_reproduced(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_vtx_clause(&a);
    for (unsigned i = 0; i < 2; i++)
        eg_asm_vtx(&a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__SEMANTIC, .buffer_id = 31,
                                         .mega_fetch_count = 12, .semantic_id = 0x90 + 2 * i,
                                         .dst_sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__ONE },
                                         .data_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT,
                                         .format_comp = V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED, .offset = 12 * i });
    eg_asm_return(&a);
    assert_int_equal(eg_asm_finish(&a, false, w, 64, &n), 0);
    assert_words(w, n, "tests/data/shader/seed_fs.bin");
}

static void interp(struct eg_asm *a, unsigned op, unsigned gpr, unsigned first_slot, unsigned nslot,
                   const bool *write)
{
    for (unsigned s = first_slot; s < first_slot + nslot; s++)
        eg_asm_alu(a, &(struct eg_alu){
            .op = op, .dst = { .gpr = (uint8_t)gpr, .chan = (uint8_t)s, .write = write[s] },
            .src = { eg_src_gpr(0, (s & 1) ? 0 : 1), eg_src_special(V_SQ_ALU_SRC__PARAM_BASE, 0) },
            .bank_swizzle = V_SQ_ALU_VEC_BANK_SWIZZLE__VEC_210, .last = s == first_slot + nslot - 1 });
}

/* The seed's pixel shader: INTERP_Z in z/w, INTERP_XY in x..w into R1, export
 * R1.xyz1 to colour buffer 0. */
static void seed_ps_reproduced(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    interp(&a, V_SQ_ALU_OP2__INTERP_Z, 1, 2, 2, (const bool[4]){ 0, 0, 1, 0 });
    interp(&a, V_SQ_ALU_OP2__INTERP_XY, 1, 0, 4, (const bool[4]){ 1, 1, 0, 0 });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 1, .done = true,
                                           .sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__ONE } });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), 0);
    assert_words(w, n, "tests/data/shader/seed_ps.bin");
}

/* The Evergreen blit pixel shader (radeon kernel / Mesa): INTERP_XY of
 * parameter 0 into R0.xy, then a TEX clause sampling resource 0 with R0.xy01
 * (unnormalised coordinates), export R0 to colour buffer 0.  Exercises clause
 * alignment: ALU at 64-bit word 3, TEX at 8. */
static void blit_ps_reproduced(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    interp(&a, V_SQ_ALU_OP2__INTERP_XY, 0, 0, 4, (const bool[4]){ 1, 1, 0, 0 });
    eg_asm_tex_clause(&a);
    eg_asm_tex(&a, &(struct eg_tex){ .inst = V_SQ_TEX_INST__SAMPLE, .src_gpr = 0, .dst_gpr = 0,
                                     .src_sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ONE },
                                     .dst_sel = EG_SWZ_XYZW });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 0, .done = true,
                                           .sel = EG_SWZ_XYZW });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), 0);
    assert_words(w, n, "tests/data/shader/blit_ps.bin");
}

/* The demo's vertex shader is the seed's, word for word; its fetch shader the
 * seed's but for the resource id (0 instead of 31). */
static void demo_shaders_match_seed(void **state)
{
    (void)state;
    struct eg_demo_shaders s;
    assert_int_equal(eg_demo_shaders_build(&s), 0);
    assert_words(s.vs, s.vs_ndw, "tests/data/shader/seed_vs.bin");
    uint32_t fs[64];
    size_t n = test_load_words("tests/data/shader/seed_fs.bin", fs, 64);
    assert_int_equal(n, s.fs_ndw);
    for (size_t i = 0; i < n; i++) {
        uint32_t want = fs[i], got = s.fs[i];
        if (i == 4 || i == 8) {     /* VTX word 0: BUFFER_ID and MEGA_FETCH_COUNT differ */
            want &= ~(SQ_VTX_WORD0__BUFFER_ID__MASK | SQ_VTX_WORD0__MEGA_FETCH_COUNT__MASK);
            got &= ~(SQ_VTX_WORD0__BUFFER_ID__MASK | SQ_VTX_WORD0__MEGA_FETCH_COUNT__MASK);
        }
        assert_int_equal(got, want);
    }
    assert_int_equal(s.vtx_resource, 992);
    assert_int_equal(s.vs_num_gprs, 3);
    assert_int_equal(s.ps_num_gprs, 2);
    /* every demo shader disassembles cleanly */
    char *buf;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    assert_int_equal(eg_shader_disasm(s.fs, s.fs_ndw, m, NULL), EG_DISASM_OK);
    assert_int_equal(eg_shader_disasm(s.vs, s.vs_ndw, m, NULL), EG_DISASM_OK);
    assert_int_equal(eg_shader_disasm(s.ps, s.ps_ndw, m, NULL), EG_DISASM_OK);
    fclose(m);
    assert_non_null(strstr(buf, "INTERP_ZW R1.z, R0.y, PARAM0.x"));
    assert_non_null(strstr(buf, "INTERP_XY R1.x, R0.y, PARAM0.x"));
    assert_non_null(strstr(buf, "EXPORT_DONE      PIXEL0, R1.xyzw EOP"));
    free(buf);
}

static char *disasm_to_string(const uint32_t *w, size_t n, int *status)
{
    char *buf;
    size_t len;
    FILE *m = open_memstream(&buf, &len);
    *status = eg_shader_disasm(w, n, m, &(struct eg_disasm_opts){ .no_words = true });
    fclose(m);
    return buf;
}

/* Every OP2 and OP3 opcode of the database: encoded in a one-group ALU clause,
 * it disassembles to its own name, with a literal operand read back. */
static void every_alu_op_round_trips(void **state)
{
    (void)state;
    const char *enums[2] = { "SQ_ALU_OP2", "SQ_ALU_OP3" };
    unsigned tested = 0;
    for (int op3 = 0; op3 < 2; op3++) {
        const struct eg_enum *e = eg_enum_find_name(enums[op3]);
        assert_non_null(e);
        for (unsigned k = 0; k < e->count; k++) {
            struct eg_asm a;
            uint32_t w[64];
            size_t n;
            eg_asm_init(&a);
            eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
            /* trans-only ops go to t: give them chan x and fill nothing else */
            eg_asm_alu(&a, &(struct eg_alu){
                .op3 = op3, .op = e->values[k].value,
                .dst = { .gpr = 5, .chan = 2, .write = true },
                .src = { eg_src_gpr(7, 1), eg_src_lit_f(2.5f), eg_src_gpr(9, 3) },
                .last = true });
            eg_asm_nop(&a);
            if (eg_asm_finish(&a, true, w, 64, &n))
                fail_msg("%s: %s", e->values[k].name, a.err);
            int st;
            char *s = disasm_to_string(w, n, &st);
            char want[64];
            snprintf(want, sizeof want, ": %s R5.z", e->values[k].name);
            if (st != EG_DISASM_OK || !strstr(s, want))
                fail_msg("%s: status %d, output:\n%s", e->values[k].name, st, s);
            /* ops that read sources show src0 */
            snprintf(want, sizeof want, ": %s R5.z, R7.y", e->values[k].name);
            bool has_src = strstr(s, want) != NULL;
            snprintf(want, sizeof want, ": %s R5.z\n", e->values[k].name);
            if (!has_src && !strstr(s, want))
                fail_msg("%s: src0 lost:\n%s", e->values[k].name, s);
            tested++;
            free(s);
        }
    }
    assert_true(tested > 180);
}

/* CF, export, VTX (both forms), TEX and kcache/literal operand forms. */
static void other_kinds_round_trip(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[256];
    size_t n;
    eg_asm_init(&a);
    eg_asm_call_fs(&a);
    eg_asm_vtx_clause(&a);
    eg_asm_vtx(&a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .buffer_id = 3, .src_gpr = 4, .src_sel_x = 3,
                                     .fetch_type = V_SQ_VTX_FETCH_TYPE__INSTANCE_DATA, .dst_gpr = 6,
                                     .dst_sel = { V_SQ_INST_SEL__W, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__MASK, V_SQ_INST_SEL__ZERO },
                                     .data_format = V_SQ_DATA_FORMAT__FMT_8_8_8_8, .offset = 40 });
    eg_asm_tex_clause(&a);
    eg_asm_tex(&a, &(struct eg_tex){ .inst = V_SQ_TEX_INST__SAMPLE_L, .resource_id = 7, .sampler_id = 2,
                                     .src_gpr = 3, .dst_gpr = 4, .src_sel = EG_SWZ_XYZW,
                                     .dst_sel = EG_SWZ_XYZW, .coord_normalized = { 1, 1, 0, 0 },
                                     .lod_bias = -3, .offset = { 1, -2, 0 } });
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE,
                      (const struct eg_kcache[2]){ { 1, 2, V_SQ_KCACHE_MODE__LOCK_1 }, { 0 } });
    eg_asm_alu(&a, &(struct eg_alu){ .op3 = true, .op = V_SQ_ALU_OP3__MULADD,
                                     .dst = { .gpr = 2, .chan = 0 },
                                     .src = { eg_src_special(V_SQ_ALU_SRC__KCACHE0_BASE + 5, 1),
                                              eg_src_special(V_SQ_ALU_SRC__PV, 3), { .sel = 1, .chan = 2, .neg = true } } });
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__RECIP_IEEE, .dst = { .gpr = 3, .chan = 0, .write = true },
                                     .src = { eg_src_special(V_SQ_ALU_SRC__PS, 0) }, .last = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = 2, .gpr = 8,
                                           .burst_count = 1, .sel = EG_SWZ_XYZW });
    eg_asm_return(&a);
    assert_int_equal(eg_asm_finish(&a, false, w, 256, &n), 0);
    int st;
    char *s = disasm_to_string(w, n, &st);
    assert_int_equal(st, EG_DISASM_OK);
    const char *want[] = {
        "CALL_FS", "VC               @", "TC               @", "ALU_PUSH_BEFORE", "KC0=CB1[32..] LOCK_1",
        "FETCH     R6.wz_0, R4.w, RID:3 FMT_8_8_8_8 NORM UNSIGNED INSTANCE_DATA OFFSET:40",
        "SAMPLE_L  R4.xyzw, R3.xyzw, RID:7, SID:2 CT:NNUU LOD_BIAS:-3 OFFSET:1,-2,0",
        "x: MULADD R2.x, KC0[5].y, PV.w, -R1.z", "t: RECIP_IEEE R3.x, PS",
        "EXPORT           PARAM2..3, R8..R9.xyzw", "RETURN",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(s, want[i]))
            fail_msg("missing \"%s\" in:\n%s", want[i], s);
    free(s);
}

static void encoder_errors_are_reported(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    /* five different literals in one group */
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    for (int i = 0; i < 3; i++)
        eg_asm_alu(&a, &(struct eg_alu){ .op3 = true, .op = V_SQ_ALU_OP3__MULADD, .dst = { .chan = (uint8_t)i },
                                         .src = { eg_src_lit_f((float)i), eg_src_lit_f(10.0f + i), eg_src_gpr(0, 0) },
                                         .last = i == 2 });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), -1);
    assert_non_null(strstr(a.err, "literals"));
    /* a value too wide for its field */
    eg_asm_init(&a);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 200 });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), -1);
    assert_non_null(strstr(a.err, "gpr"));
    /* an ALU group that never ends */
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .src = { eg_src_gpr(0, 0) } });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), -1);
    /* not enough room */
    struct eg_demo_shaders s;
    assert_int_equal(eg_demo_shaders_build(&s), 0);
    eg_asm_init(&a);
    eg_asm_call_fs(&a);
    eg_asm_call_fs(&a);
    assert_int_equal(eg_asm_finish(&a, true, w, 3, &n), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_vs_reproduced),
        cmocka_unit_test(seed_fs_reproduced),
        cmocka_unit_test(seed_ps_reproduced),
        cmocka_unit_test(blit_ps_reproduced),
        cmocka_unit_test(demo_shaders_match_seed),
        cmocka_unit_test(every_alu_op_round_trips),
        cmocka_unit_test(other_kinds_round_trip),
        cmocka_unit_test(encoder_errors_are_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
