/* The geometry-shader path of a draw (gs.h), as Mesa's r600 drives the
 * hardware (evergreen_state.c, sfn_shader_gs.cpp, sfn_shader_vs.cpp
 * VertexExportForGS, r600_shader.c generate_gs_copy_shader):
 *
 * - ES: the vertex shader at SQ_PGM_START_ES, once per vertex the reuse model
 *   runs, writes its outputs with MEM_RING into an ESGS-ring item of
 *   SQ_ESGS_RING_ITEMSIZE dwords at SQ_ESGS_RING_BASE;
 * - GS: once per primitive, R0.x, R0.y, R0.w, R1.x, R1.y, R1.z holding the
 *   dword offsets of its vertices' items (the GS fetches them through its
 *   ring resource, 4-byte stride: sfn m_per_vertex_offsets), R0.z the
 *   primitive id (from 0 in each instance), R1.w the invocation id (0); its
 *   MEM_RING writes go into its GSVS-ring item of SQ_GSVS_RING_ITEMSIZE
 *   dwords at SQ_GSVS_RING_BASE (stream n from SQ_GSVS_RING_OFFSET_n), and
 *   each EMIT_VERTEX of stream 0 makes vertex k (the k-th emit), whose
 *   outputs the GS wrote k * SQ_GS_VERT_ITEMSIZE dwords into the item;
 * - copy shader: the VS program, once per emitted vertex, R0.x = the dword
 *   offset of that vertex in the GSVS ring (bits 30-31 the stream: 0), which
 *   it fetches through its own ring resource and exports as a VS does;
 * - the vertices of each strip (a CUT_VERTEX ends one, as does the end of the
 *   invocation) make the primitives of VGT_GS_OUT_PRIM_TYPE; emits past
 *   VGT_GS_MAX_VERT_OUT and their ring writes are dropped; streams 1-3 are
 *   not rasterised (stream-out, which would read them, faults in gs_state.c).
 *
 * Ring items are reused round-robin, as the ring's space is; an ES item
 * stays until the ring wraps, and a vertex whose item is gone runs the ES
 * again (the same result). */
#include <stdio.h>
#include <stdlib.h>

#include "gs.h"

#define GS_MAX_OUT 2048       /* VGT_GS_MAX_VERT_OUT is 11 bits */
#define ES_LOOKUP 256         /* invocation -> item, over the reuse window (VGT_REUSE_MAX) */

struct gs_run {
    struct vc_render *r;
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct vc_draw_err *err;
    struct gs_state g;
    gs_prim_fn fn;
    void *ctx;
    gs_es_fn es_fn;                /* what runs the ES: the vertex shader, or the DS */
    void *es_arg;
    /* ESGS items: the invocation each holds (+1; 0: none), and where the
     * last invocations went */
    uint64_t *es_inv;
    unsigned es_lookup[ES_LOOKUP];
    uint64_t es_next;
    /* the item being written: its dword offset in the ring; es: an ES item */
    bool es;
    uint64_t item_dw;
    /* the GS invocation's stream-0 vertices in emit order, each starting a
     * strip or not */
    unsigned emitted[4];
    bool cut_pending;
    unsigned nseq;
    struct { unsigned k; bool restart; } seq[GS_MAX_OUT];
    struct vc_vertex_out *out;
    uint64_t gs_runs;
};

static int ring_write(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg,
                      size_t msglen)
{
    struct gs_run *g = ctx;
    uint8_t *base;
    uint64_t limit;
    if (g->es) {
        if (ring != 0)
            return rs_msg_fail(msg, msglen, "the ES writes ring %u (only the ESGS ring, MEM_RING, is its)", ring);
        for (unsigned c = 0; c < 4; c++)
            if ((mask >> c) & 1u && dw + c >= g->g.es_item)
                return rs_msg_fail(msg, msglen, "ES ring write of dword %llu, past SQ_ESGS_RING_ITEMSIZE %u",
                                   (unsigned long long)(dw + c), g->g.es_item);
        base = g->g.esgs + 4 * g->item_dw;
        limit = g->g.es_item;
    } else {
        /* the stream's part of the item: a write past it belongs to a
         * vertex past VGT_GS_MAX_VERT_OUT, which is dropped */
        uint64_t lo = ring ? g->g.stream_off[ring] : 0;
        uint64_t hi = ring < 3 && g->g.stream_off[ring + 1] ? g->g.stream_off[ring + 1] : g->g.gs_item;
        base = g->g.gsvs + 4 * (g->item_dw + lo);
        limit = hi > lo ? hi - lo : 0;
    }
    for (unsigned c = 0; c < 4; c++)
        if ((mask >> c) & 1u && dw + c < limit)
            memcpy(base + 4 * (dw + c), &v[c], 4);
    return 0;
}

