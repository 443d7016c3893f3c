/* The renderer's entry point: one DRAW, in whichever mode CB_COLOR_CONTROL
 * selects.  CB_NORMAL runs the whole pipeline (vertex stage, clipping,
 * set-up, scan conversion, pixel stage, colour block); CB_RESOLVE,
 * CB_ELIMINATE_FAST_CLEAR, CB_FMASK_DECOMPRESS and CB_DECOMPRESS rasterise the draw's
 * primitives (a rectangle, as Mesa's blitter draws them) and apply the CB
 * operation to each covered pixel without running the pixel stage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cedar/shader.h"
#include "clip_line.h"
#include "depth.h"
#include "gs.h"
#include "tess.h"
#include "interp.h"
#include "render_priv.h"
#include "workers.h"

#define VERTEX_CACHE 256       /* vertex-shader results by invocation (> the reuse depth) */
#define CLIP_MAX_PLANES 14     /* 8 clip distances and 6 user clip planes */
#define CLIP_MAX_VERTS 24      /* a triangle clipped by up to 7 + 14 planes */

/* Cedar's memory facts (the kernel's RADEON_INFO_TILING_CONFIG: 2 pipes,
 * 8 banks, 256-byte interleave, 1 KB rows); banks come from each surface's
 * CB_COLOR*_ATTRIB.NUM_BANKS. */
static const struct cedar_tiling cedar_default_tiling = {2, 8, 256, 1024};

struct cache_entry {
    bool valid;
    uint64_t invocation;       /* the reuse model's number of the shader run */
    struct vc_vertex_out out;
};

/* A vertex of a (possibly clipped) primitive: clip position and its weights
 * over the original primitive's vertices. */
struct clip_vertex {
    float pos[4];
    double w[3];
    float dist[CLIP_MAX_PLANES];   /* the draw's clip planes' distances (draw_ctx.plane) */
};

/* A clip plane besides the frustum's: a clip distance the vertex shader
 * exports (POS export `slot`, component `comp`), or a user clip plane
 * (slot 0: the coefficients ucp against the clip-space position). */
struct clip_plane_src {
    unsigned slot, comp;
    float ucp[4];
};

struct draw_ctx {
    struct vc_render *r;
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct vc_draw_err *err;
    unsigned mode;
    struct rs_state rs;
    struct spi_link spi;
    struct cb_target cb[RS_NUM_CB];
    bool cb_on[RS_NUM_CB];
    float blend_const[4];
    struct cb_alpha_mask a2m;  /* DB_ALPHA_TO_MASK */
    struct db_state db;        /* depth.c; db.zpass counts this thread's passes */
    bool shading;              /* the pixel stage runs (CB_NORMAL, or CB_DISABLE with a Z export / kill) */
    /* window z of the sub-triangle being rasterised, and the samples'
     * offsets (z_plane) */
    struct db_zplane zp;
    uint32_t clip_cntl;
    float gb_x, gb_y;
    struct clip_plane_src plane[CLIP_MAX_PLANES];
    unsigned nplanes;
    struct cache_entry *cache;
    /* the primitive being rasterised */
    struct vc_prim_inputs prim;
    double m[3][3];            /* sub-triangle vertex k -> original weights (clip space) */
    double ms[3][3];           /* the same in screen space (sub_weights_set) */
    bool ms_set;               /* ms holds sub_weights_set's result for ms_m and ms_inv_w */
    double ms_m[3][3];
    float ms_inv_w[3];
    bool m_identity;
    float sub_inv_w[3];
    float prim_inv_w[3];
    bool quads;                /* the pixel stage runs 2x2 quads (render_shade_quad) */
    bool ps_heavy;             /* its program loops or fetches many texels (render_shade_heavy) */
    bool pos_zw;               /* the pixel stage reads the position's z and w */
    bool blocks;               /* block_path: whole 8x8 blocks go to on_block */
    bool point_set;            /* point_h holds PA_SU_POINT_SIZE's half sizes (read at the first point) */
    int64_t point_h[2];        /* on raster.c's grid: x, y */
    /* pixels waiting for the batched pixel stage (render_shade_pixels) */
    bool batched;
    struct shade_lanes *lanes;     /* this thread's pixel stage for many pixels */
    struct eg_ps_batch *batch;     /* its batch (the batched stage), or NULL (waves) */
    uint32_t baryc_needed;         /* bit per enum vc_baryc */
    struct vc_render_stats stats;  /* pixels and samples of this thread, merged per draw */
    /* extra threads sharing the rasterisation (raster_sub) */
    unsigned nthreads;
    bool threads_set_up;           /* setup_threads ran (at the first large primitive) */
    struct worker *workers;
    unsigned rows_claimed;         /* the threads' shared rs_state.row_next */
    const struct rs_vertex *pair;  /* CB_RESOLVE quad: the second half (rs_pair) */
    unsigned npending;
    /* early Z (shade_block): the block's depth and stencil results, found
     * before its pixel stage ran, for the write to take (db_done) */
    bool db_done;
    uint32_t db_cov[64];
    bool batch_ran;            /* a run of the batched pixel stage succeeded in this draw */
    bool pending_block;        /* pending[] is shade_block's: one micro tile, row by row, all covered */
    bool pending_weighted;     /* shade_block set pending[]'s weights already */
    struct vc_pixel_in pending[EG_PS_BATCH_MAX];
    double pending_ij[EG_PS_BATCH_MAX][3][2];   /* centre, centroid, sample: weights computed at the flush */
    /* Pixels carried across primitives (carry: waves, whose lanes each take
     * their own primitive's inputs, and writes that read nothing of the
     * primitive: no depth, stencil or alpha to mask).  pending[0 ..
     * nsealed - 1] are earlier primitives', their weights computed
     * (seal_pending), pixel l's inputs slot[pending_slot[l]]; the current
     * primitive's follow with d->prim.  A pixel already carried comes again
     * only after a flush (sealed_bits: a bit per pixel hash, then a look). */
    bool carry;
    unsigned nsealed, nslots;
    unsigned prim_serial, slot_serial;  /* d->prim's count (draw_prim), the last slot's */
    uint64_t sealed_bits;
    struct vc_prim_inputs *slot;        /* EG_PS_BATCH_MAX (vc_render.carry_kept) */
    uint8_t pending_slot[EG_PS_BATCH_MAX];
    struct vc_pixel_out shaded[EG_PS_BATCH_MAX];
    /* quads waiting for the pixel stage (quads): in pending[4q ..], out in shaded[] */
    unsigned nquads;
    uint32_t quad_helpers[EG_PS_BATCH_MAX / 4];
};

struct vc_render *vc_render_new(void)
{
    struct vc_render *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->tiling = cedar_default_tiling;
    vc_render_set_shaders(r, NULL);
    return r;
}

void vc_render_free(struct vc_render *r)
{
    if (!r)
        return;
    render_workers_free(r->workers);
    render_shade_free(r);
    render_addr_tables_free(r);
    free(r->draw_kept);
    free(r->cache_kept);
    free(r->carry_kept);
    free(r);
}

void vc_render_set_shaders(struct vc_render *r, const struct vc_shader_ops *ops)
{
    if (ops)
        r->shaders = *ops;
    else if (render_default_shaders(r, &r->shaders))
        memset(&r->shaders, 0, sizeof r->shaders);
}

void vc_render_set_threads(struct vc_render *r, unsigned n)
{
    r->threads = n;
}

void vc_render_set_block_path(struct vc_render *r, bool on)
{
    r->block_path_off = !on;
}

void vc_render_get_stats(const struct vc_render *r, struct vc_render_stats *out)
{
    *out = r->stats;
}

static float reg_float(const struct vc_regs *regs, uint32_t off)
{
    uint32_t u = vc_reg(regs, off);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- vertices ----------------------------------------------------------------- */

/* The result of the shader invocation `inv` for vertex `index`: run when the
 * model's invocation is not kept (a vertex reused far back, e.g. a fan's
 * first one, runs again here; the counters count the model's runs). */
static const struct vc_vertex_out *vertex(struct draw_ctx *d, uint32_t index, uint64_t inv, uint32_t instance)
{
    struct cache_entry *e = &d->cache[inv % VERTEX_CACHE];
    if (e->valid && e->invocation == inv)
        return &e->out;
    memset(&e->out, 0, sizeof e->out);
    e->valid = false;
    if (d->r->shaders.vertex(d->r->shaders.ctx, d->regs, d->mem, index, instance, &e->out, d->err))
        return NULL;
    d->r->stats.vertices++;
    e->valid = true;
    e->invocation = inv;
    return &e->out;
}

/* The vertices of the primitives about to come (vgt_run_batched): those
 * whose invocation is not kept run together (shaders.vertices), each into
 * its cache entry, up to a wave at a time; whatever did not run, vertex runs
 * when its primitive comes. */
static void run_vertices(struct draw_ctx *d, struct cache_entry *const *e, const uint32_t *idx, const uint64_t *inv,
                         unsigned n, uint32_t instance)
{
    struct vc_vertex_out *out[EG_WAVE_MAX] = {0};
    for (unsigned l = 0; l < n; l++) {
        e[l]->valid = false;
        out[l] = &e[l]->out;
    }
    if (d->r->shaders.vertices(d->r->shaders.ctx, idx, n, instance, out))
        return;
    for (unsigned l = 0; l < n; l++) {
        e[l]->valid = true;
        e[l]->invocation = inv[l];
    }
    d->r->stats.vertices += n;
}

static void on_vertices(void *ctx, const uint32_t *idx, const uint64_t *inv, unsigned n, uint32_t instance)
{
    struct draw_ctx *d = ctx;
    uint64_t claimed[VERTEX_CACHE / 64] = {0};
    struct cache_entry *e[EG_WAVE_MAX];
    uint32_t bi[EG_WAVE_MAX];
    uint64_t binv[EG_WAVE_MAX];
    unsigned m = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned slot = (unsigned)(inv[k] % VERTEX_CACHE);
        struct cache_entry *c = &d->cache[slot];
        if ((claimed[slot / 64] >> (slot % 64) & 1u) || (c->valid && c->invocation == inv[k]))
            continue;   /* a repeat, or kept */
        claimed[slot / 64] |= 1ull << (slot % 64);
        e[m] = c;
        bi[m] = idx[k];
        binv[m++] = inv[k];
        if (m == EG_WAVE_MAX) {
            run_vertices(d, e, bi, binv, m, instance);
            m = 0;
        }
    }
    if (m)
        run_vertices(d, e, bi, binv, m, instance);
}

