/* The depth block's per-pixel and per-tile paths (db_fragment: addresses,
 * HTILE state and the face's state found once per pixel, samples at a fixed
 * stride; db_block: once per micro tile) against the per-sample reference
 * they stand for, written here as the DB was
 * specified before it: every sample addressed through cedar_tile_addr, the
 * HTILE word read per sample, depths compared as doubles, the GL 4.1.5 /
 * 4.1.6 order (stencil test, depth test, their operations under the write
 * mask, clears, the pass count).  Random DB states (depth format, samples,
 * 1D / 2D layouts, HTILE with random ZMASKs, depth and stencil functions and
 * operations for both faces, clears, clamp, exported stencil references)
 * and random fragments (inside and outside the surface, z in and out of
 * [0, 1] and NaN; db_block's from random planes) over random memory: the
 * returned masks, the pass counts and every byte of depth, stencil and
 * HTILE must agree.  Also db_block's stencil tables (struct
 * db_stencil_lut) under every function and operation, both faces, each Z
 * format, against the reference, and piglit's manifest state checked by
 * hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/test_util.h"
#include "src/render/depth.h"
#include "tests/common/render_scene.h"

#define SIDE 64
#define BASE 0x100000ull
#define Z_OFF 0x0
#define S_OFF 0x20000
#define H_OFF 0x30000
#define MEM 0x40000
#define STATES 300
#define FRAGMENTS 200

struct side {
    uint8_t *mem;
    struct vc_mem vmem;
    struct db_state db;
};

static void *side_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    struct side *s = ctx;
    if (addr < BASE || len > MEM || addr - BASE > MEM - len)
        return NULL;
    return s->mem + (addr - BASE);
}

static unsigned pick(const unsigned *v, unsigned n)
{
    return v[test_rand() % n];
}

static float random_z(void)
{
    switch (test_rand() % 12) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -0.5f;
    case 3: return 1.25f;
    case 4: return NAN;
    default: return (float)(test_rand() % 1000001) / 1000000.0f;
    }
}

static unsigned log2_of(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

/* Random DB registers a draw could have (no DB copy: it tests nothing). */
static void random_state(struct vc_regs *r, unsigned *samples)
{
    static const unsigned zfmt[] = {V_DB_Z_FORMAT__Z_16, V_DB_Z_FORMAT__Z_24, V_DB_Z_FORMAT__Z_32_FLOAT,
                                    V_DB_Z_FORMAT__Z_INVALID};
    static const unsigned ns[] = {1, 2, 4, 8};
    static const unsigned modes[] = {V_ARRAY_MODE__ARRAY_1D_TILED_THIN1, V_ARRAY_MODE__ARRAY_2D_TILED_THIN1};
    unsigned zf = test_rand() % 8 ? pick(zfmt, 3) : zfmt[3];
    *samples = pick(ns, 4);
    unsigned mode = pick(modes, 2);
    /* 2D: macro tiles of at most 64 x 64 pixels divide the 64 x 64 surface
     * (8 x bank width x 2 pipes x aspect wide, 8 x bank height x 8 banks /
     * aspect high) */
    unsigned bankw = 1u << (test_rand() % 2), mtilea = 1u << (test_rand() % 2);
    unsigned bankh = mtilea == 2 ? 1u << (test_rand() % 2) : 1;
    unsigned zinfo = S_DB_Z_INFO__FORMAT(zf) | S_DB_Z_INFO__ARRAY_MODE(mode) |
                     S_DB_Z_INFO__NUM_SAMPLES(log2_of(*samples)) | S_DB_Z_INFO__TILE_SPLIT(test_rand() % 7) |
                     S_DB_Z_INFO__NUM_BANKS(1) | S_DB_Z_INFO__BANK_WIDTH(log2_of(bankw)) |
                     S_DB_Z_INFO__BANK_HEIGHT(log2_of(bankh)) | S_DB_Z_INFO__MACRO_TILE_ASPECT(log2_of(mtilea));
    bool htile = zf != V_DB_Z_FORMAT__Z_INVALID && test_rand() % 2;
    if (htile)
        zinfo |= S_DB_Z_INFO__TILE_SURFACE_ENABLE(1);
    scene_set_reg(r, REG_DB_Z_INFO, zinfo);
    scene_set_reg(r, REG_DB_HTILE_SURFACE, htile ? 1 : 0);
    scene_set_reg(r, REG_DB_HTILE_DATA_BASE, (uint32_t)((BASE + H_OFF) >> 8));
    bool stencil = test_rand() % 4 != 0;
    scene_set_reg(r, REG_DB_STENCIL_INFO,
                  S_DB_STENCIL_INFO__FORMAT(stencil ? V_DB_STENCIL_FORMAT__STENCIL_8 : V_DB_STENCIL_FORMAT__STENCIL_INVALID) |
                      S_DB_STENCIL_INFO__TILE_SPLIT(test_rand() % 7));
    scene_set_reg(r, REG_DB_DEPTH_SIZE, S_DB_DEPTH_SIZE__PITCH_TILE_MAX(SIDE / 8 - 1) |
                                            S_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(SIDE / 8 - 1));
    scene_set_reg(r, REG_DB_DEPTH_VIEW, 0);
    scene_set_reg(r, REG_DB_Z_READ_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
    scene_set_reg(r, REG_DB_Z_WRITE_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_READ_BASE, (uint32_t)((BASE + S_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_WRITE_BASE, (uint32_t)((BASE + S_OFF) >> 8));
    uint32_t dc = test_rand() & ~S_DB_DEPTH_CONTROL__ZFUNC(7);
    dc |= S_DB_DEPTH_CONTROL__ZFUNC(test_rand() % 8);
    scene_set_reg(r, REG_DB_DEPTH_CONTROL, dc);
    unsigned rc = 0;
    if (test_rand() % 8 == 0)
        rc |= S_DB_RENDER_CONTROL__DEPTH_CLEAR_ENABLE(1);
    if (test_rand() % 8 == 0)
        rc |= S_DB_RENDER_CONTROL__STENCIL_CLEAR_ENABLE(1);
    if (test_rand() % 8 == 0)
        rc |= S_DB_RENDER_CONTROL__DEPTH_COMPRESS_DISABLE(1);
    scene_set_reg(r, REG_DB_RENDER_CONTROL, rc);
    scene_set_reg(r, REG_DB_SHADER_CONTROL, 0);
    scene_set_reg(r, REG_DB_COUNT_CONTROL, test_rand() % 4 ? 0 : S_DB_COUNT_CONTROL__ZPASS_INCREMENT_DISABLE(1));
    scene_set_reg(r, REG_DB_STENCILREFMASK, test_rand());
    scene_set_reg(r, REG_DB_STENCILREFMASK_BF, test_rand());
    scene_set_reg(r, REG_DB_RENDER_OVERRIDE,
                  test_rand() % 4 ? 0 : S_DB_RENDER_OVERRIDE__DISABLE_VIEWPORT_CLAMP(1));
    float zmin = (float)(test_rand() % 5) / 10.0f;
    scene_set_float(r, REG_PA_SC_VPORT_ZMIN_0, zmin);
    scene_set_float(r, REG_PA_SC_VPORT_ZMAX_0, zmin + (float)(test_rand() % 6) / 10.0f);
    scene_set_float(r, REG_DB_DEPTH_CLEAR, random_z());
    scene_set_reg(r, REG_DB_STENCIL_CLEAR, test_rand() & 0xFF);
}

/* ---- the reference: one sample at a time ------------------------------- */

static uint32_t *ref_htile(const struct db_state *db, unsigned x, unsigned y)
{
    return db->htile ? &db->htile[(y >> 3) * db->htile_pitch + (x >> 3)] : NULL;
}

static uint64_t ref_zaddr(const struct db_state *db, unsigned x, unsigned y, unsigned s)
{
    return cedar_tile_addr(&db->zmap, x, y, s, db->slice);
}

static uint32_t ref_z_at(const struct db_state *db, uint64_t off)
{
    const uint8_t *p = db->zrd + off;
    if (db->zformat == V_DB_Z_FORMAT__Z_16)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return db->zformat == V_DB_Z_FORMAT__Z_24 ? v & 0xFFFFFFu : v;
}

static void ref_store_z(const struct db_state *db, uint64_t off, uint32_t v)
{
    unsigned n = db->zformat == V_DB_Z_FORMAT__Z_16 ? 2 : 4;
    for (unsigned i = 0; i < n; i++)
        db->zwr[off + i] = (uint8_t)(v >> (8 * i));
}

static double ref_decode(unsigned zformat, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return zformat == V_DB_Z_FORMAT__Z_32_FLOAT ? (double)f : (double)bits;
}

/* GL 4.1.5 / 4.1.6, function by function */
static bool ref_compare(unsigned func, double a, double b)
{
    const bool pass[8] = {
        [V_COMPARE_FUNC__STENCILFUNC_NEVER] = false,   [V_COMPARE_FUNC__STENCILFUNC_LESS] = a < b,
        [V_COMPARE_FUNC__STENCILFUNC_EQUAL] = a == b,  [V_COMPARE_FUNC__STENCILFUNC_LEQUAL] = a <= b,
        [V_COMPARE_FUNC__STENCILFUNC_GREATER] = a > b, [V_COMPARE_FUNC__STENCILFUNC_NOTEQUAL] = a != b,
        [V_COMPARE_FUNC__STENCILFUNC_GEQUAL] = a >= b, [V_COMPARE_FUNC__STENCILFUNC_ALWAYS] = true,
    };
    return pass[func & 7];
}

/* GL 4.1.5's stencil operations (INCR / DECR clamp to 0..255) */
static uint8_t ref_op(unsigned op, uint8_t old, uint8_t ref)
{
    const uint8_t result[8] = {
        [V_STENCIL_OP__STENCIL_KEEP] = old,
        [V_STENCIL_OP__STENCIL_ZERO] = 0,
        [V_STENCIL_OP__STENCIL_REPLACE] = ref,
        [V_STENCIL_OP__STENCIL_INCR] = (uint8_t)(old < 255 ? old + 1 : 255),
        [V_STENCIL_OP__STENCIL_DECR] = (uint8_t)(old > 0 ? old - 1 : 0),
        [V_STENCIL_OP__STENCIL_INVERT] = (uint8_t)(255 - old),
        [V_STENCIL_OP__STENCIL_INCR_WRAP] = (uint8_t)((old + 1) % 256),
        [V_STENCIL_OP__STENCIL_DECR_WRAP] = (uint8_t)((old + 255) % 256),
    };
    return result[op & 7];
}

static uint32_t ref_fragment(struct db_state *db, unsigned x, unsigned y, uint32_t coverage, const float *z,
                             const uint8_t *sref, bool front)
{
    if (!db->active || !coverage)
        return coverage;
    bool zs = db->zformat != V_DB_Z_FORMAT__Z_INVALID && x < db->zmap.width && y < db->zmap.height;
    bool ss = db->has_stencil && x < db->smap.width && y < db->smap.height;
    uint32_t *h = zs ? ref_htile(db, x, y) : NULL;
    if (h && !(*h & 0xFu) && (db->z_write || db->z_clear || db->expand_only)) {
        for (unsigned j = 0; j < 8; j++)
            for (unsigned i = 0; i < 8; i++)
                for (unsigned s = 0; s < db->samples; s++)
                    ref_store_z(db, ref_zaddr(db, (x & ~7u) + i, (y & ~7u) + j, s),
                                db_depth_encode(db->zformat, db->clear_z));
        *h |= 0xFu;
    }
    unsigned f = !front && db->backface ? 1 : 0;
    uint8_t ref = sref ? *sref : db->sref[f];
    uint32_t passed = 0;
    for (unsigned s = 0; s < db->samples; s++) {
        if (!((coverage >> s) & 1u))
            continue;
        double zv = z[s];
        if (db->clamp && !db->z_clear)
            zv = zv < db->zmin ? db->zmin : zv > db->zmax ? db->zmax : zv;
        if (db->z_clear)
            zv = db->clear_z;
        uint64_t soff = ss ? cedar_tile_addr(&db->smap, x, y, s, db->slice) : 0;
        uint8_t sold = ss ? db->srd[soff] : 0, snew = sold;
        uint64_t zoff = zs ? ref_zaddr(db, x, y, s) : 0;
        bool pass = true;
        if (db->s_on && ss && !ref_compare(db->sfunc[f], ref & db->smask[f], sold & db->smask[f])) {
            snew = ref_op(db->sfail[f], sold, ref);
            pass = false;
        }
        uint32_t znew = 0;
        if (pass && db->z_on && zs) {
            znew = db_depth_encode(db->zformat, zv);
            uint32_t *hw = ref_htile(db, x, y);
            uint32_t zold = hw && !(*hw & 0xFu) ? db_depth_encode(db->zformat, db->clear_z) : ref_z_at(db, zoff);
            bool zp = ref_compare(db->zfunc, ref_decode(db->zformat, znew), ref_decode(db->zformat, zold));
            if (db->s_on && ss)
                snew = ref_op(zp ? db->szpass[f] : db->szfail[f], sold, ref);
            pass = zp;
        } else if (pass && db->s_on && ss) {
            snew = ref_op(db->szpass[f], sold, ref);
        }
        if (db->s_on && ss)
            db->swr[soff] = (uint8_t)((sold & ~db->swmask[f]) | (snew & db->swmask[f]));
        if (db->s_clear && ss)
            db->swr[soff] = db->clear_s;
        if (zs && ((pass && db->z_write) || db->z_clear))
            ref_store_z(db, zoff, db->z_clear ? db_depth_encode(db->zformat, zv) : znew);
        if (pass) {
            passed |= 1u << s;
            if (db->count)
                db->zpass++;
        }
    }
    return passed;
}

/* A random plane of window z over the micro tile at (x0, y0) (sometimes
 * NaN or outside [0, 1]) and random sample positions (1/16 pixel steps,
 * -8..7 from the centre). */
static void random_plane(struct db_zplane *zp, unsigned x0, unsigned y0)
{
    zp->z0 = random_z();
    zp->zx0 = (double)x0 + (double)(test_rand() % 64) / 8.0;
    zp->zy0 = (double)y0 + (double)(test_rand() % 64) / 8.0;
    zp->zdx = ((double)(test_rand() % 201) - 100.0) * 1e-4;
    zp->zdy = ((double)(test_rand() % 201) - 100.0) * 1e-4;
    for (unsigned s = 0; s < RS_MAX_SAMPLES; s++) {
        zp->sdx[s] = ((double)(test_rand() % 16) - 8.0) / 16.0;
        zp->sdy[s] = ((double)(test_rand() % 16) - 8.0) / 16.0;
    }
}

/* ---- the comparison ---------------------------------------------------- */

static int side_init(struct side *s, const struct vc_regs *regs, const uint8_t *mem, unsigned samples)
{
    s->mem = malloc(MEM);
    assert_non_null(s->mem);
    memcpy(s->mem, mem, MEM);
    s->vmem = (struct vc_mem){.ctx = s, .ptr = side_ptr};
    struct cedar_tiling t = {2, 8, 256, 1024};
    struct vc_draw_err err = {{0}};
    return db_init(&s->db, regs, &s->vmem, samples, &t, &err);
}

static void same_memory(const struct side *a, const struct side *b, unsigned k, const char *when)
{
    if (memcmp(a->mem, b->mem, MEM) != 0) {
        size_t i = 0;
        while (a->mem[i] == b->mem[i])
            i++;
        fail_msg("state %u %s: memory differs first at byte 0x%zx", k, when, i);
    }
}

static void test_fast_path_vs_reference(void **state)
{
    (void)state;
    test_rand_seed(0xDB0Bull);
    struct vc_regs *regs = calloc(1, sizeof *regs);
    uint8_t *mem = malloc(MEM);
    assert_non_null(regs);
    assert_non_null(mem);
    unsigned ran = 0, passed_samples = 0, zwrites = 0, blocks = 0;
    for (unsigned k = 0; k < STATES; k++) {
        unsigned samples;
        memset(regs, 0, sizeof *regs);
        random_state(regs, &samples);
        for (size_t i = 0; i < MEM; i += 4) {
            uint32_t v = test_rand();
            memcpy(mem + i, &v, 4);
        }
        struct side a, b;
        int ra = side_init(&a, regs, mem, samples), rb = side_init(&b, regs, mem, samples);
        assert_int_equal(ra, rb);
        if (ra || !a.db.active) {
            free(a.mem);
            free(b.mem);
            continue;
        }
        ran++;
        for (unsigned n = 0; n < FRAGMENTS / 8; n++) {
            /* db_block on a micro tile (some partly outside the surface)
             * against the reference pixel by pixel in its order */
            unsigned x0 = (test_rand() % (SIDE / 8 + 1)) * 8, y0 = (test_rand() % (SIDE / 8 + 1)) * 8;
            bool front = test_rand() % 2;
            uint32_t cov[64], want[64];
            float z[64 * RS_MAX_SAMPLES];
            struct db_zplane zp;
            random_plane(&zp, x0, y0);
            bool none = test_rand() % 8 == 0; /* a tile with nothing covered touches nothing */
            for (unsigned l = 0; l < 64; l++) {
                cov[l] = none ? 0 : test_rand() % 8 ? (1u << samples) - 1u : test_rand() & ((1u << samples) - 1u);
                for (unsigned s = 0; s < samples; s++)
                    z[l * samples + s] = db_zplane_at(&zp, x0 + (l & 7), y0 + (l >> 3), s);
            }
            for (unsigned l = 0; l < 64; l++)
                want[l] = ref_fragment(&b.db, x0 + (l & 7), y0 + (l >> 3), cov[l], z + l * samples, NULL, front);
            db_block(&a.db, x0, y0, cov, &zp, front);
            for (unsigned l = 0; l < 64; l++)
                if (cov[l] != want[l])
                    fail_msg("state %u block (%u,%u) pixel %u: passed %x, reference %x", k, x0, y0, l, cov[l],
                             want[l]);
            blocks++;
        }
        same_memory(&a, &b, k, "after the blocks");
        for (unsigned n = 0; n < FRAGMENTS; n++) {
            /* runs of neighbours (the micro tile kept), some outside */
            unsigned x = test_rand() % (SIDE + 8), y = test_rand() % (SIDE + 8);
            unsigned len = 1 + test_rand() % 16;
            uint8_t sref = (uint8_t)test_rand();
            bool use_sref = test_rand() % 4 == 0, front = test_rand() % 2;
            for (unsigned i = 0; i < len; i++, x++) {
                uint32_t cov = test_rand() % 4 ? (1u << samples) - 1u : test_rand() & ((1u << samples) - 1u);
                float z[RS_MAX_SAMPLES];
                float zc = random_z();
                for (unsigned s = 0; s < samples; s++)
                    z[s] = test_rand() % 8 ? zc + (float)s * 1e-4f : random_z();
                uint32_t pa = db_fragment(&a.db, x, y, cov, z, use_sref ? &sref : NULL, front);
                uint32_t pb = ref_fragment(&b.db, x, y, cov, z, use_sref ? &sref : NULL, front);
                if (pa != pb)
                    fail_msg("state %u fragment %u (%u,%u) cov %x: passed %x, reference %x", k, n, x, y, cov, pa,
                             pb);
                passed_samples += (unsigned)__builtin_popcount(pa);
            }
        }
        assert_int_equal(a.db.zpass, b.db.zpass);
        same_memory(&a, &b, k, "at the end");
        zwrites += memcmp(a.mem, mem, MEM) != 0;
        free(a.mem);
        free(b.mem);
    }
    print_message("%u random DB states, %u blocks, %u samples passed, %u states changed memory\n", ran, blocks,
                  passed_samples, zwrites);
    /* the states exercised something: most ran, many wrote */
    assert_true(ran > STATES / 2);
    assert_true(zwrites > ran / 4);
    free(mem);
    free(regs);
}

/* Registers for a draw testing stencil and depth on a Z format with the
 * given DB_DEPTH_CONTROL functions and operations (front and back face),
 * no clears, counting on. */
static void stencil_state(struct vc_regs *r, unsigned zf, unsigned samples, unsigned zfunc, const unsigned sfunc[2],
                          const unsigned op[2][3], uint32_t refmask, uint32_t refmask_bf)
{
    /* MSAA surfaces are 2D tiled (4 banks, 1 KiB tile split) */
    unsigned mode = samples > 1 ? V_ARRAY_MODE__ARRAY_2D_TILED_THIN1 : V_ARRAY_MODE__ARRAY_1D_TILED_THIN1;
    scene_set_reg(r, REG_DB_Z_INFO,
                  S_DB_Z_INFO__FORMAT(zf) | S_DB_Z_INFO__ARRAY_MODE(mode) | S_DB_Z_INFO__NUM_SAMPLES(log2_of(samples)) |
                      S_DB_Z_INFO__NUM_BANKS(1) | S_DB_Z_INFO__TILE_SPLIT(4));
    scene_set_reg(r, REG_DB_STENCIL_INFO, S_DB_STENCIL_INFO__FORMAT(V_DB_STENCIL_FORMAT__STENCIL_8));
    scene_set_reg(r, REG_DB_DEPTH_SIZE, S_DB_DEPTH_SIZE__PITCH_TILE_MAX(SIDE / 8 - 1) |
                                            S_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(SIDE / 8 - 1));
    scene_set_reg(r, REG_DB_Z_READ_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
    scene_set_reg(r, REG_DB_Z_WRITE_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_READ_BASE, (uint32_t)((BASE + S_OFF) >> 8));
    scene_set_reg(r, REG_DB_STENCIL_WRITE_BASE, (uint32_t)((BASE + S_OFF) >> 8));
    scene_set_reg(r, REG_DB_DEPTH_CONTROL,
                  S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_ENABLE(1) |
                      S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) | S_DB_DEPTH_CONTROL__ZFUNC(zfunc) |
                      S_DB_DEPTH_CONTROL__BACKFACE_ENABLE(1) | S_DB_DEPTH_CONTROL__STENCILFUNC(sfunc[0]) |
                      S_DB_DEPTH_CONTROL__STENCILFAIL(op[0][0]) | S_DB_DEPTH_CONTROL__STENCILZFAIL(op[0][1]) |
                      S_DB_DEPTH_CONTROL__STENCILZPASS(op[0][2]) | S_DB_DEPTH_CONTROL__STENCILFUNC_BF(sfunc[1]) |
                      S_DB_DEPTH_CONTROL__STENCILFAIL_BF(op[1][0]) | S_DB_DEPTH_CONTROL__STENCILZFAIL_BF(op[1][1]) |
                      S_DB_DEPTH_CONTROL__STENCILZPASS_BF(op[1][2]));
    scene_set_reg(r, REG_DB_STENCILREFMASK, refmask);
    scene_set_reg(r, REG_DB_STENCILREFMASK_BF, refmask_bf);
    scene_set_float(r, REG_PA_SC_VPORT_ZMIN_0, 0.0f);
    scene_set_float(r, REG_PA_SC_VPORT_ZMAX_0, 1.0f);
}

/* The stencil tables (struct db_stencil_lut) through db_block: every
 * function and every operation in each of the three places, both faces,
 * random references and masks, each Z format, one and four samples, over
 * the whole surface (every stored stencil value 0..255 occurs): the passed
 * masks, the pass counts and every byte against the reference. */
static void test_stencil_tables_vs_reference(void **state)
{
    (void)state;
    test_rand_seed(0x57E7ull);
    static const unsigned zfmt[] = {V_DB_Z_FORMAT__Z_16, V_DB_Z_FORMAT__Z_24, V_DB_Z_FORMAT__Z_32_FLOAT};
    struct vc_regs *regs = calloc(1, sizeof *regs);
    uint8_t *mem = malloc(MEM);
    assert_non_null(regs);
    assert_non_null(mem);
    unsigned combos = 0, outcomes[3] = {0, 0, 0};
    for (unsigned func = 0; func < 8; func++)
        for (unsigned op = 0; op < 8; op++)
            for (unsigned place = 0; place < 3; place++) {
                unsigned samples = combos % 4 == 3 ? 4 : 1, zf = zfmt[combos % 3];
                /* op in one place, random operations in the others; the
                 * back face random */
                unsigned ops[2][3], sfunc[2] = {func, test_rand() % 8};
                for (unsigned k = 0; k < 3; k++) {
                    ops[0][k] = k == place ? op : test_rand() % 8;
                    ops[1][k] = test_rand() % 8;
                }
                memset(regs, 0, sizeof *regs);
                stencil_state(regs, zf, samples, V_COMPARE_FUNC__STENCILFUNC_LESS, sfunc, ops, test_rand(),
                              test_rand());
                for (size_t i = 0; i < MEM; i += 4) {
                    uint32_t v = test_rand();
                    memcpy(mem + i, &v, 4);
                }
                struct side a, b;
                assert_int_equal(side_init(&a, regs, mem, samples), 0);
                assert_int_equal(side_init(&b, regs, mem, samples), 0);
                for (unsigned t = 0; t < (SIDE / 8) * (SIDE / 8); t++) {
                    unsigned x0 = (t % (SIDE / 8)) * 8, y0 = (t / (SIDE / 8)) * 8;
                    bool front = t % 2;
                    /* a plane over the stored depths' range: some pass, some fail */
                    struct db_zplane zp;
                    random_plane(&zp, x0, y0);
                    zp.z0 = (double)(test_rand() % 1001) / 1000.0;
                    uint32_t cov[64], want[64];
                    for (unsigned l = 0; l < 64; l++) {
                        unsigned x = x0 + (l & 7), y = y0 + (l >> 3);
                        float z[RS_MAX_SAMPLES];
                        cov[l] = (1u << samples) - 1u;
                        for (unsigned s = 0; s < samples; s++) {
                            z[s] = db_zplane_at(&zp, x, y, s);
                            uint8_t sv;
                            double zold;
                            assert_true(db_read_stencil(&b.db, x, y, s, &sv));
                            assert_true(db_read_depth(&b.db, x, y, s, &zold));
                            unsigned f = front ? 0 : 1;
                            uint32_t rm = vc_reg(regs, REG_DB_STENCILREFMASK);
                            uint32_t rb = vc_reg(regs, REG_DB_STENCILREFMASK_BF);
                            uint8_t ref = (uint8_t)(f ? G_DB_STENCILREFMASK_BF__STENCILREF_BF(rb)
                                                      : G_DB_STENCILREFMASK__STENCILREF(rm));
                            uint8_t mask = (uint8_t)(f ? G_DB_STENCILREFMASK_BF__STENCILMASK_BF(rb)
                                                       : G_DB_STENCILREFMASK__STENCILMASK(rm));
                            outcomes[!ref_compare(sfunc[f], ref & mask, sv & mask) ? 0 : z[s] < zold ? 2 : 1]++;
                        }
                        want[l] = ref_fragment(&b.db, x, y, cov[l], z, NULL, front);
                    }
                    db_block(&a.db, x0, y0, cov, &zp, front);
                    for (unsigned l = 0; l < 64; l++)
                        if (cov[l] != want[l])
                            fail_msg("func %u op %u place %u tile %u pixel %u: passed %x, reference %x", func, op,
                                     place, t, l, cov[l], want[l]);
                }
                assert_int_equal(a.db.zpass, b.db.zpass);
                same_memory(&a, &b, combos, "after the stencil tables' tiles");
                free(a.mem);
                free(b.mem);
                combos++;
            }
    print_message("%u stencil states; samples by outcome: %u stencil fail, %u depth fail, %u pass (about)\n", combos,
                  outcomes[0], outcomes[1], outcomes[2]);
    /* every outcome was exercised many times */
    for (unsigned k = 0; k < 3; k++)
        assert_true(outcomes[k] > 10000);
    free(mem);
    free(regs);
}

/* ---- db_block's whole-tile shortcuts ----------------------------------- */

#define S_WR_OFF 0x38000 /* a stencil write surface apart from the read one */
#define SHORTCUT_STATES 400

/* Whether the reference would leave a sample storing stencil v untouched
 * and failing on face f: the test fails and SFAIL under the write mask
 * gives v back (GL 4.1.5, ref_compare / ref_op). */
static bool ref_inert(const struct db_state *db, unsigned f, uint8_t v)
{
    uint8_t ref = db->sref[f], m = db->smask[f], wm = db->swmask[f];
    if (ref_compare(db->sfunc[f], ref & m, v & m))
        return false;
    return (uint8_t)((v & ~wm) | (ref_op(db->sfail[f], v, ref) & wm)) == v;
}

/* The stencil read surface filled micro tile by micro tile with one value
 * each (a reference, 0, 255 or random), some tiles with one sample apart. */
static void uniform_stencil(struct side *a, unsigned samples)
{
    for (unsigned my = 0; my < SIDE / 8; my++)
        for (unsigned mx = 0; mx < SIDE / 8; mx++) {
            const uint8_t pick_v[5] = {a->db.sref[0], a->db.sref[1], 0, 255, (uint8_t)test_rand()};
            uint8_t v = pick_v[test_rand() % 5];
            int odd = test_rand() % 4 == 0 ? (int)(test_rand() % (64 * samples)) : -1;
            for (unsigned l = 0; l < 64; l++)
                for (unsigned s = 0; s < samples; s++) {
                    uint64_t off = cedar_tile_addr(&a->db.smap, mx * 8 + (l & 7), my * 8 + (l >> 3), s, 0);
                    a->db.srd[off] = (int)(l * samples + s) == odd ? (uint8_t)test_rand() : v;
                }
        }
}

/* A plane without slope (zdx, zdy zero of either sign) at a z0 that may be
 * +-0, outside [0, 1], infinite or NaN, or a random plane. */
static void shortcut_plane(struct db_zplane *zp, unsigned x0, unsigned y0)
{
    random_plane(zp, x0, y0);
    if (test_rand() % 4 == 0)
        return;
    static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, 0.5};
    zp->zdx = test_rand() % 2 ? 0.0 : -0.0;
    zp->zdy = test_rand() % 2 ? 0.0 : -0.0;
    zp->z0 = test_rand() % 3 ? random_z() : special[test_rand() % 7];
}

/* db_block where its whole-tile shortcuts apply (struct db_stencil_lut's
 * inert values: a tile whose covered samples all fail the stencil test
 * and keep their bytes; a depth plane without slope: one depth for the
 * tile; one stencil value in every sample: its test and operations once)
 * and where they must not (a stencil write surface apart from the read
 * one, stencil bytes inside the depth surface's, clears, partial
 * coverage, one sample apart, -0, NaN and infinite planes): random DB
 * states with the stencil test mostly on,
 * stencil surfaces of one value per tile, against the per-sample reference
 * (ref_fragment): passed masks, pass counts and every byte. */
static void test_block_shortcuts_vs_reference(void **state)
{
    (void)state;
    test_rand_seed(0x1AE27ull);
    struct vc_regs *regs = calloc(1, sizeof *regs);
    uint8_t *mem = malloc(MEM);
    assert_non_null(regs);
    assert_non_null(mem);
    unsigned ran = 0, inert_tiles = 0, inert_apart = 0, flat_tiles = 0, partial_inert = 0, passed_samples = 0;
    unsigned uniform_tiles = 0, on_z_tiles = 0;
    for (unsigned k = 0; k < SHORTCUT_STATES; k++) {
        unsigned samples;
        memset(regs, 0, sizeof *regs);
        random_state(regs, &samples);
        uint32_t dc = vc_reg(regs, REG_DB_DEPTH_CONTROL);
        if (test_rand() % 4)
            dc |= S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1);
        if (test_rand() % 2) /* KEEP on a stencil fail, both faces */
            dc &= ~(S_DB_DEPTH_CONTROL__STENCILFAIL(7) | S_DB_DEPTH_CONTROL__STENCILFAIL_BF(7));
        scene_set_reg(regs, REG_DB_DEPTH_CONTROL, dc);
        scene_set_reg(regs, REG_DB_STENCIL_INFO, S_DB_STENCIL_INFO__FORMAT(V_DB_STENCIL_FORMAT__STENCIL_8) |
                                                     S_DB_STENCIL_INFO__TILE_SPLIT(test_rand() % 7));
        bool apart = test_rand() % 4 == 0, on_z = !apart && test_rand() % 8 == 0;
        if (apart)
            scene_set_reg(regs, REG_DB_STENCIL_WRITE_BASE, (uint32_t)((BASE + S_WR_OFF) >> 8));
        if (on_z) { /* the stencil bytes inside the depth surface's */
            scene_set_reg(regs, REG_DB_STENCIL_READ_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
            scene_set_reg(regs, REG_DB_STENCIL_WRITE_BASE, (uint32_t)((BASE + Z_OFF) >> 8));
        }
        for (size_t i = 0; i < MEM; i += 4) {
            uint32_t v = test_rand();
            memcpy(mem + i, &v, 4);
        }
        struct side a, b;
        int ra = side_init(&a, regs, mem, samples);
        if (ra || !a.db.active) {
            free(a.mem);
            continue;
        }
        uniform_stencil(&a, samples);
        assert_int_equal(side_init(&b, regs, a.mem, samples), 0);
        memcpy(b.mem, a.mem, MEM);
        ran++;
        for (unsigned n = 0; n < 24; n++) {
            unsigned x0 = (test_rand() % (SIDE / 8)) * 8, y0 = (test_rand() % (SIDE / 8)) * 8;
            if (on_z && n % 2) /* where the first depth and stencil bytes meet */
                x0 = y0 = 0;
            bool front = test_rand() % 2;
            struct db_zplane zp;
            shortcut_plane(&zp, x0, y0);
            uint32_t cov[64], want[64], all = (1u << samples) - 1u;
            unsigned kind = test_rand() % 8; /* 0: random masks, 1: one pixel left out, else full */
            unsigned hole = test_rand() % 64;
            for (unsigned l = 0; l < 64; l++)
                cov[l] = kind == 0 ? test_rand() & all : kind == 1 && l == hole ? 0 : all;
            /* what the shortcut may skip, decided here from the reference's
             * rules: every covered sample inert, no clear */
            unsigned f = !front && a.db.backface ? 1 : 0;
            bool inert = a.db.s_on && !a.db.z_clear && !a.db.s_clear;
            for (unsigned l = 0; l < 64 && inert; l++)
                for (unsigned s = 0; s < samples; s++)
                    if ((cov[l] >> s) & 1u) {
                        uint64_t off = cedar_tile_addr(&b.db.smap, x0 + (l & 7), y0 + (l >> 3), s, 0);
                        inert = inert && ref_inert(&b.db, f, b.db.srd[off]);
                    }
            if (inert && !apart)
                inert_tiles++;
            /* every sample covered, one stencil value, a plane without slope */
            bool one = a.db.s_on && zp.zdx == 0.0 && zp.zdy == 0.0;
            for (unsigned l = 0; l < 64 && one; l++)
                for (unsigned s = 0; s < samples; s++) {
                    uint64_t off = cedar_tile_addr(&b.db.smap, x0 + (l & 7), y0 + (l >> 3), s, 0);
                    uint64_t off0 = cedar_tile_addr(&b.db.smap, x0, y0, 0, 0);
                    one = one && ((cov[l] >> s) & 1u) && b.db.srd[off] == b.db.srd[off0];
                }
            if (one && !inert)
                uniform_tiles++;
            if (on_z && x0 == 0 && y0 == 0)
                on_z_tiles++;
            if (inert && apart)
                inert_apart++;
            if (inert && kind < 2)
                partial_inert++;
            if (zp.zdx == 0.0 && zp.zdy == 0.0 && a.db.z_on)
                flat_tiles++;
            for (unsigned l = 0; l < 64; l++) {
                float z[RS_MAX_SAMPLES];
                for (unsigned s = 0; s < samples; s++)
                    z[s] = db_zplane_at(&zp, x0 + (l & 7), y0 + (l >> 3), s);
                want[l] = ref_fragment(&b.db, x0 + (l & 7), y0 + (l >> 3), cov[l], z, NULL, front);
            }
            db_block(&a.db, x0, y0, cov, &zp, front);
            for (unsigned l = 0; l < 64; l++) {
                if (cov[l] != want[l])
                    fail_msg("state %u block (%u,%u) pixel %u: passed %x, reference %x", k, x0, y0, l, cov[l],
                             want[l]);
                passed_samples += (unsigned)__builtin_popcount(cov[l]);
            }
            assert_int_equal(a.db.zpass, b.db.zpass);
            same_memory(&a, &b, k, "after a shortcut block");
        }
        free(a.mem);
        free(b.mem);
    }
    print_message("%u states: %u inert tiles (%u partly covered), %u with the stencil written apart, %u flat, "
                  "%u of one stencil value not inert, %u where depth and stencil bytes meet, %u samples passed\n",
                  ran, inert_tiles, partial_inert, inert_apart, flat_tiles, uniform_tiles, on_z_tiles,
                  passed_samples);
    /* every case was met many times */
    assert_true(ran > SHORTCUT_STATES / 2);
    assert_true(inert_tiles > 300);
    assert_true(partial_inert > 30);
    assert_true(inert_apart > 50);
    assert_true(flat_tiles > 1000);
    assert_true(uniform_tiles > 300);
    assert_true(on_z_tiles > 50);
    assert_true(passed_samples > 10000);
    free(mem);
    free(regs);
}

/* Hand-checked IEEE signs: a plane without slope at z0 = -0 on
 * Z_32_FLOAT (depth ALWAYS, written, no viewport clamp), zdx = zdy = +0
 * and its reference point at the tile's pixel (4, 4): pixel (i, j) gets
 * -0 + (+0)(i + 0.5 - 4) + (+0)(j + 0.5 - 4), which is -0 only where both
 * products are -0 (i < 4 and j < 4; -0 + +0 is +0), so the stored bits
 * are 0x80000000 in that quarter and 0 elsewhere: one depth for the whole
 * tile would be wrong here.  At z0 = +0 every pixel stores +0. */
static void test_flat_plane_signed_zero(void **state)
{
    (void)state;
    struct vc_regs *regs = calloc(1, sizeof *regs);
    uint8_t *mem = calloc(1, MEM);
    assert_non_null(regs);
    assert_non_null(mem);
    const unsigned sfunc[2] = {V_COMPARE_FUNC__STENCILFUNC_ALWAYS, V_COMPARE_FUNC__STENCILFUNC_ALWAYS};
    const unsigned ops[2][3] = {{0, 0, 0}, {0, 0, 0}}; /* KEEP */
    stencil_state(regs, V_DB_Z_FORMAT__Z_32_FLOAT, 1, V_COMPARE_FUNC__STENCILFUNC_ALWAYS, sfunc, ops, 0, 0);
    scene_set_reg(regs, REG_DB_RENDER_OVERRIDE, S_DB_RENDER_OVERRIDE__DISABLE_VIEWPORT_CLAMP(1));
    struct side a;
    assert_int_equal(side_init(&a, regs, mem, 1), 0);
    for (unsigned t = 0; t < 2; t++) {
        unsigned x0 = 8 * t;
        struct db_zplane zp = {.z0 = t ? 0.0 : -0.0, .zx0 = x0 + 4.0, .zy0 = 4.0, .zdx = 0.0, .zdy = 0.0};
        uint32_t cov[64];
        for (unsigned l = 0; l < 64; l++)
            cov[l] = 1;
        db_block(&a.db, x0, 0, cov, &zp, true);
        for (unsigned l = 0; l < 64; l++) {
            unsigned i = l & 7, j = l >> 3;
            uint32_t want = !t && i < 4 && j < 4 ? 0x80000000u : 0u;
            assert_int_equal(cov[l], 1);
            assert_int_equal(db_read_depth_bits(&a.db, x0 + i, j, 0), want);
        }
    }
    free(a.mem);
    free(mem);
    free(regs);
}

/* db_block on the one-sample tile at (x0, 0), every pixel covered, all at
 * window z; cov: the passed masks. */
static void flat_block(struct side *a, unsigned x0, double z, bool front, uint32_t cov[64])
{
    struct db_zplane zp = {.z0 = z};
    for (unsigned l = 0; l < 64; l++)
        cov[l] = 1;
    db_block(&a->db, x0, 0, cov, &zp, front);
}

/* Hand-checked: piglit's manifest state (stencil EQUAL 0 mask 0xFF, INCR
 * on depth pass, KEEP otherwise; depth LESS) on Z_24 and one sample, and a
 * back face INVERTing under write mask 0x0F.  Stored stencil 0 and a depth
 * pass: 1, the pixel passes and is counted; stored 0 and a depth fail: 0;
 * stored 1: stays 1, fails; back face stored 0x35, INVERT under 0x0F:
 * 0x3A. */
static void test_stencil_tables_by_hand(void **state)
{
    (void)state;
    struct vc_regs *regs = calloc(1, sizeof *regs);
    uint8_t *mem = calloc(1, MEM);
    assert_non_null(regs);
    assert_non_null(mem);
    const unsigned sfunc[2] = {V_COMPARE_FUNC__STENCILFUNC_EQUAL, V_COMPARE_FUNC__STENCILFUNC_ALWAYS};
    const unsigned ops[2][3] = {{V_STENCIL_OP__STENCIL_KEEP, V_STENCIL_OP__STENCIL_KEEP, V_STENCIL_OP__STENCIL_INCR},
                                {V_STENCIL_OP__STENCIL_KEEP, V_STENCIL_OP__STENCIL_KEEP, V_STENCIL_OP__STENCIL_INVERT}};
    stencil_state(regs, V_DB_Z_FORMAT__Z_24, 1, V_COMPARE_FUNC__STENCILFUNC_LESS, sfunc, ops,
                  S_DB_STENCILREFMASK__STENCILREF(0) | S_DB_STENCILREFMASK__STENCILMASK(0xFF) |
                      S_DB_STENCILREFMASK__STENCILWRITEMASK(0xFF),
                  S_DB_STENCILREFMASK_BF__STENCILREF_BF(0) | S_DB_STENCILREFMASK_BF__STENCILMASK_BF(0xFF) |
                      S_DB_STENCILREFMASK_BF__STENCILWRITEMASK_BF(0x0F));
    struct side a;
    assert_int_equal(side_init(&a, regs, mem, 1), 0);
    /* stored depth 0.5 everywhere (Z_24: 0x7FFFFF rounds 0.5 * (2^24 - 1)
     * up to 0x800000; either way between the planes' 0.25 and 0.75) */
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 16; x++) {
            uint64_t zo = cedar_tile_addr(&a.db.zmap, x, y, 0, 0);
            a.mem[Z_OFF + zo] = 0x00;
            a.mem[Z_OFF + zo + 1] = 0x00;
            a.mem[Z_OFF + zo + 2] = 0x80;
            /* stencil: column 0..3 0, 4..7 1, the second tile 0x35 */
            a.mem[S_OFF + cedar_tile_addr(&a.db.smap, x, y, 0, 0)] = x >= 8 ? 0x35 : x < 4 ? 0 : 1;
        }
    uint32_t cov[64];
    flat_block(&a, 0, 0.25, true, cov);             /* z 0.25 < 0.5: depth passes */
    for (unsigned l = 0; l < 64; l++) {
        uint8_t sv;
        assert_true(db_read_stencil(&a.db, l & 7, l >> 3, 0, &sv));
        assert_int_equal(cov[l], (l & 7) < 4 ? 1u : 0u);
        assert_int_equal(sv, 1);                    /* 0 -> 1 (INCR), 1 stays (KEEP) */
    }
    assert_int_equal(a.db.zpass, 32);
    /* again at z 0.75: now every stored stencil is 1 -> all fail, none
     * changes, nothing counted */
    flat_block(&a, 0, 0.75, true, cov);
    for (unsigned l = 0; l < 64; l++) {
        uint8_t sv;
        assert_true(db_read_stencil(&a.db, l & 7, l >> 3, 0, &sv));
        assert_int_equal(cov[l], 0);
        assert_int_equal(sv, 1);
    }
    assert_int_equal(a.db.zpass, 32);
    /* the back face on the second tile, z 0.25 (passes): 0x35 -> 0x3A */
    flat_block(&a, 8, 0.25, false, cov);
    for (unsigned l = 0; l < 64; l++) {
        uint8_t sv;
        double zv;
        assert_true(db_read_stencil(&a.db, 8 + (l & 7), l >> 3, 0, &sv));
        assert_true(db_read_depth(&a.db, 8 + (l & 7), l >> 3, 0, &zv));
        assert_int_equal(cov[l], 1);
        assert_int_equal(sv, 0x3A);
        assert_true(fabs(zv - 0.25) < 1e-6);       /* the depth written */
    }
    assert_int_equal(a.db.zpass, 96);
    free(a.mem);
    free(mem);
    free(regs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_path_vs_reference),
        cmocka_unit_test(test_stencil_tables_vs_reference),
        cmocka_unit_test(test_stencil_tables_by_hand),
        cmocka_unit_test(test_block_shortcuts_vs_reference),
        cmocka_unit_test(test_flat_plane_signed_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
