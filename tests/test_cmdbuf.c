/* The PM4 encoder: buffer growth and limits, header layout checked against
 * the radeon kernel's own macros (libdrm/kernel PACKET3(op, n) =
 * 3 << 30 | (n & 0x3FFF) << 16 | (op & 0xFF) << 8, evergreend.h), the NOP
 * relocation form Mesa's streams carry (0xC0001000 then index x 4), and
 * libdrm's relocation merging rules (radeon_cs_gem.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/cmdbuf.h"
#include "eg_regs.h"

/* The kernel's definition, written out independently of the database. */
#define KERNEL_PACKET3(op, n) ((3u << 30) | (((n) & 0x3FFFu) << 16) | (((op) & 0xFFu) << 8))

static void header_matches_kernel(void **state)
{
    (void)state;
    /* Opcodes as numbers from evergreend.h, not from the database. */
    assert_int_equal(cedar_pm4_type3_header(0x69, 2, false), KERNEL_PACKET3(0x69, 1));
    assert_int_equal(cedar_pm4_type3_header(0x10, 1, false), 0xC0001000u); /* Mesa's reloc NOP */
    assert_int_equal(cedar_pm4_type3_header(0x28, 2, false), 0xC0012800u); /* cs_003 dword 0 */
    assert_int_equal(cedar_pm4_type3_header(0x41, 16384, true), KERNEL_PACKET3(0x41, 16383) | 1u);
    assert_int_equal(cedar_pm4_type2(), 0x80000000u); /* PACKET2(0) */
}

static void set_context_reg_layout(void **state)
{
    (void)state;
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    /* cs_003 dword 0x11: SET_CONTEXT_REG index 0xD4 (0x28350 SX_MISC) 0, 0xF */
    const uint32_t v[2] = { 0, 0xF };
    assert_int_equal(cedar_cmdbuf_set_context_regs(&cb, 0x28350, v, 2), 0);
    const uint32_t want[] = { 0xC0026900u, 0xD4, 0, 0xF };
    assert_int_equal(cb.ndw, 4);
    assert_memory_equal(cb.dw, want, sizeof(want));
    /* cs_003 dword 7: SET_CONFIG_REG index 0x300 (0x8C00 SQ_CONFIG) */
    cedar_cmdbuf_reset(&cb);
    assert_int_equal(cedar_cmdbuf_set_config_reg(&cb, 0x8C00, 0xE4F00002u), 0);
    const uint32_t want2[] = { 0xC0016800u, 0x300, 0xE4F00002u };
    assert_memory_equal(cb.dw, want2, sizeof(want2));
    cedar_cmdbuf_fini(&cb);
}

static void padding(void **state)
{
    (void)state;
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    assert_int_equal(cedar_cmdbuf_set_context_reg(&cb, 0x28350, 1), 0); /* 3 dwords */
    assert_int_equal(cedar_cmdbuf_pad(&cb, 8), 0);
    assert_int_equal(cb.ndw, 8);
    for (size_t i = 3; i < 8; i++)
        assert_int_equal(cb.dw[i], 0x80000000u);
    assert_int_equal(cedar_cmdbuf_pad(&cb, 8), 0);
    assert_int_equal(cb.ndw, 8); /* already a multiple: nothing added */
    cedar_cmdbuf_fini(&cb);
}

static void growth_and_limit(void **state)
{
    (void)state;
    struct cedar_cmdbuf cb;
    cedar_cmdbuf_init(&cb, 0);
    for (uint32_t i = 0; i < 100000; i++)
        assert_int_equal(cedar_cmdbuf_emit(&cb, i), 0);
    assert_int_equal(cb.ndw, 100000);
    for (uint32_t i = 0; i < 100000; i++)
        if (cb.dw[i] != i)
            fail_msg("dword %u lost in growth", i);
    cedar_cmdbuf_fini(&cb);

    cedar_cmdbuf_init(&cb, 5);
    assert_int_equal(cedar_cmdbuf_set_context_reg(&cb, 0x28350, 1), 0);
    /* 3 + 3 > 5: refused whole, and the error sticks */
    assert_int_equal(cedar_cmdbuf_set_context_reg(&cb, 0x28350, 2), -ENOSPC);
    assert_int_equal(cb.ndw, 3);
    assert_int_equal(cedar_cmdbuf_emit(&cb, 7), -ENOSPC);
    assert_int_equal(cb.error, -ENOSPC);
    assert_int_equal(cb.ndw, 3);
    cedar_cmdbuf_reset(&cb);
    assert_int_equal(cedar_cmdbuf_emit(&cb, 7), 0);
    cedar_cmdbuf_fini(&cb);
}

