/* The timing loop both sides of `bench frame` share (see frame_timing.h). */
#include "frame_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process, every thread (llvmpipe renders on several). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int checked(frame_step_fn check, void *ctx, const char *which, char *why, size_t whylen)
{
    char reason[400];
    if (check(ctx, reason, sizeof reason) == 0)
        return 0;
    snprintf(why, whylen, "the %s image is wrong: %s", which, reason);
    return -1;
}

enum frame_status frame_time(const struct frame_budget *budget, frame_step_fn render,
                             frame_step_fn check, void *ctx, struct frame_timing *out, char *why,
                             size_t whylen)
{
    for (unsigned i = 0; i < budget->warmup || i == 0; i++)
        if (render(ctx, why, whylen) != 0)
            return FRAME_FAILED;
    if (checked(check, ctx, "first", why, whylen) != 0)
        return FRAME_FAILED;

    unsigned cap = budget->max_frames ? budget->max_frames : 1;
    double *ms = malloc(cap * sizeof *ms);
    if (!ms) {
        snprintf(why, whylen, "out of memory");
        return FRAME_FAILED;
    }
    double start = now_s(), cpu_start = cpu_s(), total = 0;
    unsigned n = 0;
    while (n < cap && (n < budget->min_frames || now_s() - start < budget->budget_s)) {
        double t0 = now_s();
        if (render(ctx, why, whylen) != 0) {
            free(ms);
            return FRAME_FAILED;
        }
        ms[n] = (now_s() - t0) * 1e3;
        total += ms[n++];
    }
    double cpu = cpu_s() - cpu_start;
    if (checked(check, ctx, "last", why, whylen) != 0) {
        free(ms);
        return FRAME_FAILED;
    }
    qsort(ms, n, sizeof *ms, cmp_double);
    out->frames = n;
    out->ms_per_frame = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    out->mean_ms = total / n;
    out->best_ms = ms[0];
    out->cpu_ms = cpu / n * 1e3;
    free(ms);
    return FRAME_OK;
}
