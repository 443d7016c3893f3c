/* Properties of the address map over hundreds of surface configurations:
 *  - bijectivity: every byte of the surface is hit by exactly one
 *    (x, y, sample, slice, byte) and nothing falls outside it;
 *  - the inverse (cedar_tile_coord) undoes the forward map;
 *  - the whole-surface de-tile agrees with the per-pixel map, and tiling the
 *    de-tiled planes back gives the original bytes (tile-then-detile identity);
 *  - FMask: every (pixel, sample, plane) bit has its own bit in the surface.
 * Configurations are drawn from a fixed-seed generator; the test checks that
 * every value of every parameter was exercised. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/tiling.h"
#include "common/test_util.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}
static unsigned pick(const unsigned *v, unsigned n) { return v[rnd() % n]; }

static const unsigned BPE[] = {1, 2, 4, 8, 16};
static const unsigned SAMPLES[] = {1, 2, 4, 8};
static const unsigned PIPES[] = {1, 2, 4, 8};
static const unsigned BANKS[] = {4, 8, 16};
static const unsigned P1248[] = {1, 2, 4, 8};
static const unsigned SPLIT[] = {64, 128, 256, 512, 1024, 2048, 4096};
static const unsigned GROUP[] = {256, 512};

#define MAX_BYTES (1u << 20)

struct coverage {
    unsigned mode[3], bpe[5], samples[4], pipes[4], banks[3], bankw[4], bankh[4], mtilea[4];
    unsigned split[7], group[2], slices[3], order[2], se8[3], split_used, msaa_split;
};

static unsigned idx_of(const unsigned *v, unsigned n, unsigned x)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return 0;
}

/* A random surface; returns 0 and fills m if the hardware can have it and it
 * is small enough to check exhaustively. */
static int random_surface(struct cedar_tile_map *m, struct cedar_surface *s,
                          struct cedar_tile_opts *o, int fmask_samples, int heavy)
{
    memset(s, 0, sizeof *s);
    memset(o, 0, sizeof *o);
    unsigned mode = rnd() % 3;
    if (fmask_samples)
        mode = 1 + rnd() % 2;
    s->mode = (enum cedar_array_mode)mode;
    s->bpe = pick(BPE, 5);
    s->samples = mode == CEDAR_MODE_2D_THIN ? pick(SAMPLES, 4) : 1;
    s->tiling.pipes = pick(PIPES, 4);
    s->tiling.banks = pick(BANKS, 3);
    s->tiling.group_bytes = pick(GROUP, 2);
    s->bankw = pick(P1248, 4);
    s->bankh = pick(P1248, 4);
    s->mtilea = pick(P1248, 4);
    s->tile_split = pick(SPLIT, 7);
    if (heavy) { /* large MSAA micro tiles, so that every tile split value splits */
        s->mode = CEDAR_MODE_2D_THIN;
        mode = CEDAR_MODE_2D_THIN;
        s->bpe = 8 << (rnd() % 2);
        s->samples = 8;
    }
    o->slices = 1 + rnd() % 3;
    o->order = rnd() % 2 ? CEDAR_MICRO_NON_DISPLAYABLE : CEDAR_MICRO_DISPLAYABLE;
    /* a depth surface's samples of a pixel side by side, now and then */
    o->depth_sample_order = !fmask_samples && s->samples > 1 && rnd() % 3 == 0;
    if (s->tiling.pipes == 8) {
        unsigned v = rnd() % 3; /* 1 SE; 2 SEs with 16- or 32-pixel SE tiles */
        o->shader_engines = v == 0 ? 1 : 2;
        o->se_tile = v == 1 ? 16 : 32;
    }
    unsigned aw = 8, ah = 8;
    if (mode == CEDAR_MODE_2D_THIN) {
        aw = 8 * s->bankw * s->tiling.pipes * s->mtilea;
        ah = s->mtilea <= s->tiling.banks ? 8 * s->bankh * s->tiling.banks / s->mtilea : 8;
    }
    s->aligned_width = aw * (1 + rnd() % 3);
    s->aligned_height = ah * (1 + rnd() % 3);
    if (mode == CEDAR_MODE_LINEAR_ALIGNED)
        s->aligned_height += rnd() % 8; /* linear: any height */
    s->width = s->aligned_width;
    s->height = s->aligned_height;
    struct cedar_layout_err err;
    int rc = fmask_samples ? cedar_fmask_map_init(m, s, (unsigned)fmask_samples, o, &err)
                           : cedar_tile_map_init(m, s, o, &err);
    if (rc != 0 || m->size > MAX_BYTES)
        return -1;
    return 0;
}

