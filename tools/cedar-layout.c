/* cedar-layout: print the surface layouts of an (MSAA) colour buffer on an
 * Evergreen GPU, each number with the reason it has that value, or as JSON.
 *
 *   cedar-layout --width 1280 --height 720 --bpe 4 --samples 8
 *   cedar-layout --width 1280 --height 720 --bpe 4 --samples 8 --json
 *
 * Bad usage or input: one line on stderr, exit status 2.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "cedar/layout.h"
#include "eg_regs.h"

#define EXIT_USAGE 2

struct options {
    struct cedar_surface_req req;
    uint32_t tiling_config;
    long pipes, banks, interleave, row_kb; /* -1: from the tiling config */
    bool json;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cedar-layout --width N --height N [--bpe 1|2|4|8|16] [--samples 1|2|4|8]\n"
            "                    [--mode linear|1d|2d] [--scanout] [--json]\n"
            "                    [--tiling-config HEX | --pipes N --banks N --interleave BYTES"
            " --row-kb N]\n"
            "\n"
            "Lays out a colour surface as libdrm_radeon and Mesa r600 do on an Evergreen GPU:\n"
            "the (MSAA) colour surface, its FMask and CMask and where they sit in one buffer,\n"
            "and the single-sample resolve target, each number with its reason.\n"
            "\n"
            "  --width, --height   pixels, 1..16384 (required)\n"
            "  --bpe               bytes per element (default 4)\n"
            "  --samples           samples per pixel (default 1); MSAA needs --mode 2d\n"
            "  --mode              requested array mode (default 2d); libdrm may fall back\n"
            "                      from 2d to 1d for small single-sample surfaces\n"
            "  --scanout           the displayed surface (the resolve target when MSAA)\n"
            "  --tiling-config     RADEON_INFO_TILING_CONFIG value (default 0x0011, HD 7350)\n"
            "  --pipes/--banks/--interleave/--row-kb   override single fields of it\n"
            "  --json              machine-readable output (keys: color, fmask, cmask,\n"
            "                      resolve, total_size)\n");
}

static int fail_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "cedar-layout: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see --help)\n");
    return -1;
}

/* A whole decimal number in [0, max], or (hex) a 32-bit hex number. */
static int parse_number(const char *opt, const char *s, bool hex, unsigned max, unsigned long *out)
{
    if (!s)
        return fprintf(stderr, "cedar-layout: %s needs a number (see --help)\n", opt), -1;
    struct cedar_cli_err err;
    unsigned v;
    uint32_t h;
    if (hex ? cedar_cli_hex32(opt, s, 0, &h, &err) : cedar_cli_uint(opt, s, 0, max, &v, &err))
        return fail_usage("%s", err.msg);
    *out = hex ? h : v;
    return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    unsigned long v;
    bool have_w = false, have_h = false;

    memset(o, 0, sizeof(*o));
    o->req.bpe = 4;
    o->req.samples = 1;
    o->req.mode = CEDAR_MODE_2D_THIN;
    o->tiling_config = CEDAR_HD7350_TILING_CONFIG;
    o->pipes = o->banks = o->interleave = o->row_kb = -1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (!strcmp(a, "--scanout")) {
            o->req.scanout = true;
        } else if (!strcmp(a, "--mode")) {
            if (!val)
                return fail_usage("%s needs linear, 1d or 2d", a);
            if (!strcmp(val, "linear") || !strcmp(val, "linear_aligned"))
                o->req.mode = CEDAR_MODE_LINEAR_ALIGNED;
            else if (!strcmp(val, "1d"))
                o->req.mode = CEDAR_MODE_1D_THIN;
            else if (!strcmp(val, "2d"))
                o->req.mode = CEDAR_MODE_2D_THIN;
            else
                return fail_usage("--mode: '%s' is not linear, 1d or 2d", val);
            i++;
        } else if (!strcmp(a, "--tiling-config")) {
            if (!val)
                return fail_usage("%s needs a hex value", a);
            if (parse_number(a, val, true, 0, &v))
                return -1;
            o->tiling_config = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--width") || !strcmp(a, "--height") || !strcmp(a, "--bpe") ||
                   !strcmp(a, "--samples") || !strcmp(a, "--pipes") || !strcmp(a, "--banks") ||
                   !strcmp(a, "--interleave") || !strcmp(a, "--row-kb")) {
            if (parse_number(a, val, false, 1000000, &v))
                return -1;
            if (!strcmp(a, "--width"))
                o->req.width = (unsigned)v, have_w = true;
            else if (!strcmp(a, "--height"))
                o->req.height = (unsigned)v, have_h = true;
            else if (!strcmp(a, "--bpe"))
                o->req.bpe = (unsigned)v;
            else if (!strcmp(a, "--samples"))
                o->req.samples = (unsigned)v;
            else if (!strcmp(a, "--pipes"))
                o->pipes = (long)v;
            else if (!strcmp(a, "--banks"))
                o->banks = (long)v;
            else if (!strcmp(a, "--interleave"))
                o->interleave = (long)v;
            else
                o->row_kb = (long)v;
            i++;
        } else {
            return fail_usage("unknown argument '%s'", a);
        }
    }
    if (!have_w || !have_h)
        return fail_usage("%s", "--width and --height are required");
    return 0;
}

