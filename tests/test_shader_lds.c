/* The local data share and TF_WRITE in the shader core (src/shader/lds.c):
 *
 * - two programs exactly as Mesa 22.3's r600 compiled them on this machine
 *   (R600_DEBUG=vs,tcs for piglit's "textureSize tes sampler2DMS"): the
 *   vertex shader run as the LS, which fetches the input vertex size from
 *   the LDS-info constant buffer (fetch resource 16 of the stage) and writes
 *   its attribute R1 with two LDS_WRITE_RELs at R0.y * size; and the
 *   fixed-function hull shader, which writes the default levels (1.0) at
 *   its patch's per-patch offset, then, in invocation 0 only, reads them
 *   back (three LDS_READ_RETs, the pops in one group) and writes the four
 *   factors of a triangle with TF_WRITE at R0.w + R0.y * 16;
 * - hand-encoded LDS_WRITE / ADD_RET / READ_RET / CMP_XCHG_RET / XCHG_RET /
 *   MSKOR against values worked by hand;
 * - two invocations run as one thread group across a GROUP_BARRIER, each
 *   reading the word the other wrote before it;
 * - the faults: an opcode not modelled, an address outside the LDS, a pop
 *   of an empty queue, LDS or TF_WRITE where the stage has none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

/* Mesa's words (the listing's 4th dwords of 128-bit instructions and the
 * literal pads, which it does not print, are 0). */
static const uint32_t mesa_tcs[108] = {
    0x00000008, 0xA0040000, 0x0000000A, 0x80800000, 0x0000000C, 0xA41C0000,
    0x00000007, 0x82800001, 0x00000014, 0xA0600000, 0x0000002E, 0x80C00C00,
    0x00000007, 0x83800001, 0x00000000, 0x80200000, 0x001F0800, 0x00401D10,
    0x800000F8, 0x60400C90, 0x43021040, 0xE88FF001, 0x00080010, 0x00000000,
    0x80800001, 0x20220C01, 0x001FA4FE, 0x00001A10, 0x809FC4FD, 0x40001A10,
    0x00000010, 0x00000008, 0x801F20FE, 0x09C220F9, 0x801F2401, 0x09C220F9,
    0x801F2800, 0x09C220F9, 0x801F0002, 0x2FE02284, 0x00000401, 0x00280C90,
    0x001FA401, 0x20481A10, 0x009FA401, 0x40081A10, 0x811FA400, 0x60420C00,
    0x00000004, 0x00000008, 0x00000010, 0x00000000, 0x001F00FE, 0x064220F8,
    0x801FACFE, 0x40201A10, 0x00000004, 0x00000000, 0x801F0402, 0x064220F8,
    0x801F0800, 0x064220F8, 0x800000DD, 0x00600C90, 0x00000C02, 0x00200C90,
    0x800000DD, 0x20000C90, 0x001FAC02, 0x00401A10, 0x00000003, 0x20200C90,
    0x000000DD, 0x40000C90, 0x800004FE, 0x60200C90, 0x00000008, 0x00000000,
    0x001F0000, 0x064220F8, 0x800008FE, 0x20400C90, 0x001FAC02, 0x00601A10,
    0x800000DD, 0x40000C90, 0x0000000C, 0x00000000, 0x800008FE, 0x20600C90,
    0x00000000, 0x00000000, 0x11A00D02, 0x00000000, 0x00000FFF, 0x00000000,
    0x10800D02, 0x00000000, 0x00000FFF, 0x00000000, 0x10801502, 0x00000000,
    0x00000FFF, 0x00000000, 0x10801D02, 0x00000000, 0x00000FFF, 0x00000000,
};
static const uint32_t mesa_ls[26] = {
    0x00000000, 0x84C00000, 0x00000005, 0xA0000000, 0x00000006, 0x80800000,
    0x00000008, 0xA0100000, 0x00000000, 0x80200000, 0x800000F8, 0x20600C90,
    0x41031040, 0xE89F9E02, 0x00080000, 0x00000000, 0x80800402, 0x60005A90,
    0x00002CFE, 0x09C22401, 0x819FC0FD, 0x20001A10, 0x00000008, 0x00000000,
    0x810024FE, 0x09C22C01,
};

/* ---- the environment: an LDS, the LDS-info buffer, the factors ---------- */

#define CB_ADDR 0x10000u
static uint32_t cbuf[8];   /* input_patch_size, input_vertex_size, ncp in, ncp out, output_patch_size,
                              output_vertex_size, output_patch0_offset, perpatch_output_offset */

