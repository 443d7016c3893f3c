/* The compute stage (src/render/compute.c, vc_render_dispatch) with the
 * interpreter, set up as Mesa's r600 sets up a dispatch
 * (evergreen_compute.c: the program at SQ_PGM_START_LS,
 * SPI_COMPUTE_INPUT_CNTL TID_IN_GROUP_ENA | TGID_ENA | DISABLE_INDEX_PACK,
 * SPI_COMPUTE_NUM_THREAD_X/Y/Z and VGT_COMPUTE_THREAD_GROUP_SIZE, a RAT as a
 * linear buffer CB_COLOR<n> with CB_COLOR_INFO.RAT) and hand-assembled
 * programs that read the thread's ids where Mesa's sfn_shader_cs.cpp reads
 * them (R0.xyz the local id, R1.xyz the group id) and store with MEM_RAT
 * STORE_TYPED (sfn_instr_mem.cpp).
 *
 * The expectations are GL's definitions worked out in the test, not the
 * model's loops: for every group (gl_WorkGroupID = start + (i, j, k) over
 * the grid) and every local id (0..X-1, 0..Y-1, 0..Z-1), the element at
 * the index the program computes holds exactly those ids; every element is
 * written once (the rest keep their sentinel); the CS-invocations counter
 * grows by the threads of the dispatch.  An LDS program checks that a
 * group's threads share one LDS, zeroed per group, across a GROUP_BARRIER,
 * in groups of one, two and 32 waves.
 * Malformed dispatches (zero, absurd or inconsistent sizes, a missing
 * program ...) stop with a named reason and write nothing.
 *
 * RAT returns, with a program made the way Mesa's sfn makes an imageLoad
 * (sfn_shader.cpp allocate_reserved_registers, sfn_instr_mem.cpp
 * emit_image_load_or_atomic): the return address (SE_ID * 256 + HW_WAVE_ID)
 * * 64 + MBCNT, a MEM_RAT NOP_RTN (TYPE WRITE_IND_ACK) of the texel at the
 * thread's (x, y) of a linear RGBA8 image RAT with its data's y the return
 * address, WAIT_ACK, a vertex fetch of the return buffer (CB_IMMED0_BASE,
 * fetch resource 160 of the CS, stride 4) at that address, and a store of
 * what it read.  Expected: each thread gets the dword the test wrote at its
 * texel (x + pitch y, the linear layout), zeros past CB_COLOR_DIM (GL's
 * imageLoad outside the image), and the return buffer holds the last
 * group's texels at (wave * 64 + lane) * 4.  An ADD_RTN of 1 by every thread
 * of a group of two waves to one buffer element returns each of 0..63 once
 * (in some order) and leaves 64 there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "cedar/shader.h"
#include "eg_regs.h"

#define MEM_BASE 0x100000ull
#define MEM_BYTES (1u << 20)
#define PROG_OFF 0x0            /* the program, in the memory */
#define RAT_VEC_OFF 0x10000     /* RAT 1: COLOR_32_32_32_32, 16 bytes an element */
#define RAT_DW_OFF 0x40000      /* RAT 2: COLOR_32, 4 bytes an element */
#define IMG_OFF 0x80000         /* RAT 0: a linear 64 x 4 RGBA8 image */
#define IMMED_OFF 0xC0000       /* RAT 0's return buffer (CB_IMMED0_BASE), 64 KiB */
#define IMMED2_OFF 0xE0000      /* RAT 2's return buffer (CB_IMMED2_BASE) */
#define IMMED_RES 160           /* the fetch resource of RAT 0's return buffer (RAT n: 160 + n) */
#define SENTINEL 0xDEADBEEFu

struct world {
    uint8_t *mem;
    struct vc_mem vm;
    struct vc_regs regs;
    struct vc_render *r;
    uint32_t prog[512];
    size_t ndw;
};

static void *mem_ptr(void *ctx, uint64_t a, uint64_t n)
{
    struct world *w = ctx;
    if (a < MEM_BASE || n > MEM_BYTES || a - MEM_BASE > MEM_BYTES - n)
        return NULL;
    return w->mem + (a - MEM_BASE);
}

static void set_reg(struct vc_regs *r, uint32_t off, uint32_t v)
{
    if (off >= SPACE_CONTEXT_START && off < SPACE_CONTEXT_END)
        r->context[(off - SPACE_CONTEXT_START) / 4] = v;
    else if (off >= SPACE_CONFIG_START && off < SPACE_CONFIG_END)
        r->config[(off - SPACE_CONFIG_START) / 4] = v;
    else
        fail_msg("register 0x%x in neither space", off);
}

static void rat(struct world *w, unsigned n, uint64_t off, unsigned format)
{
    set_reg(&w->regs, REG_CB_COLOR_BASE(n), (uint32_t)((MEM_BASE + off) >> 8));
    set_reg(&w->regs, REG_CB_COLOR_INFO(n),
            S_CB_COLOR_INFO__FORMAT(format) | S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED) |
                S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UINT) | S_CB_COLOR_INFO__RAT(1) |
                S_CB_COLOR_INFO__RESOURCE_TYPE(V_CB_RESOURCE_TYPE__BUFFER));
}

