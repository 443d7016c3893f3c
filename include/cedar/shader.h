/* Evergreen (r800, TeraScale 2) shader microcode: an encoder, a disassembler,
 * an interpreter, and the demo's three shaders.
 *
 * Instruction layouts and opcode values live in the register database
 * (regs/isa.regs -> eg_regs.h: V_SQ_ALU_OP2__MOV, S_SQ_ALU_WORD0__SRC0_SEL(),
 * ...).  Every function here is defensive about its input words: malformed or
 * unknown microcode is reported, never read out of bounds.
 *
 * Program counters (PC) and clause addresses count 64-bit words from the start
 * of a shader, as the hardware's CF ADDR fields do.
 */
#ifndef CEDAR_SHADER_H
#define CEDAR_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cedar/vc_hw.h"

/* One 4-component register value: the same 32 bits seen as floats or ints. */
union eg_vec4 {
    float f[4];
    uint32_t u[4];
    int32_t i[4];
};

/* ======================================================================
 * Encoder: build a shader as a list of CF instructions plus clauses.
 *
 *     struct eg_asm a;
 *     eg_asm_init(&a);
 *     eg_asm_call_fs(&a);                      // CF: CALL_FS
 *     eg_asm_export(&a, &(struct eg_export){ .type = V_SQ_EXPORT_TYPE__POS,
 *                   .array_base = V_SQ_EXPORT_ARRAY_BASE__POS0, .gpr = 1,
 *                   .sel = EG_SWZ_XYZW, .done = true });
 *     eg_asm_finish(&a, true, words, cap, &ndw);
 *
 * Clauses are laid out after the CF program in the order they were opened
 * (ALU clauses 64-bit aligned, fetch clauses 128-bit aligned); finish() fills
 * in every clause's ADDR and COUNT.  All CF instructions get BARRIER=1 (as
 * Mesa and the seed author's shaders do).  Errors (too many instructions, a
 * value that does not fit, inconsistent literals) are sticky: finish() then
 * returns -1 and a.err says why.
 * ====================================================================== */

#define EG_ASM_MAX_CF      64
#define EG_ASM_MAX_CLAUSES 32
#define EG_ASM_MAX_DW      2048

/* The identity component select, for .sel / .dst_sel initialisers. */
#define EG_SWZ_XYZW { V_SQ_INST_SEL__X, V_SQ_INST_SEL__Y, V_SQ_INST_SEL__Z, V_SQ_INST_SEL__W }

struct eg_alu_src {
    uint16_t sel;       /* GPR number, V_SQ_ALU_SRC__* special, KCACHE base + n, PARAM_BASE + n */
    uint8_t chan;       /* V_SQ_CHAN__*; ignored for literals (the encoder assigns it) */
    bool neg, abs, rel;
    uint32_t value;     /* literal bits when sel == V_SQ_ALU_SRC__LITERAL */
};

struct eg_alu_dst {
    uint8_t gpr, chan;
    bool write;         /* OP2 WRITE_MASK (OP3 instructions always write) */
    bool rel, clamp;
    uint8_t omod;       /* V_SQ_ALU_OMOD__* */
};

struct eg_alu {
    bool op3;           /* false: OP2 (op = V_SQ_ALU_OP2__*), true: OP3 (V_SQ_ALU_OP3__*) */
    unsigned op;
    struct eg_alu_dst dst;
    struct eg_alu_src src[3];
    uint8_t bank_swizzle;   /* V_SQ_ALU_VEC_BANK_SWIZZLE__* / V_SQ_ALU_SCL_BANK_SWIZZLE__* */
    uint8_t index_mode, pred_sel;
    bool update_pred, update_exec_mask;
    bool last;          /* last instruction of its instruction group */
};

struct eg_vtx {
    unsigned inst;          /* V_SQ_VTX_INST__FETCH or __SEMANTIC */
    unsigned fetch_type;    /* V_SQ_VTX_FETCH_TYPE__* */
    unsigned buffer_id;     /* relative to the stage's SQ_FETCH_RESOURCE_BASE */
    unsigned src_gpr, src_sel_x;
    unsigned mega_fetch_count;  /* bytes fetched - 1 for a mega fetch */
    unsigned dst_gpr;       /* FETCH */
    unsigned semantic_id;   /* SEMANTIC */
    uint8_t dst_sel[4];     /* V_SQ_INST_SEL__* */
    bool use_const_fields;
    unsigned data_format, num_format, format_comp, srf_mode;
    unsigned offset, endian_swap;
    bool mega_fetch, const_buf_no_stride;
};

struct eg_tex {
    unsigned inst;          /* V_SQ_TEX_INST__* */
    unsigned resource_id, sampler_id;
    unsigned src_gpr;
    uint8_t src_sel[4];
    unsigned dst_gpr;
    uint8_t dst_sel[4];
    bool coord_normalized[4];
    int lod_bias;           /* -64..63 */
    int offset[3];          /* -16..15 */
    unsigned inst_mod;      /* INST_MOD: 1 makes an LD of an MSAA texture read its FMask */
};

