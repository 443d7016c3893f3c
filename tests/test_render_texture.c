/* The texture unit (src/render/texture.c, tex_format.c), against values
 * worked out here from their documented definitions, never from the unit:
 *  - every format it reads, from hand-packed texels: UNORM c / (2^n - 1),
 *    SNORM max(c / (2^(n-1) - 1), -1) and the NO_ZERO (2c + 1) / (2^n - 1)
 *    (OpenGL 4.6, 2.3.5), IEEE halves, the 11/10-bit and shared-exponent
 *    floats by their bit patterns, sRGB against tabulated linear values,
 *    the component order of the packed formats as Mesa's pipe formats lay
 *    them out (B5G6R5: blue in bits 0..4, read through the swizzle Z Y X 1);
 *  - linear, 1D- and 2D-tiled textures laid out as libdrm lays them out
 *    (cedar_surface_layout, checked against libdrm by test_layout_libdrm)
 *    and filled through src/tiling's map (cedar_tile): every texel read back,
 *    and a buffer one byte short of libdrm's size refused;
 *  - array layers and Mesa's layer views, MSAA textures (sample planes and
 *    FMask written through the map), depth buffers read as textures (the
 *    depth sample order), GET_TEXTURE_RESINFO;
 *  - address modes, bilinear weights and border colours through the shader
 *    interpreter on hand-checked vectors (bilinear weights are float: the
 *    card's fixed-point weights are not modelled);
 *  - faults that name what is not modelled, and resources whose texels lie
 *    outside GPU memory.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/layout.h"
#include "cedar/shader.h"
#include "cedar/tiling.h"
#include "src/render/texture.h"
#include "tests/common/test_util.h"

#define GPU_BASE 0x100000ull

/* ---- GPU memory: one buffer at GPU_BASE ------------------------------------- */

static uint8_t *vram;
static uint64_t vram_len;

static void *mem_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (addr < GPU_BASE || addr - GPU_BASE > vram_len || len > vram_len - (addr - GPU_BASE))
        return NULL;
    return vram + (addr - GPU_BASE);
}
static const struct vc_mem mem = { .ctx = NULL, .ptr = mem_ptr };

static void vram_alloc(uint64_t len)
{
    free(vram);
    vram = calloc(1, len ? len : 1);
    assert_non_null(vram);
    vram_len = len;
}

static int vram_free(void **state)
{
    (void)state;
    free(vram);
    vram = NULL;
    vram_len = 0;
    return 0;
}

static struct cedar_tiling hd7350(void)
{
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(CEDAR_HD7350_TILING_CONFIG, &t), 0);
    return t;
}

/* ---- resource words, as Mesa's evergreen_fill_tex_resource_words fills them -- */

struct tdesc {
    unsigned dim, width, height, depth, pitch;
    unsigned array_mode, fmt, nfmt;
    unsigned signed_mask;       /* FORMAT_COMP SIGNED for component c when bit c */
    bool no_zero, degamma, nondisp, depth_order;
    unsigned sel[4];
    unsigned base_array, last_array, base_level, last_level;
    unsigned tile_split, bankw, bankh, mtilea, banks, fmask_bankh; /* encoded */
    uint64_t addr, mip_addr;
};

static const unsigned XYZW[4] = { V_SQ_SEL__SQ_SEL_X, V_SQ_SEL__SQ_SEL_Y, V_SQ_SEL__SQ_SEL_Z, V_SQ_SEL__SQ_SEL_W };

static void tex_words(const struct tdesc *d, uint32_t w[8])
{
    bool msaa = d->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || d->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
    w[0] = S_SQ_TEX_RESOURCE_WORD0__DIM(d->dim) | S_SQ_TEX_RESOURCE_WORD0__NON_DISP_TILING_ORDER(d->nondisp) |
           S_SQ_TEX_RESOURCE_WORD0__PITCH(d->pitch / 8 - 1) | S_SQ_TEX_RESOURCE_WORD0__TEX_WIDTH(d->width - 1);
    w[1] = S_SQ_TEX_RESOURCE_WORD1__TEX_HEIGHT(d->height - 1) |
           S_SQ_TEX_RESOURCE_WORD1__TEX_DEPTH((d->depth ? d->depth : 1) - 1) |
           S_SQ_TEX_RESOURCE_WORD1__ARRAY_MODE(d->array_mode);
    w[2] = (uint32_t)(d->addr >> 8);
    w[3] = (uint32_t)(d->mip_addr >> 8);
    unsigned comp[4];
    for (int c = 0; c < 4; c++)
        comp[c] = (d->signed_mask >> c & 1u) ? V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED
                                             : V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED;
    w[4] = S_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_X(comp[0]) | S_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_Y(comp[1]) |
           S_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_Z(comp[2]) | S_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_W(comp[3]) |
           S_SQ_TEX_RESOURCE_WORD4__NUM_FORMAT_ALL(d->nfmt) | S_SQ_TEX_RESOURCE_WORD4__SRF_MODE_ALL(d->no_zero) |
           S_SQ_TEX_RESOURCE_WORD4__FORCE_DEGAMMA(d->degamma) | S_SQ_TEX_RESOURCE_WORD4__DST_SEL_X(d->sel[0]) |
           S_SQ_TEX_RESOURCE_WORD4__DST_SEL_Y(d->sel[1]) | S_SQ_TEX_RESOURCE_WORD4__DST_SEL_Z(d->sel[2]) |
           S_SQ_TEX_RESOURCE_WORD4__DST_SEL_W(d->sel[3]) | S_SQ_TEX_RESOURCE_WORD4__BASE_LEVEL(d->base_level);
    w[5] = S_SQ_TEX_RESOURCE_WORD5__LAST_LEVEL(d->last_level) | S_SQ_TEX_RESOURCE_WORD5__BASE_ARRAY(d->base_array) |
           S_SQ_TEX_RESOURCE_WORD5__LAST_ARRAY(d->last_array);
    w[6] = S_SQ_TEX_RESOURCE_WORD6__TILE_SPLIT(d->tile_split);
    if (msaa)
        w[6] |= S_SQ_TEX_RESOURCE_WORD6_MSAA__FMASK_BANK_HEIGHT(d->fmask_bankh);
    w[7] = S_SQ_TEX_RESOURCE_WORD7__DATA_FORMAT(d->fmt) | S_SQ_TEX_RESOURCE_WORD7__MACRO_TILE_ASPECT(d->mtilea) |
           S_SQ_TEX_RESOURCE_WORD7__BANK_WIDTH(d->bankw) | S_SQ_TEX_RESOURCE_WORD7__BANK_HEIGHT(d->bankh) |
           S_SQ_TEX_RESOURCE_WORD7__NUM_BANKS(d->banks) |
           S_SQ_TEX_RESOURCE_WORD7__DEPTH_SAMPLE_ORDER(d->depth_order) |
           S_SQ_TEX_RESOURCE_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_TEXTURE);
}

/* The layout fields of a libdrm-equal surface, as Mesa programs them. */
static void tdesc_from_surface(struct tdesc *d, const struct cedar_surface *s)
{
    d->width = s->width;
    d->height = s->height;
    d->pitch = s->aligned_width;
    d->array_mode = s->mode == CEDAR_MODE_2D_THIN   ? V_ARRAY_MODE__ARRAY_2D_TILED_THIN1
                    : s->mode == CEDAR_MODE_1D_THIN ? V_ARRAY_MODE__ARRAY_1D_TILED_THIN1
                                                    : V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED;
    d->tile_split = s->tile_split_enc;
    d->bankw = s->bankw_enc;
    d->bankh = s->bankh_enc;
    d->mtilea = s->mtilea_enc;
    d->banks = s->num_banks_enc;
}

static int decode(struct tex_view *v, const struct tdesc *d)
{
    uint32_t w[8];
    tex_words(d, w);
    struct cedar_tiling t = hd7350();
    return tex_view_decode(v, 0, w, &t, &mem);
}

