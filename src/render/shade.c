/* The default shader stages: the Evergreen shader interpreter (src/shader,
 * eg_run_vs / eg_run_ps) adapted to the renderer's stage table.
 *
 * Per draw (begin): the programs are read from GPU memory at SQ_PGM_START_FS /
 * _VS / _PS (address >> 8), the semantic table SQ_VTX_SEMANTIC_* is loaded,
 * and every vertex fetch of the fetch and vertex shaders is checked against
 * the formats the hardware's vertex fetch can read.  Per vertex: eg_run_vs
 * with the fetch resources of SET_RESOURCE (regs->resource, 8 dwords a slot)
 * and the constant buffers SQ_ALU_CONST_CACHE_VS_*, or many vertices at
 * once in a wave (vertices: eg_wave_run_vs, the same results).  Per pixel: the GPRs the
 * SPI loads (barycentrics as SPI_BARYC_CNTL enables them, the position, the
 * face and the sample index as SPI_PS_IN_CONTROL_0/1 place them), the
 * parameter cache from the primitive's inputs, eg_run_ps, its colour exports.
 * Texture fetches go to the texture unit (texture.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/regdb.h"
#include "cedar/shader.h"
#include "cedar/vtx_format.h"
#include "gs.h"
#include "tess.h"
#include "render_priv.h"
#include "texture.h"

#define MAX_PROGRAM_BYTES (1u << 20)   /* longest shader looked at: 128K instructions */
#define MAX_CF_SCAN 4096               /* CF instructions scanned for vertex fetches */
#define PS_MAX_GPRS 128
/* The channel of the SPI_PS_IN_CONTROL_1.FIXED_PT_POSITION GPR holding the
 * sample being shaded (Mesa sfn_shader_fs.cpp: gl_SampleID is that GPR's
 * w); its other channels are not modelled (left 0). */
#define FIXED_PT_SAMPLE_CHAN 3
/* The channel of the SPI_PS_IN_CONTROL_1.FRONT_FACE GPR holding the samples
 * the pixel covers (Mesa sfn_shader_fs.cpp: gl_SampleMaskIn is that GPR's
 * z, ANDed with 1 << gl_SampleID when shading per sample or with
 * multisampling off; Mesa's CI on a real Turks passes samplemask's
 * "sample partition", which reads it). */
#define FACE_MASK_CHAN 2

enum stage { STAGE_FS, STAGE_VS, STAGE_PS, STAGE_ES, STAGE_GS, STAGE_LS, STAGE_HS, STAGE_CS, STAGE_COUNT };

/* One thread's pixel stage for many pixels: the PS decoded for batches,
 * else the PS for waves of pixels or quads with their start values
 * (PS_MAX_GPRS per lane); neither: pixel by pixel. */
struct shade_lanes {
    struct eg_ps_batch *batch;
    struct eg_wave *wave;
    union eg_vec4 *gpr;
    struct eg_ps_param *param;  /* waves of several primitives: each one's parameters (made at the first) */
};
static const char *const stage_name[STAGE_COUNT] = {"FS", "VS", "PS", "ES", "GS", "LS", "HS", "CS"};

struct shade {
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct eg_program prog[STAGE_COUNT];
    bool have_fs;
    struct eg_shader_env env[8];       /* VS (with its fetch shader), PS, ES (the VS's, with rings), GS,
                                          LS (the VS's, with the LDS), HS, DS (the VS's, with the LDS),
                                          CS (compute.c: the LS's constants, its own resources) */
    bool cs;                           /* cs_begin mapped the compute program */
    bool tess;                         /* the tessellation path: LS and HS mapped (tess.c) */
    bool gs;                           /* the geometry path: ES and GS mapped (gs.c) */
    const struct vc_ring_sink *sink;   /* where the running ES / GS writes its rings */
    const struct vc_tess_sink *tess_sink; /* the running LS / HS / DS's patch */
    enum stage env_stage[2];
    /* how the SPI loads the PS's GPRs this draw (from the SPI registers) */
    enum vc_baryc baryc_order[VC_BARYC_COUNT];
    unsigned nbaryc;
    bool pos_ena, face_ena, face_all_bits, fixed_ena;
    unsigned pos_addr, face_addr, face_chan, fixed_addr;
    uint32_t all_samples;              /* a fully covered pixel's coverage (PA_SC_AA_CONFIG) */
    unsigned input_gprs;               /* R0.. the SPI loads */
    struct shade_lanes lanes;          /* the draw's pixel stage on the calling thread */
    struct eg_wave *vs_wave;           /* the draw's vertex stage in waves (vertices), made at its first use */
    bool vs_wave_failed;               /* it could not be made, or a run went back to eg_run_vs */
    bool quads;                        /* the PS reads its quad's neighbours: run in 2x2 quads */
    bool ps_heavy;                     /* the PS loops or fetches many texels (render_shade_heavy) */
    const struct cedar_tiling *tiling; /* the GPU's, for texture layouts */
    struct vc_render *r;               /* the renderer (image RATs are colour targets: cb.c) */
    struct rat_targets rats;           /* a dispatch's image RATs (rat.c) */
    struct tex_unit *tex;              /* the texture unit (texture.c) */
};


/* ---- programs in GPU memory ---------------------------------------------------- */

/* The program at SQ_PGM_START_<stage>: as many dwords as the buffer holding
 * it has from there (the interpreter stops at the end of a program, and
 * reports a jump outside it). */
static int map_program(struct shade *s, enum stage st, uint32_t start_reg, struct vc_draw_err *err)
{
    uint64_t addr = (uint64_t)vc_reg(s->regs, start_reg) << 8;
    const uint32_t *p = vc_mem_ptr(s->mem, addr, 8);
    if (!p)
        return rs_fail(err, "render: %s = 0x%llx is not inside a GPU buffer", eg_reg_find(start_reg)->name,
                       (unsigned long long)addr);
    uint64_t ok = 8, bad = MAX_PROGRAM_BYTES + 8;
    if (vc_mem_ptr(s->mem, addr, MAX_PROGRAM_BYTES))
        ok = MAX_PROGRAM_BYTES;
    else
        while (bad - ok > 8) { /* largest readable length, a multiple of 8 bytes */
            uint64_t mid = (ok + (bad - ok) / 2) & ~7ull;
            if (vc_mem_ptr(s->mem, addr, mid))
                ok = mid;
            else
                bad = mid;
        }
    s->prog[st].name = stage_name[st];
    s->prog[st].dw = p;
    s->prog[st].ndw = (size_t)(ok / 4);
    return 0;
}

/* ---- the environment the interpreter sees ---------------------------------------- */

static const uint32_t *resource_words(const struct vc_regs *regs, unsigned slot)
{
    return &regs->resource[slot * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS];
}

static int vtx_resource(void *ctx, unsigned slot, struct eg_vtx_resource *out, char *msg, size_t msglen)
{
    const struct shade *s = ctx;
    if (slot >= V_SQ_FETCH_RESOURCE_BASE__COUNT)
        return rs_msg_fail(msg, msglen, "fetch resource %u does not exist", slot);
    const uint32_t *w = resource_words(s->regs, slot);
    if (G_SQ_VTX_CONSTANT_WORD7__TYPE(w[7]) != V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER)
        return rs_msg_fail(msg, msglen, "fetch resource %u is not a valid buffer (SQ_VTX_CONSTANT_WORD7.TYPE %u)",
                           slot, G_SQ_VTX_CONSTANT_WORD7__TYPE(w[7]));
    out->base = G_SQ_VTX_CONSTANT_WORD0__BASE_ADDRESS(w[0]) |
                (uint64_t)G_SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI(w[2]) << 32;
    out->size = (uint64_t)G_SQ_VTX_CONSTANT_WORD1__SIZE(w[1]) + 1;
    out->stride = G_SQ_VTX_CONSTANT_WORD2__STRIDE(w[2]);
    out->data_format = G_SQ_VTX_CONSTANT_WORD2__DATA_FORMAT(w[2]);
    out->num_format = G_SQ_VTX_CONSTANT_WORD2__NUM_FORMAT_ALL(w[2]);
    out->format_comp = G_SQ_VTX_CONSTANT_WORD2__FORMAT_COMP_ALL(w[2]);
    out->srf_mode = G_SQ_VTX_CONSTANT_WORD2__SRF_MODE_ALL(w[2]);
    out->endian_swap = G_SQ_VTX_CONSTANT_WORD2__ENDIAN_SWAP(w[2]);
    return 0;
}

