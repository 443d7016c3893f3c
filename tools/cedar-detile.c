/* cedar-detile: de-tile an Evergreen colour or FMask surface into a PNG or a
 * raw linear image, draw the tile order, or print where a pixel lives.
 * Run with --help for the options. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "cedar/image.h"
#include "cedar/layout.h"
#include "cedar/tiling.h"

#define EXIT_USAGE 2
#define MAX_SURFACE (1ull << 30)

static const char usage[] =
    "usage: cedar-detile IN OUT.png --width W --height H [options]\n"
    "       cedar-detile --addr X,Y[,S] --width W --height H [options]\n"
    "       cedar-detile OUT.png --show tiles --width W --height H [options]\n"
    "\n"
    "De-tiles an Evergreen (Radeon HD 5000/6000) surface read back from the GPU.\n"
    "IN may be gzip-compressed; its size must be exactly the surface's.\n"
    "\n"
    "surface:\n"
    "  --width W --height H   surface size in pixels (rounded up to whole tiles)\n"
    "  --bpe N                bytes per element: 1, 2, 4, 8, 16 (default 4)\n"
    "  --samples N            samples per pixel: 1, 2, 4, 8 (default 1)\n"
    "  --slices N             array slices (default 1)\n"
    "  --layout explicit|auto tiling parameters from the options below (default)\n"
    "                         or computed as Mesa's r600 driver would (auto)\n"
    "  --mode linear|1d|2d    array mode (default 2d)\n"
    "  --tile-split BYTES     64..4096 (default 1024)\n"
    "  --bankw N --bankh N --mtilea N   1, 2, 4, 8 (default 1, 1, 1)\n"
    "  --pipes N              1, 2, 4, 8 (default 2, the Cedar)\n"
    "  --banks N              4, 8, 16 (default 8)\n"
    "  --group-bytes N        pipe interleave 256 or 512 (default 256)\n"
    "  --row-bytes N          DRAM row size (--layout auto only; default 1024)\n"
    "  --shader-engines N --se-tile N   8-pipe parts only (default 2, 32)\n"
    "  --non-displayable      micro-tile order of depth/FMask (colour: displayable)\n"
    "\n"
    "what to output:\n"
    "  --sample K | --all-samples   which sample plane(s) (default 0); all\n"
    "                         samples are stacked top to bottom\n"
    "  --slice Z              which slice (default 0)\n"
    "  --format F             auto|bgra8|rgba8|r8|rg8|r16|rgba16 (auto: by bpe)\n"
    "  --raw OUT.bin          also (or only) write the linear raw image\n"
    "  --crop X,Y,W,H         output only this rectangle\n"
    "  --zoom N               enlarge the PNG N times (nearest neighbour)\n"
    "  --show tiles           draw the tile order (no IN): hue = micro tile's\n"
    "                         place in memory inside its macro tile, brightness =\n"
    "                         pixel's place inside its micro tile\n"
    "  --addr X,Y[,S]         print the byte offset of pixel (X,Y) sample S\n"
    "  --fmask                the surface is an FMask for --samples colour\n"
    "                         samples: with --addr print 'BYTE BIT' of bit\n"
    "                         --plane P (default 0) of the sample's fragment\n"
    "                         index; with IN draw the number of distinct\n"
    "                         fragments per pixel\n"
    "  --help                 this text\n";

static void die_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("cedar-detile: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see cedar-detile --help)\n", stderr);   /* one line per error */
    va_end(ap);
    exit(EXIT_USAGE);
}

static unsigned parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi)
{
    unsigned v;
    struct cedar_cli_err err;
    if (cedar_cli_uint(opt, s, lo, hi, &v, &err))
        die_usage("%s", err.msg);
    return v;
}

/* "a,b[,c[,d]]" -> n values (n_min..n_max) */
static unsigned parse_list(const char *opt, const char *s, unsigned *v, unsigned n_min, unsigned n_max)
{
    unsigned n;
    struct cedar_cli_err err;
    if (cedar_cli_list(opt, s, n_min, n_max, INT_MAX, v, &n, &err))
        die_usage("%s", err.msg);
    return n;
}

