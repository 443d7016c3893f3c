/* GDS-clause instructions (CF GDS) with MEM_OP GDS for one lane (lds.c's
 * eg_exec_gds hands them here; TF_WRITE is its own): the global data share's
 * atomic operations, as Mesa r600 uses them for atomic counters on
 * Evergreen (sfn_instr_mem.cpp GDSInstr, sfn_assembler.cpp: ALLOC_CONSUME
 * set, UAV_ID the counter, the data in SRC_SEL_Y, the value returned into
 * the one DST_SEL channel that selects X).
 *
 * With ALLOC_CONSUME the operation acts on append counter UAV_ID, one of
 * GDS_APPEND_COUNT_0..11 (env->mem->gds_append; SET_APPEND_CNT loads them,
 * EVENT_WRITE_EOS saves them).  Each operation is atomic: lanes of other
 * threads of the renderer may run the same counter at the same time, and
 * every lane gets a distinct value before its operation, as from a GDS that
 * serves one request at a time.  GDS memory itself (ALLOC_CONSUME clear),
 * indexed counters (UAV_INDEX_MODE) and relative GPRs stop the run as
 * unsupported (Mesa emits none of them on Evergreen).
 *
 * The operations: eg_atomic's (atomic.c; WRITE is XCHG without a return);
 * the _RET forms return the memory's value from before. */
#include <stdio.h>

#include "eg_regs.h"
#include "interp.h"

#define GDS_APPEND_COUNTERS 12     /* GDS_APPEND_COUNT_0..11 */

/* The memory's new value after op on old with operands a, b; false for an
 * op the model does not know. */
static bool ds_apply(unsigned op, uint32_t old, uint32_t a, uint32_t b, uint32_t *out)
{
    enum eg_atomic_op k;
    if (!eg_atomic_of_ds_op(op, &k))
        return false;
    *out = eg_atomic(k, old, a, b);
    return true;
}

static bool returns(unsigned op)
{
    return op >= V_SQ_DS_OP__ADD_RET;
}

/* Source select sel of register r: a component, or ZERO, or MASK (an
 * operand not sent, which Mesa masks where the op reads none: GDS_READ_RET
 * of a compute shader's atomicCounter() has SRC_SEL_Y MASK): 0. */
static bool src_sel(const union eg_vec4 *r, unsigned sel, uint32_t *out)
{
    if (sel <= V_SQ_INST_SEL__W) {
        *out = r->u[sel];
        return true;
    }
    *out = 0;
    return sel == V_SQ_INST_SEL__ZERO || sel == V_SQ_INST_SEL__MASK;
}

int eg_gds_atomic(uint32_t *mem, unsigned op, uint32_t a, uint32_t b, uint32_t *ret)
{
    uint32_t old = __atomic_load_n(mem, __ATOMIC_RELAXED), v;
    do {
        if (!ds_apply(op, old, a, b, &v))
            return -1;
    } while (v != old && !__atomic_compare_exchange_n(mem, &old, v, true, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    *ret = old;
    return 0;
}

int eg_gds_op(const struct eg_shader_env *env, union eg_vec4 *gpr, unsigned ngpr, const uint32_t w[4], char *msg,
              size_t msglen)
{
    unsigned op = G_SQ_MEM_GDS_WORD1__GDS_OP(w[1]);
    if (G_SQ_MEM_GDS_WORD0__SRC_REL(w[0]) || G_SQ_MEM_GDS_WORD1__DST_REL(w[1]) ||
        G_SQ_MEM_GDS_WORD1__UAV_INDEX_MODE(w[1])) {
        snprintf(msg, msglen, "unsupported GDS op 0x%02X with relative GPRs or an indexed counter", op);
        return -1;
    }
    if (!G_SQ_MEM_GDS_WORD1__ALLOC_CONSUME(w[1])) {
        snprintf(msg, msglen, "unsupported GDS op 0x%02X on GDS memory (only append counters are modelled)", op);
        return -1;
    }
    unsigned id = G_SQ_MEM_GDS_WORD1__UAV_ID(w[1]);
    if (id >= GDS_APPEND_COUNTERS) {
        snprintf(msg, msglen, "GDS op 0x%02X on append counter %u (there are %d)", op, id, GDS_APPEND_COUNTERS);
        return -1;
    }
    if (!env->mem || !env->mem->gds_append) {
        snprintf(msg, msglen, "GDS op 0x%02X without append counters", op);
        return -1;
    }
    unsigned sg = G_SQ_MEM_GDS_WORD0__SRC_GPR(w[0]), dg = G_SQ_MEM_GDS_WORD1__DST_GPR(w[1]);
    if (sg >= ngpr || dg >= ngpr) {
        snprintf(msg, msglen, "GDS op 0x%02X: R%u / R%u beyond the lane's %u GPRs", op, sg, dg, ngpr);
        return -1;
    }
    const union eg_vec4 *src = &gpr[sg];
    uint32_t a, b;
    if (!src_sel(src, G_SQ_MEM_GDS_WORD0__SRC_SEL_Y(w[0]), &a) ||
        !src_sel(src, G_SQ_MEM_GDS_WORD0__SRC_SEL_Z(w[0]), &b)) {
        snprintf(msg, msglen, "GDS op 0x%02X: unsupported source select", op);
        return -1;
    }
    const unsigned sel[4] = { G_SQ_MEM_GDS_WORD2__DST_SEL_X(w[2]), G_SQ_MEM_GDS_WORD2__DST_SEL_Y(w[2]),
                              G_SQ_MEM_GDS_WORD2__DST_SEL_Z(w[2]), G_SQ_MEM_GDS_WORD2__DST_SEL_W(w[2]) };
    for (unsigned c = 0; c < 4; c++)
        if (sel[c] != V_SQ_INST_SEL__X && sel[c] != V_SQ_INST_SEL__ZERO && sel[c] != V_SQ_INST_SEL__MASK) {
            snprintf(msg, msglen, "GDS op 0x%02X: destination select %u (one value is returned)", op, sel[c]);
            return -1;
        }
    uint32_t old;
    if (eg_gds_atomic(&env->mem->gds_append[id], op, a, b, &old)) {
        snprintf(msg, msglen, "unsupported GDS op 0x%02X", op);
        return -1;
    }
    if (!returns(op))
        return 0;
    union eg_vec4 *dst = &gpr[dg];
    for (unsigned c = 0; c < 4; c++)
        if (sel[c] != V_SQ_INST_SEL__MASK)
            dst->u[c] = sel[c] == V_SQ_INST_SEL__X ? old : 0;
    return 0;
}
