/* Which paths belong to the virtual card, and the environment cedar-run
 * hands over.  Only the device's own entries are redirected into the fake
 * tree; the rest of /sys and /dev (and every other path) is untouched, so
 * real PCI and DRM devices of the machine are hidden exactly where a
 * program would look for a GPU. */
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "cedar/run.h"
#include "shim.h"

struct shim_config shim_cfg;

void shim_config_load(void)
{
    const char *root = getenv(CEDAR_RUN_ENV_ROOT);
    if (!root || root[0] != '/' || strlen(root) >= sizeof shim_cfg.root)
        return;   /* not under cedar-run: the shim stays out of the way */
    strcpy(shim_cfg.root, root);
    shim_cfg.rootlen = strlen(root);
    const char *check = getenv(CEDAR_RUN_ENV_CHECK);
    shim_cfg.strict = check && strcmp(check, "strict") == 0;
    const char *v = getenv(CEDAR_RUN_ENV_NO_EXEC);
    shim_cfg.no_exec = v && strcmp(v, "1") == 0;
    v = getenv(CEDAR_RUN_ENV_POISON);
    shim_cfg.poison_state = v && strcmp(v, "1") == 0;
    v = getenv(CEDAR_RUN_ENV_TRACE);
    shim_cfg.trace = v && strcmp(v, "1") == 0;
    v = getenv(CEDAR_RUN_ENV_CAPTURE);
    if (v && strlen(v) < sizeof shim_cfg.capture_dir)
        strcpy(shim_cfg.capture_dir, v);
    shim_cfg.active = true;
}

/* What the card owns: each prefix names a whole subtree (matched at a path
 * component boundary), except "/sys/dev/char/226:", which covers every DRM
 * minor by name (the machine's real minors vanish, ours appear). */
static const struct { const char *prefix; int partial; } owned[] = {
    { "/dev/dri", 0 },
    { "/sys/bus/pci", 0 },
    { "/sys/class/drm", 0 },
    { "/sys/dev/char/226:", 1 },
    { CEDAR_RUN_PCI_DEVDIR, 0 },
};

static int owned_path(const char *path)
{
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
        size_t n = strlen(owned[i].prefix);
        if (strncmp(path, owned[i].prefix, n) != 0)
            continue;
        if (owned[i].partial || path[n] == '\0' || path[n] == '/')
            return 1;
    }
    return 0;
}

const char *shim_map_path(const char *path, char *buf, size_t len)
{
    if (!shim_cfg.active || !path || path[0] != '/')
        return path;
    /* Collapse leading double slashes the way the kernel would read them. */
    const char *p = path;
    while (p[0] == '/' && p[1] == '/')
        p++;
    if (!owned_path(p))
        return path;
    size_t need = shim_cfg.rootlen + strlen(p) + 1;
    if (need > len)
        return path;   /* too long to be one of ours */
    memcpy(buf, shim_cfg.root, shim_cfg.rootlen);
    memcpy(buf + shim_cfg.rootlen, p, strlen(p) + 1);
    return buf;
}

int shim_node_minor(const char *mapped)
{
    if (!shim_cfg.active || strncmp(mapped, shim_cfg.root, shim_cfg.rootlen) != 0)
        return -1;
    const char *rest = mapped + shim_cfg.rootlen;
    if (strcmp(rest, "/dev/dri/card0") == 0)
        return CEDAR_RUN_MINOR_CARD;
    if (strcmp(rest, "/dev/dri/renderD128") == 0)
        return CEDAR_RUN_MINOR_RENDER;
    return -1;
}

void shim_unmap_result(char *resolved)
{
    if (!shim_cfg.active || !resolved || strncmp(resolved, shim_cfg.root, shim_cfg.rootlen) != 0)
        return;
    if (resolved[shim_cfg.rootlen] != '/')
        return;
    memmove(resolved, resolved + shim_cfg.rootlen, strlen(resolved + shim_cfg.rootlen) + 1);
}

void shim_fake_chardev(struct stat *st, int minor)
{
    st->st_mode = (st->st_mode & ~(mode_t)S_IFMT) | S_IFCHR;
    st->st_mode = (st->st_mode & ~(mode_t)0777) | 0666;   /* crw-rw-rw- as udev's render nodes */
    st->st_rdev = makedev(CEDAR_RUN_DRM_MAJOR, minor);
    st->st_size = 0;
}
