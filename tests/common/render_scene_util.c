/* Render-test helpers around the reference scene (tests/common/render_scene.h):
 * each fails the calling test with the reason instead of returning it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "eg_regs.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"
#include "test_util.h"

void test_scene_render_demo(struct scene *sc, unsigned samples)
{
    char why[200] = "";
    if (scene_init(sc, samples, why) || scene_use_demo_shaders(sc, why) || scene_render(sc, why))
        fail_msg("scene %ux: %s", samples, why);
}

void test_scene_start_demo(struct scene *sc, struct eg_demo_shaders *sh, unsigned samples)
{
    char why[200] = "";
    if (eg_demo_shaders_build(sh) || scene_init(sc, samples, why) || scene_use_demo_shaders(sc, why))
        fail_msg("scene %ux: %s", samples, why);
}

uint8_t *test_scene_frame(const struct scene *sc, size_t bytes)
{
    uint8_t *f = malloc(bytes);
    assert_non_null(f);
    assert_int_equal(scene_readback(sc, f), 0);
    return f;
}

void test_cb_target_init(struct scene *sc, struct cb_target *t, unsigned cb, unsigned samples)
{
    struct vc_draw_err err = {{0}};
    int rc = cb_target_init(sc->r, t, cb, samples, sc->regs, &sc->vmem, &err);
    if (rc)
        fail_msg("cb_target_init CB%u: %d %s", cb, rc, err.msg);
}

void test_scene_cb1_as_resolve_target(struct scene *sc)
{
    uint32_t *info1 = &sc->regs->context[(REG_CB_COLOR_INFO(1) - SPACE_CONTEXT_START) / 4];
    *info1 = sc->regs->context[(REG_CB_COLOR_INFO(0) - SPACE_CONTEXT_START) / 4] &
             ~(CB_COLOR_INFO__FAST_CLEAR__MASK | CB_COLOR_INFO__COMPRESSION__MASK);
}

void test_scene_resolve_targets(struct scene *sc, unsigned samples, struct cb_target **src, struct cb_target **dst)
{
    test_scene_render_demo(sc, samples);
    test_scene_cb1_as_resolve_target(sc);
    *src = calloc(1, sizeof **src);
    *dst = calloc(1, sizeof **dst);
    assert_non_null(*src);
    assert_non_null(*dst);
    test_cb_target_init(sc, *src, 0, samples);
    test_cb_target_init(sc, *dst, 1, 1);
}
