/* GPU memory of the virtual Cedar: sorted, non-overlapping GPU address
 * ranges, each backed by an anonymous host mapping.  The kernel only hands
 * out pages when they are touched, so a 512 MiB VRAM (or a 33 MiB MSAA
 * buffer of which a corner is drawn) costs what is used (in 2 MiB stretches
 * for buffers that large, see vc_host_alloc). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/bigmem.h"
#include "vc_internal.h"

/* Buffers of a megabyte or more get transparent huge pages (cedar/bigmem.h):
 * the renderer's first touches of an MSAA surface cost one fault per 2 MiB,
 * and reading untouched parts back maps the kernel's huge zero page. */
uint8_t *vc_host_alloc(uint64_t size)
{
    if (size == 0 || size > (uint64_t)SIZE_MAX)
        return NULL;
    return cedar_big_alloc((size_t)size);
}

void vc_host_free(uint8_t *p, uint64_t size)
{
    cedar_big_free(p, (size_t)size);
}

/* Index of the first region whose end is above gpu. */
static size_t first_ending_after(const struct vc_memmap *m, uint64_t gpu)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->r[mid].gpu + m->r[mid].size <= gpu)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int vc_memmap_add(struct vc_memmap *m, uint64_t gpu, uint64_t size, uint8_t *host, struct vc_bo *bo)
{
    if (size == 0 || gpu + size < gpu)
        return -EINVAL;
    size_t i = first_ending_after(m, gpu);
    if (i < m->n && m->r[i].gpu < gpu + size)
        return -EEXIST;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        struct vc_region *r = realloc(m->r, cap * sizeof(*r));
        if (!r)
            return -ENOMEM;
        m->r = r;
        m->cap = cap;
    }
    memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof(*m->r));
    m->r[i] = (struct vc_region){ .gpu = gpu, .size = size, .host = host, .bo = bo };
    m->n++;
    return 0;
}

void vc_memmap_remove(struct vc_memmap *m, uint64_t gpu)
{
    size_t i = first_ending_after(m, gpu);
    if (i < m->n && m->r[i].gpu == gpu) {
        memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*m->r));
        m->n--;
    }
}

const struct vc_region *vc_memmap_find(const struct vc_memmap *m, uint64_t gpu, uint64_t len)
{
    if (gpu + len < gpu)
        return NULL;
    size_t i = first_ending_after(m, gpu);
    if (i >= m->n)
        return NULL;
    const struct vc_region *r = &m->r[i];
    if (gpu < r->gpu || gpu + len > r->gpu + r->size)
        return NULL;
    return r;
}

void *vc_memmap_ptr(const struct vc_memmap *m, uint64_t gpu, uint64_t len)
{
    const struct vc_region *r = vc_memmap_find(m, gpu, len);
    return r ? r->host + (gpu - r->gpu) : NULL;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

uint64_t vc_memmap_place(const struct vc_memmap *m, uint64_t lo, uint64_t hi, uint64_t size, uint64_t align)
{
    uint64_t at = align_up(lo, align);
    for (size_t i = first_ending_after(m, lo); i < m->n && m->r[i].gpu < hi; i++) {
        if (at + size <= m->r[i].gpu)
            break;
        uint64_t end = m->r[i].gpu + m->r[i].size;
        if (end > at)
            at = align_up(end, align);
    }
    return at + size <= hi ? at : UINT64_MAX;
}

void vc_memmap_free(struct vc_memmap *m)
{
    free(m->r);
    *m = (struct vc_memmap){ 0 };
}
