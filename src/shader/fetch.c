/* Vertex fetch and texture sampling for the interpreter.
 *
 * Modelled: VTX FETCH / SEMANTIC with the instruction's or the resource's
 * format, offset, stride, endian swap (the formats and their conversion:
 * vtx_format.c); an element past the resource's size reads as zero bytes
 * (a w the format lacks is 1), as the hardware's range check does.
 * TEX: see the TEX section below. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cedar/regdb.h"
#include "cedar/vtx_format.h"
#include "eg_regs.h"
#include "interp.h"

/* Apply SQ_INST_SEL selects sel[4] of value v to register dst (MASK: keep). */
static void write_sel(union eg_vec4 *dst, const union eg_vec4 *v, const unsigned sel[4], bool int_one)
{
    if (sel[0] == V_SQ_INST_SEL__X && sel[1] == V_SQ_INST_SEL__Y && sel[2] == V_SQ_INST_SEL__Z &&
        sel[3] == V_SQ_INST_SEL__W) {
        *dst = *v;   /* every component its own */
        return;
    }
    union eg_vec4 r = *dst;
    for (int c = 0; c < 4; c++) {
        switch (sel[c]) {
        case V_SQ_INST_SEL__X: case V_SQ_INST_SEL__Y: case V_SQ_INST_SEL__Z: case V_SQ_INST_SEL__W:
            r.u[c] = v->u[sel[c]];
            break;
        case V_SQ_INST_SEL__ZERO: r.u[c] = 0; break;
        case V_SQ_INST_SEL__ONE: r.u[c] = int_one ? 1u : eg_f2u(1.0f); break;
        default: break;     /* MASK (and the reserved 6): not written */
        }
    }
    *dst = r;
}

/* ---------------------------------------------------------------- VTX */

int eg_vtx_prepare(const struct eg_shader_env *env, unsigned res_base, const uint32_t w[4], struct eg_vtx_prep *p,
                   char *msg, size_t msglen)
{
    unsigned inst = G_SQ_VTX_WORD0__VTX_INST(w[0]);
    if (inst != V_SQ_VTX_INST__FETCH && inst != V_SQ_VTX_INST__SEMANTIC) {
        snprintf(msg, msglen, "unsupported VTX_INST %u", inst);
        return -1;
    }
    if (G_SQ_VTX_WORD0__SRC_REL(w[0]) || (inst == V_SQ_VTX_INST__FETCH && G_SQ_VTX_WORD1_GPR__DST_REL(w[1]))) {
        snprintf(msg, msglen, "unsupported relative GPR addressing in a vertex fetch");
        return -1;
    }
    p->env = env;
    p->writes = true;
    if (inst == V_SQ_VTX_INST__SEMANTIC) {
        unsigned id = G_SQ_VTX_WORD1_SEM__SEMANTIC_ID(w[1]);
        int entry = -1;
        for (int i = 0; i < 32 && entry < 0; i++)
            if ((env->vtx_semantic_valid >> i & 1u) && (env->vtx_semantic[i] & 0xFFu) == id)
                entry = i;
        if (entry < 0) {
            p->writes = false;  /* no table entry: the fetch writes nothing */
            return 0;
        }
        p->dst_gpr = (unsigned)entry + 1;
    } else {
        p->dst_gpr = G_SQ_VTX_WORD1_GPR__DST_GPR(w[1]);
    }
    if (!env->vtx_resource || !env->mem) {
        snprintf(msg, msglen, "vertex fetch without a resource callback or memory");
        return -1;
    }
    p->res = res_base + G_SQ_VTX_WORD0__BUFFER_ID(w[0]);
    struct eg_vtx_resource r;
    if (env->vtx_resource(env->ctx, p->res, &r, msg, msglen))
        return -1;
    unsigned fmt;
    struct eg_vtx_numfmt nf;
    p->endian = G_SQ_VTX_WORD2__ENDIAN_SWAP(w[2]);
    if (G_SQ_VTX_WORD1_GPR__USE_CONST_FIELDS(w[1])) {
        fmt = r.data_format, p->endian = r.endian_swap;
        nf = (struct eg_vtx_numfmt){ r.num_format, r.format_comp, r.srf_mode };
    } else {
        fmt = G_SQ_VTX_WORD1_GPR__DATA_FORMAT(w[1]);
        nf = (struct eg_vtx_numfmt){ G_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(w[1]),
                                     G_SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL(w[1]), G_SQ_VTX_WORD1_GPR__SRF_MODE_ALL(w[1]) };
    }
    const struct eg_vtx_format *vf = eg_vtx_format_find(fmt);
    const char *why = eg_vtx_format_refusal_of(vf, nf.num_format);
    if (why) {
        const struct eg_enum *df = eg_enum_find_name("SQ_DATA_FORMAT"), *nm = eg_enum_find_name("SQ_NUM_FORMAT");
        const char *fn = df ? eg_enum_value_name(df, fmt) : NULL, *nn = nm ? eg_enum_value_name(nm, nf.num_format) : NULL;
        snprintf(msg, msglen, "vertex fetch of %s (%u) %s from resource %u cannot be fetched: %s", fn ? fn : "?", fmt,
                 nn ? nn : "?", p->res, why);
        return -1;
    }
    eg_vtx_conv_init(&p->cv, vf, &nf);
    p->nbytes = vf->bytes;
    p->src_gpr = G_SQ_VTX_WORD0__SRC_GPR(w[0]);
    p->src_sel = G_SQ_VTX_WORD0__SRC_SEL_X(w[0]);
    p->base = r.base;
    p->size = r.size;
    p->stride = G_SQ_VTX_WORD2__CONST_BUF_NO_STRIDE(w[2]) ? 0 : r.stride;
    p->offset = G_SQ_VTX_WORD2__OFFSET(w[2]);
    /* every element inside the resource is inside that buffer too, at the
     * same distance from base (cedar/vc_hw.h: a range inside one buffer) */
    p->host = vc_mem_ptr(env->mem, r.base, r.size);
    p->sel[0] = G_SQ_VTX_WORD1_GPR__DST_SEL_X(w[1]);
    p->sel[1] = G_SQ_VTX_WORD1_GPR__DST_SEL_Y(w[1]);
    p->sel[2] = G_SQ_VTX_WORD1_GPR__DST_SEL_Z(w[1]);
    p->sel[3] = G_SQ_VTX_WORD1_GPR__DST_SEL_W(w[1]);
    p->int_one = eg_vtx_fetch_int(vf, nf.num_format);
    return 0;
}

int eg_vtx_lane(const struct eg_vtx_prep *p, uint32_t index, union eg_vec4 *dst, char *msg, size_t msglen)
{
    uint64_t off = (uint64_t)index * p->stride + p->offset;
    union eg_vec4 v;
    uint8_t buf[16] = { 0 };    /* out of the resource: zero bytes */
    const uint8_t *e = buf;
    if (off + p->nbytes <= p->size) {
        e = p->host ? p->host + off : vc_mem_ptr(p->env->mem, p->base + off, p->nbytes);
        if (!e) {
            snprintf(msg, msglen, "vertex fetch of resource %u at 0x%llx (%u bytes) is outside GPU memory", p->res,
                     (unsigned long long)(p->base + off), p->nbytes);
            return -1;
        }
        if (p->endian != V_SQ_ENDIAN__ENDIAN_NONE) {
            memcpy(buf, e, p->nbytes);
            eg_vtx_endian_swap(buf, p->nbytes, p->endian);
            e = buf;
        }
    }
    eg_vtx_conv_run(&p->cv, e, &v);
    write_sel(dst, &v, p->sel, p->int_one);
    return 0;
}

int eg_exec_vtx(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, const uint32_t w[4],
                char *msg, size_t msglen)
{
    struct eg_vtx_prep p;
    if (eg_vtx_prepare(env, res_base, w, &p, msg, msglen))
        return -1;
    if (!p.writes)
        return 0;
    return eg_vtx_lane(&p, gpr[p.src_gpr].u[p.src_sel], &gpr[p.dst_gpr], msg, msglen);
}

/* ---------------------------------------------------------------- scratch
 *
 * READ_SCRATCH (Mesa sfn LoadFromScratch: ELEM_SIZE 3, 32_32_32_32 read as
 * bits): element ARRAY_BASE (+ SRC_GPR.SRC_SEL_X when INDEXED, as a signed
 * integer) and the BURST_COUNT following into DST_GPR and the GPRs after it,
 * through DST_SEL.  An element outside the lane's scratch reads as zeros
 * (what the card reads past its ring is not documented). */
