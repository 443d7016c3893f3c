#!/usr/bin/env python3
"""Compare what piglit tests read back on the virtual Cedar and on llvmpipe.

    readback_compare.py [--build build] [--cedar-run PROG] [--out build/readback]
                        [--timeout S] [--sides cedar,llvmpipe[,null]] [TEST ...]

Many MSAA tests compare two renderings made by the same driver, so they pass
on a device that executes nothing (cedar-run --no-exec).  To make such a pass
say something, this runs each test with build/libcedar-readdump.so preloaded
(tools/piglit/readdump.c: every glReadPixels destination saved, call by call)
on each side, exactly as tools/piglit/piglit_run.py runs it otherwise, and
compares the virtual Cedar's read-backs with llvmpipe's call for call (the
same test at the same sample count; llvmpipe has no 8-sample variant, so an
8-sample test is compared with the null device only when asked for).

For every test: OUT/TEST/SIDE/ (index.tsv and the raw read-backs), PNGs of
each compared read-back per side and a difference image (black where equal;
the differing channels' magnitude, scaled so that the largest difference is
full brightness, and at least 64 where a channel differs at all), and one
row of OUT/summary.tsv / summary.md: the status per side, read-backs made,
compared, identical, pixels compared, pixels differing at all, pixels
differing by more than 1/255 in some channel, the largest difference (in
units of the channel's range, 1.0 = full scale) and each side's seconds.
Read-backs are paired by call number; a call whose size, format or type
differs between the sides is counted as not comparable.
"""
import argparse
import csv
import os
import shutil
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import piglit_map  # noqa: E402
import piglit_result  # noqa: E402
import piglit_run  # noqa: E402

# The representative dozen (issue 12): accuracy, formats, multisample-blit,
# unaligned-blit, upsample, sample-coverage, alpha-to-coverage at 2/4/8
# samples.  (accuracy N color without depthstencil skips on every side here:
# "Framebuffer not complete" under -fbo.)
DEFAULT_TESTS = [
    "spec@ext_framebuffer_multisample@accuracy 2 color depthstencil",
    "spec@ext_framebuffer_multisample@accuracy 4 color depthstencil",
    "spec@ext_framebuffer_multisample@accuracy 8 color depthstencil",
    "spec@ext_framebuffer_multisample@formats 2",
    "spec@ext_framebuffer_multisample@formats 4",
    "spec@ext_framebuffer_multisample@multisample-blit 2 color",
    "spec@ext_framebuffer_multisample@multisample-blit 4 color",
    "spec@ext_framebuffer_multisample@multisample-blit 8 color",
    "spec@ext_framebuffer_multisample@unaligned-blit 2 color msaa",
    "spec@ext_framebuffer_multisample@unaligned-blit 4 color msaa",
    "spec@ext_framebuffer_multisample@upsample 2 color",
    "spec@ext_framebuffer_multisample@upsample 4 color",
    "spec@ext_framebuffer_multisample@sample-coverage 2 non-inverted",
    "spec@ext_framebuffer_multisample@sample-coverage 4 inverted",
    "spec@ext_framebuffer_multisample@sample-alpha-to-coverage 2 color",
    "spec@ext_framebuffer_multisample@sample-alpha-to-coverage 4 color",
]

GL_FLOAT, GL_UNSIGNED_BYTE, GL_UNSIGNED_INT, GL_INT = 0x1406, 0x1401, 0x1405, 0x1404
COMPONENTS = {0x1903: 1, 0x1904: 1, 0x1905: 1, 0x1906: 1, 0x1909: 1, 0x1902: 1, 0x1901: 1,  # R G B A L D S
              0x8227: 2, 0x190A: 2, 0x1907: 3, 0x80E0: 3, 0x1908: 4, 0x80E1: 4,
              0x8D94: 1, 0x8228: 2, 0x8D98: 3, 0x8D99: 4}  # the _INTEGER formats
MAX_PNGS = 6          # read-backs per test written as images (the others only counted)
MAX_PNG_PIXELS = 1 << 22


