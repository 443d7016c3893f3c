/* --capture: every submission in libdrm's BOF format (src/vcedar/bof.c,
 * one CS per file, as libdrm's CS dump writes them): the IB, the relocation
 * list, and the contents of every buffer it references as the CS will find
 * them (the submission hook runs with the buffers idle).  FILE.bof becomes
 * FILE.000.bof, FILE.001.bof, ... in submission order; `cedar-sim replay`
 * takes them in that order. */
#include <radeon_drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/vc_bof.h"
#include "demo_internal.h"

static int capture_submitting(void *ctx, const struct cedar_demo_plan *plan, unsigned ib_index,
                              const struct drm_radeon_cs_reloc *relocs, unsigned nrelocs,
                              void *const maps[CEDAR_DEMO_BUF_COUNT])
{
    struct cedar_demo_capture *c = ctx;
    const struct cedar_cmdbuf *cb = &plan->ibs[ib_index].cb;
    struct vc_bof_bo bos[CEDAR_DEMO_BUF_COUNT];
    if (nrelocs > CEDAR_DEMO_BUF_COUNT) {
        snprintf(c->err, sizeof c->err, "too many relocations to capture");
        return -1;
    }
    for (unsigned r = 0; r < nrelocs; r++) {
        unsigned id = cb->relocs[r].handle - 1;   /* the plan's buffer id */
        if (id >= CEDAR_DEMO_BUF_COUNT || !maps[id] || plan->bufs[id].size > UINT32_MAX) {
            snprintf(c->err, sizeof c->err, "relocation %u names no capturable buffer", r);
            return -1;
        }
        bos[r] = (struct vc_bof_bo){
            .handle = relocs[r].handle, .size = (uint32_t)plan->bufs[id].size,
            .domain = plan->bufs[id].domain, .data = maps[id],
        };
    }
    struct vc_bof_cs cs = {
        .device_id = c->device_id, .ring = RADEON_CS_RING_GFX,
        .flags = RADEON_CS_KEEP_TILING_FLAGS,
        .relocs = (uint32_t *)(uintptr_t)relocs, .nrelocs = nrelocs,
        .ib = cb->dw, .ndw = (uint32_t)cb->ndw, .bos = bos, .nbos = nrelocs,
    };
    char path[4096];
    size_t n = strlen(c->path);
    int stem = (int)(n > 4 && strcmp(c->path + n - 4, ".bof") == 0 ? n - 4 : n);
    snprintf(path, sizeof path, "%.*s.%03u.bof", stem, c->path, ib_index);
    if (vc_bof_write(path, &cs, c->err, sizeof c->err) != 0)
        return -1;
    c->files++;
    return 0;
}

void cedar_demo_capture_init(struct cedar_demo_capture *c, const char *path, uint32_t device_id,
                             struct cedar_demo_hook *hook)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->device_id = device_id;
    hook->ctx = c;
    hook->submitting = capture_submitting;
}
