/* The renderer's threads (vc_render_set_threads) change nothing: the demo
 * scene through the Evergreen interpreter (scene_use_demo_shaders: the
 * batched pixel stage) drawn and resolved with 1 and with 3 threads leaves
 * every byte of its memory (samples, FMask, CMask, resolve target) the same,
 * and the counters agree; the second frame (address tables already filled)
 * too.  And the batched pixel path itself (weights per batch, eg_ps_batch,
 * cb_write_tile) against the pixel-at-a-time path (the same interpreter
 * behind a forwarding vc_shader_ops, which the renderer does not batch:
 * weights_at, eg_run_ps, cb_write per pixel): byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

static void render_with(struct scene *sc, unsigned samples, unsigned threads)
{
    char why[200];
    if (scene_init(sc, samples, why) || scene_use_demo_shaders(sc, why))
        fail_msg("scene: %s", why);
    vc_render_set_threads(sc->r, threads);
    if (scene_render(sc, why))
        fail_msg("render: %s", why);
}

static void same_bytes(const struct scene *a, const struct scene *b, const char *what)
{
    assert_int_equal(a->mem_size, b->mem_size);
    if (memcmp(a->mem, b->mem, a->mem_size) != 0) {
        uint64_t i = 0;
        while (a->mem[i] == b->mem[i])
            i++;
        fail_msg("%s: memory differs first at byte 0x%llx", what, (unsigned long long)i);
    }
    struct vc_render_stats sa, sb;
    vc_render_get_stats(a->r, &sa);
    vc_render_get_stats(b->r, &sb);
    assert_int_equal(sa.pixels_shaded, sb.pixels_shaded);
    assert_int_equal(sa.samples_written, sb.samples_written);
    assert_int_equal(sa.primitives, sb.primitives);
    assert_true(sa.pixels_shaded > 100000); /* the triangle really was drawn */
}

static void batched_pixels_match_one_at_a_time(void **state)
{
    (void)state;
    static const unsigned samples[] = {4, 8};
    for (unsigned k = 0; k < 2; k++) {
        struct scene batched, single;
        render_with(&batched, samples[k], 1);
        char why[200];
        if (scene_init(&single, samples[k], why) || scene_use_demo_shaders(&single, why))
            fail_msg("scene: %s", why);
        vc_render_set_threads(single.r, 1);
        scene_pixel_at_a_time(&single);
        assert_false(render_shade_batched(single.r));
        if (scene_render(&single, why))
            fail_msg("render: %s", why);
        same_bytes(&batched, &single, "batched vs one pixel at a time");
        scene_free(&batched);
        scene_free(&single);
    }
}

static void threads_give_the_same_frame(void **state)
{
    (void)state;
    static const unsigned samples[] = {4, 8};
    for (unsigned k = 0; k < 2; k++) {
        struct scene one, three;
        render_with(&one, samples[k], 1);
        render_with(&three, samples[k], 3);
        same_bytes(&one, &three, "first frame");
        char why[200];
        assert_int_equal(scene_render(&one, why), 0);
        assert_int_equal(scene_render(&three, why), 0);
        same_bytes(&one, &three, "second frame");
        scene_free(&one);
        scene_free(&three);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_give_the_same_frame),
        cmocka_unit_test(batched_pixels_match_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
