/* The virtual Cedar behind the ioctl seam: answers what the radeon kernel
 * (KMS 2.50) answers for an HD 7350 (radeon_kms.c radeon_info_ioctl,
 * radeon_gem.c, radeon_cs.c), with the same request numbers and structs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>
#include <radeon_drm.h>

#include "vc_internal.h"

/* radeon_drv.c: KMS_DRIVER_MAJOR/MINOR, DRIVER_NAME/DATE/DESC. */
#define VC_DRM_MAJOR 2
#define VC_DRM_MINOR 50
#define VC_DRM_NAME "radeon"
#define VC_DRM_DATE "20080528"
#define VC_DRM_DESC "ATI Radeon"

/* evergreen.c evergreen_gpu_init(), case CHIP_CEDAR, and the reference
 * clock of rv770_get_xclk (27 MHz; RADEON_INFO_CLOCK_CRYSTAL_FREQ is kHz).
 * The engine clock is the HD 7350's 650 MHz (RADEON_INFO_MAX_SCLK is kHz). */
#define VC_NUM_PIPES       2
#define VC_NUM_TILE_PIPES  2
#define VC_NUM_BACKENDS    1
#define VC_NUM_SE          1
#define VC_ACTIVE_SIMDS    2
#define VC_BACKEND_MAP     0x0   /* one render backend, RB0 */
#define VC_XCLK_KHZ        27000
#define VC_SCLK_KHZ        650000
#define VC_MCLK_MHZ        400

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
    struct vc_bo *bo = vc_bo_lookup(vc, handle);
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

/* ---- ioctls ------------------------------------------------------------ */

/* drm_copy_field(): copy what fits, report the full length. */
static void copy_field(char *dst, __kernel_size_t *len, const char *value)
{
    size_t n = strlen(value);
    if (dst && *len)
        memcpy(dst, value, n < *len ? n : *len);
    *len = n;
}

static int ioctl_version(struct drm_version *v)
{
    v->version_major = VC_DRM_MAJOR;
    v->version_minor = VC_DRM_MINOR;
    v->version_patchlevel = 0;
    copy_field(v->name, &v->name_len, VC_DRM_NAME);
    copy_field(v->date, &v->date_len, VC_DRM_DATE);
    copy_field(v->desc, &v->desc_len, VC_DRM_DESC);
    return 0;
}

static int ioctl_info(struct vcedar *vc, struct drm_radeon_info *info)
{
    void *dst = (void *)(uintptr_t)info->value;
    uint32_t v32 = 0, in = 0;
    uint64_t v64 = 0;
    bool wide = false;
    if (!dst)
        return -EFAULT;
    switch (info->request) {
    case RADEON_INFO_DEVICE_ID: v32 = VCEDAR_DEVICE_ID; break;
    case RADEON_INFO_NUM_GB_PIPES: v32 = VC_NUM_PIPES; break;
    case RADEON_INFO_NUM_Z_PIPES: v32 = 1; break;
    /* radeon_kms.c: false on Cedar..Hemlock for xf86-video-ati 6.13.0 */
    case RADEON_INFO_ACCEL_WORKING: v32 = 0; break;
    case RADEON_INFO_ACCEL_WORKING2: v32 = 1; break;
    case RADEON_INFO_TILING_CONFIG: v32 = VCEDAR_TILING_CONFIG; break;
    case RADEON_INFO_WANT_HYPERZ:
    case RADEON_INFO_WANT_CMASK:
        memcpy(&in, dst, 4);
        if (in >= 2)
            return -EINVAL;
        v32 = in;   /* the only client gets what it asks for */
        break;
    case RADEON_INFO_CLOCK_CRYSTAL_FREQ: v32 = VC_XCLK_KHZ; break;
    case RADEON_INFO_NUM_BACKENDS: v32 = VC_NUM_BACKENDS; break;
    case RADEON_INFO_NUM_TILE_PIPES: v32 = VC_NUM_TILE_PIPES; break;
    case RADEON_INFO_FUSION_GART_WORKING: v32 = 1; break;
    case RADEON_INFO_BACKEND_MAP: v32 = VC_BACKEND_MAP; break;
    case RADEON_INFO_VA_START:       /* no GPU VM before Cayman */
    case RADEON_INFO_IB_VM_MAX_SIZE:
        return -EINVAL;
    case RADEON_INFO_MAX_PIPES: v32 = VC_NUM_PIPES; break;
    case RADEON_INFO_TIMESTAMP: v64 = vc->stats.clock; wide = true; break;
    case RADEON_INFO_MAX_SE: v32 = VC_NUM_SE; break;
    case RADEON_INFO_FASTFB_WORKING: v32 = 0; break;
    case RADEON_INFO_RING_WORKING:
        memcpy(&in, dst, 4);
        switch (in) {
        case RADEON_CS_RING_GFX:
        case RADEON_CS_RING_COMPUTE:
        case RADEON_CS_RING_DMA: v32 = 1; break;
        case RADEON_CS_RING_UVD:
        case RADEON_CS_RING_VCE: v32 = 0; break;   /* not modelled */
        default: return -EINVAL;
        }
        break;
    case RADEON_INFO_MAX_SCLK: v32 = VC_SCLK_KHZ; break;
    case RADEON_INFO_NUM_BYTES_MOVED: v64 = 0; wide = true; break;
    case RADEON_INFO_VRAM_USAGE: v64 = vc->vram_used; wide = true; break;
    case RADEON_INFO_GTT_USAGE: v64 = vc->gtt_used; wide = true; break;
    case RADEON_INFO_ACTIVE_CU_COUNT: v32 = VC_ACTIVE_SIMDS; break;
    case RADEON_INFO_CURRENT_GPU_TEMP: v32 = 0; break;
    case RADEON_INFO_CURRENT_GPU_SCLK: v32 = VC_SCLK_KHZ / 1000; break;
    case RADEON_INFO_CURRENT_GPU_MCLK: v32 = VC_MCLK_MHZ; break;
    case RADEON_INFO_VA_UNMAP_WORKING: v32 = 1; break;
    case RADEON_INFO_GPU_RESET_COUNTER: v32 = 0; break;
    default:
        return -EINVAL;   /* SI/CIK-only requests, READ_REG, CRTC ids */
    }
    if (wide)
        memcpy(dst, &v64, 8);
    else
        memcpy(dst, &v32, 4);
    return 0;
}

