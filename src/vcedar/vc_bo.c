/* Buffer objects of the virtual Cedar, placed as the radeon kernel would:
 * sizes rounded up to pages (radeon_gem_create_ioctl), a GPU address in the
 * VRAM aperture or the GTT aperture (radeon_object.c: VRAM that is full
 * falls back to GTT), a fake mmap offset above 4 GiB
 * (DRM_FILE_PAGE_OFFSET_START).  The names for them, as drm_gem.c keeps
 * them: per-file GEM handles (the lowest free from 1, idr_alloc), global
 * GEM_FLINK names that live while a handle does, and the buffer itself
 * while a handle or a CPU mapping does. */
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

/* Grow a pointer table indexed from 1 so that index `need - 1` fits. */
static int grow_table(struct vc_bo ***tab, uint32_t *n, uint32_t need)
{
    if (need <= *n)
        return 0;
    uint32_t m = *n ? *n : 64;
    while (m < need) {
        if (m > UINT32_MAX / 2)
            return -ENOMEM;
        m *= 2;
    }
    struct vc_bo **t = realloc(*tab, (size_t)m * sizeof(*t));
    if (!t)
        return -ENOMEM;
    memset(t + *n, 0, (size_t)(m - *n) * sizeof(*t));
    *tab = t;
    *n = m;
    return 0;
}

/* The lowest free index from 1, as idr_alloc(idr, ptr, 1, 0) gives. */
static int table_alloc(struct vc_bo ***tab, uint32_t *n, struct vc_bo *bo, uint32_t *id)
{
    uint32_t i = 1;
    while (i < *n && (*tab)[i])
        i++;
    if (i == UINT32_MAX || grow_table(tab, n, i + 1))
        return -ENOMEM;
    (*tab)[i] = bo;
    *id = i;
    return 0;
}

int vc_bo_create(struct vcedar *vc, uint64_t size, uint32_t alignment, uint32_t domain,
                 uint32_t flags, struct vc_bo **out)
{
    if (size == 0 || size > UINT64_MAX - VC_PAGE)
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

    struct vc_bo *bo = calloc(1, sizeof(*bo));
    if (!bo)
        return -ENOMEM;
    bo->host = vc_host_alloc(size);
    if (!bo->host) {
        free(bo);
        return -ENOMEM;
    }
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
    bo->gpu_mapped = true;
    if (where == RADEON_GEM_DOMAIN_VRAM)
        vc->vram_used += size;
    else
        vc->gtt_used += size;
    bo->next = vc->bo_list;
    vc->bo_list = bo;
    *out = bo;
    return 0;
}

static void bo_free(struct vcedar *vc, struct vc_bo *bo)
{
    for (struct vc_bo **p = &vc->bo_list; *p; p = &(*p)->next)
        if (*p == bo) {
            *p = bo->next;
            break;
        }
    if (bo->gpu_mapped)
        vc_memmap_remove(&vc->mem, bo->gpu);
    if (bo->name)
        vc->names[bo->name] = NULL;
    if (bo->domain == RADEON_GEM_DOMAIN_VRAM)
        vc->vram_used -= bo->size;
    else
        vc->gtt_used -= bo->size;
    vc_host_free(bo->host, bo->size);
    free(bo);
}

/* The last handle is gone (drm_gem_object_handle_free): the flink name goes
 * with it and no CS can name the buffer any more; CPU mappings keep it. */
static void bo_handles_gone(struct vcedar *vc, struct vc_bo *bo)
{
    if (bo->name) {
        vc->names[bo->name] = NULL;
        bo->name = 0;
    }
    if (bo->maps == 0) {
        bo_free(vc, bo);
        return;
    }
    vc_memmap_remove(&vc->mem, bo->gpu);
    bo->gpu_mapped = false;
}

int vc_handle_create(struct vc_file *f, struct vc_bo *bo, uint32_t *handle)
{
    int r = table_alloc(&f->handles, &f->nhandles, bo, handle);
    if (r) {
        if (bo->handles == 0 && bo->maps == 0)   /* a new buffer nobody can name */
            bo_free(f->vc, bo);
        return r;
    }
    bo->handles++;
    return 0;
}

struct vc_bo *vc_handle_lookup(const struct vc_file *f, uint32_t handle)
{
    return handle < f->nhandles ? f->handles[handle] : NULL;
}

int vc_handle_delete(struct vc_file *f, uint32_t handle)
{
    struct vc_bo *bo = vc_handle_lookup(f, handle);
    if (!bo)
        return -EINVAL;   /* drm_gem_handle_delete */
    f->handles[handle] = NULL;
    if (--bo->handles == 0)
        bo_handles_gone(f->vc, bo);
    return 0;
}

void vc_handles_release(struct vc_file *f)
{
    for (uint32_t h = 1; h < f->nhandles; h++)
        if (f->handles[h])
            vc_handle_delete(f, h);
    free(f->handles);
    f->handles = NULL;
    f->nhandles = 0;
}

int vc_bo_flink(struct vcedar *vc, struct vc_bo *bo, uint32_t *name)
{
    if (!bo->name) {
        int r = table_alloc(&vc->names, &vc->nnames, bo, &bo->name);
        if (r)
            return r;
    }
    *name = bo->name;
    return 0;
}

struct vc_bo *vc_bo_by_name(struct vcedar *vc, uint32_t name)
{
    return name < vc->nnames ? vc->names[name] : NULL;
}

int vc_bo_validate(struct vcedar *vc, struct vc_bo *bo, uint32_t allowed)
{
    if (bo->domain & allowed)
        return 0;
    uint32_t to = (allowed & RADEON_GEM_DOMAIN_VRAM) ? RADEON_GEM_DOMAIN_VRAM : RADEON_GEM_DOMAIN_GTT;
    uint64_t gpu = place_in(vc, to, bo->size, bo->alignment, !(bo->create_flags & RADEON_GEM_NO_CPU_ACCESS));
    if (gpu == UINT64_MAX)
        return -ENOMEM;
    /* The contents move with the buffer: same host pages, new GPU address
     * (mapped there before the old range goes, so a failure changes nothing). */
    if (vc_memmap_add(&vc->mem, gpu, bo->size, bo->host, bo))
        return -ENOMEM;
    vc_memmap_remove(&vc->mem, bo->gpu);
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
        if (bo->handles && offset == bo->mmap_offset && size <= bo->size)
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
    if (bo->handles == 0 && bo->maps == 0)
        bo_free(vc, bo);
}

void vc_bo_destroy_all(struct vcedar *vc)
{
    while (vc->bo_list)
        bo_free(vc, vc->bo_list);
    free(vc->names);
    vc->names = NULL;
    vc->nnames = 0;
}
