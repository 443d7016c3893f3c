#!/usr/bin/env python3
"""Run piglit tests on the virtual Cedar, on the null device and on llvmpipe.

    piglit_run.py [options] LIST...

Each LIST file names piglit tests, one a line, as piglit's profiles name them
(`spec@ext_framebuffer_multisample@fast-clear`); '#' starts a comment.  Every
test runs three times, all with PIGLIT_PLATFORM=surfaceless_egl:

  cedar     build/cedar-run -- CMD            Mesa's r600 on the virtual Cedar
  null      build/cedar-run --no-exec -- CMD  the same, executing nothing
  llvmpipe  CMD with LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe

Before the tests, piglit's glinfo runs on each side and must report the
expected renderer (CEDAR under cedar-run, llvmpipe plainly), so a side that
silently fell back to another driver is an error, not a column of results.

Writes BUILD/piglit/LISTNAME.tsv (test, status, seconds, CPU seconds per side) and
BUILD/piglit/LISTNAME/SIDE/TEST.log (command, exit, first error line, output);
lists each test the virtual Cedar does not pass with its first error line on
stderr, and prints per list:

  piglit LISTNAME cedar pass P fail F skip S crash C timeout T / null ... /
  llvmpipe ... / discriminating: D tests fail on the null device and pass on
  llvmpipe, of which the virtual Cedar passes K

then the wall time of each side (the sum of its tests' times, also with
--jobs N running N tests at once) and its CPU time (user + system of each
test and the processes it waited for).  'fail' counts piglit's fail and warn,
'skip' its skip and notrun.  Exit status: 0 when the tests ran (whatever
their results), 1 when a side cannot run, 2 for bad usage, a missing list or
an unknown test name.
"""
import argparse
import concurrent.futures
import os
import re
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piglit_map  # noqa: E402
import piglit_result  # noqa: E402

SIDES = ("cedar", "null", "llvmpipe")
PLATFORM = "surfaceless_egl"
# What GL_RENDERER must contain on each side: Mesa's r600 names the chip
# ("AMD CEDAR (DRM 2.50.0 / ...)"), llvmpipe names itself.
RENDERER = {"cedar": "CEDAR", "null": "CEDAR", "llvmpipe": "llvmpipe"}
# Variables that choose or redirect the GL driver: dropped from the caller's
# environment so each side gets only what it sets itself.
DRIVER_VARS = ("LIBGL_ALWAYS_SOFTWARE", "GALLIUM_DRIVER", "MESA_LOADER_DRIVER_OVERRIDE",
               "LD_PRELOAD", "PIGLIT_PLATFORM", "EGL_PLATFORM", "LIBGL_DRIVERS_PATH")
KILL_GRACE = 3.0


class UsageError(Exception):
    pass


class SideError(Exception):
    pass


