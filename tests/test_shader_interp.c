/* Shader interpreter: the demo's, the seed author's and Mesa-style shaders on
 * the fixture triangle (tests/data/cedar/README.md: vertices and colours),
 * the blit pixel shader's texture sample on linear and micro-tiled 8_8_8_8
 * textures (the seed write-up's 8x8 micro-tile pixel order), kcache
 * constants, control flow, KILL, and the error for an unsupported opcode. */
#include <math.h>
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
#include "tests/common/shader_exports.h"

/* The fixture triangle: x, y, z, r, g, b per vertex. */
static const float tri[3][6] = {
    { 0.5846f, -0.9f, 0.0f, 1, 0, 0 },
    { -0.5846f, -0.9f, 0.0f, 0, 0, 1 },
    { 0.0f, 0.9f, 0.0f, 0, 1, 0 },
};

/* ---- a tiny GPU memory and resource table -------------------------------- */

#define VB_ADDR 0x100000u
static uint8_t vram[4096];

static void *mem_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (addr < VB_ADDR || addr + len > VB_ADDR + sizeof vram)
        return NULL;
    return vram + (addr - VB_ADDR);
}

static const struct vc_mem mem = { .ctx = NULL, .ptr = mem_ptr };

struct env_ctx {
    unsigned vb_resource;
    uint32_t stride, size;
    uint32_t consts[64][4];
    /* texture: 8x8, 4 bytes per texel, linear or micro-tiled */
    bool tiled;
    uint8_t tex[8 * 8 * 4];
    unsigned filter, clamp;
};

static int vtx_res(void *c, unsigned res, struct eg_vtx_resource *out, char *msg, size_t len)
{
    struct env_ctx *e = c;
    if (res != e->vb_resource) {
        snprintf(msg, len, "no resource %u", res);
        return -1;
    }
    *out = (struct eg_vtx_resource){ .base = VB_ADDR, .size = e->size, .stride = e->stride };
    return 0;
}

static int constant(void *c, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t len)
{
    struct env_ctx *e = c;
    if (bank != 1 || index >= 64) {
        snprintf(msg, len, "no constant");
        return -1;
    }
    memcpy(out, e->consts[index], 16);
    return 0;
}

static int tex_res(void *c, unsigned res, struct eg_tex_resource *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len;
    assert_int_equal(res, 0);
    *out = (struct eg_tex_resource){ .width = 8, .height = 8, .depth = 1, .dst_sel = EG_SWZ_XYZW,
                                     .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .levels = 1, .samples = 1 };
    return 0;
}

static int tex_samp(void *c, unsigned s, unsigned res, struct eg_tex_sampler *out, char *msg, size_t len)
{
    struct env_ctx *e = c;
    (void)msg, (void)len;
    assert_int_equal(s, 0);
    assert_int_equal(res, 0);
    *out = (struct eg_tex_sampler){ .clamp_x = e->clamp, .clamp_y = e->clamp, .clamp_z = e->clamp,
                                    .mag_filter = e->filter, .min_filter = e->filter };
    return 0;
}

/* The seed write-up's pixel order inside an 8x8 micro tile (32 bpp):
 * row pairs of 4x2 blocks, "0 1 2 3 8 9 10 11 / 4 5 6 7 12 13 14 15 / 16 ..". */
static unsigned tiled_index(int x, int y)
{
    return (unsigned)((y / 2) * 16 + (x / 4) * 8 + (y % 2) * 4 + (x % 4));
}

static int texel(void *c, unsigned res, int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg,
                 size_t len)
{
    struct env_ctx *e = c;
    (void)res, (void)z, (void)sample, (void)msg, (void)len;
    unsigned i = e->tiled ? tiled_index(x, y) : (unsigned)(y * 8 + x);
    assert_int_equal(eg_fmt_convert(V_SQ_DATA_FORMAT__FMT_8_8_8_8, V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM, 0,
                                    &e->tex[4 * i], out), 4);
    return 0;
}

static struct eg_shader_env make_env(struct env_ctx *c)
{
    struct eg_shader_env env = { .ctx = c, .mem = &mem, .vtx_resource = vtx_res, .constant = constant,
                                 .tex_resource = tex_res, .tex_sampler = tex_samp, .texel = texel };
    env.vtx_semantic[0] = 0x90;
    env.vtx_semantic[1] = 0x92;
    env.vtx_semantic_valid = 3;
    return env;
}