/* Mesa's dispatch state for groups of x * y * z threads. */
static void group_size(struct world *w, uint32_t x, uint32_t y, uint32_t z)
{
    set_reg(&w->regs, REG_SPI_COMPUTE_NUM_THREAD_X, x);
    set_reg(&w->regs, REG_SPI_COMPUTE_NUM_THREAD_Y, y);
    set_reg(&w->regs, REG_SPI_COMPUTE_NUM_THREAD_Z, z);
    set_reg(&w->regs, REG_VGT_COMPUTE_THREAD_GROUP_SIZE, x * y * z);
}

static struct world *world_new(void)
{
    struct world *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->mem = malloc(MEM_BYTES);
    assert_non_null(w->mem);
    for (size_t i = 0; i < MEM_BYTES / 4; i++)
        memcpy(w->mem + 4 * i, &(uint32_t){SENTINEL}, 4);
    w->vm = (struct vc_mem){w, mem_ptr, NULL};
    w->r = vc_render_new();
    assert_non_null(w->r);
    set_reg(&w->regs, REG_SQ_PGM_START_LS, (uint32_t)((MEM_BASE + PROG_OFF) >> 8));
    set_reg(&w->regs, REG_SPI_COMPUTE_INPUT_CNTL,
            S_SPI_COMPUTE_INPUT_CNTL__TID_IN_GROUP_ENA(1) | S_SPI_COMPUTE_INPUT_CNTL__TGID_ENA(1) |
                S_SPI_COMPUTE_INPUT_CNTL__DISABLE_INDEX_PACK(1));
    set_reg(&w->regs, REG_VGT_DISPATCH_INITIATOR, S_VGT_DISPATCH_INITIATOR__COMPUTE_SHADER_EN(1));
    rat(w, 1, RAT_VEC_OFF, V_CB_FORMAT__COLOR_32_32_32_32);
    rat(w, 2, RAT_DW_OFF, V_CB_FORMAT__COLOR_32);
    return w;
}

static void world_free(struct world *w)
{
    vc_render_free(w->r);
    free(w->mem);
    free(w);
}

static void load(struct world *w, const uint32_t *p, size_t ndw)
{
    memcpy(w->mem + PROG_OFF, p, ndw * 4);
}

static uint32_t rd(const struct world *w, uint64_t off)
{
    uint32_t v;
    memcpy(&v, w->mem + off, 4);
    return v;
}

static uint64_t cs_invocations(const struct world *w)
{
    struct vc_render_stats st;
    vc_render_get_stats(w->r, &st);
    return st.cs_invocations;
}

static const struct eg_alu_src zero = {.sel = V_SQ_ALU_SRC__ZERO};

static void alu(struct eg_asm *a, unsigned op, unsigned dst, unsigned chan, struct eg_alu_src s0, struct eg_alu_src s1,
                bool last)
{
    eg_asm_alu(a, &(struct eg_alu){.op = op, .dst = {(uint8_t)dst, (uint8_t)chan, .write = true},
                                   .src = {s0, s1, zero}, .last = last});
}

/* A MEM_RAT STORE_TYPED of R<data> at the index in R<index>.x, as Mesa's
 * RatInstr (TYPE WRITE_IND, burst 1): RAT_ID and RAT_INST where the encoder
 * puts ARRAY_BASE. */
static void rat_store(struct eg_asm *a, unsigned id, unsigned data, unsigned index, unsigned mask)
{
    eg_asm_mem(a, &(struct eg_mem_export){
                      .cf_inst = V_SQ_CF_INST__MEM_RAT, .type = 1,
                      .array_base = S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(id) |
                                    S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INST(V_SQ_RAT_INST__STORE_TYPED),
                      .gpr = data, .index_gpr = index, .comp_mask = mask});
}

/* The ids program for groups of 4 x 2 x 2 threads (16: one wave) over a
 * grid of 4 x 2 x 2 groups starting at (sx, sy, sz):
 *   R2.x = e = tid.x + 4 tid.y + 8 tid.z + 16 ((gid.x - sx) + 4 (gid.y - sy) + 8 (gid.z - sz))
 *   R3 = (tid.x | tid.y << 8 | tid.z << 16, gid.x, gid.y, gid.z) -> RAT 1 element e
 *   R4.x = e ^ 0x5A5A0000 -> RAT 2 element e */
