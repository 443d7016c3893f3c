/* Cross-check of the layout code against the real libdrm_radeon allocator.
 *
 * This executable defines drmCommandWriteRead(), drmGetVersion() and
 * drmFreeVersion(); the dynamic linker binds libdrm_radeon.so's calls to
 * these definitions (the executable comes first in the lookup scope), so
 * radeon_surface_manager_new() sees a Cedar (PCI 0x68F9, radeon DRM 2.50)
 * with whatever RADEON_INFO_TILING_CONFIG the test chooses.  The test counts
 * the calls, so it cannot pass with libdrm talking to something else.
 *
 * Each case is requested from libdrm the way Mesa r600 does (the radeon
 * winsys' surf_winsys_to_drm() + radeon_surface_best() + radeon_surface_init();
 * for FMask r600_texture_get_fmask_info() + radeon_surface_init() alone) and
 * from cedar_surface_layout() / cedar_fmask_layout(); every output field must
 * agree, and so must refusals.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <radeon_drm.h>
#include <radeon_surface.h>
#include <xf86drm.h>

#include "cedar/layout.h"

/* ---- the fake radeon kernel ------------------------------------------- */

#define FAKE_FD 4242                 /* never opened: the real libdrm would fail on it */
#define CEDAR_PCI_ID 0x68F9u         /* r600_pci_ids.h: CHIPSET(0x68F9, CEDAR_68F9, CEDAR) */
#define RADEON_DRM_MAJOR 2
#define RADEON_DRM_MINOR 50          /* libdrm allows 2D tiling from 2.16 on Evergreen */

static uint32_t fake_tiling_config;
static unsigned calls_info_device_id, calls_info_tiling, calls_info_other;
static unsigned calls_get_version, calls_free_version;

int drmCommandWriteRead(int fd, unsigned long index, void *data, unsigned long size)
{
    struct drm_radeon_info *info = data;

    if (fd != FAKE_FD || index != DRM_RADEON_INFO || size != sizeof(*info))
        return -EINVAL;
    uint32_t *value = (uint32_t *)(uintptr_t)info->value;
    switch (info->request) {
    case RADEON_INFO_DEVICE_ID:
        calls_info_device_id++;
        *value = CEDAR_PCI_ID;
        return 0;
    case RADEON_INFO_TILING_CONFIG:
        calls_info_tiling++;
        *value = fake_tiling_config;
        return 0;
    default:
        calls_info_other++;
        return -EINVAL;
    }
}

drmVersionPtr drmGetVersion(int fd)
{
    if (fd != FAKE_FD)
        return NULL;
    calls_get_version++;
    drmVersionPtr v = calloc(1, sizeof(*v));
    if (!v)
        return NULL;
    v->version_major = RADEON_DRM_MAJOR;
    v->version_minor = RADEON_DRM_MINOR;
    v->version_patchlevel = 0;
    v->name = strdup("radeon");
    v->name_len = (int)strlen("radeon");
    return v;
}

void drmFreeVersion(drmVersionPtr v)
{
    if (!v)
        return;
    calls_free_version++;
    free(v->name);
    free(v->date);
    free(v->desc);
    free(v);
}

/* ---- requests as Mesa makes them -------------------------------------- */

static unsigned drm_mode(enum cedar_array_mode m)
{
    switch (m) {
    case CEDAR_MODE_LINEAR_ALIGNED: return RADEON_SURF_MODE_LINEAR_ALIGNED;
    case CEDAR_MODE_1D_THIN: return RADEON_SURF_MODE_1D;
    case CEDAR_MODE_2D_THIN: return RADEON_SURF_MODE_2D;
    }
    return RADEON_SURF_MODE_LINEAR;
}

static int cedar_mode_of(unsigned drm)
{
    switch (drm) {
    case RADEON_SURF_MODE_LINEAR_ALIGNED: return CEDAR_MODE_LINEAR_ALIGNED;
    case RADEON_SURF_MODE_1D: return CEDAR_MODE_1D_THIN;
    case RADEON_SURF_MODE_2D: return CEDAR_MODE_2D_THIN;
    }
    return -1;
}

