/* The draw's whole-block path (draw.c shade_block: a fully covered 8x8
 * block handed to the batched pixel stage as 64 pixels, weights stepped
 * from the rasteriser's integer edge values) against the per-pixel path it
 * stands for (every pixel through on_pixel / shade_and_write), byte for
 * byte over the scene's whole memory (colour samples, FMask, CMask, resolve
 * target, programs) and in the render counters: the demo scene through the
 * Evergreen interpreter at 2, 4 and 8 samples, with random triangles
 * (some partly off screen, so clipped; both windings) and random vertex
 * colours (inside and outside [0, 1]) over random FMask bytes (a fast clear
 * leaves the last frame's FMask), drawn twice without a clear in between
 * (the second draw meets expanded tiles), on one and on three threads.
 * Also: the colour block's branch-free 8-bit UNORM stores against cb_write
 * under every export mode, with colours at the conversion's edges; and the
 * whole-tile store from the pixel shader batch's lanes
 * (cb_write_whole_tile_lanes) against cb_write the same way.  And the
 * quad path (a pixel shader reading its neighbours runs in 2x2 quads with
 * helper pixels) against the per-pixel path on a program whose exports
 * do not depend on them.  And the wave's batches of several primitives'
 * pixels (points, lines, small triangles in one draw) against the
 * per-pixel path.  And early Z (depth and stencil tested before the
 * batched pixel stage, which a block with nothing passing skips) against
 * the per-pixel path's tests after shading. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "common/test_util.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define TRIALS 3

static float uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)(test_rand() % 100001u) / 100000.0f;
}

/* One trial's inputs, the same for both paths. */
struct trial {
    float pos[2][3][3], color[2][3][3];
    unsigned threads;
    bool per_sample;       /* PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE */
};

static void random_trial(struct trial *t, unsigned k)
{
    for (int draw = 0; draw < 2; draw++)
        for (int v = 0; v < 3; v++) {
            for (int c = 0; c < 2; c++)
                t->pos[draw][v][c] = uniform(-1.3f, 1.3f);
            t->pos[draw][v][2] = uniform(0.0f, 0.5f);
            for (int c = 0; c < 3; c++)
                t->color[draw][v][c] = uniform(-0.25f, 1.25f);
        }
    t->threads = k % 2 ? 3 : 1;
    t->per_sample = false;
}

static void set_triangle(struct scene *sc, const struct eg_demo_shaders *sh, const struct trial *t, int draw)
{
    uint8_t *vb = sc->mem + (sc->vtx_addr - sc->gpu_base);
    for (int v = 0; v < 3; v++) {
        memcpy(vb + v * sc->vtx_stride + sh->pos_offset, t->pos[draw][v], 12);
        memcpy(vb + v * sc->vtx_stride + sh->color_offset, t->color[draw][v], 12);
    }
}

/* Where a replacement pixel shader goes: past the scene's programs and
 * vertex buffer, inside its 16 KB (render_scene.c EXTRA_BYTES). */
#define PS_OFFSET 0x3000u

/* The scene drawn twice with the trial's triangles; the memory is left in
 * sc.  ps: a pixel shader in place of the demo's (NULL: the demo's);
 * one_at_a_time: the interpreter pixel by pixel (scene_pixel_at_a_time). */
static bool one_at_a_time;
/* SPI_BARYC_CNTL in place of the scene's when not 0; a vertex shader in
 * place of the demo's when not NULL */
static uint32_t baryc_cntl;
static const struct eg_program *vs_override;
/* DB_COUNT_CONTROL.ZPASS_INCREMENT_DISABLE (the scene leaves it 0: counting) */
static bool no_zpass_count;
#define VS_OFFSET 0x3800u
/* scene_add_db before the draws */
static bool with_db;

/* Depth (Z_16) and stencil surfaces for the scene's window, 2D tiled with
 * ns samples, behind its buffers (its memory grown), tested as piglit's
 * manifest pass does: stencil EQUAL 0, INCR on a depth pass, depth LESS,
 * written.  Their bytes in 256-byte pieces (micro tiles, as the DB lays
 * them out) all passing, all failing or random: blocks where no sample
 * passes (early Z skips their pixel stage), where some do and where all
 * do. */
