/* cedar-probe's shared option handling and device opening. */
#include <stdarg.h>
#include <string.h>

#include "cedar/demo.h"
#include "probe.h"

static void vline(FILE *f, const char *sub, const char *fmt, va_list ap)
{
    fprintf(f, "cedar-probe %s: ", sub);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

int probe_usage(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(stderr, sub, fmt, ap);
    va_end(ap);
    return PROBE_EXIT_USAGE;
}

int probe_fail(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline(stderr, sub, fmt, ap);
    va_end(ap);
    return PROBE_EXIT_FAILED;
}

const char *probe_quote(const char *s, char *buf, size_t len)
{
    size_t n = 0;
    for (; s && *s && n + 1 < len && n < 48; s++)
        buf[n++] = (*s >= 0x20 && *s < 0x7F) ? *s : '?';
    if (len)
        buf[n < len ? n : len - 1] = '\0';
    return buf;
}

int probe_bad_option(const char *sub, int argc, char **argv)
{
    char q[64];
    const char *arg = optind - 1 < argc && optind > 0 ? argv[optind - 1] : "?";
    return probe_usage(sub, "unknown or incomplete option '%s' (see --help)", probe_quote(arg, q, sizeof q));
}

int probe_open(const char *sub, const char *spec, const char *what, struct probe_dev *pd)
{
    memset(pd, 0, sizeof *pd);
    char note[160], err[512];
    if (cedar_demo_open_device(spec, &pd->dev, note, sizeof note, err, sizeof err) != 0)
        return probe_fail(sub, "%s", err), -1;
    if (cedar_dev_query_facts(pd->dev, &pd->facts, err, sizeof err) != 0) {
        probe_close(pd);
        return probe_fail(sub, "%s", err), -1;
    }
    pd->model = cedar_demo_device_is_virtual(pd->dev);
    if (pd->model)
        printf("cedar-probe %s on the virtual Cedar (%s): every count and time below is the "
               "model's prediction, not a measurement of a card; %s\n",
               sub, note[0] ? "no Cedar on the PCI bus" : "--device virtual", what);
    else
        printf("cedar-probe %s on the card: %s, %s DRM %d.%d.%d, PCI 1002:%04x; %s\n", sub,
               pd->dev->node, pd->facts.driver, pd->facts.version_major, pd->facts.version_minor,
               pd->facts.version_patchlevel, pd->facts.device_id, what);
    fflush(stdout);
    return 0;
}

void probe_close(struct probe_dev *pd)
{
    cedar_dev_destroy(pd->dev);
    pd->dev = NULL;
}

int probe_stray_argument(const char *sub, const char *arg)
{
    char q[64];
    return probe_usage(sub, "unexpected argument '%s' (see --help)", probe_quote(arg, q, sizeof q));
}

int probe_parse(const char *sub, int argc, char **argv, const struct option *opts,
                int (*opt)(void *ctx, int c, const char *arg), void *ctx, void (*usage)(FILE *f),
                const char **device)
{
    *device = "auto";
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == PROBE_OPT_DEVICE) {
            *device = optarg;
        } else if (c == PROBE_OPT_HELP) {
            usage(stdout);
            return 0;
        } else if (c == '?' || c == ':') {
            return probe_bad_option(sub, argc, argv);
        } else {
            int rc = opt(ctx, c, optarg);
            if (rc)
                return rc;
        }
    }
    if (optind < argc)
        return probe_stray_argument(sub, argv[optind]);
    return -1;
}