static void expect_fault(const struct tdesc *d, const char *needle)
{
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    int r = decode(v, d);
    bool ok = v->ok;
    char err[TEX_ERR_MAX];
    memcpy(err, v->err, sizeof err);
    free(v);
    assert_int_equal(r, -1);
    assert_false(ok);
    if (!strstr(err, needle))
        fail_msg("fault \"%s\" does not name \"%s\"", err, needle);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- formats ------------------------------------------------------------------ */

struct fcase {
    const char *what;
    unsigned fmt, nfmt, signed_mask;
    bool no_zero, degamma;
    uint8_t bytes[16];
    unsigned sel[4];            /* all 0 (X X X X) means X Y Z W */
    bool is_int;
    float f[4];
    uint32_t u[4];
    float tol;
};

#define NORM V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM
#define INT V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT
#define SCALED V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED
#define SX V_SQ_SEL__SQ_SEL_X
#define SY V_SQ_SEL__SQ_SEL_Y
#define SZ V_SQ_SEL__SQ_SEL_Z
#define SW V_SQ_SEL__SQ_SEL_W
#define S0 V_SQ_SEL__SQ_SEL_0
#define S1 V_SQ_SEL__SQ_SEL_1
#define FMT(n) V_SQ_DATA_FORMAT__FMT_##n

static const struct fcase fcases[] = {
    { "RGBA8 unorm", FMT(8_8_8_8), NORM, 0, false, false, { 0x00, 0x80, 0xFF, 0x33 }, { 0 }, false,
      { 0.0f, (float)(128.0 / 255), 1.0f, (float)(51.0 / 255) }, { 0 }, 0 },
    { "BGRA8 unorm (swizzle Z Y X W)", FMT(8_8_8_8), NORM, 0, false, false, { 0x10, 0x20, 0x30, 0x40 },
      { SZ, SY, SX, SW }, false, { (float)(48.0 / 255), (float)(32.0 / 255), (float)(16.0 / 255), (float)(64.0 / 255) },
      { 0 }, 0 },
    { "RGBA8 snorm: -128 and -127 are -1", FMT(8_8_8_8), NORM, 0xF, false, false, { 0x80, 0x81, 0x7F, 0x40 }, { 0 },
      false, { -1.0f, -1.0f, 1.0f, (float)(64.0 / 127) }, { 0 }, 0 },
    { "RGBA8 snorm NO_ZERO (2c + 1) / 255", FMT(8_8_8_8), NORM, 0xF, true, false, { 0x80, 0x00, 0x7F, 0xFF }, { 0 },
      false, { -1.0f, (float)(1.0 / 255), 1.0f, (float)(-1.0 / 255) }, { 0 }, 0 },
    { "RG8 uint", FMT(8_8), INT, 0, false, false, { 0xFF, 0x01 }, { 0 }, true, { 0 }, { 255, 1, 0, 1 }, 0 },
    { "RG8 sint", FMT(8_8), INT, 0x3, false, false, { 0xFF, 0x80 }, { 0 }, true, { 0 },
      { 0xFFFFFFFFu, 0xFFFFFF80u, 0, 1 }, 0 },
    { "RG8 scaled", FMT(8_8), SCALED, 0x2, false, false, { 200, 0xFE }, { 0 }, false, { 200.0f, -2.0f, 0, 1.0f },
      { 0 }, 0 },
    { "B5G6R5: B bits 0..4, G 5..10, R 11..15", FMT(5_6_5), NORM, 0, false, false, { 0x01, 0xFC }, { SZ, SY, SX, S1 },
      false, { 1.0f, (float)(32.0 / 63), (float)(1.0 / 31), 1.0f }, { 0 }, 0 },
    { "B5G5R5A1: A bit 15", FMT(1_5_5_5), NORM, 0, false, false, { 0x04, 0xC1 }, { SZ, SY, SX, SW }, false,
      { (float)(16.0 / 31), (float)(8.0 / 31), (float)(4.0 / 31), 1.0f }, { 0 }, 0 },
    { "4_4_4_4 0x1234: X = 4 .. W = 1", FMT(4_4_4_4), NORM, 0, false, false, { 0x34, 0x12 }, { 0 }, false,
      { (float)(4.0 / 15), (float)(3.0 / 15), (float)(2.0 / 15), (float)(1.0 / 15) }, { 0 }, 0 },
    { "4_4 0x5A", FMT(4_4), NORM, 0, false, false, { 0x5A }, { 0 }, false,
      { (float)(10.0 / 15), (float)(5.0 / 15), 0, 1.0f }, { 0 }, 0 },
    { "R10G10B10A2 unorm", FMT(2_10_10_10), NORM, 0, false, false, { 0xFF, 0x03, 0x08, 0x80 }, { 0 }, false,
      { 1.0f, (float)(512.0 / 1023), 0.0f, (float)(2.0 / 3) }, { 0 }, 0 },
    { "R10G10B10A2 uint", FMT(2_10_10_10), INT, 0, false, false, { 0xFF, 0x03, 0x08, 0x80 }, { 0 }, true, { 0 },
      { 1023, 512, 0, 2 }, 0 },
    { "R16 unorm", FMT(16), NORM, 0, false, false, { 0x00, 0x80 }, { 0 }, false,
      { (float)(32768.0 / 65535), 0, 0, 1.0f }, { 0 }, 0 },
    { "RG16 snorm", FMT(16_16), NORM, 0x3, false, false, { 0x00, 0x80, 0x00, 0xC0 }, { 0 }, false,
      { -1.0f, (float)(-16384.0 / 32767), 0, 1.0f }, { 0 }, 0 },
    { "RGBA16 uint", FMT(16_16_16_16), INT, 0, false, false, { 0x34, 0x12, 0xFF, 0xFF, 0, 0, 1, 0 }, { 0 }, true,
      { 0 }, { 0x1234, 0xFFFF, 0, 1 }, 0 },
    { "RGBA16F: 1, -2, 0x3555, smallest denormal", FMT(16_16_16_16_FLOAT), NORM, 0, false, false,
      { 0x00, 0x3C, 0x00, 0xC0, 0x55, 0x35, 0x01, 0x00 }, { 0 }, false,
      { 1.0f, -2.0f, 0.333251953125f, 5.9604644775390625e-08f }, { 0 }, 0 },
    { "RG16F: largest half, -inf", FMT(16_16_FLOAT), NORM, 0, false, false, { 0xFF, 0x7B, 0x00, 0xFC }, { 0 }, false,
      { 65504.0f, -INFINITY, 0, 1.0f }, { 0 }, 0 },
    { "R16F NaN", FMT(16_FLOAT), NORM, 0, false, false, { 0x00, 0x7E }, { 0 }, false, { NAN, 0, 0, 1.0f }, { 0 }, 0 },
    { "R32F: bits kept", FMT(32_FLOAT), NORM, 0, false, false, { 0xDB, 0x0F, 0x49, 0x40 }, { 0 }, false,
      { 3.14159274101257324f, 0, 0, 1.0f }, { 0 }, 0 },
    { "RG32F", FMT(32_32_FLOAT), NORM, 0, false, false, { 0, 0, 0xC0, 0x3F, 0, 0, 0, 0x80 }, { 0 }, false,
      { 1.5f, -0.0f, 0, 1.0f }, { 0 }, 0 },
    { "RGBA32F", FMT(32_32_32_32_FLOAT), NORM, 0, false, false,
      { 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0xC0 }, { 0 }, false,
      { 1.0f, 2.0f, 3.0f, -4.0f }, { 0 }, 0 },
    { "RGBA32 uint", FMT(32_32_32_32), INT, 0, false, false,
      { 0xEF, 0xBE, 0xAD, 0xDE, 1, 0, 0, 0, 0, 0, 0, 0x80, 7, 0, 0, 0 }, { 0 }, true, { 0 },
      { 0xDEADBEEFu, 1, 0x80000000u, 7 }, 0 },
    { "R32 unorm", FMT(32), NORM, 0, false, false, { 0xFF, 0xFF, 0xFF, 0xFF }, { 0 }, false, { 1.0f, 0, 0, 1.0f },
      { 0 }, 0 },
    { "R11G11B10F: 1, 0.5, 2", FMT(10_11_11_FLOAT), NORM, 0, false, false, { 0xC0, 0x03, 0x1C, 0x80 }, { 0 }, false,
      { 1.0f, 0.5f, 2.0f, 1.0f }, { 0 }, 0 },
    { "R11G11B10F: an 11-bit denormal 2^-20", FMT(10_11_11_FLOAT), NORM, 0, false, false, { 0x01, 0, 0, 0 }, { 0 },
      false, { 9.5367431640625e-07f, 0, 0, 1.0f }, { 0 }, 0 },
    { "RGB9E5: 256, 1, 511 at exponent 16", FMT(5_9_9_9_SHAREDEXP), NORM, 0, false, false, { 0x00, 0x03, 0xFC, 0x87 },
      { 0 }, false, { 1.0f, 0.00390625f, 1.99609375f, 1.0f }, { 0 }, 0 },
    { "SRGB8_A8: 10, 128, 188; alpha stays linear", FMT(8_8_8_8), NORM, 0, false, true, { 10, 128, 188, 188 },
      { 0 }, false, { 0.0030352698f, 0.2158605f, 0.5028865f, (float)(188.0 / 255) }, { 0 }, 1e-6f },
    { "Z24S8 as FMT_8_24: X = Z in bits 0..23", FMT(8_24), NORM, 0, false, false, { 0xFF, 0xFF, 0xFF, 0x12 },
      { 0 }, false, { 1.0f, (float)(18.0 / 255), 0, 1.0f }, { 0 }, 0 },
    { "X24_8_32F: X float, Y bits 32..39", FMT(X24_8_32_FLOAT), NORM, 0, false, false, { 0, 0, 0, 0x3F, 0xFF, 0, 0, 0 },
      { 0 }, false, { 0.5f, 1.0f, 0, 1.0f }, { 0 }, 0 },
    { "R8 with X X X 1 (luminance)", FMT(8), NORM, 0, false, false, { 0x33 }, { SX, SX, SX, S1 }, false,
      { (float)(51.0 / 255), (float)(51.0 / 255), (float)(51.0 / 255), 1.0f }, { 0 }, 0 },
    { "R8 absent components: 0, 0, W 1", FMT(8), NORM, 0, false, false, { 0xFF }, { 0 }, false, { 1.0f, 0, 0, 1.0f },
      { 0 }, 0 },
    { "R8 uint with 0 and 1: integer 1", FMT(8), INT, 0, false, false, { 9 }, { SX, S0, S1, SW }, true, { 0 },
      { 9, 0, 1, 1 }, 0 },
};

static void formats_from_hand_packed_texels(void **state)
{
    (void)state;
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    for (size_t k = 0; k < sizeof fcases / sizeof fcases[0]; k++) {
        const struct fcase *c = &fcases[k];
        vram_alloc(256);
        memcpy(vram, c->bytes, 16);
        struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 1, .height = 1, .pitch = 8,
                           .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = c->fmt, .nfmt = c->nfmt,
                           .signed_mask = c->signed_mask, .no_zero = c->no_zero, .degamma = c->degamma,
                           .addr = GPU_BASE };
        bool identity = !c->sel[0] && !c->sel[1] && !c->sel[2] && !c->sel[3];
        memcpy(d.sel, identity ? XYZW : c->sel, sizeof d.sel);
        /* 16-byte texels: a pitch of 8 is 128 bytes per row, still inside */
        if (decode(v, &d))
            fail_msg("%s: %s", c->what, v->err);
        union eg_vec4 out;
        tex_view_texel(v, 0, 0, 0, 0, &out);
        for (int ch = 0; ch < 4; ch++) {
            if (c->is_int) {
                if (out.u[ch] != c->u[ch])
                    fail_msg("%s: component %d = %u (0x%08x), want %u", c->what, ch, out.u[ch], out.u[ch], c->u[ch]);
            } else if (isnan(c->f[ch])) {
                if (!isnan(out.f[ch]))
                    fail_msg("%s: component %d = %g, want NaN", c->what, ch, (double)out.f[ch]);
            } else if (c->tol ? fabsf(out.f[ch] - c->f[ch]) > c->tol : fbits(out.f[ch]) != fbits(c->f[ch])) {
                fail_msg("%s: component %d = %.9g, want %.9g", c->what, ch, (double)out.f[ch], (double)c->f[ch]);
            }
        }
    }
    free(v);
}

/* The float formats' components against the small floats' definitions
 * (tests/common/small_float_ref.c): every code of every component, the
 * other components random codes, each texel alone in a buffer of its size
 * (ASan: nothing past it is read).  A NaN code gives a NaN of its sign. */
static void float_texels_by_definition(void **state)
{
    (void)state;
    static const unsigned fmts[] = { FMT(16_FLOAT), FMT(16_16_FLOAT), FMT(16_16_16_16_FLOAT), FMT(10_11_11_FLOAT),
                                     FMT(32_32_FLOAT) };
    struct tex_numfmt nf = { .num_format = NORM };
    test_rand_seed(5);
    unsigned checked = 0;
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
        const struct tex_format *f = tex_format_find(fmts[fi]);
        assert_non_null(f);
        uint8_t *texel = malloc(f->bytes);
        assert_non_null(texel);
        for (unsigned c = 0; c < f->comps; c++)
            for (uint32_t code = 0; code < (f->bits[c] == 32 ? 70000u : 1u << f->bits[c]); code++) {
                uint32_t raw[4] = { 0 };
                uint8_t b[16] = { 0 };
                unsigned at = 0;
                for (unsigned k = 0; k < f->comps; k++) {
                    uint32_t m = f->bits[k] == 32 ? 0xFFFFFFFFu : (1u << f->bits[k]) - 1u;
                    raw[k] = k == c ? (f->bits[k] == 32 ? code * 61379u : code) : test_rand() & m;
                    for (unsigned i = 0; i < f->bits[k]; i++)
                        b[(at + i) / 8] |= (uint8_t)(((raw[k] >> i) & 1u) << ((at + i) % 8));
                    at += f->bits[k];
                }
                memcpy(texel, b, f->bytes);
                union eg_vec4 out;
                tex_format_decode(f, &nf, texel, &out);
                for (unsigned k = 0; k < 4; k++) {
                    unsigned n = k < f->comps ? f->bits[k] : 0;
                    if (n == 32 || n == 0) {
                        uint32_t want = n ? raw[k] : k == 3 ? fbits(1.0f) : 0;
                        if (out.u[k] != want)
                            fail_msg("format %u component %u: 0x%08x, want 0x%08x", fmts[fi], k, out.u[k], want);
                        continue;
                    }
                    unsigned mant = n == 16 ? 10 : n - 5;
                    double want = test_small_float_value(raw[k], mant, 5, n == 16);
                    bool neg = n == 16 && (raw[k] >> 15);
                    if (isnan(want) ? !isnan(out.f[k]) || (bool)signbit(out.f[k]) != neg
                                    : (double)out.f[k] != want || (bool)signbit(out.f[k]) != (bool)signbit(want))
                        fail_msg("format %u component %u code 0x%x: %a, by the definition %a", fmts[fi], k, raw[k],
                                 (double)out.f[k], want);
                }
                checked++;
            }
        free(texel);
    }
    assert_int_equal(checked, 65536 + 2 * 65536 + 4 * 65536 + 2 * 2048 + 1024 + 2 * 70000);
}

/* Every raw value of every component of the formats the unit reads through
 * lookup tables (fixed point of at most 8 bits: texture.c view_luts), as
 * UNORM, SNORM (both SRF modes), SCALED and sRGB: read through a view, the
 * same bits as tex_format_decode gives for the texel (the per-texel path,
 * checked above against hand-packed texels), through the identity swizzle
 * and through one with repeats and the constants 0 and 1.0 (SQ_SEL). */
static void table_formats_match_the_decoder(void **state)
{
    (void)state;
    static const unsigned fmts[] = { FMT(8), FMT(4_4), FMT(8_8), FMT(5_6_5), FMT(1_5_5_5), FMT(4_4_4_4),
                                     FMT(8_8_8_8) };
    static const struct { unsigned nfmt, signed_mask; bool no_zero, degamma; } nums[] = {
        { NORM, 0, false, false }, { NORM, 0xF, false, false }, { NORM, 0xF, true, false },
        { NORM, 0x5, false, false }, { SCALED, 0xA, false, false }, { NORM, 0, false, true },
    };
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    unsigned checked = 0;
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (size_t ni = 0; ni < sizeof nums / sizeof nums[0]; ni++) {
            const struct tex_format *f = tex_format_find(fmts[fi]);
            assert_non_null(f);
            /* 256 x 1 texels; texel i holds i in every byte (2-byte
             * formats: i and its complement), so each component sees all
             * its raw values */
            vram_alloc(256 * 4);
            for (unsigned i = 0; i < 256; i++)
                for (unsigned b = 0; b < f->bytes; b++)
                    vram[i * f->bytes + b] = (uint8_t)(b & 1 ? ~i : i);
            struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 256, .height = 1, .pitch = 256,
                               .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = fmts[fi],
                               .nfmt = nums[ni].nfmt, .signed_mask = nums[ni].signed_mask,
                               .no_zero = nums[ni].no_zero, .degamma = nums[ni].degamma, .addr = GPU_BASE };
            static const unsigned swz[2][4] = {
                { V_SQ_SEL__SQ_SEL_X, V_SQ_SEL__SQ_SEL_Y, V_SQ_SEL__SQ_SEL_Z, V_SQ_SEL__SQ_SEL_W },
                { V_SQ_SEL__SQ_SEL_W, V_SQ_SEL__SQ_SEL_0, V_SQ_SEL__SQ_SEL_1, V_SQ_SEL__SQ_SEL_W },
            };
            for (unsigned si = 0; si < 2; si++) {
                memcpy(d.sel, swz[si], sizeof d.sel);
                if (decode(v, &d))
                    fail_msg("format %u: %s", fmts[fi], v->err);
                assert_true(v->lut_ok);
                assert_true(v->lut_bytes == (fmts[fi] == FMT(8_8_8_8)));   /* its bytes straight to the tables */
                for (unsigned i = 0; i < 256; i++) {
                    union eg_vec4 got, dec, want;
                    tex_view_texel(v, i, 0, 0, 0, &got);
                    tex_format_decode(f, &v->num, &vram[i * f->bytes], &dec);
                    for (unsigned c = 0; c < 4; c++)
                        want.u[c] = swz[si][c] <= V_SQ_SEL__SQ_SEL_W ? dec.u[swz[si][c]]
                                    : swz[si][c] == V_SQ_SEL__SQ_SEL_0 ? 0 : fbits(1.0f);
                    if (memcmp(&got, &want, sizeof got))
                        fail_msg("format %u numbers %zu swizzle %u texel %u: %08x %08x %08x %08x, decoder %08x "
                                 "%08x %08x %08x", fmts[fi], ni, si, i, got.u[0], got.u[1], got.u[2], got.u[3],
                                 want.u[0], want.u[1], want.u[2], want.u[3]);
                    checked++;
                }
            }
        }
    assert_int_equal(checked, 2 * 7 * 6 * 256);
    free(v);
}

/* ---- layouts: linear, 1D, 2D against the tiling map ------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Integer formats of each size, so that the bits come back as stored. */
static unsigned int_format(unsigned bpe)
{
    switch (bpe) {
    case 1: return FMT(8);
    case 2: return FMT(16);
    case 4: return FMT(32);
    case 8: return FMT(32_32);
    default: return FMT(32_32_32_32);
    }
}

/* An image of w x h x slices elements of bpe bytes whose every byte says
 * where it is. */
static uint8_t *pattern(unsigned w, unsigned h, unsigned slices, unsigned bpe)
{
    size_t n = (size_t)w * h * slices * bpe;
    uint8_t *img = malloc(n);
    assert_non_null(img);
    for (size_t i = 0; i < n; i++)
        img[i] = (uint8_t)(i * 131u + i / 251u + 7u);
    return img;
}

