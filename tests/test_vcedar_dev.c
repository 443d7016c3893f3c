/* The virtual Cedar through the ioctl seam: what a program written for the
 * radeon kernel sees.  Expected values are the kernel's (radeon_drv.c,
 * radeon_kms.c, radeon_gem.c, evergreen.c for CHIP_CEDAR) and the decoding
 * of the tiling word is the layout library's, not the model's. */
#include <errno.h>
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
#include "cedar/layout.h"
#include "cedar/vcedar.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

#define MiB (1024ull * 1024ull)

static struct cedar_dev *open_dev(enum vc_check_mode mode)
{
    struct vcedar_opts o = { .mode = mode, .no_render = true };
    struct cedar_dev *dev = NULL;
    assert_int_equal(cedar_dev_open_virtual(&o, &dev), 0);
    assert_non_null(dev);
    assert_string_equal(dev->ops->name, "virtual");
    return dev;
}

static uint64_t bo_addr(struct cedar_dev *dev, uint32_t handle)
{
    uint64_t a = ~0ull;
    assert_int_equal(vcedar_bo_gpu_address(vcedar_of(dev), handle, &a), 0);
    return a;
}

static uint32_t info(struct cedar_dev *dev, uint32_t request, int *ret)
{
    uint32_t v = 0;
    struct drm_radeon_info i = { .request = request, .value = (uintptr_t)&v };
    *ret = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &i);
    return v;
}

static void version(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    char name[3] = { 0 }, date[32] = { 0 }, desc[32] = { 0 };
    struct drm_version v = { .name = name, .name_len = 2, .date = date, .date_len = sizeof(date) - 1,
                             .desc = desc, .desc_len = sizeof(desc) - 1 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_VERSION, &v), 0);
    assert_int_equal(v.version_major, 2);
    assert_int_equal(v.version_minor, 50);
    /* drm_copy_field: what fits is copied, the full length reported */
    assert_memory_equal(name, "ra", 2);
    assert_int_equal(v.name_len, 6);
    assert_string_equal(date, "20080528");
    assert_string_equal(desc, "ATI Radeon");
    cedar_dev_destroy(dev);
}

static void radeon_info(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    int r;
    assert_int_equal(info(dev, RADEON_INFO_DEVICE_ID, &r), 0x68F9);
    assert_int_equal(r, 0);
    uint32_t tc = info(dev, RADEON_INFO_TILING_CONFIG, &r);
    assert_int_equal(r, 0);
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(tc, &t), 0);
    assert_int_equal(t.pipes, 2);          /* the seed's card: 2 pipes, 8 banks, 256-byte interleave */
    assert_int_equal(t.banks, 8);
    assert_int_equal(t.group_bytes, 256);
    assert_int_equal(info(dev, RADEON_INFO_NUM_BACKENDS, &r), 1);
    assert_int_equal(info(dev, RADEON_INFO_NUM_TILE_PIPES, &r), 2);
    assert_int_equal(info(dev, RADEON_INFO_ACCEL_WORKING2, &r), 1);
    assert_int_equal(info(dev, RADEON_INFO_CLOCK_CRYSTAL_FREQ, &r), 27000);
    /* no GPU VM before Cayman */
    info(dev, RADEON_INFO_VA_START, &r);
    assert_int_equal(r, -EINVAL);
    info(dev, 0x7777, &r);
    assert_int_equal(r, -EINVAL);
    uint32_t ring = RADEON_CS_RING_DMA;
    struct drm_radeon_info ri = { .request = RADEON_INFO_RING_WORKING, .value = (uintptr_t)&ring };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &ri), 0);
    assert_int_equal(ring, 1);
    struct drm_radeon_gem_info g = { 0 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_INFO, &g), 0);
    assert_true(g.vram_size == 512 * MiB && g.vram_visible == 256 * MiB && g.gart_size == 512 * MiB);
    cedar_dev_destroy(dev);
}

