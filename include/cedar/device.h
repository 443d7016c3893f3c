/* The seam at the ioctl level.
 *
 * Every word cedar says to the radeon kernel driver goes through a
 * struct cedar_dev: an ioctl with the kernel's own request numbers and
 * structs (DRM_IOCTL_VERSION, DRM_IOCTL_RADEON_INFO, DRM_IOCTL_RADEON_GEM_*,
 * DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_RADEON_CS from libdrm's radeon_drm.h and
 * drm.h) and an mmap of the offset GEM_MMAP returned.  Two backends marshal
 * the very same structs: the real kernel (src/device/dev_kernel.c, libdrm)
 * and the virtual Cedar (src/vcedar/), so the code path a card owner runs is
 * the one CI tests.
 */
#ifndef CEDAR_DEVICE_H
#define CEDAR_DEVICE_H

#include <stddef.h>
#include <stdint.h>

struct cedar_dev;

struct cedar_dev_ops {
    const char *name; /* "kernel" or "virtual" */
    /* Returns 0 or a negative errno, like drmCommandWriteRead(). */
    int (*ioctl)(struct cedar_dev *dev, unsigned long request, void *arg);
    /* Maps size bytes at the fake offset GEM_MMAP returned; NULL on failure. */
    void *(*mmap)(struct cedar_dev *dev, uint64_t offset, size_t size);
    int (*munmap)(struct cedar_dev *dev, void *ptr, size_t size);
    /* Why the last failing ioctl failed, as one line (the virtual Cedar's
     * checker gives the structured reason; the kernel only says -EINVAL, so
     * its backend points at dmesg).  Writes "" when it knows nothing. */
    void (*last_error)(struct cedar_dev *dev, char *buf, size_t len);
    void (*destroy)(struct cedar_dev *dev);
};

struct cedar_dev {
    const struct cedar_dev_ops *ops;
    int fd;          /* kernel backend: the DRM file descriptor; virtual: -1 */
    void *priv;      /* backend state */
    char node[64];   /* "/dev/dri/renderD128", "virtual", ... */
};

static inline int cedar_dev_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    return dev->ops->ioctl(dev, request, arg);
}

static inline void *cedar_dev_mmap(struct cedar_dev *dev, uint64_t offset, size_t size)
{
    return dev->ops->mmap(dev, offset, size);
}

static inline int cedar_dev_munmap(struct cedar_dev *dev, void *ptr, size_t size)
{
    return dev->ops->munmap(dev, ptr, size);
}

static inline void cedar_dev_destroy(struct cedar_dev *dev)
{
    if (dev)
        dev->ops->destroy(dev);
}

#endif