/* ---- pixels ------------------------------------------------------------------- */

static void to_original(const struct draw_ctx *d, const double sub[3], double orig[3])
{
    if (d->m_identity) {
        orig[0] = sub[0];
        orig[1] = sub[1];
        orig[2] = sub[2];
        return;
    }
    for (int c = 0; c < 3; c++)
        orig[c] = sub[0] * d->m[0][c] + sub[1] * d->m[1][c] + sub[2] * d->m[2][c];
}

/* The same bits as the last sub_weights_set's m and 1/w (what memcmp would
 * say, without a library call per sub-triangle). */
static inline bool ms_kept(const struct draw_ctx *d)
{
    uint64_t diff = 0;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) {
            uint64_t u, v;
            memcpy(&u, &d->ms_m[c][k], sizeof u);
            memcpy(&v, &d->m[c][k], sizeof v);
            diff |= u ^ v;
        }
    for (int k = 0; k < 3; k++) {
        uint32_t u, v;
        memcpy(&u, &d->ms_inv_w[k], sizeof u);
        memcpy(&v, &d->prim_inv_w[k], sizeof v);
        diff |= u ^ v;
    }
    return diff == 0;
}

/* After m: the screen-space weights of the original primitive at each
 * sub-triangle vertex, ms.  A clipped vertex's m are clip-space weights
 * b_k (the clipper interpolates in clip space); on the screen its weights
 * are b_k w_k normalized (its window position is sum(b_k (x_k, y_k)) /
 * sum(b_k w_k)); the noperspective inputs are linear in those. */
static void sub_weights_set(struct draw_ctx *d)
{
    /* the same m and 1/w as the last time (a point's two halves, the points
     * after it at the same w): the same ms */
    if (d->ms_set && ms_kept(d))
        return;
    memcpy(d->ms_m, d->m, sizeof d->m);
    memcpy(d->ms_inv_w, d->prim_inv_w, sizeof d->prim_inv_w);
    d->ms_set = true;
    for (int c = 0; c < 3; c++) {
        double s[3], sum = 0.0;
        for (int k = 0; k < 3; k++) {
            s[k] = d->m[c][k] / d->prim_inv_w[k];
            sum += s[k];
        }
        for (int k = 0; k < 3; k++)
            d->ms[c][k] = sum != 0.0 && isfinite(sum) ? s[k] / sum : d->m[c][k];
    }
}

/* Screen-space weights of the sub-triangle at a point -> the perspective and
 * linear (i, j) of the original primitive. */
static void weights_at(const struct draw_ctx *d, const double ij[2], float persp[2], float linear[2])
{
    double sub[3] = {1.0 - ij[0] - ij[1], ij[0], ij[1]};
    double lin[3];
    if (d->m_identity) {
        to_original(d, sub, lin);
        spi_weights(&d->spi, lin, d->prim_inv_w, persp, linear);
        return;
    }
    /* vertices 1 and 2 only (vertex 0's weight is not read) */
    for (int c = 1; c < 3; c++)
        lin[c] = sub[0] * d->ms[0][c] + sub[1] * d->ms[1][c] + sub[2] * d->ms[2][c];
    /* perspective-correct in the sub-triangle, then mapped (to_original's
     * sums, without its identity case) */
    float dummy[2];
    float sp[2];
    spi_weights(&d->spi, sub, d->sub_inv_w, sp, dummy);
    double psub[3] = {1.0 - sp[0] - sp[1], sp[0], sp[1]};
    persp[0] = (float)(psub[0] * d->m[0][1] + psub[1] * d->m[1][1] + psub[2] * d->m[2][1]);
    persp[1] = (float)(psub[0] * d->m[0][2] + psub[1] * d->m[1][2] + psub[2] * d->m[2][2]);
    linear[0] = (float)lin[1];
    linear[1] = (float)lin[2];
}

/* Samples in a coverage mask.  Not the compiler's popcount builtin:
 * without -mpopcnt (the build targets any x86-64) that is a libgcc call. */
static inline unsigned coverage_count(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    m = (m + (m >> 4)) & 0x0F0F0F0Fu;
    return (m * 0x01010101u) >> 24;
}

/* The primitive's window z at sample s of pixel (x, y) (its plane). */
static inline float sample_z(const struct draw_ctx *d, unsigned x, unsigned y, unsigned s)
{
    return db_zplane_at(&d->zp, x, y, s);
}

/* The depth and stencil tests of a fragment (depth.c): the samples of
 * `coverage` that pass.  Depth per sample from the primitive's plane at the
 * sample's position, or the shader's export for all of them; the stencil
 * reference from the registers or the shader's export (`out`: NULL when the
 * pixel stage did not run).  Under MASK_EXPORT_ENABLE the exported sample
 * mask first removes the samples it lacks (GL: the fragment's coverage is
 * ANDed with gl_SampleMask), before they are tested or counted. */
static uint32_t depth_test(struct draw_ctx *d, unsigned x, unsigned y, uint32_t coverage,
                           const struct vc_pixel_out *out)
{
    if (out && out->mask_written && d->db.mask_export)
        coverage &= out->mask;
    if (!d->db.active)
        return coverage;
    const float *exported = out && out->depth_written ? &out->depth : NULL;
    const uint8_t *sref = out && out->stencil_written && d->db.s_export ? &out->stencil : NULL;
    float z[RS_MAX_SAMPLES];
    for (unsigned s = 0; s < d->rs.samples; s++)
        z[s] = exported && d->db.z_export ? *exported : sample_z(d, x, y, s);
    return db_fragment(&d->db, x, y, coverage, z, sref, d->prim.front_face);
}

/* depth_test for the 64 pixels of the micro tile at (x0, y0) (pixel l =
 * row * 8 + column), none with a pixel stage output (no export): cov[l]
 * becomes the samples that pass. */
static void depth_test_block(struct draw_ctx *d, unsigned x0, unsigned y0, uint32_t cov[64])
{
    db_block(&d->db, x0, y0, cov, &d->zp, d->prim.front_face);
}

static void write_shaded(struct draw_ctx *d, const struct vc_pixel_in *in, const struct vc_pixel_out *out)
{
    d->stats.pixels_shaded++;
    if (out->killed)
        return;
    uint32_t cov = out->num_colors ? cb_alpha_mask_apply(&d->a2m, in->x, in->y, out->color[0][3], in->coverage)
                                   : in->coverage;
    cov = depth_test(d, in->x, in->y, cov, out);
    if (!cov)
        return;
    for (unsigned k = 0; k < RS_NUM_CB && k < out->num_colors; k++) {
        if (!d->cb_on[k])
            continue;
        const float *src1 = k == 0 && d->cb[0].dual_src && out->num_colors > 1 ? out->color[1] : NULL;
        cb_write_dual(&d->cb[k], d->blend_const, in->x, in->y, cov, out->color[k], src1);
        d->stats.samples_written += coverage_count(cov);
    }
}

/* The weights the pixel stage reads, from the rasteriser's (i, j) at the
 * centre, the centroid and the sample (each costs a division). */
static void pixel_weights(const struct draw_ctx *d, struct vc_pixel_in *in, const double ij[3][2])
{
    uint32_t need = d->baryc_needed;
    if (need & ((1u << VC_BARYC_PERSP_CENTER) | (1u << VC_BARYC_LINEAR_CENTER)))
        weights_at(d, ij[0], in->ij[VC_BARYC_PERSP_CENTER], in->ij[VC_BARYC_LINEAR_CENTER]);
    if (need & ((1u << VC_BARYC_PERSP_CENTROID) | (1u << VC_BARYC_LINEAR_CENTROID)))
        weights_at(d, ij[1], in->ij[VC_BARYC_PERSP_CENTROID], in->ij[VC_BARYC_LINEAR_CENTROID]);
    if (need & ((1u << VC_BARYC_PERSP_SAMPLE) | (1u << VC_BARYC_LINEAR_SAMPLE)))
        weights_at(d, ij[2], in->ij[VC_BARYC_PERSP_SAMPLE], in->ij[VC_BARYC_LINEAR_SAMPLE]);
}

/* pixel_weights for pending[from .. n - 1], on an unclipped primitive
 * (interp.c spi_weights_batch: the same values).  false: not this case. */
static bool batch_weights(struct draw_ctx *d, unsigned from, unsigned n)
{
    if (!d->m_identity)
        return false;
    spi_weights_batch(&d->spi, d->prim_inv_w, (const double(*)[3][2])d->pending_ij + from, n - from,
                      d->baryc_needed, d->pending + from);
    return true;
}

/* The weights of the current primitive's pending pixels, pending[from .. n - 1]. */
static void pending_weights(struct draw_ctx *d, unsigned from, unsigned n)
{
    if (from < n && !batch_weights(d, from, n))
        for (unsigned l = from; l < n; l++)
            pixel_weights(d, &d->pending[l], (const double(*)[2])d->pending_ij[l]);
}

/* A pixel's bit in sealed_bits. */
static inline uint64_t pixel_bit(unsigned x, unsigned y)
{
    return 1ull << ((x ^ (y * 8u) ^ (y >> 3)) & 63u);
}

/* The end of a primitive whose pixels wait (carry): their weights now,
 * with its sub-triangle's state, and its inputs in a slot (the other half
 * of the same primitive shares it). */
