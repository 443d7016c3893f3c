/* The virtual Cedar: a software Radeon HD 7350 behind the radeon kernel's
 * ioctls (include/cedar/device.h), so the code path a card owner runs is
 * the one CI runs.
 *
 * Layers (src/vcedar/):
 *   vc_dev.c      the device: apertures, memory, the direct interface below
 *   vc_file.c     DRM files (the ioctl seam) and drm_ioctl()'s dispatch
 *   vc_drm.c      the DRM core ioctls: VERSION, GET_CAP, masters, GEM names
 *   vc_radeon.c   the radeon ioctls: RADEON_INFO, GEM_*, CS
 *   vc_bo.c       buffer objects placed in a VRAM or a GTT aperture, the
 *                 handles files hold on them, GEM_FLINK names
 *   vc_cs.c       CS ingestion as radeon_cs.c does it (chunks, relocations)
 *   vc_check*.c   the command-stream checker modelled on evergreen_cs.c
 *   vc_cp.c       the command processor (register file, CP_DMA, fences...)
 *   vc_dma.c      the asynchronous DMA ring
 *   bof.c         libdrm's BOF capture format (reader and writer)
 *
 * Two ways in: cedar_dev_open_virtual() for code written against the
 * kernel interface, and struct vcedar for tools that drive the model
 * directly (raw indirect buffers with absolute addresses, memory loads and
 * dumps by GPU address, the checker on its own).
 *
 * DRM files.  As in the kernel, one model (a drm_device: memory, rings,
 * registers) serves any number of DRM files (struct cedar_dev, one per
 * open() of /dev/dri/card0 or renderD128), each with its own GEM handle
 * namespace; buffers are shared between files through GEM_FLINK/GEM_OPEN
 * names.  Requests are dispatched as drm_ioctl() does: on the ioctl number,
 * with the permission checks of drm_ioctl_permit() (DRM_AUTH,
 * DRM_MASTER, DRM_ROOT_ONLY, DRM_RENDER_ALLOW), the argument treated as
 * _IOC_SIZE(request) bytes, zero-extended to the kernel's struct and
 * written back (even on failure) when the request has _IOC_READ.  Pointers
 * inside arguments (RADEON_INFO value, CS chunks, version strings) are
 * dereferenced as given: the caller has made them valid.  Nothing here is
 * thread-safe: callers serialize every call on one model.  Not modelled,
 * with the answers a kernel gives for a device without them: PRIME
 * (DRM_CAP_PRIME 0, PRIME_* -ENOSYS), a display engine (KMS ioctls
 * -EOPNOTSUPP, RADEON_INFO_CRTC_FROM_ID -EINVAL), syncobjs (-EOPNOTSUPP),
 * RADEON_INFO_READ_REG (-EINVAL for every register); GEM_USERPTR makes its
 * argument checks (Mesa's probe gets -EACCES) and then answers -ENOMEM.
 */
#ifndef CEDAR_VCEDAR_H
#define CEDAR_VCEDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cedar/device.h"

struct vc_regs;
struct vc_mem;
struct vc_draw;
struct vc_draw_err;

/* How strict the checker is. */
enum vc_check_mode {
    VC_CHECK_STRICT = 0,  /* the kernel's checks plus CMask/FMask sizes and
                             every address inside its buffer (our default) */
    VC_CHECK_KERNEL = 1,  /* exactly as permissive as evergreen_cs.c */
};

