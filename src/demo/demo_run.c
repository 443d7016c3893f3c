/* Running the plan on a device, through the ioctl seam only: GEM buffers in
 * VRAM, uploads through GEM_MMAP, one CS ioctl per IB (IB, RELOCS and FLAGS
 * chunks, RADEON_CS_KEEP_TILING_FLAGS), GEM_WAIT_IDLE, then readback.
 *
 * Readback is a CPU mapping (GEM_MMAP) after GEM_WAIT_IDLE rather than a
 * CP_DMA copy into a GTT buffer: the radeon kernel moves a VRAM buffer into
 * the CPU-visible part of VRAM when it is mapped, so the bytes come back
 * exactly as the GPU left them (tiled, with FMask and CMask), and nothing
 * beyond the demo's own four command buffers is submitted. */
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xf86drm.h>

#include "demo_internal.h"

struct gem_buffer {
    uint32_t handle;
    uint64_t size;
    void *map;
};

static void dev_err(struct cedar_dev *dev, const char *what, int rc, char *err, size_t errlen)
{
    char why[256] = "";
    dev->ops->last_error(dev, why, sizeof why);
    snprintf(err, errlen, "%s failed (%s)%s%s", what, strerror(-rc), why[0] ? ": " : "", why);
}

static int gem_create(struct cedar_dev *dev, const struct cedar_demo_buffer *b,
                      struct gem_buffer *g, char *err, size_t errlen)
{
    struct drm_radeon_gem_create c = {
        .size = b->size, .alignment = b->alignment, .initial_domain = b->domain,
    };
    int rc = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c);
    if (rc != 0) {
        char what[96];
        snprintf(what, sizeof what, "GEM_CREATE of the %s buffer (%llu bytes)", b->name,
                 (unsigned long long)b->size);
        dev_err(dev, what, rc, err, errlen);
        return -1;
    }
    g->handle = c.handle;
    g->size = b->size;
    return 0;
}

static int gem_map(struct cedar_dev *dev, struct gem_buffer *g, const char *name, char *err,
                   size_t errlen)
{
    struct drm_radeon_gem_mmap m = { .handle = g->handle, .offset = 0, .size = g->size };
    int rc = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m);
    if (rc != 0) {
        char what[96];
        snprintf(what, sizeof what, "GEM_MMAP of the %s buffer", name);
        dev_err(dev, what, rc, err, errlen);
        return -1;
    }
    g->map = cedar_dev_mmap(dev, m.addr_ptr, (size_t)g->size);
    if (!g->map) {
        snprintf(err, errlen, "mapping the %s buffer failed", name);
        return -1;
    }
    return 0;
}

static void gem_release(struct cedar_dev *dev, struct gem_buffer *g)
{
    if (g->map)
        cedar_dev_munmap(dev, g->map, (size_t)g->size);
    if (g->handle) {
        struct drm_gem_close c = { .handle = g->handle };
        cedar_dev_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &c);
    }
    memset(g, 0, sizeof *g);
}

static int submit_ib(struct cedar_dev *dev, const struct cedar_cmdbuf *cb,
                     const struct drm_radeon_cs_reloc *relocs, char *err, size_t errlen,
                     const char *what)
{
    /* RADEON_CHUNK_ID_FLAGS: flags, ring, priority (radeon_drm.h) */
    uint32_t flags[3] = { RADEON_CS_KEEP_TILING_FLAGS, RADEON_CS_RING_GFX, 0 };
    struct drm_radeon_cs_chunk chunks[3] = {
        { .chunk_id = RADEON_CHUNK_ID_IB, .length_dw = (uint32_t)cb->ndw,
          .chunk_data = (uint64_t)(uintptr_t)cb->dw },
        { .chunk_id = RADEON_CHUNK_ID_RELOCS,
          .length_dw = cb->nrelocs * (uint32_t)(sizeof relocs[0] / 4),
          .chunk_data = (uint64_t)(uintptr_t)relocs },
        { .chunk_id = RADEON_CHUNK_ID_FLAGS, .length_dw = 3,
          .chunk_data = (uint64_t)(uintptr_t)flags },
    };
    uint64_t chunk_ptrs[3] = { (uint64_t)(uintptr_t)&chunks[0], (uint64_t)(uintptr_t)&chunks[1],
                               (uint64_t)(uintptr_t)&chunks[2] };
    struct drm_radeon_cs cs = { .num_chunks = 3, .chunks = (uint64_t)(uintptr_t)chunk_ptrs };
    int rc = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &cs);
    if (rc != 0) {
        char w[96];
        snprintf(w, sizeof w, "submitting the %s command buffer", what);
        dev_err(dev, w, rc, err, errlen);
        return -1;
    }
    return 0;
}

