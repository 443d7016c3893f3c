/* cedar_demo_write_outputs on the demo's default frame (8x, virtual Cedar)
 * against the general paths, file by file:
 *  - the raw dumps equal the buffers as mapped, byte for byte (they are
 *    written without reading the pages the device knows are zeros);
 *  - frame.png equals the resolve target read pixel by pixel through the
 *    address map (cedar_tile_addr), B, G, R, A turned into R, G, B, A;
 *  - edge-zoom.png is a 32x32 crop of frame.png, each pixel a 16x16 block;
 *  - fmask-fragments.png: its legend has 8 distinct colours, one per
 *    fragment count 1..8, each labelled; every pixel of its map has the
 *    legend colour of that pixel's fragment count from cedar_fmask_fragment
 *    (the per-pixel path, not the per-tile one the picture is drawn with);
 *    its zoom is the crop of edge-zoom.png taken from the map, 16x16 a pixel;
 *  - the same files come out when the device's zero-page hint is withheld
 *    (every page then read), and every page the hint calls zero is zeros. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cedar/image.h"
#include "cedar/tiling.h"
#include "tests/common/test_util.h"

static uint8_t *read_in(const char *dir, const char *name, size_t *size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return test_read_file(path, size);
}

static uint8_t *png_in(const char *dir, const char *name, unsigned *w, unsigned *h)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    uint8_t *px = NULL;
    struct cedar_image_err err = {{0}};
    if (cedar_png_read_rgba8(path, &px, w, h, &err) != 0)
        fail_msg("%s", err.msg);
    return px;
}

static void assert_file_is(const char *dir, const char *name, const uint8_t *want, size_t size)
{
    size_t n = 0;
    uint8_t *got = read_in(dir, name, &n);
    if (n != size)
        fail_msg("%s: %zu bytes, want %zu", name, n, size);
    assert_memory_equal(got, want, size);
    free(got);
}

static const char *const FILES[] = {"frame.tiled.bin", "msaa.color.bin", "msaa.fmask.bin", "msaa.cmask.bin",
                                    "frame.png", "edge-zoom.png", "fmask-fragments.png"};

static void remove_outputs(const char *dir)
{
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, FILES[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void outputs_equal_the_general_paths(void **state)
{
    (void)state;
    struct test_demo_frame d;
    test_demo_frame_render(&d);
    const struct cedar_msaa_layout *l = &d.plan.layout;
    unsigned w = d.cfg.width, h = d.cfg.height, samples = d.cfg.samples;
    assert_int_equal(samples, 8);
    assert_non_null(d.res.color_zero_pages);   /* the virtual Cedar tells */

    char a[] = "/tmp/cedar-outputs-a-XXXXXX", b[] = "/tmp/cedar-outputs-b-XXXXXX";
    assert_non_null(mkdtemp(a));
    assert_non_null(mkdtemp(b));
    char err[256];
    if (cedar_demo_write_outputs(&d.plan, &d.res, a, err, sizeof err) != 0)
        fail_msg("%s", err);
    /* again with nothing known: every page read */
    uint8_t *hint = d.res.color_zero_pages;
    d.res.color_zero_pages = NULL;
    if (cedar_demo_write_outputs(&d.plan, &d.res, b, err, sizeof err) != 0)
        fail_msg("%s", err);
    d.res.color_zero_pages = hint;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        size_t na = 0, nb = 0;
        uint8_t *fa = read_in(a, FILES[i], &na), *fb = read_in(b, FILES[i], &nb);
        if (na != nb || memcmp(fa, fb, na) != 0)
            fail_msg("%s differs with and without the zero-page hint", FILES[i]);
        free(fa);
        free(fb);
    }

    /* the raw dumps are the buffers */
    assert_file_is(a, "frame.tiled.bin", d.res.resolve, (size_t)l->resolve.size);
    assert_file_is(a, "msaa.color.bin", d.res.color, (size_t)l->color.size);
    assert_file_is(a, "msaa.fmask.bin", d.res.color + l->fmask.offset, (size_t)l->fmask.surf.size);
    assert_file_is(a, "msaa.cmask.bin", d.res.color + l->cmask.offset, (size_t)l->cmask.size);
    /* what the hint calls zero is zeros, and it calls most of the 30 MB so */
    size_t pages = (d.res.color_size + 4095) / 4096, called = 0;
    for (size_t i = 0; i < pages; i++) {
        if (!hint[i])
            continue;
        called++;
        for (size_t k = i * 4096; k < (i + 1) * 4096 && k < d.res.color_size; k++)
            if (d.res.color[k])
                fail_msg("page %zu called zero holds 0x%02X at %zu", i, d.res.color[k], k);
    }
    assert_true(called > pages / 2);

    /* frame.png: every pixel through the address map */
    unsigned pw, ph;
    uint8_t *frame = png_in(a, "frame.png", &pw, &ph);
    assert_int_equal(pw, w);
    assert_int_equal(ph, h);
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const uint8_t *t = d.res.resolve + cedar_tile_addr(&d.rmap, x, y, 0, 0);
            const uint8_t *q = frame + ((size_t)y * w + x) * 4;
            if (q[0] != t[2] || q[1] != t[1] || q[2] != t[0] || q[3] != t[3])
                fail_msg("frame.png (%u,%u) is %u,%u,%u,%u; the resolve target holds B,G,R,A %u,%u,%u,%u",
                         x, y, q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]);
        }

    /* edge-zoom.png: 32x32 pixels of frame.png, each 16x16 */
    uint8_t *zoom = png_in(a, "edge-zoom.png", &pw, &ph);
    assert_int_equal(pw, 512);
    assert_int_equal(ph, 512);
    int found = 0;
    unsigned zx = 0, zy = 0;
    for (unsigned y0 = 0; y0 + 32 <= h && !found; y0++)
        for (unsigned x0 = 0; x0 + 32 <= w && !found; x0++) {
            int ok = 1;
            for (unsigned y = 0; y < 512 && ok; y++)
                for (unsigned x = 0; x < 512 && ok; x++)
                    ok = !memcmp(zoom + ((size_t)y * 512 + x) * 4,
                                 frame + ((size_t)(y0 + y / 16) * w + x0 + x / 16) * 4, 4);
            found = ok;
            zx = x0, zy = y0;
        }
    assert_true(found);

    /* fmask-fragments.png: map at (8, 8), the zoom 8 to its right, the
     * legend 8 below the taller of the two: swatches 24 square, 64 apart */
    uint8_t *frag = png_in(a, "fmask-fragments.png", &pw, &ph);
    unsigned top = h > 512 ? h : 512, ly = 8 + top + 8;
    assert_int_equal(pw, 8 + w + 8 + 512 + 8);
    assert_int_equal(ph, ly + 24 + 8);
