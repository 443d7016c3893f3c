/* copy_from_user / copy_to_user for the virtual kernel.  A program may
 * hand an ioctl any pointer; the kernel answers -EFAULT for one it cannot
 * read or write, and so must we, without faulting ourselves.  The kernel
 * reads the process's memory for us: process_vm_readv/writev on our own
 * pid (always allowed for oneself); where a sandbox forbids those calls,
 * a pipe does the same (write() from and read() into a bad address fail
 * with EFAULT). */
#include <errno.h>
#include <pthread.h>
#include <sys/uio.h>
#include <unistd.h>

#include "shim.h"

#define PIPE_CHUNK 4096

static int use_pipe;   /* process_vm_* unavailable here */

static int via_pipe(void *dst, const void *src, size_t len)
{
    int p[2];
    if (pipe(p) != 0)
        return -EFAULT;
    int r = 0;
    for (size_t at = 0; at < len && r == 0; at += PIPE_CHUNK) {
        size_t n = len - at < PIPE_CHUNK ? len - at : PIPE_CHUNK;
        if (write(p[1], (const char *)src + at, n) != (ssize_t)n ||
            read(p[0], (char *)dst + at, n) != (ssize_t)n)
            r = -EFAULT;
    }
    REAL(close, "close")(p[0]);
    REAL(close, "close")(p[1]);
    return r;
}

static int copy(void *dst, const void *src, size_t len, int to_user)
{
    if (len == 0)
        return 0;
    if (!use_pipe) {
        struct iovec local = { to_user ? (void *)src : dst, len };
        struct iovec remote = { to_user ? dst : (void *)src, len };
        ssize_t n = to_user ? process_vm_writev(getpid(), &local, 1, &remote, 1, 0)
                            : process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
        if (n == (ssize_t)len)
            return 0;
        if (n >= 0 || errno == EFAULT)
            return -EFAULT;
        use_pipe = 1;   /* ENOSYS / EPERM: fall back for good */
    }
    return via_pipe(dst, src, len);
}

int shim_copy_from_user(void *dst, const void *usrc, size_t len)
{
    return copy(dst, usrc, len, 0);
}

int shim_copy_to_user(void *udst, const void *src, size_t len)
{
    return copy(udst, src, len, 1);
}
