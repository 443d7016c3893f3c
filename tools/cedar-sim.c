/* cedar-sim: the virtual Cedar from the command line.
 *
 *   cedar-sim check CS.bin --bo SIZE[:vram|gtt] ... [--strict|--kernel-compat]
 *   cedar-sim replay FILE.bof ... [--dump HANDLE:FILE] [--dump-all DIR] [--trace] [--poison-state] [--strict|--kernel-compat]
 *   cedar-sim replay-ib IB.bin [--load ADDR:FILE] ... [--dump ADDR:SIZE:FILE] ... [--trace] [--poison-state]
 *
 * Exit status: 0 success (accepted), 1 rejected / execution fault, 2 bad
 * usage or unreadable input.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/cli.h"
#include "cedar/vc_bof.h"
#include "cedar/vc_hw.h"
#include "cedar/vcedar.h"

#define MAX_ITEMS 64

static const char usage[] =
    "usage: cedar-sim COMMAND ...\n"
    "\n"
    "  check CS.bin --bo SIZE[:vram|gtt] ... [--strict | --kernel-compat] [--dma] [--no-keep-tiling]\n"
    "      Run only the command-stream checker (modelled on the radeon kernel's\n"
    "      evergreen_cs.c) on a kernel-style IB whose relocation NOPs refer, in\n"
    "      order, to buffers of the given sizes (K/M/G suffixes; default domain vram).\n"
    "      Prints 'accepted' or the structured error.  --dma: a DMA-ring IB.\n"
    "      The CS is taken to carry RADEON_CS_KEEP_TILING_FLAGS unless --no-keep-tiling.\n"
    "\n"
    "  replay FILE.bof ... [--dump HANDLE:FILE] ... [--dump-all DIR] [--trace] [--poison-state]\n"
    "         [--strict | --kernel-compat]\n"
    "      Replay captures (libdrm BOF format, one CS per file, buffers matched by\n"
    "      GEM handle across files) through the virtual kernel, then dump buffers\n"
    "      (--dump-all: every buffer the captures name, as DIR/bo_HANDLE.bin).\n"
    "      Checks as --strict unless --kernel-compat is given (cedar-run's default:\n"
    "      replay a cedar-run capture with --kernel-compat).\n"
    "      --poison-state: each CS starts with every context and config register it\n"
    "      does not write holding junk (0xBAD00000 | offset); each read of one by\n"
    "      the model is reported once per CS on stderr (and in the trace).\n"
    "\n"
    "  replay-ib IB.bin [--load ADDR:FILE] ... [--dump ADDR:SIZE:FILE] ... [--trace] [--dma]\n"
    "         [--poison-state]\n"
    "      Run a raw indirect buffer written for bare metal (absolute GPU addresses,\n"
    "      no relocations, no checks) with memory preloaded from files and regions\n"
    "      dumped afterwards.  GPU memory is VRAM at 0 (512 MiB) and GTT after it.\n"
    "\n"
    "  Exit status: 0 accepted / ran, 1 rejected or an execution fault, 2 bad usage or input.\n";

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "cedar-sim: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (cedar-sim --help for usage)\n");   /* one line per error */
    return 2;
}

/* An address, handle or size (C literal: 0x hex, 0 octal, decimal; a size
 * may end in K, M or G).  The callers word the error about the whole spec. */
static int parse_u64(const char *s, uint64_t *out, int allow_suffix)
{
    return cedar_cli_u64("", s, CEDAR_CLI_C, allow_suffix, out, NULL);
}

