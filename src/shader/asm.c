/* Evergreen shader encoder: CF instructions, ALU / VTX / TEX clauses, laid out
 * into microcode words.  Word layouts and opcodes are the register database's
 * (regs/isa.regs); the S_* setters abort on a field overflow, so every value
 * coming from a caller is range-checked here first and reported in a->err. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "isa.h"

static void fail(struct eg_asm *a, const char *fmt, ...)
{
    if (a->err[0])
        return;     /* keep the first error */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err, sizeof a->err, fmt, ap);
    va_end(ap);
}

/* Does v fit a field of `width` bits?  Reports and returns false if not. */
static bool fits(struct eg_asm *a, const char *what, uint64_t v, unsigned width)
{
    if (v >> width) {
        fail(a, "%s %llu does not fit %u bits", what, (unsigned long long)v, width);
        return false;
    }
    return true;
}

void eg_asm_init(struct eg_asm *a)
{
    memset(a, 0, sizeof *a);
    a->open = -1;
}

static int add_cf(struct eg_asm *a, uint32_t w0, uint32_t w1)
{
    if (a->ncf >= EG_ASM_MAX_CF) {
        fail(a, "more than %d CF instructions", EG_ASM_MAX_CF);
        return -1;
    }
    a->cf[2 * a->ncf] = w0;
    a->cf[2 * a->ncf + 1] = w1;
    return (int)a->ncf++;
}

static void close_group_check(struct eg_asm *a)
{
    if (a->group_open)
        fail(a, "ALU group without a LAST instruction");
}

static void close_clause(struct eg_asm *a)
{
    if (a->open >= 0 && a->clause[a->open].kind == EG_CLAUSE_ALU)
        close_group_check(a);
    a->open = -1;
}

void eg_asm_cf(struct eg_asm *a, unsigned cf_inst)
{
    close_clause(a);
    if (!fits(a, "CF_INST", cf_inst, SQ_CF_WORD1__CF_INST__WIDTH))
        return;
    add_cf(a, 0, S_SQ_CF_WORD1__CF_INST(cf_inst) | S_SQ_CF_WORD1__BARRIER(1));
}

void eg_asm_flow(struct eg_asm *a, unsigned cf_inst, unsigned addr, unsigned pop_count, unsigned cond)
{
    close_clause(a);
    if (!fits(a, "CF_INST", cf_inst, SQ_CF_WORD1__CF_INST__WIDTH) || !fits(a, "ADDR", addr, SQ_CF_WORD0__ADDR__WIDTH) ||
        !fits(a, "POP_COUNT", pop_count, SQ_CF_WORD1__POP_COUNT__WIDTH) ||
        !fits(a, "COND", cond, SQ_CF_WORD1__COND__WIDTH))
        return;
    add_cf(a, S_SQ_CF_WORD0__ADDR(addr), S_SQ_CF_WORD1__CF_INST(cf_inst) | S_SQ_CF_WORD1__POP_COUNT(pop_count) |
                                             S_SQ_CF_WORD1__COND(cond) | S_SQ_CF_WORD1__BARRIER(1));
}

unsigned eg_asm_pc(const struct eg_asm *a)
{
    return a->ncf;
}

void eg_asm_nop(struct eg_asm *a)
{
    eg_asm_cf(a, V_SQ_CF_INST__NOP);
}

/* COUNT=1 as in the seed author's vertex shader that ran on the card (the
 * call-nesting increment); Mesa leaves it 0. */
void eg_asm_call_fs(struct eg_asm *a)
{
    close_clause(a);
    add_cf(a, 0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__CALL_FS) | S_SQ_CF_WORD1__COUNT(1) |
                 S_SQ_CF_WORD1__BARRIER(1));
}

void eg_asm_return(struct eg_asm *a)
{
    eg_asm_cf(a, V_SQ_CF_INST__RETURN);
}

