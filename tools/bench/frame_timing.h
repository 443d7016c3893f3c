/* The timing loop both sides of `bench frame` share. */
#ifndef CEDAR_BENCH_FRAME_TIMING_H
#define CEDAR_BENCH_FRAME_TIMING_H

#include "bench_frame.h"

/* Renders one whole frame, or checks the image the last frame left; 0, or
 * -1 with a reason in why. */
typedef int (*frame_step_fn)(void *ctx, char *why, size_t whylen);

/* Renders budget->warmup frames (at least one) and checks that image, times
 * frames one by one as struct frame_budget says, and checks the last image.
 * Fills out->frames, ms_per_frame (the median: other processes on the
 * machine delay single frames, and the median ignores those), mean_ms,
 * best_ms and cpu_ms.  Returns FRAME_OK or FRAME_FAILED. */
enum frame_status frame_time(const struct frame_budget *budget, frame_step_fn render,
                             frame_step_fn check, void *ctx, struct frame_timing *out, char *why,
                             size_t whylen);

#endif
