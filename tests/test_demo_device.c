/* Finding and checking the card, without a card: the Cedar PCI ids, the
 * ioctl request numbers and structs the seam marshals (against the
 * kernel's ABI, worked out by hand), the refusal of every device that is not a Cedar
 * on radeon >= 2.19 (through a scripted backend of the seam), and the
 * kernel backend on nodes that are not DRM devices. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <xf86drm.h>
#include <radeon_drm.h>

#include "cedar/pci.h"

/* --- PCI ids ------------------------------------------------------------ */

static void cedar_ids(void **state)
{
    (void)state;
    /* 1002:68F9 is the HD 7350 of the real-card fixture and of Mesa's
     * reference streams (the READMEs under tests/data/). */
    assert_true(cedar_pci_is_cedar(0x68F9));
    assert_string_equal(cedar_pci_family(0x68F9), "CEDAR");
    /* Neighbours that are not Cedars: Caicos (HD 6450), Redwood, R600. */
    assert_false(cedar_pci_is_cedar(0x6779));
    assert_string_equal(cedar_pci_family(0x6779), "CAICOS");
    assert_false(cedar_pci_is_cedar(0x9400));
    assert_null(cedar_pci_family(0x1234));
    const uint16_t *ids;
    unsigned n = cedar_pci_cedar_ids(&ids);
    assert_true(n >= 10);
    for (unsigned i = 0; i < n; i++) {
        /* every Cedar id lies in the Evergreen 0x68xx range */
        assert_int_equal(ids[i] & 0xFF00, 0x6800);
        assert_true(cedar_pci_is_cedar(ids[i]));
    }
}

/* --- ioctl structs: the size each request number encodes ---------------- */

/* Linux _IOC layout: direction in bits 30..31 (1 write, 3 read/write), the
 * argument's size in bits 16..29, type 'd' (0x64) in bits 8..15, number in
 * bits 0..7 (DRM_COMMAND_BASE 0x40 + the radeon number). */
#define IOC(dir, nr, size) ((unsigned long)(dir) << 30 | (unsigned long)(size) << 16 | 0x64ul << 8 | (nr))

static void ioctl_struct_layout(void **state)
{
    (void)state;
    /* The request numbers are the kernel's ABI, computed here by hand from
     * the radeon uapi's struct fields (radeon_drm.h, drm.h), so a header
     * whose struct or number differs from the kernel's fails: the size is
     * what the kernel copies in and out. */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_INFO, IOC(3, 0x5C, 24));        /* 3 x u64 */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_CREATE, IOC(3, 0x5D, 32));      /* 2 x u64, 3 x u32, pad */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_MMAP, IOC(3, 0x5E, 32));        /* 2 x u32, 3 x u64 */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_WAIT_IDLE, IOC(1, 0x64, 8));    /* handle, pad */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_BUSY, IOC(3, 0x6A, 8));         /* handle, domain */
    assert_int_equal(DRM_IOCTL_RADEON_GEM_SET_TILING, IOC(3, 0x68, 12));  /* handle, flags, pitch */
    assert_int_equal(DRM_IOCTL_RADEON_INFO, IOC(3, 0x67, 16));            /* request, pad, u64 value */
    assert_int_equal(DRM_IOCTL_RADEON_CS, IOC(3, 0x66, 32));              /* 2 x u32, 3 x u64 */
    assert_int_equal(DRM_IOCTL_GEM_CLOSE, IOC(1, 0x09, 8));               /* handle, pad; a core ioctl */
    /* 64-bit fields at 8-byte offsets, identical on 32- and 64-bit user space
     * (the radeon uapi's rule); a chunk is 16 bytes, a relocation 4 dwords. */
    assert_int_equal(sizeof(struct drm_radeon_gem_create), 32);
    assert_int_equal(offsetof(struct drm_radeon_gem_create, handle), 16);
    assert_int_equal(offsetof(struct drm_radeon_gem_mmap, addr_ptr), 24);
    assert_int_equal(sizeof(struct drm_radeon_cs_chunk), 16);
    assert_int_equal(offsetof(struct drm_radeon_cs_chunk, chunk_data), 8);
    assert_int_equal(sizeof(struct drm_radeon_cs_reloc), 16);
    assert_int_equal(sizeof(struct drm_radeon_cs), 32);
    assert_int_equal(offsetof(struct drm_radeon_cs, chunks), 8);
    assert_int_equal(offsetof(struct drm_radeon_info, value), 8);
}

