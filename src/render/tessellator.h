/* The fixed-function tessellator (tessellator.c): a patch's tessellation
 * factors to the domain points the domain shader runs for and the points,
 * lines or triangles that join them, in the pattern of Microsoft's D3D11
 * reference tessellator (what a DX11 tessellator such as the Cedar's
 * produces; the model predicts it from that reference). */
#ifndef CEDAR_RENDER_TESSELLATOR_H
#define CEDAR_RENDER_TESSELLATOR_H

#include <stddef.h>
#include <stdint.h>

enum tess_domain { TESS_DOMAIN_ISOLINE, TESS_DOMAIN_TRIANGLE, TESS_DOMAIN_QUAD };
enum tess_spacing { TESS_SPACING_INTEGER, TESS_SPACING_POW2, TESS_SPACING_FRAC_ODD, TESS_SPACING_FRAC_EVEN };
/* TESS_OUT_TRI_CW: triangles counter-clockwise with u to the right and v up
 * (what Mesa asks for a GL "ccw" patch), TESS_OUT_TRI_CCW the other way.
 * TESS_SPACING_POW2 is tessellated as integer spacing (the reference's
 * hardware does not tell them apart). */
enum tess_output { TESS_OUT_POINT, TESS_OUT_LINE, TESS_OUT_TRI_CW, TESS_OUT_TRI_CCW };

/* The factors as the hull shader wrote them (Mesa sfn_nir_lower_tess_io.cpp
 * r600_append_tcs_TF_emission): triangles outer 0..2 then inner 0; quads
 * outer 0..3 then inner 0, 1; isolines the line detail (GL outer 1) then the
 * line density (GL outer 0). */
#define TESS_MAX_FACTORS 6
#define TESS_MAX_LEVEL 64.0f    /* GL_MAX_TESS_GEN_LEVEL of Mesa's r600 */

/* Domain point k is (uv[k][0], uv[k][1]): gl_TessCoord.xy (a triangle's
 * third coordinate is 1 - u - v).  Primitive p joins points prim[p][0 ..
 * per_prim - 1]. */
struct tess_mesh {
    unsigned npoints, nprims, per_prim;
    float (*uv)[2];
    uint32_t (*prim)[3];
    unsigned cap_points, cap_prims;   /* allocated; kept across patches */
};

/* Tessellate one patch into m (emptied first).  A patch with an outer level
 * <= 0 or NaN is culled (no points, no primitives).  Levels are clamped to
 * max_level (itself clamped to [1, TESS_MAX_LEVEL]) and to the spacing's
 * range, rounded up for integer spacing, and placed in 16.16 fixed point
 * (tessellator.c); coordinates are multiples of 2^-16.  0, or -1 with a
 * reason in why (lines asked of a triangle or quad domain or triangles of
 * an isoline one, out of memory). */
int tess_generate(struct tess_mesh *m, enum tess_domain domain, enum tess_spacing spacing, enum tess_output out,
                  const float tf[TESS_MAX_FACTORS], float max_level, char *why, size_t whylen);
void tess_mesh_free(struct tess_mesh *m);

#endif
