/* The benchmark frame on Mesa's llvmpipe (see llvmpipe_frame.h): the scene
 * of tools/gl/gl_scene.h, timed. */
#include "llvmpipe_frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gl/gl_scene.h"
#include "frame_scene.h"
#include "frame_timing.h"

struct gl_frame {
    struct gl_scene scene;
    uint8_t *pixels;
};

/* Display and context on llvmpipe, program and framebuffers. */
static enum frame_status set_up(struct gl_frame *f, unsigned samples, char *why, size_t whylen)
{
    struct gl_scene *s = &f->scene;
    if (gl_scene_open_llvmpipe(s, why, whylen) != 0)
        return FRAME_UNAVAILABLE;
    if ((GLint)samples > s->max_samples) {
        snprintf(why, whylen, "%s takes at most %d samples, not %u", s->renderer, s->max_samples,
                 samples);
        return FRAME_UNAVAILABLE;
    }
    f->pixels = malloc((size_t)s->width * s->height * 4);
    if (!f->pixels) {
        snprintf(why, whylen, "out of memory");
        return FRAME_FAILED;
    }
    if (gl_scene_prepare(s, samples, false, why, whylen) != 0)
        return FRAME_FAILED;
    if (s->got_samples != (GLint)samples) {
        snprintf(why, whylen, "asked for %u samples, the renderbuffer has %d", samples,
                 s->got_samples);
        return FRAME_FAILED;
    }
    return FRAME_OK;
}

static int frame_step(void *ctx, char *why, size_t whylen)
{
    struct gl_frame *f = ctx;
    return gl_scene_render(&f->scene, f->pixels, why, whylen);
}

static int check_step(void *ctx, char *why, size_t whylen)
{
    const struct gl_frame *f = ctx;
    return frame_check_image(f->pixels, (size_t)FRAME_WIDTH * 4, FRAME_RGBA, f->scene.samples, why,
                             whylen);
}

enum frame_status llvmpipe_frame_bench(unsigned samples, struct frame_link *link, char *why,
                                       size_t whylen)
{
    struct gl_frame f = {.pixels = NULL};
    enum frame_status st = set_up(&f, samples, why, whylen);
    if (st == FRAME_OK)
        st = frame_serve(link, f.scene.renderer, frame_step, check_step, &f, why, whylen);
    gl_scene_close(&f.scene);
    free(f.pixels);
    return st;
}
