#!/bin/bash
# CLI checks for `cedar-bench startup` (tools/bench/bench_startup.c) and its
# llvmpipe program cedar-gl-once: every line has a documented form, the
# virtual side ran cedar-msaa and checked its frame.png, the llvmpipe side
# ran or says why not; a cedar-msaa that fails or draws another scene (a
# stand-in beside a copy of cedar-bench) is reported FAILED with exit 1,
# never timed; a missing cedar-gl-once is "unavailable".  Run from the repo
# root.
set -u
T="${CEDAR_TOOLS:-build/san/bin}"
BENCH="$T/cedar-bench"
GLONCE="$T/cedar-gl-once"
. tests/lib.sh
# Mesa's driver leaves 112 bytes LeakSanitizer cannot attribute (see
# test_cedar_gldemo.sh): leak checking off for these GL programs only.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export CEDAR_BENCH_QUICK=1

NUM='[0-9]+\.[0-9]+'
FORMS=(
    "^bench startup-detail machine: [0-9]+ CPUs online, 1-minute load average -?$NUM(, quick \(CEDAR_BENCH_QUICK\))?$"
    "^bench startup-detail (virtual|llvmpipe): \".+\", [0-9]+ runs, median $NUM ms, best $NUM ms, CPU $NUM ms, peak RSS $NUM MiB$"
    "^bench startup (virtual|llvmpipe) (unavailable|FAILED): .+$"
    "^bench startup virtual $NUM llvmpipe $NUM ratio $NUM$"
    "^bench startup (virtual|llvmpipe) $NUM$"
    "^bench peak-rss startup-(virtual|llvmpipe) ($NUM|not measured \(the side did not run\))$"
    "^bench peak-rss $NUM$"
)

# ---- cedar-gl-once ----
check "cedar-gl-once --help exits 0" status_is 0 "$GLONCE" --help
usage_error "cedar-gl-once --samples 3" "$GLONCE" --samples 3
usage_error "cedar-gl-once extra argument" "$GLONCE" extra
if status_is 0 "$GLONCE" --samples 4; then
    pass "cedar-gl-once --samples 4: exit 0"
    check "cedar-gl-once: llvmpipe, 4 samples, read back and checked" \
        grep -Eq '^cedar-gl-once: "llvmpipe.*", 4 samples \(GL_SAMPLES 4\), 1280x720, read back and checked$' "$tmp/out"
    check "cedar-gl-once --samples 8 on llvmpipe: unavailable (exit 3)" status_is 3 "$GLONCE" --samples 8
else
    check "cedar-gl-once without llvmpipe: exit 3 (unavailable)" test "$(
        "$GLONCE" --samples 4 >/dev/null 2>&1; echo $?)" = 3
fi
# (Mesa's loader adds warnings of its own on stderr: the reason is the last line.)
check "cedar-gl-once with Mesa's drivers hidden: exit 3, the reason last" bash -c \
    "LIBGL_DRIVERS_PATH='$tmp/none' '$GLONCE' >'$tmp/o' 2>'$tmp/e'; [ \$? = 3 ] && tail -n 1 '$tmp/e' | grep -q '^cedar-gl-once: .'"

# ---- cedar-bench startup ----
timeout 300 "$BENCH" startup >"$tmp/bench" 2>"$tmp/bench.err"
rc=$?
check "startup: every line has a documented form" every_line_has_a_form "$tmp/bench"
check "startup: the virtual side ran cedar-msaa once, checked" \
    grep -Eq '^bench startup-detail virtual: "cedar-msaa --device virtual --samples 8 --out DIR", 1 runs, ' "$tmp/bench"
check "startup: llvmpipe ran and both are compared, or it says why not" bash -c \
    "grep -Eq '^bench startup virtual $NUM llvmpipe $NUM ratio $NUM$' '$tmp/bench' ||
     grep -Eq '^bench startup llvmpipe unavailable: ' '$tmp/bench'"
check_eq "startup: exit status" "$rc" 0
check "startup: its output directory is gone" bash -c "! ls -d \"\${TMPDIR:-/tmp}\"/cedar-bench-startup-* 2>/dev/null | grep -q ."

# Stand-ins beside a copy of cedar-bench: it runs the programs of its own directory.
mkdir "$tmp/fake"
cp "$BENCH" "$tmp/fake/cedar-bench"
real_msaa=$(realpath "$T/cedar-msaa")
printf '#!/bin/sh\necho "cedar-msaa: stand-in that fails" >&2\nexit 1\n' >"$tmp/fake/cedar-msaa"
chmod +x "$tmp/fake/cedar-msaa"
timeout 300 "$tmp/fake/cedar-bench" startup >"$tmp/b2" 2>&1
rc2=$?
check "failing cedar-msaa: FAILED with its last line" \
    grep -Eq '^bench startup virtual FAILED: exit status 1: cedar-msaa: stand-in that fails$' "$tmp/b2"
check "failing cedar-msaa, no cedar-gl-once beside it: llvmpipe unavailable" \
    grep -Eq '^bench startup llvmpipe unavailable: exit status 127: cannot run .*cedar-gl-once' "$tmp/b2"
check_eq "failing cedar-msaa: exit status" "$rc2" 1
check "failing cedar-msaa: every line has a documented form" every_line_has_a_form "$tmp/b2"

# Another scene (a red clear colour): the frame check catches it.
printf '#!/bin/sh\nexec "%s" --clear-color FF0000 "$@"\n' "$real_msaa" >"$tmp/fake/cedar-msaa"
timeout 300 "$tmp/fake/cedar-bench" startup >"$tmp/b3" 2>&1
rc3=$?
check "cedar-msaa drawing another scene: FAILED, frame.png is not the scene" \
    grep -Eq '^bench startup virtual FAILED: frame.png is not the scene: corner' "$tmp/b3"
check "cedar-msaa drawing another scene: not timed" bash -c "! grep -q '^bench startup-detail virtual' '$tmp/b3'"
check_eq "cedar-msaa drawing another scene: exit status" "$rc3" 1
