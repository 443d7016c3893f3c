/* cedar-msaa: the 8x MSAA demo on a Radeon HD 7350 (Cedar) through the
 * radeon kernel driver, or on the virtual Cedar behind the same ioctls.
 * The command line only; the work is in src/device/ and src/demo/. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/cli.h"
#include "cedar/demo.h"
#include "cedar/pci.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

static void usage(FILE *f)
{
    fprintf(f,
"usage: cedar-msaa [options]\n"
"\n"
"Renders the MSAA demo scene (one triangle on a clear colour, 8x MSAA with\n"
"FMask/CMask fast clear, resolved by the colour block) on a Radeon HD 7350\n"
"(Cedar) through the radeon kernel driver, or on the virtual Cedar, reads the\n"
"frame back, de-tiles it and writes files you can look at.\n"
"\n"
"  --device auto|virtual|NODE  auto (default): the Cedar if one is present,\n"
"                        else the virtual Cedar (it says which); NODE: a DRM node\n"
"                        such as /dev/dri/renderD128 (must be a Cedar on radeon >= 2.19)\n"
"  --list-devices        list AMD display devices (PCI) and exit\n"
"  --samples 1|2|4|8     samples per pixel (default 8; 1 = no MSAA, no resolve)\n"
"  --width N, --height N display size, 1..8192 (default 1280 x 720); a size\n"
"                        whose layout falls back to 1D tiling (under about\n"
"                        64 x 64) is refused as bad usage\n"
"  --clear-color RRGGBB  clear colour as hex bytes (default 334C4C)\n"
"  --no-fast-clear       clear with a full-screen draw instead of the CMask\n"
"  --vertex-color-format r32g32b32_float|r8g8b8a8_unorm|r8g8b8_snorm|r8g8b8_unorm\n"
"                        how the vertex buffer stores the colour (default\n"
"                        r32g32b32_float); the 3-component 8-bit ones are read\n"
"                        with three 1-byte fetches and w = 1 (AMD has no such\n"
"                        vertex format); SNORM stores a colour c as round(127 c)\n"
"  --out DIR             output directory (default out/)\n"
"  --dump-cs DIR         write every submitted IB: DIR/cs_NNN.bin, cs_NNN.relocs.txt\n"
"  --capture FILE.bof    record every submission and the buffers it references, in\n"
"                        libdrm's .bof format, one CS per file: FILE.000.bof, ...\n"
"                        (replay: cedar-sim replay FILE.*.bof)\n"
"  --dry-run             build the command buffers only (no device); with --dump-cs\n"
"  --help                this text\n"
"\n"
"Output (in --out): frame.png, frame.tiled.bin, msaa.color.bin, msaa.fmask.bin,\n"
"msaa.cmask.bin, edge-zoom.png, fmask-fragments.png.\n"
"Exit status: 0 done; 1 the device refused or failed (one-line reason);\n"
"2 bad usage (also a size the demo cannot lay out).  --list-devices exits 0\n"
"when the PCI bus could be read (even with no device found), 1 when it could not.\n");
}

/* "RRGGBB" */
static int parse_rgb(const char *s, uint8_t rgb[3], struct cedar_cli_err *err)
{
    uint32_t v;
    if (cedar_cli_hex32("--clear-color", s, 6, &v, err))
        return -1;
    rgb[0] = (uint8_t)(v >> 16);
    rgb[1] = (uint8_t)(v >> 8);
    rgb[2] = (uint8_t)v;
    return 0;
}