#define DB_W 1280u
#define DB_H 768u   /* the 720 rows rounded up to 2D macro tiles (64 rows) */
static void scene_add_db(struct scene *sc, unsigned ns)
{
    uint64_t zbytes = (uint64_t)DB_W * DB_H * 2 * ns, sbytes = (uint64_t)DB_W * DB_H * ns;
    uint64_t zaddr = (sc->gpu_base + sc->mem_size + 0xFFFFu) & ~0xFFFFull, saddr = zaddr + zbytes;
    uint64_t size = saddr + sbytes - sc->gpu_base;
    uint8_t *mem = realloc(sc->mem, size);
    assert_non_null(mem);
    sc->mem = mem;
    sc->mem_size = size;
    for (uint64_t i = 0; i < zbytes + sbytes; i += 256) {
        unsigned mode = test_rand() % 3;
        bool stencil = i >= zbytes;
        for (unsigned j = 0; j < 256; j++)
            mem[zaddr - sc->gpu_base + i + j] = mode == 0   ? (stencil ? 0x00 : 0xFF)    /* passes */
                                                : mode == 1 ? (stencil ? 0x01 : 0x00)  /* fails */
                                                            : (uint8_t)(test_rand() % 2 ? test_rand() : 0);
    }
    unsigned lns = ns == 8 ? 3 : ns == 4 ? 2 : ns == 2 ? 1 : 0;
    struct vc_regs *r = sc->regs;
    scene_set_reg(r, REG_DB_Z_INFO, S_DB_Z_INFO__FORMAT(V_DB_Z_FORMAT__Z_16) |
                                      S_DB_Z_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) |
                                      S_DB_Z_INFO__NUM_SAMPLES(lns) | S_DB_Z_INFO__NUM_BANKS(2) |
                                      S_DB_Z_INFO__TILE_SPLIT(6));
    scene_set_reg(r, REG_DB_STENCIL_INFO, S_DB_STENCIL_INFO__FORMAT(V_DB_STENCIL_FORMAT__STENCIL_8) |
                                            S_DB_STENCIL_INFO__TILE_SPLIT(6));
    scene_set_reg(r, REG_DB_DEPTH_SIZE, S_DB_DEPTH_SIZE__PITCH_TILE_MAX(DB_W / 8 - 1) |
                                          S_DB_DEPTH_SIZE__HEIGHT_TILE_MAX(DB_H / 8 - 1));
    scene_set_reg(r, REG_DB_Z_READ_BASE, (uint32_t)(zaddr >> 8));
    scene_set_reg(r, REG_DB_Z_WRITE_BASE, (uint32_t)(zaddr >> 8));
    scene_set_reg(r, REG_DB_STENCIL_READ_BASE, (uint32_t)(saddr >> 8));
    scene_set_reg(r, REG_DB_STENCIL_WRITE_BASE, (uint32_t)(saddr >> 8));
    scene_set_reg(r, REG_DB_DEPTH_CONTROL,
                  S_DB_DEPTH_CONTROL__Z_ENABLE(1) | S_DB_DEPTH_CONTROL__Z_WRITE_ENABLE(1) |
                      S_DB_DEPTH_CONTROL__ZFUNC(V_COMPARE_FUNC__STENCILFUNC_LESS) |
                      S_DB_DEPTH_CONTROL__STENCIL_ENABLE(1) |
                      S_DB_DEPTH_CONTROL__STENCILFUNC(V_COMPARE_FUNC__STENCILFUNC_EQUAL) |
                      S_DB_DEPTH_CONTROL__STENCILZPASS(V_STENCIL_OP__STENCIL_INCR));
    scene_set_reg(r, REG_DB_STENCILREFMASK,
                  S_DB_STENCILREFMASK__STENCILMASK(0xFF) | S_DB_STENCILREFMASK__STENCILWRITEMASK(0xFF));
    scene_set_float(r, REG_PA_SC_VPORT_ZMIN_0, 0.0f);
    scene_set_float(r, REG_PA_SC_VPORT_ZMAX_0, 1.0f);
}
static void render_trial_ps(struct scene *sc, unsigned ns, const struct trial *t, bool block_path,
                            const uint8_t *fmask_fill, const struct eg_program *ps, struct vc_render_stats *stats)
{
    char why[200] = "";
    struct eg_demo_shaders sh;
    assert_int_equal(eg_demo_shaders_build(&sh), 0);
    if (scene_init(sc, ns, why) || scene_use_demo_shaders(sc, why))
        fail_msg("scene %ux: %s", ns, why);
    if (ps) {
        uint64_t at = sc->extra_addr + PS_OFFSET;
        memset(sc->mem + (at - sc->gpu_base), 0, ps->ndw * 4 + 256);   /* a program runs to the end of its buffer */
        memcpy(sc->mem + (at - sc->gpu_base), ps->dw, ps->ndw * 4);
        scene_set_reg(sc->regs, REG_SQ_PGM_START_PS, (uint32_t)(at >> 8));
    }
    if (one_at_a_time)
        scene_pixel_at_a_time(sc);
    if (baryc_cntl)
        scene_set_reg(sc->regs, REG_SPI_BARYC_CNTL, baryc_cntl);
    if (no_zpass_count)   /* as the demo programs it: the DB then has nothing to do */
        scene_set_reg(sc->regs, REG_DB_COUNT_CONTROL, S_DB_COUNT_CONTROL__ZPASS_INCREMENT_DISABLE(1));
    if (with_db)
        scene_add_db(sc, ns);
    if (vs_override) {
        uint64_t at = sc->extra_addr + VS_OFFSET;
        memset(sc->mem + (at - sc->gpu_base), 0, vs_override->ndw * 4 + 256);
        memcpy(sc->mem + (at - sc->gpu_base), vs_override->dw, vs_override->ndw * 4);
        scene_set_reg(sc->regs, REG_SQ_PGM_START_VS, (uint32_t)(at >> 8));
    }
    vc_render_set_block_path(sc->r, block_path);
    vc_render_set_threads(sc->r, t->threads);
    memcpy(sc->mem + (sc->color_addr - sc->gpu_base) + sc->lay.fmask.offset, fmask_fill, sc->lay.fmask.surf.size);
    if (t->per_sample)
        scene_set_reg(sc->regs, REG_PA_SC_MODE_CNTL_1, S_PA_SC_MODE_CNTL_1__PS_ITER_SAMPLE(1));
    for (int draw = 0; draw < 2; draw++) {
        set_triangle(sc, &sh, t, draw);
        if (scene_render(sc, why))
            fail_msg("scene %ux draw %d: %s", ns, draw, why);
    }
    vc_render_get_stats(sc->r, stats);
}

static void render_trial(struct scene *sc, unsigned ns, const struct trial *t, bool block_path,
                         const uint8_t *fmask_fill, struct vc_render_stats *stats)
{
    render_trial_ps(sc, ns, t, block_path, fmask_fill, NULL, stats);
}

