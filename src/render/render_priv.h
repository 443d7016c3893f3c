/* Shared between the renderer's files (src/render/): the draw-wide state each
 * stage reads, the colour targets, and the hand-offs between stages. */
#ifndef CEDAR_RENDER_PRIV_H
#define CEDAR_RENDER_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cedar/layout.h"
#include "cedar/render.h"
#include "cedar/shader.h"
#include "cedar/tiling.h"

#define RS_MAX_SAMPLES 8
#define RS_NUM_CB 8              /* CB_COLOR0..7 take part in drawing */

#define RENDER_ADDR_TABLES 8     /* surface layouts whose addresses are kept */

struct vc_render {
    struct vc_shader_ops shaders;
    struct vc_render_stats stats;
    struct cedar_tiling tiling;  /* the GPU's pipes / group size */
    void *shade;                 /* the default stages' state (shade.c) */
    struct addr_table *tables[RENDER_ADDR_TABLES]; /* addr_table.c */
    unsigned next_table;
    unsigned draw_serial;        /* vc_render_draw's count: a table handed out in this draw stays */
    unsigned threads;            /* vc_render_set_threads; 0: one per online CPU */
    struct render_workers *workers; /* the draws' threads (workers.c), kept across draws */
    /* A draw's context and vertex cache (draw.c), kept for the next draw:
     * a program drawing many small things allocates and faults them in
     * once, not per draw.  NULL until the first draw; draw_kept_busy while
     * a draw holds them (a draw begun meanwhile allocates its own). */
    struct draw_ctx *draw_kept;
    struct cache_entry *cache_kept;
    struct vc_prim_inputs *carry_kept;  /* its carried primitives' inputs (EG_PS_BATCH_MAX) */
    bool draw_kept_busy;
    bool block_path_off;         /* vc_render_set_block_path(false): blocks pixel by pixel */
};

/* ---- address tables kept across draws (addr_table.c) ---------------------- */

/* Pixel i (y%8 * 8 + x%8) of an FMask micro tile: bit plane p of its
 * samples' fragment indices starts at bit bit0[i][p] of byte byte[i][p]. */
#define FMASK_SPAN_MAX 256u      /* 64 pixels x 4 bytes (8x) */
struct fmask_tile {
    uint32_t byte[64][4];
    uint8_t bit0[64][4];
    /* All of the tile's fragment-index bits (the sample bits of every
     * plane of every pixel) lie in bytes span_lo .. span_lo + span_len - 1:
     * span_used[k] marks those of byte span_lo + k.  span_len 0: they
     * spread over more than FMASK_SPAN_MAX bytes. */
    uint32_t span_lo;
    uint32_t span_len;
    uint8_t span_used[FMASK_SPAN_MAX];
    bool span_whole;     /* every bit of the span is the tile's (span_used all 0xFF) */
};
/* A colour micro tile: the runs of sample plane s are run[s * nrun ...]. */
struct color_tile {
    unsigned nrun;
    uint64_t run[];
};
struct addr_table;
/* The table of layout m (made when new; NULL when out of memory or m has
 * no micro-tile runs, e.g. linear). */
struct addr_table *render_addr_table(struct vc_render *r, const struct cedar_tile_map *m);
/* A depth or stencil layout's table: each micro tile's runs of all its
 * samples' bytes, cedar_tile_micro_runs of slice 0 with at most
 * ADDR_DEPTH_RUNS_MAX runs (NULL as render_addr_table). */
#define ADDR_DEPTH_RUNS_MAX 32
struct addr_table *render_depth_table(struct vc_render *r, const struct cedar_tile_map *m);
void render_addr_tables_free(struct vc_render *r);
/* The entry of micro tile (mx, my), filled on first use; NULL when outside
 * the surface or out of memory. */
const struct fmask_tile *addr_table_fmask(struct addr_table *t, unsigned mx, unsigned my);
const struct color_tile *addr_table_color(struct addr_table *t, unsigned mx, unsigned my);
/* A depth table's entry (run[0 .. nrun - 1]); NULL as above, or when the
 * tile has no runs (cedar_tile_micro_runs gave 0). */
const struct color_tile *addr_table_depth(struct addr_table *t, unsigned mx, unsigned my);

/* The shader stages vc_render_new installs: the Evergreen interpreter
 * (shade.c), with its state in r->shade.  Returns 0, or -1 when out of memory. */
int render_default_shaders(struct vc_render *r, struct vc_shader_ops *ops);
void render_shade_free(struct vc_render *r);
/* The default pixel stage over many pixels of one primitive at once
 * (eg_ps_batch): true when this draw's pixel shader runs that way. */
