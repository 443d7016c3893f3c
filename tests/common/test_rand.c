/* Reproducible randomness and a clock for the fuzz tests (see test_util.h). */
#include <stdint.h>
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

double test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
