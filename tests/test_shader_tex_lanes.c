/* Texture instructions over many lanes (src/shader/fetch.c eg_tex_prepare /
 * eg_tex_lane, as the wave (eg_wave_run) and the interpreter
 * (eg_run_ps_lanes) run them: each instruction decoded once for all its
 * lanes, point samples of 2D textures and arrays through their own short
 * path, the resource's and the instruction's swizzles as one table).  One
 * TEX clause of four instructions reading two resources through three
 * samplers (SAMPLE, SAMPLE_LZ with offsets and swapped coordinates, LD) runs
 * on 64 lanes of coordinates inside, on and past the edges; every lane's
 * four results must be what OpenGL 4.6 gives for nearest filtering (8.14.2:
 * i = floor(u), u = s * size for normalized coordinates; the address modes
 * of 8.14.2 / table 8.20: repeat, mirrored repeat, clamp to edge, clamp to
 * border; GL_CLAMP (OpenGL 2.1 3.8.7: s clamped to [0, 1] first) for the
 * half-border mode; an array's layer clamp(floor(r + 1/2), 0, d - 1);
 * texelFetch: zeros outside), each texel a known function of its
 * coordinates, then the resource swizzle and the instruction's DST_SEL
 * (0, 1, masked components keeping the register's value), worked out here
 * from those rules alone.  The same lanes again with the texels read
 * through a texel reader (env->texel_reader, found once per instruction):
 * the same results, no texel through the per-texel callback; and with the
 * reader's read_many, the point samples of a wave whose texels are all
 * inside read together (eg_tex_point_lanes), the same results. */
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
#include "src/shader/interp.h"

#define NL 64
#define NGPR 7
#define SENTINEL 12345.0f

/* resource 0: 2D 8x4; resource 1: 2D array 4x8, 3 layers, swizzle W, Z, 1, X */
static const unsigned res_w[2] = { 8, 4 }, res_h[2] = { 4, 8 }, res_d[2] = { 1, 3 };
static const uint8_t res1_swz[4] = { V_SQ_INST_SEL__W, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__ONE, V_SQ_INST_SEL__X };
/* samplers 0..2: address modes x, y */
static const unsigned samp_mode[3][2] = {
    { V_SQ_TEX_CLAMP__SQ_TEX_WRAP, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL },
    { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER },
    { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER },
};
static const float border[4] = { 0.25f, 0.5f, 0.75f, 1.0f };

static unsigned resource_calls;

static int res(void *c, unsigned r, struct eg_tex_resource *o, char *m, size_t n)
{
    (void)c;
    if (r > 1) {
        snprintf(m, n, "no resource %u", r);
        return -1;
    }
    resource_calls++;
    *o = (struct eg_tex_resource){ .width = res_w[r], .height = res_h[r], .depth = res_d[r],
                                   .dst_sel = EG_SWZ_XYZW, .dim = r ? V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY
                                                                    : V_SQ_TEX_DIM__SQ_TEX_DIM_2D,
                                   .levels = 1, .samples = 1 };
    if (r == 1)
        memcpy(o->dst_sel, res1_swz, 4);
    return 0;
}

static int samp(void *c, unsigned s, unsigned r, struct eg_tex_sampler *o, char *m, size_t n)
{
    (void)c, (void)r;
    if (s > 2) {
        snprintf(m, n, "no sampler %u", s);
        return -1;
    }
    *o = (struct eg_tex_sampler){ .clamp_x = samp_mode[s][0], .clamp_y = samp_mode[s][1],
                                  .clamp_z = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL,
                                  .mag_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT,
                                  .min_filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT,
                                  .mip_filter = V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE };
    memcpy(o->border.f, border, sizeof border);
    return 0;
}

/* texel (x, y, z) of resource r */
static union eg_vec4 texel_value(unsigned r, int x, int y, int z)
{
    return (union eg_vec4){ .f = { (float)x, (float)y, (float)z, (float)(1000 * (int)r + x + 16 * y + 256 * z) } };
}

static unsigned texel_calls, reader_calls, reader_reads;

static int texel_of(unsigned r, int x, int y, int z, union eg_vec4 *o, char *m, size_t n)
{
    if (r > 1 || x < 0 || y < 0 || z < 0 || (unsigned)x >= res_w[r] || (unsigned)y >= res_h[r] ||
        (unsigned)z >= res_d[r]) {
        snprintf(m, n, "texel (%d, %d, %d) of resource %u outside it", x, y, z, r);
        return -1;
    }
    *o = texel_value(r, x, y, z);
    return 0;
}

