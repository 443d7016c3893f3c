/* The MSAA demo: the scene, its buffers, and the command buffers that
 * fast-clear, draw and resolve it, built without any device (for --dry-run
 * and the tests), then submitted through the ioctl seam (cedar/device.h).
 *
 * Streams, in submission order (each one a GFX-ring IB with its relocation
 * list, submitted with RADEON_CS_KEEP_TILING_FLAGS, each starting with the
 * same initial state as Mesa's r600 driver re-emits it per CS):
 *   init     MSAA only: the CMask filled with 0xCCCCCCCC by CP_DMA when the
 *            buffer is created (Mesa's cs_001);
 *   clear    fast clear (MSAA): CMask filled with 0 by CP_DMA, the clear
 *            colour goes to CB_COLOR0_CLEAR_WORD0/1 with the surface;
 *            otherwise (--no-fast-clear, or 1 sample) a full-screen
 *            rectangle drawn in the clear colour;
 *   draw     the triangle, 8x (2x, 4x, 1x) MSAA, FMask compression;
 *   resolve  MSAA only: CB_COLOR_CONTROL.MODE = CB_RESOLVE, CB0 = MSAA
 *            surface, CB1 = the single-sample 2D-tiled target.
 */
#ifndef CEDAR_DEMO_H
#define CEDAR_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/cmdbuf.h"
#include "cedar/device.h"
#include "cedar/layout.h"
#include "cedar/shader.h"

#define CEDAR_DEMO_MAX_SIZE 8192u

struct cedar_demo_config {
    unsigned width, height;     /* display size, 1..8192 */
    unsigned samples;           /* 1, 2, 4, 8 */
    uint8_t clear_rgb[3];       /* R, G, B bytes; alpha is 0xFF */
    bool fast_clear;            /* false: clear with a draw */
    struct cedar_tiling tiling; /* from RADEON_INFO_TILING_CONFIG */
    enum eg_demo_color_format vertex_color_format;  /* how the vertices store the colour */
};

/* The scene of ../shared/fixtures/cedar/README.md: 1280x720, 8x, clear
 * colour 0x33 0x4C 0x4C, tiling config 0x11 (what an HD 7350 reports). */
void cedar_demo_config_default(struct cedar_demo_config *cfg);

/* The scene's one triangle as the fixture gives it: positions in normalized
 * device coordinates (x, y, z, w; +y is the top of the image), colours R, G,
 * B, A; bottom right red, bottom left blue, top green.  Every renderer of the
 * scene (these command buffers, cedar-gldemo's OpenGL ES, cedar-bench's
 * llvmpipe side) draws these values. */
struct cedar_demo_vertex {
    float pos[4];
    float color[4];
};
extern const struct cedar_demo_vertex cedar_demo_triangle[3];

/* The clear colour as the fixture's author set it: (0.2, 0.3, 0.3, 1.0).  The
 * card stored it as 0x33 0x4C 0x4C 0xFF (cedar_demo_config.clear_rgb), not the
 * round-to-nearest 0x4D for 0.3: a float clear is within 1 of the card. */
extern const float cedar_demo_clear_rgba[4];

/* Buffers, by id (the relocation "handle" in a built plan is id + 1; the
 * submitter replaces it with the GEM handle). */
enum cedar_demo_buf {
    CEDAR_DEMO_BUF_COLOR,     /* the render target: colour samples (+ FMask, CMask) */
    CEDAR_DEMO_BUF_RESOLVE,   /* the single-sample resolve target (MSAA only) */
    CEDAR_DEMO_BUF_VERTICES,
    CEDAR_DEMO_BUF_SHADERS,
    CEDAR_DEMO_BUF_COUNT
};

struct cedar_demo_buffer {
    const char *name;         /* "msaa", "resolve", "vertices", "shaders" */
    uint64_t size, alignment;
    uint32_t domain;          /* RADEON_GEM_DOMAIN_VRAM */
    bool used;
    const void *init_data;    /* uploaded before the first submission, or NULL */
    size_t init_size;
};

struct cedar_demo_ib {
    const char *what;         /* "init", "clear", "draw", "resolve" */
    struct cedar_cmdbuf cb;   /* relocation handles are buffer id + 1 */
};

#define CEDAR_DEMO_MAX_IBS 4

struct cedar_demo_plan {
    struct cedar_demo_config cfg;
    struct cedar_msaa_layout layout;  /* color always; FMask/CMask/resolve when samples > 1 */
    struct cedar_demo_buffer bufs[CEDAR_DEMO_BUF_COUNT];
    struct cedar_demo_ib ibs[CEDAR_DEMO_MAX_IBS];
    unsigned nibs;
    /* owned contents */
    uint8_t *vertices;        /* the vertex buffer contents */
    size_t vertices_size;
    uint32_t *shader_code;
    size_t shader_size;
};

/* Lays out the surfaces and builds every command buffer.  Returns 0, or -1
 * with a one-line reason in err.  Always release with cedar_demo_plan_free. */
int cedar_demo_plan_build(const struct cedar_demo_config *cfg, struct cedar_demo_plan *plan,
                          char *err, size_t errlen);
void cedar_demo_plan_free(struct cedar_demo_plan *plan);

/* Writes DIR/cs_NNN.bin (raw little-endian dwords) and cs_NNN.relocs.txt
 * (index, buffer name, size, domains) for every IB, in submission order. */
