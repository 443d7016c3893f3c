# cedar: build, test, run, bench.  Everything is built into build/.
#
#   make            build the library, the tools and the demo
#   make check      build everything with ASan/UBSan and run every test
#   make run        run the MSAA demo (the card if present, else the virtual Cedar)
#   make run-gl     the same scene through OpenGL ES: Mesa's r600 driver on the
#                   virtual Cedar (cedar-run, 8x) and llvmpipe (4x), one line each
#   make bench      de-tiling and frame benchmarks
#   make piglit LIST=FILE   piglit tests on the virtual Cedar, the null device
#                   and llvmpipe (not part of check; installs piglit)
#   make install-deps   install the Debian 12 packages cedar needs
#
# `all`, `check`, `run` and `bench` first make sure the packages are there
# (tools/install-deps), then re-enter make so pkg-config sees them.

BUILD   ?= build
CC      ?= cc
PYTHON  ?= python3
PKGS    := libdrm libdrm_radeon pciaccess libpng zlib
TESTPKGS := cmocka
BENCHPKGS := egl glesv2

WARN     := -Wall -Wextra -Werror
CSTD     := -std=c11 -D_GNU_SOURCE
INCS     := -Iinclude -I. -I$(BUILD)/gen
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lm
TEST_CFLAGS = $(shell pkg-config --cflags $(TESTPKGS))
TEST_LIBS   = $(shell pkg-config --libs $(TESTPKGS))

