/* The benchmark frame on Mesa's llvmpipe: EGL on the surfaceless platform,
 * a GLES 3 context, a multisampled RGBA8 renderbuffer cleared and drawn,
 * resolved by glBlitFramebuffer into a single-sample RGBA8 framebuffer and
 * read back with glReadPixels. */
#ifndef CEDAR_BENCH_LLVMPIPE_FRAME_H
#define CEDAR_BENCH_LLVMPIPE_FRAME_H

#include "frame_timing.h"

/* In a child of `bench frame`: forces llvmpipe (LIBGL_ALWAYS_SOFTWARE,
 * GALLIUM_DRIVER: this changes the calling process's environment), sets the
 * frame up with `samples` samples per pixel and serves the parent's commands
 * (frame_serve).  Every frame ends in glReadPixels + glFinish; the first and
 * the last image are checked (frame_check_image).  Returns FRAME_OK,
 * FRAME_UNAVAILABLE (no EGL display, not llvmpipe, too many samples ...) or
 * FRAME_FAILED, with a reason in why. */
enum frame_status llvmpipe_frame_bench(unsigned samples, struct frame_link *link, char *why,
                                       size_t whylen);

#endif
