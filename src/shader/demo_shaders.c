/* The demo's shaders: one triangle whose vertices carry a position and a
 * colour; the colour is interpolated across the triangle and written to
 * colour buffer 0.  The three programs follow the seed author's shaders that
 * drew this triangle on a real HD 7350 (tests/data/shader/seed_*.bin), except
 * that the pixel shader interpolates all four colour components the way Mesa's
 * r600 driver does (INTERP_ZW then INTERP_XY, r600_shader.c evergreen_interp_alu).
 *
 * Vertex buffer (one buffer, 24 bytes per vertex):
 *     offset  0: position x, y, z   (FMT_32_32_32_FLOAT)
 *     offset 12: colour   r, g, b   (FMT_32_32_32_FLOAT)
 *
 * Fetch shader (SQ_PGM_START_FS), called by the vertex shader's CALL_FS.  The
 * semantic form of the vertex fetch writes the GPR the semantic table names:
 * SQ_VTX_SEMANTIC_0 = 0x90 -> R1, SQ_VTX_SEMANTIC_1 = 0x92 -> R2.
 *
 *     00  VC        @2, 2 instructions
 *     01  RETURN
 *         VTX clause @2:
 *     02  SEMANTIC  SEM[0x90].xyz1, R0.x, RID:0, FMT_32_32_32_FLOAT, OFFSET:0   ; position, w = 1
 *     04  SEMANTIC  SEM[0x92].xyz1, R0.x, RID:0, FMT_32_32_32_FLOAT, OFFSET:12  ; colour, alpha = 1
 *
 * (R0.x holds the vertex index when a vertex shader starts; RID 0 is fetch
 * resource SQ_FETCH_RESOURCE_BASE.FS + 0 = 992.)
 *
 * Vertex shader (SQ_PGM_START_VS): the positions are already in clip space
 * (w = 1), so it only exports what the fetch shader loaded.
 *
 *     00  CALL_FS                               ; R1 = position, R2 = colour
 *     01  EXPORT_DONE  POS0,   R1.xyzw          ; the only position
 *     02  EXPORT_DONE  PARAM0, R2.xyzw  EOP     ; the only parameter: colour
 *
 * Pixel shader (SQ_PGM_START_PS).  The SPI puts the perspective-correct
 * barycentrics I, J of the pixel centre in R0.x, R0.y (SPI_BARYC_CNTL
 * PERSP_CENTER_ENA, SPI_PS_IN_CONTROL_0.NUM_INTERP = 1).  Each INTERP pair
 * computes P0 + I*(P1-P0) + J*(P2-P0) of parameter 0: the odd slot takes I,
 * the even slot J; ZW writes z and w, XY writes x and y.
 *
 *     00  ALU  @2, 8 slots
 *     01  EXPORT_DONE  PIXEL0, R1.xyzw  EOP     ; colour buffer 0
 *         ALU clause @2:
 *     02   x: INTERP_ZW  __.x, R0.y, PARAM0.x  VEC_210
 *     03   y: INTERP_ZW  __.y, R0.x, PARAM0.x  VEC_210
 *     04   z: INTERP_ZW  R1.z, R0.y, PARAM0.x  VEC_210
 *     05   w: INTERP_ZW  R1.w, R0.x, PARAM0.x  VEC_210   (last)
 *     06   x: INTERP_XY  R1.x, R0.y, PARAM0.x  VEC_210
 *     07   y: INTERP_XY  R1.y, R0.x, PARAM0.x  VEC_210
 *     08   z: INTERP_XY  __.z, R0.y, PARAM0.x  VEC_210
 *     09   w: INTERP_XY  __.w, R0.x, PARAM0.x  VEC_210   (last)
 */
#include <string.h>

#include "cedar/shader.h"
#include "eg_regs.h"

/* Fixed choices of this demo. */
enum {
    POS_SEMANTIC = 0x90,    /* the seed author's semantic ids */
    COLOR_SEMANTIC = 0x92,
    POS_GPR = 1,            /* semantic-table entry 0 -> R1 */
    COLOR_GPR = 2,          /* entry 1 -> R2 */
    IJ_GPR = 0,             /* barycentrics */
    PS_COLOR_GPR = 1,
    VERTEX_STRIDE = 24,
    POS_OFFSET = 0,
    COLOR_OFFSET = 12,
    VTX_BUFFER_ID = 0,
    COLOR_PARAM = 0,
};

