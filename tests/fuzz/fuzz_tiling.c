/* The tiling address map with parameters from the input: cedar_tile_map_init
 * / cedar_fmask_map_init refuse what the hardware cannot have, and for every
 * map they build (kept small, so thousands of inputs run per second):
 *  - an element's address lies inside the surface and the inverse
 *    (cedar_tile_coord) gives the element back (a sample of elements);
 *  - cedar_tile_micro's runs hold the micro tile's pixels where
 *    cedar_tile_addr puts them (tiling.h);
 *  - tile(detile(surface)) is the surface, plane by plane and all samples
 *    at once, and the two de-tilings agree;
 *  - one-sample maps: a DMA run copy (cedar_detile_run) holds the elements
 *    cedar_tile_addr gives, and cedar_tile_run puts them back;
 *  - FMask: every (pixel, sample, plane) bit lies inside the surface and
 *    no two share a bit.
 * Input: a byte of flags, then one byte per parameter, each picking from
 * the values the hardware has; with flag bit 7 the parameters are raw
 * 32-bit values instead (refusals, never a crash). */
#include <stdbool.h>

#include "cedar/tiling.h"
#include "fuzz_util.h"

#define MAX_SURFACE (32u << 10)

static unsigned pick(struct fuzz_in *in, const unsigned *v, unsigned n)
{
    return v[fuzz_u8(in) % n];
}

static uint32_t next(uint32_t *r)
{
    *r ^= *r << 13, *r ^= *r >> 17, *r ^= *r << 5;
    return *r;
}

/* Per-element checks on a sample (the corners and ELEMENTS drawn from the
 * seed; the whole-surface copies below cover every byte): a full census per
 * input would cost more than the rest together. */
#define ELEMENTS 256
#define MICRO_TILES 16