static void gem_placement(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    struct drm_radeon_gem_create c = { .size = 5000, .initial_domain = RADEON_GEM_DOMAIN_VRAM };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c), 0);
    assert_int_equal(c.size, 8192);   /* roundup(size, PAGE_SIZE) */
    uint32_t v = c.handle, g = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_GTT);
    assert_int_not_equal(v, g);
    uint64_t va = bo_addr(dev, v), ga = bo_addr(dev, g);
    assert_true(va < 512 * MiB && va % 4096 == 0 && va != 0);
    assert_true(ga >= 512 * MiB && ga < 1024 * MiB && ga % 4096 == 0);
    /* 300 MiB twice: the second no longer fits VRAM and falls back to GTT */
    uint32_t big1 = test_vc_bo_new(dev, 300 * MiB, RADEON_GEM_DOMAIN_VRAM);
    uint32_t big2 = test_vc_bo_new(dev, 300 * MiB, RADEON_GEM_DOMAIN_VRAM);
    struct drm_radeon_gem_busy b1 = { .handle = big1 }, b2 = { .handle = big2 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_BUSY, &b1), 0);
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_BUSY, &b2), 0);
    assert_int_equal(b1.domain, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(b2.domain, RADEON_GEM_DOMAIN_GTT);
    /* and a third cannot be placed at all */
    struct drm_radeon_gem_create c3 = { .size = 300 * MiB, .initial_domain = RADEON_GEM_DOMAIN_VRAM };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c3), -ENOMEM);
    struct drm_radeon_gem_create c0 = { .size = 0, .initial_domain = RADEON_GEM_DOMAIN_VRAM };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c0), -EINVAL);
    /* closing frees the handle and the space */
    struct drm_gem_close cl = { .handle = big1 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &cl), 0);
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &cl), -EINVAL);
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c3), 0);
    struct drm_radeon_gem_wait_idle w = { .handle = 9999 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w), -ENOENT);
    w.handle = v;
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w), 0);
    cedar_dev_destroy(dev);
}

static void gem_mmap_tiling(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    uint32_t h = test_vc_bo_new(dev, 65536, RADEON_GEM_DOMAIN_GTT);
    uint8_t *p = test_vc_bo_map(dev, h, 65536);
    memset(p, 0xAB, 65536);
    uint8_t back;
    assert_int_equal(vcedar_mem_read(vcedar_of(dev), bo_addr(dev, h) + 65535, &back, 1), 0);
    assert_int_equal(back, 0xAB);
    assert_int_equal(cedar_dev_munmap(dev, p + 1, 100), -EINVAL);
    /* closed while mapped: the memory stays until the mapping goes */
    struct drm_gem_close cl = { .handle = h };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &cl), 0);
    assert_int_equal(p[100], 0xAB);
    assert_int_equal(cedar_dev_munmap(dev, p, 65536), 0);

    uint32_t t = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_VRAM);
    uint32_t flags = RADEON_TILING_MACRO | (2u << RADEON_TILING_EG_BANKH_SHIFT) | (4u << RADEON_TILING_EG_TILE_SPLIT_SHIFT);
    struct drm_radeon_gem_set_tiling st = { .handle = t, .tiling_flags = flags, .pitch = 5120 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &st), 0);
    struct drm_radeon_gem_get_tiling gt = { .handle = t };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_GET_TILING, &gt), 0);
    assert_int_equal(gt.tiling_flags, flags);
    assert_int_equal(gt.pitch, 5120);
    /* radeon_bo_set_tiling_flags: bank width 3 and tile split 7 do not exist */
    st.tiling_flags = 3u << RADEON_TILING_EG_BANKW_SHIFT;
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &st), -EINVAL);
    st.tiling_flags = 7u << RADEON_TILING_EG_TILE_SPLIT_SHIFT;
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &st), -EINVAL);
    cedar_dev_destroy(dev);
}

/* CP_DMA fill, CP_DMA copy, fence: the path the demo takes for CMask
 * clears and readback. */
