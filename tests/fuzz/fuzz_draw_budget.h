/* For the targets that render (fuzz_cs, fuzz_raw): whether an IB's draws
 * stay within what the software renderer finishes quickly under the
 * sanitizers.  A draw of millions of vertices is valid input that takes the
 * model minutes, which libFuzzer would report as a hang; such IBs are run
 * with draws validated, not rendered. */
#ifndef CEDAR_TESTS_FUZZ_DRAW_BUDGET_H
#define CEDAR_TESTS_FUZZ_DRAW_BUDGET_H

#include <stdbool.h>

#include "cedar/pm4.h"
#include "eg_regs.h"

#define FUZZ_MAX_DRAW_VERTICES 65536u

struct draw_budget {
    uint64_t instances, worst;
};

static inline int draw_budget_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct draw_budget *b = ctx;
    if (p->type != 3 || !p->npayload)
        return 0;
    uint64_t n = 0;
    switch (p->opcode) {
    case PKT3_NUM_INSTANCES: b->instances = p->payload[0]; return 0;
    case PKT3_DRAW_INDEX_AUTO: case PKT3_DRAW_INDEX_IMMD: n = p->payload[0]; break;
    case PKT3_DRAW_INDEX_OFFSET: n = p->npayload > 1 ? p->payload[1] : 0; break;
    case PKT3_DRAW_INDEX: case PKT3_DRAW_INDEX_OFFSET_2: n = p->npayload > 2 ? p->payload[2] : 0; break;
    case PKT3_DRAW_INDEX_2: n = p->npayload > 3 ? p->payload[3] : 0; break;
    default: return 0;
    }
    n *= b->instances ? b->instances : 1;
    if (n > b->worst)
        b->worst = n;
    return 0;
}

static inline bool draw_budget_ok(const uint32_t *ib, size_t ndw)
{
    struct draw_budget b = { 1, 0 };
    /* the command processor's own walk options (vc_cp.c): a stricter walk
     * stops early at an empty SET_* packet the CP takes, and misses the
     * draws after it */
    struct eg_pm4_opts o = { .lenient_counts = true, .empty_set_ok = true };
    struct eg_pm4_sink sink = { .ctx = &b, .packet = draw_budget_packet };
    eg_pm4_walk(ib, ndw, &o, &sink, NULL);
    return b.worst <= FUZZ_MAX_DRAW_VERTICES;
}

#endif
