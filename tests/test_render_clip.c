/* The clipper's planes besides the frustum (src/render/draw.c), through
 * vc_render_draw with stand-in shader stages that hand it positions and
 * clip distances and record the pixels the pixel stage runs for, with
 * their weights.  Expectations are the GL rules worked by hand (OpenGL 4.6
 * 13.7): a point of a primitive is kept where every enabled clip distance,
 * interpolated, is >= 0, so a distance equal to the NDC x keeps the right
 * half of the window (pixel centres x + 1/2 > 32); a user clip plane
 * (PA_CL_UCP) is the dot product with the clip-space position; the clip
 * distances sit in the position exports after the misc vector in the order
 * PA_CL_VS_OUT_CNTL enables them (Mesa r600 sfn_shader_vs.cpp); and the
 * weights of a clipped triangle's pixels are those of the original
 * triangle: the noperspective (linear) ones the window-space barycentrics
 * of the pixel centre in the original triangle, the perspective ones those
 * divided by w and normalized (13.6), and the position the pixel stage
 * gets (gl_FragCoord: the centre, the window z linear on the screen, the
 * clip w, whose reciprocal is linear on the screen), all computed here
 * from the window positions (within 5e-4, w relative to its range 1..4: the rasteriser snaps the clipped vertices to
 * 1/256 pixel, which moves a weight by up to about 1e-4 in this triangle).
 * Checked by hand when this was written: taking a clipped vertex's
 * clip-space weights as its window weights (the clipper's old linear
 * weights) fails the second test by 0.1 and more. */
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
#include "tests/common/render_scene.h"

#define W 64
#define H 64

struct rig {
    struct vc_regs *regs;
    struct vc_render *r;
    struct vc_mem vmem;
    float pos[4][4];
    float extra[4][3][4];          /* the vertices' POS exports 1..3 */
    unsigned nverts;
    bool hit[H][W];
    float lin[H][W][2], persp[H][W][2], frag[H][W][4];
};

static void *no_mem(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx, (void)addr, (void)len;
    return NULL;
}

static int stand_in_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                           uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    struct rig *g = ctx;
    (void)regs, (void)mem, (void)instance;
    if (index >= g->nverts) {
        snprintf(err->msg, sizeof err->msg, "no vertex %u", index);
        return -1;
    }
    memcpy(out->pos, g->pos[index], sizeof out->pos);
    memcpy(out->pos_extra, g->extra[index], sizeof out->pos_extra);
    return 0;
}

static int stand_in_pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                          const struct vc_prim_inputs *prim, const struct vc_pixel_in *in, struct vc_pixel_out *out,
                          struct vc_draw_err *err)
{
    struct rig *g = ctx;
    (void)regs, (void)mem, (void)prim, (void)err, (void)out;
    if (in->x < W && in->y < H) {
        g->hit[in->y][in->x] = true;
        memcpy(g->lin[in->y][in->x], in->ij[VC_BARYC_LINEAR_CENTER], sizeof g->lin[0][0]);
        memcpy(g->persp[in->y][in->x], in->ij[VC_BARYC_PERSP_CENTER], sizeof g->persp[0][0]);
        memcpy(g->frag[in->y][in->x], in->pos, sizeof g->frag[0][0]);
    }
    return 0;
}

/* No colour target: the pixel stage runs, nothing is stored.  The viewport
 * maps NDC [-1, 1] to [0, 64) in x and y (y up the rows: window y =
 * 32 y_ndc + 32). */
