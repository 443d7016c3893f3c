/* The real libdrm and libdrm_radeon (the system's shared libraries) driving
 * DRM files of the virtual Cedar.
 *
 * This executable defines ioctl(), mmap64() and munmap(); the dynamic linker
 * binds libdrm's and libdrm_radeon's calls to these definitions (the
 * executable comes first in the lookup scope, as test_layout_libdrm relies
 * on).  File descriptors FAKE_FD0.. are DRM files of one model; every other
 * descriptor and address goes to the kernel as a raw system call.  The test
 * counts the calls that reached the model, so it cannot pass with libdrm
 * talking to something else.  What libdrm makes of the answers (its version
 * strings, bus id, capability values, master test, buffer manager) is
 * libdrm's own code, not the model's. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include <radeon_bo.h>
#include <radeon_bo_gem.h>
#include <radeon_drm.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "cedar/vcedar.h"

#define FAKE_FD0 4200   /* never opened: the kernel would answer EBADF */
#define NFILES 4

static struct cedar_dev *files[NFILES];
static unsigned model_ioctls, model_mmaps, model_munmaps;

static struct mapping {
    void *ptr;
    size_t len;
    struct cedar_dev *file;
} maps[16];

static struct cedar_dev *file_of_fd(int fd)
{
    return fd >= FAKE_FD0 && fd < FAKE_FD0 + NFILES ? files[fd - FAKE_FD0] : NULL;
}

int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    struct cedar_dev *f = file_of_fd(fd);
    if (!f)
        return (int)syscall(SYS_ioctl, fd, request, arg);
    model_ioctls++;
    int r = cedar_dev_ioctl(f, request, arg);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return r;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
    struct cedar_dev *f = file_of_fd(fd);
    if (!f)
        return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
    model_mmaps++;
    void *p = cedar_dev_mmap(f, (uint64_t)offset, len);
    if (!p) {
        errno = EACCES;
        return MAP_FAILED;
    }
    for (unsigned i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
        if (!maps[i].ptr) {
            maps[i] = (struct mapping){ p, len, f };
            return p;
        }
    fail_msg("more live mappings than the test expects");
    return MAP_FAILED;
}

int munmap(void *addr, size_t len)
{
    for (unsigned i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
        if (maps[i].ptr == addr && maps[i].len == len) {
            model_munmaps++;
            int r = cedar_dev_munmap(maps[i].file, addr, len);
            maps[i].ptr = NULL;
            if (r) {
                errno = -r;
                return -1;
            }
            return 0;
        }
    return (int)syscall(SYS_munmap, addr, len);
}

static struct vcedar *vc;

/* fd FAKE_FD0 + i: card0 (the first is master) or renderD128. */
static int open_fd(unsigned i, bool render)
{
    assert_true(i < NFILES && !files[i]);
    assert_int_equal(vcedar_open_file(vc, render, &files[i]), 0);
    return FAKE_FD0 + (int)i;
}

static void close_fd(int fd)
{
    cedar_dev_destroy(files[fd - FAKE_FD0]);
    files[fd - FAKE_FD0] = NULL;
}

static int setup(void **state)
{
    (void)state;
    struct vcedar_opts o = { .no_render = true };
    vc = vcedar_create(&o);
    return vc ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < NFILES; i++)
        if (files[i])
            close_fd(FAKE_FD0 + i);
    vcedar_destroy(vc);
    vc = NULL;
    return 0;
}

/* drmGetVersion asks twice (lengths, then strings into buffers it sizes
 * from them): radeon 2.50.0, "20080528", "ATI Radeon" (radeon_drv.c). */
static void version_through_libdrm(void **state)
{
    (void)state;
    int fd = open_fd(0, true);
    unsigned before = model_ioctls;
    drmVersionPtr v = drmGetVersion(fd);
    assert_non_null(v);
    assert_int_equal(model_ioctls - before, 2);
    assert_int_equal(v->version_major, 2);
    assert_int_equal(v->version_minor, 50);
    assert_int_equal(v->version_patchlevel, 0);
    assert_string_equal(v->name, "radeon");
    assert_int_equal(v->name_len, 6);
    assert_string_equal(v->date, "20080528");
    assert_string_equal(v->desc, "ATI Radeon");
    drmFreeVersion(v);
}

/* drmGetCap / drmSetClientCap: radeon's answers (drm_ioctl.c drm_getcap with
 * radeon's mode_config), PRIME 0 in this model. */