static size_t build_ids(uint32_t sx, uint32_t sy, uint32_t sz, uint32_t *out, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    /* R2.y = gid.x - sx, R2.z = gid.y - sy, R2.w = gid.z - sz */
    alu(&a, V_SQ_ALU_OP2__SUB_INT, 2, 1, eg_src_gpr(1, 0), eg_src_lit_u(sx), false);
    alu(&a, V_SQ_ALU_OP2__SUB_INT, 2, 2, eg_src_gpr(1, 1), eg_src_lit_u(sy), false);
    alu(&a, V_SQ_ALU_OP2__SUB_INT, 2, 3, eg_src_gpr(1, 2), eg_src_lit_u(sz), true);
    /* R5 = (tid.y << 2, tid.z << 3, gy << 2, gz << 3) */
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 0, eg_src_gpr(0, 1), eg_src_lit_u(2), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 1, eg_src_gpr(0, 2), eg_src_lit_u(3), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 2, eg_src_gpr(2, 2), eg_src_lit_u(2), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 3, eg_src_gpr(2, 3), eg_src_lit_u(3), true);
    /* R6.x = tid.x + R5.x, R6.y = R5.y, R6.z = gx + R5.z, R6.w = R5.w */
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 6, 0, eg_src_gpr(0, 0), eg_src_gpr(5, 0), false);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 6, 2, eg_src_gpr(2, 1), eg_src_gpr(5, 2), true);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 6, 0, eg_src_gpr(6, 0), eg_src_gpr(5, 1), false);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 6, 2, eg_src_gpr(6, 2), eg_src_gpr(5, 3), true);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 6, 2, eg_src_gpr(6, 2), eg_src_lit_u(4), true);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 2, 0, eg_src_gpr(6, 0), eg_src_gpr(6, 2), true);
    /* R3 */
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 7, 1, eg_src_gpr(0, 1), eg_src_lit_u(8), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 7, 2, eg_src_gpr(0, 2), eg_src_lit_u(16), true);
    alu(&a, V_SQ_ALU_OP2__OR_INT, 7, 0, eg_src_gpr(0, 0), eg_src_gpr(7, 1), true);
    alu(&a, V_SQ_ALU_OP2__OR_INT, 3, 0, eg_src_gpr(7, 0), eg_src_gpr(7, 2), false);
    alu(&a, V_SQ_ALU_OP2__MOV, 3, 1, eg_src_gpr(1, 0), zero, false);
    alu(&a, V_SQ_ALU_OP2__MOV, 3, 2, eg_src_gpr(1, 1), zero, false);
    alu(&a, V_SQ_ALU_OP2__MOV, 3, 3, eg_src_gpr(1, 2), zero, true);
    alu(&a, V_SQ_ALU_OP2__XOR_INT, 4, 0, eg_src_gpr(2, 0), eg_src_lit_u(0x5A5A0000u), true);
    rat_store(&a, 1, 3, 2, 0xF);
    rat_store(&a, 2, 4, 2, 0x1);
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, out, cap, &n))
        fail_msg("ids: %s", a.err);
    return n;
}

static int dispatch(struct world *w, uint32_t x, uint32_t y, uint32_t z, char *why, size_t len)
{
    const uint32_t dim[3] = {x, y, z};
    struct vc_draw_err e = {{0}};
    int rc = vc_render_dispatch(w->r, &w->regs, &w->vm, dim, &e);
    snprintf(why, len, "%s", e.msg);
    return rc;
}

static void test_ids_and_rat_stores(void **state)
{
    (void)state;
    struct world *w = world_new();
    const uint32_t start[3] = {10, 20, 30}, grid[3] = {4, 2, 2}, tg[3] = {4, 2, 2};
    w->ndw = build_ids(start[0], start[1], start[2], w->prog, 512);
    load(w, w->prog, w->ndw);
    set_reg(&w->regs, REG_VGT_COMPUTE_START_X, start[0]);
    set_reg(&w->regs, REG_VGT_COMPUTE_START_Y, start[1]);
    set_reg(&w->regs, REG_VGT_COMPUTE_START_Z, start[2]);
    group_size(w, tg[0], tg[1], tg[2]);
    char why[200];
    uint64_t before = cs_invocations(w);
    if (dispatch(w, grid[0], grid[1], grid[2], why, sizeof why))
        fail_msg("dispatch: %s", why);
    unsigned total = grid[0] * grid[1] * grid[2] * tg[0] * tg[1] * tg[2];
    assert_int_equal(cs_invocations(w) - before, total);
    /* every (group, local id) pair, as GL enumerates them */
    bool seen[256] = {false};
    for (uint32_t gk = 0; gk < grid[2]; gk++)
        for (uint32_t gj = 0; gj < grid[1]; gj++)
            for (uint32_t gi = 0; gi < grid[0]; gi++)
                for (uint32_t tz = 0; tz < tg[2]; tz++)
                    for (uint32_t ty = 0; ty < tg[1]; ty++)
                        for (uint32_t tx = 0; tx < tg[0]; tx++) {
                            uint32_t e = tx + 4 * ty + 8 * tz + 16 * (gi + 4 * gj + 8 * gk);
                            assert_true(e < 256);
                            seen[e] = true;
                            uint64_t at = RAT_VEC_OFF + 16ull * e;
                            assert_int_equal(rd(w, at), tx | ty << 8 | tz << 16);
                            assert_int_equal(rd(w, at + 4), start[0] + gi);
                            assert_int_equal(rd(w, at + 8), start[1] + gj);
                            assert_int_equal(rd(w, at + 12), start[2] + gk);
                            assert_int_equal(rd(w, RAT_DW_OFF + 4ull * e), e ^ 0x5A5A0000u);
                        }
    for (uint32_t e = 0; e < 256; e++)
        assert_true(seen[e]);
    /* nothing past the last element */
    assert_int_equal(rd(w, RAT_VEC_OFF + 16 * 256), SENTINEL);
    assert_int_equal(rd(w, RAT_DW_OFF + 4 * 256), SENTINEL);
    world_free(w);
}