/* ALU constant `index` of constant buffer `bank`: SQ_ALU_CONST_CACHE_<stage>_<bank>
 * holds its address >> 8, SQ_ALU_CONST_BUFFER_SIZE_<stage>_<bank> its size. */
static int constant(const struct shade *s, bool ps, unsigned bank, unsigned index, uint32_t out[4], char *msg,
                    size_t msglen)
{
    if (bank >= 16)
        return rs_msg_fail(msg, msglen, "constant buffer %u does not exist", bank);
    uint32_t base = vc_reg(s->regs, ps ? REG_SQ_ALU_CONST_CACHE_PS(bank) : REG_SQ_ALU_CONST_CACHE_VS(bank));
    uint32_t units = vc_reg(s->regs, ps ? REG_SQ_ALU_CONST_BUFFER_SIZE_PS(bank) : REG_SQ_ALU_CONST_BUFFER_SIZE_VS(bank));
    uint64_t size = (uint64_t)units * V_SQ_STAGE_LAYOUT__CONST_BUFFER_UNIT;
    uint64_t off = (uint64_t)index * V_SQ_STAGE_LAYOUT__CONST_BYTES;
    if (off + V_SQ_STAGE_LAYOUT__CONST_BYTES > size)
        return rs_msg_fail(msg, msglen, "constant %u is outside constant buffer %u (%llu bytes)", index, bank,
                           (unsigned long long)size);
    const uint8_t *p = vc_mem_ptr(s->mem, ((uint64_t)base << 8) + off, V_SQ_STAGE_LAYOUT__CONST_BYTES);
    if (!p)
        return rs_msg_fail(msg, msglen, "constant buffer %u at 0x%llx is not inside a GPU buffer", bank,
                           (unsigned long long)base << 8);
    memcpy(out, p, V_SQ_STAGE_LAYOUT__CONST_BYTES);
    return 0;
}

static int constant_vs(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen)
{
    return constant(ctx, false, bank, index, out, msg, msglen);
}

static int constant_ps(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen)
{
    return constant(ctx, true, bank, index, out, msg, msglen);
}

/* SQ_LOOP_CONST / SQ_BOOL_CONST of a stage (regs/sq.regs SQ_CONST_STAGE),
 * the read told to the register watch as vc_reg() does. */
static uint32_t const_reg(const struct shade *s, const uint32_t *space, uint32_t start, uint32_t offset)
{
    if (s->regs->watch)
        s->regs->watch->read(s->regs->watch, offset, __func__, __FILE__);
    return space[(offset - start) / 4];
}

static int loop_const(const struct shade *s, unsigned stage, unsigned index, uint32_t *out, char *msg,
                      size_t msglen)
{
    if (index >= V_SQ_CONST_STAGE__LOOPS_PER_STAGE)
        return rs_msg_fail(msg, msglen, "loop constant %u does not exist", index);
    *out = const_reg(s, s->regs->loop_const, SPACE_LOOP_CONST_START,
                     REG_SQ_LOOP_CONST(stage * V_SQ_CONST_STAGE__LOOPS_PER_STAGE + index));
    return 0;
}

static int loop_const_vs(void *ctx, unsigned index, uint32_t *out, char *msg, size_t msglen)
{
    return loop_const(ctx, V_SQ_CONST_STAGE__VS, index, out, msg, msglen);
}

static int loop_const_ps(void *ctx, unsigned index, uint32_t *out, char *msg, size_t msglen)
{
    return loop_const(ctx, V_SQ_CONST_STAGE__PS, index, out, msg, msglen);
}

static int bool_const(const struct shade *s, unsigned stage, unsigned index, bool *out, char *msg, size_t msglen)
{
    if (index >= 32)
        return rs_msg_fail(msg, msglen, "boolean constant %u does not exist", index);
    *out = const_reg(s, s->regs->bool_const, SPACE_BOOL_CONST_START, SPACE_BOOL_CONST_START + 4 * stage) >> index & 1u;
    return 0;
}

static int bool_const_vs(void *ctx, unsigned index, bool *out, char *msg, size_t msglen)
{
    return bool_const(ctx, V_SQ_CONST_STAGE__VS, index, out, msg, msglen);
}

static int bool_const_ps(void *ctx, unsigned index, bool *out, char *msg, size_t msglen)
{
    return bool_const(ctx, V_SQ_CONST_STAGE__PS, index, out, msg, msglen);
}

static int loop_const_cs(void *ctx, unsigned index, uint32_t *out, char *msg, size_t msglen)
{
    return loop_const(ctx, V_SQ_CONST_STAGE__CS, index, out, msg, msglen);
}

static int bool_const_cs(void *ctx, unsigned index, bool *out, char *msg, size_t msglen)
{
    return bool_const(ctx, V_SQ_CONST_STAGE__CS, index, out, msg, msglen);
}

static int loop_const_gs(void *ctx, unsigned index, uint32_t *out, char *msg, size_t msglen)
{
    return loop_const(ctx, V_SQ_CONST_STAGE__GS, index, out, msg, msglen);
}

static int bool_const_gs(void *ctx, unsigned index, bool *out, char *msg, size_t msglen)
{
    return bool_const(ctx, V_SQ_CONST_STAGE__GS, index, out, msg, msglen);
}

/* Constant `index` of a stage whose buffer `bank` is at cache_reg(bank) and
 * size_reg(bank) long: the GS's (SQ_ALU_CONST_CACHE_GS_*), the LS's and the
 * HS's.  The ES reads the VS's (Evergreen has no ES constant registers;
 * Mesa binds the vertex shader's constants there whether it runs as the VS
 * or the ES); a VS run as the LS reads the LS's (Mesa
 * evergreen_emit_vs_constant_buffers: vs_as_ls). */
static int stage_constant(const struct shade *s, const char *name, uint32_t (*cache_reg)(uint64_t),
                          uint32_t (*size_reg)(uint64_t), unsigned bank, unsigned index, uint32_t out[4], char *msg,
                          size_t msglen)
{
    if (bank >= 16)
        return rs_msg_fail(msg, msglen, "constant buffer %u does not exist", bank);
    uint64_t size = (uint64_t)vc_reg(s->regs, size_reg(bank)) * V_SQ_STAGE_LAYOUT__CONST_BUFFER_UNIT;
    uint64_t off = (uint64_t)index * V_SQ_STAGE_LAYOUT__CONST_BYTES;
    if (off + V_SQ_STAGE_LAYOUT__CONST_BYTES > size)
        return rs_msg_fail(msg, msglen, "constant %u is outside %s constant buffer %u (%llu bytes)", index, name, bank,
                           (unsigned long long)size);
    uint64_t base = (uint64_t)vc_reg(s->regs, cache_reg(bank)) << 8;
    const uint8_t *p = vc_mem_ptr(s->mem, base + off, V_SQ_STAGE_LAYOUT__CONST_BYTES);
    if (!p)
        return rs_msg_fail(msg, msglen, "%s constant buffer %u at 0x%llx is not inside a GPU buffer", name, bank,
                           (unsigned long long)base);
    memcpy(out, p, V_SQ_STAGE_LAYOUT__CONST_BYTES);
    return 0;
}

static uint32_t cache_gs(uint64_t b) { return REG_SQ_ALU_CONST_CACHE_GS(b); }
static uint32_t size_gs(uint64_t b) { return REG_SQ_ALU_CONST_BUFFER_SIZE_GS(b); }
static uint32_t cache_ls(uint64_t b) { return REG_SQ_ALU_CONST_CACHE_LS(b); }
static uint32_t size_ls(uint64_t b) { return REG_SQ_ALU_CONST_BUFFER_SIZE_LS(b); }
static uint32_t cache_hs(uint64_t b) { return REG_SQ_ALU_CONST_CACHE_HS(b); }
static uint32_t size_hs(uint64_t b) { return REG_SQ_ALU_CONST_BUFFER_SIZE_HS(b); }

