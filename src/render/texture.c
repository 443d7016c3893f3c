/* The texture unit: texture resources, samplers and texel reads (texture.h).
 *
 * Resource words (Mesa evergreen_state.c evergreen_fill_tex_resource_words,
 * evergreend.h R_030000..R_03001C): WORD0 DIM, PITCH (pixels / 8 - 1),
 * TEX_WIDTH - 1; WORD1 TEX_HEIGHT - 1, TEX_DEPTH - 1 (3D depth, or the
 * array size for the array dimensions), ARRAY_MODE; WORD2 the base level's
 * address >> 8; WORD4 the number format and the resource swizzle; WORD5
 * BASE_ARRAY / LAST_ARRAY (a layer view: Mesa reads layer L of an array as
 * a 2D view with BASE_ARRAY = LAST_ARRAY = L); WORD6 TILE_SPLIT; WORD7 the
 * data format and the 2D tiling parameters (encoded as in CB_COLOR*_ATTRIB).
 * The surface's height is aligned as libdrm lays textures out
 * (radeon_surface.c: 8 rows for 1D tiling, a macro tile for 2D, none for
 * linear), which is what the slice size and the memory checked depend on.
 *
 * The resource swizzle is applied here, to each texel, and the interpreter
 * gets the identity: Mesa (evergreen_convert_border_color) programs the
 * border colour registers with the view's swizzle already applied, i.e. the
 * border colour is the fetch's result in R, G, B, A order, which it can only
 * be if the swizzle acts on texels before the border is mixed in.  For an
 * integer format Mesa writes the border as the integer divided by the
 * component's largest value; the unit multiplies it back.
 *
 * MSAA textures (Mesa's compressed MSAA texturing): WORD5.LAST_LEVEL is
 * log2(samples), WORD3 the FMask's address >> 8 (0: none), WORD6 bits 0..1
 * its bank height; LD reads sample plane `sample`, LD with INST_MOD 1 the
 * FMask (the fragment index of each sample, 4 bits each).
 *
 * Mip levels (Mesa evergreen_fill_tex_resource_words): WORD0/WORD1 give
 * level 0's size and ARRAY_MODE, WORD2 level 0's address, WORD3
 * (MIP_ADDRESS) level 1's, WORD4 BASE_LEVEL and WORD5 LAST_LEVEL the levels
 * the view exposes.  Levels 1.. follow each other from MIP_ADDRESS as
 * libdrm lays them out (cedar_miptree_layout: power-of-two level sizes,
 * 2D levels smaller than a macro tile 1D-tiled, all layers of a level
 * together).  A layer view of a mipmapped array (a 2D view with BASE_ARRAY
 * > 0 and TEX_DEPTH 0) would need the array's layer count, which the
 * resource does not hold: its levels past 1 are placed as for one layer.
 *
 * Samplers (evergreend.h R_03C000..R_03C008): the address modes, the XY
 * and mip filters, BORDER_COLOR_TYPE (a REGISTER border is the stage's
 * entry for the sampler in the border colour table, struct vc_regs.border,
 * kept by the command processor), MIN_LOD / MAX_LOD (unsigned 4.8 fixed
 * point) and LOD_BIAS (signed 6.8), as Mesa's evergreen_create_sampler_state
 * encodes them, and DEPTH_COMPARE_FUNCTION.  The Z filter, anisotropy and
 * the sampler's FORCE_DEGAMMA are not read.
 *
 * Cube maps (DIM_CUBEMAP): the faces are layers, six per cube (TEX_DEPTH + 1
 * cubes from layer BASE_ARRAY, laid out as a 2D array of layers); the
 * interpreter picks the face (fetch.c).
 *
 * Not modelled (a fault naming them when fetched): endian swapping,
 * UNSIGNED_BIASED components, and the formats tex_format.c lacks
 * (compressed, 3-component, ...).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/bigmem.h"
#include "cedar/regdb.h"
#include "render_priv.h"
#include "texture.h"

/* The pixel, vertex, geometry, hull, local and compute shaders' resources:
 * PS from 0, VS from 176, GS from 336, HS from 496, LS from 656, CS from 816. */
#define TEX_SLOTS V_SQ_FETCH_RESOURCE_BASE__FS

/* The byte runs of level 0's micro tiles (cedar_tile_micro_runs), kept per
 * slot across draws while the slot's layout stays the same: a texel's
 * address is then its run's plus the element's offset in the run instead
 * of the address map's computation per texel.  A tile's entries are
 * filled by the first fetch that reads it (the pixel threads may race to
 * it: they store the same numbers, atomically; entry 0 last). */
#define TEX_RUN_ENTRIES_MAX (UINT64_C(1) << 21)    /* 16 MiB: e.g. 8192 x 8192 texels of one run per tile */

struct tex_runs {
    struct cedar_tile_map map;  /* the layout */
    unsigned slices, nrun, tiles_x, tiles_y;
    unsigned run_shift;         /* log2 of map.run_bytes */
    size_t bytes;
    _Atomic uint64_t *run;      /* [slice][ty][tx][nrun]: address + 1, 0 until filled */
};

/* A draw decodes a slot when a shader first fetches from it: most of the
 * 176 hold no texture or one no shader of the draw reads. */
struct tex_unit {
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct cedar_tiling tiling;
    pthread_mutex_t lock;
    atomic_bool decoded[TEX_SLOTS];
    struct tex_view *view[TEX_SLOTS];   /* allocated at a slot's first decode (~12 KiB each) */
    struct tex_runs *runs[TEX_SLOTS];   /* the view's level-0 runs, or NULL: the address map per texel */
    /* what a slot's texel reader (tex_unit_reader) reads: set with the view */
    struct tex_slot_reader {
        unsigned slot;
        const struct tex_view *v;
        const struct tex_runs *t;
    } reader[TEX_SLOTS];
    /* samplers decoded at their first fetch in the draw, with the slot whose
     * view the border was made for (a fetch through another slot decodes
     * its own) */
    struct tex_samp {
        atomic_bool decoded;
        unsigned slot;
        struct eg_tex_sampler s;
    } samp[V_SQ_SAMPLER_BASE__STAGES * V_SQ_SAMPLER_BASE__PER_STAGE];
};