static void put_vertices_xyzrgb(void)
{
    memcpy(vram, tri, sizeof tri);  /* 24 bytes per vertex, little-endian floats */
}

static void assert_vec(const float *got, float x, float y, float z, float w, float tol)
{
    const float want[4] = { x, y, z, w };
    for (int c = 0; c < 4; c++)
        if (!(got[c] >= want[c] - tol && got[c] <= want[c] + tol))
            fail_msg("component %d: %.7g, expected %.7g (got %g %g %g %g)", c, (double)got[c], (double)want[c],
                     (double)got[0], (double)got[1], (double)got[2], (double)got[3]);
}

/* ---- vertex stage ----------------------------------------------------------- */

static void demo_vs_on_fixture_triangle(void **state)
{
    (void)state;
    struct eg_demo_shaders s;
    assert_int_equal(eg_demo_shaders_build(&s), 0);
    struct env_ctx c = { .vb_resource = s.vtx_resource, .stride = s.vtx_stride, .size = 3 * s.vtx_stride };
    struct eg_shader_env env = make_env(&c);
    put_vertices_xyzrgb();
    struct eg_program vs = { "VS", s.vs, s.vs_ndw }, fs = { "FS", s.fs, s.fs_ndw };
    for (uint32_t v = 0; v < 3; v++) {
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (eg_run_vs(&vs, &fs, &env, v, 0, &out, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(out.pos_mask, 1);
        assert_int_equal(out.param_mask, 1);
        assert_vec(out.pos[0].f, tri[v][0], tri[v][1], tri[v][2], 1.0f, 0);
        assert_vec(out.param[0].f, tri[v][3], tri[v][4], tri[v][5], 1.0f, 0);
    }
    /* a vertex past the buffer fetches zeros (w = 1) */
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(eg_run_vs(&vs, &fs, &env, 3, 0, &out, &err), 0);
    assert_vec(out.pos[0].f, 0, 0, 0, 1, 0);
}

/* The seed's own VS + FS (resource 992 + 31), run the same way. */
static void seed_vs_on_fixture_triangle(void **state)
{
    (void)state;
    uint32_t vsw[64], fsw[64];
    struct eg_program vs = { "VS", vsw, test_load_words("tests/data/shader/seed_vs.bin", vsw, 64) };
    struct eg_program fs = { "FS", fsw, test_load_words("tests/data/shader/seed_fs.bin", fsw, 64) };
    struct env_ctx c = { .vb_resource = 1023, .stride = 24, .size = 72 };
    struct eg_shader_env env = make_env(&c);
    put_vertices_xyzrgb();
    for (uint32_t v = 0; v < 3; v++) {
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (eg_run_vs(&vs, &fs, &env, v, 0, &out, &err))
            fail_msg("%s", err.msg);
        assert_vec(out.pos[0].f, tri[v][0], tri[v][1], tri[v][2], 1.0f, 0);
        assert_vec(out.param[0].f, tri[v][3], tri[v][4], tri[v][5], 1.0f, 0);
    }
}

/* Mesa's layout for the same scene (cs_003: one buffer at resource 992,
 * stride 20: vec2 position + vec3 colour), with Mesa's non-semantic VFETCH
 * into R1 / R2 and exports of R1.xy01 and R2.xyz1. */
static void mesa_style_vs(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t fsw[64], vsw[64];
    size_t nfs, nvs;
    eg_asm_init(&a);
    eg_asm_vtx_clause(&a);
    eg_asm_vtx(&a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .dst_gpr = 1, .mega_fetch_count = 0x1F,
                                     .dst_sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ONE },
                                     .data_format = V_SQ_DATA_FORMAT__FMT_32_32_FLOAT });
    eg_asm_vtx(&a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .dst_gpr = 2, .mega_fetch_count = 0x1F,
                                     .dst_sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__ONE },
                                     .data_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT, .offset = 8 });
    eg_asm_return(&a);
    assert_int_equal(eg_asm_finish(&a, false, fsw, 64, &nfs), 0);
    eg_asm_init(&a);
    eg_asm_call_fs(&a);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS, .array_base = 60, .gpr = 1,
                                           .sel = EG_SWZ_XYZW, .done = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 2, .sel = EG_SWZ_XYZW, .done = true });
    assert_int_equal(eg_asm_finish(&a, true, vsw, 64, &nvs), 0);
    for (int v = 0; v < 3; v++) {
        float rec[5] = { tri[v][0], tri[v][1], tri[v][3], tri[v][4], tri[v][5] };
        memcpy(vram + 20 * v, rec, 20);
    }
    struct env_ctx c = { .vb_resource = 992, .stride = 20, .size = 60 };
    struct eg_shader_env env = make_env(&c);
    struct eg_program vs = { "VS", vsw, nvs }, fs = { "FS", fsw, nfs };
    for (uint32_t v = 0; v < 3; v++) {
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (eg_run_vs(&vs, &fs, &env, v, 0, &out, &err))
            fail_msg("%s", err.msg);
        assert_vec(out.pos[0].f, tri[v][0], tri[v][1], 0, 1, 0);
        assert_vec(out.param[0].f, tri[v][3], tri[v][4], tri[v][5], 1, 0);
    }
}

