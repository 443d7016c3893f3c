#!/bin/bash
# tools/piglit/piglit_run.py (`make piglit`) without piglit or Mesa: stand-in
# tests that behave per side as piglit tests do (a PIGLIT: result line, exit
# status, signal, subtests, a hang), a stand-in cedar-run that tells the test
# which side it is on, and a stand-in glinfo.  Expected statuses follow
# piglit's rules (framework/test/base.py: a signal is a crash, a non-zero exit
# turns pass into warn and anything else into fail; results.py: subtests
# report their worst), worked out by hand per test below.
set -u
. tests/lib.sh
RUN="python3 tools/piglit/piglit_run.py"

mkdir -p "$tmp/piglit/bin" "$tmp/build"
# cedar-run stand-in: [--no-exec] [options] -- PROGRAM ARGS; like cedar-run it
# waits for PROGRAM and exits with its status, 128+N for signal N.
cat >"$tmp/cedar-run" <<'EOF'
#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
os.environ["FAKE_SIDE"] = "null" if "--no-exec" in args[:args.index("--")] else "cedar"
rc = subprocess.call(args[args.index("--") + 1:])
sys.exit(128 - rc if rc < 0 else rc)
EOF
# glinfo stand-in: the renderer each side would report; FAKE_FALLBACK makes
# the cedar sides report llvmpipe (a shim that failed to take over).
cat >"$tmp/piglit/bin/glinfo" <<'EOF'
#!/bin/bash
case "${FAKE_SIDE:-}:${FAKE_FALLBACK:-}" in
    cedar:|null:) echo "GL_RENDERER = AMD CEDAR (DRM 2.50.0 / fake)" ;;
    *) echo "GL_RENDERER = llvmpipe (fake)" ;;
esac
EOF
# One program for every stand-in test: $1 = behaviour, the rest as piglit passes it.
cat >"$tmp/piglit/bin/fake" <<'EOF'
#!/bin/bash
side=${FAKE_SIDE:-llvmpipe}
say() { echo "PIGLIT: {\"result\": \"$1\" }"; }
case "$1" in
    pass) say pass ;;
    nullfails) if [ "$side" = null ]; then say fail; exit 1; else say pass; fi ;;
    cedarfails) case "$side" in
                    llvmpipe) say pass ;;
                    *) echo "Probe color at (1,1)"; echo "cedar-run: a fault ($side)" >&2; say fail; exit 1 ;;
                esac ;;
    cedarsegv) # a verdict, then a crash (say, in teardown): still a crash
               say pass; if [ "$side" = cedar ]; then echo "Probe color at (0,0)"; kill -SEGV $$; fi ;;
    segv) say pass; kill -SEGV $$ ;;
    noresult) echo "some output, no verdict" ;;
    burn) # 0.3 s of CPU in a process the test waits for (counted in the CPU column)
          python3 -c 'import time
t = time.process_time()
while time.process_time() - t < 0.3: pass'; say pass ;;
    sleep) sleep 0.3; say pass ;;
    hang) if [ "$side" = cedar ]; then sleep 30; fi; say pass ;;
    subtests) echo 'PIGLIT: {"enumerate subtests": ["a", "b"]}'
              echo 'PIGLIT: {"subtest": {"a" : "pass"}}'
              if [ "$side" = llvmpipe ]; then echo 'PIGLIT: {"subtest": {"b" : "pass"}}'
              else echo 'PIGLIT: {"subtest": {"b" : "fail"}}'; fi
              say pass ;;
    skip) say skip ;;
    warn) say pass; exit 3 ;;
    args) if [ "$2" = "a b" ] && [ "$3" = "" ] && [ "$4" = "-auto" ]; then say pass; else say fail; exit 1; fi ;;
    env) # the side's driver variables, the platform, and the test's own variable
         want_sw=""; [ "$side" = llvmpipe ] && want_sw=1
         if [ "${LIBGL_ALWAYS_SOFTWARE:-}" = "$want_sw" ] && [ "$PIGLIT_PLATFORM" = surfaceless_egl ] \
            && [ "${FAKE_TEST_VAR:-}" = 42 ]; then say pass; else say fail; exit 1; fi ;;
