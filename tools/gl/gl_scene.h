/* The demo's scene (cedar/demo.h: 1280x720, the clear colour, the one
 * triangle) through OpenGL ES 3 on EGL with no window system: a display on
 * the surfaceless platform (EGL_MESA_platform_surfaceless; else the first
 * EGL device), a context current without a surface, an N-sample RGBA8
 * renderbuffer cleared and drawn, resolved by glBlitFramebuffer into a
 * single-sample RGBA8 framebuffer and read back with glReadPixels.
 *
 * Whatever driver Mesa's loader picks renders it: llvmpipe on a machine
 * without a GPU, Mesa's r600 driver under cedar-run.  Used by cedar-gldemo
 * and by cedar-bench's llvmpipe side. */
#ifndef CEDAR_TOOLS_GL_SCENE_H
#define CEDAR_TOOLS_GL_SCENE_H

#include <EGL/egl.h>
#include <GLES3/gl3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gl_scene {
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint program, vbo, vao;
    GLuint msaa_rb, msaa_fbo, resolve_rb, resolve_fbo;
    unsigned width, height;  /* the demo's display size */
    unsigned samples;        /* asked for */
    GLint got_samples;       /* GL_SAMPLES of the drawn-to framebuffer (0: single-sample) */
    GLint max_samples;       /* GL_MAX_SAMPLES */
    char renderer[128];      /* GL_RENDERER */
};

/* Display, context (made current), GL_RENDERER and GL_MAX_SAMPLES.  0, or -1
 * with a one-line reason (no EGL display, no GLES 3 context ...); call
 * gl_scene_close either way. */
int gl_scene_open(struct gl_scene *s, char *why, size_t whylen);

/* gl_scene_open on Mesa's llvmpipe: sets LIBGL_ALWAYS_SOFTWARE and
 * GALLIUM_DRIVER (Mesa reads them when the display is initialised; this
 * changes the calling process's environment), opens, and refuses any other
 * renderer.  0, or -1 with a reason; call gl_scene_close either way. */
int gl_scene_open_llvmpipe(struct gl_scene *s, char *why, size_t whylen);

/* The program, the triangle's vertex buffer and the two framebuffers: a
 * `samples`-sample renderbuffer (1: a single-sample one) and the resolve
 * target.  With flip_y every vertex's y is negated (see gl_scene.c).  The
 * caller checks samples against max_samples first; got_samples says what the
 * driver gave.  0, or -1 with a reason. */
int gl_scene_prepare(struct gl_scene *s, unsigned samples, bool flip_y, char *why, size_t whylen);

/* One frame: clear, draw, resolve, glReadPixels into `rgba` (width x height
 * x 4 bytes, R, G, B, A, rows in GL's order: row 0 is window y 0), glFinish.
 * 0, or -1 with a reason (a GL error). */
int gl_scene_render(struct gl_scene *s, uint8_t *rgba, char *why, size_t whylen);

/* A shader of `type` compiled from src, or 0 with the start of its info
 * log in why. */
GLuint gl_scene_compile(GLenum type, const char *src, char *why, size_t whylen);

/* Releases whatever gl_scene_open / gl_scene_prepare made. */
void gl_scene_close(struct gl_scene *s);

#endif
