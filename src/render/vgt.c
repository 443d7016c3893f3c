/* The vertex grouper: the index stream of a draw (auto-generated, from an
 * index buffer in 16- or 32-bit indices, or inline) with the index offset,
 * min / max clamp and primitive restart, per instance; each index through
 * the vertex-reuse model (vgt_reuse.c); then primitive assembly for every
 * primitive type the renderer draws, counting what the pipeline-statistics
 * counters count.
 * Facts: Mesa evergreen draw_vbo (VGT_INDX_OFFSET = index bias, or start
 * for non-indexed draws), evergreend.h DI_PT_* values. */
#include <string.h>

#include "render_priv.h"

/* Assembly state across the indices of one instance. */
/* A vertex of the stream: its index and the shader invocation it uses. */
struct vtx {
    uint32_t i;
    uint64_t inv;
};

struct assembler {
    unsigned prim_type;
    struct vtx v[VGT_MAX_PATCH_CP]; /* the vertices kept for strips / fans / lists / patches */
    unsigned patch_cp;    /* DI_PT_PATCH: control points a patch */
    bool gs;              /* a GS takes the adjacent vertices too */
    unsigned n;           /* indices seen since the start or the last restart */
    struct vtx first;     /* first vertex (fans, line loops, polygons) */
    uint32_t instance;
    vgt_prim_fn fn;
    void *ctx;
    uint64_t primitives;
};

/* A primitive held until its chunk's vertices ran as a batch
 * (vgt_run_batched), with the counts as they were when it was assembled. */
struct held {
    enum vgt_prim_kind kind;
    unsigned n;
    uint32_t idx[3];
    uint64_t inv[3];
    uint64_t ia_vertices, vs_invocations, primitives;
};

#define HELD_MAX (2 * VGT_VS_BATCH + 2)   /* an index assembles at most 2 primitives (quads) */
#define BATCH_TRAIL 6u   /* indices back the assembler keeps a vertex (a triangle strip with adjacency) */
#define BATCH_SLACK (BATCH_TRAIL + 2u)   /* invocations kept beyond the reuse FIFO's, with a margin */

struct holder {
    struct held p[HELD_MAX];
    unsigned n;
    const struct assembler *a;
    uint64_t ia_vertices, vs_invocations;   /* the counts so far */
};

static int hold(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                uint32_t instance)
{
    struct holder *h = ctx;
    (void)instance;
    struct held *p = &h->p[h->n++];
    p->kind = kind;
    p->n = n;
    for (unsigned k = 0; k < n; k++) {
        p->idx[k] = idx[k];
        p->inv[k] = inv[k];
    }
    p->ia_vertices = h->ia_vertices;
    p->vs_invocations = h->vs_invocations;
    p->primitives = h->a->primitives;
    return 0;
}

static int emit(struct assembler *a, enum vgt_prim_kind k, struct vtx i0, struct vtx i1, struct vtx i2)
{
    uint32_t idx[3] = {i0.i, i1.i, i2.i};
    uint64_t inv[3] = {i0.inv, i1.inv, i2.inv};
    a->primitives++;
    return a->fn(a->ctx, k, idx, inv, k == VGT_POINT ? 1 : k == VGT_LINE ? 2 : 3, a->instance);
}

/* A primitive with its adjacent vertices, for the GS, or a patch:
 * v[at[0..n-1]]. */
static int emit_adj(struct assembler *a, enum vgt_prim_kind k, const unsigned *at, unsigned n)
{
    uint32_t idx[VGT_MAX_PATCH_CP];
    uint64_t inv[VGT_MAX_PATCH_CP];
    for (unsigned j = 0; j < n; j++) {
        idx[j] = a->v[at[j]].i;
        inv[j] = a->v[at[j]].inv;
    }
    a->primitives++;
    return a->fn(a->ctx, k, idx, inv, n, a->instance);
}

/* Lines and triangles with adjacency into a GS, vertices in the order GL
 * gives them to it (GL 4.6 10.1.11-10.1.13; a line strip's segment k is
 * vertices k .. k+3).  Triangle strips with adjacency are refused by gs.c. */
static int assemble_adj(struct assembler *a, unsigned n, struct vtx i)
{
    switch (a->prim_type) {
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ: {
        static const unsigned at[4] = {0, 1, 2, 3};
        a->v[n % 4] = i;
        return n % 4 == 3 ? emit_adj(a, VGT_LINE_ADJ, at, 4) : 0;
    }
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ: {
        a->v[n % 4] = i;
        const unsigned at[4] = {(n + 1) % 4, (n + 2) % 4, (n + 3) % 4, n % 4};
        return n >= 3 ? emit_adj(a, VGT_LINE_ADJ, at, 4) : 0;
    }
    default: { /* DI_PT_TRILIST_ADJ */
        static const unsigned at[6] = {0, 1, 2, 3, 4, 5};
        a->v[n % 6] = i;
        return n % 6 == 5 ? emit_adj(a, VGT_TRIANGLE_ADJ, at, 6) : 0;
    }
    }
}

