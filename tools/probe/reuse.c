/* cedar-probe reuse: post-transform vertex reuse, measured as the write-up
 * "Optimal grid rendering isn't optimal" (../shared/seeds/003_*) measures it:
 * an N x N grid of quads drawn with index orders tuned for assumed cache
 * sizes (src/probe/index_orders.c), the vertex-shader invocations of each
 * draw from the pipeline-statistics counters (EVENT_WRITE
 * SAMPLE_PIPELINESTAT before and after it), each draw's primitive count
 * checked against the index count; ATVR = invocations / vertices.  Also the
 * degenerate-triangle sequence `0 1 1 2 3 4 5 5 5` and `(0 1 2)+` batches. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cedar/cli.h"
#include "cedar/probe.h"
#include "eg_regs.h"
#include "plot.h"
#include "probe.h"

#define SUB "reuse"
#define TARGET_SIZE 512       /* the render target: 512 x 512, one sample */
#define MAX_SIZES 256

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe reuse [options]\n"
"\n"
"Draws an N x N grid of quads (two triangles each) with index orders built for\n"
"assumed vertex-cache sizes -- Optimal grid (strips, first row prefetched with\n"
"degenerate triangles), Striped (no prefetch), Tipsify and Forsyth -- and reads\n"
"each draw's vertex-shader invocations from the pipeline-statistics counters;\n"
"ATVR = invocations / vertices.  Before them: the sequence 0 1 1 2 3 4 5 5 5\n"
"(do degenerate triangles run the shader?) and (0 1 2) repeated.\n"
"\n"
"  --grid N              quads per side, 1..200 (default 100)\n"
"  --sizes LIST          assumed cache sizes: numbers and ranges, e.g. 4-64,128\n"
"                        (the default), each 3..256\n"
"  --batches LIST        triangles of the (0 1 2)+ draws (default 1,16,32,33,64,128,256,1024)\n"
"  --out DIR             where reuse.csv and reuse.png go (default out/)\n"
PROBE_COMMON_HELP
"\n"
"Output: a table on stdout, DIR/reuse.csv (order, cache, indices, primitives,\n"
"VS invocations, vertices, ATVR), DIR/reuse.png (ATVR against cache size).\n"
"Exit status: 0 done; 1 the device failed or a draw's primitive count was not\n"
"the expected one; 2 bad usage.\n");
}

struct reuse_opts {
    unsigned grid;
    const char *out;
    unsigned sizes[MAX_SIZES], nsizes;
    unsigned batches[32], nbatches;
};

static int reuse_opt(void *ctx, int c, const char *arg)
{
    struct reuse_opts *o = ctx;
    struct cedar_cli_err cerr;
    switch (c) {
    case 'g':
        if (cedar_cli_uint("--grid", arg, 1, CEDAR_PROBE_MAX_GRID, &o->grid, &cerr))
            return probe_usage(SUB, "%s", cerr.msg);
        return 0;
    case 's': return probe_parse_list(SUB, "--sizes", arg, 3, CEDAR_PROBE_MAX_CACHE, o->sizes, MAX_SIZES, &o->nsizes);
    case 'b': return probe_parse_list(SUB, "--batches", arg, 1, 4096, o->batches, 32, &o->nbatches);
    case 'o': o->out = arg; return 0;
    default: return probe_usage(SUB, "option %d is not handled", c);
    }
}

/* One draw's counters, its primitive count checked. */
static int measure(struct cedar_probe *p, const uint32_t *idx, size_t n, struct cedar_pipestats *st, const char *what)
{
    char err[512];
    if (cedar_probe_draw_stats(p, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST, idx, n, st, err, sizeof err) != 0)
        return probe_fail(SUB, "%s: %s", what, err);
    if (st->ia_primitives != n / 3)
        return probe_fail(SUB, "%s: the counters say %llu primitives, the draw has %zu", what,
                          (unsigned long long)st->ia_primitives, n / 3);
    return 0;
}

