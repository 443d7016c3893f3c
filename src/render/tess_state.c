/* The tessellation path's registers, decoded and checked (tess.h).
 * Facts: Mesa evergreen_state.c (evergreen_emit_shader_stages: LS_EN
 * LS_STAGE_ON, HS_EN, VS_EN VS_STAGE_DS without a GS, ES_EN ES_STAGE_DS with
 * one; VGT_TF_PARAM TYPE / PARTITIONING from the TES, TOPOLOGY OUTPUT_POINT,
 * OUTPUT_LINE for isolines, else TRIANGLE_CW for a GL "ccw" TES and
 * TRIANGLE_CCW for "cw" ("follow radeonsi and invert");
 * evergreen_get_ls_hs_config: VGT_LS_HS_CONFIG HS_NUM_INPUT_CP = the patch
 * size, HS_NUM_OUTPUT_CP = the TCS's vertices out; evergreen_setup_tess_constants:
 * NUM_PATCHES 1, SQ_LDS_ALLOC = the LDS size | waves << 14; the start
 * state's VGT_HOS_MAX_TESS_LEVEL 64.0). */
#include <math.h>

#include "tess.h"

bool tess_enabled(const struct vc_regs *regs)
{
    return G_VGT_SHADER_STAGES_EN__HS_EN(vc_reg(regs, REG_VGT_SHADER_STAGES_EN));
}

int tess_state_init(struct tess_state *t, const struct vc_regs *regs, struct vc_draw_err *err)
{
    memset(t, 0, sizeof *t);
    uint32_t st = vc_reg(regs, REG_VGT_SHADER_STAGES_EN);
    /* into a GS: ES_EN ES_STAGE_DS, GS_EN, VS_EN the copy shader, and the
     * GS scenario in VGT_GS_MODE */
    t->gs = G_VGT_SHADER_STAGES_EN__GS_EN(st);
    if (t->gs != gs_enabled(regs))
        return rs_fail(err, "tessellation: VGT_SHADER_STAGES_EN 0x%x %s GS_EN, VGT_GS_MODE %sGS_SCENARIO_G", st,
                       t->gs ? "with" : "without", t->gs ? "not " : "");
    unsigned es = t->gs ? V_VGT_SHADER_STAGES_EN_ES_EN__ES_STAGE_DS : 0;
    unsigned vs = t->gs ? V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_COPY_SHADER : V_VGT_SHADER_STAGES_EN_VS_EN__VS_STAGE_DS;
    if (G_VGT_SHADER_STAGES_EN__LS_EN(st) != V_VGT_SHADER_STAGES_EN_LS_EN__LS_STAGE_ON ||
        G_VGT_SHADER_STAGES_EN__ES_EN(st) != es || G_VGT_SHADER_STAGES_EN__VS_EN(st) != vs)
        return rs_fail(err, "tessellation: VGT_SHADER_STAGES_EN 0x%x with HS_EN (not LS_EN LS_STAGE_ON, %s) is "
                            "not modelled", st, t->gs ? "ES_EN ES_STAGE_DS, VS_EN VS_STAGE_COPY_SHADER"
                                                  : "VS_EN VS_STAGE_DS, no ES");
    uint32_t cfg = vc_reg(regs, REG_VGT_LS_HS_CONFIG);
    t->ncp_in = G_VGT_LS_HS_CONFIG__HS_NUM_INPUT_CP(cfg);
    t->ncp_out = G_VGT_LS_HS_CONFIG__HS_NUM_OUTPUT_CP(cfg);
    if (t->ncp_in == 0 || t->ncp_in > TESS_MAX_CP || t->ncp_out == 0 || t->ncp_out > TESS_MAX_CP)
        return rs_fail(err, "tessellation: VGT_LS_HS_CONFIG 0x%x has %u input and %u output control points "
                            "(1..%d each)", cfg, t->ncp_in, t->ncp_out, TESS_MAX_CP);
    /* SIZE in dwords (what the LDS allocation counts; Mesa's r600 writes its
     * byte count, which this over-allocates), at most the SIMD's LDS */
    uint64_t lds = 4ull * G_SQ_LDS_ALLOC__SIZE(vc_reg(regs, REG_SQ_LDS_ALLOC));
    if (lds == 0)
        return rs_fail(err, "tessellation: no LDS for the LS and HS (SQ_LDS_ALLOC.SIZE 0)");
    t->lds_bytes = lds > TESS_LDS_BYTES ? TESS_LDS_BYTES : (uint32_t)lds;
    uint32_t tf = vc_reg(regs, REG_VGT_TF_PARAM);
    switch (G_VGT_TF_PARAM__TYPE(tf)) {
    case V_VGT_TF_PARAM_TYPE__TESS_ISOLINE: t->domain = TESS_DOMAIN_ISOLINE, t->nfactors = 2; break;
    case V_VGT_TF_PARAM_TYPE__TESS_TRIANGLE: t->domain = TESS_DOMAIN_TRIANGLE, t->nfactors = 4; break;
    case V_VGT_TF_PARAM_TYPE__TESS_QUAD: t->domain = TESS_DOMAIN_QUAD, t->nfactors = 6; break;
    default: return rs_fail(err, "tessellation: VGT_TF_PARAM.TYPE %u is not a domain", G_VGT_TF_PARAM__TYPE(tf));
    }
    switch (G_VGT_TF_PARAM__PARTITIONING(tf)) {
    case V_VGT_TF_PARAM_PARTITIONING__PART_INTEGER: t->spacing = TESS_SPACING_INTEGER; break;
    case V_VGT_TF_PARAM_PARTITIONING__PART_POW2: t->spacing = TESS_SPACING_POW2; break;
    case V_VGT_TF_PARAM_PARTITIONING__PART_FRAC_ODD: t->spacing = TESS_SPACING_FRAC_ODD; break;
    case V_VGT_TF_PARAM_PARTITIONING__PART_FRAC_EVEN: t->spacing = TESS_SPACING_FRAC_EVEN; break;
    default:
        return rs_fail(err, "tessellation: VGT_TF_PARAM.PARTITIONING %u is not a spacing",
                       G_VGT_TF_PARAM__PARTITIONING(tf));
    }
    switch (G_VGT_TF_PARAM__TOPOLOGY(tf)) {
    case V_VGT_TF_PARAM_TOPOLOGY__OUTPUT_POINT: t->output = TESS_OUT_POINT; break;
    case V_VGT_TF_PARAM_TOPOLOGY__OUTPUT_LINE: t->output = TESS_OUT_LINE; break;
    case V_VGT_TF_PARAM_TOPOLOGY__OUTPUT_TRIANGLE_CW: t->output = TESS_OUT_TRI_CW; break;
    case V_VGT_TF_PARAM_TOPOLOGY__OUTPUT_TRIANGLE_CCW: t->output = TESS_OUT_TRI_CCW; break;
    default:
        return rs_fail(err, "tessellation: VGT_TF_PARAM.TOPOLOGY %u is not an output", G_VGT_TF_PARAM__TOPOLOGY(tf));
    }
    uint32_t mx = vc_reg(regs, REG_VGT_HOS_MAX_TESS_LEVEL);
    memcpy(&t->max_level, &mx, 4);
    return 0;
}
