/* `bench frame` (see bench_frame.h).
 *
 * Each side runs in a forked child: llvmpipe needs environment variables set
 * before EGL starts and leaves threads and a JIT behind, and the peak
 * resident set the kernel keeps per process (ru_maxrss from wait4) is then
 * that side's alone.  A child inherits the pages resident in the parent at
 * fork time, so its figure includes the parent's small footprint.
 *
 * All children are set up first (untimed); then the parent tells them in
 * turn to render one frame and waits for it, round after round, so that a
 * busy spell on the machine falls on every side alike and only one side
 * renders at a time.  A child that hangs is stopped by an alarm. */
#include "bench_frame.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame_timing.h"
#include "llvmpipe_frame.h"
#include "virtual_frame.h"

typedef enum frame_status (*side_fn)(unsigned samples, struct frame_link *link, char *why,
                                     size_t whylen);

struct side {
    side_fn fn;
    unsigned samples, warmup;
    pid_t pid;
    int cmd_fd, msg_fd;     /* the parent's ends; -1 when closed */
    bool live;              /* ready and still answering */
    enum frame_status status;
    char why[400];
    struct frame_timing timing;
    double *wall_ms, *cpu_ms;
    double peak_mib;        /* the child's ru_maxrss */
};

enum { V4, L4, V8, NSIDES };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void run_child(struct side *sides, unsigned self, int cmd_fd, int msg_fd)
{
    /* only its own pipes: another side's end left open here would keep
     * the parent from seeing that side's end */
    for (unsigned i = 0; i < NSIDES; i++) {
        close_fd(&sides[i].cmd_fd);
        close_fd(&sides[i].msg_fd);
    }
    signal(SIGPIPE, SIG_DFL);
    struct frame_link link = {.cmd_fd = cmd_fd, .msg_fd = msg_fd, .warmup = sides[self].warmup};
    char why[400] = "";
    enum frame_status st = sides[self].fn(sides[self].samples, &link, why, sizeof why);
    if (!link.ready_sent) {
        struct frame_msg m;
        memset(&m, 0, sizeof m);
        m.kind = FRAME_MSG_DONE;
        m.status = st == FRAME_OK ? FRAME_FAILED : st;
        snprintf(m.why, sizeof m.why, "%s", why[0] ? why : "the side stopped before its first frame");
        frame_msg_send(msg_fd, &m);
    }
    _exit(0);
}

static void fail(struct side *s, enum frame_status st, const char *fmt, const char *arg)
{
    s->live = false;
    s->status = st;
    snprintf(s->why, sizeof s->why, fmt, arg);
}