static int make_tiling(const struct options *o, struct cedar_tiling *t)
{
    if (cedar_tiling_from_config(o->tiling_config, t)) {
        fprintf(stderr,
                "cedar-layout: tiling config 0x%04x is malformed (an Evergreen reports pipes "
                "0-3, banks 0-2, interleave 0-1, row 0-2 in bits 15:0)\n",
                o->tiling_config);
        return -1;
    }
    if (o->pipes >= 0)
        t->pipes = (unsigned)o->pipes;
    if (o->banks >= 0)
        t->banks = (unsigned)o->banks;
    if (o->interleave >= 0)
        t->group_bytes = (unsigned)o->interleave;
    if (o->row_kb >= 0)
        t->row_bytes = (unsigned)o->row_kb * 1024;
    if (cedar_tiling_check(t)) {
        fprintf(stderr,
                "cedar-layout: no Evergreen has pipes %u, banks %u, interleave %u B, row %u B "
                "(pipes 1/2/4/8, banks 4/8/16, interleave 256/512, row-kb 1/2/4)\n",
                t->pipes, t->banks, t->group_bytes, t->row_bytes);
        return -1;
    }
    return 0;
}

/* ---- JSON -------------------------------------------------------------- */

static void json_surface(const char *name, const struct cedar_surface *s,
                         const struct cedar_fmask *f, bool last)
{
    printf("  \"%s\": {\"mode\": \"%s\", \"width\": %u, \"height\": %u, \"bpe\": %u, "
           "\"samples\": %u, \"pitch_bytes\": %" PRIu64 ", \"slice_bytes\": %" PRIu64
           ", \"size\": %" PRIu64 ", \"alignment\": %" PRIu64 ", \"tile_split\": %u, "
           "\"bankw\": %u, \"bankh\": %u, \"mtilea\": %u, \"slice_tile_max\": %u",
           name, cedar_array_mode_name(s->mode), s->aligned_width, s->aligned_height, s->bpe,
           s->samples, s->pitch_bytes, s->slice_bytes, s->size, s->alignment, s->tile_split,
           s->bankw, s->bankh, s->mtilea, f ? f->slice_tile_max : s->slice_tile_max);
    if (f)
        printf(", \"offset\": %" PRIu64 ", \"bank_height\": %u", f->offset, f->bank_height);
    printf("}%s\n", last ? "" : ",");
}

static void print_json(const struct cedar_msaa_layout *m)
{
    bool msaa = m->color.samples > 1;
    printf("{\n");
    json_surface("color", &m->color, NULL, false);
    if (msaa)
        json_surface("fmask", &m->fmask.surf, &m->fmask, false);
    printf("  \"cmask\": {\"offset\": %" PRIu64 ", \"size\": %" PRIu64
           ", \"alignment\": %" PRIu64 ", \"slice_tile_max\": %u},\n",
           m->cmask.offset, m->cmask.size, m->cmask.alignment, m->cmask.slice_tile_max);
    if (msaa)
        json_surface("resolve", &m->resolve, NULL, false);
    printf("  \"total_size\": %" PRIu64 "\n}\n", m->total_size);
}

