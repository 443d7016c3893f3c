#!/bin/bash
# CLI checks for cedar-pm4: exit status 0 / 1 / 2 on good / unknown /
# malformed input, --json is valid JSON (python3's parser), --regs filters,
# --summary prints packets only.  Run from the repo root.
set -u
PM4="${CEDAR_TOOLS:-build/san/bin}/cedar-pm4"
MESA=tests/data/mesa-r600-msaa8x
. tests/lib.sh

for f in tests/data/cedar/eg.cmds.0.bin $MESA/cs_001.bin $MESA/cs_002.bin $MESA/cs_003.bin $MESA/cs_004.bin; do
    check "exit 0 on $f" status_is 0 "$PM4" "$f"
done
check "exit 0 on cs_005 with --ring dma" status_is 0 "$PM4" --ring dma $MESA/cs_005.bin
check "exit 2 on cs_005 as a GFX stream (its DMA header's count runs past the end)" \
    status_is 2 "$PM4" --ring gfx $MESA/cs_005.bin

# unknown: an unknown opcode (0x01) and a register outside the database
printf '\x00\x01\x00\xC0\x00\x00\x00\x00' >"$tmp/unknown_op.bin"
check "exit 1 on an unknown opcode" status_is 1 "$PM4" "$tmp/unknown_op.bin"
check "unknown opcode printed with its raw value" grep -q "unknown opcode 0x01" "$tmp/out"
# SET_CONFIG_REG index 0x2AF0 (0x8000 + 0xABC0 * ... = 0xABC0): in the space, no register there
printf '\x00\x68\x01\xC0\xF0\x0A\x00\x00\x78\x56\x34\x12' >"$tmp/unknown_reg.bin"
check "exit 1 on an unknown register" status_is 1 "$PM4" "$tmp/unknown_reg.bin"
check "unknown register printed with its raw value" grep -q "unknown .*= 0x12345678" "$tmp/out"

# a SET_CONTEXT_REG of no register (count 0, index 0x191), as Mesa's r600
# emits and the kernel's evergreen_packet3_check takes: listed, not refused
printf '\x00\x69\x00\xC0\x91\x01\x00\x00' >"$tmp/empty_set.bin"
check "exit 0 on a SET_CONTEXT_REG of no register" status_is 0 "$PM4" "$tmp/empty_set.bin"
check "the empty SET_CONTEXT_REG is listed" grep -q "SET_CONTEXT_REG" "$tmp/out"

# malformed
head -c 10 $MESA/cs_003.bin >"$tmp/odd.bin"
check "exit 2 on a size that is not whole dwords" status_is 2 "$PM4" "$tmp/odd.bin"
head -c 52 $MESA/cs_003.bin >"$tmp/trunc.bin"   # cuts the SET_CONFIG_REG at dword 0x0A
check "exit 2 on a truncated packet" status_is 2 "$PM4" "$tmp/trunc.bin"
check "truncation error names the dword offset" grep -q "dword 10 (0xA)" "$tmp/err"
printf '\x00\x00\x00\x40' >"$tmp/type1.bin"
check "exit 2 on a reserved packet type" status_is 2 "$PM4" "$tmp/type1.bin"
: >"$tmp/empty.bin"
check "exit 2 on an empty file" status_is 2 "$PM4" "$tmp/empty.bin"
check "exit 2 on a missing file" status_is 2 "$PM4" "$tmp/does-not-exist.bin"
check "exit 2 on a bad option" status_is 2 "$PM4" --bogus $MESA/cs_003.bin
check "exit 0 on --help" status_is 0 "$PM4" --help
head -c 4000 /dev/urandom >"$tmp/random.bin"
"$PM4" "$tmp/random.bin" >/dev/null 2>&1
rc=$?
check "random bytes: exit 1 or 2, no crash (status $rc)" test "$rc" -eq 1 -o "$rc" -eq 2

# --json: every line parses, stable keys present, relocation ties visible
json_ok() {
    "$PM4" --json "$@" 2>/dev/null | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    o = json.loads(line)
    assert "offset" in o and "packet" in o and "count" in o, o
    n += 1
assert n > 0
'
}
for f in tests/data/cedar/eg.cmds.0.bin $MESA/cs_003.bin $MESA/cs_004.bin; do
    check "--json parses on $f" json_ok "$f"
done
check "--json ties CB_COLOR0_BASE's relocation" \
    bash -c "'$PM4' --json $MESA/cs_003.bin | grep -q '\"reloc\":{\"index\":0,\"tied\":true,\"packet_offset\":284,\"payload_index\":1,\"what\":\"CB_COLOR0_BASE\"'"
check "--json decodes CB_COLOR0_INFO FORMAT by name" \
    bash -c "'$PM4' --json --regs CB_COLOR0_INFO $MESA/cs_003.bin | grep -q '\"FORMAT\":{\"value\":26,\"name\":\"COLOR_8_8_8_8\"}'"

# --regs: only the named registers
"$PM4" --regs CB_COLOR0_INFO,PA_SC_AA_CONFIG $MESA/cs_003.bin >"$tmp/regs.txt" 2>/dev/null
check "--regs prints CB_COLOR0_INFO" grep -q "CB_COLOR0_INFO .*FORMAT=COLOR_8_8_8_8" "$tmp/regs.txt"
check "--regs prints PA_SC_AA_CONFIG" grep -q "PA_SC_AA_CONFIG .*MSAA_NUM_SAMPLES=3" "$tmp/regs.txt"
check "--regs prints no other register" \
    test "$(grep -c '^        0x' "$tmp/regs.txt")" -eq 2

# --summary: one line per packet, no register lines
"$PM4" --summary $MESA/cs_003.bin >"$tmp/sum.txt" 2>/dev/null
check "--summary has no register lines" bash -c "! grep -q '^        ' '$tmp/sum.txt'"
check "--summary has one line per packet (153 in cs_003)" test "$(wc -l <"$tmp/sum.txt")" -eq 153
