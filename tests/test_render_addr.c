/* The colour block's micro-tile address cache (cb.c cb_plane_ptr: byte runs
 * from cedar_tile_micro, remembered per 8x8 tile) against the tiling
 * helper's per-element address map (cedar_tile_addr), for every pixel and
 * sample of the reference scene's MSAA surface (2, 4, 8 samples, 2D tiled,
 * FMask/CMask on) and its single-sample resolve target, visited in an order
 * that jumps between tiles (a cache that kept a stale tile would fail); and
 * its FMask tables (addr_table.c, cedar_fmask_micro) against
 * cedar_fmask_fragment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/test_util.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

static void check_target(struct scene *sc, unsigned cb, unsigned samples)
{
    struct cb_target *t = calloc(1, sizeof *t);
    assert_non_null(t);
    struct vc_draw_err err = {{0}};
    int rc = cb_target_init(sc->r, t, cb, samples, sc->regs, &sc->vmem, &err);
    if (rc)
        fail_msg("cb_target_init: %d %s", rc, err.msg);
    assert_true(t->per_run > 0); /* the cached path is the one under test */
    uint64_t n = (uint64_t)t->width * t->height, checked = 0;
    /* 7919 is prime and does not divide n: every pixel once, tiles interleaved */
    for (uint64_t k = 0, p = 0; k < n; k++, p = (p + 7919) % n) {
        unsigned x = (unsigned)(p % t->width), y = (unsigned)(p / t->width);
        for (unsigned s = 0; s < samples; s++) {
            uint8_t *want = t->mem + cedar_tile_addr(&t->map, x, y, s, 0);
            if (cb_plane_ptr(t, x, y, s) != want)
                fail_msg("CB%u %ux: (%u,%u) sample %u: cached address off by %td", cb, samples, x, y, s,
                         cb_plane_ptr(t, x, y, s) - want);
            checked++;
        }
    }
    assert_int_equal(checked, n * samples);
    /* The FMask through the kept tables (cedar_fmask_micro, a tile at a
     * time) against cedar_fmask_fragment pixel by pixel, on random bytes
     * (cb_fmask_read takes an index modulo the sample count). */
    if (t->fmask_on) {
        assert_non_null(t->ftab);
        srand(samples);
        for (uint64_t i = 0; i < t->fmap.size; i++)
            t->fmask[i] = (uint8_t)rand();
        /* a quarter of the pixels, tiles interleaved: every table entry kind is met */
        for (uint64_t k = 0, p = 0; k < n / 4; k++, p = (p + 7919) % n) {
            unsigned x = (unsigned)(p % t->width), y = (unsigned)(p / t->width);
            uint32_t want = 0;
            for (unsigned s = 0; s < samples; s++)
                want |= (cedar_fmask_fragment(&t->fmap, t->fmask, x, y, s, 0) & (samples - 1u)) << (4 * s);
            if (cb_fmask_read(t, x, y) != want)
                fail_msg("CB%u %ux: (%u,%u): FMask through the tables 0x%08X, per pixel 0x%08X", cb,
                         samples, x, y, cb_fmask_read(t, x, y), want);
        }
    }
    free(t);
}

static void cached_addresses_match_tile_map(void **state)
{
    (void)state;
    const unsigned sample_counts[] = {2, 4, 8};
    for (unsigned i = 0; i < 3; i++) {
        struct scene sc;
        char why[200] = "";
        assert_int_equal(scene_init(&sc, sample_counts[i], why), 0);
        check_target(&sc, 0, sample_counts[i]);
        /* CB1 (the resolve target) only has a format during the resolve */
        test_scene_cb1_as_resolve_target(&sc);
        check_target(&sc, 1, 1);
        scene_free(&sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cached_addresses_match_tile_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
