/* The SPI's part of a draw: which vertex-shader export feeds each pixel-
 * shader input (SPI_VS_OUT_ID_* semantics against SPI_PS_INPUT_CNTL_*
 * semantics, DEFAULT_VAL when none matches, FLAT_SHADE from the provoking
 * vertex), and the barycentric weights SPI_BARYC_CNTL asks for. */
#include <string.h>

#include "render_priv.h"
#include "interp.h"

/* SPI_PS_INPUT_CNTL.DEFAULT_VAL encodings (Mesa evergreend.h comments). */
static const float default_vals[4][4] = {
    [V_SPI_DEFAULT_VAL__X_0_0F] = {0, 0, 0, 0},
    [V_SPI_DEFAULT_VAL__X_0001] = {0, 0, 0, 1},
    [V_SPI_DEFAULT_VAL__X_1110] = {1, 1, 1, 0},
    [V_SPI_DEFAULT_VAL__X_1111] = {1, 1, 1, 1},
};

void spi_link_init(struct spi_link *l, const struct vc_regs *regs)
{
    memset(l, 0, sizeof *l);
    /* export n's semantic: byte n%4 of SPI_VS_OUT_ID_(n/4) */
    uint8_t vs_sem[VC_RENDER_MAX_PARAMS];
    unsigned nexp = VC_RENDER_MAX_PARAMS < 40 ? VC_RENDER_MAX_PARAMS : 40;
    for (unsigned n = 0; n < nexp; n++)
        vs_sem[n] = (uint8_t)(vc_reg(regs, REG_SPI_VS_OUT_ID(n / 4)) >> (8 * (n % 4)));
    unsigned nexports = G_SPI_VS_OUT_CONFIG__VS_EXPORT_COUNT(vc_reg(regs, REG_SPI_VS_OUT_CONFIG)) + 1;
    if (nexports > nexp)
        nexports = nexp;
    l->num_inputs = G_SPI_PS_IN_CONTROL_0__NUM_INTERP(vc_reg(regs, REG_SPI_PS_IN_CONTROL_0));
    if (l->num_inputs > VC_RENDER_MAX_PARAMS)
        l->num_inputs = VC_RENDER_MAX_PARAMS;
    for (unsigned i = 0; i < l->num_inputs; i++) {
        uint32_t c = vc_reg(regs, REG_SPI_PS_INPUT_CNTL(i));
        unsigned sem = G_SPI_PS_INPUT_CNTL__SEMANTIC(c);
        l->export_of[i] = -1;
        for (unsigned n = 0; n < nexports; n++)
            if (vs_sem[n] == sem) {
                l->export_of[i] = (int)n;
                break;
            }
        memcpy(l->defval[i], default_vals[G_SPI_PS_INPUT_CNTL__DEFAULT_VAL(c)], sizeof l->defval[i]);
        l->flat[i] = G_SPI_PS_INPUT_CNTL__FLAT_SHADE(c);
    }
    l->provoking_last = G_PA_SU_SC_MODE_CNTL__PROVOKING_VTX_LAST(vc_reg(regs, REG_PA_SU_SC_MODE_CNTL));
    l->persp_corr_dis = G_PA_SU_SC_MODE_CNTL__PERSP_CORR_DIS(vc_reg(regs, REG_PA_SU_SC_MODE_CNTL));
}

void spi_prim_inputs(const struct spi_link *l, const struct vc_vertex_out *const v[3], unsigned nv,
                     bool front, struct vc_prim_inputs *out)
{
    out->num_inputs = l->num_inputs;
    out->front_face = front;
    unsigned provoking = l->provoking_last ? nv - 1 : 0;
    for (unsigned i = 0; i < l->num_inputs; i++) {
        out->flat[i] = l->flat[i];
        for (unsigned k = 0; k < 3; k++) {
            unsigned src = l->flat[i] ? provoking : (k < nv ? k : nv - 1);
            int e = l->export_of[i];
            if (e >= 0 && ((v[src]->param_mask >> e) & 1u))
                memcpy(out->attr[i][k], v[src]->param[e], sizeof out->attr[i][k]);
            else
                memcpy(out->attr[i][k], l->defval[i], sizeof out->attr[i][k]);
        }
    }
}

typedef double double2 __attribute__((vector_size(2 * sizeof(double))));   /* GCC / Clang vectors */
typedef int64_t int64_t2 __attribute__((vector_size(2 * sizeof(int64_t))));

/* Lane by lane: mask ? t : f (mask lanes all ones or all zeros). */
static inline double2 select2(int64_t2 mask, double2 t, double2 f)
{
    return (double2)(((int64_t2)t & mask) | ((int64_t2)f & ~mask));
}

