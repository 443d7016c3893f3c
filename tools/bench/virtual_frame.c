/* The benchmark frame on the virtual Cedar (see virtual_frame.h).
 *
 * The device is the one the demo opens (cedar_demo_open_virtual, the path
 * `cedar-msaa --device virtual` takes); while the demo cannot open the
 * virtual Cedar, this side says it is unavailable instead of timing anything. */
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
    uint8_t *pixels;        /* the de-tiled frame, tile-map width x height */
    size_t pixels_size, stride;
};

/* One frame: build the demo's command buffers, run them (buffers created,
 * uploaded, every IB submitted, idle, read back), de-tile the image. */
static int render_frame(struct virtual_frame *f, char *why, size_t whylen)
{
    struct cedar_demo_config cfg;
    struct cedar_demo_plan plan;
    struct cedar_demo_result res;
    char err[256];
    int rc = -1;

    cedar_demo_config_default(&cfg);
    cfg.samples = f->samples;
    memset(&res, 0, sizeof res);
    if (cedar_demo_plan_build(&cfg, &plan, err, sizeof err) != 0) {
        snprintf(why, whylen, "cedar_demo_plan_build: %s", err);
        cedar_demo_plan_free(&plan);
        return -1;
    }
    if (cedar_demo_run(f->dev, &plan, NULL, &res, err, sizeof err) != 0) {
        snprintf(why, whylen, "cedar_demo_run: %s", err);
        goto out;
    }
    /* MSAA: the resolve target; one sample: the render target itself. */
    const struct cedar_surface *surf = f->samples > 1 ? &plan.layout.resolve : &plan.layout.color;
    const uint8_t *tiled = f->samples > 1 ? res.resolve : res.color;
    size_t tiled_size = f->samples > 1 ? res.resolve_size : res.color_size;
    struct cedar_tile_map map;
    struct cedar_layout_err lerr;
    if (!tiled || cedar_tile_map_init(&map, surf, NULL, &lerr) != 0) {
        snprintf(why, whylen, "no tile map for the frame: %s", tiled ? lerr.msg : "nothing read back");
        goto out;
    }
    size_t stride = (size_t)map.width * map.bpe, size = stride * map.height;
    if (map.bpe != 4 || map.width < FRAME_WIDTH || map.height < FRAME_HEIGHT) {
        snprintf(why, whylen, "frame surface is %ux%u, %u bytes per pixel", map.width, map.height,
                 map.bpe);
        goto out;
    }
    if (size != f->pixels_size) {
        free(f->pixels);
        f->pixels = malloc(size);
        f->pixels_size = f->pixels ? size : 0;
        if (!f->pixels) {
            snprintf(why, whylen, "out of memory");
            goto out;
        }
    }
    f->stride = stride;
    if (cedar_detile(&map, tiled, tiled_size, f->pixels, stride, 0, 0) != 0) {
        snprintf(why, whylen, "the frame does not de-tile (%zu bytes read back, %llu expected)",
                 tiled_size, (unsigned long long)map.size);
        goto out;
    }
    rc = 0;
out:
    cedar_demo_result_free(&res);
    cedar_demo_plan_free(&plan);
    return rc;
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

enum frame_status virtual_frame_bench(unsigned samples, const struct frame_budget *budget,
                                      struct frame_timing *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    out->samples = samples;
    snprintf(out->renderer, sizeof out->renderer, "virtual Cedar (cedar_demo_run)");

    struct virtual_frame f = {.samples = samples};
    char err[256] = "";
    if (cedar_demo_open_virtual(&f.dev, err, sizeof err) != 0 || !f.dev) {
        snprintf(why, whylen, "cedar_demo_open_virtual: %s", err);
        return FRAME_UNAVAILABLE;
    }
    enum frame_status st = frame_time(budget, frame_step, check_step, &f, out, why, whylen);
    free(f.pixels);
    cedar_dev_destroy(f.dev);
    return st;
}
