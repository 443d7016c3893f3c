/* Layout tests against independent figures:
 *  - the seed write-up's hand-computed numbers (shared/seeds/002_*.txt);
 *  - the CB_COLOR0/1 register values and buffer sizes Mesa r600 really
 *    submitted for the 8x MSAA scene on a Cedar, read from the command stream
 *    bytes in tests/data/mesa-r600-msaa8x/ (cs_003: draw, cs_004: resolve);
 *  - hand calculations of Mesa's CMask formula for other pipe counts;
 *  - properties every layout must have (alignment, coverage, ordering);
 *  - bad input.
 * The libdrm cross-check is test_layout_libdrm.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cedar/layout.h"
#include "cedar/pm4.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

#define MESA_DIR "tests/data/mesa-r600-msaa8x/"
#define GPU_PAGE 4096u /* the radeon winsys rounds BO sizes to pages */

static struct cedar_tiling cedar_hd7350(void)
{
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(CEDAR_HD7350_TILING_CONFIG, &t), 0);
    return t;
}

static struct cedar_msaa_layout seed_layout(void)
{
    struct cedar_tiling t = cedar_hd7350();
    struct cedar_surface_req req = {1280, 720, 4, 8, CEDAR_MODE_2D_THIN, false, false};
    struct cedar_msaa_layout m;
    struct cedar_layout_err err = {{0}};
    int r = cedar_msaa_layout(&req, &t, &m, &err);
    if (r)
        print_error("%s\n", err.msg);
    assert_int_equal(r, 0);
    return m;
}

/* ---- the seed write-up ------------------------------------------------- */

static void test_seed_figures(void **state)
{
    (void)state;
    struct cedar_msaa_layout m = seed_layout();

    /* "MESA selects 8 x 8 x 4 x 2 = 512 bytes as the optimal tile-split" */
    assert_int_equal(m.color.mode, CEDAR_MODE_2D_THIN);
    assert_int_equal(m.color.tile_split, 512);
    assert_int_equal(m.color.bankw, 1);
    assert_int_equal(m.color.bankh, 1);
    assert_int_equal(m.color.mtilea, 2);
    /* "A resolution of 1280x720 is adjusted to be of 1280x736." */
    assert_int_equal(m.color.aligned_width, 1280);
    assert_int_equal(m.color.aligned_height, 736);
    assert_int_equal(m.color.align_x, 32);
    assert_int_equal(m.color.align_y, 32);
    assert_int_equal(m.color.pitch_bytes, 40960);
    assert_int_equal(m.color.size, 30146560);

    /* FMask: "14720 x 256 = 3768320 bytes", "a single macro-tile is 4KB" */
    assert_int_equal(m.fmask.surf.size, 3768320);
    assert_int_equal(m.fmask.surf.alignment, 4096);
    assert_int_equal(m.fmask.surf.bpe, 4);
    assert_int_equal(m.fmask.surf.tile_split, 512);
    assert_int_equal(m.fmask.surf.bankw, 1);
    assert_int_equal(m.fmask.surf.bankh, 1);
    assert_int_equal(m.fmask.surf.mtilea, 2);
    assert_int_equal(m.fmask.surf.aligned_width, 1280);
    assert_int_equal(m.fmask.surf.aligned_height, 736);

    /* Resolve target: "tile-split = 1024, bankw = 1, bankh = 2 ... mtilea = 2",
     * "1280x720 is thus adjusted to 1280x768", macro tile 32x64. */
    assert_int_equal(m.resolve.mode, CEDAR_MODE_2D_THIN);
    assert_int_equal(m.resolve.tile_split, 1024);
    assert_int_equal(m.resolve.bankw, 1);
    assert_int_equal(m.resolve.bankh, 2);
    assert_int_equal(m.resolve.mtilea, 2);
    assert_int_equal(m.resolve.aligned_width, 1280);
    assert_int_equal(m.resolve.aligned_height, 768);
    assert_int_equal(m.resolve.align_x, 32);
    assert_int_equal(m.resolve.align_y, 64);

    /* CMask: "60 x 128 = 7680 bytes", "2 x 256 = 512 bytes" alignment. */
    assert_int_equal(m.cmask.size, 7680);
    assert_int_equal(m.cmask.alignment, 512);
    /* "(1280 x 768) / (128 x 128) = 60 ... numbered in [0, 59]" */
    assert_int_equal(m.cmask.slice_tile_max, 59);
    /* "the CMask cache can accommodate control information for 256x128 pixels" */
    assert_int_equal(m.cmask.cache_width, 256);
    assert_int_equal(m.cmask.cache_height, 128);
    assert_int_equal(m.cmask.aligned_width, 1280);
    assert_int_equal(m.cmask.aligned_height, 768);
}