/* The radeon winsys' surf_winsys_to_drm() for a 2D texture, one level. */
static void drm_request(struct radeon_surface *s, unsigned w, unsigned h, unsigned bpe,
                        unsigned samples, unsigned flags, unsigned mode)
{
    memset(s, 0, sizeof(*s));
    s->npix_x = w;
    s->npix_y = h;
    s->npix_z = 1;
    s->blk_w = s->blk_h = s->blk_d = 1;
    s->array_size = 1;
    s->last_level = 0;
    s->bpe = bpe;
    s->nsamples = samples;
    flags = RADEON_SURF_CLR(flags, TYPE);
    flags = RADEON_SURF_CLR(flags, MODE);
    s->flags = flags | RADEON_SURF_SET(RADEON_SURF_TYPE_2D, TYPE) |
               RADEON_SURF_SET(mode, MODE) | RADEON_SURF_HAS_SBUFFER_MIPTREE |
               RADEON_SURF_HAS_TILE_MODE_INDEX;
    /* surf_winsys_to_drm() copies the (zeroed) winsys alignment: 1 << 0. */
    s->bo_alignment = 1;
}

/* r600_texture_get_fmask_info(): a copy of the colour surface's flags plus
 * FMASK, one sample, 1 byte per pixel for 2/4 samples and 4 for 8, the
 * colour's tiling parameters with bank height 4 for 2/4 samples, and
 * radeon_surface_init() alone (the winsys skips radeon_surface_best()). */
static int drm_fmask(struct radeon_surface_manager *man, const struct radeon_surface *color,
                     struct radeon_surface *fm)
{
    drm_request(fm, color->npix_x, color->npix_y, color->nsamples == 8 ? 4 : 1, 1,
                color->flags | RADEON_SURF_FMASK, RADEON_SURF_MODE_2D);
    fm->bankw = color->bankw;
    fm->bankh = color->nsamples <= 4 ? 4 : color->bankh;
    fm->mtilea = color->mtilea;
    fm->tile_split = color->tile_split;
    return radeon_surface_init(man, fm);
}

/* ---- comparison ------------------------------------------------------- */

struct stats {
    unsigned long cases, color_ok, color_fail, fmask_ok, fmask_fail, diffs;
};

static void report(struct stats *st, const char *what, const struct cedar_surface_req *r,
                   const struct cedar_tiling *t, const char *field, unsigned long long mine,
                   unsigned long long drm)
{
    st->diffs++;
    if (st->diffs <= 20)
        print_message("DIFF %s %ux%u bpe %u samples %u mode %s%s%s tiling p%u b%u g%u r%u: "
                      "%s ours %llu libdrm %llu\n",
                      what, r->width, r->height, r->bpe, r->samples,
                      cedar_array_mode_name(r->mode), r->scanout ? " scanout" : "",
                      r->fmask ? " fmask" : "", t->pipes, t->banks, t->group_bytes,
                      t->row_bytes, field, mine, drm);
}

#define CMP(what, field, mine, drm)                                                         \
    do {                                                                                    \
        if ((unsigned long long)(mine) != (unsigned long long)(drm)) {                      \
            report(st, what, r, t, field, (unsigned long long)(mine),                       \
                   (unsigned long long)(drm));                                              \
            return;                                                                         \
        }                                                                                   \
    } while (0)

/* Mesa evergreen_set_color_surface_common(): PITCH and SLICE TILE_MAX. */
static unsigned mesa_pitch_tile_max(const struct radeon_surface_level *l)
{
    return l->nblk_x / 8 - 1;
}

static unsigned mesa_slice_tile_max(const struct radeon_surface_level *l)
{
    unsigned s = l->nblk_x * l->nblk_y / 64;
    return s ? s - 1 : 0;
}

