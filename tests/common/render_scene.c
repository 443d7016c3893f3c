/* The reference scene (see render_scene.h).  Register values follow Mesa's
 * stream for the same scene (tests/data/mesa-r600-msaa8x/cs_003.txt and
 * cs_004.txt): 8x sample locations 0x35B3511F / 0x7BD79DF9 (Mesa's Evergreen
 * 8x table), PA_SU_VTX_CNTL PIX_CENTER_HALF + QUANT_MODE 1/256, the CB
 * registers from src/layout; the viewport flips y as the seed write-up's
 * frame does (NDC +y is the top of the image). */
#include <stdlib.h>
#include <string.h>

#include "cedar/image.h"
#include "cedar/shader.h"
#include "src/render/render_priv.h"
#include "tests/common/render_scene.h"

#define SCENE_W 1280
#define SCENE_H 720
#define GPU_BASE 0x100000ull
#define ALIGN 0x10000ull
#define PROGRAM_ALIGN 256u      /* SQ_PGM_START_* hold address >> 8 */
#define EXTRA_BYTES 0x4000u     /* programs and vertex buffer, after the resolve surface */

/* Mesa evergreen_state.c sample locations, as written in cs_003. */
static const uint32_t sample_locs_8x[2] = {0x35B3511Fu, 0x7BD79DF9u};
/* FILL_SREG(-2, -6, 6, -2, -6, 2, 2, 6) and FILL_SREG(4, 4, -4, -4, 4, 4, -4, -4). */
static const uint32_t sample_locs_4x = 0x622AE6AEu;
static const uint32_t sample_locs_2x = 0xCC44CC44u;

struct scene_vertex { float pos[4]; float color[4]; };

/* The seed write-up's triangle (tests/data/cedar/README.md), then the
 * resolve rectangle (Mesa's blitter order: (x1,y1), (x1,y2), (x2,y1)). */
static const struct scene_vertex scene_vertices[6] = {
    {{0.5846f, -0.9f, 0.0f, 1.0f}, {1, 0, 0, 1}},
    {{-0.5846f, -0.9f, 0.0f, 1.0f}, {0, 0, 1, 1}},
    {{0.0f, 0.9f, 0.0f, 1.0f}, {0, 1, 0, 1}},
    {{-1.0f, 1.0f, 0.0f, 1.0f}, {0, 0, 0, 1}},
    {{-1.0f, -1.0f, 0.0f, 1.0f}, {0, 0, 0, 1}},
    {{1.0f, 1.0f, 0.0f, 1.0f}, {0, 0, 0, 1}},
};

struct stand_in { unsigned first_vertex; };

/* FIXED-FUNCTION STAND-IN for the vertex stage (test double). */
static int fixed_function_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                                 uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    const struct stand_in *s = ctx;
    (void)regs;
    (void)mem;
    (void)instance;
    uint32_t v = s->first_vertex + index;
    if (v >= sizeof scene_vertices / sizeof scene_vertices[0]) {
        snprintf(err->msg, sizeof err->msg, "stand-in vertex stage: no vertex %u", v);
        return -1;
    }
    memcpy(out->pos, scene_vertices[v].pos, sizeof out->pos);
    memcpy(out->param[0], scene_vertices[v].color, sizeof out->param[0]);
    out->param_mask = 1;
    return 0;
}

/* FIXED-FUNCTION STAND-IN for the pixel stage (test double): input 0 at the
 * perspective-correct pixel centre, as INTERP_XY / INTERP_ZW evaluate it. */
static int fixed_function_pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                                const struct vc_prim_inputs *prim, const struct vc_pixel_in *in,
                                struct vc_pixel_out *out, struct vc_draw_err *err)
{
    (void)ctx;
    (void)regs;
    (void)mem;
    (void)err;
    float i = in->ij[VC_BARYC_PERSP_CENTER][0], j = in->ij[VC_BARYC_PERSP_CENTER][1];
    for (int c = 0; c < 4; c++) {
        float p0 = prim->attr[0][0][c];
        float d1 = prim->attr[0][1][c] - p0, d2 = prim->attr[0][2][c] - p0;
        out->color[0][c] = p0 + i * d1 + j * d2;
    }
    out->num_colors = 1;
    return 0;
}

