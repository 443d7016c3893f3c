/* cedar-probe: experiments that measure what documentation does not say
 * about the Radeon HD 7350 (Cedar), with cedar's own command buffers, on the
 * card or on the virtual Cedar (where the answers are the model's).  The
 * command line and the sub-command table only; each sub-command is
 * tools/probe/NAME.c (the list: tools/probe/commands.h). */
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

struct command {
    const char *name, *summary;
    int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
#define PROBE_COMMAND(name, summary) { #name, summary, probe_cmd_##name },
#include "probe/commands.h"
#undef PROBE_COMMAND
};

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-probe COMMAND [options]    (cedar-probe COMMAND --help for its options)\n"
"\n"
"Small controlled experiments on a Radeon HD 7350 (Cedar) through the radeon\n"
"kernel driver, or on the virtual Cedar, whose answers are then the predictions\n"
"of its model (the first output line says which).\n"
"\n"
"Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
"\n"
"Exit status: 0 done; 1 the device refused or failed, or a check of the\n"
"results failed (one-line reason); 2 bad usage.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "cedar-probe: no command (see --help)\n");
        return PROBE_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    char q[64];
    fprintf(stderr, "cedar-probe: unknown command '%s' (see --help)\n", probe_quote(argv[1], q, sizeof q));
    return PROBE_EXIT_USAGE;
}
