/* The virtual Cedar's renderer: everything a DRAW does after the command
 * processor has decoded it.  Vertex grouping (VGT), the vertex and pixel
 * shader stages (through the shader interface below), rasterisation with
 * MSAA coverage, interpolation set-up (SPI), and the colour block (CB) with
 * CMask / FMask compression, blending and the CB_COLOR_CONTROL special modes
 * (CB_RESOLVE, CB_ELIMINATE_FAST_CLEAR, CB_FMASK_DECOMPRESS: on Evergreen
 * each of those is a draw, so there is no separate entry point for them).
 *
 * Inputs are the register file and the memory accessor of cedar/vc_hw.h;
 * every surface access goes through the tiling address map (cedar/tiling.h).
 */
#ifndef CEDAR_RENDER_H
#define CEDAR_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "cedar/vc_hw.h"

/* ---- the shader stages, as the renderer calls them ------------------------
 *
 * The renderer runs the vertex stage once per vertex (the fetch shader and
 * the vertex shader: SQ_PGM_START_FS / _VS) and the pixel stage once per
 * covered pixel (or sample).  They are reached through this table so that the
 * rasteriser and colour block can be tested with a stand-in; the real stages
 * are the Evergreen interpreter (src/shader), which vc_render_new() installs:
 * they run the fetch, vertex and pixel shaders at SQ_PGM_START_FS / _VS / _PS
 * with the vertex resources of SET_RESOURCE, and stop the draw with an error
 * for an unsupported instruction (naming the shader, PC and opcode) or a
 * vertex format the hardware cannot fetch (e.g. FMT_8_8_8, FMT_16_16_16).
 */

#define VC_RENDER_MAX_PARAMS 32   /* SPI_PS_INPUT_CNTL_0..31, PARAM exports 0..31 */
#define VC_RENDER_MAX_TARGETS 8   /* colour exports / CB_COLOR0..7 */

/* One vertex as the vertex stage leaves it. */
struct vc_vertex_out {
    float pos[4];                                /* POS export 0: clip-space x, y, z, w */
    float pos_extra[3][4];                       /* POS exports 1..3: the misc vector and the clip
                                                  * distances, as PA_CL_VS_OUT_CNTL lays them out */
    uint32_t param_mask;                         /* bit n: PARAM export n written */
    float param[VC_RENDER_MAX_PARAMS][4];        /* PARAM exports */
};

/* What the SPI hands the pixel stage for one primitive: the value of each PS
 * input (SPI_PS_INPUT_CNTL_n, matched to a vertex-shader export by semantic,
 * or its DEFAULT_VAL) at the primitive's three vertices, and whether it is flat. */
struct vc_prim_inputs {
    unsigned num_inputs;                         /* SPI_PS_IN_CONTROL_0.NUM_INTERP */
    float attr[VC_RENDER_MAX_PARAMS][3][4];      /* input n at vertex 0, 1, 2 */
    bool flat[VC_RENDER_MAX_PARAMS];             /* FLAT_SHADE: the provoking vertex's value */
    bool front_face;
};

/* Barycentric pairs (i, j): weights of vertex 1 and vertex 2 (vertex 0 gets
 * 1 - i - j), for each place SPI_BARYC_CNTL can ask for. */
enum vc_baryc {
    VC_BARYC_PERSP_CENTER,
    VC_BARYC_PERSP_CENTROID,
    VC_BARYC_PERSP_SAMPLE,
    VC_BARYC_LINEAR_CENTER,
    VC_BARYC_LINEAR_CENTROID,
    VC_BARYC_LINEAR_SAMPLE,
    VC_BARYC_COUNT
};

/* One pixel (or sample) the pixel stage runs for. */
struct vc_pixel_in {
    unsigned x, y;                 /* pixel */
    unsigned sample;               /* the sample when shading per sample, else 0 */
    float ij[VC_BARYC_COUNT][2];
    float pos[4];                  /* window x, y (of the shading point), z, 1/w */
    uint32_t coverage;             /* samples covered (bit s = sample s) */
};

