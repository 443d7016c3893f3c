/* The Evergreen pixel/sample -> byte address map of colour surfaces and FMask.
 *
 * Source of the formulas: AMD's address library as shipped in Mesa
 * (src/amd/addrlib/src/r800/egbaddrlib.cpp: ComputeSurfaceAddrFromCoordMacroTiled,
 * ComputeSurfaceAddrFromCoordMicroTiled, ComputeBankFromCoord, the tile-split
 * handling; core/addrlib1.cpp: ComputePixelIndexWithinMicroTile; the R800 HWL
 * r800addrlib.cpp: ComputePipeFromCoord; Mesa's 2014 egbaddrlib.cpp:
 * ComputeFmaskAddrFromCoordMacroTiled).  Checked against the bytes of a real
 * Cedar (tests/data/cedar/eg.1.bin.gz).  Bank/pipe swizzle is 0 (Mesa r600
 * never sets it) and the bank interleave is 1 (the kernel's GB_ADDR_CONFIG).
 *
 * Usage: build a struct cedar_tile_map once from a struct cedar_surface (filled
 * by cedar_surface_layout() or by hand), then call the functions below.  The
 * map is read-only afterwards and may be shared between threads.
 *
 *   cedar_tile_addr()     (x, y, sample, slice) -> byte offset of the element
 *   cedar_tile_coord()    byte offset -> (x, y, sample, slice, byte in element)
 *   cedar_fmask_bit()     where bit `plane` of a sample's FMask fragment index is
 *   cedar_fmask_micro()   the same for every pixel of a micro tile at once
 *   cedar_tile_micro()    the byte runs holding one micro tile of one sample
 *                         (tiled colour maps), for writing many pixels cheaply
 *   cedar_detile() / cedar_tile()   whole (slice, sample) plane <-> linear image
 *   cedar_detile_samples() / cedar_tile_samples()   all samples of a slice at once
 *   cedar_detile_run() / cedar_tile_run()   a run of elements in row order (DMA copies)
 */
#ifndef CEDAR_TILING_H
#define CEDAR_TILING_H

#include <stddef.h>
#include <stdint.h>

#include "cedar/layout.h"

/* Order of the 64 pixels inside a micro tile (addrlib's AddrTileType).
 * Colour buffers use DISPLAYABLE (Mesa r600 leaves CB_COLOR*_ATTRIB.
 * NON_DISP_TILING_ORDER at 0); FMask and depth use NON_DISPLAYABLE. */
enum cedar_micro_order {
    CEDAR_MICRO_DISPLAYABLE,
    CEDAR_MICRO_NON_DISPLAYABLE,
};

/* What the surface struct does not say.  Zero fields mean the defaults. */
struct cedar_tile_opts {
    unsigned slices;              /* array slices; default 1 */
    enum cedar_micro_order order; /* default DISPLAYABLE */
    /* Depth surfaces (addrlib ADDR_DEPTH_SAMPLE_ORDER): inside a micro tile
     * the samples of a pixel lie side by side (pixel index * samples +
     * sample) instead of one plane per sample.  Only cedar_tile_addr and
     * cedar_tile_coord address such a map when it has more than one sample
     * (cedar_tile_micro gives no runs, the copies refuse it).  Also lifts
     * the rule that a bank's share of a macro tile fills a pipe-interleave
     * group, which libdrm's stencil layouts do not keep. */
    int depth_sample_order;
    /* Only 8-pipe parts: shader engines (1 or 2) and SE tile size (16 or 32).
     * Default 2 and 32: the Cypress/Hemlock GB_ADDR_CONFIG the kernel programs
     * (CYPRESS_GB_ADDR_CONFIG_GOLDEN 0x02011003). */
    unsigned shader_engines, se_tile;
};

#define CEDAR_MICRO_RUNS_MAX 16

/* Everything precomputed from a surface; treat as opaque except the fields
 * marked public. */
struct cedar_tile_map {
    /* public */
    enum cedar_array_mode mode;
    unsigned width, height;       /* aligned pitch / height in pixels */
    unsigned bpe;                 /* bytes per element (FMask map: 0) */
    unsigned samples;             /* colour samples (FMask map: colour samples too) */
    unsigned slices;
    uint64_t slice_size;          /* bytes of one slice (all samples, all tile-split pieces) */
    uint64_t size;                /* bytes of the whole surface: slices * slice_size */
    int is_fmask;
    int depth_order;              /* opts.depth_sample_order with samples > 1 */

