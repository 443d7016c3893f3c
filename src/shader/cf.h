/* Internal to src/shader/: the flow-control program (CF instructions, the
 * branch stack, loops, calls) over a set of lanes, shared by the
 * interpreter (interp.c: up to a quad) and the wave (wave.c: up to 64
 * lanes).  cf.c walks the CF words; what runs the lanes' clauses and exports
 * is the caller's (struct eg_cf_ops). */
#ifndef CEDAR_SHADER_CF_H
#define CEDAR_SHADER_CF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/shader.h"

#define EG_CF_MAX_STACK 32
#define EG_CF_MAX_LOOPS 8
#define EG_CF_MAX_CALLS 8
#define EG_CF_MAX_STEPS 100000  /* CF instructions per run: stops runaway jumps */

struct eg_loop_frame {
    uint64_t saved;         /* lanes active before LOOP_START (active again after the loop) */
    uint64_t entered;       /* lanes that entered the loop */
    uint64_t brk, cont;     /* lanes inactive by LOOP_BREAK / LOOP_CONTINUE */
    unsigned sp;            /* branch stack depth at LOOP_START */
    bool counted;           /* LOOP_START / _NO_AL: SQ_LOOP_CONST iterations */
    uint32_t left;          /* counted: iterations left */
    int32_t index, inc;     /* aL and its step */
};

/* A kcache set an ALU clause locks: constant buffer, first constant / 16, mode. */
struct eg_kc {
    unsigned bank, addr, mode;
};

struct eg_cf {
    const struct eg_program *prog;  /* the one running (the VS or its fetch shader) */
    size_t pc;
    unsigned steps;
    uint64_t active;        /* lanes executing */
    uint64_t all;           /* every lane */
    uint64_t valid;         /* lanes that are pixels, not helpers */
    uint64_t stack[EG_CF_MAX_STACK];
    unsigned sp;
    struct eg_loop_frame loops[EG_CF_MAX_LOOPS];
    unsigned nloops;
    struct { const struct eg_program *prog; size_t pc; } calls[EG_CF_MAX_CALLS];
    unsigned ncalls;
    bool have_ext;          /* an ALU_EXTENDED before the next CF_ALU */
    uint32_t ext_w0, ext_w1;
};

/* What runs the lanes.  Each returns 0, or non-zero to stop the run (after
 * a fault, which the callee reports). */
struct eg_cf_ops {
    void *ctx;
    const struct eg_program *fs;    /* CALL_FS's target, or NULL */
    const struct eg_shader_env *env;
    /* an ALU clause of nslots slots at addr under kcache sets kc, for c->active (not 0) */
    int (*alu)(void *ctx, struct eg_cf *c, const struct eg_kc kc[4], size_t addr, unsigned nslots);
    /* a TEX (tex) or VTX clause of count instructions at addr, for lanes (not 0) */
    int (*fetch)(void *ctx, struct eg_cf *c, bool tex, size_t addr, unsigned count, uint64_t lanes);
    /* a GDS clause of count instructions at addr, for lanes (not 0); NULL:
     * it faults */
    int (*gds)(void *ctx, struct eg_cf *c, size_t addr, unsigned count, uint64_t lanes);
    /* EXPORT / EXPORT_DONE / MEM_SCRATCH and the other alloc-export forms */
    int (*export)(void *ctx, struct eg_cf *c, uint32_t w0, uint32_t w1);
    /* EMIT_VERTEX / CUT_VERTEX / EMIT_CUT_VERTEX (inst) of stream COUNT
     * for lanes (not 0); NULL: they fault */
    int (*emit)(void *ctx, struct eg_cf *c, unsigned inst, unsigned stream, uint64_t lanes);
    /* Whether no lane is in x, where flow control decides on it.  NULL:
     * x == 0.  With `split`, before is the state before the instruction
     * deciding (see wave.c); else NULL. */
    bool (*none)(void *ctx, struct eg_cf *c, const struct eg_cf *before, uint64_t x);
    bool split;
    /* a fault in the flow control itself: the message, the run stops */
    int (*fault)(void *ctx, struct eg_cf *c, const char *what);
};

/* Run the CF program from c->pc until its end (END_OF_PROGRAM, a
 * top-level RETURN).  0, or what the callee or fault returned. */
int eg_cf_run(const struct eg_cf_ops *ops, struct eg_cf *c);

/* The index relative operands with INDEX_MODE LOOP add: the innermost
 * loop's aL; false outside a loop. */
static inline bool eg_cf_loop_index(const struct eg_cf *c, int32_t *out)
{
    if (!c->nloops)
        return false;
    *out = c->loops[c->nloops - 1].index;
    return true;
}

#endif
