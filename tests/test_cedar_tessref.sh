#!/bin/bash
# CLI checks for cedar-tessref (llvmpipe's tessellation through transform
# feedback) on the machine's own Mesa (llvmpipe): usage, and that it still
# writes what tests/data/tess_llvmpipe.txt holds (the reference the
# tessellator's unit test compares with; a different Mesa fails here first).
# Run from the repo root.
set -u
TESSREF="${CEDAR_TOOLS:-build/san/bin}/cedar-tessref"
. tests/lib.sh

# As for cedar-gldemo: LeakSanitizer finds bytes the unloaded llvmpipe
# still holds at exit, in frames it can no longer name.  Leak checking is off
# for this GL program only.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

check "--help exits 0 and prints the usage" status_is 0 "$TESSREF" --help
check "--help names --out" out_has "--out"
usage_error "--bogus" "$TESSREF" --bogus
usage_error "--out without a file" "$TESSREF" --out

check "writes a file: exit 0" status_is 0 "$TESSREF" --out "$tmp/ref.txt"
check "names llvmpipe and OpenGL ES 3.2 in its comment" \
    grep -q '^# GL_RENDERER llvmpipe.*GL_VERSION OpenGL ES 3.2 Mesa' "$tmp/ref.txt"
check "the primitives of tests/data/tess_llvmpipe.txt, line for line" \
    cmp <(grep -v '^#' "$tmp/ref.txt") <(grep -v '^#' tests/data/tess_llvmpipe.txt)
check "into a missing directory: exit 1" status_is 1 "$TESSREF" --out "$tmp/no/such/dir/ref.txt"
