/* cedar-run: the virtual Cedar behind a DRM device node.
 *
 * tools/cedar-run.c builds a small tree that looks like the /dev/dri and
 * /sys entries of one Radeon HD 7350 (cedar_fake_sysfs_build), then runs a
 * program with build/libcedar-shim.so preloaded (src/shim/), which sends
 * the device's paths into that tree and serves every ioctl on the node with
 * the virtual radeon kernel (src/vcedar/).  These environment variables are
 * the whole interface between the two.
 */
#ifndef CEDAR_RUN_H
#define CEDAR_RUN_H

#include <stddef.h>

#define CEDAR_RUN_ENV_ROOT    "CEDAR_RUN_ROOT"     /* the fake tree */
#define CEDAR_RUN_ENV_CHECK   "CEDAR_RUN_CHECK"    /* "kernel" (default) or "strict" */
#define CEDAR_RUN_ENV_NO_EXEC "CEDAR_RUN_NO_EXEC"  /* "1": check, execute nothing */
#define CEDAR_RUN_ENV_TRACE   "CEDAR_RUN_TRACE"    /* "1": each ioctl on stderr */
#define CEDAR_RUN_ENV_POISON  "CEDAR_RUN_POISON"   /* "1": --poison-state (vcedar_opts.poison_state) */
#define CEDAR_RUN_ENV_CAPTURE "CEDAR_RUN_CAPTURE"  /* directory for cs_NNN.bof */

/* Where the virtual card sits: bus 1 behind the root complex, as a PCIe
 * card usually does; the PCI identity is the HD 7350's (1002:68F9, a
 * Sapphire board's subsystem 174B:7350 as listed in pci.ids). */
#define CEDAR_RUN_PCI_SLOT     "0000:01:00.0"
#define CEDAR_RUN_PCI_DEVDIR   "/sys/devices/pci0000:00/0000:01:00.0"
#define CEDAR_RUN_SUBVENDOR    0x174Bu
#define CEDAR_RUN_SUBDEVICE    0x7350u
#define CEDAR_RUN_REVISION     0x00u
#define CEDAR_RUN_DRM_MAJOR    226
#define CEDAR_RUN_MINOR_CARD   0
#define CEDAR_RUN_MINOR_RENDER 128

/* Build the tree under root (an existing, empty directory).  Returns 0, or
 * -1 with a one-line reason in err. */
int cedar_fake_sysfs_build(const char *root, char *err, size_t errlen);
/* Remove the tree again (everything under root, and root). */
void cedar_fake_sysfs_remove(const char *root);

#endif
