/* The frame loop both sides of `bench frame` share: a side runs in a child
 * process that renders one frame each time the parent tells it to, so that
 * the parent can make the sides take turns (see bench_frame.c). */
#ifndef CEDAR_BENCH_FRAME_TIMING_H
#define CEDAR_BENCH_FRAME_TIMING_H

#include "bench_frame.h"

/* Renders one whole frame, or checks the image the last frame left; 0, or
 * -1 with a reason in why. */
typedef int (*frame_step_fn)(void *ctx, char *why, size_t whylen);

/* The child's ends of its two pipes. */
struct frame_link {
    int cmd_fd;        /* commands from the parent, one byte each */
    int msg_fd;        /* struct frame_msg to the parent */
    unsigned warmup;   /* untimed frames before the first check */
    bool ready_sent;
};

#define FRAME_CMD_RENDER 'f'   /* render and time one frame: FRAME_MSG_FRAME */
#define FRAME_CMD_FINISH 'q'   /* check the last image: FRAME_MSG_DONE */

enum frame_msg_kind {
    FRAME_MSG_READY,   /* set up, warmed up, first image checked */
    FRAME_MSG_FRAME,   /* one frame rendered: wall_ms, cpu_ms */
    FRAME_MSG_DONE,    /* the child stops: status (and why) */
};

struct frame_msg {
    enum frame_msg_kind kind;
    enum frame_status status;   /* FRAME_OK, or why the child stopped */
    double wall_ms, cpu_ms;     /* FRAME_MSG_FRAME: the frame's time, the process's CPU time */
    char renderer[128];         /* FRAME_MSG_READY */
    char why[400];
};

/* Whole messages over a pipe: 0, or -1 (the other end is gone). */
int frame_msg_send(int fd, const struct frame_msg *m);
int frame_msg_recv(int fd, struct frame_msg *m);

/* In the child, once set up: renders link->warmup frames (at least one),
 * checks the image and sends FRAME_MSG_READY naming `renderer`; then serves
 * the parent's commands until FRAME_CMD_FINISH or the end of its pipe.
 * Returns FRAME_OK, or FRAME_FAILED with the reason in why (then also sent
 * as FRAME_MSG_DONE). */
enum frame_status frame_serve(struct frame_link *link, const char *renderer, frame_step_fn render,
                              frame_step_fn check, void *ctx, char *why, size_t whylen);

/* The parent's summary of n timed frames (n > 0; sorts wall_ms): frames,
 * ms_per_frame (the median: other processes on the machine delay single
 * frames, and the median ignores those), mean_ms, best_ms and cpu_ms (the
 * mean CPU time per frame). */
void frame_summarise(double *wall_ms, const double *cpu_ms, unsigned n, struct frame_timing *out);

#endif