void eg_asm_export(struct eg_asm *a, const struct eg_export *e)
{
    close_clause(a);
    bool ok = fits(a, "export type", e->type, SQ_CF_ALLOC_EXPORT_WORD0__TYPE__WIDTH) &&
              fits(a, "export array_base", e->array_base, SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE__WIDTH) &&
              fits(a, "export gpr", e->gpr, SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR__WIDTH) &&
              fits(a, "export burst_count", e->burst_count, SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT__WIDTH);
    for (int c = 0; c < 4 && ok; c++)
        ok = fits(a, "export sel", e->sel[c], SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X__WIDTH);
    if (!ok)
        return;
    uint32_t w0 = S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(e->array_base) |
                  S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(e->type) |
                  S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(e->gpr);
    uint32_t w1 = S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(e->sel[0]) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(e->sel[1]) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(e->sel[2]) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(e->sel[3]) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BURST_COUNT(e->burst_count) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(e->done ? V_SQ_CF_INST__EXPORT_DONE
                                                                   : V_SQ_CF_INST__EXPORT) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BARRIER(1);
    add_cf(a, w0, w1);
}

void eg_asm_mem(struct eg_asm *a, const struct eg_mem_export *e)
{
    close_clause(a);
    if (!fits(a, "mem CF_INST", e->cf_inst, SQ_CF_ALLOC_EXPORT_WORD1_BUF__CF_INST__WIDTH) ||
        !fits(a, "mem type", e->type, SQ_CF_ALLOC_EXPORT_WORD0__TYPE__WIDTH) ||
        !fits(a, "mem array_base", e->array_base, SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE__WIDTH) ||
        !fits(a, "mem gpr", e->gpr, SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR__WIDTH) ||
        !fits(a, "mem index_gpr", e->index_gpr, SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR__WIDTH) ||
        !fits(a, "mem elem_size", e->elem_size, SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE__WIDTH) ||
        !fits(a, "mem array_size", e->array_size, SQ_CF_ALLOC_EXPORT_WORD1_BUF__ARRAY_SIZE__WIDTH) ||
        !fits(a, "mem comp_mask", e->comp_mask, SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK__WIDTH) ||
        !fits(a, "mem burst_count", e->burst_count, SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT__WIDTH))
        return;
    uint32_t w0 = S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(e->array_base) | S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(e->type) |
                  S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(e->gpr) | S_SQ_CF_ALLOC_EXPORT_WORD0__INDEX_GPR(e->index_gpr) |
                  S_SQ_CF_ALLOC_EXPORT_WORD0__ELEM_SIZE(e->elem_size);
    uint32_t w1 = S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__ARRAY_SIZE(e->array_size) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__COMP_MASK(e->comp_mask) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__BURST_COUNT(e->burst_count) |
                  S_SQ_CF_ALLOC_EXPORT_WORD1_BUF__CF_INST(e->cf_inst) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BARRIER(1);
    add_cf(a, w0, w1);
}

void eg_asm_emit(struct eg_asm *a, unsigned cf_inst, unsigned stream)
{
    close_clause(a);
    if (!fits(a, "CF_INST", cf_inst, SQ_CF_WORD1__CF_INST__WIDTH) || !fits(a, "stream", stream, 2))
        return;
    add_cf(a, 0, S_SQ_CF_WORD1__CF_INST(cf_inst) | S_SQ_CF_WORD1__COUNT(stream) | S_SQ_CF_WORD1__BARRIER(1));
}

static void open_clause(struct eg_asm *a, enum eg_clause_kind kind, uint32_t w0, uint32_t w1)
{
    close_clause(a);
    if (a->nclause >= EG_ASM_MAX_CLAUSES) {
        fail(a, "more than %d clauses", EG_ASM_MAX_CLAUSES);
        return;
    }
    int cf = add_cf(a, w0, w1);
    if (cf < 0)
        return;
    a->clause[a->nclause].kind = kind;
    a->clause[a->nclause].cf = (unsigned)cf;
    a->clause[a->nclause].start = a->nbody;
    a->clause[a->nclause].ndw = 0;
    a->open = (int)a->nclause++;
}