static int constant_gs(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen)
{
    return stage_constant(ctx, "GS", cache_gs, size_gs, bank, index, out, msg, msglen);
}

static int constant_ls(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen)
{
    return stage_constant(ctx, "LS", cache_ls, size_ls, bank, index, out, msg, msglen);
}

static int constant_hs(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen)
{
    return stage_constant(ctx, "HS", cache_hs, size_hs, bank, index, out, msg, msglen);
}

/* The running HS's TF_WRITE, to the tessellation path. */
static int tess_tf_write(void *ctx, uint32_t addr, uint32_t value, char *msg, size_t msglen)
{
    const struct shade *s = ctx;
    if (!s->tess_sink)
        return rs_msg_fail(msg, msglen, "a TF_WRITE outside the HS");
    return s->tess_sink->tf_write(s->tess_sink->ctx, addr, value, msg, msglen);
}

/* The running ES's / GS's ring writes and emits, to the geometry path. */
static int ring_write(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg,
                      size_t msglen)
{
    const struct shade *s = ctx;
    if (!s->sink)
        return rs_msg_fail(msg, msglen, "a ring write outside the ES and GS");
    return s->sink->write(s->sink->ctx, ring, dw, v, mask, msg, msglen);
}

static int ring_emit(void *ctx, unsigned stream, bool emit, bool cut, char *msg, size_t msglen)
{
    const struct shade *s = ctx;
    if (!s->sink)
        return rs_msg_fail(msg, msglen, "an emit outside the GS");
    return s->sink->emit(s->sink->ctx, stream, emit, cut, msg, msglen);
}

/* The texture unit's answers (texture.c), for both stages: their
 * resource and sampler numbers do not overlap. */
static int tex_resource(void *ctx, unsigned slot, struct eg_tex_resource *out, char *msg, size_t msglen)
{
    return tex_unit_resource(((const struct shade *)ctx)->tex, slot, out, msg, msglen);
}

static int tex_sampler(void *ctx, unsigned sampler, unsigned slot, struct eg_tex_sampler *out, char *msg,
                       size_t msglen)
{
    return tex_unit_sampler(((const struct shade *)ctx)->tex, sampler, slot, out, msg, msglen);
}

static int tex_texel(void *ctx, unsigned slot, int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg,
                     size_t msglen)
{
    return tex_unit_texel(((const struct shade *)ctx)->tex, slot, x, y, z, sample, out, msg, msglen);
}

static int tex_texel_reader(void *ctx, unsigned slot, struct eg_texel_reader *out, char *msg, size_t msglen)
{
    return tex_unit_reader(((const struct shade *)ctx)->tex, slot, out, msg, msglen);
}

static int tex_texel_level(void *ctx, unsigned slot, unsigned level, int x, int y, int z, union eg_vec4 *out,
                           char *msg, size_t msglen)
{
    return tex_unit_texel_level(((const struct shade *)ctx)->tex, slot, level, x, y, z, out, msg, msglen);
}

static int tex_fmask(void *ctx, unsigned slot, int x, int y, int z, uint32_t *out, char *msg, size_t msglen)
{
    return tex_unit_fmask(((const struct shade *)ctx)->tex, slot, x, y, z, out, msg, msglen);
}

/* ---- vertex formats the hardware fetches ------------------------------------------- */

static const char *enum_name(const char *e, uint32_t v)
{
    const struct eg_enum *en = eg_enum_find_name(e);
    const char *n = en ? eg_enum_value_name(en, v) : NULL;
    return n ? n : "?";
}

static int check_vtx(const struct shade *s, enum stage st, size_t pc, size_t at, const uint32_t w[4],
                     struct vc_draw_err *err)
{
    unsigned inst = G_SQ_VTX_WORD0__VTX_INST(w[0]);
    if (inst != V_SQ_VTX_INST__FETCH && inst != V_SQ_VTX_INST__SEMANTIC)
        return 0; /* the interpreter reports what it does not model */
    unsigned fmt = G_SQ_VTX_WORD1_GPR__DATA_FORMAT(w[1]), nfmt = G_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(w[1]);
    unsigned slot = (st == STAGE_FS   ? V_SQ_FETCH_RESOURCE_BASE__FS
                     : st == STAGE_GS ? V_SQ_FETCH_RESOURCE_BASE__GS
                     : st == STAGE_LS ? V_SQ_FETCH_RESOURCE_BASE__LS
                     : st == STAGE_HS ? V_SQ_FETCH_RESOURCE_BASE__HS
                     : st == STAGE_CS ? V_SQ_FETCH_RESOURCE_BASE__CS
                                      : V_SQ_FETCH_RESOURCE_BASE__VS) +
                    G_SQ_VTX_WORD0__BUFFER_ID(w[0]);
    if (G_SQ_VTX_WORD1_GPR__USE_CONST_FIELDS(w[1]) && slot < V_SQ_FETCH_RESOURCE_BASE__COUNT) {
        const uint32_t *r = resource_words(s->regs, slot);
        fmt = G_SQ_VTX_CONSTANT_WORD2__DATA_FORMAT(r[2]);
        nfmt = G_SQ_VTX_CONSTANT_WORD2__NUM_FORMAT_ALL(r[2]);
    }
    const char *why = eg_vtx_format_refusal(fmt, nfmt); /* the shader core's table (vtx_format.c) */
    if (why)
        return rs_fail(err, "shader %s PC %zu (clause instruction at %zu): vertex fetch of %s %s from resource %u cannot be fetched: %s",
                       stage_name[st], pc, at, enum_name("SQ_DATA_FORMAT", fmt), enum_name("SQ_NUM_FORMAT", nfmt),
                       slot, why);
    return 0;
}

/* Each instruction of the vertex (tex false) or texture (tex true) fetch
 * clauses of a stage's program, found by walking its CF program to its end
 * (END_OF_PROGRAM, or the fetch shader's RETURN): fn(s, st, pc, at, words)
 * until it returns non-zero, which is returned. */
typedef int (*fetch_fn)(const struct shade *s, enum stage st, size_t pc, size_t at, const uint32_t w[4],
                        struct vc_draw_err *err);
static int each_fetch(const struct shade *s, enum stage st, bool tex, fetch_fn fn, struct vc_draw_err *err)
{
    const struct eg_program *p = &s->prog[st];
    for (size_t pc = 0; pc < MAX_CF_SCAN && 2 * pc + 1 < p->ndw; pc++) {
        uint32_t w0 = p->dw[2 * pc], w1 = p->dw[2 * pc + 1];
        if (G_SQ_CF_ALU_WORD1__CF_INST(w1) >= V_SQ_CF_ALU_INST__ALU)
            continue; /* an ALU clause (its 4-bit CF_INST sits in the top bits) */
        unsigned inst = G_SQ_CF_WORD1__CF_INST(w1);
        if (tex ? inst == V_SQ_CF_INST__TC || inst == V_SQ_CF_INST__TC_ACK
                : inst == V_SQ_CF_INST__VC || inst == V_SQ_CF_INST__VC_ACK) {
            size_t addr = G_SQ_CF_WORD0__ADDR(w0);
            size_t count = G_SQ_CF_WORD1__COUNT(w1) + 1;
            for (size_t k = 0; k < count; k++) {
                size_t at = addr + 2 * k; /* 128-bit instructions, in 64-bit words */
                if (2 * at + 4 > p->ndw)
                    break; /* the interpreter reports the clause outside the program */
                int r = fn(s, st, pc, at, &p->dw[2 * at], err);
                if (r)
                    return r;
            }
        }
        if (G_SQ_CF_WORD1__END_OF_PROGRAM(w1) || (st == STAGE_FS && inst == V_SQ_CF_INST__RETURN))
            break;
    }
    return 0;
}

