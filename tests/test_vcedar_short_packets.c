/* The command processor on bare-metal IBs (vcedar_exec_raw, no kernel
 * checks) with packets shorter than the hardware defines them.  Each IB is
 * malloc'd to its exact size, so ASan reports any read of a payload dword
 * the packet does not have.
 *
 * Packet lengths are the radeon kernel's (Linux evergreen_cs.c,
 * evergreen_packet3_check: `pkt->count != N`), opcodes from its
 * evergreend.h; operand bits from the same checks (COPY_DW bit 0 / 1 =
 * source / destination in memory, CP_DMA SRC_SEL bits 29..30 with 2 = data,
 * the byte count in bits 0..20 of the command) and from Mesa r600's
 * evergreend.h (EOP DATA_SEL in bits 29..31 of the third dword, 1 = the low
 * 32 bits; MEM_WRITE 32-bit data flag bit 18). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/vc_hw.h"
#include "cedar/vcedar.h"

#define REGION   (1u << 20)
#define TARGET   0x1000u     /* where the packets below write */

static const struct {
    const char *name;
    uint8_t opcode;
    unsigned payload;        /* the kernel's count + 1 */
} kernel_len[] = {
    { "CONTEXT_CONTROL", 0x28, 2 },
    { "INDEX_BASE", 0x26, 2 },
    { "DRAW_INDEX", 0x2B, 4 },
    { "DRAW_INDEX_2", 0x27, 5 },
    { "DRAW_INDEX_AUTO", 0x2D, 2 },
    { "DRAW_INDEX_MULTI_AUTO", 0x30, 3 },
    { "DRAW_INDEX_OFFSET", 0x29, 3 },
    { "DRAW_INDEX_OFFSET_2", 0x35, 4 },
    { "WAIT_REG_MEM", 0x3C, 6 },
    { "CP_DMA", 0x41, 5 },
    { "SURFACE_SYNC", 0x43, 4 },
    { "EVENT_WRITE_EOP", 0x47, 5 },
    { "EVENT_WRITE_EOS", 0x48, 4 },
    { "MEM_WRITE", 0x3D, 4 },
    { "COPY_DW", 0x3B, 5 },
    { "SET_PREDICATION", 0x20, 2 },
};

static uint32_t pkt3(unsigned opcode, unsigned payload)
{
    return 0xC0000000u | (uint32_t)(payload - 1) << 16 | (uint32_t)opcode << 8;
}

struct draws {
    unsigned calls;
    struct vc_draw last;
};

static int record_draw(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                       const struct vc_draw *d, struct vc_draw_err *err)
{
    (void)regs, (void)mem, (void)err;
    struct draws *dr = ctx;
    dr->calls++;
    dr->last = *d;
    dr->last.immd = NULL;
    return 0;
}

static struct vcedar *model(struct draws *dr)
{
    struct vcedar_opts o = { .draw = record_draw, .draw_ctx = dr };
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, 0, REGION), 0);
    return vc;
}

/* Run `ndw` dwords from an exactly sized heap copy. */
static int run(struct vcedar *vc, const uint32_t *dw, size_t ndw, struct vc_error *err)
{
    uint32_t *ib = malloc(ndw * 4);
    assert_non_null(ib);
    memcpy(ib, dw, ndw * 4);
    int r = vcedar_exec_raw(vc, VC_RING_GFX, ib, ndw, err);
    free(ib);
    return r;
}

static void assert_region_zero(struct vcedar *vc)
{
    static uint8_t buf[REGION];
    assert_int_equal(vcedar_mem_read(vc, 0, buf, REGION), 0);
    for (size_t i = 0; i < REGION; i++)
        if (buf[i])
            fail_msg("byte 0x%zX of memory was written (0x%02X)", i, buf[i]);
}

/* Every packet cut short by 1..payload-1 dwords, as the last thing in its
 * IB: an execution fault naming the packet, nothing drawn, nothing
 * written.  The payload the packet does have points at TARGET and asks for
 * the write / draw a full packet would do. */
static void short_packets_fault(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof kernel_len / sizeof kernel_len[0]; k++) {
        for (unsigned n = 1; n < kernel_len[k].payload; n++) {
            struct draws dr = { 0 };
            struct vcedar *vc = model(&dr);
            uint32_t dw[8] = { pkt3(kernel_len[k].opcode, n) };
            for (unsigned i = 1; i <= n; i++)
                dw[i] = TARGET;
            struct vc_error err;
            int r = run(vc, dw, 1 + n, &err);
            if (r != -1 || err.code != VC_E_EXEC)
                fail_msg("%s with %u payload dwords: status %d, error code %d", kernel_len[k].name, n,
                         r, (int)err.code);
            assert_string_equal(err.what, kernel_len[k].name);
            assert_int_equal(err.dword, 0);
            assert_int_equal(vcedar_exec_error(vc)->code, VC_E_EXEC);
            assert_int_equal(dr.calls, 0);
            struct vcedar_stats st;
            vcedar_stats(vc, &st);
            assert_int_equal(st.fences, 0);
            assert_int_equal(st.cp_dma_bytes, 0);
            assert_int_equal(st.draws, 0);
            assert_region_zero(vc);
            vcedar_destroy(vc);
        }
    }
}

