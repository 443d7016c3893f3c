/* Internal to src/shader/: pieces of the interpreter shared between its files. */
#ifndef CEDAR_SHADER_INTERP_H
#define CEDAR_SHADER_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/shader.h"
#include "cedar/vtx_format.h"

/* What one ALU instruction did besides its 32-bit result. */
struct alu_effects {
    bool int_result;    /* integer result: OMOD and CLAMP do not apply */
    bool kill;          /* a KILL* whose condition held */
    bool is_pred;       /* a PRED_SET*: cond is the new predicate */
    bool cond;
};

/* Evaluate a single-slot ALU operation on its (already modified) sources.
 * Returns 0, or -1 when the opcode is not modelled. */
int eg_alu_eval(bool op3, unsigned op, const uint32_t src[3], uint32_t *result, struct alu_effects *fx);

/* One vector slot of an ALU group as eg_alu_eval_group sees it: src are its
 * (modified) sources. */
struct eg_alu_group_slot {
    bool used, op3;
    unsigned op;
    uint32_t src[2];
};

/* Whether the op reads other slots of its group: DOT4, DOT4_IEEE, MAX4,
 * CUBE (all four vector slots), DOT, DOT_IEEE (the next slot's result). */
bool eg_alu_is_group_op(bool op3, unsigned op);

/* The results of the group ops among the vector slots x..w: result[k] is
 * written for each slot k holding one; on input result[] holds the other
 * slots' results (eg_alu_eval's), which DOT / DOT_IEEE add.  0, or -1 with
 * *why set when the group is malformed. */
int eg_alu_eval_group(const struct eg_alu_group_slot slot[4], uint32_t result[4], const char **why);

/* DOT4 / DOT4_IEEE / MAX4 over the four vector slots (a[k], b[k]: slot k's
 * sources), denormals as alu_ops.c says: the one formula the interpreter
 * and the pixel batch share. */
uint32_t eg_alu_reduce4(unsigned op, const uint32_t a[4], const uint32_t b[4]);

/* One ALU instruction group as read from a clause (alu_group.c). */
struct eg_alu_op_info;
struct eg_alu_group_ins {
    bool used, op3;
    unsigned op;
    uint32_t w0, w1;
    const struct eg_alu_op_info *info;
};
struct eg_alu_group {
    struct eg_alu_group_ins s[5];   /* by slot: x, y, z, w, t (isa.h EG_SLOT_*) */
    const uint32_t *lit;            /* the group's literal dwords */
    unsigned nlit;                  /* literal channels its sources read */
};

/* The group at dw[*i] of a clause ending before dw[end]: 0 with *i past
 * its literals, or -1 with the reason in why.  *at: the 64-bit word of the
 * instruction read last (where a fault is). */
int eg_alu_group_read(const uint32_t *dw, size_t *i, size_t end, struct eg_alu_group *g, size_t *at, char *why,
                      size_t whylen);

/* Element b of the burst of export w0 / w1 (a PIXEL export in a pixel
 * shader, POS / PARAM in a vertex shader) from the lane's register value
 * src, into its output po or vo.  0, or -1 with the reason in why. */
int eg_export_lane(bool is_ps, uint32_t w0, uint32_t w1, unsigned b, const union eg_vec4 *src,
                   struct eg_ps_output *po, struct eg_vs_output *vo, char *why, size_t whylen);
/* eg_export_lane as its halves: the element's target decoded once (0, or
 * -1 with the reason in why), then applied for each lane.  A POS or PARAM
 * target's first export in a run (its mask bit not yet set) writes 0 to the
 * components it masks, so the caller need clear only the masks. */
enum eg_export_kind { EG_EXPORT_POS, EG_EXPORT_PARAM, EG_EXPORT_COLOR, EG_EXPORT_Z };
struct eg_export_target {
    unsigned kind;          /* enum eg_export_kind */
    unsigned index;         /* position 0..3, parameter, colour target */
    unsigned sel[4];        /* SEL_X..W */
    bool xyzw;              /* SEL X, Y, Z, W: the register as it is */
};
int eg_export_decode(bool is_ps, uint32_t w0, uint32_t w1, unsigned b, struct eg_export_target *t, char *why,
                     size_t whylen);
void eg_export_apply(const struct eg_export_target *t, const union eg_vec4 *src, struct eg_ps_output *po,
                     struct eg_vs_output *vo);

/* The IEEE binary16 number in bits 0..15 of h (the bits above ignored). */
float eg_half_to_float(uint32_t h);

/* Legacy (DX9) multiply: 0 times anything, even Inf or NaN, is 0. */
float eg_mul_legacy(float a, float b);

