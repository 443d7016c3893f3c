/* BOF captures: a CS captured from the virtual device reads back identical;
 * the bytes follow libdrm's radeon/bof.c layout (checked here by hand:
 * 12-byte headers type/size/count, sizes including the header, an object's
 * count = keys + values); every truncation of a capture is refused cleanly. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/cmdbuf.h"
#include "cedar/vc_bof.h"
#include "cedar/vcedar.h"
#include "eg_regs.h"

static uint32_t u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void capture_roundtrip(void **state)
{
    (void)state;
    struct vcedar_opts o = { .no_render = true };
    struct cedar_dev *dev;
    assert_int_equal(cedar_dev_open_virtual(&o, &dev), 0);
    struct drm_radeon_gem_create c = { .size = 8192, .initial_domain = RADEON_GEM_DOMAIN_GTT };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c), 0);
    struct drm_radeon_gem_set_tiling st = { .handle = c.handle, .tiling_flags = RADEON_TILING_MICRO, .pitch = 64 };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &st), 0);
    struct drm_radeon_gem_mmap m = { .handle = c.handle };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m), 0);
    uint8_t *p = cedar_dev_mmap(dev, m.addr_ptr, 8192);
    for (int i = 0; i < 8192; i++)
        p[i] = (uint8_t)(i * 7);

    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    uint32_t mw[4] = { 8, 0, 0xAABBCCDD, 0 };
    cedar_cmdbuf_packet(&cb, PKT3_MEM_WRITE, mw, 4);
    cedar_cmdbuf_reloc(&cb, c.handle, 0, RADEON_GEM_DOMAIN_GTT, 0);
    uint32_t flags[2] = { RADEON_CS_KEEP_TILING_FLAGS, RADEON_CS_RING_GFX };
    struct drm_radeon_cs_chunk ch[3] = {
        { .chunk_id = RADEON_CHUNK_ID_IB, .length_dw = (uint32_t)cb.ndw, .chunk_data = (uintptr_t)cb.dw },
        { .chunk_id = RADEON_CHUNK_ID_RELOCS, .length_dw = cb.nrelocs * 4, .chunk_data = (uintptr_t)cb.relocs },
        { .chunk_id = RADEON_CHUNK_ID_FLAGS, .length_dw = 2, .chunk_data = (uintptr_t)flags },
    };
    uint64_t ptrs[3] = { (uintptr_t)&ch[0], (uintptr_t)&ch[1], (uintptr_t)&ch[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };
    char path[] = "/tmp/vcedar_bof_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    uint64_t sizes[1] = { 8192 };
    char err[200];
    assert_int_equal(vc_bof_capture(dev, &cs, sizes, path, err, sizeof(err)), 0);

    /* the layout, by hand */
    FILE *f = fopen(path, "rb");
    uint8_t buf[16384];
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    assert_int_equal(u32(buf), 3);            /* BOF_TYPE_OBJECT */
    assert_int_equal(u32(buf + 4), n);        /* the root's size is the file */
    assert_int_equal(u32(buf + 8), 12);       /* 6 keys + 6 values */
    assert_int_equal(u32(buf + 12), 0);       /* first key: a string */
    assert_int_equal(u32(buf + 16), 12 + 10); /* "device_id" + NUL */
    assert_string_equal((const char *)buf + 24, "device_id");
    assert_int_equal(u32(buf + 34), 5);       /* BOF_TYPE_INT32 */
    assert_int_equal(u32(buf + 34 + 12), 0x68F9);

    struct vc_bof_cs back;
    assert_int_equal(vc_bof_read(path, &back, err, sizeof(err)), 0);
    assert_int_equal(back.device_id, 0x68F9);
    assert_int_equal(back.ndw, cb.ndw);
    assert_memory_equal(back.ib, cb.dw, cb.ndw * 4);
    assert_int_equal(back.nrelocs, 1);
    assert_int_equal(back.relocs[0], c.handle);
    assert_int_equal(back.flags, RADEON_CS_KEEP_TILING_FLAGS);
    assert_int_equal(back.ring, RADEON_CS_RING_GFX);
    assert_int_equal(back.nbos, 1);
    assert_int_equal(back.bos[0].size, 8192);
    assert_int_equal(back.bos[0].tiling_flags, RADEON_TILING_MICRO);
    assert_int_equal(back.bos[0].pitch, 64);
    assert_int_equal(back.bos[0].domain, RADEON_GEM_DOMAIN_GTT);
    assert_memory_equal(back.bos[0].data, p, 8192);
    vc_bof_free(&back);

    /* every truncation is an error, never a crash */
    for (size_t cut = 0; cut < n; cut += (cut < 200 ? 1 : 97)) {
        f = fopen(path, "wb");
        fwrite(buf, 1, cut, f);
        fclose(f);
        assert_int_equal(vc_bof_read(path, &back, err, sizeof(err)), -1);
    }
    /* a size field that lies */
    memcpy(buf + 16, &(uint32_t){ 0xFFFFFFF0u }, 4);
    f = fopen(path, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
    assert_int_equal(vc_bof_read(path, &back, err, sizeof(err)), -1);
    assert_int_equal(vc_bof_read("/nonexistent/x.bof", &back, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/nonexistent/x.bof"));
    unlink(path);
    cedar_dev_munmap(dev, p, 8192);
    cedar_cmdbuf_fini(&cb);
    cedar_dev_destroy(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capture_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
