/* The benchmark frame: the scene of tests/data/cedar/README.md (the real HD
 * 7350's 8x MSAA demo), as both sides of `bench frame` render it, and the
 * check that a read-back image really is that scene, so that a benchmark can
 * never time a broken render. */
#ifndef CEDAR_BENCH_FRAME_SCENE_H
#define CEDAR_BENCH_FRAME_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_WIDTH 1280u
#define FRAME_HEIGHT 720u

/* The scene's clear colour (cedar_demo_clear_rgba, 0.2, 0.3, 0.3, 1.0) as
 * the real card stored it (tests/data/cedar/README.md): 0.3 * 255 = 76.5
 * became 0x4C, so a renderer that rounds half up (0x4D) is one off.  The
 * triangle is cedar_demo_triangle (cedar/demo.h). */
static const uint8_t frame_clear_bytes[4] = {0x33, 0x4C, 0x4C, 0xFF};

/* Byte order of a read-back pixel. */
enum frame_order { FRAME_RGBA, FRAME_BGRA };

/* Checks a FRAME_WIDTH x FRAME_HEIGHT image of 4-byte pixels (row stride in
 * bytes; rows top-down or bottom-up, the checks are symmetric in y):
 *  - the four corners hold the clear colour;
 *  - the centre holds the interpolated colour there (a quarter red, half
 *    green, a quarter blue: barycentric weights of NDC (0, 0));
 *  - when antialiased (samples > 1), most rows crossing the triangle's left
 *    edge hold a pixel part clear and part triangle (the resolve averaged
 *    samples; a single-sample render has none).
 * Returns 0, or -1 with a one-line reason in why. */
int frame_check_image(const uint8_t *pixels, size_t stride, enum frame_order order,
                      unsigned samples, char *why, size_t whylen);

#endif
