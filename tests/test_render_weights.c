/* The batched pixel path's weights (interp.c spi_weights_batch, which
 * draw.c's batches use: the perspective and
 * linear (i, j) of a whole batch in loops, its two divisions per pixel as
 * one two-lane division) against the per-pixel computation it stands for
 * (spi_weights, which draw.c weights_at calls on an unclipped primitive),
 * bit for bit (memcmp of the floats):
 *  - the (i, j) the rasteriser (rs_triangle) gives the pixels of random
 *    triangles at 1, 2, 4 and 8 samples: anywhere on the 16384-pixel
 *    screen, from slivers and sub-pixel triangles (weights far outside
 *    [0, 1] at partly covered pixels, whose centres may lie outside) to
 *    40-pixel ones, plus the weights of whole 8x8 blocks stepped from the
 *    integer edge values (struct rs_block), in batches of 1 to 64 pixels;
 *  - (i, j) straight from the generator: magnitudes from 2^-40 to 2^40,
 *    both signs, the cancellations of 1 - i - j, a weighted sum of exactly
 *    0 (the linear fallback), and quotients that are exactly half-way
 *    between two floats (where a different rounding of the division shows);
 *  - every set (centre, centroid, sample) the draw asks for, with and
 *    without perspective correction, and nothing written for the others.
 * Checked by hand when this was written: regrouping the batch path's sum
 * (p0 + (p1 + p2)) or 1 - i - j, or a product by the reciprocal in place
 * of its division, fails test_generated_weights (the reciprocal also
 * test_exact_ties).  The rasterised pixels alone catch none of these: their
 * weights are too tame for a last-bit difference in a double to reach the
 * float. */
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
#include "src/render/interp.h"
#include "src/render/render_priv.h"

#define GRID_BITS 12                         /* rs_vertex units: 1/4096 pixel (raster.c) */
#define SCREEN 16384                         /* pixels: the rasteriser's coordinate range */
#define CENTRE ((1u << VC_BARYC_PERSP_CENTER) | (1u << VC_BARYC_LINEAR_CENTER))

/* A batch of pixels' (i, j) waiting to be compared, and the tallies. */
struct checker {
    double ij[EG_PS_BATCH_MAX][2];
    unsigned n, want;                        /* filled, flushed at */
    float inv_w[3];
    unsigned long pixels, outside, mismatches;
};

static float log_uniform(int lo_exp, int hi_exp)
{
    double e = lo_exp + (hi_exp - lo_exp) * (test_rand() / 4294967296.0);
    return (float)exp2(e);
}

/* 1/w per vertex: spread over 2^-20 .. 2^20, sometimes all equal. */
static void random_inv_w(float inv_w[3])
{
    for (int k = 0; k < 3; k++)
        inv_w[k] = log_uniform(-20, 20);
    if (test_rand() % 8 == 0)
        inv_w[1] = inv_w[2] = inv_w[0];
}

/* The centre weights of pixels 0 .. n-1 at (i, j) ij[l] as the batch
 * computes them into fast[l] and as spi_weights does into general[l]:
 * {persp i, persp j, linear i, linear j}. */
static void centre_weights(const float inv_w[3], const double (*ij)[2], unsigned n, float (*fast)[4],
                           float (*general)[4])
{
    struct spi_link link = {.persp_corr_dis = false};
    static double ij3[EG_PS_BATCH_MAX][3][2];
    static struct vc_pixel_in out[EG_PS_BATCH_MAX];
    assert_true(n <= EG_PS_BATCH_MAX);
    for (unsigned l = 0; l < n; l++) {
        const double lin[3] = {1.0 - ij[l][0] - ij[l][1], ij[l][0], ij[l][1]};
        spi_weights(&link, lin, inv_w, &general[l][0], &general[l][2]);
        memcpy(ij3[l][0], ij[l], sizeof ij3[l][0]);
    }
    spi_weights_batch(&link, inv_w, (const double(*)[3][2])ij3, n, CENTRE, out);
    for (unsigned l = 0; l < n; l++) {
        memcpy(&fast[l][0], out[l].ij[VC_BARYC_PERSP_CENTER], 2 * sizeof(float));
        memcpy(&fast[l][2], out[l].ij[VC_BARYC_LINEAR_CENTER], 2 * sizeof(float));
    }
}