static int wait_idle(struct cedar_dev *dev, struct gem_buffer *g, char *err, size_t errlen)
{
    struct drm_radeon_gem_wait_idle w = { .handle = g->handle };
    int rc = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w);
    if (rc != 0) {
        dev_err(dev, "GEM_WAIT_IDLE", rc, err, errlen);
        return -1;
    }
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cedar_demo_run(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                   const struct cedar_demo_hook *hook, struct cedar_demo_result *res,
                   char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    struct gem_buffer g[CEDAR_DEMO_BUF_COUNT] = {0};
    int ret = -1;
    double t0 = now_seconds();

    for (int i = 0; i < CEDAR_DEMO_BUF_COUNT; i++) {
        const struct cedar_demo_buffer *b = &plan->bufs[i];
        if (!b->used)
            continue;
        if (gem_create(dev, b, &g[i], err, errlen) != 0 ||
            gem_map(dev, &g[i], b->name, err, errlen) != 0)
            goto out;
        if (b->init_data)
            memcpy(g[i].map, b->init_data, b->init_size);
    }

    for (unsigned i = 0; i < plan->nibs; i++) {
        const struct cedar_cmdbuf *cb = &plan->ibs[i].cb;
        struct drm_radeon_cs_reloc relocs[CEDAR_DEMO_BUF_COUNT];
        if (cb->nrelocs > CEDAR_DEMO_BUF_COUNT) {
            snprintf(err, errlen, "the %s command buffer references %u buffers", plan->ibs[i].what,
                     cb->nrelocs);
            goto out;
        }
        /* buffer id + 1 -> GEM handle */
        for (unsigned r = 0; r < cb->nrelocs; r++) {
            relocs[r] = cb->relocs[r];
            unsigned id = cb->relocs[r].handle - 1;
            if (id >= CEDAR_DEMO_BUF_COUNT || !g[id].handle) {
                snprintf(err, errlen, "the %s command buffer references an unknown buffer",
                         plan->ibs[i].what);
                goto out;
            }
            relocs[r].handle = g[id].handle;
        }
        if (hook && hook->submitting) {
            /* A capture holds what the CS will find in its buffers: wait
             * for the previous submissions to finish writing them. */
            void *maps[CEDAR_DEMO_BUF_COUNT];
            for (int b = 0; b < CEDAR_DEMO_BUF_COUNT; b++) {
                maps[b] = g[b].map;
                if (g[b].handle && wait_idle(dev, &g[b], err, errlen) != 0)
                    goto out;
            }
            if (hook->submitting(hook->ctx, plan, i, relocs, cb->nrelocs, maps) != 0) {
                snprintf(err, errlen, "recording the %s submission failed", plan->ibs[i].what);
                goto out;
            }
        }
        if (submit_ib(dev, cb, relocs, err, errlen, plan->ibs[i].what) != 0)
            goto out;
        res->dwords_submitted += cb->ndw;
        res->submissions++;
    }

    /* Read back once everything that writes the buffers is done. */
    if (wait_idle(dev, &g[CEDAR_DEMO_BUF_COLOR], err, errlen) != 0)
        goto out;
    res->color_size = (size_t)g[CEDAR_DEMO_BUF_COLOR].size;
    res->color = malloc(res->color_size);
    if (!res->color) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    memcpy(res->color, g[CEDAR_DEMO_BUF_COLOR].map, res->color_size);
    if (plan->bufs[CEDAR_DEMO_BUF_RESOLVE].used) {
        if (wait_idle(dev, &g[CEDAR_DEMO_BUF_RESOLVE], err, errlen) != 0)
            goto out;
        res->resolve_size = (size_t)g[CEDAR_DEMO_BUF_RESOLVE].size;
        res->resolve = malloc(res->resolve_size);
        if (!res->resolve) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        memcpy(res->resolve, g[CEDAR_DEMO_BUF_RESOLVE].map, res->resolve_size);
    }
    res->seconds = now_seconds() - t0;
    ret = 0;
out:
    for (int i = 0; i < CEDAR_DEMO_BUF_COUNT; i++)
        gem_release(dev, &g[i]);
    if (ret != 0)
        cedar_demo_result_free(res);
    return ret;
}

void cedar_demo_result_free(struct cedar_demo_result *res)
{
    free(res->color);
    free(res->resolve);
    res->color = res->resolve = NULL;
    res->color_size = res->resolve_size = 0;
}
