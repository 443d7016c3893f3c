/* The demo's plan: surfaces laid out by src/layout, buffers, and the
 * command buffers (init, clear, draw, resolve), built without a device. */
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_internal.h"
#include "eg_regs.h"

/* The kernel's limit on a GFX IB (radeon_cs.c: 16 K dwords on r600+ without VM). */
#define DEMO_MAX_IB_DW (16u * 1024u)

/* CMask value for "nothing compressed yet", written when the buffer is
 * created (Mesa r600_texture_create: CP_DMA fill 0xCCCCCCCC). */
#define CMASK_INIT_VALUE 0xCCCCCCCCu
/* CMask value for "cleared to CB_COLOR0_CLEAR_WORD*" (Mesa fast clear:
 * evergreen_do_fast_color_clear fills 0). */
#define CMASK_CLEARED_VALUE 0u

static struct cedar_cmdbuf *new_ib(struct cedar_demo_plan *plan, const char *what)
{
    struct cedar_demo_ib *ib = &plan->ibs[plan->nibs++];
    ib->what = what;
    cedar_cmdbuf_init(&ib->cb, DEMO_MAX_IB_DW);
    return &ib->cb;
}

static int finish_ib(struct cedar_cmdbuf *cb, const char *what, char *err, size_t errlen)
{
    /* Mesa pads every IB to a multiple of 8 dwords with type-2 fillers. */
    cedar_cmdbuf_pad(cb, 8);
    if (cb->error) {
        snprintf(err, errlen, "building the %s command buffer failed (%d)", what, cb->error);
        return -1;
    }
    return 0;
}

static void emit_color_target(struct cedar_cmdbuf *cb, const struct cedar_demo_plan *plan)
{
    struct demo_cb_regs r;
    demo_cb_regs_color(plan, &r);
    demo_emit_cb(cb, 0, &r, CEDAR_DEMO_BUF_COLOR);
}

/* Disable every colour target from `first` on (Mesa writes INFO = 0). */
static void disable_targets(struct cedar_cmdbuf *cb, unsigned first)
{
    for (unsigned i = first; i < 12; i++)
        cedar_cmdbuf_set_context_reg(cb, REG_CB_COLOR_INFO(i), 0);
}