static void check_colour(const struct cedar_tile_map *m)
{
    uint8_t *hits = calloc(1, m->size);
    assert_non_null(hits);
    for (unsigned z = 0; z < m->slices; z++)
        for (unsigned s = 0; s < m->samples; s++)
            for (unsigned y = 0; y < m->height; y++)
                for (unsigned x = 0; x < m->width; x++) {
                    uint64_t a = cedar_tile_addr(m, x, y, s, z);
                    assert_true(a + m->bpe <= m->size);
                    assert_int_equal(a % m->bpe, 0);
                    for (unsigned b = 0; b < m->bpe; b++)
                        hits[a + b]++;
                }
    for (uint64_t i = 0; i < m->size; i++)
        if (hits[i] != 1)
            fail_msg("byte %llu of %llu hit %u times", (unsigned long long)i,
                     (unsigned long long)m->size, hits[i]);
    free(hits);

    /* cedar_tile_micro as tiling.h states it: for a tiled map 1..16 runs,
     * pixel index i of the micro tile at run[i / per_run] + (i % per_run) *
     * bpe, the same byte as the per-pixel map; no runs for a linear map */
    for (unsigned z = 0; z < m->slices; z++)
        for (unsigned s = 0; s < m->samples; s++)
            for (unsigned my = 0; my < m->height / 8; my++)
                for (unsigned mx = 0; mx < m->width / 8; mx++) {
                    uint64_t run[CEDAR_MICRO_RUNS_MAX];
                    unsigned n = cedar_tile_micro(m, mx, my, s, z, run);
                    if (m->mode == CEDAR_MODE_LINEAR_ALIGNED || m->depth_order) {
                        assert_int_equal(n, 0);
                        continue;
                    }
                    assert_true(n >= 1 && n <= CEDAR_MICRO_RUNS_MAX);
                    unsigned per_run = 64 / n;
                    for (unsigned y = my * 8; y < my * 8 + 8; y++)
                        for (unsigned x = mx * 8; x < mx * 8 + 8; x++) {
                            unsigned i = cedar_tile_pixel_index(m, x, y);
                            assert_int_equal(run[i / per_run] + (uint64_t)(i % per_run) * m->bpe,
                                             cedar_tile_addr(m, x, y, s, z));
                        }
                }

    /* cedar_tile_micro_runs as tiling.h states it: every sample of every
     * pixel of a micro tile at run[E / run_bytes] + E % run_bytes, the same
     * byte as the per-pixel map (colour and depth sample orders); no runs
     * for a linear map or when they would not fit */
    for (unsigned z = 0; z < m->slices; z++)
        for (unsigned my = 0; my < m->height / 8; my++)
            for (unsigned mx = 0; mx < m->width / 8; mx++) {
                uint64_t run[256];
                unsigned n = cedar_tile_micro_runs(m, mx, my, z, run, 256);
                if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
                    assert_int_equal(n, 0);
                    continue;
                }
                assert_int_equal((uint64_t)n * m->run_bytes, (uint64_t)64 * m->bpe * m->samples);
                if (n > 1)
                    assert_int_equal(cedar_tile_micro_runs(m, mx, my, z, run, n - 1), 0);
                for (unsigned s = 0; s < m->samples; s++)
                    for (unsigned y = my * 8; y < my * 8 + 8; y++)
                        for (unsigned x = mx * 8; x < mx * 8 + 8; x++) {
                            uint32_t e = cedar_tile_element_offset(m, x, y, s);
                            assert_int_equal(run[e / m->run_bytes] + e % m->run_bytes, cedar_tile_addr(m, x, y, s, z));
                        }
            }

    /* inverse, at random bytes and random elements */
    for (unsigned i = 0; i < 300; i++) {
        uint64_t off = ((uint64_t)rnd() << 20 ^ rnd()) % m->size;
        struct cedar_tile_coord c;
        assert_int_equal(cedar_tile_coord(m, off, &c), 0);
        assert_true(c.x < m->width && c.y < m->height && c.sample < m->samples && c.slice < m->slices);
        assert_int_equal(cedar_tile_addr(m, c.x, c.y, c.sample, c.slice) + c.byte, off);
    }
    struct cedar_tile_coord c;
    assert_int_equal(cedar_tile_coord(m, m->size, &c), -1);

    if (m->depth_order) {
        /* the copies refuse a depth sample order (tiling.h) */
        uint8_t *buf = calloc(1, m->size), *lin = calloc((size_t)m->width * m->height, m->bpe);
        assert_non_null(buf);
        assert_non_null(lin);
        assert_int_equal(cedar_detile(m, buf, m->size, lin, (size_t)m->width * m->bpe, 0, 0), -1);
        free(buf);
        free(lin);
        return;
    }

    /* whole-surface de-tile vs the map, and tile(detile(t)) == t */
    uint8_t *tiled = malloc(m->size), *back = calloc(1, m->size);
    size_t stride = (size_t)m->width * m->bpe + 8 * (rnd() % 2); /* padded rows too */
    uint8_t *lin = malloc(stride * m->height);
    assert_non_null(tiled);
    assert_non_null(back);
    assert_non_null(lin);
    for (uint64_t i = 0; i < m->size; i++)
        tiled[i] = (uint8_t)rnd();
    for (unsigned z = 0; z < m->slices; z++)
        for (unsigned s = 0; s < m->samples; s++) {
            assert_int_equal(cedar_detile(m, tiled, m->size, lin, stride, s, z), 0);
            for (unsigned y = 0; y < m->height; y++)
                for (unsigned x = 0; x < m->width; x++)
                    assert_memory_equal(lin + y * stride + (size_t)x * m->bpe,
                                        tiled + cedar_tile_addr(m, x, y, s, z), m->bpe);
            assert_int_equal(cedar_tile(m, back, m->size, lin, stride, s, z), 0);
        }
    assert_memory_equal(back, tiled, m->size);
    /* all samples in one pass == the per-sample planes (themselves checked
     * against the map above), and back */
    {
        size_t plane = stride * m->height + 8 * (rnd() % 2);
        uint8_t *all = malloc(plane * m->samples), *one = malloc(stride * m->height);
        assert_non_null(all);
        assert_non_null(one);
        memset(back, 0, m->size);
        for (unsigned z = 0; z < m->slices; z++) {
            assert_int_equal(cedar_detile_samples(m, tiled, m->size, all, stride, plane, z), 0);
            for (unsigned s = 0; s < m->samples; s++) {
                assert_int_equal(cedar_detile(m, tiled, m->size, one, stride, s, z), 0);
                for (unsigned y = 0; y < m->height; y++)
                    assert_memory_equal(all + s * plane + y * stride, one + y * stride,
                                        (size_t)m->width * m->bpe);
            }
            assert_int_equal(cedar_tile_samples(m, back, m->size, all, stride, plane, z), 0);
        }
        assert_memory_equal(back, tiled, m->size);
        /* refused: short buffer, slice out of range, overlapping planes */
        assert_int_equal(cedar_detile_samples(m, tiled, m->size - 1, all, stride, plane, 0), -1);
        assert_int_equal(cedar_detile_samples(m, tiled, m->size, all, stride, plane, m->slices), -1);
        if (m->samples > 1)
            assert_int_equal(cedar_detile_samples(m, tiled, m->size, all, stride,
                                                  stride * m->height - 1, 0), -1);
        free(all);
        free(one);
    }
    /* refused: short buffer, sample or slice out of range */
    assert_int_equal(cedar_detile(m, tiled, m->size - 1, lin, stride, 0, 0), -1);
    assert_int_equal(cedar_detile(m, tiled, m->size, lin, stride, m->samples, 0), -1);
    assert_int_equal(cedar_detile(m, tiled, m->size, lin, stride, 0, m->slices), -1);
    free(tiled);
    free(back);
    free(lin);
}

