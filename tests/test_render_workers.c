/* src/render/workers.c, the draws' thread pool: every share of every job
 * runs exactly once and has returned when render_workers_run returns; share
 * counts above the pool's maximum are cut to it; jobs of different sizes
 * follow one another on the same pool (threads left idle by a small job
 * must not run or miss a later one); a child of fork runs jobs on a pool of
 * its own (its parent's threads do not exist there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "src/render/workers.h"

struct job {
    unsigned runs[RENDER_WORKERS_MAX + 4];
    unsigned done[RENDER_WORKERS_MAX + 4];   /* set after a little work */
};

static void share(void *arg, unsigned i)
{
    struct job *j = arg;
    __atomic_add_fetch(&j->runs[i], 1, __ATOMIC_RELAXED);
    volatile unsigned spin = 0;
    for (unsigned k = 0; k < 1000u * (i + 1); k++)
        spin += k;
    __atomic_store_n(&j->done[i], 1, __ATOMIC_RELEASE);
}

/* One job of n shares; returns how many shares ran, each checked once. */
static unsigned run_once(struct render_workers **pool, unsigned n)
{
    struct job j;
    memset(&j, 0, sizeof j);
    render_workers_run(pool, n, share, &j);
    unsigned expect = n > RENDER_WORKERS_MAX ? RENDER_WORKERS_MAX : n, ran = 0;
    for (unsigned i = 0; i < RENDER_WORKERS_MAX + 4; i++) {
        unsigned want = i < expect ? 1u : 0u;
        assert_int_equal(__atomic_load_n(&j.runs[i], __ATOMIC_RELAXED), want);
        assert_int_equal(__atomic_load_n(&j.done[i], __ATOMIC_ACQUIRE), want);
        ran += j.runs[i];
    }
    return ran;
}

static void every_share_once(void **state)
{
    (void)state;
    struct render_workers *pool = NULL;
    /* sizes going up and down, so idle threads meet later jobs */
    const unsigned sizes[] = {1, 2, 4, 2, 8, 1, 3, RENDER_WORKERS_MAX + 3, 2, 7, 0, 5};
    unsigned total = 0;
    for (unsigned round = 0; round < 200; round++)
        for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            total += run_once(&pool, sizes[k]);
    assert_int_equal(total, 200u * (1 + 2 + 4 + 2 + 8 + 1 + 3 + RENDER_WORKERS_MAX + 2 + 7 + 0 + 5));
    render_workers_free(pool);
}

static void child_after_fork(void **state)
{
    (void)state;
    struct render_workers *pool = NULL;
    assert_int_equal(run_once(&pool, 4), 4);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* a hang here is the failure: alarm ends it */
        alarm(20);
        struct job j;
        memset(&j, 0, sizeof j);
        render_workers_run(&pool, 4, share, &j);
        _exit(j.runs[0] == 1 && j.runs[1] == 1 && j.runs[2] == 1 && j.runs[3] == 1 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    /* the parent's pool still works */
    assert_int_equal(run_once(&pool, 4), 4);
    render_workers_free(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_share_once),
        cmocka_unit_test(child_after_fork),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