static int assemble(struct assembler *a, struct vtx i)
{
    unsigned n = a->n++;
    if (n == 0)
        a->first = i;
    if (a->gs && (a->prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ ||
                  a->prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ ||
                  a->prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ))
        return assemble_adj(a, n, i);
    switch (a->prim_type) {
    case V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST:
        return emit(a, VGT_POINT, i, i, i);
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST:
        if (n % 2 == 0) {
            a->v[0] = i;
            return 0;
        }
        return emit(a, VGT_LINE, a->v[0], i, i);
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELOOP: {
        int rc = n > 0 ? emit(a, VGT_LINE, a->v[0], i, i) : 0;
        a->v[0] = i;
        return rc;
    }
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST:
        a->v[n % 3] = i;
        if (n % 3 != 2)
            return 0;
        return emit(a, a->prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST ? VGT_RECT : VGT_TRIANGLE, a->v[0], a->v[1],
                    a->v[2]);
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP: {
        int rc = 0;
        if (n >= 2)
            /* Odd triangles swap their first two vertices to keep the winding. */
            rc = (n % 2 == 0) ? emit(a, VGT_TRIANGLE, a->v[0], a->v[1], i) : emit(a, VGT_TRIANGLE, a->v[1], a->v[0], i);
        a->v[0] = a->v[1];
        a->v[1] = i;
        return rc;
    }
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRIFAN:
    case V_VGT_DI_PRIM_TYPE__DI_PT_POLYGON: {
        int rc = n >= 2 ? emit(a, VGT_TRIANGLE, a->first, a->v[1], i) : 0;
        a->v[1] = i;
        return rc;
    }
    /* Adjacency types with no geometry shader: the adjacent vertices are
     * shaded and counted as indices but draw nothing (GL 4.6 10.1.11-10.1.14,
     * table 10.1 for strips). */
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ:
        a->v[n % 4] = i;
        return n % 4 == 3 ? emit(a, VGT_LINE, a->v[1], a->v[2], a->v[2]) : 0;
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ:
        /* segment k joins vertices k+1 and k+2, once vertex k+3 is there */
        a->v[n % 4] = i;
        return n >= 3 ? emit(a, VGT_LINE, a->v[(n - 2) % 4], a->v[(n - 1) % 4], a->v[(n - 1) % 4]) : 0;
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ:
        if (n % 2 == 0)
            a->v[(n % 6) / 2] = i;
        return n % 6 == 5 ? emit(a, VGT_TRIANGLE, a->v[0], a->v[1], a->v[2]) : 0;
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ:
        /* triangle k: even vertices 2k, 2k+2, 2k+4 (the first two swapped for
         * odd k), complete with its last adjacent vertex 2k+5 */
        if (n % 2 == 0) {
            a->v[0] = a->v[1];
            a->v[1] = a->v[2];
            a->v[2] = i;
            return 0;
        }
        if (n < 5)
            return 0;
        return ((n - 5) / 2) % 2 == 0 ? emit(a, VGT_TRIANGLE, a->v[0], a->v[1], a->v[2])
                                       : emit(a, VGT_TRIANGLE, a->v[1], a->v[0], a->v[2]);
    case V_VGT_DI_PRIM_TYPE__DI_PT_PATCH: {
        static const unsigned at[VGT_MAX_PATCH_CP] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
        a->v[n % a->patch_cp] = i;
        return n % a->patch_cp == a->patch_cp - 1 ? emit_adj(a, VGT_PATCH, at, a->patch_cp) : 0;
    }
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADLIST:
        a->v[n % 4] = i;
        if (n % 4 != 3)
            return 0;
        if (emit(a, VGT_TRIANGLE, a->v[0], a->v[1], a->v[2]))
            return -1;
        return emit(a, VGT_TRIANGLE, a->v[0], a->v[2], a->v[3]);
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADSTRIP:
        a->v[n % 4] = i;
        if (n >= 3 && n % 2 == 1) {
            struct vtx q0 = a->v[(n - 3) % 4], q1 = a->v[(n - 2) % 4], q2 = a->v[(n - 1) % 4], q3 = i;
            if (emit(a, VGT_TRIANGLE, q0, q1, q3))
                return -1;
            return emit(a, VGT_TRIANGLE, q0, q3, q2);
        }
        return 0;
    default:
        return 0;
    }
}

static int finish(struct assembler *a)
{
    int rc = 0;
    if (a->prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_LINELOOP && a->n >= 2)
        rc = emit(a, VGT_LINE, a->v[0], a->first, a->first);
    a->n = 0;
    return rc;
}