/* Lay out the program, load it and dispatch gx x 1 x 1 groups of tx x ty x 1
 * threads; a fault fails the test. */
static void run_program(struct world *w, struct eg_asm *a, uint32_t tx, uint32_t ty, uint32_t gx)
{
    eg_asm_cf(a, V_SQ_CF_INST__NOP);
    assert_int_equal(eg_asm_finish(a, true, w->prog, 512, &w->ndw), 0);
    load(w, w->prog, w->ndw);
    group_size(w, tx, ty, 1);
    char why[200];
    if (dispatch(w, gx, 1, 1, why, sizeof why))
        fail_msg("dispatch: %s", why);
}

/* Groups of 8 x 8 threads (64: two waves), local id order within a group:
 * each thread stores its (x, y) at e = x + 8 y (program: R2.x = tid.x +
 * (tid.y << 3) + 64 gid.x; RAT 2 <- tid.x | tid.y << 8 | gid.x << 16). */
static void test_two_waves(void **state)
{
    (void)state;
    struct world *w = world_new();
    struct eg_asm a;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 0, eg_src_gpr(0, 1), eg_src_lit_u(3), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 1, eg_src_gpr(1, 0), eg_src_lit_u(6), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 2, eg_src_gpr(0, 1), eg_src_lit_u(8), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 5, 3, eg_src_gpr(1, 0), eg_src_lit_u(16), true);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 6, 0, eg_src_gpr(0, 0), eg_src_gpr(5, 0), false);
    alu(&a, V_SQ_ALU_OP2__OR_INT, 6, 1, eg_src_gpr(0, 0), eg_src_gpr(5, 2), true);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 2, 0, eg_src_gpr(6, 0), eg_src_gpr(5, 1), false);
    alu(&a, V_SQ_ALU_OP2__OR_INT, 4, 0, eg_src_gpr(6, 1), eg_src_gpr(5, 3), true);
    rat_store(&a, 2, 4, 2, 0x1);
    run_program(w, &a, 8, 8, 3);
    assert_int_equal(cs_invocations(w), 3 * 64);
    for (uint32_t g = 0; g < 3; g++)
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++)
                assert_int_equal(rd(w, RAT_DW_OFF + 4ull * (x + 8 * y + 64 * g)), x | y << 8 | g << 16);
    assert_int_equal(rd(w, RAT_DW_OFF + 4ull * 192), SENTINEL);
    world_free(w);
}

/* An LDS instruction: the opcode where an OP3 instruction keeps DST_GPR
 * (Mesa r600_asm.c eg_bytecode_alu_build). */
static void lds(struct eg_asm *a, unsigned op, struct eg_alu_src addr, struct eg_alu_src d0)
{
    eg_asm_alu(a, &(struct eg_alu){.op3 = true, .op = V_SQ_ALU_OP3__LDS_IDX_OP, .dst = {(uint8_t)op, 0},
                                   .src = {addr, d0, zero}, .last = true});
}

/* The group's threads share one LDS across a barrier, zeroed per group:
 * thread t (of n, a power of two) adds t + 1 to LDS dword t (ADD, on the
 * group's zeros), GROUP_BARRIER, then reads dword (t + 1) % n and stores it
 * at element t + n gid.x: t + 2 for t < n - 1, 1 for the last, in every
 * group (with an LDS kept from the group before, the second group would
 * read twice as much; without the barrier, a wave run before its
 * neighbour's would read 0). */