static void rig_init(struct rig *g)
{
    memset(g, 0, sizeof *g);
    g->regs = calloc(1, sizeof *g->regs);
    g->r = vc_render_new();
    assert_non_null(g->regs);
    assert_non_null(g->r);
    g->vmem = (struct vc_mem){ .ctx = g, .ptr = no_mem };
    struct vc_shader_ops ops = {.ctx = g, .vertex = stand_in_vertex, .pixel = stand_in_pixel};
    vc_render_set_shaders(g->r, &ops);
    vc_render_set_threads(g->r, 1);
    struct vc_regs *r = g->regs;
    scene_set_reg(r, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL) | S_CB_COLOR_CONTROL__ROP3(0xCC));
    scene_set_reg(r, REG_PA_SU_VTX_CNTL, S_PA_SU_VTX_CNTL__PIX_CENTER_HALF(1) |
                                       S_PA_SU_VTX_CNTL__QUANT_MODE(V_PA_SU_QUANT_MODE__X_1_256TH));
    scene_set_reg(r, REG_PA_CL_VTE_CNTL, 0x43F);
    scene_set_float(r, REG_PA_CL_GB_HORZ_CLIP_ADJ, 1.0f);
    scene_set_float(r, REG_PA_CL_GB_VERT_CLIP_ADJ, 1.0f);
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
    scene_set_reg(r, REG_PA_SU_LINE_CNTL, S_PA_SU_LINE_CNTL__WIDTH(8)); /* 1 pixel: half width 8/16 */
}

static void rig_free(struct rig *g)
{
    vc_render_free(g->r);
    free(g->regs);
}

static void draw(struct rig *g, unsigned prim)
{
    memset(g->hit, 0, sizeof g->hit);
    struct vc_draw dr = {0};
    dr.opcode = PKT3_DRAW_INDEX_AUTO;
    dr.num_indices = g->nverts;
    dr.num_instances = 1;
    dr.prim_type = prim;
    struct vc_draw_err err = {{0}};
    if (vc_render_draw(g->r, g->regs, &g->vmem, &dr, &err))
        fail_msg("draw: %s", err.msg);
}

/* The whole window as a strip of two triangles, w = 1; clip distance value
 * of vertex k: NDC x in POS export `slot` (1..3), component `comp`, and
 * `other` in every other exported component. */