int eg_exec_scratch_read(union eg_vec4 *gpr, const union eg_vec4 *scratch, const uint32_t w[4], char *msg,
                         size_t msglen)
{
    if (G_SQ_MEM_RD_WORD0__MEM_OP(w[0]) != V_SQ_MEM_OP__READ_SCRATCH) {
        snprintf(msg, msglen, "unsupported memory read MEM_OP %u", G_SQ_MEM_RD_WORD0__MEM_OP(w[0]));
        return -1;
    }
    if (G_SQ_MEM_RD_WORD0__ELEM_SIZE(w[0]) != 3 || G_SQ_MEM_RD_WORD0__SRC_REL(w[0]) ||
        G_SQ_MEM_RD_WORD1__DST_REL(w[1])) {
        snprintf(msg, msglen, "unsupported READ_SCRATCH form (ELEM_SIZE %u, relative GPRs %u/%u)",
                 G_SQ_MEM_RD_WORD0__ELEM_SIZE(w[0]), G_SQ_MEM_RD_WORD0__SRC_REL(w[0]),
                 G_SQ_MEM_RD_WORD1__DST_REL(w[1]));
        return -1;
    }
    int64_t e = G_SQ_MEM_RD_WORD2__ARRAY_BASE(w[2]);
    if (G_SQ_MEM_RD_WORD0__INDEXED(w[0]))
        e += (int32_t)gpr[G_SQ_MEM_RD_WORD0__SRC_GPR(w[0])].u[G_SQ_MEM_RD_WORD0__SRC_SEL_X(w[0])];
    const unsigned sel[4] = { G_SQ_MEM_RD_WORD1__DST_SEL_X(w[1]), G_SQ_MEM_RD_WORD1__DST_SEL_Y(w[1]),
                              G_SQ_MEM_RD_WORD1__DST_SEL_Z(w[1]), G_SQ_MEM_RD_WORD1__DST_SEL_W(w[1]) };
    unsigned dst = G_SQ_MEM_RD_WORD1__DST_GPR(w[1]);
    for (unsigned b = 0; b <= G_SQ_MEM_RD_WORD0__BURST_COUNT(w[0]); b++, e++) {
        if (dst + b >= 128) {
            snprintf(msg, msglen, "READ_SCRATCH into R%u", dst + b);
            return -1;
        }
        union eg_vec4 v = { .u = { 0, 0, 0, 0 } };
        if (e >= 0 && e < EG_SCRATCH_ELEMS)
            v = scratch[e];
        write_sel(&gpr[dst + b], &v, sel, true);
    }
    return 0;
}

/* ---------------------------------------------------------------- TEX
 *
 * The texture instructions as Mesa's sfn emits them (sfn_instr_tex.cpp,
 * LowerTexToBackend): coordinates x, y, z (an array's layer in z, 1D
 * arrays included, rounded by the shader and marked unnormalized), the
 * explicit LOD or the bias in w (SAMPLE_L / _LB), the depth reference in w
 * (SAMPLE_C, SAMPLE_C_LZ) or z (SAMPLE_C_L / _C_LB); LD: integer x, y, z,
 * the level (from BASE_LEVEL) in w; an MSAA LD: the sample in w.  The
 * instruction's OFFSET_X/Y/Z are in half texels (Mesa doubles the GLSL
 * offset: TexInstr::get_offset).
 *
 * Level of detail (OpenGL 4.6 8.14): SAMPLE / SAMPLE_C / SAMPLE_LB take the
 * implicit LOD (eg_tex_lod) from the derivatives of the coordinates across
 * the quad, one LOD per quad: the top-left pixel's differences to its right
 * and lower neighbours, as GET_GRADIENTS' coarse form gives them (a lone
 * lane: zero derivatives, -inf, and MIN_LOD decides); SAMPLE_G / SAMPLE_C_G
 * take the derivatives SET_GRADIENTS_H / _V left in the lane; SAMPLE_L
 * takes w; SAMPLE_LB adds w to the implicit LOD; SAMPLE_LZ is level
 * BASE_LEVEL with no bias.  Derivatives of normalized coordinates are
 * scaled by the BASE_LEVEL size, of unnormalized ones (rectangles) not; the
 * layer of an array takes no part (1D and 1D arrays: one dimension, 2D, 2D
 * arrays and cube faces: two, 3D: three).  The
 * sampler's LOD_BIAS is added; LOD > 0 minifies (XY_MIN_FILTER), else
 * magnifies; then the LOD is clamped to [MIN_LOD, MAX_LOD].  MIP_FILTER NONE reads
 * BASE_LEVEL, POINT the nearest level (d = base + ceil(lod + 0.5) - 1 past
 * lod 0.5), LINEAR blends floor(lod) and the next; levels stop at
 * LAST_LEVEL.
 *
 * SAMPLE_C*: each texel read is replaced by the comparison of the reference
 * with its depth (DEPTH_COMPARE_FUNCTION, reference first: LESS passes when
 * ref < texel; compare_texel), before filtering: a bilinear or mipmapped
 * shadow lookup blends comparison results (percentage-closer filtering, as
 * AMD's texture units do; OpenGL 4.6 8.23.1 allows it).  The reference is
 * clamped to [0, 1] for a fixed-point depth format (8.23.1).
 * GATHER4 (INST_MOD: the component): the four texels of the bilinear
 * footprint in the order x = (i1, j0), y = (i0, j1), z = (i1, j1),
 * w = (i0, j0) -- the order Mesa's destination swizzle (1, 2, 0, 3) on
 * Evergreen turns into OpenGL's.  GET_NUMBER_OF_SAMPLES: the count in w
 * (Mesa reads it with DST_SEL (W, mask, mask, mask)).
 *
 *
 * Derivatives (GET_GRADIENTS_H / _V, Mesa's dFdx / dFdy): the source
 * components' difference between the right and the left pixel (H) or the
 * lower and the upper pixel (V) of the quad, y down; INST_MOD 1 (Mesa's
 * "fine") takes the lane's own row / column, INST_MOD 0 the quad's top row /
 * left column for every lane (sfn_instr_alu.cpp emit_tex_fdd sets INST_MOD
 * for the _fine NIR ops only).  SET_GRADIENTS_H / _V keep the source in the
 * lane for SAMPLE_G*; neither reads a resource.
 *
 * Cube maps: Mesa turns the direction into CUBE's face coordinates
 * (sc / |2 ma| + 1.5, tc / |2 ma| + 1.5: [1, 2] across the face, OpenGL 4.6
 * 8.13's (s_face + 1, t_face + 1)) and the face in z (cube_layer); the unit
 * reads x - 1, y - 1 as normalized coordinates of that face's layer, each
 * face addressed on its own by the sampler's modes when DISABLE_CUBE_WRAP is
 * set (Mesa: not seamless), else bilinear footprints reach across edges
 * and corners (cube_texel), the LOD from the face
 * coordinates as for a 2D texture.  Where a quad's pixels see different
 * faces, and for SAMPLE_G's gradients (derivatives of the direction), the
 * derivatives are those of the direction taken on the face (OpenGL 4.6
 * 8.13; cube_quad_diff, cube_face_grad): how the unit itself does either
 * is not documented.
 *
 * Address modes: WRAP / MIRROR / CLAMP_LAST_TEXEL / MIRROR_ONCE_LAST_TEXEL
 * / CLAMP_*BORDER / the half-border forms (see half_border).  GET_LOD: see
 * query_lod.  Not modelled (a fault): SAMPLE_G_LB / SAMPLE_C_G_LB,
 * SET_TEXTURE_OFFSETS, GATHER4_O*. */

/* Texel coordinate i in [0, size) per address mode, or -1 for the border.
 * 64-bit, so the bilinear neighbour (+1) and the instruction's offset of a
 * coordinate at the end of the int range cannot overflow. */
