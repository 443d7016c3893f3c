/* The tessellation path of a draw (tess.c, tess_state.c), as Evergreen runs
 * it for Mesa's r600: the VGT cuts the index stream into patches of
 * VGT_LS_HS_CONFIG.HS_NUM_INPUT_CP control points (DI_PT_PATCH); the vertex
 * shader run as the LS writes each control point into the thread group's
 * local data share; the hull shader runs once per output control point
 * (HS_NUM_OUTPUT_CP invocations), writes its outputs to the LDS and the
 * patch's tessellation factors with TF_WRITE; the fixed-function
 * tessellator (tessellator.c, VGT_TF_PARAM) turns the factors into domain
 * points and primitives; the domain shader, bound as the VS, runs once per
 * point reading the LDS, and its positions and parameters go to the clipper
 * as a VS's would -- or, with a geometry shader, the DS runs as the ES into
 * the ESGS ring and each tessellated primitive goes through the GS (gs.c). */
#ifndef CEDAR_RENDER_TESS_H
#define CEDAR_RENDER_TESS_H

#include <stdbool.h>
#include <stdint.h>

#include "gs.h"
#include "render_priv.h"
#include "tessellator.h"

#define TESS_MAX_CP 32          /* HS_NUM_INPUT_CP / _OUTPUT_CP: GL_MAX_PATCH_VERTICES */
#define TESS_LDS_BYTES 32768u   /* the Cedar's local data share, per SIMD */

/* The draw's tessellation state, from the registers (tess_state.c). */
struct tess_state {
    unsigned ncp_in, ncp_out;       /* VGT_LS_HS_CONFIG.HS_NUM_INPUT_CP / _OUTPUT_CP */
    uint32_t lds_bytes;             /* the LDS a thread group gets */
    enum tess_domain domain;        /* VGT_TF_PARAM.TYPE */
    enum tess_spacing spacing;      /* .PARTITIONING */
    enum tess_output output;        /* .TOPOLOGY */
    unsigned nfactors;              /* factors a patch has: 2, 4 or 6 */
    float max_level;                /* VGT_HOS_MAX_TESS_LEVEL */
    bool gs;                        /* the DS feeds a GS (ES_EN ES_STAGE_DS) */
};

/* Whether the draw runs the tessellation path (VGT_SHADER_STAGES_EN.HS_EN). */
bool tess_enabled(const struct vc_regs *regs);

/* Decode and check the state; what the model does not take (stage
 * combinations Mesa does not set) stops the draw with a named reason.  0,
 * or -1 with err. */
int tess_state_init(struct tess_state *t, const struct vc_regs *regs, struct vc_draw_err *err);

/* Run the draw through the tessellation path, with the state
 * tess_state_init decoded from regs: the VGT's patches (vgt_run)
 * through the LS, the HS, the tessellator and the DS, the DS's points,
 * lines or triangles to fn (with a GS: through the GS, its strips to fn).  Counts into counts (vs_invocations: the
 * reuse model's count of the LS's vertices) and r->stats (vertices: LS and
 * DS runs).  0, or -1 with err. */
int tess_draw(struct vc_render *r, const struct tess_state *state, const struct vc_regs *regs, const struct vc_mem *mem,
              const struct vc_draw *draw, gs_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err);

#endif