static void relocs_dedup_like_libdrm(void **state)
{
    (void)state;
    struct cedar_cmdbuf cb;
    unsigned idx = 99;
    cedar_cmdbuf_init(&cb, 0);
    assert_int_equal(cedar_cmdbuf_reloc(&cb, 12, 0, RADEON_GEM_DOMAIN_VRAM, 0), 0);
    assert_int_equal(cedar_cmdbuf_reloc(&cb, 15, RADEON_GEM_DOMAIN_GTT, 0, 0), 0);
    assert_int_equal(cedar_cmdbuf_reloc(&cb, 12, 0, RADEON_GEM_DOMAIN_VRAM, 0), 0);
    const uint32_t want[] = { 0xC0001000u, 0, 0xC0001000u, 4, 0xC0001000u, 0 };
    assert_int_equal(cb.ndw, 6);
    assert_memory_equal(cb.dw, want, sizeof(want));
    assert_int_equal(cb.nrelocs, 2);
    /* read of a written buffer: both domains (libdrm keeps the write) */
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 12, RADEON_GEM_DOMAIN_VRAM, 0, 0, &idx), 0);
    assert_int_equal(idx, 0);
    assert_int_equal(cb.relocs[0].read_domains, RADEON_GEM_DOMAIN_VRAM);
    assert_int_equal(cb.relocs[0].write_domain, RADEON_GEM_DOMAIN_VRAM);
    /* write to a read buffer: write only */
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 15, 0, RADEON_GEM_DOMAIN_GTT, 0, &idx), 0);
    assert_int_equal(idx, 1);
    assert_int_equal(cb.relocs[1].read_domains, 0);
    assert_int_equal(cb.relocs[1].write_domain, RADEON_GEM_DOMAIN_GTT);
    /* a read from another domain than the entry's: rejected, sticky */
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 15, RADEON_GEM_DOMAIN_VRAM, 0, 0, NULL), -EINVAL);
    assert_int_equal(cedar_cmdbuf_emit(&cb, 0), -EINVAL);
    cedar_cmdbuf_reset(&cb);
    /* neither or both domains, or the CPU domain: rejected */
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 1, 0, 0, 0, NULL), -EINVAL);
    cedar_cmdbuf_reset(&cb);
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 1, RADEON_GEM_DOMAIN_GTT, RADEON_GEM_DOMAIN_GTT, 0, NULL), -EINVAL);
    cedar_cmdbuf_reset(&cb);
    assert_int_equal(cedar_cmdbuf_add_reloc(&cb, 1, RADEON_GEM_DOMAIN_CPU, 0, 0, NULL), -EINVAL);
    cedar_cmdbuf_reset(&cb);
    /* many buffers: the table grows, indices stay in order */
    for (unsigned h = 0; h < 1000; h++) {
        assert_int_equal(cedar_cmdbuf_add_reloc(&cb, h, RADEON_GEM_DOMAIN_GTT, 0, h, &idx), 0);
        assert_int_equal(idx, h);
    }
    assert_int_equal(cb.relocs[999].flags, 999);
    cedar_cmdbuf_fini(&cb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_matches_kernel),
        cmocka_unit_test(set_context_reg_layout),
        cmocka_unit_test(padding),
        cmocka_unit_test(growth_and_limit),
        cmocka_unit_test(relocs_dedup_like_libdrm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