/* Run one VTX / TEX instruction (its 4 words) against the GPRs.  res_base /
 * sampler_base: the running stage's first fetch resource / sampler.  0, or -1
 * with a reason in msg. */
int eg_exec_vtx(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, const uint32_t w[4],
                char *msg, size_t msglen);
/* One VTX instruction decoded for a run over many lanes (fetch.c): its
 * fields, the resource the callback gives for it (read once: the registers
 * do not change inside a draw), the format's conversion prepared, and the
 * resource's bytes when all of them lie in one buffer.  eg_vtx_prepare
 * fills it from the instruction's words w (0, or -1 with the reason every
 * lane's eg_exec_vtx would give), eg_vtx_lane runs it for one lane's index
 * into that lane's destination register: eg_exec_vtx is the two. */
struct eg_vtx_prep {
    const struct eg_shader_env *env;
    bool writes;                    /* false: a SEMANTIC fetch without a table entry (writes nothing) */
    unsigned res, src_gpr, src_sel, dst_gpr;
    uint64_t base, size, stride, offset;
    unsigned nbytes, endian;
    const uint8_t *host;            /* base's bytes, all size of them; NULL: looked up per element */
    unsigned sel[4];                /* DST_SEL */
    bool int_one;                   /* SEL ONE writes the integer 1 */
    struct eg_vtx_conv cv;
};
int eg_vtx_prepare(const struct eg_shader_env *env, unsigned res_base, const uint32_t w[4], struct eg_vtx_prep *p,
                   char *msg, size_t msglen);
int eg_vtx_lane(const struct eg_vtx_prep *p, uint32_t index, union eg_vec4 *dst, char *msg, size_t msglen);
/* Scratch memory: each lane's private elements of four dwords, written by
 * the CF instruction MEM_SCRATCH and read by a VTX-clause MEM instruction
 * with MEM_OP READ_SCRATCH (Mesa's spilled temporary arrays). */
#define EG_SCRATCH_ELEMS 4096   /* ARRAY_BASE + index below this; ARRAY_SIZE is 12 bits */
/* Run one READ_SCRATCH (its 4 words) for a lane whose scratch is
 * scratch[0 .. EG_SCRATCH_ELEMS - 1].  0, or -1 with a reason in msg. */
int eg_exec_scratch_read(union eg_vec4 *gpr, const union eg_vec4 *scratch, const uint32_t w[4], char *msg,
                         size_t msglen);

/* One GDS-clause instruction with MEM_OP GDS (its 4 words: gds.c) for a
 * lane with GPRs gpr[0 .. ngpr - 1].  0, or -1 with a reason in msg (before
 * anything changed). */
int eg_gds_op(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned ngpr, const uint32_t w[4], char *msg,
              size_t msglen);
/* GDS operation op (V_SQ_DS_OP__*) on the dword at mem, atomically, with
 * operands a and b: 0 with *ret its value before, or -1 (nothing changed)
 * for an op the model does not know. */
int eg_gds_atomic(uint32_t *mem, unsigned op, uint32_t a, uint32_t b, uint32_t *ret);

/* The quad a TEX instruction runs in: the source GPR of each of its n
 * lanes as it was before the instruction (lane l is pixel (l & 1, l >> 1)
 * of the 2x2 quad, y down), the lane running it, and that lane's gradients
 * as SET_GRADIENTS_H / _V left them (grad[0] horizontal, grad[1]
 * vertical).  n < 4: a lone lane, whose derivatives are 0. */
struct eg_tex_lod_memo {
    bool have;
    float lod;
};
struct eg_tex_quad {
    const union eg_vec4 *src;
    unsigned n, lane;
    union eg_vec4 *grad;
    /* the quad's implicit level of detail for the instruction running, kept
     * by the first of its lanes that computes it (the same for every lane:
     * see fetch.c); NULL: each lane computes its own */
    struct eg_tex_lod_memo *lod;
};
int eg_exec_tex(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned res_base, unsigned sampler_base,
                const uint32_t w[4], const struct eg_tex_quad *q, char *msg, size_t msglen);

/* One TEX instruction decoded for a run over many lanes (fetch.c): its
 * fields, the resource and sampler the callbacks give for it (read once:
 * the registers do not change inside a draw), what a sample does with
 * them.  eg_tex_prepare fills it from the instruction's words w (0, or -1
 * with the reason every lane's eg_exec_tex would give), eg_tex_lane runs it
 * for one lane: eg_exec_tex is the two, so a caller keeps the prepared
 * instruction for its loop over the lanes (after the first lane it runs:
 * with none, nothing is read). */