static int wrap(int64_t i, int64_t size, unsigned mode)
{
    if (i >= 0 && i < size)
        return (int)i;  /* every mode's own texel (the common case, without the division) */
    switch (mode) {
    case V_SQ_TEX_CLAMP__SQ_TEX_WRAP: {
        int64_t m = i % size;
        return (int)(m < 0 ? m + size : m);
    }
    case V_SQ_TEX_CLAMP__SQ_TEX_MIRROR: {
        int64_t period = 2 * size, m = i % period;
        if (m < 0)
            m += period;
        return (int)(m < size ? m : period - 1 - m);
    }
    case V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_LAST_TEXEL:
        if (i < 0)
            i = -1 - i;
        return (int)(i >= size ? size - 1 : i);
    case V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER:
    case V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER:
    case V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER:
    case V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_BORDER:
        if (mode == V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER || mode == V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_BORDER)
            if (i < 0)
                i = -1 - i;
        return i < 0 || i >= size ? -1 : (int)i;
    default:    /* CLAMP_LAST_TEXEL */
        return (int)(i < 0 ? 0 : i >= size ? size - 1 : i);
    }
}

/* Size of mip level `level` of a dimension: halved per level, at least 1. */
static unsigned level_size(unsigned size, unsigned level)
{
    return level < 32 && size >> level ? size >> level : 1;
}

/* One TEX instruction's fetch state. */
struct tex_fetch {
    const struct eg_shader_env *env;
    const struct eg_texel_reader *rd;   /* the resource's reader, or NULL: env's texel callbacks */
    unsigned res;
    const struct eg_tex_resource *tr;
    struct eg_tex_sampler s;
    unsigned level;             /* the level being read */
    unsigned size[3];           /* its texels per dimension */
    bool compare;               /* SAMPLE_C*: texels become comparison results */
    float ref;
    char *msg;
    size_t msglen;
};

/* The texels per dimension of mip level `level` (array layers are not
 * minified). */
static void level_dims(const struct eg_tex_resource *tr, unsigned level, unsigned size[3])
{
    size[0] = level_size(tr->width, level);
    size[1] = level_size(tr->height, level);
    size[2] = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? level_size(tr->depth, level) : tr->depth;
}

static void set_level(struct tex_fetch *f, unsigned level)
{
    f->level = level;
    level_dims(f->tr, level, f->size);
}

/* Texel (x, y, z) of mip level `level` of resource res, inside the level
 * (sample `sample` of level 0): through the resource's reader rd, else
 * env's texel / texel_level callbacks. */
static int read_texel(const struct eg_shader_env *env, const struct eg_texel_reader *rd, unsigned res, unsigned level,
                      int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg, size_t msglen)
{
    if (rd)
        return rd->read(rd->ctx, level, x, y, z, sample, out, msg, msglen);
    if (!level)
        return env->texel(env->ctx, res, x, y, z, sample, out, msg, msglen);
    if (!env->texel_level) {
        snprintf(msg, msglen, "texture resource %u: mip level %u without a texel_level callback", res, level);
        return -1;
    }
    return env->texel_level(env->ctx, res, level, x, y, z, out, msg, msglen);
}

/* The prepared instruction's texel reader, or NULL (env's callbacks). */
static inline const struct eg_texel_reader *prep_reader(const struct eg_tex_prep *p)
{
    return p->rd.read ? &p->rd : NULL;
}

static bool depth_compare(unsigned func, float ref, float t)
{
    switch (func) {
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_LESS: return ref < t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_EQUAL: return ref == t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_LESSEQUAL: return ref <= t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_GREATER: return ref > t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_NOTEQUAL: return ref != t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_GREATEREQUAL: return ref >= t;
    case V_SQ_TEX_DEPTH_COMPARE__SQ_TEX_DEPTH_COMPARE_ALWAYS: return true;
    default: return false;  /* NEVER */
    }
}

/* SAMPLE_C*: the texel's depth, the data format's X (found where the
 * resource swizzle the texel callbacks applied put it), against the
 * reference; the result, 1.0 or 0.0, replaces the texel's data components,
 * so the swizzle's constants 0 and 1 stay (Mesa's DEPTH_TEXTURE_MODE
 * LUMINANCE is the swizzle X, X, X, 1: the result in r, g, b and alpha 1). */
static int compare_texel(const struct tex_fetch *f, union eg_vec4 *t)
{
    const uint8_t *sel = f->tr->texel_sel;
    int depth = -1;
    bool data = false;
    for (int c = 3; c >= 0; c--) {
        if (sel[c] == V_SQ_SEL__SQ_SEL_X)
            depth = c;
        data = data || sel[c] <= V_SQ_SEL__SQ_SEL_W;
    }
    if (!data)
        return 0;
    if (depth < 0) {
        snprintf(f->msg, f->msglen, "texture resource %u: a depth comparison through a resource swizzle without X",
                 f->res);
        return -1;
    }
    float c = depth_compare(f->s.compare, f->ref, t->f[depth]) ? 1.0f : 0.0f;
    for (int k = 0; k < 4; k++)
        if (sel[k] <= V_SQ_SEL__SQ_SEL_W)
            t->f[k] = c;
    return 0;
}

/* Texel (x, y, z) of the current level under sampler modes `s`. */
static int texel(struct tex_fetch *f, const struct eg_tex_sampler *s, int64_t x, int64_t y, int64_t z,
                 union eg_vec4 *out)
{
    int wx = wrap(x, f->size[0], s->clamp_x), wy = wrap(y, f->size[1], s->clamp_y);
    int wz = wrap(z, f->size[2], s->clamp_z);
    int r;
    if (wx < 0 || wy < 0 || wz < 0) {
        *out = s->border;
        r = 0;
    } else {
        r = read_texel(f->env, f->rd, f->res, f->level, wx, wy, wz, 0, out, f->msg, f->msglen);
    }
    return r || !f->compare ? r : compare_texel(f, out);
}

/* floorf(v) as a texel coordinate.  Converting a NaN or a float outside the
 * int range to an integer is undefined in C: NaN gives 0 (what the card
 * reads for one is not documented) and larger magnitudes stop at +-2^31,
 * already outside every texture, so each address mode still sees an edge
 * or the border. */
static int64_t texel_coord(float v)
{
    if (!(v > -0x1p31f && v < 0x1p31f))     /* NaN, or floorf(v) at or past +-2^31 */
        return isnan(v) ? 0 : v > 0 ? INT64_C(1) << 31 : -(INT64_C(1) << 31);
    /* floorf(v) without the library's rounding: the truncation (exact, a
     * float's integer part is a float) one less for a negative fraction */
    int64_t i = (int64_t)v;
    return (float)i > v ? i - 1 : i;
}

static float coord_value(const union eg_vec4 *g, unsigned sel)
{
    if (sel <= V_SQ_INST_SEL__W)
        return g->f[sel];
    return sel == V_SQ_INST_SEL__ONE ? 1.0f : 0.0f;
}

/* The half-border modes (Mesa's GL_CLAMP and GL_MIRROR_CLAMP_EXT): the
 * coordinate, in texels, is clamped to [0, size] (after mirroring once)
 * before filtering, as OpenGL 2.1's CLAMP clamps s to [0, 1] (3.8.7): a
 * point sample never reaches the border, a bilinear one weighs it at most
 * a half. */
static bool half_border(unsigned mode)
{
    return mode == V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_HALF_BORDER || mode == V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER;
}

static float half_border_coord(float u, unsigned size, unsigned mode)
{
    if (mode == V_SQ_TEX_CLAMP__SQ_TEX_MIRROR_ONCE_HALF_BORDER && u < 0.0f)
        u = -u;
    return u < 0.0f ? 0.0f : u > (float)size ? (float)size : u;
}

/* A point sample of a half-border mode: u is in [0, size], and u = size
 * reads the last texel. */
static unsigned point_mode(unsigned mode)
{
    return half_border(mode) ? V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL : mode;
}

/* The layer of an array texture: round(r) clamped to the layers, whatever
 * the address mode (OpenGL 4.6 core, 8.14.2: layer = clamp(floor(r + 0.5),
 * 0, d - 1)). */
static int64_t array_layer(float r, unsigned layers)
{
    int64_t l = texel_coord(r + 0.5f);
    return l < 0 ? 0 : l >= (int64_t)layers ? (int64_t)layers - 1 : l;
}

/* The layer of a cube map's face: z is face + 8 * cube (Mesa's lowering of
 * cube coordinates, sfn_nir_lower_tex.cpp r600_nir_lower_cube_to_2darray:
 * the face from CUBE, the cube of an array times 8), faces 6 and 7 (no
 * face) read face 5 (the document gives none; chosen), the layer clamped
 * to the view's. */
