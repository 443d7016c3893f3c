#!/bin/bash
# --poison-state (vcedar_opts.poison_state, src/vcedar/vc_poison.c): each
# command stream starts with every context and config register it does not
# write holding junk, and each read the model makes of one is reported once.
#  - hand-made bare-metal IBs (cedar-sim replay-ib) that copy a register to
#    memory with COPY_DW (a read by the CP): unwritten, the copy holds the
#    junk 0xBAD00000|offset and one report names the register as the database
#    (regs/*.regs, read here with grep) names it; written first, or loaded by
#    CLEAR_STATE (context registers only), nothing is reported; CONTEXT_CONTROL
#    loads nothing; without the option the register reads 0 and nothing is said;
#  - the demo (cedar-msaa --device virtual) writes everything it reads: with
#    and without --poison-state its output files are byte-identical and no
#    report is made (8 samples with the fast clear, 1 sample, 4 samples with the
#    clear drawn);
#  - usage: --poison-state needs the virtual Cedar; cedar-run and cedar-sim list it.
# Run from the repository root.
set -u
. tests/lib.sh
BIN=${CEDAR_TOOLS:-build/san/bin}

reg_offset() { sed -n "s/^reg $1 \(0x[0-9A-Fa-f]*\).*/\1/p" regs/*.regs | head -1; }
AA=$(reg_offset PA_SC_AA_CONFIG)          # a context register
PRIM=$(reg_offset VGT_PRIMITIVE_TYPE)     # a config register

# ib FILE PACKETS...: dwords from python expressions (header helpers below)
ib() {
    local f=$1; shift
    python3 - "$f" "$@" <<'PY'
import struct, sys
def pkt3(op, payload): return [(3 << 30) | ((len(payload) - 1) << 16) | (op << 8)] + payload
def set_ctx(off, v): return pkt3(0x69, [(off - 0x28000) // 4, v])
def copy_dw(reg, dst): return pkt3(0x3B, [0x2, reg // 4, 0, dst, 0])   # register -> memory
def clear_state(): return pkt3(0x12, [0])
def context_control(): return pkt3(0x28, [0x80000000, 0x80000000])
dw = []
for e in sys.argv[2:]:
    dw += eval(e)
open(sys.argv[1], "wb").write(struct.pack("<%dI" % len(dw), *dw))
PY
}
word() { od -An -tx4 -N4 "$1" | tr -d ' '; }
reports() { grep -c '^poison-state: ' "$tmp/err"; }

ib "$tmp/unwritten.bin" "copy_dw($AA, 0x1000)" "copy_dw($AA, 0x1004)"
check "unwritten register: replay-ib runs" status_is 0 "$BIN/cedar-sim" replay-ib "$tmp/unwritten.bin" \
    --dump 0x1000:8:"$tmp/m.bin" --poison-state
check_eq "unwritten register: the copy holds the junk" "$(word "$tmp/m.bin")" "$(printf 'bad%05x' $((AA)))"
check_eq "unwritten register: one report for two reads" "$(reports)" 1
check "unwritten register: the report names PA_SC_AA_CONFIG, its offset and the CP's copy_dw" \
    grep -q "^poison-state: CS 1: PA_SC_AA_CONFIG (0x$(printf '%05X' $((AA)))) read by the CP (copy_dw, " "$tmp/err"
check "without --poison-state: runs" status_is 0 "$BIN/cedar-sim" replay-ib "$tmp/unwritten.bin" \
    --dump 0x1000:8:"$tmp/m.bin"
check_eq "without --poison-state: the register reads 0" "$(word "$tmp/m.bin")" 00000000
check_eq "without --poison-state: no report" "$(reports)" 0

ib "$tmp/written.bin" "set_ctx($AA, 0x12345678)" "copy_dw($AA, 0x1000)"
check "written register: runs" status_is 0 "$BIN/cedar-sim" replay-ib "$tmp/written.bin" \
    --dump 0x1000:4:"$tmp/m.bin" --poison-state
check_eq "written register: the copy holds the value written" "$(word "$tmp/m.bin")" 12345678
check_eq "written register: no report" "$(reports)" 0

ib "$tmp/clear.bin" "clear_state()" "copy_dw($AA, 0x1000)" "copy_dw($PRIM, 0x1004)"
check "CLEAR_STATE: runs" status_is 0 "$BIN/cedar-sim" replay-ib "$tmp/clear.bin" \
    --dump 0x1000:4:"$tmp/m.bin" --poison-state
check_eq "CLEAR_STATE: a context register is loaded (no junk)" "$(word "$tmp/m.bin")" 00000000
check_eq "CLEAR_STATE: one report" "$(reports)" 1
check "CLEAR_STATE: the config register VGT_PRIMITIVE_TYPE is still reported" \
    grep -q '^poison-state: CS 1: VGT_PRIMITIVE_TYPE ' "$tmp/err"

ib "$tmp/cc.bin" "context_control()" "copy_dw($AA, 0x1000)"
check "CONTEXT_CONTROL: runs" status_is 0 "$BIN/cedar-sim" replay-ib "$tmp/cc.bin" \
    --dump 0x1000:4:"$tmp/m.bin" --poison-state
check_eq "CONTEXT_CONTROL 0x80000000 x2 loads nothing: one report" "$(reports)" 1

# ---- the demo ----
for args in "--samples 8" "--samples 1" "--samples 4 --no-fast-clear"; do
    # shellcheck disable=SC2086
    "$BIN/cedar-msaa" --device virtual $args --width 160 --height 96 --out "$tmp/plain" >/dev/null 2>"$tmp/plain.err"
    # shellcheck disable=SC2086
    check "demo $args --poison-state: exit 0" status_is 0 "$BIN/cedar-msaa" --device virtual --poison-state $args \
        --width 160 --height 96 --out "$tmp/poison"
    check_eq "demo $args --poison-state: no report" "$(reports)" 0
    same=1
    for f in "$tmp"/plain/*; do
        cmp -s "$f" "$tmp/poison/$(basename "$f")" || { same=0; echo "  differs: $(basename "$f")" >&2; }
    done
    check_eq "demo $args: every output file byte-identical with and without --poison-state ($(ls "$tmp/plain" | wc -l) files)" \
        "$same" 1
    rm -rf "$tmp/plain" "$tmp/poison"
done

# ---- usage ----
usage_error "cedar-msaa --poison-state on a kernel node" "$BIN/cedar-msaa" --device /dev/dri/renderD128 --poison-state
check "cedar-run --help lists --poison-state" bash -c "'$BIN/cedar-run' --help | grep -q -- --poison-state"
check "cedar-sim --help lists --poison-state" bash -c "'$BIN/cedar-sim' --help | grep -q -- --poison-state"