struct eg_export {
    unsigned type;          /* V_SQ_EXPORT_TYPE__PIXEL / POS / PARAM */
    unsigned array_base;    /* colour target, 60 + position index, parameter index */
    unsigned gpr;
    uint8_t sel[4];         /* V_SQ_INST_SEL__* per exported component */
    unsigned burst_count;   /* extra consecutive GPRs / array bases */
    bool done;              /* EXPORT_DONE: the last export of its type */
};

/* A memory export (CF_ALLOC_EXPORT_WORD1_BUF form): MEM_RING*, MEM_SCRATCH,
 * MEM_STREAM*: burst_count + 1 elements of elem_size + 1 dwords from GPRs
 * gpr.. at array_base (+ index_gpr.x for the indexed types, TYPE bit 0). */
struct eg_mem_export {
    unsigned cf_inst;       /* V_SQ_CF_INST__MEM_* */
    unsigned type;          /* 0 WRITE, 1 WRITE_IND, 2 WRITE_ACK, 3 WRITE_IND_ACK */
    unsigned array_base, array_size;
    unsigned gpr, index_gpr, elem_size, comp_mask, burst_count;
};

/* The kcache sets an ALU clause locks (constant buffer bank, first constant/16, mode). */
struct eg_kcache {
    unsigned bank, addr, mode;  /* mode V_SQ_KCACHE_MODE__* (NOP = unused) */
};

enum eg_clause_kind { EG_CLAUSE_ALU, EG_CLAUSE_VTX, EG_CLAUSE_TEX };

struct eg_asm {
    /* private: use the functions below */
    uint32_t cf[2 * EG_ASM_MAX_CF];
    unsigned ncf;
    struct {
        enum eg_clause_kind kind;
        unsigned cf;            /* index of the CF instruction that runs it */
        unsigned start, ndw;    /* dwords in body[] */
    } clause[EG_ASM_MAX_CLAUSES];
    unsigned nclause;
    int open;                   /* clause being filled, -1 none */
    uint32_t body[EG_ASM_MAX_DW];
    unsigned nbody;
    /* the ALU group being filled: literal dwords and how many */
    uint32_t lit[4];
    unsigned nlit;
    unsigned group_first;       /* body index of the group's first instruction */
    bool group_open;
    char err[160];
};

void eg_asm_init(struct eg_asm *a);
void eg_asm_cf(struct eg_asm *a, unsigned cf_inst);     /* a plain CF (NOP, RETURN, CALL_FS ...) */
void eg_asm_nop(struct eg_asm *a);
/* A flow-control CF instruction (JUMP, ELSE, POP, PUSH, LOOP_*) with its
 * ADDR (a CF index: the program counter of the target), POP_COUNT and COND
 * (V_SQ_CF_COND__*); eg_asm_pc is the index the next CF instruction gets. */
void eg_asm_flow(struct eg_asm *a, unsigned cf_inst, unsigned addr, unsigned pop_count, unsigned cond);
unsigned eg_asm_pc(const struct eg_asm *a);
void eg_asm_call_fs(struct eg_asm *a);
void eg_asm_return(struct eg_asm *a);
void eg_asm_export(struct eg_asm *a, const struct eg_export *e);
void eg_asm_mem(struct eg_asm *a, const struct eg_mem_export *e);
/* EMIT_VERTEX / CUT_VERTEX / EMIT_CUT_VERTEX of a stream (COUNT 0..3) */
void eg_asm_emit(struct eg_asm *a, unsigned cf_inst, unsigned stream);
/* Open a clause (closing the previous one); kc may be NULL (no constants). */
void eg_asm_alu_clause(struct eg_asm *a, unsigned cf_alu_inst, const struct eg_kcache kc[2]);
void eg_asm_vtx_clause(struct eg_asm *a);
void eg_asm_tex_clause(struct eg_asm *a);
void eg_asm_alu(struct eg_asm *a, const struct eg_alu *op);
void eg_asm_vtx(struct eg_asm *a, const struct eg_vtx *v);
void eg_asm_tex(struct eg_asm *a, const struct eg_tex *t);
/* Lay the shader out into out[0..cap).  end_of_program: set END_OF_PROGRAM on
 * the last CF instruction (vertex and pixel shaders; a fetch shader ends with
 * RETURN instead).  0, or -1 with a->err set. */
int eg_asm_finish(struct eg_asm *a, bool end_of_program, uint32_t *out, size_t cap, size_t *ndw);

