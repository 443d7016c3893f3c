/* DRM files on one virtual Cedar: what several open()s of card0 /
 * renderD128 see.  Every expected answer is the Linux 6.1 kernel's, read in
 * its source (cited at each test): drm_gem.c (handles, GEM_FLINK /
 * GEM_OPEN / GEM_CLOSE), drm_ioctl.c (drm_ioctl, drm_ioctl_permit and the
 * drm_ioctls[] flags), drm_auth.c (masters, magic), radeon_drv.c
 * (radeon_ioctls_kms[] flags), radeon_kms.c (WANT_HYPERZ / WANT_CMASK
 * rights).  Memory is compared through CPU mappings and through the GPU
 * (CP_DMA copies) so a file that reaches the wrong buffer fails. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/cmdbuf.h"
#include "cedar/vcedar.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

static struct vcedar *new_model(bool no_exec)
{
    struct vcedar_opts o = { .mode = VC_CHECK_STRICT, .no_render = true, .no_exec = no_exec };
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    return vc;
}

static struct cedar_dev *open_file(struct vcedar *vc, bool render)
{
    struct cedar_dev *f = NULL;
    assert_int_equal(vcedar_open_file(vc, render, &f), 0);
    assert_non_null(f);
    assert_ptr_equal(vcedar_of(f), vc);
    return f;
}

static int gem_create(struct cedar_dev *f, uint64_t size, uint32_t *handle)
{
    struct drm_radeon_gem_create c = { .size = size, .initial_domain = RADEON_GEM_DOMAIN_VRAM };
    int r = cedar_dev_ioctl(f, DRM_IOCTL_RADEON_GEM_CREATE, &c);
    *handle = c.handle;
    return r;
}

static int gem_close(struct cedar_dev *f, uint32_t handle)
{
    struct drm_gem_close c = { .handle = handle };
    return cedar_dev_ioctl(f, DRM_IOCTL_GEM_CLOSE, &c);
}

static uint32_t flink(struct cedar_dev *f, uint32_t handle)
{
    struct drm_gem_flink fl = { .handle = handle };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_GEM_FLINK, &fl), 0);
    assert_true(fl.name != 0);
    return fl.name;
}

static uint64_t info64(struct cedar_dev *f, uint32_t request)
{
    uint64_t v = 0;
    struct drm_radeon_info i = { .request = request, .value = (uintptr_t)&v };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_INFO, &i), 0);
    return v;
}

/* RADEON_INFO_WANT_HYPERZ / _CMASK: ask (1) or give up (0); the answer is
 * whether the caller holds the right now. */
static uint32_t want(struct cedar_dev *f, uint32_t request, uint32_t value)
{
    struct drm_radeon_info i = { .request = request, .value = (uintptr_t)&value };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_INFO, &i), 0);
    return value;
}

/* A second card0 file authenticated by the master (drm_auth.c). */
static struct cedar_dev *open_authenticated(struct vcedar *vc, struct cedar_dev *master)
{
    struct cedar_dev *f = open_file(vc, false);
    struct drm_auth a = { 0 };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_GET_MAGIC, &a), 0);
    assert_int_equal(cedar_dev_ioctl(master, DRM_IOCTL_AUTH_MAGIC, &a), 0);
    return f;
}

