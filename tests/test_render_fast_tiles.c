/* The colour block's whole-tile paths against the fragment-by-fragment and
 * pixel-by-pixel paths they stand for, byte for byte over the scene's whole
 * memory (colour samples, FMask, CMask, resolve target):
 *  - cb_write_whole_tile (64 fully covered fragments over a fast-cleared
 *    micro tile) against cb_write per fragment, on the demo scene drawn and
 *    resolved through the Evergreen interpreter at 2, 4 and 8 samples, with
 *    random colours (inside and outside [0, 1]) in random order over random
 *    FMask bytes (a fast clear leaves the last frame's FMask); and the
 *    cases it must turn down (a pixel missing, a sample uncovered, a tile
 *    already expanded, a pixel of another tile) leave memory untouched;
 *  - cb_tile_expand through the tile's kept addresses (the clear colour
 *    stored a run at a time, the FMask bits cleared span by span) against
 *    the same expansion pixel by pixel through the tiling functions (the
 *    target without its address tables), over random FMask bytes, at 2, 4
 *    and 8 samples;
 *  - cb_resolve_fragment0_tile (a tile whose samples all show fragment 0)
 *    against cb_resolve_pixel on every tile of the drawn scene, then with
 *    random FMask bits set in random covered tiles (which it must turn
 *    down: they are no longer all fragment 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/test_util.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define WRITE_TRIALS 12

static void same_bytes(const uint8_t *a, const uint8_t *b, size_t n, const char *what, unsigned ns)
{
    if (memcmp(a, b, n) != 0) {
        size_t i = 0;
        while (a[i] == b[i])
            i++;
        fail_msg("%ux %s: memory differs first at byte 0x%zx", ns, what, i);
    }
}

static float random_channel(void)
{
    /* mostly inside [0, 1], some outside, some exactly 0 or 1 */
    uint32_t r = test_rand();
    switch (r % 16) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -0.25f;
    case 3: return 1.5f;
    default: return (float)(test_rand() % 1000001) / 1000000.0f;
    }
}

/* A fast-cleared micro tile of the drawn scene (outside the triangle). */
static void pick_cleared_tile(struct cb_target *t, unsigned *x0, unsigned *y0)
{
    for (;;) {
        unsigned x = (test_rand() % (t->width / 8)) * 8, y = (test_rand() % (t->height / 8)) * 8;
        if (y + 8 <= t->height && cb_tile_cleared(t, x, y)) {
            *x0 = x;
            *y0 = y;
            return;
        }
    }
}

/* The demo scene drawn at ns samples, room for two copies of its memory
 * and a target to initialise over it. */
struct tile_case {
    struct scene sc;
    unsigned ns;
    size_t size;
    uint8_t *before, *fast;
    struct cb_target *t;
};

static void tile_case_open(struct tile_case *c, unsigned ns)
{
    test_scene_render_demo(&c->sc, ns);
    c->ns = ns;
    c->size = (size_t)c->sc.mem_size;
    c->before = malloc(c->size);
    c->fast = malloc(c->size);
    c->t = calloc(1, sizeof *c->t);
    assert_non_null(c->before);
    assert_non_null(c->fast);
    assert_non_null(c->t);
}

static void tile_case_close(struct tile_case *c)
{
    free(c->t);
    free(c->fast);
    free(c->before);
    scene_free(&c->sc);
}

/* A trial's start: CB0's target afresh, a fast-cleared tile (x0, y0) of it
 * whose FMask bits (and their neighbours) are random bytes, as a fast clear
 * leaves the last frame's FMask, and the memory saved in before. */
static void cleared_tile_trial(struct tile_case *c, unsigned *x0, unsigned *y0)
{
    struct cb_target *t = c->t;
    test_cb_target_init(&c->sc, t, 0, c->ns);
    pick_cleared_tile(t, x0, y0);
    const struct fmask_tile *ft = addr_table_fmask(t->ftab, *x0 / 8, *y0 / 8);
    assert_non_null(ft);
    assert_true(ft->span_len > 0);
    for (unsigned b = 0; b < ft->span_len; b++)
        c->sc.mem[(size_t)(t->fmask - c->sc.mem) + ft->span_lo + b] = (uint8_t)test_rand();
    memcpy(c->before, c->sc.mem, c->size);
}