/* ALU operand helpers. */
static inline struct eg_alu_src eg_src_gpr(unsigned gpr, unsigned chan)
{
    return (struct eg_alu_src){ .sel = (uint16_t)gpr, .chan = (uint8_t)chan };
}
struct eg_alu_src eg_src_lit_f(float v);        /* a float literal */
struct eg_alu_src eg_src_lit_u(uint32_t v);     /* a 32-bit literal */
struct eg_alu_src eg_src_special(unsigned sel, unsigned chan);  /* PV, PS, ZERO, ONE, PARAM_BASE+n ... */

/* ======================================================================
 * Disassembler
 * ====================================================================== */

struct eg_disasm_opts {
    bool no_words;      /* do not print the raw instruction words */
};

enum {
    EG_DISASM_OK = 0,        /* every instruction known */
    EG_DISASM_UNKNOWN = 1,   /* something printed as "unknown" with its raw value */
    EG_DISASM_MALFORMED = 2, /* stopped at an error (printed as "error: ..." ) */
};

/* Disassemble the shader in dw[0..ndw): the CF program from PC 0 up to the
 * first END_OF_PROGRAM (or a top-level RETURN, which ends a fetch shader),
 * then every clause it runs.  Returns EG_DISASM_*.  opts may be NULL. */
int eg_shader_disasm(const uint32_t *dw, size_t ndw, FILE *out, const struct eg_disasm_opts *opts);

/* Names of opcodes, NULL when unknown. */
const char *eg_cf_inst_name(uint32_t cf_word1);     /* from CF word 1, any CF form */
const char *eg_alu_op_name(bool op3, unsigned op);

/* ======================================================================
 * Interpreter
 * ====================================================================== */

struct eg_program {
    const char *name;       /* for error messages: "VS", "PS", "FS" ... */
    const uint32_t *dw;
    size_t ndw;
};

/* Whether the program's CF instructions, from the first to END_OF_PROGRAM,
 * hold a LOOP_START (any form): then what a run costs depends on its data
 * (the renderer shares such pixel shaders' smaller primitives among its
 * threads too). */
bool eg_program_has_loop(const struct eg_program *p);

/* The texture fetch instructions of the program's TC clauses, from its first
 * CF instruction to END_OF_PROGRAM, as written (a clause in a loop counts
 * once): with eg_program_has_loop, what tells the renderer a pixel costs
 * many times an ALU-only one. */
unsigned eg_program_tex_fetches(const struct eg_program *p);

/* The 32-bit atomic operations of the local and global data shares and the
 * RATs (src/shader/atomic.c): eg_atomic is the new value of a word that held
 * old, with the operands a and b as the operation names them (MSKOR: mask a,
 * bits b; CMPXCHG: compare a, new b).  eg_atomic_of_ds_op names the
 * operation of a GDS-clause DS_OP (the LDS_* ops number them alike), false
 * for one that is not a 32-bit atomic. */
enum eg_atomic_op {
    EG_ATOMIC_ADD, EG_ATOMIC_SUB, EG_ATOMIC_RSUB, EG_ATOMIC_INC, EG_ATOMIC_DEC,
    EG_ATOMIC_MIN_INT, EG_ATOMIC_MAX_INT, EG_ATOMIC_MIN_UINT, EG_ATOMIC_MAX_UINT,
    EG_ATOMIC_AND, EG_ATOMIC_OR, EG_ATOMIC_XOR, EG_ATOMIC_MSKOR,
    EG_ATOMIC_XCHG, EG_ATOMIC_CMPXCHG, EG_ATOMIC_READ,
};
uint32_t eg_atomic(enum eg_atomic_op op, uint32_t old, uint32_t a, uint32_t b);
bool eg_atomic_of_ds_op(unsigned op, enum eg_atomic_op *out);

/* A vertex-fetch resource, decoded by the caller from SQ_VTX_CONSTANT_WORD0..7. */
struct eg_vtx_resource {
    uint64_t base;          /* GPU byte address */
    uint64_t size;          /* bytes (SIZE + 1) */
    uint32_t stride;        /* bytes */
    /* used when the fetch instruction says USE_CONST_FIELDS */
    unsigned data_format, num_format, format_comp, srf_mode, endian_swap;
};

/* A texture resource / sampler, decoded by the caller (SQ_TEX_RESOURCE_WORD*,
 * SQ_TEX_SAMPLER_WORD*).  The texel callback does the memory layout (linear or
 * tiled) and the format decode. */
struct eg_tex_resource {
    unsigned width, height, depth;  /* depth: 3D depth, or array layers */
    uint8_t dst_sel[4];     /* resource swizzle (V_SQ_INST_SEL__*) applied to fetched texels */
    unsigned dim;           /* V_SQ_TEX_DIM__*: the layer coordinate of a 1D (y) or 2D (z)
                               array is rounded and clamped, never wrapped */
    unsigned levels;        /* mip levels (GET_TEXTURE_RESINFO's w); 0 counts as 1 */
    unsigned samples;       /* an MSAA texture's samples per texel (LD's w picks one) */
    /* the mip levels the resource exposes, BASE_LEVEL .. LAST_LEVEL (level
     * l is max(1, size >> l) texels per dimension, array layers excepted);
     * read through texel_level; 0 .. 0 without mip levels */
    unsigned base_level, last_level;
    /* SAMPLE_C* (a depth comparison replaces the data format's X and its
     * result then takes the resource swizzle): the swizzle (V_SQ_SEL__*) the
     * texel callbacks have already applied, each texel component's source
     * (all zero: X everywhere), and whether X is fixed point, which clamps
     * the reference to [0, 1] (OpenGL 4.6 8.23.1) */
    uint8_t texel_sel[4];
    bool fixed_depth;
};

