/* Is a read-back image the benchmark scene?  See frame_scene.h. */
#include "frame_scene.h"

#include <stdio.h>
#include <stdlib.h>

/* Channel bytes of pixel (x, y) as R, G, B, A. */
static void pixel_rgba(const uint8_t *pixels, size_t stride, enum frame_order order,
                       unsigned x, unsigned y, int out[4])
{
    const uint8_t *p = pixels + (size_t)y * stride + (size_t)x * 4;
    out[0] = order == FRAME_BGRA ? p[2] : p[0];
    out[1] = p[1];
    out[2] = order == FRAME_BGRA ? p[0] : p[2];
    out[3] = p[3];
}

static int unorm8(float v)
{
    return (int)(v * 255.0f + 0.5f);
}

static int max_channel_diff(const int a[4], const int b[4])
{
    int d = 0;
    for (int c = 0; c < 4; c++)
        if (abs(a[c] - b[c]) > d)
            d = abs(a[c] - b[c]);
    return d;
}

int frame_check_image(const uint8_t *pixels, size_t stride, enum frame_order order,
                      unsigned samples, char *why, size_t whylen)
{
    const int clear[4] = {frame_clear_bytes[0], frame_clear_bytes[1], frame_clear_bytes[2],
                          frame_clear_bytes[3]};
    const unsigned corners[4][2] = {
        {0, 0}, {FRAME_WIDTH - 1, 0}, {0, FRAME_HEIGHT - 1}, {FRAME_WIDTH - 1, FRAME_HEIGHT - 1}};
    int px[4];

    for (unsigned i = 0; i < 4; i++) {
        pixel_rgba(pixels, stride, order, corners[i][0], corners[i][1], px);
        /* One off allowed: 0.3 lies halfway between two bytes. */
        if (max_channel_diff(px, clear) > 1) {
            snprintf(why, whylen, "corner (%u,%u) is %d,%d,%d,%d, not the clear colour %d,%d,%d,%d",
                     corners[i][0], corners[i][1], px[0], px[1], px[2], px[3], clear[0], clear[1],
                     clear[2], clear[3]);
            return -1;
        }
    }

    /* NDC (0, 0) sits halfway up the triangle on its axis of symmetry:
     * weights red 1/4, blue 1/4, green 1/2. */
    const int centre[4] = {unorm8(0.25f), unorm8(0.5f), unorm8(0.25f), 255};
    pixel_rgba(pixels, stride, order, FRAME_WIDTH / 2, FRAME_HEIGHT / 2, px);
    if (max_channel_diff(px, centre) > 3) {
        snprintf(why, whylen, "centre pixel is %d,%d,%d,%d, expected about %d,%d,%d,%d", px[0],
                 px[1], px[2], px[3], centre[0], centre[1], centre[2], centre[3]);
        return -1;
    }

    if (samples <= 1)
        return 0;
    /* Along the left edge (blue-green, where the red weight is 0) the first
     * pixel that is not the clear colour is, when partly covered, a blend
     * whose red lies between the clear red and 0; fully covered it is about
     * 0.  Rows 100..619 lie well inside the triangle's 36..684 span. */
    unsigned rows = 0, blended = 0;
    for (unsigned y = 100; y < 620; y++, rows++) {
        for (unsigned x = 0; x < FRAME_WIDTH / 2; x++) {
            pixel_rgba(pixels, stride, order, x, y, px);
            if (max_channel_diff(px, clear) <= 2)
                continue;
            if (px[0] >= 6 && px[0] <= clear[0] - 5)
                blended++;
            break;
        }
    }
    if (blended * 2 < rows) {
        snprintf(why, whylen,
                 "only %u of %u rows have an antialiased left edge (a %u-sample resolve blends most)",
                 blended, rows, samples);
        return -1;
    }
    return 0;
}
