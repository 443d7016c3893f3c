/* The real-kernel backend of the ioctl seam: drmIoctl and mmap on the DRM
 * file descriptor.  The handle is only handed out after the node proved to
 * be a Cedar on the radeon driver (cedar_dev_query_facts), and the CS ioctl
 * is refused on any handle that did not pass, so nothing is ever submitted
 * to another GPU. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <radeon_drm.h>

#include "cedar/pci.h"

struct kernel_priv {
    bool verified;     /* driver, version and device id checked */
    int last_errno;
    unsigned long last_request;
};

static int kernel_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    struct kernel_priv *p = dev->priv;
    if (request == DRM_IOCTL_RADEON_CS && !p->verified) {
        p->last_errno = EPERM;
        p->last_request = request;
        return -EPERM;
    }
    if (drmIoctl(dev->fd, request, arg) != 0) {
        p->last_errno = errno;
        p->last_request = request;
        return -errno;
    }
    return 0;
}

static void *kernel_mmap(struct cedar_dev *dev, uint64_t offset, size_t size)
{
    void *ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd, (off_t)offset);
    return ptr == MAP_FAILED ? NULL : ptr;
}

static int kernel_munmap(struct cedar_dev *dev, void *ptr, size_t size)
{
    (void)dev;
    return munmap(ptr, size) == 0 ? 0 : -errno;
}

static void kernel_last_error(struct cedar_dev *dev, char *buf, size_t len)
{
    struct kernel_priv *p = dev->priv;
    if (p->last_errno == 0) {
        snprintf(buf, len, "%s", "");
    } else if (p->last_request == DRM_IOCTL_RADEON_CS && !p->verified) {
        snprintf(buf, len, "command submission refused: %s is not a verified Cedar on radeon",
                 dev->node);
    } else {
        snprintf(buf, len, "the kernel said %s (the radeon CS checker logs why: see dmesg)",
                 strerror(p->last_errno));
    }
}

static void kernel_destroy(struct cedar_dev *dev)
{
    if (dev->fd >= 0)
        close(dev->fd);
    free(dev->priv);
    free(dev);
}

static const struct cedar_dev_ops kernel_ops = {
    .name = "kernel",
    .ioctl = kernel_ioctl,
    .mmap = kernel_mmap,
    .munmap = kernel_munmap,
    .last_error = kernel_last_error,
    .destroy = kernel_destroy,
};

struct cedar_dev *cedar_dev_open_kernel(const char *node, char *err, size_t errlen)
{
    int fd = open(node, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", node, strerror(errno));
        return NULL;
    }
    struct cedar_dev *dev = calloc(1, sizeof *dev);
    struct kernel_priv *p = calloc(1, sizeof *p);
    if (!dev || !p) {
        free(dev);
        free(p);
        close(fd);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    dev->ops = &kernel_ops;
    dev->fd = fd;
    dev->priv = p;
    snprintf(dev->node, sizeof dev->node, "%s", node);

    struct cedar_dev_facts facts;
    if (cedar_dev_query_facts(dev, &facts, err, errlen) != 0) {
        cedar_dev_destroy(dev);
        return NULL;
    }
    p->verified = true;
    return dev;
}