/* Every vertex fetch of a fetch / vertex shader against the formats. */
static int check_vertex_formats(const struct shade *s, enum stage st, struct vc_draw_err *err)
{
    return each_fetch(s, st, false, check_vtx, err) ? -1 : 0;
}

/* 1 for a texture instruction that reads its quad's neighbours: the
 * derivatives and the implicit level of detail. */
static int reads_neighbours(const struct shade *s, enum stage st, size_t pc, size_t at, const uint32_t w[4],
                            struct vc_draw_err *err)
{
    (void)s, (void)st, (void)pc, (void)at, (void)err;
    switch (G_SQ_TEX_WORD0__TEX_INST(w[0])) {
    case V_SQ_TEX_INST__GET_GRADIENTS_H:
    case V_SQ_TEX_INST__GET_GRADIENTS_V:
    case V_SQ_TEX_INST__SAMPLE:
    case V_SQ_TEX_INST__SAMPLE_C:
    case V_SQ_TEX_INST__SAMPLE_LB:
    case V_SQ_TEX_INST__SAMPLE_C_LB:
    case V_SQ_TEX_INST__GET_LOD:
        return 1;
    default:
        return 0;
    }
}

/* The barycentric pairs SPI_BARYC_CNTL enables, in the order the SPI loads
 * them into the GPRs, two per GPR (xy, zw) from R0 (Mesa r600_shader.c:
 * eg_interpolators ordered by eg_get_interpolator_index, GPR ij_index / 2,
 * channel 2 * (ij_index % 2)). */
static unsigned baryc_enabled(uint32_t cntl, enum vc_baryc order[VC_BARYC_COUNT])
{
    unsigned n = 0;
    if (G_SPI_BARYC_CNTL__PERSP_SAMPLE_ENA(cntl))
        order[n++] = VC_BARYC_PERSP_SAMPLE;
    if (G_SPI_BARYC_CNTL__PERSP_CENTER_ENA(cntl))
        order[n++] = VC_BARYC_PERSP_CENTER;
    if (G_SPI_BARYC_CNTL__PERSP_CENTROID_ENA(cntl))
        order[n++] = VC_BARYC_PERSP_CENTROID;
    if (G_SPI_BARYC_CNTL__LINEAR_SAMPLE_ENA(cntl))
        order[n++] = VC_BARYC_LINEAR_SAMPLE;
    if (G_SPI_BARYC_CNTL__LINEAR_CENTER_ENA(cntl))
        order[n++] = VC_BARYC_LINEAR_CENTER;
    if (G_SPI_BARYC_CNTL__LINEAR_CENTROID_ENA(cntl))
        order[n++] = VC_BARYC_LINEAR_CENTROID;
    return n;
}


/* Where the SPI puts the pixel shader's inputs this draw: the barycentric
 * pairs, the position (SPI_PS_IN_CONTROL_0) and the face (SPI_PS_IN_CONTROL_1). */
static void spi_gpr_layout(struct shade *s, const struct vc_regs *regs)
{
    s->nbaryc = baryc_enabled(vc_reg(regs, REG_SPI_BARYC_CNTL), s->baryc_order);
    unsigned ngpr = (s->nbaryc + 1) / 2;
    uint32_t c0 = vc_reg(regs, REG_SPI_PS_IN_CONTROL_0), c1 = vc_reg(regs, REG_SPI_PS_IN_CONTROL_1);
    s->pos_ena = G_SPI_PS_IN_CONTROL_0__POSITION_ENA(c0);
    s->pos_addr = G_SPI_PS_IN_CONTROL_0__POSITION_ADDR(c0);
    if (s->pos_ena && s->pos_addr + 1 > ngpr)
        ngpr = s->pos_addr + 1;
    s->face_ena = G_SPI_PS_IN_CONTROL_1__FRONT_FACE_ENA(c1);
    s->face_addr = G_SPI_PS_IN_CONTROL_1__FRONT_FACE_ADDR(c1);
    s->face_chan = G_SPI_PS_IN_CONTROL_1__FRONT_FACE_CHAN(c1);
    s->face_all_bits = G_SPI_PS_IN_CONTROL_1__FRONT_FACE_ALL_BITS(c1);
    if (s->face_ena && s->face_addr + 1 > ngpr)
        ngpr = s->face_addr + 1;
    s->fixed_ena = G_SPI_PS_IN_CONTROL_1__FIXED_PT_POSITION_ENA(c1);
    s->fixed_addr = G_SPI_PS_IN_CONTROL_1__FIXED_PT_POSITION_ADDR(c1);
    if (s->fixed_ena && s->fixed_addr + 1 > ngpr)
        ngpr = s->fixed_addr + 1;
    s->input_gprs = ngpr;
    unsigned samples = 1u << G_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(vc_reg(regs, REG_PA_SC_AA_CONFIG));
    s->all_samples = samples >= 32 ? ~0u : (1u << samples) - 1u;
}

/* The GPR start values of one pixel (gpr[0 .. input_gprs - 1]). */
static void spi_load_gprs(const struct shade *s, const struct vc_prim_inputs *prim, const struct vc_pixel_in *in,
                          union eg_vec4 *gpr)
{
    memset(gpr, 0, s->input_gprs * sizeof *gpr);
    for (unsigned k = 0; k < s->nbaryc; k++) {
        union eg_vec4 *g = &gpr[k / 2];
        g->f[2 * (k % 2)] = in->ij[s->baryc_order[k]][0];
        g->f[2 * (k % 2) + 1] = in->ij[s->baryc_order[k]][1];
    }
    if (s->pos_ena)
        memcpy(gpr[s->pos_addr].f, in->pos, sizeof gpr[s->pos_addr].f);
    if (s->face_ena) {
        gpr[s->face_addr].u[FACE_MASK_CHAN] = in->coverage;
        /* ALL_BITS: ~0 for front, 0 for back; else +1.0 / -1.0 (Mesa tests its sign) */
        if (s->face_all_bits)
            gpr[s->face_addr].u[s->face_chan] = prim->front_face ? 0xFFFFFFFFu : 0u;
        else
            gpr[s->face_addr].f[s->face_chan] = prim->front_face ? 1.0f : -1.0f;
    }
    if (s->fixed_ena)
        gpr[s->fixed_addr].u[FIXED_PT_SAMPLE_CHAN] = in->sample;
}

/* ---- the stages ------------------------------------------------------------------- */

/* A stage's view with the fetch resources, the texture unit and the given
 * constants; the rest (rings, LDS, RATs ...) cleared. */
static void env_init(struct eg_shader_env *e, struct shade *s, const struct vc_mem *mem,
                     int (*constant_fn)(void *, unsigned, unsigned, uint32_t *, char *, size_t),
                     int (*loop_fn)(void *, unsigned, uint32_t *, char *, size_t),
                     int (*bool_fn)(void *, unsigned, bool *, char *, size_t))
{
    memset(e, 0, sizeof *e);
    e->ctx = s;
    e->mem = mem;
    e->vtx_resource = vtx_resource;
    e->constant = constant_fn;
    e->tex_resource = tex_resource;
    e->tex_sampler = tex_sampler;
    e->texel = tex_texel;
    e->texel_level = tex_texel_level;
    e->tex_fmask = tex_fmask;
    e->texel_reader = tex_texel_reader;
    e->loop_const = loop_fn;
    e->bool_const = bool_fn;
}