struct eg_tex_sampler {
    unsigned clamp_x, clamp_y, clamp_z;     /* V_SQ_TEX_CLAMP__* */
    unsigned mag_filter, min_filter;        /* V_SQ_TEX_XY_FILTER__* (POINT / BILINEAR) */
    union eg_vec4 border;                   /* the texel the CLAMP_*BORDER modes read */
    unsigned mip_filter;                    /* V_SQ_TEX_Z_FILTER__* (NONE / POINT / LINEAR) */
    float min_lod, max_lod, lod_bias;       /* MIN_LOD / MAX_LOD / LOD_BIAS */
    unsigned compare;                       /* V_SQ_TEX_DEPTH_COMPARE__* (SAMPLE_C*) */
    bool cube_wrap;                         /* DISABLE_CUBE_WRAP clear: filtering crosses cube faces */
};

/* One texture resource's texels for the lanes of an instruction (the
 * texel_reader callback below): what texel, texel_level and tex_fmask read
 * of the resource, with the same results and faults, without finding the
 * resource again for each texel.  read: texel (x, y, z) of mip level
 * `level` (absolute; 0: sample `sample` as texel reads it, else
 * texel_level's); fmask: tex_fmask's.  Valid until the draw ends. */
#define EG_TEX_READ_MANY_MAX 64
struct eg_texel_reader {
    const void *ctx;
    int (*read)(const void *ctx, unsigned level, int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg,
                size_t msglen);
    int (*fmask)(const void *ctx, int x, int y, int z, uint32_t *out, char *msg, size_t msglen);
    /* read_many: n texels (x[i], y[i], z[i]) of level 0, sample 0, inside
     * it, as read gives them: 0; or 1, nothing promised of out, when the
     * reader does not take them this way (read them one by one).  NULL:
     * never.  n is at most EG_TEX_READ_MANY_MAX. */
    int (*read_many)(const void *ctx, unsigned n, const int32_t *x, const int32_t *y, const int32_t *z,
                     union eg_vec4 *out);
};

/* What a running shader can reach outside its registers.  Each callback
 * returns 0, or -1 after writing a reason into msg (the draw stops). */
