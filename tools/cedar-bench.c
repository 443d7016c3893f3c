/* cedar-bench: throughput benchmarks, one line per case.
 *
 * Each case is a function in the table below; add new cases there.  De-tiling
 * cases print
 *   bench detile <case> <GB/s> memcpy <GB/s> ratio <detile/memcpy>
 * with memcpy measured in the same run over the same number of bytes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_frame.h"
#include "bench/bench_startup.h"
#include "cedar/tiling.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Best-of-N seconds per call of fn_a and of fn_b, run alternately for about
 * `budget` seconds (at least 5 runs each) so that both see the same machine
 * load; one untimed call of each first (page faults, caches). */
typedef void (*work_fn)(void *ctx);
static void best_times(work_fn fn_a, void *ctx_a, work_fn fn_b, void *ctx_b, double budget,
                       double *best_a, double *best_b)
{
    fn_a(ctx_a);
    fn_b(ctx_b);
    *best_a = *best_b = 1e30;
    double start = now();
    for (int runs = 0; runs < 5 || (now() - start < budget && runs < 20000); runs++) {
        double t0 = now();
        fn_a(ctx_a);
        double t1 = now();
        fn_b(ctx_b);
        double t2 = now();
        if (t1 - t0 < *best_a)
            *best_a = t1 - t0;
        if (t2 - t1 < *best_b)
            *best_b = t2 - t1;
    }
}

struct detile_ctx {
    const struct cedar_tile_map *m;
    uint8_t *tiled, *linear;
    size_t stride;
    int rc;
};

/* Every (slice, sample) plane, one after the other in `linear`; all samples
 * of a slice in one pass over the tiled bytes. */
static void run_detile(void *p)
{
    struct detile_ctx *c = p;
    size_t plane = c->stride * c->m->height;
    for (unsigned z = 0; z < c->m->slices; z++) {
        uint8_t *dst = c->linear + (size_t)z * c->m->samples * plane;
        c->rc |= cedar_detile_samples(c->m, c->tiled, c->m->size, dst, c->stride, plane, z);
    }
}

struct memcpy_ctx { uint8_t *dst, *src; size_t n; };
static void run_memcpy(void *p)
{
    struct memcpy_ctx *c = p;
    memcpy(c->dst, c->src, c->n);
    __asm__ volatile("" ::: "memory"); /* keep the copy */
}

