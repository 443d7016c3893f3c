/* CB_RESOLVE: each pixel the resolve draw covers gets, in CB1, the average
 * of CB0's samples, read through CB0's CMask (a fast-cleared tile resolves to
 * the clear colour without touching the samples) and FMask (each sample's
 * colour is its fragment's).  8-bit UNORM samples average as the card's
 * frame shows (issue 16; cb_resolve_unorm8_in / _out); other formats
 * average as floats. */
#include <string.h>

#include "render_priv.h"

static bool same_layout_8bit(const struct cb_target *a, const struct cb_target *b)
{
    return a->format == b->format && a->comp_swap == b->comp_swap && a->number_type == b->number_type &&
           (a->number_type == V_CB_NUMBER_TYPE__NUMBER_UNORM) && a->bpe <= 4 &&
           (a->format == V_CB_FORMAT__COLOR_8 || a->format == V_CB_FORMAT__COLOR_8_8 ||
            a->format == V_CB_FORMAT__COLOR_8_8_8_8);
}

uint32_t cb_resolve_unorm8_in(uint8_t s)
{
    if (s == 0)
        return 0;
    /* 2^k <= s < 2^(k+1) puts s/255 in [2^(k-8), 2^(k-7)) (255 < 256; s = 255
     * is 1 and comes out exact), so the 12-bit significand's last bit weighs
     * 2^(k-19), i.e. 2^(k+1) units.  No ties: 255 is odd. */
    unsigned k = 31u - (unsigned)__builtin_clz(s);
    uint32_t m = (((uint32_t)s << (20u - k)) + 255u) / 510u; /* round(s * 2^(19-k) / 255) */
    return m << (k + 1u);
}

uint8_t cb_resolve_unorm8_out(uint32_t sum, unsigned n)
{
    /* floor(sum / n * 255 / 2^20 + 1/2), exactly */
    uint64_t den = (uint64_t)n << (CB_RESOLVE_UNIT_BITS + 1);
    return (uint8_t)(((uint64_t)sum * 510u + (den >> 1)) / den);
}

/* The mean of samples raw[0..n) of 8-bit UNORM src as dst's 8-bit UNORM
 * element, component by component through both surfaces' swaps. */
static void average_unorm8(const struct cb_target *src, const struct cb_target *dst, uint8_t (*raw)[16], unsigned n,
                           uint8_t *out)
{
    /* a component src does not store reads as 0, alpha as 1 (cb_unpack) */
    uint32_t acc[4] = {0, 0, 0, n * cb_resolve_unorm8_in(255)};
    for (unsigned c = 0; c < src->comps; c++) {
        uint32_t sum = 0;
        for (unsigned s = 0; s < n; s++)
            sum += cb_resolve_unorm8_in(raw[s][c]);
        acc[src->swizzle[c]] = sum;
    }
    for (unsigned c = 0; c < dst->comps; c++)
        out[c] = cb_resolve_unorm8_out(acc[dst->swizzle[c]], n);
}

void cb_resolve_pixel(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y)
{
    if (x >= src->width || y >= src->height || x >= dst->width || y >= dst->height)
        return;
    uint8_t out[16];
    uint8_t raw[RS_MAX_SAMPLES][16];
    unsigned ns = src->samples;
    bool uniform = false;
    if (cb_tile_cleared(src, x, y)) {
        cb_read_sample_raw(src, x, y, 0, raw[0]);
        uniform = true;
    } else if (src->fmask_on) {
        uint32_t frags = cb_fmask_read(src, x, y);
        uint32_t seen = 0;
        for (unsigned s = 0; s < ns; s++)
            seen |= 1u << ((frags >> (4 * s)) & 0xFu);
        if ((seen & (seen - 1)) == 0) {
            unsigned f = (unsigned)__builtin_ctz(seen);
            cb_copy_el(raw[0], cb_plane_ptr(src, x, y, f), src->bpe);
            uniform = true;
        } else {
            for (unsigned s = 0; s < ns; s++)
                cb_copy_el(raw[s], cb_plane_ptr(src, x, y, (frags >> (4 * s)) & 0xFu), src->bpe);
        }
    } else {
        for (unsigned s = 0; s < ns; s++)
            cb_copy_el(raw[s], cb_plane_ptr(src, x, y, s), src->bpe);
    }

    if (uniform && same_layout_8bit(src, dst)) {
        cb_copy_el(out, raw[0], src->bpe);
    } else if (src->unorm8 && dst->unorm8) {
        average_unorm8(src, dst, raw, uniform ? 1 : ns, out);
    } else {
        float acc[4] = {0, 0, 0, 0}, v[4];
        unsigned n = uniform ? 1 : ns;
        for (unsigned s = 0; s < n; s++) {
            cb_unpack(src, raw[s], v);
            for (unsigned c = 0; c < 4; c++)
                acc[c] += v[c];
        }
        for (unsigned c = 0; c < 4; c++)
            acc[c] /= (float)n;
        cb_pack(dst, acc, out);
    }
    if (dst->cmask_on)
        cb_tile_expand(dst, x, y);
    cb_copy_el(cb_plane_ptr(dst, x, y, 0), out, dst->bpe);
}

