/* Internal to src/shader/: the common single-slot ALU operations over many
 * lanes at once (alu_lanes.c), for the wave (wave.c) and the pixel batch
 * (ps_batch.c).  Each kernel gives every lane exactly what eg_alu_eval
 * gives it (denormal flushing included); the caller applies OMOD / CLAMP
 * (eg_lanes_out_mod) where the result is a float. */
#ifndef CEDAR_SHADER_ALU_LANES_H
#define CEDAR_SHADER_ALU_LANES_H

#include <stdbool.h>
#include <stdint.h>

#define EG_LANES_MAX 64

/* What a kernel's condition means (eg_alu_eval's alu_effects). */
enum eg_lanes_effect {
    EG_LANES_PLAIN,     /* no condition */
    EG_LANES_KILL,      /* a KILL*: the lanes whose condition held are killed */
    EG_LANES_PRED,      /* a PRED_SET*: the condition is the lane's new predicate */
};

struct eg_lanes_kernel {
    /* r[l] for l < n (n <= EG_LANES_MAX) from s[0][l], s[1][l], s[2][l]
     * (the sources the op reads; r is none of them); returns the lanes
     * (bit l) whose condition holds, 0 for a PLAIN kernel. */
    uint64_t (*run)(const uint32_t *const s[3], uint32_t *restrict r, unsigned n);
    bool int_result;    /* the result is an integer: OMOD and CLAMP do not apply */
    uint8_t effect;     /* enum eg_lanes_effect */
};

/* The kernel of an opcode, or NULL where eg_alu_eval must run each lane. */
const struct eg_lanes_kernel *eg_lanes_kernel(bool op3, unsigned op);

/* DOT4 / DOT4_IEEE / MAX4 (eg_alu_reduce4) for lanes l < n: a[k][l], b[k][l]
 * are slot k's sources. */
void eg_lanes_reduce4(unsigned op, const uint32_t *const a[4], const uint32_t *const b[4], uint32_t *restrict r,
                      unsigned n);

/* OMOD and CLAMP (alu_rules.h alu_out_mod) on r[l], l < n. */
void eg_lanes_out_mod(unsigned omod, bool clamp, uint32_t *r, unsigned n);

#endif
