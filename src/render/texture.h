/* The texture unit (texture.c, tex_format.c): texture resources and samplers
 * decoded from the register file (SET_RESOURCE's SQ_TEX_RESOURCE_WORD0..7,
 * SET_SAMPLER's SQ_TEX_SAMPLER_WORD0..2, the border colour table), texels
 * read from GPU memory through the tiling address map (src/tiling) and
 * converted to what a TEX instruction returns.  The shader interpreter
 * (src/shader/fetch.c) does the addressing modes and the filtering; it
 * reaches this unit through its tex_resource / tex_sampler / texel
 * callbacks and, once per TEX instruction, a texel reader (tex_unit_reader)
 * for its lanes' texels (shade.c).
 *
 * What is modelled: the mip levels (BASE_LEVEL .. LAST_LEVEL, laid out as
 * libdrm does: cedar_miptree_layout) of 1D, 2D, 3D, 1D-array, 2D-array
 * and cube-map textures (cube arrays included), linear, 1D- and 2D-tiled (THIN1), MSAA textures with
 * their FMask (2D_MSAA, 2D_ARRAY_MSAA), the layer views
 * Mesa makes (BASE_ARRAY .. LAST_ARRAY); the formats of tex_format.c with
 * FORMAT_COMP / NUM_FORMAT / SRF_MODE / FORCE_DEGAMMA and the resource
 * swizzle; the border colours.  A resource the unit cannot read (another
 * dimension, format or layout, texels outside GPU memory) is a fault naming it when a shader fetches from it.
 */
#ifndef CEDAR_RENDER_TEXTURE_H
#define CEDAR_RENDER_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/layout.h"
#include "cedar/shader.h"
#include "cedar/tiling.h"
#include "cedar/vc_hw.h"

/* ---- texel formats (tex_format.c) ------------------------------------------ */

/* Where the components of a FMT_* texel are: data component c (X, Y, Z, W)
 * is bits lo[c] .. lo[c] + bits[c] - 1 of the texel read as a little-endian
 * number (the format's name lists the components from the high bits down:
 * FMT_1_5_5_5 has X in bits 0..4 and W in bit 15). */
struct tex_format {
    unsigned data_format;       /* V_SQ_DATA_FORMAT__FMT_* */
    uint8_t bytes;              /* per texel */
    uint8_t comps;              /* X.. present */
    uint8_t lo[4], bits[4];
    uint8_t is_float;           /* bit c: component c is a float of bits[c] bits */
    bool shared_exp;            /* FMT_5_9_9_9_SHAREDEXP: W is the exponent of X, Y, Z */
};

/* The format's layout, or NULL for one the unit does not read. */
const struct tex_format *tex_format_find(unsigned data_format);

/* How fixed-point components become numbers (SQ_TEX_RESOURCE_WORD4). */
struct tex_numfmt {
    uint8_t comp[4];            /* V_SQ_FORMAT_COMP__* per data component */
    unsigned num_format;        /* V_SQ_NUM_FORMAT__* (for every component) */
    unsigned srf_mode;          /* V_SQ_SRF_MODE__* (signed NORM) */
    bool degamma;               /* FORCE_DEGAMMA: X, Y, Z from sRGB to linear */
};

/* One texel's data components X, Y, Z, W (absent ones 0, W 1; integer 1
 * for NUM_FORMAT_INT): floats, or integer bits for NUM_FORMAT_INT.
 * texel holds f->bytes bytes. */
void tex_format_decode(const struct tex_format *f, const struct tex_numfmt *n, const uint8_t *texel,
                       union eg_vec4 *out);

/* An sRGB-encoded value in [0, 1] to linear (IEC 61966-2-1). */
float tex_srgb_to_linear(float c);

/* ---- resources and samplers (texture.c) --------------------------------------- */

#define TEX_ERR_MAX 200

