/* The CS ioctl of the virtual Cedar, as radeon_cs.c takes it: the chunk
 * array (IB, RELOCS, FLAGS, CONST_IB), the ring from the flags chunk, the
 * relocations resolved through the submitting file's handles to buffers
 * (and moved into an allowed domain), the IB copied, checked and patched,
 * then run to completion on its ring (or, with opts.no_exec, not run).  A
 * rejected CS returns -EINVAL and leaves the reason in last_error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <radeon_drm.h>

#include "vc_internal.h"

#define IB_MAX_DW (16u * 64u * 1024u / 4u)   /* radeon.h: RADEON_IB_POOL_SIZE (16) x 64 KiB, in dwords */

struct cs_chunks {
    const uint32_t *ib, *relocs;
    uint32_t ib_dw, reloc_dw;
    bool have_ib, have_relocs;
    uint32_t flags, ring;
};

static int reject(struct vcedar *vc, int ret, enum vc_err_code code, const char *what, const char *fmt,
                  const char *arg)
{
    vc_fail(&vc->last_error, code, 0, what, fmt, arg);
    vc->stats.cs_rejected++;
    return ret;
}

static int parse_chunks(struct vcedar *vc, const struct drm_radeon_cs *cs, struct cs_chunks *out)
{
    const uint64_t *array = (const uint64_t *)(uintptr_t)cs->chunks;
    if (!array)
        return reject(vc, -EFAULT, VC_E_CHUNKS, "chunks", "%s", "CS: no chunk array");
    for (uint32_t i = 0; i < cs->num_chunks; i++) {
        const struct drm_radeon_cs_chunk *ch = (const void *)(uintptr_t)array[i];
        if (!ch)
            return reject(vc, -EFAULT, VC_E_CHUNKS, "chunks", "%s", "CS: NULL chunk");
        const uint32_t *data = (const uint32_t *)(uintptr_t)ch->chunk_data;
        if (ch->length_dw && !data)
            return reject(vc, -EFAULT, VC_E_CHUNKS, "chunks", "%s", "CS: chunk without data");
        switch (ch->chunk_id) {
        case RADEON_CHUNK_ID_RELOCS:
            out->relocs = data;
            out->reloc_dw = ch->length_dw;
            out->have_relocs = true;
            break;
        case RADEON_CHUNK_ID_IB:
            if (!ch->length_dw)
                return reject(vc, -EINVAL, VC_E_CHUNKS, "IB", "%s", "CS: zero-length IB chunk");
            /* radeon_ib_get suballocates the IB from a pool of
             * RADEON_IB_POOL_SIZE x 64 KiB (radeon_ib.c); drm_suballoc_new
             * answers -EINVAL for anything larger */
            if (ch->length_dw > IB_MAX_DW)
                return reject(vc, -EINVAL, VC_E_CHUNKS, "IB", "%s",
                              "CS: IB chunk larger than the kernel's 1 MiB IB pool");
            out->ib = data;
            out->ib_dw = ch->length_dw;
            out->have_ib = true;
            break;
        case RADEON_CHUNK_ID_CONST_IB:   /* SI and later; parsed, unused */
            if (!ch->length_dw)
                return reject(vc, -EINVAL, VC_E_CHUNKS, "CONST_IB", "%s", "CS: zero-length CONST_IB chunk");
            break;
        case RADEON_CHUNK_ID_FLAGS:
            if (!ch->length_dw)
                return reject(vc, -EINVAL, VC_E_CHUNKS, "FLAGS", "%s", "CS: zero-length FLAGS chunk");
            out->flags = data[0];
            if (ch->length_dw > 1)
                out->ring = data[1];
            break;
        default:
            break;   /* the kernel ignores chunk ids it does not know */
        }
    }
    return 0;
}

