/* The benchmark's frame check (tools/bench/frame_check.c) must accept a real
 * render of the scene and refuse broken ones, or `make bench` could time a
 * frame that draws nothing:
 *  - the real HD 7350's resolved 8x frame (tests/data/cedar/eg.1.bin.gz,
 *    de-tiled with the parameters of tests/data/cedar/README.md) passes as
 *    BGRA, its byte order, and fails read as RGBA;
 *  - a 4-sample render of the scene computed here from the triangle's edge
 *    functions passes; the same render point-sampled at pixel centres
 *    passes as one sample and fails as antialiased (no blended edge);
 *  - a frame of clear colour only, or one with a wrong clear colour, fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/demo.h"
#include "cedar/image.h"
#include "cedar/tiling.h"
#include "tests/common/test_util.h"
/* The check lives with cedar-bench (tools/bench/), which tests do not link. */
#include "tools/bench/frame_check.c"

#define STRIDE (FRAME_WIDTH * 4u)

static void test_real_card_frame(void **state)
{
    (void)state;
    struct cedar_surface s = test_card_frame_surface();
    struct cedar_tile_map m;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &lerr), 0);
    uint8_t *linear = test_card_frame_detiled(&m, (size_t)m.width * 4);

    char why[256] = "";
    int rc = frame_check_image(linear, (size_t)m.width * 4, FRAME_BGRA, 8, why, sizeof why);
    if (rc != 0)
        print_error("%s\n", why);
    assert_int_equal(rc, 0);
    /* Red and blue swapped: the corners are no longer the clear colour. */
    assert_int_equal(frame_check_image(linear, (size_t)m.width * 4, FRAME_RGBA, 8, why, sizeof why), -1);
    assert_non_null(strstr(why, "corner"));
    free(linear);
}

/* 4x sample offsets in 1/16 pixel: the standard pattern (Mesa r600's
 * eg_sample_locs_4x holds the same four points). */
static const int sample_4x[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};

static double edge(const float *a, const float *b, double x, double y)
{
    return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
}

/* The scene at `samples` (1 or 4) points per pixel, rows top-down, RGBA. */
static uint8_t *render_scene(unsigned samples)
{
    uint8_t *img = malloc((size_t)STRIDE * FRAME_HEIGHT);
    assert_non_null(img);
    const float *v0 = cedar_demo_triangle[0].pos, *v1 = cedar_demo_triangle[1].pos;
    const float *v2 = cedar_demo_triangle[2].pos;
    double area = edge(v0, v1, v2[0], v2[1]);
    for (unsigned y = 0; y < FRAME_HEIGHT; y++)
        for (unsigned x = 0; x < FRAME_WIDTH; x++) {
            double cx = (x + 0.5) / FRAME_WIDTH * 2 - 1, cy = 1 - (y + 0.5) / FRAME_HEIGHT * 2;
            /* Colour at the pixel centre, from the barycentric weights. */
            double w0 = edge(v1, v2, cx, cy) / area, w1 = edge(v2, v0, cx, cy) / area;
            double w2 = 1 - w0 - w1;
            double tri[3], acc[3] = {0, 0, 0};
            for (int c = 0; c < 3; c++)
                tri[c] = w0 * cedar_demo_triangle[0].color[c] + w1 * cedar_demo_triangle[1].color[c] +
                         w2 * cedar_demo_triangle[2].color[c];
            for (unsigned s = 0; s < samples; s++) {
                double dx = samples > 1 ? sample_4x[s][0] / 16.0 : 0;
                double dy = samples > 1 ? sample_4x[s][1] / 16.0 : 0;
                double sx = (x + 0.5 + dx) / FRAME_WIDTH * 2 - 1;
                double sy = 1 - (y + 0.5 + dy) / FRAME_HEIGHT * 2;
                double e0 = edge(v1, v2, sx, sy) / area, e1 = edge(v2, v0, sx, sy) / area;
                double e2 = edge(v0, v1, sx, sy) / area;
                bool inside = e0 >= 0 && e1 >= 0 && e2 >= 0;
                for (int c = 0; c < 3; c++)
                    acc[c] += inside ? tri[c] : cedar_demo_clear_rgba[c];
            }
            uint8_t *p = img + (size_t)y * STRIDE + x * 4u;
            for (int c = 0; c < 3; c++)
                p[c] = (uint8_t)(acc[c] / samples * 255 + 0.5);
            p[3] = 255;
        }
    return img;
}

static void test_antialiased_render_passes(void **state)
{
    (void)state;
    uint8_t *img = render_scene(4);
    char why[256] = "";
    int rc = frame_check_image(img, STRIDE, FRAME_RGBA, 4, why, sizeof why);
    if (rc != 0)
        print_error("%s\n", why);
    assert_int_equal(rc, 0);
    free(img);
}

static void test_aliased_render_is_not_msaa(void **state)
{
    (void)state;
    uint8_t *img = render_scene(1);
    char why[256] = "";
    assert_int_equal(frame_check_image(img, STRIDE, FRAME_RGBA, 1, why, sizeof why), 0);
    assert_int_equal(frame_check_image(img, STRIDE, FRAME_RGBA, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "antialiased"));
    free(img);
}

static void test_clear_only_fails(void **state)
{
    (void)state;
    uint8_t *img = malloc((size_t)STRIDE * FRAME_HEIGHT);
    assert_non_null(img);
    for (size_t i = 0; i < (size_t)FRAME_WIDTH * FRAME_HEIGHT; i++) {
        img[i * 4 + 0] = 0x33;
        img[i * 4 + 1] = 0x4C;
        img[i * 4 + 2] = 0x4C;
        img[i * 4 + 3] = 0xFF;
    }
    char why[256] = "";
    assert_int_equal(frame_check_image(img, STRIDE, FRAME_RGBA, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "centre"));
    free(img);
}

static void test_wrong_clear_fails(void **state)
{
    (void)state;
    uint8_t *img = render_scene(4);
    for (unsigned x = 0; x < 8; x++)
        img[x * 4 + 1] = 0x50; /* the top-left corner's green */
    char why[256] = "";
    assert_int_equal(frame_check_image(img, STRIDE, FRAME_RGBA, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "corner (0,0)"));
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_card_frame),
        cmocka_unit_test(test_antialiased_render_passes),
        cmocka_unit_test(test_aliased_render_is_not_msaa),
        cmocka_unit_test(test_clear_only_fails),
        cmocka_unit_test(test_wrong_clear_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