bool render_shade_batched(const struct vc_render *r);
/* The default pixel stage's program has a loop (a pixel may cost many
 * times its program's length) or HEAVY_TEX_FETCHES texture fetches or more
 * (piglit's accuracy downsample: 256, unrolled): the draw shares smaller
 * primitives among its threads (draw.c THREAD_MIN_PIXELS_HEAVY). */
#define HEAVY_TEX_FETCHES 16
bool render_shade_heavy(const struct vc_render *r);
/* The default pixel stage, whose program reads its quad's neighbours
 * (derivatives, implicit level of detail), runs 2x2 quads: true when this
 * draw's does (render_shade_quad then, not the pixel op). */
bool render_shade_quads(const struct vc_render *r);
/* Shade the quad in[0..3] (rs_triangle_quads' order) as one run of four
 * lanes; the lanes in `helpers` (bit per lane) are helper pixels, whose
 * out[] means nothing.  0, or -1 with err. */
int render_shade_quad(struct vc_render *r, const struct vc_prim_inputs *prim, const struct vc_pixel_in in[4],
                      uint32_t helpers, struct vc_pixel_out out[4], struct vc_draw_err *err);
/* Shade nq (<= 16) quads in[4q .. 4q+3] with helpers[q] at once, as
 * render_shade_quad shades each: 0 and out[0 .. 4 nq - 1], or -1 with err
 * after the first *done quads. */
struct shade_lanes;
int render_shade_quads_run(struct vc_render *r, struct shade_lanes *lanes, const struct vc_prim_inputs *prim,
                           const struct vc_pixel_in *in, const uint32_t *helpers, unsigned nq,
                           struct vc_pixel_out *out, unsigned *done, struct vc_draw_err *err);
/* Whether the pixel stage reads the position (SPI_PS_IN_CONTROL_0.POSITION_ENA). */
bool render_shade_position_needed(const struct vc_render *r);
/* Barycentric pairs (bit per enum vc_baryc) the pixel stage reads. */
uint32_t render_shade_baryc_needed(const struct vc_render *r);
/* Shade in[0 .. n-1] (n <= EG_PS_BATCH_MAX) on the calling thread's lanes,
 * all of primitive prim or, with lane_prim, pixel l of lane_prim[l] (then
 * never the batch: waves or pixel by pixel).  1: the batch ran them all and their results are in its batch
 * (render_shade_lanes_batch: eg_ps_batch_killed / _color_mask / _color;
 * out is untouched: the caller reads the lanes without copying them
 * through it); 0: out[0 .. *done - 1] hold them (all n); -1: an error
 * after *done. */
int render_shade_pixels(struct vc_render *r, struct shade_lanes *lanes, const struct vc_regs *regs,
                        const struct vc_mem *mem, const struct vc_prim_inputs *prim,
                        const struct vc_prim_inputs *const *lane_prim, const struct vc_pixel_in *in, unsigned n,
                        struct vc_pixel_out *out, unsigned *done, struct vc_draw_err *err);
/* Shade the 64 pixels of a fully covered 8x8 block (raster order, sample
 * 0, every sample covered) whose weights the caller has as arrays:
 * ij[kind][h][l] is pixel l's weight h of that kind (enum vc_baryc), NULL
 * for kinds it did not compute.  1: the batch ran them (results in its
 * batch, as render_shade_pixels' 1); 0: nothing ran, because there is no
 * batch, the stage reads the position or a kind it was not given, or the
 * batch stopped (render_shade_pixels then says why, pixel by pixel). */
int render_shade_block(struct vc_render *r, struct shade_lanes *lanes, const struct vc_prim_inputs *prim,
                       const float *const ij[VC_BARYC_COUNT][2]);
/* The draw's pixel stage for many pixels at once (the PS decoded for a
 * batch or a wave; owned by the stage; NULL: pixel by pixel), and another
 * for one more thread (freed with render_shade_lanes_free); its batch, or
 * NULL when it runs waves. */
struct shade_lanes *render_shade_lanes(struct vc_render *r);
struct shade_lanes *render_shade_lanes_copy(struct vc_render *r);
void render_shade_lanes_free(struct shade_lanes *l);
struct eg_ps_batch *render_shade_lanes_batch(const struct shade_lanes *l);

