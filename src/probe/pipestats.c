/* The pipeline-statistics counters as EVENT_WRITE SAMPLE_PIPELINESTAT
 * writes them: eleven little-endian 64-bit counters in the order Mesa's
 * r600 driver reads them on Evergreen (r600_query.c,
 * PIPE_QUERY_PIPELINE_STATISTICS: dwords 0, 2, ... 20 of a sample). */
#include <string.h>

#include "cedar/probe.h"

void cedar_pipestats_decode(const void *bytes, struct cedar_pipestats *out)
{
    uint64_t c[11];
    memcpy(c, bytes, sizeof c);
    out->ps_invocations = c[0];
    out->c_primitives = c[1];
    out->c_invocations = c[2];
    out->vs_invocations = c[3];
    out->gs_invocations = c[4];
    out->gs_primitives = c[5];
    out->ia_primitives = c[6];
    out->ia_vertices = c[7];
    out->hs_invocations = c[8];
    out->ds_invocations = c[9];
    out->cs_invocations = c[10];
}

void cedar_pipestats_sub(const struct cedar_pipestats *end, const struct cedar_pipestats *begin,
                         struct cedar_pipestats *delta)
{
#define SUB(f) delta->f = end->f - begin->f
    SUB(ps_invocations);
    SUB(c_primitives);
    SUB(c_invocations);
    SUB(vs_invocations);
    SUB(gs_invocations);
    SUB(gs_primitives);
    SUB(ia_primitives);
    SUB(ia_vertices);
    SUB(hs_invocations);
    SUB(ds_invocations);
    SUB(cs_invocations);
#undef SUB
}
