/* The shader core on any microcode: the disassembler, the vertex shader
 * with a fetch shader, the pixel shader, and the pixel batch against the
 * per-pixel interpreter.  Input: a mode byte, a 16-bit dword count and that
 * many dwords of program A, a 16-bit count and dwords of program B (the
 * fetch shader), then bytes that fill the vertex memory, the start GPRs,
 * the interpolation parameters and the semantic table.  Resources,
 * constants and texels come from fixed functions of their index.
 * Invariants beyond "no crash":
 *  - an error names the shader and its PC on one line;
 *  - a run depends only on its inputs: rerun into output structs holding
 *    other bytes, it exports the same values (or fails the same way);
 *  - texel and FMask callbacks only see coordinates inside the texture and
 *    samples below its count (shader.h);
 *  - a program the batch takes gives every lane exactly eg_run_ps's result
 *    (shader.h: a NaN may come out as another NaN), and one it takes
 *    eg_run_ps runs too. */
#include <math.h>
#include <stdbool.h>

#include "cedar/shader.h"
#include "cedar/vc_hw.h"
#include "fuzz_util.h"
#include "tests/common/shader_exports.h"

#define VB_ADDR 0x100000u
#define VB_SIZE 4096u

struct ctx {
    uint8_t vram[VB_SIZE];
};

static void *mem_ptr(void *c, uint64_t addr, uint64_t len)
{
    struct ctx *x = c;
    if (addr < VB_ADDR || len > VB_SIZE || addr - VB_ADDR > VB_SIZE - len)
        return NULL;
    return x->vram + (addr - VB_ADDR);
}

static uint32_t mix(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    return v ^ (v >> 16);
}

static int vtx_resource(void *c, unsigned res, struct eg_vtx_resource *out, char *msg, size_t len)
{
    (void)c;
    if (res % 7 == 6) {
        snprintf(msg, len, "no vertex resource %u", res);
        return -1;
    }
    uint32_t h = mix(res);
    *out = (struct eg_vtx_resource){ .base = VB_ADDR + (h & 0xFF), .size = (h >> 8) % VB_SIZE,
                                     .stride = (h >> 20) % 64, .data_format = (h >> 4) % 64,
                                     .num_format = (h >> 10) % 3, .format_comp = (h >> 12) & 1,
                                     .srf_mode = (h >> 13) & 1, .endian_swap = (h >> 14) % 3 };
    return 0;
}

static int constant(void *c, unsigned bank, unsigned index, uint32_t out[4], char *msg, size_t len)
{
    (void)c;
    if (bank > 1 || index >= 256) {
        snprintf(msg, len, "no constant %u of bank %u", index, bank);
        return -1;
    }
    for (int k = 0; k < 4; k++)
        out[k] = mix(bank * 1024 + index * 4 + (unsigned)k);
    return 0;
}

static int tex_resource(void *c, unsigned res, struct eg_tex_resource *out, char *msg, size_t len)
{
    (void)c;
    if (res % 5 == 4) {
        snprintf(msg, len, "no texture %u", res);
        return -1;
    }
    uint32_t h = mix(res + 77);
    unsigned dim = (h >> 24) % 8;   /* V_SQ_TEX_DIM__*: 1D .. 2D_ARRAY_MSAA */
    bool msaa = dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
    *out = (struct eg_tex_resource){ .width = 1 + h % 16, .height = 1 + (h >> 4) % 16, .depth = 1 + (h >> 8) % 3,
                                     .dst_sel = { (uint8_t)((h >> 12) % 6), (uint8_t)((h >> 15) % 6),
                                                  (uint8_t)((h >> 18) % 6), (uint8_t)((h >> 21) % 6) },
                                     .dim = dim, .levels = 1 + (h >> 27) % 4, .samples = msaa ? 1u << (h >> 29) % 4 : 0 };
    return 0;
}

static int tex_sampler(void *c, unsigned s, unsigned res, struct eg_tex_sampler *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len;
    uint32_t h = mix(s + 999 + res * 7);
    *out = (struct eg_tex_sampler){ .clamp_x = h % 8, .clamp_y = (h >> 3) % 8, .clamp_z = (h >> 6) % 8,
                                    .mag_filter = (h >> 9) % 2, .min_filter = (h >> 10) % 2,
                                    .border = { .f = { 0.25f, 0.5f, 0.75f, 1.0f } } };
    return 0;
}

/* The promise of shader.h: coordinates already inside the texture, a sample
 * below an MSAA texture's samples (else 0). */