static void cs_fill_copy_fence(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    uint32_t a = test_vc_bo_new(dev, 8192, RADEON_GEM_DOMAIN_VRAM);
    uint32_t b = test_vc_bo_new(dev, 8192, RADEON_GEM_DOMAIN_GTT);
    uint32_t f = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_GTT);
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    /* fill 8000 bytes of A with 0xCAFEF00D */
    uint32_t fill[5] = { 0xCAFEF00Du, S_CP_DMA_CP_DMA_INFO__SRC_SEL(V_CP_DMA_SRC_SEL__SRC_DATA), 0, 0,
                         S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(8000) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, fill, 5);
    cedar_cmdbuf_reloc(&cb, a, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    /* copy A[16..4112) -> B[0..4096) */
    uint32_t copy[5] = { 16, 0, 0, 0, S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(4096) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, copy, 5);
    cedar_cmdbuf_reloc(&cb, a, RADEON_GEM_DOMAIN_VRAM, 0, 0);
    cedar_cmdbuf_reloc(&cb, b, 0, RADEON_GEM_DOMAIN_GTT, 0);
    /* fence: EOP writes 0x1234 at F+64 */
    uint32_t eop[5] = { S_EVENT_CNTL__EVENT_TYPE(V_VGT_EVENT_TYPE__CACHE_FLUSH_AND_INV_TS_EVENT) |
                            S_EVENT_CNTL__EVENT_INDEX(V_EVENT_INDEX__EVENT_INDEX_TS),
                        64, S_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(V_EOP_DATA_SEL__DATA_SEL_LOW32), 0x1234, 0 };
    cedar_cmdbuf_packet(&cb, PKT3_EVENT_WRITE_EOP, eop, 5);
    cedar_cmdbuf_reloc(&cb, f, 0, RADEON_GEM_DOMAIN_GTT, 0);
    /* a timestamp at F+128 */
    eop[1] = 128;
    eop[2] = S_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(V_EOP_DATA_SEL__DATA_SEL_COUNTER64);
    cedar_cmdbuf_packet(&cb, PKT3_EVENT_WRITE_EOP, eop, 5);
    cedar_cmdbuf_reloc(&cb, f, 0, RADEON_GEM_DOMAIN_GTT, 0);
    cedar_cmdbuf_pad(&cb, 8);
    assert_int_equal(cb.error, 0);
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, RADEON_CS_KEEP_TILING_FLAGS), 0);

    const uint32_t *pb = test_vc_bo_map(dev, b, 8192), *pf = test_vc_bo_map(dev, f, 4096), *pa = test_vc_bo_map(dev, a, 8192);
    assert_int_equal(pa[0], 0xCAFEF00Du);
    assert_int_equal(pa[1999], 0xCAFEF00Du);
    assert_int_equal(pa[2000], 0);            /* 8000 bytes, not one more */
    assert_int_equal(pb[0], 0xCAFEF00Du);
    assert_int_equal(pb[1023], 0xCAFEF00Du);
    assert_int_equal(pb[1024], 0);
    assert_int_equal(pf[16], 0x1234);
    uint64_t ts1;
    memcpy(&ts1, &pf[32], 8);
    assert_true(ts1 > 0);
    /* RADEON_INFO_TIMESTAMP is 64 bits and reads the same clock */
    uint64_t now = 0;
    struct drm_radeon_info ti = { .request = RADEON_INFO_TIMESTAMP, .value = (uintptr_t)&now };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &ti), 0);
    assert_true(now >= ts1);
    /* a second submission: the clock moved on */
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, RADEON_CS_KEEP_TILING_FLAGS), 0);
    uint64_t ts2;
    memcpy(&ts2, &pf[32], 8);
    assert_true(ts2 > ts1);
    struct vcedar_stats st;
    vcedar_stats(vcedar_of(dev), &st);
    assert_int_equal(st.cs_submitted, 2);
    assert_int_equal(st.cs_rejected, 0);
    assert_int_equal(st.fences, 4);
    assert_int_equal(st.cp_dma_bytes, 2 * (8000 + 4096));
    cedar_dev_munmap(dev, (void *)pa, 8192);
    cedar_dev_munmap(dev, (void *)pb, 8192);
    cedar_dev_munmap(dev, (void *)pf, 4096);
    cedar_cmdbuf_fini(&cb);
    cedar_dev_destroy(dev);
}

/* vcedar_zero_pages: a page it calls zero holds zeros, a page the CPU or
 * the GPU (a CP_DMA fill) wrote is never called zero, a 2 MiB stretch
 * nothing touched is (whether or not the buffer got huge pages); ranges
 * outside one buffer are refused. */
