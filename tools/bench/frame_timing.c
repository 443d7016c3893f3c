/* The frame loop both sides of `bench frame` share (see frame_timing.h). */
#include "frame_timing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CMD_TIMEOUT_S 60u   /* a frame (or the set-up before it) that takes longer hangs */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process, every thread (llvmpipe renders on several). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int frame_msg_send(int fd, const struct frame_msg *m)
{
    const char *p = (const char *)m;
    size_t left = sizeof *m;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        left -= (size_t)n;
    }
    return 0;
}

int frame_msg_recv(int fd, struct frame_msg *m)
{
    size_t got = 0;
    while (got < sizeof *m) {
        ssize_t n = read(fd, (char *)m + got, sizeof *m - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    m->renderer[sizeof m->renderer - 1] = '\0';
    m->why[sizeof m->why - 1] = '\0';
    return 0;
}

static enum frame_status stop(struct frame_link *link, const char *which, const char *reason,
                              char *why, size_t whylen)
{
    snprintf(why, whylen, "%s%s", which, reason);
    struct frame_msg m;
    memset(&m, 0, sizeof m);
    m.kind = FRAME_MSG_DONE;
    m.status = FRAME_FAILED;
    snprintf(m.why, sizeof m.why, "%s", why);
    frame_msg_send(link->msg_fd, &m);
    link->ready_sent = true; /* the parent has its answer */
    return FRAME_FAILED;
}

enum frame_status frame_serve(struct frame_link *link, const char *renderer, frame_step_fn render,
                              frame_step_fn check, void *ctx, char *why, size_t whylen)
{
    char reason[400];
    for (unsigned i = 0; i < link->warmup || i == 0; i++)
        if (render(ctx, reason, sizeof reason) != 0)
            return stop(link, "", reason, why, whylen);
    if (check(ctx, reason, sizeof reason) != 0)
        return stop(link, "the first image is wrong: ", reason, why, whylen);
    struct frame_msg m;
    memset(&m, 0, sizeof m);
    m.kind = FRAME_MSG_READY;
    m.status = FRAME_OK;
    snprintf(m.renderer, sizeof m.renderer, "%s", renderer);
    if (frame_msg_send(link->msg_fd, &m) != 0)
        return FRAME_FAILED;
    link->ready_sent = true;

    for (;;) {
        alarm(CMD_TIMEOUT_S);
        char cmd;
        ssize_t n = read(link->cmd_fd, &cmd, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return FRAME_OK; /* the parent is gone: nothing to report to */
        if (cmd == FRAME_CMD_FINISH)
            break;
        double t0 = now_s(), c0 = cpu_s();
        if (render(ctx, reason, sizeof reason) != 0)
            return stop(link, "", reason, why, whylen);
        memset(&m, 0, sizeof m);
        m.kind = FRAME_MSG_FRAME;
        m.status = FRAME_OK;
        m.wall_ms = (now_s() - t0) * 1e3;
        m.cpu_ms = (cpu_s() - c0) * 1e3;
        if (frame_msg_send(link->msg_fd, &m) != 0)
            return FRAME_OK;
    }
    if (check(ctx, reason, sizeof reason) != 0)
        return stop(link, "the last image is wrong: ", reason, why, whylen);
    memset(&m, 0, sizeof m);
    m.kind = FRAME_MSG_DONE;
    m.status = FRAME_OK;
    frame_msg_send(link->msg_fd, &m);
    return FRAME_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void frame_summarise(double *wall_ms, const double *cpu_ms, unsigned n, struct frame_timing *out)
{
    double total = 0, cpu = 0;
    for (unsigned i = 0; i < n; i++) {
        total += wall_ms[i];
        cpu += cpu_ms[i];
    }
    qsort(wall_ms, n, sizeof *wall_ms, cmp_double);
    out->frames = n;
    out->ms_per_frame = n % 2 ? wall_ms[n / 2] : (wall_ms[n / 2 - 1] + wall_ms[n / 2]) / 2;
    out->mean_ms = total / n;
    out->best_ms = wall_ms[0];
    out->cpu_ms = cpu / n;
}
