/* --trace: each packet as the command processor or the DMA ring runs it,
 * with the register state that matters to it (names from the database). */
#include <inttypes.h>

#include "vc_internal.h"

void vc_trace_packet(FILE *f, const struct eg_pm4_packet *p)
{
    switch (p->type) {
    case V_PM4_TYPE__TYPE2:
        fprintf(f, "[0x%04zX] type-2 filler\n", p->offset);
        return;
    case V_PM4_TYPE__TYPE0:
        fprintf(f, "[0x%04zX] type-0 count=%u\n", p->offset, p->count);
        return;
    default:
        break;
    }
    const uint32_t *d = p->payload;
    fprintf(f, "[0x%04zX] %s count=%u\n", p->offset, p->def ? p->def->name : "PACKET3?", p->count);
    switch (p->opcode) {
    case PKT3_NOP:
        if (p->npayload == 1)
            fprintf(f, "        relocation index %u\n", d[0] / 4);
        break;
    case PKT3_CP_DMA:
        fprintf(f, "        %s 0x%02X%08X -> 0x%02X%08X, %u bytes\n",
                G_CP_DMA_CP_DMA_INFO__SRC_SEL(d[1]) == V_CP_DMA_SRC_SEL__SRC_DATA ? "fill" : "copy",
                G_CP_DMA_CP_DMA_INFO__SRC_ADDR_HI(d[1]), d[0], d[3] & 0xFF, d[2],
                G_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(d[4]));
        break;
    case PKT3_SURFACE_SYNC:
        fprintf(f, "        CP_COHER_CNTL 0x%08X size 0x%08X base 0x%08X (x256)\n", d[0], d[1], d[2]);
        break;
    case PKT3_EVENT_WRITE_EOP:
        fprintf(f, "        event 0x%02X, address 0x%02X%08X, data-sel %u, data 0x%08X%08X\n",
                G_EVENT_CNTL__EVENT_TYPE(d[0]), G_EVENT_WRITE_EOP_EOP_CNTL__ADDRESS_HI(d[2]), d[1],
                G_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(d[2]), d[4], d[3]);
        break;
    case PKT3_EVENT_WRITE:
        fprintf(f, "        event 0x%02X index %u\n", G_EVENT_CNTL__EVENT_TYPE(d[0]), G_EVENT_CNTL__EVENT_INDEX(d[0]));
        break;
    case PKT3_MEM_WRITE:
        fprintf(f, "        address 0x%02X%08X <- 0x%08X%08X\n", d[1] & 0xFF, d[0], d[3], d[2]);
        break;
    default:
        break;
    }
}

void vc_trace_reg(FILE *f, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    (void)p;
    if (w->reg)
        fprintf(f, "        %-32s (0x%05X) = 0x%08X\n", w->reg->name, w->offset, w->value);
    else
        fprintf(f, "        %-32s (0x%05X) = 0x%08X\n", "?", w->offset, w->value);
}

void vc_trace_draw(FILE *f, const struct vc_regs *r, const struct vc_draw *d)
{
    fprintf(f, "        draw: %u indices, %u instance(s), primitive type %u, index type %u, initiator 0x%08X\n",
            d->num_indices, d->num_instances, d->prim_type, d->index_type, d->draw_initiator);
    if (d->index_addr)
        fprintf(f, "        indices at 0x%010" PRIX64 "\n", d->index_addr);
    uint32_t aa = vc_reg_peek(r, REG_PA_SC_AA_CONFIG);
    fprintf(f, "        samples %u, CB_COLOR_CONTROL 0x%08X, CB_TARGET_MASK 0x%08X, VS at 0x%010" PRIX64
            ", PS at 0x%010" PRIX64 "\n", 1u << G_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(aa),
            vc_reg_peek(r, REG_CB_COLOR_CONTROL), vc_reg_peek(r, REG_CB_TARGET_MASK),
            (uint64_t)vc_reg_peek(r, REG_SQ_PGM_START_VS) << 8, (uint64_t)vc_reg_peek(r, REG_SQ_PGM_START_PS) << 8);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t info = vc_reg_peek(r, REG_CB_COLOR_INFO(i));
        if (G_CB_COLOR_INFO__FORMAT(info) == V_CB_FORMAT__COLOR_INVALID)
            continue;
        fprintf(f, "        CB%u: base 0x%010" PRIX64 " format %u array mode %u pitch %u slice %u attrib 0x%08X"
                " cmask 0x%010" PRIX64 " fmask 0x%010" PRIX64 "\n", i,
                (uint64_t)vc_reg_peek(r, REG_CB_COLOR_BASE(i)) << 8, G_CB_COLOR_INFO__FORMAT(info),
                G_CB_COLOR_INFO__ARRAY_MODE(info), (G_CB_COLOR_PITCH__TILE_MAX(vc_reg_peek(r, REG_CB_COLOR_PITCH(i))) + 1) * 8,
                vc_reg_peek(r, REG_CB_COLOR_SLICE(i)), vc_reg_peek(r, REG_CB_COLOR_ATTRIB(i)),
                (uint64_t)vc_reg_peek(r, REG_CB_COLOR_CMASK(i)) << 8, (uint64_t)vc_reg_peek(r, REG_CB_COLOR_FMASK(i)) << 8);
    }
}

void vc_trace_dma(FILE *f, size_t offset, const uint32_t *pkt, const char *what)
{
    const struct eg_enum *e = eg_enum_find_name("DMA_CMD");
    const char *name = e ? eg_enum_value_name(e, G_DMA_HEADER__CMD(pkt[0])) : NULL;
    fprintf(f, "[0x%04zX] %s sub 0x%02X count=%u%s%s\n", offset, name ? name : "DMA?", G_DMA_HEADER__SUB_CMD(pkt[0]),
            G_DMA_HEADER__COUNT(pkt[0]), what ? " " : "", what ? what : "");
}
