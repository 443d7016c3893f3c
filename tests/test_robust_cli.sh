#!/bin/bash
# Hostile input to every tool: wrong files, truncated / corrupt data, odd and
# overflowing numbers, unwritable outputs.  Each case must end with the
# documented exit status, an error of exactly one line on stderr naming what
# was wrong, and no sanitizer report (the tools are the ASan/UBSan builds;
# a sanitizer report exits 99 here).  Run from the repo root.
set -u
T="${CEDAR_TOOLS:-build/san/bin}"
MESA=tests/data/mesa-r600-msaa8x
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
. tests/lib.sh

# case: description, wanted status, wanted stderr pattern (ERE; '' = no stderr check), command...
case_() {
    local what=$1 want=$2 pat=$3; shift 3
    timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? lines
    lines=$(wc -l <"$tmp/err")
    if grep -q -e Sanitizer -e 'runtime error' "$tmp/err"; then
        echo "FAIL: $what (sanitizer report)"; head -5 "$tmp/err" | sed 's/^/    /'
    elif [ "$rc" -ne "$want" ]; then
        echo "FAIL: $what (status $rc, wanted $want)"; head -3 "$tmp/err" | sed 's/^/    /'
    elif [ -n "$pat" ] && { [ "$lines" -ne 1 ] || ! grep -Eq -- "$pat" "$tmp/err"; }; then
        echo "FAIL: $what (stderr is not one line matching '$pat')"; head -3 "$tmp/err" | sed 's/^/    /'
    else
        echo "PASS: $what"
    fi
}

