/* The flow-control program over a set of lanes (cf.h), as the Evergreen ISA
 * ("Flow control") runs it: the lanes run in lockstep under an active mask.
 * A lane is active, or inactive for one of three reasons: a branch not
 * taken, a LOOP_BREAK or a LOOP_CONTINUE.  PUSH / ALU_PUSH_BEFORE save the
 * active mask on the branch stack, POP restores it; ELSE inverts the active
 * lanes against the saved mask; JUMP / ELSE jump (popping POP_COUNT
 * entries) only when no lane is left active, LOOP_BREAK / LOOP_CONTINUE
 * only when no lane of the loop is left for the iteration; a loop keeps its
 * own frame: the lanes that entered, those that broke (inactive until the
 * loop ends) and those that continued (inactive until LOOP_END, which
 * starts the next iteration with every lane that entered and did not
 * break).  A mask restored by POP or ELSE inside a loop keeps broken and
 * continued lanes inactive.  Each mask operation works lane by lane, so a
 * wave (wave.c) can split a mask by groups of lanes where the groups decide
 * differently.  A condition (COND) passes the active lanes (ACTIVE), none
 * (FALSE), or, by the stage's boolean constant CF_CONST, all of them or
 * none (BOOL / NOT_BOOL).  CALL / CALL_FS push a return address that
 * RETURN goes back to; a RETURN with none ends the program.
 * Anything not modelled stops the run with "unsupported ...". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cf.h"
#include "eg_regs.h"
#include "isa.h"

static int cf_fault(const struct eg_cf_ops *o, struct eg_cf *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int cf_fault(const struct eg_cf_ops *o, struct eg_cf *c, const char *fmt, ...)
{
    char what[140];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int rc = o->fault(o->ctx, c, what);
    return rc ? rc : -1;
}

static bool none(const struct eg_cf_ops *o, struct eg_cf *c, const struct eg_cf *before, uint64_t x)
{
    return o->none ? o->none(o->ctx, c, before, x) : x == 0;
}

/* A mask restored from the stack, less the lanes a LOOP_BREAK or a
 * LOOP_CONTINUE of the innermost loop has taken out since it was saved. */
static uint64_t restored(const struct eg_cf *c, uint64_t mask)
{
    mask &= c->all;
    if (c->nloops)
        mask &= ~(c->loops[c->nloops - 1].brk | c->loops[c->nloops - 1].cont);
    return mask;
}

static int pop(const struct eg_cf_ops *o, struct eg_cf *c, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned floor = c->nloops ? c->loops[c->nloops - 1].sp : 0;
        if (c->sp <= floor)
            return cf_fault(o, c, "POP of %u entries from a branch stack holding %u", n, c->sp - floor + i);
        c->active = restored(c, c->stack[--c->sp]);
    }
    return 0;
}

/* A taken jump: pop POP_COUNT entries, go to addr. */
static int jump(const struct eg_cf_ops *o, struct eg_cf *c, unsigned pops, size_t addr, size_t *next)
{
    *next = addr;
    return pop(o, c, pops);
}

static int push(const struct eg_cf_ops *o, struct eg_cf *c)
{
    if (c->sp >= EG_CF_MAX_STACK)
        return cf_fault(o, c, "branch stack overflow");
    c->stack[c->sp++] = c->active;
    return 0;
}

/* ELSE: the lanes active at the matching push that are not active now. */
static void invert(struct eg_cf *c)
{
    unsigned floor = c->nloops ? c->loops[c->nloops - 1].sp : 0;
    uint64_t outer = c->sp > floor ? c->stack[c->sp - 1] : c->nloops ? c->loops[c->nloops - 1].entered : c->all;
    c->active = restored(c, outer & ~c->active);
}

/* The lanes for which a CF instruction's condition holds (CF_WORD1 COND;
 * VALID_PIXEL_MODE leaves helper lanes out). */
static int cf_pass(const struct eg_cf_ops *o, struct eg_cf *c, uint32_t w1, uint64_t *out)
{
    uint64_t pass = c->active;
    switch (G_SQ_CF_WORD1__COND(w1)) {
    case V_SQ_CF_COND__ACTIVE:
        break;
    case V_SQ_CF_COND__FALSE:
        pass = 0;
        break;
    default: {
        /* BOOL / NOT_BOOL: the active lanes when the boolean constant
         * CF_CONST is set / clear (one value for every lane) */
        unsigned k = G_SQ_CF_WORD1__CF_CONST(w1);
        bool b;
        char msg[120] = "";
        if (!o->env->bool_const)
            return cf_fault(o, c, "CF condition on boolean constant %u without boolean constants", k);
        if (o->env->bool_const(o->env->ctx, k, &b, msg, sizeof msg))
            return cf_fault(o, c, "boolean constant %u: %s", k, msg);
        if (b != (G_SQ_CF_WORD1__COND(w1) == V_SQ_CF_COND__BOOL))
            pass = 0;
        break;
    }
    }
    if (G_SQ_CF_WORD1__VALID_PIXEL_MODE(w1))
        pass &= c->valid;
    *out = pass;
    return 0;
}