struct opts {
    const char *in, *out, *raw;
    unsigned width, height, bpe, samples, slices;
    int layout_auto;
    enum cedar_array_mode mode;
    unsigned tile_split, bankw, bankh, mtilea;
    struct cedar_tiling tiling;
    unsigned shader_engines, se_tile;
    int non_disp;
    int all_samples;
    unsigned sample, slice, plane;
    const char *format;
    int crop;
    unsigned crop_v[4];
    unsigned zoom;
    int show_tiles, fmask;
    int addr;
    unsigned addr_v[3], addr_n;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->bpe = 4;
    o->samples = 1;
    o->slices = 1;
    o->mode = CEDAR_MODE_2D_THIN;
    o->tile_split = 1024;
    o->bankw = o->bankh = o->mtilea = 1;
    o->tiling.pipes = 2;
    o->tiling.banks = 8;
    o->tiling.group_bytes = 256;
    o->format = "auto";
    o->zoom = 1;
    int have_w = 0, have_h = 0, have_sample = 0, have_plane = 0;
    const char *pos[2];
    unsigned npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        }
        if (a[0] != '-' || a[1] == 0) {
            if (npos == 2)
                die_usage("unexpected argument '%s'", a);
            pos[npos++] = a;
            continue;
        }
        /* flags without a value */
        if (!strcmp(a, "--all-samples")) { o->all_samples = 1; continue; }
        if (!strcmp(a, "--non-displayable")) { o->non_disp = 1; continue; }
        if (!strcmp(a, "--fmask")) { o->fmask = 1; continue; }
        if (i + 1 >= argc)
            die_usage("%s needs a value", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--width")) { o->width = parse_uint(a, v, 1, 16384); have_w = 1; }
        else if (!strcmp(a, "--height")) { o->height = parse_uint(a, v, 1, 16384); have_h = 1; }
        else if (!strcmp(a, "--bpe")) o->bpe = parse_uint(a, v, 1, 16);
        else if (!strcmp(a, "--samples")) o->samples = parse_uint(a, v, 1, 16);
        else if (!strcmp(a, "--slices")) o->slices = parse_uint(a, v, 1, 2048);
        else if (!strcmp(a, "--slice")) o->slice = parse_uint(a, v, 0, 2047);
        else if (!strcmp(a, "--sample")) { o->sample = parse_uint(a, v, 0, 15); have_sample = 1; }
        else if (!strcmp(a, "--plane")) { o->plane = parse_uint(a, v, 0, 15); have_plane = 1; }
        else if (!strcmp(a, "--tile-split")) o->tile_split = parse_uint(a, v, 1, 1u << 20);
        else if (!strcmp(a, "--bankw")) o->bankw = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--bankh")) o->bankh = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--mtilea")) o->mtilea = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--pipes")) o->tiling.pipes = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--banks")) o->tiling.banks = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--group-bytes")) o->tiling.group_bytes = parse_uint(a, v, 1, 1u << 20);
        else if (!strcmp(a, "--row-bytes")) o->tiling.row_bytes = parse_uint(a, v, 1, 1u << 20);
        else if (!strcmp(a, "--shader-engines")) o->shader_engines = parse_uint(a, v, 1, 2);
        else if (!strcmp(a, "--se-tile")) o->se_tile = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--format")) o->format = v;
        else if (!strcmp(a, "--raw")) o->raw = v;
        else if (!strcmp(a, "--zoom")) o->zoom = parse_uint(a, v, 1, 64);
        else if (!strcmp(a, "--crop")) { parse_list(a, v, o->crop_v, 4, 4); o->crop = 1; }
        else if (!strcmp(a, "--addr")) { o->addr_n = parse_list(a, v, o->addr_v, 2, 3); o->addr = 1; }
        else if (!strcmp(a, "--layout")) {
            if (!strcmp(v, "auto")) o->layout_auto = 1;
            else if (strcmp(v, "explicit")) die_usage("--layout: 'auto' or 'explicit', not '%s'", v);
        } else if (!strcmp(a, "--mode")) {
            if (!strcmp(v, "linear") || !strcmp(v, "linear_aligned")) o->mode = CEDAR_MODE_LINEAR_ALIGNED;
            else if (!strcmp(v, "1d")) o->mode = CEDAR_MODE_1D_THIN;
            else if (!strcmp(v, "2d")) o->mode = CEDAR_MODE_2D_THIN;
            else die_usage("--mode: linear, 1d or 2d, not '%s'", v);
        } else if (!strcmp(a, "--show")) {
            if (strcmp(v, "tiles")) die_usage("--show: only 'tiles' is known, not '%s'", v);
            o->show_tiles = 1;
        } else
            die_usage("unknown option '%s'", a);
    }
    if (!have_w || !have_h)
        die_usage("--width and --height are required");
    if (have_sample && o->all_samples)
        die_usage("--sample and --all-samples exclude each other");
    if (have_plane && !(o->fmask && o->addr))
        die_usage("--plane only goes with --fmask --addr");
    if (o->addr) {
        if (npos)
            die_usage("--addr takes no input or output file");
        if (o->addr_n == 3)
            o->sample = o->addr_v[2];
    } else if (o->show_tiles) {
        if (npos != 1 && !(npos == 0 && o->raw))
            die_usage("--show tiles takes one output file and no input");
        o->out = npos ? pos[0] : NULL;
    } else {
        if (npos < 1)
            die_usage("no input file");
        o->in = pos[0];
        o->out = npos > 1 ? pos[1] : NULL;
        if (!o->out && !o->raw)
            die_usage("no output: give OUT.png and/or --raw OUT.bin");
    }
    if (o->fmask && o->show_tiles)
        die_usage("--show tiles draws colour surfaces only");
}

