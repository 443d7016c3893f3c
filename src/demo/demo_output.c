/* The files a run leaves behind: the frame (de-tiled, cropped, as PNG and
 * exactly as read back), the MSAA buffer's three parts, a magnified MSAA
 * edge and a fragments-per-pixel map from the FMask. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cedar/bigmem.h"
#include "cedar/image.h"
#include "cedar/tiling.h"
#include "demo_internal.h"

#define ZOOM_SIZE 32u   /* pixels of the frame in the edge crop */
#define ZOOM_SCALE 16u  /* each shown as a 16 x 16 block */

/* known_zero: per 4096-byte block of data, 1 where it is known to be zeros
 * (NULL: nothing known). */
static int write_file(const char *dir, const char *name, const void *data, size_t size,
                      const uint8_t *known_zero, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct cedar_image_err ie = {0};
    if (cedar_file_write_known(path, data, size, known_zero, &ie) != 0) {
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

/* De-tiles sample 0 of a 2D-tiled 4-byte surface: the stored B, G, R, A
 * pixels, rows *stride bytes apart, in a buffer of *bytes bytes
 * (cedar_big_alloc: the caller releases it with cedar_big_free). */
static uint8_t *detile_frame(const struct cedar_surface *s, const uint8_t *tiled, size_t size,
                             size_t *stride, size_t *bytes, char *err, size_t errlen)
{
    struct cedar_tile_map m;
    struct cedar_layout_err le = {0};
    if (cedar_tile_map_init(&m, s, NULL, &le) != 0) {
        snprintf(err, errlen, "de-tiling: %s", le.msg);
        return NULL;
    }
    *stride = (size_t)m.width * 4;
    *bytes = *stride * m.height;
    uint8_t *lin = cedar_big_alloc(*bytes);
    if (!lin) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cedar_detile(&m, tiled, size, lin, *stride, 0, 0) != 0) {
        cedar_big_free(lin, *bytes);
        snprintf(err, errlen, "de-tiling the frame failed (surface larger than the buffer?)");
        return NULL;
    }
    return lin;
}

/* A magnified crop centred on the triangle's left edge at mid height (the
 * edge from the bottom-left blue vertex to the top green one). */
static int write_edge_zoom(const uint8_t *bgra, size_t stride, unsigned w, unsigned h,
                           const char *dir, char *err, size_t errlen)
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
                   bgra + (size_t)(y0 + y / ZOOM_SCALE) * stride + (size_t)(x0 + x / ZOOM_SCALE) * 4, 4);
    int rc = write_png(dir, "edge-zoom.png", z, zw, zw, (size_t)zw * 4, CEDAR_PNG_BGRA8, err, errlen);
    free(z);
    return rc;
}

/* Every FMask byte of micro tile (mx, my) lies in a page known to be zeros. */
static bool tile_known_zero(const struct cedar_tile_map *m, const uint8_t *known_zero, unsigned mx,
                            unsigned my)
{
    if (!known_zero)
        return false;
    uint64_t byte[64][4];
    uint8_t bit0[64][4];
    unsigned planes = cedar_fmask_micro(m, mx, my, 0, byte, bit0);
    for (unsigned i = 0; i < 64; i++)
        for (unsigned p = 0; p < planes; p++)
            if (!known_zero[byte[i][p] / 4096])
                return false;
    return planes > 0;
}

/* Distinct fragments per pixel from the FMask, 1..samples, as grey levels:
 * black for one fragment, 128 for two, up to 255 for every sample its own. */
static int write_fmask_fragments(const struct cedar_demo_plan *plan, const uint8_t *fmask,
                                 size_t fmask_size, const uint8_t *known_zero, const char *dir,
                                 char *err, size_t errlen)
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
    uint8_t *g = cedar_big_alloc((size_t)w * h);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* black: one fragment (the pixel is inside one primitive); 128..255:
     * an edge pixel with 2..samples fragments */
    unsigned span = samples > 2 ? samples - 2 : 1;
    for (unsigned my = 0; my * 8 < h; my++)
        for (unsigned mx = 0; mx * 8 < w; mx++) {
            uint32_t frags[64];
            if (tile_known_zero(&m, known_zero, mx, my))
                memset(frags, 0, sizeof frags);   /* what reading the zeros gives */
            else
                cedar_fmask_tile_fragments(&m, fmask, mx, my, 0, frags);
            for (unsigned xy = 0; xy < 64; xy++) {
                unsigned x = mx * 8 + xy % 8, y = my * 8 + xy / 8;
                if (x >= w || y >= h)
                    continue;
                uint32_t seen = 0;
                for (unsigned s = 0; s < samples; s++)
                    seen |= 1u << ((frags[xy] >> (4 * s)) & 0xFu);
                unsigned n = 0;
                for (; seen; seen &= seen - 1)
                    n++;
                g[(size_t)y * w + x] = (uint8_t)(n <= 1 ? 0 : 128u + (n - 2) * 127u / span);
            }
        }
    int rc = write_png(dir, "fmask-fragments.png", g, w, h, w, CEDAR_PNG_GRAY8, err, errlen);
    cedar_big_free(g, (size_t)w * h);
    return rc;
}

/* The known-zero pages of the colour buffer from byte offset on (which must
 * start a page), or NULL. */
static const uint8_t *zero_pages_at(const struct cedar_demo_result *res, uint64_t offset)
{
    return res->color_zero_pages && offset % 4096 == 0 ? res->color_zero_pages + offset / 4096 : NULL;
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
    if (write_file(dir, "frame.tiled.bin", frame, (size_t)fs->size, msaa ? NULL : res->color_zero_pages,
                   err, errlen) != 0)
        return -1;
    size_t stride, bytes;
    uint8_t *bgra = detile_frame(fs, frame, frame_size, &stride, &bytes, err, errlen);
    if (!bgra)
        return -1;
    int rc = write_png(dir, "frame.png", bgra, w, h, stride, CEDAR_PNG_BGRA8, err, errlen);
    if (rc == 0)
        rc = write_edge_zoom(bgra, stride, w, h, dir, err, errlen);
    cedar_big_free(bgra, bytes);
    if (rc != 0 || !msaa)
        return rc;

    if (res->color_size < l->total_size) {
        snprintf(err, errlen, "the MSAA buffer read back is smaller than its layout");
        return -1;
    }
    const uint8_t *fmask_zero = zero_pages_at(res, l->fmask.offset);
    if (write_file(dir, "msaa.color.bin", res->color, (size_t)l->color.size, res->color_zero_pages,
                   err, errlen) != 0 ||
        write_file(dir, "msaa.fmask.bin", res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                   fmask_zero, err, errlen) != 0 ||
        write_file(dir, "msaa.cmask.bin", res->color + l->cmask.offset, (size_t)l->cmask.size,
                   zero_pages_at(res, l->cmask.offset), err, errlen) != 0)
        return -1;
    return write_fmask_fragments(plan, res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                                 fmask_zero, dir, err, errlen);
}
