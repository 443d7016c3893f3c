/* The depth/stencil block (src/render/depth.c) through vc_render_draw, with
 * stand-in shader stages (a vertex table, a constant colour, optionally a
 * depth export) and hand-programmed DB registers.  Expectations come from
 * the GL specification, worked by hand: window z = 0.5 * z_ndc + 0.5
 * (the viewport), a UNORM depth stores round(z * (2^n - 1)), the depth
 * test passes when the fragment's z FUNC the stored one, the stencil test
 * compares (ref & mask) FUNC (stencil & mask) and its operations (KEEP,
 * REPLACE, INCR, INVERT under a write mask) as 4.1.5 lists them, the
 * back-facing state for clockwise triangles.  Depth is read back through
 * hand-written address arithmetic for a 1D-tiled surface (8x8 micro tiles
 * row-major, the non-displayable pixel order x0 y0 x1 y1 x2 y2 of addrlib),
 * not through the tiling library.  Also: the depth sample order of MSAA
 * depth surfaces (samples of a pixel side by side: the address of sample s
 * is that of the pixel in the single-sample map of S-times-wider elements
 * plus s elements), HTILE's cleared tiles, the ZPASS count. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "cedar/tiling.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define W 64
#define H 64
#define GPU_BASE 0x100000ull
#define COLOR_OFF 0x0
#define DEPTH_OFF 0x10000
#define STENCIL_OFF 0x20000
#define HTILE_OFF 0x30000
#define MEM_SIZE 0x80000

struct rig {
    uint8_t *mem;
    struct vc_mem vmem;
    struct vc_regs *regs;
    struct vc_render *r;
    /* stand-in stages */
    float pos[6][4];
    unsigned nverts;
    float color[4];
    bool export_z;
    float z;
    bool export_s;
    uint8_t s;
    bool export_mask;
    uint32_t mask;
};

static void *rig_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    struct rig *g = ctx;
    if (addr < GPU_BASE || len > MEM_SIZE || addr - GPU_BASE > MEM_SIZE - len)
        return NULL;
    return g->mem + (addr - GPU_BASE);
}

static int stand_in_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                           uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    struct rig *g = ctx;
    (void)regs;
    (void)mem;
    (void)instance;
    if (index >= g->nverts) {
        snprintf(err->msg, sizeof err->msg, "no vertex %u", index);
        return -1;
    }
    memcpy(out->pos, g->pos[index], sizeof out->pos);
    return 0;
}

static int stand_in_pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                          const struct vc_prim_inputs *prim, const struct vc_pixel_in *in, struct vc_pixel_out *out,
                          struct vc_draw_err *err)
{
    struct rig *g = ctx;
    (void)regs;
    (void)mem;
    (void)prim;
    (void)in;
    (void)err;
    memcpy(out->color[0], g->color, sizeof out->color[0]);
    out->num_colors = 1;
    out->depth_written = g->export_z;
    out->depth = g->z;
    out->stencil_written = g->export_s;
    out->stencil = g->s;
    out->mask_written = g->export_mask;
    out->mask = g->mask;
    return 0;
}

/* A 64x64 linear RGBA8 colour buffer; a 1D-tiled depth (Z_24 unless told)
 * and stencil buffer; the viewport maps NDC [-1, 1] to the window, z to
 * [0, 1]; depth clamp [0, 1]. */