/* The face of cube-map coordinate z, as cube_layer reads it. */
static unsigned cube_face_of(float z)
{
    int64_t l = texel_coord(z + 0.5f);
    unsigned face = l < 0 ? 0u : (unsigned)(l & 7);
    return face > 5 ? 5 : face;
}

static int64_t cube_layer(float z, unsigned layers)
{
    int64_t l = texel_coord(z + 0.5f);
    if (l < 0)
        l = 0;
    int64_t face = l & 7;
    l = (l >> 3) * 6 + (face > 5 ? 5 : face);
    return l >= (int64_t)layers ? (int64_t)layers - 1 : l;
}

/* GET_TEXTURE_RESINFO: the size of level BASE_LEVEL + lod (width, height,
 * depth halved per level and at least 1; array layers are not: a 1D
 * array's in y, a 2D array's in z) and the level count. */
static void resinfo(const struct eg_tex_resource *tr, int32_t lod, union eg_vec4 *v)
{
    unsigned l = tr->base_level + (lod < 0 ? 0 : lod > 31 ? 31 : (unsigned)lod);
    v->u[0] = level_size(tr->width, l);
    if (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY) {
        v->u[1] = tr->depth;
        v->u[2] = 1;
    } else {
        v->u[1] = level_size(tr->height, l);
        v->u[2] = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? level_size(tr->depth, l) : tr->depth;
    }
    v->u[3] = tr->levels ? tr->levels : 1;
}

/* LD from an MSAA texture: texel (x, y) of layer z (2D_ARRAY_MSAA), sample
 * w (src: the operands after SRC_SEL); INST_MOD 1 reads the FMask instead:
 * x gets the fragment index of every sample, 4 bits each (Mesa sfn_instr_tex.cpp lower_txf_ms: the
 * shader then fetches sample (fmask >> 4s) & 15).  Outside the texture or
 * its samples: zeros. */
static int msaa_ld(const struct eg_tex_prep *p, const union eg_vec4 *src, const int offs[3], union eg_vec4 *v,
                   char *msg, size_t msglen)
{
    const struct eg_tex_resource *tr = &p->tr;
    const struct eg_shader_env *env = p->env;
    const struct eg_texel_reader *rd = prep_reader(p);
    int64_t x = (int64_t)(int32_t)src->u[0] + offs[0];
    int64_t y = (int64_t)(int32_t)src->u[1] + offs[1];
    int64_t z = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA ? (int64_t)(int32_t)src->u[2] : 0;
    uint32_t sample = src->u[3];
    memset(v, 0, sizeof *v);
    if (x < 0 || y < 0 || z < 0 || x >= tr->width || y >= tr->height || z >= tr->depth)
        return 0;
    if (G_SQ_TEX_WORD0__INST_MOD(p->w[0]) == 1) {
        if (rd)
            return rd->fmask(rd->ctx, (int)x, (int)y, (int)z, &v->u[0], msg, msglen);
        if (!env->tex_fmask) {
            snprintf(msg, msglen, "FMask fetch without an FMask callback");
            return -1;
        }
        return env->tex_fmask(env->ctx, p->res, (int)x, (int)y, (int)z, &v->u[0], msg, msglen);
    }
    if (sample >= tr->samples)
        return 0;
    return read_texel(env, rd, p->res, 0, (int)x, (int)y, (int)z, sample, v, msg, msglen);
}

/* LD of a single-sample texture: integer texel coordinates in the source's
 * bits (src: after SRC_SEL), the level from BASE_LEVEL in w; outside the
 * level: zeros (what the border of CLAMP_BORDER with a transparent black
 * border gives). */
static int plain_ld(const struct eg_tex_prep *p, const union eg_vec4 *src, const int offs[3], union eg_vec4 *v,
                    char *msg, size_t msglen)
{
    const struct eg_tex_resource *tr = &p->tr;
    int32_t ix = (int32_t)src->u[0], iy = (int32_t)src->u[1], iz = (int32_t)src->u[2], lod = (int32_t)src->u[3];
    memset(v, 0, sizeof *v);
    if (lod < 0 || (int64_t)tr->base_level + lod > tr->last_level)
        return 0;
    unsigned level = tr->base_level + (unsigned)lod, size[3];
    level_dims(tr, level, size);
    int64_t x = (int64_t)ix + offs[0], y = (int64_t)iy + offs[1], z = 0;
    if (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D || tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY)
        y = 0;
    if (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY || tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY)
        z = iz;
    else if (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D)
        z = (int64_t)iz + offs[2];
    if (x < 0 || y < 0 || z < 0 || x >= size[0] || y >= size[1] || z >= size[2])
        return 0;
    return read_texel(p->env, prep_reader(p), p->res, level, (int)x, (int)y, (int)z, 0, v, msg, msglen);
}

/* Seamless cube-map filtering (DISABLE_CUBE_WRAP clear; OpenGL 4.6
 * 8.13.1): a footprint texel (i, j) past an edge of face `layer` is read
 * from the face across that edge: its centre as a direction (the inverse
 * of CUBE's face mapping, alu_ops.c cube) chooses the face and texel again;
 * past a corner it is the average of the three texels meeting there. */
static void cube_dir(unsigned face, float sc, float tc, float d[3])
{
    switch (face) {
    case 0: d[0] = 1; d[1] = -tc; d[2] = -sc; break;
    case 1: d[0] = -1; d[1] = -tc; d[2] = sc; break;
    case 2: d[0] = sc; d[1] = 1; d[2] = tc; break;
    case 3: d[0] = sc; d[1] = -1; d[2] = -tc; break;
    case 4: d[0] = sc; d[1] = -tc; d[2] = 1; break;
    default: d[0] = -sc; d[1] = -tc; d[2] = -1; break;
    }
}

/* The face a direction selects and its s_face, t_face in [0, 1] (OpenGL
 * 4.6 table 8.19, ties as CUBE breaks them: z, then y). */
static unsigned cube_face(const float d[3], float st[2])
{
    float a[3] = { fabsf(d[0]), fabsf(d[1]), fabsf(d[2]) };
    int axis = a[2] >= a[0] && a[2] >= a[1] ? 2 : a[1] >= a[0] ? 1 : 0;
    bool neg = d[axis] < 0;
    float sc, tc;
    if (axis == 0) {
        sc = neg ? d[2] : -d[2];
        tc = -d[1];
    } else if (axis == 1) {
        sc = d[0];
        tc = neg ? -d[2] : d[2];
    } else {
        sc = neg ? -d[0] : d[0];
        tc = -d[1];
    }
    st[0] = 0.5f * (sc / a[axis] + 1.0f);
    st[1] = 0.5f * (tc / a[axis] + 1.0f);
    return 2u * (unsigned)axis + neg;
}

static int cube_texel(struct tex_fetch *f, int64_t i, int64_t j, int64_t layer, union eg_vec4 *out)
{
    int64_t n = f->size[0], cube = layer - layer % 6;
    bool out_i = i < 0 || i >= n, out_j = j < 0 || j >= n;
    struct eg_tex_sampler edge = f->s;
    edge.clamp_x = edge.clamp_y = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_LAST_TEXEL;
    if (!out_i && !out_j)
        return texel(f, &edge, i, j, layer, out);
    if (out_i && out_j) {
        union eg_vec4 t[3];
        int64_t ci = i < 0 ? 0 : n - 1, cj = j < 0 ? 0 : n - 1;
        if (texel(f, &edge, ci, cj, layer, &t[0]) || cube_texel(f, i, cj, layer, &t[1]) ||
            cube_texel(f, ci, j, layer, &t[2]))
            return -1;
        for (int c = 0; c < 4; c++)
            out->f[c] = (t[0].f[c] + t[1].f[c] + t[2].f[c]) / 3.0f;
        return 0;
    }
    float d[3];
    cube_dir((unsigned)(layer % 6), 2.0f * ((float)i + 0.5f) / (float)n - 1.0f,
             2.0f * ((float)j + 0.5f) / (float)n - 1.0f, d);
    float st[2];
    unsigned face = cube_face(d, st);
    return texel(f, &edge, texel_coord(st[0] * (float)n), texel_coord(st[1] * (float)n), cube + face, out);
}

/* The four texels of the bilinear footprint around u (texels) and their
 * weights' fractions. */
