/* The command processor's append-counter packets on bare-metal IBs
 * (vcedar_exec_raw), as Mesa's evergreen_state.c emits them around a draw
 * whose shaders use atomic counters: SET_APPEND_CNT loads counter n
 * (GDS_APPEND_COUNT_n, 0x2872C + 4n) from memory (APPEND_CNT_CNTL =
 * (n's context dword offset) << 16 | SRC_SEL_MEM 3), the draw's GDS
 * operations advance it, EVENT_WRITE_EOS (event PS_DONE, index 6) with
 * COMMAND 0 stores it (DATA = the register's dword address, (0x2872C + 4n)
 * >> 2) and with COMMAND 2 stores DATA, the fence Mesa's WAIT_REG_MEM
 * polls.  Opcodes from Mesa's r600d_common.h / evergreend.h (SET_APPEND_CNT
 * 0x75, EVENT_WRITE_EOS 0x48, DRAW_INDEX_AUTO 0x2D, PS_DONE 0x30).  The draw
 * here is the test's: it runs a GDS pixel shader (ADD_RET of 1 on the
 * counter, as Mesa compiles atomicCounterIncrement) for eight lanes
 * against the memory view the command processor hands the renderer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "cedar/vc_hw.h"
#include "cedar/vcedar.h"
#include "tests/common/test_util.h"
#include "eg_regs.h"

#define REGION (1u << 20)
#define SRC 0x1000u        /* where counters are loaded from */
#define DST 0x2000u        /* where they are stored */
#define LANES 8

static uint32_t pkt3(unsigned opcode, unsigned payload)
{
    return 0xC0000000u | (uint32_t)(payload - 1) << 16 | (uint32_t)opcode << 8;
}

static uint32_t ctx_dw(unsigned n)
{
    return (0x2872Cu + 4 * n - 0x28000u) >> 2;
}

static uint32_t abs_dw(unsigned n)
{
    return (0x2872Cu + 4 * n) >> 2;
}

struct draw_log {
    unsigned draws;
    uint32_t got[LANES];
    int rc;
};

/* The draw: a pixel shader whose GDS clause adds 1 to counter 2 and returns
 * the value before into R2.x, for LANES lanes in two quads. */
