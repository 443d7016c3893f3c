/* The DRM core ioctls of the virtual Cedar: the table of Linux 6.1's
 * drm_ioctl.c (drm_ioctls[]: numbers, permission flags) with the answers
 * the core gives for the radeon driver (radeon_drv.c kms_driver: DRIVER_GEM
 * | DRIVER_RENDER | DRIVER_MODESET, dumb buffers; KMS_DRIVER 2.50.0).
 * Departures, on purpose:
 *   - PRIME: DRM_CAP_PRIME is 0 and PRIME_HANDLE_TO_FD / FD_TO_HANDLE are
 *     -ENOSYS, as drm_prime.c answers for a driver without
 *     prime_handle_to_fd / prime_fd_to_handle (radeon has them; the model
 *     exports no dma-bufs);
 *   - no display engine: the KMS ioctls (MODE_*, WAIT_VBLANK, CRTC_*_SEQUENCE,
 *     leases) answer -EOPNOTSUPP as drm_mode_*() do on a device without
 *     DRIVER_MODESET, while GET_CAP and the dumb-buffer ioctls answer as
 *     radeon does;
 *   - the legacy (DRM 1) ioctls are vc_ioctl_invalid (-EINVAL), as in a kernel
 *     built without CONFIG_DRM_LEGACY; SYNCOBJ_* are -EOPNOTSUPP (no
 *     DRIVER_SYNCOBJ, drm_syncobj.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <drm.h>
#include <drm_mode.h>
#include <radeon_drm.h>

#include "vc_internal.h"

/* radeon_drv.c / radeon_drv.h: KMS_DRIVER_MAJOR/MINOR/PATCHLEVEL, DRIVER_NAME/DATE/DESC. */
#define VC_DRM_MAJOR 2
#define VC_DRM_MINOR 50
#define VC_DRM_PATCHLEVEL 0
#define VC_DRM_NAME "radeon"
#define VC_DRM_DATE "20080528"
#define VC_DRM_DESC "ATI Radeon"
/* drm_internal.h: the DRM interface version SET_VERSION negotiates. */
#define VC_DRM_IF_MAJOR 1
#define VC_DRM_IF_MINOR 4
/* radeon_display.c radeon_modeset_init: preferred_depth 24, prefer_shadow 1;
 * async_page_flip on R600+ with radeon_use_pflipirq 2 (the default);
 * radeon.h CURSOR_WIDTH / CURSOR_HEIGHT before CIK. */
#define VC_DUMB_PREFERRED_DEPTH 24
#define VC_CURSOR_SIZE 64
/* include/linux/highuid.h DEFAULT_OVERFLOWUID: what GET_CLIENT reports as uid. */
#define VC_OVERFLOWUID 65534
#define VC_PAGE 4096u

static int drm_noop(struct vc_file *f, void *data)
{
    (void)f, (void)data;
    return 0;
}

/* drm_mode_*() without DRIVER_MODESET, drm_syncobj_*() without DRIVER_SYNCOBJ. */
static int not_supported(struct vc_file *f, void *data)
{
    (void)f, (void)data;
    return -EOPNOTSUPP;
}

/* drm_copy_field(): copy what fits, report the full length. */
static void copy_field(char *dst, __kernel_size_t *len, const char *value)
{
    size_t n = strlen(value);
    if (dst && *len)
        memcpy(dst, value, n < *len ? n : *len);
    *len = n;
}

static int drm_version(struct vc_file *f, void *data)
{
    struct drm_version *v = data;
    (void)f;
    v->version_major = VC_DRM_MAJOR;
    v->version_minor = VC_DRM_MINOR;
    v->version_patchlevel = VC_DRM_PATCHLEVEL;
    copy_field(v->name, &v->name_len, VC_DRM_NAME);
    copy_field(v->date, &v->date_len, VC_DRM_DATE);
    copy_field(v->desc, &v->desc_len, VC_DRM_DESC);
    return 0;
}

/* drm_getunique: the master's bus id, which SET_VERSION 1.1+ fills in
 * (drm_set_busid -> drm_pci_set_busid: "pci:%04x:%02x:%02x.%d"); empty
 * before, which drmOpenByName relies on.  Copied whole or not at all, never
 * NUL-terminated; unique_len is set to its length either way. */
