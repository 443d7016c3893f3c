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

# On the virtual Cedar the first line says so, and that the figures are the model's.
"$TOOL" timing --device virtual --repeat 1 >"$tmp/out" 2>"$tmp/err"
if head -1 "$tmp/out" | grep -q "^cedar-probe timing on the virtual Cedar .*model's prediction"; then
    pass "first line: the virtual Cedar, a model's predictions"
else
    fail "first line: $(head -1 "$tmp/out")"
fi
