/* Transform feedback through vc_render_streamout (src/render/streamout.c),
 * with a stand-in vertex stage whose stream-out exports are known, and
 * hand-programmed VGT_STRMOUT_* registers.  Expectations from the GL 4.6
 * rules for transform feedback (13.3): primitives are recorded whole, in
 * order, a triangle strip as separate triangles whose odd ones keep the
 * winding (vertices 2, 1, 3 for the second; table 10.1's order); a
 * primitive that does not fit in every bound buffer is not recorded; and
 * from the register meanings Mesa's r600_streamout.c writes (sizes and
 * strides in dwords, the base in 256-byte units, offsets in dwords from the
 * base).  Only stream 0 is recorded (no geometry shader). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/render.h"
#include "cedar/shader.h"
#include "tests/common/render_scene.h"

#define GPU_BASE 0x100000ull
#define MEM_SIZE 0x4000
#define BUF0_OFF 0x0
#define BUF1_OFF 0x1000
#define SENTINEL 0xDEADBEEFu

struct rig {
    uint8_t *mem;
    struct vc_mem vmem;
    struct vc_regs *regs;
    struct vc_render *r;
};

static void *rig_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    struct rig *g = ctx;
    if (addr < GPU_BASE || len > MEM_SIZE || addr - GPU_BASE > MEM_SIZE - len)
        return NULL;
    return g->mem + (addr - GPU_BASE);
}

static int stand_in_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                           uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    (void)ctx, (void)regs, (void)mem, (void)instance, (void)err;
    memset(out, 0, sizeof *out);
    out->pos[3] = 1.0f;
    out->pos[0] = (float)index;
    return 0;
}

/* Vertex i exports: buffer 0 dwords 0..3 = 10 i + c (all four components);
 * buffer 1 only component y (comp mask 2) of a vec4 at ARRAY_BASE 0, i.e.
 * dword 1 = 100 + i; a stream-1 export that must not be recorded. */
static int stand_in_stream(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                           uint32_t instance, struct eg_stream_out *out, struct vc_draw_err *err)
{
    (void)ctx, (void)regs, (void)mem, (void)instance, (void)err;
    out->n = 3;
    out->w[0] = (struct eg_stream_write){ .stream = 0, .buf = 0, .comp_mask = 0xF, .dword = 0,
                                          .v = { 10 * index, 10 * index + 1, 10 * index + 2, 10 * index + 3 } };
    out->w[1] = (struct eg_stream_write){ .stream = 0, .buf = 1, .comp_mask = 0x2, .dword = 0,
                                          .v = { 7, 100 + index, 7, 7 } };
    out->w[2] = (struct eg_stream_write){ .stream = 1, .buf = 0, .comp_mask = 0xF, .dword = 0, .v = { 9, 9, 9, 9 } };
    return 0;
}

