# Shared helpers for the CLI test scripts (tests/test_*.sh); source it from the
# repo root: `. tests/lib.sh`.  Every check prints exactly one line, "PASS: ..."
# or "FAIL: ...": tests/run-tests counts those lines.
#
# Sourcing it makes $tmp, a scratch directory removed on exit.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }

# check description command...: PASS when the command succeeds.
check() {
    local what=$1; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

# check_eq description got want: PASS when the two strings are equal.
check_eq() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; fi
}

# status_is want command...: runs the command with stdout in $tmp/out and
# stderr in $tmp/err; succeeds when it exits with status `want`.
status_is() {
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" -eq "$want" ] || { echo "  got status $rc, wanted $want: $*" >&2; head -3 "$tmp/out" "$tmp/err" >&2; return 1; }
}

# out_has pattern: the last status_is command's stdout has a line matching it.
out_has() { grep -q -- "$1" "$tmp/out" || { echo "  output lacks '$1':" >&2; head -5 "$tmp/out" >&2; return 1; }; }

# usage_error what command...: PASS when the command exits 2 with exactly one
# line on stderr and nothing on stdout (how every tool reports bad usage).
usage_error() {
    local what=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; then
        pass "bad usage ($what): exit 2, one line"
    else
        fail "bad usage ($what): exit $rc, stderr: $(cat "$tmp/err")"
    fi
}

# every_line_has_a_form file: each line of the file matches one of the
# extended regular expressions in the caller's array FORMS.
every_line_has_a_form() {
    local line form ok
    while IFS= read -r line; do
        ok=0
        for form in "${FORMS[@]}"; do
            [[ $line =~ $form ]] && { ok=1; break; }
        done
        [ $ok = 1 ] || { echo "  unexpected line: $line" >&2; return 1; }
    done <"$1"
}