void eg_asm_alu_clause(struct eg_asm *a, unsigned cf_alu_inst, const struct eg_kcache kc[2])
{
    static const struct eg_kcache none[2];
    if (!kc)
        kc = none;
    bool ok = fits(a, "CF_ALU inst", cf_alu_inst, SQ_CF_ALU_WORD1__CF_INST__WIDTH);
    for (int i = 0; i < 2 && ok; i++)
        ok = fits(a, "kcache bank", kc[i].bank, SQ_CF_ALU_WORD0__KCACHE_BANK0__WIDTH) &&
             fits(a, "kcache addr", kc[i].addr, SQ_CF_ALU_WORD1__KCACHE_ADDR0__WIDTH) &&
             fits(a, "kcache mode", kc[i].mode, SQ_CF_ALU_WORD0__KCACHE_MODE0__WIDTH);
    if (!ok)
        return;
    uint32_t w0 = S_SQ_CF_ALU_WORD0__KCACHE_BANK0(kc[0].bank) | S_SQ_CF_ALU_WORD0__KCACHE_BANK1(kc[1].bank) |
                  S_SQ_CF_ALU_WORD0__KCACHE_MODE0(kc[0].mode);
    uint32_t w1 = S_SQ_CF_ALU_WORD1__KCACHE_MODE1(kc[1].mode) | S_SQ_CF_ALU_WORD1__KCACHE_ADDR0(kc[0].addr) |
                  S_SQ_CF_ALU_WORD1__KCACHE_ADDR1(kc[1].addr) | S_SQ_CF_ALU_WORD1__CF_INST(cf_alu_inst) |
                  S_SQ_CF_ALU_WORD1__BARRIER(1);
    open_clause(a, EG_CLAUSE_ALU, w0, w1);
    a->group_open = false;
}

void eg_asm_vtx_clause(struct eg_asm *a)
{
    open_clause(a, EG_CLAUSE_VTX, 0,
                S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__VC) | S_SQ_CF_WORD1__BARRIER(1));
}

void eg_asm_tex_clause(struct eg_asm *a)
{
    open_clause(a, EG_CLAUSE_TEX, 0,
                S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__TC) | S_SQ_CF_WORD1__BARRIER(1));
}

static bool body_room(struct eg_asm *a, unsigned ndw)
{
    if (a->nbody + ndw > EG_ASM_MAX_DW) {
        fail(a, "shader longer than %d dwords", EG_ASM_MAX_DW);
        return false;
    }
    return true;
}

static bool in_clause(struct eg_asm *a, enum eg_clause_kind kind, const char *what)
{
    if (a->open < 0 || a->clause[a->open].kind != kind) {
        fail(a, "%s outside its clause", what);
        return false;
    }
    return true;
}

struct eg_alu_src eg_src_lit_u(uint32_t v)
{
    return (struct eg_alu_src){ .sel = V_SQ_ALU_SRC__LITERAL, .value = v };
}

struct eg_alu_src eg_src_lit_f(float v)
{
    union { float f; uint32_t u; } c = { .f = v };
    return eg_src_lit_u(c.u);
}

struct eg_alu_src eg_src_special(unsigned sel, unsigned chan)
{
    return (struct eg_alu_src){ .sel = (uint16_t)sel, .chan = (uint8_t)chan };
}

/* The literal channel holding v in the open group, adding it if new. */
static int literal_chan(struct eg_asm *a, uint32_t v)
{
    for (unsigned i = 0; i < a->nlit; i++)
        if (a->lit[i] == v)
            return (int)i;
    if (a->nlit >= 4) {
        fail(a, "more than 4 literals in one ALU group");
        return -1;
    }
    a->lit[a->nlit] = v;
    return (int)a->nlit++;
}

static bool check_src(struct eg_asm *a, const struct eg_alu_src *s)
{
    return fits(a, "ALU src sel", s->sel, SQ_ALU_WORD0__SRC0_SEL__WIDTH) &&
           fits(a, "ALU src chan", s->chan, SQ_ALU_WORD0__SRC0_CHAN__WIDTH);
}