def read_list(path, tests):
    """The test names of a list file, in order; UsageError on a missing file or unknown names."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsageError("cannot read list %s: %s" % (path, e.strerror))
    names, unknown, seen = [], [], set()
    for n, line in enumerate(lines, 1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        # piglit keeps test names in lower case (framework/profile.py TestDict).
        key = name.lower()
        if key not in tests:
            unknown.append("%s:%d: %s" % (path, n, name))
        elif key not in seen:
            seen.add(key)
            names.append(key)
    if unknown:
        raise UsageError("unknown piglit test name%s (not in the profile):\n  %s"
                         % ("s" if len(unknown) > 1 else "", "\n  ".join(unknown)))
    if not names:
        raise UsageError("list %s names no tests" % path)
    return names


def side_env(side, test_env, piglit_dir):
    env = {k: v for k, v in os.environ.items() if k not in DRIVER_VARS}
    env["PIGLIT_PLATFORM"] = PLATFORM
    env.setdefault("PIGLIT_SOURCE_DIR", piglit_dir)
    if side == "llvmpipe":
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        env["GALLIUM_DRIVER"] = "llvmpipe"
    env.update(test_env)
    return env


def side_command(side, command, args):
    if side == "cedar":
        return [args.cedar_run] + args.cedar_run_arg + ["--"] + command
    if side == "null":
        return [args.cedar_run, "--no-exec"] + args.cedar_run_arg + ["--"] + command
    return list(command)


def run_process(argv, env, cwd, limit, out_path, err_path):
    """(returncode or None on timeout, seconds, CPU seconds); output into the two files.

    The test gets its own process group so a timeout also ends whatever it
    started (cedar-run's child, shader compilers).  The end is seen through a
    pidfd, not by polling (Popen.wait with a timeout sleeps up to 50 ms at a
    time, which rounded every test up by as much); the CPU seconds are wait4's
    user + system time of the test and of the processes it waited for."""
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 env=env, cwd=cwd, start_new_session=True)
        except OSError as e:
            err.write(("cannot run %s: %s\n" % (argv[0], e.strerror)).encode())
            return 127, time.monotonic() - start, 0.0
        pidfd = os.pidfd_open(p.pid)
        try:
            ended = bool(select.select([pidfd], [], [], limit)[0])
            if not ended:
                for sig, grace in ((signal.SIGTERM, KILL_GRACE), (signal.SIGKILL, None)):
                    try:
                        os.killpg(p.pid, sig)
                    except ProcessLookupError:
                        pass
                    if select.select([pidfd], [], [], grace)[0]:
                        break
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            os.close(pidfd)
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        secs = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    return (p.returncode if ended else None), secs, cpu


def _read(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def safe_name(name):
    return re.sub(r"[^A-Za-z0-9@._+-]", "_", name)


def run_test(side, name, entry, args, logdir):
    """(status, seconds, first error line, CPU seconds) of one test on one side; writes its log."""
    argv = side_command(side, entry["command"], args)
    env = side_env(side, entry.get("env", {}), args.piglit_dir)
    log = os.path.join(logdir, side, safe_name(name) + ".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    plat_skip = ((entry.get("require_platforms") and PLATFORM not in entry["require_platforms"])
                 or PLATFORM in entry.get("exclude_platforms", []))
    if plat_skip:
        with open(log, "w") as f:
            f.write("skip: piglit does not run this test on %s\n" % PLATFORM)
        return "skip", 0.0, "", 0.0
    out_path, err_path = log + ".out", log + ".err"
    rc, secs, cpu = run_process(argv, env, args.workdir, args.timeout, out_path, err_path)
    out, err = _read(out_path), _read(err_path)
    os.unlink(out_path)
    os.unlink(err_path)
    if rc is not None and side != "llvmpipe" and 128 < rc <= 128 + 64:
        # cedar-run waits for the program and exits 128+N when it died of
        # signal N; piglit tests themselves exit 0 or 1.
        rc = -(rc - 128)
    if rc is None:
        status = "timeout"
    else:
        status, _ = piglit_result.interpret(rc, out)
    first = "" if status in ("pass", "skip") else piglit_result.first_error(out, err)
    with open(log, "w") as f:
        f.write("command: %s\n" % " ".join(argv))
        f.write("exit: %s  seconds: %.2f  CPU seconds: %.2f  status: %s\n" % (
            "timeout after %gs" % args.timeout if rc is None else rc, secs, cpu, status))
        f.write("first error: %s\n" % first)
        f.write("--- stdout\n%s--- stderr\n%s" % (out, err))
    return status, secs, first, cpu


def probe_renderer(side, args):
    """Runs piglit's glinfo on a side; SideError unless it names the expected renderer."""
    glinfo = os.path.join(args.piglit_dir, "bin", "glinfo")
    argv = side_command(side, [glinfo, "-auto", "-fbo"], args)
    env = side_env(side, {}, args.piglit_dir)
    os.makedirs(args.workdir, exist_ok=True)
    out_path = os.path.join(args.workdir, "glinfo-%s.out" % side)
    err_path = os.path.join(args.workdir, "glinfo-%s.err" % side)
    rc, _, _ = run_process(argv, env, args.workdir, args.timeout, out_path, err_path)
    out, err = _read(out_path), _read(err_path)
    m = re.search(r"^GL_RENDERER = (.*)$", out, re.M)
    if m and RENDERER[side] in m.group(1):
        return m.group(1).strip()
    why = ("renderer is '%s'" % m.group(1).strip() if m else
           "timed out" if rc is None else
           "no GL_RENDERER line (exit %s): %s" % (rc, (err.strip().splitlines() or ["no output"])[-1]))
    raise SideError("%s side: '%s' %s; expected a renderer containing '%s'"
                    % (side, " ".join(argv), why, RENDERER[side]))


def count_line(side, results):
    c = {"pass": 0, "fail": 0, "skip": 0, "crash": 0, "timeout": 0}
    for st in results:
        c[{"warn": "fail", "notrun": "skip"}.get(st, st) if st in
          ("pass", "fail", "warn", "skip", "notrun", "crash", "timeout") else "fail"] += 1
    return "%s pass %d fail %d skip %d crash %d timeout %d" % (
        side, c["pass"], c["fail"], c["skip"], c["crash"], c["timeout"])


def summary(listname, names, res, sides):
    parts = [count_line(s, [res[n][s][0] for n in names]) for s in sides]
    if "null" in sides and "llvmpipe" in sides:
        disc = [n for n in names if res[n]["null"][0] in ("fail", "warn")
                and res[n]["llvmpipe"][0] == "pass"]
        tail = "discriminating: %d tests fail on the null device and pass on llvmpipe" % len(disc)
        if "cedar" in sides:
            k = sum(1 for n in disc if res[n]["cedar"][0] == "pass")
            tail += ", of which the virtual Cedar passes %d" % k
    else:
        tail = "discriminating: not counted (needs the null and llvmpipe sides)"
    return "piglit %s %s / %s" % (listname, " / ".join(parts), tail)


def write_tsv(path, names, res, sides):
    """test, a status per side, seconds per side, then CPU seconds per side
    (SIDE_cpu; "-" where a merged run had none)."""
    tmp = path + ".tmp"
    cpu = lambda r: "%.2f" % r[3] if len(r) > 3 else "-"
    with open(tmp, "w") as f:
        f.write("\t".join(["test"] + list(sides) + ["%s_s" % s for s in sides]
                          + ["%s_cpu" % s for s in sides]) + "\n")
        for n in names:
            f.write("\t".join([n] + [res[n][s][0] for s in sides]
                              + ["%.2f" % res[n][s][1] for s in sides]
                              + [cpu(res[n][s]) for s in sides]) + "\n")
    os.replace(tmp, path)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="piglit_run.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lists", nargs="*", metavar="LIST")
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"),
                    help="build directory (default build): cedar-run and piglit/ output")
    ap.add_argument("--cedar-run", help="the cedar-run program (default BUILD/cedar-run)")
    ap.add_argument("--cedar-run-arg", action="append", default=[], metavar="ARG",
                    help="an option for cedar-run on both cedar sides (e.g. --strict); repeatable")
    ap.add_argument("--piglit-dir", default=piglit_map.DEFAULT_PIGLIT_DIR,
                    help="installed piglit (default %(default)s)")
    ap.add_argument("--profile", default="all", help="piglit profile naming the tests (default all)")
    ap.add_argument("--map", help="a JSON name->command map to use instead of the profile")
    ap.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                    help="per-test time limit on each side (default 60)")
    ap.add_argument("--sides", default=",".join(SIDES),
                    help="which sides to run, comma-separated (default cedar,null,llvmpipe)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no per-test progress on stderr")
    ap.add_argument("--jobs", type=int, default=1, metavar="N",
                    help="tests run at once (default 1; each test's sides one after the other)")
    args = ap.parse_args(argv)
    if not args.lists:
        raise UsageError("no LIST given (make piglit LIST=tests/piglit/smoke.list)")
    if not args.timeout > 0:
        raise UsageError("--timeout must be positive")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    sides = [s.strip() for s in args.sides.split(",") if s.strip()]
    bad = [s for s in sides if s not in SIDES]
    if bad or not sides:
        raise UsageError("--sides: unknown side '%s' (choose from %s)"
                         % (",".join(bad), ",".join(SIDES)))
    args.sides = [s for s in SIDES if s in sides]
    # Absolute: the tests run in BUILD/piglit/work.
    args.cedar_run = os.path.abspath(args.cedar_run or os.path.join(args.build, "cedar-run"))
    args.outdir = os.path.join(args.build, "piglit")
    args.workdir = os.path.abspath(os.path.join(args.outdir, "work"))
    return args


