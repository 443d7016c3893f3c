/* The virtual Cedar's command processor: runs a (checked and patched, or
 * bare-metal) GFX indirect buffer, packet by packet through the shared PM4
 * walker.  SET_* packets fill the register file (cedar/vc_hw.h); CP_DMA,
 * MEM_WRITE, EVENT_WRITE(_EOP/_EOS), COPY_DW and WAIT_REG_MEM act on memory;
 * DRAW_* packets become a struct vc_draw for the renderer.  Execution is
 * synchronous: when vc_cp_exec returns, every fence has been written.
 *
 * The virtual GPU clock (RADEON_INFO_TIMESTAMP, EOP DATA_SEL_COUNTER64)
 * advances by vc_clock.c's cost model of the work done. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/pm4.h"
#include "vc_internal.h"

struct cp_run {
    struct vcedar *vc;
    struct vc_error *err;      /* first execution fault */
    const uint32_t *ib;
};

void vc_cp_reset(struct vc_cp *cp)
{
    memset(cp, 0, sizeof(*cp));
    cp->num_instances = 1;
}

static void fault(struct cp_run *run, uint32_t dw, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fault(struct cp_run *run, uint32_t dw, const char *what, const char *fmt, ...)
{
    struct vcedar *vc = run->vc;
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    vc->stats.exec_errors++;
    if (run->err && run->err->code == VC_OK)
        vc_fail(run->err, VC_E_EXEC, dw, what, "%s", text);
    if (vc->exec_error.code == VC_OK)
        vc_fail(&vc->exec_error, VC_E_EXEC, dw, what, "%s", text);
    if (vc->trace)
        fprintf(vc->trace, "        ! %s\n", text);
}

static uint8_t *mem(struct cp_run *run, uint64_t addr, uint64_t len, uint32_t dw, const char *what)
{
    uint8_t *p = vc_memmap_ptr(&run->vc->mem, addr, len);
    if (!p)
        fault(run, dw, what, "%s: GPU address 0x%llX (+%llu bytes) is not memory", what, (unsigned long long)addr,
              (unsigned long long)len);
    return p;
}

static void *mem_view_ptr(void *ctx, uint64_t gpu_addr, uint64_t len)
{
    struct vcedar *vc = ctx;
    return vc_memmap_ptr(&vc->mem, gpu_addr, len);
}

struct vc_mem vc_mem_view(struct vcedar *vc)
{
    /* the append counters are their registers: SET_APPEND_CNT writes them,
     * the shaders' GDS operations advance them, EVENT_WRITE_EOS reads them */
    return (struct vc_mem){ .ctx = vc, .ptr = mem_view_ptr,
                            .gds_append = &vc->cp.regs.context[(REG_GDS_APPEND_COUNT_0 - SPACE_CONTEXT_START) / 4] };
}

/* ---- registers ------------------------------------------------------------- */

static uint32_t *reg_slot(struct vc_regs *r, unsigned opcode, uint32_t offset)
{
#define SLOT(arr, space) \
    (offset >= SPACE_##space##_START && offset < SPACE_##space##_END ? &r->arr[(offset - SPACE_##space##_START) / 4] : NULL)
    switch (opcode) {
    case PKT3_SET_CONFIG_REG: return SLOT(config, CONFIG);
    case PKT3_SET_CONTEXT_REG: return SLOT(context, CONTEXT);
    case PKT3_SET_RESOURCE: return SLOT(resource, RESOURCE);
    case PKT3_SET_ALU_CONST: return SLOT(alu_const, ALU_CONST);
    case PKT3_SET_LOOP_CONST: return SLOT(loop_const, LOOP_CONST);
    case PKT3_SET_BOOL_CONST: return SLOT(bool_const, BOOL_CONST);
    case PKT3_SET_SAMPLER: return SLOT(sampler, SAMPLER);
    case PKT3_SET_CTL_CONST: return SLOT(ctl_const, CTL_CONST);
    default: {
        /* type 0 (bare metal): a plain register offset */
        uint32_t *p = SLOT(context, CONTEXT);
        return p ? p : SLOT(config, CONFIG);
    }
    }
#undef SLOT
}

static void set_reg(struct vcedar *vc, uint32_t offset, uint32_t value)
{
    uint32_t *p = reg_slot(&vc->cp.regs, 0, offset);
    if (p)
        *p = value;
    vc_poison_wrote(vc, offset);
}

/* SQ_VTX_SEMANTIC_CLEAR: each set bit n empties entry n of the semantic
 * table (SQ_VTX_SEMANTIC_n reads 0xFF, "no semantic"): the register is a
 * command, not state (GX2's shader headers pair CLEAR = ~0x3 with entries
 * {0, 1, 0xFF, ...}; Mesa writes ~0 at the start of every CS). */
static void clear_semantics(struct vcedar *vc, uint32_t mask)
{
    for (unsigned i = 0; i < 32; i++)
        if (mask >> i & 1u)
            set_reg(vc, REG_SQ_VTX_SEMANTIC(i), 0xFF);
}

/* Context registers written in compute mode (the type-3 header's
 * SHADER_TYPE bit) are the compute pipeline's, not the draws': Mesa's r600
 * writes every context register a dispatch needs with that bit ("the
 * SET_CONTEXT_REG packet requires that the shader type bit be set",
 * evergreen_init_atom_start_compute_cs), and re-emits its compute images'
 * RAT colour-buffer state in compute mode into graphics command streams,
 * between a blit's CB_COLOR0 and its draw, which the draw must not see. */
static bool compute_context(const struct eg_pm4_packet *p, uint32_t offset)
{
    return p->type == V_PM4_TYPE__TYPE3 && p->shader_type && p->opcode == PKT3_SET_CONTEXT_REG &&
           offset >= SPACE_CONTEXT_START && offset < SPACE_CONTEXT_END;
}

static int on_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    struct cp_run *run = ctx;
    if (compute_context(p, w->offset)) {
        run->vc->cp.context_cs[(w->offset - SPACE_CONTEXT_START) / 4] = w->value;
        vc_poison_wrote(run->vc, w->offset);
        if (run->vc->trace)
            vc_trace_reg(run->vc->trace, p, w);
        return 0;
    }
    uint32_t *slot = reg_slot(&run->vc->cp.regs, p->type == 0 ? 0 : p->opcode, w->offset);
    if (slot)
        *slot = w->value;
    if (slot && (p->type == 0 || p->opcode == PKT3_SET_CONFIG_REG || p->opcode == PKT3_SET_CONTEXT_REG)) {
        vc_poison_wrote(run->vc, w->offset);
        if (w->offset == REG_SQ_VTX_SEMANTIC_CLEAR)
            clear_semantics(run->vc, w->value);
    }
    if (slot && (p->type == 0 || p->opcode == PKT3_SET_CONFIG_REG))
        vc_regs_latch_border(&run->vc->cp.regs, w->offset, w->value);
    if (run->vc->trace)
        vc_trace_reg(run->vc->trace, p, w);
    return 0;
}

/* ---- memory packets ---------------------------------------------------------- */

static uint64_t addr40(uint32_t lo, uint32_t hi)
{
    return lo | ((uint64_t)(hi & 0xFF) << 32);
}

static void swap_bytes(uint8_t *p, uint64_t len, unsigned swap)
{
    unsigned unit = swap == V_CP_DMA_SWAP__SWAP_8IN16 ? 2 : swap == V_CP_DMA_SWAP__SWAP_8IN32 ? 4 :
                    swap == V_CP_DMA_SWAP__SWAP_8IN64 ? 8 : 1;
    for (uint64_t i = 0; unit > 1 && i + unit <= len; i += unit)
        for (unsigned a = 0, b = unit - 1; a < b; a++, b--) {
            uint8_t t = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = t;
        }
}

static void cp_dma(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint32_t info = d[1], cmd = d[4];
    uint64_t len = G_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(cmd);
    uint64_t dst = addr40(d[2], d[3]);
    uint32_t at = (uint32_t)p->offset;
    if (G_CP_DMA_CP_DMA_COMMAND__DAS(cmd) || G_CP_DMA_CP_DMA_INFO__DST_SEL(info) != V_CP_DMA_DST_SEL__DST_ADDR ||
        G_CP_DMA_CP_DMA_COMMAND__SAS(cmd) || G_CP_DMA_CP_DMA_INFO__SRC_SEL(info) == V_CP_DMA_SRC_SEL__SRC_GDS) {
        fault(run, at, "CP_DMA", "CP_DMA to or from registers / GDS is not modelled (info 0x%X, command 0x%X)",
              info, cmd);
        return;
    }
    uint8_t *out = mem(run, dst, len ? len : 1, at, "CP_DMA destination");
    if (!out || !len)
        return;
    if (G_CP_DMA_CP_DMA_INFO__SRC_SEL(info) == V_CP_DMA_SRC_SEL__SRC_DATA) {
        for (uint64_t i = 0; i < len; i++)
            out[i] = (uint8_t)(d[0] >> (8 * (i % 4)));
    } else {
        const uint8_t *in = mem(run, addr40(d[0], info), len, at, "CP_DMA source");
        if (!in)
            return;
        memmove(out, in, len);
        swap_bytes(out, len, G_CP_DMA_CP_DMA_COMMAND__SRC_SWAP(cmd));
    }
    swap_bytes(out, len, G_CP_DMA_CP_DMA_COMMAND__DST_SWAP(cmd));
    run->vc->stats.cp_dma_bytes += len;
    vc_clock_bytes(run->vc, G_CP_DMA_CP_DMA_INFO__SRC_SEL(info) == V_CP_DMA_SRC_SEL__SRC_DATA ? len : 2 * len);
}

static void write64(struct cp_run *run, uint64_t addr, uint64_t v, unsigned bytes, uint32_t at, const char *what)
{
    uint8_t *m = mem(run, addr, bytes, at, what);
    if (m)
        memcpy(m, &v, bytes);   /* little-endian host, like the GPU */
}

static void event_write_eop(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint64_t addr = addr40(d[1] & ~3u, d[2]);
    uint32_t at = (uint32_t)p->offset;
    run->vc->stats.fences++;
    switch (G_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(d[2])) {
    case V_EOP_DATA_SEL__DATA_SEL_LOW32: write64(run, addr, d[3], 4, at, "EVENT_WRITE_EOP"); break;
    case V_EOP_DATA_SEL__DATA_SEL_DATA64: write64(run, addr, d[3] | ((uint64_t)d[4] << 32), 8, at, "EVENT_WRITE_EOP"); break;
    case V_EOP_DATA_SEL__DATA_SEL_COUNTER64: write64(run, addr, run->vc->stats.clock, 8, at, "EVENT_WRITE_EOP"); break;
    default: break;
    }
}

/* Whether offset is one of the append counters GDS_APPEND_COUNT_0..11. */
static bool is_append_counter(uint32_t offset)
{
    return offset >= REG_GDS_APPEND_COUNT_0 && offset <= REG_GDS_APPEND_COUNT_11 && offset % 4 == 0;
}

/* SET_APPEND_CNT: an append counter loaded from memory (the one source the
 * kernel takes; SWAP in the address's bits 0..1 as CP_DMA's) or from the
 * packet itself. */
static void set_append_cnt(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint32_t at = (uint32_t)p->offset;
    uint32_t reg = SPACE_CONTEXT_START + 4 * G_SET_APPEND_CNT_APPEND_CNT_CNTL__WR_REG_OFFSET(d[0]);
    unsigned src = G_SET_APPEND_CNT_APPEND_CNT_CNTL__SRC_SELECT(d[0]);
    if (!is_append_counter(reg)) {
        fault(run, at, "SET_APPEND_CNT", "SET_APPEND_CNT: register 0x%05X is not an append counter", reg);
        return;
    }
    uint32_t v;
    if (src == V_SAC_SRC_SEL__SRC_DATA) {
        v = d[1];
    } else if (src == V_SAC_SRC_SEL__SRC_MEM && (d[1] & 3u) != V_CP_DMA_SWAP__SWAP_8IN64) {
        uint8_t *m = mem(run, addr40(d[1] & ~3u, d[2]), 4, at, "SET_APPEND_CNT");
        if (!m)
            return;
        uint8_t b[4];
        memcpy(b, m, 4);
        swap_bytes(b, 4, d[1] & 3u);
        memcpy(&v, b, 4);
    } else {
        fault(run, at, "SET_APPEND_CNT", "SET_APPEND_CNT: source %u (swap %u) is not modelled", src, d[1] & 3u);
        return;
    }
    set_reg(run->vc, reg, v);
}

/* EVENT_WRITE_EOS: when the shaders are done (at once here: the draws before
 * it have run), store an append counter or DATA. */
static void event_write_eos(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint64_t addr = addr40(d[1] & ~3u, d[2]);
    uint32_t at = (uint32_t)p->offset;
    run->vc->stats.fences++;
    switch (G_EVENT_WRITE_EOS_EOS_CNTL__COMMAND(d[2])) {
    case V_EOS_COMMAND__STORE_APPEND_CNT:
        if (d[3] > 0xFFFFu || !is_append_counter(d[3] * 4u)) {
            fault(run, at, "EVENT_WRITE_EOS", "EVENT_WRITE_EOS: register 0x%05X is not an append counter", d[3] * 4u);
            return;
        }
        write64(run, addr, vc_reg(&run->vc->cp.regs, d[3] * 4u), 4, at, "EVENT_WRITE_EOS");
        break;
    case V_EOS_COMMAND__STORE_DATA:
        write64(run, addr, d[3], 4, at, "EVENT_WRITE_EOS");
        break;
    default:
        fault(run, at, "EVENT_WRITE_EOS", "EVENT_WRITE_EOS: command %u is not modelled",
              G_EVENT_WRITE_EOS_EOS_CNTL__COMMAND(d[2]));
        break;
    }
}

static int wait_compare(unsigned fn, uint32_t v, uint32_t ref)
{
    switch (fn) {
    case V_WAIT_REG_MEM_FUNCTION__WAIT_ALWAYS: return 1;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_LT: return v < ref;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_LE: return v <= ref;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_EQ: return v == ref;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_NE: return v != ref;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_GE: return v >= ref;
    case V_WAIT_REG_MEM_FUNCTION__WAIT_GT: return v > ref;
    default: return 0;
    }
}

static void wait_reg_mem(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint32_t v;
    if (G_WAIT_REG_MEM_WAIT_REG_MEM_CNTL__MEM_SPACE(d[0])) {
        const uint8_t *m = mem(run, addr40(d[1] & ~3u, d[2]), 4, (uint32_t)p->offset, "WAIT_REG_MEM");
        if (!m)
            return;
        memcpy(&v, m, 4);
    } else {
        v = vc_reg(&run->vc->cp.regs, d[1] * 4u);
    }
    /* Nothing runs concurrently with the CP here: a false condition would
     * never become true, so the GPU would hang.  Report it. */
    if (!wait_compare(G_WAIT_REG_MEM_WAIT_REG_MEM_CNTL__FUNCTION(d[0]), v & d[4], d[3]))
        fault(run, (uint32_t)p->offset, "WAIT_REG_MEM",
              "WAIT_REG_MEM would wait forever: value 0x%X, reference 0x%X", v & d[4], d[3]);
}

/* STRMOUT_BUFFER_UPDATE (Mesa r600_streamout.c): for buffer BUFFER_SELECT,
 * optionally store its filled size (the write offset, in bytes from
 * VGT_STRMOUT_BUFFER_BASE) at the destination, then load the write offset
 * (dwords; the VGT's own state, kept across command streams) from the
 * packet (dwords) or from memory (a filled size stored before: bytes), or
 * keep it (NONE, and FROM_VGT_FILLED_SIZE: the VGT's filled size is that
 * offset here). */
static void strmout_buffer_update(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint32_t *off = &run->vc->cp.so_offset[G_RELOC_STRMOUT_UPDATE_CNTL__BUFFER_SELECT(d[0])];
    if (G_RELOC_STRMOUT_UPDATE_CNTL__STORE_FILLED_SIZE(d[0]))
        write64(run, addr40(d[1] & ~3u, d[2]), (uint64_t)*off * 4u, 4, (uint32_t)p->offset, "STRMOUT_BUFFER_UPDATE");
    switch (G_RELOC_STRMOUT_UPDATE_CNTL__SOURCE_SELECT(d[0])) {
    case V_RELOC_STRMOUT_SOURCE__FROM_PACKET:
        *off = d[3];
        break;
    case V_RELOC_STRMOUT_SOURCE__FROM_MEMORY: {
        const uint8_t *m = mem(run, addr40(d[3] & ~3u, d[4]), 4, (uint32_t)p->offset, "STRMOUT_BUFFER_UPDATE");
        if (m) {
            uint32_t bytes;
            memcpy(&bytes, m, 4);
            *off = bytes / 4u;
        }
        break;
    }
    default:
        break;
    }
}

static void copy_dw(struct cp_run *run, const struct eg_pm4_packet *p)
{
    const uint32_t *d = p->payload;
    uint32_t v;
    if (G_COPY_DW_COPY_DW_CNTL__SRC_MEM(d[0])) {
        const uint8_t *m = mem(run, addr40(d[1] & ~3u, d[2]), 4, (uint32_t)p->offset, "COPY_DW source");
        if (!m)
            return;
        memcpy(&v, m, 4);
    } else {
        v = vc_reg(&run->vc->cp.regs, d[1] * 4u);
    }
    if (G_COPY_DW_COPY_DW_CNTL__DST_MEM(d[0]))
        write64(run, addr40(d[3] & ~3u, d[4]), v, 4, (uint32_t)p->offset, "COPY_DW destination");
    else
        set_reg(run->vc, d[3] * 4u, v);
}

/* ---- draws --------------------------------------------------------------------- */

static void draw(struct cp_run *run, const struct eg_pm4_packet *p)
{
    struct vcedar *vc = run->vc;
    struct vc_cp *cp = &vc->cp;
    const uint32_t *d = p->payload;
    struct vc_draw dr = { .opcode = p->opcode, .num_instances = cp->num_instances, .index_type = cp->index_type };
    switch (p->opcode) {
    case PKT3_DRAW_INDEX_AUTO:
        dr.num_indices = d[0];
        dr.draw_initiator = d[1];
        break;
    case PKT3_DRAW_INDEX:
        dr.index_addr = addr40(d[0], d[1]);
        dr.num_indices = d[2];
        dr.draw_initiator = d[3];
        break;
    case PKT3_DRAW_INDEX_2:
        dr.index_addr = addr40(d[1], d[2]);
        dr.num_indices = d[3];
        dr.draw_initiator = d[4];
        break;
    case PKT3_DRAW_INDEX_OFFSET:
        dr.index_addr = cp->index_base + (uint64_t)d[0] * (cp->index_type ? 4 : 2);
        dr.num_indices = d[1];
        dr.draw_initiator = d[2];
        break;
    case PKT3_DRAW_INDEX_OFFSET_2:
        dr.index_addr = cp->index_base + (uint64_t)d[1] * (cp->index_type ? 4 : 2);
        dr.num_indices = d[2];
        dr.draw_initiator = d[3];
        break;
    case PKT3_DRAW_INDEX_IMMD:
        dr.num_indices = d[0];
        dr.draw_initiator = d[1];
        dr.immd = d + 2;
        dr.immd_dwords = (uint32_t)(p->npayload - 2);
        break;
    default:   /* DRAW_INDEX_MULTI_AUTO, *_INDIRECT: counted, not drawn */
        vc->stats.draws++;
        fault(run, (uint32_t)p->offset, "DRAW", "draw packet 0x%02X is counted, not drawn", p->opcode);
        return;
    }
    dr.prim_type = G_VGT_PRIMITIVE_TYPE__PRIM_TYPE(vc_reg(&cp->regs, REG_VGT_PRIMITIVE_TYPE));
    /* the packet writes VGT_NUM_INDICES and VGT_DRAW_INITIATOR */
    set_reg(vc, REG_VGT_NUM_INDICES, dr.num_indices);
    set_reg(vc, REG_VGT_DRAW_INITIATOR, dr.draw_initiator);
    vc->stats.draws++;
    if (vc->trace)
        vc_trace_draw(vc->trace, &cp->regs, &dr);
    vc_draw_fn fn = vc->opts.draw;
    void *fctx = vc->opts.draw_ctx;
    if (!fn && vc->render) {
        fn = vc_render_draw_adapter;
        fctx = vc->render;
    }
    if (!fn) {
        vc_clock_draw(vc, NULL, NULL, 1);
        return;
    }
    struct vc_mem m = vc_mem_view(vc);
    struct vc_draw_err e = { { 0 } };
    struct vc_render_stats before, after;
    if (vc->render)
        vc_render_get_stats(vc->render, &before);
    unsigned so_bufs = G_VGT_STRMOUT_CONFIG__STREAMOUT_0_EN(vc_reg(&cp->regs, REG_VGT_STRMOUT_CONFIG))
                           ? G_VGT_STRMOUT_BUFFER_CONFIG__STREAM_0_BUFFER_EN(
                                 vc_reg(&cp->regs, REG_VGT_STRMOUT_BUFFER_CONFIG))
                           : 0;
    if (fn == vc_render_draw_adapter && so_bufs) {
        /* transform feedback first (it writes only its buffers) */
        if (vc_render_streamout(vc->render, &cp->regs, &m, &dr, cp->so_offset, &e)) {
            fault(run, (uint32_t)p->offset, "DRAW", "draw: %s", e.msg);
            e.msg[0] = '\0';
        }
    }
    if (fn(fctx, &cp->regs, &m, &dr, &e))
        fault(run, (uint32_t)p->offset, "DRAW", "draw: %s", e.msg);
    if (vc->render)
        vc_render_get_stats(vc->render, &after);
    unsigned samples = 1u << G_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(vc_reg(&cp->regs, REG_PA_SC_AA_CONFIG));
    vc_clock_draw(vc, vc->render ? &before : NULL, vc->render ? &after : NULL, samples);
}

/* DISPATCH_DIRECT: the compute stage (src/render/compute.c), which sees
 * the registers with the compute context registers (on_reg) in place of the
 * draws'.  The packet writes VGT_DISPATCH_INITIATOR (a compute context
 * register here), as a draw packet writes VGT_DRAW_INITIATOR.  With a draw
 * function of the caller's instead of the renderer, a dispatch is counted
 * and runs nothing. */
static void dispatch(struct cp_run *run, const struct eg_pm4_packet *p)
{
    struct vcedar *vc = run->vc;
    const uint32_t *d = p->payload;
    const uint32_t dim[3] = {d[0], d[1], d[2]};
    vc->cp.context_cs[(REG_VGT_DISPATCH_INITIATOR - SPACE_CONTEXT_START) / 4] = d[3];
    vc->stats.dispatches++;
    if (vc->opts.draw || !vc->render) {
        vc_clock_dispatch(vc, 0);
        return;
    }
    struct vc_regs *regs = malloc(sizeof *regs);
    if (!regs) {
        fault(run, (uint32_t)p->offset, "DISPATCH_DIRECT", "dispatch: out of memory");
        return;
    }
    *regs = vc->cp.regs;
    memcpy(regs->context, vc->cp.context_cs, sizeof regs->context);
    struct vc_mem m = vc_mem_view(vc);
    struct vc_draw_err e = { { 0 } };
    struct vc_render_stats before, after;
    vc_render_get_stats(vc->render, &before);
    if (vc_render_dispatch(vc->render, regs, &m, dim, &e))
        fault(run, (uint32_t)p->offset, "DISPATCH_DIRECT", "dispatch: %s", e.msg);
    free(regs);
    vc_render_get_stats(vc->render, &after);
    vc_clock_dispatch(vc, after.cs_invocations - before.cs_invocations);
}

/* ---- the packet loop --------------------------------------------------------------- */

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct cp_run *run = ctx;
    struct vcedar *vc = run->vc;
    struct vc_cp *cp = &vc->cp;
    const uint32_t *d = p->payload;
    vc->stats.packets++;
    vc_clock_cp_dwords(vc, 1 + p->npayload);
    if (vc->trace)
        vc_trace_packet(vc->trace, p);
    if (p->type != V_PM4_TYPE__TYPE3)
        return 0;
    /* The walk is lenient about counts (bare-metal IBs), so a packet may be
     * shorter than the dwords its handler reads (which would read past the
     * IB).  The kernel refuses such packets; here they are a fault and run
     * nothing. */
    size_t need = eg_pm4_min_payload(p->def);
    if (p->npayload < need) {
        fault(run, (uint32_t)p->offset, p->def->name, "%s with %zu payload dwords: it has at least %zu",
              p->def->name, p->npayload, need);
        return 0;
    }
    switch (p->opcode) {
    case PKT3_CONTEXT_CONTROL:
        cp->context_control[0] = d[0];
        cp->context_control[1] = d[1];
        break;
    case PKT3_CLEAR_STATE:
        /* The hardware reloads the context registers from the clear-state
         * buffer the kernel set up; the model starts them from zero. */
        memset(cp->regs.context, 0, sizeof(cp->regs.context));
        memset(cp->context_cs, 0, sizeof(cp->context_cs));
        vc_poison_clear_state(vc);
        break;
    case PKT3_NUM_INSTANCES:
        cp->num_instances = d[0];
        set_reg(vc, REG_VGT_NUM_INSTANCES, d[0]);
        break;
    case PKT3_INDEX_TYPE:
        cp->index_type = G_INDEX_TYPE_INDEX_TYPE__INDEX_TYPE(d[0]);
        set_reg(vc, REG_VGT_DMA_INDEX_TYPE, d[0]);
        break;
    case PKT3_INDEX_BASE:
        cp->index_base = addr40(d[0], d[1]);
        break;
    case PKT3_INDEX_BUFFER_SIZE:
        cp->index_size = d[0];
        break;
    case PKT3_CP_DMA:
        cp_dma(run, p);
        break;
    case PKT3_MEM_WRITE: {
        uint64_t v = d[2] | (G_MEM_WRITE_MEM_WRITE_CNTL__DATA32(d[1]) ? 0 : (uint64_t)d[3] << 32);
        write64(run, addr40(d[0] & ~3u, d[1]), v, G_MEM_WRITE_MEM_WRITE_CNTL__DATA32(d[1]) ? 4 : 8,
                (uint32_t)p->offset, "MEM_WRITE");
        vc->stats.fences++;
        break;
    }
    case PKT3_EVENT_WRITE_EOP:
        event_write_eop(run, p);
        break;
    case PKT3_EVENT_WRITE_EOS:
        event_write_eos(run, p);
        break;
    case PKT3_SET_APPEND_CNT:
        set_append_cnt(run, p);
        break;
    case PKT3_EVENT_WRITE:
        /* Cache flushes and partial flushes have nothing to wait for here.
         * SAMPLE_PIPELINESTAT: the eleven counters (vc_pipestat.c).
         * ZPASS_DONE: each render backend writes its DB's pass count with
         * bit 63 set (what Mesa r600_query.c tests), the backends' counts
         * 16 bytes apart; the virtual Cedar has one (RADEON_INFO_NUM_BACKENDS).
         * Other events with an address (SAMPLE_*) write counters the model
         * does not keep: zeros. */
        if (G_EVENT_CNTL__EVENT_TYPE(d[0]) == V_VGT_EVENT_TYPE__SO_VGTSTREAMOUT_FLUSH) {
            /* stream-out runs with each draw here: the offsets are final
             * at once (what Mesa's r600_flush_vgt_streamout waits for) */
            set_reg(vc, REG_CP_STRMOUT_CNTL,
                    vc_reg(&cp->regs, REG_CP_STRMOUT_CNTL) | S_CP_STRMOUT_CNTL__OFFSET_UPDATE_DONE(1));
        } else if (p->npayload >= 3 && G_EVENT_CNTL__EVENT_TYPE(d[0]) == V_VGT_EVENT_TYPE__SAMPLE_PIPELINESTAT) {
            uint8_t *m = mem(run, addr40(d[1] & ~7u, d[2]), VC_PIPESTAT_BYTES, (uint32_t)p->offset, "EVENT_WRITE");
            if (m)
                vc_sample_pipelinestat(vc, m);
        } else if (p->npayload >= 3) {
            uint8_t *m = mem(run, addr40(d[1] & ~7u, d[2]), 8, (uint32_t)p->offset, "EVENT_WRITE");
            uint64_t v = 0;
            if (m && G_EVENT_CNTL__EVENT_TYPE(d[0]) == V_VGT_EVENT_TYPE__ZPASS_DONE) {
                struct vc_render_stats st = {0};
                if (vc->render)
                    vc_render_get_stats(vc->render, &st);
                v = st.zpass_samples | 1ull << 63;
            }
            if (m)
                memcpy(m, &v, 8);
        }
        break;
    case PKT3_WAIT_REG_MEM:
        wait_reg_mem(run, p);
        break;
    case PKT3_STRMOUT_BUFFER_UPDATE:
        strmout_buffer_update(run, p);
        break;
    case PKT3_COPY_DW:
        copy_dw(run, p);
        break;
    case PKT3_SURFACE_SYNC:   /* memory is coherent in the model */
    case PKT3_SET_PREDICATION:
    case PKT3_PFP_SYNC_ME:
    case PKT3_NOP:
        break;
    case PKT3_DRAW_INDEX_AUTO:
    case PKT3_DRAW_INDEX:
    case PKT3_DRAW_INDEX_2:
    case PKT3_DRAW_INDEX_OFFSET:
    case PKT3_DRAW_INDEX_OFFSET_2:
    case PKT3_DRAW_INDEX_IMMD:
    case PKT3_DRAW_INDEX_MULTI_AUTO:
    case PKT3_DRAW_INDIRECT:
    case PKT3_DRAW_INDEX_INDIRECT:
        draw(run, p);
        break;
    case PKT3_DISPATCH_DIRECT:
        dispatch(run, p);
        break;
    default:
        if (vc->trace && !p->space)
            fprintf(vc->trace, "        (not modelled: no effect)\n");
        break;
    }
    return 0;
}

