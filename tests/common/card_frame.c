/* The real HD 7350's resolved frame, the ground truth of the tiling and
 * render tests (see test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/image.h"
#include "cedar/tiling.h"
#include "tests/common/render_scene.h"
#include "test_util.h"

struct cedar_surface test_card_frame_surface(void)
{
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    s.mode = CEDAR_MODE_2D_THIN;
    s.width = s.aligned_width = 1280;
    s.height = 720;
    s.aligned_height = 768;
    s.bpe = 4;
    s.samples = 1;
    s.tile_split = 1024;
    s.bankw = 1;
    s.bankh = 2;
    s.mtilea = 2;
    s.tiling.pipes = 2;
    s.tiling.banks = 8;
    s.tiling.group_bytes = 256;
    s.tiling.row_bytes = 1024;
    return s;
}

uint8_t *test_card_frame_detiled(const struct cedar_tile_map *m, size_t stride)
{
    uint8_t *card = NULL;
    size_t card_size = 0;
    struct cedar_image_err e;
    if (cedar_file_read(TEST_CARD_FRAME, 64u << 20, &card, &card_size, &e))
        fail_msg("%s: %s", TEST_CARD_FRAME, e.msg);
    assert_int_equal(card_size, m->size);
    uint8_t *linear = malloc(stride * m->height);
    assert_non_null(linear);
    assert_int_equal(cedar_detile(m, card, card_size, linear, stride, 0, 0), 0);
    free(card);
    return linear;
}

void test_assert_card_fidelity(const struct fidelity *f)
{
    assert_true(test_card_thresholds_met(f));
    assert_true(f->max_diff <= 1);
    assert_true(f->within1 == f->pixels);
    /* issue 16: the resolve's rule makes every partially covered pixel
     * exact; 12 fully covered ones stay 1 off (their interpolation) */
    assert_int_equal(f->pixels, (uint64_t)TEST_CARD_WIDTH * TEST_CARD_HEIGHT);
    assert_int_equal(f->edge_exact, f->edge_pixels);
    assert_true(f->exact >= f->pixels - TEST_CARD_INTERIOR_OFF);
}