/* ---- the walkthrough ---------------------------------------------------- */

static uint32_t attrib_value(const struct cedar_surface *s, unsigned fmask_bankh_enc)
{
    /* Mesa evergreen_set_color_surface_common(): NON_DISP_TILING_ORDER is 1
     * for linear-aligned colour surfaces, 0 for tiled ones. */
    return S_CB_COLOR_ATTRIB__NON_DISP_TILING_ORDER(s->mode == CEDAR_MODE_LINEAR_ALIGNED) |
           S_CB_COLOR_ATTRIB__TILE_SPLIT(s->tile_split_enc) |
           S_CB_COLOR_ATTRIB__NUM_BANKS(s->num_banks_enc) |
           S_CB_COLOR_ATTRIB__BANK_WIDTH(s->bankw_enc) |
           S_CB_COLOR_ATTRIB__BANK_HEIGHT(s->bankh_enc) |
           S_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(s->mtilea_enc) |
           S_CB_COLOR_ATTRIB__FMASK_BANK_HEIGHT(fmask_bankh_enc);
}

/* One line of the walkthrough: what, its value, why. */
static void row(const char *label, const char *value, const char *why_fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void row(const char *label, const char *value, const char *why_fmt, ...)
{
    va_list ap;
    printf("  %-21s %-15s ", label, value);
    va_start(ap, why_fmt);
    vprintf(why_fmt, ap);
    va_end(ap);
    printf("\n");
}

static const char *fmt_u(char *buf, size_t n, const char *fmt, uint64_t v)
{
    snprintf(buf, n, fmt, v);
    return buf;
}
#define VAL(fmt, v) fmt_u(vbuf, sizeof(vbuf), fmt, (uint64_t)(v))

static unsigned micro_tile_bytes(const struct cedar_surface *s)
{
    return 64 * s->bpe * s->samples;
}

static void explain_params(const struct cedar_surface *s, const char *role, bool is_fmask,
                           const struct cedar_surface *color)
{
    const struct cedar_tiling *t = &s->tiling;
    unsigned utb = micro_tile_bytes(s);
    char vbuf[40];

    row("micro tile", VAL("%" PRIu64 " B", utb), "8 x 8 px x %u B x %u sample%s", s->bpe,
        s->samples, s->samples > 1 ? "s" : "");
    if (is_fmask) {
        row("tile split", VAL("%" PRIu64 " B", s->tile_split), "copied from the colour surface");
        row("bank width", VAL("%" PRIu64, s->bankw), "copied from the colour surface");
        if (color->samples <= 4)
            row("bank height", VAL("%" PRIu64, s->bankh), "4 for 2 and 4 samples");
        else
            row("bank height", VAL("%" PRIu64, s->bankh),
                "copied from the colour surface (8 samples)");
        row("macro aspect", VAL("%" PRIu64, s->mtilea), "copied from the colour surface");
        return;
    }
    if (s->requested_mode != CEDAR_MODE_2D_THIN) {
        row("tile split", VAL("%" PRIu64 " B", s->tile_split),
            "libdrm's default for a non-2D request (unused by %s tiling; Mesa still writes "
            "it to ATTRIB)", s->mode == CEDAR_MODE_1D_THIN ? "1D" : "linear");
        row("bank width", VAL("%" PRIu64, s->bankw), "default 1");
        row("bank height", VAL("%" PRIu64, s->bankh),
            "default: doubled from 1 until a bank holds the %u-B interleave", t->group_bytes);
        row("macro aspect", VAL("%" PRIu64, s->mtilea), "default min(banks %u, 8)", t->banks);
        return;
    }
    if (s->samples > 1)
        row("tile split", VAL("%" PRIu64 " B", s->tile_split),
            "%s: max(2 x %u B x 64, 256), i.e. SAMPLE_SPLIT 2 (libdrm eg_surface_best)", role,
            s->bpe);
    else
        row("tile split", VAL("%" PRIu64 " B", s->tile_split),
            "single sample: the DRAM row size (%u KB)", t->row_bytes / 1024);
    unsigned tileb = utb < s->tile_split ? utb : s->tile_split;
    row("bank width", VAL("%" PRIu64, s->bankw), "libdrm always uses 1 (least width alignment)");
    row("bank height", VAL("%" PRIu64, s->bankh),
        "tile of %u B: 64 B -> 4, 128/256 B -> 2, else 1; doubled until %u x %u x %u B >= "
        "the %u-B interleave", tileb, s->bankw, s->bankh, tileb, t->group_bytes);
    unsigned how = s->bankh * t->banks / (s->bankw * t->pipes);
    row("macro aspect", VAL("%" PRIu64, s->mtilea),
        "bankh x banks / (bankw x pipes) = %u x %u / (%u x %u) = %u; 2^(floor(log2 %u) / 2)",
        s->bankh, t->banks, s->bankw, t->pipes, how, how);
}

static void explain_size(const struct cedar_surface *s)
{
    const struct cedar_tiling *t = &s->tiling;
    char vbuf[40];

    if (s->mode == CEDAR_MODE_2D_THIN) {
        snprintf(vbuf, sizeof(vbuf), "%u x %u px", s->align_x, s->align_y);
        row("macro tile", vbuf, "(8 x bankw %u x pipes %u x aspect %u) by (8 x bankh %u x banks "
            "%u / aspect %u)", s->bankw, t->pipes, s->mtilea, s->bankh, t->banks, s->mtilea);
        if (s->slices_per_tile > 1)
            row("tile slices", VAL("%" PRIu64, s->slices_per_tile),
                "the %u-B micro tile is split into %u slices of %u B (the tile split)",
                micro_tile_bytes(s), s->slices_per_tile, s->tile_bytes);
        row("macro tile bytes", VAL("%" PRIu64 " B", s->macro_tile_bytes),
            "%u x %u micro tiles x %u B%s", s->align_x / 8, s->align_y / 8, s->tile_bytes,
            s->slices_per_tile > 1 ? " (one slice)" : "");
        snprintf(vbuf, sizeof(vbuf), "%u x %u px", s->aligned_width, s->aligned_height);
        row("aligned size", vbuf, "%u x %u rounded up to whole macro tiles", s->width, s->height);
    } else if (s->mode == CEDAR_MODE_1D_THIN) {
        if (s->requested_mode == CEDAR_MODE_2D_THIN)
            row("mode", "1d", "2D requested, but %u x %u px is smaller than one macro tile: "
                "libdrm falls back to 1D (single sample, not FMask)", s->width, s->height);
        snprintf(vbuf, sizeof(vbuf), "%u x %u px", s->aligned_width, s->aligned_height);
        row("aligned size", vbuf, "width to max(8, %u-B interleave / (8 x %u B x %u))%s = %u, "
            "height to 8", t->group_bytes, s->bpe, s->samples,
            s->scanout ? ", at least 32 (64 for 1-byte) for scanout" : "", s->align_x);
    } else {
        snprintf(vbuf, sizeof(vbuf), "%u x %u px", s->aligned_width, s->aligned_height);
        row("aligned size", vbuf, "width to max(64, %u-B interleave / %u B) = %u",
            t->group_bytes, s->bpe, s->align_x);
    }
    row("pitch", VAL("%" PRIu64 " B", s->pitch_bytes), "%u px x %u B x %u sample%s",
        s->aligned_width, s->bpe, s->samples, s->samples > 1 ? "s" : "");
    if (s->mode == CEDAR_MODE_2D_THIN)
        row("size", VAL("%" PRIu64 " B", s->size), "%u x %u macro tiles x %u B x %u slice%s",
            s->aligned_width / s->align_x, s->aligned_height / s->align_y, s->macro_tile_bytes,
            s->slices_per_tile, s->slices_per_tile > 1 ? "s" : "");
    else
        row("size", VAL("%" PRIu64 " B", s->size), "pitch x %u rows", s->aligned_height);
    if (s->mode == CEDAR_MODE_2D_THIN)
        row("alignment", VAL("%" PRIu64 " B", s->alignment), "one macro tile: max(256, %u)",
            s->macro_tile_bytes);
    else if (s->mode == CEDAR_MODE_1D_THIN && s->requested_mode == CEDAR_MODE_2D_THIN)
        row("alignment", VAL("%" PRIu64 " B", s->alignment),
            "the 2D macro tile's, which libdrm keeps after the fallback");
    else
        row("alignment", VAL("%" PRIu64 " B", s->alignment), "max(256, %u-B interleave)",
            t->group_bytes);
}

static void explain_registers(const struct cedar_surface *s, const char *cb,
                              unsigned fmask_bankh_enc)
{
    char label[40], vbuf[40];

    snprintf(label, sizeof(label), "%s_PITCH", cb);
    row(label, VAL("0x%" PRIX64, s->pitch_tile_max), "TILE_MAX %u = %u / 8 - 1",
        s->pitch_tile_max, s->aligned_width);
    snprintf(label, sizeof(label), "%s_SLICE", cb);
    row(label, VAL("0x%" PRIX64, s->slice_tile_max), "TILE_MAX %u = %u x %u / 64 - 1",
        s->slice_tile_max, s->aligned_width, s->aligned_height);
    snprintf(label, sizeof(label), "%s_ATTRIB", cb);
    row(label, VAL("0x%08" PRIX64, attrib_value(s, fmask_bankh_enc)),
        "TILE_SPLIT %u (%u B), NUM_BANKS %u (%u), BANK_WIDTH %u, BANK_HEIGHT %u, "
        "MACRO_TILE_ASPECT %u, FMASK_BANK_HEIGHT %u",
        s->tile_split_enc, s->tile_split, s->num_banks_enc, s->tiling.banks, s->bankw_enc,
        s->bankh_enc, s->mtilea_enc, fmask_bankh_enc);
}

static void explain_cmask(const struct cedar_msaa_layout *m)
{
    const struct cedar_tiling *t = &m->color.tiling;
    const struct cedar_cmask *c = &m->cmask;
    unsigned tiles = 1024 / 4 * t->pipes;
    char vbuf[40];

    printf("\nCMask (Mesa r600_texture_get_cmask_info)%s\n",
           m->color.samples > 1 ? "" : ": in a buffer of its own, if Mesa fast-clears it");
    snprintf(vbuf, sizeof(vbuf), "%u x %u px", c->cache_width, c->cache_height);
    row("cache tile", vbuf, "4 bits per 8x8-px tile; 1024 bits per pipe x %u pipe%s = %u tiles "
        "= %u px, power-of-two width >= sqrt", t->pipes, t->pipes > 1 ? "s" : "", tiles,
        tiles * 64);
    snprintf(vbuf, sizeof(vbuf), "%u x %u px", c->aligned_width, c->aligned_height);
    row("covered", vbuf, "%u x %u rounded up to whole cache tiles", m->color.width,
        m->color.height);
    row("size", VAL("%" PRIu64 " B", c->size),
        "%u x %u / 64 tiles x 4 bits / 8, rounded up to pipes x interleave = %u B",
        c->aligned_width, c->aligned_height, t->pipes * t->group_bytes);
    row("alignment", VAL("%" PRIu64 " B", c->alignment), "max(256, %u pipes x %u B)", t->pipes,
        t->group_bytes);
    row("CMASK_SLICE", VAL("0x%" PRIX64, c->slice_tile_max),
        "TILE_MAX %u = %u x %u / (128 x 128) - 1", c->slice_tile_max, c->aligned_width,
        c->aligned_height);
    if (m->color.samples > 1)
        row("offset", VAL("0x%" PRIX64, c->offset),
            "%" PRIu64 ": after the FMask, aligned to %" PRIu64 " (CB_COLOR0_CMASK = 0x%" PRIX64
            ")", c->offset, c->alignment, c->offset >> 8);
}

static void explain_fmask(const struct cedar_msaa_layout *m)
{
    const struct cedar_fmask *f = &m->fmask;
    const struct cedar_surface *c = &m->color;
    char vbuf[40];

    printf("\nFMask (Mesa r600_texture_get_fmask_info: a 2D single-sample surface, %u B/px "
           "for %u samples; libdrm radeon_surface_init with RADEON_SURF_FMASK)\n",
           f->surf.bpe, c->samples);
    explain_params(&f->surf, "FMask", true, c);
    explain_size(&f->surf);
    row("offset", VAL("0x%" PRIX64, f->offset),
        "%" PRIu64 ": colour size %" PRIu64 " aligned to %" PRIu64 " (CB_COLOR0_FMASK = 0x%"
        PRIX64 ")", f->offset, c->size, f->surf.alignment, f->offset >> 8);
    row("FMASK_SLICE", VAL("0x%" PRIX64, f->slice_tile_max), "TILE_MAX %u = %u x %u / 64 - 1",
        f->slice_tile_max, f->surf.aligned_width, f->surf.aligned_height);
    row("FMASK_BANK_HEIGHT", VAL("%" PRIu64, f->bank_height_enc),
        "ATTRIB field: log2(bank height %u)", f->bank_height);
}

static void print_text(const struct cedar_msaa_layout *m)
{
    const struct cedar_surface *c = &m->color;
    const struct cedar_tiling *t = &c->tiling;
    bool msaa = c->samples > 1;

    printf("GPU tiling: %u pipes, %u banks, %u-B pipe interleave, %u-KB DRAM rows\n",
           t->pipes, t->banks, t->group_bytes, t->row_bytes / 1024);
    printf("\n%s colour surface %ux%u, %u B/px, %u sample%s, %s (libdrm radeon_surface_best + "
           "radeon_surface_init)\n",
           msaa ? "MSAA" : "Single-sample", c->width, c->height, c->bpe, c->samples,
           msaa ? "s" : "", cedar_array_mode_name(c->mode));
    explain_params(c, "MSAA colour", false, NULL);
    explain_size(c);
    explain_registers(c, "CB_COLOR0", msaa ? m->fmask.bank_height_enc : c->bankh_enc);
    if (msaa)
        explain_fmask(m);
    explain_cmask(m);
    if (!msaa) {
        printf("\nBuffer: colour only, %" PRIu64 " B\n", m->total_size);
        return;
    }
    printf("\nBuffer: colour at 0, FMask at %" PRIu64 ", CMask at %" PRIu64 ": total %" PRIu64
           " B (the winsys rounds the BO up to %" PRIu64 " B)\n",
           m->fmask.offset, m->cmask.offset, m->total_size, (m->total_size + 4095) / 4096 * 4096);
    const struct cedar_surface *r = &m->resolve;
    printf("\nResolve target %ux%u, %u B/px, 1 sample, %s%s (a buffer of its own)\n", r->width,
           r->height, r->bpe, cedar_array_mode_name(r->mode), r->scanout ? ", scanout" : "");
    explain_params(r, "resolve", false, NULL);
    explain_size(r);
    explain_registers(r, "CB_COLOR1", r->bankh_enc);
    row("CB_COLOR1_FMASK_SLICE", "(= SLICE)", "no FMask: Mesa repeats the slice and the bank "
        "height");
}

int main(int argc, char **argv)
{
    struct options o;
    struct cedar_tiling t;
    struct cedar_msaa_layout m;
    struct cedar_layout_err err = {{0}};

    if (parse_args(argc, argv, &o))
        return EXIT_USAGE;
    if (make_tiling(&o, &t))
        return EXIT_USAGE;
    if (cedar_msaa_layout(&o.req, &t, &m, &err)) {
        fprintf(stderr, "cedar-layout: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (o.json)
        print_json(&m);
    else
        print_text(&m);
    return 0;
}
