/* The short cuts of the point path (piglit's texelFetch tests draw a
 * 1-pixel point per texel and eliminate the window's fast clear after each
 * draw), each against an expectation worked out here:
 *  - raster.c's pixel box: a point (or rectangle) drawn as draw.c draws it,
 *    two halves {0, 1, 2} and {2, 1, 3} of the square around the snapped
 *    centre, must cover exactly the samples of the half-open square
 *    [x0, x1) x [y0, y1) (GL's point rule, samples on the top and left
 *    edges in, on the right and bottom edges out, as D3D's top-left rule
 *    settles them), each by one half, within the scissor and the AA mask:
 *    evaluated here for every pixel of the area, so a box that leaves out a
 *    pixel with a covered sample fails; at 1, 2, 4, 8 samples with random
 *    positions (also -8/16: on the pixel's edge), point sizes from 1/16
 *    pixel up, centres on the 1/256-pixel grid and on sample positions;
 *  - raster.c's one-pixel box (a triangle whose box is one pixel is scanned
 *    without the 8x8 blocks): the halves of small squares give
 *    rs_triangle_quads' pixels (the blocks' path) with the same coverage
 *    and weights bit for bit, and those weights are the barycentric weights
 *    of the centre, the centroid and each sample worked out here;
 *  - rs_rect_one_pixel_half (draw.c rasterises only that half of a 1-pixel
 *    point at one sample): the other half gives no pixel, and a half is
 *    named for every 1-pixel point at its pixel's centre;
 *  - cb_tile_expand on a fast-cleared 2D-tiled target without FMask (one
 *    sample or several, 2-, 4- and 8-byte elements): every sample of every
 *    pixel holds the clear words' bytes at the address the tiling map gives
 *    (cedar_tile_addr), every other byte is as it was, and no tile reads as
 *    cleared after;
 *  - a CB_ELIMINATE_FAST_CLEAR draw over the screen after a triangle
 *    (draw.c's whole 8x8 blocks: one expansion per micro tile): the same
 *    bytes and counters as the pixel-by-pixel path (vc_render_set_block_path
 *    off), every tile expanded. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/vc_hw.h"
#include "common/test_util.h"
#include "eg_regs.h"
#include "src/render/render_priv.h"

#define AREA 40          /* pixels: the points lie in [0, AREA)^2 */
#define GRID 4096        /* rs_vertex units per pixel (raster.c's grid) */

/* ---- points --------------------------------------------------------------- */

struct halves {
    uint32_t cov[2][AREA][AREA];
    unsigned calls[2][AREA][AREA];
    unsigned half;
    unsigned bad;        /* pixels outside the area */
};

static int record(void *ctx, const struct rs_pixel *px)
{
    struct halves *h = ctx;
    if (px->x < 0 || px->y < 0 || px->x >= AREA || px->y >= AREA) {
        h->bad++;
        return 0;
    }
    h->cov[h->half][px->y][px->x] |= px->coverage;
    h->calls[h->half][px->y][px->x]++;
    return 0;
}

