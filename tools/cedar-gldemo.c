/* cedar-gldemo: the demo's scene (cedar/demo.h) drawn through OpenGL ES 3 on
 * EGL by whatever driver Mesa picks: llvmpipe on a machine without a GPU,
 * Mesa's r600 driver on the virtual Cedar under cedar-run.  The GL work is in
 * tools/gl/gl_scene.c; this file is the command line and the output files. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cedar/cli.h"
#include "cedar/image.h"
#include "gl/gl_scene.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-gldemo [--samples 1|2|4|8] [--out FILE.png] [--raw FILE.rgba] [--flip-y]\n"
"\n"
"Draws the MSAA demo's scene (1280x720, clear colour 0.2/0.3/0.3, one triangle:\n"
"red bottom right, blue bottom left, green top) with OpenGL ES 3 on EGL's\n"
"surfaceless platform into an N-sample RGBA8 renderbuffer, resolves it with\n"
"glBlitFramebuffer, reads it back with glReadPixels and prints one line:\n"
"GL_RENDERER, GL_MAX_SAMPLES, the samples asked for and GL_SAMPLES obtained.\n"
"Mesa's driver is whatever the machine has (llvmpipe without a GPU; run it\n"
"under cedar-run for Mesa's r600 driver on the virtual Cedar).\n"
"\n"
"  --samples N      samples per pixel, 1, 2, 4 or 8 (default 4); more than the\n"
"                   driver's GL_MAX_SAMPLES is an error (exit 1)\n"
"  --out FILE.png   write the frame as a PNG\n"
"  --raw FILE.rgba  write the frame as raw R, G, B, A bytes, 1280 x 720 x 4,\n"
"                   the top row of the scene first (the card's orientation)\n"
"  --flip-y         draw the scene mirrored in y so that memory row 0 of the\n"
"                   framebuffer holds the top of the scene, as on the card (the\n"
"                   MSAA sample pattern meets the edges as it did there); the\n"
"                   files are the top of the scene first either way\n"
"  --help           this text\n"
"\n"
"Exit status: 0 done; 1 EGL/GL failed, too many samples, or a file could not be\n"
"written (one line on stderr); 2 bad usage.\n");
}

/* The read-back rows in the written order: top of the scene first.  GL's row
 * 0 is window y 0; unmirrored that is the bottom of the scene. */
static void rows_top_first(const uint8_t *gl_rows, uint8_t *out, unsigned w, unsigned h,
                           bool flip_y)
{
    size_t stride = (size_t)w * 4;
    for (unsigned y = 0; y < h; y++)
        memcpy(out + y * stride, gl_rows + (size_t)(flip_y ? y : h - 1 - y) * stride, stride);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Renders and writes the files; 0, or EXIT_FAILED with a line on stderr. */
static int run(struct gl_scene *s, unsigned samples, bool flip_y, const char *png, const char *raw)
{
    char why[256] = "";
    if (gl_scene_open(s, why, sizeof why) != 0) {
        fprintf(stderr, "cedar-gldemo: %s\n", why);
        return EXIT_FAILED;
    }
    if ((GLint)samples > s->max_samples) {
        fprintf(stderr, "cedar-gldemo: --samples %u: \"%s\" takes at most %d (GL_MAX_SAMPLES)\n",
                samples, s->renderer, s->max_samples);
        return EXIT_FAILED;
    }
    if (gl_scene_prepare(s, samples, flip_y, why, sizeof why) != 0) {
        fprintf(stderr, "cedar-gldemo: %s: %s\n", s->renderer, why);
        return EXIT_FAILED;
    }
    /* GL gives at least the samples asked for (or a single-sample buffer). */
    if (samples > 1 ? s->got_samples < (GLint)samples : s->got_samples != 0) {
        fprintf(stderr, "cedar-gldemo: %s: asked for %u samples, GL_SAMPLES is %d\n", s->renderer,
                samples, s->got_samples);
        return EXIT_FAILED;
    }
    size_t size = (size_t)s->width * s->height * 4;
    uint8_t *gl_rows = malloc(size), *img = malloc(size);
    int status = EXIT_FAILED;
    if (!gl_rows || !img) {
        fprintf(stderr, "cedar-gldemo: out of memory\n");
        goto done;
    }
    double t0 = now();
    if (gl_scene_render(s, gl_rows, why, sizeof why) != 0) {
        fprintf(stderr, "cedar-gldemo: %s: %s\n", s->renderer, why);
        goto done;
    }
    double seconds = now() - t0;
    rows_top_first(gl_rows, img, s->width, s->height, flip_y);
    struct cedar_image_err ierr;
    if ((raw && cedar_file_write(raw, img, size, &ierr) != 0) ||
        (png && cedar_png_write(png, img, s->width, s->height, (size_t)s->width * 4,
                                CEDAR_PNG_RGBA8, &ierr) != 0)) {
        fprintf(stderr, "cedar-gldemo: %s\n", ierr.msg);
        goto done;
    }
    printf("cedar-gldemo: \"%s\", GL_MAX_SAMPLES %d, %u sample%s (GL_SAMPLES %d), %ux%u%s, "
           "frame %.3f s%s%s%s%s\n",
           s->renderer, s->max_samples, samples, samples > 1 ? "s" : "", s->got_samples, s->width,
           s->height, flip_y ? " mirrored in y" : "", seconds, png ? ", " : "", png ? png : "",
           raw ? ", " : "", raw ? raw : "");
    status = 0;
done:
    free(gl_rows);
    free(img);
    return status;
}

int main(int argc, char **argv)
{
    unsigned samples = 4;
    const char *png = NULL, *raw = NULL;
    bool flip_y = false;

    enum { O_SAMPLES = 256, O_OUT, O_RAW, O_FLIP };
    static const struct option opts[] = {
        { "samples", required_argument, NULL, O_SAMPLES },
        { "out", required_argument, NULL, O_OUT },
        { "raw", required_argument, NULL, O_RAW },
        { "flip-y", no_argument, NULL, O_FLIP },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    struct cedar_cli_err cli_err;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_SAMPLES:
            if (cedar_cli_uint("--samples", optarg, 1, 8, &samples, &cli_err) ||
                (samples & (samples - 1)) != 0) {
                fprintf(stderr, "cedar-gldemo: --samples: \"%s\" is not 1, 2, 4 or 8\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_OUT: png = optarg; break;
        case O_RAW: raw = optarg; break;
        case O_FLIP: flip_y = true; break;
        case 'h': usage(stdout); return 0;
        default:
            fprintf(stderr, "cedar-gldemo: unknown or incomplete option '%s' (see --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "cedar-gldemo: unexpected argument '%s' (see --help)\n", argv[optind]);
        return EXIT_USAGE;
    }
    struct gl_scene s;
    int status = run(&s, samples, flip_y, png, raw);
    gl_scene_close(&s);
    return status;
}
