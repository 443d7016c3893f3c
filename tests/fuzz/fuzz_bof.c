/* The BOF capture reader (vc_bof_read) on any file, then what cedar-sim
 * replay does with a capture it read: buffers created and loaded, the CS
 * submitted to the virtual Cedar.  Invariants beyond "no crash": a refused
 * file is refused in one line; a capture read is written back
 * (vc_bof_write) and read again to the same fields and bytes; its replay
 * is accepted or refused in one line, and the strict checker lets no
 * accepted CS write a buffer the capture does not name (a canary). */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/vc_bof.h"
#include "cedar/vcedar.h"
#include "fuzz_util.h"

#define REPLAY_MAX (64u << 20)     /* buffer bytes a replay may create */
#define CANARY_SIZE 16384u

static int file_fd(const char *name, char *path, size_t len)
{
    int fd = memfd_create(name, 0);
    FUZZ_CHECK(fd >= 0, "memfd_create: %s", strerror(errno));
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

static void same_capture(const struct vc_bof_cs *a, const struct vc_bof_cs *b)
{
    FUZZ_CHECK(a->device_id == b->device_id && a->ring == b->ring && a->flags == b->flags, "header fields");
    FUZZ_CHECK(a->nrelocs == b->nrelocs && !memcmp(a->relocs, b->relocs, (size_t)a->nrelocs * 16), "relocations");
    FUZZ_CHECK(a->ndw == b->ndw && !memcmp(a->ib, b->ib, (size_t)a->ndw * 4), "IB");
    FUZZ_CHECK(a->nbos == b->nbos, "buffer count");
    for (uint32_t i = 0; i < a->nbos; i++) {
        const struct vc_bof_bo *x = &a->bos[i], *y = &b->bos[i];
        FUZZ_CHECK(x->handle == y->handle && x->size == y->size && x->domain == y->domain &&
                       x->tiling_flags == y->tiling_flags && x->pitch == y->pitch,
                   "buffer %u fields", i);
        FUZZ_CHECK(!x->size || !memcmp(x->data, y->data, x->size), "buffer %u bytes", i);
    }
}

static uint8_t canary_byte(unsigned i)
{
    return (uint8_t)(0xC3 ^ i ^ (i >> 8));
}

static void replay(struct vc_bof_cs *cs)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < cs->nbos; i++)
        total += cs->bos[i].size;
    if (total > REPLAY_MAX || cs->nbos > 64)
        return;
    struct vcedar_opts o = { .mode = VC_CHECK_STRICT, .no_render = true };
    struct cedar_dev *dev;
    FUZZ_CHECK(cedar_dev_open_virtual(&o, &dev) == 0, "cannot open the virtual device");
    uint32_t local[64];
    for (uint32_t i = 0; i < cs->nbos; i++) {
        const struct vc_bof_bo *b = &cs->bos[i];
        struct drm_radeon_gem_create c = { .size = b->size, .initial_domain = b->domain ? b->domain
                                                                                          : RADEON_GEM_DOMAIN_VRAM };
        local[i] = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c) ? 0 : c.handle;
        if (!local[i] || !b->size)
            continue;
        struct drm_radeon_gem_set_tiling t = { .handle = local[i], .tiling_flags = b->tiling_flags, .pitch = b->pitch };
        cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &t);
        struct drm_radeon_gem_mmap m = { .handle = local[i], .size = b->size };
        FUZZ_CHECK(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m) == 0, "GEM_MMAP");
        void *p = cedar_dev_mmap(dev, m.addr_ptr, b->size);
        FUZZ_CHECK(p, "mmap");
        memcpy(p, b->data, b->size);
        cedar_dev_munmap(dev, p, b->size);
    }
    struct drm_radeon_gem_create cc = { .size = CANARY_SIZE, .initial_domain = RADEON_GEM_DOMAIN_GTT };
    FUZZ_CHECK(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &cc) == 0, "canary");
    struct drm_radeon_gem_mmap cm = { .handle = cc.handle, .size = CANARY_SIZE };
    FUZZ_CHECK(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &cm) == 0, "canary GEM_MMAP");
    uint8_t *canary = cedar_dev_mmap(dev, cm.addr_ptr, CANARY_SIZE);
    FUZZ_CHECK(canary, "canary mmap");
    for (unsigned i = 0; i < CANARY_SIZE; i++)
        canary[i] = canary_byte(i);
    /* relocations name captured handles: the local ones (an unknown one stays unknown) */
    for (uint32_t i = 0; i < cs->nrelocs; i++) {
        uint32_t k;
        for (k = 0; k < cs->nbos && cs->bos[k].handle != cs->relocs[4 * i]; k++)
            ;
        cs->relocs[4 * i] = k < cs->nbos && local[k] ? local[k] : 0x7FFFFFFFu;
    }
    uint32_t flags[2] = { cs->flags, cs->ring };
    struct drm_radeon_cs_chunk ch[3] = {
        { RADEON_CHUNK_ID_IB, cs->ndw, (uintptr_t)cs->ib },
        { RADEON_CHUNK_ID_RELOCS, cs->nrelocs * 4, (uintptr_t)cs->relocs },
        { RADEON_CHUNK_ID_FLAGS, 2, (uintptr_t)flags },
    };
    uint64_t ptrs[3] = { (uintptr_t)&ch[0], (uintptr_t)&ch[1], (uintptr_t)&ch[2] };
    struct drm_radeon_cs req = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };
    int r = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &req);
    if (r) {
        char line[400];
        vc_error_format(vcedar_last_error(vcedar_of(dev)), line, sizeof line);
        fuzz_check_line("replay refusal", line);
    }
    for (unsigned i = 0; i < CANARY_SIZE; i++)
        FUZZ_CHECK(canary[i] == canary_byte(i), "the replayed CS (status %d) wrote byte %u of an unnamed buffer", r, i);
    cedar_dev_munmap(dev, canary, CANARY_SIZE);
    cedar_dev_destroy(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int in_fd = -1, out_fd = -1;
    static char in_path[64], out_path[64];
    if (in_fd < 0) {
        in_fd = file_fd("bof-in", in_path, sizeof in_path);
        out_fd = file_fd("bof-out", out_path, sizeof out_path);
    }
    FUZZ_CHECK(ftruncate(in_fd, 0) == 0 && pwrite(in_fd, data, size, 0) == (ssize_t)size, "cannot write the input");
    struct vc_bof_cs cs, again;
    char err[256];
    if (vc_bof_read(in_path, &cs, err, sizeof err)) {
        fuzz_check_line("BOF refusal", err);
        return 0;
    }
    FUZZ_CHECK(ftruncate(out_fd, 0) == 0, "cannot truncate");
    FUZZ_CHECK(vc_bof_write(out_path, &cs, err, sizeof err) == 0, "a capture read cannot be written: %s", err);
    FUZZ_CHECK(vc_bof_read(out_path, &again, err, sizeof err) == 0, "a capture written cannot be read: %s", err);
    same_capture(&cs, &again);
    vc_bof_free(&again);
    replay(&cs);
    vc_bof_free(&cs);
    return 0;
}
