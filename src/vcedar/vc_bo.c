/* Buffer objects of the virtual Cedar, placed as the radeon kernel would:
 * sizes rounded up to pages (radeon_gem_create_ioctl), a GPU address in the
 * VRAM aperture or the GTT aperture (radeon_object.c: VRAM that is full
 * falls back to GTT), the lowest free GEM handle, a fake mmap offset above
 * 4 GiB (DRM_FILE_PAGE_OFFSET_START). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <radeon_drm.h>

#include "vc_internal.h"

#define VC_PAGE 4096u
/* The kernel keeps the start of each aperture for itself (rings, the IB
 * pool, fence and write-back pages, the GART table): a model choice that
 * also keeps buffers away from address 0, where a missing relocation would
 * go unnoticed. */
#define VC_KERNEL_RESERVED (1u << 20)
#define VC_MMAP_OFFSET_START 0x100000000ull

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static uint64_t place_in(struct vcedar *vc, uint32_t domain, uint64_t size, uint64_t align, bool cpu_visible)
{
    if (domain == RADEON_GEM_DOMAIN_VRAM) {
        uint64_t lo = vc->vram_base + VC_KERNEL_RESERVED;
        uint64_t at = UINT64_MAX;
        if (cpu_visible)
            at = vc_memmap_place(&vc->mem, lo, vc->vram_base + vc->vram_visible, size, align);
        if (at == UINT64_MAX)
            at = vc_memmap_place(&vc->mem, lo, vc->vram_base + vc->vram_size, size, align);
        return at;
    }
    return vc_memmap_place(&vc->mem, vc->gtt_base + VC_KERNEL_RESERVED, vc->gtt_base + vc->gtt_size,
                           size, align);
}

static int grow_handles(struct vcedar *vc, uint32_t need)
{
    if (need <= vc->nbos)
        return 0;
    uint32_t n = vc->nbos ? vc->nbos * 2 : 64;
    while (n < need)
        n *= 2;
    struct vc_bo **b = realloc(vc->bos, n * sizeof(*b));
    if (!b)
        return -ENOMEM;
    memset(b + vc->nbos, 0, (n - vc->nbos) * sizeof(*b));
    vc->bos = b;
    vc->nbos = n;
    return 0;
}

int vc_bo_create(struct vcedar *vc, uint64_t size, uint32_t alignment, uint32_t domain,
                 uint32_t flags, struct vc_bo **out)
{
    if (size == 0)
        return -EINVAL;
    size = round_up(size, VC_PAGE);
    uint64_t align = alignment > VC_PAGE ? alignment : VC_PAGE;
    if (align & (align - 1))
        align = round_up(align, VC_PAGE);

    uint32_t where = (domain & RADEON_GEM_DOMAIN_VRAM) ? RADEON_GEM_DOMAIN_VRAM : RADEON_GEM_DOMAIN_GTT;
    bool visible = !(flags & RADEON_GEM_NO_CPU_ACCESS);
    uint64_t gpu = place_in(vc, where, size, align, visible);
    if (gpu == UINT64_MAX && where == RADEON_GEM_DOMAIN_VRAM) {
        where = RADEON_GEM_DOMAIN_GTT;   /* radeon_gem_object_create retries in GTT */
        gpu = place_in(vc, where, size, align, visible);
    }
    if (gpu == UINT64_MAX)
        return -ENOMEM;

    uint32_t handle = 1;
    while (handle < vc->nbos && vc->bos[handle])
        handle++;
    if (grow_handles(vc, handle + 1))
        return -ENOMEM;

    struct vc_bo *bo = calloc(1, sizeof(*bo));
    if (!bo)
        return -ENOMEM;
    bo->host = vc_host_alloc(size);
    if (!bo->host) {
        free(bo);
        return -ENOMEM;
    }
    bo->handle = handle;
    bo->size = size;
    bo->gpu = gpu;
    bo->domain = where;
    bo->initial_domain = domain;
    bo->create_flags = flags;
    bo->alignment = (uint32_t)align;
    bo->mmap_offset = vc->next_mmap_offset;
    vc->next_mmap_offset += size;
    if (vc_memmap_add(&vc->mem, gpu, size, bo->host, bo)) {
        vc_host_free(bo->host, size);
        free(bo);
        return -ENOMEM;
    }
    if (where == RADEON_GEM_DOMAIN_VRAM)
        vc->vram_used += size;
    else
        vc->gtt_used += size;
    vc->bos[handle] = bo;
    bo->next = vc->bo_list;
    vc->bo_list = bo;
    *out = bo;
    return 0;
}