/* ---- pixel stage ------------------------------------------------------------ */

static int run_ps_ij(const uint32_t *w, size_t n, struct env_ctx *c, float i, float j, const struct eg_ps_param *p,
                     struct eg_ps_output *out, struct eg_shader_err *err)
{
    struct eg_shader_env env = make_env(c);
    union eg_vec4 g[1] = { { .f = { i, j, 0, 0 } } };
    struct eg_ps_input in = { g, 1, p, 1 };
    struct eg_program ps = { "PS", w, n };
    return eg_run_ps(&ps, &env, &in, out, err);
}

static void color_param(struct eg_ps_param *p)
{
    const float c0[4] = { 1, 0, 0, 1 }, c1[4] = { 0, 0, 1, 1 }, c2[4] = { 0, 1, 0, 1 };
    eg_ps_param_from_vertices(p, c0, c1, c2);
}

static void demo_and_seed_ps_interpolate(void **state)
{
    (void)state;
    struct eg_demo_shaders s;
    assert_int_equal(eg_demo_shaders_build(&s), 0);
    uint32_t seed[64];
    size_t nseed = test_load_words("tests/data/shader/seed_ps.bin", seed, 64);
    struct eg_ps_param p;
    color_param(&p);
    struct env_ctx c = { 0 };
    const float ij[5][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1.0f / 3, 1.0f / 3 }, { 0.25f, 0.5f } };
    for (int k = 0; k < 5; k++) {
        float i = ij[k][0], j = ij[k][1];
        /* vertex 0 red, 1 blue, 2 green: colour = (1-i-j, j, i) */
        float r = 1 - i - j, g = j, b = i;
        struct eg_ps_output out;
        struct eg_shader_err err;
        if (run_ps_ij(s.ps, s.ps_ndw, &c, i, j, &p, &out, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(out.color_mask, 1);
        assert_false(out.killed);
        assert_vec(out.color[0].f, r, g, b, 1, 1e-6f);
        if (run_ps_ij(seed, nseed, &c, i, j, &p, &out, &err))
            fail_msg("%s", err.msg);
        assert_vec(out.color[0].f, r, g, b, 1, 1e-6f);
    }
}

/* The blit PS: INTERP_XY of texcoords (unnormalised) then SAMPLE. */
static void blit_ps_samples_linear_and_tiled(void **state)
{
    (void)state;
    uint32_t w[64];
    size_t n = test_load_words("tests/data/shader/blit_ps.bin", w, 64);
    struct env_ctx c = { .filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT, .clamp = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL };
    for (int tiled = 0; tiled < 2; tiled++) {
        c.tiled = tiled;
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                unsigned i = tiled ? tiled_index(x, y) : (unsigned)(y * 8 + x);
                uint8_t px[4] = { (uint8_t)(x * 32), (uint8_t)(y * 32), (uint8_t)(x * y), 255 };
                memcpy(&c.tex[4 * i], px, 4);
            }
        /* texcoords: vertex0 (0,0), vertex1 (8,0), vertex2 (0,8) -> (8i, 8j) */
        struct eg_ps_param p;
        const float t0[4] = { 0, 0, 0, 0 }, t1[4] = { 8, 0, 0, 0 }, t2[4] = { 0, 8, 0, 0 };
        eg_ps_param_from_vertices(&p, t0, t1, t2);
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                struct eg_ps_output out;
                struct eg_shader_err err;
                c.filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
                if (run_ps_ij(w, n, &c, (x + 0.5f) / 8, (y + 0.5f) / 8, &p, &out, &err))
                    fail_msg("%s", err.msg);
                assert_vec(out.color[0].f, x * 32 / 255.0f, y * 32 / 255.0f, x * y / 255.0f, 1, 1e-6f);
                /* bilinear at a texel centre is the texel; halfway between two is their mean */
                c.filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR;
                if (run_ps_ij(w, n, &c, (x + 0.5f) / 8, (y + 0.5f) / 8, &p, &out, &err))
                    fail_msg("%s", err.msg);
                assert_vec(out.color[0].f, x * 32 / 255.0f, y * 32 / 255.0f, x * y / 255.0f, 1, 1e-5f);
                if (x < 7) {
                    if (run_ps_ij(w, n, &c, (x + 1.0f) / 8, (y + 0.5f) / 8, &p, &out, &err))
                        fail_msg("%s", err.msg);
                    assert_vec(out.color[0].f, (x * 32 + 16) / 255.0f, y * 32 / 255.0f, (x * y + y / 2.0f) / 255.0f, 1, 1e-5f);
                }
            }
    }
}

