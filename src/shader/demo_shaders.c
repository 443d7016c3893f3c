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
 * The colour may be stored otherwise (eg_demo_shaders_build_color), at the
 * same offset in the same 24-byte vertex: R8G8B8A8_UNORM is one FMT_8_8_8_8
 * fetch (.xyzw); R8G8B8_UNORM / _SNORM have no vertex format on AMD
 * hardware (vtx_format.c: FMT_8_8_8 is not fetched), so, as the zink
 * write-up of seed 004 decomposes R8G8B8_SNORM, three FMT_8 fetches read
 * bytes 0, 1, 2 of the colour into x, y, z, and the first supplies w = 1:
 *
 *     SEMANTIC  SEM[0x92].x__1, R0.x, RID:0, FMT_8, OFFSET:12
 *     SEMANTIC  SEM[0x92]._y__, R0.x, RID:0, FMT_8, OFFSET:13   (_ : not written)
 *     SEMANTIC  SEM[0x92].__z_, R0.x, RID:0, FMT_8, OFFSET:14
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

enum { X = V_SQ_INST_SEL__X, Y = V_SQ_INST_SEL__Y, Z = V_SQ_INST_SEL__Z, W = V_SQ_INST_SEL__W,
       ONE = V_SQ_INST_SEL__ONE, MASK = V_SQ_INST_SEL__MASK };

/* One SEMANTIC fetch of the vertex buffer into the semantic's register. */
static void fetch(struct eg_asm *a, unsigned semantic, const struct eg_demo_color_fetch *f)
{
    eg_asm_vtx(a, &(struct eg_vtx){
        .inst = V_SQ_VTX_INST__SEMANTIC,
        .fetch_type = V_SQ_VTX_FETCH_TYPE__VERTEX_DATA,
        .buffer_id = VTX_BUFFER_ID,
        .src_gpr = 0, .src_sel_x = V_SQ_CHAN__X,
        .mega_fetch_count = f->bytes - 1,
        .semantic_id = semantic,
        .dst_sel = { f->dst_sel[0], f->dst_sel[1], f->dst_sel[2], f->dst_sel[3] },
        .data_format = f->data_format,
        .num_format = f->num_format,
        .format_comp = f->format_comp,
        .srf_mode = f->srf_mode,
        .offset = f->offset,
    });
}

static void build_fs(struct eg_asm *a, const struct eg_demo_fetch_spec *spec)
{
    eg_asm_vtx_clause(a);
    fetch(a, POS_SEMANTIC, &(const struct eg_demo_color_fetch){
        POS_OFFSET, 12, V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT, V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM,
        V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED, 0, { X, Y, Z, ONE } });
    for (unsigned i = 0; i < spec->nfetch; i++)
        fetch(a, COLOR_SEMANTIC, &spec->fetch[i]);
    eg_asm_return(a);
}

/* The colour fetches of each --vertex-color-format, at COLOR_OFFSET. */
#define NORM V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM
#define UNS V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED
#define SGN V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED
static const struct eg_demo_color_fetch float3[] = {
    { COLOR_OFFSET, 12, V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT, NORM, SGN, 0, { X, Y, Z, ONE } },
};
static const struct eg_demo_color_fetch unorm8x4[] = {
    { COLOR_OFFSET, 4, V_SQ_DATA_FORMAT__FMT_8_8_8_8, NORM, UNS, 0, { X, Y, Z, W } },
};
#define BYTES3(comp)                                                                    \
    { COLOR_OFFSET + 0, 1, V_SQ_DATA_FORMAT__FMT_8, NORM, comp, 0, { X, MASK, MASK, ONE } }, \
    { COLOR_OFFSET + 1, 1, V_SQ_DATA_FORMAT__FMT_8, NORM, comp, 0, { MASK, X, MASK, MASK } }, \
    { COLOR_OFFSET + 2, 1, V_SQ_DATA_FORMAT__FMT_8, NORM, comp, 0, { MASK, MASK, X, MASK } }
static const struct eg_demo_color_fetch snorm8x3[] = { BYTES3(SGN) };
static const struct eg_demo_color_fetch unorm8x3[] = { BYTES3(UNS) };
#undef BYTES3
#undef NORM
#undef UNS
#undef SGN

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

/* flat: the colour as the parameter cache holds it for vertex 0
 * (INTERP_LOAD_P0, no arithmetic: its bits arrive unchanged), else
 * interpolated. */