/* ---- Mesa's command streams ------------------------------------------- */

struct cs_regs {
    uint32_t value[(SPACE_CONTEXT_END - SPACE_CONTEXT_START) / 4];
    bool written[(SPACE_CONTEXT_END - SPACE_CONTEXT_START) / 4];
    int reloc_of[(SPACE_CONTEXT_END - SPACE_CONTEXT_START) / 4]; /* relocation index, -1 */
};

static int on_reg(void *ctx, const struct eg_pm4_packet *pkt, const struct eg_pm4_reg_write *w)
{
    struct cs_regs *regs = ctx;
    (void)pkt;
    if (w->offset >= SPACE_CONTEXT_START && w->offset < SPACE_CONTEXT_END) {
        uint32_t idx = (w->offset - SPACE_CONTEXT_START) / 4;
        regs->value[idx] = w->value;
        regs->written[idx] = true;
    }
    return 0;
}

static int on_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    struct cs_regs *regs = ctx;
    (void)nop;
    if (r->tied && r->slot.reg_offset >= SPACE_CONTEXT_START &&
        r->slot.reg_offset < SPACE_CONTEXT_END)
        regs->reloc_of[(r->slot.reg_offset - SPACE_CONTEXT_START) / 4] = (int)r->index;
    return 0;
}

/* Record every context register write and the relocation index tied to each
 * address-carrying register, with the project's PM4 walker. */
static void parse_cs(const char *path, struct cs_regs *regs)
{
    size_t n;
    uint32_t *dw = test_read_dwords(path, &n);
    memset(regs, 0, sizeof(*regs));
    for (size_t i = 0; i < sizeof(regs->reloc_of) / sizeof(regs->reloc_of[0]); i++)
        regs->reloc_of[i] = -1;
    struct eg_pm4_sink sink = {.ctx = regs, .reg = on_reg, .reloc = on_reloc};
    struct eg_pm4_error err;
    int r = eg_pm4_walk(dw, n, NULL, &sink, &err);
    if (r)
        print_error("%s: %s\n", path, err.message);
    assert_int_equal(r, 0);
    free(dw);
}

static uint32_t ctx_reg(const struct cs_regs *r, uint32_t offset)
{
    assert_true(offset >= SPACE_CONTEXT_START && offset < SPACE_CONTEXT_END);
    uint32_t idx = (offset - SPACE_CONTEXT_START) / 4;
    assert_true(r->written[idx]);
    return r->value[idx];
}

static int ctx_reloc(const struct cs_regs *r, uint32_t offset)
{
    return r->reloc_of[(offset - SPACE_CONTEXT_START) / 4];
}

/* Requested size of buffer `idx` in a relocs.txt ("  N 0x.. handle=.. | size=.. req=.."). */
static unsigned long reloc_req_size(const char *path, int idx)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    unsigned long size = 0;
    while (fgets(line, sizeof(line), f)) {
        int n;
        if (line[0] == '#' || sscanf(line, " %d", &n) != 1 || n != idx)
            continue;
        const char *req = strstr(line, " req=");
        assert_non_null(req);
        size = strtoul(req + 5, NULL, 10);
        break;
    }
    fclose(f);
    assert_true(size > 0);
    return size;
}

static void check_attrib(uint32_t attrib, const struct cedar_surface *s, unsigned fmask_bankh)
{
    assert_int_equal(G_CB_COLOR_ATTRIB__TILE_SPLIT(attrib), s->tile_split_enc);
    assert_int_equal(G_CB_COLOR_ATTRIB__NUM_BANKS(attrib), s->num_banks_enc);
    assert_int_equal(G_CB_COLOR_ATTRIB__BANK_WIDTH(attrib), s->bankw_enc);
    assert_int_equal(G_CB_COLOR_ATTRIB__BANK_HEIGHT(attrib), s->bankh_enc);
    assert_int_equal(G_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(attrib), s->mtilea_enc);
    assert_int_equal(1u << G_CB_COLOR_ATTRIB__FMASK_BANK_HEIGHT(attrib), fmask_bankh);
}

