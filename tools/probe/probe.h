/* What cedar-probe's sub-commands share (tools/probe/): the command table,
 * the --device / --help options, opening the device and saying in the first
 * output line what the probe runs on. */
#ifndef CEDAR_PROBE_TOOL_H
#define CEDAR_PROBE_TOOL_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cedar/device.h"
#include "cedar/pci.h"

#define PROBE_EXIT_FAILED 1
#define PROBE_EXIT_USAGE 2

#define PROBE_COMMAND(name, summary) int probe_cmd_##name(int argc, char **argv);
#include "commands.h"
#undef PROBE_COMMAND

/* getopt_long values of the options every sub-command takes. */
enum { PROBE_OPT_DEVICE = 1000, PROBE_OPT_HELP };
#define PROBE_COMMON_OPTIONS \
    { "device", required_argument, NULL, PROBE_OPT_DEVICE }, \
    { "help", no_argument, NULL, PROBE_OPT_HELP }
#define PROBE_COMMON_HELP \
"  --device auto|virtual|NODE  auto (default): the Cedar if one is present, else\n" \
"                        the virtual Cedar; NODE: a DRM node such as\n" \
"                        /dev/dri/renderD128 (must be a Cedar on radeon >= 2.19)\n" \
"  --help                this text\n"

struct probe_dev {
    struct cedar_dev *dev;
    bool model;                   /* the virtual Cedar: its counts and clock are a model's */
    struct cedar_dev_facts facts;
};

/* Bad usage: "cedar-probe SUB: message" as one line on stderr; returns
 * PROBE_EXIT_USAGE. */
int probe_usage(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s made printable for a one-line message (control and non-ASCII bytes as
 * '?', cut after 48 bytes) in buf; returns buf. */
const char *probe_quote(const char *s, char *buf, size_t len);
/* The one-line report of an option getopt_long refused (unknown, or its
 * argument missing); returns PROBE_EXIT_USAGE. */
int probe_bad_option(const char *sub, int argc, char **argv);
/* An argument after the options: one line, PROBE_EXIT_USAGE. */
int probe_stray_argument(const char *sub, const char *arg);
/* A failure while running: one line on stderr; returns PROBE_EXIT_FAILED. */
int probe_fail(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses a sub-command's options: the common ones here (--device into
 * *device, default "auto"; --help prints usage), the sub-command's own ones
 * through opt(ctx, c, optarg), which returns 0 or an exit status after
 * printing (probe_usage).  Returns -1 when the sub-command should run, else
 * the exit status (0 after --help, PROBE_EXIT_USAGE for bad usage). */
int probe_parse(const char *sub, int argc, char **argv, const struct option *opts,
                int (*opt)(void *ctx, int c, const char *arg), void *ctx, void (*usage)(FILE *f),
                const char **device);

/* Opens the --device and prints the first output line: the sub-command, what
 * it runs on (the card, or the virtual Cedar and that its figures are the
 * model's predictions), and `what` (the sub-command's parameters).  0, or
 * -1 after printing the reason (exit PROBE_EXIT_FAILED). */
int probe_open(const char *sub, const char *spec, const char *what, struct probe_dev *pd);
void probe_close(struct probe_dev *pd);

#endif