static void seal_pending(struct draw_ctx *d)
{
    unsigned from = d->nsealed, n = d->npending;
    if (from == n)
        return;
    pending_weights(d, from, n);
    if (!d->nslots || d->slot_serial != d->prim_serial) {
        struct vc_prim_inputs *p = &d->slot[d->nslots++];
        p->num_inputs = d->prim.num_inputs;
        p->front_face = d->prim.front_face;
        memcpy(p->attr, d->prim.attr, p->num_inputs * sizeof p->attr[0]);
        memcpy(p->flat, d->prim.flat, p->num_inputs * sizeof p->flat[0]);
        d->slot_serial = d->prim_serial;
    }
    for (unsigned l = from; l < n; l++) {
        d->pending_slot[l] = (uint8_t)(d->nslots - 1);
        d->sealed_bits |= pixel_bit(d->pending[l].x, d->pending[l].y);
    }
    d->nsealed = n;
}

/* Whether pixel (x, y) waits already from an earlier primitive. */
static bool pixel_sealed(const struct draw_ctx *d, unsigned x, unsigned y)
{
    if (!(d->sealed_bits & pixel_bit(x, y)))
        return false;
    for (unsigned l = 0; l < d->nsealed; l++)
        if (d->pending[l].x == x && d->pending[l].y == y)
            return true;
    return false;
}

/* Pending pixel l's coverage after alpha to coverage (the batch's lanes
 * hold colour 0's alpha). */
static uint32_t a2m_coverage(const struct draw_ctx *d, unsigned l, unsigned num_colors)
{
    if (!d->a2m.on || !num_colors)
        return d->pending[l].coverage;
    float a;
    memcpy(&a, &eg_ps_batch_color(d->batch, 0, 3)[l], sizeof a);
    return cb_alpha_mask_apply(&d->a2m, d->pending[l].x, d->pending[l].y, a, d->pending[l].coverage);
}

/* How many colour targets the batch's program exported (the highest + 1). */
static unsigned batch_num_colors(const struct draw_ctx *d)
{
    uint8_t mask = eg_ps_batch_color_mask(d->batch);
    unsigned num_colors = 0;
    for (unsigned t = 0; t < VC_RENDER_MAX_TARGETS; t++)
        if ((mask >> t) & 1u)
            num_colors = t + 1;
    return num_colors;
}

/* Target k of the whole micro tile at (x, y) written straight from the
 * batch's colour lanes (cb_write_whole_tile_lanes), every sample of its 64
 * pixels counted; false: that path does not take it, nothing written. */
static bool lanes_to_target(struct draw_ctx *d, unsigned k, unsigned x, unsigned y)
{
    const uint32_t *ch[4];
    for (unsigned c = 0; c < 4; c++)
        ch[c] = eg_ps_batch_color(d->batch, k, c);
    if (!cb_write_whole_tile_lanes(&d->cb[k], x, y, ch))
        return false;
    d->stats.samples_written += 64 * coverage_count((1u << d->rs.samples) - 1u);
    return true;
}

/* Write the batch's results for pending[0 .. done - 1] (render_shade_pixels'
 * 1: killed flags and colours in the batch's lanes); `block`: they are
 * shade_block's whole micro tile; targets k0 onwards (the ones before are
 * written: block_lanes_written). */
static int write_batch(struct draw_ctx *d, unsigned done, bool block, unsigned k0)
{
    struct cb_fragment frag[EG_PS_BATCH_MAX];
    /* the batch's lanes straight into the fragments' RGBA (each target's
     * four channels side by side, as cb_write_tile reads them) */
    float rgba[EG_PS_BATCH_MAX][4], rgba1[EG_PS_BATCH_MAX][4];
    const bool *killed = eg_ps_batch_killed(d->batch);
    unsigned num_colors = batch_num_colors(d);
    /* depth and stencil first: the samples each pixel still covers */
    uint32_t cov[EG_PS_BATCH_MAX];
    bool lost = false;   /* a pixel lost a sample */
    if (!d->db.active && !d->a2m.on) {
        for (unsigned l = 0; l < done; l++) {
            cov[l] = killed[l] ? 0 : d->pending[l].coverage;
            lost |= cov[l] != d->pending[l].coverage;
        }
    } else if (block && done == 64 && !d->a2m.on) {
        /* a whole micro tile: the DB takes it at once (or took it: early Z) */
        if (d->db_done) {
            memcpy(cov, d->db_cov, sizeof d->db_cov);
            d->db_done = false;
        } else {
            for (unsigned l = 0; l < done; l++)
                cov[l] = killed[l] ? 0 : d->pending[l].coverage;
            depth_test_block(d, d->pending[0].x, d->pending[0].y, cov);
        }
        for (unsigned l = 0; l < done; l++)
            lost |= cov[l] != d->pending[l].coverage;
    } else {
        for (unsigned l = 0; l < done; l++) {
            cov[l] = killed[l] ? 0
                               : depth_test(d, d->pending[l].x, d->pending[l].y, a2m_coverage(d, l, num_colors),
                                            NULL);
            lost |= cov[l] != d->pending[l].coverage;
        }
    }
    /* a whole block none of whose pixels lost a sample: its lanes are in
     * cb_write_whole_tile_lanes' order */
    bool lanes = block && done == 64 && !d->a2m.on && !lost;
    bool dual = d->cb_on[0] && d->cb[0].dual_src && num_colors > 1;
    for (unsigned k = k0; k < RS_NUM_CB; k++) {
        if (!d->cb_on[k])
            continue;
        unsigned m = 0;
        if (k < num_colors) {
            if (lanes && lanes_to_target(d, k, d->pending[0].x, d->pending[0].y))
                continue;
            const uint32_t *ch[4];
            for (unsigned c = 0; c < 4; c++)
                ch[c] = eg_ps_batch_color(d->batch, k, c);
            for (unsigned l = 0; l < done; l++) {
                if (!cov[l])
                    continue;
                for (unsigned c = 0; c < 4; c++)
                    memcpy(&rgba[m][c], &ch[c][l], sizeof rgba[m][c]);
                const float *src1 = NULL;
                if (k == 0 && dual) {
                    for (unsigned c = 0; c < 4; c++)
                        memcpy(&rgba1[m][c], &eg_ps_batch_color(d->batch, 1, c)[l], sizeof rgba1[m][c]);
                    src1 = rgba1[m];
                }
                frag[m] = (struct cb_fragment){d->pending[l].x, d->pending[l].y, cov[l], rgba[m], src1};
                d->stats.samples_written += coverage_count(cov[l]);
                m++;
            }
        }
        cb_write_tile(&d->cb[k], d->blend_const, frag, m);
    }
    d->stats.pixels_shaded += done;
    return 0;
}

/* Shade the pending pixels as one batch and write them, in raster order.
 * Their weights are computed here, in one loop: the divisions of
 * consecutive pixels then overlap. */
static int flush_pending(struct draw_ctx *d)
{
    unsigned n = d->npending, done = 0, sealed = d->nsealed;
    bool block = d->pending_block, weighted = d->pending_weighted;
    d->npending = 0;
    d->pending_block = false;
    d->pending_weighted = false;
    d->nsealed = d->nslots = 0;
    d->sealed_bits = 0;
    if (n == 0)
        return 0;
    if (!weighted)
        pending_weights(d, sealed, n);
    const struct vc_prim_inputs *lane_prim[EG_PS_BATCH_MAX];
    for (unsigned l = 0; l < sealed; l++)
        lane_prim[l] = &d->slot[d->pending_slot[l]];
    for (unsigned l = sealed; sealed && l < n; l++)
        lane_prim[l] = &d->prim;
    int rc = render_shade_pixels(d->r, d->lanes, d->regs, d->mem, &d->prim, sealed ? lane_prim : NULL, d->pending,
                                 n, d->shaded, &done, d->err);
    /* target by target: the batch is one micro tile (shade_and_write
     * flushes at a tile change) */
    if (rc == 1) {
        d->batch_ran = true;
        return write_batch(d, done, block, 0);
    }
    struct cb_fragment frag[EG_PS_BATCH_MAX];
    uint32_t cov[EG_PS_BATCH_MAX];
    bool db_done = d->db_done && block && done == 64;   /* early Z took the block (early_z) */
    d->db_done = false;
    for (unsigned l = 0; l < done; l++) {
        const struct vc_pixel_out *o = &d->shaded[l];
        cov[l] = db_done ? d->db_cov[l]
                 : o->killed ? 0
                           : depth_test(d, d->pending[l].x, d->pending[l].y,
                                        o->num_colors ? cb_alpha_mask_apply(&d->a2m, d->pending[l].x, d->pending[l].y,
                                                                            o->color[0][3], d->pending[l].coverage)
                                                      : d->pending[l].coverage,
                                        o);
    }
    for (unsigned k = 0; k < RS_NUM_CB; k++) {
        if (!d->cb_on[k])
            continue;
        unsigned m = 0;
        for (unsigned l = 0; l < done; l++)
            if (cov[l] && k < d->shaded[l].num_colors) {
                const struct vc_pixel_out *o = &d->shaded[l];
                const float *src1 = k == 0 && d->cb[0].dual_src && o->num_colors > 1 ? o->color[1] : NULL;
                frag[m++] = (struct cb_fragment){d->pending[l].x, d->pending[l].y, cov[l], o->color[k], src1};
                d->stats.samples_written += coverage_count(cov[l]);
            }
        cb_write_tile(&d->cb[k], d->blend_const, frag, m);
    }
    d->stats.pixels_shaded += done;
    return rc;
}

/* The position the SPI loads for the pixel at (x, y), whose centre has the
 * sub-triangle's weights ij (vertices 1 and 2): the centre, the window z
 * there (the plane the depth test uses) and the clip w there (1 over the
 * screen-linear 1/w: Mesa's r600 takes the reciprocal itself,
 * nir_lower_fragcoord_wtrans).  z and w only when the pixel stage reads the
 * position (pos_zw), else 0 and 1. */
static inline void pixel_pos(const struct draw_ctx *d, int x, int y, const double ij[2], float pos[4])
{
    pos[0] = (float)x + 0.5f;
    pos[1] = (float)y + 0.5f;
    pos[2] = 0.0f;
    pos[3] = 1.0f;
    if (!d->pos_zw)
        return;
    const struct db_zplane *zp = &d->zp;
    pos[2] = (float)(zp->z0 + zp->zdx * ((double)x + 0.5 - zp->zx0) + zp->zdy * ((double)y + 0.5 - zp->zy0));
    const float *iw = d->m_identity ? d->prim_inv_w : d->sub_inv_w;
    double inv = (1.0 - ij[0] - ij[1]) * iw[0] + ij[0] * iw[1] + ij[1] * iw[2];
    pos[3] = (float)(1.0 / inv);
}

