/* The index orders of cedar-probe reuse (src/probe/index_orders.c), by
 * their properties: every triangle of the grid appears exactly once with
 * its winding (as a rotation of the grid's own vertex order), nothing else
 * but the Optimal order's prefetch triangles (v, v, v + 1) on the first
 * row; the strips' widths and where the prefetch appears follow the
 * published rule (one strip when a row of vertices is shorter than the
 * cache, else strips of cache - 2 quads; prefetch when 2 x quads + 1 >
 * cache), worked by hand for small grids. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/probe.h"

/* Canonical key of a triangle up to rotation (winding kept). */
static uint64_t key(uint32_t a, uint32_t b, uint32_t c, unsigned nv)
{
    /* rotate so the smallest index comes first */
    while (a > b || a > c) {
        uint32_t t = a;
        a = b;
        b = c;
        c = t;
    }
    return ((uint64_t)a * nv + b) * nv + c;
}

static int cmp64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Checks the order's triangles; returns how many prefetch triangles it had. */
static size_t check_order(enum cedar_probe_order ord, unsigned n, unsigned cache)
{
    uint32_t *idx;
    size_t count;
    assert_int_equal(cedar_probe_grid_indices(ord, n, cache, &idx, &count), 0);
    assert_int_equal(count % 3, 0);
    unsigned nv = (n + 1) * (n + 1);
    size_t ntri = (size_t)n * n * 2;
    uint64_t *want = malloc(ntri * sizeof *want), *got = malloc(count / 3 * sizeof *got + 1);
    assert_non_null(want);
    assert_non_null(got);
    for (unsigned y = 0; y < n; y++)
        for (unsigned x = 0; x < n; x++) {
            uint32_t t[6];
            cedar_probe_grid_quad(n, x, y, t);
            want[2 * ((size_t)y * n + x)] = key(t[0], t[1], t[2], nv);
            want[2 * ((size_t)y * n + x) + 1] = key(t[3], t[4], t[5], nv);
        }
    size_t ngot = 0, prefetch = 0;
    for (size_t i = 0; i < count; i += 3) {
        uint32_t a = idx[i], b = idx[i + 1], c = idx[i + 2];
        assert_true(a < nv && b < nv && c < nv);
        if (a == b || b == c || a == c) {
            /* only Optimal prefetches, and only the first row: (v, v, v + 1) */
            assert_int_equal(ord, CEDAR_PROBE_OPTIMAL);
            assert_int_equal(a, b);
            assert_int_equal(c, a + 1);
            assert_true(c <= n);
            prefetch++;
            continue;
        }
        got[ngot++] = key(a, b, c, nv);
    }
    assert_int_equal(ngot, ntri);
    qsort(want, ntri, sizeof *want, cmp64);
    qsort(got, ngot, sizeof *got, cmp64);
    for (size_t i = 0; i < ntri; i++) {
        assert_true(i == 0 || want[i] != want[i - 1]);   /* the grid's triangles are distinct */
        assert_true(got[i] == want[i]);                  /* each exactly once, winding kept */
    }
    free(want);
    free(got);
    free(idx);
    return prefetch;
}

static void every_triangle_once(void **state)
{
    (void)state;
    static const unsigned grids[] = {1, 2, 3, 5, 10, 17, 40};
    static const unsigned caches[] = {3, 4, 5, 8, 12, 16, 32, 64, 128};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
        for (size_t c = 0; c < sizeof caches / sizeof caches[0]; c++)
            for (int o = 0; o < CEDAR_PROBE_ORDER_COUNT; o++) {
                size_t pf = check_order((enum cedar_probe_order)o, grids[g], caches[c]);
                if (o != CEDAR_PROBE_OPTIMAL)
                    assert_int_equal(pf, 0);
            }
}

/* Worked by hand: a 10 x 10 grid (rows of 11 vertices) with cache 8 is
 * strips of 6 and 4 quads; 2 x 6 + 1 = 13 and 2 x 4 + 1 = 9 exceed 8: both
 * strips prefetch their first row, 6 + 4 degenerate triangles.  With cache
 * 16 (11 < 16) it is one strip of 10 quads, 21 > 16: 10 prefetch triangles.
 * With cache 32, 21 <= 32: no prefetch. */
static void optimal_prefetch(void **state)
{
    (void)state;
    assert_int_equal(check_order(CEDAR_PROBE_OPTIMAL, 10, 8), 10);
    assert_int_equal(check_order(CEDAR_PROBE_OPTIMAL, 10, 16), 10);
    assert_int_equal(check_order(CEDAR_PROBE_OPTIMAL, 10, 32), 0);
    uint32_t *idx;
    size_t count;
    /* the first strip (cache 8: quads 0..5) starts with the prefetch of
     * vertices 0..6, then quad (0, 0) */
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_OPTIMAL, 10, 8, &idx, &count), 0);
    for (unsigned k = 0; k < 6; k++) {
        assert_int_equal(idx[3 * k], k);
        assert_int_equal(idx[3 * k + 1], k);
        assert_int_equal(idx[3 * k + 2], k + 1);
    }
    uint32_t q[6];
    cedar_probe_grid_quad(10, 0, 0, q);
    assert_memory_equal(&idx[18], q, sizeof q);
    /* the strip's second quad of its first row is quad (1, 0): strips go
     * across, then down */
    cedar_probe_grid_quad(10, 1, 0, q);
    assert_memory_equal(&idx[24], q, sizeof q);
    /* after 10 rows of 6 quads (120 triangles) the second strip's prefetch
     * starts at vertex 6 */
    assert_int_equal(idx[3 * (6 + 120)], 6);
    assert_int_equal(idx[3 * (6 + 120) + 2], 7);
    free(idx);
    /* Striped with cache 8: the same strips without the 10 prefetches */
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_STRIPED, 10, 8, &idx, &count), 0);
    assert_int_equal(count, 3 * 200);
    cedar_probe_grid_quad(10, 0, 0, q);
    assert_memory_equal(idx, q, sizeof q);
    free(idx);
}

static void bad_arguments(void **state)
{
    (void)state;
    uint32_t *idx = (uint32_t *)1;
    size_t count = 1;
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_TIPSIFY, 0, 16, &idx, &count), -EINVAL);
    assert_null(idx);
    assert_int_equal(count, 0);
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_TIPSIFY, CEDAR_PROBE_MAX_GRID + 1, 16, &idx, &count), -EINVAL);
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_OPTIMAL, 10, 2, &idx, &count), -EINVAL);
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_OPTIMAL, 10, CEDAR_PROBE_MAX_CACHE + 1, &idx, &count), -EINVAL);
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_ORDER_COUNT, 10, 16, &idx, &count), -EINVAL);
}

/* Forsyth's order uses its own cache size: the assumed one changes nothing. */
static void forsyth_ignores_size(void **state)
{
    (void)state;
    uint32_t *a, *b;
    size_t na, nb;
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_FORSYTH, 20, 4, &a, &na), 0);
    assert_int_equal(cedar_probe_grid_indices(CEDAR_PROBE_FORSYTH, 20, 128, &b, &nb), 0);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_triangle_once),
        cmocka_unit_test(optimal_prefetch),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(forsyth_ignores_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