static void check_msaa_source(const struct cs_regs *r, const struct cedar_msaa_layout *m,
                              const char *relocs)
{
    assert_int_equal(G_CB_COLOR_PITCH__TILE_MAX(ctx_reg(r, REG_CB_COLOR_PITCH(0))),
                     m->color.pitch_tile_max);
    assert_int_equal(G_CB_COLOR_SLICE__TILE_MAX(ctx_reg(r, REG_CB_COLOR_SLICE(0))),
                     m->color.slice_tile_max);
    check_attrib(ctx_reg(r, REG_CB_COLOR_ATTRIB(0)), &m->color, m->fmask.bank_height);
    /* Offsets relative to the buffer (the kernel adds its GPU address). */
    assert_int_equal((uint64_t)ctx_reg(r, REG_CB_COLOR_BASE(0)) << 8, 0);
    assert_int_equal((uint64_t)ctx_reg(r, REG_CB_COLOR_FMASK(0)) << 8, m->fmask.offset);
    assert_int_equal((uint64_t)ctx_reg(r, REG_CB_COLOR_CMASK(0)) << 8, m->cmask.offset);
    assert_int_equal(G_CB_COLOR_FMASK_SLICE__TILE_MAX(ctx_reg(r, REG_CB_COLOR_FMASK_SLICE(0))),
                     m->fmask.slice_tile_max);
    assert_int_equal(G_CB_COLOR_CMASK_SLICE__TILE_MAX(ctx_reg(r, REG_CB_COLOR_CMASK_SLICE(0))),
                     m->cmask.slice_tile_max);
    /* One buffer holds colour, FMask and CMask: its size is our total. */
    int reloc = ctx_reloc(r, REG_CB_COLOR_BASE(0));
    assert_true(reloc >= 0);
    unsigned long bo = reloc_req_size(relocs, reloc);
    assert_int_equal(bo, (m->total_size + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE);
    assert_true(m->total_size > bo - GPU_PAGE);
}

static void test_mesa_draw_stream(void **state)
{
    (void)state;
    struct cedar_msaa_layout m = seed_layout();
    struct cs_regs *r = malloc(sizeof(*r));
    assert_non_null(r);
    parse_cs(MESA_DIR "cs_003.bin", r);
    check_msaa_source(r, &m, MESA_DIR "cs_003.relocs.txt");
    /* the figures the issue quotes, as a double check of the parsing */
    assert_int_equal(ctx_reg(r, REG_CB_COLOR_PITCH(0)), 0x9F);
    assert_int_equal(m.fmask.offset, 0x1CC0000);
    assert_int_equal(m.cmask.offset, 0x2058000);
    free(r);
}

static void test_mesa_resolve_stream(void **state)
{
    (void)state;
    struct cedar_msaa_layout m = seed_layout();
    struct cs_regs *r = malloc(sizeof(*r));
    assert_non_null(r);
    parse_cs(MESA_DIR "cs_004.bin", r);
    check_msaa_source(r, &m, MESA_DIR "cs_004.relocs.txt");

    /* CB1 = the resolve target; without FMask Mesa points FMASK_SLICE at the
     * colour slice and FMASK_BANK_HEIGHT at the colour bank height. */
    assert_int_equal(G_CB_COLOR_PITCH__TILE_MAX(ctx_reg(r, REG_CB_COLOR_PITCH(1))),
                     m.resolve.pitch_tile_max);
    assert_int_equal(G_CB_COLOR_SLICE__TILE_MAX(ctx_reg(r, REG_CB_COLOR_SLICE(1))),
                     m.resolve.slice_tile_max);
    assert_int_equal(G_CB_COLOR_FMASK_SLICE__TILE_MAX(ctx_reg(r, REG_CB_COLOR_FMASK_SLICE(1))),
                     m.resolve.slice_tile_max);
    check_attrib(ctx_reg(r, REG_CB_COLOR_ATTRIB(1)), &m.resolve, m.resolve.bankh);
    assert_int_equal(ctx_reg(r, REG_CB_COLOR_SLICE(1)), 0x3BFF);
    int reloc = ctx_reloc(r, REG_CB_COLOR_BASE(1));
    assert_true(reloc >= 0);
    assert_int_equal(reloc_req_size(MESA_DIR "cs_004.relocs.txt", reloc),
                     (m.resolve.size + GPU_PAGE - 1) / GPU_PAGE * GPU_PAGE);
    free(r);
}

/* ---- CMask on other chips (Mesa's formula by hand) --------------------- */

static void test_cmask_other_pipe_counts(void **state)
{
    (void)state;
    /* 1024 bits per pipe / 4 bits = 256 tiles of 64 px per pipe:
     *   1 pipe: 16384 px -> 128x128;  4 pipes: 65536 px -> 256x256;
     *   8 pipes: 131072 px -> 512x256 (sqrt 362 -> 512). */
    static const struct {
        uint32_t cfg;
        unsigned w, h;
        unsigned long size, align;
        unsigned stm;
    } cases[] = {
        /* 1280x720, 1 pipe: 1280x768 px -> 15360 tiles -> 7680 B (align 256) */
        {0x0010, 1280, 720, 7680, 256, 59},
        /* 4 pipes: 1280x768 -> 7680 B, align 1024 -> 8192 */
        {0x0012, 1280, 720, 8192, 1024, 59},
        /* 8 pipes: 1536x768 -> 18432 tiles -> 9216 B, align 2048 -> 10240 */
        {0x0013, 1280, 720, 10240, 2048, 71},
        /* 2 pipes, 512-byte interleave: 256x128 -> 256 B, align 1024 */
        {0x0111, 1, 1, 1024, 1024, 1},
        /* Cedar, largest: 16384x16384 -> 2^22 tiles -> 2 MiB */
        {0x0011, 16384, 16384, 2097152, 512, 16383},
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct cedar_tiling t;
        struct cedar_surface c;
        struct cedar_cmask cm;
        struct cedar_surface_req req = {cases[i].w, cases[i].h, 4, 1, CEDAR_MODE_2D_THIN,
                                        false, false};
        assert_int_equal(cedar_tiling_from_config(cases[i].cfg, &t), 0);
        assert_int_equal(cedar_surface_layout(&req, &t, &c, NULL), 0);
        assert_int_equal(cedar_cmask_layout(&c, &cm, NULL), 0);
        assert_int_equal(cm.size, cases[i].size);
        assert_int_equal(cm.alignment, cases[i].align);
        assert_int_equal(cm.slice_tile_max, cases[i].stm);
    }
}

/* ---- properties ------------------------------------------------------- */

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static void test_properties(void **state)
{
    (void)state;
    static const unsigned bpes[] = {1, 2, 4, 8, 16};
    static const unsigned samples[] = {1, 2, 4, 8};
    uint32_t rng = 99;
    unsigned checked = 0, refused = 0;
    for (unsigned k = 0; k < 4000; k++) {
        rng = rng * 1103515245u + 12345u;
        unsigned w = 1 + (rng >> 8) % (k % 2 ? 300 : 16384);
        rng = rng * 1103515245u + 12345u;
        unsigned h = 1 + (rng >> 8) % (k % 3 ? 300 : 16384);
        uint32_t cfg = (k % 4) | ((k / 4) % 3) << 4 | ((k / 12) % 2) << 8 | ((k / 24) % 3) << 12;
        struct cedar_tiling t;
        assert_int_equal(cedar_tiling_from_config(cfg, &t), 0);
        struct cedar_surface_req req = {w, h, bpes[k % 5], samples[(k / 5) % 4],
                                        CEDAR_MODE_2D_THIN, (k / 7) % 2 != 0, false};
        if (req.samples == 1)
            req.mode = (enum cedar_array_mode)((k / 20) % 3);
        struct cedar_msaa_layout m;
        if (cedar_msaa_layout(&req, &t, &m, NULL)) {
            /* libdrm's only refusal here: with a 512-byte interleave an
             * FMask bank (1-byte pixels x bank height 4 for 2/4 samples,
             * 4-byte pixels x the colour's bank height for 8) can be
             * smaller than the interleave */
            assert_int_equal(t.group_bytes, 512);
            assert_true(req.samples > 1);
            refused++;
            continue;
        }
        checked++;
        const struct cedar_surface *c = &m.color;
        assert_true(c->aligned_width >= w && c->aligned_height >= h);
        assert_int_equal(c->aligned_width % c->align_x, 0);
        assert_int_equal(c->aligned_height % c->align_y, 0);
        assert_int_equal(c->aligned_width % 8, 0);
        assert_true(c->size >= (uint64_t)c->aligned_width * c->aligned_height * c->bpe *
                                   c->samples);
        assert_int_equal(c->size, c->slice_bytes);
        assert_true(is_pow2(c->alignment) && c->alignment >= 256);
        if (c->mode == CEDAR_MODE_2D_THIN) {
            /* whole macro tiles, no padding inside */
            assert_int_equal(c->size % c->macro_tile_bytes, 0);
            assert_int_equal(c->size, (uint64_t)c->aligned_width * c->aligned_height *
                                          c->bpe * c->samples);
        }
        /* CMask: 4 bits per 8x8 tile cover the whole requested surface */
        assert_true(m.cmask.size * 2 * 64 >= (uint64_t)w * h);
        assert_int_equal(m.cmask.size % (t.pipes * t.group_bytes), 0);
        if (req.samples > 1) {
            assert_int_equal(m.fmask.surf.mode, CEDAR_MODE_2D_THIN);
            assert_int_equal(m.fmask.offset % m.fmask.surf.alignment, 0);
            assert_true(m.fmask.offset >= c->size);
            assert_true(m.fmask.offset < c->size + m.fmask.surf.alignment);
            assert_int_equal(m.cmask.offset % m.cmask.alignment, 0);
            assert_true(m.cmask.offset >= m.fmask.offset + m.fmask.surf.size);
            assert_int_equal(m.total_size, m.cmask.offset + m.cmask.size);
            /* FMask bits per pixel: log2(samples) per sample, rounded */
            assert_true(m.fmask.surf.size * 8 >=
                        (uint64_t)w * h * req.samples * (req.samples == 8 ? 3 : 1));
            assert_int_equal(m.resolve.samples, 1);
            assert_int_equal(m.resolve.scanout, req.scanout);
            assert_false(m.color.scanout);
        } else {
            assert_int_equal(m.total_size, c->size);
        }
    }
    assert_int_equal(checked + refused, 4000);
    print_message("%u layouts checked, %u refused\n", checked, refused);
    assert_true(checked > 2500);
}

/* ---- decoding and bad input -------------------------------------------- */

static void test_tiling_config(void **state)
{
    (void)state;
    struct cedar_tiling t = {0};
    assert_int_equal(cedar_tiling_from_config(0x0011, &t), 0);
    assert_int_equal(t.pipes, 2);
    assert_int_equal(t.banks, 8);
    assert_int_equal(t.group_bytes, 256);
    assert_int_equal(t.row_bytes, 1024);
    assert_int_equal(cedar_tiling_from_config(0x2123, &t), 0);
    assert_int_equal(t.pipes, 8);
    assert_int_equal(t.banks, 16);
    assert_int_equal(t.group_bytes, 512);
    assert_int_equal(t.row_bytes, 4096);
    static const uint32_t bad[] = {0x0014, 0x0031, 0x0211, 0x3011, 0x10011, 0x80000011u};
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct cedar_tiling keep = t;
        assert_int_equal(cedar_tiling_from_config(bad[i], &t), -1);
        assert_memory_equal(&keep, &t, sizeof(t)); /* untouched */
    }
    assert_string_equal(cedar_array_mode_name(CEDAR_MODE_LINEAR_ALIGNED), "linear_aligned");
    assert_string_equal(cedar_array_mode_name(CEDAR_MODE_1D_THIN), "1d");
    assert_string_equal(cedar_array_mode_name(CEDAR_MODE_2D_THIN), "2d");
}

