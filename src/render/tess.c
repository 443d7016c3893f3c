/* The tessellation path of a draw (tess.h), as Mesa's r600 drives the
 * hardware (evergreen_state.c, sfn_nir_lower_tess_io.cpp, sfn_shader_tess.cpp,
 * sfn_shader_vs.cpp):
 *
 * - a patch is HS_NUM_INPUT_CP indices of the index stream (DI_PT_PATCH);
 *   each patch is one HS thread group with the LDS to itself (Mesa puts one
 *   patch in a group: NUM_PATCHES 1), so the patch's relative id is 0;
 * - LS: the vertex shader at SQ_PGM_START_LS with its fetch shader, once
 *   per control point, R0.x the vertex index, R0.y its place in the group
 *   (control point k of the patch: k), R0.w the instance; it writes its
 *   outputs to the LDS at R0.y times the input vertex size it reads from its
 *   LDS-info constants;
 * - HS: SQ_PGM_START_HS once per output control point, R0.x the primitive
 *   (patch) id, R0.y the relative patch id, R0.z the invocation (the output
 *   control point), R0.w the base of the patch's factors (0 here); it writes
 *   its outputs to the LDS and, in invocation 0, the factors with TF_WRITE
 *   at R0.w + relative patch id * factor stride (the stride: the domain's
 *   factors, 4 bytes each, in the order tessellator.h lists).  The
 *   invocations run together, one thread group in lockstep, as the
 *   hardware's wave does (so a GROUP_BARRIER holds);
 * - the tessellator (tessellator.c) makes the domain points and primitives
 *   from the factors;
 * - DS: the VS program (SQ_PGM_START_VS), once per domain point, R0.x / R0.y
 *   gl_TessCoord.xy, R0.z the relative patch id, R0.w the primitive id; it
 *   reads the HS's outputs from the LDS and exports as a vertex shader;
 * - its points, lines and triangles go on as a VS's primitives would;
 * - or, with a geometry shader (ES_EN ES_STAGE_DS), the DS is the ES
 *   (SQ_PGM_START_ES, the same R0) writing its outputs into the ESGS ring,
 *   and each of the tessellator's primitives goes through the GS (gs.c)
 *   with the patch's primitive id as the GS's (R0.z; piglit's
 *   gs-primitiveid-instanced: both triangles of a patch see its id).
 *
 * The LDS starts as zeros for each patch, the factors as zeros (a patch
 * whose HS writes none is culled). */
#include <stdio.h>
#include <stdlib.h>

#include "tess.h"

struct tess_run {
    struct vc_render *r;
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct vc_draw_err *err;
    struct tess_state t;
    gs_prim_fn fn;
    void *ctx;
    uint8_t *lds;
    float tf[TESS_MAX_FACTORS];
    struct tess_mesh mesh;
    struct vc_vertex_out *out;     /* the DS's results, by domain point */
    unsigned out_cap;
    uint32_t instance;
    bool in_instance;
    uint32_t prim_id;
    struct gs_run *gs;             /* the GS the DS feeds, or NULL */
    const struct vc_tess_sink *sink; /* the current patch's, for ds_as_es */
    uint64_t patches;              /* patches so far: names the DS runs for the GS */
};

static int tf_write(void *ctx, uint32_t addr, uint32_t value, char *msg, size_t msglen)
{
    struct tess_run *t = ctx;
    if (addr % 4 || addr / 4 >= t->t.nfactors)
        return rs_msg_fail(msg, msglen, "TF_WRITE to byte %u, past the patch's %u factors", addr, t->t.nfactors);
    memcpy(&t->tf[addr / 4], &value, 4);
    return 0;
}

static bool grow_out(struct tess_run *t, unsigned n)
{
    if (n <= t->out_cap)
        return true;
    struct vc_vertex_out *o = realloc(t->out, (size_t)n * sizeof *o);
    if (!o)
        return false;
    t->out = o;
    t->out_cap = n;
    return true;
}

/* The DS as the ES, for domain point `index` of the current patch. */
static int ds_as_es(void *arg, uint32_t index, uint32_t instance, const struct vc_ring_sink *ring,
                    struct vc_draw_err *err)
{
    struct tess_run *t = arg;
    (void)instance;
    uint32_t r0[4] = {0, 0, 0, t->prim_id};
    memcpy(&r0[0], &t->mesh.uv[index][0], 4);
    memcpy(&r0[1], &t->mesh.uv[index][1], 4);
    if (t->r->shaders.ds_es(t->r->shaders.ctx, t->regs, t->mem, r0, t->sink, ring, err))
        return -1;
    t->r->stats.ds_invocations++;
    return 0;
}

/* The tessellated primitives of the current patch through the GS. */
static int patch_through_gs(struct tess_run *t, uint32_t instance)
{
    unsigned per = t->mesh.per_prim;
    enum vgt_prim_kind pk = per == 3 ? VGT_TRIANGLE : per == 2 ? VGT_LINE : VGT_POINT;
    /* a point is named by its patch and place in it */
    uint64_t base = t->patches * ((uint64_t)UINT32_MAX + 1);
    for (unsigned p = 0; p < t->mesh.nprims; p++) {
        uint32_t idx[3];
        uint64_t inv[3];
        for (unsigned k = 0; k < per; k++) {
            idx[k] = t->mesh.prim[p][k];
            inv[k] = base + idx[k];
        }
        if (gs_primitive(t->gs, pk, idx, inv, per, instance, t->prim_id))
            return -1;
    }
    return 0;
}