/* Every texel of `slices` slices read through the view equals the image. */
static void check_texels(const struct tex_view *v, const uint8_t *img, unsigned w, unsigned h, unsigned bpe,
                         unsigned first_slice, unsigned slices, const char *what)
{
    for (unsigned z = 0; z < slices; z++)
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                union eg_vec4 out;
                tex_view_texel(v, x, y, z, 0, &out);
                const uint8_t *e = img + (((size_t)(first_slice + z) * h + y) * w + x) * bpe;
                uint8_t got[16];
                for (unsigned k = 0; k < (bpe + 3) / 4; k++)
                    memcpy(got + 4 * k, &out.u[k], 4);
                uint32_t want = bpe == 1 ? e[0] : bpe == 2 ? (uint32_t)(e[0] | e[1] << 8) : le32(e);
                if (bpe >= 4 ? memcmp(got, e, bpe) != 0 : out.u[0] != want)
                    fail_msg("%s: texel (%u, %u, %u) differs", what, x, y, z);
            }
}

/* The libdrm layout of a single-sample w x h surface of bpe-byte elements. */
static void single_layout(const struct cedar_tiling *t, enum cedar_array_mode mode, unsigned w, unsigned h,
                          unsigned bpe, struct cedar_surface *s)
{
    struct cedar_surface_req req = { .width = w, .height = h, .bpe = bpe, .samples = 1, .mode = mode };
    struct cedar_layout_err lerr;
    if (cedar_surface_layout(&req, t, s, &lerr))
        fail_msg("layout %ux%u bpe %u: %s", w, h, bpe, lerr.msg);
}

static void tiled_textures_follow_the_address_map(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    const enum cedar_array_mode modes[3] = { CEDAR_MODE_LINEAR_ALIGNED, CEDAR_MODE_1D_THIN, CEDAR_MODE_2D_THIN };
    const unsigned sizes[][2] = { { 200, 150 }, { 37, 21 }, { 1, 1 } };
    for (unsigned m = 0; m < 3; m++)
        for (unsigned bpe = 1; bpe <= 16; bpe *= 2)
            for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                unsigned w = sizes[z][0], h = sizes[z][1];
                struct cedar_surface s;
                struct cedar_layout_err lerr;
                single_layout(&t, modes[m], w, h, bpe, &s);
                struct cedar_tile_map map;
                assert_int_equal(cedar_tile_map_init(&map, &s, NULL, &lerr), 0);
                vram_alloc(s.size);
                uint8_t *img = pattern(w, h, 1, bpe);
                uint8_t *lin = calloc((size_t)s.aligned_width * s.aligned_height, bpe);
                assert_non_null(lin);
                for (unsigned y = 0; y < h; y++)
                    memcpy(lin + (size_t)y * s.aligned_width * bpe, img + (size_t)y * w * bpe, (size_t)w * bpe);
                assert_int_equal(cedar_tile(&map, vram, vram_len, lin, (size_t)s.aligned_width * bpe, 0, 0), 0);
                struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .fmt = int_format(bpe), .nfmt = INT,
                                   .addr = GPU_BASE };
                memcpy(d.sel, XYZW, sizeof d.sel);
                tdesc_from_surface(&d, &s);
                char what[96];
                snprintf(what, sizeof what, "%s %ux%u, %u bytes per texel", cedar_array_mode_name(s.mode), w, h, bpe);
                if (decode(v, &d))
                    fail_msg("%s: %s", what, v->err);
                check_texels(v, img, w, h, bpe, 0, 1, what);
                /* libdrm's size is all it needs; a byte less is outside */
                vram_len = s.size - 1;
                assert_int_equal(decode(v, &d), -1);
                if (!strstr(v->err, "not inside one GPU buffer"))
                    fail_msg("%s, one byte short: %s", what, v->err);
                free(img);
                free(lin);
            }
    free(v);
}

/* Slices: 2D arrays, Mesa's layer views (DIM 2D, BASE_ARRAY = LAST_ARRAY =
 * the layer), 3D textures. */
static void array_layers_and_layer_views(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    const unsigned w = 64, h = 40, layers = 3, bpe = 4;
    struct cedar_surface_req req = { .width = w, .height = h, .bpe = bpe, .samples = 1, .mode = CEDAR_MODE_1D_THIN };
    struct cedar_surface s;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_surface_layout(&req, &t, &s, &lerr), 0);
    struct cedar_tile_map map;
    assert_int_equal(cedar_tile_map_init(&map, &s, &(struct cedar_tile_opts){ .slices = layers }, &lerr), 0);
    vram_alloc(map.size);
    uint8_t *img = pattern(w, h, layers, bpe);
    for (unsigned z = 0; z < layers; z++) {
        uint8_t *lin = calloc((size_t)s.aligned_width * s.aligned_height, bpe);
        assert_non_null(lin);
        for (unsigned y = 0; y < h; y++)
            memcpy(lin + (size_t)y * s.aligned_width * bpe, img + (((size_t)z * h + y) * w) * bpe, (size_t)w * bpe);
        assert_int_equal(cedar_tile(&map, vram, vram_len, lin, (size_t)s.aligned_width * bpe, 0, z), 0);
        free(lin);
    }
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY, .depth = layers, .fmt = FMT(32), .nfmt = INT,
                       .last_array = layers - 1, .addr = GPU_BASE };
    memcpy(d.sel, XYZW, sizeof d.sel);
    tdesc_from_surface(&d, &s);
    if (decode(v, &d))
        fail_msg("%s", v->err);
    assert_int_equal(v->res.depth, layers);
    check_texels(v, img, w, h, bpe, 0, layers, "2D array");
    /* layers 1..2 */
    d.base_array = 1;
    assert_int_equal(decode(v, &d), 0);
    assert_int_equal(v->res.depth, 2);
    check_texels(v, img, w, h, bpe, 1, 2, "2D array from layer 1");
    /* a layer view, as Mesa reads one layer of an array (blits) */
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D;
    d.base_array = d.last_array = 2;
    assert_int_equal(decode(v, &d), 0);
    assert_int_equal(v->res.depth, 1);
    check_texels(v, img, w, h, bpe, 2, 1, "layer view of layer 2");
    /* a 3D texture of the same slices */
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_3D;
    d.base_array = d.last_array = 0;
    assert_int_equal(decode(v, &d), 0);
    check_texels(v, img, w, h, bpe, 0, layers, "3D");
    /* layers past the array */
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY;
    d.base_array = 1;
    d.last_array = layers;
    expect_fault(&d, "layers 1..3 (BASE_ARRAY..LAST_ARRAY) of an array of 3");
    /* a layer view whose layer the buffer does not hold */
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D;
    d.base_array = d.last_array = layers;
    expect_fault(&d, "not inside one GPU buffer");
    free(img);
    free(v);
}

/* ---- MSAA textures ------------------------------------------------------------------ */

static void msaa_texture_samples_and_fmask(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    for (unsigned samples = 2; samples <= 8; samples *= 2) {
        const unsigned w = 40, h = 24;
        struct cedar_surface_req req = { .width = w, .height = h, .bpe = 4, .samples = samples,
                                         .mode = CEDAR_MODE_2D_THIN };
        struct cedar_msaa_layout lay;
        struct cedar_layout_err lerr;
        if (cedar_msaa_layout(&req, &t, &lay, &lerr))
            fail_msg("%s", lerr.msg);
        struct cedar_tile_map cmap, fmap;
        assert_int_equal(cedar_tile_map_init(&cmap, &lay.color, NULL, &lerr), 0);
        assert_int_equal(cedar_fmask_map_init(&fmap, &lay.fmask.surf, samples, NULL, &lerr), 0);
        vram_alloc(lay.total_size);
        uint8_t *fm = vram + lay.fmask.offset;
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                for (unsigned s = 0; s < samples; s++) {
                    uint32_t val = x | y << 8 | s << 16 | 0xA5u << 24;
                    memcpy(vram + cedar_tile_addr(&cmap, x, y, s, 0), &val, 4);
                    unsigned frag = (x + 2 * y + s) % samples;
                    for (unsigned p = 0; p < cedar_fmask_planes(&fmap); p++) {
                        uint64_t byte;
                        unsigned bit;
                        cedar_fmask_bit(&fmap, x, y, s, p, 0, &byte, &bit);
                        fm[byte] = (uint8_t)((fm[byte] & ~(1u << bit)) | ((frag >> p & 1u) << bit));
                    }
                }
        unsigned log2s = samples == 2 ? 1 : samples == 4 ? 2 : 3;
        struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA, .fmt = FMT(32), .nfmt = INT,
                           .last_level = log2s, .addr = GPU_BASE, .mip_addr = GPU_BASE + lay.fmask.offset,
                           .fmask_bankh = lay.fmask.bank_height_enc };
        memcpy(d.sel, XYZW, sizeof d.sel);
        tdesc_from_surface(&d, &lay.color);
        if (decode(v, &d))
            fail_msg("%u samples: %s", samples, v->err);
        assert_int_equal(v->res.samples, samples);
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                uint32_t want = 0;
                for (unsigned s = 0; s < samples; s++) {
                    union eg_vec4 out;
                    tex_view_texel(v, x, y, 0, s, &out);
                    if (out.u[0] != (x | y << 8 | s << 16 | 0xA5u << 24))
                        fail_msg("%u samples: sample %u of (%u, %u) = 0x%08x", samples, s, x, y, out.u[0]);
                    want |= ((x + 2 * y + s) % samples) << (4 * s);
                }
                uint32_t got = tex_view_fmask(v, x, y, 0);
                if (got != want)
                    fail_msg("%u samples: FMask of (%u, %u) = 0x%08x, want 0x%08x", samples, x, y, got, want);
            }
        /* no FMask: sample s is fragment s */
        d.mip_addr = 0;
        assert_int_equal(decode(v, &d), 0);
        assert_int_equal(tex_view_fmask(v, 3, 5, 0), samples == 2 ? 0x10u : samples == 4 ? 0x3210u : 0x76543210u);
        /* an FMask the buffer does not hold */
        d.mip_addr = GPU_BASE + ((lay.total_size + 255) & ~(uint64_t)255);
        expect_fault(&d, "FMask at");
        /* MSAA is 2D-tiled */
        d.mip_addr = 0;
        d.array_mode = V_ARRAY_MODE__ARRAY_1D_TILED_THIN1;
        expect_fault(&d, "an MSAA texture is 2D-tiled");
    }
    free(v);
}

/* A depth buffer read as a texture (DEPTH_SAMPLE_ORDER, as Mesa sets it for
 * DB-compatible textures): the samples of a pixel side by side, i.e. sample
 * s of (x, y) at the pixel's address in the single-sample map of
 * S-times-wider elements plus 4 s (addrlib isDepthSampleOrder; the same
 * rule test_render_depth checks for the DB's own map).  Filled through the
 * wide map, read through the unit: 2 and 4 samples of 32-bit, 4 and 8 of
 * 16-bit depth. */
static void depth_layout_textures(void **state)
{
    (void)state;
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    const unsigned w = 64, h = 64;
    /* samples, bytes per sample (Z_32 / Z_16; the wide map takes 16 bytes at most) */
    const unsigned cases[][2] = { { 2, 4 }, { 4, 4 }, { 8, 2 }, { 4, 2 } };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned samples = cases[c][0], bpe = cases[c][1];
        uint32_t mask = bpe == 4 ? 0xFFFFFFFFu : 0xFFFFu;
        struct cedar_surface wide = { 0 };
        wide.mode = CEDAR_MODE_2D_THIN;
        wide.aligned_width = wide.width = w;
        wide.aligned_height = wide.height = h;
        wide.tiling = hd7350();
        wide.bankw = wide.bankh = wide.mtilea = 1;
        wide.tile_split = 1024;
        wide.bpe = bpe * samples;
        wide.samples = 1;
        struct cedar_tile_opts o = { .order = CEDAR_MICRO_NON_DISPLAYABLE, .depth_sample_order = 1 };
        struct cedar_tile_map m;
        struct cedar_layout_err e = { { 0 } };
        if (cedar_tile_map_init(&m, &wide, &o, &e))
            fail_msg("case %u: %s", c, e.msg);
        vram_alloc(m.size);
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                for (unsigned smp = 0; smp < samples; smp++) {
                    uint32_t val = (x | y << 6 | smp << 12 | 0x5Au << 24) & mask;
                    memcpy(vram + cedar_tile_addr(&m, x, y, 0, 0) + bpe * smp, &val, bpe);
                }
        struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA, .width = w, .height = h, .pitch = w,
                           .array_mode = V_ARRAY_MODE__ARRAY_2D_TILED_THIN1, .fmt = bpe == 4 ? FMT(32) : FMT(16),
                           .nfmt = INT, .nondisp = true, .depth_order = true, .tile_split = 4 /* 1024 B */,
                           .banks = 2, .last_level = samples == 2 ? 1 : samples == 4 ? 2 : 3, .addr = GPU_BASE };
        memcpy(d.sel, XYZW, sizeof d.sel);
        if (decode(v, &d))
            fail_msg("case %u: %s", c, v->err);
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                for (unsigned smp = 0; smp < samples; smp++) {
                    union eg_vec4 out;
                    tex_view_texel(v, x, y, 0, smp, &out);
                    if (out.u[0] != ((x | y << 6 | smp << 12 | 0x5Au << 24) & mask))
                        fail_msg("case %u: sample %u of (%u, %u) = 0x%08x", c, smp, x, y, out.u[0]);
                }
    }
    free(v);
}

/* ---- through the interpreter: address modes, bilinear weights, borders ---------- */

struct unit_env {
    struct vc_regs *regs;
    struct tex_unit *unit;
};