static int begin(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, bool pixels,
                 struct vc_draw_err *err)
{
    struct shade *s = ctx;
    s->regs = regs;
    s->mem = mem;
    memset(s->prog, 0, sizeof s->prog);
    if (map_program(s, STAGE_VS, REG_SQ_PGM_START_VS, err))
        return -1;
    /* The fetch shader is only needed when the VS calls it; a VS without
     * CALL_FS draws with whatever SQ_PGM_START_FS holds. */
    s->have_fs = map_program(s, STAGE_FS, REG_SQ_PGM_START_FS, &(struct vc_draw_err){{0}}) == 0;
    if (pixels && map_program(s, STAGE_PS, REG_SQ_PGM_START_PS, err))
        return -1;
    if (s->have_fs && check_vertex_formats(s, STAGE_FS, err))
        return -1;
    if (check_vertex_formats(s, STAGE_VS, err))
        return -1;
    s->gs = gs_enabled(regs);
    if (s->gs && (map_program(s, STAGE_ES, REG_SQ_PGM_START_ES, err) || map_program(s, STAGE_GS, REG_SQ_PGM_START_GS, err) ||
                  check_vertex_formats(s, STAGE_ES, err) || check_vertex_formats(s, STAGE_GS, err)))
        return -1;
    /* with a GS too, SQ_PGM_START_ES (mapped above) holds the DS */
    s->tess = tess_enabled(regs);
    if (s->tess && (map_program(s, STAGE_LS, REG_SQ_PGM_START_LS, err) || map_program(s, STAGE_HS, REG_SQ_PGM_START_HS, err) ||
                    check_vertex_formats(s, STAGE_LS, err) || check_vertex_formats(s, STAGE_HS, err)))
        return -1;

    tex_unit_begin(s->tex, regs, mem, s->tiling);

    struct eg_shader_env *vs = &s->env[0], *ps = &s->env[1];
    env_init(vs, s, mem, constant_vs, loop_const_vs, bool_const_vs);
    /* Semantic table: an entry is in use when it holds an id other than 0
     * and 0xFF (SQ_VTX_SEMANTIC_CLEAR / an unwritten register). */
    for (unsigned i = 0; i < 32; i++) {
        uint32_t v = vc_reg(regs, REG_SQ_VTX_SEMANTIC(i));
        unsigned id = G_SQ_VTX_SEMANTIC__SEMANTIC_ID(v);
        vs->vtx_semantic[i] = v;
        if (id != 0 && id != 0xFF)
            vs->vtx_semantic_valid |= 1u << i;
    }
    /* the ES: the VS's resources and constants, and the ESGS ring; the GS:
     * its own constants, and both rings */
    s->env[2] = *vs;
    s->env[2].ring_write = ring_write;
    s->env[2].emit = ring_emit;
    s->env[3] = s->env[2];
    s->env[3].constant = constant_gs;
    s->env[3].loop_const = loop_const_gs;
    s->env[3].bool_const = bool_const_gs;
    /* the LS: the VS's resources with the LS's constants; the HS its own;
     * the DS the VS's; each with the patch's LDS when it runs */
    s->env[4] = *vs;
    s->env[4].constant = constant_ls;
    s->env[4].loop_const = NULL;
    s->env[4].bool_const = NULL;
    s->env[5] = s->env[4];
    s->env[5].constant = constant_hs;
    s->env[6] = *vs;
    env_init(ps, s, mem, constant_ps, loop_const_ps, bool_const_ps);
    spi_gpr_layout(s, regs);
    eg_ps_batch_free(s->lanes.batch);
    eg_wave_free(s->lanes.wave);
    s->lanes.wave = NULL;
    eg_wave_free(s->vs_wave);   /* its decoded clauses hold this draw's constants */
    s->vs_wave = NULL;
    s->vs_wave_failed = false;
    s->lanes.batch = pixels ? eg_ps_batch_new(&s->prog[STAGE_PS], ps, s->input_gprs) : NULL;
    s->quads = pixels && !s->lanes.batch && each_fetch(s, STAGE_PS, true, reads_neighbours, err) > 0;
    s->ps_heavy = pixels && (eg_program_has_loop(&s->prog[STAGE_PS]) ||
                             eg_program_tex_fetches(&s->prog[STAGE_PS]) >= HEAVY_TEX_FETCHES);
    if (pixels && !s->lanes.batch && s->lanes.gpr)
        s->lanes.wave = eg_wave_new(&s->prog[STAGE_PS], ps);
    return 0;
}

/* A vertex stage's exports as the renderer takes them (`what` and `index`
 * name the vertex when it exported no position): every position, 0 where
 * not exported, and the parameters param_mask names (the others are left
 * as they were: see cedar/render.h, vertices). */
static int vertex_out(const struct eg_vs_output *o, struct vc_vertex_out *out, const char *what, uint32_t index,
                      struct vc_draw_err *err)
{
    if (!(o->pos_mask & 1u))
        return rs_fail(err, "render: shader VS exported no position 0 for %s %u", what, index);
    memcpy(out->pos, o->pos[0].f, sizeof out->pos);
    for (unsigned k = 1; k < 4; k++)
        if ((o->pos_mask >> k) & 1u)
            memcpy(out->pos_extra[k - 1], o->pos[k].f, sizeof out->pos_extra[k - 1]);
        else
            memset(out->pos_extra[k - 1], 0, sizeof out->pos_extra[k - 1]);
    out->param_mask = o->param_mask;
    for (uint32_t m = o->param_mask & (uint32_t)((1ull << VC_RENDER_MAX_PARAMS) - 1); m; m &= m - 1) {
        unsigned n = (unsigned)__builtin_ctz(m);
        memcpy(out->param[n], o->param[n].f, sizeof out->param[n]);
    }
    return 0;
}

static int vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index, uint32_t instance,
                  struct vc_vertex_out *out, struct vc_draw_err *err)
{
    struct shade *s = ctx;
    (void)regs;
    (void)mem;
    struct eg_vs_output o;
    struct eg_shader_err e;
    if (eg_run_vs(&s->prog[STAGE_VS], s->have_fs ? &s->prog[STAGE_FS] : NULL, &s->env[0], index, instance, &o, &e))
        return rs_fail(err, "render: %s", e.msg);
    return vertex_out(&o, out, "vertex", index, err);
}

/* Vertices in a wave (eg_wave_run_vs): 0, or 1 (the caller runs them
 * through vertex).  After a run that went back, the draw's vertices go one
 * by one (what made it go back is in the program, most likely, and would
 * again). */
static int vertices(void *ctx, const uint32_t *index, unsigned n, uint32_t instance,
                    struct vc_vertex_out *const *out)
{
    struct shade *s = ctx;
    if (s->vs_wave_failed || n == 0 || n > EG_WAVE_MAX)
        return 1;
    if (!s->vs_wave &&
        !(s->vs_wave = eg_wave_new_vs(&s->prog[STAGE_VS], s->have_fs ? &s->prog[STAGE_FS] : NULL, &s->env[0]))) {
        s->vs_wave_failed = true;
        return 1;
    }
    union eg_vec4 r0[EG_WAVE_MAX];
    struct eg_vs_output o[EG_WAVE_MAX];
    for (unsigned l = 0; l < n; l++)
        r0[l] = (union eg_vec4){ .u = { index[l], 0, 0, instance } };
    if (eg_wave_run_vs(s->vs_wave, r0, n, o)) {
        s->vs_wave_failed = true;
        return 1;
    }
    for (unsigned l = 0; l < n; l++)
        if (!(o[l].pos_mask & 1u))
            return 1;   /* vertex reports it */
    for (unsigned l = 0; l < n; l++)
        vertex_out(&o[l], out[l], "vertex", index[l], NULL);
    return 0;
}

static int stream_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                         uint32_t instance, struct eg_stream_out *out, struct vc_draw_err *err)
{
    struct shade *s = ctx;
    (void)regs;
    (void)mem;
    struct eg_vs_output o;
    struct eg_shader_err e;
    if (eg_run_vs_stream(&s->prog[STAGE_VS], s->have_fs ? &s->prog[STAGE_FS] : NULL, &s->env[0], index, instance,
                         &o, out, &e))
        return rs_fail(err, "render: %s", e.msg);
    return 0;
}

/* The geometry path's stages (gs.c): the ES with the VS's bases, the GS
 * with its own. */
static int run_ring_stage(struct shade *s, enum stage st, const struct eg_stage_start *start,
                          const struct vc_ring_sink *sink, struct vc_draw_err *err)
{
    if (!s->gs)
        return rs_fail(err, "render: the %s ran outside a geometry-shader draw", stage_name[st]);
    struct eg_vs_output o;
    struct eg_shader_err e;
    s->sink = sink;
    int rc = eg_run_stage(&s->prog[st], st == STAGE_ES && s->have_fs ? &s->prog[STAGE_FS] : NULL,
                          &s->env[st == STAGE_ES ? 2 : 3], start, &o, &e);
    s->sink = NULL;
    if (rc)
        return rs_fail(err, "render: %s", e.msg);
    if (o.pos_mask || o.param_mask)
        return rs_fail(err, "render: shader %s exported a position or parameter (it writes rings)", stage_name[st]);
    return 0;
}

