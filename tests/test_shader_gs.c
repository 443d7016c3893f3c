/* The shader core's geometry-path pieces: MEM_RING* writes and the
 * EMIT_VERTEX / CUT_VERTEX / EMIT_CUT_VERTEX CF instructions, as Mesa's r600
 * (sfn) emits them for a GS: outputs written with WRITE_IND at ARRAY_BASE
 * 4 * location and an index GPR that grows by the output count per emitted
 * vertex, then the emit.  The expected ring dwords are computed by hand from
 * that layout (ARRAY_BASE in dwords, the index in elements of ELEM_SIZE + 1
 * dwords: output i of vertex k at 4 i + 4 n k with n outputs, where the copy
 * shader fetches it); the start values R0 / R1 of eg_run_stage; and that
 * outside the geometry path each of them stops the run with its name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"

#define MAX_REC 32

struct rec {
    unsigned nw, ne;
    struct { unsigned ring; uint64_t dw; uint32_t v[4]; unsigned mask; } w[MAX_REC];
    struct { unsigned stream; bool emit, cut; } e[MAX_REC];
};

static int on_ring(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg,
                   size_t msglen)
{
    struct rec *r = ctx;
    if (r->nw >= MAX_REC) {
        snprintf(msg, msglen, "too many ring writes");
        return -1;
    }
    r->w[r->nw].ring = ring;
    r->w[r->nw].dw = dw;
    memcpy(r->w[r->nw].v, v, sizeof r->w[r->nw].v);
    r->w[r->nw++].mask = mask;
    return 0;
}

static int on_emit(void *ctx, unsigned stream, bool emit, bool cut, char *msg, size_t msglen)
{
    struct rec *r = ctx;
    if (r->ne >= MAX_REC) {
        snprintf(msg, msglen, "too many emits");
        return -1;
    }
    r->e[r->ne].stream = stream;
    r->e[r->ne].emit = emit;
    r->e[r->ne++].cut = cut;
    return 0;
}

static void mov_lit(struct eg_asm *a, unsigned gpr, unsigned chan, uint32_t v, bool last)
{
    eg_asm_alu(a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { (uint8_t)gpr, (uint8_t)chan, .write = true },
                                    .src = { eg_src_lit_u(v) }, .last = last });
}

static void ring_out(struct eg_asm *a, unsigned cf_inst, unsigned base, unsigned gpr, unsigned mask)
{
    eg_asm_mem(a, &(struct eg_mem_export){ .cf_inst = cf_inst, .type = 1 /* WRITE_IND */, .array_base = base,
                                           .array_size = 0xFFF, .gpr = gpr, .index_gpr = 3, .elem_size = 3,
                                           .comp_mask = mask });
}

/* A GS with two outputs (locations 0 and 1): vertex 0 from R2 / R4, then
 * the index R3.x += 2, vertex 1 from R2 / R4 with R2.x changed, a cut; then
 * one write of stream 1 (MEM_RING1) and its EMIT_CUT_VERTEX. */
static size_t build_gs(uint32_t *w, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    mov_lit(&a, 3, 0, 0, false);          /* the export base, as sfn starts it */
    mov_lit(&a, 2, 1, 0x22, false);
    mov_lit(&a, 2, 2, 0x33, false);
    mov_lit(&a, 2, 3, 0x44, true);
    /* R2.x = R1.w (the invocation id the caller started R1 with), R4 = R0 */
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 2, 0, .write = true }, .src = { eg_src_gpr(1, 3) }, .last = true });
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__MOV, .dst = { 4, (uint8_t)c, .write = true },
                                         .src = { eg_src_gpr(0, c) }, .last = c == 3 });
    ring_out(&a, V_SQ_CF_INST__MEM_RING, 0, 2, 0xF);
    ring_out(&a, V_SQ_CF_INST__MEM_RING, 4, 4, 0x3);
    eg_asm_emit(&a, V_SQ_CF_INST__EMIT_VERTEX, 0);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){ .op = V_SQ_ALU_OP2__ADD_INT, .dst = { 3, 0, .write = true },
                                     .src = { eg_src_gpr(3, 0), eg_src_lit_u(2) }, .last = true });
    mov_lit(&a, 2, 0, 0x99, true);
    ring_out(&a, V_SQ_CF_INST__MEM_RING, 0, 2, 0xF);
    ring_out(&a, V_SQ_CF_INST__MEM_RING, 4, 4, 0xF);
    eg_asm_emit(&a, V_SQ_CF_INST__EMIT_VERTEX, 0);
    eg_asm_emit(&a, V_SQ_CF_INST__CUT_VERTEX, 0);
    ring_out(&a, V_SQ_CF_INST__MEM_RING1, 8, 2, 0x1);
    eg_asm_emit(&a, V_SQ_CF_INST__EMIT_CUT_VERTEX, 1);
    if (eg_asm_finish(&a, true, w, cap, &n))
        fail_msg("%s", a.err);
    return n;
}

