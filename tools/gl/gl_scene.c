/* The demo's scene through OpenGL ES 3 on EGL (see gl_scene.h).
 *
 * EGL facts: EGL_MESA_platform_surfaceless gives a display with no window
 * system; EGL_KHR_surfaceless_context lets a context be current with no
 * surface (all rendering goes to framebuffer objects).  When the surfaceless
 * platform is missing, EGL_EXT_platform_device with the first device is the
 * fallback (Mesa lists its software device there). */
#include "gl_scene.h"

#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/demo.h"

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* A display on the surfaceless platform, else on the first EGL device. */
static EGLDisplay open_display(char *why, size_t whylen)
{
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client) {
        snprintf(why, whylen, "EGL has no client extensions (EGL_EXT_client_extensions)");
        return EGL_NO_DISPLAY;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_platform_display) {
        snprintf(why, whylen, "no eglGetPlatformDisplayEXT (EGL_EXT_platform_base)");
        return EGL_NO_DISPLAY;
    }
    if (has_extension(client, "EGL_MESA_platform_surfaceless")) {
        EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (d != EGL_NO_DISPLAY)
            return d;
    }
    if (has_extension(client, "EGL_EXT_platform_device")) {
        PFNEGLQUERYDEVICESEXTPROC query_devices =
            (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT dev;
        EGLint ndev = 0;
        if (query_devices && query_devices(1, &dev, &ndev) && ndev > 0) {
            EGLDisplay d = get_platform_display(EGL_PLATFORM_DEVICE_EXT, dev, NULL);
            if (d != EGL_NO_DISPLAY)
                return d;
        }
    }
    snprintf(why, whylen, "no surfaceless or device EGL display (client extensions: %.80s)", client);
    return EGL_NO_DISPLAY;
}

int gl_scene_open(struct gl_scene *s, char *why, size_t whylen)
{
    memset(s, 0, sizeof *s);
    s->dpy = EGL_NO_DISPLAY;
    s->ctx = EGL_NO_CONTEXT;
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    s->width = cfg.width;
    s->height = cfg.height;

    EGLDisplay dpy = open_display(why, whylen);
    if (dpy == EGL_NO_DISPLAY)
        return -1;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor)) {
        snprintf(why, whylen, "eglInitialize failed (0x%x)", eglGetError());
        return -1;
    }
    s->dpy = dpy;
    if (!has_extension(eglQueryString(dpy, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
        snprintf(why, whylen, "EGL %d.%d display without EGL_KHR_surfaceless_context", major, minor);
        return -1;
    }
    static const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config;
    EGLint nconfig = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &nconfig) || nconfig < 1) {
        snprintf(why, whylen, "no EGL config for OpenGL ES 3");
        return -1;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        snprintf(why, whylen, "eglBindAPI(EGL_OPENGL_ES_API) failed");
        return -1;
    }
    static const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    s->ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (s->ctx == EGL_NO_CONTEXT) {
        snprintf(why, whylen, "no OpenGL ES 3 context (0x%x)", eglGetError());
        return -1;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, s->ctx)) {
        snprintf(why, whylen, "eglMakeCurrent without a surface failed (0x%x)", eglGetError());
        return -1;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    snprintf(s->renderer, sizeof s->renderer, "%s", renderer ? renderer : "(none)");
    glGetIntegerv(GL_MAX_SAMPLES, &s->max_samples);
    return 0;
}

int gl_scene_open_llvmpipe(struct gl_scene *s, char *why, size_t whylen)
{
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    setenv("GALLIUM_DRIVER", "llvmpipe", 1);
    if (gl_scene_open(s, why, whylen) != 0)
        return -1;
    if (!strstr(s->renderer, "llvmpipe")) {
        snprintf(why, whylen, "GL_RENDERER is \"%s\", not llvmpipe", s->renderer);
        return -1;
    }
    return 0;
}