static int view_fail(struct tex_view *v, unsigned slot, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int view_fail(struct tex_view *v, unsigned slot, const char *fmt, ...)
{
    int n = snprintf(v->err, sizeof v->err, "texture resource %u: ", slot);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->err + n, sizeof v->err - (size_t)n, fmt, ap);
    va_end(ap);
    v->ok = false;
    return -1;
}

static const char *value_name(const char *enum_name, uint32_t v)
{
    const char *n = eg_enum_value_name(eg_enum_find_name(enum_name), v);
    return n ? n : "(unnamed)";
}

static bool tiling_mode(unsigned hw, enum cedar_array_mode *mode)
{
    switch (hw) {
    case V_ARRAY_MODE__ARRAY_LINEAR_GENERAL:
    case V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED:
        *mode = CEDAR_MODE_LINEAR_ALIGNED;
        return true;
    case V_ARRAY_MODE__ARRAY_1D_TILED_THIN1:
        *mode = CEDAR_MODE_1D_THIN;
        return true;
    case V_ARRAY_MODE__ARRAY_2D_TILED_THIN1:
        *mode = CEDAR_MODE_2D_THIN;
        return true;
    default:
        return false;
    }
}

static unsigned align_up(unsigned v, unsigned a)
{
    return (v + a - 1) / a * a;
}

/* The dimension's sizes for the interpreter and the slices it reads. */
static int view_extent(struct tex_view *v, unsigned slot, const uint32_t w[8], unsigned *slices_needed)
{
    unsigned dim = G_SQ_TEX_RESOURCE_WORD0__DIM(w[0]);
    unsigned depth = G_SQ_TEX_RESOURCE_WORD1__TEX_DEPTH(w[1]) + 1;
    unsigned base = G_SQ_TEX_RESOURCE_WORD5__BASE_ARRAY(w[5]), last = G_SQ_TEX_RESOURCE_WORD5__LAST_ARRAY(w[5]);
    v->res.dim = dim;
    v->res.width = G_SQ_TEX_RESOURCE_WORD0__TEX_WIDTH(w[0]) + 1;
    v->res.height = G_SQ_TEX_RESOURCE_WORD1__TEX_HEIGHT(w[1]) + 1;
    switch (dim) {
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA:
        /* one layer: BASE_ARRAY of the surface's slices */
        v->first_slice = base;
        v->res.depth = 1;
        break;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_3D:
        v->first_slice = 0;
        v->res.depth = depth;
        break;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP:
        /* TEX_DEPTH + 1 cubes (Mesa: array_size / 6) of six faces from
         * layer BASE_ARRAY on; LAST_ARRAY is not read: Mesa's cube view of
         * one cube in a 2D array (ARB_texture_view) programs LAST_ARRAY =
         * BASE_ARRAY (evergreen_fill_tex_resource_words: a view of another
         * target with depth 1) and samples all six faces */
        v->first_slice = base;
        v->res.depth = 6 * depth;
        break;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA:
        if (last < base || last >= depth)
            return view_fail(v, slot, "layers %u..%u (BASE_ARRAY..LAST_ARRAY) of an array of %u", base, last, depth);
        v->first_slice = base;
        v->res.depth = last - base + 1;
        break;
    default:
        return view_fail(v, slot, "dimension %s is not modelled", value_name("SQ_TEX_DIM", dim));
    }
    if (dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D || dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY)
        v->res.height = 1;
    *slices_needed = v->first_slice + v->res.depth;
    return 0;
}

/* Rows of a 2D-tiled surface's macro tile. */
static unsigned macro_rows(const struct cedar_surface *s)
{
    return 8 * s->bankh * s->tiling.banks / s->mtilea;
}

/* An MSAA texture's FMask at fbase: laid out as Mesa's r600_texture_get_fmask_info
 * asks libdrm for it (src/layout/fmask.c): the colour surface's pitch, tile
 * split, bank width and macro aspect, 1 byte per pixel for 2 and 4 samples
 * and 4 for 8, its own bank height (WORD6), rows aligned to its macro tile. */
static int view_fmask(struct tex_view *v, unsigned slot, const uint32_t w[8], const struct cedar_surface *color,
                      const struct cedar_tile_opts *opts, uint64_t fbase, const struct vc_mem *mem)
{
    struct cedar_surface fs = *color;
    fs.samples = 1;
    fs.bpe = color->samples == 8 ? 4 : 1;
    fs.bankh = 1u << G_SQ_TEX_RESOURCE_WORD6_MSAA__FMASK_BANK_HEIGHT(w[6]);
    fs.aligned_height = align_up(v->res.height, macro_rows(&fs));
    fs.height = fs.aligned_height;
    struct cedar_tile_opts fopts = *opts;
    fopts.order = CEDAR_MICRO_NON_DISPLAYABLE;
    struct cedar_layout_err lerr = { { 0 } };
    if (cedar_fmask_map_init(&v->fmap, &fs, color->samples, &fopts, &lerr))
        return view_fail(v, slot, "FMask: %s", lerr.msg);
    uint64_t len = (uint64_t)opts->slices * v->fmap.slice_size;
    v->fmask = vc_mem_ptr(mem, fbase, len);
    if (!v->fmask)
        return view_fail(v, slot, "its FMask at 0x%llx (%llu bytes) is not inside one GPU buffer",
                         (unsigned long long)fbase, (unsigned long long)len);
    v->fmask_on = true;
    return 0;
}

/* Levels 1 .. LAST_LEVEL of a texture whose level 0 is s: from MIP_ADDRESS
 * on, as libdrm lays them out after level 0. */