static int bench_detile_surface(const char *name, const struct cedar_surface *s)
{
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    if (cedar_tile_map_init(&m, s, NULL, &err) != 0) {
        fprintf(stderr, "cedar-bench: %s: %s\n", name, err.msg);
        return 1;
    }
    size_t n = m.size;
    uint8_t *tiled = malloc(n), *linear = malloc(n), *copy = malloc(n);
    if (!tiled || !linear || !copy) {
        fprintf(stderr, "cedar-bench: %s: out of memory\n", name);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        tiled[i] = (uint8_t)(i * 2654435761u >> 13);
    memset(linear, 0, n);
    memset(copy, 0, n);
    struct detile_ctx dc = {&m, tiled, linear, (size_t)m.width * m.bpe, 0};
    struct memcpy_ctx mc = {copy, tiled, n};
    /* Same byte count both ways: the linear planes are m.size bytes too. */
    double budget = n > (32u << 20) ? 2.0 : 1.0, td, tm;
    best_times(run_detile, &dc, run_memcpy, &mc, budget, &td, &tm);
    if (dc.rc != 0) {
        fprintf(stderr, "cedar-bench: %s: de-tiling failed\n", name);
        return 1;
    }
    double gd = n / td / 1e9, gm = n / tm / 1e9;
    printf("bench detile %s %.2f memcpy %.2f ratio %.2f\n", name, gd, gm, gd / gm);
    fflush(stdout);
    free(tiled);
    free(linear);
    free(copy);
    return 0;
}

/* The Cedar resolve target of the seed write-up / the real-card fixture. */
static struct cedar_surface cedar_2d(unsigned w, unsigned h)
{
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    s.mode = CEDAR_MODE_2D_THIN;
    s.width = s.aligned_width = w;
    s.height = s.aligned_height = h;
    s.bpe = 4;
    s.samples = 1;
    s.tile_split = 1024;
    s.bankw = 1;
    s.bankh = 2;
    s.mtilea = 2;
    s.tiling.pipes = 2;
    s.tiling.banks = 8;
    s.tiling.group_bytes = 256;
    s.tiling.row_bytes = 1024;
    return s;
}

static int bench_2d_1280x768(void)
{
    struct cedar_surface s = cedar_2d(1280, 768);
    return bench_detile_surface("2d-1280x768-bpe4", &s);
}

static int bench_2d_4096x4096(void)
{
    struct cedar_surface s = cedar_2d(4096, 4096);
    return bench_detile_surface("2d-4096x4096-bpe4", &s);
}

/* The 8x MSAA colour surface of the seed write-up: 1280x736, 4 bytes, tile
 * split 512, bank 1x1, aspect 2; every sample plane is de-tiled. */
static int bench_msaa8x(void)
{
    struct cedar_surface s = cedar_2d(1280, 736);
    s.samples = 8;
    s.tile_split = 512;
    s.bankh = 1;
    return bench_detile_surface("msaa8x-1280x736-bpe4-all-samples", &s);
}

static const struct bench_case {
    const char *name;
    int (*run)(void);
} cases[] = {
    {"detile-2d-1280x768", bench_2d_1280x768},
    {"detile-2d-4096x4096", bench_2d_4096x4096},
    {"detile-msaa8x-1280x736", bench_msaa8x},
    {"frame", bench_frame_run}, /* tools/bench/: virtual Cedar vs llvmpipe */
    {"startup", bench_startup_run}, /* tools/bench/: whole processes */
};

/* --help: the cases and the lines they print (README.md, "Benchmarks"). */
static const char usage[] =
    "usage: cedar-bench [CASE ...]\n"
    "Runs every case, or those whose name contains one of the CASE arguments\n"
    "(e.g. 'detile', 'frame'). Exit status: 0, 1 when a case failed, 2 on an\n"
    "unknown CASE. The machine may be busy: run it a few times.\n"
    "\n"
    "cases:\n"
    "  detile-2d-1280x768      de-tile a 1280x768 2D-tiled 4-byte surface (the HD 7350's\n"
    "                          2 pipes, 8 banks, bank height 2, macro aspect 2) with\n"
    "                          cedar_detile_samples, and memcpy the same number of bytes\n"
    "  detile-2d-4096x4096     the same for a 4096x4096 surface\n"
    "  detile-msaa8x-1280x736  the same for the 8x MSAA 1280x736 colour surface (tile\n"
    "                          split 512), every sample plane in one pass\n"
    "  frame                   the demo's default frame (1280x720: clear, one\n"
    "                          per-vertex-coloured triangle, MSAA, resolve, read-back) on\n"
    "                          the virtual Cedar through the demo's command buffers, and on\n"
    "                          Mesa's llvmpipe through EGL/GLES 3, at 4 samples (llvmpipe's\n"
    "                          most); and the virtual Cedar at 8 samples.  Each side runs\n"
    "                          in its own child process; the sides take turns, one frame\n"
    "                          each per round; their first and last images are checked\n"
    "                          before any time counts\n"
    "\n"
    "output lines:\n"
    "  bench detile <case> <GB/s> memcpy <GB/s> ratio <detile/memcpy>\n"
    "      de-tiling and memcpy throughput, measured alternately in one run (best\n"
    "      of N each after one untimed call); ratio above 1: de-tiling is faster\n"
    "  bench frame-detail machine: <n> CPUs online, 1-minute load average <l>\n"
    "      how busy the machine was (', quick (CEDAR_BENCH_QUICK)' when quick)\n"
    "  bench frame-detail <side>: \"<renderer>\", <s> samples, <n> frames, median <ms>,\n"
    "      mean <ms>, best <ms>, CPU <ms>, peak RSS <MiB>\n"
    "      one side (virtual, llvmpipe) at 4 samples; frame8x-detail: virtual at 8.\n"
    "      CPU is CPU time per frame over all threads\n"
    "  bench frame virtual <ms> llvmpipe <ms> ratio <virtual/llvmpipe>\n"
    "      median ms per 4-sample frame of each side; ratio below 1: the virtual\n"
    "      Cedar is faster (only the side that ran when one did not)\n"
    "  bench frame8x virtual <ms> llvmpipe <ms> ratio <virtual 8x/llvmpipe 4x>\n"
    "      median ms per 8-sample frame on the virtual Cedar, against llvmpipe's\n"
    "      4-sample frame (only the virtual figure when llvmpipe did not run)\n"
    "  bench <frame|frame8x> <side> unavailable: <reason>\n"
    "      the side could not run (e.g. no llvmpipe); the benchmark goes on\n"
    "  bench <frame|frame8x> <side> FAILED: <reason>\n"
    "      the side's image was wrong: not timed, exit status 1\n"
    "  bench peak-rss <frame-virtual|frame-llvmpipe|frame8x-virtual> <MiB>\n"
    "      the peak resident set of that side's child process\n"
    "  bench peak-rss <MiB>\n"
    "      last line: the largest peak RSS of cedar-bench itself and any child\n"
    "\n"
    "environment:\n"
    "  CEDAR_BENCH_QUICK=1     the frame case times one frame per side (a quick check\n"
    "                          of the output; the numbers are only indicative)\n";

int main(int argc, char **argv)
{
    int rc = 0;
    /* every argument must name (part of) a case: a typo is an error, not
     * an empty run */
    for (int a = 1; a < argc; a++) {
        size_t i = 0;
        while (i < sizeof cases / sizeof cases[0] && !strstr(cases[i].name, argv[a]))
            i++;
        bool help = !strcmp(argv[a], "--help") || !strcmp(argv[a], "-h");
        if (help || i == sizeof cases / sizeof cases[0] || !argv[a][0]) {
            FILE *f = help ? stdout : stderr;
            if (!help)
                fprintf(f, "cedar-bench: no benchmark case matches '%s' (cases:", argv[a]);
            else
                fputs(usage, f);
            for (i = 0; i < sizeof cases / sizeof cases[0] && !help; i++)
                fprintf(f, " %s", cases[i].name);
            if (!help)
                fprintf(f, ")\n");
            return help ? 0 : 2;
        }
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int selected = argc < 2;
        for (int a = 1; a < argc; a++)
            if (strstr(cases[i].name, argv[a]))
                selected = 1;
        if (selected)
            rc |= cases[i].run();
    }
    bench_print_peak_rss();
    return rc;
}
