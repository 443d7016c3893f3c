/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c): reading fields from the
 * input, and the invariant check that stops the run.  Each target defines
 * LLVMFuzzerTestOneInput; libFuzzer (`make fuzz`) or replay_main.c
 * (`make check`, over the committed corpus and regressions) calls it. */
#ifndef CEDAR_TESTS_FUZZ_UTIL_H
#define CEDAR_TESTS_FUZZ_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant that failed: print why and abort, which libFuzzer records as
 * a crash with its input and replay_main reports as a failed run. */
__attribute__((format(printf, 1, 2), noreturn)) static inline void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz invariant failed: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

#define FUZZ_CHECK(cond, ...) \
    do {                      \
        if (!(cond))          \
            fuzz_fail(__VA_ARGS__); \
    } while (0)

/* A message the project promises to be one line: non-empty, no newline. */
static inline void fuzz_check_line(const char *what, const char *msg)
{
    FUZZ_CHECK(msg[0] != '\0', "%s: empty message", what);
    FUZZ_CHECK(!strchr(msg, '\n'), "%s: message of more than one line: %s", what, msg);
}

/* The input read front to back; past its end every field reads as 0. */
struct fuzz_in {
    const uint8_t *p;
    size_t n;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
    uint16_t lo = fuzz_u8(in);
    return (uint16_t)(lo | fuzz_u8(in) << 8);
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
    uint32_t lo = fuzz_u16(in);
    return lo | (uint32_t)fuzz_u16(in) << 16;
}

/* The rest of the input as whole little-endian dwords, in a heap block of
 * exactly that size (so ASan sees a read past the last dword); *ndw may be 0
 * (then the block is 1 byte).  The caller frees it. */
static inline uint32_t *fuzz_rest_dwords(struct fuzz_in *in, size_t *ndw)
{
    *ndw = in->n / 4;
    uint32_t *dw = malloc(*ndw ? *ndw * 4 : 1);
    if (!dw)
        abort();
    memcpy(dw, in->p, *ndw * 4);
    in->p += *ndw * 4;
    in->n -= *ndw * 4;
    return dw;
}

#endif