static int view_mips(struct tex_view *v, unsigned slot, const uint32_t w[8], const struct cedar_surface *s,
                     const struct vc_mem *mem)
{
    unsigned dim = v->res.dim, last = v->res.last_level;
    bool array = dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY || dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY;
    unsigned layers = G_SQ_TEX_RESOURCE_WORD1__TEX_DEPTH(w[1]) + 1;
    struct cedar_miptree_req r = {
        .width = v->res.width, .height = v->res.height,
        .depth = dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? v->res.depth : 1,
        .array_size = array ? layers : dim == V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP ? 6 * layers : 1,
        .last_level = last, .bpe = s->bpe, .mode = s->mode,
        .tile_split = s->tile_split, .bankw = s->bankw, .bankh = s->bankh, .mtilea = s->mtilea,
        .tiling = s->tiling,
    };
    struct cedar_miptree mt;
    struct cedar_layout_err lerr = { { 0 } };
    if (cedar_miptree_layout(&r, &mt, &lerr))
        return view_fail(v, slot, "mip levels: %s", lerr.msg);
    uint64_t mip_base = (uint64_t)G_SQ_TEX_RESOURCE_WORD3__MIP_ADDRESS(w[3]) << 8;
    for (unsigned i = 1; i <= last; i++) {
        const struct cedar_mip_level *l = &mt.level[i];
        struct cedar_surface ls = *s;
        ls.mode = l->mode;
        ls.aligned_width = ls.width = l->pitch;
        ls.aligned_height = ls.height = l->rows;
        if (l->mode != CEDAR_MODE_2D_THIN) {
            ls.tile_split = 0;
            ls.bankw = ls.bankh = ls.mtilea = 1;
        }
        struct cedar_tile_opts opts = {
            .slices = l->slices,
            .order = G_SQ_TEX_RESOURCE_WORD0__NON_DISP_TILING_ORDER(w[0]) ? CEDAR_MICRO_NON_DISPLAYABLE
                                                                          : CEDAR_MICRO_DISPLAYABLE,
            .depth_sample_order = (int)G_SQ_TEX_RESOURCE_WORD7__DEPTH_SAMPLE_ORDER(w[7]),
        };
        if (cedar_tile_map_init(&v->lv[i].map, &ls, &opts, &lerr))
            return view_fail(v, slot, "mip level %u: %s", i, lerr.msg);
        uint64_t addr = mip_base + (l->offset - mt.level[1].offset), len = (uint64_t)l->slices * l->slice_size;
        /* checked when a fetch reads the level: the hardware reads a
         * level's memory only then (Mesa's MIP_ADDRESS is always valid) */
        v->lv[i].mem = vc_mem_ptr(mem, addr, len);
        if (!v->lv[i].mem && !v->mip_err[0])
            snprintf(v->mip_err, sizeof v->mip_err,
                     "texture resource %u: mip level %u at 0x%llx (%llu bytes, MIP_ADDRESS 0x%llx) is not inside one "
                     "GPU buffer", slot, i, (unsigned long long)addr, (unsigned long long)len,
                     (unsigned long long)mip_base);
    }
    return 0;
}

static void view_luts(struct tex_view *v);