static void *scene_ptr(void *ctx, uint64_t addr, uint64_t len)
{
    struct scene *sc = ctx;
    if (addr < sc->gpu_base || len > sc->mem_size || addr - sc->gpu_base > sc->mem_size - len)
        return NULL;
    return sc->mem + (addr - sc->gpu_base);
}

void scene_set_reg(struct vc_regs *r, uint32_t off, uint32_t v)
{
    if (off >= SPACE_CONTEXT_START && off < SPACE_CONTEXT_END)
        r->context[(off - SPACE_CONTEXT_START) / 4] = v;
    else if (off >= SPACE_CONFIG_START && off < SPACE_CONFIG_END)
        r->config[(off - SPACE_CONFIG_START) / 4] = v;
}

void scene_set_float(struct vc_regs *r, uint32_t off, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    scene_set_reg(r, off, u);
}

static uint32_t log2u(unsigned v)
{
    uint32_t l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

static uint32_t attrib_of(const struct cedar_surface *s, unsigned fmask_bankh)
{
    return S_CB_COLOR_ATTRIB__TILE_SPLIT(s->tile_split_enc) |
           S_CB_COLOR_ATTRIB__NUM_BANKS(log2u(s->tiling.banks) - 1) |
           S_CB_COLOR_ATTRIB__BANK_WIDTH(s->bankw_enc) | S_CB_COLOR_ATTRIB__BANK_HEIGHT(s->bankh_enc) |
           S_CB_COLOR_ATTRIB__MACRO_TILE_ASPECT(s->mtilea_enc) |
           S_CB_COLOR_ATTRIB__FMASK_BANK_HEIGHT(log2u(fmask_bankh));
}

static uint32_t info_of(bool fmask, bool cmask)
{
    return S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_8_8_8_8) |
           S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_2D_TILED_THIN1) |
           S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_UNORM) |
           S_CB_COLOR_INFO__COMP_SWAP(V_CB_COMP_SWAP__SWAP_ALT) | /* B,G,R,A in memory, as the card's frame */
           S_CB_COLOR_INFO__FAST_CLEAR(cmask ? 1 : 0) | S_CB_COLOR_INFO__COMPRESSION(fmask ? 1 : 0) |
           S_CB_COLOR_INFO__BLEND_CLAMP(1) | S_CB_COLOR_INFO__SIMPLE_FLOAT(1) |
           S_CB_COLOR_INFO__SOURCE_FORMAT(V_CB_SOURCE_FORMAT__EXPORT_4C_16BPC);
}

