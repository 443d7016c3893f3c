/* cedar-probe timing: GPU timestamps (EVENT_WRITE_EOP, the 64-bit GPU clock)
 * around a fast clear, a full clear, 8x draws of growing triangle counts and
 * sizes, and a resolve, each repeated; medians in clock ticks and in µs
 * (RADEON_INFO_CLOCK_CRYSTAL_FREQ), as the G80 study (../shared/seeds/000_*)
 * times growing workloads. */
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "probe.h"

#define SUB "timing"

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe timing [options]\n"
"\n"
"Times a fast clear (CMask), a full clear (a draw, no CMask), 8x MSAA draws of\n"
"growing triangle counts and sizes and a CB resolve with end-of-pipe GPU\n"
"timestamps; each is repeated and the median printed in ticks and µs.\n"
"\n"
"  --repeat N            runs of each workload, 1..101 (default 9)\n"
PROBE_COMMON_HELP
"\n"
"Exit status: 0 done; 1 the device failed; 2 bad usage.\n");
}

static int timing_opt(void *ctx, int c, const char *arg)
{
    struct cedar_cli_err cerr;
    if (c == 'r' && cedar_cli_uint("--repeat", arg, 1, 101, ctx, &cerr))
        return probe_usage(SUB, "%s", cerr.msg);
    return 0;
}

int probe_cmd_timing(int argc, char **argv)
{
    static const struct option opts[] = {
        { "repeat", required_argument, NULL, 'r' },
        PROBE_COMMON_OPTIONS,
        { NULL, 0, NULL, 0 },
    };
    unsigned repeat = 9;
    const char *device;
    int rc = probe_parse(SUB, argc, argv, opts, timing_opt, &repeat, usage, &device);
    if (rc >= 0)
        return rc;
    char what[96];
    snprintf(what, sizeof what, "%u runs of each workload", repeat);
    struct probe_dev pd;
    if (probe_open(SUB, device, what, &pd) != 0)
        return PROBE_EXIT_FAILED;
    probe_close(&pd);
    return probe_fail(SUB, "the experiment is not built yet (issue 14, work in progress)");
}
