/* The demo's --vertex-color-format: the colour attribute stored as
 * R32G32B32_FLOAT (the default), R8G8B8A8_UNORM (one FMT_8_8_8_8 fetch),
 * R8G8B8_UNORM or R8G8B8_SNORM (no 3-component 8-bit vertex format: three
 * FMT_8 fetches at byte offsets 0, 1, 2 and w = 1, as the zink write-up of
 * seed 004 decomposes it).  Each frame, rendered on the virtual Cedar, is
 * compared with the float frame of the same configuration: every channel of
 * every pixel within 1.
 *
 * How the colours map: a colour c in [0, 1] is stored as round(255 c) for
 * the UNORM formats and as round(127 c) (0..127, the upper half of the
 * SNORM range) for R8G8B8_SNORM, and fetched as b / 255 or b / 127.  The
 * triangle's vertex colours are 0 and 1, exact in every format; the clear
 * rectangle's (drawn with --no-fast-clear) are 0x33 / 255 and 0x4C / 255:
 * exact as UNORM, 25 / 127 and 38 / 127 as SNORM (0.19685 and 0.29921:
 * 50.2 and 76.3 of 255, against 51 and 76). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/demo.h"
#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

struct cmp {
    unsigned max_diff;
    size_t differing;   /* pixels with any channel different */
};

static void compare(const struct test_demo_frame *a, const struct test_demo_frame *b, struct cmp *c)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(a->rmap.width, b->rmap.width);
    assert_int_equal(a->rmap.height, b->rmap.height);
    for (unsigned y = 0; y < a->cfg.height; y++)
        for (unsigned x = 0; x < a->cfg.width; x++) {
            const uint8_t *p = a->bgra + y * a->stride + 4 * x, *q = b->bgra + y * b->stride + 4 * x;
            bool diff = false;
            for (int k = 0; k < 4; k++) {
                unsigned d = (unsigned)abs(p[k] - q[k]);
                if (d > c->max_diff)
                    c->max_diff = d;
                diff |= d != 0;
            }
            c->differing += diff;
        }
}

static void config(struct cedar_demo_config *cfg, enum eg_demo_color_format f, bool fast_clear)
{
    cedar_demo_config_default(cfg);
    cfg->width = 320;
    cfg->height = 192;
    cfg->fast_clear = fast_clear;
    cfg->vertex_color_format = f;
}

static void each_format_renders_within_1_of_the_float_frame(void **state)
{
    (void)state;
    for (int fast = 1; fast >= 0; fast--) {
        struct cedar_demo_config cfg;
        struct test_demo_frame ref;
        config(&cfg, EG_DEMO_COLOR_R32G32B32_FLOAT, fast);
        test_demo_frame_render_cfg(&ref, &cfg);
        for (int f = EG_DEMO_COLOR_R8G8B8A8_UNORM; f < EG_DEMO_COLOR_COUNT; f++) {
            struct test_demo_frame d;
            config(&cfg, (enum eg_demo_color_format)f, fast);
            test_demo_frame_render_cfg(&d, &cfg);
            struct cmp c;
            compare(&d, &ref, &c);
            printf("%s, %s: max difference %u, %zu of %u pixels differ\n",
                   eg_demo_color_format_name((enum eg_demo_color_format)f), fast ? "fast clear" : "clear drawn",
                   c.max_diff, c.differing, cfg.width * cfg.height);
            assert_true(c.max_diff <= 1);
            if (!fast && f == EG_DEMO_COLOR_R8G8B8_SNORM)
                assert_true(c.differing > 0); /* 0x33 comes back as 50: the test sees the format */
            test_demo_frame_free(&d);
        }
        test_demo_frame_free(&ref);
    }
}

/* The decomposed fetch: three FMT_8 fetches of the colour's semantic at
 * byte offsets color_offset + 0, 1, 2 writing x, y, z in turn, the first
 * also w = 1; the others leave w alone. */
static void three_component_formats_fetch_three_bytes_and_w_1(void **state)
{
    (void)state;
    for (int f = EG_DEMO_COLOR_R8G8B8_SNORM; f <= EG_DEMO_COLOR_R8G8B8_UNORM; f++) {
        struct eg_demo_shaders s;
        assert_int_equal(eg_demo_shaders_build_color(&s, (enum eg_demo_color_format)f), 0);
        assert_int_equal(G_SQ_CF_WORD1__CF_INST(s.fs[1]), V_SQ_CF_INST__VC);
        unsigned n = G_SQ_CF_WORD1__COUNT(s.fs[1]) + 1, addr = G_SQ_CF_WORD0__ADDR(s.fs[0]);
        assert_int_equal(n, 4); /* position, then the three bytes */
        for (unsigned k = 0; k < 3; k++) {
            const uint32_t *w = &s.fs[2 * addr + 4 * (k + 1)];
            assert_int_equal(G_SQ_VTX_WORD0__VTX_INST(w[0]), V_SQ_VTX_INST__SEMANTIC);
            assert_int_equal(G_SQ_VTX_WORD1_SEM__SEMANTIC_ID(w[1]), s.color_semantic);
            assert_int_equal(G_SQ_VTX_WORD1_GPR__DATA_FORMAT(w[1]), V_SQ_DATA_FORMAT__FMT_8);
            assert_int_equal(G_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(w[1]), V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM);
            assert_int_equal(G_SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL(w[1]), f == EG_DEMO_COLOR_R8G8B8_SNORM);
            assert_int_equal(G_SQ_VTX_WORD2__OFFSET(w[2]), s.color_offset + k);
            const unsigned sel[4] = { G_SQ_VTX_WORD1_GPR__DST_SEL_X(w[1]), G_SQ_VTX_WORD1_GPR__DST_SEL_Y(w[1]),
                                      G_SQ_VTX_WORD1_GPR__DST_SEL_Z(w[1]), G_SQ_VTX_WORD1_GPR__DST_SEL_W(w[1]) };
            for (unsigned c = 0; c < 3; c++)
                assert_int_equal(sel[c], c == k ? V_SQ_INST_SEL__X : V_SQ_INST_SEL__MASK);
            assert_int_equal(sel[3], k == 0 ? V_SQ_INST_SEL__ONE : V_SQ_INST_SEL__MASK);
        }
    }
    /* the default keeps the one 12-byte float fetch */
    struct eg_demo_shaders a, b;
    assert_int_equal(eg_demo_shaders_build(&a), 0);
    assert_int_equal(eg_demo_shaders_build_color(&b, EG_DEMO_COLOR_R32G32B32_FLOAT), 0);
    assert_int_equal(a.fs_ndw, b.fs_ndw);
    assert_memory_equal(a.fs, b.fs, a.fs_ndw * 4);
}

static void names_parse_back(void **state)
{
    (void)state;
    for (int f = 0; f < EG_DEMO_COLOR_COUNT; f++) {
        enum eg_demo_color_format g;
        assert_int_equal(eg_demo_color_format_parse(eg_demo_color_format_name((enum eg_demo_color_format)f), &g), 0);
        assert_int_equal(g, f);
    }
    enum eg_demo_color_format g;
    assert_int_equal(eg_demo_color_format_parse("r8g8b8_float", &g), -1);
    assert_int_equal(eg_demo_color_format_parse("", &g), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_parse_back),
        cmocka_unit_test(three_component_formats_fetch_three_bytes_and_w_1),
        cmocka_unit_test(each_format_renders_within_1_of_the_float_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