static const struct eg_stage_start gs_start = {
    V_SQ_FETCH_RESOURCE_BASE__GS, V_SQ_SAMPLER_BASE__GS,
    { .u = { 0x10, 0x20, 7, 0x30 } },   /* vertex offsets 0, 1, primitive id, vertex offset 2 */
    { .u = { 0, 0, 0, 5 } },            /* invocation id 5 */
};

static void test_gs_ring_writes_and_emits(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t n = build_gs(w, 256);
    struct rec r = { 0 };
    struct eg_shader_env env = { .ctx = &r, .ring_write = on_ring, .emit = on_emit };
    struct eg_program p = { "GS", w, n };
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_stage(&p, NULL, &env, &gs_start, &out, &err))
        fail_msg("%s", err.msg);
    /* outputs i = 0, 1 of vertex k at dwords 4 i + 4 * 2 * k; the stream-1
     * write at ARRAY_BASE 8 with the index still 2: 8 + 4 * 2 */
    assert_int_equal(r.nw, 5);
    const uint64_t dw[5] = { 0, 4, 8, 12, 16 };
    const unsigned ring[5] = { 0, 0, 0, 0, 1 }, mask[5] = { 0xF, 0x3, 0xF, 0xF, 0x1 };
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(r.w[i].ring, ring[i]);
        assert_int_equal(r.w[i].dw, dw[i]);
        assert_int_equal(r.w[i].mask, mask[i]);
    }
    /* R2 = (invocation id, 0x22, 0x33, 0x44), then x = 0x99; R4 = R0 */
    const uint32_t r2a[4] = { 5, 0x22, 0x33, 0x44 }, r2b[4] = { 0x99, 0x22, 0x33, 0x44 };
    assert_memory_equal(r.w[0].v, r2a, sizeof r2a);
    assert_memory_equal(r.w[1].v, gs_start.r0.u, sizeof r2a);
    assert_memory_equal(r.w[2].v, r2b, sizeof r2b);
    assert_memory_equal(r.w[3].v, gs_start.r0.u, sizeof r2a);
    /* emit, emit, cut of stream 0; emit + cut of stream 1 */
    assert_int_equal(r.ne, 4);
    assert_true(r.e[0].emit && !r.e[0].cut && r.e[0].stream == 0);
    assert_true(r.e[1].emit && !r.e[1].cut && r.e[1].stream == 0);
    assert_true(!r.e[2].emit && r.e[2].cut && r.e[2].stream == 0);
    assert_true(r.e[3].emit && r.e[3].cut && r.e[3].stream == 1);
    /* no position or parameter export: nothing in out */
    assert_int_equal(out.pos_mask, 0);
    assert_int_equal(out.param_mask, 0);
}

/* Without the ring callbacks (a VS, a PS) the same program stops at its
 * first ring write, naming it; a PS stops at the emit. */
static void test_gs_outside_geometry_path_faults(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t n = build_gs(w, 256);
    struct eg_program p = { "VS", w, n };
    struct eg_shader_env env = { 0 };
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(eg_run_vs(&p, NULL, &env, 0, 0, &out, &err), -1);
    assert_non_null(strstr(err.msg, "MEM_RING0"));

    struct eg_asm a;
    uint32_t pw[64];
    size_t pn;
    eg_asm_init(&a);
    eg_asm_emit(&a, V_SQ_CF_INST__EMIT_VERTEX, 0);
    eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__PIXEL, .gpr = 0, .sel = EG_SWZ_XYZW, .done = true });
    if (eg_asm_finish(&a, true, pw, 64, &pn))
        fail_msg("%s", a.err);
    struct eg_program ps = { "PS", pw, pn };
    struct eg_ps_input in = { 0 };
    struct eg_ps_output po;
    assert_int_equal(eg_run_ps(&ps, &env, &in, &po, &err), -1);
    assert_non_null(strstr(err.msg, "EMIT_VERTEX"));
}

/* A ring callback's refusal stops the run with its reason. */
static int refuse(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg, size_t msglen)
{
    (void)ctx, (void)ring, (void)v, (void)mask;
    snprintf(msg, msglen, "dword %llu is outside the ring item", (unsigned long long)dw);
    return -1;
}

static void test_gs_ring_refusal_reported(void **state)
{
    (void)state;
    uint32_t w[256];
    size_t n = build_gs(w, 256);
    struct rec r = { 0 };
    struct eg_shader_env env = { .ctx = &r, .ring_write = refuse, .emit = on_emit };
    struct eg_program p = { "GS", w, n };
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(eg_run_stage(&p, NULL, &env, &gs_start, &out, &err), -1);
    assert_non_null(strstr(err.msg, "shader GS"));
    assert_non_null(strstr(err.msg, "dword 0 is outside the ring item"));
    assert_int_equal(r.ne, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gs_ring_writes_and_emits),
        cmocka_unit_test(test_gs_outside_geometry_path_faults),
        cmocka_unit_test(test_gs_ring_refusal_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
