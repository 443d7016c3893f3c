/* The asynchronous DMA ring: linear and tiled writes, linear and
 * tiled <-> linear copies, constant fills, fences.  Packet layouts: regs/dma.regs
 * (evergreen_dma_cs_parse in the kernel, evergreen_dma_copy_tile in Mesa);
 * tiled addresses: the shared tiling map (cedar/tiling.h). */
#include <string.h>

#include "cedar/tiling.h"
#include "vc_internal.h"

static uint64_t addr40(uint32_t lo, uint32_t hi)
{
    return lo | ((uint64_t)(hi & 0xFF) << 32);
}

static int dfault(struct vcedar *vc, struct vc_error *err, size_t at, const char *what, const char *text)
{
    vc->stats.exec_errors++;
    if (err && err->code == VC_OK)
        vc_fail(err, VC_E_EXEC, (uint32_t)at, what, "%s", text);
    if (vc->exec_error.code == VC_OK)
        vc_fail(&vc->exec_error, VC_E_EXEC, (uint32_t)at, what, "%s", text);
    if (vc->trace)
        fprintf(vc->trace, "        ! %s\n", text);
    return -1;
}

static uint8_t *dmem(struct vcedar *vc, struct vc_error *err, size_t at, uint64_t addr, uint64_t len,
                     const char *what)
{
    uint8_t *p = vc_memmap_ptr(&vc->mem, addr, len ? len : 1);
    if (!p) {
        char text[160];
        snprintf(text, sizeof(text), "DMA %s: GPU address 0x%llX (+%llu bytes) is not memory", what,
                 (unsigned long long)addr, (unsigned long long)len);
        dfault(vc, err, at, what, text);
    }
    return p;
}

/* The tiled side of an L2T/T2L copy or tiled write: d = dwords 1..6 of the
 * packet (TILED_BASE, DMA_TILED_INFO, _PITCH, _SLICE, _XZ, _Y). */
struct tiled_side {
    struct cedar_tile_map map;
    uint64_t base;
    unsigned x, y, z, bpe;
};

static int tiled_init(struct vcedar *vc, struct vc_error *err, size_t at, const uint32_t *d, struct tiled_side *t)
{
    struct cedar_surface s;
    memset(&s, 0, sizeof(s));
    unsigned mode = G_DMA_TILED_INFO__ARRAY_MODE(d[1]);
    if (mode == V_ARRAY_MODE__ARRAY_2D_TILED_THIN1)
        s.mode = CEDAR_MODE_2D_THIN;
    else if (mode == V_ARRAY_MODE__ARRAY_1D_TILED_THIN1)
        s.mode = CEDAR_MODE_1D_THIN;
    else
        return dfault(vc, err, at, "DMA_COPY", "DMA tiled copy: array mode is neither 1D nor 2D tiled");
    t->bpe = 1u << G_DMA_TILED_INFO__LBPP(d[1]);
    s.bpe = t->bpe;
    s.samples = 1;
    s.aligned_width = s.width = (G_DMA_TILED_PITCH__PITCH_TILE_MAX(d[2]) + 1) * 8;
    s.height = G_DMA_TILED_PITCH__HEIGHT_MAX(d[2]) + 1;
    s.aligned_height = (unsigned)(((uint64_t)G_DMA_TILED_SLICE__SLICE_TILE_MAX(d[3]) + 1) * 64 / s.aligned_width);
    s.tile_split = 64u << G_DMA_TILED_Y__TILE_SPLIT(d[5]);
    s.bankw = 1u << G_DMA_TILED_INFO__BANK_W(d[1]);
    s.bankh = 1u << G_DMA_TILED_INFO__BANK_H(d[1]);
    s.mtilea = 1u << G_DMA_TILED_INFO__MT_ASPECT(d[1]);
    cedar_tiling_from_config(VCEDAR_TILING_CONFIG, &s.tiling);
    s.tiling.banks = 2u << G_DMA_TILED_Y__NUM_BANKS(d[5]);
    struct cedar_tile_opts o = { .slices = G_DMA_TILED_XZ__Z(d[4]) + 1,
                                 .order = G_DMA_TILED_Y__NON_DISP_TILING(d[5]) ? CEDAR_MICRO_NON_DISPLAYABLE
                                                                               : CEDAR_MICRO_DISPLAYABLE };
    struct cedar_layout_err le;
    if (cedar_tile_map_init(&t->map, &s, &o, &le)) {
        char text[200];
        snprintf(text, sizeof(text), "DMA tiled copy: %s", le.msg);
        return dfault(vc, err, at, "DMA_COPY", text);
    }
    t->base = (uint64_t)d[0] << 8;
    t->x = G_DMA_TILED_XZ__X(d[4]);
    t->z = G_DMA_TILED_XZ__Z(d[4]);
    t->y = G_DMA_TILED_Y__Y(d[5]);
    return 0;
}

/* Copy `bytes` between the linear buffer and the tiled surface, elements in
 * row order from (x, y, z) (Mesa copies whole rows of the surface pitch);
 * the elements before the bottom of the surface are copied, then a fault. */
static int tiled_copy(struct vcedar *vc, struct vc_error *err, size_t at, struct tiled_side *t,
                      uint8_t *lin, uint64_t bytes, bool detile)
{
    const struct cedar_tile_map *m = &t->map;
    uint64_t elems = bytes / t->bpe;
    uint8_t *tiled = dmem(vc, err, at, t->base, m->size, "tiled surface");
    if (!tiled)
        return -1;
    uint64_t first = (uint64_t)t->y * m->width + t->x;
    uint64_t done = detile ? cedar_detile_run(m, tiled, lin, t->z, first, elems)
                           : cedar_tile_run(m, tiled, lin, t->z, first, elems);
    if (done < elems)
        return dfault(vc, err, at, "DMA_COPY", "DMA tiled copy runs past the bottom of the surface");
    return 0;
}

