/* The colour block's per-target operations (src/render/cb.c, cb_alpha.c)
 * through cb_target_init on registers set here, against expectations worked
 * out independently:
 *  - CB_COLOR_CONTROL.ROP3 as Mesa programs GL's logic ops (the 4-bit op in
 *    both nibbles): every one of the 16 on hand-picked bytes, against GL 4.6
 *    table 17.3's definitions; float targets ignore it;
 *  - dual-source blending (SRC1_COLOR / INV_SRC1_ALPHA) and MIN / MAX, against
 *    GL's blend equation computed here in double and rounded to UNORM8;
 *  - BLEND_CLAMP on an SNORM target clamps the source to [-1, 1], not [0, 1];
 *  - alpha to coverage: sample counts on hand-worked vectors for Mesa's two
 *    DB_ALPHA_TO_MASK settings, and DB_SHADER_CONTROL.ALPHA_TO_MASK_DISABLE;
 *  - CB_COLOR*_VIEW.SLICE_START: a linear target's write lands at
 *    slice * slice size + (y * pitch + x) * bpe, slices before it untouched;
 *    a 2D-tiled one at the tiling map's address for that slice. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/vc_hw.h"
#include "eg_regs.h"
#include "src/render/render_priv.h"

#define GPU_BASE 0x100000u
#define MEM_BYTES (1u << 20)

static uint8_t *memory;

static void *mem_at(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (addr < GPU_BASE || addr - GPU_BASE > MEM_BYTES || len > MEM_BYTES - (addr - GPU_BASE))
        return NULL;
    return memory + (addr - GPU_BASE);
}

static void set(struct vc_regs *r, uint32_t off, uint32_t v)
{
    assert_true(off >= SPACE_CONTEXT_START && off < SPACE_CONTEXT_END);
    r->context[(off - SPACE_CONTEXT_START) / 4] = v;
}

/* CB0: a linear 64x8 surface (per slice) of `info`'s format. */
static void linear_cb0(struct vc_regs *r, uint32_t info)
{
    set(r, REG_CB_COLOR_BASE(0), GPU_BASE >> 8);
    set(r, REG_CB_COLOR_INFO(0), info | S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED));
    set(r, REG_CB_COLOR_PITCH(0), S_CB_COLOR_PITCH__TILE_MAX(64 / 8 - 1));
    set(r, REG_CB_COLOR_SLICE(0), S_CB_COLOR_SLICE__TILE_MAX(64 * 8 / 64 - 1));
    set(r, REG_CB_TARGET_MASK, 0xF);
    set(r, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__ROP3(0xCC) | S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL));
}

static uint32_t rgba8_info(unsigned ntype)
{
    return S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) | S_CB_COLOR_INFO__NUMBER_TYPE(ntype) |
           S_CB_COLOR_INFO__BLEND_CLAMP(1);
}

struct fixture {
    struct vc_render *r;
    struct vc_regs *regs;
    struct vc_mem mem;
    struct cb_target *t;
};

static void fixture_open(struct fixture *f)
{
    memory = calloc(1, MEM_BYTES);
    f->r = vc_render_new();
    f->regs = calloc(1, sizeof *f->regs);
    f->t = calloc(1, sizeof *f->t);
    assert_true(memory && f->r && f->regs && f->t);
    f->mem = (struct vc_mem){ .ctx = NULL, .ptr = mem_at };
}

static void fixture_init_target(struct fixture *f)
{
    struct vc_draw_err err = {{0}};
    if (cb_target_init(f->r, f->t, 0, 1, f->regs, &f->mem, &err))
        fail_msg("cb_target_init: %s", err.msg);
}

static void fixture_close(struct fixture *f)
{
    vc_render_free(f->r);
    free(f->regs);
    free(f->t);
    free(memory);
}

static const float zero4[4] = {0, 0, 0, 0};

/* GL's 16 logic ops (GL 4.6 table 17.3) on bytes s, d. */
static uint8_t gl_logic(unsigned op, uint8_t s, uint8_t d)
{
    switch (op) {
    case 0: return 0;                        /* CLEAR */
    case 1: return (uint8_t)~(s | d);        /* NOR */
    case 2: return (uint8_t)(~s & d);        /* AND_INVERTED */
    case 3: return (uint8_t)~s;              /* COPY_INVERTED */
    case 4: return (uint8_t)(s & ~d);        /* AND_REVERSE */
    case 5: return (uint8_t)~d;              /* INVERT */
    case 6: return s ^ d;                    /* XOR */
    case 7: return (uint8_t)~(s & d);        /* NAND */
    case 8: return s & d;                    /* AND */
    case 9: return (uint8_t)~(s ^ d);        /* EQUIV */
    case 10: return d;                       /* NOOP */
    case 11: return (uint8_t)(~s | d);       /* OR_INVERTED */
    case 12: return s;                       /* COPY */
    case 13: return (uint8_t)(s | ~d);       /* OR_REVERSE */
    case 14: return s | d;                   /* OR */
    default: return 0xFF;                    /* SET */
    }
}

