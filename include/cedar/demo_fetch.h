/* A draw that shows what the vertex fetch reads (cedar-probe formats): the
 * demo's pipeline with the caller's colour fetches, one 1-pixel rectangle
 * per element, and the pixel shader exporting the fetched value of vertex 0
 * unchanged (INTERP_LOAD_P0) into a linear COLOR_32_32_32_32_FLOAT target
 * that is read back: pixel k holds the four 32-bit words the fetches
 * wrote for element k. */
#ifndef CEDAR_DEMO_FETCH_H
#define CEDAR_DEMO_FETCH_H

#include <stddef.h>
#include <stdint.h>

#include "cedar/device.h"
#include "cedar/layout.h"
#include "cedar/shader.h"

#define CEDAR_FETCH_MAX_ELEMENTS 256u
#define CEDAR_FETCH_ELEMENT_BYTES 16u

struct cedar_fetch_draw {
    /* fetches into the colour register; offsets relative to the element
     * (each vertex holds its position, then the element at byte 16) */
    const struct eg_demo_color_fetch *fetch;
    unsigned nfetch;
    const uint8_t *elements;    /* count x CEDAR_FETCH_ELEMENT_BYTES bytes */
    unsigned count;             /* 1..CEDAR_FETCH_MAX_ELEMENTS */
};

/* Runs the draw on dev (tiling: the device's) and reads the values back:
 * out[k] for element k.  0, or -1 with a one-line reason (a GPU fault the
 * virtual Cedar reports, e.g. a format it does not fetch, included). */
int cedar_fetch_draw_run(struct cedar_dev *dev, const struct cedar_tiling *tiling, const struct cedar_fetch_draw *d,
                         union eg_vec4 *out, char *err, size_t errlen);

#endif