static int drm_getunique(struct vc_file *f, void *data)
{
    struct drm_unique *u = data;
    char bus[32] = "";
    if (f->master->unique_set)
        snprintf(bus, sizeof(bus), "pci:%04x:%02x:%02x.%d", VCEDAR_PCI_DOMAIN, VCEDAR_PCI_BUS, VCEDAR_PCI_DEV,
                 VCEDAR_PCI_FUNC);
    size_t len = strlen(bus);
    if (u->unique_len >= len && len) {
        if (!u->unique)
            return -EFAULT;
        memcpy(u->unique, bus, len);
    }
    u->unique_len = len;
    return 0;
}

static bool magic_taken(const struct vc_file *f, uint32_t magic)
{
    for (const struct vc_file *g = f->vc->files; g; g = g->next)
        if (g->magic == magic && g->magic_master == f->master)
            return true;
    return false;
}

/* drm_getmagic: the lowest free number of the master's magic map, once. */
static int drm_getmagic(struct vc_file *f, void *data)
{
    struct drm_auth *auth = data;
    if (!f->magic) {
        uint32_t m = 1;
        while (magic_taken(f, m))
            m++;
        f->magic = m;
        f->magic_master = f->master;
        f->magic_live = true;
    }
    auth->magic = f->magic;
    return 0;
}

/* drm_authmagic: the master authenticates the file that holds the number;
 * the number is used up (idr_replace with NULL). */
static int drm_authmagic(struct vc_file *f, void *data)
{
    struct drm_auth *auth = data;
    for (struct vc_file *g = f->vc->files; g; g = g->next)
        if (g->magic_live && g->magic == auth->magic && g->magic_master == f->master) {
            g->authenticated = true;
            g->magic_live = false;
            return 0;
        }
    return -EINVAL;
}

/* drm_getclient: only index 0, the caller itself. */
static int drm_getclient(struct vc_file *f, void *data)
{
    struct drm_client *c = data;
    if (c->idx != 0)
        return -EINVAL;
    c->auth = f->authenticated;
    c->pid = (unsigned long)getpid();
    c->uid = VC_OVERFLOWUID;
    c->magic = 0;
    c->iocs = 0;
    return 0;
}

static int drm_getstats(struct vc_file *f, void *data)
{
    (void)f;
    memset(data, 0, sizeof(struct drm_stats));
    return 0;
}

/* drm_getcap with radeon's mode_config. */
static int drm_getcap(struct vc_file *f, void *data)
{
    struct drm_get_cap *req = data;
    (void)f;
    req->value = 0;
    switch (req->capability) {
    case DRM_CAP_TIMESTAMP_MONOTONIC: req->value = 1; return 0;
    case DRM_CAP_PRIME: return 0;              /* neither import nor export (see the top) */
    case DRM_CAP_SYNCOBJ: return 0;            /* no DRIVER_SYNCOBJ */
    case DRM_CAP_SYNCOBJ_TIMELINE: return 0;
    case DRM_CAP_DUMB_BUFFER: req->value = 1; return 0;
    case DRM_CAP_VBLANK_HIGH_CRTC: req->value = 1; return 0;
    case DRM_CAP_DUMB_PREFERRED_DEPTH: req->value = VC_DUMB_PREFERRED_DEPTH; return 0;
    case DRM_CAP_DUMB_PREFER_SHADOW: req->value = 1; return 0;
    case DRM_CAP_ASYNC_PAGE_FLIP: req->value = 1; return 0;
    case DRM_CAP_PAGE_FLIP_TARGET: req->value = 1; return 0;   /* radeon_crtc_page_flip_target */
    case DRM_CAP_CURSOR_WIDTH:
    case DRM_CAP_CURSOR_HEIGHT: req->value = VC_CURSOR_SIZE; return 0;
    case DRM_CAP_ADDFB2_MODIFIERS: return 0;   /* fb_modifiers_not_supported */
    case DRM_CAP_CRTC_IN_VBLANK_EVENT: req->value = 1; return 0;
    default: return -EINVAL;
    }
}

/* drm_setclientcap (radeon has no DRIVER_ATOMIC). */
static int drm_setclientcap(struct vc_file *f, void *data)
{
    struct drm_set_client_cap *req = data;
    switch (req->capability) {
    case DRM_CLIENT_CAP_STEREO_3D:
        if (req->value > 1)
            return -EINVAL;
        f->stereo_allowed = req->value;
        return 0;
    case DRM_CLIENT_CAP_UNIVERSAL_PLANES:
        if (req->value > 1)
            return -EINVAL;
        f->universal_planes = req->value;
        return 0;
    case DRM_CLIENT_CAP_ATOMIC:
        return -EOPNOTSUPP;
    case DRM_CLIENT_CAP_ASPECT_RATIO:
        if (req->value > 1)
            return -EINVAL;
        f->aspect_ratio_allowed = req->value;
        return 0;
    case DRM_CLIENT_CAP_WRITEBACK_CONNECTORS:   /* needs atomic, which is never on */
    default:
        return -EINVAL;
    }
}

