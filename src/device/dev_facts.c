/* What a device handle says about itself, asked through the seam, and the
 * checks every backend must pass before the demo submits anything. */
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>
#include <radeon_drm.h>

#include "cedar/pci.h"

static int radeon_info(struct cedar_dev *dev, uint32_t request, uint32_t *value)
{
    struct drm_radeon_info info = {
        .request = request,
        .value = (uint64_t)(uintptr_t)value,
    };
    return cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &info);
}

int cedar_dev_query_facts(struct cedar_dev *dev, struct cedar_dev_facts *f, char *err,
                          size_t errlen)
{
    memset(f, 0, sizeof *f);
    char name[sizeof f->driver] = "", date[32] = "", desc[128] = "";
    drm_version_t v = {
        .name_len = sizeof name - 1, .name = name,
        .date_len = sizeof date - 1, .date = date,
        .desc_len = sizeof desc - 1, .desc = desc,
    };
    int rc = cedar_dev_ioctl(dev, DRM_IOCTL_VERSION, &v);
    if (rc != 0) {
        snprintf(err, errlen, "%s: DRM_IOCTL_VERSION failed (%s): not a DRM device", dev->node,
                 strerror(-rc));
        return -1;
    }
    size_t nl = v.name_len < sizeof name ? v.name_len : sizeof name - 1;
    name[nl] = '\0';
    snprintf(f->driver, sizeof f->driver, "%s", name);
    f->version_major = v.version_major;
    f->version_minor = v.version_minor;
    f->version_patchlevel = v.version_patchlevel;

    if (strcmp(f->driver, "radeon") != 0) {
        if (strcmp(f->driver, "amdgpu") == 0)
            snprintf(err, errlen,
                     "%s is driven by amdgpu, which has no Evergreen support; a Cedar needs "
                     "the radeon kernel driver", dev->node);
        else
            snprintf(err, errlen, "%s is driven by \"%s\", not radeon: not a Cedar", dev->node,
                     f->driver);
        return -1;
    }
    if (f->version_major != CEDAR_DRM_MAJOR_MIN || f->version_minor < CEDAR_DRM_MINOR_MIN) {
        snprintf(err, errlen,
                 "%s: radeon DRM %d.%d is too old: MSAA on Evergreen needs %d.%d or newer",
                 dev->node, f->version_major, f->version_minor, CEDAR_DRM_MAJOR_MIN,
                 CEDAR_DRM_MINOR_MIN);
        return -1;
    }
    rc = radeon_info(dev, RADEON_INFO_DEVICE_ID, &f->device_id);
    if (rc != 0) {
        snprintf(err, errlen, "%s: RADEON_INFO_DEVICE_ID failed (%s)", dev->node, strerror(-rc));
        return -1;
    }
    if (!cedar_pci_is_cedar((uint16_t)f->device_id) || f->device_id > 0xFFFF) {
        const char *fam = f->device_id <= 0xFFFF ? cedar_pci_family((uint16_t)f->device_id) : NULL;
        snprintf(err, errlen, "%s: PCI device 1002:%04x is %s, not a Cedar (HD 5450/6350/7350)",
                 dev->node, f->device_id, fam ? fam : "not an r600-family GPU");
        return -1;
    }
    rc = radeon_info(dev, RADEON_INFO_TILING_CONFIG, &f->tiling_config);
    if (rc != 0) {
        snprintf(err, errlen, "%s: RADEON_INFO_TILING_CONFIG failed (%s)", dev->node,
                 strerror(-rc));
        return -1;
    }
    struct drm_radeon_gem_info gi = {0};
    rc = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_INFO, &gi);
    if (rc != 0) {
        snprintf(err, errlen, "%s: GEM_INFO failed (%s)", dev->node, strerror(-rc));
        return -1;
    }
    f->vram_size = gi.vram_size;
    f->gart_size = gi.gart_size;
    return 0;
}
