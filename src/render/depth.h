/* The depth/stencil block (DB): the depth and stencil surfaces of
 * DB_Z_INFO / DB_STENCIL_INFO, the per-sample depth and stencil tests, their
 * writes and stencil operations (DB_DEPTH_CONTROL, DB_STENCILREFMASK(_BF)),
 * the clears and decompression DB_RENDER_CONTROL asks for, HTILE, and the
 * count of samples that passed (occlusion queries, ZPASS_DONE).
 *
 * HTILE: Mesa r600 gives every depth buffer an HTILE (r600_texture.c
 * r600_texture_allocate_htile, unless R600_HYPERZ=0) whether or not the
 * kernel granted RADEON_INFO_WANT_HYPERZ (only r300 asks for it), so the DB
 * reads it whenever DB_Z_INFO.TILE_SURFACE_ENABLE is set.  Model: one 32-bit
 * word per 8x8-pixel tile, bits 3:0 the ZMASK; 0 means the tile is cleared
 * (every sample reads DB_DEPTH_CLEAR: Mesa fills a new HTILE with zeros),
 * anything else that the depth surface holds the values.  A write to a
 * cleared tile first stores the clear value into all of its samples and sets
 * ZMASK to 0xF.  The other bits (HiZ min/max) are left alone: they only let
 * the hardware cull early, which changes no result.  The words are in
 * row-major order over the HTILE's aligned width: only the DB reads them.
 */
#ifndef CEDAR_RENDER_DEPTH_H
#define CEDAR_RENDER_DEPTH_H

#include <stdbool.h>
#include <stdint.h>

#include "render_priv.h"

/* Runs of a micro tile kept (8 samples of 32-bit depth in 64-byte runs: 32). */
#define DB_TILE_RUNS_MAX 32

/* The stored stencil values after a fragment, by what happened to it
 * (GL 4.1.5: the operation STENCILFAIL, STENCILZFAIL or STENCILZPASS
 * names). */
enum db_stencil_outcome { DB_STENCIL_SFAIL, DB_STENCIL_ZFAIL, DB_STENCIL_ZPASS, DB_STENCIL_OUTCOMES };

/* One face's stencil test and operations as tables over the stored value
 * v (0..255), for a reference from the registers: whether the test passes,
 * and the value stored after each outcome, under the write mask; inert: the
 * test fails and the SFAIL operation stores v again (a sample holding v
 * neither passes nor changes a byte). */
struct db_stencil_lut {
    bool built;
    bool pass[256];
    bool inert[256];
    uint8_t after[DB_STENCIL_OUTCOMES][256];
};

/* The plane of a primitive's window z: at the point (X, Y) in pixels,
 * z0 + zdx (X - zx0) + zdy (Y - zy0); sample s of pixel (x, y) lies
 * (sdx[s], sdy[s]) pixels from the pixel's centre. */
struct db_zplane {
    double z0, zx0, zy0, zdx, zdy;
    double sdx[RS_MAX_SAMPLES], sdy[RS_MAX_SAMPLES];
};

/* The window z at sample s of pixel (x, y) (as a float: the depth the DB
 * tests). */
static inline float db_zplane_at(const struct db_zplane *p, unsigned x, unsigned y, unsigned s)
{
    double px = (double)x + 0.5 + p->sdx[s], py = (double)y + 0.5 + p->sdy[s];
    return (float)(p->z0 + p->zdx * (px - p->zx0) + p->zdy * (py - p->zy0));
}

struct db_state {
    bool active;                  /* db_fragment has anything to test, write or count */
    bool z_on, z_write, s_on;     /* tests in force (and a surface behind them) */
    bool z_clear, s_clear;        /* DB_RENDER_CONTROL.DEPTH/STENCIL_CLEAR_ENABLE */
    bool expand_only;             /* DEPTH_COMPRESS_DISABLE: touched tiles are expanded */
    bool count;                   /* DB_COUNT_CONTROL: ZPASS counting on */
    bool z_export;                /* DB_SHADER_CONTROL.Z_EXPORT_ENABLE */
    bool s_export;                /* DB_SHADER_CONTROL.STENCIL_EXPORT_ENABLE */
    bool mask_export;             /* DB_SHADER_CONTROL.MASK_EXPORT_ENABLE */
    bool clamp;                   /* viewport Z clamp (not DISABLE_VIEWPORT_CLAMP) */
    bool z_touch;                 /* a depth surface read or written: test, write or clear */
    bool z_expand;                /* depth written, cleared or DEPTH_COMPRESS_DISABLE: HTILE tiles touched are expanded */
    unsigned zformat;             /* V_DB_Z_FORMAT__*, INVALID: no depth surface */
    bool has_stencil;             /* a STENCIL_8 surface */
    unsigned zfunc;
    unsigned sfunc[2], sfail[2], szpass[2], szfail[2];  /* [0] front, [1] back */
    uint8_t sref[2], smask[2], swmask[2];
    struct db_stencil_lut slut[2];  /* per face, made at db_block's first use */
    bool backface;                /* DB_DEPTH_CONTROL.BACKFACE_ENABLE */
    float zmin, zmax;             /* PA_SC_VPORT_ZMIN_0 / ZMAX_0 */
    float clear_z;                /* DB_DEPTH_CLEAR */
    uint32_t clear_z_bits;        /* clear_z as the format stores it */
    double zscale;                /* UNORM depth: 2^n - 1 */
    uint8_t clear_s;              /* DB_STENCIL_CLEAR */
    unsigned samples, slice;
    struct cedar_tile_map zmap, smap;
    /* the byte runs of the micro tile db_fragment addressed last, per
     * surface (one address computation per run, not per sample) */
    struct db_tile_runs {
        int mx, my;
        unsigned n;              /* 0: address pixel by pixel */
        struct addr_table *tab;  /* the layout's kept runs (render_depth_table), or NULL */
        unsigned run_shift, run_mask; /* the map's run_bytes as a shift and a mask */
        uint64_t run[DB_TILE_RUNS_MAX];
    } ztile, stile;
    struct db_tile_runs zahead, sahead;  /* db_prefetch's, apart: it may look ahead of the tile tested */
    unsigned zstride, sstride;    /* bytes from a pixel's sample to the next */
    uint8_t *zrd, *zwr, *srd, *swr;
    bool zs_apart;                /* the depth surface (as written) and the stencil (as read) share no byte */
    bool zs_one_order;            /* their micro tiles order pixels alike (pix_index) */
    uint32_t *htile;              /* NULL: no HTILE */
    unsigned htile_pitch;         /* words per row of tiles */
    uint64_t zpass;               /* samples that passed since db_init */
    /* DB_RENDER_CONTROL.DEPTH_COPY / STENCIL_COPY_ENABLE: the draw copies
     * depth / stencil into CB0 instead of testing (Mesa's read-back of
     * depth: r600_blit_decompress_depth), sample COPY_SAMPLE, or with
     * COPY_CENTROID the first sample the pixel covers */
    bool copy_z, copy_s, copy_centroid;
    unsigned copy_sample;
};

