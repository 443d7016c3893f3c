/* The virtual Cedar's internals, shared by the files of src/vcedar/. */
#ifndef CEDAR_VC_INTERNAL_H
#define CEDAR_VC_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cedar/pm4.h"
#include "cedar/render.h"
#include "cedar/vc_hw.h"
#include "cedar/vcedar.h"

/* ---- memory: GPU address ranges backed by host memory ------------------ */

struct vc_bo;

struct vc_region {
    uint64_t gpu;          /* first byte */
    uint64_t size;
    uint8_t *host;         /* anonymous mapping, pages appear when touched */
    struct vc_bo *bo;      /* NULL for raw regions (bare-metal replays) */
};

struct vc_memmap {
    struct vc_region *r;   /* sorted by gpu, never overlapping */
    size_t n, cap;
};

uint8_t *vc_host_alloc(uint64_t size);
void vc_host_free(uint8_t *p, uint64_t size);
int vc_memmap_add(struct vc_memmap *m, uint64_t gpu, uint64_t size, uint8_t *host, struct vc_bo *bo);
void vc_memmap_remove(struct vc_memmap *m, uint64_t gpu);
/* The region holding all of [gpu, gpu+len), NULL when none does. */
const struct vc_region *vc_memmap_find(const struct vc_memmap *m, uint64_t gpu, uint64_t len);
/* Lowest address >= from inside [lo, hi) where size bytes fit, aligned; ~0 when full. */
uint64_t vc_memmap_place(const struct vc_memmap *m, uint64_t lo, uint64_t hi, uint64_t size, uint64_t align);
void vc_memmap_free(struct vc_memmap *m);
void *vc_memmap_ptr(const struct vc_memmap *m, uint64_t gpu, uint64_t len);

/* ---- buffer objects (GEM objects) ------------------------------------- */

struct vc_bo {
    uint64_t size;             /* page-rounded, as radeon_gem_create_ioctl */
    uint64_t gpu;              /* current GPU address */
    uint32_t domain;           /* current placement: RADEON_GEM_DOMAIN_VRAM or _GTT */
    uint32_t initial_domain;   /* as asked at creation */
    uint32_t create_flags;
    uint32_t alignment;
    uint32_t tiling_flags, pitch;
    uint64_t mmap_offset;      /* the fake offset GEM_MMAP returns (the same in every file) */
    uint8_t *host;
    unsigned handles;          /* GEM handles naming it, over every file (obj->handle_count) */
    unsigned maps;             /* live CPU mappings */
    uint32_t name;             /* GEM_FLINK name, 0 when none */
    bool gpu_mapped;           /* in the GPU's memory map (not once the last handle is gone) */
    struct vc_bo *next;        /* every live buffer, handle-less but mapped ones too */
};

/* ---- DRM files ---------------------------------------------------------- */

/* drm_master: what the card0 files opened under one master share. */
struct vc_master {
    unsigned refs;
    bool unique_set;           /* SET_VERSION 1.1+ filled in the bus id (drm_set_busid) */
};

struct vc_file {
    struct cedar_dev dev;      /* what the caller holds; dev.priv points back here */
    struct vcedar *vc;         /* NULL once the model is gone (unplugged) */
    struct vc_file *next;      /* the model's open files */
    struct vc_bo **handles;    /* indexed by GEM handle; NULL when free */
    uint32_t nhandles;         /* array length */
    bool render;               /* renderD128, not card0 */
    bool owns_model;           /* cedar_dev_open_virtual(): destroying it destroys the model */
    bool authenticated, is_master, was_master;
    struct vc_master *master;  /* card0: the master it was opened under; NULL on a render node */
    uint32_t magic;            /* GET_MAGIC's number, 0 before; stays allocated until close */
    struct vc_master *magic_master;   /* whose magic map holds it */
    bool magic_live;           /* still findable there (AUTH_MAGIC not yet used) */
    bool stereo_allowed, universal_planes, aspect_ratio_allowed;   /* SET_CLIENT_CAP */
};

/* ---- the command processor's state ------------------------------------ */

/* vc_poison.c: --poison-state.  flags: per config then context register
 * dword, defined by this CS (1) / its unwritten read reported (2). */