static int loop_start(const struct eg_cf_ops *o, struct eg_cf *c, const struct eg_cf *before, unsigned inst,
                      uint32_t w1, size_t addr, size_t *next)
{
    uint64_t pass;
    if (cf_pass(o, c, w1, &pass))
        return -1;
    if (c->nloops >= EG_CF_MAX_LOOPS)
        return cf_fault(o, c, "loops nested deeper than %d", EG_CF_MAX_LOOPS);
    struct eg_loop_frame f = { .sp = c->sp };
    if (inst != V_SQ_CF_INST__LOOP_START_DX10) {
        /* SQ_LOOP_CONST: COUNT bits 0..11, INIT 12..23, INC 24..31 (signed) */
        if (!o->env->loop_const)
            return cf_fault(o, c, "LOOP_START without loop constants");
        uint32_t k;
        char msg[120] = "";
        if (o->env->loop_const(o->env->ctx, G_SQ_CF_WORD1__CF_CONST(w1), &k, msg, sizeof msg))
            return cf_fault(o, c, "loop constant %u: %s", G_SQ_CF_WORD1__CF_CONST(w1), msg);
        f.counted = true;
        f.left = k & 0xFFF;
        int32_t init = (int32_t)(k >> 12 & 0xFFF), inc = (int8_t)(k >> 24);
        if (inst == V_SQ_CF_INST__LOOP_START) {
            f.index = init, f.inc = inc;
        } else if (c->nloops) {     /* NO_AL: aL stays the enclosing loop's */
            f.index = c->loops[c->nloops - 1].index;
        }
        if (f.left == 0)
            pass = 0;
    }
    if (none(o, c, before, pass)) {
        *next = addr;   /* the instruction after the matching LOOP_END */
        return pop(o, c, G_SQ_CF_WORD1__POP_COUNT(w1));
    }
    f.saved = c->active;
    f.entered = pass & c->all;
    c->loops[c->nloops++] = f;
    c->active = f.entered;
    return 0;
}

static int loop_end(const struct eg_cf_ops *o, struct eg_cf *c, const struct eg_cf *before, uint32_t w1,
                    size_t addr, size_t *next)
{
    if (!c->nloops)
        return cf_fault(o, c, "LOOP_END outside a loop");
    struct eg_loop_frame *f = &c->loops[c->nloops - 1];
    /* the iteration's branch entries are gone: every lane that entered and
     * did not break runs the next one (continued lanes and those a branch
     * left inactive alike) */
    c->sp = f->sp;
    c->active = f->entered & c->all & ~f->brk;
    f->cont = 0;
    bool exhausted = f->counted && --f->left == 0;
    uint64_t pass;
    if (cf_pass(o, c, w1, &pass))
        return -1;
    /* again: a lane left that passes (pass is within active) */
    if (!exhausted && !none(o, c, before, pass)) {
        c->loops[c->nloops - 1].index += c->loops[c->nloops - 1].inc;
        *next = addr;   /* the instruction after LOOP_START */
        return 0;
    }
    c->active = restored(c, c->loops[--c->nloops].saved & c->all);
    return pop(o, c, G_SQ_CF_WORD1__POP_COUNT(w1));
}

/* LOOP_BREAK / LOOP_CONTINUE, and the lanes ALU_BREAK / ALU_CONTINUE's
 * clause turned off: out of the loop's iteration. */
static int loop_leave(const struct eg_cf_ops *o, struct eg_cf *c, bool brk, uint64_t lanes)
{
    if (!c->nloops)
        return cf_fault(o, c, "%s outside a loop", brk ? "LOOP_BREAK" : "LOOP_CONTINUE");
    struct eg_loop_frame *f = &c->loops[c->nloops - 1];
    if (brk)
        f->brk |= lanes;
    else
        f->cont |= lanes;
    c->active &= ~lanes;
    return 0;
}

