/* Alpha to coverage (DB_ALPHA_TO_MASK): the alpha of the pixel shader's
 * colour 0 takes samples out of a fragment's coverage before the colour
 * block stores it.
 *
 * No public document gives the hardware's rule; the model's reading of the
 * fields: with n samples and alpha a clamped to [0, 1], a pixel keeps
 *     k = floor(a * n + (o + (OFFSET_ROUND ? 0.5 : 0)) / 4)
 * samples, o = ALPHA_TO_MASK_OFFSET0..3 for the pixel's place in its 2x2
 * quad (upper left, upper right, lower left, lower right, as PA_SC_AA_MASK
 * orders them).  What Mesa r600 programs then means: offsets 2, 2, 2, 2
 * without OFFSET_ROUND round a * n to nearest; the dithered offsets 3, 1,
 * 0, 2 with OFFSET_ROUND spread the thresholds 1/8, 3/8, 5/8, 7/8 over the
 * quad; a = 0 keeps no sample and a = 1 all of them either way.  The k kept
 * are samples 0 .. k-1 of the covered ones.  DB_SHADER_CONTROL.
 * ALPHA_TO_MASK_DISABLE (Mesa: CB0 holds integers) turns it off. */
#include <math.h>

#include "render_priv.h"

void cb_alpha_mask_init(struct cb_alpha_mask *a, const struct vc_regs *regs, unsigned samples)
{
    uint32_t r = vc_reg(regs, REG_DB_ALPHA_TO_MASK);
    a->on = G_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_ENABLE(r) && samples > 1 &&
            !G_DB_SHADER_CONTROL__ALPHA_TO_MASK_DISABLE(vc_reg(regs, REG_DB_SHADER_CONTROL));
    a->samples = samples;
    a->offset[0] = (uint8_t)G_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET0(r);
    a->offset[1] = (uint8_t)G_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET1(r);
    a->offset[2] = (uint8_t)G_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET2(r);
    a->offset[3] = (uint8_t)G_DB_ALPHA_TO_MASK__ALPHA_TO_MASK_OFFSET3(r);
    a->round = G_DB_ALPHA_TO_MASK__OFFSET_ROUND(r);
}

unsigned cb_alpha_mask_count(const struct cb_alpha_mask *a, unsigned x, unsigned y, float alpha)
{
    float c = alpha > 0.0f ? (alpha < 1.0f ? alpha : 1.0f) : 0.0f; /* NaN -> 0 */
    unsigned o = a->offset[(y & 1) * 2 + (x & 1)];
    /* in eighths, exactly: floor((8 a n + 2 o + round) / 8) */
    double k = floor(((double)c * a->samples * 8.0 + 2.0 * o + (a->round ? 1.0 : 0.0)) / 8.0);
    return k > a->samples ? a->samples : (unsigned)k;
}

uint32_t cb_alpha_mask_apply(const struct cb_alpha_mask *a, unsigned x, unsigned y, float alpha, uint32_t coverage)
{
    if (!a->on)
        return coverage;
    unsigned k = cb_alpha_mask_count(a, x, y, alpha);
    return coverage & ((k >= 32 ? 0u : 1u << k) - 1u);
}
