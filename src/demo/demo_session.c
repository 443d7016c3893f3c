/* A plan's buffers on a device (cedar/demo.h: cedar_demo_session_*), and
 * the ioctl plumbing every run of the demo goes through (demo_internal.h:
 * demo_session_create / _submit / _wait, which cedar_demo_run uses too, for
 * one frame): GEM_CREATE + GEM_MMAP of every used buffer, uploads through
 * the mapping, one CS ioctl per IB (IB, RELOCS and FLAGS chunks,
 * RADEON_CS_KEEP_TILING_FLAGS), GEM_WAIT_IDLE.
 *
 * A session keeps its buffers across frames, as an application keeps its
 * framebuffers: the "init" IB once (the CMask starts as "nothing
 * compressed" when the buffer is created, Mesa's cs_001), then per frame the
 * other IBs (clear, draw, resolve) and GEM_WAIT_IDLE on the buffers they
 * write. */
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "demo_internal.h"

struct session_buffer {
    uint32_t handle;
    uint64_t size;
    void *map;
};

struct cedar_demo_session {
    struct cedar_dev *dev;
    const struct cedar_demo_plan *plan;
    struct session_buffer bufs[CEDAR_DEMO_BUF_COUNT];
};

static void session_err(struct cedar_dev *dev, const char *what, int rc, char *err, size_t errlen)
{
    char why[256] = "";
    dev->ops->last_error(dev, why, sizeof why);
    snprintf(err, errlen, "%s failed (%s)%s%s", what, strerror(-rc), why[0] ? ": " : "", why);
}

static int create_and_map(struct cedar_demo_session *s, enum cedar_demo_buf id, char *err,
                          size_t errlen)
{
    const struct cedar_demo_buffer *b = &s->plan->bufs[id];
    struct session_buffer *g = &s->bufs[id];
    char what[96];
    struct drm_radeon_gem_create c = {
        .size = b->size, .alignment = b->alignment, .initial_domain = b->domain,
    };
    int rc = cedar_dev_ioctl(s->dev, DRM_IOCTL_RADEON_GEM_CREATE, &c);
    if (rc != 0) {
        snprintf(what, sizeof what, "GEM_CREATE of the %s buffer (%llu bytes)", b->name,
                 (unsigned long long)b->size);
        session_err(s->dev, what, rc, err, errlen);
        return -1;
    }
    g->handle = c.handle;
    g->size = b->size;
    struct drm_radeon_gem_mmap m = {.handle = g->handle, .offset = 0, .size = g->size};
    rc = cedar_dev_ioctl(s->dev, DRM_IOCTL_RADEON_GEM_MMAP, &m);
    if (rc != 0) {
        snprintf(what, sizeof what, "GEM_MMAP of the %s buffer", b->name);
        session_err(s->dev, what, rc, err, errlen);
        return -1;
    }
    g->map = cedar_dev_mmap(s->dev, m.addr_ptr, (size_t)g->size);
    if (!g->map) {
        snprintf(err, errlen, "mapping the %s buffer failed", b->name);
        return -1;
    }
    if (b->init_data)
        memcpy(g->map, b->init_data, b->init_size);
    return 0;
}

/* One CS ioctl for cb (IB `index` of the plan when a hook is given). */
static int submit(struct cedar_demo_session *s, const struct cedar_cmdbuf *cb, const char *what, unsigned index,
                  const struct cedar_demo_hook *hook, char *err, size_t errlen)
{
    struct drm_radeon_cs_reloc relocs[CEDAR_DEMO_BUF_COUNT];
    if (cb->error) {
        snprintf(err, errlen, "building the %s command buffer failed (%d)", what, cb->error);
        return -1;
    }
    if (cb->nrelocs > CEDAR_DEMO_BUF_COUNT) {
        snprintf(err, errlen, "the %s command buffer references %u buffers", what, cb->nrelocs);
        return -1;
    }
    for (unsigned r = 0; r < cb->nrelocs; r++) {
        relocs[r] = cb->relocs[r];
        unsigned id = cb->relocs[r].handle - 1;
        if (id >= CEDAR_DEMO_BUF_COUNT || !s->bufs[id].handle) {
            snprintf(err, errlen, "the %s command buffer references an unknown buffer", what);
            return -1;
        }
        relocs[r].handle = s->bufs[id].handle;
    }
    if (hook && hook->submitting) {
        /* A capture holds what the CS will find in its buffers: wait for
         * the previous submissions to finish writing them. */
        void *maps[CEDAR_DEMO_BUF_COUNT];
        for (int b = 0; b < CEDAR_DEMO_BUF_COUNT; b++) {
            maps[b] = s->bufs[b].map;
            if (demo_session_wait(s, (enum cedar_demo_buf)b, err, errlen) != 0)
                return -1;
        }
        if (hook->submitting(hook->ctx, s->plan, index, relocs, cb->nrelocs, maps) != 0) {
            snprintf(err, errlen, "recording the %s submission failed", what);
            return -1;
        }
    }
    /* RADEON_CHUNK_ID_FLAGS: flags, ring, priority (radeon_drm.h) */
    uint32_t flags[3] = {RADEON_CS_KEEP_TILING_FLAGS, RADEON_CS_RING_GFX, 0};
    struct drm_radeon_cs_chunk chunks[3] = {
        {.chunk_id = RADEON_CHUNK_ID_IB, .length_dw = (uint32_t)cb->ndw,
         .chunk_data = (uint64_t)(uintptr_t)cb->dw},
        {.chunk_id = RADEON_CHUNK_ID_RELOCS,
         .length_dw = cb->nrelocs * (uint32_t)(sizeof relocs[0] / 4),
         .chunk_data = (uint64_t)(uintptr_t)relocs},
        {.chunk_id = RADEON_CHUNK_ID_FLAGS, .length_dw = 3,
         .chunk_data = (uint64_t)(uintptr_t)flags},
    };
    uint64_t chunk_ptrs[3] = {(uint64_t)(uintptr_t)&chunks[0], (uint64_t)(uintptr_t)&chunks[1],
                              (uint64_t)(uintptr_t)&chunks[2]};
    struct drm_radeon_cs cs = {.num_chunks = 3, .chunks = (uint64_t)(uintptr_t)chunk_ptrs};
    int rc = cedar_dev_ioctl(s->dev, DRM_IOCTL_RADEON_CS, &cs);
    if (rc != 0) {
        char doing[96];
        snprintf(doing, sizeof doing, "submitting the %s command buffer", what);
        session_err(s->dev, doing, rc, err, errlen);
        return -1;
    }
    return 0;
}

