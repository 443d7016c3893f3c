/* Shared between the walker's files (src/pm4/), not a public API. */
#ifndef CEDAR_PM4_INTERNAL_H
#define CEDAR_PM4_INTERNAL_H

#include "cedar/pm4.h"

/* The address slots of pkt numbered [skip, skip + max), written to out;
 * returns the total number of slots of the packet. */
unsigned eg_pm4_collect_slots(const struct eg_pm4_packet *pkt, const struct eg_pm4_opts *opts,
                              unsigned skip, struct eg_pm4_slot *out, unsigned max);

#endif
