/* Internals shared by the layout files (not part of the public API). */
#ifndef CEDAR_LAYOUT_PRIV_H
#define CEDAR_LAYOUT_PRIV_H

#include "cedar/layout.h"

/* An Evergreen micro tile is 8x8 elements (Evergreen Acceleration Guide,
 * "tiling"; libdrm radeon_surface.c tilew/tileh). */
#define LAYOUT_MICRO_TILE_W 8u
#define LAYOUT_MICRO_TILE_H 8u
#define LAYOUT_MICRO_TILE_PIXELS (LAYOUT_MICRO_TILE_W * LAYOUT_MICRO_TILE_H)

/* libdrm's size limit for Evergreen surfaces (eg_surface_sanity()). */
#define LAYOUT_MAX_DIM 16384u

/* The 2D tiling parameters libdrm keeps in struct radeon_surface. */
struct layout_tile_params {
    unsigned tile_split;   /* bytes */
    unsigned bankw, bankh, mtilea;
};

/* Fill err with a one-line reason; always returns -1. */
int layout_fail(struct cedar_layout_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Validate width/height/bpe/samples/mode/tiling of a request (the checks
 * radeon_surface_sanity() and eg_surface_sanity() make on the request, plus
 * our refusal of MSAA in a mode other than 2D). */
int layout_check_request(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                         struct cedar_layout_err *err);

/* radeon_surface_init() alone with the given parameters, the way Mesa asks
 * for an FMask (no radeon_surface_best()).  The request must already have
 * passed layout_check_request(). */
int layout_surface_init(const struct cedar_surface_req *req, const struct cedar_tiling *t,
                        const struct layout_tile_params *p, struct cedar_surface *out,
                        struct cedar_layout_err *err);

unsigned layout_log2(unsigned pow2);          /* exact log2 of a power of two */
uint64_t layout_align64(uint64_t v, uint64_t pow2);

#endif
