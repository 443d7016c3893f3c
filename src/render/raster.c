/* Set-up and scan conversion: the viewport transform (PA_CL_VPORT_*,
 * PA_CL_VTE_CNTL), vertex snapping to the sub-pixel grid PA_SU_VTX_CNTL asks
 * for, the scissor (screen, window, generic and viewport rectangles
 * intersected), and coverage of each pixel's samples (PA_SC_AA_CONFIG,
 * PA_SC_AA_SAMPLE_LOCS_*, PA_SC_AA_MASK) by exact integer edge functions
 * with a top-left fill rule.
 *
 * Edge functions are evaluated on a 1/4096-pixel grid: vertices (snapped to
 * 1/2^QUANT bits, at most 1/4096) and sample positions (1/16 pixel) are both
 * exact on it, and with coordinates below 2^15 pixels the products fit in
 * 64 bits. */
#include <math.h>
#include <string.h>

#include "render_priv.h"

#define GRID_BITS 12                   /* evaluation grid: 1/4096 pixel */
#define GRID_ONE ((int64_t)1 << GRID_BITS)
#define SAMPLE_LOC_BITS 4              /* sample positions: 1/16 pixel */
#define MAX_COORD 16384                /* pixels; scissors are 15-bit */
#define BLOCK 8                        /* pixels per side of a coverage block */

static unsigned quant_bits(unsigned quant_mode)
{
    switch (quant_mode) {
    case V_PA_SU_QUANT_MODE__X_1_16TH: return 4;
    case V_PA_SU_QUANT_MODE__X_1_8TH: return 3;
    case V_PA_SU_QUANT_MODE__X_1_4TH: return 2;
    case V_PA_SU_QUANT_MODE__X_1_2: return 1;
    case V_PA_SU_QUANT_MODE__X_1: return 0;
    case V_PA_SU_QUANT_MODE__X_1_256TH: return 8;
    case V_PA_SU_QUANT_MODE__X_1_1024TH: return 10;
    default: return 12; /* X_1_4096TH */
    }
}

