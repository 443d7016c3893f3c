/* The geometry-shader path of the renderer (src/render/gs.c) with the
 * interpreter's stages, set up as Mesa's r600 sets it up (evergreen_state.c:
 * VGT_GS_MODE GS_SCENARIO_G, VGT_SHADER_STAGES_EN GS_EN / ES_EN REAL / VS_EN
 * COPY_SHADER, ring registers and item sizes in dwords; the GS's input ring
 * and the copy shader's output ring bound as fetch resources of stride 4 at
 * constant-buffer slot 18 of the GS and VS stages) with hand-assembled
 * programs shaped like Mesa's: an ES that calls the demo's fetch shader and
 * writes position and colour with MEM_RING at dwords 0 and 4; a GS fetching
 * them at 16 bytes per input from R0.x / R0.y / R0.w, writing its vertices
 * with WRITE_IND and an index growing by 2 per emit; the copy shader of
 * generate_gs_copy_shader (R0.x & 0x3fffffff, fetches at 16 bytes per
 * output, POS and PARAM exports).
 *
 * The frames are compared, byte for byte after the 8x resolve, with frames
 * drawn without a GS from vertices computed here in C (the plain path's
 * triangles: the demo scene's triangle, checked against the real card by
 * test_render_shaders):
 * - a pass-through GS draws exactly the scene's triangle;
 * - a GS that emits a 4-vertex strip (the triangle and the parallelogram's
 *   fourth corner b + c - a), a cut, the triangle mirrored in y, and one
 *   vertex more than VGT_GS_MAX_VERT_OUT (7) draws exactly the triangles
 *   (a b c), (c b d), (a' b' c'): the strip's odd triangle, the cut and the
 *   dropped vertex (kept, it would add (c' b' e) with e at (-1, -0.9), over
 *   pixels no other triangle covers); 1 GS invocation and 3 primitives are
 *   counted;
 * - triangles with adjacency: the GS reads the triangle's vertices 0, 2, 4
 *   from R0.x, R0.w, R1.y and draws the plain path's triangle;
 * - what the model does not take stops the draw with its name: stream-out,
 *   GS instancing, tessellation, a ring without size or outside memory, an
 *   output primitive type that does not exist, triangle strips with
 *   adjacency. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "cedar/shader.h"
#include "tests/common/render_scene.h"
#include "tests/common/gs_programs.h"
#include "tests/common/test_util.h"

#define W 1280
#define FB_H 768
#define AREA 0x1000u           /* our programs and rings, this far into the scene's extra bytes */

struct vtx { float pos[4], color[4]; };

/* The scene's triangle (render_scene.c scene_vertices 0..2) and resolve
 * rectangle (3..5), as the vertex buffer holds them. */
static void read_vertex(const struct scene *sc, unsigned v, struct vtx *out, const struct eg_demo_shaders *sh)
{
    const uint8_t *p = sc->mem + (sc->vtx_addr - sc->gpu_base) + (size_t)v * sc->vtx_stride;
    memset(out, 0, sizeof *out);
    memcpy(out->pos, p + sh->pos_offset, 12);
    memcpy(out->color, p + sh->color_offset, 12);
    out->pos[3] = 1.0f;
    out->color[3] = 1.0f;
}

static void write_vertex(struct scene *sc, unsigned v, const struct vtx *in, const struct eg_demo_shaders *sh)
{
    uint8_t *p = sc->mem + (sc->vtx_addr - sc->gpu_base) + (size_t)v * sc->vtx_stride;
    memcpy(p + sh->pos_offset, in->pos, 12);
    memcpy(p + sh->color_offset, in->color, 12);
}

static size_t build_es(uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_call_fs(&a);      /* the demo's fetch shader: position -> R1, colour -> R2 */
    gsp_ring_write(&a, 0, 0, 1, 0);
    gsp_ring_write(&a, 0, 4, 2, 0);
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("ES: %s", a.err);
    return n;
}

struct gs_setup {
    uint32_t vs_start;        /* the demo VS, restored for the resolve */
};
static struct gs_setup saved;

static void gs_off(struct scene *sc)
{
    scene_set_reg(sc->regs, REG_VGT_GS_MODE, 0);
    scene_set_reg(sc->regs, REG_VGT_SHADER_STAGES_EN, 0);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, saved.vs_start);
}

