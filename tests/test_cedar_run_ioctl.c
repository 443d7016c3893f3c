/* cedar-run's DRM node as a program sees it: this test re-runs itself under
 * build/san/bin/cedar-run and talks to /dev/dri/renderD128 with plain
 * open/ioctl/mmap, as libdrm does.  It checks what the kernel promises:
 * the node is a radeon character device; a malformed CS gets -EINVAL and
 * the next good one runs; a bad pointer anywhere in an ioctl is -EFAULT,
 * never a crash; GEM handles belong to their DRM file; dup/close keep the
 * file alive; threads share the GPU; a forked child has a copy of it; and
 * 1,000 random ioctls neither crash the process nor touch a buffer of
 * another DRM file. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/cmdbuf.h"
#include "cedar/run.h"
#include "common/test_util.h"
#include "eg_regs.h"

#define NODE "/dev/dri/renderD128"

static int open_node(void)
{
    int fd = open(NODE, O_RDWR | O_CLOEXEC);
    assert_true(fd >= 0);
    return fd;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
    return ioctl(fd, req, arg) == 0 ? 0 : -errno;
}

static uint32_t bo_new(int fd, uint64_t size, uint32_t domain)
{
    struct drm_radeon_gem_create c = { .size = size, .alignment = 4096, .initial_domain = domain };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_GEM_CREATE, &c), 0);
    return c.handle;
}

static uint32_t *bo_map(int fd, uint32_t handle, uint64_t size)
{
    struct drm_radeon_gem_mmap m = { .handle = handle, .size = size };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_GEM_MMAP, &m), 0);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.addr_ptr);
    assert_true(p != MAP_FAILED);
    return p;
}

static int submit(int fd, const struct cedar_cmdbuf *cb)
{
    uint32_t flags[3] = { RADEON_CS_KEEP_TILING_FLAGS, RADEON_CS_RING_GFX, 0 };
    struct drm_radeon_cs_chunk chunks[3] = {
        { RADEON_CHUNK_ID_IB, (uint32_t)cb->ndw, (uint64_t)(uintptr_t)cb->dw },
        { RADEON_CHUNK_ID_RELOCS, cb->nrelocs * 4, (uint64_t)(uintptr_t)cb->relocs },
        { RADEON_CHUNK_ID_FLAGS, 3, (uint64_t)(uintptr_t)flags },
    };
    uint64_t ptrs[3] = { (uintptr_t)&chunks[0], (uintptr_t)&chunks[1], (uintptr_t)&chunks[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uint64_t)(uintptr_t)ptrs };
    return xioctl(fd, DRM_IOCTL_RADEON_CS, &cs);
}

/* MEM_WRITE of `value` into the first dword of `handle`. */
static void mem_write(struct cedar_cmdbuf *cb, uint32_t handle, uint32_t value)
{
    uint32_t mw[4] = { 0, 0, value, 0 };
    cedar_cmdbuf_reset(cb);
    cedar_cmdbuf_packet(cb, PKT3_MEM_WRITE, mw, 4);
    cedar_cmdbuf_reloc(cb, handle, 0, RADEON_GEM_DOMAIN_GTT, 0);
}

static void node_is_radeon(void **state)
{
    (void)state;
    int fd = open_node();
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(major(st.st_rdev), CEDAR_RUN_DRM_MAJOR);
    assert_int_equal(minor(st.st_rdev), CEDAR_RUN_MINOR_RENDER);
    char name[16] = "";
    struct drm_version v = { .name_len = sizeof name - 1, .name = name };
    assert_int_equal(xioctl(fd, DRM_IOCTL_VERSION, &v), 0);
    assert_string_equal(name, "radeon");
    assert_int_equal(v.version_major, 2);
    uint32_t id = 0;
    struct drm_radeon_info info = { .request = RADEON_INFO_DEVICE_ID, .value = (uintptr_t)&id };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_INFO, &info), 0);
    assert_int_equal(id, 0x68F9);
    /* what the VFS answers for any file: close-on-exec, no terminal */
    assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    assert_int_equal(xioctl(fd, FIONCLEX, NULL), 0);
    assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    struct termios t;
    assert_int_equal(xioctl(fd, TCGETS, &t), -ENOTTY);
    close(fd);
}