static int run_cf_alu(const struct eg_cf_ops *o, struct eg_cf *c, uint32_t w0, uint32_t w1)
{
    unsigned inst = G_SQ_CF_ALU_WORD1__CF_INST(w1);
    struct eg_kc kc[4] = {
        { G_SQ_CF_ALU_WORD0__KCACHE_BANK0(w0), G_SQ_CF_ALU_WORD1__KCACHE_ADDR0(w1), G_SQ_CF_ALU_WORD0__KCACHE_MODE0(w0) },
        { G_SQ_CF_ALU_WORD0__KCACHE_BANK1(w0), G_SQ_CF_ALU_WORD1__KCACHE_ADDR1(w1), G_SQ_CF_ALU_WORD1__KCACHE_MODE1(w1) },
        { 0, 0, V_SQ_KCACHE_MODE__NOP },
        { 0, 0, V_SQ_KCACHE_MODE__NOP },
    };
    if (c->have_ext) {
        kc[2] = (struct eg_kc){ G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK2(c->ext_w0),
                                G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR2(c->ext_w1),
                                G_SQ_CF_ALU_WORD0_EXT__KCACHE_MODE2(c->ext_w0) };
        kc[3] = (struct eg_kc){ G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK3(c->ext_w0),
                                G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR3(c->ext_w1),
                                G_SQ_CF_ALU_WORD1_EXT__KCACHE_MODE3(c->ext_w1) };
        c->have_ext = false;
    }
    if (G_SQ_CF_ALU_WORD1__ALT_CONST(w1))
        return cf_fault(o, c, "unsupported ALT_CONST");
    switch (inst) {
    case V_SQ_CF_ALU_INST__ALU:
    case V_SQ_CF_ALU_INST__ALU_POP_AFTER:
    case V_SQ_CF_ALU_INST__ALU_POP2_AFTER:
    case V_SQ_CF_ALU_INST__ALU_ELSE_AFTER:
    case V_SQ_CF_ALU_INST__ALU_BREAK:
    case V_SQ_CF_ALU_INST__ALU_CONTINUE:
        break;
    case V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE:
        if (push(o, c))
            return -1;
        break;
    default:
        return cf_fault(o, c, "unsupported CF_ALU instruction %u (%s)", inst, eg_cf_inst_name(w1));
    }
    uint64_t before = c->active;
    if (c->active) {
        int rc = o->alu(o->ctx, c, kc, G_SQ_CF_ALU_WORD0__ADDR(w0), G_SQ_CF_ALU_WORD1__COUNT(w1) + 1);
        if (rc)
            return rc;
    }
    switch (inst) {
    case V_SQ_CF_ALU_INST__ALU_POP_AFTER:
        return pop(o, c, 1);
    case V_SQ_CF_ALU_INST__ALU_POP2_AFTER:
        return pop(o, c, 2);
    case V_SQ_CF_ALU_INST__ALU_ELSE_AFTER:
        invert(c);
        return 0;
    case V_SQ_CF_ALU_INST__ALU_BREAK:
    case V_SQ_CF_ALU_INST__ALU_CONTINUE:
        /* the lanes the clause's predicate turned off leave the iteration */
        return loop_leave(o, c, inst == V_SQ_CF_ALU_INST__ALU_BREAK, before & ~c->active & c->all);
    default:
        return 0;
    }
}

/* The parts of c in use (a split's snapshot costs what the program uses). */
static void cf_copy(struct eg_cf *to, const struct eg_cf *from)
{
    memcpy(to, from, offsetof(struct eg_cf, stack));
    memcpy(to->stack, from->stack, from->sp * sizeof from->stack[0]);
    to->sp = from->sp;
    memcpy(to->loops, from->loops, from->nloops * sizeof from->loops[0]);
    to->nloops = from->nloops;
    memcpy(to->calls, from->calls, from->ncalls * sizeof from->calls[0]);
    to->ncalls = from->ncalls;
    to->have_ext = from->have_ext;
    to->ext_w0 = from->ext_w0;
    to->ext_w1 = from->ext_w1;
}

static bool decides(unsigned inst)
{
    switch (inst) {
    case V_SQ_CF_INST__PUSH: case V_SQ_CF_INST__JUMP: case V_SQ_CF_INST__ELSE:
    case V_SQ_CF_INST__LOOP_START: case V_SQ_CF_INST__LOOP_START_NO_AL: case V_SQ_CF_INST__LOOP_START_DX10:
    case V_SQ_CF_INST__LOOP_END: case V_SQ_CF_INST__LOOP_BREAK: case V_SQ_CF_INST__LOOP_CONTINUE:
    case V_SQ_CF_INST__CALL:
        return true;
    default:
        return false;
    }
}