GLuint gl_scene_compile(GLenum type, const char *src, char *why, size_t whylen)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[256] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        snprintf(why, whylen, "shader does not compile: %s", log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

/* Position and colour in, colour interpolated out: the demo's program.
 * highp: the card interpolates in 32-bit floats. */
static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec4 pos;\n"
                             "layout(location = 1) in vec4 col;\n"
                             "out vec4 v_col;\n"
                             "void main() { gl_Position = pos; v_col = col; }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision highp float;\n"
                             "in vec4 v_col;\n"
                             "out vec4 frag;\n"
                             "void main() { frag = v_col; }\n";

/* Mirroring (flip_y): GL maps y_ndc to window y as y_win = 360 + 360 * y_ndc
 * (glViewport(0, 0, 1280, 720)), and window y 0 of a framebuffer object is
 * its memory row 0, so unmirrored the top of the scene lands in the last
 * row.  The card's viewport had YSCALE -360, YOFFSET 360: y_win = 360 -
 * 360 * y_ndc, the top of the scene in row 0.  Negating y gives
 * 360 + 360 * (-y) = 360 - 360 * y, and in floating point that is the same
 * number, not just nearly: negation is exact, round-to-nearest is symmetric
 * about zero so 360 * (-y) == (-360) * y == -(360 * y) bit for bit, and
 * adding it to 360 is the same addition on both sides (w is 1, so the
 * perspective divide changes nothing).  Every vertex, hence every edge and
 * every interpolated colour, then sits at exactly the window position the
 * card used, and the driver's MSAA sample pattern (fixed in memory rows)
 * meets the edges as on the card.  Only the winding turns round, which
 * nothing culls here. */
static int build_program(struct gl_scene *s, bool flip_y, char *why, size_t whylen)
{
    GLuint vs = gl_scene_compile(GL_VERTEX_SHADER, vs_src, why, whylen);
    if (!vs)
        return -1;
    GLuint fs = gl_scene_compile(GL_FRAGMENT_SHADER, fs_src, why, whylen);
    if (!fs) {
        glDeleteShader(vs);
        return -1;
    }
    s->program = glCreateProgram();
    glAttachShader(s->program, vs);
    glAttachShader(s->program, fs);
    glLinkProgram(s->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(s->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        snprintf(why, whylen, "program does not link");
        return -1;
    }
    struct cedar_demo_vertex v[3];
    memcpy(v, cedar_demo_triangle, sizeof v);
    for (int i = 0; flip_y && i < 3; i++)
        v[i].pos[1] = -v[i].pos[1];
    glGenVertexArrays(1, &s->vao);
    glBindVertexArray(s->vao);
    glGenBuffers(1, &s->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, s->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof v[0],
                          (void *)offsetof(struct cedar_demo_vertex, pos));
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof v[0],
                          (void *)offsetof(struct cedar_demo_vertex, color));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    return 0;
}

/* A renderbuffer and a framebuffer with it as colour attachment 0. */
static int build_target(GLuint *rb, GLuint *fbo, GLsizei samples, GLsizei w, GLsizei h,
                        const char *what, char *why, size_t whylen)
{
    glGenRenderbuffers(1, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, *rb);
    if (samples > 0)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
    else
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glGenFramebuffers(1, fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, *fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *rb);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(why, whylen, "the %s framebuffer is incomplete (0x%04x, GL error 0x%04x)", what,
                 st, glGetError());
        return -1;
    }
    return 0;
}

int gl_scene_prepare(struct gl_scene *s, unsigned samples, bool flip_y, char *why, size_t whylen)
{
    s->samples = samples;
    if (build_program(s, flip_y, why, whylen) != 0)
        return -1;
    /* One sample is a plain renderbuffer: asked for 1 sample, Mesa picks the
     * smallest multisample count it has (4 on llvmpipe). */
    GLsizei w = (GLsizei)s->width, h = (GLsizei)s->height;
    if (build_target(&s->msaa_rb, &s->msaa_fbo, samples > 1 ? (GLsizei)samples : 0, w, h, "drawn-to",
                     why, whylen) != 0)
        return -1;
    glGetIntegerv(GL_SAMPLES, &s->got_samples); /* of the bound framebuffer */
    return build_target(&s->resolve_rb, &s->resolve_fbo, 0, w, h, "resolve", why, whylen);
}

int gl_scene_render(struct gl_scene *s, uint8_t *rgba, char *why, size_t whylen)
{
    GLsizei w = (GLsizei)s->width, h = (GLsizei)s->height;
    glBindFramebuffer(GL_FRAMEBUFFER, s->msaa_fbo);
    glViewport(0, 0, w, h);
    glClearColor(cedar_demo_clear_rgba[0], cedar_demo_clear_rgba[1], cedar_demo_clear_rgba[2],
                 cedar_demo_clear_rgba[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(s->program);
    glBindVertexArray(s->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->msaa_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, s->resolve_fbo);
    glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s->resolve_fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glFinish();
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(why, whylen, "GL error 0x%04x during the frame", e);
        return -1;
    }
    return 0;
}

void gl_scene_close(struct gl_scene *s)
{
    if (s->ctx != EGL_NO_CONTEXT) {
        glDeleteFramebuffers(1, &s->msaa_fbo);
        glDeleteFramebuffers(1, &s->resolve_fbo);
        glDeleteRenderbuffers(1, &s->msaa_rb);
        glDeleteRenderbuffers(1, &s->resolve_rb);
        glDeleteBuffers(1, &s->vbo);
        glDeleteVertexArrays(1, &s->vao);
        glDeleteProgram(s->program);
        eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(s->dpy, s->ctx);
        s->ctx = EGL_NO_CONTEXT;
    }
    if (s->dpy != EGL_NO_DISPLAY)
        eglTerminate(s->dpy);
    s->dpy = EGL_NO_DISPLAY;
}