int vc_dma_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err)
{
    if (err)
        memset(err, 0, sizeof(*err));
    size_t i = 0;
    while (i < ndw) {
        const uint32_t *d = &ib[i];
        unsigned cmd = G_DMA_HEADER__CMD(d[0]), sub = G_DMA_HEADER__SUB_CMD(d[0]);
        uint64_t count = G_DMA_HEADER__COUNT(d[0]);
        size_t len;
        switch (cmd) {
        case V_DMA_CMD__DMA_WRITE:
            len = (sub == V_DMA_WRITE_SUB_CMD__WRITE_TILED ? V_DMA_OTHER_PACKET_DWORDS__DMA_WRITE_TILED
                                                           : V_DMA_OTHER_PACKET_DWORDS__DMA_WRITE_LINEAR) + count;
            break;
        case V_DMA_CMD__DMA_COPY:
            len = sub == V_DMA_COPY_SUB_CMD__L2T_T2L ? V_DMA_COPY_PACKET_DWORDS__L2T_T2L
                                                     : V_DMA_COPY_PACKET_DWORDS__L2L_DW;
            break;
        case V_DMA_CMD__DMA_CONSTANT_FILL: len = V_DMA_OTHER_PACKET_DWORDS__DMA_CONSTANT_FILL; break;
        case V_DMA_CMD__DMA_FENCE: len = 4; break;   /* header, address lo, hi, value */
        case V_DMA_CMD__DMA_TRAP: len = 1; break;
        case V_DMA_CMD__DMA_NOP: len = 1; break;
        default:
            return dfault(vc, err, i, "DMA", "DMA command not modelled");
        }
        if (len > ndw - i)
            return dfault(vc, err, i, "DMA", "DMA packet runs past the end of the IB");
        vc->stats.packets++;
        vc_clock_cp_dwords(vc, len);
        if (vc->trace)
            vc_trace_dma(vc->trace, i, d, NULL);
        switch (cmd) {
        case V_DMA_CMD__DMA_WRITE:
            if (sub == V_DMA_WRITE_SUB_CMD__WRITE_LINEAR) {
                uint8_t *dst = dmem(vc, err, i, addr40(d[1] & ~3u, d[2]), count * 4, "write destination");
                if (dst)
                    memcpy(dst, &d[3], count * 4);
            } else if (sub == V_DMA_WRITE_SUB_CMD__WRITE_TILED) {
                struct tiled_side t;
                if (!tiled_init(vc, err, i, d + 1, &t))
                    tiled_copy(vc, err, i, &t, (uint8_t *)(uintptr_t)&d[7], count * 4, false);
            } else {
                dfault(vc, err, i, "DMA_WRITE", "DMA write sub-command not modelled");
            }
            vc->stats.dma_bytes += count * 4;
            break;
        case V_DMA_CMD__DMA_COPY: {
            uint64_t moved = vc->stats.dma_bytes;
            if (sub == V_DMA_COPY_SUB_CMD__L2L_DW || sub == V_DMA_COPY_SUB_CMD__L2L_BYTE) {
                uint64_t n = sub == V_DMA_COPY_SUB_CMD__L2L_DW ? count * 4 : count;
                uint8_t *dst = dmem(vc, err, i, addr40(d[1], d[3]), n, "copy destination");
                uint8_t *src = dmem(vc, err, i, addr40(d[2], d[4]), n, "copy source");
                if (dst && src)
                    memmove(dst, src, n);
                vc->stats.dma_bytes += n;
            } else if (sub == V_DMA_COPY_SUB_CMD__L2T_T2L) {
                struct tiled_side t;
                bool detile = G_DMA_TILED_INFO__DETILE(d[2]);
                uint8_t *lin = dmem(vc, err, i, addr40(d[7] & ~3u, d[8]), count * 4, "linear side");
                if (lin && !tiled_init(vc, err, i, d + 1, &t))
                    tiled_copy(vc, err, i, &t, lin, count * 4, detile);
                vc->stats.dma_bytes += count * 4;
            } else {
                dfault(vc, err, i, "DMA_COPY", "DMA copy sub-command not modelled");
            }
            vc_clock_bytes(vc, 2 * (vc->stats.dma_bytes - moved));   /* read and written */
            break;
        }
        case V_DMA_CMD__DMA_CONSTANT_FILL: {
            uint64_t a = d[1] | ((uint64_t)G_DMA_FILL_ADDR_HI__ADDR_HI(d[3]) << 32);
            uint8_t *dst = dmem(vc, err, i, a & ~3ull, count * 4, "fill destination");
            for (uint64_t k = 0; dst && k < count; k++)
                memcpy(dst + k * 4, &d[2], 4);
            vc->stats.dma_bytes += count * 4;
            break;
        }
        case V_DMA_CMD__DMA_FENCE: {
            uint8_t *dst = dmem(vc, err, i, addr40(d[1] & ~3u, d[2]), 4, "fence");
            if (dst)
                memcpy(dst, &d[3], 4);
            vc->stats.fences++;
            break;
        }
        default:
            break;
        }
        i += len;
    }
    return err && err->code != VC_OK ? -1 : 0;
}
