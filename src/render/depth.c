/* The depth/stencil block (see depth.h).
 *
 * Facts: Mesa r600 evergreen_state.c (evergreen_init_depth_surface: what
 * DB_Z_INFO, DB_STENCIL_INFO, DB_DEPTH_SIZE / _VIEW and the bases hold;
 * evergreen_emit_db_misc_state: DB_RENDER_CONTROL, DB_COUNT_CONTROL),
 * r600_texture.c (r600_texture_get_htile_size: the HTILE's aligned size),
 * AMD addrlib egbaddrlib.cpp (depth surfaces: non-displayable micro tiles,
 * the samples of a pixel side by side), the GL specification (4.1.5 stencil
 * test, 4.1.6 depth test: the comparisons and stencil operations; 2.13.1
 * and 4.1.6: window z in [0, 1] to a fixed-point depth by rounding
 * z * (2^n - 1)).
 */
#include <math.h>
#include <string.h>

#include "depth.h"

#define HTILE_ZMASK 0xFu              /* bits 3:0: 0 cleared, else expanded */
#define DB_PREFETCH_LINES 32          /* cache lines db_prefetch asks for per surface */

static int arr_mode(unsigned hw, enum cedar_array_mode *out)
{
    switch (hw) {
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL:
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED:
        *out = CEDAR_MODE_LINEAR_ALIGNED;
        return 0;
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1:
        *out = CEDAR_MODE_1D_THIN;
        return 0;
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1:
        *out = CEDAR_MODE_2D_THIN;
        return 0;
    default:
        return -1;
    }
}

/* One of the DB's two surfaces (depth: bpe 2 or 4; stencil: 1). */
static int db_surface(struct cedar_tile_map *map, uint8_t **rd, uint8_t **wr, const char *what,
                      const struct vc_regs *regs, const struct vc_mem *mem, const struct cedar_tiling *tiling,
                      unsigned bpe, unsigned samples, unsigned tile_split, uint32_t rd_reg, uint32_t wr_reg,
                      struct vc_draw_err *err)
{
    uint32_t zinfo = vc_reg(regs, REG_DB_Z_INFO), size = vc_reg(regs, REG_DB_DEPTH_SIZE);
    uint32_t view = vc_reg(regs, REG_DB_DEPTH_VIEW);
    struct cedar_surface s = {0};
    if (arr_mode(G_DB_Z_INFO__ARRAY_MODE(zinfo), &s.mode))
        return rs_fail(err, "DB: %s array mode %u is not supported", what, G_DB_Z_INFO__ARRAY_MODE(zinfo));
    s.aligned_width = s.width = (G_DB_DEPTH_SIZE__PITCH_TILE_MAX(size) + 1) * 8;
    s.aligned_height = s.height = (G_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(size) + 1) * 8;
    s.bpe = bpe;
    s.samples = samples;
    s.tiling = *tiling;
    if (s.mode == CEDAR_MODE_2D_THIN) {
        s.tiling.banks = 2u << G_DB_Z_INFO__NUM_BANKS(zinfo);
        s.tile_split = 64u << tile_split;
        s.bankw = 1u << G_DB_Z_INFO__BANK_WIDTH(zinfo);
        s.bankh = 1u << G_DB_Z_INFO__BANK_HEIGHT(zinfo);
        s.mtilea = 1u << G_DB_Z_INFO__MACRO_TILE_ASPECT(zinfo);
    } else {
        s.bankw = s.bankh = s.mtilea = 1;
    }
    struct cedar_tile_opts o = {.slices = G_DB_DEPTH_VIEW__SLICE_MAX(view) + 1,
                                .order = CEDAR_MICRO_NON_DISPLAYABLE,
                                .depth_sample_order = 1};
    struct cedar_layout_err lerr = {{0}};
    if (cedar_tile_map_init(map, &s, &o, &lerr))
        return rs_fail(err, "DB: %s surface: %s", what, lerr.msg);
    uint64_t rbase = (uint64_t)vc_reg(regs, rd_reg) << 8, wbase = (uint64_t)vc_reg(regs, wr_reg) << 8;
    *rd = vc_mem_ptr(mem, rbase, map->size);
    *wr = vc_mem_ptr(mem, wbase, map->size);
    if (!*rd || !*wr)
        return rs_fail(err, "DB: %s surface at 0x%llx (%llu bytes) is not inside one buffer", what,
                       (unsigned long long)(*rd ? wbase : rbase), (unsigned long long)map->size);
    return 0;
}

/* Mesa r600_texture_get_htile_size: the HTILE covers the surface aligned to
 * a cache line of cl_w x cl_h tiles, by the number of pipes. */
static void htile_cache_line(unsigned pipes, unsigned *cl_w, unsigned *cl_h)
{
    switch (pipes) {
    case 1: *cl_w = 32; *cl_h = 16; break;
    case 2: *cl_w = 32; *cl_h = 32; break;
    case 4: *cl_w = 64; *cl_h = 32; break;
    default: *cl_w = 64; *cl_h = 64; break;
    }
}

/* Byte offset of sample 0 of pixel (x, y) of the micro tile whose runs c
 * keeps (c->n > 0). */
static inline uint64_t run_offset(const struct cedar_tile_map *m, const struct db_tile_runs *c, unsigned x,
                                  unsigned y)
{
    uint32_t e = cedar_tile_element_offset(m, x, y, 0);
    return c->run[e >> c->run_shift] + (e & c->run_mask);
}

/* Byte offset of pixel (x, y)'s sample 0 in map m, through the kept runs of
 * its micro tile (one address computation per run, not per pixel). */
static uint64_t tile_addr(const struct cedar_tile_map *m, struct db_tile_runs *c, unsigned x, unsigned y,
                          unsigned slice)
{
    int mx = (int)(x >> 3), my = (int)(y >> 3);
    if (c->mx != mx || c->my != my) {
        const struct color_tile *e = c->tab && slice == 0 ? addr_table_depth(c->tab, (unsigned)mx, (unsigned)my) : NULL;
        if (e) {
            c->n = e->nrun;
            memcpy(c->run, e->run, e->nrun * sizeof e->run[0]);
        } else {
            c->n = cedar_tile_micro_runs(m, (unsigned)mx, (unsigned)my, slice, c->run, DB_TILE_RUNS_MAX);
        }
        c->mx = mx;
        c->my = my;
    }
    if (!c->n)
        return cedar_tile_addr(m, x, y, 0, slice);
    return run_offset(m, c, x, y);
}

/* Bytes from a pixel's sample s to its sample s + 1 in map m.  A DB map of
 * more than one sample has the depth sample order: a pixel's samples are
 * consecutive elements, and they never straddle a run, a tile-split piece
 * or a pipe-interleave group (all multiples of 64 bytes and of the
 * samples' at most 32 bytes), so sample s is s elements after sample 0.  A
 * linear map of several samples gives every sample the pixel's address
 * (cedar_tile_addr). */
static unsigned sample_stride(const struct cedar_tile_map *m)
{
    return m->depth_order && m->mode != CEDAR_MODE_LINEAR_ALIGNED ? m->bpe : 0;
}

