/* Reproducible randomness and a clock for the fuzz tests (see test_util.h). */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

static uint64_t rand_state;

void test_rand_seed(uint64_t seed)
{
    rand_state = seed;
}

uint32_t test_rand(void)
{
    rand_state ^= rand_state >> 12;
    rand_state ^= rand_state << 25;
    rand_state ^= rand_state >> 27;
    return (uint32_t)((rand_state * 2685821657736338717ull) >> 32);
}

float test_rand_colour_channel(void)
{
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, 70000.0f, 0x1p-14f, 0x1p-15f, 0x1p-24f,
                                    0x1p-30f, 1e-38f, 0.99999994f, 1.00000012f, 0.5f, 0.0019607844f};
    uint32_t r = test_rand();
    switch (r % 8) {
    case 0: return special[test_rand() % (sizeof special / sizeof special[0])];
    case 1: return __builtin_nanf("");
    case 2: return (test_rand() & 1) ? __builtin_inff() : -__builtin_inff();
    default: {
        /* an 8-bit rounding point, nudged by a few float steps either side */
        float v = ((float)(test_rand() % 256) + ((test_rand() & 1) ? 0.5f : 0.0f)) / 255.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        u += (uint32_t)(int32_t)((int)(test_rand() % 8193) - 4096);
        memcpy(&v, &u, 4);
        return v;
    }
    }
}

double test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
