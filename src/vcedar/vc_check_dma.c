/* The asynchronous DMA ring's checker, modelled on the radeon kernel's
 * evergreen_dma_cs_parse(): relocations are taken in order, one per buffer
 * operand (no NOPs), every size is checked against its buffer, addresses are
 * patched.  One difference, in both modes: the kernel reads a packet's
 * operands without checking that they lie inside the IB; a packet that runs
 * past the end is rejected here. */
#include <string.h>

#include "vc_internal.h"
#include "vc_check.h"

struct dck {
    uint32_t *ib;
    size_t ndw;
    size_t nrelocs, next;
    const struct vc_reloc_bo *bos;
    struct vc_error *err;
    bool strict;
};

static const char *copy_name(unsigned sub)
{
    static char buf[16];
    const struct eg_enum *e = eg_enum_find_name("DMA_COPY_SUB_CMD");
    const char *n = e ? eg_enum_value_name(e, sub) : NULL;
    if (n)
        return n;
    snprintf(buf, sizeof(buf), "0x%02X", sub);
    return buf;
}

static int next_reloc(struct dck *c, size_t at, const char *what, const struct vc_reloc_bo **out)
{
    if (!c->bos)
        return vc_fail(c->err, VC_E_RELOC_NO_CHUNK, (uint32_t)at, what,
                       "%s needs a relocation but the CS has no RELOCS chunk", what);
    if (c->next >= c->nrelocs)
        return vc_fail(c->err, VC_E_RELOC_RANGE, (uint32_t)at, what,
                       "%s: relocation %zu past the RELOCS chunk (%zu relocations)", what, c->next, c->nrelocs);
    *out = &c->bos[c->next++];
    return 0;
}

static int fits(struct dck *c, size_t at, const char *what, uint64_t off, uint64_t len,
                const struct vc_reloc_bo *bo)
{
    if (off + len <= bo->size)
        return 0;
    return vc_fail(c->err, VC_E_BO_RANGE, (uint32_t)at, what,
                   "DMA %s: bytes 0x%llX..0x%llX past its %llu-byte buffer", what, (unsigned long long)off,
                   (unsigned long long)(off + len - 1), (unsigned long long)bo->size);
}

/* A byte address lo (4-byte aligned part) + hi (bits 0..7): add the buffer. */
static void patch40(uint32_t *lo, uint32_t *hi, const struct vc_reloc_bo *bo, uint32_t lo_mask)
{
    *lo += (uint32_t)(bo->gpu_offset & lo_mask);
    *hi += (uint32_t)(bo->gpu_offset >> 32) & 0xFF;
}

static uint64_t addr40(uint32_t lo, uint32_t hi)
{
    return lo | ((uint64_t)(hi & 0xFF) << 32);
}

/* The total length of a copy packet (evergreen_dma_ib_parse). */
static unsigned copy_len(unsigned sub)
{
    switch (sub) {
    case V_DMA_COPY_SUB_CMD__L2L_DW: return V_DMA_COPY_PACKET_DWORDS__L2L_DW;
    case V_DMA_COPY_SUB_CMD__L2T_T2L: return V_DMA_COPY_PACKET_DWORDS__L2T_T2L;
    case V_DMA_COPY_SUB_CMD__L2L_BYTE: return V_DMA_COPY_PACKET_DWORDS__L2L_BYTE;
    case V_DMA_COPY_SUB_CMD__L2L_PARTIAL: return V_DMA_COPY_PACKET_DWORDS__L2L_PARTIAL;
    case V_DMA_COPY_SUB_CMD__L2L_DW_BROADCAST: return V_DMA_COPY_PACKET_DWORDS__L2L_DW_BROADCAST;
    case V_DMA_COPY_SUB_CMD__L2T_FRAME_TO_FIELD: return V_DMA_COPY_PACKET_DWORDS__L2T_FRAME_TO_FIELD;
    case V_DMA_COPY_SUB_CMD__L2T_T2L_PARTIAL: return V_DMA_COPY_PACKET_DWORDS__L2T_T2L_PARTIAL;
    case V_DMA_COPY_SUB_CMD__L2T_BROADCAST: return V_DMA_COPY_PACKET_DWORDS__L2T_BROADCAST;
    case V_DMA_COPY_SUB_CMD__L2T_T2L_TILE_UNITS: return V_DMA_COPY_PACKET_DWORDS__L2T_T2L_TILE_UNITS;
    case V_DMA_COPY_SUB_CMD__T2T_PARTIAL: return V_DMA_COPY_PACKET_DWORDS__T2T_PARTIAL;
    case V_DMA_COPY_SUB_CMD__L2T_BROADCAST_TILE_UNITS: return V_DMA_COPY_PACKET_DWORDS__L2T_BROADCAST_TILE_UNITS;
    default: return 0;
    }
}