int tex_view_decode(struct tex_view *v, unsigned slot, const uint32_t w[8], const struct cedar_tiling *tiling,
                    const struct vc_mem *mem)
{
    memset(v, 0, offsetof(struct tex_view, lv));
    if (G_SQ_TEX_RESOURCE_WORD7__TYPE(w[7]) != V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_TEXTURE)
        return view_fail(v, slot, "not a valid texture (TYPE %s)",
                         value_name("SQ_TEX_VTX_TYPE", G_SQ_TEX_RESOURCE_WORD7__TYPE(w[7])));
    unsigned slices = 0;
    if (view_extent(v, slot, w, &slices))
        return -1;
    unsigned dfmt = G_SQ_TEX_RESOURCE_WORD7__DATA_FORMAT(w[7]);
    v->fmt = tex_format_find(dfmt);
    if (!v->fmt)
        return view_fail(v, slot, "data format %s is not modelled", value_name("SQ_DATA_FORMAT", dfmt));
    if (G_SQ_TEX_RESOURCE_WORD4__ENDIAN_SWAP(w[4]) != V_SQ_ENDIAN__ENDIAN_NONE)
        return view_fail(v, slot, "endian swap %s is not modelled",
                         value_name("SQ_ENDIAN", G_SQ_TEX_RESOURCE_WORD4__ENDIAN_SWAP(w[4])));

    /* number format and swizzle */
    const unsigned comp[4] = { G_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_X(w[4]),
                               G_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_Y(w[4]),
                               G_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_Z(w[4]),
                               G_SQ_TEX_RESOURCE_WORD4__FORMAT_COMP_W(w[4]) };
    for (unsigned c = 0; c < 4; c++) {
        if (comp[c] == V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_UNSIGNED_BIASED || comp[c] > 2)
            return view_fail(v, slot, "FORMAT_COMP %s is not modelled", value_name("SQ_FORMAT_COMP", comp[c]));
        v->num.comp[c] = (uint8_t)comp[c];
    }
    v->num.num_format = G_SQ_TEX_RESOURCE_WORD4__NUM_FORMAT_ALL(w[4]);
    if (v->num.num_format > V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_SCALED)
        return view_fail(v, slot, "NUM_FORMAT %u is not a number format", v->num.num_format);
    v->num.srf_mode = G_SQ_TEX_RESOURCE_WORD4__SRF_MODE_ALL(w[4]);
    v->num.degamma = G_SQ_TEX_RESOURCE_WORD4__FORCE_DEGAMMA(w[4]);
    v->int_texels = v->num.num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT;
    const unsigned sel[4] = { G_SQ_TEX_RESOURCE_WORD4__DST_SEL_X(w[4]), G_SQ_TEX_RESOURCE_WORD4__DST_SEL_Y(w[4]),
                              G_SQ_TEX_RESOURCE_WORD4__DST_SEL_Z(w[4]), G_SQ_TEX_RESOURCE_WORD4__DST_SEL_W(w[4]) };
    for (unsigned c = 0; c < 4; c++) {
        if (sel[c] > V_SQ_SEL__SQ_SEL_1)
            return view_fail(v, slot, "DST_SEL %u of component %u is no component select", sel[c], c);
        v->dst_sel[c] = v->res.texel_sel[c] = (uint8_t)sel[c];
        v->res.dst_sel[c] = (uint8_t)c;
    }
    v->res.fixed_depth = !(v->fmt->is_float & 1) && v->num.num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_NORM;
    bool msaa = v->res.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || v->res.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
    if (!msaa) {
        v->res.base_level = G_SQ_TEX_RESOURCE_WORD4__BASE_LEVEL(w[4]);
        v->res.last_level = G_SQ_TEX_RESOURCE_WORD5__LAST_LEVEL(w[5]);
        if (v->res.base_level > v->res.last_level)
            return view_fail(v, slot, "BASE_LEVEL %u past LAST_LEVEL %u", v->res.base_level, v->res.last_level);
    }
    v->res.levels = msaa ? 1 : v->res.last_level - v->res.base_level + 1;
    /* an MSAA texture's LAST_LEVEL is log2(samples) */
    v->res.samples = msaa ? 1u << G_SQ_TEX_RESOURCE_WORD5__LAST_LEVEL(w[5]) : 1;
    if (msaa && (v->res.samples < 2 || v->res.samples > 8))
        return view_fail(v, slot, "%u samples (LAST_LEVEL %u): an MSAA texture has 2, 4 or 8",
                         v->res.samples, G_SQ_TEX_RESOURCE_WORD5__LAST_LEVEL(w[5]));

    /* the surface: its layout as the address map knows it */
    struct cedar_surface s = { 0 };
    unsigned amode = G_SQ_TEX_RESOURCE_WORD1__ARRAY_MODE(w[1]);
    if (!tiling_mode(amode, &s.mode))
        return view_fail(v, slot, "array mode %s is not modelled", value_name("ARRAY_MODE", amode));
    s.aligned_width = (G_SQ_TEX_RESOURCE_WORD0__PITCH(w[0]) + 1) * 8;
    if (v->res.width > s.aligned_width)
        return view_fail(v, slot, "width %u exceeds the pitch of %u texels", v->res.width, s.aligned_width);
    s.bpe = v->fmt->bytes;
    s.samples = v->res.samples;
    if (msaa && s.mode != CEDAR_MODE_2D_THIN)
        return view_fail(v, slot, "an MSAA texture is 2D-tiled, not %s", value_name("ARRAY_MODE", amode));
    s.tiling = *tiling;
    s.tile_split = 64u << G_SQ_TEX_RESOURCE_WORD6__TILE_SPLIT(w[6]);
    s.bankw = 1u << G_SQ_TEX_RESOURCE_WORD7__BANK_WIDTH(w[7]);
    s.bankh = 1u << G_SQ_TEX_RESOURCE_WORD7__BANK_HEIGHT(w[7]);
    s.mtilea = 1u << G_SQ_TEX_RESOURCE_WORD7__MACRO_TILE_ASPECT(w[7]);
    unsigned rows = v->res.height;
    if (s.mode == CEDAR_MODE_2D_THIN) {
        s.tiling.banks = 2u << G_SQ_TEX_RESOURCE_WORD7__NUM_BANKS(w[7]);
        rows = align_up(rows, macro_rows(&s));
    } else {
        s.tile_split = 0;
        s.bankw = s.bankh = s.mtilea = 1;
        if (s.mode == CEDAR_MODE_1D_THIN)
            rows = align_up(rows, 8);
    }
    s.aligned_height = rows;
    s.width = s.aligned_width;
    s.height = s.aligned_height;
    /* DEPTH_SAMPLE_ORDER: a depth or stencil buffer read as a texture (Mesa
     * sets it for every DB-compatible texture): the DB's layout, i.e. the
     * samples of a pixel side by side and the libdrm depth/stencil bank
     * rules (depth.c maps the DB's surfaces the same way). */
    struct cedar_tile_opts opts = {
        .slices = slices,
        .order = G_SQ_TEX_RESOURCE_WORD0__NON_DISP_TILING_ORDER(w[0]) ? CEDAR_MICRO_NON_DISPLAYABLE
                                                                      : CEDAR_MICRO_DISPLAYABLE,
        .depth_sample_order = (int)G_SQ_TEX_RESOURCE_WORD7__DEPTH_SAMPLE_ORDER(w[7]),
    };
    struct cedar_layout_err lerr = { { 0 } };
    if (cedar_tile_map_init(&v->map, &s, &opts, &lerr))
        return view_fail(v, slot, "%s %s surface: %s", value_name("ARRAY_MODE", amode),
                         value_name("SQ_DATA_FORMAT", dfmt), lerr.msg);

    /* every byte of the slices up to the last one read must be GPU memory */
    uint64_t base = (uint64_t)G_SQ_TEX_RESOURCE_WORD2__BASE_ADDRESS(w[2]) << 8;
    uint64_t len = (uint64_t)slices * v->map.slice_size;
    v->mem = vc_mem_ptr(mem, base, len);
    if (!v->mem)
        return view_fail(v, slot, "its texels at 0x%llx (%llu bytes: %ux%u, pitch %u, %s, %u slice(s)) are not inside "
                         "one GPU buffer", (unsigned long long)base, (unsigned long long)len, v->res.width,
                         v->res.height, s.aligned_width, value_name("ARRAY_MODE", amode), slices);
    uint64_t fbase = (uint64_t)G_SQ_TEX_RESOURCE_WORD3__MIP_ADDRESS(w[3]) << 8;
    if (msaa && fbase && view_fmask(v, slot, w, &s, &opts, fbase, mem))
        return -1;
    if (v->res.last_level && view_mips(v, slot, w, &s, mem))
        return -1;
    view_luts(v);
    v->ok = true;
    return 0;
}

/* The view's lookup tables (struct tex_view lut), when its format has
 * them: component c's number for raw value r is what tex_format_decode
 * makes of a texel holding r in that component. */
