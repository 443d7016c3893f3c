/* The PM4 walker: encoder -> walker round trip, relocation ties, and
 * malformed input (truncated, oversized counts, reserved type, random
 * words) rejected with the right error and offset, never read out of bounds
 * (the buffers here are exact-size heap copies, so ASan sees any overrun). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/cmdbuf.h"
#include "cedar/pm4.h"
#include "eg_regs.h"

struct recorder {
    unsigned npackets, nregs, nrelocs, ntied;
    size_t offsets[64];
    unsigned opcodes[64];
    uint32_t reg_offsets[64], reg_values[64];
    uint32_t reloc_index[16];
    size_t reloc_target[16];
    unsigned reloc_payload[16];
    int stop_after; /* abort on this packet number (1-based), 0 never */
};

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct recorder *r = ctx;
    if (r->npackets < 64) {
        r->offsets[r->npackets] = p->offset;
        r->opcodes[r->npackets] = p->type == 3 ? p->opcode : 0x100 + p->type;
    }
    r->npackets++;
    return r->stop_after && (int)r->npackets == r->stop_after ? 7 : 0;
}

static int on_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    struct recorder *r = ctx;
    assert_int_equal(p->payload[w->payload_index], w->value);
    if (r->nregs < 64) {
        r->reg_offsets[r->nregs] = w->offset;
        r->reg_values[r->nregs] = w->value;
    }
    r->nregs++;
    return 0;
}

static int on_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *rl)
{
    struct recorder *r = ctx;
    assert_int_equal(nop->opcode, PKT3_NOP);
    if (r->nrelocs < 16) {
        r->reloc_index[r->nrelocs] = rl->index;
        r->reloc_target[r->nrelocs] = rl->tied ? rl->packet_offset : SIZE_MAX;
        r->reloc_payload[r->nrelocs] = rl->slot.payload_index;
    }
    r->nrelocs++;
    r->ntied += rl->tied;
    return 0;
}

static int walk(const uint32_t *dw, size_t n, struct recorder *r, struct eg_pm4_error *e)
{
    /* Exact-size heap copy: an overrun is an ASan error. */
    uint32_t *copy = malloc(n ? n * 4 : 1);
    assert_non_null(copy);
    if (n)
        memcpy(copy, dw, n * 4);
    struct eg_pm4_sink s = { r, on_packet, on_reg, on_reloc };
    int rc = eg_pm4_walk(copy, n, NULL, &s, e);
    free(copy);
    return rc;
}