static void test_rop3(void **state)
{
    (void)state;
    static const uint8_t src[4] = {0x3C, 0x00, 0xFF, 0xA5}, dst[4] = {0x5A, 0xFF, 0x0F, 0x81};
    for (unsigned op = 0; op < 16; op++) {
        struct fixture f;
        fixture_open(&f);
        linear_cb0(f.regs, rgba8_info(V_CB_NUMBER_TYPE__NUMBER_UNORM));
        /* Mesa evergreen_create_blend_state_mode: func << 16 | func << 20 */
        set(f.regs, REG_CB_COLOR_CONTROL, (op << 16) | (op << 20) | S_CB_COLOR_CONTROL__MODE(1));
        fixture_init_target(&f);
        memcpy(memory + (3 * 64 + 5) * 4, dst, 4);
        float rgba[4];
        for (unsigned c = 0; c < 4; c++)
            rgba[c] = src[c] / 255.0f;
        cb_write(f.t, zero4, 5, 3, 1, rgba);
        for (unsigned c = 0; c < 4; c++)
            if (memory[(3 * 64 + 5) * 4 + c] != gl_logic(op, src[c], dst[c]))
                fail_msg("logic op %u, byte %u: 0x%02x, GL gives 0x%02x", op, c, memory[(3 * 64 + 5) * 4 + c],
                         gl_logic(op, src[c], dst[c]));
        fixture_close(&f);
    }
    /* a float target ignores it (GL 4.6 17.3.9) */
    struct fixture f;
    fixture_open(&f);
    linear_cb0(f.regs, S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_32_FLOAT) |
                           S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_FLOAT));
    set(f.regs, REG_CB_COLOR_CONTROL, (6u << 16) | (6u << 20) | S_CB_COLOR_CONTROL__MODE(1));
    fixture_init_target(&f);
    memset(memory, 0x55, 4);
    const float v[4] = {1.5f, 0, 0, 0};
    cb_write(f.t, zero4, 0, 0, 1, v);
    float got;
    memcpy(&got, memory, 4);
    assert_true(got == 1.5f);
    fixture_close(&f);
}

static uint8_t unorm8(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)floor(v * 255.0 + 0.5);
}

static void test_dual_source_and_minmax(void **state)
{
    (void)state;
    struct fixture f;
    fixture_open(&f);
    linear_cb0(f.regs, rgba8_info(V_CB_NUMBER_TYPE__NUMBER_UNORM));
    set(f.regs, REG_CB_BLEND_CONTROL(0),
        S_CB_BLEND_CONTROL__BLEND_CONTROL_ENABLE(1) |
            S_CB_BLEND_CONTROL__COLOR_SRCBLEND(V_CB_BLEND_FACTOR__BLEND_SRC1_COLOR) |
            S_CB_BLEND_CONTROL__COLOR_DESTBLEND(V_CB_BLEND_FACTOR__BLEND_INV_SRC1_ALPHA) |
            S_CB_BLEND_CONTROL__COLOR_COMB_FCN(V_CB_COMB_FCN__COMB_DST_PLUS_SRC));
    fixture_init_target(&f);
    assert_true(f.t->dual_src);
    const uint8_t dst[4] = {51, 102, 153, 204};
    const float src[4] = {1.0f, 0.5f, 0.25f, 1.0f}, src1[4] = {0.5f, 0.5f, 0.5f, 0.25f};
    memcpy(memory + 8, dst, 4);
    cb_write_dual(f.t, zero4, 2, 0, 1, src, src1);
    for (unsigned c = 0; c < 4; c++) {
        double want = (double)src[c] * src1[c] + dst[c] / 255.0 * (1.0 - src1[3]);
        if (memory[8 + c] != unorm8(want))
            fail_msg("dual source, channel %u: %u, GL gives %u", c, memory[8 + c], unorm8(want));
    }
    /* the hand-worked result of the same: (0.65, 0.55, 0.575, 0.85) * 255 */
    assert_memory_equal(memory + 8, ((const uint8_t[]){166, 140, 147, 217}), 4);
    fixture_close(&f);

    /* MIN for colour, MAX for alpha: the factors do not apply */
    fixture_open(&f);
    linear_cb0(f.regs, rgba8_info(V_CB_NUMBER_TYPE__NUMBER_UNORM));
    set(f.regs, REG_CB_BLEND_CONTROL(0),
        S_CB_BLEND_CONTROL__BLEND_CONTROL_ENABLE(1) | S_CB_BLEND_CONTROL__SEPARATE_ALPHA_BLEND(1) |
            S_CB_BLEND_CONTROL__COLOR_SRCBLEND(V_CB_BLEND_FACTOR__BLEND_ZERO) |
            S_CB_BLEND_CONTROL__COLOR_DESTBLEND(V_CB_BLEND_FACTOR__BLEND_ZERO) |
            S_CB_BLEND_CONTROL__COLOR_COMB_FCN(V_CB_COMB_FCN__COMB_MIN_DST_SRC) |
            S_CB_BLEND_CONTROL__ALPHA_SRCBLEND(V_CB_BLEND_FACTOR__BLEND_ZERO) |
            S_CB_BLEND_CONTROL__ALPHA_DESTBLEND(V_CB_BLEND_FACTOR__BLEND_ZERO) |
            S_CB_BLEND_CONTROL__ALPHA_COMB_FCN(V_CB_COMB_FCN__COMB_MAX_DST_SRC));
    fixture_init_target(&f);
    assert_false(f.t->dual_src);
    memcpy(memory, dst, 4);
    const float s2[4] = {0.1f, 0.9f, 0.6f, 0.1f};
    cb_write(f.t, zero4, 0, 0, 1, s2);
    assert_memory_equal(memory, ((const uint8_t[]){26, 102, 153, 204}), 4);
    fixture_close(&f);
}