int cedar_demo_plan_build(const struct cedar_demo_config *cfg, struct cedar_demo_plan *plan,
                          char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    plan->cfg = *cfg;
    if (cfg->width < 1 || cfg->width > CEDAR_DEMO_MAX_SIZE || cfg->height < 1 ||
        cfg->height > CEDAR_DEMO_MAX_SIZE) {
        snprintf(err, errlen, "size %ux%u: width and height must be 1..%u", cfg->width,
                 cfg->height, CEDAR_DEMO_MAX_SIZE);
        return -1;
    }
    if (cfg->samples != 1 && cfg->samples != 2 && cfg->samples != 4 && cfg->samples != 8) {
        snprintf(err, errlen, "%u samples: must be 1, 2, 4 or 8", cfg->samples);
        return -1;
    }
    bool msaa = cfg->samples > 1;

    /* Surfaces, as Mesa allocates them: a 2D-tiled COLOR_8_8_8_8 target
     * (samples + FMask + CMask in one buffer) and, for MSAA, a 2D-tiled
     * single-sample resolve target. */
    struct cedar_surface_req req = {
        .width = cfg->width, .height = cfg->height, .bpe = 4, .samples = cfg->samples,
        .mode = CEDAR_MODE_2D_THIN, .scanout = !msaa, .fmask = false,
    };
    struct cedar_layout_err lerr = {0};
    if (msaa) {
        if (cedar_msaa_layout(&req, &cfg->tiling, &plan->layout, &lerr) != 0) {
            snprintf(err, errlen, "layout: %s", lerr.msg);
            return -1;
        }
    } else {
        if (cedar_surface_layout(&req, &cfg->tiling, &plan->layout.color, &lerr) != 0) {
            snprintf(err, errlen, "layout: %s", lerr.msg);
            return -1;
        }
        plan->layout.total_size = plan->layout.color.size;
    }
    if (plan->layout.color.mode != CEDAR_MODE_2D_THIN ||
        (msaa && plan->layout.resolve.mode != CEDAR_MODE_2D_THIN)) {
        /* The CB registers below describe 2D-tiled surfaces; a small
         * single-sample target libdrm would demote to 1D is not handled. */
        snprintf(err, errlen, "size %ux%u: the surface layout falls back to 1D tiling, "
                 "which the demo does not program", cfg->width, cfg->height);
        return -1;
    }

    struct demo_programs progs;
    if (demo_programs_build(&progs, cfg->vertex_color_format, &plan->shader_code, &plan->shader_size, err, errlen) != 0)
        return -1;
    if (demo_scene_vertices(cfg, &progs, &plan->vertices, &plan->vertices_size, err, errlen) != 0)
        return -1;

    struct cedar_demo_buffer *b = plan->bufs;
    b[CEDAR_DEMO_BUF_COLOR] = (struct cedar_demo_buffer){
        .name = msaa ? "msaa" : "color", .size = plan->layout.total_size,
        .alignment = plan->layout.color.alignment, .domain = RADEON_GEM_DOMAIN_VRAM, .used = true };
    b[CEDAR_DEMO_BUF_RESOLVE] = (struct cedar_demo_buffer){
        .name = "resolve", .size = msaa ? plan->layout.resolve.size : 0,
        .alignment = msaa ? plan->layout.resolve.alignment : 0,
        .domain = RADEON_GEM_DOMAIN_VRAM, .used = msaa };
    b[CEDAR_DEMO_BUF_VERTICES] = (struct cedar_demo_buffer){
        .name = "vertices", .size = plan->vertices_size, .alignment = 256,
        .domain = RADEON_GEM_DOMAIN_VRAM, .used = true, .init_data = plan->vertices,
        .init_size = plan->vertices_size };
    b[CEDAR_DEMO_BUF_SHADERS] = (struct cedar_demo_buffer){
        .name = "shaders", .size = plan->shader_size, .alignment = 256,
        .domain = RADEON_GEM_DOMAIN_VRAM, .used = true, .init_data = plan->shader_code,
        .init_size = plan->shader_size };

    struct cedar_cmdbuf *cb;
    if (msaa) {
        /* init: the CMask starts as "nothing compressed" (Mesa's cs_001) */
        cb = new_ib(plan, "init");
        demo_emit_initial_state(cb);
        demo_emit_flush(cb);
        demo_emit_cp_dma_fill(cb, CEDAR_DEMO_BUF_COLOR, plan->layout.cmask.offset,
                              plan->layout.cmask.size, CMASK_INIT_VALUE);
        demo_emit_flush(cb);
        if (finish_ib(cb, "init", err, errlen) != 0)
            return -1;
    }

    cb = new_ib(plan, "clear");
    demo_emit_initial_state(cb);
    if (msaa && cfg->fast_clear) {
        /* fast clear: every tile "cleared"; the colour comes with the
         * surface (CB_COLOR0_CLEAR_WORD0/1) at the next draw (Mesa's cs_002) */
        demo_emit_flush(cb);
        demo_emit_cp_dma_fill(cb, CEDAR_DEMO_BUF_COLOR, plan->layout.cmask.offset,
                              plan->layout.cmask.size, CMASK_CLEARED_VALUE);
        demo_emit_flush(cb);
    } else {
        emit_color_target(cb, plan);
        disable_targets(cb, 1);
        demo_emit_draw(cb, plan, &progs, DEMO_PRIM_CLEAR_RECT, DEMO_CB_NORMAL);
        demo_emit_flush(cb);
    }
    if (finish_ib(cb, "clear", err, errlen) != 0)
        return -1;

    cb = new_ib(plan, "draw");
    demo_emit_initial_state(cb);
    emit_color_target(cb, plan);
    disable_targets(cb, 1);
    demo_emit_draw(cb, plan, &progs, DEMO_PRIM_TRIANGLE, DEMO_CB_NORMAL);
    demo_emit_flush(cb);
    if (finish_ib(cb, "draw", err, errlen) != 0)
        return -1;

    if (msaa) {
        cb = new_ib(plan, "resolve");
        demo_emit_initial_state(cb);
        emit_color_target(cb, plan);
        struct demo_cb_regs r;
        demo_cb_regs_resolve(plan, &r);
        demo_emit_cb(cb, 1, &r, CEDAR_DEMO_BUF_RESOLVE);
        disable_targets(cb, 2);
        demo_emit_draw(cb, plan, &progs, DEMO_PRIM_RESOLVE_RECT, DEMO_CB_RESOLVE);
        demo_emit_flush(cb);
        if (finish_ib(cb, "resolve", err, errlen) != 0)
            return -1;
    }
    return 0;
}

void cedar_demo_plan_free(struct cedar_demo_plan *plan)
{
    for (unsigned i = 0; i < plan->nibs; i++)
        cedar_cmdbuf_fini(&plan->ibs[i].cb);
    plan->nibs = 0;
    free(plan->vertices);
    free(plan->shader_code);
    plan->vertices = NULL;
    plan->shader_code = NULL;
}