struct vc_pixel_out {
    float color[VC_RENDER_MAX_TARGETS][4]; /* colour exports 0.. (RGBA as exported) */
    unsigned num_colors;                   /* how many colour exports the shader made */
    bool killed;                           /* KILL: the pixel writes nothing */
    bool depth_written;                    /* the shader exported a depth (Z export) */
    float depth;                           /* that depth (window z) */
    bool stencil_written;                  /* the shader exported a stencil reference (Z export .y) */
    uint8_t stencil;                       /* that reference (its low 8 bits) */
    bool mask_written;                     /* the shader exported a sample mask (Z export .z) */
    uint32_t mask;                         /* that mask (bit s = sample s) */
};

struct eg_stream_out;   /* cedar/shader.h */
/* Where the geometry path's stages put their output (src/render/gs.c):
 * ring writes (MEM_RING: ring 0, MEM_RING1..3: rings 1..3) into the running
 * invocation's ring item, dword dw + c getting v[c] for each component c in
 * mask, and the GS's EMIT_VERTEX (emit) / CUT_VERTEX (cut) / EMIT_CUT_VERTEX
 * (both) of a stream.  0, or -1 with a reason in msg (the draw stops). */
struct vc_ring_sink {
    void *ctx;
    int (*write)(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg,
                 size_t msglen);
    int (*emit)(void *ctx, unsigned stream, bool emit, bool cut, char *msg, size_t msglen);
};

/* A patch's local data share and tessellation-factor memory, which its LS,
 * HS and DS runs share (src/render/tess.c): the LDS, and where the HS's
 * TF_WRITEs go. */
struct vc_tess_sink {
    void *ctx;
    uint8_t *lds;
    uint32_t lds_bytes;
    int (*tf_write)(void *ctx, uint32_t addr, uint32_t value, char *msg, size_t msglen);
};

/* A compute thread group as its waves see it (src/render/compute.c): the
 * group's local data share, and the barrier its waves meet at (NULL: the
 * group is one wave, whose lanes run in lockstep). */
struct vc_cs_group {
    uint8_t *lds;
    uint32_t lds_bytes;
    int (*barrier)(void *barrier_ctx, char *msg, size_t msglen);
    void *barrier_ctx;
    unsigned wave;               /* the wave's index in its group (the shader's HW_WAVE_ID) */
};

