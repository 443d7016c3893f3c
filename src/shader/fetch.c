/* Vertex fetch and texture sampling for the interpreter.
 *
 * Modelled: VTX FETCH / SEMANTIC with the instruction's or the resource's
 * format, offset, stride, endian swap (the formats and their conversion:
 * vtx_format.c); an element past the resource's size reads as 0 (w as 1),
 * as the hardware's range check does.
 * TEX SAMPLE / SAMPLE_L / SAMPLE_LZ / SAMPLE_LB / LD on the base level with
 * point or bilinear filtering and the WRAP / MIRROR / CLAMP_LAST_TEXEL /
 * MIRROR_ONCE_LAST_TEXEL / CLAMP_*BORDER address modes (HALF_BORDER treated
 * as BORDER).  Without neighbouring pixels there are no derivatives, so
 * SAMPLE uses LOD 0: the magnification filter; mip levels are not modelled. */
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

int eg_exec_vtx(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, const uint32_t w[4],
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
    unsigned dst;
    if (inst == V_SQ_VTX_INST__SEMANTIC) {
        unsigned id = G_SQ_VTX_WORD1_SEM__SEMANTIC_ID(w[1]);
        int entry = -1;
        for (int i = 0; i < 32 && entry < 0; i++)
            if ((env->vtx_semantic_valid >> i & 1u) && (env->vtx_semantic[i] & 0xFFu) == id)
                entry = i;
        if (entry < 0)
            return 0;   /* no table entry: the fetch writes nothing */
        dst = (unsigned)entry + 1;
    } else {
        dst = G_SQ_VTX_WORD1_GPR__DST_GPR(w[1]);
    }
    if (!env->vtx_resource || !env->mem) {
        snprintf(msg, msglen, "vertex fetch without a resource callback or memory");
        return -1;
    }
    unsigned res = res_base + G_SQ_VTX_WORD0__BUFFER_ID(w[0]);
    struct eg_vtx_resource r;
    if (env->vtx_resource(env->ctx, res, &r, msg, msglen))
        return -1;
    unsigned fmt;
    struct eg_vtx_numfmt nf;
    unsigned endian = G_SQ_VTX_WORD2__ENDIAN_SWAP(w[2]);
    if (G_SQ_VTX_WORD1_GPR__USE_CONST_FIELDS(w[1])) {
        fmt = r.data_format, endian = r.endian_swap;
        nf = (struct eg_vtx_numfmt){ r.num_format, r.format_comp, r.srf_mode };
    } else {
        fmt = G_SQ_VTX_WORD1_GPR__DATA_FORMAT(w[1]);
        nf = (struct eg_vtx_numfmt){ G_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(w[1]),
                                     G_SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL(w[1]), G_SQ_VTX_WORD1_GPR__SRF_MODE_ALL(w[1]) };
    }
    const char *why = eg_vtx_format_refusal(fmt, nf.num_format);
    if (why) {
        const struct eg_enum *df = eg_enum_find_name("SQ_DATA_FORMAT"), *nm = eg_enum_find_name("SQ_NUM_FORMAT");
        const char *fn = df ? eg_enum_value_name(df, fmt) : NULL, *nn = nm ? eg_enum_value_name(nm, nf.num_format) : NULL;
        snprintf(msg, msglen, "vertex fetch of %s (%u) %s from resource %u cannot be fetched: %s", fn ? fn : "?", fmt,
                 nn ? nn : "?", res, why);
        return -1;
    }
    const struct eg_vtx_format *vf = eg_vtx_format_find(fmt);
    unsigned nbytes = vf->bytes;
    uint32_t index = gpr[G_SQ_VTX_WORD0__SRC_GPR(w[0])].u[G_SQ_VTX_WORD0__SRC_SEL_X(w[0])];
    uint64_t stride = G_SQ_VTX_WORD2__CONST_BUF_NO_STRIDE(w[2]) ? 0 : r.stride;
    uint64_t off = (uint64_t)index * stride + G_SQ_VTX_WORD2__OFFSET(w[2]);
    union eg_vec4 v;
    uint8_t buf[16] = { 0 };    /* out of the buffer: zeros (w = 1) */
    if (off + nbytes <= r.size) {
        const uint8_t *p = vc_mem_ptr(env->mem, r.base + off, nbytes);
        if (!p) {
            snprintf(msg, msglen, "vertex fetch of resource %u at 0x%llx (%u bytes) is outside GPU memory", res,
                     (unsigned long long)(r.base + off), nbytes);
            return -1;
        }
        memcpy(buf, p, nbytes);
        eg_vtx_endian_swap(buf, nbytes, endian);
    }
    eg_vtx_format_convert(vf, &nf, buf, &v);
    const unsigned sel[4] = { G_SQ_VTX_WORD1_GPR__DST_SEL_X(w[1]), G_SQ_VTX_WORD1_GPR__DST_SEL_Y(w[1]),
                              G_SQ_VTX_WORD1_GPR__DST_SEL_Z(w[1]), G_SQ_VTX_WORD1_GPR__DST_SEL_W(w[1]) };
    write_sel(&gpr[dst], &v, sel, nf.num_format == V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT);
    return 0;
}

