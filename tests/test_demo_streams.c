/* The demo's command buffers, built without a device, against Mesa's
 * streams for the same scene (tests/data/mesa-r600-msaa8x/cs_00N.bin, read
 * with the project's PM4 walker) and against Mesa's formulas for 2x / 4x.
 *
 * Compared register by register: every CB_COLOR0_* of the draw and the
 * resolve but the relocated BASE, every CB_COLOR1_* of the resolve but BASE,
 * CB_COLOR_CONTROL of draw and resolve, PA_SC_AA_CONFIG,
 * PA_SC_AA_SAMPLE_LOCS_*, PA_SC_AA_MASK, PA_SC_MODE_CNTL_0/1.  Expected
 * differences, from the pixel format only: the demo stores B, G, R, A
 * (COMP_SWAP SWAP_ALT), Mesa's GL_RGBA8 R, G, B, A (SWAP_STD), so INFO's
 * COMP_SWAP and CLEAR_WORD0's byte order differ. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/demo.h"
#include "cedar/pm4.h"
#include "eg_regs.h"
#include "src/demo/demo_internal.h"
#include "tests/common/test_util.h"

/* --- register files from a walk ------------------------------------------ */

#define MESA "tests/data/mesa-r600-msaa8x/"
#define CTX_DW ((SPACE_CONTEXT_END - SPACE_CONTEXT_START) / 4)

struct regfile {
    uint32_t ctx[CTX_DW];
    uint8_t written[CTX_DW];
    unsigned unknown_regs, unknown_packets, relocs, stray_relocs, max_reloc_index;
    /* CP_DMA fills seen: value, destination, bytes */
    unsigned nfills;
    uint32_t fill_value[4], fill_dst[4], fill_bytes[4];
};

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct regfile *rf = ctx;
    if (p->type == 3 && !p->def)
        rf->unknown_packets++;
    if (p->type == 3 && p->opcode == PKT3_CP_DMA && p->npayload == 5 && rf->nfills < 4) {
        rf->fill_value[rf->nfills] = p->payload[0];
        rf->fill_dst[rf->nfills] = p->payload[2];
        rf->fill_bytes[rf->nfills] = G_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(p->payload[4]);
        rf->nfills++;
    }
    return 0;
}

static int on_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    (void)p;
    struct regfile *rf = ctx;
    /* resource slots are 8-dword descriptors (SQ_VTX_CONSTANT_WORD0..7
     * bitsets), not named registers */
    if (!w->reg && p->opcode != PKT3_SET_RESOURCE)
        rf->unknown_regs++;
    if (w->offset >= SPACE_CONTEXT_START && w->offset < SPACE_CONTEXT_END &&
        p->opcode == PKT3_SET_CONTEXT_REG) {
        unsigned i = (w->offset - SPACE_CONTEXT_START) / 4;
        rf->ctx[i] = w->value;
        rf->written[i] = 1;
    }
    return 0;
}

static int on_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    (void)nop;
    struct regfile *rf = ctx;
    rf->relocs++;
    if (!r->tied)
        rf->stray_relocs++;
    if (r->index > rf->max_reloc_index)
        rf->max_reloc_index = r->index;
    return 0;
}

static void walk(const uint32_t *dw, size_t ndw, struct regfile *rf)
{
    memset(rf, 0, sizeof *rf);
    struct eg_pm4_sink sink = { rf, on_packet, on_reg, on_reloc };
    struct eg_pm4_error err;
    int rc = eg_pm4_walk(dw, ndw, NULL, &sink, &err);
    if (rc != 0)
        fail_msg("walk: %s", err.message);
}

static uint32_t reg(const struct regfile *rf, uint32_t offset)
{
    unsigned i = (offset - SPACE_CONTEXT_START) / 4;
    if (!rf->written[i])
        fail_msg("register 0x%05X not written", offset);
    return rf->ctx[i];
}