static int read_whole(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cedar-sim: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 65536, n = 0;
    uint8_t *p = malloc(cap);
    while (p) {
        n += fread(p + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *q = realloc(p, cap *= 2);
        if (!q) {
            free(p);
            p = NULL;
        }
        p = q;
    }
    int bad = ferror(f);
    fclose(f);
    /* exactly the file's bytes, so nothing reads past them unseen */
    uint8_t *exact = p ? realloc(p, n ? n : 1) : NULL;
    if (!exact || bad) {
        free(exact ? exact : p);
        fprintf(stderr, "cedar-sim: %s: read failed\n", path);
        return -1;
    }
    *out = exact;
    *len = n;
    return 0;
}

static int read_ib(const char *path, uint32_t **ib, size_t *ndw)
{
    uint8_t *p;
    size_t len;
    if (read_whole(path, &p, &len))
        return -1;
    if (len == 0 || len % 4) {
        fprintf(stderr, "cedar-sim: %s: %zu bytes is not a whole, non-empty number of dwords\n", path, len);
        free(p);
        return -1;
    }
    *ib = (uint32_t *)p;
    *ndw = len / 4;
    return 0;
}

static int write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) {
        fprintf(stderr, "cedar-sim: %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    return fclose(f) ? -1 : 0;
}

static int mode_option(const char *a, enum vc_check_mode *mode)
{
    if (!strcmp(a, "--strict"))
        *mode = VC_CHECK_STRICT;
    else if (!strcmp(a, "--kernel-compat"))
        *mode = VC_CHECK_KERNEL;
    else
        return 0;
    return 1;
}

static void print_error(const char *prefix, const struct vc_error *e)
{
    char line[320];
    vc_error_format(e, line, sizeof(line));
    printf("%s%s\n", prefix, line);
}

/* ---- check ------------------------------------------------------------------- */

static int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    enum vc_check_mode mode = VC_CHECK_STRICT;
    bool dma = false, keep_tiling = true;
    uint64_t sizes[MAX_ITEMS];
    uint32_t domains[MAX_ITEMS];
    unsigned nbo = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (mode_option(a, &mode))
            continue;
        if (!strcmp(a, "--dma")) {
            dma = true;
        } else if (!strcmp(a, "--no-keep-tiling")) {
            keep_tiling = false;
        } else if (!strcmp(a, "--bo")) {
            if (++i >= argc)
                return bad_usage("%s needs SIZE[:vram|gtt]", a);
            if (nbo == MAX_ITEMS)
                return bad_usage("too many --bo (at most %s)", "64");
            char spec[64];
            snprintf(spec, sizeof(spec), "%s", argv[i]);
            char *colon = strchr(spec, ':');
            domains[nbo] = RADEON_GEM_DOMAIN_VRAM;
            if (colon) {
                *colon = '\0';
                if (!strcmp(colon + 1, "gtt"))
                    domains[nbo] = RADEON_GEM_DOMAIN_GTT;
                else if (strcmp(colon + 1, "vram"))
                    return bad_usage("--bo: \"%s\" is not SIZE[:DOMAIN] (the domain is vram or gtt)", argv[i]);
            }
            if (parse_u64(spec, &sizes[nbo], 1) || sizes[nbo] == 0 || sizes[nbo] > (1ull << 31))
                return bad_usage("--bo: \"%s\" is not a buffer size (1 byte .. 2 GiB)", argv[i]);
            nbo++;
        } else if (a[0] == '-') {
            return bad_usage("unknown option %s", a);
        } else if (!path) {
            path = a;
        } else {
            return bad_usage("one CS file only (%s)", a);
        }
    }
    if (!path)
        return bad_usage("check needs a CS file%s", "");
    uint32_t *ib;
    size_t ndw;
    if (read_ib(path, &ib, &ndw))
        return 2;

    /* Place the buffers as the virtual kernel would. */
    struct vcedar_opts o = { .mode = mode, .no_render = true };
    struct cedar_dev *dev;
    if (cedar_dev_open_virtual(&o, &dev)) {
        free(ib);
        fprintf(stderr, "cedar-sim: out of memory\n");
        return 2;
    }
    struct vc_reloc_bo bos[MAX_ITEMS];
    uint32_t relocs[MAX_ITEMS * 4];
    int rc = 2;
    for (unsigned i = 0; i < nbo; i++) {
        struct drm_radeon_gem_create c = { .size = sizes[i], .initial_domain = domains[i] };
        if (cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c)) {
            fprintf(stderr, "cedar-sim: buffer %u (%" PRIu64 " bytes) does not fit the apertures\n", i, sizes[i]);
            goto out;
        }
        /* The kernel sizes checks by the buffer object, which is page-rounded;
         * the checker is given the size as asked (what Mesa recorded). */
        bos[i] = (struct vc_reloc_bo){ .size = sizes[i], .domain = domains[i] };
        relocs[i * 4 + 0] = c.handle;
        relocs[i * 4 + 1] = domains[i];
        relocs[i * 4 + 2] = 0;
        relocs[i * 4 + 3] = 0;
    }
    /* GPU offsets: where the virtual kernel placed the buffers. */
    struct vcedar *vc = vcedar_of(dev);
    for (unsigned i = 0; i < nbo; i++) {
        uint64_t addr = 0;
        vcedar_bo_gpu_address(vc, relocs[i * 4], &addr);
        bos[i].gpu_offset = addr;
    }
    struct vc_check_cfg cfg = { .mode = mode, .tiling_config = VCEDAR_TILING_CONFIG,
                                .cs_flags = keep_tiling ? RADEON_CS_KEEP_TILING_FLAGS : 0 };
    struct vc_error err;
    int r = dma ? vc_check_dma(&cfg, ib, ndw, nbo, nbo ? bos : NULL, &err)
                : vc_check_gfx(&cfg, ib, ndw, nbo ? relocs : NULL, (size_t)nbo * 4, bos, &err);
    if (r == 0) {
        printf("accepted\n");
        rc = 0;
    } else {
        print_error("rejected: ", &err);
        rc = 1;
    }