int scene_init(struct scene *sc, unsigned samples, char *why)
{
    memset(sc, 0, sizeof *sc);
    sc->samples = samples;
    sc->width = SCENE_W;
    sc->height = SCENE_H;
    struct cedar_tiling t;
    struct cedar_layout_err lerr = {{0}};
    cedar_tiling_from_config(0x11, &t); /* HD 7350: 2 pipes, 8 banks, 256 B, 1 KB rows */
    struct cedar_surface_req req = {SCENE_W, SCENE_H, 4, samples, CEDAR_MODE_2D_THIN, true, false};
    if (samples < 2) {
        snprintf(why, 200, "the scene needs 2, 4 or 8 samples");
        return -1;
    }
    if (cedar_msaa_layout(&req, &t, &sc->lay, &lerr)) {
        snprintf(why, 200, "layout: %s", lerr.msg);
        return -1;
    }
    if (cedar_tile_map_init(&sc->resolve_map, &sc->lay.resolve, NULL, &lerr) ||
        cedar_fmask_map_init(&sc->fmask_map, &sc->lay.fmask.surf, samples, NULL, &lerr)) {
        snprintf(why, 200, "tiling: %s", lerr.msg);
        return -1;
    }
    sc->gpu_base = GPU_BASE;
    sc->color_addr = GPU_BASE;
    sc->resolve_addr = GPU_BASE + ((sc->lay.total_size + ALIGN - 1) & ~(ALIGN - 1));
    sc->extra_addr = (sc->resolve_addr + sc->lay.resolve.size + ALIGN - 1) & ~(ALIGN - 1);
    sc->mem_size = sc->extra_addr - GPU_BASE + EXTRA_BYTES;
    sc->mem = calloc(1, sc->mem_size);
    sc->regs = calloc(1, sizeof *sc->regs);
    sc->r = vc_render_new();
    if (!sc->mem || !sc->regs || !sc->r) {
        snprintf(why, 200, "out of memory");
        scene_free(sc);
        return -1;
    }
    sc->vmem.ctx = sc;
    sc->vmem.ptr = scene_ptr;
    /* clear colour (0.2, 0.3, 0.3, 1) as the card stored it: B, G, R, A */
    const uint8_t clear[4] = {0x4C, 0x4C, 0x33, 0xFF};
    memcpy(sc->clear_bgra, clear, 4);

    struct vc_regs *r = sc->regs;
    /* CB0: the MSAA surface with FMask and CMask */
    const struct cedar_surface *c = &sc->lay.color;
    scene_set_reg(r, REG_CB_COLOR_BASE(0), (uint32_t)(sc->color_addr >> 8));
    scene_set_reg(r, REG_CB_COLOR_PITCH(0), c->pitch_tile_max);
    scene_set_reg(r, REG_CB_COLOR_SLICE(0), c->slice_tile_max);
    scene_set_reg(r, REG_CB_COLOR_INFO(0), info_of(true, true));
    /* ROP3 "copy", as Mesa sets it whatever the mode (targets made from
     * these registers before a draw store what they are given) */
    scene_set_reg(r, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__ROP3(0xCC));
    scene_set_reg(r, REG_CB_COLOR_ATTRIB(0), attrib_of(c, sc->lay.fmask.bank_height));
    scene_set_reg(r, REG_CB_COLOR_CMASK(0), (uint32_t)((sc->color_addr + sc->lay.cmask.offset) >> 8));
    scene_set_reg(r, REG_CB_COLOR_CMASK_SLICE(0), sc->lay.cmask.slice_tile_max);
    scene_set_reg(r, REG_CB_COLOR_FMASK(0), (uint32_t)((sc->color_addr + sc->lay.fmask.offset) >> 8));
    scene_set_reg(r, REG_CB_COLOR_FMASK_SLICE(0), sc->lay.fmask.slice_tile_max);
    uint32_t cw;
    memcpy(&cw, clear, 4);
    scene_set_reg(r, REG_CB_COLOR_CLEAR_WORD0(0), cw);
    /* CB1: the resolve destination (used by the resolve draw only) */
    const struct cedar_surface *d = &sc->lay.resolve;
    scene_set_reg(r, REG_CB_COLOR_BASE(1), (uint32_t)(sc->resolve_addr >> 8));
    scene_set_reg(r, REG_CB_COLOR_PITCH(1), d->pitch_tile_max);
    scene_set_reg(r, REG_CB_COLOR_SLICE(1), d->slice_tile_max);
    scene_set_reg(r, REG_CB_COLOR_ATTRIB(1), attrib_of(d, d->bankh));
    scene_set_reg(r, REG_CB_TARGET_MASK, 0xF);
    scene_set_reg(r, REG_CB_SHADER_MASK, 0xF);

    /* PA */
    scene_set_reg(r, REG_PA_SU_VTX_CNTL, S_PA_SU_VTX_CNTL__PIX_CENTER_HALF(1) |
                                       S_PA_SU_VTX_CNTL__QUANT_MODE(V_PA_SU_QUANT_MODE__X_1_256TH));
    scene_set_reg(r, REG_PA_CL_VTE_CNTL, 0x43F); /* scale/offset x, y, z enabled; VTX_W0_FMT (cs_003) */
    scene_set_reg(r, REG_PA_CL_CLIP_CNTL, S_PA_CL_CLIP_CNTL__CLIP_DISABLE(1));
    scene_set_float(r, REG_PA_CL_VPORT_XSCALE(0), SCENE_W / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_XOFFSET(0), SCENE_W / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_YSCALE(0), -SCENE_H / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_YOFFSET(0), SCENE_H / 2.0f);
    scene_set_float(r, REG_PA_CL_VPORT_ZSCALE(0), 0.5f);
    scene_set_float(r, REG_PA_CL_VPORT_ZOFFSET(0), 0.5f);
    scene_set_reg(r, REG_PA_SU_SC_MODE_CNTL, S_PA_SU_SC_MODE_CNTL__PROVOKING_VTX_LAST(1));
    scene_set_reg(r, REG_PA_SC_SCREEN_SCISSOR_BR, 0x40004000);
    scene_set_reg(r, REG_PA_SC_GENERIC_SCISSOR_BR, 0x40004000);
    scene_set_reg(r, REG_PA_SC_WINDOW_SCISSOR_BR, (SCENE_H << 16) | SCENE_W);
    scene_set_reg(r, REG_PA_SC_VPORT_SCISSOR_TL(0), S_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(1));
    scene_set_reg(r, REG_PA_SC_VPORT_SCISSOR_BR(0), (SCENE_H << 16) | SCENE_W);
    scene_set_reg(r, REG_PA_SC_MODE_CNTL_0, S_PA_SC_MODE_CNTL_0__MSAA_ENABLE(1) | S_PA_SC_MODE_CNTL_0__VPORT_SCISSOR_ENABLE(1));
    scene_set_reg(r, REG_PA_SC_AA_CONFIG, S_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(log2u(samples)) |
                                        S_PA_SC_AA_CONFIG__MAX_SAMPLE_DIST(7));
    /* Mesa's Evergreen tables (cayman_msaa.c eg_sample_locs_2x / _4x,
     * evergreen_state.c sample_locs_8x = the two dwords of cs_003). */
    for (unsigned k = 0; k < 8; k++) {
        uint32_t v = samples == 8 ? sample_locs_8x[k % 2] : samples == 4 ? sample_locs_4x : sample_locs_2x;
        scene_set_reg(r, REG_PA_SC_AA_SAMPLE_LOCS(k), v);
    }
    scene_set_reg(r, REG_PA_SC_AA_MASK, 0xFFFFFFFFu);
    /* VGT */
    scene_set_reg(r, REG_VGT_MAX_VTX_INDX, 0xFFFFFFFFu);
    /* SPI: one colour input, semantic 10 both sides (cs_003) */
    scene_set_reg(r, REG_SPI_VS_OUT_ID(0), 10);
    scene_set_reg(r, REG_SPI_PS_INPUT_CNTL(0), S_SPI_PS_INPUT_CNTL__SEMANTIC(10));
    scene_set_reg(r, REG_SPI_PS_IN_CONTROL_0, S_SPI_PS_IN_CONTROL_0__NUM_INTERP(1) |
                                           S_SPI_PS_IN_CONTROL_0__PERSP_GRADIENT_ENA(1));
    scene_set_reg(r, REG_SPI_BARYC_CNTL, S_SPI_BARYC_CNTL__PERSP_CENTER_ENA(1));
    return 0;
}

