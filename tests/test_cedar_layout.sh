#!/bin/bash
# cedar-layout CLI: JSON keys and values (against the figures Mesa's command
# streams and the seed write-up carry), the walkthrough, and bad input (one
# line on stderr, exit status 2).
set -u
TOOL="${CEDAR_TOOLS:-build/san/bin}/cedar-layout"
. tests/lib.sh

# --- JSON: keys, exactly -------------------------------------------------
if "$TOOL" --width 1280 --height 720 --bpe 4 --samples 8 --json >"$tmp/msaa.json" 2>"$tmp/err"; then
    pass "--json for 1280x720 8x runs"
else
    fail "--json for 1280x720 8x: $(cat "$tmp/err")"
fi
py_keys='
import json, sys
d = json.load(open(sys.argv[1]))
surf = ["mode", "width", "height", "bpe", "samples", "pitch_bytes", "slice_bytes", "size",
        "alignment", "tile_split", "bankw", "bankh", "mtilea", "slice_tile_max"]
want = {"color": surf, "resolve": surf, "fmask": surf + ["offset", "bank_height"],
        "cmask": ["offset", "size", "alignment", "slice_tile_max"]}
msaa = sys.argv[2] == "msaa"
top = ["color", "cmask", "total_size"] + (["fmask", "resolve"] if msaa else [])
assert sorted(d) == sorted(top), sorted(d)
for k, keys in want.items():
    if k in d:
        assert sorted(d[k]) == sorted(keys), (k, sorted(d[k]))
        for v in d[k].values():
            assert isinstance(v, (int, str)), (k, v)
assert isinstance(d["total_size"], int)
'
if python3 -c "$py_keys" "$tmp/msaa.json" msaa 2>"$tmp/err"; then pass "--json has exactly the documented keys (MSAA)"
else fail "--json keys (MSAA): $(tail -1 "$tmp/err")"; fi
"$TOOL" --width 300 --height 200 --bpe 2 --json >"$tmp/ss.json" 2>/dev/null
if python3 -c "$py_keys" "$tmp/ss.json" single 2>"$tmp/err"; then pass "--json has exactly the documented keys (single sample: no fmask, no resolve)"
else fail "--json keys (single sample): $(tail -1 "$tmp/err")"; fi