static void compare_surface(struct stats *st, const char *what,
                            const struct cedar_surface_req *r, const struct cedar_tiling *t,
                            const struct cedar_surface *mine, const struct radeon_surface *drm)
{
    const struct radeon_surface_level *l = &drm->level[0];
    CMP(what, "mode", mine->mode, cedar_mode_of(l->mode));
    CMP(what, "aligned_width", mine->aligned_width, l->nblk_x);
    CMP(what, "aligned_height", mine->aligned_height, l->nblk_y);
    CMP(what, "pitch_bytes", mine->pitch_bytes, l->pitch_bytes);
    CMP(what, "slice_bytes", mine->slice_bytes, l->slice_size);
    CMP(what, "size", mine->size, drm->bo_size);
    CMP(what, "alignment", mine->alignment, drm->bo_alignment);
    CMP(what, "tile_split", mine->tile_split, drm->tile_split);
    CMP(what, "bankw", mine->bankw, drm->bankw);
    CMP(what, "bankh", mine->bankh, drm->bankh);
    CMP(what, "mtilea", mine->mtilea, drm->mtilea);
    CMP(what, "pitch_tile_max", mine->pitch_tile_max, mesa_pitch_tile_max(l));
    CMP(what, "slice_tile_max", mine->slice_tile_max, mesa_slice_tile_max(l));
    CMP(what, "tile_split_enc", 64u << mine->tile_split_enc, drm->tile_split);
    CMP(what, "bankh_enc", 1u << mine->bankh_enc, drm->bankh);
    CMP(what, "bankw_enc", 1u << mine->bankw_enc, drm->bankw);
    CMP(what, "mtilea_enc", 1u << mine->mtilea_enc, drm->mtilea);
}

/* One colour request (and its FMask when MSAA). */
static void check_case(struct stats *st, struct radeon_surface_manager *man,
                       const struct cedar_tiling *t, const struct cedar_surface_req *r)
{
    struct radeon_surface drm;
    struct cedar_surface mine;
    struct cedar_layout_err err;
    unsigned flags = (r->scanout ? RADEON_SURF_SCANOUT : 0) | (r->fmask ? RADEON_SURF_FMASK : 0);

    st->cases++;
    drm_request(&drm, r->width, r->height, r->bpe, r->samples, flags, drm_mode(r->mode));
    int drm_r = radeon_surface_best(man, &drm);
    if (!drm_r)
        drm_r = radeon_surface_init(man, &drm);
    int my_r = cedar_surface_layout(r, t, &mine, &err);
    CMP("colour", "refused (1 = yes)", my_r != 0, drm_r != 0);
    if (my_r) {
        st->color_fail++;
        return;
    }
    st->color_ok++;
    compare_surface(st, "colour", r, t, &mine, &drm);
    if (r->samples == 1 || r->fmask)
        return;

    struct radeon_surface fm;
    unsigned fbpe = r->samples == 8 ? 4 : 1;
    int fdrm_r = drm_fmask(man, &drm, &fm);
    struct cedar_fmask myf;
    int fmy_r = cedar_fmask_layout(&mine, &myf, &err);
    st->cases++;
    CMP("fmask", "refused (1 = yes)", fmy_r != 0, fdrm_r != 0);
    if (fmy_r) {
        st->fmask_fail++;
        return;
    }
    st->fmask_ok++;
    struct cedar_surface_req fr = {r->width, r->height, fbpe, 1, CEDAR_MODE_2D_THIN, false, true};
    r = &fr;
    CMP("fmask", "mode", myf.surf.mode, cedar_mode_of(fm.level[0].mode));
    CMP("fmask", "aligned_width", myf.surf.aligned_width, fm.level[0].nblk_x);
    CMP("fmask", "aligned_height", myf.surf.aligned_height, fm.level[0].nblk_y);
    CMP("fmask", "pitch_bytes", myf.surf.pitch_bytes, fm.level[0].pitch_bytes);
    CMP("fmask", "slice_bytes", myf.surf.slice_bytes, fm.level[0].slice_size);
    CMP("fmask", "size", myf.surf.size, fm.bo_size);
    CMP("fmask", "alignment", myf.surf.alignment, fm.bo_alignment > 256 ? fm.bo_alignment : 256);
    CMP("fmask", "tile_split", myf.surf.tile_split, fm.tile_split);
    CMP("fmask", "bankw", myf.surf.bankw, fm.bankw);
    CMP("fmask", "bank_height", myf.bank_height, fm.bankh);
    CMP("fmask", "mtilea", myf.surf.mtilea, fm.mtilea);
    CMP("fmask", "slice_tile_max", myf.slice_tile_max, mesa_slice_tile_max(&fm.level[0]));
}

/* ---- case generation --------------------------------------------------- */

static const unsigned bpes[] = {1, 2, 4, 8, 16};
static const unsigned sample_counts[] = {1, 2, 4, 8};
static const enum cedar_array_mode modes[] = {CEDAR_MODE_LINEAR_ALIGNED, CEDAR_MODE_1D_THIN,
                                              CEDAR_MODE_2D_THIN};