static int texel(void *c, unsigned r, int x, int y, int z, unsigned s, union eg_vec4 *o, char *m, size_t n)
{
    (void)c, (void)s;
    texel_calls++;
    return texel_of(r, x, y, z, o, m, n);
}

static const struct eg_shader_env env = { .tex_resource = res, .tex_sampler = samp, .texel = texel };

/* The same textures through a texel reader per instruction (ctx: the
 * resource's number): the lanes' texels must come through it, none
 * through the texel callback. */
static const unsigned res_id[2] = { 0, 1 };

static int reader_read(const void *c, unsigned level, int x, int y, int z, unsigned s, union eg_vec4 *o, char *m,
                       size_t n)
{
    (void)s;
    reader_reads++;
    if (level) {
        snprintf(m, n, "level %u of a texture without levels", level);
        return -1;
    }
    return texel_of(*(const unsigned *)c, x, y, z, o, m, n);
}

static int reader(void *c, unsigned r, struct eg_texel_reader *o, char *m, size_t n)
{
    (void)c;
    if (r > 1) {
        snprintf(m, n, "no resource %u", r);
        return -1;
    }
    reader_calls++;
    *o = (struct eg_texel_reader){ .ctx = &res_id[r], .read = reader_read };
    return 0;
}

static const struct eg_shader_env env_reader = { .tex_resource = res, .tex_sampler = samp, .texel = texel,
                                                 .texel_reader = reader };

/* The reader again, with read_many (level 0's texels of many lanes at
 * once): the point samples whose lanes all read inside must come through
 * it, one call per instruction and wave. */
static unsigned many_calls, many_reads;

static int reader_read_many(const void *c, unsigned n, const int32_t *x, const int32_t *y, const int32_t *z,
                            union eg_vec4 *o)
{
    char m[120];
    many_calls++;
    for (unsigned i = 0; i < n; i++) {
        many_reads++;
        if (texel_of(*(const unsigned *)c, x[i], y[i], z[i], &o[i], m, sizeof m))
            fail_msg("read_many: %s", m);
    }
    return 0;
}

static int reader_many(void *c, unsigned r, struct eg_texel_reader *o, char *m, size_t n)
{
    if (reader(c, r, o, m, n))
        return -1;
    o->read_many = reader_read_many;
    return 0;
}

static const struct eg_shader_env env_many = { .tex_resource = res, .tex_sampler = samp, .texel = texel,
                                               .texel_reader = reader_many };

/* ---- OpenGL's nearest filtering */

/* Texel index of i (floor(u)) along a dimension of `size` texels, or -1:
 * the border. */
static int gl_index(int64_t i, int64_t size, unsigned mode)
{
    switch (mode) {
    case V_SQ_TEX_CLAMP__SQ_TEX_WRAP:
        return (int)(((i % size) + size) % size);
    case V_SQ_TEX_CLAMP__SQ_TEX_MIRROR: {   /* mirror(a) = a >= 0 ? a : -(1 + a), period 2 size */
        int64_t m = ((i % (2 * size)) + 2 * size) % (2 * size);
        return (int)(m < size ? m : 2 * size - 1 - m);
    }
    case V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER:
        return i < 0 || i >= size ? -1 : (int)i;
    default:    /* clamp to edge */
        return (int)(i < 0 ? 0 : i >= size ? size - 1 : i);
    }
}

/* The nearest texel of resource r at texel-space (u, v), layer coordinate
 * layer, through sampler s's modes. */
static union eg_vec4 gl_nearest(unsigned r, unsigned s, float u, float v, float layer)
{
    float uv[2] = { u, v };
    int idx[2];
    const int64_t size[2] = { res_w[r], res_h[r] };
    for (int k = 0; k < 2; k++) {
        unsigned mode = samp_mode[s][k];
        if (mode == V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER) {     /* GL_CLAMP: s in [0, 1] */
            float t = uv[k] < 0.0f ? 0.0f : uv[k] > (float)size[k] ? (float)size[k] : uv[k];
            idx[k] = gl_index((int64_t)floorf(t), size[k], V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL);
        } else {
            idx[k] = gl_index((int64_t)floorf(uv[k]), size[k], mode);
        }
    }
    if (idx[0] < 0 || idx[1] < 0)
        return (union eg_vec4){ .f = { border[0], border[1], border[2], border[3] } };
    int64_t l = (int64_t)floorf(layer + 0.5f);
    int z = (int)(l < 0 ? 0 : l >= (int64_t)res_d[r] ? (int64_t)res_d[r] - 1 : l);
    return texel_value(r, idx[0], idx[1], z);
}