static void build_fs(struct eg_asm *a)
{
    eg_asm_vtx_clause(a);
    const unsigned sem[2] = { POS_SEMANTIC, COLOR_SEMANTIC };
    const unsigned off[2] = { POS_OFFSET, COLOR_OFFSET };
    for (int i = 0; i < 2; i++)
        eg_asm_vtx(a, &(struct eg_vtx){
            .inst = V_SQ_VTX_INST__SEMANTIC,
            .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA,
            .buffer_id = VTX_BUFFER_ID,
            .src_gpr = 0, .src_sel_x = V_SQ_CHAN__X,
            .mega_fetch_count = 12 - 1,          /* 12 bytes per element */
            .semantic_id = sem[i],
            .dst_sel = { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__ONE },
            .data_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT,
            .num_format = V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM,
            .format_comp = V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED,
            .offset = off[i],
        });
    eg_asm_return(a);
}

static void build_vs(struct eg_asm *a)
{
    eg_asm_call_fs(a);
    eg_asm_export(a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS,
                                          .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0,
                                          .gpr = POS_GPR, .sel = EG_SWZ_XYZW, .done = true });
    eg_asm_export(a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = COLOR_PARAM,
                                          .gpr = COLOR_GPR, .sel = EG_SWZ_XYZW, .done = true });
}

/* One INTERP_ZW or INTERP_XY group: slots x..w, J in the even slots, I in the
 * odd ones; `write` says which destination channels are written. */
static void interp_group(struct eg_asm *a, unsigned op, const bool write[4])
{
    for (unsigned s = 0; s < 4; s++)
        eg_asm_alu(a, &(struct eg_alu){
            .op = op,
            .dst = { .gpr = PS_COLOR_GPR, .chan = (uint8_t)s, .write = write[s] },
            .src = { eg_src_gpr(IJ_GPR, (s & 1) ? V_SQ_CHAN__X : V_SQ_CHAN__Y),
                     eg_src_special(V_SQ_ALU_SRC__PARAM_BASE + COLOR_PARAM, V_SQ_CHAN__X) },
            .bank_swizzle = V_SQ_ALU_VEC_BANK_SWIZZLE__VEC_210,
            .last = s == 3,
        });
}

static void build_ps(struct eg_asm *a)
{
    eg_asm_alu_clause(a, V_SQ_CF_ALU_INST__ALU, NULL);
    interp_group(a, V_SQ_ALU_OP2__INTERP_ZW, (const bool[4]){ false, false, true, true });
    interp_group(a, V_SQ_ALU_OP2__INTERP_XY, (const bool[4]){ true, true, false, false });
    eg_asm_export(a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0,
                                          .gpr = PS_COLOR_GPR, .sel = EG_SWZ_XYZW, .done = true });
}

int eg_demo_shaders_build(struct eg_demo_shaders *s)
{
    memset(s, 0, sizeof *s);
    struct eg_asm a;

    eg_asm_init(&a);
    build_fs(&a);
    if (eg_asm_finish(&a, false, s->fs, EG_DEMO_SHADER_MAX_DW, &s->fs_ndw))
        return -1;
    eg_asm_init(&a);
    build_vs(&a);
    if (eg_asm_finish(&a, true, s->vs, EG_DEMO_SHADER_MAX_DW, &s->vs_ndw))
        return -1;
    eg_asm_init(&a);
    build_ps(&a);
    if (eg_asm_finish(&a, true, s->ps, EG_DEMO_SHADER_MAX_DW, &s->ps_ndw))
        return -1;

    /* GPRs: VS R0 (index) .. R2 (colour); the fetch shader runs in the VS's
     * GPRs; PS R0 (I, J) .. R1 (colour).  The call to the fetch shader needs
     * one stack entry (the seed's SQ_PGM_RESOURCES_VS = 0x00200103: 3 GPRs,
     * stack 1; SQ_PGM_RESOURCES_PS = 0x00a00002: 2 GPRs). */
    s->vs_num_gprs = 3;
    s->vs_stack_size = 1;
    s->fs_num_gprs = 0;
    s->ps_num_gprs = 2;
    s->ps_stack_size = 0;
    s->ps_color_exports = 1;
    s->ps_num_interp = 1;
    s->ps_persp_center = true;
    s->vs_export_count = 1;
    s->vs_pos_exports = 1;
    s->color_param = COLOR_PARAM;
    s->color_semantic = COLOR_SEMANTIC;
    s->vtx_semantic[0] = POS_SEMANTIC;
    s->vtx_semantic[1] = COLOR_SEMANTIC;
    s->vtx_buffer_id = VTX_BUFFER_ID;
    s->vtx_resource = V_SQ_FETCH_RESOURCE_BASE__FS + VTX_BUFFER_ID;
    s->vtx_stride = VERTEX_STRIDE;
    s->pos_offset = POS_OFFSET;
    s->color_offset = COLOR_OFFSET;
    s->pos_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT;
    s->color_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT;
    return 0;
}
