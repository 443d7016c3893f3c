/* Evergreen shader disassembler: CF program, ALU clauses (VLIW5 groups with
 * their slots and literals), VTX and TEX clauses.  Names come from the
 * register database's enums (regs/isa.regs), so a new opcode there shows up
 * here without code changes.  Every word read is bounds-checked against the
 * buffer; malformed programs end with an "error:" line. */
#include <inttypes.h>
#include <string.h>

#include "cedar/regdb.h"
#include "cedar/shader.h"
#include "eg_regs.h"
#include "isa.h"

#define MAX_CLAUSES 128
#define MAX_CALLS 32

struct dis {
    const uint32_t *dw;
    size_t ndw;
    FILE *out;
    bool words;
    int status;     /* EG_DISASM_* */
    size_t calls[MAX_CALLS];    /* CALL targets: subroutines, listed after the main program */
    unsigned ncalls;
};

static const char chan_name[] = "xyzw";

static const char *or_default(const char *s, const char *dflt)
{
    return s ? s : dflt;
}

/* Name of value v of enum `enm`, without the enum's own name as a prefix
 * (resource.regs spells SQ_NUM_FORMAT's values SQ_NUM_FORMAT_NORM ...). */
static const char *enum_name(const char *enm, uint32_t v)
{
    const struct eg_enum *e = eg_enum_find_name(enm);
    const char *n = e ? eg_enum_value_name(e, v) : NULL;
    size_t len = strlen(enm);
    if (n && strncmp(n, enm, len) == 0 && n[len] == '_' && n[len + 1])
        return n + len + 1;
    return n;
}

static void mark(struct dis *d, int status)
{
    if (status > d->status)
        d->status = status;
}

const char *eg_cf_inst_name(uint32_t w1)
{
    if (eg_cf_form_of(w1) == EG_CF_ALU)
        return enum_name("SQ_CF_ALU_INST", G_SQ_CF_ALU_WORD1__CF_INST(w1));
    return enum_name("SQ_CF_INST", G_SQ_CF_WORD1__CF_INST(w1));
}

const char *eg_alu_op_name(bool op3, unsigned op)
{
    return enum_name(op3 ? "SQ_ALU_OP3" : "SQ_ALU_OP2", op);
}

static void words(struct dis *d, size_t at, unsigned n)
{
    fprintf(d->out, "%04zx ", at / 2);
    if (!d->words)
        return;
    for (unsigned i = 0; i < n; i++)
        fprintf(d->out, " %08" PRIx32, d->dw[at + i]);
    for (unsigned i = n; i < 4; i++)
        fprintf(d->out, "         ");
}

static char sel_char(unsigned sel)
{
    static const char s[8] = { 'x', 'y', 'z', 'w', '0', '1', '?', '_' };
    return s[sel & 7];
}

/* ---------------------------------------------------------------- CF */

struct clause_ref {
    unsigned kind;      /* EG_CLAUSE_* */
    size_t addr;        /* 64-bit units */
    unsigned count;     /* instructions or ALU slots */
    unsigned cf_pc;
    uint32_t cf_w0, cf_w1;
};