static const struct cedar_cmdbuf *ib(const struct cedar_demo_plan *plan, const char *what)
{
    for (unsigned i = 0; i < plan->nibs; i++)
        if (strcmp(plan->ibs[i].what, what) == 0)
            return &plan->ibs[i].cb;
    fail_msg("no %s command buffer", what);
    return NULL;
}

static void build(unsigned samples, bool fast_clear, struct cedar_demo_plan *plan)
{
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    cfg.samples = samples;
    cfg.fast_clear = fast_clear;
    char err[256];
    if (cedar_demo_plan_build(&cfg, plan, err, sizeof err) != 0)
        fail_msg("plan: %s", err);
}

/* --- every stream decodes, nothing unknown, relocations in range -------- */

static void streams_decode(void **state)
{
    (void)state;
    const unsigned counts[] = { 1, 2, 4, 8 };
    for (unsigned k = 0; k < 4; k++)
        for (int fast = 0; fast < 2; fast++) {
            struct cedar_demo_plan plan;
            build(counts[k], fast, &plan);
            assert_int_equal(plan.nibs, counts[k] > 1 ? 4 : 2);
            for (unsigned i = 0; i < plan.nibs; i++) {
                const struct cedar_cmdbuf *cb = &plan.ibs[i].cb;
                struct regfile rf;
                walk(cb->dw, cb->ndw, &rf);
                assert_int_equal(rf.unknown_regs, 0);
                assert_int_equal(rf.unknown_packets, 0);
                assert_int_equal(rf.stray_relocs, 0);
                assert_true(rf.relocs > 0);
                assert_true(rf.max_reloc_index < cb->nrelocs);
                assert_int_equal(cb->ndw % 8, 0);
            }
            cedar_demo_plan_free(&plan);
        }
}

/* --- 8x against Mesa's bytes --------------------------------------------- */

static const uint32_t cb0_compared[] = {
    /* BASE is relocated (0 in both: the surface starts the buffer) */
    0x04 /* PITCH */, 0x08 /* SLICE */, 0x0C /* VIEW */, 0x14 /* ATTRIB */, 0x18 /* DIM */,
    0x1C /* CMASK */, 0x20 /* CMASK_SLICE */, 0x24 /* FMASK */, 0x28 /* FMASK_SLICE */,
    0x30 /* CLEAR_WORD1 */,
};

static void compare_cb(const struct regfile *ours, const struct regfile *mesa, unsigned index,
                       bool has_clear)
{
    uint32_t base = REG_CB_COLOR_BASE(index);
    assert_int_equal(REG_CB_COLOR_INFO(index) - base, 0x10);
    for (size_t i = 0; i < sizeof cb0_compared / sizeof cb0_compared[0]; i++) {
        uint32_t o = reg(ours, base + cb0_compared[i]), m = reg(mesa, base + cb0_compared[i]);
        if (o != m)
            fail_msg("CB_COLOR%u +0x%02X: ours 0x%08X, Mesa 0x%08X", index, cb0_compared[i], o, m);
    }
    uint32_t oi = reg(ours, REG_CB_COLOR_INFO(index)), mi = reg(mesa, REG_CB_COLOR_INFO(index));
    assert_int_equal(G_CB_COLOR_INFO__COMP_SWAP(oi), V_CB_COMP_SWAP__SWAP_ALT);
    assert_int_equal(G_CB_COLOR_INFO__COMP_SWAP(mi), V_CB_COMP_SWAP__SWAP_STD);
    uint32_t swap_mask = CB_COLOR_INFO__COMP_SWAP__MASK;
    assert_int_equal(oi & ~swap_mask, mi & ~swap_mask);
    /* CLEAR_WORD0: Mesa's bytes R, G, B, A; ours B, G, R, A */
    uint32_t oc = reg(ours, base + 0x2C), mc = reg(mesa, base + 0x2C);
    uint32_t mc_bgra = (mc & 0xFF00FF00u) | (mc & 0xFFu) << 16 | (mc >> 16 & 0xFFu);
    assert_int_equal(oc, mc_bgra);
    if (has_clear)
        assert_int_not_equal(mc, 0);
}

