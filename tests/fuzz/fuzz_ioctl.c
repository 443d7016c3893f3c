/* cedar-run's ioctl entry, in process: shim_drm_ioctl (src/shim/shim_ioctl.c),
 * the user-memory half of drm_ioctl() that every ioctl a program under
 * cedar-run makes on /dev/dri/card0 or renderD128 goes through, with random
 * request numbers (any direction and size, type 'd'), arguments and
 * pointers.  The model runs with execution off (CEDAR_RUN_NO_EXEC's null
 * device): a CS is parsed, its relocations resolved and checked, as fuzz_cs
 * does it further.
 *
 * Memory: the program's memory is a 64 KiB scratch area between a patterned
 * canary page before it and an inaccessible page after it.  Input: per call
 * (up to 16, one DRM file per input, card0 or renderD128 by the first byte),
 * a 32-bit request (its type forced to 'd'), a byte saying where the
 * argument is (0: in scratch, 1: NULL, 2: the inaccessible page, 3: at the
 * end of scratch so that it runs into that page), a 16-bit length and the
 * argument's bytes, then a count (0..7) of pointer fix-ups: a byte naming an
 * 8-byte slot of the argument and a 16-bit target (an offset into scratch, or
 * 0xFFFF: the inaccessible page) written into that slot as an address (CS
 * chunk arrays, version strings, the RADEON_INFO value: the pointers inside
 * arguments).  Other bytes stay what the input says, except 8-byte values
 * that could point outside the program's memory (keep_pointers_in_scratch).
 *
 * Invariants beyond "no crash": every call returns 0 or a negative errno
 * (never a positive value, never below -4095); the canary page is never
 * written (every write lands in scratch, through a pointer the program
 * gave); a bad pointer is -EFAULT, not a fault (the inaccessible page would
 * stop the process). */
#include <dlfcn.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/run.h"
#include "fuzz_util.h"
#include "src/shim/shim.h"

#define SCRATCH (64u << 10)
#define PAGE 4096u
#define MAX_CALLS 16

/* What the rest of the shim would provide (its libc stand-ins, which a
 * fuzzer must not take over): the real functions, and no fd is a DRM file
 * (shim_drm_ioctl is called directly, not through ioctl()). */
struct shim_real shim_real;

void *shim_real_lookup(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

struct shim_file *shim_fd_file(int fd)
{
    (void)fd;
    return NULL;
}

static uint8_t *region;   /* canary page, scratch, inaccessible page */
static uint8_t canary[PAGE];

static void setup(void)
{
    region = mmap(NULL, PAGE + SCRATCH + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    FUZZ_CHECK(region != MAP_FAILED, "mmap of the program's memory");
    FUZZ_CHECK(mprotect(region + PAGE + SCRATCH, PAGE, PROT_NONE) == 0, "mprotect");
    for (unsigned i = 0; i < PAGE; i++)
        canary[i] = (uint8_t)(0xA5 ^ i ^ (i >> 8));
    memcpy(region, canary, PAGE);
    shim_cfg.no_exec = true;
}

/* libFuzzer learns the addresses it sees compared (the fuzzer's own stack
 * and heap) and writes them into arguments; the shim would then write
 * there, as the kernel writes wherever a program points it.  The program's
 * memory is the scratch area: any 8-byte value in it that could be an
 * address outside scratch (from 64 KiB up, where the sanitizers' shadow and
 * everything else live) becomes the inaccessible page. */
static void keep_pointers_in_scratch(uint8_t *scratch, uint8_t *bad)
{
    uintptr_t lo = (uintptr_t)scratch, hi = (uintptr_t)bad + PAGE;
    for (size_t i = 0; i + 8 <= SCRATCH; i += 8) {
        uint64_t v;
        memcpy(&v, scratch + i, 8);
        if (v >= 0x10000 && (v < lo || v >= hi)) {
            v = (uintptr_t)bad;
            memcpy(scratch + i, &v, 8);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!region)
        setup();
    uint8_t *scratch = region + PAGE, *bad = region + PAGE + SCRATCH;
    struct fuzz_in in = { data, size };
    int minor = fuzz_u8(&in) & 1 ? CEDAR_RUN_MINOR_RENDER : CEDAR_RUN_MINOR_CARD;
    struct shim_file *f = shim_file_open(minor);
    FUZZ_CHECK(f, "cannot open a DRM file: %d", errno);
    memset(scratch, 0, SCRATCH);
    for (unsigned call = 0; call < MAX_CALLS && in.n; call++) {
        uint32_t req = fuzz_u32(&in);
        req = (req & ~(0xFFu << _IOC_TYPESHIFT)) | ((uint32_t)DRM_IOCTL_BASE << _IOC_TYPESHIFT);
        unsigned where = fuzz_u8(&in) % 4;
        size_t len = fuzz_u16(&in) % (SCRATCH / 2);
        len = len < in.n ? len : in.n;
        size_t at = where == 3 ? (SCRATCH - len) & ~(size_t)7 : 0;
        memcpy(scratch + at, in.p, len);
        in.p += len;
        in.n -= len;
        unsigned fixes = fuzz_u8(&in) % 8;
        for (unsigned i = 0; i < fixes; i++) {
            size_t slot = (size_t)fuzz_u8(&in) * 8;
            uint16_t target = fuzz_u16(&in);
            uint64_t addr = target == 0xFFFF ? (uintptr_t)bad : (uintptr_t)(scratch + target % SCRATCH);
            if (at + slot + 8 <= SCRATCH)
                memcpy(scratch + at + slot, &addr, 8);
        }
        keep_pointers_in_scratch(scratch, bad);
        void *arg = where == 1 ? NULL : where == 2 ? (void *)bad : (void *)(scratch + at);
        int rc = shim_drm_ioctl(f, req, arg);
        FUZZ_CHECK(rc <= 0 && rc > -4096, "ioctl 0x%08X returned %d", req, rc);
        FUZZ_CHECK(!memcmp(region, canary, PAGE), "ioctl 0x%08X (rc %d) wrote before the program's memory", req, rc);
    }
    shim_file_unref(f);
    return 0;
}