static int footprint(struct tex_fetch *f, const float u[2], int64_t z, union eg_vec4 q[4], float *ax, float *ay)
{
    float fx = u[0] - 0.5f, fy = u[1] - 0.5f;
    int64_t x0 = texel_coord(fx), y0 = texel_coord(fy);
    *ax = fx - (float)x0;
    *ay = fy - (float)y0;
    bool seamless = f->tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP && f->s.cube_wrap;
    for (int k = 0; k < 4; k++)     /* (i0,j0), (i1,j0), (i0,j1), (i1,j1) */
        if (seamless ? cube_texel(f, x0 + (k & 1), y0 + (k >> 1), z, &q[k])
                     : texel(f, &f->s, x0 + (k & 1), y0 + (k >> 1), z, &q[k]))
            return -1;
    return 0;
}

/* Filter the current level at coordinates c (normalized per norm[]) plus
 * offsets (texels): point or bilinear per `filter`; gather >= 0: the
 * footprint's component `gather` instead. */
static int filter_level(struct tex_fetch *f, const float c[3], const bool norm[3], const float offs[3],
                        unsigned filter, int gather, union eg_vec4 *v)
{
    const struct eg_tex_resource *tr = f->tr;
    bool array1d = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY, array2d = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY;
    bool cube = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP;
    float u[3];
    for (int k = 0; k < 3; k++)
        u[k] = (norm[k] ? (cube && k < 2 ? c[k] - 1.0f : c[k]) * (float)f->size[k] : c[k]) + offs[k];
    /* z: the slice of a 3D texture, the layer of an array or cube map; 0 else */
    int64_t z = 0;
    if (array1d || array2d)
        z = array_layer(c[2], tr->depth);
    else if (cube)
        z = cube_layer(c[2], tr->depth);
    if (array1d || tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D)
        u[1] = 0.5f; /* the one row: no filtering or border across it */
    const unsigned mode[3] = { f->s.clamp_x, f->s.clamp_y, f->s.clamp_z };
    for (int k = 0; k < 3; k++)
        if (half_border(mode[k]))
            u[k] = half_border_coord(u[k], f->size[k], mode[k]);
    if (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D)
        z = texel_coord(u[2]);
    f->s.clamp_z = point_mode(f->s.clamp_z); /* z is point sampled (Z_FILTER is not modelled) */
    if (gather >= 0 || filter == V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR) {
        union eg_vec4 q[4];
        float ax, ay;
        if (footprint(f, u, z, q, &ax, &ay))
            return -1;
        if (gather >= 0) {
            v->u[0] = q[1].u[gather];
            v->u[1] = q[2].u[gather];
            v->u[2] = q[3].u[gather];
            v->u[3] = q[0].u[gather];
            return 0;
        }
        for (int ch = 0; ch < 4; ch++)
            v->f[ch] = (q[0].f[ch] * (1 - ax) + q[1].f[ch] * ax) * (1 - ay) +
                       (q[2].f[ch] * (1 - ax) + q[3].f[ch] * ax) * ay;
        return 0;
    }
    struct eg_tex_sampler p = f->s;
    p.clamp_x = point_mode(f->s.clamp_x);
    p.clamp_y = point_mode(f->s.clamp_y);
    return texel(f, &p, texel_coord(u[0]), texel_coord(u[1]), z, v);
}

/* A source register through the instruction's SRC_SEL_X..W. */
static void swizzled_src(const union eg_vec4 *src, const uint32_t w[4], float out[4])
{
    const unsigned sel[4] = { G_SQ_TEX_WORD2__SRC_SEL_X(w[2]), G_SQ_TEX_WORD2__SRC_SEL_Y(w[2]),
                              G_SQ_TEX_WORD2__SRC_SEL_Z(w[2]), G_SQ_TEX_WORD2__SRC_SEL_W(w[2]) };
    for (int c = 0; c < 4; c++)
        out[c] = coord_value(src, sel[c]);
}

/* The difference of the swizzled source across the quad: horizontal (right
 * minus left) or vertical (lower minus upper), in the lane's own row or
 * column when fine, else the top row / left column; 0 for a lone lane. */
static void quad_diff(const struct eg_tex_quad *q, const uint32_t w[4], bool vertical, bool fine, float out[4])
{
    memset(out, 0, 4 * sizeof *out);
    if (!q || q->n < 4)
        return;
    unsigned step = vertical ? 2 : 1;
    unsigned a = fine ? q->lane & ~step : 0, b = a | step;
    float va[4], vb[4];
    swizzled_src(&q->src[a], w, va);
    swizzled_src(&q->src[b], w, vb);
    for (int c = 0; c < 4; c++)
        out[c] = vb[c] - va[c];
}

/* Dimensions the level of detail measures (the layer of an array not). */
static unsigned lod_dims(unsigned dim)
{
    switch (dim) {
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D:
    case V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY:
        return 1;
    case V_SQ_TEX_DIM__SQ_TEX_DIM_3D:
        return 3;
    default:
        return 2;
    }
}

/* A cube map's face coordinates' derivatives (normalized: [0, 1] across
 * the face) from a derivative g of the direction, at face `face` (0..5) where the
 * fetch's coordinates are (s, t) ([1, 2] across it, as Mesa's CUBE
 * lowering makes them).  OpenGL 4.6 8.13: ds = 1/2 (dsc |ma| - sc d|ma|) /
 * ma^2, the face's sc, tc, ma from table 8.19; the unit has only the face
 * coordinates, so the direction is taken with |ma| = 1 (sc = 2 (s - 1.5)).
 * Mesa's sfn passes textureGrad's derivatives on a cube halved
 * (sfn_nir_lower_tex.cpp), so g is already 1/2 dP: ds = g_sc - sc g_|ma|. */
static void cube_face_grad(const float g[3], unsigned face, float s, float t, float out[2])
{
    /* per face: the direction components giving sc, tc, ma and their signs */
    static const struct { uint8_t sc, tc, ma; int8_t ssc, stc, sma; } f[6] = {
        { 2, 1, 0, -1, -1, 1 }, { 2, 1, 0, 1, -1, -1 },    /* +x, -x */
        { 0, 2, 1, 1, 1, 1 },   { 0, 2, 1, 1, -1, -1 },    /* +y, -y */
        { 0, 1, 2, 1, -1, 1 },  { 0, 1, 2, -1, -1, -1 },   /* +z, -z */
    };
    float gma = (float)f[face].sma * g[f[face].ma];
    out[0] = (float)f[face].ssc * g[f[face].sc] - 2.0f * (s - 1.5f) * gma;
    out[1] = (float)f[face].stc * g[f[face].tc] - 2.0f * (t - 1.5f) * gma;
}

/* The coarse difference of a cube map's face coordinates across the quad
 * (as quad_diff), where the two pixels see the same face; where they see
 * different faces, their directions (each at |ma| = 1, from its face and
 * face coordinates: cube_dir) differ by delta, taken on the top-left
 * pixel's face as a derivative of the direction (cube_face_grad with
 * delta / 2: OpenGL 4.6 8.13 computes the LOD from the direction's
 * derivatives, not the faces'). */
static void cube_quad_diff(const struct eg_tex_quad *q, const uint32_t w[4], bool vertical, float out[4])
{
    float a[4], b[4];
    swizzled_src(&q->src[0], w, a);
    swizzled_src(&q->src[vertical ? 2 : 1], w, b);
    unsigned fa = cube_face_of(a[2]), fb = cube_face_of(b[2]);
    if (fa == fb) {
        for (int c = 0; c < 4; c++)
            out[c] = b[c] - a[c];
        return;
    }
    float da[3], db[3], g[3];
    cube_dir(fa, 2.0f * (a[0] - 1.5f), 2.0f * (a[1] - 1.5f), da);
    cube_dir(fb, 2.0f * (b[0] - 1.5f), 2.0f * (b[1] - 1.5f), db);
    for (int c = 0; c < 3; c++)
        g[c] = 0.5f * (db[c] - da[c]);
    cube_face_grad(g, fa, a[0], a[1], out);
    out[2] = out[3] = 0.0f;
}

