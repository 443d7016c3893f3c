/* The default shader stages: the Evergreen shader interpreter (src/shader)
 * adapted to the renderer's stage table.  The interpreter has not landed
 * yet, so there is no default: vc_render_draw reports that until it does,
 * and callers (tests) install their own stages with vc_render_set_shaders. */
#include "render_priv.h"

int render_default_shaders(struct vc_shader_ops *ops)
{
    (void)ops;
    return -1;
}
