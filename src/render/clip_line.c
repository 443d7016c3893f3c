/* Lines and points against the frustum planes.  OpenGL 4.6 13.7: a point
 * outside the clip volume is discarded, a line is cut where it leaves it,
 * both in clip space; triangles are clipped as polygons in draw.c. */
#include "clip_line.h"

#include "eg_regs.h"

unsigned clip_frustum_dists(uint32_t clip_cntl, float gb_x, float gb_y, bool xy, const float p[4],
                            float d[CLIP_FRUSTUM_PLANES])
{
    unsigned n = 0;
    float w = p[3];
    d[n++] = w - CLIP_W_EPSILON;
    if (xy) {
        d[n++] = gb_x * w + p[0];
        d[n++] = gb_x * w - p[0];
        d[n++] = gb_y * w + p[1];
        d[n++] = gb_y * w - p[1];
    }
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_FAR_DISABLE(clip_cntl))
        d[n++] = w - p[2];
    if (!G_PA_CL_CLIP_CNTL__ZCLIP_NEAR_DISABLE(clip_cntl))
        d[n++] = G_PA_CL_CLIP_CNTL__DX_CLIP_SPACE_DEF(clip_cntl) ? p[2] : p[2] + w;
    return n;
}

bool clip_segment_plane(double da, double db, double *t0, double *t1)
{
    /* a NaN distance is outside, as in the triangle clipper */
    if (!(da >= 0) && !(db >= 0))
        return false;
    if (!(da >= 0))
        *t0 = *t0 > da / (da - db) ? *t0 : da / (da - db);
    else if (!(db >= 0))
        *t1 = *t1 < da / (da - db) ? *t1 : da / (da - db);
    return *t0 <= *t1;
}