static int dma_copy(struct dck *c, size_t i, unsigned sub, uint64_t count)
{
    uint32_t *ib = c->ib;
    const struct vc_reloc_bo *src, *dst, *dst2;
    const char *name = copy_name(sub);
    uint64_t so, doff, d2o;
    if (next_reloc(c, i, name, &src) || next_reloc(c, i, name, &dst))
        return -1;
    switch (sub) {
    case V_DMA_COPY_SUB_CMD__L2L_DW:
    case V_DMA_COPY_SUB_CMD__L2L_BYTE: {
        uint64_t len = sub == V_DMA_COPY_SUB_CMD__L2L_DW ? count * 4 : count;
        uint32_t mask = sub == V_DMA_COPY_SUB_CMD__L2L_DW ? 0xFFFFFFFCu : 0xFFFFFFFFu;
        so = addr40(ib[i + 2], ib[i + 4]);
        doff = addr40(ib[i + 1], ib[i + 3]);
        if (fits(c, i, "copy source", so, len, src) || fits(c, i, "copy destination", doff, len, dst))
            return -1;
        patch40(&ib[i + 1], &ib[i + 3], dst, mask);
        patch40(&ib[i + 2], &ib[i + 4], src, mask);
        return 0;
    }
    case V_DMA_COPY_SUB_CMD__L2T_T2L:
    case V_DMA_COPY_SUB_CMD__L2T_T2L_TILE_UNITS:
        if (G_DMA_TILED_INFO__DETILE(ib[i + 2])) {   /* tiled source, linear destination */
            so = (uint64_t)ib[i + 1] << 8;
            ib[i + 1] += (uint32_t)(src->gpu_offset >> 8);
            doff = addr40(ib[i + 7], ib[i + 8]);
            patch40(&ib[i + 7], &ib[i + 8], dst, 0xFFFFFFFCu);
        } else {
            so = addr40(ib[i + 7], ib[i + 8]);
            patch40(&ib[i + 7], &ib[i + 8], src, 0xFFFFFFFCu);
            doff = (uint64_t)ib[i + 1] << 8;
            ib[i + 1] += (uint32_t)(dst->gpu_offset >> 8);
        }
        if (fits(c, i, "copy source", so, count * 4, src) || fits(c, i, "copy destination", doff, count * 4, dst))
            return -1;
        return 0;
    case V_DMA_COPY_SUB_CMD__L2L_DW_BROADCAST:
        if (next_reloc(c, i, name, &dst2))
            return -1;
        doff = addr40(ib[i + 1], ib[i + 4]);
        d2o = addr40(ib[i + 2], ib[i + 5]);
        so = addr40(ib[i + 3], ib[i + 6]);
        if (fits(c, i, "copy source", so, count * 4, src) || fits(c, i, "copy destination", doff, count * 4, dst) ||
            fits(c, i, "copy second destination", d2o, count * 4, dst2))
            return -1;
        patch40(&ib[i + 1], &ib[i + 4], dst, 0xFFFFFFFCu);
        patch40(&ib[i + 2], &ib[i + 5], dst2, 0xFFFFFFFCu);
        patch40(&ib[i + 3], &ib[i + 6], src, 0xFFFFFFFCu);
        return 0;
    case V_DMA_COPY_SUB_CMD__L2T_FRAME_TO_FIELD:
    case V_DMA_COPY_SUB_CMD__L2T_BROADCAST:
    case V_DMA_COPY_SUB_CMD__L2T_BROADCAST_TILE_UNITS:
        if (G_DMA_TILED_INFO__DETILE(ib[i + 2]))
            return vc_fail(c->err, VC_E_DMA_PACKET, (uint32_t)i, name, "DMA %s with the detile bit set", name);
        if (next_reloc(c, i, name, &dst2))
            return -1;
        doff = (uint64_t)ib[i + 1] << 8;
        d2o = (uint64_t)ib[i + 2] << 8;
        so = addr40(ib[i + 8], ib[i + 9]);
        if (fits(c, i, "copy source", so, count * 4, src) || fits(c, i, "copy destination", doff, count * 4, dst) ||
            fits(c, i, "copy second destination", d2o, count * 4, dst2))
            return -1;
        ib[i + 1] += (uint32_t)(dst->gpu_offset >> 8);
        ib[i + 2] += (uint32_t)(dst2->gpu_offset >> 8);
        patch40(&ib[i + 8], &ib[i + 9], src, 0xFFFFFFFCu);
        return 0;
    case V_DMA_COPY_SUB_CMD__L2L_PARTIAL:
    case V_DMA_COPY_SUB_CMD__L2T_T2L_PARTIAL:
    case V_DMA_COPY_SUB_CMD__T2T_PARTIAL:
        return vc_fail(c->err, VC_E_DMA_PACKET, (uint32_t)i, name, "DMA copy %s is Cayman only", name);
    default:
        return vc_fail(c->err, VC_E_DMA_PACKET, (uint32_t)i, name, "DMA copy: invalid sub-command 0x%02X", sub);
    }
}

