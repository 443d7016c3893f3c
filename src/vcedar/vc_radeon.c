/* The radeon driver ioctls of the virtual Cedar (Linux 6.1 radeon_drv.c
 * radeon_ioctls_kms[]: numbers and permission flags), answered as the
 * kernel answers them for an HD 7350 (radeon_kms.c radeon_info_ioctl,
 * radeon_gem.c, radeon_cs.c; evergreen.c evergreen_gpu_init for
 * CHIP_CEDAR).  Buffers are named by the calling file's handles. */
#include <errno.h>
#include <string.h>

#include <drm.h>
#include <radeon_drm.h>

#include "vc_internal.h"

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

/* radeon_set_filp_rights: 1 asks for the right (granted if nobody holds it),
 * 0 gives it up; the answer is whether the caller holds it now. */
static uint32_t set_filp_rights(struct vc_file **owner, struct vc_file *applier, uint32_t value)
{
    if (value == 1 && !*owner)
        *owner = applier;
    else if (value == 0 && *owner == applier)
        *owner = NULL;
    return *owner == applier;
}

static int radeon_info(struct vc_file *f, void *data)
{
    struct vcedar *vc = f->vc;
    struct drm_radeon_info *info = data;
    void *user = (void *)(uintptr_t)info->value;
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    bool wide = false;
    /* Requests that read an input value copy it from user memory first. */
    switch (info->request) {
    case RADEON_INFO_CRTC_FROM_ID:
    case RADEON_INFO_WANT_HYPERZ:
    case RADEON_INFO_WANT_CMASK:
    case RADEON_INFO_RING_WORKING:
    case RADEON_INFO_READ_REG:
        if (!user)
            return -EFAULT;
        memcpy(&v32, user, 4);
        break;
    default:
        break;
    }
    switch (info->request) {
    case RADEON_INFO_DEVICE_ID: v32 = VCEDAR_DEVICE_ID; break;
    case RADEON_INFO_NUM_GB_PIPES: v32 = VC_NUM_PIPES; break;
    case RADEON_INFO_NUM_Z_PIPES: v32 = 1; break;
    /* false on Cedar..Hemlock for xf86-video-ati 6.13.0 */
    case RADEON_INFO_ACCEL_WORKING: v32 = 0; break;
    case RADEON_INFO_CRTC_FROM_ID: return -EINVAL;   /* no display engine: no CRTC ids */
    case RADEON_INFO_ACCEL_WORKING2: v32 = 1; break;
    case RADEON_INFO_TILING_CONFIG: v32 = VCEDAR_TILING_CONFIG; break;
    case RADEON_INFO_WANT_HYPERZ:
        if (v32 >= 2)
            return -EINVAL;
        v32 = set_filp_rights(&vc->hyperz_owner, f, v32);
        break;
    case RADEON_INFO_WANT_CMASK:
        if (v32 >= 2)
            return -EINVAL;
        v32 = set_filp_rights(&vc->cmask_owner, f, v32);
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
    case RADEON_INFO_MAX_SH_PER_SE: return -EINVAL;   /* SI and later */
    case RADEON_INFO_FASTFB_WORKING: v32 = 0; break;
    case RADEON_INFO_RING_WORKING:
        switch (v32) {
        case RADEON_CS_RING_GFX:
        case RADEON_CS_RING_COMPUTE:
        case RADEON_CS_RING_DMA: v32 = 1; break;
        case RADEON_CS_RING_UVD:
        case RADEON_CS_RING_VCE: v32 = 0; break;   /* not modelled */
        default: return -EINVAL;
        }
        break;
    case RADEON_INFO_SI_TILE_MODE_ARRAY:       /* SI and later */
    case RADEON_INFO_CIK_MACROTILE_MODE_ARRAY: /* CIK and later */
    case RADEON_INFO_SI_BACKEND_ENABLED_MASK:  /* SI and later */
        return -EINVAL;
    case RADEON_INFO_SI_CP_DMA_COMPUTE: v32 = 1; break;   /* answered for every family */
    case RADEON_INFO_MAX_SCLK: v32 = VC_SCLK_KHZ; break;
    case RADEON_INFO_VCE_FW_VERSION:   /* no VCE block: rdev->vce stays zero */
    case RADEON_INFO_VCE_FB_VERSION: v32 = 0; break;
    case RADEON_INFO_NUM_BYTES_MOVED: v64 = 0; wide = true; break;
    case RADEON_INFO_VRAM_USAGE: v64 = vc->vram_used; wide = true; break;
    case RADEON_INFO_GTT_USAGE: v64 = vc->gtt_used; wide = true; break;
    case RADEON_INFO_ACTIVE_CU_COUNT: v32 = VC_ACTIVE_SIMDS; break;
    case RADEON_INFO_CURRENT_GPU_TEMP: v32 = 0; break;
    case RADEON_INFO_CURRENT_GPU_SCLK: v32 = VC_SCLK_KHZ / 1000; break;
    case RADEON_INFO_CURRENT_GPU_MCLK: v32 = VC_MCLK_MHZ; break;
    case RADEON_INFO_READ_REG: return -EINVAL;   /* status registers are not modelled */
    case RADEON_INFO_VA_UNMAP_WORKING: v32 = 1; break;
    case RADEON_INFO_GPU_RESET_COUNTER: v32 = 0; break;
    default:
        return -EINVAL;
    }
    if (!user)
        return -EFAULT;   /* copy_to_user */
    if (wide)
        memcpy(user, &v64, 8);
    else
        memcpy(user, &v32, 4);
    return 0;
}

static int gem_info(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_info *g = data;
    g->vram_size = f->vc->vram_size;
    g->vram_visible = f->vc->vram_visible;
    g->gart_size = f->vc->gtt_size;
    return 0;
}