static void caps_through_libdrm(void **state)
{
    (void)state;
    int fd = open_fd(0, false), rfd = open_fd(1, true);
    uint64_t v = 99;
    assert_int_equal(drmGetCap(rfd, DRM_CAP_DUMB_BUFFER, &v), 0);
    assert_int_equal(v, 1);
    assert_int_equal(drmGetCap(rfd, DRM_CAP_TIMESTAMP_MONOTONIC, &v), 0);
    assert_int_equal(v, 1);
    assert_int_equal(drmGetCap(rfd, DRM_CAP_PRIME, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(drmGetCap(rfd, DRM_CAP_SYNCOBJ, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(drmGetCap(fd, DRM_CAP_DUMB_PREFERRED_DEPTH, &v), 0);
    assert_int_equal(v, 24);
    assert_int_equal(drmGetCap(fd, DRM_CAP_CURSOR_WIDTH, &v), 0);
    assert_int_equal(v, 64);
    assert_int_equal(drmGetCap(fd, DRM_CAP_ADDFB2_MODIFIERS, &v), 0);
    assert_int_equal(v, 0);
    errno = 0;
    assert_int_equal(drmGetCap(fd, 0x4242, &v), -1);
    assert_int_equal(errno, EINVAL);
    assert_int_equal(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
    assert_int_equal(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), -1);
    assert_int_equal(errno, EOPNOTSUPP);
    assert_int_equal(drmSetClientCap(rfd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), -1);
    assert_int_equal(errno, EACCES);
    /* PRIME refused as for a driver without it */
    int pfd = -1;
    assert_int_equal(drmPrimeHandleToFD(rfd, 1, DRM_CLOEXEC, &pfd), -1);
    assert_int_equal(errno, ENOSYS);
    uint32_t h = 0;
    assert_int_equal(drmPrimeFDToHandle(rfd, 3, &h), -1);
    assert_int_equal(errno, ENOSYS);
}

/* drmSetInterfaceVersion + drmGetBusid, the open-by-busid sequence
 * (drm_ioctl.c "getunique and setversion story"): empty before, then the
 * bus id drm_pci_set_busid formats; versions written back. */
static void busid_through_libdrm(void **state)
{
    (void)state;
    int fd = open_fd(0, false), rfd = open_fd(1, true), fd2 = open_fd(2, false);
    char *bus = drmGetBusid(fd);
    assert_non_null(bus);
    assert_string_equal(bus, "");
    drmFreeBusid(bus);
    drmSetVersion sv = { 1, 4, -1, -1 };
    assert_int_equal(drmSetInterfaceVersion(fd, &sv), 0);
    assert_int_equal(sv.drm_di_major, 1);
    assert_int_equal(sv.drm_di_minor, 4);
    assert_int_equal(sv.drm_dd_major, 2);
    assert_int_equal(sv.drm_dd_minor, 50);
    bus = drmGetBusid(fd);
    assert_non_null(bus);
    assert_string_equal(bus, "pci:0000:01:00.0");
    drmFreeBusid(bus);
    /* the other card0 file shares the master: it sees the bus id too */
    bus = drmGetBusid(fd2);
    assert_string_equal(bus, "pci:0000:01:00.0");
    drmFreeBusid(bus);
    /* a driver version newer than the kernel's is refused, versions still written back */
    drmSetVersion newer = { -1, -1, 2, 51 };
    assert_int_equal(drmSetInterfaceVersion(fd, &newer), -EINVAL);
    assert_int_equal(newer.drm_dd_minor, 50);
    /* render nodes and non-masters: DRM_MASTER */
    assert_int_equal(drmSetInterfaceVersion(rfd, &sv), -EACCES);
    assert_int_equal(drmSetInterfaceVersion(fd2, &sv), -EACCES);
    assert_null(drmGetBusid(rfd));
}

/* drmIsMaster (AUTH_MAGIC of 0: -EINVAL from a master, -EACCES otherwise),
 * drmGetMagic + drmAuthMagic authenticating a second card0 file. */
static void master_through_libdrm(void **state)
{
    (void)state;
    int fd = open_fd(0, false), fd2 = open_fd(1, false), rfd = open_fd(2, true);
    assert_true(drmIsMaster(fd));
    assert_false(drmIsMaster(fd2));
    assert_false(drmIsMaster(rfd));
    struct drm_radeon_gem_create c = { .size = 4096, .initial_domain = RADEON_GEM_DOMAIN_GTT };
    assert_int_equal(drmCommandWriteRead(fd2, DRM_RADEON_GEM_CREATE, &c, sizeof(c)), -EACCES);
    drm_magic_t magic = 0;
    assert_int_equal(drmGetMagic(fd2, &magic), 0);
    assert_true(magic != 0);
    assert_int_equal(drmAuthMagic(fd2, magic), -EACCES);
    assert_int_equal(drmAuthMagic(fd, magic), 0);
    assert_int_equal(drmCommandWriteRead(fd2, DRM_RADEON_GEM_CREATE, &c, sizeof(c)), 0);
    assert_int_equal(c.handle, 1);
    int auth = 0, pid = 0, uid = 0;
    unsigned long m = 0, iocs = 0;
    assert_int_equal(drmGetClient(fd2, 0, &auth, &pid, &uid, &m, &iocs), 0);
    assert_int_equal(auth, 1);
    assert_int_equal(pid, getpid());
    assert_int_equal(drmDropMaster(fd), 0);
    assert_false(drmIsMaster(fd));
    assert_int_equal(drmSetMaster(fd), 0);
    assert_true(drmIsMaster(fd));
    assert_int_equal(drmCloseBufferHandle(fd2, c.handle), 0);
    assert_int_equal(drmCloseBufferHandle(fd2, c.handle), -1);
    assert_int_equal(errno, EINVAL);
}

/* libdrm_radeon's GEM buffer manager in two files: a buffer created and
 * filled through file A, given a name (radeon_gem_get_kernel_name =
 * GEM_FLINK), opened by name in file B (radeon_bo_open with a name =
 * GEM_OPEN), read back through B's mapping; tiling set through A is seen
 * through B (one object); A's last reference closes A's handle and B's copy
 * lives on. */
static void radeon_bo_shared_between_files(void **state)
{
    (void)state;
    int fa = open_fd(0, false), fb = open_fd(1, false);
    drm_magic_t magic = 0;
    assert_int_equal(drmGetMagic(fb, &magic), 0);
    assert_int_equal(drmAuthMagic(fa, magic), 0);
    struct radeon_bo_manager *ma = radeon_bo_manager_gem_ctor(fa), *mb = radeon_bo_manager_gem_ctor(fb);
    assert_non_null(ma);
    assert_non_null(mb);
    unsigned maps0 = model_mmaps;
    struct radeon_bo *a = radeon_bo_open(ma, 0, 3 * 4096 + 100, 4096, RADEON_GEM_DOMAIN_VRAM, 0);
    assert_non_null(a);
    assert_int_equal(radeon_bo_map(a, 1), 0);
    uint32_t *pa = a->ptr;
    for (unsigned i = 0; i < 4096; i++)
        pa[i] = 0xC0DE0000u ^ i;
    uint32_t name = 0;
    assert_int_equal(radeon_gem_get_kernel_name(a, &name), 0);
    assert_true(name != 0);
    assert_int_equal(radeon_bo_set_tiling(a, RADEON_TILING_MACRO, 256), 0);

    struct radeon_bo *b = radeon_bo_open(mb, name, 0, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    assert_non_null(b);
    assert_int_equal(b->size, 4 * 4096);   /* GEM_OPEN's size: the page-rounded buffer */
    assert_true(b->handle != 0);
    assert_int_equal(radeon_bo_map(b, 0), 0);
    const uint32_t *pb = b->ptr;
    for (unsigned i = 0; i < 4096; i++)
        assert_int_equal(pb[i], 0xC0DE0000u ^ i);
    uint32_t tiling = 0, pitch = 0, domain = 0;
    assert_int_equal(radeon_bo_get_tiling(b, &tiling, &pitch), 0);
    assert_int_equal(tiling, RADEON_TILING_MACRO);
    assert_int_equal(pitch, 256);
    assert_int_equal(radeon_bo_is_busy(b, &domain), 0);
    assert_int_equal(domain, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(radeon_bo_wait(b), 0);
    assert_int_equal(model_mmaps - maps0, 2);
    /* a name nobody gave */
    assert_null(radeon_bo_open(mb, name + 7, 0, 0, RADEON_GEM_DOMAIN_VRAM, 0));

    /* A lets go: its mapping and handle go (munmap, GEM_CLOSE), B's stays */
    unsigned unmaps0 = model_munmaps;
    radeon_bo_unmap(a);
    assert_null(radeon_bo_unref(a));
    assert_int_equal(model_munmaps - unmaps0, 1);
    for (unsigned i = 0; i < 4096; i += 97)
        assert_int_equal(pb[i], 0xC0DE0000u ^ i);
    uint64_t size = 0;
    assert_int_equal(vcedar_file_bo_size(files[1], b->handle, &size), 0);
    assert_int_equal(size, 4 * 4096);
    radeon_bo_unmap(b);
    assert_null(radeon_bo_unref(b));
    assert_int_equal(vcedar_file_bo_size(files[1], 1, &size), -ENOENT);
    radeon_bo_manager_gem_dtor(ma);
    radeon_bo_manager_gem_dtor(mb);
}

/* Dumb buffers through libdrm's drmModeCreateDumbBuffer & co: the pitch of
 * radeon_fb.c radeon_align_pitch on an AVIVO chip (rows of 256 / 128 / 64
 * pixels for 1 / 2 / 3-4 bytes), a size of pitch x height rounded up to
 * pages (radeon_gem.c radeon_mode_dumb_create), drm_mode_create_dumb's
 * argument checks; card0 only (no DRM_RENDER_ALLOW).  The expected pitches
 * were worked out by hand from those formulas. */
static void dumb_buffers_through_libdrm(void **state)
{
    (void)state;
    int fd = open_fd(0, false), rfd = open_fd(1, true);
    static const struct {
        uint32_t w, h, bpp, pitch;
        uint64_t size;
    } cases[] = {
        { 1, 1, 32, 256, 4096 },             /* 64 px x 4 B */
        { 1280, 720, 32, 5120, 3686400 },    /* 1280 is a multiple of 64: 5120 x 720 = 900 pages */
        { 100, 10, 8, 256, 4096 },           /* 256 px x 1 B */
        { 100, 10, 16, 256, 4096 },          /* 128 px x 2 B */
        { 100, 10, 24, 384, 4096 },          /* 128 px x 3 B */
        { 65, 3, 32, 512, 4096 },            /* 128 px x 4 B */
        { 10, 1000, 64, 80, 81920 },         /* 8 B: no alignment, 80 x 1000 -> 20 pages */
    };
    uint32_t first = 0;
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t handle = 0, pitch = 0;
        uint64_t size = 0, offset = 0;
        assert_int_equal(drmModeCreateDumbBuffer(fd, cases[i].w, cases[i].h, cases[i].bpp, 0, &handle, &pitch, &size), 0);
        assert_int_equal(pitch, cases[i].pitch);
        assert_int_equal(size, cases[i].size);
        assert_int_equal(drmModeMapDumbBuffer(fd, handle, &offset), 0);
        uint32_t *p = mmap64(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
        assert_true(p != MAP_FAILED);
        p[size / 4 - 1] = i;
        assert_int_equal(munmap(p, size), 0);
        if (!first)
            first = handle;
    }
    uint32_t handle = 0, pitch = 0;
    uint64_t size = 0, offset = 0;
    assert_int_equal(drmModeCreateDumbBuffer(fd, 0, 10, 32, 0, &handle, &pitch, &size), -EINVAL);
    assert_int_equal(drmModeCreateDumbBuffer(fd, 10, 10, 0, 0, &handle, &pitch, &size), -EINVAL);
    assert_int_equal(drmModeCreateDumbBuffer(fd, 65536, 65536, 32, 0, &handle, &pitch, &size), -EINVAL);
    assert_int_equal(drmModeCreateDumbBuffer(rfd, 64, 64, 32, 0, &handle, &pitch, &size), -EACCES);
    assert_int_equal(drmModeMapDumbBuffer(fd, 999, &offset), -ENOENT);
    assert_int_equal(drmModeDestroyDumbBuffer(fd, first), 0);
    assert_int_equal(drmModeDestroyDumbBuffer(fd, first), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(version_through_libdrm, setup, teardown),
        cmocka_unit_test_setup_teardown(caps_through_libdrm, setup, teardown),
        cmocka_unit_test_setup_teardown(busid_through_libdrm, setup, teardown),
        cmocka_unit_test_setup_teardown(master_through_libdrm, setup, teardown),
        cmocka_unit_test_setup_teardown(radeon_bo_shared_between_files, setup, teardown),
        cmocka_unit_test_setup_teardown(dumb_buffers_through_libdrm, setup, teardown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!failed && (model_ioctls < 40 || model_mmaps < 2)) {
        fprintf(stderr, "libdrm reached the model %u times (ioctl) and %u times (mmap): too few\n", model_ioctls,
                model_mmaps);
        return 1;
    }
    return failed;
}
