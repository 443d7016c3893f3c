/* Buffer objects on a device through its ioctls (see test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/device.h"
#include "test_util.h"

uint32_t test_bo_new(struct cedar_dev *dev, uint64_t size, uint32_t domain)
{
    struct drm_radeon_gem_create c = { .size = size, .initial_domain = domain };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c), 0);
    assert_true(c.handle != 0);
    return c.handle;
}

void *test_bo_map(struct cedar_dev *dev, uint32_t handle, uint64_t size)
{
    struct drm_radeon_gem_mmap m = { .handle = handle, .size = size };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m), 0);
    void *p = cedar_dev_mmap(dev, m.addr_ptr, size);
    assert_non_null(p);
    return p;
}
