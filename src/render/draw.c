/* The renderer's entry point: one DRAW packet, in whichever CB mode
 * CB_COLOR_CONTROL selects.  (Work in progress: this first version only
 * owns the object and the shader-stage table; drawing lands next.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/render.h"

struct vc_render {
    struct vc_shader_ops shaders;
    bool have_shaders;
    struct vc_render_stats stats;
};

struct vc_render *vc_render_new(void)
{
    return calloc(1, sizeof(struct vc_render));
}

void vc_render_free(struct vc_render *r)
{
    free(r);
}

void vc_render_set_shaders(struct vc_render *r, const struct vc_shader_ops *ops)
{
    if (ops) {
        r->shaders = *ops;
        r->have_shaders = true;
    } else {
        memset(&r->shaders, 0, sizeof(r->shaders));
        r->have_shaders = false;
    }
}

void vc_render_get_stats(const struct vc_render *r, struct vc_render_stats *out)
{
    *out = r->stats;
}

int vc_render_draw(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                   const struct vc_draw *draw, struct vc_draw_err *err)
{
    (void)regs;
    (void)mem;
    (void)draw;
    r->stats.draws++;
    snprintf(err->msg, sizeof(err->msg), "render: drawing is not implemented yet");
    return -1;
}
