/* State emission for the MSAA demo: the initial state, the render targets,
 * the MSAA state, the draw, the flush.  Register values follow what Mesa's
 * r600 driver (evergreen_state.c, evergreen_hw_context.c, r600_blit.c)
 * programs for the same scene on a Cedar; the reference streams are
 * tests/data/mesa-r600-msaa8x/cs_00N.bin. */
#include <radeon_drm.h>
#include <stddef.h>

#include "demo_internal.h"
#include "eg_regs.h"

/* --- initial state ------------------------------------------------------- */

struct reg_value {
    uint32_t reg;
    uint32_t value;
};

/* Mesa 22.3 evergreen_init_atom_start_cs() for CHIP_CEDAR (and
 * evergreen_init_common_regs()), as the values appear in Mesa's streams;
 * each run of consecutive registers in one space becomes one SET_* packet.
 * Values that are not zero carry their meaning. */
static const struct reg_value initial_state[] = {
    /* SQ_CONFIG: EXPORT_SRC_C, priorities PS 0 VS 1 GS 2 ES 3 HS 3 LS 3
     * (Cedar has no vertex cache: VC_ENABLE 0) */
    { REG_SQ_CONFIG, 0xE4F00002u },
    { REG_SQ_GLOBAL_GPR_RESOURCE_MGMT_1, 0 },
    { REG_SQ_GLOBAL_GPR_RESOURCE_MGMT_2, 0 },
    { REG_DB_DEPTH_CONTROL, 0 },
    { REG_SX_MISC, 0 },
    { REG_SX_SURFACE_SYNC, 0x0000000Fu },              /* SURFACE_SYNC_MASK 0xF */
    /* Cedar thread and stack budget: 96 PS, 16 VS/GS/ES/HS/LS threads,
     * 42 stack entries per stage, 4096 LDS for PS and LS */
    { REG_SQ_THREAD_RESOURCE_MGMT_1, 0x10101060u },
    { REG_SQ_THREAD_RESOURCE_MGMT_2, 0x00001010u },
    { REG_SQ_STACK_RESOURCE_MGMT_1, 0x002A002Au },
    { REG_SQ_STACK_RESOURCE_MGMT_2, 0x002A002Au },
    { REG_SQ_STACK_RESOURCE_MGMT_3, 0x002A002Au },
    { REG_SQ_LDS_RESOURCE_MGMT, 0x10001000u },
    /* every SIMD for every stage; Cedar's last SIMD bit clear in MGMT3 */
    { REG_SQ_STATIC_THREAD_MGMT1, 0xFFFFFFFFu },
    { REG_SQ_STATIC_THREAD_MGMT2, 0xFFFFFFFFu },
    { REG_SQ_STATIC_THREAD_MGMT3, 0xFFFFFFFEu },
    { REG_SPI_CONFIG_CNTL, 0 },
    { REG_SPI_CONFIG_CNTL_1, 0x00000004u },            /* VTX_DONE_DELAY 4 */
    { REG_SQ_ESGS_RING_ITEMSIZE, 0 },
    { REG_SQ_GSVS_RING_ITEMSIZE, 0 },
    { REG_SQ_ESTMP_RING_ITEMSIZE, 0 },
    { REG_SQ_GSTMP_RING_ITEMSIZE, 0 },
    { REG_SQ_VSTMP_RING_ITEMSIZE, 0 },
    { REG_SQ_PSTMP_RING_ITEMSIZE, 0 },
    { REG_SQ_GS_VERT_ITEMSIZE, 0 },
    { REG_SQ_GS_VERT_ITEMSIZE_1, 0 },
    { REG_SQ_GS_VERT_ITEMSIZE_2, 0 },
    { REG_SQ_GS_VERT_ITEMSIZE_3, 0 },
    { REG_VGT_OUTPUT_PATH_CNTL, 0 },
    { REG_VGT_HOS_CNTL, 0 },
    { REG_VGT_HOS_MAX_TESS_LEVEL, 0x42800000u },       /* 64.0f */
    { REG_VGT_HOS_MIN_TESS_LEVEL, 0x3F800000u },       /* 1.0f */
    { REG_VGT_HOS_REUSE_DEPTH, 0x00000010u },          /* 16 */
    { REG_VGT_GROUP_PRIM_TYPE, 0 },
    { REG_VGT_GROUP_FIRST_DECR, 0 },
    { REG_VGT_GROUP_DECR, 0 },
    { REG_VGT_GROUP_VECT_0_CNTL, 0 },
    { REG_VGT_GROUP_VECT_1_CNTL, 0 },
    { REG_VGT_GROUP_VECT_0_FMT_CNTL, 0 },
    { REG_VGT_GROUP_VECT_1_FMT_CNTL, 0 },
    { REG_VGT_GS_MODE, 0 },
    { REG_PA_CL_ENHANCE, 0x00000007u },                /* CLIP_VTX_REORDER_ENA, NUM_CLIP_SEQ 3 */
    { REG_SQ_VTX_SEMANTIC_CLEAR, 0xFFFFFFFFu },
    { REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu },
    { REG_VGT_MIN_VTX_INDX, 0 },
    { REG_SQ_VTX_BASE_VTX_LOC, 0 },
    { REG_DB_STENCIL_CLEAR, 0 },
    { REG_PA_SC_WINDOW_OFFSET, 0 },
    { REG_PA_SC_CLIPRECT_RULE, 0x0000FFFFu },          /* every clip rectangle case passes */
    { REG_PA_SC_EDGERULE, 0xAAAAAAAAu },
    { REG_SPI_FOG_CNTL, 0 },
    { REG_PA_CL_NANINF_CNTL, 0 },
    { REG_DB_SRESULTS_COMPARE_STATE0, 0 },
    { REG_DB_SRESULTS_COMPARE_STATE1, 0 },
    { REG_DB_PRELOAD_CONTROL, 0 },
    { REG_PA_SC_GENERIC_SCISSOR_TL, 0 },
    { REG_PA_SC_GENERIC_SCISSOR_BR, 0x40004000u },     /* 16384 x 16384 */
    { REG_PA_SC_SCREEN_SCISSOR_TL, 0 },
    { REG_PA_SC_SCREEN_SCISSOR_BR, 0x40004000u },
    { REG_SQ_PGM_RESOURCES_2_PS, 0 },
    { REG_SQ_PGM_RESOURCES_2_VS, 0 },
    { REG_SQ_PGM_RESOURCES_2_GS, 0 },
    { REG_SQ_PGM_RESOURCES_2_ES, 0 },
    { REG_SQ_PGM_RESOURCES_FS, 0 },
    { REG_SQ_PGM_RESOURCES_2_HS, 0 },
    { REG_SQ_PGM_RESOURCES_2_LS, 0 },
    { REG_VGT_STRMOUT_BUFFER_CONFIG, 0 },
    { REG_VGT_STRMOUT_DRAW_OPAQUE_OFFSET, 0 },
    { REG_DB_RENDER_OVERRIDE2, 0 },
    { REG_PA_SU_HARDWARE_SCREEN_OFFSET, 0 },
    { REG_SPI_THREAD_GROUPING, 0 },
    { REG_SPI_PS_IN_CONTROL_2, 0 },
    { REG_SPI_COMPUTE_INPUT_CNTL, 0 },
    { REG_SQ_LDS_ALLOC, 0 },
    { REG_SQ_LDS_ALLOC_PS, 0 },
    { REG_VGT_SHADER_STAGES_EN, 0 },
    { REG_VGT_LS_HS_CONFIG, 0 },
    { REG_VGT_LS_SIZE, 0 },
    { REG_VGT_HS_SIZE, 0 },
    { REG_VGT_LS_HS_ALLOC, 0 },
    { REG_VGT_HS_PATCH_CONST, 0 },
    { REG_VGT_TF_PARAM, 0 },
    /* loop constant 0 of each stage: count 0xFFF, init 0, increment 1 */
    { REG_SQ_LOOP_CONST_0, 0x01000FFFu },
    { REG_SQ_LOOP_CONST_32, 0x01000FFFu },
    { REG_SQ_LOOP_CONST_64, 0x01000FFFu },
    { REG_SQ_LOOP_CONST_96, 0x01000FFFu },
    { REG_SQ_LOOP_CONST_128, 0x01000FFFu },
    /* dynamic GPR management as Mesa sets it up on Evergreen: no static
     * GPR split (NUM_CLAUSE_TEMP_GPRS 4), a 30-GPR limit per stage */
    { REG_SQ_GPR_RESOURCE_MGMT_1, 0x40000000u },
    { REG_SQ_GPR_RESOURCE_MGMT_2, 0 },
    { REG_SQ_GPR_RESOURCE_MGMT_3, 0 },
    { REG_SQ_DYN_GPR_CNTL_PS_FLUSH_REQ, 0x00000100u },
    { REG_SQ_DYN_GPR_RESOURCE_LIMIT_1, 0x3DEF7BDEu },
};