struct eg_shader_env {
    void *ctx;
    const struct vc_mem *mem;   /* vertex-fetch memory */
    /* fetch resource by absolute index (SQ_FETCH_RESOURCE_BASE + BUFFER_ID) */
    int (*vtx_resource)(void *ctx, unsigned resource, struct eg_vtx_resource *out, char *msg, size_t msglen);
    /* ALU constant `index` of constant buffer `bank` (kcache), 4 dwords */
    int (*constant)(void *ctx, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t msglen);
    int (*tex_resource)(void *ctx, unsigned resource, struct eg_tex_resource *out, char *msg, size_t msglen);
    /* the sampler as it applies to a fetch from `resource` (whose number
     * format the border texel takes) */
    int (*tex_sampler)(void *ctx, unsigned sampler, unsigned resource, struct eg_tex_sampler *out, char *msg,
                       size_t msglen);
    /* one texel at integer coordinates already wrapped/clamped into the
     * texture (sample: of an MSAA texture, below its samples; else 0):
     * floats, or integer bits for an integer format */
    int (*texel)(void *ctx, unsigned resource, int x, int y, int z, unsigned sample, union eg_vec4 *out,
                 char *msg, size_t msglen);
    /* one texel of mip level `level` (absolute: BASE_LEVEL .. LAST_LEVEL),
     * inside it; NULL: only the base level can be read */
    int (*texel_level)(void *ctx, unsigned resource, unsigned level, int x, int y, int z, union eg_vec4 *out,
                       char *msg, size_t msglen);
    /* an MSAA texture's FMask at texel (x, y, z): the fragment index of
     * sample s in bits 4s..4s+3 (LD with INST_MOD 1, Mesa's "ldfptr") */
    int (*tex_fmask)(void *ctx, unsigned resource, int x, int y, int z, uint32_t *out, char *msg, size_t msglen);
    /* the reader of `resource`'s texels (struct eg_texel_reader) for a TEX
     * instruction's lanes; NULL: each texel through the three above */
    int (*texel_reader)(void *ctx, unsigned resource, struct eg_texel_reader *out, char *msg, size_t msglen);
    /* SQ_LOOP_CONST_n of the running stage (LOOP_START's CF_CONST): COUNT
     * bits 0..11, INIT 12..23, INC 24..31; NULL: a counted loop faults */
    int (*loop_const)(void *ctx, unsigned index, uint32_t *out, char *msg, size_t msglen);
    /* boolean constant `index` (0..31, a CF instruction's CF_CONST) of the
     * running stage: bit `index` of its SQ_BOOL_CONST register, which COND
     * BOOL / NOT_BOOL test; NULL: such a condition faults */
    int (*bool_const)(void *ctx, unsigned index, bool *out, char *msg, size_t msglen);
    /* semantic table SQ_VTX_SEMANTIC_0..31 (low 8 bits = SEMANTIC_ID) and which
     * entries are valid; a SEMANTIC fetch of id S writes GPR i+1 for the entry i
     * holding S */
    uint32_t vtx_semantic[32];
    uint32_t vtx_semantic_valid;
    /* The geometry path's rings (NULL: MEM_RING* and EMIT / CUT_VERTEX
     * fault).  ring_write: a MEM_RING (ring 0) .. MEM_RING3 (ring 3) write
     * of the running invocation: dword dw + c of its ring item gets v[c] for
     * each component c set in mask.  emit: EMIT_VERTEX (emit), CUT_VERTEX
     * (cut) or EMIT_CUT_VERTEX (both) of stream 0..3. */
    int (*ring_write)(void *ctx, unsigned ring, uint64_t dw, const uint32_t v[4], unsigned mask, char *msg,
                      size_t msglen);
    int (*emit)(void *ctx, unsigned stream, bool emit, bool cut, char *msg, size_t msglen);
    /* The thread group's local data share, lds_bytes bytes, which LDS_IDX_OP
     * instructions read and write (byte addresses); NULL: they fault. */
    uint8_t *lds;
    uint32_t lds_bytes;
    /* A hull shader's TF_WRITE (GDS clause): `value` to byte `addr` of the
     * tessellation-factor memory; NULL: it faults. */
    int (*tf_write)(void *ctx, uint32_t addr, uint32_t value, char *msg, size_t msglen);
    /* A GROUP_BARRIER run by a lane, called with barrier_ctx: the lanes of
     * a run are in lockstep, so it holds for them; a caller that runs a
     * thread group as several runs waits here for the others (0 when it may
     * go on, or -1 with a reason in msg).  NULL: nothing to wait for. */
    int (*barrier)(void *barrier_ctx, char *msg, size_t msglen);
    void *barrier_ctx;
    /* A MEM_RAT / MEM_RAT_CACHELESS operation of a lane: inst
     * (V_SQ_RAT_INST__*: a store, an atomic, a return) on random-access
     * target rat (CB_COLOR<rat>) at the index idx (INDEX_GPR: x, y, z, w),
     * of data (RW_GPR) under comp_mask (COMP_MASK); an operation with a
     * return writes it to memory itself (the compute stage: src/render/rat.c),
     * done when the call returns.  NULL: MEM_RAT faults. */
    int (*rat)(void *ctx, unsigned rat, unsigned inst, const uint32_t idx[4], const uint32_t data[4],
               unsigned comp_mask, char *msg, size_t msglen);
    /* What the ALU source HW_WAVE_ID reads: the id of the wave running
     * (distinct among the waves in flight at once; SE_ID reads 0, the
     * Cedar's one shader engine).  The compute stage gives each wave of a
     * thread group its index in the group (compute.c). */
    unsigned hw_wave_id;
};

struct eg_shader_err { char msg[200]; };

struct eg_vs_output {
    union eg_vec4 pos[4];   /* position exports 0..3 (ARRAY_BASE 60..63) */
    uint8_t pos_mask;
    union eg_vec4 param[32];
    uint32_t param_mask;
};

/* Run a vertex shader (and the fetch shader it calls with CALL_FS; fs may be
 * NULL when it calls none) for one vertex: R0.x = vertex_id (index with base
 * vertex already added), R0.w = instance_id, as the hardware starts a VS.
 * 0, or -1 with err naming the shader, PC and opcode.  Its stream-out
 * exports (MEM_STREAMn_BUFm) are skipped. */
int eg_run_vs(const struct eg_program *vs, const struct eg_program *fs,
              const struct eg_shader_env *env, uint32_t vertex_id, uint32_t instance_id,
              struct eg_vs_output *out, struct eg_shader_err *err);

/* One stream-out export of a vertex (CF MEM_STREAMn_BUFm, as Mesa's
 * sfn_shader_vs.cpp emits them): the components of comp_mask of v go to
 * dwords dword + c of the vertex's record in buffer buf of stream `stream`. */
#define EG_STREAM_MAX_WRITES 64
struct eg_stream_write {
    uint8_t stream, buf, comp_mask;
    uint16_t dword;                  /* ARRAY_BASE */
    uint32_t v[4];
};
struct eg_stream_out {
    unsigned n;
    struct eg_stream_write w[EG_STREAM_MAX_WRITES];
};

