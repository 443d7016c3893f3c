/* cedar-tessref: capture llvmpipe's tessellation as a reference for the
 * model's tessellator (src/render/tessellator.c).  For each case of a
 * fixed table (domain, spacing, winding or point mode, the tessellation
 * levels) it draws one patch through OpenGL ES 3.2 on EGL (tools/gl/
 * gl_scene.c's display and context), a TCS that sets the levels from
 * uniforms and a TES that passes gl_TessCoord out, captures the TES's
 * output primitives with transform feedback (rasterizer discard) and
 * prints them: the floats exactly (%a), in the order llvmpipe emitted them.
 *
 * Output (tests/data/tess_llvmpipe.txt is one):
 *   # comment lines
 *   case DOMAIN SPACING ORDER L0 L1 L2 L3 I0 I1   (DOMAIN tri|quad|iso,
 *        SPACING equal|odd|even, ORDER ccw|cw|point; GL's levels:
 *        gl_TessLevelOuter[0..3], gl_TessLevelInner[0..1])
 *   prims N VERTS                                 (N primitives of VERTS vertices)
 *   U V U V ...                                   (one line a primitive)
 */
#include <GLES3/gl32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl/gl_scene.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_UNAVAILABLE 3

static const char usage[] =
    "usage: cedar-tessref [--out FILE]\n"
    "Starts Mesa's llvmpipe through EGL (surfaceless, GLES 3.2), tessellates one\n"
    "patch for each case of a fixed table (triangles, quads, isolines; equal,\n"
    "fractional_odd, fractional_even spacing; integer, non-integer and asymmetric\n"
    "levels), captures gl_TessCoord of every emitted vertex with transform\n"
    "feedback and prints the primitives (to FILE, default stdout).\n"
    "Exit status: 0 done; 1 a GL step failed; 2 bad usage; 3 llvmpipe with\n"
    "tessellation is not available here.\n";

struct tcase {
    const char *domain, *spacing, *order;
    float lv[6];   /* outer 0..3, inner 0..1 */
};

