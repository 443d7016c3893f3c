/* The local data share and the tessellation factors, for one lane
 * (interp.h): LDS_IDX_OP ALU instructions (AMD's Evergreen ISA, "LDS
 * instructions"; the encoding Mesa's r600_asm.c eg_bytecode_alu_build
 * writes: SRC0 the byte address, SRC1 and SRC2 the data, the opcode and a
 * 6-bit index offset in the bits an OP3 instruction keeps its destination
 * and negates in), whose _RET forms push the value the location held onto
 * output queue A for a later LDS_OQ_A_POP source, and TF_WRITE, the GDS-clause
 * instruction a hull shader writes each tessellation factor with (Mesa
 * sfn_assembler.cpp WriteTFInstr: the byte address in SRC_SEL_X, the value in
 * SRC_SEL_Y).  Locations are 32-bit words at dword-aligned byte addresses;
 * an address outside the LDS, or an opcode not modelled, is a fault naming
 * it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cedar/regdb.h"
#include "eg_regs.h"
#include "interp.h"

static int why_fail(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why_fail(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *lds_op_name(unsigned op)
{
    const struct eg_enum *e = eg_enum_find_name("SQ_LDS_OP");
    const char *n = e ? eg_enum_value_name(e, op) : NULL;
    return n ? n : "unknown";
}

unsigned eg_lds_idx_offset(uint32_t w0, uint32_t w1)
{
    return G_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_0(w1) | G_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_1(w1) << 1 |
           G_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_2(w1) << 2 | G_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_3(w1) << 3 |
           G_SQ_ALU_WORD0_LDS_IDX_OP__IDX_OFFSET_4(w0) << 4 | G_SQ_ALU_WORD0_LDS_IDX_OP__IDX_OFFSET_5(w0) << 5;
}

/* The word at byte address a, or NULL (with why) when it is not one. */
static uint8_t *word(const struct eg_shader_env *env, uint32_t a, char *why, size_t whylen)
{
    if (a & 3u) {
        why_fail(why, whylen, "LDS address 0x%x is not dword-aligned", a);
        return NULL;
    }
    if (a >= env->lds_bytes || env->lds_bytes - a < 4) {
        why_fail(why, whylen, "LDS address 0x%x is outside the %u-byte LDS", a, env->lds_bytes);
        return NULL;
    }
    return env->lds + a;
}

int eg_lds_push(struct eg_lds_queue *q, uint32_t v)
{
    if (q->n == EG_LDS_QUEUE_MAX)
        return -1;
    q->v[(q->head + q->n++) % EG_LDS_QUEUE_MAX] = v;
    return 0;
}

int eg_lds_take(struct eg_lds_queue *q, bool pop, uint32_t *out)
{
    if (!q->n)
        return -1;
    *out = q->v[q->head];
    if (pop) {
        q->head = (q->head + 1) % EG_LDS_QUEUE_MAX;
        q->n--;
    }
    return 0;
}

/* The LDS_* operations number the 32-bit atomics as the GDS clause's DS_OP
 * does (eg_atomic_of_ds_op; AMD Evergreen ISA, both tables). */
_Static_assert(V_SQ_LDS_OP__ADD == V_SQ_DS_OP__ADD && V_SQ_LDS_OP__SUB == V_SQ_DS_OP__SUB &&
                   V_SQ_LDS_OP__RSUB == V_SQ_DS_OP__RSUB && V_SQ_LDS_OP__INC == V_SQ_DS_OP__INC &&
                   V_SQ_LDS_OP__DEC == V_SQ_DS_OP__DEC && V_SQ_LDS_OP__MIN_INT == V_SQ_DS_OP__MIN_INT &&
                   V_SQ_LDS_OP__MAX_INT == V_SQ_DS_OP__MAX_INT && V_SQ_LDS_OP__MIN_UINT == V_SQ_DS_OP__MIN_UINT &&
                   V_SQ_LDS_OP__MAX_UINT == V_SQ_DS_OP__MAX_UINT && V_SQ_LDS_OP__AND == V_SQ_DS_OP__AND &&
                   V_SQ_LDS_OP__OR == V_SQ_DS_OP__OR && V_SQ_LDS_OP__XOR == V_SQ_DS_OP__XOR &&
                   V_SQ_LDS_OP__MSKOR == V_SQ_DS_OP__MSKOR && V_SQ_LDS_OP__ADD_RET == V_SQ_DS_OP__ADD_RET &&
                   V_SQ_LDS_OP__MSKOR_RET == V_SQ_DS_OP__MSKOR_RET && V_SQ_LDS_OP__XCHG_RET == V_SQ_DS_OP__XCHG_RET &&
                   V_SQ_LDS_OP__CMP_XCHG_RET == V_SQ_DS_OP__CMP_XCHG_RET &&
                   V_SQ_LDS_OP__READ_RET == V_SQ_DS_OP__READ_RET,
               "LDS and DS operation numbers differ");

