/* The tessellation path of the renderer (src/render/tess.c) with the
 * interpreter's stages, set up as Mesa's r600 sets it up
 * (evergreen_emit_shader_stages: VGT_SHADER_STAGES_EN LS_EN LS_STAGE_ON,
 * HS_EN, VS_EN VS_STAGE_DS; VGT_LS_HS_CONFIG with one patch of 3 input and
 * 1 output control point; SQ_LDS_ALLOC; VGT_TF_PARAM triangle, integer
 * spacing, OUTPUT_TRIANGLE_CW for a GL "ccw" patch; DI_PT_PATCH draws),
 * with hand-made programs shaped like Mesa's: an LS that calls the demo's
 * fetch shader and writes position and colour to the LDS with LDS_WRITE_REL
 * at R0.y * 32; an HS that writes the triangle's four factors with TF_WRITE;
 * a DS that reads the three control points back with LDS_READ_RET and
 * interpolates them at gl_TessCoord (u P0 + v P1 + w P2, w = 1 - u - v).
 *
 * The frames are compared with the scene's triangle drawn without
 * tessellation (test_render_gs's reference: the demo scene, checked against
 * the real card by test_render_shaders):
 * - all levels 1: one triangle at the patch's corners, the plain frame but
 *   for colour rounding inside (its first vertex is another corner); 3 LS
 *   and 3 DS runs, the HS-invocations counter 1 (a patch), DS 3;
 * - all levels 2: six triangles over seven domain points (the corners, the
 *   edge midpoints, the centre), the same area: no pixel differs by more
 *   than rounding (a hole or an overlap would show the clear colour or a
 *   seam); 3 LS and 7 DS runs;
 * - an outer level 0: the patch is culled, nothing drawn;
 * - the DS into a geometry shader (ES_EN ES_STAGE_DS: the DS is the ES,
 *   writing the ESGS ring; gs_programs.c's pass-through GS and copy
 *   shader): at levels 1 and 2 the same bytes as without the GS, one GS
 *   invocation per tessellated triangle;
 * - fractional_odd spacing at 2.5: three segments an edge and an inner
 *   triangle (12 domain points), the same area as the plain triangle;
 * - what the model does not take stops the draw with its name: GS_EN
 *   without the GS scenario, an LDS opcode not modelled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "cedar/shader.h"
#include "tests/common/gs_programs.h"
#include "tests/common/render_scene.h"
#include "tests/common/test_util.h"

#define W 1280
#define FB_H 768
#define AREA 0x1000u           /* our programs, this far into the scene's extra bytes */
#define CP_BYTES 32            /* a control point in the LDS: position, colour */

static void alu(struct eg_asm *a, bool op3, unsigned op, unsigned dst, unsigned chan, struct eg_alu_src s0,
                struct eg_alu_src s1, struct eg_alu_src s2, bool last)
{
    eg_asm_alu(a, &(struct eg_alu){ .op3 = op3, .op = op, .dst = { (uint8_t)dst, (uint8_t)chan, .write = true },
                                    .src = { s0, s1, s2 }, .last = last });
}

/* An LDS instruction: the opcode and index offset bit 0 go where an OP3
 * instruction keeps DST_GPR (Mesa r600_asm.c eg_bytecode_alu_build). */
static void lds(struct eg_asm *a, unsigned op, unsigned idx, struct eg_alu_src addr, struct eg_alu_src d0,
                struct eg_alu_src d1)
{
    eg_asm_alu(a, &(struct eg_alu){ .op3 = true, .op = V_SQ_ALU_OP3__LDS_IDX_OP,
                                    .dst = { (uint8_t)(op | (idx & 1u) << 6), 0 }, .src = { addr, d0, d1 },
                                    .last = true });
}

static const struct eg_alu_src zero = { .sel = V_SQ_ALU_SRC__ZERO };

