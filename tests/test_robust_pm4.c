/* Robustness of the PM4 and DMA-ring walkers: Mesa's real command streams
 * (tests/data/mesa-r600-msaa8x/) and the real card's (tests/data/cedar/)
 * with random mutations and cuts, and random words.  Every packet and
 * register the walker hands out must lie inside the buffer it was given
 * (checked here, independently of the walker), and each walk must end with
 * 0 or an error carrying a one-line message.  Fixed seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cedar/pm4.h"
#include "tests/common/test_util.h"

/* The buffer being walked; the walker's pointers must stay in it. */
static const uint32_t *buf_lo;
static size_t buf_n;
static unsigned packets, regs, relocs;

static void inside(const uint32_t *p, size_t n)
{
    if (n == 0)
        return;
    assert_true(p >= buf_lo && p + n <= buf_lo + buf_n);
}

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    (void)ctx;
    assert_true(p->offset < buf_n);
    inside(p->payload, p->npayload);
    assert_true(p->offset + 1 + p->npayload <= buf_n);
    packets++;
    return 0;
}
static int on_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    (void)ctx, (void)p, (void)w;
    regs++;
    return 0;
}
static int on_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    (void)ctx;
    inside(nop->payload, nop->npayload);
    if (r->tied)
        assert_true(r->packet_offset < nop->offset);
    relocs++;
    return 0;
}
static int on_dma(void *ctx, const struct eg_dma_packet *p)
{
    (void)ctx;
    assert_true(p->offset < buf_n);
    inside(p->payload, p->npayload);
    packets++;
    return 0;
}

static void walk_both(const uint32_t *w, size_t n)
{
    buf_lo = w, buf_n = n;
    const struct eg_pm4_sink sink = { NULL, on_packet, on_reg, on_reloc };
    for (int o = 0; o < 2; o++) {
        struct eg_pm4_opts opts = { .tiling_from_relocs = o, .lenient_counts = !o };
        struct eg_pm4_error err;
        memset(&err, 0, sizeof err);
        int r = eg_pm4_walk(w, n, &opts, &sink, &err);
        if (r) {
            assert_int_equal(r, (int)err.code);
            assert_true(err.message[0] != '\0');
            assert_null(memchr(err.message, '\n', strnlen(err.message, sizeof err.message)));
            assert_non_null(eg_pm4_errcode_name(err.code));
            assert_true(err.offset <= n);
        }
    }
    struct eg_pm4_error err;
    memset(&err, 0, sizeof err);
    if (eg_dma_walk(w, n, on_dma, NULL, &err)) {
        assert_true(err.message[0] != '\0');
        assert_true(err.offset <= n);
    }
}

static void mutated_real_streams(void **state)
{
    (void)state;
    static const char *files[] = {
        "tests/data/cedar/eg.cmds.0.bin",           "tests/data/mesa-r600-msaa8x/cs_001.bin",
        "tests/data/mesa-r600-msaa8x/cs_002.bin",   "tests/data/mesa-r600-msaa8x/cs_003.bin",
        "tests/data/mesa-r600-msaa8x/cs_004.bin",   "tests/data/mesa-r600-msaa8x/cs_005.bin",
    };
    static uint32_t orig[16384], w[16384];
    test_rand_seed(0x5eed0201);
    double t0 = test_now();
    unsigned runs = 0;
    for (unsigned f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n = test_load_words(files[f], orig, 16384);
        assert_true(n > 0);
        for (unsigned it = 0; it < 1500; it++) {
            size_t len = n;
            memcpy(w, orig, n * 4);
            unsigned muts = 1 + test_rand() % 6;
            for (unsigned m = 0; m < muts; m++) {
                size_t at = test_rand() % n;
                switch (test_rand() % 5) {
                case 0: w[at] = test_rand(); break;
                case 1: w[at] ^= 1u << (test_rand() % 32); break;
                case 2: w[at] += (test_rand() % 9) << 16; break;   /* a header's COUNT */
                case 3: w[at] = 0xC0000000u | (0x3FFFu << 16) | ((test_rand() & 0xFF) << 8); break;
                default: w[at] = (test_rand() % 0x2000) | (test_rand() % 2 ? 0x80000000u : 0); break;
                }
            }
            if (test_rand() % 6 == 0)
                len = test_rand() % (n + 1);
            /* the walked copy sits at the end of a heap block of its exact
             * size, so ASan catches any read past it */
            uint32_t *exact = malloc(len ? len * 4 : 4);
            assert_non_null(exact);
            memcpy(exact, w, len * 4);
            walk_both(exact, len);
            free(exact);
            runs++;
        }
    }
    print_message("%u mutated streams walked (%u packets, %u registers, %u relocations) in %.1f s\n", runs,
                  packets, regs, relocs, test_now() - t0);
}

static void random_words(void **state)
{
    (void)state;
    test_rand_seed(0x5eed0202);
    double t0 = test_now();
    for (unsigned it = 0; it < 20000; it++) {
        size_t n = test_rand() % 40;
        uint32_t *w = malloc(n ? n * 4 : 4);
        assert_non_null(w);
        for (size_t i = 0; i < n; i++) {
            /* type-3 headers with small counts so packets chain */
            w[i] = test_rand() % 3 ? (0xC0000000u | ((test_rand() % 6) << 16) | ((test_rand() & 0xFF) << 8) | (test_rand() & 3))
                             : test_rand();
        }
        walk_both(w, n);
        free(w);
    }
    print_message("20000 random buffers in %.1f s\n", test_now() - t0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mutated_real_streams),
        cmocka_unit_test(random_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
