/* Surface layouts for Evergreen colour surfaces, FMask and CMask.
 *
 * Colour surfaces are chosen and sized as libdrm_radeon's radeon_surface_best()
 * + radeon_surface_init() do for Evergreen; FMask and CMask as Mesa r600's
 * r600_texture_get_fmask_info() / r600_texture_get_cmask_info().
 * Everything here is pure computation: no device, no I/O.
 */
#ifndef CEDAR_LAYOUT_H
#define CEDAR_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

/* The GPU's tiling facts, as the kernel reports them (RADEON_INFO_TILING_CONFIG). */
struct cedar_tiling {
    unsigned pipes;       /* 1, 2, 4, 8 */
    unsigned banks;       /* 4, 8, 16 */
    unsigned group_bytes; /* pipe interleave: 256 or 512 */
    unsigned row_bytes;   /* DRAM row: 1024, 2048, 4096 */
};

/* Decode a RADEON_INFO_TILING_CONFIG value (Evergreen layout: bits 3:0 pipes,
 * 7:4 banks, 11:8 interleave, 15:12 row size).  Returns 0, or -1 when a field
 * holds a value no Evergreen reports or a bit above 15 is set (then *out is
 * untouched; libdrm would substitute defaults and disable 2D tiling). */
int cedar_tiling_from_config(uint32_t tiling_config, struct cedar_tiling *out);

/* What the radeon kernel reports for an HD 7350 (Cedar): 2 pipes, 8 banks,
 * 256-byte interleave, 1 KB DRAM rows (Linux evergreen_gpu_init(); the value
 * the reference streams in tests/data/mesa-r600-msaa8x/ were recorded with). */
#define CEDAR_HD7350_TILING_CONFIG 0x0011u

/* Same check for an already decoded struct: 0 when every field is one an
 * Evergreen can report, else -1. */
int cedar_tiling_check(const struct cedar_tiling *t);

/* Array modes we lay out. */
enum cedar_array_mode {
    CEDAR_MODE_LINEAR_ALIGNED,
    CEDAR_MODE_1D_THIN,
    CEDAR_MODE_2D_THIN,
};

const char *cedar_array_mode_name(enum cedar_array_mode m); /* "linear_aligned", "1d", "2d" */

struct cedar_surface_req {
    unsigned width, height;  /* 1..16384 */
    unsigned bpe;            /* bytes per element: 1, 2, 4, 8, 16 */
    unsigned samples;        /* 1, 2, 4, 8; >1 requires 2D */
    enum cedar_array_mode mode; /* requested; the result may fall back 2D -> 1D */
    bool scanout;
    bool fmask;              /* RADEON_SURF_FMASK, as Mesa requests the FMask surface */
};

/* One laid-out colour surface (a single mip level, a single slice unless
 * array_size > 1 in future). */
struct cedar_surface {
    enum cedar_array_mode mode;   /* final mode */
    enum cedar_array_mode requested_mode;
    bool scanout, fmask;          /* the request's flags */
    unsigned width, height;       /* as requested */
    unsigned bpe, samples;
    unsigned aligned_width;       /* nblk_x, pixels */
    unsigned aligned_height;      /* nblk_y, pixels */
    /* 2D tiling parameters exactly as libdrm leaves them in radeon_surface and
     * Mesa programs them into CB_COLOR*_ATTRIB whatever the mode: for a
     * linear/1D request they are eg_surface_best()'s defaults (tile_split 1024,
     * bankw 1, bankh so that a bank holds >= one interleave, mtilea
     * min(banks, 8)); for a 2D request that fell back to 1D they are the 2D
     * values.  The hardware only uses them in 2D mode. */
    unsigned tile_split;          /* bytes: 64..4096 */
    unsigned bankw, bankh, mtilea;
    /* How the size came about (for explanations and address maps). */
    unsigned align_x, align_y;    /* pixels the width/height were aligned to:
                                     the macro tile in 2D, the 1D/linear rule else */
    unsigned tile_bytes;          /* 2D: bytes of one micro tile (8x8 px, all
                                     samples) after tile splitting */
    unsigned slices_per_tile;     /* 2D: micro tile bytes / tile_split, >= 1 */
    unsigned macro_tile_bytes;    /* 2D: bytes of one macro tile */
    uint64_t pitch_bytes;         /* one row of pixels, all samples */
    uint64_t slice_bytes;
    uint64_t size;                /* bytes the surface occupies */
    uint64_t alignment;           /* base alignment in bytes */
    /* register encodings */
    unsigned pitch_tile_max;      /* CB_COLOR*_PITCH.TILE_MAX = aligned_width/8 - 1 */
    unsigned slice_tile_max;      /* CB_COLOR*_SLICE.TILE_MAX = aligned_width*aligned_height/64 - 1 */
    unsigned tile_split_enc;      /* CB_COLOR*_ATTRIB.TILE_SPLIT (log2(tile_split/64)) */
    unsigned bankw_enc, bankh_enc, mtilea_enc; /* log2 encodings */
    unsigned num_banks_enc;       /* CB_COLOR*_ATTRIB.NUM_BANKS: log2(banks) - 1 */
    struct cedar_tiling tiling;   /* the GPU facts this layout was made for */
};