static void test_colour_configs(void **state)
{
    (void)state;
    struct coverage cov;
    memset(&cov, 0, sizeof cov);
    unsigned accepted = 0, tries = 0;
    while (accepted < 320) {
        assert_true(++tries < 200000);
        struct cedar_tile_map m;
        struct cedar_surface s;
        struct cedar_tile_opts o;
        if (random_surface(&m, &s, &o, 0, accepted % 4 == 0) != 0)
            continue;
        check_colour(&m);
        accepted++;
        cov.mode[s.mode]++;
        cov.bpe[idx_of(BPE, 5, s.bpe)]++;
        cov.slices[m.slices - 1]++;
        cov.order[o.order]++;
        cov.samples[idx_of(SAMPLES, 4, s.samples)]++;
        if (s.mode == CEDAR_MODE_2D_THIN) {
            cov.pipes[idx_of(PIPES, 4, s.tiling.pipes)]++;
            cov.banks[idx_of(BANKS, 3, s.tiling.banks)]++;
            cov.bankw[idx_of(P1248, 4, s.bankw)]++;
            cov.bankh[idx_of(P1248, 4, s.bankh)]++;
            cov.mtilea[idx_of(P1248, 4, s.mtilea)]++;
            cov.group[idx_of(GROUP, 2, s.tiling.group_bytes)]++;
            if (m.pieces > 1) {
                cov.split[idx_of(SPLIT, 7, s.tile_split)]++;
                cov.split_used++;
                if (s.samples > 1)
                    cov.msaa_split++;
            }
            if (s.tiling.pipes == 8)
                cov.se8[m.shader_engines == 1 ? 0 : m.se_tile == 16 ? 1 : 2]++;
        }
    }
    /* every value of every parameter was exercised */
    for (unsigned i = 0; i < 3; i++) assert_true(cov.mode[i] > 0 && cov.banks[i] > 0 && cov.slices[i] > 0 && cov.se8[i] > 0);
    for (unsigned i = 0; i < 5; i++) assert_true(cov.bpe[i] > 0);
    for (unsigned i = 0; i < 4; i++)
        assert_true(cov.samples[i] > 0 && cov.pipes[i] > 0 && cov.bankw[i] > 0 &&
                    cov.bankh[i] > 0 && cov.mtilea[i] > 0);
    for (unsigned i = 0; i < 2; i++) assert_true(cov.group[i] > 0 && cov.order[i] > 0);
    for (unsigned i = 0; i < 7; i++) {
        if (!cov.split[i])
            print_error("tile split %u never split a micro tile\n", SPLIT[i]);
        assert_true(cov.split[i] > 0);
    }
    assert_true(cov.msaa_split >= 20);
    print_message("colour configurations: %u checked (%u with tile split, %u MSAA with split)\n",
                  accepted, cov.split_used, cov.msaa_split);
}

