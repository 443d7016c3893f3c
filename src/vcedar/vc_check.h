/* The command-stream checker's internals (vc_check*.c). */
#ifndef CEDAR_VC_CHECK_H
#define CEDAR_VC_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/vcedar.h"
#include "eg_regs.h"

/* A data format's block and whether a colour buffer may use it. */
struct vc_format {
    uint8_t blockwidth, blockheight, blocksize, valid_color;
};
const struct vc_format *vc_format(uint32_t fmt);

/* A surface as evergreen_cs.c's struct eg_surface: nbx/nby in blocks. */
struct vc_surf {
    unsigned nbx, nby, format, mode, nbanks, bankw, bankh, tsplit, mtilea, nsamples;
    unsigned bpe;
    uint64_t layer_size;
    unsigned palign, halign;
    uint64_t base_align;
};

/* The tiling configuration RADEON_INFO_TILING_CONFIG describes. */
struct vc_tiling {
    unsigned npipes, nbanks, group_size, row_size;
};
void vc_tiling_decode(uint32_t tiling_config, struct vc_tiling *t);

/* evergreen_surface_value_conv_check(): field encodings -> values. */
int vc_surf_conv(struct vc_surf *s, const char *what, uint32_t dword, struct vc_error *err);
/* evergreen_surface_check(): alignment and layer size for the array mode.
 * err NULL: only compute (the kernel's prefix == NULL calls). */
int vc_surf_check(const struct vc_tiling *t, struct vc_surf *s, const char *what, uint32_t dword,
                  struct vc_error *err);

/* The checker's state: evergreen_cs_track plus what strict mode adds. */
struct cb_track {
    const struct vc_reloc_bo *bo;
    uint32_t offset;                 /* CB_COLORn_BASE as written (256-byte units) */
    uint32_t info, view, pitch, slice, attrib;
    const struct vc_reloc_bo *cmask_bo, *fmask_bo;
    uint32_t cmask, fmask;           /* CMASK / FMASK as written (256-byte units) */
    uint32_t cmask_slice, fmask_slice;
    uint32_t base_dw;                /* where BASE was written (for messages) */
    size_t slice_dw;                 /* where SLICE was written (the kernel may patch it) */
};
struct vc_ck {
    const struct vc_check_cfg *cfg;
    struct vc_tiling t;
    uint32_t *ib;
    size_t ndw, idx;                 /* idx: the kernel's p->idx, the next unread dword */
    size_t consumed;                 /* NOPs before this were taken as relocations */
    const uint32_t *relocs;
    size_t reloc_dw;
    const struct vc_reloc_bo *bos;
    struct vc_error *err;
    bool strict;
    /* evergreen_cs_track */
    unsigned nsamples;
    struct cb_track cb[12];
    uint32_t cb_target_mask, cb_shader_mask;
    uint32_t cb_color_control;       /* strict: CB_RESOLVE makes CB1 single-sampled */
    uint32_t strmout_config, strmout_buffer_config;
    const struct vc_reloc_bo *strmout_bo[4];
    uint64_t strmout_offset[4], strmout_size[4];
    uint32_t db_depth_control, db_depth_view, db_depth_slice, db_depth_size;
    uint32_t db_z_info, db_s_info;
    uint32_t db_z_read_offset, db_z_write_offset, db_s_read_offset, db_s_write_offset;
    const struct vc_reloc_bo *db_z_read_bo, *db_z_write_bo, *db_s_read_bo, *db_s_write_bo;
    const struct vc_reloc_bo *htile_bo;
    uint32_t htile_offset, htile_surface;
    uint64_t indirect_draw_size;
    bool kill_all_prims, cb_dirty, db_dirty, strmout_dirty;
};

/* Draw-time checks (vc_check_track.c): colour buffer id, depth/stencil,
 * one texture descriptor at IB dword w (mip may be NULL). */
int vc_check_cb(struct vc_ck *c, unsigned id);
int vc_check_db(struct vc_ck *c);
int vc_check_texture(struct vc_ck *c, const struct vc_reloc_bo *tex, const struct vc_reloc_bo *mip,
                     size_t w, const char *what);

#endif