static const struct tcase cases[] = {
    {"tri", "equal", "ccw", {1, 1, 1, 0, 1, 0}},
    {"tri", "equal", "ccw", {2, 2, 2, 0, 2, 0}},
    {"tri", "equal", "ccw", {3, 3, 3, 0, 3, 0}},
    {"tri", "equal", "ccw", {4, 4, 4, 0, 4, 0}},
    {"tri", "equal", "ccw", {1, 1, 1, 0, 3, 0}},
    {"tri", "equal", "ccw", {6, 6, 6, 0, 1, 0}},
    {"tri", "equal", "ccw", {1, 2, 3, 0, 4, 0}},
    {"tri", "equal", "ccw", {5, 2, 7, 0, 3, 0}},
    {"tri", "equal", "ccw", {8, 1, 1, 0, 1, 0}},
    {"tri", "equal", "ccw", {12, 3, 9, 0, 10, 0}},
    {"tri", "equal", "ccw", {2.5f, 3.2f, 1.1f, 0, 6.7f, 0}},
    {"tri", "equal", "ccw", {16, 16, 16, 0, 16, 0}},
    {"tri", "equal", "cw", {5, 2, 7, 0, 3, 0}},
    {"tri", "equal", "point", {5, 2, 7, 0, 3, 0}},
    {"tri", "odd", "ccw", {1, 1, 1, 0, 1, 0}},
    {"tri", "odd", "ccw", {1, 1, 1, 0, 1.5f, 0}},
    {"tri", "odd", "ccw", {3.7f, 3.7f, 3.7f, 0, 3.7f, 0}},
    {"tri", "odd", "ccw", {2.5f, 3.2f, 1.1f, 0, 6.7f, 0}},
    {"tri", "odd", "ccw", {5.3f, 1, 2.2f, 0, 4.1f, 0}},
    {"tri", "odd", "ccw", {9.9f, 4.4f, 7, 0, 12.6f, 0}},
    {"tri", "odd", "cw", {2.5f, 3.2f, 1.1f, 0, 6.7f, 0}},
    {"tri", "even", "ccw", {2, 2, 2, 0, 2, 0}},
    {"tri", "even", "ccw", {1, 1, 1, 0, 1, 0}},
    {"tri", "even", "ccw", {2.5f, 3.2f, 1.1f, 0, 6.7f, 0}},
    {"tri", "even", "ccw", {5.3f, 2, 2.2f, 0, 4.1f, 0}},
    {"tri", "even", "ccw", {9.9f, 4.4f, 7, 0, 12.6f, 0}},
    {"tri", "even", "point", {9.9f, 4.4f, 7, 0, 12.6f, 0}},
    {"quad", "equal", "ccw", {1, 1, 1, 1, 1, 1}},
    {"quad", "equal", "ccw", {2, 2, 2, 2, 2, 2}},
    {"quad", "equal", "ccw", {3, 3, 3, 3, 3, 3}},
    {"quad", "equal", "ccw", {1, 1, 1, 1, 3, 1}},
    {"quad", "equal", "ccw", {2, 2, 2, 2, 1, 1}},
    {"quad", "equal", "ccw", {1, 2, 3, 4, 5, 6}},
    {"quad", "equal", "ccw", {4, 4, 4, 4, 2, 5}},
    {"quad", "equal", "ccw", {4, 4, 4, 4, 5, 2}},
    {"quad", "equal", "ccw", {3, 3, 3, 3, 3, 4}},
    {"quad", "equal", "ccw", {3, 3, 3, 3, 4, 3}},
    {"quad", "equal", "ccw", {3, 3, 3, 3, 6, 9}},
    {"quad", "equal", "ccw", {3, 3, 3, 3, 9, 6}},
    {"quad", "equal", "ccw", {7, 5, 3, 9, 6, 6}},
    {"quad", "equal", "ccw", {2.5f, 3.2f, 1.1f, 4.9f, 6.7f, 3.3f}},
    {"quad", "equal", "ccw", {12, 12, 12, 12, 12, 12}},
    {"quad", "equal", "cw", {7, 5, 3, 9, 6, 6}},
    {"quad", "equal", "point", {7, 5, 3, 9, 6, 5}},
    {"quad", "odd", "ccw", {1, 1, 1, 1, 1, 1}},
    {"quad", "odd", "ccw", {1, 1, 1, 1, 1.5f, 1}},
    {"quad", "odd", "ccw", {2.5f, 3.2f, 1.1f, 4.9f, 6.7f, 3.3f}},
    {"quad", "odd", "ccw", {3.7f, 3.7f, 3.7f, 3.7f, 3.7f, 3.7f}},
    {"quad", "odd", "ccw", {5.3f, 1, 2.2f, 8, 4.1f, 9.6f}},
    {"quad", "odd", "cw", {5.3f, 1, 2.2f, 8, 4.1f, 9.6f}},
    {"quad", "even", "ccw", {2, 2, 2, 2, 2, 2}},
    {"quad", "even", "ccw", {2.5f, 3.2f, 1.1f, 4.9f, 6.7f, 3.3f}},
    {"quad", "even", "ccw", {3.7f, 3.7f, 3.7f, 3.7f, 3.7f, 3.7f}},
    {"quad", "even", "ccw", {5.3f, 1, 2.2f, 8, 9.6f, 4.1f}},
    {"quad", "even", "point", {5.3f, 1, 2.2f, 8, 9.6f, 4.1f}},
    {"iso", "equal", "line", {2, 3, 0, 0, 0, 0}},
    {"iso", "equal", "line", {1, 1, 0, 0, 0, 0}},
    {"iso", "equal", "line", {3.5f, 4.2f, 0, 0, 0, 0}},
    {"iso", "odd", "line", {2.5f, 4.2f, 0, 0, 0, 0}},
    {"iso", "even", "line", {3, 5.5f, 0, 0, 0, 0}},
    {"iso", "even", "point", {3, 5.5f, 0, 0, 0, 0}},
};