static void window_quad(struct rig *g, unsigned slot, unsigned comp, float other)
{
    static const float p[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    for (int k = 0; k < 4; k++) {
        float v[4] = {p[k][0], p[k][1], 0.0f, 1.0f};
        memcpy(g->pos[k], v, sizeof v);
        for (int s = 0; s < 3; s++)
            for (int c = 0; c < 4; c++)
                g->extra[k][s][c] = other;
        if (slot)
            g->extra[k][slot - 1][comp] = p[k][0];
    }
    g->nverts = 4;
}

/* Pixels hit, against "x0 <= x <= x1 and y0 <= y <= y1 only" (empty: none). */
static void expect_rect(const struct rig *g, int x0, int x1, int y0, int y1, const char *what)
{
    unsigned bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (g->hit[y][x] != (x >= x0 && x <= x1 && y >= y0 && y <= y1) && bad++ < 3)
                print_error("%s: pixel (%d, %d) %s\n", what, x, y, g->hit[y][x] ? "drawn" : "missing");
    if (bad)
        fail_msg("%s: %u pixels differ", what, bad);
}

/* Pixels hit, against "x >= x0 and y < y1 only" (the rest: none). */
static void expect_region(const struct rig *g, int x0, int y1, const char *what)
{
    expect_rect(g, x0, W - 1, 0, y1 - 1, what);
}

static void clip_distances_and_user_planes(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g);
    const uint32_t dist0 = S_PA_CL_VS_OUT_CNTL__CLIP_DIST_ENA_0(1) | S_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST0_VEC_ENA(1);
    /* no plane: all 64 x 64 */
    window_quad(&g, 1, 0, -1.0f);
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 0, H, "no plane");
    /* distance 0 = NDC x in POS1.x: x_ndc of centre x + 1/2 is (x + 1/2) / 32 - 1 >= 0 from x = 32 */
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, dist0);
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 32, H, "CLIP_DIST_ENA_0 in POS1.x");
    /* a misc vector first: the distances move to POS2 (POS1 holds -1 everywhere) */
    window_quad(&g, 2, 0, -1.0f);
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, dist0 | S_PA_CL_VS_OUT_CNTL__VS_OUT_MISC_VEC_ENA(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 32, H, "CLIP_DIST_ENA_0 after the misc vector");
    /* distance 5: CCDIST1.y in POS2, after CCDIST0 (POS1.x -1: distance 0, not enabled) */
    window_quad(&g, 2, 1, 1.0f);
    g.extra[0][0][0] = g.extra[1][0][0] = g.extra[2][0][0] = g.extra[3][0][0] = -1.0f;
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, S_PA_CL_VS_OUT_CNTL__CLIP_DIST_ENA_5(1) |
                                                  S_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST0_VEC_ENA(1) |
                                                  S_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST1_VEC_ENA(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 32, H, "CLIP_DIST_ENA_5 in CCDIST1.y");
    /* a distance enabled whose vector is not exported: no plane */
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, S_PA_CL_VS_OUT_CNTL__CLIP_DIST_ENA_0(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 0, H, "CLIP_DIST_ENA_0 without CCDIST0");
    /* user plane 2: (0, -1, 0, 0.5) . pos >= 0 keeps y_ndc <= 1/2, window y <= 48: rows 0..47 */
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, 0);
    scene_set_float(g.regs, REG_PA_CL_UCP_X(2), 0.0f);
    scene_set_float(g.regs, REG_PA_CL_UCP_Y(2), -1.0f);
    scene_set_float(g.regs, REG_PA_CL_UCP_Z(2), 0.0f);
    scene_set_float(g.regs, REG_PA_CL_UCP_W(2), 0.5f);
    scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, S_PA_CL_CLIP_CNTL__UCP_ENA_2(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 0, 48, "UCP_ENA_2");
    /* both a distance and a plane */
    window_quad(&g, 1, 0, -1.0f);
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, dist0);
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 32, 48, "CLIP_DIST_ENA_0 and UCP_ENA_2");
    /* CLIP_DISABLE: no clipping at all */
    scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, S_PA_CL_CLIP_CNTL__UCP_ENA_2(1) | S_PA_CL_CLIP_CNTL__CLIP_DISABLE(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP);
    expect_region(&g, 0, H, "CLIP_DISABLE");
    /* a line along row 10 (y_ndc = (10.5 - 32) / 32) cut at x_ndc = 0 by distance 0 */
    scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, 0);
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL, dist0);
    const float ly = (10.5f - 32.0f) / 32.0f;
    const float line[2][4] = {{-1.0f, ly, 0, 1}, {1.0f, ly, 0, 1}};
    memcpy(g.pos[0], line[0], sizeof line[0]);
    memcpy(g.pos[1], line[1], sizeof line[1]);
    g.extra[0][0][0] = -1.0f, g.extra[1][0][0] = 1.0f;
    g.nverts = 2;
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST);
    for (int x = 0; x < W; x++)
        if (g.hit[10][x] != (x >= 32))
            fail_msg("line: pixel (%d, 10) %s", x, g.hit[10][x] ? "drawn" : "missing");
    /* the whole line outside: nothing */
    g.extra[1][0][0] = -0.5f;
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST);
    expect_region(&g, W, 0, "line outside");
    rig_free(&g);
}

/* Pixels of row 10 hit, against "x0 <= x <= x1 only" (x0 > x1: none). */
static void expect_row(const struct rig *g, int x0, int x1, const char *what)
{
    expect_rect(g, x0, x1, 10, 10, what);
}

/* Lines and points against the near and far planes (OpenGL 4.6 13.7: a
 * line is cut where it leaves -w <= z <= w, a point outside is dropped;
 * GL_DEPTH_CLAMP turns the z planes off, which Mesa r600 does with
 * PA_CL_CLIP_CNTL.ZCLIP_NEAR/FAR_DISABLE; with DX_CLIP_SPACE_DEF the near
 * plane is z >= 0).  A line along row 10 from window x 0 to 64 with
 * w = 1 and z_ndc going from -1.5 to 1.5: z_ndc = -1 at t = 1/6 and
 * z_ndc = 1 at t = 5/6, window x 64/6 = 10.67 and 53.33, so the pixel
 * centres x + 1/2 inside are x = 11..52; with only the near plane, from
 * 11 to 63; z_ndc = 0 at t = 1/2, x = 32. */