static int es(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index, uint32_t instance,
              const struct vc_ring_sink *sink, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    const struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__VS, V_SQ_SAMPLER_BASE__VS,
                                      {.u = {index, 0, 0, instance}}, {.u = {0}}};
    return run_ring_stage(ctx, STAGE_ES, &st, sink, err);
}

static int gs(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
              const uint32_t r1[4], const struct vc_ring_sink *sink, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__GS, V_SQ_SAMPLER_BASE__GS, {.u = {0}}, {.u = {0}}};
    memcpy(st.r0.u, r0, sizeof st.r0.u);
    memcpy(st.r1.u, r1, sizeof st.r1.u);
    return run_ring_stage(ctx, STAGE_GS, &st, sink, err);
}

/* The tessellation path's stages (tess.c): the env gets the patch's LDS and
 * factor memory for the run. */
static int run_tess_stage(struct shade *s, enum stage st, unsigned envi, const struct eg_program *fs,
                          const struct eg_stage_start *start, const union eg_vec4 *lanes, unsigned nlanes,
                          const struct vc_tess_sink *sink, struct eg_vs_output *o, struct vc_draw_err *err)
{
    if (!s->tess)
        return rs_fail(err, "render: the %s ran outside a tessellated draw", st == STAGE_VS ? "DS" : stage_name[st]);
    struct eg_shader_env *env = &s->env[envi];
    struct eg_shader_err e;
    env->ctx = s;
    env->lds = sink->lds;
    env->lds_bytes = sink->lds_bytes;
    s->tess_sink = sink;
    env->tf_write = st == STAGE_HS ? tess_tf_write : NULL;
    int rc = lanes ? eg_run_stage_lanes(&s->prog[st], env, start, lanes, nlanes, o, &e)
                   : eg_run_stage(&s->prog[st], fs, env, start, o, &e);
    s->tess_sink = NULL;
    if (rc)
        return rs_fail(err, "render: %s", e.msg);
    if (st != STAGE_VS && (o->pos_mask || o->param_mask))
        return rs_fail(err, "render: shader %s exported a position or parameter (it writes the LDS)", stage_name[st]);
    return 0;
}

static int ls(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index, uint32_t instance,
              uint32_t rel, const struct vc_tess_sink *sink, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    struct shade *s = ctx;
    const struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__LS, V_SQ_SAMPLER_BASE__LS,
                                      {.u = {index, rel, 0, instance}}, {.u = {0}}};
    struct eg_vs_output o;
    return run_tess_stage(s, STAGE_LS, 4, s->have_fs ? &s->prog[STAGE_FS] : NULL, &st, NULL, 0, sink, &o, err);
}

static int hs(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t (*r0)[4], unsigned n,
              const struct vc_tess_sink *sink, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    const struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__HS, V_SQ_SAMPLER_BASE__HS, {.u = {0}}, {.u = {0}}};
    union eg_vec4 lanes[EG_STAGE_MAX_LANES];
    if (n > EG_STAGE_MAX_LANES)
        return rs_fail(err, "render: %u HS invocations in a patch (at most %d)", n, EG_STAGE_MAX_LANES);
    for (unsigned i = 0; i < n; i++)
        memcpy(lanes[i].u, r0[i], sizeof lanes[i].u);
    struct eg_vs_output o;
    return run_tess_stage(ctx, STAGE_HS, 5, NULL, &st, lanes, n, sink, &o, err);
}

static int ds(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
              const struct vc_tess_sink *sink, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__VS, V_SQ_SAMPLER_BASE__VS, {.u = {0}}, {.u = {0}}};
    memcpy(st.r0.u, r0, sizeof st.r0.u);
    struct eg_vs_output o;
    if (run_tess_stage(ctx, STAGE_VS, 6, NULL, &st, NULL, 0, sink, &o, err))
        return -1;
    return vertex_out(&o, out, "the domain point of patch", r0[3], err);
}

/* The DS run as the ES (tessellation into a geometry shader): the VS's
 * resources and constants as the DS has them (Mesa emits the TES's to the
 * VS's slots, "VS or ES - which are common"), the patch's LDS, and the
 * ESGS ring for its outputs. */
static int ds_es(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
                 const struct vc_tess_sink *sink, const struct vc_ring_sink *ring, struct vc_draw_err *err)
{
    (void)regs, (void)mem;
    struct shade *s = ctx;
    if (!s->gs)
        return rs_fail(err, "render: the DS ran as the ES outside a geometry-shader draw");
    struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__VS, V_SQ_SAMPLER_BASE__VS, {.u = {0}}, {.u = {0}}};
    memcpy(st.r0.u, r0, sizeof st.r0.u);
    struct eg_vs_output o;
    s->sink = ring;
    int rc = run_tess_stage(s, STAGE_ES, 2, NULL, &st, NULL, 0, sink, &o, err);
    s->sink = NULL;
    return rc;
}

/* A compute shader's MEM_RAT / MEM_RAT_CACHELESS operation (rat.c). */
static int cs_rat(void *ctx, unsigned rat, unsigned inst, const uint32_t idx[4], const uint32_t data[4],
                  unsigned comp_mask, char *msg, size_t msglen)
{
    struct shade *s = ctx;
    return rat_op(s->r, &s->rats, s->regs, s->mem, rat, inst, idx, data, comp_mask, msg, msglen);
}

/* The compute stage (compute.c): the program at SQ_PGM_START_LS (Mesa
 * evergreen_emit_cs_shader), its fetch resources and samplers from the CS
 * bases, the constant buffers at SQ_ALU_CONST_CACHE_LS_* (Mesa
 * evergreen_emit_cs_constant_buffers), the CS's loop and boolean constants. */
static int cs_begin(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, struct vc_draw_err *err)
{
    struct shade *s = ctx;
    s->regs = regs;
    s->mem = mem;
    s->cs = false;
    rat_targets_reset(&s->rats);
    memset(&s->prog[STAGE_CS], 0, sizeof s->prog[STAGE_CS]);
    if (map_program(s, STAGE_CS, REG_SQ_PGM_START_LS, err) || check_vertex_formats(s, STAGE_CS, err))
        return -1;
    tex_unit_begin(s->tex, regs, mem, s->tiling);
    struct eg_shader_env *env = &s->env[7];
    env_init(env, s, mem, constant_ls, loop_const_cs, bool_const_cs);
    env->rat = cs_rat;
    s->cs = true;
    return 0;
}

static int cs(void *ctx, const uint32_t (*r0)[4], unsigned n, const uint32_t r1[4], const struct vc_cs_group *g,
              struct vc_draw_err *err)
{
    const struct shade *s = ctx;
    if (!s->cs)
        return rs_fail(err, "render: the CS ran outside a dispatch");
    if (n == 0 || n > EG_STAGE_MAX_LANES)
        return rs_fail(err, "render: a compute wave of %u threads (1..%d)", n, EG_STAGE_MAX_LANES);
    struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__CS, V_SQ_SAMPLER_BASE__CS, {.u = {0}}, {.u = {0}}};
    memcpy(st.r1.u, r1, sizeof st.r1.u);
    union eg_vec4 lanes[EG_STAGE_MAX_LANES];
    for (unsigned i = 0; i < n; i++)
        memcpy(lanes[i].u, r0[i], sizeof lanes[i].u);
    /* the wave's own view: waves of a group run on threads of their own */
    struct eg_shader_env env = s->env[7];
    env.lds = g->lds;
    env.lds_bytes = g->lds_bytes;
    env.barrier = g->barrier;
    env.barrier_ctx = g->barrier_ctx;
    env.hw_wave_id = g->wave;
    struct eg_vs_output o;
    struct eg_shader_err e;
    if (eg_run_stage_lanes(&s->prog[STAGE_CS], &env, &st, lanes, n, &o, &e))
        return rs_fail(err, "render: %s", e.msg);
    if (o.pos_mask || o.param_mask)
        return rs_fail(err, "render: shader CS exported a position or parameter");
    return 0;
}

