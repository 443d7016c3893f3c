/* The demo's three shaders (written with our encoder, src/shader/) placed
 * in one shader buffer at 256-byte aligned offsets: SQ_PGM_START_* hold the
 * address >> 8. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/shader.h"
#include "demo_internal.h"

#define PROGRAM_ALIGN 256u

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* The programs' facts, and the shader buffer with each at its offset. */
static int place_programs(struct demo_programs *progs, const struct eg_demo_shaders *s, uint32_t **code,
                          size_t *size, char *err, size_t errlen)
{
    struct demo_shader_facts *f = &progs->s;
    f->vs_num_gprs = s->vs_num_gprs;
    f->vs_stack_size = s->vs_stack_size;
    f->ps_num_gprs = s->ps_num_gprs;
    f->ps_stack_size = s->ps_stack_size;
    f->fs_num_gprs = s->fs_num_gprs;
    f->ps_color_exports = s->ps_color_exports;
    f->ps_num_interp = s->ps_num_interp;
    f->ps_persp_center = s->ps_persp_center;
    f->vs_export_count = s->vs_export_count;
    f->color_param = s->color_param;
    f->color_semantic = s->color_semantic;
    f->vtx_semantic[0] = s->vtx_semantic[0];
    f->vtx_semantic[1] = s->vtx_semantic[1];
    f->vtx_resource = s->vtx_resource;
    f->vtx_stride = s->vtx_stride;
    f->pos_offset = s->pos_offset;
    f->color_offset = s->color_offset;
    f->pos_format = s->pos_format;
    f->color_format = s->color_format;
    f->color_encoding = s->color_encoding;
    progs->fs_offset = 0;
    progs->vs_offset = align_up(progs->fs_offset + s->fs_ndw * 4, PROGRAM_ALIGN);
    progs->ps_offset = align_up(progs->vs_offset + s->vs_ndw * 4, PROGRAM_ALIGN);
    size_t total = (size_t)align_up(progs->ps_offset + s->ps_ndw * 4, PROGRAM_ALIGN);
    uint32_t *buf = calloc(1, total);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    memcpy((uint8_t *)buf + progs->fs_offset, s->fs, s->fs_ndw * 4);
    memcpy((uint8_t *)buf + progs->vs_offset, s->vs, s->vs_ndw * 4);
    memcpy((uint8_t *)buf + progs->ps_offset, s->ps, s->ps_ndw * 4);
    *code = buf;
    *size = total;
    return 0;
}

int demo_programs_build(struct demo_programs *progs, enum eg_demo_color_format color, uint32_t **code,
                        size_t *size, char *err, size_t errlen)
{
    memset(progs, 0, sizeof *progs);
    struct eg_demo_shaders sh;
    if (eg_demo_shaders_build_color(&sh, color) != 0) {
        snprintf(err, errlen, "the shader encoder failed to build the demo shaders");
        return -1;
    }
    return place_programs(progs, &sh, code, size, err, errlen);
}

int demo_programs_build_spec(struct demo_programs *progs, const struct eg_demo_fetch_spec *spec, uint32_t **code,
                             size_t *size, char *err, size_t errlen)
{
    memset(progs, 0, sizeof *progs);
    struct eg_demo_shaders sh;
    if (eg_demo_shaders_build_spec(&sh, spec) != 0) {
        snprintf(err, errlen, "the shader encoder refused the fetch programs");
        return -1;
    }
    return place_programs(progs, &sh, code, size, err, errlen);
}