struct vc_shader_ops {
    void *ctx;
    /* Optional: called once per draw before any vertex, to read the programs
     * and check them; `pixels` says whether the pixel stage will run (CB_NORMAL).
     * 0, or -1 with a reason in err (the draw stops). */
    int (*begin)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, bool pixels,
                 struct vc_draw_err *err);
    /* Run the vertex stage for vertex `index` (after VGT index offset / base
     * vertex) of instance `instance`.  0, or -1 with a reason in err (for an
     * unsupported instruction: the shader, PC and opcode). */
    int (*vertex)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                  uint32_t index, uint32_t instance, struct vc_vertex_out *out,
                  struct vc_draw_err *err);
    /* Optional: the vertex stage for n vertices at once (index[i], all of
     * `instance`), out[i] getting what `vertex` would give index[i], but
     * for the parameters param_mask does not name, which it need not write
     * (the renderer reads only those it names: spi_prim_inputs).  0, or 1 when it did not (out then undefined):
     * the caller runs them through `vertex`, which reports any fault. */
    int (*vertices)(void *ctx, const uint32_t *index, unsigned n, uint32_t instance,
                    struct vc_vertex_out *const *out);
    /* Run the pixel stage for one pixel of a primitive. */
    int (*pixel)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                 const struct vc_prim_inputs *prim, const struct vc_pixel_in *in,
                 struct vc_pixel_out *out, struct vc_draw_err *err);
    /* Optional: the vertex stage's stream-out exports for a vertex (after
     * begin with pixels false), for transform feedback. */
    int (*stream_vertex)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                         uint32_t index, uint32_t instance, struct eg_stream_out *out,
                         struct vc_draw_err *err);
    /* The geometry path (VGT_GS_MODE GS_SCENARIO_G), optional (NULL: a
     * draw with a GS stops with an error): the ES (SQ_PGM_START_ES, the
     * vertex shader with its fetch shader) for vertex `index` of `instance`,
     * and the GS (SQ_PGM_START_GS) for one primitive with R0 / R1 as the
     * VGT starts it; both write their rings and emit through `sink`.  The
     * copy shader is the vertex stage above, its index the GSVS-ring dword
     * offset of the vertex it reads (R0.x). */
    int (*es)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index, uint32_t instance,
              const struct vc_ring_sink *sink, struct vc_draw_err *err);
    int (*gs)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
              const uint32_t r1[4], const struct vc_ring_sink *sink, struct vc_draw_err *err);
    /* The tessellation path (VGT_SHADER_STAGES_EN.HS_EN), optional (NULL: a
     * tessellated draw stops with an error): the LS (SQ_PGM_START_LS, the
     * vertex shader with its fetch shader) for control point `index` of
     * `instance`, `rel` its place in the patch; the HS (SQ_PGM_START_HS) for
     * the patch's n invocations at once (one thread group: R0 = r0[i] for
     * invocation i); the DS (the VS program) for one domain point, R0 = r0;
     * all see the patch through `sink`, the DS's exports go to out as the
     * vertex stage's.  With a geometry shader as well (VGT_SHADER_STAGES_EN
     * ES_EN ES_STAGE_DS), the DS runs as the ES (SQ_PGM_START_ES, ds_es:
     * R0 = r0 as for ds) and writes its outputs into the ESGS ring through
     * `ring` instead; optional (NULL: such a draw stops with an error). */
    int (*ls)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index, uint32_t instance,
              uint32_t rel, const struct vc_tess_sink *sink, struct vc_draw_err *err);
    int (*hs)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t (*r0)[4], unsigned n,
              const struct vc_tess_sink *sink, struct vc_draw_err *err);
    int (*ds)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
              const struct vc_tess_sink *sink, struct vc_vertex_out *out, struct vc_draw_err *err);
    int (*ds_es)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, const uint32_t r0[4],
                 const struct vc_tess_sink *sink, const struct vc_ring_sink *ring, struct vc_draw_err *err);
    /* The compute stage (src/render/compute.c), optional (NULL: a dispatch
     * stops with an error): cs_begin once per dispatch, to read the program
     * at SQ_PGM_START_LS and check it; cs runs one wave of a thread group,
     * n threads in lockstep, thread i starting with R0 = r0[i] and R1 = r1
     * (as SPI_COMPUTE_INPUT_CNTL places the local and group ids), in the
     * group g (its LDS, and where a GROUP_BARRIER waits for its other
     * waves).  Waves of one group may call cs from different threads, one
     * at a time. */
    int (*cs_begin)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, struct vc_draw_err *err);
    int (*cs)(void *ctx, const uint32_t (*r0)[4], unsigned n, const uint32_t r1[4], const struct vc_cs_group *g,
              struct vc_draw_err *err);
};

/* ---- the renderer ---------------------------------------------------------- */

struct vc_render;

/* A renderer with the Evergreen shader interpreter as its shader stages.
 * NULL when out of memory. */
struct vc_render *vc_render_new(void);
void vc_render_free(struct vc_render *r);

/* Replace the shader stages with another implementation (*ops is copied,
 * e.g. one that counts or records what it runs).  NULL restores the
 * default. */
void vc_render_set_shaders(struct vc_render *r, const struct vc_shader_ops *ops);

/* Execute one draw with the state in regs.  Returns 0, or -1 with a one-line
 * reason in err; a draw that fails may have written part of its output (as
 * the hardware would have), never memory outside the surfaces it targets. */