static void print_cf(struct dis *d, size_t pc, struct clause_ref *cl, unsigned *ncl, bool *stop)
{
    uint32_t w0 = d->dw[2 * pc], w1 = d->dw[2 * pc + 1];
    const char *name = eg_cf_inst_name(w1);
    enum eg_cf_form form = eg_cf_form_of(w1);
    words(d, 2 * pc, 2);
    bool eop = G_SQ_CF_WORD1__END_OF_PROGRAM(w1);
    bool barrier = G_SQ_CF_WORD1__BARRIER(w1);

    if (!name) {
        fprintf(d->out, " unknown CF_INST 0x%02x (word1 0x%08" PRIx32 ")\n", G_SQ_CF_WORD1__CF_INST(w1), w1);
        mark(d, EG_DISASM_UNKNOWN);
        *stop = eop;
        return;
    }
    fprintf(d->out, " %-16s", name);
    if (form == EG_CF_ALU) {
        unsigned inst = G_SQ_CF_ALU_WORD1__CF_INST(w1);
        if (inst == V_SQ_CF_ALU_INST__ALU_EXTENDED) {
            fprintf(d->out, " KCACHE2 bank %u addr %u mode %u, KCACHE3 bank %u addr %u mode %u",
                    G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK2(w0), G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR2(w1),
                    G_SQ_CF_ALU_WORD0_EXT__KCACHE_MODE2(w0), G_SQ_CF_ALU_WORD0_EXT__KCACHE_BANK3(w0),
                    G_SQ_CF_ALU_WORD1_EXT__KCACHE_ADDR3(w1), G_SQ_CF_ALU_WORD1_EXT__KCACHE_MODE3(w1));
        } else {
            size_t addr = G_SQ_CF_ALU_WORD0__ADDR(w0);
            unsigned count = G_SQ_CF_ALU_WORD1__COUNT(w1) + 1;
            fprintf(d->out, " @%zu %u slots", addr, count);
            unsigned mode[2] = { G_SQ_CF_ALU_WORD0__KCACHE_MODE0(w0), G_SQ_CF_ALU_WORD1__KCACHE_MODE1(w1) };
            unsigned bank[2] = { G_SQ_CF_ALU_WORD0__KCACHE_BANK0(w0), G_SQ_CF_ALU_WORD0__KCACHE_BANK1(w0) };
            unsigned kaddr[2] = { G_SQ_CF_ALU_WORD1__KCACHE_ADDR0(w1), G_SQ_CF_ALU_WORD1__KCACHE_ADDR1(w1) };
            for (int k = 0; k < 2; k++)
                if (mode[k] != V_SQ_KCACHE_MODE__NOP)
                    fprintf(d->out, " KC%d=CB%u[%u..] %s", k, bank[k], kaddr[k] * 16,
                            enum_name("SQ_KCACHE_MODE", mode[k]));
            if (G_SQ_CF_ALU_WORD1__ALT_CONST(w1))
                fprintf(d->out, " ALT_CONST");
            if (*ncl < MAX_CLAUSES)
                cl[(*ncl)++] = (struct clause_ref){ EG_CLAUSE_ALU, addr, count, (unsigned)pc, w0, w1 };
        }
        if (G_SQ_CF_ALU_WORD1__WHOLE_QUAD_MODE(w1))
            fprintf(d->out, " WQM");
        /* CF_ALU words have no END_OF_PROGRAM bit: bit 21 is part of COUNT. */
        eop = false;
    } else if (form == EG_CF_EXPORT) {
        unsigned inst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(w1);
        unsigned type = G_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(w0);
        unsigned base = G_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(w0);
        unsigned gpr = G_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(w0);
        unsigned burst = G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(w1);
        if (inst == V_SQ_CF_INST__EXPORT || inst == V_SQ_CF_INST__EXPORT_DONE) {
            const char *tname = enum_name("SQ_EXPORT_TYPE", type);
            if (type == V_SQ_EXPORT_TYPE__POS)
                fprintf(d->out, " POS%u", base - V_SQ_EXPORT_ARRAY_BASE__POS0);
            else if (type == V_SQ_EXPORT_TYPE__PARAM)
                fprintf(d->out, " PARAM%u", base);
            else if (type == V_SQ_EXPORT_TYPE__PIXEL && base == V_SQ_EXPORT_ARRAY_BASE__PIXEL_Z)
                fprintf(d->out, " PIXEL_Z");
            else
                fprintf(d->out, " %s%u", tname ? tname : "?", base);
            if (burst)
                fprintf(d->out, "..%u", base + burst);
            fprintf(d->out, ", R%u", gpr);
            if (burst)
                fprintf(d->out, "..R%u", gpr + burst);
            fprintf(d->out, ".%c%c%c%c", sel_char(G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(w1)),
                    sel_char(G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(w1)),
                    sel_char(G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(w1)),
                    sel_char(G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(w1)));
            if (G_SQ_CF_ALLOC_EXPORT_WORD0__RW_REL(w0))
                fprintf(d->out, " REL");
            if (G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0))
                fprintf(d->out, " ES:%u", G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0));
        } else {
            /* memory / stream exports: the BUF form of word 1 */
            fprintf(d->out, " R%u type %u base %u index R%u ES:%u size %u mask 0x%x burst %u",
                    gpr, type, base, G_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(w0),
                    G_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(w0), G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__ARRAY_SIZE(w1),
                    G_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(w1), burst + 1);
        }
        if (G_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__MARK(w1))
            fprintf(d->out, " MARK");
    } else {
        unsigned inst = G_SQ_CF_WORD1__CF_INST(w1);
        size_t addr = G_SQ_CF_WORD0__ADDR(w0);
        unsigned count = G_SQ_CF_WORD1__COUNT(w1);
        if (inst == V_SQ_CF_INST__TC || inst == V_SQ_CF_INST__VC || inst == V_SQ_CF_INST__TC_ACK ||
            inst == V_SQ_CF_INST__VC_ACK) {
            fprintf(d->out, " @%zu %u instructions", addr, count + 1);
            unsigned kind = (inst == V_SQ_CF_INST__TC || inst == V_SQ_CF_INST__TC_ACK) ? EG_CLAUSE_TEX : EG_CLAUSE_VTX;
            if (*ncl < MAX_CLAUSES)
                cl[(*ncl)++] = (struct clause_ref){ kind, addr, count + 1, (unsigned)pc, w0, w1 };
        } else if (inst == V_SQ_CF_INST__GDS) {
            fprintf(d->out, " @%zu %u instructions (GDS clause not decoded)", addr, count + 1);
        } else if (inst != V_SQ_CF_INST__NOP && inst != V_SQ_CF_INST__RETURN) {
            fprintf(d->out, " ADDR:%zu", addr);
            if (inst == V_SQ_CF_INST__CALL && d->ncalls < MAX_CALLS)
                d->calls[d->ncalls++] = addr;
            if (count)
                fprintf(d->out, " COUNT:%u", count);
        } else if (inst == V_SQ_CF_INST__NOP && w0) {
            fprintf(d->out, " (word0 0x%08" PRIx32 ")", w0);
        }
        if (G_SQ_CF_WORD1__POP_COUNT(w1))
            fprintf(d->out, " POP:%u", G_SQ_CF_WORD1__POP_COUNT(w1));
        if (G_SQ_CF_WORD1__COND(w1))
            fprintf(d->out, " COND:%s CF_CONST:%u", enum_name("SQ_CF_COND", G_SQ_CF_WORD1__COND(w1)),
                    G_SQ_CF_WORD1__CF_CONST(w1));
        if (G_SQ_CF_WORD1__WHOLE_QUAD_MODE(w1))
            fprintf(d->out, " WQM");
        if (G_SQ_CF_WORD1__VALID_PIXEL_MODE(w1))
            fprintf(d->out, " VPM");
        if (inst == V_SQ_CF_INST__RETURN)
            *stop = true;
    }
    if (eop)
        fprintf(d->out, " EOP");
    if (!barrier)
        fprintf(d->out, " NO_BARRIER");
    fputc('\n', d->out);
    if (eop)
        *stop = true;
}

