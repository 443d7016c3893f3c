/* Robustness of the virtual Cedar's inputs: the command-stream checker on
 * Mesa's real streams (tests/data/mesa-r600-msaa8x/) with random mutations,
 * the CS ioctl with random chunk layouts (NULL / dangling-free pointers are
 * the caller's business, so only well-formed memory with hostile contents),
 * raw bare-metal IBs, and the BOF reader on corrupted captures.  Fixed seeds;
 * every call must come back with 0 or an error carrying a one-line reason,
 * never a sanitizer report or a hang.  What is accepted is checked too: a
 * mutant strict mode accepts, kernel mode accepts patched the same; an
 * accepted CS leaves a buffer it does not name unchanged. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/vc_bof.h"
#include "cedar/vcedar.h"
#include "tests/common/test_util.h"

#define MESA "tests/data/mesa-r600-msaa8x/"

struct stream {
    uint32_t dw[8192];
    size_t ndw;
    struct vc_reloc_bo bo[32];
    uint32_t reloc[32 * 4];
    unsigned nrelocs;
};

/* cs_NNN.bin and the buffer sizes / domains of cs_NNN.relocs.txt */
static void load_stream(const char *n, struct stream *s)
{
    char path[128];
    snprintf(path, sizeof path, MESA "cs_%s.bin", n);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    s->ndw = fread(s->dw, 4, 8192, f);
    fclose(f);
    snprintf(path, sizeof path, MESA "cs_%s.relocs.txt", n);
    f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    s->nrelocs = 0;
    uint64_t gpu = 0x100000;
    while (fgets(line, sizeof line, f) && s->nrelocs < 32) {
        const char *sz = strstr(line, " size="), *dom = strstr(line, "init=");
        if (line[0] == '#' || !sz || !dom)
            continue;
        unsigned i = s->nrelocs++;
        s->bo[i].size = strtoull(sz + 6, NULL, 10);
        s->bo[i].domain = strncmp(dom + 5, "GTT", 3) ? RADEON_GEM_DOMAIN_VRAM : RADEON_GEM_DOMAIN_GTT;
        s->bo[i].gpu_offset = gpu;
        gpu += (s->bo[i].size + 0xFFFFF) & ~0xFFFFFull;
        s->reloc[4 * i] = i + 1;
        s->reloc[4 * i + 1] = s->bo[i].domain;
        s->reloc[4 * i + 2] = s->bo[i].domain;
        s->reloc[4 * i + 3] = 0;
    }
    fclose(f);
    assert_true(s->ndw > 0 && s->nrelocs > 0);
}

/* 1..6 mutations: random word, bit flip, small count change of a header,
 * relocation NOP index change, register offset shift. */
static void mutate(uint32_t *w, size_t n)
{
    unsigned muts = 1 + test_rand() % 6;
    for (unsigned m = 0; m < muts; m++) {
        size_t at = test_rand() % n;
        switch (test_rand() % 6) {
        case 0: w[at] = test_rand(); break;
        case 1: w[at] ^= 1u << (test_rand() % 32); break;
        case 2: w[at] += (test_rand() % 5) << 16; break;                 /* COUNT of a type-3 header */
        case 3: w[at] = (test_rand() % 40) * 4; break;                   /* a relocation index */
        case 4: w[at] = test_rand() % 4 ? 0xFFFFFFFFu : 0x80000000u; break;
        default: w[at] ^= test_rand() & 0xFFFu; break;
        }
    }
}

static void check_error_line(const struct vc_error *e)
{
    char buf[400];
    assert_true(e->code > VC_OK && e->code < VC_E_COUNT_);
    vc_error_format(e, buf, sizeof buf);
    assert_true(buf[0] != '\0');
    assert_null(strchr(buf, '\n'));
}