/* drm_setversion: the versions are written back whatever happens. */
static int drm_setversion(struct vc_file *f, void *data)
{
    struct drm_set_version *sv = data;
    int r = 0;
    if (sv->drm_di_major != -1) {
        if (sv->drm_di_major != VC_DRM_IF_MAJOR || sv->drm_di_minor < 0 || sv->drm_di_minor > VC_DRM_IF_MINOR) {
            r = -EINVAL;
            goto done;
        }
        if (sv->drm_di_minor >= 1)
            f->master->unique_set = true;   /* drm_set_busid */
    }
    if (sv->drm_dd_major != -1 &&
        (sv->drm_dd_major != VC_DRM_MAJOR || sv->drm_dd_minor < 0 || sv->drm_dd_minor > VC_DRM_MINOR))
        r = -EINVAL;
done:
    sv->drm_di_major = VC_DRM_IF_MAJOR;
    sv->drm_di_minor = VC_DRM_IF_MINOR;
    sv->drm_dd_major = VC_DRM_MAJOR;
    sv->drm_dd_minor = VC_DRM_MINOR;
    return r;
}

/* drm_master_check_perm: a file that was master, or CAP_SYS_ADMIN. */
static int master_check_perm(const struct vc_file *f)
{
    return f->was_master || f->vc->opts.sys_admin ? 0 : -EACCES;
}

static int drm_setmaster(struct vc_file *f, void *data)
{
    (void)data;
    int r = master_check_perm(f);
    if (r || vc_file_is_current_master(f))
        return r;
    if (f->vc->master)
        return -EBUSY;
    if (!f->master)
        return -EINVAL;
    if (!f->is_master)
        return vc_new_set_master(f);
    f->vc->master = f->master;   /* drm_set_master */
    f->master->refs++;
    f->was_master = true;
    return 0;
}

static int drm_dropmaster(struct vc_file *f, void *data)
{
    (void)data;
    int r = master_check_perm(f);
    if (r)
        return r;
    if (!vc_file_is_current_master(f))
        return -EINVAL;
    vc_master_put(f->vc->master);   /* drm_drop_master */
    f->vc->master = NULL;
    return 0;
}

static int gem_close(struct vc_file *f, void *data)
{
    return vc_handle_delete(f, ((struct drm_gem_close *)data)->handle);
}

static int gem_flink(struct vc_file *f, void *data)
{
    struct drm_gem_flink *a = data;
    struct vc_bo *bo = vc_handle_lookup(f, a->handle);
    if (!bo)
        return -ENOENT;
    return vc_bo_flink(f->vc, bo, &a->name);
}

static int gem_open(struct vc_file *f, void *data)
{
    struct drm_gem_open *a = data;
    /* idr_find(&dev->object_name_idr, (int)args->name): negative ids are never found */
    struct vc_bo *bo = a->name <= INT32_MAX ? vc_bo_by_name(f->vc, a->name) : NULL;
    if (!bo)
        return -ENOENT;
    uint32_t h;
    int r = vc_handle_create(f, bo, &h);
    if (r)
        return r;
    a->handle = h;
    a->size = bo->size;
    return 0;
}

/* drm_mode_create_dumb's checks, then radeon_mode_dumb_create: the pitch of
 * radeon_align_pitch (AVIVO: 256 / 128 / 64 pixels for 1 / 2 / 3-4 bytes),
 * a VRAM buffer of pitch x height rounded to pages. */
static int mode_create_dumb(struct vc_file *f, void *data)
{
    struct drm_mode_create_dumb *a = data;
    if (!a->width || !a->height || !a->bpp)
        return -EINVAL;
    if (a->bpp > UINT32_MAX - 8)
        return -EINVAL;
    uint32_t cpp = (a->bpp + 7) / 8;
    if (cpp > UINT32_MAX / a->width)
        return -EINVAL;
    uint32_t stride = cpp * a->width;
    if (a->height > UINT32_MAX / stride)
        return -EINVAL;
    /* (its PAGE_ALIGN(size) == 0 test cannot fire on a 64-bit kernel) */
    a->handle = 0;
    a->pitch = 0;
    a->size = 0;

    uint32_t mask = cpp == 1 ? 255 : cpp == 2 ? 127 : cpp <= 4 ? 63 : 0;
    a->pitch = ((a->width + mask) & ~mask) * cpp;
    a->size = ((uint64_t)a->pitch * a->height + VC_PAGE - 1) / VC_PAGE * VC_PAGE;
    struct vc_bo *bo;
    if (vc_bo_create(f->vc, a->size, 0, RADEON_GEM_DOMAIN_VRAM, 0, &bo))
        return -ENOMEM;
    uint32_t h;
    int r = vc_handle_create(f, bo, &h);
    if (r)
        return r;
    a->handle = h;
    return 0;
}