int scene_use_demo_shaders(struct scene *sc, char *why)
{
    struct eg_demo_shaders sh;
    if (eg_demo_shaders_build(&sh)) {
        snprintf(why, 200, "the demo shaders did not build");
        return -1;
    }
    uint8_t *extra = sc->mem + (sc->extra_addr - sc->gpu_base);
    const struct { const uint32_t *dw; size_t ndw; uint32_t reg; } progs[3] = {
        {sh.fs, sh.fs_ndw, REG_SQ_PGM_START_FS},
        {sh.vs, sh.vs_ndw, REG_SQ_PGM_START_VS},
        {sh.ps, sh.ps_ndw, REG_SQ_PGM_START_PS},
    };
    uint64_t off = 0;
    for (int k = 0; k < 3; k++) {
        memcpy(extra + off, progs[k].dw, progs[k].ndw * 4);
        scene_set_reg(sc->regs, progs[k].reg, (uint32_t)((sc->extra_addr + off) >> 8));
        off += (progs[k].ndw * 4 + PROGRAM_ALIGN - 1) / PROGRAM_ALIGN * PROGRAM_ALIGN;
    }
    /* vertex buffer: the scene's six vertices as position xyz, colour rgb */
    sc->vtx_addr = sc->extra_addr + off;
    sc->vtx_stride = sh.vtx_stride;
    sc->vtx_resource = sh.vtx_resource;
    size_t nv = sizeof scene_vertices / sizeof scene_vertices[0];
    if (off + nv * sh.vtx_stride > EXTRA_BYTES) {
        snprintf(why, 200, "the demo shaders do not fit the scene's buffer");
        return -1;
    }
    for (size_t v = 0; v < nv; v++) {
        uint8_t *p = extra + off + v * sh.vtx_stride;
        memcpy(p + sh.pos_offset, scene_vertices[v].pos, 12);
        memcpy(p + sh.color_offset, scene_vertices[v].color, 12);
    }
    struct vc_regs *r = sc->regs;
    scene_set_reg(r, REG_SQ_VTX_SEMANTIC(0), sh.vtx_semantic[0]);
    scene_set_reg(r, REG_SQ_VTX_SEMANTIC(1), sh.vtx_semantic[1]);
    scene_set_reg(r, REG_SPI_VS_OUT_ID(sh.color_param / 4), sh.color_semantic << (8 * (sh.color_param % 4)));
    scene_set_reg(r, REG_SPI_VS_OUT_CONFIG, S_SPI_VS_OUT_CONFIG__VS_EXPORT_COUNT(sh.vs_export_count - 1));
    scene_set_reg(r, REG_SPI_PS_INPUT_CNTL(sh.color_param), S_SPI_PS_INPUT_CNTL__SEMANTIC(sh.color_semantic));
    scene_set_reg(r, REG_SPI_PS_IN_CONTROL_0, S_SPI_PS_IN_CONTROL_0__NUM_INTERP(sh.ps_num_interp) |
                                           S_SPI_PS_IN_CONTROL_0__PERSP_GRADIENT_ENA(1));
    scene_set_reg(r, REG_SPI_BARYC_CNTL, S_SPI_BARYC_CNTL__PERSP_CENTER_ENA(sh.ps_persp_center));
    sc->real_shaders = true;
    vc_render_set_shaders(sc->r, NULL);
    return 0;
}