# --- input files ------------------------------------------------------------
head -c 65536 /dev/urandom >"$tmp/r64k.bin"
head -c 1001 /dev/urandom >"$tmp/odd.bin"
: >"$tmp/empty.bin"
gzip -c "$tmp/r64k.bin" >"$tmp/good.gz"
head -c 500 "$tmp/good.gz" >"$tmp/cut.gz"                      # cut in the deflate data
head -c $(( $(stat -c %s "$tmp/good.gz") - 4 )) "$tmp/good.gz" >"$tmp/notrailer.gz"  # all data, no size trailer
python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[len(d)//2]^=0xFF; open(sys.argv[2],'wb').write(d)" \
    "$tmp/good.gz" "$tmp/flipped.gz"
printf '\x00\x10\x00\xC0\x00\x00\x00\x00' >"$tmp/nop.bin"                  # NOP count 0 (one dword)
printf '\x00\x10\x00\xC0\x00\x00\x00\x00\x00\x10\x00\xC0\x00\x00\x00\x00' >"$tmp/nop2.bin"
printf '\xFF\xFF\xFF\xCF' >"$tmp/hugecount.bin"               # type-3 header, count 4095 (bits 29:16), nothing after
touch "$tmp/afile"

# --- cedar-pm4 ----------------------------------------------------------------
case_ "pm4: a padding NOP is a known packet (exit 0)" 0 '' "$T/cedar-pm4" "$tmp/nop2.bin"
"$T/cedar-pm4" "$tmp/nop2.bin" >"$tmp/pm4.txt" 2>&1
case_ "pm4: ... printed as padding" 0 '' grep -q "padding" "$tmp/pm4.txt"
case_ "pm4: ... and no 'unknown' in its output" 1 '' grep -q "unknown" "$tmp/pm4.txt"
case_ "pm4: --json marks the padding NOP" 0 '' \
    bash -c "'$T/cedar-pm4' --json '$tmp/nop.bin' | grep -q '\"tied\":false,\"padding\":true'"
case_ "pm4: a huge count past the end is malformed" 2 'cedar-pm4: .*count 4095 needs 4096 payload dwords, 0 left' "$T/cedar-pm4" "$tmp/hugecount.bin"
case_ "pm4: a file of 1001 bytes" 2 'not a whole number of dwords' "$T/cedar-pm4" "$tmp/odd.bin"
case_ "pm4: random words, --ring dma" 1 'unknown' "$T/cedar-pm4" --ring dma "$tmp/r64k.bin"
case_ "pm4: a directory" 2 '^cedar-pm4: ' "$T/cedar-pm4" "$tmp"
case_ "pm4: a missing file" 2 '^cedar-pm4: .*No such file' "$T/cedar-pm4" "$tmp/none.bin"
case_ "pm4: --ring foo" 2 '^cedar-pm4: ' "$T/cedar-pm4" --ring foo "$tmp/nop.bin"

# --- cedar-sim ------------------------------------------------------------------
case_ "sim: --bo 0" 2 '^cedar-sim: --bo: "0" is not a buffer size' "$T/cedar-sim" check "$tmp/nop.bin" --bo 0
case_ "sim: --bo 99999999999G" 2 'not a buffer size' "$T/cedar-sim" check "$tmp/nop.bin" --bo 99999999999G
case_ "sim: --bo 4K:foo" 2 'domain is vram or gtt' "$T/cedar-sim" check "$tmp/nop.bin" --bo 4K:foo
case_ "sim: check on an empty file" 2 'not a whole, non-empty number of dwords' "$T/cedar-sim" check "$tmp/empty.bin" --bo 4K
case_ "sim: check on random words is rejected" 1 '' "$T/cedar-sim" check "$tmp/r64k.bin" --bo 4K
case_ "sim: replay of random bytes" 2 'not a BOF capture' "$T/cedar-sim" replay "$tmp/r64k.bin"
case_ "sim: replay of an empty file" 2 'not a BOF capture' "$T/cedar-sim" replay "$tmp/empty.bin"
case_ "sim: replay-ib --load past GPU memory" 2 'outside GPU memory' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --load 0x3FFFFFFF:"$tmp/odd.bin"
case_ "sim: replay-ib --load at 2^64-1 (no wrap)" 2 'outside GPU memory' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --load 0xFFFFFFFFFFFFFFFF:"$tmp/odd.bin"
case_ "sim: replay-ib --load with a 24-digit address" 2 '^cedar-sim: --load: ".*" is not ADDR:FILE' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --load 999999999999999999999999:"$tmp/odd.bin"
case_ "sim: replay-ib --dump of size 0 refused before running" 2 '^cedar-sim: --dump: ".*" is not ADDR:SIZE:FILE' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --dump 0:0:"$tmp/d.bin"
case_ "  ... and nothing ran" 1 '' grep -q '^ran ' "$tmp/out"
case_ "sim: replay-ib --dump wrapping past 2^64" 2 'outside GPU memory' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --dump 0xFFFFFFFFFFFFFFF0:32:"$tmp/d.bin"
case_ "sim: replay-ib --dump into a missing directory" 2 'No such file' \
    "$T/cedar-sim" replay-ib "$tmp/nop.bin" --dump 0:16:"$tmp/no/d.bin"
case_ "sim: replay-ib of random words faults (exit 1)" 1 '' "$T/cedar-sim" replay-ib "$tmp/r64k.bin"
case_ "sim: replay-ib --dma of random words faults (exit 1)" 1 '' "$T/cedar-sim" replay-ib --dma "$tmp/r64k.bin"

# --- cedar-detile -------------------------------------------------------------
case_ "detile: size mismatch" 2 'holds 1001 bytes, but' "$T/cedar-detile" "$tmp/odd.bin" "$tmp/o.png" --width 8 --height 8
case_ "detile: gzip cut in the middle" 2 'truncated gzip data' "$T/cedar-detile" "$tmp/cut.gz" "$tmp/o.png" --width 128 --height 128
case_ "detile: gzip without its trailer" 2 'truncated gzip data' "$T/cedar-detile" "$tmp/notrailer.gz" "$tmp/o.png" --width 128 --height 128
case_ "detile: gzip with a flipped byte" 2 'corrupt gzip data' "$T/cedar-detile" "$tmp/flipped.gz" "$tmp/o.png" --width 128 --height 128
case_ "detile: a good gzip still works" 0 '' "$T/cedar-detile" "$tmp/good.gz" "$tmp/o.png" --width 128 --height 128
case_ "detile: a directory as input" 2 '^cedar-detile: [^:]*: Is a directory$' "$T/cedar-detile" "$tmp" "$tmp/o.png" --width 8 --height 8
case_ "detile: --width 99999999999" 2 "^cedar-detile: --width: \"99999999999\" is not a number from 1 to 16384 \(see" "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 99999999999 --height 8
case_ "detile: --bpe 3" 2 'bytes per element' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --bpe 3
case_ "detile: --samples 3" 2 '3 samples' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --samples 3
case_ "detile: --tile-split 7" 2 'tile split 7' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --tile-split 7
case_ "detile: --bankw 3" 2 'bank width 3' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --bankw 3
case_ "detile: --crop outside" 2 'not inside' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --crop 100,100,100,100
case_ "detile: --crop with 2^32-1" 2 'crop' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --crop 4294967295,0,2,2
case_ "detile: --zoom 99999999" 2 'zoom' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/o.png" --width 128 --height 128 --zoom 99999999
case_ "detile: --show tiles 16384^2 --zoom 4 too large" 2 'too large' "$T/cedar-detile" "$tmp/o.png" --show tiles --width 16384 --height 16384 --zoom 4
case_ "detile: --addr outside" 2 'outside the 128x128' "$T/cedar-detile" --addr 99999,99999 --width 128 --height 128
case_ "detile: PNG into a missing directory" 1 'No such file' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/no/o.png" --width 128 --height 128
case_ "detile: PNG into a file used as a directory" 1 'Not a directory' "$T/cedar-detile" "$tmp/r64k.bin" "$tmp/afile/o.png" --width 128 --height 128

# --- cedar-layout ---------------------------------------------------------------
case_ "layout: --width 99999999999" 2 'not a number' "$T/cedar-layout" --width 99999999999 --height 4
case_ "layout: --width -1" 2 '^cedar-layout: --width' "$T/cedar-layout" --width -1 --height 4
case_ "layout: --width 0x10" 2 'not a number' "$T/cedar-layout" --width 0x10 --height 4
case_ "layout: --width 16385" 2 'out of range' "$T/cedar-layout" --width 16385 --height 1
case_ "layout: --tiling-config 0xZZ" 2 '^cedar-layout: --tiling-config: "0xZZ" is not a hex number' "$T/cedar-layout" --width 8 --height 8 --tiling-config 0xZZ
case_ "layout: --tiling-config 0xFFFFFFFF" 2 'malformed' "$T/cedar-layout" --width 8 --height 8 --tiling-config 0xFFFFFFFF
case_ "layout: --pipes 3" 2 'no Evergreen has pipes 3' "$T/cedar-layout" --width 8 --height 8 --pipes 3
case_ "layout: --samples 8 --mode 1d" 2 'needs the 2d mode' "$T/cedar-layout" --width 8 --height 8 --samples 8 --mode 1d
# 16384 x 16384 x 16 bytes x 8 samples = 32 GiB: sizes must be 64-bit
case_ "layout: 16384^2 x 16 B x 8 samples" 0 '' "$T/cedar-layout" --width 16384 --height 16384 --bpe 16 --samples 8 --json
cp "$tmp/out" "$tmp/big.json"
case_ "  ... colour size 32 GiB, not wrapped" 0 '' \
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['color']['size']==16384*16384*16*8 and d['total_size']>d['color']['size'] else 1)" "$tmp/big.json"