void eg_asm_alu(struct eg_asm *a, const struct eg_alu *op)
{
    if (!in_clause(a, EG_CLAUSE_ALU, "ALU instruction") || !body_room(a, 2))
        return;
    const struct eg_alu_op_info *info = eg_alu_op_info(op->op3, op->op);
    if (!info) {
        fail(a, "unknown ALU %s opcode %u", op->op3 ? "OP3" : "OP2", op->op);
        return;
    }
    if (!a->group_open) {
        a->group_open = true;
        a->nlit = 0;
        a->group_first = a->nbody;
    }
    struct eg_alu_src src[3];
    for (unsigned i = 0; i < 3; i++) {
        src[i] = op->src[i];
        if (i >= info->nsrc) {
            src[i] = (struct eg_alu_src){ 0 };
            continue;
        }
        if (src[i].sel == V_SQ_ALU_SRC__LITERAL) {
            int c = literal_chan(a, src[i].value);
            if (c < 0)
                return;
            src[i].chan = (uint8_t)c;
        }
        if (!check_src(a, &src[i]))
            return;
    }
    if (!(fits(a, "ALU dst gpr", op->dst.gpr, SQ_ALU_WORD1_OP2__DST_GPR__WIDTH) &&
          fits(a, "ALU dst chan", op->dst.chan, SQ_ALU_WORD1_OP2__DST_CHAN__WIDTH) &&
          fits(a, "ALU omod", op->dst.omod, SQ_ALU_WORD1_OP2__OMOD__WIDTH) &&
          fits(a, "ALU bank swizzle", op->bank_swizzle, SQ_ALU_WORD1_OP2__BANK_SWIZZLE__WIDTH) &&
          fits(a, "ALU index mode", op->index_mode, SQ_ALU_WORD0__INDEX_MODE__WIDTH) &&
          fits(a, "ALU pred sel", op->pred_sel, SQ_ALU_WORD0__PRED_SEL__WIDTH)))
        return;
    if (op->op3 && (src[0].abs || src[1].abs || op->dst.omod)) {
        fail(a, "OP3 instructions have no ABS or OMOD");
        return;
    }

    uint32_t w0 = S_SQ_ALU_WORD0__SRC0_SEL(src[0].sel) | S_SQ_ALU_WORD0__SRC0_REL(src[0].rel) |
                  S_SQ_ALU_WORD0__SRC0_CHAN(src[0].chan) | S_SQ_ALU_WORD0__SRC0_NEG(src[0].neg) |
                  S_SQ_ALU_WORD0__SRC1_SEL(src[1].sel) | S_SQ_ALU_WORD0__SRC1_REL(src[1].rel) |
                  S_SQ_ALU_WORD0__SRC1_CHAN(src[1].chan) | S_SQ_ALU_WORD0__SRC1_NEG(src[1].neg) |
                  S_SQ_ALU_WORD0__INDEX_MODE(op->index_mode) | S_SQ_ALU_WORD0__PRED_SEL(op->pred_sel) |
                  S_SQ_ALU_WORD0__LAST(op->last);
    uint32_t w1;
    if (op->op3) {
        w1 = S_SQ_ALU_WORD1_OP3__SRC2_SEL(src[2].sel) | S_SQ_ALU_WORD1_OP3__SRC2_REL(src[2].rel) |
             S_SQ_ALU_WORD1_OP3__SRC2_CHAN(src[2].chan) | S_SQ_ALU_WORD1_OP3__SRC2_NEG(src[2].neg) |
             S_SQ_ALU_WORD1_OP3__ALU_INST(op->op) | S_SQ_ALU_WORD1_OP3__BANK_SWIZZLE(op->bank_swizzle) |
             S_SQ_ALU_WORD1_OP3__DST_GPR(op->dst.gpr) | S_SQ_ALU_WORD1_OP3__DST_REL(op->dst.rel) |
             S_SQ_ALU_WORD1_OP3__DST_CHAN(op->dst.chan) | S_SQ_ALU_WORD1_OP3__CLAMP(op->dst.clamp);
    } else {
        w1 = S_SQ_ALU_WORD1_OP2__SRC0_ABS(src[0].abs) | S_SQ_ALU_WORD1_OP2__SRC1_ABS(src[1].abs) |
             S_SQ_ALU_WORD1_OP2__UPDATE_EXECUTE_MASK(op->update_exec_mask) |
             S_SQ_ALU_WORD1_OP2__UPDATE_PRED(op->update_pred) | S_SQ_ALU_WORD1_OP2__WRITE_MASK(op->dst.write) |
             S_SQ_ALU_WORD1_OP2__OMOD(op->dst.omod) | S_SQ_ALU_WORD1_OP2__ALU_INST(op->op) |
             S_SQ_ALU_WORD1_OP2__BANK_SWIZZLE(op->bank_swizzle) | S_SQ_ALU_WORD1_OP2__DST_GPR(op->dst.gpr) |
             S_SQ_ALU_WORD1_OP2__DST_REL(op->dst.rel) | S_SQ_ALU_WORD1_OP2__DST_CHAN(op->dst.chan) |
             S_SQ_ALU_WORD1_OP2__CLAMP(op->dst.clamp);
    }
    a->body[a->nbody++] = w0;
    a->body[a->nbody++] = w1;
    a->clause[a->open].ndw += 2;

    if (op->last) {
        /* Literals follow the group in 64-bit slots: 2 or 4 dwords. */
        unsigned nl = (a->nlit + 1) & ~1u;
        if (!body_room(a, nl))
            return;
        for (unsigned i = 0; i < nl; i++)
            a->body[a->nbody++] = i < a->nlit ? a->lit[i] : 0;
        a->clause[a->open].ndw += nl;
        a->group_open = false;
        a->nlit = 0;
    }
}

