/* The compute stage: a PKT3 DISPATCH_DIRECT as Evergreen runs it for Mesa's
 * r600 driver (evergreen_compute.c evergreen_emit_dispatch,
 * evergreen_init_atom_start_compute_cs, evergreen_emit_cs_shader;
 * sfn_shader_cs.cpp):
 *
 * - the dispatch is DIM_X x DIM_Y x DIM_Z thread groups (the packet; at most
 *   SQ_COMPUTE_LIMITS MAX_GROUPS a dimension, none when one is 0), each of
 *   SPI_COMPUTE_NUM_THREAD_X x _Y x _Z threads; VGT_COMPUTE_THREAD_GROUP_SIZE
 *   holds the same product (Mesa writes both, and VGT_NUM_INDICES too);
 * - the program is the LS stage's (SQ_PGM_START_LS): the compute shader runs
 *   on the LS hardware stage, with the LS's constant buffers and the CS's
 *   fetch resources and samplers (shade.c cs_begin);
 * - SPI_COMPUTE_INPUT_CNTL as Mesa sets it (TID_IN_GROUP_ENA, TGID_ENA,
 *   DISABLE_INDEX_PACK): each thread starts with its local id in R0.xyz and
 *   its group's id in R1.xyz (sfn_shader_cs.cpp reads them there); the group
 *   id counts from VGT_COMPUTE_START_X/Y/Z (Mesa writes 0); any other input
 *   control is refused, as nothing says where the ids go then;
 * - a group has SQ_LDS_ALLOC.SIZE dwords of local data share (at most
 *   SQ_COMPUTE_LIMITS LDS_DWORDS); the model starts it as zeros for each
 *   group (the hardware's start contents are undefined; GLSL shared
 *   variables are too);
 * - a group runs in waves of SQ_COMPUTE_LIMITS WAVE_THREADS threads, in
 *   local-id order x fastest (the model's choice of which threads share a
 *   wave); the threads of a wave run in lockstep, the groups one after
 *   another, x fastest.  A group of one wave runs on the calling thread; a
 *   group of several runs each wave on a thread of its own, one wave at a
 *   time: wave 0 first, each until it reaches a GROUP_BARRIER or its end,
 *   then the next unfinished wave in turn (round robin), so that every wave
 *   has reached a barrier before any goes past it, and the order of
 *   everything (LDS, memory, GDS) is the same in every run;
 * - a wave's HW_WAVE_ID (the ALU source) is its index in its group, 0..31:
 *   on the card it names the wave's slot, distinct among the waves in
 *   flight, and Mesa makes each lane's RAT return address of it (with SE_ID,
 *   0 on the Cedar's one shader engine, and the lane's MBCNT); here the
 *   waves in flight at once are those of one group, each with its own index.
 *
 * The CS-invocations counter (vc_pipestat.c) counts every thread of every
 * wave that ran to its end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_priv.h"

_Static_assert(V_SQ_COMPUTE_LIMITS__WAVE_THREADS <= EG_STAGE_MAX_LANES,
               "a compute wave runs as one eg_run_stage_lanes call");

struct cs_state {
    uint32_t threads[3];       /* SPI_COMPUTE_NUM_THREAD_X/Y/Z */
    uint32_t group_threads;    /* their product */
    uint32_t start[3];         /* VGT_COMPUTE_START_X/Y/Z */
    uint32_t lds_bytes;        /* SQ_LDS_ALLOC.SIZE x 4 */
};

static int cs_state_init(struct cs_state *c, const struct vc_regs *regs, struct vc_draw_err *err)
{
    if (!G_VGT_DISPATCH_INITIATOR__COMPUTE_SHADER_EN(vc_reg(regs, REG_VGT_DISPATCH_INITIATOR)))
        return rs_fail(err, "compute: DISPATCH_DIRECT without VGT_DISPATCH_INITIATOR.COMPUTE_SHADER_EN");
    uint32_t in = vc_reg(regs, REG_SPI_COMPUTE_INPUT_CNTL);
    if (!G_SPI_COMPUTE_INPUT_CNTL__TID_IN_GROUP_ENA(in) || !G_SPI_COMPUTE_INPUT_CNTL__TGID_ENA(in) ||
        !G_SPI_COMPUTE_INPUT_CNTL__DISABLE_INDEX_PACK(in))
        return rs_fail(err,
                       "compute: SPI_COMPUTE_INPUT_CNTL 0x%x is not modelled (only TID_IN_GROUP_ENA, TGID_ENA and "
                       "DISABLE_INDEX_PACK all set, as Mesa sets it)",
                       in);
    static const uint32_t nreg[3] = {REG_SPI_COMPUTE_NUM_THREAD_X, REG_SPI_COMPUTE_NUM_THREAD_Y,
                                     REG_SPI_COMPUTE_NUM_THREAD_Z};
    static const uint32_t sreg[3] = {REG_VGT_COMPUTE_START_X, REG_VGT_COMPUTE_START_Y, REG_VGT_COMPUTE_START_Z};
    uint64_t n = 1;
    for (int k = 0; k < 3; k++) {
        c->threads[k] = vc_reg(regs, nreg[k]);
        c->start[k] = vc_reg(regs, sreg[k]);
        n *= c->threads[k] ? c->threads[k] : 1;
    }
    if (!c->threads[0] || !c->threads[1] || !c->threads[2] || n > V_SQ_COMPUTE_LIMITS__MAX_GROUP_THREADS)
        return rs_fail(err, "compute: a thread group of %u x %u x %u threads (SPI_COMPUTE_NUM_THREAD_X/Y/Z: each at "
                            "least 1, at most %d in all)",
                       c->threads[0], c->threads[1], c->threads[2], V_SQ_COMPUTE_LIMITS__MAX_GROUP_THREADS);
    c->group_threads = (uint32_t)n;
    uint32_t vgt = vc_reg(regs, REG_VGT_COMPUTE_THREAD_GROUP_SIZE);
    if (vgt != c->group_threads)
        return rs_fail(err, "compute: VGT_COMPUTE_THREAD_GROUP_SIZE %u is not SPI_COMPUTE_NUM_THREAD_X x _Y x _Z = %u",
                       vgt, c->group_threads);
    uint32_t lds = G_SQ_LDS_ALLOC__SIZE(vc_reg(regs, REG_SQ_LDS_ALLOC));
    if (lds > V_SQ_COMPUTE_LIMITS__LDS_DWORDS)
        return rs_fail(err, "compute: SQ_LDS_ALLOC.SIZE %u dwords, more than a thread group's %d", lds,
                       V_SQ_COMPUTE_LIMITS__LDS_DWORDS);
    c->lds_bytes = 4 * lds;
    return 0;
}

