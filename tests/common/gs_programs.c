/* Hand-assembled geometry-path programs (gs_programs.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/common/gs_programs.h"

static void ring_resource(struct scene *sc, unsigned slot, uint64_t addr, uint32_t bytes)
{
    uint32_t *w = &sc->regs->resource[slot * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS];
    memset(w, 0, V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS * 4);
    w[0] = (uint32_t)addr;
    w[1] = bytes - 1;
    w[2] = S_SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI((uint32_t)(addr >> 32)) | S_SQ_VTX_CONSTANT_WORD2__STRIDE(4) |
           S_SQ_VTX_CONSTANT_WORD2__DATA_FORMAT(V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT);
    w[7] = S_SQ_VTX_CONSTANT_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER);
}

/* A 16-byte fetch from the ring resource at byte `offset` past the dword
 * index in src.chan. */
static void ring_fetch(struct eg_asm *a, unsigned dst, unsigned src, unsigned chan, unsigned offset)
{
    eg_asm_vtx(a, &(struct eg_vtx){ .inst = V_SQ_VTX_INST__FETCH, .fetch_type = V_SQ_VTX_FETCH_TYPE__NO_INDEX_OFFSET,
                                    .buffer_id = GS_RING_SLOT, .src_gpr = src, .src_sel_x = chan,
                                    .mega_fetch_count = 15, .dst_gpr = dst, .dst_sel = EG_SWZ_XYZW,
                                    .use_const_fields = true, .offset = offset, .mega_fetch = true });
}

void gsp_ring_write(struct eg_asm *a, unsigned type, unsigned base, unsigned gpr, unsigned index_gpr)
{
    eg_asm_mem(a, &(struct eg_mem_export){ .cf_inst = V_SQ_CF_INST__MEM_RING, .type = type, .array_base = base,
                                           .array_size = type ? 0xFFF : 0, .gpr = gpr, .index_gpr = index_gpr,
                                           .elem_size = 3, .comp_mask = 0xF });
}

static void alu2(struct eg_asm *a, unsigned op, unsigned dst, unsigned chan, struct eg_alu_src s0,
                 struct eg_alu_src s1, bool last)
{
    eg_asm_alu(a, &(struct eg_alu){ .op = op, .dst = { (uint8_t)dst, (uint8_t)chan, .write = true },
                                    .src = { s0, s1 }, .last = last });
}

/* R[dst] = R[x] + R[y] - R[z], component by component: (x + y) - z. */
static void add_sub(struct eg_asm *a, unsigned dst, unsigned x, unsigned y, unsigned z)
{
    for (unsigned c = 0; c < 4; c++)
        alu2(a, V_SQ_ALU_OP2__ADD, dst, c, eg_src_gpr(x, c), eg_src_gpr(y, c), c == 3);
    for (unsigned c = 0; c < 4; c++) {
        struct eg_alu_src nz = eg_src_gpr(z, c);
        nz.neg = true;
        alu2(a, V_SQ_ALU_OP2__ADD, dst, c, eg_src_gpr(dst, c), nz, c == 3);
    }
}

/* Emit the vertex in R[pos] / R[col]: its two outputs at dwords 0 and 4 of
 * vertex R7.x (elements of 4 dwords), then the index += 2. */
static void emit_vertex(struct eg_asm *a, unsigned pos, unsigned col)
{
    gsp_ring_write(a, 1, 0, pos, 7);
    gsp_ring_write(a, 1, 4, col, 7);
    eg_asm_emit(a, V_SQ_CF_INST__EMIT_VERTEX, 0);
    eg_asm_alu_clause(a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(a, V_SQ_ALU_OP2__ADD_INT, 7, 0, eg_src_gpr(7, 0), eg_src_lit_u(2), true);
}

size_t gsp_build_gs(enum gs_kind kind, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    /* the inputs' item offsets: vertices 0, 1, 2 in R0.x, R0.y, R0.w; with
     * adjacency the triangle's are vertices 0, 2, 4: R0.x, R0.w, R1.y (kept
     * in R14: the fetches write R1) */
    if (kind == GS_ADJ) {
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        alu2(&a, V_SQ_ALU_OP2__MOV, 14, 1, eg_src_gpr(1, 1), eg_src_gpr(1, 1), true);
    }
    eg_asm_vtx_clause(&a);
    const unsigned gpr[3] = { 0, 0, kind == GS_ADJ ? 14 : 0 };
    const unsigned chan[3] = { 0, kind == GS_ADJ ? 3 : 1, kind == GS_ADJ ? 1 : 3 };
    for (unsigned v = 0; v < 3; v++) {
        ring_fetch(&a, 1 + 2 * v, gpr[v], chan[v], 0);
        ring_fetch(&a, 2 + 2 * v, gpr[v], chan[v], 16);
    }
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(&a, V_SQ_ALU_OP2__MOV, 7, 0, eg_src_special(V_SQ_ALU_SRC__ZERO, 0), eg_src_gpr(0, 0), true);
    for (unsigned v = 0; v < 3; v++)
        emit_vertex(&a, 1 + 2 * v, 2 + 2 * v);
    if (kind == GS_STRIPS) {
        /* d = b + c - a, position and colour */
        add_sub(&a, 8, 3, 5, 1);
        add_sub(&a, 9, 4, 6, 2);
        emit_vertex(&a, 8, 9);
        eg_asm_emit(&a, V_SQ_CF_INST__CUT_VERTEX, 0);
        /* the triangle mirrored in y: R10, R11, R12 */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        for (unsigned v = 0; v < 3; v++)
            for (unsigned c = 0; c < 4; c++) {
                struct eg_alu_src s = eg_src_gpr(1 + 2 * v, c);
                s.neg = c == 1;
                alu2(&a, V_SQ_ALU_OP2__MOV, 10 + v, c, s, s, c == 3);
            }
        for (unsigned v = 0; v < 3; v++)
            emit_vertex(&a, 10 + v, 2 + 2 * v);
        /* an 8th vertex: past VGT_GS_MAX_VERT_OUT, dropped */
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 0, eg_src_lit_f(-1.0f), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 1, eg_src_lit_f(-0.9f), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 2, eg_src_special(V_SQ_ALU_SRC__ZERO, 0), eg_src_gpr(0, 0), false);
        alu2(&a, V_SQ_ALU_OP2__MOV, 13, 3, eg_src_special(V_SQ_ALU_SRC__ONE, 0), eg_src_gpr(0, 0), true);
        emit_vertex(&a, 13, 2);
    }
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("GS: %s", a.err);
    return n;
}