static void compare_msaa(const struct regfile *ours, const struct regfile *mesa)
{
    static const uint32_t regs[] = {
        REG_PA_SC_AA_CONFIG, REG_PA_SC_AA_MASK, REG_PA_SC_MODE_CNTL_0, REG_PA_SC_MODE_CNTL_1,
        REG_PA_SC_AA_SAMPLE_LOCS_0, REG_PA_SC_AA_SAMPLE_LOCS_1, REG_PA_SC_AA_SAMPLE_LOCS_2,
        REG_PA_SC_AA_SAMPLE_LOCS_3, REG_PA_SC_AA_SAMPLE_LOCS_4, REG_PA_SC_AA_SAMPLE_LOCS_5,
        REG_PA_SC_AA_SAMPLE_LOCS_6, REG_PA_SC_AA_SAMPLE_LOCS_7, REG_CB_COLOR_CONTROL,
    };
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        uint32_t o = reg(ours, regs[i]), m = reg(mesa, regs[i]);
        if (o != m)
            fail_msg("0x%05X (%s): ours 0x%08X, Mesa 0x%08X", regs[i],
                     eg_reg_find(regs[i]) ? eg_reg_find(regs[i])->name : "?", o, m);
    }
}

static void draw_8x_equals_mesa(void **state)
{
    (void)state;
    struct cedar_demo_plan plan;
    build(8, true, &plan);
    const struct cedar_cmdbuf *cb = ib(&plan, "draw");
    struct regfile ours, mesa;
    walk(cb->dw, cb->ndw, &ours);
    size_t n;
    uint32_t *m = test_read_dwords(MESA "cs_003.bin", &n);
    walk(m, n, &mesa);
    free(m);
    compare_cb(&ours, &mesa, 0, true);
    compare_msaa(&ours, &mesa);
    assert_int_equal(G_CB_COLOR_CONTROL__MODE(reg(&ours, REG_CB_COLOR_CONTROL)),
                     V_CB_MODE__CB_NORMAL);
    cedar_demo_plan_free(&plan);
}

static void resolve_8x_equals_mesa(void **state)
{
    (void)state;
    struct cedar_demo_plan plan;
    build(8, true, &plan);
    const struct cedar_cmdbuf *cb = ib(&plan, "resolve");
    struct regfile ours, mesa;
    walk(cb->dw, cb->ndw, &ours);
    size_t n;
    uint32_t *m = test_read_dwords(MESA "cs_004.bin", &n);
    walk(m, n, &mesa);
    free(m);
    compare_cb(&ours, &mesa, 0, true);
    compare_cb(&ours, &mesa, 1, false);
    compare_msaa(&ours, &mesa);
    assert_int_equal(G_CB_COLOR_CONTROL__MODE(reg(&ours, REG_CB_COLOR_CONTROL)),
                     V_CB_MODE__CB_RESOLVE);
    cedar_demo_plan_free(&plan);
}

/* The CMask fills: 0xCCCCCCCC at creation, 0 for the fast clear, over the
 * CMask's range, as in Mesa's cs_001 and cs_002. */
static void cmask_fills_equal_mesa(void **state)
{
    (void)state;
    struct cedar_demo_plan plan;
    build(8, true, &plan);
    const char *ours_ib[2] = { "init", "clear" };
    const char *mesa_cs[2] = { MESA "cs_001.bin", MESA "cs_002.bin" };
    for (int i = 0; i < 2; i++) {
        const struct cedar_cmdbuf *cb = ib(&plan, ours_ib[i]);
        struct regfile o, me;
        walk(cb->dw, cb->ndw, &o);
        size_t n;
        uint32_t *m = test_read_dwords(mesa_cs[i], &n);
        walk(m, n, &me);
        free(m);
        assert_int_equal(o.nfills, 1);
        assert_int_equal(me.nfills, 1);
        assert_int_equal(o.fill_value[0], me.fill_value[0]);
        assert_int_equal(o.fill_dst[0], me.fill_dst[0]);
        assert_int_equal(o.fill_bytes[0], me.fill_bytes[0]);
    }
    /* no fast clear: the CMask is not filled with 0, a rectangle is drawn */
    cedar_demo_plan_free(&plan);
    build(8, false, &plan);
    struct regfile o;
    const struct cedar_cmdbuf *cb = ib(&plan, "clear");
    walk(cb->dw, cb->ndw, &o);
    assert_int_equal(o.nfills, 0);
    assert_int_equal(reg(&o, REG_CB_COLOR_CLEAR_WORD0(0)), 0);
    cedar_demo_plan_free(&plan);
}

