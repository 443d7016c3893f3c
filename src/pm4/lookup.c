/* Database lookups the walker and its sinks need beyond regdb.h: registers
 * by (space, offset), since the resource and ALU-constant spaces overlap,
 * and the space a SET_* packet writes. */
#include "cedar/pm4.h"

#include <stddef.h>

const struct eg_reg *eg_pm4_reg_in_space(uint32_t offset, const struct eg_space *space)
{
    const struct eg_reg *r = eg_reg_find(offset);
    if (!r || !space)
        return r;
    /* eg_reg_find gives the first entry at this offset; the others follow it. */
    const struct eg_reg *end = eg_regs + eg_regs_count;
    for (; r < end && r->offset == offset; r++)
        if (&eg_spaces[r->space] == space)
            return r;
    return NULL;
}

const struct eg_space *eg_pm4_space_of_packet(unsigned opcode)
{
    for (unsigned i = 0; i < eg_spaces_count; i++)
        if (eg_spaces[i].packet >= 0 && (unsigned)eg_spaces[i].packet == opcode)
            return &eg_spaces[i];
    return NULL;
}

size_t eg_pm4_min_payload(const struct eg_packet *def)
{
    if (!def)
        return 0;
    if (def->count_min >= 0)
        return (size_t)def->count_min + 1;
    size_t n = 0;
    for (unsigned i = 0; i < def->ndwords; i++)
        if (def->dwords[i].index >= 0 && (size_t)def->dwords[i].index + 1 > n)
            n = (size_t)def->dwords[i].index + 1;
    return n;
}

const char *eg_pm4_errcode_name(enum eg_pm4_errcode code)
{
    switch (code) {
    case EG_PM4_OK: return "ok";
    case EG_PM4_ERR_ARG: return "bad argument";
    case EG_PM4_ERR_TRUNCATED: return "truncated packet";
    case EG_PM4_ERR_RESERVED_TYPE: return "reserved packet type";
    case EG_PM4_ERR_BAD_COUNT: return "bad count";
    case EG_PM4_ERR_BAD_RANGE: return "register range outside its space";
    case EG_PM4_ERR_ABORTED: return "stopped by the sink";
    case EG_PM4_ERR_UNKNOWN_PACKET: return "unknown packet length";
    }
    return "unknown error";
}