int vc_cs_ioctl(struct vc_file *f, void *arg)
{
    struct vcedar *vc = f->vc;
    const struct drm_radeon_cs *cs = arg;
    struct cs_chunks ch = { .ring = RADEON_CS_RING_GFX };
    memset(&vc->last_error, 0, sizeof(vc->last_error));
    vc->stats.cs_submitted++;
    if (!cs->num_chunks)
        return 0;
    int r = parse_chunks(vc, cs, &ch);
    if (r)
        return r;
    if (ch.flags & RADEON_CS_USE_VM)
        return reject(vc, -EINVAL, VC_E_CHUNKS, "FLAGS", "%s", "CS: RADEON_CS_USE_VM, but there is no VM on Evergreen");
    enum vc_ring ring;
    switch (ch.ring) {
    case RADEON_CS_RING_GFX:
    case RADEON_CS_RING_COMPUTE:   /* the GFX ring before Tahiti */
        ring = VC_RING_GFX;
        break;
    case RADEON_CS_RING_DMA:
        ring = VC_RING_DMA;
        break;
    case RADEON_CS_RING_UVD:
    case RADEON_CS_RING_VCE:
        return reject(vc, -EINVAL, VC_E_RING, "FLAGS", "%s", "CS: the UVD / VCE rings are not modelled");
    default:
        return reject(vc, -EINVAL, VC_E_RING, "FLAGS", "%s", "CS: unknown ring");
    }
    if (!ch.have_ib)
        return 0;

    /* Relocations: 4 dwords each (struct drm_radeon_cs_reloc). */
    size_t nrelocs = ch.have_relocs ? ch.reloc_dw / 4 : 0;
    struct vc_reloc_bo *bos = calloc(nrelocs ? nrelocs : 1, sizeof(*bos));
    uint32_t *ib = malloc((size_t)ch.ib_dw * 4);
    if (!bos || !ib) {
        free(bos);
        free(ib);
        return -ENOMEM;
    }
    for (size_t i = 0; i < nrelocs; i++) {
        const struct drm_radeon_cs_reloc *rl = (const void *)&ch.relocs[i * 4];
        struct vc_bo *bo = vc_handle_lookup(f, rl->handle);
        char what[32];
        snprintf(what, sizeof(what), "relocation %zu", i);
        if (!bo) {
            vc_fail(&vc->last_error, VC_E_BO_HANDLE, 0, what, "relocation %zu: no buffer with handle %u", i,
                    rl->handle);
            r = -ENOENT;
            goto out_rejected;
        }
        uint32_t domain = rl->write_domain ? rl->write_domain : rl->read_domains;
        if (domain & RADEON_GEM_DOMAIN_CPU) {
            vc_fail(&vc->last_error, VC_E_BO_DOMAIN, 0, what,
                    "relocation %zu (handle %u): the CPU domain is not valid for command submission", i,
                    rl->handle);
            r = -EINVAL;
            goto out_rejected;
        }
        /* radeon_cs_parser_relocs: VRAM may fall back to GTT */
        uint32_t allowed = domain == RADEON_GEM_DOMAIN_VRAM ? domain | RADEON_GEM_DOMAIN_GTT : domain;
        if (allowed && vc_bo_validate(vc, bo, allowed)) {
            r = -ENOMEM;
            goto out;
        }
        bos[i] = (struct vc_reloc_bo){ .size = bo->size, .gpu_offset = bo->gpu, .tiling_flags = bo->tiling_flags,
                                       .domain = bo->domain };
    }
    memcpy(ib, ch.ib, (size_t)ch.ib_dw * 4);

    struct vc_check_cfg cfg = { .mode = vc->mode, .tiling_config = VCEDAR_TILING_CONFIG, .cs_flags = ch.flags };
    if (ring == VC_RING_DMA)
        r = vc_check_dma(&cfg, ib, ch.ib_dw, nrelocs, ch.have_relocs ? bos : NULL, &vc->last_error);
    else
        r = vc_check_gfx(&cfg, ib, ch.ib_dw, ch.have_relocs ? ch.relocs : NULL, ch.reloc_dw, bos,
                         &vc->last_error);
    if (r) {
        r = -EINVAL;
        goto out_rejected;
    }
    struct vc_error exec_err = { 0 };
    if (vc->opts.no_exec)
        ;   /* the null device: accepted, never run */
    else if (ring == VC_RING_DMA)
        vc_dma_exec(vc, ib, ch.ib_dw, &exec_err);
    else
        vc_cp_exec(vc, ib, ch.ib_dw, &exec_err);
    r = 0;
    goto out;

out_rejected:
    vc->stats.cs_rejected++;
out:
    free(bos);
    free(ib);
    return r;
}
