/* An ALU instruction group as the hardware forms it (Evergreen ISA, "ALU
 * instruction groups"): instructions up to the one with LAST set, each in
 * the vector slot of its destination channel, else (that slot taken, or a
 * trans-only op) in the trans slot; then the literal dwords the group's
 * sources read, padded to 64 bits.  The one reading of a group shared by
 * the interpreter, the pixel batch and the wave. */
#include <stdio.h>
#include <string.h>

#include "eg_regs.h"
#include "interp.h"
#include "isa.h"

int eg_alu_group_read(const uint32_t *dw, size_t *i, size_t end, struct eg_alu_group *g, size_t *at, char *why,
                      size_t whylen)
{
    memset(g, 0, sizeof *g);
    bool last = false;
    while (!last) {
        if (*i >= end) {
            snprintf(why, whylen, "ALU group without LAST at the end of its clause");
            return -1;
        }
        *at = *i / 2;
        uint32_t w0 = dw[*i], w1 = dw[*i + 1];
        *i += 2;
        last = G_SQ_ALU_WORD0__LAST(w0);
        bool op3 = eg_alu_is_op3(w1);
        unsigned op = eg_alu_opcode(w1);
        const struct eg_alu_op_info *info = eg_alu_op_info(op3, op);
        if (!info) {
            snprintf(why, whylen, "unsupported ALU %s opcode 0x%02x (unknown)", op3 ? "OP3" : "OP2", op);
            return -1;
        }
        unsigned chan = G_SQ_ALU_WORD1_OP2__DST_CHAN(w1);
        int k = (!(info->slots & EG_SLOT_VEC) || g->s[chan].used) ? EG_SLOT_T : (int)chan;
        if (g->s[k].used || (k == EG_SLOT_T && !(info->slots & EG_SLOT_TRANS))) {
            snprintf(why, whylen, "ALU group has no free slot for %s", eg_alu_op_name(op3, op));
            return -1;
        }
        g->s[k] = (struct eg_alu_group_ins){ true, op3, op, w0, w1, info };
        unsigned used = eg_alu_literals_read(w0, w1, info->nsrc);
        if (used > g->nlit)
            g->nlit = used;
    }
    unsigned nlit_dw = (g->nlit + 1) & ~1u;
    if (*i + nlit_dw > end) {
        snprintf(why, whylen, "ALU literals run past the end of their clause");
        return -1;
    }
    g->lit = dw + *i;
    *i += nlit_dw;
    return 0;
}
