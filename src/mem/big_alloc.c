/* Large zero-filled buffers (see cedar/bigmem.h). */
#include "cedar/bigmem.h"

#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* The length actually mapped for a buffer of size bytes. */
static size_t mapped_length(size_t size)
{
    return size >= CEDAR_BIG_HUGE ? (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1) : size;
}

void *cedar_big_alloc(size_t size)
{
    if (size == 0 || size > SIZE_MAX - 2 * HUGE_PAGE)
        return NULL;
    const int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    size_t n = mapped_length(size);
    if (n == size) {
        void *p = mmap(NULL, n, prot, flags, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    /* Map a huge page more, keep the 2 MiB-aligned stretch inside. */
    size_t span = n + HUGE_PAGE;
    uint8_t *raw = mmap(NULL, span, prot, flags, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (raw + span > p + n)
        munmap(p + n, (size_t)(raw + span - (p + n)));
    madvise(p, n, MADV_HUGEPAGE);
    return p;
}

void cedar_big_free(void *p, size_t size)
{
    if (p)
        munmap(p, mapped_length(size));
}