int eg_lds_exec(const struct eg_shader_env *env, uint32_t w0, uint32_t w1, const uint32_t src[3],
                struct eg_lds_queue *qa, char *why, size_t whylen)
{
    unsigned op = G_SQ_ALU_WORD1_LDS_IDX_OP__LDS_OP(w1);
    if (!env->lds)
        return why_fail(why, whylen, "LDS instruction LDS_%s (0x%02x) outside a stage with a local data share",
                        lds_op_name(op), op);
    uint8_t *p = word(env, src[0], why, whylen);
    if (!p)
        return -1;
    uint32_t old, nv;
    memcpy(&old, p, 4);
    bool ret = op >= V_SQ_LDS_OP__ADD_RET;
    switch (op) {
    case V_SQ_LDS_OP__WRITE:
        memcpy(p, &src[1], 4);
        return 0;
    case V_SQ_LDS_OP__WRITE_REL: {
        uint8_t *q = word(env, src[0] + 4u * eg_lds_idx_offset(w0, w1), why, whylen);
        if (!q)
            return -1;
        memcpy(p, &src[1], 4);
        memcpy(q, &src[2], 4);
        return 0;
    }
    default: {
        enum eg_atomic_op k;
        bool atomic = (op <= V_SQ_LDS_OP__MSKOR || (op >= V_SQ_LDS_OP__ADD_RET && op <= V_SQ_LDS_OP__MSKOR_RET) ||
                       op == V_SQ_LDS_OP__READ_RET || op == V_SQ_LDS_OP__XCHG_RET ||
                       op == V_SQ_LDS_OP__CMP_XCHG_RET) &&
                      eg_atomic_of_ds_op(op, &k);
        if (!atomic)
            return why_fail(why, whylen, "unsupported LDS instruction LDS_%s (0x%02x)", lds_op_name(op), op);
        nv = eg_atomic(k, old, src[1], src[2]);
        break;
    }
    }
    if (ret && eg_lds_push(qa, old))
        return why_fail(why, whylen, "LDS output queue A overflows (%d values not popped)", EG_LDS_QUEUE_MAX);
    memcpy(p, &nv, 4);
    return 0;
}

int eg_exec_gds(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned ngpr, const uint32_t w[4],
                char *why, size_t whylen)
{
    unsigned inst = G_SQ_MEM_GDS_WORD0__MEM_INST(w[0]), op = G_SQ_MEM_GDS_WORD0__MEM_OP(w[0]);
    if (inst == V_SQ_VTX_INST__MEM && op == V_SQ_MEM_OP__GDS)
        return eg_gds_op(env, gpr, ngpr, w, why, whylen);
    if (inst != V_SQ_VTX_INST__MEM || op != V_SQ_MEM_OP__TF_WRITE)
        return why_fail(why, whylen, "unsupported GDS-clause instruction (MEM_INST %u, MEM_OP %u)", inst, op);
    if (!env->tf_write)
        return why_fail(why, whylen, "TF_WRITE outside a hull shader");
    unsigned g = G_SQ_MEM_GDS_WORD0__SRC_GPR(w[0]), sx = G_SQ_MEM_GDS_WORD0__SRC_SEL_X(w[0]),
             sy = G_SQ_MEM_GDS_WORD0__SRC_SEL_Y(w[0]);
    if (G_SQ_MEM_GDS_WORD0__SRC_REL(w[0]) || g >= ngpr || sx > V_SQ_INST_SEL__W || sy > V_SQ_INST_SEL__W)
        return why_fail(why, whylen, "unsupported TF_WRITE operands (R%u, select 0x%x)", g, sx << 4 | sy);
    return env->tf_write(env->ctx, gpr[g].u[sx], gpr[g].u[sy], why, whylen);
}
