/* Experiments on the scene's pipeline (cedar/demo.h, cedar-probe): the
 * draw state over the caller's extra vertices, and the pieces of the demo's
 * IBs a caller's IB is made of. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo_internal.h"
#include "eg_regs.h"

void cedar_demo_emit_extra_state(struct cedar_cmdbuf *cb, const struct cedar_demo_plan *plan,
                                 uint32_t prim_type)
{
    struct demo_programs progs;
    uint32_t *code = NULL;
    size_t size;
    char err[128];
    /* The programs' facts and offsets, as the plan was built with them; the
     * plan was built, so this succeeds but for memory (then the IB errors). */
    if (demo_programs_build(&progs, plan->cfg.vertex_color_format, &code, &size, err, sizeof err) != 0) {
        cb->error = cb->error ? cb->error : -ENOMEM;
        free(code);
        return;
    }
    free(code);
    demo_emit_initial_state(cb);
    demo_emit_color_target(cb, plan);
    demo_emit_draw_state(cb, plan, &progs, DEMO_PRIM_COUNT * 3u, plan->cfg.num_extra_vertices, prim_type,
                         DEMO_CB_NORMAL);
}

void cedar_demo_emit_flush(struct cedar_cmdbuf *cb)
{
    demo_emit_flush(cb);
}
