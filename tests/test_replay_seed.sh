#!/bin/bash
# The seed author's bare-metal triangle replayed on the virtual Cedar:
# `cedar-sim replay-ib tests/data/cedar/eg.cmds.0.bin` with the memory the
# post "HD 7350 demo: A Triangle" (github.com/asurati/wip.src,
# content/post/2022-05-31-hd7350-demo-a-triangle.md) describes, its colour
# buffer dumped and checked pixel by pixel against an oracle written here
# (python, double precision): the triangle's coverage at each pixel centre and
# its barycentric colour, from the post's vertices and the viewport the command
# buffer sets.  Also: a run without the shaders fails cleanly, --trace is sane.
# Run from the repo root.
set -u
SIM="${CEDAR_TOOLS:-build/san/bin}/cedar-sim"
IB=tests/data/cedar/eg.cmds.0.bin
SHADERS=tests/data/shader
. tests/lib.sh

# ---- 1. What the command buffer says, read by an independent PM4 walker ----
# Type-3 packets: header bits 31:30 = 3, 29:16 = count-1, 15:8 = opcode.
# SET_CONTEXT_REG (0x69) writes context registers 0x28000 + 4*index; SET_RESOURCE
# (0x6D) fills 8-dword resource slots from 0x30000 + 4*index (Evergreen PM4 spec;
# the register offsets are Evergreen's, as in the kernel's evergreend.h).
python3 - "$IB" >"$tmp/ib.env" <<'EOF'
import struct, sys
words = struct.unpack('<%dI' % (len(open(sys.argv[1], 'rb').read()) // 4), open(sys.argv[1], 'rb').read())
ctx, res = {}, {}
i = 0
while i < len(words):
    h = words[i]
    if h >> 30 != 3:
        sys.exit('not a type-3 packet at dword %d' % i)
    n, op = ((h >> 16) & 0x3FFF) + 1, (h >> 8) & 0xFF
    body = words[i + 1:i + 1 + n]
    if op == 0x69:
        for k, v in enumerate(body[1:]):
            ctx[0x28000 + 4 * (body[0] + k)] = v
    elif op == 0x6D:
        for k, v in enumerate(body[1:]):
            res[0x30000 + 4 * (body[0] + k)] = v
    i += 1 + n
f = lambda u: struct.unpack('<f', struct.pack('<I', u))[0]
# SQ_PGM_START_VS/PS/FS (0x2885C/0x28840/0x288A4) hold address >> 8.
print('VS=0x%X PS=0x%X FS=0x%X' % (ctx[0x2885C] << 8, ctx[0x28840] << 8, ctx[0x288A4] << 8))
# The fetch shader's buffer 0x1F: FS resources start at slot 992 (post), i.e. dword
# index (992 + 31) * 8 = 0x1FF8; words 0..2 = base, size - 1, stride in bits 15:8.
slot = 0x30000 + 4 * 0x1FF8
print('VB=0x%X VBSIZE=%d VBSTRIDE=%d' % (res[slot], res[slot + 4] + 1, (res[slot + 8] >> 8) & 0xFF))
# CB_COLOR0_BASE/PITCH/SLICE/INFO (0x28C60..): base >> 8, pitch and slice in 8-pixel /
# 64-pixel tiles minus one, INFO FORMAT bits 7:2, ARRAY_MODE 11:8, NUMBER_TYPE 14:12.
pitch = (ctx[0x28C64] + 1) * 8
height = (ctx[0x28C68] + 1) * 64 // pitch
info = ctx[0x28C70]
print('CB=0x%X CBW=%d CBH=%d CBFMT=%d CBMODE=%d CBNUM=%d' % (ctx[0x28C60] << 8, pitch, height,
      (info >> 2) & 0x3F, (info >> 8) & 0xF, (info >> 12) & 7))
# PA_CL_VPORT_XSCALE_0, XOFFSET, YSCALE, YOFFSET (0x2843C..0x28448), floats.
print('VPORT="%r %r %r %r"' % tuple(f(ctx[0x2843C + 4 * k]) for k in range(4)))
EOF
check "the IB walks as type-3 packets (independent walker)" test -s "$tmp/ib.env"
# shellcheck disable=SC1091
. "$tmp/ib.env"
# The post's figures: shaders at 0x5000/0x5400/0x5800 (SQ_PGM_START_* 0x50/0x54/0x58),
# verts[] at 0x4000 (72 bytes, stride 24), CB at 0x800000 1280x720 COLOR_8_8_8_8
# (26) ARRAY_LINEAR_ALIGNED (1), NUMBER_SRGB (6); viewport 640,640,-360,360.
check "IB: VS 0x5000, FS 0x5400, PS 0x5800 (as the post says)" \
    test "$VS $FS $PS" = "0x5000 0x5400 0x5800"
check "IB: vertex buffer 0x4000, 72 bytes, stride 24 (3 x 6 floats)" \
    test "$VB $VBSIZE $VBSTRIDE" = "0x4000 72 24"
check "IB: CB0 at 0x800000, 1280x720, 8_8_8_8 linear-aligned sRGB" \
    test "$CB $CBW $CBH $CBFMT $CBMODE $CBNUM" = "0x800000 1280 720 26 1 6"
check "IB: viewport x*640+640, y*-360+360 (y flipped)" test "$VPORT" = "640.0 640.0 -360.0 360.0"

# ---- 2. The memory the post describes --------------------------------------
# verts[] of the post (the first one, drawn as eg.0.png; Update #1 later narrowed
# the base to +-0.5846): position x, y, z then colour r, g, b per vertex.
VERTS="0.9 -0.9 0 1 0 0  -0.9 -0.9 0 0 0 1  0.0 0.9 0 0 1 0"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<18f", *map(float, sys.argv[2:])))' \
    "$tmp/verts.bin" $VERTS
# The colour buffer starts as a known pattern, so "untouched" can be checked.
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes([0x11, 0x22, 0x33, 0x44]) * (int(sys.argv[2]) * int(sys.argv[3])))' \
    "$tmp/fill.bin" "$CBW" "$CBH"
CBBYTES=$((CBW * CBH * 4))

"$SIM" replay-ib "$IB" --load "$VB:$tmp/verts.bin" --load "$VS:$SHADERS/seed_vs.bin" \
    --load "$FS:$SHADERS/seed_fs.bin" --load "$PS:$SHADERS/seed_ps.bin" --load "$CB:$tmp/fill.bin" \
    --dump "$CB:$CBBYTES:$tmp/cb.bin" >"$tmp/out" 2>&1
rc=$?
check "replay-ib with the post's memory exits 0" test "$rc" -eq 0
check "  ... one draw, no execution fault" out_has "1 draws, .* 0 execution faults"
check "  ... colour buffer dumped ($CBBYTES bytes)" test "$(stat -c %s "$tmp/cb.bin" 2>/dev/null || echo 0)" -eq "$CBBYTES"

# ---- 3. The oracle ----------------------------------------------------------
# Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5).  Screen position of a
# vertex: (X * XSCALE + XOFFSET, Y * YSCALE + YOFFSET) (PA_CL_VTE_CNTL enables all
# of them; clipping is off, w = 1 so no perspective).  Colour: barycentric mix of
# the vertex colours, alpha 1 (the PS exports w = 1.0), then the CB's NUMBER_SRGB
# conversion of r, g, b (IEC 61966-2-1 encoding; alpha stays linear), stored
# B, G, R, A (SWAP_ALT).  Pixels more than 1 px inside every edge must be within 1
# of that; pixels more than 1 px outside an edge must hold the fill pattern; the
# band in between is only counted.  The number of pixels written must also lie
# between the centres strictly inside and those inside-or-on an edge.
python3 - "$tmp/cb.bin" "$CBW" "$CBH" "$VPORT" $VERTS >"$tmp/oracle" 2>&1 <<'EOF'
import struct, sys, math
data = open(sys.argv[1], 'rb').read()
W, H = int(sys.argv[2]), int(sys.argv[3])
xs, xo, ys, yo = map(float, sys.argv[4].split())
v = struct.unpack('<18f', struct.pack('<18f', *map(float, sys.argv[5:23])))  # as float32
P = [(v[6 * k] * xs + xo, v[6 * k + 1] * ys + yo) for k in range(3)]
C = [v[6 * k + 3:6 * k + 6] for k in range(3)]
def enc(c):  # linear -> sRGB, then to 8 bits
    c = min(max(c, 0.0), 1.0)
    s = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return int(math.floor(s * 255 + 0.5))
area = (P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) - (P[1][1] - P[0][1]) * (P[2][0] - P[0][0])
sign = 1.0 if area > 0 else -1.0
edges = []
for a, b in ((1, 2), (2, 0), (0, 1)):  # edge opposite vertex k = (a, b)
    (ax, ay), (bx, by) = P[a], P[b]
    edges.append((ax, ay, bx - ax, by - ay, math.hypot(bx - ax, by - ay)))
fill = bytes([0x11, 0x22, 0x33, 0x44])
inside = outside = band = band_written = strict = on_edge = written = 0
max_diff = 0; bad_in = bad_out = 0; first_bad = None
for y in range(H):
    py = y + 0.5
    row = data[4 * W * y:4 * W * (y + 1)]
    for x in range(W):
        px = x + 0.5
        e = [sign * (dx * (py - ay) - dy * (px - ax)) for ax, ay, dx, dy, _ in edges]
        dist = min(e[k] / edges[k][4] for k in range(3))  # signed distance to the nearest edge
        got = row[4 * x:4 * x + 4]
        w = got != fill
        written += w
        strict += dist > 0
        on_edge += dist == 0
        if dist > 1.0:
            inside += 1
            lam = [ek / abs(area) for ek in e]  # barycentric weights of vertices 0, 1, 2
            rgb = [enc(sum(lam[k] * C[k][c] for k in range(3))) for c in range(3)]
            want = (rgb[2], rgb[1], rgb[0], 255)
            d = max(abs(got[c] - want[c]) for c in range(4))
            max_diff = max(max_diff, d)
            if d > 1:
                bad_in += 1
                first_bad = first_bad or (x, y, tuple(got), want)
        elif dist < -1.0:
            outside += 1
            if w:
                bad_out += 1
                first_bad = first_bad or (x, y, tuple(got), 'untouched')
        else:
            band += 1
            band_written += w
print('inside pixels compared %d, max diff %d, over 1: %d' % (inside, max_diff, bad_in))
print('outside pixels %d, untouched %d' % (outside, outside - bad_out))
print('edge band pixels %d (%d written)' % (band, band_written))
print('pixels written %d, centres strictly inside %d, on an edge %d' % (written, strict, on_edge))
if first_bad:
    print('first mismatch (x, y, got BGRA, want):', first_bad)
ok = inside > 300000 and bad_in == 0 and outside > 500000 and bad_out == 0 and \
     strict <= written <= strict + on_edge
sys.exit(0 if ok else 1)
EOF
orc=$?
sed 's/^/  /' "$tmp/oracle"
check "the triangle matches the oracle (inside within 1, outside untouched, count)" test "$orc" -eq 0

# ---- 4. PNG of the linear dump through cedar-detile --------------------------
DETILE="${CEDAR_TOOLS:-build/san/bin}/cedar-detile"
check "cedar-detile --mode linear writes a PNG of the dump" \
    "$DETILE" "$tmp/cb.bin" "$tmp/cb.png" --mode linear --width "$CBW" --height "$CBH" --format bgra8
check "  ... a 1280x720 PNG" test "$(head -c 24 "$tmp/cb.png" 2>/dev/null | tail -c 8 | od -An -tx1 | tr -d ' \n')" = "00000500000002d0"

# ---- 5. Without the shaders: a clear execution fault, not a crash ------------
"$SIM" replay-ib "$IB" --load "$VB:$tmp/verts.bin" >"$tmp/out" 2>&1
rc=$?
check "replay-ib without the shaders exits 1 (execution fault)" test "$rc" -eq 1
check "  ... and says the draw's VS faulted" out_has "first execution fault: dword 0x25A: draw: .*shader VS"
check "  ... no sanitizer report" bash -c "! grep -q -E 'Sanitizer|runtime error' '$tmp/out'"
"$SIM" replay-ib "$IB" --load "$VB:$tmp/verts.bin" --load "$VS:$SHADERS/seed_vs.bin" \
    --load "$FS:$SHADERS/seed_fs.bin" >"$tmp/out" 2>&1
rc=$?
check "replay-ib without the pixel shader exits 1, naming the PS" \
    bash -c "[ $rc -eq 1 ] && grep -q 'draw: .*shader PS' '$tmp/out'"

# ---- 6. --trace ---------------------------------------------------------------
"$SIM" replay-ib "$IB" --load "$VB:$tmp/verts.bin" --load "$VS:$SHADERS/seed_vs.bin" \
    --load "$FS:$SHADERS/seed_fs.bin" --load "$PS:$SHADERS/seed_ps.bin" --trace >"$tmp/out" 2>&1
rc=$?
check "--trace run exits 0" test "$rc" -eq 0
check "  ... one line per packet (134 packets)" test "$(grep -c '^\[0x[0-9A-F]\{4\}\] ' "$tmp/out")" -eq 134
check "  ... decodes the viewport write" out_has "PA_CL_VPORT_YSCALE_0 .* = 0xC3B40000"
check "  ... the draw: 3 indices, triangle list" out_has "draw: 3 indices, 1 instance(s), primitive type 4"
check "  ... VS at 0x5000, PS at 0x5800" out_has "VS at 0x0000005000, PS at 0x0000005800"
check "  ... CB0 at 0x800000, linear, pitch 1280" out_has "CB0: base 0x0000800000 format 26 array mode 1 pitch 1280"
check "  ... the closing SURFACE_SYNC of the colour buffer" out_has "CP_COHER_CNTL 0x02000040 size 0x00003840 base 0x00008000"
