/* The DRM node that belongs to a PCI bus address, through libdrm. */
#include <stdio.h>
#include <xf86drm.h>

#include "cedar/pci.h"

#define MAX_DRM_DEVICES 64

int cedar_drm_node_for_bus(uint16_t domain, uint8_t bus, uint8_t dev, uint8_t func,
                           char *node, size_t nodelen, char *err, size_t errlen)
{
    drmDevicePtr devs[MAX_DRM_DEVICES];
    int n = drmGetDevices2(0, devs, MAX_DRM_DEVICES);
    if (n < 0) {
        snprintf(err, errlen, "libdrm cannot list DRM devices (%d)", n);
        return -1;
    }
    if (n > MAX_DRM_DEVICES)
        n = MAX_DRM_DEVICES;
    int found = -1;
    for (int i = 0; i < n && found < 0; i++) {
        const drmDevicePtr d = devs[i];
        if (d->bustype != DRM_BUS_PCI || !d->businfo.pci)
            continue;
        const drmPciBusInfo *b = d->businfo.pci;
        if (b->domain != domain || b->bus != bus || b->dev != dev || b->func != func)
            continue;
        /* A render node needs no DRM master and is all the demo uses. */
        if (d->available_nodes & (1 << DRM_NODE_RENDER)) {
            snprintf(node, nodelen, "%s", d->nodes[DRM_NODE_RENDER]);
            found = i;
        } else if (d->available_nodes & (1 << DRM_NODE_PRIMARY)) {
            snprintf(node, nodelen, "%s", d->nodes[DRM_NODE_PRIMARY]);
            found = i;
        }
    }
    drmFreeDevices(devs, n);
    if (found < 0) {
        snprintf(err, errlen,
                 "no DRM node for PCI %04x:%02x:%02x.%x (no kernel driver bound to it?)",
                 domain, bus, dev, func);
        return -1;
    }
    return 0;
}