static void lines_and_points_near_far(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g);
    const float ly = (10.5f - 32.0f) / 32.0f;
    const float line[2][4] = {{-1.0f, ly, -1.5f, 1}, {1.0f, ly, 1.5f, 1}};
    memcpy(g.pos[0], line[0], sizeof line[0]);
    memcpy(g.pos[1], line[1], sizeof line[1]);
    g.nverts = 2;
    const unsigned lines = V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST, points = V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST;
    const struct {
        uint32_t cntl;
        int x0, x1;
        const char *what;
    } cases[] = {
        {0, 11, 52, "line through near and far"},
        {S_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(1) | S_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(1), 0, 63,
         "line, z planes disabled (depth clamp)"},
        {S_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(1), 0, 52, "line, near plane disabled"},
        {S_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(1), 11, 63, "line, far plane disabled"},
        {S_PA_CL_CLIP_CNTL__DX_CLIP_SPACE_DEF(1), 32, 52, "line, near plane z = 0"},
        {S_PA_CL_CLIP_CNTL__CLIP_DISABLE(1), 0, 63, "line, CLIP_DISABLE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, cases[i].cntl);
        draw(&g, lines);
        expect_row(&g, cases[i].x0, cases[i].x1, cases[i].what);
    }
    /* the same line reversed: the cut does not depend on the direction */
    scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, 0);
    memcpy(g.pos[0], line[1], sizeof line[1]);
    memcpy(g.pos[1], line[0], sizeof line[0]);
    draw(&g, lines);
    expect_row(&g, 11, 52, "reversed line through near and far");
    /* wholly behind the near plane: nothing */
    g.pos[0][2] = g.pos[1][2] = -1.25f;
    draw(&g, lines);
    expect_row(&g, 1, 0, "line behind the near plane");

    /* 2x2-pixel points (half size 16/16 pixel) centred on window (20, 11),
     * pixels 19..20 of rows 10..11, at z_ndc -1.25, 0 and 1.25 */
    scene_set_reg(g.regs, REG_PA_SU_POINT_SIZE, S_PA_SU_POINT_SIZE__WIDTH(16) | S_PA_SU_POINT_SIZE__HEIGHT(16));
    const float zs[3] = {-1.25f, 0.0f, 1.25f};
    const uint32_t cntl[4] = {0, S_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(1), S_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(1),
                              S_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(1) | S_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(1)};
    g.nverts = 1;
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 3; k++) {
            const float p[4] = {20.0f / 32.0f - 1.0f, 11.0f / 32.0f - 1.0f, zs[k], 1.0f};
            memcpy(g.pos[0], p, sizeof p);
            scene_set_reg(g.regs, REG_PA_CL_CLIP_CNTL, cntl[c]);
            draw(&g, points);
            bool kept = k == 1 || (k == 0 && (c & 1)) || (k == 2 && (c & 2));
            unsigned n = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    n += g.hit[y][x] && y >= 10 && y <= 11 && x >= 19 && x <= 20 ? 1u : g.hit[y][x] ? 100u : 0u;
            if (n != (kept ? 4u : 0u))
                fail_msg("point at z_ndc %g, PA_CL_CLIP_CNTL 0x%X: %u (4 if kept, 0 if dropped; 100 a stray pixel)",
                         (double)zs[k], cntl[c], n);
        }
    rig_free(&g);
}