/* ---------------------------------------------------------------- ALU */

static void print_src(struct dis *d, unsigned sel, unsigned chan, bool neg, bool abs, bool rel,
                      const uint32_t *lit, unsigned nlit)
{
    FILE *o = d->out;
    if (neg)
        fputc('-', o);
    if (abs)
        fputc('|', o);
    if (sel < V_SQ_ALU_SRC__GPR_COUNT) {
        fprintf(o, "R%u", sel);
    } else if (sel < V_SQ_ALU_SRC__KCACHE1_BASE) {
        fprintf(o, "KC0[%u]", sel - V_SQ_ALU_SRC__KCACHE0_BASE);
    } else if (sel < V_SQ_ALU_SRC__KCACHE1_BASE + V_SQ_ALU_SRC__KCACHE_SIZE) {
        fprintf(o, "KC1[%u]", sel - V_SQ_ALU_SRC__KCACHE1_BASE);
    } else if (sel >= V_SQ_ALU_SRC__KCACHE2_BASE && sel < V_SQ_ALU_SRC__KCACHE2_BASE + V_SQ_ALU_SRC__KCACHE_SIZE) {
        fprintf(o, "KC2[%u]", sel - V_SQ_ALU_SRC__KCACHE2_BASE);
    } else if (sel >= V_SQ_ALU_SRC__KCACHE3_BASE && sel < V_SQ_ALU_SRC__KCACHE3_BASE + V_SQ_ALU_SRC__KCACHE_SIZE) {
        fprintf(o, "KC3[%u]", sel - V_SQ_ALU_SRC__KCACHE3_BASE);
    } else if (sel >= V_SQ_ALU_SRC__PARAM_BASE && sel < V_SQ_ALU_SRC__PARAM_BASE + V_SQ_ALU_SRC__PARAM_COUNT) {
        fprintf(o, "PARAM%u", sel - V_SQ_ALU_SRC__PARAM_BASE);
    } else if (sel == V_SQ_ALU_SRC__LITERAL) {
        if (chan < nlit) {
            union { uint32_t u; float f; } c = { .u = lit[chan] };
            fprintf(o, "0x%08" PRIx32 "(%g)", c.u, (double)c.f);
        } else {
            fprintf(o, "LITERAL.%c(missing)", chan_name[chan]);
        }
        if (abs)
            fputc('|', o);
        return;
    } else if (sel == V_SQ_ALU_SRC__PS) {
        fprintf(o, "PS");
        if (abs)
            fputc('|', o);
        return;
    } else {
        const char *n = enum_name("SQ_ALU_SRC", sel);
        if (n) {
            fprintf(o, "%s", n);
        } else {
            fprintf(o, "unknown_src_%u", sel);
            mark(d, EG_DISASM_UNKNOWN);
        }
        /* constants have no channel; PV does */
        if (sel != V_SQ_ALU_SRC__PV) {
            if (abs)
                fputc('|', o);
            return;
        }
    }
    if (rel)
        fprintf(o, "[AR]");
    fprintf(o, ".%c", chan_name[chan]);
    if (abs)
        fputc('|', o);
}

