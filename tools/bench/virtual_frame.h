/* The benchmark frame on the virtual Cedar, through the MSAA demo's own
 * path (cedar/demo.h): the demo's command buffers built for the default
 * scene at a given sample count, submitted through the kernel-interface seam
 * to the virtual device with the renderer attached, read back, and the
 * resolved image de-tiled to linear pixels (what glReadPixels hands back on
 * the other side). */
#ifndef CEDAR_BENCH_VIRTUAL_FRAME_H
#define CEDAR_BENCH_VIRTUAL_FRAME_H

#include "frame_timing.h"

/* In a child of `bench frame`: sets the frame up with `samples` samples per
 * pixel and serves the parent's commands (frame_serve).  Returns FRAME_OK,
 * FRAME_UNAVAILABLE (the demo cannot open the virtual Cedar) or FRAME_FAILED
 * (a step failed, or the first or last image is not the scene), with a
 * reason in why. */
enum frame_status virtual_frame_bench(unsigned samples, struct frame_link *link, char *why,
                                      size_t whylen);

#endif