/* Why a command stream was rejected.  Codes are stable (tests match them). */
enum vc_err_code {
    VC_OK = 0,
    VC_E_CHUNKS,          /* CS chunk layout: no/empty IB, bad flags, VM asked for */
    VC_E_RING,            /* ring not modelled or not allowed */
    VC_E_BO_HANDLE,       /* relocation names no buffer (-ENOENT) */
    VC_E_BO_DOMAIN,       /* relocation asks for the CPU domain */
    VC_E_PKT_TYPE,        /* type-1 header, or type-0 to a forbidden register */
    VC_E_PKT_TRUNCATED,   /* packet runs past the end of the IB */
    VC_E_PKT_COUNT,       /* a packet's COUNT is not what the kernel accepts */
    VC_E_PKT_UNSUPPORTED, /* a type-3 opcode the kernel refuses */
    VC_E_PKT_OPERAND,     /* a packet operand the kernel refuses (CP_DMA selects, ...) */
    VC_E_RELOC_NO_CHUNK,  /* an address needs a relocation but there is no RELOCS chunk */
    VC_E_RELOC_MISSING,   /* an address is not followed by a relocation NOP */
    VC_E_RELOC_RANGE,     /* a relocation index past the end of the RELOCS chunk */
    VC_E_REG_RANGE,       /* SET_* register range outside its space */
    VC_E_REG_FORBIDDEN,   /* a register the kernel does not let user space write */
    VC_E_CB_NO_BO,        /* an enabled colour buffer without a buffer */
    VC_E_CB_FORMAT,       /* an invalid colour format */
    VC_E_SURF_TILING,     /* bank / bank width / height / aspect / tile split out of range */
    VC_E_SURF_ARRAY_MODE, /* an invalid array mode */
    VC_E_SURF_PITCH,      /* pitch not aligned for the array mode */
    VC_E_SURF_HEIGHT,     /* height not aligned for the array mode */
    VC_E_SURF_BASE_ALIGN, /* base address not aligned for the array mode */
    VC_E_SURF_SIZE,       /* surface does not fit inside its buffer */
    VC_E_DB,              /* depth / stencil / HTILE checks */
    VC_E_TEXTURE,         /* texture resource checks */
    VC_E_VERTEX,          /* vertex resource checks */
    VC_E_STREAMOUT,       /* stream-out buffer checks */
    VC_E_BO_RANGE,        /* a packet's memory operand past the end of its buffer */
    VC_E_CMASK_SIZE,      /* strict: CMask does not fit its buffer */
    VC_E_FMASK_SIZE,      /* strict: FMask does not fit its buffer */
    VC_E_ADDR_RANGE,      /* strict: an address outside its buffer */
    VC_E_DMA_PACKET,      /* DMA ring: unknown command or sub-command */
    VC_E_EXEC,            /* execution fault (address outside memory, draw error) */
    VC_E_COUNT_
};

/* A structured rejection: code, where, what, why. */
struct vc_error {
    enum vc_err_code code;
    uint32_t dword;        /* dword offset in the IB of the offending packet or register */
    char what[48];         /* register or packet name ("CB_COLOR0_BASE", "DRAW_INDEX_AUTO") */
    char text[200];        /* one line: "CB_COLOR0_BASE without a relocation" */
};

const char *vc_err_code_name(enum vc_err_code code);
/* "dword 0x1A3: CB_COLOR0_BASE without a relocation [reloc-missing]" */
void vc_error_format(const struct vc_error *e, char *buf, size_t len);

/* The renderer the command processor calls at each draw (render.h's
 * vc_render_draw has this shape).  NULL: draws are validated and counted. */
typedef int (*vc_draw_fn)(void *ctx, const struct vc_regs *regs, const struct vc_mem *mem,
                          const struct vc_draw *draw, struct vc_draw_err *err);

struct vcedar_opts {
    enum vc_check_mode mode;   /* default VC_CHECK_STRICT */
    FILE *trace;               /* each executed packet is printed here; NULL: quiet */
    uint64_t vram_size;        /* 0: 512 MiB */
    uint64_t vram_visible;     /* 0: 256 MiB */
    uint64_t gtt_size;         /* 0: 512 MiB */
    vc_draw_fn draw;           /* NULL: the renderer (src/render) */
    bool no_render;            /* draws are validated and counted, not drawn */
    void *draw_ctx;
    /* The null device: every CS is parsed, its relocations resolved and its
     * buffers placed, and it is checked as usual, then nothing is executed
     * (no CP, no DMA ring, no draws): buffers keep what the CPU wrote and
     * waits return at once.  The control for measurements (Mesa's drm-shim
     * executes nothing either). */
    bool no_exec;
    /* The process counts as CAP_SYS_ADMIN: every card0 file is
     * authenticated (drm_file_alloc) and DRM_ROOT_ONLY ioctls are allowed
     * (drm_ioctl_permit).  false: an unprivileged client. */
    bool sys_admin;
    /* --poison-state: each GFX CS starts with every context and config
     * register it does not write (or load with CLEAR_STATE) holding junk
     * (0xBAD00000 | offset), and each read the model makes of one is reported
     * once per CS on stderr and in the trace (src/vcedar/vc_poison.c). */
    bool poison_state;
};

