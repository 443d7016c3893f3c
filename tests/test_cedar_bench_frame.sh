#!/bin/bash
# CLI checks for `cedar-bench frame` (tools/bench/): every line it prints has
# one of the documented forms, the exit status agrees with the output (0
# unless a side ran and FAILED), the llvmpipe side either times a checked
# frame or says why it is unavailable, and with Mesa's driver hidden it says
# "unavailable" instead of crashing.  Run from the repo root.
set -u
BENCH="${CEDAR_TOOLS:-build/san/bin}/cedar-bench"
. tests/lib.sh

NUM='[0-9]+\.[0-9]+'
FORMS=(
    "^bench frame-detail machine: [0-9]+ CPUs online, 1-minute load average -?$NUM(, quick \(CEDAR_BENCH_QUICK\))?$"
    "^bench (frame|frame8x)-detail (virtual|llvmpipe): \".+\", [0-9]+ samples, [0-9]+ frames, median $NUM ms, mean $NUM ms, best $NUM ms, CPU $NUM ms, peak RSS $NUM MiB$"
    "^bench (frame|frame8x) (virtual|llvmpipe) (unavailable|FAILED): .+$"
    "^bench frame virtual $NUM llvmpipe $NUM ratio $NUM$"
    "^bench frame (virtual|llvmpipe) $NUM$"
    "^bench frame8x virtual $NUM$"
    "^bench frame8x virtual $NUM llvmpipe $NUM ratio $NUM$"
    "^bench peak-rss (frame-virtual|frame-llvmpipe|frame8x-virtual) ($NUM|not measured \(the side did not run\))$"
    "^bench peak-rss $NUM$"
)

status_agrees() { # output file, status
    if grep -q ' FAILED: ' "$1"; then [ "$2" -ne 0 ]; else [ "$2" -eq 0 ]; fi
}

llvmpipe_timed_or_unavailable() { # file
    if grep -q '^bench frame llvmpipe unavailable: ' "$1"; then return 0; fi
    grep -Eq '^bench frame-detail llvmpipe: ".*llvmpipe.*", 4 samples, [1-9][0-9]* frames' "$1" &&
        grep -Eq "^bench frame (virtual $NUM )?llvmpipe $NUM" "$1"
}

# One timed frame per side: the sanitized build is slow.
export CEDAR_BENCH_QUICK=1
timeout 120 "$BENCH" frame >"$tmp/out" 2>"$tmp/err"
rc=$?
check "cedar-bench frame: every line has a documented form" every_line_has_a_form "$tmp/out"
check "cedar-bench frame: exit status $rc agrees with the FAILED lines" status_agrees "$tmp/out" $rc
check "cedar-bench frame: llvmpipe timed a checked 4x frame, or says why not" \
    llvmpipe_timed_or_unavailable "$tmp/out"
check "cedar-bench frame: one line per side and sample count" \
    test "$(grep -Ec '^bench (frame|frame8x)(-detail)? (virtual|llvmpipe)( unavailable| FAILED)?:' "$tmp/out")" -eq 3
check "cedar-bench frame: ends with the process peak RSS" \
    grep -Eq "^bench peak-rss $NUM$" <(tail -n 1 "$tmp/out")

# Mesa's drivers hidden: the llvmpipe side is unavailable, nothing crashes.
LIBGL_DRIVERS_PATH="$tmp/no-drivers" timeout 120 "$BENCH" frame >"$tmp/out2" 2>"$tmp/err2"
rc2=$?
check "no Mesa driver: llvmpipe side unavailable with a reason" \
    grep -Eq '^bench frame llvmpipe unavailable: .+' "$tmp/out2"
check "no Mesa driver: exit status $rc2 agrees with the FAILED lines" status_agrees "$tmp/out2" $rc2
check "no Mesa driver: every line has a documented form" every_line_has_a_form "$tmp/out2"