#define MAX_WAVES (V_SQ_COMPUTE_LIMITS__MAX_GROUP_THREADS / V_SQ_COMPUTE_LIMITS__WAVE_THREADS)

struct group_run;

/* One wave of a group of several, on a thread of its own. */
struct wave_run {
    struct group_run *g;
    unsigned index, n;
    uint32_t r0[V_SQ_COMPUTE_LIMITS__WAVE_THREADS][4];
    bool ran;                  /* it ran to its end */
    struct vc_draw_err err;
};

/* A group of several waves: whose turn it is to run. */
struct group_run {
    struct vc_render *r;
    const uint32_t *r1;
    struct vc_cs_group cg;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned nwaves, turn;     /* turn == nwaves: nobody's (all done) */
    bool done[MAX_WAVES];
    int failed;                /* the first wave that faulted, or -1 */
    struct wave_run w[MAX_WAVES];
};

/* Local ids of threads t0 .. t0 + n - 1 of a group, x fastest. */
static unsigned wave_ids(const struct cs_state *c, uint32_t t0, uint32_t (*r0)[4])
{
    unsigned n = 0;
    for (uint32_t t = t0; t < c->group_threads && n < V_SQ_COMPUTE_LIMITS__WAVE_THREADS; t++, n++) {
        r0[n][0] = t % c->threads[0];
        r0[n][1] = t / c->threads[0] % c->threads[1];
        r0[n][2] = t / (c->threads[0] * c->threads[1]);
        r0[n][3] = 0;
    }
    return n;
}

/* The turn goes to the next unfinished wave after `from` (cyclically, from
 * itself included when it is not done).  Under g->mu. */
static void pass_turn(struct group_run *g, unsigned from)
{
    g->turn = g->nwaves;
    for (unsigned k = 1; k <= g->nwaves; k++) {
        unsigned i = (from + k) % g->nwaves;
        if (!g->done[i]) {
            g->turn = i;
            break;
        }
    }
    pthread_cond_broadcast(&g->cv);
}

static void wait_turn(struct group_run *g, unsigned me)
{
    while (g->turn != me)
        pthread_cond_wait(&g->cv, &g->mu);
}

/* GROUP_BARRIER in wave w: the other waves run until they reach it too. */
static int wave_barrier(void *ctx, char *msg, size_t msglen)
{
    struct wave_run *w = ctx;
    struct group_run *g = w->g;
    pthread_mutex_lock(&g->mu);
    pass_turn(g, w->index);
    wait_turn(g, w->index);
    int failed = g->failed;
    pthread_mutex_unlock(&g->mu);
    if (failed >= 0)
        return rs_msg_fail(msg, msglen, "wave %d of the thread group faulted", failed);
    return 0;
}