/* The fields of the pixel stage's input other than the weights. */
static inline void pixel_in(const struct draw_ctx *d, struct vc_pixel_in *in, const struct rs_pixel *px,
                            uint32_t coverage, unsigned sample)
{
    in->x = (unsigned)px->x;
    in->y = (unsigned)px->y;
    in->sample = sample;
    in->coverage = coverage;
    pixel_pos(d, px->x, px->y, px->center_ij, in->pos);
}

static int shade_and_write(struct draw_ctx *d, const struct rs_pixel *px, uint32_t coverage, const double ij_center[2],
                           const double ij_centroid[2], const double ij_sample[2], unsigned sample)
{
    /* a batch stays inside one micro tile (write_batch), unless carried
     * (cb_write_tile takes fragments of several tiles); a carried pixel
     * is written before the same pixel of a later primitive shades */
    if (d->batched && d->npending &&
        (d->carry ? d->nsealed && pixel_sealed(d, (unsigned)px->x, (unsigned)px->y)
                  : ((d->pending[0].x ^ (unsigned)px->x) | (d->pending[0].y ^ (unsigned)px->y)) >> 3)) {
        if (flush_pending(d))
            return -1;
    }
    struct vc_pixel_in *in = d->batched ? &d->pending[d->npending] : &(struct vc_pixel_in){0};
    /* every field the pixel stage reads is set here or, for the weights it
     * reads (baryc_needed), at the flush */
    pixel_in(d, in, px, coverage, sample);
    if (d->batched) {
        double (*ij)[2] = d->pending_ij[d->npending];
        memcpy(ij[0], ij_center, sizeof ij[0]);
        memcpy(ij[1], ij_centroid, sizeof ij[1]);
        memcpy(ij[2], ij_sample, sizeof ij[2]);
        if (++d->npending == EG_PS_BATCH_MAX)
            return flush_pending(d);
        return 0;
    }
    const double ij[3][2] = {{ij_center[0], ij_center[1]}, {ij_centroid[0], ij_centroid[1]},
                             {ij_sample[0], ij_sample[1]}};
    pixel_weights(d, in, ij);
    struct vc_pixel_out out;
    memset(&out, 0, sizeof out);
    if (d->r->shaders.pixel(d->r->shaders.ctx, d->regs, d->mem, &d->prim, in, &out, d->err))
        return -1;
    write_shaded(d, in, &out);
    return 0;
}

static int on_pixel(void *ctx, const struct rs_pixel *px)
{
    struct draw_ctx *d = ctx;
    unsigned x = (unsigned)px->x, y = (unsigned)px->y;
    if (d->mode != V_CB_MODE__CB_NORMAL)
        d->stats.cb_op_pixels++;
    switch (d->mode) {
    case V_CB_MODE__CB_RESOLVE:
        cb_resolve_pixel(&d->cb[0], &d->cb[1], x, y);
        return 0;
    case V_CB_MODE__CB_ELIMINATE_FAST_CLEAR:
        if (x < d->cb[0].width && y < d->cb[0].height)
            cb_tile_expand(&d->cb[0], x, y);
        return 0;
    case V_CB_MODE__CB_FMASK_DECOMPRESS:
    case V_CB_MODE__CB_DECOMPRESS:
        /* both leave every sample in its own plane (cb_pixel_decompress);
         * Mesa issues CB_DECOMPRESS only where FMask cannot be textured
         * from (has_compressed_msaa_texturing false: not Evergreen) */
        if (x < d->cb[0].width && y < d->cb[0].height)
            cb_pixel_decompress(&d->cb[0], x, y);
        return 0;
    default:
        break;
    }
    if (!d->shading) {
        if ((d->db.copy_z || d->db.copy_s) && d->cb_on[0])
            db_copy_pixel(&d->db, &d->cb[0], x, y, px->coverage); /* DB -> CB copy */
        else
            depth_test(d, x, y, px->coverage, NULL); /* CB_DISABLE: the DB alone */
        return 0;
    }
    if (!d->rs.per_sample)
        return shade_and_write(d, px, px->coverage, px->center_ij, px->centroid_ij, px->center_ij, 0);
    for (unsigned s = 0; s < d->rs.samples; s++)
        if ((px->coverage >> s) & 1u)
            if (shade_and_write(d, px, 1u << s, px->center_ij, px->sample_ij[s], px->sample_ij[s], s))
                return -1;
    return 0;
}

/* Shade the waiting quads together and write their pixels in the order
 * they came (the shading reads nothing the writes change). */
static int flush_quads(struct draw_ctx *d)
{
    unsigned nq = d->nquads, done = 0;
    d->nquads = 0;
    if (nq == 0)
        return 0;
    int rc = render_shade_quads_run(d->r, d->lanes, &d->prim, d->pending, d->quad_helpers, nq, d->shaded, &done, d->err);
    for (unsigned q = 0; q < done; q++)
        for (unsigned k = 0; k < 4; k++)
            if (!((d->quad_helpers[q] >> k) & 1u))
                write_shaded(d, &d->pending[4 * q + k], &d->shaded[4 * q + k]);
    return rc;
}

/* A 2x2 quad of a draw whose pixel stage reads its neighbours: the four
 * pixels run together, those with nothing covered as helpers, and the
 * others are written as on_pixel writes them (per sample when shading per
 * sample: one run of the quad per sample, the pixels not covering it
 * helpers). */
static int on_quad(void *ctx, const struct rs_pixel px[4])
{
    struct draw_ctx *d = ctx;
    unsigned runs = d->rs.per_sample ? d->rs.samples : 1;
    for (unsigned s = 0; s < runs; s++) {
        struct vc_pixel_in *in = &d->pending[4 * d->nquads];
        uint32_t helpers = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t cov = d->rs.per_sample ? px[k].coverage & (1u << s) : px[k].coverage;
            if (!cov)
                helpers |= 1u << k;
            memset(&in[k], 0, sizeof in[k]);
            pixel_in(d, &in[k], &px[k], cov, s);
            const double *at = d->rs.per_sample ? px[k].sample_ij[s] : px[k].center_ij;
            const double ij[3][2] = {{px[k].center_ij[0], px[k].center_ij[1]},
                                     {d->rs.per_sample ? at[0] : px[k].centroid_ij[0],
                                      d->rs.per_sample ? at[1] : px[k].centroid_ij[1]},
                                     {at[0], at[1]}};
            pixel_weights(d, &in[k], ij);
        }
        if (helpers == 0xFu)
            continue;
        d->quad_helpers[d->nquads++] = helpers;
        if (4 * d->nquads == EG_PS_BATCH_MAX && flush_quads(d))
            return -1;
    }
    return 0;
}

/* pending[] as shade_block queues block b: raster order, sample 0, every
 * sample covered (the weights and positions are the caller's). */
static void block_pending(struct draw_ctx *d, const struct rs_block *b)
{
    uint32_t all = (1u << d->rs.samples) - 1u;
    for (unsigned l = 0; l < 64; l++) {
        struct vc_pixel_in *in = &d->pending[l];
        in->x = (unsigned)b->x + (l & 7);
        in->y = (unsigned)b->y + (l >> 3);
        in->sample = 0;
        in->coverage = all;
    }
}

/* After the batch shaded block b: write_batch's work where it needs no
 * pending[] (no depth / stencil, no alpha to mask, no pixel killed: every
 * target from the lanes, cb_write_whole_tile_lanes), target by target in
 * its order, up to the first that cannot be written so.  Returns that
 * target (RS_NUM_CB: all written, the block's counters too). */
static unsigned block_lanes_written(struct draw_ctx *d, const struct rs_block *b)
{
    if (d->db.active || d->a2m.on || eg_ps_batch_any_killed(d->batch))
        return 0;
    unsigned num_colors = batch_num_colors(d);
    for (unsigned k = 0; k < RS_NUM_CB; k++)
        if (d->cb_on[k] && (k >= num_colors || !lanes_to_target(d, k, (unsigned)b->x, (unsigned)b->y)))
            return k;
    d->stats.pixels_shaded += 64;
    return RS_NUM_CB;
}

/* Whether a fully covered block's depth and stencil tests may run before
 * its pixel stage (early Z) with the same results.  The batched stage
 * takes only straight-line programs exporting colour (cedar/shader.h
 * eg_ps_batch_new: no fetches, memory writes, depth, stencil or mask
 * exports; write_batch tests without exports), so the tests depend on what
 * it computes only through a KILL or alpha to mask, both excluded here;
 * and a run of it succeeded in this draw (its one failure, a parameter
 * past the primitive's, would be the same for every block).  A block
 * whose samples all fail then skips the stage; the counters stay as if it
 * ran (the model does not read DB_SHADER_CONTROL.Z_ORDER: for such a
 * program late and early Z give the same bytes). */
static bool early_z(const struct draw_ctx *d)
{
    return d->db.active && d->batch && d->batch_ran && !d->a2m.on && !eg_ps_batch_can_kill(d->batch);
}

/* A fully covered 8x8 block of a CB_NORMAL draw, batched and shaded once
 * per pixel: the 64 pixels go to the batch as on_pixel / shade_and_write
 * would queue them (raster order, every sample covered, so the centroid
 * and the sample are the centre), with the same weights (struct rs_block),
 * without a call and a struct per pixel.  The block is one micro tile: the
 * pixels queued before it (another tile) are flushed first, as
 * shade_and_write would at its first pixel, and the 64 make one batch. */
