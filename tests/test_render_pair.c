/* raster.c rs_pair (the CB_RESOLVE draw's two halves of a quad in one pass)
 * against rs_triangle run on each half, the path it replaces: for random
 * quads (rectangles and parallelograms as draw.c makes them, corners on and
 * off sample positions, slivers, two triangles that share no edge), random
 * sample positions (also on pixel edges), scissors and AA masks at 1, 2, 4
 * and 8 samples, every pixel rs_pair gives must come once, with the union of
 * the coverage the two rs_triangle calls give it, and no pixel they cover
 * may be missing; a block handed to the block callback must be one whose
 * every pixel the two calls cover with every sample.  Also rs_triangle_quads
 * (the 2x2 quads of a pixel shader that reads its neighbours) against
 * rs_triangle on the same triangles: the same pixels with the same coverage
 * and weights, bit for bit, each once, in well-formed quads whose other
 * pixels (helpers) have no coverage and weights affine with the rest. */
#include <math.h>
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

#define AREA 96          /* pixels: the quads lie in [0, AREA)^2 */
#define GRID 4096        /* rs_vertex units per pixel (raster.c's grid) */

struct cover {
    uint32_t cov[AREA][AREA];
    unsigned calls[AREA][AREA];
    unsigned bad;        /* pixels outside the area */
};

static int record(void *ctx, const struct rs_pixel *px)
{
    struct cover *c = ctx;
    if (px->x < 0 || px->y < 0 || px->x >= AREA || px->y >= AREA) {
        c->bad++;
        return 0;
    }
    c->cov[px->y][px->x] |= px->coverage;
    c->calls[px->y][px->x]++;
    return 0;
}

/* A block handed over: all its pixels, every sample (checked later). */
static uint32_t block_all;
static unsigned blocks_taken;
static int take_block(void *ctx, const struct rs_block *b)
{
    struct cover *c = ctx;
    blocks_taken++;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) {
            struct rs_pixel px = {.x = b->x + i, .y = b->y + j, .coverage = block_all};
            record(c, &px);
        }
    return test_rand() % 4 ? 1 : 0; /* sometimes "do them one by one" */
}