static bool in_space(uint32_t reg, uint32_t start, uint32_t end)
{
    return reg >= start && reg < end;
}

/* One SET_* packet for the registers [first, first + n) of the table. */
static void emit_run(struct cedar_cmdbuf *cb, const struct reg_value *t, unsigned n)
{
    uint32_t v[64];
    for (unsigned i = 0; i < n; i++)
        v[i] = t[i].value;
    uint32_t reg = t[0].reg;
    if (in_space(reg, SPACE_CONFIG_START, SPACE_CONFIG_END))
        cedar_cmdbuf_set_config_regs(cb, reg, v, n);
    else if (in_space(reg, SPACE_CONTEXT_START, SPACE_CONTEXT_END))
        cedar_cmdbuf_set_context_regs(cb, reg, v, n);
    else if (in_space(reg, SPACE_LOOP_CONST_START, SPACE_LOOP_CONST_END))
        cedar_cmdbuf_set_loop_const(cb, reg, v, n);
    else
        cedar_cmdbuf_set_ctl_const(cb, reg, v, n);
}

static void emit_table(struct cedar_cmdbuf *cb, const struct reg_value *t, size_t count)
{
    size_t i = 0;
    while (i < count) {
        size_t n = 1;
        /* coalesce consecutive registers (the same space by construction:
         * spaces do not touch in the demo's table) */
        while (i + n < count && n < 64 && t[i + n].reg == t[i + n - 1].reg + 4)
            n++;
        emit_run(cb, &t[i], (unsigned)n);
        i += n;
    }
}