/* Two renderings of a trial: the same memory, byte for byte, and counters. */
static void same_result(const struct scene *a, const struct scene *b, const struct vc_render_stats *as,
                        const struct vc_render_stats *bs, unsigned ns, unsigned k)
{
    assert_int_equal(a->mem_size, b->mem_size);
    if (memcmp(a->mem, b->mem, a->mem_size) != 0) {
        size_t i = 0;
        while (a->mem[i] == b->mem[i])
            i++;
        fail_msg("%ux trial %u: memory differs first at byte 0x%zx", ns, k, i);
    }
    assert_int_equal(as->pixels_shaded, bs->pixels_shaded);
    assert_int_equal(as->samples_written, bs->samples_written);
}

static void block_path_matches_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4, 8};
    test_rand_seed(0xB10C);
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        uint64_t blocks_total = 0;
        for (unsigned k = 0; k < TRIALS; k++) {
            struct trial t;
            random_trial(&t, k);
            struct scene fast, slow;
            struct vc_render_stats fs, ss;
            /* the FMask's old bytes: sized from a scene of this sample count */
            struct scene probe;
            char why[200] = "";
            if (scene_init(&probe, ns, why))
                fail_msg("scene %ux: %s", ns, why);
            size_t fsize = probe.lay.fmask.surf.size;
            scene_free(&probe);
            uint8_t *fill = malloc(fsize);
            assert_non_null(fill);
            for (size_t i = 0; i < fsize; i++)
                fill[i] = (uint8_t)test_rand();
            render_trial(&fast, ns, &t, true, fill, &fs);
            render_trial(&slow, ns, &t, false, fill, &ss);
            same_result(&fast, &slow, &fs, &ss, ns, k);
            assert_int_equal(ss.blocks_batched, 0);
            printf("%ux trial %u (%u thread%s): %llu blocks whole, %llu pixels shaded: equal\n", ns, k, t.threads,
                   t.threads > 1 ? "s" : "", (unsigned long long)fs.blocks_batched,
                   (unsigned long long)fs.pixels_shaded);
            blocks_total += fs.blocks_batched;
            free(fill);
            scene_free(&fast);
            scene_free(&slow);
        }
        /* random triangles over a 1280x720 screen cover thousands of blocks */
        assert_true(blocks_total > 1000);
    }
}

/* A program's start: the demo's colour interpolated at the centre
 * (INTERP_ZW and INTERP_XY from the I, J in R0.xy, or with `linear` in
 * R0.zw: the SPI's second pair) into R1. */
static void interp_colour_from(struct eg_asm *as, bool linear)
{
    eg_asm_init(as);
    eg_asm_alu_clause(as, V_SQ_CF_ALU_INST__ALU, NULL);
    static const unsigned ops[2] = {V_SQ_ALU_OP2__INTERP_ZW, V_SQ_ALU_OP2__INTERP_XY};
    for (unsigned g = 0; g < 2; g++)
        for (unsigned c = 0; c < 4; c++)
            eg_asm_alu(as, &(struct eg_alu){
                .op = ops[g],
                .dst = {.gpr = 1, .chan = (uint8_t)c, .write = g == 0 ? c >= 2 : c < 2},
                .src = {eg_src_gpr(0, linear ? ((c & 1) ? V_SQ_CHAN__Z : V_SQ_CHAN__W)
                                             : ((c & 1) ? V_SQ_CHAN__X : V_SQ_CHAN__Y)),
                        eg_src_special(V_SQ_ALU_SRC__PARAM_BASE, V_SQ_CHAN__X)},
                .bank_swizzle = V_SQ_ALU_VEC_BANK_SWIZZLE__VEC_210,
                .last = c == 3,
            });
}

static void interp_colour(struct eg_asm *as)
{
    interp_colour_from(as, false);
}

/* The program's last instruction, R1's export to colour 0; encoded into p. */
static void export_r1(struct eg_asm *as, uint32_t *w, size_t cap, struct eg_program *p)
{
    eg_asm_export(as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__PIXEL, .array_base = 0, .gpr = 1,
                                          .sel = EG_SWZ_XYZW, .done = true});
    size_t ndw;
    if (eg_asm_finish(as, true, w, cap, &ndw))
        fail_msg("encoder: %s", as->err);
    *p = (struct eg_program){"PS", w, ndw};
}

/* Zeros as a scene of ns samples' FMask bytes (freed by the caller). */
static uint8_t *zero_fmask(unsigned ns)
{
    struct scene probe;
    char why[200] = "";
    if (scene_init(&probe, ns, why))
        fail_msg("scene %ux: %s", ns, why);
    size_t fsize = probe.lay.fmask.surf.size ? probe.lay.fmask.surf.size : 1;
    scene_free(&probe);
    uint8_t *fill = calloc(1, fsize);
    assert_non_null(fill);
    return fill;
}

/* The demo's pixel shader (the colour interpolated at the centre: INTERP_ZW
 * and INTERP_XY from the I, J in R0 into R1, exported) plus a texture
 * clause taking the colour's derivatives into R2 and R3, which nothing
 * exports: a program that reads its quad's neighbours, so the renderer
 * runs it in 2x2 quads, with the demo's result. */
static void neighbour_ps(uint32_t *w, size_t cap, struct eg_program *p)
{
    struct eg_asm as;
    interp_colour(&as);
    eg_asm_tex_clause(&as);
    for (unsigned k = 0; k < 2; k++)
        eg_asm_tex(&as, &(struct eg_tex){.inst = k ? V_SQ_TEX_INST__GET_GRADIENTS_V : V_SQ_TEX_INST__GET_GRADIENTS_H,
                                         .inst_mod = k, .src_gpr = 1, .src_sel = EG_SWZ_XYZW, .dst_gpr = 2 + k,
                                         .dst_sel = EG_SWZ_XYZW});
    export_r1(&as, w, cap, p);
}

