/* The libc entry points that take a path or a DRM fd: a path the card owns
 * goes into the fake tree (shim_paths.c), an open() of card0 or renderD128
 * becomes a DRM file, and stat()/fstat() of the nodes answer as character
 * devices 226:minor.  Everything else is the real call, unchanged.  Both
 * the plain and the *64 names are here: on x86-64 they are the same calls
 * and structs, and libraries link either (libdrm: open64/stat64). */
#include <dlfcn.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cedar/run.h"
#include "shim.h"

struct shim_real shim_real;

void *shim_real_lookup(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* ---- open --------------------------------------------------------------- */

/* Open `mapped` for real; a DRM node also becomes a DRM file of the virtual GPU. */
static int open_mapped(int dirfd, const char *mapped, int flags, mode_t mode)
{
    int minor = shim_node_minor(mapped);
    if (minor < 0)
        return REAL(openat, "openat")(dirfd, mapped, flags, mode);
    /* The node is an empty regular file standing in for the device; the fd
     * number and its open file description are real (dup, fork, kcmp). */
    int fd = REAL(openat, "openat")(dirfd, mapped, flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_APPEND), 0);
    if (fd < 0)
        return fd;
    struct shim_file *f = shim_file_open(minor);
    int err = f ? 0 : errno;
    if (f && shim_fd_bind(fd, f) != 0)
        err = EMFILE;
    if (f)
        shim_file_unref(f);   /* the fd holds it now */
    if (err) {
        REAL(close, "close")(fd);
        errno = err;
        return -1;
    }
    return fd;
}

static int open_path(int dirfd, const char *path, int flags, mode_t mode)
{
    char buf[PATH_MAX];
    const char *mapped = path && path[0] == '/' ? shim_map_path(path, buf, sizeof buf) : path;
    return open_mapped(dirfd, mapped, flags, mode);
}

/* The mode argument exists only with O_CREAT / O_TMPFILE. */
#define MODE_ARG(flags, last)                                  \
    mode_t mode = 0;                                          \
    if ((flags) & (O_CREAT | __O_TMPFILE)) {                   \
        va_list ap;                                           \
        va_start(ap, last);                                   \
        mode = (mode_t)va_arg(ap, unsigned);                  \
        va_end(ap);                                           \
    }

SHIM_EXPORT int open(const char *path, int flags, ...)
{
    MODE_ARG(flags, flags);
    return open_path(AT_FDCWD, path, flags, mode);
}

SHIM_EXPORT int open64(const char *path, int flags, ...)
{
    MODE_ARG(flags, flags);
    return open_path(AT_FDCWD, path, flags, mode);
}

SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
    MODE_ARG(flags, flags);
    return open_path(dirfd, path, flags, mode);
}

SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
    MODE_ARG(flags, flags);
    return open_path(dirfd, path, flags, mode);
}

/* _FORTIFY_SOURCE's checked forms (no mode: O_CREAT is refused there). */
SHIM_EXPORT int __open_2(const char *path, int flags)
{
    return open_path(AT_FDCWD, path, flags, 0);
}

SHIM_EXPORT int __open64_2(const char *path, int flags)
{
    return open_path(AT_FDCWD, path, flags, 0);
}

SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
    return open_path(dirfd, path, flags, 0);
}

SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
    return open_path(dirfd, path, flags, 0);
}

/* fopen opens inside libc (no interposable open): map the path here. */
SHIM_EXPORT FILE *fopen(const char *path, const char *how)
{
    char buf[PATH_MAX];
    return REAL(fopen, "fopen")(shim_map_path(path, buf, sizeof buf), how);
}

SHIM_EXPORT FILE *fopen64(const char *path, const char *how)
{
    char buf[PATH_MAX];
    return REAL(fopen64, "fopen64")(shim_map_path(path, buf, sizeof buf), how);
}

/* ---- stat --------------------------------------------------------------- */

_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "x86-64: stat64 is stat");
_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "x86-64: dirent64 is dirent");

static int stat_result(int r, const char *mapped, struct stat *st)
{
    int minor = r == 0 ? shim_node_minor(mapped) : -1;
    if (minor >= 0)
        shim_fake_chardev(st, minor);
    return r;
}

static int fstat_result(int r, int fd, struct stat *st)
{
    struct shim_file *f = r == 0 ? shim_fd_file(fd) : NULL;
    if (f)
        shim_fake_chardev(st, shim_file_minor(f));
    return r;
}

SHIM_EXPORT int stat(const char *path, struct stat *st)
{
    char buf[PATH_MAX];
    const char *m = shim_map_path(path, buf, sizeof buf);
    return stat_result(REAL(stat, "stat")(m, st), m, st);
}

SHIM_EXPORT int stat64(const char *path, struct stat64 *st)
{
    return stat(path, (struct stat *)st);
}

