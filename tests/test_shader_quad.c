/* The shader core on a 2x2 quad (eg_run_ps_lanes with four lanes, lane l
 * at pixel (qx + (l & 1), qy + (l >> 1)), y down): the derivatives
 * GET_GRADIENTS_H / _V of hand-differentiated linear and quadratic
 * functions, coarse (INST_MOD 0: the quad's top row / left column, Mesa
 * r600 "per 2x2 quad") and fine (INST_MOD 1: the lane's own row / column);
 * and the mip level the implicit level of detail of SAMPLE (and SAMPLE_LB,
 * SAMPLE_G after SET_GRADIENTS) picks, against OpenGL 4.6 8.14
 * (lambda = log2(rho), rho the larger scaled derivative length; nearest
 * mipmap: level ceil(lambda + 1/2) - 1 past lambda 1/2; linear: floor and
 * the next, blended by the fraction), and what GET_LOD (textureQueryLod)
 * returns for it (lambda', and the level per ARB_texture_query_lod), each
 * expected level worked out by hand in the table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"

#define NL 4
#define QX 6   /* the quad's top-left pixel */
#define QY 10

static const uint8_t xyzw[4] = EG_SWZ_XYZW;

static void export_colors(struct eg_asm *as, unsigned g, unsigned burst)
{
    eg_asm_export(as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = g,
                                           .sel = EG_SWZ_XYZW, .burst_count = burst, .done = true });
}

static void tex(struct eg_asm *as, unsigned inst, unsigned mod, unsigned src, const uint8_t ssel[4], unsigned dst)
{
    struct eg_tex t = { .inst = inst, .inst_mod = mod, .src_gpr = src, .dst_gpr = dst,
                        .coord_normalized = { true, true, true, true } };
    memcpy(t.src_sel, ssel, 4);
    memcpy(t.dst_sel, xyzw, 4);
    eg_asm_tex(as, &t);
}

/* Finish `as` and run it on n lanes, lane l's first nregs GPRs from
 * regs[l * nregs ..]. */
static void run(struct eg_asm *as, const struct eg_shader_env *env, const union eg_vec4 *regs, unsigned nregs,
                unsigned n, struct eg_ps_output out[NL])
{
    uint32_t w[1024];
    size_t ndw;
    if (eg_asm_finish(as, true, w, 1024, &ndw))
        fail_msg("encoder: %s", as->err);
    struct eg_program p = { "PS", w, ndw };
    struct eg_ps_input in[NL];
    for (unsigned l = 0; l < n; l++)
        in[l] = (struct eg_ps_input){ &regs[l * nregs], nregs, NULL, 0 };
    struct eg_shader_err err;
    if (eg_run_ps_lanes(&p, env, in, n, 0, out, &err))
        fail_msg("run: %s", err.msg);
}

/* f(x, y) = 3x - 2y + 1/4 and g(x, y) = x^2 + xy at the lane's pixel. */
static void lanes_xy(union eg_vec4 r0[NL])
{
    for (int l = 0; l < NL; l++) {
        float x = (float)(QX + (l & 1)), y = (float)(QY + (l >> 1));
        r0[l] = (union eg_vec4){ .f = { x, y, 3 * x - 2 * y + 0.25f, x * x + x * y } };
    }
}