static unsigned align_up(unsigned v, unsigned a) { return (v + a - 1) / a * a; }

/* The surface (and for --fmask the FMask surface) the options describe. */
static void build_map(const struct opts *o, struct cedar_tile_map *m)
{
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    struct cedar_layout_err err = {{0}};
    struct cedar_tile_opts topts;
    memset(&topts, 0, sizeof topts);
    topts.slices = o->slices;
    topts.order = o->non_disp ? CEDAR_MICRO_NON_DISPLAYABLE : CEDAR_MICRO_DISPLAYABLE;
    topts.shader_engines = o->shader_engines;
    topts.se_tile = o->se_tile;

    if (o->layout_auto) {
        /* The layout the driver stack would choose (src/layout/: libdrm
         * radeon_surface for colour, Mesa r600 for FMask). */
        struct cedar_tiling t = o->tiling;
        if (!t.row_bytes)
            t.row_bytes = 1024;
        if (cedar_tiling_check(&t) != 0)
            die_usage("--layout auto: %u pipes, %u banks, %u-byte interleave, %u-byte rows is not "
                      "an Evergreen", t.pipes, t.banks, t.group_bytes, t.row_bytes);
        struct cedar_surface_req req;
        memset(&req, 0, sizeof req);
        req.width = o->width;
        req.height = o->height;
        req.bpe = o->fmask ? 4 : o->bpe;
        req.samples = o->samples;
        req.mode = o->mode;
        if (cedar_surface_layout(&req, &t, &s, &err) != 0)
            die_usage("--layout auto: %s", err.msg);
        if (o->fmask) {
            struct cedar_fmask fm;
            if (cedar_fmask_layout(&s, &fm, &err) != 0)
                die_usage("--layout auto: %s", err.msg);
            s = fm.surf;
        }
        int rc = o->fmask ? cedar_fmask_map_init(m, &s, o->samples, &topts, &err)
                          : cedar_tile_map_init(m, &s, &topts, &err);
        if (rc != 0)
            die_usage("impossible surface: %s", err.msg);
        return;
    }
    s.mode = o->mode;
    s.width = o->width;
    s.height = o->height;
    s.bpe = o->bpe;
    s.samples = o->fmask ? 1 : o->samples;
    s.tile_split = o->tile_split;
    s.bankw = o->bankw;
    s.bankh = o->bankh;
    s.mtilea = o->mtilea;
    s.tiling = o->tiling;
    unsigned wa = 8, ha = o->mode == CEDAR_MODE_LINEAR_ALIGNED ? 1 : 8;
    if (o->mode == CEDAR_MODE_2D_THIN && o->mtilea && o->tiling.pipes) {
        wa = 8 * o->bankw * o->tiling.pipes * o->mtilea;
        ha = 8 * o->bankh * o->tiling.banks / o->mtilea;
        if (ha < 8)
            ha = 8; /* invalid (aspect > banks); the map init says why */
    }
    s.aligned_width = align_up(o->width, wa);
    s.aligned_height = align_up(o->height, ha);
    int rc = o->fmask ? cedar_fmask_map_init(m, &s, o->samples, &topts, &err)
                      : cedar_tile_map_init(m, &s, &topts, &err);
    if (rc != 0)
        die_usage("impossible surface: %s", err.msg);
    if (m->size > MAX_SURFACE)
        die_usage("surface of %llu bytes is larger than this tool handles (1 GiB)",
                  (unsigned long long)m->size);
}

