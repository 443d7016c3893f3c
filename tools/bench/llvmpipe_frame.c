/* The benchmark frame on Mesa's llvmpipe (see llvmpipe_frame.h).
 *
 * EGL facts: EGL_MESA_platform_surfaceless gives a display with no window
 * system; EGL_KHR_surfaceless_context lets a context be current with no
 * surface (all rendering goes to framebuffer objects).  When the surfaceless
 * platform is missing, EGL_EXT_platform_device with the first device is the
 * fallback (Mesa lists its software device there). */
#include "llvmpipe_frame.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_scene.h"
#include "frame_timing.h"

struct gl_frame {
    EGLDisplay dpy;
    EGLContext ctx;
    GLuint program, vbo, vao;
    GLuint msaa_rb, msaa_fbo, resolve_rb, resolve_fbo;
    unsigned samples;
    uint8_t *pixels;
};

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

static GLuint compile(GLenum type, const char *src, char *why, size_t whylen)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[256] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(why, whylen, "shader does not compile: %s", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

/* Position and colour in, colour interpolated out: the demo's program. */
static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec3 pos;\n"
                             "layout(location = 1) in vec3 col;\n"
                             "out vec3 v_col;\n"
                             "void main() { gl_Position = vec4(pos, 1.0); v_col = col; }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "in vec3 v_col;\n"
                             "out vec4 frag;\n"
                             "void main() { frag = vec4(v_col, 1.0); }\n";

static int build_program(struct gl_frame *f, char *why, size_t whylen)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src, why, whylen);
    if (!vs)
        return -1;
    GLuint fs = compile(GL_FRAGMENT_SHADER, fs_src, why, whylen);
    if (!fs) {
        glDeleteShader(vs);
        return -1;
    }
    f->program = glCreateProgram();
    glAttachShader(f->program, vs);
    glAttachShader(f->program, fs);
    glLinkProgram(f->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(f->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        snprintf(why, whylen, "program does not link");
        return -1;
    }
    glGenVertexArrays(1, &f->vao);
    glBindVertexArray(f->vao);
    glGenBuffers(1, &f->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, f->vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof frame_vertices, frame_vertices, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    return 0;
}

static int build_framebuffers(struct gl_frame *f, char *why, size_t whylen)
{
    glGenRenderbuffers(1, &f->msaa_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, f->msaa_rb);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, (GLsizei)f->samples, GL_RGBA8, FRAME_WIDTH,
                                     FRAME_HEIGHT);
    GLint got = 0;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &got);
    if ((unsigned)got != f->samples) {
        snprintf(why, whylen, "asked for %u samples, the renderbuffer has %d", f->samples, got);
        return -1;
    }
    glGenFramebuffers(1, &f->msaa_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, f->msaa_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, f->msaa_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(why, whylen, "the %u-sample framebuffer is incomplete", f->samples);
        return -1;
    }
    glGenRenderbuffers(1, &f->resolve_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, f->resolve_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, FRAME_WIDTH, FRAME_HEIGHT);
    glGenFramebuffers(1, &f->resolve_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, f->resolve_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, f->resolve_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(why, whylen, "the resolve framebuffer is incomplete");
        return -1;
    }
    return 0;
}

