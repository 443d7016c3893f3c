/* --capture DIR: each CS, as it is about to be submitted, written as the
 * next DIR/cs_NNN.bof (libdrm's BOF format with the contents of every
 * buffer it references, src/vcedar/bof.c), so `cedar-sim replay
 * DIR/cs_*.bof` reproduces a program's session.  Numbers are taken with
 * O_EXCL, so the processes of one cedar-run (a test that forks, a shell
 * script) share one sequence without overwriting each other. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <radeon_drm.h>

#include "cedar/vc_bof.h"
#include "cedar/vcedar.h"
#include "shim.h"

#define MAX_CAPTURES 100000

/* Reserve the next free DIR/cs_NNN.bof; 0 or -1. */
static int next_path(char *path, size_t len)
{
    static unsigned next;   /* where this process looks first */
    for (; next < MAX_CAPTURES; next++) {
        snprintf(path, len, "%s/cs_%03u.bof", shim_cfg.capture_dir, next);
        int fd = REAL(openat, "openat")(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            REAL(close, "close")(fd);
            next++;
            return 0;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = ENOSPC;
    return -1;
}

void shim_capture_cs(struct cedar_dev *dev, const struct drm_radeon_cs *cs)
{
    const uint64_t *chunks = (const uint64_t *)(uintptr_t)cs->chunks;
    uint32_t nrelocs = 0;
    const uint32_t *relocs = NULL;
    for (uint32_t i = 0; i < cs->num_chunks; i++) {
        const struct drm_radeon_cs_chunk *c = (const void *)(uintptr_t)chunks[i];
        if (c->chunk_id == RADEON_CHUNK_ID_RELOCS) {
            relocs = (const uint32_t *)(uintptr_t)c->chunk_data;
            nrelocs = c->length_dw / 4;   /* struct drm_radeon_cs_reloc: 4 dwords */
        }
    }
    uint64_t *sizes = calloc(nrelocs ? nrelocs : 1, sizeof *sizes);
    char path[600], err[700] = "";
    int ok = sizes != NULL;
    for (uint32_t r = 0; ok && r < nrelocs; r++) {
        if (vcedar_file_bo_size(dev, relocs[r * 4], &sizes[r]) != 0) {
            snprintf(err, sizeof err, "relocation %u names no buffer (the CS will be refused)", r);
            ok = 0;
        }
    }
    if (ok && next_path(path, sizeof path) != 0) {
        snprintf(err, sizeof err, "cannot create a capture file in %s: %s", shim_cfg.capture_dir,
                 strerror(errno));
        ok = 0;
    }
    if (ok && vc_bof_capture(dev, cs, sizes, path, err, sizeof err) != 0)
        ok = 0;
    if (!ok)
        shim_log("capture skipped: %s", err[0] ? err : "out of memory");
    else if (shim_cfg.trace)
        shim_log("captured %s", path);
    free(sizes);
}