static void rig_init(struct rig *g, unsigned zformat)
{
    memset(g, 0, sizeof *g);
    g->mem = calloc(1, MEM_SIZE);
    g->regs = calloc(1, sizeof *g->regs);
    g->r = vc_render_new();
    assert_non_null(g->mem);
    assert_non_null(g->regs);
    assert_non_null(g->r);
    g->vmem.ctx = g;
    g->vmem.ptr = rig_ptr;
    struct vc_shader_ops ops = {.ctx = g, .vertex = stand_in_vertex, .pixel = stand_in_pixel};
    vc_render_set_shaders(g->r, &ops);
    vc_render_set_threads(g->r, 1);
    struct vc_regs *r = g->regs;
    scene_set_reg(r, REG_CB_COLOR_BASE(0), (uint32_t)((GPU_BASE + COLOR_OFF) >> 8));
    scene_set_reg(r, REG_CB_COLOR_PITCH(0), W / 8 - 1);
    scene_set_reg(r, REG_CB_COLOR_SLICE(0), W * H / 64 - 1);
    scene_set_reg(r, REG_CB_COLOR_INFO(0), S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) |
                                         S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED));
    scene_set_reg(r, REG_CB_TARGET_MASK, 0xF);
    scene_set_reg(r, REG_CB_SHADER_MASK, 0xF);
    scene_set_reg(r, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL) | S_CB_COLOR_CONTROL__ROP3(0xCC));
    scene_set_reg(r, REG_DB_Z_INFO, S_DB_Z_INFO__FORMAT(zformat) |
                                  S_DB_Z_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_1D_TILED_THIN1));
    scene_set_reg(r, REG_DB_STENCIL_INFO, S_DB_STENCIL_INFO__FORMAT(V_DB_STENCIL_FORMAT__STENCIL_8));
    scene_set_reg(r, REG_DB_DEPTH_SIZE, S_DB_DEPTH_SIZE__PITCH_TILE_MAX(W / 8 - 1) |
                                      S_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(H / 8 - 1));
    scene_set_reg(r, REG_DB_Z_READ_BASE, (uint32_t)((GPU_BASE + DEPTH_OFF) >> 8));
    scene_set_reg(r, REG_DB_Z_WRITE_BASE, (uint32_t)((GPU_BASE + DEPTH_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_READ_BASE, (uint32_t)((GPU_BASE + STENCIL_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_WRITE_BASE, (uint32_t)((GPU_BASE + STENCIL_OFF) >> 8));
    scene_set_reg(r, REG_DB_COUNT_CONTROL, S_DB_COUNT_CONTROL__PERFECT_ZPASS_COUNTS(1));
    scene_set_float(r, REG_PA_SC_VPORT_ZMIN_0, 0.0f);
    scene_set_float(r, REG_PA_SC_VPORT_ZMAX_0, 1.0f);
    scene_set_reg(r, REG_PA_SU_VTX_CNTL, S_PA_SU_VTX_CNTL__PIX_CENTER_HALF(1) |
                                       S_PA_SU_VTX_CNTL__QUANT_MODE(V_PA_SU_QUANT_MODE__X_1_256TH));
    scene_set_reg(r, REG_PA_CL_VTE_CNTL, 0x43F);
    scene_set_reg(r, REG_PA_CL_CLIP_CNTL, S_PA_CL_CLIP_CNTL__CLIP_DISABLE(1));
    scene_set_float(r, REG_PA_CL_VPORT_XSCALE(0), W / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_XOFFSET(0), W / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_YSCALE(0), H / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_YOFFSET(0), H / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_ZSCALE(0), 0.5f);
    scene_set_float(r, REG_PA_CL_VPORT_ZOFFSET(0), 0.5f);
    scene_set_reg(r, REG_PA_SC_SCREEN_SCISSOR_BR, 0x40004000);
    scene_set_reg(r, REG_PA_SC_GENERIC_SCISSOR_BR, 0x40004000);
    scene_set_reg(r, REG_PA_SC_WINDOW_SCISSOR_BR, (H << 16) | W);
    scene_set_reg(r, REG_PA_SC_AA_MASK, 0xFFFFFFFFu);
    scene_set_reg(r, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
}

static void rig_free(struct rig *g)
{
    vc_render_free(g->r);
    free(g->regs);
    free(g->mem);
}

/* A triangle covering the whole window, at NDC depths z0 (bottom left),
 * z1 (right), z2 (top); ccw false: the same triangle wound the other way. */
static void big_triangle(struct rig *g, float z0, float z1, float z2, bool ccw)
{
    const float p[3][4] = {{-1, -1, z0, 1}, {3, -1, z1, 1}, {-1, 3, z2, 1}};
    memcpy(g->pos[0], p[0], sizeof p[0]);
    memcpy(g->pos[1], ccw ? p[1] : p[2], sizeof p[0]);
    memcpy(g->pos[2], ccw ? p[2] : p[1], sizeof p[0]);
    g->nverts = 3;
}

static void draw(struct rig *g)
{
    struct vc_draw dr = {0};
    dr.opcode = PKT3_DRAW_INDEX_AUTO;
    dr.num_indices = g->nverts;
    dr.num_instances = 1;
    dr.prim_type = V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST;
    struct vc_draw_err err = {{0}};
    if (vc_render_draw(g->r, g->regs, &g->vmem, &dr, &err))
        fail_msg("draw: %s", err.msg);
}

static void set_depth_control(struct rig *g, uint32_t v)
{
    scene_set_reg(g->regs, REG_DB_DEPTH_CONTROL, v);
}

/* Byte offset of pixel (x, y) of a 1D-tiled single-sample surface `pitch`
 * pixels wide, by hand: micro tiles of 8x8 pixels row-major, pixel index
 * bits x0 y0 x1 y1 x2 y2. */
static size_t hand_1d_addr_pitch(unsigned x, unsigned y, unsigned bpe, unsigned pitch)
{
    unsigned idx = (x & 1) | (y & 1) << 1 | (x >> 1 & 1) << 2 | (y >> 1 & 1) << 3 | (x >> 2 & 1) << 4 |
                   (y >> 2 & 1) << 5;
    return ((size_t)(y / 8) * (pitch / 8) + x / 8) * 64 * bpe + (size_t)idx * bpe;
}

static size_t hand_1d_addr(unsigned x, unsigned y, unsigned bpe)
{
    return hand_1d_addr_pitch(x, y, bpe, W);
}

static uint32_t depth24_at(const struct rig *g, unsigned x, unsigned y)
{
    const uint8_t *p = g->mem + DEPTH_OFF + hand_1d_addr(x, y, 4);
    return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) & 0xFFFFFFu;
}

static uint8_t stencil_at(const struct rig *g, unsigned x, unsigned y)
{
    return g->mem[STENCIL_OFF + hand_1d_addr(x, y, 1)];
}

static const uint8_t *color_at(const struct rig *g, unsigned x, unsigned y)
{
    return g->mem + COLOR_OFF + ((size_t)y * W + x) * 4;
}

static void set_color(struct rig *g, float r, float gr, float b)
{
    g->color[0] = r;
    g->color[1] = gr;
    g->color[2] = b;
    g->color[3] = 1.0f;
}

static uint64_t zpass(const struct rig *g)
{
    struct vc_render_stats st;
    vc_render_get_stats(g->r, &st);
    return st.zpass_samples;
}

/* GL_LESS: nearer passes, farther does not; the stored depth is the
 * rounded 24-bit value of the window z. */
static void test_depth_less(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true); /* window z 0.5 */
    set_color(&g, 1, 0, 0);
    draw(&g);
    assert_int_equal(depth24_at(&g, 5, 7), 8388608); /* 0.5 * 16777215 = 8388607.5, rounded */
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_LESS));
    uint64_t before = zpass(&g);
    big_triangle(&g, -0.5f, -0.5f, -0.5f, true); /* window z 0.25: nearer */
    set_color(&g, 0, 1, 0);
    draw(&g);
    assert_int_equal(zpass(&g) - before, W * H);
    before = zpass(&g);
    big_triangle(&g, 0.5f, 0.5f, 0.5f, true); /* window z 0.75: farther */
    set_color(&g, 0, 0, 1);
    draw(&g);
    assert_int_equal(zpass(&g) - before, 0);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            const uint8_t *c = color_at(&g, x, y);
            if (c[0] != 0 || c[1] != 255 || c[2] != 0)
                fail_msg("pixel %u,%u: %u %u %u, not green", x, y, c[0], c[1], c[2]);
            assert_int_equal(depth24_at(&g, x, y), 4194304); /* 0.25 * 16777215 = 4194303.75 */
        }
    /* GL_EQUAL against what is stored passes exactly there */
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_EQUAL));
    before = zpass(&g);
    big_triangle(&g, -0.5f, -0.5f, -0.5f, true);
    draw(&g);
    assert_int_equal(zpass(&g) - before, W * H);
    rig_free(&g);
}

