/* The radeon PCI ids, taken at compile time from libdrm's r600_pci_ids.h
 * (one CHIPSET(id, name, family) line per device), so the list is never
 * retyped.  A Cedar is any id whose family is CEDAR. */
#include <stddef.h>
#include <string.h>

#include "cedar/pci.h"

struct pci_id_entry {
    uint16_t id;
    const char *family;
};

static const struct pci_id_entry pci_ids[] = {
#define CHIPSET(id, name, family) { id, #family },
#include <r600_pci_ids.h>
#undef CHIPSET
};

const char *cedar_pci_family(uint16_t device_id)
{
    for (size_t i = 0; i < sizeof pci_ids / sizeof pci_ids[0]; i++)
        if (pci_ids[i].id == device_id)
            return pci_ids[i].family;
    return NULL;
}

bool cedar_pci_is_cedar(uint16_t device_id)
{
    const char *f = cedar_pci_family(device_id);
    return f && strcmp(f, "CEDAR") == 0;
}

unsigned cedar_pci_cedar_ids(const uint16_t **ids)
{
    static uint16_t cedar[sizeof pci_ids / sizeof pci_ids[0]];
    unsigned n = 0;
    for (size_t i = 0; i < sizeof pci_ids / sizeof pci_ids[0]; i++)
        if (strcmp(pci_ids[i].family, "CEDAR") == 0)
            cedar[n++] = pci_ids[i].id;
    *ids = cedar;
    return n;
}
