/* The renderer's worker threads: started on first use and kept for the life
 * of the vc_render, so a draw does not pay a thread start per primitive. */
#ifndef CEDAR_RENDER_WORKERS_H
#define CEDAR_RENDER_WORKERS_H

struct render_workers;

/* Runs job(arg, i) for i = 0 .. n-1: share 0 on the calling thread, the
 * others on the pool's threads, started here when missing (at most
 * RENDER_WORKERS_MAX - 1 of them).  Returns when every share has returned.
 * A share whose thread cannot be started runs on the caller after share 0:
 * the result is the same, only slower.  *pool is created on first use;
 * n > RENDER_WORKERS_MAX is cut to it. */
#define RENDER_WORKERS_MAX 8
void render_workers_run(struct render_workers **pool, unsigned n, void (*job)(void *arg, unsigned i), void *arg);

/* Stops and joins the threads. */
void render_workers_free(struct render_workers *pool);

#endif