static int shade_block(struct draw_ctx *d, const struct rs_block *b)
{
    if (flush_pending(d))
        return -1;
    if (early_z(d)) {
        /* the DB first (the next block's bytes fetched meanwhile); nothing
         * passed: no colour to write, the block counted as write_batch
         * counts it */
        db_prefetch(&d->db, (unsigned)b->x + 8, (unsigned)b->y);
        uint32_t any = 0;
        for (unsigned l = 0; l < 64; l++)
            d->db_cov[l] = (1u << d->rs.samples) - 1u;
        depth_test_block(d, (unsigned)b->x, (unsigned)b->y, d->db_cov);
        for (unsigned l = 0; l < 64; l++)
            any |= d->db_cov[l];
        if (!any) {
            d->stats.blocks_batched++;
            d->stats.pixels_shaded += 64;
            return 1;
        }
        d->db_done = true;
    } else {
        db_prefetch(&d->db, (unsigned)b->x, (unsigned)b->y); /* fetched while the block shades */
    }
    /* the centre's weights only: computed here from the block's edge
     * values, without the per-pixel (i, j) triples the flush would read */
    bool centre = d->m_identity && spi_centre_only(&d->spi, d->baryc_needed);
    double lin1[64], lin2[64];
    rs_block_weights(b, lin1, lin2);
    if (centre && !d->pos_zw) {
        /* the weights straight into the batch's lanes, as arrays: no
         * position, no per-pixel weights in pending[] (filled only when a
         * write needs it: block_pending) */
        float w[4][64];
        bool linear = (d->baryc_needed >> VC_BARYC_LINEAR_CENTER) & 1u;
        spi_pair_weights_soa(d->prim_inv_w, lin1, lin2, 64, w[0], w[1], linear ? w[2] : NULL,
                             linear ? w[3] : NULL);
        const float *ij[VC_BARYC_COUNT][2] = {[VC_BARYC_PERSP_CENTER] = {w[0], w[1]}};
        if (linear) {
            ij[VC_BARYC_LINEAR_CENTER][0] = w[2];
            ij[VC_BARYC_LINEAR_CENTER][1] = w[3];
        }
        if (render_shade_block(d->r, d->lanes, &d->prim, ij) == 1) {
            d->batch_ran = true;
            d->stats.blocks_batched++;
            unsigned k0 = block_lanes_written(d, b);
            if (k0 == RS_NUM_CB)
                return 1;
            block_pending(d, b);
            return write_batch(d, 64, true, k0) ? -1 : 1;
        }
    }
    block_pending(d, b);
    for (unsigned l = 0; l < 64; l++) {
        struct vc_pixel_in *in = &d->pending[l];
        double ij[2] = {lin1[l], lin2[l]};
        pixel_pos(d, (int)in->x, (int)in->y, ij, in->pos);
        if (!centre)
            for (unsigned k = 0; k < 3; k++)
                memcpy(d->pending_ij[l][k], ij, sizeof ij);
    }
    if (centre)
        spi_pair_weights(d->prim_inv_w, lin1, lin2, 64, 0, d->pending);
    d->npending = 64;
    d->pending_block = true;
    d->pending_weighted = centre;
    d->stats.blocks_batched++;
    return flush_pending(d) ? -1 : 1;
}

/* A draw without the pixel stage testing depth and stencil only (on_pixel's
 * DB-alone case, not a DB copy): whole micro tiles go to the DB at once. */
static bool db_alone(const struct draw_ctx *d)
{
    return !d->shading && d->db.active && (d->mode == V_CB_MODE__CB_NORMAL || d->mode == V_CB_MODE__CB_DISABLE);
}

/* on_pixel's DB-alone work for the 64 pixels of block b, every sample
 * covered, and its counts. */
static void db_alone_block(struct draw_ctx *d, const struct rs_block *b)
{
    uint32_t cov[64];
    for (unsigned l = 0; l < 64; l++)
        cov[l] = (1u << d->rs.samples) - 1u;
    db_prefetch(&d->db, (unsigned)b->x + 8, (unsigned)b->y);   /* the next block's bytes, fetched meanwhile */
    depth_test_block(d, (unsigned)b->x, (unsigned)b->y, cov);
    if (d->mode != V_CB_MODE__CB_NORMAL)
        d->stats.cb_op_pixels += 64;
}

static int on_block(void *ctx, const struct rs_block *b)
{
    struct draw_ctx *d = ctx;
    if (d->mode == V_CB_MODE__CB_RESOLVE) {
        int done = cb_resolve_tile(&d->cb[0], &d->cb[1], (unsigned)b->x, (unsigned)b->y);
        if (done > 0)   /* else the block comes again pixel by pixel */
            d->stats.cb_op_pixels += 64;
        return done;
    }
    if (d->mode == V_CB_MODE__CB_ELIMINATE_FAST_CLEAR) {
        /* on_pixel's work for the 64 pixels of one micro tile: the first
         * expands the tile (when inside the target), the others find it
         * expanded; each is counted */
        d->stats.cb_op_pixels += 64;
        if ((unsigned)b->x < d->cb[0].width && (unsigned)b->y < d->cb[0].height)
            cb_tile_expand(&d->cb[0], (unsigned)b->x, (unsigned)b->y);
        return 1;
    }
    if (db_alone(d)) {
        db_alone_block(d, b);
        return 1;
    }
    return shade_block(d, b);
}

/* Whole blocks: the resolve's tile copy; the fast-clear elimination's tile
 * expansion; the DB alone's tiles; the batched pixel stage's 64-pixel
 * batches (unless vc_render_set_block_path turned them off). */
static bool block_path(const struct draw_ctx *d)
{
    if (d->mode == V_CB_MODE__CB_RESOLVE)
        return true;
    if (d->mode == V_CB_MODE__CB_ELIMINATE_FAST_CLEAR)
        return !d->r->block_path_off;
    if (db_alone(d))
        return !d->r->block_path_off;
    return d->shading && d->batched && !d->rs.per_sample && EG_PS_BATCH_MAX == 64 &&
           !d->r->block_path_off;
}

/* ---- primitives ------------------------------------------------------------------ */

static int raster_one(struct draw_ctx *d, const struct rs_vertex v[3])
{
    int rc = d->pair    ? rs_pair(&d->rs, v, d->pair, on_pixel, d->blocks ? on_block : NULL, d)
             : d->quads ? rs_triangle_quads(&d->rs, v, on_quad, d)
                        : rs_triangle(&d->rs, v, on_pixel, d->blocks ? on_block : NULL, d);
    /* a batch spans primitives only when carried (each lane its
     * primitive's inputs) */
    if (rc == 0 && d->carry && d->npending < EG_PS_BATCH_MAX) {
        seal_pending(d);
        return 0;
    }
    if (rc == 0)
        rc = flush_pending(d);
    if (rc == 0)
        rc = flush_quads(d);
    d->npending = 0;
    d->nquads = 0;
    d->pending_block = false;
    d->pending_weighted = false;
    return rc;
}

/* ---- threads ------------------------------------------------------------------ */

/* One more thread's share of a primitive: the rows of 8x8 blocks it
 * claims (rs_state.row_next).  Threads touch disjoint micro tiles, so disjoint colour, FMask and
 * CMask bytes (a CMask byte holds two horizontally adjacent tiles) and
 * disjoint entries of the kept address tables; each has its own copies of
 * the targets' address caches, its pixel batch and its counters. */
struct worker {
    struct draw_ctx d;
    struct vc_draw_err err;
    const struct rs_vertex *v;
    int rc;
};

#define MAX_THREADS RENDER_WORKERS_MAX
#define THREAD_MIN_PIXELS 16384     /* smaller primitives: one thread */
/* ... unless a pixel costs many times more (render_shade_heavy: piglit's
 * accuracy tests fetch 256 texels a pixel over 64x64-pixel triangles) */
#define THREAD_MIN_PIXELS_HEAVY 1024

/* Share i of a primitive (render_workers_run). */
static void worker_share(void *arg, unsigned i)
{
    struct draw_ctx *d = arg;
    struct worker *w = &d->workers[i];
    w->rc = raster_one(&w->d, w->v);
}