static void round_trip(void **state)
{
    (void)state;
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    const uint32_t ctx[3] = { 0x11, 0x22, 0x33 };
    cedar_cmdbuf_set_context_regs(&cb, 0x28350, ctx, 3);
    cedar_cmdbuf_set_config_reg(&cb, 0x8C00, 0xE4F00002u);
    /* CP_DMA fill (source = data): only the destination takes a relocation */
    uint32_t dma[5] = { 0xCCCCCCCCu,
                        S_RELOC_CP_DMA_INFO__SRC_SEL(V_RELOC_CP_DMA_SEL__DATA), 0x1000, 0,
                        S_RELOC_CP_DMA_COMMAND__BYTE_COUNT(7680) };
    cedar_cmdbuf_packet(&cb, PKT3_CP_DMA, dma, 5);
    cedar_cmdbuf_reloc(&cb, 12, 0, RADEON_GEM_DOMAIN_VRAM, 0);
    /* a vertex buffer descriptor: word 7 TYPE = valid buffer */
    uint32_t vb[8] = { 0x100, 0xFF, 0, 0, 0, 0, 0,
                       S_SQ_TEX_RESOURCE_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER) };
    /* resource 160, the first vertex-fetch slot: 8 dwords each */
    cedar_cmdbuf_set_resource(&cb, SPACE_RESOURCE_START + 160 * 8 * 4, vb, 8);
    cedar_cmdbuf_reloc(&cb, 15, RADEON_GEM_DOMAIN_GTT, 0, 0);
    cedar_cmdbuf_pad(&cb, 16);
    assert_int_equal(cb.error, 0);

    struct recorder r = { 0 };
    struct eg_pm4_error e;
    assert_int_equal(walk(cb.dw, cb.ndw, &r, &e), EG_PM4_OK);
    assert_int_equal(e.code, EG_PM4_OK);
    /* packets: SET_CONTEXT_REG, SET_CONFIG_REG, CP_DMA, NOP, SET_RESOURCE, NOP, type-2... */
    assert_int_equal(r.opcodes[0], PKT3_SET_CONTEXT_REG);
    assert_int_equal(r.opcodes[1], PKT3_SET_CONFIG_REG);
    assert_int_equal(r.opcodes[2], PKT3_CP_DMA);
    assert_int_equal(r.opcodes[3], PKT3_NOP);
    assert_int_equal(r.opcodes[4], PKT3_SET_RESOURCE);
    assert_int_equal(r.opcodes[5], PKT3_NOP);
    assert_int_equal(r.opcodes[6], 0x102);
    assert_int_equal(r.offsets[1], 5);
    assert_int_equal(r.offsets[2], 8);
    /* registers: 3 context, 1 config, 8 resource words */
    assert_int_equal(r.nregs, 12);
    assert_int_equal(r.reg_offsets[0], 0x28350);
    assert_int_equal(r.reg_offsets[2], 0x28358);
    assert_int_equal(r.reg_values[2], 0x33);
    assert_int_equal(r.reg_offsets[3], 0x8C00);
    assert_int_equal(r.reg_values[3], 0xE4F00002u);
    /* relocations: CP_DMA destination (payload 2), vertex buffer base (payload 1) */
    assert_int_equal(r.nrelocs, 2);
    assert_int_equal(r.ntied, 2);
    assert_int_equal(r.reloc_index[0], 0);
    assert_int_equal(r.reloc_target[0], 8);
    assert_int_equal(r.reloc_payload[0], 2);
    assert_int_equal(r.reloc_index[1], 1);
    assert_int_equal(r.reloc_payload[1], 1);
    /* 28 dwords of packets, padded to 32 with four type-2 dwords */
    assert_int_equal(cb.ndw, 32);
    assert_int_equal(r.npackets, 6 + 4);
    cedar_cmdbuf_fini(&cb);
}

static void truncated_and_oversized(void **state)
{
    (void)state;
    struct recorder r = { 0 };
    struct eg_pm4_error e;
    /* a good packet, then SET_CONTEXT_REG count 2 with only 2 payload dwords */
    const uint32_t t[] = { 0xC0016800u, 0x300, 0xE4F00002u, 0xC0026900u, 0xD4, 0 };
    assert_int_equal(walk(t, 6, &r, &e), EG_PM4_ERR_TRUNCATED);
    assert_int_equal(e.offset, 3);
    assert_non_null(strstr(e.message, "dword 3"));
    assert_int_equal(r.npackets, 1); /* the bad packet never reaches the sink */
    /* count at its maximum (16384 payload dwords) in a 2-dword buffer */
    const uint32_t big[] = { 0xFFFF1000u | 0xC0000000u, 0 };
    memset(&r, 0, sizeof(r));
    assert_int_equal(walk(big, 2, &r, &e), EG_PM4_ERR_TRUNCATED);
    assert_int_equal(e.offset, 0);
    /* a header alone at the end */
    const uint32_t alone[] = { 0x80000000u, 0xC0001000u };
    memset(&r, 0, sizeof(r));
    assert_int_equal(walk(alone, 2, &r, &e), EG_PM4_ERR_TRUNCATED);
    assert_int_equal(e.offset, 1);
}