void eg_asm_vtx(struct eg_asm *a, const struct eg_vtx *v)
{
    if (!in_clause(a, EG_CLAUSE_VTX, "VTX instruction") || !body_room(a, 4))
        return;
    bool sem = v->inst == V_SQ_VTX_INST__SEMANTIC;
    bool ok = fits(a, "VTX inst", v->inst, SQ_VTX_WORD0__VTX_INST__WIDTH) &&
              fits(a, "VTX fetch type", v->fetch_type, SQ_VTX_WORD0__FETCH_TYPE__WIDTH) &&
              fits(a, "VTX buffer id", v->buffer_id, SQ_VTX_WORD0__BUFFER_ID__WIDTH) &&
              fits(a, "VTX src gpr", v->src_gpr, SQ_VTX_WORD0__SRC_GPR__WIDTH) &&
              fits(a, "VTX src sel", v->src_sel_x, SQ_VTX_WORD0__SRC_SEL_X__WIDTH) &&
              fits(a, "VTX mega fetch count", v->mega_fetch_count, SQ_VTX_WORD0__MEGA_FETCH_COUNT__WIDTH) &&
              fits(a, "VTX dst gpr", v->dst_gpr, SQ_VTX_WORD1_GPR__DST_GPR__WIDTH) &&
              fits(a, "VTX semantic id", v->semantic_id, SQ_VTX_WORD1_SEM__SEMANTIC_ID__WIDTH) &&
              fits(a, "VTX data format", v->data_format, SQ_VTX_WORD1_GPR__DATA_FORMAT__WIDTH) &&
              fits(a, "VTX num format", v->num_format, SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL__WIDTH) &&
              fits(a, "VTX format comp", v->format_comp, SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL__WIDTH) &&
              fits(a, "VTX srf mode", v->srf_mode, SQ_VTX_WORD1_GPR__SRF_MODE_ALL__WIDTH) &&
              fits(a, "VTX offset", v->offset, SQ_VTX_WORD2__OFFSET__WIDTH) &&
              fits(a, "VTX endian swap", v->endian_swap, SQ_VTX_WORD2__ENDIAN_SWAP__WIDTH);
    for (int c = 0; c < 4 && ok; c++)
        ok = fits(a, "VTX dst sel", v->dst_sel[c], SQ_VTX_WORD1_GPR__DST_SEL_X__WIDTH);
    if (!ok)
        return;
    uint32_t w0 = S_SQ_VTX_WORD0__VTX_INST(v->inst) | S_SQ_VTX_WORD0__FETCH_TYPE(v->fetch_type) |
                  S_SQ_VTX_WORD0__BUFFER_ID(v->buffer_id) | S_SQ_VTX_WORD0__SRC_GPR(v->src_gpr) |
                  S_SQ_VTX_WORD0__SRC_SEL_X(v->src_sel_x) |
                  S_SQ_VTX_WORD0__MEGA_FETCH_COUNT(v->mega_fetch_count);
    /* The GPR and SEM forms of word 1 share everything above bit 8. */
    uint32_t w1 = (sem ? S_SQ_VTX_WORD1_SEM__SEMANTIC_ID(v->semantic_id) : S_SQ_VTX_WORD1_GPR__DST_GPR(v->dst_gpr)) |
                  S_SQ_VTX_WORD1_GPR__DST_SEL_X(v->dst_sel[0]) | S_SQ_VTX_WORD1_GPR__DST_SEL_Y(v->dst_sel[1]) |
                  S_SQ_VTX_WORD1_GPR__DST_SEL_Z(v->dst_sel[2]) | S_SQ_VTX_WORD1_GPR__DST_SEL_W(v->dst_sel[3]) |
                  S_SQ_VTX_WORD1_GPR__USE_CONST_FIELDS(v->use_const_fields) |
                  S_SQ_VTX_WORD1_GPR__DATA_FORMAT(v->data_format) |
                  S_SQ_VTX_WORD1_GPR__NUM_FORMAT_ALL(v->num_format) |
                  S_SQ_VTX_WORD1_GPR__FORMAT_COMP_ALL(v->format_comp) |
                  S_SQ_VTX_WORD1_GPR__SRF_MODE_ALL(v->srf_mode);
    uint32_t w2 = S_SQ_VTX_WORD2__OFFSET(v->offset) | S_SQ_VTX_WORD2__ENDIAN_SWAP(v->endian_swap) |
                  S_SQ_VTX_WORD2__CONST_BUF_NO_STRIDE(v->const_buf_no_stride) |
                  S_SQ_VTX_WORD2__MEGA_FETCH(v->mega_fetch);
    a->body[a->nbody++] = w0;
    a->body[a->nbody++] = w1;
    a->body[a->nbody++] = w2;
    a->body[a->nbody++] = 0;
    a->clause[a->open].ndw += 4;
}

