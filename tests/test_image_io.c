/* The output paths of src/image against what they stand for:
 *  - cedar_file_write_known: the file read back equals the data whatever
 *    blocks are declared known-zero (runs short and long, at the start, in
 *    the middle, at the end, a partial last block), long runs become holes
 *    (the file occupies less than its size), and a device (/dev/null) takes
 *    the same call;
 *  - cedar_png_write's 8-bit writer (zlib level 1, the Sub filter, its own
 *    row loop): libpng's decoder gives back exactly the pixels written, for
 *    grey, RGBA and BGRA, odd sizes and padded rows, and the files carry the
 *    sRGB chunk as the simplified writer's did. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cedar/image.h"
#include "tests/common/test_util.h"

#define BLOCK 4096u

static char dir[64];

static void tmp_path(char *path, size_t len, const char *name)
{
    snprintf(path, len, "%s/%s", dir, name);
}

/* Data of `blocks` blocks (the last one `tail` bytes, 0: whole) whose
 * known-zero blocks are zeros and the others random; writes, reads back,
 * compares; returns the 512-byte sectors the file occupies. */
static long long write_and_compare(const uint8_t *known, size_t blocks, size_t tail)
{
    size_t size = blocks * BLOCK - (tail ? BLOCK - tail : 0);
    uint8_t *data = malloc(size);
    assert_non_null(data);
    for (size_t i = 0; i < size; i++)
        data[i] = known[i / BLOCK] ? 0 : (uint8_t)(test_rand() | 1u);
    char path[128];
    tmp_path(path, sizeof path, "known.bin");
    struct cedar_image_err err = {{0}};
    if (cedar_file_write_known(path, data, size, known, &err) != 0)
        fail_msg("%s", err.msg);
    size_t got = 0;
    uint8_t *back = test_read_file(path, &got);
    assert_int_equal(got, size);
    assert_memory_equal(back, data, size);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    free(back);
    free(data);
    unlink(path);
    return (long long)st.st_blocks;
}

static void file_write_known_zero_blocks(void **state)
{
    (void)state;
    test_rand_seed(13);
    enum { N = 1200 };
    static uint8_t known[N];
    /* nothing known: an ordinary write */
    memset(known, 0, sizeof known);
    write_and_compare(known, 40, 100);
    /* short runs everywhere (never holes) */
    for (size_t i = 0; i < N; i++)
        known[i] = (uint8_t)(test_rand() % 3 == 0);
    write_and_compare(known, N, 0);
    write_and_compare(known, N, 1);
    /* long runs at the start, in the middle and to the end, partial tail */
    memset(known, 0, sizeof known);
    memset(known, 1, 300);
    memset(known + 400, 1, 300);
    memset(known + 900, 1, 300);
    long long sectors = write_and_compare(known, N, 777);
    /* 300 of 1200 blocks hold data: holes must have kept most of the rest
     * off the disk (ext4 and tmpfs keep holes) */
    assert_true(sectors * 512 < (long long)(N * BLOCK) / 2);
    write_and_compare(known, N, 0);
    /* every block known: an empty file of the right size */
    memset(known, 1, sizeof known);
    write_and_compare(known, N, 5);
    write_and_compare(known, 1, 5);

    /* a device: no holes there, the call still succeeds */
    uint8_t data[3 * BLOCK] = {0};
    const uint8_t k3[3] = {1, 0, 1};
    struct cedar_image_err err = {{0}};
    assert_int_equal(cedar_file_write_known("/dev/null", data, sizeof data, k3, &err), 0);
    /* an unwritable path: the reason names it */
    assert_int_equal(cedar_file_write_known("/nonexistent-dir/x.bin", data, sizeof data, k3, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.bin"));
}

/* The 8-bit PNG writer against libpng's decoder. */
static void check_png(unsigned w, unsigned h, size_t pad, enum cedar_png_kind kind)
{
    unsigned bpp = kind == CEDAR_PNG_GRAY8 ? 1 : 4;
    size_t stride = (size_t)w * bpp + pad;
    uint8_t *px = malloc(stride * h);
    assert_non_null(px);
    for (size_t i = 0; i < stride * h; i++)
        px[i] = (uint8_t)test_rand();
    /* some flat runs too, as the demo's images have */
    memset(px, 0x33, stride * h / 3);
    char path[128];
    tmp_path(path, sizeof path, "x.png");
    struct cedar_image_err err = {{0}};
    if (cedar_png_write(path, px, w, h, stride, kind, &err) != 0)
        fail_msg("%s", err.msg);
    uint8_t *rgba = NULL;
    unsigned gw = 0, gh = 0;
    if (cedar_png_read_rgba8(path, &rgba, &gw, &gh, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(gw, w);
    assert_int_equal(gh, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *p = px + (size_t)y * stride + (size_t)x * bpp;
            const uint8_t *q = rgba + ((size_t)y * w + x) * 4;
            uint8_t want[4];
            if (kind == CEDAR_PNG_GRAY8) {
                want[0] = want[1] = want[2] = p[0];
                want[3] = 255;
            } else if (kind == CEDAR_PNG_BGRA8) {
                want[0] = p[2], want[1] = p[1], want[2] = p[0], want[3] = p[3];
            } else {
                memcpy(want, p, 4);
            }
            if (memcmp(q, want, 4) != 0)
                fail_msg("kind %d %ux%u: pixel (%u,%u) reads %u,%u,%u,%u, was %u,%u,%u,%u", (int)kind, w,
                         h, x, y, q[0], q[1], q[2], q[3], want[0], want[1], want[2], want[3]);
        }
    /* the colour-space chunk the simplified writer put in: sRGB */
    size_t n = 0;
    uint8_t *file = test_read_file(path, &n);
    assert_true(memmem(file, n, "sRGB", 4) != NULL);
    free(file);
    free(rgba);
    free(px);
    unlink(path);
}

static void png_8bit_round_trip(void **state)
{
    (void)state;
    test_rand_seed(7);
    const enum cedar_png_kind kinds[] = {CEDAR_PNG_GRAY8, CEDAR_PNG_RGBA8, CEDAR_PNG_BGRA8};
    for (unsigned k = 0; k < 3; k++) {
        check_png(1, 1, 0, kinds[k]);
        check_png(37, 11, 0, kinds[k]);
        check_png(64, 48, 12, kinds[k]);
        check_png(1280, 9, 4 * 256, kinds[k]);
    }
    /* bad arguments: one reason, nothing written */
    struct cedar_image_err err = {{0}};
    uint8_t px[16] = {0};
    char path[128];
    tmp_path(path, sizeof path, "bad.png");
    assert_int_equal(cedar_png_write(path, px, 4, 1, 8, CEDAR_PNG_RGBA8, &err), -1);
    assert_int_equal(cedar_png_write(path, px, 0, 1, 8, CEDAR_PNG_GRAY8, &err), -1);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(cedar_png_write("/nonexistent-dir/x.png", px, 2, 2, 8, CEDAR_PNG_BGRA8, &err), -1);
    assert_non_null(strstr(err.msg, "No such file"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cedar-image-io-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(file_write_known_zero_blocks),
        cmocka_unit_test(png_8bit_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