/* Slot of each instruction of a group: vector slot = destination channel
 * unless the op is trans-only or that slot is taken, then t (Evergreen ISA,
 * "ALU instruction group" ordering; Mesa's decoder does the same). */
static int group_slot(bool *used, const struct eg_alu_op_info *info, unsigned chan)
{
    if (info && !(info->slots & EG_SLOT_VEC)) {
        if (used[EG_SLOT_T])
            return -1;
        return used[EG_SLOT_T] = true, EG_SLOT_T;
    }
    if (!used[chan])
        return used[chan] = true, (int)chan;
    if (info && !(info->slots & EG_SLOT_TRANS))
        return -1;
    if (used[EG_SLOT_T])
        return -1;
    return used[EG_SLOT_T] = true, EG_SLOT_T;
}

static void print_alu_clause(struct dis *d, const struct clause_ref *c)
{
    size_t start = 2 * c->addr, end = start + 2 * (size_t)c->count;
    fprintf(d->out, "     ALU clause @%zu, %u slots (from CF %u)\n", c->addr, c->count, c->cf_pc);
    if (end > d->ndw) {
        fprintf(d->out, "error: ALU clause @%zu of %u slots runs past the end of the shader (%zu dwords)\n",
                c->addr, c->count, d->ndw);
        mark(d, EG_DISASM_MALFORMED);
        return;
    }
    size_t i = start;
    unsigned group = 0;
    while (i < end) {
        /* Find the group: instructions up to LAST, then its literals. */
        size_t g0 = i, g1 = i;
        unsigned ninst = 0, nlit = 0;
        while (g1 < end) {
            uint32_t w0 = d->dw[g1], w1 = d->dw[g1 + 1];
            ninst++;
            /* every source field counts here: an unknown opcode's source count is unknown */
            unsigned used = eg_alu_literals_read(w0, w1, 3);
            if (used > nlit)
                nlit = used;
            g1 += 2;
            if (G_SQ_ALU_WORD0__LAST(w0))
                break;
        }
        bool has_last = G_SQ_ALU_WORD0__LAST(d->dw[g1 - 2]);
        unsigned nlit_dw = (nlit + 1) & ~1u;
        const uint32_t *lit = d->dw + g1;
        if (g1 + nlit_dw > end) {
            nlit = end > g1 ? (unsigned)(end - g1) : 0;
            nlit_dw = nlit;
            fprintf(d->out, "error: ALU group %u's literals run past the end of its clause\n", group);
            mark(d, EG_DISASM_MALFORMED);
        }
        if (!has_last) {
            fprintf(d->out, "error: ALU group %u has no LAST instruction before the clause ends\n", group);
            mark(d, EG_DISASM_MALFORMED);
        }
        if (ninst > EG_NSLOTS) {
            fprintf(d->out, "error: ALU group %u has %u instructions (at most 5)\n", group, ninst);
            mark(d, EG_DISASM_MALFORMED);
        }
        bool used[EG_NSLOTS] = { false };
        for (size_t k = g0; k < g1; k += 2) {
            uint32_t w0 = d->dw[k], w1 = d->dw[k + 1];
            bool op3 = eg_alu_is_op3(w1);
            unsigned op = eg_alu_opcode(w1);
            const char *name = eg_alu_op_name(op3, op);
            const struct eg_alu_op_info *info = eg_alu_op_info(op3, op);
            unsigned dchan = G_SQ_ALU_WORD1_OP2__DST_CHAN(w1);
            int slot = group_slot(used, info, dchan);
            words(d, k, 2);
            fprintf(d->out, " %2u %c: ", group, slot < 0 ? '?' : "xyzwt"[slot]);
            if (slot < 0) {
                mark(d, EG_DISASM_MALFORMED);
            }
            if (!name || !info) {
                fprintf(d->out, "unknown %s 0x%02x", op3 ? "OP3" : "OP2", op);
                mark(d, EG_DISASM_UNKNOWN);
            } else {
                fprintf(d->out, "%s", name);
            }
            if (!op3 && G_SQ_ALU_WORD1_OP2__OMOD(w1))
                fprintf(d->out, "*%s", enum_name("SQ_ALU_OMOD", G_SQ_ALU_WORD1_OP2__OMOD(w1)));
            if (G_SQ_ALU_WORD1_OP2__CLAMP(w1))
                fprintf(d->out, "_sat");
            fprintf(d->out, " ");
            bool write = op3 || G_SQ_ALU_WORD1_OP2__WRITE_MASK(w1);
            if (write)
                fprintf(d->out, "R%u%s.%c", G_SQ_ALU_WORD1_OP2__DST_GPR(w1),
                        G_SQ_ALU_WORD1_OP2__DST_REL(w1) ? "[AR]" : "", chan_name[dchan]);
            else
                fprintf(d->out, "__.%c", chan_name[dchan]);
            unsigned nsrc = info ? info->nsrc : (op3 ? 3 : 2);
            for (unsigned s = 0; s < nsrc; s++) {
                fprintf(d->out, ", ");
                if (s == 0)
                    print_src(d, G_SQ_ALU_WORD0__SRC0_SEL(w0), G_SQ_ALU_WORD0__SRC0_CHAN(w0),
                              G_SQ_ALU_WORD0__SRC0_NEG(w0), !op3 && G_SQ_ALU_WORD1_OP2__SRC0_ABS(w1),
                              G_SQ_ALU_WORD0__SRC0_REL(w0), lit, nlit);
                else if (s == 1)
                    print_src(d, G_SQ_ALU_WORD0__SRC1_SEL(w0), G_SQ_ALU_WORD0__SRC1_CHAN(w0),
                              G_SQ_ALU_WORD0__SRC1_NEG(w0), !op3 && G_SQ_ALU_WORD1_OP2__SRC1_ABS(w1),
                              G_SQ_ALU_WORD0__SRC1_REL(w0), lit, nlit);
                else
                    print_src(d, G_SQ_ALU_WORD1_OP3__SRC2_SEL(w1), G_SQ_ALU_WORD1_OP3__SRC2_CHAN(w1),
                              G_SQ_ALU_WORD1_OP3__SRC2_NEG(w1), false, G_SQ_ALU_WORD1_OP3__SRC2_REL(w1), lit,
                              nlit);
            }
            unsigned bs = G_SQ_ALU_WORD1_OP2__BANK_SWIZZLE(w1);
            if (bs) {
                const char *bn = enum_name(slot == EG_SLOT_T ? "SQ_ALU_SCL_BANK_SWIZZLE" : "SQ_ALU_VEC_BANK_SWIZZLE", bs);
                fprintf(d->out, "  %s", bn ? bn : "BS?");
            }
            if (!op3 && G_SQ_ALU_WORD1_OP2__UPDATE_EXECUTE_MASK(w1))
                fprintf(d->out, " UPDATE_EXEC_MASK");
            if (!op3 && G_SQ_ALU_WORD1_OP2__UPDATE_PRED(w1))
                fprintf(d->out, " UPDATE_PRED");
            if (G_SQ_ALU_WORD0__PRED_SEL(w0))
                fprintf(d->out, " PRED_SEL_%s", or_default(enum_name("SQ_ALU_PRED_SEL", G_SQ_ALU_WORD0__PRED_SEL(w0)), "?"));
            if (slot < 0)
                fprintf(d->out, "  error: no free slot for this instruction");
            fputc('\n', d->out);
        }
        for (unsigned k = 0; k < nlit_dw; k += 2) {
            words(d, g1 + k, k + 1 < nlit_dw ? 2 : 1);
            fprintf(d->out, "    literal");
            for (unsigned m = k; m < k + 2 && m < nlit_dw; m++) {
                union { uint32_t u; float f; } cv = { .u = lit[m] };
                fprintf(d->out, " %c=0x%08" PRIx32 "(%g)", chan_name[m], cv.u, (double)cv.f);
            }
            fputc('\n', d->out);
        }
        i = g1 + nlit_dw;
        group++;
    }
}