static int gem_create(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_create *a = data;
    struct vc_bo *bo;
    int r = vc_bo_create(f->vc, a->size, a->alignment, a->initial_domain, a->flags, &bo);
    if (r)
        return r;
    a->size = bo->size;
    return vc_handle_create(f, bo, &a->handle);
}

static int gem_mmap(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_mmap *m = data;
    struct vc_bo *bo = vc_handle_lookup(f, m->handle);
    if (!bo)
        return -ENOENT;
    m->addr_ptr = bo->mmap_offset;
    return 0;
}

static int gem_set_domain(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_set_domain *d = data;
    return vc_handle_lookup(f, d->handle) ? 0 : -ENOENT;
}

/* Submissions run to completion inside the CS ioctl: always idle. */
static int gem_wait_idle(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_wait_idle *w = data;
    return vc_handle_lookup(f, w->handle) ? 0 : -ENOENT;
}

static int gem_busy(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_busy *b = data;
    struct vc_bo *bo = vc_handle_lookup(f, b->handle);
    if (!bo)
        return -ENOENT;
    b->domain = bo->domain;
    return 0;
}

static int gem_set_tiling(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_set_tiling *a = data;
    struct vc_bo *bo = vc_handle_lookup(f, a->handle);
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

static int gem_get_tiling(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_get_tiling *t = data;
    struct vc_bo *bo = vc_handle_lookup(f, t->handle);
    if (!bo)
        return -ENOENT;
    t->tiling_flags = bo->tiling_flags;
    t->pitch = bo->pitch;
    return 0;
}

static int gem_op(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_op *o = data;
    struct vc_bo *bo = vc_handle_lookup(f, o->handle);
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

/* radeon_gem_va_ioctl: no VM on Evergreen. */
static int gem_va(struct vc_file *f, void *data)
{
    (void)f;
    ((struct drm_radeon_gem_va *)data)->operation = RADEON_VA_RESULT_ERROR;
    return -ENOTTY;
}

/* radeon_gem_userptr_ioctl's argument checks: page-aligned address and
 * size, known flags, and a writable mapping only with ANONONLY | REGISTER
 * (the MMU notifier): Mesa's probe with all zeros gets -EACCES, which it
 * reads as "userptr supported". */
static int gem_userptr(struct vc_file *f, void *data)
{
    struct drm_radeon_gem_userptr *a = data;
    (void)f;
    if ((a->addr | a->size) & 4095u)
        return -EINVAL;
    if (a->flags & ~(uint32_t)(RADEON_GEM_USERPTR_READONLY | RADEON_GEM_USERPTR_ANONONLY |
                               RADEON_GEM_USERPTR_VALIDATE | RADEON_GEM_USERPTR_REGISTER))
        return -EINVAL;
    if (!(a->flags & RADEON_GEM_USERPTR_READONLY) &&
        (!(a->flags & RADEON_GEM_USERPTR_ANONONLY) || !(a->flags & RADEON_GEM_USERPTR_REGISTER)))
        return -EACCES;
    return -ENOMEM;   /* buffers in user memory are not modelled */
}

static int radeon_cs(struct vc_file *f, void *data)
{
    return vc_cs_ioctl(f, data);
}

#define A VC_DRM_AUTH
#define M VC_DRM_MASTER
#define R VC_DRM_ROOT_ONLY
#define RA VC_DRM_RENDER_ALLOW
#define DEF(ioctl, fn_, flags_) \
    [_IOC_NR(ioctl) - DRM_COMMAND_BASE] = { .cmd = ioctl, .flags = flags_, .fn = fn_ }

/* The UMS ioctls (CP_INIT ... SURF_FREE) are drm_invalid_op under KMS. */
static const struct vc_ioctl_desc radeon_ioctls[] = {
    DEF(DRM_IOCTL_RADEON_CP_INIT, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_CP_START, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_CP_STOP, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_CP_RESET, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_CP_IDLE, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_CP_RESUME, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_RESET, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_FULLSCREEN, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_SWAP, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_CLEAR, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_VERTEX, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_INDICES, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_TEXTURE, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_STIPPLE, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_INDIRECT, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_VERTEX2, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_CMDBUF, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_GETPARAM, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_FLIP, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_ALLOC, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_FREE, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_INIT_HEAP, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RADEON_IRQ_EMIT, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_IRQ_WAIT, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_SETPARAM, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_SURF_ALLOC, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_SURF_FREE, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_RADEON_GEM_INFO, gem_info, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_CREATE, gem_create, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_MMAP, gem_mmap, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_SET_DOMAIN, gem_set_domain, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_PREAD, vc_ioctl_nosys, A),   /* radeon_gem_pread_ioctl: "unimplemented" */
    DEF(DRM_IOCTL_RADEON_GEM_PWRITE, vc_ioctl_nosys, A),
    DEF(DRM_IOCTL_RADEON_GEM_WAIT_IDLE, gem_wait_idle, A | RA),
    DEF(DRM_IOCTL_RADEON_CS, radeon_cs, A | RA),
    DEF(DRM_IOCTL_RADEON_INFO, radeon_info, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_SET_TILING, gem_set_tiling, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_GET_TILING, gem_get_tiling, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_BUSY, gem_busy, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_VA, gem_va, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_OP, gem_op, A | RA),
    DEF(DRM_IOCTL_RADEON_GEM_USERPTR, gem_userptr, A | RA),
};

const struct vc_ioctl_desc *vc_radeon_ioctl(unsigned index)
{
    return index < sizeof(radeon_ioctls) / sizeof(radeon_ioctls[0]) ? &radeon_ioctls[index] : NULL;
}