static float reg_float(const struct vc_regs *regs, uint32_t off)
{
    uint32_t u = vc_reg(regs, off);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void clamp_rect(int *x0, int *y0, int *x1, int *y1, int ax0, int ay0, int ax1, int ay1)
{
    if (ax0 > *x0) *x0 = ax0;
    if (ay0 > *y0) *y0 = ay0;
    if (ax1 < *x1) *x1 = ax1;
    if (ay1 < *y1) *y1 = ay1;
}

int rs_state_init(struct rs_state *s, const struct vc_regs *regs, struct vc_draw_err *err)
{
    memset(s, 0, sizeof *s);
    uint32_t vtx = vc_reg(regs, REG_PA_SU_VTX_CNTL);
    s->subpix_bits = quant_bits(G_PA_SU_VTX_CNTL__QUANT_MODE(vtx));
    s->round_mode = G_PA_SU_VTX_CNTL__ROUND_MODE(vtx);
    s->pix_center_half = G_PA_SU_VTX_CNTL__PIX_CENTER_HALF(vtx);
    s->vte = vc_reg(regs, REG_PA_CL_VTE_CNTL);
    s->vp_scale[0] = G_PA_CL_VTE_CNTL__VPORT_X_SCALE_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_XSCALE(0)) : 1.0f;
    s->vp_offset[0] = G_PA_CL_VTE_CNTL__VPORT_X_OFFSET_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_XOFFSET(0)) : 0.0f;
    s->vp_scale[1] = G_PA_CL_VTE_CNTL__VPORT_Y_SCALE_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_YSCALE(0)) : 1.0f;
    s->vp_offset[1] = G_PA_CL_VTE_CNTL__VPORT_Y_OFFSET_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_YOFFSET(0)) : 0.0f;
    s->vp_scale[2] = G_PA_CL_VTE_CNTL__VPORT_Z_SCALE_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_ZSCALE(0)) : 1.0f;
    s->vp_offset[2] = G_PA_CL_VTE_CNTL__VPORT_Z_OFFSET_ENA(s->vte) ? reg_float(regs, REG_PA_CL_VPORT_ZOFFSET(0)) : 0.0f;
    s->su_mode = vc_reg(regs, REG_PA_SU_SC_MODE_CNTL);
    uint32_t woff = vc_reg(regs, REG_PA_SC_WINDOW_OFFSET);
    s->win_off_x = (int16_t)G_PA_SC_WINDOW_OFFSET__WINDOW_X_OFFSET(woff);
    s->win_off_y = (int16_t)G_PA_SC_WINDOW_OFFSET__WINDOW_Y_OFFSET(woff);

    /* Scissor: the intersection of every rectangle in force.  Window and
     * generic scissors move with the window offset unless their
     * WINDOW_OFFSET_DISABLE says otherwise. */
    int x0 = 0, y0 = 0, x1 = MAX_COORD, y1 = MAX_COORD;
    uint32_t tl = vc_reg(regs, REG_PA_SC_SCREEN_SCISSOR_TL), br = vc_reg(regs, REG_PA_SC_SCREEN_SCISSOR_BR);
    clamp_rect(&x0, &y0, &x1, &y1, (int)G_PA_SC_SCREEN_SCISSOR_TL__TL_X(tl), (int)G_PA_SC_SCREEN_SCISSOR_TL__TL_Y(tl),
               (int)G_PA_SC_SCREEN_SCISSOR_BR__BR_X(br), (int)G_PA_SC_SCREEN_SCISSOR_BR__BR_Y(br));
    const uint32_t rects[2][2] = {
        {REG_PA_SC_WINDOW_SCISSOR_TL, REG_PA_SC_WINDOW_SCISSOR_BR},
        {REG_PA_SC_GENERIC_SCISSOR_TL, REG_PA_SC_GENERIC_SCISSOR_BR},
    };
    for (unsigned k = 0; k < 2; k++) {
        tl = vc_reg(regs, rects[k][0]);
        br = vc_reg(regs, rects[k][1]);
        int ox = G_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(tl) ? 0 : s->win_off_x;
        int oy = G_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(tl) ? 0 : s->win_off_y;
        clamp_rect(&x0, &y0, &x1, &y1, (int)G_PA_SC_SCISSOR_TL__TL_X(tl) + ox, (int)G_PA_SC_SCISSOR_TL__TL_Y(tl) + oy,
                   (int)G_PA_SC_SCISSOR_BR__BR_X(br) + ox, (int)G_PA_SC_SCISSOR_BR__BR_Y(br) + oy);
    }
    uint32_t mode0 = vc_reg(regs, REG_PA_SC_MODE_CNTL_0);
    if (G_PA_SC_MODE_CNTL_0__VPORT_SCISSOR_ENABLE(mode0)) {
        tl = vc_reg(regs, REG_PA_SC_VPORT_SCISSOR_TL(0));
        br = vc_reg(regs, REG_PA_SC_VPORT_SCISSOR_BR(0));
        int ox = G_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(tl) ? 0 : s->win_off_x;
        int oy = G_PA_SC_SCISSOR_TL__WINDOW_OFFSET_DISABLE(tl) ? 0 : s->win_off_y;
        clamp_rect(&x0, &y0, &x1, &y1, (int)G_PA_SC_SCISSOR_TL__TL_X(tl) + ox, (int)G_PA_SC_SCISSOR_TL__TL_Y(tl) + oy,
                   (int)G_PA_SC_SCISSOR_BR__BR_X(br) + ox, (int)G_PA_SC_SCISSOR_BR__BR_Y(br) + oy);
    }
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    s->sc_x0 = x0;
    s->sc_y0 = y0;
    s->sc_x1 = x1;
    s->sc_y1 = y1;

    /* MSAA: sample count and positions.  Positions are read for the count
     * in force: for 8x, SAMPLE_LOCS_0 holds samples 0-3 and _1 samples 4-7 of
     * the pixel (Mesa evergreen_emit_msaa_state repeats the pair for the
     * four pixels of a quad, which this model does not distinguish). */
    uint32_t aa = vc_reg(regs, REG_PA_SC_AA_CONFIG);
    unsigned log2s = G_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(aa);
    s->samples = 1u << log2s;
    if (s->samples > RS_MAX_SAMPLES)
        return rs_fail(err, "PA_SC_AA_CONFIG asks for %u samples", s->samples);
    bool msaa = G_PA_SC_MODE_CNTL_0__MSAA_ENABLE(mode0) && s->samples > 1;
    for (unsigned i = 0; i < s->samples; i++) {
        if (!msaa) {
            s->sample_dx[i] = s->sample_dy[i] = 0;
            continue;
        }
        uint32_t w = vc_reg(regs, REG_PA_SC_AA_SAMPLE_LOCS(i / 4));
        unsigned k = i % 4;
        int dx = (int)((w >> (8 * k)) & 0xFu), dy = (int)((w >> (8 * k + 4)) & 0xFu);
        s->sample_dx[i] = dx >= 8 ? dx - 16 : dx;
        s->sample_dy[i] = dy >= 8 ? dy - 16 : dy;
    }
    uint32_t am = vc_reg(regs, REG_PA_SC_AA_MASK);
    s->aa_mask[0] = (uint8_t)G_PA_SC_AA_MASK__AA_MASK_ULC(am);
    s->aa_mask[1] = (uint8_t)G_PA_SC_AA_MASK__AA_MASK_URC(am);
    s->aa_mask[2] = (uint8_t)G_PA_SC_AA_MASK__AA_MASK_LLC(am);
    s->aa_mask[3] = (uint8_t)G_PA_SC_AA_MASK__AA_MASK_LRC(am);
    if (s->samples == 1)
        for (unsigned q = 0; q < 4; q++)
            s->aa_mask[q] = (uint8_t)(s->aa_mask[q] ? 1 : 0) | 1u; /* single sample: the mask does not apply */
    s->per_sample = G_PA_SC_MODE_CNTL_1__PS_ITER_SAMPLE(vc_reg(regs, REG_PA_SC_MODE_CNTL_1)) && msaa;
    return 0;
}

/* Snap a window coordinate to the set-up grid (2^-bits pixel) per ROUND_MODE,
 * and express it on the evaluation grid. */
static int64_t snap(double v, unsigned bits, unsigned round_mode)
{
    double scaled = v * (double)((int64_t)1 << bits);
    double q;
    switch (round_mode) {
    case V_PA_SU_ROUND_MODE__X_ROUND:
        q = floor(scaled + 0.5);
        break;
    case V_PA_SU_ROUND_MODE__X_ROUND_TO_EVEN:
        q = nearbyint(scaled);
        break;
    case V_PA_SU_ROUND_MODE__X_ROUND_TO_ODD: {
        double f = floor(scaled);
        q = (scaled - f == 0.5) ? (((int64_t)f & 1) ? f : f + 1) : floor(scaled + 0.5);
        break;
    }
    default: /* X_TRUNCATE */
        q = trunc(scaled);
        break;
    }
    return (int64_t)q * ((int64_t)1 << (GRID_BITS - bits));
}

