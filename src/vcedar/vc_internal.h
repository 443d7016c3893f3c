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

/* ---- buffer objects ---------------------------------------------------- */

struct vc_bo {
    uint32_t handle;
    uint64_t size;             /* page-rounded, as radeon_gem_create_ioctl */
    uint64_t gpu;              /* current GPU address */
    uint32_t domain;           /* current placement: RADEON_GEM_DOMAIN_VRAM or _GTT */
    uint32_t initial_domain;   /* as asked at creation */
    uint32_t create_flags;
    uint32_t alignment;
    uint32_t tiling_flags, pitch;
    uint64_t mmap_offset;      /* the fake offset GEM_MMAP returns */
    uint8_t *host;
    unsigned maps;             /* live CPU mappings */
    bool closed;               /* handle gone; freed when the last mapping goes */
    struct vc_bo *next;        /* every live buffer, closed-but-mapped ones too */
};

/* ---- the command processor's state ------------------------------------ */

struct vc_cp {
    struct vc_regs regs;
    uint32_t num_instances;     /* NUM_INSTANCES packet */
    uint32_t index_type;        /* INDEX_TYPE packet */
    uint64_t index_base;        /* INDEX_BASE packet */
    uint32_t index_size;        /* INDEX_BUFFER_SIZE packet */
    uint32_t context_control[2];
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
    struct vc_bo **bos;        /* indexed by handle; NULL when free */
    struct vc_bo *bo_list;     /* every live buffer */
    uint32_t nbos;             /* array length */
    uint64_t next_mmap_offset;

    struct vc_cp cp;
    struct vc_render *render;  /* the default renderer (opts.draw == NULL) */
    struct vcedar_stats stats;
    struct vc_error last_error;  /* why the last CS was rejected */
    struct vc_error exec_error;  /* the first execution fault since the last reset */
};

/* vc_bo.c */
int vc_bo_create(struct vcedar *vc, uint64_t size, uint32_t alignment, uint32_t domain,
                 uint32_t flags, struct vc_bo **out);
struct vc_bo *vc_bo_lookup(struct vcedar *vc, uint32_t handle);
int vc_bo_close(struct vcedar *vc, uint32_t handle);
/* Move a buffer so it lies in one of the allowed domains (RADEON_GEM_DOMAIN_*). */
int vc_bo_validate(struct vcedar *vc, struct vc_bo *bo, uint32_t allowed);
struct vc_bo *vc_bo_by_mmap_offset(struct vcedar *vc, uint64_t offset, uint64_t size);
/* The buffer whose host memory holds ptr (open or closed-but-mapped). */
struct vc_bo *vc_bo_by_host(struct vcedar *vc, const void *ptr);
void vc_bo_unmapped(struct vcedar *vc, struct vc_bo *bo);
void vc_bo_destroy_all(struct vcedar *vc);

/* vc_cs.c: the CS ioctl */
int vc_cs_ioctl(struct vcedar *vc, void *arg);

/* vc_cp.c: execute a checked (or raw) GFX indirect buffer */
int vc_cp_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err);
void vc_cp_reset(struct vc_cp *cp);
/* vc_dma.c: execute a DMA-ring indirect buffer */
int vc_dma_exec(struct vcedar *vc, const uint32_t *ib, size_t ndw, struct vc_error *err);

/* The vc_mem view of memory handed to the renderer. */
struct vc_mem vc_mem_view(struct vcedar *vc);

/* vc_trace.c: --trace output */
void vc_trace_packet(FILE *f, const struct eg_pm4_packet *p);
void vc_trace_reg(FILE *f, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w);
void vc_trace_draw(FILE *f, const struct vc_regs *regs, const struct vc_draw *d);
void vc_trace_dma(FILE *f, size_t offset, const uint32_t *pkt, const char *what);

/* vc_render_glue.c: vc_render_draw() with the vc_draw_fn signature */
int vc_render_draw_adapter(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                           const struct vc_draw *draw, struct vc_draw_err *err);

/* vc_error.c */
int vc_fail(struct vc_error *err, enum vc_err_code code, uint32_t dword, const char *what,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
