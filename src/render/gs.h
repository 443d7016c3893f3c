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

/* Decode and check the state (from_ds: the DS of a tessellated draw is the
 * ES, ES_STAGE_DS; else the vertex shader, ES_STAGE_REAL); what the model
 * does not take (stream-out, GS instancing, rings outside GPU memory or too
 * small for one item) stops the draw with a named reason.  0, or -1 with
 * err. */
int gs_state_init(struct gs_state *g, const struct vc_regs *regs, const struct vc_mem *mem, bool from_ds,
                  struct vc_draw_err *err);

/* Where the GS path's primitives go: a point, line or triangle of n (1..3)
 * vertices as the copy shader left them. */
typedef int (*gs_prim_fn)(void *ctx, enum vgt_prim_kind kind, const struct vc_vertex_out *const *vo, unsigned n);

/* Runs the ES for vertex `index` of `instance` (what the ES is depends on
 * the draw: gs_draw's vertex shader, tess.c's DS for domain point `index`
 * of the current patch), writing the ring through sink.  0, or -1 with err. */
typedef int (*gs_es_fn)(void *arg, uint32_t index, uint32_t instance, const struct vc_ring_sink *sink,
                        struct vc_draw_err *err);

/* The geometry path of one draw: gs_open decodes the state (NULL with err
 * when it cannot run), gs_primitive runs one input primitive of n vertices
 * (idx: what es_fn gets; inv: a number naming each vertex's ES run, equal
 * only for the same vertex, so that a vertex whose ESGS item is still in the
 * ring is not run again) through the ES and the GS, R0.z = prim_id, and the
 * GS's strips through the copy shader to fn; gs_close frees it. */
struct gs_run;
struct gs_run *gs_open(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem, bool from_ds,
                       gs_es_fn es_fn, void *es_arg, gs_prim_fn fn, void *ctx, struct vc_draw_err *err);
int gs_primitive(struct gs_run *g, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                 uint32_t instance, uint32_t prim_id);
void gs_close(struct gs_run *g);

/* Run the draw through the geometry path: the VGT's primitives (vgt_run)
 * through the ES and the GS, the GS's strips through the copy shader to fn.
 * Counts into counts (vs_invocations: the ES runs) and r->stats
 * (gs_invocations, gs_primitives, vertices).  0, or -1 with err. */
int gs_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
            gs_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err);

#endif
