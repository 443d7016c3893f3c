#!/bin/bash
# The fuzz targets (tests/fuzz/fuzz_*.c), built with gcc and ASan/UBSan
# around tests/fuzz/replay_main.c (no libFuzzer), run over their committed
# corpus (tests/fuzz/corpus/NAME, minimised by `make fuzz` with
# FUZZ_MERGE=1) and every input that once made them fail
# (tests/fuzz/regressions/NAME): each target's invariants must hold on all,
# within FUZZ_REPLAY_SECONDS each (an input that once hung the target, as
# libFuzzer's timeouts, must stay quick).
# Run from the repository root.
set -u
. tests/lib.sh
BUILD=${BUILD:-build}
limit=${FUZZ_REPLAY_SECONDS:-120}
for src in tests/fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    bin=$BUILD/fuzz-replay/$t
    for kind in corpus regressions; do
        dir=tests/fuzz/$kind/$t
        [ -d "$dir" ] || continue
        n=$(ls "$dir" | wc -l)
        timeout "$limit" "$bin" "$dir" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ $rc -eq 0 ]; then
            pass "$t: $n $kind inputs"
        elif [ $rc -eq 124 ]; then
            fail "$t: $kind inputs not done in ${limit} s"
        else
            fail "$t: $kind ($(grep -m1 -E 'invariant failed|ERROR|runtime error' "$tmp/err"))"
            tail -20 "$tmp/err" >&2
        fi
    done
done
