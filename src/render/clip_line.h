/* The clipper's frustum planes for lines and points (clip_line.c). */
#ifndef CEDAR_RENDER_CLIP_LINE_H
#define CEDAR_RENDER_CLIP_LINE_H

#include <stdbool.h>
#include <stdint.h>

#define CLIP_W_EPSILON 1e-6f    /* the w > 0 plane, kept off zero */
#define CLIP_FRUSTUM_PLANES 7   /* w > 0, the guard band's four, far, near */

/* The signed distances (>= 0 inside) of the clip-space position p to the
 * frustum planes the clipper applies under PA_CL_CLIP_CNTL clip_cntl: w > 0;
 * when `xy`, the guard band's -gb w <= x, y <= gb w; z <= w unless
 * ZCLIP_FAR_DISABLE; z >= -w (z >= 0 with DX_CLIP_SPACE_DEF) unless
 * ZCLIP_NEAR_DISABLE (Mesa sets both disables for GL_DEPTH_CLAMP).  Returns
 * how many it wrote to d. */
unsigned clip_frustum_dists(uint32_t clip_cntl, float gb_x, float gb_y, bool xy, const float p[4],
                            float d[CLIP_FRUSTUM_PLANES]);

/* Narrows [*t0, *t1] of a segment whose distance to a plane goes linearly
 * from da (t = 0) to db (t = 1) to the part where it is >= 0; false when no
 * part of the segment is left. */
bool clip_segment_plane(double da, double db, double *t0, double *t1);

#endif
