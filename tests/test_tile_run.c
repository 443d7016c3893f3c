/* cedar_tile_run / cedar_detile_run (the DMA engine's row-order copies,
 * micro tile by micro tile) against the per-element address map
 * (cedar_tile_addr, checked against the real card in test_tiling): over
 * random surfaces and random runs, including runs that start mid-row,
 * wrap rows, leave the surface, start past it, are empty, cover whole
 * planes, and runs whose linear side lies inside the surface's own bytes.
 * Then the same copies through the virtual Cedar's DMA ring (L2T / T2L
 * packets, vc_dma.c), including the fault of a copy past the bottom. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/tiling.h"
#include "cedar/vcedar.h"
#include "common/test_util.h"
#include "eg_regs.h"

static const unsigned BPE[] = { 1, 2, 4, 8, 16 };
static const unsigned P1248[] = { 1, 2, 4, 8 };
static const unsigned BANKS[] = { 4, 8, 16 };
static const unsigned SPLIT[] = { 64, 128, 256, 512, 1024, 2048, 4096 };

static unsigned pick(const unsigned *v, unsigned n)
{
    return v[test_rand() % n];
}

/* A random one-sample colour map of at most 1 MiB; -1 when the hardware
 * cannot have the drawn parameters. */
static int random_map(struct cedar_tile_map *m)
{
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    s.mode = (enum cedar_array_mode)(test_rand() % 3);
    s.bpe = pick(BPE, 5);
    s.samples = 1;
    s.tiling.pipes = pick(P1248, 4);
    s.tiling.banks = pick(BANKS, 3);
    s.tiling.group_bytes = test_rand() % 2 ? 256 : 512;
    s.bankw = pick(P1248, 4);
    s.bankh = pick(P1248, 4);
    s.mtilea = pick(P1248, 4);
    s.tile_split = pick(SPLIT, 7);
    unsigned aw = 8, ah = 8;
    if (s.mode == CEDAR_MODE_2D_THIN) {
        aw = 8 * s.bankw * s.tiling.pipes * s.mtilea;
        ah = s.mtilea <= s.tiling.banks ? 8 * s.bankh * s.tiling.banks / s.mtilea : 8;
    }
    s.aligned_width = s.width = aw * (1 + test_rand() % 4);
    s.aligned_height = s.height = ah * (1 + test_rand() % 3) + (s.mode == CEDAR_MODE_LINEAR_ALIGNED ? test_rand() % 8 : 0);
    struct cedar_tile_opts o = { .slices = 1 + test_rand() % 3,
                                 .order = test_rand() % 2 ? CEDAR_MICRO_NON_DISPLAYABLE : CEDAR_MICRO_DISPLAYABLE };
    struct cedar_layout_err err;
    if (cedar_tile_map_init(m, &s, &o, &err) || m->size > (1u << 20))
        return -1;
    return 0;
}

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)test_rand();
}

/* The reference: element by element through the address map, in run order. */
static uint64_t ref_copy(const struct cedar_tile_map *m, uint8_t *tiled, uint8_t *lin, unsigned slice,
                         uint64_t first, uint64_t count, int to_tiled)
{
    uint64_t done = 0;
    for (uint64_t e = 0; e < count; e++) {
        uint64_t at = first + e;
        if (at / m->width >= m->height)
            break;
        uint8_t *t = tiled + cedar_tile_addr(m, (unsigned)(at % m->width), (unsigned)(at / m->width), 0, slice);
        if (to_tiled)
            memmove(t, lin + e * m->bpe, m->bpe);
        else
            memmove(lin + e * m->bpe, t, m->bpe);
        done++;
    }
    return done;
}

enum run_kind { RUN_ANY, RUN_EMPTY, RUN_ONE, RUN_PLANE, RUN_PAST_END, RUN_START_PAST, RUN_SHORT, KINDS };