static void check_point(const struct opts *o, const struct cedar_tile_map *m, unsigned x, unsigned y)
{
    if (x >= o->width || y >= o->height)
        die_usage("pixel (%u,%u) is outside the %ux%u surface", x, y, o->width, o->height);
    if (o->sample >= m->samples)
        die_usage("sample %u: the surface has %u", o->sample, m->samples);
    if (o->slice >= m->slices)
        die_usage("slice %u: the surface has %u", o->slice, m->slices);
}

/* --- output image ----------------------------------------------------------- */

struct image {
    unsigned w, h;            /* pixels */
    unsigned bytes_pp;        /* of `data` */
    enum cedar_png_kind kind; /* how data is written to PNG */
    uint8_t *data;
};

/* A zoomed PNG too large is refused before any picture is drawn (a 16384^2
 * tile picture takes seconds to draw). */
static void check_zoom(const struct opts *o, unsigned w, unsigned h, unsigned bytes_pp)
{
    if (o->out && o->zoom > 1 &&
        (uint64_t)w * o->zoom * h * o->zoom * bytes_pp > MAX_SURFACE)
        die_usage("--zoom %u makes a too large image", o->zoom);
}

static void write_outputs(const struct opts *o, const struct image *png_img,
                          const uint8_t *raw, size_t raw_size)
{
    struct cedar_image_err e;
    if (o->raw && raw && cedar_file_write(o->raw, raw, raw_size, &e) != 0) {
        fprintf(stderr, "cedar-detile: %s\n", e.msg);
        exit(1);
    }
    if (!o->out)
        return;
    const struct image *img = png_img;
    struct image zoomed;
    if (o->zoom > 1) {
        zoomed = *img;
        zoomed.w = img->w * o->zoom;
        zoomed.h = img->h * o->zoom;
        if ((uint64_t)zoomed.w * zoomed.h * img->bytes_pp > MAX_SURFACE)
            die_usage("--zoom %u makes a too large image", o->zoom);
        zoomed.data = malloc((size_t)zoomed.w * zoomed.h * img->bytes_pp);
        if (!zoomed.data) {
            fprintf(stderr, "cedar-detile: out of memory\n");
            exit(1);
        }
        for (unsigned y = 0; y < zoomed.h; y++)
            for (unsigned x = 0; x < zoomed.w; x++)
                memcpy(zoomed.data + ((size_t)y * zoomed.w + x) * img->bytes_pp,
                       img->data + ((size_t)(y / o->zoom) * img->w + x / o->zoom) * img->bytes_pp,
                       img->bytes_pp);
        img = &zoomed;
    }
    int rc = cedar_png_write(o->out, img->data, img->w, img->h, (size_t)img->w * img->bytes_pp,
                             img->kind, &e);
    if (img != png_img)
        free(zoomed.data);
    if (rc != 0) {
        fprintf(stderr, "cedar-detile: %s\n", e.msg);
        exit(1);
    }
}

