/* The VGT's vertex-reuse model: which indices of a draw run the vertex
 * shader, and which reuse a vertex the shader already transformed.
 *
 * What the hardware documents (and the sources that say it):
 * - VGT_VERTEX_REUSE_BLOCK_CNTL.VTX_REUSE_DEPTH (bits 7:0, context register
 *   0x28C58) sets how many recent vertices the reuse block compares an index
 *   with.  The radeon kernel writes 14 on Evergreen when it starts the CP
 *   (evergreen_cp_start, with VGT_OUT_DEALLOC_CNTL = 16); on R6xx/R7xx it
 *   writes 4 x quad pipes - 2 (and DEALLOC_DIST 4 x quad pipes), i.e. the
 *   dealloc distance is the reuse depth + 2; radeonsi writes 14 / 16 up to
 *   GFX7.  Mesa's r600 driver leaves the kernel's value.
 * - VGT_REUSE_OFF.REUSE_OFF turns reuse off: every index runs the shader.
 * - Vertices reach the shader core grouped in vertex vectors (wavefronts),
 *   sent when full or after VGT_VTX_VECT_EJECT_REG.PRIM_COUNT primitives.
 *
 * What the model chooses where nothing is documented:
 * - The reuse block is a FIFO of the last `depth` distinct vertices that ran
 *   the shader: an index equal to one of them reuses it (a hit does not
 *   move it); any other index runs the shader and enters the FIFO, pushing
 *   out the oldest.  This is the cache Optimal grid rendering assumes.
 * - Reuse is not reset at vertex-vector boundaries (the dealloc distance,
 *   in vertices, keeps reused results alive across vectors), nor at a
 *   primitive restart; it starts empty at each draw and each instance.
 * - Every index goes through the block, those of degenerate triangles too:
 *   `0 1 1 2 3 4 5 5 5` runs the shader 6 times.
 * - VTX_REUSE_DEPTH 0 (the virtual CP's CLEAR_STATE zeroes the context,
 *   where the kernel's default state has 14) is taken as 14. */
#include <string.h>

#include "render_priv.h"

#define KERNEL_REUSE_DEPTH 14u   /* evergreen_cp_start */

void vgt_reuse_init(struct vgt_reuse *r, const struct vc_regs *regs)
{
    memset(r, 0, sizeof *r);
    unsigned depth = G_VGT_VERTEX_REUSE_BLOCK_CNTL__VTX_REUSE_DEPTH(vc_reg(regs, REG_VGT_VERTEX_REUSE_BLOCK_CNTL));
    r->depth = depth ? depth : KERNEL_REUSE_DEPTH;
    if (G_VGT_REUSE_OFF__REUSE_OFF(vc_reg(regs, REG_VGT_REUSE_OFF)))
        r->depth = 0;
}

void vgt_reuse_reset(struct vgt_reuse *r)
{
    r->count = 0;
    r->head = 0;
}

uint64_t vgt_reuse_vertex(struct vgt_reuse *r, uint32_t index)
{
    for (unsigned k = 0; k < r->count; k++) {
        unsigned at = (r->head + VGT_REUSE_MAX - 1 - k) % VGT_REUSE_MAX;
        if (r->index[at] == index)
            return r->invocation[at];
    }
    uint64_t inv = r->invocations++;
    if (r->depth) {
        r->index[r->head] = index;
        r->invocation[r->head] = inv;
        r->head = (r->head + 1) % VGT_REUSE_MAX;
        if (r->count < r->depth)
            r->count++;
    }
    return inv;
}