static void *mem_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    (void)ctx;
    if (addr < CB_ADDR || addr + len > CB_ADDR + sizeof cbuf)
        return NULL;
    return (uint8_t *)cbuf + (addr - CB_ADDR);
}
static const struct vc_mem mem = {.ctx = NULL, .ptr = mem_ptr};

struct ctx {
    unsigned cb_resource;
    unsigned ntf;
    uint32_t tf_addr[8], tf_val[8];
};

static int vtx_res(void *c, unsigned res, struct eg_vtx_resource *out, char *msg, size_t len)
{
    struct ctx *x = c;
    if (res != x->cb_resource) {
        snprintf(msg, len, "no resource %u", res);
        return -1;
    }
    *out = (struct eg_vtx_resource){.base = CB_ADDR, .size = sizeof cbuf, .stride = 16};
    return 0;
}

static int tf_write(void *c, uint32_t addr, uint32_t value, char *msg, size_t len)
{
    struct ctx *x = c;
    if (x->ntf == 8) {
        snprintf(msg, len, "too many");
        return -1;
    }
    x->tf_addr[x->ntf] = addr;
    x->tf_val[x->ntf++] = value;
    return 0;
}

static uint8_t lds[512];

static struct eg_shader_env env_for(struct ctx *x)
{
    struct eg_shader_env e;
    memset(&e, 0, sizeof e);
    e.ctx = x;
    e.mem = &mem;
    e.vtx_resource = vtx_res;
    e.lds = lds;
    e.lds_bytes = sizeof lds;
    e.tf_write = tf_write;
    return e;
}

static uint32_t lds_word(unsigned a)
{
    uint32_t v;
    memcpy(&v, lds + a, 4);
    return v;
}

static int run(const uint32_t *dw, size_t ndw, const struct eg_program *fs, const struct eg_shader_env *e,
               unsigned res_base, const uint32_t r0[4], const uint32_t r1[4], struct eg_vs_output *out,
               struct eg_shader_err *err)
{
    struct eg_program p = {"T", dw, ndw};
    struct eg_stage_start st = {res_base, 0, {.u = {r0[0], r0[1], r0[2], r0[3]}}, {.u = {r1[0], r1[1], r1[2], r1[3]}}};
    return eg_run_stage(&p, fs, e, &st, out, err);
}

/* ---- Mesa's programs ------------------------------------------------------ */

static void mesa_ls_writes_its_vertex(void **state)
{
    (void)state;
    memset(lds, 0xAB, sizeof lds);
    cbuf[1] = 32;   /* input vertex size: two vec4 outputs */
    struct ctx x = {.cb_resource = V_SQ_FETCH_RESOURCE_BASE__LS + 16};
    struct eg_shader_env e = env_for(&x);
    /* the fetch shader is not the subject: one that returns at once, the
     * attribute it would have fetched already in R1 */
    uint32_t ret_w[2] = {0, S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__RETURN) | S_SQ_CF_WORD1__BARRIER(1)};
    struct eg_program fs = {"FS", ret_w, 2};
    struct eg_vs_output out;
    struct eg_shader_err err;
    const uint32_t r0[4] = {7, 3, 0, 0}, r1[4] = {test_f2u(1.5f), test_f2u(-2.0f), 0x12345678u, 0xFFFFFFFFu};
    if (run(mesa_ls, 26, &fs, &e, V_SQ_FETCH_RESOURCE_BASE__LS, r0, r1, &out, &err))
        fail_msg("%s", err.msg);
    /* vertex 3 at 3 * 32 = 96: x, y, z, w; the words around it untouched */
    assert_int_equal(lds_word(96), test_f2u(1.5f));
    assert_int_equal(lds_word(100), test_f2u(-2.0f));
    assert_int_equal(lds_word(104), 0x12345678u);
    assert_int_equal(lds_word(108), 0xFFFFFFFFu);
    assert_int_equal(lds_word(92), 0xABABABABu);
    assert_int_equal(lds_word(112), 0xABABABABu);
    assert_int_equal(out.pos_mask, 0);
    assert_int_equal(out.param_mask, 0);
}

