/* Address tables the renderer keeps across draws: for a colour surface, the
 * byte runs of every sample plane of a micro tile (cedar_tile_micro); for a
 * depth or stencil surface, the runs of all the micro tile's bytes
 * (cedar_tile_micro_runs); for an FMask surface, the byte and first bit of every pixel's fragment-index
 * planes (cedar_fmask_micro: cedar_fmask_bit's addresses, a tile at once).  A table belongs to one surface layout (the whole
 * tile map compared) and is filled a micro tile at a time, the first time a
 * draw touches it; later draws on the same layout (the resolve after the
 * draw, the next frame) look addresses up instead of recomputing the tiling
 * address map per pixel.  Offsets are from the surface's base, so a table
 * serves the layout wherever it sits in memory. */
#include <stdlib.h>
#include <string.h>

#include "cedar/bigmem.h"
#include "render_priv.h"

#define MAX_TABLE_TILES (1u << 20)   /* 8192 x 8192 pixels */

struct addr_table {
    struct cedar_tile_map map;
    bool depth;             /* a depth table (render_depth_table) */
    unsigned tiles_x, tiles_y;
    size_t tile_bytes;
    /* Every tile's entry has its place in one lazily backed buffer
     * (cedar_big_alloc: only what is touched costs memory, with few page
     * faults), instead of a malloc per tile on a cold frame's path. */
    uint8_t *slab;
    size_t slab_bytes;
    void **tile;          /* tile (mx, my)'s entry once filled, else NULL */
    unsigned used_in;     /* the vc_render's draw_serial when last handed out */
};

static size_t tile_bytes_of(const struct cedar_tile_map *m, bool depth)
{
    if (depth) {
        uint64_t run[ADDR_DEPTH_RUNS_MAX];
        unsigned nrun = m->is_fmask ? 0 : cedar_tile_micro_runs(m, 0, 0, 0, run, ADDR_DEPTH_RUNS_MAX);
        /* tile (0, 0)'s count; a tile with more is not kept (tile_of) */
        return nrun ? sizeof(struct color_tile) + nrun * sizeof(uint64_t) : 0;
    }
    if (m->is_fmask)
        return sizeof(struct fmask_tile);
    uint64_t run[CEDAR_MICRO_RUNS_MAX];
    unsigned nrun = cedar_tile_micro(m, 0, 0, 0, 0, run);
    return nrun ? sizeof(struct color_tile) + (size_t)m->samples * nrun * sizeof(uint64_t) : 0;
}

static struct addr_table *table_new(const struct cedar_tile_map *m, bool depth)
{
    unsigned tx = (m->width + 7) / 8, ty = (m->height + 7) / 8;
    size_t bytes = tile_bytes_of(m, depth);
    if (!bytes || tx == 0 || ty == 0 || (uint64_t)tx * ty > MAX_TABLE_TILES)
        return NULL;
    struct addr_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tile = calloc((size_t)tx * ty, sizeof *t->tile);
    t->slab_bytes = (size_t)tx * ty * bytes;
    t->slab = t->tile ? cedar_big_alloc(t->slab_bytes) : NULL;
    if (!t->slab) {
        free(t->tile);
        free(t);
        return NULL;
    }
    t->map = *m;
    t->depth = depth;
    t->tiles_x = tx;
    t->tiles_y = ty;
    t->tile_bytes = bytes;
    return t;
}

static void table_free(struct addr_table *t)
{
    if (!t)
        return;
    cedar_big_free(t->slab, t->slab_bytes);
    free(t->tile);
    free(t);
}

static struct addr_table *table_find(struct vc_render *r, const struct cedar_tile_map *m, bool depth)
{
    for (unsigned i = 0; i < RENDER_ADDR_TABLES; i++)
        if (r->tables[i] && r->tables[i]->depth == depth && memcmp(&r->tables[i]->map, m, sizeof *m) == 0) {
            r->tables[i]->used_in = r->draw_serial;
            return r->tables[i];
        }
    /* A slot whose table the current draw does not use: freeing one it
     * uses left its targets reading freed memory (a draw with more
     * layouts than slots; found with valgrind under piglit's
     * blit-mismatched-formats).  None free: no table, the targets address
     * pixel by pixel. */
    for (unsigned k = 0; k < RENDER_ADDR_TABLES; k++) {
        unsigned slot = (r->next_table + k) % RENDER_ADDR_TABLES;
        if (r->tables[slot] && r->tables[slot]->used_in == r->draw_serial)
            continue;
        struct addr_table *t = table_new(m, depth);
        if (!t)
            return NULL;
        t->used_in = r->draw_serial;
        table_free(r->tables[slot]);
        r->tables[slot] = t;
        r->next_table = slot + 1;
        return t;
    }
    return NULL;
}