/* The implicit (or SAMPLE_G's) level of detail before bias and clamps. */
static float implicit_lod(const struct tex_fetch *f, const struct eg_tex_quad *q, bool grad, const uint32_t w[4],
                          const bool norm[3])
{
    if (!grad && q && q->lod && q->lod->have)
        return q->lod->lod;
    float ddx[4] = { 0 }, ddy[4] = { 0 };
    if (grad && f->tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP) {
        if (q && q->grad) {
            float c[2];
            swizzled_src(&q->src[q->lane], w, ddx);     /* the lane's s, t and face */
            memcpy(c, ddx, sizeof c);
            unsigned face = cube_face_of(ddx[2]);
            cube_face_grad(q->grad[0].f, face, c[0], c[1], ddx);
            cube_face_grad(q->grad[1].f, face, c[0], c[1], ddy);
            ddx[2] = ddy[2] = 0.0f;
        }
    } else if (grad) {
        if (q && q->grad)
            for (int k = 0; k < 3; k++) {
                ddx[k] = q->grad[0].f[k];
                ddy[k] = q->grad[1].f[k];
            }
    } else if (f->tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_CUBEMAP && q && q->n >= 4) {
        cube_quad_diff(q, w, false, ddx);
        cube_quad_diff(q, w, true, ddy);
    } else {
        quad_diff(q, w, false, false, ddx);
        quad_diff(q, w, true, false, ddy);
    }
    const struct eg_tex_resource *tr = f->tr;
    const unsigned full[3] = { tr->width, tr->height, tr->depth };
    unsigned size[3];
    for (int k = 0; k < 3; k++)
        size[k] = norm[k] ? level_size(full[k], tr->base_level) : 1;
    float lod = eg_tex_lod(ddx, ddy, size, lod_dims(tr->dim));
    if (!grad && q && q->lod)
        *q->lod = (struct eg_tex_lod_memo){ true, lod };
    return lod;
}

float eg_tex_lod(const float ddx[3], const float ddy[3], const unsigned size[3], unsigned dims)
{
    /* OpenGL 4.6 (8.4)-(8.6): rho = max of the scaled derivative lengths */
    double lx = 0, ly = 0;
    for (unsigned k = 0; k < dims && k < 3; k++) {
        double a = (double)ddx[k] * size[k], b = (double)ddy[k] * size[k];
        lx += a * a;
        ly += b * b;
    }
    double rho = sqrt(lx > ly ? lx : ly);
    return rho > 0 ? (float)log2(rho) : -INFINITY;
}

/* GET_GRADIENTS_H / _V and SET_GRADIENTS_H / _V: 1 when inst is one of
 * them (done), 0 when not, -1 on an error. */
static int gradients(unsigned inst, union eg_vec4 *gpr, const uint32_t w[4], const struct eg_tex_quad *q, char *msg,
                     size_t msglen)
{
    bool get = inst == V_SQ_TEX_INST__GET_GRADIENTS_H || inst == V_SQ_TEX_INST__GET_GRADIENTS_V;
    bool set = inst == V_SQ_TEX_INST__SET_GRADIENTS_H || inst == V_SQ_TEX_INST__SET_GRADIENTS_V;
    if (!get && !set)
        return 0;
    if (G_SQ_TEX_WORD0__SRC_REL(w[0]) || G_SQ_TEX_WORD1__DST_REL(w[1])) {
        snprintf(msg, msglen, "unsupported relative GPR addressing in a texture fetch");
        return -1;
    }
    union eg_vec4 v;
    if (set) {
        if (!q || !q->grad) {
            snprintf(msg, msglen, "SET_GRADIENTS without a lane to keep them");
            return -1;
        }
        swizzled_src(&gpr[G_SQ_TEX_WORD0__SRC_GPR(w[0])], w, v.f);
        q->grad[inst == V_SQ_TEX_INST__SET_GRADIENTS_V] = v;
        return 1;
    }
    quad_diff(q, w, inst == V_SQ_TEX_INST__GET_GRADIENTS_V, G_SQ_TEX_WORD0__INST_MOD(w[0]) == 1, v.f);
    const unsigned sel[4] = { G_SQ_TEX_WORD1__DST_SEL_X(w[1]), G_SQ_TEX_WORD1__DST_SEL_Y(w[1]),
                              G_SQ_TEX_WORD1__DST_SEL_Z(w[1]), G_SQ_TEX_WORD1__DST_SEL_W(w[1]) };
    write_sel(&gpr[G_SQ_TEX_WORD1__DST_GPR(w[1])], &v, sel, false);
    return 1;
}

/* GET_LOD (textureQueryLod): x the computed level of detail lambda' (bias
 * included, not clamped), y the level, relative to BASE_LEVEL, a sample
 * would read: 0 without mipmapping, the nearest level with MIP_FILTER
 * POINT, the clamped LOD (a blend of two levels) with LINEAR, within the
 * view's levels (ARB_texture_query_lod; Mesa's sfn reads the result with
 * the destination swizzle y, x, so GL gets (level, lambda')). */
static void query_lod(const struct tex_fetch *f, float lambda, float clamped, union eg_vec4 *v)
{
    float top = (float)(f->tr->last_level - f->tr->base_level), level = 0.0f;
    if (f->s.mip_filter == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT)
        level = clamped > 0.5f ? ceilf(clamped + 0.5f) - 1.0f : 0.0f;
    else if (f->s.mip_filter == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR)
        level = clamped > 0.0f ? clamped : 0.0f;
    *v = (union eg_vec4){ .f = { lambda, level < top ? level : top, 0.0f, 0.0f } };
}

/* The destination swizzle of a sample: the resource's swizzle of v, then
 * the instruction's (write_sel twice, as one table): for each register
 * component the component of v it takes, or TEX_SWZ_0 / _1 / _KEEP. */
enum { TEX_SWZ_0 = 4, TEX_SWZ_1, TEX_SWZ_KEEP };

static void sample_swizzle(const uint8_t rsel[4], const unsigned sel[4], uint8_t out[4])
{
    for (int c = 0; c < 4; c++) {
        unsigned k = sel[c], from;
        if (k == V_SQ_INST_SEL__ZERO || k == V_SQ_INST_SEL__ONE)
            from = k == V_SQ_INST_SEL__ZERO ? TEX_SWZ_0 : TEX_SWZ_1;
        else if (k > V_SQ_INST_SEL__W)
            from = TEX_SWZ_KEEP;
        else if (rsel[k] <= V_SQ_INST_SEL__W)
            from = rsel[k];
        else if (rsel[k] == V_SQ_INST_SEL__ZERO || rsel[k] == V_SQ_INST_SEL__ONE)
            from = rsel[k] == V_SQ_INST_SEL__ZERO ? TEX_SWZ_0 : TEX_SWZ_1;
        else
            from = k;   /* the resource swizzle masks it: v's own */
        out[c] = (uint8_t)from;
    }
}