/* --- 2x and 4x against Mesa's formulas ----------------------------------- */

/* Mesa's FILL_SREG (r600_pipe_common.h): four samples, x then y, 4 bits each. */
static uint32_t fill_sreg(int s0x, int s0y, int s1x, int s1y, int s2x, int s2y, int s3x, int s3y)
{
    return ((unsigned)s0x & 0xF) | ((unsigned)s0y & 0xF) << 4 | ((unsigned)s1x & 0xF) << 8 |
           ((unsigned)s1y & 0xF) << 12 | ((unsigned)s2x & 0xF) << 16 |
           ((unsigned)s2y & 0xF) << 20 | ((unsigned)s3x & 0xF) << 24 |
           ((unsigned)s3y & 0xF) << 28;
}

static void msaa_2x_4x_follow_mesa(void **state)
{
    (void)state;
    /* Mesa cayman_msaa.c: eg_sample_locs_2x = FILL_SREG(4, 4, -4, -4, 4, 4, -4, -4) x4,
     * eg_max_dist_2x = 4; eg_sample_locs_4x = FILL_SREG(-2, -6, 6, -2, -6, 2, 2, 6) x4,
     * eg_max_dist_4x = 6; evergreen_emit_msaa_state writes the four dwords, then
     * PA_SC_LINE_CNTL LAST_PIXEL | EXPAND_LINE_WIDTH, PA_SC_AA_CONFIG
     * MSAA_NUM_SAMPLES log2(n) (bits 0..1) | MAX_SAMPLE_DIST (bits 13..16). */
    const struct { unsigned samples; uint32_t locs; uint32_t aa_config; } want[2] = {
        { 2, fill_sreg(4, 4, -4, -4, 4, 4, -4, -4), 1u | 4u << 13 },
        { 4, fill_sreg(-2, -6, 6, -2, -6, 2, 2, 6), 2u | 6u << 13 },
    };
    for (int k = 0; k < 2; k++) {
        struct cedar_demo_plan plan;
        build(want[k].samples, true, &plan);
        for (int which = 0; which < 2; which++) {
            const struct cedar_cmdbuf *cb = ib(&plan, which ? "resolve" : "draw");
            struct regfile o;
            walk(cb->dw, cb->ndw, &o);
            for (unsigned i = 0; i < 4; i++)
                assert_int_equal(reg(&o, REG_PA_SC_AA_SAMPLE_LOCS_0 + 4 * i), want[k].locs);
            /* only four location dwords are written for 2x / 4x */
            assert_false(o.written[(REG_PA_SC_AA_SAMPLE_LOCS_4 - SPACE_CONTEXT_START) / 4]);
            assert_int_equal(reg(&o, REG_PA_SC_AA_CONFIG), want[k].aa_config);
            /* the same as 8x: sample mask 0xFF per quad pixel, MSAA and
             * viewport scissor on, EOV counters forced (Mesa's 8x bytes) */
            assert_int_equal(reg(&o, REG_PA_SC_AA_MASK), 0xFFFFFFFFu);
            assert_int_equal(reg(&o, REG_PA_SC_MODE_CNTL_0), 0x00000003u);
            assert_int_equal(reg(&o, REG_PA_SC_MODE_CNTL_1), 0x06000000u);
            assert_int_equal(reg(&o, REG_PA_SC_LINE_CNTL), 0x00000600u);

            /* the surfaces as the layout code computes them (checked against
             * libdrm and Mesa by test_layout*), with Mesa's encodings */
            const struct cedar_msaa_layout *l = &plan.layout;
            uint32_t attrib = reg(&o, REG_CB_COLOR_ATTRIB(0));
            assert_int_equal(reg(&o, REG_CB_COLOR_PITCH(0)), l->color.aligned_width / 8 - 1);
            assert_int_equal(reg(&o, REG_CB_COLOR_SLICE(0)),
                             l->color.aligned_width * l->color.aligned_height / 64 - 1);
            assert_int_equal(reg(&o, REG_CB_COLOR_CMASK(0)), l->cmask.offset >> 8);
            assert_int_equal(reg(&o, REG_CB_COLOR_CMASK_SLICE(0)), l->cmask.slice_tile_max);
            assert_int_equal(reg(&o, REG_CB_COLOR_FMASK(0)), l->fmask.offset >> 8);
            assert_int_equal(reg(&o, REG_CB_COLOR_FMASK_SLICE(0)), l->fmask.slice_tile_max);
            assert_int_equal(attrib >> 5 & 7, l->color.tile_split_enc);   /* TILE_SPLIT */
            assert_int_equal(attrib >> 10 & 3, 2);                        /* 8 banks */
            assert_int_equal(attrib >> 24 & 0x1F, 0);                     /* NUM_SAMPLES, NUM_FRAGMENTS */
            uint32_t info = reg(&o, REG_CB_COLOR_INFO(0));
            assert_int_equal(info >> 17 & 3, 3);                          /* FAST_CLEAR, COMPRESSION */
        }
        cedar_demo_plan_free(&plan);
    }
}