static void checker_on_mutated_mesa_streams(void **state)
{
    (void)state;
    static struct stream s;
    static uint32_t ib[8192];
    static const char *names[] = { "001", "002", "003", "004" };
    test_rand_seed(0x5eed0101);
    unsigned runs = 0, accepted = 0, both = 0;
    double t0 = test_now();
    for (unsigned n = 0; n < 4; n++) {
        load_stream(names[n], &s);
        for (unsigned it = 0; it < 8000; it++) {
            memcpy(ib, s.dw, s.ndw * 4);
            mutate(ib, s.ndw);
            size_t len = test_rand() % 10 ? s.ndw : test_rand() % (s.ndw + 1);
            struct vc_check_cfg cfg = { .mode = test_rand() % 2 ? VC_CHECK_KERNEL : VC_CHECK_STRICT,
                                        .tiling_config = VCEDAR_TILING_CONFIG,
                                        .cs_flags = test_rand() % 4 ? RADEON_CS_KEEP_TILING_FLAGS : 0 };
            /* sometimes fewer relocations, or buffers too small */
            size_t reloc_dw = test_rand() % 5 ? s.nrelocs * 4 : (test_rand() % (s.nrelocs * 4 + 1));
            struct vc_reloc_bo bo[32];
            memcpy(bo, s.bo, sizeof bo);
            if (test_rand() % 5 == 0)
                bo[test_rand() % s.nrelocs].size = test_rand() % 4096;
            struct vc_error err = { 0 };
            const uint32_t *relocs = test_rand() % 20 ? s.reloc : NULL;
            static uint32_t ib2[8192];
            memcpy(ib2, ib, len * 4);
            int r = vc_check_gfx(&cfg, ib, len, relocs, reloc_dw, bo, &err);
            if (r) {
                check_error_line(&err);
            } else {
                accepted++;
                /* what strict mode accepts, the kernel's rules accept too,
                 * patched the same (the kernel's fix-ups, clamping a vertex
                 * buffer or lowering a linear SLICE, apply only to what
                 * strict mode refuses) */
                if (cfg.mode == VC_CHECK_STRICT) {
                    cfg.mode = VC_CHECK_KERNEL;
                    if (vc_check_gfx(&cfg, ib2, len, relocs, reloc_dw, bo, &err))
                        fail_msg("stream %s run %u: strict accepts, kernel mode refuses: %s", names[n], it, err.text);
                    if (memcmp(ib, ib2, len * 4))
                        fail_msg("stream %s run %u: strict and kernel mode patch the IB differently", names[n], it);
                    both++;
                }
            }
            runs++;
        }
    }
    print_message("%u mutated GFX streams checked (%u accepted, %u of them by both modes) in %.1f s\n", runs,
                  accepted, both, test_now() - t0);
    assert_true(both > 1000);

    /* the DMA ring: cs_005 */
    load_stream("005", &s);
    for (unsigned it = 0; it < 3000; it++) {
        memcpy(ib, s.dw, s.ndw * 4);
        mutate(ib, s.ndw);
        size_t len = test_rand() % 10 ? s.ndw : test_rand() % (s.ndw + 1);
        struct vc_check_cfg cfg = { .mode = it % 2 ? VC_CHECK_KERNEL : VC_CHECK_STRICT,
                                    .tiling_config = VCEDAR_TILING_CONFIG };
        struct vc_reloc_bo bo[32];
        memcpy(bo, s.bo, sizeof bo);
        if (test_rand() % 4 == 0)
            bo[test_rand() % s.nrelocs].size = test_rand() % 4096;
        struct vc_error err = { 0 };
        if (vc_check_dma(&cfg, ib, len, test_rand() % 8 ? s.nrelocs : test_rand() % (s.nrelocs + 1), bo, &err))
            check_error_line(&err);
    }
}

/* ---- the CS ioctl ------------------------------------------------------- */

static struct cedar_dev *open_dev(bool render)
{
    struct vcedar_opts o = { .mode = VC_CHECK_STRICT, .no_render = !render };
    struct cedar_dev *dev = NULL;
    assert_int_equal(cedar_dev_open_virtual(&o, &dev), 0);
    return dev;
}

#define CANARY_SIZE 65536u
#define CANARY_BYTE(i) ((uint8_t)(0xA5u ^ (i) ^ ((i) >> 8)))