/* ---------------------------------------------------------------- fetch */

static void print_fmt(struct dis *d, uint32_t w1)
{
    if (G_SQ_VTX_WORD1_GPR__USE_CONST_FIELDS(w1)) {
        fprintf(d->out, " USE_CONST_FIELDS");
        return;
    }
    unsigned fmt = G_SQ_VTX_WORD1_GPR__DATA_FORMAT(w1);
    const char *fn = enum_name("SQ_DATA_FORMAT", fmt);
    if (fn) {
        fprintf(d->out, " %s", fn);
    } else {
        fprintf(d->out, " unknown_format_%u", fmt);
        mark(d, EG_DISASM_UNKNOWN);
    }
    fprintf(d->out, " %s %s", or_default(enum_name("SQ_NUM_FORMAT", G_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(w1)), "NUM_FORMAT_3"),
            or_default(enum_name("SQ_FORMAT_COMP", G_SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL(w1)), "?"));
    if (G_SQ_VTX_WORD1_GPR__SRF_MODE_ALL(w1))
        fprintf(d->out, " SRF_NO_ZERO");
}

static void print_vtx(struct dis *d, size_t at)
{
    uint32_t w0 = d->dw[at], w1 = d->dw[at + 1], w2 = d->dw[at + 2];
    unsigned inst = G_SQ_VTX_WORD0__VTX_INST(w0);
    const char *name = enum_name("SQ_VTX_INST", inst);
    words(d, at, 4);
    if (inst == V_SQ_VTX_INST__MEM) {
        /* a memory read (SQ_MEM_RD_WORD0..2) */
        const char *op = enum_name("SQ_MEM_OP", G_SQ_MEM_RD_WORD0__MEM_OP(w0));
        fprintf(d->out, " %-9s R%u.%c%c%c%c, base %u", op ? op : "MEM_OP?", G_SQ_MEM_RD_WORD1__DST_GPR(w1),
                sel_char(G_SQ_MEM_RD_WORD1__DST_SEL_X(w1)), sel_char(G_SQ_MEM_RD_WORD1__DST_SEL_Y(w1)),
                sel_char(G_SQ_MEM_RD_WORD1__DST_SEL_Z(w1)), sel_char(G_SQ_MEM_RD_WORD1__DST_SEL_W(w1)),
                G_SQ_MEM_RD_WORD2__ARRAY_BASE(w2));
        if (G_SQ_MEM_RD_WORD0__INDEXED(w0))
            fprintf(d->out, " + R%u.%c", G_SQ_MEM_RD_WORD0__SRC_GPR(w0), chan_name[G_SQ_MEM_RD_WORD0__SRC_SEL_X(w0)]);
        fprintf(d->out, " size %u ES:%u burst %u\n", G_SQ_MEM_RD_WORD2__ARRAY_SIZE(w2) + 1,
                G_SQ_MEM_RD_WORD0__ELEM_SIZE(w0), G_SQ_MEM_RD_WORD0__BURST_COUNT(w0) + 1);
        if (!op)
            mark(d, EG_DISASM_UNKNOWN);
        return;
    }
    if (!name || (inst != V_SQ_VTX_INST__FETCH && inst != V_SQ_VTX_INST__SEMANTIC)) {
        fprintf(d->out, " unknown VTX_INST %u\n", inst);
        mark(d, EG_DISASM_UNKNOWN);
        return;
    }
    fprintf(d->out, " %-9s ", name);
    if (inst == V_SQ_VTX_INST__SEMANTIC)
        fprintf(d->out, "SEM[0x%02x]", G_SQ_VTX_WORD1_SEM__SEMANTIC_ID(w1));
    else
        fprintf(d->out, "R%u%s", G_SQ_VTX_WORD1_GPR__DST_GPR(w1), G_SQ_VTX_WORD1_GPR__DST_REL(w1) ? "[AR]" : "");
    fprintf(d->out, ".%c%c%c%c, R%u%s.%c, RID:%u", sel_char(G_SQ_VTX_WORD1_GPR__DST_SEL_X(w1)),
            sel_char(G_SQ_VTX_WORD1_GPR__DST_SEL_Y(w1)), sel_char(G_SQ_VTX_WORD1_GPR__DST_SEL_Z(w1)),
            sel_char(G_SQ_VTX_WORD1_GPR__DST_SEL_W(w1)), G_SQ_VTX_WORD0__SRC_GPR(w0),
            G_SQ_VTX_WORD0__SRC_REL(w0) ? "[AR]" : "", chan_name[G_SQ_VTX_WORD0__SRC_SEL_X(w0)],
            G_SQ_VTX_WORD0__BUFFER_ID(w0));
    print_fmt(d, w1);
    unsigned ft = G_SQ_VTX_WORD0__FETCH_TYPE(w0);
    if (ft)
        fprintf(d->out, " %s", or_default(enum_name("SQ_VTX_FETCH_TYPE", ft), "FETCH_TYPE_3"));
    fprintf(d->out, " OFFSET:%u", G_SQ_VTX_WORD2__OFFSET(w2));
    if (G_SQ_VTX_WORD2__ENDIAN_SWAP(w2))
        fprintf(d->out, " ENDIAN:%s", enum_name("SQ_ENDIAN", G_SQ_VTX_WORD2__ENDIAN_SWAP(w2)));
    if (G_SQ_VTX_WORD2__MEGA_FETCH(w2) || G_SQ_VTX_WORD0__MEGA_FETCH_COUNT(w0))
        fprintf(d->out, " MFC:%u%s", G_SQ_VTX_WORD0__MEGA_FETCH_COUNT(w0),
                G_SQ_VTX_WORD2__MEGA_FETCH(w2) ? " MEGA" : "");
    if (G_SQ_VTX_WORD2__CONST_BUF_NO_STRIDE(w2))
        fprintf(d->out, " NO_STRIDE");
    if (G_SQ_VTX_WORD0__FETCH_WHOLE_QUAD(w0))
        fprintf(d->out, " WHOLE_QUAD");
    fputc('\n', d->out);
}

