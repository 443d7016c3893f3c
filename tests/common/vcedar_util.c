/* Buffers and submissions through the ioctl seam, for the tests of the
 * virtual Cedar (test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/cmdbuf.h"
#include "cedar/device.h"
#include "cedar/vcedar.h"
#include "test_util.h"

uint32_t test_vc_read32(struct vcedar *vc, uint64_t addr)
{
    uint32_t v = 0;
    assert_int_equal(vcedar_mem_read(vc, addr, &v, 4), 0);
    return v;
}

uint32_t test_vc_bo_new(struct cedar_dev *dev, uint64_t size, uint32_t domain)
{
    struct drm_radeon_gem_create c = { .size = size, .initial_domain = domain };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c), 0);
    assert_true(c.handle != 0);
    return c.handle;
}

void *test_vc_bo_map(struct cedar_dev *dev, uint32_t handle, uint64_t size)
{
    struct drm_radeon_gem_mmap m = { .handle = handle, .size = size };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m), 0);
    void *p = cedar_dev_mmap(dev, m.addr_ptr, size);
    assert_non_null(p);
    return p;
}

int test_vc_submit(struct cedar_dev *dev, const struct cedar_cmdbuf *cb, uint32_t ring, uint32_t flags)
{
    uint32_t fl[2] = { flags, ring };
    struct drm_radeon_cs_chunk ch[3] = {
        { .chunk_id = RADEON_CHUNK_ID_IB, .length_dw = (uint32_t)cb->ndw, .chunk_data = (uintptr_t)cb->dw },
        { .chunk_id = RADEON_CHUNK_ID_RELOCS, .length_dw = cb->nrelocs * 4, .chunk_data = (uintptr_t)cb->relocs },
        { .chunk_id = RADEON_CHUNK_ID_FLAGS, .length_dw = 2, .chunk_data = (uintptr_t)fl },
    };
    uint64_t ptrs[3] = { (uintptr_t)&ch[0], (uintptr_t)&ch[1], (uintptr_t)&ch[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };
    return cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &cs);
}
