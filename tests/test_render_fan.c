/* A triangle fan of more vertices than the renderer keeps shaded vertices
 * for (256, draw.c), through vc_render_draw with stand-in shader stages:
 * the fan of piglit's arb_sample_shading-samplemask (a centre off the
 * window's middle, 80 vertices along each window edge, the last one closing
 * the fan), whose triangles tile the window.  OpenGL 4.6 14.6.1: a pixel
 * centre on an edge shared by two triangles belongs to exactly one, so
 * every pixel of the window is drawn exactly once -- a property, no values
 * from the model.  The fan's first vertex is the first vertex of every
 * triangle: the 256th vertex after it lands in the same slot of the
 * renderer's vertex cache, and once took its place (two triangles drawn
 * with the centre moved onto the rim, a gap at the centre). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "tests/common/render_scene.h"

#define W 64
#define H 64
#define PER_EDGE 80

struct fan {
    unsigned hits[H][W];
    unsigned nverts;
};

/* piglit samplemask.cpp's vert_fan, by vertex id */
static void fan_vertex(uint32_t id, float p[4])
{
    p[2] = 0.0f;
    p[3] = 1.0f;
    if (id == 0) {
        p[0] = 0.01f;
        p[1] = 0.011f;
        return;
    }
    unsigned edge = ((id - 1) / PER_EDGE) % 4, v = (id - 1) % PER_EDGE;
    float t = 2.0f / PER_EDGE * (float)v;
    const float x[4] = {-1 + t, 1, 1 - t, -1}, y[4] = {-1, -1 + t, 1, 1 - t};
    p[0] = x[edge];
    p[1] = y[edge];
}

static void *no_mem(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx, (void)addr, (void)len;
    return NULL;
}

static int stand_in_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                           uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    struct fan *f = ctx;
    (void)regs, (void)mem, (void)instance;
    if (index >= f->nverts) {
        snprintf(err->msg, sizeof err->msg, "no vertex %u", index);
        return -1;
    }
    fan_vertex(index, out->pos);
    return 0;
}

static int stand_in_pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                          const struct vc_prim_inputs *prim, const struct vc_pixel_in *in, struct vc_pixel_out *out,
                          struct vc_draw_err *err)
{
    struct fan *f = ctx;
    (void)regs, (void)mem, (void)prim, (void)err, (void)out;
    if (in->x < W && in->y < H)
        f->hits[in->y][in->x]++;
    return 0;
}

static void fan_covers_each_pixel_once(void **state)
{
    (void)state;
    static struct fan f;
    memset(&f, 0, sizeof f);
    f.nverts = 2 + 4 * PER_EDGE;
    struct vc_regs *regs = calloc(1, sizeof *regs);
    struct vc_render *r = vc_render_new();
    assert_non_null(regs);
    assert_non_null(r);
    struct vc_mem vmem = {.ctx = NULL, .ptr = no_mem};
    struct vc_shader_ops ops = {.ctx = &f, .vertex = stand_in_vertex, .pixel = stand_in_pixel};
    vc_render_set_shaders(r, &ops);
    vc_render_set_threads(r, 1);
    scene_set_reg(regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL) | S_CB_COLOR_CONTROL__ROP3(0xCC));
    scene_set_reg(regs, REG_PA_SU_VTX_CNTL, S_PA_SU_VTX_CNTL__PIX_CENTER_HALF(1) |
                                              S_PA_SU_VTX_CNTL__QUANT_MODE(V_PA_SU_QUANT_MODE__X_1_256TH));
    scene_set_reg(regs, REG_PA_CL_VTE_CNTL, 0x43F);
    scene_set_float(regs, REG_PA_CL_GB_HORZ_CLIP_ADJ, 1.0f);
    scene_set_float(regs, REG_PA_CL_GB_VERT_CLIP_ADJ, 1.0f);
    scene_set_float(regs, REG_PA_CL_VPORT_XSCALE(0), W / 2.0f);
    scene_set_float(regs, REG_PA_CL_VPORT_XOFFSET(0), W / 2.0f);
    scene_set_float(regs, REG_PA_CL_VPORT_YSCALE(0), H / 2.0f);
    scene_set_float(regs, REG_PA_CL_VPORT_YOFFSET(0), H / 2.0f);
    scene_set_float(regs, REG_PA_CL_VPORT_ZSCALE(0), 0.5f);
    scene_set_float(regs, REG_PA_CL_VPORT_ZOFFSET(0), 0.5f);
    scene_set_reg(regs, REG_PA_SC_SCREEN_SCISSOR_BR, 0x40004000);
    scene_set_reg(regs, REG_PA_SC_GENERIC_SCISSOR_BR, 0x40004000);
    scene_set_reg(regs, REG_PA_SC_WINDOW_SCISSOR_BR, (H << 16) | W);
    scene_set_reg(regs, REG_PA_SC_AA_MASK, 0xFFFFFFFFu);
    scene_set_reg(regs, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
    struct vc_draw dr = {.opcode = PKT3_DRAW_INDEX_AUTO, .num_indices = f.nverts, .num_instances = 1,
                         .prim_type = V_VGT_DI_PRIM_TYPE__DI_PT_TRIFAN};
    struct vc_draw_err err = {{0}};
    if (vc_render_draw(r, regs, &vmem, &dr, &err))
        fail_msg("draw: %s", err.msg);
    unsigned bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (f.hits[y][x] != 1 && bad++ < 5)
                print_error("pixel (%d, %d) drawn %u times\n", x, y, f.hits[y][x]);
    vc_render_free(r);
    free(regs);
    if (bad)
        fail_msg("%u pixels not drawn exactly once", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fan_covers_each_pixel_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
