/* cedar-probe timing: GPU timestamps (EVENT_WRITE_EOP, the 64-bit GPU clock)
 * around a fast clear, a full clear, 8x draws of growing triangle counts and
 * sizes, and a resolve, each repeated; medians in clock ticks and in µs
 * (RADEON_INFO_CLOCK_CRYSTAL_FREQ), as the G80 study (../shared/seeds/000_*)
 * times growing workloads to find fast paths and cliffs.  On the virtual
 * Cedar the clock is src/vcedar/vc_clock.c's cost model: the times are its
 * predictions. */
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "cedar/probe.h"
#include "probe.h"

#define SUB "timing"
#define WIDTH 1280
#define HEIGHT 720
#define MAX_PIXELS (1u << 23)     /* the largest draw: about 8.4 million pixels */

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe timing [options]\n"
"\n"
"Times, with end-of-pipe GPU timestamps, on a 1280x720 8x MSAA target: a fast\n"
"clear (CMask), a full clear (a draw, no CMask), draws of N right triangles\n"
"with legs of S pixels, and a CB resolve; each is repeated and the median\n"
"printed in ticks and µs.  On the virtual Cedar the times are the predictions\n"
"of its clock model (src/vcedar/vc_clock.c), not measurements.\n"
"\n"
"  --repeat N            runs of each workload, 1..101 (default 9)\n"
"  --counts LIST         triangle counts N, e.g. 1,16,256,4096 (the default), 1..65536\n"
"  --sizes LIST          triangle legs S in pixels, e.g. 4,16,64,256 (the default), 1..720\n"
"                        (draws of more than 8388608 pixels are left out)\n"
PROBE_COMMON_HELP
"\n"
"Exit status: 0 done; 1 the device failed; 2 bad usage.\n");
}

struct timing_opts {
    unsigned repeat;
    unsigned counts[16], ncounts;
    unsigned sizes[16], nsizes;
};

