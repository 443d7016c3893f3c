/* Small primitives of a draw waiting for the renderer's threads (draw.c
 * queue_run): each sub-triangle as raster_sub takes it, in draw order, with
 * its primitive's pixel-stage inputs stored once for the sub-triangles that
 * share them (a point's two halves, a clipped triangle's fan). */
#ifndef CEDAR_RENDER_PRIM_QUEUE_H
#define CEDAR_RENDER_PRIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "cedar/render.h"
#include "render_priv.h"

#define PRIM_QUEUE_CAP 4096   /* sub-triangles a queue holds before its threads take them */

struct queued_prim {
    struct rs_vertex v[3];
    double m[3][3], ms[3][3];  /* draw.c: sub-triangle -> original weights (clip, screen) */
    float sub_inv_w[3], prim_inv_w[3];
    bool m_identity;
    unsigned serial;           /* its primitive's draw_ctx.prim_serial */
    size_t inputs;             /* its primitive's inputs in the queue's arena */
    int row0, row1;            /* block rows (y / 8) it may touch, first and last */
};

struct prim_queue {
    struct queued_prim prim[PRIM_QUEUE_CAP];
    unsigned n;
    unsigned char *arena;      /* the primitives' inputs, one after another */
    size_t used, cap;
    bool have_last;            /* the last primitive's inputs are in the arena, at `last` */
    unsigned last_serial;
    size_t last;
};

/* A new empty queue, or NULL (out of memory). */
struct prim_queue *prim_queue_new(void);
void prim_queue_free(struct prim_queue *q);
/* Empties the queue (its memory is kept). */
void prim_queue_clear(struct prim_queue *q);
/* Appends p (its `inputs` is set here) with the inputs of its primitive
 * (stored when p->serial is not the last one's).  0, or -1 when the queue is
 * full or out of memory (nothing appended). */
int prim_queue_push(struct prim_queue *q, const struct queued_prim *p, const struct vc_prim_inputs *in);
/* The inputs of p's primitive into *out (num_inputs of them, front_face). */
void prim_queue_inputs(const struct prim_queue *q, const struct queued_prim *p, struct vc_prim_inputs *out);

#endif