static void check_colour(const struct cedar_tile_map *m, uint32_t seed)
{
    uint32_t r = seed | 1;
    for (unsigned k = 0; k < ELEMENTS + 4; k++) {
        unsigned x = k < 4 ? (k & 1) * (m->width - 1) : next(&r) % m->width;
        unsigned y = k < 4 ? (k >> 1) * (m->height - 1) : next(&r) % m->height;
        unsigned s = next(&r) % m->samples, z = next(&r) % m->slices, byte = next(&r) % m->bpe;
        uint64_t a = cedar_tile_addr(m, x, y, s, z);
        FUZZ_CHECK(a + m->bpe <= m->size && a % m->bpe == 0, "(%u, %u, %u, %u) at %llu of %llu", x, y, s, z,
                   (unsigned long long)a, (unsigned long long)m->size);
        struct cedar_tile_coord c;
        FUZZ_CHECK(cedar_tile_coord(m, a + byte, &c) == 0, "no inverse of %llu", (unsigned long long)a);
        FUZZ_CHECK(c.x == x && c.y == y && c.sample == s && c.slice == z && c.byte == byte,
                   "inverse of (%u, %u, %u, %u) is (%u, %u, %u, %u)", x, y, s, z, c.x, c.y, c.sample, c.slice);
    }
    for (unsigned k = 0; k < MICRO_TILES; k++) {
        unsigned mx = next(&r) % (m->width / 8), my = next(&r) % (m->height / 8 ? m->height / 8 : 1);
        unsigned s = next(&r) % m->samples, z = next(&r) % m->slices;
        uint64_t run[CEDAR_MICRO_RUNS_MAX];
        unsigned n = cedar_tile_micro(m, mx, my, s, z, run);
        if (m->mode == CEDAR_MODE_LINEAR_ALIGNED) {
            FUZZ_CHECK(n == 0, "runs for a linear map");
            continue;
        }
        FUZZ_CHECK(n >= 1 && n <= CEDAR_MICRO_RUNS_MAX && 64 % n == 0, "%u runs", n);
        for (unsigned i = 0; i < 64; i++) {
            unsigned x = mx * 8 + m->pix_xy[i] % 8, y = my * 8 + m->pix_xy[i] / 8;
            FUZZ_CHECK(cedar_tile_pixel_index(m, x, y) == i, "pixel index tables disagree");
            FUZZ_CHECK(run[i / (64 / n)] + (uint64_t)(i % (64 / n)) * m->bpe == cedar_tile_addr(m, x, y, s, z),
                       "run address of pixel %u of micro tile (%u, %u)", i, mx, my);
        }
    }
    uint8_t *tiled = malloc(m->size), *back = calloc(1, m->size);
    size_t stride = (size_t)m->width * m->bpe + (seed & 8), plane = stride * m->height + (seed & 16);
    uint8_t *lin = malloc(plane * m->samples), *one = malloc(stride * m->height);
    FUZZ_CHECK(tiled && back && lin && one, "out of memory");
    for (uint64_t i = 0; i < m->size; i++)
        tiled[i] = (uint8_t)next(&r);
    for (unsigned z = 0; z < m->slices; z++) {
        FUZZ_CHECK(cedar_detile_samples(m, tiled, m->size, lin, stride, plane, z) == 0, "detile_samples refused");
        for (unsigned s = 0; s < m->samples; s++) {
            FUZZ_CHECK(cedar_detile(m, tiled, m->size, one, stride, s, z) == 0, "detile refused");
            for (unsigned y = 0; y < m->height; y++) {
                FUZZ_CHECK(!memcmp(one + y * stride, lin + s * plane + y * stride, (size_t)m->width * m->bpe),
                           "detile and detile_samples disagree on row %u of sample %u", y, s);
            }
            for (unsigned k = 0; k < ELEMENTS / 4; k++) {
                unsigned x = next(&r) % m->width, y = next(&r) % m->height;
                FUZZ_CHECK(!memcmp(one + y * stride + (size_t)x * m->bpe, tiled + cedar_tile_addr(m, x, y, s, z),
                                   m->bpe),
                           "detiled (%u, %u) is not the byte the map gives", x, y);
            }
            FUZZ_CHECK(cedar_tile(m, back, m->size, one, stride, s, z) == 0, "tile refused");
        }
    }
    FUZZ_CHECK(!memcmp(back, tiled, m->size), "tile(detile(surface)) is not the surface");
    memset(back, 0, m->size);
    for (unsigned z = 0; z < m->slices; z++) {
        FUZZ_CHECK(cedar_detile_samples(m, tiled, m->size, lin, stride, plane, z) == 0, "detile_samples refused");
        FUZZ_CHECK(cedar_tile_samples(m, back, m->size, lin, stride, plane, z) == 0, "tile_samples refused");
    }
    FUZZ_CHECK(!memcmp(back, tiled, m->size), "tile_samples(detile_samples(surface)) is not the surface");
    if (m->samples == 1) {
        /* a DMA run (cedar_detile_run / cedar_tile_run) from the seed,
         * possibly leaving the surface: the elements the map gives, in
         * run order, and back */
        uint64_t plane_elems = (uint64_t)m->width * m->height;
        uint64_t first = next(&r) % (plane_elems + m->width), count = next(&r) % (plane_elems + 2 * m->width);
        unsigned z = next(&r) % m->slices;
        uint64_t want = first >= plane_elems ? 0 : count < plane_elems - first ? count : plane_elems - first;
        uint8_t *run = malloc(count * m->bpe + 1);
        FUZZ_CHECK(run, "out of memory");
        FUZZ_CHECK(cedar_detile_run(m, tiled, run, z, first, count) == want, "detile run copied a wrong count");
        for (uint64_t e = 0; e < want; e++) {
            uint64_t at = first + e;
            FUZZ_CHECK(!memcmp(run + e * m->bpe,
                               tiled + cedar_tile_addr(m, (unsigned)(at % m->width), (unsigned)(at / m->width), 0, z),
                               m->bpe),
                       "element %llu of a detile run is not the byte the map gives", (unsigned long long)e);
        }
        memcpy(back, tiled, m->size);
        FUZZ_CHECK(cedar_tile_run(m, back, run, z, first, count) == want, "tile run copied a wrong count");
        FUZZ_CHECK(!memcmp(back, tiled, m->size), "tile_run(detile_run(run)) changed the surface");
        free(run);
    }
    FUZZ_CHECK(cedar_detile(m, tiled, m->size - 1, one, stride, 0, 0) == -1, "a short buffer is taken");
    FUZZ_CHECK(cedar_detile(m, tiled, m->size, one, stride, m->samples, 0) == -1, "a sample past the end is taken");
    free(tiled);
    free(back);
    free(lin);
    free(one);
}

