#!/bin/bash
# CLI checks for cedar-sim: check (Mesa's streams accepted with their
# recorded buffer sizes, broken ones rejected with exit 1, bad input exit 2),
# replay of a BOF capture written here by an independent writer (python,
# following libdrm's radeon/bof.c layout), replay-ib of the real card's IB.
# Run from the repo root.
set -u
SIM="${CEDAR_TOOLS:-build/san/bin}/cedar-sim"
MESA=tests/data/mesa-r600-msaa8x
. tests/lib.sh

# --bo arguments from a relocs.txt: size and initial domain of each relocation
bos() { sed -nE 's/.* size=([0-9]+) .*init=(VRAM|GTT).*/--bo \1:\2/p' "$1" | tr 'A-Z' 'a-z' | sed 's/--bo/ --bo/g' | tr -d '\n'; }

check "--help exits 0" status_is 0 "$SIM" --help
check "no arguments exit 2" status_is 2 "$SIM"
check "an unknown command exits 2" status_is 2 "$SIM" frobnicate

for n in 001 002 003 004; do
    for mode in --strict --kernel-compat; do
        # shellcheck disable=SC2046
        check "cs_$n accepted ($mode)" status_is 0 "$SIM" check $MESA/cs_$n.bin $(bos $MESA/cs_$n.relocs.txt) $mode
        check "cs_$n prints accepted ($mode)" out_has "^accepted$"
    done
done
# shellcheck disable=SC2046
check "cs_005 (DMA ring) accepted" status_is 0 "$SIM" check --dma $MESA/cs_005.bin $(bos $MESA/cs_005.relocs.txt)

# cs_003 with its MSAA buffer far too small: rejected, exit 1, structured error
R3="--bo 1M:gtt --bo 4096 --bo 65536 --bo 4096 --bo 4096 --bo 4096:gtt"
# shellcheck disable=SC2086
check "cs_003 with a 3 MB colour buffer rejected (kernel mode)" \
    status_is 1 "$SIM" check $MESA/cs_003.bin --bo 3000000 $R3 --kernel-compat
check "  ... as surf-size at the CB_COLOR0_BASE dword" out_has "dword 0x11E: colour buffer 0 .* \[surf-size\]"
# CMask cut short: only strict mode sees it (the kernel never sizes CMask)
# shellcheck disable=SC2086
check "cs_003, CMask past its buffer: strict rejects" status_is 1 "$SIM" check $MESA/cs_003.bin --bo 33920000 $R3
check "  ... as cmask-size" out_has "\[cmask-size\]"
# shellcheck disable=SC2086
check "cs_003, CMask past its buffer: kernel-compat mode (the checks evergreen_cs.c makes) accepts" \
    status_is 0 "$SIM" check $MESA/cs_003.bin --bo 33920000 $R3 --kernel-compat
# fewer buffers than the stream refers to
check "cs_003 with one buffer: relocation past the chunk" status_is 1 "$SIM" check $MESA/cs_003.bin --bo 33923072
check "  ... as reloc-range" out_has "\[reloc-range\]"

# bad input
printf 'abc' >"$tmp/odd.bin"
check "a file of 3 bytes exits 2" status_is 2 "$SIM" check "$tmp/odd.bin" --bo 4096
check "a missing file exits 2" status_is 2 "$SIM" check "$tmp/none.bin" --bo 4096
check "a bad --bo exits 2" status_is 2 "$SIM" check $MESA/cs_001.bin --bo 12Q
check "a bad domain exits 2" status_is 2 "$SIM" check $MESA/cs_001.bin --bo 4096:cpu

# replay: a capture with one 4096-byte GTT buffer and an IB that fills
# bytes 256..1279 with 0xC0FFEE11 by CP_DMA, then writes a fence at 2048.
# Also 300 captures, each with a buffer of its own (handles 100..399), in
# $tmp/many: replay takes every file named and every buffer.
mkdir -p "$tmp/many"
python3 - "$tmp/fill.bof" "$tmp/many" <<'EOF'
import struct, sys
def node(t, payload=b"", count=0, children=()):
    body = payload + b"".join(children)
    return struct.pack("<III", t, 12 + len(body), count) + body
STRING, BLOB, OBJECT, ARRAY, INT32 = 0, 2, 3, 4, 5
def s(v): return node(STRING, v.encode() + b"\0")
def i32(v): return node(INT32, struct.pack("<I", v))
def blob(b): return node(BLOB, b)
def obj(**kv):
    ch = []
    for k, v in kv.items(): ch += [s(k), v]
    return node(OBJECT, children=ch, count=len(ch))