/* Submits the Mesa streams (mutated) through DRM_IOCTL_RADEON_CS with
 * random chunk tables: chunks missing, repeated, zero or wrong lengths,
 * unknown ids, odd flags and rings, relocations naming absent handles.
 * Accepted streams run (with the renderer every 8th device); the strict
 * checker sized every address they use, so a buffer no relocation names
 * (the canary, filled with a pattern) must come out of each run unchanged. */
static void cs_ioctl_random_chunks(void **state)
{
    (void)state;
    static struct stream s[5];
    static const char *names[] = { "001", "002", "003", "004", "005" };
    for (unsigned n = 0; n < 5; n++)
        load_stream(names[n], &s[n]);
    static uint32_t ib[8192 + 64];
    uint32_t relocs[40 * 4], flags[3];
    test_rand_seed(0x5eed0102);
    unsigned runs = 0, accepted = 0;
    double t0 = test_now();
    for (unsigned devn = 0; devn < 4; devn++) {
        struct cedar_dev *dev = open_dev(devn == 3);
        uint32_t handles[32];
        unsigned nh = 0;
        /* buffers as the streams want them (the largest of each index) */
        for (unsigned i = 0; i < 8; i++) {
            uint64_t size = 4096;
            for (unsigned n = 0; n < 5; n++)
                if (i < s[n].nrelocs && s[n].bo[i].size > size)
                    size = s[n].bo[i].size;
            handles[nh++] = test_vc_bo_new(dev, size, i % 2 ? RADEON_GEM_DOMAIN_GTT : RADEON_GEM_DOMAIN_VRAM);
        }
        uint32_t canary = test_vc_bo_new(dev, CANARY_SIZE, devn % 2 ? RADEON_GEM_DOMAIN_GTT : RADEON_GEM_DOMAIN_VRAM);
        uint8_t *cm = test_vc_bo_map(dev, canary, CANARY_SIZE);
        for (unsigned i = 0; i < CANARY_SIZE; i++)
            cm[i] = CANARY_BYTE(i);
        for (unsigned it = 0; it < (devn == 3 ? 200u : 1500u); it++) {
            const struct stream *st = &s[test_rand() % 5];
            bool dma = st == &s[4];
            memcpy(ib, st->dw, st->ndw * 4);
            if (test_rand() % 4)
                mutate(ib, st->ndw);
            unsigned nrel = st->nrelocs;
            for (unsigned i = 0; i < nrel; i++) {
                relocs[4 * i] = test_rand() % 16 ? handles[i % nh] : test_rand();
                relocs[4 * i + 1] = test_rand() % 16 ? RADEON_GEM_DOMAIN_VRAM | RADEON_GEM_DOMAIN_GTT : test_rand() % 8;
                relocs[4 * i + 2] = test_rand() % 8 ? 0 : test_rand() % 8;
                relocs[4 * i + 3] = test_rand() % 8 ? 0 : test_rand();
            }
            flags[0] = test_rand() % 8 ? RADEON_CS_KEEP_TILING_FLAGS : test_rand() % 8;
            flags[1] = test_rand() % 10 ? (dma ? RADEON_CS_RING_DMA : RADEON_CS_RING_GFX) : test_rand() % 7;
            flags[2] = test_rand();
            struct drm_radeon_cs_chunk ch[6];
            uint64_t ptrs[6];
            unsigned nch = 0;
            unsigned layout = test_rand() % 12;
            for (unsigned c = 0; c < 6; c++) {
                unsigned kind = layout < 8 ? c : test_rand() % 6;
                if (layout >= 8 && test_rand() % 3 == 0)
                    continue;
                if (kind > 3 && layout < 8)
                    break;
                struct drm_radeon_cs_chunk *k = &ch[nch];
                switch (kind) {
                case 0:
                    *k = (struct drm_radeon_cs_chunk){ RADEON_CHUNK_ID_IB, (uint32_t)st->ndw, (uintptr_t)ib };
                    if (test_rand() % 10 == 0)
                        k->length_dw = test_rand() % (uint32_t)(st->ndw + 1);
                    break;
                case 1:
                    *k = (struct drm_radeon_cs_chunk){ RADEON_CHUNK_ID_RELOCS, nrel * 4, (uintptr_t)relocs };
                    if (test_rand() % 10 == 0)
                        k->length_dw = test_rand() % (nrel * 4 + 1);
                    break;
                case 2:
                    *k = (struct drm_radeon_cs_chunk){ RADEON_CHUNK_ID_FLAGS, 1 + test_rand() % 3, (uintptr_t)flags };
                    if (test_rand() % 16 == 0)
                        k->length_dw = 0;
                    break;
                case 3:
                    *k = (struct drm_radeon_cs_chunk){ RADEON_CHUNK_ID_CONST_IB, test_rand() % 4, (uintptr_t)ib };
                    break;
                default:   /* an id the kernel ignores; its data is never read */
                    *k = (struct drm_radeon_cs_chunk){ 5 + test_rand() % 100, test_rand(), (uintptr_t)ib };
                    break;
                }
                ptrs[nch] = (uintptr_t)k;
                nch++;
            }
            struct drm_radeon_cs cs = { .num_chunks = nch, .chunks = (uintptr_t)ptrs };
            int r = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &cs);
            if (r == 0) {
                accepted++;
                for (unsigned i = 0; i < CANARY_SIZE; i++)
                    if (cm[i] != CANARY_BYTE(i))
                        fail_msg("an accepted CS (run %u) changed byte %u of a buffer it does not name", runs, i);
            } else {
                assert_true(r == -EINVAL || r == -ENOENT || r == -ENOMEM || r == -EFAULT);
                check_error_line(vcedar_last_error(vcedar_of(dev)));
            }
            runs++;
        }
        assert_int_equal(cedar_dev_munmap(dev, cm, CANARY_SIZE), 0);
        cedar_dev_destroy(dev);
    }
    print_message("%u CS ioctls (%u accepted) in %.1f s\n", runs, accepted, test_now() - t0);
}

