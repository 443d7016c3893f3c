/* A compute shader's random-access targets (RATs): the MEM_RAT /
 * MEM_RAT_CACHELESS operations of a lane on colour buffer CB_COLOR<rat>
 * with CB_COLOR_INFO.RAT, as Mesa's r600 binds images and shader storage
 * buffers (evergreen_state.c evergreen_set_color_surface_common /
 * evergreen_set_color_surface_buffer, evergreen_emit_image_state) and
 * emits the operations (sfn_instr_mem.cpp RatInstr).
 *
 * Stores: STORE_TYPED, one element.  A buffer RAT (RESOURCE_TYPE BUFFER,
 * linear) takes element index.x x its bytes from CB_COLOR_BASE, of 32-bit
 * channels (COLOR_32, _32_32, _32_32_32_32, integer or float), the data's
 * bits unchanged in the channels COMP_MASK selects.  A 1D / 2D image RAT
 * takes texel (index.x, index.y) laid out and packed as the colour block
 * writes a pixel (cb.c), without blending or logic op, the channels of
 * COMP_MASK; a texel past CB_COLOR_DIM is dropped (GL: a store outside the
 * image has no effect).
 *
 * Returns: an operation of 32 and above (SQ_RAT_INST NOP_RTN, XCHG_RTN,
 * CMPXCHG_INT_RTN, ADD_RTN ...) writes the element's value before the
 * operation to the RAT's immediate return buffer: element RW_GPR.y (the
 * per-lane return address Mesa computes from MBCNT, SE_ID and HW_WAVE_ID,
 * sfn_shader.cpp allocate_reserved_registers) of the buffer at
 * CB_IMMED<rat>_BASE, elements of the RAT's element size.  The shader then
 * waits for the write (WAIT_ACK after a MEM_RAT of TYPE WRITE_IND_ACK) and
 * reads the value back with a vertex fetch of that buffer (Mesa binds it
 * as the fetch resource R600_IMAGE_IMMED_RESOURCE_OFFSET + image, stride
 * the element size: for an RGBA8 image stride 4 and FMT_8_8_8_8, as seen
 * in piglit's multiple-texture-reading under cedar-run).  In the model the
 * write is done when the MEM_RAT instruction is, so the wait is always
 * satisfied.  NOP_RTN returns the element's stored bytes (imageLoad); a
 * texel past CB_COLOR_DIM returns zeros (GL's imageLoad outside the image;
 * the card's value there is the model's prediction).
 *
 * Atomics (imageAtomic*, atomic SSBO operations): on an element of one
 * 32-bit channel, data x the operand (CMPXCHG_INT: x the new value and w the
 * value compared with, Mesa's Evergreen layout): ADD, SUB (old - x), RSUB
 * (x - old), MIN / MAX signed and unsigned, AND, OR, XOR, XCHG_RTN,
 * CMPXCHG_INT; each also in its _RTN form (operation + 32).  The lanes of
 * a wave run one after another, and waves and groups one at a time, so an
 * atomic's read and write are never interleaved with another's.
 * Anything else stops the dispatch with its name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eg_regs.h"
#include "render_priv.h"

_Static_assert(RS_NUM_RAT == V_CB_TARGETS__COUNT, "a RAT for every colour buffer");

/* The name of value v of register-database enum e ("?" when none). */
static const char *value_name(const char *e, uint32_t v)
{
    const char *n = eg_enum_value_name(eg_enum_find_name(e), v);
    return n ? n : "?";
}

static const char *inst_name(unsigned inst)
{
    return value_name("SQ_RAT_INST", inst);
}

/* The operation without its return (an _RTN form less 32), and whether it
 * returns. */
static unsigned base_op(unsigned inst, bool *rtn)
{
    const unsigned off = V_SQ_RAT_INST__NOP_RTN - V_SQ_RAT_INST__NOP;
    *rtn = inst >= off;
    return *rtn ? inst - off : inst;
}

/* An atomic's new value from the old one (eg_atomic: the RAT operations
 * are the data shares' under their own numbers; CMPXCHG_INT compares with
 * the data's W and stores its X); false when op is not one the model runs. */