static void single_sample_has_no_msaa(void **state)
{
    (void)state;
    struct cedar_demo_plan plan;
    build(1, true, &plan);
    const struct cedar_cmdbuf *cb = ib(&plan, "draw");
    struct regfile o;
    walk(cb->dw, cb->ndw, &o);
    /* Mesa's evergreen_emit_msaa_state for one sample */
    assert_int_equal(reg(&o, REG_PA_SC_AA_CONFIG), 0);
    assert_int_equal(reg(&o, REG_PA_SC_LINE_CNTL), 0x00000400u);
    assert_int_equal(reg(&o, REG_PA_SC_MODE_CNTL_0) & 1, 0);
    assert_false(o.written[(REG_PA_SC_AA_SAMPLE_LOCS_0 - SPACE_CONTEXT_START) / 4]);
    uint32_t info = reg(&o, REG_CB_COLOR_INFO(0));
    assert_int_equal(info >> 17 & 3, 0);
    for (unsigned i = 0; i < plan.nibs; i++)
        assert_string_not_equal(plan.ibs[i].what, "resolve");
    cedar_demo_plan_free(&plan);
}

static void bad_configs_refused(void **state)
{
    (void)state;
    struct cedar_demo_config cfg;
    struct cedar_demo_plan plan;
    char err[256];
    cedar_demo_config_default(&cfg);
    cfg.samples = 3;
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), -1);
    cedar_demo_plan_free(&plan);
    cedar_demo_config_default(&cfg);
    cfg.width = 0;
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), -1);
    cedar_demo_plan_free(&plan);
    cedar_demo_config_default(&cfg);
    cfg.height = CEDAR_DEMO_MAX_SIZE + 1;
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), -1);
    cedar_demo_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(streams_decode),
        cmocka_unit_test(draw_8x_equals_mesa),
        cmocka_unit_test(resolve_8x_equals_mesa),
        cmocka_unit_test(cmask_fills_equal_mesa),
        cmocka_unit_test(msaa_2x_4x_follow_mesa),
        cmocka_unit_test(single_sample_has_no_msaa),
        cmocka_unit_test(bad_configs_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