static void check_texel_at(unsigned res, int x, int y, int z, unsigned sample)
{
    struct eg_tex_resource tr;
    char m[8];
    FUZZ_CHECK(tex_resource(NULL, res, &tr, m, sizeof m) == 0, "texel of a resource that does not exist");
    FUZZ_CHECK(x >= 0 && y >= 0 && z >= 0 && (unsigned)x < tr.width && (unsigned)y < tr.height &&
                   (unsigned)z < tr.depth,
               "texel (%d, %d, %d) outside the %ux%ux%u texture %u", x, y, z, tr.width, tr.height, tr.depth, res);
    FUZZ_CHECK(sample < (tr.samples ? tr.samples : 1), "sample %u of a texture with %u", sample, tr.samples);
}

static int texel(void *c, unsigned res, int x, int y, int z, unsigned sample, union eg_vec4 *out, char *msg,
                 size_t len)
{
    (void)c, (void)msg, (void)len;
    check_texel_at(res, x, y, z, sample);
    for (int k = 0; k < 4; k++)
        out->f[k] = (float)(mix(res * 4096 + (unsigned)(z * 256 + y * 16 + x) * 4 + (unsigned)k + sample * 65536) % 1000) /
                    999.0f;
    return 0;
}

static int tex_fmask(void *c, unsigned res, int x, int y, int z, uint32_t *out, char *msg, size_t len)
{
    (void)c, (void)msg, (void)len;
    check_texel_at(res, x, y, z, 0);
    *out = mix(res + (unsigned)(x + 16 * y + 256 * z));
    return 0;
}

static void check_error(const struct eg_shader_err *err, const char *name)
{
    fuzz_check_line("shader error", err->msg);
    char want[16];
    snprintf(want, sizeof want, "shader %s ", name);
    FUZZ_CHECK(!strncmp(err->msg, want, strlen(want)), "error does not name shader %s: %s", name, err->msg);
}

/* NaN bits: any NaN may stand for another (shader.h, eg_ps_batch). */
static bool is_nan(uint32_t u)
{
    return (u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu);
}