/* v through the swizzle sel (X..W, 0, 1, MASK: keep old). */
static union eg_vec4 swizzle(union eg_vec4 v, const uint8_t sel[4], union eg_vec4 old)
{
    union eg_vec4 o = old;
    for (int c = 0; c < 4; c++) {
        if (sel[c] <= V_SQ_INST_SEL__W)
            o.u[c] = v.u[sel[c]];
        else if (sel[c] == V_SQ_INST_SEL__ZERO)
            o.f[c] = 0.0f;
        else if (sel[c] == V_SQ_INST_SEL__ONE)
            o.f[c] = 1.0f;
    }
    return o;
}

/* ---- the program */

static const uint8_t xyzw[4] = EG_SWZ_XYZW;
static const uint8_t i2_dst[4] = { V_SQ_INST_SEL__Z, V_SQ_INST_SEL__X, V_SQ_INST_SEL__MASK, V_SQ_INST_SEL__W };
static const uint8_t i3_src[4] = { V_SQ_INST_SEL__Y, V_SQ_INST_SEL__X, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ONE };
static const uint8_t i3_dst[4] = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__W, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ONE };
static const int i3_offset[2] = { 3, -5 };  /* half texels */

static void tex(struct eg_asm *as, unsigned inst, unsigned resource, unsigned sampler, unsigned src,
                const uint8_t ssel[4], bool norm, unsigned dst, const uint8_t dsel[4], const int offs[2])
{
    struct eg_tex t = { .inst = inst, .resource_id = resource, .sampler_id = sampler, .src_gpr = src,
                        .dst_gpr = dst, .coord_normalized = { norm, norm, false, false } };
    memcpy(t.src_sel, ssel, 4);
    memcpy(t.dst_sel, dsel, 4);
    if (offs) {
        t.offset[0] = offs[0];
        t.offset[1] = offs[1];
    }
    eg_asm_tex(as, &t);
}

/* R0 (s, t) normalized; R5 (u, v, layer) in texels; R6 integer (x, y, 0,
 * 0); R2 the sentinel the masked component keeps.  I1: SAMPLE resource 0,
 * sampler 0 -> R1; I2: SAMPLE resource 1, sampler 1, R5 unnormalized -> R2
 * through (Z, X, mask, W); I3: SAMPLE_LZ resource 0, sampler 2, R0 as
 * (t, s, 0, 1) with offsets -> R3 through (X, W, 0, 1); I4: LD resource 0
 * at R6 -> R4.  R1..R4 exported to targets 0..3. */
static void program(uint32_t *w, size_t cap, size_t *ndw)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    tex(&as, V_SQ_TEX_INST__SAMPLE, 0, 0, 0, xyzw, true, 1, xyzw, NULL);
    tex(&as, V_SQ_TEX_INST__SAMPLE, 1, 1, 5, xyzw, false, 2, i2_dst, NULL);
    tex(&as, V_SQ_TEX_INST__SAMPLE_LZ, 0, 2, 0, i3_src, true, 3, i3_dst, i3_offset);
    tex(&as, V_SQ_TEX_INST__LD, 0, 0, 6, xyzw, false, 4, xyzw, NULL);
    eg_asm_export(&as, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = 1,
                                           .sel = EG_SWZ_XYZW, .burst_count = 3, .done = true });
    if (eg_asm_finish(&as, true, w, cap, ndw))
        fail_msg("encoder: %s", as.err);
}

static uint32_t rng = 0x9E3779B9u;
static unsigned pick(unsigned n)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng % n;
}

/* Coordinates every point sample of the program reads inside its
 * texture (I3 reads (t, s) with its offsets: t * 8 + 1.5 and s * 4 - 2.5
 * inside resource 0's 8x4 texels). */