/* radeon_mode_dumb_mmap: the buffer's mmap offset. */
static int mode_map_dumb(struct vc_file *f, void *data)
{
    struct drm_mode_map_dumb *a = data;
    struct vc_bo *bo = vc_handle_lookup(f, a->handle);
    if (!bo)
        return -ENOENT;
    a->offset = bo->mmap_offset;
    return 0;
}

static int mode_destroy_dumb(struct vc_file *f, void *data)
{
    return vc_handle_delete(f, ((struct drm_mode_destroy_dumb *)data)->handle);
}

#define A VC_DRM_AUTH
#define M VC_DRM_MASTER
#define R VC_DRM_ROOT_ONLY
#define RA VC_DRM_RENDER_ALLOW
#define DEF(ioctl, fn_, flags_) [_IOC_NR(ioctl)] = { .cmd = ioctl, .flags = flags_, .fn = fn_ }

static const struct vc_ioctl_desc core_ioctls[] = {
    DEF(DRM_IOCTL_VERSION, drm_version, RA),
    DEF(DRM_IOCTL_GET_UNIQUE, drm_getunique, 0),
    DEF(DRM_IOCTL_GET_MAGIC, drm_getmagic, 0),
    DEF(DRM_IOCTL_IRQ_BUSID, vc_ioctl_invalid, M | R),
    DEF(DRM_IOCTL_GET_MAP, vc_ioctl_invalid, 0),
    DEF(DRM_IOCTL_GET_CLIENT, drm_getclient, 0),
    DEF(DRM_IOCTL_GET_STATS, drm_getstats, 0),
    DEF(DRM_IOCTL_GET_CAP, drm_getcap, RA),
    DEF(DRM_IOCTL_SET_CLIENT_CAP, drm_setclientcap, 0),
    DEF(DRM_IOCTL_SET_VERSION, drm_setversion, M),
    DEF(DRM_IOCTL_SET_UNIQUE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_BLOCK, drm_noop, A | M | R),
    DEF(DRM_IOCTL_UNBLOCK, drm_noop, A | M | R),
    DEF(DRM_IOCTL_AUTH_MAGIC, drm_authmagic, M),
    DEF(DRM_IOCTL_ADD_MAP, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RM_MAP, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_SET_SAREA_CTX, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_GET_SAREA_CTX, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_SET_MASTER, drm_setmaster, 0),
    DEF(DRM_IOCTL_DROP_MASTER, drm_dropmaster, 0),
    DEF(DRM_IOCTL_ADD_CTX, vc_ioctl_invalid, A | R),
    DEF(DRM_IOCTL_RM_CTX, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_MOD_CTX, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_GET_CTX, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_SWITCH_CTX, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_NEW_CTX, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_RES_CTX, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_ADD_DRAW, drm_noop, A | M | R),
    DEF(DRM_IOCTL_RM_DRAW, drm_noop, A | M | R),
    DEF(DRM_IOCTL_LOCK, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_UNLOCK, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_FINISH, drm_noop, A),
    DEF(DRM_IOCTL_ADD_BUFS, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_MARK_BUFS, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_INFO_BUFS, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_MAP_BUFS, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_FREE_BUFS, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_DMA, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_CONTROL, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_ACQUIRE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_RELEASE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_ENABLE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_INFO, vc_ioctl_invalid, A),
    DEF(DRM_IOCTL_AGP_ALLOC, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_FREE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_BIND, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_AGP_UNBIND, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_SG_ALLOC, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_SG_FREE, vc_ioctl_invalid, A | M | R),
    DEF(DRM_IOCTL_WAIT_VBLANK, not_supported, 0),
    DEF(DRM_IOCTL_MODESET_CTL, drm_noop, 0),   /* drm_legacy_modeset_ctl_ioctl: a no-op for KMS drivers */
    DEF(DRM_IOCTL_UPDATE_DRAW, drm_noop, A | M | R),
    DEF(DRM_IOCTL_GEM_CLOSE, gem_close, RA),
    DEF(DRM_IOCTL_GEM_FLINK, gem_flink, A),
    DEF(DRM_IOCTL_GEM_OPEN, gem_open, A),
    DEF(DRM_IOCTL_MODE_GETRESOURCES, not_supported, 0),
    DEF(DRM_IOCTL_PRIME_HANDLE_TO_FD, vc_ioctl_nosys, RA),
    DEF(DRM_IOCTL_PRIME_FD_TO_HANDLE, vc_ioctl_nosys, RA),
    DEF(DRM_IOCTL_MODE_GETPLANERESOURCES, not_supported, 0),
    DEF(DRM_IOCTL_MODE_GETCRTC, not_supported, 0),
    DEF(DRM_IOCTL_MODE_SETCRTC, not_supported, M),
    DEF(DRM_IOCTL_MODE_GETPLANE, not_supported, 0),
    DEF(DRM_IOCTL_MODE_SETPLANE, not_supported, M),
    DEF(DRM_IOCTL_MODE_CURSOR, not_supported, M),
    DEF(DRM_IOCTL_MODE_GETGAMMA, not_supported, 0),
    DEF(DRM_IOCTL_MODE_SETGAMMA, not_supported, M),
    DEF(DRM_IOCTL_MODE_GETENCODER, not_supported, 0),
    DEF(DRM_IOCTL_MODE_GETCONNECTOR, not_supported, 0),
    DEF(DRM_IOCTL_MODE_ATTACHMODE, drm_noop, M),
    DEF(DRM_IOCTL_MODE_DETACHMODE, drm_noop, M),
    DEF(DRM_IOCTL_MODE_GETPROPERTY, not_supported, 0),
    DEF(DRM_IOCTL_MODE_SETPROPERTY, not_supported, M),
    DEF(DRM_IOCTL_MODE_GETPROPBLOB, not_supported, 0),
    DEF(DRM_IOCTL_MODE_GETFB, not_supported, 0),
    DEF(DRM_IOCTL_MODE_GETFB2, not_supported, 0),
    DEF(DRM_IOCTL_MODE_ADDFB, not_supported, 0),
    DEF(DRM_IOCTL_MODE_ADDFB2, not_supported, 0),
    DEF(DRM_IOCTL_MODE_RMFB, not_supported, 0),
    DEF(DRM_IOCTL_MODE_PAGE_FLIP, not_supported, M),
    DEF(DRM_IOCTL_MODE_DIRTYFB, not_supported, M),
    DEF(DRM_IOCTL_MODE_CREATE_DUMB, mode_create_dumb, 0),
    DEF(DRM_IOCTL_MODE_MAP_DUMB, mode_map_dumb, 0),
    DEF(DRM_IOCTL_MODE_DESTROY_DUMB, mode_destroy_dumb, 0),
    DEF(DRM_IOCTL_MODE_OBJ_GETPROPERTIES, not_supported, 0),
    DEF(DRM_IOCTL_MODE_OBJ_SETPROPERTY, not_supported, M),
    DEF(DRM_IOCTL_MODE_CURSOR2, not_supported, M),
    DEF(DRM_IOCTL_MODE_ATOMIC, not_supported, M),
    DEF(DRM_IOCTL_MODE_CREATEPROPBLOB, not_supported, 0),
    DEF(DRM_IOCTL_MODE_DESTROYPROPBLOB, not_supported, 0),
    DEF(DRM_IOCTL_SYNCOBJ_CREATE, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_DESTROY, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_TRANSFER, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_WAIT, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_RESET, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_SIGNAL, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, not_supported, RA),
    DEF(DRM_IOCTL_SYNCOBJ_QUERY, not_supported, RA),
    DEF(DRM_IOCTL_CRTC_GET_SEQUENCE, not_supported, 0),
    DEF(DRM_IOCTL_CRTC_QUEUE_SEQUENCE, not_supported, 0),
    DEF(DRM_IOCTL_MODE_CREATE_LEASE, not_supported, M),
    DEF(DRM_IOCTL_MODE_LIST_LESSEES, not_supported, M),
    DEF(DRM_IOCTL_MODE_GET_LEASE, not_supported, M),
    DEF(DRM_IOCTL_MODE_REVOKE_LEASE, not_supported, M),
};

const struct vc_ioctl_desc *vc_drm_core_ioctl(unsigned nr)
{
    return nr < sizeof(core_ioctls) / sizeof(core_ioctls[0]) ? &core_ioctls[nr] : NULL;
}