/* Vertex resource of the demo's fetch shader: the buffer from vertex `first`. */
static void set_vertex_resource(struct scene *sc, unsigned first, unsigned count)
{
    uint64_t base = sc->vtx_addr + (uint64_t)first * sc->vtx_stride;
    uint32_t *w = &sc->regs->resource[sc->vtx_resource * V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS];
    memset(w, 0, V_SQ_STAGE_LAYOUT__RESOURCE_DWORDS * 4);
    w[0] = (uint32_t)base;
    w[1] = count * sc->vtx_stride - 1;
    w[2] = S_SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI((uint32_t)(base >> 32)) |
           S_SQ_VTX_CONSTANT_WORD2__STRIDE(sc->vtx_stride);
    w[7] = S_SQ_VTX_CONSTANT_WORD7__TYPE(V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER);
}

static int draw(struct scene *sc, unsigned mode, unsigned prim, unsigned first_vertex, unsigned count, char *why)
{
    struct stand_in si = {first_vertex};
    struct vc_shader_ops ops = {.ctx = &si, .vertex = fixed_function_vertex, .pixel = fixed_function_pixel};
    if (sc->real_shaders)
        set_vertex_resource(sc, first_vertex, count);
    else
        vc_render_set_shaders(sc->r, &ops);
    scene_set_reg(sc->regs, REG_CB_COLOR_CONTROL, S_CB_COLOR_CONTROL__MODE(mode) | S_CB_COLOR_CONTROL__ROP3(0xCC));
    struct vc_draw dr = {0};
    dr.opcode = PKT3_DRAW_INDEX_AUTO;
    dr.num_indices = count;
    dr.num_instances = 1;
    dr.prim_type = prim;
    struct vc_draw_err err = {{0}};
    int rc = vc_render_draw(sc->r, sc->regs, &sc->vmem, &dr, &err);
    if (!sc->real_shaders)
        vc_render_set_shaders(sc->r, NULL);
    if (rc)
        snprintf(why, 200, "%s", err.msg);
    return rc;
}

