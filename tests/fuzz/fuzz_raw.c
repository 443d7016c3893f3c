/* The virtual Cedar's bare-metal path (vcedar_exec_raw), the way cedar-sim
 * replay-ib reaches it.  Input: a flags byte (bit 0: the DMA ring, bit 1:
 * draws rendered, else only validated; not above FUZZ_MAX_DRAW_VERTICES
 * vertices, see fuzz_draw_budget.h), a count of memory chunks (0..7) and
 * per chunk a GPU address (32 bits, inside the region) and a 16-bit length
 * and that many bytes (shaders, vertices), then the IB's dwords, in a heap
 * block of exactly their size.  GPU memory is one region [0, 16 MiB).
 * Invariants: the call returns 0 exactly when no fault was recorded, a
 * fault is one line with a valid code, vcedar_exec_error agrees; without
 * rendering, the same IB on a fresh model gives the same statistics and the
 * same fault (no state or uninitialised memory leaks into a run). */
#include <stdbool.h>

#include "cedar/vcedar.h"
#include "fuzz_draw_budget.h"
#include "fuzz_util.h"

#define REGION (16u << 20)

#define MAX_CHUNKS 7

struct chunk {
    uint32_t addr;
    size_t len;
    const uint8_t *data;
};

struct outcome {
    int r;
    struct vc_error err;
    struct vcedar_stats st;
};

static void run(bool dma, bool render, const struct chunk *mem, unsigned nchunks, const uint32_t *ib, size_t ndw,
                struct outcome *o)
{
    struct vcedar_opts opts = { .no_render = !render };
    struct vcedar *vc = vcedar_create(&opts);
    FUZZ_CHECK(vc, "vcedar_create failed");
    FUZZ_CHECK(vcedar_map_region(vc, 0, REGION) == 0, "cannot map the region");
    for (unsigned k = 0; k < nchunks; k++)
        FUZZ_CHECK(vcedar_mem_write(vc, mem[k].addr, mem[k].data, mem[k].len) == 0, "cannot load memory");
    memset(o, 0, sizeof *o);
    o->r = vcedar_exec_raw(vc, dma ? VC_RING_DMA : VC_RING_GFX, ib, ndw, &o->err);
    const struct vc_error *x = vcedar_exec_error(vc);
    if (o->r == 0) {
        FUZZ_CHECK(o->err.code == VC_OK && x->code == VC_OK, "success with a fault recorded");
    } else {
        FUZZ_CHECK(o->r == -1, "status %d", o->r);
        FUZZ_CHECK(o->err.code > VC_OK && o->err.code < VC_E_COUNT_, "fault code %d", (int)o->err.code);
        FUZZ_CHECK(x->code == o->err.code && x->dword == o->err.dword && !strcmp(x->text, o->err.text),
                   "vcedar_exec_error differs from the returned fault");
        FUZZ_CHECK(o->err.dword < ndw, "fault at dword %u of %zu", o->err.dword, ndw);
        char line[400];
        vc_error_format(&o->err, line, sizeof line);
        fuzz_check_line("fault", line);
    }
    vcedar_stats(vc, &o->st);
    vcedar_destroy(vc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_in in = { data, size };
    uint8_t flags = fuzz_u8(&in);
    struct chunk mem[MAX_CHUNKS];
    unsigned nchunks = fuzz_u8(&in) % (MAX_CHUNKS + 1);
    for (unsigned k = 0; k < nchunks; k++) {
        size_t len = fuzz_u16(&in);
        mem[k].addr = fuzz_u32(&in) % (REGION - 65536);
        mem[k].len = len < in.n ? len : in.n;
        mem[k].data = in.p;
        in.p += mem[k].len;
        in.n -= mem[k].len;
    }
    size_t ndw;
    uint32_t *ib = fuzz_rest_dwords(&in, &ndw);
    if (!draw_budget_ok(ib, ndw))
        flags &= (uint8_t)~2;
    struct outcome a, b;
    run(flags & 1, flags & 2, mem, nchunks, ib, ndw, &a);
    if (!(flags & 2)) {   /* the second run only where it is cheap: no rendering */
        run(flags & 1, false, mem, nchunks, ib, ndw, &b);
        FUZZ_CHECK(a.r == b.r && a.err.code == b.err.code && a.err.dword == b.err.dword &&
                       !strcmp(a.err.text, b.err.text),
                   "two runs of the same IB fault differently: \"%s\" / \"%s\"", a.err.text, b.err.text);
        FUZZ_CHECK(!memcmp(&a.st, &b.st, sizeof a.st), "two runs of the same IB count differently");
    }
    free(ib);
    return 0;
}