int eg_tex_prepare(const struct eg_shader_env *env, unsigned res_base, unsigned sampler_base, const uint32_t w[4],
                   struct eg_tex_prep *p, char *msg, size_t msglen)
{
    memset(p, 0, sizeof *p);
    memcpy(p->w, w, sizeof p->w);
    p->env = env;
    unsigned inst = G_SQ_TEX_WORD0__TEX_INST(w[0]);
    p->inst = inst;
    p->sel[0] = G_SQ_TEX_WORD1__DST_SEL_X(w[1]);
    p->sel[1] = G_SQ_TEX_WORD1__DST_SEL_Y(w[1]);
    p->sel[2] = G_SQ_TEX_WORD1__DST_SEL_Z(w[1]);
    p->sel[3] = G_SQ_TEX_WORD1__DST_SEL_W(w[1]);
    p->src_gpr = G_SQ_TEX_WORD0__SRC_GPR(w[0]);
    p->dst_gpr = G_SQ_TEX_WORD1__DST_GPR(w[1]);
    if (inst == V_SQ_TEX_INST__GET_GRADIENTS_H || inst == V_SQ_TEX_INST__GET_GRADIENTS_V ||
        inst == V_SQ_TEX_INST__SET_GRADIENTS_H || inst == V_SQ_TEX_INST__SET_GRADIENTS_V) {
        p->gradients = true;    /* per lane: gradients() */
        return 0;
    }
    bool ld = inst == V_SQ_TEX_INST__LD, info = inst == V_SQ_TEX_INST__GET_TEXTURE_RESINFO;
    bool nsamples = inst == V_SQ_TEX_INST__GET_NUMBER_OF_SAMPLES;
    bool cmp = inst == V_SQ_TEX_INST__SAMPLE_C || inst == V_SQ_TEX_INST__SAMPLE_C_L ||
               inst == V_SQ_TEX_INST__SAMPLE_C_LB || inst == V_SQ_TEX_INST__SAMPLE_C_LZ ||
               inst == V_SQ_TEX_INST__GATHER4_C;
    bool gather = inst == V_SQ_TEX_INST__GATHER4 || inst == V_SQ_TEX_INST__GATHER4_C;
    bool explicit_lod = inst == V_SQ_TEX_INST__SAMPLE_L || inst == V_SQ_TEX_INST__SAMPLE_C_L;
    bool bias = inst == V_SQ_TEX_INST__SAMPLE_LB || inst == V_SQ_TEX_INST__SAMPLE_C_LB;
    bool lz = inst == V_SQ_TEX_INST__SAMPLE_LZ || inst == V_SQ_TEX_INST__SAMPLE_C_LZ || gather;
    bool grad = inst == V_SQ_TEX_INST__SAMPLE_G || inst == V_SQ_TEX_INST__SAMPLE_C_G;
    bool get_lod = inst == V_SQ_TEX_INST__GET_LOD;
    cmp = cmp || inst == V_SQ_TEX_INST__SAMPLE_C_G;
    if (!ld && !info && !nsamples && !cmp && !gather && !explicit_lod && !bias && !lz && !grad && !get_lod &&
        inst != V_SQ_TEX_INST__SAMPLE) {
        snprintf(msg, msglen, "unsupported TEX_INST %u", inst);
        return -1;
    }
    if (G_SQ_TEX_WORD0__SRC_REL(w[0]) || G_SQ_TEX_WORD1__DST_REL(w[1])) {
        snprintf(msg, msglen, "unsupported relative GPR addressing in a texture fetch");
        return -1;
    }
    if (!env->tex_resource || !env->tex_sampler || !env->texel) {
        snprintf(msg, msglen, "texture fetch without texture callbacks");
        return -1;
    }
    unsigned res = res_base + G_SQ_TEX_WORD0__RESOURCE_ID(w[0]);
    struct eg_tex_resource *tr = &p->tr;
    p->res = res;
    if (env->tex_resource(env->ctx, res, tr, msg, msglen))
        return -1;
    bool sampled = !ld && !info && !nsamples;
    if (sampled && env->tex_sampler(env->ctx, sampler_base + G_SQ_TEX_WORD2__SAMPLER_ID(w[2]), res, &p->s, msg, msglen))
        return -1;
    if (!tr->width || !tr->height || !tr->depth) {
        snprintf(msg, msglen, "texture resource %u has a zero size", res);
        return -1;
    }
    if (tr->last_level < tr->base_level)
        tr->last_level = tr->base_level;
    p->ssel[0] = G_SQ_TEX_WORD2__SRC_SEL_X(w[2]);
    p->ssel[1] = G_SQ_TEX_WORD2__SRC_SEL_Y(w[2]);
    p->ssel[2] = G_SQ_TEX_WORD2__SRC_SEL_Z(w[2]);
    p->ssel[3] = G_SQ_TEX_WORD2__SRC_SEL_W(w[2]);
    p->ssel_xyzw = p->ssel[0] == V_SQ_INST_SEL__X && p->ssel[1] == V_SQ_INST_SEL__Y && p->ssel[2] == V_SQ_INST_SEL__Z &&
                   p->ssel[3] == V_SQ_INST_SEL__W;
    p->ld = ld, p->info = info, p->nsamples = nsamples, p->cmp = cmp, p->gather = gather;
    p->explicit_lod = explicit_lod, p->bias = bias, p->lz = lz, p->grad = grad, p->get_lod = get_lod;
    p->hofs[0] = G_SQ_TEX_WORD2__OFFSET_X(w[2]);
    p->hofs[1] = G_SQ_TEX_WORD2__OFFSET_Y(w[2]);
    p->hofs[2] = G_SQ_TEX_WORD2__OFFSET_Z(w[2]);
    p->msaa = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
    if (info || nsamples)
        return 0;
    if (env->texel_reader && env->texel_reader(env->ctx, res, &p->rd, msg, msglen))
        return -1;
    if (p->msaa && !ld) {
        snprintf(msg, msglen, "texture resource %u: an MSAA texture is read with LD only (TEX_INST %u)", res, inst);
        return -1;
    }
    p->norm[0] = G_SQ_TEX_WORD1__COORD_TYPE_X(w[1]);
    p->norm[1] = G_SQ_TEX_WORD1__COORD_TYPE_Y(w[1]);
    p->norm[2] = G_SQ_TEX_WORD1__COORD_TYPE_Z(w[1]);
    /* level of detail: not computed when nothing below depends on it
     * (one filter for minification and magnification, one level) */
    p->lod_free = !ld && !get_lod && p->s.min_filter == p->s.mag_filter &&
                  ((p->s.mip_filter != V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT &&
                    p->s.mip_filter != V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR) ||
                   tr->last_level == tr->base_level);
    sample_swizzle(tr->dst_sel, p->sel, p->swz);
    p->swz_xyzw = p->swz[0] == 0 && p->swz[1] == 1 && p->swz[2] == 2 && p->swz[3] == 3;
    for (int k = 0; k < 3; k++)
        p->offs[k] = (float)p->hofs[k] * 0.5f;
    /* a point sample of a 2D texture (or array) whose level of detail
     * decides nothing reads the base level through filter_level's point
     * branch: point_lane, its steps for these dimensions only */
    p->point = !ld && p->lod_free && !cmp && !gather && p->s.min_filter == V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_POINT &&
               (tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D || tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY);
    level_dims(tr, tr->base_level, p->base_size);
    p->ps = p->s;
    p->ps.clamp_x = point_mode(p->s.clamp_x);
    p->ps.clamp_y = point_mode(p->s.clamp_y);
    p->ps.clamp_z = point_mode(p->s.clamp_z);
    return 0;
}

/* The texel a point sample of a prepared instruction with p->point reads
 * at coordinates c, before its address mode: what filter_level's point
 * branch computes at the base level. */
static inline void point_texel(const struct eg_tex_prep *p, const float c[4], int64_t *x, int64_t *y, int64_t *z)
{
    const unsigned *size = p->base_size;
    float u[2];
    for (int k = 0; k < 2; k++) {
        u[k] = (p->norm[k] ? c[k] * (float)size[k] : c[k]) + p->offs[k];
        unsigned mode = k ? p->s.clamp_y : p->s.clamp_x;
        if (half_border(mode))
            u[k] = half_border_coord(u[k], size[k], mode);
    }
    *x = texel_coord(u[0]);
    *y = texel_coord(u[1]);
    *z = p->tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY ? array_layer(c[2], p->tr.depth) : 0;
}

/* Whether texel (x, y, z) is inside the base level (every address mode
 * then reads the texel itself). */
static inline bool point_inside(const struct eg_tex_prep *p, int64_t x, int64_t y, int64_t z)
{
    const unsigned *size = p->base_size;
    return x >= 0 && y >= 0 && z >= 0 && x < size[0] && y < size[1] && z < size[2];
}

/* The point sample of a prepared instruction with p->point: what
 * filter_level gives at the base level with the point filter. */
static int point_lane(const struct eg_tex_prep *p, const float c[4], union eg_vec4 *v, char *msg, size_t msglen)
{
    const struct eg_tex_resource *tr = &p->tr;
    int64_t x, y, z;
    point_texel(p, c, &x, &y, &z);
    /* inside the level: straight to the reader */
    if (p->rd.read && point_inside(p, x, y, z))
        return p->rd.read(p->rd.ctx, tr->base_level, (int)x, (int)y, (int)z, 0, v, msg, msglen);
    struct tex_fetch f;     /* what texel() reads of it without a comparison (not the sampler: p->ps) */
    f.env = p->env, f.res = p->res, f.tr = tr, f.compare = false, f.msg = msg, f.msglen = msglen;
    f.rd = prep_reader(p);
    f.level = tr->base_level;
    memcpy(f.size, p->base_size, sizeof f.size);
    return texel(&f, &p->ps, x, y, z, v);
}

/* A sample (not LD) of a prepared instruction for one lane, coordinates
 * c: the filtered texel in v (0), GET_LOD's result written to dst (1), or
 * -1 with the reason in msg. */