static int timing_opt(void *ctx, int c, const char *arg)
{
    struct timing_opts *o = ctx;
    struct cedar_cli_err cerr;
    switch (c) {
    case 'r':
        if (cedar_cli_uint("--repeat", arg, 1, 101, &o->repeat, &cerr))
            return probe_usage(SUB, "%s", cerr.msg);
        return 0;
    case 'c': return probe_parse_list(SUB, "--counts", arg, 1, 65536, o->counts, 16, &o->ncounts);
    case 's': return probe_parse_list(SUB, "--sizes", arg, 1, HEIGHT, o->sizes, 16, &o->nsizes);
    default: return probe_usage(SUB, "option %d is not handled", c);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* N right triangles with legs of S pixels, laid side by side over the
 * target (again from the top left when they do not fit: overdraw). */
static void triangles(struct cedar_demo_vertex *v, unsigned n, unsigned s)
{
    unsigned cols = WIDTH / s, rows = HEIGHT / s;
    for (unsigned t = 0; t < n; t++) {
        unsigned cell = t % (cols * rows);
        float x = (float)(cell % cols * s), y = (float)(cell / cols * s);
        const float px[3][2] = {{x, y}, {x, y + (float)s}, {x + (float)s, y}};
        for (int k = 0; k < 3; k++) {
            struct cedar_demo_vertex *o = &v[3 * t + k];
            memset(o, 0, sizeof *o);
            o->pos[0] = 2.0f * px[k][0] / WIDTH - 1.0f;
            o->pos[1] = 1.0f - 2.0f * px[k][1] / HEIGHT;
            o->pos[3] = 1.0f;
            o->color[k] = 1.0f;
            o->color[3] = 1.0f;
        }
    }
}

struct run {
    unsigned repeat;
    double us_per_tick;
    uint64_t *t;
};

static void report(const struct run *r, const char *what)
{
    qsort(r->t, r->repeat, sizeof *r->t, cmp_u64);
    uint64_t med = r->t[r->repeat / 2];
    printf("%-44s %10llu %12.1f %10llu %10llu\n", what, (unsigned long long)med, (double)med * r->us_per_tick,
           (unsigned long long)r->t[0], (unsigned long long)r->t[r->repeat - 1]);
    fflush(stdout);
}

static int time_ib(struct run *r, struct cedar_probe *p, const char *ib, const char *what)
{
    char err[512];
    for (unsigned k = 0; k < r->repeat; k++)
        if (cedar_probe_time_plan_ib(p, ib, &r->t[k], err, sizeof err) != 0)
            return probe_fail(SUB, "%s: %s", what, err);
    report(r, what);
    return 0;
}

int probe_cmd_timing(int argc, char **argv)
{
    static const struct option opts[] = {
        { "repeat", required_argument, NULL, 'r' },
        { "counts", required_argument, NULL, 'c' },
        { "sizes", required_argument, NULL, 's' },
        PROBE_COMMON_OPTIONS,
        { NULL, 0, NULL, 0 },
    };
    struct timing_opts o = { .repeat = 9 };
    probe_parse_list(SUB, "--counts", "1,16,256,4096", 1, 65536, o.counts, 16, &o.ncounts);
    probe_parse_list(SUB, "--sizes", "4,16,64,256", 1, HEIGHT, o.sizes, 16, &o.nsizes);
    const char *device;
    int rc = probe_parse(SUB, argc, argv, opts, timing_opt, &o, usage, &device);
    if (rc >= 0)
        return rc;
    char what[160];
    snprintf(what, sizeof what, "%ux%u 8x MSAA, %u runs of each workload, medians", WIDTH, HEIGHT, o.repeat);
    struct probe_dev pd;
    if (probe_open(SUB, device, what, &pd) != 0)
        return PROBE_EXIT_FAILED;

    int status = PROBE_EXIT_FAILED;
    struct cedar_probe *fast = NULL, *full = NULL;
    unsigned maxn = o.counts[o.ncounts - 1];
    struct cedar_demo_vertex *v = malloc(sizeof *v * 3 * (size_t)maxn * o.nsizes);
    struct run r = { o.repeat, 0, calloc(o.repeat, sizeof(uint64_t)) };
    char err[512];
    uint32_t khz;
    struct cedar_tiling tiling;
    if (!v || !r.t) {
        probe_fail(SUB, "out of memory");
        goto done;
    }
    if (cedar_probe_clock_khz(pd.dev, &khz) != 0 || khz == 0) {
        probe_fail(SUB, "RADEON_INFO_CLOCK_CRYSTAL_FREQ failed");
        goto done;
    }
    if (cedar_tiling_from_config(pd.facts.tiling_config, &tiling) != 0) {
        probe_fail(SUB, "unusable tiling config 0x%x", pd.facts.tiling_config);
        goto done;
    }
    r.us_per_tick = 1000.0 / khz;
    for (unsigned s = 0; s < o.nsizes; s++)
        triangles(v + 3 * (size_t)maxn * s, maxn, o.sizes[s]);
    struct cedar_probe_config pc = { .width = WIDTH, .height = HEIGHT, .samples = 8, .fast_clear = true,
                                     .tiling = tiling, .vertices = v, .num_vertices = 3 * maxn * o.nsizes,
                                     .max_indices = 0 };
    if (cedar_probe_open(pd.dev, &pc, &fast, err, sizeof err) != 0) {
        probe_fail(SUB, "%s", err);
        goto done;
    }
    pc.fast_clear = false;
    pc.vertices = NULL;
    pc.num_vertices = 0;
    if (cedar_probe_open(pd.dev, &pc, &full, err, sizeof err) != 0) {
        probe_fail(SUB, "%s", err);
        goto done;
    }
    printf("timestamp clock %u kHz (RADEON_INFO_CLOCK_CRYSTAL_FREQ): 1 tick = %.4f us%s\n", khz, r.us_per_tick,
           pd.model ? "; times: the virtual Cedar's clock model (src/vcedar/vc_clock.c), predictions" : "");
    printf("%-44s %10s %12s %10s %10s\n", "workload", "ticks", "us", "min", "max");
    if (time_ib(&r, fast, "clear", "fast clear (CMask fill)") || time_ib(&r, full, "clear", "full clear (a draw, no CMask)"))
        goto done;
    for (unsigned s = 0; s < o.nsizes; s++)
        for (unsigned c = 0; c < o.ncounts; c++) {
            unsigned sz = o.sizes[s], n = o.counts[c];
            if ((uint64_t)n * sz * sz / 2 > MAX_PIXELS)
                continue;
            char label[96];
            snprintf(label, sizeof label, "8x draw: %u triangle%s, legs %u px", n, n > 1 ? "s" : "", sz);
            for (unsigned k = 0; k < o.repeat; k++)
                if (cedar_probe_time_draw(fast, 3 * maxn * s, 3 * n, &r.t[k], err, sizeof err) != 0) {
                    probe_fail(SUB, "%s: %s", label, err);
                    goto done;
                }
            report(&r, label);
        }
    if (time_ib(&r, fast, "resolve", "resolve 8x -> 1x (CB_RESOLVE)"))
        goto done;
    status = 0;
done:
    cedar_probe_close(fast);
    cedar_probe_close(full);
    probe_close(&pd);
    free(v);
    free(r.t);
    return status;
}