int rs_fail(struct vc_draw_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same into a shader callback's message buffer (msg, msglen). */
int rs_msg_fail(char *msg, size_t msglen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- colour block (cb.c) -------------------------------------------------- */

/* Addresses of the micro tile (8x8 pixels) last touched, so that the pixels
 * of a rasteriser block do not each walk the tiling address map: the byte
 * runs of each sample's plane (cedar_tile_micro) and each pixel's FMask bits. */
struct cb_addr_cache {
    int mx, my;                   /* micro tile, -1: none */
    const struct color_tile *ctile;   /* from the kept tables, when there are */
    const struct fmask_tile *ftile;
    bool expanded;                /* the tile's CMask is known not "cleared" */
    uint32_t have_plane;          /* planes whose runs are filled */
    uint64_t run[RS_MAX_SAMPLES][CEDAR_MICRO_RUNS_MAX];
    uint64_t have_fmask;          /* pixel indices whose FMask bits are filled */
    uint32_t fbyte[64][4];        /* FMask surfaces are far below 4 GB */
    uint8_t fbit0[64][4];
};

/* A colour format (cb_format.c): bytes per element, whether its channels
 * are floats, and the width of channels X, Y, Z, W (lowest bits first; 0:
 * absent). */
struct cb_format_desc {
    unsigned format;              /* CB_COLOR*_INFO.FORMAT */
    unsigned bpe;
    bool fp;
    uint8_t bits[4];
};

struct cb_target {
    unsigned index;
    unsigned format, number_type, comp_swap, endian;
    const struct cb_format_desc *fmt;
    unsigned bpe;                 /* bytes per sample */
    unsigned comps;               /* channels stored */
    uint8_t swizzle[4];           /* stored channel -> RGBA component (COMP_SWAP) */
    uint8_t shift[4];             /* stored channel's lowest bit in the element */
    bool unorm8;                  /* 8-bit UNORM channels (cb_pack's short path) */
    unsigned samples;             /* colour samples per pixel */
    unsigned slice;               /* CB_COLOR*_VIEW.SLICE_START: the slice drawn */
    unsigned width, height;       /* aligned surface size in pixels */
    struct cedar_tile_map map;
    uint8_t *mem;                 /* map.size bytes at CB_COLOR*_BASE */
    bool fmask_on;                /* CB_COLOR*_INFO.COMPRESSION */
    struct cedar_tile_map fmap;
    unsigned fplanes;             /* cedar_fmask_planes(&fmap) */
    uint8_t *fmask;
    bool cmask_on;                /* CB_COLOR*_INFO.FAST_CLEAR */
    uint8_t *cmask;
    unsigned cmask_blocks_x;      /* 128x128-pixel CMask blocks per row */
    uint64_t cmask_size;
    uint32_t clear_word[2];
    uint32_t blend;               /* CB_BLEND*_CONTROL */
    bool dual_src;                /* blending reads the shader's second colour (SRC1 factors) */
    unsigned rop3;                /* CB_COLOR_CONTROL.ROP3 */
    unsigned write_mask;          /* CB_TARGET_MASK & CB_SHADER_MASK nibble (RGBA) */
    bool blend_clamp;
    bool round_truncate;          /* CB_COLOR*_INFO.ROUND_MODE */
    bool export_16bpc;            /* CB_COLOR*_INFO.SOURCE_FORMAT is EXPORT_4C_16BPC */
    unsigned per_run;             /* elements per cedar_tile_micro run */
    /* pixel index pi of a micro tile (cedar_tile_pixel_index) is element
     * pix_off[pi] bytes into run pix_run[pi] of its sample plane */
    uint8_t pix_run[64];
    uint16_t pix_off[64];
    /* the same for the pixel at raster position (y % 8) * 8 + x % 8 of a
     * micro tile: pix_run / pix_off of its pixel index, looked up once */
    uint8_t raster_run[64];
    uint16_t raster_off[64];
    bool raster_quads;            /* 4-byte elements, one run, raster pixels 4i..4i+3 side by side */
    struct addr_table *ctab, *ftab;   /* kept address tables of the colour / FMask layout, or NULL */
    /* The colour, FMask and CMask bytes do not overlap, so the order of
     * stores to them does not change what they end up holding (whole-tile
     * paths reorder them; a command buffer may well make them overlap). */
    bool meta_apart;
    struct cb_addr_cache *ac;     /* -> ac_store (written through const targets) */
    struct cb_addr_cache ac_store;
    /* resolve.c's facts of a resolve into this target that hold for every
     * tile, from the source they were found for (its address and clear
     * words; NULL: none yet) */
    struct cb_resolve_facts {
        const struct cb_target *src;
        uint32_t clear_word[2];
        bool same8;               /* same 8-bit UNORM layout: elements copied as they are */
        bool tiles;               /* cb_resolve_tile's conditions on the two targets */
        bool frag0;               /* cb_resolve_fragment0_tile's */
        uint8_t clear_el[16];     /* a fast-cleared source tile's pixels, as this target stores them */
    } resolve;
};

/* Copy one element of bpe bytes (4 for every 8-bit RGBA target: a fixed
 * size the compiler turns into one move). */
static inline void cb_copy_el(void *dst, const void *src, unsigned bpe)
{
    if (bpe == 4)
        memcpy(dst, src, 4);
    else
        memcpy(dst, src, bpe);
}

/* The 4-byte element el (bytes as stored) in all 64 elements of the
 * 256-byte run at to: a micro tile's plane in one run (2D tiling's usual
 * 32-bit micro tile), sixteen 16-byte stores. */
typedef uint32_t cb_word4 __attribute__((vector_size(4 * sizeof(uint32_t))));   /* GCC / Clang vectors */
static inline void cb_fill_run4(uint8_t *to, const uint8_t el[4])
{
    uint32_t v;
    memcpy(&v, el, 4);
    const cb_word4 four = {v, v, v, v};
    for (unsigned i = 0; i < 16; i++)
        memcpy(to + 16 * i, &four, 16);
}

/* Bit s of a byte moved to bit 4s (one FMask plane's bits to nibbles). */
static inline uint32_t cb_spread_nibbles(unsigned bits)
{
    uint32_t x = bits & 0xFFu;
    x = (x | x << 12) & 0x000F000Fu;
    x = (x | x << 6) & 0x03030303u;
    x = (x | x << 3) & 0x11111111u;
    return x;
}

/* The fragment index of every sample of a pixel, 4 bits each, from its
 * FMask planes: bit plane p starts at bit bit0[p] of fmask[byte[p]].  An
 * index with no colour plane behind it (only EQAA makes those) is taken
 * modulo the sample count (a power of two): every nibble masked. */
static inline uint32_t cb_fmask_frags(const uint8_t *fmask, const uint32_t *byte, const uint8_t *bit0,
                                      unsigned planes, unsigned samples)
{
    uint32_t smask = (1u << samples) - 1u, v = 0;
    for (unsigned p = 0; p < planes; p++)
        v |= cb_spread_nibbles((fmask[byte[p]] >> bit0[p]) & smask) << p;
    return v & (cb_spread_nibbles(smask) * (samples - 1u));
}

/* Read the registers of CB_COLOR<i> into t, with `samples` samples per pixel,
 * mapping its memory (and its FMask / CMask when enabled).  Returns 0, 1 when
 * the target is disabled (format INVALID), -1 with err on a bad setting. */
int cb_target_init(struct vc_render *r, struct cb_target *t, unsigned i, unsigned samples,
                   const struct vc_regs *regs, const struct vc_mem *mem, struct vc_draw_err *err);

/* Store a fragment: colour rgba (as exported) into the samples of pixel
 * (x, y) set in `coverage`, blending per the target's state and going
 * through the CMask / FMask.  Pixels outside the surface are dropped. */
void cb_write(struct cb_target *t, const float blend_const[4], unsigned x, unsigned y,
              uint32_t coverage, const float rgba[4]);
/* cb_write with the second colour of dual-source blending (rgba1: the
 * pixel shader's export 1, or NULL). */
void cb_write_dual(struct cb_target *t, const float blend_const[4], unsigned x, unsigned y,
                   uint32_t coverage, const float rgba[4], const float rgba1[4]);

/* cb_write for fragments in order, usually of one micro tile (a tile's
 * addresses looked up once per run of its fragments; the same stores as
 * cb_write one by one). */
struct cb_fragment {
    unsigned x, y;
    uint32_t coverage;
    const float *rgba;
    const float *src1;            /* dual-source blending's second colour, or NULL */
};
void cb_write_tile(struct cb_target *t, const float blend_const[4], const struct cb_fragment *f, unsigned n);
/* cb_write_tile's whole-tile path: when f[0..n-1] are the 64 pixels of one
 * fast-cleared micro tile inside the surface (any order), every sample
 * covered, written without blending as 8-bit UNORM RGBA, the colours go to
 * plane 0 and the FMask / CMask get what cb_tile_expand gives them: the
 * bytes cb_write would leave, fragment by fragment.  false (nothing
 * written) when that is not the case. */
bool cb_write_whole_tile(struct cb_target *t, const struct cb_fragment *f, unsigned n);
/* cb_write_whole_tile for the 64 pixels of the micro tile at (x0, y0)
 * (8-aligned), every sample covered, pixel (x0 + i % 8, y0 + i / 8)'s
 * colour channel k the bits lane[k][i] (the pixel shader batch's lanes, read
 * in place rather than gathered into fragments).  The same bytes as
 * cb_write_whole_tile on those fragments; false (nothing written) when the
 * whole-tile path does not apply. */
bool cb_write_whole_tile_lanes(struct cb_target *t, unsigned x0, unsigned y0, const uint32_t *const lane[4]);

/* Read the colour of `sample` of pixel (x, y) as floats (RGBA), honouring CMask
 * and FMask. */
void cb_read_sample(const struct cb_target *t, unsigned x, unsigned y, unsigned sample,
                    float rgba[4]);

/* The raw stored bits of `sample` of (x, y) (CMask and FMask honoured); out
 * holds t->bpe bytes. */
void cb_read_sample_raw(const struct cb_target *t, unsigned x, unsigned y, unsigned sample,
                        uint8_t *out);

/* CMask state of the 8x8 tile holding (x, y): true when fast-cleared. */
bool cb_tile_cleared(const struct cb_target *t, unsigned x, unsigned y);
/* Replace the fast-cleared state of tile (x, y) by the clear colour stored
 * in its samples (and FMask), as the CB does before a partial write. */
void cb_tile_expand(struct cb_target *t, unsigned x, unsigned y);
/* Store every sample of (x, y) uncompressed: sample s in plane s, FMask identity. */
void cb_pixel_decompress(struct cb_target *t, unsigned x, unsigned y);

/* The fragment index of every sample of (x, y), 4 bits per sample (FMask on). */
uint32_t cb_fmask_read(const struct cb_target *t, unsigned x, unsigned y);

/* Where sample plane `plane` of pixel (x, y) is stored (through the
 * target's micro-tile address cache; the same as cedar_tile_addr). */
uint8_t *cb_plane_ptr_slow(const struct cb_target *t, unsigned x, unsigned y, unsigned plane);
static inline uint8_t *cb_plane_ptr(const struct cb_target *t, unsigned x, unsigned y, unsigned plane)
{
    const struct cb_addr_cache *c = t->ac;
    if (c->ctile && c->mx == (int)(x >> 3) && c->my == (int)(y >> 3)) {
        unsigned i = cedar_tile_pixel_index(&t->map, x, y);
        return t->mem + c->ctile->run[plane * c->ctile->nrun + t->pix_run[i]] + t->pix_off[i];
    }
    return cb_plane_ptr_slow(t, x, y, plane);
}

/* The exported colour as the CB receives it: through half floats (rounded
 * toward zero) when the target asks for a 16-bit export (export.c). */
void cb_export_convert(const struct cb_target *t, const float in[4], float out[4]);

/* ---- alpha to coverage (cb_alpha.c) ----------------------------------------- */

struct cb_alpha_mask {
    bool on;                      /* DB_ALPHA_TO_MASK.ALPHA_TO_MASK_ENABLE, more than one sample */
    unsigned samples;
    uint8_t offset[4];            /* ALPHA_TO_MASK_OFFSET0..3 (quad position) */
    bool round;                   /* OFFSET_ROUND */
};
void cb_alpha_mask_init(struct cb_alpha_mask *a, const struct vc_regs *regs, unsigned samples);
/* Samples alpha keeps at pixel (x, y) (cb_alpha.c gives the rule). */
unsigned cb_alpha_mask_count(const struct cb_alpha_mask *a, unsigned x, unsigned y, float alpha);
/* coverage with the samples alpha does not keep taken out (unchanged when off). */
uint32_t cb_alpha_mask_apply(const struct cb_alpha_mask *a, unsigned x, unsigned y, float alpha, uint32_t coverage);

/* ---- colour formats (cb_format.c) ------------------------------------------ */

/* The format CB_COLOR*_INFO.FORMAT names, or NULL when the model has none. */
const struct cb_format_desc *cb_format_desc(unsigned format);
/* The RGBA component that stored channel c of a `comps`-channel format
 * holds under COMP_SWAP `swap`. */
unsigned cb_swap_component(unsigned comps, unsigned swap, unsigned c);
/* t's format fields from CB_COLOR*_INFO (format, number type, swap, endian,
 * rounding, export precision).  0, or -1 with the reason in why. */
int cb_format_init(struct cb_target *t, uint32_t info, char *why, size_t whylen);
/* Pack / unpack one element of the target's format. */
void cb_pack(const struct cb_target *t, const float rgba[4], uint8_t *out);
void cb_unpack(const struct cb_target *t, const uint8_t *in, float rgba[4]);
/* Element el with the channels write_mask (RGBA bits) leaves off taken from old. */
void cb_keep_channels(const struct cb_target *t, unsigned write_mask, const uint8_t *old, uint8_t *el);
/* float <-> the small floats of the FLOAT formats (mant / exp bits, a sign
 * bit or none), round to nearest even (cb_format.c says what overflows to). */
uint32_t cb_float_to_small(float v, unsigned mant, unsigned exp, bool sign);
float cb_small_to_float(uint32_t u, unsigned mant, unsigned exp, bool sign);

/* ---- rasteriser (raster.c) ------------------------------------------------- */

/* A vertex in window space, after the viewport transform and snapping. */
struct rs_vertex {
    int64_t x, y;        /* fixed point, rs_state.subpix_bits fractional bits */
    float z, inv_w;
};

struct rs_state {
    /* set-up */
    unsigned subpix_bits;          /* PA_SU_VTX_CNTL.QUANT_MODE */
    unsigned round_mode;           /* PA_SU_VTX_CNTL.ROUND_MODE */
    bool pix_center_half;
    uint32_t vte;                  /* PA_CL_VTE_CNTL */
    float vp_scale[3], vp_offset[3];
    uint32_t su_mode;              /* PA_SU_SC_MODE_CNTL */
    int win_off_x, win_off_y;      /* PA_SC_WINDOW_OFFSET */
    /* scan conversion */
    int sc_x0, sc_y0, sc_x1, sc_y1; /* scissor: pixels [x0, x1) x [y0, y1) */
    unsigned samples;              /* 1 << PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES, or 1 */
    int sample_dx[RS_MAX_SAMPLES], sample_dy[RS_MAX_SAMPLES]; /* 1/16 pixel from centre */
    uint8_t aa_mask[4];            /* PA_SC_AA_MASK per quad position */
    bool per_sample;               /* PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE */
    /* NULL: every block row (8 pixels) is scanned; else the threads sharing
     * a primitive claim its rows one at a time from this counter, which
     * starts at 0 (its first row). */
    unsigned *row_next;
};

int rs_state_init(struct rs_state *s, const struct vc_regs *regs, struct vc_draw_err *err);

/* Clip-space position -> window vertex.  -1 when w is 0 or the result is
 * outside what the fixed-point set-up can hold. */
int rs_vertex_setup(const struct rs_state *s, const float clip[4], struct rs_vertex *out);

/* Per covered pixel: the callback gets the coverage mask (bit per sample)
 * and barycentric weights of vertices 1 and 2 at the pixel centre and at
 * each sample; it returns 0 or -1 (stop). */
struct rs_pixel {
    int x, y;
    uint32_t coverage;
    double center_ij[2];           /* at the pixel centre (may be outside) */
    double centroid_ij[2];         /* at the centroid sample */
    double sample_ij[RS_MAX_SAMPLES][2];
};
typedef int (*rs_pixel_fn)(void *ctx, const struct rs_pixel *px);
/* Optional: an 8x8-aligned block with every sample of every pixel covered,
 * top-left pixel (x, y).  The weight h (0: vertex 1, 1: vertex 2) of the
 * pixel (x + i, y + j) is (double)(e[h] + i * step_x[h] + j * step_y[h]) *
 * inv_area: the edge value the per-pixel path evaluates at that centre, on
 * the same integer grid (so the same value), times the same 1 / area.  The
 * callback returns 1 when it handled the block, 0 to get the pixels one by
 * one (rs_pixel_fn). */
struct rs_block {
    int x, y;
    int64_t e[2], step_x[2], step_y[2];
    double inv_area;
};
typedef int (*rs_block_fn)(void *ctx, const struct rs_block *b);
/* The block's 64 pixel centres' weights, raster order (l = row * 8 +
 * column): lin1[l] = (e[0] + column step_x[0] + row step_y[0]) inv_area,
 * the sum exact (as int64), likewise lin2 with e[1]. */
void rs_block_weights(const struct rs_block *b, double lin1[64], double lin2[64]);

/* Rasterise the triangle v[0..2].  `front` says whether it faces front
 * (computed by the caller with rs_triangle_facing). */
int rs_triangle(const struct rs_state *s, const struct rs_vertex v[3], rs_pixel_fn fn, rs_block_fn block_fn,
                void *ctx);
/* rs_triangle in 2x2 quads, as the hardware shades pixels for the
 * derivatives: fn gets the four pixels (x, y), (x + 1, y), (x, y + 1),
 * (x + 1, y + 1) of each quad (x, y even) with a covered pixel, in the
 * order of the blocks; a pixel that rs_triangle would not give (outside
 * the triangle, the scissor or PA_SC_AA_MASK) comes with coverage 0 and
 * the weights of its centre (a helper pixel); every other pixel exactly as
 * rs_triangle gives it. */
typedef int (*rs_quad_fn)(void *ctx, const struct rs_pixel px[4]);
int rs_triangle_quads(const struct rs_state *s, const struct rs_vertex v[3], rs_quad_fn fn, void *ctx);
/* For the halves {c[0], c[1], c[2]} and {c[2], c[1], c[3]} of an
 * axis-aligned rectangle whose corners are laid out as draw.c lays out a
 * point's (c[1] right of or left of c[0], c[2] below or above it, c[3]
 * opposite), at one sample at the pixel centre, with a pixel box of one
 * pixel (a 1-pixel point at its pixel's centre): the half that may cover
 * that pixel (0 or 1; rs_triangle gives no pixel for the other).  -1: not
 * such a rectangle or state (both halves may cover something). */
int rs_rect_one_pixel_half(const struct rs_state *s, const struct rs_vertex c[4]);
/* The pixels of two triangles (a quad's halves), each once, with the
 * coverage of both; for callers that use neither the weights nor the
 * order of the pixels (the CB_RESOLVE draw): rs_pixel has only x, y and
 * coverage, rs_block only x and y.  The pixels and coverage are the union of
 * what rs_triangle gives for each half, masked as it masks them. */
int rs_pair(const struct rs_state *s, const struct rs_vertex va[3], const struct rs_vertex vb[3], rs_pixel_fn fn,
            rs_block_fn block_fn, void *ctx);
/* Signed area sign: +1 counter-clockwise on screen (y down), -1 clockwise, 0 degenerate. */
int rs_triangle_winding(const struct rs_vertex v[3]);

/* ---- the vertex-reuse model (vgt_reuse.c) ---------------------------------- */

#define VGT_REUSE_MAX 256u     /* VTX_REUSE_DEPTH is 8 bits */

struct vgt_reuse {
    unsigned depth;            /* vertices compared; 0: reuse off */
    uint32_t index[VGT_REUSE_MAX];
    uint64_t invocation[VGT_REUSE_MAX];
    unsigned head, count;      /* FIFO: the newest entry is at head - 1 */
    uint64_t invocations;      /* vertex-shader invocations so far */
};

/* The model as VGT_VERTEX_REUSE_BLOCK_CNTL and VGT_REUSE_OFF set it, empty. */
void vgt_reuse_init(struct vgt_reuse *r, const struct vc_regs *regs);
/* Empty again (the next instance); the invocation count goes on. */
void vgt_reuse_reset(struct vgt_reuse *r);
/* The vertex-shader invocation whose result vertex `index` uses: an earlier
 * one it reuses, or a new one (numbered from 0 in the draw). */
uint64_t vgt_reuse_vertex(struct vgt_reuse *r, uint32_t index);

/* ---- primitive assembly (vgt.c) ------------------------------------------- */

/* VGT_LINE_ADJ / VGT_TRIANGLE_ADJ: a primitive with its adjacent vertices
 * (4 / 6, in the order the geometry shader receives them), assembled only
 * when a GS takes them (VGT_GS_MODE GS_SCENARIO_G). */
/* VGT_PATCH: the HS_NUM_INPUT_CP control points of a patch (DI_PT_PATCH, up
 * to VGT_MAX_PATCH_CP). */
enum vgt_prim_kind { VGT_POINT = 1, VGT_LINE = 2, VGT_TRIANGLE = 3, VGT_RECT = 4, VGT_LINE_ADJ = 5, VGT_TRIANGLE_ADJ = 6,
                     VGT_PATCH = 7 };
#define VGT_MAX_PATCH_CP 32

/* Called once per assembled primitive with the vertex indices (in the order
 * the primitive's vertices are given, provoking-vertex rules aside) and the
 * vertex-shader invocation each vertex's result comes from (the reuse
 * model's numbering: equal numbers are one shader run). */
typedef int (*vgt_prim_fn)(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx,
                           const uint64_t *inv, unsigned n, uint32_t instance);

/* What the VGT counted in a draw (the pipeline-statistics counters). */
struct vgt_counts {
    uint64_t ia_vertices;      /* indices read, restart indices not included */
    uint64_t ia_primitives;    /* primitives assembled, degenerate ones included */
    uint64_t vs_invocations;   /* the reuse model's shader runs */
};

int vgt_run(const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
            vgt_prim_fn fn, void *ctx, struct vgt_counts *counts, struct vc_draw_err *err);

/* vgt_run running the vertex stage in batches: before the primitives of a
 * chunk of indices go to fn, `pre` gets their vertices (n of them: each
 * primitive's in turn, repeats included), so that it can run the shader
 * for those whose results it does not keep yet, at most VGT_VS_BATCH
 * invocations it was not handed before; the caller keeps the results of the `keep` most
 * recent invocations (a cache by invocation number mod keep), and a chunk
 * is cut so that they hold every vertex its primitives use.  fn sees the
 * same primitives in the same order, and the counts are the same, failures
 * included.  Primitive types that keep a vertex longer (fans, polygons,
 * line loops, patches, adjacency into a GS) go one primitive at a time, as
 * with vgt_run. */
#define VGT_VS_BATCH 64
typedef void (*vgt_vertices_fn)(void *ctx, const uint32_t *idx, const uint64_t *inv, unsigned n, uint32_t instance);
int vgt_run_batched(const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
                    vgt_prim_fn fn, vgt_vertices_fn pre, unsigned keep, void *ctx, struct vgt_counts *counts,
                    struct vc_draw_err *err);

/* A cleared tile's element: CB_COLOR*_CLEAR_WORD0/1 in the surface's format,
 * bpe bytes (zero past the eight the registers hold). */
void cb_clear_element(const struct cb_target *t, uint8_t *out);

/* ---- resolve and the other CB modes (resolve.c) ---------------------------- */

/* The resolve's average of 8-bit UNORM samples, as the card's 8x frame shows
 * it (issue 16: all 1,300 partially covered pixels of tests/data/cedar
 * match): each sample s becomes s/255 rounded to nearest with a 12-bit
 * significand (cb_resolve_unorm8_in, in units of 2^-CB_RESOLVE_UNIT_BITS:
 * 1/255's last significand bit is 2^-20), the n values are summed exactly,
 * and the mean goes back as floor(mean * 255 + 1/2) (cb_resolve_unorm8_out).
 * It is (sum + n/2) / n on the bytes except at ties, where the sign of the
 * summed conversion errors decides.  A tie whose errors sum to exactly 0
 * (none in the card's frame) rounds up, as adding a half and dropping the
 * fraction does (the CB's ROUND_BY_HALF mode, D3D's FLOAT -> UNORM rule);
 * ties to even would give the same bytes: the errors cancel only when 255
 * divides the byte sum, which makes such a tie 127.5, and 128 is even. */
#define CB_RESOLVE_UNIT_BITS 20
uint32_t cb_resolve_unorm8_in(uint8_t s);
uint8_t cb_resolve_unorm8_out(uint32_t sum, unsigned n);

/* Pixel (x, y) in CB_RESOLVE mode: average the samples of src into dst. */
void cb_resolve_pixel(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y);
/* The 8x8 tile at (x, y) (multiples of 8) when src's CMask says it is
 * fast-cleared: dst gets the clear colour without reading a sample.
 * Returns 1 when done, 0 when the tile needs the per-pixel path. */
int cb_resolve_cleared_tile(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y);
/* The 8x8 tile at (x, y) (multiples of 8) as cb_resolve_pixel would do its
 * pixels: fast-cleared tiles as above, FMask-compressed 8-bit tiles a pixel
 * at a time through the kept address tables.  1 when done, 0 when the tile
 * needs the per-pixel path. */
int cb_resolve_tile(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y);
/* cb_resolve_tile's copy of micro tile (mx, my) when all its FMask bits are
 * 0 (every sample shows fragment 0): plane 0 copied run by run (same pixel
 * order and runs on both sides, surfaces apart).  ft, sc, dc: the tile's
 * kept addresses.  1 when done, 0 (nothing written) otherwise. */
int cb_resolve_fragment0_tile(const struct cb_target *src, struct cb_target *dst, const struct fmask_tile *ft,
                              const struct color_tile *sc, const struct color_tile *dc);

/* ---- a compute shader's random-access targets (rat.c) ---------------------- */

#define RS_NUM_RAT 12            /* CB_COLOR0..11 may be RATs (regs: CB_TARGETS COUNT) */
/* A dispatch's image RATs as colour targets, set up at their first use. */
struct rat_targets {
    struct cb_target *img[RS_NUM_RAT];
    bool ok[RS_NUM_RAT];          /* img[i] is set up for this dispatch */
};
/* A lane's MEM_RAT operation inst (V_SQ_RAT_INST__*) on CB_COLOR<rat> at
 * index idx with data (RW_GPR) under comp_mask; an _RTN form also writes
 * the element's old value to CB_IMMED<rat>_BASE's buffer at element data[1].
 * 0, or -1 with a reason in msg. */
int rat_op(struct vc_render *r, struct rat_targets *rt, const struct vc_regs *regs, const struct vc_mem *mem,
           unsigned rat, unsigned inst, const uint32_t idx[4], const uint32_t data[4], unsigned comp_mask,
           char *msg, size_t msglen);
/* Forget the targets' set-up (a new dispatch: the registers may have changed). */
void rat_targets_reset(struct rat_targets *rt);
void rat_targets_free(struct rat_targets *rt);

#endif
