/* ioctl on a DRM fd: the user-memory half of the kernel's drm_ioctl().
 * The argument is copied in for the size the caller's request says (when
 * it and the kernel's definition both read it), every pointer inside it is
 * followed with copy_from_user / copy_to_user (-EFAULT, never a fault), and
 * it is copied back out afterwards.  Everything else, the dispatch by
 * number, zero-extension, permissions and the handlers, is the virtual
 * radeon kernel's (src/vcedar/vc_file.c), which is given only our memory. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/vcedar.h"
#include "shim.h"

#define IOCTL(name) { DRM_IOCTL_##name, #name }
/* Names for --trace (any other number is printed in hex). */
static const struct { unsigned long request; const char *name; } names[] = {
    IOCTL(VERSION), IOCTL(GET_UNIQUE), IOCTL(GET_MAGIC), IOCTL(GET_CLIENT), IOCTL(GET_STATS),
    IOCTL(SET_VERSION), IOCTL(GEM_CLOSE), IOCTL(GEM_FLINK), IOCTL(GEM_OPEN), IOCTL(GET_CAP),
    IOCTL(SET_CLIENT_CAP), IOCTL(AUTH_MAGIC), IOCTL(SET_MASTER), IOCTL(DROP_MASTER),
    IOCTL(PRIME_HANDLE_TO_FD), IOCTL(PRIME_FD_TO_HANDLE), IOCTL(MODE_CREATE_DUMB), IOCTL(MODE_MAP_DUMB),
    IOCTL(MODE_DESTROY_DUMB),
    IOCTL(RADEON_GEM_INFO), IOCTL(RADEON_GEM_CREATE), IOCTL(RADEON_GEM_MMAP), IOCTL(RADEON_GEM_PREAD),
    IOCTL(RADEON_GEM_PWRITE), IOCTL(RADEON_GEM_SET_DOMAIN), IOCTL(RADEON_GEM_WAIT_IDLE), IOCTL(RADEON_CS),
    IOCTL(RADEON_INFO), IOCTL(RADEON_GEM_SET_TILING), IOCTL(RADEON_GEM_GET_TILING), IOCTL(RADEON_GEM_BUSY),
    IOCTL(RADEON_GEM_VA), IOCTL(RADEON_GEM_OP), IOCTL(RADEON_GEM_USERPTR),
};

static const char *ioctl_name(unsigned long def, char *buf, size_t len)
{
    for (size_t i = 0; def && i < sizeof names / sizeof names[0]; i++)
        if (names[i].request == def)
            return names[i].name;
    snprintf(buf, len, "0x%08lx", def);
    return buf;
}

/* The kernel's limits where it has none we could afford to mirror: it
 * allocates what user space asks for; we refuse more than this. */
#define MAX_CHUNKS      64
#define MAX_CHUNK_BYTES (16u << 20)
#define MAX_STRING      4096

/* ---- ioctls with pointers inside -------------------------------------- */

/* A (length, pointer) pair the kernel fills with drm_copy_field(). */
struct ufield {
    __kernel_size_t *len;
    char **ptr;
    char *user, *kernel;
    size_t cap;
};

static int field_in(struct ufield *f, __kernel_size_t *len, char **ptr)
{
    f->len = len;
    f->ptr = ptr;
    f->user = *ptr;
    f->cap = *len < MAX_STRING ? *len : MAX_STRING;
    f->kernel = f->cap ? calloc(1, f->cap) : NULL;
    if (f->cap && !f->kernel)
        return -ENOMEM;
    *ptr = f->user ? f->kernel : NULL;
    *len = f->user ? f->cap : 0;
    return 0;
}

static int field_out(struct ufield *f, int rc)
{
    size_t n = *f->len < f->cap ? *f->len : f->cap;
    if (rc == 0 && f->user && n && shim_copy_to_user(f->user, f->kernel, n) != 0)
        rc = -EFAULT;
    *f->ptr = f->user;
    free(f->kernel);
    return rc;
}

static int call(struct cedar_dev *dev, unsigned long request, void *k)
{
    return dev->ops->ioctl(dev, request, k);
}

static int ioctl_version(struct cedar_dev *dev, unsigned long request, struct drm_version *v)
{
    struct ufield f[3];
    int rc = 0;
    rc = rc ? rc : field_in(&f[0], &v->name_len, &v->name);
    rc = rc ? rc : field_in(&f[1], &v->date_len, &v->date);
    rc = rc ? rc : field_in(&f[2], &v->desc_len, &v->desc);
    if (rc)
        return rc;   /* only allocation fails here: nothing to undo but memory */
    rc = call(dev, request, v);
    for (int i = 0; i < 3; i++)
        rc = field_out(&f[i], rc);
    return rc;
}