static void zero_pages(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    struct vcedar *vc = vcedar_of(dev);
    const uint64_t size = 8 * MiB, pages = size / 4096;
    uint32_t h = test_vc_bo_new(dev, size, RADEON_GEM_DOMAIN_VRAM);
    uint8_t *p = test_vc_bo_map(dev, h, size);
    static uint8_t zero[8 * MiB / 4096];
    assert_int_equal(vcedar_zero_pages(vc, p, size, zero), 0);
    for (uint64_t i = 0; i < pages; i++)
        assert_int_equal(zero[i], 1);       /* nothing wrote any of it yet */

    p[4096 * 3 + 17] = 0x5A;               /* the CPU writes page 3 */
    struct cedar_cmdbuf cb;               /* the GPU fills 12 KiB at 5 MiB + 8 KiB */
    cedar_cmdbuf_init(&cb, 0);
    uint32_t fill[5] = { 0x01020304u, S_CP_DMA_CP_DMA_INFO__SRC_SEL(V_CP_DMA_SRC_SEL__SRC_DATA),
                         (uint32_t)(5 * MiB + 8192), 0, S_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(12288) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, fill, 5);
    cedar_cmdbuf_reloc(&cb, h, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    cedar_cmdbuf_pad(&cb, 8);
    assert_int_equal(cb.error, 0);
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, RADEON_CS_KEEP_TILING_FLAGS), 0);
    cedar_cmdbuf_fini(&cb);

    memset(zero, 0xEE, sizeof zero);
    assert_int_equal(vcedar_zero_pages(vc, p, size, zero), 0);
    /* a sub-range starting at a page inside, asked before anything reads it */
    uint8_t sub[2] = {0xEE, 0xEE};
    assert_int_equal(vcedar_zero_pages(vc, p + 7 * MiB, 8192, sub), 0);
    assert_true(sub[0] == 1 && sub[1] == 1);
    assert_int_equal(zero[3], 0);
    for (uint64_t i = (5 * MiB + 8192) / 4096; i < (5 * MiB + 8192 + 12288) / 4096; i++)
        assert_int_equal(zero[i], 0);
    uint64_t called_zero = 0;
    for (uint64_t i = 0; i < pages; i++) {
        assert_true(zero[i] == 0 || zero[i] == 1);
        if (!zero[i])
            continue;
        called_zero++;
        for (unsigned b = 0; b < 4096; b++)
            if (p[i * 4096 + b] != 0)
                fail_msg("page %llu called zero holds 0x%02X at byte %u", (unsigned long long)i,
                         p[i * 4096 + b], b);
    }
    /* [2 MiB, 4 MiB) and [6 MiB, 8 MiB) were never touched (the reads just
     * above came after the query) */
    for (uint64_t i = 2 * MiB / 4096; i < 4 * MiB / 4096; i++)
        assert_int_equal(zero[i], 1);
    for (uint64_t i = 6 * MiB / 4096; i < pages; i++)
        assert_int_equal(zero[i], 1);
    assert_true(called_zero >= pages / 2);

    /* not page-aligned; past the buffer; not a buffer */
    assert_int_equal(vcedar_zero_pages(vc, p + 1, 4096, zero), -1);
    assert_int_equal(vcedar_zero_pages(vc, p, size + 4096, zero), -1);
    assert_int_equal(vcedar_zero_pages(vc, zero, 4096, zero), -1);
    cedar_dev_munmap(dev, p, size);
    cedar_dev_destroy(dev);
}

/* What the kernel refuses before it looks at the packets. */
static void cs_ioctl_rejects(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    struct vcedar *vc = vcedar_of(dev);
    uint32_t a = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_GTT);
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    uint32_t mw[4] = { 0, 0, 7, 0 };
    cedar_cmdbuf_packet(&cb, PKT3_MEM_WRITE, mw, 4);
    cedar_cmdbuf_reloc(&cb, a, 0, RADEON_GEM_DOMAIN_GTT, 0);
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, 0), 0);
    assert_int_equal(vcedar_last_error(vc)->code, VC_OK);

    /* a handle that does not exist: -ENOENT */
    cb.relocs[0].handle = 4242;
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, 0), -ENOENT);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_BO_HANDLE);
    cb.relocs[0].handle = a;
    /* the CPU domain in a relocation */
    cb.relocs[0].write_domain = RADEON_GEM_DOMAIN_CPU;
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, 0), -EINVAL);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_BO_DOMAIN);
    cb.relocs[0].write_domain = RADEON_GEM_DOMAIN_GTT;
    /* VM and rings the model does not have */
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, RADEON_CS_USE_VM), -EINVAL);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_CHUNKS);
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_UVD, 0), -EINVAL);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_RING);
    /* a missing relocation: -EINVAL and the reason through last_error */
    cb.ndw -= 2;
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, 0), -EINVAL);
    assert_int_equal(vcedar_last_error(vc)->code, VC_E_RELOC_MISSING);
    char line[256];
    dev->ops->last_error(dev, line, sizeof(line));
    assert_non_null(strstr(line, "MEM_WRITE without a relocation"));
    assert_non_null(strstr(line, "dword 0x0"));
    /* a zero-length IB */
    cb.ndw = 0;
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_GFX, 0), -EINVAL);
    struct vcedar_stats st;
    vcedar_stats(vc, &st);
    assert_int_equal(st.cs_rejected, 6);
    cedar_cmdbuf_fini(&cb);
    cedar_dev_destroy(dev);
}

