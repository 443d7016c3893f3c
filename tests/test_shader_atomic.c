/* eg_atomic, the data shares' and RATs' shared 32-bit atomic arithmetic,
 * against hand-worked vectors of the AMD Evergreen ISA's rules (INC and
 * DEC wrapping at the operand, MIN / MAX signed and unsigned across the
 * sign bit, MSKOR, CMPXCHG matching and not), and eg_atomic_of_ds_op's
 * names for the GDS clause's DS_OP numbers (the plain and _RET forms, WRITE
 * as an exchange, numbers that are no 32-bit atomic refused).  The units
 * that use them are tested through their instructions in test_shader_lds,
 * test_shader_gds and test_render_compute. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "eg_regs.h"

struct vec {
    enum eg_atomic_op op;
    uint32_t old, a, b, expect;
};

static void hand_vectors(void **state)
{
    (void)state;
    static const struct vec v[] = {
        {EG_ATOMIC_ADD, 0xFFFFFFFFu, 2, 0, 1},                 /* wraps */
        {EG_ATOMIC_SUB, 1, 2, 0, 0xFFFFFFFFu},
        {EG_ATOMIC_RSUB, 1, 2, 0, 1},                          /* a - old */
        {EG_ATOMIC_RSUB, 5, 2, 0, 0xFFFFFFFDu},
        {EG_ATOMIC_INC, 3, 10, 0, 4},
        {EG_ATOMIC_INC, 9, 10, 0, 10},
        {EG_ATOMIC_INC, 10, 10, 0, 0},                         /* old >= a: 0 */
        {EG_ATOMIC_INC, 0xFFFFFFFFu, 0xFFFFFFFFu, 0, 0},
        {EG_ATOMIC_DEC, 5, 10, 0, 4},
        {EG_ATOMIC_DEC, 0, 10, 0, 10},                         /* old 0: a */
        {EG_ATOMIC_DEC, 11, 10, 0, 10},                        /* old > a: a */
        {EG_ATOMIC_DEC, 10, 10, 0, 9},
        {EG_ATOMIC_MIN_INT, 0x80000000u, 1, 0, 0x80000000u},   /* INT_MIN < 1 */
        {EG_ATOMIC_MIN_UINT, 0x80000000u, 1, 0, 1},
        {EG_ATOMIC_MAX_INT, 0xFFFFFFFFu, 0, 0, 0},             /* -1 < 0 */
        {EG_ATOMIC_MAX_UINT, 0xFFFFFFFFu, 0, 0, 0xFFFFFFFFu},
        {EG_ATOMIC_AND, 0xF0F0u, 0xFF00u, 0, 0xF000u},
        {EG_ATOMIC_OR, 0xF0F0u, 0xFF00u, 0, 0xFFF0u},
        {EG_ATOMIC_XOR, 0xF0F0u, 0xFF00u, 0, 0x0FF0u},
        {EG_ATOMIC_MSKOR, 0xABCDu, 0x00F0u, 0x0050u, 0xAB5Du}, /* (old & ~a) | b */
        {EG_ATOMIC_XCHG, 7, 9, 3, 9},
        {EG_ATOMIC_CMPXCHG, 7, 7, 3, 3},                       /* matches a: b */
        {EG_ATOMIC_CMPXCHG, 7, 8, 3, 7},
        {EG_ATOMIC_READ, 7, 8, 3, 7},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t got = eg_atomic(v[i].op, v[i].old, v[i].a, v[i].b);
        if (got != v[i].expect)
            fail_msg("vector %zu (op %d, old 0x%x, a 0x%x, b 0x%x): 0x%x, expected 0x%x", i, (int)v[i].op, v[i].old,
                     v[i].a, v[i].b, got, v[i].expect);
    }
}

static void ds_op_names(void **state)
{
    (void)state;
    static const struct {
        unsigned op;
        enum eg_atomic_op k;
    } named[] = {
        {V_SQ_DS_OP__ADD, EG_ATOMIC_ADD},         {V_SQ_DS_OP__ADD_RET, EG_ATOMIC_ADD},
        {V_SQ_DS_OP__RSUB, EG_ATOMIC_RSUB},       {V_SQ_DS_OP__INC, EG_ATOMIC_INC},
        {V_SQ_DS_OP__DEC, EG_ATOMIC_DEC},         {V_SQ_DS_OP__MIN_INT, EG_ATOMIC_MIN_INT},
        {V_SQ_DS_OP__MAX_UINT, EG_ATOMIC_MAX_UINT}, {V_SQ_DS_OP__MSKOR, EG_ATOMIC_MSKOR},
        {V_SQ_DS_OP__MSKOR_RET, EG_ATOMIC_MSKOR}, {V_SQ_DS_OP__WRITE, EG_ATOMIC_XCHG},
        {V_SQ_DS_OP__XCHG_RET, EG_ATOMIC_XCHG},   {V_SQ_DS_OP__CMP_XCHG_RET, EG_ATOMIC_CMPXCHG},
        {V_SQ_DS_OP__READ_RET, EG_ATOMIC_READ},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        enum eg_atomic_op k = EG_ATOMIC_READ;
        assert_true(eg_atomic_of_ds_op(named[i].op, &k));
        if (k != named[i].k)
            fail_msg("DS_OP 0x%02x: named %d, expected %d", named[i].op, (int)k, (int)named[i].k);
    }
    /* DS_OP numbers between and beyond the atomics: none (0x0E is past WRITE,
     * 0x2E / 0x2F between XCHG_RET and CMP_XCHG_RET, 0x31 between CMP_XCHG_RET
     * and READ_RET) */
    const unsigned none[] = {0x0E, 0x1F, 0x2E, 0x2F, 0x31, 0x3F, 0x40, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        enum eg_atomic_op k;
        if (eg_atomic_of_ds_op(none[i], &k))
            fail_msg("DS_OP 0x%x named %d, expected none", none[i], (int)k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_vectors),
        cmocka_unit_test(ds_op_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