int rs_vertex_setup(const struct rs_state *s, const float clip[4], struct rs_vertex *out)
{
    float w = clip[3];
    float inv_w = G_PA_CL_VTE_CNTL__VTX_W0_FMT(s->vte) ? 1.0f / w : w;
    float x = clip[0], y = clip[1], z = clip[2];
    if (!G_PA_CL_VTE_CNTL__VTX_XY_FMT(s->vte)) {
        if (w == 0.0f)
            return -1;
        x *= 1.0f / w;
        y *= 1.0f / w;
    }
    if (!G_PA_CL_VTE_CNTL__VTX_Z_FMT(s->vte) && w != 0.0f)
        z *= 1.0f / w;
    /* The viewport transform of x and y keeps the exact product and sum
     * (no rounding to single precision before the snap): the real card's
     * frame (tests/data/cedar/eg.1.bin.gz) has its bottom vertices, NDC
     * y = -0.9f under scale -360 / offset 360, at 683 + 255/256 = the exact
     * 683.9999914 truncated, where a float result (684.0) would snap to 684;
     * only the former reproduces the green channel's rows (J = the top
     * vertex's weight).  The float product is exact in double. */
    double dx = (double)x * s->vp_scale[0] + s->vp_offset[0];
    double dy = (double)y * s->vp_scale[1] + s->vp_offset[1];
    out->z = z * s->vp_scale[2] + s->vp_offset[2];
    out->inv_w = inv_w;
    if (G_PA_SU_SC_MODE_CNTL__VTX_WINDOW_OFFSET_ENABLE(s->su_mode)) {
        dx += s->win_off_x;
        dy += s->win_off_y;
    }
    /* Pixel centres at integers (PIX_CENTER_HALF 0, D3D9) put the grid
     * half a pixel off the OpenGL one the evaluation uses. */
    if (!s->pix_center_half) {
        dx += 0.5;
        dy += 0.5;
    }
    if (!(dx > -2.0 * MAX_COORD && dx < 2.0 * MAX_COORD && dy > -2.0 * MAX_COORD && dy < 2.0 * MAX_COORD))
        return -1;
    out->x = snap(dx, s->subpix_bits, s->round_mode);
    out->y = snap(dy, s->subpix_bits, s->round_mode);
    return 0;
}

int rs_triangle_winding(const struct rs_vertex v[3])
{
    int64_t a = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
    /* y grows downwards: a > 0 is clockwise on screen. */
    return a > 0 ? -1 : a < 0 ? 1 : 0;
}

struct edge {
    int64_t a, b, c;   /* E(x, y) = a*x + b*y + c on the evaluation grid; inside: E > 0 */
    bool inclusive;    /* E == 0 counts as inside (top-left rule) */
};

static void edge_init(struct edge *e, const struct rs_vertex *p, const struct rs_vertex *q)
{
    /* Inside is to the left of p->q in a y-down frame when the triangle was
     * made clockwise-positive by the caller. */
    e->a = p->y - q->y;
    e->b = q->x - p->x;
    e->c = -(e->a * p->x + e->b * p->y);
    /* Top edge: horizontal with the inside below (a == 0, b < 0 -> going
     * left); left edge: the inside to its right (a > 0 -> going down... ).
     * With E = a*x + b*y + c > 0 inside: a top edge has a == 0 and b > 0
     * (E grows downwards), a left edge has a > 0 (E grows to the right). */
    e->inclusive = (e->a == 0 && e->b > 0) || e->a > 0;
}

static inline bool edge_in(const struct edge *e, int64_t v)
{
    return v > 0 || (v == 0 && e->inclusive);
}

/* The pixels [*px0, *px1) x [*py0, *py1) that can hold a covered sample
 * of a primitive whose vertices span [minx, maxx] x [miny, maxy] (before
 * the scissor): sample i of pixel p is at p + 1/2 + sample_dx[i] / 16, and
 * a covered sample lies within the vertices' extent (a 1-pixel point: its
 * one pixel). */
static inline void pixel_box(const struct rs_state *s, int64_t minx, int64_t maxx, int64_t miny, int64_t maxy, int *px0,
                      int *px1, int *py0, int *py1)
{
    int dx0 = 0, dx1 = 0, dy0 = 0, dy1 = 0;
    for (unsigned i = 0; i < s->samples; i++) {
        dx0 = s->sample_dx[i] < dx0 || i == 0 ? s->sample_dx[i] : dx0;
        dx1 = s->sample_dx[i] > dx1 || i == 0 ? s->sample_dx[i] : dx1;
        dy0 = s->sample_dy[i] < dy0 || i == 0 ? s->sample_dy[i] : dy0;
        dy1 = s->sample_dy[i] > dy1 || i == 0 ? s->sample_dy[i] : dy1;
    }
    const int64_t half = GRID_ONE / 2, loc = (int64_t)1 << (GRID_BITS - SAMPLE_LOC_BITS);
    *px0 = (int)-((half + dx1 * loc - minx) >> GRID_BITS);   /* ceil((minx - half - dx1 loc) / GRID_ONE) */
    *px1 = (int)((maxx - half - dx0 * loc) >> GRID_BITS) + 1;
    *py0 = (int)-((half + dy1 * loc - miny) >> GRID_BITS);
    *py1 = (int)((maxy - half - dy0 * loc) >> GRID_BITS) + 1;
}