static int cb_res(void *c, unsigned r, struct eg_tex_resource *o, char *m, size_t n)
{
    return tex_unit_resource(((struct unit_env *)c)->unit, r, o, m, n);
}
static int cb_samp(void *c, unsigned s, unsigned r, struct eg_tex_sampler *o, char *m, size_t n)
{
    return tex_unit_sampler(((struct unit_env *)c)->unit, s, r, o, m, n);
}
static int cb_texel(void *c, unsigned r, int x, int y, int z, unsigned s, union eg_vec4 *o, char *m, size_t n)
{
    return tex_unit_texel(((struct unit_env *)c)->unit, r, x, y, z, s, o, m, n);
}
static int cb_texel_level(void *c, unsigned r, unsigned l, int x, int y, int z, union eg_vec4 *o, char *m, size_t n)
{
    return tex_unit_texel_level(((struct unit_env *)c)->unit, r, l, x, y, z, o, m, n);
}
static int cb_fmask(void *c, unsigned r, int x, int y, int z, uint32_t *o, char *m, size_t n)
{
    return tex_unit_fmask(((struct unit_env *)c)->unit, r, x, y, z, o, m, n);
}
static int cb_reader(void *c, unsigned r, struct eg_texel_reader *o, char *m, size_t n)
{
    return tex_unit_reader(((struct unit_env *)c)->unit, r, o, m, n);
}

static void unit_env_init(struct unit_env *e)
{
    e->regs = calloc(1, sizeof *e->regs);
    e->unit = tex_unit_new();
    assert_non_null(e->regs);
    assert_non_null(e->unit);
}

static void unit_env_free(struct unit_env *e)
{
    free(e->regs);
    tex_unit_free(e->unit);
}

static void set_resource(struct unit_env *e, unsigned slot, const struct tdesc *d)
{
    tex_words(d, &e->regs->resource[slot * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS]);
}

static void set_sampler(struct unit_env *e, unsigned slot, unsigned clamp_x, unsigned filter, unsigned border)
{
    uint32_t *w = &e->regs->sampler[slot * V_SQ_STAGE_LAYOUT__SAMPLER_DWORDS];
    w[0] = S_SQ_TEX_SAMPLER_WORD0__CLAMP_X(clamp_x) |
           S_SQ_TEX_SAMPLER_WORD0__CLAMP_Y(V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL) |
           S_SQ_TEX_SAMPLER_WORD0__CLAMP_Z(V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL) |
           S_SQ_TEX_SAMPLER_WORD0__XY_MAG_FILTER(filter) | S_SQ_TEX_SAMPLER_WORD0__XY_MIN_FILTER(filter) |
           S_SQ_TEX_SAMPLER_WORD0__BORDER_COLOR_TYPE(border);
    w[1] = 0;
    w[2] = S_SQ_TEX_SAMPLER_WORD2__TYPE(1);
}

/* The border colour writes Mesa's evergreen_emit_sampler_states makes:
 * TD_<stage>_SAMPLER0_BORDER_INDEX = the sampler, then RED .. ALPHA. */
static void write_border(struct vc_regs *r, uint32_t index_reg, unsigned sampler, const float rgba[4])
{
    r->config[(index_reg - SPACE_CONFIG_START) / 4] = sampler;
    for (unsigned c = 0; c < 4; c++) {
        uint32_t off = index_reg + 4 * (c + 1);
        r->config[(off - SPACE_CONFIG_START) / 4] = fbits(rgba[c]);
        vc_regs_latch_border(r, off, fbits(rgba[c]));
    }
}

/* A pixel shader: `inst` of resource 0 / sampler 0 from R0 (through the
 * source selects src_sel) into R1, exported; x and y normalised when
 * `normalized`, z never. */
static size_t tex_ps_sel(uint32_t *w, unsigned inst, unsigned inst_mod, bool normalized, bool y_normalized,
                         const uint8_t src_sel[4])
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_tex_clause(&a);
    struct eg_tex t = { .inst = inst, .inst_mod = inst_mod, .src_gpr = 0, .dst_gpr = 1, .dst_sel = EG_SWZ_XYZW,
                        .coord_normalized = { normalized, y_normalized, false, false } };
    memcpy(t.src_sel, src_sel, sizeof t.src_sel);
    eg_asm_tex(&a, &t);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 1, .sel = EG_SWZ_XYZW,
                                           .done = true });
    if (eg_asm_finish(&a, true, w, 64, &n))
        fail_msg("%s", a.err);
    return n;
}

static size_t tex_ps_coords(uint32_t *w, unsigned inst, unsigned inst_mod, bool normalized, bool y_normalized)
{
    const uint8_t xyzw[4] = EG_SWZ_XYZW;
    return tex_ps_sel(w, inst, inst_mod, normalized, y_normalized, xyzw);
}

static size_t tex_ps(uint32_t *w, unsigned inst, unsigned inst_mod, bool normalized)
{
    return tex_ps_coords(w, inst, inst_mod, normalized, normalized);
}

/* The shader run twice: with the unit's per-texel callbacks and with its
 * texel reader (tex_unit_reader, as the renderer runs it): both give the
 * same bits, or the same fault. */
static int run_ps(struct unit_env *e, const uint32_t *w, size_t n, union eg_vec4 r0, union eg_vec4 *out,
                  struct eg_shader_err *err)
{
    struct eg_shader_env env = { .ctx = e, .mem = &mem, .tex_resource = cb_res, .tex_sampler = cb_samp,
                                 .texel = cb_texel, .texel_level = cb_texel_level, .tex_fmask = cb_fmask };
    struct eg_program ps = { "PS", w, n };
    int r[2];
    struct eg_ps_output o[2];
    struct eg_shader_err e2;
    for (int k = 0; k < 2; k++) {
        union eg_vec4 g = r0;
        struct eg_ps_input in = { &g, 1, NULL, 0 };
        env.texel_reader = k ? cb_reader : NULL;
        memset(&o[k], 0, sizeof o[k]);
        r[k] = eg_run_ps(&ps, &env, &in, &o[k], k ? err : &e2);
    }
    if (r[0] != r[1] || (r[0] && strcmp(e2.msg, err->msg)) ||
        (!r[0] && memcmp(&o[0].color[0], &o[1].color[0], sizeof o[0].color[0])))
        fail_msg("through the texel reader: %d (%s), %08x %08x %08x %08x; per texel: %d (%s), %08x %08x %08x %08x",
                 r[1], r[1] ? err->msg : "", o[1].color[0].u[0], o[1].color[0].u[1], o[1].color[0].u[2],
                 o[1].color[0].u[3], r[0], r[0] ? e2.msg : "", o[0].color[0].u[0], o[0].color[0].u[1],
                 o[0].color[0].u[2], o[0].color[0].u[3]);
    *out = o[1].color[0];
    return r[1];
}

static union eg_vec4 sample_at(struct unit_env *e, const uint32_t *w, size_t n, float u)
{
    union eg_vec4 r0 = { .f = { u, 0.5f, 0, 0 } }, out;
    struct eg_shader_err err;
    if (run_ps(e, w, n, r0, &out, &err))
        fail_msg("%s", err.msg);
    return out;
}

static void expect_rgba(union eg_vec4 got, float r, float g, float b, float a, const char *what)
{
    const float want[4] = { r, g, b, a };
    for (int c = 0; c < 4; c++)
        if (fabsf(got.f[c] - want[c]) > 1e-6f)
            fail_msg("%s: %g %g %g %g, want %g %g %g %g", what, (double)got.f[0], (double)got.f[1],
                     (double)got.f[2], (double)got.f[3], (double)r, (double)g, (double)b, (double)a);
}

/* Texels read through the unit (tex_unit_texel: level 0 through the micro
 * tiles' runs the unit keeps per slot) equal the image: 1D and 2D tiling,
 * 1..16 bytes per texel, a 2D array's layers and a layer view of it; each
 * draw reads every texel in a random order (a tile's runs are made by the
 * first read of it), the next draw of the same layout reuses them, also
 * when the texture moves (the runs are offsets from its base), and another
 * layout in the slot gets its own.  Each texel is read both through
 * tex_unit_texel and through the slot's texel reader (tex_unit_reader: the
 * view and runs found once per draw), which faults as the unit does past
 * the view.  The image is placed by cedar_tile. */
static void unit_texels_through_kept_runs(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    struct unit_env e;
    unit_env_init(&e);
    test_rand_seed(0x7e1f);
    const enum cedar_array_mode modes[2] = { CEDAR_MODE_1D_THIN, CEDAR_MODE_2D_THIN };
    const unsigned sizes[][3] = { { 200, 150, 1 }, { 37, 21, 3 }, { 64, 64, 2 } };  /* w, h, layers */
    unsigned checked = 0, many_readers = 0;
    for (unsigned m = 0; m < 2; m++)
        for (unsigned bpe = 1; bpe <= 16; bpe *= 2)
            for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                unsigned w = sizes[z][0], h = sizes[z][1], layers = sizes[z][2];
                struct cedar_surface s;
                struct cedar_layout_err lerr;
                single_layout(&t, modes[m], w, h, bpe, &s);
                struct cedar_tile_map map;
                assert_int_equal(cedar_tile_map_init(&map, &s, &(struct cedar_tile_opts){ .slices = layers }, &lerr), 0);
                /* two copies: at GPU_BASE and one 64 KiB later */
                const uint64_t moved = 65536;
                size_t span = (size_t)((map.size + moved - 1) / moved * moved);
                vram_alloc(span + map.size);
                uint8_t *img = pattern(w, h, layers, bpe);
                uint8_t *lin = calloc((size_t)s.aligned_width * s.aligned_height, bpe);
                assert_non_null(lin);
                for (unsigned l = 0; l < layers; l++) {
                    for (unsigned y = 0; y < h; y++)
                        memcpy(lin + (size_t)y * s.aligned_width * bpe, img + (((size_t)l * h + y) * w) * bpe,
                               (size_t)w * bpe);
                    assert_int_equal(cedar_tile(&map, vram, map.size, lin, (size_t)s.aligned_width * bpe, 0, l), 0);
                }
                memcpy(vram + span, vram, map.size);
                struct tdesc d = { .dim = layers > 1 ? V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY : V_SQ_TEX_DIM__SQ_TEX_DIM_2D,
                                   .depth = layers, .last_array = layers - 1, .fmt = int_format(bpe), .nfmt = INT,
                                   .addr = GPU_BASE };
                memcpy(d.sel, XYZW, sizeof d.sel);
                tdesc_from_surface(&d, &s);
                /* draws: at the base, again, moved, a layer view of the last layer */
                for (unsigned draw = 0; draw < 4; draw++) {
                    unsigned first = 0, n = layers;
                    d.addr = GPU_BASE + (draw >= 2 ? span : 0);
                    if (draw == 3) {
                        d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D;
                        d.base_array = d.last_array = first = layers - 1;
                        n = 1;
                    }
                    set_resource(&e, 5, &d);
                    tex_unit_begin(e.unit, e.regs, &mem, &t);
                    struct eg_texel_reader rd;
                    char rmsg[200];
                    if (tex_unit_reader(e.unit, 5, &rd, rmsg, sizeof rmsg))
                        fail_msg("%s", rmsg);
                    size_t count = (size_t)w * h * n;
                    uint32_t *order = malloc(count * sizeof *order);
                    assert_non_null(order);
                    for (size_t i = 0; i < count; i++)
                        order[i] = (uint32_t)i;
                    for (size_t i = count; i > 1; i--) {
                        size_t j = test_rand() % i;
                        uint32_t tmp = order[i - 1];
                        order[i - 1] = order[j];
                        order[j] = tmp;
                    }
                    for (size_t i = 0; i < count; i++) {
                        unsigned x = order[i] % w, y = order[i] / w % h, l = order[i] / w / h;
                        /* through tex_unit_texel and (odd / even draws first) the slot's reader */
                        for (unsigned how = 0; how < 2; how++) {
                            union eg_vec4 out;
                            char msg[200];
                            bool via_reader = (how + draw) & 1;
                            if (via_reader ? rd.read(rd.ctx, 0, (int)x, (int)y, (int)l, 0, &out, msg, sizeof msg)
                                           : tex_unit_texel(e.unit, 5, (int)x, (int)y, (int)l, 0, &out, msg, sizeof msg))
                                fail_msg("%s", msg);
                            const uint8_t *want = img + (((size_t)(first + l) * h + y) * w + x) * bpe;
                            uint8_t got[16];
                            for (unsigned k = 0; k < 4; k++)
                                memcpy(got + 4 * k, &out.u[k], 4);
                            /* an integer format of bpe bytes: the bits as stored, from X on */
                            bool same = bpe >= 4 ? memcmp(got, want, bpe) == 0
                                      : out.u[0] == (bpe == 1 ? want[0] : (uint32_t)(want[0] | want[1] << 8));
                            if (!same)
                                fail_msg("%s %ux%ux%u, %u bytes, draw %u%s: texel (%u, %u, %u) differs",
                                         cedar_array_mode_name(s.mode), w, h, layers, bpe, draw,
                                         via_reader ? ", texel reader" : "", x, y, l);
                            checked++;
                        }
                    }
                    /* read_many (a reader with kept runs: the tiled
                     * layouts): the same texels, 1..64 at a time, in the
                     * shuffled order; one past the view in a batch: declined */
                    if (rd.read_many) {
                        many_readers++;
                        for (size_t i = 0; i < count;) {
                            unsigned nb = 1 + (unsigned)(test_rand() % EG_TEX_READ_MANY_MAX);
                            if (nb > count - i)
                                nb = (unsigned)(count - i);
                            int32_t bx[EG_TEX_READ_MANY_MAX], by[EG_TEX_READ_MANY_MAX], bz[EG_TEX_READ_MANY_MAX];
                            union eg_vec4 bout[EG_TEX_READ_MANY_MAX];
                            for (unsigned k = 0; k < nb; k++) {
                                uint32_t o = order[i + k];
                                bx[k] = (int32_t)(o % w), by[k] = (int32_t)(o / w % h), bz[k] = (int32_t)(o / w / h);
                            }
                            assert_int_equal(rd.read_many(rd.ctx, nb, bx, by, bz, bout), 0);
                            for (unsigned k = 0; k < nb; k++) {
                                union eg_vec4 one;
                                char msg[200];
                                if (tex_unit_texel(e.unit, 5, bx[k], by[k], bz[k], 0, &one, msg, sizeof msg))
                                    fail_msg("%s", msg);
                                if (memcmp(&one, &bout[k], sizeof one))
                                    fail_msg("%s %ux%ux%u, %u bytes, draw %u: read_many's texel (%d, %d, %d) differs",
                                             cedar_array_mode_name(s.mode), w, h, layers, bpe, draw, bx[k], by[k],
                                             bz[k]);
                            }
                            if (nb > 1) {
                                unsigned k = (unsigned)(test_rand() % nb);
                                int32_t keep = bx[k];
                                bx[k] = (int32_t)w;
                                assert_int_equal(rd.read_many(rd.ctx, nb, bx, by, bz, bout), 1);
                                bx[k] = keep;
                                keep = bz[k];
                                bz[k] = (int32_t)n;
                                assert_int_equal(rd.read_many(rd.ctx, nb, bx, by, bz, bout), 1);
                                bz[k] = keep;
                            }
                            i += nb;
                        }
                    }
                    free(order);
                    /* past the view: the reader faults as the unit does */
                    const int past[][4] = { { (int)w, 0, 0, 0 }, { 0, (int)h, 0, 0 }, { 0, 0, (int)n, 0 },
                                            { -1, 0, 0, 0 }, { 0, 0, 0, 1 } };   /* x, y, layer, sample */
                    for (unsigned k = 0; k < sizeof past / sizeof past[0]; k++) {
                        union eg_vec4 out;
                        char m1[200], m2[200];
                        assert_int_equal(tex_unit_texel(e.unit, 5, past[k][0], past[k][1], past[k][2],
                                                        (unsigned)past[k][3], &out, m1, sizeof m1), -1);
                        assert_int_equal(rd.read(rd.ctx, 0, past[k][0], past[k][1], past[k][2], (unsigned)past[k][3],
                                                 &out, m2, sizeof m2), -1);
                        assert_string_equal(m1, m2);
                    }
                    d.dim = layers > 1 ? V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY : V_SQ_TEX_DIM__SQ_TEX_DIM_2D;
                    d.base_array = 0;
                    d.last_array = layers - 1;
                }
                free(img);
                free(lin);
            }
    assert_true(checked > 2000000);
    assert_int_equal(many_readers, 2 * 5 * 3 * 4);  /* every view here has kept runs (tiled, 8-texel aligned) */
    unit_env_free(&e);
}