/* One plain CF instruction. */
static int run_cf_plain(const struct eg_cf_ops *o, struct eg_cf *c, uint32_t w0, uint32_t w1, size_t *next,
                        bool *end)
{
    unsigned inst = G_SQ_CF_WORD1__CF_INST(w1);
    size_t addr = G_SQ_CF_WORD0__ADDR(w0);
    unsigned pops = G_SQ_CF_WORD1__POP_COUNT(w1);
    uint64_t pass;
    if (cf_pass(o, c, w1, &pass))
        return -1;
    struct eg_cf snap, *before = NULL;
    if (o->split && decides(inst)) {
        cf_copy(&snap, c);
        before = &snap;
    }
    switch (inst) {
    case V_SQ_CF_INST__NOP:
    case V_SQ_CF_INST__WAIT_ACK:
        return 0;
    case V_SQ_CF_INST__TC:
    case V_SQ_CF_INST__VC: {
        if (!pass)
            return 0;
        uint64_t keep = c->active;
        c->active = pass;
        int r = o->fetch(o->ctx, c, inst == V_SQ_CF_INST__TC, addr, G_SQ_CF_WORD1__COUNT(w1) + 1, pass);
        c->active = keep;
        return r;
    }
    case V_SQ_CF_INST__GDS: {
        if (!o->gds)
            return cf_fault(o, c, "unsupported CF instruction 0x%02x (%s)", inst, eg_cf_inst_name(w1));
        if (!pass)
            return 0;
        uint64_t keep = c->active;
        c->active = pass;
        int r = o->gds(o->ctx, c, addr, G_SQ_CF_WORD1__COUNT(w1) + 1, pass);
        c->active = keep;
        return r;
    }
    case V_SQ_CF_INST__EMIT_VERTEX:
    case V_SQ_CF_INST__EMIT_CUT_VERTEX:
    case V_SQ_CF_INST__CUT_VERTEX:
        if (!o->emit)
            return cf_fault(o, c, "unsupported CF instruction 0x%02x (%s)", inst, eg_cf_inst_name(w1));
        return pass ? o->emit(o->ctx, c, inst, G_SQ_CF_WORD1__COUNT(w1), pass) : 0;
    case V_SQ_CF_INST__CALL_FS:
        if (!o->fs)
            return cf_fault(o, c, "CALL_FS but no fetch shader");
        if (c->ncalls >= EG_CF_MAX_CALLS)
            return cf_fault(o, c, "call stack overflow");
        c->calls[c->ncalls].prog = c->prog;
        c->calls[c->ncalls++].pc = *next;
        c->prog = o->fs;
        *next = addr;
        return 0;
    case V_SQ_CF_INST__CALL:
        /* taken when the condition holds for a lane; the subroutine at
         * ADDR runs with the active mask as it is and its RETURN comes
         * back here + 1 (the shape of AMD's Evergreen Xv and composite
         * shaders in xf86-video-ati, which pick a subroutine by a boolean
         * constant).  Evergreen's CF_WORD1 has no CALL_COUNT (eg_sq.h).
         * What POP_COUNT does on a CALL is not modelled. */
        if (pops)
            return cf_fault(o, c, "unsupported CALL with POP_COUNT %u", pops);
        if (none(o, c, before, pass))
            return 0;
        if (c->ncalls >= EG_CF_MAX_CALLS)
            return cf_fault(o, c, "call stack overflow (%d calls deep)", EG_CF_MAX_CALLS);
        c->calls[c->ncalls].prog = c->prog;
        c->calls[c->ncalls++].pc = *next;
        *next = addr;
        return 0;
    case V_SQ_CF_INST__RETURN:
        if (c->ncalls == 0) {
            *end = true;    /* a top-level RETURN ends the program */
            return 0;
        }
        c->ncalls--;
        c->prog = c->calls[c->ncalls].prog;
        *next = c->calls[c->ncalls].pc;
        return 0;
    case V_SQ_CF_INST__PUSH:
        /* push, then jump (popping) when the condition holds for no lane */
        if (push(o, c))
            return -1;
        return none(o, c, before, pass) ? jump(o, c, pops, addr, next) : 0;
    case V_SQ_CF_INST__POP:
        return pop(o, c, pops);
    case V_SQ_CF_INST__JUMP:
        return none(o, c, before, pass) ? jump(o, c, pops, addr, next) : 0;
    case V_SQ_CF_INST__ELSE:
        /* invert against the state at the matching push; like JUMP, pop
         * POP_COUNT entries only when jumping (Mesa's ELSE carries the pop
         * of an endif merged into ALU_POP_AFTER) */
        invert(c);
        if (cf_pass(o, c, w1, &pass))
            return -1;
        return none(o, c, before, pass) ? jump(o, c, pops, addr, next) : 0;
    case V_SQ_CF_INST__LOOP_START:
    case V_SQ_CF_INST__LOOP_START_NO_AL:
    case V_SQ_CF_INST__LOOP_START_DX10:
        return loop_start(o, c, before, inst, w1, addr, next);
    case V_SQ_CF_INST__LOOP_END:
        return loop_end(o, c, before, w1, addr, next);
    case V_SQ_CF_INST__LOOP_BREAK:
    case V_SQ_CF_INST__LOOP_CONTINUE: {
        /* the lanes passing leave; jump to LOOP_END when no lane of the
         * loop is left for this iteration (one a branch made inactive
         * still runs the rest of the body after its POP) */
        if (loop_leave(o, c, inst == V_SQ_CF_INST__LOOP_BREAK, pass))
            return -1;
        const struct eg_loop_frame *f = &c->loops[c->nloops - 1];
        return none(o, c, before, f->entered & ~f->brk & ~f->cont & c->all) ? jump(o, c, pops, addr, next) : 0;
    }
    default: {
        const char *n = eg_cf_inst_name(w1);
        return cf_fault(o, c, "unsupported CF instruction 0x%02x (%s)", inst, n ? n : "unknown");
    }
    }
}

