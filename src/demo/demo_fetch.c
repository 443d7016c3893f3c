/* A draw that shows what the vertex fetch reads (cedar/demo_fetch.h): the
 * demo's state and programs (demo_state.c, demo_shaders.c) with the caller's
 * colour fetches and a flat pixel shader, a linear 1-sample
 * COLOR_32_32_32_32_FLOAT target one pixel per element, submitted and read
 * back through the demo's session (demo_session.c). */
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/demo_fetch.h"
#include "demo_internal.h"
#include "eg_regs.h"

#define VERTEX_BYTES 32u    /* position x, y, z at 0, the element at 16 */
#define ELEMENT_OFFSET 16u
#define FETCH_IB_DW 4096u

/* The target: COLOR_32_32_32_32_FLOAT, its words stored as exported (FLOAT,
 * COMP_SWAP STD, blending bypassed: Mesa's choice for a 32-bit float
 * target), linear. */
static void target_regs(const struct cedar_surface *s, struct demo_cb_regs *r)
{
    *r = (struct demo_cb_regs){0};
    r->pitch = S_CB_COLOR_PITCH__TILE_MAX(s->pitch_tile_max);
    r->slice = S_CB_COLOR_SLICE__TILE_MAX(s->slice_tile_max);
    r->info = S_CB_COLOR_INFO__FORMAT(V_CB_FORMAT__COLOR_32_32_32_32_FLOAT) |
              S_CB_COLOR_INFO__ARRAY_MODE(V_ARRAY_MODE__ARRAY_LINEAR_ALIGNED) |
              S_CB_COLOR_INFO__NUMBER_TYPE(V_CB_NUMBER_TYPE__NUMBER_FLOAT) |
              S_CB_COLOR_INFO__COMP_SWAP(V_CB_COMP_SWAP__SWAP_STD) | S_CB_COLOR_INFO__BLEND_BYPASS(1) |
              S_CB_COLOR_INFO__SOURCE_FORMAT(V_CB_SOURCE_FORMAT__EXPORT_4C_32BPC);
    r->fmask_slice = S_CB_COLOR_FMASK_SLICE__TILE_MAX(s->slice_tile_max);
}

/* Element k: a rectangle over pixel k of the one-row target (upper left,
 * upper right, lower left; NDC +y is the top row), every vertex carrying
 * the element. */
static uint8_t *vertices(const struct cedar_fetch_draw *d, size_t *size)
{
    *size = (size_t)d->count * 3 * VERTEX_BYTES;
    uint8_t *v = calloc(1, *size);
    if (!v)
        return NULL;
    for (unsigned k = 0; k < d->count; k++) {
        float x0 = 2.0f * (float)k / (float)d->count - 1.0f, x1 = 2.0f * (float)(k + 1) / (float)d->count - 1.0f;
        const float corner[3][3] = { { x0, 1.0f, 0.0f }, { x1, 1.0f, 0.0f }, { x0, -1.0f, 0.0f } };
        for (unsigned i = 0; i < 3; i++) {
            uint8_t *p = v + ((size_t)k * 3 + i) * VERTEX_BYTES;
            memcpy(p, corner[i], sizeof corner[i]);
            memcpy(p + ELEMENT_OFFSET, d->elements + (size_t)k * CEDAR_FETCH_ELEMENT_BYTES, CEDAR_FETCH_ELEMENT_BYTES);
        }
    }
    return v;
}