static const char vs_src[] = "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }\n";
static const char tcs_src[] = "#version 320 es\n"
                              "layout(vertices = 1) out;\n"
                              "uniform vec4 outer;\n"
                              "uniform vec2 inner;\n"
                              "void main() {\n"
                              "  gl_TessLevelOuter[0] = outer.x; gl_TessLevelOuter[1] = outer.y;\n"
                              "  gl_TessLevelOuter[2] = outer.z; gl_TessLevelOuter[3] = outer.w;\n"
                              "  gl_TessLevelInner[0] = inner.x; gl_TessLevelInner[1] = inner.y;\n"
                              "  gl_out[gl_InvocationID].gl_Position = vec4(0.0);\n"
                              "}\n";
static const char fs_src[] = "#version 320 es\nprecision highp float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

static GLuint program_for(const struct tcase *c, char *why, size_t whylen)
{
    char tes[512];
    const char *dom = !strcmp(c->domain, "tri") ? "triangles" : !strcmp(c->domain, "quad") ? "quads" : "isolines";
    const char *sp = !strcmp(c->spacing, "equal") ? "equal_spacing"
                     : !strcmp(c->spacing, "odd") ? "fractional_odd_spacing" : "fractional_even_spacing";
    const char *ord = !strcmp(c->order, "point") ? ", point_mode" : !strcmp(c->order, "cw") ? ", cw"
                      : !strcmp(c->order, "ccw") ? ", ccw" : "";
    snprintf(tes, sizeof tes,
             "#version 320 es\n"
             "layout(%s, %s%s) in;\n"
             "out vec2 tc;\n"
             "void main() { tc = gl_TessCoord.xy; gl_Position = vec4(0.0); }\n",
             dom, sp, ord);
    GLuint sh[4] = {gl_scene_compile(GL_VERTEX_SHADER, vs_src, why, whylen),
                    gl_scene_compile(GL_TESS_CONTROL_SHADER, tcs_src, why, whylen),
                    gl_scene_compile(GL_TESS_EVALUATION_SHADER, tes, why, whylen),
                    gl_scene_compile(GL_FRAGMENT_SHADER, fs_src, why, whylen)};
    GLuint p = 0;
    if (sh[0] && sh[1] && sh[2] && sh[3]) {
        p = glCreateProgram();
        for (unsigned k = 0; k < 4; k++)
            glAttachShader(p, sh[k]);
        const char *var = "tc";
        glTransformFeedbackVaryings(p, 1, &var, GL_INTERLEAVED_ATTRIBS);
        glLinkProgram(p);
        GLint ok = 0;
        glGetProgramiv(p, GL_LINK_STATUS, &ok);
        if (!ok) {
            char log[512] = "";
            glGetProgramInfoLog(p, sizeof log, NULL, log);
            snprintf(why, whylen, "program does not link: %s", log);
            glDeleteProgram(p);
            p = 0;
        }
    }
    for (unsigned k = 0; k < 4; k++)
        if (sh[k])
            glDeleteShader(sh[k]);
    return p;
}

#define CAPTURE_FLOATS (64 * 64 * 2 * 3 * 2 + 4096)