static void gradients_of_polynomials(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_H, 0, 0, xyzw, 1);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_V, 0, 0, xyzw, 2);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_H, 1, 0, xyzw, 3);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_V, 1, 0, xyzw, 4);
    /* constant selects differentiate to 0; a swizzle moves the source */
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_H, 1, 0,
        (const uint8_t[4]){ V_SQ_INST_SEL__W, V_SQ_INST_SEL__ONE, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__X }, 5);
    /* in place: every lane reads the quad as it was before the instruction */
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_V, 1, 0, xyzw, 0);
    export_colors(&as, 0, 5);
    union eg_vec4 r0[NL];
    lanes_xy(r0);
    struct eg_shader_env env = { 0 };
    struct eg_ps_output out[NL];
    run(&as, &env, r0, 1, NL, out);
    for (int l = 0; l < NL; l++) {
        float x = (float)(QX + (l & 1)), y = (float)(QY + (l >> 1));
        const union eg_vec4 *h = &out[l].color[1], *v = &out[l].color[2];
        const union eg_vec4 *hf = &out[l].color[3], *vf = &out[l].color[4];
        /* d/dx: x -> 1, y -> 0, f -> 3, g -> 2x + 1 + y (forward difference
         * (x+1)^2 + (x+1)y - x^2 - xy) at the left pixel of the row: the
         * top row's (y = QY) for every lane when coarse */
        assert_true(h->f[0] == 1.0f && h->f[1] == 0.0f && h->f[2] == 3.0f);
        assert_true(h->f[3] == 2.0f * QX + 1.0f + (float)QY);
        assert_true(hf->f[0] == 1.0f && hf->f[1] == 0.0f && hf->f[2] == 3.0f);
        assert_true(hf->f[3] == 2.0f * QX + 1.0f + y);
        /* d/dy: x -> 0, y -> 1, f -> -2, g -> x: the left column's x when coarse */
        assert_true(v->f[0] == 0.0f && v->f[1] == 1.0f && v->f[2] == -2.0f);
        assert_true(v->f[3] == (float)QX);
        assert_true(vf->f[0] == 0.0f && vf->f[1] == 1.0f && vf->f[2] == -2.0f);
        assert_true(vf->f[3] == x);
        /* (w, 1, 0, x) differentiated along x, fine */
        const union eg_vec4 *s = &out[l].color[5];
        assert_true(s->f[0] == 2.0f * QX + 1.0f + y && s->f[1] == 0.0f && s->f[2] == 0.0f && s->f[3] == 1.0f);
        /* R0 replaced by its fine d/dy */
        assert_true(out[l].color[0].f[0] == 0.0f && out[l].color[0].f[1] == 1.0f &&
                    out[l].color[0].f[2] == -2.0f && out[l].color[0].f[3] == x);
    }
    /* a lone lane has no neighbours: every derivative 0 */
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_H, 1, 0, xyzw, 1);
    tex(&as, V_SQ_TEX_INST__GET_GRADIENTS_V, 0, 0, xyzw, 2);
    export_colors(&as, 1, 1);
    run(&as, &env, r0, 1, 1, out);
    for (int c = 0; c < 4; c++)
        assert_true(out[0].color[0].f[c] == 0.0f && out[0].color[1].f[c] == 0.0f);
}

/* ---- the level of detail ------------------------------------------------- */

#define SIZE 64    /* level 0: 64 x 64, levels 0..6 */
#define LEVELS 7

static unsigned mip_filter;
static unsigned base_level;
static unsigned min_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
static unsigned mag_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
static bool one_level;     /* the view exposes BASE_LEVEL only (LAST_LEVEL = BASE_LEVEL) */
static bool cube;          /* a cube map of 64 x 64 faces instead */

static int res(void *c, unsigned r, struct eg_tex_resource *o, char *m, size_t n)
{
    (void)c, (void)r, (void)m, (void)n;
    *o = (struct eg_tex_resource){ .width = SIZE, .height = SIZE, .depth = cube ? 6 : 1, .dst_sel = EG_SWZ_XYZW,
                                   .dim = cube ? V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP : V_SQ_TEX_DIM__SQ_TEX_DIM_2D,
                                   .levels = LEVELS,
                                   .base_level = base_level, .last_level = one_level ? base_level : LEVELS - 1 };
    return 0;
}

static int samp(void *c, unsigned s, unsigned r, struct eg_tex_sampler *o, char *m, size_t n)
{
    (void)c, (void)s, (void)r, (void)m, (void)n;
    *o = (struct eg_tex_sampler){ .clamp_x = V_SQ_TEX_CLAMP__SQ_TEX_WRAP, .clamp_y = V_SQ_TEX_CLAMP__SQ_TEX_WRAP,
                                  .clamp_z = V_SQ_TEX_CLAMP__SQ_TEX_WRAP,
                                  .mag_filter = mag_filter, .min_filter = min_filter,
                                  .mip_filter = mip_filter, .min_lod = 0.0f, .max_lod = 15.0f };
    return 0;
}

/* Every texel of level L holds L in x; texel (i, j) holds i in y, j in z. */
static int texel_level(void *c, unsigned r, unsigned level, int x, int y, int z, union eg_vec4 *o, char *m,
                       size_t n)
{
    (void)c, (void)r, (void)z, (void)m, (void)n;
    *o = (union eg_vec4){ .f = { (float)level, (float)x, (float)y, 1.0f } };
    return 0;
}

static int texel(void *c, unsigned r, int x, int y, int z, unsigned s, union eg_vec4 *o, char *m, size_t n)
{
    (void)s;
    return texel_level(c, r, 0, x, y, z, o, m, n);
}