static int build(struct cedar_demo_plan *plan, const struct cedar_tiling *tiling, const struct cedar_fetch_draw *d,
                 char *err, size_t errlen)
{
    struct eg_demo_color_fetch f[EG_DEMO_MAX_COLOR_FETCHES];
    if (d->nfetch < 1 || d->nfetch > EG_DEMO_MAX_COLOR_FETCHES || d->count < 1 ||
        d->count > CEDAR_FETCH_MAX_ELEMENTS) {
        snprintf(err, errlen, "fetch draw: %u fetches of %u elements (1..%u of 1..%u)", d->nfetch, d->count,
                 EG_DEMO_MAX_COLOR_FETCHES, CEDAR_FETCH_MAX_ELEMENTS);
        return -1;
    }
    for (unsigned i = 0; i < d->nfetch; i++) {
        f[i] = d->fetch[i];
        f[i].offset += ELEMENT_OFFSET;
        if (f[i].bytes < 1 || f[i].offset + f[i].bytes > VERTEX_BYTES) {
            snprintf(err, errlen, "fetch draw: fetch %u reads outside the 16-byte element", i);
            return -1;
        }
    }
    plan->cfg.width = d->count;
    plan->cfg.height = 1;
    plan->cfg.samples = 1;
    plan->cfg.tiling = *tiling;
    struct cedar_surface_req req = { .width = d->count, .height = 1, .bpe = 16, .samples = 1,
                                     .mode = CEDAR_MODE_LINEAR_ALIGNED };
    struct cedar_layout_err lerr = {0};
    if (cedar_surface_layout(&req, tiling, &plan->layout.color, &lerr) != 0) {
        snprintf(err, errlen, "fetch draw: layout: %s", lerr.msg);
        return -1;
    }
    plan->layout.total_size = plan->layout.color.size;

    struct demo_programs progs;
    const struct eg_demo_fetch_spec spec = { VERTEX_BYTES, f, d->nfetch, true };
    if (demo_programs_build_spec(&progs, &spec, &plan->shader_code, &plan->shader_size, err, errlen) != 0)
        return -1;
    plan->vertices = vertices(d, &plan->vertices_size);
    if (!plan->vertices) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct cedar_demo_buffer *b = plan->bufs;
    b[CEDAR_DEMO_BUF_COLOR] = (struct cedar_demo_buffer){
        .name = "fetched", .size = plan->layout.total_size, .alignment = plan->layout.color.alignment,
        .domain = RADEON_GEM_DOMAIN_VRAM, .used = true };
    b[CEDAR_DEMO_BUF_VERTICES] = (struct cedar_demo_buffer){
        .name = "vertices", .size = plan->vertices_size, .alignment = 256, .domain = RADEON_GEM_DOMAIN_VRAM,
        .used = true, .init_data = plan->vertices, .init_size = plan->vertices_size };
    b[CEDAR_DEMO_BUF_SHADERS] = (struct cedar_demo_buffer){
        .name = "shaders", .size = plan->shader_size, .alignment = 256, .domain = RADEON_GEM_DOMAIN_VRAM,
        .used = true, .init_data = plan->shader_code, .init_size = plan->shader_size };

    struct cedar_demo_ib *ib = &plan->ibs[plan->nibs++];
    ib->what = "fetch draw";
    struct cedar_cmdbuf *cb = &ib->cb;
    cedar_cmdbuf_init(cb, FETCH_IB_DW);
    demo_emit_initial_state(cb);
    struct demo_cb_regs r;
    target_regs(&plan->layout.color, &r);
    demo_emit_cb(cb, 0, &r, CEDAR_DEMO_BUF_COLOR);
    for (unsigned i = 1; i < 12; i++)
        cedar_cmdbuf_set_context_reg(cb, REG_CB_COLOR_INFO(i), 0);
    unsigned nvert = 3 * d->count;
    demo_emit_draw_state(cb, plan, &progs, 0, nvert, V_VGT_DI_PRIM_TYPE__DI_PT_RECTLIST, DEMO_CB_NORMAL);
    uint32_t draw[2] = { nvert, S_VGT_DRAW_INITIATOR__SOURCE_SELECT(V_VGT_DI_SRC_SEL__DI_SRC_SEL_AUTO_INDEX) };
    cedar_cmdbuf_packet(cb, PKT3_DRAW_INDEX_AUTO, draw, 2);
    demo_emit_flush(cb);
    cedar_cmdbuf_pad(cb, 8);
    if (cb->error) {
        snprintf(err, errlen, "building the fetch draw failed (%d)", cb->error);
        return -1;
    }
    return 0;
}

int cedar_fetch_draw_run(struct cedar_dev *dev, const struct cedar_tiling *tiling, const struct cedar_fetch_draw *d,
                         union eg_vec4 *out, char *err, size_t errlen)
{
    struct cedar_demo_plan plan;
    memset(&plan, 0, sizeof plan);
    struct cedar_demo_session *s = NULL;
    int rc = -1;
    if (build(&plan, tiling, d, err, errlen) != 0 || cedar_demo_session_open(dev, &plan, &s, err, errlen) != 0 ||
        cedar_demo_session_frame(s, err, errlen) != 0)
        goto done;
    char fault[256];
    if (cedar_demo_device_fault(dev, fault, sizeof fault)) {
        snprintf(err, errlen, "GPU fault: %s", fault);
        goto done;
    }
    size_t size;
    const uint8_t *px = cedar_demo_session_map(s, CEDAR_DEMO_BUF_COLOR, &size);
    if (!px || size < (size_t)d->count * 16) {
        snprintf(err, errlen, "the fetch draw's target was not mapped");
        goto done;
    }
    for (unsigned k = 0; k < d->count; k++)
        memcpy(out[k].u, px + (size_t)k * 16, 16); /* row 0: pixel k's four words */
    rc = 0;
done:
    cedar_demo_session_close(s);
    cedar_demo_plan_free(&plan);
    return rc;
}