static int on_patch(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                    uint32_t instance)
{
    struct tess_run *t = ctx;
    (void)inv;
    if (kind != VGT_PATCH || n != t->t.ncp_in)
        return rs_fail(t->err, "tessellation: a primitive of %u vertices is not a patch of %u", n, t->t.ncp_in);
    if (!t->in_instance || instance != t->instance) {
        t->in_instance = true;
        t->instance = instance;
        t->prim_id = 0;
    }
    struct vc_render *r = t->r;
    const struct vc_tess_sink sink = {t, t->lds, t->t.lds_bytes, tf_write};
    memset(t->lds, 0, t->t.lds_bytes);
    memset(t->tf, 0, sizeof t->tf);
    for (unsigned k = 0; k < n; k++) {
        if (r->shaders.ls(r->shaders.ctx, t->regs, t->mem, idx[k], instance, k, &sink, t->err))
            return -1;
        r->stats.vertices++;
    }
    uint32_t r0[TESS_MAX_CP][4];
    for (unsigned i = 0; i < t->t.ncp_out; i++) {
        r0[i][0] = t->prim_id, r0[i][1] = 0, r0[i][2] = i, r0[i][3] = 0;
    }
    if (r->shaders.hs(r->shaders.ctx, t->regs, t->mem, (const uint32_t (*)[4])r0, t->t.ncp_out, &sink, t->err))
        return -1;
    r->stats.hs_invocations++;
    char why[120];
    if (tess_generate(&t->mesh, t->t.domain, t->t.spacing, t->t.output, t->tf, t->t.max_level, why, sizeof why))
        return rs_fail(t->err, "tessellator: %s", why);
    if (t->gs) {
        t->sink = &sink;
        int rc = patch_through_gs(t, instance);
        t->sink = NULL;
        t->patches++;
        t->prim_id++;
        return rc;
    }
    if (!grow_out(t, t->mesh.npoints))
        return rs_fail(t->err, "tessellation: out of memory");
    for (unsigned k = 0; k < t->mesh.npoints; k++) {
        uint32_t r0[4] = {0, 0, 0, t->prim_id};
        memcpy(&r0[0], &t->mesh.uv[k][0], 4);
        memcpy(&r0[1], &t->mesh.uv[k][1], 4);
        memset(&t->out[k], 0, sizeof t->out[k]);
        if (r->shaders.ds(r->shaders.ctx, t->regs, t->mem, r0, &sink, &t->out[k], t->err))
            return -1;
        r->stats.vertices++;
        r->stats.ds_invocations++;
    }
    unsigned per = t->mesh.per_prim;
    enum vgt_prim_kind pk = per == 3 ? VGT_TRIANGLE : per == 2 ? VGT_LINE : VGT_POINT;
    for (unsigned p = 0; p < t->mesh.nprims; p++) {
        const struct vc_vertex_out *vo[3] = {&t->out[t->mesh.prim[p][0]], &t->out[t->mesh.prim[p][1]],
                                             &t->out[t->mesh.prim[p][2]]};
        if (t->fn(t->ctx, pk, vo, per))
            return -1;
    }
    t->prim_id++;
    return 0;
}

int tess_draw(struct vc_render *r, const struct tess_state *state, const struct vc_regs *regs, const struct vc_mem *mem,
              const struct vc_draw *draw, gs_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err)
{
    memset(counts, 0, sizeof *counts);
    if (!r->shaders.ls || !r->shaders.hs || !r->shaders.ds)
        return rs_fail(err, "tessellation: a tessellated draw, and the shader stages have no LS / HS / DS");
    unsigned pt = G_VGT_PRIMITIVE_TYPE__PRIM_TYPE(draw->prim_type);
    if (pt != V_VGT_DI_PRIM_TYPE__DI_PT_PATCH)
        return rs_fail(err, "tessellation: primitive type %u with the HS enabled (only DI_PT_PATCH)", pt);
    struct tess_run *t = calloc(1, sizeof *t);
    int rc = -1;
    if (!t)
        return rs_fail(err, "tessellation: out of memory");
    t->t = *state;
    t->lds = calloc(1, t->t.lds_bytes);
    if (!t->lds) {
        rs_fail(err, "tessellation: out of memory");
        goto out;
    }
    t->r = r;
    t->regs = regs;
    t->mem = mem;
    t->err = err;
    t->fn = fn;
    t->ctx = ctx;
    if (t->t.gs) {
        if (!r->shaders.ds_es) {
            rs_fail(err, "tessellation: a DS into a geometry shader, and the shader stages have no DS-as-ES");
            goto out;
        }
        t->gs = gs_open(r, regs, mem, true, ds_as_es, t, fn, ctx, err);
        if (!t->gs)
            goto out;
    }
    rc = vgt_run(regs, mem, draw, on_patch, t, counts, err);
out:
    gs_close(t->gs);
    tess_mesh_free(&t->mesh);
    free(t->out);
    free(t->lds);
    free(t);
    return rc;
}