static void pick_run(const struct cedar_tile_map *m, enum run_kind k, uint64_t *first, uint64_t *count)
{
    uint64_t plane = (uint64_t)m->width * m->height;
    *first = test_rand() % plane;
    switch (k) {
    case RUN_EMPTY: *count = 0; break;
    case RUN_ONE: *count = 1; break;
    case RUN_PLANE: *first = 0; *count = plane; break;
    case RUN_PAST_END: *count = plane - *first + 1 + test_rand() % (3 * m->width); break;
    case RUN_START_PAST: *first = plane + test_rand() % 100; *count = 1 + test_rand() % 100; break;
    case RUN_SHORT: *count = 1 + test_rand() % 20; break;   /* inside one or two micro tiles */
    default: *count = 1 + test_rand() % (plane - *first); break;
    }
}

static void runs_match_the_address_map(void **state)
{
    (void)state;
    test_rand_seed(15);
    unsigned maps = 0, per_mode[3] = { 0 }, per_bpe[17] = { 0 }, per_kind[KINDS] = { 0 }, overlaps = 0;
    while (maps < 400) {
        struct cedar_tile_map m;
        if (random_map(&m))
            continue;
        maps++;
        per_mode[m.mode]++;
        per_bpe[m.bpe]++;
        for (unsigned r = 0; r < 6; r++) {
            enum run_kind k = (enum run_kind)(test_rand() % KINDS);
            uint64_t first, count;
            pick_run(&m, k, &first, &count);
            per_kind[k]++;
            unsigned slice = test_rand() % m.slices;
            uint64_t plane = (uint64_t)m.width * m.height;
            uint64_t want = first >= plane ? 0 : count < plane - first ? count : plane - first;
            size_t lin_bytes = (size_t)(count * m.bpe), pad = 64;
            /* surfaces and linear sides sized exactly (ASan sees a stray
             * byte), the linear one with a guard band after it */
            uint8_t *t1 = malloc(m.size), *t2 = malloc(m.size);
            uint8_t *l1 = malloc(lin_bytes + pad), *l2 = malloc(lin_bytes + pad);
            assert_true(t1 && t2 && l1 && l2);
            fill(t1, m.size);
            memcpy(t2, t1, m.size);
            fill(l1, lin_bytes + pad);
            memcpy(l2, l1, lin_bytes + pad);
            /* to the tiled side */
            assert_int_equal(cedar_tile_run(&m, t1, l1, slice, first, count), want);
            assert_int_equal(ref_copy(&m, t2, l2, slice, first, count, 1), want);
            if (memcmp(t1, t2, m.size))
                fail_msg("tile run: mode %d bpe %u %ux%u first %llu count %llu differs from the map", (int)m.mode,
                         m.bpe, m.width, m.height, (unsigned long long)first, (unsigned long long)count);
            /* from the tiled side: the linear bytes past the run stay */
            fill(t1, m.size);
            memcpy(t2, t1, m.size);
            assert_int_equal(cedar_detile_run(&m, t1, l1, slice, first, count), want);
            assert_int_equal(ref_copy(&m, t2, l2, slice, first, count, 0), want);
            if (memcmp(l1, l2, lin_bytes + pad))
                fail_msg("detile run: mode %d bpe %u %ux%u first %llu count %llu differs from the map", (int)m.mode,
                         m.bpe, m.width, m.height, (unsigned long long)first, (unsigned long long)count);
            free(l1);
            free(l2);
            /* a linear side inside the surface's own bytes */
            if (want && want * m.bpe < m.size) {
                overlaps++;
                size_t at = (size_t)(test_rand() % (m.size - want * m.bpe + 1));
                fill(t1, m.size);
                memcpy(t2, t1, m.size);
                int dir = test_rand() % 2;
                uint64_t got = dir ? cedar_tile_run(&m, t1, t1 + at, slice, first, want)
                                   : cedar_detile_run(&m, t1, t1 + at, slice, first, want);
                assert_int_equal(got, want);
                assert_int_equal(ref_copy(&m, t2, t2 + at, slice, first, want, dir), want);
                assert_memory_equal(t1, t2, m.size);
            }
            free(t1);
            free(t2);
        }
    }
    for (unsigned i = 0; i < 3; i++)
        assert_true(per_mode[i] > 20);
    for (unsigned i = 0; i < 5; i++)
        assert_true(per_bpe[BPE[i]] > 20);
    for (unsigned k = 0; k < KINDS; k++)
        assert_true(per_kind[k] > 100);
    assert_true(overlaps > 300);
}

