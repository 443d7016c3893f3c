/* Large zero-filled buffers (surfaces, images, the virtual Cedar's buffer
 * objects): anonymous memory that the kernel hands out when it is first
 * touched.  From CEDAR_BIG_HUGE bytes on, the buffer is aligned to and
 * rounded up to 2 MiB and transparent huge pages are asked for: the first
 * touch of a 2 MiB stretch is then one page fault instead of 512, and a
 * read of an untouched stretch maps the kernel's huge zero page.  (In a
 * virtual machine a 4 KiB fault measured 10-25 us here, more than zeroing
 * the page.)  Where THP is off the advice is ignored and the buffer is an
 * ordinary mapping. */
#ifndef CEDAR_BIGMEM_H
#define CEDAR_BIGMEM_H

#include <stddef.h>

#define CEDAR_BIG_HUGE (1u << 20)   /* 1 MiB: at most twice what is asked for */

/* size bytes of zeros, or NULL (size 0, or out of memory).  Release with
 * cedar_big_free(p, size), the same size. */
void *cedar_big_alloc(size_t size);
void cedar_big_free(void *p, size_t size);

#endif
