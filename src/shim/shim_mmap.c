/* mmap of a DRM fd at a GEM_MMAP offset gives the program the buffer's own
 * memory (the virtual kernel's backing store), so what the CPU writes is
 * what the GPU reads and what the GPU wrote is there after a wait, with no
 * copy either way.  The mapping keeps the buffer alive after GEM_CLOSE, as
 * the kernel's does; munmap releases it.  Every other mmap/munmap is the
 * real call (and never waits for the GPU lock: render threads map memory
 * while a CS holds it). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "shim.h"

struct drm_map {
    void *ptr;
    size_t len;
};

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct drm_map *maps;
static size_t nmaps, capmaps;

static int remember(void *ptr, size_t len)
{
    pthread_mutex_lock(&maps_lock);
    int r = 0;
    if (nmaps == capmaps) {
        size_t cap = capmaps ? capmaps * 2 : 64;
        struct drm_map *m = realloc(maps, cap * sizeof *m);
        if (m) {
            maps = m;
            capmaps = cap;
        } else {
            r = -ENOMEM;
        }
    }
    if (r == 0)
        maps[nmaps++] = (struct drm_map){ ptr, len };
    pthread_mutex_unlock(&maps_lock);
    return r;
}

/* Forget the mapping at ptr; 1 when there was one. */
static int forget(void *ptr, size_t *len)
{
    pthread_mutex_lock(&maps_lock);
    int found = 0;
    for (size_t i = nmaps; i-- > 0;) {
        if (maps[i].ptr == ptr) {
            *len = maps[i].len;
            maps[i] = maps[--nmaps];
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&maps_lock);
    return found;
}

void *shim_drm_mmap(struct shim_file *f, void *addr, size_t len, off_t offset)
{
    if (len == 0 || offset < 0) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    shim_lock();
    struct cedar_dev *dev = shim_file_dev(f);
    void *p = dev->ops->mmap(dev, (uint64_t)offset, len);
    if (p && addr && p != addr) {
        /* MAP_FIXED elsewhere cannot give the buffer's own memory */
        dev->ops->munmap(dev, p, len);
        p = NULL;
    }
    if (p && remember(p, len) != 0) {
        dev->ops->munmap(dev, p, len);
        p = NULL;
        errno = ENOMEM;
    } else if (!p) {
        errno = EINVAL;   /* drm_gem_mmap: no object at that offset, or too large */
    }
    shim_unlock();
    if (shim_cfg.trace)
        shim_log("mmap offset 0x%llx size %zu -> %p", (unsigned long long)offset, len, p);
    return p ? p : MAP_FAILED;
}

int shim_drm_munmap(void *ptr, size_t len)
{
    size_t maplen;
    if (!forget(ptr, &maplen))
        return 0;
    (void)len;   /* the kernel unmaps what was asked; a buffer is released whole */
    shim_lock();
    struct cedar_dev *dev = shim_model_dev();
    if (dev)
        dev->ops->munmap(dev, ptr, maplen);
    shim_unlock();
    return 1;
}

SHIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    struct shim_file *f = shim_fd_file(fd);
    if (f && !(flags & MAP_ANONYMOUS))
        return shim_drm_mmap(f, (flags & MAP_FIXED) ? addr : NULL, len, offset);
    return REAL(mmap, "mmap")(addr, len, prot, flags, fd, offset);
}

SHIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    return mmap(addr, len, prot, flags, fd, offset);
}

SHIM_EXPORT int munmap(void *addr, size_t len)
{
    if (shim_drm_munmap(addr, len))
        return 0;
    return REAL(munmap, "munmap")(addr, len);
}
