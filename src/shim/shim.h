/* libcedar-shim.so: the virtual Cedar behind a DRM device node, inside an
 * unmodified program (LD_PRELOAD, set up by tools/cedar-run.c).
 *
 * What a program sees, and which file makes it so:
 *   shim_paths.c   the device's paths (/dev/dri, the sysfs PCI and DRM
 *                  entries) redirected into the tree cedar-run built
 *                  (fake_sysfs.c); every other path passes through
 *   shim_fs.c      the libc entry points that take a path (open, stat,
 *                  opendir, readlink, realpath, ...), and fstat on a DRM fd
 *   shim_fd.c      which file descriptors are DRM files (dup/close/fcntl)
 *   shim_drm.c     the process's one virtual GPU and its DRM files
 *   shim_ioctl.c   ioctl on a DRM fd: the kernel's copy in / copy out
 *                  around the virtual radeon kernel (src/vcedar)
 *   shim_uaccess.c copy_from_user / copy_to_user: a bad pointer is -EFAULT
 *   shim_mmap.c    mmap of a GEM_MMAP offset: the buffer's own memory
 *   shim_capture.c --capture: each CS as a .bof cedar-sim replays
 *
 * The environment cedar-run sets (CEDAR_RUN_*) is the whole interface
 * between the two.  This folder is not part of libcedar.a: it defines
 * libc's names and belongs only in the preloaded library.
 */
#ifndef CEDAR_SHIM_H
#define CEDAR_SHIM_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cedar/device.h"

#define SHIM_EXPORT __attribute__((visibility("default")))

/* ---- the environment cedar-run hands over (fake_sysfs.h names it) ---- */

struct shim_config {
    bool active;               /* CEDAR_RUN_ROOT set and usable */
    char root[512];            /* the fake tree: ROOT/dev/dri, ROOT/sys/... */
    size_t rootlen;
    bool strict;               /* CEDAR_RUN_CHECK=strict */
    bool no_exec;              /* CEDAR_RUN_NO_EXEC=1 */
    bool poison_state;         /* CEDAR_RUN_POISON=1 */
    bool trace;                /* CEDAR_RUN_TRACE=1: each ioctl on stderr */
    char capture_dir[512];     /* CEDAR_RUN_CAPTURE, "" when off */
};
extern struct shim_config shim_cfg;
void shim_config_load(void);

/* ---- the real libc functions (dlsym RTLD_NEXT, resolved on first use) - */

struct shim_real {
    int (*open)(const char *, int, ...);
    int (*open64)(const char *, int, ...);
    int (*openat)(int, const char *, int, ...);
    int (*openat64)(int, const char *, int, ...);
    int (*open_2)(const char *, int);
    int (*open64_2)(const char *, int);
    int (*openat_2)(int, const char *, int);
    int (*openat64_2)(int, const char *, int);
    FILE *(*fopen)(const char *, const char *);
    FILE *(*fopen64)(const char *, const char *);
    int (*stat)(const char *, struct stat *);
    int (*lstat)(const char *, struct stat *);
    int (*fstat)(int, struct stat *);
    int (*fstatat)(int, const char *, struct stat *, int);
    int (*statx)(int, const char *, int, unsigned, void *);
    int (*access)(const char *, int);
    int (*faccessat)(int, const char *, int, int);
    DIR *(*opendir)(const char *);
    int (*scandir)(const char *, struct dirent ***, int (*)(const struct dirent *),
                   int (*)(const struct dirent **, const struct dirent **));
    ssize_t (*readlink)(const char *, char *, size_t);
    ssize_t (*readlinkat)(int, const char *, char *, size_t);
    char *(*realpath)(const char *, char *);
    int (*ioctl)(int, unsigned long, ...);
    void *(*mmap)(void *, size_t, int, int, int, off_t);
    int (*munmap)(void *, size_t);
    int (*close)(int);
    int (*dup)(int);
    int (*dup2)(int, int);
    int (*dup3)(int, int, int);
    int (*fcntl)(int, int, ...);
    int (*close_range)(unsigned, unsigned, int);
};
extern struct shim_real shim_real;
/* The real function `name`, looked up on first use (before the shim's
 * constructor has run, libc's own start-up may already call in). */
void *shim_real_lookup(const char *name);
static inline void *shim_real_slot(void **slot, const char *name)
{
    if (!*slot)
        *slot = shim_real_lookup(name);
    return *slot;
}
#define REAL(fn, name) ((__typeof__(shim_real.fn))shim_real_slot((void **)&shim_real.fn, name))

/* ---- paths --------------------------------------------------------------- */

/* The path to use for `path`: inside the fake tree when it names the
 * device's /dev or /sys entries, else `path` itself.  buf holds the result. */
const char *shim_map_path(const char *path, char *buf, size_t len);
/* The DRM minor (0: card0, 128: renderD128) a real path names, or -1. */
int shim_node_minor(const char *mapped);
/* realpath()'s answer with the fake tree's prefix removed, in place. */
void shim_unmap_result(char *resolved);

/* Fake a character device 226:minor in a stat result. */
void shim_fake_chardev(struct stat *st, int minor);

/* ---- DRM files ---------------------------------------------------------- */

struct shim_file;   /* one open() of a node: refcounted across dup()s */

/* The DRM file behind fd, or NULL: lock-free, any thread. */
struct shim_file *shim_fd_file(int fd);
int shim_file_minor(const struct shim_file *f);
/* fd now refers to f (a new reference); fd must be below SHIM_MAX_FD. */
int shim_fd_bind(int fd, struct shim_file *f);
/* fd no longer refers to a DRM file (drops its reference). */
void shim_fd_unbind(int fd);
#define SHIM_MAX_FD 65536

/* Open a new DRM file on the process's virtual GPU; NULL with errno set. */
struct shim_file *shim_file_open(int minor);
void shim_file_ref(struct shim_file *f);
void shim_file_unref(struct shim_file *f);
struct cedar_dev *shim_file_dev(struct shim_file *f);
/* The model's own DRM file, for what outlives the file a mapping was made
 * through (munmap), or NULL before any node was opened. */
struct cedar_dev *shim_model_dev(void);
/* The virtual GPU (NULL before any node was opened). */
struct vcedar *shim_gpu(void);

/* The one lock around the virtual GPU (recursive; fork-safe). */
void shim_lock(void);
void shim_unlock(void);

/* ---- ioctl, mmap, capture ---------------------------------------------- */

/* The kernel's drm_ioctl for a DRM file: 0 or a negative errno. */
int shim_drm_ioctl(struct shim_file *f, unsigned long request, void *uarg);
void *shim_drm_mmap(struct shim_file *f, void *addr, size_t len, off_t offset);
/* 1 when ptr was a DRM mapping (now released), 0 when it is not one. */
int shim_drm_munmap(void *ptr, size_t len);

/* copy_from_user / copy_to_user: 0 or -EFAULT, never a fault. */
int shim_copy_from_user(void *dst, const void *usrc, size_t len);
int shim_copy_to_user(void *udst, const void *src, size_t len);

struct drm_radeon_cs;
/* Write the CS (kernel copies of its chunks) as the next DIR/cs_NNN.bof. */
void shim_capture_cs(struct cedar_dev *dev, const struct drm_radeon_cs *cs);

/* One line on stderr prefixed "cedar-run: " (the trace, capture errors). */
void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