/* The DMA ring: constant fill, then a linear copy (Mesa reads back through it). */
static void cs_dma_ring(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(VC_CHECK_STRICT);
    uint32_t a = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_VRAM), b = test_vc_bo_new(dev, 4096, RADEON_GEM_DOMAIN_GTT);
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    unsigned ia, ib_;
    cedar_cmdbuf_add_reloc(&cb, a, 0, RADEON_GEM_DOMAIN_VRAM, 0, &ia);
    cedar_cmdbuf_add_reloc(&cb, a, RADEON_GEM_DOMAIN_VRAM, 0, 0, &ia);   /* merged with the first */
    cedar_cmdbuf_add_reloc(&cb, b, 0, RADEON_GEM_DOMAIN_GTT, 0, &ib_);
    /* The DMA ring takes relocations in order, one per operand: fill A;
     * copy A -> B needs A then B as relocations 1 and 2.  Build the
     * relocation list by hand to follow that rule. */
    cb.nrelocs = 0;
    struct drm_radeon_cs_reloc r0 = { .handle = a, .write_domain = RADEON_GEM_DOMAIN_VRAM };
    struct drm_radeon_cs_reloc r1 = { .handle = a, .read_domains = RADEON_GEM_DOMAIN_VRAM };
    struct drm_radeon_cs_reloc r2 = { .handle = b, .write_domain = RADEON_GEM_DOMAIN_GTT };
    cb.relocs[0] = r0;
    cb.relocs[1] = r1;
    cb.relocs[2] = r2;
    cb.nrelocs = 3;
    cedar_cmdbuf_emit(&cb, S_DMA_HEADER__CMD(V_DMA_CMD__DMA_CONSTANT_FILL) | S_DMA_HEADER__COUNT(1024));
    cedar_cmdbuf_emit(&cb, 0);
    cedar_cmdbuf_emit(&cb, 0x5A5A0101u);
    cedar_cmdbuf_emit(&cb, 0);
    cedar_cmdbuf_emit(&cb, S_DMA_HEADER__CMD(V_DMA_CMD__DMA_COPY) |
                               S_DMA_HEADER__SUB_CMD(V_DMA_COPY_SUB_CMD__L2L_DW) | S_DMA_HEADER__COUNT(512));
    cedar_cmdbuf_emit(&cb, 1024);   /* destination B + 1024 */
    cedar_cmdbuf_emit(&cb, 0);      /* source A */
    cedar_cmdbuf_emit(&cb, 0);
    cedar_cmdbuf_emit(&cb, 0);
    cedar_cmdbuf_emit(&cb, S_DMA_HEADER__CMD(V_DMA_CMD__DMA_NOP));
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_DMA, 0), 0);
    const uint32_t *pb = test_vc_bo_map(dev, b, 4096);
    assert_int_equal(pb[255], 0);
    assert_int_equal(pb[256], 0x5A5A0101u);
    assert_int_equal(pb[767], 0x5A5A0101u);
    assert_int_equal(pb[768], 0);
    /* a copy one dword too long for B is refused like the kernel does */
    cb.dw[4] = S_DMA_HEADER__CMD(V_DMA_CMD__DMA_COPY) | S_DMA_HEADER__SUB_CMD(V_DMA_COPY_SUB_CMD__L2L_DW) |
               S_DMA_HEADER__COUNT(769);
    assert_int_equal(test_vc_submit(dev, &cb, RADEON_CS_RING_DMA, 0), -EINVAL);
    assert_int_equal(vcedar_last_error(vcedar_of(dev))->code, VC_E_BO_RANGE);
    cedar_dev_munmap(dev, (void *)pb, 4096);
    cedar_cmdbuf_fini(&cb);
    cedar_dev_destroy(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version),
        cmocka_unit_test(radeon_info),
        cmocka_unit_test(gem_placement),
        cmocka_unit_test(gem_mmap_tiling),
        cmocka_unit_test(cs_fill_copy_fence),
        cmocka_unit_test(zero_pages),
        cmocka_unit_test(cs_ioctl_rejects),
        cmocka_unit_test(cs_dma_ring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