static void mesa_tcs_writes_factors(void **state)
{
    (void)state;
    for (unsigned inv = 0; inv < 2; inv++) {
        memset(lds, 0, sizeof lds);
        cbuf[4] = 96;    /* output patch size */
        cbuf[7] = 64;    /* per-patch outputs at 64 */
        struct ctx x = {.cb_resource = V_SQ_FETCH_RESOURCE_BASE__HS + 16};
        struct eg_shader_env e = env_for(&x);
        struct eg_vs_output out;
        struct eg_shader_err err;
        /* R0: primitive 5, relative patch 1, invocation inv, factor base 0x40 */
        const uint32_t r0[4] = {5, 1, inv, 0x40}, r1[4] = {0};
        if (run(mesa_tcs, 108, NULL, &e, V_SQ_FETCH_RESOURCE_BASE__HS, r0, r1, &out, &err))
            fail_msg("%s", err.msg);
        /* patch 1's per-patch outputs at 96 + 64: outer 0..3, then inner 0, 1 */
        for (unsigned k = 0; k < 6; k++)
            assert_int_equal(lds_word(160 + 4 * k), test_f2u(1.0f));
        assert_int_equal(lds_word(156), 0);
        assert_int_equal(lds_word(184), 0);
        if (inv) {
            assert_int_equal(x.ntf, 0);
            continue;
        }
        /* a triangle's four factors at 0x40 + 1 * 16, in any order */
        assert_int_equal(x.ntf, 4);
        unsigned seen = 0;
        for (unsigned k = 0; k < 4; k++) {
            assert_true(x.tf_addr[k] >= 0x50 && x.tf_addr[k] < 0x60 && x.tf_addr[k] % 4 == 0);
            seen |= 1u << (x.tf_addr[k] - 0x50) / 4;
            assert_int_equal(x.tf_val[k], test_f2u(1.0f));
        }
        assert_int_equal(seen, 0xF);
    }
}

/* ---- hand-encoded ---------------------------------------------------------- */

static uint32_t w0_src(unsigned s0, unsigned c0, unsigned s1, unsigned c1, bool last)
{
    return S_SQ_ALU_WORD0__SRC0_SEL(s0) | S_SQ_ALU_WORD0__SRC0_CHAN(c0) | S_SQ_ALU_WORD0__SRC1_SEL(s1) |
           S_SQ_ALU_WORD0__SRC1_CHAN(c1) | S_SQ_ALU_WORD0__LAST(last);
}

/* An LDS op: address R(s0).c0, data sources given, index offset idx. */
static void lds_op(uint32_t *w, unsigned op, unsigned s0, unsigned c0, unsigned s1, unsigned c1, unsigned s2,
                   unsigned c2, unsigned idx)
{
    w[0] = w0_src(s0, c0, s1, c1, true) | S_SQ_ALU_WORD0_LDS_IDX_OP__IDX_OFFSET_4(idx >> 4 & 1) |
           S_SQ_ALU_WORD0_LDS_IDX_OP__IDX_OFFSET_5(idx >> 5 & 1);
    w[1] = S_SQ_ALU_WORD1_OP3__SRC2_SEL(s2) | S_SQ_ALU_WORD1_OP3__SRC2_CHAN(c2) |
           S_SQ_ALU_WORD1_OP3__ALU_INST(V_SQ_ALU_OP3__LDS_IDX_OP) | S_SQ_ALU_WORD1_LDS_IDX_OP__LDS_OP(op) |
           S_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_0(idx & 1) | S_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_1(idx >> 1 & 1) |
           S_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_2(idx >> 2 & 1) | S_SQ_ALU_WORD1_LDS_IDX_OP__IDX_OFFSET_3(idx >> 3 & 1);
}

/* MOV R3.c <- LDS_OQ_A_POP */
static void pop(uint32_t *w, unsigned c, bool last)
{
    w[0] = w0_src(V_SQ_ALU_SRC__LDS_OQ_A_POP, 0, 0, 0, last);
    w[1] = S_SQ_ALU_WORD1_OP2__ALU_INST(V_SQ_ALU_OP2__MOV) | S_SQ_ALU_WORD1_OP2__WRITE_MASK(1) |
           S_SQ_ALU_WORD1_OP2__DST_GPR(3) | S_SQ_ALU_WORD1_OP2__DST_CHAN(c);
}

/* The CF words of a program of one ALU clause (nslots slots, filled in
 * w + 4 by the caller) and an EXPORT_DONE of R3 as position 0; its dwords. */