static void random_state(struct rs_state *s, unsigned samples)
{
    memset(s, 0, sizeof *s);
    s->subpix_bits = 8;
    s->samples = samples;
    for (unsigned i = 0; i < samples; i++) {
        s->sample_dx[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
        s->sample_dy[i] = samples == 1 ? 0 : (int)(test_rand() % 16) - 8;
    }
    memset(s->aa_mask, 0xFF, sizeof s->aa_mask);
    if (test_rand() % 4 == 0)
        for (int q = 0; q < 4; q++)
            s->aa_mask[q] = (uint8_t)test_rand();
    s->sc_x1 = s->sc_y1 = AREA;
    if (test_rand() % 3 == 0) {
        s->sc_x0 = (int)(test_rand() % 20);
        s->sc_y0 = (int)(test_rand() % 20);
        s->sc_x1 = s->sc_x0 + 1 + (int)(test_rand() % 20);
        s->sc_y1 = s->sc_y0 + 1 + (int)(test_rand() % 20);
    }
}

/* A centre coordinate: a pixel centre (a 1-pixel point's own pixel), a
 * sample position of 1/16 pixel, or any 1/256 pixel. */
static int64_t centre(void)
{
    int64_t whole = (int64_t)(8 + test_rand() % (AREA - 16)) * GRID;
    switch (test_rand() % 3) {
    case 0: return whole + GRID / 2;
    case 1: return whole + (int64_t)(test_rand() % 16) * (GRID / 16);
    default: return whole + (int64_t)(test_rand() % 256) * (GRID / 256);
    }
}

/* A half size: a 1-pixel point (half a pixel), or 1/16 pixel .. 4 pixels. */
static int64_t half_size(void)
{
    return test_rand() % 2 ? GRID / 2 : (int64_t)(1 + test_rand() % 64) * (GRID / 16);
}

/* The corners of the square (or rectangle) of half sizes hx, hy around
 * (cx, cy) as draw.c makes them for a point. */
static void square(struct rs_vertex c[4], int64_t cx, int64_t cy, int64_t hx, int64_t hy)
{
    for (int q = 0; q < 4; q++) {
        memset(&c[q], 0, sizeof c[q]);
        c[q].x = cx + ((q & 1) ? hx : -hx);
        c[q].y = cy + ((q & 2) ? hy : -hy);
        c[q].inv_w = 1.0f;
    }
}

static void points_cover_half_open_squares(void **state)
{
    (void)state;
    static const unsigned counts[] = {1, 2, 4, 8};
    static const unsigned tris[2][3] = {{0, 1, 2}, {2, 1, 3}};   /* draw.c draw_quad */
    static struct halves h;
    test_rand_seed(0x9017);
    unsigned covered_pixels = 0;
    for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (unsigned k = 0; k < 1500; k++) {
            unsigned ns = counts[ci];
            struct rs_state s;
            random_state(&s, ns);
            int64_t cx = centre(), cy = centre(), hx = half_size(), hy = test_rand() % 4 ? hx : half_size();
            struct rs_vertex c[4];
            square(c, cx, cy, hx, hy);
            memset(&h, 0, sizeof h);
            for (h.half = 0; h.half < 2; h.half++) {
                struct rs_vertex v[3] = {c[tris[h.half][0]], c[tris[h.half][1]], c[tris[h.half][2]]};
                assert_int_equal(rs_triangle(&s, v, record, NULL, &h), 0);
            }
            assert_int_equal(h.bad, 0);
            int64_t x0 = cx - hx, x1 = cx + hx, y0 = cy - hy, y1 = cy + hy;
            for (int y = 0; y < AREA; y++)
                for (int x = 0; x < AREA; x++) {
                    /* GL: the samples inside the square, on the sample grid
                     * (centre + offset / 16), the top-left edges in */
                    uint32_t want = 0;
                    for (unsigned i = 0; i < ns; i++) {
                        int64_t sx = (int64_t)x * GRID + GRID / 2 + s.sample_dx[i] * (GRID / 16);
                        int64_t sy = (int64_t)y * GRID + GRID / 2 + s.sample_dy[i] * (GRID / 16);
                        if (sx >= x0 && sx < x1 && sy >= y0 && sy < y1)
                            want |= 1u << i;
                    }
                    if (x < s.sc_x0 || x >= s.sc_x1 || y < s.sc_y0 || y >= s.sc_y1)
                        want = 0;
                    want &= s.aa_mask[(y & 1) * 2 + (x & 1)];
                    uint32_t a = h.cov[0][y][x], b = h.cov[1][y][x];
                    if ((a | b) != want || (a & b) || h.calls[0][y][x] > 1 || h.calls[1][y][x] > 1)
                        fail_msg("%ux point %u, centre (%lld, %lld)/4096, half (%lld, %lld)/4096: pixel (%d, %d) "
                                 "halves 0x%x + 0x%x (calls %u, %u), the square's samples 0x%x",
                                 ns, k, (long long)cx, (long long)cy, (long long)hx, (long long)hy, x, y, a, b,
                                 h.calls[0][y][x], h.calls[1][y][x], want);
                    covered_pixels += want != 0;
                }
        }
    /* the points cover something: thousands of pixels */
    assert_true(covered_pixels > 5000);
}

/* ---- one-pixel boxes ------------------------------------------------------- */

struct one_pixel {
    struct rs_pixel px[4];   /* the pixels given, in order (a box of 2x2 pixels at most) */
    unsigned n;
    bool quads;              /* from rs_triangle_quads: covered pixels only */
};

static int record_one(void *ctx, const struct rs_pixel *px)
{
    struct one_pixel *o = ctx;
    if (o->n < 4)
        o->px[o->n] = *px;
    o->n++;
    return 0;
}

static int record_one_quad(void *ctx, const struct rs_pixel q[4])
{
    for (int k = 0; k < 4; k++)
        if (q[k].coverage)
            record_one(ctx, &q[k]);
    return 0;
}

/* The weight of vertex k (1 or 2) of v at the point (px, py) (grid units):
 * the signed area of v with vertex k moved there over v's, in doubles from
 * exact integers (raster.c keeps edge values and multiplies by 1 / area). */
static double bary(const struct rs_vertex v[3], int k, int64_t px, int64_t py)
{
    int64_t x[3] = {v[0].x, v[1].x, v[2].x}, y[3] = {v[0].y, v[1].y, v[2].y};
    int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    x[k] = px;
    y[k] = py;
    int64_t part = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    return (double)part / (double)area;
}

/* raster.c scans a triangle whose pixel box is one pixel without its 8x8
 * blocks.  For the halves of points and small rectangles around random
 * centres (a pixel's centre, sample positions, any 1/256 pixel), half sizes
 * of 1/16 .. 1/2 pixel, random sample positions, AA masks and scissors, at
 * 1, 2, 4 and 8 samples, shading per sample or not: rs_triangle gives the
 * pixels rs_triangle_quads gives (the blocks' path), with the same
 * coverage and weights bit for bit, and its centre, centroid and sample
 * weights are the barycentric weights of those points worked out here. */
static void one_pixel_boxes_match_blocks(void **state)
{
    (void)state;
    static const unsigned counts[] = {1, 2, 4, 8};
    static const unsigned tris[2][3] = {{0, 1, 2}, {2, 1, 3}};   /* draw.c draw_quad */
    test_rand_seed(0x1b0c);
    unsigned long one_box = 0, pixels = 0, partial = 0;
    for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (unsigned k = 0; k < 3000; k++) {
            unsigned ns = counts[ci];
            struct rs_state s;
            random_state(&s, ns);
            s.per_sample = ns > 1 && k % 3 == 0;
            int64_t cx = centre(), cy = centre();
            int64_t hx = k % 2 ? GRID / 2 : (int64_t)(1 + test_rand() % 8) * (GRID / 16);
            int64_t hy = test_rand() % 4 ? hx : (int64_t)(1 + test_rand() % 8) * (GRID / 16);
            struct rs_vertex c[4];
            square(c, cx, cy, hx, hy);
            for (unsigned half = 0; half < 2; half++) {
                struct rs_vertex v[3] = {c[tris[half][0]], c[tris[half][1]], c[tris[half][2]]};
                struct one_pixel got = {0}, want = {.quads = true};
                assert_int_equal(rs_triangle(&s, v, record_one, NULL, &got), 0);
                assert_int_equal(rs_triangle_quads(&s, v, record_one_quad, &want), 0);
                if (got.n != want.n)
                    fail_msg("%ux box %u half %u: %u pixels, %u by quads", ns, k, half, got.n, want.n);
                assert_true(got.n <= 4);
                /* a 1-pixel point at a pixel centre, one sample: the
                 * case of piglit's texelFetch points */
                one_box += half == 0 && ns == 1 && cx % GRID == GRID / 2 && cy % GRID == GRID / 2 && hx == GRID / 2 &&
                           hy == GRID / 2;
                for (unsigned i = 0; i < got.n && i < 4; i++) {
                    /* the same pixel among the quads' (their order differs) */
                    const struct rs_pixel *a = &got.px[i], *b = &want.px[0];
                    for (unsigned j = 0; j < want.n && j < 4; j++)
                        if (want.px[j].x == a->x && want.px[j].y == a->y)
                            b = &want.px[j];
                    bool same = a->x == b->x && a->y == b->y && a->coverage == b->coverage &&
                                memcmp(a->center_ij, b->center_ij, sizeof a->center_ij) == 0 &&
                                memcmp(a->centroid_ij, b->centroid_ij, sizeof a->centroid_ij) == 0;
                    for (unsigned j = 0; s.per_sample && j < ns; j++)
                        same = same && memcmp(a->sample_ij[j], b->sample_ij[j], sizeof a->sample_ij[j]) == 0;
                    if (!same)
                        fail_msg("%ux box %u half %u pixel (%d, %d): coverage 0x%x / 0x%x or weights differ from "
                                 "the quads'", ns, k, half, a->x, a->y, a->coverage, b->coverage);
                    /* the weights: the centre, the centroid (the covered
                     * sample nearest the centre, all covered: the centre),
                     * each sample */
                    int64_t px = (int64_t)a->x * GRID + GRID / 2, py = (int64_t)a->y * GRID + GRID / 2;
                    uint32_t all = (1u << ns) - 1u;
                    int cs = -1;
                    for (unsigned j = 0; a->coverage != all && j < ns; j++)
                        if ((a->coverage >> j) & 1u) {
                            int dj = s.sample_dx[j] * s.sample_dx[j] + s.sample_dy[j] * s.sample_dy[j];
                            int dc = cs < 0 ? 1 << 30
                                            : s.sample_dx[cs] * s.sample_dx[cs] + s.sample_dy[cs] * s.sample_dy[cs];
                            if (dj < dc)
                                cs = (int)j;
                        }
                    partial += cs >= 0;
                    for (int w = 1; w <= 2; w++) {
                        double ce = bary(v, w, px, py);
                        double cc = cs < 0 ? ce
                                           : bary(v, w, px + s.sample_dx[cs] * (GRID / 16),
                                                  py + s.sample_dy[cs] * (GRID / 16));
                        if (fabs(a->center_ij[w - 1] - ce) > 1e-9 || fabs(a->centroid_ij[w - 1] - cc) > 1e-9)
                            fail_msg("%ux box %u half %u pixel (%d, %d): weight %d %.17g / %.17g at the centre, "
                                     "%.17g / %.17g at the centroid", ns, k, half, a->x, a->y, w,
                                     a->center_ij[w - 1], ce, a->centroid_ij[w - 1], cc);
                        for (unsigned j = 0; s.per_sample && j < ns; j++) {
                            double sw = bary(v, w, px + s.sample_dx[j] * (GRID / 16), py + s.sample_dy[j] * (GRID / 16));
                            if (fabs(a->sample_ij[j][w - 1] - sw) > 1e-9)
                                fail_msg("%ux box %u half %u pixel (%d, %d): sample %u weight %d %.17g, want %.17g",
                                         ns, k, half, a->x, a->y, j, w, a->sample_ij[j][w - 1], sw);
                        }
                    }
                }
                pixels += got.n;
            }
        }
    printf("  %lu pixels (%lu with a centroid off the centre), %lu 1-pixel points at a pixel centre\n", pixels,
           partial, one_box);
    assert_true(pixels > 8000);
    assert_true(partial > 5000);
    assert_true(one_box > 100);
}

/* rs_rect_one_pixel_half (draw.c skips the other half of such a point):
 * for rectangles laid out as draw.c lays out a point's corners (also
 * mirrored: c[1] left of c[0], c[2] above it), half sizes 1/16 pixel .. 1.5
 * pixels, random centres, AA masks and scissors: at 1 sample, where it
 * names a half, rs_triangle gives no pixel for the other; it names one for
 * every 1-pixel point at its pixel's centre; at 2, 4 or 8 samples it names
 * none. */
static void one_pixel_rect_names_the_covering_half(void **state)
{
    (void)state;
    static const unsigned tris[2][3] = {{0, 1, 2}, {2, 1, 3}};   /* draw.c draw_quad */
    static struct halves h;
    test_rand_seed(0x0e1f);
    unsigned named = 0, covered = 0, centred = 0;
    for (unsigned k = 0; k < 8000; k++) {
        unsigned ns = k % 4 == 3 ? 1u << (1 + test_rand() % 3) : 1;
        struct rs_state s;
        random_state(&s, ns);
        int64_t cx = centre(), cy = centre();
        int64_t hx = k % 2 ? GRID / 2 : (int64_t)(1 + test_rand() % 24) * (GRID / 16);
        int64_t hy = test_rand() % 4 ? hx : (int64_t)(1 + test_rand() % 24) * (GRID / 16);
        struct rs_vertex c[4];
        square(c, cx, cy, test_rand() % 2 ? hx : -hx, test_rand() % 2 ? hy : -hy);
        int only = rs_rect_one_pixel_half(&s, c);
        bool point = ns == 1 && cx % GRID == GRID / 2 && cy % GRID == GRID / 2 && hx == GRID / 2 && hy == GRID / 2;
        if (ns > 1 && only >= 0)
            fail_msg("%ux rectangle %u: half %d named", ns, k, only);
        if (point && only < 0)
            fail_msg("1-pixel point %u at (%lld, %lld)/4096: no half named", k, (long long)cx, (long long)cy);
        centred += point;
        if (only < 0)
            continue;
        named++;
        memset(&h, 0, sizeof h);
        for (h.half = 0; h.half < 2; h.half++) {
            struct rs_vertex v[3] = {c[tris[h.half][0]], c[tris[h.half][1]], c[tris[h.half][2]]};
            assert_int_equal(rs_triangle(&s, v, record, NULL, &h), 0);
        }
        assert_int_equal(h.bad, 0);
        for (int y = 0; y < AREA; y++)
            for (int x = 0; x < AREA; x++) {
                if (h.calls[1 - only][y][x])
                    fail_msg("rectangle %u, centre (%lld, %lld)/4096, half (%lld, %lld)/4096: half %d named, "
                             "half %d gives pixel (%d, %d)", k, (long long)cx, (long long)cy, (long long)hx,
                             (long long)hy, only, 1 - only, x, y);
                covered += h.calls[only][y][x];
            }
    }
    printf("  %u rectangles with a half named (%u 1-pixel points at a pixel centre), %u pixels covered\n", named,
           centred, covered);
    assert_true(named > 1000);
    assert_true(centred > 150);
    assert_true(covered > 1000);
}

/* ---- tile expansion --------------------------------------------------------- */

#define GPU_BASE 0x100000u
#define MEM_BYTES (1u << 21)
#define SURF 64          /* pixels per side */
#define CMASK_AT (1u << 20)

/* The GPU's view of the test's buffer (ctx): MEM_BYTES at GPU_BASE. */
static void *window(void *ctx, uint64_t addr, uint64_t len)
{
    uint64_t off = addr - GPU_BASE;
    return addr >= GPU_BASE && off <= MEM_BYTES && len <= MEM_BYTES - off ? (uint8_t *)ctx + off : NULL;
}

static void expand_one(unsigned samples, unsigned format, unsigned bpe)
{
    uint8_t *memory = malloc(MEM_BYTES);
    struct vc_render *r = vc_render_new();
    struct vc_regs *regs = calloc(1, sizeof *regs);
    struct cb_target *t = calloc(1, sizeof *t);
    assert_true(memory && r && regs && t);
    memset(memory, 0xA5, MEM_BYTES);
    memset(memory + CMASK_AT, 0, 4096);   /* every tile fast-cleared */
    struct vc_mem mem = {.ctx = memory, .ptr = window};
    scene_set_reg(regs, REG_CB_COLOR_BASE(0), GPU_BASE >> 8);
    scene_set_reg(regs, REG_CB_COLOR_INFO(0),
                  S_CB_COLOR_INFO__FORMAT(format) | S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UNORM) |
                      S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) | S_CB_COLOR_INFO__FAST_CLEAR(1));
    /* banks at least as wide as the 256-byte pipe interleave */
    unsigned bankw = 0;
    while ((64u * bpe * samples << bankw) < 256)
        bankw++;
    scene_set_reg(regs, REG_CB_COLOR_ATTRIB(0),
                  S_CB_COLOR_ATTRIB__NUM_BANKS(2) | S_CB_COLOR_ATTRIB__TILE_SPLIT(4) |
                      S_CB_COLOR_ATTRIB__BANK_WIDTH(bankw));
    scene_set_reg(regs, REG_CB_COLOR_PITCH(0), S_CB_COLOR_PITCH__TILE_MAX(SURF / 8 - 1));
    scene_set_reg(regs, REG_CB_COLOR_SLICE(0), S_CB_COLOR_SLICE__TILE_MAX(SURF * SURF / 64 - 1));
    scene_set_reg(regs, REG_CB_COLOR_CMASK(0), (GPU_BASE + CMASK_AT) >> 8);
    scene_set_reg(regs, REG_CB_COLOR_CMASK_SLICE(0), 0);
    scene_set_reg(regs, REG_CB_COLOR_CLEAR_WORD0(0), 0x44332211u);
    scene_set_reg(regs, REG_CB_COLOR_CLEAR_WORD1(0), 0x88776655u);
    scene_set_reg(regs, REG_CB_TARGET_MASK, 0xF);
    struct vc_draw_err err = {{0}};
    if (cb_target_init(r, t, 0, samples, regs, &mem, &err))
        fail_msg("cb_target_init: %s", err.msg);
    assert_int_equal(t->bpe, bpe);
    assert_false(t->fmask_on);
    assert_non_null(t->ctab);   /* the kept tables: the path under test */
    assert_true(t->map.size + 4096 <= CMASK_AT);
    /* every tile, in a shuffled order, from one of its pixels */
    unsigned order[SURF * SURF / 64];
    for (unsigned i = 0; i < SURF * SURF / 64; i++)
        order[i] = i;
    for (unsigned i = SURF * SURF / 64 - 1; i > 0; i--) {
        unsigned j = test_rand() % (i + 1), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (unsigned i = 0; i < SURF * SURF / 64; i++) {
        unsigned tx = order[i] % (SURF / 8), ty = order[i] / (SURF / 8);
        assert_true(cb_tile_cleared(t, tx * 8, ty * 8));
        cb_tile_expand(t, tx * 8 + test_rand() % 8, ty * 8 + test_rand() % 8);
        assert_false(cb_tile_cleared(t, tx * 8, ty * 8));
    }
    /* the clear words' bytes, lowest first (CLEAR_WORD0 then WORD1) */
    static const uint8_t clear[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    uint8_t *want = malloc(t->map.size);
    assert_non_null(want);
    memset(want, 0xA5, t->map.size);
    for (unsigned y = 0; y < SURF; y++)
        for (unsigned x = 0; x < SURF; x++)
            for (unsigned sm = 0; sm < samples; sm++) {
                uint64_t at = cedar_tile_addr(&t->map, x, y, sm, 0);
                assert_true(at + bpe <= t->map.size);
                memcpy(want + at, clear, bpe);
            }
    for (uint64_t b = 0; b < t->map.size; b++)
        if (memory[b] != want[b])
            fail_msg("%ux, %u-byte elements: byte %llu is 0x%02x, 0x%02x expected", samples, bpe,
                     (unsigned long long)b, memory[b], want[b]);
    free(want);
    vc_render_free(r);
    free(regs);
    free(t);
    free(memory);
}

static void tile_expand_stores_clear_colour(void **state)
{
    (void)state;
    test_rand_seed(0xE4A);
    expand_one(1, V_CB_FORMAT__COLOR_8_8_8_8, 4);
    expand_one(1, V_CB_FORMAT__COLOR_5_6_5, 2);
    expand_one(1, V_CB_FORMAT__COLOR_16_16_16_16, 8);
    expand_one(2, V_CB_FORMAT__COLOR_8_8_8_8, 4);
    expand_one(4, V_CB_FORMAT__COLOR_8_8_8_8, 4);
    expand_one(4, V_CB_FORMAT__COLOR_16_16_16_16, 8);
}

/* ---- the elimination draw ------------------------------------------------- */

static void eliminate(struct scene *sc, unsigned ns, bool fmask, bool block_path, struct vc_render_stats *st)
{
    char why[200] = "";
    if (scene_init(sc, ns, why))
        fail_msg("scene %ux: %s", ns, why);
    if (!fmask) {   /* the same target without FMask: every sample in its plane */
        uint32_t info = sc->regs->context[(REG_CB_COLOR_INFO(0) - SPACE_CONTEXT_START) / 4];
        scene_set_reg(sc->regs, REG_CB_COLOR_INFO(0), info & ~S_CB_COLOR_INFO__COMPRESSION(1));
    }
    vc_render_set_block_path(sc->r, block_path);
    /* glClear (CMask 0), the triangle, then the elimination over the screen */
    memset(sc->mem + (sc->color_addr - sc->gpu_base) + sc->lay.cmask.offset, 0, sc->lay.cmask.size);
    if (scene_draw(sc, V_CB_MODE__CB_NORMAL, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST, 0, 3, why) ||
        scene_draw(sc, V_CB_MODE__CB_ELIMINATE_FAST_CLEAR, V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST, 3, 3, why))
        fail_msg("scene %ux: %s", ns, why);
    vc_render_get_stats(sc->r, st);
}

static void eliminate_blocks_match_pixels(void **state)
{
    (void)state;
    static const unsigned counts[] = {2, 4, 8};
    for (unsigned ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (int fmask = 0; fmask < 2; fmask++) {
            unsigned ns = counts[ci];
            struct scene fast, slow;
            struct vc_render_stats fs, ss;
            eliminate(&fast, ns, fmask, true, &fs);
            eliminate(&slow, ns, fmask, false, &ss);
            assert_int_equal(fast.mem_size, slow.mem_size);
            if (memcmp(fast.mem, slow.mem, fast.mem_size) != 0) {
                size_t i = 0;
                while (fast.mem[i] == slow.mem[i])
                    i++;
                fail_msg("%ux%s: memory differs first at byte 0x%zx", ns, fmask ? "" : " without FMask", i);
            }
            assert_int_equal(fs.cb_op_pixels, ss.cb_op_pixels);
            assert_int_equal(fs.samples_written, ss.samples_written);
            /* every pixel of the screen went through the elimination (those
             * whose samples the rectangle's diagonal splits, twice) */
            assert_true(fs.cb_op_pixels >= (uint64_t)fast.width * fast.height);
            /* and left no tile fast-cleared */
            struct cb_target t;
            struct vc_draw_err err = {{0}};
            if (cb_target_init(fast.r, &t, 0, ns, fast.regs, &fast.vmem, &err))
                fail_msg("cb_target_init: %s", err.msg);
            for (unsigned y = 0; y < fast.height; y += 8)
                for (unsigned x = 0; x < fast.width; x += 8)
                    if (cb_tile_cleared(&t, x, y))
                        fail_msg("%ux: tile (%u, %u) still cleared", ns, x, y);
            scene_free(&fast);
            scene_free(&slow);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_cover_half_open_squares),
        cmocka_unit_test(one_pixel_boxes_match_blocks),
        cmocka_unit_test(one_pixel_rect_names_the_covering_half),
        cmocka_unit_test(tile_expand_stores_clear_colour),
        cmocka_unit_test(eliminate_blocks_match_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