/* The kernel-interface backend: a new model and one DRM file on it (card0,
 * its master).  opts may be NULL (defaults).  Returns 0 or a negative errno;
 * *out is destroyed with cedar_dev_destroy(), which destroys the model too
 * (other files opened on it with vcedar_open_file() are then unplugged, as
 * after vcedar_destroy()). */
int cedar_dev_open_virtual(const struct vcedar_opts *opts, struct cedar_dev **out);

/* ---- the model itself, for tools and tests ---------------------------- */

struct vcedar;

struct vcedar *vcedar_create(const struct vcedar_opts *opts);
/* Frees the model and every buffer (CPU mappings of them become invalid).
 * Files still open on it are not freed: they are unplugged, every ioctl
 * answering -ENODEV (drm_dev_is_unplugged) and mmap failing, until their
 * owner calls cedar_dev_destroy() on them, which then frees only the file. */
void vcedar_destroy(struct vcedar *vc);
/* The model behind a virtual device (any of its files), NULL for any other
 * device or an unplugged file. */
struct vcedar *vcedar_of(struct cedar_dev *dev);

/* A new DRM file on an existing model, as another open() of the device
 * node: its own GEM handle namespace (handles from 1, lowest free), the
 * model's memory, rings and registers shared.  render_node: opened as
 * renderD128 (ioctls without DRM_RENDER_ALLOW answer -EACCES there, as
 * drm_ioctl_permit does) rather than card0 (the first opener of card0 while
 * there is no master becomes master, authenticated; later card0 files
 * authenticate with GET_MAGIC + the master's AUTH_MAGIC, as drm_auth.c).
 * Destroyed with cedar_dev_destroy(), which does what the kernel does at the
 * last close (drm_file_free): its handles are closed, its master role and
 * its RADEON_INFO_WANT_HYPERZ / WANT_CMASK rights released.  A buffer lives
 * while any file has a handle to it or any CPU mapping of it remains; a
 * mapping can be unmapped through any file of the model (in the kernel the
 * mapping keeps its file open: a shim that closes files faithfully destroys
 * one only after its mappings are gone).  Returns 0 or -errno. */
int vcedar_open_file(struct vcedar *vc, bool render_node, struct cedar_dev **out);
/* The kernel's definition of the ioctl a request number selects, as
 * drm_ioctl() finds it (by type 'd' and number alone): its own request
 * number, with the direction and size of the kernel's struct, or 0 when no
 * handler has that number.  A caller that copies user memory in and out
 * around the ioctl (cedar-run's shim) sizes its copies with it. */
unsigned long vcedar_ioctl_definition(unsigned long request);
/* Size in bytes of the buffer behind `handle` in this DRM file (for
 * captures). 0 or -ENOENT. */
int vcedar_file_bo_size(struct cedar_dev *file, uint32_t handle, uint64_t *size);
void vcedar_set_mode(struct vcedar *vc, enum vc_check_mode mode);
void vcedar_set_trace(struct vcedar *vc, FILE *trace);
/* The reason the last CS was rejected (code VC_OK when it was accepted). */
const struct vc_error *vcedar_last_error(const struct vcedar *vc);

/* The first execution fault (a bad address, a draw the renderer refused,
 * a WAIT_REG_MEM that would hang) since the model was created or
 * vcedar_exec_raw() was last called; code VC_OK when none.  Faults do not
 * fail the CS ioctl: the kernel had accepted the submission. */
const struct vc_error *vcedar_exec_error(const struct vcedar *vc);

/* Which 4096-byte pages of [ptr, ptr + len), CPU memory of one of the
 * model's buffers (ptr page-aligned, as a GEM_MMAP mapping is), hold zeros
 * that need not be read: pages nothing has written, neither the GPU nor
 * the CPU, since the buffer was created (its memory is anonymous and the
 * kernel keeps no page for them: /proc/self/pagemap shows them neither
 * present nor swapped).  zero[i] becomes 1 for such a page i, 0 for the
 * others.  Reading the answer costs no page fault, where reading the pages
 * would fault each one in.  0, or -1 when the range is not inside one
 * buffer or the kernel does not tell (zero[] then says nothing). */
int vcedar_zero_pages(struct vcedar *vc, const void *ptr, size_t len, uint8_t *zero);