/* Edges of every alignment rule, common screen sizes, odd and prime sizes,
 * the limits, and two sizes libdrm must refuse (0 and 16385). */
static const unsigned edge_sizes[] = {
    0,    1,    2,    3,    5,    7,    8,    9,    13,   15,   16,   17,   31,   32,
    33,   47,   63,   64,   65,   97,   127,  128,  129,  191,  255,  256,  257,  479,
    511,  512,  513,  720,  768,  1021, 1023, 1024, 1080, 1280, 1920, 2039, 4093, 4096,
    8191, 8192, 8193, 12289, 16381, 16383, 16384, 16385,
};
#define N_EDGE (sizeof(edge_sizes) / sizeof(edge_sizes[0]))

static uint32_t rng_state = 0x12345678u;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

/* A random size: half small (where the 2D -> 1D fallback lives), half anywhere. */
static unsigned random_size(void)
{
    return rnd(2) ? 1 + rnd(300) : 1 + rnd(16384);
}

static void check_all_kinds(struct stats *st, struct radeon_surface_manager *man,
                            const struct cedar_tiling *t, unsigned w, unsigned h)
{
    for (unsigned b = 0; b < sizeof(bpes) / sizeof(bpes[0]); b++) {
        for (unsigned s = 0; s < sizeof(sample_counts) / sizeof(sample_counts[0]); s++) {
            for (unsigned m = 0; m < 3; m++) {
                if (sample_counts[s] > 1 && modes[m] != CEDAR_MODE_2D_THIN)
                    continue;
                for (unsigned sc = 0; sc < 2; sc++) {
                    struct cedar_surface_req r = {w, h, bpes[b], sample_counts[s], modes[m],
                                                  sc != 0, false};
                    check_case(st, man, t, &r);
                }
            }
        }
        /* A single-sample surface requested with the FMASK flag (no 1D fallback). */
        struct cedar_surface_req f = {w, h, bpes[b], 1, CEDAR_MODE_2D_THIN, false, true};
        check_case(st, man, t, &f);
    }
}

static struct radeon_surface_manager *fake_cedar(uint32_t tiling_config)
{
    unsigned before_tiling = calls_info_tiling, before_id = calls_info_device_id;
    unsigned before_version = calls_get_version;

    fake_tiling_config = tiling_config;
    struct radeon_surface_manager *man = radeon_surface_manager_new(FAKE_FD);
    assert_non_null(man);
    /* libdrm really asked our fake kernel. */
    assert_int_equal(calls_info_device_id, before_id + 1);
    assert_int_equal(calls_info_tiling, before_tiling + 1);
    assert_int_equal(calls_get_version, before_version + 1);
    return man;
}

static void print_stats(const char *name, const struct stats *st)
{
    print_message("%s: %lu cases (colour %lu laid out, %lu refused by both; FMask %lu laid "
                  "out, %lu refused by both), %lu differences\n",
                  name, st->cases, st->color_ok, st->color_fail, st->fmask_ok, st->fmask_fail,
                  st->diffs);
}

/* The HD 7350 itself: every pair of edge sizes. */
static void test_cedar_edges(void **state)
{
    (void)state;
    struct stats st = {0};
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(CEDAR_HD7350_TILING_CONFIG, &t), 0);
    struct radeon_surface_manager *man = fake_cedar(CEDAR_HD7350_TILING_CONFIG);

    for (unsigned i = 0; i < N_EDGE; i++)
        for (unsigned j = 0; j < N_EDGE; j++)
            check_all_kinds(&st, man, &t, edge_sizes[i], edge_sizes[j]);
    radeon_surface_manager_free(man);
    print_stats("HD 7350 (0x0011), edge sizes", &st);
    assert_true(st.cases >= 10000);
    assert_true(st.color_ok > 0 && st.color_fail > 0 && st.fmask_ok > 0);
    assert_int_equal(st.diffs, 0);
}

/* Every Evergreen tiling configuration (pipes x banks x interleave x row),
 * random sizes. */
