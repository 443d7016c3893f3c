/* What the demo says to the kernel, recorded by a backend of the ioctl seam
 * that keeps buffers in host memory and checks every struct the way the
 * radeon kernel reads it: GEM_CREATE sizes and domains, GEM_MMAP offsets,
 * the CS chunks (IB, RELOCS, FLAGS with KEEP_TILING_FLAGS on the GFX ring),
 * relocation handles that are GEM handles, GEM_WAIT_IDLE before readback,
 * GEM_CLOSE of everything.  The backend draws nothing, so the frame read
 * back is the buffers' initial bytes: this checks the plumbing, never the
 * rendering. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <xf86drm.h>
#include <radeon_drm.h>

#include "cedar/demo.h"

#define MAX_BO 16
#define FILL 0x5A

struct rec {
    struct { uint64_t size; uint32_t domain; uint8_t *mem; bool closed; } bo[MAX_BO];
    unsigned nbo;
    unsigned cs, wait_idle, mmaps;
    uint64_t dwords;
    int fail_cs_at;          /* -1: never */
    bool waited_before_read;
};

static int rec_ioctl(struct cedar_dev *dev, unsigned long request, void *arg)
{
    struct rec *r = dev->priv;
    if (request == DRM_IOCTL_RADEON_GEM_CREATE) {
        struct drm_radeon_gem_create *c = arg;
        assert_true(c->size > 0);
        assert_int_equal(c->initial_domain, RADEON_GEM_DOMAIN_VRAM);
        assert_true(c->alignment >= 256 && (c->alignment & (c->alignment - 1)) == 0);
        assert_true(r->nbo < MAX_BO);
        unsigned i = r->nbo++;
        r->bo[i].size = c->size;
        r->bo[i].domain = c->initial_domain;
        r->bo[i].mem = malloc(c->size);
        memset(r->bo[i].mem, FILL, c->size);
        c->handle = i + 100;   /* GEM handles are not buffer indices */
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_GEM_MMAP) {
        struct drm_radeon_gem_mmap *m = arg;
        unsigned i = m->handle - 100;
        assert_true(i < r->nbo);
        assert_int_equal(m->offset, 0);
        assert_int_equal(m->size, r->bo[i].size);
        m->addr_ptr = (uint64_t)i << 32;   /* a fake offset, as the kernel's */
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_CS) {
        struct drm_radeon_cs *cs = arg;
        if (r->fail_cs_at == (int)r->cs)
            return -EINVAL;
        assert_int_equal(cs->num_chunks, 3);
        const uint64_t *ptrs = (const uint64_t *)(uintptr_t)cs->chunks;
        const struct drm_radeon_cs_chunk *ib = NULL, *rel = NULL, *fl = NULL;
        for (unsigned i = 0; i < 3; i++) {
            const struct drm_radeon_cs_chunk *c = (const void *)(uintptr_t)ptrs[i];
            if (c->chunk_id == RADEON_CHUNK_ID_IB) ib = c;
            if (c->chunk_id == RADEON_CHUNK_ID_RELOCS) rel = c;
            if (c->chunk_id == RADEON_CHUNK_ID_FLAGS) fl = c;
        }
        assert_non_null(ib);
        assert_non_null(rel);
        assert_non_null(fl);
        assert_true(ib->length_dw > 0 && ib->length_dw <= 16 * 1024);
        const uint32_t *flags = (const uint32_t *)(uintptr_t)fl->chunk_data;
        assert_int_equal(fl->length_dw, 3);
        assert_int_equal(flags[0], RADEON_CS_KEEP_TILING_FLAGS);
        assert_int_equal(flags[1], RADEON_CS_RING_GFX);
        assert_int_equal(rel->length_dw % 4, 0);
        const struct drm_radeon_cs_reloc *rl = (const void *)(uintptr_t)rel->chunk_data;
        for (unsigned i = 0; i < rel->length_dw / 4; i++) {
            unsigned b = rl[i].handle - 100;
            assert_true(b < r->nbo);
            assert_false(r->bo[b].closed);
            /* exactly one domain read or written, never the CPU */
            assert_true(rl[i].read_domains == RADEON_GEM_DOMAIN_VRAM ||
                        rl[i].write_domain == RADEON_GEM_DOMAIN_VRAM);
        }
        /* every NOP relocation index is inside the list */
        const uint32_t *dw = (const uint32_t *)(uintptr_t)ib->chunk_data;
        for (unsigned i = 0; i + 1 < ib->length_dw; i++)
            if (dw[i] == 0xC0001000u)   /* PACKET3 NOP, one payload dword */
                assert_true(dw[i + 1] / 4 < rel->length_dw / 4);
        r->dwords += ib->length_dw;
        r->cs++;
        return 0;
    }
    if (request == DRM_IOCTL_RADEON_GEM_WAIT_IDLE) {
        struct drm_radeon_gem_wait_idle *w = arg;
        assert_true(w->handle - 100 < r->nbo);
        r->wait_idle++;
        return 0;
    }
    if (request == DRM_IOCTL_GEM_CLOSE) {
        struct drm_gem_close *c = arg;
        unsigned i = c->handle - 100;
        assert_true(i < r->nbo);
        assert_false(r->bo[i].closed);
        r->bo[i].closed = true;
        return 0;
    }
    fail_msg("unexpected ioctl 0x%lx", request);
    return -EINVAL;
}

