/* The virtual Cedar as a device (the kernel's drm_device and radeon_device):
 * its apertures, memory, command processor and renderer, shared by every
 * DRM file opened on it (vc_file.c), and the direct interface tools use. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <radeon_drm.h>

#include "vc_internal.h"

#define MiB (1024ull * 1024ull)

struct vcedar *vcedar_create(const struct vcedar_opts *opts)
{
    struct vcedar *vc = calloc(1, sizeof(*vc));
    if (!vc)
        return NULL;
    if (opts)
        vc->opts = *opts;
    vc->mode = vc->opts.mode;
    vc->trace = vc->opts.trace;
    vc->vram_size = vc->opts.vram_size ? vc->opts.vram_size : 512 * MiB;
    vc->vram_visible = vc->opts.vram_visible ? vc->opts.vram_visible : 256 * MiB;
    if (vc->vram_visible > vc->vram_size)
        vc->vram_visible = vc->vram_size;
    vc->gtt_size = vc->opts.gtt_size ? vc->opts.gtt_size : 512 * MiB;
    /* radeon_vram_location / radeon_gtt_location: VRAM at 0, GTT after it,
     * aligned to its size. */
    vc->vram_base = 0;
    vc->gtt_base = (vc->vram_size + vc->gtt_size - 1) / vc->gtt_size * vc->gtt_size;
    vc->next_mmap_offset = 0x100000000ull;
    vc_cp_reset(&vc->cp);
    if (!vc->opts.draw && !vc->opts.no_render) {
        vc->render = vc_render_new();
        if (!vc->render) {
            free(vc);
            return NULL;
        }
    }
    return vc;
}

void vcedar_destroy(struct vcedar *vc)
{
    if (!vc)
        return;
    for (struct vc_file *f = vc->files, *next; f; f = next) {
        next = f->next;
        vc_file_unplug(f);
    }
    vc_master_put(vc->master);
    vc_bo_destroy_all(vc);
    for (size_t i = 0; i < vc->mem.n; i++)
        vc_host_free(vc->mem.r[i].host, vc->mem.r[i].size);   /* raw regions */
    vc_memmap_free(&vc->mem);
    vc_render_free(vc->render);
    free(vc);
}

void vcedar_set_mode(struct vcedar *vc, enum vc_check_mode mode)
{
    vc->mode = mode;
}

void vcedar_set_trace(struct vcedar *vc, FILE *trace)
{
    vc->trace = trace;
}

const struct vc_error *vcedar_last_error(const struct vcedar *vc)
{
    return &vc->last_error;
}

const struct vc_error *vcedar_exec_error(const struct vcedar *vc)
{
    return &vc->exec_error;
}

void vcedar_stats(const struct vcedar *vc, struct vcedar_stats *out)
{
    *out = vc->stats;
}

int vcedar_bo_gpu_address(struct vcedar *vc, uint32_t handle, uint64_t *addr)
{
    struct vc_bo *bo = vc->first_file ? vc_handle_lookup(vc->first_file, handle) : NULL;
    if (!bo)
        return -ENOENT;
    *addr = bo->gpu;
    return 0;
}

int vcedar_map_region(struct vcedar *vc, uint64_t addr, uint64_t size)
{
    if (size == 0 || addr + size < addr)
        return -EINVAL;
    uint8_t *host = vc_host_alloc(size);
    if (!host)
        return -ENOMEM;
    int r = vc_memmap_add(&vc->mem, addr, size, host, NULL);
    if (r)
        vc_host_free(host, size);
    return r;
}

int vcedar_mem_write(struct vcedar *vc, uint64_t addr, const void *src, size_t len)
{
    void *p = vc_memmap_ptr(&vc->mem, addr, len);
    if (!p)
        return -EFAULT;
    memcpy(p, src, len);
    return 0;
}

int vcedar_mem_read(struct vcedar *vc, uint64_t addr, void *dst, size_t len)
{
    const void *p = vc_memmap_ptr(&vc->mem, addr, len);
    if (!p)
        return -EFAULT;
    memcpy(dst, p, len);
    return 0;
}