def png(path, w, h, rows):
    """An 8-bit RGB PNG from rows of bytes (top row first)."""
    raw = b"".join(b"\0" + r for r in rows)
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def read_index(d):
    path = os.path.join(d, "index.tsv")
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for row in csv.reader(f, delimiter="\t"):
            n, x, y, w, h, fmt, typ, nbytes, rowb, fbo, name = row
            out.append({"n": int(n), "w": int(w), "h": int(h), "format": int(fmt, 16),
                        "type": int(typ, 16), "bytes": int(nbytes), "row": int(rowb),
                        "file": None if name == "-" else os.path.join(d, name)})
    return out


def decode(rec):
    """(components, values as floats in channel-range units per row) or None."""
    comps = COMPONENTS.get(rec["format"])
    if not comps or not rec["file"]:
        return None
    typ = rec["type"]
    if typ == GL_UNSIGNED_BYTE:
        size, code, scale = 1, "B", 1.0 / 255
    elif typ == GL_FLOAT:
        size, code, scale = 4, "f", 1.0
    elif typ in (GL_UNSIGNED_INT, GL_INT):
        size, code, scale = 4, "I" if typ == GL_UNSIGNED_INT else "i", None
    else:
        return None
    with open(rec["file"], "rb") as f:
        data = f.read()
    w, h, stride = rec["w"], rec["h"], rec["row"]
    rows = []
    for y in range(h):
        vals = struct.unpack_from("<%d%s" % (w * comps, code), data, y * stride)
        rows.append([v * scale for v in vals] if scale else [float(v) for v in vals])
    if scale is None:  # integers: the largest magnitude read is full scale
        top = max((abs(v) for r in rows for v in r), default=0.0) or 1.0
        rows = [[v / top for v in r] for r in rows]
    return comps, rows


def to_rgb(comps, row):
    out = bytearray()
    for i in range(0, len(row), comps):
        px = row[i:i + comps]
        rgb = (px * 3)[:3] if comps < 3 else px[:3]
        out += bytes(max(0, min(255, int(round(v * 255)))) for v in rgb)
    return bytes(out)


def compare(a, b, outdir, label, write_png):
    """Counts for one pair of read-backs (decoded), writing images."""
    comps, ra = a
    _, rb = b
    h, w = len(ra), len(ra[0]) // comps
    differ = differ1 = 0
    worst = 0.0
    diffs = []
    for y in range(h):
        drow = []
        for x in range(w):
            d = max(abs(ra[y][x * comps + c] - rb[y][x * comps + c]) for c in range(comps))
            drow.append(d)
            if d > 0:
                differ += 1
                if d > 1.0 / 255 + 1e-6:
                    differ1 += 1
            worst = max(worst, d)
        diffs.append(drow)
    if write_png and w * h <= MAX_PNG_PIXELS:
        for side, rows in label.items():
            png(os.path.join(outdir, "%s.png" % side), w, h,
                [to_rgb(comps, r) for r in reversed(rows)])
        scale = 1.0 / worst if worst > 0 else 0.0
        png(os.path.join(outdir, "diff.png"), w, h,
            [bytes(v for d in reversed_row for v in ((max(64, int(255 * d * scale)),) * 3 if d > 0 else (0, 0, 0)))
             for reversed_row in reversed(diffs)])
    return w * h, differ, differ1, worst


