/* --dump-cs: every IB as submitted (raw little-endian dwords) and its
 * relocation list, one file pair per submission. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "demo_internal.h"

static const char *domain_name(uint32_t d)
{
    switch (d) {
    case 0: return "0";
    case RADEON_GEM_DOMAIN_GTT: return "GTT";
    case RADEON_GEM_DOMAIN_VRAM: return "VRAM";
    case RADEON_GEM_DOMAIN_GTT | RADEON_GEM_DOMAIN_VRAM: return "GTT|VRAM";
    default: return "?";
    }
}

static int write_le_dwords(FILE *f, const uint32_t *dw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[4] = { (uint8_t)dw[i], (uint8_t)(dw[i] >> 8), (uint8_t)(dw[i] >> 16),
                         (uint8_t)(dw[i] >> 24) };
        if (fwrite(b, 1, 4, f) != 4)
            return -1;
    }
    return 0;
}

int cedar_demo_dump_cs(const struct cedar_demo_plan *plan, const char *dir, char *err,
                       size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    for (unsigned i = 0; i < plan->nibs; i++) {
        const struct cedar_cmdbuf *cb = &plan->ibs[i].cb;
        char path[4096];
        snprintf(path, sizeof path, "%s/cs_%03u.bin", dir, i);
        FILE *f = fopen(path, "wb");
        if (!f || write_le_dwords(f, cb->dw, cb->ndw) != 0 || fclose(f) != 0) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        snprintf(path, sizeof path, "%s/cs_%03u.relocs.txt", dir, i);
        f = fopen(path, "w");
        if (!f) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
        fprintf(f, "# %s: %zu dwords, %u relocations\n", plan->ibs[i].what, cb->ndw, cb->nrelocs);
        fprintf(f, "# index buffer size read_domains write_domain\n");
        for (unsigned r = 0; r < cb->nrelocs; r++) {
            const struct drm_radeon_cs_reloc *rl = &cb->relocs[r];
            unsigned id = rl->handle - 1;
            const char *name = id < CEDAR_DEMO_BUF_COUNT ? plan->bufs[id].name : "?";
            uint64_t size = id < CEDAR_DEMO_BUF_COUNT ? plan->bufs[id].size : 0;
            fprintf(f, "%u %s %llu %s %s\n", r, name, (unsigned long long)size,
                    domain_name(rl->read_domains), domain_name(rl->write_domain));
        }
        if (fclose(f) != 0) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}