static int emit(void *ctx, unsigned stream, bool em, bool cut, char *msg, size_t msglen)
{
    struct gs_run *g = ctx;
    if (g->es)
        return rs_msg_fail(msg, msglen, "an emit in the ES");
    if (stream != 0) {
        g->emitted[stream & 3] += em;
        return 0;
    }
    if (em) {
        if (g->emitted[0] < g->g.max_vert_out && g->nseq < GS_MAX_OUT) {
            g->seq[g->nseq].k = g->emitted[0];
            g->seq[g->nseq++].restart = g->cut_pending;
            g->cut_pending = false;
        }
        g->emitted[0]++;
    }
    if (cut)
        g->cut_pending = true;
    return 0;
}

/* The ESGS item of vertex `index` (invocation inv), running the ES into a
 * new one unless an item still holds it; `busy` are the items of the
 * primitive's other vertices, which a new one must not take. */
static int es_item(struct gs_run *g, uint32_t index, uint64_t inv, uint32_t instance, const uint64_t *busy,
                   unsigned nbusy, uint64_t *item)
{
    unsigned s = g->es_lookup[inv % ES_LOOKUP];
    if (s < g->g.es_slots && g->es_inv[s] == inv + 1) {
        *item = s;
        return 0;
    }
    for (;;) {
        s = (unsigned)(g->es_next++ % g->g.es_slots);
        bool taken = false;
        for (unsigned k = 0; k < nbusy; k++)
            taken |= busy[k] == s;
        if (!taken)
            break;
    }
    g->es = true;
    g->item_dw = (uint64_t)s * g->g.es_item;
    g->es_inv[s] = 0;
    const struct vc_ring_sink sink = {g, ring_write, emit};
    if (g->es_fn(g->es_arg, index, instance, &sink, g->err))
        return -1;
    g->r->stats.vertices++;
    g->es_inv[s] = inv + 1;
    g->es_lookup[inv % ES_LOOKUP] = s;
    *item = s;
    return 0;
}

static int out_prim(struct gs_run *g, enum vgt_prim_kind kind, const struct vc_vertex_out *a,
                    const struct vc_vertex_out *b, const struct vc_vertex_out *c)
{
    const struct vc_vertex_out *vo[3] = {a, b, c};
    g->r->stats.gs_primitives++;
    return g->fn(g->ctx, kind, vo, kind == VGT_POINT ? 1 : kind == VGT_LINE ? 2 : 3);
}

/* The invocation's emitted vertices through the copy shader, then its
 * strips as primitives. */
static int gs_output(struct gs_run *g, uint64_t item_dw)
{
    for (unsigned i = 0; i < g->nseq; i++) {
        uint64_t off = item_dw + (uint64_t)g->seq[i].k * g->g.vert_item;
        memset(&g->out[i], 0, sizeof g->out[i]);
        if (g->r->shaders.vertex(g->r->shaders.ctx, g->regs, g->mem, (uint32_t)off, 0, &g->out[i], g->err))
            return -1;
        g->r->stats.vertices++;
    }
    unsigned n = 0; /* vertices of the current strip so far */
    for (unsigned i = 0; i < g->nseq; i++, n++) {
        if (g->seq[i].restart)
            n = 0;
        const struct vc_vertex_out *v = &g->out[i];
        int rc = 0;
        switch (g->g.out_prim) {
        case V_VGT_GS_OUTPRIM_TYPE__OUTPRIM_TYPE_POINTLIST:
            rc = out_prim(g, VGT_POINT, v, v, v);
            break;
        case V_VGT_GS_OUTPRIM_TYPE__OUTPRIM_TYPE_LINESTRIP:
            if (n >= 1)
                rc = out_prim(g, VGT_LINE, &g->out[i - 1], v, v);
            break;
        default:
            /* odd triangles swap their first two vertices to keep the
             * winding (as vgt.c's triangle strips) */
            if (n >= 2)
                rc = n % 2 == 0 ? out_prim(g, VGT_TRIANGLE, &g->out[i - 2], &g->out[i - 1], v)
                                : out_prim(g, VGT_TRIANGLE, &g->out[i - 1], &g->out[i - 2], v);
            break;
        }
        if (rc)
            return -1;
    }
    return 0;
}

