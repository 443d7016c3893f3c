/* AMD display devices on the PCI bus, through libpciaccess. */
#include <pciaccess.h>
#include <stdio.h>
#include <string.h>

#include "cedar/pci.h"

/* PCI base class 0x03 = display controller (PCI Code and ID Assignment
 * Specification); libpciaccess matches on the 24-bit class code. */
#define PCI_CLASS_DISPLAY      0x030000u
#define PCI_CLASS_BASE_MASK    0xFF0000u

void cedar_pci_bus_string(const struct cedar_pci_device *d, char *buf, size_t len)
{
    snprintf(buf, len, "%04x:%02x:%02x.%x", d->domain, d->bus, d->dev, d->func);
}

static void fill_device(struct pci_device *pd, struct cedar_pci_device *d)
{
    memset(d, 0, sizeof *d);
    d->domain = (uint16_t)pd->domain;
    d->bus = pd->bus;
    d->dev = pd->dev;
    d->func = pd->func;
    d->vendor_id = pd->vendor_id;
    d->device_id = pd->device_id;
    d->subvendor_id = pd->subvendor_id;
    d->subdevice_id = pd->subdevice_id;
    d->device_class = pd->device_class;
    d->family = cedar_pci_family(pd->device_id);
    const char *name = pci_device_get_device_name(pd);
    if (name)
        snprintf(d->name, sizeof d->name, "%s", name);
    /* BARs need a probe (reads sysfs); without it they stay zero. */
    if (pci_device_probe(pd) == 0) {
        for (int i = 0; i < 6; i++) {
            d->bars[i].base = pd->regions[i].base_addr;
            d->bars[i].size = pd->regions[i].size;
            d->bars[i].is_io = pd->regions[i].is_IO;
            d->bars[i].is_prefetchable = pd->regions[i].is_prefetchable;
            d->bars[i].is_64 = pd->regions[i].is_64;
        }
    }
}

int cedar_pci_list_amd(struct cedar_pci_device *out, unsigned max, char *err, size_t errlen)
{
    int rc = pci_system_init();
    if (rc != 0) {
        snprintf(err, errlen, "cannot read the PCI bus (libpciaccess: %s)", strerror(rc));
        return -1;
    }
    struct pci_id_match match = {
        .vendor_id = CEDAR_PCI_VENDOR_AMD,
        .device_id = PCI_MATCH_ANY,
        .subvendor_id = PCI_MATCH_ANY,
        .subdevice_id = PCI_MATCH_ANY,
        .device_class = PCI_CLASS_DISPLAY,
        .device_class_mask = PCI_CLASS_BASE_MASK,
    };
    struct pci_device_iterator *it = pci_id_match_iterator_create(&match);
    if (!it) {
        pci_system_cleanup();
        snprintf(err, errlen, "cannot read the PCI bus (libpciaccess iterator)");
        return -1;
    }
    int n = 0;
    struct pci_device *pd;
    while ((pd = pci_device_next(it)) != NULL) {
        if ((unsigned)n < max)
            fill_device(pd, &out[n]);
        n++;
    }
    pci_iterator_destroy(it);
    pci_system_cleanup();
    return n;
}