static void whole_tile_write_matches_fragments(void **state)
{
    (void)state;
    const unsigned sample_counts[] = {2, 4, 8};
    test_rand_seed(0x5EED7A11u);
    for (unsigned k = 0; k < 3; k++) {
        unsigned ns = sample_counts[k];
        struct tile_case tc;
        tile_case_open(&tc, ns);
        uint8_t *mem = tc.sc.mem, *before = tc.before;
        size_t size = tc.size;
        struct cb_target *t = tc.t;
        const float cst[4] = {0, 0, 0, 0};
        unsigned taken = 0, refused = 0;
        for (unsigned trial = 0; trial < WRITE_TRIALS; trial++) {
            unsigned x0, y0;
            cleared_tile_trial(&tc, &x0, &y0);
            float rgba[64][4];
            struct cb_fragment f[64];
            unsigned order[64];
            for (unsigned i = 0; i < 64; i++)
                order[i] = i;
            for (unsigned i = 63; i > 0; i--) {
                unsigned j = test_rand() % (i + 1), tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
            uint32_t all = (1u << ns) - 1u;
            for (unsigned l = 0; l < 64; l++) {
                for (unsigned c = 0; c < 4; c++)
                    rgba[l][c] = random_channel();
                f[l] = (struct cb_fragment){x0 + order[l] % 8, y0 + order[l] / 8, all, rgba[l], NULL};
            }
            /* every fourth trial: something the whole-tile path must turn down */
            unsigned n = 64, spoil = trial % 4;
            if (spoil == 1)
                n = 63;                             /* a pixel missing */
            else if (spoil == 2)
                f[test_rand() % 64].coverage = all & ~(1u << (test_rand() % ns)); /* a sample uncovered */
            else if (spoil == 3)
                cb_tile_expand(t, x0, y0);          /* no longer fast-cleared */
            uint8_t *spoilt = spoil == 3 ? malloc(size) : NULL;
            if (spoilt)
                memcpy(spoilt, mem, size);
            bool done = cb_write_whole_tile(t, f, n);
            assert_int_equal(done, spoil == 0);
            if (!done) {
                refused++;
                same_bytes(spoilt ? spoilt : before, mem, size, "a refused whole-tile write", ns);
                free(spoilt);
                memcpy(mem, before, size);
                continue;
            }
            taken++;
            memcpy(tc.fast, mem, size);
            memcpy(mem, before, size);
            test_cb_target_init(&tc.sc, t, 0, ns);
            for (unsigned l = 0; l < n; l++)
                cb_write(t, cst, f[l].x, f[l].y, f[l].coverage, f[l].rgba);
            same_bytes(tc.fast, mem, size, "whole-tile write vs cb_write per fragment", ns);
            memcpy(mem, before, size);
        }
        printf("%ux: %u whole-tile writes equal to cb_write's, %u turned down untouched\n", ns, taken, refused);
        assert_int_equal(taken, WRITE_TRIALS - WRITE_TRIALS / 4 * 3);
        tile_case_close(&tc);
    }
}

/* cb_tile_expand through the kept addresses against the same expansion
 * through the tiling functions (the target without its tables), from a
 * pixel anywhere in the tile. */
static void expand_matches_pixels(void **state)
{
    (void)state;
    const unsigned sample_counts[] = {2, 4, 8};
    test_rand_seed(0xE7A4D001u);
    for (unsigned k = 0; k < 3; k++) {
        struct tile_case tc;
        tile_case_open(&tc, sample_counts[k]);
        for (unsigned trial = 0; trial < WRITE_TRIALS; trial++) {
            unsigned x0, y0;
            cleared_tile_trial(&tc, &x0, &y0);
            struct cb_target *t = tc.t;
            assert_true(t->meta_apart && t->bpe == 4 && t->per_run >= 64 && t->ctab && t->ftab);
            unsigned x = x0 + test_rand() % 8, y = y0 + test_rand() % 8;
            cb_tile_expand(t, x, y);
            assert_false(cb_tile_cleared(t, x0, y0));
            memcpy(tc.fast, tc.sc.mem, tc.size);
            memcpy(tc.sc.mem, tc.before, tc.size);
            test_cb_target_init(&tc.sc, t, 0, tc.ns);
            t->ctab = t->ftab = NULL;
            cb_tile_expand(t, x, y);
            same_bytes(tc.fast, tc.sc.mem, tc.size, "tile expansion by runs vs pixel by pixel", tc.ns);
        }
        tile_case_close(&tc);
    }
}

/* Resolve every tile: by the fragment-0 path where it takes the tile, else
 * pixel by pixel; count what it took. */
static unsigned resolve_mixed(struct cb_target *src, struct cb_target *dst)
{
    unsigned taken = 0;
    for (unsigned y = 0; y + 8 <= dst->height && y + 8 <= src->height; y += 8)
        for (unsigned x = 0; x + 8 <= dst->width; x += 8) {
            if (!cb_tile_cleared(src, x, y)) {
                const struct fmask_tile *ft = addr_table_fmask(src->ftab, x / 8, y / 8);
                const struct color_tile *sct = addr_table_color(src->ctab, x / 8, y / 8);
                const struct color_tile *dct = addr_table_color(dst->ctab, x / 8, y / 8);
                assert_non_null(ft);
                assert_non_null(sct);
                assert_non_null(dct);
                if (cb_resolve_fragment0_tile(src, dst, ft, sct, dct)) {
                    taken++;
                    continue;
                }
            }
            for (unsigned py = y; py < y + 8; py++)
                for (unsigned px = x; px < x + 8; px++)
                    cb_resolve_pixel(src, dst, px, py);
        }
    return taken;
}

static void resolve_by_pixel(struct cb_target *src, struct cb_target *dst)
{
    for (unsigned y = 0; y < dst->height; y++)
        for (unsigned x = 0; x < dst->width; x++)
            cb_resolve_pixel(src, dst, x, y);
}

static void fragment0_resolve_matches_pixels(void **state)
{
    (void)state;
    const unsigned sample_counts[] = {2, 4, 8};
    test_rand_seed(0xF4A90u);
    for (unsigned k = 0; k < 3; k++) {
        unsigned ns = sample_counts[k];
        struct scene sc;
        /* CB1 as the scene's resolve sets it, without CMask / FMask (as
         * test_render_resolve_tile does) */
        struct cb_target *src, *dst;
        test_scene_resolve_targets(&sc, ns, &src, &dst);
        size_t size = (size_t)dst->map.size;
        uint8_t *by_pixel = malloc(size);
        assert_non_null(by_pixel);

        for (unsigned round = 0; round < 2; round++) {
            if (round == 1) {
                /* random FMask bits in 200 random covered tiles: pixels
                 * showing other fragments (whose planes hold whatever the
                 * surface held) */
                unsigned spoilt = 0;
                while (spoilt < 200) {
                    unsigned x = (test_rand() % (src->width / 8)) * 8, y = (test_rand() % (src->height / 8)) * 8;
                    if (cb_tile_cleared(src, x, y))
                        continue;
                    const struct fmask_tile *ft = addr_table_fmask(src->ftab, x / 8, y / 8);
                    assert_non_null(ft);
                    assert_true(ft->span_len > 0);
                    unsigned at = test_rand() % ft->span_len;
                    src->fmask[ft->span_lo + at] |= (uint8_t)(test_rand() & ft->span_used[at]);
                    spoilt++;
                }
            }
            memset(dst->mem, 0xA5, size);
            resolve_by_pixel(src, dst);
            memcpy(by_pixel, dst->mem, size);
            memset(dst->mem, 0xA5, size);
            unsigned taken = resolve_mixed(src, dst);
            same_bytes(by_pixel, dst->mem, size, round ? "fragment-0 resolve, random FMask" : "fragment-0 resolve",
                       ns);
            printf("%ux round %u: %u tiles by the fragment-0 copy, the rest pixel by pixel: equal\n", ns, round,
                   taken);
            assert_true(taken > 3000); /* the triangle's inside (about 3,700 tiles) */
        }
        free(by_pixel);
        free(src);
        free(dst);
        scene_free(&sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_tile_write_matches_fragments),
        cmocka_unit_test(expand_matches_pixels),
        cmocka_unit_test(fragment0_resolve_matches_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