/* LS: R3 = R0.y * 32 + (0, 8, 16, 24); position R1 and colour R2 there. */
static size_t build_ls(unsigned lds_op, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_call_fs(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu(&a, false, V_SQ_ALU_OP2__LSHL_INT, 3, 0, eg_src_gpr(0, 1), eg_src_lit_u(5), zero, true);
    for (unsigned c = 1; c < 4; c++)
        alu(&a, false, V_SQ_ALU_OP2__ADD_INT, 3, c, eg_src_gpr(3, 0), eg_src_lit_u(8 * c), zero, c == 3);
    for (unsigned k = 0; k < 4; k++)
        lds(&a, lds_op, 1, eg_src_gpr(3, k), eg_src_gpr(1 + k / 2, 2 * (k % 2)), eg_src_gpr(1 + k / 2, 2 * (k % 2) + 1));
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("LS: %s", a.err);
    return n;
}

/* DS: control point k's position in R(5 + 2k), colour in R(6 + 2k); then
 * R11 = u P0 + v P1 + w P2, R12 the colours alike; exported, or (to_ring:
 * the DS run as the ES) written to the ESGS ring at dwords 0 and 4. */
static size_t build_ds(unsigned color_param, bool to_ring, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    struct eg_alu_src nu = eg_src_gpr(0, 0), nv = eg_src_gpr(0, 1);
    nu.neg = nv.neg = true;
    alu(&a, false, V_SQ_ALU_OP2__ADD, 4, 0, eg_src_special(V_SQ_ALU_SRC__ONE, 0), nu, zero, true);
    alu(&a, false, V_SQ_ALU_OP2__ADD, 4, 0, eg_src_gpr(4, 0), nv, zero, true);
    for (unsigned k = 0; k < 3; k++) {
        for (unsigned d = 0; d < 8; d++)
            lds(&a, V_SQ_LDS_OP__READ_RET, 0, eg_src_lit_u(k * CP_BYTES + 4 * d), zero, zero);
        for (unsigned d = 0; d < 8; d++)
            alu(&a, false, V_SQ_ALU_OP2__MOV, 5 + 2 * k + d / 4, d % 4, eg_src_special(V_SQ_ALU_SRC__LDS_OQ_A_POP, 0),
                zero, zero, true);
    }
    const struct eg_alu_src wu = eg_src_gpr(0, 0), wv = eg_src_gpr(0, 1), ww = eg_src_gpr(4, 0);
    for (unsigned o = 0; o < 2; o++)
        for (unsigned c = 0; c < 4; c++) {
            alu(&a, false, V_SQ_ALU_OP2__MUL_IEEE, 11 + o, c, eg_src_gpr(5 + o, c), wu, zero, true);
            alu(&a, true, V_SQ_ALU_OP3__MULADD_IEEE, 11 + o, c, eg_src_gpr(7 + o, c), wv, eg_src_gpr(11 + o, c), true);
            alu(&a, true, V_SQ_ALU_OP3__MULADD_IEEE, 11 + o, c, eg_src_gpr(9 + o, c), ww, eg_src_gpr(11 + o, c), true);
        }
    if (to_ring) {
        gsp_ring_write(&a, 0, 0, 11, 0);
        gsp_ring_write(&a, 0, 4, 12, 0);
        eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    } else {
        eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS,
                                               .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0, .gpr = 11,
                                               .sel = EG_SWZ_XYZW, .done = true });
        eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = color_param,
                                               .gpr = 12, .sel = EG_SWZ_XYZW, .done = true });
    }
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("DS: %s", a.err);
    return n;
}

/* HS, word by word (the assembler has no GDS clause): one group puts the
 * factor addresses 0, 4, 8, 12 and values (outer, outer, outer, inner) in
 * R1 / R2, then a GDS clause of four TF_WRITEs (Mesa's WriteTFInstr: the
 * address in SRC_SEL_X, the value in SRC_SEL_Y). */