/* Maps the runs do not address: nothing copied. */
static void other_maps_copy_nothing(void **state)
{
    (void)state;
    struct cedar_surface s = { .mode = CEDAR_MODE_2D_THIN, .bpe = 4, .samples = 4, .aligned_width = 64,
                               .aligned_height = 64, .width = 64, .height = 64, .tile_split = 1024,
                               .bankw = 1, .bankh = 1, .mtilea = 1, .tiling = { 2, 8, 256, 1024 } };
    struct cedar_tile_map m;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, NULL), 0);
    uint8_t *t = calloc(1, m.size), lin[64] = { 1 };
    assert_non_null(t);
    assert_int_equal(cedar_tile_run(&m, t, lin, 0, 0, 16), 0);   /* 4 samples */
    s.samples = 1;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, NULL), 0);
    assert_int_equal(cedar_tile_run(&m, t, lin, 1, 0, 16), 0);   /* slice 1 of 1 */
    struct cedar_surface f = s;
    f.mode = CEDAR_MODE_1D_THIN;
    assert_int_equal(cedar_fmask_map_init(&m, &f, 4, NULL, NULL), 0);
    assert_int_equal(cedar_detile_run(&m, t, lin, 0, 0, 16), 0);
    for (unsigned i = 0; i < 64 * 64 * 4; i++)
        assert_int_equal(t[i], 0);
    free(t);
}

/* ---- through the DMA ring --------------------------------------------------- */

#define SURF_ADDR 0x100000ull
#define LIN_ADDR 0x400000ull
#define SW 64u   /* the surface: SW x SH elements of 4 bytes */
#define SH 64u
#define RUN (SW * (SH - 3) - 5)   /* from (5, 3) to the last element */

/* An L2T_T2L packet (evergreen_dma_copy_tile's dwords) for the SW x SH
 * 2D-tiled surface of 4-byte elements at SURF_ADDR: bank width, height
 * and macro aspect 1, 8 banks, 1 KiB tile split; the linear side at LIN_ADDR. */
static void l2t(uint32_t p[9], bool detile, unsigned x, unsigned y, uint32_t dwords)
{
    p[0] = S_DMA_HEADER__CMD(V_DMA_CMD__DMA_COPY) | S_DMA_HEADER__SUB_CMD(V_DMA_COPY_SUB_CMD__L2T_T2L) |
           S_DMA_HEADER__COUNT(dwords);
    p[1] = (uint32_t)(SURF_ADDR >> 8);
    p[2] = S_DMA_TILED_INFO__LBPP(2) | S_DMA_TILED_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) |
           S_DMA_TILED_INFO__DETILE(detile);
    p[3] = S_DMA_TILED_PITCH__PITCH_TILE_MAX(SW / 8 - 1) | S_DMA_TILED_PITCH__HEIGHT_MAX(SH - 1);
    p[4] = S_DMA_TILED_SLICE__SLICE_TILE_MAX(SW * SH / 64 - 1);
    p[5] = S_DMA_TILED_XZ__X(x);
    p[6] = S_DMA_TILED_Y__Y(y) | S_DMA_TILED_Y__TILE_SPLIT(V_CB_TILE_SPLIT__SPLIT_1KB) |
           S_DMA_TILED_Y__NUM_BANKS(V_CB_NUM_BANKS__BANKS_8);
    p[7] = (uint32_t)LIN_ADDR;
    p[8] = (uint32_t)(LIN_ADDR >> 32);
}