SHIM_EXPORT int lstat(const char *path, struct stat *st)
{
    char buf[PATH_MAX];
    const char *m = shim_map_path(path, buf, sizeof buf);
    return stat_result(REAL(lstat, "lstat")(m, st), m, st);
}

SHIM_EXPORT int lstat64(const char *path, struct stat64 *st)
{
    return lstat(path, (struct stat *)st);
}

SHIM_EXPORT int fstat(int fd, struct stat *st)
{
    return fstat_result(REAL(fstat, "fstat")(fd, st), fd, st);
}

SHIM_EXPORT int fstat64(int fd, struct stat64 *st)
{
    return fstat(fd, (struct stat *)st);
}

SHIM_EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    if (path[0] == '\0' && (flags & AT_EMPTY_PATH))
        return fstat_result(REAL(fstatat, "fstatat")(dirfd, path, st, flags), dirfd, st);
    char buf[PATH_MAX];
    const char *m = shim_map_path(path, buf, sizeof buf);
    return stat_result(REAL(fstatat, "fstatat")(dirfd, m, st, flags), m, st);
}

SHIM_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
    return fstatat(dirfd, path, (struct stat *)st, flags);
}

static void statx_chardev(struct statx *sx, int minor)
{
    sx->stx_mode = (uint16_t)((sx->stx_mode & ~(unsigned)S_IFMT & ~0777u) | S_IFCHR | 0666u);
    sx->stx_rdev_major = CEDAR_RUN_DRM_MAJOR;
    sx->stx_rdev_minor = (uint32_t)minor;
    sx->stx_size = 0;
}

SHIM_EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
    char buf[PATH_MAX];
    int minor = -1;
    const char *m = path;
    if (path[0] == '\0' && (flags & AT_EMPTY_PATH)) {
        struct shim_file *f = shim_fd_file(dirfd);
        minor = f ? shim_file_minor(f) : -1;
    } else {
        m = shim_map_path(path, buf, sizeof buf);
        minor = shim_node_minor(m);
    }
    int r = REAL(statx, "statx")(dirfd, m, flags, mask, sx);
    if (r == 0 && minor >= 0)
        statx_chardev(sx, minor);
    return r;
}

/* ---- the rest of the path calls ---------------------------------------- */

SHIM_EXPORT int access(const char *path, int how)
{
    char buf[PATH_MAX];
    return REAL(access, "access")(shim_map_path(path, buf, sizeof buf), how);
}

SHIM_EXPORT int faccessat(int dirfd, const char *path, int how, int flags)
{
    char buf[PATH_MAX];
    return REAL(faccessat, "faccessat")(dirfd, shim_map_path(path, buf, sizeof buf), how, flags);
}

SHIM_EXPORT DIR *opendir(const char *path)
{
    char buf[PATH_MAX];
    return REAL(opendir, "opendir")(shim_map_path(path, buf, sizeof buf));
}

typedef int (*scandir_filter)(const struct dirent *);
typedef int (*scandir_compar)(const struct dirent **, const struct dirent **);

SHIM_EXPORT int scandir(const char *path, struct dirent ***list, scandir_filter filter, scandir_compar compar)
{
    char buf[PATH_MAX];
    return REAL(scandir, "scandir")(shim_map_path(path, buf, sizeof buf), list, filter, compar);
}

/* struct dirent64 is struct dirent on x86-64; glibc's scandir64 is scandir. */
SHIM_EXPORT int scandir64(const char *path, struct dirent64 ***list, int (*filter)(const struct dirent64 *),
                          int (*compar)(const struct dirent64 **, const struct dirent64 **))
{
    return scandir(path, (struct dirent ***)list, (scandir_filter)filter, (scandir_compar)compar);
}

SHIM_EXPORT ssize_t readlink(const char *path, char *out, size_t len)
{
    char buf[PATH_MAX];
    return REAL(readlink, "readlink")(shim_map_path(path, buf, sizeof buf), out, len);
}

SHIM_EXPORT ssize_t readlinkat(int dirfd, const char *path, char *out, size_t len)
{
    char buf[PATH_MAX];
    return REAL(readlinkat, "readlinkat")(dirfd, shim_map_path(path, buf, sizeof buf), out, len);
}

/* A path resolved inside the tree is given back as the path the program
 * would see on a machine with the card ("/sys/devices/pci0000:00/..."),
 * which shim_map_path sends back into the tree. */
SHIM_EXPORT char *realpath(const char *path, char *resolved)
{
    char buf[PATH_MAX];
    char *r = REAL(realpath, "realpath")(shim_map_path(path, buf, sizeof buf), resolved);
    shim_unmap_result(r);
    return r;
}

SHIM_EXPORT char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
    if (resolved && resolvedlen < PATH_MAX) {
        errno = EINVAL;   /* glibc would abort (buffer overflow detected) */
        return NULL;
    }
    return realpath(path, resolved);
}