esac
EOF
chmod +x "$tmp/cedar-run" "$tmp/piglit/bin/glinfo" "$tmp/piglit/bin/fake"
f="$tmp/piglit/bin/fake"
cat >"$tmp/map.json" <<EOF
{"tests": {
 "t@pass": {"command": ["$f", "pass"]},
 "t@nullfails": {"command": ["$f", "nullfails"]},
 "t@cedarfails": {"command": ["$f", "cedarfails"]},
 "t@nullfails-too": {"command": ["$f", "cedarfails"]},
 "t@cedarsegv": {"command": ["$f", "cedarsegv"]},
 "t@segv": {"command": ["$f", "segv"]},
 "t@noresult": {"command": ["$f", "noresult"]},
 "t@hang": {"command": ["$f", "hang"]},
 "t@burn": {"command": ["$f", "burn"]},
 "t@sleep": {"command": ["$f", "sleep"]},
 "t@subtests": {"command": ["$f", "subtests"]},
 "t@skip": {"command": ["$f", "skip"]},
 "t@warn": {"command": ["$f", "warn"]},
 "t@args with space": {"command": ["$f", "args", "a b", "", "-auto"]},
 "t@env": {"command": ["$f", "env"], "env": {"FAKE_TEST_VAR": "42"}},
 "t@glx-only": {"command": ["$f", "pass"], "require_platforms": ["glx"]}
}}
EOF
# Names in any case; comments and blank lines ignored.
cat >"$tmp/fake.list" <<'EOF'
# a comment
T@Pass
t@nullfails      # trailing comment

t@cedarfails
t@nullfails-too
t@cedarsegv
t@segv
t@noresult
t@hang
t@burn
t@sleep
t@subtests
t@skip
t@warn
t@args with space
t@env
t@glx-only
EOF
opts=(--build "$tmp/build" --map "$tmp/map.json" --piglit-dir "$tmp/piglit" --cedar-run "$tmp/cedar-run")

LIBGL_ALWAYS_SOFTWARE=1 status_is 0 $RUN "${opts[@]}" --timeout 5 -q "$tmp/fake.list"
rc=$?
check "runs a list of stand-in tests (exit 0)" [ $rc -eq 0 ]
# By hand, per side (cedar / null / llvmpipe):
#   pass pass pass | pass fail pass | fail fail pass | fail fail pass |
#   crash pass pass | crash crash crash | crash crash crash | timeout pass pass | fail fail pass |
#   skip skip skip | warn warn warn | pass pass pass | pass pass pass | skip skip skip
want="piglit fake cedar pass 6 fail 4 skip 2 crash 3 timeout 1 / null pass 7 fail 5 skip 2 crash 2 timeout 0 / llvmpipe pass 11 fail 1 skip 2 crash 2 timeout 0 / discriminating: 4 tests fail on the null device and pass on llvmpipe, of which the virtual Cedar passes 1"
check_eq "summary line" "$(head -1 "$tmp/out")" "$want"
check "wall time line" grep -q "^piglit fake wall time: cedar [0-9.]*s, null [0-9.]*s, llvmpipe [0-9.]*s (16 tests" "$tmp/out"
check "CPU time line" grep -q "^piglit fake CPU time: cedar [0-9.]*s, null [0-9.]*s, llvmpipe [0-9.]*s$" "$tmp/out"

tsv="$tmp/build/piglit/fake.tsv"
check_eq "TSV header" "$(head -1 "$tsv")" "$(printf 'test\tcedar\tnull\tllvmpipe\tcedar_s\tnull_s\tllvmpipe_s\tcedar_cpu\tnull_cpu\tllvmpipe_cpu')"
row() { awk -F'\t' -v n="$1" '$1 == n {print $2, $3, $4}' "$tsv"; }
check_eq "TSV: lower-cased name, pass everywhere" "$(row t@pass)" "pass pass pass"
check_eq "TSV: signal on cedar is a crash" "$(row t@cedarsegv)" "crash pass pass"
check_eq "TSV: a signal after a verdict is a crash on every side" "$(row t@segv)" "crash crash crash"
check_eq "TSV: no result line is a crash" "$(row t@noresult)" "crash crash crash"
check_eq "TSV: over the limit is a timeout" "$(row t@hang)" "timeout pass pass"
# It sleeps 30 s; stopped at the 5 s limit (SIGTERM to its process group),
# measured by the runner itself so the rest of the machine's load does not count.
check "the hanging test was stopped near its 5 s limit" \
    awk -F'\t' '$1 == "t@hang" && $5 >= 5 && $5 < 15 {ok = 1} END {exit !ok}' "$tsv"