static size_t build_lds(bool barrier, unsigned log2n, uint32_t *out, size_t cap)
{
    struct eg_asm a;
    size_t n;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 2, 0, eg_src_gpr(0, 0), eg_src_lit_u(2), false);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 2, 1, eg_src_gpr(0, 0), eg_src_lit_u(1), false);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 2, 3, eg_src_gpr(1, 0), eg_src_lit_u(log2n), true);
    lds(&a, V_SQ_LDS_OP__ADD, eg_src_gpr(2, 0), eg_src_gpr(2, 1));
    if (barrier)
        eg_asm_alu(&a, &(struct eg_alu){.op = V_SQ_ALU_OP2__GROUP_BARRIER, .last = true});
    alu(&a, V_SQ_ALU_OP2__AND_INT, 2, 2, eg_src_gpr(2, 1), eg_src_lit_u((1u << log2n) - 1), true);
    alu(&a, V_SQ_ALU_OP2__LSHL_INT, 2, 2, eg_src_gpr(2, 2), eg_src_lit_u(2), true);
    lds(&a, V_SQ_LDS_OP__READ_RET, eg_src_gpr(2, 2), zero);
    alu(&a, V_SQ_ALU_OP2__MOV, 4, 0, eg_src_special(V_SQ_ALU_SRC__LDS_OQ_A_POP, 0), zero, true);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 3, 0, eg_src_gpr(0, 0), eg_src_gpr(2, 3), true);
    rat_store(&a, 2, 4, 3, 0x1);
    eg_asm_cf(&a, V_SQ_CF_INST__NOP);
    if (eg_asm_finish(&a, true, out, cap, &n))
        fail_msg("lds: %s", a.err);
    return n;
}

/* n = 2^log2n threads a group (16: one wave; 64: two; 1024: 32), 2 groups. */
static void lds_barrier(unsigned log2n)
{
    struct world *w = world_new();
    uint32_t n = 1u << log2n;
    w->ndw = build_lds(true, log2n, w->prog, 512);
    load(w, w->prog, w->ndw);
    group_size(w, n, 1, 1);
    set_reg(&w->regs, REG_SQ_LDS_ALLOC, S_SQ_LDS_ALLOC__SIZE(n));
    char why[200];
    if (dispatch(w, 2, 1, 1, why, sizeof why))
        fail_msg("dispatch: %s", why);
    assert_int_equal(cs_invocations(w), 2 * n);
    for (uint32_t g = 0; g < 2; g++)
        for (uint32_t t = 0; t < n; t++)
            assert_int_equal(rd(w, RAT_DW_OFF + 4ull * (t + n * g)), t < n - 1 ? t + 2 : 1);
    assert_int_equal(rd(w, RAT_DW_OFF + 4ull * 2 * n), SENTINEL);
    world_free(w);
}

static void test_lds_barrier_one_wave(void **state)
{
    (void)state;
    lds_barrier(4);
}

static void test_lds_barrier_two_waves(void **state)
{
    (void)state;
    lds_barrier(6);
}

static void test_lds_barrier_32_waves(void **state)
{
    (void)state;
    lds_barrier(10);
}

/* A buffer fetch resource (SQ_VTX_CONSTANT_WORD0..7) of the CS's slot
 * `slot`: 64 KiB at off, 4 bytes a stride. */
static void fetch_buffer(struct world *w, unsigned slot, uint64_t off)
{
    uint32_t *r = &w->regs.resource[(V_SQ_FETCH_RESOURCE_BASE__CS + slot) * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS];
    memset(r, 0, V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS * 4);
    r[0] = (uint32_t)(MEM_BASE + off);
    r[1] = 0xFFFF;
    r[2] = S_SQ_VTX_CONSTANT_WORD2__STRIDE(4);
    r[7] = S_SQ_VTX_CONSTANT_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER);
}

/* RAT 0: a linear 64 x 4 RGBA8 image (pitch 64 texels) of which CB_COLOR0_DIM
 * makes the first `width` columns the image; its return buffer at IMMED_OFF. */
static void image_rat(struct world *w, unsigned width)
{
    set_reg(&w->regs, REG_CB_COLOR_BASE(0), (uint32_t)((MEM_BASE + IMG_OFF) >> 8));
    set_reg(&w->regs, REG_CB_COLOR_PITCH(0), S_CB_COLOR_PITCH__TILE_MAX(64 / 8 - 1));
    set_reg(&w->regs, REG_CB_COLOR_SLICE(0), S_CB_COLOR_SLICE__TILE_MAX(64 * 4 / 64 - 1));
    set_reg(&w->regs, REG_CB_COLOR_INFO(0),
            S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) |
                S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED) |
                S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UNORM) | S_CB_COLOR_INFO__RAT(1) |
                S_CB_COLOR_INFO__RESOURCE_TYPE(V_CB_RESOURCE_TYPE__TEXTURE2D));
    set_reg(&w->regs, REG_CB_COLOR_DIM(0), S_CB_COLOR_DIM__WIDTH_MAX(width - 1) | S_CB_COLOR_DIM__HEIGHT_MAX(3));
    set_reg(&w->regs, REG_CB_IMMED_BASE(0), (uint32_t)((MEM_BASE + IMMED_OFF) >> 8));
    fetch_buffer(w, IMMED_RES, IMMED_OFF);
}

static uint32_t texel_word(uint32_t x, uint32_t y)
{
    return 0x80000000u ^ (x * 0x00010203u) ^ (y << 20) ^ 0x5Au;
}

