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
#include "tests/common/test_util.h"

#define W 1280
#define FB_H 768
#define RING_SLOT 18           /* Mesa R600_GS_RING_CONST_BUFFER: 16 user buffers + 2 */
#define AREA 0x1000u           /* our programs and rings, this far into the scene's extra bytes */
#define ESGS_BYTES 0x400u      /* 32 items of 8 dwords */
#define GSVS_BYTES 0x400u
#define MAX_VERT_OUT 7

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

static void ring_resource(struct scene *sc, unsigned slot, uint64_t addr, uint32_t bytes)
{
    uint32_t *w = &sc->regs->resource[slot * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS];
    memset(w, 0, V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS * 4);
    w[0] = (uint32_t)addr;
    w[1] = bytes - 1;
    w[2] = S_SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI((uint32_t)(addr >> 32)) | S_SQ_VTX_CONSTANT_WORD2__STRIDE(4) |
           S_SQ_VTX_CONSTANT_WORD2__DATA_FORMAT(V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT);
    w[7] = S_SQ_VTX_CONSTANT_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER);
}

/* A 16-byte fetch from the ring resource at byte `offset` past the dword
 * index in src.chan. */
static void ring_fetch(struct eg_asm *a, unsigned dst, unsigned src, unsigned chan, unsigned offset)
{
    eg_asm_vtx(a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__NO_INDEX_OFFSET,
                                    .buffer_id = RING_SLOT, .src_gpr = src, .src_sel_x = chan,
                                    .mega_fetch_count = 15, .dst_gpr = dst, .dst_sel = EG_SWZ_XYZW,
                                    .use_const_fields = true, .offset = offset, .mega_fetch = true });
}

static void ring_write(struct eg_asm *a, unsigned type, unsigned base, unsigned gpr, unsigned index_gpr)
{
    eg_asm_mem(a, &(struct eg_mem_export){ .cf_inst = V_SQ_CF_INST__MEM_RING, .type = type, .array_base = base,
                                           .array_size = type ? 0xFFF : 0, .gpr = gpr, .index_gpr = index_gpr,
                                           .elem_size = 3, .comp_mask = 0xF });
}

static void alu2(struct eg_asm *a, unsigned op, unsigned dst, unsigned chan, struct eg_alu_src s0,
                 struct eg_alu_src s1, bool last)
{
    eg_asm_alu(a, &(struct eg_alu){ .op = op, .dst = { (uint8_t)dst, (uint8_t)chan, .write = true },
                                    .src = { s0, s1 }, .last = last });
}

/* R[dst] = R[x] + R[y] - R[z], component by component: (x + y) - z. */
static void add_sub(struct eg_asm *a, unsigned dst, unsigned x, unsigned y, unsigned z)
{
    for (unsigned c = 0; c < 4; c++)
        alu2(a, V_SQ_ALU_OP2__ADD, dst, c, eg_src_gpr(x, c), eg_src_gpr(y, c), c == 3);
    for (unsigned c = 0; c < 4; c++) {
        struct eg_alu_src nz = eg_src_gpr(z, c);
        nz.neg = true;
        alu2(a, V_SQ_ALU_OP2__ADD, dst, c, eg_src_gpr(dst, c), nz, c == 3);
    }
}

/* Emit the vertex in R[pos] / R[col]: its two outputs at dwords 0 and 4 of
 * vertex R7.x (elements of 4 dwords), then the index += 2. */