static void rig_init(struct rig *g)
{
    memset(g, 0, sizeof *g);
    g->mem = malloc(MEM_SIZE);
    g->regs = calloc(1, sizeof *g->regs);
    g->r = vc_render_new();
    assert_non_null(g->mem);
    assert_non_null(g->regs);
    assert_non_null(g->r);
    for (size_t k = 0; k < MEM_SIZE / 4; k++)
        memcpy(g->mem + 4 * k, &(uint32_t){ SENTINEL }, 4);
    g->vmem.ctx = g;
    g->vmem.ptr = rig_ptr;
    struct vc_shader_ops ops = { .ctx = g, .vertex = stand_in_vertex, .stream_vertex = stand_in_stream };
    vc_render_set_shaders(g->r, &ops);
    scene_set_reg(g->regs, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
    scene_set_reg(g->regs, REG_VGT_STRMOUT_CONFIG, S_VGT_STRMOUT_CONFIG__STREAMOUT_0_EN(1));
    scene_set_reg(g->regs, REG_VGT_STRMOUT_BUFFER_CONFIG, S_VGT_STRMOUT_BUFFER_CONFIG__STREAM_0_BUFFER_EN(3));
    scene_set_reg(g->regs, REG_VGT_STRMOUT_BUFFER_BASE(0), (uint32_t)((GPU_BASE + BUF0_OFF) >> 8));
    scene_set_reg(g->regs, REG_VGT_STRMOUT_BUFFER_BASE(1), (uint32_t)((GPU_BASE + BUF1_OFF) >> 8));
    scene_set_reg(g->regs, REG_VGT_STRMOUT_VTX_STRIDE(0), 4);
    scene_set_reg(g->regs, REG_VGT_STRMOUT_VTX_STRIDE(1), 2);
}

static void rig_free(struct rig *g)
{
    vc_render_free(g->r);
    free(g->regs);
    free(g->mem);
}

static uint32_t dword(const struct rig *g, size_t off, unsigned k)
{
    uint32_t v;
    memcpy(&v, g->mem + off + 4 * k, 4);
    return v;
}

static void strip4(struct rig *g, uint32_t offs[4])
{
    struct vc_draw dr = { .opcode = PKT3_DRAW_INDEX_AUTO, .num_indices = 4, .num_instances = 1,
                          .prim_type = V_VGT_DI_PRIM_TYPE__DI_PT_TRISTRIP };
    struct vc_draw_err err = { { 0 } };
    if (vc_render_streamout(g->r, g->regs, &g->vmem, &dr, offs, &err))
        fail_msg("streamout: %s", err.msg);
}

/* A 4-vertex strip: triangles (0, 1, 2) and (2, 1, 3).  Buffer 0 starts 2
 * dwords in; buffer 1 (10 dwords) has room for 5 records: the first
 * triangle only, and then nothing more is recorded anywhere. */
static void strip_records_and_room(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g);
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_SIZE(0), 64);
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_SIZE(1), 10);
    uint32_t offs[4] = { 2, 0, 0, 0 };
    strip4(&g, offs);
    const unsigned order[6] = { 0, 1, 2, 2, 1, 3 };
    assert_int_equal(offs[0], 2 + 3 * 4);
    assert_int_equal(offs[1], 3 * 2);
    assert_int_equal(dword(&g, BUF0_OFF, 0), SENTINEL);
    assert_int_equal(dword(&g, BUF0_OFF, 1), SENTINEL);
    for (unsigned r = 0; r < 3; r++) {
        for (unsigned c = 0; c < 4; c++)
            assert_int_equal(dword(&g, BUF0_OFF, 2 + 4 * r + c), 10 * order[r] + c);
        assert_int_equal(dword(&g, BUF1_OFF, 2 * r), SENTINEL);   /* not in the comp mask */
        assert_int_equal(dword(&g, BUF1_OFF, 2 * r + 1), 100 + order[r]);
    }
    assert_int_equal(dword(&g, BUF0_OFF, 2 + 12), SENTINEL);
    assert_int_equal(dword(&g, BUF1_OFF, 6), SENTINEL);

    /* room for both: appended after what is there, in strip order */
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_SIZE(1), 6 + 12);
    strip4(&g, offs);
    assert_int_equal(offs[0], 2 + 9 * 4);
    assert_int_equal(offs[1], 9 * 2);
    for (unsigned r = 0; r < 6; r++) {
        for (unsigned c = 0; c < 4; c++)
            assert_int_equal(dword(&g, BUF0_OFF, 2 + 4 * (3 + r) + c), 10 * order[r] + c);
        assert_int_equal(dword(&g, BUF1_OFF, 2 * (3 + r) + 1), 100 + order[r]);
    }
    rig_free(&g);
}

/* Stream-out off (STREAMOUT_0_EN clear, or no buffer of stream 0): nothing
 * written, offsets unchanged. */
static void off_writes_nothing(void **state)
{
    (void)state;
    struct rig g;
    rig_init(&g);
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_SIZE(0), 64);
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_SIZE(1), 64);
    uint32_t offs[4] = { 0, 0, 0, 0 };
    scene_set_reg(g.regs, REG_VGT_STRMOUT_CONFIG, 0);
    strip4(&g, offs);
    scene_set_reg(g.regs, REG_VGT_STRMOUT_CONFIG, S_VGT_STRMOUT_CONFIG__STREAMOUT_0_EN(1));
    scene_set_reg(g.regs, REG_VGT_STRMOUT_BUFFER_CONFIG, S_VGT_STRMOUT_BUFFER_CONFIG__STREAM_1_BUFFER_EN(3));
    strip4(&g, offs);
    assert_int_equal(offs[0], 0);
    assert_int_equal(offs[1], 0);
    assert_int_equal(dword(&g, BUF0_OFF, 0), SENTINEL);
    assert_int_equal(dword(&g, BUF1_OFF, 1), SENTINEL);
    rig_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strip_records_and_room),
        cmocka_unit_test(off_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