static void dma_ring_copies(void **state)
{
    (void)state;
    struct cedar_surface s = { .mode = CEDAR_MODE_2D_THIN, .bpe = 4, .samples = 1, .aligned_width = SW,
                               .aligned_height = SH, .width = SW, .height = SH, .tile_split = 1024,
                               .bankw = 1, .bankh = 1, .mtilea = 1 };
    cedar_tiling_from_config(VCEDAR_TILING_CONFIG, &s.tiling);
    s.tiling.banks = 8;
    struct cedar_tile_map m;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, NULL), 0);
    assert_int_equal(m.size, SW * SH * 4);
    struct vcedar *vc = vcedar_create(NULL);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, SURF_ADDR, m.size), 0);
    assert_int_equal(vcedar_map_region(vc, LIN_ADDR, SW * SH * 4), 0);
    test_rand_seed(7);
    const size_t n = SW * SH * 4;
    uint8_t *lin = malloc(n), *surf = malloc(n), *back = malloc(n), *got = malloc(n), *zero = calloc(1, n);
    assert_true(lin && surf && back && got && zero);
    fill(lin, n);
    assert_int_equal(vcedar_mem_write(vc, LIN_ADDR, lin, n), 0);
    /* L2T from (5, 3) to the end of the surface */
    uint32_t ib[9];
    struct vc_error err;
    l2t(ib, false, 5, 3, RUN);
    assert_int_equal(vcedar_exec_raw(vc, VC_RING_DMA, ib, 9, &err), 0);
    assert_int_equal(vcedar_mem_read(vc, SURF_ADDR, surf, n), 0);
    for (unsigned e = 0; e < RUN; e++) {
        unsigned at = 3 * SW + 5 + e;
        assert_memory_equal(surf + cedar_tile_addr(&m, at % SW, at / SW, 0, 0), lin + 4 * e, 4);
    }
    /* T2L of the same run back to a cleared linear side */
    assert_int_equal(vcedar_mem_write(vc, LIN_ADDR, zero, n), 0);
    l2t(ib, true, 5, 3, RUN);
    assert_int_equal(vcedar_exec_raw(vc, VC_RING_DMA, ib, 9, &err), 0);
    assert_int_equal(vcedar_mem_read(vc, LIN_ADDR, got, n), 0);
    assert_memory_equal(got, lin, 4 * RUN);
    assert_memory_equal(got + 4 * RUN, zero, n - 4 * RUN);
    /* one element more than the surface holds: a fault, the elements
     * inside the surface copied as the engine went */
    memcpy(back, surf, n);
    fill(lin, n);
    assert_int_equal(vcedar_mem_write(vc, LIN_ADDR, lin, n), 0);
    l2t(ib, false, 5, 3, RUN + 1);
    assert_int_equal(vcedar_exec_raw(vc, VC_RING_DMA, ib, 9, &err), -1);
    assert_non_null(strstr(err.text, "past the bottom of the surface"));
    assert_int_equal(vcedar_mem_read(vc, SURF_ADDR, surf, n), 0);
    for (unsigned at = 0; at < SW * SH; at++) {
        uint64_t a = cedar_tile_addr(&m, at % SW, at / SW, 0, 0);
        if (at < 3 * SW + 5)   /* before the run: untouched */
            assert_memory_equal(surf + a, back + a, 4);
        else
            assert_memory_equal(surf + a, lin + 4 * (at - 3 * SW - 5), 4);
    }
    free(lin);
    free(surf);
    free(back);
    free(got);
    free(zero);
    vcedar_destroy(vc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_match_the_address_map),
        cmocka_unit_test(other_maps_copy_nothing),
        cmocka_unit_test(dma_ring_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