/* A sloped triangle: window z = 0.5 * z_ndc + 0.5 interpolated linearly in
 * the window, so z = (x + 0.5) / 64 at pixel centres for this one (NDC z
 * -1 at window x 0 and 3 at window x 128). */
static void test_depth_plane(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    big_triangle(&g, -1.0f, 3.0f, -1.0f, true);
    draw(&g);
    const unsigned xs[] = {0, 1, 16, 31, 40, 63};
    for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; k++) {
        double z = (xs[k] + 0.5) / 64.0;
        uint32_t want = (uint32_t)(z * 16777215.0 + 0.5);
        uint32_t got = depth24_at(&g, xs[k], 9);
        if (got + 1 < want || got > want + 1) /* float interpolation: within one step */
            fail_msg("x %u: depth %u, GL gives %u", xs[k], got, want);
    }
    rig_free(&g);
}

/* Stencil on: ALWAYS passes, a passing sample's stencil becomes REF (all masks 0xFF). */
static void stencil_replace(struct rig *g, unsigned ref)
{
    set_depth_control(g, S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                             S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                             S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_REPLACE));
    scene_set_reg(g->regs, REG_DB_STENCILREFMASK, S_DB_STENCILREFMASK__STENCILREF(ref) |
                                                S_DB_STENCILREFMASK__STENCILMASK(0xFF) |
                                                S_DB_STENCILREFMASK__STENCILWRITEMASK(0xFF));
}

/* Stencil: REPLACE, then EQUAL with INCR on depth pass, then a failing
 * NOTEQUAL whose INVERT goes through a write mask; GL 4.1.5 by hand. */
static void test_stencil_ops(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    stencil_replace(&g, 5);
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 5);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_EQUAL) |
                              S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_INCR));
    set_color(&g, 0, 1, 0);
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 6);
    assert_int_equal(color_at(&g, 3, 60)[1], 255);
    /* (6 & 0xFF) != 6 fails: INVERT gives 0xF9, of which the mask 0x0F
     * writes the low nibble: (6 & 0xF0) | (0xF9 & 0x0F) = 0x09 */
    set_depth_control(&g, S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_NOTEQUAL) |
                              S_DB_DEPTH_CONTROL__STENCILFAIL(V_STENCIL_OP__STENCIL_INVERT));
    scene_set_reg(g.regs, REG_DB_STENCILREFMASK, S_DB_STENCILREFMASK__STENCILREF(6) |
                                               S_DB_STENCILREFMASK__STENCILMASK(0xFF) |
                                               S_DB_STENCILREFMASK__STENCILWRITEMASK(0x0F));
    set_color(&g, 0, 0, 1);
    uint64_t before = zpass(&g);
    draw(&g);
    assert_int_equal(zpass(&g) - before, 0);
    assert_int_equal(stencil_at(&g, 3, 60), 0x09);
    assert_int_equal(color_at(&g, 3, 60)[2], 0); /* the failing draw wrote no colour */
    /* a back-facing triangle uses the _BF state: ALWAYS + ZERO there, while
     * the front state (NEVER) would keep 0x09.  Window y grows with NDC y
     * here (YSCALE > 0), so the triangle counter-clockwise in NDC is
     * clockwise on the y-down screen: back-facing under FACE 0 (CCW front). */
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) | S_DB_DEPTH_CONTROL__BACKFACE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_NEVER) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC_BF(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                              S_DB_DEPTH_CONTROL__STENCILZPASS_BF(V_STENCIL_OP__STENCIL_ZERO));
    scene_set_reg(g.regs, REG_DB_STENCILREFMASK_BF, S_DB_STENCILREFMASK_BF__STENCILWRITEMASK_BF(0xFF));
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 0);
    rig_free(&g);
}

