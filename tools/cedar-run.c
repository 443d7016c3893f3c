/* cedar-run: run a program on the virtual Cedar behind a DRM device node.
 *
 *   cedar-run [--strict | --kernel-compat] [--no-exec] [--trace] [--capture DIR] -- PROGRAM [ARGS...]
 *
 * Builds the fake /dev/dri + sysfs tree of one HD 7350 (src/shim/fake_sysfs.c)
 * in a private temporary directory (tree_parent), runs PROGRAM with libcedar-shim.so
 * preloaded (src/shim/), waits for it, removes the tree and exits with
 * PROGRAM's status (128 + N when it died of signal N).  Programs it starts
 * inherit the shim; each process gets a virtual GPU of its own.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cedar/run.h"

#define SHIM_NAME "libcedar-shim.so"

static const char usage[] =
    "usage: cedar-run [OPTIONS] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM with the virtual Cedar (a software Radeon HD 7350) behind\n"
    "/dev/dri/card0 and /dev/dri/renderD128: inside PROGRAM the PCI bus shows\n"
    "one HD 7350 (1002:68F9) and nothing else, and every ioctl on the nodes is\n"
    "served by cedar's virtual radeon kernel, so libdrm and Mesa's r600 driver\n"
    "run on it unmodified.  Every other file and device passes through.\n"
    "\n"
    "  --kernel-compat  check command streams exactly as permissively as the\n"
    "                   radeon kernel's evergreen_cs.c (default)\n"
    "  --strict         also refuse what the kernel lets through (CMask/FMask\n"
    "                   sizes, addresses outside their buffers)\n"
    "  --no-exec        check every command stream, execute none (buffers keep\n"
    "                   what the CPU wrote): a null device, the control for\n"
    "                   measurements\n"
    "  --poison-state   every context and config register a command stream does\n"
    "                   not write starts as junk; each read of one by the model\n"
    "                   is reported on stderr (register, reader)\n"
    "  --trace          print each ioctl, and why a command stream was refused,\n"
    "                   on stderr\n"
    "  --capture DIR    write each command stream with its buffers as\n"
    "                   DIR/cs_NNN.bof (cedar-sim replay DIR/cs_*.bof replays them)\n"
    "  --shim FILE      the preload library (default: " SHIM_NAME " beside cedar-run)\n"
    "  --help           this text\n"
    "\n"
    "Exit status: PROGRAM's own, 128+N if it died of signal N; 2 on bad usage,\n"
    "1 when the device could not be set up, 127 when PROGRAM could not be run.\n";

static int bad_usage(const char *what, const char *arg)
{
    fprintf(stderr, "cedar-run: %s%s%s (cedar-run --help for usage)\n", what, arg ? ": " : "", arg ? arg : "");
    return 2;
}

/* The shim beside this executable (build/ for build/cedar-run), or one
 * directory up for the sanitized copies in build/san/bin/. */
static int find_shim(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    static const char *const rel[] = { "/", "/../../" };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        if ((size_t)snprintf(out, len, "%s%s%s", exe, rel[i], SHIM_NAME) >= len)
            return -1;
        if (access(out, R_OK) == 0) {
            char *r = realpath(out, NULL);
            if (r && strlen(r) < len)
                strcpy(out, r);
            free(r);
            return 0;
        }
    }
    return -1;
}

/* Where the tree's temporary directory goes: $TMPDIR when set, else
 * /dev/shm when it is a tmpfs this process may write, else /tmp.  Not /tmp
 * first: on a disk file system the tree's ~50 files and directories are
 * written and freed on disk for every run, and with online discard (ext4
 * -o discard) each freed block is a discard the run waits for: 19 per run
 * here, and `cedar-run -- true` took 95-119 ms in /tmp against 54-70 ms in
 * /dev/shm at load 6 (perf stat -r 20). */
static const char *tree_parent(void)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp && tmp[0])
        return tmp;
    struct statfs fs;
    if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC && access("/dev/shm", W_OK | X_OK) == 0)
        return "/dev/shm";
    return "/tmp";
}

static pid_t child;