static size_t clause_program(uint32_t *w, unsigned nslots)
{
    w[0] = S_SQ_CF_ALU_WORD0__ADDR(2);
    w[1] = S_SQ_CF_ALU_WORD1__COUNT(nslots - 1) | S_SQ_CF_ALU_WORD1__CF_INST(V_SQ_CF_ALU_INST__ALU) |
           S_SQ_CF_ALU_WORD1__BARRIER(1);
    w[2] = S_SQ_CF_ALLOC_EXPORT_WORD0__ARRAY_BASE(V_SQ_EXPORT_ARRAY_BASE__POS0) |
           S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(V_SQ_EXPORT_TYPE__POS) | S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(3);
    w[3] = S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_X(V_SQ_INST_SEL__X) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(V_SQ_INST_SEL__Y) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(V_SQ_INST_SEL__Z) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(V_SQ_INST_SEL__W) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(1) |
           S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(V_SQ_CF_INST__EXPORT_DONE) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__BARRIER(1);
    return 4 + 2 * (size_t)nslots;
}

/* Run that program with R0 and R1 given. */
static int run_clause(uint32_t *w, unsigned nslots, const struct eg_shader_env *e, const uint32_t r0[4],
                      const uint32_t r1[4], struct eg_vs_output *out, struct eg_shader_err *err)
{
    return run(w, clause_program(w, nslots), NULL, e, 0, r0, r1, out, err);
}

static void ops_and_queue(void **state)
{
    (void)state;
    memset(lds, 0, sizeof lds);
    struct ctx x = {0};
    struct eg_shader_env e = env_for(&x);
    uint32_t w[64] = {0}, *a = w + 4;
    const unsigned Z = V_SQ_ALU_SRC__ZERO;
    /* R0 = (8, 7, 5, 0xF0F0), R1 = (12, 99, 0x0FF0, 0x1234) */
    lds_op(a + 0, V_SQ_LDS_OP__WRITE, 0, 0, 0, 1, Z, 0, 0);            /* [8] = 7 */
    lds_op(a + 2, V_SQ_LDS_OP__ADD_RET, 0, 0, 0, 2, Z, 0, 0);          /* push 7, [8] = 12 */
    lds_op(a + 4, V_SQ_LDS_OP__READ_RET, 0, 0, Z, 0, Z, 0, 0);         /* push 12 */
    lds_op(a + 6, V_SQ_LDS_OP__CMP_XCHG_RET, 0, 0, 1, 0, 1, 1, 0);     /* 12 == 12: push 12, [8] = 99 */
    lds_op(a + 8, V_SQ_LDS_OP__CMP_XCHG_RET, 0, 0, 1, 0, 1, 3, 0);     /* 99 != 12: push 99, [8] stays */
    pop(a + 10, 0, false);                                            /* R3.x = 7, R3.y = 12: one group */
    pop(a + 12, 1, true);
    pop(a + 14, 2, false);                                            /* R3.z = 12, R3.w = 99 */
    pop(a + 16, 3, true);
    lds_op(a + 18, V_SQ_LDS_OP__XCHG_RET, 0, 0, 1, 2, Z, 0, 0);        /* push 99, [8] = 0x0FF0 */
    lds_op(a + 20, V_SQ_LDS_OP__MSKOR, 0, 0, 0, 3, 1, 3, 0);           /* [8] = (0x0FF0 & ~0xF0F0) | 0x1234 */
    lds_op(a + 22, V_SQ_LDS_OP__WRITE_REL, 1, 0, 0, 1, 0, 2, 3);       /* [12] = 7, [12 + 4 * 3] = 5 */
    const uint32_t r0[4] = {8, 7, 5, 0xF0F0}, r1[4] = {12, 99, 0x0FF0, 0x1234};
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(run_clause(w, 12, &e, r0, r1, &out, &err), 0);
    assert_int_equal(out.pos[0].u[0], 7);
    assert_int_equal(out.pos[0].u[1], 12);
    assert_int_equal(out.pos[0].u[2], 12);
    assert_int_equal(out.pos[0].u[3], 99);
    assert_int_equal(lds_word(8), 0x1F34);
    assert_int_equal(lds_word(12), 7);
    assert_int_equal(lds_word(16), 0);
    assert_int_equal(lds_word(20), 0);
    assert_int_equal(lds_word(24), 5);
}