static void emit_event(struct cedar_cmdbuf *cb, uint32_t type, uint32_t index)
{
    cedar_cmdbuf_pkt3(cb, PKT3_EVENT_WRITE, 1);
    cedar_cmdbuf_emit(cb, S_EVENT_CNTL__EVENT_TYPE(type) |
                              S_EVENT_CNTL__EVENT_INDEX(index));
}

void demo_emit_initial_state(struct cedar_cmdbuf *cb)
{
    /* Load and shadow every register group (Mesa: CONTEXT_CONTROL
     * 0x80000000, 0x80000000). */
    uint32_t cc[2] = { S_CONTEXT_CONTROL_LOAD_CONTROL__LOAD_ENABLE(1),
                       S_CONTEXT_CONTROL_SHADOW_CONTROL__SHADOW_ENABLE(1) };
    cedar_cmdbuf_packet(cb, PKT3_CONTEXT_CONTROL, cc, 2);
    emit_event(cb, V_VGT_EVENT_TYPE__PS_PARTIAL_FLUSH, V_EVENT_INDEX__EVENT_INDEX_PARTIAL_FLUSH);
    emit_table(cb, initial_state, sizeof initial_state / sizeof initial_state[0]);
}

void demo_emit_flush(struct cedar_cmdbuf *cb)
{
    cedar_cmdbuf_set_config_reg(cb, REG_WAIT_UNTIL, S_WAIT_UNTIL__WAIT_CP_DMA_IDLE(1) |
                                                        S_WAIT_UNTIL__WAIT_3D_IDLE(1));
    emit_event(cb, V_VGT_EVENT_TYPE__FLUSH_AND_INV_CB_META, V_EVENT_INDEX__EVENT_INDEX_OTHER);
    emit_event(cb, V_VGT_EVENT_TYPE__FLUSH_AND_INV_DB_META, V_EVENT_INDEX__EVENT_INDEX_OTHER);
    emit_event(cb, V_VGT_EVENT_TYPE__CACHE_FLUSH_AND_INV_EVENT, V_EVENT_INDEX__EVENT_INDEX_OTHER);
    /* Every CB/DB destination, texture cache, CB, DB and SMX actions, the
     * whole address range: the flush-all form, which takes no relocation
     * (Mesa r600_emit_cache_flush: CP_COHER_CNTL 0x1697FFC0). */
    uint32_t coher = S_CP_COHER_CNTL__CB0_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB1_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__CB2_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB3_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__CB4_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB5_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__CB6_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB7_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__DB_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB8_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__CB9_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__CB10_DEST_BASE_ENA(1) |
                     S_CP_COHER_CNTL__CB11_DEST_BASE_ENA(1) | S_CP_COHER_CNTL__TC_ACTION_ENA(1) |
                     S_CP_COHER_CNTL__CB_ACTION_ENA(1) | S_CP_COHER_CNTL__DB_ACTION_ENA(1) |
                     S_CP_COHER_CNTL__SMX_ACTION_ENA(1) | S_CP_COHER_CNTL__FULL_CACHE_ENA(1);
    uint32_t sync[4] = { coher, 0xFFFFFFFFu /* size: all */, 0 /* base */, 10 /* poll interval */ };
    cedar_cmdbuf_packet(cb, PKT3_SURFACE_SYNC, sync, 4);
}

void demo_emit_cp_dma_fill(struct cedar_cmdbuf *cb, enum cedar_demo_buf buf, uint64_t offset,
                           uint64_t size, uint32_t value)
{
    const uint64_t max_chunk = CP_DMA_CP_DMA_COMMAND__BYTE_COUNT__MASK >> CP_DMA_CP_DMA_COMMAND__BYTE_COUNT__SHIFT;
    /* whole dwords, 4-byte aligned chunks */
    const uint64_t chunk_limit = max_chunk & ~(uint64_t)3;
    while (size > 0) {
        uint64_t n = size < chunk_limit ? size : chunk_limit;
        uint32_t p[5] = {
            value,
            S_CP_DMA_CP_DMA_INFO__SRC_SEL(V_CP_DMA_SRC_SEL__SRC_DATA) | S_CP_DMA_CP_DMA_INFO__CP_SYNC(1),
            (uint32_t)offset,
            S_CP_DMA_DST_ADDR_HI__DST_ADDR_HI((offset >> 32) & 0xFF),
            S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(n),
        };
        cedar_cmdbuf_packet(cb, PKT3_CP_DMA, p, 5);
        cedar_cmdbuf_reloc(cb, demo_buf_handle(buf), 0, RADEON_GEM_DOMAIN_VRAM, 0);
        offset += n;
        size -= n;
    }
}