/* Sample the quad whose coordinates, in texels of level `base_level`, are
 * (a x + b y, c x + d y) at pixel (x, y), with `inst` (w = bias): the x
 * each lane reads (the level, or the blend of two).  With SAMPLE_G the
 * derivatives go through SET_GRADIENTS_H (a, c) and _V (b, d) instead, in
 * each lane. */
static union eg_vec4 last_out[NL];     /* sample_quad's whole results */

/* run() on the quad with the texture above; out[l]: lane l's colour 0. */
static void run_quad(struct eg_asm *as, const union eg_vec4 *regs, unsigned nregs, union eg_vec4 out[NL])
{
    struct eg_shader_env env = { .tex_resource = res, .tex_sampler = samp, .texel = texel,
                                 .texel_level = texel_level };
    struct eg_ps_output po[NL];
    run(as, &env, regs, nregs, NL, po);
    for (int l = 0; l < NL; l++)
        out[l] = po[l].color[0];
}

static void sample_quad(unsigned inst, float a, float b, float c, float d, float bias, float got[NL])
{
    float size = (float)(SIZE >> base_level);
    union eg_vec4 r0[NL], r1[NL];
    for (int l = 0; l < NL; l++) {
        float x = (float)(QX + (l & 1)), y = (float)(QY + (l >> 1));
        r0[l] = (union eg_vec4){ .f = { (a * x + b * y) / size, (c * x + d * y) / size, 0.0f, bias } };
        r1[l] = (union eg_vec4){ .f = { a / size, c / size, 0.0f, 0.0f } };
    }
    struct eg_asm as;
    eg_asm_init(&as);
    if (inst == V_SQ_TEX_INST__SAMPLE_G) {
        /* R1 holds d/dx; d/dy goes to R2 */
        eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 0, .write = true },
                                           .src = { eg_src_lit_f(b / size) } });
        eg_asm_alu(&as, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 1, .write = true },
                                           .src = { eg_src_lit_f(d / size) }, .last = true });
        eg_asm_tex_clause(&as);
        tex(&as, V_SQ_TEX_INST__SET_GRADIENTS_H, 0, 1, xyzw, 0);
        tex(&as, V_SQ_TEX_INST__SET_GRADIENTS_V, 0, 2, xyzw, 0);
    } else {
        eg_asm_tex_clause(&as);
    }
    tex(&as, inst, 0, 0, xyzw, 3);
    export_colors(&as, 3, 0);
    union eg_vec4 regs[NL][2];
    for (int l = 0; l < NL; l++) {
        regs[l][0] = r0[l];
        regs[l][1] = r1[l];
    }
    run_quad(&as, &regs[0][0], 2, last_out);
    for (int l = 0; l < NL; l++)
        got[l] = last_out[l].f[0];
}