/* What a program's CF instructions, from the first to END_OF_PROGRAM, hold
 * (eg_program_has_loop, eg_program_tex_fetches), never read past ndw. */
struct cf_summary {
    bool loop;
    unsigned tex_fetches;
};

static struct cf_summary cf_summarise(const struct eg_program *p)
{
    struct cf_summary sum = {false, 0};
    for (size_t pc = 0; 2 * pc + 2 <= p->ndw && pc < EG_CF_MAX_STEPS; pc++) {
        uint32_t w1 = p->dw[2 * pc + 1];
        switch (eg_cf_form_of(w1)) {
        case EG_CF_ALU:
            break;
        case EG_CF_EXPORT:
            if (G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(w1))
                return sum;
            break;
        default: {
            unsigned inst = G_SQ_CF_WORD1__CF_INST(w1);
            if (inst == V_SQ_CF_INST__LOOP_START || inst == V_SQ_CF_INST__LOOP_START_DX10 ||
                inst == V_SQ_CF_INST__LOOP_START_NO_AL)
                sum.loop = true;
            if (inst == V_SQ_CF_INST__TC)
                sum.tex_fetches += G_SQ_CF_WORD1__COUNT(w1) + 1;
            if (G_SQ_CF_WORD1__END_OF_PROGRAM(w1))
                return sum;
            break;
        }
        }
    }
    return sum;
}

bool eg_program_has_loop(const struct eg_program *p)
{
    return cf_summarise(p).loop;
}

unsigned eg_program_tex_fetches(const struct eg_program *p)
{
    return cf_summarise(p).tex_fetches;
}

int eg_cf_run(const struct eg_cf_ops *o, struct eg_cf *c)
{
    for (;; c->steps++) {
        if (c->steps >= EG_CF_MAX_STEPS)
            return cf_fault(o, c, "more than %d CF instructions executed (a loop?)", EG_CF_MAX_STEPS);
        if (2 * c->pc + 2 > c->prog->ndw)
            return cf_fault(o, c, "the CF program runs past the end of the shader (%zu dwords)", c->prog->ndw);
        uint32_t w0 = c->prog->dw[2 * c->pc], w1 = c->prog->dw[2 * c->pc + 1];
        enum eg_cf_form form = eg_cf_form_of(w1);
        bool end = false;
        size_t next = c->pc + 1;
        int rc;
        if (form == EG_CF_ALU) {
            if (G_SQ_CF_ALU_WORD1__CF_INST(w1) == V_SQ_CF_ALU_INST__ALU_EXTENDED) {
                c->ext_w0 = w0, c->ext_w1 = w1, c->have_ext = true;
                c->pc = next;
                continue;
            }
            rc = run_cf_alu(o, c, w0, w1);
        } else if (form == EG_CF_EXPORT) {
            rc = o->export(o->ctx, c, w0, w1);
            end = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(w1);
        } else {
            end = G_SQ_CF_WORD1__END_OF_PROGRAM(w1);
            rc = run_cf_plain(o, c, w0, w1, &next, &end);
        }
        if (rc)
            return rc;
        if (end)
            return 0;
        c->pc = next;
    }
}
