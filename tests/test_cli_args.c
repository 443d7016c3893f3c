/* The tools' shared number parsing (src/cli/cli_args.c) is strict: each case
 * below is a value strtoul/strtoull alone would accept or silently change
 * (a sign, a space, trailing text, a wrap past 2^32 or 2^64), and the error
 * names the option and the value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/cli.h"

static void uint_strict(void **state)
{
    (void)state;
    struct cedar_cli_err e;
    unsigned v = 7;
    static const char *bad[] = { "", "-1", "+5", " 5", "5 ", "5x", "0x10", "4294967296", "4294967297",
                                 "18446744073709551617", "16385" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(cedar_cli_uint("--width", bad[i], 1, 16384, &v, &e), -1);
        assert_int_equal(v, 7);
    }
    assert_int_equal(cedar_cli_uint("--width", "-1", 1, 16384, &v, &e), -1);
    assert_string_equal(e.msg, "--width: \"-1\" is not a number from 1 to 16384");
    assert_int_equal(cedar_cli_uint("--width", "0", 1, 16384, &v, &e), -1);
    assert_int_equal(cedar_cli_uint("--width", "16384", 1, 16384, &v, &e), 0);
    assert_int_equal(v, 16384);
    assert_int_equal(cedar_cli_uint("--width", "007", 1, 16384, &v, &e), 0);
    assert_int_equal(v, 7);
}

static void hex_strict(void **state)
{
    (void)state;
    struct cedar_cli_err e;
    uint32_t v = 0;
    assert_int_equal(cedar_cli_hex32("--tiling-config", "0x0011", 0, &v, &e), 0);
    assert_int_equal(v, 0x11);
    assert_int_equal(cedar_cli_hex32("--tiling-config", "FFFFFFFF", 0, &v, &e), 0);
    assert_int_equal(v, 0xFFFFFFFFu);
    assert_int_equal(cedar_cli_hex32("--tiling-config", "100000000", 0, &v, &e), -1);
    assert_int_equal(cedar_cli_hex32("--tiling-config", "0x", 0, &v, &e), -1);
    assert_int_equal(cedar_cli_hex32("--tiling-config", "0x0x1", 0, &v, &e), -1);
    assert_int_equal(cedar_cli_hex32("--tiling-config", "-1", 0, &v, &e), -1);
    assert_non_null(strstr(e.msg, "--tiling-config: \"-1\""));
    assert_int_equal(cedar_cli_hex32("--clear-color", "334C4D", 6, &v, &e), 0);
    assert_int_equal(v, 0x334C4D);
    assert_int_equal(cedar_cli_hex32("--clear-color", "334C4", 6, &v, &e), -1);
    assert_int_equal(cedar_cli_hex32("--clear-color", "0x334C4D", 6, &v, &e), -1);
    assert_int_equal(cedar_cli_hex32("--clear-color", "33GG4C", 6, &v, &e), -1);
}

static void u64_and_sizes(void **state)
{
    (void)state;
    struct cedar_cli_err e;
    uint64_t v = 0;
    assert_int_equal(cedar_cli_u64("--bo", "4K", CEDAR_CLI_C, 1, &v, &e), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(cedar_cli_u64("--bo", "0x10m", CEDAR_CLI_C, 1, &v, &e), 0);
    assert_int_equal(v, 16ull << 20);
    assert_int_equal(cedar_cli_u64("--load", "010", CEDAR_CLI_C, 0, &v, &e), 0);
    assert_int_equal(v, 8);   /* a C literal: leading 0 is octal */
    assert_int_equal(cedar_cli_u64("--load", "010", CEDAR_CLI_DEC, 0, &v, &e), 0);
    assert_int_equal(v, 10);
    assert_int_equal(cedar_cli_u64("--load", "0xFFFFFFFFFFFFFFFF", CEDAR_CLI_C, 0, &v, &e), 0);
    assert_int_equal(v, UINT64_MAX);
    static const char *bad[] = { "", "-1", " 1", "4K", "18446744073709551616", "1x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cedar_cli_u64("--load", bad[i], CEDAR_CLI_C, 0, &v, &e), -1);
    assert_int_equal(cedar_cli_u64("--bo", "17179869184G", CEDAR_CLI_C, 1, &v, &e), -1); /* 2^34 * 2^30 */
    assert_int_equal(cedar_cli_u64("--bo", "4KB", CEDAR_CLI_C, 1, &v, &e), -1);
    assert_int_equal(cedar_cli_u64("--bo", "4T", CEDAR_CLI_C, 1, &v, &e), -1);
}

static void lists(void **state)
{
    (void)state;
    struct cedar_cli_err e;
    unsigned v[4], n = 0;
    assert_int_equal(cedar_cli_list("--addr", "100,200", 2, 3, 1000, v, &n, &e), 0);
    assert_int_equal(n, 2);
    assert_int_equal(v[0], 100);
    assert_int_equal(v[1], 200);
    assert_int_equal(cedar_cli_list("--addr", "1,2,3", 2, 3, 1000, v, &n, &e), 0);
    assert_int_equal(n, 3);
    assert_int_equal(v[2], 3);
    static const char *bad[] = { "", "1", "1,", ",1", "1,,2", "1,2,3,4", "1,-2", "1, 2", "1,2x", "1,1001",
                                 "1,4294967297" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(cedar_cli_list("--addr", bad[i], 2, 3, 1000, v, &n, &e), -1);
    assert_string_equal(e.msg, "--addr: \"1,4294967297\" is not 2 or 3 comma-separated numbers from 0 to 1000");
    assert_int_equal(cedar_cli_list("--crop", "1,2,3", 4, 4, 1000, v, NULL, &e), -1);
    assert_string_equal(e.msg, "--crop: \"1,2,3\" is not 4 comma-separated numbers from 0 to 1000");
}

/* Whatever the argument holds, the message is one line that names the
 * option: a newline, a quote or a non-ASCII byte is shown as \xNN, a long
 * argument is cut after 48 bytes. */
static void message_one_line(void **state)
{
    (void)state;
    struct cedar_cli_err e;
    unsigned v;
    assert_int_equal(cedar_cli_uint("--width", "12\n34", 1, 16384, &v, &e), -1);
    assert_string_equal(e.msg, "--width: \"12\\x0A34\" is not a number from 1 to 16384");
    uint32_t h;
    assert_int_equal(cedar_cli_hex32("--clear-color", "\"\xC3\xA9\\", 6, &h, &e), -1);
    assert_string_equal(e.msg, "--clear-color: \"\\x22\\xC3\\xA9\\x5C\" is not 6 hex digits");
    char longarg[1000];
    memset(longarg, '7', sizeof longarg - 1);
    longarg[sizeof longarg - 1] = '\0';
    assert_int_equal(cedar_cli_uint("--height", longarg, 1, 16384, &v, &e), -1);
    assert_string_equal(e.msg, "--height: \"777777777777777777777777777777777777777777777777...\" is not a number "
                               "from 1 to 16384");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uint_strict),
        cmocka_unit_test(hex_strict),
        cmocka_unit_test(u64_and_sizes),
        cmocka_unit_test(lists),
        cmocka_unit_test(message_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