/* The DB has one pitch, DB_DEPTH_SIZE's, for both planes: a 16-pixel-wide
 * 1D depth/stencil buffer keeps its stencil in micro-tile rows of 2 tiles
 * (128 bytes), although an 8-bit 1D surface on its own would be padded to
 * 32 pixels (libdrm eg_surface_init_1d: pipe interleave / (8 x 1 byte)).
 * Sources: Mesa ac_surface.c ("DB uses the depth pitch for both stencil and
 * depth", the stencil_adjusted plane that cannot be sampled), the radeon
 * kernel's evergreen_cs_track_validate_stencil (the stencil sized from
 * DB_DEPTH_SIZE's pitch with 1-byte elements), addrlib's
 * HwlGetPitchAlignmentMicroTiled (a depth+stencil pitch padded as 8 bpp for
 * the stencil's sake).  Mesa r600 on libdrm samples this plane at libdrm's
 * 32-pixel pitch: tests/piglit/msaa.expected. */
static void test_stencil_plane_pitch(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    const unsigned side = 16;
    scene_set_reg(g.regs, REG_DB_DEPTH_SIZE, S_DB_DEPTH_SIZE__PITCH_TILE_MAX(side / 8 - 1) |
                                               S_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(side / 8 - 1));
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    /* each pixel a value of its own (REPLACE under a one-pixel scissor) */
    for (unsigned y = 0; y < side; y++)
        for (unsigned x = 0; x < side; x++) {
            scene_set_reg(g.regs, REG_PA_SC_GENERIC_SCISSOR_TL, y << 16 | x);
            scene_set_reg(g.regs, REG_PA_SC_GENERIC_SCISSOR_BR, (y + 1) << 16 | (x + 1));
            stencil_replace(&g, (1 + x + side * y) & 0xFF);
            draw(&g);
        }
    for (unsigned y = 0; y < side; y++)
        for (unsigned x = 0; x < side; x++) {
            uint8_t want = (uint8_t)(1 + x + side * y);
            uint8_t got = g.mem[STENCIL_OFF + hand_1d_addr_pitch(x, y, 1, side)];
            if (got != want)
                fail_msg("pixel %u,%u: stencil %u at its 16-pixel-pitch address, want %u", x, y, got, want);
        }
    /* nothing past the 256 bytes of a 16x16 plane: at a 32-pixel pitch the
     * second row of micro tiles would start at byte 256 */
    for (unsigned b = side * side; b < 2 * side * side; b++)
        if (g.mem[STENCIL_OFF + b])
            fail_msg("byte %u of the stencil plane written: the DB used a wider pitch", b);
    rig_free(&g);
}

/* A depth exported by the pixel shader replaces the interpolated one. */
static void test_depth_export(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_16);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    scene_set_reg(g.regs, REG_DB_SHADER_CONTROL, S_DB_SHADER_CONTROL__Z_EXPORT_ENABLE(1));
    g.export_z = true;
    g.z = 0.125f;
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    draw(&g);
    const uint8_t *p = g.mem + DEPTH_OFF + hand_1d_addr(20, 30, 2);
    assert_int_equal(p[0] | p[1] << 8, 8192); /* 0.125 * 65535 = 8191.875 */
    rig_free(&g);
}

/* A stencil reference exported by the pixel shader (ARB_shader_stencil_export:
 * it replaces the reference value of the stencil test and of REPLACE) takes
 * effect only under DB_SHADER_CONTROL.STENCIL_EXPORT_ENABLE, and also in a
 * draw without colour (CB_DISABLE: Mesa's stencil blits). */
static void test_stencil_export(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    stencil_replace(&g, 5);
    g.export_s = true;
    g.s = 0xA7;
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 5); /* export not enabled: the register's 5 */
    scene_set_reg(g.regs, REG_DB_SHADER_CONTROL, S_DB_SHADER_CONTROL__STENCIL_EXPORT_ENABLE(1));
    scene_set_reg(g.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_DISABLE));
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 0xA7);
    /* the exported reference is also what EQUAL compares with */
    set_depth_control(&g, S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_EQUAL) |
                              S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_INCR));
    g.s = 0xA7;
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 0xA8);
    g.s = 0x11; /* no longer equal: kept */
    draw(&g);
    assert_int_equal(stencil_at(&g, 3, 60), 0xA8);
    rig_free(&g);
}

/* Without colour (CB_DISABLE) the DB still tests and writes, as Mesa's
 * depth-only clears and passes need. */
static void test_depth_only_draw(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_24);
    scene_set_reg(g.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_DISABLE));
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    big_triangle(&g, 1.0f, 1.0f, 1.0f, true);
    draw(&g);
    assert_int_equal(depth24_at(&g, 63, 63), 16777215);
    assert_int_equal(color_at(&g, 63, 63)[3], 0); /* no colour written */
    rig_free(&g);
}

/* HTILE: a zero word is a cleared tile reading DB_DEPTH_CLEAR; a write
 * expands it.  With the clear value 0.25 a LESS draw at 0.5 fails; with
 * 1.0 it passes and the tile's ZMASK becomes non-zero. */