static size_t build_hs(float outer, float inner, uint32_t *w)
{
    memset(w, 0, 48 * 4);
    /* CF: ALU @ 64-bit word 4 (12 slots: two groups of four and their literals), GDS @ 16 (4), NOP end */
    w[0] = S_SQ_CF_ALU_WORD0__ADDR(4);
    w[1] = S_SQ_CF_ALU_WORD1__COUNT(11) | S_SQ_CF_ALU_WORD1__CF_INST(V_SQ_CF_ALU_INST__ALU) | S_SQ_CF_ALU_WORD1__BARRIER(1);
    w[2] = S_SQ_CF_WORD0__ADDR(16);
    w[3] = S_SQ_CF_WORD1__COUNT(3) | S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__GDS) | S_SQ_CF_WORD1__BARRIER(1);
    w[5] = S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__NOP) | S_SQ_CF_WORD1__END_OF_PROGRAM(1) | S_SQ_CF_WORD1__BARRIER(1);
    const uint32_t lit[2][4] = {{0, test_f2u(outer), 4, test_f2u(outer)}, {8, test_f2u(outer), 12, test_f2u(inner)}};
    uint32_t *p = w + 8;
    for (unsigned g = 0; g < 2; g++) {
        for (unsigned c = 0; c < 4; c++) {
            *p++ = S_SQ_ALU_WORD0__SRC0_SEL(V_SQ_ALU_SRC__LITERAL) | S_SQ_ALU_WORD0__SRC0_CHAN(c) |
                   S_SQ_ALU_WORD0__LAST(c == 3);
            *p++ = S_SQ_ALU_WORD1_OP2__ALU_INST(V_SQ_ALU_OP2__MOV) | S_SQ_ALU_WORD1_OP2__WRITE_MASK(1) |
                   S_SQ_ALU_WORD1_OP2__DST_GPR(1 + g) | S_SQ_ALU_WORD1_OP2__DST_CHAN(c);
        }
        memcpy(p, lit[g], sizeof lit[g]);
        p += 4;
    }
    for (unsigned k = 0; k < 4; k++) {
        uint32_t *q = w + 32 + 4 * k;
        q[0] = S_SQ_MEM_GDS_WORD0__MEM_INST(V_SQ_VTX_INST__MEM) | S_SQ_MEM_GDS_WORD0__MEM_OP(V_SQ_MEM_OP__TF_WRITE) |
               S_SQ_MEM_GDS_WORD0__SRC_GPR(1 + k / 2) | S_SQ_MEM_GDS_WORD0__SRC_SEL_X(2 * (k % 2)) |
               S_SQ_MEM_GDS_WORD0__SRC_SEL_Y(2 * (k % 2) + 1) | S_SQ_MEM_GDS_WORD0__SRC_SEL_Z(V_SQ_INST_SEL__ZERO);
        q[2] = 0xFFF;   /* every destination select masked */
    }
    return 48;
}

struct tess_opts {
    float outer, inner;
    unsigned partitioning;
    unsigned lds_op;      /* the LS's store */
    bool with_gs;         /* the DS into a pass-through GS (gs_programs.c) */
    bool gs_mode_off;     /* ... with VGT_GS_MODE left off */
};

static uint32_t saved_vs;

static void tess_off(struct scene *sc)
{
    scene_set_reg(sc->regs, REG_VGT_SHADER_STAGES_EN, 0);
    scene_set_reg(sc->regs, REG_VGT_GS_MODE, 0);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, saved_vs);
}