/* --- the checks, through a scripted backend ------------------------------ */

struct script {
    const char *driver;
    int major, minor;
    uint32_t device_id;
    uint32_t tiling_config;
    int cs_calls;
};

static int script_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    struct script *s = dev->priv;
    if (request == DRM_IOCTL_VERSION) {
        drm_version_t *v = arg;
        size_t n = strlen(s->driver);
        if (v->name && v->name_len > 0)
            memcpy(v->name, s->driver, n < v->name_len ? n : v->name_len);
        v->name_len = n;
        v->version_major = s->major;
        v->version_minor = s->minor;
        v->version_patchlevel = 0;
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_INFO) {
        struct drm_radeon_info *i = arg;
        uint32_t *out = (uint32_t *)(uintptr_t)i->value;
        if (i->request == RADEON_INFO_DEVICE_ID)
            *out = s->device_id;
        else if (i->request == RADEON_INFO_TILING_CONFIG)
            *out = s->tiling_config;
        else
            return -EINVAL;
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_GEM_INFO) {
        struct drm_radeon_gem_info *g = arg;
        g->vram_size = 512ull << 20;
        g->gart_size = 512ull << 20;
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_CS)
        s->cs_calls++;
    return -EINVAL;
}

static void script_last_error(struct cedar_dev *dev, char *buf, size_t len)
{
    (void)dev;
    if (len)
        buf[0] = '\0';
}

static const struct cedar_dev_ops script_ops = {
    .name = "script", .ioctl = script_ioctl, .last_error = script_last_error,
};

static int query(struct script *s, char *err, size_t len)
{
    struct cedar_dev dev = { .ops = &script_ops, .fd = -1, .priv = s };
    strcpy(dev.node, "script");
    struct cedar_dev_facts f;
    int rc = cedar_dev_query_facts(&dev, &f, err, len);
    if (rc == 0) {
        assert_int_equal(f.device_id, s->device_id);
        assert_int_equal(f.tiling_config, s->tiling_config);
        assert_string_equal(f.driver, "radeon");
    }
    return rc;
}

static void facts_accept_cedar_on_radeon(void **state)
{
    (void)state;
    char err[256] = "";
    struct script s = { "radeon", 2, 50, 0x68F9, 0x11, 0 };
    assert_int_equal(query(&s, err, sizeof err), 0);
    struct script edge = { "radeon", 2, 19, 0x68E1, 0x11, 0 };
    assert_int_equal(query(&edge, err, sizeof err), 0);
}

static void facts_refuse_others(void **state)
{
    (void)state;
    char err[256];
    struct script amdgpu = { "amdgpu", 3, 42, 0x68F9, 0x11, 0 };
    assert_int_equal(query(&amdgpu, err, sizeof err), -1);
    assert_non_null(strstr(err, "amdgpu"));
    struct script old = { "radeon", 2, 18, 0x68F9, 0x11, 0 };
    assert_int_equal(query(&old, err, sizeof err), -1);
    assert_non_null(strstr(err, "2.18"));
    struct script caicos = { "radeon", 2, 50, 0x6779, 0x11, 0 };
    assert_int_equal(query(&caicos, err, sizeof err), -1);
    assert_non_null(strstr(err, "CAICOS"));
    struct script intel = { "i915", 1, 6, 0x68F9, 0x11, 0 };
    assert_int_equal(query(&intel, err, sizeof err), -1);
    assert_non_null(strstr(err, "i915"));
    /* the checks never submit */
    assert_int_equal(amdgpu.cs_calls + old.cs_calls + caicos.cs_calls + intel.cs_calls, 0);
}

static void kernel_open_refuses_non_drm(void **state)
{
    (void)state;
    char err[256];
    assert_null(cedar_dev_open_kernel("/nonexistent/renderD128", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_null(cedar_dev_open_kernel("/dev/null", err, sizeof err));
    assert_non_null(strstr(err, "not a DRM device"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cedar_ids),
        cmocka_unit_test(ioctl_struct_layout),
        cmocka_unit_test(facts_accept_cedar_on_radeon),
        cmocka_unit_test(facts_refuse_others),
        cmocka_unit_test(kernel_open_refuses_non_drm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