/* ---- constants, control flow, kill, errors ------------------------------- */

static int run_alu_vs(struct eg_asm *a, struct env_ctx *c, struct eg_vs_output *out, struct eg_shader_err *err)
{
    uint32_t w[256];
    size_t n;
    eg_asm_export(a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(a, true, w, 256, &n))
        fail_msg("%s", a->err);
    struct eg_shader_env env = make_env(c);
    struct eg_program vs = { "TEST", w, n };
    return eg_run_vs(&vs, NULL, &env, 0, 0, out, err);
}

static void kcache_constants(void **state)
{
    (void)state;
    struct env_ctx c = { 0 };
    for (int i = 0; i < 64; i++)
        for (int k = 0; k < 4; k++)
            c.consts[i][k] = (uint32_t)(i * 10 + k);
    struct eg_asm a;
    eg_asm_init(&a);
    /* bank 1, constants 32.. locked: KC0[3] = constant 35 */
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, (const struct eg_kcache[2]){ { 1, 2, V_SQ_KCACHE_MODE__LOCK_1 }, { 0 } });
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 0, .write = true },
                                     .src = { eg_src_special(V_SQ_ALU_SRC__KCACHE0_BASE + 3, 2) }, .last = true });
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (run_alu_vs(&a, &c, &out, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.param[0].u[0], 352);
    /* outside the 16 locked constants */
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, (const struct eg_kcache[2]){ { 1, 2, V_SQ_KCACHE_MODE__LOCK_1 }, { 0 } });
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 0, .write = true },
                                     .src = { eg_src_special(V_SQ_ALU_SRC__KCACHE0_BASE + 20, 0) }, .last = true });
    assert_int_equal(run_alu_vs(&a, &c, &out, &err), -1);
    assert_non_null(strstr(err.msg, "outside the 16 locked"));
}

/* if (R0.x > 5) R1 = 1 else R1 = 2, Mesa's shape: ALU_PUSH_BEFORE with
 * PRED_SETGT updating the exec mask, JUMP, ELSE, POP. */