out:
    cedar_dev_destroy(dev);
    free(ib);
    return rc;
}

/* ---- replay (BOF) -------------------------------------------------------------- */

struct handle_map {
    uint32_t captured, local;
    uint64_t size;
};

/* Write a replayed buffer's contents to path; 0, or -1 when it cannot be mapped. */
static int dump_buffer(struct cedar_dev *dev, const struct handle_map *b, const char *path)
{
    struct drm_radeon_gem_mmap m = { .handle = b->local };
    void *p;
    if (cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m) || !(p = cedar_dev_mmap(dev, m.addr_ptr, b->size)))
        return -1;
    int r = write_file(path, p, b->size);
    cedar_dev_munmap(dev, p, b->size);
    return r ? -2 : 0;
}

static int replay_files(int argc, char **argv, const char **files)
{
    unsigned nfiles = 0, ndumps = 0;
    const char *dumps[MAX_ITEMS], *dump_all = NULL;
    enum vc_check_mode mode = VC_CHECK_STRICT;
    bool trace = false, poison = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (mode_option(a, &mode))
            continue;
        if (!strcmp(a, "--trace")) {
            trace = true;
        } else if (!strcmp(a, "--poison-state")) {
            poison = true;
        } else if (!strcmp(a, "--dump")) {
            if (++i >= argc || ndumps == MAX_ITEMS)
                return bad_usage("%s needs HANDLE:FILE", a);
            dumps[ndumps++] = argv[i];
        } else if (!strcmp(a, "--dump-all")) {
            if (++i >= argc)
                return bad_usage("%s needs a directory", a);
            dump_all = argv[i];
        } else if (a[0] == '-') {
            return bad_usage("unknown option %s", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (!nfiles)
        return bad_usage("replay needs a capture file%s", "");
    if (dump_all && mkdir(dump_all, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cedar-sim: --dump-all %s: %s\n", dump_all, strerror(errno));
        return 2;
    }
    struct vcedar_opts o = { .mode = mode, .trace = trace ? stdout : NULL, .poison_state = poison };
    struct cedar_dev *dev;
    if (cedar_dev_open_virtual(&o, &dev)) {
        fprintf(stderr, "cedar-sim: out of memory\n");
        return 2;
    }
    struct handle_map *map = NULL; /* grows: a program may keep hundreds of buffers */
    unsigned nmap = 0, mapcap = 0;
    int rc = 0;
    for (unsigned f = 0; f < nfiles && rc != 2; f++) {
        struct vc_bof_cs cs;
        char err[256];
        if (vc_bof_read(files[f], &cs, err, sizeof(err))) {
            fprintf(stderr, "cedar-sim: %s\n", err);
            rc = 2;
            break;
        }
        /* Buffers: create on first sight (by captured handle), then load the
         * contents the capture recorded.  A handle seen again with another
         * size was closed and reused by the program (GEM handles are
         * recycled, lowest free first): it names a new buffer from here on. */
        for (uint32_t i = 0; i < cs.nbos && rc != 2; i++) {
            struct vc_bof_bo *b = &cs.bos[i];
            unsigned k;
            for (k = 0; k < nmap && map[k].captured != b->handle; k++)
                ;
            if (k < nmap && map[k].size != b->size) {
                struct drm_gem_close cl = { .handle = map[k].local };
                cedar_dev_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &cl);
                map[k] = map[--nmap];
                k = nmap;
            }
            if (k == nmap) {
                if (nmap == mapcap) {
                    unsigned cap = mapcap ? 2 * mapcap : 64;
                    struct handle_map *grown = realloc(map, cap * sizeof *map);
                    if (!grown) {
                        fprintf(stderr, "cedar-sim: out of memory\n");
                        rc = 2;
                        break;
                    }
                    map = grown;
                    mapcap = cap;
                }
                uint32_t dom = b->domain ? b->domain : RADEON_GEM_DOMAIN_VRAM;
                struct drm_radeon_gem_create c = { .size = b->size, .initial_domain = dom };
                if (cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_CREATE, &c)) {
                    fprintf(stderr, "cedar-sim: %s: buffer %u (%u bytes) does not fit\n", files[f], b->handle,
                            b->size);
                    rc = 2;
                    break;
                }
                struct drm_radeon_gem_set_tiling t = { .handle = c.handle, .tiling_flags = b->tiling_flags,
                                                       .pitch = b->pitch };
                cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_SET_TILING, &t);
                map[nmap++] = (struct handle_map){ .captured = b->handle, .local = c.handle, .size = b->size };
            }
            struct drm_radeon_gem_mmap m = { .handle = map[k].local };
            void *p;
            if (cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m) ||
                !(p = cedar_dev_mmap(dev, m.addr_ptr, map[k].size))) {
                fprintf(stderr, "cedar-sim: %s: buffer %u cannot be mapped\n", files[f], b->handle);
                rc = 2;
                break;
            }
            memcpy(p, b->data, b->size);
            cedar_dev_munmap(dev, p, map[k].size);
        }
        if (rc == 2) {
            vc_bof_free(&cs);
            break;
        }
        for (uint32_t i = 0; i < cs.nrelocs; i++) {
            unsigned k;
            for (k = 0; k < nmap && map[k].captured != cs.relocs[i * 4]; k++)
                ;
            cs.relocs[i * 4] = k < nmap ? map[k].local : 0xFFFFFFFFu;
        }
        uint32_t flags[2] = { cs.flags, cs.ring };
        struct drm_radeon_cs_chunk chunks[3] = {
            { .chunk_id = RADEON_CHUNK_ID_IB, .length_dw = cs.ndw, .chunk_data = (uintptr_t)cs.ib },
            { .chunk_id = RADEON_CHUNK_ID_RELOCS, .length_dw = cs.nrelocs * 4, .chunk_data = (uintptr_t)cs.relocs },
            { .chunk_id = RADEON_CHUNK_ID_FLAGS, .length_dw = 2, .chunk_data = (uintptr_t)flags },
        };
        uint64_t ptrs[3] = { (uintptr_t)&chunks[0], (uintptr_t)&chunks[1], (uintptr_t)&chunks[2] };
        struct drm_radeon_cs req = { .num_chunks = 3, .chunks = (uintptr_t)ptrs };
        struct vcedar *vc = vcedar_of(dev);
        int r = cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_CS, &req);
        if (r) {
            printf("%s: ", files[f]);
            print_error("rejected: ", vcedar_last_error(vc));
            rc = 1;
        } else {
            printf("%s: accepted (%u dwords, %u relocations)\n", files[f], cs.ndw, cs.nrelocs);
            const struct vc_error *x = vcedar_exec_error(vc);
            if (x->code != VC_OK) {
                print_error("  execution fault: ", x);
            }
        }
        vc_bof_free(&cs);
    }
    for (unsigned d = 0; d < ndumps && rc != 2; d++) {
        char spec[512];
        snprintf(spec, sizeof(spec), "%s", dumps[d]);
        char *colon = strchr(spec, ':');
        uint64_t h;
        if (!colon || (*colon = '\0', parse_u64(spec, &h, 0)) || !colon[1]) {
            rc = bad_usage("--dump: \"%s\" is not HANDLE:FILE", dumps[d]);
            break;
        }
        unsigned k;
        for (k = 0; k < nmap && map[k].captured != h; k++)
            ;
        int r = k < nmap ? dump_buffer(dev, &map[k], colon + 1) : -1;
        if (r == -1)
            fprintf(stderr, "cedar-sim: --dump %s: no captured buffer with handle %" PRIu64 "\n", dumps[d], h);
        if (r)
            rc = 2;
    }
    for (unsigned k = 0; dump_all && k < nmap && rc != 2; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/bo_%u.bin", dump_all, map[k].captured);
        if (dump_buffer(dev, &map[k], path))
            rc = 2;
    }
    cedar_dev_destroy(dev);
    free(map);
    return rc;
}

