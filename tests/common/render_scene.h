/* The reference scene of the seed write-up (and the demo's default frame),
 * drawn straight through vc_render_draw with a hand-programmed register file:
 * fast clear by CMask, one triangle into an FMask-compressed MSAA surface,
 * CB resolve into a 2D-tiled single-sample surface.  Used by the render
 * tests (the fidelity test compares it with the real card's frame); a test
 * double, so it lives with the tests, not in the library.
 *
 * Its shader stages are a FIXED-FUNCTION STAND-IN for the Evergreen
 * interpreter (render_scene.c: fixed_function_vertex / _pixel): positions and
 * colours from a table, colour interpolated at the pixel centre the way the
 * scene's pixel shader does (INTERP_XY/ZW: P0 + i*(P1-P0) + j*(P2-P0)).  It
 * is a test double, not the product path: the product path is the demo's
 * command stream through the virtual Cedar's command processor. */
#ifndef CEDAR_TESTS_COMMON_RENDER_SCENE_H
#define CEDAR_TESTS_COMMON_RENDER_SCENE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cedar/layout.h"
#include "cedar/render.h"
#include "cedar/tiling.h"

struct scene {
    unsigned samples;              /* 1, 2, 4 or 8 */
    unsigned width, height;        /* 1280 x 720 */
    struct cedar_msaa_layout lay;
    struct cedar_tile_map resolve_map, fmask_map;
    uint8_t *mem;                  /* every buffer of the scene */
    uint64_t mem_size, gpu_base;
    uint64_t color_addr, resolve_addr;
    struct vc_mem vmem;
    struct vc_regs *regs;
    struct vc_render *r;
    bool skip_triangle;            /* clear + resolve only */
    bool real_shaders;             /* scene_use_demo_shaders: the interpreter runs the demo's programs */
    uint64_t extra_addr;           /* programs and vertex buffer */
    uint64_t vtx_addr;
    unsigned vtx_stride, vtx_resource;
    uint8_t clear_bgra[4];
    /* scene_render's triangle draw takes this many vertices from the
     * vertex buffer (0: 3), the resolve's rectangle the 3 after them;
     * before_resolve (NULL: none) runs between the two draws */
    unsigned tri_vertices;
    unsigned tri_prim;             /* that draw's VGT primitive type (0: DI_PT_TRILIST) */
    void (*before_resolve)(struct scene *sc);
};

/* Write a context or config register of a hand-programmed register file
 * (other spaces are ignored); a float's bits. */
void scene_set_reg(struct vc_regs *r, uint32_t off, uint32_t v);
void scene_set_float(struct vc_regs *r, uint32_t off, float f);

/* 0, or -1 with a reason in why[200]. */
int scene_init(struct scene *sc, unsigned samples, char *why);
/* Replace the stand-in stages by the product path: the demo's fetch, vertex
 * and pixel shaders (src/shader demo_shaders.c) placed in the scene's memory,
 * SQ_PGM_START_* pointing at them, a vertex buffer with the scene's vertices
 * behind SET_RESOURCE slot 992, and the renderer's default stages (the
 * Evergreen interpreter).  0, or -1 with a reason in why[200]. */
int scene_use_demo_shaders(struct scene *sc, char *why);
/* One draw of the scene's vertices first_vertex .. + count - 1 as VGT
 * primitive type prim, CB_COLOR_CONTROL.MODE mode (scene_render's triangle
 * is vertices 0..2, its resolve rectangle, the whole screen, 3..5).  0, or
 * -1 with a reason in why[200]. */
int scene_draw(struct scene *sc, unsigned mode, unsigned prim, unsigned first_vertex, unsigned count, char *why);
/* Clear (CMask zeroed, as Mesa's CP_DMA does), draw, resolve. */
int scene_render(struct scene *sc, char *why);
/* The renderer's default stages behind other function pointers, which it
 * neither batches nor runs in waves or quads: the interpreter one pixel at
 * a time (after scene_use_demo_shaders; one scene at a time). */
void scene_pixel_at_a_time(struct scene *sc);
/* The resolved frame, de-tiled: width x aligned height, B,G,R,A bytes. */
int scene_readback(const struct scene *sc, uint8_t *bgra);
/* Whether pixel (x, y) of the MSAA surface holds more than one fragment
 * (a partially covered pixel), read from the FMask. */
bool scene_pixel_partial(const struct scene *sc, unsigned x, unsigned y);
void scene_free(struct scene *sc);

struct fidelity {
    uint64_t pixels, exact, within1, within2;
    uint64_t edge_pixels, edge_exact, edge_within1, edge_within2;
    unsigned max_diff;
    struct { unsigned x, y, diff; uint8_t mine[4], card[4]; bool edge; } worst[10];
    unsigned nworst;
};

/* Which pixels are partially covered: those whose FMask gives their samples
 * more than one fragment. */
struct fidelity_edges {
    const struct cedar_tile_map *fmask_map;
    const uint8_t *fmask;          /* the FMask bytes */
    unsigned samples;
};
bool fidelity_pixel_partial(const struct fidelity_edges *e, unsigned x, unsigned y);
/* The scene's own FMask. */
void scene_edges(const struct scene *sc, struct fidelity_edges *e);

/* Compare two BGRA images (rows `stride` bytes) over width x height; edge
 * pixels are those e says are partially covered. */
void fidelity_compare(const uint8_t *mine, const uint8_t *card, unsigned width, unsigned height, size_t stride,
                      const struct fidelity_edges *e, struct fidelity *f);
/* A difference image (RGBA PNG): |mine - card| per channel scaled by 32 and
 * saturated, alpha opaque; pixels equal to the card's are black. */
int fidelity_diff_png(const char *path, const uint8_t *mine, const uint8_t *card, unsigned width, unsigned height,
                      size_t stride, char *why);
void fidelity_print(const struct fidelity *f, FILE *out);

#endif