def main(argv):
    args = parse_args(argv)
    log = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    for p in args.lists:  # before the map, which may take seconds to build
        if not os.path.isfile(p):
            raise UsageError("list %s: no such file" % p)
    try:
        tests = (piglit_map.load_file(args.map) if args.map else
                 piglit_map.load(os.path.join(args.outdir, "map-%s.json" % args.profile),
                                 args.piglit_dir, args.profile, log))
    except piglit_map.MapError as e:
        raise SideError(str(e))
    lists = [(os.path.splitext(os.path.basename(p))[0], read_list(p, tests)) for p in args.lists]
    if any(s != "llvmpipe" for s in args.sides) and not os.access(args.cedar_run, os.X_OK):
        raise SideError("%s not found or not executable: build it (make) or run "
                        "--sides llvmpipe" % args.cedar_run)
    for side in args.sides:
        log("piglit: %s side renderer: %s" % (side, probe_renderer(side, args)))
    for listname, names in lists:
        logdir = os.path.join(args.outdir, listname)
        res = {}
        wall = {s: 0.0 for s in args.sides}
        cpu = {s: 0.0 for s in args.sides}

        def one(name):
            return {side: run_test(side, name, tests[name], args, logdir) for side in args.sides}

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(one, name): name for name in names}
            done = 0
            for fut in concurrent.futures.as_completed(futures):
                name = futures[fut]
                res[name] = fut.result()
                done += 1
                for side in args.sides:
                    wall[side] += res[name][side][1]
                    cpu[side] += res[name][side][3]
                log("  [%d/%d] %s: %s" % (done, len(names), name, ", ".join(
                    "%s %s %.1fs" % (s, res[name][s][0], res[name][s][1]) for s in args.sides)))
        tsv = os.path.join(args.outdir, listname + ".tsv")
        write_tsv(tsv, names, res, args.sides)
        if "cedar" in args.sides:
            for n in names:
                st, _, first, _ = res[n]["cedar"]
                if st not in ("pass", "skip"):
                    print("  cedar %s: %s: %s" % (st, n, first or "(no message)"), file=sys.stderr)
        print(summary(listname, names, res, args.sides))
        print("piglit %s wall time: %s (%d tests; %s, logs in %s/)" % (
            listname, ", ".join("%s %.1fs" % (s, wall[s]) for s in args.sides),
            len(names), tsv, logdir))
        print("piglit %s CPU time: %s" % (
            listname, ", ".join("%s %.1fs" % (s, cpu[s]) for s in args.sides)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print("piglit: %s" % e, file=sys.stderr)
        sys.exit(2)
    except SideError as e:
        print("piglit: %s" % e, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