static void random_state(struct rs_state *s, unsigned samples)
{
    memset(s, 0, sizeof *s);
    s->samples = samples;
    for (unsigned i = 0; i < samples; i++) {
        /* -8: half a pixel, a sample on the pixel's edge */
        s->sample_dx[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
        s->sample_dy[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
    }
    memset(s->aa_mask, 0xFF, sizeof s->aa_mask);
    if (test_rand() % 4 == 0)
        for (int q = 0; q < 4; q++)
            s->aa_mask[q] = (uint8_t)test_rand();
    s->sc_x0 = s->sc_y0 = 0;
    s->sc_x1 = s->sc_y1 = AREA;
    if (test_rand() % 3 == 0) {
        s->sc_x0 = (int)(test_rand() % 40);
        s->sc_y0 = (int)(test_rand() % 40);
        s->sc_x1 = s->sc_x0 + 1 + (int)(test_rand() % 56);
        s->sc_y1 = s->sc_y0 + 1 + (int)(test_rand() % 56);
    }
}

/* A coordinate: whole, half or sixteenth pixels (on sample positions), or
 * any 1/256 pixel. */
static int64_t coord(unsigned lo, unsigned span)
{
    int64_t whole = (int64_t)(lo + test_rand() % span) * GRID;
    switch (test_rand() % 4) {
    case 0: return whole;
    case 1: return whole + GRID / 2;
    case 2: return whole + (int64_t)(test_rand() % 16) * (GRID / 16);
    default: return whole + (int64_t)(test_rand() % 256) * (GRID / 256);
    }
}

/* The quad's corners as draw.c orders them (halves {0,1,2} and {2,1,3}). */
static void random_quad(struct rs_vertex c[4])
{
    memset(c, 0, 4 * sizeof *c);
    unsigned span = test_rand() % 3 == 0 ? 4 : 40;
    c[0].x = coord(4, span);
    c[0].y = coord(4, span);
    switch (test_rand() % 3) {
    case 0: /* a rectangle, as Mesa's blitter and the demo's resolve give it */
        c[1].x = c[0].x;
        c[1].y = c[0].y + coord(0, span) + 1;
        c[2].x = c[0].x + coord(0, span) + 1;
        c[2].y = c[0].y;
        break;
    case 1: /* a parallelogram */
        c[1].x = c[0].x + coord(0, span) - coord(0, span);
        c[1].y = c[0].y + coord(0, span);
        c[2].x = c[0].x + coord(0, span);
        c[2].y = c[0].y + coord(0, span) - coord(0, span);
        break;
    default: /* a sliver */
        c[1].x = c[0].x + coord(0, span);
        c[1].y = c[0].y + coord(0, span);
        c[2].x = c[0].x + (c[1].x - c[0].x) / 2 + (int64_t)(test_rand() % 5) * 16;
        c[2].y = c[0].y + (c[1].y - c[0].y) / 2 + (int64_t)(test_rand() % 5) * 16;
        break;
    }
    c[3].x = c[1].x + c[2].x - c[0].x;
    c[3].y = c[1].y + c[2].y - c[0].y;
    for (int k = 0; k < 4; k++) {
        if (c[k].x < 0) c[k].x = 0;
        if (c[k].y < 0) c[k].y = 0;
        if (c[k].x > (int64_t)(AREA - 1) * GRID) c[k].x = (int64_t)(AREA - 1) * GRID;
        if (c[k].y > (int64_t)(AREA - 1) * GRID) c[k].y = (int64_t)(AREA - 1) * GRID;
    }
}

static void pair_matches_halves(void **state)
{
    (void)state;
    test_rand_seed(0x9a1c0de5u);
    static const unsigned counts[] = {1, 2, 4, 8};
    static struct cover want, got;
    unsigned long pixels = 0, partial = 0, mismatches = 0, blocks = 0;
    blocks_taken = 0;
    for (unsigned si = 0; si < 4; si++) {
        for (unsigned trial = 0; trial < 1500; trial++) {
            struct rs_state s;
            random_state(&s, counts[si]);
            uint32_t all = (1u << counts[si]) - 1u;
            block_all = all;
            struct rs_vertex c[4], a[3], b[3];
            random_quad(c);
            a[0] = c[0], a[1] = c[1], a[2] = c[2];
            b[0] = c[2], b[1] = c[1], b[2] = c[3];
            if (trial % 10 == 0) /* two triangles that share no edge */
                b[2].x = c[3].x - GRID / 3;
            memset(&want, 0, sizeof want);
            memset(&got, 0, sizeof got);
            assert_int_equal(rs_triangle(&s, a, record, NULL, &want), 0);
            assert_int_equal(rs_triangle(&s, b, record, NULL, &want), 0);
            bool with_blocks = trial % 2;
            assert_int_equal(rs_pair(&s, a, b, record, with_blocks ? take_block : NULL, &got), 0);
            assert_int_equal(got.bad + want.bad, 0);
            for (int y = 0; y < AREA; y++)
                for (int x = 0; x < AREA; x++) {
                    uint32_t w = want.cov[y][x], g = got.cov[y][x];
                    /* a taken block says "all" of every pixel: each must be */
                    bool ok = got.calls[y][x] <= 1 + (with_blocks ? 1u : 0u) && g == w &&
                              (w == 0) == (got.calls[y][x] == 0);
                    if (!with_blocks && got.calls[y][x] > 1)
                        ok = false;
                    if (!ok && mismatches++ < 5)
                        print_error("%ux trial %u pixel (%d, %d): halves 0x%x, pair 0x%x in %u calls\n",
                                    counts[si], trial, x, y, w, g, got.calls[y][x]);
                    pixels += w != 0;
                    partial += w != 0 && w != all;
                }
        }
    }
    blocks = blocks_taken;
    printf("  %lu pixels (%lu partly covered), %lu blocks handed over, %lu differ\n", pixels, partial,
           blocks, mismatches);
    assert_int_equal(mismatches, 0);
    /* the inputs reached the cases meant */
    assert_true(pixels > 100000);
    assert_true(partial > 10000);
    assert_true(blocks > 1000);
}

/* ---- rs_triangle_quads against rs_triangle ---------------------------- */

struct pixels {
    struct rs_pixel px[AREA][AREA];
    unsigned calls[AREA][AREA];
    unsigned ns;
    bool per_sample;
    unsigned long quads, helpers, bad;
};

static int record_pixel(void *ctx, const struct rs_pixel *px)
{
    struct pixels *p = ctx;
    if (px->x < 0 || px->y < 0 || px->x >= AREA || px->y >= AREA) {
        p->bad++;
        return 0;
    }
    p->px[px->y][px->x] = *px;
    p->calls[px->y][px->x]++;
    return 0;
}

/* The fields rs_triangle sets for a pixel, bit for bit. */
static bool same_pixel(const struct rs_pixel *a, const struct rs_pixel *b, unsigned ns, bool per_sample)
{
    bool same = a->x == b->x && a->y == b->y && a->coverage == b->coverage &&
                memcmp(a->center_ij, b->center_ij, sizeof a->center_ij) == 0 &&
                memcmp(a->centroid_ij, b->centroid_ij, sizeof a->centroid_ij) == 0;
    for (unsigned i = 0; per_sample && i < ns; i++)
        same = same && memcmp(a->sample_ij[i], b->sample_ij[i], sizeof a->sample_ij[i]) == 0;
    return same;
}

/* A quad: laid out as promised, a covered pixel in it, its covered pixels
 * recorded (each must be rs_triangle's, once), helpers counted. */
static int record_quad(void *ctx, const struct rs_pixel q[4])
{
    struct pixels *p = ctx;
    p->quads++;
    uint32_t any = 0;
    for (int k = 0; k < 4; k++) {
        if ((q[0].x & 1) || (q[0].y & 1) || q[k].x != q[0].x + (k & 1) || q[k].y != q[0].y + (k >> 1))
            p->bad++;
        any |= q[k].coverage;
        if (q[k].coverage)
            record_pixel(p, &q[k]);
        else
            p->helpers++;
    }
    if (!any)
        p->bad++;
    /* the weights are affine in the pixel: the diagonals' sums agree */
    for (int h = 0; h < 2; h++) {
        double d = q[0].center_ij[h] + q[3].center_ij[h] - q[1].center_ij[h] - q[2].center_ij[h];
        double scale = fabs(q[0].center_ij[h]) + fabs(q[3].center_ij[h]) + 1.0;
        if (!(fabs(d) <= 1e-9 * scale))
            p->bad++;
    }
    return 0;
}

static void quads_match_pixels(void **state)
{
    (void)state;
    test_rand_seed(0x9ad5u);
    static const unsigned counts[] = {1, 2, 4, 8};
    static struct pixels want, got;
    unsigned long pixels = 0, mismatches = 0, quads = 0, helpers = 0;
    for (unsigned si = 0; si < 4; si++) {
        for (unsigned trial = 0; trial < 600; trial++) {
            struct rs_state s;
            random_state(&s, counts[si]);
            s.per_sample = counts[si] > 1 && trial % 3 == 0;
            struct rs_vertex c[4];
            random_quad(c);
            memset(&want, 0, sizeof want);
            memset(&got, 0, sizeof got);
            assert_int_equal(rs_triangle(&s, c, record_pixel, NULL, &want), 0);
            assert_int_equal(rs_triangle_quads(&s, c, record_quad, &got), 0);
            assert_int_equal(want.bad, 0);
            if (got.bad && mismatches++ < 5)
                print_error("%ux trial %u: %lu malformed quads\n", counts[si], trial, got.bad);
            for (int y = 0; y < AREA; y++)
                for (int x = 0; x < AREA; x++) {
                    bool ok = got.calls[y][x] == want.calls[y][x] &&
                              (!want.calls[y][x] ||
                               same_pixel(&got.px[y][x], &want.px[y][x], counts[si], s.per_sample));
                    if (!ok && mismatches++ < 5)
                        print_error("%ux trial %u pixel (%d, %d): %u calls, %u by quads, or other fields\n",
                                    counts[si], trial, x, y, want.calls[y][x], got.calls[y][x]);
                    pixels += want.calls[y][x];
                }
            quads += got.quads;
            helpers += got.helpers;
        }
    }
    printf("  %lu pixels in %lu quads (%lu helper pixels), %lu differ\n", pixels, quads, helpers, mismatches);
    assert_int_equal(mismatches, 0);
    assert_true(pixels > 50000);
    assert_true(helpers > 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pair_matches_halves),
        cmocka_unit_test(quads_match_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
