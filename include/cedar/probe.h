/* Experiments that measure the GPU (cedar-probe): index orders for a grid
 * of quads, the pipeline-statistics counters, GPU timestamps, and a session
 * that runs draws of the demo's pipeline between them on a device (the card
 * or the virtual Cedar, through the ioctl seam).
 *
 * The layer sits on the demo's (cedar/demo.h: its state, shaders and
 * buffers); the tool is tools/cedar-probe.c with tools/probe/. */
#ifndef CEDAR_PROBE_H
#define CEDAR_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/demo.h"
#include "cedar/device.h"

/* ---- index orders for an n x n grid of quads (index_orders.c) ------------- */

#define CEDAR_PROBE_MAX_GRID 200u     /* quads per side */
#define CEDAR_PROBE_MAX_CACHE 256u    /* assumed cache size */

enum cedar_probe_order {
    CEDAR_PROBE_OPTIMAL,   /* strips under the cache size, first row prefetched (degenerate triangles) */
    CEDAR_PROBE_STRIPED,   /* the same strips, no prefetch */
    CEDAR_PROBE_TIPSIFY,   /* Sander, Nehab, Barczak 2007 */
    CEDAR_PROBE_FORSYTH,   /* Forsyth 2006 (its own 32-entry LRU: the size does not matter) */
    CEDAR_PROBE_ORDER_COUNT
};
const char *cedar_probe_order_name(enum cedar_probe_order order);

/* The grid's vertices are (n + 1) x (n + 1), row by row: vertex y * (n + 1) + x.
 * Quad (x, y)'s two triangles as every order keeps them (winding included):
 * tri[0..2] and tri[3..5]. */
void cedar_probe_grid_quad(unsigned n, unsigned x, unsigned y, uint32_t tri[6]);

/* A triangle list of the grid in the order, tuned for a FIFO of `cache`
 * vertices (3..CEDAR_PROBE_MAX_CACHE): *indices (malloc'ed) and *count.
 * 0, -EINVAL (n or cache out of range, unknown order) or -ENOMEM. */
int cedar_probe_grid_indices(enum cedar_probe_order order, unsigned n, unsigned cache,
                             uint32_t **indices, size_t *count);

/* ---- the pipeline-statistics counters (pipestats.c) ------------------------ */

/* What EVENT_WRITE SAMPLE_PIPELINESTAT writes: eleven 64-bit counters, in
 * the order Mesa's r600 driver reads them on Evergreen (r600_query.c). */
#define CEDAR_PIPESTATS_BYTES 88u
struct cedar_pipestats {
    uint64_t ps_invocations, c_primitives, c_invocations, vs_invocations, gs_invocations,
        gs_primitives, ia_primitives, ia_vertices, hs_invocations, ds_invocations, cs_invocations;
};
void cedar_pipestats_decode(const void *bytes, struct cedar_pipestats *out);
/* end - begin, counter by counter. */
void cedar_pipestats_sub(const struct cedar_pipestats *end, const struct cedar_pipestats *begin,
                         struct cedar_pipestats *delta);

/* ---- a session for experiments (session.c) --------------------------------- */

struct cedar_probe_config {
    unsigned width, height, samples;    /* the render target, as the demo's */
    bool fast_clear;                    /* the plan's "clear" IB: CMask (true) or a draw */
    struct cedar_tiling tiling;         /* from the device */
    const struct cedar_demo_vertex *vertices;   /* the experiment's vertices */
    unsigned num_vertices;
    size_t max_indices;                 /* largest index list of cedar_probe_draw_stats */
};

struct cedar_probe;

/* The demo's plan with the experiment's vertices and a scratch buffer, its
 * buffers on dev, the "init" IB run.  0, or -1 with a one-line reason. */
int cedar_probe_open(struct cedar_dev *dev, const struct cedar_probe_config *cfg, struct cedar_probe **out,
                     char *err, size_t errlen);
void cedar_probe_close(struct cedar_probe *p);

/* One DRAW_INDEX of 32-bit indices into the experiment's vertices as
 * prim_type (DI_PT_*), between two EVENT_WRITE SAMPLE_PIPELINESTAT; *delta
 * is what the counters counted for it.  0, or -1 with a reason. */
int cedar_probe_draw_stats(struct cedar_probe *p, uint32_t prim_type, const uint32_t *indices, size_t count,
                           struct cedar_pipestats *delta, char *err, size_t errlen);

/* GPU timestamps (EVENT_WRITE_EOP, the 64-bit GPU clock) around work, in
 * clock ticks:
 * - cedar_probe_time_plan_ib: a separate IB writes a timestamp, the plan's
 *   IB named `what` ("clear", "draw", "resolve") runs, another writes the
 *   second: the time includes that IB's state;
 * - cedar_probe_time_draw: one IB with the draw state, a timestamp, a
 *   DRAW_INDEX_AUTO of vertices [first, first + count) as a triangle list,
 *   a second timestamp (end of pipe: after the draw's last pixel).
 * 0, or -1 with a reason. */
int cedar_probe_time_plan_ib(struct cedar_probe *p, const char *what, uint64_t *ticks, char *err, size_t errlen);
int cedar_probe_time_draw(struct cedar_probe *p, unsigned first, unsigned count, uint64_t *ticks, char *err,
                          size_t errlen);

/* RADEON_INFO_CLOCK_CRYSTAL_FREQ: the timestamp clock in kHz.  0, or -1. */
int cedar_probe_clock_khz(struct cedar_dev *dev, uint32_t *khz);

#endif