/* A CS the checker refuses is -EINVAL; the program goes on, and the next
 * good CS executes (the GPU wrote what the CPU then reads). */
static void malformed_cs_then_good(void **state)
{
    (void)state;
    int fd = open_node();
    uint32_t bo = bo_new(fd, 4096, RADEON_GEM_DOMAIN_GTT);
    uint32_t *cpu = bo_map(fd, bo, 4096);
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    mem_write(&cb, bo, 0xC0FFEE01u);
    cb.ndw -= 2;                                         /* the relocation NOP dropped */
    assert_int_equal(submit(fd, &cb), -EINVAL);
    assert_int_equal(cpu[0], 0);
    mem_write(&cb, bo, 0xC0FFEE02u);
    cb.dw[0] = (cb.dw[0] & ~0x3FFF0000u) | (60u << 16);  /* COUNT past the IB's end */
    assert_int_equal(submit(fd, &cb), -EINVAL);
    mem_write(&cb, bo, 0xC0FFEE03u);
    cb.relocs[0].handle = 999;                           /* no such buffer */
    assert_int_equal(submit(fd, &cb), -ENOENT);
    mem_write(&cb, bo, 0xC0FFEE04u);
    assert_int_equal(submit(fd, &cb), 0);
    struct drm_radeon_gem_wait_idle w = { .handle = bo };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w), 0);
    assert_int_equal(cpu[0], 0xC0FFEE04u);
    cedar_cmdbuf_fini(&cb);
    munmap(cpu, 4096);
    close(fd);
}

/* Pointers the program hands in that point nowhere: -EFAULT, no crash. */
static void bad_pointers_efault(void **state)
{
    (void)state;
    int fd = open_node();
    void *nowhere = (void *)(uintptr_t)16;
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_INFO, nowhere), -EFAULT);
    struct drm_radeon_info info = { .request = RADEON_INFO_DEVICE_ID, .value = 16 };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_INFO, &info), -EFAULT);
    char small[4];
    struct drm_version v = { .name_len = 4, .name = nowhere, .date_len = 4, .date = small };
    assert_int_equal(xioctl(fd, DRM_IOCTL_VERSION, &v), -EFAULT);
    struct drm_radeon_cs cs = { .num_chunks = 2, .chunks = 16 };
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_CS, &cs), -EFAULT);
    uint64_t ptr = 16;
    cs.chunks = (uintptr_t)&ptr;
    cs.num_chunks = 1;
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_CS, &cs), -EFAULT);
    struct drm_radeon_cs_chunk ch = { RADEON_CHUNK_ID_IB, 64, 16 };
    ptr = (uintptr_t)&ch;
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_CS, &cs), -EFAULT);
    /* the node still answers */
    uint32_t id = 0;
    info.value = (uintptr_t)&id;
    assert_int_equal(xioctl(fd, DRM_IOCTL_RADEON_INFO, &info), 0);
    assert_int_equal(id, 0x68F9);
    close(fd);
}

/* Handles are per DRM file; a dup'ed fd is the same file; the file lives
 * until its last fd is closed. */