#define T(k) (texels[k] / 255.0f)
static const uint8_t texels[4] = { 0, 64, 128, 255 };

static void address_modes_bilinear_and_borders(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    vram_alloc(256);
    memcpy(vram, texels, 4);
    /* a 4x1 R8 texture read as (r, r, r, r) */
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 4, .height = 1, .pitch = 8,
                       .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(8), .nfmt = NORM,
                       .sel = { SX, SX, SX, SX }, .addr = GPU_BASE };
    set_resource(&e, 0, &d);
    const float border[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    write_border(e.regs, REG_TD_PS_SAMPLER0_BORDER_INDEX, 0, border);
    uint32_t w[64];
    size_t n = tex_ps(w, V_SQ_TEX_INST__SAMPLE, 0, true);
    const unsigned POINT = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
    const unsigned LINEAR = V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR;
    const unsigned REG = V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_REGISTER;
    /* point sampling: u in [0, 1) across 4 texels, x = 4u */
    const struct {
        unsigned mode;
        float u;
        int texel;      /* -1: the border */
    } points[] = {
        { V_SQ_TEX_CLAMP__SQ_TEX_WRAP, 0.375f, 1 },
        { V_SQ_TEX_CLAMP__SQ_TEX_WRAP, 1.125f, 0 },                 /* x 4.5 -> 4 -> 0 */
        { V_SQ_TEX_CLAMP__SQ_TEX_WRAP, -0.125f, 3 },                /* x -0.5 -> -1 -> 3 */
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR, 1.375f, 2 },               /* x 5 -> 8 - 1 - 5 */
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR, -0.375f, 1 },              /* x -2 -> 6 -> 1 */
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, 2.0f, 3 },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, -1.0f, 0 },
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_LAST_TEXEL, -0.375f, 1 }, /* x -2 -> 1 */
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_LAST_TEXEL, -2.0f, 3 },   /* x -8 -> 7 -> 3 */
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 1.125f, -1 },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 0.875f, 3 },
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_BORDER, -0.375f, 1 },
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_BORDER, -1.125f, -1 },    /* x -5 -> 4: outside */
        /* half border (GL_CLAMP): x clamped to [0, 4] first, so never the border */
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, 1.0f, 3 },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, 7.0f, 3 },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, -7.0f, 0 },
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER, -0.375f, 1 }, /* x 1.5 */
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER, -2.0f, 3 },   /* x 8 -> 4 */
    };
    for (size_t k = 0; k < sizeof points / sizeof points[0]; k++) {
        set_sampler(&e, 0, points[k].mode, POINT, REG);
        tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
        union eg_vec4 got = sample_at(&e, w, n, points[k].u);
        char what[64];
        snprintf(what, sizeof what, "point, mode %u, u %g", points[k].mode, (double)points[k].u);
        int tx = points[k].texel;
        if (tx < 0)
            expect_rgba(got, border[0], border[1], border[2], border[3], what);
        else
            expect_rgba(got, T(tx), T(tx), T(tx), T(tx), what);
    }
    /* bilinear: texel centres at x + 0.5; weights by hand */
    const struct {
        unsigned mode;
        float u;
        float want[4];
    } lin[] = {
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, 0.25f, { 32 / 255.0f, 32 / 255.0f, 32 / 255.0f, 32 / 255.0f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, 0.3125f, { 48 / 255.0f, 48 / 255.0f, 48 / 255.0f, 48 / 255.0f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, 0.375f, { 64 / 255.0f, 64 / 255.0f, 64 / 255.0f, 64 / 255.0f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, 0.0f, { 0, 0, 0, 0 } },
        { V_SQ_TEX_CLAMP__SQ_TEX_WRAP, 0.0f, { 127.5f / 255, 127.5f / 255, 127.5f / 255, 127.5f / 255 } },
        /* half texel 3, half border */
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 1.0f, { 0.625f, 0.75f, 0.875f, 1.0f } },
        /* past the edge: CLAMP_BORDER all border, half border at most half */
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 1.5f, { 0.25f, 0.5f, 0.75f, 1.0f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, 1.5f, { 0.625f, 0.75f, 0.875f, 1.0f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER, -0.5f, { 0.125f, 0.25f, 0.375f, 0.5f } },
        { V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER, -1.0f, { 0.625f, 0.75f, 0.875f, 1.0f } },
    };
    for (size_t k = 0; k < sizeof lin / sizeof lin[0]; k++) {
        set_sampler(&e, 0, lin[k].mode, LINEAR, REG);
        tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
        char what[64];
        snprintf(what, sizeof what, "bilinear, mode %u, u %g", lin[k].mode, (double)lin[k].u);
        expect_rgba(sample_at(&e, w, n, lin[k].u), lin[k].want[0], lin[k].want[1], lin[k].want[2], lin[k].want[3],
                    what);
    }
    /* the anisotropic filters filter as their base */
    set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_ANISO_BILINEAR, 0);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    expect_rgba(sample_at(&e, w, n, 0.25f), 32 / 255.0f, 32 / 255.0f, 32 / 255.0f, 32 / 255.0f, "aniso bilinear");
    /* the constant border colours */
    const struct {
        unsigned type;
        float want[4];
    } types[] = {
        { V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_TRANS_BLACK, { 0, 0, 0, 0 } },
        { V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_OPAQUE_BLACK, { 0, 0, 0, 1 } },
        { V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_OPAQUE_WHITE, { 1, 1, 1, 1 } },
    };
    for (size_t k = 0; k < 3; k++) {
        set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, POINT, types[k].type);
        tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
        expect_rgba(sample_at(&e, w, n, 1.5f), types[k].want[0], types[k].want[1], types[k].want[2], types[k].want[3],
                    "border type");
    }
    unit_env_free(&e);
}

/* The layer of an array is round(coordinate) clamped to the layers, whatever
 * the address mode (OpenGL 4.6, 8.14.2): a 1D array's in y, a 2D array's
 * in z; x normalised, the layer not (as Mesa's lowering sets them). */
static void array_layer_coordinates(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    vram_alloc(256);
    for (unsigned k = 0; k < 3; k++)
        for (unsigned x = 0; x < 4; x++)
            vram[k * 8 + x] = (uint8_t)(16 * k + x); /* slices of 8 bytes: pitch 8, one row */
    uint32_t *sw = &e.regs->sampler[0];
    sw[0] = S_SQ_TEX_SAMPLER_WORD0__CLAMP_X(V_SQ_TEX_CLAMP__SQ_TEX_WRAP) |
            S_SQ_TEX_SAMPLER_WORD0__CLAMP_Y(V_SQ_TEX_CLAMP__SQ_TEX_WRAP) |
            S_SQ_TEX_SAMPLER_WORD0__CLAMP_Z(V_SQ_TEX_CLAMP__SQ_TEX_MIRROR);
    const struct {
        float layer;
        unsigned want;
    } cases[] = { { 0.0f, 0 }, { 1.4f, 1 }, { 1.5f, 2 }, { 0.49f, 0 }, { -3.0f, 0 }, { 7.0f, 2 }, { 2.6f, 2 } };
    for (int two_d = 0; two_d < 2; two_d++) {
        struct tdesc d = { .dim = two_d ? V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY : V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY,
                           .width = 4, .height = 1, .depth = 3, .last_array = 2, .pitch = 8,
                           .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(8), .nfmt = INT,
                           .addr = GPU_BASE };
        memcpy(d.sel, XYZW, sizeof d.sel);
        set_resource(&e, 0, &d);
        tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
        uint32_t w[64];
        size_t n = tex_ps_coords(w, V_SQ_TEX_INST__SAMPLE, 0, true, two_d);
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            /* x: texel 1 (u 0.375); 2D: y the row's centre; the layer in z for
             * both (Mesa's sfn puts a 1D array's layer in z too:
             * LowerTexToBackend::get_src_coords) */
            union eg_vec4 r0 = { .f = { 0.375f, 0.5f, cases[k].layer, 0 } }, out;
            struct eg_shader_err err;
            if (run_ps(&e, w, n, r0, &out, &err))
                fail_msg("%s", err.msg);
            if (out.u[0] != 16 * cases[k].want + 1)
                fail_msg("%s array, layer %g: texel %u, want layer %u", two_d ? "2D" : "1D",
                         (double)cases[k].layer, out.u[0], cases[k].want);
        }
    }
    unit_env_free(&e);
}


/* Mip levels: a 64x32 chain of FMT_32_FLOAT laid out by
 * cedar_miptree_layout (equal to libdrm's, test_layout_libdrm), texel
 * (x, y) of level l holding 1000 l + 100 y + x, written through the
 * level's own address map; the resource as Mesa programs it (WORD2 level
 * 0, WORD3 level 1, BASE_LEVEL, LAST_LEVEL).  The level each fetch reads
 * is the one OpenGL 4.6 8.14.3 picks (computed here from the spec's
 * formulas): SAMPLE_L with LOD_BIAS and MIN/MAX_LOD, MIP_FILTER NONE /
 * POINT / LINEAR; LD's level from w; GET_TEXTURE_RESINFO from BASE_LEVEL. */
static float mip_value(unsigned l, float u, float v)
{
    unsigned w = 64 >> l ? 64 >> l : 1, h = 32 >> l ? 32 >> l : 1;
    return (float)(1000 * l + 100 * (unsigned)floorf(v * (float)h) + (unsigned)floorf(u * (float)w));
}

