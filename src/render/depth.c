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
    db->ztile.mx = db->stile.mx = -1;
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
    if (have_z) /* the clear value, also of tiles HTILE marks cleared */
        db->clear_z = reg_f(regs, REG_DB_DEPTH_CLEAR);
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

/* Sample s of pixel (x, y) of map m through the kept runs of its micro tile. */
static uint64_t tile_addr(const struct cedar_tile_map *m, struct db_tile_runs *c, unsigned x, unsigned y,
                          unsigned s, unsigned slice)
{
    int mx = (int)(x >> 3), my = (int)(y >> 3);
    if (c->mx != mx || c->my != my) {
        c->n = cedar_tile_micro_runs(m, (unsigned)mx, (unsigned)my, slice, c->run, DB_TILE_RUNS_MAX);
        c->mx = mx;
        c->my = my;
    }
    if (!c->n)
        return cedar_tile_addr(m, x, y, s, slice);
    uint32_t e = cedar_tile_element_offset(m, x, y, s);
    return c->run[e / m->run_bytes] + e % m->run_bytes;
}

static uint32_t z_at(const struct db_state *db, const uint8_t *p)
{
    if (db->zformat == V_DB_Z_FORMAT__Z_16)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    /* Z_24 keeps its depth in bits 23:0 (Mesa samples it as FMT_8_24) */
    return db->zformat == V_DB_Z_FORMAT__Z_24 ? v & 0xFFFFFFu : v;
}

/* The depth bits v at byte off of the depth surface. */
static void store_z(struct db_state *db, uint64_t off, uint32_t v)
{
    uint8_t *p = db->zwr + off;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    if (db->zformat != V_DB_Z_FORMAT__Z_16) {
        p[2] = (uint8_t)(v >> 16);
        p[3] = (uint8_t)(v >> 24);
    }
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
    uint32_t v = db_depth_encode(db->zformat, db->clear_z);
    unsigned x0 = x & ~7u, y0 = y & ~7u;
    for (unsigned j = 0; j < 8; j++)
        for (unsigned i = 0; i < 8; i++)
            for (unsigned s = 0; s < db->samples; s++)
                store_z(db, tile_addr(&db->zmap, &db->ztile, x0 + i, y0 + j, s, db->slice), v);
    *h |= HTILE_ZMASK;
}

static bool compare(unsigned func, double a, double b)
{
    switch (func) {
    case V_COMPARE_FUNC__STENCILFUNC_NEVER: return false;
    case V_COMPARE_FUNC__STENCILFUNC_LESS: return a < b;
    case V_COMPARE_FUNC__STENCILFUNC_EQUAL: return a == b;
    case V_COMPARE_FUNC__STENCILFUNC_LEQUAL: return a <= b;
    case V_COMPARE_FUNC__STENCILFUNC_GREATER: return a > b;
    case V_COMPARE_FUNC__STENCILFUNC_NOTEQUAL: return a != b;
    case V_COMPARE_FUNC__STENCILFUNC_GEQUAL: return a >= b;
    default: return true;
    }
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

uint32_t db_fragment(struct db_state *db, unsigned x, unsigned y, uint32_t coverage, const float *z,
                     const uint8_t *sref, bool front)
{
    if (!db->active || !coverage)
        return coverage;
    bool zs = db->zformat != V_DB_Z_FORMAT__Z_INVALID && inside(&db->zmap, x, y);
    bool ss = db->has_stencil && inside(&db->smap, x, y);
    if (zs && (db->z_write || db->z_clear || db->expand_only))
        expand_tile(db, x, y);
    unsigned f = !front && db->backface ? 1 : 0;
    /* the pixel shader's stencil export replaces the reference (both faces) */
    uint8_t ref = sref ? *sref : db->sref[f];
    uint32_t passed = 0;
    for (unsigned s = 0; s < db->samples && s < RS_MAX_SAMPLES; s++) {
        if (!((coverage >> s) & 1u))
            continue;
        double zv = z[s];
        if (db->clamp && !db->z_clear)
            zv = zv < db->zmin ? db->zmin : zv > db->zmax ? db->zmax : zv;
        if (db->z_clear)
            zv = db->clear_z;
        uint64_t soff = ss ? tile_addr(&db->smap, &db->stile, x, y, s, db->slice) : 0;
        uint8_t *sp = ss ? db->swr + soff : NULL;
        uint8_t sold = ss ? db->srd[soff] : 0;
        uint8_t snew = sold;
        /* the sample's depth bytes, read and written at one offset */
        bool ztouch = zs && (db->z_on || db->z_write || db->z_clear);
        uint64_t zoff = ztouch ? tile_addr(&db->zmap, &db->ztile, x, y, s, db->slice) : 0;
        bool pass = true;
        if (db->s_on && ss) {
            if (!compare(db->sfunc[f], ref & db->smask[f], sold & db->smask[f])) {
                snew = stencil_op(db->sfail[f], sold, ref);
                pass = false;
            }
        }
        uint32_t znew = 0;
        if (pass && db->z_on && zs) {
            znew = db_depth_encode(db->zformat, zv);
            uint32_t zold = z_bits(db, x, y, zoff);
            bool zp = db->zformat == V_DB_Z_FORMAT__Z_32_FLOAT
                          ? compare(db->zfunc, depth_decode(db->zformat, znew), depth_decode(db->zformat, zold))
                          : compare(db->zfunc, (double)znew, (double)zold);
            if (db->s_on && ss)
                snew = stencil_op(zp ? db->szpass[f] : db->szfail[f], sold, ref);
            pass = zp;
        } else if (pass && db->s_on && ss) {
            snew = stencil_op(db->szpass[f], sold, ref);
        }
        if (db->s_on && ss)
            *sp = (uint8_t)((sold & ~db->swmask[f]) | (snew & db->swmask[f]));
        if (db->s_clear && ss)
            *sp = db->clear_s;
        if (zs && ((pass && db->z_write) || db->z_clear))
            store_z(db, zoff, db->z_clear ? db_depth_encode(db->zformat, zv) : znew);
        if (pass) {
            passed |= 1u << s;
            if (db->count)
                db->zpass++;
        }
    }
    return passed;
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