/* A triangle made ready for scan conversion. */
struct tri {
    struct edge e[3];        /* e[k]: the edge opposite (oriented) vertex k */
    bool swapped;            /* vertices 1 and 2 swapped to make the area positive */
    int64_t area;
    int px0, px1, py0, py1;  /* pixels to visit: bounding box within the scissor */
    int64_t soff[RS_MAX_SAMPLES][3];   /* per sample, per edge: E(sample) - E(centre) */
    int64_t smin[3], smax[3];
};

/* false: nothing to draw (no area, or outside the scissor). */
static bool tri_setup(const struct rs_state *s, const struct rs_vertex vin[3], struct tri *t)
{
    /* Orient so that the area is positive (E > 0 inside); remember the
     * permutation to give barycentrics for the caller's vertex order. */
    struct rs_vertex v[3] = {vin[0], vin[1], vin[2]};
    int64_t area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
    t->swapped = false;
    if (area == 0)
        return false;
    if (area < 0) {
        struct rs_vertex tmp = v[1];
        v[1] = v[2];
        v[2] = tmp;
        area = -area;
        t->swapped = true;
    }
    t->area = area;
    edge_init(&t->e[0], &v[1], &v[2]);
    edge_init(&t->e[1], &v[2], &v[0]);
    edge_init(&t->e[2], &v[0], &v[1]);

    int64_t minx = v[0].x, maxx = v[0].x, miny = v[0].y, maxy = v[0].y;
    for (int k = 1; k < 3; k++) {
        if (v[k].x < minx) minx = v[k].x;
        if (v[k].x > maxx) maxx = v[k].x;
        if (v[k].y < miny) miny = v[k].y;
        if (v[k].y > maxy) maxy = v[k].y;
    }
    pixel_box(s, minx, maxx, miny, maxy, &t->px0, &t->px1, &t->py0, &t->py1);
    if (t->px0 < s->sc_x0) t->px0 = s->sc_x0;
    if (t->py0 < s->sc_y0) t->py0 = s->sc_y0;
    if (t->px1 > s->sc_x1) t->px1 = s->sc_x1;
    if (t->py1 > s->sc_y1) t->py1 = s->sc_y1;
    if (t->px0 >= t->px1 || t->py0 >= t->py1)
        return false;

    for (int k = 0; k < 3; k++) {
        t->smin[k] = t->smax[k] = 0;
        for (unsigned i = 0; i < s->samples; i++) {
            int64_t dx = (int64_t)s->sample_dx[i] * ((int64_t)1 << (GRID_BITS - SAMPLE_LOC_BITS));
            int64_t dy = (int64_t)s->sample_dy[i] * ((int64_t)1 << (GRID_BITS - SAMPLE_LOC_BITS));
            t->soff[i][k] = t->e[k].a * dx + t->e[k].b * dy;
            if (t->soff[i][k] < t->smin[k]) t->smin[k] = t->soff[i][k];
            if (t->soff[i][k] > t->smax[k]) t->smax[k] = t->soff[i][k];
        }
    }
    return true;
}

/* Block test of edge k on the pixel centres [bx, bxe) x [by, bye) widened by
 * the sample spread: every sample out (*out), every sample in (return). */
static inline bool edge_block(const struct tri *t, int k, int bx, int by, int bxe, int bye, bool *out)
{
    const int64_t half = GRID_ONE / 2;
    const struct edge *e = &t->e[k];
    int64_t cx0 = ((int64_t)bx << GRID_BITS) + half, cx1 = ((int64_t)(bxe - 1) << GRID_BITS) + half;
    int64_t cy0 = ((int64_t)by << GRID_BITS) + half, cy1 = ((int64_t)(bye - 1) << GRID_BITS) + half;
    int64_t lo = e->c + (e->a > 0 ? e->a * cx0 : e->a * cx1) + (e->b > 0 ? e->b * cy0 : e->b * cy1);
    int64_t hi = e->c + (e->a > 0 ? e->a * cx1 : e->a * cx0) + (e->b > 0 ? e->b * cy1 : e->b * cy0);
    *out = hi + t->smax[k] < 0;
    return lo + t->smin[k] > 0;
}

/* The samples of the pixel whose centre has edge values ec that lie inside. */
static inline uint32_t pixel_samples(const struct tri *t, unsigned ns, const int64_t ec[3])
{
    uint32_t cov = 0;
    for (unsigned i = 0; i < ns; i++)
        if (edge_in(&t->e[0], ec[0] + t->soff[i][0]) && edge_in(&t->e[1], ec[1] + t->soff[i][1]) &&
            edge_in(&t->e[2], ec[2] + t->soff[i][2]))
            cov |= 1u << i;
    return cov;
}

static inline void centre_values(const struct tri *t, int x, int y, int64_t ec[3])
{
    const int64_t half = GRID_ONE / 2;
    int64_t cx = ((int64_t)x << GRID_BITS) + half, cy = ((int64_t)y << GRID_BITS) + half;
    for (int k = 0; k < 3; k++)
        ec[k] = t->e[k].a * cx + t->e[k].b * cy + t->e[k].c;
}

static bool mask_full(const struct rs_state *s, uint32_t all)
{
    for (int q = 0; q < 4; q++)
        if ((s->aa_mask[q] & all) != all)
            return false;
    return true;
}

/* The next block row [gy, gy + 8) to scan: rows are claimed from the
 * shared counter *row_next when the rows are split among threads (one row
 * per claim, so a thread the machine holds up takes fewer), else the one
 * after *gy (start with *gy = base - 8).  false: no more below py1. */
static inline bool next_row(const struct rs_state *s, int base, int py1, int *gy)
{
    if (s->row_next) {
        unsigned k = __atomic_fetch_add(s->row_next, 1u, __ATOMIC_RELAXED);
        *gy = base + (int)k * BLOCK;
    } else {
        *gy += BLOCK;
    }
    return *gy < py1;
}

