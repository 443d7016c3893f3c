/* cedar-probe formats: which vertex fetch formats the Cedar reads, and what
 * it reads (seed 004, the zink write-up: AMD's vertex fetch has no
 * 3-component 8-bit formats).
 *
 * 1. The table: every data format of the ISA table (regs/ SQ_DATA_FORMAT)
 *    with whether the vertex fetch reads it and why (cedar/vtx_format.h:
 *    from Mesa r600's vertex path).
 * 2. A draw per fetchable format and number format (cedar/demo_fetch.h):
 *    elements with chosen component values go through the vertex fetch,
 *    the pixels come back, and each component is checked against the GL
 *    rule for it (OpenGL 4.6 2.3.5.1, 10.3.7, 2.3.4), computed here.
 * 3. R8G8B8_{UNORM,SNORM,USCALED,SSCALED,UINT,SINT}: three FMT_8 fetches at
 *    byte offsets 0, 1, 2 with w = 1 (the decomposition), against the
 *    4-component reference (FMT_8_8_8_8, w from the swizzle: Mesa's way)
 *    and the GL rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "cedar/demo_fetch.h"
#include "cedar/regdb.h"
#include "cedar/vtx_format.h"
#include "eg_regs.h"
#include "probe.h"

#define SUB "formats"

struct opts {
    unsigned values;
    bool table_only;
};

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe formats [options]\n"
"\n"
"Lists every vertex data format of the ISA table with whether the vertex fetch\n"
"reads it (and why), then draws each fetchable format with every number format\n"
"it takes and checks the fetched values against the OpenGL conversion rules,\n"
"and checks that three 1-byte fetches (offsets 0, 1, 2, w = 1) of a 3-component\n"
"8-bit attribute read what the 4-component FMT_8_8_8_8 fetch reads.\n"
"\n"
"  --values N            elements per draw, 4..256 (default 64)\n"
"  --table-only          the table only, no draws\n"
PROBE_COMMON_HELP
"\n"
"Exit status: 0 done, every value as the GL rule says; 1 the device failed or a\n"
"value differs; 2 bad usage.\n");
}

static int formats_opt(void *ctx, int c, const char *arg)
{
    struct opts *o = ctx;
    struct cedar_cli_err cerr;
    if (c == 'v' && cedar_cli_uint("--values", arg, 4, CEDAR_FETCH_MAX_ELEMENTS, &o->values, &cerr))
        return probe_usage(SUB, "%s", cerr.msg);
    if (c == 't')
        o->table_only = true;
    return 0;
}

static const char *enum_name(const char *e, unsigned v)
{
    const struct eg_enum *en = eg_enum_find_name(e);
    const char *n = en ? eg_enum_value_name(en, v) : NULL;
    return n ? n : "?";
}

/* ---- the GL rules ---------------------------------------------------------- */

enum gl_kind { UNORM, SNORM, USCALED, SSCALED, UINT, SINT, KINDS };
static const char *const kind_name[KINDS] = { "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT" };

static bool kind_signed(enum gl_kind k)
{
    return k == SNORM || k == SSCALED || k == SINT;
}

static unsigned kind_num_format(enum gl_kind k)
{
    return k <= SNORM ? V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM
           : k <= SSCALED ? V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED : V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT;
}

/* What GL says component bits `raw` (b bits) read as: the integer value as
 * float bits for UINT / SINT, else the float. */
static uint32_t gl_fixed(uint32_t raw, unsigned b, enum gl_kind k)
{
    int64_t v = raw;
    if (kind_signed(k) && b < 33 && (raw >> (b - 1)) & 1)
        v -= (int64_t)1 << b;
    union { float f; uint32_t u; } r;
    switch (k) {
    case UNORM: r.f = (float)((double)raw / (ldexp(1, (int)b) - 1)); break;
    case SNORM: r.f = b == 1 ? (v ? -1.0f : 0.0f) : (float)fmax((double)v / (ldexp(1, (int)b - 1) - 1), -1.0); break;
    case USCALED: case SSCALED: r.f = (float)v; break;
    default: r.u = (uint32_t)v; break;
    }
    return r.u;
}