static void test_htile(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct rig g;
        rig_init(&g, V_DB_Z_FORMAT__Z_24);
        scene_set_reg(g.regs, REG_DB_Z_INFO, vc_reg(g.regs, REG_DB_Z_INFO) | S_DB_Z_INFO__TILE_SURFACE_ENABLE(1));
        scene_set_reg(g.regs, REG_DB_HTILE_SURFACE, S_DB_HTILE_SURFACE__HTILE_WIDTH(1) | S_DB_HTILE_SURFACE__HTILE_HEIGHT(1));
        scene_set_reg(g.regs, REG_DB_HTILE_DATA_BASE, (uint32_t)((GPU_BASE + HTILE_OFF) >> 8));
        scene_set_float(g.regs, REG_DB_DEPTH_CLEAR, k ? 1.0f : 0.25f);
        set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                                  S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_LESS));
        big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
        draw(&g);
        assert_int_equal(zpass(&g), k ? W * H : 0);
        uint32_t word;
        memcpy(&word, g.mem + HTILE_OFF, 4);
        /* what the tile reads as: the surface once expanded, else the clear value */
        uint32_t seen = (word & 0xF) ? depth24_at(&g, 3, 3) : (k ? 16777215u : 4194304u);
        assert_int_equal(seen, k ? 8388608 : 4194304);
        if (k)
            assert_int_equal(word & 0xF, 0xF);
        rig_free(&g);
    }
}

/* The DB copy Mesa reads depth back with (DB_RENDER_CONTROL.DEPTH_COPY
 * into a colour twin of the depth format): a Z_32_FLOAT buffer copied into
 * a COLOR_32_FLOAT one holds the window z, (x + 0.5) / 64 on the sloped
 * triangle, whatever the copy draw's own colour. */
static void test_depth_copy(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g, V_DB_Z_FORMAT__Z_32_FLOAT);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    scene_set_reg(g.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_DISABLE));
    big_triangle(&g, -1.0f, 3.0f, -1.0f, true);
    draw(&g);
    scene_set_reg(g.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL) |
                                                    S_CB_COLOR_CONTROL__ROP3(0xCC));
    scene_set_reg(g.regs, REG_CB_COLOR_INFO(0), S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_32_FLOAT) |
                                                    S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_FLOAT) |
                                                    S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED));
    scene_set_reg(g.regs, REG_DB_RENDER_CONTROL, S_DB_RENDER_CONTROL__DEPTH_COPY_ENABLE(1) |
                                                     S_DB_RENDER_CONTROL__COPY_CENTROID(1));
    set_depth_control(&g, 0);
    set_color(&g, 0.5f, 0.5f, 0.5f);
    big_triangle(&g, 0.0f, 0.0f, 0.0f, true);
    draw(&g);
    for (unsigned x = 0; x < W; x += 7) {
        float got;
        memcpy(&got, g.mem + COLOR_OFF + ((size_t)11 * W + x) * 4, 4);
        float want = (float)((x + 0.5) / 64.0);
        if (!(got >= want - 1e-6f && got <= want + 1e-6f))
            fail_msg("x %u: copied depth %g, window z %g", x, got, want);
    }
    rig_free(&g);
}

/* MSAA depth surfaces keep a pixel's samples side by side (addrlib
 * isDepthSampleOrder): sample s of (x, y) in an S-sample map of b-byte
 * elements is at the pixel's address in the single-sample map of S*b-byte
 * elements, plus s*b; a round trip through cedar_tile_coord gives it back. */
static void test_depth_sample_order(void **state)
{
    (void)state;
    struct cedar_surface s = {0};
    s.mode = CEDAR_MODE_2D_THIN;
    s.aligned_width = s.width = 64;
    s.aligned_height = s.height = 64;
    s.tiling = (struct cedar_tiling){2, 8, 256, 1024};
    s.bankw = 1;
    s.bankh = 1;
    s.mtilea = 1;
    const unsigned cases[][3] = {{4, 4, 1024}, {2, 2, 256}, {4, 2, 512}, {2, 4, 64}, {1, 8, 1024}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned bpe = cases[c][0], ns = cases[c][1];
        s.tile_split = cases[c][2];
        struct cedar_tile_opts o = {.order = CEDAR_MICRO_NON_DISPLAYABLE, .depth_sample_order = 1};
        struct cedar_tile_map m, wide;
        struct cedar_layout_err e = {{0}};
        s.bpe = bpe;
        s.samples = ns;
        if (cedar_tile_map_init(&m, &s, &o, &e))
            fail_msg("case %u: %s", c, e.msg);
        s.bpe = bpe * ns;
        s.samples = 1;
        if (cedar_tile_map_init(&wide, &s, &o, &e))
            fail_msg("case %u wide: %s", c, e.msg);
        assert_int_equal(m.size, wide.size);
        for (unsigned y = 0; y < 64; y += 3)
            for (unsigned x = 0; x < 64; x += 5)
                for (unsigned smp = 0; smp < ns; smp++) {
                    uint64_t a = cedar_tile_addr(&m, x, y, smp, 0);
                    assert_int_equal(a, cedar_tile_addr(&wide, x, y, 0, 0) + smp * bpe);
                    struct cedar_tile_coord tc;
                    assert_int_equal(cedar_tile_coord(&m, a, &tc), 0);
                    assert_int_equal(tc.x, x);
                    assert_int_equal(tc.y, y);
                    assert_int_equal(tc.sample, smp);
                }
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        if (ns > 1)
            assert_int_equal(cedar_tile_micro(&m, 0, 0, 0, 0, run), 0);
    }
}

