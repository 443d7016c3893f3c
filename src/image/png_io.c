/* PNG read/write with libpng's simplified API (png_image). */
#include "cedar/image.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cedar_png_write(const char *path, const void *pixels, unsigned w, unsigned h, size_t stride,
                    enum cedar_png_kind kind, struct cedar_image_err *err)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    unsigned bytes_pp;
    switch (kind) {
    case CEDAR_PNG_GRAY8: img.format = PNG_FORMAT_GRAY; bytes_pp = 1; break;
    case CEDAR_PNG_GRAY16: img.format = PNG_FORMAT_LINEAR_Y; bytes_pp = 2; break;
    case CEDAR_PNG_RGBA8: img.format = PNG_FORMAT_RGBA; bytes_pp = 4; break;
    case CEDAR_PNG_RGBA16: img.format = PNG_FORMAT_LINEAR_RGB_ALPHA; bytes_pp = 8; break;
    default:
        if (err)
            snprintf(err->msg, sizeof err->msg, "unknown PNG pixel kind %d", (int)kind);
        return -1;
    }
    /* The simplified API takes the stride in components. */
    size_t comp_bytes = (kind == CEDAR_PNG_GRAY16 || kind == CEDAR_PNG_RGBA16) ? 2 : 1;
    if (stride % comp_bytes || stride < (size_t)w * bytes_pp) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "bad row stride %zu for %u pixels", stride, w);
        return -1;
    }
    if (!png_image_write_to_file(&img, path, 0, pixels, (png_int_32)(stride / comp_bytes), NULL)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, img.message);
        png_image_free(&img);
        return -1;
    }
    return 0;
}

int cedar_png_read_rgba8(const char *path, uint8_t **pixels, unsigned *w, unsigned *h,
                         struct cedar_image_err *err)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    *pixels = NULL;
    if (!png_image_begin_read_from_file(&img, path)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGBA;
    uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf) {
        png_image_free(&img);
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, img.message);
        free(buf);
        png_image_free(&img);
        return -1;
    }
    *pixels = buf;
    *w = img.width;
    *h = img.height;
    return 0;
}