static void tess_on(struct scene *sc, unsigned color_param, const struct tess_opts *o)
{
    uint8_t *area = sc->mem + (sc->extra_addr - sc->gpu_base) + AREA;
    uint64_t gpu = sc->extra_addr + AREA;
    uint32_t w[1024];
    size_t n = build_ls(o->lds_op, w, 1024);
    memcpy(area, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_LS, (uint32_t)(gpu >> 8));
    n = build_hs(o->outer, o->inner, w);
    memcpy(area + 0x400, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_HS, (uint32_t)((gpu + 0x400) >> 8));
    n = build_ds(color_param, o->with_gs, w, 1024);
    assert_true(n * 4 <= 0x1000);
    memcpy(area + 0x800, w, n * 4);
    saved_vs = sc->regs->context[(REG_SQ_PGM_START_VS - SPACE_CONTEXT_START) / 4];
    if (o->with_gs) {
        /* the DS as the ES; the GS, copy shader (as the VS) and rings after it */
        scene_set_reg(sc->regs, REG_SQ_PGM_START_ES, (uint32_t)((gpu + 0x800) >> 8));
        assert_true(AREA + 0x1800 + 0x1400 <= 0x4000);
        gsp_install(sc, area + 0x1800, gpu + 0x1800, GS_PASS, color_param);
        if (o->gs_mode_off)
            scene_set_reg(sc->regs, REG_VGT_GS_MODE, 0);
    } else {
        scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, (uint32_t)((gpu + 0x800) >> 8));
    }
    scene_set_reg(sc->regs, REG_VGT_LS_HS_CONFIG, S_VGT_LS_HS_CONFIG__NUM_PATCHES(1) |
                                                      S_VGT_LS_HS_CONFIG__HS_NUM_INPUT_CP(3) |
                                                      S_VGT_LS_HS_CONFIG__HS_NUM_OUTPUT_CP(1));
    scene_set_reg(sc->regs, REG_SQ_LDS_ALLOC, S_SQ_LDS_ALLOC__SIZE(3 * CP_BYTES));
    scene_set_reg(sc->regs, REG_VGT_TF_PARAM,
                  S_VGT_TF_PARAM__TYPE(V_VGT_TF_PARAM_TYPE__TESS_TRIANGLE) | S_VGT_TF_PARAM__PARTITIONING(o->partitioning) |
                      S_VGT_TF_PARAM__TOPOLOGY(V_VGT_TF_PARAM_TOPOLOGY__OUTPUT_TRIANGLE_CW));
    scene_set_float(sc->regs, REG_VGT_HOS_MAX_TESS_LEVEL, 64.0f);
    uint32_t st = S_VGT_SHADER_STAGES_EN__LS_EN(V_VGT_SHADER_STAGES_EN_LS_EN__LS_STAGE_ON) |
                  S_VGT_SHADER_STAGES_EN__HS_EN(1);
    if (o->with_gs)
        st |= S_VGT_SHADER_STAGES_EN__ES_EN(V_VGT_SHADER_STAGES_EN_ES_EN__ES_STAGE_DS) | S_VGT_SHADER_STAGES_EN__GS_EN(1) |
              S_VGT_SHADER_STAGES_EN__VS_EN(V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_COPY_SHADER);
    else
        st |= S_VGT_SHADER_STAGES_EN__VS_EN(V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_DS);
    scene_set_reg(sc->regs, REG_VGT_SHADER_STAGES_EN, st);
    sc->tri_prim = V_VGT_DI_PRIM_TYPE__DI_PT_PATCH;
    sc->before_resolve = tess_off;
}

static uint8_t *frame(struct scene *sc)
{
    return test_scene_frame(sc, (size_t)W * FB_H * 4);
}

static void scene_start(struct scene *sc, struct eg_demo_shaders *sh)
{
    test_scene_start_demo(sc, sh, 8);
}

/* How the tessellated frame differs from the plain one: pixels, and the
 * largest channel difference inside the triangle and at its edges (pixels
 * the plain frame covers partly). */
struct diff {
    unsigned pixels, max_inner, max_edge;
    bool centre_is_clear;
};

static void differing(const struct scene *plain, const uint8_t *a, const uint8_t *b, struct diff *d)
{
    for (unsigned y = 0; y < plain->height; y++)
        for (unsigned x = 0; x < W; x++) {
            const uint8_t *p = a + ((size_t)y * W + x) * 4, *q = b + ((size_t)y * W + x) * 4;
            unsigned m = 0;
            for (unsigned c = 0; c < 4; c++) {
                unsigned v = p[c] > q[c] ? p[c] - q[c] : q[c] - p[c];
                m = v > m ? v : m;
            }
            if (!m)
                continue;
            d->pixels++;
            unsigned *slot = scene_pixel_partial(plain, x, y) ? &d->max_edge : &d->max_inner;
            *slot = m > *slot ? m : *slot;
        }
}