static void print_tex(struct dis *d, size_t at)
{
    uint32_t w0 = d->dw[at], w1 = d->dw[at + 1], w2 = d->dw[at + 2];
    unsigned inst = G_SQ_TEX_WORD0__TEX_INST(w0);
    const char *name = enum_name("SQ_TEX_INST", inst);
    words(d, at, 4);
    if (!name) {
        fprintf(d->out, " unknown TEX_INST %u\n", inst);
        mark(d, EG_DISASM_UNKNOWN);
        return;
    }
    fprintf(d->out, " %-9s R%u.%c%c%c%c, R%u.%c%c%c%c, RID:%u, SID:%u", name, G_SQ_TEX_WORD1__DST_GPR(w1),
            sel_char(G_SQ_TEX_WORD1__DST_SEL_X(w1)), sel_char(G_SQ_TEX_WORD1__DST_SEL_Y(w1)),
            sel_char(G_SQ_TEX_WORD1__DST_SEL_Z(w1)), sel_char(G_SQ_TEX_WORD1__DST_SEL_W(w1)),
            G_SQ_TEX_WORD0__SRC_GPR(w0), sel_char(G_SQ_TEX_WORD2__SRC_SEL_X(w2)),
            sel_char(G_SQ_TEX_WORD2__SRC_SEL_Y(w2)), sel_char(G_SQ_TEX_WORD2__SRC_SEL_Z(w2)),
            sel_char(G_SQ_TEX_WORD2__SRC_SEL_W(w2)), G_SQ_TEX_WORD0__RESOURCE_ID(w0),
            G_SQ_TEX_WORD2__SAMPLER_ID(w2));
    fprintf(d->out, " CT:%c%c%c%c", G_SQ_TEX_WORD1__COORD_TYPE_X(w1) ? 'N' : 'U',
            G_SQ_TEX_WORD1__COORD_TYPE_Y(w1) ? 'N' : 'U', G_SQ_TEX_WORD1__COORD_TYPE_Z(w1) ? 'N' : 'U',
            G_SQ_TEX_WORD1__COORD_TYPE_W(w1) ? 'N' : 'U');
    if (G_SQ_TEX_WORD1__LOD_BIAS(w1))
        fprintf(d->out, " LOD_BIAS:%d", G_SQ_TEX_WORD1__LOD_BIAS(w1));
    if (G_SQ_TEX_WORD0__INST_MOD(w0))   /* GATHER4's component, LD's FMask read */
        fprintf(d->out, " MODE:%u", G_SQ_TEX_WORD0__INST_MOD(w0));
    if (G_SQ_TEX_WORD2__OFFSET_X(w2) || G_SQ_TEX_WORD2__OFFSET_Y(w2) || G_SQ_TEX_WORD2__OFFSET_Z(w2))
        fprintf(d->out, " OFFSET:%d,%d,%d", G_SQ_TEX_WORD2__OFFSET_X(w2), G_SQ_TEX_WORD2__OFFSET_Y(w2),
                G_SQ_TEX_WORD2__OFFSET_Z(w2));
    if (G_SQ_TEX_WORD0__FETCH_WHOLE_QUAD(w0))
        fprintf(d->out, " WHOLE_QUAD");
    fputc('\n', d->out);
}

