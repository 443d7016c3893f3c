/* The CS ioctl of the virtual Cedar (checker, then execution), with buffers
 * and relocations from the input.  Input: a flags byte (bit 0: DMA ring,
 * bit 1: RADEON_CS_KEEP_TILING_FLAGS, bit 2: the kernel-compatible checker
 * instead of the strict one, bit 3: draws rendered unless one has more than
 * FUZZ_MAX_DRAW_VERTICES vertices, see fuzz_draw_budget.h), a buffer count (1..8)
 * and per buffer a size (32 bits, taken modulo 64 MiB), a domain byte and
 * its first bytes (a 16-bit length, then the bytes: shaders, vertices), a
 * relocation count (0..15) and per relocation a buffer byte (its index,
 * 255: a handle that does not exist) and its read / write domains, then the
 * IB's dwords.
 *
 * Invariants beyond "no crash":
 *  - the ioctl returns 0 or one of the kernel's errors, a refusal says why
 *    in one line;
 *  - it never writes the caller's IB or relocation chunk;
 *  - with the strict checker, an accepted CS writes no byte outside the
 *    buffers its relocations name (a patterned canary buffer stays as it
 *    was);
 *  - an accepted CS is accepted again when submitted a second time, and on
 *    a fresh device with the same buffers it leaves every small buffer
 *    with the same bytes (execution depends only on the CS and memory). */
#include <errno.h>
#include <stdbool.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/vcedar.h"
#include "fuzz_draw_budget.h"
#include "fuzz_util.h"

#define MAX_BOS 8
#define MAX_RELOCS 15
#define CANARY_SIZE 16384u
#define COMPARE_MAX (256u << 10)   /* buffers compared between devices */

struct cs_input {
    bool dma, keep_tiling, kernel_mode, render;
    unsigned nbos, nrelocs;
    uint64_t bo_size[MAX_BOS];
    uint32_t bo_domain[MAX_BOS];
    const uint8_t *bo_data[MAX_BOS];
    size_t bo_len[MAX_BOS];
    uint8_t reloc_bo[MAX_RELOCS];
    uint32_t reloc_rd[MAX_RELOCS], reloc_wr[MAX_RELOCS];
    uint32_t *ib;
    size_t ndw;
};

struct device {
    struct cedar_dev *dev;
    uint32_t handle[MAX_BOS], canary;
};

/* The canary buffer's pattern, made once (filling and checking it byte by
 * byte was a visible share of each execution). */
static const uint8_t *canary_pattern(void)
{
    static uint8_t pattern[CANARY_SIZE];
    static bool made;
    if (!made) {
        for (unsigned i = 0; i < CANARY_SIZE; i++)
            pattern[i] = (uint8_t)(0x5A ^ i ^ (i >> 8));
        made = true;
    }
    return pattern;
}

static void *map(struct cedar_dev *dev, uint32_t handle, uint64_t size)
{
    struct drm_radeon_gem_mmap m = { .handle = handle, .size = size };
    FUZZ_CHECK(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m) == 0, "GEM_MMAP of buffer %u", handle);
    void *p = cedar_dev_mmap(dev, m.addr_ptr, size);
    FUZZ_CHECK(p, "mmap of buffer %u", handle);
    return p;
}

static uint32_t create(struct cedar_dev *dev, uint64_t size, uint32_t domain)
{
    struct drm_radeon_gem_create c = { .size = size, .initial_domain = domain };
    int r = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c);
    FUZZ_CHECK(r == 0, "GEM_CREATE of %llu bytes: %d", (unsigned long long)size, r);
    return c.handle;
}

static void open_device(const struct cs_input *c, struct device *d)
{
    struct vcedar_opts o = { .mode = c->kernel_mode ? VC_CHECK_KERNEL : VC_CHECK_STRICT, .no_render = !c->render };
    FUZZ_CHECK(cedar_dev_open_virtual(&o, &d->dev) == 0, "cannot open the virtual device");
    for (unsigned i = 0; i < c->nbos; i++) {
        d->handle[i] = create(d->dev, c->bo_size[i], c->bo_domain[i]);
        if (c->bo_len[i]) {
            uint8_t *p = map(d->dev, d->handle[i], c->bo_len[i]);
            memcpy(p, c->bo_data[i], c->bo_len[i]);
            cedar_dev_munmap(d->dev, p, c->bo_len[i]);
        }
    }
    d->canary = create(d->dev, CANARY_SIZE, RADEON_GEM_DOMAIN_VRAM);
    uint8_t *p = map(d->dev, d->canary, CANARY_SIZE);
    memcpy(p, canary_pattern(), CANARY_SIZE);
    cedar_dev_munmap(d->dev, p, CANARY_SIZE);
}