    /* private */
    unsigned elem_bits;           /* bits per element */
    unsigned sample_step, pixel_step; /* element (sample, pixel index) of a micro tile: sample * sample_step + pixel * pixel_step */
    unsigned planes;              /* sample planes per micro tile (FMask: bit planes) */
    unsigned pipes, banks, group_bytes, bankw, bankh, mtilea, tile_split;
    unsigned shader_engines, se_tile;
    unsigned lg_group, lg_pipes, lg_banks;
    uint32_t micro_bytes;         /* one micro tile, all planes, before splitting */
    uint32_t piece_bytes;         /* bytes of a micro tile stored together (<= tile split) */
    uint32_t pieces;              /* tile-split pieces per micro tile */
    uint32_t macro_w, macro_h;    /* macro tile in pixels */
    uint32_t macros_per_row;
    uint64_t macro_bytes;         /* one macro tile of one piece */
    uint64_t piece_slice_bytes;   /* one piece-slice: every macro tile of one piece */
    uint32_t run_bytes;           /* see cedar_tile_micro() */
    uint8_t pix_index[64];        /* (y%8)*8 + x%8 -> pixel index in the micro tile */
    uint8_t pix_xy[64];           /* pixel index -> (y%8)*8 + x%8 */
    /* Row spans of a micro tile with consecutive pixel indices (for copying). */
    uint8_t span_elems;           /* pixels per span: 1, 2, 4 or 8 */
    uint8_t span_count;           /* spans per micro tile = 64 / span_elems */
    uint8_t span_xy[64];          /* span k starts at pixel (y%8)*8 + x%8 ... */
    uint8_t span_index[64];       /* ... which has pixel index span_index[k] */
};

/* Build the map of a colour surface.  s->mode, width/height (aligned_*), bpe,
 * samples, tile_split, bankw, bankh, mtilea and tiling.{pipes, banks,
 * group_bytes} are used; nothing else.  Returns 0, or -1 with a reason in err
 * when the parameters are ones the hardware cannot have. */
int cedar_tile_map_init(struct cedar_tile_map *m, const struct cedar_surface *s,
                        const struct cedar_tile_opts *opts, struct cedar_layout_err *err);

/* Build the map of an FMask surface: fmask_surf is the FMask as a surface
 * (its mode, aligned size, bank width/height, aspect, tile split and tiling
 * are used; its bpe/samples are not), color_samples 2, 4 or 8.  Addressing
 * follows addrlib's R8xx FMask: 2x is laid out as 4x; an element holds one bit
 * per sample (4 or 8 bits) and a micro tile holds 2 (2x, 4x) or 4 (8x) such
 * element planes, plane P holding bit P of every sample's fragment index. */
int cedar_fmask_map_init(struct cedar_tile_map *m, const struct cedar_surface *fmask_surf,
                         unsigned color_samples, const struct cedar_tile_opts *opts,
                         struct cedar_layout_err *err);

/* Byte offset of element (x, y) of `sample` in `slice`.  Arguments must be in
 * range (x < width, y < height, sample < samples, slice < slices); colour maps
 * only. */
uint64_t cedar_tile_addr(const struct cedar_tile_map *m, unsigned x, unsigned y,
                         unsigned sample, unsigned slice);

struct cedar_tile_coord { unsigned x, y, sample, slice, byte; };

/* Inverse of cedar_tile_addr: which element (and which byte of it) lives at
 * byte `offset`.  Returns 0, or -1 if offset >= size.  Colour maps only. */
int cedar_tile_coord(const struct cedar_tile_map *m, uint64_t offset, struct cedar_tile_coord *out);

/* FMask: the byte offset and bit (0..7) holding bit `plane` of the fragment
 * index of `sample` of pixel (x, y).  plane < cedar_fmask_planes(m). */
void cedar_fmask_bit(const struct cedar_tile_map *m, unsigned x, unsigned y, unsigned sample,
                     unsigned plane, unsigned slice, uint64_t *byte, unsigned *bit);
unsigned cedar_fmask_planes(const struct cedar_tile_map *m);
/* The fragment index of (x, y, sample) read from an FMask surface of m->size bytes. */
unsigned cedar_fmask_fragment(const struct cedar_tile_map *m, const uint8_t *fmask,
                              unsigned x, unsigned y, unsigned sample, unsigned slice);

/* FMask, a micro tile at a time: for each pixel xy = (y%8)*8 + x%8 of micro
 * tile (mx, my) (pixels mx*8.., my*8..) and each plane p < planes, bit
 * plane p of the pixel's sample fragment indices starts at bit bit0[xy][p]
 * of byte byte[xy][p] (sample s at bit bit0 + s, as cedar_fmask_bit says).
 * The same addresses as cedar_fmask_bit for all 64 pixels, from one address
 * computation per byte run of each plane.  Returns the number of planes, 0
 * for a colour map. */
unsigned cedar_fmask_micro(const struct cedar_tile_map *m, unsigned mx, unsigned my, unsigned slice,
                           uint64_t byte[64][4], uint8_t bit0[64][4]);
/* The fragment indices of micro tile (mx, my) read from an FMask surface of
 * m->size bytes: frags[xy] holds sample s's index in bits 4s..4s+3 (samples
 * beyond m->samples 0), xy as above; what cedar_fmask_fragment gives per
 * pixel and sample.  FMask maps only (nothing is written for a colour map). */