static void print_fetch_clause(struct dis *d, const struct clause_ref *c)
{
    bool tex = c->kind == EG_CLAUSE_TEX;
    size_t start = 2 * c->addr, end = start + 4 * (size_t)c->count;
    fprintf(d->out, "     %s clause @%zu, %u instructions (from CF %u)\n", tex ? "TEX" : "VTX", c->addr,
            c->count, c->cf_pc);
    if (c->addr & 1) {
        fprintf(d->out, "error: fetch clause @%zu is not 128-bit aligned\n", c->addr);
        mark(d, EG_DISASM_MALFORMED);
        return;
    }
    if (end > d->ndw) {
        fprintf(d->out, "error: %s clause @%zu of %u instructions runs past the end of the shader (%zu dwords)\n",
                tex ? "TEX" : "VTX", c->addr, c->count, d->ndw);
        mark(d, EG_DISASM_MALFORMED);
        return;
    }
    for (size_t at = start; at < end; at += 4) {
        if (tex)
            print_tex(d, at);
        else
            print_vtx(d, at);
    }
}

int eg_shader_disasm(const uint32_t *dw, size_t ndw, FILE *out, const struct eg_disasm_opts *opts)
{
    struct dis d = { .dw = dw, .ndw = ndw, .out = out, .words = !(opts && opts->no_words),
                     .status = EG_DISASM_OK };
    struct clause_ref cl[MAX_CLAUSES];
    unsigned ncl = 0;

    fprintf(out, "; Evergreen shader, %zu dwords\n", ndw);
    size_t pc = 0;
    bool stop = false;
    while (!stop) {
        if (2 * pc + 2 > ndw) {
            fprintf(out, "error: the CF program runs past the end of the shader (%zu dwords) "
                         "without END_OF_PROGRAM or RETURN\n", ndw);
            mark(&d, EG_DISASM_MALFORMED);
            break;
        }
        for (unsigned i = 0; i < ncl; i++)
            if (cl[i].addr == pc) {
                fprintf(out, "error: the CF program at %zu runs into a clause without END_OF_PROGRAM\n", pc);
                mark(&d, EG_DISASM_MALFORMED);
                stop = true;
            }
        if (stop)
            break;
        print_cf(&d, pc, cl, &ncl, &stop);
        pc++;
        /* then each subroutine a CALL names that is not listed yet, from its
         * first instruction to its RETURN */
        size_t sub = SIZE_MAX;
        for (unsigned i = 0; stop && i < d.ncalls; i++)
            if (d.calls[i] >= pc && d.calls[i] < sub)
                sub = d.calls[i];
        if (sub != SIZE_MAX) {
            fprintf(out, "; subroutine at %zu\n", sub);
            pc = sub;
            stop = false;
        }
    }

    /* Clauses, each once, in address order. */
    bool done[MAX_CLAUSES] = { false };
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < ncl; i++)
            if (!done[i] && (best < 0 || cl[i].addr < cl[best].addr))
                best = (int)i;
        if (best < 0)
            break;
        for (unsigned i = 0; i < ncl; i++)
            if (cl[i].addr == cl[best].addr && cl[i].kind == cl[best].kind)
                done[i] = true;
        if (cl[best].kind == EG_CLAUSE_ALU)
            print_alu_clause(&d, &cl[best]);
        else
            print_fetch_clause(&d, &cl[best]);
    }
    if (ncl == MAX_CLAUSES)
        fprintf(out, "; (more than %d clauses: the rest are not shown)\n", MAX_CLAUSES);
    return d.status;
}