/* Statistics the tests and tools look at. */
struct vcedar_stats {
    uint64_t cs_submitted, cs_rejected;
    uint64_t packets, draws, cp_dma_bytes, dma_bytes;
    uint64_t dispatches;       /* DISPATCH_DIRECT packets run */
    uint64_t fences;           /* EVENT_WRITE_EOP / _EOS / MEM_WRITE / DMA fence writes done */
    uint64_t exec_errors;      /* execution faults (see vcedar_exec_error) */
    uint64_t clock;            /* the virtual GPU clock (27 MHz ticks, as RADEON_INFO_TIMESTAMP) */
    uint64_t poisoned_reads;   /* --poison-state: reads of registers the CS left unwritten */
};
void vcedar_stats(const struct vcedar *vc, struct vcedar_stats *out);

/* Where buffer `handle` lies in the GPU address space now.  The handle is
 * looked up in the model's first DRM file (the one cedar_dev_open_virtual()
 * opened, or the first vcedar_open_file() one while it is open).  0 or
 * -ENOENT. */
int vcedar_bo_gpu_address(struct vcedar *vc, uint32_t handle, uint64_t *addr);

/* Raw GPU memory, for bare-metal replays: maps [addr, addr+size) as plain
 * memory (zero-filled, backed lazily).  Regions must not overlap buffers or
 * each other.  Returns 0 or -errno. */
int vcedar_map_region(struct vcedar *vc, uint64_t addr, uint64_t size);
/* Copy in / out by GPU address; the range must lie inside one buffer or region. */
int vcedar_mem_write(struct vcedar *vc, uint64_t addr, const void *src, size_t len);
int vcedar_mem_read(struct vcedar *vc, uint64_t addr, void *dst, size_t len);

enum vc_ring { VC_RING_GFX = 0, VC_RING_DMA = 2 };

/* Run an indirect buffer written for bare metal: absolute GPU addresses, no
 * relocations, no kernel checks.  Returns 0 or -1 with *err filled. */
int vcedar_exec_raw(struct vcedar *vc, enum vc_ring ring, const uint32_t *ib, size_t ndw,
                    struct vc_error *err);

/* ---- the checker on its own ------------------------------------------- */

/* One buffer a relocation refers to, as the checker sees it. */
struct vc_reloc_bo {
    uint64_t size;             /* bytes */
    uint64_t gpu_offset;       /* where the buffer lies in the GPU address space */
    uint32_t tiling_flags;     /* RADEON_TILING_* (GEM_SET_TILING) */
    uint32_t domain;           /* RADEON_GEM_DOMAIN_VRAM or _GTT */
};

struct vc_check_cfg {
    enum vc_check_mode mode;
    uint32_t tiling_config;    /* RADEON_INFO_TILING_CONFIG (0x0011 on our Cedar) */
    uint32_t cs_flags;         /* RADEON_CS_KEEP_TILING_FLAGS, ... */
};

/* Check (and patch, as the kernel does) a GFX indirect buffer in place:
 * reloc_chunk/reloc_dw is the RELOCS chunk (4 dwords per relocation),
 * bos[i] the buffer of relocation i.  Returns 0 or -1 with *err filled. */
int vc_check_gfx(const struct vc_check_cfg *cfg, uint32_t *ib, size_t ndw,
                 const uint32_t *reloc_chunk, size_t reloc_dw,
                 const struct vc_reloc_bo *bos, struct vc_error *err);
/* The same for the asynchronous DMA ring (relocations taken in order). */
int vc_check_dma(const struct vc_check_cfg *cfg, uint32_t *ib, size_t ndw,
                 size_t nrelocs, const struct vc_reloc_bo *bos, struct vc_error *err);

/* The Cedar the model answers for (RADEON_INFO_*), and where it sits on the
 * PCI bus (GET_UNIQUE answers "pci:0000:01:00.0" after SET_VERSION 1.1+). */
#define VCEDAR_PCI_DOMAIN     0x0000u
#define VCEDAR_PCI_BUS        0x01u
#define VCEDAR_PCI_DEV        0x00u
#define VCEDAR_PCI_FUNC       0x0u
#define VCEDAR_DEVICE_ID      0x68F9u
#define VCEDAR_TILING_CONFIG  0x0011u  /* 2 pipes, 8 banks, 256-byte interleave, 1 KiB rows */

#endif
