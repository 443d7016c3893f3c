/* Internal pieces of the MSAA demo shared by its files (src/demo/). */
#ifndef CEDAR_DEMO_INTERNAL_H
#define CEDAR_DEMO_INTERNAL_H

#include <stdint.h>

#include "cedar/cmdbuf.h"
#include "cedar/demo.h"

/* The relocation "handle" of a buffer in a built plan (the submitter maps it
 * to the GEM handle): never 0, so a zeroed entry is never a valid buffer. */
static inline uint32_t demo_buf_handle(enum cedar_demo_buf b)
{
    return (uint32_t)b + 1u;
}

/* --- the ioctl plumbing (demo_session.c) --------------------------------- */

/* A session's buffers created (GEM_CREATE), mapped (GEM_MMAP) and uploaded,
 * nothing submitted.  0, or -1 with a reason (*out NULL). */
int demo_session_create(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                        struct cedar_demo_session **out, char *err, size_t errlen);
/* IB `index` of the plan submitted (one CS ioctl, its relocations pointed at
 * the session's GEM handles); with a hook, every buffer waited for and the
 * hook called first.  0, or -1 with a reason. */
int demo_session_submit(struct cedar_demo_session *s, unsigned index, const struct cedar_demo_hook *hook,
                        char *err, size_t errlen);
/* GEM_WAIT_IDLE on buffer id (nothing when the plan does not use it).  0, or
 * -1 with a reason. */
int demo_session_wait(struct cedar_demo_session *s, enum cedar_demo_buf id, char *err, size_t errlen);

/* The vertex buffer holds three 3-vertex primitives, in this order. */
enum demo_prim {
    DEMO_PRIM_TRIANGLE,   /* the scene (a triangle list) */
    DEMO_PRIM_CLEAR_RECT, /* full screen in the clear colour (a rectangle list) */
    DEMO_PRIM_RESOLVE_RECT, /* full screen for the resolve (a rectangle list) */
    DEMO_PRIM_COUNT
};

/* What the state needs to know about the demo's three programs
 * (src/shader/demo_shaders.c: struct eg_demo_shaders), and where they sit
 * in the shader buffer (256-byte aligned: SQ_PGM_START_* hold address >> 8). */
struct demo_shader_facts {
    unsigned vs_num_gprs, vs_stack_size;
    unsigned ps_num_gprs, ps_stack_size;
    unsigned fs_num_gprs;
    unsigned ps_color_exports, ps_num_interp;
    bool ps_persp_center;
    unsigned vs_export_count;
    unsigned color_param, color_semantic;
    unsigned vtx_semantic[2];
    unsigned vtx_resource;          /* absolute fetch resource slot */
    unsigned vtx_stride, pos_offset, color_offset;
    unsigned pos_format, color_format;  /* V_SQ_DATA_FORMAT__* */
    unsigned color_encoding;            /* enum eg_demo_color_format */
};

struct demo_programs {
    struct demo_shader_facts s;
    uint64_t fs_offset, vs_offset, ps_offset;
};

/* Builds the shader buffer contents.  Returns 0, or -1 with a reason. */
int demo_programs_build(struct demo_programs *progs, enum eg_demo_color_format color, uint32_t **code,
                        size_t *size, char *err, size_t errlen);
/* The same programs with the caller's colour fetches (eg_demo_shaders_build_spec). */
int demo_programs_build_spec(struct demo_programs *progs, const struct eg_demo_fetch_spec *spec, uint32_t **code,
                             size_t *size, char *err, size_t errlen);

/* The vertex buffer contents for the configuration, laid out as the fetch
 * shader reads it: DEMO_PRIM_COUNT primitives of three vertices. */
int demo_scene_vertices(const struct cedar_demo_config *cfg, const struct demo_programs *progs,
                        uint8_t **verts, size_t *size, char *err, size_t errlen);

/* --- state emission (demo_state.c) ------------------------------------- */

/* The Evergreen defaults Mesa's r600 driver emits at the start of every CS
 * (evergreen_init_atom_start_cs for a Cedar), then its per-draw constants. */
void demo_emit_initial_state(struct cedar_cmdbuf *cb);
/* Wait for idle, flush and invalidate the CB/DB caches and metadata, and
 * sync every surface (what Mesa emits at the end of each CS). */
void demo_emit_flush(struct cedar_cmdbuf *cb);
/* CP_DMA fill of [offset, offset + size) of a buffer with a 32-bit value. */
void demo_emit_cp_dma_fill(struct cedar_cmdbuf *cb, enum cedar_demo_buf buf, uint64_t offset,
                           uint64_t size, uint32_t value);

/* What the colour-block registers of one render target hold. */
struct demo_cb_regs {
    uint32_t pitch, slice, view, info, attrib, dim, cmask, cmask_slice, fmask, fmask_slice;
    uint32_t clear_word0, clear_word1;
    uint32_t base;         /* offset >> 8 inside the buffer (relocated) */
};

/* CB registers of the render target (MSAA or single-sample) and of the
 * resolve target, from the layouts. */
void demo_cb_regs_color(const struct cedar_demo_plan *plan, struct demo_cb_regs *r);
void demo_cb_regs_resolve(const struct cedar_demo_plan *plan, struct demo_cb_regs *r);
/* Writes CB_COLORn_* (13 registers) and the four relocations the kernel
 * takes after them (BASE, ATTRIB, CMASK, FMASK). */
void demo_emit_cb(struct cedar_cmdbuf *cb, unsigned index, const struct demo_cb_regs *r,
                  enum cedar_demo_buf buf);

/* One draw of the scene state: which primitive, and how the CB combines. */
enum demo_cb_mode { DEMO_CB_NORMAL, DEMO_CB_RESOLVE };

/* Everything a draw needs after the render targets: scissors, MSAA state,
 * vertex buffer, CB mode, rasteriser, viewport, shaders, and the draw. */
void demo_emit_draw(struct cedar_cmdbuf *cb, const struct cedar_demo_plan *plan,
                    const struct demo_programs *progs, enum demo_prim prim,
                    enum demo_cb_mode mode);

/* PA_SC_AA_* values Mesa's evergreen_emit_msaa_state / emit_sample_mask
 * program for a sample count (exposed for the tests). */
struct demo_msaa_regs {
    unsigned nlocs;        /* sample-location dwords written: 0, 4 or 8 */
    uint32_t locs[8];
    uint32_t line_cntl, aa_config, mode_cntl_1, aa_mask, mode_cntl_0;
};
void demo_msaa_regs(unsigned samples, struct demo_msaa_regs *r);

#endif