/* eg_run_vs that also records the stream-out exports in `so` (in program
 * order; more than EG_STREAM_MAX_WRITES is a fault). */
int eg_run_vs_stream(const struct eg_program *vs, const struct eg_program *fs,
                     const struct eg_shader_env *env, uint32_t vertex_id, uint32_t instance_id,
                     struct eg_vs_output *out, struct eg_stream_out *so, struct eg_shader_err *err);
/* Any stage but the pixel shader's, for one lane: the stage's first fetch
 * resource and sampler (V_SQ_FETCH_RESOURCE_BASE__*, V_SQ_SAMPLER_BASE__*)
 * and the start values of R0 and R1 (a VS: vertex id and instance id in
 * R0.x / R0.w; a GS: its input vertices' ESGS-ring offsets, primitive id
 * and invocation id, where the caller puts them).  eg_run_vs is this with
 * the VS's bases. */
struct eg_stage_start {
    unsigned res_base, sampler_base;
    union eg_vec4 r0, r1;
};
int eg_run_stage(const struct eg_program *prog, const struct eg_program *fs, const struct eg_shader_env *env,
                 const struct eg_stage_start *start, struct eg_vs_output *out, struct eg_shader_err *err);
/* A stage (not the pixel shader, no fetch shader) for n invocations at
 * once, as one thread group: lane l starts with R0 = r0[l] and R1 =
 * start->r1, and every lane finishes each instruction group (fetch, export)
 * before any starts the next, so what one wrote to the LDS before a
 * GROUP_BARRIER the others see after it.  Their exports all go to out.  0,
 * or -1 with err naming the shader, PC and opcode. */
#define EG_STAGE_MAX_LANES 32
int eg_run_stage_lanes(const struct eg_program *prog, const struct eg_shader_env *env, const struct eg_stage_start *start,
                       const union eg_vec4 *r0, unsigned n, struct eg_vs_output *out, struct eg_shader_err *err);

/* One interpolation parameter as the parameter cache holds it for a triangle:
 * the value at vertex 0 and the differences to vertices 1 and 2.  INTERP_*
 * computes P0 + I*P10 + J*P20 (I, J = barycentric weights of vertices 1, 2). */
struct eg_ps_param {
    float p0[4], p10[4], p20[4];
};

void eg_ps_param_from_vertices(struct eg_ps_param *p, const float v0[4], const float v1[4], const float v2[4]);

struct eg_ps_input {
    /* GPR start values, placed by the caller as SPI_PS_IN_CONTROL_0/1 and
     * SPI_BARYC_CNTL say (e.g. the perspective-centre I,J in R0.x, R0.y when
     * only PERSP_CENTER_ENA is set); other GPRs start at 0 */
    const union eg_vec4 *gpr;
    unsigned ngpr;
    const struct eg_ps_param *param;    /* parameter n = SPI_PS_INPUT_CNTL_n's input */
    unsigned nparam;
};

struct eg_ps_output {
    union eg_vec4 color[8];     /* colour exports by ARRAY_BASE */
    uint8_t color_mask;
    float depth;                /* ARRAY_BASE 61, .x */
    bool depth_written;
    uint32_t stencil;           /* ARRAY_BASE 61, .y: the stencil reference, integer bits */
    bool stencil_written;
    uint32_t mask;              /* ARRAY_BASE 61, .z: the sample mask (gl_SampleMask), integer bits */
    bool mask_written;
    bool killed;                /* a KILL* instruction fired */
};

int eg_run_ps(const struct eg_program *ps, const struct eg_shader_env *env,
              const struct eg_ps_input *in, struct eg_ps_output *out, struct eg_shader_err *err);

/* The pixel shader for n (1..4) lanes at once, as the hardware runs a 2x2
 * quad: lane l starts from in[l] and ends in out[l]; lanes whose bit is set
 * in helpers are helper pixels (they run, so that neighbours see their
 * values, but a VALID_PIXEL_MODE instruction leaves them out).  eg_run_ps is
 * this with one lane. */
int eg_run_ps_lanes(const struct eg_program *ps, const struct eg_shader_env *env,
                    const struct eg_ps_input *in, unsigned n, uint32_t helpers,
                    struct eg_ps_output *out, struct eg_shader_err *err);

/* The pixel shader over a batch of pixels (src/shader/ps_batch.c): decoded
 * once, then each instruction run for every pixel of the batch (registers
 * as structure of arrays).  Every pixel gets exactly eg_run_ps's result,
 * except that where both give a NaN it may be another NaN: an operation on
 * two NaNs returns one of them, and which one C leaves to the compiler
 * (gcc's vector code in the batch can take the other operand first).
 * eg_ps_batch_new returns NULL for a program it does not take (control flow,
 * fetches, depth export, relative addressing, anything eg_run_ps would
 * refuse) or when out of memory: run eg_run_ps per pixel then.  input_gprs:
 * how many GPRs the caller loads (R0..).  A run: eg_ps_batch_begin (n
 * pixels, registers zeroed), the start values written through
 * eg_ps_batch_gpr (lane l = pixel l; NULL: the program never reads that
 * GPR), eg_ps_batch_run with the primitive's parameters (0, or 1 when the
 * program reads a parameter beyond nparam: eg_run_ps reports it), then the
 * exports. */