static void flush(struct checker *c)
{
    float fast[EG_PS_BATCH_MAX][4], general[EG_PS_BATCH_MAX][4];
    if (c->n == 0)
        return;
    centre_weights(c->inv_w, (const double(*)[2])c->ij, c->n, fast, general);
    for (unsigned l = 0; l < c->n; l++) {
        c->pixels++;
        if (c->ij[l][0] < 0 || c->ij[l][1] < 0 || c->ij[l][0] + c->ij[l][1] > 1)
            c->outside++;
        if (memcmp(fast[l], general[l], sizeof fast[l]) != 0) {
            if (c->mismatches++ < 5)
                print_error("pixel (i, j) = (%a, %a), 1/w = (%a, %a, %a): batch {%a %a %a %a} "
                            "per-pixel {%a %a %a %a}\n",
                            c->ij[l][0], c->ij[l][1], c->inv_w[0], c->inv_w[1], c->inv_w[2], fast[l][0], fast[l][1],
                            fast[l][2], fast[l][3], general[l][0], general[l][1], general[l][2], general[l][3]);
        }
    }
    c->n = 0;
    c->want = 1 + test_rand() % EG_PS_BATCH_MAX;     /* flush_pending sees batches of any size */
}

static void push(struct checker *c, double i, double j)
{
    c->ij[c->n][0] = i;
    c->ij[c->n][1] = j;
    if (++c->n >= c->want)
        flush(c);
}

static int on_pixel(void *ctx, const struct rs_pixel *px)
{
    push(ctx, px->center_ij[0], px->center_ij[1]);
    return 0;
}

/* A fully covered block: its weights as draw.c shade_block steps them
 * (struct rs_block's formula), then its pixels one by one as well. */
static int on_block(void *ctx, const struct rs_block *b)
{
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++)
            push(ctx, (double)(b->e[0] + i * b->step_x[0] + j * b->step_y[0]) * b->inv_area,
                 (double)(b->e[1] + i * b->step_x[1] + j * b->step_y[1]) * b->inv_area);
    return 0;
}