CFLAGS   ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) $(INCS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
# float-cast-overflow: a float converted to an integer type that cannot hold
# it (gcc's -fsanitize=undefined leaves it out; clang's, used by make fuzz, has it)
SAN      := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer
SAN_CFLAGS = $(CSTD) $(WARN) $(INCS) $(PKG_CFLAGS) $(TEST_CFLAGS) -O1 -g $(SAN) -MMD -MP

# The register database and its generator (nothing generated is committed).
REGS_DB  := $(sort $(wildcard regs/*.regs))
GEN_H    := $(BUILD)/gen/eg_regs.h
GEN_C    := $(BUILD)/gen/eg_regs_db.c

# Library: every .c under src/ (one folder per layer) and cmdbuf/, except
# src/shim/: it defines libc's names and lives only in the preload library.
SHIM_SRCS := $(sort $(wildcard src/shim/*.c))
# Defined before build-all / build-tests name it (a rule's prerequisites are
# expanded when make reads the rule).
SHIM     := $(BUILD)/libcedar-shim.so
READDUMP := $(BUILD)/libcedar-readdump.so
LIB_SRCS := $(filter-out $(SHIM_SRCS),$(sort $(wildcard src/*.c src/*/*.c cmdbuf/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/eg_regs_db.o
SAN_OBJS := $(LIB_SRCS:%.c=$(BUILD)/san/%.o) $(BUILD)/san/gen/eg_regs_db.o
LIB      := $(BUILD)/libcedar.a
SAN_LIB  := $(BUILD)/san/libcedar.a

# Programs: tools/cedar-NAME.c and tools/bench/cedar-NAME.c -> build/cedar-NAME
# (and a sanitized copy for tests).
TOOL_SRCS := $(sort $(wildcard tools/cedar-*.c))
TOOL_SRCS += $(sort $(wildcard tools/bench/cedar-*.c))
TOOLS     := $(notdir $(TOOL_SRCS:%.c=%))
SAN_TOOLS := $(TOOLS:%=$(BUILD)/san/bin/%)
TOOLS     := $(TOOLS:%=$(BUILD)/%)

# Tests: tests/test_NAME.c -> build/tests/test_NAME (cmocka, ASan+UBSan);
# tests/common/*.c is linked into every test; tests/test_*.sh are CLI tests.
TEST_SRCS   := $(sort $(wildcard tests/test_*.c))
TEST_COMMON := $(sort $(wildcard tests/common/*.c))
TESTS       := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
TEST_COMMON_OBJS := $(TEST_COMMON:%.c=$(BUILD)/san/%.o)

# Fuzz targets: tests/fuzz/fuzz_NAME.c.  `make check` builds each with gcc
# and tests/fuzz/replay_main.c as build/fuzz-replay/fuzz_NAME, which
# tests/test_fuzz_replay.sh runs over tests/fuzz/corpus/ and regressions/;
# `make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="pm4 cs"]` builds them with
# clang's libFuzzer as build/fuzz/fuzz_NAME and runs each (tests/fuzz/run).
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_REPLAYS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)
FUZZ_BINS    := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS   = $(CSTD) $(WARN) $(INCS) $(PKG_CFLAGS) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP
FUZZ_OBJS    := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o) $(BUILD)/fuzz/obj/gen/eg_regs_db.o
FUZZ_SECONDS ?= 60

.PHONY: all check run run-gl bench piglit clean install-deps deps build-all build-tests test-run \
        run-inner run-gl-inner bench-inner fuzz fuzz-build
.DEFAULT_GOAL := all

# Build in parallel on every core unless the caller chose -j.  Only the top
# make decides: the sub-makes below inherit its jobserver (GNU make 4.3 does
# not show them -j while parsing, so testing MAKEFLAGS alone would override
# the caller's -j there and warn "resetting jobserver mode").
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

all: deps
	@$(MAKE) --no-print-directory build-all

check: deps
	@$(MAKE) --no-print-directory build-all build-tests
	@$(MAKE) --no-print-directory test-run

run: deps
	@$(MAKE) --no-print-directory build-all
	@$(MAKE) --no-print-directory run-inner

run-gl: deps
	@$(MAKE) --no-print-directory build-all
	@$(MAKE) --no-print-directory run-gl-inner

bench: deps
	@./tools/install-deps --bench
	@$(MAKE) --no-print-directory build-all
	@$(MAKE) --no-print-directory bench-inner

# PIGLIT_TIMEOUT: per-test limit in seconds on each side; PIGLIT_FLAGS: more
# options for tools/piglit/piglit_run.py (e.g. --sides llvmpipe).
PIGLIT_TIMEOUT ?= 60
piglit: deps
	@if [ -z "$(LIST)" ]; then echo "make piglit: give LIST=FILE (e.g. LIST=tests/piglit/smoke.list)" >&2; exit 2; fi
	@./tools/install-deps --piglit
	@$(MAKE) --no-print-directory build-all
	@$(PYTHON) tools/piglit/piglit_run.py --build $(BUILD) --timeout $(PIGLIT_TIMEOUT) $(PIGLIT_FLAGS) $(LIST)

install-deps:
	./tools/install-deps

# Install packages only when something is missing.
deps:
	@if ! command -v $(PYTHON) >/dev/null 2>&1 || ! command -v pkg-config >/dev/null 2>&1 \
	   || ! pkg-config --exists $(PKGS) $(TESTPKGS) $(BENCHPKGS); then ./tools/install-deps; fi

build-all: $(LIB) $(TOOLS) $(SHIM) $(READDUMP)

build-tests: $(SAN_LIB) $(SAN_TOOLS) $(TESTS) $(SHIM) $(FUZZ_REPLAYS)

test-run:
	@BUILD=$(BUILD) ./tests/run-tests

run-inner:
	$(BUILD)/cedar-msaa --out out

# Both sides run even when one fails; the status says whether both worked.
run-gl-inner:
	@mkdir -p out
	@st=0; \
	$(BUILD)/cedar-run -- $(BUILD)/cedar-gldemo --samples 8 --out out/gl-frame.png || st=1; \
	$(BUILD)/cedar-gldemo --samples 4 --out out/gl-frame-llvmpipe.png || st=1; \
	exit $$st

bench-inner:
	$(BUILD)/cedar-bench

clean:
	rm -rf $(BUILD)

# --- generation -----------------------------------------------------------
$(GEN_H) $(GEN_C) &: regs/gen_regs.py $(REGS_DB)
	@mkdir -p $(BUILD)/gen
	$(PYTHON) regs/gen_regs.py --header $(GEN_H) --tables $(GEN_C) $(REGS_DB)

# --- objects --------------------------------------------------------------
$(BUILD)/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The ALU's lane kernels (src/shader/alu_lanes.c) are loops over a wave's
# lanes: vectorised (-O3; GCC's -O2 vectorises only loops of a known count)
# and free to compute both sides of a select (-fno-trapping-math: no FP
# trap is ever enabled, and the values are IEEE's either way, lane by lane
# as eg_alu_eval computes them).
VEC_CFLAGS = -O3 -fno-trapping-math
$(BUILD)/obj/src/shader/alu_lanes.o $(BUILD)/pic/src/shader/alu_lanes.o: ALL_CFLAGS += $(VEC_CFLAGS)
# The tests' copy is that code too, not instrumented (the sanitizers' checks
# keep a loop from being vectorised): test_shader_lanes checks the shipped
# kernels against eg_alu_eval's one-lane code, writes past the lanes asked
# for included; the fuzz builds still instrument them.
$(BUILD)/san/src/shader/alu_lanes.o: SAN_CFLAGS = $(CSTD) $(WARN) $(INCS) $(PKG_CFLAGS) -g $(VEC_CFLAGS) -MMD -MP

$(BUILD)/obj/gen/eg_regs_db.o: $(GEN_C) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/san/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -c $< -o $@

$(BUILD)/san/gen/eg_regs_db.o: $(GEN_C) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SAN_LIB): $(SAN_OBJS)
	@rm -f $@
	ar rcs $@ $^

# --- the cedar-run preload library --------------------------------------
# Position-independent copies of the library's objects, linked with the
# shim's own (fake_sysfs.c is cedar-run's, not the shim's).  Only the libc
# names the shim stands in for are exported (src/shim/exports.map).
SHIM_OBJS  := $(filter-out $(BUILD)/pic/src/shim/fake_sysfs.o,$(SHIM_SRCS:%.c=$(BUILD)/pic/%.o))
PIC_OBJS   := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o) $(BUILD)/pic/gen/eg_regs_db.o
PIC_LIB    := $(BUILD)/pic/libcedar.a

$(BUILD)/pic/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(BUILD)/pic/gen/eg_regs_db.o: $(GEN_C) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(PIC_LIB): $(PIC_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(SHIM): $(SHIM_OBJS) $(PIC_LIB) src/shim/exports.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=src/shim/exports.map -Wl,-z,defs -o $@ \
	    $(SHIM_OBJS) $(PIC_LIB) $(PKG_LIBS) -ldl -lpthread

# tools/piglit/readdump.c: glReadPixels read-backs saved, preloaded into
# piglit tests by tools/piglit/readback_compare.py (no cedar code in it).
$(READDUMP): tools/piglit/readdump.c
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# --- programs -------------------------------------------------------------
# cedar-run also links the fake device tree it builds.
$(BUILD)/cedar-run: $(BUILD)/obj/tools/cedar-run.o $(BUILD)/obj/src/shim/fake_sysfs.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/san/bin/cedar-run: $(BUILD)/san/tools/cedar-run.o $(BUILD)/san/src/shim/fake_sysfs.o $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

$(BUILD)/cedar-%: $(BUILD)/obj/tools/cedar-%.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/san/bin/cedar-%: $(BUILD)/san/tools/cedar-%.o $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

# cedar-bench also links tools/bench/ (the frame benchmark), and it and
# cedar-gldemo link tools/gl/ (the demo's scene through EGL/GLES: llvmpipe,
# or Mesa's r600 driver under cedar-run) and EGL/GLES.
# tools/bench/cedar-*.c are programs of their own (cedar-gl-once: the
# llvmpipe side of `cedar-bench startup`), not parts of cedar-bench.
BENCH_PROG_SRCS := $(sort $(wildcard tools/bench/cedar-*.c))
BENCH_SRCS := $(filter-out $(BENCH_PROG_SRCS),$(sort $(wildcard tools/bench/*.c)))
GL_SRCS    := $(sort $(wildcard tools/gl/*.c))
BENCH_LIBS  = $(shell pkg-config --libs $(BENCHPKGS))
$(BUILD)/cedar-bench: $(BUILD)/obj/tools/cedar-bench.o $(BENCH_SRCS:%.c=$(BUILD)/obj/%.o) $(GL_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/san/bin/cedar-bench: $(BUILD)/san/tools/cedar-bench.o $(BENCH_SRCS:%.c=$(BUILD)/san/%.o) $(GL_SRCS:%.c=$(BUILD)/san/%.o) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/cedar-gldemo: $(BUILD)/obj/tools/cedar-gldemo.o $(GL_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/san/bin/cedar-gldemo: $(BUILD)/san/tools/cedar-gldemo.o $(GL_SRCS:%.c=$(BUILD)/san/%.o) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

# cedar-probe links its sub-commands (tools/probe/).
PROBE_SRCS := $(sort $(wildcard tools/probe/*.c))
$(BUILD)/cedar-probe: $(BUILD)/obj/tools/cedar-probe.o $(PROBE_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/san/bin/cedar-probe: $(BUILD)/san/tools/cedar-probe.o $(PROBE_SRCS:%.c=$(BUILD)/san/%.o) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

# cedar-tessref (llvmpipe's tessellation through transform feedback, the
# reference tests/data/tess_llvmpipe.txt came from) links tools/gl/ and EGL/GLES.
$(BUILD)/cedar-tessref: $(BUILD)/obj/tools/cedar-tessref.o $(GL_SRCS:%.c=$(BUILD)/obj/%.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/san/bin/cedar-tessref: $(BUILD)/san/tools/cedar-tessref.o $(GL_SRCS:%.c=$(BUILD)/san/%.o) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

GL_ONCE_OBJS = tools/bench/frame_check.c $(GL_SRCS)
$(BUILD)/cedar-gl-once: $(BUILD)/obj/tools/bench/cedar-gl-once.o $(GL_ONCE_OBJS:%.c=$(BUILD)/obj/%.o) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/san/bin/cedar-gl-once: $(BUILD)/san/tools/bench/cedar-gl-once.o $(GL_ONCE_OBJS:%.c=$(BUILD)/san/%.o) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(BENCH_LIBS)

$(BUILD)/tests/test_%: $(BUILD)/san/tests/test_%.o $(TEST_COMMON_OBJS) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) $(TEST_LIBS)

# --- fuzzing --------------------------------------------------------------
# fuzz_ioctl: cedar-run's ioctl entry, with the shim's DRM-file and
# user-memory halves (not its libc stand-ins, which the target replaces)
FUZZ_SHIM_SRCS := src/shim/shim_drm.c src/shim/shim_ioctl.c src/shim/shim_uaccess.c src/shim/shim_capture.c \
                  src/shim/shim_paths.c
$(BUILD)/fuzz-replay/fuzz_ioctl: $(FUZZ_SHIM_SRCS:%.c=$(BUILD)/san/%.o)
$(BUILD)/fuzz/fuzz_ioctl: $(FUZZ_SHIM_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)

$(BUILD)/fuzz-replay/fuzz_%: $(BUILD)/san/tests/fuzz/fuzz_%.o $(BUILD)/san/tests/fuzz/replay_main.o $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(PKG_LIBS)

fuzz: deps
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs $(FUZZ_CC) (libFuzzer)"; exit 2; }
	@$(MAKE) --no-print-directory fuzz-build
	BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) ./tests/fuzz/run $(FUZZ_TARGETS)

fuzz-build: $(FUZZ_BINS) $(BUILD)/cedar-msaa

$(BUILD)/fuzz/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(BUILD)/fuzz/obj/gen/eg_regs_db.o: $(GEN_C) $(GEN_H)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(BUILD)/fuzz/libcedar.a: $(FUZZ_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz_%.o $(BUILD)/fuzz/libcedar.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter %.o,$^) $(filter %.a,$^) $(PKG_LIBS)

.SECONDARY:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