static int run_case(FILE *out, const struct tcase *c, GLuint buf, char *why, size_t whylen)
{
    GLuint p = program_for(c, why, whylen);
    if (!p)
        return -1;
    bool points = !strcmp(c->order, "point"), lines = !strcmp(c->domain, "iso");
    GLenum mode = points ? GL_POINTS : lines ? GL_LINES : GL_TRIANGLES;
    unsigned verts = points ? 1 : lines ? 2 : 3;
    glUseProgram(p);
    glUniform4f(glGetUniformLocation(p, "outer"), c->lv[0], c->lv[1], c->lv[2], c->lv[3]);
    glUniform2f(glGetUniformLocation(p, "inner"), c->lv[4], c->lv[5]);
    glPatchParameteri(GL_PATCH_VERTICES, 1);
    GLuint q;
    glGenQueries(1, &q);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
    glBeginTransformFeedback(mode);
    glDrawArrays(GL_PATCHES, 0, 1);
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glDisable(GL_RASTERIZER_DISCARD);
    GLuint n = 0;
    glGetQueryObjectuiv(q, GL_QUERY_RESULT, &n);
    glDeleteQueries(1, &q);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(why, whylen, "GL error 0x%x drawing the patch", e);
        glDeleteProgram(p);
        return -1;
    }
    if ((size_t)n * verts * 2 > CAPTURE_FLOATS) {
        snprintf(why, whylen, "%u primitives overflow the capture buffer", n);
        glDeleteProgram(p);
        return -1;
    }
    const float *f = n ? glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)n * verts * 2 * sizeof(float),
                                          GL_MAP_READ_BIT)
                       : NULL;
    if (n && !f) {
        snprintf(why, whylen, "glMapBufferRange failed (0x%x)", glGetError());
        glDeleteProgram(p);
        return -1;
    }
    fprintf(out, "case %s %s %s %.9g %.9g %.9g %.9g %.9g %.9g\nprims %u %u\n", c->domain, c->spacing, c->order,
            (double)c->lv[0], (double)c->lv[1], (double)c->lv[2], (double)c->lv[3], (double)c->lv[4],
            (double)c->lv[5], n, verts);
    for (GLuint i = 0; i < n; i++) {
        for (unsigned k = 0; k < verts * 2; k++)
            fprintf(out, "%s%a", k ? " " : "", (double)f[(size_t)i * verts * 2 + k]);
        fputc('\n', out);
    }
    if (n)
        glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
    glDeleteProgram(p);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[a], "--out") && a + 1 < argc) {
            path = argv[++a];
            continue;
        }
        fprintf(stderr, "cedar-tessref: unknown or incomplete argument '%s' (see --help)\n", argv[a]);
        return EXIT_USAGE;
    }
    struct gl_scene s;
    char why[600] = "";
    int status = EXIT_UNAVAILABLE;
    FILE *out = NULL;
    GLuint buf = 0, vao = 0, rb = 0, fbo = 0;
    if (gl_scene_open_llvmpipe(&s, why, sizeof why) != 0)
        goto done;
    const char *version = (const char *)glGetString(GL_VERSION);
    if (!version || !strstr(version, "OpenGL ES 3.2")) {
        snprintf(why, sizeof why, "\"%s\" is not OpenGL ES 3.2 (tessellation)", version ? version : "(none)");
        goto done;
    }
    status = EXIT_FAILED;
    out = path ? fopen(path, "w") : stdout;
    if (!out) {
        snprintf(why, sizeof why, "cannot write %s", path);
        goto done;
    }
    /* no window: a 1x1 framebuffer to draw "into" (rasterizer discard) */
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buf);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, CAPTURE_FLOATS * sizeof(float), NULL, GL_STREAM_READ);
    fprintf(out, "# cedar-tessref: gl_TessCoord.xy of every vertex the TES emitted, by transform feedback\n"
                 "# GL_RENDERER %s; GL_VERSION %s\n", s.renderer, version);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        if (run_case(out, &cases[k], buf, why, sizeof why))
            goto done;
    status = 0;
done:
    if (buf)
        glDeleteBuffers(1, &buf);
    if (vao)
        glDeleteVertexArrays(1, &vao);
    if (fbo)
        glDeleteFramebuffers(1, &fbo);
    if (rb)
        glDeleteRenderbuffers(1, &rb);
    if (out && out != stdout && fclose(out) && !status) {
        snprintf(why, sizeof why, "cannot write %s", path);
        status = EXIT_FAILED;
    }
    gl_scene_close(&s);
    if (status)
        fprintf(stderr, "cedar-tessref: %s\n", why);
    return status;
}
