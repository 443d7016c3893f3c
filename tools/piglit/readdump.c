/* libcedar-readdump.so: preloaded into a piglit test, it saves what every
 * glReadPixels call reads back, so that two GL drivers' read-backs of the same
 * test can be compared (tools/piglit/readback_compare.py).
 *
 * Piglit resolves every GL entry point at run time (piglit-dispatch): on
 * Debian's build, desktop GL through glXGetProcAddressARB even on EGL
 * platforms (Mesa's GLX and EGL hand out the same functions); builds that use
 * waffle's or EGL's lookup call waffle_dl_sym, waffle_get_proc_address or
 * eglGetProcAddress.  Interposing those hands the test a wrapper of
 * glReadPixels.  The wrapper calls the driver's glReadPixels, then appends to
 * $CEDAR_READDUMP_DIR/index.tsv one line per call
 *
 *   N  X Y W H  FORMAT TYPE  BYTES  ROW_BYTES  READ_FBO  FILE
 *
 * (FORMAT and TYPE as GL's hex enums, ROW_BYTES the stride between rows
 * under GL_PACK_ALIGNMENT / GL_PACK_ROW_LENGTH) and writes the destination buffer's
 * bytes to FILE (rp-NNNN.bin beside it).  Reads into a pixel-pack buffer and
 * format/type pairs it cannot size are listed with BYTES 0 and FILE "-".
 * Without CEDAR_READDUMP_DIR it only forwards.  Nothing here depends on which
 * driver runs: the same library is preloaded on every side compared.
 */
#include <GL/gl.h>
#include <GL/glext.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*read_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
typedef void (*get_integerv_fn)(GLenum, GLint *);
typedef void *(*dl_sym_fn)(int32_t, const char *);
typedef void *(*get_proc_fn)(const char *);

static read_pixels_fn real_read_pixels;
static get_integerv_fn get_integerv;
static unsigned calls;

/* Components per pixel of FORMAT, 0 when unknown. */
static int format_components(GLenum format)
{
    switch (format) {
    case GL_RED: case GL_GREEN: case GL_BLUE: case GL_ALPHA: case GL_LUMINANCE:
    case GL_DEPTH_COMPONENT: case GL_STENCIL_INDEX: case GL_RED_INTEGER:
    case GL_DEPTH_STENCIL:  /* with a packed type: one "component" of 4 or 8 bytes */
        return 1;
    case GL_RG: case GL_LUMINANCE_ALPHA: case GL_RG_INTEGER:
        return 2;
    case GL_RGB: case GL_BGR: case GL_RGB_INTEGER:
        return 3;
    case GL_RGBA: case GL_BGRA: case GL_RGBA_INTEGER: case GL_BGRA_INTEGER:
        return 4;
    default:
        return 0;
    }
}

/* Bytes per pixel of FORMAT/TYPE, 0 when unknown. */
static int pixel_bytes(GLenum format, GLenum type)
{
    int n = format_components(format);
    switch (type) {
    case GL_UNSIGNED_BYTE: case GL_BYTE:
        return n;
    case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT:
        return 2 * n;
    case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT:
        return 4 * n;
    case GL_UNSIGNED_SHORT_5_6_5: case GL_UNSIGNED_SHORT_4_4_4_4: case GL_UNSIGNED_SHORT_5_5_5_1:
        return 2;
    case GL_UNSIGNED_INT_8_8_8_8: case GL_UNSIGNED_INT_8_8_8_8_REV:
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_24_8:
    case GL_UNSIGNED_INT_10F_11F_11F_REV:
        return 4;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
        return 8;
    default:
        return 0;
    }
}

static void dump(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format, GLenum type,
                 const void *pixels)
{
    const char *dir = getenv("CEDAR_READDUMP_DIR");
    if (!dir || !*dir)
        return;
    unsigned n = calls++;
    GLint pbo = 0, align = 4, row_length = 0, fbo = 0;
    if (get_integerv) {
        get_integerv(GL_PIXEL_PACK_BUFFER_BINDING, &pbo);
        get_integerv(GL_PACK_ALIGNMENT, &align);
        get_integerv(GL_PACK_ROW_LENGTH, &row_length);
        get_integerv(GL_READ_FRAMEBUFFER_BINDING, &fbo);
    }
    int bpp = pixel_bytes(format, type);
    size_t bytes = 0, row = 0;
    if (!pbo && pixels && bpp > 0 && w > 0 && h > 0 && align > 0) {
        row = (size_t)(row_length > 0 ? row_length : w) * (size_t)bpp;
        row = (row + (size_t)align - 1) / (size_t)align * (size_t)align;
        /* The last row need not be padded (GL 4.6 8.4.4.1). */
        bytes = row * (size_t)(h - 1) + (size_t)w * (size_t)bpp;
    }
    char path[4096], name[64];
    snprintf(name, sizeof name, "rp-%04u.bin", n);
    if (bytes) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(pixels, 1, bytes, f) != bytes) {
            fprintf(stderr, "readdump: cannot write %s\n", path);
            bytes = 0;
        }
        if (f)
            fclose(f);
    }
    snprintf(path, sizeof path, "%s/index.tsv", dir);
    FILE *idx = fopen(path, "a");
    if (!idx) {
        fprintf(stderr, "readdump: cannot append to %s\n", path);
        return;
    }
    fprintf(idx, "%u\t%d\t%d\t%d\t%d\t0x%04x\t0x%04x\t%zu\t%zu\t%d\t%s\n", n, x, y, w, h,
            format, type, bytes, bytes ? row : 0, fbo, bytes ? name : "-");
    fclose(idx);
}

static void wrap_read_pixels(GLint x, GLint y, GLsizei w, GLsizei h, GLenum format,
                             GLenum type, void *pixels)
{
    real_read_pixels(x, y, w, h, format, type, pixels);
    dump(x, y, w, h, format, type, pixels);
}

/* The wrapper in place of glReadPixels; every other name passes through. */
static void *wrap(const char *name, void *sym, void *(*lookup)(const char *))
{
    if (!sym || !name)
        return sym;
    if (strcmp(name, "glReadPixels") == 0) {
        real_read_pixels = (read_pixels_fn)sym;
        if (!get_integerv)
            get_integerv = (get_integerv_fn)lookup("glGetIntegerv");
        return (void *)wrap_read_pixels;
    }
    return sym;
}

static int32_t dl_kind;

static void *dl_lookup(const char *name)
{
    dl_sym_fn next = (dl_sym_fn)dlsym(RTLD_NEXT, "waffle_dl_sym");
    return next ? next(dl_kind, name) : NULL;
}

/* The next definition of the get-proc-address function FN. */
static void *next_lookup(const char *fn, const char *name)
{
    get_proc_fn next = (get_proc_fn)dlsym(RTLD_NEXT, fn);
    return next ? next(name) : NULL;
}

#define LOOKUP(FN) \
    static void *FN##_next(const char *name) { return next_lookup(#FN, name); } \
    __attribute__((visibility("default"))) void *FN(const char *name) \
    { return wrap(name, FN##_next(name), FN##_next); }

LOOKUP(waffle_get_proc_address)
LOOKUP(eglGetProcAddress)
LOOKUP(glXGetProcAddress)
LOOKUP(glXGetProcAddressARB)

__attribute__((visibility("default"))) void *waffle_dl_sym(int32_t dl, const char *name)
{
    dl_kind = dl;
    return wrap(name, dl_lookup(name), dl_lookup);
}
