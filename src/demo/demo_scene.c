/* The scene of ../shared/fixtures/cedar/README.md: one triangle (red bottom
 * right, blue bottom left, green top) on the clear colour, plus the two
 * full-screen rectangles the clear draw and the resolve use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_internal.h"
#include "eg_regs.h"

void cedar_demo_config_default(struct cedar_demo_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->width = 1280;
    cfg->height = 720;
    cfg->samples = 8;
    /* 0.2, 0.3, 0.3 as UNORM8 */
    cfg->clear_rgb[0] = 0x33;
    cfg->clear_rgb[1] = 0x4C;
    cfg->clear_rgb[2] = 0x4C;
    cfg->fast_clear = true;
    /* What an HD 7350 reports in RADEON_INFO_TILING_CONFIG (0x11: 2 pipes,
     * 8 banks, 256-byte interleave, 1 KB rows); only for --dry-run: a run
     * takes it from the device. */
    cedar_tiling_from_config(0x11, &cfg->tiling);
}

const struct cedar_demo_vertex cedar_demo_triangle[3] = {
    { { 0.5846f, -0.9f, 0.0f, 1.0f }, { 1, 0, 0, 1 } },  /* bottom right, red */
    { { -0.5846f, -0.9f, 0.0f, 1.0f }, { 0, 0, 1, 1 } }, /* bottom left, blue */
    { { 0.0f, 0.9f, 0.0f, 1.0f }, { 0, 1, 0, 1 } },      /* top, green */
};

const float cedar_demo_clear_rgba[4] = { 0.2f, 0.3f, 0.3f, 1.0f };

/* A rectangle list takes three corners (upper left, upper right, lower
 * left) and completes the fourth. */
static const float rect[3][2] = { { -1.0f, 1.0f }, { 1.0f, 1.0f }, { -1.0f, -1.0f } };

/* Components of a 32-bit float vertex format, 0 for any other format. */
static unsigned float_components(unsigned data_format)
{
    switch (data_format) {
    case V_SQ_DATA_FORMAT__FMT_32_FLOAT: return 1;
    case V_SQ_DATA_FORMAT__FMT_32_32_FLOAT: return 2;
    case V_SQ_DATA_FORMAT__FMT_32_32_32_FLOAT: return 3;
    case V_SQ_DATA_FORMAT__FMT_32_32_32_32_FLOAT: return 4;
    default: return 0;
    }
}

/* The scene's colour c (in [0, 1]) as a UNORM8 / SNORM8 byte. */
static uint8_t unorm8(float c)
{
    return (uint8_t)lroundf((c < 0 ? 0 : c > 1 ? 1 : c) * 255.0f);
}

static uint8_t snorm8(float c)
{
    return (uint8_t)(int8_t)lroundf((c < -1 ? -1 : c > 1 ? 1 : c) * 127.0f);
}

/* The colour as the fetch shader reads it (enum eg_demo_color_format):
 * 3 floats, or 3 or 4 bytes.  Returns the bytes written, 0 for an encoding
 * the scene does not know. */
static unsigned put_color(uint8_t *dst, unsigned encoding, const float c[4])
{
    switch (encoding) {
    case EG_DEMO_COLOR_R32G32B32_FLOAT:
        memcpy(dst, c, 12);
        return 12;
    case EG_DEMO_COLOR_R8G8B8A8_UNORM:
    case EG_DEMO_COLOR_R8G8B8_UNORM:
        for (int i = 0; i < 4; i++)
            dst[i] = unorm8(c[i]);
        return encoding == EG_DEMO_COLOR_R8G8B8_UNORM ? 3 : 4;
    case EG_DEMO_COLOR_R8G8B8_SNORM:
        for (int i = 0; i < 3; i++)
            dst[i] = snorm8(c[i]);
        return 3;
    default:
        return 0;
    }
}

/* Writes one vertex in the layout the fetch shader reads (the position as
 * 32-bit floats; the fetch fills missing components with 0 and w with 1). */
static int put_vertex(uint8_t *dst, const struct demo_shader_facts *s,
                      const struct cedar_demo_vertex *v)
{
    unsigned np = float_components(s->pos_format);
    uint8_t color[16];
    unsigned nc = put_color(color, s->color_encoding, v->color);
    if (np < 2 || !nc || s->pos_offset + np * 4 > s->vtx_stride || s->color_offset + nc > s->vtx_stride)
        return -1;
    memcpy(dst + s->pos_offset, v->pos, np * 4);
    memcpy(dst + s->color_offset, color, nc);
    return 0;
}

int demo_scene_vertices(const struct cedar_demo_config *cfg, const struct demo_programs *progs,
                        uint8_t **verts, size_t *size, char *err, size_t errlen)
{
    const struct demo_shader_facts *s = &progs->s;
    size_t n = (size_t)DEMO_PRIM_COUNT * 3 * s->vtx_stride;
    uint8_t *buf = calloc(1, n);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct cedar_demo_vertex v[DEMO_PRIM_COUNT][3];
    memcpy(v[DEMO_PRIM_TRIANGLE], cedar_demo_triangle, sizeof cedar_demo_triangle);
    for (int i = 0; i < 3; i++) {
        struct cedar_demo_vertex c = { { rect[i][0], rect[i][1], 0.0f, 1.0f },
                            { cfg->clear_rgb[0] / 255.0f, cfg->clear_rgb[1] / 255.0f,
                              cfg->clear_rgb[2] / 255.0f, 1.0f } };
        v[DEMO_PRIM_CLEAR_RECT][i] = c;
        /* the resolve's colour is not used: the CB writes the resolved samples */
        struct cedar_demo_vertex r = { { rect[i][0], rect[i][1], 0.0f, 1.0f }, { 0, 0, 0, 1 } };
        v[DEMO_PRIM_RESOLVE_RECT][i] = r;
    }
    for (int p = 0; p < DEMO_PRIM_COUNT; p++)
        for (int i = 0; i < 3; i++)
            if (put_vertex(buf + ((size_t)p * 3 + i) * s->vtx_stride, s, &v[p][i]) != 0) {
                free(buf);
                snprintf(err, errlen, "the demo shaders fetch a vertex format the scene does not write");
                return -1;
            }
    *verts = buf;
    *size = n;
    return 0;
}