int gs_primitive(struct gs_run *g, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                 uint32_t instance, uint32_t prim_id)
{
    if (kind == VGT_RECT)
        return rs_fail(g->err, "GS: a rectangle list into a geometry shader is not modelled");
    uint64_t item[6] = {0};
    for (unsigned k = 0; k < n; k++)
        if (es_item(g, idx[k], inv[k], instance, item, k, &item[k]))
            return -1;
    uint32_t off[6] = {0};
    for (unsigned k = 0; k < n; k++)
        off[k] = (uint32_t)(item[k] * g->g.es_item);
    const uint32_t r0[4] = {off[0], off[1], prim_id, off[2]}, r1[4] = {off[3], off[4], off[5], 0};
    uint64_t slot = g->gs_runs++ % g->g.gs_slots;
    g->es = false;
    g->item_dw = slot * g->g.gs_item;
    memset(g->emitted, 0, sizeof g->emitted);
    g->cut_pending = false;
    g->nseq = 0;
    const struct vc_ring_sink sink = {g, ring_write, emit};
    if (g->r->shaders.gs(g->r->shaders.ctx, g->regs, g->mem, r0, r1, &sink, g->err))
        return -1;
    g->r->stats.gs_invocations++;
    return gs_output(g, slot * g->g.gs_item);
}

struct gs_run *gs_open(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem, bool from_ds,
                       gs_es_fn es_fn, void *es_arg, gs_prim_fn fn, void *ctx, struct vc_draw_err *err)
{
    if (!r->shaders.gs)
        return rs_fail(err, "GS: a geometry-shader draw, and the shader stages have no GS"), NULL;
    struct gs_run *g = calloc(1, sizeof *g);
    if (!g)
        return rs_fail(err, "GS: out of memory"), NULL;
    if (gs_state_init(&g->g, regs, mem, from_ds, err)) {
        free(g);
        return NULL;
    }
    g->es_inv = calloc(g->g.es_slots, sizeof *g->es_inv);
    g->out = malloc((size_t)GS_MAX_OUT * sizeof *g->out);
    if (!g->es_inv || !g->out) {
        rs_fail(err, "GS: out of memory");
        gs_close(g);
        return NULL;
    }
    for (unsigned k = 0; k < ES_LOOKUP; k++)
        g->es_lookup[k] = UINT32_MAX;
    g->r = r;
    g->regs = regs;
    g->mem = mem;
    g->err = err;
    g->fn = fn;
    g->ctx = ctx;
    g->es_fn = es_fn;
    g->es_arg = es_arg;
    return g;
}

void gs_close(struct gs_run *g)
{
    if (g) {
        free(g->es_inv);
        free(g->out);
    }
    free(g);
}

/* ---- a draw whose ES is the vertex shader ----------------------------------------- */

struct vs_gs {
    struct gs_run *g;
    struct vc_render *r;
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    uint32_t instance;
    bool in_instance;
    uint32_t prim_id;          /* from 0 in each instance */
};

static int vs_as_es(void *arg, uint32_t index, uint32_t instance, const struct vc_ring_sink *sink,
                    struct vc_draw_err *err)
{
    struct vs_gs *v = arg;
    return v->r->shaders.es(v->r->shaders.ctx, v->regs, v->mem, index, instance, sink, err);
}

static int on_input(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                    uint32_t instance)
{
    struct vs_gs *v = ctx;
    if (!v->in_instance || instance != v->instance) {
        v->in_instance = true;
        v->instance = instance;
        v->prim_id = 0;
    }
    return gs_primitive(v->g, kind, idx, inv, n, instance, v->prim_id++);
}

int gs_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
            gs_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err)
{
    memset(counts, 0, sizeof *counts);
    if (!r->shaders.es)
        return rs_fail(err, "GS: a geometry-shader draw, and the shader stages have no ES");
    unsigned pt = G_VGT_PRIMITIVE_TYPE__PRIM_TYPE(draw->prim_type);
    /* the hardware's vertex order for a triangle strip with adjacency is
     * not the GL one (Mesa's GS rotates odd primitives' inputs:
     * sfn_shader_gs.cpp emit_adj_fix) and is not modelled */
    if (pt == V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ)
        return rs_fail(err, "GS: triangle strips with adjacency into a geometry shader are not modelled");
    struct vs_gs v = {.r = r, .regs = regs, .mem = mem};
    v.g = gs_open(r, regs, mem, false, vs_as_es, &v, fn, ctx, err);
    if (!v.g)
        return -1;
    int rc = vgt_run(regs, mem, draw, on_input, &v, counts, err);
    gs_close(v.g);
    return rc;
}
