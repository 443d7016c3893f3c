#!/bin/bash
# CLI tests of cedar-detile.  Run from the repo root by tests/run-tests;
# uses $CEDAR_TOOLS/cedar-detile.  One PASS:/FAIL: line per check.
set -u
TOOL=${CEDAR_TOOLS:-build/san/bin}/cedar-detile
. tests/lib.sh

FIX="--width 1280 --height 768 --bpe 4 --mode 2d --tile-split 1024 --bankw 1 --bankh 2 --mtilea 2 --pipes 2 --banks 8 --group-bytes 256"

# PNG width/height from the IHDR chunk.
png_size() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"; }

# 1. The real-card frame, de-tiled by the CLI, equals eg.7.png in every pixel
#    (the PNG is decoded here by a small independent decoder: zlib + unfilter).
if "$TOOL" tests/data/cedar/eg.1.bin.gz "$tmp/eg.png" --raw "$tmp/eg.raw" $FIX --format bgra8; then
    r=$(python3 - "$tmp/eg.raw" tests/data/cedar/eg.7.png <<'EOF'
import struct, sys, zlib
raw = open(sys.argv[1], "rb").read()
png = open(sys.argv[2], "rb").read()
pos, idat = 8, b""
while pos < len(png):
    n, t = struct.unpack(">I4s", png[pos:pos + 8])
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", png[pos + 8:pos + 18])
    if t == b"IDAT":
        idat += png[pos + 8:pos + 8 + n]
    pos += 12 + n
assert depth == 8 and ctype == 6, "expected 8-bit RGBA"
data, bpp, stride = zlib.decompress(idat), 4, w * 4
out, prev = bytearray(), bytearray(stride)
for y in range(h):
    f, line = data[y * (stride + 1)], bytearray(data[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    out += line; prev = line
swapped = bytearray(raw)
swapped[0::4], swapped[2::4] = raw[2::4], raw[0::4]
print("same" if (w, h) == (1280, 768) and bytes(swapped) == bytes(out) else "differ")
EOF
)
    check_eq "fixture de-tiled by the CLI equals eg.7.png (1280x768)" "$r" "same"
    check_eq "fixture PNG is 1280x768" "$(png_size "$tmp/eg.png")" "1280x768"
else
    fail "cedar-detile on the fixture"
fi

# 1b. --layout auto (the layout code's choice for a 1280x720 4-byte surface on
#     the HD 7350) reads the fixture the same way: the first 720 rows agree.
if "$TOOL" tests/data/cedar/eg.1.bin.gz --raw "$tmp/auto.raw" --width 1280 --height 720 --layout auto; then
    cmp -s -n $((1280 * 720 * 4)) "$tmp/auto.raw" "$tmp/eg.raw" && pass "--layout auto de-tiles the fixture like the explicit parameters" \
        || fail "--layout auto de-tiles the fixture like the explicit parameters"
else
    fail "--layout auto on the fixture"
fi
check_eq "--layout auto --addr, 8x sample 2" "$("$TOOL" --addr 0,0,2 --width 1280 --height 720 --samples 8 --layout auto)" \
    "$("$TOOL" --addr 0,0,2 --width 1280 --height 720 --samples 8 --tile-split 512 --mtilea 2)"

# 2. --addr against the bit formula the issue derived from the card's bytes:
#    bytes 0-1, a2..a7 = x0 x1 y0 x2 y1 y2, a8 = x3^y3, a12 = y3, a13.. = macro tile.
ok=1
for xy in "0,0" "1,0" "0,1" "5,3" "100,200" "1279,767" "640,360" "31,63" "32,64" "777,555"; do
    x=${xy%,*} y=${xy#*,}
    a=$("$TOOL" --addr "$x,$y" $FIX) || { ok=0; break; }
    b() { echo $(( ($1 >> $2) & 1 )); }
    low=$(( $(b $x 0) << 2 | $(b $x 1) << 3 | $(b $y 0) << 4 | $(b $x 2) << 5 | $(b $y 1) << 6 | $(b $y 2) << 7 | ($(b $x 3) ^ $(b $y 3)) << 8 ))
    macro=$(( (y / 64) * 40 + x / 32 ))
    if [ $(( a & 511 )) -ne $low ] || [ $(( (a >> 12) & 1 )) -ne $(b $y 3) ] || [ $(( a >> 13 )) -ne $macro ]; then
        ok=0; echo "  ($x,$y) -> $a"
    fi
done
[ $ok = 1 ] && pass "--addr agrees with the fixture's bit formula" || fail "--addr agrees with the fixture's bit formula"
check_eq "--addr prints one decimal number" "$("$TOOL" --addr 100,200 $FIX)" "1014560"

# 3. MSAA: sample 2 of an 8x surface with tile split 512 lies in the second
#    512-byte piece of its micro tile, a piece-slice further, bank rotated by 5.
MS="--width 1280 --height 736 --samples 8 --tile-split 512 --bankw 1 --bankh 1 --mtilea 2"
a0=$("$TOOL" --addr 0,0,0 $MS); a2=$("$TOOL" --addr 0,0,2 $MS); a1=$("$TOOL" --addr 0,0,1 $MS)
# sample 1 is the next 256 bytes of the piece: past the 256-byte interleave,
# so above the 1 pipe bit and 3 bank bits (4096 further in the address).
check_eq "8x sample 1 follows sample 0 inside the piece" "$a1" "$((a0 + 4096))"
check_eq "8x sample 2: bank rotated by banks/2+1" "$(( ((a0 >> 9) ^ (a2 >> 9)) & 7 ))" "5"

# 4. FMask bit location: 8x, plane P of sample S at (0,0) is bit S of byte 64*P.
check_eq "--fmask --addr prints byte and bit" "$("$TOOL" --fmask --addr 0,0,3 --plane 2 $MS)" "128 3"
check_eq "--fmask default plane 0" "$("$TOOL" --fmask --addr 1,0,5 $MS)" "1 5"

# 5. FMask input: an all-zero FMask means every sample uses fragment 0.
size=$(( 1280 * 736 * 4 ))
head -c $size /dev/zero > "$tmp/fmask.bin"
if "$TOOL" "$tmp/fmask.bin" "$tmp/fmask.png" --fmask $MS --raw "$tmp/fmask.raw"; then
    r=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print("ok" if len(d)==1280*736 and set(d)=={1} else "bad")' "$tmp/fmask.raw")
    check_eq "--fmask on an all-zero FMask: one fragment everywhere" "$r" "ok"
else
    fail "--fmask with an input file"
fi

# 6. --show tiles, --crop, --zoom
"$TOOL" "$tmp/tiles.png" --show tiles $FIX --crop 0,0,64,64 --zoom 4 \
    && check_eq "--show tiles --crop 64x64 --zoom 4 gives 256x256" "$(png_size "$tmp/tiles.png")" "256x256" \
    || fail "--show tiles"
"$TOOL" tests/data/cedar/eg.1.bin.gz "$tmp/crop.png" $FIX --crop 600,300,10,20 --zoom 3 \
    && check_eq "--crop 10x20 --zoom 3 gives 30x60" "$(png_size "$tmp/crop.png")" "30x60" \
    || fail "--crop/--zoom"

# 7. Bad input: clear error, exit status 2.
expect2() { # what, args...
    local what=$1; shift
    "$TOOL" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && [ -s "$tmp/err" ]; then pass "$what: exit 2 with a message"; else fail "$what: rc $rc"; fi
}
head -c 1000 /dev/zero > "$tmp/short.bin"
expect2 "file size does not match the layout" "$tmp/short.bin" "$tmp/x.png" $FIX
expect2 "bank width 3" --addr 0,0 --width 64 --height 64 --bankw 3
expect2 "macro aspect above the banks" --addr 0,0 --width 64 --height 64 --mtilea 8 --banks 4
expect2 "5 samples" --addr 0,0 --width 64 --height 64 --samples 5
expect2 "MSAA on a 1D surface" --addr 0,0 --width 64 --height 64 --samples 4 --mode 1d
expect2 "pixel outside the surface" --addr 2000,0 $FIX
expect2 "missing input file" "$tmp/nope.bin" "$tmp/x.png" $FIX
expect2 "unknown option" --addr 0,0 --width 8 --height 8 --frobnicate 1
expect2 "bad number" --addr 0,x $FIX
expect2 "format for the wrong element size" tests/data/cedar/eg.1.bin.gz "$tmp/x.png" $FIX --format r8
"$TOOL" --help >/dev/null && pass "--help exits 0" || fail "--help"
