/* Which file descriptors are DRM files.  A table indexed by fd, read
 * without a lock (every close() and mmap() in the process asks, render
 * threads included), written under the GPU lock.  dup/dup2/dup3 and
 * fcntl(F_DUPFD*) give the new fd the same DRM file, as the kernel's
 * shared open file description does; close drops it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <linux/close_range.h>
#include <unistd.h>

#include "shim.h"

static _Atomic(struct shim_file *) fd_files[SHIM_MAX_FD];

struct shim_file *shim_fd_file(int fd)
{
    if (fd < 0 || fd >= SHIM_MAX_FD)
        return NULL;
    return atomic_load_explicit(&fd_files[fd], memory_order_acquire);
}

int shim_fd_bind(int fd, struct shim_file *f)
{
    if (fd < 0 || fd >= SHIM_MAX_FD)
        return -1;
    shim_lock();
    shim_file_ref(f);
    struct shim_file *old = atomic_exchange(&fd_files[fd], f);
    if (old)
        shim_file_unref(old);
    shim_unlock();
    return 0;
}

void shim_fd_unbind(int fd)
{
    if (!shim_fd_file(fd))
        return;
    shim_lock();
    struct shim_file *old = atomic_exchange(&fd_files[fd], NULL);
    if (old)
        shim_file_unref(old);
    shim_unlock();
}

/* newfd now stands for what oldfd is (after a successful dup). */
static int dup_result(int oldfd, int newfd)
{
    if (newfd < 0)
        return newfd;
    struct shim_file *f = shim_fd_file(oldfd);
    if (f) {
        if (shim_fd_bind(newfd, f) != 0) {
            REAL(close, "close")(newfd);
            errno = EMFILE;
            return -1;
        }
    } else {
        shim_fd_unbind(newfd);   /* newfd was replaced by a non-DRM file */
    }
    return newfd;
}

SHIM_EXPORT int close(int fd)
{
    shim_fd_unbind(fd);
    return REAL(close, "close")(fd);
}

/* glibc 2.34's close_range, used by spawners: forget every DRM fd in it. */
SHIM_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
    int r = REAL(close_range, "close_range")(first, last, flags);
    if (r == 0 && !(flags & CLOSE_RANGE_CLOEXEC))
        for (unsigned fd = first; fd <= last && fd < SHIM_MAX_FD; fd++)
            shim_fd_unbind((int)fd);
    return r;
}

SHIM_EXPORT int dup(int fd)
{
    return dup_result(fd, REAL(dup, "dup")(fd));
}

SHIM_EXPORT int dup2(int fd, int newfd)
{
    int r = REAL(dup2, "dup2")(fd, newfd);
    return fd == newfd ? r : dup_result(fd, r);
}

SHIM_EXPORT int dup3(int fd, int newfd, int flags)
{
    return dup_result(fd, REAL(dup3, "dup3")(fd, newfd, flags));
}

/* The third argument is an int or a pointer depending on cmd; passed on
 * as a machine word, as the syscall takes it. */
SHIM_EXPORT int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    uintptr_t arg = va_arg(ap, uintptr_t);
    va_end(ap);
    int r = REAL(fcntl, "fcntl")(fd, cmd, arg);
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
        return dup_result(fd, r);
    return r;
}

SHIM_EXPORT int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    uintptr_t arg = va_arg(ap, uintptr_t);
    va_end(ap);
    return fcntl(fd, cmd, arg);
}
