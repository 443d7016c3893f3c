/* Hand-assembled geometry-path programs and ring set-up shaped like Mesa's
 * r600 (evergreen_state.c, sfn_shader_gs.cpp, r600_shader.c
 * generate_gs_copy_shader), shared by the tests of the GS path
 * (test_render_gs.c) and of tessellation into a GS (test_render_tess.c).
 *
 * Every vertex is two outputs of 4 dwords in the rings: position at dword
 * 0, colour at dword 4 (8 dwords an item on either side). */
#ifndef CEDAR_TESTS_COMMON_GS_PROGRAMS_H
#define CEDAR_TESTS_COMMON_GS_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "cedar/shader.h"
#include "tests/common/render_scene.h"

#define GS_RING_SLOT 18        /* Mesa R600_GS_RING_CONST_BUFFER: 16 user buffers + 2 */
#define GS_ESGS_BYTES 0x400u   /* 32 items of 8 dwords */
#define GS_GSVS_BYTES 0x400u
#define GS_MAX_VERT_OUT 7

/* The ES's outputs into the ESGS ring: MEM_RING of R[gpr] at dword base. */
void gsp_ring_write(struct eg_asm *a, unsigned type, unsigned base, unsigned gpr, unsigned index_gpr);

/* A pass-through GS, a GS of strips, a cut and one vertex past
 * GS_MAX_VERT_OUT (see test_render_gs.c), or one reading triangles with
 * adjacency. */
enum gs_kind { GS_PASS, GS_STRIPS, GS_ADJ };
size_t gsp_build_gs(enum gs_kind kind, uint32_t *w, size_t cap);

/* The copy shader: each emitted vertex from the GSVS ring, exported as
 * position and parameter color_param. */
size_t gsp_build_copy(unsigned color_param, uint32_t *w, size_t cap);

/* Put the GS (kind) and the copy shader at gpu / area (mapped), the rings
 * after them (at most 0x1400 bytes in all), the ring resources and the
 * ring, item and output registers, and VGT_GS_MODE GS_SCENARIO_G;
 * SQ_PGM_START_VS is the copy shader's.  The ES and VGT_SHADER_STAGES_EN
 * are the caller's. */
void gsp_install(struct scene *sc, uint8_t *area, uint64_t gpu, enum gs_kind kind, unsigned color_param);

#endif