static void test_all_configs_random(void **state)
{
    (void)state;
    struct stats st = {0};
    unsigned configs = 0;

    for (uint32_t row = 0; row < 3; row++)
        for (uint32_t ilv = 0; ilv < 2; ilv++)
            for (uint32_t banks = 0; banks < 3; banks++)
                for (uint32_t pipes = 0; pipes < 4; pipes++) {
                    uint32_t cfg = pipes | banks << 4 | ilv << 8 | row << 12;
                    struct cedar_tiling t;
                    assert_int_equal(cedar_tiling_from_config(cfg, &t), 0);
                    struct radeon_surface_manager *man = fake_cedar(cfg);
                    for (unsigned k = 0; k < 60; k++)
                        check_all_kinds(&st, man, &t, random_size(), random_size());
                    radeon_surface_manager_free(man);
                    configs++;
                }
    print_message("%u tiling configurations\n", configs);
    print_stats("all Evergreen configurations, random sizes", &st);
    assert_int_equal(configs, 72);
    assert_true(st.cases >= 10000);
    assert_true(st.fmask_fail > 0); /* e.g. 2 samples of 1 byte with a 512-byte interleave */
    assert_int_equal(st.diffs, 0);
}

/* The fake kernel's answers matter: the tile split of a single-sample 2D
 * surface is the DRAM row size libdrm was told. */
static void test_fake_kernel_is_consulted(void **state)
{
    (void)state;
    static const uint32_t rows[] = {0x0011, 0x1011, 0x2011};
    static const unsigned expect[] = {1024, 2048, 4096};
    for (unsigned i = 0; i < 3; i++) {
        struct radeon_surface_manager *man = fake_cedar(rows[i]);
        struct radeon_surface s;
        drm_request(&s, 1280, 720, 4, 1, 0, RADEON_SURF_MODE_2D);
        assert_int_equal(radeon_surface_best(man, &s), 0);
        assert_int_equal(radeon_surface_init(man, &s), 0);
        assert_int_equal(s.tile_split, expect[i]);
        radeon_surface_manager_free(man);
    }
    assert_true(calls_free_version > 0);
    assert_int_equal(calls_info_other, 0);
}

/* ---- cedar-layout --json against libdrm --------------------------------- */

/* The number after "key": inside the object "obj": {...} of a JSON text. */
static int json_number(const char *json, const char *obj, const char *key, unsigned long long *v)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\": {", obj);
    const char *o = strstr(json, pat);
    if (!o)
        return -1;
    const char *end = strchr(o, '}');
    snprintf(pat, sizeof(pat), "\"%s\": ", key);
    const char *k = strstr(o + 1, pat);
    if (!k || k > end)
        return -1;
    char *e;
    *v = strtoull(k + strlen(pat), &e, 10);
    return e == k + strlen(pat) ? -1 : 0;
}

static void compare_json_surface(struct stats *st, const char *json, const char *obj,
                                 const struct cedar_surface_req *r, const struct cedar_tiling *t,
                                 const struct radeon_surface *drm, bool is_fmask)
{
    static const char *const keys[] = {"width", "height", "bpe", "samples", "pitch_bytes",
                                       "slice_bytes", "size", "alignment", "tile_split",
                                       "bankw", "bankh", "mtilea", "slice_tile_max"};
    const struct radeon_surface_level *l = &drm->level[0];
    unsigned long long want[] = {l->nblk_x, l->nblk_y, drm->bpe, drm->nsamples, l->pitch_bytes,
                                 l->slice_size, drm->bo_size,
                                 is_fmask && drm->bo_alignment < 256 ? 256 : drm->bo_alignment,
                                 drm->tile_split, drm->bankw, drm->bankh, drm->mtilea,
                                 mesa_slice_tile_max(l)};
    for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        unsigned long long got;
        if (json_number(json, obj, keys[i], &got)) {
            report(st, obj, r, t, keys[i], 0, want[i]);
            return;
        }
        CMP(obj, keys[i], got, want[i]);
    }
    char pat[96];
    snprintf(pat, sizeof(pat), "\"%s\": {\"mode\": \"%s\"", obj,
             cedar_array_mode_name((enum cedar_array_mode)cedar_mode_of(l->mode)));
    CMP(obj, "mode (1 = matches)", strstr(json, pat) != NULL, 1);
}