struct addr_table *render_addr_table(struct vc_render *r, const struct cedar_tile_map *m)
{
    return table_find(r, m, false);
}

struct addr_table *render_depth_table(struct vc_render *r, const struct cedar_tile_map *m)
{
    return table_find(r, m, true);
}

void render_addr_tables_free(struct vc_render *r)
{
    for (unsigned i = 0; i < RENDER_ADDR_TABLES; i++) {
        table_free(r->tables[i]);
        r->tables[i] = NULL;
    }
}

static void *tile_of(struct addr_table *t, unsigned mx, unsigned my)
{
    if (mx >= t->tiles_x || my >= t->tiles_y)
        return NULL;
    void **slot = &t->tile[(size_t)my * t->tiles_x + mx];
    if (*slot)
        return *slot;
    void *e = t->slab + (size_t)(slot - t->tile) * t->tile_bytes;
    const struct cedar_tile_map *m = &t->map;
    if (t->depth) {
        struct color_tile *c = e;
        uint64_t run[ADDR_DEPTH_RUNS_MAX];
        unsigned nrun = cedar_tile_micro_runs(m, mx, my, 0, run, ADDR_DEPTH_RUNS_MAX);
        if (!nrun || sizeof(struct color_tile) + nrun * sizeof(uint64_t) > t->tile_bytes)
            return NULL;    /* left unfilled: asked again, it says the same */
        c->nrun = nrun;
        memcpy(c->run, run, c->nrun * sizeof run[0]);
    } else if (m->is_fmask) {
        struct fmask_tile *f = e;
        uint64_t byte[64][4];
        unsigned planes = cedar_fmask_micro(m, mx, my, 0, byte, f->bit0);
        uint32_t lo = UINT32_MAX, hi = 0;
        for (unsigned i = 0; i < 64; i++) {
            for (unsigned p = 0; p < planes; p++) {
                f->byte[i][p] = (uint32_t)byte[i][p];
                /* a plane's sample bits sit in one byte (cedar_fmask_bit:
                 * bit = the pixel's bits + sample), the CB's views of them
                 * are (1 << samples) - 1 from bit0 */
                lo = f->byte[i][p] < lo ? f->byte[i][p] : lo;
                hi = f->byte[i][p] + 1 > hi ? f->byte[i][p] + 1 : hi;
            }
        }
        memset(f->span_used, 0, sizeof f->span_used);
        f->span_lo = lo;
        f->span_len = planes && hi - lo <= FMASK_SPAN_MAX ? hi - lo : 0;
        uint8_t sample_bits = (uint8_t)((1u << m->samples) - 1u);
        for (unsigned i = 0; i < 64 && f->span_len; i++)
            for (unsigned p = 0; p < planes; p++)
                f->span_used[f->byte[i][p] - lo] |= (uint8_t)(sample_bits << f->bit0[i][p]);
        f->span_whole = f->span_len > 0;
        for (unsigned k = 0; k < f->span_len; k++)
            if (f->span_used[k] != 0xFFu)
                f->span_whole = false;
    } else {
        struct color_tile *c = e;
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        c->nrun = 0;
        for (unsigned s = 0; s < m->samples; s++) {
            unsigned n = cedar_tile_micro(m, mx, my, s, 0, run);
            c->nrun = n;
            memcpy(&c->run[s * n], run, n * sizeof run[0]);
        }
    }
    *slot = e;
    return e;
}

const struct fmask_tile *addr_table_fmask(struct addr_table *t, unsigned mx, unsigned my)
{
    return t->map.is_fmask && !t->depth ? tile_of(t, mx, my) : NULL;
}

const struct color_tile *addr_table_color(struct addr_table *t, unsigned mx, unsigned my)
{
    return t->map.is_fmask || t->depth ? NULL : tile_of(t, mx, my);
}

const struct color_tile *addr_table_depth(struct addr_table *t, unsigned mx, unsigned my)
{
    return t->depth ? tile_of(t, mx, my) : NULL;
}
