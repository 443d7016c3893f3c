/* cedar-probe reuse: post-transform vertex reuse, measured as the write-up
 * "Optimal grid rendering isn't optimal" (../shared/seeds/003_*) measures it:
 * a grid of quads drawn with index orders tuned for assumed cache sizes, the
 * vertex-shader invocations of each draw read from the pipeline-statistics
 * counters (EVENT_WRITE SAMPLE_PIPELINESTAT before and after), ATVR =
 * invocations / vertices. */
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "probe.h"

#define SUB "reuse"

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe reuse [options]\n"
"\n"
"Draws an N x N grid of quads (two triangles each) with index orders built for\n"
"assumed vertex-cache sizes and reads the vertex-shader invocations of each\n"
"draw from the pipeline-statistics counters.\n"
"\n"
"  --grid N              quads per side, 1..200 (default 100)\n"
"  --sizes LIST          assumed cache sizes, e.g. 4-64,128 (the default), 3..256\n"
"  --out DIR             where reuse.csv and reuse.png go (default out/)\n"
PROBE_COMMON_HELP
"\n"
"Exit status: 0 done; 1 the device failed or a draw's primitive count was not\n"
"the expected one; 2 bad usage.\n");
}

struct reuse_opts {
    unsigned grid;
    const char *out;
};

static int reuse_opt(void *ctx, int c, const char *arg)
{
    struct reuse_opts *o = ctx;
    struct cedar_cli_err cerr;
    switch (c) {
    case 'g':
        if (cedar_cli_uint("--grid", arg, 1, 200, &o->grid, &cerr))
            return probe_usage(SUB, "%s", cerr.msg);
        return 0;
    case 's': return 0;
    case 'o': o->out = arg; return 0;
    default: return probe_usage(SUB, "option %d is not handled", c);
    }
}

int probe_cmd_reuse(int argc, char **argv)
{
    static const struct option opts[] = {
        { "grid", required_argument, NULL, 'g' },
        { "sizes", required_argument, NULL, 's' },
        { "out", required_argument, NULL, 'o' },
        PROBE_COMMON_OPTIONS,
        { NULL, 0, NULL, 0 },
    };
    struct reuse_opts o = { .grid = 100, .out = "out" };
    const char *device;
    int rc = probe_parse(SUB, argc, argv, opts, reuse_opt, &o, usage, &device);
    if (rc >= 0)
        return rc;
    char what[96];
    snprintf(what, sizeof what, "%ux%u quads", o.grid, o.grid);
    struct probe_dev pd;
    if (probe_open(SUB, device, what, &pd) != 0)
        return PROBE_EXIT_FAILED;
    probe_close(&pd);
    return probe_fail(SUB, "the experiment is not built yet (issue 14, work in progress)");
}