static int gds_draw(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const struct vc_draw *draw,
                    struct vc_draw_err *err)
{
    (void)regs, (void)draw;
    struct draw_log *log = ctx;
    uint32_t w[12] = {
        S_SQ_CF_WORD0__ADDR(4),
        S_SQ_CF_WORD1__CF_INST(V_SQ_CF_INST__GDS) | S_SQ_CF_WORD1__VALID_PIXEL_MODE(1) | S_SQ_CF_WORD1__BARRIER(1),
        S_SQ_CF_ALLOC_EXPORT_WORD0__TYPE(V_SQ_EXPORT_TYPE__PIXEL) | S_SQ_CF_ALLOC_EXPORT_WORD0__RW_GPR(2),
        S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Y(V_SQ_INST_SEL__Y) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_Z(V_SQ_INST_SEL__Z) |
            S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__SEL_W(V_SQ_INST_SEL__W) | S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__END_OF_PROGRAM(1) |
            S_SQ_CF_ALLOC_EXPORT_WORD1_SWIZ__CF_INST(V_SQ_CF_INST__EXPORT_DONE),
        0, 0, 0, 0,
        S_SQ_MEM_GDS_WORD0__MEM_INST(V_SQ_VTX_INST__MEM) | S_SQ_MEM_GDS_WORD0__MEM_OP(V_SQ_MEM_OP__GDS) |
            S_SQ_MEM_GDS_WORD0__SRC_GPR(1) | S_SQ_MEM_GDS_WORD0__SRC_SEL_X(V_SQ_INST_SEL__ZERO) |
            S_SQ_MEM_GDS_WORD0__SRC_SEL_Y(V_SQ_INST_SEL__W) | S_SQ_MEM_GDS_WORD0__SRC_SEL_Z(V_SQ_INST_SEL__ZERO),
        S_SQ_MEM_GDS_WORD1__DST_GPR(2) | S_SQ_MEM_GDS_WORD1__GDS_OP(V_SQ_DS_OP__ADD_RET) |
            S_SQ_MEM_GDS_WORD1__UAV_ID(2) | S_SQ_MEM_GDS_WORD1__ALLOC_CONSUME(1),
        S_SQ_MEM_GDS_WORD2__DST_SEL_X(V_SQ_INST_SEL__X) | S_SQ_MEM_GDS_WORD2__DST_SEL_Y(V_SQ_INST_SEL__MASK) |
            S_SQ_MEM_GDS_WORD2__DST_SEL_Z(V_SQ_INST_SEL__MASK) | S_SQ_MEM_GDS_WORD2__DST_SEL_W(V_SQ_INST_SEL__MASK),
        0,
    };
    struct eg_program p = { "PS", w, 12 };
    struct eg_shader_env env = { .mem = mem };
    union eg_vec4 regs4[LANES][3];
    struct eg_ps_input in[LANES];
    memset(regs4, 0, sizeof regs4);
    for (unsigned l = 0; l < LANES; l++) {
        regs4[l][1].u[3] = 1;   /* the increment, in R1.w */
        in[l] = (struct eg_ps_input){ regs4[l], 3, NULL, 0 };
    }
    struct eg_ps_output out[4];
    struct eg_shader_err e;
    log->draws++;
    for (unsigned q = 0; q < LANES / 4; q++) {
        log->rc = eg_run_ps_lanes(&p, &env, &in[4 * q], 4, 0, out, &e);
        if (log->rc) {
            strncpy(err->msg, e.msg, sizeof err->msg - 1);
            return -1;
        }
        for (unsigned l = 0; l < 4; l++)
            log->got[4 * q + l] = out[l].color[0].u[0];
    }
    return 0;
}

static struct vcedar *model(struct draw_log *log)
{
    struct vcedar_opts o = { .draw = gds_draw, .draw_ctx = log };
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, 0, REGION), 0);
    return vc;
}

static void exec(struct vcedar *vc, const uint32_t *ib, size_t ndw)
{
    struct vc_error err;
    if (vcedar_exec_raw(vc, VC_RING_GFX, ib, ndw, &err))
        fail_msg("%s", err.text);
    if (vcedar_exec_error(vc)->code != VC_OK)
        fail_msg("%s", vcedar_exec_error(vc)->text);
}

/* Mesa's sequence: load counter 2 with 41, draw (eight lanes add 1 each),
 * save it, fence.  The lanes get 41..48 in order, the saved count is 49;
 * a second round goes on from what was saved. */
static void load_draw_save(void **state)
{
    (void)state;
    struct draw_log log = { 0 };
    struct vcedar *vc = model(&log);
    uint32_t v = 41;
    assert_int_equal(vcedar_mem_write(vc, SRC, &v, 4), 0);
    const uint32_t ib[] = {
        pkt3(0x75, 3), ctx_dw(2) << 16 | 3, SRC, 0,                   /* SET_APPEND_CNT counter 2 <- [SRC] */
        pkt3(0x2D, 2), 3, 2,                                          /* DRAW_INDEX_AUTO 3 vertices */
        pkt3(0x48, 4), 0x30 | 6u << 8, DST, 0u << 29, abs_dw(2),      /* EVENT_WRITE_EOS store counter 2 */
        pkt3(0x48, 4), 0x30 | 6u << 8, DST + 4, 2u << 29, 0xF00D,     /* EVENT_WRITE_EOS store DATA */
    };
    exec(vc, ib, sizeof ib / 4);
    assert_int_equal(log.draws, 1);
    for (unsigned l = 0; l < LANES; l++)
        assert_int_equal(log.got[l], 41 + l);
    assert_int_equal(test_vc_read32(vc, DST), 41 + LANES);
    assert_int_equal(test_vc_read32(vc, DST + 4), 0xF00D);
    /* the next draw loads what was saved */
    const uint32_t ib2[] = {
        pkt3(0x75, 3), ctx_dw(2) << 16 | 3, DST, 0,
        pkt3(0x2D, 2), 3, 2,
        pkt3(0x48, 4), 0x30 | 6u << 8, DST + 8, 0u << 29, abs_dw(2),
    };
    exec(vc, ib2, sizeof ib2 / 4);
    assert_int_equal(log.got[0], 41 + LANES);
    assert_int_equal(test_vc_read32(vc, DST + 8), 41 + 2 * LANES);
    vcedar_destroy(vc);
}