static void expect_error(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         const char *needle)
{
    struct cedar_msaa_layout m;
    struct cedar_layout_err err = {{0}};
    assert_int_equal(cedar_msaa_layout(req, t, &m, &err), -1);
    assert_non_null(strstr(err.msg, needle));
    assert_null(strchr(err.msg, '\n'));
}

static void test_bad_input(void **state)
{
    (void)state;
    struct cedar_tiling t = cedar_hd7350();
    struct cedar_surface_req ok = {64, 64, 4, 1, CEDAR_MODE_2D_THIN, false, false};
    struct cedar_surface_req r;

    r = ok; r.width = 0; expect_error(&r, &t, "width");
    r = ok; r.width = 16385; expect_error(&r, &t, "width");
    r = ok; r.height = 0; expect_error(&r, &t, "height");
    r = ok; r.height = 100000; expect_error(&r, &t, "height");
    r = ok; r.bpe = 3; expect_error(&r, &t, "bytes per element");
    r = ok; r.bpe = 32; expect_error(&r, &t, "bytes per element");
    r = ok; r.samples = 16; expect_error(&r, &t, "sample");
    r = ok; r.samples = 0; expect_error(&r, &t, "sample");
    r = ok; r.samples = 4; r.mode = CEDAR_MODE_1D_THIN; expect_error(&r, &t, "2d");
    r = ok; r.samples = 2; r.mode = CEDAR_MODE_LINEAR_ALIGNED; expect_error(&r, &t, "2d");
    r = ok; r.mode = (enum cedar_array_mode)7; expect_error(&r, &t, "mode");
    struct cedar_tiling bad = t;
    bad.pipes = 3;
    expect_error(&ok, &bad, "tiling");

    /* libdrm refuses this FMask (bank height 4 x 64 B < 512 B interleave) */
    struct cedar_tiling wide = t;
    wide.group_bytes = 512;
    r = ok; r.samples = 2; r.bpe = 1; expect_error(&r, &wide, "FMask");

    /* FMask of a single-sample surface */
    struct cedar_surface c;
    struct cedar_fmask f;
    struct cedar_layout_err err = {{0}};
    assert_int_equal(cedar_surface_layout(&ok, &t, &c, NULL), 0);
    assert_int_equal(cedar_fmask_layout(&c, &f, &err), -1);
    assert_true(strlen(err.msg) > 0);
    /* NULLs */
    assert_int_equal(cedar_surface_layout(NULL, &t, &c, NULL), -1);
    assert_int_equal(cedar_surface_layout(&ok, NULL, &c, NULL), -1);
    assert_int_equal(cedar_msaa_layout(&ok, &t, NULL, NULL), -1);
}

