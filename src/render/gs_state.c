/* The geometry path's registers, decoded and checked (gs.h).
 * Facts: Mesa evergreen_state.c (evergreen_emit_shader_stages: VGT_GS_MODE
 * GS_SCENARIO_G with VGT_SHADER_STAGES_EN GS_EN, ES_EN REAL, VS_EN
 * COPY_SHADER; evergreen_update_gs_state: SQ_ESGS_RING_ITEMSIZE, SQ_GS_VERT_ITEMSIZE
 * and SQ_GSVS_RING_ITEMSIZE in dwords, the latter the copy shader's vertex
 * size times VGT_GS_MAX_VERT_OUT summed over the streams, SQ_GSVS_RING_OFFSET_n
 * the dwords before stream n; evergreen_emit_gs_rings: SQ_*_RING_BASE and
 * _SIZE in 256-byte units). */
#include "gs.h"

#define GS_STATE_MAX_SLOTS 65536u

bool gs_enabled(const struct vc_regs *regs)
{
    return G_VGT_GS_MODE__MODE(vc_reg(regs, REG_VGT_GS_MODE)) == V_VGT_GS_MODE__GS_SCENARIO_G;
}

/* A ring's memory: base and size registers in 256-byte units. */
static int map_ring(const struct vc_regs *regs, const struct vc_mem *mem, const char *name, uint32_t base_reg,
                    uint32_t size_reg, uint8_t **out, uint64_t *bytes, struct vc_draw_err *err)
{
    uint64_t base = (uint64_t)vc_reg(regs, base_reg) << 8, size = (uint64_t)vc_reg(regs, size_reg) << 8;
    if (size == 0)
        return rs_fail(err, "GS: the %s ring has no size (SQ_%s_RING_SIZE 0)", name, name);
    *out = vc_mem_ptr(mem, base, size);
    if (!*out)
        return rs_fail(err, "GS: the %s ring (0x%llx, %llu bytes) is not inside one GPU buffer", name,
                       (unsigned long long)base, (unsigned long long)size);
    *bytes = size;
    return 0;
}