/* The plain frame, then the tessellated one under o; their differences. */
static void compare(const struct tess_opts *o, struct diff *d, struct vc_render_stats *st)
{
    struct scene plain, ts;
    struct eg_demo_shaders sh;
    char why[200] = "";
    memset(d, 0, sizeof *d);
    scene_start(&plain, &sh);
    if (scene_render(&plain, why))
        fail_msg("plain: %s", why);
    scene_start(&ts, &sh);
    tess_on(&ts, sh.color_param, o);
    if (scene_render(&ts, why))
        fail_msg("tessellated: %s", why);
    vc_render_get_stats(ts.r, st);
    uint8_t *a = frame(&plain), *b = frame(&ts);
    differing(&plain, a, b, d);
    /* the triangle is in the plain frame: not the clear colour at its centre */
    assert_memory_not_equal(a + ((size_t)360 * W + 640) * 4, plain.clear_bgra, 4);
    d->centre_is_clear = memcmp(b + ((size_t)360 * W + 640) * 4, ts.clear_bgra, 4) == 0;
    free(a);
    free(b);
    scene_free(&plain);
    scene_free(&ts);
}

static void level1_is_the_triangle(void **state)
{
    (void)state;
    const struct tess_opts o = { 1.0f, 1.0f, V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER, V_SQ_LDS_OP__WRITE_REL, false, false };
    struct diff d;
    struct vc_render_stats st;
    compare(&o, &d, &st);
    /* the tessellator starts the triangle at the v = 1 corner (P1), the
     * plain draw at P0: the same pixels covered, colours equal but for the
     * rounding of interpolating from another vertex (2 pixels differ by 1) */
    assert_int_equal(d.max_edge, 0);
    assert_true(d.max_inner <= 1);
    /* 3 LS + 3 DS runs, then the resolve rectangle's 3 vertices */
    assert_int_equal(st.vertices, 3 + 3 + 3);
    /* the pipeline-statistics counters: one HS run for the one patch, a DS
     * run per domain point */
    assert_int_equal(st.hs_invocations, 1);
    assert_int_equal(st.ds_invocations, 3);
}

static void level2_covers_the_same_area(void **state)
{
    (void)state;
    const struct tess_opts o = { 2.0f, 2.0f, V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER, V_SQ_LDS_OP__WRITE_REL, false, false };
    struct diff d;
    struct vc_render_stats st;
    compare(&o, &d, &st);
    /* linear attributes over six triangles: inside, equal but for rounding;
     * at the edges the edge midpoints, computed by the DS as 0.5 a + 0.5 b,
     * may move a sample across the edge: one sample of eight, 255 / 8 */
    assert_true(d.max_inner <= 1);
    assert_true(d.max_edge <= 32);
    assert_int_equal(st.vertices, 3 + 7 + 3);
    assert_int_equal(st.hs_invocations, 1);
    assert_int_equal(st.ds_invocations, 7);
    assert_false(d.centre_is_clear);
}

static void fractional_covers_the_same_area(void **state)
{
    (void)state;
    const struct tess_opts o = { 2.5f, 2.5f, V_VGT_TF_PARAM_PARTITIONING__PART_FRAC_ODD, V_SQ_LDS_OP__WRITE_REL, false,
                                 false };
    struct diff d;
    struct vc_render_stats st;
    compare(&o, &d, &st);
    assert_true(d.max_inner <= 1);
    assert_true(d.max_edge <= 32);
    assert_int_equal(st.vertices, 3 + 12 + 3);
    assert_int_equal(st.ds_invocations, 12);
    assert_false(d.centre_is_clear);
}