/* IEEE binary16 (10 mantissa bits, signed) or the unsigned 11- / 10-bit
 * floats (6 / 5 mantissa bits): GL 2.3.4.2..4. */
static uint32_t gl_small_float(uint32_t raw, unsigned mant)
{
    bool neg = mant == 10 && (raw >> 15);
    unsigned e = (raw >> mant) & 31, m = raw & ((1u << mant) - 1);
    double v = e == 0 ? ldexp(m, -14 - (int)mant)
             : e == 31 ? (m ? NAN : INFINITY) : ldexp(1.0 + ldexp(m, -(int)mant), (int)e - 15);
    union { float f; uint32_t u; } r = { .f = (float)(neg ? -v : v) };
    return r.u;
}

/* Within one unit in the last place (a card may round differently from the
 * double-rounded formula); NaN matches any NaN. */
static bool close_enough(uint32_t got, uint32_t want, bool exact)
{
    if (got == want)
        return true;
    union { uint32_t u; float f; } g = { got }, w = { want };
    if (isnan(g.f) && isnan(w.f))
        return true;
    if (exact || isnan(g.f) || isnan(w.f) || (got ^ want) >> 31)
        return false;
    return (got > want ? got - want : want - got) <= 1;
}

/* ---- values ---------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint32_t next_rand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Component c of element k: the ends and the sign boundary first, then
 * pseudo-random bits. */
static uint32_t component_value(unsigned k, unsigned b)
{
    uint32_t max = b == 32 ? 0xFFFFFFFFu : (1u << b) - 1;
    const uint32_t fixed[] = { 0, max, 1, max >> 1, (max >> 1) + 1, max - 1 };
    return k < sizeof fixed / sizeof fixed[0] ? fixed[k] & max : next_rand() & max;
}

static void put_bits(uint8_t *e, unsigned lo, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++)
        if ((v >> i) & 1)
            e[(lo + i) / 8] |= (uint8_t)(1u << ((lo + i) % 8));
}

struct tally {
    unsigned draws, values, components, mismatches;
};

/* One draw of format f read as kind k (floats: k ignored); prints a line. */
static int draw_format(struct probe_dev *pd, const struct cedar_tiling *t, const struct eg_vtx_format *f,
                       enum gl_kind k, unsigned n, struct tally *tl)
{
    uint8_t *el = calloc(n, CEDAR_FETCH_ELEMENT_BYTES);
    uint32_t (*want)[4] = calloc(n, sizeof *want);
    union eg_vec4 *got = calloc(n, sizeof *got);
    int rc = -1;
    if (!el || !want || !got) {
        probe_fail(SUB, "out of memory");
        goto out;
    }
    bool is_float = f->float_mask != 0, as_int = !is_float && k >= UINT;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned c = 0; c < 4; c++) {
            if (c >= f->ncomp) {
                want[i][c] = c < 3 ? 0 : as_int ? 1u : 0x3F800000u; /* missing: 0, w 1 */
                continue;
            }
            unsigned b = f->bits[c];
            uint32_t raw = component_value((i + c) % n, b);
            put_bits(el + (size_t)i * CEDAR_FETCH_ELEMENT_BYTES, f->lo[c], b, raw);
            want[i][c] = !is_float ? gl_fixed(raw, b, k) : b == 32 ? raw : gl_small_float(raw, b == 16 ? 10 : b - 5);
        }
    }
    const struct eg_demo_color_fetch fe = {
        0, f->bytes, f->data_format, is_float ? V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM : kind_num_format(k),
        kind_signed(k) && !is_float ? V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED : V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED,
        V_SQ_SRF_MODE__SRF_MODE_ZERO_CLAMP_MINUS_ONE,
        { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__W } };
    const struct cedar_fetch_draw d = { &fe, 1, el, n };
    char err[512];
    if (cedar_fetch_draw_run(pd->dev, t, &d, got, err, sizeof err) != 0) {
        probe_fail(SUB, "%s %s: %s", enum_name("SQ_DATA_FORMAT", f->data_format), is_float ? "FLOAT" : kind_name[k],
                   err);
        goto out;
    }
    unsigned bad = 0, first = n;
    for (unsigned i = 0; i < n; i++)
        for (unsigned c = 0; c < 4; c++)
            if (!close_enough(got[i].u[c], want[i][c], as_int || (is_float && f->bits[0] == 32))) {
                bad++;
                if (first == n)
                    first = i;
            }
    tl->draws++;
    tl->values += n;
    tl->components += n * 4;
    tl->mismatches += bad;
    printf("draw %-24s %-7s %3u elements: %s", enum_name("SQ_DATA_FORMAT", f->data_format),
           is_float ? "FLOAT" : kind_name[k], n, bad ? "MISMATCH" : "as GL says");
    if (bad)
        printf(" (%u components differ; element %u: got %08x %08x %08x %08x, GL %08x %08x %08x %08x)", bad, first,
               got[first].u[0], got[first].u[1], got[first].u[2], got[first].u[3], want[first][0], want[first][1],
               want[first][2], want[first][3]);
    printf("\n");
    rc = 0;