/* Submit the CS; checks the ioctl's own promises. */
static int submit(const struct cs_input *c, struct device *d)
{
    uint32_t relocs[MAX_RELOCS * 4];
    for (unsigned i = 0; i < c->nrelocs; i++) {
        relocs[4 * i] = c->reloc_bo[i] == 255 ? 0x7FFFFFFFu : d->handle[c->reloc_bo[i] % c->nbos];
        relocs[4 * i + 1] = c->reloc_rd[i];
        relocs[4 * i + 2] = c->reloc_wr[i];
        relocs[4 * i + 3] = 0;
    }
    uint32_t flags[2] = { c->keep_tiling ? RADEON_CS_KEEP_TILING_FLAGS : 0,
                          c->dma ? RADEON_CS_RING_DMA : RADEON_CS_RING_GFX };
    struct drm_radeon_cs_chunk ch[3] = {
        { RADEON_CHUNK_ID_IB, (uint32_t)c->ndw, (uintptr_t)c->ib },
        { RADEON_CHUNK_ID_RELOCS, c->nrelocs * 4, (uintptr_t)relocs },
        { RADEON_CHUNK_ID_FLAGS, 2, (uintptr_t)flags },
    };
    uint64_t ptrs[3] = { (uintptr_t)&ch[0], (uintptr_t)&ch[1], (uintptr_t)&ch[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };
    uint32_t *ib_before = malloc(c->ndw ? c->ndw * 4 : 1), relocs_before[MAX_RELOCS * 4];
    FUZZ_CHECK(ib_before, "out of memory");
    memcpy(ib_before, c->ib, c->ndw * 4);
    memcpy(relocs_before, relocs, sizeof relocs);
    int r = cedar_dev_ioctl(d->dev, DRM_IOCTL_RADEON_CS, &cs);
    FUZZ_CHECK(!memcmp(ib_before, c->ib, c->ndw * 4), "the CS ioctl wrote the caller's IB");
    FUZZ_CHECK(!memcmp(relocs_before, relocs, c->nrelocs * 16), "the CS ioctl wrote the caller's relocations");
    free(ib_before);
    if (r) {
        FUZZ_CHECK(r == -EINVAL || r == -ENOENT || r == -ENOMEM || r == -EFAULT, "CS ioctl returned %d", r);
        const struct vc_error *e = vcedar_last_error(vcedar_of(d->dev));
        FUZZ_CHECK(e->code > VC_OK && e->code < VC_E_COUNT_, "refusal code %d", (int)e->code);
        char line[400];
        vc_error_format(e, line, sizeof line);
        fuzz_check_line("CS refusal", line);
    }
    if (!c->kernel_mode) {
        uint8_t *p = map(d->dev, d->canary, CANARY_SIZE);
        const uint8_t *want = canary_pattern();
        if (memcmp(p, want, CANARY_SIZE)) {
            unsigned i = 0;
            while (p[i] == want[i])
                i++;
            fuzz_fail("the CS (status %d) wrote byte %u of a buffer it does not name", r, i);
        }
        cedar_dev_munmap(d->dev, p, CANARY_SIZE);
    }
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    struct cs_input c;
    memset(&c, 0, sizeof c);
    uint8_t f = fuzz_u8(&in);
    c.dma = f & 1;
    c.keep_tiling = f & 2;
    c.kernel_mode = f & 4;
    c.render = f & 8;
    c.nbos = 1 + fuzz_u8(&in) % MAX_BOS;
    for (unsigned i = 0; i < c.nbos; i++) {
        c.bo_size[i] = fuzz_u32(&in) % (64u << 20) + 1;
        c.bo_domain[i] = fuzz_u8(&in) & 1 ? RADEON_GEM_DOMAIN_GTT : RADEON_GEM_DOMAIN_VRAM;
        size_t len = fuzz_u16(&in);
        len = len < in.n ? len : in.n;
        c.bo_len[i] = len < c.bo_size[i] ? len : c.bo_size[i];
        c.bo_data[i] = in.p;
        in.p += len;
        in.n -= len;
    }
    c.nrelocs = fuzz_u8(&in) % (MAX_RELOCS + 1);
    for (unsigned i = 0; i < c.nrelocs; i++) {
        c.reloc_bo[i] = fuzz_u8(&in);
        c.reloc_rd[i] = fuzz_u8(&in);
        c.reloc_wr[i] = fuzz_u8(&in);
    }
    c.ib = fuzz_rest_dwords(&in, &c.ndw);
    c.render = c.render && !c.dma && draw_budget_ok(c.ib, c.ndw);

    struct device a, b;
    open_device(&c, &a);
    int r = submit(&c, &a);
    if (r == 0) {
        FUZZ_CHECK(submit(&c, &a) == 0, "an accepted CS is refused when submitted again: %s",
                   vcedar_last_error(vcedar_of(a.dev))->text);
        /* the same CS once on a fresh device: the same bytes in every buffer
         * small enough to compare (device a ran it twice, so compare a CS
         * whose second run rewrites what the first wrote: run b twice too) */
        open_device(&c, &b);
        FUZZ_CHECK(submit(&c, &b) == 0 && submit(&c, &b) == 0, "an accepted CS is refused on a fresh device");
        for (unsigned i = 0; i < c.nbos; i++) {
            if (c.bo_size[i] > COMPARE_MAX)
                continue;
            uint8_t *pa = map(a.dev, a.handle[i], c.bo_size[i]), *pb = map(b.dev, b.handle[i], c.bo_size[i]);
            FUZZ_CHECK(!memcmp(pa, pb, c.bo_size[i]), "buffer %u differs between two devices after the same CS", i);
            cedar_dev_munmap(a.dev, pa, c.bo_size[i]);
            cedar_dev_munmap(b.dev, pb, c.bo_size[i]);
        }
        cedar_dev_destroy(b.dev);
    }
    cedar_dev_destroy(a.dev);
    free(c.ib);
    return 0;
}
