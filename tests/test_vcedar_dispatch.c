/* DISPATCH_DIRECT through the command processor (vcedar_exec_raw), as
 * Mesa's r600 emits a dispatch (evergreen_compute.c): every context
 * register the dispatch needs written with SET_CONTEXT_REG in compute mode
 * (the type-3 header's SHADER_TYPE bit, RADEON_CP_PACKET3_COMPUTE_MODE),
 * VGT_COMPUTE_THREAD_GROUP_SIZE with SET_CONFIG_REG, then DISPATCH_DIRECT
 * (DIM_X, DIM_Y, DIM_Z, VGT_DISPATCH_INITIATOR = 1) and EVENT_WRITE
 * SAMPLE_PIPELINESTAT, whose eleventh 64-bit counter is CS invocations
 * (Mesa r600_query.c).  Checked:
 * - the compute-mode context registers are the dispatch's: the same
 *   registers written in graphics mode afterwards (another thread count,
 *   another RAT base) change nothing it does;
 * - every thread stores tid + 4 * gid at element tid + 4 * gid (a RAT
 *   buffer), 12 threads counted;
 * - a dispatch whose registers were written in graphics mode only sees
 *   none of them (a fault naming its zero SPI_COMPUTE_INPUT_CNTL), stores
 *   and counts nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "cedar/vcedar.h"
#include "eg_regs.h"

#define REGION (1u << 20)
#define PROG 0x10000u
#define RAT_BUF 0x20000u
#define OTHER_BUF 0x30000u
#define STATS 0x40000u
#define SENTINEL 0xDEADBEEFu

struct ib {
    uint32_t dw[256];
    size_t n;
};

static void put(struct ib *b, uint32_t v)
{
    assert_true(b->n < 256);
    b->dw[b->n++] = v;
}

static void header(struct ib *b, unsigned opcode, unsigned payload, bool compute)
{
    put(b, 0xC0000000u | (uint32_t)(payload - 1) << 16 | (uint32_t)opcode << 8 |
               S_PM4_TYPE3_HEADER__SHADER_TYPE(compute ? 1 : 0));
}

static void ctx_reg(struct ib *b, uint32_t off, uint32_t v, bool compute)
{
    header(b, PKT3_SET_CONTEXT_REG, 2, compute);
    put(b, (off - SPACE_CONTEXT_START) / 4);
    put(b, v);
}

static void cfg_reg(struct ib *b, uint32_t off, uint32_t v)
{
    header(b, PKT3_SET_CONFIG_REG, 2, false);
    put(b, (off - SPACE_CONFIG_START) / 4);
    put(b, v);
}

/* The compute state of a dispatch of groups of 4 threads, each register
 * written in compute mode or not. */
static void state(struct ib *b, bool compute, uint32_t threads_x, uint32_t rat_base)
{
    ctx_reg(b, REG_SQ_PGM_START_LS, PROG >> 8, compute);
    ctx_reg(b, REG_SPI_COMPUTE_INPUT_CNTL,
            S_SPI_COMPUTE_INPUT_CNTL__TID_IN_GROUP_ENA(1) | S_SPI_COMPUTE_INPUT_CNTL__TGID_ENA(1) |
                S_SPI_COMPUTE_INPUT_CNTL__DISABLE_INDEX_PACK(1),
            compute);
    ctx_reg(b, REG_SPI_COMPUTE_NUM_THREAD_X, threads_x, compute);
    ctx_reg(b, REG_SPI_COMPUTE_NUM_THREAD_Y, 1, compute);
    ctx_reg(b, REG_SPI_COMPUTE_NUM_THREAD_Z, 1, compute);
    ctx_reg(b, REG_CB_COLOR_BASE(1), rat_base >> 8, compute);
    ctx_reg(b, REG_CB_COLOR_INFO(1),
            S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_32) |
                S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED) |
                S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UINT) | S_CB_COLOR_INFO__RAT(1) |
                S_CB_COLOR_INFO__RESOURCE_TYPE(V_CB_RESOURCE_TYPE__BUFFER),
            compute);
}

static void dispatch_and_sample(struct ib *b, uint32_t groups)
{
    cfg_reg(b, REG_VGT_COMPUTE_THREAD_GROUP_SIZE, 4);
    header(b, PKT3_DISPATCH_DIRECT, 4, true);
    put(b, groups);
    put(b, 1);
    put(b, 1);
    put(b, S_VGT_DISPATCH_INITIATOR__COMPUTE_SHADER_EN(1));
    header(b, PKT3_EVENT_WRITE, 3, false);
    put(b, S_EVENT_CNTL__EVENT_TYPE(V_VGT_EVENT_TYPE__SAMPLE_PIPELINESTAT));
    put(b, STATS);
    put(b, 0);
}