static void if_else(void **state)
{
    (void)state;
    for (uint32_t v = 3; v <= 7; v += 4) {
        struct eg_asm a;
        uint32_t w[256];
        size_t n;
        eg_asm_init(&a);
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__INT_TO_FLT, .dst = { 2, 0, .write = true },
                                         .src = { eg_src_gpr(0, 0) }, .last = true });
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);
        eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__PRED_SETGT, .dst = { 3, 0 },
                                         .src = { eg_src_gpr(2, 0), eg_src_lit_f(5) }, .update_exec_mask = true,
                                         .update_pred = true, .last = true });
        eg_asm_cf(&a, V_SQ_CF_INST__JUMP);              /* CF 2 -> ELSE at 4 */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 0, .write = true },
                                         .src = { eg_src_special(V_SQ_ALU_SRC__ONE, 0) }, .last = true });
        eg_asm_cf(&a, V_SQ_CF_INST__ELSE);              /* CF 4 -> 6, popping 1 */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU_POP_AFTER, NULL);
        eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 0, .write = true },
                                         .src = { eg_src_lit_f(2) }, .last = true });
        eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
        assert_int_equal(eg_asm_finish(&a, true, w, 256, &n), 0);
        w[2 * 2] |= S_SQ_CF_WORD0__ADDR(4);
        w[2 * 4] |= S_SQ_CF_WORD0__ADDR(6);        /* past ALU_POP_AFTER, as Mesa's tgsi_endif */
        w[2 * 4 + 1] |= S_SQ_CF_WORD1__POP_COUNT(1);
        struct env_ctx c = { 0 };
        struct eg_shader_env env = make_env(&c);
        struct eg_program vs = { "VS", w, n };
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (eg_run_vs(&vs, NULL, &env, v, 0, &out, &err))
            fail_msg("%s", err.msg);
        assert_true(out.param[0].f[0] == (v > 5 ? 1.0f : 2.0f));
    }
}

static void kill_pixel(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__KILLGT, .dst = { 0, 0 },
                                     .src = { eg_src_gpr(0, 0), eg_src_lit_f(0.5f) }, .last = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 0, .sel = EG_SWZ_XYZW, .done = true });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), 0);
    struct env_ctx c = { 0 };
    struct eg_ps_param p;
    color_param(&p);
    struct eg_ps_output out;
    struct eg_shader_err err;
    assert_int_equal(run_ps_ij(w, n, &c, 0.75f, 0, &p, &out, &err), 0);
    assert_true(out.killed);
    assert_int_equal(run_ps_ij(w, n, &c, 0.25f, 0, &p, &out, &err), 0);
    assert_false(out.killed);
}

/* The Z export (ARRAY_BASE 61) as Mesa's r600_shader.c / sfn_shader_fs.cpp
 * emit it: the depth in .x (here from R1.z), the stencil reference in .y
 * (R2.y, an integer), gl_SampleMask in .z (R3.x, an integer), in exports
 * whose other channels are masked (SEL 7); a masked channel leaves what the
 * other exports wrote. */
static void z_and_stencil_exports(void **state)
{
    (void)state;
    struct eg_asm a;
    uint32_t w[64];
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 1, 2, true }, .src = { eg_src_lit_f(0.375f) },
                                     .last = true });
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 1, true }, .src = { eg_src_lit_u(0xC3) },
                                     .last = true });
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 3, 0, true },
                                     .src = { eg_src_lit_u(0x80000005u) }, .last = true });
    const unsigned M = V_SQ_INST_SEL__MASK;
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 61, .gpr = 1,
                                           .sel = { V_SQ_INST_SEL__Z, M, M, M } });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 61, .gpr = 2,
                                           .sel = { M, V_SQ_INST_SEL__Y, M, M } });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 61, .gpr = 3,
                                           .sel = { M, M, V_SQ_INST_SEL__X, M }, .done = true });
    assert_int_equal(eg_asm_finish(&a, true, w, 64, &n), 0);
    struct env_ctx c = { 0 };
    struct eg_ps_param p;
    color_param(&p);
    struct eg_ps_output out;
    struct eg_shader_err err;
    if (run_ps_ij(w, n, &c, 0.25f, 0.25f, &p, &out, &err))
        fail_msg("%s", err.msg);
    assert_true(out.depth_written);
    assert_true(out.depth == 0.375f);
    assert_true(out.stencil_written);
    assert_int_equal(out.stencil, 0xC3);
    assert_true(out.mask_written);
    assert_int_equal(out.mask, 0x80000005u);
}

