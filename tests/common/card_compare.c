/* A frame of the demo's scene against the real card's (see test_util.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "test_util.h"

/* The card's frame de-tiled into rows of `stride` bytes, and its surface. */
static uint8_t *card_frame(size_t stride, struct cedar_surface *s)
{
    *s = test_card_frame_surface();
    struct cedar_tile_map m;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_tile_map_init(&m, s, NULL, &lerr), 0);
    assert_true(stride >= (size_t)m.width * 4);
    return test_card_frame_detiled(&m, stride);
}

void test_card_compare(const uint8_t *mine, size_t stride, const struct fidelity_edges *edges,
                       const char *label, const char *diff_png, struct fidelity *f)
{
    struct cedar_surface s;
    uint8_t *card = card_frame(stride, &s);
    /* Rows 720..767 of the card's buffer are not the scene. */
    fidelity_compare(mine, card, s.width, s.height, stride, edges, f);
    printf("(%s)\n", label);
    fidelity_print(f, stdout);
    if (diff_png) {
        char why[200];
        mkdir("build", 0777);
        mkdir("build/artefacts", 0777);
        if (fidelity_diff_png(diff_png, mine, card, s.width, s.height, stride, why) == 0)
            printf("FIDELITY: difference image %s\n", diff_png);
        else
            printf("FIDELITY: no difference image: %s\n", why);
    }
    free(card);
}

bool test_card_thresholds_met(const struct fidelity *f)
{
    return f->within1 * 10000 >= f->pixels * 9999ull && f->edge_within2 * 100 >= f->edge_pixels * 99ull &&
           f->edge_pixels > 1000;
}

uint8_t *test_rgba_file_as_bgra(const char *path)
{
    size_t size = 0;
    uint8_t *px = test_read_file(path, &size);
    if (size != (size_t)TEST_CARD_WIDTH * TEST_CARD_HEIGHT * 4)
        fail_msg("%s: %zu bytes, not %u x %u x 4", path, size, TEST_CARD_WIDTH, TEST_CARD_HEIGHT);
    for (size_t i = 0; i < size; i += 4) {
        uint8_t r = px[i];
        px[i] = px[i + 2];
        px[i + 2] = r;
    }
    return px;
}

/* Distance in pixels from (x, y) to the line through a and b. */
static double line_distance(const double a[2], const double b[2], double x, double y)
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    return fabs(dx * (y - a[1]) - dy * (x - a[0])) / sqrt(dx * dx + dy * dy);
}

void test_card_compare_away_from_edges(const uint8_t *mine, size_t stride, double min_distance,
                                       uint64_t *pixels, uint64_t *within1)
{
    struct cedar_surface s;
    uint8_t *card = card_frame(stride, &s);
    /* The card's viewport: x_w = 640 (x + 1), y_w = 360 (1 - y). */
    double v[3][2];
    for (int i = 0; i < 3; i++) {
        v[i][0] = (cedar_demo_triangle[i].pos[0] + 1.0) * s.width / 2;
        v[i][1] = (1.0 - cedar_demo_triangle[i].pos[1]) * s.height / 2;
    }
    *pixels = *within1 = 0;
    for (unsigned y = 0; y < s.height; y++)
        for (unsigned x = 0; x < s.width; x++) {
            double cx = x + 0.5, cy = y + 0.5;
            if (line_distance(v[0], v[1], cx, cy) < min_distance ||
                line_distance(v[1], v[2], cx, cy) < min_distance ||
                line_distance(v[2], v[0], cx, cy) < min_distance)
                continue;
            const uint8_t *a = mine + y * stride + x * 4u, *b = card + y * stride + x * 4u;
            bool ok = true;
            for (int c = 0; c < 4; c++)
                ok = ok && abs(a[c] - b[c]) <= 1;
            ++*pixels;
            *within1 += ok;
        }
    printf("FIDELITY: pixels whose centre is %.1f or more from every edge line: %llu, within 1 %llu\n",
           min_distance, (unsigned long long)*pixels, (unsigned long long)*within1);
    free(card);
}