static void forward(int sig)
{
    if (child > 0)
        kill(child, sig);
}

int main(int argc, char **argv)
{
    const char *check = "kernel", *capture = NULL, *shim_opt = NULL;
    int no_exec = 0, trace = 0, poison = 0, i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--strict") == 0) {
            check = "strict";
        } else if (strcmp(a, "--kernel-compat") == 0) {
            check = "kernel";
        } else if (strcmp(a, "--no-exec") == 0) {
            no_exec = 1;
        } else if (strcmp(a, "--poison-state") == 0) {
            poison = 1;
        } else if (strcmp(a, "--trace") == 0) {
            trace = 1;
        } else if (strcmp(a, "--capture") == 0 || strcmp(a, "--shim") == 0) {
            if (i + 1 >= argc)
                return bad_usage("missing value for", a);
            if (a[2] == 'c')
                capture = argv[++i];
            else
                shim_opt = argv[++i];
        } else if (a[0] == '-') {
            return bad_usage("unknown option", a);
        } else {
            break;   /* PROGRAM without "--" */
        }
    }
    if (i >= argc)
        return bad_usage("no PROGRAM to run", NULL);

    char shim[PATH_MAX], capdir[PATH_MAX] = "";
    if (shim_opt) {
        if (!realpath(shim_opt, shim)) {
            fprintf(stderr, "cedar-run: --shim %s: %s\n", shim_opt, strerror(errno));
            return 2;
        }
    } else if (find_shim(shim, sizeof shim) != 0) {
        fprintf(stderr, "cedar-run: cannot find %s beside cedar-run (run `make`, or give --shim FILE)\n",
                SHIM_NAME);
        return 1;
    }
    if (capture) {
        struct stat st;
        if (mkdir(capture, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "cedar-run: --capture %s: %s\n", capture, strerror(errno));
            return 2;
        }
        if (stat(capture, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(capture, capdir)) {
            fprintf(stderr, "cedar-run: --capture %s: not a directory\n", capture);
            return 2;
        }
    }

    const char *parent = tree_parent();
    char root[PATH_MAX];
    snprintf(root, sizeof root, "%s/cedar-run.XXXXXX", parent);
    if (!mkdtemp(root)) {
        fprintf(stderr, "cedar-run: cannot create a directory for the device tree in %s: %s\n",
                parent, strerror(errno));
        return 1;
    }
    char err[512];
    if (cedar_fake_sysfs_build(root, err, sizeof err) != 0) {
        fprintf(stderr, "cedar-run: %s\n", err);
        cedar_fake_sysfs_remove(root);
        return 1;
    }

    /* The shim first, then whatever the caller preloads. */
    const char *old = getenv("LD_PRELOAD");
    size_t plen = strlen(shim) + (old ? strlen(old) + 1 : 0) + 1;
    char *preload = malloc(plen);
    if (!preload) {
        cedar_fake_sysfs_remove(root);
        return 1;
    }
    snprintf(preload, plen, "%s%s%s", shim, old && old[0] ? ":" : "", old && old[0] ? old : "");
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    setenv(CEDAR_RUN_ENV_ROOT, root, 1);
    setenv(CEDAR_RUN_ENV_CHECK, check, 1);
    setenv(CEDAR_RUN_ENV_NO_EXEC, no_exec ? "1" : "0", 1);
    setenv(CEDAR_RUN_ENV_TRACE, trace ? "1" : "0", 1);
    setenv(CEDAR_RUN_ENV_POISON, poison ? "1" : "0", 1);
    if (capdir[0])
        setenv(CEDAR_RUN_ENV_CAPTURE, capdir, 1);
    else
        unsetenv(CEDAR_RUN_ENV_CAPTURE);

    struct sigaction sa = { .sa_handler = forward };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    child = fork();
    if (child < 0) {
        fprintf(stderr, "cedar-run: fork: %s\n", strerror(errno));
        cedar_fake_sysfs_remove(root);
        return 1;
    }
    if (child == 0) {
        execvp(argv[i], &argv[i]);
        fprintf(stderr, "cedar-run: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    cedar_fake_sysfs_remove(root);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