/* One cedar-layout run against libdrm's answer for the same request. */
static void check_cli_case(struct stats *st, const struct cedar_surface_req *r,
                           const struct cedar_tiling *t, uint32_t cfg, const char *json,
                           int status)
{
    struct radeon_surface_manager *man = fake_cedar(cfg);
    struct radeon_surface drm;
    /* the MSAA colour surface is never scanout (Mesa); the resolve is */
    unsigned cflags = r->scanout && r->samples == 1 ? RADEON_SURF_SCANOUT : 0;
    drm_request(&drm, r->width, r->height, r->bpe, r->samples, cflags, drm_mode(r->mode));
    int drm_r = radeon_surface_best(man, &drm);
    if (!drm_r)
        drm_r = radeon_surface_init(man, &drm);
    assert_int_equal(drm_r, 0);
    struct radeon_surface fm, res;
    int fdrm_r = 0;
    if (r->samples > 1) {
        fdrm_r = drm_fmask(man, &drm, &fm);
        drm_request(&res, r->width, r->height, r->bpe, 1, r->scanout ? RADEON_SURF_SCANOUT : 0,
                    RADEON_SURF_MODE_2D);
        assert_int_equal(radeon_surface_best(man, &res), 0);
        assert_int_equal(radeon_surface_init(man, &res), 0);
    }
    radeon_surface_manager_free(man);
    st->cases++;

    if (fdrm_r) {
        /* libdrm refuses the FMask: the tool must fail with exit 2 */
        CMP("cli", "exit status", WIFEXITED(status) ? WEXITSTATUS(status) : 999, 2);
        st->fmask_fail++;
        return;
    }
    CMP("cli", "exit status", WIFEXITED(status) ? WEXITSTATUS(status) : 999, 0);
    st->color_ok++;
    compare_json_surface(st, json, "color", r, t, &drm, false);
    if (r->samples > 1) {
        st->fmask_ok++;
        compare_json_surface(st, json, "fmask", r, t, &fm, true);
        compare_json_surface(st, json, "resolve", r, t, &res, false);
    }
}

/* Run the sanitized cedar-layout for random requests on random Evergreen
 * configurations and compare its JSON with libdrm, field by field. */
static void test_cli_json_vs_libdrm(void **state)
{
    (void)state;
    const char *tools = getenv("CEDAR_TOOLS");
    char tool[512];
    snprintf(tool, sizeof(tool), "%s/cedar-layout", tools ? tools : "build/san/bin");
    FILE *probe = fopen(tool, "r");
    assert_non_null(probe); /* built by `make check` */
    fclose(probe);

    struct stats st = {0};
    static const char *const mode_arg[] = {"linear", "1d", "2d"};
    for (unsigned k = 0; k < 60; k++) {
        uint32_t cfg = rnd(4) | rnd(3) << 4 | rnd(2) << 8 | rnd(3) << 12;
        struct cedar_tiling t;
        assert_int_equal(cedar_tiling_from_config(cfg, &t), 0);
        struct cedar_surface_req r = {random_size(), random_size(), bpes[rnd(5)],
                                      sample_counts[rnd(4)], CEDAR_MODE_2D_THIN, rnd(2) != 0,
                                      false};
        if (r.samples == 1)
            r.mode = modes[rnd(3)];
        char cmd[1024];
        snprintf(cmd, sizeof(cmd),
                 "%s --width %u --height %u --bpe %u --samples %u --mode %s%s "
                 "--tiling-config 0x%04x --json 2>&1", tool, r.width, r.height, r.bpe, r.samples,
                 mode_arg[r.mode], r.scanout ? " --scanout" : "", cfg);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        char json[4096];
        size_t n = fread(json, 1, sizeof(json) - 1, p);
        json[n] = 0;
        int status = pclose(p);

        check_cli_case(&st, &r, &t, cfg, json, status);
    }
    print_stats("cedar-layout --json vs libdrm", &st);
    assert_true(st.color_ok > 30 && st.fmask_ok > 10);
    assert_int_equal(st.diffs, 0);
}

/* ---- mip chains ---------------------------------------------------------- */

/* A mipmapped texture as the radeon winsys asks libdrm for it (1D/2D/3D,
 * arrays: npix_z the 3D depth, array_size the layers); then the chain
 * cedar_miptree_layout() computes from what the texture resource holds
 * (level 0's size, final mode and tiling parameters) must give every
 * level's mode, size, pitch, height, slice size and offset. */