/* Read the DB registers for a draw with `samples` samples per pixel.
 * 0, or -1 with err on a bad setting (a surface outside its buffer, an
 * impossible layout). */
int db_init(struct db_state *db, const struct vc_regs *regs, const struct vc_mem *mem, unsigned samples,
            const struct cedar_tiling *tiling, struct vc_draw_err *err);

/* The fragment covering the samples `coverage` of pixel (x, y) with depth
 * z[s] at sample s (window z, before the viewport clamp), from a front- or
 * back-facing primitive: stencil test, depth test, their writes and stencil
 * ops, the pass count.  Returns the samples that passed (where colour may be
 * written). */
uint32_t db_fragment(struct db_state *db, unsigned x, unsigned y, uint32_t coverage, const float *z,
                     const uint8_t *sref, bool front);

/* db_fragment for the 64 pixels of the micro tile at (x0, y0) (multiples
 * of 8), pixel l = (y - y0) * 8 + (x - x0) with coverage cov[l] (replaced
 * by the samples that passed) and the depth of sample s of (x, y)
 * db_zplane_at(zp, x, y, s), of one primitive and no exported stencil
 * reference: the same results, with the tile's HTILE word and runs found
 * once, the stencil test and operations by table (struct db_stencil_lut)
 * and a sample's depth computed only when its stencil test passed. */
void db_block(struct db_state *db, unsigned x0, unsigned y0, uint32_t cov[64], const struct db_zplane *zp,
              bool front);

/* After db_init, for an active DB: look the micro tiles' addresses of its
 * surfaces up in the renderer's kept tables (render_depth_table) instead
 * of computing them each time a draw reaches a tile.  Changes no result. */
void db_keep_addresses(struct db_state *db, struct vc_render *r);

/* A hint before the micro tile at (x0, y0) is shaded or tested: the DB will soon
 * read and write its depth, stencil and HTILE bytes, so the CPU may fetch
 * them meanwhile.  Changes no result. */
void db_prefetch(struct db_state *db, unsigned x0, unsigned y0);

/* The DB copy of pixel (x, y) into the samples `coverage` of colour target
 * t, as raw bits in the layout of the depth format's colour twin (Mesa's
 * flushed depth textures): COLOR_16 the 16-bit depth, COLOR_32_FLOAT the
 * float depth, COLOR_8_24 depth in bits 23:0 and stencil in 31:24,
 * COLOR_X24_8_32_FLOAT the float depth then the stencil in the next dword's
 * low byte; the parts not copied keep their bits. */
void db_copy_pixel(const struct db_state *db, struct cb_target *t, unsigned x, unsigned y, uint32_t coverage);

/* Depth and stencil of `sample` of (x, y) as stored (through HTILE): depth
 * as the fraction / float it holds, stencil 0..255.  false when there is no
 * such surface or (x, y) is outside it. */
bool db_read_depth(const struct db_state *db, unsigned x, unsigned y, unsigned sample, double *z);
bool db_read_stencil(const struct db_state *db, unsigned x, unsigned y, unsigned sample, uint8_t *s);
/* The raw bits of the depth element of `sample` of (x, y) (2 or 4 bytes). */
uint32_t db_read_depth_bits(const struct db_state *db, unsigned x, unsigned y, unsigned sample);

/* The depth value z in [0, 1] as the format stores it: UNORM z * (2^n - 1)
 * rounded to nearest, or the float's bits for Z_32_FLOAT. */
uint32_t db_depth_encode(unsigned zformat, double z);

#endif