/* Small single-sample 2D requests fall back to 1D but keep the 2D parameters
 * and alignment, as libdrm does; MSAA and FMask never fall back. */
static void test_fallback(void **state)
{
    (void)state;
    struct cedar_tiling t = cedar_hd7350();
    struct cedar_surface s;
    struct cedar_surface_req r = {16, 720, 4, 1, CEDAR_MODE_2D_THIN, false, false};
    assert_int_equal(cedar_surface_layout(&r, &t, &s, NULL), 0);
    assert_int_equal(s.mode, CEDAR_MODE_1D_THIN);
    assert_int_equal(s.requested_mode, CEDAR_MODE_2D_THIN);
    assert_int_equal(s.tile_split, 1024);
    assert_int_equal(s.bankh, 2);
    assert_int_equal(s.alignment, 8192); /* the 32x64 macro tile of 4-byte pixels */
    assert_int_equal(s.aligned_width, 16);
    assert_int_equal(s.aligned_height, 720);

    r.samples = 8;
    assert_int_equal(cedar_surface_layout(&r, &t, &s, NULL), 0);
    assert_int_equal(s.mode, CEDAR_MODE_2D_THIN);
    assert_int_equal(s.aligned_width, 32);

    /* the resolve target of a small MSAA surface falls back to 1D */
    struct cedar_msaa_layout m;
    r.width = 16;
    r.height = 16;
    assert_int_equal(cedar_msaa_layout(&r, &t, &m, NULL), 0);
    assert_int_equal(m.resolve.requested_mode, CEDAR_MODE_2D_THIN);
    assert_int_equal(m.resolve.mode, CEDAR_MODE_1D_THIN);
    assert_int_equal(m.fmask.surf.mode, CEDAR_MODE_2D_THIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_figures),
        cmocka_unit_test(test_mesa_draw_stream),
        cmocka_unit_test(test_mesa_resolve_stream),
        cmocka_unit_test(test_cmask_other_pipe_counts),
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_tiling_config),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
