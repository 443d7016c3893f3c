/* The files a run leaves behind: the frame (de-tiled, cropped, as PNG and
 * exactly as read back), the MSAA buffer's three parts, a magnified MSAA
 * edge and a fragments-per-pixel map from the FMask. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cedar/image.h"
#include "cedar/tiling.h"
#include "demo_internal.h"

#define ZOOM_SIZE 32u   /* pixels of the frame in the edge crop */
#define ZOOM_SCALE 16u  /* each shown as a 16 x 16 block */

static int write_file(const char *dir, const char *name, const void *data, size_t size,
                      char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct cedar_image_err ie = {0};
    if (cedar_file_write(path, data, size, &ie) != 0) {
        snprintf(err, errlen, "%s", ie.msg);
        return -1;
    }
    return 0;
}

static int write_png(const char *dir, const char *name, const void *pixels, unsigned w,
                     unsigned h, size_t stride, enum cedar_png_kind kind, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct cedar_image_err ie = {0};
    if (cedar_png_write(path, pixels, w, h, stride, kind, &ie) != 0) {
        snprintf(err, errlen, "%s", ie.msg);
        return -1;
    }
    return 0;
}

/* De-tiles sample 0 of a 2D-tiled 4-byte surface and turns the stored
 * B, G, R, A bytes into R, G, B, A, cropped to w x h. */
static uint8_t *detile_rgba(const struct cedar_surface *s, const uint8_t *tiled, size_t size,
                            unsigned w, unsigned h, char *err, size_t errlen)
{
    struct cedar_tile_map m;
    struct cedar_layout_err le = {0};
    if (cedar_tile_map_init(&m, s, NULL, &le) != 0) {
        snprintf(err, errlen, "de-tiling: %s", le.msg);
        return NULL;
    }
    size_t stride = (size_t)m.width * 4;
    uint8_t *lin = malloc(stride * m.height);
    if (!lin) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cedar_detile(&m, tiled, size, lin, stride, 0, 0) != 0) {
        free(lin);
        snprintf(err, errlen, "de-tiling the frame failed (surface larger than the buffer?)");
        return NULL;
    }
    uint8_t *out = malloc((size_t)w * h * 4);
    if (!out) {
        free(lin);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *p = lin + y * stride + (size_t)x * 4;
            uint8_t *q = out + ((size_t)y * w + x) * 4;
            q[0] = p[2];
            q[1] = p[1];
            q[2] = p[0];
            q[3] = p[3];
        }
    free(lin);
    return out;
}

/* A magnified crop centred on the triangle's left edge at mid height (the
 * edge from the bottom-left blue vertex to the top green one). */
static int write_edge_zoom(const uint8_t *rgba, unsigned w, unsigned h, const char *dir,
                           char *err, size_t errlen)
{
    if (w < ZOOM_SIZE || h < ZOOM_SIZE)
        return 0;
    /* NDC (-0.2923, 0) = midpoint of (-0.5846, -0.9) .. (0, 0.9) */
    unsigned cx = (unsigned)((1.0 - 0.2923) / 2.0 * w);
    unsigned cy = h / 2;
    unsigned x0 = cx >= ZOOM_SIZE / 2 ? cx - ZOOM_SIZE / 2 : 0;
    unsigned y0 = cy >= ZOOM_SIZE / 2 ? cy - ZOOM_SIZE / 2 : 0;
    if (x0 + ZOOM_SIZE > w)
        x0 = w - ZOOM_SIZE;
    if (y0 + ZOOM_SIZE > h)
        y0 = h - ZOOM_SIZE;
    unsigned zw = ZOOM_SIZE * ZOOM_SCALE;
    uint8_t *z = malloc((size_t)zw * zw * 4);
    if (!z) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned y = 0; y < zw; y++)
        for (unsigned x = 0; x < zw; x++)
            memcpy(z + ((size_t)y * zw + x) * 4,
                   rgba + ((size_t)(y0 + y / ZOOM_SCALE) * w + x0 + x / ZOOM_SCALE) * 4, 4);
    int rc = write_png(dir, "edge-zoom.png", z, zw, zw, (size_t)zw * 4, CEDAR_PNG_RGBA8, err, errlen);
    free(z);
    return rc;
}

