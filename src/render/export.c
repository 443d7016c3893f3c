/* The colour export's precision: CB_COLOR*_INFO.SOURCE_FORMAT tells the
 * shader export which format carries the pixel shader's colour to the CB.
 * With EXPORT_4C_16BPC (what Mesa's r600 driver programs for 8-bit UNORM
 * targets, evergreen_init_color_surface) each component travels as an IEEE
 * half float, and the CB converts that half float to the target's format.
 *
 * The rounding of float32 -> half is toward zero.  Measured on the real
 * card's frame (tests/data/cedar/eg.1.bin.gz): with truncation to half and
 * round-to-nearest to UNORM8, the interior of the demo's triangle matches on
 * every row of its green channel (646 of 646 rows); with round-to-nearest
 * to half, or no half step at all, about 20,000 interior pixels are off by
 * one (the rows whose J*255 falls just above a .5). */
#include <string.h>

#include "export.h"

void cb_export_convert(const struct cb_target *t, const float in[4], float out[4])
{
    if (!t->export_16bpc || t->number_type == V_CB_NUMBER_TYPE__NUMBER_UINT ||
        t->number_type == V_CB_NUMBER_TYPE__NUMBER_SINT) {
        /* 32-bit export, or integers (exported as raw bits) */
        memcpy(out, in, 4 * sizeof *out);
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        out[c] = cb_half_truncate(in[c]);
}
