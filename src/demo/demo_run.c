/* Running the plan on a device, through the ioctl seam only: GEM buffers in
 * VRAM, uploads through GEM_MMAP, one CS ioctl per IB (IB, RELOCS and FLAGS
 * chunks, RADEON_CS_KEEP_TILING_FLAGS), GEM_WAIT_IDLE, then readback.
 *
 * Readback is a CPU mapping (GEM_MMAP) after GEM_WAIT_IDLE rather than a
 * CP_DMA copy into a GTT buffer: the radeon kernel moves a VRAM buffer into
 * the CPU-visible part of VRAM when it is mapped, so the bytes come back
 * exactly as the GPU left them (tiled, with FMask and CMask), and nothing
 * beyond the demo's own four command buffers is submitted.  The ioctls
 * themselves are the session's (demo_session.c): a run is a session opened,
 * every IB submitted once and read back; the result keeps it open, and the
 * read-back bytes are the buffers' own mappings, until
 * cedar_demo_result_free closes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo_internal.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Buffer id as read back: its CPU mapping itself, no copy (the result keeps
 * the session, so the mapping lives until cedar_demo_result_free). */
static int read_back(const struct cedar_demo_session *s, enum cedar_demo_buf id, const uint8_t **out,
                     size_t *size, char *err, size_t errlen)
{
    size_t n = 0;
    *out = cedar_demo_session_map(s, id, &n);
    if (!*out) {
        snprintf(err, errlen, "the buffer to read back is not mapped");
        return -1;
    }
    *size = n;
    return 0;
}

int cedar_demo_run(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                   const struct cedar_demo_hook *hook, struct cedar_demo_result *res,
                   char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    struct cedar_demo_session *s = NULL;
    double t0 = now_seconds();

    if (demo_session_create(dev, plan, &s, err, errlen) != 0)
        goto fail;
    for (unsigned i = 0; i < plan->nibs; i++) {
        if (demo_session_submit(s, i, hook, err, errlen) != 0)
            goto fail;
        res->dwords_submitted += plan->ibs[i].cb.ndw;
        res->submissions++;
    }
    /* Read back once everything that writes the buffers is done. */
    if (demo_session_wait(s, CEDAR_DEMO_BUF_COLOR, err, errlen) != 0 ||
        read_back(s, CEDAR_DEMO_BUF_COLOR, &res->color, &res->color_size, err, errlen) != 0)
        goto fail;
    res->color_zero_pages = malloc((res->color_size + 4095) / 4096);
    if (res->color_zero_pages &&
        cedar_demo_zero_pages(dev, res->color, res->color_size, res->color_zero_pages) != 0) {
        free(res->color_zero_pages);
        res->color_zero_pages = NULL;
    }
    if (plan->bufs[CEDAR_DEMO_BUF_RESOLVE].used &&
        (demo_session_wait(s, CEDAR_DEMO_BUF_RESOLVE, err, errlen) != 0 ||
         read_back(s, CEDAR_DEMO_BUF_RESOLVE, &res->resolve, &res->resolve_size, err, errlen) != 0))
        goto fail;
    res->seconds = now_seconds() - t0;
    res->session = s;
    return 0;
fail:
    cedar_demo_session_close(s);
    free(res->color_zero_pages);
    memset(res, 0, sizeof *res);
    return -1;
}

void cedar_demo_result_free(struct cedar_demo_result *res)
{
    cedar_demo_session_close(res->session);
    free(res->color_zero_pages);
    memset(res, 0, sizeof *res);
}