static void unsupported_opcode_is_named(void **state)
{
    (void)state;
    struct eg_asm a;
    eg_asm_init(&a);
    eg_asm_nop(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__OFFSET_TO_FLT, .dst = { 1, 0, .write = true },
                                     .src = { eg_src_gpr(0, 0), eg_src_gpr(0, 1) }, .last = true });
    struct env_ctx c = { 0 };
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(run_alu_vs(&a, &c, &out, &err), -1);
    assert_string_equal(err.msg, "shader TEST PC 1 (clause instruction at 3): unsupported ALU OP2 opcode 0xb4 (OFFSET_TO_FLT)");
    /* an unsupported CF instruction */
    uint32_t w[4] = { 0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__EMIT_VERTEX), 0, 0 };
    struct eg_shader_env env = make_env(&c);
    struct eg_program vs = { "VS", w, 4 };
    assert_int_equal(eg_run_vs(&vs, NULL, &env, 0, 0, &out, &err), -1);
    assert_string_equal(err.msg, "shader VS PC 0: unsupported CF instruction 0x15 (EMIT_VERTEX)");
    /* CALL_FS without a fetch shader; running off the end */
    uint32_t d[64];
    struct eg_program seedvs = { "VS", d, test_load_words("tests/data/shader/seed_vs.bin", d, 64) };
    assert_int_equal(eg_run_vs(&seedvs, NULL, &env, 0, 0, &out, &err), -1);
    assert_non_null(strstr(err.msg, "CALL_FS but no fetch shader"));
    seedvs.ndw = 4;
    struct eg_program fs = { "FS", d, 2 };
    assert_int_equal(eg_run_vs(&seedvs, &fs, &env, 0, 0, &out, &err), -1);
}

/* SAMPLE (unnormalised coordinates) or LD of R0 into R1, exported. */
static size_t fetch_ps(uint32_t *w, unsigned inst, int offset_x)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_tex_clause(&a);
    eg_asm_tex(&a, &(struct eg_tex){ .inst = inst, .src_gpr = 0, .src_sel = EG_SWZ_XYZW, .dst_gpr = 1,
                                     .dst_sel = EG_SWZ_XYZW, .offset = { offset_x, 0, 0 } });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 1, .sel = EG_SWZ_XYZW,
                                           .done = true });
    if (eg_asm_finish(&a, true, w, 64, &n))
        fail_msg("%s", a.err);
    return n;
}

static int run_fetch(const uint32_t *w, size_t n, struct env_ctx *c, union eg_vec4 r0, struct eg_ps_output *out)
{
    struct eg_shader_env env = make_env(c);
    struct eg_ps_input in = { &r0, 1, NULL, 0 };
    struct eg_program ps = { "PS", w, n };
    struct eg_shader_err err;
    int r = eg_run_ps(&ps, &env, &in, out, &err);
    if (r)
        fail_msg("%s", err.msg);
    return r;
}

/* Texture coordinates no int holds (NaN, infinities, |x| >= 2^31): a texel
 * or the border as the address mode says, never an undefined conversion.
 * Row 0 of the 8x8 texture holds x * 32 in red and 255 in alpha; the
 * sampler's border colour is transparent black. */
static void extreme_texture_coordinates(void **state)
{
    (void)state;
    uint32_t w[64];
    size_t n = fetch_ps(w, V_SQ_TEX_INST__SAMPLE, 0);
    struct env_ctx c = { .filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT };
    for (int x = 0; x < 8; x++) {
        c.tex[4 * x] = (uint8_t)(x * 32);
        c.tex[4 * x + 3] = 255;
    }
    const struct { float u; int last_texel; } cases[] = {
        { INFINITY, 7 }, { 1e10f, 7 }, { 2147483648.0f, 7 }, { 2147483520.0f, 7 },
        { -INFINITY, 0 }, { -1e10f, 0 }, { -2147483904.0f, 0 }, { NAN, 0 }, { -NAN, 0 },
    };
    struct eg_ps_output out;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        union eg_vec4 r0 = { .f = { cases[k].u, 0.5f, 0, 0 } };
        c.clamp = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL;
        run_fetch(w, n, &c, r0, &out);
        if (out.color[0].f[0] != cases[k].last_texel * 32 / 255.0f)
            fail_msg("u = %g, clamp to last texel: red %g, want texel %d", (double)cases[k].u,
                     (double)out.color[0].f[0], cases[k].last_texel);
        /* NaN reads texel 0, which is inside; every other case is outside */
        c.clamp = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER;
        run_fetch(w, n, &c, r0, &out);
        assert_true(out.color[0].f[0] == 0.0f && out.color[0].f[3] == (isnan(cases[k].u) ? 1.0f : 0.0f));
        for (unsigned mode = 0; mode < 8; mode++) {
            c.clamp = mode;
            for (int f = 0; f < 2; f++) {
                c.filter = f ? V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR : V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
                run_fetch(w, n, &c, r0, &out);
            }
        }
        c.filter = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
    }
    /* LD takes R0's bits as an integer and adds the offset: INT32_MAX + 1
     * is past the right edge (the border), not a wrapped INT32_MIN */
    size_t nld = fetch_ps(w, V_SQ_TEX_INST__LD, 1);
    union eg_vec4 r0 = { .u = { 0x7FFFFFFFu, 0, 0, 0 } };
    run_fetch(w, nld, &c, r0, &out);
    assert_true(out.color[0].f[3] == 0.0f);
    nld = fetch_ps(w, V_SQ_TEX_INST__LD, -1);
    r0.u[0] = 0x80000000u;
    run_fetch(w, nld, &c, r0, &out);
    assert_true(out.color[0].f[3] == 0.0f);
    r0.u[0] = 1;
    run_fetch(w, nld, &c, r0, &out);
    assert_true(out.color[0].f[3] == 1.0f);
}