struct eg_tex_prep {
    const struct eg_shader_env *env;
    uint32_t w[4];
    unsigned inst, res, src_gpr, dst_gpr;
    unsigned sel[4], ssel[4];       /* DST_SEL, SRC_SEL */
    bool ssel_xyzw;                 /* SRC_SEL X, Y, Z, W: the operands are the register */
    bool gradients;                 /* GET / SET_GRADIENTS: nothing else below is set */
    bool ld, info, nsamples, cmp, gather, explicit_lod, bias, lz, grad, get_lod, msaa, lod_free;
    bool norm[3];
    int hofs[3];                    /* OFFSET_X..Z, half texels */
    uint8_t swz[4];                 /* the resource's then the instruction's swizzle of a sample */
    bool swz_xyzw;                  /* swz 0, 1, 2, 3: the sample as it is */
    float offs[3];                  /* the offsets in texels */
    bool point;                     /* a point sample of the base level of a 2D texture or array */
    unsigned base_size[3];          /* the base level's texels per dimension (level_dims) */
    struct eg_tex_resource tr;
    struct eg_tex_sampler s;
    struct eg_tex_sampler ps;       /* s with the address modes a point sample uses (point_mode) */
    struct eg_texel_reader rd;      /* the resource's texels (env->texel_reader); read NULL: env's callbacks */
};
int eg_tex_prepare(const struct eg_shader_env *env, unsigned res_base, unsigned sampler_base, const uint32_t w[4],
                   struct eg_tex_prep *p, char *msg, size_t msglen);
int eg_tex_lane(const struct eg_tex_prep *p, union eg_vec4 *gpr, const struct eg_tex_quad *q, char *msg,
                size_t msglen);
/* A point sample (p->point) of base level 0 for n lanes at once (up to
 * EG_TEX_LANES_MAX): lane i is lane[i] of registers kept by component,
 * src[c][lane[i]] component c of its source register and dst[c][lane[i]]
 * of its destination, written as eg_tex_lane writes it.  0; or 1 when the
 * batch does not take these lanes (no reader's read_many, a texel outside
 * the level, ...): nothing written, run each lane with eg_tex_lane.  The
 * texels are read together, so that their loads overlap. */
#define EG_TEX_LANES_MAX EG_TEX_READ_MANY_MAX
int eg_tex_point_lanes(const struct eg_tex_prep *p, unsigned n, const uint8_t *lane, const uint32_t *const src[4],
                       uint32_t *const dst[4]);

/* The implicit level of detail (OpenGL 4.6 8.14.1, without the bias and
 * clamps): log2 of the larger of |d(s,t,r)/dx| and |d(s,t,r)/dy| in texels,
 * from the normalized coordinates' derivatives over `dims` dimensions of a
 * level of `size` texels; -inf for zero derivatives.  SAMPLE / _C / _LB
 * take it from the quad's differences, SAMPLE_G / _C_G from SET_GRADIENTS. */
float eg_tex_lod(const float ddx[3], const float ddy[3], const unsigned size[3], unsigned dims);

/* An LDS output queue (lds.c): values the _RET instructions returned, in
 * order, for LDS_OQ_A / LDS_OQ_A_POP sources. */
#define EG_LDS_QUEUE_MAX 16
struct eg_lds_queue {
    uint32_t v[EG_LDS_QUEUE_MAX];
    unsigned head, n;
};
/* Push v: 0, or -1 when the queue is full. */
int eg_lds_push(struct eg_lds_queue *q, uint32_t v);
/* The oldest value (removed when pop): 0, or -1 when the queue is empty. */
int eg_lds_take(struct eg_lds_queue *q, bool pop, uint32_t *out);
/* The index offset of an LDS_IDX_OP instruction (words w0, w1). */
unsigned eg_lds_idx_offset(uint32_t w0, uint32_t w1);
/* Run LDS_IDX_OP (words w0, w1) for one lane on its sources src[0..2] (the
 * address, the data), against env's LDS, returned values to qa.  0, or -1
 * with the reason in why. */
int eg_lds_exec(const struct eg_shader_env *env, uint32_t w0, uint32_t w1, const uint32_t src[3],
                struct eg_lds_queue *qa, char *why, size_t whylen);
/* Run one GDS-clause instruction (its 4 words) for a lane with GPRs
 * gpr[0 .. ngpr - 1]: TF_WRITE through env->tf_write, a GDS operation
 * through eg_gds_op.  0, or -1 with the reason in why. */
int eg_exec_gds(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned ngpr, const uint32_t w[4],
                char *why, size_t whylen);

static inline float eg_u2f(uint32_t u)
{
    union { uint32_t u; float f; } c = { .u = u };
    return c.f;
}

static inline uint32_t eg_f2u(float f)
{
    union { uint32_t u; float f; } c = { .f = f };
    return c.u;
}

#endif
