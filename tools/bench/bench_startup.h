/* `bench startup`: what a user waits for, as whole processes.  The virtual
 * Cedar side is `cedar-msaa --device virtual --samples 8 --out DIR` (every
 * output file); the llvmpipe side is `cedar-gl-once --samples 4` (EGL and
 * llvmpipe started, the scene rendered once at 4x and read back).  Both
 * programs are taken from the directory cedar-bench itself runs from. */
#ifndef CEDAR_BENCH_STARTUP_H
#define CEDAR_BENCH_STARTUP_H

/* One untimed run of each side, whose outputs are checked (cedar-msaa's
 * frame.png read back and checked as the scene; cedar-gl-once checks its
 * own image), then runs alternating between the sides, and prints
 *   bench startup-detail machine: <n> CPUs online, 1-minute load average <l>
 *   bench startup-detail <side>: "<command>", <n> runs, median <ms>, best <ms>,
 *       CPU <ms>, peak RSS <MiB>
 *   bench startup virtual <ms> llvmpipe <ms> ratio <virtual/llvmpipe>
 *   bench peak-rss startup-<side> <MiB>
 * (wall-clock medians; CPU is the median user + system time of a run, peak
 * RSS the largest of the runs).  A side that cannot run prints
 * `bench startup <side> unavailable: <reason>`, one whose program failed or
 * whose image is wrong `bench startup <side> FAILED: <reason>`.  11 runs
 * each, 1 with CEDAR_BENCH_QUICK.  Returns 0 unless a side FAILED. */
int bench_startup_run(void);

#endif
