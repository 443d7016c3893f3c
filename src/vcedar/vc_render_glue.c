/* The renderer (src/render, cedar/render.h) as the command processor's draw
 * callback. */
#include "vc_internal.h"

int vc_render_draw_adapter(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                           const struct vc_draw *draw, struct vc_draw_err *err)
{
    return vc_render_draw(ctx, regs, mem, draw, err);
}