static void op3(struct eg_asm *a, unsigned op, unsigned dst, unsigned chan, struct eg_alu_src s0,
                struct eg_alu_src s1, struct eg_alu_src s2)
{
    eg_asm_alu(a, &(struct eg_alu){.op3 = true, .op = op, .dst = {(uint8_t)dst, (uint8_t)chan, .write = true},
                                   .src = {s0, s1, s2}, .last = true});
}

/* Mesa's return address into R2.x: MBCNT_32LO_ACCUM_PREV_INT (x) and
 * MBCNT_32HI_INT (y) of -1 in one group, then (SE_ID * 256 + HW_WAVE_ID) *
 * 64 + the count with MULADD_UINT24. */
static void return_address(struct eg_asm *a)
{
    alu(a, V_SQ_ALU_OP2__MBCNT_32LO_ACCUM_PREV_INT, 3, 0, eg_src_lit_u(0xFFFFFFFFu), zero, false);
    alu(a, V_SQ_ALU_OP2__MBCNT_32HI_INT, 3, 1, eg_src_lit_u(0xFFFFFFFFu), zero, true);
    op3(a, V_SQ_ALU_OP3__MULADD_UINT24, 3, 2, eg_src_special(V_SQ_ALU_SRC__SE_ID, 0), eg_src_lit_u(256),
        eg_src_special(V_SQ_ALU_SRC__HW_WAVE_ID, 0));
    op3(a, V_SQ_ALU_OP3__MULADD_UINT24, 2, 0, eg_src_gpr(3, 2), eg_src_lit_u(64), eg_src_gpr(3, 0));
}

/* A MEM_RAT with a return (TYPE WRITE_IND_ACK), WAIT_ACK, and a fetch of the
 * return buffer (resource res) at R2.x into R6.x, as one dword. */
static void rat_return_fetch(struct eg_asm *a, unsigned id, unsigned inst, unsigned data, unsigned index,
                             unsigned res)
{
    eg_asm_mem(a, &(struct eg_mem_export){
                      .cf_inst = V_SQ_CF_INST__MEM_RAT, .type = 3,
                      .array_base = S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_ID(id) |
                                    S_SQ_CF_ALLOC_EXPORT_WORD0_RAT__RAT_INST(inst),
                      .gpr = data, .index_gpr = index, .comp_mask = 0xF});
    eg_asm_cf(a, V_SQ_CF_INST__WAIT_ACK);
    eg_asm_vtx_clause(a);
    eg_asm_vtx(a, &(struct eg_vtx){.inst = V_SQ_VTX_INST__FETCH, .buffer_id = res, .src_gpr = 2, .dst_gpr = 6,
                                   .mega_fetch_count = 3,
                                   .dst_sel = {V_SQ_INST_SEL__X, V_SQ_INST_SEL__MASK, V_SQ_INST_SEL__MASK,
                                               V_SQ_INST_SEL__MASK},
                                   .data_format = V_SQ_DATA_FORMAT__FMT_32,
                                   .num_format = V_SQ_NUM_FORMAT__SQ_NUM_FORMAT_INT});
}

/* imageLoad through NOP_RTN: groups of 16 x 4 threads (two waves) over a
 * grid of 4 x 1; thread (x, y) = (16 gid.x + tid.x, tid.y) reads texel
 * (x, y) and stores it at element x + 64 y of RAT 2. */
static void test_image_load_through_rat_return(void **state)
{
    (void)state;
    for (unsigned width = 64; width >= 40; width -= 24) {
        struct world *w = world_new();
        image_rat(w, width);
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 64; x++)
                memcpy(w->mem + IMG_OFF + 4 * (x + 64 * y), &(uint32_t){texel_word(x, y)}, 4);
        struct eg_asm a;
        eg_asm_init(&a);
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        return_address(&a);
        /* R4 = (16 gid.x + tid.x, tid.y, 0, 0); R5 = (0, R2.x, 0, 0) */
        op3(&a, V_SQ_ALU_OP3__MULADD_UINT24, 4, 0, eg_src_gpr(1, 0), eg_src_lit_u(16), eg_src_gpr(0, 0));
        alu(&a, V_SQ_ALU_OP2__MOV, 4, 1, eg_src_gpr(0, 1), zero, false);
        alu(&a, V_SQ_ALU_OP2__MOV, 4, 2, zero, zero, false);
        alu(&a, V_SQ_ALU_OP2__MOV, 4, 3, zero, zero, true);
        alu(&a, V_SQ_ALU_OP2__MOV, 5, 0, zero, zero, false);
        alu(&a, V_SQ_ALU_OP2__MOV, 5, 1, eg_src_gpr(2, 0), zero, false);
        alu(&a, V_SQ_ALU_OP2__MOV, 5, 2, zero, zero, false);
        alu(&a, V_SQ_ALU_OP2__MOV, 5, 3, zero, zero, true);
        rat_return_fetch(&a, 0, V_SQ_RAT_INST__NOP_RTN, 5, 4, IMMED_RES);
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        op3(&a, V_SQ_ALU_OP3__MULADD_UINT24, 7, 0, eg_src_gpr(4, 1), eg_src_lit_u(64), eg_src_gpr(4, 0));
        rat_store(&a, 2, 6, 7, 0x1);
        run_program(w, &a, 16, 4, 4);
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 64; x++)
                assert_int_equal(rd(w, RAT_DW_OFF + 4ull * (x + 64 * y)), x < width ? texel_word(x, y) : 0);
        /* the return buffer: the last group's (gid.x 3) threads, thread t of
         * the group in wave t / 32, lane t % 32 */
        for (uint32_t t = 0; t < 64; t++) {
            uint32_t x = 48 + t % 16, y = t / 16;
            assert_int_equal(rd(w, IMMED_OFF + 4ull * ((t / 32) * 64 + t % 32)), x < width ? texel_word(x, y) : 0);
        }
        assert_int_equal(rd(w, IMMED_OFF + 4ull * 32), SENTINEL); /* wave 0 has lanes 0..31 only */
        assert_int_equal(rd(w, IMMED_OFF + 4ull * 128), SENTINEL);
        /* the image is read, not written */
        assert_int_equal(rd(w, IMG_OFF + 4 * (5 + 64 * 2)), texel_word(5, 2));
        world_free(w);
    }
}