static void files_and_dups(void **state)
{
    (void)state;
    int a = open_node(), b = open_node();
    uint32_t ha = bo_new(a, 4096, RADEON_GEM_DOMAIN_VRAM);
    uint32_t hb = bo_new(b, 8192, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(ha, 1);
    assert_int_equal(hb, 1);                 /* each file counts from 1 */
    struct drm_radeon_gem_mmap m = { .handle = 2, .size = 4096 };
    assert_int_equal(xioctl(a, DRM_IOCTL_RADEON_GEM_MMAP, &m), -ENOENT);
    int a2 = fcntl(a, F_DUPFD_CLOEXEC, 100);
    assert_true(a2 >= 100);
    close(a);
    m.handle = ha;
    assert_int_equal(xioctl(a2, DRM_IOCTL_RADEON_GEM_MMAP, &m), 0);   /* the file survived */
    close(a2);
    assert_int_equal(xioctl(a2, DRM_IOCTL_RADEON_GEM_MMAP, &m), -EBADF);
    close(b);
}

/* 1,000 random ioctls on one DRM file: random numbers (DRM and radeon
 * ranges, any direction and size), arguments of random bytes with some
 * fields pointing nowhere, into the argument itself or at real memory.
 * Afterwards the process is alive, a buffer of another DRM file (which the
 * fuzzed file cannot name) holds exactly what was written to it, and the
 * fuzzed file still works. */
static const unsigned long known[] = {
    DRM_IOCTL_VERSION, DRM_IOCTL_GET_UNIQUE, DRM_IOCTL_GET_CAP, DRM_IOCTL_SET_CLIENT_CAP,
    DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GEM_FLINK, DRM_IOCTL_GEM_OPEN, DRM_IOCTL_PRIME_HANDLE_TO_FD,
    DRM_IOCTL_PRIME_FD_TO_HANDLE, DRM_IOCTL_RADEON_INFO, DRM_IOCTL_RADEON_GEM_INFO,
    DRM_IOCTL_RADEON_GEM_CREATE, DRM_IOCTL_RADEON_GEM_MMAP, DRM_IOCTL_RADEON_GEM_SET_DOMAIN,
    DRM_IOCTL_RADEON_GEM_WAIT_IDLE, DRM_IOCTL_RADEON_CS, DRM_IOCTL_RADEON_GEM_SET_TILING,
    DRM_IOCTL_RADEON_GEM_GET_TILING, DRM_IOCTL_RADEON_GEM_BUSY, DRM_IOCTL_RADEON_GEM_OP,
    DRM_IOCTL_RADEON_GEM_USERPTR, DRM_IOCTL_RADEON_GEM_VA,
};

static void random_ioctls(void **state)
{
    (void)state;
    int victim = open_node(), fuzzed = open_node();
    uint32_t vh = bo_new(victim, 65536, RADEON_GEM_DOMAIN_VRAM);
    uint32_t *vmap = bo_map(victim, vh, 65536);
    for (unsigned i = 0; i < 65536 / 4; i++)
        vmap[i] = 0x5EED0000u ^ i;
    for (int i = 0; i < 4; i++)   /* give the fuzzed file some buffers to hit */
        bo_new(fuzzed, 4096u << i, i & 1 ? RADEON_GEM_DOMAIN_GTT : RADEON_GEM_DOMAIN_VRAM);

    test_rand_seed(0xCEDA5u);
    static uint8_t arg[16384 + 64], scratch[4096];
    unsigned answered = 0, efault = 0, ok = 0;
    for (int n = 0; n < 1000; n++) {
        unsigned nr = test_rand() & 1 ? DRM_COMMAND_BASE + test_rand() % 0x30 : test_rand() % 0x40;
        unsigned dir = test_rand() % 4, size = test_rand() % 4 ? test_rand() % 128 : test_rand() % 16384;
        if (test_rand() % 2) {   /* half of them a real request, as declared */
            unsigned long k = known[test_rand() % (sizeof known / sizeof known[0])];
            nr = _IOC_NR(k);
            dir = _IOC_DIR(k);
            size = _IOC_SIZE(k);
        }
        for (size_t k = 0; k < sizeof arg; k++)
            arg[k] = (uint8_t)test_rand();
        for (size_t k = 0; k + 8 <= size; k += 8) {   /* plant pointers */
            uint64_t p;
            switch (test_rand() % 6) {
            case 0: p = 0; break;
            case 1: p = test_rand() % 65536; break;               /* never mapped */
            case 2: p = (uintptr_t)scratch + test_rand() % 4096; break;
            case 3: p = (uintptr_t)arg + test_rand() % size; break;
            default: continue;
            }
            memcpy(arg + k, &p, 8);
        }
        unsigned long req = _IOC(dir, DRM_IOCTL_BASE, nr, size);
        int r = xioctl(fuzzed, req, arg);
        answered++;
        efault += r == -EFAULT;
        ok += r == 0;
    }
    assert_int_equal(answered, 1000);
    assert_true(efault > 0);   /* the planted bad pointers were reached */
    for (unsigned i = 0; i < 65536 / 4; i++)
        if (vmap[i] != (0x5EED0000u ^ i))
            fail_msg("the other file's buffer changed at dword %u", i);
    /* the fuzzed file still works */
    uint32_t h = bo_new(fuzzed, 4096, RADEON_GEM_DOMAIN_GTT);
    uint32_t *cpu = bo_map(fuzzed, h, 4096);
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    mem_write(&cb, h, 0xFEEDu);
    assert_int_equal(submit(fuzzed, &cb), 0);
    assert_int_equal(cpu[0], 0xFEEDu);
    cedar_cmdbuf_fini(&cb);
    printf("random ioctls: %u answered, %u succeeded, %u -EFAULT; the other file's 64 KiB buffer unchanged\n",
           answered, ok, efault);
    munmap(cpu, 4096);
    munmap(vmap, 65536);
    close(fuzzed);
    close(victim);
}

/* Threads share the process's GPU: four submit at once on one fd, each
 * into buffers of its own, 50 times, and every write lands. */
struct thread_job {
    int fd;
    unsigned id, bad;
};

static void *thread_main(void *arg)
{
    struct thread_job *j = arg;
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    for (unsigned n = 0; n < 50; n++) {
        struct drm_radeon_gem_create c = { .size = 4096, .alignment = 4096, .initial_domain = RADEON_GEM_DOMAIN_GTT };
        if (ioctl(j->fd, DRM_IOCTL_RADEON_GEM_CREATE, &c) != 0) {
            j->bad++;
            continue;
        }
        struct drm_radeon_gem_mmap m = { .handle = c.handle, .size = 4096 };
        uint32_t *p = ioctl(j->fd, DRM_IOCTL_RADEON_GEM_MMAP, &m) == 0
                          ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, j->fd, (off_t)m.addr_ptr)
                          : MAP_FAILED;
        uint32_t want = j->id << 16 | n;
        mem_write(&cb, c.handle, want);
        if (p == MAP_FAILED || submit(j->fd, &cb) != 0 || p[0] != want)
            j->bad++;
        if (p != MAP_FAILED)
            munmap(p, 4096);
        struct drm_gem_close cl = { .handle = c.handle };
        ioctl(j->fd, DRM_IOCTL_GEM_CLOSE, &cl);
    }
    cedar_cmdbuf_fini(&cb);
    return NULL;
}