/* The renderer's view of one lane's exports. */
static void ps_output(const struct eg_ps_output *o, struct vc_pixel_out *out)
{
    out->killed = o->killed;
    out->depth_written = o->depth_written;
    out->depth = o->depth;
    out->stencil_written = o->stencil_written;
    out->stencil = (uint8_t)o->stencil;
    out->mask_written = o->mask_written;
    out->mask = o->mask;
    out->num_colors = 0;
    for (unsigned t = 0; t < VC_RENDER_MAX_TARGETS; t++)
        if ((o->color_mask >> t) & 1u) {
            memcpy(out->color[t], o->color[t].f, sizeof out->color[t]);
            out->num_colors = t + 1;
        }
}

static int pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_prim_inputs *prim,
                 const struct vc_pixel_in *in, struct vc_pixel_out *out, struct vc_draw_err *err)
{
    struct shade *s = ctx;
    (void)regs;
    (void)mem;
    union eg_vec4 gpr[PS_MAX_GPRS];
    spi_load_gprs(s, prim, in, gpr);
    struct eg_ps_param param[VC_RENDER_MAX_PARAMS];
    for (unsigned i = 0; i < prim->num_inputs; i++)
        eg_ps_param_from_vertices(&param[i], prim->attr[i][0], prim->attr[i][1], prim->attr[i][2]);
    struct eg_ps_input pin = {gpr, s->input_gprs, param, prim->num_inputs};
    struct eg_ps_output o;
    struct eg_shader_err e;
    if (eg_run_ps(&s->prog[STAGE_PS], &s->env[1], &pin, &o, &e))
        return rs_fail(err, "render: %s", e.msg);
    ps_output(&o, out);
    return 0;
}

bool render_shade_quads(const struct vc_render *r)
{
    const struct shade *s = r->shade;
    return s && r->shaders.pixel == pixel && r->shaders.ctx == s && s->quads;
}

int render_shade_quad(struct vc_render *r, const struct vc_prim_inputs *prim, const struct vc_pixel_in in[4],
                      uint32_t helpers, struct vc_pixel_out out[4], struct vc_draw_err *err)
{
    struct shade *s = r->shade;
    union eg_vec4 gpr[4][PS_MAX_GPRS];
    struct eg_ps_param param[VC_RENDER_MAX_PARAMS];
    for (unsigned i = 0; i < prim->num_inputs; i++)
        eg_ps_param_from_vertices(&param[i], prim->attr[i][0], prim->attr[i][1], prim->attr[i][2]);
    struct eg_ps_input pin[4];
    for (unsigned l = 0; l < 4; l++) {
        spi_load_gprs(s, prim, &in[l], gpr[l]);
        pin[l] = (struct eg_ps_input){gpr[l], s->input_gprs, param, prim->num_inputs};
    }
    struct eg_ps_output o[4];
    struct eg_shader_err e;
    if (eg_run_ps_lanes(&s->prog[STAGE_PS], &s->env[1], pin, 4, helpers, o, &e))
        return rs_fail(err, "render: %s", e.msg);
    for (unsigned l = 0; l < 4; l++)
        ps_output(&o[l], &out[l]);
    return 0;
}

bool render_shade_heavy(const struct vc_render *r)
{
    const struct shade *s = r->shade;
    return s && r->shaders.pixel == pixel && r->shaders.ctx == s && s->ps_heavy;
}

bool render_shade_batched(const struct vc_render *r)
{
    const struct shade *s = r->shade;
    return s && r->shaders.pixel == pixel && r->shaders.ctx == s && (s->lanes.batch || (s->lanes.wave && !s->quads));
}

bool render_shade_position_needed(const struct vc_render *r)
{
    const struct shade *s = r->shade;
    if (!s || r->shaders.pixel != pixel || r->shaders.ctx != s)
        return true; /* another pixel stage may read it */
    return s->pos_ena;
}

uint32_t render_shade_baryc_needed(const struct vc_render *r)
{
    const struct shade *s = r->shade;
    if (!s || r->shaders.pixel != pixel || r->shaders.ctx != s)
        return (1u << VC_BARYC_COUNT) - 1u; /* another pixel stage may read any */
    uint32_t m = 0;
    for (unsigned k = 0; k < s->nbaryc; k++)
        m |= 1u << s->baryc_order[k];
    return m;
}

struct shade_lanes *render_shade_lanes(struct vc_render *r)
{
    struct shade *s = r->shade;
    if (!s || r->shaders.pixel != pixel || r->shaders.ctx != s)
        return NULL;
    return s->lanes.batch || s->lanes.wave ? &s->lanes : NULL;
}

struct shade_lanes *render_shade_lanes_copy(struct vc_render *r)
{
    struct shade *s = r->shade;
    struct shade_lanes *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    if (s->lanes.batch)
        l->batch = eg_ps_batch_new(&s->prog[STAGE_PS], &s->env[1], s->input_gprs);
    else if (s->lanes.wave && (l->gpr = calloc((size_t)EG_WAVE_MAX * PS_MAX_GPRS, sizeof *l->gpr)))
        l->wave = eg_wave_new(&s->prog[STAGE_PS], &s->env[1]);
    if (!l->batch && !l->wave) {
        render_shade_lanes_free(l);
        return NULL;
    }
    return l;
}

void render_shade_lanes_free(struct shade_lanes *l)
{
    if (!l)
        return;
    eg_ps_batch_free(l->batch);
    eg_wave_free(l->wave);
    free(l->gpr);
    free(l->param);
    free(l);
}

struct eg_ps_batch *render_shade_lanes_batch(const struct shade_lanes *l)
{
    return l ? l->batch : NULL;
}

/* Lanes in[0 .. n-1] through the wave in groups of `group`: 0 and
 * out[0 .. n-1], or 1 when the interpreter must run them (eg_wave_run).
 * lane_prim: each lane's primitive (NULL: all prim's); the wave takes each
 * lane's parameters and face from its own. */
static int wave_run(struct shade *s, struct shade_lanes *lanes, const struct vc_prim_inputs *prim,
                    const struct vc_prim_inputs *const *lane_prim, const struct vc_pixel_in *in, unsigned n,
                    unsigned group, uint64_t helpers, struct vc_pixel_out *out)
{
    if (n == 0 || n > EG_WAVE_MAX)
        return 1;
    struct eg_ps_param own[VC_RENDER_MAX_PARAMS], *param = own;
    if (lane_prim) {
        if (!lanes->param && !(lanes->param = malloc((size_t)EG_WAVE_MAX * VC_RENDER_MAX_PARAMS * sizeof *lanes->param)))
            return 1;
        param = lanes->param;
    }
    struct eg_ps_input pin[EG_WAVE_MAX];
    const struct vc_prim_inputs *last = NULL;
    struct eg_ps_param *next = param, *cur = param;
    for (unsigned l = 0; l < n; l++) {
        const struct vc_prim_inputs *p = lane_prim ? lane_prim[l] : prim;
        if (p != last) {   /* a primitive's parameters, once per run of its lanes */
            cur = next;
            for (unsigned i = 0; i < p->num_inputs; i++)
                eg_ps_param_from_vertices(&cur[i], p->attr[i][0], p->attr[i][1], p->attr[i][2]);
            next = cur + p->num_inputs;
            last = p;
        }
        union eg_vec4 *gpr = &lanes->gpr[(size_t)l * PS_MAX_GPRS];
        spi_load_gprs(s, p, &in[l], gpr);
        pin[l] = (struct eg_ps_input){gpr, s->input_gprs, cur, p->num_inputs};
    }
    struct eg_ps_output o[EG_WAVE_MAX];
    if (eg_wave_run(lanes->wave, pin, n, group, helpers, o))
        return 1;
    for (unsigned l = 0; l < n; l++) {
        memset(&out[l], 0, sizeof out[l]);
        ps_output(&o[l], &out[l]);
    }
    return 0;
}