def run_side(side, name, entry, args, outdir):
    d = os.path.join(outdir, side)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    argv = piglit_run.side_command(side, entry["command"], args)
    env = piglit_run.side_env(side, entry.get("env", {}), args.piglit_dir)
    env["LD_PRELOAD"] = args.readdump
    env["CEDAR_READDUMP_DIR"] = os.path.abspath(d)
    rc, secs, _ = piglit_run.run_process(argv, env, args.workdir, args.timeout,
                                      os.path.join(d, "stdout.txt"), os.path.join(d, "stderr.txt"))
    if rc is None:
        status = "timeout"
    else:
        if side != "llvmpipe" and 128 < rc <= 192:
            rc = -(rc - 128)
        with open(os.path.join(d, "stdout.txt"), errors="replace") as f:
            status, _ = piglit_result.interpret(rc, f.read())
    return status, secs, read_index(d)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tests", nargs="*", metavar="TEST")
    ap.add_argument("--build", default=os.environ.get("BUILD", "build"))
    ap.add_argument("--out", help="default BUILD/readback")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--sides", default="cedar,llvmpipe",
                    help="the first is compared with each other one (default cedar,llvmpipe)")
    ap.add_argument("--piglit-dir", default=piglit_map.DEFAULT_PIGLIT_DIR)
    ap.add_argument("--cedar-run", help="the cedar-run program (default BUILD/cedar-run)")
    args = ap.parse_args(argv)
    args.cedar_run = os.path.abspath(args.cedar_run or os.path.join(args.build, "cedar-run"))
    args.cedar_run_arg = []
    args.readdump = os.path.abspath(os.path.join(args.build, "libcedar-readdump.so"))
    args.workdir = os.path.abspath(os.path.join(args.build, "piglit", "work"))
    os.makedirs(args.workdir, exist_ok=True)
    out = args.out or os.path.join(args.build, "readback")
    sides = [s.strip() for s in args.sides.split(",") if s.strip()]
    if len(sides) < 2 or any(s not in piglit_run.SIDES for s in sides):
        print("readback_compare: --sides needs two or more of %s" % ",".join(piglit_run.SIDES), file=sys.stderr)
        return 2
    for p in (args.readdump, args.cedar_run):
        if not os.access(p, os.R_OK):
            print("readback_compare: %s missing: run make" % p, file=sys.stderr)
            return 1
    tests = piglit_map.load(os.path.join(args.build, "piglit", "map-all.json"), args.piglit_dir, "all",
                            lambda m: print(m, file=sys.stderr))
    names = [t.lower() for t in (args.tests or DEFAULT_TESTS)]
    unknown = [n for n in names if n not in tests]
    if unknown:
        print("readback_compare: unknown test(s): %s" % ", ".join(unknown), file=sys.stderr)
        return 2
    ref = sides[0]
    rows = []
    for name in names:
        tdir = os.path.join(out, piglit_run.safe_name(name))
        got = {s: run_side(s, name, tests[name], args, tdir) for s in sides}
        for other in sides[1:]:
            a_idx, b_idx = got[ref][2], got[other][2]
            pairs = min(len(a_idx), len(b_idx))
            comparable = identical = pixels = differ = differ1 = 0
            worst = 0.0
            for k in range(pairs):
                a, b = a_idx[k], b_idx[k]
                if (a["w"], a["h"], a["format"], a["type"]) != (b["w"], b["h"], b["format"], b["type"]):
                    continue
                da, db = decode(a), decode(b)
                if da is None or db is None:
                    continue
                comparable += 1
                pdir = os.path.join(tdir, "%s-vs-%s" % (ref, other), "read%04d" % k)
                os.makedirs(pdir, exist_ok=True)
                n, dif, dif1, wst = compare(da, db, pdir, {ref: da[1], other: db[1]}, k < MAX_PNGS)
                pixels += n
                differ += dif
                differ1 += dif1
                worst = max(worst, wst)
                identical += dif == 0
            row = {"test": name, "vs": other,
                   ref: got[ref][0], "other": got[other][0],
                   "reads": "%d/%d" % (len(a_idx), len(b_idx)), "compared": comparable,
                   "identical": identical, "pixels": pixels, "differ": differ, "differ>1/255": differ1,
                   "max_diff": "%.4f" % worst,
                   "%s_s" % ref: "%.1f" % got[ref][1], "other_s": "%.1f" % got[other][1]}
            rows.append(row)
            print("%s vs %s: %s: %s %s / %s %s, reads %s, compared %d, identical %d, pixels %d, "
                  "differ %d (>1/255: %d), max %.4f, %.1fs / %.1fs" % (
                      ref, other, name, ref, got[ref][0], other, got[other][0], row["reads"],
                      comparable, identical, pixels, differ, differ1, worst, got[ref][1], got[other][1]),
                  flush=True)
    os.makedirs(out, exist_ok=True)
    keys = list(rows[0].keys()) if rows else []
    with open(os.path.join(out, "summary.tsv"), "w") as f:
        f.write("\t".join(keys) + "\n")
        for r in rows:
            f.write("\t".join(str(r[k]) for k in keys) + "\n")
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys) + "\n")
        for r in rows:
            f.write("| " + " | ".join(str(r[k]) for k in keys) + " |\n")
    print("readback: %d comparisons; %s/summary.md, images in %s/TEST/" % (len(rows), out, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
