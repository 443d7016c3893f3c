/* Test data files, read whole (see test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_util.h"

uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    uint8_t *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    data[n] = 0;
    if (size)
        *size = (size_t)n;
    return data;
}

uint32_t *test_read_dwords(const char *path, size_t *ndw)
{
    size_t n;
    uint8_t *b = test_read_file(path, &n);
    assert_true(n > 0 && n % 4 == 0);
    uint32_t *dw = malloc(n);
    assert_non_null(dw);
    for (size_t i = 0; i < n / 4; i++)
        dw[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
                (uint32_t)b[4 * i + 3] << 24;
    free(b);
    *ndw = n / 4;
    return dw;
}

size_t test_load_words(const char *path, uint32_t *w, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    size_t n = fread(w, 4, cap, f);
    fclose(f);
    return n;
}