static unsigned draw_threads(const struct vc_render *r)
{
    /* glibc reads /sys for the count: once per process, not per draw */
    static long online;
    long cpus = __atomic_load_n(&online, __ATOMIC_RELAXED);
    if (!cpus) {
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
        __atomic_store_n(&online, cpus, __ATOMIC_RELAXED);
    }
    long n = r->threads ? (long)r->threads : cpus;
    return n < 1 ? 1u : n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

/* The copy of d a thread works with. */
static void worker_ctx(struct draw_ctx *d, struct worker *w)
{
    struct shade_lanes *lanes = w->d.lanes;
    w->d = *d;
    w->d.lanes = lanes;
    w->d.batch = d->batch ? render_shade_lanes_batch(lanes) : NULL;
    w->d.err = &w->err;
    w->d.workers = NULL;
    w->d.nthreads = 0;
    w->d.carry = false;   /* its share ends with its pixels written */
    memset(&w->d.stats, 0, sizeof w->d.stats);
    w->d.db.zpass = 0;
    w->d.rs.row_next = &d->rows_claimed;
    for (unsigned k = 0; k < RS_NUM_CB; k++) {
        w->d.cb[k].ac = &w->d.cb[k].ac_store;
        w->d.cb[k].ac_store.mx = w->d.cb[k].ac_store.my = -1;
        w->d.cb[k].ac_store.ctile = NULL;
        w->d.cb[k].ac_store.ftile = NULL;
    }
}

static void merge_stats(struct vc_render_stats *into, const struct vc_render_stats *from)
{
    into->pixels_shaded += from->pixels_shaded;
    into->samples_written += from->samples_written;
    into->blocks_batched += from->blocks_batched;
    into->cb_op_pixels += from->cb_op_pixels;
}

/* The plane of window z over the sub-triangle v (positions on raster.c's
 * 1/4096-pixel grid). */
static void z_plane(struct draw_ctx *d, const struct rs_vertex v[3])
{
    double x1 = (double)(v[1].x - v[0].x) / 4096.0, y1 = (double)(v[1].y - v[0].y) / 4096.0;
    double x2 = (double)(v[2].x - v[0].x) / 4096.0, y2 = (double)(v[2].y - v[0].y) / 4096.0;
    double z1 = (double)v[1].z - v[0].z, z2 = (double)v[2].z - v[0].z;
    double det = x1 * y2 - x2 * y1;
    d->zp.z0 = v[0].z;
    d->zp.zx0 = (double)v[0].x / 4096.0;
    d->zp.zy0 = (double)v[0].y / 4096.0;
    d->zp.zdx = det != 0.0 ? (z1 * y2 - z2 * y1) / det : 0.0;
    d->zp.zdy = det != 0.0 ? (x1 * z2 - x2 * z1) / det : 0.0;
}

static void setup_threads(struct draw_ctx *d);

static int raster_sub(struct draw_ctx *d, const struct rs_vertex v[3])
{
    d->r->stats.primitives++;
    /* the plane only when something reads it: the depth and stencil
     * tests (depth_test, db_block) or the pixel stage's position (pixel_pos) */
    if (d->db.active || d->pos_zw)
        z_plane(d, v);
    int64_t minx = v[0].x, maxx = v[0].x, miny = v[0].y, maxy = v[0].y;
    for (int k = 1; k < 3; k++) {
        minx = v[k].x < minx ? v[k].x : minx;
        maxx = v[k].x > maxx ? v[k].x : maxx;
        miny = v[k].y < miny ? v[k].y : miny;
        maxy = v[k].y > maxy ? v[k].y : maxy;
    }
    /* window coordinates are 1/4096 pixel (raster.c's grid) */
    double area = (double)(maxx - minx) / 4096.0 * (double)(maxy - miny) / 4096.0;
    if (area < (d->ps_heavy ? THREAD_MIN_PIXELS_HEAVY : THREAD_MIN_PIXELS))
        return raster_one(d, v);
    if (!d->threads_set_up) {   /* the draw's first primitive large enough */
        setup_threads(d);
        d->threads_set_up = true;
    }
    unsigned n = d->nthreads;
    if (n < 2)
        return raster_one(d, v);
    /* the pixels carried so far first (the copies start with none) */
    if (flush_pending(d))
        return -1;
    /* share 0 runs on this thread, on a copy like the others */
    d->rows_claimed = 0;
    for (unsigned i = 0; i < n; i++) {
        struct worker *w = &d->workers[i];
        worker_ctx(d, w);
        w->v = v;
        w->rc = 0;
    }
    render_workers_run(&d->r->workers, n, worker_share, d);
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        merge_stats(&d->stats, &d->workers[i].d.stats);
        d->db.zpass += d->workers[i].d.db.zpass;
        if (d->workers[i].rc && rc == 0) {
            rc = d->workers[i].rc;
            *d->err = d->workers[i].err;
        }
    }
    return rc;
}

static void free_threads(struct draw_ctx *d, unsigned n)
{
    if (!d->workers)
        return;
    for (unsigned i = 0; i < n; i++)
        render_shade_lanes_free(d->workers[i].d.lanes);
    free(d->workers);
    d->workers = NULL;
    d->nthreads = 0;
}

/* Threads for the draw's primitives: only with the default pixel stage's
 * batch or wave, one per thread (another pixel stage may not be
 * thread-safe), and the CB modes whose writes stay inside the pixel's own
 * micro tile. */
static void setup_threads(struct draw_ctx *d)
{
    unsigned n = draw_threads(d->r);
    if (n < 2 || (d->shading && !d->lanes))
        return;
    d->workers = calloc(n, sizeof *d->workers);
    if (!d->workers)
        return;
    for (unsigned i = 0; i < n && d->lanes; i++) {
        d->workers[i].d.lanes = render_shade_lanes_copy(d->r);
        if (!d->workers[i].d.lanes) {
            free_threads(d, i);
            return;
        }
    }
    d->nthreads = n;
}

/* Clip polygon against one plane: dist(v) >= 0 keeps; plane >= 0: the
 * draw's clip plane `plane` (the distances the vertices carry), else the
 * frustum plane axis / sign / scale or w > 0. */
static unsigned clip_plane(const struct clip_vertex *in, unsigned n, struct clip_vertex *out, int axis, float sign,
                           float scale, bool w_plane, int plane, unsigned nplanes)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct clip_vertex *a = &in[i], *b = &in[(i + 1) % n];
        float da = plane >= 0 ? a->dist[plane]
                   : w_plane  ? a->pos[3] - CLIP_W_EPSILON
                              : scale * a->pos[3] + sign * a->pos[axis];
        float db = plane >= 0 ? b->dist[plane]
                   : w_plane  ? b->pos[3] - CLIP_W_EPSILON
                              : scale * b->pos[3] + sign * b->pos[axis];
        if (da >= 0 && m < CLIP_MAX_VERTS)
            out[m++] = *a;
        if ((da >= 0) != (db >= 0) && m < CLIP_MAX_VERTS) {
            float t = da / (da - db);
            struct clip_vertex *c = &out[m++];
            for (int k = 0; k < 4; k++)
                c->pos[k] = a->pos[k] + t * (b->pos[k] - a->pos[k]);
            for (int k = 0; k < 3; k++)
                c->w[k] = a->w[k] + t * (b->w[k] - a->w[k]);
            for (unsigned k = 0; k < nplanes; k++)
                c->dist[k] = a->dist[k] + t * (b->dist[k] - a->dist[k]);
        }
    }
    return m;
}

/* The distance of vertex v to the draw's clip plane k. */
static float plane_dist(const struct draw_ctx *d, unsigned k, const struct vc_vertex_out *v)
{
    const struct clip_plane_src *p = &d->plane[k];
    if (p->slot)
        return v->pos_extra[p->slot - 1][p->comp];
    return p->ucp[0] * v->pos[0] + p->ucp[1] * v->pos[1] + p->ucp[2] * v->pos[2] + p->ucp[3] * v->pos[3];
}

/* The clip planes besides the frustum's (OpenGL 4.6 13.7: a primitive is
 * kept where every enabled distance is >= 0): the clip distances
 * PA_CL_VS_OUT_CNTL.CLIP_DIST_ENA_n enables, n in the vertex shader's
 * CCDIST0 (0..3) and CCDIST1 (4..7) position exports, which follow the
 * position and the misc vector in the order of their VS_OUT_*_VEC_ENA
 * (Mesa r600 sfn_shader_vs.cpp: clip distances from POS export 1 when no
 * misc vector is written; gl_ClipVertex becomes clip distances there too);
 * and the user clip planes PA_CL_CLIP_CNTL.UCP_ENA_n enables, each
 * PA_CL_UCP<n>_X..W dotted with the clip-space position (Mesa enables
 * those only when the shader writes no clip distance). */
static void clip_planes_init(struct draw_ctx *d, const struct vc_regs *regs)
{
    uint32_t out = vc_reg(regs, REG_PA_CL_VS_OUT_CNTL);
    unsigned slot = 1 + (G_PA_CL_VS_OUT_CNTL__VS_OUT_MISC_VEC_ENA(out) ? 1 : 0);
    unsigned vec_slot[2] = {0, 0};
    if (G_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST0_VEC_ENA(out))
        vec_slot[0] = slot++;
    if (G_PA_CL_VS_OUT_CNTL__VS_OUT_CCDIST1_VEC_ENA(out) && slot < 4)
        vec_slot[1] = slot++;
    d->nplanes = 0;
    for (unsigned n = 0; n < 8; n++)
        if (((out >> n) & 1u) && vec_slot[n / 4])
            d->plane[d->nplanes++] = (struct clip_plane_src){vec_slot[n / 4], n % 4, {0, 0, 0, 0}};
    for (unsigned n = 0; n < 6; n++)
        if ((d->clip_cntl >> n) & 1u)
            d->plane[d->nplanes++] = (struct clip_plane_src){0, 0, {reg_float(regs, REG_PA_CL_UCP_X(n)),
                                                                    reg_float(regs, REG_PA_CL_UCP_Y(n)),
                                                                    reg_float(regs, REG_PA_CL_UCP_Z(n)),
                                                                    reg_float(regs, REG_PA_CL_UCP_W(n))}};
}

/* A vertex outside one of the draw's clip planes. */
static bool outside_planes(const struct draw_ctx *d, const struct vc_vertex_out *v)
{
    for (unsigned k = 0; k < d->nplanes; k++)
        if (!(plane_dist(d, k, v) >= 0))
            return true;
    return false;
}

static bool needs_clip(const struct draw_ctx *d, const float p[4])
{
    float w = p[3];
    if (!(w > CLIP_W_EPSILON))
        return true;
    if (fabsf(p[0]) > d->gb_x * w || fabsf(p[1]) > d->gb_y * w)
        return true;
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(d->clip_cntl) && p[2] > w)
        return true;
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(d->clip_cntl) &&
        p[2] < (G_PA_CL_CLIP_CNTL__DX_CLIP_SPACE_DEF(d->clip_cntl) ? 0.0f : -w))
        return true;
    return false;
}

static bool triangle_needs_clip(const struct draw_ctx *d, const struct vc_vertex_out *const vo[3])
{
    if (G_PA_CL_CLIP_CNTL__CLIP_DISABLE(d->clip_cntl))
        return false;
    for (int k = 0; k < 3; k++)
        if (needs_clip(d, vo[k]->pos) || (d->nplanes && outside_planes(d, vo[k])))
            return true;
    return false;
}