/* Every capture named is replayed, however many: a GL session writes
 * hundreds (files[] holds up to argc of them). */
static int cmd_replay(int argc, char **argv)
{
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) {
        fprintf(stderr, "cedar-sim: out of memory\n");
        return 2;
    }
    int rc = replay_files(argc, argv, files);
    free(files);
    return rc;
}

/* ---- replay-ib (bare metal) -------------------------------------------------------- */

#define RAW_VRAM_SIZE (512ull << 20)
#define RAW_GTT_BASE (512ull << 20)
#define RAW_GTT_SIZE (512ull << 20)

/* "ADDR:SIZE:FILE" into spec (a copy): the FILE part, or NULL when the
 * spec is malformed or SIZE is 0 or more than VRAM. */
static const char *parse_raw_dump(const char *arg, char *spec, size_t cap, uint64_t *addr, uint64_t *size)
{
    snprintf(spec, cap, "%s", arg);
    char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || (*c1 = '\0', *c2 = '\0', parse_u64(spec, addr, 0)) || parse_u64(c1 + 1, size, 1) ||
        !*size || *size > RAW_VRAM_SIZE || !c2[1])
        return NULL;
    return c2 + 1;
}

static int cmd_replay_ib(int argc, char **argv)
{
    const char *path = NULL, *loads[MAX_ITEMS], *dumps[MAX_ITEMS];
    unsigned nloads = 0, ndumps = 0;
    bool trace = false, dma = false, poison = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--trace")) {
            trace = true;
        } else if (!strcmp(a, "--poison-state")) {
            poison = true;
        } else if (!strcmp(a, "--dma")) {
            dma = true;
        } else if (!strcmp(a, "--load") || !strcmp(a, "--dump")) {
            if (++i >= argc)
                return bad_usage("%s needs an argument", a);
            if (a[2] == 'l' && nloads < MAX_ITEMS)
                loads[nloads++] = argv[i];
            else if (a[2] == 'd' && ndumps < MAX_ITEMS)
                dumps[ndumps++] = argv[i];
            else
                return bad_usage("too many %s", a);
        } else if (a[0] == '-') {
            return bad_usage("unknown option %s", a);
        } else if (!path) {
            path = a;
        } else {
            return bad_usage("one IB file only (%s)", a);
        }
    }
    if (!path)
        return bad_usage("replay-ib needs an IB file%s", "");
    for (unsigned d = 0; d < ndumps; d++) {   /* bad usage is told before anything runs */
        char spec[512];
        uint64_t addr, size;
        if (!parse_raw_dump(dumps[d], spec, sizeof(spec), &addr, &size))
            return bad_usage("--dump: \"%s\" is not ADDR:SIZE:FILE (SIZE 1 byte .. 512M)", dumps[d]);
    }
    uint32_t *ib;
    size_t ndw;
    if (read_ib(path, &ib, &ndw))
        return 2;
    struct vcedar_opts o = { .trace = trace ? stdout : NULL, .poison_state = poison };
    struct vcedar *vc = vcedar_create(&o);
    int rc = 2;
    if (!vc || vcedar_map_region(vc, 0, RAW_VRAM_SIZE) || vcedar_map_region(vc, RAW_GTT_BASE, RAW_GTT_SIZE)) {
        fprintf(stderr, "cedar-sim: cannot set up GPU memory\n");
        goto out;
    }
    for (unsigned l = 0; l < nloads; l++) {
        char spec[512];
        snprintf(spec, sizeof(spec), "%s", loads[l]);
        char *colon = strchr(spec, ':');
        uint64_t addr;
        if (!colon || (*colon = '\0', parse_u64(spec, &addr, 0)) || !colon[1]) {
            rc = bad_usage("--load: \"%s\" is not ADDR:FILE", loads[l]);
            goto out;
        }
        uint8_t *data;
        size_t len;
        if (read_whole(colon + 1, &data, &len))
            goto out;
        int r = vcedar_mem_write(vc, addr, data, len);
        free(data);
        if (r) {
            fprintf(stderr, "cedar-sim: --load %s: 0x%" PRIX64 " + %zu bytes is outside GPU memory\n", loads[l],
                    addr, len);
            goto out;
        }
    }
    struct vc_error err;
    int r = vcedar_exec_raw(vc, dma ? VC_RING_DMA : VC_RING_GFX, ib, ndw, &err);
    struct vcedar_stats st;
    vcedar_stats(vc, &st);
    printf("ran %zu dwords: %" PRIu64 " packets, %" PRIu64 " draws, %" PRIu64 " fences, %" PRIu64
           " CP DMA bytes, %" PRIu64 " execution faults\n", ndw, st.packets, st.draws, st.fences,
           st.cp_dma_bytes, st.exec_errors);
    rc = 0;
    if (r) {
        print_error("first execution fault: ", &err);
        rc = 1;
    }
    for (unsigned d = 0; d < ndumps; d++) {
        char spec[512];
        uint64_t addr, size;
        const char *file = parse_raw_dump(dumps[d], spec, sizeof(spec), &addr, &size);
        uint8_t *buf = malloc(size);
        if (!buf || vcedar_mem_read(vc, addr, buf, size)) {
            fprintf(stderr, "cedar-sim: --dump %s: outside GPU memory\n", dumps[d]);
            free(buf);
            rc = 2;
            goto out;
        }
        if (write_file(file, buf, size))
            rc = 2;
        free(buf);
    }
out:
    vcedar_destroy(vc);
    free(ib);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!strcmp(argv[1], "check"))
        return cmd_check(argc - 2, argv + 2);
    if (!strcmp(argv[1], "replay"))
        return cmd_replay(argc - 2, argv + 2);
    if (!strcmp(argv[1], "replay-ib"))
        return cmd_replay_ib(argc - 2, argv + 2);
    return bad_usage("unknown command %s", argv[1]);
}