void eg_asm_tex(struct eg_asm *a, const struct eg_tex *t)
{
    if (!in_clause(a, EG_CLAUSE_TEX, "TEX instruction") || !body_room(a, 4))
        return;
    bool ok = fits(a, "TEX inst", t->inst, SQ_TEX_WORD0__TEX_INST__WIDTH) &&
              fits(a, "TEX resource id", t->resource_id, SQ_TEX_WORD0__RESOURCE_ID__WIDTH) &&
              fits(a, "TEX sampler id", t->sampler_id, SQ_TEX_WORD2__SAMPLER_ID__WIDTH) &&
              fits(a, "TEX src gpr", t->src_gpr, SQ_TEX_WORD0__SRC_GPR__WIDTH) &&
              fits(a, "TEX dst gpr", t->dst_gpr, SQ_TEX_WORD1__DST_GPR__WIDTH) &&
              fits(a, "TEX inst mod", t->inst_mod, SQ_TEX_WORD0__INST_MOD__WIDTH);
    for (int c = 0; c < 4 && ok; c++)
        ok = fits(a, "TEX src sel", t->src_sel[c], SQ_TEX_WORD2__SRC_SEL_X__WIDTH) &&
             fits(a, "TEX dst sel", t->dst_sel[c], SQ_TEX_WORD1__DST_SEL_X__WIDTH);
    if (ok && (t->lod_bias < -64 || t->lod_bias > 63))
        ok = (fail(a, "TEX lod bias %d out of range", t->lod_bias), false);
    for (int c = 0; c < 3 && ok; c++)
        if (t->offset[c] < -16 || t->offset[c] > 15)
            ok = (fail(a, "TEX offset %d out of range", t->offset[c]), false);
    if (!ok)
        return;
    uint32_t w0 = S_SQ_TEX_WORD0__TEX_INST(t->inst) | S_SQ_TEX_WORD0__INST_MOD(t->inst_mod) |
                  S_SQ_TEX_WORD0__RESOURCE_ID(t->resource_id) | S_SQ_TEX_WORD0__SRC_GPR(t->src_gpr);
    uint32_t w1 = S_SQ_TEX_WORD1__DST_GPR(t->dst_gpr) |
                  S_SQ_TEX_WORD1__DST_SEL_X(t->dst_sel[0]) | S_SQ_TEX_WORD1__DST_SEL_Y(t->dst_sel[1]) |
                  S_SQ_TEX_WORD1__DST_SEL_Z(t->dst_sel[2]) | S_SQ_TEX_WORD1__DST_SEL_W(t->dst_sel[3]) |
                  S_SQ_TEX_WORD1__LOD_BIAS(t->lod_bias) |
                  S_SQ_TEX_WORD1__COORD_TYPE_X(t->coord_normalized[0]) |
                  S_SQ_TEX_WORD1__COORD_TYPE_Y(t->coord_normalized[1]) |
                  S_SQ_TEX_WORD1__COORD_TYPE_Z(t->coord_normalized[2]) |
                  S_SQ_TEX_WORD1__COORD_TYPE_W(t->coord_normalized[3]);
    uint32_t w2 = S_SQ_TEX_WORD2__OFFSET_X(t->offset[0]) | S_SQ_TEX_WORD2__OFFSET_Y(t->offset[1]) |
                  S_SQ_TEX_WORD2__OFFSET_Z(t->offset[2]) | S_SQ_TEX_WORD2__SAMPLER_ID(t->sampler_id) |
                  S_SQ_TEX_WORD2__SRC_SEL_X(t->src_sel[0]) | S_SQ_TEX_WORD2__SRC_SEL_Y(t->src_sel[1]) |
                  S_SQ_TEX_WORD2__SRC_SEL_Z(t->src_sel[2]) | S_SQ_TEX_WORD2__SRC_SEL_W(t->src_sel[3]);
    a->body[a->nbody++] = w0;
    a->body[a->nbody++] = w1;
    a->body[a->nbody++] = w2;
    a->body[a->nbody++] = 0;
    a->clause[a->open].ndw += 4;
}