/* The blocks of the 8x8 grid over pixels [px0, px1) x [py0, py1), row by
 * row as next_row gives the rows: block (gx, gy), clipped to those pixels,
 * is [bx, bxe) x [by, bye). */
struct blocks {
    int px0, px1, py0, py1, base;
    int gx, gy, bx, by, bxe, bye;
};

static inline void blocks_start(struct blocks *b, int px0, int px1, int py0, int py1)
{
    b->px0 = px0;
    b->px1 = px1;
    b->py0 = py0;
    b->py1 = py1;
    b->base = py0 & ~(BLOCK - 1);
    b->gy = b->base - BLOCK;
    b->gx = px1; /* the first call starts a row */
    b->by = b->bye = py0;
}

static inline bool blocks_next(const struct rs_state *s, struct blocks *b)
{
    b->gx += BLOCK;
    if (b->gx >= b->px1) {
        if (!next_row(s, b->base, b->py1, &b->gy))
            return false;
        b->by = b->gy < b->py0 ? b->py0 : b->gy;
        b->bye = b->gy + BLOCK < b->py1 ? b->gy + BLOCK : b->py1;
        b->gx = b->px0 & ~(BLOCK - 1);
    }
    b->bx = b->gx < b->px0 ? b->px0 : b->gx;
    b->bxe = b->gx + BLOCK < b->px1 ? b->gx + BLOCK : b->px1;
    return true;
}

/* The block is a whole one of the grid (none of it clipped). */
static inline bool blocks_whole(const struct blocks *b)
{
    return b->bx == b->gx && b->by == b->gy && b->bxe == b->gx + BLOCK && b->bye == b->gy + BLOCK;
}

/* The weights of pixel px (x, y and coverage set; edge values ec at its
 * centre): at the centre, the centroid (the covered sample nearest the
 * centre when not every sample is covered) and, shading per sample, each
 * sample. */
static inline void pixel_weights(const struct rs_state *s, const struct tri *t, const int *centroid_order,
                                 uint32_t all, double inv_area, const int64_t ec[3], struct rs_pixel *px)
{
    unsigned ns = s->samples;
    bool swapped = t->swapped;
    uint32_t cov = px->coverage;
    /* Weights of the caller's vertices 1 and 2. */
    double w1 = (double)ec[1] * inv_area, w2 = (double)ec[2] * inv_area;
    px->center_ij[0] = swapped ? w2 : w1;
    px->center_ij[1] = swapped ? w1 : w2;
    int cs = -1;
    if (cov != all)
        for (unsigned i = 0; i < ns; i++)
            if ((cov >> centroid_order[i]) & 1u) {
                cs = centroid_order[i];
                break;
            }
    if (cs < 0) {
        px->centroid_ij[0] = px->center_ij[0];
        px->centroid_ij[1] = px->center_ij[1];
    } else {
        double c1 = (double)(ec[1] + t->soff[cs][1]) * inv_area, c2 = (double)(ec[2] + t->soff[cs][2]) * inv_area;
        px->centroid_ij[0] = swapped ? c2 : c1;
        px->centroid_ij[1] = swapped ? c1 : c2;
    }
    if (s->per_sample)
        for (unsigned i = 0; i < ns; i++) {
            double c1 = (double)(ec[1] + t->soff[i][1]) * inv_area, c2 = (double)(ec[2] + t->soff[i][2]) * inv_area;
            px->sample_ij[i][0] = swapped ? c2 : c1;
            px->sample_ij[i][1] = swapped ? c1 : c2;
        }
}

/* The samples by distance from the pixel centre, nearest first (ties in
 * sample order): where the centroid looks first. */
static void centroid_sort(const struct rs_state *s, int order[RS_MAX_SAMPLES])
{
    unsigned ns = s->samples;
    for (unsigned i = 0; i < ns; i++)
        order[i] = (int)i;
    for (unsigned i = 1; i < ns; i++)
        for (unsigned j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            int da = s->sample_dx[a] * s->sample_dx[a] + s->sample_dy[a] * s->sample_dy[a];
            int db = s->sample_dx[b] * s->sample_dx[b] + s->sample_dy[b] * s->sample_dy[b];
            if (db < da) {
                order[j - 1] = b;
                order[j] = a;
            }
        }
}

/* The 2x2 quads (even x and y first) over the pixels [bx, bxe) x [by, bye)
 * of a block: each with a covered pixel goes to fn with its four pixels,
 * (x, y) (x + 1, y) (x, y + 1) (x + 1, y + 1); a pixel of it outside those
 * pixels or with no sample covered has coverage 0 and its centre's
 * weights (a helper pixel). */
static int block_quads(const struct rs_state *s, const struct tri *t, const int *centroid_order, uint32_t all,
                       double inv_area, bool full, int bx, int by, int bxe, int bye, rs_quad_fn fn, void *ctx)
{
    struct rs_pixel q[4];
    for (int qy = by & ~1; qy < bye; qy += 2)
        for (int qx = bx & ~1; qx < bxe; qx += 2) {
            uint32_t any = 0;
            for (int k = 0; k < 4; k++) {
                int x = qx + (k & 1), y = qy + (k >> 1);
                int64_t ec[3];
                centre_values(t, x, y, ec);
                uint32_t cov = 0;
                if (x >= bx && x < bxe && y >= by && y < bye) {
                    cov = full ? all : pixel_samples(t, s->samples, ec);
                    cov &= s->aa_mask[(y & 1) * 2 + (x & 1)];
                }
                q[k].x = x;
                q[k].y = y;
                q[k].coverage = cov;
                any |= cov;
                pixel_weights(s, t, centroid_order, all, inv_area, ec, &q[k]);
            }
            if (any && fn(ctx, q))
                return -1;
        }
    return 0;
}