static void outer_zero_culls(void **state)
{
    (void)state;
    const struct tess_opts o = { 0.0f, 4.0f, V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER, V_SQ_LDS_OP__WRITE_REL, false, false };
    struct diff d;
    struct vc_render_stats st;
    compare(&o, &d, &st);
    assert_true(d.centre_is_clear);
    assert_true(d.pixels > 1000);
    assert_int_equal(st.vertices, 3 + 0 + 3);   /* the LS ran, no DS */
    assert_int_equal(st.hs_invocations, 1);     /* the HS made the level 0 */
    assert_int_equal(st.ds_invocations, 0);
}

/* Frames of the scene tessellated under o, with and without a pass-through
 * GS after the DS (the DS then the ES, writing the ESGS ring): the same
 * bytes, and one GS invocation per tessellated triangle. */
static void through_gs(float level, unsigned triangles, unsigned points)
{
    const struct tess_opts plain = { level, level, V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER, V_SQ_LDS_OP__WRITE_REL,
                                     false, false };
    struct tess_opts gs = plain;
    gs.with_gs = true;
    struct scene a, b;
    struct eg_demo_shaders sh;
    char why[200] = "";
    scene_start(&a, &sh);
    tess_on(&a, sh.color_param, &plain);
    if (scene_render(&a, why))
        fail_msg("tessellated: %s", why);
    scene_start(&b, &sh);
    tess_on(&b, sh.color_param, &gs);
    if (scene_render(&b, why))
        fail_msg("tessellated into a GS: %s", why);
    struct vc_render_stats st;
    vc_render_get_stats(b.r, &st);
    assert_int_equal(st.gs_invocations, triangles);
    assert_int_equal(st.gs_primitives, triangles);
    /* the DS as the ES: once per domain point (the ESGS ring holds them all) */
    assert_int_equal(st.hs_invocations, 1);
    assert_int_equal(st.ds_invocations, points);
    uint8_t *fa = frame(&a), *fb = frame(&b);
    /* the triangle is there */
    assert_memory_not_equal(fa + ((size_t)360 * W + 640) * 4, a.clear_bgra, 4);
    size_t differ = 0;
    for (size_t i = 0; i < (size_t)W * FB_H; i++)
        differ += memcmp(fa + 4 * i, fb + 4 * i, 4) != 0;
    if (differ)
        fail_msg("level %g: %zu pixels differ with the GS", (double)level, differ);
    free(fa);
    free(fb);
    scene_free(&a);
    scene_free(&b);
}

static void level1_through_a_gs(void **state)
{
    (void)state;
    through_gs(1.0f, 1, 3);
}

static void level2_through_a_gs(void **state)
{
    (void)state;
    through_gs(2.0f, 6, 7);
}

static void refused(const struct tess_opts *o, const char *want)
{
    struct scene ts;
    struct eg_demo_shaders sh;
    char why[200] = "";
    scene_start(&ts, &sh);
    tess_on(&ts, sh.color_param, o);
    assert_int_equal(scene_render(&ts, why), -1);
    if (!strstr(why, want))
        fail_msg("\"%s\" does not say \"%s\"", why, want);
    scene_free(&ts);
}

static void refused_state_is_named(void **state)
{
    (void)state;
    const unsigned I = V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER;
    refused(&(struct tess_opts){ 1.0f, 1.0f, I, V_SQ_LDS_OP__WRITE_REL, true, true },
            "with GS_EN, VGT_GS_MODE not GS_SCENARIO_G");
    refused(&(struct tess_opts){ 1.0f, 1.0f, I, V_SQ_LDS_OP__WRITE2, false, false },
            "shader LS PC 1 (clause instruction at");
    refused(&(struct tess_opts){ 1.0f, 1.0f, I, V_SQ_LDS_OP__WRITE2, false, false },
            "unsupported LDS instruction LDS_WRITE2 (0x0f)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level1_is_the_triangle),
        cmocka_unit_test(level2_covers_the_same_area),
        cmocka_unit_test(fractional_covers_the_same_area),
        cmocka_unit_test(outer_zero_culls),
        cmocka_unit_test(level1_through_a_gs),
        cmocka_unit_test(level2_through_a_gs),
        cmocka_unit_test(refused_state_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