#define FRAG_PX(x, y) (frag + ((size_t)(y) * pw + (x)) * 4)
    uint8_t legend[9][4];
    for (unsigned n = 1; n <= samples; n++) {
        unsigned lx = 8 + (n - 1) * 64;
        memcpy(legend[n], FRAG_PX(lx + 12, ly + 12), 4);
        for (unsigned y = 0; y < 24; y++)   /* a uniform swatch */
            for (unsigned x = 0; x < 24; x++)
                assert_memory_equal(FRAG_PX(lx + x, ly + y), legend[n], 4);
        for (unsigned k = 1; k < n; k++)
            if (!memcmp(legend[k], legend[n], 3))
                fail_msg("legend colours %u and %u are the same", k, n);
        unsigned ink = 0;   /* the label: light pixels right of the swatch */
        for (unsigned y = ly; y < ly + 24; y++)
            for (unsigned x = lx + 24; x < lx + 64 && x < pw; x++)
                ink += FRAG_PX(x, y)[0] > 200 && FRAG_PX(x, y)[1] > 200 && FRAG_PX(x, y)[2] > 200;
        if (ink < 20)
            fail_msg("legend entry %u has no label", n);
    }
    const uint8_t *fmask = d.res.color + l->fmask.offset;
    unsigned edges = 0;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            uint32_t seen = 0;
            unsigned n = 0;
            for (unsigned s = 0; s < samples; s++) {
                unsigned f = cedar_fmask_fragment(&d.fmap, fmask, x, y, s, 0);
                if (!(seen & (1u << f)))
                    n++;
                seen |= 1u << f;
            }
            edges += n > 1;
            const uint8_t *q = FRAG_PX(8 + x, 8 + y);
            if (memcmp(q, legend[n], 4))
                fail_msg("fmask-fragments.png map (%u,%u) is %u,%u,%u; %u fragments are %u,%u,%u in the legend", x,
                         y, q[0], q[1], q[2], n, legend[n][0], legend[n][1], legend[n][2]);
        }
    assert_true(edges > 1000);   /* the triangle's three edges */
    for (unsigned y = 0; y < 512; y++)
        for (unsigned x = 0; x < 512; x++)
            if (memcmp(FRAG_PX(8 + w + 8 + x, 8 + y), FRAG_PX(8 + zx + x / 16, 8 + zy + y / 16), 4))
                fail_msg("fmask-fragments.png zoom (%u,%u) is not map pixel (%u,%u)", x, y, zx + x / 16,
                         zy + y / 16);
#undef FRAG_PX

    free(zoom);
    free(frag);
    free(frame);
    remove_outputs(a);
    remove_outputs(b);
    test_demo_frame_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outputs_equal_the_general_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
