/* For the random programs of the wave and pixel-batch equivalence tests:
 * the ALU ops that have a lane kernel (src/shader/alu_lanes.c), by the
 * slots they may sit in, and source bit patterns the kernels treat
 * specially (denormals, Infs, NaNs, integers). */
#ifndef CEDAR_TESTS_KERNEL_OPS_H
#define CEDAR_TESTS_KERNEL_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "src/shader/alu_lanes.h"
#include "src/shader/isa.h"

struct test_op {
    bool op3;
    unsigned op;
};

struct test_kernel_ops {
    struct test_op vec[300], trans[300];
    unsigned nvec, ntrans;
};

static inline void test_kernel_ops(struct test_kernel_ops *k)
{
    k->nvec = k->ntrans = 0;
    for (int form = 0; form < 2; form++)
        for (unsigned op = 0; op < (form ? 32u : 256u); op++) {
            const struct eg_alu_op_info *info = eg_alu_op_info(form, op);
            if (!eg_lanes_kernel(form, op) || !info)
                continue;
            if (info->slots & EG_SLOT_VEC)
                k->vec[k->nvec++] = (struct test_op){ form, op };
            if (info->slots & EG_SLOT_TRANS)
                k->trans[k->ntrans++] = (struct test_op){ form, op };
        }
}

static const uint32_t test_odd_bits[] = { 0x00000001u, 0x807FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC12345u, 0xFFC00000u,
                                          0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x00000021u, 0x4F000000u, 0x00FFFFFFu };
#define TEST_NODD (sizeof test_odd_bits / sizeof test_odd_bits[0])

#endif
