/* Finding the card: AMD display devices on the PCI bus, the Cedar PCI ids,
 * the DRM node that belongs to a bus address, and the real-kernel backend of
 * the ioctl seam (struct cedar_dev, cedar/device.h).
 *
 * Nothing here submits anything: cedar_dev_open_kernel() refuses every node
 * that is not a Cedar driven by the radeon kernel driver, new enough for
 * MSAA, and the kernel backend refuses DRM_IOCTL_RADEON_CS on a handle that
 * did not pass those checks.
 */
#ifndef CEDAR_PCI_H
#define CEDAR_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/device.h"

/* PCI vendor id of ATI/AMD graphics (PCI-SIG registry; libdrm's
 * r600_pci_ids.h lists every r600-family device under it). */
#define CEDAR_PCI_VENDOR_AMD 0x1002u

/* The radeon DRM version history (the kernel's radeon_drv.c): 2.16.0 "fix
 * evergreen 2D tiled surface calculation", 2.19.0 "r600-eg: MSAA textures";
 * older kernels reject the MSAA state this demo submits. */
#define CEDAR_DRM_MAJOR_MIN 2
#define CEDAR_DRM_MINOR_MIN 19

struct cedar_pci_bar {
    uint64_t base;
    uint64_t size;
    bool is_io, is_prefetchable, is_64;
};

struct cedar_pci_device {
    uint16_t domain;
    uint8_t bus, dev, func;
    uint16_t vendor_id, device_id, subvendor_id, subdevice_id;
    uint32_t device_class;     /* 24-bit class code */
    char name[128];            /* from pci.ids through libpciaccess, or "" */
    const char *family;        /* r600_pci_ids.h family ("CEDAR", ...), NULL if unknown */
    struct cedar_pci_bar bars[6];
};

/* "0000:01:00.0" */
void cedar_pci_bus_string(const struct cedar_pci_device *d, char *buf, size_t len);

/* The family libdrm's r600_pci_ids.h gives a device id ("CEDAR", "REDWOOD",
 * ...), or NULL when the id is not an r600-family (R600..Cayman) device. */
const char *cedar_pci_family(uint16_t device_id);
bool cedar_pci_is_cedar(uint16_t device_id);
/* The Cedar ids from r600_pci_ids.h, in its order. */
unsigned cedar_pci_cedar_ids(const uint16_t **ids);

/* Every AMD (vendor 0x1002) display-class device libpciaccess sees, up to
 * max.  Returns the number found (possibly more than max: only max are
 * written), or -1 with a reason in err when the PCI bus cannot be read. */
int cedar_pci_list_amd(struct cedar_pci_device *out, unsigned max, char *err, size_t errlen);

/* The DRM node of the device at a PCI bus address (a render node if there
 * is one, else the primary node), found through libdrm's drmGetDevices2.
 * Returns 0, or -1 with a reason. */
int cedar_drm_node_for_bus(uint16_t domain, uint8_t bus, uint8_t dev, uint8_t func,
                           char *node, size_t nodelen, char *err, size_t errlen);

/* Opens a DRM node with the real-kernel backend and checks, before handing
 * it out: driver name "radeon", DRM version >= 2.19, RADEON_INFO_DEVICE_ID a
 * Cedar.  NULL with a one-line reason in err otherwise (nothing submitted). */
struct cedar_dev *cedar_dev_open_kernel(const char *node, char *err, size_t errlen);

/* What a device handle says about itself through the seam (any backend). */
struct cedar_dev_facts {
    char driver[32];
    int version_major, version_minor, version_patchlevel;
    uint32_t device_id;
    uint32_t tiling_config;    /* RADEON_INFO_TILING_CONFIG, raw */
    uint64_t vram_size, gart_size;
};

/* Queries DRM_IOCTL_VERSION, RADEON_INFO_DEVICE_ID, RADEON_INFO_TILING_CONFIG
 * and GEM_INFO through the seam and checks them as cedar_dev_open_kernel does
 * (radeon, >= 2.19, a Cedar).  Returns 0, or -1 with a one-line reason. */
int cedar_dev_query_facts(struct cedar_dev *dev, struct cedar_dev_facts *f, char *err,
                          size_t errlen);

#endif
