/* The colour block's FMask compression (cb.c cb_write, one colour for every
 * covered sample) against what compression must preserve: after any
 * sequence of writes with random sample coverage, every sample reads back
 * (through FMask and CMask, cb_read_sample_raw) the colour of the last write
 * that covered it, or the fast-clear colour if none did; the FMask never
 * names a fragment beyond the sample count.  Pixels of one tile and of
 * neighbouring tiles, 2x, 4x and 8x; through cb_write and through
 * cb_write_tile (the batched draw's path: the tile's kept address tables). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

static uint32_t rng = 777;
static uint32_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
    return rng;
}

/* by_tile: through cb_write_tile (as the batched draw writes), one
 * fragment per call. */
static void check_writes(bool by_tile)
{
    const unsigned sample_counts[] = {2, 4, 8};
    for (unsigned k = 0; k < 3; k++) {
        unsigned ns = sample_counts[k];
        struct scene sc;
        char why[200] = "";
        assert_int_equal(scene_init(&sc, ns, why), 0);
        /* fast clear, as scene_render does */
        memset(sc.mem + (sc.color_addr - sc.gpu_base) + sc.lay.cmask.offset, 0, sc.lay.cmask.size);
        struct cb_target *t = calloc(1, sizeof *t);
        assert_non_null(t);
        struct vc_draw_err err = {{0}};
        assert_int_equal(cb_target_init(sc.r, t, 0, ns, sc.regs, &sc.vmem, &err), 0);
        assert_true(t->fmask_on && t->cmask_on);
        const float zero[4] = {0, 0, 0, 0};
        /* pixels: four of one tile, one in each neighbouring tile */
        static const unsigned px[][2] = {{64, 64}, {65, 64}, {70, 71}, {64, 70}, {72, 64}, {63, 64}, {64, 72}, {56, 56}};
        uint8_t expect[8][8][4];
        for (unsigned p = 0; p < 8; p++)
            for (unsigned s = 0; s < ns; s++)
                cb_read_sample_raw(t, px[p][0], px[p][1], s, expect[p][s]);
        for (int it = 0; it < 3000; it++) {
            unsigned p = next() % 8;
            unsigned x = px[p][0], y = px[p][1];
            uint32_t cov = next() & ((1u << ns) - 1u);
            if (!cov)
                cov = 1u << (next() % ns);
            float rgba[4];
            for (int c = 0; c < 4; c++)
                rgba[c] = (float)(next() % 256) / 255.0f;
            if (by_tile) {
                struct cb_fragment f = {x, y, cov, rgba, NULL};
                cb_write_tile(t, zero, &f, 1);
            } else {
                cb_write(t, zero, x, y, cov, rgba);
            }
            /* what this write stores: the element of its converted colour */
            float conv[4];
            uint8_t el[16];
            cb_export_convert(t, rgba, conv);
            cb_pack(t, conv, el);
            for (unsigned s = 0; s < ns; s++)
                if ((cov >> s) & 1u)
                    memcpy(expect[p][s], el, 4);
            for (unsigned q = 0; q < 8; q++)
                for (unsigned s = 0; s < ns; s++) {
                    uint8_t got[16];
                    cb_read_sample_raw(t, px[q][0], px[q][1], s, got);
                    if (memcmp(got, expect[q][s], 4) != 0)
                        fail_msg("%ux write %d: pixel (%u,%u) sample %u reads %02x%02x%02x%02x, expected "
                                 "%02x%02x%02x%02x",
                                 ns, it, px[q][0], px[q][1], s, got[0], got[1], got[2], got[3], expect[q][s][0],
                                 expect[q][s][1], expect[q][s][2], expect[q][s][3]);
                }
            uint32_t frags = cb_fmask_read(t, x, y);
            for (unsigned s = 0; s < ns; s++)
                assert_true(((frags >> (4 * s)) & 0xFu) < ns);
        }
        free(t);
        scene_free(&sc);
    }
}

static void writes_keep_every_sample(void **state)
{
    (void)state;
    check_writes(false);
}

static void tile_writes_keep_every_sample(void **state)
{
    (void)state;
    check_writes(true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_keep_every_sample),
        cmocka_unit_test(tile_writes_keep_every_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