/* The crop rectangle inside the W x H surface. */
static void crop_rect(const struct opts *o, unsigned r[4])
{
    r[0] = 0;
    r[1] = 0;
    r[2] = o->width;
    r[3] = o->height;
    if (o->crop) {
        const unsigned *c = o->crop_v;
        if (c[2] == 0 || c[3] == 0 || c[0] >= o->width || c[1] >= o->height ||
            c[2] > o->width - c[0] || c[3] > o->height - c[1])
            die_usage("--crop %u,%u,%u,%u is not inside the %ux%u surface", c[0], c[1], c[2], c[3],
                      o->width, o->height);
        memcpy(r, c, sizeof(unsigned) * 4);
    }
}

/* Element bytes -> PNG pixel, per --format. */
static enum cedar_png_kind format_kind(const struct opts *o, unsigned bpe, unsigned *out_bpp, int *conv)
{
    const char *f = o->format;
    if (!strcmp(f, "auto")) {
        switch (bpe) {
        case 1: f = "r8"; break;
        case 2: f = "r16"; break;
        case 4: f = "bgra8"; break;
        case 8: f = "rgba16"; break;
        default:
            if (o->out)
                die_usage("no PNG format for %u-byte elements; use --raw", bpe);
            f = "r8";
            break;
        }
    }
    static const struct { const char *name; unsigned bpe, out_bpp; enum cedar_png_kind kind; } fmts[] = {
        {"r8", 1, 1, CEDAR_PNG_GRAY8},   {"r16", 2, 2, CEDAR_PNG_GRAY16},
        {"rg8", 2, 4, CEDAR_PNG_RGBA8},  {"rgba8", 4, 4, CEDAR_PNG_RGBA8},
        {"bgra8", 4, 4, CEDAR_PNG_RGBA8}, {"rgba16", 8, 8, CEDAR_PNG_RGBA16},
    };
    for (unsigned i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        if (!strcmp(f, fmts[i].name)) {
            if (fmts[i].bpe != bpe && o->out)
                die_usage("--format %s needs %u-byte elements, the surface has %u", f, fmts[i].bpe, bpe);
            *out_bpp = fmts[i].out_bpp;
            *conv = (int)i;
            return fmts[i].kind;
        }
    die_usage("--format: unknown format '%s'", f);
    return CEDAR_PNG_GRAY8;
}

static void convert_pixel(int conv, const uint8_t *src, uint8_t *dst)
{
    switch (conv) {
    case 0: dst[0] = src[0]; break;                                   /* r8 */
    case 1: memcpy(dst, src, 2); break;                               /* r16, little-endian host */
    case 2: dst[0] = src[0]; dst[1] = src[1]; dst[2] = 0; dst[3] = 255; break; /* rg8 */
    case 3: memcpy(dst, src, 4); break;                               /* rgba8 */
    case 4: dst[0] = src[2]; dst[1] = src[1]; dst[2] = src[0]; dst[3] = src[3]; break; /* bgra8 */
    default: memcpy(dst, src, 8); break;                              /* rgba16 */
    }
}

static int detile_colour(const struct opts *o, const struct cedar_tile_map *m, const uint8_t *in,
                         size_t in_size)
{
    unsigned r[4];
    crop_rect(o, r);
    unsigned s0 = o->all_samples ? 0 : o->sample;
    unsigned ns = o->all_samples ? m->samples : 1;
    unsigned out_bpp;
    int conv;
    enum cedar_png_kind kind = format_kind(o, m->bpe, &out_bpp, &conv);
    size_t stride = (size_t)m->width * m->bpe;
    uint8_t *plane = malloc(stride * m->height);
    size_t raw_row = (size_t)r[2] * m->bpe;
    uint8_t *raw = malloc(raw_row * r[3] * ns);
    struct image img = {r[2], r[3] * ns, out_bpp, kind, malloc((size_t)r[2] * r[3] * ns * out_bpp)};
    if (!plane || !raw || !img.data) {
        fprintf(stderr, "cedar-detile: out of memory\n");
        return 1;
    }
    for (unsigned k = 0; k < ns; k++) {
        if (cedar_detile(m, in, in_size, plane, stride, s0 + k, o->slice) != 0) {
            fprintf(stderr, "cedar-detile: de-tiling failed\n");
            return 1;
        }
        for (unsigned y = 0; y < r[3]; y++) {
            const uint8_t *src = plane + (size_t)(r[1] + y) * stride + (size_t)r[0] * m->bpe;
            memcpy(raw + ((size_t)k * r[3] + y) * raw_row, src, raw_row);
            if (o->out)
                for (unsigned x = 0; x < r[2]; x++)
                    convert_pixel(conv, src + (size_t)x * m->bpe,
                                  img.data + (((size_t)k * r[3] + y) * r[2] + x) * out_bpp);
        }
    }
    write_outputs(o, &img, raw, raw_row * r[3] * ns);
    free(plane);
    free(raw);
    free(img.data);
    return 0;
}

/* Distinct valid fragments per pixel: 1 black, 2 blue, 3 green, 4 cyan,
 * 5 red, 6 magenta, 7 yellow, 8 white; none valid: grey. */
static int draw_fmask(const struct opts *o, const struct cedar_tile_map *m, const uint8_t *in)
{
    static const uint8_t pal[9][3] = {{128, 128, 128}, {0, 0, 0},       {0, 0, 255},
                                      {0, 255, 0},     {0, 255, 255},   {255, 0, 0},
                                      {255, 0, 255},   {255, 255, 0},   {255, 255, 255}};
    unsigned r[4];
    crop_rect(o, r);
    struct image img = {r[2], r[3], 4, CEDAR_PNG_RGBA8, malloc((size_t)r[2] * r[3] * 4)};
    uint8_t *raw = malloc((size_t)r[2] * r[3]);
    if (!img.data || !raw) {
        fprintf(stderr, "cedar-detile: out of memory\n");
        return 1;
    }
    for (unsigned y = 0; y < r[3]; y++)
        for (unsigned x = 0; x < r[2]; x++) {
            unsigned seen = 0, n = 0;
            for (unsigned s = 0; s < m->samples; s++) {
                unsigned f = cedar_fmask_fragment(m, in, r[0] + x, r[1] + y, s, o->slice);
                if (f < m->samples && !(seen & (1u << f))) {
                    seen |= 1u << f;
                    n++;
                }
            }
            uint8_t *d = img.data + ((size_t)y * r[2] + x) * 4;
            d[0] = pal[n][0];
            d[1] = pal[n][1];
            d[2] = pal[n][2];
            d[3] = 255;
            raw[(size_t)y * r[2] + x] = (uint8_t)n;
        }
    write_outputs(o, &img, raw, (size_t)r[2] * r[3]);
    free(img.data);
    free(raw);
    return 0;
}

static void hsv(double h, double v, uint8_t *rgb)
{
    double f = h * 6.0;
    int i = (int)f % 6;
    double t = f - (int)f;
    double c[6][3] = {{1, t, 0}, {1 - t, 1, 0}, {0, 1, t}, {0, 1 - t, 1}, {t, 0, 1}, {1, 0, 1 - t}};
    for (int k = 0; k < 3; k++)
        rgb[k] = (uint8_t)(255.0 * v * c[i][k] + 0.5);
}

static int show_tiles(const struct opts *o, const struct cedar_tile_map *m)
{
    unsigned r[4];
    crop_rect(o, r);
    if (o->sample >= m->samples || o->slice >= m->slices)
        die_usage("sample/slice out of range");
    check_zoom(o, r[2], r[3], 4);
    struct image img = {r[2], r[3], 4, CEDAR_PNG_RGBA8, malloc((size_t)r[2] * r[3] * 4)};
    if (!img.data) {
        fprintf(stderr, "cedar-detile: out of memory\n");
        return 1;
    }
    /* Memory is cut into micro-tile planes of 64*bpe bytes; a macro tile
     * holds bankw*bankh*pipes*banks micro tiles per plane. */
    uint64_t unit = 64ull * m->bpe;
    uint64_t labels = m->mode == CEDAR_MODE_2D_THIN
                          ? (uint64_t)m->bankw * m->bankh * m->pipes * m->banks
                          : (uint64_t)(m->width / 8);
    for (unsigned y = 0; y < r[3]; y++)
        for (unsigned x = 0; x < r[2]; x++) {
            uint64_t a = cedar_tile_addr(m, r[0] + x, r[1] + y, o->sample, o->slice);
            double hue, val;
            if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
                hue = (double)(a / m->group_bytes % 16) / 16.0;
                val = 0.55 + 0.45 * (double)(a % m->group_bytes) / m->group_bytes;
            } else {
                /* where the micro tile starts in memory, in micro-tile units,
                 * modulo the micro tiles of a macro tile (2D) or of a row (1D) */
                uint64_t base = cedar_tile_addr(m, (r[0] + x) & ~7u, (r[1] + y) & ~7u, o->sample, o->slice);
                hue = (double)(base / unit % labels) / (double)labels;
                val = 0.45 + 0.55 * (double)cedar_tile_pixel_index(m, r[0] + x, r[1] + y) / 63.0;
            }
            uint8_t *d = img.data + ((size_t)y * r[2] + x) * 4;
            hsv(hue, val, d);
            d[3] = 255;
        }
    write_outputs(o, &img, NULL, 0);
    free(img.data);
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    parse_args(argc, argv, &o);
    struct cedar_tile_map m;
    build_map(&o, &m);

