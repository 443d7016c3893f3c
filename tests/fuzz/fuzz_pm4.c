/* The PM4 walker and the DMA-ring walker on any dwords (the first input byte
 * picks the walker and its options).  Besides not crashing, the walks must
 * keep their promises (include/cedar/pm4.h):
 *  - packets are reported front to back, each starting where the previous
 *    one ended, header and payload inside [0, ndw), the last one ending at
 *    ndw when the walk succeeds;
 *  - a failed walk names a dword inside the buffer and says why in one line;
 *  - register writes and address slots point inside their packet's payload,
 *    a register write carries the payload's value and lies in its space;
 *  - the strict walk accepts only what the lenient one accepts, packet for
 *    packet. */
#include <stdbool.h>

#include "cedar/pm4.h"
#include "fuzz_util.h"

struct track {
    const uint32_t *dw;
    size_t ndw, next, packets;
    size_t offsets[64];         /* the first packets' offsets, for the strict/lenient comparison */
    bool lenient, tiling;
    const struct eg_pm4_packet *cur;
};

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct track *t = ctx;
    FUZZ_CHECK(p->offset == t->next, "packet at %zu, expected %zu", p->offset, t->next);
    FUZZ_CHECK(p->offset < t->ndw && p->header == t->dw[p->offset], "packet %zu header", p->offset);
    FUZZ_CHECK(p->type == 0 || p->type == 2 || p->type == 3, "packet %zu type %u", p->offset, p->type);
    if (p->type == 2) {
        FUZZ_CHECK(p->npayload == 0, "type-2 packet with a payload");
        t->next = p->offset + 1;
    } else {
        FUZZ_CHECK(p->npayload == (size_t)p->count + 1, "payload %zu for count %u", p->npayload, p->count);
        FUZZ_CHECK(p->payload == t->dw + p->offset + 1, "payload pointer of packet %zu", p->offset);
        FUZZ_CHECK(p->npayload <= t->ndw - p->offset - 1, "packet %zu runs past the buffer", p->offset);
        t->next = p->offset + 1 + p->npayload;
    }
    if (p->type == 3 && p->def && p->def->count_min >= 0 && !t->lenient)
        FUZZ_CHECK((int)p->count >= p->def->count_min && (int)p->count <= p->def->count_max,
                   "strict walk passed %s with count %u", p->def->name, p->count);
    if (p->type == 3) {
        struct eg_pm4_slot slots[64];
        struct eg_pm4_opts o = { .lenient_counts = t->lenient, .tiling_from_relocs = t->tiling };
        unsigned n = eg_pm4_reloc_slots(p, &o, slots, 64);
        FUZZ_CHECK(n == p->nslots || p->opcode == 0x10, "packet %zu: %u slots, walker said %u", p->offset, n,
                   p->nslots);
        for (unsigned k = 0; k < n && k < 64; k++) {
            FUZZ_CHECK(slots[k].payload_index < p->npayload, "packet %zu slot %u at payload %u of %zu", p->offset,
                       k, slots[k].payload_index, p->npayload);
            FUZZ_CHECK(slots[k].what != NULL, "slot without a name");
        }
    }
    if (t->packets < 64)
        t->offsets[t->packets] = p->offset;
    t->packets++;
    t->cur = p;
    return 0;
}

static int on_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    struct track *t = ctx;
    FUZZ_CHECK(p == t->cur, "register write outside its packet's callbacks");
    FUZZ_CHECK(w->payload_index < p->npayload, "register write at payload %u of %zu", w->payload_index,
               p->npayload);
    FUZZ_CHECK(p->payload[w->payload_index] == w->value, "register value differs from the payload");
    if (w->space)
        FUZZ_CHECK(w->offset >= w->space->start && w->offset < w->space->end,
                   "register 0x%X outside its space %s", w->offset, w->space->name);
    if (w->reg)
        FUZZ_CHECK(w->reg->offset == w->offset, "register entry for another offset");
    return 0;
}

static int on_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    (void)ctx;
    FUZZ_CHECK(r->nop_offset == nop->offset && r->value == nop->payload[0] && r->index == r->value / 4,
               "relocation NOP fields");
    if (r->tied) {
        FUZZ_CHECK(r->target && r->packet_offset < nop->offset, "a tied relocation after its packet");
        FUZZ_CHECK(r->slot.payload_index < r->target->npayload, "relocation patches payload %u of %zu",
                   r->slot.payload_index, r->target->npayload);
    }
    return 0;
}

static int walk(const uint32_t *dw, size_t ndw, bool tiling, bool lenient, struct track *t)
{
    memset(t, 0, sizeof *t);
    t->dw = dw;
    t->ndw = ndw;
    t->lenient = lenient;
    t->tiling = tiling;
    struct eg_pm4_opts o = { .tiling_from_relocs = tiling, .lenient_counts = lenient };
    struct eg_pm4_sink sink = { .ctx = t, .packet = on_packet, .reg = on_reg, .reloc = on_reloc };
    struct eg_pm4_error e;
    int r = eg_pm4_walk(dw, ndw, &o, &sink, &e);
    if (r == 0) {
        FUZZ_CHECK(t->next == ndw, "walk ended at %zu of %zu", t->next, ndw);
    } else {
        FUZZ_CHECK(r == (int)e.code && e.offset < ndw, "error %d at %zu of %zu", r, e.offset, ndw);
        fuzz_check_line("walk error", e.message);
        FUZZ_CHECK(e.code != EG_PM4_ERR_ABORTED, "no sink stopped the walk");
    }
    return r;
}

static int on_dma(void *ctx, const struct eg_dma_packet *p)
{
    struct track *t = ctx;
    FUZZ_CHECK(p->offset == t->next && p->offset < t->ndw && p->header == t->dw[p->offset],
               "DMA packet at %zu, expected %zu", p->offset, t->next);
    FUZZ_CHECK(p->payload == t->dw + p->offset + 1 && p->npayload <= t->ndw - p->offset - 1,
               "DMA packet %zu runs past the buffer", p->offset);
    t->next = p->offset + 1 + p->npayload;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    uint8_t mode = fuzz_u8(&in);
    size_t ndw;
    uint32_t *dw = fuzz_rest_dwords(&in, &ndw);
    struct track t;
    if (mode & 0x80) {
        memset(&t, 0, sizeof t);
        t.dw = dw;
        t.ndw = ndw;
        struct eg_pm4_error e;
        int r = eg_dma_walk(dw, ndw, on_dma, &t, &e);
        if (r == 0)
            FUZZ_CHECK(t.next == ndw, "DMA walk ended at %zu of %zu", t.next, ndw);
        else {
            FUZZ_CHECK(e.offset < ndw, "DMA error at %zu of %zu", e.offset, ndw);
            fuzz_check_line("DMA walk error", e.message);
        }
    } else {
        bool tiling = mode & 1;
        int strict = walk(dw, ndw, tiling, false, &t);
        size_t strict_packets = t.packets, strict_offsets[64];
        memcpy(strict_offsets, t.offsets, sizeof strict_offsets);
        int lenient = walk(dw, ndw, tiling, true, &t);
        if (strict == 0) {
            FUZZ_CHECK(lenient == 0, "the strict walk accepts what the lenient one refuses");
            FUZZ_CHECK(t.packets == strict_packets &&
                           !memcmp(t.offsets, strict_offsets, sizeof(size_t) * (strict_packets < 64 ? strict_packets : 64)),
                       "strict and lenient walks frame the packets differently");
        }
    }
    free(dw);
    return 0;
}