static uint32_t *take_program(struct fuzz_in *in, size_t *ndw)
{
    size_t n = fuzz_u16(in) % 1024;
    if (n > in->n / 4)
        n = in->n / 4;
    uint32_t *w = malloc(n ? n * 4 : 1);
    FUZZ_CHECK(w, "out of memory");
    memcpy(w, in->p, n * 4);
    in->p += n * 4;
    in->n -= n * 4;
    *ndw = n;
    return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    struct fuzz_in in = { data, size };
    unsigned mode = fuzz_u8(&in) % 4;
    size_t na, nb;
    uint32_t *a = take_program(&in, &na), *b = take_program(&in, &nb);
    static struct ctx c;
    memset(&c, 0, sizeof c);
    struct eg_shader_env env = { .ctx = &c, .vtx_resource = vtx_resource, .constant = constant,
                                 .tex_resource = tex_resource, .tex_sampler = tex_sampler, .texel = texel,
                                 .tex_fmask = tex_fmask };
    const struct vc_mem mem = { .ctx = &c, .ptr = mem_ptr };
    env.mem = &mem;
    env.vtx_semantic_valid = fuzz_u32(&in);
    for (int k = 0; k < 32; k++)
        env.vtx_semantic[k] = fuzz_u8(&in);
    union eg_vec4 g[2];
    for (int k = 0; k < 8; k++)
        g[k / 4].u[k % 4] = fuzz_u32(&in);
    struct eg_ps_param par[2];
    for (int k = 0; k < 2; k++)
        for (int ch = 0; ch < 4; ch++) {
            union { uint32_t u; float f; } v0 = { fuzz_u32(&in) }, v1 = { fuzz_u32(&in) }, v2 = { fuzz_u32(&in) };
            par[k].p0[ch] = v0.f;
            par[k].p10[ch] = v1.f;
            par[k].p20[ch] = v2.f;
        }
    uint32_t vertex_id = fuzz_u32(&in), instance_id = fuzz_u8(&in);
    memcpy(c.vram, in.p, in.n < VB_SIZE ? in.n : VB_SIZE);

    struct eg_program pa = { "A", a, na }, pb = { "B", b, nb };
    struct eg_shader_err err[2];
    if (mode == 0) {
        int r = eg_shader_disasm(a, na, devnull, NULL);
        FUZZ_CHECK(r == EG_DISASM_OK || r == EG_DISASM_UNKNOWN || r == EG_DISASM_MALFORMED, "disasm returned %d", r);
        struct eg_disasm_opts o = { .no_words = true };
        FUZZ_CHECK(eg_shader_disasm(a, na, devnull, &o) == r, "disasm result depends on no_words");
    } else if (mode == 1) {
        struct eg_vs_output out[2];
        int r[2];
        for (int k = 0; k < 2; k++) {
            memset(&out[k], k ? 0xA5 : 0, sizeof out[k]);
            r[k] = eg_run_vs(&pa, nb ? &pb : NULL, &env, vertex_id, instance_id, &out[k], &err[k]);
        }
        FUZZ_CHECK(r[0] == r[1], "two runs of a vertex shader end differently");
        if (r[0] == 0)
            FUZZ_CHECK(test_vs_exports_equal(&out[0], &out[1]), "a vertex shader's exports depend on its output's old bytes");
        else {
            FUZZ_CHECK(!strcmp(err[0].msg, err[1].msg), "two runs fail differently");
            FUZZ_CHECK(!strncmp(err[0].msg, "shader A ", 9) || !strncmp(err[0].msg, "shader B ", 9),
                       "error names no shader: %s", err[0].msg);
            fuzz_check_line("shader error", err[0].msg);
        }
    } else {
        struct eg_ps_input pin = { g, 2, par, 2 };
        struct eg_ps_output out[2];
        int r[2];
        for (int k = 0; k < 2; k++) {
            memset(&out[k], k ? 0xA5 : 0, sizeof out[k]);
            r[k] = eg_run_ps(&pa, &env, &pin, &out[k], &err[k]);
        }
        FUZZ_CHECK(r[0] == r[1], "two runs of a pixel shader end differently");
        if (r[0] == 0)
            FUZZ_CHECK(test_ps_exports_equal(&out[0], &out[1]), "a pixel shader's exports depend on its output's old bytes");
        else {
            FUZZ_CHECK(!strcmp(err[0].msg, err[1].msg), "two runs fail differently");
            check_error(&err[0], "A");
        }
        struct eg_ps_batch *bt = mode == 3 ? eg_ps_batch_new(&pa, &env, 2) : NULL;
        if (bt) {
            unsigned n = 1 + vertex_id % EG_PS_BATCH_MAX;
            union eg_vec4 lane_in[EG_PS_BATCH_MAX][2];
            eg_ps_batch_begin(bt, n);
            for (unsigned l = 0; l < n; l++)
                for (unsigned k = 0; k < 8; k++) {
                    /* lane 0 the input's GPRs, the others variations of them */
                    uint32_t v = g[k / 4].u[k % 4];
                    lane_in[l][k / 4].u[k % 4] = l == 0 ? v : (l % 3 == 0 ? mix(v + l) : v ^ (l << (k % 24)));
                    uint32_t *lane = eg_ps_batch_gpr(bt, k / 4, k % 4);
                    if (lane)
                        lane[l] = lane_in[l][k / 4].u[k % 4];
                }
            int br = eg_ps_batch_run(bt, par, 2);
            FUZZ_CHECK(br == 0 || br == 1, "batch run returned %d", br);
            for (unsigned l = 0; l < n && br == 0; l++) {
                struct eg_ps_input li = { lane_in[l], 2, par, 2 };
                struct eg_ps_output o;
                struct eg_shader_err e;
                FUZZ_CHECK(eg_run_ps(&pa, &env, &li, &o, &e) == 0, "the batch took a program eg_run_ps refuses: %s",
                           e.msg);
                FUZZ_CHECK(o.color_mask == eg_ps_batch_color_mask(bt), "lane %u colour mask", l);
                FUZZ_CHECK(o.killed == eg_ps_batch_killed(bt)[l], "lane %u kill", l);
                for (unsigned t = 0; t < 8; t++)
                    for (unsigned ch = 0; t < 8 && (o.color_mask >> t & 1) && ch < 4; ch++) {
                        uint32_t want = o.color[t].u[ch], got = eg_ps_batch_color(bt, t, ch)[l];
                        FUZZ_CHECK(want == got || (is_nan(want) && is_nan(got)),
                                   "lane %u colour %u.%u: per pixel 0x%08x, batch 0x%08x", l, t, ch, want, got);
                    }
            }
            eg_ps_batch_free(bt);
        }
    }
    free(a);
    free(b);
    return 0;
}