#define EG_PS_BATCH_MAX 64
struct eg_ps_batch;
struct eg_ps_batch *eg_ps_batch_new(const struct eg_program *ps, const struct eg_shader_env *env,
                                    unsigned input_gprs);
void eg_ps_batch_free(struct eg_ps_batch *b);
void eg_ps_batch_begin(struct eg_ps_batch *b, unsigned n);
uint32_t *eg_ps_batch_gpr(struct eg_ps_batch *b, unsigned gpr, unsigned chan);
int eg_ps_batch_run(struct eg_ps_batch *b, const struct eg_ps_param *param, unsigned nparam);
uint8_t eg_ps_batch_color_mask(const struct eg_ps_batch *b);
const uint32_t *eg_ps_batch_color(const struct eg_ps_batch *b, unsigned target, unsigned chan);
const bool *eg_ps_batch_killed(const struct eg_ps_batch *b);
/* Whether the last run killed any of its pixels (false at once for a
 * program that cannot kill). */
bool eg_ps_batch_any_killed(const struct eg_ps_batch *b);
/* Whether a run of the program may kill pixels (false: eg_ps_batch_killed
 * is all false after every run). */
bool eg_ps_batch_can_kill(const struct eg_ps_batch *b);

/* The pixel shader over a wave of up to EG_WAVE_MAX lanes (src/shader/wave.c),
 * for any program eg_run_ps_lanes runs (control flow, predication, fetches,
 * KILL, derivatives...): each ALU clause decoded once, the first time it
 * runs, and kept; then every instruction run over the wave's active lanes.
 * The lanes come in groups of `group` (1: pixels on their own, as eg_run_ps;
 * 4: 2x2 quads, as eg_run_ps_lanes with 4 lanes), in[] / out[] / helpers
 * by lane as eg_run_ps_lanes takes them, and each group ends exactly as
 * eg_run_ps_lanes leaves it when run alone (NaNs included).  0, or 1 when
 * the groups must be run through eg_run_ps_lanes instead (it faults, and
 * says how, or it does what the wave does not: SEMANTIC
 * fetches); out is then undefined.  env and the program's words must stay
 * valid while the wave is used.  eg_wave_new: NULL when out of memory.
 * A wave is used by one thread at a time. */
#define EG_WAVE_MAX 64
struct eg_wave;
struct eg_wave *eg_wave_new(const struct eg_program *ps, const struct eg_shader_env *env);
void eg_wave_free(struct eg_wave *w);
int eg_wave_run(struct eg_wave *w, const struct eg_ps_input *in, unsigned n, unsigned group, uint64_t helpers,
                struct eg_ps_output *out);

/* The vertex shader (with the fetch shader it calls with CALL_FS; fs NULL
 * when there is none) over a wave of n (1..EG_WAVE_MAX) vertices: lane l
 * starts as eg_run_vs starts one vertex (R0 = r0[l]: vertex id in x,
 * instance id in w; the other GPRs 0) and ends in out[l] with exactly
 * eg_run_vs's exports (stream-out exports skipped): its masks, and the
 * positions and parameters they name (the others are left undefined, not
 * cleared: a caller reads only what the masks name).  The same decoded ALU
 * clauses as a pixel wave (none in the fetch shader: those make the run
 * return 1).  0, or 1 when the vertices must be run through eg_run_vs
 * instead (it faults and says how, or it does what the wave does not); out
 * is then undefined.  eg_wave_run refuses a vertex wave and
 * eg_wave_run_vs a pixel one (1). */
struct eg_wave *eg_wave_new_vs(const struct eg_program *vs, const struct eg_program *fs, const struct eg_shader_env *env);
int eg_wave_run_vs(struct eg_wave *w, const union eg_vec4 *r0, unsigned n, struct eg_vs_output *out);

/* Convert one fetched element of a FMT_* data format to four 32-bit
 * components (missing ones 0, w 1; the instruction's SQ_INST_SEL picks later),
 * SRF_MODE ZERO_CLAMP_MINUS_ONE (cedar/vtx_format.h has the whole interface).
 * bytes must hold eg_fmt_bytes(data_format) bytes.  Returns the component
 * count, or -1 for a format the vertex fetch does not read. */
int eg_fmt_bytes(unsigned data_format);
int eg_fmt_convert(unsigned data_format, unsigned num_format, unsigned format_comp,
                   const uint8_t *bytes, union eg_vec4 *out);