static void reserved_type_and_bad_counts(void **state)
{
    (void)state;
    struct recorder r = { 0 };
    struct eg_pm4_error e;
    const uint32_t t1[] = { 0x80000000u, 0x80000000u, 0x40000000u };
    assert_int_equal(walk(t1, 3, &r, &e), EG_PM4_ERR_RESERVED_TYPE);
    assert_int_equal(e.offset, 2);
    /* SET_CONTEXT_REG with only the index: no register */
    const uint32_t none[] = { 0xC0006900u, 0xD4 };
    assert_int_equal(walk(none, 2, &r, &e), EG_PM4_ERR_BAD_COUNT);
    /* SET_CONTEXT_REG running past the end of the context space */
    const uint32_t range[] = { 0xC0016900u, 0x3FF, 1 };
    assert_int_equal(walk(range, 3, &r, &e), EG_PM4_OK);
    const uint32_t range2[] = { 0xC0026900u, 0x3FF, 1, 2 };
    assert_int_equal(walk(range2, 4, &r, &e), EG_PM4_ERR_BAD_RANGE);
    /* SET_RESOURCE with 7 dwords: not a whole descriptor */
    const uint32_t res[] = { 0xC0076D00u, 0, 1, 2, 3, 4, 5, 6, 7 };
    assert_int_equal(walk(res, 9, &r, &e), EG_PM4_ERR_BAD_COUNT);
    /* CONTEXT_CONTROL must have count 1 (the kernel's check) */
    const uint32_t cc[] = { 0xC0022800u, 0, 0, 0 };
    assert_int_equal(walk(cc, 4, &r, &e), EG_PM4_ERR_BAD_COUNT);
    struct eg_pm4_opts lenient = { .lenient_counts = true };
    assert_int_equal(eg_pm4_walk(cc, 4, &lenient, NULL, &e), EG_PM4_OK);
    /* DRAW_INDIRECT / DRAW_INDEX_INDIRECT: DATA_OFFSET and DRAW_INITIATOR,
     * count 1 (the kernel's check; Mesa r600's r600_draw_vbo emits that) */
    const uint32_t ind[] = { 0xC0012400u, 0, 2, 0xC0012500u, 0, 0 };
    assert_int_equal(walk(ind, 6, &r, &e), EG_PM4_OK);
    const uint32_t ind3[] = { 0xC0032400u, 0, 2, 0, 0 };
    assert_int_equal(walk(ind3, 5, &r, &e), EG_PM4_ERR_BAD_COUNT);
    /* the fewest payload dwords each definition allows */
    assert_int_equal(eg_pm4_min_payload(eg_packet_find(0x24)), 2);
    assert_int_equal(eg_pm4_min_payload(eg_packet_find(0x2E)), 2);  /* DRAW_INDEX_IMMD: count, initiator */
    assert_int_equal(eg_pm4_min_payload(eg_packet_find(0x3C)), 6);  /* WAIT_REG_MEM */
    assert_int_equal(eg_pm4_min_payload(eg_packet_find(0x46)), 1);  /* EVENT_WRITE: count 0 or 2 */
    assert_int_equal(eg_pm4_min_payload(NULL), 0);
}

static void sink_abort(void **state)
{
    (void)state;
    const uint32_t t[] = { 0x80000000u, 0x80000000u, 0x80000000u };
    struct recorder r = { .stop_after = 2 };
    struct eg_pm4_error e;
    assert_int_equal(walk(t, 3, &r, &e), EG_PM4_ERR_ABORTED);
    assert_int_equal(e.offset, 1);
    assert_int_equal(e.sink_status, 7);
}

/* xorshift: reproducible random words; the walker either accepts a buffer
 * or names a dword offset inside it, and never overruns the exact-size copy. */
static uint32_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)*s;
}

static void random_input(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    unsigned errors = 0;
    for (unsigned iter = 0; iter < 3000; iter++) {
        size_t n = rng(&seed) % 64;
        uint32_t buf[64];
        for (size_t i = 0; i < n; i++) {
            uint32_t v = rng(&seed);
            /* bias towards plausible type-3 headers with small counts */
            if (rng(&seed) % 2)
                v = 0xC0000000u | ((rng(&seed) % 12) << 16) | ((0x10 + rng(&seed) % 0x66) << 8);
            buf[i] = v;
        }
        struct recorder r = { 0 };
        struct eg_pm4_error e;
        int rc = walk(buf, n, &r, &e);
        if (rc) {
            errors++;
            assert_true(e.offset < n);
            assert_true(e.message[0] != '\0');
        }
    }
    assert_true(errors > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(truncated_and_oversized),
        cmocka_unit_test(reserved_type_and_bad_counts),
        cmocka_unit_test(sink_abort),
        cmocka_unit_test(random_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
