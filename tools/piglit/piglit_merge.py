#!/usr/bin/env python3
"""Merge the TSVs of several `make piglit` runs over parts of one list.

    piglit_merge.py --list tests/piglit/msaa.list [--out FILE.tsv] RUN.tsv...

A long list (msaa.list) is run in sub-lists, and not every side on every
sub-list (the null device and llvmpipe on all of it, the virtual Cedar on
part).  This reads the runs' TSVs (tools/piglit/piglit_run.py's: test, a
status per side, seconds per side), takes for each test and side the last
run that has it, and prints piglit_run's summary line for the list (a side's
untested tests counted as "notrun": piglit_run counts those as skips, so the
line also says how many), its wall time per side and over the tests no side
skipped, optionally the tests the virtual Cedar was slowest on, and
optionally writes the merged TSV (status "-" where a side did not run a
test).
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piglit_run  # noqa: E402


def read_names(path):
    names = []
    with open(path) as f:
        for line in f:
            n = line.split("#", 1)[0].strip().lower()
            if n and n not in names:
                names.append(n)
    return names


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", required=True, help="the whole list the runs are parts of")
    ap.add_argument("--out", help="write the merged TSV here")
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="also list the N tests the virtual Cedar took longest on, with every side's seconds")
    ap.add_argument("tsvs", nargs="+", metavar="RUN.tsv")
    args = ap.parse_args(argv)
    names = read_names(args.list)
    res = {n: {} for n in names}
    for path in args.tsvs:
        with open(path) as f:
            rows = list(csv.reader(f, delimiter="\t"))
        head = rows[0]
        sides = [s for s in piglit_run.SIDES if s in head]
        for row in rows[1:]:
            n = row[0]
            if n not in res:
                print("piglit_merge: %s: %s is not in %s" % (path, n, args.list), file=sys.stderr)
                return 2
            for s in sides:
                c = s + "_cpu"
                cpu = row[head.index(c)] if c in head else "-"
                res[n][s] = (row[head.index(s)], float(row[head.index(s + "_s")]), "") + \
                    (() if cpu == "-" else (float(cpu),))
    sides = [s for s in piglit_run.SIDES if any(s in r for r in res.values())]
    full = {n: {s: res[n].get(s, ("notrun", 0.0, "")) for s in sides} for n in names}
    name = os.path.splitext(os.path.basename(args.list))[0]
    print(piglit_run.summary(name, names, full, sides))
    missing = {s: sum(1 for n in names if s not in res[n]) for s in sides}
    wall = {s: sum(full[n][s][1] for n in names) for s in sides}
    print("piglit %s wall time: %s (%d tests; not run: %s)" % (
        name, ", ".join("%s %.1fs" % (s, wall[s]) for s in sides), len(names),
        ", ".join("%s %d" % (s, missing[s]) for s in sides)))
    timed = {s: [n for n in names if len(res[n].get(s, ())) > 3] for s in sides}
    print("piglit %s CPU time: %s" % (name, ", ".join(
        "%s %.1fs (%d tests)" % (s, sum(res[n][s][3] for n in timed[s]), len(timed[s])) for s in sides)))
    both = [n for n in names if all(s in res[n] and res[n][s][0] not in ("skip", "notrun") for s in sides)]
    if both and len(sides) > 1:
        print("piglit %s over the %d tests no side skipped: %s" % (
            name, len(both), ", ".join("%s %.1fs" % (s, sum(res[n][s][1] for n in both)) for s in sides)))
    if args.slowest and "cedar" in sides:
        ran = sorted((n for n in names if "cedar" in res[n]), key=lambda n: -res[n]["cedar"][1])
        for n in ran[:args.slowest]:
            print("  slowest: %s: %s" % (n, ", ".join(
                "%s %s %.1fs" % (s, res[n][s][0], res[n][s][1]) if s in res[n] else "%s -" % s for s in sides)))
    if args.out:
        fixed = {n: {s: (full[n][s][0] if s in res[n] else "-",) + tuple(full[n][s][1:]) for s in sides}
                 for n in names}
        piglit_run.write_tsv(args.out, names, fixed, sides)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
