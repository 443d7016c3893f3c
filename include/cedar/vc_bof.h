/* Command-stream captures in libdrm's BOF format (radeon/bof.c, written by
 * radeon_cs_gem.c when built with CS_BOF_DUMP), so a capture made on a real
 * card replays on the virtual Cedar and vice versa.
 *
 * A BOF file is a tree of nodes, each `type, size (bytes, 12-byte header
 * included), count` little-endian u32s followed by its payload: a string,
 * an int32, a blob, or (object / array) its children; an object's children
 * alternate key string / value.  One CS per file; the root object holds
 *   device_id  int32   the PCI device id
 *   reloc      blob    the RELOCS chunk (struct drm_radeon_cs_reloc each)
 *   pm4        blob    the IB
 *   bo         array   per relocation: { size int32, handle int32, data blob }
 * and, as extensions libdrm ignores:
 *   ring int32, flags int32 (the FLAGS chunk), and per buffer domain int32,
 *   tiling int32, pitch int32.
 */
#ifndef CEDAR_VC_BOF_H
#define CEDAR_VC_BOF_H

#include <stddef.h>
#include <stdint.h>

#include "cedar/device.h"

struct drm_radeon_cs;

struct vc_bof_bo {
    uint32_t handle;
    uint32_t size;
    uint32_t domain;          /* RADEON_GEM_DOMAIN_*; 0 when the capture does not say */
    uint32_t tiling_flags, pitch;
    void *data;               /* size bytes */
};

struct vc_bof_cs {
    uint32_t device_id;
    uint32_t ring;            /* RADEON_CS_RING_* */
    uint32_t flags;           /* RADEON_CS_* (the FLAGS chunk's first dword) */
    uint32_t *relocs;         /* 4 dwords per relocation */
    uint32_t nrelocs;
    uint32_t *ib;
    uint32_t ndw;
    struct vc_bof_bo *bos;    /* one per relocation, in relocation order */
    uint32_t nbos;
};

/* Write / read one capture.  Return 0, or -1 with a one-line reason in err. */
int vc_bof_write(const char *path, const struct vc_bof_cs *cs, char *err, size_t errlen);
int vc_bof_read(const char *path, struct vc_bof_cs *out, char *err, size_t errlen);
/* Free what vc_bof_read allocated. */
void vc_bof_free(struct vc_bof_cs *cs);

/* Capture a CS about to be submitted on dev (either backend): its chunks,
 * and the current contents of each relocated buffer, read through
 * GEM_MMAP + mmap (tiling through GEM_GET_TILING).  bo_sizes[i] is the
 * size of relocation i's buffer: the radeon interface has no size query. */
int vc_bof_capture(struct cedar_dev *dev, const struct drm_radeon_cs *cs, const uint64_t *bo_sizes,
                   const char *path, char *err, size_t errlen);

#endif