int vc_check_dma(const struct vc_check_cfg *cfg, uint32_t *ib, size_t ndw, size_t nrelocs,
                 const struct vc_reloc_bo *bos, struct vc_error *err)
{
    struct dck c = { .ib = ib, .ndw = ndw, .nrelocs = nrelocs, .bos = bos, .err = err,
                     .strict = cfg->mode == VC_CHECK_STRICT };
    if (err)
        memset(err, 0, sizeof(*err));
    if (ndw == 0)
        return vc_fail(err, VC_E_CHUNKS, 0, "IB", "empty IB");
    size_t i = 0;
    do {
        uint32_t h = ib[i];
        unsigned cmd = G_DMA_HEADER__CMD(h), sub = G_DMA_HEADER__SUB_CMD(h);
        uint64_t count = G_DMA_HEADER__COUNT(h);
        uint64_t len;
        const struct vc_reloc_bo *dst;
        switch (cmd) {
        case V_DMA_CMD__DMA_WRITE:
            if (sub == V_DMA_WRITE_SUB_CMD__WRITE_LINEAR)
                len = V_DMA_OTHER_PACKET_DWORDS__DMA_WRITE_LINEAR + count;
            else if (sub == V_DMA_WRITE_SUB_CMD__WRITE_TILED)
                len = V_DMA_OTHER_PACKET_DWORDS__DMA_WRITE_TILED + count;
            else
                return vc_fail(err, VC_E_DMA_PACKET, (uint32_t)i, "DMA_WRITE",
                               "DMA write: sub-command 0x%02X is neither linear (0) nor tiled (8)", sub);
            break;
        case V_DMA_CMD__DMA_COPY:
            len = copy_len(sub);
            if (!len)
                return vc_fail(err, VC_E_DMA_PACKET, (uint32_t)i, "DMA_COPY",
                               "DMA copy: invalid sub-command 0x%02X", sub);
            break;
        case V_DMA_CMD__DMA_CONSTANT_FILL: len = V_DMA_OTHER_PACKET_DWORDS__DMA_CONSTANT_FILL; break;
        case V_DMA_CMD__DMA_NOP: len = V_DMA_OTHER_PACKET_DWORDS__DMA_NOP; break;
        default:
            return vc_fail(err, VC_E_DMA_PACKET, (uint32_t)i, "DMA", "DMA: command %u not accepted (header 0x%08X)",
                           cmd, h);
        }
        if (len > ndw - i)
            return vc_fail(err, VC_E_PKT_TRUNCATED, (uint32_t)i, "DMA",
                           "DMA packet at dword 0x%zX needs %llu dwords, %zu left in the IB", i,
                           (unsigned long long)len, ndw - i);
        switch (cmd) {
        case V_DMA_CMD__DMA_WRITE: {
            uint64_t off;
            if (next_reloc(&c, i, "DMA_WRITE", &dst))
                return -1;
            if (sub == V_DMA_WRITE_SUB_CMD__WRITE_TILED) {
                off = (uint64_t)ib[i + 1] << 8;
                ib[i + 1] += (uint32_t)(dst->gpu_offset >> 8);
            } else {
                off = addr40(ib[i + 1], ib[i + 2]);
                patch40(&ib[i + 1], &ib[i + 2], dst, 0xFFFFFFFCu);
            }
            if (fits(&c, i, "write destination", off, count * 4, dst))
                return -1;
            break;
        }
        case V_DMA_CMD__DMA_COPY:
            if (dma_copy(&c, i, sub, count))
                return -1;
            break;
        case V_DMA_CMD__DMA_CONSTANT_FILL: {
            if (next_reloc(&c, i, "DMA_CONSTANT_FILL", &dst))
                return -1;
            uint64_t off = ib[i + 1] | ((uint64_t)G_DMA_FILL_ADDR_HI__ADDR_HI(ib[i + 3]) << 32);
            if (fits(&c, i, "fill destination", off, count * 4, dst))
                return -1;
            ib[i + 1] += (uint32_t)(dst->gpu_offset & 0xFFFFFFFCu);
            ib[i + 3] += ((uint32_t)(dst->gpu_offset >> 32) << DMA_FILL_ADDR_HI__ADDR_HI__SHIFT) &
                         DMA_FILL_ADDR_HI__ADDR_HI__MASK;
            break;
        }
        default:
            break;
        }
        i += len;
    } while (i < ndw);
    return 0;
}