/* --- render targets ----------------------------------------------------- */

static uint32_t log2u(unsigned v)
{
    uint32_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

/* COLOR_8_8_8_8 UNORM stored B, G, R, A (COMP_SWAP SWAP_ALT, as the real
 * card's frame and Mesa's PIPE_FORMAT_B8G8R8A8_UNORM); blend clamp and
 * simple float as Mesa sets for UNORM; 16-bit export (EXPORT_4C_16BPC). */
static uint32_t color_info(bool msaa, bool fast_clear)
{
    return S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) |
           S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) |
           S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UNORM) |
           S_CB_COLOR_INFO__COMP_SWAP(V_CB_COMP_SWAP__SWAP_ALT) |
           S_CB_COLOR_INFO__FAST_CLEAR(fast_clear) | S_CB_COLOR_INFO__COMPRESSION(msaa) |
           S_CB_COLOR_INFO__BLEND_CLAMP(1) | S_CB_COLOR_INFO__SIMPLE_FLOAT(1) |
           S_CB_COLOR_INFO__SOURCE_FORMAT(V_CB_SOURCE_FORMAT__EXPORT_4C_16BPC);
}

static uint32_t color_attrib(const struct cedar_surface *s, unsigned fmask_bank_height_enc)
{
    /* NUM_SAMPLES / NUM_FRAGMENTS stay 0 on Evergreen (Mesa fills them on
     * Cayman only; the sample count comes from PA_SC_AA_CONFIG). */
    return S_CB_COLOR_ATTRIB__TILE_SPLIT(s->tile_split_enc) |
           S_CB_COLOR_ATTRIB__NUM_BANKS(log2u(s->tiling.banks) - 1) |
           S_CB_COLOR_ATTRIB__BANK_WIDTH(s->bankw_enc) |
           S_CB_COLOR_ATTRIB__BANK_HEIGHT(s->bankh_enc) |
           S_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(s->mtilea_enc) |
           S_CB_COLOR_ATTRIB__FMASK_BANK_HEIGHT(fmask_bank_height_enc);
}

/* The clear colour as CB_COLOR0_CLEAR_WORD0 holds it: the bytes in the
 * order the surface stores them (B, G, R, A). */
static uint32_t clear_word0(const uint8_t rgb[3])
{
    return (uint32_t)rgb[2] | (uint32_t)rgb[1] << 8 | (uint32_t)rgb[0] << 16 | 0xFFu << 24;
}

void demo_cb_regs_color(const struct cedar_demo_plan *plan, struct demo_cb_regs *r)
{
    const struct cedar_msaa_layout *l = &plan->layout;
    const struct cedar_surface *s = &l->color;
    bool msaa = s->samples > 1;
    *r = (struct demo_cb_regs){0};
    r->base = 0;
    r->pitch = S_CB_COLOR_PITCH__TILE_MAX(s->pitch_tile_max);
    r->slice = S_CB_COLOR_SLICE__TILE_MAX(s->slice_tile_max);
    if (msaa) {
        /* Mesa sets FAST_CLEAR whenever the surface has a CMask. */
        r->info = color_info(true, true);
        r->attrib = color_attrib(s, log2u(l->fmask.bank_height));
        r->cmask = (uint32_t)(l->cmask.offset >> 8);
        r->cmask_slice = S_CB_COLOR_CMASK_SLICE__TILE_MAX(l->cmask.slice_tile_max);
        r->fmask = (uint32_t)(l->fmask.offset >> 8);
        r->fmask_slice = S_CB_COLOR_FMASK_SLICE__TILE_MAX(l->fmask.slice_tile_max);
        if (plan->cfg.fast_clear)
            r->clear_word0 = clear_word0(plan->cfg.clear_rgb);
    } else {
        /* Without FMask, Mesa points FMASK at the surface itself and gives
         * it the colour's slice size and bank height. */
        r->info = color_info(false, false);
        r->attrib = color_attrib(s, s->bankh_enc);
        r->fmask_slice = S_CB_COLOR_FMASK_SLICE__TILE_MAX(s->slice_tile_max);
    }
}

void demo_cb_regs_resolve(const struct cedar_demo_plan *plan, struct demo_cb_regs *r)
{
    const struct cedar_surface *s = &plan->layout.resolve;
    *r = (struct demo_cb_regs){0};
    r->pitch = S_CB_COLOR_PITCH__TILE_MAX(s->pitch_tile_max);
    r->slice = S_CB_COLOR_SLICE__TILE_MAX(s->slice_tile_max);
    r->info = color_info(false, false);
    r->attrib = color_attrib(s, s->bankh_enc);
    r->fmask_slice = S_CB_COLOR_FMASK_SLICE__TILE_MAX(s->slice_tile_max);
}

