/* `bench frame` (see bench_frame.h).
 *
 * Each side runs in a forked child: llvmpipe needs environment variables set
 * before EGL starts and leaves threads and a JIT behind, and the peak
 * resident set the kernel keeps per process (ru_maxrss from wait4) is then
 * that side's alone.  A child inherits the pages resident in the parent at
 * fork time, so its figure includes the parent's small footprint.  A child
 * that hangs is stopped by an alarm. */
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
#include <unistd.h>

#include "llvmpipe_frame.h"
#include "virtual_frame.h"

#define CHILD_TIMEOUT_S 60u

/* What a child sends back through its pipe. */
struct side_report {
    enum frame_status status;
    struct frame_timing timing;
    char why[512];
};

struct side_result {
    struct side_report r;
    double peak_mib;   /* the child's ru_maxrss */
};

typedef enum frame_status (*side_fn)(unsigned samples, const struct frame_budget *budget,
                                     struct frame_timing *out, char *why, size_t whylen);

static void run_child(int fd, side_fn fn, unsigned samples, const struct frame_budget *budget)
{
    struct side_report rep;
    memset(&rep, 0, sizeof rep);
    alarm(CHILD_TIMEOUT_S);
    rep.status = fn(samples, budget, &rep.timing, rep.why, sizeof rep.why);
    const char *p = (const char *)&rep;
    size_t left = sizeof rep;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(3);
        p += n;
        left -= (size_t)n;
    }
    _exit(0);
}

static void run_side(side_fn fn, unsigned samples, const struct frame_budget *budget,
                     struct side_result *out)
{
    memset(out, 0, sizeof *out);
    out->r.status = FRAME_FAILED;
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(out->r.why, sizeof out->r.why, "pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->r.why, sizeof out->r.why, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        run_child(fds[1], fn, samples, budget);
    }
    close(fds[1]);
    struct side_report rep;
    size_t got = 0;
    while (got < sizeof rep) {
        ssize_t n = read(fds[0], (char *)&rep + got, sizeof rep - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    out->peak_mib = ru.ru_maxrss / 1024.0; /* Linux: KiB */
    if (got == sizeof rep && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        out->r = rep;
        out->r.why[sizeof out->r.why - 1] = '\0';
    } else if (WIFSIGNALED(status)) {
        snprintf(out->r.why, sizeof out->r.why, "the child died of signal %d (%s)%s",
                 WTERMSIG(status), strsignal(WTERMSIG(status)),
                 WTERMSIG(status) == SIGALRM ? ": took longer than the time limit" : "");
    } else {
        snprintf(out->r.why, sizeof out->r.why, "the child exited with status %d and no report",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
}

/* Failure lines go to stdout as well: they are results of the benchmark. */
static int print_side(const char *label, const char *side, const struct side_result *s)
{
    if (s->r.status == FRAME_OK) {
        printf("bench %s-detail %s: \"%s\", %u samples, %u frames, median %.2f ms, "
               "mean %.2f ms, best %.2f ms, CPU %.2f ms, peak RSS %.1f MiB\n",
               label, side, s->r.timing.renderer, s->r.timing.samples, s->r.timing.frames,
               s->r.timing.ms_per_frame, s->r.timing.mean_ms, s->r.timing.best_ms,
               s->r.timing.cpu_ms, s->peak_mib);
        return 0;
    }
    printf("bench %s %s %s: %s\n", label, side,
           s->r.status == FRAME_UNAVAILABLE ? "unavailable" : "FAILED", s->r.why);
    return s->r.status == FRAME_FAILED;
}

/* A side that did not run has no peak worth a number. */
static void print_peak(const char *label, const struct side_result *s)
{
    if (s->r.status == FRAME_OK)
        printf("bench peak-rss %s %.1f\n", label, s->peak_mib);
    else
        printf("bench peak-rss %s not measured (the side did not run)\n", label);
}

int bench_frame_run(void)
{
    /* A virtual frame may take a second or more; llvmpipe's a few ms. */
    static const struct frame_budget virtual_full = {1, 3, 50, 3.0};
    static const struct frame_budget llvmpipe_full = {3, 10, 500, 2.0};
    /* CEDAR_BENCH_QUICK: one checked frame and one timed frame per side (the
     * CLI test, under the sanitizers); the numbers are then only indicative. */
    static const struct frame_budget quick = {1, 1, 1, 0.0};
    bool is_quick = bench_quick();
    const struct frame_budget *virtual_budget = is_quick ? &quick : &virtual_full;
    const struct frame_budget *llvmpipe_budget = is_quick ? &quick : &llvmpipe_full;
    struct side_result v4, l4, v8;
    int failed = 0;

    bench_print_machine("frame");

    /* Debian 12's llvmpipe takes at most 4 samples: the comparison is at 4x. */
    run_side(virtual_frame_bench, 4, virtual_budget, &v4);
    run_side(llvmpipe_frame_bench, 4, llvmpipe_budget, &l4);
    run_side(virtual_frame_bench, 8, virtual_budget, &v8);

    failed |= print_side("frame", "virtual", &v4);
    failed |= print_side("frame", "llvmpipe", &l4);
    failed |= print_side("frame8x", "virtual", &v8);
    if (v4.r.status == FRAME_OK && l4.r.status == FRAME_OK)
        printf("bench frame virtual %.2f llvmpipe %.2f ratio %.2f\n", v4.r.timing.ms_per_frame,
               l4.r.timing.ms_per_frame, v4.r.timing.ms_per_frame / l4.r.timing.ms_per_frame);
    else if (l4.r.status == FRAME_OK)
        printf("bench frame llvmpipe %.2f\n", l4.r.timing.ms_per_frame);
    else if (v4.r.status == FRAME_OK)
        printf("bench frame virtual %.2f\n", v4.r.timing.ms_per_frame);
    if (v8.r.status == FRAME_OK)
        printf("bench frame8x virtual %.2f\n", v8.r.timing.ms_per_frame);
    print_peak("frame-virtual", &v4);
    print_peak("frame-llvmpipe", &l4);
    print_peak("frame8x-virtual", &v8);
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
