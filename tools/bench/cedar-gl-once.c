/* cedar-gl-once: the llvmpipe side of `cedar-bench startup`.  One process
 * that does only what a user of llvmpipe waits for before a frame is in
 * memory: start EGL with llvmpipe, render the demo's scene once
 * (tools/gl/gl_scene.c: clear, draw into a multisampled renderbuffer,
 * glBlitFramebuffer resolve, glReadPixels), check the image is the scene
 * (tools/bench/frame_check.c, a few hundred pixel reads) and exit.  It
 * writes no file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "frame_scene.h"
#include "../gl/gl_scene.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_UNAVAILABLE 3

static const char usage[] =
    "usage: cedar-gl-once [--samples 1|2|4|8]\n"
    "Starts Mesa's llvmpipe through EGL (surfaceless, GLES 3), renders the demo's\n"
    "scene once with N samples per pixel (default 4), resolves it, reads it back\n"
    "with glReadPixels, checks the image is the scene and prints one line.  The\n"
    "llvmpipe side of `cedar-bench startup`.\n"
    "Exit status: 0 done; 1 the frame failed or is not the scene; 2 bad usage;\n"
    "3 llvmpipe is not available here (no EGL display, another driver, too few\n"
    "samples).\n";

int main(int argc, char **argv)
{
    unsigned samples = 4;
    struct cedar_cli_err cli_err;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[a], "--samples") && a + 1 < argc) {
            if (cedar_cli_uint("--samples", argv[++a], 1, 8, &samples, &cli_err) ||
                (samples & (samples - 1)) != 0) {
                fprintf(stderr, "cedar-gl-once: --samples: \"%s\" is not 1, 2, 4 or 8\n", argv[a]);
                return EXIT_USAGE;
            }
            continue;
        }
        fprintf(stderr, "cedar-gl-once: unknown or incomplete argument '%s' (see --help)\n", argv[a]);
        return EXIT_USAGE;
    }
    struct gl_scene s;
    char why[256] = "";
    int status = EXIT_UNAVAILABLE;
    uint8_t *pixels = NULL;
    if (gl_scene_open_llvmpipe(&s, why, sizeof why) != 0)
        goto done;
    if ((GLint)samples > s.max_samples) {
        snprintf(why, sizeof why, "\"%s\" takes at most %d samples, not %u", s.renderer,
                 s.max_samples, samples);
        goto done;
    }
    status = EXIT_FAILED;
    pixels = malloc((size_t)s.width * s.height * 4);
    if (!pixels) {
        snprintf(why, sizeof why, "out of memory");
        goto done;
    }
    if (gl_scene_prepare(&s, samples, false, why, sizeof why) != 0 ||
        gl_scene_render(&s, pixels, why, sizeof why) != 0)
        goto done;
    if (s.width != FRAME_WIDTH || s.height != FRAME_HEIGHT) {
        snprintf(why, sizeof why, "the scene is %ux%u, not %ux%u", s.width, s.height, FRAME_WIDTH,
                 FRAME_HEIGHT);
        goto done;
    }
    char bad[200];
    if (frame_check_image(pixels, (size_t)s.width * 4, FRAME_RGBA, samples, bad, sizeof bad) != 0) {
        snprintf(why, sizeof why, "the image is not the scene: %s", bad);
        goto done;
    }
    printf("cedar-gl-once: \"%s\", %u samples (GL_SAMPLES %d), %ux%u, read back and checked\n",
           s.renderer, samples, s.got_samples, s.width, s.height);
    status = 0;
done:
    if (status != 0)
        fprintf(stderr, "cedar-gl-once: %s\n", why);
    free(pixels);
    gl_scene_close(&s);
    return status;
}