# --- JSON values: Mesa's CB_COLOR0/1 registers and buffer sizes (tests/data/mesa-r600-msaa8x)
py_vals='
import json, sys
d = json.load(open(sys.argv[1]))
c, f, m, r = d["color"], d["fmask"], d["cmask"], d["resolve"]
checks = [
    (c["width"] // 8 - 1, 0x9F),                      # CB_COLOR0_PITCH
    (c["slice_tile_max"], 0x397F),                    # CB_COLOR0_SLICE
    (f["offset"], 0x1CC0000),                         # CB_COLOR0_FMASK << 8
    (f["slice_tile_max"], 0x397F),                    # CB_COLOR0_FMASK_SLICE
    (m["offset"], 0x2058000),                         # CB_COLOR0_CMASK << 8
    (m["slice_tile_max"], 0x3B),                      # CB_COLOR0_CMASK_SLICE
    ((c["tile_split"], c["bankh"], c["mtilea"]), (512, 1, 2)),   # CB_COLOR0_ATTRIB
    (f["bank_height"], 1),                            # ATTRIB.FMASK_BANK_HEIGHT
    (r["slice_tile_max"], 0x3BFF),                    # CB_COLOR1_SLICE
    ((r["tile_split"], r["bankh"], r["mtilea"]), (1024, 2, 2)),  # CB_COLOR1_ATTRIB
    ((d["total_size"] + 4095) // 4096 * 4096, 33923072),         # cs_003 relocs: MSAA BO
    (r["size"], 3932160),                             # cs_004 relocs: resolve BO
    # the seed write-up
    ((c["width"], c["height"], c["pitch_bytes"], c["size"]), (1280, 736, 40960, 30146560)),
    ((f["size"], f["alignment"]), (3768320, 4096)),
    ((r["width"], r["height"]), (1280, 768)),
    ((m["size"], m["alignment"]), (7680, 512)),
    ((c["mode"], f["mode"], r["mode"], c["samples"], f["samples"], f["bpe"]), ("2d", "2d", "2d", 8, 1, 4)),
]
bad = [(i, got, want) for i, (got, want) in enumerate(checks) if got != want]
assert not bad, bad
'
if python3 -c "$py_vals" "$tmp/msaa.json" 2>"$tmp/err"; then pass "--json values equal Mesa's registers/buffer sizes and the seed's figures"
else fail "--json values: $(tail -1 "$tmp/err")"; fi

# --- options change what they should --------------------------------------
"$TOOL" --width 1280 --height 720 --samples 1 --tiling-config 0x1011 --json >"$tmp/row2k.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["color"]["tile_split"] == 2048' "$tmp/row2k.json" 2>/dev/null
then pass "--tiling-config 0x1011 (2 KB rows) gives a 2048-B tile split"; else fail "--tiling-config row size not used"; fi
"$TOOL" --width 777 --height 333 --bpe 8 --samples 4 --tiling-config 0x2022 --json >"$tmp/a.json" 2>/dev/null
"$TOOL" --width 777 --height 333 --bpe 8 --samples 4 --pipes 4 --banks 16 --interleave 256 --row-kb 4 --json >"$tmp/b.json" 2>/dev/null
if [ -s "$tmp/a.json" ] && cmp -s "$tmp/a.json" "$tmp/b.json"; then pass "--pipes/--banks/--interleave/--row-kb equal the same --tiling-config"
else fail "--pipes/--banks/... differ from --tiling-config 0x2022"; fi
"$TOOL" --width 8 --height 8 --bpe 4 --mode 2d --json >"$tmp/small.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["color"]["mode"] == "1d" and d["color"]["width"] == 8' "$tmp/small.json" 2>/dev/null
then pass "a small single-sample 2d request falls back to 1d"; else fail "no 2d -> 1d fallback for 8x8"; fi
"$TOOL" --width 100 --height 100 --bpe 1 --mode linear --scanout --json >"$tmp/lin.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["color"]; assert c["mode"] == "linear_aligned" and c["width"] == 256 and c["alignment"] == 256' "$tmp/lin.json" 2>/dev/null
then pass "--mode linear: width aligned to max(64, 256/bpe)"; else fail "--mode linear layout"; fi

# --- the walkthrough --------------------------------------------------------
if "$TOOL" --width 1280 --height 720 --bpe 4 --samples 8 >"$tmp/text" 2>"$tmp/err" \
   && grep -Eq "CB_COLOR0_ATTRIB +0x00080860" "$tmp/text" \
   && grep -Eq "CB_COLOR1_ATTRIB +0x00490880" "$tmp/text" \
   && grep -q "SAMPLE_SPLIT" "$tmp/text" && grep -q "FMask" "$tmp/text" && grep -q "CMask" "$tmp/text" \
   && grep -q "Resolve target" "$tmp/text"; then
    pass "walkthrough covers colour, FMask, CMask, resolve; ATTRIB words equal Mesa's (0x00080860, 0x00490880)"
else
    fail "walkthrough: $(head -c 300 "$tmp/text") $(cat "$tmp/err")"
fi
if "$TOOL" --help | grep -q "usage: cedar-layout"; then pass "--help prints usage, exit 0"; else fail "--help"; fi

# --- bad input: one line on stderr, exit 2 ---------------------------------
bad() { # description, args...
    local what=$1; shift
    "$TOOL" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local lines; lines=$(wc -l <"$tmp/err")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ]; then
        pass "$what: exit 2, one line ($(cat "$tmp/err"))"
    else
        fail "$what: exit $rc, $lines stderr lines: $(cat "$tmp/err")"
    fi
}
bad "width 0" --width 0 --height 720
bad "width 16385" --width 16385 --height 720
bad "height 99999999999" --width 64 --height 99999999999
bad "bpe 3" --width 64 --height 64 --bpe 3
bad "bpe 32" --width 64 --height 64 --bpe 32
bad "samples 3" --width 64 --height 64 --samples 3
bad "samples 16" --width 64 --height 64 --samples 16
bad "MSAA with --mode 1d" --width 64 --height 64 --samples 8 --mode 1d
bad "MSAA with --mode linear" --width 64 --height 64 --samples 2 --mode linear
bad "unknown --mode" --width 64 --height 64 --mode 3d
bad "tiling config with pipes field 4" --width 64 --height 64 --tiling-config 0x0014
bad "tiling config with banks field 3" --width 64 --height 64 --tiling-config 0x0031
bad "tiling config with row field 3" --width 64 --height 64 --tiling-config 0x3011
bad "tiling config with bits above 15" --width 64 --height 64 --tiling-config 0x10011
bad "tiling config not hex" --width 64 --height 64 --tiling-config 0xZZ
bad "--pipes 3" --width 64 --height 64 --pipes 3
bad "--row-kb 8" --width 64 --height 64 --row-kb 8
bad "negative width" --width -5 --height 64
bad "width not a number" --width 12abc --height 64
bad "missing --height" --width 64
bad "option without value" --width
bad "unknown option" --width 64 --height 64 --frobnicate
bad "FMask refused by libdrm's rules (512-B interleave, 2 samples)" --width 64 --height 64 --bpe 1 --samples 2 --interleave 512