/* A CS that copies `bytes` from buffer `src` to buffer `dst` with CP_DMA. */
static int cp_dma_copy(struct cedar_dev *f, uint32_t src, uint32_t dst, uint32_t bytes)
{
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    uint32_t copy[5] = { 0, 0, 0, 0, S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(bytes) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, copy, 5);
    cedar_cmdbuf_reloc(&cb, src, RADEON_GEM_DOMAIN_VRAM, 0, 0);
    cedar_cmdbuf_reloc(&cb, dst, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    cedar_cmdbuf_pad(&cb, 8);
    assert_int_equal(cb.error, 0);
    int r = test_vc_submit(f, &cb, RADEON_CS_RING_GFX, RADEON_CS_KEEP_TILING_FLAGS);
    cedar_cmdbuf_fini(&cb);
    return r;
}

/* A CS that fills `bytes` of buffer `dst` with `value` (CP_DMA from data),
 * as Mesa clears a CMask. */
static int cp_dma_fill(struct cedar_dev *f, uint32_t dst, uint32_t value, uint32_t bytes)
{
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    uint32_t fill[5] = { value, S_CP_DMA_CP_DMA_INFO__SRC_SEL(V_CP_DMA_SRC_SEL__SRC_DATA), 0, 0,
                         S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(bytes) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, fill, 5);
    cedar_cmdbuf_reloc(&cb, dst, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    cedar_cmdbuf_pad(&cb, 8);
    assert_int_equal(cb.error, 0);
    int r = test_vc_submit(f, &cb, RADEON_CS_RING_GFX, RADEON_CS_KEEP_TILING_FLAGS);
    cedar_cmdbuf_fini(&cb);
    return r;
}

/* drm_gem_handle_create_tail: idr_alloc(&file->object_idr, obj, 1, 0): each
 * file numbers its handles from 1, lowest free first. */
static void handles_per_file(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false), *b = open_file(vc, true);
    assert_int_equal(test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM), 1);
    assert_int_equal(test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM), 2);
    assert_int_equal(test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM), 3);
    assert_int_equal(test_vc_bo_new(b, 4096, RADEON_GEM_DOMAIN_VRAM), 1);
    assert_int_equal(gem_close(a, 2), 0);
    assert_int_equal(test_vc_bo_new(a, 8192, RADEON_GEM_DOMAIN_VRAM), 2);
    assert_int_equal(test_vc_bo_new(b, 4096, RADEON_GEM_DOMAIN_VRAM), 2);
    assert_int_equal(test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM), 4);
    uint64_t size = 0;
    assert_int_equal(vcedar_file_bo_size(a, 2, &size), 0);
    assert_int_equal(size, 8192);
    assert_int_equal(vcedar_file_bo_size(b, 2, &size), 0);
    assert_int_equal(size, 4096);
    cedar_dev_destroy(b);
    cedar_dev_destroy(a);
    vcedar_destroy(vc);
}

/* A handle of file A names nothing in file B: radeon_gem.c answers -ENOENT
 * (drm_gem_object_lookup fails), GEM_CLOSE -EINVAL (drm_gem_handle_delete),
 * and a CS relocation naming it -ENOENT (radeon_cs_parser_relocs). */
static void handle_foreign_to_other_file(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false), *b = open_file(vc, true);
    uint32_t ha1 = test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM), ha2 = test_vc_bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM);
    uint32_t hb = test_vc_bo_new(b, 4096, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(hb, 1);
    assert_int_equal(ha2, 2);
    struct drm_radeon_gem_mmap m = { .handle = ha2, .size = 4096 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_RADEON_GEM_MMAP, &m), -ENOENT);
    struct drm_radeon_gem_wait_idle w = { .handle = ha2 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w), -ENOENT);
    struct drm_radeon_gem_get_tiling t = { .handle = ha2 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_RADEON_GEM_GET_TILING, &t), -ENOENT);
    struct drm_radeon_gem_busy bz = { .handle = ha2 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_RADEON_GEM_BUSY, &bz), -ENOENT);
    uint64_t size = 0;
    assert_int_equal(vcedar_file_bo_size(b, ha2, &size), -ENOENT);
    assert_int_equal(gem_close(b, ha2), -EINVAL);
    /* B's CS may name its own handle 1, not A's handle 2 */
    assert_int_equal(cp_dma_fill(b, hb, 0x11111111u, 64), 0);
    assert_int_equal(cp_dma_fill(b, ha2, 0x11111111u, 64), -ENOENT);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_BO_HANDLE);
    /* handle 1 in B is B's buffer, not A's handle 1 */
    const uint32_t *pa = (uint32_t *)test_vc_bo_map(a, ha1, 4096), *pb = (uint32_t *)test_vc_bo_map(b, hb, 4096);
    assert_int_equal(pb[0], 0x11111111u);
    assert_int_equal(pa[0], 0);
    /* mapping A's buffer through B is refused: B holds no handle to it
     * (drm_gem_mmap: drm_vma_node_is_allowed) */
    struct drm_radeon_gem_mmap ma = { .handle = ha1, .size = 4096 };
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_RADEON_GEM_MMAP, &ma), 0);
    assert_null(cedar_dev_mmap(b, ma.addr_ptr, 4096));
    cedar_dev_munmap(a, (void *)pa, 4096);
    cedar_dev_munmap(b, (void *)pb, 4096);
    cedar_dev_destroy(a);
    cedar_dev_destroy(b);
    vcedar_destroy(vc);
}

