/* Image and file input/output shared by the tools, the demo and the tests:
 * PNG through libpng, whole files (optionally gzip-compressed) through zlib. */
#ifndef CEDAR_IMAGE_H
#define CEDAR_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Pixel layouts a PNG is written from / read into. */
enum cedar_png_kind {
    CEDAR_PNG_GRAY8,   /* 1 byte per pixel */
    CEDAR_PNG_GRAY16,  /* 2 bytes per pixel, host-endian uint16_t */
    CEDAR_PNG_RGBA8,   /* R, G, B, A bytes */
    CEDAR_PNG_RGBA16,  /* 4 host-endian uint16_t: R, G, B, A */
    CEDAR_PNG_BGRA8,   /* B, G, R, A bytes (written as RGBA) */
};

struct cedar_image_err { char msg[256]; };

/* Write w x h pixels whose rows are `stride` bytes apart.  8-bit kinds are
 * compressed for speed (zlib level 1, the Sub filter: a few times faster
 * than libpng's defaults, files somewhat larger).  Returns 0 or -1. */
int cedar_png_write(const char *path, const void *pixels, unsigned w, unsigned h, size_t stride,
                    enum cedar_png_kind kind, struct cedar_image_err *err);

/* Read any PNG, converted to 8-bit RGBA (rows w*4 bytes apart).  *pixels is
 * malloc'd; the caller frees it.  Returns 0 or -1. */
int cedar_png_read_rgba8(const char *path, uint8_t **pixels, unsigned *w, unsigned *h,
                         struct cedar_image_err *err);

/* Read a whole file, gunzipping it if it is gzip-compressed (plain files pass
 * through unchanged).  At most max_size bytes are accepted.  *data is malloc'd;
 * the caller frees it.  Returns 0 or -1. */
int cedar_file_read(const char *path, size_t max_size, uint8_t **data, size_t *size,
                    struct cedar_image_err *err);

/* Write size bytes to path.  Returns 0 or -1. */
int cedar_file_write(const char *path, const void *data, size_t size, struct cedar_image_err *err);
/* The same, told which 4096-byte blocks of data are zeros without their
 * being read: known_zero[i] != 0 for block i (bytes 4096 i ..); NULL: none.
 * Those blocks are never read (a surface read back is mostly memory nothing
 * wrote); long runs of them become holes in a regular file (the same bytes
 * when read). */
int cedar_file_write_known(const char *path, const void *data, size_t size, const uint8_t *known_zero,
                           struct cedar_image_err *err);

#endif