/* ======================================================================
 * The demo's shaders (src/shader/demo_shaders.c): one triangle, position and
 * colour per vertex, colour interpolated and written to colour buffer 0.
 * ====================================================================== */

#define EG_DEMO_SHADER_MAX_DW 64

struct eg_demo_shaders {
    uint32_t fs[EG_DEMO_SHADER_MAX_DW], vs[EG_DEMO_SHADER_MAX_DW], ps[EG_DEMO_SHADER_MAX_DW];
    size_t fs_ndw, vs_ndw, ps_ndw;

    /* Facts for programming SQ_PGM_* / SPI_* / the vertex buffer resource. */
    unsigned vs_num_gprs, vs_stack_size;    /* SQ_PGM_RESOURCES_VS */
    unsigned ps_num_gprs, ps_stack_size;    /* SQ_PGM_RESOURCES_PS */
    unsigned fs_num_gprs;                   /* SQ_PGM_RESOURCES_FS (GPRs are the VS's) */
    unsigned ps_color_exports;              /* SQ_PGM_EXPORTS_PS.EXPORT_MODE = this << 1 */
    unsigned ps_num_interp;                 /* SPI_PS_IN_CONTROL_0.NUM_INTERP */
    bool ps_persp_center;                   /* SPI_BARYC_CNTL.PERSP_CENTER_ENA; I,J in R0.xy */
    unsigned vs_export_count;               /* parameters exported (SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT = n - 1) */
    unsigned vs_pos_exports;                /* position exports */
    unsigned color_param;                   /* the colour's parameter index (VS export / PS input) */
    unsigned color_semantic;                /* SPI_VS_OUT_ID_0 / SPI_PS_INPUT_CNTL_0 SEMANTIC */
    unsigned vtx_semantic[2];               /* SQ_VTX_SEMANTIC_0 (position -> R1), _1 (colour -> R2) */
    unsigned vtx_buffer_id;                 /* BUFFER_ID in the fetch shader */
    unsigned vtx_resource;                  /* absolute fetch resource (FS base + id) */
    unsigned vtx_stride;                    /* bytes per vertex */
    unsigned pos_offset, color_offset;      /* bytes into a vertex */
    unsigned pos_format, color_format;      /* V_SQ_DATA_FORMAT__* */
    unsigned color_encoding;                /* enum eg_demo_color_format (below) */
};

/* How the vertex buffer stores the colour attribute (cedar-msaa
 * --vertex-color-format) and how the fetch shader reads it. */
enum eg_demo_color_format {
    EG_DEMO_COLOR_R32G32B32_FLOAT,  /* the default: one FMT_32_32_32_FLOAT fetch, w = 1 */
    EG_DEMO_COLOR_R8G8B8A8_UNORM,   /* one FMT_8_8_8_8 UNORM fetch */
    EG_DEMO_COLOR_R8G8B8_SNORM,     /* three FMT_8 SNORM fetches at bytes 0, 1, 2, w = 1 */
    EG_DEMO_COLOR_R8G8B8_UNORM,     /* three FMT_8 UNORM fetches at bytes 0, 1, 2, w = 1 */
    EG_DEMO_COLOR_COUNT
};
/* "r32g32b32_float", ...; parse: 0, or -1 for any other name. */
const char *eg_demo_color_format_name(enum eg_demo_color_format f);
int eg_demo_color_format_parse(const char *name, enum eg_demo_color_format *f);

/* Build the three shaders and fill the facts (the colour as
 * R32G32B32_FLOAT).  0, or -1 (an encoder bug). */
int eg_demo_shaders_build(struct eg_demo_shaders *s);
/* The same with the colour stored as `color`. */
int eg_demo_shaders_build_color(struct eg_demo_shaders *s, enum eg_demo_color_format color);

/* The same programs with the caller's colour fetches (cedar-probe formats):
 * the position (3 floats) at byte 0 of a vtx_stride-byte vertex, then
 * nfetch fetches of the colour semantic, each writing the channels its
 * dst_sel names (V_SQ_INST_SEL__MASK: not written); flat: the pixel shader
 * exports the colour of vertex 0 unchanged (INTERP_LOAD_P0) instead of
 * interpolating it.  0, or -1 (a bad spec or an encoder bug). */
#define EG_DEMO_MAX_COLOR_FETCHES 4
struct eg_demo_color_fetch {
    unsigned offset, bytes;     /* in the vertex; bytes of the element (mega-fetch count + 1) */
    unsigned data_format, num_format, format_comp, srf_mode;
    uint8_t dst_sel[4];
};
struct eg_demo_fetch_spec {
    unsigned vtx_stride;
    const struct eg_demo_color_fetch *fetch;
    unsigned nfetch;
    bool flat;
};
int eg_demo_shaders_build_spec(struct eg_demo_shaders *s, const struct eg_demo_fetch_spec *spec);

#endif