/* The renderer's kept depth tables (addr_table.c render_depth_table): for
 * depth and stencil maps (1D and 2D tiled, 1 to 8 samples, 1 to 4 bytes,
 * tile splits that cut a micro tile or not), every sample of every pixel
 * found through its micro tile's kept runs (run[E / run_bytes] +
 * E % run_bytes, E = cedar_tile_element_offset) is at cedar_tile_addr's
 * address; tiles visited in an order that jumps between them; the table
 * is the layout's, apart from a colour table of the same layout, and gives
 * no colour or FMask entries; a second call gives the same table. */
static void test_depth_tables(void **state)
{
    (void)state;
    struct vc_render *r = vc_render_new();
    assert_non_null(r);
    const unsigned cases[][5] = {   /* mode (1: 2D), bpe, samples, tile split, tiles a side */
        {1, 4, 4, 1024, 8}, {1, 4, 8, 512, 8}, {1, 1, 4, 256, 16}, {1, 2, 2, 64, 8}, {0, 4, 1, 1024, 8},
        {0, 1, 1, 256, 8}, {1, 4, 1, 256, 16},
    };
    unsigned checked = 0, kept = 0, with_colour = 0;
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct cedar_surface s = {0};
        s.mode = cases[c][0] ? CEDAR_MODE_2D_THIN : CEDAR_MODE_1D_THIN;
        s.aligned_width = s.width = s.aligned_height = s.height = 8 * cases[c][4];
        s.tiling = (struct cedar_tiling){2, 8, 256, 1024};
        s.bankw = s.bankh = s.mtilea = 1;
        s.bpe = cases[c][1];
        s.samples = cases[c][2];
        s.tile_split = cases[c][3];
        struct cedar_tile_opts o = {.order = CEDAR_MICRO_NON_DISPLAYABLE, .depth_sample_order = 1};
        struct cedar_tile_map m;
        struct cedar_layout_err e = {{0}};
        if (cedar_tile_map_init(&m, &s, &o, &e))
            fail_msg("case %u: %s", c, e.msg);
        r->draw_serial++;   /* each case a draw of its own: the tables of earlier ones may go */
        /* a colour table of the same layout first (when it has one),
         * which the depth table must not be */
        struct addr_table *colour = render_addr_table(r, &m);
        with_colour += colour != NULL;
        struct addr_table *t = render_depth_table(r, &m);
        assert_non_null(t);
        assert_ptr_not_equal(t, colour);
        assert_ptr_equal(render_depth_table(r, &m), t);
        if (colour)
            assert_ptr_equal(render_addr_table(r, &m), colour);
        assert_null(addr_table_color(t, 0, 0));
        assert_null(addr_table_fmask(t, 0, 0));
        unsigned tiles = cases[c][4];
        assert_null(addr_table_depth(t, tiles, 0));     /* past the surface */
        for (unsigned k = 0; k < tiles * tiles; k++) {
            unsigned tile = (k * 7u + 3u) % (tiles * tiles);  /* 7 is prime to every count here */
            unsigned mx = tile % tiles, my = tile / tiles;
            const struct color_tile *ct = addr_table_depth(t, mx, my);
            assert_non_null(ct);
            kept++;
            for (unsigned i = 0; i < 64; i++)
                for (unsigned smp = 0; smp < m.samples; smp++) {
                    unsigned x = 8 * mx + i % 8, y = 8 * my + i / 8;
                    uint32_t el = cedar_tile_element_offset(&m, x, y, smp);
                    unsigned k2 = el / m.run_bytes;
                    assert_true(k2 < ct->nrun);
                    uint64_t a = ct->run[k2] + el % m.run_bytes;
                    if (a != cedar_tile_addr(&m, x, y, smp, 0))
                        fail_msg("case %u: sample %u of (%u, %u) at %llu through the kept runs, %llu by the map", c,
                                 smp, x, y, (unsigned long long)a, (unsigned long long)cedar_tile_addr(&m, x, y, smp, 0));
                    checked++;
                }
        }
    }
    assert_true(kept > 300 && checked > 100000 && with_colour > 0);
    vc_render_free(r);
}

/* Sample offsets of the 4-sample rig (1/16 pixel), all different. */
static const int MSAA4_DX[4] = {-6, 2, 6, -2}, MSAA4_DY[4] = {-2, -6, 2, 6};

/* The rig at 4 samples without colour (CB_DISABLE): a 2D-tiled Z_32_FLOAT
 * depth and STENCIL_8 surface (MSAA needs 2D tiling): 8 banks, bank width /
 * height and macro aspect 1, depth tile split 1 KiB (no split at 4 x 4
 * bytes), stencil 256. */
static void msaa4_rig(struct rig *g)
{
    rig_init(g, V_DB_Z_FORMAT__Z_32_FLOAT);
    uint32_t locs = 0;
    for (unsigned i = 0; i < 4; i++)
        locs |= ((uint32_t)(MSAA4_DX[i] & 0xF) | (uint32_t)(MSAA4_DY[i] & 0xF) << 4) << (8 * i);
    scene_set_reg(g->regs, REG_PA_SC_AA_CONFIG, S_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(2));
    scene_set_reg(g->regs, REG_PA_SC_MODE_CNTL_0, S_PA_SC_MODE_CNTL_0__MSAA_ENABLE(1));
    scene_set_reg(g->regs, REG_PA_SC_AA_SAMPLE_LOCS(0), locs);
    scene_set_reg(g->regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_DISABLE));
    scene_set_reg(g->regs, REG_DB_Z_INFO, S_DB_Z_INFO__FORMAT(V_DB_Z_FORMAT__Z_32_FLOAT) |
                                            S_DB_Z_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) |
                                            S_DB_Z_INFO__NUM_BANKS(2) | S_DB_Z_INFO__TILE_SPLIT(4));
    scene_set_reg(g->regs, REG_DB_STENCIL_INFO, S_DB_STENCIL_INFO__FORMAT(V_DB_STENCIL_FORMAT__STENCIL_8) |
                                                  S_DB_STENCIL_INFO__TILE_SPLIT(2));
}