int vc_render_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                   const struct vc_draw *draw, struct vc_draw_err *err);

/* Execute one compute dispatch (PKT3 DISPATCH_DIRECT) of dim[0] x dim[1] x
 * dim[2] thread groups with the state in regs (src/render/compute.c says
 * what is modelled).  Returns 0, or -1 with a one-line reason in err; the
 * groups before a failing one have run. */
int vc_render_dispatch(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                       const uint32_t dim[3], struct vc_draw_err *err);

/* Transform feedback (stream-out) of a draw, before vc_render_draw draws it:
 * when VGT_STRMOUT_CONFIG enables stream 0 and VGT_STRMOUT_BUFFER_CONFIG
 * some of its buffers, each primitive the VGT assembles whose vertices fit
 * in every enabled buffer (VGT_STRMOUT_BUFFER_SIZE_n dwords) has its
 * vertices' stream-out exports written in order, a record of
 * VGT_STRMOUT_VTX_STRIDE_n dwords per vertex, at offset_dw[n] dwords from
 * VGT_STRMOUT_BUFFER_BASE_n; offset_dw[n] advances past what was written.
 * 0 (also when stream-out is off), or -1 with a reason in err. */
int vc_render_streamout(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                        const struct vc_draw *draw, uint32_t offset_dw[4], struct vc_draw_err *err);

/* Threads that share a large primitive's pixels (rows of 8x8 blocks, as the
 * hardware's pipes share screen tiles): 0 (the default) one per online CPU,
 * 1 none.  The result is the same whatever the count. */
void vc_render_set_threads(struct vc_render *r, unsigned n);

/* Whether a fully covered 8x8 block of a normal draw goes to the pixel
 * shader as one 64-pixel batch with its weights stepped from the
 * rasteriser's edge values (true, the default) or pixel by pixel, the
 * reference path the block path stands for (false: slower, the same
 * bytes; to check the one against the other). */
void vc_render_set_block_path(struct vc_render *r, bool on);

/* Counters since vc_render_new (for tests, the benchmark and the
 * pipeline-statistics counters, EVENT_WRITE SAMPLE_PIPELINESTAT). */
struct vc_render_stats {
    uint64_t draws;
    uint64_t vertices;         /* vertex-stage runs the renderer made */
    uint64_t primitives;       /* triangles rasterised (after clipping and culling) */
    uint64_t pixels_shaded;    /* pixel-stage runs: the PS invocations */
    uint64_t samples_written;
    uint64_t blocks_batched;   /* fully covered 8x8 blocks handed to the pixel stage whole */
    uint64_t cb_op_pixels;     /* pixels of resolve / eliminate / decompress draws */
    /* As the counters count them (src/render/vgt_reuse.c states the model): */
    uint64_t ia_vertices;      /* indices the VGT read (restart indices not) */
    uint64_t ia_primitives;    /* primitives it assembled, degenerate ones too */
    uint64_t vs_invocations;   /* vertex-shader runs under the reuse model */
    uint64_t c_invocations;    /* primitives that reached the clipper */
    uint64_t c_primitives;     /* primitives it passed on: 1 each unclipped, the
                                * triangles of the polygon when clipped */
    uint64_t gs_invocations;   /* GS runs: one per input primitive */
    uint64_t gs_primitives;    /* primitives the GS's emitted strips make */
    uint64_t hs_invocations;   /* HS runs: one per patch (GL and D3D11 count patches) */
    uint64_t ds_invocations;   /* DS runs: one per domain point of each patch */
    uint64_t cs_invocations;   /* compute threads run: every thread of each group run */
    uint64_t dispatches;       /* vc_render_dispatch calls */
    /* samples that passed the depth and stencil tests while DB_COUNT_CONTROL
     * counted them: the DB's counter, which ZPASS_DONE writes */
    uint64_t zpass_samples;
};
void vc_render_get_stats(const struct vc_render *r, struct vc_render_stats *out);

#endif