/* The quad path (draw.c on_quad: rs_triangle_quads, four lanes with helper
 * pixels, render_shade_quad) against the per-pixel path for a program whose
 * exports do not depend on the neighbours: byte for byte the same memory
 * and counters, at 2, 4 and 8 samples (2x also shading per sample), two
 * draws without a clear.  Checked by hand when this was written: on_quad
 * dropping lane 3's write fails it. */
static void quad_path_matches_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4, 8};
    uint32_t words[256];
    struct eg_program ps;
    neighbour_ps(words, 256, &ps);
    test_rand_seed(0x9A4D);
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        for (unsigned k = 0; k < 2; k++) {
            struct trial t;
            random_trial(&t, 0);
            t.per_sample = ns == 2 && k == 1;
            struct scene quad, pix;
            uint8_t *fill = zero_fmask(ns);
            struct vc_render_stats qs, pst;
            render_trial_ps(&quad, ns, &t, false, fill, &ps, &qs);
            render_trial(&pix, ns, &t, false, fill, &pst);
            /* the programs differ; everything else must not */
            size_t ps_at = (size_t)(quad.extra_addr + PS_OFFSET - quad.gpu_base);
            memcpy(pix.mem + ps_at, quad.mem + ps_at, ps.ndw * 4);
            same_result(&quad, &pix, &qs, &pst, ns, k);
            assert_true(qs.pixels_shaded > 1000);
            printf("%ux trial %u: %llu pixels shaded in quads: equal\n", ns, k, (unsigned long long)qs.pixels_shaded);
            free(fill);
            scene_free(&quad);
            scene_free(&pix);
        }
    }
}

/* The demo's interpolation, then control flow the batch does not take,
 * as Mesa lays out an if / else: if (colour.x > 0.5) colour.y = 1 - colour.y
 * else { KILL if colour.z < 0.2; colour.w = colour.z * 2 }; with quads, a
 * derivative (GET_GRADIENTS_H of the colour) added to x in the else branch. */
static void branching_ps(uint32_t *w, size_t cap, bool quads, struct eg_program *p)
{
    struct eg_asm as;
    interp_colour(&as);                                                               /* 0 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU_PUSH_BEFORE, NULL);                  /* 1 */
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__PRED_SETGT, .dst = {.gpr = 2, .chan = 0},
                                     .src = {eg_src_gpr(1, 0), eg_src_special(V_SQ_ALU_SRC__HALF, 0)},
                                     .update_exec_mask = true, .update_pred = true, .last = true});
    eg_asm_flow(&as, V_SQ_CF_INST__JUMP, 4, 0, V_SQ_CF_COND__ACTIVE);                /* 2 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                              /* 3 */
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__ADD, .dst = {.gpr = 1, .chan = 1, .write = true},
                                     .src = {eg_src_special(V_SQ_ALU_SRC__ONE, 0), {.sel = 1, .chan = 1, .neg = true}},
                                     .last = true});
    eg_asm_flow(&as, V_SQ_CF_INST__ELSE, quads ? 8 : 7, 1, V_SQ_CF_COND__ACTIVE);     /* 4 */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);                              /* 5 */
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__KILLGT, .dst = {.gpr = 2, .chan = 1},
                                     .src = {eg_src_lit_f(0.2f), eg_src_gpr(1, 2)}, .last = true});
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__MUL, .dst = {.gpr = 1, .chan = 3, .write = true},
                                     .src = {eg_src_gpr(1, 2), eg_src_lit_f(2.0f)}, .last = true});
    if (quads) {
        eg_asm_tex_clause(&as);                                                       /* 6 */
        eg_asm_tex(&as, &(struct eg_tex){.inst = V_SQ_TEX_INST__GET_GRADIENTS_H, .src_gpr = 1,
                                         .src_sel = EG_SWZ_XYZW, .dst_gpr = 3, .dst_sel = EG_SWZ_XYZW});
        eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU_POP_AFTER, NULL);                /* 7 */
        eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__ADD, .dst = {.gpr = 1, .chan = 0, .write = true},
                                         .src = {eg_src_gpr(1, 0), eg_src_gpr(3, 2)}, .last = true});
    } else {
        eg_asm_cf(&as, V_SQ_CF_INST__POP);                                            /* 6 */
    }
    export_r1(&as, w, cap, p);                                                        /* 7 / 8 */
}

/* A program with control flow and KILL runs through the wave (draw.c's
 * pixel queue, render_shade_pixels, eg_wave; 1 or 3 threads): the same
 * memory and counters as the interpreter pixel by pixel, per pixel and
 * per sample.  With a derivative (quads: on_quad's queue, flush_quads),
 * 3 threads against 1. */
