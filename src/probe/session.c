/* A session for experiments (cedar/probe.h): the demo's plan built with the
 * experiment's vertices and a scratch buffer, its buffers on the device,
 * and IBs of the probe's own: the demo's draw state, then the experiment's
 * packets (SAMPLE_PIPELINESTAT, DRAW_INDEX, EOP timestamps) with their
 * relocations, submitted through the ioctl seam and waited for.
 *
 * The scratch buffer: counter samples and timestamps in its first 4 KiB,
 * the index list after them. */
#include <errno.h>
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/probe.h"
#include "eg_regs.h"

#define RESULTS_BYTES 4096u
#define IB_MAX_DW (16u * 1024u)     /* the kernel's GFX IB limit on r600+ */
#define SCRATCH CEDAR_DEMO_RELOC_HANDLE(CEDAR_DEMO_BUF_SCRATCH)

struct cedar_probe {
    struct cedar_demo_plan plan;
    struct cedar_demo_session *session;
    uint8_t *scratch;
    size_t scratch_size;
    struct cedar_cmdbuf cb;
};

int cedar_probe_open(struct cedar_dev *dev, const struct cedar_probe_config *cfg, struct cedar_probe **out,
                     char *err, size_t errlen)
{
    *out = NULL;
    struct cedar_probe *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct cedar_demo_config dc;
    cedar_demo_config_default(&dc);
    dc.width = cfg->width;
    dc.height = cfg->height;
    dc.samples = cfg->samples;
    dc.fast_clear = cfg->fast_clear;
    dc.tiling = cfg->tiling;
    dc.extra_vertices = cfg->vertices;
    dc.num_extra_vertices = cfg->num_vertices;
    dc.scratch_size = (RESULTS_BYTES + 4 * (uint64_t)cfg->max_indices + 4095) & ~(uint64_t)4095;
    cedar_cmdbuf_init(&p->cb, IB_MAX_DW);
    if (cedar_demo_plan_build(&dc, &p->plan, err, errlen) != 0 ||
        cedar_demo_session_open(dev, &p->plan, &p->session, err, errlen) != 0) {
        cedar_probe_close(p);
        return -1;
    }
    p->scratch = cedar_demo_session_map_rw(p->session, CEDAR_DEMO_BUF_SCRATCH, &p->scratch_size);
    if (!p->scratch) {
        snprintf(err, errlen, "the scratch buffer has no mapping");
        cedar_probe_close(p);
        return -1;
    }
    *out = p;
    return 0;
}

void cedar_probe_close(struct cedar_probe *p)
{
    if (!p)
        return;
    cedar_demo_session_close(p->session);
    cedar_demo_plan_free(&p->plan);
    cedar_cmdbuf_fini(&p->cb);
    free(p);
}

/* ---- packets ------------------------------------------------------------------ */

static void sample_pipelinestat(struct cedar_cmdbuf *cb, uint32_t offset)
{
    uint32_t ev[3] = { S_EVENT_CNTL__EVENT_TYPE(V_VGT_EVENT_TYPE__SAMPLE_PIPELINESTAT) |
                           S_EVENT_CNTL__EVENT_INDEX(V_EVENT_INDEX__EVENT_INDEX_SAMPLE_PIPELINESTAT),
                       offset, 0 };
    cedar_cmdbuf_packet(cb, PKT3_EVENT_WRITE, ev, 3);
    cedar_cmdbuf_reloc(cb, SCRATCH, 0, RADEON_GEM_DOMAIN_GTT, 0);
}

/* The 64-bit GPU clock at the end of the pipe (Mesa's timestamp query:
 * CACHE_FLUSH_AND_INV_TS_EVENT, DATA_SEL 3). */
static void timestamp(struct cedar_cmdbuf *cb, uint32_t offset)
{
    uint32_t eop[5] = { S_EVENT_CNTL__EVENT_TYPE(V_VGT_EVENT_TYPE__CACHE_FLUSH_AND_INV_TS_EVENT) |
                            S_EVENT_CNTL__EVENT_INDEX(V_EVENT_INDEX__EVENT_INDEX_TS),
                        offset, S_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(V_EOP_DATA_SEL__DATA_SEL_COUNTER64), 0, 0 };
    cedar_cmdbuf_packet(cb, PKT3_EVENT_WRITE_EOP, eop, 5);
    cedar_cmdbuf_reloc(cb, SCRATCH, 0, RADEON_GEM_DOMAIN_GTT, 0);
}

/* Mesa starts the counters when a pipeline-statistics query is active
 * (r600_set_active_query_state: EVENT_WRITE PIPELINESTAT_START). */
static void pipelinestat_start(struct cedar_cmdbuf *cb)
{
    uint32_t ev = S_EVENT_CNTL__EVENT_TYPE(V_VGT_EVENT_TYPE__PIPELINESTAT_START);
    cedar_cmdbuf_packet(cb, PKT3_EVENT_WRITE, &ev, 1);
}

/* Waits for the session's buffers; -1 when the device reported a fault. */
static int finish(struct cedar_probe *p, const char *what, char *err, size_t errlen)
{
    if (cedar_demo_session_wait_idle(p->session, err, errlen) != 0)
        return -1;
    char fault[256];
    if (cedar_demo_device_fault(cedar_demo_session_device(p->session), fault, sizeof fault)) {
        snprintf(err, errlen, "the device faulted running the %s IB: %s", what, fault);
        return -1;
    }
    return 0;
}

static int run(struct cedar_probe *p, const char *what, char *err, size_t errlen)
{
    cedar_demo_emit_flush(&p->cb);
    cedar_cmdbuf_pad(&p->cb, 8);
    if (cedar_demo_session_submit_cb(p->session, &p->cb, what, err, errlen) != 0)
        return -1;
    return finish(p, what, err, errlen);
}