int render_shade_quads_run(struct vc_render *r, struct shade_lanes *lanes, const struct vc_prim_inputs *prim,
                           const struct vc_pixel_in *in, const uint32_t *helpers, unsigned nq,
                           struct vc_pixel_out *out, unsigned *done, struct vc_draw_err *err)
{
    struct shade *s = r->shade;
    *done = 0;
    uint64_t h = 0;
    for (unsigned q = 0; q < nq; q++)
        h |= (uint64_t)(helpers[q] & 0xFu) << (4 * q);
    if (lanes && lanes->wave && 4 * nq <= EG_WAVE_MAX && wave_run(s, lanes, prim, NULL, in, 4 * nq, 4, h, out) == 0) {
        *done = nq;
        return 0;
    }
    /* one quad at a time: the interpreter says what went wrong */
    for (unsigned q = 0; q < nq; q++) {
        memset(&out[4 * q], 0, 4 * sizeof *out);
        if (render_shade_quad(r, prim, &in[4 * q], helpers[q], &out[4 * q], err))
            return -1;
        *done = q + 1;
    }
    return 0;
}

/* Load the batch's lanes as spi_load_gprs loads one pixel's GPRs (begin
 * zeroes them; the same values land in the same order) and run it: the
 * weights from in[l].ij, or, when ij is given, from its arrays
 * (ij[kind][h][l]: pixel l's weight h of that kind; then no position, and
 * sample 0).  eg_ps_batch_run's status. */
static int batch_load_run(const struct shade *s, struct eg_ps_batch *b, const struct vc_prim_inputs *prim, unsigned n,
                          const struct vc_pixel_in *in, const float *const (*ij)[2])
{
    eg_ps_batch_begin(b, n);
    uint32_t *lanes[PS_MAX_GPRS][4];
    unsigned ng = s->input_gprs < PS_MAX_GPRS ? s->input_gprs : PS_MAX_GPRS;
    for (unsigned g = 0; g < ng; g++)
        for (unsigned c = 0; c < 4; c++)
            lanes[g][c] = eg_ps_batch_gpr(b, g, c);
    for (unsigned k = 0; k < s->nbaryc && k / 2 < ng; k++)
        for (unsigned h = 0; h < 2; h++) {
            uint32_t *lane = lanes[k / 2][2 * (k % 2) + h];
            if (!lane)
                continue;
            if (ij)
                memcpy(lane, ij[s->baryc_order[k]][h], n * sizeof *lane);
            else
                for (unsigned l = 0; l < n; l++)
                    memcpy(&lane[l], &in[l].ij[s->baryc_order[k]][h], 4);
        }
    if (in && s->pos_ena && s->pos_addr < ng)
        for (unsigned c = 0; c < 4; c++)
            if (lanes[s->pos_addr][c])
                for (unsigned l = 0; l < n; l++)
                    memcpy(&lanes[s->pos_addr][c][l], &in[l].pos[c], 4);
    if (s->face_ena && s->face_addr < ng && lanes[s->face_addr][s->face_chan]) {
        union eg_vec4 g;
        if (s->face_all_bits)
            g.u[0] = prim->front_face ? 0xFFFFFFFFu : 0u;
        else
            g.f[0] = prim->front_face ? 1.0f : -1.0f;
        for (unsigned l = 0; l < n; l++)
            lanes[s->face_addr][s->face_chan][l] = g.u[0];
    }
    if (s->face_ena && s->face_addr < ng && s->face_chan != FACE_MASK_CHAN && lanes[s->face_addr][FACE_MASK_CHAN])
        for (unsigned l = 0; l < n; l++)
            lanes[s->face_addr][FACE_MASK_CHAN][l] = in ? in[l].coverage : s->all_samples;
    if (in && s->fixed_ena && s->fixed_addr < ng && lanes[s->fixed_addr][FIXED_PT_SAMPLE_CHAN])
        for (unsigned l = 0; l < n; l++)
            lanes[s->fixed_addr][FIXED_PT_SAMPLE_CHAN][l] = in[l].sample;
    struct eg_ps_param param[VC_RENDER_MAX_PARAMS];
    for (unsigned i = 0; i < prim->num_inputs; i++)
        eg_ps_param_from_vertices(&param[i], prim->attr[i][0], prim->attr[i][1], prim->attr[i][2]);
    return eg_ps_batch_run(b, param, prim->num_inputs);
}

int render_shade_block(struct vc_render *r, struct shade_lanes *sl, const struct vc_prim_inputs *prim,
                       const float *const ij[VC_BARYC_COUNT][2])
{
    struct shade *s = r->shade;
    struct eg_ps_batch *b = sl ? sl->batch : NULL;
    if (!b || s->pos_ena)
        return 0;
    for (unsigned k = 0; k < s->nbaryc; k++)
        if (!ij[s->baryc_order[k]][0] || !ij[s->baryc_order[k]][1])
            return 0;
    return batch_load_run(s, b, prim, EG_PS_BATCH_MAX, NULL, ij) == 0;
}

int render_shade_pixels(struct vc_render *r, struct shade_lanes *sl, const struct vc_regs *regs,
                        const struct vc_mem *mem, const struct vc_prim_inputs *prim,
                        const struct vc_prim_inputs *const *lane_prim, const struct vc_pixel_in *in, unsigned n,
                        struct vc_pixel_out *out, unsigned *done, struct vc_draw_err *err)
{
    struct shade *s = r->shade;
    *done = 0;
    if (n > EG_PS_BATCH_MAX)
        n = EG_PS_BATCH_MAX;
    struct eg_ps_batch *b = sl ? sl->batch : NULL;
    if (!b || lane_prim) {
        /* no batch: the wave, else pixel by pixel */
        if (sl && sl->wave && n <= EG_WAVE_MAX && wave_run(s, sl, prim, lane_prim, in, n, 1, 0, out) == 0) {
            *done = n;
            return 0;
        }
        for (unsigned l = 0; l < n; l++) {
            memset(&out[l], 0, sizeof out[l]);
            if (pixel(s, regs, mem, lane_prim ? lane_prim[l] : prim, &in[l], &out[l], err))
                return -1;
            *done = l + 1;
        }
        return 0;
    }
    if (batch_load_run(s, b, prim, n, in, NULL) != 0) {
        /* something only the per-pixel interpreter reports */
        for (unsigned l = 0; l < n; l++) {
            if (pixel(s, regs, mem, prim, &in[l], &out[l], err))
                return -1;
            *done = l + 1;
        }
        return 0;
    }
    *done = n;
    return 1;
}

int render_default_shaders(struct vc_render *r, struct vc_shader_ops *ops)
{
    if (!r->shade) {
        struct shade *s = calloc(1, sizeof(struct shade));
        if (!s)
            return -1;
        s->tex = tex_unit_new();
        if (!s->tex) {
            free(s);
            return -1;
        }
        s->tiling = &r->tiling;
        s->r = r;
        s->lanes.gpr = calloc((size_t)EG_WAVE_MAX * PS_MAX_GPRS, sizeof *s->lanes.gpr); /* NULL: no waves */
        r->shade = s;
    }
    memset(ops, 0, sizeof *ops);
    ops->ctx = r->shade;
    ops->begin = begin;
    ops->vertex = vertex;
    ops->vertices = vertices;
    ops->es = es;
    ops->gs = gs;
    ops->ls = ls;
    ops->hs = hs;
    ops->ds = ds;
    ops->ds_es = ds_es;
    ops->cs_begin = cs_begin;
    ops->cs = cs;
    ops->pixel = pixel;
    ops->stream_vertex = stream_vertex;
    return 0;
}

void render_shade_free(struct vc_render *r)
{
    if (r->shade) {
        struct shade *s = r->shade;
        eg_ps_batch_free(s->lanes.batch);
        eg_wave_free(s->lanes.wave);
        eg_wave_free(s->vs_wave);
        free(s->lanes.gpr);
        free(s->lanes.param);
        rat_targets_free(&s->rats);
        tex_unit_free(s->tex);
    }
    free(r->shade);
    r->shade = NULL;
}