/* One frame: clear, draw, resolve, read back, finish. */
static int render_frame(struct gl_frame *f, char *why, size_t whylen)
{
    glBindFramebuffer(GL_FRAMEBUFFER, f->msaa_fbo);
    glViewport(0, 0, FRAME_WIDTH, FRAME_HEIGHT);
    glClearColor(frame_clear_rgba[0], frame_clear_rgba[1], frame_clear_rgba[2],
                 frame_clear_rgba[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(f->program);
    glBindVertexArray(f->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, f->msaa_fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, f->resolve_fbo);
    glBlitFramebuffer(0, 0, FRAME_WIDTH, FRAME_HEIGHT, 0, 0, FRAME_WIDTH, FRAME_HEIGHT,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, f->resolve_fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, FRAME_WIDTH, FRAME_HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, f->pixels);
    glFinish();
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(why, whylen, "GL error 0x%04x during the frame", e);
        return -1;
    }
    return 0;
}

static void release(struct gl_frame *f)
{
    if (f->ctx != EGL_NO_CONTEXT) {
        glDeleteFramebuffers(1, &f->msaa_fbo);
        glDeleteFramebuffers(1, &f->resolve_fbo);
        glDeleteRenderbuffers(1, &f->msaa_rb);
        glDeleteRenderbuffers(1, &f->resolve_rb);
        glDeleteBuffers(1, &f->vbo);
        glDeleteVertexArrays(1, &f->vao);
        glDeleteProgram(f->program);
        eglMakeCurrent(f->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(f->dpy, f->ctx);
    }
    if (f->dpy != EGL_NO_DISPLAY)
        eglTerminate(f->dpy);
    free(f->pixels);
}

/* Display, context, llvmpipe check, program and framebuffers. */
static enum frame_status set_up(struct gl_frame *f, struct frame_timing *out, char *why,
                                size_t whylen)
{
    f->dpy = open_display(why, whylen);
    if (f->dpy == EGL_NO_DISPLAY)
        return FRAME_UNAVAILABLE;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(f->dpy, &major, &minor)) {
        f->dpy = EGL_NO_DISPLAY;
        snprintf(why, whylen, "eglInitialize failed (0x%x)", eglGetError());
        return FRAME_UNAVAILABLE;
    }
    if (!has_extension(eglQueryString(f->dpy, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
        snprintf(why, whylen, "EGL %d.%d display without EGL_KHR_surfaceless_context", major, minor);
        return FRAME_UNAVAILABLE;
    }
    static const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                            EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLConfig config;
    EGLint nconfig = 0;
    if (!eglChooseConfig(f->dpy, config_attribs, &config, 1, &nconfig) || nconfig < 1) {
        snprintf(why, whylen, "no EGL config for OpenGL ES 3");
        return FRAME_UNAVAILABLE;
    }
    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        snprintf(why, whylen, "eglBindAPI(EGL_OPENGL_ES_API) failed");
        return FRAME_UNAVAILABLE;
    }
    static const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    f->ctx = eglCreateContext(f->dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (f->ctx == EGL_NO_CONTEXT) {
        snprintf(why, whylen, "no OpenGL ES 3 context (0x%x)", eglGetError());
        return FRAME_UNAVAILABLE;
    }
    if (!eglMakeCurrent(f->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, f->ctx)) {
        snprintf(why, whylen, "eglMakeCurrent without a surface failed (0x%x)", eglGetError());
        return FRAME_UNAVAILABLE;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    snprintf(out->renderer, sizeof out->renderer, "%s", renderer ? renderer : "(none)");
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        snprintf(why, whylen, "GL_RENDERER is \"%s\", not llvmpipe", out->renderer);
        return FRAME_UNAVAILABLE;
    }
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    if ((GLint)f->samples > max_samples) {
        snprintf(why, whylen, "%s takes at most %d samples, not %u", out->renderer, max_samples,
                 f->samples);
        return FRAME_UNAVAILABLE;
    }
    f->pixels = malloc((size_t)FRAME_WIDTH * FRAME_HEIGHT * 4);
    if (!f->pixels) {
        snprintf(why, whylen, "out of memory");
        return FRAME_FAILED;
    }
    if (build_program(f, why, whylen) != 0 || build_framebuffers(f, why, whylen) != 0)
        return FRAME_FAILED;
    return FRAME_OK;
}

static int frame_step(void *ctx, char *why, size_t whylen)
{
    return render_frame(ctx, why, whylen);
}

static int check_step(void *ctx, char *why, size_t whylen)
{
    const struct gl_frame *f = ctx;
    return frame_check_image(f->pixels, (size_t)FRAME_WIDTH * 4, FRAME_RGBA, f->samples, why,
                             whylen);
}

enum frame_status llvmpipe_frame_bench(unsigned samples, const struct frame_budget *budget,
                                       struct frame_timing *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    out->samples = samples;
    /* Mesa reads these when the display is initialised. */
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    setenv("GALLIUM_DRIVER", "llvmpipe", 1);

    struct gl_frame f = {.dpy = EGL_NO_DISPLAY, .ctx = EGL_NO_CONTEXT, .samples = samples};
    enum frame_status st = set_up(&f, out, why, whylen);
    if (st == FRAME_OK)
        st = frame_time(budget, frame_step, check_step, &f, out, why, whylen);
    release(&f);
    return st;
}