static int specials(struct cedar_probe *p, const struct reuse_opts *o)
{
    static const uint32_t degenerate[9] = {0, 1, 1, 2, 3, 4, 5, 5, 5};
    struct cedar_pipestats st;
    if (measure(p, degenerate, 9, &st, "0 1 1 2 3 4 5 5 5"))
        return PROBE_EXIT_FAILED;
    printf("degenerate triangles: indices 0 1 1 2 3 4 5 5 5: %llu primitives, %llu VS invocations "
           "(6 if degenerate triangles run the shader)\n",
           (unsigned long long)st.ia_primitives, (unsigned long long)st.vs_invocations);
    printf("(0 1 2)+:");
    for (unsigned b = 0; b < o->nbatches; b++) {
        unsigned tris = o->batches[b];
        uint32_t *idx = malloc(3 * sizeof *idx * tris);
        if (!idx)
            return probe_fail(SUB, "out of memory");
        for (unsigned k = 0; k < 3 * tris; k++)
            idx[k] = k % 3;
        int rc = measure(p, idx, 3 * (size_t)tris, &st, "(0 1 2)+");
        free(idx);
        if (rc)
            return rc;
        printf(" %u triangles %llu VS invocations%s", tris, (unsigned long long)st.vs_invocations,
               b + 1 < o->nbatches ? ";" : "\n");
    }
    return 0;
}

