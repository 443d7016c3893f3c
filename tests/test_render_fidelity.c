/* The renderer against the real card: the 8x MSAA scene of the seed write-up
 * (clear by CMask, one triangle into an FMask-compressed 8x surface, CB
 * resolve into a 2D-tiled single-sample surface) rendered by vc_render_draw
 * with a hand-programmed register file, de-tiled, and compared with the
 * frame a real HD 7350 produced (tests/data/cedar/eg.1.bin.gz, rows 0..719).
 *
 * The shader stages are a TEST DOUBLE (fixed_function_*): the vertex stage
 * hands out the scene's three positions and colours, the pixel stage
 * interpolates the colour at the pixel centre as the scene's pixel shader's
 * INTERP_XY/ZW would (P0 + i*(P1-P0) + j*(P2-P0) in single precision).
 * Until the Evergreen interpreter, the command processor and the demo's
 * command builders land, this checks the rasteriser, the CB (CMask, FMask,
 * resolve) and the tiling against the card; the register values are those of
 * Mesa's stream for the same scene (tests/data/mesa-r600-msaa8x/cs_003.txt,
 * cs_004.txt) with the resolve destination's layout from src/layout.
 *
 * Figures are printed (FIDELITY: lines); thresholds from issue 7. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/image.h"
#include "cedar/layout.h"
#include "cedar/render.h"
#include "cedar/tiling.h"
#include "tests/common/render_scene.h"
#include "tests/common/test_util.h"

#define W 1280
#define H 720
#define FB_H 768

static void fidelity_against_real_card(void **state)
{
    (void)state;
    struct scene sc;
    char why[200];
    assert_int_equal(scene_init(&sc, 8, why), 0);
    assert_int_equal(scene_render(&sc, why), 0);

    uint8_t *mine = malloc((size_t)W * FB_H * 4);
    assert_non_null(mine);
    assert_int_equal(scene_readback(&sc, mine), 0);

    assert_int_equal(sc.resolve_map.size, (uint64_t)W * FB_H * 4);
    uint8_t *card_lin = test_card_frame_detiled(&sc.resolve_map, W * 4);

    struct fidelity f;
    struct fidelity_edges edges;
    scene_edges(&sc, &edges);
    fidelity_compare(mine, card_lin, W, H, W * 4, &edges, &f);
    fidelity_print(&f, stdout);
    test_assert_card_fidelity(&f);
    free(card_lin);
    free(mine);
    scene_free(&sc);
}

static void resolve_honours_fast_clear(void **state)
{
    /* A frame with no triangle: every pixel must be the clear colour,
     * produced by the resolve from CMask alone. */
    (void)state;
    struct scene sc;
    char why[200];
    assert_int_equal(scene_init(&sc, 8, why), 0);
    sc.skip_triangle = true;
    assert_int_equal(scene_render(&sc, why), 0);
    uint8_t *mine = malloc((size_t)W * FB_H * 4);
    assert_int_equal(scene_readback(&sc, mine), 0);
    for (size_t p = 0; p < (size_t)W * H; p++)
        if (memcmp(mine + 4 * p, sc.clear_bgra, 4) != 0)
            fail_msg("pixel %zu is %02X%02X%02X%02X, not the clear colour", p, mine[4 * p], mine[4 * p + 1],
                     mine[4 * p + 2], mine[4 * p + 3]);
    free(mine);
    scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fidelity_against_real_card),
        cmocka_unit_test(resolve_honours_fast_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