static void wave_path_matches_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4, 8};
    uint32_t words[2][256];
    struct eg_program ps[2];
    branching_ps(words[0], 256, false, &ps[0]);
    branching_ps(words[1], 256, true, &ps[1]);
    test_rand_seed(0x3A7E);
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        for (unsigned k = 0; k < 4; k++) {
            bool quads = k >= 2;
            struct trial t;
            random_trial(&t, k);
            t.per_sample = ns == 2 && (k & 1);
            struct scene fast, slow;
            uint8_t *fill = zero_fmask(ns);
            struct vc_render_stats fs, ss;
            t.threads = quads ? 3 : t.threads;
            render_trial_ps(&fast, ns, &t, true, fill, &ps[quads], &fs);
            if (quads)
                t.threads = 1;
            one_at_a_time = !quads;
            render_trial_ps(&slow, ns, &t, true, fill, &ps[quads], &ss);
            one_at_a_time = false;
            same_result(&fast, &slow, &fs, &ss, ns, k);
            assert_true(fs.pixels_shaded > 1000);
            printf("%ux trial %u (%s): %llu pixels shaded: equal\n", ns, k,
                   quads ? "quads, 3 threads against 1" : "pixels, wave against one at a time",
                   (unsigned long long)fs.pixels_shaded);
            free(fill);
            scene_free(&fast);
            scene_free(&slow);
        }
    }
}

/* Many small primitives in one draw through the wave: a primitive's pixels
 * wait for the next primitives' (draw.c seal_pending: a batch of several
 * primitives, each lane with its own primitive's inputs and weights; the
 * same pixel again only after a flush; all flushed before a primitive
 * large enough for the threads and at the draw's end).  Points of random
 * sizes, lines of random widths and triangles, in a small part of the
 * screen so that they share micro tiles and cover each other's pixels, with
 * random colours, and one large triangle among them: the same memory and
 * counters as the interpreter pixel by pixel, at 2, 4 and 8 samples (2x
 * also per sample), on 1 and 3 threads. */
#define CARRY_VERTICES 300u

static float ndc_near(float c, float spread)
{
    return c + uniform(-spread, spread);
}

static void render_carried(struct scene *sc, unsigned ns, unsigned prim, const float (*pos)[3],
                           const float (*col)[3], unsigned n, unsigned threads, bool per_sample, bool at_a_time,
                           const struct eg_program *ps, struct vc_render_stats *stats)
{
    char why[200] = "";
    struct eg_demo_shaders sh;
    assert_int_equal(eg_demo_shaders_build(&sh), 0);
    if (scene_init(sc, ns, why) || scene_use_demo_shaders(sc, why))
        fail_msg("scene %ux: %s", ns, why);
    uint64_t at = sc->extra_addr + PS_OFFSET;
    memset(sc->mem + (at - sc->gpu_base), 0, ps->ndw * 4 + 256);
    memcpy(sc->mem + (at - sc->gpu_base), ps->dw, ps->ndw * 4);
    scene_set_reg(sc->regs, REG_SQ_PGM_START_PS, (uint32_t)(at >> 8));
    /* the primitives' vertices, then the resolve's three (the scene's 3..5) */
    uint8_t *vb = sc->mem + (sc->vtx_addr - sc->gpu_base);
    assert_true(sc->vtx_addr + (uint64_t)(n + 3) * sc->vtx_stride <= at);
    uint8_t rect[3][64];
    assert_true(sc->vtx_stride <= sizeof rect[0]);
    memcpy(rect, vb + 3 * sc->vtx_stride, 3 * sc->vtx_stride);
    for (unsigned v = 0; v < n; v++) {
        memcpy(vb + v * sc->vtx_stride + sh.pos_offset, pos[v], 12);
        memcpy(vb + v * sc->vtx_stride + sh.color_offset, col[v], 12);
    }
    memcpy(vb + n * sc->vtx_stride, rect, 3 * sc->vtx_stride);
    sc->tri_vertices = n;
    sc->tri_prim = prim;
    if (at_a_time)
        scene_pixel_at_a_time(sc);
    /* the DB idle (the scene counts samples that pass): pixels wait only then */
    scene_set_reg(sc->regs, REG_DB_COUNT_CONTROL, S_DB_COUNT_CONTROL__ZPASS_INCREMENT_DISABLE(1));
    vc_render_set_threads(sc->r, threads);
    if (per_sample)
        scene_set_reg(sc->regs, REG_PA_SC_MODE_CNTL_1, S_PA_SC_MODE_CNTL_1__PS_ITER_SAMPLE(1));
    /* points 0.25 .. 3 pixels wide and high, lines 0.25 .. 3 wide */
    scene_set_reg(sc->regs, REG_PA_SU_POINT_SIZE,
                  S_PA_SU_POINT_SIZE__WIDTH(2 + test_rand() % 23) | S_PA_SU_POINT_SIZE__HEIGHT(2 + test_rand() % 23));
    scene_set_reg(sc->regs, REG_PA_SU_LINE_CNTL, S_PA_SU_LINE_CNTL__WIDTH(2 + test_rand() % 23));
    if (scene_render(sc, why))
        fail_msg("scene %ux: %s", ns, why);
    vc_render_get_stats(sc->r, stats);
}