int probe_cmd_reuse(int argc, char **argv)
{
    static const struct option opts[] = {
        { "grid", required_argument, NULL, 'g' },
        { "sizes", required_argument, NULL, 's' },
        { "batches", required_argument, NULL, 'b' },
        { "out", required_argument, NULL, 'o' },
        PROBE_COMMON_OPTIONS,
        { NULL, 0, NULL, 0 },
    };
    struct reuse_opts o = { .grid = 100, .out = "out" };
    probe_parse_list(SUB, "--sizes", "4-64,128", 3, CEDAR_PROBE_MAX_CACHE, o.sizes, MAX_SIZES, &o.nsizes);
    probe_parse_list(SUB, "--batches", "1,16,32,33,64,128,256,1024", 1, 4096, o.batches, 32, &o.nbatches);
    const char *device;
    int rc = probe_parse(SUB, argc, argv, opts, reuse_opt, &o, usage, &device);
    if (rc >= 0)
        return rc;

    unsigned n = o.grid, nv = (n + 1) * (n + 1);
    char what[160];
    snprintf(what, sizeof what, "%ux%u quads (%u vertices), %u assumed cache sizes %u..%u", n, n, nv, o.nsizes,
             o.sizes[0], o.sizes[o.nsizes - 1]);
    struct probe_dev pd;
    if (probe_open(SUB, device, what, &pd) != 0)
        return PROBE_EXIT_FAILED;

    /* The grid over [-0.9, 0.9]^2, a colour per vertex so every vertex differs. */
    struct cedar_demo_vertex *verts = calloc(nv, sizeof *verts);
    size_t max_idx = 1024 * 3;
    for (unsigned c = 0; c < o.nsizes; c++) {
        size_t need = (size_t)n * n * 6 + 3 * (size_t)n;   /* triangles and the prefetch */
        if (need > max_idx)
            max_idx = need;
    }
    for (unsigned b = 0; b < o.nbatches; b++)
        if (3 * (size_t)o.batches[b] > max_idx)
            max_idx = 3 * (size_t)o.batches[b];
    double *atvr = malloc(sizeof *atvr * CEDAR_PROBE_ORDER_COUNT * o.nsizes);
    double *xs = malloc(sizeof *xs * o.nsizes);
    struct cedar_probe *p = NULL;
    char err[512];
    int status = PROBE_EXIT_FAILED;
    FILE *csv = NULL;
    if (!verts || !atvr || !xs) {
        probe_fail(SUB, "out of memory");
        goto done;
    }
    for (unsigned y = 0; y <= n; y++)
        for (unsigned x = 0; x <= n; x++) {
            struct cedar_demo_vertex *v = &verts[y * (n + 1) + x];
            v->pos[0] = -0.9f + 1.8f * (float)x / (float)n;
            v->pos[1] = 0.9f - 1.8f * (float)y / (float)n;
            v->pos[3] = 1.0f;
            v->color[0] = (float)x / (float)n;
            v->color[1] = (float)y / (float)n;
            v->color[2] = 0.5f;
            v->color[3] = 1.0f;
        }
    struct cedar_tiling tiling;
    if (cedar_tiling_from_config(pd.facts.tiling_config, &tiling) != 0) {
        probe_fail(SUB, "unusable tiling config 0x%x", pd.facts.tiling_config);
        goto done;
    }
    struct cedar_probe_config pc = { .width = TARGET_SIZE, .height = TARGET_SIZE, .samples = 1, .fast_clear = false,
                                     .tiling = tiling, .vertices = verts, .num_vertices = nv, .max_indices = max_idx };
    if (cedar_probe_open(pd.dev, &pc, &p, err, sizeof err) != 0) {
        probe_fail(SUB, "%s", err);
        goto done;
    }
    if ((rc = specials(p, &o)) != 0) {
        status = rc;
        goto done;
    }

    if (mkdir(o.out, 0777) != 0 && errno != EEXIST) {
        probe_fail(SUB, "cannot create %s: %s", o.out, strerror(errno));
        goto done;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/reuse.csv", o.out);
    csv = fopen(path, "w");
    if (!csv) {
        probe_fail(SUB, "cannot write %s: %s", path, strerror(errno));
        goto done;
    }
    fprintf(csv, "order,cache,indices,primitives,vs_invocations,vertices,atvr\n");
    printf("ATVR (VS invocations / %u vertices) by assumed cache size:\n", nv);
    printf("%6s", "cache");
    for (int a = 0; a < CEDAR_PROBE_ORDER_COUNT; a++)
        printf(" %9s", cedar_probe_order_name((enum cedar_probe_order)a));
    printf("\n");
    for (unsigned c = 0; c < o.nsizes; c++) {
        xs[c] = o.sizes[c];
        printf("%6u", o.sizes[c]);
        for (int a = 0; a < CEDAR_PROBE_ORDER_COUNT; a++) {
            enum cedar_probe_order ord = (enum cedar_probe_order)a;
            double *slot = &atvr[(size_t)a * o.nsizes + c];
            /* Forsyth's order does not depend on the size: drawn once */
            if (ord == CEDAR_PROBE_FORSYTH && c > 0) {
                *slot = atvr[(size_t)a * o.nsizes];
                printf(" %9.3f", *slot);
                continue;
            }
            uint32_t *idx;
            size_t count;
            if (cedar_probe_grid_indices(ord, n, o.sizes[c], &idx, &count) != 0) {
                printf("\n");
                probe_fail(SUB, "out of memory building the %s order", cedar_probe_order_name(ord));
                goto done;
            }
            struct cedar_pipestats st;
            char label[64];
            snprintf(label, sizeof label, "%s, cache %u", cedar_probe_order_name(ord), o.sizes[c]);
            rc = measure(p, idx, count, &st, label);
            free(idx);
            if (rc) {
                printf("\n");
                goto done;
            }
            *slot = (double)st.vs_invocations / nv;
            printf(" %9.3f", *slot);
            fprintf(csv, "%s,%u,%zu,%llu,%llu,%u,%.4f\n", cedar_probe_order_name(ord), o.sizes[c], count,
                    (unsigned long long)st.ia_primitives, (unsigned long long)st.vs_invocations, nv, *slot);
        }
        printf("\n");
        fflush(stdout);
    }
    if (fclose(csv) != 0) {
        csv = NULL;
        probe_fail(SUB, "writing %s failed", path);
        goto done;
    }
    csv = NULL;
    struct plot_series series[CEDAR_PROBE_ORDER_COUNT];
    for (int a = 0; a < CEDAR_PROBE_ORDER_COUNT; a++)
        series[a] = (struct plot_series){ cedar_probe_order_name((enum cedar_probe_order)a), &atvr[(size_t)a * o.nsizes] };
    char title[160];
    snprintf(title, sizeof title, "%ux%u grid: ATVR by assumed cache size (%s)", n, n,
             pd.model ? "virtual Cedar, predicted by its model" : "Radeon HD 7350");
    struct plot pl = { title, "assumed cache size (vertices)", "ATVR", xs, o.nsizes, series, CEDAR_PROBE_ORDER_COUNT,
                       0.5, 3.5, 0.5, o.sizes[o.nsizes - 1] - o.sizes[0] > 64 ? 16 : 4 };
    snprintf(path, sizeof path, "%s/reuse.png", o.out);
    if (plot_png(&pl, 800, 480, path, err, sizeof err) != 0) {
        probe_fail(SUB, "%s: %s", path, err);
        goto done;
    }
    printf("output: %s/reuse.csv, %s/reuse.png\n", o.out, o.out);
    status = 0;
done:
    if (csv)
        fclose(csv);
    cedar_probe_close(p);
    probe_close(&pd);
    free(verts);
    free(atvr);
    free(xs);
    return status;
}