static void threads_share_the_gpu(void **state)
{
    (void)state;
    int fd = open_node();
    pthread_t t[4];
    struct thread_job jobs[4];
    for (unsigned i = 0; i < 4; i++) {
        jobs[i] = (struct thread_job){ .fd = fd, .id = i + 1 };
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (unsigned i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(jobs[i].bad, 0);
    }
    close(fd);
}

/* A forked child gets a copy of the GPU with the rest of its memory: its
 * fd works and its GPU writes land in its own copy of the buffer, while
 * the parent's stays as it was (a real GPU would be shared: stated in the
 * README as a difference). */
static void fork_copies_the_gpu(void **state)
{
    (void)state;
    int fd = open_node();
    uint32_t bo = bo_new(fd, 4096, RADEON_GEM_DOMAIN_GTT);
    uint32_t *cpu = bo_map(fd, bo, 4096);
    cpu[0] = 1;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct cedar_cmdbuf cb;
        cedar_cmdbuf_init(&cb, 0);
        mem_write(&cb, bo, 2);
        int ok = submit(fd, &cb) == 0 && cpu[0] == 2;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(cpu[0], 1);
    munmap(cpu, 4096);
    close(fd);
}

/* Run under cedar-run (this same binary again), unless already there. */
static void under_cedar_run(char **argv)
{
    if (getenv(CEDAR_RUN_ENV_ROOT))
        return;
    const char *tools = getenv("CEDAR_TOOLS");
    char run[4096];
    snprintf(run, sizeof run, "%s/cedar-run", tools && tools[0] ? tools : "build/san/bin");
    const char *asan = getenv("ASAN_OPTIONS");
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0", asan ? asan : "", asan && asan[0] ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    char *args[] = { run, "--", argv[0], NULL };
    execv(run, args);
    fprintf(stderr, "cannot run %s: %s\n", run, strerror(errno));
    exit(1);
}

int main(int argc, char **argv)
{
    (void)argc;
    under_cedar_run(argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_is_radeon),
        cmocka_unit_test(malformed_cs_then_good),
        cmocka_unit_test(bad_pointers_efault),
        cmocka_unit_test(files_and_dups),
        cmocka_unit_test(random_ioctls),
        cmocka_unit_test(threads_share_the_gpu),
        cmocka_unit_test(fork_copies_the_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