/* No micro tile kept yet; the run size (a power of two) as shift and mask. */
static void tile_runs_init(struct db_tile_runs *c, const struct cedar_tile_map *m)
{
    c->mx = c->my = -1;
    c->run_shift = 0;
    while (m->run_bytes && (1u << c->run_shift) < m->run_bytes)
        c->run_shift++;
    c->run_mask = (1u << c->run_shift) - 1u;
}

static float reg_f(const struct vc_regs *regs, uint32_t off)
{
    uint32_t u = vc_reg(regs, off);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int db_init(struct db_state *db, const struct vc_regs *regs, const struct vc_mem *mem, unsigned samples,
            const struct cedar_tiling *tiling, struct vc_draw_err *err)
{
    memset(db, 0, sizeof *db);
    db->ztile.mx = db->stile.mx = db->zahead.mx = db->sahead.mx = -1;
    uint32_t dc = vc_reg(regs, REG_DB_DEPTH_CONTROL), zinfo = vc_reg(regs, REG_DB_Z_INFO);
    uint32_t sinfo = vc_reg(regs, REG_DB_STENCIL_INFO), rc = vc_reg(regs, REG_DB_RENDER_CONTROL);
    uint32_t sc = vc_reg(regs, REG_DB_SHADER_CONTROL);
    db->samples = samples;
    db->zformat = G_DB_Z_INFO__FORMAT(zinfo);
    db->has_stencil = G_DB_STENCIL_INFO__FORMAT(sinfo) == V_DB_STENCIL_FORMAT__STENCIL_8;
    db->count = !G_DB_COUNT_CONTROL__ZPASS_INCREMENT_DISABLE(vc_reg(regs, REG_DB_COUNT_CONTROL));
    db->z_export = G_DB_SHADER_CONTROL__Z_EXPORT_ENABLE(sc);
    db->s_export = G_DB_SHADER_CONTROL__STENCIL_EXPORT_ENABLE(sc);
    db->mask_export = G_DB_SHADER_CONTROL__MASK_EXPORT_ENABLE(sc);
    bool have_z = db->zformat != V_DB_Z_FORMAT__Z_INVALID;
    db->z_on = have_z && G_DB_DEPTH_CONTROL__Z_ENABLE(dc);
    db->z_write = db->z_on && G_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(dc);
    db->s_on = db->has_stencil && G_DB_DEPTH_CONTROL__STENCIL_ENABLE(dc);
    db->z_clear = have_z && G_DB_RENDER_CONTROL__DEPTH_CLEAR_ENABLE(rc);
    db->s_clear = db->has_stencil && G_DB_RENDER_CONTROL__STENCIL_CLEAR_ENABLE(rc);
    db->expand_only = have_z && G_DB_RENDER_CONTROL__DEPTH_COMPRESS_DISABLE(rc);
    db->zfunc = G_DB_DEPTH_CONTROL__ZFUNC(dc);
    db->backface = G_DB_DEPTH_CONTROL__BACKFACE_ENABLE(dc);
    db->sfunc[0] = G_DB_DEPTH_CONTROL__STENCILFUNC(dc);
    db->sfail[0] = G_DB_DEPTH_CONTROL__STENCILFAIL(dc);
    db->szpass[0] = G_DB_DEPTH_CONTROL__STENCILZPASS(dc);
    db->szfail[0] = G_DB_DEPTH_CONTROL__STENCILZFAIL(dc);
    db->sfunc[1] = G_DB_DEPTH_CONTROL__STENCILFUNC_BF(dc);
    db->sfail[1] = G_DB_DEPTH_CONTROL__STENCILFAIL_BF(dc);
    db->szpass[1] = G_DB_DEPTH_CONTROL__STENCILZPASS_BF(dc);
    db->szfail[1] = G_DB_DEPTH_CONTROL__STENCILZFAIL_BF(dc);
    /* Registers whose value matters only when their unit is on are read only
     * then, so --poison-state reports just what a draw depends on. */
    if (have_z || db->has_stencil)
        db->slice = G_DB_DEPTH_VIEW__SLICE_START(vc_reg(regs, REG_DB_DEPTH_VIEW));
    if (db->s_on) {
        uint32_t rm = vc_reg(regs, REG_DB_STENCILREFMASK), rb = vc_reg(regs, REG_DB_STENCILREFMASK_BF);
        db->sref[0] = (uint8_t)G_DB_STENCILREFMASK__STENCILREF(rm);
        db->smask[0] = (uint8_t)G_DB_STENCILREFMASK__STENCILMASK(rm);
        db->swmask[0] = (uint8_t)G_DB_STENCILREFMASK__STENCILWRITEMASK(rm);
        db->sref[1] = (uint8_t)G_DB_STENCILREFMASK_BF__STENCILREF_BF(rb);
        db->smask[1] = (uint8_t)G_DB_STENCILREFMASK_BF__STENCILMASK_BF(rb);
        db->swmask[1] = (uint8_t)G_DB_STENCILREFMASK_BF__STENCILWRITEMASK_BF(rb);
    }
    db->clamp = !G_DB_RENDER_OVERRIDE__DISABLE_VIEWPORT_CLAMP(vc_reg(regs, REG_DB_RENDER_OVERRIDE));
    db->zmin = reg_f(regs, REG_PA_SC_VPORT_ZMIN_0);
    db->zmax = reg_f(regs, REG_PA_SC_VPORT_ZMAX_0);
    if (have_z) { /* the clear value, also of tiles HTILE marks cleared */
        db->clear_z = reg_f(regs, REG_DB_DEPTH_CLEAR);
        db->clear_z_bits = db_depth_encode(db->zformat, db->clear_z);
        db->zscale = db->zformat == V_DB_Z_FORMAT__Z_16 ? 65535.0 : 16777215.0;
    }
    db->z_touch = have_z && (db->z_on || db->z_write || db->z_clear);
    db->z_expand = have_z && (db->z_write || db->z_clear || db->expand_only);
    if (db->s_clear)
        db->clear_s = (uint8_t)vc_reg(regs, REG_DB_STENCIL_CLEAR);
    db->copy_z = have_z && G_DB_RENDER_CONTROL__DEPTH_COPY_ENABLE(rc);
    db->copy_s = db->has_stencil && G_DB_RENDER_CONTROL__STENCIL_COPY_ENABLE(rc);
    db->copy_centroid = G_DB_RENDER_CONTROL__COPY_CENTROID(rc);
    db->copy_sample = G_DB_RENDER_CONTROL__COPY_SAMPLE(rc);
    db->active = db->z_on || db->s_on || db->z_clear || db->s_clear || db->expand_only || db->count;
    if (db->copy_z || db->copy_s)
        db->active = false; /* a copy tests nothing (Mesa's flush DSA is all off) */
    else if (!db->active)
        return 0;

    if (have_z) {
        unsigned bpe = db->zformat == V_DB_Z_FORMAT__Z_16 ? 2 : 4;
        if (db_surface(&db->zmap, &db->zrd, &db->zwr, "depth", regs, mem, tiling, bpe, samples,
                       G_DB_Z_INFO__TILE_SPLIT(zinfo), REG_DB_Z_READ_BASE, REG_DB_Z_WRITE_BASE, err))
            return -1;
        if (db->slice >= db->zmap.slices)
            return rs_fail(err, "DB: DB_DEPTH_VIEW SLICE_START %u is past SLICE_MAX", db->slice);
        tile_runs_init(&db->ztile, &db->zmap);
        tile_runs_init(&db->zahead, &db->zmap);
        db->zstride = sample_stride(&db->zmap);
        if (G_DB_Z_INFO__TILE_SURFACE_ENABLE(zinfo) && vc_reg(regs, REG_DB_HTILE_SURFACE)) {
            unsigned cl_w, cl_h;
            htile_cache_line(tiling->pipes, &cl_w, &cl_h);
            unsigned w = (db->zmap.width + cl_w * 8 - 1) / (cl_w * 8) * (cl_w * 8);
            unsigned h = (db->zmap.height + cl_h * 8 - 1) / (cl_h * 8) * (cl_h * 8);
            db->htile_pitch = w / 8;
            uint64_t hbase = (uint64_t)vc_reg(regs, REG_DB_HTILE_DATA_BASE) << 8;
            uint64_t hsize = (uint64_t)(w / 8) * (h / 8) * 4;
            db->htile = vc_mem_ptr(mem, hbase, hsize);
            if (!db->htile || (hbase & 3))
                return rs_fail(err, "DB: HTILE at 0x%llx (%llu bytes) is not inside one buffer",
                               (unsigned long long)hbase, (unsigned long long)hsize);
        }
    }
    if (db->has_stencil) {
        if (db_surface(&db->smap, &db->srd, &db->swr, "stencil", regs, mem, tiling, 1, samples,
                       G_DB_STENCIL_INFO__TILE_SPLIT(sinfo), REG_DB_STENCIL_READ_BASE, REG_DB_STENCIL_WRITE_BASE,
                       err))
            return -1;
        if (db->slice >= db->smap.slices)
            return rs_fail(err, "DB: DB_DEPTH_VIEW SLICE_START %u is past SLICE_MAX", db->slice);
        tile_runs_init(&db->stile, &db->smap);
        tile_runs_init(&db->sahead, &db->smap);
        db->sstride = sample_stride(&db->smap);
    }
    /* the depth surface's bytes and the stencil's read bytes do not overlap */
    if (have_z && db->has_stencil) {
        uintptr_t z = (uintptr_t)db->zwr, st = (uintptr_t)db->srd;
        db->zs_apart = z + db->zmap.size <= st || st + db->smap.size <= z;
        db->zs_one_order = !memcmp(db->zmap.pix_index, db->smap.pix_index, sizeof db->zmap.pix_index);
    } else {
        db->zs_apart = db->zs_one_order = true;
    }
    return 0;
}

uint32_t db_depth_encode(unsigned zformat, double z)
{
    if (zformat == V_DB_Z_FORMAT__Z_32_FLOAT) {
        float f = (float)z;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    double max = zformat == V_DB_Z_FORMAT__Z_16 ? 65535.0 : 16777215.0;
    if (!(z > 0.0))
        return 0; /* also NaN */
    if (z >= 1.0)
        return (uint32_t)max;
    return (uint32_t)floor(z * max + 0.5);
}

static double depth_decode(unsigned zformat, uint32_t bits)
{
    if (zformat == V_DB_Z_FORMAT__Z_32_FLOAT) {
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    return (double)bits / (zformat == V_DB_Z_FORMAT__Z_16 ? 65535.0 : 16777215.0);
}

static uint32_t *htile_word(const struct db_state *db, unsigned x, unsigned y)
{
    return db->htile ? &db->htile[(y >> 3) * db->htile_pitch + (x >> 3)] : NULL;
}

static bool inside(const struct cedar_tile_map *m, unsigned x, unsigned y)
{
    return x < m->width && y < m->height;
}

/* The depth bits at p in format zformat. */
static inline uint32_t z_at_fmt(unsigned zformat, const uint8_t *p)
{
    if (zformat == V_DB_Z_FORMAT__Z_16)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    /* Z_24 keeps its depth in bits 23:0 (Mesa samples it as FMT_8_24) */
    return zformat == V_DB_Z_FORMAT__Z_24 ? v & 0xFFFFFFu : v;
}

static uint32_t z_at(const struct db_state *db, const uint8_t *p)
{
    return z_at_fmt(db->zformat, p);
}

/* The depth bits v in format zformat at byte off of the depth surface. */
static inline void store_z_at(unsigned zformat, uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    if (zformat != V_DB_Z_FORMAT__Z_16) {
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
    }
}

static void store_z(struct db_state *db, uint64_t off, uint32_t v)
{
    store_z_at(db->zformat, db->zwr + off, v);
}

/* The depth bits at byte off of the depth surface (pixel (x, y)): the
 * clear value while its HTILE tile is cleared. */
static uint32_t z_bits(const struct db_state *db, unsigned x, unsigned y, uint64_t off)
{
    const uint32_t *h = htile_word(db, x, y);
    if (h && !(*h & HTILE_ZMASK))
        return db_depth_encode(db->zformat, db->clear_z);
    return z_at(db, db->zrd + off);
}

uint32_t db_read_depth_bits(const struct db_state *db, unsigned x, unsigned y, unsigned sample)
{
    return z_bits(db, x, y, cedar_tile_addr(&db->zmap, x, y, sample, db->slice));
}

bool db_read_depth(const struct db_state *db, unsigned x, unsigned y, unsigned sample, double *z)
{
    if (db->zformat == V_DB_Z_FORMAT__Z_INVALID || !db->zrd || !inside(&db->zmap, x, y) || sample >= db->samples)
        return false;
    *z = depth_decode(db->zformat, db_read_depth_bits(db, x, y, sample));
    return true;
}

bool db_read_stencil(const struct db_state *db, unsigned x, unsigned y, unsigned sample, uint8_t *s)
{
    if (!db->has_stencil || !db->srd || !inside(&db->smap, x, y) || sample >= db->samples)
        return false;
    *s = db->srd[cedar_tile_addr(&db->smap, x, y, sample, db->slice)];
    return true;
}

/* Before the first write to a cleared HTILE tile: its every sample gets the
 * clear value, and the tile is marked expanded. */
static void expand_tile(struct db_state *db, unsigned x, unsigned y)
{
    uint32_t *h = htile_word(db, x, y);
    if (!h || (*h & HTILE_ZMASK))
        return;
    unsigned x0 = x & ~7u, y0 = y & ~7u, stride = sample_stride(&db->zmap);
    for (unsigned j = 0; j < 8; j++)
        for (unsigned i = 0; i < 8; i++) {
            uint64_t off = tile_addr(&db->zmap, &db->ztile, x0 + i, y0 + j, db->slice);
            for (unsigned s = 0; s < db->samples; s++)
                store_z(db, off + (uint64_t)s * stride, db->clear_z_bits);
        }
    *h |= HTILE_ZMASK;
}

/* GL 4.1.5 / 4.1.6: whether compare function `func` passes for a value
 * that is `rel` (V_COMPARE_FUNC__STENCILFUNC_LESS, _EQUAL or _GREATER) the
 * stored one, or 0 when the two are unordered (a NaN Z_32_FLOAT depth:
 * only NOTEQUAL and ALWAYS pass).  The functions' values are the sets of
 * relations they pass: LEQUAL = LESS | EQUAL, NOTEQUAL = LESS | GREATER,
 * ALWAYS all three, NEVER none. */
static inline bool func_passes(unsigned func, unsigned rel)
{
    if (!rel)
        return func == V_COMPARE_FUNC__STENCILFUNC_NOTEQUAL || func == V_COMPARE_FUNC__STENCILFUNC_ALWAYS;
    return (func & rel) != 0;
}

/* UNORM depth and stencil values compare as integers. */
static inline bool compare_u(unsigned func, uint32_t a, uint32_t b)
{
    return func_passes(func, a < b    ? V_COMPARE_FUNC__STENCILFUNC_LESS
                             : a == b ? V_COMPARE_FUNC__STENCILFUNC_EQUAL
                                      : V_COMPARE_FUNC__STENCILFUNC_GREATER);
}

/* Z_32_FLOAT depth compares as the floats it holds. */
static inline bool compare_f(unsigned func, float a, float b)
{
    return func_passes(func, a < b    ? V_COMPARE_FUNC__STENCILFUNC_LESS
                             : a == b ? V_COMPARE_FUNC__STENCILFUNC_EQUAL
                             : a > b  ? V_COMPARE_FUNC__STENCILFUNC_GREATER
                                      : 0);
}

static uint8_t stencil_op(unsigned op, uint8_t old, uint8_t ref)
{
    switch (op) {
    case V_STENCIL_OP__STENCIL_ZERO: return 0;
    case V_STENCIL_OP__STENCIL_REPLACE: return ref;
    case V_STENCIL_OP__STENCIL_INCR: return old == 0xFF ? old : (uint8_t)(old + 1);
    case V_STENCIL_OP__STENCIL_DECR: return old == 0 ? old : (uint8_t)(old - 1);
    case V_STENCIL_OP__STENCIL_INVERT: return (uint8_t)~old;
    case V_STENCIL_OP__STENCIL_INCR_WRAP: return (uint8_t)(old + 1);
    case V_STENCIL_OP__STENCIL_DECR_WRAP: return (uint8_t)(old - 1);
    default: return old; /* KEEP */
    }
}

/* The depth value zv (window z after the clamp) as format zformat stores
 * it: db_depth_encode, with the UNORM scale zscale (2^n - 1) given. */
static inline uint32_t encode_z_scaled(unsigned zformat, double zscale, double zv)
{
    if (zformat == V_DB_Z_FORMAT__Z_32_FLOAT) {
        float f = (float)zv;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    if (!(zv > 0.0))
        return 0; /* also NaN */
    if (zv >= 1.0)
        return (uint32_t)zscale;
    return (uint32_t)(zv * zscale + 0.5); /* positive: truncation is floor */
}

static inline uint32_t encode_z(const struct db_state *db, double zv)
{
    return encode_z_scaled(db->zformat, db->zscale, zv);
}

/* Whether depth znew passes depth function zfunc against the stored zold
 * (bits of format zformat). */
static inline bool z_passes_func(unsigned zfunc, unsigned zformat, uint32_t znew, uint32_t zold)
{
    if (zformat != V_DB_Z_FORMAT__Z_32_FLOAT)
        return compare_u(zfunc, znew, zold);
    float a, b;
    memcpy(&a, &znew, 4);
    memcpy(&b, &zold, 4);
    return compare_f(zfunc, a, b);
}

static inline bool z_passes(const struct db_state *db, uint32_t znew, uint32_t zold)
{
    return z_passes_func(db->zfunc, db->zformat, znew, zold);
}

/* The window z zv clamped to [zmin, zmax] when clamp is on. */
static inline double clamp_range(bool clamp, double zmin, double zmax, double zv)
{
    return clamp ? (zv < zmin ? zmin : zv > zmax ? zmax : zv) : zv;
}

/* clamp_range with the viewport's range (PA_SC_VPORT_ZMIN_0 / ZMAX_0). */
static inline double clamp_z(const struct db_state *db, double zv)
{
    return clamp_range(db->clamp, db->zmin, db->zmax, zv);
}

/* What the samples of one pixel share: the state of its face, the
 * stencil reference, and where its sample 0 lies in the two surfaces. */
struct db_face {
    bool stest, ztest, zstore;    /* stencil test, depth test, depth written or cleared */
    unsigned sfunc, sfail, szpass, szfail;
    uint8_t ref, sref_m, smask, swmask;
};

struct db_pixel {
    bool zs, ss;                  /* inside the depth / stencil surface */
    bool zcleared;                /* its HTILE tile reads as cleared */
    uint64_t zoff;                /* depth bytes of sample 0 */
    const uint8_t *zr, *sr;
    uint8_t *sw;
};

static void face_init(const struct db_state *db, struct db_face *fc, bool zs, bool ss, bool front,
                      const uint8_t *sref)
{
    unsigned f = !front && db->backface ? 1 : 0;
    /* the pixel shader's stencil export replaces the reference (both faces) */
    fc->ref = sref ? *sref : db->sref[f];
    fc->stest = db->s_on && ss;
    fc->ztest = db->z_on && zs;
    fc->zstore = zs && (db->z_write || db->z_clear);
    fc->sfunc = db->sfunc[f];
    fc->sfail = db->sfail[f];
    fc->szpass = db->szpass[f];
    fc->szfail = db->szfail[f];
    fc->smask = db->smask[f];
    fc->swmask = db->swmask[f];
    fc->sref_m = (uint8_t)(fc->ref & fc->smask);
}

/* A pixel at the depth surface's byte zoff and the stencil's soff (sample
 * 0; ignored for a surface it is not inside, whose pointers may be NULL:
 * no arithmetic on those). */
static inline void pixel_at(const struct db_state *db, struct db_pixel *p, uint64_t zoff, uint64_t soff)
{
    p->zoff = zoff;
    p->zr = db->zrd ? db->zrd + zoff : NULL;
    p->sr = db->srd ? db->srd + soff : NULL;
    p->sw = db->swr ? db->swr + soff : NULL;
}

/* Whether the HTILE tile of (x, y), inside the depth surface, reads as
 * cleared (DB_DEPTH_CLEAR for every sample). */
static bool tile_cleared(const struct db_state *db, unsigned x, unsigned y)
{
    const uint32_t *h = htile_word(db, x, y);
    return h && !(*h & HTILE_ZMASK);
}

/* The stencil and depth tests of the samples `coverage` of a pixel, their
 * writes and operations, the pass count (GL 4.1.5, 4.1.6); the samples that
 * passed. */
static inline __attribute__((always_inline)) uint32_t pixel_samples(struct db_state *db, const struct db_face *fc, const struct db_pixel *p,
                                     uint32_t coverage, const float *z)
{
    uint32_t passed = 0;
    unsigned npass = 0;
    unsigned n = db->samples < RS_MAX_SAMPLES ? db->samples : RS_MAX_SAMPLES;
    uint32_t todo = coverage & ((1u << n) - 1u);
    while (todo) {
        unsigned s = (unsigned)__builtin_ctz(todo);
        todo &= todo - 1u;
        unsigned zo = s * db->zstride, so = s * db->sstride;
        uint8_t sold = p->ss ? p->sr[so] : 0;
        uint8_t snew = sold;
        bool pass = true;
        if (fc->stest && !compare_u(fc->sfunc, fc->sref_m, (uint32_t)(sold & fc->smask))) {
            snew = stencil_op(fc->sfail, sold, fc->ref);
            pass = false;
        }
        uint32_t znew = 0;
        if (fc->ztest || db->z_clear) {
            double zv = z[s];
            znew = encode_z(db, db->z_clear ? db->clear_z : clamp_z(db, zv));
        }
        if (pass && fc->ztest) {
            uint32_t zold = p->zcleared ? db->clear_z_bits : z_at(db, p->zr + zo);
            bool zp = z_passes(db, znew, zold);
            if (fc->stest)
                snew = stencil_op(zp ? fc->szpass : fc->szfail, sold, fc->ref);
            pass = zp;
        } else if (pass && fc->stest) {
            snew = stencil_op(fc->szpass, sold, fc->ref);
        }
        if (fc->stest)
            p->sw[so] = (uint8_t)((sold & ~fc->swmask) | (snew & fc->swmask));
        if (db->s_clear && p->ss)
            p->sw[so] = db->clear_s;
        if (fc->zstore && ((pass && db->z_write) || db->z_clear))
            store_z(db, p->zoff + zo, znew);
        if (pass) {
            passed |= 1u << s;
            npass++;
        }
    }
    if (db->count)
        db->zpass += npass;
    return passed;
}

/* Per pixel: the HTILE state, the two surfaces' addresses of sample 0 and
 * the state of the pixel's face are found once; per sample only what
 * differs (the depth, the bytes at s times the sample stride). */
uint32_t db_fragment(struct db_state *db, unsigned x, unsigned y, uint32_t coverage, const float *z,
                     const uint8_t *sref, bool front)
{
    if (!db->active || !coverage)
        return coverage;
    struct db_pixel p = {0};
    p.zs = db->zformat != V_DB_Z_FORMAT__Z_INVALID && inside(&db->zmap, x, y);
    p.ss = db->has_stencil && inside(&db->smap, x, y);
    if (p.zs && db->z_expand)
        expand_tile(db, x, y);
    struct db_face fc;
    face_init(db, &fc, p.zs, p.ss, front, sref);
    /* the sample's depth bytes, read and written at one offset */
    bool ztouch = p.zs && db->z_touch;
    uint64_t zoff = ztouch ? tile_addr(&db->zmap, &db->ztile, x, y, db->slice) : 0;
    uint64_t soff = p.ss ? tile_addr(&db->smap, &db->stile, x, y, db->slice) : 0;
    pixel_at(db, &p, zoff, soff);
    p.zcleared = ztouch && tile_cleared(db, x, y);
    return pixel_samples(db, &fc, &p, coverage, z);
}

/* Ask the CPU for the lines of one surface's micro tile (x0, y0) (its runs). */
static void prefetch_tile(const struct cedar_tile_map *m, struct db_tile_runs *c, const uint8_t *base, unsigned x0,
                          unsigned y0, unsigned slice)
{
    (void)tile_addr(m, c, x0, y0, slice); /* keeps the tile's runs */
    unsigned lines = 0;
    for (unsigned k = 0; k < c->n && lines < DB_PREFETCH_LINES; k++)
        for (unsigned b = 0; b < m->run_bytes && lines < DB_PREFETCH_LINES; b += 64, lines++)
            __builtin_prefetch(base + c->run[k] + b, 1);
}

void db_keep_addresses(struct db_state *db, struct vc_render *r)
{
    _Static_assert(DB_TILE_RUNS_MAX == ADDR_DEPTH_RUNS_MAX, "a kept tile's runs are what tile_addr asks for");
    if (db->slice != 0)
        return;     /* the tables hold slice 0's runs */
    if (db->zformat != V_DB_Z_FORMAT__Z_INVALID && db->zrd)
        db->ztile.tab = db->zahead.tab = render_depth_table(r, &db->zmap);
    if (db->has_stencil && db->srd)
        db->stile.tab = db->sahead.tab = render_depth_table(r, &db->smap);
}

void db_prefetch(struct db_state *db, unsigned x0, unsigned y0)
{
    if (!db->active)
        return;
    if (db->z_touch && inside(&db->zmap, x0 + 7, y0 + 7)) {
        prefetch_tile(&db->zmap, &db->zahead, db->zwr, x0, y0, db->slice);
        if (db->htile)
            __builtin_prefetch(htile_word(db, x0, y0), 1);
    }
    if (db->has_stencil && inside(&db->smap, x0 + 7, y0 + 7))
        prefetch_tile(&db->smap, &db->sahead, db->swr, x0, y0, db->slice);
}

/* The tables of face f (struct db_stencil_lut) for the registers'
 * reference. */
static const struct db_stencil_lut *stencil_lut(struct db_state *db, unsigned f)
{
    struct db_stencil_lut *t = &db->slut[f];
    if (t->built)
        return t;
    const unsigned op[DB_STENCIL_OUTCOMES] = {[DB_STENCIL_SFAIL] = db->sfail[f],
                                              [DB_STENCIL_ZFAIL] = db->szfail[f],
                                              [DB_STENCIL_ZPASS] = db->szpass[f]};
    uint8_t ref = db->sref[f], mask = db->smask[f], wmask = db->swmask[f];
    for (unsigned v = 0; v < 256; v++) {
        t->pass[v] = compare_u(db->sfunc[f], (uint32_t)(ref & mask), v & mask);
        for (unsigned k = 0; k < DB_STENCIL_OUTCOMES; k++) {
            uint8_t n = stencil_op(op[k], (uint8_t)v, ref);
            t->after[k][v] = (uint8_t)((v & ~(unsigned)wmask) | (n & wmask));
        }
        t->inert[v] = !t->pass[v] && t->after[DB_STENCIL_SFAIL][v] == v;
    }
    t->built = true;
    return t;
}

/* Which of the two surfaces the micro tile touches (db_block) and whether
 * their maps keep runs for it. */
struct block_addr {
    bool ztouch, sin, zruns, sruns;
};

/* Where the micro tile's pixels lie in one surface, in locals (db_block):
 * sample 0 of pixel l ((y & 7) * 8 + (x & 7)) at its kept run's byte
 * (run_offset), or through tile_addr when the map keeps no runs. */
struct block_surf {
    bool runs;
    const uint8_t *pix;           /* the map's pix_index */
    const uint64_t *run;
    unsigned nrun;                /* runs kept */
    unsigned step, shift, mask;   /* bytes per pixel index; the run size as shift and mask */
};

static void block_surf_init(struct block_surf *b, const struct cedar_tile_map *m, const struct db_tile_runs *c,
                            bool runs)
{
    *b = (struct block_surf){.runs = runs, .pix = m->pix_index, .run = c->run, .nrun = runs ? c->n : 0,
                             .step = m->pixel_step * m->bpe, .shift = c->run_shift, .mask = c->run_mask};
}

static inline __attribute__((always_inline)) uint64_t
block_off(struct db_state *db, const struct block_surf *b, bool stencil, unsigned x0, unsigned y0, unsigned l)
{
    if (b->runs) {
        uint32_t e = b->pix[l] * b->step;
        return b->run[e >> b->shift] + (e & b->mask);
    }
    return stencil ? tile_addr(&db->smap, &db->stile, x0 + (l & 7), y0 + (l >> 3), db->slice)
                   : tile_addr(&db->zmap, &db->ztile, x0 + (l & 7), y0 + (l >> 3), db->slice);
}

/* Whether the stencil bytes of a fully covered micro tile (every sample of
 * every pixel: its elements 0 .. 64 nsamp - 1, cedar_tile_element_offset,
 * run after run) all hold one value, *v. */
static bool tile_stencil_uniform(const uint8_t *sr, const struct block_surf *sb, unsigned nsamp, uint8_t *v)
{
    const unsigned bytes = 64 * nsamp, run_bytes = sb->mask + 1u;
    const uint8_t first = sr[sb->run[0]];
    const uint64_t pattern = 0x0101010101010101ull * first;
    for (unsigned e = 0; e < bytes; e += run_bytes) {
        const uint8_t *r = sr + sb->run[e >> sb->shift];
        unsigned len = bytes - e < run_bytes ? bytes - e : run_bytes, i = 0;
        for (; i + 8 <= len; i += 8) {
            uint64_t w;
            memcpy(&w, r + i, 8);
            if (w != pattern)
                return false;
        }
        for (; i < len; i++)
            if (r[i] != first)
                return false;
    }
    *v = first;
    return true;
}

/* Whether every covered sample of the micro tile stores a stencil value v
 * with lut->inert[v]. */
static bool block_inert(struct db_state *db, const struct db_stencil_lut *lut, const struct block_surf *sb,
                        unsigned x0, unsigned y0, const uint32_t cov[64], unsigned nsamp)
{
    const uint8_t *sr = db->srd;
    const uint32_t full = (1u << nsamp) - 1u;
    for (unsigned l = 0; l < 64; l++) {
        uint32_t todo = cov[l] & full;
        if (!todo)
            continue;
        uint64_t so = block_off(db, sb, true, x0, y0, l);
        while (todo) {
            unsigned s = (unsigned)__builtin_ctz(todo);
            todo &= todo - 1u;
            if (!lut->inert[sr[so + s * db->sstride]])
                return false;
        }
    }
    return true;
}

/* pixel_samples over the micro tile's covered pixels (no exported stencil
 * reference), with depth format zformat and nsamp samples (constants where
 * it is inlined): the stencil by table (struct db_stencil_lut), a sample's
 * depth computed and read only when its stencil test passed or a depth
 * clear stores it (pixel_samples uses it only then), the draw's state in
 * locals.  The same reads and writes in the same order (pixel by pixel,
 * sample by sample; of two writes to a stencil byte only the last, which
 * nothing reads in between), the pass count added once.  zconst: every
 * sample's depth is zc's bits (a depth clear's value, or a flat plane's:
 * zplane_flat). */
static inline __attribute__((always_inline)) void
block_tile(struct db_state *db, const struct db_face *fc, const struct db_stencil_lut *lut, const struct block_addr *a,
           const struct db_pixel *p, unsigned x0, unsigned y0, uint32_t cov[64], const struct db_zplane *zp,
           unsigned zformat, unsigned nsamp, bool zconst, uint32_t zc, bool suni, uint8_t sv)
{
    struct block_surf zb, sb;
    block_surf_init(&zb, &db->zmap, &db->ztile, a->zruns);
    block_surf_init(&sb, &db->smap, &db->stile, a->sruns);
    const uint8_t *zr = db->zrd, *sr = db->srd;
    uint8_t *zw = db->zwr, *sw = db->swr;
    const unsigned zst = db->zstride, sst = db->sstride, zfunc = db->zfunc;
    const bool stest = fc->stest, ztest = fc->ztest, zstore = fc->zstore, zcleared = p->zcleared;
    const bool zclear = db->z_clear, sclear = db->s_clear && a->sin, clamp = db->clamp;
    const bool ztouch = a->ztouch, sin = a->sin;
    const double zscale = db->zscale, zmin = db->zmin, zmax = db->zmax;
    const uint32_t zold_cleared = db->clear_z_bits, full = (1u << nsamp) - 1u;
    const uint8_t clear_s = db->clear_s;
    /* suni: every sample stores sv (its test and operations once) */
    const bool pass_v = suni && lut->pass[sv];
    const uint8_t after_v[DB_STENCIL_OUTCOMES] = {
        suni ? lut->after[DB_STENCIL_SFAIL][sv] : 0,
        suni ? lut->after[DB_STENCIL_ZFAIL][sv] : 0,
        suni ? lut->after[DB_STENCIL_ZPASS][sv] : 0,
    };
    unsigned npass = 0;
    for (unsigned l = 0; l < 64; l++) {
        if (!cov[l])
            continue;
        unsigned x = x0 + (l & 7), y = y0 + (l >> 3);
        uint64_t zo0 = ztouch ? block_off(db, &zb, false, x0, y0, l) : 0;
        uint64_t so0 = sin ? block_off(db, &sb, true, x0, y0, l) : 0;
        uint32_t passed = 0, todo = cov[l] & full;
        while (todo) {
            unsigned s = (unsigned)__builtin_ctz(todo);
            todo &= todo - 1u;
            uint64_t zo = zo0 + s * zst, so = so0 + s * sst;
            uint8_t sold = suni ? sv : stest ? sr[so] : 0;
            bool spass = suni ? pass_v : stest && lut->pass[sold];
            unsigned outcome = DB_STENCIL_ZPASS;
            uint32_t znew = 0;
            if (zconst)
                znew = zc;
            else if (ztest && (!stest || spass))
                znew = encode_z_scaled(zformat, zscale, clamp_range(clamp, zmin, zmax, db_zplane_at(zp, x, y, s)));
            if (stest && !spass) {
                outcome = DB_STENCIL_SFAIL;
            } else if (ztest) {
                uint32_t zold = zcleared ? zold_cleared : z_at_fmt(zformat, zr + zo);
                outcome = z_passes_func(zfunc, zformat, znew, zold) ? DB_STENCIL_ZPASS : DB_STENCIL_ZFAIL;
            }
            if (sclear)
                sw[so] = clear_s;
            else if (stest)
                sw[so] = suni ? after_v[outcome] : lut->after[outcome][sold];
            if (zstore && (outcome == DB_STENCIL_ZPASS || zclear))
                store_z_at(zformat, zw + zo, znew);
            if (outcome == DB_STENCIL_ZPASS)
                passed |= 1u << s;
        }
        cov[l] = passed;
        npass += (unsigned)__builtin_popcount(passed);
    }
    if (db->count)
        db->zpass += npass;
}

/* The start of a micro tile's bytes when its kept runs follow each other
 * (elements 0 .. 63 of bpe bytes at base + e bpe), else NULL. */
static uint8_t *tile_contiguous(uint8_t *mem, const struct block_surf *b, unsigned bpe)
{
    const unsigned bytes = 64 * bpe, run_bytes = b->mask + 1u;
    if (!b->nrun)
        return NULL;
    for (unsigned e = run_bytes, k = 1; e < bytes; e += run_bytes, k++)
        if (k >= b->nrun || b->run[k] != b->run[0] + (uint64_t)e)
            return NULL;
    return mem + b->run[0];
}

/* block_tile for one sample per pixel, every pixel covered, one stencil
 * value sv (or no stencil test), one depth zc, the stencil read and
 * written at one place (sb), the depth too (zb; NULL when not touched),
 * the two apart: the tile's depths read and compared first, then its
 * stencil and depth bytes written, in the order of the bytes.  No write
 * changes a byte another pixel reads (each pixel's bytes are its own), so
 * the bytes, the masks and the count are those of block_tile's pixel by
 * pixel order. */
static inline __attribute__((always_inline)) void
block_tile_flat1(struct db_state *db, const struct db_face *fc, const struct db_stencil_lut *lut,
                 const struct db_pixel *p, uint8_t *zb, uint8_t *sb, const uint8_t *pix, uint32_t cov[64],
                 unsigned zformat, uint32_t zc, uint8_t sv)
{
    const unsigned zbpe = zformat == V_DB_Z_FORMAT__Z_16 ? 2 : 4;
    const bool stest = fc->stest, ztest = fc->ztest, zstore = fc->zstore;
    const bool zclear = db->z_clear, sclear = db->s_clear && sb, zcleared = p->zcleared;
    const unsigned zfunc = db->zfunc;
    const uint32_t zold_cleared = db->clear_z_bits;
    bool zpass[64];
    if (stest && !lut->pass[sv]) {
        memset(zpass, 0, sizeof zpass); /* all fail the stencil test */
    } else if (ztest) {
        for (unsigned i = 0; i < 64; i++)
            zpass[i] = z_passes_func(zfunc, zformat, zc, zcleared ? zold_cleared : z_at_fmt(zformat, zb + i * zbpe));
    } else {
        memset(zpass, 1, sizeof zpass);
    }
    const unsigned sfail = stest && !lut->pass[sv];
    if (sclear) {
        memset(sb, db->clear_s, 64);
    } else if (stest) {
        const uint8_t a_pass = lut->after[sfail ? DB_STENCIL_SFAIL : DB_STENCIL_ZPASS][sv];
        const uint8_t a_fail = lut->after[sfail ? DB_STENCIL_SFAIL : DB_STENCIL_ZFAIL][sv];
        for (unsigned i = 0; i < 64; i++)
            sb[i] = zpass[i] ? a_pass : a_fail;
    }
    if (zstore)
        for (unsigned i = 0; i < 64; i++)
            if (zpass[i] || zclear)
                store_z_at(zformat, zb + i * zbpe, zc);
    unsigned npass = 0;
    for (unsigned l = 0; l < 64; l++) {
        cov[l] = zpass[pix[l]];
        npass += zpass[pix[l]];
    }
    if (db->count)
        db->zpass += npass;
}

/* Whether the primitive's window z is one value over the whole micro tile:
 * a plane without slope (zdx and zdy zero, of either sign), a finite z0
 * other than -0 and finite offsets.  Then db_zplane_at's z0 + (+-0) + (+-0)
 * is z0 exactly at every pixel and sample (IEEE: a nonzero z0 plus a zero
 * is z0, +0 plus +-0 is +0), so the tile's depth is computed once. */
static bool zplane_flat(const struct db_zplane *zp, unsigned nsamp)
{
    if (zp->zdx != 0.0 || zp->zdy != 0.0 || !isfinite(zp->z0) || !isfinite(zp->zx0) || !isfinite(zp->zy0) ||
        (zp->z0 == 0.0 && signbit(zp->z0)))
        return false;
    for (unsigned s = 0; s < nsamp; s++)
        if (!isfinite(zp->sdx[s]) || !isfinite(zp->sdy[s]))
            return false;
    return true;
}

/* block_tile with the draw's depth format, for one sample its count, and
 * whether the depth plane is flat as constants. */
static void block_tile_fast(struct db_state *db, const struct db_face *fc, const struct db_stencil_lut *lut,
                            const struct block_addr *a, const struct db_pixel *p, unsigned x0, unsigned y0,
                            uint32_t cov[64], const struct db_zplane *zp)
{
    unsigned n = db->samples < RS_MAX_SAMPLES ? db->samples : RS_MAX_SAMPLES;
    /* a depth clear tests and stores the clear value; a flat plane's one
     * depth as the per-sample path computes it */
    bool flat = db->z_clear || !fc->ztest || zplane_flat(zp, n);
    uint32_t zflat = db->z_clear ? encode_z(db, db->clear_z)
                     : fc->ztest && flat ? encode_z(db, clamp_z(db, db_zplane_at(zp, x0, y0, 0)))
                                         : 0; /* no depth test, no clear: not used */
    /* The stencil bytes once.  These are shortcuts of the model, exactly
     * what block_tile would do sample by sample; not the card's HiS /
     * HiZ, whose early culling is not modelled. */
    bool suni = false, one_place = db->srd == db->swr;
    uint8_t sv = 0;
    uint32_t every = ~0u;
    for (unsigned l = 0; l < 64; l++)
        every &= cov[l];
    bool full_cov = (every & ((1u << n) - 1u)) == (1u << n) - 1u;
    struct block_surf sb;
    block_surf_init(&sb, &db->smap, &db->stile, a->sruns);
    if (fc->stest && a->sruns && full_cov)
        suni = tile_stencil_uniform(db->srd, &sb, n, &sv);
    /* every covered sample would fail the stencil test and store its value
     * again (read and written at one place): none passes, none is counted,
     * no byte changes */
    if (fc->stest && !db->z_clear && !(db->s_clear && a->sin) && one_place &&
        (suni ? lut->inert[sv] : block_inert(db, lut, &sb, x0, y0, cov, n))) {
        for (unsigned l = 0; l < 64; l++)
            cov[l] = 0;
        return;
    }
    /* one stencil value read and written at one place, apart from the depth
     * bytes: no write changes what a later sample reads */
    suni = suni && one_place && db->zs_apart && flat;
    /* one sample, the depth also read and written at one place, both
     * surfaces' pixels in one order and each tile's bytes in one piece:
     * block_tile_flat1 */
    if (suni && n == 1 && db->zs_one_order && (!a->ztouch || (a->zruns && db->zrd == db->zwr))) {
        struct block_surf zs;
        block_surf_init(&zs, &db->zmap, &db->ztile, a->zruns);
        unsigned zbpe = db->zformat == V_DB_Z_FORMAT__Z_16 ? 2 : 4;
        uint8_t *sbase = tile_contiguous(db->swr, &sb, 1);
        uint8_t *zbase = a->ztouch ? tile_contiguous(db->zwr, &zs, zbpe) : NULL;
        if (sbase && (zbase || !a->ztouch)) {
#define DB_FLAT1(fmt) block_tile_flat1(db, fc, lut, p, zbase, sbase, sb.pix, cov, fmt, zflat, sv)
            switch (db->zformat) {
            case V_DB_Z_FORMAT__Z_16: DB_FLAT1(V_DB_Z_FORMAT__Z_16); break;
            case V_DB_Z_FORMAT__Z_24: DB_FLAT1(V_DB_Z_FORMAT__Z_24); break;
            case V_DB_Z_FORMAT__Z_32_FLOAT: DB_FLAT1(V_DB_Z_FORMAT__Z_32_FLOAT); break;
            default: DB_FLAT1(V_DB_Z_FORMAT__Z_INVALID); break;
            }
#undef DB_FLAT1
            return;
        }
    }
#define DB_BLOCK_TILE(fmt)                                                                                            \
    do {                                                                                                              \
        if (suni && n == 1)                                                                                           \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, 1, true, zflat, true, sv);                            \
        else if (suni)                                                                                                \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, n, true, zflat, true, sv);                            \
        else if (flat && n == 1)                                                                                      \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, 1, true, zflat, false, 0);                            \
        else if (flat)                                                                                                \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, n, true, zflat, false, 0);                            \
        else if (n == 1)                                                                                              \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, 1, false, 0, false, 0);                               \
        else                                                                                                          \
            block_tile(db, fc, lut, a, p, x0, y0, cov, zp, fmt, n, false, 0, false, 0);                               \
    } while (0)
    switch (db->zformat) {
    case V_DB_Z_FORMAT__Z_16: DB_BLOCK_TILE(V_DB_Z_FORMAT__Z_16); break;
    case V_DB_Z_FORMAT__Z_24: DB_BLOCK_TILE(V_DB_Z_FORMAT__Z_24); break;
    case V_DB_Z_FORMAT__Z_32_FLOAT: DB_BLOCK_TILE(V_DB_Z_FORMAT__Z_32_FLOAT); break;
    default: DB_BLOCK_TILE(V_DB_Z_FORMAT__Z_INVALID); break;
    }
