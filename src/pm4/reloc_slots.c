/* Which operands of a packet carry a buffer address, in the order the radeon
 * kernel takes their relocations (the NOPs after the packet).
 * Source: Linux drivers/gpu/drm/radeon/evergreen_cs.c: evergreen_cs_handle_reg
 * (registers) and evergreen_packet3_check (packets); the fields it reads are
 * in regs/pm4_extra.regs. */
#include <stdio.h>
#include <string.h>

#include "eg_regs.h"
#include "pm4_internal.h"

struct collector {
    unsigned n, skip, max;
    struct eg_pm4_slot *out;
};

static void add(struct collector *c, const struct eg_pm4_slot *s)
{
    if (c->out && c->n >= c->skip && c->n - c->skip < c->max)
        c->out[c->n - c->skip] = *s;
    c->n++;
}

/* Name of payload dword i in the packet's database description, if any. */
static const char *operand_name(const struct eg_pm4_packet *pkt, unsigned i, const char *fallback)
{
    if (pkt->def)
        for (unsigned k = 0; k < pkt->def->ndwords; k++)
            if (pkt->def->dwords[k].index == (int)i && pkt->def->dwords[k].name)
                return pkt->def->dwords[k].name;
    return fallback;
}

static void add_operand(struct collector *c, const struct eg_pm4_packet *pkt, unsigned i,
                        const char *fallback)
{
    if (i >= pkt->npayload) /* a short packet (lenient counts): nothing to patch */
        return;
    struct eg_pm4_slot s = { .payload_index = i, .what = operand_name(pkt, i, fallback) };
    add(c, &s);
}

/* CB_COLORn_<suffix> for any n. */
static bool is_cb_color_reg(const char *name, const char *suffix)
{
    unsigned n;
    int end = 0;
    /* most registers are not CB_COLORn_*: no sscanf for them (it is per
     * register of every SET_* packet of every CS) */
    if (strncmp(name, "CB_COLOR", 8) != 0)
        return false;
    if (sscanf(name, "CB_COLOR%u_%n", &n, &end) != 1 || end == 0)
        return false;
    return strcmp(name + end, suffix) == 0;
}

/* evergreen_cs_handle_reg: the registers that call radeon_cs_packet_next_reloc. */
static bool reg_takes_reloc(const struct eg_reg *r, const struct eg_pm4_opts *opts)
{
    if (r->flags & EG_REGF_RELOC)
        return true;
    /* The kernel reads the buffer's tiling flags from the relocation of
     * CB_COLORn_ATTRIB always, of CB_COLORn_INFO and DB_Z_INFO only without
     * RADEON_CS_KEEP_TILING_FLAGS. */
    if ((r->flags & EG_REGF_RELOC_TILING_ALWAYS) || is_cb_color_reg(r->name, "ATTRIB"))
        return true;
    if (opts->tiling_from_relocs &&
        ((r->flags & EG_REGF_RELOC_TILING) || is_cb_color_reg(r->name, "INFO") ||
         strcmp(r->name, "DB_Z_INFO") == 0))
        return true;
    return false;
}

static void register_slots(struct collector *c, const struct eg_pm4_packet *pkt,
                           const struct eg_pm4_opts *opts)
{
    if (pkt->npayload < 2)
        return;
    uint32_t base = pkt->space->start + pkt->payload[0] * 4u;
    for (size_t i = 1; i < pkt->npayload; i++) {
        uint32_t off = base + (uint32_t)(i - 1) * 4u;
        const struct eg_reg *r = eg_pm4_reg_in_space(off, pkt->space);
        if (r && reg_takes_reloc(r, opts)) {
            struct eg_pm4_slot s = { .payload_index = (unsigned)i, .reg_offset = off, .reg = r,
                                     .what = r->name };
            add(c, &s);
        }
    }
}

/* Descriptor words (SQ_TEX_RESOURCE_WORDn / SQ_VTX_CONSTANT_WORDn). */
enum { RES_DWORDS = 8, RES_WORD0 = 0, RES_WORD2 = 2, RES_WORD3 = 3, RES_WORD7 = 7 };

static void resource_slot(struct collector *c, const struct eg_pm4_packet *pkt, size_t i,
                          const char *what, bool optional)
{
    uint32_t off = pkt->space->start + pkt->payload[0] * 4u + (uint32_t)(i - 1) * 4u;
    const struct eg_reg *r = eg_pm4_reg_in_space(off, pkt->space);
    struct eg_pm4_slot s = { .payload_index = (unsigned)i, .reg_offset = off, .reg = r,
                             .what = what, .optional = optional };
    add(c, &s);
}

static void resource_slots(struct collector *c, const struct eg_pm4_packet *pkt)
{
    for (size_t g = 1; g + RES_DWORDS <= pkt->npayload; g += RES_DWORDS) {
        const uint32_t *w = pkt->payload + g;
        switch (G_SQ_TEX_RESOURCE_WORD7__TYPE(w[RES_WORD7])) {
        case V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_TEXTURE: {
            unsigned dim = G_SQ_TEX_RESOURCE_WORD0__DIM(w[RES_WORD0]);
            bool msaa = dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
            resource_slot(c, pkt, g + RES_WORD2, "texture BASE_ADDRESS", false);
            resource_slot(c, pkt, g + RES_WORD3, "texture MIP_ADDRESS", msaa && w[RES_WORD3] == 0);
            break;
        }
        case V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER:
            resource_slot(c, pkt, g + RES_WORD0, "vertex buffer BASE_ADDRESS", false);
            break;
        default: /* the kernel rejects invalid descriptors; no address */
            break;
        }
    }
}

