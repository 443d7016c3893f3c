/* Properties of the generated register database: tables sorted and
 * consistent, every register inside its space, every field setter and
 * getter inverse of each other, lookups by name and offset agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/regdb.h"
#include "eg_regs.h"

static void regs_sorted_and_in_space(void **state)
{
    (void)state;
    assert_true(eg_regs_count > 0);
    for (unsigned i = 0; i < eg_regs_count; i++) {
        const struct eg_reg *r = &eg_regs[i];
        const struct eg_space *s = &eg_spaces[r->space];
        assert_true(r->space < eg_spaces_count);
        assert_true(r->offset % 4 == 0);
        if (r->offset < s->start || r->offset >= s->end)
            fail_msg("%s 0x%X outside space %s", r->name, r->offset, s->name);
        if (i > 0)
            assert_true(eg_regs[i - 1].offset <= r->offset);
    }
}

static void lookups_agree(void **state)
{
    (void)state;
    for (unsigned i = 0; i < eg_regs_count; i++) {
        const struct eg_reg *r = &eg_regs[i];
        assert_ptr_equal(eg_reg_find_name(r->name), r);
        const struct eg_reg *byoff = eg_reg_find(r->offset);
        assert_non_null(byoff);
        assert_int_equal(byoff->offset, r->offset);
    }
    for (unsigned i = 0; i < eg_packets_count; i++) {
        assert_ptr_equal(eg_packet_find(eg_packets[i].opcode), &eg_packets[i]);
        assert_ptr_equal(eg_packet_find_name(eg_packets[i].name), &eg_packets[i]);
    }
    assert_null(eg_reg_find_name("NO_SUCH_REGISTER"));
    assert_null(eg_reg_find(0x3)); /* not dword aligned: never a register */
}

/* Every field: width in 1..32, fields of a bitset disjoint, enum values fit. */
static void fields_well_formed(void **state)
{
    (void)state;
    for (unsigned b = 0; b < eg_bitsets_count; b++) {
        const struct eg_bitset *bs = &eg_bitsets[b];
        uint64_t used = 0;
        for (unsigned f = 0; f < bs->count; f++) {
            const struct eg_field *fl = &bs->fields[f];
            assert_true(fl->low <= fl->high && fl->high < 32);
            uint64_t mask = ((UINT64_C(1) << (fl->high - fl->low + 1)) - 1) << fl->low;
            if (used & mask)
                fail_msg("%s.%s overlaps", bs->name, fl->name);
            used |= mask;
            for (unsigned v = 0; fl->enm && v < fl->enm->count; v++)
                assert_true((fl->enm->values[v].value >> (fl->high - fl->low + 1)) == 0 ||
                            fl->high - fl->low + 1 == 32);
            /* eg_field_get takes exactly the field's bits out of a word */
            assert_int_equal(eg_field_get(fl, (uint32_t)mask), (uint32_t)(mask >> fl->low));
            assert_int_equal(eg_field_get(fl, ~(uint32_t)mask), 0);
        }
    }
}

/* The generated setters and getters of one real field, checked against the
 * bit positions the kernel and Mesa give (CB_COLOR0_INFO: FORMAT bits 2..7,
 * ARRAY_MODE bits 8..11). */
static void generated_setters(void **state)
{
    (void)state;
    uint32_t w = S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) |
                 S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1);
    assert_int_equal(w, (0x1Au << 2) | (4u << 8));
    assert_int_equal(G_CB_COLOR_INFO__FORMAT(w), V_CB_FORMAT__COLOR_8_8_8_8);
    assert_int_equal(G_CB_COLOR_INFO__ARRAY_MODE(w), V_ARRAY_MODE__ARRAY_2D_TILED_THIN1);
    assert_int_equal(REG_CB_COLOR_INFO(0), REG_CB_COLOR0_INFO);
    assert_int_equal(REG_CB_COLOR_INFO(9), REG_CB_COLOR9_INFO);
    assert_int_equal(REG_CB_COLOR0_INFO, 0x28C70);
    const struct eg_reg *r = eg_reg_find(REG_CB_COLOR1_INFO);
    assert_non_null(r);
    assert_string_equal(r->name, "CB_COLOR1_INFO");
    assert_string_equal(eg_spaces[r->space].name, "context");
    assert_int_equal(eg_spaces[r->space].packet, PKT3_SET_CONTEXT_REG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regs_sorted_and_in_space),
        cmocka_unit_test(lookups_agree),
        cmocka_unit_test(fields_well_formed),
        cmocka_unit_test(generated_setters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
