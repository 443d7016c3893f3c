/* SPI linkage and barycentric weights (interp.c). */
#ifndef CEDAR_RENDER_INTERP_H
#define CEDAR_RENDER_INTERP_H

#include "render_priv.h"

struct spi_link {
    unsigned num_inputs;
    int export_of[VC_RENDER_MAX_PARAMS];        /* PARAM export feeding input i, -1: default */
    float defval[VC_RENDER_MAX_PARAMS][4];
    bool flat[VC_RENDER_MAX_PARAMS];
    bool provoking_last;
    bool persp_corr_dis;
};

void spi_link_init(struct spi_link *l, const struct vc_regs *regs);

/* The inputs of one primitive from its nv (1..3) vertices. */
void spi_prim_inputs(const struct spi_link *l, const struct vc_vertex_out *const v[3], unsigned nv,
                     bool front, struct vc_prim_inputs *out);

/* From screen-space weights lin[0..2] of the primitive's vertices, the
 * (i, j) pairs for perspective-correct and linear interpolation (inline:
 * once per pixel). */
static inline void spi_weights(const struct spi_link *l, const double lin[3], const float inv_w[3],
                               float persp_ij[2], float linear_ij[2])
{
    linear_ij[0] = (float)lin[1];
    linear_ij[1] = (float)lin[2];
    if (l->persp_corr_dis) {
        persp_ij[0] = linear_ij[0];
        persp_ij[1] = linear_ij[1];
        return;
    }
    double p0 = lin[0] * inv_w[0], p1 = lin[1] * inv_w[1], p2 = lin[2] * inv_w[2];
    double sum = p0 + p1 + p2;
    if (sum == 0.0) {
        persp_ij[0] = linear_ij[0];
        persp_ij[1] = linear_ij[1];
        return;
    }
    persp_ij[0] = (float)(p1 / sum);
    persp_ij[1] = (float)(p2 / sum);
}

/* Whether the pixel stage reads only the centre's weights, with
 * perspective correction on (draw.c computes those in whole 8x8 blocks). */
static inline bool spi_centre_only(const struct spi_link *l, uint32_t baryc_needed)
{
    const uint32_t centre = (1u << VC_BARYC_PERSP_CENTER) | (1u << VC_BARYC_LINEAR_CENTER);
    return !(baryc_needed & ~centre) && !l->persp_corr_dis;
}

/* spi_weights for pixels 0 .. n-1 (n <= EG_PS_BATCH_MAX) of a primitive
 * whose vertices have 1/w inv_w: ij[l][set] is pixel l's (i, j) from the
 * rasteriser at the centre (set 0), the centroid (1) and the sample (2)
 * (lin = {1 - i - j, i, j}); each set whose perspective or linear pair
 * baryc_needed asks for (bit per enum vc_baryc) goes to
 * out[l].ij[VC_BARYC_PERSP_CENTER + set] and [VC_BARYC_LINEAR_CENTER + set].
 * The same operations in the same order as spi_weights, lane by lane in
 * loops over the batch: the same floats. */
void spi_weights_batch(const struct spi_link *link, const float inv_w[3], const double (*ij)[3][2], unsigned n,
                       uint32_t baryc_needed, struct vc_pixel_in *out);
/* One set's pairs from (i, j) given as two arrays, lin1[l] = i and
 * lin2[l] = j, perspective correction on. */
void spi_pair_weights(const float inv_w[3], const double *lin1, const double *lin2, unsigned n, unsigned set,
                      struct vc_pixel_in *out);
/* The same pairs as arrays: pixel l's perspective (i, j) in persp1[l],
 * persp2[l], its linear one in linear1[l], linear2[l] (both NULL: not
 * wanted). */
void spi_pair_weights_soa(const float inv_w[3], const double *lin1, const double *lin2, unsigned n, float *persp1,
                          float *persp2, float *linear1, float *linear2);

#endif