static void lane_inputs_inside(union eg_vec4 gpr[NL][NGPR])
{
    for (unsigned l = 0; l < NL; l++) {
        gpr[l][0].f[0] = (float)(40 + (int)pick(24)) / 64.0f;  /* s in [0.625, 1) */
        gpr[l][0].f[1] = (float)pick(51) / 64.0f;               /* t in [0, 0.8) */
        gpr[l][5].f[0] = (float)pick(32) / 8.0f;                /* u in [0, 4) */
        gpr[l][5].f[1] = (float)pick(64) / 8.0f;                /* v in [0, 8) */
        gpr[l][5].f[2] = (float)((int)pick(12) - 2) / 4.0f;     /* any layer: clamped */
    }
}

static void lane_inputs(union eg_vec4 gpr[NL][NGPR])
{
    memset(gpr, 0, sizeof(union eg_vec4) * NL * NGPR);
    for (unsigned l = 0; l < NL; l++) {
        /* s, t in [-1.5, 2.5) in 64ths (texel edges at multiples of 1/8 and 1/4) */
        gpr[l][0].f[0] = (float)((int)pick(256) - 96) / 64.0f;
        gpr[l][0].f[1] = (float)((int)pick(256) - 96) / 64.0f;
        gpr[l][2] = (union eg_vec4){ .f = { SENTINEL, SENTINEL, SENTINEL, SENTINEL } };
        /* u, v in [-10, 22) texels in eighths; the layer in [-1.5, 4.5) in quarters */
        gpr[l][5].f[0] = (float)((int)pick(256) - 80) / 8.0f;
        gpr[l][5].f[1] = (float)((int)pick(256) - 80) / 8.0f;
        gpr[l][5].f[2] = (float)((int)pick(24) - 6) / 4.0f;
        gpr[l][6].u[0] = (uint32_t)((int)pick(12) - 2);
        gpr[l][6].u[1] = (uint32_t)((int)pick(8) - 2);
    }
    /* exact edges: s = 0, 1, t = 1 - 1/64; u = 4 (resource 1's width: mirrored back) */
    gpr[0][0].f[0] = 0.0f, gpr[1][0].f[0] = 1.0f, gpr[2][0].f[1] = 1.0f - 1.0f / 64.0f;
    gpr[3][5].f[0] = 4.0f, gpr[4][5].f[1] = 8.0f, gpr[5][5].f[1] = -0.125f;
}

static void expected(const union eg_vec4 g[NGPR], union eg_vec4 out[4])
{
    float s = g[0].f[0], t = g[0].f[1];
    out[0] = gl_nearest(0, 0, s * (float)res_w[0], t * (float)res_h[0], 0.0f);
    union eg_vec4 v = gl_nearest(1, 1, g[5].f[0], g[5].f[1], g[5].f[2]);
    v = swizzle(v, res1_swz, v);
    out[1] = swizzle(v, i2_dst, g[2]);
    /* I3 reads (t, s) as its coordinates, offsets in half texels */
    v = gl_nearest(0, 2, t * (float)res_w[0] + (float)i3_offset[0] * 0.5f,
                   s * (float)res_h[0] + (float)i3_offset[1] * 0.5f, 0.0f);
    out[2] = swizzle(v, i3_dst, g[3]);
    int x = (int)g[6].u[0], y = (int)g[6].u[1];
    out[3] = x < 0 || y < 0 || x >= (int)res_w[0] || y >= (int)res_h[0] ? (union eg_vec4){ .u = { 0, 0, 0, 0 } }
                                                                       : texel_value(0, x, y, 0);
}

static void check_lanes(const char *how, const union eg_vec4 gpr[NL][NGPR], const struct eg_ps_output *out,
                        unsigned first, unsigned n)
{
    for (unsigned l = first; l < first + n; l++) {
        union eg_vec4 want[4];
        expected(gpr[l], want);
        for (unsigned k = 0; k < 4; k++)
            if (memcmp(&want[k], &out[l - first].color[k], sizeof want[k]))
                fail_msg("%s lane %u target %u: (%g %g %g %g), expected (%g %g %g %g); s,t %g %g u,v,layer %g %g %g",
                         how, l, k, out[l - first].color[k].f[0], out[l - first].color[k].f[1],
                         out[l - first].color[k].f[2], out[l - first].color[k].f[3], want[k].f[0], want[k].f[1],
                         want[k].f[2], want[k].f[3], gpr[l][0].f[0], gpr[l][0].f[1], gpr[l][5].f[0],
                         gpr[l][5].f[1], gpr[l][5].f[2]);
    }
}