/* A decoded texture resource. */
struct tex_view {
    bool ok;                    /* false: err says why it cannot be fetched */
    char err[TEX_ERR_MAX];
    struct eg_tex_resource res; /* for the interpreter (its swizzle the identity: see texture.c) */
    const struct tex_format *fmt;
    struct tex_numfmt num;
    uint8_t dst_sel[4];         /* the resource swizzle, applied to each texel here */
    bool int_texels;            /* NUM_FORMAT_INT */
    struct cedar_tile_map map;
    unsigned first_slice;       /* the slice texel z = 0 reads (BASE_ARRAY) */
    const uint8_t *mem;         /* slices 0 .. first_slice + res.depth - 1 */
    bool fmask_on;              /* an MSAA texture with an FMask (WORD3 != 0) */
    struct cedar_tile_map fmap;
    const uint8_t *fmask;       /* the FMask's slices 0 .. first_slice + res.depth - 1 */
    char mip_err[TEX_ERR_MAX];  /* why a level's mem is NULL (not GPU memory) */
    /* A format whose components are fixed-point numbers of at most 8 bits
     * (UNORM / SNORM / SCALED, sRGB included; not INT): each component's
     * number for each raw value, made with tex_format_decode when the view
     * is decoded, so a texel is a few table lookups (lut_ok), the same
     * numbers as decoding it. */
    bool lut_ok;
    bool lut_bytes;             /* lut_ok, four components, component c in byte c (8_8_8_8) */
    union {
        float lut[4][256];
        uint32_t lut_bits[4][256];  /* the same numbers' bits */
    };
    /* where each result component comes from after the resource swizzle:
     * 0..3 the data component, 4 the constant 0, 5 the constant 1 */
    uint8_t sel_from[4];
    /* mip levels 1 .. res.last_level (level 0 is map / mem above); kept
     * last: a decode clears only what comes before */
    struct tex_level {
        struct cedar_tile_map map;
        const uint8_t *mem;     /* every slice / layer of the level; NULL: see mip_err */
    } lv[CEDAR_MAX_MIP_LEVELS];
};

/* Decode SQ_TEX_RESOURCE_WORD0..7 w of resource `slot` (for messages);
 * tiling: the GPU's pipes, banks and interleave.  0, or -1 with v->err set
 * (and v->ok false). */
int tex_view_decode(struct tex_view *v, unsigned slot, const uint32_t w[8], const struct cedar_tiling *tiling,
                    const struct vc_mem *mem);

/* Sample `sample` of texel (x, y, z) of a decoded view, inside it (x <
 * width, y < height, z < depth, sample < samples), after the resource
 * swizzle. */
void tex_view_texel(const struct tex_view *v, unsigned x, unsigned y, unsigned z, unsigned sample,
                    union eg_vec4 *out);

/* Texel (x, y, z) of mip level `level` (res.base_level .. res.last_level),
 * inside that level (max(1, size >> level) texels; array layers are not
 * minified), after the resource swizzle. */
void tex_view_texel_level(const struct tex_view *v, unsigned level, unsigned x, unsigned y, unsigned z,
                          union eg_vec4 *out);

/* The fragment index of each sample of an MSAA texel, 4 bits per sample
 * (the identity without an FMask; 0 in the nibbles past the samples). */
uint32_t tex_view_fmask(const struct tex_view *v, unsigned x, unsigned y, unsigned z);

/* Decode SQ_TEX_SAMPLER_WORD0..2 w as it applies to view v: address modes,
 * filters (the anisotropic ones as their point / bilinear base), and the
 * border texel from BORDER_COLOR_TYPE (reg: the border colour table entry
 * for BORDER_COLOR_REGISTER). */
void tex_sampler_decode(const uint32_t w[3], const uint32_t reg[4], const struct tex_view *v,
                        struct eg_tex_sampler *out);

/* The unit for one draw: a texture resource of the pixel and vertex
 * shaders' ranges is decoded when a shader first fetches from it in the
 * draw (under the unit's lock: the fetches may run on several threads). */
struct tex_unit;
struct tex_unit *tex_unit_new(void);
void tex_unit_free(struct tex_unit *u);
void tex_unit_begin(struct tex_unit *u, const struct vc_regs *regs, const struct vc_mem *mem,
                    const struct cedar_tiling *tiling);
/* The interpreter's callbacks (struct eg_shader_env) over the unit. */
int tex_unit_resource(struct tex_unit *u, unsigned slot, struct eg_tex_resource *out, char *msg,
                      size_t msglen);
int tex_unit_sampler(struct tex_unit *u, unsigned sampler, unsigned slot, struct eg_tex_sampler *out,
                     char *msg, size_t msglen);
int tex_unit_texel(struct tex_unit *u, unsigned slot, int x, int y, int z, unsigned sample,
                   union eg_vec4 *out, char *msg, size_t msglen);
int tex_unit_texel_level(struct tex_unit *u, unsigned slot, unsigned level, int x, int y, int z,
                         union eg_vec4 *out, char *msg, size_t msglen);
int tex_unit_fmask(struct tex_unit *u, unsigned slot, int x, int y, int z, uint32_t *out, char *msg,
                   size_t msglen);
/* The texel_reader callback: slot's view and runs found once, the reads
 * those of tex_unit_texel (level 0), tex_unit_texel_level and
 * tex_unit_fmask; valid until the next tex_unit_begin. */
int tex_unit_reader(struct tex_unit *u, unsigned slot, struct eg_texel_reader *out, char *msg, size_t msglen);

#endif