static int sample_lane(const struct eg_tex_prep *p, const struct eg_tex_quad *q, const float c[4], union eg_vec4 *v,
                       union eg_vec4 *dst, char *msg, size_t msglen)
{
    const struct eg_tex_resource *tr = &p->tr;
    struct tex_fetch f = { .env = p->env, .res = p->res, .tr = tr, .s = p->s, .msg = msg, .msglen = msglen };
    f.rd = prep_reader(p);
    f.compare = p->cmp;
    f.ref = p->explicit_lod || p->bias ? c[2] : c[3];
    if (tr->fixed_depth)    /* NaN stays NaN: every comparison but NOTEQUAL / ALWAYS fails */
        f.ref = f.ref < 0.0f ? 0.0f : f.ref > 1.0f ? 1.0f : f.ref;
    float lod = p->lz || p->lod_free ? 0.0f : p->explicit_lod ? c[3] : implicit_lod(&f, q, p->grad, p->w, p->norm);
    if (p->bias)
        lod += c[3];
    if (!p->lz)
        lod += f.s.lod_bias;
    /* minification is decided before the MIN/MAX_LOD clamp: Mesa
     * programs MAX_LOD = MIN_LOD when the mip filter is NONE, which
     * would otherwise turn every non-mipmapped GL_LINEAR minification
     * into magnification (the ISA document does not say; chosen so) */
    unsigned filter = lod > 0.0f ? f.s.min_filter : f.s.mag_filter;
    float lambda = lod;
    lod = isnan(lod) ? f.s.min_lod : lod < f.s.min_lod ? f.s.min_lod : lod > f.s.max_lod ? f.s.max_lod : lod;
    if (p->get_lod) {
        query_lod(&f, lambda, lod, v);
        write_sel(dst, v, p->sel, false);
        return 1;
    }
    unsigned l0 = tr->base_level, l1 = l0;
    float frac = 0.0f;
    if (lod > 0.0f && f.s.mip_filter == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_POINT) {
        if (lod > 0.5f)
            l0 += (unsigned)fminf(ceilf(lod + 0.5f) - 1.0f, 31.0f);
        l1 = l0;
    } else if (lod > 0.0f && f.s.mip_filter == V_SQ_TEX_Z_FILTER__SQ_TEX_Z_FILTER_LINEAR) {
        float fl = floorf(lod);
        l0 += (unsigned)fminf(fl, 31.0f);
        l1 = l0 + 1;
        frac = lod - fl;
    }
    if (l0 > tr->last_level)
        l0 = tr->last_level;
    if (l1 > tr->last_level)
        l1 = tr->last_level;
    int comp = p->gather ? (int)G_SQ_TEX_WORD0__INST_MOD(p->w[0]) : -1;
    set_level(&f, l0);
    if (filter_level(&f, c, p->norm, p->offs, filter, comp, v))
        return -1;
    if (l1 != l0 && frac > 0.0f) {
        union eg_vec4 v1;
        set_level(&f, l1);
        if (filter_level(&f, c, p->norm, p->offs, filter, comp, &v1))
            return -1;
        for (int ch = 0; ch < 4; ch++)
            v->f[ch] = v->f[ch] * (1.0f - frac) + v1.f[ch] * frac;
    }
    return 0;
}

int eg_tex_lane(const struct eg_tex_prep *p, union eg_vec4 *gpr, const struct eg_tex_quad *q, char *msg,
                size_t msglen)
{
    if (p->gradients)
        return gradients(p->inst, gpr, p->w, q, msg, msglen) < 0 ? -1 : 0;
    const struct eg_tex_resource *tr = &p->tr;
    const union eg_vec4 *src = &gpr[p->src_gpr];
    union eg_vec4 *dst = &gpr[p->dst_gpr];
    union eg_vec4 v = { .u = { 0, 0, 0, 0 } };
    /* the integer operands (LD, RESINFO) through SRC_SEL_X..W: a component,
     * or the constants 0 and 1 (1.0's bits, as for the float coordinates);
     * the float operands are the same selection (coord_value) */
    union eg_vec4 isrc;
    if (p->ssel_xyzw)
        isrc = *src;
    else
        for (int k = 0; k < 4; k++) {
            if (p->ssel[k] <= V_SQ_INST_SEL__W)
                isrc.u[k] = src->u[p->ssel[k]];
            else
                isrc.f[k] = p->ssel[k] == V_SQ_INST_SEL__ONE ? 1.0f : 0.0f;
        }
    if (p->info || p->nsamples) {
        if (p->info)
            resinfo(tr, (int32_t)isrc.u[0], &v);
        else
            v.u[3] = tr->samples ? tr->samples : 1;
        write_sel(dst, &v, p->sel, true);
        return 0;
    }
    int r;
    if (p->point) {
        r = point_lane(p, isrc.f, &v, msg, msglen);
    } else if (p->ld) {
        const int iofs[3] = { p->hofs[0] >> 1, p->hofs[1] >> 1, p->hofs[2] >> 1 };
        r = p->msaa ? msaa_ld(p, &isrc, iofs, &v, msg, msglen) : plain_ld(p, &isrc, iofs, &v, msg, msglen);
    } else {
        r = sample_lane(p, q, isrc.f, &v, dst, msg, msglen);
    }
    if (r)
        return r < 0 ? -1 : 0;
    /* the resource's swizzle, then the instruction's (sample_swizzle) */
    if (p->swz_xyzw) {
        *dst = v;
        return 0;
    }
    for (int c = 0; c < 4; c++) {
        unsigned k = p->swz[c];
        if (k < TEX_SWZ_0)
            dst->u[c] = v.u[k];
        else if (k != TEX_SWZ_KEEP)
            dst->u[c] = k == TEX_SWZ_0 ? 0 : 0x3F800000u;   /* 0, 1.0f */
    }
    return 0;
}

int eg_tex_point_lanes(const struct eg_tex_prep *p, unsigned n, const uint8_t *lane, const uint32_t *const src[4],
                       uint32_t *const dst[4])
{
    if (!p->point || !p->rd.read_many || p->tr.base_level || n > EG_TEX_LANES_MAX)
        return 1;
    if (n == 0)
        return 0;
    /* the coordinates through SRC_SEL_X..Z: a component, or the constants
     * 0 and 1.0 (eg_tex_lane's selection) */
    const uint32_t *from[3];
    float constant[3];
    for (int k = 0; k < 3; k++) {
        from[k] = p->ssel[k] <= V_SQ_INST_SEL__W ? src[p->ssel[k]] : NULL;
        constant[k] = p->ssel[k] == V_SQ_INST_SEL__ONE ? 1.0f : 0.0f;
    }
    /* every lane's texel before any destination is written (the source
     * and the destination may be one register) */
    int32_t x[EG_TEX_LANES_MAX], y[EG_TEX_LANES_MAX], z[EG_TEX_LANES_MAX];
    for (unsigned i = 0; i < n; i++) {
        float c[4] = { constant[0], constant[1], constant[2], 0.0f };
        for (int k = 0; k < 3; k++)
            if (from[k])
                memcpy(&c[k], &from[k][lane[i]], sizeof c[k]);
        int64_t tx, ty, tz;
        point_texel(p, c, &tx, &ty, &tz);
        if (!point_inside(p, tx, ty, tz))
            return 1;
        x[i] = (int32_t)tx, y[i] = (int32_t)ty, z[i] = (int32_t)tz;
    }
    union eg_vec4 v[EG_TEX_LANES_MAX];
    if (p->rd.read_many(p->rd.ctx, n, x, y, z, v))
        return 1;
    /* the resource's swizzle, then the instruction's (sample_swizzle) */
    for (int c = 0; c < 4; c++) {
        unsigned k = p->swz[c];
        uint32_t *d = dst[c];
        if (k < TEX_SWZ_0)
            for (unsigned i = 0; i < n; i++)
                d[lane[i]] = v[i].u[k];
        else if (k != TEX_SWZ_KEEP)
            for (unsigned i = 0; i < n; i++)
                d[lane[i]] = k == TEX_SWZ_0 ? 0 : 0x3F800000u;   /* 0, 1.0f */
    }
    return 0;
}

int eg_exec_tex(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, unsigned sampler_base,
                const uint32_t w[4], const struct eg_tex_quad *q, char *msg, size_t msglen)
{
    struct eg_tex_prep p;
    if (eg_tex_prepare(env, res_base, sampler_base, w, &p, msg, msglen))
        return -1;
    return eg_tex_lane(&p, gpr, q, msg, msglen);
}