static void *rec_mmap(struct cedar_dev *dev, uint64_t offset, size_t size)
{
    struct rec *r = dev->priv;
    unsigned i = (unsigned)(offset >> 32);
    assert_true(i < r->nbo);
    assert_int_equal(size, r->bo[i].size);
    r->mmaps++;
    return r->bo[i].mem;
}

static int rec_munmap(struct cedar_dev *dev, void *ptr, size_t size)
{
    (void)dev, (void)ptr, (void)size;
    return 0;
}

static void rec_last_error(struct cedar_dev *dev, char *buf, size_t len)
{
    (void)dev;
    snprintf(buf, len, "recorder refused it");
}

static const struct cedar_dev_ops rec_ops = {
    .name = "recorder", .ioctl = rec_ioctl, .mmap = rec_mmap, .munmap = rec_munmap,
    .last_error = rec_last_error,
};

static void rec_free(struct rec *r)
{
    for (unsigned i = 0; i < r->nbo; i++)
        free(r->bo[i].mem);
}

static void run_marshals_like_the_kernel(void **state)
{
    (void)state;
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    struct cedar_demo_plan plan;
    char err[256];
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), 0);

    struct rec r = { .fail_cs_at = -1 };
    struct cedar_dev dev = { .ops = &rec_ops, .fd = -1, .priv = &r };
    struct cedar_demo_result res;
    assert_int_equal(cedar_demo_run(&dev, &plan, NULL, &res, err, sizeof err), 0);
    assert_int_equal(r.cs, plan.nibs);
    assert_int_equal(res.submissions, plan.nibs);
    assert_int_equal(r.dwords, res.dwords_submitted);
    assert_int_equal(r.nbo, 4);           /* msaa, resolve, vertices, shaders */
    assert_true(r.wait_idle >= 2);
    /* the result holds the buffers (read back as their mappings) until freed */
    for (unsigned i = 0; i < r.nbo; i++)
        assert_false(r.bo[i].closed);
    /* the uploads landed in the buffers the plan describes */
    assert_memory_equal(r.bo[CEDAR_DEMO_BUF_SHADERS].mem, plan.shader_code, plan.shader_size);
    assert_memory_equal(r.bo[CEDAR_DEMO_BUF_VERTICES].mem, plan.vertices, plan.vertices_size);
    assert_int_equal(r.bo[CEDAR_DEMO_BUF_COLOR].size, plan.layout.total_size);
    assert_int_equal(r.bo[CEDAR_DEMO_BUF_RESOLVE].size, plan.layout.resolve.size);
    /* readback is the buffer as it stood (this backend never draws) */
    assert_int_equal(res.resolve_size, plan.layout.resolve.size);
    assert_int_equal(res.resolve[0], FILL);
    assert_int_equal(res.color[res.color_size - 1], FILL);

    /* the output files exist with the sizes the layouts give */
    char dir[] = "/tmp/cedar-demo-run-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(cedar_demo_write_outputs(&plan, &res, dir, err, sizeof err), 0);
    const struct { const char *name; uint64_t size; } files[] = {
        { "frame.tiled.bin", plan.layout.resolve.size },
        { "msaa.color.bin", plan.layout.color.size },
        { "msaa.fmask.bin", plan.layout.fmask.surf.size },
        { "msaa.cmask.bin", plan.layout.cmask.size },
        { "frame.png", 0 }, { "edge-zoom.png", 0 }, { "fmask-fragments.png", 0 },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        assert_int_equal(stat(path, &st), 0);
        if (files[i].size)
            assert_int_equal((uint64_t)st.st_size, files[i].size);
        else
            assert_true(st.st_size > 0);
        unlink(path);
    }
    rmdir(dir);
    cedar_demo_result_free(&res);
    for (unsigned i = 0; i < r.nbo; i++)
        assert_true(r.bo[i].closed);
    rec_free(&r);
    cedar_demo_plan_free(&plan);
}

static void rejected_cs_stops_and_releases(void **state)
{
    (void)state;
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    struct cedar_demo_plan plan;
    char err[256];
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), 0);
    struct rec r = { .fail_cs_at = 2 };
    struct cedar_dev dev = { .ops = &rec_ops, .fd = -1, .priv = &r };
    strcpy(dev.node, "recorder");
    struct cedar_demo_result res;
    assert_int_equal(cedar_demo_run(&dev, &plan, NULL, &res, err, sizeof err), -1);
    assert_non_null(strstr(err, "draw"));
    assert_non_null(strstr(err, "recorder refused it"));
    assert_int_equal(r.cs, 2);            /* nothing after the refused one */
    for (unsigned i = 0; i < r.nbo; i++)
        assert_true(r.bo[i].closed);
    assert_null(res.color);
    rec_free(&r);
    cedar_demo_plan_free(&plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(run_marshals_like_the_kernel),
        cmocka_unit_test(rejected_cs_stops_and_releases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