static void implicit_lod_levels(void **state)
{
    (void)state;
    /* rho = max(|(a, c)|, |(b, d)|) texels per pixel, lambda = log2(rho),
     * nearest mipmap: 0 up to lambda 1/2, else ceil(lambda + 1/2) - 1 */
    static const struct {
        float a, b, c, d, bias;
        unsigned base;
        float nearest;     /* the level, worked out by hand */
    } cases[] = {
        { 1, 0, 0, 1, 0, 0, 0 },        /* rho 1, lambda 0: magnified, level 0 */
        { 0.25f, 0, 0, 0.25f, 0, 0, 0 },/* lambda -2 */
        { 1.4f, 0, 0, 1, 0, 0, 0 },     /* lambda 0.485 <= 1/2 */
        { 1.5f, 0, 0, 1, 0, 0, 1 },     /* lambda 0.585: ceil(1.085) - 1 = 1 */
        { 2, 0, 0, 2, 0, 0, 1 },        /* lambda 1 */
        { 2.8f, 0, 0, 1, 0, 0, 1 },     /* lambda 1.485: ceil(1.985) - 1 = 1 */
        { 2.9f, 0, 0, 1, 0, 0, 2 },     /* lambda 1.536: ceil(2.036) - 1 = 2 */
        { 4, 0, 0, 4, 0, 0, 2 },        /* lambda 2 */
        { 1, 0, 0, 8, 0, 0, 3 },        /* anisotropic: the larger, |d/dy| = 8 */
        { 3, 0, 4, 1, 0, 0, 2 },        /* |(3, 4)| = 5: lambda 2.32 */
        { 0, 3, 0, 4, 0, 0, 2 },        /* rotated: d/dx 0, |d/dy| = 5 */
        { 1000, 0, 0, 1, 0, 0, 6 },     /* clamped to the last level */
        { 2, 0, 0, 2, 1, 0, 2 },        /* SAMPLE_LB: lambda 1 + bias 1 */
        { 2, 0, 0, 2, -1, 0, 0 },       /* SAMPLE_LB: lambda 0 */
        { 4, 0, 0, 4, 0, 2, 4 },        /* base level 2: rho in its texels, level 2 + 2 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        base_level = cases[k].base;
        mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT;
        unsigned insts[3] = { V_SQ_TEX_INST__SAMPLE, V_SQ_TEX_INST__SAMPLE_G, V_SQ_TEX_INST__SAMPLE_LB };
        for (int i = 0; i < 3; i++) {
            bool lb = insts[i] == V_SQ_TEX_INST__SAMPLE_LB;
            if ((cases[k].bias != 0) != lb)
                continue;
            float got[NL];
            sample_quad(insts[i], cases[k].a, cases[k].b, cases[k].c, cases[k].d, cases[k].bias, got);
            for (int l = 0; l < NL; l++)
                if (got[l] != cases[k].nearest)
                    fail_msg("case %zu inst %u lane %d: level %g, GL 4.6 8.14 gives %g", k, insts[i], l,
                             (double)got[l], (double)cases[k].nearest);
        }
    }
    /* linear mipmap: rho 2^1.25 texels per pixel blends levels 1 and 2 by
     * 0.25; texels hold their level, so the blend reads 1.25 */
    base_level = 0;
    mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR;
    float r = exp2f(1.25f), got[NL];
    sample_quad(V_SQ_TEX_INST__SAMPLE, r, 0, 0, r, 0, got);
    for (int l = 0; l < NL; l++)
        assert_true(fabsf(got[l] - 1.25f) < 1e-5f);
}

/* The filter follows the level of detail when the minification and
 * magnification filters differ, even where one level is all a view has or
 * the mip filter is NONE (the unit then skips the level of detail only when
 * neither the filter nor the level depends on it): minified by 4 (lambda 2)
 * the POINT min filter reads texel floor(u), magnified by 2 (lambda -1) the
 * BILINEAR mag filter blends to u - 1/2 (texel (i, j) holds i, j in y, z;
 * u = a * pixel x in texels of the base level, inside the texture). */
static void filter_follows_lod(void **state)
{
    (void)state;
    static const unsigned mips[3] = { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE, V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT,
                                      V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR };
    min_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
    mag_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR;
    base_level = 0;
    for (int m = 0; m < 3; m++)
        for (int one = 0; one < 2; one++) {
            if (mips[m] != V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE && !one)
                continue;   /* mipmapped: implicit_lod_levels */
            mip_filter = mips[m];
            one_level = one;
            float got[NL];
            sample_quad(V_SQ_TEX_INST__SAMPLE, 4, 0, 0, 4, 0, got);
            for (int l = 0; l < NL; l++) {
                float px = (float)(QX + (l & 1)), py = (float)(QY + (l >> 1));
                if (last_out[l].f[0] != 0.0f || last_out[l].f[1] != 4 * px || last_out[l].f[2] != 4 * py)
                    fail_msg("mip %d one %d lane %d minified: (%g, %g, %g), want level 0 texel (%g, %g)", m, one, l,
                             (double)last_out[l].f[0], (double)last_out[l].f[1], (double)last_out[l].f[2],
                             (double)(4 * px), (double)(4 * py));
            }
            sample_quad(V_SQ_TEX_INST__SAMPLE, 0.5f, 0, 0, 0.5f, 0, got);
            for (int l = 0; l < NL; l++) {
                float px = (float)(QX + (l & 1)), py = (float)(QY + (l >> 1));
                if (last_out[l].f[0] != 0.0f || last_out[l].f[1] != 0.5f * px - 0.5f ||
                    last_out[l].f[2] != 0.5f * py - 0.5f)
                    fail_msg("mip %d one %d lane %d magnified: (%g, %g, %g), want level 0 blend (%g, %g)", m, one, l,
                             (double)last_out[l].f[0], (double)last_out[l].f[1], (double)last_out[l].f[2],
                             (double)(0.5f * px - 0.5f), (double)(0.5f * py - 0.5f));
            }
        }
    /* one filter, mip filter NONE, base level 2 (16 x 16): minified by 4
     * it reads level 2 at floor(u) wrapped (4 * 6 = 24 -> 8, 28 -> 12) */
    min_filter = mag_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
    mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE;
    one_level = false;
    base_level = 2;
    float got[NL];
    sample_quad(V_SQ_TEX_INST__SAMPLE, 4, 0, 0, 4, 0, got);
    static const float want_x[2] = { 8, 12 }, want_y[2] = { 40 % 16, 44 % 16 };
    for (int l = 0; l < NL; l++)
        if (last_out[l].f[0] != 2.0f || last_out[l].f[1] != want_x[l & 1] || last_out[l].f[2] != want_y[l >> 1])
            fail_msg("lane %d: (%g, %g, %g), want level 2 texel (%g, %g)", l, (double)last_out[l].f[0],
                     (double)last_out[l].f[1], (double)last_out[l].f[2], (double)want_x[l & 1],
                     (double)want_y[l >> 1]);
    base_level = 0;
}

/* GET_LOD on the same quads: x = lambda' = log2(rho) relative to the base
 * level, y = the level a sample reads relative to it: 0 without mipmaps,
 * the nearest level (as implicit_lod_levels finds it) with POINT, lambda
 * clamped to the levels with LINEAR. */
static void query_lod(void **state)
{
    (void)state;
    static const struct {
        float a, d;         /* rho = max(a, d): the quad scales x by a, y by d */
        unsigned base;
        float lambda, point, linear;
    } cases[] = {
        { 2, 2, 0, 1.0f, 1, 1.0f },
        { 2.8f, 1, 0, 1.485427f, 1, 1.485427f },    /* log2(2.8) */
        { 2.9f, 1, 0, 1.536053f, 2, 1.536053f },    /* log2(2.9) */
        { 0.25f, 0.25f, 0, -2.0f, 0, 0.0f },        /* magnified: level 0 */
        { 1000, 1, 0, 9.965784f, 6, 6.0f },         /* past the last level (6) */
        { 4, 4, 2, 2.0f, 2, 2.0f },                 /* base level 2: in its texels */
        { 1000, 1, 2, 9.965784f, 4, 4.0f },         /* levels 2..6: 4 above the base */
    };
    static const unsigned filters[3] = { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE,
                                         V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT,
                                         V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int f = 0; f < 3; f++) {
            base_level = cases[k].base;
            mip_filter = filters[f];
            float got[NL];
            sample_quad(V_SQ_TEX_INST__GET_LOD, cases[k].a, 0, 0, cases[k].d, 0, got);
            float level = f == 0 ? 0.0f : f == 1 ? cases[k].point : cases[k].linear;
            for (int l = 0; l < NL; l++)
                if (fabsf(last_out[l].f[0] - cases[k].lambda) > 1e-5f || fabsf(last_out[l].f[1] - level) > 1e-5f)
                    fail_msg("case %zu filter %d lane %d: (%g, %g), want (%g, %g)", k, f, l,
                             (double)last_out[l].f[0], (double)last_out[l].f[1], (double)cases[k].lambda,
                             (double)level);
        }
}

/* Cube maps, coordinates as Mesa's CUBE lowering gives them: (s, t) in
 * [1, 2] across face z.  Run on the quad's four lanes; the level each reads
 * (texels hold their level), nearest mipmap. */
static void run_cube(unsigned inst, const union eg_vec4 r[NL][3], float got[NL])
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    if (inst == V_SQ_TEX_INST__SAMPLE_G) {
        tex(&as, V_SQ_TEX_INST__SET_GRADIENTS_H, 0, 1, xyzw, 0);
        tex(&as, V_SQ_TEX_INST__SET_GRADIENTS_V, 0, 2, xyzw, 0);
    }
    tex(&as, inst, 0, 0, xyzw, 3);
    export_colors(&as, 3, 0);
    union eg_vec4 out[NL];
    run_quad(&as, &r[0][0], 3, out);
    for (int l = 0; l < NL; l++)
        got[l] = out[l].f[0];
}

