/* DRM files of the virtual Cedar and the way an ioctl reaches its handler,
 * as the Linux 6.1 DRM core does it:
 *   - a file is one open() of card0 or renderD128 (drm_file.c drm_open_helper,
 *     drm_file_alloc); the first card0 file while there is no master becomes
 *     master and is authenticated (drm_auth.c drm_master_open); the last close
 *     (drm_file_free) releases its handles (drm_gem_release), its master role
 *     (drm_master_release) and the radeon rights it held
 *     (radeon_kms.c radeon_driver_postclose_kms);
 *   - drm_ioctl(): a request whose type is not 'd' is -ENOTTY, a number with
 *     no handler -EINVAL; the argument is copied in for _IOC_SIZE(request)
 *     bytes when both the request and the kernel's definition have
 *     _IOC_WRITE, zero-extended to the kernel's size, checked by
 *     drm_ioctl_permit(), handled, and copied back when both have _IOC_READ,
 *     whatever the handler returned;
 *   - a CPU mapping of a buffer is allowed through a file only while that file
 *     holds a handle to it (drm_gem_mmap: drm_vma_node_is_allowed). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm.h>

#include "vc_internal.h"

static const struct cedar_dev_ops file_ops;

static struct vc_file *file_of(struct cedar_dev *dev)
{
    return dev && dev->ops == &file_ops ? dev->priv : NULL;
}

void vc_master_put(struct vc_master *m)
{
    if (m && --m->refs == 0)
        free(m);
}

bool vc_file_is_current_master(const struct vc_file *f)
{
    return f->is_master && f->vc && f->master && f->master == f->vc->master;
}

int vc_new_set_master(struct vc_file *f)
{
    struct vc_master *m = calloc(1, sizeof(*m));
    if (!m)
        return -ENOMEM;
    m->refs = 2;   /* the file's and the device's (dev->master) */
    /* A magic number stays in the old master's map, where no master can
     * look it up any more: the file starts afresh. */
    f->magic = 0;
    f->magic_master = NULL;
    f->magic_live = false;
    vc_master_put(f->master);
    f->master = m;
    f->is_master = true;
    f->authenticated = true;
    f->was_master = true;
    f->vc->master = m;
    return 0;
}

static int open_file(struct vcedar *vc, bool render_node, bool owns_model, struct cedar_dev **out)
{
    struct vc_file *f = calloc(1, sizeof(*f));
    if (!f)
        return -ENOMEM;
    f->vc = vc;
    f->render = render_node;
    f->owns_model = owns_model;
    f->authenticated = vc->opts.sys_admin;   /* "for compatibility root is always authenticated" */
    if (!render_node) {
        if (!vc->master) {
            if (vc_new_set_master(f)) {
                free(f);
                return -ENOMEM;
            }
        } else {
            f->master = vc->master;
            f->master->refs++;
        }
    }
    f->dev.ops = &file_ops;
    f->dev.fd = -1;
    f->dev.priv = f;
    snprintf(f->dev.node, sizeof(f->dev.node), "%s", owns_model ? "virtual"
                                                     : render_node ? "virtual renderD128" : "virtual card0");
    f->next = vc->files;
    vc->files = f;
    if (!vc->first_file)
        vc->first_file = f;
    *out = &f->dev;
    return 0;
}

int vcedar_open_file(struct vcedar *vc, bool render_node, struct cedar_dev **out)
{
    if (!vc || !out)
        return -EINVAL;
    return open_file(vc, render_node, false, out);
}

int cedar_dev_open_virtual(const struct vcedar_opts *opts, struct cedar_dev **out)
{
    struct vcedar *vc = vcedar_create(opts);
    if (!vc)
        return -ENOMEM;
    int r = open_file(vc, false, true, out);
    if (r)
        vcedar_destroy(vc);
    return r;
}

struct vcedar *vcedar_of(struct cedar_dev *dev)
{
    struct vc_file *f = file_of(dev);
    return f ? f->vc : NULL;
}

int vcedar_file_bo_size(struct cedar_dev *file, uint32_t handle, uint64_t *size)
{
    struct vc_file *f = file_of(file);
    struct vc_bo *bo = f && f->vc ? vc_handle_lookup(f, handle) : NULL;
    if (!bo)
        return -ENOENT;
    *size = bo->size;
    return 0;
}

/* The model is going away: the file stays, unplugged. */
void vc_file_unplug(struct vc_file *f)
{
    free(f->handles);   /* the buffers are freed with the model */
    f->handles = NULL;
    f->nhandles = 0;
    f->vc = NULL;
}

/* drm_file_free, as far as the model keeps state for a file. */
static void file_release(struct vc_file *f)
{
    struct vcedar *vc = f->vc;
    if (vc) {
        vc_handles_release(f);
        if (vc_file_is_current_master(f)) {   /* drm_master_release -> drm_drop_master */
            vc_master_put(vc->master);
            vc->master = NULL;
        }
        if (vc->hyperz_owner == f)
            vc->hyperz_owner = NULL;
        if (vc->cmask_owner == f)
            vc->cmask_owner = NULL;
        for (struct vc_file **p = &vc->files; *p; p = &(*p)->next)
            if (*p == f) {
                *p = f->next;
                break;
            }
        if (vc->first_file == f)
            vc->first_file = NULL;
    }
    vc_master_put(f->master);
    f->master = NULL;
}