int scene_draw(struct scene *sc, unsigned mode, unsigned prim, unsigned first_vertex, unsigned count, char *why)
{
    return draw(sc, mode, prim, first_vertex, count, why);
}

int scene_render(struct scene *sc, char *why)
{
    /* glClear: CMask to 0 (fast-cleared), as cs_002's CP_DMA does */
    memset(sc->mem + (sc->color_addr - sc->gpu_base) + sc->lay.cmask.offset, 0, sc->lay.cmask.size);
    unsigned tri = sc->tri_vertices ? sc->tri_vertices : 3;
    unsigned prim = sc->tri_prim ? sc->tri_prim : V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST;
    if (!sc->skip_triangle && draw(sc, V_CB_MODE__CB_NORMAL, prim, 0, tri, why))
        return -1;
    if (sc->before_resolve)
        sc->before_resolve(sc);
    /* the resolve: CB1 gets a format for this draw only, as in cs_004 */
    scene_set_reg(sc->regs, REG_CB_COLOR_INFO(1), info_of(false, false));
    int rc = draw(sc, V_CB_MODE__CB_RESOLVE, V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST, tri, 3, why);
    scene_set_reg(sc->regs, REG_CB_COLOR_INFO(1), 0);
    return rc;
}

int scene_readback(const struct scene *sc, uint8_t *bgra)
{
    const uint8_t *tiled = sc->mem + (sc->resolve_addr - sc->gpu_base);
    return cedar_detile(&sc->resolve_map, tiled, sc->lay.resolve.size, bgra, (size_t)sc->resolve_map.width * 4, 0, 0);
}

bool fidelity_pixel_partial(const struct fidelity_edges *e, unsigned x, unsigned y)
{
    unsigned f0 = cedar_fmask_fragment(e->fmask_map, e->fmask, x, y, 0, 0);
    for (unsigned s = 1; s < e->samples; s++)
        if (cedar_fmask_fragment(e->fmask_map, e->fmask, x, y, s, 0) != f0)
            return true;
    return false;
}

void scene_edges(const struct scene *sc, struct fidelity_edges *e)
{
    e->fmask_map = &sc->fmask_map;
    e->fmask = sc->mem + (sc->color_addr - sc->gpu_base) + sc->lay.fmask.offset;
    e->samples = sc->samples;
}

bool scene_pixel_partial(const struct scene *sc, unsigned x, unsigned y)
{
    struct fidelity_edges e;
    scene_edges(sc, &e);
    return fidelity_pixel_partial(&e, x, y);
}

int fidelity_diff_png(const char *path, const uint8_t *mine, const uint8_t *card, unsigned width, unsigned height,
                      size_t stride, char *why)
{
    uint8_t *img = malloc((size_t)width * height * 4);
    if (!img) {
        snprintf(why, 200, "out of memory");
        return -1;
    }
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++) {
            const uint8_t *a = mine + y * stride + 4 * x, *b = card + y * stride + 4 * x;
            uint8_t *o = img + ((size_t)y * width + x) * 4;
            for (int c = 0; c < 3; c++) { /* BGRA in, RGBA out */
                int d = abs((int)a[2 - c] - (int)b[2 - c]) * 32;
                o[c] = (uint8_t)(d > 255 ? 255 : d);
            }
            o[3] = 0xFF;
        }
    struct cedar_image_err ierr;
    int rc = cedar_png_write(path, img, width, height, (size_t)width * 4, CEDAR_PNG_RGBA8, &ierr);
    if (rc)
        snprintf(why, 200, "%.190s", ierr.msg);
    free(img);
    return rc;
}

void scene_free(struct scene *sc)
{
    free(sc->mem);
    free(sc->regs);
    vc_render_free(sc->r);
    memset(sc, 0, sizeof *sc);
}

