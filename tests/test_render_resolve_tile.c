/* The resolve's per-tile path (resolve.c cb_resolve_tile: fast-cleared tiles
 * and FMask-compressed tiles through the kept address tables) against its
 * per-pixel path (cb_resolve_pixel), on the demo scene drawn through the
 * Evergreen interpreter at 2, 4 and 8 samples: the whole resolve target must
 * come out byte for byte the same, and the tile path must have taken both
 * cleared tiles and tiles the triangle covers (edges included).  Then the
 * source's clear colour changed under the same targets (what the tile path
 * keeps per pair of targets must follow it): a cleared tile again against
 * cb_resolve_pixel. */
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

static void tile_path_matches_pixels(void **state)
{
    (void)state;
    const unsigned sample_counts[] = {2, 4, 8};
    for (unsigned k = 0; k < 3; k++) {
        unsigned ns = sample_counts[k];
        struct scene sc;
        struct cb_target *src, *dst;
        test_scene_resolve_targets(&sc, ns, &src, &dst);
        size_t size = (size_t)dst->map.size;
        uint8_t *by_pixel = malloc(size);
        assert_non_null(by_pixel);

        memset(dst->mem, 0xA5, size);
        for (unsigned y = 0; y < dst->height; y++)
            for (unsigned x = 0; x < dst->width; x++)
                cb_resolve_pixel(src, dst, x, y);
        memcpy(by_pixel, dst->mem, size);

        memset(dst->mem, 0xA5, size);
        unsigned cleared = 0, covered = 0, per_pixel = 0;
        for (unsigned y = 0; y + 8 <= dst->height; y += 8)
            for (unsigned x = 0; x + 8 <= dst->width; x += 8) {
                bool was_cleared = cb_tile_cleared(src, x, y);
                if (cb_resolve_tile(src, dst, x, y)) {
                    if (was_cleared)
                        cleared++;
                    else
                        covered++;
                    continue;
                }
                per_pixel++;
                for (unsigned py = y; py < y + 8; py++)
                    for (unsigned px = x; px < x + 8; px++)
                        cb_resolve_pixel(src, dst, px, py);
            }
        if (memcmp(by_pixel, dst->mem, size) != 0) {
            size_t i = 0;
            while (by_pixel[i] == dst->mem[i])
                i++;
            fail_msg("%ux: resolve target differs first at byte 0x%zx", ns, i);
        }
        printf("%ux: %u cleared tiles, %u covered tiles by the tile path, %u per pixel\n", ns, cleared, covered,
               per_pixel);
        assert_true(cleared > 1000);
        assert_true(covered > 1000); /* the triangle's tiles, its edges among them */

        src->clear_word[0] ^= 0x01020304u;
        assert_true(cb_tile_cleared(src, 0, 0));
        for (unsigned py = 0; py < 8; py++)
            for (unsigned px = 0; px < 8; px++)
                cb_resolve_pixel(src, dst, px, py);
        memcpy(by_pixel, dst->mem, size);
        memset(dst->mem, 0xA5, size);
        assert_int_equal(cb_resolve_tile(src, dst, 0, 0), 1);
        for (unsigned py = 0; py < 8; py++)
            for (unsigned px = 0; px < 8; px++) {
                const uint8_t *a = cb_plane_ptr(dst, px, py, 0), *b = by_pixel + (a - dst->mem);
                if (memcmp(a, b, 4) != 0)
                    fail_msg("%ux: pixel (%u, %u) of a cleared tile after the clear colour changed: %02x%02x%02x%02x, "
                             "per pixel %02x%02x%02x%02x",
                             ns, px, py, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
            }
        free(by_pixel);
        free(src);
        free(dst);
        scene_free(&sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tile_path_matches_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