static void mip_levels(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    const enum cedar_array_mode modes[3] = { CEDAR_MODE_LINEAR_ALIGNED, CEDAR_MODE_1D_THIN, CEDAR_MODE_2D_THIN };
    const unsigned last = 6;
    struct unit_env e;
    unit_env_init(&e);
    for (unsigned m = 0; m < 3; m++) {
        struct cedar_surface_req req = { .width = 64, .height = 32, .bpe = 4, .samples = 1, .mode = modes[m] };
        struct cedar_surface s;
        struct cedar_layout_err lerr;
        assert_int_equal(cedar_surface_layout(&req, &t, &s, &lerr), 0);
        struct cedar_miptree_req mr = { .width = 64, .height = 32, .depth = 1, .array_size = 1, .last_level = last,
                                        .bpe = 4, .mode = s.mode, .tile_split = s.tile_split, .bankw = s.bankw,
                                        .bankh = s.bankh, .mtilea = s.mtilea, .tiling = t };
        struct cedar_miptree mt;
        assert_int_equal(cedar_miptree_layout(&mr, &mt, &lerr), 0);
        vram_alloc(mt.size);
        for (unsigned l = 0; l <= last; l++) {
            const struct cedar_mip_level *ml = &mt.level[l];
            struct cedar_surface ls = s;
            ls.mode = ml->mode;
            ls.aligned_width = ls.width = ml->pitch;
            ls.aligned_height = ls.height = ml->rows;
            if (ml->mode != CEDAR_MODE_2D_THIN)
                ls.tile_split = 0, ls.bankw = ls.bankh = ls.mtilea = 1;
            struct cedar_tile_map map;
            assert_int_equal(cedar_tile_map_init(&map, &ls, NULL, &lerr), 0);
            assert_true(map.slice_size == ml->slice_size);
            unsigned w = 64 >> l ? 64 >> l : 1, h = 32 >> l ? 32 >> l : 1;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    float f = (float)(1000 * l + 100 * y + x);
                    memcpy(vram + ml->offset + cedar_tile_addr(&map, x, y, 0, 0), &f, 4);
                }
        }
        for (unsigned base = 0; base < 3; base++) {
            struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .fmt = FMT(32_FLOAT), .nfmt = NORM,
                               .addr = GPU_BASE, .mip_addr = GPU_BASE + mt.level[1].offset, .base_level = base,
                               .last_level = last };
            memcpy(d.sel, XYZW, sizeof d.sel);
            tdesc_from_surface(&d, &s);
            set_resource(&e, 0, &d);
            const struct { unsigned mip; float lod, bias, min, max; } cases[] = {
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 0.0f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 0.5f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 0.75f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 2.4f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 1.0f, 1.5f, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 9.0f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 5.0f, 0, 0, 2.25f },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, -3.0f, 0, 1.0f, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT, 3.0f, -2.0f, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE, 3.0f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR, 1.25f, 0, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR, 2.5f, 0.25f, 0, 15 },
                { V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR, 7.0f, 0, 0, 15 },
            };
            uint32_t w[64];
            size_t n = tex_ps(w, V_SQ_TEX_INST__SAMPLE_L, 0, true);
            for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
                uint32_t *sw = &e.regs->sampler[0];
                sw[0] = S_SQ_TEX_SAMPLER_WORD0__CLAMP_X(V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL) |
                        S_SQ_TEX_SAMPLER_WORD0__CLAMP_Y(V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL) |
                        S_SQ_TEX_SAMPLER_WORD0__MIP_FILTER(cases[k].mip);
                sw[1] = S_SQ_TEX_SAMPLER_WORD1__MIN_LOD((unsigned)(cases[k].min * 256)) |
                        S_SQ_TEX_SAMPLER_WORD1__MAX_LOD((unsigned)(cases[k].max * 256));
                sw[2] = S_SQ_TEX_SAMPLER_WORD2__LOD_BIAS((int)(cases[k].bias * 256)) | S_SQ_TEX_SAMPLER_WORD2__TYPE(1);
                tex_unit_begin(e.unit, e.regs, &mem, &t);
                const float u = 0.3f, v = 0.6f;
                union eg_vec4 r0 = { .f = { u, v, 0, cases[k].lod } }, out;
                struct eg_shader_err err;
                if (run_ps(&e, w, n, r0, &out, &err))
                    fail_msg("%s", err.msg);
                /* OpenGL: lambda = clamp(lod + bias, min, max); levels base .. last */
                float lam = cases[k].lod + cases[k].bias;
                lam = lam < cases[k].min ? cases[k].min : lam > cases[k].max ? cases[k].max : lam;
                float want;
                if (cases[k].mip == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_NONE || lam <= 0.0f) {
                    want = mip_value(base, u, v);
                } else if (cases[k].mip == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT) {
                    unsigned dl = lam <= 0.5f ? base : base + (unsigned)ceilf(lam + 0.5f) - 1;
                    want = mip_value(dl > last ? last : dl, u, v);
                } else {
                    unsigned d1 = base + (unsigned)floorf(lam);
                    float fr = lam - floorf(lam);
                    if (d1 >= last)
                        want = mip_value(last, u, v);
                    else
                        want = (1 - fr) * mip_value(d1, u, v) + fr * mip_value(d1 + 1, u, v);
                }
                if (fabsf(out.f[0] - want) > 1e-3f * fabsf(want) + 1e-3f)
                    fail_msg("%s, base %u, case %zu: %g, want %g", cedar_array_mode_name(s.mode), base, k,
                             (double)out.f[0], (double)want);
            }
            /* LD: level base + w, integer texel coordinates; past LAST_LEVEL zeros */
            n = tex_ps(w, V_SQ_TEX_INST__LD, 0, false);
            for (unsigned lod = 0; lod + base <= last + 1; lod++) {
                union eg_vec4 r0 = { .u = { 1, 0, 0, lod } }, out;
                struct eg_shader_err err;
                if (run_ps(&e, w, n, r0, &out, &err))
                    fail_msg("%s", err.msg);
                unsigned l = base + lod;
                /* texel (1, 0): outside a level one texel wide, so zeros there */
                float want = l > last || (64 >> l) <= 1 ? 0.0f : (float)(1000 * l + 1);
                if (out.f[0] != want)
                    fail_msg("LD level %u: %g, want %g", l, (double)out.f[0], (double)want);
            }
            /* resinfo: level base + 1's size, and the levels base .. last */
            n = tex_ps(w, V_SQ_TEX_INST__GET_TEXTURE_RESINFO, 0, false);
            union eg_vec4 r0 = { .u = { 1, 1, 1, 1 } }, out;
            struct eg_shader_err err;
            if (run_ps(&e, w, n, r0, &out, &err))
                fail_msg("%s", err.msg);
            assert_int_equal(out.u[0], 64u >> (base + 1));
            assert_int_equal(out.u[1], 32u >> (base + 1));
            assert_int_equal(out.u[3], last - base + 1);
        }
        /* level 2 one byte short of its GPU buffer: levels 0 and 1 read,
         * a fetch from level 2 faults naming it */
        struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .fmt = FMT(32_FLOAT), .nfmt = NORM, .addr = GPU_BASE,
                           .mip_addr = GPU_BASE + mt.level[1].offset, .last_level = 2 };
        memcpy(d.sel, XYZW, sizeof d.sel);
        tdesc_from_surface(&d, &s);
        set_resource(&e, 0, &d);
        uint64_t full = vram_len;
        vram_len = mt.level[2].offset + mt.level[2].slice_size - 1;
        tex_unit_begin(e.unit, e.regs, &mem, &t);
        uint32_t w[64];
        size_t n = tex_ps(w, V_SQ_TEX_INST__LD, 0, false);
        struct eg_shader_err err;
        union eg_vec4 out;
        assert_int_equal(run_ps(&e, w, n, (union eg_vec4){ .u = { 0, 0, 0, 1 } }, &out, &err), 0);
        assert_true(out.f[0] == 1000.0f);
        assert_int_equal(run_ps(&e, w, n, (union eg_vec4){ .u = { 0, 0, 0, 2 } }, &out, &err), -1);
        if (!strstr(err.msg, "mip level 2") || !strstr(err.msg, "not inside one GPU buffer"))
            fail_msg("%s", err.msg);
        vram_len = full;
    }
    unit_env_free(&e);
}


/* A pixel shader: `inst` (INST_MOD m) of resource 0 / sampler 0 from R0 into
 * R1 with destination selects dsel and offsets (the instruction's fields,
 * in Mesa's half texels), x and y normalized. */
static size_t tex_ps_full(uint32_t *w, unsigned inst, unsigned m, const uint8_t dsel[4], int ox, int oy)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_tex_clause(&a);
    struct eg_tex t = { .inst = inst, .inst_mod = m, .src_gpr = 0, .src_sel = EG_SWZ_XYZW, .dst_gpr = 1,
                        .coord_normalized = { true, true, false, false }, .offset = { ox, oy, 0 } };
    memcpy(t.dst_sel, dsel, 4);
    eg_asm_tex(&a, &t);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 1, .sel = EG_SWZ_XYZW,
                                           .done = true });
    if (eg_asm_finish(&a, true, w, 64, &n))
        fail_msg("%s", a.err);
    return n;
}

/* One SAMPLE from resource 0 / sampler 0 at R0 = (x, y, z, 0). */
static int sample_xyz(struct unit_env *e, const struct cedar_tiling *t, float x, float y, float z, union eg_vec4 *out,
                      struct eg_shader_err *err)
{
    tex_unit_begin(e->unit, e->regs, &mem, t);
    uint32_t code[64];
    const uint8_t xyzw[4] = { 0, 1, 2, 3 };
    size_t n = tex_ps_full(code, V_SQ_TEX_INST__SAMPLE, 0, xyzw, 0, 0);
    return run_ps(e, code, n, (union eg_vec4){ .f = { x, y, z, 0 } }, out, err);
}

/* Cube maps as Mesa's r600 addresses them (sfn_nir_lower_tex.cpp): x, y
 * are the face coordinates plus 1 (OpenGL 4.6 8.13's s_face + 1, t_face +
 * 1), z the face + 8 * the cube of an array; TEX_DEPTH + 1 cubes of six
 * face layers each.  Texel (i, j) of layer L holds 10 L + i + 2 j. */
static void cube_faces_and_cubes(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    struct cedar_tiling t = hd7350();
    const unsigned pitch = 64, slice = pitch * 2 * 4;
    vram_alloc(12 * slice);
    for (unsigned l = 0; l < 12; l++)
        for (unsigned j = 0; j < 2; j++)
            for (unsigned i = 0; i < 2; i++) {
                float v = (float)(10 * l + i + 2 * j);
                memcpy(vram + l * slice + (j * pitch + i) * 4, &v, 4);
            }
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP, .width = 2, .height = 2, .depth = 2,
                       .last_array = 11, .pitch = pitch, .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED,
                       .fmt = FMT(32_FLOAT), .nfmt = NORM, .addr = GPU_BASE };
    memcpy(d.sel, XYZW, sizeof d.sel);
    set_resource(&e, 0, &d);
    set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT, 0);
    union eg_vec4 out;
    struct eg_shader_err err;
    for (unsigned cube = 0; cube < 2; cube++)
        for (unsigned face = 0; face < 6; face++)
            for (unsigned j = 0; j < 2; j++)
                for (unsigned i = 0; i < 2; i++) {
                    float sf = ((float)i + 0.5f) / 2.0f, tf = ((float)j + 0.5f) / 2.0f;
                    if (sample_xyz(&e, &t, 1.0f + sf, 1.0f + tf, (float)(8 * cube + face), &out, &err))
                        fail_msg("%s", err.msg);
                    float want = (float)(10 * (6 * cube + face) + i + 2 * j);
                    if (out.f[0] != want)
                        fail_msg("cube %u face %u texel (%u, %u): %g, want %g", cube, face, i, j, (double)out.f[0],
                                 (double)want);
                }
    /* a cube view from layer 6 with LAST_ARRAY = BASE_ARRAY (Mesa's view of
     * one cube in a 2D array): its faces are layers 6..11 */
    d.depth = 1;
    d.base_array = d.last_array = 6;
    set_resource(&e, 0, &d);
    for (unsigned face = 0; face < 6; face++) {
        if (sample_xyz(&e, &t, 1.25f, 1.25f, (float)face, &out, &err))
            fail_msg("%s", err.msg);
        if (out.f[0] != (float)(10 * (6 + face)))
            fail_msg("view face %u: %g, want %u", face, (double)out.f[0], 10 * (6 + face));
    }
    /* bilinear at the face's centre: the four texels of face 2 of the view
     * (layer 8), a quarter each */
    set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR, 0);
    if (sample_xyz(&e, &t, 1.5f, 1.5f, 2.0f, &out, &err))
        fail_msg("%s", err.msg);
    assert_true(out.f[0] == (80.0f + 81.0f + 82.0f + 83.0f) / 4.0f);
    /* near the left edge of +X (face 0, layer 6), seamless (DISABLE_CUBE_WRAP
     * 0, OpenGL 4.6 8.13.1): s_face 0.05 puts the footprint's left column
     * (weight 0.4) past the edge, on +Z (face 4, layer 10): +X's s = 0 edge
     * is z = +1, +Z's right column (x = +1), the same rows (t = -y on both) */
    if (sample_xyz(&e, &t, 1.05f, 1.5f, 0.0f, &out, &err))
        fail_msg("%s", err.msg);
    float seam = 0.4f * ((101.0f + 103.0f) / 2.0f) + 0.6f * ((60.0f + 62.0f) / 2.0f);
    if (fabsf(out.f[0] - seam) > 1e-4f)
        fail_msg("seamless +X edge: %g, want %g", (double)out.f[0], (double)seam);
    /* with DISABLE_CUBE_WRAP set the face is clamped on its own
     * (CLAMP_LAST_TEXEL: texels (0, 0) and (0, 1)) */
    e.regs->sampler[2] |= S_SQ_TEX_SAMPLER_WORD2__DISABLE_CUBE_WRAP(1);
    if (sample_xyz(&e, &t, 1.05f, 1.5f, 2.0f, &out, &err))
        fail_msg("%s", err.msg);
    assert_true(out.f[0] == (80.0f + 82.0f) / 2.0f);
    unit_env_free(&e);
}

/* A shadow lookup at texel `x` of the 4x1 texture in resource 0 (point
 * sampling, comparison `func`): R0 = (u, 0.5, z, w). */
static union eg_vec4 shadow_at(struct unit_env *e, const struct cedar_tiling *t, unsigned inst, unsigned func,
                               unsigned x, float z, float w)
{
    set_sampler(e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT, 0);
    e->regs->sampler[0] |= S_SQ_TEX_SAMPLER_WORD0__DEPTH_COMPARE_FUNCTION(func);
    tex_unit_begin(e->unit, e->regs, &mem, t);
    uint32_t code[64];
    const uint8_t xyzw[4] = { 0, 1, 2, 3 };
    size_t n = tex_ps_full(code, inst, 0, xyzw, 0, 0);
    union eg_vec4 out;
    struct eg_shader_err err;
    if (run_ps(e, code, n, (union eg_vec4){ .f = { ((float)x + 0.5f) / 4.0f, 0.5f, z, w } }, &out, &err))
        fail_msg("%s", err.msg);
    return out;
}

/* Shadow samplers as Mesa programs them (OpenGL 4.6 8.23.1 and 2.1's
 * DEPTH_TEXTURE_MODE, table 3.20): the comparison replaces the depth, the
 * data format's X, and the resource swizzle of the depth mode then gives
 * LUMINANCE (r, r, r, 1), INTENSITY (r, r, r, r), ALPHA (0, 0, 0, r), RED
 * (r, 0, 0, 1); the reference is in w (SAMPLE_C, _C_LZ) or z (SAMPLE_C_L,
 * _C_LB: w holds the LOD), and is clamped to [0, 1] for a fixed-point
 * depth (Z24 in FMT_8_24) but not for a float one (FMT_32_FLOAT). */