    if (o.addr) {
        check_point(&o, &m, o.addr_v[0], o.addr_v[1]);
        if (o.fmask) {
            if (o.plane >= cedar_fmask_planes(&m))
                die_usage("--plane %u: an FMask for %u samples has %u planes", o.plane, m.samples,
                          cedar_fmask_planes(&m));
            uint64_t byte;
            unsigned bit;
            cedar_fmask_bit(&m, o.addr_v[0], o.addr_v[1], o.sample, o.plane, o.slice, &byte, &bit);
            printf("%llu %u\n", (unsigned long long)byte, bit);
        } else {
            printf("%llu\n", (unsigned long long)cedar_tile_addr(&m, o.addr_v[0], o.addr_v[1],
                                                                 o.sample, o.slice));
        }
        return 0;
    }
    if (o.show_tiles)
        return show_tiles(&o, &m);

    if (o.slice >= m.slices)
        die_usage("slice %u: the surface has %u", o.slice, m.slices);
    if (!o.fmask && !o.all_samples && o.sample >= m.samples)
        die_usage("sample %u: the surface has %u", o.sample, m.samples);
    uint8_t *in;
    size_t in_size;
    struct cedar_image_err e;
    if (cedar_file_read(o.in, MAX_SURFACE + 1, &in, &in_size, &e) != 0) {
        fprintf(stderr, "cedar-detile: %s\n", e.msg);
        return EXIT_USAGE;
    }
    if (in_size != m.size) {
        fprintf(stderr,
                "cedar-detile: %s holds %zu bytes, but a %ux%u surface (pitch %u, height %u) "
                "with these parameters is %llu bytes\n",
                o.in, in_size, o.width, o.height, m.width, m.height, (unsigned long long)m.size);
        free(in);
        return EXIT_USAGE;
    }
    int rc = o.fmask ? draw_fmask(&o, &m, in) : detile_colour(&o, &m, in, in_size);
    free(in);
    return rc;
}