/* An IB larger than the kernel's IB pool is refused before it is copied
 * (radeon_ib_get: 16 pools of 64 KiB, radeon_device.c / radeon_ring.c). */
static void cs_ioctl_huge_ib_refused(void **state)
{
    (void)state;
    struct cedar_dev *dev = open_dev(false);
    uint32_t nop[2] = { 0xC0001000u, 0 };
    struct drm_radeon_cs_chunk ch = { RADEON_CHUNK_ID_IB, 0xFFFFFFF0u, (uintptr_t)nop };
    uint64_t ptr = (uintptr_t)&ch;
    struct drm_radeon_cs cs = { .num_chunks = 1, .chunks = (uintptr_t)&ptr };
    assert_int_equal(cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &cs), -EINVAL);
    check_error_line(vcedar_last_error(vcedar_of(dev)));
    cedar_dev_destroy(dev);
}

/* ---- bare-metal IBs ----------------------------------------------------- */

static void exec_raw_random_ibs(void **state)
{
    (void)state;
    static struct stream s;
    static uint32_t ib[8192];
    test_rand_seed(0x5eed0103);
    struct vcedar_opts o = { .no_render = true };
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, 0, 64ull << 20), 0);
    /* overlapping / out-of-range regions are refused, not mapped */
    assert_true(vcedar_map_region(vc, 4096, 4096) < 0);
    assert_true(vcedar_map_region(vc, ~0ull - 4095, 8192) < 0);
    assert_int_equal(vcedar_map_region(vc, 1ull << 40, 0), -EINVAL);   /* an empty region */
    uint8_t b[16];
    assert_true(vcedar_mem_read(vc, (64ull << 20) - 8, b, 16) < 0);
    assert_true(vcedar_mem_write(vc, ~0ull - 7, b, 16) < 0);
    load_stream("003", &s);
    double t0 = test_now();
    unsigned faults = 0;
    for (unsigned it = 0; it < 8000; it++) {
        size_t n;
        if (it % 3 == 0) {
            n = 1 + test_rand() % 256;
            for (size_t i = 0; i < n; i++)
                ib[i] = test_rand() % 2 ? test_rand() : (0xC0000000u | ((test_rand() % 8) << 16) | ((test_rand() % 0x80) << 8));
        } else {
            n = s.ndw;
            memcpy(ib, s.dw, n * 4);
            mutate(ib, n);
        }
        struct vc_error err = { 0 };
        if (vcedar_exec_raw(vc, it % 5 == 4 ? VC_RING_DMA : VC_RING_GFX, ib, n, &err)) {
            check_error_line(&err);
            faults++;
        }
    }
    vcedar_destroy(vc);
    print_message("8000 raw IBs (%u faulted) in %.1f s\n", faults, test_now() - t0);
}