static bool atomic_apply(unsigned op, uint32_t old, const uint32_t data[4], uint32_t *out)
{
    enum eg_atomic_op k;
    uint32_t a = data[0], b = 0;
    switch (op) {
    case V_SQ_RAT_INST__ADD: k = EG_ATOMIC_ADD; break;
    case V_SQ_RAT_INST__SUB: k = EG_ATOMIC_SUB; break;
    case V_SQ_RAT_INST__RSUB: k = EG_ATOMIC_RSUB; break;
    case V_SQ_RAT_INST__MIN_INT: k = EG_ATOMIC_MIN_INT; break;
    case V_SQ_RAT_INST__MAX_INT: k = EG_ATOMIC_MAX_INT; break;
    case V_SQ_RAT_INST__MIN_UINT: k = EG_ATOMIC_MIN_UINT; break;
    case V_SQ_RAT_INST__MAX_UINT: k = EG_ATOMIC_MAX_UINT; break;
    case V_SQ_RAT_INST__AND: k = EG_ATOMIC_AND; break;
    case V_SQ_RAT_INST__OR: k = EG_ATOMIC_OR; break;
    case V_SQ_RAT_INST__XOR: k = EG_ATOMIC_XOR; break;
    case V_SQ_RAT_INST__STORE_RAW: k = EG_ATOMIC_XCHG; break;     /* XCHG_RTN's base */
    case V_SQ_RAT_INST__CMPXCHG_INT:
        k = EG_ATOMIC_CMPXCHG;
        a = data[3];
        b = data[0];
        break;
    default: return false;
    }
    *out = eg_atomic(k, old, a, b);
    return true;
}

/* The element's old value to the immediate return buffer of `rat`. */
static int rat_return(const struct vc_regs *regs, const struct vc_mem *mem, unsigned rat, uint32_t addr,
                      const uint8_t *el, unsigned bytes, char *msg, size_t msglen)
{
    uint64_t at = ((uint64_t)vc_reg(regs, REG_CB_IMMED_BASE(rat)) << 8) + (uint64_t)addr * bytes;
    uint8_t *p = vc_mem_ptr(mem, at, bytes);
    if (!p)
        return rs_msg_fail(msg, msglen, "return address %u: 0x%llx (CB_IMMED%u_BASE) is not inside a GPU buffer",
                           addr, (unsigned long long)at, rat);
    memcpy(p, el, bytes);
    return 0;
}

/* An atomic or NOP_RTN on the element at p (bytes long). */
static int element_op(const struct vc_regs *regs, const struct vc_mem *mem, unsigned rat, unsigned inst,
                      uint8_t *p, unsigned bytes, const uint32_t data[4], char *msg, size_t msglen)
{
    bool rtn;
    unsigned op = base_op(inst, &rtn);
    uint8_t old[16];
    memcpy(old, p, bytes);
    if (op != V_SQ_RAT_INST__NOP) {
        uint32_t o = 0, n;
        if ((op == V_SQ_RAT_INST__STORE_RAW && !rtn) || !atomic_apply(op, o, data, &n))
            return rs_msg_fail(msg, msglen, "RAT operation %s (%u) is not modelled", inst_name(inst), inst);
        if (bytes != 4)
            return rs_msg_fail(msg, msglen, "RAT operation %s (%u) on %u-byte elements is not modelled (32-bit only)",
                               inst_name(inst), inst, bytes);
        memcpy(&o, old, 4);
        atomic_apply(op, o, data, &n);
        memcpy(p, &n, 4);
    } else if (!rtn) {
        return 0; /* NOP */
    }
    return rtn ? rat_return(regs, mem, rat, data[1], old, bytes, msg, msglen) : 0;
}

static int image_op(struct vc_render *r, struct rat_targets *rt, const struct vc_regs *regs,
                    const struct vc_mem *mem, unsigned rat, unsigned inst, const uint32_t idx[4],
                    const uint32_t data[4], unsigned comp_mask, char *msg, size_t msglen)
{
    if (!rt->ok[rat]) {
        if (!rt->img[rat] && !(rt->img[rat] = malloc(sizeof *rt->img[rat])))
            return rs_msg_fail(msg, msglen, "out of memory");
        struct vc_draw_err e = {{0}};
        int rc = cb_target_init(r, rt->img[rat], rat, 1, regs, mem, &e);
        if (rc)
            return rs_msg_fail(msg, msglen, "%s", rc > 0 ? "a RAT of format COLOR_INVALID" : e.msg);
        rt->img[rat]->blend = 0;
        rt->img[rat]->rop3 = V_CB_ROP3__COPY;
        rt->ok[rat] = true;
    }
    struct cb_target *t = rt->img[rat];
    uint32_t dim = vc_reg(regs, REG_CB_COLOR_DIM(rat));
    uint32_t w = G_CB_COLOR_DIM__WIDTH_MAX(dim) + 1, h = G_CB_COLOR_DIM__HEIGHT_MAX(dim) + 1;
    bool inside = idx[0] < w && idx[0] < t->width && idx[1] < h && idx[1] < t->height;
    if (inst == V_SQ_RAT_INST__STORE_TYPED) {
        if (!inside)
            return 0;
        float rgba[4];
        memcpy(rgba, data, sizeof rgba);
        t->write_mask = comp_mask & 0xFu;
        cb_write(t, (const float[4]){0, 0, 0, 0}, idx[0], idx[1], 1u, rgba);
        return 0;
    }
    if (t->bpe > 16)
        return rs_msg_fail(msg, msglen, "RAT operation %s (%u) on a %u-byte image", inst_name(inst), inst, t->bpe);
    uint8_t el[16] = {0};
    if (inst == V_SQ_RAT_INST__NOP_RTN) {
        /* the texel as stored (or as its fast-cleared tile reads), zeros outside */
        if (inside)
            cb_read_sample_raw(t, idx[0], idx[1], 0, el);
        return rat_return(regs, mem, rat, data[1], el, t->bpe, msg, msglen);
    }
    if (!inside) {
        bool rtn;
        base_op(inst, &rtn);
        return rtn ? element_op(regs, mem, rat, inst, el, t->bpe, data, msg, msglen) : 0;
    }
    /* the element as stored: a fast-cleared tile expanded, the pixel's samples decompressed */
    if (cb_tile_cleared(t, idx[0], idx[1]))
        cb_tile_expand(t, idx[0], idx[1]);
    cb_pixel_decompress(t, idx[0], idx[1]);
    return element_op(regs, mem, rat, inst, cb_plane_ptr(t, idx[0], idx[1], 0), t->bpe, data, msg, msglen);
}

