/* The process's one virtual GPU and its DRM files.  The GPU is created at
 * the first open() of a node and lives as long as the process (a real GPU
 * outlives its clients); each open() is a DRM file of its own with its own
 * GEM handles (vcedar_open_file).  A fork()ed child gets a copy of all of
 * it with the rest of the address space: its own GPU, in the state the
 * parent's had. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cedar/run.h"
#include "cedar/vcedar.h"
#include "shim.h"

struct shim_file {
    struct cedar_dev *dev;   /* the DRM file in the virtual kernel */
    int minor;
    unsigned refs;           /* fds that refer to it */
};

static pthread_mutex_t gpu_lock;
static struct vcedar *gpu;
static struct cedar_dev *model_file;   /* mappings outlive the file they came from */

void shim_lock(void)
{
    pthread_mutex_lock(&gpu_lock);
}

void shim_unlock(void)
{
    pthread_mutex_unlock(&gpu_lock);
}

/* A fork while another thread holds the lock would leave the child's copy
 * locked forever: take it across fork. */
static void before_fork(void)
{
    shim_lock();
}

static void parent_after_fork(void)
{
    shim_unlock();
}

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);   /* ioctl -> model -> munmap -> ... */
    pthread_mutex_init(&gpu_lock, &a);
    pthread_mutexattr_destroy(&a);
}

/* The child's only thread is not the one that took the lock before the
 * fork (a recursive mutex answers EPERM to it): it starts a fresh one. */
static void child_after_fork(void)
{
    lock_init();
}

__attribute__((constructor)) static void shim_init(void)
{
    lock_init();
    pthread_atfork(before_fork, parent_after_fork, child_after_fork);
    shim_config_load();
}

void shim_log(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cedar-run: %s\n", line);
}

static int gpu_create(void)
{
    if (gpu)
        return 0;
    struct vcedar_opts o = {
        .mode = shim_cfg.strict ? VC_CHECK_STRICT : VC_CHECK_KERNEL,
        .no_exec = shim_cfg.no_exec,
        .poison_state = shim_cfg.poison_state,
        .sys_admin = geteuid() == 0,   /* CAP_SYS_ADMIN, as near as a preload can tell */
    };
    gpu = vcedar_create(&o);
    if (!gpu)
        return -ENOMEM;
    /* a render-node file of our own: never the master, never a client's */
    int r = vcedar_open_file(gpu, true, &model_file);
    if (r) {
        vcedar_destroy(gpu);
        gpu = NULL;
        return r;
    }
    return 0;
}

struct shim_file *shim_file_open(int minor)
{
    shim_lock();
    struct shim_file *f = NULL;
    int r = gpu_create();
    if (r == 0) {
        f = calloc(1, sizeof *f);
        r = f ? vcedar_open_file(gpu, minor == CEDAR_RUN_MINOR_RENDER, &f->dev) : -ENOMEM;
    }
    if (r) {
        free(f);
        f = NULL;
        errno = -r;
    } else {
        f->minor = minor;
        f->refs = 1;
        if (shim_cfg.trace)
            shim_log("open %s: DRM file %p", minor == CEDAR_RUN_MINOR_RENDER ? "renderD128" : "card0",
                     (void *)f);
    }
    shim_unlock();
    return f;
}

void shim_file_ref(struct shim_file *f)
{
    shim_lock();
    f->refs++;
    shim_unlock();
}

void shim_file_unref(struct shim_file *f)
{
    shim_lock();
    if (--f->refs == 0) {
        if (shim_cfg.trace)
            shim_log("close DRM file %p", (void *)f);
        cedar_dev_destroy(f->dev);   /* the kernel's drm_release: handles go */
        free(f);
    }
    shim_unlock();
}

int shim_file_minor(const struct shim_file *f)
{
    return f->minor;
}

struct cedar_dev *shim_file_dev(struct shim_file *f)
{
    return f->dev;
}

struct cedar_dev *shim_model_dev(void)
{
    return model_file;
}

struct vcedar *shim_gpu(void)
{
    return gpu;
}