static void *wave_main(void *arg)
{
    struct wave_run *w = arg;
    struct group_run *g = w->g;
    struct vc_render *r = g->r;
    pthread_mutex_lock(&g->mu);
    wait_turn(g, w->index);
    bool go = g->failed < 0;
    pthread_mutex_unlock(&g->mu);
    struct vc_cs_group cg = g->cg;
    cg.barrier_ctx = w;
    cg.wave = w->index;
    int rc = go ? r->shaders.cs(r->shaders.ctx, (const uint32_t (*)[4])w->r0, w->n, g->r1, &cg, &w->err) : 0;
    pthread_mutex_lock(&g->mu);
    w->ran = go && rc == 0;
    if (rc && g->failed < 0)
        g->failed = (int)w->index;
    g->done[w->index] = true;
    pass_turn(g, w->index);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

static int run_waves(struct vc_render *r, const struct cs_state *c, const uint32_t r1[4], uint8_t *lds,
                     struct vc_draw_err *err)
{
    struct group_run *g = calloc(1, sizeof *g);
    if (!g)
        return rs_fail(err, "compute: out of memory");
    g->r = r;
    g->r1 = r1;
    g->cg = (struct vc_cs_group){lds, c->lds_bytes, wave_barrier, NULL, 0};
    g->failed = -1;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    pthread_t th[MAX_WAVES];
    unsigned started = 0;
    for (uint32_t t0 = 0; t0 < c->group_threads; t0 += V_SQ_COMPUTE_LIMITS__WAVE_THREADS) {
        struct wave_run *w = &g->w[g->nwaves];
        w->g = g;
        w->index = g->nwaves++;
        w->n = wave_ids(c, t0, w->r0);
    }
    int rc = 0;
    for (; started < g->nwaves; started++)
        if (pthread_create(&th[started], NULL, wave_main, &g->w[started])) {
            /* the waves not started count as done and faulted */
            pthread_mutex_lock(&g->mu);
            for (unsigned i = started; i < g->nwaves; i++)
                g->done[i] = true;
            if (g->failed < 0)
                g->failed = (int)started;
            snprintf(g->w[started].err.msg, sizeof g->w[started].err.msg, "compute: could not start a thread for wave %u",
                     started);
            if (g->turn >= started)
                pass_turn(g, g->turn);
            pthread_mutex_unlock(&g->mu);
            break;
        }
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (unsigned i = 0; i < g->nwaves; i++)
        if (g->w[i].ran)
            r->stats.cs_invocations += g->w[i].n;
    if (g->failed >= 0) {
        *err = g->w[g->failed].err;
        rc = -1;
    }
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(g);
    return rc;
}

/* One thread group. */
static int run_group(struct vc_render *r, const struct cs_state *c, const uint32_t gid[3], uint8_t *lds,
                     struct vc_draw_err *err)
{
    const uint32_t r1[4] = {gid[0], gid[1], gid[2], 0};
    if (c->lds_bytes)
        memset(lds, 0, c->lds_bytes);
    if (c->group_threads > V_SQ_COMPUTE_LIMITS__WAVE_THREADS)
        return run_waves(r, c, r1, c->lds_bytes ? lds : NULL, err);
    uint32_t r0[V_SQ_COMPUTE_LIMITS__WAVE_THREADS][4];
    unsigned n = wave_ids(c, 0, r0);
    const struct vc_cs_group cg = {c->lds_bytes ? lds : NULL, c->lds_bytes, NULL, NULL, 0};
    if (r->shaders.cs(r->shaders.ctx, (const uint32_t (*)[4])r0, n, r1, &cg, err))
        return -1;
    r->stats.cs_invocations += n;
    return 0;
}

int vc_render_dispatch(struct vc_render *r, const struct vc_regs *regs, const struct vc_mem *mem,
                       const uint32_t dim[3], struct vc_draw_err *err)
{
    r->stats.dispatches++;
    if (!r->shaders.cs_begin || !r->shaders.cs)
        return rs_fail(err, "compute: a dispatch, and the shader stages have no compute stage");
    struct cs_state c;
    if (cs_state_init(&c, regs, err))
        return -1;
    if (dim[0] > V_SQ_COMPUTE_LIMITS__MAX_GROUPS || dim[1] > V_SQ_COMPUTE_LIMITS__MAX_GROUPS ||
        dim[2] > V_SQ_COMPUTE_LIMITS__MAX_GROUPS)
        return rs_fail(err, "compute: a grid of %u x %u x %u thread groups (at most %d a dimension, as Mesa r600 "
                            "dispatches)",
                       dim[0], dim[1], dim[2], V_SQ_COMPUTE_LIMITS__MAX_GROUPS);
    if (!dim[0] || !dim[1] || !dim[2])
        return 0; /* no thread group */
    for (int k = 0; k < 3; k++)
        if ((uint64_t)c.start[k] + dim[k] - 1 > UINT32_MAX)
            return rs_fail(err, "compute: group ids from VGT_COMPUTE_START %u over %u groups pass 2^32", c.start[k],
                           dim[k]);
    if (r->shaders.cs_begin(r->shaders.ctx, regs, mem, err))
        return -1;
    uint8_t *lds = c.lds_bytes ? malloc(c.lds_bytes) : NULL;
    if (c.lds_bytes && !lds)
        return rs_fail(err, "compute: out of memory");
    int rc = 0;
    uint32_t gid[3];
    for (uint32_t z = 0; z < dim[2] && !rc; z++)
        for (uint32_t y = 0; y < dim[1] && !rc; y++)
            for (uint32_t x = 0; x < dim[0] && !rc; x++) {
                gid[0] = c.start[0] + x, gid[1] = c.start[1] + y, gid[2] = c.start[2] + z;
                rc = run_group(r, &c, gid, lds, err);
            }
    free(lds);
    return rc;
}