int demo_session_submit(struct cedar_demo_session *s, unsigned index, const struct cedar_demo_hook *hook,
                        char *err, size_t errlen)
{
    const struct cedar_demo_ib *ib = &s->plan->ibs[index];
    return submit(s, &ib->cb, ib->what, index, hook, err, errlen);
}

int cedar_demo_session_submit_cb(struct cedar_demo_session *s, const struct cedar_cmdbuf *cb, const char *what,
                                 char *err, size_t errlen)
{
    return submit(s, cb, what, 0, NULL, err, errlen);
}

int cedar_demo_session_wait_idle(struct cedar_demo_session *s, char *err, size_t errlen)
{
    for (int b = 0; b < CEDAR_DEMO_BUF_COUNT; b++)
        if (demo_session_wait(s, (enum cedar_demo_buf)b, err, errlen) != 0)
            return -1;
    return 0;
}

int demo_session_wait(struct cedar_demo_session *s, enum cedar_demo_buf id, char *err, size_t errlen)
{
    if (!s->bufs[id].handle)
        return 0;
    struct drm_radeon_gem_wait_idle w = {.handle = s->bufs[id].handle};
    int rc = cedar_dev_ioctl(s->dev, DRM_IOCTL_RADEON_GEM_WAIT_IDLE, &w);
    if (rc != 0) {
        session_err(s->dev, "GEM_WAIT_IDLE", rc, err, errlen);
        return -1;
    }
    return 0;
}

static bool is_init_ib(const struct cedar_demo_ib *ib)
{
    return strcmp(ib->what, "init") == 0;
}

int demo_session_create(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                        struct cedar_demo_session **out, char *err, size_t errlen)
{
    *out = NULL;
    struct cedar_demo_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->dev = dev;
    s->plan = plan;
    for (int i = 0; i < CEDAR_DEMO_BUF_COUNT; i++)
        if (plan->bufs[i].used && create_and_map(s, (enum cedar_demo_buf)i, err, errlen) != 0) {
            cedar_demo_session_close(s);
            return -1;
        }
    *out = s;
    return 0;
}

int cedar_demo_session_open(struct cedar_dev *dev, const struct cedar_demo_plan *plan,
                            struct cedar_demo_session **out, char *err, size_t errlen)
{
    struct cedar_demo_session *s;
    if (demo_session_create(dev, plan, &s, err, errlen) != 0) {
        *out = NULL;
        return -1;
    }
    for (unsigned i = 0; i < plan->nibs; i++)
        if (is_init_ib(&plan->ibs[i]) && demo_session_submit(s, i, NULL, err, errlen) != 0) {
            cedar_demo_session_close(s);
            *out = NULL;
            return -1;
        }
    *out = s;
    return 0;
}

int cedar_demo_session_frame(struct cedar_demo_session *s, char *err, size_t errlen)
{
    for (unsigned i = 0; i < s->plan->nibs; i++)
        if (!is_init_ib(&s->plan->ibs[i]) && demo_session_submit(s, i, NULL, err, errlen) != 0)
            return -1;
    if (demo_session_wait(s, CEDAR_DEMO_BUF_COLOR, err, errlen) != 0 ||
        demo_session_wait(s, CEDAR_DEMO_BUF_RESOLVE, err, errlen) != 0)
        return -1;
    return 0;
}

const void *cedar_demo_session_map(const struct cedar_demo_session *s, enum cedar_demo_buf id,
                                   size_t *size)
{
    if ((unsigned)id >= CEDAR_DEMO_BUF_COUNT || !s->bufs[id].map) {
        if (size)
            *size = 0;
        return NULL;
    }
    if (size)
        *size = (size_t)s->bufs[id].size;
    return s->bufs[id].map;
}

struct cedar_dev *cedar_demo_session_device(const struct cedar_demo_session *s)
{
    return s->dev;
}

void *cedar_demo_session_map_rw(struct cedar_demo_session *s, enum cedar_demo_buf id, size_t *size)
{
    if ((unsigned)id >= CEDAR_DEMO_BUF_COUNT || !s->bufs[id].map) {
        if (size)
            *size = 0;
        return NULL;
    }
    if (size)
        *size = (size_t)s->bufs[id].size;
    return s->bufs[id].map;
}

void cedar_demo_session_close(struct cedar_demo_session *s)
{
    if (!s)
        return;
    for (int i = 0; i < CEDAR_DEMO_BUF_COUNT; i++) {
        struct session_buffer *g = &s->bufs[i];
        if (g->map)
            cedar_dev_munmap(s->dev, g->map, (size_t)g->size);
        if (g->handle) {
            struct drm_gem_close c = {.handle = g->handle};
            cedar_dev_ioctl(s->dev, DRM_IOCTL_GEM_CLOSE, &c);
        }
    }
    free(s);
}