/* A return buffer outside memory and an atomic the model does not run stop
 * the dispatch with their names. */
static void test_rat_return_faults(void **state)
{
    (void)state;
    static const unsigned ops[2] = {V_SQ_RAT_INST__NOP_RTN, V_SQ_RAT_INST__MSKOR_RTN};
    static const char *const needle[2] = {"(CB_IMMED2_BASE) is not inside a GPU buffer", "MSKOR_RTN (49) is not modelled"};
    for (unsigned k = 0; k < 2; k++) {
        struct world *w = world_new();
        set_reg(&w->regs, REG_CB_IMMED_BASE(2), k ? (uint32_t)((MEM_BASE + IMMED2_OFF) >> 8) : 0x12345u);
        fetch_buffer(w, IMMED_RES + 2, IMMED2_OFF);
        struct eg_asm a;
        eg_asm_init(&a);
        eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
        return_address(&a);
        alu(&a, V_SQ_ALU_OP2__MOV, 5, 1, eg_src_gpr(2, 0), zero, true);
        rat_return_fetch(&a, 2, ops[k], 5, 0, IMMED_RES + 2);
        eg_asm_cf(&a, V_SQ_CF_INST__NOP);
        assert_int_equal(eg_asm_finish(&a, true, w->prog, 512, &w->ndw), 0);
        load(w, w->prog, w->ndw);
        group_size(w, 4, 1, 1);
        char why[200];
        assert_int_equal(dispatch(w, 1, 1, 1, why, sizeof why), -1);
        if (!strstr(why, needle[k]))
            fail_msg("reason '%s' does not name '%s'", why, needle[k]);
        world_free(w);
    }
}

/* ADD_RTN of 1 by each of the 64 threads of a group (two waves) on element
 * 0 of the COLOR_32 buffer RAT 2 (Mesa's SSBO atomic: data x the operand, y
 * the return address); each stores what it got back at element 1 + tid.x. */
static void test_atomic_add_returns(void **state)
{
    (void)state;
    struct world *w = world_new();
    memcpy(w->mem + RAT_DW_OFF, &(uint32_t){0}, 4);
    set_reg(&w->regs, REG_CB_IMMED_BASE(2), (uint32_t)((MEM_BASE + IMMED2_OFF) >> 8));
    fetch_buffer(w, IMMED_RES + 2, IMMED2_OFF);
    struct eg_asm a;
    eg_asm_init(&a);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    return_address(&a);
    alu(&a, V_SQ_ALU_OP2__MOV, 4, 0, zero, zero, false);
    alu(&a, V_SQ_ALU_OP2__ADD_INT, 4, 1, eg_src_gpr(0, 0), eg_src_special(V_SQ_ALU_SRC__ONE_INT, 0), true);
    alu(&a, V_SQ_ALU_OP2__MOV, 5, 0, eg_src_special(V_SQ_ALU_SRC__ONE_INT, 0), zero, false);
    alu(&a, V_SQ_ALU_OP2__MOV, 5, 1, eg_src_gpr(2, 0), zero, false);
    alu(&a, V_SQ_ALU_OP2__MOV, 5, 2, zero, zero, false);
    alu(&a, V_SQ_ALU_OP2__MOV, 5, 3, zero, zero, true);
    rat_return_fetch(&a, 2, V_SQ_RAT_INST__ADD_RTN, 5, 4, IMMED_RES + 2);
    eg_asm_alu_clause(&a, V_SQ_CF_ALU_INST__ALU, NULL);
    alu(&a, V_SQ_ALU_OP2__MOV, 7, 0, eg_src_gpr(4, 1), zero, true);
    rat_store(&a, 2, 6, 7, 0x1);
    run_program(w, &a, 64, 1, 1);
    assert_int_equal(rd(w, RAT_DW_OFF), 64);
    bool got[64] = {false};
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t v = rd(w, RAT_DW_OFF + 4ull * (1 + t));
        assert_true(v < 64);
        assert_false(got[v]);
        got[v] = true;
    }
    assert_int_equal(rd(w, RAT_DW_OFF + 4ull * 65), SENTINEL);
    world_free(w);
}

