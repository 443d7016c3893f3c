/* The demo's three shaders placed in one shader buffer.
 *
 * TODO(shader): the shader encoder and the demo's shaders
 * (src/shader/demo_shaders.c, include/cedar/shader.h: eg_demo_shaders_build)
 * have not landed in main yet.  Until they do, building a plan fails here
 * with that reason; nothing stands in for the real programs. */
#include <stdio.h>
#include <string.h>

#include "demo_internal.h"

int demo_programs_build(struct demo_programs *progs, uint32_t **code, size_t *size, char *err,
                        size_t errlen)
{
    memset(progs, 0, sizeof *progs);
    *code = NULL;
    *size = 0;
    snprintf(err, errlen, "the demo's shaders are not available: the shader encoder "
             "(src/shader, eg_demo_shaders_build) is not built into this tree yet");
    return -1;
}