/* An error names the shader and where it stopped, on one line. */
static void assert_error_line(const struct eg_shader_err *err)
{
    if (strncmp(err->msg, "shader R PC ", 12) != 0 || strchr(err->msg, '\n'))
        fail_msg("error message \"%s\"", err->msg);
}

/* The OP2 opcodes the interpreter runs (the others stop a program with
 * "unsupported"), probed one instruction at a time: random programs drawn
 * from them get past their first instruction. */
static unsigned supported_op2(struct eg_shader_env *env, unsigned *ops)
{
    unsigned n = 0;
    for (unsigned op = 0; op < 256; op++) {
        struct eg_asm a;
        uint32_t w[16];
        size_t nw;
        eg_asm_init(&a);
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        eg_asm_alu(&a, &(struct eg_alu){ .op = op, .dst = { 1, 0, .write = true },
                                         .src = { eg_src_gpr(0, 0), eg_src_gpr(0, 1), eg_src_gpr(0, 2) }, .last = true });
        eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
        if (eg_asm_finish(&a, true, w, 16, &nw))
            continue;
        struct eg_program p = { "P", w, nw };
        struct eg_vs_output out;
        struct eg_shader_err err;
        if (eg_run_vs(&p, NULL, env, 0, 0, &out, &err) == 0 || !strstr(err.msg, "unsupported"))
            ops[n++] = op;
    }
    return n;
}

/* Random programs: the interpreter stops with 0 or an error naming the
 * shader and PC, never a crash or an out-of-bounds access (ASan watches);
 * a run is a function of its inputs: run again into an output struct
 * holding other bytes, it exports the same values (no uninitialised read
 * or stale state reaches an export), or fails with the same message. */