static void expect_refused(struct world *w, uint32_t x, uint32_t y, uint32_t z, const char *needle)
{
    char why[200];
    uint64_t before = cs_invocations(w);
    assert_int_equal(dispatch(w, x, y, z, why, sizeof why), -1);
    if (!strstr(why, needle))
        fail_msg("reason '%s' does not name '%s'", why, needle);
    assert_int_equal(cs_invocations(w), before);
    assert_int_equal(rd(w, RAT_VEC_OFF), SENTINEL);
    assert_int_equal(rd(w, RAT_DW_OFF), SENTINEL);
}

static void test_malformed(void **state)
{
    (void)state;
    struct world *w = world_new();
    w->ndw = build_ids(0, 0, 0, w->prog, 512);
    load(w, w->prog, w->ndw);
    /* zero and absurd thread-group sizes */
    group_size(w, 0, 2, 2);
    expect_refused(w, 1, 1, 1, "thread group of 0 x 2 x 2");
    group_size(w, 64, 64, 1);
    expect_refused(w, 1, 1, 1, "at most 1024");
    group_size(w, 0xFFFFFFFFu, 1, 1);
    expect_refused(w, 1, 1, 1, "4294967295 x 1 x 1");
    group_size(w, 4, 2, 2);
    expect_refused(w, 65536, 1, 1, "a grid of 65536 x 1 x 1 thread groups");
    set_reg(&w->regs, REG_VGT_COMPUTE_THREAD_GROUP_SIZE, 15);
    expect_refused(w, 1, 1, 1, "VGT_COMPUTE_THREAD_GROUP_SIZE 15");
    group_size(w, 4, 2, 2);
    /* no program: SQ_PGM_START_LS outside memory */
    set_reg(&w->regs, REG_SQ_PGM_START_LS, 0x12345);
    expect_refused(w, 1, 1, 1, "SQ_PGM_START_LS = 0x1234500 is not inside a GPU buffer");
    set_reg(&w->regs, REG_SQ_PGM_START_LS, (uint32_t)((MEM_BASE + PROG_OFF) >> 8));
    /* input control other than Mesa's, no COMPUTE_SHADER_EN, too much LDS */
    set_reg(&w->regs, REG_SPI_COMPUTE_INPUT_CNTL, S_SPI_COMPUTE_INPUT_CNTL__TGID_ENA(1));
    expect_refused(w, 1, 1, 1, "SPI_COMPUTE_INPUT_CNTL 0x2 is not modelled");
    set_reg(&w->regs, REG_SPI_COMPUTE_INPUT_CNTL, 7);
    set_reg(&w->regs, REG_VGT_DISPATCH_INITIATOR, 0);
    expect_refused(w, 1, 1, 1, "COMPUTE_SHADER_EN");
    set_reg(&w->regs, REG_VGT_DISPATCH_INITIATOR, 1);
    set_reg(&w->regs, REG_SQ_LDS_ALLOC, S_SQ_LDS_ALLOC__SIZE(8193));
    expect_refused(w, 1, 1, 1, "SQ_LDS_ALLOC.SIZE 8193");
    set_reg(&w->regs, REG_SQ_LDS_ALLOC, 0);
    /* a RAT store to a colour buffer that is no RAT */
    set_reg(&w->regs, REG_CB_COLOR_INFO(1), 0);
    expect_refused(w, 1, 1, 1, "CB_COLOR1_INFO.RAT is clear");
    rat(w, 1, RAT_VEC_OFF, V_CB_FORMAT__COLOR_32_32_32_32);
    /* a fault in one wave of a group of two: named, and the dispatch stops
     * (the LDS program with no LDS) */
    w->ndw = build_lds(true, 6, w->prog, 512);
    load(w, w->prog, w->ndw);
    group_size(w, 64, 1, 1);
    expect_refused(w, 1, 1, 1, "LDS");
    /* zero groups: nothing runs, nothing fails */
    char why[200];
    assert_int_equal(dispatch(w, 0, 5, 5, why, sizeof why), 0);
    assert_int_equal(cs_invocations(w), 0);
    world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_and_rat_stores),
        cmocka_unit_test(test_two_waves),
        cmocka_unit_test(test_lds_barrier_one_wave),
        cmocka_unit_test(test_lds_barrier_two_waves),
        cmocka_unit_test(test_lds_barrier_32_waves),
        cmocka_unit_test(test_image_load_through_rat_return),
        cmocka_unit_test(test_atomic_add_returns),
        cmocka_unit_test(test_rat_return_faults),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