static void shadow_depth_modes_and_reference(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    struct cedar_tiling t = hd7350();
    vram_alloc(4096);
    /* Z24 depths, junk in the stencil byte; their values as UNORM24 */
    static const uint32_t z24[4] = { 0, 0x400000, 0xC00000, 0xFFFFFF };
    float depth[4];
    for (int k = 0; k < 4; k++) {
        uint32_t v = z24[k] | 0xA5000000u;
        memcpy(vram + 4 * k, &v, 4);
        depth[k] = (float)((double)z24[k] / 16777215.0);
    }
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 4, .height = 1, .pitch = 64,
                       .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(8_24), .nfmt = NORM,
                       .addr = GPU_BASE };
    const unsigned X = V_SQ_SEL__SQ_SEL_X, ZERO = V_SQ_SEL__SQ_SEL_0, ONE = V_SQ_SEL__SQ_SEL_1;
    const struct { const char *mode; unsigned sel[4]; } modes[] = {
        { "LUMINANCE", { X, X, X, ONE } }, { "INTENSITY", { X, X, X, X } },
        { "ALPHA", { ZERO, ZERO, ZERO, X } }, { "RED", { X, ZERO, ZERO, ONE } },
    };
    const unsigned lequal = V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_LESSEQUAL;
    const unsigned greater = V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_GREATER;
    const unsigned equal = V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_EQUAL;
    const float ref = 0.3f;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        memcpy(d.sel, modes[m].sel, sizeof d.sel);
        set_resource(&e, 0, &d);
        for (unsigned x = 0; x < 4; x++)
            for (int gt = 0; gt < 2; gt++) {
                float r = (gt ? ref > depth[x] : ref <= depth[x]) ? 1.0f : 0.0f;
                const float want[4][4] = { { r, r, r, 1 }, { r, r, r, r }, { 0, 0, 0, r }, { r, 0, 0, 1 } };
                union eg_vec4 got = shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, gt ? greater : lequal, x, 0.9f, ref);
                char what[80];
                snprintf(what, sizeof what, "%s texel %u %s", modes[m].mode, x, gt ? "GREATER" : "LEQUAL");
                expect_rgba(got, want[m][0], want[m][1], want[m][2], want[m][3], what);
            }
    }
    /* the reference's place: z for SAMPLE_C_L (w: LOD 0), w for SAMPLE_C_LZ */
    memcpy(d.sel, modes[1].sel, sizeof d.sel);
    set_resource(&e, 0, &d);
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C_L, greater, 1, 0.3f, 0.0f), 1, 1, 1, 1, "C_L z 0.3 > 0.25");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C_L, greater, 1, 0.2f, 0.9f), 0, 0, 0, 0, "C_L z 0.2 > 0.25");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C_LZ, greater, 1, 0.2f, 0.3f), 1, 1, 1, 1, "C_LZ w 0.3");
    /* fixed point: the reference clamped to [0, 1] */
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, equal, 0, 0, -1.0f), 1, 1, 1, 1, "UNORM -1 == 0");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, equal, 3, 0, 2.0f), 1, 1, 1, 1, "UNORM 2 == 1");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, greater, 3, 0, 2.0f), 0, 0, 0, 0, "UNORM 2 > 1");
    /* float depth (FMT_32_FLOAT): not clamped */
    static const float fdepth[4] = { 0.0f, 0.25f, 0.75f, 1.0f };
    memcpy(vram, fdepth, sizeof fdepth);
    d.fmt = FMT(32_FLOAT);
    set_resource(&e, 0, &d);
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, equal, 3, 0, 2.0f), 0, 0, 0, 0, "FLOAT 2 == 1");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, greater, 3, 0, 2.0f), 1, 1, 1, 1, "FLOAT 2 > 1");
    expect_rgba(shadow_at(&e, &t, V_SQ_TEX_INST__SAMPLE_C, equal, 2, 0, 0.75f), 1, 1, 1, 1, "FLOAT 0.75 == 0.75");
    unit_env_free(&e);
}

/* SAMPLE_C (reference in w, compared before filtering: OpenGL 4.6 8.23.1,
 * percentage-closer with bilinear weights), GATHER4 (read with Mesa's
 * Evergreen destination swizzle (Y, Z, X, W) it gives OpenGL's order
 * (i0,j1), (i1,j1), (i1,j0), (i0,j0) of component INST_MOD),
 * GET_NUMBER_OF_SAMPLES (the count in w), and offsets in half texels. */
static void compare_gather_offsets(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    struct cedar_tiling t = hd7350();
    vram_alloc(4096);
    /* 4x4 FMT_32_32_FLOAT, pitch 64: texel (x, y) = ((x + 4y) / 16, 10 + x + 4y) */
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            float v[2] = { (float)(x + 4 * y) / 16.0f, (float)(10 + x + 4 * y) };
            memcpy(vram + (y * 64 + x) * 8, v, 8);
        }
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 4, .height = 4, .pitch = 64,
                       .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(32_32_FLOAT), .nfmt = NORM,
                       .addr = GPU_BASE };
    memcpy(d.sel, XYZW, sizeof d.sel);
    set_resource(&e, 0, &d);
    uint32_t w[64];
    const uint8_t xyzw[4] = { 0, 1, 2, 3 };
    struct eg_shader_err err;
    union eg_vec4 out;
    static const unsigned funcs[] = { V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_NEVER,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_LESS,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_EQUAL,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_LESSEQUAL,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_GREATER,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_NOTEQUAL,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_GREATEREQUAL,
                                      V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_ALWAYS };
    for (int bil = 0; bil < 2; bil++)
        for (unsigned fi = 0; fi < 8; fi++) {
            set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL,
                        bil ? V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR : V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT,
                        0);
            e.regs->sampler[0] |= S_SQ_TEX_SAMPLER_WORD0__DEPTH_COMPARE_FUNCTION(funcs[fi]);
            tex_unit_begin(e.unit, e.regs, &mem, &t);
            size_t n = tex_ps_full(w, V_SQ_TEX_INST__SAMPLE_C, 0, xyzw, 0, 0);
            const float ref = 6.0f / 16.0f;
            /* point: texel (1, 1) = 5/16; bilinear at (0.5, 0.5): texels (1..2, 1..2), a quarter each */
            union eg_vec4 r0 = { .f = { bil ? 0.5f : 0.3f, bil ? 0.5f : 0.3f, 0, ref } };
            if (run_ps(&e, w, n, r0, &out, &err))
                fail_msg("%s", err.msg);
            float want = 0;
            unsigned texels[4] = { 5, 6, 9, 10 };
            for (unsigned k = 0; k < (bil ? 4u : 1u); k++) {
                float tv = (float)texels[k] / 16.0f;
                bool pass[8] = { false, ref < tv, ref == tv, ref <= tv, ref > tv, ref != tv, ref >= tv, true };
                want += (pass[fi] ? 1.0f : 0.0f) / (bil ? 4.0f : 1.0f);
            }
            for (int c = 0; c < 4; c++)
                if (out.f[c] != want)
                    fail_msg("SAMPLE_C %s func %u: %g, want %g", bil ? "bilinear" : "point", fi, (double)out.f[c],
                             (double)want);
        }
    /* GATHER4 of component 1 at (0.5, 0.5): footprint i0 = j0 = 1 */
    set_sampler(&e, 0, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL, V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT, 0);
    tex_unit_begin(e.unit, e.regs, &mem, &t);
    const uint8_t mesa_eg[4] = { 1, 2, 0, 3 };
    size_t n = tex_ps_full(w, V_SQ_TEX_INST__GATHER4, 1, mesa_eg, 0, 0);
    if (run_ps(&e, w, n, (union eg_vec4){ .f = { 0.5f, 0.5f, 0, 0 } }, &out, &err))
        fail_msg("%s", err.msg);
    const float gl[4] = { 10 + 1 + 8, 10 + 2 + 8, 10 + 2 + 4, 10 + 1 + 4 };
    for (int c = 0; c < 4; c++)
        if (out.f[c] != gl[c])
            fail_msg("GATHER4 component %d: %g, want %g", c, (double)out.f[c], (double)gl[c]);
    /* offsets: OFFSET_X 2 = one texel right, OFFSET_Y -2 one up (Mesa doubles them) */
    n = tex_ps_full(w, V_SQ_TEX_INST__SAMPLE, 0, xyzw, 2, -2);
    if (run_ps(&e, w, n, (union eg_vec4){ .f = { 0.3f, 0.3f, 0, 0 } }, &out, &err))
        fail_msg("%s", err.msg);
    assert_true(out.f[1] == 10.0f + 2 + 0);
    /* GET_NUMBER_OF_SAMPLES read as Mesa does, DST_SEL (W, mask, mask, mask): 1 */
    const uint8_t wmask[4] = { 3, 7, 7, 7 };
    n = tex_ps_full(w, V_SQ_TEX_INST__GET_NUMBER_OF_SAMPLES, 0, wmask, 0, 0);
    if (run_ps(&e, w, n, (union eg_vec4){ .u = { 0, 0, 0, 0 } }, &out, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.u[0], 1);
    unit_env_free(&e);
}

/* Border colours in the table: per stage and sampler, and in an integer
 * texture's numbers (Mesa evergreen_convert_border_color writes an integer
 * border as i / (2^bits - 1), or / (2^(bits-1) - 1) signed). */
static void border_colour_table(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    const float a[4] = { 0.1f, 0.2f, 0.3f, 0.4f }, b[4] = { 0.5f, 0.6f, 0.7f, 0.8f };
    write_border(e.regs, REG_TD_PS_SAMPLER0_BORDER_INDEX, 5, a);
    write_border(e.regs, REG_TD_VS_SAMPLER0_BORDER_INDEX, 5, b);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(e.regs->border[0][5][c], fbits(a[c]));
        assert_int_equal(e.regs->border[1][5][c], fbits(b[c]));
    }
    /* an index past the stage's samplers, and the INDEX register itself, store nothing */
    struct vc_regs *before = malloc(sizeof *before);
    assert_non_null(before);
    memcpy(before, e.regs, sizeof *before);
    write_border(e.regs, REG_TD_GS_SAMPLER0_BORDER_INDEX, V_SQ_SAMPLER_BASE__PER_STAGE, a);
    vc_regs_latch_border(e.regs, REG_TD_PS_SAMPLER0_BORDER_INDEX, 7);
    assert_memory_equal(before->border, e.regs->border, sizeof before->border);
    free(before);

    vram_alloc(256);
    memset(vram, 0x11, 16);
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 1, .height = 1, .pitch = 8,
                       .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(8_8_8_8), .nfmt = INT,
                       .addr = GPU_BASE };
    memcpy(d.sel, XYZW, sizeof d.sel);
    set_resource(&e, 3, &d);                                   /* PS resource 3 */
    set_resource(&e, V_SQ_FETCH_RESOURCE_BASE__VS + 2, &d);    /* VS resource 2 */
    const float ub[4] = { (float)(7.0 / 255), (float)(200.0 / 255), 0.0f, 1.0f };
    write_border(e.regs, REG_TD_PS_SAMPLER0_BORDER_INDEX, 1, ub);
    set_sampler(&e, 1, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 0, V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_REGISTER);
    set_sampler(&e, V_SQ_SAMPLER_BASE__VS + 5, V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER, 0,
                V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_REGISTER);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    struct eg_tex_sampler s;
    char msg[200];
    assert_int_equal(tex_unit_sampler(e.unit, 1, 3, &s, msg, sizeof msg), 0);
    assert_int_equal(s.border.u[0], 7);
    assert_int_equal(s.border.u[1], 200);
    assert_int_equal(s.border.u[2], 0);
    assert_int_equal(s.border.u[3], 255);
    /* the VS's sampler 5 takes the VS table's entry 5 (floats b, scaled) */
    assert_int_equal(tex_unit_sampler(e.unit, V_SQ_SAMPLER_BASE__VS + 5, V_SQ_FETCH_RESOURCE_BASE__VS + 2, &s, msg,
                                      sizeof msg), 0);
    for (int c = 0; c < 4; c++)
        assert_int_equal(s.border.u[c], (uint32_t)lrint(b[c] * 255.0));
    /* signed 8 bits: -5 written as -5 / 127 */
    d.fmt = FMT(8);
    d.signed_mask = 1;
    set_resource(&e, 3, &d);
    const float sb[4] = { (float)(-5.0 / 127), 0, 0, 0 };
    write_border(e.regs, REG_TD_PS_SAMPLER0_BORDER_INDEX, 1, sb);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    assert_int_equal(tex_unit_sampler(e.unit, 1, 3, &s, msg, sizeof msg), 0);
    assert_int_equal((int32_t)s.border.u[0], -5);
    /* a float texture takes the floats as they are */
    d.nfmt = NORM;
    set_resource(&e, 3, &d);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    assert_int_equal(tex_unit_sampler(e.unit, 1, 3, &s, msg, sizeof msg), 0);
    assert_int_equal(s.border.u[0], fbits(sb[0]));
    /* samplers past the six stages' */
    assert_int_equal(tex_unit_sampler(e.unit, V_SQ_SAMPLER_BASE__STAGES * V_SQ_SAMPLER_BASE__PER_STAGE, 3, &s, msg,
                                      sizeof msg), -1);
    assert_non_null(strstr(msg, "does not exist"));
    unit_env_free(&e);
}

/* LD of an MSAA texture through the interpreter: the FMask (INST_MOD 1), then
 * the sample its fragment index names, as Mesa's lowered texelFetch does. */