static int ioctl_gem_create(struct vcedar *vc, struct drm_radeon_gem_create *a)
{
    struct vc_bo *bo;
    int r = vc_bo_create(vc, a->size, a->alignment, a->initial_domain, a->flags, &bo);
    if (r)
        return r;
    a->size = bo->size;
    a->handle = bo->handle;
    return 0;
}

static int ioctl_set_tiling(struct vcedar *vc, struct drm_radeon_gem_set_tiling *a)
{
    struct vc_bo *bo = vc_bo_lookup(vc, a->handle);
    if (!bo)
        return -ENOENT;
    /* radeon_bo_set_tiling_flags(): Evergreen field encodings */
    unsigned bankw = (a->tiling_flags >> RADEON_TILING_EG_BANKW_SHIFT) & RADEON_TILING_EG_BANKW_MASK;
    unsigned bankh = (a->tiling_flags >> RADEON_TILING_EG_BANKH_SHIFT) & RADEON_TILING_EG_BANKH_MASK;
    unsigned mta = (a->tiling_flags >> RADEON_TILING_EG_MACRO_TILE_ASPECT_SHIFT) & RADEON_TILING_EG_MACRO_TILE_ASPECT_MASK;
    unsigned split = (a->tiling_flags >> RADEON_TILING_EG_TILE_SPLIT_SHIFT) & RADEON_TILING_EG_TILE_SPLIT_MASK;
    unsigned ssplit = (a->tiling_flags >> RADEON_TILING_EG_STENCIL_TILE_SPLIT_SHIFT) & RADEON_TILING_EG_STENCIL_TILE_SPLIT_MASK;
    unsigned ok = (1u << 0) | (1u << 1) | (1u << 2) | (1u << 4) | (1u << 8);
    if (!((ok >> bankw) & 1) || !((ok >> bankh) & 1) || !((ok >> mta) & 1) || split > 6 || ssplit > 6)
        return -EINVAL;
    bo->tiling_flags = a->tiling_flags;
    bo->pitch = a->pitch;
    return 0;
}