static void random_programs(void **state)
{
    (void)state;
    struct env_ctx c = { .vb_resource = 992, .stride = 24, .size = 72 };
    struct eg_shader_env env = make_env(&c);
    uint32_t x = 99;
    unsigned vs_ok = 0, ps_ok = 0, exported = 0;
    unsigned ops[256], nops = supported_op2(&env, ops);
    assert_true(nops >= 40);
    for (int it = 0; it < 5000; it++) {
        uint32_t w[64];
        size_t n = 2 + (size_t)(it % 30);
        if (it % 2) {
            /* a well-formed program: an ALU clause of 1..8 random OP2
             * instructions (opcodes the interpreter runs, sources R0..R2, constants and
             * float literals, neg / abs / clamp / output modifiers), then an
             * export of R1 */
            static const float lits[] = { 0.0f, -0.0f, 1.0f, -2.5f, 1e30f, -1e-40f, INFINITY, NAN, 16777217.0f };
            struct eg_asm a;
            eg_asm_init(&a);
            eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
            unsigned nalu = 1 + (unsigned)it / 2 % 8;
            for (unsigned k = 0; k < nalu; k++) {
                struct eg_alu op;
                do {
                    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                    op = (struct eg_alu){ .op = ops[x % nops], .dst = { (uint8_t)(1 + x / 256 % 2), (uint8_t)(x / 512 % 4),
                                                                   .write = true, .clamp = x / 2048 % 4 == 0,
                                                                   .omod = (uint8_t)(x / 8192 % 4) },
                                          .last = true };
                    for (unsigned i = 0; i < 3; i++) {
                        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                        op.src[i] = x % 4 == 0 ? eg_src_lit_f(lits[x / 4 % 9]) : eg_src_gpr(x / 64 % 3, x / 256 % 4);
                        op.src[i].neg = x / 1024 % 4 == 0;
                        op.src[i].abs = x / 4096 % 4 == 0;
                    }
                    struct eg_asm probe = a;
                    eg_asm_alu(&probe, &op);
                    if (!probe.err[0])
                        break;
                } while (1);
                eg_asm_alu(&a, &op);
            }
            static const unsigned types[3] = { V_SQ_EXPORT_TYPE__PIXEL, V_SQ_EXPORT_TYPE__POS, V_SQ_EXPORT_TYPE__PARAM };
            unsigned type = types[(unsigned)it / 16 % 3];
            eg_asm_export(&a, &(struct eg_export){ .type = type, .array_base = type == V_SQ_EXPORT_TYPE__POS ? 60 : 0,
                                                   .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
            if (eg_asm_finish(&a, true, w, 64, &n))
                fail_msg("%s", a.err);
        } else {
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 17, x ^= x << 5;
                w[i] = (i % 2 == 0 && (x & 1)) ? (x & 0xF) : x;
            }
        }
        struct eg_program p = { "R", w, n };
        struct eg_vs_output out[2];
        struct eg_ps_output pout[2];
        struct eg_shader_err err[2], perr[2];
        union eg_vec4 g[2] = { { .f = { 0.5f, 0.25f, 0, 0 } } };
        struct eg_ps_param par;
        color_param(&par);
        struct eg_ps_input in = { g, 2, &par, 1 };
        int rv[2], rp[2];
        for (int k = 0; k < 2; k++) {
            memset(&out[k], k ? 0xFF : 0, sizeof out[k]);
            memset(&pout[k], k ? 0xFF : 0, sizeof pout[k]);
            rv[k] = eg_run_vs(&p, &p, &env, 1, 0, &out[k], &err[k]);
            rp[k] = eg_run_ps(&p, &env, &in, &pout[k], &perr[k]);
        }
        assert_int_equal(rv[0], rv[1]);
        assert_int_equal(rp[0], rp[1]);
        if (rv[0] == 0) {
            vs_ok++;
            exported += out[0].pos_mask || out[0].param_mask;
            if (!test_vs_exports_equal(&out[0], &out[1]))
                fail_msg("program %d: the vertex shader's exports depend on the output struct's old bytes", it);
        } else {
            assert_error_line(&err[0]);
            assert_string_equal(err[0].msg, err[1].msg);
        }
        if (rp[0] == 0) {
            ps_ok++;
            exported += pout[0].color_mask != 0;
            if (!test_ps_exports_equal(&pout[0], &pout[1]))
                fail_msg("program %d: the pixel shader's exports depend on the output struct's old bytes", it);
        } else {
            assert_error_line(&perr[0]);
            assert_string_equal(perr[0].msg, perr[1].msg);
        }
    }
    print_message("random programs: %u of 5000 ran as VS, %u as PS, %u runs exported something\n", vs_ok, ps_ok,
                  exported);
    /* both outcomes were reached, and enough runs exported values to compare */
    assert_true(vs_ok > 0 && ps_ok > 0 && vs_ok < 5000 && ps_ok < 5000);
    assert_true(exported >= 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demo_vs_on_fixture_triangle),
        cmocka_unit_test(seed_vs_on_fixture_triangle),
        cmocka_unit_test(mesa_style_vs),
        cmocka_unit_test(demo_and_seed_ps_interpolate),
        cmocka_unit_test(blit_ps_samples_linear_and_tiled),
        cmocka_unit_test(kcache_constants),
        cmocka_unit_test(if_else),
        cmocka_unit_test(kill_pixel),
        cmocka_unit_test(z_and_stencil_exports),
        cmocka_unit_test(unsupported_opcode_is_named),
        cmocka_unit_test(extreme_texture_coordinates),
        cmocka_unit_test(random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
