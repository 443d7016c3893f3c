/* The virtual Cedar's GPU clock: RADEON_INFO_TIMESTAMP and EVENT_WRITE_EOP
 * DATA_SEL_COUNTER64.  On the card both read a free-running 64-bit counter
 * at the reference (crystal) clock, 27 MHz (RADEON_INFO_CLOCK_CRYSTAL_FREQ
 * 27000 kHz; Mesa converts the ticks with it).  Here nothing runs in real
 * time, so the clock advances by what a cost model says the work would take
 * on an HD 7350: its times are the model's predictions, never measurements,
 * and the same work always gives the same ticks.
 *
 * The HD 7350's figures (AMD's specification as TechPowerUp's database lists
 * it, gpu-specs/radeon-hd-7350-oem.c632): engine clock 650 MHz, 80 stream
 * processors (16 VLIW5 lanes in 2 SIMDs), 4 ROPs (2.6 Gpixel/s), 64-bit
 * GDDR3 at 800 MHz (1600 MT/s): 12.8 GB/s, i.e. 19.7 bytes per engine clock.
 *
 * The model, in engine clocks (its own choices where the card's rates are
 * not published are marked "assumed"):
 *   - the CP reads one dword of an IB per clock (assumed);
 *   - CP_DMA and DMA-ring copies and fills move their bytes at the memory
 *     bandwidth (a fill counts its bytes once, a copy twice: read + write);
 *   - a draw costs a fixed 500 clocks (pipeline fill and drain, assumed)
 *     plus the slowest of its stages, which overlap:
 *       set-up   1 primitive per clock (IA primitives; assumed),
 *       vertex   1 vertex-shader invocation per clock (16 lanes through a
 *                shader of about 16 instruction groups; assumed),
 *       pixel    4 pixel-shader invocations per clock (16 lanes, about 4
 *                instruction groups; assumed),
 *       ROP      4 samples written per clock (4 ROPs; each sample of an
 *                MSAA pixel costs a ROP clock: assumed), and 4 pixels per
 *                clock of resolve / eliminate / decompress draws,
 *       memory   4 bytes per sample written, and for a resolve 4 bytes per
 *                source sample read and 4 written per pixel, at the
 *                bandwidth (colour is 32-bit; compression ignored);
 *   - a compute dispatch costs the draw's fixed 500 clocks plus 1 clock per
 *     compute-shader invocation (as the vertex stage; assumed). */
#include "vc_internal.h"

#define XCLK_HZ 27000000.0          /* the timestamp counter */
#define SCLK_HZ 650000000.0         /* engine clock */
#define MEM_BYTES_PER_S 12.8e9      /* 64 bit x 1600 MT/s */
#define BYTES_PER_CLOCK (MEM_BYTES_PER_S / SCLK_HZ)
#define DRAW_FIXED_CLOCKS 500.0
#define PRIMS_PER_CLOCK 1.0
#define VERTICES_PER_CLOCK 1.0
#define CS_INVOCATIONS_PER_CLOCK 1.0
#define PIXELS_PER_CLOCK 4.0        /* pixel-shader invocations */
#define ROP_SAMPLES_PER_CLOCK 4.0
#define ROP_OP_PIXELS_PER_CLOCK 4.0

static void advance(struct vcedar *vc, double clocks)
{
    vc->engine_clocks += clocks;
    vc->stats.clock = (uint64_t)(vc->engine_clocks * (XCLK_HZ / SCLK_HZ));
}

void vc_clock_cp_dwords(struct vcedar *vc, uint64_t dwords)
{
    advance(vc, (double)dwords);
}

void vc_clock_bytes(struct vcedar *vc, uint64_t bytes)
{
    advance(vc, (double)bytes / BYTES_PER_CLOCK);
}

static double maxd(double a, double b)
{
    return a > b ? a : b;
}

void vc_clock_draw(struct vcedar *vc, const struct vc_render_stats *before, const struct vc_render_stats *after,
                   unsigned samples)
{
    double t = 0.0;
    if (before && after) {
        double prims = (double)(after->ia_primitives - before->ia_primitives);
        double verts = (double)(after->vs_invocations - before->vs_invocations);
        double pixels = (double)(after->pixels_shaded - before->pixels_shaded);
        double written = (double)(after->samples_written - before->samples_written);
        double op_pixels = (double)(after->cb_op_pixels - before->cb_op_pixels);
        double bytes = 4.0 * written + op_pixels * (4.0 * samples + 4.0);
        t = maxd(t, prims / PRIMS_PER_CLOCK);
        t = maxd(t, verts / VERTICES_PER_CLOCK);
        t = maxd(t, pixels / PIXELS_PER_CLOCK);
        t = maxd(t, written / ROP_SAMPLES_PER_CLOCK + op_pixels / ROP_OP_PIXELS_PER_CLOCK);
        t = maxd(t, bytes / BYTES_PER_CLOCK);
    }
    advance(vc, DRAW_FIXED_CLOCKS + t);
}

void vc_clock_dispatch(struct vcedar *vc, uint64_t invocations)
{
    advance(vc, DRAW_FIXED_CLOCKS + (double)invocations / CS_INVOCATIONS_PER_CLOCK);
}
