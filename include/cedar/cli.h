/* Command-line number parsing shared by the cedar-* tools.
 *
 * Strict: the whole argument must be the number: no sign, no spaces, no
 * trailing characters, no overflow, inside the allowed range.  On failure the
 * functions return -1 and leave one line in err->msg naming the option and
 * the bad value, in one style for every tool:
 *
 *     --width: "-1" is not a number from 1 to 16384
 *
 * The tool prints it after its own name ("cedar-layout: ") and exits with its
 * usage status.  Nothing is written to *out on failure. */
#ifndef CEDAR_CLI_H
#define CEDAR_CLI_H

#include <stdint.h>

struct cedar_cli_err { char msg[256]; };

/* Number bases cedar_cli_u64 accepts. */
enum cedar_cli_base {
    CEDAR_CLI_DEC = 10,     /* decimal digits only */
    CEDAR_CLI_C = 0,        /* C literal: 0x hex, leading 0 octal, else decimal */
};

/* A decimal number in lo..hi. */
int cedar_cli_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out,
                   struct cedar_cli_err *err);

/* A hex number of at most 32 bits, "0x" prefix optional; with digits > 0,
 * exactly that many hex digits and no prefix (a colour "RRGGBB"). */
int cedar_cli_hex32(const char *opt, const char *s, unsigned digits, uint32_t *out,
                    struct cedar_cli_err *err);

/* A 64-bit number in `base`; with `size_suffix`, one K, M or G (either case)
 * may follow and multiplies by 2^10, 2^20, 2^30. */
int cedar_cli_u64(const char *opt, const char *s, enum cedar_cli_base base, int size_suffix,
                  uint64_t *out, struct cedar_cli_err *err);

/* "A,B[,C...]": n_min..n_max decimal numbers, each from 0 to max; *n is how
 * many there were (may be NULL when n_min == n_max). */
int cedar_cli_list(const char *opt, const char *s, unsigned n_min, unsigned n_max, unsigned max,
                   unsigned *v, unsigned *n, struct cedar_cli_err *err);

#endif