static void test_snorm_blend_clamp(void **state)
{
    (void)state;
    struct fixture f;
    fixture_open(&f);
    linear_cb0(f.regs, rgba8_info(V_CB_NUMBER_TYPE__NUMBER_SNORM));
    /* ONE * src + ZERO * dst */
    set(f.regs, REG_CB_BLEND_CONTROL(0),
        S_CB_BLEND_CONTROL__BLEND_CONTROL_ENABLE(1) |
            S_CB_BLEND_CONTROL__COLOR_SRCBLEND(V_CB_BLEND_FACTOR__BLEND_ONE) |
            S_CB_BLEND_CONTROL__COLOR_DESTBLEND(V_CB_BLEND_FACTOR__BLEND_ZERO));
    fixture_init_target(&f);
    const float s[4] = {-0.5f, -3.0f, 0.5f, 2.0f};
    cb_write(f.t, zero4, 0, 0, 1, s);
    /* -0.5 -> -64 (0xC0), -3 -> -1 -> -127 (0x81), 0.5 -> 64, 2 -> 127 */
    assert_memory_equal(memory, ((const uint8_t[]){0xC0, 0x81, 0x40, 0x7F}), 4);
    fixture_close(&f);
}

static void test_alpha_to_coverage(void **state)
{
    (void)state;
    struct vc_regs *r = calloc(1, sizeof *r);
    assert_non_null(r);
    struct cb_alpha_mask a;
    /* Mesa without dithering: offsets 2, no OFFSET_ROUND: round(a * n) */
    set(r, REG_DB_ALPHA_TO_MASK,
        S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_ENABLE(1) | S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET0(2) |
            S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET1(2) | S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET2(2) |
            S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET3(2));
    cb_alpha_mask_init(&a, r, 4);
    assert_true(a.on);
    assert_int_equal(cb_alpha_mask_count(&a, 0, 0, 0.3f), 1);   /* 1.2 */
    assert_int_equal(cb_alpha_mask_count(&a, 1, 1, 0.4f), 2);   /* 1.6 */
    assert_int_equal(cb_alpha_mask_count(&a, 0, 1, 0.0f), 0);
    assert_int_equal(cb_alpha_mask_count(&a, 1, 0, 1.0f), 4);
    assert_int_equal(cb_alpha_mask_count(&a, 1, 0, 7.0f), 4);
    assert_int_equal(cb_alpha_mask_count(&a, 1, 0, NAN), 0);
    assert_int_equal(cb_alpha_mask_apply(&a, 0, 0, 0.4f, 0xF), 0x3);
    assert_int_equal(cb_alpha_mask_apply(&a, 0, 0, 0.4f, 0xA), 0x2);
    /* Mesa's dithered setting: offsets 3, 1, 0, 2 and OFFSET_ROUND: the
     * thresholds 7/8, 3/8, 1/8, 5/8 of a sample over the quad */
    set(r, REG_DB_ALPHA_TO_MASK,
        S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_ENABLE(1) | S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET0(3) |
            S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET1(1) | S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET2(0) |
            S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET3(2) | S_DB_ALPHA_TO_MASK__OFFSET_ROUND(1));
    cb_alpha_mask_init(&a, r, 2);
    /* a * n = 0.8: + 7/8 -> 1, + 3/8 -> 1, + 1/8 -> 0, + 5/8 -> 1 */
    assert_int_equal(cb_alpha_mask_count(&a, 0, 0, 0.4f), 1);
    assert_int_equal(cb_alpha_mask_count(&a, 1, 0, 0.4f), 1);
    assert_int_equal(cb_alpha_mask_count(&a, 0, 1, 0.4f), 0);
    assert_int_equal(cb_alpha_mask_count(&a, 1, 1, 0.4f), 1);
    /* a * n = 0.1: only the upper-left pixel's 7/8 lifts it */
    assert_int_equal(cb_alpha_mask_count(&a, 2, 2, 0.05f), 0);
    assert_int_equal(cb_alpha_mask_count(&a, 2, 2, 0.07f), 1);
    for (unsigned q = 0; q < 4; q++) {
        assert_int_equal(cb_alpha_mask_count(&a, q & 1, q >> 1, 0.0f), 0);
        assert_int_equal(cb_alpha_mask_count(&a, q & 1, q >> 1, 1.0f), 2);
    }
    /* off: one sample, or ALPHA_TO_MASK_DISABLE */
    cb_alpha_mask_init(&a, r, 1);
    assert_false(a.on);
    assert_int_equal(cb_alpha_mask_apply(&a, 0, 0, 0.0f, 0x1), 0x1);
    set(r, REG_DB_SHADER_CONTROL, S_DB_SHADER_CONTROL__ALPHA_TO_MASK_DISABLE(1));
    cb_alpha_mask_init(&a, r, 8);
    assert_false(a.on);
    free(r);
}

