/* A fixed pool of threads for the renderer (workers.h).  One job at a time:
 * the caller posts it under the lock with a new generation number, each
 * thread whose index is below the job's share count runs its share, and the
 * last to finish wakes the caller. */
#include "workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

struct render_workers {
    pthread_mutex_t lock;
    pthread_cond_t start;       /* a new generation was posted, or stop */
    pthread_cond_t done;        /* pending reached 0 */
    unsigned long generation;
    void (*job)(void *arg, unsigned i);
    void *arg;
    unsigned shares;            /* of the current job, the caller's included */
    unsigned pending;           /* pool threads still running their share */
    bool stop;
    pid_t owner;                /* the process whose threads these are */
    unsigned nthreads;          /* started; thread k runs share k + 1 */
    pthread_t tid[RENDER_WORKERS_MAX - 1];
    struct thread_arg {
        struct render_workers *pool;
        unsigned share;
        unsigned long seen;     /* the generation current when it started */
    } targ[RENDER_WORKERS_MAX - 1];
};

static void *worker_main(void *p)
{
    struct thread_arg *ta = p;
    struct render_workers *w = ta->pool;
    pthread_mutex_lock(&w->lock);
    /* not w->generation: the job it was started for may be posted already */
    unsigned long seen = ta->seen;
    for (;;) {
        while (!w->stop && w->generation == seen)
            pthread_cond_wait(&w->start, &w->lock);
        if (w->stop)
            break;
        seen = w->generation;
        if (ta->share >= w->shares)
            continue;
        void (*job)(void *, unsigned) = w->job;
        void *arg = w->arg;
        pthread_mutex_unlock(&w->lock);
        job(arg, ta->share);
        pthread_mutex_lock(&w->lock);
        if (--w->pending == 0)
            pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static struct render_workers *pool_new(void)
{
    struct render_workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->start, NULL) != 0) {
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    if (pthread_cond_init(&w->done, NULL) != 0) {
        pthread_cond_destroy(&w->start);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return NULL;
    }
    w->owner = getpid();
    return w;
}

void render_workers_run(struct render_workers **pool, unsigned n, void (*job)(void *arg, unsigned i), void *arg)
{
    if (n == 0)
        return;
    if (n > RENDER_WORKERS_MAX)
        n = RENDER_WORKERS_MAX;
    /* A child of fork has none of its parent's threads (and maybe a copy of
     * a held lock): it starts a pool of its own; the copy is left alone. */
    if (*pool && (*pool)->owner != getpid())
        *pool = NULL;
    if (n > 1 && !*pool)
        *pool = pool_new();
    struct render_workers *w = *pool;
    unsigned threaded = 0; /* shares 1 .. threaded run on pool threads */
    if (w && n > 1) {
        pthread_mutex_lock(&w->lock);
        while (w->nthreads < n - 1) {
            struct thread_arg *ta = &w->targ[w->nthreads];
            ta->pool = w;
            ta->share = w->nthreads + 1;
            ta->seen = w->generation;
            if (pthread_create(&w->tid[w->nthreads], NULL, worker_main, ta) != 0)
                break;
            w->nthreads++;
        }
        threaded = w->nthreads < n - 1 ? w->nthreads : n - 1;
        w->job = job;
        w->arg = arg;
        w->shares = threaded + 1;
        w->pending = threaded;
        w->generation++;
        pthread_cond_broadcast(&w->start);
        pthread_mutex_unlock(&w->lock);
    }
    job(arg, 0);
    for (unsigned i = threaded + 1; i < n; i++)
        job(arg, i);
    if (threaded) {
        pthread_mutex_lock(&w->lock);
        while (w->pending)
            pthread_cond_wait(&w->done, &w->lock);
        pthread_mutex_unlock(&w->lock);
    }
}

void render_workers_free(struct render_workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_broadcast(&w->start);
    pthread_mutex_unlock(&w->lock);
    for (unsigned i = 0; i < w->nthreads; i++)
        pthread_join(w->tid[i], NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->start);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