/* SAMPLE_G on a cube: the gradients are derivatives of the direction,
 * halved as Mesa passes them (g = dP / 2); OpenGL 4.6 8.13 with |ma| = 1:
 * ds = 1/2 (dsc - sc d|ma|) = g_sc - sc g_|ma| (face units), rho = 64 |ds|. */
static void cube_gradients(void **state)
{
    (void)state;
    static const struct {
        unsigned face;
        float s, t, gh[3], gv[3];
        float level;
    } cases[] = {
        /* +z at the centre, dP/dx = (1/8, 0, 0): ds = 1/16, 4 texels, lambda 2 */
        { 4, 1.5f, 1.5f, { 1.0f / 16, 0, 0 }, { 0, 0, 0 }, 2 },
        /* +x (sc = -z) at sc 0.5: g = (0, 0, -1/8): ds = 1/8, 8 texels, lambda 3 */
        { 0, 1.75f, 1.5f, { 0, 0, -1.0f / 8 }, { 0, 0, 0 }, 3 },
        /* +x at sc 0.5, the major axis moving: g = (1/8, 0, 0): ds = -0.5 / 8, 4 texels */
        { 0, 1.75f, 1.5f, { 1.0f / 8, 0, 0 }, { 0, 0, 0 }, 2 },
        /* -y (tc = -z), vertical: g = (0, 0, 1/4): dt = -1/4, 16 texels, lambda 4 */
        { 3, 1.5f, 1.5f, { 0, 0, 0 }, { 0, 0, 1.0f / 4 }, 4 },
        /* -x (|ma| = -x) at sc -0.5: g = (-1/4, 0, 0): d|ma| = 1/4, ds = 0.5 / 4, 8 texels */
        { 1, 1.25f, 1.5f, { -1.0f / 4, 0, 0 }, { 0, 0, 0 }, 3 },
    };
    cube = true;
    base_level = 0;
    mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        union eg_vec4 r[NL][3];
        for (int l = 0; l < NL; l++) {
            r[l][0] = (union eg_vec4){ .f = { cases[k].s, cases[k].t, (float)cases[k].face, 0 } };
            r[l][1] = (union eg_vec4){ .f = { cases[k].gh[0], cases[k].gh[1], cases[k].gh[2], 0 } };
            r[l][2] = (union eg_vec4){ .f = { cases[k].gv[0], cases[k].gv[1], cases[k].gv[2], 0 } };
        }
        float got[NL];
        run_cube(V_SQ_TEX_INST__SAMPLE_G, r, got);
        for (int l = 0; l < NL; l++)
            if (got[l] != cases[k].level)
                fail_msg("case %zu lane %d: level %g, want %g", k, l, (double)got[l], (double)cases[k].level);
    }
    cube = false;
}