/* A short packet in the middle of an IB: the packets after it still run. */
static void short_packet_then_more(void **state)
{
    (void)state;
    struct draws dr = { 0 };
    struct vcedar *vc = model(&dr);
    const uint32_t dw[] = {
        pkt3(0x3D, 2), TARGET, 0,                    /* MEM_WRITE cut to 2 dwords */
        pkt3(0x2D, 2), 3, 2,                         /* DRAW_INDEX_AUTO, 3 indices */
    };
    struct vc_error err;
    assert_int_equal(run(vc, dw, sizeof dw / 4, &err), -1);
    assert_int_equal(err.code, VC_E_EXEC);
    assert_string_equal(err.what, "MEM_WRITE");
    assert_int_equal(dr.calls, 1);
    assert_int_equal(dr.last.num_indices, 3);
    assert_region_zero(vc);
    vcedar_destroy(vc);
}

/* DRAW_INDEX_IMMD: COUNT 0 has no DRAW_INITIATOR (a fault, no draw); COUNT 1
 * is a draw with no inline indices, so its index count cannot be met from
 * the packet: the renderer is told 0 inline dwords, never a wrapped count. */
static void draw_index_immd_counts(void **state)
{
    (void)state;
    struct draws dr = { 0 };
    struct vcedar *vc = model(&dr);
    struct vc_error err;
    const uint32_t c0[] = { pkt3(0x2E, 1), 3 };
    assert_int_equal(run(vc, c0, 2, &err), -1);
    assert_int_equal(err.code, VC_E_EXEC);
    assert_string_equal(err.what, "DRAW_INDEX_IMMD");
    assert_int_equal(dr.calls, 0);

    const uint32_t c1[] = { pkt3(0x2E, 2), 3, 2 };
    assert_int_equal(run(vc, c1, 3, &err), 0);
    assert_int_equal(dr.calls, 1);
    assert_int_equal(dr.last.num_indices, 3);
    assert_int_equal(dr.last.immd_dwords, 0);

    const uint32_t c3[] = { pkt3(0x2E, 4), 3, 2, 0x00010000, 2 };
    assert_int_equal(run(vc, c3, 5, &err), 0);
    assert_int_equal(dr.calls, 2);
    assert_int_equal(dr.last.immd_dwords, 2);
    vcedar_destroy(vc);
}

static uint64_t read64(struct vcedar *vc, uint64_t addr)
{
    uint64_t v = 0;
    assert_int_equal(vcedar_mem_read(vc, addr, &v, 8), 0);
    return v;
}

/* The same packets at their full length still run (the check must not
 * refuse what the kernel accepts). */
static void full_packets_run(void **state)
{
    (void)state;
    struct draws dr = { 0 };
    struct vcedar *vc = model(&dr);
    struct vc_error err;

    const uint32_t mw[] = { pkt3(0x3D, 4), TARGET, 0, 0x11223344, 0x55667788 };
    assert_int_equal(run(vc, mw, 5, &err), 0);
    assert_int_equal(read64(vc, TARGET), 0x5566778811223344ull);

    const uint32_t eop[] = { pkt3(0x47, 5), 0, TARGET + 8, 1u << 29, 0xCAFEF00D, 0 };
    assert_int_equal(run(vc, eop, 6, &err), 0);
    assert_int_equal(read64(vc, TARGET + 8), 0xCAFEF00Dull);

    /* EOS_CNTL.COMMAND 2: store DATA (0 stores an append counter, test_vcedar_gds) */
    const uint32_t eos[] = { pkt3(0x48, 4), 0, TARGET + 16, 2u << 29, 0x600DD00D };
    assert_int_equal(run(vc, eos, 5, &err), 0);
    assert_int_equal(read64(vc, TARGET + 16), 0x600DD00Dull);

    /* memory to memory: the MEM_WRITE's low dword to TARGET + 24 */
    const uint32_t cdw[] = { pkt3(0x3B, 5), 3, TARGET, 0, TARGET + 24, 0 };
    assert_int_equal(run(vc, cdw, 6, &err), 0);
    assert_int_equal(read64(vc, TARGET + 24), 0x11223344ull);

    /* fill 8 bytes with the data dword */
    const uint32_t dma[] = { pkt3(0x41, 5), 0xA5A5A5A5, 2u << 29, TARGET + 32, 0, 8 };
    assert_int_equal(run(vc, dma, 6, &err), 0);
    assert_int_equal(read64(vc, TARGET + 32), 0xA5A5A5A5A5A5A5A5ull);

    /* WAIT_REG_MEM on memory (bit 4), function 3 (equal), met at once */
    const uint32_t wrm[] = { pkt3(0x3C, 6), 0x13, TARGET + 16, 0, 0x600DD00D, 0xFFFFFFFF, 10 };
    assert_int_equal(run(vc, wrm, 7, &err), 0);

    const uint32_t auto_[] = { pkt3(0x2D, 2), 6, 2 };
    assert_int_equal(run(vc, auto_, 3, &err), 0);
    assert_int_equal(dr.calls, 1);
    assert_int_equal(dr.last.num_indices, 6);

    const uint32_t di2[] = { pkt3(0x27, 5), 64, TARGET, 0, 3, 0 };
    assert_int_equal(run(vc, di2, 6, &err), 0);
    assert_int_equal(dr.calls, 2);
    assert_int_equal(dr.last.num_indices, 3);
    assert_int_equal(dr.last.index_addr, TARGET);
    vcedar_destroy(vc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_packets_fault),
        cmocka_unit_test(short_packet_then_more),
        cmocka_unit_test(draw_index_immd_counts),
        cmocka_unit_test(full_packets_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