static void carried_pixels_match_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4, 8};
    static const unsigned prims[3] = {V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST, V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST,
                                      V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST};
    uint32_t words[256];
    struct eg_program ps;
    branching_ps(words, 256, false, &ps);
    test_rand_seed(0xCA77);
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        for (unsigned k = 0; k < 6; k++) {
            unsigned prim = prims[k % 3];
            unsigned n = CARRY_VERTICES, big = (n / 2) / 3 * 3;
            float pos[CARRY_VERTICES][3], col[CARRY_VERTICES][3];
            /* a spot of about 50 x 50 pixels of the 1280 x 720 screen */
            float cx = uniform(-0.5f, 0.5f), cy = uniform(-0.5f, 0.5f);
            for (unsigned v = 0; v < n; v++) {
                pos[v][0] = ndc_near(cx, 0.04f);
                pos[v][1] = ndc_near(cy, 0.07f);
                if (prim == V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST && v % 3) {
                    /* a triangle of a few pixels */
                    pos[v][0] = ndc_near(pos[v - v % 3][0], 0.01f);
                    pos[v][1] = ndc_near(pos[v - v % 3][1], 0.02f);
                }
                pos[v][2] = uniform(0.0f, 0.5f);
                for (int c = 0; c < 3; c++)
                    col[v][c] = uniform(-0.25f, 1.25f);
            }
            if (prim == V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST && k >= 3) {
                /* a triangle of some 40000 pixels: the threads take it */
                const float corner[3][2] = {{cx - 0.4f, cy - 0.4f}, {cx + 0.4f, cy - 0.4f}, {cx, cy + 0.4f}};
                for (unsigned v = 0; v < 3; v++)
                    memcpy(pos[big + v], corner[v], sizeof corner[v]);
            }
            unsigned threads = k >= 3 ? 3 : 1;
            bool per_sample = ns == 2 && k % 2;
            struct scene fast, slow;
            struct vc_render_stats fs, ss;
            uint32_t seed = test_rand();
            test_rand_seed(seed);   /* the same point size and line width on both sides */
            render_carried(&fast, ns, prim, (const float(*)[3])pos, (const float(*)[3])col, n, threads, per_sample,
                           false, &ps, &fs);
            test_rand_seed(seed);
            render_carried(&slow, ns, prim, (const float(*)[3])pos, (const float(*)[3])col, n, 1, per_sample, true,
                           &ps, &ss);
            same_result(&fast, &slow, &fs, &ss, ns, k);
            assert_true(fs.pixels_shaded > 100);
            printf("%ux trial %u (%s, %u thread%s%s): %llu pixels shaded: equal\n", ns, k,
                   prim == V_VGT_DI_PRIM_TYPE__DI_PT_POINTLIST  ? "points"
                   : prim == V_VGT_DI_PRIM_TYPE__DI_PT_LINELIST ? "lines"
                                                                : "triangles",
                   threads, threads > 1 ? "s" : "", per_sample ? ", per sample" : "",
                   (unsigned long long)fs.pixels_shaded);
            scene_free(&fast);
            scene_free(&slow);
        }
    }
}

/* The demo's vertex shader with each position scaled by s = 1 + 2 z
 * (x, y, z times s, w = s): the same place on screen, but vertices of
 * different w, so perspective-correct weights differ from linear ones. */
static void w_scaling_vs(uint32_t *w, size_t cap, struct eg_program *p)
{
    struct eg_asm as;
    eg_asm_init(&as);
    eg_asm_call_fs(&as);   /* R1 = position, R2 = colour; R0 (the index) is free */
    eg_asm_alu_clause(&as, V_SQ_CF_ALU_INST__ALU, NULL);
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__MUL, .dst = {.gpr = 0, .chan = 0, .write = true},
                                     .src = {eg_src_gpr(1, 2), eg_src_lit_f(2.0f)}, .last = true});
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__ADD, .dst = {.gpr = 0, .chan = 0, .write = true},
                                     .src = {eg_src_gpr(0, 0), eg_src_special(V_SQ_ALU_SRC__ONE, 0)},
                                     .last = true});
    for (unsigned c = 0; c < 4; c++)
        eg_asm_alu(&as, &(struct eg_alu){.op = c < 3 ? V_SQ_ALU_OP2__MUL : V_SQ_ALU_OP2__MOV,
                                         .dst = {.gpr = 1, .chan = (uint8_t)c, .write = true},
                                         .src = {c < 3 ? eg_src_gpr(1, c) : eg_src_gpr(0, 0), eg_src_gpr(0, 0)},
                                         .last = c == 3});
    eg_asm_export(&as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__POS, .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0,
                                          .gpr = 1, .sel = EG_SWZ_XYZW, .done = true});
    eg_asm_export(&as, &(struct eg_export){.type = V_SQ_EXPORT_TYPE__PARAM, .array_base = 0, .gpr = 2,
                                          .sel = EG_SWZ_XYZW, .done = true});
    size_t ndw;
    if (eg_asm_finish(&as, true, w, cap, &ndw))
        fail_msg("encoder: %s", as.err);
    *p = (struct eg_program){"VS", w, ndw};
}

/* The whole-block path's own routes (draw.c shade_block: the weights as
 * arrays straight into the batch, the tile written from the lanes without
 * pending[]) against the per-pixel path, byte for byte: the colour
 * interpolated with the linear pair (SPI_BARYC_CNTL asking for both centre
 * pairs: the perspective one in R0.xy, the linear one in R0.zw) over
 * vertices of different w (w_scaling_vs), and the demo's colour with a
 * KILL of the pixels whose blue is under 0.4 (blocks with killed pixels go
 * through pending[]); each with the DB counting samples and with it idle
 * (then the tile goes from the lanes to memory without pending[]).
 * Checked by hand when this was written: handing the
 * block the perspective pair as the linear one fails the first, writing
 * blocks with killed pixels from the lanes fails the second. */