void demo_emit_cb(struct cedar_cmdbuf *cb, unsigned index, const struct demo_cb_regs *r,
                  enum cedar_demo_buf buf)
{
    uint32_t v[13] = {
        r->base, r->pitch, r->slice, r->view, r->info, r->attrib, r->dim,
        r->cmask, r->cmask_slice, r->fmask, r->fmask_slice, r->clear_word0, r->clear_word1,
    };
    cedar_cmdbuf_set_context_regs(cb, REG_CB_COLOR_BASE(index), v, 13);
    /* The kernel takes one relocation per address-carrying register, in
     * register order: BASE, ATTRIB (for its tiling check), CMASK, FMASK
     * (evergreen_cs.c evergreen_cs_handle_reg). */
    for (int i = 0; i < 4; i++)
        cedar_cmdbuf_reloc(cb, demo_buf_handle(buf), 0, RADEON_GEM_DOMAIN_VRAM, 0);
}

/* --- MSAA state --------------------------------------------------------- */

/* Sample positions in 1/16 pixel from the pixel centre, x then y per
 * sample (Mesa cayman_msaa.c eg_sample_locs_2x / _4x, evergreen_state.c
 * sample_locs_8x), and the largest distance, MAX_SAMPLE_DIST. */
static const int8_t locs_2x[2][2] = { { 4, 4 }, { -4, -4 } };
static const int8_t locs_4x[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int8_t locs_8x[8][2] = {
    { -1, 1 }, { 1, 5 }, { 3, -5 }, { 5, 3 }, { -7, -1 }, { -3, -7 }, { 7, -3 }, { -5, 7 },
};
enum { MAX_DIST_2X = 4, MAX_DIST_4X = 6, MAX_DIST_8X = 7 };

static uint32_t pack_locs(const int8_t (*l)[2])
{
    return S_PA_SC_AA_SAMPLE_LOCS__S0_X(l[0][0]) | S_PA_SC_AA_SAMPLE_LOCS__S0_Y(l[0][1]) |
           S_PA_SC_AA_SAMPLE_LOCS__S1_X(l[1][0]) | S_PA_SC_AA_SAMPLE_LOCS__S1_Y(l[1][1]) |
           S_PA_SC_AA_SAMPLE_LOCS__S2_X(l[2][0]) | S_PA_SC_AA_SAMPLE_LOCS__S2_Y(l[2][1]) |
           S_PA_SC_AA_SAMPLE_LOCS__S3_X(l[3][0]) | S_PA_SC_AA_SAMPLE_LOCS__S3_Y(l[3][1]);
}

void demo_msaa_regs(unsigned samples, struct demo_msaa_regs *r)
{
    *r = (struct demo_msaa_regs){0};
    unsigned max_dist = 0;
    if (samples == 2) {
        /* the two positions, repeated for samples 2 and 3 of each dword */
        const int8_t l[4][2] = { { 4, 4 }, { -4, -4 }, { 4, 4 }, { -4, -4 } };
        (void)locs_2x;
        r->nlocs = 4;
        for (unsigned i = 0; i < 4; i++)
            r->locs[i] = pack_locs(l);
        max_dist = MAX_DIST_2X;
    } else if (samples == 4) {
        r->nlocs = 4;
        for (unsigned i = 0; i < 4; i++)
            r->locs[i] = pack_locs(locs_4x);
        max_dist = MAX_DIST_4X;
    } else if (samples == 8) {
        /* samples 0-3 then 4-7, the pair repeated for the four pixels of a quad */
        r->nlocs = 8;
        for (unsigned i = 0; i < 8; i += 2) {
            r->locs[i] = pack_locs(&locs_8x[0]);
            r->locs[i + 1] = pack_locs(&locs_8x[4]);
        }
        max_dist = MAX_DIST_8X;
    }
    bool msaa = samples > 1;
    r->line_cntl = S_PA_SC_LINE_CNTL__LAST_PIXEL(1) | S_PA_SC_LINE_CNTL__EXPAND_LINE_WIDTH(msaa);
    r->aa_config = msaa ? S_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(log2u(samples)) |
                              S_PA_SC_AA_CONFIG__MAX_SAMPLE_DIST(max_dist)
                        : 0;
    r->mode_cntl_1 = S_PA_SC_MODE_CNTL_1__FORCE_EOV_CNTDWN_ENABLE(1) |
                     S_PA_SC_MODE_CNTL_1__FORCE_EOV_REZ_ENABLE(1);
    /* sample mask 0xFF for each pixel of the quad (evergreen_emit_sample_mask) */
    r->aa_mask = S_PA_SC_AA_MASK__AA_MASK_ULC(0xFF) | S_PA_SC_AA_MASK__AA_MASK_URC(0xFF) |
                 S_PA_SC_AA_MASK__AA_MASK_LLC(0xFF) | S_PA_SC_AA_MASK__AA_MASK_LRC(0xFF);
    r->mode_cntl_0 = S_PA_SC_MODE_CNTL_0__MSAA_ENABLE(msaa) |
                     S_PA_SC_MODE_CNTL_0__VPORT_SCISSOR_ENABLE(1);
}

/* --- the draw ------------------------------------------------------------ */

static uint32_t fbits(float f)
{
    union { float f; uint32_t u; } c = { .f = f };
    return c.u;
}

static void emit_vertex_buffer(struct cedar_cmdbuf *cb, const struct demo_programs *progs,
                               unsigned first_vertex, unsigned num_vertices)
{
    const struct demo_shader_facts *sh = &progs->s;
    uint64_t offset = (uint64_t)first_vertex * sh->vtx_stride;
    uint64_t size = (uint64_t)num_vertices * sh->vtx_stride;
    uint32_t res[8] = {
        (uint32_t)offset,                                    /* WORD0: base, low 32 bits */
        (uint32_t)(size - 1),                                /* WORD1: size - 1 */
        S_SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI((offset >> 32) & 0xFF) |
            S_SQ_VTX_CONSTANT_WORD2__STRIDE(sh->vtx_stride),
        S_SQ_VTX_CONSTANT_WORD3__DST_SEL_X(V_SQ_SEL__SQ_SEL_X) |
            S_SQ_VTX_CONSTANT_WORD3__DST_SEL_Y(V_SQ_SEL__SQ_SEL_Y) |
            S_SQ_VTX_CONSTANT_WORD3__DST_SEL_Z(V_SQ_SEL__SQ_SEL_Z) |
            S_SQ_VTX_CONSTANT_WORD3__DST_SEL_W(V_SQ_SEL__SQ_SEL_W),
        0, 0, 0,
        S_SQ_VTX_CONSTANT_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER),
    };
    /* resources are 8 dwords each from the start of the resource space */
    uint32_t reg = SPACE_RESOURCE_START + sh->vtx_resource * 8u * 4u;
    cedar_cmdbuf_set_resource(cb, reg, res, 8);
    cedar_cmdbuf_reloc(cb, demo_buf_handle(CEDAR_DEMO_BUF_VERTICES), RADEON_GEM_DOMAIN_VRAM, 0, 0);
}

