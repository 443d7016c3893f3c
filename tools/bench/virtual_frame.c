/* The benchmark frame on the virtual Cedar (see virtual_frame.h).
 *
 * The device is the one the demo opens (cedar_demo_open_virtual, the path
 * `cedar-msaa --device virtual` takes).  Like the llvmpipe side, which
 * creates its framebuffers once and per frame clears, draws, resolves and
 * reads back the resolved image, the buffers are created once
 * (cedar_demo_session_open) and a frame is: the clear, draw and resolve
 * command buffers submitted, the wait for idle, and the resolve target (the
 * render target itself at one sample) read from its mapping and de-tiled. */
#include "virtual_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/demo.h"
#include "cedar/tiling.h"
#include "frame_scene.h"
#include "frame_timing.h"

struct virtual_frame {
    struct cedar_dev *dev;
    unsigned samples;
    struct cedar_demo_plan plan;
    struct cedar_demo_session *session;
    struct cedar_tile_map map;   /* of the image read back */
    enum cedar_demo_buf image;   /* the buffer holding it */
    uint8_t *pixels;             /* the de-tiled frame, tile-map width x height */
    size_t stride;
};

/* Plan, buffers, tile map and the pixel buffer: everything done once. */
static int set_up(struct virtual_frame *f, char *why, size_t whylen)
{
    struct cedar_demo_config cfg;
    char err[256];
    cedar_demo_config_default(&cfg);
    cfg.samples = f->samples;
    if (cedar_demo_plan_build(&cfg, &f->plan, err, sizeof err) != 0) {
        snprintf(why, whylen, "cedar_demo_plan_build: %s", err);
        return -1;
    }
    if (cedar_demo_session_open(f->dev, &f->plan, &f->session, err, sizeof err) != 0) {
        snprintf(why, whylen, "cedar_demo_session_open: %s", err);
        return -1;
    }
    /* MSAA: the resolve target; one sample: the render target itself. */
    const struct cedar_surface *surf =
        f->samples > 1 ? &f->plan.layout.resolve : &f->plan.layout.color;
    f->image = f->samples > 1 ? CEDAR_DEMO_BUF_RESOLVE : CEDAR_DEMO_BUF_COLOR;
    struct cedar_layout_err lerr;
    if (cedar_tile_map_init(&f->map, surf, NULL, &lerr) != 0) {
        snprintf(why, whylen, "no tile map for the frame: %s", lerr.msg);
        return -1;
    }
    if (f->map.bpe != 4 || f->map.width < FRAME_WIDTH || f->map.height < FRAME_HEIGHT) {
        snprintf(why, whylen, "frame surface is %ux%u, %u bytes per pixel", f->map.width,
                 f->map.height, f->map.bpe);
        return -1;
    }
    f->stride = (size_t)f->map.width * f->map.bpe;
    f->pixels = malloc(f->stride * f->map.height);
    if (!f->pixels) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return 0;
}

/* One frame: clear, draw, resolve, wait, read back + de-tile. */
static int render_frame(struct virtual_frame *f, char *why, size_t whylen)
{
    char err[256];
    if (cedar_demo_session_frame(f->session, err, sizeof err) != 0) {
        snprintf(why, whylen, "cedar_demo_session_frame: %s", err);
        return -1;
    }
    if (cedar_demo_device_fault(f->dev, err, sizeof err)) {
        snprintf(why, whylen, "the virtual Cedar faulted: %s", err);
        return -1;
    }
    size_t tiled_size = 0;
    const uint8_t *tiled = cedar_demo_session_map(f->session, f->image, &tiled_size);
    if (!tiled || cedar_detile(&f->map, tiled, tiled_size, f->pixels, f->stride, 0, 0) != 0) {
        snprintf(why, whylen, "the frame does not de-tile (%zu bytes mapped, %llu expected)",
                 tiled_size, (unsigned long long)f->map.size);
        return -1;
    }
    return 0;
}

static int frame_step(void *ctx, char *why, size_t whylen)
{
    return render_frame(ctx, why, whylen);
}

/* The demo's byte order is its own choice (the real card's frame is BGRA):
 * the scene's clear colour has red != blue, so at most one order passes. */
static int check_step(void *ctx, char *why, size_t whylen)
{
    const struct virtual_frame *f = ctx;
    char as_rgba[200], as_bgra[200];
    if (frame_check_image(f->pixels, f->stride, FRAME_BGRA, f->samples, as_bgra, sizeof as_bgra) ==
            0 ||
        frame_check_image(f->pixels, f->stride, FRAME_RGBA, f->samples, as_rgba, sizeof as_rgba) == 0)
        return 0;
    snprintf(why, whylen, "as BGRA: %s; as RGBA: %s", as_bgra, as_rgba);
    return -1;
}

enum frame_status virtual_frame_bench(unsigned samples, struct frame_link *link, char *why,
                                      size_t whylen)
{
    struct virtual_frame f = {.samples = samples};
    char err[256] = "";
    if (cedar_demo_open_virtual(&f.dev, err, sizeof err) != 0 || !f.dev) {
        snprintf(why, whylen, "cedar_demo_open_virtual: %s", err);
        return FRAME_UNAVAILABLE;
    }
    enum frame_status st = FRAME_FAILED;
    if (set_up(&f, why, whylen) == 0)
        st = frame_serve(link, "virtual Cedar (cedar_demo_session)", frame_step, check_step, &f,
                         why, whylen);
    free(f.pixels);
    cedar_demo_session_close(f.session);
    cedar_demo_plan_free(&f.plan);
    cedar_dev_destroy(f.dev);
    return st;
}