static int scan(const struct rs_state *s, const struct rs_vertex vin[3], rs_pixel_fn fn, rs_block_fn block_fn,
                rs_quad_fn quad_fn, void *ctx)
{
    struct tri t;
    if (!tri_setup(s, vin, &t))
        return 0;
    const struct edge *e = t.e;
    bool swapped = t.swapped;
    int px0 = t.px0, px1 = t.px1, py0 = t.py0, py1 = t.py1;

    unsigned ns = s->samples;
    uint32_t all = ns >= 32 ? 0xFFFFFFFFu : (1u << ns) - 1u;
    double inv_area = 1.0 / (double)t.area;
    int centroid_order[RS_MAX_SAMPLES]; /* samples by distance from the centre */
    centroid_sort(s, centroid_order);
    struct rs_pixel px;
    if (px1 - px0 == 1 && py1 - py0 == 1 && !quad_fn && !s->row_next) {
        /* One pixel to visit (a 1-pixel point's half): what the blocks
         * below do for it, without them.  Its block is never a whole one
         * (no block_fn); an edge with every sample out leaves pixel_samples
         * none, one with every sample in leaves them all. */
        int64_t ec[3];
        centre_values(&t, px0, py0, ec);
        uint32_t cov = pixel_samples(&t, ns, ec) & s->aa_mask[(py0 & 1) * 2 + (px0 & 1)];
        if (!cov)
            return 0;
        px.x = px0;
        px.y = py0;
        px.coverage = cov;
        pixel_weights(s, &t, centroid_order, all, inv_area, ec, &px);
        return fn(ctx, &px) ? -1 : 0;
    }

    const int64_t half = GRID_ONE / 2;
    bool whole_mask = mask_full(s, all);
    /* Blocks on the 8x8 grid, clipped to the bounding box and scissor. */
    struct blocks blks;
    blocks_start(&blks, px0, px1, py0, py1);
    while (blocks_next(s, &blks)) {
        int bx = blks.bx, bxe = blks.bxe, by = blks.by, bye = blks.bye;
        /* all out on one edge -> skip; all in on every edge -> every
         * sample of every pixel covered */
        bool skip = false, full = true;
        for (int k = 0; k < 3 && !skip; k++)
            full &= edge_block(&t, k, bx, by, bxe, bye, &skip);
        if (skip)
            continue;
        if (full && block_fn && whole_mask && blocks_whole(&blks)) {
            /* the block's first centre, and the steps of the edges
             * giving the caller's vertices 1 and 2 their weights */
            int64_t cx = ((int64_t)bx << GRID_BITS) + half, cy = ((int64_t)by << GRID_BITS) + half;
            const struct edge *e1 = &e[swapped ? 2 : 1], *e2 = &e[swapped ? 1 : 2];
            struct rs_block blk = {bx,
                                   by,
                                   {e1->a * cx + e1->b * cy + e1->c, e2->a * cx + e2->b * cy + e2->c},
                                   {e1->a * GRID_ONE, e2->a * GRID_ONE},
                                   {e1->b * GRID_ONE, e2->b * GRID_ONE},
                                   inv_area};
            int h = block_fn(ctx, &blk);
            if (h < 0)
                return -1;
            if (h > 0)
                continue;
        }
        if (quad_fn) {
            if (block_quads(s, &t, centroid_order, all, inv_area, full, bx, by, bxe, bye, quad_fn, ctx))
                return -1;
            continue;
        }
        for (int y = by; y < bye; y++) {
            /* the centres' edge values stepped along the row (exact integers) */
            int64_t ec[3];
            centre_values(&t, bx, y, ec);
            const int64_t s0 = e[0].a * GRID_ONE, s1 = e[1].a * GRID_ONE, s2 = e[2].a * GRID_ONE;
            for (int x = bx; x < bxe; x++, ec[0] += s0, ec[1] += s1, ec[2] += s2) {
                uint32_t cov = full ? all : pixel_samples(&t, ns, ec);
                cov &= s->aa_mask[(y & 1) * 2 + (x & 1)];
                if (!cov)
                    continue;
                px.x = x;
                px.y = y;
                px.coverage = cov;
                pixel_weights(s, &t, centroid_order, all, inv_area, ec, &px);
                if (fn(ctx, &px))
                    return -1;
            }
        }
    }
    return 0;
}

int rs_triangle(const struct rs_state *s, const struct rs_vertex v[3], rs_pixel_fn fn, rs_block_fn block_fn,
                void *ctx)
{
    return scan(s, v, fn, block_fn, NULL, ctx);
}

int rs_triangle_quads(const struct rs_state *s, const struct rs_vertex v[3], rs_quad_fn fn, void *ctx)
{
    return scan(s, v, NULL, NULL, fn, ctx);
}

