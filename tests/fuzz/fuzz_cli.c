/* The command-line number parser (cedar/cli.h) against a reading of its
 * header written here: the first byte picks the function and its bounds, the
 * rest is the argument (a C string: it stops at a NUL byte).  Every
 * acceptance and refusal must match, accepted values must be the number
 * written, and a refusal is one line naming the option and the argument. */
#include <stdbool.h>

#include "cedar/cli.h"
#include "fuzz_util.h"

static int digit(char c, unsigned base)
{
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    return v < (int)base ? v : -1;
}

/* s[0..n) all digits of base (n >= 1) without overflow: true and *v. */
static bool number(const char *s, size_t n, unsigned base, uint64_t *v)
{
    if (n == 0)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int d = digit(s[i], base);
        if (d < 0 || x > (UINT64_MAX - (uint64_t)d) / base)
            return false;
        x = x * base + (uint64_t)d;
    }
    *v = x;
    return true;
}

/* A C literal: 0x / 0X and hex digits, 0 and octal digits, or decimal. */
static bool c_number(const char *s, size_t n, uint64_t *v)
{
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return number(s + 2, n - 2, 16, v);
    if (n >= 1 && s[0] == '0')
        return number(s, n, 8, v);
    return number(s, n, 10, v);
}

static bool ref_u64(const char *s, bool c_base, bool suffix, uint64_t *v)
{
    size_t n = strlen(s);
    unsigned shift = 0;
    if (suffix && n) {
        char c = s[n - 1];
        shift = c == 'K' || c == 'k' ? 10 : c == 'M' || c == 'm' ? 20 : c == 'G' || c == 'g' ? 30 : 0;
        if (shift)
            n--;
    }
    uint64_t x;
    if (!(c_base ? c_number(s, n, &x) : number(s, n, 10, &x)))
        return false;
    if (shift && x > UINT64_MAX >> shift)
        return false;
    *v = x << shift;
    return true;
}

/* One line, naming the option, then the argument in quotes (its first
 * bytes verbatim when they are plain printable characters). */
static void check_refusal(const struct cedar_cli_err *e, const char *opt, const char *s)
{
    fuzz_check_line("cli refusal", e->msg);
    char head[80];
    size_t k = 0;
    while (k < 20 && s[k] >= 0x20 && s[k] < 0x7F && s[k] != '"' && s[k] != '\\')
        k++;
    snprintf(head, sizeof head, "%s: \"%.*s", opt, (int)k, s);
    FUZZ_CHECK(!strncmp(e->msg, head, strlen(head)), "refusal does not name the option and argument: %s", e->msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    char *s = malloc(size - 2);
    FUZZ_CHECK(s, "out of memory");
    memcpy(s, data + 3, size - 3);
    s[size - 3] = '\0';
    unsigned fn = data[0] % 6, a = data[1], b = data[2];
    const char *opt = "--opt";
    struct cedar_cli_err e;
    memset(&e, 0, sizeof e);
    switch (fn) {
    case 0: {   /* decimal in lo..hi */
        unsigned lo = a * 37u, hi = b == 255 ? UINT32_MAX : lo + b * 1001u, v = 0xDEADu;
        uint64_t want;
        bool ok = number(s, strlen(s), 10, &want) && want >= lo && want <= hi;
        int r = cedar_cli_uint(opt, s, lo, hi, &v, &e);
        FUZZ_CHECK((r == 0) == ok, "cedar_cli_uint(\"%s\", %u..%u) returned %d", s, lo, hi, r);
        if (ok)
            FUZZ_CHECK(v == want, "cedar_cli_uint(\"%s\") = %u", s, v);
        else
            check_refusal(&e, opt, s);
        break;
    }
    case 1: {   /* hex32, digits 0 (prefix allowed) or exactly a % 9 */
        unsigned digits = a % 9;
        uint32_t v = 0xDEAD;
        const char *p = s;
        if (!digits && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
            p += 2;
        uint64_t want;
        bool ok = number(p, strlen(p), 16, &want) && want <= UINT32_MAX && (!digits || strlen(p) == digits);
        int r = cedar_cli_hex32(opt, s, digits, &v, &e);
        FUZZ_CHECK((r == 0) == ok, "cedar_cli_hex32(\"%s\", %u digits) returned %d", s, digits, r);
        if (ok)
            FUZZ_CHECK(v == want, "cedar_cli_hex32(\"%s\") = 0x%X", s, v);
        else
            check_refusal(&e, opt, s);
        break;
    }
    case 2:
    case 3: {   /* 64-bit, decimal or C literal, with or without a size suffix */
        bool c_base = fn == 3, suffix = a & 1;
        uint64_t v = 0xDEAD, want;
        bool ok = ref_u64(s, c_base, suffix, &want);
        int r = cedar_cli_u64(opt, s, c_base ? CEDAR_CLI_C : CEDAR_CLI_DEC, suffix, &v, &e);
        FUZZ_CHECK((r == 0) == ok, "cedar_cli_u64(\"%s\", %s%s) returned %d", s, c_base ? "C" : "decimal",
                   suffix ? ", suffix" : "", r);
        if (ok)
            FUZZ_CHECK(v == want, "cedar_cli_u64(\"%s\") = %llu", s, (unsigned long long)v);
        else
            check_refusal(&e, opt, s);
        break;
    }
    default: {  /* a list of n_min..n_max numbers up to max */
        unsigned n_min = a % 5, n_max = n_min + b % 4, max = (unsigned)b * 97u, v[8], n = 99;
        uint64_t want[8];
        unsigned count = 0;
        bool ok = true;
        const char *p = s;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (count == n_max || !number(p, len, 10, &want[count]) || want[count] > max) {
                ok = false;
                break;
            }
            count++;
            if (!comma)
                break;
            p = comma + 1;
        }
        ok = ok && count >= n_min;
        int r = cedar_cli_list(opt, s, n_min, n_max, max, v, &n, &e);
        FUZZ_CHECK((r == 0) == ok, "cedar_cli_list(\"%s\", %u..%u numbers to %u) returned %d", s, n_min, n_max, max,
                   r);
        if (ok) {
            FUZZ_CHECK(n == count, "cedar_cli_list(\"%s\"): %u numbers, want %u", s, n, count);
            for (unsigned i = 0; i < count; i++)
                FUZZ_CHECK(v[i] == want[i], "cedar_cli_list(\"%s\") number %u", s, i);
        } else {
            check_refusal(&e, opt, s);
        }
        break;
    }
    }
    free(s);
    return 0;
}