# --- cedar-msaa -----------------------------------------------------------------
case_ "msaa: --width 8193" 2 '^cedar-msaa: --width: "8193" is not a number from 1 to 8192' "$T/cedar-msaa" --dry-run --width 8193 --height 8
case_ "msaa: --width 0" 2 '^cedar-msaa: --width: "0" is not a number from 1 to 8192' "$T/cedar-msaa" --dry-run --width 0 --height 8
case_ "msaa: --samples 3" 2 '^cedar-msaa: --samples: "3" is not 1, 2, 4 or 8' "$T/cedar-msaa" --dry-run --samples 3
case_ "msaa: --clear-color ZZZZZZ" 2 '^cedar-msaa: --clear-color: "ZZZZZZ" is not 6 hex digits' "$T/cedar-msaa" --dry-run --clear-color ZZZZZZ
case_ "msaa: --clear-color 1234567" 2 '^cedar-msaa: --clear-color: "1234567" is not 6 hex digits' "$T/cedar-msaa" --dry-run --clear-color 1234567
case_ "msaa: 1x1 cannot be laid out (bad usage)" 2 'size 1x1: .*1D tiling' "$T/cedar-msaa" --dry-run --width 1 --height 1
case_ "msaa: 7x7 cannot be laid out (bad usage)" 2 'size 7x7' "$T/cedar-msaa" --dry-run --width 7 --height 7
case_ "msaa: 8192x8192 plans" 0 '' "$T/cedar-msaa" --dry-run --width 8192 --height 8192
case_ "msaa: --dump-cs into a file path" 1 'Not a directory' "$T/cedar-msaa" --dry-run --dump-cs "$tmp/afile"
case_ "msaa: --device /dev/null" 1 'not a DRM device' "$T/cedar-msaa" --device /dev/null
case_ "msaa: --device a missing path" 1 'cannot open' "$T/cedar-msaa" --device "$tmp/no-such-node"
case_ "msaa: --out into a file path" 1 'Not a directory' "$T/cedar-msaa" --device virtual --width 64 --height 64 --out "$tmp/afile"

# --- cedar-bench ------------------------------------------------------------------
case_ "bench: an unknown case" 2 "no benchmark case matches 'nosuch'" "$T/cedar-bench" nosuch
case_ "bench: --help" 0 '' "$T/cedar-bench" --help