/* The lanes with the texel callback (env) or a texel reader (env_reader,
 * env_many); inside: every point sample's texel inside its texture. */
static void lanes_through(const struct eg_shader_env *e, bool inside)
{
    uint32_t w[512];
    size_t ndw;
    program(w, 512, &ndw);
    struct eg_program p = { "PS", w, ndw };
    struct eg_wave *wv = eg_wave_new(&p, e);
    assert_non_null(wv);
    bool rd = e->texel_reader != NULL;
    for (int round = 0; round < 8; round++) {
        union eg_vec4 gpr[NL][NGPR];
        lane_inputs(gpr);
        if (inside)
            lane_inputs_inside(gpr);
        struct eg_ps_input in[NL];
        for (unsigned l = 0; l < NL; l++)
            in[l] = (struct eg_ps_input){ gpr[l], NGPR, NULL, 0 };
        struct eg_ps_output out[NL];
        for (unsigned group = 1; group <= 4; group += 3) {
            memset(out, 0, sizeof out);
            resource_calls = texel_calls = reader_calls = reader_reads = many_calls = many_reads = 0;
            assert_int_equal(eg_wave_run(wv, in, NL, group, 0, out), 0);
            check_lanes(group == 1 ? "wave of lone pixels" : "wave of quads", gpr, out, 0, NL);
            /* read together: I1..I3 (point samples) when all their texels
             * are inside, each lane's texel once; I4 (LD) lane by lane */
            if (e == &env_many && inside) {
                unsigned ld_inside = 0;
                for (unsigned l = 0; l < NL; l++)
                    ld_inside += (int)gpr[l][6].u[0] >= 0 && (int)gpr[l][6].u[1] >= 0 &&
                                 gpr[l][6].u[0] < res_w[0] && gpr[l][6].u[1] < res_h[0];
                assert_int_equal(many_calls, 3);
                assert_int_equal(many_reads, 3 * NL);
                assert_int_equal(reader_reads, ld_inside);
            }
            if (e != &env_many)
                assert_int_equal(many_calls, 0);
            /* each instruction's resource read once for the wave, not per lane */
            assert_int_equal(resource_calls, 4);
            /* with a reader: found once per instruction, every texel through it */
            assert_int_equal(reader_calls, rd ? 4 : 0);
            if (rd)
                assert_int_equal(texel_calls, 0);
            /* I1 and I3 never read the border */
            assert_true((rd ? reader_reads + many_reads : texel_calls) >= 2 * NL);
        }
        /* the interpreter, quad by quad */
        for (unsigned q = 0; q < NL; q += 4) {
            struct eg_shader_err err;
            memset(out, 0, sizeof out);
            texel_calls = 0;
            if (eg_run_ps_lanes(&p, e, &in[q], 4, 0, out, &err))
                fail_msg("interpreter: %s", err.msg);
            check_lanes("interpreter", gpr, out, q, 4);
            if (rd)
                assert_int_equal(texel_calls, 0);
        }
    }
    eg_wave_free(wv);
}

static void point_samples_over_lanes(void **state)
{
    (void)state;
    lanes_through(&env, false);
    lanes_through(&env, true);
}

static void point_samples_through_a_texel_reader(void **state)
{
    (void)state;
    lanes_through(&env_reader, false);
    lanes_through(&env_reader, true);
}

/* With read_many: lanes reading past an edge (the batch declines, each
 * lane on its own) and lanes all inside (read together). */
static void point_samples_read_together(void **state)
{
    (void)state;
    lanes_through(&env_many, false);
    lanes_through(&env_many, true);
}

/* eg_tex_point_lanes itself, on registers kept by component: I2 (resource
 * 1, sampler 1, DST_SEL Z, X, mask, W) for a scattered set of lanes, its
 * source and destination one register or two; the other lanes untouched;
 * a lane past the texture's edge: declined, nothing written. */