/* GEM_FLINK in A, GEM_OPEN in B (drm_gem_flink_ioctl, drm_gem_open_ioctl):
 * B gets a handle of its own to the same buffer, and its size. */
static void flink_open_shares_memory(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false);
    struct cedar_dev *b = open_authenticated(vc, a);
    uint32_t hb_own = test_vc_bo_new(b, 4096, RADEON_GEM_DOMAIN_VRAM);   /* B's handle 1: the opened buffer gets 2 */
    uint32_t ha = test_vc_bo_new(a, 10000, RADEON_GEM_DOMAIN_VRAM);
    uint32_t name = flink(a, ha);
    assert_int_equal(flink(a, ha), name);   /* one name per buffer */
    struct drm_gem_open op = { .name = name };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_OPEN, &op), 0);
    assert_int_equal(op.handle, hb_own + 1);
    assert_int_equal(op.size, 12288);   /* the buffer's page-rounded size */
    struct drm_gem_open bad = { .name = name + 1 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_OPEN, &bad), -ENOENT);
    bad.name = 0;
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_OPEN, &bad), -ENOENT);
    struct drm_gem_flink nofl = { .handle = 77 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_FLINK, &nofl), -ENOENT);

    /* CPU: written through A's mapping, read through B's */
    uint32_t *pa = (uint32_t *)test_vc_bo_map(a, ha, 12288);
    for (unsigned i = 0; i < 3072; i++)
        pa[i] = 0x5EED0000u + i;
    const uint32_t *pb = (uint32_t *)test_vc_bo_map(b, op.handle, 12288);
    for (unsigned i = 0; i < 3072; i++)
        assert_int_equal(pb[i], 0x5EED0000u + i);
    /* GPU: B's handle reaches the same memory (copied into B's own buffer) */
    assert_int_equal(cp_dma_copy(b, op.handle, hb_own, 4096), 0);
    const uint32_t *own = (uint32_t *)test_vc_bo_map(b, hb_own, 4096);
    assert_int_equal(own[0], 0x5EED0000u);
    assert_int_equal(own[1023], 0x5EED0000u + 1023);
    /* and what B's CS writes, A reads */
    assert_int_equal(cp_dma_fill(b, op.handle, 0xB0B0B0B0u, 16), 0);
    assert_int_equal(pa[3], 0xB0B0B0B0u);
    assert_int_equal(pa[4], 0x5EED0004u);
    /* a render node may not use global names (no DRM_RENDER_ALLOW) */
    struct cedar_dev *r = open_file(vc, true);
    struct drm_gem_open ro = { .name = name };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_GEM_OPEN, &ro), -EACCES);
    struct drm_gem_flink rf = { .handle = test_vc_bo_new(r, 4096, RADEON_GEM_DOMAIN_VRAM) };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_GEM_FLINK, &rf), -EACCES);
    cedar_dev_destroy(r);
    cedar_dev_munmap(a, pa, 12288);
    cedar_dev_munmap(b, (void *)pb, 12288);
    cedar_dev_munmap(b, (void *)own, 4096);
    cedar_dev_destroy(b);
    cedar_dev_destroy(a);
    vcedar_destroy(vc);
}

/* A buffer lives while any file holds a handle or a CPU mapping remains
 * (drm_gem_object_release_handle / drm_gem_vm_close); its name lives while
 * a handle does (drm_gem_object_handle_free).  VRAM usage tells when it is
 * freed (RADEON_INFO_VRAM_USAGE, ttm_resource_manager_usage). */