/* Window-space barycentrics of (px, py) in the triangle a, b, c. */
static void bary(const double a[2], const double b[2], const double c[2], double px, double py, double out[3])
{
    double det = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    out[1] = ((px - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (py - a[1])) / det;
    out[2] = ((b[0] - a[0]) * (py - a[1]) - (px - a[0]) * (b[1] - a[1])) / det;
    out[0] = 1.0 - out[1] - out[2];
}

static void clipped_triangle_inputs(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g);
    /* vertices at w 1, 2 and 4 (clip x, y scaled by w), cut by the
     * distance NDC x >= -0.25 */
    const float ndc[3][2] = {{-0.9f, -0.9f}, {0.9f, -0.5f}, {-0.6f, 0.9f}};
    const float w[3] = {1.0f, 2.0f, 4.0f}, zndc[3] = {0.25f, -0.5f, 0.75f};
    double win[3][2];
    for (int k = 0; k < 3; k++) {
        float v[4] = {ndc[k][0] * w[k], ndc[k][1] * w[k], zndc[k] * w[k], w[k]};
        memcpy(g.pos[k], v, sizeof v);
        /* a clip distance linear in clip space: x + 0.25 w (= w (x_ndc + 1/4)) */
        g.extra[k][0][0] = v[0] + 0.25f * v[3];
        win[k][0] = 32.0 * ndc[k][0] + 32.0;
        win[k][1] = 32.0 * ndc[k][1] + 32.0;
    }
    g.nverts = 3;
    scene_set_reg(g.regs, REG_PA_CL_VS_OUT_CNTL,
                  S_PA_CL_VS_OUT_CNTL__CLIP_DIST_ENA_0(1) | S_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST0_VEC_ENA(1));
    draw(&g, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST);
    unsigned pixels = 0, bad = 0;
    double worst = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double b[3];
            bary(win[0], win[1], win[2], x + 0.5, y + 0.5, b);
            bool inside = b[0] > 1e-9 && b[1] > 1e-9 && b[2] > 1e-9;
            /* x_ndc of the centre >= -1/4: window x >= 24 */
            bool kept = x + 0.5 > 24.0;
            if (!g.hit[y][x]) {
                if (inside && kept && bad++ < 3)
                    print_error("pixel (%d, %d) missing\n", x, y);
                continue;
            }
            if (!kept && bad++ < 3)
                print_error("pixel (%d, %d) drawn left of the plane\n", x, y);
            pixels++;
            /* perspective: b_k / w_k normalized */
            double q[3], s = 0;
            for (int k = 0; k < 3; k++)
                s += q[k] = b[k] / w[k];
            double e = fmax(fmax(fabs(g.lin[y][x][0] - b[1]), fabs(g.lin[y][x][1] - b[2])),
                            fmax(fabs(g.persp[y][x][0] - q[1] / s), fabs(g.persp[y][x][1] - q[2] / s)));
            /* the position: window z (0.5 z_ndc + 0.5) linear on the
             * screen, and w = 1 / (the screen-linear 1 / w) */
            double z = 0, inv_w = s;
            for (int k = 0; k < 3; k++)
                z += b[k] * (0.5 * zndc[k] + 0.5);
            e = fmax(e, fmax(fabs(g.frag[y][x][2] - z), fabs(g.frag[y][x][3] - 1.0 / inv_w) / 4.0));
            e = fmax(e, fmax(fabs(g.frag[y][x][0] - (x + 0.5)), fabs(g.frag[y][x][1] - (y + 0.5))));
            worst = fmax(worst, e);
            if (e > 5e-4 && bad++ < 3)
                print_error("pixel (%d, %d): linear (%g, %g) want (%g, %g), perspective (%g, %g) want (%g, %g)\n", x,
                            y, (double)g.lin[y][x][0], (double)g.lin[y][x][1], b[1], b[2],
                            (double)g.persp[y][x][0], (double)g.persp[y][x][1], q[1] / s, q[2] / s);
        }
    printf("  %u pixels of the clipped triangle, weights and position within %.2g of the GL rule\n", pixels, worst);
    assert_int_equal(bad, 0);
    assert_true(pixels > 300);
    rig_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clip_distances_and_user_planes),
        cmocka_unit_test(clipped_triangle_inputs),
        cmocka_unit_test(lines_and_points_near_far),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