int rs_rect_one_pixel_half(const struct rs_state *s, const struct rs_vertex c[4])
{
    if (s->samples != 1 || s->sample_dx[0] || s->sample_dy[0])
        return -1;
    if (c[1].y != c[0].y || c[2].x != c[0].x || c[3].x != c[1].x || c[3].y != c[2].y || c[1].x == c[0].x ||
        c[2].y == c[0].y)
        return -1;
    /* each half spans the rectangle: tri_setup's box for both, before the
     * scissor (which can only empty it) */
    int px0, px1, py0, py1;
    pixel_box(s, c[1].x < c[0].x ? c[1].x : c[0].x, c[1].x < c[0].x ? c[0].x : c[1].x,
              c[2].y < c[0].y ? c[2].y : c[0].y, c[2].y < c[0].y ? c[0].y : c[2].y, &px0, &px1, &py0, &py1);
    if (px1 - px0 != 1 || py1 - py0 != 1)
        return -1;
    /* The halves share the line c[1] c[2], each with the inside on its
     * own side (both have the area's sign), and the top-left rule gives a
     * point on it to exactly one: half 0's edge there as tri_setup makes
     * it (its vertices 1 and 2 swapped when its area is negative).  The
     * pixel centre on half 0's side: half 1 does not cover it, else half
     * 0 does not; no other pixel is scanned. */
    int64_t area = (c[1].x - c[0].x) * (c[2].y - c[0].y);
    struct edge e;
    if (area > 0)
        edge_init(&e, &c[1], &c[2]);
    else
        edge_init(&e, &c[2], &c[1]);
    const int64_t half = GRID_ONE / 2;
    int64_t cx = ((int64_t)px0 << GRID_BITS) + half, cy = ((int64_t)py0 << GRID_BITS) + half;
    return edge_in(&e, e.a * cx + e.b * cy + e.c) ? 0 : 1;
}

/* The edge of t that b shares with it (the same line, the inside on the
 * other side), or -1. */
static int shared_edge(const struct tri *t, const struct tri *b, int *kb)
{
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            if (t->e[k].a == -b->e[j].a && t->e[k].b == -b->e[j].b && t->e[k].c == -b->e[j].c) {
                *kb = j;
                return k;
            }
    return -1;
}

/* The outer edges' block tests of a pair that is an axis-aligned rectangle
 * (rs_pair): per block column (x-only edges) and per block row (y-only
 * edges, remembered for the row being scanned). */
struct rect_tests {
    int gx0, by;                        /* the first column's x; the row remembered */
    bool row_in;
    bool col_in[MAX_COORD / BLOCK + 2];
};

static bool rect_outer(const int shared[2], int h, int k)
{
    return k != shared[h];
}

/* false: the pair is not such a rectangle. */
static bool rect_tests_init(struct rect_tests *rt, const struct tri t[2], const int shared[2], int px0, int px1,
                            int py0)
{
    if (shared[0] < 0 || t[0].px0 != t[1].px0 || t[0].px1 != t[1].px1 || t[0].py0 != t[1].py0 ||
        t[0].py1 != t[1].py1)
        return false;
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 3; k++)
            if (rect_outer(shared, h, k) && t[h].e[k].a != 0 && t[h].e[k].b != 0)
                return false;
    rt->gx0 = px0 & ~(BLOCK - 1);
    if (rt->gx0 < 0 || (size_t)((px1 - rt->gx0) / BLOCK) >= sizeof rt->col_in / sizeof rt->col_in[0])
        return false;
    rt->by = -1;
    rt->row_in = false;
    for (int gx = rt->gx0, c = 0; gx < px1; gx += BLOCK, c++) {
        int bx = gx < px0 ? px0 : gx, bxe = gx + BLOCK < px1 ? gx + BLOCK : px1;
        bool in = true, out;
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 3; k++)
                if (rect_outer(shared, h, k) && t[h].e[k].b == 0)
                    in &= edge_block(&t[h], k, bx, py0, bxe, py0 + 1, &out);
        rt->col_in[c] = in;
    }
    return true;
}

/* Every sample of the block lies inside the rectangle's outer edges (so
 * in exactly one of its triangles: the pair covers the block). */
static bool rect_block_in(struct rect_tests *rt, const struct tri t[2], const int shared[2], const struct blocks *b)
{
    if (!rt->col_in[(b->gx - rt->gx0) / BLOCK])
        return false;
    if (b->by != rt->by) {
        bool in = true, out;
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 3; k++)
                if (rect_outer(shared, h, k) && t[h].e[k].a == 0)
                    in &= edge_block(&t[h], k, b->bx, b->by, b->bx + 1, b->bye, &out);
        rt->by = b->by;
        rt->row_in = in;
    }
    return rt->row_in;
}