static void close_keeps_buffer_for_other_file(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false);
    struct cedar_dev *b = open_authenticated(vc, a);
    uint64_t vram0 = info64(b, RADEON_INFO_VRAM_USAGE);
    uint32_t ha = test_vc_bo_new(a, 65536, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(info64(b, RADEON_INFO_VRAM_USAGE), vram0 + 65536);
    uint32_t *pa = (uint32_t *)test_vc_bo_map(a, ha, 65536);
    memset(pa, 0xA5, 65536);
    uint32_t name = flink(a, ha);
    struct drm_gem_open op = { .name = name };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_OPEN, &op), 0);

    /* A's close (its mapping still live) */
    cedar_dev_munmap(a, pa, 65536);
    cedar_dev_destroy(a);
    assert_int_equal(info64(b, RADEON_INFO_VRAM_USAGE), vram0 + 65536);
    const uint8_t *pb = (const uint8_t *)(uint32_t *)test_vc_bo_map(b, op.handle, 65536);
    for (unsigned i = 0; i < 65536; i += 4099)
        assert_int_equal(pb[i], 0xA5);
    /* the name still resolves while B holds its handle: a new master opens it */
    struct cedar_dev *c = open_file(vc, false);   /* the new master: A's role went with A */
    struct drm_gem_open oc = { .name = name };
    assert_int_equal(cedar_dev_ioctl(c, DRM_IOCTL_GEM_OPEN, &oc), 0);
    assert_int_equal(oc.size, 65536);
    assert_int_equal(gem_close(c, oc.handle), 0);
    assert_int_equal(gem_close(c, oc.handle), -EINVAL);

    /* B's last handle goes: the name with it, the buffer stays while mapped */
    assert_int_equal(gem_close(b, op.handle), 0);
    assert_int_equal(cedar_dev_ioctl(c, DRM_IOCTL_GEM_OPEN, &oc), -ENOENT);
    assert_int_equal(info64(b, RADEON_INFO_VRAM_USAGE), vram0 + 65536);
    assert_int_equal(pb[65535], 0xA5);
    assert_int_equal(cedar_dev_munmap(b, (void *)pb, 65536), 0);
    assert_int_equal(info64(b, RADEON_INFO_VRAM_USAGE), vram0);
    cedar_dev_destroy(c);
    cedar_dev_destroy(b);
    vcedar_destroy(vc);
}

/* drm_ioctl_permit on a render node: what lacks DRM_RENDER_ALLOW is -EACCES;
 * on card0 the same requests reach their handlers (radeon_drv.c flags). */
static void render_node_permissions(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *card = open_file(vc, false), *r = open_file(vc, true);
    char name[16] = "";
    struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_VERSION, &v), 0);
    assert_string_equal(name, "radeon");
    struct drm_get_cap cap = { .capability = DRM_CAP_TIMESTAMP_MONOTONIC };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_GET_CAP, &cap), 0);
    assert_int_equal(cap.value, 1);
    uint32_t h = test_vc_bo_new(r, 4096, RADEON_GEM_DOMAIN_VRAM);   /* DRM_AUTH | DRM_RENDER_ALLOW: a render client passes AUTH */
    assert_int_equal(h, 1);
    struct drm_unique u = { 0 };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_GET_UNIQUE, &u), -EACCES);
    assert_int_equal(cedar_dev_ioctl(card, DRM_IOCTL_GET_UNIQUE, &u), 0);
    struct drm_auth au = { 0 };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_GET_MAGIC, &au), -EACCES);
    struct drm_set_version sv = { 1, 4, -1, -1 };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_SET_VERSION, &sv), -EACCES);
    struct drm_set_client_cap scc = { .capability = DRM_CLIENT_CAP_UNIVERSAL_PLANES, .value = 1 };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_SET_CLIENT_CAP, &scc), -EACCES);
    assert_int_equal(cedar_dev_ioctl(card, DRM_IOCTL_SET_CLIENT_CAP, &scc), 0);
    /* GEM_PREAD: DRM_AUTH only; radeon_gem_pread_ioctl itself is -ENOSYS */
    struct drm_radeon_gem_pread pr = { .handle = h };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_RADEON_GEM_PREAD, &pr), -EACCES);
    assert_int_equal(cedar_dev_ioctl(card, DRM_IOCTL_RADEON_GEM_PREAD, &pr), -ENOSYS);
    /* PRIME is render-allowed, and refused for a driver without it (drm_prime.c) */
    struct drm_prime_handle ph = { .handle = h, .flags = DRM_CLOEXEC };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), -ENOSYS);
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), -ENOSYS);
    /* KMS requests: not render-allowed; card0 reaches a device without a display */
    struct drm_mode_card_res res = { 0 };
    assert_int_equal(cedar_dev_ioctl(r, DRM_IOCTL_MODE_GETRESOURCES, &res), -EACCES);
    assert_int_equal(cedar_dev_ioctl(card, DRM_IOCTL_MODE_GETRESOURCES, &res), -EOPNOTSUPP);
    /* GEM_CLOSE is render-allowed */
    assert_int_equal(gem_close(r, h), 0);
    cedar_dev_destroy(r);
    cedar_dev_destroy(card);
    vcedar_destroy(vc);
}