int vc_cp_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err)
{
    struct cp_run run = { .vc = vc, .err = err, .ib = ib };
    if (vc->opts.poison_state)
        vc_poison_begin(vc);
    if (err)
        memset(err, 0, sizeof(*err));
    struct eg_pm4_opts wo = { .lenient_counts = true, .empty_set_ok = true };
    struct eg_pm4_sink sink = { .ctx = &run, .packet = on_packet, .reg = on_reg };
    struct eg_pm4_error we;
    int r = eg_pm4_walk(ib, ndw, &wo, &sink, &we);
    if (r) {
        vc->stats.exec_errors++;
        if (err && err->code == VC_OK)
            vc_fail(err, VC_E_PKT_TYPE, (uint32_t)we.offset, "IB", "%s", we.message);
        if (vc->exec_error.code == VC_OK)
            vc_fail(&vc->exec_error, VC_E_PKT_TYPE, (uint32_t)we.offset, "IB", "%s", we.message);
        return -1;
    }
    return err && err->code != VC_OK ? -1 : 0;
}

int vcedar_exec_raw(struct vcedar *vc, enum vc_ring ring, const uint32_t *ib, size_t ndw, struct vc_error *err)
{
    memset(&vc->exec_error, 0, sizeof(vc->exec_error));
    if (ring == VC_RING_DMA)
        return vc_dma_exec(vc, ib, ndw, err);
    return vc_cp_exec(vc, ib, ndw, err);
}