struct vc_bo *vc_bo_lookup(struct vcedar *vc, uint32_t handle)
{
    return handle < vc->nbos ? vc->bos[handle] : NULL;
}

static void bo_free(struct vcedar *vc, struct vc_bo *bo)
{
    for (struct vc_bo **p = &vc->bo_list; *p; p = &(*p)->next)
        if (*p == bo) {
            *p = bo->next;
            break;
        }
    if (!bo->closed)   /* a closed buffer left the GPU's map at close time */
        vc_memmap_remove(&vc->mem, bo->gpu);
    if (bo->domain == RADEON_GEM_DOMAIN_VRAM)
        vc->vram_used -= bo->size;
    else
        vc->gtt_used -= bo->size;
    vc_host_free(bo->host, bo->size);
    free(bo);
}

int vc_bo_close(struct vcedar *vc, uint32_t handle)
{
    struct vc_bo *bo = vc_bo_lookup(vc, handle);
    if (!bo)
        return -EINVAL;   /* drm_gem_handle_delete */
    vc->bos[handle] = NULL;
    if (bo->maps == 0) {
        bo_free(vc, bo);
    } else {
        bo->closed = true;
        vc_memmap_remove(&vc->mem, bo->gpu);   /* gone for the GPU, kept for the CPU */
    }
    return 0;
}

int vc_bo_validate(struct vcedar *vc, struct vc_bo *bo, uint32_t allowed)
{
    if (bo->domain & allowed)
        return 0;
    uint32_t to = (allowed & RADEON_GEM_DOMAIN_VRAM) ? RADEON_GEM_DOMAIN_VRAM : RADEON_GEM_DOMAIN_GTT;
    uint64_t gpu = place_in(vc, to, bo->size, bo->alignment, !(bo->create_flags & RADEON_GEM_NO_CPU_ACCESS));
    if (gpu == UINT64_MAX)
        return -ENOMEM;
    /* The contents move with the buffer: same host pages, new GPU address. */
    vc_memmap_remove(&vc->mem, bo->gpu);
    if (vc_memmap_add(&vc->mem, gpu, bo->size, bo->host, bo))
        return -ENOMEM;
    if (bo->domain == RADEON_GEM_DOMAIN_VRAM) {
        vc->vram_used -= bo->size;
        vc->gtt_used += bo->size;
    } else {
        vc->gtt_used -= bo->size;
        vc->vram_used += bo->size;
    }
    bo->gpu = gpu;
    bo->domain = to;
    return 0;
}

struct vc_bo *vc_bo_by_mmap_offset(struct vcedar *vc, uint64_t offset, uint64_t size)
{
    for (struct vc_bo *bo = vc->bo_list; bo; bo = bo->next)
        if (!bo->closed && offset == bo->mmap_offset && size <= bo->size)
            return bo;
    return NULL;
}

struct vc_bo *vc_bo_by_host(struct vcedar *vc, const void *ptr)
{
    const uint8_t *p = ptr;
    for (struct vc_bo *bo = vc->bo_list; bo; bo = bo->next)
        if (p >= bo->host && p < bo->host + bo->size)
            return bo;
    return NULL;
}

void vc_bo_unmapped(struct vcedar *vc, struct vc_bo *bo)
{
    if (bo->maps)
        bo->maps--;
    if (bo->closed && bo->maps == 0)
        bo_free(vc, bo);
}

void vc_bo_destroy_all(struct vcedar *vc)
{
    while (vc->bo_list) {
        struct vc_bo *bo = vc->bo_list;
        bo->maps = 0;
        bo_free(vc, bo);
    }
    free(vc->bos);
    vc->bos = NULL;
    vc->nbos = 0;
}