/* A draw without colour (CB_DISABLE: Mesa's stencil clears and depth-only
 * passes) takes whole micro tiles to the DB at once (draw.c db_alone)
 * unless vc_render_set_block_path turns that off: both ways the same bytes
 * of depth, stencil and colour, the same ZPASS count and the same CB
 * operation count (the modelled clock reads it), for a sloped triangle
 * partly covering the window (whole blocks and edge pixels) over depth
 * and stencil bytes left by a first draw, stencil EQUAL / INCR on depth
 * pass, depth LESS written; Z_16, Z_24 and Z_32_FLOAT at one sample and
 * the 4-sample rig. */
static void render_db_alone(struct rig *g, bool block_path)
{
    scene_set_reg(g->regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_DISABLE));
    vc_render_set_block_path(g->r, block_path);
    /* first: stencil REPLACE 5 where a sloped triangle covers, depth ALWAYS written */
    set_depth_control(g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                             S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                             S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                             S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                             S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_REPLACE));
    scene_set_reg(g->regs, REG_DB_STENCILREFMASK, S_DB_STENCILREFMASK__STENCILREF(5) |
                                                      S_DB_STENCILREFMASK__STENCILMASK(0xFF) |
                                                      S_DB_STENCILREFMASK__STENCILWRITEMASK(0xFF));
    const float p1[3][4] = {{-1.0f, -0.9f, -0.6f, 1}, {0.93f, -0.3f, 0.7f, 1}, {-0.2f, 0.95f, 0.1f, 1}};
    memcpy(g->pos, p1, sizeof p1);
    g->nverts = 3;
    draw(g);
    /* then: stencil EQUAL 5 (INCR on depth pass, DECR on depth fail), depth
     * LESS written, a triangle sloped the other way over the first */
    set_depth_control(g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                             S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_LESS) |
                             S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                             S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_EQUAL) |
                             S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_INCR) |
                             S_DB_DEPTH_CONTROL__STENCILZFAIL(V_STENCIL_OP__STENCIL_DECR));
    const float p2[3][4] = {{-0.8f, 0.9f, 0.6f, 1}, {-0.7f, -1.0f, -0.5f, 1}, {1.0f, 0.2f, 0.3f, 1}};
    memcpy(g->pos, p2, sizeof p2);
    draw(g);
}

static void test_db_alone_blocks(void **state)
{
    (void)state;
    static const unsigned fmts[] = {V_DB_Z_FORMAT__Z_16, V_DB_Z_FORMAT__Z_24, V_DB_Z_FORMAT__Z_32_FLOAT};
    for (unsigned k = 0; k < 4; k++) {
        bool msaa = k == 3;
        struct rig a, b;
        if (msaa) {
            msaa4_rig(&a);
            msaa4_rig(&b);
        } else {
            rig_init(&a, fmts[k]);
            rig_init(&b, fmts[k]);
        }
        render_db_alone(&a, true);
        render_db_alone(&b, false);
        struct vc_render_stats sa, sb;
        vc_render_get_stats(a.r, &sa);
        vc_render_get_stats(b.r, &sb);
        if (memcmp(a.mem, b.mem, MEM_SIZE) != 0) {
            size_t i = 0;
            while (a.mem[i] == b.mem[i])
                i++;
            fail_msg("case %u: memory differs first at byte 0x%zx", k, i);
        }
        assert_int_equal(sa.zpass_samples, sb.zpass_samples);
        assert_int_equal(sa.cb_op_pixels, sb.cb_op_pixels);
        /* the draws did something: samples passed, some but not all */
        unsigned ns = msaa ? 4 : 1;
        assert_true(sa.zpass_samples > 500 * ns);
        assert_true(sa.zpass_samples < 2 * W * H * ns);
        printf("case %u: %llu samples passed, %llu CB op pixels, both paths\n", k,
               (unsigned long long)sa.zpass_samples, (unsigned long long)sa.cb_op_pixels);
        rig_free(&a);
        rig_free(&b);
    }
}

/* The tiling library's maps of msaa4_rig's depth and stencil surfaces. */
static void msaa4_maps(struct cedar_tile_map *zm, struct cedar_tile_map *sm)
{
    struct cedar_surface sz = {0};
    sz.mode = CEDAR_MODE_2D_THIN;
    sz.aligned_width = sz.width = W;
    sz.aligned_height = sz.height = H;
    sz.tiling = (struct cedar_tiling){2, 8, 256, 1024};
    sz.bankw = sz.bankh = sz.mtilea = 1;
    sz.samples = 4;
    struct cedar_tile_opts o = {.order = CEDAR_MICRO_NON_DISPLAYABLE, .depth_sample_order = 1};
    struct cedar_layout_err e = {{0}};
    sz.bpe = 4;
    sz.tile_split = 1024;
    if (cedar_tile_map_init(zm, &sz, &o, &e))
        fail_msg("depth map: %s", e.msg);
    sz.bpe = 1;
    sz.tile_split = 256;
    if (cedar_tile_map_init(sm, &sz, &o, &e))
        fail_msg("stencil map: %s", e.msg);
}

