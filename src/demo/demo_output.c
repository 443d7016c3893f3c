/* The files a run leaves behind: the frame (de-tiled, cropped, as PNG and
 * exactly as read back), the MSAA buffer's three parts, a magnified MSAA
 * edge and a fragments-per-pixel map from the FMask. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cedar/bigmem.h"
#include "cedar/image.h"
#include "cedar/tiling.h"
#include "demo_internal.h"

#define ZOOM_SIZE CEDAR_DEMO_ZOOM_SIZE
#define ZOOM_SCALE CEDAR_DEMO_ZOOM_SCALE

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

/* The crop the zooms show: ZOOM_SIZE pixels square centred on the
 * triangle's left edge at mid height (the edge from the bottom-left blue
 * vertex to the top green one).  false when the frame is smaller. */
static bool edge_crop(unsigned w, unsigned h, unsigned *x0, unsigned *y0)
{
    if (w < ZOOM_SIZE || h < ZOOM_SIZE)
        return false;
    /* NDC (-0.2923, 0) = midpoint of (-0.5846, -0.9) .. (0, 0.9) */
    unsigned cx = (unsigned)((1.0 - 0.2923) / 2.0 * w);
    unsigned cy = h / 2;
    *x0 = cx >= ZOOM_SIZE / 2 ? cx - ZOOM_SIZE / 2 : 0;
    *y0 = cy >= ZOOM_SIZE / 2 ? cy - ZOOM_SIZE / 2 : 0;
    if (*x0 + ZOOM_SIZE > w)
        *x0 = w - ZOOM_SIZE;
    if (*y0 + ZOOM_SIZE > h)
        *y0 = h - ZOOM_SIZE;
    return true;
}

/* The crop of a 4-byte image (rows src_stride bytes apart) magnified
 * ZOOM_SCALE times into dst (rows dst_stride bytes apart). */
static void zoom_into(uint8_t *dst, size_t dst_stride, const uint8_t *src, size_t src_stride, unsigned x0,
                      unsigned y0)
{
    unsigned zw = ZOOM_SIZE * ZOOM_SCALE;
    for (unsigned y = 0; y < zw; y++)
        for (unsigned x = 0; x < zw; x++)
            memcpy(dst + (size_t)y * dst_stride + (size_t)x * 4,
                   src + (size_t)(y0 + y / ZOOM_SCALE) * src_stride + (size_t)(x0 + x / ZOOM_SCALE) * 4, 4);
}

static int write_edge_zoom(const uint8_t *bgra, size_t stride, unsigned w, unsigned h,
                           const char *dir, char *err, size_t errlen)
{
    unsigned x0, y0;
    if (!edge_crop(w, h, &x0, &y0))
        return 0;
    unsigned zw = ZOOM_SIZE * ZOOM_SCALE;
    uint8_t *z = malloc((size_t)zw * zw * 4);
    if (!z) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    zoom_into(z, (size_t)zw * 4, bgra, stride, x0, y0);
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

/* The legend's digits, 3 x 5 cells, a row per byte (bit 2 = left cell). */
static const uint8_t DIGITS[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};
#define DIGIT_CELL 4u

static void fill(uint8_t *img, size_t stride, unsigned x, unsigned y, unsigned w, unsigned h, const uint8_t rgb[3])
{
    for (unsigned j = 0; j < h; j++)
        for (unsigned i = 0; i < w; i++) {
            uint8_t *p = img + (size_t)(y + j) * stride + (size_t)(x + i) * 4;
            p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
        }
}

/* Distinct fragments per pixel from the FMask, 1..samples, each as its
 * colour of cedar_demo_fragment_rgb, with the edge crop of edge-zoom.png
 * magnified beside it and a legend below (layout: cedar/demo.h). */
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
    const unsigned M = CEDAR_DEMO_FRAG_MARGIN;
    unsigned x0 = 0, y0 = 0;
    bool zoom = edge_crop(w, h, &x0, &y0);
    unsigned zw = zoom ? ZOOM_SIZE * ZOOM_SCALE : 0;
    unsigned iw = M + w + (zoom ? M + zw : 0) + M, top = (h > zw ? h : zw);
    unsigned legend_w = M + samples * CEDAR_DEMO_FRAG_LEGEND_STEP;
    if (iw < legend_w)
        iw = legend_w;
    unsigned ih = M + top + M + CEDAR_DEMO_FRAG_SWATCH + M;
    size_t stride = (size_t)iw * 4, bytes = stride * ih;
    uint8_t *img = cedar_big_alloc(bytes);
    if (!img) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    static const uint8_t background[3] = {24, 24, 24}, ink[3] = {230, 230, 230};
    fill(img, stride, 0, 0, iw, ih, background);
    uint8_t *map = img + (size_t)M * stride + (size_t)M * 4;
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
                uint8_t rgb[3];
                cedar_demo_fragment_rgb(n, rgb);
                fill(map, stride, x, y, 1, 1, rgb);
            }
        }
    if (zoom)
        zoom_into(img + (size_t)M * stride + (size_t)(M + w + M) * 4, stride, map, stride, x0, y0);
    unsigned ly = M + top + M;
    for (unsigned n = 1; n <= samples; n++) {
        unsigned lx = M + (n - 1) * CEDAR_DEMO_FRAG_LEGEND_STEP;
        uint8_t rgb[3];
        cedar_demo_fragment_rgb(n, rgb);
        fill(img, stride, lx, ly, CEDAR_DEMO_FRAG_SWATCH, CEDAR_DEMO_FRAG_SWATCH, rgb);
        unsigned gx = lx + CEDAR_DEMO_FRAG_SWATCH + DIGIT_CELL * 2, gy = ly + 2;
        for (unsigned r = 0; r < 5; r++)
            for (unsigned c = 0; c < 3; c++)
                if (DIGITS[n][r] >> (2 - c) & 1u)
                    fill(img, stride, gx + c * DIGIT_CELL, gy + r * DIGIT_CELL, DIGIT_CELL, DIGIT_CELL, ink);
    }
    int rc = write_png(dir, "fmask-fragments.png", img, iw, ih, stride, CEDAR_PNG_RGBA8, err, errlen);
    cedar_big_free(img, bytes);
    return rc;
}