static void file_destroy(struct cedar_dev *dev)
{
    struct vc_file *f = dev->priv;
    struct vcedar *vc = f->vc;
    file_release(f);
    if (f->owns_model && vc)
        vcedar_destroy(vc);
    free(f);
}

int vc_ioctl_invalid(struct vc_file *f, void *data)
{
    (void)f, (void)data;
    return -EINVAL;
}

int vc_ioctl_nosys(struct vc_file *f, void *data)
{
    (void)f, (void)data;
    return -ENOSYS;
}

/* drm_ioctl_permit() */
static int permit(const struct vc_file *f, uint32_t flags)
{
    if ((flags & VC_DRM_ROOT_ONLY) && !f->vc->opts.sys_admin)
        return -EACCES;
    if ((flags & VC_DRM_AUTH) && !f->render && !f->authenticated)
        return -EACCES;
    if ((flags & VC_DRM_MASTER) && !vc_file_is_current_master(f))
        return -EACCES;
    if (!(flags & VC_DRM_RENDER_ALLOW) && f->render)
        return -EACCES;
    return 0;
}

/* drm_ioctl()'s look-up: the handler of a request's number, NULL if none. */
static const struct vc_ioctl_desc *ioctl_desc(uint32_t cmd)
{
    if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
        return NULL;
    unsigned nr = _IOC_NR(cmd);
    const struct vc_ioctl_desc *d = nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END
                                        ? vc_radeon_ioctl(nr - DRM_COMMAND_BASE)
                                        : vc_drm_core_ioctl(nr);
    return d && d->fn ? d : NULL;
}

unsigned long vcedar_ioctl_definition(unsigned long request)
{
    const struct vc_ioctl_desc *d = ioctl_desc((uint32_t)request);
    return d ? d->cmd : 0;
}

static int file_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    struct vc_file *f = dev->priv;
    uint32_t cmd = (uint32_t)request;   /* the syscall passes an unsigned int */
    if (!f->vc)
        return -ENODEV;                 /* drm_dev_is_unplugged */
    if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
        return -ENOTTY;
    const struct vc_ioctl_desc *d = ioctl_desc(cmd);
    if (!d)
        return -EINVAL;

    size_t drv_size = _IOC_SIZE(d->cmd), in_size = _IOC_SIZE(cmd), out_size = in_size;
    if (!(cmd & d->cmd & IOC_IN))
        in_size = 0;
    if (!(cmd & d->cmd & IOC_OUT))
        out_size = 0;
    size_t ksize = in_size > out_size ? in_size : out_size;
    if (drv_size > ksize)
        ksize = drv_size;
    if (in_size && !arg)
        return -EFAULT;                 /* copy_from_user */

    union {
        uint8_t b[128];
        uint64_t align;
    } stack;
    uint8_t *kdata = stack.b;
    if (ksize > sizeof(stack.b)) {
        kdata = malloc(ksize);
        if (!kdata)
            return -ENOMEM;
    }
    if (in_size)
        memcpy(kdata, arg, in_size);
    memset(kdata + in_size, 0, ksize - in_size);

    int r = permit(f, d->flags);
    if (!r)
        r = d->fn(f, kdata);
    if (out_size) {
        if (arg)
            memcpy(arg, kdata, out_size);
        else
            r = -EFAULT;                /* copy_to_user */
    }
    if (kdata != stack.b)
        free(kdata);
    return r;
}

static bool file_has_handle_to(const struct vc_file *f, const struct vc_bo *bo)
{
    for (uint32_t h = 1; h < f->nhandles; h++)
        if (f->handles[h] == bo)
            return true;
    return false;
}

static void *file_mmap(struct cedar_dev *dev, uint64_t offset, size_t size)
{
    struct vc_file *f = dev->priv;
    if (!f->vc || size == 0)
        return NULL;
    struct vc_bo *bo = vc_bo_by_mmap_offset(f->vc, offset, size);
    if (!bo || !file_has_handle_to(f, bo))
        return NULL;
    bo->maps++;
    return bo->host;
}

static int file_munmap(struct cedar_dev *dev, void *ptr, size_t size)
{
    struct vc_file *f = dev->priv;
    if (!f->vc)
        return -EINVAL;
    struct vc_bo *bo = vc_bo_by_host(f->vc, ptr);
    if (!bo || (uint8_t *)ptr != bo->host || size > bo->size || bo->maps == 0)
        return -EINVAL;
    vc_bo_unmapped(f->vc, bo);
    return 0;
}

static void file_last_error(struct cedar_dev *dev, char *buf, size_t len)
{
    struct vc_file *f = dev->priv;
    if (!f->vc || f->vc->last_error.code == VC_OK) {
        if (len)
            buf[0] = '\0';
        return;
    }
    vc_error_format(&f->vc->last_error, buf, len);
}

static const struct cedar_dev_ops file_ops = {
    .name = "virtual",
    .ioctl = file_ioctl,
    .mmap = file_mmap,
    .munmap = file_munmap,
    .last_error = file_last_error,
    .destroy = file_destroy,
};
