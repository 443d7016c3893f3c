/* Transform feedback: the VGT's stream-out of stream 0 (no geometry shader:
 * the vertex shader's MEM_STREAM0_BUFn exports).  The registers as Mesa's
 * r600_streamout.c programs them: VGT_STRMOUT_CONFIG.STREAMOUT_0_EN,
 * VGT_STRMOUT_BUFFER_CONFIG's stream-0 buffer bits, per buffer
 * VGT_STRMOUT_BUFFER_BASE (bytes >> 8), VGT_STRMOUT_BUFFER_SIZE (dwords from
 * the base, Mesa: (buffer_offset + size) >> 2) and VGT_STRMOUT_VTX_STRIDE
 * (dwords per vertex); the write offset (dwords from the base) is the VGT's
 * own state, which STRMOUT_BUFFER_UPDATE sets (vc_cp.c).  Primitives are written whole, in the
 * order the VGT assembles them (a strip's shared vertices once per
 * primitive), and only while every enabled buffer has room for the whole
 * primitive, as GL's transform feedback requires (a primitive that does not
 * fit is not written and the offsets stay). */
#include <string.h>

#include "render_priv.h"

struct so_ctx {
    struct vc_render *r;
    const struct vc_regs *regs;
    const struct vc_mem *mem;
    struct vc_draw_err *err;
    unsigned buffers;           /* enabled buffers of stream 0 */
    uint32_t *offset;           /* dwords from each base */
    uint32_t size[4], stride[4];
    uint64_t base[4];
    bool full;                  /* a primitive did not fit: nothing more is written */
    struct eg_stream_out so;
};

static int so_vertex(struct so_ctx *c, uint32_t index, uint32_t instance)
{
    if (c->r->shaders.stream_vertex(c->r->shaders.ctx, c->regs, c->mem, index, instance, &c->so, c->err))
        return -1;
    for (unsigned k = 0; k < c->so.n; k++) {
        const struct eg_stream_write *w = &c->so.w[k];
        if (w->stream != 0 || !((c->buffers >> w->buf) & 1u))
            continue;
        for (unsigned ch = 0; ch < 4; ch++) {
            if (!((w->comp_mask >> ch) & 1u))
                continue;
            uint32_t dw = w->dword + ch;
            if (dw >= c->stride[w->buf])
                return rs_fail(c->err, "stream-out: buffer %u dword %u is past the vertex stride of %u dwords", w->buf,
                               dw, c->stride[w->buf]);
            uint64_t addr = c->base[w->buf] + 4ull * ((uint64_t)c->offset[w->buf] + dw);
            uint8_t *p = vc_mem_ptr(c->mem, addr, 4);
            if (!p)
                return rs_fail(c->err, "stream-out: buffer %u address 0x%llx is not memory", w->buf,
                               (unsigned long long)addr);
            memcpy(p, &w->v[ch], 4);
        }
    }
    for (unsigned b = 0; b < 4; b++)
        if ((c->buffers >> b) & 1u)
            c->offset[b] += c->stride[b];
    return 0;
}

static int so_prim(void *ctx, enum vgt_prim_kind kind, const uint32_t *idx, const uint64_t *inv, unsigned n,
                   uint32_t instance)
{
    struct so_ctx *c = ctx;
    (void)kind;
    (void)inv;
    if (c->full)
        return 0;
    for (unsigned b = 0; b < 4; b++)
        if (((c->buffers >> b) & 1u) && (uint64_t)c->offset[b] + (uint64_t)n * c->stride[b] > c->size[b]) {
            c->full = true;
            return 0;
        }
    for (unsigned v = 0; v < n; v++)
        if (so_vertex(c, idx[v], instance))
            return -1;
    return 0;
}

int vc_render_streamout(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                        const struct vc_draw *draw, uint32_t offset_dw[4], struct vc_draw_err *err)
{
    unsigned buffers = G_VGT_STRMOUT_BUFFER_CONFIG__STREAM_0_BUFFER_EN(vc_reg(regs, REG_VGT_STRMOUT_BUFFER_CONFIG));
    if (!G_VGT_STRMOUT_CONFIG__STREAMOUT_0_EN(vc_reg(regs, REG_VGT_STRMOUT_CONFIG)) || !buffers)
        return 0;
    if (!r->shaders.stream_vertex)
        return rs_fail(err, "stream-out: the shader stages have no stream-out");
    struct so_ctx c = {.r = r, .regs = regs, .mem = mem, .err = err, .buffers = buffers, .offset = offset_dw};
    for (unsigned b = 0; b < 4; b++) {
        if (!((buffers >> b) & 1u))
            continue;
        c.size[b] = vc_reg(regs, REG_VGT_STRMOUT_BUFFER_SIZE(b));
        c.stride[b] = vc_reg(regs, REG_VGT_STRMOUT_VTX_STRIDE(b));
        c.base[b] = (uint64_t)vc_reg(regs, REG_VGT_STRMOUT_BUFFER_BASE(b)) << 8;
    }
    if (r->shaders.begin && r->shaders.begin(r->shaders.ctx, regs, mem, false, err))
        return -1;
    struct vgt_counts counts;   /* counted by the draw itself */
    return vgt_run(regs, mem, draw, so_prim, &c, &counts, err);
}