/* drm_ioctl: a request of another type is -ENOTTY; a number with no handler
 * (a hole, or past the core or driver table) -EINVAL; the argument is
 * _IOC_SIZE(request) bytes, zero-extended to the kernel's struct, copied
 * back for _IOC_READ requests even when the handler fails. */
static void unknown_requests(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *f = open_file(vc, false);
    uint64_t buf[16] = { 0 };
    assert_int_equal(cedar_dev_ioctl(f, _IOWR('T', 0x01, uint64_t), buf), -ENOTTY);
    assert_int_equal(cedar_dev_ioctl(f, 0x5401 /* TCGETS */, buf), -ENOTTY);
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOWR(0x0e, uint64_t), buf), -EINVAL);   /* a core hole */
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOWR(0xf0, uint64_t), buf), -EINVAL);   /* past the core table */
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + 0x1f, uint64_t), buf), -EINVAL);   /* radeon hole */
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + 0x2e, uint64_t), buf), -EINVAL);   /* past radeon's */
    /* a UMS ioctl under KMS: drm_invalid_op */
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_CP_IDLE, NULL), -EINVAL);
    /* SET_CLIENT_CAP with a smaller struct: the missing `value` reads as 0 */
    uint64_t cap_only = DRM_CLIENT_CAP_STEREO_3D;
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOW(0x0d, uint64_t), &cap_only), 0);
    /* GET_CAP of an unknown capability: -EINVAL, value zeroed and written back */
    struct drm_get_cap cap = { .capability = 0x7777, .value = 0xDEAD };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_GET_CAP, &cap), -EINVAL);
    assert_int_equal(cap.value, 0);
    /* an argument that cannot be read: copy_from_user fails */
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, NULL), -EFAULT);
    /* GEM_VA: no VM on Evergreen, the result says so (radeon_gem_va_ioctl) */
    struct drm_radeon_gem_va va = { .operation = RADEON_VA_MAP };
    assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_GEM_VA, &va), -ENOTTY);
    assert_int_equal(va.operation, RADEON_VA_RESULT_ERROR);
    cedar_dev_destroy(f);
    vcedar_destroy(vc);
}

/* drm_auth.c: the first card0 file is master and authenticated; a later one
 * is not (DRM_AUTH ioctls -EACCES) until the master passes its magic to
 * AUTH_MAGIC, which works once.  The master role goes with its file, and
 * the next card0 opener takes it. */
static void master_and_magic(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false), *b = open_file(vc, false);
    uint32_t h = 0;
    assert_int_equal(gem_create(b, 4096, &h), -EACCES);
    struct drm_auth mb = { 0 }, ma = { 0 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GET_MAGIC, &mb), 0);
    assert_int_equal(mb.magic, 1);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_GET_MAGIC, &ma), 0);
    assert_int_equal(ma.magic, 2);
    struct drm_auth again = { 0 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GET_MAGIC, &again), 0);
    assert_int_equal(again.magic, 1);
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_AUTH_MAGIC, &mb), -EACCES);   /* not master */
    struct drm_auth wrong = { .magic = 9 };
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_AUTH_MAGIC, &wrong), -EINVAL);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_AUTH_MAGIC, &mb), 0);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_AUTH_MAGIC, &mb), -EINVAL);   /* used up */
    assert_int_equal(gem_create(b, 4096, &h), 0);
    struct drm_client cl = { .idx = 0 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GET_CLIENT, &cl), 0);
    assert_int_equal(cl.auth, 1);
    cl.idx = 1;
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GET_CLIENT, &cl), -EINVAL);
    /* DROP_MASTER by a file that never was master: drm_master_check_perm */
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_DROP_MASTER, NULL), -EACCES);
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_SET_MASTER, NULL), -EACCES);
    /* the master drops and takes back its role */
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_DROP_MASTER, NULL), 0);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_AUTH_MAGIC, &wrong), -EACCES);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_DROP_MASTER, NULL), -EINVAL);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_SET_MASTER, NULL), 0);
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_SET_MASTER, NULL), 0);
    /* the master closes: the next card0 file is master, unlike b */
    cedar_dev_destroy(a);
    struct cedar_dev *c = open_file(vc, false);
    assert_int_equal(gem_create(c, 4096, &h), 0);
    struct drm_auth mc = { 0 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GET_MAGIC, &mc), 0);
    assert_int_equal(cedar_dev_ioctl(c, DRM_IOCTL_AUTH_MAGIC, &wrong), -EINVAL);
    struct drm_set_version sv = { -1, -1, -1, -1 };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_SET_VERSION, &sv), -EACCES);
    assert_int_equal(cedar_dev_ioctl(c, DRM_IOCTL_SET_VERSION, &sv), 0);
    cedar_dev_destroy(c);
    cedar_dev_destroy(b);
    /* with CAP_SYS_ADMIN every card0 file is authenticated (drm_file_alloc) */
    vcedar_destroy(vc);
    struct vcedar_opts o = { .no_render = true, .sys_admin = true };
    vc = vcedar_create(&o);
    a = open_file(vc, false);
    b = open_file(vc, false);
    assert_int_equal(gem_create(b, 4096, &h), 0);
    cedar_dev_destroy(b);
    cedar_dev_destroy(a);
    vcedar_destroy(vc);
}