static unsigned check_miptree(struct radeon_surface_manager *man, const struct cedar_tiling *t, unsigned w,
                              unsigned h, unsigned d, unsigned layers, unsigned bpe, unsigned mode)
{
    struct radeon_surface s;
    drm_request(&s, w, h, bpe, 1, 0, mode);
    unsigned type = d > 1 ? RADEON_SURF_TYPE_3D : layers > 1 ? RADEON_SURF_TYPE_2D_ARRAY : RADEON_SURF_TYPE_2D;
    s.flags = RADEON_SURF_CLR(s.flags, TYPE) | RADEON_SURF_SET(type, TYPE);
    s.npix_z = d;
    s.array_size = layers;
    unsigned big = w > h ? w : h;
    if (d > big)
        big = d;
    while ((1u << s.last_level) < big && s.last_level < 15)
        s.last_level++;
    if (radeon_surface_best(man, &s) || radeon_surface_init(man, &s))
        return 0;
    int m0 = cedar_mode_of(s.level[0].mode);
    assert_true(m0 >= 0);
    struct cedar_miptree_req r = {
        .width = w, .height = h, .depth = d, .array_size = layers, .last_level = s.last_level, .bpe = bpe,
        .mode = (enum cedar_array_mode)m0, .tile_split = s.tile_split, .bankw = s.bankw, .bankh = s.bankh,
        .mtilea = s.mtilea, .tiling = *t,
    };
    struct cedar_miptree mt;
    struct cedar_layout_err err;
    if (cedar_miptree_layout(&r, &mt, &err))
        fail_msg("%ux%ux%u x%u bpe %u: %s", w, h, d, layers, bpe, err.msg);
    assert_int_equal(mt.levels, s.last_level + 1);
    /* A 2D request whose level 0 fell back to 1D keeps the 2D alignment
     * before level 1, which the resource (1D) does not show: the texture
     * unit places levels >= 1 from MIP_ADDRESS (level 1's address), so
     * there the offsets are compared from level 1 on. */
    bool fell_back = mode == RADEON_SURF_MODE_2D && s.level[0].mode != RADEON_SURF_MODE_2D;
    uint64_t shift = 0;
    if (fell_back && s.last_level)
        shift = s.level[1].offset - mt.level[1].offset;
    for (unsigned i = 0; i <= s.last_level; i++) {
        const struct radeon_surface_level *l = &s.level[i];
        const struct cedar_mip_level *c = &mt.level[i];
        uint64_t off = c->offset + (i ? shift : 0);
        if ((int)c->mode != cedar_mode_of(l->mode) || c->width != l->npix_x || c->height != l->npix_y ||
            c->depth != l->npix_z || c->pitch != l->nblk_x || c->rows != l->nblk_y || off != l->offset ||
            c->slice_size != l->slice_size)
            fail_msg("%ux%ux%u x%u bpe %u mode %u level %u: cedar %s %ux%ux%u pitch %u rows %u offset %llu slice "
                     "%llu; libdrm mode %u %ux%ux%u pitch %u rows %u offset %llu slice %llu",
                     w, h, d, layers, bpe, mode, i, cedar_array_mode_name(c->mode), c->width, c->height, c->depth,
                     c->pitch, c->rows, (unsigned long long)c->offset, (unsigned long long)c->slice_size,
                     l->mode, l->npix_x, l->npix_y, l->npix_z, l->nblk_x, l->nblk_y,
                     (unsigned long long)l->offset, (unsigned long long)l->slice_size);
    }
    assert_true(mt.size + (s.last_level ? shift : 0) == s.bo_size);
    return s.last_level + 1;
}