int cedar_demo_dump_cs(const struct cedar_demo_plan *plan, const char *dir, char *err,
                       size_t errlen);

/* What a run brought back.  color and resolve are the buffers' CPU
 * mappings (GEM_MMAP), not copies: they stay valid, with the buffers and
 * the device's handles to them, until cedar_demo_result_free, which must
 * come before the device is destroyed. */
struct cedar_demo_session;
struct cedar_demo_result {
    const uint8_t *color;     /* the render target buffer as read back (colour, FMask, CMask) */
    size_t color_size;
    const uint8_t *resolve;   /* the resolve target as read back (MSAA), else NULL */
    size_t resolve_size;
    uint64_t dwords_submitted;
    unsigned submissions;
    double seconds;
    /* Per 4096-byte page of color: 1 where the device knows the page holds
     * zeros without it being read (the virtual Cedar: nothing ever wrote
     * it), so that the output files need not touch it; NULL when the device
     * cannot tell (the real kernel). */
    uint8_t *color_zero_pages;
    struct cedar_demo_session *session;   /* owned: the buffers behind color and resolve */
};

/* Per-submission hook (a .bof capture writer): called right before each CS
 * ioctl, once the buffers are idle, with the IB's index, the relocation list
 * as it will be submitted (GEM handles), and the CPU mappings of the buffers
 * (indexed by enum cedar_demo_buf; NULL for unused ones).  Non-zero stops. */
struct cedar_demo_hook {
    void *ctx;
    int (*submitting)(void *ctx, const struct cedar_demo_plan *plan, unsigned ib_index,
                      const struct drm_radeon_cs_reloc *relocs, unsigned nrelocs,
                      void *const maps[CEDAR_DEMO_BUF_COUNT]);
};

/* A .bof capture of every submission (libdrm's format, one CS per file):
 * path "cap.bof" gives cap.000.bof, cap.001.bof, ... */
struct cedar_demo_capture {
    const char *path;
    uint32_t device_id;
    unsigned files;          /* written so far */
    char err[256];           /* why the last write failed */
};
void cedar_demo_capture_init(struct cedar_demo_capture *c, const char *path, uint32_t device_id,
                             struct cedar_demo_hook *hook);

/* Creates the buffers, uploads vertices and shaders, submits every IB,
 * waits for idle and hands the buffers back as mapped (GEM_MMAP).  Returns 0, or -1
 * with a one-line reason (the device's last_error included). */
int cedar_demo_run(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                   const struct cedar_demo_hook *hook, struct cedar_demo_result *res,
                   char *err, size_t errlen);
void cedar_demo_result_free(struct cedar_demo_result *res);

/* Opens the virtual Cedar behind the ioctl seam.  0, or -1 with a reason. */
int cedar_demo_open_virtual(struct cedar_dev **dev, char *err, size_t errlen);
/* The tools' --device: "virtual", a DRM node (must be a Cedar on radeon >=
 * 2.19), or "auto": the Cedar on the PCI bus if there is one, else the
 * virtual Cedar.  0 with *dev, and in note (may be "") which device auto
 * chose and why; or -1 with a one-line reason in err. */
int cedar_demo_open_device(const char *spec, struct cedar_dev **dev, char *note, size_t notelen,
                           char *err, size_t errlen);
/* 1 when dev is the virtual Cedar (its counters and clock are a model's). */
int cedar_demo_device_is_virtual(struct cedar_dev *dev);
/* 1 with the reason in buf when the device reported an execution fault
 * (the virtual Cedar does; the real kernel cannot), else 0. */
int cedar_demo_device_fault(struct cedar_dev *dev, char *buf, size_t len);
/* The virtual Cedar's vcedar_zero_pages for a mapping of one of its buffers:
 * 0 with zero[] filled (one entry per 4096-byte page), or -1 on any other
 * device or when it cannot tell. */
int cedar_demo_zero_pages(struct cedar_dev *dev, const void *ptr, size_t len, uint8_t *zero);

/* Output files in dir (created if missing): frame.png, frame.tiled.bin,
 * msaa.color.bin, msaa.fmask.bin, msaa.cmask.bin, edge-zoom.png,
 * fmask-fragments.png (the last three/four only when they exist for the
 * sample count).  Returns 0 or -1 with a reason. */
int cedar_demo_write_outputs(const struct cedar_demo_plan *plan,
                             const struct cedar_demo_result *res, const char *dir, char *err,
                             size_t errlen);

/* Buffers kept across frames (what an application does with its
 * framebuffers): cedar_demo_session_open creates and maps the plan's buffers,
 * uploads vertices and shaders and submits the "init" IB (if any) once;
 * each cedar_demo_session_frame submits the other IBs (clear, draw, resolve)
 * and waits until the buffers they write are idle.  The plan must outlive
 * the session.  0, or -1 with a one-line reason. */
int cedar_demo_session_open(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                            struct cedar_demo_session **session, char *err, size_t errlen);
int cedar_demo_session_frame(struct cedar_demo_session *session, char *err, size_t errlen);
/* The CPU mapping of a buffer (GEM_MMAP) and its size; NULL if unused.  Read
 * it after cedar_demo_session_frame returned. */
const void *cedar_demo_session_map(const struct cedar_demo_session *session,
                                   enum cedar_demo_buf buf, size_t *size);
void cedar_demo_session_close(struct cedar_demo_session *session);

#endif