static void block_routes_match_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4, 8};
    uint32_t words[2][256], vs_words[256];
    struct eg_program ps[2], vs;
    w_scaling_vs(vs_words, 256, &vs);
    struct eg_asm as;
    interp_colour_from(&as, true);
    export_r1(&as, words[0], 256, &ps[0]);
    interp_colour(&as);   /* the KILL in the same clause: a program the batch takes */
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__KILLGT, .dst = {.gpr = 2, .chan = 1},
                                     .src = {eg_src_lit_f(0.4f), eg_src_gpr(1, 2)}, .last = true});
    export_r1(&as, words[1], 256, &ps[1]);
    test_rand_seed(0xB10D);
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        for (unsigned k = 0; k < 4; k++) {
            struct trial t;
            random_trial(&t, si + k);
            bool idle = k >= 2;
            no_zpass_count = idle;
            bool kill = k & 1;
            baryc_cntl = kill ? 0 : S_SPI_BARYC_CNTL__PERSP_CENTER_ENA(1) | S_SPI_BARYC_CNTL__LINEAR_CENTER_ENA(1);
            vs_override = kill ? NULL : &vs;
            struct scene fast, slow;
            uint8_t *fill = zero_fmask(ns);
            struct vc_render_stats fs, ss;
            render_trial_ps(&fast, ns, &t, true, fill, &ps[kill], &fs);
            render_trial_ps(&slow, ns, &t, false, fill, &ps[kill], &ss);
            baryc_cntl = 0;
            vs_override = NULL;
            no_zpass_count = false;
            same_result(&fast, &slow, &fs, &ss, ns, k);
            assert_true(fs.blocks_batched > 100);
            printf("%ux %s, DB %s: %llu blocks whole, %llu pixels shaded: equal\n", ns, kill ? "kill" : "linear",
                   idle ? "idle" : "counting",
                   (unsigned long long)fs.blocks_batched, (unsigned long long)fs.pixels_shaded);
            free(fill);
            scene_free(&fast);
            scene_free(&slow);
        }
    }
}

/* Early Z (draw.c early_z: a block's depth and stencil tests before its
 * batched pixel stage, which it skips when no sample passed) against the
 * per-pixel path, which tests after shading: the same bytes (colour,
 * depth, stencil), pixels shaded, samples written and ZPASS count, over
 * scene_add_db's surfaces, at 2 and 4 samples, on one and three threads;
 * with the demo's program and with one that may KILL (early Z must not
 * run: the kill decides what the DB sees).  Checked by hand when this was
 * written: early Z for a program that may kill fails it, and so does a
 * skipped block not counted as shaded. */
static void early_z_matches_pixels(void **state)
{
    (void)state;
    static const unsigned sample_counts[] = {2, 4};
    uint32_t words[256];
    struct eg_program kill_ps;
    struct eg_asm as;
    interp_colour(&as);
    eg_asm_alu(&as, &(struct eg_alu){.op = V_SQ_ALU_OP2__KILLGT, .dst = {.gpr = 2, .chan = 1},
                                     .src = {eg_src_lit_f(0.4f), eg_src_gpr(1, 2)}, .last = true});
    export_r1(&as, words, 256, &kill_ps);
    test_rand_seed(0xEA21);
    with_db = true;
    for (unsigned si = 0; si < sizeof sample_counts / sizeof sample_counts[0]; si++) {
        unsigned ns = sample_counts[si];
        for (unsigned k = 0; k < 4; k++) {
            struct trial t;
            random_trial(&t, k);
            bool kill = k >= 2;
            struct scene fast, slow;
            uint8_t *fill = zero_fmask(ns);
            struct vc_render_stats fs, ss;
            uint64_t seed = test_rand();
            test_rand_seed(seed);   /* the same surfaces' bytes both times */
            render_trial_ps(&fast, ns, &t, true, fill, kill ? &kill_ps : NULL, &fs);
            test_rand_seed(seed);
            render_trial_ps(&slow, ns, &t, false, fill, kill ? &kill_ps : NULL, &ss);
            same_result(&fast, &slow, &fs, &ss, ns, k);
            assert_int_equal(fs.zpass_samples, ss.zpass_samples);
            assert_true(fs.blocks_batched > 100);
            /* some samples passed, not all */
            assert_true(fs.zpass_samples > 1000);
            assert_true(fs.zpass_samples < fs.pixels_shaded * ns);
            printf("%ux%s (%u thread%s): %llu blocks whole, %llu pixels shaded, %llu samples passed: equal\n", ns,
                   kill ? " kill" : "", t.threads, t.threads > 1 ? "s" : "", (unsigned long long)fs.blocks_batched,
                   (unsigned long long)fs.pixels_shaded, (unsigned long long)fs.zpass_samples);
            free(fill);
            scene_free(&fast);
            scene_free(&slow);
        }
    }
    with_db = false;
}

/* cb_write_tile's 8-bit UNORM stores (its own per-fragment path and the
 * whole-tile path, both through the branch-free conversion in cb.c) against
 * cb_write (cb_export_convert + cb_pack) fragment by fragment, under each
 * export mode: 16-bit export or not, rounding or truncating. */
