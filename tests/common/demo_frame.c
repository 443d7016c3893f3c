/* The demo's default frame from cedar's own command buffers on the virtual
 * Cedar, read back and de-tiled (see test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/vcedar.h"
#include "test_util.h"

void test_demo_frame_render(struct test_demo_frame *d)
{
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    test_demo_frame_render_cfg(d, &cfg);
}

void test_demo_frame_render_cfg(struct test_demo_frame *d, const struct cedar_demo_config *cfg)
{
    memset(d, 0, sizeof *d);
    char err[256] = "";
    d->cfg = *cfg;
    if (cedar_demo_plan_build(&d->cfg, &d->plan, err, sizeof err))
        fail_msg("plan: %s", err);
    assert_int_equal(cedar_dev_open_virtual(NULL, &d->dev), 0);
    if (cedar_demo_run(d->dev, &d->plan, NULL, &d->res, err, sizeof err))
        fail_msg("run: %s", err);
    assert_non_null(d->res.resolve);

    const struct cedar_msaa_layout *l = &d->plan.layout;
    struct cedar_layout_err lerr;
    assert_int_equal(cedar_tile_map_init(&d->rmap, &l->resolve, NULL, &lerr), 0);
    assert_int_equal(cedar_fmask_map_init(&d->fmap, &l->fmask.surf, d->cfg.samples, NULL, &lerr), 0);
    d->stride = (size_t)d->rmap.width * 4;
    d->bgra = malloc(d->stride * d->rmap.height);
    assert_non_null(d->bgra);
    assert_int_equal(cedar_detile(&d->rmap, d->res.resolve, d->res.resolve_size, d->bgra, d->stride,
                                  0, 0),
                     0);
    assert_true(l->fmask.offset + l->fmask.surf.size <= d->res.color_size);
    d->edges.fmask_map = &d->fmap;
    d->edges.fmask = d->res.color + l->fmask.offset;
    d->edges.samples = d->cfg.samples;
}

void test_demo_frame_free(struct test_demo_frame *d)
{
    free(d->bgra);
    cedar_demo_result_free(&d->res);
    cedar_dev_destroy(d->dev);
    cedar_demo_plan_free(&d->plan);
    memset(d, 0, sizeof *d);
}