int rs_pair(const struct rs_state *s, const struct rs_vertex va[3], const struct rs_vertex vb[3], rs_pixel_fn fn,
            rs_block_fn block_fn, void *ctx)
{
    struct tri t[2];
    bool have[2] = {tri_setup(s, va, &t[0]), tri_setup(s, vb, &t[1])};
    if (!have[0] && !have[1])
        return 0;
    /* one side empty: the other alone (an empty triangle covers nothing) */
    int shared[2] = {-1, -1};
    if (have[0] && have[1])
        shared[0] = shared_edge(&t[0], &t[1], &shared[1]);
    int px0 = MAX_COORD, px1 = 0, py0 = MAX_COORD, py1 = 0;
    for (int h = 0; h < 2; h++) {
        if (!have[h])
            continue;
        px0 = t[h].px0 < px0 ? t[h].px0 : px0;
        px1 = t[h].px1 > px1 ? t[h].px1 : px1;
        py0 = t[h].py0 < py0 ? t[h].py0 : py0;
        py1 = t[h].py1 > py1 ? t[h].py1 : py1;
    }
    unsigned ns = s->samples;
    uint32_t all = ns >= 32 ? 0xFFFFFFFFu : (1u << ns) - 1u;
    bool whole_mask = mask_full(s, all);
    /* the rs_block fields are the weights of a triangle: none here */
    struct rs_block blk;
    memset(&blk, 0, sizeof blk);
    struct rs_pixel px;
    memset(&px, 0, sizeof px);
    /* An axis-aligned rectangle (the resolve's full-screen quad): each
     * outer edge's block test depends on the block's column or its row
     * alone, so it is made once per column and once per row. */
    struct rect_tests rt;
    bool rect = have[0] && have[1] && rect_tests_init(&rt, t, shared, px0, px1, py0);
    struct blocks blks;
    blocks_start(&blks, px0, px1, py0, py1);
    while (blocks_next(s, &blks)) {
        int bx = blks.bx, bxe = blks.bxe, by = blks.by, bye = blks.bye;
        bool skip[2] = {false, false}, full[2] = {false, false}, block_full = true;
        if (!(rect && rect_block_in(&rt, t, shared, &blks))) {
            /* Per triangle: outside its box, or out on an edge -> none of
             * its samples; all in -> all of them.  Every sample strictly
             * inside both triangles' other edges is in exactly one of them
             * (the top-left rule gives a sample on the shared line to one
             * side), so those edges alone decide "all" for the pair. */
            bool outer_in = shared[0] >= 0;
            for (int h = 0; h < 2; h++) {
                skip[h] = !have[h] || bxe <= t[h].px0 || bx >= t[h].px1 || bye <= t[h].py0 || by >= t[h].py1;
                full[h] = !skip[h];
                for (int k = 0; k < 3 && !skip[h]; k++) {
                    bool in = edge_block(&t[h], k, bx, by, bxe, bye, &skip[h]);
                    full[h] &= in;
                    if (k != shared[h])
                        outer_in &= in;
                }
                full[h] &= !skip[h];
                if (skip[h])
                    outer_in = false;
            }
            if (skip[0] && skip[1])
                continue;
            block_full = full[0] || full[1] || outer_in;
        }
        if (block_full && block_fn && whole_mask && blocks_whole(&blks)) {
            blk.x = bx;
            blk.y = by;
            int h = block_fn(ctx, &blk);
            if (h < 0)
                return -1;
            if (h > 0)
                continue;
        }
        for (int y = by; y < bye; y++) {
            for (int x = bx; x < bxe; x++) {
                uint32_t cov = block_full ? all : 0;
                for (int h = 0; h < 2 && cov != all; h++) {
                    /* the pixel is inside the triangle's box, or none of its samples are */
                    if (skip[h] || x < t[h].px0 || x >= t[h].px1 || y < t[h].py0 || y >= t[h].py1)
                        continue;
                    int64_t ec[3];
                    centre_values(&t[h], x, y, ec);
                    cov |= full[h] ? all : pixel_samples(&t[h], ns, ec);
                }
                cov &= s->aa_mask[(y & 1) * 2 + (x & 1)];
                if (!cov)
                    continue;
                px.x = x;
                px.y = y;
                px.coverage = cov;
                if (fn(ctx, &px))
                    return -1;
            }
        }
    }
    return 0;
}

/* Integers below 2^53 are doubles exactly, and so are their sums and
 * small multiples while they stay below it: a block whose edge values
 * keep well inside that gets its sums in double lanes, two at a time,
 * with the same results as the int64 sums converted. */
#define EXACT_DOUBLE_INT (1ll << 52)

typedef double block_double2 __attribute__((vector_size(2 * sizeof(double))));   /* GCC / Clang vectors */

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

static void block_edge_weights(int64_t e, int64_t sx, int64_t sy, double inv_area, double out[64])
{
    bool exact = e > -EXACT_DOUBLE_INT && e < EXACT_DOUBLE_INT && abs64(sx) < EXACT_DOUBLE_INT / 16 &&
                 abs64(sy) < EXACT_DOUBLE_INT / 16 && abs64(e) + 8 * (abs64(sx) + abs64(sy)) < EXACT_DOUBLE_INT;
    if (!exact) {
        for (unsigned j = 0; j < 8; j++)
            for (unsigned i = 0; i < 8; i++)
                out[j * 8 + i] = (double)(e + (int64_t)i * sx + (int64_t)j * sy) * inv_area;
        return;
    }
    /* the columns' offsets in named lanes, a row's four pairs written out:
     * kept in registers (an array of them, or a loop over them, is not) */
    const block_double2 inv = {inv_area, inv_area}, col0 = {0.0, (double)sx},
                        col1 = {(double)(2 * sx), (double)(3 * sx)}, col2 = {(double)(4 * sx), (double)(5 * sx)},
                        col3 = {(double)(6 * sx), (double)(7 * sx)};
    for (unsigned j = 0; j < 8; j++) {
        double r = (double)(e + (int64_t)j * sy);
        block_double2 row = {r, r}, v0 = (row + col0) * inv, v1 = (row + col1) * inv, v2 = (row + col2) * inv,
                      v3 = (row + col3) * inv;
        memcpy(&out[j * 8], &v0, sizeof v0);
        memcpy(&out[j * 8 + 2], &v1, sizeof v1);
        memcpy(&out[j * 8 + 4], &v2, sizeof v2);
        memcpy(&out[j * 8 + 6], &v3, sizeof v3);
    }
}

void rs_block_weights(const struct rs_block *b, double lin1[64], double lin2[64])
{
    block_edge_weights(b->e[0], b->step_x[0], b->step_y[0], b->inv_area, lin1);
    block_edge_weights(b->e[1], b->step_x[1], b->step_y[1], b->inv_area, lin2);
}