static int ioctl_unique(struct cedar_dev *dev, unsigned long request, struct drm_unique *u)
{
    struct ufield f;
    int rc = field_in(&f, &u->unique_len, &u->unique);
    if (rc)
        return rc;
    return field_out(&f, call(dev, request, u));
}

/* radeon_info_ioctl: the answer is 64 bits wide for these, 32 otherwise. */
static size_t info_value_size(uint32_t request)
{
    switch (request) {
    case RADEON_INFO_TIMESTAMP:
    case RADEON_INFO_NUM_BYTES_MOVED:
    case RADEON_INFO_VRAM_USAGE:
    case RADEON_INFO_GTT_USAGE:
        return 8;
    default:
        return 4;
    }
}

static int ioctl_info(struct cedar_dev *dev, unsigned long request, struct drm_radeon_info *info)
{
    uint64_t user = info->value, value = 0;
    /* Some requests read their argument from *value (WANT_HYPERZ, RING_WORKING). */
    if (shim_copy_from_user(&value, (const void *)(uintptr_t)user, 4) != 0)
        return -EFAULT;
    info->value = (uint64_t)(uintptr_t)&value;
    int rc = call(dev, request, info);
    info->value = user;
    if (rc == 0 && shim_copy_to_user((void *)(uintptr_t)user, &value, info_value_size(info->request)) != 0)
        rc = -EFAULT;
    return rc;
}

/* An accepted CS that faulted while it ran still returns 0, as on the card
 * (the kernel would log a GPU fault or a lockup): say so on stderr, the
 * first time always, every time with --trace. */
static void report_faults(const struct vcedar_stats *before, const struct vcedar_stats *after)
{
    static uint64_t reported;
    if (after->exec_errors == before->exec_errors || (reported && !shim_cfg.trace))
        return;
    char why[300];
    vc_error_format(vcedar_exec_error(shim_gpu()), why, sizeof why);
    shim_log("GPU execution fault (%llu so far; the first: %s)%s", (unsigned long long)after->exec_errors, why,
             shim_cfg.trace ? "" : "; --trace reports every one");
    reported = after->exec_errors;
}

/* radeon_cs_parser_init: the chunk array, each chunk's header, and the
 * data of the chunks the kernel reads, all copied in before anything is
 * looked at. */
static int ioctl_cs(struct cedar_dev *dev, unsigned long request, struct drm_radeon_cs *cs)
{
    uint32_t n = cs->num_chunks;
    if (n > MAX_CHUNKS)
        return -EINVAL;
    uint64_t user_array[MAX_CHUNKS], karray[MAX_CHUNKS];
    struct drm_radeon_cs_chunk chunks[MAX_CHUNKS];
    void *data[MAX_CHUNKS] = { 0 };
    int rc = shim_copy_from_user(user_array, (const void *)(uintptr_t)cs->chunks, n * sizeof(uint64_t));
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        rc = shim_copy_from_user(&chunks[i], (const void *)(uintptr_t)user_array[i], sizeof chunks[i]);
        if (rc)
            break;
        karray[i] = (uint64_t)(uintptr_t)&chunks[i];
        switch (chunks[i].chunk_id) {
        case RADEON_CHUNK_ID_RELOCS:
        case RADEON_CHUNK_ID_IB:
        case RADEON_CHUNK_ID_FLAGS:
        case RADEON_CHUNK_ID_CONST_IB:
            break;
        default:
            chunks[i].chunk_data = 0;   /* never read by the kernel */
            continue;
        }
        uint64_t bytes = (uint64_t)chunks[i].length_dw * 4;
        if (bytes > MAX_CHUNK_BYTES) {
            rc = -EINVAL;
            break;
        }
        if (bytes == 0)
            continue;
        data[i] = malloc(bytes);
        if (!data[i]) {
            rc = -ENOMEM;
            break;
        }
        rc = shim_copy_from_user(data[i], (const void *)(uintptr_t)chunks[i].chunk_data, bytes);
        chunks[i].chunk_data = (uint64_t)(uintptr_t)data[i];
    }
    if (rc == 0) {
        struct drm_radeon_cs k = *cs;
        k.chunks = (uint64_t)(uintptr_t)karray;
        if (shim_cfg.capture_dir[0])
            shim_capture_cs(dev, &k);
        if (shim_cfg.trace) {
            uint32_t ring = RADEON_CS_RING_GFX, ib_dw = 0, reloc_dw = 0;
            for (uint32_t i = 0; i < n; i++) {
                const uint32_t *d = data[i];
                if (chunks[i].chunk_id == RADEON_CHUNK_ID_FLAGS && chunks[i].length_dw > 1)
                    ring = d[1];
                else if (chunks[i].chunk_id == RADEON_CHUNK_ID_IB)
                    ib_dw = chunks[i].length_dw;
                else if (chunks[i].chunk_id == RADEON_CHUNK_ID_RELOCS)
                    reloc_dw = chunks[i].length_dw;
            }
            static const char *const rings[] = { "gfx", "compute", "dma", "uvd", "vce" };
            shim_log("CS on the %s ring: %u dwords, %u relocations",
                     ring < sizeof rings / sizeof rings[0] ? rings[ring] : "unknown", ib_dw, reloc_dw / 4);
        }
        struct vcedar_stats before, after;
        vcedar_stats(shim_gpu(), &before);
        rc = call(dev, request, &k);
        cs->cs_id = k.cs_id;
        vcedar_stats(shim_gpu(), &after);
        report_faults(&before, &after);
    }
    for (uint32_t i = 0; i < n; i++)
        free(data[i]);
    return rc;
}