/* The Cedar's own MSAA surface shape (seed write-up: 8x, 4 bytes, tile split
 * 512, bank 1x1, aspect 2) at a size small enough for the byte census. */
static void test_cedar_msaa_surface(void **state)
{
    (void)state;
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    s.mode = CEDAR_MODE_2D_THIN;
    s.aligned_width = 128;
    s.aligned_height = 96;
    s.bpe = 4;
    s.samples = 8;
    s.tile_split = 512;
    s.bankw = s.bankh = 1;
    s.mtilea = 2;
    s.tiling.pipes = 2;
    s.tiling.banks = 8;
    s.tiling.group_bytes = 256;
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &err), 0);
    assert_int_equal(m.pieces, 4);
    assert_int_equal(m.size, 128u * 96 * 4 * 8);
    check_colour(&m);
    /* Samples 0-1 are the first 512-byte piece; sample 2 starts the second
     * piece one piece-slice further, with the bank rotated by banks/2+1 = 5. */
    uint64_t a0 = cedar_tile_addr(&m, 0, 0, 0, 0), a2 = cedar_tile_addr(&m, 0, 0, 2, 0);
    unsigned bank0 = (unsigned)(a0 >> 9) & 7, bank2 = (unsigned)(a2 >> 9) & 7;
    assert_int_equal(bank0 ^ bank2, 5);
    assert_int_equal((a2 >> 12) - (a0 >> 12), m.piece_slice_bytes / 256);
}

/* Copies large enough to be split over threads (tile_copy.c splits from
 * 16 MiB): the demo's 8x colour surface (1280x736, 30 MiB, four pieces)
 * de-tiled in one pass, every element checked against the address map,
 * then tiled back to the same bytes; and a 2048x2048 single-sample one with
 * a padded stride.  A band lost or copied twice fails the element check. */