static const struct eg_alu_src zero = {.sel = V_SQ_ALU_SRC__ZERO};

/* R2.x = tid.x + (gid.x << 2); RAT 1 element R2.x <- R2.x. */
static void program(struct vcedar *vc)
{
    struct eg_asm a;
    uint32_t w[128];
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&a, &(struct eg_alu){.op = V_SQ_ALU_OP2__LSHL_INT, .dst = {2, 1, .write = true},
                                    .src = {eg_src_gpr(1, 0), eg_src_lit_u(2), zero}, .last = true});
    eg_asm_alu(&a, &(struct eg_alu){.op = V_SQ_ALU_OP2__ADD_INT, .dst = {2, 0, .write = true},
                                    .src = {eg_src_gpr(0, 0), eg_src_gpr(2, 1), zero}, .last = true});
    eg_asm_mem(&a, &(struct eg_mem_export){
                       .cf_inst = V_SQ_CF_INST__MEM_RAT, .type = 1,
                       .array_base = S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(1) |
                                     S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INST(V_SQ_RAT_INST__STORE_TYPED),
                       .gpr = 2, .index_gpr = 2, .comp_mask = 1});
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, w, 128, &n))
        fail_msg("%s", a.err);
    assert_int_equal(vcedar_mem_write(vc, PROG, w, n * 4), 0);
}

static struct vcedar *model(void)
{
    struct vcedar_opts o = {0};
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, 0, REGION), 0);
    uint32_t *fill = malloc(0x20000);
    assert_non_null(fill);
    for (unsigned i = 0; i < 0x20000 / 4; i++)
        fill[i] = SENTINEL;
    assert_int_equal(vcedar_mem_write(vc, RAT_BUF, fill, 0x20000), 0);
    free(fill);
    program(vc);
    return vc;
}

static uint32_t rd(struct vcedar *vc, uint64_t addr)
{
    uint32_t v;
    assert_int_equal(vcedar_mem_read(vc, addr, &v, 4), 0);
    return v;
}

static uint64_t cs_invocations(struct vcedar *vc)
{
    uint64_t v;
    assert_int_equal(vcedar_mem_read(vc, STATS + 10 * 8, &v, 8), 0);
    return v;
}

static void test_compute_bank(void **state_)
{
    (void)state_;
    struct vcedar *vc = model();
    struct ib b = {.n = 0};
    state(&b, true, 4, RAT_BUF);
    /* the draws' copies: another thread count and RAT base */
    ctx_reg(&b, REG_SPI_COMPUTE_NUM_THREAD_X, 2, false);
    ctx_reg(&b, REG_CB_COLOR_BASE(1), OTHER_BUF >> 8, false);
    dispatch_and_sample(&b, 3);
    struct vc_error err;
    if (vcedar_exec_raw(vc, VC_RING_GFX, b.dw, b.n, &err) || vcedar_exec_error(vc)->code != VC_OK)
        fail_msg("%s", vcedar_exec_error(vc)->text);
    for (uint32_t e = 0; e < 12; e++)
        assert_int_equal(rd(vc, RAT_BUF + 4 * e), e);
    assert_int_equal(rd(vc, RAT_BUF + 4 * 12), SENTINEL);
    assert_int_equal(rd(vc, OTHER_BUF), SENTINEL);
    assert_int_equal(cs_invocations(vc), 12);
    struct vcedar_stats st;
    vcedar_stats(vc, &st);
    assert_int_equal(st.dispatches, 1);
    vcedar_destroy(vc);
}

static void test_graphics_writes_unseen(void **state_)
{
    (void)state_;
    struct vcedar *vc = model();
    struct ib b = {.n = 0};
    state(&b, false, 4, RAT_BUF);
    dispatch_and_sample(&b, 3);
    struct vc_error err;
    assert_int_equal(vcedar_exec_raw(vc, VC_RING_GFX, b.dw, b.n, &err), -1);
    const char *why = vcedar_exec_error(vc)->text;
    if (!strstr(why, "SPI_COMPUTE_INPUT_CNTL 0x0 is not modelled"))
        fail_msg("%s", why);
    assert_int_equal(rd(vc, RAT_BUF), SENTINEL);
    assert_int_equal(cs_invocations(vc), 0);
    vcedar_destroy(vc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_bank),
        cmocka_unit_test(test_graphics_writes_unseen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