static bool prim_type_supported(unsigned t)
{
    switch (t) {
    case V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELOOP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRIFAN:
    case V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADSTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_POLYGON:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_PATCH:
        return true;
    default:
        return false;
    }
}

/* The held primitives' vertices to `pre` (each primitive's, in order), then
 * the primitives to fn, as they would have gone one by one; on a failure
 * the counts and a's primitives are what they were when that primitive was
 * assembled. */
static int release(struct holder *h, struct assembler *a, vgt_vertices_fn pre, vgt_prim_fn fn, void *ctx,
                   struct vgt_counts *counts)
{
    uint32_t idx[3 * HELD_MAX];
    uint64_t inv[3 * HELD_MAX];
    unsigned m = 0;
    for (unsigned j = 0; j < h->n; j++)
        for (unsigned k = 0; k < h->p[j].n; k++) {
            idx[m] = h->p[j].idx[k];
            inv[m++] = h->p[j].inv[k];
        }
    if (m)
        pre(ctx, idx, inv, m, a->instance);
    for (unsigned j = 0; j < h->n; j++) {
        const struct held *p = &h->p[j];
        if (fn(ctx, p->kind, p->idx, p->inv, p->n, a->instance)) {
            counts->ia_vertices = p->ia_vertices;
            counts->vs_invocations = p->vs_invocations;
            a->primitives = p->primitives;
            return -1;
        }
    }
    h->n = 0;
    return 0;
}

/* Primitive types whose primitives use only the reuse FIFO's vertices and
 * the last few (no fan's or loop's first vertex), three at most. */
static bool batch_type(unsigned t, bool gs)
{
    switch (t) {
    case V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP:
    case V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADLIST:
    case V_VGT_DI_PRIM_TYPE__DI_PT_QUADSTRIP:
        return true;
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_LINESTRIP_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST_ADJ:
    case V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP_ADJ:
        return !gs;
    default:
        return false;
    }
}

int vgt_run(const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw, vgt_prim_fn fn,
            void *ctx, struct vgt_counts *counts, struct vc_draw_err *err)
{
    return vgt_run_batched(regs, mem, draw, fn, NULL, 0, ctx, counts, err);
}

