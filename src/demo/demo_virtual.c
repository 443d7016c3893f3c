/* Opening a device behind the ioctl seam: the virtual Cedar (src/vcedar/:
 * the radeon kernel interface, its command-stream checker, command
 * processor and renderer), a DRM node, or whichever of the two `auto`
 * finds (the tools' --device). */
#include <stdio.h>
#include <string.h>

#include "cedar/demo.h"
#include "cedar/pci.h"
#include "cedar/vcedar.h"

int cedar_demo_open_virtual(struct cedar_dev **dev, char *err, size_t errlen)
{
    int rc = cedar_dev_open_virtual(NULL, dev);
    if (rc != 0) {
        *dev = NULL;
        snprintf(err, errlen, "cannot start the virtual Cedar: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

int cedar_demo_open_device(const char *spec, struct cedar_dev **dev, char *note, size_t notelen,
                           char *err, size_t errlen)
{
    if (notelen)
        note[0] = '\0';
    *dev = NULL;
    if (strcmp(spec, "virtual") == 0)
        return cedar_demo_open_virtual(dev, err, errlen);
    if (strcmp(spec, "auto") != 0) {
        *dev = cedar_dev_open_kernel(spec, err, errlen);
        return *dev ? 0 : -1;
    }
    /* auto: a Cedar on the PCI bus if there is one (then it must work),
     * else the virtual Cedar. */
    struct cedar_pci_device devs[32];
    char perr[256];
    int n = cedar_pci_list_amd(devs, 32, perr, sizeof perr);
    for (int i = 0; i < n && i < 32; i++) {
        if (!cedar_pci_is_cedar(devs[i].device_id))
            continue;
        char node[64];
        if (cedar_drm_node_for_bus(devs[i].domain, devs[i].bus, devs[i].dev, devs[i].func, node,
                                   sizeof node, err, errlen) != 0)
            return -1;
        snprintf(note, notelen, "the Cedar at %04x:%02x:%02x.%x (%s)", devs[i].domain, devs[i].bus,
                 devs[i].dev, devs[i].func, node);
        *dev = cedar_dev_open_kernel(node, err, errlen);
        return *dev ? 0 : -1;
    }
    snprintf(note, notelen, "no Cedar found on the PCI bus; using the virtual Cedar");
    return cedar_demo_open_virtual(dev, err, errlen);
}

int cedar_demo_device_is_virtual(struct cedar_dev *dev)
{
    return vcedar_of(dev) != NULL;
}

int cedar_demo_device_fault(struct cedar_dev *dev, char *buf, size_t len)
{
    /* A GPU fault does not fail the CS ioctl (the kernel had accepted the
     * submission); the virtual Cedar records the first one.  The real
     * kernel has no such report: there the frame is the evidence. */
    struct vcedar *vc = vcedar_of(dev);
    if (len)
        buf[0] = '\0';
    if (!vc)
        return 0;
    const struct vc_error *e = vcedar_exec_error(vc);
    if (e->code == VC_OK)
        return 0;
    vc_error_format(e, buf, len);
    return 1;
}

int cedar_demo_zero_pages(struct cedar_dev *dev, const void *ptr, size_t len, uint8_t *zero)
{
    struct vcedar *vc = vcedar_of(dev);
    return vc ? vcedar_zero_pages(vc, ptr, len, zero) : -1;
}
