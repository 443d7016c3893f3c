#!/bin/bash
# cedar-probe formats on the virtual Cedar: the table of every ISA vertex
# data format (its rows counted against regs/resource.regs, three rows
# checked against Mesa r600's vertex path: FMT_8_8_8_8 fetched, FMT_32 as
# INT only, FMT_8_8_8 not, as 3-component 8-bit), a small run of the draws
# (each fetchable format and number format against the GL rules, the
# R8G8B8 decomposition against FMT_8_8_8_8), and bad usage.
set -u
TOOL="${CEDAR_TOOLS:-build/san/bin}/cedar-probe"
. tests/lib.sh

usage_error "formats --values 3" "$TOOL" formats --values 3
usage_error "formats --values 257" "$TOOL" formats --values 257
usage_error "formats --values text" "$TOOL" formats --values many

if "$TOOL" formats --device virtual --table-only >"$tmp/out" 2>"$tmp/err"; then
    isa=$(grep -c "^  value FMT_" regs/resource.regs)
    rows=$(grep -c "^FMT_" "$tmp/out")
    if head -1 "$tmp/out" | grep -q "^cedar-probe formats on the virtual Cedar" && [ "$rows" -eq "$isa" ] &&
       grep -q "^FMT_8_8_8_8  *26  *4  yes " "$tmp/out" && grep -q "^FMT_32  *13  *4  INT only " "$tmp/out" &&
       grep -q "^FMT_8_8_8  *44  *3  no .*3-component 8-bit" "$tmp/out" &&
       grep -q "^table: $isa data formats, " "$tmp/out"; then
        pass "--table-only: $rows rows (regs/ has $isa), the three rows as Mesa's vertex path says"
    else
        fail "--table-only: $rows rows of $isa: $(head -3 "$tmp/out")"
    fi
else
    fail "--table-only: $(cat "$tmp/err")"
fi

"$TOOL" formats --device virtual --values 8 >"$tmp/out" 2>"$tmp/err"
rc=$?
draws=$(grep -c "^draw " "$tmp/out")
good=$(grep -c "^draw .* as GL says$" "$tmp/out")
split=$(grep -c "^R8G8B8_.* 8 of 8 elements equal to FMT_8_8_8_8 .xyz1 (the same), 0 components differ" "$tmp/out")
if [ "$rc" -eq 0 ] && [ "$draws" -gt 80 ] && [ "$draws" -eq "$good" ] && [ "$split" -eq 6 ] &&
   grep -q "^formats: .* 0 differ from the GL rule or the reference$" "$tmp/out"; then
    pass "--values 8: $draws format draws as GL says, the six R8G8B8 decompositions equal FMT_8_8_8_8"
else
    fail "--values 8: exit $rc, $draws draws, $good as GL says, $split decompositions: $(grep -v 'as GL says' "$tmp/out" | head -3) $(cat "$tmp/err")"
fi