static void build_ps(struct eg_asm *a, bool flat)
{
    eg_asm_alu_clause(a, V_SQ_CF_ALU_INST__ALU, NULL);
    if (flat) {
        for (unsigned c = 0; c < 4; c++)
            eg_asm_alu(a, &(struct eg_alu){
                .op = V_SQ_ALU_OP2__INTERP_LOAD_P0,
                .dst = { .gpr = PS_COLOR_GPR, .chan = (uint8_t)c, .write = true },
                .src = { eg_src_special(V_SQ_ALU_SRC__PARAM_BASE + COLOR_PARAM, (uint8_t)c) },
                .last = c == 3,
            });
    } else {
        interp_group(a, V_SQ_ALU_OP2__INTERP_ZW, (const bool[4]){ false, false, true, true });
        interp_group(a, V_SQ_ALU_OP2__INTERP_XY, (const bool[4]){ true, true, false, false });
    }
    eg_asm_export(a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0,
                                          .gpr = PS_COLOR_GPR, .sel = EG_SWZ_XYZW, .done = true });
}

static const char *const color_names[EG_DEMO_COLOR_COUNT] = {
    [EG_DEMO_COLOR_R32G32B32_FLOAT] = "r32g32b32_float",
    [EG_DEMO_COLOR_R8G8B8A8_UNORM] = "r8g8b8a8_unorm",
    [EG_DEMO_COLOR_R8G8B8_SNORM] = "r8g8b8_snorm",
    [EG_DEMO_COLOR_R8G8B8_UNORM] = "r8g8b8_unorm",
};

const char *eg_demo_color_format_name(enum eg_demo_color_format f)
{
    return (unsigned)f < EG_DEMO_COLOR_COUNT ? color_names[f] : "?";
}

int eg_demo_color_format_parse(const char *name, enum eg_demo_color_format *f)
{
    for (unsigned i = 0; i < EG_DEMO_COLOR_COUNT; i++)
        if (strcmp(name, color_names[i]) == 0) {
            *f = (enum eg_demo_color_format)i;
            return 0;
        }
    return -1;
}

int eg_demo_shaders_build(struct eg_demo_shaders *s)
{
    return eg_demo_shaders_build_color(s, EG_DEMO_COLOR_R32G32B32_FLOAT);
}

int eg_demo_shaders_build_color(struct eg_demo_shaders *s, enum eg_demo_color_format color)
{
    static const struct { const struct eg_demo_color_fetch *f; unsigned n, data_format; } fetches[] = {
        [EG_DEMO_COLOR_R32G32B32_FLOAT] = { float3, 1, V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT },
        [EG_DEMO_COLOR_R8G8B8A8_UNORM] = { unorm8x4, 1, V_SQ_DATA_FORMAT__FMT_8_8_8_8 },
        [EG_DEMO_COLOR_R8G8B8_SNORM] = { snorm8x3, 3, V_SQ_DATA_FORMAT__FMT_8 },
        [EG_DEMO_COLOR_R8G8B8_UNORM] = { unorm8x3, 3, V_SQ_DATA_FORMAT__FMT_8 },
    };
    if ((unsigned)color >= EG_DEMO_COLOR_COUNT) {
        memset(s, 0, sizeof *s);
        return -1;
    }
    const struct eg_demo_fetch_spec spec = { VERTEX_STRIDE, fetches[color].f, fetches[color].n, false };
    if (eg_demo_shaders_build_spec(s, &spec))
        return -1;
    s->color_format = fetches[color].data_format;
    s->color_encoding = color;
    return 0;
}

int eg_demo_shaders_build_spec(struct eg_demo_shaders *s, const struct eg_demo_fetch_spec *spec)
{
    memset(s, 0, sizeof *s);
    if (spec->nfetch < 1 || spec->nfetch > EG_DEMO_MAX_COLOR_FETCHES || spec->vtx_stride < 12)
        return -1;
    struct eg_asm a;

    eg_asm_init(&a);
    build_fs(&a, spec);
    if (eg_asm_finish(&a, false, s->fs, EG_DEMO_SHADER_MAX_DW, &s->fs_ndw))
        return -1;
    eg_asm_init(&a);
    build_vs(&a);
    if (eg_asm_finish(&a, true, s->vs, EG_DEMO_SHADER_MAX_DW, &s->vs_ndw))
        return -1;
    eg_asm_init(&a);
    build_ps(&a, spec->flat);
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
    s->vtx_stride = spec->vtx_stride;
    s->pos_offset = POS_OFFSET;
    s->color_offset = spec->fetch[0].offset;
    s->pos_format = V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT;
    s->color_format = spec->fetch[0].data_format;
    return 0;
}