/* The geometry path's programs, rings and registers in the scene. */
static void gs_on(struct scene *sc, enum gs_kind kind, unsigned color_param)
{
    uint8_t *area = sc->mem + (sc->extra_addr - sc->gpu_base) + AREA;
    uint64_t gpu = sc->extra_addr + AREA;
    uint32_t w[1024];
    size_t n = build_es(w, 1024);
    assert_true(n * 4 <= 0x400);
    memcpy(area, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_ES, (uint32_t)(gpu >> 8));
    saved.vs_start = sc->regs->context[(REG_SQ_PGM_START_VS - SPACE_CONTEXT_START) / 4];
    assert_true(AREA + 0x400 + 0x1400 <= 0x4000);
    gsp_install(sc, area + 0x400, gpu + 0x400, kind, color_param);
    scene_set_reg(sc->regs, REG_VGT_SHADER_STAGES_EN,
                  S_VGT_SHADER_STAGES_EN__GS_EN(1) |
                      S_VGT_SHADER_STAGES_EN__ES_EN(V_VGT_SHADER_STAGES_EN_ES_EN__ES_STAGE_REAL) |
                      S_VGT_SHADER_STAGES_EN__VS_EN(V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_COPY_SHADER));
    sc->before_resolve = gs_off;
}

static uint8_t *frame(struct scene *sc)
{
    return test_scene_frame(sc, (size_t)W * FB_H * 4);
}

static void scene_start(struct scene *sc, struct eg_demo_shaders *sh)
{
    test_scene_start_demo(sc, sh, 8);
}

static unsigned differing(const uint8_t *a, const uint8_t *b)
{
    unsigned n = 0;
    for (size_t i = 0; i < (size_t)W * FB_H; i++)
        n += memcmp(a + 4 * i, b + 4 * i, 4) != 0;
    return n;
}

static void pass_through_gs_draws_the_triangle(void **state)
{
    (void)state;
    struct scene plain, gs;
    struct eg_demo_shaders sh;
    char why[200] = "";
    scene_start(&plain, &sh);
    if (scene_render(&plain, why))
        fail_msg("plain: %s", why);
    scene_start(&gs, &sh);
    gs_on(&gs, GS_PASS, sh.color_param);
    if (scene_render(&gs, why))
        fail_msg("GS: %s", why);
    struct vc_render_stats st;
    vc_render_get_stats(gs.r, &st);
    assert_int_equal(st.gs_invocations, 1);
    assert_int_equal(st.gs_primitives, 1);
    uint8_t *a = frame(&plain), *b = frame(&gs);
    assert_int_equal(differing(a, b), 0);
    /* and the triangle is there: not the clear colour at its centre */
    const uint8_t *c = a + ((size_t)360 * W + 640) * 4;
    assert_memory_not_equal(c, plain.clear_bgra, 4);
    free(a);
    free(b);
    scene_free(&plain);
    scene_free(&gs);
}

static void strips_cut_and_max_vertices(void **state)
{
    (void)state;
    struct scene plain, gs;
    struct eg_demo_shaders sh;
    char why[200] = "";
    /* the plain path: 9 vertices computed here, then the resolve rectangle */
    scene_start(&plain, &sh);
    struct vtx v[12];
    for (unsigned k = 0; k < 6; k++)
        read_vertex(&plain, k, &v[k], &sh);
    struct vtx rect[3] = { v[3], v[4], v[5] };
    struct vtx a = v[0], b = v[1], c = v[2], d;
    for (unsigned i = 0; i < 4; i++) {
        d.pos[i] = (b.pos[i] + c.pos[i]) - a.pos[i];
        d.color[i] = (b.color[i] + c.color[i]) - a.color[i];
    }
    struct vtx m[3] = { a, b, c };
    for (unsigned k = 0; k < 3; k++)
        m[k].pos[1] = -m[k].pos[1];
    const struct vtx tris[9] = { a, b, c, c, b, d, m[0], m[1], m[2] };
    for (unsigned k = 0; k < 9; k++)
        write_vertex(&plain, k, &tris[k], &sh);
    for (unsigned k = 0; k < 3; k++)
        write_vertex(&plain, 9 + k, &rect[k], &sh);
    plain.tri_vertices = 9;
    if (scene_render(&plain, why))
        fail_msg("plain: %s", why);

    scene_start(&gs, &sh);
    gs_on(&gs, GS_STRIPS, sh.color_param);
    if (scene_render(&gs, why))
        fail_msg("GS: %s", why);
    struct vc_render_stats st;
    vc_render_get_stats(gs.r, &st);
    assert_int_equal(st.gs_invocations, 1);
    assert_int_equal(st.gs_primitives, 3);
    uint8_t *fa = frame(&plain), *fb = frame(&gs);
    unsigned diff = differing(fa, fb);
    if (diff)
        fail_msg("%u pixels differ from the plain path's 3 triangles", diff);
    free(fa);
    free(fb);
    scene_free(&plain);
    scene_free(&gs);
}