/* Two pixels' weights: double lanes doing spi_weights' operations
 * (each lane rounds as the scalar code does: the same values). */
static inline void weights_pair(double2 a, double2 b, double2 w0, double2 w1, double2 w2, double2 *persp1,
                               double2 *persp2)
{
    const double2 one = {1.0, 1.0}, zero = {0.0, 0.0};
    double2 p0 = (one - a - b) * w0, p1 = a * w1, p2 = b * w2;
    double2 sum = p0 + p1 + p2;
    /* sum 0: the linear weights (spi_weights) */
    int64_t2 none = sum == zero;   /* all ones where true */
    if (!(none[0] | none[1])) {   /* the usual case, without the selects */
        *persp1 = p1 / sum;
        *persp2 = p2 / sum;
        return;
    }
    double2 q = select2(none, one, sum);
    *persp1 = select2(none, a, p1 / q);
    *persp2 = select2(none, b, p2 / q);
}

void spi_pair_weights_soa(const float inv_w[3], const double *lin1, const double *lin2, unsigned n, float *persp1,
                          float *persp2, float *linear1, float *linear2)
{
    const double2 w0 = {inv_w[0], inv_w[0]}, w1 = {inv_w[1], inv_w[1]}, w2 = {inv_w[2], inv_w[2]};
    if (n > EG_PS_BATCH_MAX)
        n = EG_PS_BATCH_MAX;
    unsigned l = 0;
    for (; l + 2 <= n; l += 2) {
        double2 a = {lin1[l], lin1[l + 1]}, b = {lin2[l], lin2[l + 1]}, p1, p2;
        weights_pair(a, b, w0, w1, w2, &p1, &p2);
        persp1[l] = (float)p1[0];
        persp1[l + 1] = (float)p1[1];
        persp2[l] = (float)p2[0];
        persp2[l + 1] = (float)p2[1];
        if (linear1) {
            linear1[l] = (float)a[0];
            linear1[l + 1] = (float)a[1];
            linear2[l] = (float)b[0];
            linear2[l + 1] = (float)b[1];
        }
    }
    if (l < n) {   /* an odd count: the last pixel in both lanes */
        double2 a = {lin1[l], lin1[l]}, b = {lin2[l], lin2[l]}, p1, p2;
        weights_pair(a, b, w0, w1, w2, &p1, &p2);
        persp1[l] = (float)p1[0];
        persp2[l] = (float)p2[0];
        if (linear1) {
            linear1[l] = (float)a[0];
            linear2[l] = (float)b[0];
        }
    }
}

void spi_pair_weights(const float inv_w[3], const double *lin1, const double *lin2, unsigned n, unsigned set,
                      struct vc_pixel_in *out)
{
    float w[4][EG_PS_BATCH_MAX];
    if (n > EG_PS_BATCH_MAX)
        n = EG_PS_BATCH_MAX;
    spi_pair_weights_soa(inv_w, lin1, lin2, n, w[0], w[1], w[2], w[3]);
    for (unsigned l = 0; l < n; l++) {
        float *persp = out[l].ij[VC_BARYC_PERSP_CENTER + set];
        float *linear = out[l].ij[VC_BARYC_LINEAR_CENTER + set];
        persp[0] = w[0][l];
        persp[1] = w[1][l];
        linear[0] = w[2][l];
        linear[1] = w[3][l];
    }
}

void spi_weights_batch(const struct spi_link *link, const float inv_w[3], const double (*ij)[3][2], unsigned n,
                       uint32_t baryc_needed, struct vc_pixel_in *out)
{
    double lin1[EG_PS_BATCH_MAX], lin2[EG_PS_BATCH_MAX];
    if (n > EG_PS_BATCH_MAX)
        n = EG_PS_BATCH_MAX;
    for (unsigned set = 0; set < 3; set++) {
        uint32_t bits = (1u << (VC_BARYC_PERSP_CENTER + set)) | (1u << (VC_BARYC_LINEAR_CENTER + set));
        if (!(baryc_needed & bits))
            continue;
        if (link->persp_corr_dis) {
            /* spi_weights: the linear pair for both */
            for (unsigned l = 0; l < n; l++) {
                float *persp = out[l].ij[VC_BARYC_PERSP_CENTER + set];
                float *linear = out[l].ij[VC_BARYC_LINEAR_CENTER + set];
                linear[0] = persp[0] = (float)ij[l][set][0];
                linear[1] = persp[1] = (float)ij[l][set][1];
            }
            continue;
        }
        for (unsigned l = 0; l < n; l++) {
            lin1[l] = ij[l][set][0];
            lin2[l] = ij[l][set][1];
        }
        spi_pair_weights(inv_w, lin1, lin2, n, set, out);
    }
}