static int draw_triangle(struct draw_ctx *d, const struct vc_vertex_out *const vo[3])
{
    const float *p[3] = {vo[0]->pos, vo[1]->pos, vo[2]->pos};
    bool clip = triangle_needs_clip(d, vo);
    for (int k = 0; k < 3; k++)
        d->prim_inv_w[k] = G_PA_CL_VTE_CNTL__VTX_W0_FMT(d->rs.vte) ? 1.0f / p[k][3] : p[k][3];
    if (!clip) {
        struct rs_vertex v[3];
        for (int k = 0; k < 3; k++)
            if (rs_vertex_setup(&d->rs, p[k], &v[k]))
                return 0; /* w = 0 or far outside with clipping off: nothing the hardware could draw either */
        memset(d->m, 0, sizeof d->m);
        d->m_identity = true;
        return raster_sub(d, v);
    }
    struct clip_vertex a[CLIP_MAX_VERTS], b[CLIP_MAX_VERTS];
    unsigned n = 3;
    for (int k = 0; k < 3; k++) {
        memcpy(a[k].pos, p[k], sizeof a[k].pos);
        a[k].w[0] = a[k].w[1] = a[k].w[2] = 0.0;
        a[k].w[k] = 1.0;
        for (unsigned j = 0; j < d->nplanes; j++)
            a[k].dist[j] = plane_dist(d, j, vo[k]);
    }
    n = clip_plane(a, n, b, 3, 0, 0, true, -1, d->nplanes);
    n = clip_plane(b, n, a, 0, -1.0f, d->gb_x, false, -1, d->nplanes);
    n = clip_plane(a, n, b, 0, 1.0f, d->gb_x, false, -1, d->nplanes);
    n = clip_plane(b, n, a, 1, -1.0f, d->gb_y, false, -1, d->nplanes);
    n = clip_plane(a, n, b, 1, 1.0f, d->gb_y, false, -1, d->nplanes);
    struct clip_vertex *poly = b;
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(d->clip_cntl)) {
        n = clip_plane(poly, n, poly == a ? b : a, 2, -1.0f, 1.0f, false, -1, d->nplanes);
        poly = poly == a ? b : a;
    }
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(d->clip_cntl)) {
        float s = G_PA_CL_CLIP_CNTL__DX_CLIP_SPACE_DEF(d->clip_cntl) ? 0.0f : 1.0f;
        n = clip_plane(poly, n, poly == a ? b : a, 2, 1.0f, s, false, -1, d->nplanes);
        poly = poly == a ? b : a;
    }
    for (unsigned j = 0; j < d->nplanes; j++) {
        n = clip_plane(poly, n, poly == a ? b : a, 0, 0, 0, false, (int)j, d->nplanes);
        poly = poly == a ? b : a;
    }
    if (n < 3)
        return 0;
    d->r->stats.c_primitives += n - 2;   /* the clipped polygon as a fan */
    struct rs_vertex rv[CLIP_MAX_VERTS];
    for (unsigned k = 0; k < n; k++)
        if (rs_vertex_setup(&d->rs, poly[k].pos, &rv[k]))
            return 0;
    d->m_identity = false;
    for (unsigned k = 1; k + 1 < n; k++) {
        unsigned idx[3] = {0, k, k + 1};
        struct rs_vertex v[3];
        for (int c = 0; c < 3; c++) {
            v[c] = rv[idx[c]];
            memcpy(d->m[c], poly[idx[c]].w, sizeof d->m[c]);
            d->sub_inv_w[c] = rv[idx[c]].inv_w;
        }
        sub_weights_set(d);
        if (raster_sub(d, v))
            return -1;
    }
    return 0;
}

static bool facing_front(const struct draw_ctx *d, int winding)
{
    bool ccw = winding > 0;
    return G_PA_SU_SC_MODE_CNTL__FACE(d->rs.su_mode) ? !ccw : ccw;
}

static bool culled(const struct draw_ctx *d, bool front)
{
    return front ? G_PA_SU_SC_MODE_CNTL__CULL_FRONT(d->rs.su_mode) : G_PA_SU_SC_MODE_CNTL__CULL_BACK(d->rs.su_mode);
}

/* Points and lines: quads in window space around the snapped vertices. */
static int draw_quad(struct draw_ctx *d, const struct rs_vertex c[4], const double wc[4][3])
{
    static const unsigned tris[2][3] = {{0, 1, 2}, {2, 1, 3}};
    if (d->mode == V_CB_MODE__CB_RESOLVE) {
        /* the resolve uses no weights: both halves in one pass, the
         * pixels on their shared edge once */
        struct rs_vertex v[2][3];
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < 3; k++)
                v[t][k] = c[tris[t][k]];
        d->pair = v[1];
        d->r->stats.primitives++; /* two primitives, as the halves one by one */
        int rc = raster_sub(d, v[0]);
        d->pair = NULL;
        return rc;
    }
    d->m_identity = false;
    /* a 1-pixel point at one sample: the half that does not cover its
     * pixel gives none, and its raster_sub nothing but the count */
    int only = rs_rect_one_pixel_half(&d->rs, c);
    for (int t = 0; t < 2; t++) {
        if (only >= 0 && t != only) {
            d->r->stats.primitives++;
            continue;
        }
        struct rs_vertex v[3];
        for (int k = 0; k < 3; k++) {
            v[k] = c[tris[t][k]];
            memcpy(d->m[k], wc[tris[t][k]], sizeof d->m[k]);
            d->sub_inv_w[k] = v[k].inv_w;
        }
        sub_weights_set(d);
        if (raster_sub(d, v))
            return -1;
    }
    return 0;
}

/* A primitive of n (1..3) shaded vertices, from the VGT (on_prim) or the
 * geometry path (gs.c). */
static int draw_prim(void *ctx, enum vgt_prim_kind kind, const struct vc_vertex_out *const *vin, unsigned n)
{
    struct draw_ctx *d = ctx;
    const struct vc_vertex_out *vo[3];
    for (unsigned k = 0; k < n; k++)
        vo[k] = vin[k];
    d->r->stats.c_invocations++;
    /* The clipper passes on what needs no clipping as it is (set-up culls
     * after it); a triangle it clips counts in draw_triangle. */
    if (kind != VGT_TRIANGLE || !triangle_needs_clip(d, vo))
        d->r->stats.c_primitives++;
    for (unsigned k = n; k < 3; k++)
        vo[k] = vo[n - 1];
    const int64_t one = (int64_t)1 << 12; /* raster.c's evaluation grid */

    if (kind == VGT_TRIANGLE || kind == VGT_RECT) {
        struct rs_vertex w[3];
        bool front = true;
        bool have_window = true;
        for (int k = 0; k < 3; k++)
            if (rs_vertex_setup(&d->rs, vo[k]->pos, &w[k]))
                have_window = false;
        if (have_window) {
            int wind = rs_triangle_winding(w);
            if (wind == 0)
                return 0;
            front = facing_front(d, wind);
            if (culled(d, front))
                return 0;
        }
        spi_prim_inputs(&d->spi, vo, 3, front, &d->prim);
        d->prim_serial++;
        if (kind == VGT_TRIANGLE)
            return draw_triangle(d, vo);
        if (!have_window)
            return 0;
        /* Rectangle: the fourth corner completes the parallelogram opposite
         * vertex 0 (Mesa's blitter gives (x1,y1), (x1,y2), (x2,y1)). */
        struct rs_vertex c[4] = {w[0], w[1], w[2], w[2]};
        c[3].x = w[1].x + w[2].x - w[0].x;
        c[3].y = w[1].y + w[2].y - w[0].y;
        c[3].z = w[1].z + w[2].z - w[0].z;
        const double wc[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 1, 1}};
        for (int k = 0; k < 3; k++)
            d->prim_inv_w[k] = w[k].inv_w;
        return draw_quad(d, c, wc);
    }

    /* The clipper: a point outside a frustum plane (x and y are left to
     * the guard band and the scissor) or a clip plane is dropped, a line
     * cut to the part inside all of them (t0..t1 of it, in clip space). */
    double t0 = 0.0, t1 = 1.0;
    if (!G_PA_CL_CLIP_CNTL__CLIP_DISABLE(d->clip_cntl)) {
        bool line = kind == VGT_LINE;
        float f0[CLIP_FRUSTUM_PLANES], f1[CLIP_FRUSTUM_PLANES];
        unsigned nf = clip_frustum_dists(d->clip_cntl, d->gb_x, d->gb_y, line, vo[0]->pos, f0);
        clip_frustum_dists(d->clip_cntl, d->gb_x, d->gb_y, line, vo[line ? 1 : 0]->pos, f1);
        for (unsigned j = 0; j < nf + d->nplanes; j++) {
            double d0 = j < nf ? f0[j] : plane_dist(d, j - nf, vo[0]);
            double d1 = j < nf ? f1[j] : plane_dist(d, j - nf, vo[line ? 1 : 0]);
            if (!clip_segment_plane(d0, d1, &t0, &t1))
                return 0;
        }
    }
    struct rs_vertex w[2];
    for (unsigned k = 0; k < (kind == VGT_LINE ? 2u : 1u); k++) {
        float p[4];
        double t = k ? t1 : t0;
        for (int c = 0; c < 4; c++)
            p[c] = kind == VGT_LINE && (t0 > 0.0 || t1 < 1.0)
                       ? (float)(vo[0]->pos[c] + t * ((double)vo[1]->pos[c] - vo[0]->pos[c]))
                       : vo[k]->pos[c];
        if (rs_vertex_setup(&d->rs, p, &w[k]))
            return 0;
    }
    spi_prim_inputs(&d->spi, vo, kind == VGT_LINE ? 2 : 1, true, &d->prim);
    d->prim_serial++;
    struct rs_vertex c[4];
    /* Point size and line width are read by the PA only for points and
     * lines (a triangle draw leaves them as the last client set them). */
    if (kind == VGT_POINT) {
        if (!d->point_set) {   /* the draw's first point */
            uint32_t ps = vc_reg(d->regs, REG_PA_SU_POINT_SIZE);
            d->point_h[0] = (int64_t)llround((double)G_PA_SU_POINT_SIZE__WIDTH(ps) / 16.0 * (double)one);
            d->point_h[1] = (int64_t)llround((double)G_PA_SU_POINT_SIZE__HEIGHT(ps) / 16.0 * (double)one);
            d->point_set = true;
        }
        int64_t hx = d->point_h[0], hy = d->point_h[1];
        for (int k = 0; k < 4; k++) {
            c[k] = w[0];
            c[k].x += (k & 1) ? hx : -hx;
            c[k].y += (k & 2) ? hy : -hy;
        }
        const double wc[4][3] = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
        d->prim_inv_w[0] = d->prim_inv_w[1] = d->prim_inv_w[2] = w[0].inv_w;
        return draw_quad(d, c, wc);
    }
    /* Line: widened along its minor axis by the half width. */
    uint32_t lc = vc_reg(d->regs, REG_PA_SU_LINE_CNTL);
    int64_t h = (int64_t)llround((double)G_PA_SU_LINE_CNTL__WIDTH(lc) / 16.0 * (double)one);
    bool xmajor = llabs(w[1].x - w[0].x) >= llabs(w[1].y - w[0].y);
    for (int k = 0; k < 4; k++) {
        c[k] = w[k >> 1];
        int64_t off = (k & 1) ? h : -h;
        if (xmajor)
            c[k].y += off;
        else
            c[k].x += off;
    }
    const double wc[4][3] = {{1 - t0, t0, 0}, {1 - t0, t0, 0}, {1 - t1, t1, 0}, {1 - t1, t1, 0}};
    for (int k = 0; k < 3; k++)
        d->prim_inv_w[k] = G_PA_CL_VTE_CNTL__VTX_W0_FMT(d->rs.vte) ? 1.0f / vo[k < 2 ? k : 1]->pos[3]
                                                                   : vo[k < 2 ? k : 1]->pos[3];
    return draw_quad(d, c, wc);
}

