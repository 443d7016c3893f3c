/* Internal to src/shader/: an ALU clause decoded once for the wave engine
 * (wave_decode.c builds it, wave.c runs it over many lanes). */
#ifndef CEDAR_SHADER_WAVE_H
#define CEDAR_SHADER_WAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "cedar/shader.h"
#include "alu_lanes.h"
#include "cf.h"
#include "isa.h"

/* Where a source's value comes from. */
enum wsrc_kind {
    WS_GPR,         /* gpr (plus the lane's index when rel) */
    WS_VALUE,       /* value: a constant, a literal, an inline constant, ABS / NEG applied */
    WS_PV,
    WS_PS,
    WS_KCACHE_REL,  /* kcache set kset, constant kidx plus the lane's index: read per lane */
};

struct wsrc {
    uint8_t kind, chan;
    bool rel;               /* SRCn_REL: the slot's INDEX_MODE offset is validated (and added) */
    bool abs, neg;          /* for the kinds read per lane */
    uint16_t gpr;
    uint8_t kset;
    uint16_t kidx;
    unsigned sel;           /* the selector as encoded (INTERP / LOAD_P read their parameter by it) */
    uint32_t value;
};

enum wslot_kind { WK_EVAL, WK_GROUP, WK_INTERP, WK_LOAD_P, WK_MOVA };

struct wslot {
    bool used, op3;
    bool fault;             /* an active lane running it faults (the interpreter says how) */
    uint8_t kind, nsrc;
    unsigned op;
    struct wsrc src[3];
    const struct eg_lanes_kernel *kern;     /* WK_EVAL: the op's lane kernel, or NULL (eg_alu_eval per lane) */
    unsigned psel;          /* V_SQ_ALU_PRED_SEL__OFF / ZERO / ONE */
    unsigned index_mode;
    bool write, dst_rel;
    unsigned dst_gpr, dst_chan;
    unsigned omod;
    bool clamp, update_pred, update_exec;
    /* INTERP: the component, the slots holding I (odd) and J (even) */
    unsigned comp;
    int odd, even;
};

struct wgroup {
    struct wslot s[EG_NSLOTS];
    bool any_rel;           /* a relative source or destination */
    bool any_mova;
    bool any_group;         /* DOT4, DOT, CUBE, MAX4 ... */
    bool reduce;            /* x..w all DOT4, all DOT4_IEEE or all MAX4: eg_alu_reduce4 */
};

struct wclause {
    struct wgroup *g;
    unsigned ng;
    bool bad;               /* decoding stopped at a malformed group after g[ng - 1] */
    unsigned max_write;     /* 1 + the highest GPR an instruction writes (128: relative) */
    struct eg_kc kc[4];
};

/* Decode the ALU clause of nslots 64-bit slots at addr under the kcache sets
 * kc, as run_alu_clause (interp.c) groups it: constants are read now.  0, or
 * -1 when out of memory. */
int wave_decode_clause(const struct eg_program *p, const struct eg_shader_env *env, const struct eg_kc kc[4],
                       size_t addr, unsigned nslots, struct wclause *out);
void wave_clause_free(struct wclause *c);

/* One source as read_src (interp.c) reads it under the kcache sets kc
 * and the group's literals: kcache constants and literals resolved into
 * values; false where it faults whatever the lane. */
bool wave_decode_src(const struct eg_shader_env *env, const struct eg_kc kc[4], unsigned sel, unsigned chan,
                     bool rel, bool abs, bool neg, const uint32_t *lit, unsigned nlit, struct wsrc *s);

/* Constant idx (+ off when rel) of kcache set k, as interp.c reads it; false
 * where the interpreter faults. */
bool wave_kcache_read(const struct eg_shader_env *env, const struct eg_kc *k, unsigned idx, unsigned chan,
                      bool rel, int32_t off, uint32_t *out);

#endif