static int virtual_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    struct vcedar *vc = dev->priv;
    if (!arg)
        return -EFAULT;
    switch (request) {
    case DRM_IOCTL_VERSION:
        return ioctl_version(arg);
    case DRM_IOCTL_GEM_CLOSE:
        return vc_bo_close(vc, ((struct drm_gem_close *)arg)->handle);
    case DRM_IOCTL_RADEON_INFO:
        return ioctl_info(vc, arg);
    case DRM_IOCTL_RADEON_GEM_INFO: {
        struct drm_radeon_gem_info *g = arg;
        g->vram_size = vc->vram_size;
        g->vram_visible = vc->vram_visible;
        g->gart_size = vc->gtt_size;
        return 0;
    }
    case DRM_IOCTL_RADEON_GEM_CREATE:
        return ioctl_gem_create(vc, arg);
    case DRM_IOCTL_RADEON_GEM_MMAP: {
        struct drm_radeon_gem_mmap *m = arg;
        struct vc_bo *bo = vc_bo_lookup(vc, m->handle);
        if (!bo)
            return -ENOENT;
        m->addr_ptr = bo->mmap_offset;
        return 0;
    }
    case DRM_IOCTL_RADEON_GEM_WAIT_IDLE: {
        /* Submissions run to completion inside the CS ioctl: always idle. */
        struct drm_radeon_gem_wait_idle *w = arg;
        return vc_bo_lookup(vc, w->handle) ? 0 : -ENOENT;
    }
    case DRM_IOCTL_RADEON_GEM_BUSY: {
        struct drm_radeon_gem_busy *b = arg;
        struct vc_bo *bo = vc_bo_lookup(vc, b->handle);
        if (!bo)
            return -ENOENT;
        b->domain = bo->domain;
        return 0;
    }
    case DRM_IOCTL_RADEON_GEM_SET_TILING:
        return ioctl_set_tiling(vc, arg);
    case DRM_IOCTL_RADEON_GEM_GET_TILING: {
        struct drm_radeon_gem_get_tiling *t = arg;
        struct vc_bo *bo = vc_bo_lookup(vc, t->handle);
        if (!bo)
            return -ENOENT;
        t->tiling_flags = bo->tiling_flags;
        t->pitch = bo->pitch;
        return 0;
    }
    case DRM_IOCTL_RADEON_GEM_SET_DOMAIN: {
        struct drm_radeon_gem_set_domain *d = arg;
        return vc_bo_lookup(vc, d->handle) ? 0 : -ENOENT;
    }
    case DRM_IOCTL_RADEON_GEM_OP: {
        struct drm_radeon_gem_op *o = arg;
        struct vc_bo *bo = vc_bo_lookup(vc, o->handle);
        if (!bo)
            return -ENOENT;
        if (o->op == RADEON_GEM_OP_GET_INITIAL_DOMAIN) {
            o->value = bo->initial_domain;
            return 0;
        }
        if (o->op == RADEON_GEM_OP_SET_INITIAL_DOMAIN) {
            bo->initial_domain = (uint32_t)o->value & (RADEON_GEM_DOMAIN_CPU | RADEON_GEM_DOMAIN_GTT |
                                                       RADEON_GEM_DOMAIN_VRAM);
            return 0;
        }
        return -EINVAL;
    }
    case DRM_IOCTL_RADEON_GEM_VA:        /* no VM on Evergreen (radeon_gem_va_ioctl) */
        return -ENOTTY;
    case DRM_IOCTL_RADEON_GEM_PREAD:     /* radeon_gem.c: "not implemented" */
    case DRM_IOCTL_RADEON_GEM_PWRITE:
        return -ENOSYS;
    case DRM_IOCTL_RADEON_CS:
        return vc_cs_ioctl(vc, arg);
    default:
        return -EINVAL;
    }
}

static void *virtual_mmap(struct cedar_dev *dev, uint64_t offset, size_t size)
{
    struct vcedar *vc = dev->priv;
    struct vc_bo *bo = vc_bo_by_mmap_offset(vc, offset, size);
    if (!bo || size == 0)
        return NULL;
    bo->maps++;
    return bo->host;
}

static int virtual_munmap(struct cedar_dev *dev, void *ptr, size_t size)
{
    struct vcedar *vc = dev->priv;
    struct vc_bo *bo = vc_bo_by_host(vc, ptr);
    if (!bo || (uint8_t *)ptr != bo->host || size > bo->size || bo->maps == 0)
        return -EINVAL;
    vc_bo_unmapped(vc, bo);
    return 0;
}

static void virtual_last_error(struct cedar_dev *dev, char *buf, size_t len)
{
    struct vcedar *vc = dev->priv;
    if (vc->last_error.code == VC_OK) {
        if (len)
            buf[0] = '\0';
        return;
    }
    vc_error_format(&vc->last_error, buf, len);
}

static void virtual_destroy(struct cedar_dev *dev)
{
    vcedar_destroy(dev->priv);
    free(dev);
}

static const struct cedar_dev_ops virtual_ops = {
    .name = "virtual",
    .ioctl = virtual_ioctl,
    .mmap = virtual_mmap,
    .munmap = virtual_munmap,
    .last_error = virtual_last_error,
    .destroy = virtual_destroy,
};

int cedar_dev_open_virtual(const struct vcedar_opts *opts, struct cedar_dev **out)
{
    struct cedar_dev *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return -ENOMEM;
    dev->priv = vcedar_create(opts);
    if (!dev->priv) {
        free(dev);
        return -ENOMEM;
    }
    dev->ops = &virtual_ops;
    dev->fd = -1;
    snprintf(dev->node, sizeof(dev->node), "virtual");
    *out = dev;
    return 0;
}

struct vcedar *vcedar_of(struct cedar_dev *dev)
{
    return dev && dev->ops == &virtual_ops ? dev->priv : NULL;
}