/* [a, a + na) and [b, b + nb) share no byte. */
static bool bytes_apart(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa + na <= pb || pb + nb <= pa;
}

/* cb_resolve_fragment0_tile's conditions on the two targets: the
 * destination must not overlap the source or its FMask (the per-pixel loop
 * reads them as it writes). */
static bool fragment0_targets(const struct cb_target *src, const struct cb_target *dst)
{
    return src->fmask_on && !dst->cmask_on && same_layout_8bit(src, dst) && src->samples == src->fmap.samples &&
           src->per_run == dst->per_run && src->per_run && src->bpe == dst->bpe &&
           memcmp(src->map.pix_index, dst->map.pix_index, sizeof src->map.pix_index) == 0 &&
           bytes_apart(dst->mem, dst->map.size, src->mem, src->map.size) &&
           bytes_apart(dst->mem, dst->map.size, src->fmask, src->fmap.size);
}

/* dst->resolve for src: found at the first tile of a resolve from src (the
 * targets are set up per draw, their registers fixed meanwhile). */
static const struct cb_resolve_facts *find_resolve_facts(const struct cb_target *src, struct cb_target *dst)
{
    struct cb_resolve_facts *f = &dst->resolve;
    f->src = src;
    f->clear_word[0] = src->clear_word[0];
    f->clear_word[1] = src->clear_word[1];
    f->same8 = same_layout_8bit(src, dst);
    f->tiles = src->fmask_on && !dst->cmask_on && f->same8 && src->bpe == 4 && src->ctab && src->ftab && dst->ctab;
    f->frag0 = fragment0_targets(src, dst);
    uint8_t raw[16];
    cb_clear_element(src, raw);   /* what every sample of a cleared tile reads */
    memset(f->clear_el, 0, sizeof f->clear_el);
    if (f->same8) {
        cb_copy_el(f->clear_el, raw, dst->bpe);
    } else {
        float v[4];
        cb_unpack(src, raw, v);
        cb_pack(dst, v, f->clear_el);
    }
    return f;
}

static inline const struct cb_resolve_facts *resolve_facts(const struct cb_target *src, struct cb_target *dst)
{
    const struct cb_resolve_facts *f = &dst->resolve;
    if (f->src == src && f->clear_word[0] == src->clear_word[0] && f->clear_word[1] == src->clear_word[1])
        return f;
    return find_resolve_facts(src, dst);
}

int cb_resolve_cleared_tile(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y)
{
    if (x + 8 > src->width || y + 8 > src->height || x + 8 > dst->width || y + 8 > dst->height)
        return 0;
    if (!cb_tile_cleared(src, x, y) || dst->cmask_on)
        return 0;
    uint64_t own[CEDAR_MICRO_RUNS_MAX];
    const uint64_t *run = own;
    const struct color_tile *kept = dst->ctab ? addr_table_color(dst->ctab, x / 8, y / 8) : NULL;
    if (kept)
        run = kept->run; /* sample plane 0 */
    else if (cedar_tile_micro(&dst->map, x / 8, y / 8, 0, dst->slice, own) == 0)
        return 0; /* linear destination: per pixel */
    const uint8_t *el = resolve_facts(src, dst)->clear_el;
    if (dst->per_run) {
        /* pixel index i is element i % per_run of run i / per_run
         * (cb_target_init's pix_run / pix_off): the same stores, run by run */
        unsigned per_run = dst->per_run;
        if (dst->bpe == 4) {
            /* the tile's 64 elements, a run's worth copied at a time */
            if (per_run == 64) {
                cb_fill_run4(dst->mem + run[0], el);
                return 1;
            }
            uint32_t v;
            memcpy(&v, el, 4);
            uint32_t tile[64];
            for (unsigned i = 0; i < 64; i++)
                tile[i] = v;
            for (unsigned r = 0; r * per_run < 64; r++) {
                unsigned n = 64 - r * per_run < per_run ? 64 - r * per_run : per_run;
                memcpy(dst->mem + run[r], tile, (size_t)n * 4);
            }
            return 1;
        }
        for (unsigned i = 0; i < 64; i++)
            cb_copy_el(dst->mem + run[dst->pix_run[i]] + dst->pix_off[i], el, dst->bpe);
        return 1;
    }
    unsigned per_run = dst->map.run_bytes / dst->bpe;
    for (unsigned i = 0; i < 64; i++)
        cb_copy_el(dst->mem + run[i / per_run] + (uint64_t)(i % per_run) * dst->bpe, el, dst->bpe);
    return 1;
}

