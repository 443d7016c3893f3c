#!/bin/bash
# The fuzz targets (tests/fuzz/fuzz_*.c), built with gcc and ASan/UBSan
# around tests/fuzz/replay_main.c (no libFuzzer), run over their committed
# corpus (tests/fuzz/corpus/NAME, minimised by `make fuzz` with
# FUZZ_MERGE=1) and every input that once made them fail
# (tests/fuzz/regressions/NAME): each target's invariants must hold on all.
# Run from the repository root.
set -u
. tests/lib.sh
BUILD=${BUILD:-build}
for src in tests/fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    bin=$BUILD/fuzz-replay/$t
    for kind in corpus regressions; do
        dir=tests/fuzz/$kind/$t
        [ -d "$dir" ] || continue
        n=$(ls "$dir" | wc -l)
        if "$bin" "$dir" >"$tmp/out" 2>"$tmp/err"; then
            pass "$t: $n $kind inputs"
        else
            fail "$t: $kind ($(grep -m1 -E 'invariant failed|ERROR|runtime error' "$tmp/err"))"
            tail -20 "$tmp/err" >&2
        fi
    done
done