#undef DB_BLOCK_TILE
}

void db_block(struct db_state *db, unsigned x0, unsigned y0, uint32_t cov[64], const struct db_zplane *zp, bool front)
{
    if (!db->active)
        return;
    unsigned n = db->samples < RS_MAX_SAMPLES ? db->samples : RS_MAX_SAMPLES;
    bool has_z = db->zformat != V_DB_Z_FORMAT__Z_INVALID;
    bool zin = has_z && inside(&db->zmap, x0 + 7, y0 + 7), sin = db->has_stencil && inside(&db->smap, x0 + 7, y0 + 7);
    /* a tile partly outside a surface: pixel by pixel */
    if ((has_z && !zin) || (db->has_stencil && !sin)) {
        for (unsigned l = 0; l < 64; l++) {
            if (!cov[l])
                continue;
            unsigned x = x0 + (l & 7), y = y0 + (l >> 3);
            float z[RS_MAX_SAMPLES];
            for (unsigned s = 0; s < n; s++)
                z[s] = db_zplane_at(zp, x, y, s);
            cov[l] = db_fragment(db, x, y, cov[l], z, NULL, front);
        }
        return;
    }
    uint32_t any = 0;
    for (unsigned l = 0; l < 64; l++)
        any |= cov[l];
    if (!any)
        return;
    /* what db_fragment does at the first covered pixel, once: the HTILE
     * word covers the whole micro tile */
    if (zin && db->z_expand)
        expand_tile(db, x0, y0);
    struct db_face fc;
    face_init(db, &fc, zin, sin, front, NULL);
    bool ztouch = zin && db->z_touch;
    struct db_pixel p = {.zs = zin, .ss = sin, .zcleared = ztouch && tile_cleared(db, x0, y0)};
    /* the tile's runs once */
    if (ztouch)
        (void)tile_addr(&db->zmap, &db->ztile, x0, y0, db->slice);
    if (sin)
        (void)tile_addr(&db->smap, &db->stile, x0, y0, db->slice);
    struct block_addr a = {.ztouch = ztouch, .sin = sin, .zruns = ztouch && db->ztile.n, .sruns = sin && db->stile.n};
    const struct db_stencil_lut *lut = fc.stest ? stencil_lut(db, !front && db->backface ? 1 : 0) : NULL;
    block_tile_fast(db, &fc, lut, &a, &p, x0, y0, cov, zp);
}