int rat_op(struct vc_render *r, struct rat_targets *rt, const struct vc_regs *regs, const struct vc_mem *mem,
           unsigned rat, unsigned inst, const uint32_t idx[4], const uint32_t data[4], unsigned comp_mask,
           char *msg, size_t msglen)
{
    if (rat >= RS_NUM_RAT)
        return rs_msg_fail(msg, msglen, "no colour buffer %u to be a RAT", rat);
    uint32_t info = vc_reg(regs, REG_CB_COLOR_INFO(rat));
    if (!G_CB_COLOR_INFO__RAT(info))
        return rs_msg_fail(msg, msglen, "CB_COLOR%u_INFO.RAT is clear", rat);
    unsigned mode = G_CB_COLOR_INFO__ARRAY_MODE(info), type = G_CB_COLOR_INFO__RESOURCE_TYPE(info);
    if (type == V_CB_RESOURCE_TYPE__TEXTURE1D || type == V_CB_RESOURCE_TYPE__TEXTURE2D)
        return image_op(r, rt, regs, mem, rat, inst, idx, data, comp_mask, msg, msglen);
    if (type != V_CB_RESOURCE_TYPE__BUFFER ||
        (mode != V_ARRAY_MODE__ARRAY_LINEAR_GENERAL && mode != V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED))
        return rs_msg_fail(msg, msglen, "a RAT of resource type %s, %s, is not modelled (buffers, 1D and 2D images)",
                           value_name("CB_RESOURCE_TYPE", type), value_name("ARRAY_MODE", mode));
    unsigned fmt = G_CB_COLOR_INFO__FORMAT(info), chans;
    switch (fmt) {
    case V_CB_FORMAT__COLOR_32: case V_CB_FORMAT__COLOR_32_FLOAT: chans = 1; break;
    case V_CB_FORMAT__COLOR_32_32: case V_CB_FORMAT__COLOR_32_32_FLOAT: chans = 2; break;
    case V_CB_FORMAT__COLOR_32_32_32_32: case V_CB_FORMAT__COLOR_32_32_32_32_FLOAT: chans = 4; break;
    default:
        return rs_msg_fail(msg, msglen, "a RAT of format %s is not modelled (only 32-bit channels)",
                           value_name("CB_FORMAT", fmt));
    }
    uint64_t addr = ((uint64_t)vc_reg(regs, REG_CB_COLOR_BASE(rat)) << 8) + (uint64_t)idx[0] * 4 * chans;
    uint8_t *p = vc_mem_ptr(mem, addr, 4 * chans);
    if (!p)
        return rs_msg_fail(msg, msglen, "element %u at 0x%llx is not inside a GPU buffer", idx[0],
                           (unsigned long long)addr);
    if (inst != V_SQ_RAT_INST__STORE_TYPED)
        return element_op(regs, mem, rat, inst, p, 4 * chans, data, msg, msglen);
    for (unsigned c = 0; c < chans; c++)
        if (comp_mask >> c & 1u)
            memcpy(p + 4 * c, &data[c], 4);
    return 0;
}

void rat_targets_reset(struct rat_targets *rt)
{
    memset(rt->ok, 0, sizeof rt->ok);
}

void rat_targets_free(struct rat_targets *rt)
{
    for (unsigned i = 0; i < RS_NUM_RAT; i++)
        free(rt->img[i]);
    memset(rt, 0, sizeof *rt);
}