static void test_miptrees(void **state)
{
    (void)state;
    static const unsigned sizes[] = { 1, 3, 8, 17, 64, 100, 128, 255, 256, 300, 1024, 1500 };
    static const unsigned drm_modes[] = { RADEON_SURF_MODE_LINEAR_ALIGNED, RADEON_SURF_MODE_1D, RADEON_SURF_MODE_2D };
    unsigned cases = 0, levels = 0;
    for (uint32_t cfg_i = 0; cfg_i < 3; cfg_i++) {
        static const uint32_t cfgs[] = { CEDAR_HD7350_TILING_CONFIG, 0x0112, 0x2023 };
        struct cedar_tiling t;
        assert_int_equal(cedar_tiling_from_config(cfgs[cfg_i], &t), 0);
        struct radeon_surface_manager *man = fake_cedar(cfgs[cfg_i]);
        for (unsigned m = 0; m < 3; m++)
            for (unsigned b = 0; b < 5; b++)
                for (unsigned i = 0; i < 12; i++)
                    for (unsigned j = 0; j < 12; j += 1 + (i & 1)) {
                        unsigned n = check_miptree(man, &t, sizes[i], sizes[j], 1, 1, bpes[b], drm_modes[m]);
                        n += check_miptree(man, &t, sizes[i], sizes[j], 1, 1 + j % 5, bpes[b], drm_modes[m]);
                        if (i < 8 && j < 8)
                            n += check_miptree(man, &t, sizes[i], sizes[j], sizes[(i + j) % 8], 1, bpes[b],
                                               drm_modes[m]);
                        cases += n > 0;
                        levels += n;
                    }
        radeon_surface_manager_free(man);
    }
    print_message("mip chains: %u cases, %u levels compared with libdrm\n", cases, levels);
    assert_true(cases > 1000);
}

/* A depth/stencil buffer as Mesa r600 allocates it (Z24S8: 4-byte depth,
 * RADEON_SURF_ZBUFFER | SBUFFER): libdrm lays out the stencil as a surface
 * of its own with 1-byte elements, so at 1D its pitch is that of an 8-bit
 * 1D surface (a multiple of 32 pixels on the HD 7350) while the depth's is
 * a multiple of 8.  Mesa programs DB_DEPTH_SIZE from the depth level and
 * the stencil sampler view from the stencil level; the DB addresses both
 * planes at DB_DEPTH_SIZE's pitch (test_render_depth's
 * test_stencil_plane_pitch), so a stencil sampled by Mesa disagrees with
 * what the DB wrote below 32-pixel multiples (tests/piglit/msaa.expected).
 * Checked here: libdrm's two pitches are cedar_surface_layout()'s for
 * 4- and 1-byte 1D surfaces, and differ exactly off 32-pixel multiples. */
static void test_depth_stencil_pitches(void **state)
{
    (void)state;
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(CEDAR_HD7350_TILING_CONFIG, &t), 0);
    struct radeon_surface_manager *man = fake_cedar(CEDAR_HD7350_TILING_CONFIG);
    static const unsigned widths[] = {8, 16, 24, 32, 40, 64, 100, 256};
    unsigned differ = 0;
    for (unsigned i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        struct radeon_surface s;
        drm_request(&s, widths[i], 16, 4, 1, RADEON_SURF_ZBUFFER | RADEON_SURF_SBUFFER, RADEON_SURF_MODE_1D);
        assert_int_equal(radeon_surface_best(man, &s), 0);
        assert_int_equal(radeon_surface_init(man, &s), 0);
        assert_int_equal(s.level[0].mode, RADEON_SURF_MODE_1D);
        assert_int_equal(s.stencil_level[0].mode, RADEON_SURF_MODE_1D);
        struct cedar_surface_req rz = {widths[i], 16, 4, 1, CEDAR_MODE_1D_THIN, false, false};
        struct cedar_surface_req rs = rz;
        rs.bpe = 1;
        struct cedar_surface z, st;
        struct cedar_layout_err e = {{0}};
        assert_int_equal(cedar_surface_layout(&rz, &t, &z, &e), 0);
        assert_int_equal(cedar_surface_layout(&rs, &t, &st, &e), 0);
        assert_int_equal(s.level[0].nblk_x, z.aligned_width);
        assert_int_equal(s.stencil_level[0].nblk_x, st.aligned_width);
        bool apart = s.level[0].nblk_x != s.stencil_level[0].nblk_x;
        assert_int_equal(apart, widths[i] % 32 != 0);
        differ += apart;
    }
    assert_int_equal(differ, 5);
    radeon_surface_manager_free(man);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fake_kernel_is_consulted),
        cmocka_unit_test(test_cedar_edges),
        cmocka_unit_test(test_all_configs_random),
        cmocka_unit_test(test_cli_json_vs_libdrm),
        cmocka_unit_test(test_miptrees),
        cmocka_unit_test(test_depth_stencil_pitches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