void cedar_demo_fragment_rgb(unsigned n, uint8_t rgb[3])
{
    /* one fragment (inside a primitive, nearly every pixel) dark; an edge
     * pixel bright, from cyan for two fragments through green and yellow to
     * magenta for eight */
    static const uint8_t scale[8][3] = {
        {36, 36, 56},   {0, 200, 255},  {0, 255, 150},  {150, 255, 0},
        {255, 220, 0},  {255, 140, 0},  {255, 60, 0},   {255, 0, 140},
    };
    unsigned i = n < 1 ? 0 : n > 8 ? 7 : n - 1;
    memcpy(rgb, scale[i], 3);
}

/* The known-zero pages of the colour buffer from byte offset on (which must
 * start a page), or NULL. */
static const uint8_t *zero_pages_at(const struct cedar_demo_result *res, uint64_t offset)
{
    return res->color_zero_pages && offset % 4096 == 0 ? res->color_zero_pages + offset / 4096 : NULL;
}

/* The two independent halves of the outputs, one per thread. */
struct output_job {
    const struct cedar_demo_plan *plan;
    const struct cedar_demo_result *res;
    const char *dir;
    int rc;
    char err[512];
};

/* frame.tiled.bin, frame.png, edge-zoom.png. */
static int write_frame_files(struct output_job *j)
{
    const struct cedar_msaa_layout *l = &j->plan->layout;
    const struct cedar_demo_result *res = j->res;
    bool msaa = l->color.samples > 1;
    unsigned w = j->plan->cfg.width, h = j->plan->cfg.height;
    /* The frame: the resolve target (MSAA) or the colour buffer itself. */
    const struct cedar_surface *fs = msaa ? &l->resolve : &l->color;
    const uint8_t *frame = msaa ? res->resolve : res->color;
    size_t frame_size = msaa ? res->resolve_size : (size_t)l->color.size;
    if (!frame || frame_size < fs->size) {
        snprintf(j->err, sizeof j->err, "nothing was read back");
        return -1;
    }
    if (write_file(j->dir, "frame.tiled.bin", frame, (size_t)fs->size, msaa ? NULL : res->color_zero_pages,
                   j->err, sizeof j->err) != 0)
        return -1;
    size_t stride, bytes;
    uint8_t *bgra = detile_frame(fs, frame, frame_size, &stride, &bytes, j->err, sizeof j->err);
    if (!bgra)
        return -1;
    int rc = write_png(j->dir, "frame.png", bgra, w, h, stride, CEDAR_PNG_BGRA8, j->err, sizeof j->err);
    if (rc == 0)
        rc = write_edge_zoom(bgra, stride, w, h, j->dir, j->err, sizeof j->err);
    cedar_big_free(bgra, bytes);
    return rc;
}

/* msaa.color.bin, msaa.fmask.bin, msaa.cmask.bin, fmask-fragments.png. */
static int write_msaa_files(struct output_job *j)
{
    const struct cedar_msaa_layout *l = &j->plan->layout;
    const struct cedar_demo_result *res = j->res;
    if (!res->color || res->color_size < l->total_size) {
        snprintf(j->err, sizeof j->err, "the MSAA buffer read back is smaller than its layout");
        return -1;
    }
    const uint8_t *fmask_zero = zero_pages_at(res, l->fmask.offset);
    if (write_file(j->dir, "msaa.color.bin", res->color, (size_t)l->color.size, res->color_zero_pages,
                   j->err, sizeof j->err) != 0 ||
        write_file(j->dir, "msaa.fmask.bin", res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                   fmask_zero, j->err, sizeof j->err) != 0 ||
        write_file(j->dir, "msaa.cmask.bin", res->color + l->cmask.offset, (size_t)l->cmask.size,
                   zero_pages_at(res, l->cmask.offset), j->err, sizeof j->err) != 0)
        return -1;
    return write_fmask_fragments(j->plan, res->color + l->fmask.offset, (size_t)l->fmask.surf.size,
                                 fmask_zero, j->dir, j->err, sizeof j->err);
}

static void *msaa_files_thread(void *arg)
{
    struct output_job *j = arg;
    j->rc = write_msaa_files(j);
    return NULL;
}

int cedar_demo_write_outputs(const struct cedar_demo_plan *plan,
                             const struct cedar_demo_result *res, const char *dir, char *err,
                             size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct output_job frame = {.plan = plan, .res = res, .dir = dir};
    struct output_job ms = frame;
    bool msaa = plan->layout.color.samples > 1;
    /* MSAA: the MSAA buffer's files on a second thread while this one
     * de-tiles and encodes the frame (they share nothing but the read
     * back buffers, which both only read); the files are the same in
     * either order.  Without a thread, one after the other. */
    pthread_t t;
    bool threaded = msaa && pthread_create(&t, NULL, msaa_files_thread, &ms) == 0;
    frame.rc = write_frame_files(&frame);
    if (threaded)
        pthread_join(t, NULL);
    else if (msaa && frame.rc == 0)
        ms.rc = write_msaa_files(&ms);
    const struct output_job *failed = frame.rc ? &frame : ms.rc ? &ms : NULL;
    if (failed)
        snprintf(err, errlen, "%s", failed->err);
    return failed ? -1 : 0;
}