out:
    free(el);
    free(want);
    free(got);
    return rc;
}

/* R8G8B8 read as kind k: the decomposition and the 4-component reference
 * over the same bytes (the fourth byte of each element is set, so a
 * reference that used it would show). */
static int draw_decomposed(struct probe_dev *pd, const struct cedar_tiling *t, enum gl_kind k, unsigned n,
                           struct tally *tl)
{
    uint8_t *el = calloc(n, CEDAR_FETCH_ELEMENT_BYTES);
    union eg_vec4 *split = calloc(n, sizeof *split), *ref = calloc(n, sizeof *ref);
    int rc = -1;
    if (!el || !split || !ref) {
        probe_fail(SUB, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned c = 0; c < 4; c++)
            el[(size_t)i * CEDAR_FETCH_ELEMENT_BYTES + c] = (uint8_t)component_value((i + c) % n, 8);
    unsigned nf = kind_num_format(k);
    unsigned comp = kind_signed(k) ? V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED : V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED;
    const unsigned X = V_SQ_INST_SEL__X, Y = V_SQ_INST_SEL__Y, Z = V_SQ_INST_SEL__Z, ONE = V_SQ_INST_SEL__ONE,
                   M = V_SQ_INST_SEL__MASK, F8 = V_SQ_DATA_FORMAT__FMT_8;
    const struct eg_demo_color_fetch three[3] = {
        { 0, 1, F8, nf, comp, 0, { X, M, M, ONE } },
        { 1, 1, F8, nf, comp, 0, { M, X, M, M } },
        { 2, 1, F8, nf, comp, 0, { M, M, X, M } },
    };
    const struct eg_demo_color_fetch four = { 0, 4, V_SQ_DATA_FORMAT__FMT_8_8_8_8, nf, comp, 0, { X, Y, Z, ONE } };
    char err[512];
    const struct cedar_fetch_draw a = { three, 3, el, n }, b = { &four, 1, el, n };
    if (cedar_fetch_draw_run(pd->dev, t, &a, split, err, sizeof err) != 0 ||
        cedar_fetch_draw_run(pd->dev, t, &b, ref, err, sizeof err) != 0) {
        probe_fail(SUB, "R8G8B8_%s: %s", kind_name[k], err);
        goto out;
    }
    unsigned same = 0, gl_bad = 0;
    for (unsigned i = 0; i < n; i++) {
        same += memcmp(split[i].u, ref[i].u, 16) == 0;
        for (unsigned c = 0; c < 3; c++)
            gl_bad += !close_enough(split[i].u[c], gl_fixed(el[(size_t)i * CEDAR_FETCH_ELEMENT_BYTES + c], 8, k),
                                    k >= UINT);
        gl_bad += split[i].u[3] != (k >= UINT ? 1u : 0x3F800000u);
    }
    tl->draws += 2;
    tl->values += n;
    tl->components += 4 * n;
    tl->mismatches += (n - same) * 4 + gl_bad;
    printf("R8G8B8_%-7s 3 x FMT_8 at +0/+1/+2, w = 1: %u of %u elements equal to FMT_8_8_8_8 .xyz1 (%s), "
           "%u components differ from the GL rule\n",
           kind_name[k], same, n, same == n ? "the same" : "DIFFERENT", gl_bad);
    rc = 0;
out:
    free(el);
    free(split);
    free(ref);
    return rc;
}

static void print_table(void)
{
    size_t n;
    const struct eg_vtx_format *t = eg_vtx_format_table(&n);
    unsigned yes = 0, int_only = 0;
    printf("%-24s %4s %6s  %-9s %s\n", "data format", "FMT", "bytes", "fetched", "why (Mesa r600 vertex path)");
    for (size_t i = 0; i < n; i++) {
        const char *fetched = t[i].fetch == EG_VTX_FETCH_YES ? "yes" : t[i].fetch == EG_VTX_FETCH_INT_ONLY ? "INT only" : "no";
        yes += t[i].fetch == EG_VTX_FETCH_YES;
        int_only += t[i].fetch == EG_VTX_FETCH_INT_ONLY;
        char bytes[8] = "-";
        if (t[i].bytes)
            snprintf(bytes, sizeof bytes, "%u", t[i].bytes);
        printf("%-24s %4u %6s  %-9s %s\n", enum_name("SQ_DATA_FORMAT", t[i].data_format), t[i].data_format, bytes,
               fetched, t[i].why);
    }
    printf("table: %zu data formats, %u fetched with every number format, %u as INT only, %zu not fetched\n", n, yes,
           int_only, n - yes - int_only);
}

int probe_cmd_formats(int argc, char **argv)
{
    static const struct option opts[] = {
        { "values", required_argument, NULL, 'v' },
        { "table-only", no_argument, NULL, 't' },
        PROBE_COMMON_OPTIONS,
        { NULL, 0, NULL, 0 },
    };
    struct opts o = { 64, false };
    const char *device;
    int rc = probe_parse(SUB, argc, argv, opts, formats_opt, &o, usage, &device);
    if (rc >= 0)
        return rc;
    char what[96];
    snprintf(what, sizeof what, "%u elements per draw%s", o.values, o.table_only ? ", table only" : "");
    struct probe_dev pd;
    if (probe_open(SUB, device, what, &pd) != 0)
        return PROBE_EXIT_FAILED;
    print_table();
    struct tally tl = { 0 };
    struct cedar_tiling tiling;
    rc = 0;
    if (!o.table_only) {
        if (cedar_tiling_from_config(pd.facts.tiling_config, &tiling) != 0) {
            probe_close(&pd);
            return probe_fail(SUB, "unusable tiling config 0x%x", pd.facts.tiling_config);
        }
        size_t n;
        const struct eg_vtx_format *t = eg_vtx_format_table(&n);
        for (size_t i = 0; i < n && !rc; i++) {
            if (t[i].fetch == EG_VTX_FETCH_NO)
                continue;
            if (t[i].float_mask) {
                rc = draw_format(&pd, &tiling, &t[i], UNORM, o.values, &tl);
                continue;
            }
            for (int k = t[i].fetch == EG_VTX_FETCH_INT_ONLY ? UINT : UNORM; k < KINDS && !rc; k++)
                rc = draw_format(&pd, &tiling, &t[i], (enum gl_kind)k, o.values, &tl);
        }
        for (int k = UNORM; k < KINDS && !rc; k++)
            rc = draw_decomposed(&pd, &tiling, (enum gl_kind)k, o.values, &tl);
        if (!rc)
            printf("formats: %u draws, %u elements, %u components: %u differ from the GL rule or the reference\n",
                   tl.draws, tl.values, tl.components, tl.mismatches);
    }
    probe_close(&pd);
    return rc ? PROBE_EXIT_FAILED : tl.mismatches ? PROBE_EXIT_FAILED : 0;
}
