#!/bin/bash
# cedar-probe CLI: the command table, --help of the tool and of each
# sub-command, bad usage (exit 2, one line on stderr), and the first output
# line saying what the probe ran on.
set -u
TOOL="${CEDAR_TOOLS:-build/san/bin}/cedar-probe"
. tests/lib.sh

if "$TOOL" --help >"$tmp/out" 2>&1 && grep -q "^  reuse " "$tmp/out" && grep -q "^  timing " "$tmp/out"; then
    pass "--help lists the sub-commands"
else
    fail "--help: $(head -3 "$tmp/out")"
fi
usage_error "no command" "$TOOL"
usage_error "unknown command" "$TOOL" frobnicate
usage_error "command with a newline" "$TOOL" $'re\nuse'

for sub in $("$TOOL" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
    if "$TOOL" "$sub" --help >"$tmp/out" 2>&1 && grep -q "^usage: cedar-probe $sub" "$tmp/out" \
       && grep -q -- "--device" "$tmp/out"; then
        pass "$sub --help"
    else
        fail "$sub --help: $(head -2 "$tmp/out")"
    fi
    usage_error "$sub unknown option" "$TOOL" "$sub" --frobnicate
    usage_error "$sub missing argument" "$TOOL" "$sub" --device
    usage_error "$sub stray argument" "$TOOL" "$sub" extra
    # A node that is not a DRM device is refused: one line, exit 1, nothing on stdout.
    "$TOOL" "$sub" --device /dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; then
        pass "$sub --device /dev/null refused"
    else
        fail "$sub --device /dev/null: exit $rc, $(cat "$tmp/err")"
    fi
done

usage_error "reuse --grid 0" "$TOOL" reuse --grid 0
usage_error "reuse --grid 201" "$TOOL" reuse --grid 201
usage_error "timing --repeat 0" "$TOOL" timing --repeat 0

# reuse, small: the first line names the virtual Cedar and the model; the
# degenerate sequence and (0 1 2)+ as the model states (worked by hand in
# tests/test_probe_reuse.c); the CSV has a row per order and size (Forsyth's
# once: its order ignores the size) whose primitive count is the grid's
# 200 triangles (+ the prefetch for optimal); the PNG is a PNG.
if "$TOOL" reuse --device virtual --grid 10 --sizes 4-16 --batches 1,33 --out "$tmp/r" >"$tmp/out" 2>"$tmp/err"; then
    pass "reuse --grid 10 runs"
else
    fail "reuse --grid 10: $(cat "$tmp/err")"
fi
if head -1 "$tmp/out" | grep -q "^cedar-probe reuse on the virtual Cedar .*model's prediction"; then
    pass "first line: the virtual Cedar, a model's predictions"
else
    fail "first line: $(head -1 "$tmp/out")"
fi
check "degenerate triangles: 3 primitives, 6 invocations" grep -q "0 1 1 2 3 4 5 5 5: 3 primitives, 6 VS invocations" "$tmp/out"
check "(0 1 2)+: 3 invocations for 1 and 33 triangles" \
    grep -q "1 triangles 3 VS invocations; 33 triangles 3 VS invocations" "$tmp/out"
check_eq "reuse.csv rows (3 orders x 13 sizes + forsyth once, + header)" "$(wc -l <"$tmp/r/reuse.csv")" 41
check_eq "striped draws: 200 primitives each" \
    "$(awk -F, '$1 == "striped" && $4 != 200' "$tmp/r/reuse.csv" | wc -l)" 0
check_eq "optimal draws: 200 primitives or more (the prefetch)" \
    "$(awk -F, '$1 == "optimal" && ($4 < 200 || $3 != 3 * $4)' "$tmp/r/reuse.csv" | wc -l)" 0
check_eq "reuse.png is a PNG" "$(head -c 8 "$tmp/r/reuse.png" | od -An -tx1 | tr -d ' ')" 89504e470d0a1a0a
usage_error "reuse --sizes 2" "$TOOL" reuse --sizes 2
usage_error "reuse --sizes decreasing" "$TOOL" reuse --sizes 8,4
usage_error "reuse --sizes bad range" "$TOOL" reuse --sizes 4-
usage_error "timing --counts 0" "$TOOL" timing --counts 0

# timing, small: a line per workload, medians in ticks and us, and on the
# model more triangles never take fewer ticks.
if "$TOOL" timing --device virtual --repeat 1 --counts 1,16 --sizes 4,16 >"$tmp/out" 2>"$tmp/err"; then
    pass "timing --repeat 1 runs"
else
    fail "timing: $(cat "$tmp/err")"
fi
check "timing: the clock from RADEON_INFO_CLOCK_CRYSTAL_FREQ (27000 kHz)" grep -q "^timestamp clock 27000 kHz" "$tmp/out"
for w in "fast clear" "full clear" "8x draw: 1 triangle, legs 4 px" "8x draw: 16 triangles, legs 16 px" "resolve 8x"; do
    check "timing: $w" grep -Eq "^$w.* [0-9]+ +[0-9.]+ +[0-9]+ +[0-9]+$" "$tmp/out"
done
t1=$(awk '/^8x draw: 1 triangle, legs 16 px/ {print $(NF-3)}' "$tmp/out")
t16=$(awk '/^8x draw: 16 triangles, legs 16 px/ {print $(NF-3)}' "$tmp/out")
check "timing: 16 triangles take more ticks than 1 ($t16 > $t1)" test "${t16:-0}" -gt "${t1:-0}"
