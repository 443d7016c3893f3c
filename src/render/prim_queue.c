/* The queue of small primitives a draw shares among its threads: records
 * in draw order and an arena of their primitives' pixel-stage inputs, only
 * the num_inputs attributes each has (a point's 1-2, not the 32 a
 * vc_prim_inputs has room for). */
#include <stdlib.h>
#include <string.h>

#include "prim_queue.h"

struct prim_queue *prim_queue_new(void)
{
    return calloc(1, sizeof(struct prim_queue));
}

void prim_queue_free(struct prim_queue *q)
{
    if (!q)
        return;
    free(q->arena);
    free(q);
}

void prim_queue_clear(struct prim_queue *q)
{
    q->n = 0;
    q->used = 0;
    q->have_last = false;
}

/* Bytes of the inputs of a primitive with n attributes in the arena:
 * num_inputs, front_face, then the attributes and their flat flags. */
static size_t inputs_bytes(unsigned n)
{
    size_t b = sizeof(unsigned) + sizeof(bool) + n * sizeof(float[3][4]) + n * sizeof(bool);
    return (b + 7) & ~(size_t)7;
}

int prim_queue_push(struct prim_queue *q, const struct queued_prim *p, const struct vc_prim_inputs *in)
{
    if (q->n == PRIM_QUEUE_CAP)
        return -1;
    struct queued_prim *e = &q->prim[q->n];
    if (!q->have_last || q->last_serial != p->serial) {
        unsigned n = in->num_inputs <= VC_RENDER_MAX_PARAMS ? in->num_inputs : VC_RENDER_MAX_PARAMS;
        size_t need = inputs_bytes(n);
        if (q->used + need > q->cap) {
            size_t cap = q->cap ? 2 * q->cap : 64 * 1024;
            while (cap < q->used + need)
                cap *= 2;
            unsigned char *a = realloc(q->arena, cap);
            if (!a)
                return -1;
            q->arena = a;
            q->cap = cap;
        }
        unsigned char *at = q->arena + q->used;
        memcpy(at, &n, sizeof n);
        at += sizeof n;
        memcpy(at, &in->front_face, sizeof in->front_face);
        at += sizeof in->front_face;
        memcpy(at, in->attr, n * sizeof in->attr[0]);
        at += n * sizeof in->attr[0];
        memcpy(at, in->flat, n * sizeof in->flat[0]);
        q->last = q->used;
        q->last_serial = p->serial;
        q->have_last = true;
        q->used += need;
    }
    *e = *p;
    e->inputs = q->last;
    q->n++;
    return 0;
}

void prim_queue_inputs(const struct prim_queue *q, const struct queued_prim *p, struct vc_prim_inputs *out)
{
    const unsigned char *at = q->arena + p->inputs;
    unsigned n;
    memcpy(&n, at, sizeof n);
    at += sizeof n;
    out->num_inputs = n;
    memcpy(&out->front_face, at, sizeof out->front_face);
    at += sizeof out->front_face;
    memcpy(out->attr, at, n * sizeof out->attr[0]);
    at += n * sizeof out->attr[0];
    memcpy(out->flat, at, n * sizeof out->flat[0]);
}