void db_copy_pixel(const struct db_state *db, struct cb_target *t, unsigned x, unsigned y, uint32_t coverage)
{
    if (!coverage || x >= t->width || y >= t->height)
        return;
    unsigned src = db->copy_sample;
    if (db->copy_centroid)
        for (src = 0; !((coverage >> src) & 1u); src++)
            ;
    if (src >= db->samples)
        src = 0;
    double zf = 0.0;
    uint8_t st = 0;
    bool cz = db->copy_z && db_read_depth(db, x, y, src, &zf);
    bool cs = db->copy_s && db_read_stencil(db, x, y, src, &st);
    uint32_t zbits = cz ? db_read_depth_bits(db, x, y, src) : 0;
    if (t->fmask_on)
        cb_pixel_decompress(t, x, y); /* sample s in plane s from here on */
    for (unsigned s = 0; s < t->samples; s++) {
        if (!((coverage >> s) & 1u))
            continue;
        uint8_t *p = cb_plane_ptr(t, x, y, s);
        uint32_t w0;
        switch (t->bpe) {
        case 2:
            if (cz) {
                p[0] = (uint8_t)zbits;
                p[1] = (uint8_t)(zbits >> 8);
            }
            break;
        case 4:
            memcpy(&w0, p, 4);
            if (cz)
                w0 = db->zformat == V_DB_Z_FORMAT__Z_32_FLOAT ? zbits : (w0 & 0xFF000000u) | (zbits & 0xFFFFFFu);
            if (cs)
                w0 = (w0 & 0xFFFFFFu) | (uint32_t)st << 24;
            memcpy(p, &w0, 4);
            break;
        case 8:
            if (cz)
                memcpy(p, &zbits, 4);
            if (cs)
                p[4] = st;
            break;
        default:
            break;
        }
    }
}