void cedar_fmask_tile_fragments(const struct cedar_tile_map *m, const uint8_t *fmask, unsigned mx,
                                unsigned my, unsigned slice, uint32_t frags[64]);

/* The bytes of micro tile (mx, my) (pixels mx*8.., my*8..) of one sample of
 * a 1D or 2D colour map: pixel index i (see cedar_tile_pixel_index) of that
 * micro tile is at
 *   run[i / per_run] + (i % per_run) * bpe,   per_run = m->run_bytes / bpe.
 * Returns the number of runs (1..CEDAR_MICRO_RUNS_MAX), or 0 for a linear or
 * an FMask map, which have no micro tiles of whole elements (address their
 * pixels with cedar_tile_addr / cedar_fmask_bit). */
unsigned cedar_tile_micro(const struct cedar_tile_map *m, unsigned mx, unsigned my,
                          unsigned sample, unsigned slice, uint64_t run[CEDAR_MICRO_RUNS_MAX]);

static inline unsigned cedar_tile_pixel_index(const struct cedar_tile_map *m, unsigned x, unsigned y)
{
    return m->pix_index[(y & 7) * 8 + (x & 7)];
}

/* The byte offset E of sample `sample` of pixel (x, y) inside its micro
 * tile's data (1D / 2D colour and depth maps).  Colour: all pixels of
 * sample 0, then of sample 1, ...; depth: the samples of pixel 0, then of
 * pixel 1, ... (egbaddrlib ComputeSurfaceAddrFromCoordMacroTiled,
 * isDepthSampleOrder). */
static inline uint32_t cedar_tile_element_offset(const struct cedar_tile_map *m, unsigned x, unsigned y,
                                                 unsigned sample)
{
    return (sample * m->sample_step + cedar_tile_pixel_index(m, x, y) * m->pixel_step) * m->bpe;
}

/* All of micro tile (mx, my)'s bytes (every sample) of a 1D or 2D colour or
 * depth map: byte E (cedar_tile_element_offset) is at
 *   run[E / m->run_bytes] + E % m->run_bytes
 * (what cedar_tile_addr gives, from one address computation per run).
 * Returns the number of runs, or 0 for a linear or an FMask map or when
 * there would be more than max. */
unsigned cedar_tile_micro_runs(const struct cedar_tile_map *m, unsigned mx, unsigned my, unsigned slice,
                               uint64_t *run, unsigned max);

/* Copy one (slice, sample) plane between the tiled surface (tiled_size bytes,
 * at least m->size) and a linear image of width x height elements whose rows
 * are `stride` bytes apart.  Micro-tile rows are copied whole.  Returns 0, or
 * -1 for a short buffer or an out-of-range sample/slice. */
int cedar_detile(const struct cedar_tile_map *m, const void *tiled, size_t tiled_size,
                 void *linear, size_t stride, unsigned sample, unsigned slice);
int cedar_tile(const struct cedar_tile_map *m, void *tiled, size_t tiled_size,
               const void *linear, size_t stride, unsigned sample, unsigned slice);

/* Every sample plane of one slice in one pass over the tiled surface (with
 * tile splitting a micro tile's samples share pieces, so this reads or
 * writes each tiled byte once, where a loop over cedar_detile would sweep
 * the surface once per sample): sample s is the linear image at
 * linear + s * plane_stride, rows `stride` bytes apart; plane_stride must be
 * at least height * stride when there is more than one sample.  Same result
 * as cedar_detile / cedar_tile per sample.  Returns 0 or -1 as those. */
int cedar_detile_samples(const struct cedar_tile_map *m, const void *tiled, size_t tiled_size,
                         void *linear, size_t stride, size_t plane_stride, unsigned slice);
int cedar_tile_samples(const struct cedar_tile_map *m, void *tiled, size_t tiled_size,
                       const void *linear, size_t stride, size_t plane_stride, unsigned slice);

/* The asynchronous DMA engine's tiled copies: `count` elements of `slice`
 * in row order from element `first` (y * width + x; the element after the
 * end of a row is the first of the next row) between a tiled surface of
 * m->size bytes and a linear run of count * bpe bytes.  Elements past the
 * last row are not copied.  Returns how many were: count, or fewer when the
 * run leaves the surface; 0 for an FMask, depth-order or multisample map or
 * a slice out of range.  A linear run lying in the surface's own bytes is
 * copied element by element in run order. */
uint64_t cedar_tile_run(const struct cedar_tile_map *m, void *tiled, const void *linear, unsigned slice,
                        uint64_t first, uint64_t count);
uint64_t cedar_detile_run(const struct cedar_tile_map *m, const void *tiled, void *linear, unsigned slice,
                          uint64_t first, uint64_t count);

#endif