static void point_lanes_scattered(void **state)
{
    (void)state;
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_tex_clause(&as);
    tex(&as, V_SQ_TEX_INST__SAMPLE, 1, 1, 5, xyzw, false, 2, i2_dst, NULL);
    uint32_t w[64];
    size_t ndw;
    if (eg_asm_finish(&as, true, w, 64, &ndw))
        fail_msg("encoder: %s", as.err);
    size_t at = 2 * (size_t)G_SQ_CF_WORD0__ADDR(w[0]);
    assert_true(at + 4 <= ndw);
    struct eg_tex_prep p;
    char msg[160];
    if (eg_tex_prepare(&env_many, 0, 0, w + at, &p, msg, sizeof msg))
        fail_msg("prepare: %s", msg);
    assert_true(p.point);
    static const uint8_t lane[] = { 1, 6, 7, 22, 40, 63 };
    const unsigned n = sizeof lane;
    for (int same = 0; same < 2; same++) {
        static uint32_t reg[2][4][NL];  /* [0] the source, [1] the destination (same: [0] both) */
        for (unsigned l = 0; l < NL; l++) {
            float uvl[4] = { (float)pick(32) / 8.0f, (float)pick(64) / 8.0f, (float)pick(12) / 4.0f - 0.5f, 7.0f };
            for (unsigned c = 0; c < 4; c++) {
                memcpy(&reg[0][c][l], &uvl[c], sizeof uvl[c]);
                reg[1][c][l] = 0xA5A50000u + 16 * l + c;
            }
        }
        uint32_t before[2][4][NL];
        memcpy(before, reg, sizeof before);
        const uint32_t *const src[4] = { reg[0][0], reg[0][1], reg[0][2], reg[0][3] };
        uint32_t *const dst[4] = { reg[same ? 0 : 1][0], reg[same ? 0 : 1][1], reg[same ? 0 : 1][2],
                                   reg[same ? 0 : 1][3] };
        many_calls = 0;
        assert_int_equal(eg_tex_point_lanes(&p, n, lane, src, dst), 0);
        assert_int_equal(many_calls, 1);
        unsigned k = 0;
        for (unsigned l = 0; l < NL; l++) {
            union eg_vec4 old, got, want;
            for (unsigned c = 0; c < 4; c++) {
                old.u[c] = before[same ? 0 : 1][c][l];
                got.u[c] = dst[c][l];
            }
            if (k < n && lane[k] == l) {
                union eg_vec4 uvl;
                for (unsigned c = 0; c < 4; c++)
                    uvl.u[c] = before[0][c][l];
                union eg_vec4 v = gl_nearest(1, 1, uvl.f[0], uvl.f[1], uvl.f[2]);
                want = swizzle(swizzle(v, res1_swz, v), i2_dst, old);
                k++;
            } else {
                want = old;
            }
            if (memcmp(&got, &want, sizeof got))
                fail_msg("%s register, lane %u: %08x %08x %08x %08x, expected %08x %08x %08x %08x",
                         same ? "one" : "two", l, got.u[0], got.u[1], got.u[2], got.u[3], want.u[0], want.u[1],
                         want.u[2], want.u[3]);
        }
        if (!same)
            assert_memory_equal(reg[0], before[0], sizeof reg[0]);
    }
    /* lane 40 reads past resource 1's 4 texels: declined, nothing written */
    static uint32_t src1[4][NL], dst1[4][NL];
    for (unsigned l = 0; l < NL; l++) {
        float uvl[4] = { 1.5f, 2.5f, 0.0f, 0.0f };
        if (l == 40)
            uvl[0] = 4.0f;
        for (unsigned c = 0; c < 4; c++) {
            memcpy(&src1[c][l], &uvl[c], sizeof uvl[c]);
            dst1[c][l] = 0x5A5A0000u + l;
        }
    }
    const uint32_t *const s1[4] = { src1[0], src1[1], src1[2], src1[3] };
    uint32_t *const d1[4] = { dst1[0], dst1[1], dst1[2], dst1[3] };
    many_calls = 0;
    assert_int_equal(eg_tex_point_lanes(&p, n, lane, s1, d1), 1);
    assert_int_equal(many_calls, 0);
    for (unsigned l = 0; l < NL; l++)
        for (unsigned c = 0; c < 4; c++)
            assert_int_equal(dst1[c][l], 0x5A5A0000u + l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_samples_over_lanes),
        cmocka_unit_test(point_samples_through_a_texel_reader),
        cmocka_unit_test(point_samples_read_together),
        cmocka_unit_test(point_lanes_scattered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