static void check_fmask(const struct cedar_tile_map *m, unsigned samples)
{
    unsigned planes = cedar_fmask_planes(m);
    FUZZ_CHECK(planes == (samples == 8 ? 4u : 2u), "%u planes for %u samples", planes, samples);
    uint8_t *hits = calloc(1, m->size);
    FUZZ_CHECK(hits, "out of memory");
    unsigned fs = samples;
    for (unsigned z = 0; z < m->slices; z++)
        for (unsigned y = 0; y < m->height; y++)
            for (unsigned x = 0; x < m->width; x++)
                for (unsigned s = 0; s < fs; s++)
                    for (unsigned p = 0; p < planes; p++) {
                        uint64_t byte;
                        unsigned bit;
                        cedar_fmask_bit(m, x, y, s, p, z, &byte, &bit);
                        FUZZ_CHECK(byte < m->size && bit < 8, "FMask bit outside the surface");
                        FUZZ_CHECK(!(hits[byte] >> bit & 1), "two FMask bits share byte %llu bit %u",
                                   (unsigned long long)byte, bit);
                        hits[byte] |= (uint8_t)(1u << bit);
                    }
    free(hits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned bpe[] = { 1, 2, 4, 8, 16 }, samples[] = { 1, 2, 4, 8 }, pipes[] = { 1, 2, 4, 8 },
                          banks[] = { 4, 8, 16 }, p1248[] = { 1, 2, 4, 8 }, split[] = { 64, 128, 256, 512, 1024, 2048, 4096 },
                          group[] = { 256, 512 };
    struct fuzz_in in = { data, size };
    uint8_t f = fuzz_u8(&in);
    struct cedar_surface s;
    memset(&s, 0, sizeof s);
    struct cedar_tile_opts o = { 0 };
    unsigned fmask_samples = 0;
    if (f & 0x80) {
        s.mode = (enum cedar_array_mode)fuzz_u32(&in);
        s.bpe = fuzz_u32(&in);
        s.samples = fuzz_u32(&in);
        s.tiling.pipes = fuzz_u32(&in);
        s.tiling.banks = fuzz_u32(&in);
        s.tiling.group_bytes = fuzz_u32(&in);
        s.bankw = fuzz_u32(&in);
        s.bankh = fuzz_u32(&in);
        s.mtilea = fuzz_u32(&in);
        s.tile_split = fuzz_u32(&in);
        s.aligned_width = s.width = fuzz_u32(&in);
        s.aligned_height = s.height = fuzz_u32(&in);
        o.slices = fuzz_u32(&in);
        o.order = (enum cedar_micro_order)fuzz_u32(&in);
        o.shader_engines = fuzz_u32(&in);
        o.se_tile = fuzz_u32(&in);
        fmask_samples = f & 0x40 ? fuzz_u32(&in) : 0;
    } else {
        s.mode = (enum cedar_array_mode)(f % 3);
        s.bpe = pick(&in, bpe, 5);
        s.samples = s.mode == CEDAR_MODE_2D_THIN ? pick(&in, samples, 4) : 1;
        s.tiling.pipes = pick(&in, pipes, 4);
        s.tiling.banks = pick(&in, banks, 3);
        s.tiling.group_bytes = pick(&in, group, 2);
        s.bankw = pick(&in, p1248, 4);
        s.bankh = pick(&in, p1248, 4);
        s.mtilea = pick(&in, p1248, 4);
        s.tile_split = pick(&in, split, 7);
        unsigned aw = 8, ah = 8;
        if (s.mode == CEDAR_MODE_2D_THIN) {
            aw = 8 * s.bankw * s.tiling.pipes * s.mtilea;
            ah = s.mtilea <= s.tiling.banks ? 8 * s.bankh * s.tiling.banks / s.mtilea : 8;
        }
        s.aligned_width = s.width = aw * (1 + fuzz_u8(&in) % 3);
        s.aligned_height = s.height = ah * (1 + fuzz_u8(&in) % 3) + (s.mode == CEDAR_MODE_LINEAR_ALIGNED ? f / 4 % 8 : 0);
        o.slices = 1 + fuzz_u8(&in) % 3;
        o.order = (f >> 3) & 1 ? CEDAR_MICRO_NON_DISPLAYABLE : CEDAR_MICRO_DISPLAYABLE;
        uint8_t se = fuzz_u8(&in) % 3;
        o.shader_engines = se == 0 ? 1 : 2;
        o.se_tile = se == 1 ? 16 : 32;
        if (f & 0x40 && s.mode != CEDAR_MODE_LINEAR_ALIGNED)
            fmask_samples = pick(&in, samples + 1, 3);
    }
    uint32_t seed = fuzz_u32(&in);
    struct cedar_tile_map m;
    struct cedar_layout_err err;
    int r = fmask_samples ? cedar_fmask_map_init(&m, &s, fmask_samples, &o, &err) : cedar_tile_map_init(&m, &s, &o, &err);
    if (r) {
        FUZZ_CHECK(r == -1, "map init returned %d", r);
        fuzz_check_line("map refusal", err.msg);
        return 0;
    }
    FUZZ_CHECK(m.size == (uint64_t)m.slices * m.slice_size && m.size > 0, "map size");
    if (m.size > MAX_SURFACE)
        return 0;
    if (fmask_samples)
        check_fmask(&m, fmask_samples);
    else
        check_colour(&m, seed);
    return 0;
}
