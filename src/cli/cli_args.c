/* Strict command-line number parsing for the tools (see cedar/cli.h).
 * strtoull alone is too lenient for a command line: it skips spaces, takes a
 * sign (and negates "-1" into a huge value) and stops at the first non-digit,
 * so every function first checks the first character and then that the
 * conversion used the whole argument. */
#include "cedar/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The argument as the message shows it: printable ASCII as is, other bytes
 * (a newline, a quote, UTF-8) as \xNN, at most QUOTE_MAX bytes of it and
 * "..." after, so the message stays one line and names the option. */
#define QUOTE_MAX 48

static void quote(char *out, const char *s)
{
    size_t o = 0, i = 0;
    for (; s[i] && i < QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\')
            out[o++] = (char)c;
        else
            o += (size_t)sprintf(out + o, "\\x%02X", c);
    }
    if (s[i])
        o += (size_t)sprintf(out + o, "...");
    out[o] = '\0';
}

static int cli_fail(struct cedar_cli_err *err, const char *opt, const char *s, const char *fmt, ...)
{
    if (err) {
        char q[4 * QUOTE_MAX + 4];
        quote(q, s);
        int n = snprintf(err->msg, sizeof err->msg, "%s: \"%s\" is not ", opt, q);
        if (n < 0 || (size_t)n >= sizeof err->msg)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_digit(char c, int base)
{
    if (base == 16)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return c >= '0' && c <= '9';
}

/* The digits of s in `base` (10, 16 or strtoull's 0), all of them: 0 or -1;
 * *end is where the digits stopped (for a suffix). */
static int whole_u64(const char *s, int base, uint64_t *out, const char **end)
{
    if (!s || !is_digit(s[0], base))
        return -1;
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return -1;   /* strtoull would take a (second) 0x prefix */
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, base);
    if (errno || e == s)
        return -1;
    *out = v;
    *end = e;
    return 0;
}

int cedar_cli_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out,
                   struct cedar_cli_err *err)
{
    uint64_t v;
    const char *end;
    if (whole_u64(s, 10, &v, &end) || *end || v < lo || v > hi)
        return cli_fail(err, opt, s ? s : "", "a number from %u to %u", lo, hi);
    *out = (unsigned)v;
    return 0;
}

int cedar_cli_hex32(const char *opt, const char *s, unsigned digits, uint32_t *out,
                    struct cedar_cli_err *err)
{
    const char *p = s ? s : "";
    if (!digits && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    uint64_t v;
    const char *end;
    if (whole_u64(p, 16, &v, &end) || *end || v > UINT32_MAX || (digits && strlen(p) != digits)) {
        if (digits)
            return cli_fail(err, opt, s ? s : "", "%u hex digits", digits);
        return cli_fail(err, opt, s ? s : "", "a hex number of at most 32 bits");
    }
    *out = (uint32_t)v;
    return 0;
}

int cedar_cli_u64(const char *opt, const char *s, enum cedar_cli_base base, int size_suffix,
                  uint64_t *out, struct cedar_cli_err *err)
{
    uint64_t v;
    const char *end;
    if (whole_u64(s, (int)base, &v, &end) == 0) {
        unsigned shift = 0;
        if (size_suffix && *end) {
            char c = *end;
            shift = c == 'K' || c == 'k' ? 10 : c == 'M' || c == 'm' ? 20 : c == 'G' || c == 'g' ? 30 : 0;
            if (shift && v <= (UINT64_MAX >> shift))
                end++;
        }
        if (!*end) {
            *out = v << shift;
            return 0;
        }
    }
    return cli_fail(err, opt, s ? s : "", "%s%s", base == CEDAR_CLI_DEC ? "a decimal number" : "a number",
                    size_suffix ? " (with an optional K, M or G)" : "");
}

int cedar_cli_list(const char *opt, const char *s, unsigned n_min, unsigned n_max, unsigned max,
                   unsigned *v, unsigned *n, struct cedar_cli_err *err)
{
    unsigned count = 0;
    const char *p = s ? s : "";
    for (;;) {
        uint64_t x;
        const char *end;
        if (count == n_max || whole_u64(p, 10, &x, &end) || x > max || (*end && *end != ','))
            break;
        v[count++] = (unsigned)x;
        if (!*end) {
            if (count < n_min)
                break;
            if (n)
                *n = count;
            return 0;
        }
        p = end + 1;
    }
    if (n_min == n_max)
        return cli_fail(err, opt, s ? s : "", "%u comma-separated numbers from 0 to %u", n_min, max);
    return cli_fail(err, opt, s ? s : "", "%u %s %u comma-separated numbers from 0 to %u", n_min,
                    n_max == n_min + 1 ? "or" : "to", n_max, max);
}