/* One instruction's fault, its message holding `want`. */
static void expect_fault(const struct eg_shader_env *e, unsigned op, uint32_t addr, bool pop_first, const char *want)
{
    uint32_t w[16] = {0};
    if (pop_first)
        pop(w + 4, 0, true);
    else
        lds_op(w + 4, op, 0, 0, 0, 1, V_SQ_ALU_SRC__ZERO, 0, 0);
    const uint32_t r0[4] = {addr, 1, 2, 3}, r1[4] = {0};
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(run_clause(w, 1, e, r0, r1, &out, &err), -1);
    if (!strstr(err.msg, want) || !strstr(err.msg, "PC 0"))
        fail_msg("\"%s\" does not say \"%s\" and PC 0", err.msg, want);
}

static void faults(void **state)
{
    (void)state;
    struct ctx x = {0};
    struct eg_shader_env e = env_for(&x);
    expect_fault(&e, V_SQ_LDS_OP__WRITE2, 0, false, "unsupported LDS instruction LDS_WRITE2 (0x0f)");
    expect_fault(&e, V_SQ_LDS_OP__WRITE, sizeof lds, false, "LDS address 0x200 is outside the 512-byte LDS");
    expect_fault(&e, V_SQ_LDS_OP__READ_RET, 6, false, "not dword-aligned");
    expect_fault(&e, 0, 0, true, "LDS_OQ_A_POP of an empty LDS output queue");
    e.lds = NULL;
    expect_fault(&e, V_SQ_LDS_OP__WRITE, 0, false, "LDS_WRITE (0x0d) outside a stage with a local data share");
    /* TF_WRITE where there is nowhere to write */
    e = env_for(&x);
    e.tf_write = NULL;
    x.cb_resource = V_SQ_FETCH_RESOURCE_BASE__HS + 16;
    cbuf[4] = 96;
    cbuf[7] = 64;
    const uint32_t r0[4] = {0, 0, 0, 0}, r1[4] = {0};
    struct eg_vs_output out;
    struct eg_shader_err err;
    assert_int_equal(run(mesa_tcs, 108, NULL, &e, V_SQ_FETCH_RESOURCE_BASE__HS, r0, r1, &out, &err), -1);
    assert_non_null(strstr(err.msg, "TF_WRITE outside a hull shader"));
}

/* A thread group's invocations in lockstep: each writes its word, passes a
 * GROUP_BARRIER, reads the other's and stores it; run one after another the
 * first would read the second's word before it is written. */
static void barrier_between_lanes(void **state)
{
    (void)state;
    memset(lds, 0, sizeof lds);
    struct ctx x = {0};
    struct eg_shader_env e = env_for(&x);
    uint32_t w[64] = {0}, *a = w + 4;
    const unsigned Z = V_SQ_ALU_SRC__ZERO;
    lds_op(a + 0, V_SQ_LDS_OP__WRITE, 0, 0, 0, 1, Z, 0, 0);     /* [R0.x] = R0.y */
    a[2] = w0_src(Z, 0, Z, 0, true);
    a[3] = S_SQ_ALU_WORD1_OP2__ALU_INST(V_SQ_ALU_OP2__GROUP_BARRIER);
    lds_op(a + 4, V_SQ_LDS_OP__READ_RET, 0, 2, Z, 0, Z, 0, 0);  /* push [R0.z] */
    pop(a + 6, 0, true);                                        /* R3.x */
    lds_op(a + 8, V_SQ_LDS_OP__WRITE, 0, 3, 3, 0, Z, 0, 0);     /* [R0.w] = R3.x */
    struct eg_program p = {"HS", w, clause_program(w, 5)};
    /* lane l: writes 100 + l at 4 l, reads 4 (1 - l), stores at 64 + 4 l */
    const union eg_vec4 r0[2] = {{.u = {0, 100, 4, 64}}, {.u = {4, 101, 0, 68}}};
    const struct eg_stage_start st = {V_SQ_FETCH_RESOURCE_BASE__HS, V_SQ_SAMPLER_BASE__HS, {.u = {0}}, {.u = {0}}};
    struct eg_vs_output out;
    struct eg_shader_err err;
    if (eg_run_stage_lanes(&p, &e, &st, r0, 2, &out, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(lds_word(64), 101);
    assert_int_equal(lds_word(68), 100);
    assert_int_equal(eg_run_stage_lanes(&p, &e, &st, r0, EG_STAGE_MAX_LANES + 1, &out, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mesa_ls_writes_its_vertex), cmocka_unit_test(mesa_tcs_writes_factors),
        cmocka_unit_test(ops_and_queue), cmocka_unit_test(faults), cmocka_unit_test(barrier_between_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
