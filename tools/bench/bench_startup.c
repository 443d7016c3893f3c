/* `bench startup` (see bench_startup.h).
 *
 * Each run is a fork + exec of the side's program, timed from before the
 * fork to the return of wait4, whose rusage gives the run's CPU time and
 * peak resident set.  The program's stdout and stderr go to a pipe the
 * parent drains (the last line is the reason when a run fails).  The sides
 * alternate run by run so that both see the same machine load; a run that
 * hangs is stopped by an alarm set before exec (it survives exec). */
#include "bench_startup.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_frame.h"
#include "cedar/image.h"
#include "frame_scene.h"

#define RUNS_FULL 11u
#define RUN_TIMEOUT_S 120u
#define GL_UNAVAILABLE 3   /* cedar-gl-once's exit status when llvmpipe cannot run */

enum side_status { SIDE_OK, SIDE_UNAVAILABLE, SIDE_FAILED };

struct side {
    const char *name;            /* "virtual", "llvmpipe" */
    char prog[PATH_MAX];
    char *argv[12];
    enum side_status status;
    char why[400];
    double wall_ms[RUNS_FULL], cpu_ms[RUNS_FULL];
    unsigned runs;
    double peak_mib;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The last non-empty line of a program's output. */
static void last_line(const char *out, char *line, size_t len)
{
    const char *end = out + strlen(out);
    while (end > out && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    const char *start = end;
    while (start > out && start[-1] != '\n')
        start--;
    snprintf(line, len, "%.*s", (int)(end - start), start);
}

/* Runs the side's program once.  Returns its wait status (-1: could not
 * run it, reason in s->why); wall and CPU time and peak RSS in the outputs,
 * the first bytes of its output in out. */
static int run_once(struct side *s, double *wall_ms, double *cpu_ms, double *peak_mib, char *out,
                    size_t outlen)
{
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(s->why, sizeof s->why, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(s->why, sizeof s->why, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[1]);
        alarm(RUN_TIMEOUT_S);
        execv(s->prog, s->argv);
        fprintf(stderr, "cannot run %s: %s\n", s->prog, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    char sink[4096];
    for (;;) {
        /* keep the start of the output, drain the rest */
        char *dst = got + 1 < outlen ? out + got : sink;
        size_t room = got + 1 < outlen ? outlen - 1 - got : sizeof sink;
        ssize_t n = read(fds[0], dst, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (dst != sink)
            got += (size_t)n;
    }
    out[got] = '\0';
    close(fds[0]);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    *wall_ms = (now_s() - t0) * 1e3;
    *cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
              (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    *peak_mib = ru.ru_maxrss / 1024.0; /* Linux: KiB */
    return status;
}

/* Is the frame cedar-msaa left in dir the scene? */
static int check_msaa_frame(const char *dir, char *why, size_t whylen)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/frame.png", dir);
    uint8_t *px = NULL;
    unsigned w = 0, h = 0;
    struct cedar_image_err ie = {{0}};
    if (cedar_png_read_rgba8(path, &px, &w, &h, &ie) != 0) {
        snprintf(why, whylen, "no frame to check: %s", ie.msg);
        return -1;
    }
    char bad[240];
    int rc = 0;
    if (w != FRAME_WIDTH || h != FRAME_HEIGHT) {
        snprintf(why, whylen, "frame.png is %ux%u, not %ux%u", w, h, FRAME_WIDTH, FRAME_HEIGHT);
        rc = -1;
    } else if (frame_check_image(px, (size_t)w * 4, FRAME_RGBA, 8, bad, sizeof bad) != 0) {
        snprintf(why, whylen, "frame.png is not the scene: %s", bad);
        rc = -1;
    }
    free(px);
    return rc;
}

/* One run of side s; check: also check what it produced.  Records the
 * times when `timed`.  Returns 0, or -1 with s->status and s->why set. */
static int side_run(struct side *s, const char *dir, bool check, bool timed)
{
    double wall, cpu, peak;
    char out[2048], line[300];
    int st = run_once(s, &wall, &cpu, &peak, out, sizeof out);
    if (st == -1) {
        s->status = SIDE_FAILED;
        return -1;
    }
    last_line(out, line, sizeof line);
    if (WIFSIGNALED(st)) {
        s->status = SIDE_FAILED;
        snprintf(s->why, sizeof s->why, "%.200s died of signal %d (%s)%s", s->prog, WTERMSIG(st),
                 strsignal(WTERMSIG(st)), WTERMSIG(st) == SIGALRM ? ": took too long" : "");
        return -1;
    }
    if (WEXITSTATUS(st) != 0) {
        bool gl_missing = strcmp(s->name, "llvmpipe") == 0 && WEXITSTATUS(st) == GL_UNAVAILABLE;
        s->status = gl_missing || WEXITSTATUS(st) == 127 ? SIDE_UNAVAILABLE : SIDE_FAILED;
        snprintf(s->why, sizeof s->why, "exit status %d: %s", WEXITSTATUS(st), line);
        return -1;
    }
    if (check && dir && check_msaa_frame(dir, s->why, sizeof s->why) != 0) {
        s->status = SIDE_FAILED;
        return -1;
    }
    if (timed && s->runs < RUNS_FULL) {
        s->wall_ms[s->runs] = wall;
        s->cpu_ms[s->runs] = cpu;
        s->runs++;
        if (peak > s->peak_mib)
            s->peak_mib = peak;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The directory this program runs from (the other programs sit beside it). */
static int own_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0)
        return -1;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void print_side(struct side *s, const char *what)
{
    if (s->status != SIDE_OK) {
        printf("bench startup %s %s: %s\n", s->name,
               s->status == SIDE_UNAVAILABLE ? "unavailable" : "FAILED", s->why);
        return;
    }
    double best = s->wall_ms[0];
    for (unsigned i = 1; i < s->runs; i++)
        best = s->wall_ms[i] < best ? s->wall_ms[i] : best;
    double cpu = median(s->cpu_ms, s->runs);
    printf("bench startup-detail %s: \"%s\", %u runs, median %.1f ms, best %.1f ms, CPU %.1f ms, "
           "peak RSS %.1f MiB\n",
           s->name, what, s->runs, median(s->wall_ms, s->runs), best, cpu, s->peak_mib);
}

int bench_startup_run(void)
{
    unsigned runs = bench_quick() ? 1 : RUNS_FULL;
    bench_print_machine("startup");

    static struct side v, l;
    memset(&v, 0, sizeof v);
    memset(&l, 0, sizeof l);
    v.name = "virtual";
    l.name = "llvmpipe";
    char bin[PATH_MAX - 32], tmpl[PATH_MAX];
    const char *tmpdir = getenv("TMPDIR");
    snprintf(tmpl, sizeof tmpl, "%s/cedar-bench-startup-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *dir = NULL;
    if (own_dir(bin, sizeof bin) != 0) {
        v.status = l.status = SIDE_UNAVAILABLE;
        snprintf(v.why, sizeof v.why, "cannot tell where cedar-bench runs from");
        snprintf(l.why, sizeof l.why, "%s", v.why);
    } else if ((dir = mkdtemp(tmpl)) == NULL) {
        v.status = SIDE_FAILED;
        snprintf(v.why, sizeof v.why, "cannot make a directory for the outputs: %s", strerror(errno));
        l.status = SIDE_UNAVAILABLE;
        snprintf(l.why, sizeof l.why, "not run (the virtual side could not)");
    }
    snprintf(v.prog, sizeof v.prog, "%s/cedar-msaa", bin);
    snprintf(l.prog, sizeof l.prog, "%s/cedar-gl-once", bin);
    char *vargs[] = {v.prog, "--device", "virtual", "--samples", "8", "--out", dir, NULL};
    char *largs[] = {l.prog, "--samples", "4", NULL};
    memcpy(v.argv, vargs, sizeof vargs);
    memcpy(l.argv, largs, sizeof largs);

    /* One untimed run each (the programs and libraries into the page
     * cache), checked; then alternating timed runs, the last one checked. */
    if (v.status == SIDE_OK)
        side_run(&v, dir, true, false);
    if (l.status == SIDE_OK)
        side_run(&l, NULL, false, false);
    for (unsigned i = 0; i < runs && (v.status == SIDE_OK || l.status == SIDE_OK); i++) {
        if (v.status == SIDE_OK)
            side_run(&v, dir, i + 1 == runs, true);
        if (l.status == SIDE_OK)
            side_run(&l, NULL, false, true);
    }
    if (dir)
        remove_dir(dir);

    print_side(&v, "cedar-msaa --device virtual --samples 8 --out DIR");
    print_side(&l, "cedar-gl-once --samples 4");
    if (v.status == SIDE_OK && l.status == SIDE_OK) {
        double mv = median(v.wall_ms, v.runs), ml = median(l.wall_ms, l.runs);
        printf("bench startup virtual %.1f llvmpipe %.1f ratio %.2f\n", mv, ml, mv / ml);
    } else if (v.status == SIDE_OK) {
        printf("bench startup virtual %.1f\n", median(v.wall_ms, v.runs));
    } else if (l.status == SIDE_OK) {
        printf("bench startup llvmpipe %.1f\n", median(l.wall_ms, l.runs));
    }
    const struct side *sides[2] = {&v, &l};
    for (int i = 0; i < 2; i++) {
        if (sides[i]->status == SIDE_OK)
            printf("bench peak-rss startup-%s %.1f\n", sides[i]->name, sides[i]->peak_mib);
        else
            printf("bench peak-rss startup-%s not measured (the side did not run)\n", sides[i]->name);
    }
    fflush(stdout);
    return v.status == SIDE_FAILED || l.status == SIDE_FAILED;
}