/* cb_resolve_fragment0_tile after its conditions on the targets. */
static int fragment0_copy(const struct cb_target *src, struct cb_target *dst, const struct fmask_tile *ft,
                          const struct color_tile *sc, const struct color_tile *dc)
{
    if (!ft->span_len)
        return 0;
    const uint8_t *fm = src->fmask + ft->span_lo;
    /* eight bytes at a time (the span is 64 bytes at 4x, 192 at 8x) */
    uint64_t any = 0;
    unsigned k = 0;
    for (; k + 8 <= ft->span_len; k += 8) {
        uint64_t f, u;
        memcpy(&f, fm + k, 8);
        memcpy(&u, ft->span_used + k, 8);
        any |= f & u;
    }
    for (; k < ft->span_len; k++)
        any |= fm[k] & ft->span_used[k];
    if (any)
        return 0;
    unsigned per_run = src->per_run;
    if (per_run == 64 && src->bpe == 4) {
        /* one 256-byte run: a constant-size copy (inline vector moves) */
        memcpy(dst->mem + dc->run[0], src->mem + sc->run[0], 256);
        return 1;
    }
    for (unsigned r = 0; r * per_run < 64; r++) {
        unsigned n = 64 - r * per_run < per_run ? 64 - r * per_run : per_run;
        memcpy(dst->mem + dc->run[r], src->mem + sc->run[r], (size_t)n * src->bpe);
    }
    return 1;
}

/* cb_resolve_tile's loop when every pixel's samples all show fragment 0
 * (all the tile's FMask bits 0, the tile's span of them read at once):
 * each pixel copies its plane-0 element, which, with both surfaces ordering
 * a micro tile's pixels alike in equal runs, is a copy of run after run.
 * The destination must not overlap the source or its FMask (the per-pixel
 * loop reads them as it writes).  0: not the case, nothing written. */
int cb_resolve_fragment0_tile(const struct cb_target *src, struct cb_target *dst, const struct fmask_tile *ft,
                              const struct color_tile *sc, const struct color_tile *dc)
{
    return fragment0_targets(src, dst) ? fragment0_copy(src, dst, ft, sc, dc) : 0;
}

int cb_resolve_tile(const struct cb_target *src, struct cb_target *dst, unsigned x, unsigned y)
{
    if (cb_resolve_cleared_tile(src, dst, x, y))
        return 1;
    if (x + 8 > src->width || y + 8 > src->height || x + 8 > dst->width || y + 8 > dst->height)
        return 0;
    const struct cb_resolve_facts *facts = resolve_facts(src, dst);
    if (!facts->tiles || cb_tile_cleared(src, x, y))
        return 0;
    const struct fmask_tile *ft = addr_table_fmask(src->ftab, x / 8, y / 8);
    const struct color_tile *sc = addr_table_color(src->ctab, x / 8, y / 8);
    const struct color_tile *dc = addr_table_color(dst->ctab, x / 8, y / 8);
    if (!ft || !sc || !dc)
        return 0;
    unsigned ns = src->samples;
    if (facts->frag0 && fragment0_copy(src, dst, ft, sc, dc))
        return 1;
    for (unsigned i = 0; i < 64; i++) {
        uint32_t frags = cb_fmask_frags(src->fmask, ft->byte[i], ft->bit0[i], src->fplanes, ns);
        unsigned ps = src->map.pix_index[i], pd = dst->map.pix_index[i];
        uint64_t soff = src->pix_off[ps];
        const uint64_t *srun = &sc->run[src->pix_run[ps]];
        uint8_t *out = dst->mem + dc->run[dst->pix_run[pd]] + dst->pix_off[pd];
        uint32_t seen = 1u; /* every sample fragment 0: the common case */
        if (frags != 0) {
            seen = 0;
            for (unsigned s = 0; s < ns; s++)
                seen |= 1u << ((frags >> (4 * s)) & 0xFu);
        }
        if ((seen & (seen - 1)) == 0) {
            /* one fragment: its colour, no averaging */
            unsigned f = (unsigned)__builtin_ctz(seen);
            memcpy(out, src->mem + srun[f * sc->nrun] + soff, 4);
            continue;
        }
        uint32_t sum[4] = {0, 0, 0, 0};
        for (unsigned s = 0; s < ns; s++) {
            const uint8_t *v = src->mem + srun[((frags >> (4 * s)) & 0xFu) * sc->nrun] + soff;
            for (unsigned c = 0; c < 4; c++)
                sum[c] += cb_resolve_unorm8_in(v[c]);
        }
        for (unsigned c = 0; c < 4; c++)
            out[c] = cb_resolve_unorm8_out(sum[c], ns);
    }
    return 1;
}