def pkt3(op, payload): return [0xC0000000 | ((len(payload) - 1) << 16) | (op << 8)] + payload
ib = pkt3(0x41, [0xC0FFEE11, 2 << 29, 256, 0, 1024]) + pkt3(0x10, [0])
ib += pkt3(0x47, [0x514, 2048, 1 << 29, 0xF00D, 0]) + pkt3(0x10, [0])
relocs = struct.pack("<IIII", 7, 0, 2, 0)          # handle 7, written in GTT
data = bytes(4096)
root = obj(device_id=i32(0x68F9), reloc=blob(relocs), pm4=blob(struct.pack("<%dI" % len(ib), *ib)),
           bo=node(ARRAY, children=[obj(size=i32(4096), handle=i32(7), data=blob(data))], count=1))
open(sys.argv[1], "wb").write(root)
for k in range(300):
    r = obj(device_id=i32(0x68F9), reloc=blob(struct.pack("<IIII", 100 + k, 0, 2, 0)),
            pm4=blob(struct.pack("<%dI" % len(ib), *ib)),
            bo=node(ARRAY, children=[obj(size=i32(4096), handle=i32(100 + k), data=blob(data))], count=1))
    open("%s/cs_%03d.bof" % (sys.argv[2], k), "wb").write(r)
EOF
check "replay of an independently written capture" status_is 0 "$SIM" replay "$tmp/fill.bof" --dump "7:$tmp/bo7.bin"
check "  ... accepted" out_has "fill.bof: accepted (16 dwords, 1 relocations)"
check "  ... the fill and the fence are in the dumped buffer" python3 -c "
import struct, sys
b = open('$tmp/bo7.bin', 'rb').read()
w = struct.unpack('<1024I', b)
ok = len(b) == 4096 and w[63] == 0 and all(x == 0xC0FFEE11 for x in w[64:320]) and w[320] == 0 and w[512] == 0xF00D
sys.exit(0 if ok else 1)"
check "replay of 300 captures with 300 buffers" status_is 0 "$SIM" replay "$tmp"/many/cs_*.bof --dump "399:$tmp/bo399.bin"
check "  ... every one accepted" sh -c "[ \$(grep -c 'accepted (16 dwords' '$tmp/out') -eq 300 ]"
check "  ... the last one's buffer holds its fill" python3 -c "
import struct, sys
w = struct.unpack('<1024I', open('$tmp/bo399.bin', 'rb').read())
sys.exit(0 if all(x == 0xC0FFEE11 for x in w[64:320]) and w[512] == 0xF00D else 1)"
check "--dump of a handle the capture lacks exits 2" status_is 2 "$SIM" replay "$tmp/fill.bof" --dump "8:$tmp/x.bin"
head -c 100 "$tmp/fill.bof" >"$tmp/cut.bof"
check "a truncated capture exits 2" status_is 2 "$SIM" replay "$tmp/cut.bof"
check "  ... with a clear message" grep -q "damaged capture\|no " "$tmp/err"
check "a non-capture exits 2" status_is 2 "$SIM" replay $MESA/cs_001.bin

# replay-ib: the real card's bare-metal IB (absolute addresses, one draw)
"$SIM" replay-ib tests/data/cedar/eg.cmds.0.bin --dump "0x800000:3686400:$tmp/cb.bin" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "replay-ib runs eg.cmds.0.bin (status 0 or 1 = execution fault)" test "$rc" -le 1
check "  ... all 613 dwords, one draw" out_has "ran 613 dwords: .* 1 draws"
check "  ... the colour buffer region dumped" test "$(stat -c %s "$tmp/cb.bin")" -eq 3686400
"$SIM" replay-ib tests/data/cedar/eg.cmds.0.bin --trace >"$tmp/out" 2>&1
check "--trace names the draw and its colour buffer" out_has "CB0: base 0x0000800000 format 26"
check "replay-ib with a load outside memory exits 2" \
    status_is 2 "$SIM" replay-ib tests/data/cedar/eg.cmds.0.bin --load "0x7FFFFFFFFF:$MESA/cs_001.bin"
check "replay-ib with a bad --dump exits 2" status_is 2 "$SIM" replay-ib tests/data/cedar/eg.cmds.0.bin --dump 0x800000
# DRAW_INDEX_2 with COUNT 1 (the kernel wants 4): 12 bytes, no index address
# or count in the file; an execution fault, not a draw from bytes past the end
printf '\x00\x27\x01\xC0\x40\x00\x00\x00\x00\x10\x00\x00' >"$tmp/short.bin"
check "replay-ib of a cut DRAW_INDEX_2 exits 1" status_is 1 "$SIM" replay-ib "$tmp/short.bin"
check "  ... naming the packet and its length" grep -q "DRAW_INDEX_2 with 2 payload dwords" "$tmp/err" "$tmp/out"
check "  ... nothing drawn" out_has "ran 3 dwords: 1 packets, 0 draws"
