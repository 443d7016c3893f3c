/* The virtual Cedar's hardware state, shared by its command processor
 * (src/vcedar/, which owns and updates it) and its renderer (src/render/,
 * which draws with it).  This header is the contract between the two.
 */
#ifndef CEDAR_VC_HW_H
#define CEDAR_VC_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/regdb.h"
#include "eg_regs.h"

/* Register file: one array per address space (resources and ALU constants
 * overlap in offset, so spaces are kept apart).  Index = (offset - start) / 4,
 * start/end from the database (SPACE_<NAME>_START/_END, eg_regs.h). */
#define VC_CONFIG_DWORDS    ((SPACE_CONFIG_END - SPACE_CONFIG_START) / 4)
#define VC_CONTEXT_DWORDS   ((SPACE_CONTEXT_END - SPACE_CONTEXT_START) / 4)
#define VC_RESOURCE_DWORDS  ((SPACE_RESOURCE_END - SPACE_RESOURCE_START) / 4)
#define VC_ALU_CONST_DWORDS ((SPACE_ALU_CONST_END - SPACE_ALU_CONST_START) / 4)
#define VC_LOOP_DWORDS      ((SPACE_LOOP_CONST_END - SPACE_LOOP_CONST_START) / 4)
#define VC_BOOL_DWORDS      ((SPACE_BOOL_CONST_END - SPACE_BOOL_CONST_START) / 4)
#define VC_SAMPLER_DWORDS   ((SPACE_SAMPLER_END - SPACE_SAMPLER_START) / 4)
#define VC_CTL_DWORDS       ((SPACE_CTL_CONST_END - SPACE_CTL_CONST_START) / 4)

/* Who wants to hear of register reads: the virtual Cedar's --poison-state
 * (src/vcedar/vc_poison.c) reports reads of registers the command stream
 * left unwritten.  reader: the model's function and its source file. */
struct vc_reg_watch {
    void (*read)(struct vc_reg_watch *w, uint32_t offset, const char *func, const char *file);
};

struct vc_regs {
    uint32_t config[VC_CONFIG_DWORDS];
    uint32_t context[VC_CONTEXT_DWORDS];
    uint32_t resource[VC_RESOURCE_DWORDS];
    uint32_t alu_const[VC_ALU_CONST_DWORDS];
    uint32_t loop_const[VC_LOOP_DWORDS];
    uint32_t bool_const[VC_BOOL_DWORDS];
    uint32_t sampler[VC_SAMPLER_DWORDS];
    uint32_t ctl_const[VC_CTL_DWORDS];
    /* The texture unit's border colour table: sampler i of a stage gets the
     * colour written to that stage's TD_*_SAMPLER0_BORDER_RED..ALPHA while
     * its BORDER_INDEX held i (Mesa evergreen_emit_sampler_states writes
     * INDEX then the four components for each sampler that needs one). */
    uint32_t border[V_SQ_SAMPLER_BASE__STAGES][V_SQ_SAMPLER_BASE__PER_STAGE][4];
    struct vc_reg_watch *watch;  /* NULL: reads are not watched */
};

/* Keep a write to a TD_<stage>_SAMPLER0_BORDER_RED..ALPHA register in the
 * border colour table (the register file itself keeps only the last one).
 * The six stages' five registers (INDEX, RED, GREEN, BLUE, ALPHA) follow
 * each other from TD_PS_SAMPLER0_BORDER_INDEX. */
static inline void vc_regs_latch_border(struct vc_regs *r, uint32_t offset, uint32_t value)
{
    const uint32_t first = REG_TD_PS_SAMPLER0_BORDER_INDEX;
    const uint32_t stride = REG_TD_VS_SAMPLER0_BORDER_INDEX - REG_TD_PS_SAMPLER0_BORDER_INDEX;
    if (offset <= first || offset >= first + V_SQ_SAMPLER_BASE__STAGES * stride)
        return;
    uint32_t stage = (offset - first) / stride, comp = (offset - first) % stride / 4;
    if (comp == 0)
        return; /* the INDEX register */
    if (r->watch)
        r->watch->read(r->watch, first + stage * stride, "vc_regs_latch_border", __FILE__);
    uint32_t index = r->config[(first + stage * stride - SPACE_CONFIG_START) / 4];
    if (index < V_SQ_SAMPLER_BASE__PER_STAGE)
        r->border[stage][index][comp - 1] = value;
}

/* Context or config register by byte offset (REG_* from eg_regs.h), as
 * the model reads it: vc_reg() tells the watch who read it.  vc_reg_peek()
 * is for looking on (traces), not a read by the hardware. */
static inline uint32_t vc_reg_peek(const struct vc_regs *r, uint32_t offset)
{
    if (offset >= SPACE_CONTEXT_START && offset < SPACE_CONTEXT_END)
        return r->context[(offset - SPACE_CONTEXT_START) / 4];
    if (offset >= SPACE_CONFIG_START && offset < SPACE_CONFIG_END)
        return r->config[(offset - SPACE_CONFIG_START) / 4];
    return 0;
}

static inline uint32_t vc_reg_by(const struct vc_regs *r, uint32_t offset, const char *func, const char *file)
{
    if (r->watch)
        r->watch->read(r->watch, offset, func, file);
    return vc_reg_peek(r, offset);
}
#define vc_reg(r, offset) vc_reg_by((r), (offset), __func__, __FILE__)

/* GPU memory as the renderer sees it: a GPU address range -> host bytes.
 * Returns NULL when [addr, addr+len) is not inside one buffer (the renderer
 * must then stop the draw with an error, never touch memory). */
struct vc_mem {
    void *ctx;
    void *(*ptr)(void *ctx, uint64_t gpu_addr, uint64_t len);
    /* The GDS's append counters GDS_APPEND_COUNT_0..11, which the shaders'
     * GDS operations with ALLOC_CONSUME advance (atomically: the renderer's
     * threads share them); NULL: such an operation faults. */
    uint32_t *gds_append;
};

static inline void *vc_mem_ptr(const struct vc_mem *m, uint64_t gpu_addr, uint64_t len)
{
    return m->ptr(m->ctx, gpu_addr, len);
}

/* One draw, as the command processor hands it to the renderer. */
struct vc_draw {
    unsigned opcode;          /* PKT3_DRAW_INDEX_AUTO, PKT3_DRAW_INDEX_2, ... */
    uint32_t num_indices;     /* VGT_NUM_INDICES / packet count */
    uint32_t num_instances;   /* from NUM_INSTANCES (default 1) */
    uint32_t prim_type;       /* VGT_PRIMITIVE_TYPE value */
    uint32_t index_type;      /* VGT_INDEX_TYPE / VGT_DMA_INDEX_TYPE: 16- or 32-bit */
    uint64_t index_addr;      /* GPU address of indices (DRAW_INDEX / _2), 0 if none */
    const uint32_t *immd;     /* DRAW_INDEX_IMMD: indices inline in the packet */
    uint32_t immd_dwords;
    uint32_t draw_initiator;  /* VGT_DRAW_INITIATOR dword */
};

/* The renderer's answer: 0, or -1 with a one-line reason in err. */
struct vc_draw_err { char msg[200]; };

#endif
