#!/bin/bash
# cedar-run: the virtual Cedar behind /dev/dri for an unmodified program.
# cedar-msaa's real-kernel path (libpciaccess discovery, drmGetDevices2, the
# version/INFO checks, GEM and CS through libdrm) runs under it and must
# give the frame the in-process virtual device gives, byte for byte; the
# null device (--no-exec) must not; a capture must replay to the same frame.
set -u
. tests/lib.sh
TOOLS=${CEDAR_TOOLS:-build/san/bin}
RUN="$TOOLS/cedar-run"
MSAA="$TOOLS/cedar-msaa"
SIM="$TOOLS/cedar-sim"
# Sanitized programs under a preload: ASan need not be first in the link order.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"

all_zero() { cmp -s "$1" <(head -c "$(stat -c %s "$1")" /dev/zero); }
not_all_zero() { [ -s "$1" ] && ! all_zero "$1"; }

check "--help: usage with --no-exec, exit 0" sh -c "'$RUN' --help | grep -q -- --no-exec"
usage_error "no program" "$RUN" --
usage_error "unknown option" "$RUN" --frobnicate -- true
usage_error "--capture without a value" "$RUN" --capture
check "a program that cannot be run: exit 127" status_is 127 "$RUN" -- "$tmp/no-such-program"
check "the program's exit status comes back" status_is 7 "$RUN" -- sh -c 'exit 7'
check "death by a signal: 128 + N" status_is 137 "$RUN" -- sh -c 'kill -9 $$'

# What the program sees: one HD 7350, nothing else; other paths untouched.
status_is 0 "$RUN" -- "$MSAA" --list-devices
check "--list-devices under cedar-run lists 1002:68f9 on /dev/dri/renderD128" \
    sh -c "grep -q '0000:01:00.0  1002:68f9' '$tmp/out' && grep -q '/dev/dri/renderD128' '$tmp/out'"
status_is 0 "$RUN" -- ls /sys/bus/pci/devices
check_eq "the PCI bus holds only the virtual card" "$(cat "$tmp/out")" "0000:01:00.0"
status_is 0 "$RUN" -- stat -c '%F %t:%T' /dev/dri/renderD128 /dev/dri/card0
check_eq "the nodes are character devices 226:128 and 226:0" "$(tr '\n' ' ' <"$tmp/out")" \
    "character special file e2:80 character special file e2:0 "
check_eq "other files pass through" "$("$RUN" -- cat tests/lib.sh | md5sum)" "$(md5sum <tests/lib.sh)"
mkdir -p "$tmp/t"
TMPDIR="$tmp/t" "$RUN" -- true
check_eq "the device tree is removed afterwards" "$(ls -A "$tmp/t")" ""
# Without TMPDIR the tree lives in memory when /dev/shm is a tmpfs (on a disk
# file system each run's files cost synchronous writes and discards).
root=$(env -u TMPDIR "$RUN" -- sh -c 'echo "$CEDAR_RUN_ROOT"; stat -f -c %T "$CEDAR_RUN_ROOT"')
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
    check_eq "no TMPDIR: the tree is made in /dev/shm, a tmpfs" \
        "$(printf '%s' "$root" | sed 's/cedar-run\.[A-Za-z0-9]*/cedar-run.X/' | tr '\n' ' ')" \
        "/dev/shm/cedar-run.X tmpfs"
else
    check "no TMPDIR and no writable tmpfs /dev/shm: the tree is made in /tmp" \
        sh -c "printf '%s' '$root' | grep -q '^/tmp/cedar-run\.'"
fi
check "no TMPDIR: the tree is removed afterwards" test ! -e "$(printf '%s' "$root" | head -1)"

# cedar-msaa takes the kernel path (no --device) and gets the virtual frame.
if status_is 0 "$RUN" --capture "$tmp/cap" -- "$MSAA" --out "$tmp/kernel"; then
    pass "cedar-msaa under cedar-run: exit 0"
else
    fail "cedar-msaa under cedar-run: $(head -3 "$tmp/err")"
fi
check "it found the card on the PCI bus and used the kernel backend" \
    sh -c "grep -q 'the Cedar at 0000:01:00.0' '$tmp/out' && grep -q 'kernel backend' '$tmp/out'"
"$MSAA" --device virtual --out "$tmp/virtual" >/dev/null 2>&1
check "frame.tiled.bin equals --device virtual's, byte for byte" \
    cmp -s "$tmp/kernel/frame.tiled.bin" "$tmp/virtual/frame.tiled.bin"
check "and it is not blank" not_all_zero "$tmp/kernel/frame.tiled.bin"

# --capture: one .bof per CS, replayed to the same resolve target (handle 2:
# the demo's second buffer, and the only file's handles start at 1).
check_eq "--capture wrote one file per command buffer" "$(ls "$tmp/cap" | tr '\n' ' ')" \
    "cs_000.bof cs_001.bof cs_002.bof cs_003.bof "
"$SIM" replay "$tmp"/cap/cs_*.bof --dump "2:$tmp/replayed.bin" >/dev/null 2>&1
check "the capture replays to the same frame" cmp -s "$tmp/replayed.bin" "$tmp/kernel/frame.tiled.bin"

# --no-exec: every CS is accepted, nothing runs: the frame stays zero.
if status_is 0 "$RUN" --no-exec -- "$MSAA" --out "$tmp/null"; then pass "--no-exec: cedar-msaa exits 0"
else fail "--no-exec: $(head -3 "$tmp/err")"; fi
check "--no-exec: the resolve target is untouched (all zero)" all_zero "$tmp/null/frame.tiled.bin"

# --trace names each ioctl.
"$RUN" --trace -- "$MSAA" --out "$tmp/traced" >/dev/null 2>"$tmp/err"
check_eq "--trace: four accepted CS ioctls" "$(grep -c 'ioctl RADEON_CS -> 0' "$tmp/err")" "4"

# A GL program the project did not write the driver of: Mesa's r600 under
# cedar-run.  Its session captured, replayed by cedar-sim: one of the
# buffers it named holds exactly what glReadPixels gave the program.
GL="$TOOLS/cedar-gldemo"
export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"   # Mesa's driver is unloaded before LSan can name it
if status_is 0 "$RUN" --capture "$tmp/glcap" -- "$GL" --samples 8 --flip-y --raw "$tmp/gl.rgba"; then
    pass "cedar-gldemo under cedar-run: exit 0"
else
    fail "cedar-gldemo under cedar-run: $(head -3 "$tmp/err")"
fi
check "Mesa initialised as the Cedar with 8 samples" sh -c "grep -q 'AMD CEDAR' '$tmp/out' && grep -q 'GL_SAMPLES 8' '$tmp/out'"
check "no GPU execution fault" sh -c "! grep -q 'fault' '$tmp/err'"
"$SIM" replay --kernel-compat "$tmp"/glcap/cs_*.bof --dump-all "$tmp/glbo" >"$tmp/replay.out" 2>&1
check "the GL session's captures replay, every one accepted" \
    sh -c "[ \$(grep -c ': accepted' '$tmp/replay.out') -eq \$(ls '$tmp/glcap' | wc -l) ]"
found=""
for f in "$tmp"/glbo/bo_*.bin; do cmp -s "$f" "$tmp/gl.rgba" && found=$f; done
check "a replayed buffer equals the program's read-back ($(basename "${found:-none}"))" test -n "$found"
status_is 0 "$RUN" --no-exec -- "$GL" --samples 8 --flip-y --raw "$tmp/gl-null.rgba"
check "--no-exec: the same program reads back zeros" all_zero "$tmp/gl-null.rgba"
