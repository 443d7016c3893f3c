#!/bin/bash
# The register database validates, and the validator rejects broken input.
set -u
. tests/lib.sh
if out=$(python3 regs/gen_regs.py --check regs/*.regs 2>&1); then echo "PASS: regs database validates ($out)"; else echo "FAIL: regs database: $out"; fi
printf 'space context 0x28000 0x29000\nbitset B\n  field A 0..3\n  field C 2..5\n' >"$tmp/bad.regs"
if python3 regs/gen_regs.py --check "$tmp/bad.regs" 2>"$tmp/err"; then echo "FAIL: overlapping fields accepted"
elif grep -q "bad.regs:4: B.C overlaps" "$tmp/err"; then echo "PASS: overlapping fields rejected with file:line"
else echo "FAIL: wrong message: $(cat "$tmp/err")"; fi
printf 'space context 0x28000 0x29000\nreg A 0x28000\nreg B 0x28000\nreg C 0x30000\n' >"$tmp/bad2.regs"
if python3 regs/gen_regs.py --check "$tmp/bad2.regs" 2>"$tmp/err"; then echo "FAIL: duplicate offset accepted"
elif grep -q "already used by A" "$tmp/err" && grep -q "in no declared space" "$tmp/err"; then echo "PASS: duplicate offset and out-of-space register rejected"
else echo "FAIL: wrong message: $(cat "$tmp/err")"; fi