static void msaa_ld_through_the_interpreter(void **state)
{
    (void)state;
    struct cedar_tiling t = hd7350();
    struct unit_env e;
    unit_env_init(&e);
    struct cedar_surface_req req = { .width = 16, .height = 16, .bpe = 4, .samples = 4, .mode = CEDAR_MODE_2D_THIN };
    struct cedar_msaa_layout lay;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_msaa_layout(&req, &t, &lay, &lerr), 0);
    struct cedar_tile_map cmap, fmap;
    assert_int_equal(cedar_tile_map_init(&cmap, &lay.color, NULL, &lerr), 0);
    assert_int_equal(cedar_fmask_map_init(&fmap, &lay.fmask.surf, 4, NULL, &lerr), 0);
    vram_alloc(lay.total_size);
    /* pixel (5, 9): samples 0, 1 -> fragment 0; 2, 3 -> fragment 1 */
    const uint8_t b0[4] = { 255, 0, 0, 255 }, b1[4] = { 0, 0, 255, 51 };
    const float c0[4] = { 1, 0, 0, 1 }, c1[4] = { 0, 0, 1, 0.2f };
    memcpy(vram + cedar_tile_addr(&cmap, 5, 9, 0, 0), b0, 4);
    memcpy(vram + cedar_tile_addr(&cmap, 5, 9, 1, 0), b1, 4);
    for (unsigned s = 2; s < 4; s++) {
        uint64_t byte;
        unsigned bit;
        cedar_fmask_bit(&fmap, 5, 9, s, 0, 0, &byte, &bit);
        vram[lay.fmask.offset + byte] |= (uint8_t)(1u << bit);
    }
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA, .fmt = FMT(8_8_8_8), .nfmt = NORM,
                       .last_level = 2, .addr = GPU_BASE, .mip_addr = GPU_BASE + lay.fmask.offset,
                       .fmask_bankh = lay.fmask.bank_height_enc };
    memcpy(d.sel, XYZW, sizeof d.sel);
    tdesc_from_surface(&d, &lay.color);
    set_resource(&e, 0, &d);
    tex_unit_begin(e.unit, e.regs, &mem, &t);
    uint32_t wf[64], wl[64];
    size_t nf = tex_ps(wf, V_SQ_TEX_INST__LD, 1, false), nl = tex_ps(wl, V_SQ_TEX_INST__LD, 0, false);
    struct eg_shader_err err;
    union eg_vec4 out, r0 = { .u = { 5, 9, 0, 0 } };
    if (run_ps(&e, wf, nf, r0, &out, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.u[0], 0x1100);
    for (unsigned s = 0; s < 4; s++) {
        r0.u[3] = (out.u[0] >> (4 * s)) & 15;
        union eg_vec4 px;
        if (run_ps(&e, wl, nl, r0, &px, &err))
            fail_msg("%s", err.msg);
        const float *want = s < 2 ? c0 : c1;
        expect_rgba(px, want[0], want[1], want[2], want[3], "MSAA LD");
    }
    /* outside the texture or its samples: zeros */
    r0 = (union eg_vec4){ .u = { 16, 0, 0, 0 } };
    assert_int_equal(run_ps(&e, wl, nl, r0, &out, &err), 0);
    expect_rgba(out, 0, 0, 0, 0, "LD past the right edge");
    r0 = (union eg_vec4){ .u = { 0, 0, 0, 4 } };
    assert_int_equal(run_ps(&e, wl, nl, r0, &out, &err), 0);
    expect_rgba(out, 0, 0, 0, 0, "LD of sample 4 of 4");
    /* the source selects' constant 0 (Mesa's texelFetch(tex, ivec2(0, 0), i):
     * R.00_w) is 0, not the register's x or y: pixel (0, 0), whose FMask is
     * 0 (every sample fragment 0) and whose fragment 0 is c0 */
    memcpy(vram + cedar_tile_addr(&cmap, 0, 0, 0, 0), b0, 4);
    const uint8_t zzzw[4] = { V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__ZERO, V_SQ_INST_SEL__W };
    nf = tex_ps_sel(wf, V_SQ_TEX_INST__LD, 1, false, false, zzzw);
    nl = tex_ps_sel(wl, V_SQ_TEX_INST__LD, 0, false, false, zzzw);
    r0 = (union eg_vec4){ .u = { 5, 9, 0, 1 } };
    assert_int_equal(run_ps(&e, wf, nf, r0, &out, &err), 0);
    assert_int_equal(out.u[0], 0);
    r0 = (union eg_vec4){ .u = { 16, 16, 0, 0 } };
    assert_int_equal(run_ps(&e, wl, nl, r0, &out, &err), 0);
    expect_rgba(out, c0[0], c0[1], c0[2], c0[3], "LD of (0, 0) through constant selects");
    /* SAMPLE from an MSAA texture is an error */
    uint32_t ws[64];
    size_t ns = tex_ps(ws, V_SQ_TEX_INST__SAMPLE, 0, true);
    set_sampler(&e, 0, 0, 0, 0);
    assert_int_equal(run_ps(&e, ws, ns, r0, &out, &err), -1);
    assert_non_null(strstr(err.msg, "read with LD only"));
    unit_env_free(&e);
}

/* GET_TEXTURE_RESINFO: the size of the level asked for, and the levels. */
static void resinfo_sizes(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    vram_alloc(1 << 20);
    uint32_t w[64];
    size_t n = tex_ps(w, V_SQ_TEX_INST__GET_TEXTURE_RESINFO, 0, false);
    const struct {
        unsigned dim, width, height, depth, last_level, lod;
        uint32_t want[4];
    } cases[] = {
        { V_SQ_TEX_DIM__SQ_TEX_DIM_2D, 37, 20, 1, 3, 2, { 9, 5, 1, 4 } },
        { V_SQ_TEX_DIM__SQ_TEX_DIM_2D, 37, 20, 1, 5, 6, { 1, 1, 1, 6 } },
        { V_SQ_TEX_DIM__SQ_TEX_DIM_3D, 16, 8, 4, 2, 1, { 8, 4, 2, 3 } },
        { V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY, 16, 8, 5, 0, 1, { 8, 4, 5, 1 } },
        { V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY, 16, 1, 7, 0, 0, { 16, 7, 1, 1 } },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct tdesc d = { .dim = cases[k].dim, .width = cases[k].width, .height = cases[k].height,
                           .depth = cases[k].depth, .pitch = 40, .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED,
                           .fmt = FMT(8), .last_level = cases[k].last_level, .addr = GPU_BASE };
        d.last_array = cases[k].dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY ||
                               cases[k].dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY
                           ? cases[k].depth - 1
                           : 0;
        memcpy(d.sel, XYZW, sizeof d.sel);
        set_resource(&e, 0, &d);
        tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
        union eg_vec4 out, r0 = { .u = { cases[k].lod, cases[k].lod, cases[k].lod, cases[k].lod } };
        struct eg_shader_err err;
        if (run_ps(&e, w, n, r0, &out, &err))
            fail_msg("%s", err.msg);
        for (int c = 0; c < 4; c++)
            if (out.u[c] != cases[k].want[c])
                fail_msg("case %zu: %u %u %u %u, want %u %u %u %u", k, out.u[0], out.u[1], out.u[2], out.u[3],
                         cases[k].want[0], cases[k].want[1], cases[k].want[2], cases[k].want[3]);
    }
    unit_env_free(&e);
}

/* ---- faults ---------------------------------------------------------------------------- */

static void faults_name_what_is_missing(void **state)
{
    (void)state;
    vram_alloc(4096);
    struct tdesc base = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 8, .height = 8, .pitch = 8,
                          .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(8_8_8_8), .addr = GPU_BASE };
    memcpy(base.sel, XYZW, sizeof base.sel);
    struct tdesc d = base;
    d.fmt = FMT(BC1);
    expect_fault(&d, "data format FMT_BC1 is not modelled");
    d = base;
    d.fmt = FMT(8_8_8);
    expect_fault(&d, "data format FMT_8_8_8 is not modelled");
    d = base;
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP;   /* one cube: six layers, not in the buffer's 4096 bytes */
    d.width = d.height = 32;
    d.pitch = 32;
    expect_fault(&d, "not inside one GPU buffer");
    d = base;
    d.base_level = 4;
    d.last_level = 3;
    expect_fault(&d, "BASE_LEVEL 4 past LAST_LEVEL 3");
    d = base;
    d.array_mode = 3;
    expect_fault(&d, "array mode");
    d = base;
    d.width = 9;
    expect_fault(&d, "width 9 exceeds the pitch of 8 texels");
    d = base;
    d.signed_mask = 0;
    uint32_t w[8];
    tex_words(&d, w);
    w[4] |= S_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_Y(V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED_BIASED);
    struct tex_view *v = calloc(1, sizeof *v);
    assert_non_null(v);
    struct cedar_tiling t = hd7350();
    assert_int_equal(tex_view_decode(v, 9, w, &t, &mem), -1);
    assert_non_null(strstr(v->err, "texture resource 9: FORMAT_COMP SQ_FORMAT_COMP_UNSIGNED_BIASED"));
    tex_words(&base, w);
    w[7] = (w[7] & ~SQ_TEX_RESOURCE_WORD7__TYPE__MASK) |
           S_SQ_TEX_RESOURCE_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER);
    assert_int_equal(tex_view_decode(v, 0, w, &t, &mem), -1);
    assert_non_null(strstr(v->err, "not a valid texture (TYPE SQ_TEX_VTX_VALID_BUFFER)"));
    free(v);
    /* texels outside GPU memory: before the buffer, past it, the largest
     * texture the words can describe at the top of the address space */
    d = base;
    d.addr = GPU_BASE - 256;
    expect_fault(&d, "not inside one GPU buffer");
    d = base;
    d.addr = GPU_BASE + 4096 - 256; /* its 256 bytes end the buffer */
    struct tex_view *fits = calloc(1, sizeof *fits);
    assert_non_null(fits);
    int r = decode(fits, &d);
    free(fits);
    assert_int_equal(r, 0);
    d.pitch = d.width = 16; /* 512 bytes */
    expect_fault(&d, "not inside one GPU buffer");
    d = base;
    d.width = d.height = 16384;
    d.pitch = 16384;
    d.depth = 2048;
    d.dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY;
    d.last_array = 2047;
    d.fmt = FMT(32_32_32_32_FLOAT);
    d.addr = 0xFFFFFFFF00ull;
    expect_fault(&d, "2048 slice(s)) are not inside one GPU buffer");
}

/* A fault reaches the draw as the interpreter's error, naming the resource;
 * texel reads the callbacks are asked for outside the texture are refused. */
static void faults_reach_the_draw(void **state)
{
    (void)state;
    struct unit_env e;
    unit_env_init(&e);
    vram_alloc(4096);
    struct tdesc d = { .dim = V_SQ_TEX_DIM__SQ_TEX_DIM_2D, .width = 8, .height = 8, .pitch = 8,
                       .array_mode = V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED, .fmt = FMT(BC3), .addr = GPU_BASE };
    memcpy(d.sel, XYZW, sizeof d.sel);
    set_resource(&e, 0, &d);
    set_sampler(&e, 0, 0, 0, 0);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    uint32_t w[64];
    size_t n = tex_ps(w, V_SQ_TEX_INST__SAMPLE, 0, true);
    union eg_vec4 out, r0 = { .f = { 0.5f, 0.5f, 0, 0 } };
    struct eg_shader_err err;
    assert_int_equal(run_ps(&e, w, n, r0, &out, &err), -1);
    if (!strstr(err.msg, "texture resource 0: data format FMT_BC3 is not modelled"))
        fail_msg("%s", err.msg);
    /* a valid resource: the callbacks refuse texels outside it */
    d.fmt = FMT(8_8_8_8);
    set_resource(&e, 0, &d);
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    char msg[200];
    assert_int_equal(tex_unit_texel(e.unit, 0, 8, 0, 0, 0, &out, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "outside"));
    assert_int_equal(tex_unit_texel(e.unit, 0, -1, 0, 0, 0, &out, msg, sizeof msg), -1);
    assert_int_equal(tex_unit_texel(e.unit, 0, 0, 0, 0, 1, &out, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "sample 1 of 1"));
    uint32_t f;
    assert_int_equal(tex_unit_fmask(e.unit, 0, 0, 0, 0, &f, msg, sizeof msg), -1);
    /* resources of stages the unit does not decode */
    assert_int_equal(tex_unit_texel(e.unit, V_SQ_FETCH_RESOURCE_BASE__FS, 0, 0, 0, 0, &out, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "only the pixel, vertex, geometry, hull, local and compute shaders' resources"));
    /* an empty slot */
    assert_int_equal(tex_unit_texel(e.unit, 1, 0, 0, 0, 0, &out, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "texture resource 1: not a valid texture"));
    /* a slot emptied after a draw that had a texture there (the unit does
     * not decode empty slots: the old view must not be used) */
    e.regs->resource[7] = 0;
    tex_unit_begin(e.unit, e.regs, &mem, &(struct cedar_tiling){ 2, 8, 256, 1024 });
    assert_int_equal(tex_unit_texel(e.unit, 0, 0, 0, 0, 0, &out, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "texture resource 0: not a valid texture (TYPE SQ_TEX_VTX_INVALID_TEXTURE)"));
    unit_env_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(table_formats_match_the_decoder, vram_free),
        cmocka_unit_test(float_texels_by_definition),
        cmocka_unit_test_teardown(formats_from_hand_packed_texels, vram_free),
        cmocka_unit_test_teardown(tiled_textures_follow_the_address_map, vram_free),
        cmocka_unit_test_teardown(array_layers_and_layer_views, vram_free),
        cmocka_unit_test_teardown(msaa_texture_samples_and_fmask, vram_free),
        cmocka_unit_test_teardown(depth_layout_textures, vram_free),
        cmocka_unit_test_teardown(address_modes_bilinear_and_borders, vram_free),
        cmocka_unit_test_teardown(array_layer_coordinates, vram_free),
        cmocka_unit_test_teardown(border_colour_table, vram_free),
        cmocka_unit_test_teardown(msaa_ld_through_the_interpreter, vram_free),
        cmocka_unit_test_teardown(resinfo_sizes, vram_free),
        cmocka_unit_test_teardown(mip_levels, vram_free),
        cmocka_unit_test_teardown(compare_gather_offsets, vram_free),
        cmocka_unit_test_teardown(shadow_depth_modes_and_reference, vram_free),
        cmocka_unit_test_teardown(cube_faces_and_cubes, vram_free),
        cmocka_unit_test_teardown(faults_name_what_is_missing, vram_free),
        cmocka_unit_test_teardown(faults_reach_the_draw, vram_free),
        cmocka_unit_test_teardown(unit_texels_through_kept_runs, vram_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