struct vc_poison {
    struct vc_reg_watch watch;   /* first: the watch callback gets this */
    struct vcedar *vc;
    uint64_t cs;                 /* command streams begun */
    uint8_t flags[VC_CONFIG_DWORDS + VC_CONTEXT_DWORDS];
};

struct vc_cp {
    struct vc_regs regs;
    uint32_t num_instances;     /* NUM_INSTANCES packet */
    uint32_t index_type;        /* INDEX_TYPE packet */
    uint64_t index_base;        /* INDEX_BASE packet */
    uint32_t index_size;        /* INDEX_BUFFER_SIZE packet */
    uint32_t context_control[2];
    uint32_t so_offset[4];      /* the VGT's stream-out write offsets, dwords (STRMOUT_BUFFER_UPDATE) */
    /* The context registers as compute sees them: SET_CONTEXT_REG with the
     * header's SHADER_TYPE bit (compute) writes these, not regs.context,
     * and a dispatch reads these (vc_cp.c says why). */
    uint32_t context_cs[VC_CONTEXT_DWORDS];
    struct vc_poison poison;
};

/* ---- the device -------------------------------------------------------- */

struct vcedar {
    struct vcedar_opts opts;
    enum vc_check_mode mode;
    FILE *trace;

    uint64_t vram_base, vram_size, vram_visible;
    uint64_t gtt_base, gtt_size;
    uint64_t vram_used, gtt_used;

    struct vc_memmap mem;
    struct vc_bo *bo_list;     /* every live buffer */
    uint64_t next_mmap_offset;
    struct vc_bo **names;      /* GEM_FLINK names (dev->object_name_idr); NULL when free */
    uint32_t nnames;           /* array length */

    struct vc_file *files;     /* open DRM files, newest first */
    struct vc_file *first_file;  /* the file vcedar_bo_gpu_address() looks in */
    struct vc_master *master;  /* the current master (dev->master), NULL when none */
    struct vc_file *hyperz_owner, *cmask_owner;   /* RADEON_INFO_WANT_HYPERZ / _CMASK */

    struct vc_cp cp;
    struct vc_render *render;  /* the default renderer (opts.draw == NULL) */
    struct vcedar_stats stats;
    double engine_clocks;      /* the clock model's time (vc_clock.c); stats.clock derives from it */
    struct vc_error last_error;  /* why the last CS was rejected */
    struct vc_error exec_error;  /* the first execution fault since the last reset */
};

/* vc_bo.c: buffers, the handles files hold on them, flink names */
/* A new buffer with no handle yet: give it one with vc_handle_create(). */
int vc_bo_create(struct vcedar *vc, uint64_t size, uint32_t alignment, uint32_t domain,
                 uint32_t flags, struct vc_bo **out);
/* The lowest free handle of f now names bo (drm_gem_handle_create_tail).
 * A buffer left without a handle when this fails is freed. */
int vc_handle_create(struct vc_file *f, struct vc_bo *bo, uint32_t *handle);
struct vc_bo *vc_handle_lookup(const struct vc_file *f, uint32_t handle);
/* GEM_CLOSE (drm_gem_handle_delete): 0 or -EINVAL. */
int vc_handle_delete(struct vc_file *f, uint32_t handle);
/* Every handle of f (drm_gem_release, at the file's last close). */
void vc_handles_release(struct vc_file *f);
/* GEM_FLINK: bo's name, allocated on first use (lowest free from 1). */
int vc_bo_flink(struct vcedar *vc, struct vc_bo *bo, uint32_t *name);
struct vc_bo *vc_bo_by_name(struct vcedar *vc, uint32_t name);
/* Move a buffer so it lies in one of the allowed domains (RADEON_GEM_DOMAIN_*). */
int vc_bo_validate(struct vcedar *vc, struct vc_bo *bo, uint32_t allowed);
struct vc_bo *vc_bo_by_mmap_offset(struct vcedar *vc, uint64_t offset, uint64_t size);
/* The buffer whose host memory holds ptr (with or without handles). */
struct vc_bo *vc_bo_by_host(struct vcedar *vc, const void *ptr);
void vc_bo_unmapped(struct vcedar *vc, struct vc_bo *bo);
void vc_bo_destroy_all(struct vcedar *vc);

