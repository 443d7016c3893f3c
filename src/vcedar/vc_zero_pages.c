/* vcedar_zero_pages: the pages of a buffer nothing has written yet, read
 * from the kernel's page map instead of from the pages themselves
 * (Documentation/admin-guide/mm/pagemap.rst: one 64-bit entry per virtual
 * page of the process, bit 63 "present", bit 62 "swapped"; readable by the
 * process itself, which sees the flags even where it may not see frame
 * numbers).  A buffer's memory is a private anonymous mapping
 * (vc_host_alloc): a page that is neither present nor swapped has never
 * been touched, or was given back, and reads as zeros either way. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "vc_internal.h"

#define PAGE 4096u
#define PM_PRESENT (1ull << 63)
#define PM_SWAPPED (1ull << 62)
#define PM_BATCH 512u   /* entries read per pread */

int vcedar_zero_pages(struct vcedar *vc, const void *ptr, size_t len, uint8_t *zero)
{
    uintptr_t a = (uintptr_t)ptr;
    struct vc_bo *bo = vc ? vc_bo_by_host(vc, ptr) : NULL;
    if (!bo || a % PAGE || sysconf(_SC_PAGESIZE) != PAGE || len > bo->size ||
        (const uint8_t *)ptr + len > bo->host + bo->size)
        return -1;
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t pages = (len + PAGE - 1) / PAGE;
    uint64_t e[PM_BATCH];
    int rc = 0;
    for (size_t i = 0; i < pages && rc == 0; i += PM_BATCH) {
        size_t n = pages - i < PM_BATCH ? pages - i : PM_BATCH;
        off_t at = (off_t)((a / PAGE + i) * sizeof e[0]);
        ssize_t got = pread(fd, e, n * sizeof e[0], at);
        if (got != (ssize_t)(n * sizeof e[0])) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < n; k++)
            zero[i + k] = (e[k] & (PM_PRESENT | PM_SWAPPED)) == 0;
    }
    close(fd);
    return rc;
}