/* Triangles with adjacency: the GS gets six vertices and draws the
 * triangle of the even ones, exactly as the plain path draws it. */
static void adjacency_input(void **state)
{
    (void)state;
    struct scene plain, gs;
    struct eg_demo_shaders sh;
    char why[200] = "";
    scene_start(&plain, &sh);
    if (scene_render(&plain, why))
        fail_msg("plain: %s", why);
    scene_start(&gs, &sh);
    struct vtx v[6], junk = { { 0.3f, 0.2f, 0.0f, 1.0f }, { 1, 1, 0, 1 } };
    for (unsigned k = 0; k < 6; k++)
        read_vertex(&gs, k, &v[k], &sh);
    const struct vtx buf[9] = { v[0], junk, v[1], junk, v[2], junk, v[3], v[4], v[5] };
    for (unsigned k = 0; k < 9; k++)
        write_vertex(&gs, k, &buf[k], &sh);
    gs.tri_vertices = 6;
    gs.tri_prim = V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ;
    gs_on(&gs, GS_ADJ, sh.color_param);
    if (scene_render(&gs, why))
        fail_msg("GS: %s", why);
    struct vc_render_stats st;
    vc_render_get_stats(gs.r, &st);
    assert_int_equal(st.gs_invocations, 1);
    uint8_t *a = frame(&plain), *b = frame(&gs);
    assert_int_equal(differing(a, b), 0);
    free(a);
    free(b);
    scene_free(&plain);
    scene_free(&gs);
}

/* Each thing the model does not take stops the draw, naming it. */
static void refused_state_is_named(void **state)
{
    (void)state;
    static const struct { uint32_t reg, val; const char *want; } cases[] = {
        { REG_VGT_STRMOUT_CONFIG, 1, "stream-out" },
        { REG_VGT_GS_INSTANCE_CNT, 1 | (4u << 2), "GS instancing" },
        { REG_VGT_SHADER_STAGES_EN, 1 | (1u << 2) | (2u << 3) | (1u << 5) | (2u << 6), "tessellation" },
        { REG_SQ_ESGS_RING_SIZE, 0, "ESGS ring has no size" },
        { REG_SQ_GSVS_RING_BASE, 0x7FFF0000u, "GSVS ring" },
        { REG_VGT_GS_OUT_PRIM_TYPE, 3, "VGT_GS_OUT_PRIM_TYPE 3" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct scene sc;
        struct eg_demo_shaders sh;
        char why[200] = "";
        scene_start(&sc, &sh);
        gs_on(&sc, GS_PASS, sh.color_param);
        scene_set_reg(sc.regs, cases[i].reg, cases[i].val);
        assert_int_equal(scene_render(&sc, why), -1);
        if (!strstr(why, cases[i].want))
            fail_msg("case %u: \"%s\" does not say \"%s\"", i, why, cases[i].want);
        scene_free(&sc);
    }
    /* a triangle strip with adjacency (its hardware vertex order is not GL's) */
    struct scene sc;
    struct eg_demo_shaders sh;
    char why[200] = "";
    scene_start(&sc, &sh);
    gs_on(&sc, GS_PASS, sh.color_param);
    sc.tri_prim = V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ;
    sc.tri_vertices = 6;
    assert_int_equal(scene_render(&sc, why), -1);
    assert_non_null(strstr(why, "triangle strips with adjacency"));
    scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pass_through_gs_draws_the_triangle),
        cmocka_unit_test(strips_cut_and_max_vertices),
        cmocka_unit_test(adjacency_input),
        cmocka_unit_test(refused_state_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
