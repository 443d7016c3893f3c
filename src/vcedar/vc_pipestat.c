/* EVENT_WRITE SAMPLE_PIPELINESTAT: the eleven 64-bit pipeline-statistics
 * counters, written at the event's address in the order Mesa's r600 driver
 * reads them on Evergreen (r600_query.c, PIPE_QUERY_PIPELINE_STATISTICS:
 * the begin sample's dwords 0, 2, ... 20): PS invocations, clipper
 * primitives, clipper invocations, VS invocations, GS invocations, GS
 * primitives, IA primitives, IA vertices, HS, DS and CS invocations.
 *
 * The counters count what the renderer's model does since the device
 * started (cedar/render.h struct vc_render_stats says what each counts;
 * the vertex-reuse model is src/render/vgt_reuse.c; the GS counters are
 * src/render/gs.c's runs and the primitives of their strips; HS
 * invocations one per patch and DS invocations one per domain point of
 * src/render/tess.c; CS invocations every thread of the compute waves
 * src/render/compute.c ran).  With a draw function of the caller's
 * instead of the renderer, all are 0. */
#include <string.h>

#include "vc_internal.h"

enum { PS_INV, C_PRIM, C_INV, VS_INV, GS_INV, GS_PRIM, IA_PRIM, IA_VERT, HS_INV, DS_INV, CS_INV, NCOUNTERS };

void vc_sample_pipelinestat(const struct vcedar *vc, uint8_t out[VC_PIPESTAT_BYTES])
{
    uint64_t c[NCOUNTERS] = {0};
    if (vc->render) {
        struct vc_render_stats s;
        vc_render_get_stats(vc->render, &s);
        c[PS_INV] = s.pixels_shaded;
        c[C_PRIM] = s.c_primitives;
        c[C_INV] = s.c_invocations;
        c[VS_INV] = s.vs_invocations;
        c[GS_INV] = s.gs_invocations;
        c[GS_PRIM] = s.gs_primitives;
        c[IA_PRIM] = s.ia_primitives;
        c[IA_VERT] = s.ia_vertices;
        c[HS_INV] = s.hs_invocations;
        c[DS_INV] = s.ds_invocations;
        c[CS_INV] = s.cs_invocations;
    }
    memcpy(out, c, sizeof c);   /* little-endian host, like the GPU */
}