int eg_asm_finish(struct eg_asm *a, bool end_of_program, uint32_t *out, size_t cap, size_t *ndw)
{
    close_clause(a);
    if (!a->err[0] && a->ncf == 0)
        fail(a, "empty shader");
    if (a->err[0])
        return -1;
    /* A CF_ALU word has no END_OF_PROGRAM bit (bit 21 is part of its COUNT):
     * end such a program with a NOP, as Mesa does. */
    if (end_of_program && eg_cf_form_of(a->cf[2 * a->ncf - 1]) == EG_CF_ALU)
        add_cf(a, 0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__NOP) | S_SQ_CF_WORD1__BARRIER(1));
    if (a->err[0])
        return -1;
    if (end_of_program) {
        /* END_OF_PROGRAM is bit 21 of word 1 in every CF form. */
        a->cf[2 * a->ncf - 1] |= S_SQ_CF_WORD1__END_OF_PROGRAM(1);
    }
    size_t pos = 2 * (size_t)a->ncf;
    size_t clause_pos[EG_ASM_MAX_CLAUSES];
    for (unsigned i = 0; i < a->nclause; i++) {
        unsigned align = a->clause[i].kind == EG_CLAUSE_ALU ? 2 : 4;
        pos = (pos + align - 1) / align * align;
        clause_pos[i] = pos;
        pos += a->clause[i].ndw;
    }
    if (pos > cap) {
        fail(a, "shader needs %zu dwords, room for %zu", pos, cap);
        return -1;
    }
    for (unsigned i = 0; i < a->nclause; i++) {
        uint32_t *w = &a->cf[2 * a->clause[i].cf];
        size_t addr = clause_pos[i] / 2;     /* 64-bit units */
        if (a->clause[i].ndw == 0) {
            fail(a, "clause %u is empty", i);
            return -1;
        }
        if (a->clause[i].kind == EG_CLAUSE_ALU) {
            size_t count = a->clause[i].ndw / 2 - 1;
            if (!fits(a, "ALU clause address", addr, SQ_CF_ALU_WORD0__ADDR__WIDTH) ||
                !fits(a, "ALU clause count", count, SQ_CF_ALU_WORD1__COUNT__WIDTH))
                return -1;
            w[0] |= S_SQ_CF_ALU_WORD0__ADDR(addr);
            w[1] |= S_SQ_CF_ALU_WORD1__COUNT(count);
        } else {
            size_t count = a->clause[i].ndw / 4 - 1;
            if (!fits(a, "fetch clause address", addr, SQ_CF_WORD0__ADDR__WIDTH) ||
                !fits(a, "fetch clause count", count, SQ_CF_WORD1__COUNT__WIDTH))
                return -1;
            w[0] |= S_SQ_CF_WORD0__ADDR(addr);
            w[1] |= S_SQ_CF_WORD1__COUNT(count);
        }
    }
    memset(out, 0, pos * sizeof *out);
    memcpy(out, a->cf, 2 * a->ncf * sizeof *out);
    for (unsigned i = 0; i < a->nclause; i++)
        memcpy(out + clause_pos[i], a->body + a->clause[i].start, a->clause[i].ndw * sizeof *out);
    *ndw = pos;
    return 0;
}