/* Counters are separate: 0 and 11 loaded from the packet (SRC_SEL_DATA 0,
 * a form bare metal can use) and from memory, each saved as loaded; the
 * draw's counter 2 (loaded 0) does not touch them. */
static void counters_are_separate(void **state)
{
    (void)state;
    struct draw_log log = { 0 };
    struct vcedar *vc = model(&log);
    uint32_t v = 0xABCD;
    assert_int_equal(vcedar_mem_write(vc, SRC, &v, 4), 0);
    const uint32_t ib[] = {
        pkt3(0x75, 3), ctx_dw(0) << 16 | 0, 1234, 0,
        pkt3(0x75, 3), ctx_dw(11) << 16 | 3, SRC, 0,
        pkt3(0x75, 3), ctx_dw(2) << 16 | 0, 0, 0,
        pkt3(0x2D, 2), 3, 2,
        pkt3(0x48, 4), 0x30 | 6u << 8, DST, 0, abs_dw(0),
        pkt3(0x48, 4), 0x30 | 6u << 8, DST + 4, 0, abs_dw(11),
        pkt3(0x48, 4), 0x30 | 6u << 8, DST + 8, 0, abs_dw(2),
    };
    exec(vc, ib, sizeof ib / 4);
    assert_int_equal(test_vc_read32(vc, DST), 1234);
    assert_int_equal(test_vc_read32(vc, DST + 4), 0xABCD);
    assert_int_equal(test_vc_read32(vc, DST + 8), LANES);
    vcedar_destroy(vc);
}

/* A register that is not an append counter, and the Cayman GDS store
 * (COMMAND 1), are execution faults naming the packet. */
static void bad_forms_fault(void **state)
{
    (void)state;
    const uint32_t bad[][5] = {
        { pkt3(0x75, 3), ((0x28728u - 0x28000u) >> 2) << 16 | 0, 5, 0, 0 },   /* GDS_ORDERED_WAVE_PER_SE */
        { pkt3(0x48, 4), 0x30 | 6u << 8, DST, 0, 0x28728u >> 2 },
        { pkt3(0x48, 4), 0x30 | 6u << 8, DST, 1u << 29, 2 | 1u << 16 },
    };
    const char *name[] = { "SET_APPEND_CNT", "EVENT_WRITE_EOS", "EVENT_WRITE_EOS" };
    for (unsigned i = 0; i < 3; i++) {
        struct draw_log log = { 0 };
        struct vcedar *vc = model(&log);
        struct vc_error err;
        vcedar_exec_raw(vc, VC_RING_GFX, bad[i], bad[i][0] == pkt3(0x75, 3) ? 4 : 5, &err);
        const struct vc_error *e = vcedar_exec_error(vc);
        if (e->code == VC_OK)
            fail_msg("case %u: no fault", i);
        if (!strstr(e->text, name[i]))
            fail_msg("case %u: '%s'", i, e->text);
        assert_int_equal(test_vc_read32(vc, DST), 0);
        vcedar_destroy(vc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_draw_save),
        cmocka_unit_test(counters_are_separate),
        cmocka_unit_test(bad_forms_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
