/* The tree that makes one HD 7350 appear on the PCI bus and under /dev/dri,
 * as libdrm (drmGetDevices2, drmGetDevice2), libpciaccess (linux_sysfs) and
 * Mesa's loader read them: the device directory with its attribute files,
 * its 256-byte config space and its BARs, the DRM minors card0 and
 * renderD128, and the links sysfs has between them.  The shim redirects
 * the real paths here (shim_paths.c).  Layout after Linux's sysfs (PCI
 * attributes: drivers/pci/pci-sysfs.c; DRM minors: drm_sysfs.c). */
#include <errno.h>
#include <ftw.h>
#include <linux/pci_regs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cedar/pci.h"
#include "cedar/run.h"
#include "cedar/vcedar.h"

/* PCI class 03 (display), subclass 00 (VGA-compatible), prog-if 00. */
#define PCI_CLASS_VGA 0x030000u

/* Where the BARs sit is the model's choice (nothing maps them); their
 * sizes are the HD 7350's: 256 MiB of VRAM aperture (64-bit, prefetchable),
 * 128 KiB of registers (64-bit), 256 bytes of I/O ports. */
static const struct bar { uint64_t base, size; uint32_t kind; } bars[] = {
    { 0xE0000000ull, 256ull << 20, PCI_BASE_ADDRESS_MEM_TYPE_64 | PCI_BASE_ADDRESS_MEM_PREFETCH },
    { 0xFE620000ull, 128ull << 10, PCI_BASE_ADDRESS_MEM_TYPE_64 },
    { 0xE000ull, 256, PCI_BASE_ADDRESS_SPACE_IO },
};

/* Linux's IORESOURCE_* bits as /sys/.../resource prints them. */
#define IORESOURCE_IO       0x00000100u
#define IORESOURCE_MEM      0x00000200u
#define IORESOURCE_PREFETCH 0x00002000u
#define IORESOURCE_MEM_64   0x00100000u

struct tree {
    const char *root;
    char *err;
    size_t errlen;
    int failed;
};

static int fail(struct tree *t, const char *what, const char *path)
{
    if (!t->failed)
        snprintf(t->err, t->errlen, "cannot %s %s%s: %s", what, t->root, path, strerror(errno));
    t->failed = 1;
    return -1;
}

static void dir(struct tree *t, const char *path)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", t->root, path);
    if (!t->failed && mkdir(full, 0755) != 0 && errno != EEXIST)
        fail(t, "create directory", path);
}

static void file(struct tree *t, const char *path, const void *data, size_t len)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", t->root, path);
    if (t->failed)
        return;
    FILE *f = fopen(full, "wb");
    if (!f || fwrite(data, 1, len, f) != len) {
        if (f)
            fclose(f);
        fail(t, "write", path);
        return;
    }
    if (fclose(f) != 0)
        fail(t, "write", path);
}

static void text(struct tree *t, const char *path, const char *s)
{
    file(t, path, s, strlen(s));
}

static void link_to(struct tree *t, const char *path, const char *target)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", t->root, path);
    if (!t->failed && symlink(target, full) != 0)
        fail(t, "link", path);
}