void fidelity_compare(const uint8_t *mine, const uint8_t *card, unsigned width, unsigned height, size_t stride,
                      const struct fidelity_edges *e, struct fidelity *f)
{
    memset(f, 0, sizeof *f);
    for (unsigned y = 0; y < height; y++)
        for (unsigned x = 0; x < width; x++) {
            const uint8_t *a = mine + y * stride + 4 * x, *b = card + y * stride + 4 * x;
            unsigned diff = 0;
            for (int c = 0; c < 4; c++) {
                unsigned dd = (unsigned)abs((int)a[c] - (int)b[c]);
                if (dd > diff)
                    diff = dd;
            }
            bool edge = fidelity_pixel_partial(e, x, y);
            f->pixels++;
            f->exact += diff == 0;
            f->within1 += diff <= 1;
            f->within2 += diff <= 2;
            if (edge) {
                f->edge_pixels++;
                f->edge_exact += diff == 0;
                f->edge_within1 += diff <= 1;
                f->edge_within2 += diff <= 2;
            }
            if (diff > f->max_diff)
                f->max_diff = diff;
            /* keep the 10 worst */
            unsigned pos = f->nworst;
            if (pos < 10)
                f->nworst++;
            else if (diff <= f->worst[9].diff)
                continue;
            else
                pos = 9;
            while (pos > 0 && f->worst[pos - 1].diff < diff) {
                f->worst[pos] = f->worst[pos - 1];
                pos--;
            }
            f->worst[pos].x = x;
            f->worst[pos].y = y;
            f->worst[pos].diff = diff;
            f->worst[pos].edge = edge;
            memcpy(f->worst[pos].mine, a, 4);
            memcpy(f->worst[pos].card, b, 4);
        }
}

void fidelity_print(const struct fidelity *f, FILE *out)
{
    fprintf(out, "FIDELITY: all pixels %llu: exact %llu (%.4f%%), within 1 %llu (%.4f%%), within 2 %llu (%.4f%%), max diff %u\n",
            (unsigned long long)f->pixels, (unsigned long long)f->exact, 100.0 * f->exact / f->pixels,
            (unsigned long long)f->within1, 100.0 * f->within1 / f->pixels, (unsigned long long)f->within2,
            100.0 * f->within2 / f->pixels, f->max_diff);
    double ep = f->edge_pixels ? (double)f->edge_pixels : 1.0;
    fprintf(out, "FIDELITY: partially covered pixels %llu: exact %llu (%.2f%%), within 1 %llu (%.2f%%), within 2 %llu (%.2f%%)\n",
            (unsigned long long)f->edge_pixels, (unsigned long long)f->edge_exact, 100.0 * f->edge_exact / ep,
            (unsigned long long)f->edge_within1, 100.0 * f->edge_within1 / ep, (unsigned long long)f->edge_within2,
            100.0 * f->edge_within2 / ep);
    for (unsigned k = 0; k < f->nworst && f->worst[k].diff > 0; k++)
        fprintf(out, "FIDELITY: worst (%u,%u)%s diff %u: model BGRA %02X%02X%02X%02X card %02X%02X%02X%02X\n",
                f->worst[k].x, f->worst[k].y, f->worst[k].edge ? " edge" : "", f->worst[k].diff, f->worst[k].mine[0],
                f->worst[k].mine[1], f->worst[k].mine[2], f->worst[k].mine[3], f->worst[k].card[0],
                f->worst[k].card[1], f->worst[k].card[2], f->worst[k].card[3]);
}

static struct vc_shader_ops default_ops;

static int fwd_begin(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, bool pixels,
                     struct vc_draw_err *err)
{
    (void)ctx;
    return default_ops.begin(default_ops.ctx, regs, mem, pixels, err);
}

static int fwd_vertex(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem, uint32_t index,
                      uint32_t instance, struct vc_vertex_out *out, struct vc_draw_err *err)
{
    (void)ctx;
    return default_ops.vertex(default_ops.ctx, regs, mem, index, instance, out, err);
}

static int fwd_pixel(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                     const struct vc_prim_inputs *prim, const struct vc_pixel_in *in, struct vc_pixel_out *out,
                     struct vc_draw_err *err)
{
    (void)ctx;
    return default_ops.pixel(default_ops.ctx, regs, mem, prim, in, out, err);
}

void scene_pixel_at_a_time(struct scene *sc)
{
    default_ops = sc->r->shaders;
    struct vc_shader_ops fwd = {.begin = fwd_begin, .vertex = fwd_vertex, .pixel = fwd_pixel};
    vc_render_set_shaders(sc->r, &fwd);
}