static int list_devices(void)
{
    struct cedar_pci_device devs[32];
    char err[256];
    int n = cedar_pci_list_amd(devs, 32, err, sizeof err);
    if (n < 0) {
        printf("no AMD display devices found (%s)\n", err);
        return EXIT_FAILED;
    }
    if (n == 0) {
        printf("no AMD display devices found\n");
        return 0;
    }
    for (int i = 0; i < n && i < 32; i++) {
        const struct cedar_pci_device *d = &devs[i];
        char bus[32], node[64] = "", nerr[256];
        cedar_pci_bus_string(d, bus, sizeof bus);
        if (cedar_drm_node_for_bus(d->domain, d->bus, d->dev, d->func, node, sizeof node, nerr,
                                   sizeof nerr) != 0)
            snprintf(node, sizeof node, "no DRM node");
        printf("%s  %04x:%04x  %s%s  family %s  %s\n", bus, d->vendor_id, d->device_id,
               d->name[0] ? d->name : "(unnamed)", cedar_pci_is_cedar(d->device_id) ? "  [Cedar]" : "",
               d->family ? d->family : "not r600-family", node);
        for (int b = 0; b < 6; b++)
            if (d->bars[b].size)
                printf("    BAR%d %s 0x%llx, %llu KiB%s\n", b, d->bars[b].is_io ? "I/O" : "memory",
                       (unsigned long long)d->bars[b].base,
                       (unsigned long long)(d->bars[b].size / 1024),
                       d->bars[b].is_prefetchable ? ", prefetchable" : "");
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    const char *device = "auto", *out = "out", *dump = NULL, *capture = NULL;
    bool dry_run = false;

    enum { O_DEVICE = 256, O_LIST, O_SAMPLES, O_WIDTH, O_HEIGHT, O_CLEAR, O_NOFAST, O_OUT, O_DUMP,
           O_CAPTURE, O_DRY, O_VCOLOR };
    static const struct option opts[] = {
        { "device", required_argument, NULL, O_DEVICE },
        { "list-devices", no_argument, NULL, O_LIST },
        { "samples", required_argument, NULL, O_SAMPLES },
        { "width", required_argument, NULL, O_WIDTH },
        { "height", required_argument, NULL, O_HEIGHT },
        { "clear-color", required_argument, NULL, O_CLEAR },
        { "no-fast-clear", no_argument, NULL, O_NOFAST },
        { "vertex-color-format", required_argument, NULL, O_VCOLOR },
        { "out", required_argument, NULL, O_OUT },
        { "dump-cs", required_argument, NULL, O_DUMP },
        { "capture", required_argument, NULL, O_CAPTURE },
        { "dry-run", no_argument, NULL, O_DRY },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    struct cedar_cli_err cli_err;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_DEVICE: device = optarg; break;
        case O_LIST: return list_devices();
        case O_SAMPLES:
            if (cedar_cli_uint("--samples", optarg, 1, 8, &cfg.samples, &cli_err) ||
                (cfg.samples != 1 && cfg.samples != 2 && cfg.samples != 4 && cfg.samples != 8)) {
                fprintf(stderr, "cedar-msaa: --samples: \"%s\" is not 1, 2, 4 or 8\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_WIDTH:
        case O_HEIGHT:
            if (cedar_cli_uint(c == O_WIDTH ? "--width" : "--height", optarg, 1, CEDAR_DEMO_MAX_SIZE,
                               c == O_WIDTH ? &cfg.width : &cfg.height, &cli_err)) {
                fprintf(stderr, "cedar-msaa: %s\n", cli_err.msg);
                return EXIT_USAGE;
            }
            break;
        case O_CLEAR:
            if (parse_rgb(optarg, cfg.clear_rgb, &cli_err) != 0) {
                fprintf(stderr, "cedar-msaa: %s (RRGGBB)\n", cli_err.msg);
                return EXIT_USAGE;
            }
            break;
        case O_NOFAST: cfg.fast_clear = false; break;
        case O_VCOLOR:
            if (eg_demo_color_format_parse(optarg, &cfg.vertex_color_format) != 0) {
                fprintf(stderr, "cedar-msaa: --vertex-color-format: \"%s\" is not r32g32b32_float, "
                        "r8g8b8a8_unorm, r8g8b8_snorm or r8g8b8_unorm\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case O_OUT: out = optarg; break;
        case O_DUMP: dump = optarg; break;
        case O_CAPTURE: capture = optarg; break;
        case O_DRY: dry_run = true; break;
        case 'h': usage(stdout); return 0;
        default:
            fprintf(stderr, "cedar-msaa: unknown or incomplete option '%s' (see --help)\n",
                    argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "cedar-msaa: unexpected argument '%s' (see --help)\n", argv[optind]);
        return EXIT_USAGE;
    }
    if (dry_run && capture) {
        fprintf(stderr, "cedar-msaa: --capture records submissions; --dry-run makes none\n");
        return EXIT_USAGE;
    }

    char err[512];
    struct cedar_dev *dev = NULL;
    struct cedar_dev_facts facts = {0};
    if (!dry_run) {
        char note[160];
        int orc = cedar_demo_open_device(device, &dev, note, sizeof note, err, sizeof err);
        if (note[0])
            printf("device: %s\n", note);
        if (orc != 0) {
            fprintf(stderr, "cedar-msaa: %s\n", err);
            return EXIT_FAILED;
        }
        /* The tiling facts come from the device, never from constants. */
        if (cedar_dev_query_facts(dev, &facts, err, sizeof err) != 0 ||
            cedar_tiling_from_config(facts.tiling_config, &cfg.tiling) != 0) {
            if (!err[0])
                snprintf(err, sizeof err, "unusable tiling config 0x%x", facts.tiling_config);
            fprintf(stderr, "cedar-msaa: %s\n", err);
            cedar_dev_destroy(dev);
            return EXIT_FAILED;
        }
        printf("device: %s (%s backend), %s DRM %d.%d.%d, PCI 1002:%04x, tiling config 0x%x "
               "(%u pipes, %u banks, %u-byte interleave), VRAM %llu MiB\n",
               dev->node, dev->ops->name, facts.driver, facts.version_major, facts.version_minor,
               facts.version_patchlevel, facts.device_id, facts.tiling_config, cfg.tiling.pipes,
               cfg.tiling.banks, cfg.tiling.group_bytes,
               (unsigned long long)(facts.vram_size >> 20));
    }

    struct cedar_demo_plan plan;
    int status = EXIT_FAILED;
    if (cedar_demo_plan_build(&cfg, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "cedar-msaa: %s\n", err);
        cedar_demo_plan_free(&plan);
        cedar_dev_destroy(dev);
        return EXIT_USAGE;   /* the options asked for what cannot be laid out */
    }
    const struct cedar_msaa_layout *l = &plan.layout;
    printf("scene: %ux%u, %u sample%s, clear colour %02X%02X%02X, %s\n", cfg.width, cfg.height,
           cfg.samples, cfg.samples > 1 ? "s" : "", cfg.clear_rgb[0], cfg.clear_rgb[1],
           cfg.clear_rgb[2], cfg.samples > 1 && cfg.fast_clear ? "fast clear" : "clear by drawing");
    if (cfg.vertex_color_format != EG_DEMO_COLOR_R32G32B32_FLOAT)
        printf("vertex colour: %s\n", eg_demo_color_format_name(cfg.vertex_color_format));
    printf("layout: colour %ux%u 2D, %llu bytes", l->color.aligned_width, l->color.aligned_height,
           (unsigned long long)l->color.size);
    if (cfg.samples > 1)
        printf("; FMask at 0x%llx (%llu bytes); CMask at 0x%llx (%llu bytes); resolve %ux%u 2D, "
               "%llu bytes",
               (unsigned long long)l->fmask.offset, (unsigned long long)l->fmask.surf.size,
               (unsigned long long)l->cmask.offset, (unsigned long long)l->cmask.size,
               l->resolve.aligned_width, l->resolve.aligned_height,
               (unsigned long long)l->resolve.size);
    printf("\n");
    size_t dwords = 0;
    for (unsigned i = 0; i < plan.nibs; i++)
        dwords += plan.ibs[i].cb.ndw;
    printf("command buffers: %u (", plan.nibs);
    for (unsigned i = 0; i < plan.nibs; i++)
        printf("%s%s %zu dw", i ? ", " : "", plan.ibs[i].what, plan.ibs[i].cb.ndw);
    printf("), %zu dwords\n", dwords);

    if (dump && cedar_demo_dump_cs(&plan, dump, err, sizeof err) != 0) {
        fprintf(stderr, "cedar-msaa: %s\n", err);
        goto done;
    }
    if (dry_run) {
        status = 0;
        goto done;
    }
    struct cedar_demo_capture cap;
    struct cedar_demo_hook hook = {0};
    if (capture)
        cedar_demo_capture_init(&cap, capture, facts.device_id, &hook);

    struct cedar_demo_result res;
    if (cedar_demo_run(dev, &plan, capture ? &hook : NULL, &res, err, sizeof err) != 0) {
        fprintf(stderr, "cedar-msaa: %s%s%s\n", err, capture && cap.err[0] ? ": " : "",
                capture ? cap.err : "");
        goto done;
    }
    if (capture)
        printf("capture: %u files, %.*s.000.bof ...\n", cap.files,
               (int)(strlen(capture) > 4 && !strcmp(capture + strlen(capture) - 4, ".bof")
                         ? strlen(capture) - 4 : strlen(capture)), capture);
    printf("submitted: %u command buffers, %llu dwords, %.3f s\n", res.submissions,
           (unsigned long long)res.dwords_submitted, res.seconds);
    if (cedar_demo_write_outputs(&plan, &res, out, err, sizeof err) != 0) {
        fprintf(stderr, "cedar-msaa: %s\n", err);
    } else {
        printf("output: %s/frame.png (and the raw buffers beside it)\n", out);
        status = 0;
    }
    if (cedar_demo_device_fault(dev, err, sizeof err)) {
        /* the files show what ran; the frame is not the whole scene */
        fprintf(stderr, "cedar-msaa: the device faulted while executing: %s\n", err);
        status = EXIT_FAILED;
    }
    cedar_demo_result_free(&res);
done:
    cedar_demo_plan_free(&plan);
    cedar_dev_destroy(dev);
    return status;
}
