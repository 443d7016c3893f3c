/* The sub-commands of cedar-probe, one line each: PROBE_COMMAND(name,
 * summary).  Each is a function `int probe_cmd_NAME(int argc, char **argv)`
 * in tools/probe/NAME.c (argv[0] is the sub-command's name); it returns the
 * exit status.  Adding a sub-command is one line here and its file. */
PROBE_COMMAND(reuse, "post-transform vertex reuse: VS invocations of index orders over a grid (ATVR)")
PROBE_COMMAND(timing, "EOP timestamps around clears, 8x draws and a resolve (medians)")