/* ---- experiments ------------------------------------------------------------- */

int cedar_probe_draw_stats(struct cedar_probe *p, uint32_t prim_type, const uint32_t *indices, size_t count,
                           struct cedar_pipestats *delta, char *err, size_t errlen)
{
    if (4 * (uint64_t)count > p->scratch_size - RESULTS_BYTES || count > UINT32_MAX) {
        snprintf(err, errlen, "%zu indices do not fit the scratch buffer", count);
        return -1;
    }
    memcpy(p->scratch + RESULTS_BYTES, indices, 4 * count);
    memset(p->scratch, 0xFF, 2 * CEDAR_PIPESTATS_BYTES);   /* a sample not written shows */
    struct cedar_cmdbuf *cb = &p->cb;
    cedar_cmdbuf_reset(cb);
    cedar_demo_emit_extra_state(cb, &p->plan, prim_type);
    pipelinestat_start(cb);
    uint32_t it = S_INDEX_TYPE_INDEX_TYPE__INDEX_TYPE(V_VGT_INDEX_TYPE__INDEX_32);
    cedar_cmdbuf_packet(cb, PKT3_INDEX_TYPE, &it, 1);
    sample_pipelinestat(cb, 0);
    uint32_t draw[4] = { RESULTS_BYTES, 0, (uint32_t)count,
                         S_VGT_DRAW_INITIATOR__SOURCE_SELECT(V_VGT_DI_SRC_SEL__DI_SRC_SEL_DMA) };
    cedar_cmdbuf_packet(cb, PKT3_DRAW_INDEX, draw, 4);
    cedar_cmdbuf_reloc(cb, SCRATCH, RADEON_GEM_DOMAIN_GTT, 0, 0);
    sample_pipelinestat(cb, CEDAR_PIPESTATS_BYTES);
    if (run(p, "draw-stats", err, errlen) != 0)
        return -1;
    struct cedar_pipestats begin, end;
    cedar_pipestats_decode(p->scratch, &begin);
    cedar_pipestats_decode(p->scratch + CEDAR_PIPESTATS_BYTES, &end);
    cedar_pipestats_sub(&end, &begin, delta);
    return 0;
}

/* The two timestamps' difference; -1 when the GPU did not write them (the
 * slots were zeroed before) or the clock went back. */
static int elapsed(const struct cedar_probe *p, uint64_t *ticks, char *err, size_t errlen)
{
    uint64_t t[2];
    memcpy(t, p->scratch, sizeof t);
    if (!t[1] || t[1] < t[0]) {
        snprintf(err, errlen, "the timestamps read %llu and %llu", (unsigned long long)t[0],
                 (unsigned long long)t[1]);
        return -1;
    }
    *ticks = t[1] - t[0];
    return 0;
}

int cedar_probe_time_plan_ib(struct cedar_probe *p, const char *what, uint64_t *ticks, char *err, size_t errlen)
{
    unsigned ib = p->plan.nibs;
    for (unsigned i = 0; i < p->plan.nibs; i++)
        if (!strcmp(p->plan.ibs[i].what, what))
            ib = i;
    if (ib == p->plan.nibs) {
        snprintf(err, errlen, "the plan has no %s IB", what);
        return -1;
    }
    memset(p->scratch, 0, 16);
    for (unsigned k = 0; k < 3; k++) {
        struct cedar_cmdbuf *cb = &p->cb;
        cedar_cmdbuf_reset(cb);
        if (k == 1) {
            if (cedar_demo_session_submit_cb(p->session, &p->plan.ibs[ib].cb, what, err, errlen) != 0)
                return -1;
            continue;
        }
        timestamp(cb, k == 0 ? 0 : 8);
        cedar_cmdbuf_pad(cb, 8);
        if (cedar_demo_session_submit_cb(p->session, cb, "timestamp", err, errlen) != 0)
            return -1;
    }
    if (finish(p, what, err, errlen) != 0)
        return -1;
    return elapsed(p, ticks, err, errlen);
}

int cedar_probe_time_draw(struct cedar_probe *p, unsigned first, unsigned count, uint64_t *ticks, char *err,
                          size_t errlen)
{
    if ((uint64_t)first + count > p->plan.cfg.num_extra_vertices) {
        snprintf(err, errlen, "vertices %u..%u are not the experiment's", first, first + count);
        return -1;
    }
    memset(p->scratch, 0, 16);
    struct cedar_cmdbuf *cb = &p->cb;
    cedar_cmdbuf_reset(cb);
    cedar_demo_emit_extra_state(cb, &p->plan, V_VGT_DI_PRIM_TYPE__DI_PT_TRILIST);
    /* non-indexed draws start at VGT_INDX_OFFSET (Mesa: the draw's start) */
    cedar_cmdbuf_set_context_reg(cb, REG_VGT_INDX_OFFSET, first);
    timestamp(cb, 0);
    uint32_t draw[2] = { count, S_VGT_DRAW_INITIATOR__SOURCE_SELECT(V_VGT_DI_SRC_SEL__DI_SRC_SEL_AUTO_INDEX) };
    cedar_cmdbuf_packet(cb, PKT3_DRAW_INDEX_AUTO, draw, 2);
    timestamp(cb, 8);
    if (run(p, "timed draw", err, errlen) != 0)
        return -1;
    return elapsed(p, ticks, err, errlen);
}

int cedar_probe_clock_khz(struct cedar_dev *dev, uint32_t *khz)
{
    struct drm_radeon_info info = { .request = RADEON_INFO_CLOCK_CRYSTAL_FREQ, .value = (uintptr_t)khz };
    return cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &info) == 0 ? 0 : -1;
}