/* radeon_kms.c radeon_set_filp_rights: one holder at a time, given up with
 * 0 or by closing the file (radeon_driver_postclose_kms); 2 and above are
 * -EINVAL. */
static void hyperz_cmask_rights(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false), *b = open_file(vc, true);
    assert_int_equal(want(a, RADEON_INFO_WANT_HYPERZ, 1), 1);
    assert_int_equal(want(b, RADEON_INFO_WANT_HYPERZ, 1), 0);
    assert_int_equal(want(a, RADEON_INFO_WANT_HYPERZ, 1), 1);
    assert_int_equal(want(b, RADEON_INFO_WANT_HYPERZ, 0), 0);   /* not its to give up */
    assert_int_equal(want(a, RADEON_INFO_WANT_HYPERZ, 0), 0);
    assert_int_equal(want(b, RADEON_INFO_WANT_HYPERZ, 1), 1);
    assert_int_equal(want(a, RADEON_INFO_WANT_HYPERZ, 1), 0);
    /* CMask: its own right */
    assert_int_equal(want(a, RADEON_INFO_WANT_CMASK, 1), 1);
    assert_int_equal(want(b, RADEON_INFO_WANT_CMASK, 1), 0);
    uint32_t two = 2;
    struct drm_radeon_info i = { .request = RADEON_INFO_WANT_CMASK, .value = (uintptr_t)&two };
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_RADEON_INFO, &i), -EINVAL);
    /* closing the holder passes the rights on */
    cedar_dev_destroy(b);
    assert_int_equal(want(a, RADEON_INFO_WANT_HYPERZ, 1), 1);
    struct cedar_dev *c = open_file(vc, true);
    assert_int_equal(want(c, RADEON_INFO_WANT_CMASK, 1), 0);
    cedar_dev_destroy(a);
    assert_int_equal(want(c, RADEON_INFO_WANT_CMASK, 1), 1);
    assert_int_equal(want(c, RADEON_INFO_WANT_HYPERZ, 1), 1);
    cedar_dev_destroy(c);
    vcedar_destroy(vc);
}

/* no_exec, the null device: the same CS is accepted either way; only with
 * execution does memory change.  A rejected CS is rejected either way. */