static void check_large(const struct cedar_surface *s, size_t pad)
{
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    assert_int_equal(cedar_tile_map_init(&m, s, NULL, &err), 0);
    size_t stride = (size_t)m.width * m.bpe + pad, plane = stride * m.height;
    uint8_t *tiled = malloc(m.size), *back = calloc(1, m.size), *all = malloc(plane * m.samples);
    assert_non_null(tiled);
    assert_non_null(back);
    assert_non_null(all);
    for (uint64_t i = 0; i < m.size; i++)
        tiled[i] = (uint8_t)rnd();
    assert_int_equal(cedar_detile_samples(&m, tiled, m.size, all, stride, plane, 0), 0);
    uint64_t wrong = 0;
    for (unsigned smp = 0; smp < m.samples; smp++)
        for (unsigned y = 0; y < m.height; y++)
            for (unsigned x = 0; x < m.width; x++)
                wrong += memcmp(all + smp * plane + y * stride + (size_t)x * m.bpe,
                                tiled + cedar_tile_addr(&m, x, y, smp, 0), m.bpe) != 0;
    assert_int_equal(wrong, 0);
    assert_int_equal(cedar_tile_samples(&m, back, m.size, all, stride, plane, 0), 0);
    assert_memory_equal(back, tiled, m.size);
    free(tiled);
    free(back);
    free(all);
}

static void test_large_copies(void **state)
{
    (void)state;
    /* the card's resolve target's parameters (HD 7350: 2 pipes, 8 banks) */
    struct cedar_surface s = test_card_frame_surface();
    s.width = s.aligned_width = 2048;
    s.height = s.aligned_height = 2048;
    check_large(&s, 64);
    /* the demo's 8x colour surface */
    s.width = s.aligned_width = 1280;
    s.height = s.aligned_height = 736;
    s.samples = 8;
    s.tile_split = 512;
    s.bankh = 1;
    check_large(&s, 0);
}

/* The accepted-th of a run of random FMask layouts, at 2, 4 and 8 samples in
 * turn; returns its sample count. */
static int next_fmask_surface(struct cedar_tile_map *m, struct cedar_surface *s, unsigned accepted)
{
    static const int FS[] = {2, 4, 8};
    int fs = FS[accepted % 3];
    struct cedar_tile_opts o;
    for (unsigned tries = 0; random_surface(m, s, &o, fs, 0) != 0; tries++)
        assert_true(tries < 200000);
    return fs;
}

static void test_fmask_configs(void **state)
{
    (void)state;
    unsigned accepted = 0, per[3] = {0, 0, 0};
    while (accepted < 60) {
        struct cedar_tile_map m;
        struct cedar_surface s;
        int fs = next_fmask_surface(&m, &s, accepted);
        accepted++;
        per[accepted % 3]++;
        unsigned planes = cedar_fmask_planes(&m);
        assert_int_equal(planes, fs == 8 ? 4 : 2);
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        assert_int_equal(cedar_tile_micro(&m, 0, 0, 0, 0, run), 0); /* no byte runs in an FMask */
        uint8_t *hits = calloc(1, m.size * 8);
        assert_non_null(hits);
        uint64_t marked = 0;
        for (unsigned z = 0; z < m.slices; z++)
            for (unsigned y = 0; y < m.height; y++)
                for (unsigned x = 0; x < m.width; x++)
                    for (unsigned smp = 0; smp < (unsigned)fs; smp++)
                        for (unsigned p = 0; p < planes; p++) {
                            uint64_t byte;
                            unsigned bit;
                            cedar_fmask_bit(&m, x, y, smp, p, z, &byte, &bit);
                            assert_true(byte < m.size && bit < 8);
                            assert_int_equal(hits[byte * 8 + bit]++, 0);
                            marked++;
                        }
        /* 4x/8x use every bit; 2x is laid out as 4x and uses half of them. */
        assert_int_equal(marked, fs == 2 ? m.size * 4 : m.size * 8);
        free(hits);
    }
    assert_true(per[0] && per[1] && per[2]);
}

/* cedar_fmask_micro (a micro tile's FMask addresses from one address per
 * byte run) against cedar_fmask_bit pixel by pixel, and
 * cedar_fmask_tile_fragments against cedar_fmask_fragment on random FMask
 * bytes, for every micro tile of every slice of random 1D and 2D FMask
 * layouts at 2, 4 and 8 samples. */