/* ---- the entry point ---------------------------------------------------- */

int shim_drm_ioctl(struct shim_file *f, unsigned long request, void *uarg)
{
    uint32_t cmd = (uint32_t)request;   /* the syscall takes an unsigned int */
    unsigned long def = vcedar_ioctl_definition(cmd);
    size_t usize = _IOC_SIZE(cmd);
    size_t in = def && (cmd & def & IOC_IN) ? usize : 0;
    size_t out = def && (cmd & def & IOC_OUT) ? usize : 0;
    size_t size = in > out ? in : out;
    if (def && _IOC_SIZE(def) > size)
        size = _IOC_SIZE(def);
    unsigned char stackbuf[256] = { 0 };
    unsigned char *k = size <= sizeof stackbuf ? stackbuf : calloc(1, size);
    if (!k)
        return -ENOMEM;
    int rc = shim_copy_from_user(k, uarg, in);
    if (rc == 0) {
        shim_lock();
        struct cedar_dev *dev = shim_file_dev(f);
        /* The ioctls with user pointers inside: their handlers put our
         * pointers into k, which already holds the argument zero-extended to
         * the kernel's struct, so the model is given the kernel's size
         * (def): with a caller's shorter one it would cut them short. */
        switch (def) {
        case DRM_IOCTL_VERSION: rc = ioctl_version(dev, def, (void *)k); break;
        case DRM_IOCTL_GET_UNIQUE: rc = ioctl_unique(dev, def, (void *)k); break;
        case DRM_IOCTL_RADEON_INFO: rc = ioctl_info(dev, def, (void *)k); break;
        case DRM_IOCTL_RADEON_CS: rc = ioctl_cs(dev, def, (void *)k); break;
        default: rc = call(dev, cmd, k); break;
        }
        if (shim_cfg.trace) {
            char why[300] = "", hex[16];
            if (rc && def == DRM_IOCTL_RADEON_CS)   /* the checker's structured reason */
                dev->ops->last_error(dev, why, sizeof why);
            shim_log("ioctl %s -> %d%s%s", ioctl_name(def ? def : cmd, hex, sizeof hex), rc, why[0] ? ": " : "",
                     why);
        }
        shim_unlock();
        if (shim_copy_to_user(uarg, k, out) != 0)
            rc = -EFAULT;
    }
    if (k != stackbuf)
        free(k);
    return rc;
}

SHIM_EXPORT int ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    struct shim_file *f = shim_fd_file(fd);
    /* Requests of another type than DRM's ('d') never reach drm_ioctl: the
     * VFS answers FIOCLEX, FIONBIO, ... itself, and TCGETS & co. get -ENOTTY
     * from a device as from the stand-in file under the fd. */
    if (!f || _IOC_TYPE(request) != DRM_IOCTL_BASE)
        return REAL(ioctl, "ioctl")(fd, request, arg);
    int rc = shim_drm_ioctl(f, request, arg);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return rc;
}