static void put16(uint8_t *cfg, unsigned off, uint16_t v)
{
    cfg[off] = (uint8_t)v;
    cfg[off + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *cfg, unsigned off, uint32_t v)
{
    put16(cfg, off, (uint16_t)v);
    put16(cfg, off + 2, (uint16_t)(v >> 16));
}

/* Type-0 config header: ids, class, BARs (64-bit ones take two slots). */
static void config_space(uint8_t cfg[256])
{
    memset(cfg, 0, 256);
    put16(cfg, PCI_VENDOR_ID, CEDAR_PCI_VENDOR_AMD);
    put16(cfg, PCI_DEVICE_ID, VCEDAR_DEVICE_ID);
    put16(cfg, PCI_COMMAND, PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    put32(cfg, PCI_CLASS_REVISION, PCI_CLASS_VGA << 8 | CEDAR_RUN_REVISION);
    unsigned off = PCI_BASE_ADDRESS_0;
    for (size_t i = 0; i < sizeof bars / sizeof bars[0]; i++) {
        put32(cfg, off, (uint32_t)bars[i].base | bars[i].kind);
        off += 4;
        if (bars[i].kind & PCI_BASE_ADDRESS_MEM_TYPE_64) {
            put32(cfg, off, (uint32_t)(bars[i].base >> 32));
            off += 4;
        }
    }
    put16(cfg, PCI_SUBSYSTEM_VENDOR_ID, CEDAR_RUN_SUBVENDOR);
    put16(cfg, PCI_SUBSYSTEM_ID, CEDAR_RUN_SUBDEVICE);
    cfg[PCI_INTERRUPT_PIN] = 1;   /* INTA# */
}

/* /sys/.../resource: "start end flags" per BAR slot, then the ROM slot. */
static void resource_file(struct tree *t, const char *path)
{
    char buf[1024];
    size_t n = 0;
    unsigned slots = 0;
    for (size_t i = 0; i < sizeof bars / sizeof bars[0]; i++) {
        uint32_t flags;
        if (bars[i].kind & PCI_BASE_ADDRESS_SPACE_IO)
            flags = IORESOURCE_IO;
        else
            flags = IORESOURCE_MEM | (bars[i].kind & PCI_BASE_ADDRESS_MEM_PREFETCH ? IORESOURCE_PREFETCH : 0) |
                    (bars[i].kind & PCI_BASE_ADDRESS_MEM_TYPE_64 ? IORESOURCE_MEM_64 : 0);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "0x%016llx 0x%016llx 0x%016llx\n",
                              (unsigned long long)bars[i].base,
                              (unsigned long long)(bars[i].base + bars[i].size - 1), (unsigned long long)flags);
        slots++;
        if (bars[i].kind & PCI_BASE_ADDRESS_MEM_TYPE_64) {   /* the upper half's slot is empty */
            n += (size_t)snprintf(buf + n, sizeof buf - n, "0x%016x 0x%016x 0x%016x\n", 0, 0, 0);
            slots++;
        }
    }
    for (; slots < 7; slots++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "0x%016x 0x%016x 0x%016x\n", 0, 0, 0);
    file(t, path, buf, n);
}

static void drm_minor(struct tree *t, const char *name, int minor)
{
    char p[256], s[300];
    snprintf(p, sizeof p, CEDAR_RUN_PCI_DEVDIR "/drm/%.16s", name);
    dir(t, p);
    snprintf(s, sizeof s, "%s/dev", p);
    char v[64];
    snprintf(v, sizeof v, "%d:%d\n", CEDAR_RUN_DRM_MAJOR, minor);
    text(t, s, v);
    snprintf(s, sizeof s, "%s/uevent", p);
    char ue[160];
    snprintf(ue, sizeof ue, "MAJOR=%d\nMINOR=%d\nDEVNAME=dri/%s\nDEVTYPE=drm_minor\n", CEDAR_RUN_DRM_MAJOR,
             minor, name);
    text(t, s, ue);
    snprintf(s, sizeof s, "%s/device", p);
    link_to(t, s, "../../../" CEDAR_RUN_PCI_SLOT);
    snprintf(s, sizeof s, "%s/subsystem", p);
    link_to(t, s, "../../../../../class/drm");
    snprintf(s, sizeof s, "/sys/class/drm/%s", name);
    snprintf(v, sizeof v, "../../devices/pci0000:00/" CEDAR_RUN_PCI_SLOT "/drm/%s", name);
    link_to(t, s, v);
    snprintf(s, sizeof s, "/sys/dev/char/%d:%d", CEDAR_RUN_DRM_MAJOR, minor);
    link_to(t, s, v);
    snprintf(s, sizeof s, "/dev/dri/%s", name);
    text(t, s, "");   /* stat() and open() of it are the shim's */
}

int cedar_fake_sysfs_build(const char *root, char *err, size_t errlen)
{
    struct tree t = { .root = root, .err = err, .errlen = errlen };
    static const char *const dirs[] = {
        "/dev", "/dev/dri", "/sys", "/sys/devices", "/sys/devices/pci0000:00", CEDAR_RUN_PCI_DEVDIR,
        CEDAR_RUN_PCI_DEVDIR "/drm", "/sys/bus", "/sys/bus/pci", "/sys/bus/pci/devices",
        "/sys/bus/pci/drivers", "/sys/bus/pci/drivers/radeon", "/sys/class", "/sys/class/drm",
        "/sys/dev", "/sys/dev/char",
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        dir(&t, dirs[i]);

    char v[256];
    const char *d = CEDAR_RUN_PCI_DEVDIR;
    char p[256];
#define ATTR(name, ...) (snprintf(v, sizeof v, __VA_ARGS__), snprintf(p, sizeof p, "%s/" name, d), text(&t, p, v))
    ATTR("vendor", "0x%04x\n", CEDAR_PCI_VENDOR_AMD);
    ATTR("device", "0x%04x\n", VCEDAR_DEVICE_ID);
    ATTR("subsystem_vendor", "0x%04x\n", CEDAR_RUN_SUBVENDOR);
    ATTR("subsystem_device", "0x%04x\n", CEDAR_RUN_SUBDEVICE);
    ATTR("revision", "0x%02x\n", CEDAR_RUN_REVISION);
    ATTR("class", "0x%06x\n", PCI_CLASS_VGA);
    ATTR("boot_vga", "1\n");
    ATTR("enable", "1\n");
    ATTR("uevent",
         "DRIVER=radeon\nPCI_CLASS=%X\nPCI_ID=%04X:%04X\nPCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=%s\n"
         "MODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X\n",
         PCI_CLASS_VGA, CEDAR_PCI_VENDOR_AMD, VCEDAR_DEVICE_ID, CEDAR_RUN_SUBVENDOR, CEDAR_RUN_SUBDEVICE,
         CEDAR_RUN_PCI_SLOT, CEDAR_PCI_VENDOR_AMD, VCEDAR_DEVICE_ID, CEDAR_RUN_SUBVENDOR,
         CEDAR_RUN_SUBDEVICE, PCI_CLASS_VGA >> 16, (PCI_CLASS_VGA >> 8) & 0xFF, PCI_CLASS_VGA & 0xFF);
#undef ATTR
    uint8_t cfg[256];
    config_space(cfg);
    snprintf(p, sizeof p, "%s/config", d);
    file(&t, p, cfg, sizeof cfg);
    snprintf(p, sizeof p, "%s/resource", d);
    resource_file(&t, p);
    snprintf(p, sizeof p, "%s/subsystem", d);
    link_to(&t, p, "../../../bus/pci");
    snprintf(p, sizeof p, "%s/driver", d);
    link_to(&t, p, "../../../bus/pci/drivers/radeon");
    link_to(&t, "/sys/bus/pci/devices/" CEDAR_RUN_PCI_SLOT, "../../../devices/pci0000:00/" CEDAR_RUN_PCI_SLOT);
    link_to(&t, "/sys/bus/pci/drivers/radeon/" CEDAR_RUN_PCI_SLOT,
            "../../../../devices/pci0000:00/" CEDAR_RUN_PCI_SLOT);
    text(&t, "/sys/class/drm/version", "drm 1.1.0 20060810\n");
    drm_minor(&t, "card0", CEDAR_RUN_MINOR_CARD);
    drm_minor(&t, "renderD128", CEDAR_RUN_MINOR_RENDER);
    return t.failed ? -1 : 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

void cedar_fake_sysfs_remove(const char *root)
{
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