static void emit_vertex(struct eg_asm *a, unsigned pos, unsigned col)
{
    ring_write(a, 1, 0, pos, 7);
    ring_write(a, 1, 4, col, 7);
    eg_asm_emit(a, V_SQ_CF_INST__EMIT_VERTEX, 0);
    eg_asm_alu_clause(a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(a, V_SQ_ALU_OP2__ADD_INT, 7, 0, eg_src_gpr(7, 0), eg_src_lit_u(2), true);
}

enum gs_kind { GS_PASS, GS_STRIPS, GS_ADJ };

static size_t build_gs(enum gs_kind kind, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    /* the inputs' item offsets: vertices 0, 1, 2 in R0.x, R0.y, R0.w; with
     * adjacency the triangle's are vertices 0, 2, 4: R0.x, R0.w, R1.y (kept
     * in R14: the fetches write R1) */
    if (kind == GS_ADJ) {
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        alu2(&a, V_SQ_ALU_OP2__MOV, 14, 1, eg_src_gpr(1, 1), eg_src_gpr(1, 1), true);
    }
    eg_asm_vtx_clause(&a);
    const unsigned gpr[3] = { 0, 0, kind == GS_ADJ ? 14 : 0 };
    const unsigned chan[3] = { 0, kind == GS_ADJ ? 3 : 1, kind == GS_ADJ ? 1 : 3 };
    for (unsigned v = 0; v < 3; v++) {
        ring_fetch(&a, 1 + 2 * v, gpr[v], chan[v], 0);
        ring_fetch(&a, 2 + 2 * v, gpr[v], chan[v], 16);
    }
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(&a, V_SQ_ALU_OP2__MOV, 7, 0, eg_src_special(V_SQ_ALU_SRC__ZERO, 0), eg_src_gpr(0, 0), true);
    for (unsigned v = 0; v < 3; v++)
        emit_vertex(&a, 1 + 2 * v, 2 + 2 * v);
    if (kind == GS_STRIPS) {
        /* d = b + c - a, position and colour */
        add_sub(&a, 8, 3, 5, 1);
        add_sub(&a, 9, 4, 6, 2);
        emit_vertex(&a, 8, 9);
        eg_asm_emit(&a, V_SQ_CF_INST__CUT_VERTEX, 0);
        /* the triangle mirrored in y: R10, R11, R12 */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        for (unsigned v = 0; v < 3; v++)
            for (unsigned c = 0; c < 4; c++) {
                struct eg_alu_src s = eg_src_gpr(1 + 2 * v, c);
                s.neg = c == 1;
                alu2(&a, V_SQ_ALU_OP2__MOV, 10 + v, c, s, s, c == 3);
            }
        for (unsigned v = 0; v < 3; v++)
            emit_vertex(&a, 10 + v, 2 + 2 * v);
        /* an 8th vertex: past VGT_GS_MAX_VERT_OUT, dropped */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 0, eg_src_lit_f(-1.0f), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 1, eg_src_lit_f(-0.9f), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 2, eg_src_special(V_SQ_ALU_SRC__ZERO, 0), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 3, eg_src_special(V_SQ_ALU_SRC__ONE, 0), eg_src_gpr(0, 0), true);
        emit_vertex(&a, 13, 2);
    }
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("GS: %s", a.err);
    return n;
}

static size_t build_es(uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_call_fs(&a);      /* the demo's fetch shader: position -> R1, colour -> R2 */
    ring_write(&a, 0, 0, 1, 0);
    ring_write(&a, 0, 4, 2, 0);
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("ES: %s", a.err);
    return n;
}

static size_t build_copy(unsigned color_param, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(&a, V_SQ_ALU_OP2__AND_INT, 0, 0, eg_src_gpr(0, 0), eg_src_lit_u(0x3FFFFFFFu), true);
    eg_asm_vtx_clause(&a);
    ring_fetch(&a, 1, 0, 0, 0);
    ring_fetch(&a, 2, 0, 0, 16);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS, .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0,
                                           .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = color_param, .gpr = 2,
                                           .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("copy shader: %s", a.err);
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
    uint64_t off = 0;
    size_t n = build_es(w, 1024);
    memcpy(area + off, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_ES, (uint32_t)((gpu + off) >> 8));
    off += 0x400;
    n = build_gs(kind, w, 1024);
    assert_true(n * 4 <= 0x800);
    memcpy(area + off, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_GS, (uint32_t)((gpu + off) >> 8));
    off += 0x800;
    n = build_copy(color_param, w, 1024);
    memcpy(area + off, w, n * 4);
    saved.vs_start = sc->regs->context[(REG_SQ_PGM_START_VS - SPACE_CONTEXT_START) / 4];
    scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, (uint32_t)((gpu + off) >> 8));
    off += 0x400;
    uint64_t esgs = gpu + off, gsvs = esgs + ESGS_BYTES;
    assert_true(AREA + off + ESGS_BYTES + GSVS_BYTES <= 0x4000);
    memset(area + off, 0, ESGS_BYTES + GSVS_BYTES);
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_BASE, (uint32_t)(esgs >> 8));
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_SIZE, ESGS_BYTES >> 8);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_BASE, (uint32_t)(gsvs >> 8));
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_SIZE, GSVS_BYTES >> 8);
    ring_resource(sc, V_SQ_FETCH_RESOURCE_BASE__GS + RING_SLOT, esgs, ESGS_BYTES);
    ring_resource(sc, V_SQ_FETCH_RESOURCE_BASE__VS + RING_SLOT, gsvs, GSVS_BYTES);
    /* two outputs of 4 dwords per vertex, on either side */
    unsigned max_out = kind == GS_STRIPS ? MAX_VERT_OUT : 3;
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_ITEMSIZE, 8);
    scene_set_reg(sc->regs, REG_SQ_GS_VERT_ITEMSIZE, 8);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_ITEMSIZE, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_1, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_2, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_3, 8 * max_out);
    scene_set_reg(sc->regs, REG_VGT_GS_MAX_VERT_OUT, max_out);
    scene_set_reg(sc->regs, REG_VGT_GS_OUT_PRIM_TYPE, V_VGT_GS_OUTPRIM_TYPE__OUTPRIM_TYPE_TRISTRIP);
    scene_set_reg(sc->regs, REG_VGT_GS_INSTANCE_CNT, S_VGT_GS_INSTANCE_CNT__ENABLE(1) | S_VGT_GS_INSTANCE_CNT__CNT(1));
    scene_set_reg(sc->regs, REG_VGT_GS_MODE, S_VGT_GS_MODE__MODE(V_VGT_GS_MODE__GS_SCENARIO_G));
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
