/* The comparison against the real card's frame (tests/common/card_compare.c)
 * that the acceptance test of Mesa's driver on the virtual Cedar uses
 * (test_gl_card_frame), checked on inputs whose answer is known:
 *  - the card's frame (tests/data/cedar/eg.1.bin.gz, de-tiled) against
 *    itself: every pixel exact, the thresholds met;
 *  - copies corrupted at chosen pixels by chosen amounts: the counts move by
 *    exactly those pixels, and the thresholds (>= 99.99% of 921,600 pixels
 *    within 1: at most 92 pixels off by more; >= 99% of the partially
 *    covered pixels within 2) flip between one pixel and the next;
 *  - the frame as a raw RGBA file with the top row first (cedar-gldemo
 *    --raw): exact; the same file bottom row first, or in the card's B, G,
 *    R, A order, fails;
 *  - Mesa's llvmpipe rendering the scene through cedar-gldemo --flip-y at 4
 *    samples (its most; the card used 8): an independent renderer that
 *    agrees with the card within 1 wherever no edge is near, and misses the
 *    8x thresholds at the edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "cedar/image.h"
#include "tests/common/render_scene.h"
#include "tests/common/test_util.h"

#define W TEST_CARD_WIDTH
#define H TEST_CARD_HEIGHT
#define STRIDE (W * 4u)
#define RAW_FILE "build/artefacts/card_compare.rgba"

struct fixture {
    struct test_demo_frame demo;  /* its FMask says which pixels are edges */
    uint8_t *card;                /* the card's frame, B, G, R, A, STRIDE */
    uint8_t *copy;
};

static int set_up(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    assert_non_null(fx);
    test_demo_frame_render(&fx->demo);
    struct cedar_surface s = test_card_frame_surface();
    struct cedar_tile_map m;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &lerr), 0);
    fx->card = test_card_frame_detiled(&m, STRIDE);
    fx->copy = malloc((size_t)STRIDE * m.height);
    assert_non_null(fx->copy);
    memcpy(fx->copy, fx->card, (size_t)STRIDE * m.height);
    *state = fx;
    return 0;
}

static int tear_down(void **state)
{
    struct fixture *fx = *state;
    test_demo_frame_free(&fx->demo);
    free(fx->card);
    free(fx->copy);
    free(fx);
    return 0;
}

static void card_against_itself(void **state)
{
    struct fixture *fx = *state;
    struct fidelity f;
    test_card_compare(fx->card, STRIDE, &fx->demo.edges, "the card against itself", NULL, &f);
    assert_int_equal(f.pixels, (uint64_t)W * H);
    assert_int_equal(f.exact, f.pixels);
    assert_int_equal(f.max_diff, 0);
    assert_int_equal(f.edge_exact, f.edge_pixels);
    assert_true(f.edge_pixels > 1000);
    assert_true(test_card_thresholds_met(&f));
}

/* Changes channel c of n pixels that are (edge) or are not (!edge)
 * partially covered, spread over the frame, by `by` (away from 0 and 255);
 * returns how many it found (n unless the frame has fewer). */
static unsigned corrupt(struct fixture *fx, unsigned n, bool edge, int c, int by)
{
    unsigned done = 0;
    for (unsigned i = 0; done < n && i < W * H; i++) {
        /* a stride prime to the width visits every pixel once */
        unsigned p = (unsigned)(((uint64_t)i * 7919u) % (W * H)), x = p % W, y = p / W;
        if (fidelity_pixel_partial(&fx->demo.edges, x, y) != edge)
            continue;
        size_t at = (size_t)y * STRIDE + x * 4u;
        if (memcmp(fx->copy + at, fx->card + at, 4) != 0)
            continue; /* already changed */
        uint8_t *v = fx->copy + at + (unsigned)c;
        *v = (uint8_t)(*v < 128 ? *v + by : *v - by);
        done++;
    }
    return done;
}

static void restore(struct fixture *fx)
{
    memcpy(fx->copy, fx->card, (size_t)STRIDE * H);
}

static void all_pixel_threshold(void **state)
{
    struct fixture *fx = *state;
    struct fidelity f;
    /* 99.99% of 921,600 is 921,507.84: 92 pixels may be off by 2, not 93. */
    assert_int_equal(corrupt(fx, 92, false, 1, 2), 92);
    test_card_compare(fx->copy, STRIDE, &fx->demo.edges, "92 pixels off by 2", NULL, &f);
    assert_int_equal(f.exact, f.pixels - 92);
    assert_int_equal(f.within1, f.pixels - 92);
    assert_int_equal(f.within2, f.pixels);
    assert_int_equal(f.max_diff, 2);
    assert_int_equal(f.edge_exact, f.edge_pixels);
    assert_true(test_card_thresholds_met(&f));

    assert_int_equal(corrupt(fx, 1, false, 2, 2), 1);
    test_card_compare(fx->copy, STRIDE, &fx->demo.edges, "93 pixels off by 2", NULL, &f);
    assert_int_equal(f.within1, f.pixels - 93);
    assert_false(test_card_thresholds_met(&f));

    /* Off by 1 everywhere but the edges: within 1, not exact, still met. */
    restore(fx);
    unsigned n = corrupt(fx, W * H, false, 0, 1);
    test_card_compare(fx->copy, STRIDE, &fx->demo.edges, "every non-edge pixel off by 1", NULL, &f);
    assert_int_equal(n, f.pixels - f.edge_pixels);
    assert_int_equal(f.exact, f.edge_pixels);
    assert_int_equal(f.within1, f.pixels);
    assert_true(test_card_thresholds_met(&f));
    restore(fx);
}