size_t gsp_build_copy(unsigned color_param, uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu2(&a, V_SQ_ALU_OP2__AND_INT, 0, 0, eg_src_gpr(0, 0), eg_src_lit_u(0x3FFFFFFFu), true);
    eg_asm_vtx_clause(&a);
    ring_fetch(&a, 1, 0, 0, 0);
    ring_fetch(&a, 2, 0, 0, 16);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS, .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0,
                                           .gpr = 1, .sel = EG_SWZ_XYZW, .done = true });
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PARAM, .array_base = color_param, .gpr = 2,
                                           .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("copy shader: %s", a.err);
    return n;
}

void gsp_install(struct scene *sc, uint8_t *area, uint64_t gpu, enum gs_kind kind, unsigned color_param)
{
    uint32_t w[1024];
    uint64_t off = 0;
    size_t n = gsp_build_gs(kind, w, 1024);
    assert_true(n * 4 <= 0x800);
    memcpy(area + off, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_GS, (uint32_t)((gpu + off) >> 8));
    off += 0x800;
    n = gsp_build_copy(color_param, w, 1024);
    assert_true(n * 4 <= 0x400);
    memcpy(area + off, w, n * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, (uint32_t)((gpu + off) >> 8));
    off += 0x400;
    uint64_t esgs = gpu + off, gsvs = esgs + GS_ESGS_BYTES;
    memset(area + off, 0, GS_ESGS_BYTES + GS_GSVS_BYTES);
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_BASE, (uint32_t)(esgs >> 8));
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_SIZE, GS_ESGS_BYTES >> 8);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_BASE, (uint32_t)(gsvs >> 8));
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_SIZE, GS_GSVS_BYTES >> 8);
    ring_resource(sc, V_SQ_FETCH_RESOURCE_BASE__GS + GS_RING_SLOT, esgs, GS_ESGS_BYTES);
    ring_resource(sc, V_SQ_FETCH_RESOURCE_BASE__VS + GS_RING_SLOT, gsvs, GS_GSVS_BYTES);
    /* two outputs of 4 dwords per vertex, on either side */
    unsigned max_out = kind == GS_STRIPS ? GS_MAX_VERT_OUT : 3;
    scene_set_reg(sc->regs, REG_SQ_ESGS_RING_ITEMSIZE, 8);
    scene_set_reg(sc->regs, REG_SQ_GS_VERT_ITEMSIZE, 8);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_ITEMSIZE, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_1, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_2, 8 * max_out);
    scene_set_reg(sc->regs, REG_SQ_GSVS_RING_OFFSET_3, 8 * max_out);
    scene_set_reg(sc->regs, REG_VGT_GS_MAX_VERT_OUT, max_out);
    scene_set_reg(sc->regs, REG_VGT_GS_OUT_PRIM_TYPE, V_VGT_GS_OUTPRIM_TYPE__OUTPRIM_TYPE_TRISTRIP);
    scene_set_reg(sc->regs, REG_VGT_GS_INSTANCE_CNT, S_VGT_GS_INSTANCE_CNT__ENABLE(1) | S_VGT_GS_INSTANCE_CNT__CNT(1));
    scene_set_reg(sc->regs, REG_VGT_GS_MODE, S_VGT_GS_MODE__MODE(V_VGT_GS_MODE__GS_SCENARIO_G));
}