struct cedar_fmask {
    struct cedar_surface surf;    /* the FMask as a 2D single-sample surface */
    uint64_t offset;              /* within the MSAA buffer */
    unsigned bank_height;         /* CB_COLOR*_ATTRIB.FMASK_BANK_HEIGHT value (not encoded) */
    unsigned bank_height_enc;     /* its log2 encoding */
    unsigned slice_tile_max;      /* CB_COLOR*_FMASK_SLICE */
};

struct cedar_cmask {
    unsigned cache_width, cache_height; /* pixels one CMask cache line covers
                                           (256x128 on a 2-pipe Cedar) */
    unsigned aligned_width, aligned_height; /* requested size aligned to it */
    uint64_t offset;              /* within the MSAA buffer */
    uint64_t size;
    uint64_t alignment;
    unsigned slice_tile_max;      /* CB_COLOR*_CMASK_SLICE */
};

/* The MSAA allocation as Mesa makes it: one buffer, colour samples at 0,
 * then FMask, then CMask, each at its alignment; plus the resolve target
 * (a separate single-sample buffer of the same size and bpe, requested 2D
 * with the request's scanout flag, so that libdrm falls back to 1D when it
 * is smaller than a macro tile; the MSAA surface itself is never scanout).
 * With samples == 1 there is no FMask and no resolve target; the CMask is
 * then the one Mesa puts in a buffer of its own when it fast-clears a
 * single-sample surface (offset 0), and total_size is the colour size. */
struct cedar_msaa_layout {
    struct cedar_surface color;
    struct cedar_fmask fmask;     /* valid when color.samples > 1 */
    struct cedar_cmask cmask;
    struct cedar_surface resolve; /* valid when color.samples > 1 */
    uint64_t total_size;          /* colour + FMask + CMask buffer size (the
                                     kernel rounds the BO up to a page) */
};

/* Error reporting: functions return 0 or -1 and fill err (may be NULL) with a
 * one-line reason. */
struct cedar_layout_err { char msg[160]; };

/* radeon_surface_best() + radeon_surface_init() for one Evergreen surface.
 * Fails (like libdrm) on bad sizes/bpe/samples/tiling, and on MSAA with a
 * mode other than 2D (libdrm would silently force 2D; we refuse). */
int cedar_surface_layout(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         struct cedar_surface *out, struct cedar_layout_err *err);
/* Mesa r600_texture_get_fmask_info(): the FMask of an MSAA colour surface
 * (samples 2, 4 or 8, 2D).  out->offset is left 0 (cedar_msaa_layout places
 * it).  Fails where libdrm refuses the FMask request (e.g. 2 samples of 1
 * byte with a 512-byte interleave: bank height 4 cannot hold an interleave). */
int cedar_fmask_layout(const struct cedar_surface *color, struct cedar_fmask *out,
                       struct cedar_layout_err *err);
/* Mesa r600_texture_get_cmask_info() on Evergreen, for any colour surface
 * (it only looks at the requested width and height and the tiling facts).
 * out->offset is left 0. */
int cedar_cmask_layout(const struct cedar_surface *color, struct cedar_cmask *out,
                       struct cedar_layout_err *err);
int cedar_msaa_layout(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                      struct cedar_msaa_layout *out, struct cedar_layout_err *err);

/* ---- mip chains of single-sample textures (src/layout/mip.c) ---- */

#define CEDAR_MAX_MIP_LEVELS 16

struct cedar_miptree_req {
    unsigned width, height, depth;  /* level 0; depth: a 3D texture's slices, else 1 */
    unsigned array_size;            /* layers of an array texture, else 1 */
    unsigned last_level;            /* 0 .. CEDAR_MAX_MIP_LEVELS - 1 */
    unsigned bpe;                   /* bytes per texel: 1, 2, 4, 8, 16 */
    enum cedar_array_mode mode;     /* level 0's mode (after libdrm's own 2D -> 1D fallback) */
    unsigned tile_split, bankw, bankh, mtilea; /* 2D: as programmed (bytes / plain values) */
    struct cedar_tiling tiling;
};

struct cedar_mip_level {
    enum cedar_array_mode mode;     /* 2D levels smaller than a macro tile are 1D */
    unsigned width, height, depth;  /* texels (past level 0 rounded up to a power of two) */
    unsigned pitch, rows;           /* aligned width / height in texels */
    unsigned slices;                /* slices x layers stored for the level */
    uint64_t offset;                /* bytes from level 0's start */
    uint64_t slice_size;            /* bytes of one slice / layer */
};

struct cedar_miptree {
    unsigned levels;
    struct cedar_mip_level level[CEDAR_MAX_MIP_LEVELS];
    uint64_t size;                  /* bytes up to the end of the last level */
    uint64_t alignment;             /* the first mip level's offset is a multiple of it */
};

/* Lay out levels 0 .. last_level as libdrm_radeon's radeon_surface_init()
 * does on Evergreen.  0, or -1 with err set for a request out of range. */
int cedar_miptree_layout(const struct cedar_miptree_req *r, struct cedar_miptree *out, struct cedar_layout_err *err);

#endif