int gs_state_init(struct gs_state *g, const struct vc_regs *regs, const struct vc_mem *mem, bool from_ds,
                  struct vc_draw_err *err)
{
    memset(g, 0, sizeof *g);
    uint32_t st = vc_reg(regs, REG_VGT_SHADER_STAGES_EN);
    unsigned es = from_ds ? V_VGT_SHADER_STAGES_EN_ES_EN__ES_STAGE_DS : V_VGT_SHADER_STAGES_EN_ES_EN__ES_STAGE_REAL;
    if (!G_VGT_SHADER_STAGES_EN__GS_EN(st) || G_VGT_SHADER_STAGES_EN__ES_EN(st) != es ||
        G_VGT_SHADER_STAGES_EN__VS_EN(st) != V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_COPY_SHADER ||
        (!from_ds && (G_VGT_SHADER_STAGES_EN__LS_EN(st) || G_VGT_SHADER_STAGES_EN__HS_EN(st))))
        return rs_fail(err, "GS: VGT_GS_MODE GS_SCENARIO_G with VGT_SHADER_STAGES_EN 0x%x (not GS_EN, ES_EN %s, "
                            "VS_EN COPY_SHADER%s) is not modelled", st, from_ds ? "DS" : "REAL",
                       from_ds ? "" : ", no LS / HS");
    uint32_t so = vc_reg(regs, REG_VGT_STRMOUT_CONFIG);
    if (so & 0xFu)
        return rs_fail(err, "GS: stream-out (VGT_STRMOUT_CONFIG 0x%x) is not modelled", so);
    uint32_t inst = vc_reg(regs, REG_VGT_GS_INSTANCE_CNT);
    if (G_VGT_GS_INSTANCE_CNT__ENABLE(inst) && G_VGT_GS_INSTANCE_CNT__CNT(inst) > 1)
        return rs_fail(err, "GS: GS instancing (VGT_GS_INSTANCE_CNT.CNT %u) is not modelled",
                       G_VGT_GS_INSTANCE_CNT__CNT(inst));
    if (map_ring(regs, mem, "ESGS", REG_SQ_ESGS_RING_BASE, REG_SQ_ESGS_RING_SIZE, &g->esgs, &g->esgs_bytes, err) ||
        map_ring(regs, mem, "GSVS", REG_SQ_GSVS_RING_BASE, REG_SQ_GSVS_RING_SIZE, &g->gsvs, &g->gsvs_bytes, err))
        return -1;
    g->es_item = G_SQ_ESGS_RING_ITEMSIZE__ITEMSIZE(vc_reg(regs, REG_SQ_ESGS_RING_ITEMSIZE));
    g->gs_item = G_SQ_GSVS_RING_ITEMSIZE__ITEMSIZE(vc_reg(regs, REG_SQ_GSVS_RING_ITEMSIZE));
    g->vert_item = G_SQ_GS_VERT_ITEMSIZE__ITEMSIZE(vc_reg(regs, REG_SQ_GS_VERT_ITEMSIZE));
    g->stream_off[1] = vc_reg(regs, REG_SQ_GSVS_RING_OFFSET_1);
    g->stream_off[2] = vc_reg(regs, REG_SQ_GSVS_RING_OFFSET_2);
    g->stream_off[3] = vc_reg(regs, REG_SQ_GSVS_RING_OFFSET_3);
    g->max_vert_out = G_VGT_GS_MAX_VERT_OUT__MAX_VERT_OUT(vc_reg(regs, REG_VGT_GS_MAX_VERT_OUT));
    g->out_prim = G_VGT_GS_OUT_PRIM_TYPE__OUTPRIM_TYPE(vc_reg(regs, REG_VGT_GS_OUT_PRIM_TYPE));
    if (g->out_prim > V_VGT_GS_OUTPRIM_TYPE__OUTPRIM_TYPE_TRISTRIP)
        return rs_fail(err, "GS: VGT_GS_OUT_PRIM_TYPE %u is not a point list, line strip or triangle strip",
                       g->out_prim);
    /* an ES item of 0 dwords is a GS that reads no inputs (Mesa:
     * trivial-tess-gs_no-gs-inputs); the ES still runs, writing nothing */
    if (g->gs_item == 0)
        return rs_fail(err, "GS: a GSVS ring item of 0 dwords (SQ_GSVS_RING_ITEMSIZE 0)");
    if ((uint64_t)g->vert_item * g->max_vert_out > g->gs_item)
        return rs_fail(err, "GS: %u vertices of %u dwords (VGT_GS_MAX_VERT_OUT, SQ_GS_VERT_ITEMSIZE) do not fit "
                            "SQ_GSVS_RING_ITEMSIZE %u", g->max_vert_out, g->vert_item, g->gs_item);
    for (unsigned s = 1; s < 4; s++)
        if (g->stream_off[s] > g->gs_item)
            return rs_fail(err, "GS: SQ_GSVS_RING_OFFSET_%u %u is past SQ_GSVS_RING_ITEMSIZE %u", s,
                           g->stream_off[s], g->gs_item);
    uint64_t es_slots = g->es_item ? g->esgs_bytes / (4ull * g->es_item) : GS_STATE_MAX_SLOTS;
    g->es_slots = (unsigned)(es_slots > UINT32_MAX ? UINT32_MAX : es_slots);
    g->gs_slots = (unsigned)(g->gsvs_bytes / (4ull * g->gs_item) > UINT32_MAX ? UINT32_MAX
                                                                            : g->gsvs_bytes / (4ull * g->gs_item));
    /* the model uses at most GS_STATE_MAX_SLOTS items of a larger ring */
    if (g->es_slots > GS_STATE_MAX_SLOTS)
        g->es_slots = GS_STATE_MAX_SLOTS;
    /* a primitive's vertices (up to six, with adjacency) must be in the
     * ESGS ring together, and the copy shader's R0.x holds 30 bits */
    if (g->es_slots < 6 || g->gs_slots < 1)
        return rs_fail(err, "GS: the rings hold %u ES and %u GS items (at least 6 and 1 needed)", g->es_slots,
                       g->gs_slots);
    if (g->gsvs_bytes / 4 > (1u << 30))
        return rs_fail(err, "GS: the GSVS ring (%llu bytes) is larger than the copy shader's 30-bit offsets reach",
                       (unsigned long long)g->gsvs_bytes);
    return 0;
}