/* SAMPLE on a quad that spans two faces: the left pixels see +z at x/z =
 * 0.9 (P = (0.9, 0, 1): s = 1.95), the right ones P = (1.1, 0, 1), i.e.
 * +x at sc = -z/x = -1/1.1 (s = 1.5 - 0.5/1.1).  Their directions at |ma| =
 * 1 are (0.9, 0, 1) and (1, 0, 1/1.1): half their difference g = (0.05,
 * 0, -0.04545), on +z (sc = x, ma = z) at sc 0.9: ds = 0.05 + 0.9 * 0.04545
 * = 0.0909, 5.8 texels, lambda 2.54: level 3 (OpenGL's own, from dP/dx =
 * (0.2, 0, 0): ds = 0.1, 6.4 texels, lambda 2.68, also level 3).  The
 * difference of the face coordinates would be 0.9045: 58 texels, level 6. */
static void cube_quad_across_faces(void **state)
{
    (void)state;
    cube = true;
    base_level = 0;
    mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT;
    union eg_vec4 r[NL][3];
    memset(r, 0, sizeof r);
    for (int l = 0; l < NL; l++)
        r[l][0] = (l & 1) ? (union eg_vec4){ .f = { 1.5f - 0.5f / 1.1f, 1.5f, 0.0f, 0 } }
                          : (union eg_vec4){ .f = { 1.95f, 1.5f, 4.0f, 0 } };
    float got[NL];
    run_cube(V_SQ_TEX_INST__SAMPLE, r, got);
    for (int l = 0; l < NL; l++)
        assert_true(got[l] == 3.0f);
    /* the same quad inside +z (both at the same face): the face
     * coordinates' difference as before, 0.05 -> 3.2 texels, level 2 */
    for (int l = 0; l < NL; l++)
        r[l][0] = (union eg_vec4){ .f = { (l & 1) ? 1.95f : 1.90f, 1.5f, 4.0f, 0 } };
    run_cube(V_SQ_TEX_INST__SAMPLE, r, got);
    for (int l = 0; l < NL; l++)
        assert_true(got[l] == 2.0f);
    cube = false;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gradients_of_polynomials),
        cmocka_unit_test(implicit_lod_levels),
        cmocka_unit_test(query_lod),
        cmocka_unit_test(filter_follows_lod),
        cmocka_unit_test(cube_gradients),
        cmocka_unit_test(cube_quad_across_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