/* Sample offsets in 1/16 pixel within [-8, 7], distinct per pixel. */
static void random_state(struct rs_state *s, unsigned samples)
{
    memset(s, 0, sizeof *s);
    s->subpix_bits = 8;
    s->sc_x1 = s->sc_y1 = SCREEN;
    s->samples = samples;
    for (unsigned i = 0; i < samples; i++) {
        s->sample_dx[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
        s->sample_dy[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
    }
    memset(s->aa_mask, 0xFF, sizeof s->aa_mask);
}

/* A vertex coordinate on the 1/256-pixel grid of QUANT_MODE 1/256, as
 * rs_vertex holds it (1/4096 units), clamped to the screen. */
static int64_t coord(double pixels)
{
    if (pixels < 0)
        pixels = 0;
    if (pixels > SCREEN - 1)
        pixels = SCREEN - 1;
    return (int64_t)floor(pixels * 256.0) << (GRID_BITS - 8);
}

static void random_triangle(struct rs_vertex v[3])
{
    double cx = (test_rand() % (SCREEN * 16u)) / 16.0, cy = (test_rand() % (SCREEN * 16u)) / 16.0;
    double size;
    switch (test_rand() % 4) {
    case 0: size = 0.05 + (test_rand() % 1000) / 1000.0; break;       /* sub-pixel */
    case 1: size = 1 + test_rand() % 8; break;
    default: size = 4 + test_rand() % 37; break;                       /* up to 40 pixels */
    }
    for (int k = 0; k < 3; k++) {
        double dx = size * ((test_rand() % 2001) / 1000.0 - 1), dy = size * ((test_rand() % 2001) / 1000.0 - 1);
        v[k] = (struct rs_vertex){coord(cx + dx), coord(cy + dy), 0.5f, 1.0f};
    }
    if (test_rand() % 4 == 0) {
        /* a sliver: the third vertex a few 1/256 pixel off the line of the other two */
        v[2].x = v[0].x + (v[1].x - v[0].x) / 2 + (int64_t)(test_rand() % 5) * 16;
        v[2].y = v[0].y + (v[1].y - v[0].y) / 2 + (int64_t)(test_rand() % 5) * 16;
    }
}

static void test_rasterised_pixels(void **state)
{
    (void)state;
    test_rand_seed(0x7e16475u);
    static const unsigned sample_counts[] = {1, 2, 4, 8};
    for (unsigned si = 0; si < 4; si++) {
        struct checker c = {.want = EG_PS_BATCH_MAX};
        struct rs_state s;
        random_state(&s, sample_counts[si]);
        for (unsigned t = 0; t < 1500; t++) {
            struct rs_vertex v[3];
            random_triangle(v);
            random_inv_w(c.inv_w);
            assert_int_equal(rs_triangle(&s, v, on_pixel, on_block, &c), 0);
            flush(&c);      /* a batch never spans two primitives */
        }
        printf("  %ux: %lu pixels (%lu with the centre outside the triangle), %lu differ\n", sample_counts[si],
               c.pixels, c.outside, c.mismatches);
        assert_int_equal(c.mismatches, 0);
        /* the inputs did reach the cases meant (a single sample sits at
         * the centre: no covered pixel has its centre outside) */
        assert_true(c.pixels > 20000);
        assert_true(sample_counts[si] == 1 ? c.outside == 0 : c.outside > 1000);
    }
}

static double signed_log_uniform(int lo_exp, int hi_exp)
{
    double m = log_uniform(lo_exp, hi_exp);
    m *= 1 + (test_rand() / 4294967296.0);     /* more mantissa bits than a float's */
    return test_rand() & 1 ? -m : m;
}

static void test_generated_weights(void **state)
{
    (void)state;
    test_rand_seed(0x3e1947u);
    struct checker c = {.want = EG_PS_BATCH_MAX};
    for (unsigned t = 0; t < 3000; t++) {
        random_inv_w(c.inv_w);
        for (unsigned l = 0; l < 64; l++) {
            double i, j;
            switch (test_rand() % 4) {
            case 0:      /* anything */
                i = signed_log_uniform(-40, 40);
                j = signed_log_uniform(-40, 40);
                break;
            case 1:      /* 1 - i - j cancels: i + j near 1, one of them large */
                i = signed_log_uniform(0, 40);
                j = 1 - i + signed_log_uniform(-50, -10);
                break;
            case 2:      /* inside, near an edge */
                i = (test_rand() / 4294967296.0);
                j = (1 - i) * (1 - signed_log_uniform(-50, -20) * 0.5);
                break;
            default:     /* large and opposite: p1 and p2 cancel */
                i = signed_log_uniform(10, 40);
                j = -i * (double)c.inv_w[1] / (double)c.inv_w[2] * (1 + signed_log_uniform(-52, -30));
                break;
            }
            push(&c, i, j);
        }
        flush(&c);
    }
    printf("  %lu generated pixels, %lu differ\n", c.pixels, c.mismatches);
    assert_int_equal(c.mismatches, 0);
}

/* Quotients the division gives exactly, half-way between two floats: all
 * 1/w equal to an integer k, (i, j) multiples of 2^-26 with at most 25
 * significant bits, so 1 - i - j, the products and their sum (k) are exact
 * and p1 / sum is exactly i (a float tie, rounded to even).  For k = 49,
 * 105, 117 and 123 the double nearest 1/k is off by nearly half an ulp, so
 * a product by the reciprocal instead of the division lands on a double
 * beside the tie and rounds the other way for about a third of the pixels
 * (measured when this was written: 0 of them for k = 3, 0.75, 1536). */
static void test_exact_ties(void **state)
{
    (void)state;
    test_rand_seed(0x71e5u);
    static const float ks[] = {49.0f, 105.0f, 117.0f, 123.0f, 3.0f, 0.75f, 1536.0f};
    struct checker c = {.want = EG_PS_BATCH_MAX};
    unsigned ties = 0;
    for (unsigned ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        c.inv_w[0] = c.inv_w[1] = c.inv_w[2] = ks[ki];
        for (unsigned t = 0; t < 2000; t++) {
            /* i in [1/4, 1/2) (floats 2^-25 apart) with its 2^-26 bit
             * set: half-way between two floats */
            double i = ((1u << 24) | (test_rand() & ((1u << 24) - 1)) | 1u) * 0x1p-26;
            double j = (test_rand() % (1u << 24)) * 0x1p-26;
            ties += (float)i != i;
            push(&c, i, j);
        }
        flush(&c);
    }
    printf("  %lu tie quotients, %lu differ\n", c.pixels, c.mismatches);
    assert_int_equal(c.mismatches, 0);
    assert_true(ties == c.pixels);
}

/* The weighted sum exactly 0 (p0 = -p2, p1 = 0): both paths fall back to
 * the linear weights, and 1/w of 0 (not made by the draw, but a lane
 * value the batch must handle like the pixel path). */
static void test_zero_sum(void **state)
{
    (void)state;
    const float inv_w[3] = {1.0f, 0.75f, 0.5f};
    const double ij[4][2] = {{0, 2}, {0, 2 + 0x1p-40}, {0, 0}, {0.5, 0.25}};
    float fast[4][4], general[4][4];
    centre_weights(inv_w, ij, 4, fast, general);
    assert_memory_equal(fast, general, sizeof fast);
    /* (0, 2): p0 = -1, p2 = 1: the linear pair, as spi_weights gives it */
    assert_true(fast[0][0] == 0.0f && fast[0][1] == 2.0f && fast[0][2] == 0.0f && fast[0][3] == 2.0f);
    /* the zero sum in the second lane of a pair, and in a pair's both */
    const double ij2[4][2] = {{0.5, 0.25}, {0, 2}, {0, 2}, {0, 2}};
    centre_weights(inv_w, ij2, 4, fast, general);
    assert_memory_equal(fast, general, sizeof fast);
    assert_true(fast[1][0] == 0.0f && fast[1][1] == 2.0f && fast[3][0] == 0.0f && fast[3][1] == 2.0f);
    const float zero_w[3] = {0.0f, 0.0f, 0.0f};
    centre_weights(zero_w, ij, 4, fast, general);
    assert_memory_equal(fast, general, sizeof fast);
}

/* The centroid and sample sets and perspective correction off: each pair
 * the draw asks for, from its own (i, j), as spi_weights gives it; the
 * pairs it does not ask for are not written. */
static void test_every_set(void **state)
{
    (void)state;
    test_rand_seed(0x5e75u);
    static double ij[EG_PS_BATCH_MAX][3][2];
    static struct vc_pixel_in out[EG_PS_BATCH_MAX];
    unsigned checked = 0;
    for (unsigned round = 0; round < 400; round++) {
        struct spi_link link = {.persp_corr_dis = round % 4 == 3};
        float inv_w[3];
        random_inv_w(inv_w);
        unsigned n = 1 + test_rand() % EG_PS_BATCH_MAX;
        uint32_t need = 1u + test_rand() % ((1u << VC_BARYC_COUNT) - 1u);
        for (unsigned l = 0; l < n; l++)
            for (unsigned set = 0; set < 3; set++)
                for (unsigned c = 0; c < 2; c++)
                    ij[l][set][c] = signed_log_uniform(-30, 3);
        memset(out, 0xA5, sizeof out);
        spi_weights_batch(&link, inv_w, (const double(*)[3][2])ij, n, need, out);
        for (unsigned l = 0; l < n; l++)
            for (unsigned set = 0; set < 3; set++) {
                uint32_t bits = (1u << (VC_BARYC_PERSP_CENTER + set)) | (1u << (VC_BARYC_LINEAR_CENTER + set));
                const float *persp = out[l].ij[VC_BARYC_PERSP_CENTER + set];
                const float *linear = out[l].ij[VC_BARYC_LINEAR_CENTER + set];
                if (!(need & bits)) {
                    uint8_t untouched[2 * sizeof(float)];
                    memset(untouched, 0xA5, sizeof untouched);
                    assert_memory_equal(persp, untouched, sizeof untouched);
                    assert_memory_equal(linear, untouched, sizeof untouched);
                    continue;
                }
                const double lin[3] = {1.0 - ij[l][set][0] - ij[l][set][1], ij[l][set][0], ij[l][set][1]};
                float want_p[2], want_l[2];
                spi_weights(&link, lin, inv_w, want_p, want_l);
                assert_memory_equal(persp, want_p, sizeof want_p);
                assert_memory_equal(linear, want_l, sizeof want_l);
                checked++;
            }
    }
    printf("  %u pairs of pixels' sets compared\n", checked);
    assert_true(checked > 1000);
}

/* rs_block_weights (a block's 64 edge weights, summed in double lanes
 * where that is exact) against its definition in render_priv.h, the int64
 * sum converted and multiplied, bit for bit: edge values and steps of
 * every magnitude from 1 to 2^62 and both signs (below, across and above
 * the 2^52 bound of the double lanes), random areas.  Checked by hand when
 * this was written: an edge unit added to every other column of the lanes'
 * sums fails it (the block-path render tests do not see a change that
 * small). */
static uint64_t rand64(void)
{
    return (uint64_t)test_rand() << 32 | test_rand();
}

static int64_t random_magnitude(unsigned max_bits)
{
    unsigned bits = test_rand() % (max_bits + 1);
    int64_t v = bits ? (int64_t)(rand64() >> (64 - bits)) : 0;
    return test_rand() % 2 ? -v : v;
}

static void test_block_weights(void **state)
{
    (void)state;
    test_rand_seed(0xB1E5);
    unsigned lanes_exact = 0, blocks = 0;
    for (unsigned k = 0; k < 20000; k++) {
        struct rs_block b = {.x = 8 * (int)(test_rand() % 64), .y = 8 * (int)(test_rand() % 64)};
        for (unsigned h = 0; h < 2; h++) {
            /* steps small enough that e + 7 sx + 7 sy stays inside int64 */
            b.step_x[h] = random_magnitude(58);
            b.step_y[h] = random_magnitude(58);
            b.e[h] = random_magnitude(61);
        }
        b.inv_area = 1.0 / (double)(1 + (rand64() >> (test_rand() % 64)));
        double lin[2][64];
        rs_block_weights(&b, lin[0], lin[1]);
        for (unsigned h = 0; h < 2; h++)
            for (unsigned l = 0; l < 64; l++) {
                int64_t sum = b.e[h] + (int64_t)(l % 8) * b.step_x[h] + (int64_t)(l / 8) * b.step_y[h];
                double want = (double)sum * b.inv_area;
                if (memcmp(&want, &lin[h][l], sizeof want) != 0)
                    fail_msg("block %u weight %u pixel %u: %a, want %a (e %lld, steps %lld %lld)", k, h, l,
                             lin[h][l], want, (long long)b.e[h], (long long)b.step_x[h], (long long)b.step_y[h]);
            }
        blocks++;
        int64_t big = (int64_t)1 << 48;
        lanes_exact += b.e[0] < big && b.e[0] > -big && b.step_x[0] < big / 64 && b.step_x[0] > -big / 64 &&
                       b.step_y[0] < big / 64 && b.step_y[0] > -big / 64;
    }
    printf("  %u blocks, %u with the first edge well inside the double lanes' range\n", blocks, lanes_exact);
    assert_true(lanes_exact > 1000 && lanes_exact < blocks - 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rasterised_pixels),
        cmocka_unit_test(test_generated_weights),
        cmocka_unit_test(test_exact_ties),
        cmocka_unit_test(test_zero_sum),
        cmocka_unit_test(test_every_set),
        cmocka_unit_test(test_block_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