check_eq "TSV: a failing subtest fails the test" "$(row t@subtests)" "fail fail pass"
check_eq "TSV: pass with a non-zero exit is warn" "$(row t@warn)" "warn warn warn"
check_eq "TSV: an argument with a space and an empty one reach the test" "$(row "t@args with space")" "pass pass pass"
check_eq "TSV: per-side driver variables, platform, test env" "$(row t@env)" "pass pass pass"
check_eq "TSV: a glx-only test is skipped on surfaceless_egl" "$(row t@glx-only)" "skip skip skip"
check "TSV: seconds are numbers" awk -F'\t' 'NR > 1 && $5 !~ /^[0-9]+\.[0-9][0-9]$/ {exit 1}' "$tsv"
check_eq "TSV: one row per test" "$(wc -l <"$tsv")" "17"
# CPU seconds (columns 8-10) are wait4's: the 0.3 s the burning test's own
# child spent count, on every side (through cedar-run's child on two); a
# test that sleeps 0.3 s spends almost none, and waits at least as long.
check "TSV: CPU of a waited-for grandchild is counted" \
    awk -F'\t' '$1 == "t@burn" && $8 >= 0.29 && $9 >= 0.29 && $10 >= 0.29 {ok = 1} END {exit !ok}' "$tsv"
check "TSV: a sleeping test: wall time >= 0.3 s, little CPU" \
    awk -F'\t' '$1 == "t@sleep" && $7 >= 0.3 && $10 < 0.2 {ok = 1} END {exit !ok}' "$tsv"
check "log of the crash keeps the test's output" grep -q "Probe color at (0,0)" "$tmp/build/piglit/fake/cedar/t@cedarsegv.log"
check "stderr lists the cedar crash with its first error line" \
    grep -qx "  cedar crash: t@cedarsegv: Probe color at (0,0)" "$tmp/err"
check "stderr: the first error line is the first line of the test's stderr" \
    grep -qx "  cedar fail: t@cedarfails: cedar-run: a fault (cedar)" "$tmp/err"
check "stderr does not list tests the cedar side passes" bash -c "! grep -q 't@pass' '$tmp/err'"
# --jobs 4: the same statuses, rows in the list's order, the same summary
cut -f1-4 "$tsv" >"$tmp/serial.tsv"
LIBGL_ALWAYS_SOFTWARE=1 $RUN "${opts[@]}" --timeout 5 -q --jobs 4 "$tmp/fake.list" >"$tmp/out4" 2>/dev/null
check_eq "--jobs 4: the same summary line" "$(head -1 "$tmp/out4")" "$want"
check_eq "--jobs 4: the same TSV rows in the same order" "$(cut -f1-4 "$tsv")" "$(cat "$tmp/serial.tsv")"
check "--jobs 0: exit 2" status_is 2 $RUN "${opts[@]}" --jobs 0 "$tmp/fake.list"

# --- bad input: exit 2 with a clear message; a side that cannot run: exit 1
status_is 2 $RUN "${opts[@]}" "$tmp/missing.list"
check "missing list: exit 2" grep -q "missing.list: no such file" "$tmp/err"
printf 't@pass\nspec@no-such-test\n' >"$tmp/bad.list"
status_is 2 $RUN "${opts[@]}" "$tmp/bad.list"
check "unknown name: exit 2, names file and line" grep -q "bad.list:2: spec@no-such-test" "$tmp/err"
printf '# only a comment\n' >"$tmp/empty.list"
check "a list naming no tests: exit 2" status_is 2 $RUN "${opts[@]}" "$tmp/empty.list"
check "no list at all: exit 2" status_is 2 $RUN "${opts[@]}"
check "unknown side: exit 2" status_is 2 $RUN "${opts[@]}" --sides cedar,gpu "$tmp/fake.list"
printf 't@pass\n' >"$tmp/one.list"
FAKE_FALLBACK=1 status_is 1 $RUN "${opts[@]}" "$tmp/one.list"
check "a cedar side that renders on llvmpipe is refused (exit 1)" grep -q "cedar side: .* renderer is 'llvmpipe (fake)'" "$tmp/err"
status_is 1 $RUN "${opts[@]}" --cedar-run "$tmp/no-cedar-run" "$tmp/one.list"
check "missing cedar-run: exit 1" grep -q "no-cedar-run not found" "$tmp/err"
check "a relative cedar-run path (tests run in BUILD/piglit/work)" \
    status_is 0 $RUN "${opts[@]}" --cedar-run "$(realpath --relative-to=. "$tmp/cedar-run")" "$tmp/one.list"
check "llvmpipe alone runs without cedar-run" \
    status_is 0 $RUN "${opts[@]}" --cedar-run "$tmp/no-cedar-run" --sides llvmpipe "$tmp/one.list"
check "llvmpipe alone: counts, no discriminating figure" \
    out_has "^piglit one llvmpipe pass 1 fail 0 skip 0 crash 0 timeout 0 / discriminating: not counted"
