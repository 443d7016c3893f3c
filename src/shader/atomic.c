/* The 32-bit atomic arithmetic of the GPU's memories (see cedar/shader.h
 * eg_atomic): one rule per operation for the local data share (LDS_*
 * instructions), the global data share (DS_* of the GDS clause) and the
 * RATs (RAT_INST_*), which number their operations apart.  The rules (AMD
 * Evergreen ISA, "Local Data Share" and "Global Data Share"): ADD m + a,
 * SUB m - a, RSUB a - m, INC (m >= a ? 0 : m + 1), DEC (m == 0 || m > a ?
 * a : m - 1), signed and unsigned MIN / MAX, AND, OR, XOR, MSKOR
 * (m & ~a) | b, XCHG a, CMPXCHG (m == a ? b : m), READ m. */
#include "cedar/shader.h"

#include "eg_regs.h"

uint32_t eg_atomic(enum eg_atomic_op op, uint32_t old, uint32_t a, uint32_t b)
{
    switch (op) {
    case EG_ATOMIC_ADD: return old + a;
    case EG_ATOMIC_SUB: return old - a;
    case EG_ATOMIC_RSUB: return a - old;
    case EG_ATOMIC_INC: return old >= a ? 0 : old + 1;
    case EG_ATOMIC_DEC: return old == 0 || old > a ? a : old - 1;
    case EG_ATOMIC_MIN_INT: return (int32_t)old < (int32_t)a ? old : a;
    case EG_ATOMIC_MAX_INT: return (int32_t)old > (int32_t)a ? old : a;
    case EG_ATOMIC_MIN_UINT: return old < a ? old : a;
    case EG_ATOMIC_MAX_UINT: return old > a ? old : a;
    case EG_ATOMIC_AND: return old & a;
    case EG_ATOMIC_OR: return old | a;
    case EG_ATOMIC_XOR: return old ^ a;
    case EG_ATOMIC_MSKOR: return (old & ~a) | b;
    case EG_ATOMIC_XCHG: return a;
    case EG_ATOMIC_CMPXCHG: return old == a ? b : old;
    case EG_ATOMIC_READ: break;
    }
    return old;
}

bool eg_atomic_of_ds_op(unsigned op, enum eg_atomic_op *out)
{
    /* the _RET forms of the arithmetic are the plain ones + 0x20 */
    static const enum eg_atomic_op arith[] = {
        [V_SQ_DS_OP__ADD] = EG_ATOMIC_ADD,         [V_SQ_DS_OP__SUB] = EG_ATOMIC_SUB,
        [V_SQ_DS_OP__RSUB] = EG_ATOMIC_RSUB,       [V_SQ_DS_OP__INC] = EG_ATOMIC_INC,
        [V_SQ_DS_OP__DEC] = EG_ATOMIC_DEC,         [V_SQ_DS_OP__MIN_INT] = EG_ATOMIC_MIN_INT,
        [V_SQ_DS_OP__MAX_INT] = EG_ATOMIC_MAX_INT, [V_SQ_DS_OP__MIN_UINT] = EG_ATOMIC_MIN_UINT,
        [V_SQ_DS_OP__MAX_UINT] = EG_ATOMIC_MAX_UINT, [V_SQ_DS_OP__AND] = EG_ATOMIC_AND,
        [V_SQ_DS_OP__OR] = EG_ATOMIC_OR,           [V_SQ_DS_OP__XOR] = EG_ATOMIC_XOR,
        [V_SQ_DS_OP__MSKOR] = EG_ATOMIC_MSKOR,
    };
    unsigned low = op & ~(V_SQ_DS_OP__ADD_RET - V_SQ_DS_OP__ADD);
    if (low <= V_SQ_DS_OP__MSKOR && (op == low || op == low + V_SQ_DS_OP__ADD_RET)) {
        *out = arith[low];
        return true;
    }
    switch (op) {
    case V_SQ_DS_OP__WRITE:
    case V_SQ_DS_OP__XCHG_RET: *out = EG_ATOMIC_XCHG; return true;
    case V_SQ_DS_OP__CMP_XCHG_RET: *out = EG_ATOMIC_CMPXCHG; return true;
    case V_SQ_DS_OP__READ_RET: *out = EG_ATOMIC_READ; return true;
    default: return false;
    }
}