static int on_prim(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                   uint32_t instance)
{
    struct draw_ctx *d = ctx;
    const struct vc_vertex_out *vo[3];
    struct vc_vertex_out keep[3];
    for (unsigned k = 0; k < n; k++) {
        /* a vertex of this primitive in the slot the next one takes (their
         * invocations 256 apart: a fan's first vertex, kept by the reuse
         * model, and its 256th) is copied out before it is overwritten */
        for (unsigned j = 0; j < k; j++)
            if (inv[j] != inv[k] && inv[j] % VERTEX_CACHE == inv[k] % VERTEX_CACHE && vo[j] != &keep[j]) {
                keep[j] = *vo[j];
                vo[j] = &keep[j];
            }
        if (!(vo[k] = vertex(d, idx[k], inv[k], instance)))
            return -1;
    }
    return draw_prim(d, kind, vo, n);
}

/* ---- the draw ----------------------------------------------------------------------- */

int vc_render_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                   const struct vc_draw *draw, struct vc_draw_err *err)
{
    struct draw_ctx *d = NULL;
    struct cache_entry *cache = NULL;
    bool kept = !r->draw_kept_busy;
    if (kept) {
        if (!r->draw_kept)
            r->draw_kept = malloc(sizeof *r->draw_kept);
        if (!r->cache_kept)
            r->cache_kept = malloc(VERTEX_CACHE * sizeof *r->cache_kept);
        if (!r->carry_kept)
            r->carry_kept = malloc(EG_PS_BATCH_MAX * sizeof *r->carry_kept);   /* NULL: nothing carried */
        kept = r->draw_kept && r->cache_kept;
    }
    if (kept) {
        r->draw_kept_busy = true;
        d = r->draw_kept;
        cache = r->cache_kept;
    } else {
        d = malloc(sizeof *d);
        cache = malloc(VERTEX_CACHE * sizeof *cache);
    }
    int rc = -1;
    if (!d || !cache) {
        rs_fail(err, "render: out of memory");
        goto out;
    }
    /* as new: every field 0, no cached vertex */
    memset(d, 0, sizeof *d);
    for (unsigned i = 0; i < VERTEX_CACHE; i++)
        cache[i].valid = false;
    r->draw_serial++; /* tables handed out from here on are this draw's (addr_table.c) */
    r->stats.draws++;
    d->r = r;
    d->regs = regs;
    d->mem = mem;
    d->err = err;
    d->cache = cache;
    d->mode = G_CB_COLOR_CONTROL__MODE(vc_reg(regs, REG_CB_COLOR_CONTROL));
    if (d->mode > V_CB_MODE__CB_FMASK_DECOMPRESS) {
        rs_fail(err, "render: CB_COLOR_CONTROL.MODE %u is not a CB mode", d->mode);
        goto out;
    }
    if (rs_state_init(&d->rs, regs, err))
        goto out;
    for (unsigned s = 0; s < d->rs.samples && s < RS_MAX_SAMPLES; s++) {
        d->zp.sdx[s] = d->rs.sample_dx[s] / 16.0;
        d->zp.sdy[s] = d->rs.sample_dy[s] / 16.0;
    }
    if (d->mode == V_CB_MODE__CB_NORMAL || d->mode == V_CB_MODE__CB_DISABLE) {
        if (db_init(&d->db, regs, mem, d->rs.samples, &r->tiling, err))
            goto out;
        if (d->db.active)
            db_keep_addresses(&d->db, r);
    }
    if (d->mode == V_CB_MODE__CB_DISABLE && !d->db.active) {
        rc = 0; /* no colour, no depth or stencil, nothing counted: nothing to do */
        goto out;
    }
    uint32_t db_sc = vc_reg(regs, REG_DB_SHADER_CONTROL);
    /* Without colour the pixel stage matters only when it can change depth or drop the pixel. */
    d->shading = (d->mode == V_CB_MODE__CB_NORMAL && !d->db.copy_z && !d->db.copy_s) ||
                 (d->mode == V_CB_MODE__CB_DISABLE &&
                  (G_DB_SHADER_CONTROL__Z_EXPORT_ENABLE(db_sc) || G_DB_SHADER_CONTROL__STENCIL_EXPORT_ENABLE(db_sc) ||
                   G_DB_SHADER_CONTROL__MASK_EXPORT_ENABLE(db_sc) || G_DB_SHADER_CONTROL__KILL_ENABLE(db_sc)));
    if (!r->shaders.vertex || (d->shading && !r->shaders.pixel)) {
        rs_fail(err, "render: no shader stages (out of memory when the renderer was made)");
        goto out;
    }
    /* a stage combination the model does not take is named before the
     * stages' programs are looked for */
    struct tess_state ts;
    if (tess_enabled(regs) && tess_state_init(&ts, regs, err))
        goto out;
    if (r->shaders.begin && r->shaders.begin(r->shaders.ctx, regs, mem, d->shading, err))
        goto out;
    d->batched = d->shading && render_shade_batched(r);
    d->lanes = d->shading ? render_shade_lanes(r) : NULL;
    d->batch = d->batched ? render_shade_lanes_batch(d->lanes) : NULL;
    d->quads = d->shading && !d->batched && render_shade_quads(r);
    d->ps_heavy = d->shading && render_shade_heavy(r);
    d->pos_zw = d->shading && render_shade_position_needed(r);
    d->baryc_needed = render_shade_baryc_needed(r);
    spi_link_init(&d->spi, regs);
    d->clip_cntl = vc_reg(regs, REG_PA_CL_CLIP_CNTL);
    clip_planes_init(d, regs);
    d->gb_x = reg_float(regs, REG_PA_CL_GB_HORZ_CLIP_ADJ);
    d->gb_y = reg_float(regs, REG_PA_CL_GB_VERT_CLIP_ADJ);
    if (!(d->gb_x >= 1.0f))
        d->gb_x = 1.0f;
    if (!(d->gb_y >= 1.0f))
        d->gb_y = 1.0f;
    d->blend_const[0] = reg_float(regs, REG_CB_BLEND_RED);
    d->blend_const[1] = reg_float(regs, REG_CB_BLEND_GREEN);
    d->blend_const[2] = reg_float(regs, REG_CB_BLEND_BLUE);
    d->blend_const[3] = reg_float(regs, REG_CB_BLEND_ALPHA);
    cb_alpha_mask_init(&d->a2m, regs, d->rs.samples);
    /* pixels wait across primitives (seal_pending) in waves only, and
     * when their writes read nothing of their primitive */
    d->slot = kept ? r->carry_kept : NULL;
    d->carry = d->slot && d->batched && !d->batch && d->lanes && !d->db.active && !d->a2m.on;
    d->blocks = block_path(d);

    if (d->mode == V_CB_MODE__CB_NORMAL) {
        uint32_t shader_mask = vc_reg(regs, REG_CB_SHADER_MASK);
        for (unsigned i = 0; i < RS_NUM_CB; i++) {
            if (!((vc_reg(regs, REG_CB_TARGET_MASK) >> (4 * i)) & 0xFu))
                continue;
            int t = cb_target_init(r, &d->cb[i], i, d->rs.samples, regs, mem, err);
            if (t < 0)
                goto out;
            d->cb_on[i] = t == 0;
            d->cb[i].write_mask &= (shader_mask >> (4 * i)) & 0xFu;
        }
    } else if (d->mode != V_CB_MODE__CB_DISABLE) {
        int t = cb_target_init(r, &d->cb[0], 0, d->rs.samples, regs, mem, err);
        if (t < 0)
            goto out;
        if (t > 0) {
            rs_fail(err, "render: CB0 has no format in a resolve / eliminate / decompress draw");
            goto out;
        }
        if (d->mode == V_CB_MODE__CB_RESOLVE) {
            t = cb_target_init(r, &d->cb[1], 1, 1, regs, mem, err);
            if (t < 0)
                goto out;
            if (t > 0) {
                rs_fail(err, "render: CB_RESOLVE with no CB1 destination");
                goto out;
            }
        }
    }
    struct vgt_counts vc;
    rc = tess_enabled(regs) ? tess_draw(r, &ts, regs, mem, draw, draw_prim, d, &vc, err)   /* with or without a GS */
         : gs_enabled(regs)   ? gs_draw(r, regs, mem, draw, draw_prim, d, &vc, err)
         : r->shaders.vertices ? vgt_run_batched(regs, mem, draw, on_prim, on_vertices, VERTEX_CACHE, d, &vc, err)
                              : vgt_run(regs, mem, draw, on_prim, d, &vc, err);
    if (rc == 0 && d->npending)
        rc = flush_pending(d);   /* the last primitives' carried pixels */
    r->stats.ia_vertices += vc.ia_vertices;
    r->stats.ia_primitives += vc.ia_primitives;
    r->stats.vs_invocations += vc.vs_invocations;
    merge_stats(&r->stats, &d->stats);
    r->stats.zpass_samples += d->db.zpass;
    free_threads(d, d->nthreads);
out:
    if (kept) {
        r->draw_kept_busy = false;
    } else {
        free(cache);
        free(d);
    }
    return rc;
}
