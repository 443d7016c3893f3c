#!/bin/bash
# CLI checks for cedar-gldemo on the machine's own Mesa driver (llvmpipe: no
# GPU here; 4 samples at most on Debian 12).  The frame is checked against an
# oracle written here (python, double precision) from the fixture's scene
# (tests/data/cedar/README.md): the clear colour converted as GL converts a
# float to 8-bit UNORM, and the barycentric colour at pixel centres well
# inside the triangle.  Also: --flip-y gives the same image (the files are the
# top of the scene first either way), the PNG holds the same pixels as the raw
# file, usage errors exit 2 with one line, --samples 8 on llvmpipe exits 1.
# Run from the repo root.
set -u
GLDEMO="${CEDAR_TOOLS:-build/san/bin}/cedar-gldemo"
. tests/lib.sh

# Mesa's driver is loaded into the process and unloaded by eglTerminate: at
# exit LeakSanitizer finds 112 bytes Mesa (llvmpipe) still holds, in frames of
# the unloaded driver it can no longer name or suppress.  Leak checking is off
# for this GL program only; ASan and UBSan still check everything else.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

one_stderr_line() { [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; }

# ---- usage ----
check "--help exits 0 and prints the usage" status_is 0 "$GLDEMO" --help
check "--help names every option" bash -c "grep -q -- --samples '$tmp/out' && grep -q -- --raw '$tmp/out' &&
    grep -q -- --out '$tmp/out' && grep -q -- --flip-y '$tmp/out'"
for bad in "--samples 3" "--samples 16" "--samples 0" "--samples x" "--samples 4x" "--samples" \
    "--bogus" "--out" "--raw" "extra" "--flip-y=1"; do
    # shellcheck disable=SC2086
    check "bad usage '$bad': exit 2, one line on stderr" status_is 2 "$GLDEMO" $bad
    check "bad usage '$bad': the line says what is wrong" one_stderr_line
done

# ---- too many samples for llvmpipe ----
check "--samples 8 on llvmpipe: exit 1" status_is 1 "$GLDEMO" --samples 8 --raw "$tmp/x8.rgba"
check "--samples 8 on llvmpipe: one line" one_stderr_line
check "--samples 8 on llvmpipe: the line names llvmpipe and GL_MAX_SAMPLES 4" \
    grep -q '^cedar-gldemo: --samples 8: "llvmpipe.*" takes at most 4 (GL_MAX_SAMPLES)$' "$tmp/err"
check "--samples 8 on llvmpipe: no file written" test ! -e "$tmp/x8.rgba"

# ---- the 4x frame on llvmpipe ----
check "4x: exit 0" status_is 0 "$GLDEMO" --samples 4 --raw "$tmp/plain.rgba" --out "$tmp/plain.png"
check "4x: one line with GL_RENDERER llvmpipe, GL_MAX_SAMPLES 4, GL_SAMPLES 4" \
    bash -c "[ \$(wc -l <'$tmp/out') -eq 1 ] &&
        grep -Eq '^cedar-gldemo: \"llvmpipe.*\", GL_MAX_SAMPLES 4, 4 samples \(GL_SAMPLES 4\), 1280x720,' '$tmp/out'"
check_eq "4x: --raw is 1280*720*4 bytes" "$(stat -c %s "$tmp/plain.rgba" 2>/dev/null)" $((1280 * 720 * 4))
check "4x --flip-y: exit 0" status_is 0 "$GLDEMO" --samples 4 --flip-y --raw "$tmp/flip.rgba"
check "4x --flip-y: says mirrored in y" out_has '1280x720 mirrored in y'

# The oracle.  Window coordinates with y from the top of the scene (the
# files' row order): x_w = 640 (x + 1), y_w = 360 (1 - y).
cat >"$tmp/oracle.py" <<'EOF'
import math, struct, sys, zlib
W, H = 1280, 720
f32 = lambda v: struct.unpack('<f', struct.pack('<f', v))[0]
# The fixture's triangle (positions as 32-bit floats, as the program sends them).
verts = [((f32(0.5846), f32(-0.9)), (1, 0, 0)),   # bottom right, red
         ((f32(-0.5846), f32(-0.9)), (0, 0, 1)),  # bottom left, blue
         ((f32(0.0), f32(0.9)), (0, 1, 0))]       # top, green
P = [((x + 1) * 640, (1 - y) * 360) for (x, y), _ in verts]
edge = lambda a, b, x, y: (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
area = edge(P[0], P[1], *P[2])
EDGES = [(P[1], P[2]), (P[2], P[0]), (P[0], P[1])]  # opposite vertex 0, 1, 2

def weights(x, y):
    return [edge(a, b, x, y) / area for a, b in EDGES]

def edge_distance(x, y):  # pixels from the nearest edge line
    return min(abs(edge(a, b, x, y)) / math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in EDGES)

def load(path):
    data = open(path, 'rb').read()
    if len(data) != W * H * 4:
        sys.exit('%s: %d bytes, not %d' % (path, len(data), W * H * 4))
    return data

def px(img, x, y):
    i = (y * W + x) * 4
    return img[i:i + 4]

def unorm8_choices(c):
    # GL: a float f becomes one of the two integers nearest f * 255, the
    # nearer preferred; the product of 32-bit floats can land on an exact
    # tie (0.3f * 255 = 76.5 in float), then either is right.
    v = f32(f32(c) * 255.0)
    lo = math.floor(v)
    if v - lo == 0.5:
        return {lo, lo + 1}
    return {int(math.floor(v + 0.5))}

def corners(path):
    img, bad = load(path), []
    clear = [unorm8_choices(c) for c in (0.2, 0.3, 0.3, 1.0)]
    for x, y in ((0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1)):
        p = px(img, x, y)
        if any(p[c] not in clear[c] for c in range(4)):
            bad.append('(%d,%d)=%s' % (x, y, tuple(p)))
    print('clear colour choices %s' % [sorted(s) for s in clear])
    return bad

def interior(path):
    # Every 5th pixel whose centre is inside and at least 2 pixels from every
    # edge: one colour covers all its samples, interpolated at the centre.
    img, bad, n = load(path), [], 0
    for y in range(0, H, 5):
        for x in range(0, W, 5):
            cx, cy = x + 0.5, y + 0.5
            w = weights(cx, cy)
            if min(w) < 0 or edge_distance(cx, cy) < 2:
                continue
            n += 1
            p = px(img, x, y)
            want = [255 * sum(w[i] * verts[i][1][c] for i in range(3)) for c in range(3)] + [255]
            if any(abs(p[c] - want[c]) > 1 for c in range(4)):
                bad.append('(%d,%d)=%s want %s' % (x, y, tuple(p), ['%.2f' % v for v in want]))
    print('%d interior pixels checked' % n)
    return bad if n > 5000 else ['only %d interior pixels' % n]

def same_away_from_edges(a_path, b_path):
    # Wherever no edge comes within 2 pixels of the centre, within 1: the
    # mirrored triangle is set up from mirrored vertices, so an interpolated
    # colour may round the other way.  Only antialiased edge pixels, whose
    # samples the mirrored pattern covers differently, may differ more.
    a, b, bad, far_differ, near_differ = load(a_path), load(b_path), [], 0, 0
    for y in range(H):
        row = slice(y * W * 4, (y + 1) * W * 4)
        if a[row] == b[row]:
            continue
        for x in range(W):
            pa, pb = px(a, x, y), px(b, x, y)
            if pa == pb:
                continue
            if edge_distance(x + 0.5, y + 0.5) < 2:
                near_differ += 1
                continue
            far_differ += 1
            if any(abs(pa[c] - pb[c]) > 1 for c in range(4)):
                bad.append('(%d,%d) %s vs %s' % (x, y, tuple(pa), tuple(pb)))
    print('%d pixels differ within 2 pixels of an edge, %d further away (%d of them by more than 1)'
          % (near_differ, far_differ, len(bad)))
    return bad

def png_pixels(path):  # RGBA8, non-interlaced: what cedar_png_write makes
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('not a PNG')
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', data[pos + 8:pos + 21])
        elif kind == b'IDAT':
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    if hdr != (W, H, 8, 6, 0, 0, 0):
        sys.exit('PNG header %s, not 1280x720 8-bit RGBA' % (hdr,))
    raw, out, prev, stride = zlib.decompress(idat), bytearray(), bytearray(W * 4), W * 4
    for y in range(H):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if ft == 1: line[i] = (line[i] + a) & 255
            elif ft == 2: line[i] = (line[i] + b) & 255
            elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return bytes(out)

what = sys.argv[1]
if what == 'corners':
    bad = corners(sys.argv[2])
elif what == 'interior':
    bad = interior(sys.argv[2])
elif what == 'same':
    bad = same_away_from_edges(sys.argv[2], sys.argv[3])
elif what == 'png':
    bad = [] if png_pixels(sys.argv[2]) == load(sys.argv[3]) else ['PNG pixels differ from the raw file']
for line in bad[:5]:
    print(line, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

oracle() { python3 "$tmp/oracle.py" "$@" >&2; }
check "4x: the four corners hold the clear colour as 8-bit UNORM" oracle corners "$tmp/plain.rgba"
check "4x: interior pixels within 1 of the barycentric colour" oracle interior "$tmp/plain.rgba"
check "4x --flip-y: corners hold the clear colour" oracle corners "$tmp/flip.rgba"
check "4x --flip-y: interior pixels within 1 of the barycentric colour (top row first)" \
    oracle interior "$tmp/flip.rgba"
check "4x --flip-y: the plain frame's image, within 1 away from the edges" \
    oracle same "$tmp/plain.rgba" "$tmp/flip.rgba"
check "4x: --out PNG holds the --raw pixels (same row order)" oracle png "$tmp/plain.png" "$tmp/plain.rgba"

# ---- file errors ----
check "--raw into a missing directory: exit 1" status_is 1 "$GLDEMO" --raw "$tmp/no/such/dir/f.rgba"
check "--raw into a missing directory: one line" one_stderr_line
