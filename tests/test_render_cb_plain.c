/* cb_write_tile and cb_write_whole_tile_lanes on targets without FMask (the
 * colour block's plain path: one sample, or samples in planes of their own
 * with or without a CMask) against cb_write fragment by fragment: the same
 * bytes in the colour surface and its CMask, for random micro tiles (fast
 * cleared or not), random subsets of their pixels in random order, random
 * coverage, colours at the 8-bit rounding points and the specials, under
 * each export mode (16-bit export or not, rounding or truncating). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/test_util.h"
#include "eg_regs.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

/* CB`cb` of the rendered demo scene at `samples` as a target without FMask. */
static void plain_target(struct scene *sc, struct cb_target *t, unsigned cb, unsigned samples)
{
    test_cb_target_init(sc, t, cb, samples);
    assert_false(t->fmask_on);
    assert_true(t->unorm8 && t->bpe == 4 && t->ctab);
}

struct plain_case {
    const char *name;
    unsigned cb, samples;
};

static void run_case(const struct plain_case *pc, bool lanes_path)
{
    struct scene sc;
    test_scene_render_demo(&sc, 4);
    test_scene_cb1_as_resolve_target(&sc);
    /* CB0 without COMPRESSION: its 4 samples in planes, its CMask kept */
    uint32_t *info0 = &sc.regs->context[(REG_CB_COLOR_INFO(0) - SPACE_CONTEXT_START) / 4];
    *info0 &= ~CB_COLOR_INFO__COMPRESSION__MASK;
    /* both targets' four channels written */
    sc.regs->context[(REG_CB_TARGET_MASK - SPACE_CONTEXT_START) / 4] = 0xFF;
    size_t size = (size_t)sc.mem_size;
    uint8_t *before = malloc(size), *fast = malloc(size);
    struct cb_target *t = calloc(1, sizeof *t);
    assert_non_null(before);
    assert_non_null(fast);
    assert_non_null(t);
    const float cst[4] = {0, 0, 0, 0};
    unsigned cleared = 0, written = 0;
    for (unsigned trial = 0; trial < 96; trial++) {
        bool e16 = trial & 1, trunc = (trial >> 1) & 1;
        plain_target(&sc, t, pc->cb, pc->samples);
        uint32_t all = (1u << pc->samples) - 1u;
        unsigned x0 = (test_rand() % (t->width / 8)) * 8, y0 = (test_rand() % (t->height / 8)) * 8;
        bool was_cleared = t->cmask_on && cb_tile_cleared(t, x0, y0);
        float rgba[64][4];
        uint32_t lane[4][64];
        struct cb_fragment f[64];
        unsigned order[64], n = lanes_path ? 64 : 1 + test_rand() % 64;
        for (unsigned l = 0; l < 64; l++)
            order[l] = l;
        for (unsigned l = 63; l > 0 && !lanes_path; l--) {
            unsigned k = test_rand() % (l + 1), o = order[l];
            order[l] = order[k];
            order[k] = o;
        }
        for (unsigned l = 0; l < 64; l++) {
            for (unsigned c = 0; c < 4; c++) {
                rgba[l][c] = test_rand_colour_channel();
                memcpy(&lane[c][l], &rgba[l][c], 4);
            }
        }
        for (unsigned m = 0; m < n; m++) {
            unsigned l = order[m];
            uint32_t cov = lanes_path ? all : test_rand() & all;
            f[m] = (struct cb_fragment){x0 + l % 8, y0 + l / 8, cov ? cov : 1u, rgba[l], NULL};
        }
        memcpy(before, sc.mem, size);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        if (lanes_path) {
            const uint32_t *const lp[4] = {lane[0], lane[1], lane[2], lane[3]};
            if (!cb_write_whole_tile_lanes(t, x0, y0, lp))
                fail_msg("%s trial %u: tile %u,%u declined by cb_write_whole_tile_lanes", pc->name, trial, x0, y0);
        } else {
            cb_write_tile(t, cst, f, n);
        }
        memcpy(fast, sc.mem, size);
        memcpy(sc.mem, before, size);
        plain_target(&sc, t, pc->cb, pc->samples);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        for (unsigned m = 0; m < n; m++)
            cb_write(t, cst, f[m].x, f[m].y, f[m].coverage, f[m].rgba);
        if (memcmp(fast, sc.mem, size) != 0)
            fail_msg("%s trial %u (%s, %u fragments, 16-bit export %d, truncate %d, tile %u,%u %s): differs from "
                     "cb_write",
                     pc->name, trial, lanes_path ? "lanes" : "cb_write_tile", n, e16, trunc, x0, y0,
                     was_cleared ? "fast-cleared" : "expanded");
        if (memcmp(fast, before, size) == 0)
            fail_msg("%s trial %u: nothing written", pc->name, trial);
        cleared += was_cleared;
        written++;
        memcpy(sc.mem, before, size);
    }
    printf("%s, %s: %u tiles (%u fast-cleared) equal to cb_write\n", pc->name,
           lanes_path ? "whole tiles from lanes" : "cb_write_tile", written, cleared);
    if (pc->samples > 1)
        assert_true(cleared > 4 && cleared < written);
    free(t);
    free(fast);
    free(before);
    scene_free(&sc);
}

static const struct plain_case single = {"one sample (CB1)", 1, 1};
static const struct plain_case planes = {"4 samples in planes, CMask (CB0 without COMPRESSION)", 0, 4};

static void single_sample_tile_writes(void **state)
{
    (void)state;
    test_rand_seed(0x5A1E1u);
    run_case(&single, false);
}

static void single_sample_lanes(void **state)
{
    (void)state;
    test_rand_seed(0x5A1E2u);
    run_case(&single, true);
}

static void planes_tile_writes(void **state)
{
    (void)state;
    test_rand_seed(0x5A1E3u);
    run_case(&planes, false);
}

static void planes_lanes(void **state)
{
    (void)state;
    test_rand_seed(0x5A1E4u);
    run_case(&planes, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_sample_tile_writes),
        cmocka_unit_test(single_sample_lanes),
        cmocka_unit_test(planes_tile_writes),
        cmocka_unit_test(planes_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