static void unorm8_stores_match_cb_write(void **state)
{
    (void)state;
    test_rand_seed(0x0E8B17u);
    struct scene sc;
    test_scene_render_demo(&sc, 4);
    size_t size = (size_t)sc.mem_size;
    uint8_t *before = malloc(size), *fast = malloc(size);
    struct cb_target *t = calloc(1, sizeof *t);
    assert_non_null(before);
    assert_non_null(fast);
    assert_non_null(t);
    const float cst[4] = {0, 0, 0, 0};
    unsigned whole = 0, tiles = 0;
    for (unsigned trial = 0; trial < 64; trial++) {
        bool e16 = trial & 1, trunc = (trial >> 1) & 1;
        struct vc_draw_err err = {{0}};
        assert_int_equal(cb_target_init(sc.r, t, 0, 4, sc.regs, &sc.vmem, &err), 0);
        /* a tile anywhere: fast-cleared (whole-tile path) or not */
        unsigned x0 = (test_rand() % (t->width / 8)) * 8, y0 = (test_rand() % (t->height / 8 - 1)) * 8;
        bool cleared = cb_tile_cleared(t, x0, y0);
        float rgba[64][4];
        struct cb_fragment f[64];
        for (unsigned l = 0; l < 64; l++) {
            for (unsigned c = 0; c < 4; c++)
                rgba[l][c] = test_rand_colour_channel();
            f[l] = (struct cb_fragment){x0 + l % 8, y0 + l / 8, 0xFu, rgba[l], NULL};
        }
        memcpy(before, sc.mem, size);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        cb_write_tile(t, cst, f, 64);
        memcpy(fast, sc.mem, size);
        memcpy(sc.mem, before, size);
        assert_int_equal(cb_target_init(sc.r, t, 0, 4, sc.regs, &sc.vmem, &err), 0);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        for (unsigned l = 0; l < 64; l++)
            cb_write(t, cst, f[l].x, f[l].y, f[l].coverage, f[l].rgba);
        if (memcmp(fast, sc.mem, size) != 0)
            fail_msg("trial %u (16-bit export %d, truncate %d, tile %u,%u %s): cb_write_tile differs from cb_write",
                     trial, e16, trunc, x0, y0, cleared ? "cleared" : "expanded");
        whole += cleared;
        tiles++;
        memcpy(sc.mem, before, size);
    }
    printf("%u tiles (%u fast-cleared) in 4 export modes: cb_write_tile equal to cb_write\n", tiles, whole);
    assert_true(whole > 8 && whole < tiles);
    free(t);
    free(fast);
    free(before);
    scene_free(&sc);
}

/* cb_write_whole_tile_lanes (the 64 colours read in place from planar
 * lanes, as the pixel shader batch leaves them) against cb_write fragment by
 * fragment, over fast-cleared tiles (the lanes path writes) and expanded ones
 * (it must decline and write nothing), under each export mode. */
static void lanes_store_matches_cb_write(void **state)
{
    (void)state;
    test_rand_seed(0x1A7E5u);
    struct scene sc;
    test_scene_render_demo(&sc, 4);
    size_t size = (size_t)sc.mem_size;
    uint8_t *before = malloc(size), *fast = malloc(size);
    struct cb_target *t = calloc(1, sizeof *t);
    assert_non_null(before);
    assert_non_null(fast);
    assert_non_null(t);
    const float cst[4] = {0, 0, 0, 0};
    unsigned written = 0, declined = 0;
    for (unsigned trial = 0; trial < 64; trial++) {
        bool e16 = trial & 1, trunc = (trial >> 1) & 1;
        struct vc_draw_err err = {{0}};
        assert_int_equal(cb_target_init(sc.r, t, 0, 4, sc.regs, &sc.vmem, &err), 0);
        unsigned x0 = (test_rand() % (t->width / 8)) * 8, y0 = (test_rand() % (t->height / 8 - 1)) * 8;
        uint32_t lane[4][64];
        float rgba[64][4];
        for (unsigned l = 0; l < 64; l++)
            for (unsigned c = 0; c < 4; c++) {
                rgba[l][c] = test_rand_colour_channel();
                memcpy(&lane[c][l], &rgba[l][c], 4);
            }
        const uint32_t *const lanes[4] = {lane[0], lane[1], lane[2], lane[3]};
        memcpy(before, sc.mem, size);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        bool took = cb_write_whole_tile_lanes(t, x0, y0, lanes);
        memcpy(fast, sc.mem, size);
        memcpy(sc.mem, before, size);
        if (!took) {
            if (memcmp(fast, before, size) != 0)
                fail_msg("trial %u (tile %u,%u): cb_write_whole_tile_lanes declined but wrote", trial, x0, y0);
            declined++;
            continue;
        }
        assert_int_equal(cb_target_init(sc.r, t, 0, 4, sc.regs, &sc.vmem, &err), 0);
        t->export_16bpc = e16;
        t->round_truncate = trunc;
        for (unsigned l = 0; l < 64; l++)
            cb_write(t, cst, x0 + l % 8, y0 + l / 8, 0xFu, rgba[l]);
        if (memcmp(fast, sc.mem, size) != 0)
            fail_msg("trial %u (16-bit export %d, truncate %d, tile %u,%u): cb_write_whole_tile_lanes differs "
                     "from cb_write",
                     trial, e16, trunc, x0, y0);
        written++;
        memcpy(sc.mem, before, size);
    }
    /* misaligned origins are not a tile: declined */
    struct vc_draw_err err = {{0}};
    assert_int_equal(cb_target_init(sc.r, t, 0, 4, sc.regs, &sc.vmem, &err), 0);
    uint32_t zero[64] = {0};
    const uint32_t *const zl[4] = {zero, zero, zero, zero};
    memcpy(before, sc.mem, size);
    assert_false(cb_write_whole_tile_lanes(t, 4, 0, zl));
    assert_memory_equal(before, sc.mem, size);
    printf("%u fast-cleared tiles written from lanes equal to cb_write, %u expanded tiles declined\n", written,
           declined);
    assert_true(written > 8 && declined > 0);
    free(t);
    free(fast);
    free(before);
    scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(block_path_matches_pixels),
        cmocka_unit_test(quad_path_matches_pixels),
        cmocka_unit_test(wave_path_matches_pixels),
        cmocka_unit_test(carried_pixels_match_pixels),
        cmocka_unit_test(block_routes_match_pixels),
        cmocka_unit_test(early_z_matches_pixels),
        cmocka_unit_test(unorm8_stores_match_cb_write),
        cmocka_unit_test(lanes_store_matches_cb_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