/* ---------------------------------------------------------------- TEX */

/* Texel coordinate i in [0, size) per address mode, or -1 for the border.
 * 64-bit, so the bilinear neighbour (+1) and the instruction's offset of a
 * coordinate at the end of the int range cannot overflow. */
static int wrap(int64_t i, int64_t size, unsigned mode)
{
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

static int texel(const struct eg_shader_env *env, unsigned res, const struct eg_tex_resource *tr,
                 const struct eg_tex_sampler *s, int64_t x, int64_t y, int64_t z, union eg_vec4 *out, char *msg,
                 size_t msglen)
{
    int wx = wrap(x, tr->width, s->clamp_x), wy = wrap(y, tr->height, s->clamp_y);
    int wz = wrap(z, tr->depth, s->clamp_z);
    if (wx < 0 || wy < 0 || wz < 0) {
        *out = s->border;
        return 0;
    }
    return env->texel(env->ctx, res, wx, wy, wz, 0, out, msg, msglen);
}

/* floorf(v) as a texel coordinate.  Converting a NaN or a float outside the
 * int range to an integer is undefined in C: NaN gives 0 (what the card
 * reads for one is not documented) and larger magnitudes stop at +-2^31,
 * already outside every texture, so each address mode still sees an edge
 * or the border. */
static int64_t texel_coord(float v)
{
    if (isnan(v))
        return 0;
    float f = floorf(v);
    return f >= 0x1p31f ? INT64_C(1) << 31 : f <= -0x1p31f ? -(INT64_C(1) << 31) : (int64_t)f;
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

/* GET_TEXTURE_RESINFO: the size of mip level `lod` (width, height, depth
 * halved per level and at least 1; array layers are not: a 1D array's in
 * y, a 2D array's in z) and the level count. */
static unsigned level_size(unsigned size, unsigned lod)
{
    return size >> lod ? size >> lod : 1;
}

static void resinfo(const struct eg_tex_resource *tr, int32_t lod, union eg_vec4 *v)
{
    unsigned l = lod < 0 ? 0 : lod > 31 ? 31 : (unsigned)lod;
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
 * w; INST_MOD 1 reads the FMask instead: x gets the fragment index of
 * every sample, 4 bits each (Mesa sfn_instr_tex.cpp lower_txf_ms: the
 * shader then fetches sample (fmask >> 4s) & 15).  Outside the texture or
 * its samples: zeros. */
static int msaa_ld(const struct eg_shader_env *env, unsigned res, const struct eg_tex_resource *tr,
                   const union eg_vec4 *src, const uint32_t w[4], const int offs[3], union eg_vec4 *v, char *msg,
                   size_t msglen)
{
    int64_t x = (int64_t)(int32_t)src->u[G_SQ_TEX_WORD2__SRC_SEL_X(w[2]) & 3] + offs[0];
    int64_t y = (int64_t)(int32_t)src->u[G_SQ_TEX_WORD2__SRC_SEL_Y(w[2]) & 3] + offs[1];
    int64_t z = tr->dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA
                    ? (int64_t)(int32_t)src->u[G_SQ_TEX_WORD2__SRC_SEL_Z(w[2]) & 3] : 0;
    uint32_t sample = src->u[G_SQ_TEX_WORD2__SRC_SEL_W(w[2]) & 3];
    memset(v, 0, sizeof *v);
    if (x < 0 || y < 0 || z < 0 || x >= tr->width || y >= tr->height || z >= tr->depth)
        return 0;
    if (G_SQ_TEX_WORD0__INST_MOD(w[0]) == 1) {
        if (!env->tex_fmask) {
            snprintf(msg, msglen, "FMask fetch without an FMask callback");
            return -1;
        }
        return env->tex_fmask(env->ctx, res, (int)x, (int)y, (int)z, &v->u[0], msg, msglen);
    }
    if (sample >= tr->samples)
        return 0;
    return env->texel(env->ctx, res, (int)x, (int)y, (int)z, sample, v, msg, msglen);
}

int eg_exec_tex(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, unsigned sampler_base,
                const uint32_t w[4], char *msg, size_t msglen)
{
    unsigned inst = G_SQ_TEX_WORD0__TEX_INST(w[0]);
    bool ld = inst == V_SQ_TEX_INST__LD, info = inst == V_SQ_TEX_INST__GET_TEXTURE_RESINFO;
    if (!ld && !info && inst != V_SQ_TEX_INST__SAMPLE && inst != V_SQ_TEX_INST__SAMPLE_L &&
        inst != V_SQ_TEX_INST__SAMPLE_LZ && inst != V_SQ_TEX_INST__SAMPLE_LB) {
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
    struct eg_tex_resource tr;
    struct eg_tex_sampler s = { 0 };
    if (env->tex_resource(env->ctx, res, &tr, msg, msglen))
        return -1;
    if (!ld && !info &&
        env->tex_sampler(env->ctx, sampler_base + G_SQ_TEX_WORD2__SAMPLER_ID(w[2]), res, &s, msg, msglen))
        return -1;
    if (!tr.width || !tr.height || !tr.depth) {
        snprintf(msg, msglen, "texture resource %u has a zero size", res);
        return -1;
    }
    const union eg_vec4 *src = &gpr[G_SQ_TEX_WORD0__SRC_GPR(w[0])];
    const unsigned sel[4] = { G_SQ_TEX_WORD1__DST_SEL_X(w[1]), G_SQ_TEX_WORD1__DST_SEL_Y(w[1]),
                              G_SQ_TEX_WORD1__DST_SEL_Z(w[1]), G_SQ_TEX_WORD1__DST_SEL_W(w[1]) };
    union eg_vec4 v, t;
    if (info) {
        resinfo(&tr, (int32_t)src->u[G_SQ_TEX_WORD2__SRC_SEL_X(w[2]) & 3], &v);
        write_sel(&gpr[G_SQ_TEX_WORD1__DST_GPR(w[1])], &v, sel, true);
        return 0;
    }
    float c[4] = { coord_value(src, G_SQ_TEX_WORD2__SRC_SEL_X(w[2])), coord_value(src, G_SQ_TEX_WORD2__SRC_SEL_Y(w[2])),
                   coord_value(src, G_SQ_TEX_WORD2__SRC_SEL_Z(w[2])), coord_value(src, G_SQ_TEX_WORD2__SRC_SEL_W(w[2])) };
    int offs[3] = { G_SQ_TEX_WORD2__OFFSET_X(w[2]), G_SQ_TEX_WORD2__OFFSET_Y(w[2]), G_SQ_TEX_WORD2__OFFSET_Z(w[2]) };
    bool array1d = tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D_ARRAY, array2d = tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY;
    bool msaa = tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
    if (msaa && !ld) {
        snprintf(msg, msglen, "texture resource %u: an MSAA texture is read with LD only (TEX_INST %u)", res, inst);
        return -1;
    }
    if (ld && msaa) {
        if (msaa_ld(env, res, &tr, src, w, offs, &v, msg, msglen))
            return -1;
    } else if (ld) {
        /* integer texel coordinates in the source's bits, as the hardware's LD reads them */
        uint32_t ux = src->u[G_SQ_TEX_WORD2__SRC_SEL_X(w[2]) & 3], uy = src->u[G_SQ_TEX_WORD2__SRC_SEL_Y(w[2]) & 3];
        uint32_t uz = src->u[G_SQ_TEX_WORD2__SRC_SEL_Z(w[2]) & 3];
        int64_t y = (int64_t)(int32_t)uy + offs[1], z = 0;
        if (tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D)
            y = 0;
        else if (array1d)
            z = (int32_t)uy, y = 0;
        else if (array2d)
            z = (int32_t)uz;
        else if (tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D)
            z = (int64_t)(int32_t)uz + offs[2];
        s.clamp_x = s.clamp_y = s.clamp_z = V_SQ_TEX_CLAMP__SQ_TEX_CLAMP_BORDER;
        if (texel(env, res, &tr, &s, (int64_t)(int32_t)ux + offs[0], y, z, &v, msg, msglen))
            return -1;
    } else {
        const bool norm[3] = { G_SQ_TEX_WORD1__COORD_TYPE_X(w[1]), G_SQ_TEX_WORD1__COORD_TYPE_Y(w[1]),
                               G_SQ_TEX_WORD1__COORD_TYPE_Z(w[1]) };
        const unsigned size[3] = { tr.width, tr.height, tr.depth };
        float u[3];
        for (int k = 0; k < 3; k++)
            u[k] = (norm[k] ? c[k] * (float)size[k] : c[k]) + (float)offs[k];
        float lod = inst == V_SQ_TEX_INST__SAMPLE_L ? c[3] : 0.0f;
        unsigned filter = lod > 0.0f ? s.min_filter : s.mag_filter;
        /* z: the slice of a 3D texture, the layer of an array; 0 else */
        int64_t z = tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D ? texel_coord(u[2]) : 0;
        if (array1d)
            z = array_layer(c[1], tr.depth);
        else if (array2d)
            z = array_layer(c[2], tr.depth);
        if (array1d || tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_1D)
            u[1] = 0.5f; /* the one row: no filtering or border across it */
        const unsigned mode[3] = { s.clamp_x, s.clamp_y, s.clamp_z };
        for (int k = 0; k < 3; k++)
            if (half_border(mode[k]))
                u[k] = half_border_coord(u[k], size[k], mode[k]);
        if (tr.dim == V_SQ_TEX_DIM__SQ_TEX_DIM_3D)
            z = texel_coord(u[2]);
        s.clamp_z = point_mode(s.clamp_z); /* z is point sampled (Z_FILTER is not modelled) */
        if (filter == V_SQ_TEX_XY_FILTER__SQ_TEX_XY_FILTER_BILINEAR) {
            float fx = u[0] - 0.5f, fy = u[1] - 0.5f;
            int64_t x0 = texel_coord(fx), y0 = texel_coord(fy);
            float ax = fx - (float)x0, ay = fy - (float)y0;
            union eg_vec4 q[4];
            for (int k = 0; k < 4; k++)
                if (texel(env, res, &tr, &s, x0 + (k & 1), y0 + (k >> 1), z, &q[k], msg, msglen))
                    return -1;
            for (int ch = 0; ch < 4; ch++)
                v.f[ch] = (q[0].f[ch] * (1 - ax) + q[1].f[ch] * ax) * (1 - ay) +
                          (q[2].f[ch] * (1 - ax) + q[3].f[ch] * ax) * ay;
        } else {
            struct eg_tex_sampler p = s;
            p.clamp_x = point_mode(s.clamp_x);
            p.clamp_y = point_mode(s.clamp_y);
            if (texel(env, res, &tr, &p, texel_coord(u[0]), texel_coord(u[1]), z, &v, msg, msglen))
                return -1;
        }
    }
    /* the resource's swizzle, then the instruction's */
    const unsigned rsel[4] = { tr.dst_sel[0], tr.dst_sel[1], tr.dst_sel[2], tr.dst_sel[3] };
    t = v;
    write_sel(&t, &v, rsel, false);
    write_sel(&gpr[G_SQ_TEX_WORD1__DST_GPR(w[1])], &t, sel, false);
    return 0;
}