/* ---- BOF captures ------------------------------------------------------- */

static void bof_reader_on_corrupt_files(void **state)
{
    (void)state;
    static struct stream s;
    load_stream("003", &s);
    uint8_t data[3][256];
    struct vc_bof_bo bos[3];
    for (unsigned i = 0; i < 3; i++) {
        memset(data[i], (int)i, sizeof data[i]);
        bos[i] = (struct vc_bof_bo){ .handle = i + 1, .size = sizeof data[i], .domain = RADEON_GEM_DOMAIN_VRAM,
                                     .data = data[i] };
    }
    struct vc_bof_cs cs = { .device_id = VCEDAR_DEVICE_ID, .ring = 0, .flags = 1, .relocs = s.reloc, .nrelocs = 3,
                            .ib = s.dw, .ndw = (uint32_t)s.ndw, .bos = bos, .nbos = 3 };
    char dir[] = "/tmp/test_robust_bofXXXXXX";
    assert_non_null(mkdtemp(dir));
    char good[64], bad[64], err[256];
    snprintf(good, sizeof good, "%s/good.bof", dir);
    snprintf(bad, sizeof bad, "%s/bad.bof", dir);
    assert_int_equal(vc_bof_write(good, &cs, err, sizeof err), 0);
    FILE *f = fopen(good, "rb");
    assert_non_null(f);
    static uint8_t orig[1 << 16], buf[1 << 16];
    size_t n = fread(orig, 1, sizeof orig, f);
    fclose(f);
    assert_true(n > 100 && n < sizeof orig);
    struct vc_bof_cs back;
    assert_int_equal(vc_bof_read(good, &back, err, sizeof err), 0);
    vc_bof_free(&back);

    test_rand_seed(0x5eed0104);
    unsigned refused = 0;
    double t0 = test_now();
    for (unsigned it = 0; it < 3000; it++) {
        memcpy(buf, orig, n);
        size_t len = n;
        unsigned muts = 1 + test_rand() % 4;
        for (unsigned m = 0; m < muts; m++) {
            /* node headers sit on 4-byte boundaries: hit those mostly */
            size_t at = (test_rand() % (n / 4)) * 4 + (test_rand() % 8 == 0 ? test_rand() % 4 : 0);
            uint32_t v;
            switch (test_rand() % 4) {
            case 0: v = test_rand(); break;
            case 1: v = test_rand() % 64; break;
            case 2: v = 0xFFFFFFFFu - test_rand() % 16; break;
            default: v = 0x7FFFFFFFu; break;
            }
            if (at + 4 <= len)
                memcpy(buf + at, &v, 4);
        }
        if (test_rand() % 6 == 0)
            len = test_rand() % (n + 1);
        f = fopen(bad, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(buf, 1, len, f), len);
        fclose(f);
        struct vc_bof_cs got;
        err[0] = '\0';
        memset(&got, 0, sizeof got);
        if (vc_bof_read(bad, &got, err, sizeof err)) {
            assert_true(err[0] != '\0');
            assert_null(strchr(err, '\n'));
            refused++;
        } else {
            /* what was read is self-consistent */
            for (uint32_t i = 0; i < got.nbos; i++)
                if (got.bos[i].size)
                    assert_non_null(got.bos[i].data);
            vc_bof_free(&got);
        }
    }
    print_message("3000 corrupt BOF files (%u refused) in %.1f s\n", refused, test_now() - t0);
    unlink(good);
    unlink(bad);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(checker_on_mutated_mesa_streams),
        cmocka_unit_test(cs_ioctl_random_chunks),
        cmocka_unit_test(cs_ioctl_huge_ib_refused),
        cmocka_unit_test(exec_raw_random_ibs),
        cmocka_unit_test(bof_reader_on_corrupt_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