static void no_exec_changes_nothing(void **state)
{
    (void)state;
    for (int no_exec = 0; no_exec <= 1; no_exec++) {
        struct vcedar *vc = new_model(no_exec);
        struct cedar_dev *f = open_file(vc, true);
        uint32_t dst = test_vc_bo_new(f, 8192, RADEON_GEM_DOMAIN_VRAM), src = test_vc_bo_new(f, 8192, RADEON_GEM_DOMAIN_VRAM);
        uint32_t *pd = (uint32_t *)test_vc_bo_map(f, dst, 8192), *ps = (uint32_t *)test_vc_bo_map(f, src, 8192);
        for (unsigned i = 0; i < 2048; i++) {
            pd[i] = 0x0D0D0000u + i;
            ps[i] = 0x50500000u + i;
        }
        assert_int_equal(cp_dma_fill(f, dst, 0xFEEDFACEu, 4096), 0);
        assert_int_equal(cp_dma_copy(f, src, dst, 64), 0);
        if (no_exec) {
            for (unsigned i = 0; i < 2048; i++)
                assert_int_equal(pd[i], 0x0D0D0000u + i);
        } else {
            assert_int_equal(pd[0], 0x50500000u);
            assert_int_equal(pd[15], 0x50500000u + 15);
            assert_int_equal(pd[16], 0xFEEDFACEu);
            assert_int_equal(pd[1023], 0xFEEDFACEu);
            assert_int_equal(pd[1024], 0x0D0D0000u + 1024);
        }
        for (unsigned i = 0; i < 2048; i++)
            assert_int_equal(ps[i], 0x50500000u + i);
        /* waits return at once */
        struct drm_radeon_gem_wait_idle w = { .handle = dst };
        assert_int_equal(cedar_dev_ioctl(f, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w), 0);
        /* the checker still runs: a fill past the buffer's end is rejected */
        assert_int_equal(cp_dma_fill(f, dst, 0, 16384), -EINVAL);
        assert_int_equal(vcedar_last_error(vc)->code, VC_E_BO_RANGE);
        struct vcedar_stats st;
        vcedar_stats(vc, &st);
        assert_int_equal(st.cs_submitted, 3);
        assert_int_equal(st.cs_rejected, 1);
        assert_int_equal(st.cp_dma_bytes, no_exec ? 0 : 4096 + 64);
        cedar_dev_munmap(f, pd, 8192);
        cedar_dev_munmap(f, ps, 8192);
        cedar_dev_destroy(f);
        vcedar_destroy(vc);
    }
}

/* vcedar_destroy with files open: they are unplugged (-ENODEV, as
 * drm_ioctl answers for an unplugged device) and freed by their owner. */
static void model_destroyed_under_files(void **state)
{
    (void)state;
    struct vcedar *vc = new_model(false);
    struct cedar_dev *a = open_file(vc, false), *b = open_file(vc, true);
    uint32_t h = test_vc_bo_new(b, 4096, RADEON_GEM_DOMAIN_VRAM);
    void *p = (uint32_t *)test_vc_bo_map(b, h, 4096);
    (void)p;
    vcedar_destroy(vc);
    struct drm_version v = { 0 };
    assert_int_equal(cedar_dev_ioctl(a, DRM_IOCTL_VERSION, &v), -ENODEV);
    assert_int_equal(cedar_dev_ioctl(b, DRM_IOCTL_GEM_CLOSE, &(struct drm_gem_close){ .handle = h }), -ENODEV);
    assert_null(cedar_dev_mmap(b, 0x100000000ull, 4096));
    assert_null(vcedar_of(a));
    uint64_t size;
    assert_int_equal(vcedar_file_bo_size(b, h, &size), -ENOENT);
    cedar_dev_destroy(a);
    cedar_dev_destroy(b);

    /* cedar_dev_open_virtual: destroying its file destroys the model and
     * unplugs the files opened on it */
    struct cedar_dev *dev = NULL;
    struct vcedar_opts o = { .no_render = true };
    assert_int_equal(cedar_dev_open_virtual(&o, &dev), 0);
    struct cedar_dev *c = open_file(vcedar_of(dev), true);
    assert_int_equal(test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_VRAM), 1);
    assert_int_equal(test_vc_bo_new(c, 4096, RADEON_GEM_DOMAIN_VRAM), 1);
    cedar_dev_destroy(dev);
    assert_int_equal(cedar_dev_ioctl(c, DRM_IOCTL_VERSION, &v), -ENODEV);
    cedar_dev_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(handles_per_file),
        cmocka_unit_test(handle_foreign_to_other_file),
        cmocka_unit_test(flink_open_shares_memory),
        cmocka_unit_test(close_keeps_buffer_for_other_file),
        cmocka_unit_test(render_node_permissions),
        cmocka_unit_test(unknown_requests),
        cmocka_unit_test(master_and_magic),
        cmocka_unit_test(hyperz_cmask_rights),
        cmocka_unit_test(no_exec_changes_nothing),
        cmocka_unit_test(model_destroyed_under_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