static void start_side(struct side *sides, unsigned i)
{
    struct side *s = &sides[i];
    int cmd[2], msg[2];
    if (pipe(cmd) != 0) {
        fail(s, FRAME_FAILED, "pipe: %s", strerror(errno));
        return;
    }
    if (pipe(msg) != 0) {
        close(cmd[0]);
        close(cmd[1]);
        fail(s, FRAME_FAILED, "pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    s->pid = fork();
    if (s->pid < 0) {
        fail(s, FRAME_FAILED, "fork: %s", strerror(errno));
        close(cmd[0]);
        close(cmd[1]);
        close(msg[0]);
        close(msg[1]);
        return;
    }
    if (s->pid == 0) {
        close(cmd[1]);
        close(msg[0]);
        run_child(sides, i, cmd[0], msg[1]);
    }
    close(cmd[0]);
    close(msg[1]);
    s->cmd_fd = cmd[1];
    s->msg_fd = msg[0];
}

/* The child's next message; a child gone without one has failed. */
static int next_msg(struct side *s, struct frame_msg *m)
{
    if (frame_msg_recv(s->msg_fd, m) == 0)
        return 0;
    fail(s, FRAME_FAILED, "%s", "the child stopped without a report");
    return -1;
}

/* A message that is not the one expected ends the side. */
static bool expect(struct side *s, const struct frame_msg *m, enum frame_msg_kind kind)
{
    if (m->kind == kind && m->status == FRAME_OK)
        return true;
    fail(s, m->status == FRAME_OK ? FRAME_FAILED : m->status, "%s",
         m->why[0] ? m->why : "the child answered out of turn");
    return false;
}

static void wait_ready(struct side *s)
{
    struct frame_msg m;
    if (s->pid <= 0 || next_msg(s, &m) != 0 || !expect(s, &m, FRAME_MSG_READY))
        return;
    snprintf(s->timing.renderer, sizeof s->timing.renderer, "%s", m.renderer);
    s->live = true;
}

static bool command(struct side *s, char cmd)
{
    if (write(s->cmd_fd, &cmd, 1) == 1)
        return true;
    fail(s, FRAME_FAILED, "the child is gone: %s", strerror(errno));
    return false;
}

/* One frame of a live side. */
static void one_frame(struct side *s)
{
    struct frame_msg m;
    if (!command(s, FRAME_CMD_RENDER) || next_msg(s, &m) != 0 || !expect(s, &m, FRAME_MSG_FRAME))
        return;
    s->wall_ms[s->timing.frames] = m.wall_ms;
    s->cpu_ms[s->timing.frames] = m.cpu_ms;
    s->timing.frames++;
}

/* The last image checked, the child reaped; a child that died says how. */
static void finish_side(struct side *s)
{
    struct frame_msg m;
    if (s->live && command(s, FRAME_CMD_FINISH) && next_msg(s, &m) == 0 &&
        expect(s, &m, FRAME_MSG_DONE) && s->timing.frames > 0) {
        unsigned n = s->timing.frames;
        frame_summarise(s->wall_ms, s->cpu_ms, n, &s->timing);
        s->status = FRAME_OK;
    }
    close_fd(&s->cmd_fd);
    close_fd(&s->msg_fd);
    if (s->pid <= 0)
        return;
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(s->pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    s->peak_mib = ru.ru_maxrss / 1024.0; /* Linux: KiB */
    if (WIFSIGNALED(status)) {
        char sig[160];
        snprintf(sig, sizeof sig, "the child died of signal %d (%s)%s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)),
                 WTERMSIG(status) == SIGALRM ? ": took longer than the time limit" : "");
        fail(s, FRAME_FAILED, "%s", sig);
    }
}

/* Failure lines go to stdout as well: they are results of the benchmark. */
static int print_side(const char *label, const char *side, const struct side *s)
{
    if (s->status == FRAME_OK) {
        printf("bench %s-detail %s: \"%s\", %u samples, %u frames, median %.2f ms, "
               "mean %.2f ms, best %.2f ms, CPU %.2f ms, peak RSS %.1f MiB\n",
               label, side, s->timing.renderer, s->samples, s->timing.frames,
               s->timing.ms_per_frame, s->timing.mean_ms, s->timing.best_ms, s->timing.cpu_ms,
               s->peak_mib);
        return 0;
    }
    printf("bench %s %s %s: %s\n", label, side,
           s->status == FRAME_UNAVAILABLE ? "unavailable" : "FAILED", s->why);
    return s->status == FRAME_FAILED;
}

/* A side that did not run has no peak worth a number. */
static void print_peak(const char *label, const struct side *s)
{
    if (s->status == FRAME_OK)
        printf("bench peak-rss %s %.1f\n", label, s->peak_mib);
    else
        printf("bench peak-rss %s not measured (the side did not run)\n", label);
}

int bench_frame_run(void)
{
    /* At the least a few seconds of rounds (each one frame of every side). */
    static const struct frame_budget full = {3, 20, 400, 3.0};
    /* CEDAR_BENCH_QUICK: one checked frame and one timed frame per side (the
     * CLI test, under the sanitizers); the numbers are then only indicative. */
    static const struct frame_budget quick = {1, 1, 1, 0.0};
    const struct frame_budget *budget = bench_quick() ? &quick : &full;
    /* Debian 12's llvmpipe takes at most 4 samples: the comparison is at 4x. */
    struct side sides[NSIDES] = {
        [V4] = {.fn = virtual_frame_bench, .samples = 4},
        [L4] = {.fn = llvmpipe_frame_bench, .samples = 4},
        [V8] = {.fn = virtual_frame_bench, .samples = 8},
    };
    bench_print_machine("frame");
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN); /* a dead child's pipe: an error, not death */
    for (unsigned i = 0; i < NSIDES; i++) {
        struct side *s = &sides[i];
        s->cmd_fd = s->msg_fd = -1;
        s->status = FRAME_FAILED;
        s->warmup = budget->warmup;
        s->wall_ms = calloc(budget->max_rounds, sizeof *s->wall_ms);
        s->cpu_ms = calloc(budget->max_rounds, sizeof *s->cpu_ms);
        if (!s->wall_ms || !s->cpu_ms)
            fail(s, FRAME_FAILED, "%s", "out of memory");
    }
    /* set up one after the other: set-up is not timed, but a side's warm-up
     * frames should not share the machine with another's set-up */
    for (unsigned i = 0; i < NSIDES; i++) {
        if (sides[i].wall_ms && sides[i].cpu_ms)
            start_side(sides, i);
        wait_ready(&sides[i]);
    }
    double start = now_s();
    for (unsigned r = 0; r < budget->max_rounds; r++) {
        if (r >= budget->min_rounds && now_s() - start >= budget->budget_s)
            break;
        bool any = false;
        for (unsigned i = 0; i < NSIDES; i++)
            if (sides[i].live) {
                one_frame(&sides[i]);
                any = true;
            }
        if (!any)
            break;
    }
    for (unsigned i = 0; i < NSIDES; i++)
        finish_side(&sides[i]);
    signal(SIGPIPE, old_pipe);

    const struct side *v4 = &sides[V4], *l4 = &sides[L4], *v8 = &sides[V8];
    int failed = 0;
    failed |= print_side("frame", "virtual", v4);
    failed |= print_side("frame", "llvmpipe", l4);
    failed |= print_side("frame8x", "virtual", v8);
    bool v4ok = v4->status == FRAME_OK, l4ok = l4->status == FRAME_OK, v8ok = v8->status == FRAME_OK;
    if (v4ok && l4ok)
        printf("bench frame virtual %.2f llvmpipe %.2f ratio %.2f\n", v4->timing.ms_per_frame,
               l4->timing.ms_per_frame, v4->timing.ms_per_frame / l4->timing.ms_per_frame);
    else if (l4ok)
        printf("bench frame llvmpipe %.2f\n", l4->timing.ms_per_frame);
    else if (v4ok)
        printf("bench frame virtual %.2f\n", v4->timing.ms_per_frame);
    /* the goal of issue 13: the 8x frame below llvmpipe's 4x one */
    if (v8ok && l4ok)
        printf("bench frame8x virtual %.2f llvmpipe %.2f ratio %.2f\n", v8->timing.ms_per_frame,
               l4->timing.ms_per_frame, v8->timing.ms_per_frame / l4->timing.ms_per_frame);
    else if (v8ok)
        printf("bench frame8x virtual %.2f\n", v8->timing.ms_per_frame);
    print_peak("frame-virtual", v4);
    print_peak("frame-llvmpipe", l4);
    print_peak("frame8x-virtual", v8);
    for (unsigned i = 0; i < NSIDES; i++) {
        free(sides[i].wall_ms);
        free(sides[i].cpu_ms);
    }
    fflush(stdout);
    return failed;
}

bool bench_quick(void)
{
    const char *q = getenv("CEDAR_BENCH_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

void bench_print_machine(const char *label)
{
    /* Both sides share the machine with whatever else runs: say how busy it was. */
    double load = -1;
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load) != 1)
            load = -1;
        fclose(la);
    }
    printf("bench %s-detail machine: %ld CPUs online, 1-minute load average %.2f%s\n", label,
           sysconf(_SC_NPROCESSORS_ONLN), load, bench_quick() ? ", quick (CEDAR_BENCH_QUICK)" : "");
}

void bench_print_peak_rss(void)
{
    struct rusage self, children;
    memset(&self, 0, sizeof self);
    memset(&children, 0, sizeof children);
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    long kib = self.ru_maxrss > children.ru_maxrss ? self.ru_maxrss : children.ru_maxrss;
    printf("bench peak-rss %.1f\n", kib / 1024.0);
    fflush(stdout);
}