/* vc_file.c: DRM files and the drm_ioctl() dispatch */
/* Permission flags of an ioctl (drm_ioctl.h). */
enum {
    VC_DRM_AUTH = 0x1,
    VC_DRM_MASTER = 0x2,
    VC_DRM_ROOT_ONLY = 0x4,
    VC_DRM_RENDER_ALLOW = 0x20,
};
typedef int (*vc_ioctl_fn)(struct vc_file *f, void *data);
struct vc_ioctl_desc {
    uint32_t cmd;              /* the kernel's request number (its size and direction count) */
    uint32_t flags;            /* VC_DRM_* */
    vc_ioctl_fn fn;            /* NULL: a hole in the table (-EINVAL) */
};
/* Handlers shared by both tables: drm_invalid_op (-EINVAL) and -ENOSYS
 * (an ioctl the driver leaves unimplemented). */
int vc_ioctl_invalid(struct vc_file *f, void *data);
int vc_ioctl_nosys(struct vc_file *f, void *data);
bool vc_file_is_current_master(const struct vc_file *f);
/* drm_new_set_master: f becomes master of a new master structure. */
int vc_new_set_master(struct vc_file *f);
/* drm_master_put */
void vc_master_put(struct vc_master *m);
/* The model is being destroyed: f answers -ENODEV from now on. */
void vc_file_unplug(struct vc_file *f);

/* vc_drm.c: the DRM core ioctls (drm_ioctls[]) */
const struct vc_ioctl_desc *vc_drm_core_ioctl(unsigned nr);
/* vc_radeon.c: the radeon driver ioctls (radeon_ioctls_kms[]), nr counted from DRM_COMMAND_BASE */
const struct vc_ioctl_desc *vc_radeon_ioctl(unsigned index);

/* vc_cs.c: the CS ioctl; relocations name handles of file f */
int vc_cs_ioctl(struct vc_file *f, void *arg);

/* vc_cp.c: execute a checked (or raw) GFX indirect buffer */
int vc_cp_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err);
void vc_cp_reset(struct vc_cp *cp);
/* vc_poison.c: at the start of a GFX IB, poison every context and config
 * register and watch reads; then note each register the IB defines. */
void vc_poison_begin(struct vcedar *vc);
void vc_poison_wrote(struct vcedar *vc, uint32_t offset);
void vc_poison_clear_state(struct vcedar *vc);   /* CLEAR_STATE */
/* vc_dma.c: execute a DMA-ring indirect buffer */
int vc_dma_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err);

/* The vc_mem view of memory handed to the renderer. */
struct vc_mem vc_mem_view(struct vcedar *vc);

/* vc_trace.c: --trace output */
void vc_trace_packet(FILE *f, const struct eg_pm4_packet *p);
void vc_trace_reg(FILE *f, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w);
void vc_trace_draw(FILE *f, const struct vc_regs *regs, const struct vc_draw *d);
void vc_trace_dma(FILE *f, size_t offset, const uint32_t *pkt, const char *what);

/* vc_clock.c: the GPU clock's cost model (stats.clock, 27 MHz ticks) */
void vc_clock_cp_dwords(struct vcedar *vc, uint64_t dwords);
void vc_clock_bytes(struct vcedar *vc, uint64_t bytes);
/* A draw: the renderer's counters before and after it (NULL, NULL when a
 * draw function of the caller's ran it), the MSAA sample count. */
void vc_clock_draw(struct vcedar *vc, const struct vc_render_stats *before, const struct vc_render_stats *after,
                   unsigned samples);
/* A compute dispatch that ran `invocations` threads. */
void vc_clock_dispatch(struct vcedar *vc, uint64_t invocations);

/* vc_pipestat.c: the counters EVENT_WRITE SAMPLE_PIPELINESTAT writes */
#define VC_PIPESTAT_BYTES 88   /* eleven 64-bit counters */
void vc_sample_pipelinestat(const struct vcedar *vc, uint8_t out[VC_PIPESTAT_BYTES]);

/* vc_render_glue.c: vc_render_draw() with the vc_draw_fn signature */
int vc_render_draw_adapter(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                           const struct vc_draw *draw, struct vc_draw_err *err);

/* vc_error.c */
int vc_fail(struct vc_error *err, enum vc_err_code code, uint32_t dword, const char *what,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
