/* `bench frame`: the default frame (clear + MSAA draw + resolve + read-back)
 * on the virtual Cedar, next to Mesa's llvmpipe rendering the same scene
 * through EGL, with the peak memory of each side.  Issue 7, item 7. */
#ifndef CEDAR_BENCH_FRAME_H
#define CEDAR_BENCH_FRAME_H

#include <stdbool.h>
#include <stddef.h>

/* How long the sides are timed: after `warmup` untimed frames each, rounds
 * of one frame per side, at least min_rounds and at most max_rounds,
 * stopping once budget_s seconds have gone by. */
struct frame_budget {
    unsigned warmup, min_rounds, max_rounds;
    double budget_s;
};

/* What one side measured. */
struct frame_timing {
    unsigned samples;
    unsigned frames;       /* timed frames */
    double ms_per_frame;   /* median of the timed frames */
    double mean_ms;        /* mean of the timed frames */
    double best_ms;        /* fastest timed frame */
    double cpu_ms;         /* process CPU time (all threads) per timed frame */
    char renderer[128];    /* GL_RENDERER, or what the virtual side ran */
};

/* A side's outcome. */
enum frame_status {
    FRAME_OK = 0,
    FRAME_UNAVAILABLE = 1, /* cannot run here (no EGL, no demo API ...): not an error */
    FRAME_FAILED = 2,      /* ran, but the image was wrong or a step failed */
};

/* Runs both sides at 4 samples and the virtual Cedar at 8, each in a forked
 * child (so each side's peak RSS is its own) that renders one frame when
 * told: the sides take turns frame by frame, so that all see the same
 * machine load.  Prints
 *   bench frame virtual <ms> llvmpipe <ms> ratio <virtual/llvmpipe>
 *   bench frame8x virtual <ms> llvmpipe <ms> ratio <virtual 8x/llvmpipe 4x>
 *   bench peak-rss frame-<side> <MiB>   (one per side)
 * or `bench frame <side> unavailable: <reason>` for a side that cannot run.
 * With CEDAR_BENCH_QUICK set (not "0") each side times a single frame.
 * Returns 0 unless a side ran and failed. */
int bench_frame_run(void);

/* CEDAR_BENCH_QUICK is set (and not "0"): time as little as shows the
 * output is right. */
bool bench_quick(void);

/* Prints `bench <label>-detail machine: <n> CPUs online, 1-minute load
 * average <l>` (and ", quick (CEDAR_BENCH_QUICK)"). */
void bench_print_machine(const char *label);

/* Prints `bench peak-rss <MiB>`: the largest peak resident set of this
 * process and of any child it waited for. */
void bench_print_peak_rss(void);

#endif
