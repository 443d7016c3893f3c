/* The command processor's stream-out packets on bare-metal IBs
 * (vcedar_exec_raw), as Mesa's r600_streamout.c emits them:
 * r600_flush_vgt_streamout writes CP_STRMOUT_CNTL = 0, EVENT_WRITE
 * SO_VGTSTREAMOUT_FLUSH, then WAIT_REG_MEM until CP_STRMOUT_CNTL.
 * OFFSET_UPDATE_DONE (bit 0) reads 1: the wait must end.  Begin loads a
 * buffer's offset with STRMOUT_BUFFER_UPDATE from the packet (dwords,
 * OFFSET_SOURCE 0) or, to append, from the filled size stored before
 * (OFFSET_SOURCE 2); end stores the filled size (STORE_BUFFER_FILLED_SIZE,
 * OFFSET_SOURCE 3 = none).  Encodings: Mesa r600d_common.h
 * (STRMOUT_SELECT_BUFFER bits 8..9, OFFSET_SOURCE bits 1..2), evergreend.h
 * (SO_VGTSTREAMOUT_FLUSH event 0x1F, CP_STRMOUT_CNTL at 0x84FC), opcodes
 * from the radeon kernel's evergreend.h.  The filled size is in bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/vc_hw.h"
#include "cedar/vcedar.h"
#include "tests/common/test_util.h"

#define REGION (1u << 20)
#define FILLED 0x1000u     /* where the filled sizes go */

static uint32_t pkt3(unsigned opcode, unsigned payload)
{
    return 0xC0000000u | (uint32_t)(payload - 1) << 16 | (uint32_t)opcode << 8;
}

static struct vcedar *model(void)
{
    struct vcedar_opts o = { 0 };
    struct vcedar *vc = vcedar_create(&o);
    assert_non_null(vc);
    assert_int_equal(vcedar_map_region(vc, 0, REGION), 0);
    return vc;
}

/* r600_flush_vgt_streamout: the wait ends (no "wait forever" fault). */
static void flush_then_wait_ends(void **state)
{
    (void)state;
    struct vcedar *vc = model();
    const uint32_t ib[] = {
        pkt3(0x68, 2), (0x84FCu - 0x8000u) >> 2, 0,     /* SET_CONFIG_REG CP_STRMOUT_CNTL = 0 */
        pkt3(0x46, 1), 0x1F,                            /* EVENT_WRITE SO_VGTSTREAMOUT_FLUSH */
        pkt3(0x3C, 6), 3, 0x84FCu >> 2, 0, 1, 1, 4,     /* WAIT_REG_MEM register, equal, ref 1, mask 1 */
    };
    struct vc_error err;
    if (vcedar_exec_raw(vc, VC_RING_GFX, ib, sizeof ib / 4, &err))
        fail_msg("%s", err.text);
    if (vcedar_exec_error(vc)->code != VC_OK)
        fail_msg("%s", vcedar_exec_error(vc)->text);
    vcedar_destroy(vc);
}

static void update(struct vcedar *vc, unsigned buf, unsigned source, bool store, uint32_t d1, uint32_t d3)
{
    const uint32_t ib[] = { pkt3(0x34, 5), (store ? 1u : 0u) | source << 1 | buf << 8, d1, 0, d3, 0 };
    struct vc_error err;
    if (vcedar_exec_raw(vc, VC_RING_GFX, ib, 6, &err))
        fail_msg("%s", err.text);
    if (vcedar_exec_error(vc)->code != VC_OK)
        fail_msg("%s", vcedar_exec_error(vc)->text);
}

/* Buffer 2: offset 8 dwords from the packet, stored as 32 bytes; appending
 * from a stored 64 bytes gives 16 dwords, stored back as 64; "none" and
 * "from the VGT's filled size" keep it; buffer 1 is another offset. */
static void buffer_update_offsets(void **state)
{
    (void)state;
    struct vcedar *vc = model();
    update(vc, 2, 0, false, 0, 8);              /* FROM_PACKET */
    update(vc, 2, 3, true, FILLED, 0);          /* NONE + store */
    assert_int_equal(test_vc_read32(vc, FILLED), 32);
    update(vc, 1, 0, false, 0, 3);
    uint32_t stored = 64;
    assert_int_equal(vcedar_mem_write(vc, FILLED + 8, &stored, 4), 0);
    update(vc, 2, 2, false, 0, FILLED + 8);     /* FROM_MEM */
    update(vc, 2, 1, true, FILLED + 16, 0);     /* FROM_VGT_FILLED_SIZE + store */
    assert_int_equal(test_vc_read32(vc, FILLED + 16), 64);
    update(vc, 1, 3, true, FILLED + 24, 0);
    assert_int_equal(test_vc_read32(vc, FILLED + 24), 12);
    vcedar_destroy(vc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flush_then_wait_ends),
        cmocka_unit_test(buffer_update_offsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
