/* The geometry-shader path of a draw (gs.c, gs_state.c): the vertex shader
 * run as the ES writes each vertex's outputs into the ESGS ring, the GS runs
 * once per input primitive reading them there and writes its output vertices
 * into the GSVS ring (MEM_RING, EMIT_VERTEX / CUT_VERTEX), and the copy
 * shader, bound as the VS, reads each emitted vertex back for the clipper;
 * the emitted strips (VGT_GS_OUT_PRIM_TYPE) are the primitives drawn. */
#ifndef CEDAR_RENDER_GS_H
#define CEDAR_RENDER_GS_H

#include <stdbool.h>
#include <stdint.h>

#include "render_priv.h"

/* The draw's geometry-path state, from the registers (gs_state.c). */
struct gs_state {
    uint8_t *esgs, *gsvs;          /* SQ_ESGS_RING_BASE / SQ_GSVS_RING_BASE, mapped */
    uint64_t esgs_bytes, gsvs_bytes; /* SQ_*_RING_SIZE */
    unsigned es_item;              /* SQ_ESGS_RING_ITEMSIZE: dwords per ES vertex */
    unsigned gs_item;              /* SQ_GSVS_RING_ITEMSIZE: dwords per GS invocation, all streams */
    unsigned vert_item;            /* SQ_GS_VERT_ITEMSIZE: dwords per stream-0 output vertex */
    unsigned stream_off[4];        /* dwords of each stream's part in the item (SQ_GSVS_RING_OFFSET_1..3) */
    unsigned max_vert_out;         /* VGT_GS_MAX_VERT_OUT */
    unsigned out_prim;             /* VGT_GS_OUT_PRIM_TYPE */
    unsigned es_slots, gs_slots;   /* items each ring holds */
};

/* Whether the draw runs the geometry path (VGT_GS_MODE.MODE GS_SCENARIO_G). */
bool gs_enabled(const struct vc_regs *regs);

/* Decode and check the state; what the model does not take (tessellation,
 * stream-out, GS instancing, rings outside GPU memory or too small for one
 * item) stops the draw with a named reason.  0, or -1 with err. */
int gs_state_init(struct gs_state *g, const struct vc_regs *regs, const struct vc_mem *mem,
                  struct vc_draw_err *err);

/* Where the GS path's primitives go: a point, line or triangle of n (1..3)
 * vertices as the copy shader left them. */
typedef int (*gs_prim_fn)(void *ctx, enum vgt_prim_kind kind, const struct vc_vertex_out *const *vo, unsigned n);

/* Run the draw through the geometry path: the VGT's primitives (vgt_run)
 * through the ES and the GS, the GS's strips through the copy shader to fn.
 * Counts into counts (vs_invocations: the ES runs) and r->stats
 * (gs_invocations, gs_primitives, vertices).  0, or -1 with err. */
int gs_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
            gs_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err);

#endif