static void view_luts(struct tex_view *v)
{
    const struct tex_format *f = v->fmt;
    for (unsigned c = 0; c < 4; c++) {
        unsigned sel = v->dst_sel[c];
        v->sel_from[c] = (uint8_t)(sel <= V_SQ_SEL__SQ_SEL_W ? sel : sel == V_SQ_SEL__SQ_SEL_0 ? 4 : 5);
    }
    v->lut_ok = !f->shared_exp && !f->is_float && !v->int_texels && f->bytes <= 4;
    for (unsigned c = 0; v->lut_ok && c < f->comps; c++)
        v->lut_ok = f->bits[c] <= 8;
    for (unsigned c = 0; v->lut_ok && c < f->comps; c++)
        for (uint32_t r = 0; r < 1u << f->bits[c]; r++) {
            uint32_t word = r << f->lo[c];
            const uint8_t b[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24) };
            union eg_vec4 d;
            tex_format_decode(f, &v->num, b, &d);
            v->lut[c][r] = d.f[c];
        }
    v->lut_bytes = v->lut_ok && f->bytes == 4 && f->comps == 4;
    for (unsigned c = 0; v->lut_bytes && c < 4; c++)
        v->lut_bytes = f->lo[c] == 8 * c && f->bits[c] == 8;
}

/* texel_at of a lut_bytes view: component c's number straight into the
 * result components that take it (not through d and from below: the same
 * bits, without the stores and loads of the whole vector). */
static inline void texel_bytes(const struct tex_view *v, const uint8_t *p, union eg_vec4 *out)
{
    for (unsigned c = 0; c < 4; c++) {
        unsigned k = v->sel_from[c];
        out->u[c] = k < 4 ? v->lut_bits[k][p[k]] : k == 4 ? 0 : 0x3F800000u;    /* 0, 1.0f (not INT) */
    }
}

/* The texel at p, decoded and swizzled. */
static void texel_at(const struct tex_view *v, const uint8_t *p, union eg_vec4 *out)
{
    if (v->lut_bytes) {
        texel_bytes(v, p, out);
        return;
    }
    union eg_vec4 d;
    if (v->lut_ok) {
        const struct tex_format *f = v->fmt;
        uint32_t word = p[0];
        for (unsigned i = 1; i < f->bytes; i++)
            word |= (uint32_t)p[i] << (8 * i);
        d = (union eg_vec4){ .u = { 0, 0, 0, 0x3F800000u } };   /* absent: 0, W 1.0 */
        for (unsigned c = 0; c < f->comps; c++)
            d.f[c] = v->lut[c][(word >> f->lo[c]) & ((1u << f->bits[c]) - 1)];
    } else {
        tex_format_decode(v->fmt, &v->num, p, &d);
    }
    const uint32_t from[6] = { d.u[0], d.u[1], d.u[2], d.u[3], 0, v->int_texels ? 1u : 0x3F800000u /* 1 or 1.0f */ };
    for (unsigned c = 0; c < 4; c++)
        out->u[c] = from[v->sel_from[c]];
}

void tex_view_texel(const struct tex_view *v, unsigned x, unsigned y, unsigned z, unsigned sample,
                    union eg_vec4 *out)
{
    texel_at(v, v->mem + cedar_tile_addr(&v->map, x, y, sample, v->first_slice + z), out);
}

void tex_view_texel_level(const struct tex_view *v, unsigned level, unsigned x, unsigned y, unsigned z,
                          union eg_vec4 *out)
{
    if (!level) {
        tex_view_texel(v, x, y, z, 0, out);
        return;
    }
    const struct tex_level *l = &v->lv[level];
    texel_at(v, l->mem + cedar_tile_addr(&l->map, x, y, 0, v->first_slice + z), out);
}

uint32_t tex_view_fmask(const struct tex_view *v, unsigned x, unsigned y, unsigned z)
{
    uint32_t frags = 0;
    if (!v->fmask_on) {
        for (unsigned s = 0; s < v->res.samples; s++)
            frags |= s << (4 * s);
        return frags;
    }
    /* Bit p of every sample's fragment index sits in one byte: bit0 + s of
     * the byte cedar_fmask_bit gives for sample 0 (an element holds one bit
     * per sample, 4 or 8 bits, never across a byte), so one address per
     * plane instead of one per plane and sample. */
    for (unsigned p = 0; p < cedar_fmask_planes(&v->fmap); p++) {
        uint64_t byte;
        unsigned bit0;
        cedar_fmask_bit(&v->fmap, x, y, 0, p, v->first_slice + z, &byte, &bit0);
        unsigned b = v->fmask[byte] >> bit0;
        for (unsigned s = 0; s < v->res.samples; s++)
            frags |= ((b >> s) & 1u) << (4 * s + p);
    }
    return frags;
}

static unsigned xy_filter(unsigned f)
{
    /* anisotropic filtering is not modelled: its forms filter as their base */
    switch (f) {
    case V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR:
    case V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_ANISO_BILINEAR:
        return V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR;
    default:
        return V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT;
    }
}