static void edge_threshold(void **state)
{
    struct fixture *fx = *state;
    struct fidelity f;
    test_card_compare(fx->card, STRIDE, &fx->demo.edges, "edges", NULL, &f);
    uint64_t edges = f.edge_pixels;
    /* 99% of the edge pixels within 2: edges / 100 may be off by 3. */
    unsigned k = (unsigned)(edges / 100);
    assert_int_equal(corrupt(fx, k, true, 2, 3), k);
    test_card_compare(fx->copy, STRIDE, &fx->demo.edges, "1% of the edge pixels off by 3", NULL, &f);
    assert_int_equal(f.edge_within2, edges - k);
    assert_int_equal(f.edge_within1, edges - k);
    assert_int_equal(f.within2, f.pixels - k);
    assert_int_equal(f.max_diff, 3);
    assert_true(test_card_thresholds_met(&f));
    assert_int_equal(corrupt(fx, 1, true, 0, 3), 1);
    test_card_compare(fx->copy, STRIDE, &fx->demo.edges, "one more edge pixel off by 3", NULL, &f);
    assert_int_equal(f.edge_within2, edges - k - 1);
    assert_false(test_card_thresholds_met(&f));
    restore(fx);
}

/* The card's frame as a raw 4-byte-per-pixel file: rows top first or bottom
 * first, channels swapped to R, G, B, A or kept. */
static void write_raw(const struct fixture *fx, bool bottom_first, bool to_rgba)
{
    uint8_t *raw = malloc((size_t)STRIDE * H);
    assert_non_null(raw);
    for (unsigned y = 0; y < H; y++) {
        const uint8_t *src = fx->card + (size_t)(bottom_first ? H - 1 - y : y) * STRIDE;
        uint8_t *dst = raw + (size_t)y * STRIDE;
        for (unsigned x = 0; x < W * 4; x += 4) {
            dst[x + 0] = src[x + (to_rgba ? 2 : 0)];
            dst[x + 1] = src[x + 1];
            dst[x + 2] = src[x + (to_rgba ? 0 : 2)];
            dst[x + 3] = src[x + 3];
        }
    }
    mkdir("build", 0777);
    mkdir("build/artefacts", 0777);
    struct cedar_image_err e;
    if (cedar_file_write(RAW_FILE, raw, (size_t)STRIDE * H, &e))
        fail_msg("%s", e.msg);
    free(raw);
}

/* RAW_FILE compared with the card. */
static void compare_raw_file(const struct fixture *fx, const char *label, const char *diff_png,
                             struct fidelity *f)
{
    uint8_t *mine = test_rgba_file_as_bgra(RAW_FILE);
    test_card_compare(mine, STRIDE, &fx->demo.edges, label, diff_png, f);
    free(mine);
}

static void raw_rgba_file(void **state)
{
    struct fixture *fx = *state;
    struct fidelity f;
    write_raw(fx, false, true);
    compare_raw_file(fx, "raw RGBA, top row first", NULL, &f);
    assert_int_equal(f.exact, f.pixels);

    write_raw(fx, true, true);
    compare_raw_file(fx, "raw RGBA, bottom row first", NULL, &f);
    assert_false(test_card_thresholds_met(&f));
    assert_true(f.within1 * 10 < f.pixels * 9); /* the triangle is not symmetric in y */

    write_raw(fx, false, false);
    compare_raw_file(fx, "raw in the card's B, G, R, A order", NULL, &f);
    assert_false(test_card_thresholds_met(&f));
    assert_true(f.within1 * 10 < f.pixels * 9); /* the clear colour's R and B differ */
    remove(RAW_FILE);
}

/* cedar-gldemo (the sanitized build, $CEDAR_TOOLS) on the machine's Mesa:
 * llvmpipe here. */
static void llvmpipe_frame(void **state)
{
    struct fixture *fx = *state;
    const char *tools = getenv("CEDAR_TOOLS");
    char cmd[1024];
    mkdir("build", 0777);
    mkdir("build/artefacts", 0777);
    /* Leak checking off for the GL program only: Mesa keeps a few bytes at
     * exit in a driver it has unloaded (see tests/test_cedar_gldemo.sh). */
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=detect_leaks=0 %s/cedar-gldemo --samples 4 --flip-y --raw %s",
             tools ? tools : "build/san/bin", RAW_FILE);
    printf("%s\n", cmd);
    fflush(stdout);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    uint8_t *mine = test_rgba_file_as_bgra(RAW_FILE);
    remove(RAW_FILE);
    struct fidelity f;
    test_card_compare(mine, STRIDE, &fx->demo.edges, "llvmpipe 4x, cedar-gldemo --flip-y",
                      "build/artefacts/card_compare_llvmpipe_diff.png", &f);
    uint64_t far = 0, far_within1 = 0;
    test_card_compare_away_from_edges(mine, STRIDE, 1.0, &far, &far_within1);
    free(mine);
    /* Where no edge is near, the sample pattern (4 or 8 samples, any
     * positions) makes no difference: every pixel within 1 of the card. */
    assert_true(far > (uint64_t)W * H * 9 / 10);
    assert_int_equal(far_within1, far);
    /* At the edges 4 samples are not 8. */
    assert_false(test_card_thresholds_met(&f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(card_against_itself),
        cmocka_unit_test(all_pixel_threshold),
        cmocka_unit_test(edge_threshold),
        cmocka_unit_test(raw_rgba_file),
        cmocka_unit_test(llvmpipe_frame),
    };
    return cmocka_run_group_tests(tests, set_up, tear_down);
}