/* Distinct fragments per pixel from the FMask, 1..samples, as grey levels:
 * black for one fragment, 128 for two, up to 255 for every sample its own. */
static int write_fmask_fragments(const struct cedar_demo_plan *plan, const uint8_t *fmask,
                                 size_t fmask_size, const char *dir, char *err, size_t errlen)
{
    const struct cedar_msaa_layout *l = &plan->layout;
    unsigned w = plan->cfg.width, h = plan->cfg.height, samples = l->color.samples;
    struct cedar_tile_map m;
    struct cedar_layout_err le = {0};
    if (cedar_fmask_map_init(&m, &l->fmask.surf, samples, NULL, &le) != 0) {
        snprintf(err, errlen, "FMask map: %s", le.msg);
        return -1;
    }
    if (m.size > fmask_size) {
        snprintf(err, errlen, "the FMask read back is smaller than its layout");
        return -1;
    }
    uint8_t *g = malloc((size_t)w * h);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint32_t seen = 0;
            unsigned n = 0;
            for (unsigned s = 0; s < samples; s++) {
                unsigned f = cedar_fmask_fragment(&m, fmask, x, y, s, 0);
                if (f < 32 && !(seen & (1u << f))) {
                    seen |= 1u << f;
                    n++;
                }
            }
            /* black: one fragment (the pixel is inside one primitive);
             * 128..255: an edge pixel with 2..samples fragments */
            unsigned span = samples > 2 ? samples - 2 : 1;
            g[(size_t)y * w + x] = (uint8_t)(n <= 1 ? 0 : 128u + (n - 2) * 127u / span);
        }
    int rc = write_png(dir, "fmask-fragments.png", g, w, h, w, CEDAR_PNG_GRAY8, err, errlen);
    free(g);
    return rc;
}

int cedar_demo_write_outputs(const struct cedar_demo_plan *plan,
                             const struct cedar_demo_result *res, const char *dir, char *err,
                             size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    const struct cedar_msaa_layout *l = &plan->layout;
    bool msaa = l->color.samples > 1;
    unsigned w = plan->cfg.width, h = plan->cfg.height;

    /* The frame: the resolve target (MSAA) or the colour buffer itself. */
    const struct cedar_surface *fs = msaa ? &l->resolve : &l->color;
    const uint8_t *frame = msaa ? res->resolve : res->color;
    size_t frame_size = msaa ? res->resolve_size : (size_t)l->color.size;
    if (!frame || frame_size < fs->size) {
        snprintf(err, errlen, "nothing was read back");
        return -1;
    }
    if (write_file(dir, "frame.tiled.bin", frame, (size_t)fs->size, err, errlen) != 0)
        return -1;
    uint8_t *rgba = detile_rgba(fs, frame, frame_size, w, h, err, errlen);
    if (!rgba)
        return -1;
    int rc = write_png(dir, "frame.png", rgba, w, h, (size_t)w * 4, CEDAR_PNG_RGBA8, err, errlen);
    if (rc == 0)
        rc = write_edge_zoom(rgba, w, h, dir, err, errlen);
    free(rgba);
    if (rc != 0 || !msaa)
        return rc;

    if (res->color_size < l->total_size) {
        snprintf(err, errlen, "the MSAA buffer read back is smaller than its layout");
        return -1;
    }
    if (write_file(dir, "msaa.color.bin", res->color, (size_t)l->color.size, err, errlen) != 0 ||
        write_file(dir, "msaa.fmask.bin", res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                   err, errlen) != 0 ||
        write_file(dir, "msaa.cmask.bin", res->color + l->cmask.offset, (size_t)l->cmask.size, err,
                   errlen) != 0)
        return -1;
    return write_fmask_fragments(plan, res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                                 dir, err, errlen);
}