void tex_sampler_decode(const uint32_t w[3], const uint32_t reg[4], const struct tex_view *v,
                        struct eg_tex_sampler *out)
{
    memset(out, 0, sizeof *out);
    out->clamp_x = G_SQ_TEX_SAMPLER_WORD0__CLAMP_X(w[0]);
    out->clamp_y = G_SQ_TEX_SAMPLER_WORD0__CLAMP_Y(w[0]);
    out->clamp_z = G_SQ_TEX_SAMPLER_WORD0__CLAMP_Z(w[0]);
    out->mag_filter = xy_filter(G_SQ_TEX_SAMPLER_WORD0__XY_MAG_FILTER(w[0]));
    out->min_filter = xy_filter(G_SQ_TEX_SAMPLER_WORD0__XY_MIN_FILTER(w[0]));
    out->mip_filter = G_SQ_TEX_SAMPLER_WORD0__MIP_FILTER(w[0]);
    out->compare = G_SQ_TEX_SAMPLER_WORD0__DEPTH_COMPARE_FUNCTION(w[0]);
    out->cube_wrap = !G_SQ_TEX_SAMPLER_WORD2__DISABLE_CUBE_WRAP(w[2]);
    out->min_lod = (float)G_SQ_TEX_SAMPLER_WORD1__MIN_LOD(w[1]) / 256.0f;
    out->max_lod = (float)G_SQ_TEX_SAMPLER_WORD1__MAX_LOD(w[1]) / 256.0f;
    out->lod_bias = (float)G_SQ_TEX_SAMPLER_WORD2__LOD_BIAS(w[2]) / 256.0f; /* signed, 8 fraction bits */
    float b[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    switch (G_SQ_TEX_SAMPLER_WORD0__BORDER_COLOR_TYPE(w[0])) {
    case V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_OPAQUE_BLACK:
        b[3] = 1.0f;
        break;
    case V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_OPAQUE_WHITE:
        b[0] = b[1] = b[2] = b[3] = 1.0f;
        break;
    case V_SQ_TEX_BORDER_COLOR__SQ_TEX_BORDER_COLOR_REGISTER:
        memcpy(b, reg, sizeof b);
        break;
    default:
        break; /* transparent black */
    }
    for (unsigned c = 0; c < 4; c++) {
        unsigned sel = v->dst_sel[c];
        if (!v->int_texels || sel > V_SQ_SEL__SQ_SEL_W) {
            out->border.f[c] = b[c];
            continue;
        }
        /* an integer format: the border times the component's largest value */
        unsigned n = sel < v->fmt->comps ? v->fmt->bits[sel] : 32;
        bool sgn = v->num.comp[sel] == V_SQ_FORMAT_COMP__SQ_FORMAT_COMP_SIGNED;
        double max = sgn ? (double)((UINT64_C(1) << (n - 1)) - 1) : (double)((UINT64_C(1) << n) - 1);
        double i = nearbyint((double)b[c] * max);
        double lo = sgn ? -max - 1.0 : 0.0;
        i = isnan(i) ? 0.0 : i < lo ? lo : i > max ? max : i;
        out->border.u[c] = sgn ? (uint32_t)(int32_t)i : (uint32_t)i;
    }
}

struct tex_unit *tex_unit_new(void)
{
    struct tex_unit *u = calloc(1, sizeof(struct tex_unit));
    if (u && pthread_mutex_init(&u->lock, NULL)) {
        free(u);
        return NULL;
    }
    return u;
}

static void runs_free(struct tex_runs *t)
{
    if (t) {
        cedar_big_free(t->run, t->bytes);
        free(t);
    }
}

void tex_unit_free(struct tex_unit *u)
{
    if (!u)
        return;
    pthread_mutex_destroy(&u->lock);
    for (unsigned slot = 0; slot < TEX_SLOTS; slot++) {
        free(u->view[slot]);
        runs_free(u->runs[slot]);
    }
    free(u);
}

/* The runs table for a freshly decoded view of `slot`: the kept one when
 * its layout is the view's, a new empty one, or none (a linear or an
 * unusual layout, a table too large, out of memory). */
static void slot_runs(struct tex_unit *u, unsigned slot, const struct tex_view *v)
{
    struct tex_runs *t = u->runs[slot];
    unsigned slices = v->first_slice + v->res.depth;
    if (t && t->slices == slices && memcmp(&t->map, &v->map, sizeof t->map) == 0)
        return;
    runs_free(t);
    u->runs[slot] = NULL;
    uint64_t run[CEDAR_MICRO_RUNS_MAX];
    const struct cedar_tile_map *m = &v->map;
    unsigned nrun = v->ok ? cedar_tile_micro_runs(m, 0, 0, 0, run, CEDAR_MICRO_RUNS_MAX) : 0;
    if (!nrun || (m->run_bytes & (m->run_bytes - 1)) || m->width % 8 || m->height % 8)
        return;
    uint64_t entries = (uint64_t)slices * (m->width / 8) * (m->height / 8) * nrun;
    if (!entries || entries > TEX_RUN_ENTRIES_MAX || !(t = calloc(1, sizeof *t)))
        return;
    t->bytes = (size_t)entries * sizeof *t->run;
    t->run = cedar_big_alloc(t->bytes);     /* zero: nothing filled */
    if (!t->run) {
        free(t);
        return;
    }
    memcpy(&t->map, m, sizeof t->map);     /* padding too: compared whole above */
    t->slices = slices;
    t->nrun = nrun;
    t->tiles_x = m->width / 8;
    t->tiles_y = m->height / 8;
    t->run_shift = (unsigned)__builtin_ctz(m->run_bytes);
    u->runs[slot] = t;
}

/* The offset of sample `sample` of texel (x, y) of slice `slice` of level
 * 0 through the runs table: what cedar_tile_addr gives. */
static inline uint64_t runs_addr(const struct tex_runs *t, unsigned x, unsigned y, unsigned sample, unsigned slice)
{
    const struct cedar_tile_map *m = &t->map;
    size_t tile = ((size_t)slice * t->tiles_y + (y >> 3)) * t->tiles_x + (x >> 3);
    _Atomic uint64_t *r = &t->run[tile * t->nrun];
    if (!atomic_load_explicit(&r[0], memory_order_acquire)) {
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        cedar_tile_micro_runs(m, x >> 3, y >> 3, slice, run, CEDAR_MICRO_RUNS_MAX);
        for (unsigned k = t->nrun; k-- > 1;)
            atomic_store_explicit(&r[k], run[k] + 1, memory_order_relaxed);
        atomic_store_explicit(&r[0], run[0] + 1, memory_order_release);
    }
    uint32_t e = cedar_tile_element_offset(m, x, y, sample);
    unsigned k = t->nrun > 1 ? e >> t->run_shift : 0;  /* e / run_bytes, a power of two */
    return atomic_load_explicit(&r[k], memory_order_relaxed) - 1 + (e & (m->run_bytes - 1));
}

void tex_unit_begin(struct tex_unit *u, const struct vc_regs *regs, const struct vc_mem *mem,
                    const struct cedar_tiling *tiling)
{
    u->regs = regs;
    u->mem = mem;
    u->tiling = *tiling;
    for (unsigned slot = 0; slot < TEX_SLOTS; slot++)
        atomic_store_explicit(&u->decoded[slot], false, memory_order_relaxed);
    for (unsigned i = 0; i < sizeof u->samp / sizeof u->samp[0]; i++)
        atomic_store_explicit(&u->samp[i].decoded, false, memory_order_relaxed);
}

/* Slot `slot`'s view, decoded by the first fetch from it in this draw
 * (the pixel threads may race to it: one decodes under the lock); NULL
 * when out of memory. */
static const struct tex_view *slot_view(struct tex_unit *u, unsigned slot)
{
    if (!atomic_load_explicit(&u->decoded[slot], memory_order_acquire)) {
        pthread_mutex_lock(&u->lock);
        if (!u->view[slot])
            u->view[slot] = malloc(sizeof(struct tex_view));
        if (u->view[slot] && !atomic_load_explicit(&u->decoded[slot], memory_order_relaxed)) {
            tex_view_decode(u->view[slot], slot, &u->regs->resource[slot * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS],
                            &u->tiling, u->mem);
            slot_runs(u, slot, u->view[slot]);
            u->reader[slot] = (struct tex_slot_reader){ slot, u->view[slot], u->runs[slot] };
            atomic_store_explicit(&u->decoded[slot], true, memory_order_release);
        }
        pthread_mutex_unlock(&u->lock);
    }
    return u->view[slot];
}

static const struct tex_view *unit_view(struct tex_unit *u, unsigned slot, char *msg, size_t msglen)
{
    if (slot >= TEX_SLOTS) {
        rs_msg_fail(msg, msglen,
                    "texture resource %u: only the pixel, vertex, geometry, hull, local and compute shaders' resources (0..%u) are modelled", slot,
                    TEX_SLOTS - 1);
        return NULL;
    }
    const struct tex_view *v = slot_view(u, slot);
    if (!v) {
        rs_msg_fail(msg, msglen, "texture resource %u: out of memory", slot);
        return NULL;
    }
    if (!v->ok) {
        rs_msg_fail(msg, msglen, "%s", v->err);
        return NULL;
    }
    return v;
}

int tex_unit_resource(struct tex_unit *u, unsigned slot, struct eg_tex_resource *out, char *msg,
                      size_t msglen)
{
    const struct tex_view *v = unit_view(u, slot, msg, msglen);
    if (!v)
        return -1;
    *out = v->res;
    return 0;
}

int tex_unit_sampler(struct tex_unit *u, unsigned sampler, unsigned slot, struct eg_tex_sampler *out,
                     char *msg, size_t msglen)
{
    const struct tex_view *v = unit_view(u, slot, msg, msglen);
    if (!v)
        return -1;
    const unsigned per_stage = V_SQ_SAMPLER_BASE__PER_STAGE;
    if (sampler >= V_SQ_SAMPLER_BASE__STAGES * per_stage)
        return rs_msg_fail(msg, msglen, "sampler %u does not exist", sampler);
    struct tex_samp *c = &u->samp[sampler];
    if (atomic_load_explicit(&c->decoded, memory_order_acquire) && c->slot == slot) {
        *out = c->s;
        return 0;
    }
    tex_sampler_decode(&u->regs->sampler[sampler * V_SQ_STAGE_LAYOUT__SAMPLER_DWORDS],
                       u->regs->border[sampler / per_stage][sampler % per_stage], v, out);
    if (!atomic_load_explicit(&c->decoded, memory_order_acquire)) {
        pthread_mutex_lock(&u->lock);
        if (!atomic_load_explicit(&c->decoded, memory_order_relaxed)) {
            c->slot = slot;
            c->s = *out;
            atomic_store_explicit(&c->decoded, true, memory_order_release);
        }
        pthread_mutex_unlock(&u->lock);
    }
    return 0;
}

/* Whether (x, y, z) is outside level 0 of slot `slot`'s view v (the
 * fault in msg). */
static bool outside(const struct tex_view *v, unsigned slot, int x, int y, int z, char *msg, size_t msglen)
{
    if (x >= 0 && y >= 0 && z >= 0 && (unsigned)x < v->res.width && (unsigned)y < v->res.height &&
        (unsigned)z < v->res.depth)
        return false;
    rs_msg_fail(msg, msglen, "texture resource %u: texel (%d, %d, %d) outside its %ux%ux%u texels", slot, x, y, z,
                v->res.width, v->res.height, v->res.depth);
    return true;
}

/* Sample `sample` of texel (x, y, z) of level 0 of slot `slot`'s view v
 * (runs t: its kept runs, or NULL), with the unit's faults. */
static int view_texel(const struct tex_view *v, const struct tex_runs *t, unsigned slot, int x, int y, int z,
                      unsigned sample, union eg_vec4 *out, char *msg, size_t msglen)
{
    if (outside(v, slot, x, y, z, msg, msglen))
        return -1;
    if (sample >= v->res.samples)
        return rs_msg_fail(msg, msglen, "texture resource %u: sample %u of %u", slot, sample, v->res.samples);
    if (t)
        texel_at(v, v->mem + runs_addr(t, (unsigned)x, (unsigned)y, sample, v->first_slice + (unsigned)z), out);
    else
        tex_view_texel(v, (unsigned)x, (unsigned)y, (unsigned)z, sample, out);
    return 0;
}

/* Texel (x, y, z) of mip level `level` of slot `slot`'s view v, with the
 * unit's faults. */
static int view_texel_level(const struct tex_view *v, unsigned slot, unsigned level, int x, int y, int z,
                            union eg_vec4 *out, char *msg, size_t msglen)
{
    if (level < v->res.base_level || level > v->res.last_level)
        return rs_msg_fail(msg, msglen, "texture resource %u: mip level %u outside levels %u..%u", slot, level,
                           v->res.base_level, v->res.last_level);
    unsigned w = v->res.width >> level ? v->res.width >> level : 1;
    unsigned h = v->res.height >> level ? v->res.height >> level : 1;
    unsigned d = v->res.depth;
    if (v->res.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D)
        d = d >> level ? d >> level : 1;
    if (x < 0 || y < 0 || z < 0 || (unsigned)x >= w || (unsigned)y >= h || (unsigned)z >= d)
        return rs_msg_fail(msg, msglen, "texture resource %u: texel (%d, %d, %d) outside level %u's %ux%ux%u texels",
                           slot, x, y, z, level, w, h, d);
    if (level && !v->lv[level].mem)
        return rs_msg_fail(msg, msglen, "%s", v->mip_err);
    tex_view_texel_level(v, level, (unsigned)x, (unsigned)y, (unsigned)z, out);
    return 0;
}

/* The FMask of texel (x, y, z) of slot `slot`'s view v, with the unit's
 * faults. */
static int unit_view_fmask(const struct tex_view *v, unsigned slot, int x, int y, int z, uint32_t *out, char *msg,
                      size_t msglen)
{
    if (outside(v, slot, x, y, z, msg, msglen))
        return -1;
    if (v->res.samples < 2)
        return rs_msg_fail(msg, msglen, "texture resource %u: an FMask fetch from a texture of one sample", slot);
    *out = tex_view_fmask(v, (unsigned)x, (unsigned)y, (unsigned)z);
    return 0;
}

int tex_unit_texel(struct tex_unit *u, unsigned slot, int x, int y, int z, unsigned sample,
                   union eg_vec4 *out, char *msg, size_t msglen)
{
    const struct tex_view *v = unit_view(u, slot, msg, msglen);
    return v ? view_texel(v, u->runs[slot], slot, x, y, z, sample, out, msg, msglen) : -1;
}

int tex_unit_texel_level(struct tex_unit *u, unsigned slot, unsigned level, int x, int y, int z,
                         union eg_vec4 *out, char *msg, size_t msglen)
{
    const struct tex_view *v = unit_view(u, slot, msg, msglen);
    return v ? view_texel_level(v, slot, level, x, y, z, out, msg, msglen) : -1;
}

int tex_unit_fmask(struct tex_unit *u, unsigned slot, int x, int y, int z, uint32_t *out, char *msg,
                   size_t msglen)
{
    const struct tex_view *v = unit_view(u, slot, msg, msglen);
    return v ? unit_view_fmask(v, slot, x, y, z, out, msg, msglen) : -1;
}

/* The reader's calls (struct eg_texel_reader): tex_unit_texel /
 * _texel_level / _fmask of the slot, its view found once. */
static int reader_read(const void *ctx, unsigned level, int x, int y, int z, unsigned sample, union eg_vec4 *out,
                       char *msg, size_t msglen)
{
    const struct tex_slot_reader *r = ctx;
    if (level)
        return view_texel_level(r->v, r->slot, level, x, y, z, out, msg, msglen);
    return view_texel(r->v, r->t, r->slot, x, y, z, sample, out, msg, msglen);
}

/* reader_read for a view with kept runs: a texel of level 0 inside the
 * view straight through them, anything else as reader_read. */
static int reader_read_runs(const void *ctx, unsigned level, int x, int y, int z, unsigned sample,
                            union eg_vec4 *out, char *msg, size_t msglen)
{
    const struct tex_slot_reader *r = ctx;
    const struct tex_view *v = r->v;
    if (level || x < 0 || y < 0 || z < 0 || (unsigned)x >= v->res.width || (unsigned)y >= v->res.height ||
        (unsigned)z >= v->res.depth || sample >= v->res.samples)
        return reader_read(ctx, level, x, y, z, sample, out, msg, msglen);
    const uint8_t *p = v->mem + runs_addr(r->t, (unsigned)x, (unsigned)y, sample, v->first_slice + (unsigned)z);
    if (v->lut_bytes)
        texel_bytes(v, p, out);
    else
        texel_at(v, p, out);
    return 0;
}

/* read_many for a view with kept runs: every address first, then every
 * texel, so that the texels' loads overlap. */
static int reader_read_many(const void *ctx, unsigned n, const int32_t *x, const int32_t *y, const int32_t *z,
                            union eg_vec4 *out)
{
    const struct tex_slot_reader *r = ctx;
    const struct tex_view *v = r->v;
    uint64_t at[EG_TEX_READ_MANY_MAX];
    if (n > EG_TEX_READ_MANY_MAX)
        return 1;
    for (unsigned i = 0; i < n; i++) {
        if (x[i] < 0 || y[i] < 0 || z[i] < 0 || (unsigned)x[i] >= v->res.width || (unsigned)y[i] >= v->res.height ||
            (unsigned)z[i] >= v->res.depth)
            return 1;
        at[i] = runs_addr(r->t, (unsigned)x[i], (unsigned)y[i], 0, v->first_slice + (unsigned)z[i]);
    }
    if (v->lut_bytes)
        for (unsigned i = 0; i < n; i++)
            texel_bytes(v, v->mem + at[i], &out[i]);
    else
        for (unsigned i = 0; i < n; i++)
            texel_at(v, v->mem + at[i], &out[i]);
    return 0;
}

static int reader_fmask(const void *ctx, int x, int y, int z, uint32_t *out, char *msg, size_t msglen)
{
    const struct tex_slot_reader *r = ctx;
    return unit_view_fmask(r->v, r->slot, x, y, z, out, msg, msglen);
}

int tex_unit_reader(struct tex_unit *u, unsigned slot, struct eg_texel_reader *out, char *msg, size_t msglen)
{
    if (!unit_view(u, slot, msg, msglen))
        return -1;
    const struct tex_slot_reader *r = &u->reader[slot];
    *out = (struct eg_texel_reader){ .ctx = r, .read = r->t ? reader_read_runs : reader_read, .fmask = reader_fmask,
                                     .read_many = r->t ? reader_read_many : NULL };
    return 0;
}