static void packet_slots(struct collector *c, const struct eg_pm4_packet *pkt)
{
    const uint32_t *p = pkt->payload;
    size_t n = pkt->npayload;
    switch (pkt->opcode) {
    case PKT3_SET_PREDICATION:
        if (n > 1 && G_RELOC_SET_PREDICATION_HI__PRED_OP(p[1]) != 0)
            add_operand(c, pkt, 0, "START_ADDRESS_LO");
        break;
    case PKT3_INDEX_BASE:
    case PKT3_DRAW_INDEX:
    case PKT3_DISPATCH_INDIRECT:
    case PKT3_MEM_WRITE:
        add_operand(c, pkt, 0, "ADDRESS_LO");
        break;
    case PKT3_DRAW_INDEX_2:
    case PKT3_SET_BASE:
    case PKT3_EVENT_WRITE_EOP:
    case PKT3_EVENT_WRITE_EOS:
        add_operand(c, pkt, 1, "ADDRESS_LO");
        break;
    case PKT3_EVENT_WRITE:
        if (n > 1) /* the 3-dword form carries an address */
            add_operand(c, pkt, 1, "ADDRESS_LO");
        break;
    case PKT3_WAIT_REG_MEM:
        if (n > 0 && G_RELOC_WAIT_REG_MEM_FUNC__MEM_SPACE(p[0]))
            add_operand(c, pkt, 1, "POLL_ADDRESS_LO");
        break;
    case PKT3_CP_DMA:
        if (n > 4) {
            if (!G_RELOC_CP_DMA_COMMAND__SAS(p[4]) &&
                G_RELOC_CP_DMA_INFO__SRC_SEL(p[1]) == V_RELOC_CP_DMA_SEL__MEMORY)
                add_operand(c, pkt, 0, "SRC_ADDR_LO");
            if (!G_RELOC_CP_DMA_COMMAND__DAS(p[4]) &&
                G_RELOC_CP_DMA_INFO__DST_SEL(p[1]) == V_RELOC_CP_DMA_SEL__MEMORY)
                add_operand(c, pkt, 2, "DST_ADDR_LO");
        }
        break;
    case PKT3_SURFACE_SYNC:
        /* CP_COHER_SIZE all ones with CP_COHER_BASE 0 means "every cache":
         * no address. */
        if (n > 2 && !(p[1] == UINT32_MAX && p[2] == 0))
            add_operand(c, pkt, 2, "CP_COHER_BASE");
        break;
    case PKT3_STRMOUT_BUFFER_UPDATE:
        if (n > 0 && G_RELOC_STRMOUT_UPDATE_CNTL__STORE_FILLED_SIZE(p[0]))
            add_operand(c, pkt, 1, "DST_ADDRESS_LO");
        if (n > 0 && G_RELOC_STRMOUT_UPDATE_CNTL__SOURCE_SELECT(p[0]) ==
                         V_RELOC_STRMOUT_SOURCE__FROM_MEMORY)
            add_operand(c, pkt, 3, "SRC_ADDRESS_LO");
        break;
    case PKT3_COPY_DW:
        if (n > 0 && G_RELOC_COPY_DW_SEL__SRC_MEM(p[0]))
            add_operand(c, pkt, 1, "SRC_ADDR_LO");
        if (n > 0 && G_RELOC_COPY_DW_SEL__DST_MEM(p[0]))
            add_operand(c, pkt, 3, "DST_ADDR_LO");
        break;
    default:
        break;
    }
}

unsigned eg_pm4_collect_slots(const struct eg_pm4_packet *pkt, const struct eg_pm4_opts *opts,
                              unsigned skip, struct eg_pm4_slot *out, unsigned max)
{
    static const struct eg_pm4_opts defaults;
    struct collector c = { .skip = skip, .max = max, .out = out };
    if (!opts)
        opts = &defaults;
    if (pkt->type != V_PM4_TYPE__TYPE3 || pkt->opcode == PKT3_NOP)
        return 0;
    if (pkt->opcode == PKT3_SET_RESOURCE && pkt->space)
        resource_slots(&c, pkt);
    else if ((pkt->opcode == PKT3_SET_CONFIG_REG || pkt->opcode == PKT3_SET_CONTEXT_REG) &&
             pkt->space)
        register_slots(&c, pkt, opts);
    else
        packet_slots(&c, pkt);
    return c.n;
}

unsigned eg_pm4_reloc_slots(const struct eg_pm4_packet *pkt, const struct eg_pm4_opts *opts,
                            struct eg_pm4_slot *out, unsigned max)
{
    return eg_pm4_collect_slots(pkt, opts, 0, out, max);
}