static void test_fmask_micro_tiles(void **state)
{
    (void)state;
    unsigned accepted = 0, per[3] = {0, 0, 0}, modes[3] = {0, 0, 0};
    while (accepted < 60) {
        struct cedar_tile_map m;
        struct cedar_surface s;
        int fs = next_fmask_surface(&m, &s, accepted);
        per[accepted % 3]++;
        modes[s.mode]++;
        accepted++;
        uint8_t *fmask = malloc(m.size);
        assert_non_null(fmask);
        for (uint64_t i = 0; i < m.size; i++)
            fmask[i] = (uint8_t)rnd();
        unsigned planes = cedar_fmask_planes(&m);
        for (unsigned z = 0; z < m.slices; z++)
            for (unsigned my = 0; my < m.height / 8; my++)
                for (unsigned mx = 0; mx < m.width / 8; mx++) {
                    uint64_t byte[64][4];
                    uint8_t bit0[64][4];
                    uint32_t frags[64];
                    assert_int_equal(cedar_fmask_micro(&m, mx, my, z, byte, bit0), planes);
                    cedar_fmask_tile_fragments(&m, fmask, mx, my, z, frags);
                    for (unsigned xy = 0; xy < 64; xy++) {
                        unsigned x = mx * 8 + xy % 8, y = my * 8 + xy / 8;
                        for (unsigned smp = 0; smp < (unsigned)fs; smp++) {
                            for (unsigned p = 0; p < planes; p++) {
                                uint64_t want;
                                unsigned bit;
                                cedar_fmask_bit(&m, x, y, smp, p, z, &want, &bit);
                                if (byte[xy][p] != want || bit0[xy][p] + smp != bit)
                                    fail_msg("%dx %s (%u,%u) slice %u sample %u plane %u: micro "
                                             "byte %llu bit %u, per pixel byte %llu bit %u",
                                             fs, s.mode == CEDAR_MODE_2D_THIN ? "2D" : "1D", x, y,
                                             z, smp, p, (unsigned long long)byte[xy][p],
                                             bit0[xy][p] + smp, (unsigned long long)want, bit);
                            }
                            unsigned f = (frags[xy] >> (4 * smp)) & 0xFu;
                            assert_int_equal(f, cedar_fmask_fragment(&m, fmask, x, y, smp, z));
                        }
                        if (fs < 8) /* no sample past the colour samples */
                            assert_int_equal(frags[xy] >> (4 * fs), 0);
                    }
                }
        free(fmask);
    }
    assert_true(per[0] && per[1] && per[2]);
    assert_true(modes[CEDAR_MODE_1D_THIN] && modes[CEDAR_MODE_2D_THIN]);
    /* a colour map has no FMask planes */
    struct cedar_tile_map c;
    struct cedar_surface cs;
    struct cedar_tile_opts co;
    while (random_surface(&c, &cs, &co, 0, 0) != 0)
        ;
    uint64_t byte[64][4];
    uint8_t bit0[64][4];
    assert_int_equal(cedar_fmask_micro(&c, 0, 0, 0, byte, bit0), 0);
}

/* FMask of the Cedar demo: 8x, 4 bits a sample, bit P of sample S of a pixel
 * is bit S of byte (pixel_index + 64 * P) of the 256-byte micro tile. */
static void test_fmask_8x_layout(void **state)
{
    (void)state;
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    s.mode = CEDAR_MODE_2D_THIN;
    s.aligned_width = 64;
    s.aligned_height = 32;
    s.tile_split = 512;
    s.bankw = s.bankh = 1;
    s.mtilea = 2;
    s.tiling.pipes = 2;
    s.tiling.banks = 8;
    s.tiling.group_bytes = 256;
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    assert_int_equal(cedar_fmask_map_init(&m, &s, 8, NULL, &err), 0);
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++)
            for (unsigned smp = 0; smp < 8; smp++)
                for (unsigned p = 0; p < 4; p++) {
                    uint64_t byte;
                    unsigned bit;
                    cedar_fmask_bit(&m, x, y, smp, p, 0, &byte, &bit);
                    /* micro tile (0,0): pipe 0, bank 0, so no swizzled bits */
                    unsigned morton = (x & 1) | (y & 1) << 1 | (x & 2) << 1 | (y & 2) << 2 |
                                      (x & 4) << 2 | (y & 4) << 3;
                    assert_int_equal(byte, morton + 64 * p);
                    assert_int_equal(bit, smp);
                }
}

/* Surfaces as the layout code (libdrm/Mesa rules) lays them out, for the
 * Cedar's tiling: every colour layout and FMask layout maps bijectively. */