/* 4x MSAA depth (the DB's depth sample order, 32-bit float depth, 2D tiled)
 * and 4x stencil under a sloped triangle: each sample stores the window z
 * at its own position (pixel centre + SAMPLE_LOCS offset / 16), the plane
 * z = 0.25 + x / 256 + y / 512 (NDC z -0.5 at (0, 0), 0.5 at window x 128,
 * 0 at window y 128), and the stencil reference where the triangle covers
 * it.  Read back through the tiling library's map of the surfaces; the
 * sample offsets all differ, so a sample stored in another's place shows. */
static void test_depth_msaa_samples(void **state)
{
    (void)state;
    struct rig g;
    msaa4_rig(&g);
    stencil_replace(&g, 0x5A);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                              S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS) |
                              S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_REPLACE));
    /* (0, 0), (128, 0), (0, 128) in the window: corners (-1, -1), (3, -1), (-1, 3) */
    big_triangle(&g, -0.5f, 0.5f, 0.0f, true);
    draw(&g);
    struct cedar_tile_map zm, sm;
    msaa4_maps(&zm, &sm);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            for (unsigned smp = 0; smp < 4; smp++) {
                float z;
                memcpy(&z, g.mem + DEPTH_OFF + cedar_tile_addr(&zm, x, y, smp, 0), sizeof z);
                double px = x + 0.5 + MSAA4_DX[smp] / 16.0, py = y + 0.5 + MSAA4_DY[smp] / 16.0;
                double want = 0.25 + px / 256.0 + py / 512.0;
                if (!(fabs(z - want) < 1e-6))
                    fail_msg("pixel %u,%u sample %u: z %.9g, want %.9g", x, y, smp, z, want);
                assert_int_equal(g.mem[STENCIL_OFF + cedar_tile_addr(&sm, x, y, smp, 0)], 0x5A);
            }
    rig_free(&g);
}

/* The sample mask a pixel shader exports (gl_SampleMask, Z export .z) under
 * DB_SHADER_CONTROL.MASK_EXPORT_ENABLE: GL ANDs the fragment's coverage with
 * it, so with the mask 0b0101 only samples 0 and 2 of each pixel are tested,
 * written and counted; samples 1 and 3 keep what the buffer held (0.0).
 * Without MASK_EXPORT_ENABLE the export changes nothing (Mesa sets the bit
 * only for a multisampled target, evergreen_state.c).  In a CB_NORMAL draw
 * (its pixel stage runs; no colour target enabled) and a CB_DISABLE one. */
static void test_sample_mask_export(void **state)
{
    (void)state;
    struct rig g;
    msaa4_rig(&g);
    struct cedar_tile_map zm, sm;
    msaa4_maps(&zm, &sm);
    set_depth_control(&g, S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                              S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_ALWAYS));
    big_triangle(&g, 0.5f, 0.5f, 0.5f, true);   /* window z 0.75 everywhere */
    g.export_mask = true;
    g.mask = 0x5;
    const uint64_t pixels = (uint64_t)W * H;
    for (unsigned pass = 0; pass < 3; pass++) {
        uint32_t mode = pass == 1 ? V_CB_MODE__CB_NORMAL : V_CB_MODE__CB_DISABLE;
        bool on = pass > 0;
        memset(g.mem + DEPTH_OFF, 0, STENCIL_OFF - DEPTH_OFF);
        scene_set_reg(g.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(mode) | S_CB_COLOR_CONTROL__ROP3(0xCC));
        scene_set_reg(g.regs, REG_CB_TARGET_MASK, 0); /* the rig's colour buffer is single-sample */
        scene_set_reg(g.regs, REG_DB_SHADER_CONTROL, S_DB_SHADER_CONTROL__MASK_EXPORT_ENABLE(on));
        uint64_t before = zpass(&g);
        draw(&g);
        assert_int_equal(zpass(&g) - before, pixels * (on ? 2 : 4));
        for (unsigned y = 0; y < H; y += 7)
            for (unsigned x = 0; x < W; x += 5)
                for (unsigned smp = 0; smp < 4; smp++) {
                    float z;
                    memcpy(&z, g.mem + DEPTH_OFF + cedar_tile_addr(&zm, x, y, smp, 0), sizeof z);
                    float want = !on || (g.mask >> smp & 1u) ? 0.75f : 0.0f;
                    if (z != want)
                        fail_msg("pass %u pixel %u,%u sample %u: z %g, want %g", pass, x, y, smp, z, want);
                }
    }
    rig_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_less),        cmocka_unit_test(test_depth_plane),
        cmocka_unit_test(test_stencil_ops),       cmocka_unit_test(test_stencil_plane_pitch),
        cmocka_unit_test(test_depth_export),
        cmocka_unit_test(test_stencil_export),
        cmocka_unit_test(test_depth_only_draw),   cmocka_unit_test(test_htile),
        cmocka_unit_test(test_depth_sample_order), cmocka_unit_test(test_depth_tables),
        cmocka_unit_test(test_depth_copy),
        cmocka_unit_test(test_depth_msaa_samples), cmocka_unit_test(test_sample_mask_export),
        cmocka_unit_test(test_db_alone_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