static void emit_program_start(struct cedar_cmdbuf *cb, uint32_t reg, uint64_t offset)
{
    cedar_cmdbuf_set_context_reg(cb, reg, (uint32_t)(offset >> 8));
    cedar_cmdbuf_reloc(cb, demo_buf_handle(CEDAR_DEMO_BUF_SHADERS), RADEON_GEM_DOMAIN_VRAM, 0, 0);
}

void demo_emit_draw(struct cedar_cmdbuf *cb, const struct cedar_demo_plan *plan,
                    const struct demo_programs *progs, enum demo_prim prim,
                    enum demo_cb_mode mode)
{
    uint32_t prim_type = prim == DEMO_PRIM_TRIANGLE ? V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST
                                                    : V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST;
    demo_emit_draw_state(cb, plan, progs, (unsigned)prim * 3u, 3, prim_type, mode);
    /* three vertices, indices generated by the VGT */
    uint32_t draw[2] = { 3, S_VGT_DRAW_INITIATOR__SOURCE_SELECT(V_VGT_DI_SRC_SEL__DI_SRC_SEL_AUTO_INDEX) };
    cedar_cmdbuf_packet(cb, PKT3_DRAW_INDEX_AUTO, draw, 2);
}

void demo_emit_draw_state(struct cedar_cmdbuf *cb, const struct cedar_demo_plan *plan,
                          const struct demo_programs *progs, unsigned first_vertex,
                          unsigned num_vertices, uint32_t prim_type, enum demo_cb_mode mode)
{
    const struct cedar_demo_config *cfg = &plan->cfg;
    unsigned w = cfg->width, h = cfg->height;

    /* No depth buffer. */
    uint32_t db[2] = { 0, 0 };
    cedar_cmdbuf_set_context_regs(cb, REG_DB_Z_INFO, db, 2);

    uint32_t win[2] = { S_PA_SC_SCISSOR_TL__TL_X(0) | S_PA_SC_SCISSOR_TL__TL_Y(0),
                        S_PA_SC_SCISSOR_BR__BR_X(w) | S_PA_SC_SCISSOR_BR__BR_Y(h) };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_SC_WINDOW_SCISSOR_TL, win, 2);

    struct demo_msaa_regs m;
    demo_msaa_regs(plan->layout.color.samples, &m);
    if (m.nlocs)
        cedar_cmdbuf_set_context_regs(cb, REG_PA_SC_AA_SAMPLE_LOCS_0, m.locs, m.nlocs);
    uint32_t aa[2] = { m.line_cntl, m.aa_config };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_SC_LINE_CNTL, aa, 2);
    cedar_cmdbuf_set_context_reg(cb, REG_PA_SC_MODE_CNTL_1, m.mode_cntl_1);

    emit_vertex_buffer(cb, progs, first_vertex, num_vertices);

    cedar_cmdbuf_set_context_reg(cb, REG_VGT_MULTI_PRIM_IB_RESET_EN, 0);
    uint32_t indx[2] = { 0, 0 };
    cedar_cmdbuf_set_context_regs(cb, REG_VGT_INDX_OFFSET, indx, 2);
    cedar_cmdbuf_set_context_reg(cb, REG_PA_SC_AA_MASK, m.aa_mask);
    cedar_cmdbuf_set_context_reg(cb, REG_SX_ALPHA_TEST_CONTROL, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_SX_ALPHA_REF, 0);
    uint32_t blend_color[4] = { 0, 0, 0, 0 };
    cedar_cmdbuf_set_context_regs(cb, REG_CB_BLEND_RED, blend_color, 4);

    /* ROP3 0xCC = copy the source (Mesa's default) */
    uint32_t cb_mode = mode == DEMO_CB_RESOLVE ? V_CB_MODE__CB_RESOLVE : V_CB_MODE__CB_NORMAL;
    cedar_cmdbuf_set_context_reg(cb, REG_CB_COLOR_CONTROL,
                                 S_CB_COLOR_CONTROL__MODE(cb_mode) | S_CB_COLOR_CONTROL__ROP3(0xCC));
    /* alpha to mask off, dither offsets 2 (Mesa's default 0xAA00) */
    cedar_cmdbuf_set_context_reg(cb, REG_DB_ALPHA_TO_MASK,
                                 S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET0(2) |
                                     S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET1(2) |
                                     S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET2(2) |
                                     S_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET3(2));
    uint32_t blend[8] = {0};   /* blending off for every target */
    cedar_cmdbuf_set_context_regs(cb, REG_CB_BLEND0_CONTROL, blend, 8);
    uint32_t masks[2] = { S_CB_TARGET_MASK__TARGET0_ENABLE(0xF),
                          S_CB_SHADER_MASK__OUTPUT0_ENABLE(0xF) };
    cedar_cmdbuf_set_context_regs(cb, REG_CB_TARGET_MASK, masks, 2);

    /* Clipping off (the real card's demo): the triangle lies inside the
     * viewport, and the resolve rectangle covers it exactly. */
    cedar_cmdbuf_set_context_reg(cb, REG_PA_CL_CLIP_CNTL,
                                 S_PA_CL_CLIP_CNTL__CLIP_DISABLE(1) |
                                     S_PA_CL_CLIP_CNTL__DX_LINEAR_ATTR_CLIP_ENA(1));
    cedar_cmdbuf_set_context_reg(cb, REG_PA_CL_VS_OUT_CNTL, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_REUSE_OFF, 0);

    uint32_t db_render[2] = { 0, S_DB_COUNT_CONTROL__ZPASS_INCREMENT_DISABLE(1) };
    cedar_cmdbuf_set_context_regs(cb, REG_DB_RENDER_CONTROL, db_render, 2);
    /* no HiZ / HiS: FORCE_HIZ_ENABLE and FORCE_HIS_ENABLE0 "disable" (Mesa 0x28) */
    cedar_cmdbuf_set_context_reg(cb, REG_DB_RENDER_OVERRIDE,
                                 S_DB_RENDER_OVERRIDE__FORCE_HIZ_ENABLE(2) |
                                     S_DB_RENDER_OVERRIDE__FORCE_HIS_ENABLE0(2));
    cedar_cmdbuf_set_context_reg(cb, REG_DB_SHADER_CONTROL,
                                 S_DB_SHADER_CONTROL__Z_ORDER(V_DB_SHADER_CONTROL_Z_ORDER__EARLY_Z_THEN_LATE_Z) |
                                     S_DB_SHADER_CONTROL__DUAL_EXPORT_ENABLE(0));
    cedar_cmdbuf_set_context_reg(cb, REG_DB_DEPTH_CONTROL, 0);

    cedar_cmdbuf_set_context_reg(cb, REG_SPI_INTERP_CONTROL_0, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_PA_SC_MODE_CNTL_0, m.mode_cntl_0);
    /* pixel centres at .5, 1/256-pixel vertex precision (Mesa 0x29) */
    cedar_cmdbuf_set_context_reg(cb, REG_PA_SU_VTX_CNTL,
                                 S_PA_SU_VTX_CNTL__PIX_CENTER_HALF(1) |
                                     S_PA_SU_VTX_CNTL__QUANT_MODE(V_PA_SU_QUANT_MODE__X_1_256TH));
    /* no culling, both faces filled as triangles */
    cedar_cmdbuf_set_context_reg(cb, REG_PA_SU_SC_MODE_CNTL,
                                 S_PA_SU_SC_MODE_CNTL__POLYMODE_FRONT_PTYPE(2) |
                                     S_PA_SU_SC_MODE_CNTL__POLYMODE_BACK_PTYPE(2) |
                                     S_PA_SU_SC_MODE_CNTL__PROVOKING_VTX_LAST(1));

    uint32_t vsc[2] = { S_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(1),
                        S_PA_SC_SCISSOR_BR__BR_X(w) | S_PA_SC_SCISSOR_BR__BR_Y(h) };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_SC_VPORT_SCISSOR_0_TL, vsc, 2);
    /* no guard band (clipping is off anyway) */
    uint32_t gb[4] = { fbits(1.0f), fbits(1.0f), fbits(1.0f), fbits(1.0f) };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_CL_GB_VERT_CLIP_ADJ, gb, 4);
    /* Viewport with y flipped: NDC +y is the top row of the image. */
    uint32_t vp[6] = { fbits(w / 2.0f), fbits(w / 2.0f), fbits(-(h / 2.0f)), fbits(h / 2.0f),
                       fbits(0.5f), fbits(0.5f) };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_CL_VPORT_XSCALE_0, vp, 6);
    uint32_t z[2] = { fbits(0.0f), fbits(1.0f) };
    cedar_cmdbuf_set_context_regs(cb, REG_PA_SC_VPORT_ZMIN_0, z, 2);

    /* Shaders: the fetch shader reads the vertex buffer, the VS exports the
     * position and one parameter (the colour, semantic 0), the PS
     * interpolates it (perspective, centre) and exports one colour. */
    const struct demo_shader_facts *sh = &progs->s;
    uint32_t sem[2] = { sh->vtx_semantic[0], sh->vtx_semantic[1] };
    cedar_cmdbuf_set_context_regs(cb, REG_SQ_VTX_SEMANTIC_0, sem, 2);
    emit_program_start(cb, REG_SQ_PGM_START_FS, progs->fs_offset);
    cedar_cmdbuf_set_context_reg(cb, REG_SQ_PGM_RESOURCES_FS,
                                 S_SQ_PGM_RESOURCES_FS__NUM_GPRS(sh->fs_num_gprs));
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_STRMOUT_CONFIG, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_SPI_PS_INPUT_CNTL(sh->color_param),
                                 S_SPI_PS_INPUT_CNTL__SEMANTIC(sh->color_semantic));
    uint32_t ps_in[2] = { S_SPI_PS_IN_CONTROL_0__NUM_INTERP(sh->ps_num_interp) |
                              S_SPI_PS_IN_CONTROL_0__PERSP_GRADIENT_ENA(1),
                          0 };
    cedar_cmdbuf_set_context_regs(cb, REG_SPI_PS_IN_CONTROL_0, ps_in, 2);
    cedar_cmdbuf_set_context_reg(cb, REG_SPI_BARYC_CNTL,
                                 S_SPI_BARYC_CNTL__PERSP_CENTER_ENA(sh->ps_persp_center));
    cedar_cmdbuf_set_context_reg(cb, REG_SPI_INPUT_Z, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_SQ_PGM_EXPORTS_PS,
                                 S_SQ_PGM_EXPORTS_PS__EXPORT_COLORS(sh->ps_color_exports));
    emit_program_start(cb, REG_SQ_PGM_START_PS, progs->ps_offset);
    cedar_cmdbuf_set_context_reg(cb, REG_SQ_PGM_RESOURCES_PS,
                                 S_SQ_PGM_RESOURCES_PS__NUM_GPRS(sh->ps_num_gprs) |
                                     S_SQ_PGM_RESOURCES_PS__STACK_SIZE(sh->ps_stack_size) |
                                     S_SQ_PGM_RESOURCES_PS__DX10_CLAMP(1) |
                                     S_SQ_PGM_RESOURCES_PS__PRIME_CACHE_ON_DRAW(1));
    uint32_t out_id[10] = {0};
    /* four semantics per SPI_VS_OUT_ID register, by parameter index */
    out_id[sh->color_param / 4] = sh->color_semantic << (8 * (sh->color_param % 4));
    cedar_cmdbuf_set_context_regs(cb, REG_SPI_VS_OUT_ID_0, out_id, 10);
    cedar_cmdbuf_set_context_reg(cb, REG_SPI_VS_OUT_CONFIG,
                                 S_SPI_VS_OUT_CONFIG__VS_EXPORT_COUNT(sh->vs_export_count - 1));
    emit_program_start(cb, REG_SQ_PGM_START_VS, progs->vs_offset);
    cedar_cmdbuf_set_context_reg(cb, REG_SQ_PGM_RESOURCES_VS,
                                 S_SQ_PGM_RESOURCES_VS__NUM_GPRS(sh->vs_num_gprs) |
                                     S_SQ_PGM_RESOURCES_VS__STACK_SIZE(sh->vs_stack_size) |
                                     S_SQ_PGM_RESOURCES_VS__DX10_CLAMP(1));
    /* the VS exports x, y, z, w: the viewport transform divides by w */
    cedar_cmdbuf_set_context_reg(cb, REG_PA_CL_VTE_CNTL,
                                 S_PA_CL_VTE_CNTL__VPORT_X_SCALE_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VPORT_X_OFFSET_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VPORT_Y_SCALE_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VPORT_Y_OFFSET_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VPORT_Z_SCALE_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VPORT_Z_OFFSET_ENA(1) |
                                     S_PA_CL_VTE_CNTL__VTX_W0_FMT(1));
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_VTX_CNT_EN, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_SHADER_STAGES_EN, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_GS_MODE, 0);
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_PRIMITIVEID_EN, 0);
    uint32_t start_inst = 0;
    cedar_cmdbuf_set_ctl_const(cb, REG_SQ_VTX_START_INST_LOC, &start_inst, 1);

    cedar_cmdbuf_set_config_reg(cb, REG_VGT_PRIMITIVE_TYPE, prim_type);
    uint32_t one = 1;
    cedar_cmdbuf_packet(cb, PKT3_NUM_INSTANCES, &one, 1);
}