static void test_layout_code_surfaces(void **state)
{
    (void)state;
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(CEDAR_HD7350_TILING_CONFIG, &t), 0);
    static const unsigned sizes[][2] = {{64, 64}, {200, 120}, {33, 17}};
    unsigned checked = 0;
    for (unsigned z = 0; z < 3; z++)
        for (unsigned b = 0; b < 5; b++)
            for (unsigned smp = 0; smp < 4; smp++) {
                struct cedar_surface_req req;
                memset(&req, 0, sizeof req);
                req.width = sizes[z][0];
                req.height = sizes[z][1];
                req.bpe = BPE[b];
                req.samples = SAMPLES[smp];
                req.mode = CEDAR_MODE_2D_THIN;
                struct cedar_surface s;
                struct cedar_layout_err err;
                if (cedar_surface_layout(&req, &t, &s, &err) != 0)
                    continue;
                struct cedar_tile_map m;
                if (cedar_tile_map_init(&m, &s, NULL, &err) != 0)
                    fail_msg("layout %ux%u bpe %u x%u: %s", req.width, req.height, req.bpe,
                             req.samples, err.msg);
                assert_true(m.size <= s.size);
                if (m.size <= MAX_BYTES)
                    check_colour(&m);
                checked++;
                if (req.samples > 1) {
                    struct cedar_fmask fm;
                    assert_int_equal(cedar_fmask_layout(&s, &fm, &err), 0);
                    struct cedar_tile_map f;
                    if (cedar_fmask_map_init(&f, &fm.surf, req.samples, NULL, &err) != 0)
                        fail_msg("FMask of %ux%u x%u: %s", req.width, req.height, req.samples, err.msg);
                    assert_true(f.size <= fm.surf.size);
                }
            }
    assert_true(checked >= 40);
}

static void test_rejects_impossible(void **state)
{
    (void)state;
    struct cedar_surface base;
    memset(&base, 0, sizeof base);
    base.mode = CEDAR_MODE_2D_THIN;
    base.aligned_width = 64;
    base.aligned_height = 64;
    base.bpe = 4;
    base.samples = 1;
    base.tile_split = 1024;
    base.bankw = 1;
    base.bankh = 2;
    base.mtilea = 2;
    base.tiling.pipes = 2;
    base.tiling.banks = 8;
    base.tiling.group_bytes = 256;
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    assert_int_equal(cedar_tile_map_init(&m, &base, NULL, &err), 0);
    struct cedar_surface s;
#define BAD(field, value)                                                   \
    do {                                                                    \
        s = base;                                                           \
        s.field = value;                                                    \
        err.msg[0] = 0;                                                     \
        assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &err), -1);      \
        assert_true(err.msg[0] != 0);                                       \
    } while (0)
    BAD(bpe, 3);
    BAD(bpe, 32);
    BAD(samples, 3);
    BAD(samples, 16);
    BAD(tiling.pipes, 3);
    BAD(tiling.banks, 2);
    BAD(tiling.banks, 32);
    BAD(tiling.group_bytes, 1024);
    BAD(bankw, 3);
    BAD(bankh, 16);
    BAD(mtilea, 16);
    BAD(tile_split, 32);
    BAD(tile_split, 8192);
    BAD(aligned_width, 48);      /* not whole macro tiles */
    BAD(aligned_height, 40);
    BAD(tile_split, 64);         /* 64 B x 1 x 2 < the 256-byte interleave */
    BAD(mode, (enum cedar_array_mode)7);
    s = base;
    s.mode = CEDAR_MODE_1D_THIN;
    s.samples = 4;               /* no 1D or linear MSAA on the hardware */
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &err), -1);
    s.mode = CEDAR_MODE_LINEAR_ALIGNED;
    assert_int_equal(cedar_tile_map_init(&m, &s, NULL, &err), -1);
    assert_int_equal(cedar_fmask_map_init(&m, &base, 1, NULL, &err), -1);
    assert_int_equal(cedar_fmask_map_init(&m, &base, 16, NULL, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_configs),
        cmocka_unit_test(test_cedar_msaa_surface),
        cmocka_unit_test(test_large_copies),
        cmocka_unit_test(test_fmask_configs),
        cmocka_unit_test(test_fmask_micro_tiles),
        cmocka_unit_test(test_fmask_8x_layout),
        cmocka_unit_test(test_layout_code_surfaces),
        cmocka_unit_test(test_rejects_impossible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