static void test_slice_start(void **state)
{
    (void)state;
    struct fixture f;
    fixture_open(&f);
    linear_cb0(f.regs, rgba8_info(V_CB_NUMBER_TYPE__NUMBER_UNORM));
    set(f.regs, REG_CB_COLOR_VIEW(0), S_CB_COLOR_VIEW__SLICE_START(2) | S_CB_COLOR_VIEW__SLICE_MAX(2));
    fixture_init_target(&f);
    const float white[4] = {1, 1, 1, 1};
    cb_write(f.t, zero4, 3, 5, 1, white);
    /* slice 2 of a 64x8, 4-byte linear surface: 2 * 2048 + (5 * 64 + 3) * 4 */
    for (unsigned b = 0; b < 3 * 2048; b++)
        if (memory[b] != (b >= 5388 && b < 5392 ? 0xFF : 0))
            fail_msg("byte %u is 0x%02x", b, memory[b]);
    fixture_close(&f);

    /* 2D-tiled, 4 samples per pixel: the tiling map's address for slice 3 */
    fixture_open(&f);
    set(f.regs, REG_CB_COLOR_BASE(0), GPU_BASE >> 8);
    set(f.regs, REG_CB_COLOR_INFO(0),
        rgba8_info(V_CB_NUMBER_TYPE__NUMBER_UNORM) | S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1));
    set(f.regs, REG_CB_COLOR_ATTRIB(0), S_CB_COLOR_ATTRIB__NUM_BANKS(2) | S_CB_COLOR_ATTRIB__TILE_SPLIT(4));
    set(f.regs, REG_CB_COLOR_PITCH(0), S_CB_COLOR_PITCH__TILE_MAX(64 / 8 - 1));
    set(f.regs, REG_CB_COLOR_SLICE(0), S_CB_COLOR_SLICE__TILE_MAX(64 * 64 / 64 - 1));
    set(f.regs, REG_CB_COLOR_VIEW(0), S_CB_COLOR_VIEW__SLICE_START(3) | S_CB_COLOR_VIEW__SLICE_MAX(3));
    set(f.regs, REG_CB_TARGET_MASK, 0xF);
    set(f.regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__ROP3(0xCC) | S_CB_COLOR_CONTROL__MODE(V_CB_MODE__CB_NORMAL));
    struct vc_draw_err err = {{0}};
    if (cb_target_init(f.r, f.t, 0, 4, f.regs, &f.mem, &err)) {
        fixture_close(&f);
        fail_msg("cb_target_init: %s", err.msg);
    }
    assert_int_equal(f.t->map.slices, 4);
    cb_write(f.t, zero4, 10, 20, 0x4, white); /* sample 2 only */
    uint64_t at = cedar_tile_addr(&f.t->map, 10, 20, 2, 3);
    assert_true(at >= 3 * f.t->map.slice_size);
    for (uint64_t b = 0; b < f.t->map.size; b++)
        if (memory[b] != (b >= at && b < at + 4 ? 0xFF : 0))
            fail_msg("byte %llu is 0x%02x (the write belongs at %llu)", (unsigned long long)b, memory[b],
                     (unsigned long long)at);
    fixture_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rop3),
        cmocka_unit_test(test_dual_source_and_minmax),
        cmocka_unit_test(test_snorm_blend_clamp),
        cmocka_unit_test(test_alpha_to_coverage),
        cmocka_unit_test(test_slice_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
