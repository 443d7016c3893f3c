#!/usr/bin/env python3
"""Which side converts to a low-precision format as the GL spec says, in
ext_framebuffer_multisample-formats read-backs.

    readback_rounding.py DIR STDOUT

DIR is readback_compare.py's directory of one formats test (DIR/cedar and
DIR/llvmpipe hold its read-backs); STDOUT the test's output, whose "Testing
FORMAT" lines name the formats in the order read (each format reads its test
image, then the GL_RGBA reference).  For every format whose test images
differ between the sides, each differing pixel is either an edge pixel (the
reference differs between the sides, or from a 4-neighbour by more than
6/255: MSAA resolves there depend on the sample positions) or an interior
one.  There the 8-bit reference f decides the value a b-bit channel must
hold when f +- 1/2 LSB (of 8 bits) times (2^b - 1) rounds to one integer:
round(f (2^b - 1)) (OpenGL 4.6 2.3.5.2: implementations should round to
nearest).  Each side is judged at the precision it stores (found from the
values it reads back); channels above 8 bits are not judged.  Prints per
format the bits each side stores and the counts: edge, per side
round-to-nearest / off / undecided.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import readback_compare as rc  # noqa: E402

SIDES = ("cedar", "llvmpipe")
EDGE_STEP = 6 / 255


def bits_of(values):
    """The fewest bits b (up to 12) with every value a multiple of 1/(2^b - 1), or None."""
    for b in range(1, 13):
        m = (1 << b) - 1
        if all(abs(v * m - round(v * m)) < 1e-3 for v in values):
            return b
    return None


def source_channel(name, comps, c):
    """The reference (RGBA) channel component c comes from (formats.cpp compute_expected_image)."""
    if comps == 1 and "ALPHA" in name and "LUMINANCE" not in name:
        return 3
    if comps == 2:
        return 3 if c else 0
    return c


def judge(name, img, ref):
    comps = img["cedar"][0]
    h, w = len(ref["cedar"]), len(ref["cedar"][0]) // 4

    def edge(x, y):
        if any(abs(ref["cedar"][y][x * 4 + c] - ref["llvmpipe"][y][x * 4 + c]) > 1e-6 for c in range(4)):
            return True
        for r in (ref[s] for s in SIDES):
            for X, Y in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= X < w and 0 <= Y < h and \
                        max(abs(r[y][x * 4 + c] - r[Y][X * 4 + c]) for c in range(4)) > EDGE_STEP:
                    return True
        return False

    bits = {s: [bits_of({round(v, 6) for row in img[s][1] for v in row[c::comps]}) for c in range(comps)]
            for s in SIDES}
    counts = collections.Counter()
    for y in range(h):
        for x in range(w):
            if all(abs(img["cedar"][1][y][x * comps + c] - img["llvmpipe"][1][y][x * comps + c]) <= 1e-6
                   for c in range(comps)):
                continue
            if edge(x, y):
                counts["edge"] += 1
                continue
            for s in SIDES:
                verdict = "round-to-nearest"
                for c in range(comps):
                    b = bits[s][c]
                    if not b or b > 8:
                        continue
                    m = (1 << b) - 1
                    f = ref[s][y][x * 4 + source_channel(name, comps, c)]
                    if round((f - 0.5 / 255) * m) != round((f + 0.5 / 255) * m):
                        verdict = "undecided"
                        break
                    if abs(img[s][1][y][x * comps + c] - round(f * m) / m) > 1e-4:
                        verdict = "off"
                counts["%s %s" % (s, verdict)] += 1
    return bits, counts


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: readback_rounding.py DIR STDOUT\n")
        return 2
    d, out = argv[1], argv[2]
    try:
        with open(out) as f:
            names = [line.split()[1] for line in f if line.startswith("Testing ")]
    except OSError as e:
        sys.stderr.write("readback_rounding: %s: %s\n" % (out, e.strerror))
        return 2
    reads = {s: rc.read_index(os.path.join(d, s)) for s in SIDES}
    n = min(len(reads["cedar"]), len(reads["llvmpipe"]))
    if n != 2 * len(names):
        sys.stderr.write("readback_rounding: %d read-backs for %d formats (want 2 each)\n" % (n, len(names)))
        return 2
    for i in range(0, n, 2):
        img = {s: rc.decode(reads[s][i]) for s in SIDES}
        ref = {s: rc.decode(reads[s][i + 1]) for s in SIDES}
        if any(v is None for v in list(img.values()) + list(ref.values())):
            continue
        ref = {s: ref[s][1] for s in SIDES}
        bits, counts = judge(names[i // 2], img, ref)
        if counts:
            print("%-24s bits cedar %s llvmpipe %s: %s" % (names[i // 2], bits["cedar"], bits["llvmpipe"],
                                                            ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