int vgt_run_batched(const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw, vgt_prim_fn fn,
                    vgt_vertices_fn pre, unsigned keep, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err)
{
    memset(counts, 0, sizeof *counts);
    unsigned prim_type = G_VGT_PRIMITIVE_TYPE__PRIM_TYPE(draw->prim_type);
    if (!prim_type_supported(prim_type))
        return rs_fail(err, "VGT: primitive type %u is not supported", prim_type);
    /* patches: VGT_LS_HS_CONFIG.HS_NUM_INPUT_CP control points each, with the HS on */
    unsigned patch_cp = G_VGT_LS_HS_CONFIG__HS_NUM_INPUT_CP(vc_reg(regs, REG_VGT_LS_HS_CONFIG));
    if (prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_PATCH &&
        (!G_VGT_SHADER_STAGES_EN__HS_EN(vc_reg(regs, REG_VGT_SHADER_STAGES_EN)) || patch_cp == 0 ||
         patch_cp > VGT_MAX_PATCH_CP))
        return rs_fail(err, "VGT: patches (DI_PT_PATCH) of %u control points with VGT_SHADER_STAGES_EN.HS_EN %u",
                       patch_cp, G_VGT_SHADER_STAGES_EN__HS_EN(vc_reg(regs, REG_VGT_SHADER_STAGES_EN)));
    uint32_t n = draw->num_indices;
    const uint8_t *ib = NULL;
    const uint32_t *immd = NULL;
    bool idx32 = draw->index_type == V_VGT_INDEX_TYPE_MODE__VGT_INDEX_32;
    if (draw->opcode == PKT3_DRAW_INDEX_AUTO) {
        /* indices are generated */
    } else if (draw->opcode == PKT3_DRAW_INDEX_IMMD) {
        uint64_t need = idx32 ? (uint64_t)n : ((uint64_t)n + 1) / 2;
        if (!draw->immd || need > draw->immd_dwords)
            return rs_fail(err, "VGT: DRAW_INDEX_IMMD has %u dwords for %u %s-bit indices", draw->immd_dwords, n,
                           idx32 ? "32" : "16");
        immd = draw->immd;
    } else if (draw->opcode == PKT3_DRAW_INDEX || draw->opcode == PKT3_DRAW_INDEX_2) {
        if (draw->index_type > V_VGT_INDEX_TYPE_MODE__VGT_INDEX_32)
            return rs_fail(err, "VGT: index type %u is not 16- or 32-bit", draw->index_type);
        uint64_t bytes = (uint64_t)n * (idx32 ? 4 : 2);
        if (n > 0) {
            ib = vc_mem_ptr(mem, draw->index_addr, bytes);
            if (!ib)
                return rs_fail(err, "VGT: %u indices at 0x%llx are not inside one buffer", n,
                               (unsigned long long)draw->index_addr);
        }
    } else {
        return rs_fail(err, "VGT: draw packet opcode 0x%02X is not a draw the renderer knows", draw->opcode);
    }

    uint32_t offset = vc_reg(regs, REG_VGT_INDX_OFFSET);
    uint32_t min_i = vc_reg(regs, REG_VGT_MIN_VTX_INDX), max_i = vc_reg(regs, REG_VGT_MAX_VTX_INDX);
    bool restart = G_VGT_MULTI_PRIM_IB_RESET_EN__RESET_EN(vc_reg(regs, REG_VGT_MULTI_PRIM_IB_RESET_EN)) &&
                   draw->opcode != PKT3_DRAW_INDEX_AUTO;
    uint32_t restart_idx = vc_reg(regs, REG_VGT_MULTI_PRIM_IB_RESET_INDX);
    uint32_t instances = draw->num_instances ? draw->num_instances : 1;
    /* no index: no instance assembles, counts or draws anything (without
     * this, up to 2^32 empty instances were walked one by one) */
    if (n == 0)
        return 0;

    struct assembler a;
    struct vgt_reuse reuse;
    vgt_reuse_init(&reuse, regs);
    bool gs = G_VGT_GS_MODE__MODE(vc_reg(regs, REG_VGT_GS_MODE)) == V_VGT_GS_MODE__GS_SCENARIO_G;
    /* Batches: a chunk of indices is assembled and its primitives held
     * while at most `fresh` new invocations come, so that the `keep` most
     * recent invocations the caller keeps still hold every vertex the
     * chunk's primitives use (the reuse FIFO's, the assembler's last ones
     * and the chunk's new ones). */
    unsigned fresh = 0;
    /* a chunk's new invocations and those its first primitives take from
     * the chunk before (kept by the assembler, BATCH_TRAIL at most) make one
     * batch of VGT_VS_BATCH */
    unsigned most = prim_type == V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST ? VGT_VS_BATCH : VGT_VS_BATCH - BATCH_TRAIL;
    if (pre && batch_type(prim_type, gs) && keep > reuse.depth + BATCH_SLACK)
        fresh = keep - reuse.depth - BATCH_SLACK < most ? keep - reuse.depth - BATCH_SLACK : most;
    struct holder h;
    h.a = &a;
    for (uint32_t inst = 0; inst < instances; inst++) {
        memset(&a, 0, sizeof a);
        a.prim_type = prim_type;
        a.patch_cp = patch_cp;
        a.gs = gs;
        a.instance = inst;
        a.fn = fresh ? hold : fn;
        a.ctx = fresh ? (void *)&h : ctx;
        h.n = 0;
        vgt_reuse_reset(&reuse);
        uint64_t chunk = reuse.invocations;   /* the chunk's first invocation */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t raw;
            if (ib) {
                if (idx32)
                    memcpy(&raw, ib + 4 * (uint64_t)k, 4);
                else {
                    uint16_t h;
                    memcpy(&h, ib + 2 * (uint64_t)k, 2);
                    raw = h;
                }
            } else if (immd) {
                raw = idx32 ? immd[k] : (immd[k / 2] >> (16 * (k % 2))) & 0xFFFFu;
            } else {
                raw = k;
            }
            if (restart && raw == (idx32 ? restart_idx : (restart_idx & 0xFFFFu))) {
                if (finish(&a))
                    return -1;
                continue;
            }
            uint32_t i = raw + offset;
            if (i < min_i)
                i = min_i;
            if (i > max_i)
                i = max_i;
            counts->ia_vertices++;
            struct vtx v = {i, vgt_reuse_vertex(&reuse, i)};
            counts->vs_invocations = reuse.invocations;   /* so far, should the draw stop */
            h.ia_vertices = counts->ia_vertices;
            h.vs_invocations = counts->vs_invocations;
            if (assemble(&a, v))
                goto fail;
            if (fresh && (reuse.invocations - chunk >= fresh || h.n + 2 > HELD_MAX)) {
                if (release(&h, &a, pre, fn, ctx, counts))
                    goto fail;
                chunk = reuse.invocations;
            }
        }
        if (finish(&a))   /* emits only for a line loop, which is not batched */
            goto fail;
        if (fresh && release(&h, &a, pre, fn, ctx, counts))
            goto fail;
        counts->ia_primitives += a.primitives;
    }
    return 0;
fail:
    counts->ia_primitives += a.primitives;
    return -1;
}
