/* The GFX command-stream checker, modelled on the radeon kernel's
 * evergreen_cs.c (evergreen_cs_parse, evergreen_packet3_check,
 * evergreen_cs_handle_reg, evergreen_cs_track_check) and radeon_cs.c
 * (radeon_cs_packet_next_reloc).  Same walk, same relocation rule (each
 * address is followed by a PACKET3 NOP holding the relocation index x 4),
 * same IB patching, same acceptance in VC_CHECK_KERNEL mode; VC_CHECK_STRICT
 * adds the CMask/FMask size checks the kernel leaves out ("unused") and
 * demands that every relocated address lie inside its buffer.
 *
 * The register rules are data (regs/kernel_cs.regs): a safe list, then one
 * rule per special register; the packet framing is the shared PM4 walker. */
#include <string.h>

#include <radeon_drm.h>

#include "cedar/pm4.h"
#include "vc_internal.h"
#include "vc_check.h"

static void track_init(struct vc_ck *c)
{
    /* evergreen_cs_track_init(): "unset" values that fail any real check. */
    for (int i = 0; i < 12; i++) {
        c->cb[i] = (struct cb_track){ .offset = 0xFFFFFFFFu, .view = 0xFFFFFFFFu, .slice = 0xFFFFFFFu };
    }
    c->cb_target_mask = c->cb_shader_mask = 0xFFFFFFFFu;
    c->nsamples = 1;
    c->db_depth_slice = 0xFFFFFFFFu;
    c->db_depth_view = 0xFFFFC000u;
    c->db_depth_size = c->db_depth_control = c->db_z_info = c->db_s_info = 0xFFFFFFFFu;
    c->db_z_read_offset = c->db_z_write_offset = 0xFFFFFFFFu;
    c->db_s_read_offset = c->db_s_write_offset = 0xFFFFFFFFu;
    c->htile_offset = 0xFFFFFFFFu;
    for (int i = 0; i < 4; i++)
        c->strmout_offset[i] = 0xFFFFFFFFu;
    c->cb_dirty = c->db_dirty = c->strmout_dirty = true;
}

/* A register's name for messages: the kernel's, else the database's. */
static const char *reg_name(uint32_t reg, char *buf, size_t len)
{
    const struct eg_regset_entry *e = eg_regset_lookup(REGSET_KCS_RULES, reg);
    if (!e)
        e = eg_regset_lookup(REGSET_KCS_SAFE, reg);
    if (e)
        return e->name;
    const struct eg_reg *r = eg_reg_find(reg);
    if (r)
        return r->name;
    snprintf(buf, len, "register 0x%05X", reg);
    return buf;
}

static const char *pkt_name(unsigned opcode)
{
    const struct eg_packet *p = eg_packet_find(opcode);
    return p ? p->name : "PACKET3";
}

/* ---- relocations (radeon_cs_packet_next_reloc) --------------------------- */

static int next_reloc(struct vc_ck *c, const char *what, uint32_t at, const struct vc_reloc_bo **out)
{
    if (!c->relocs)
        return vc_fail(c->err, VC_E_RELOC_NO_CHUNK, at, what,
                       "%s needs a relocation but the CS has no RELOCS chunk", what);
    size_t nop = c->idx;
    if (nop >= c->ndw)
        return vc_fail(c->err, VC_E_RELOC_MISSING, at, what,
                       "%s without a relocation (the IB ends at dword 0x%zX)", what, c->ndw);
    uint32_t h = c->ib[nop];
    unsigned type = G_PM4_HEADER__TYPE(h);
    if (type == V_PM4_TYPE__TYPE1)
        return vc_fail(c->err, VC_E_PKT_TYPE, (uint32_t)nop, "type-1", "reserved packet type 1 at dword 0x%zX", nop);
    size_t count = type == V_PM4_TYPE__TYPE2 ? 0 : G_PM4_TYPE3_HEADER__COUNT(h) + 1u;
    if (type != V_PM4_TYPE__TYPE2 && nop + count >= c->ndw)
        return vc_fail(c->err, VC_E_PKT_TRUNCATED, (uint32_t)nop, "NOP",
                       "packet at dword 0x%zX runs past the end of the IB (%zu dwords)", nop, c->ndw);
    c->idx = nop + 1 + count;
    c->consumed = c->idx;
    if (type != V_PM4_TYPE__TYPE3 || G_PM4_TYPE3_HEADER__OPCODE(h) != PKT3_NOP)
        return vc_fail(c->err, VC_E_RELOC_MISSING, at, what,
                       "%s without a relocation (dword 0x%zX is not a NOP)", what, nop);
    uint32_t v = c->ib[nop + 1];
    /* whole relocations only: the kernel compares v with length_dw, which
     * lets v / 4 reach one past the last relocation of a chunk whose length
     * is not a multiple of 4 (radeon_cs_packet_next_reloc) */
    if (v / 4 >= c->reloc_dw / 4)
        return vc_fail(c->err, VC_E_RELOC_RANGE, (uint32_t)nop, what,
                       "%s: relocation index %u past the RELOCS chunk (%zu relocations)",
                       what, v / 4, c->reloc_dw / 4);
    *out = &c->bos[v / 4];
    return 0;
}

/* Is the next packet a type-3 NOP?  (radeon_cs_packet_next_is_pkt3_nop) */
static bool next_is_nop(const struct vc_ck *c)
{
    if (c->idx >= c->ndw)
        return false;
    uint32_t h = c->ib[c->idx];
    return G_PM4_HEADER__TYPE(h) == V_PM4_TYPE__TYPE3 && G_PM4_TYPE3_HEADER__OPCODE(h) == PKT3_NOP &&
           c->idx + G_PM4_TYPE3_HEADER__COUNT(h) + 1 < c->ndw;
}

/* Strict mode: [offset, offset + len) must lie inside the buffer. */
static int strict_range(struct vc_ck *c, const struct vc_reloc_bo *bo, uint64_t offset, uint64_t len,
                        const char *what, uint32_t at)
{
    if (!c->strict || offset + len <= bo->size)
        return 0;
    if (len <= 1) /* an address register: only where it starts is known here */
        return vc_fail(c->err, VC_E_ADDR_RANGE, at, what, "%s: address 0x%llX is past the end of its %llu-byte buffer",
                       what, (unsigned long long)offset, (unsigned long long)bo->size);
    return vc_fail(c->err, VC_E_ADDR_RANGE, at, what,
                   "%s: bytes 0x%llX..0x%llX outside its %llu-byte buffer", what,
                   (unsigned long long)offset, (unsigned long long)(offset + len - 1),
                   (unsigned long long)bo->size);
}

/* A 256-byte-unit base register: patch += gpu_offset >> 8. */
static int reloc_base8(struct vc_ck *c, size_t idx, const char *what, const struct vc_reloc_bo **out)
{
    const struct vc_reloc_bo *bo;
    if (next_reloc(c, what, (uint32_t)idx, &bo))
        return -1;
    if (strict_range(c, bo, (uint64_t)c->ib[idx] << 8, 1, what, (uint32_t)idx))
        return -1;
    c->ib[idx] += (uint32_t)(bo->gpu_offset >> 8);
    if (out)
        *out = bo;
    return 0;
}

/* evergreen_cs_get_aray_mode() */
static uint32_t tiling_array_mode(uint32_t flags)
{
    if (flags & RADEON_TILING_MACRO)
        return V_ARRAY_MODE__ARRAY_2D_TILED_THIN1;
    if (flags & RADEON_TILING_MICRO)
        return V_ARRAY_MODE__ARRAY_1D_TILED_THIN1;
    return V_ARRAY_MODE__ARRAY_LINEAR_GENERAL;
}

/* evergreen_tiling_fields(): bank width / height / aspect 1,2,4,8 -> 0..3
 * (anything else 0); the tile split is taken as it is. */
static unsigned log2_field(unsigned v)
{
    switch (v) {
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 0;
    }
}

struct tiling_fields { unsigned bankw, bankh, mtilea, split, nbanks; };

static struct tiling_fields tiling_fields(const struct vc_ck *c, uint32_t flags)
{
    struct tiling_fields f = {
        .bankw = log2_field((flags >> RADEON_TILING_EG_BANKW_SHIFT) & RADEON_TILING_EG_BANKW_MASK),
        .bankh = log2_field((flags >> RADEON_TILING_EG_BANKH_SHIFT) & RADEON_TILING_EG_BANKH_MASK),
        .mtilea = log2_field((flags >> RADEON_TILING_EG_MACRO_TILE_ASPECT_SHIFT) &
                             RADEON_TILING_EG_MACRO_TILE_ASPECT_MASK),
        .split = (flags >> RADEON_TILING_EG_TILE_SPLIT_SHIFT) & RADEON_TILING_EG_TILE_SPLIT_MASK,
    };
    switch (c->t.nbanks) {   /* evergreen_cs_get_num_banks() */
    case 2: f.nbanks = V_CB_NUM_BANKS__BANKS_2; break;
    case 4: f.nbanks = V_CB_NUM_BANKS__BANKS_4; break;
    case 16: f.nbanks = V_CB_NUM_BANKS__BANKS_16; break;
    default: f.nbanks = V_CB_NUM_BANKS__BANKS_8; break;
    }
    return f;
}

/* Fields are ORed in by the kernel, so take the masks rather than the
 * range-checked setters (a 4-bit tile split from user space would abort). */
#define PUT(bitset, field, v) (((uint32_t)(v) << bitset##__##field##__SHIFT) & bitset##__##field##__MASK)

/* ---- registers (evergreen_cs_handle_reg) ---------------------------------- */

static int handle_reg(struct vc_ck *c, uint32_t reg, size_t idx)
{
    char buf[32];
    const char *name = reg_name(reg, buf, sizeof(buf));
    const struct eg_regset_entry *e = eg_regset_lookup(REGSET_KCS_RULES, reg);
    if (!e)
        return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)idx, name,
                       "forbidden register %s (0x%05X)", name, reg);
    uint32_t v = c->ib[idx];
    unsigned i = e->index;
    const struct vc_reloc_bo *bo;
    bool keep_tiling = c->cfg->cs_flags & RADEON_CS_KEEP_TILING_FLAGS;

    switch (e->rule) {
    case REGSET_RULE_ACCEPT:
        return 0;
    case REGSET_RULE_CAYMAN_ONLY:
        return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)idx, name,
                       "%s (0x%05X) exists on Cayman only", name, reg);
    case REGSET_RULE_RELOC:
        return reloc_base8(c, idx, name, NULL);
    case REGSET_RULE_DB_DEPTH_CONTROL:
        c->db_depth_control = v;
        c->db_dirty = true;
        return 0;
    case REGSET_RULE_DB_Z_INFO:
        c->db_z_info = v;
        if (!keep_tiling) {
            if (next_reloc(c, name, (uint32_t)idx, &bo))
                return -1;
            uint32_t mode = PUT(DB_Z_INFO, ARRAY_MODE, tiling_array_mode(bo->tiling_flags));
            c->ib[idx] = (c->ib[idx] & ~DB_Z_INFO__ARRAY_MODE__MASK) | mode;
            c->db_z_info = (c->db_z_info & ~DB_Z_INFO__ARRAY_MODE__MASK) | mode;
            if (bo->tiling_flags & RADEON_TILING_MACRO) {
                struct tiling_fields f = tiling_fields(c, bo->tiling_flags);
                /* The kernel patches the IB here, not its tracked copy. */
                c->ib[idx] |= PUT(DB_Z_INFO, NUM_BANKS, f.nbanks) | PUT(DB_Z_INFO, TILE_SPLIT, f.split) |
                              PUT(DB_Z_INFO, BANK_WIDTH, f.bankw) | PUT(DB_Z_INFO, BANK_HEIGHT, f.bankh) |
                              PUT(DB_Z_INFO, MACRO_TILE_ASPECT, f.mtilea);
            }
        }
        c->db_dirty = true;
        return 0;
    case REGSET_RULE_DB_STENCIL_INFO: c->db_s_info = v; c->db_dirty = true; return 0;
    case REGSET_RULE_DB_DEPTH_VIEW: c->db_depth_view = v; c->db_dirty = true; return 0;
    case REGSET_RULE_DB_DEPTH_SIZE: c->db_depth_size = v; c->db_dirty = true; return 0;
    case REGSET_RULE_DB_DEPTH_SLICE: c->db_depth_slice = v; c->db_dirty = true; return 0;
    case REGSET_RULE_DB_Z_READ_BASE:
        c->db_z_read_offset = v;
        c->db_dirty = true;
        return reloc_base8(c, idx, name, &c->db_z_read_bo);
    case REGSET_RULE_DB_Z_WRITE_BASE:
        c->db_z_write_offset = v;
        c->db_dirty = true;
        return reloc_base8(c, idx, name, &c->db_z_write_bo);
    case REGSET_RULE_DB_STENCIL_READ_BASE:
        c->db_s_read_offset = v;
        c->db_dirty = true;
        return reloc_base8(c, idx, name, &c->db_s_read_bo);
    case REGSET_RULE_DB_STENCIL_WRITE_BASE:
        c->db_s_write_offset = v;
        c->db_dirty = true;
        return reloc_base8(c, idx, name, &c->db_s_write_bo);
    case REGSET_RULE_DB_HTILE_DATA_BASE:
        c->htile_offset = v;
        c->db_dirty = true;
        return reloc_base8(c, idx, name, &c->htile_bo);
    case REGSET_RULE_DB_HTILE_SURFACE:
        c->htile_surface = v;
        /* the kernel forces 8x8 HTILE blocks */
        c->ib[idx] |= DB_HTILE_SURFACE__HTILE_WIDTH__MASK | DB_HTILE_SURFACE__HTILE_HEIGHT__MASK;
        c->db_dirty = true;
        return 0;
    case REGSET_RULE_STRMOUT_CONFIG: c->strmout_config = v; c->strmout_dirty = true; return 0;
    case REGSET_RULE_STRMOUT_BUFFER_CONFIG: c->strmout_buffer_config = v; c->strmout_dirty = true; return 0;
    case REGSET_RULE_STRMOUT_BASE:
        if (i >= 4)
            break;
        if (next_reloc(c, name, (uint32_t)idx, &bo))
            return -1;
        c->strmout_offset[i] = (uint64_t)v << 8;
        c->ib[idx] += (uint32_t)(bo->gpu_offset >> 8);
        c->strmout_bo[i] = bo;
        c->strmout_dirty = true;
        return 0;
    case REGSET_RULE_STRMOUT_SIZE:
        if (i >= 4)
            break;
        c->strmout_size[i] = (uint64_t)v * 4;   /* dwords -> bytes */
        c->strmout_dirty = true;
        return 0;
    case REGSET_RULE_CB_TARGET_MASK: c->cb_target_mask = v; c->cb_dirty = true; return 0;
    case REGSET_RULE_CB_SHADER_MASK: c->cb_shader_mask = v; c->cb_dirty = true; return 0;
    case REGSET_RULE_PA_SC_AA_CONFIG:
        c->nsamples = 1u << G_PA_SC_AA_CONFIG__MSAA_NUM_SAMPLES(v);
        return 0;
    case REGSET_RULE_SX_MISC:
        /* bit 0: the kernel's "kill all primitives" (Mesa's MULTIPASS) */
        c->kill_all_prims = G_SX_MISC__MULTIPASS(v) != 0;
        return 0;
    case REGSET_RULE_CB_VIEW: c->cb[i].view = v; c->cb_dirty = true; return 0;
    case REGSET_RULE_CB_PITCH: c->cb[i].pitch = v; c->cb_dirty = true; return 0;
    case REGSET_RULE_CB_SLICE:
        c->cb[i].slice = v;
        c->cb[i].slice_dw = idx;
        c->cb_dirty = true;
        return 0;
    case REGSET_RULE_CB_INFO:
        c->cb[i].info = v;
        if (!keep_tiling) {
            if (next_reloc(c, name, (uint32_t)idx, &bo))
                return -1;
            uint32_t mode = PUT(CB_COLOR_INFO, ARRAY_MODE, tiling_array_mode(bo->tiling_flags));
            c->ib[idx] |= mode;
            c->cb[i].info |= mode;
        }
        c->cb_dirty = true;
        return 0;
    case REGSET_RULE_CB_ATTRIB:
        if (next_reloc(c, name, (uint32_t)idx, &bo))
            return -1;
        if (!keep_tiling && (bo->tiling_flags & RADEON_TILING_MACRO)) {
            struct tiling_fields f = tiling_fields(c, bo->tiling_flags);
            c->ib[idx] |= PUT(CB_COLOR_ATTRIB, NUM_BANKS, f.nbanks) | PUT(CB_COLOR_ATTRIB, TILE_SPLIT, f.split) |
                          PUT(CB_COLOR_ATTRIB, BANK_WIDTH, f.bankw) | PUT(CB_COLOR_ATTRIB, BANK_HEIGHT, f.bankh) |
                          PUT(CB_COLOR_ATTRIB, MACRO_TILE_ASPECT, f.mtilea);
        }
        c->cb[i].attrib = c->ib[idx];
        c->cb_dirty = true;
        return 0;
    case REGSET_RULE_CB_CMASK:
        c->cb[i].cmask = v;
        return reloc_base8(c, idx, name, &c->cb[i].cmask_bo);
    case REGSET_RULE_CB_FMASK:
        c->cb[i].fmask = v;
        return reloc_base8(c, idx, name, &c->cb[i].fmask_bo);
    case REGSET_RULE_CB_CMASK_SLICE: c->cb[i].cmask_slice = v; return 0;
    case REGSET_RULE_CB_FMASK_SLICE: c->cb[i].fmask_slice = v; return 0;
    case REGSET_RULE_CB_BASE:
        c->cb[i].offset = v;
        c->cb[i].base_dw = (uint32_t)idx;
        c->cb_dirty = true;
        return reloc_base8(c, idx, name, &c->cb[i].bo);
    default:
        break;
    }
    return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)idx, name,
                   "%s (0x%05X): rule %s not understood", name, reg,
                   e->rule ? eg_regset_rule_names[e->rule] : "none");
}

static bool is_safe_reg(uint32_t reg)
{
    return eg_regset_lookup(REGSET_KCS_SAFE, reg) != NULL;
}

/* ---- draw-time checks (evergreen_cs_track_check) ---------------------------- */

static int track_check(struct vc_ck *c, uint32_t at)
{
    if (c->strmout_dirty && c->strmout_config) {
        unsigned mask = 0;
        for (unsigned i = 0; i < 4; i++)
            if (c->strmout_config & (1u << i))
                mask |= (c->strmout_buffer_config >> (i * 4)) & 0xF;
        for (unsigned i = 0; i < 4; i++) {
            if (!(mask & (1u << i)))
                continue;
            if (!c->strmout_bo[i])
                return vc_fail(c->err, VC_E_STREAMOUT, at, "VGT_STRMOUT_BUFFER_BASE",
                               "stream-out buffer %u enabled without a buffer", i);
            if (c->strmout_offset[i] + c->strmout_size[i] > c->strmout_bo[i]->size)
                return vc_fail(c->err, VC_E_STREAMOUT, at, "VGT_STRMOUT_BUFFER_SIZE",
                               "stream-out buffer %u: 0x%llX bytes past a %llu-byte buffer", i,
                               (unsigned long long)(c->strmout_offset[i] + c->strmout_size[i]),
                               (unsigned long long)c->strmout_bo[i]->size);
        }
        c->strmout_dirty = false;
    }
    if (c->kill_all_prims)
        return 0;
    if (c->cb_dirty) {
        for (unsigned i = 0; i < 8; i++) {
            uint32_t fmt = G_CB_COLOR_INFO__FORMAT(c->cb[i].info);
            if (fmt == V_CB_FORMAT__COLOR_INVALID || !((c->cb_target_mask >> (i * 4)) & 0xF))
                continue;
            char what[24];
            snprintf(what, sizeof(what), "CB_COLOR%u_BASE", i);
            if (!c->cb[i].bo)
                return vc_fail(c->err, VC_E_CB_NO_BO, at, what,
                               "colour buffer %u enabled (format %u, CB_TARGET_MASK 0x%08X) without a buffer",
                               i, fmt, c->cb_target_mask);
            if (vc_check_cb(c, i))
                return -1;
        }
        c->cb_dirty = false;
    }
    if (c->db_dirty) {
        if (vc_check_db(c))
            return -1;
        c->db_dirty = false;
    }
    return 0;
}

/* ---- resources (SET_RESOURCE) ------------------------------------------------ */

static int set_resource(struct vc_ck *c, size_t hdr, unsigned count)
{
    size_t idx = hdr + 1;
    for (unsigned i = 0; i < count / 8; i++) {
        size_t w = idx + 1 + (size_t)i * 8;   /* word 0 of descriptor i */
        uint32_t type = G_SQ_TEX_RESOURCE_WORD7__TYPE(c->ib[w + 7]);
        const struct vc_reloc_bo *bo, *mip = NULL;
        char what[40];
        if (type == V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_TEXTURE) {
            snprintf(what, sizeof(what), "texture resource %u", (c->ib[idx] / 8) + i);
            if (next_reloc(c, what, (uint32_t)w, &bo))
                return -1;
            if (!(c->cfg->cs_flags & RADEON_CS_KEEP_TILING_FLAGS)) {
                c->ib[w + 1] |= PUT(SQ_TEX_RESOURCE_WORD1, ARRAY_MODE, tiling_array_mode(bo->tiling_flags));
                if (bo->tiling_flags & RADEON_TILING_MACRO) {
                    struct tiling_fields f = tiling_fields(c, bo->tiling_flags);
                    c->ib[w + 6] |= PUT(SQ_TEX_RESOURCE_WORD6, TILE_SPLIT, f.split);
                    c->ib[w + 7] |= PUT(SQ_TEX_RESOURCE_WORD7, BANK_WIDTH, f.bankw) |
                                    PUT(SQ_TEX_RESOURCE_WORD7, BANK_HEIGHT, f.bankh) |
                                    PUT(SQ_TEX_RESOURCE_WORD7, MACRO_TILE_ASPECT, f.mtilea) |
                                    PUT(SQ_TEX_RESOURCE_WORD7, NUM_BANKS, f.nbanks);
                }
            }
            uint32_t dim = G_SQ_TEX_RESOURCE_WORD0__DIM(c->ib[w]);
            /* An MSAA texture's MIP_ADDRESS is its FMask; 0 and no NOP: none. */
            bool msaa = dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_MSAA || dim == V_SQ_TEX_DIM__SQ_TEX_DIM_2D_ARRAY_MSAA;
            if (!(msaa && c->ib[w + 3] == 0 && !next_is_nop(c))) {
                if (next_reloc(c, what, (uint32_t)w, &mip))
                    return -1;
            }
            if (vc_check_texture(c, bo, mip, w, what))
                return -1;
            c->ib[w + 2] += (uint32_t)(bo->gpu_offset >> 8);
            if (mip)
                c->ib[w + 3] += (uint32_t)(mip->gpu_offset >> 8);
        } else if (type == V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER) {
            snprintf(what, sizeof(what), "vertex resource %u", (c->ib[idx] / 8) + i);
            if (next_reloc(c, what, (uint32_t)w, &bo))
                return -1;
            uint32_t offset = c->ib[w], size = c->ib[w + 1];
            if ((uint64_t)size + offset > bo->size) {
                if (c->strict)
                    return vc_fail(c->err, VC_E_VERTEX, (uint32_t)w, what,
                                   "%s: bytes 0x%X..0x%llX past its %llu-byte buffer", what, offset,
                                   (unsigned long long)size + offset, (unsigned long long)bo->size);
                /* the kernel clamps the size to the buffer ("vbo resource seems too big") */
                c->ib[w + 1] = (uint32_t)(bo->size - offset);
            }
            uint64_t addr = bo->gpu_offset + offset;
            c->ib[w] = (uint32_t)addr;
            c->ib[w + 2] = (c->ib[w + 2] & ~SQ_VTX_CONSTANT_WORD2__BASE_ADDRESS_HI__MASK) |
                           PUT(SQ_VTX_CONSTANT_WORD2, BASE_ADDRESS_HI, addr >> 32);
        } else {
            snprintf(what, sizeof(what), "resource %u", (c->ib[idx] / 8) + i);
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)w, what,
                           "SET_RESOURCE: %s has type %u (invalid texture/buffer)", what, type);
        }
    }
    return 0;
}

/* ---- type-3 packets (evergreen_packet3_check) --------------------------------- */

#define BAD_COUNT(name) \
    vc_fail(c->err, VC_E_PKT_COUNT, (uint32_t)hdr, name, "%s with count %u", name, count)

/* A 40-bit byte address split lo / hi (hi: bits 0..7), relocated. */
static int reloc_addr40(struct vc_ck *c, size_t lo, size_t hi, uint32_t lo_mask, const char *what, size_t hdr,
                        uint64_t len, bool check_kernel_size)
{
    const struct vc_reloc_bo *bo;
    if (next_reloc(c, what, (uint32_t)hdr, &bo))
        return -1;
    uint64_t off = (c->ib[lo] & lo_mask) + ((uint64_t)(c->ib[hi] & 0xFF) << 32);
    if (check_kernel_size && off + len > bo->size)
        return vc_fail(c->err, VC_E_BO_RANGE, (uint32_t)hdr, what,
                       "%s: bytes 0x%llX..0x%llX past its %llu-byte buffer", what, (unsigned long long)off,
                       (unsigned long long)(off + len - 1), (unsigned long long)bo->size);
    if (strict_range(c, bo, off, len, what, (uint32_t)hdr))
        return -1;
    uint64_t addr = bo->gpu_offset + off;
    c->ib[lo] = ((uint32_t)addr & lo_mask) | (c->ib[lo] & ~lo_mask);
    c->ib[hi] = (c->ib[hi] & 0xFFFFFF00u) | (uint32_t)((addr >> 32) & 0xFF);
    return 0;
}

static int cp_dma(struct vc_ck *c, size_t hdr, unsigned count)
{
    size_t idx = hdr + 1;
    if (count != 4)
        return BAD_COUNT("CP_DMA");
    uint32_t info = c->ib[idx + 1], cmd = c->ib[idx + 4];
    uint32_t size = G_CP_DMA_CP_DMA_COMMAND__BYTE_COUNT(cmd);
    uint32_t src_sel = G_CP_DMA_CP_DMA_INFO__SRC_SEL(info), dst_sel = G_CP_DMA_CP_DMA_INFO__DST_SEL(info);
    bool sas = G_CP_DMA_CP_DMA_COMMAND__SAS(cmd), das = G_CP_DMA_CP_DMA_COMMAND__DAS(cmd);
    if ((src_sel != V_CP_DMA_SRC_SEL__SRC_ADDR || dst_sel != V_CP_DMA_DST_SEL__DST_ADDR ||
         (dst_sel == V_CP_DMA_DST_SEL__DST_ADDR && das) || (src_sel == V_CP_DMA_SRC_SEL__SRC_ADDR && sas)) &&
        size % 4)
        return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA",
                       "CP_DMA: %u bytes, not a whole number of dwords for a non memory-to-memory copy", size);
    if (sas) {
        if (src_sel != V_CP_DMA_SRC_SEL__SRC_GDS)
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA",
                           "CP_DMA: register source (SAS) not supported");
    } else {
        if (G_CP_DMA_CP_DMA_COMMAND__SAIC(cmd))
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA",
                           "CP_DMA: SAIC only for register sources");
        if (src_sel == V_CP_DMA_SRC_SEL__SRC_ADDR) {
            if (reloc_addr40(c, idx, idx + 1, 0xFFFFFFFFu, "CP_DMA source", hdr, size, true))
                return -1;
        } else if (src_sel != V_CP_DMA_SRC_SEL__SRC_DATA) {
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA", "CP_DMA: bad SRC_SEL %u", src_sel);
        }
    }
    if (das) {
        if (dst_sel != V_CP_DMA_DST_SEL__DST_GDS)
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA",
                           "CP_DMA: register destination (DAS) not supported");
    } else {
        if (G_CP_DMA_CP_DMA_COMMAND__DAIC(cmd))
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA",
                           "CP_DMA: DAIC only for register destinations");
        if (dst_sel != V_CP_DMA_DST_SEL__DST_ADDR)
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, "CP_DMA", "CP_DMA: bad DST_SEL %u", dst_sel);
        if (reloc_addr40(c, idx + 2, idx + 3, 0xFFFFFFFFu, "CP_DMA destination", hdr, size, true))
            return -1;
    }
    return 0;
}

static int set_regs(struct vc_ck *c, size_t hdr, unsigned count, uint32_t start, uint32_t end)
{
    size_t idx = hdr + 1;
    uint32_t first = start + c->ib[idx] * 4;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t reg = first + i * 4;
        if (reg == REG_CB_COLOR_CONTROL) {
            c->cb_color_control = c->ib[idx + 1 + i];
            c->cb_dirty = true;
        }
        if (is_safe_reg(reg))
            continue;
        if (handle_reg(c, reg, idx + 1 + i))
            return -1;
    }
    (void)end;
    return 0;
}

static int packet3(struct vc_ck *c, size_t hdr, unsigned op, unsigned count)
{
    size_t idx = hdr + 1;
    uint32_t v = c->ib[idx];
    const char *name = pkt_name(op);
    const struct vc_reloc_bo *bo;

    switch (op) {
    case PKT3_NOP:
        return 0;
    case PKT3_SET_PREDICATION: {
        if (count != 1)
            return BAD_COUNT(name);
        uint32_t pred = c->ib[idx + 1];
        unsigned op_ = G_SET_PREDICATION_PRED_CNTL__PRED_OP(pred);
        if (op_ == 0)
            return 0;   /* clear predicate */
        if (op_ > 2)
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, name,
                           "SET_PREDICATION operation %u", op_);
        return reloc_addr40(c, idx, idx + 1, 0xFFFFFFF0u, name, hdr, 8, false);
    }
    case PKT3_CONTEXT_CONTROL:
        return count != 1 ? BAD_COUNT(name) : 0;
    case PKT3_INDEX_TYPE:
    case PKT3_NUM_INSTANCES:
    case PKT3_CLEAR_STATE:
    case PKT3_INDEX_BUFFER_SIZE:
    case PKT3_PFP_SYNC_ME:
        return count != 0 ? BAD_COUNT(name) : 0;
    case PKT3_INDEX_BASE:
        if (count != 1)
            return BAD_COUNT(name);
        if (reloc_addr40(c, idx, idx + 1, 0xFFFFFFFFu, name, hdr, 1, false))
            return -1;
        c->ib[idx + 1] &= 0xFF;
        return track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX:
        if (count != 3)
            return BAD_COUNT(name);
        if (reloc_addr40(c, idx, idx + 1, 0xFFFFFFFFu, name, hdr, 1, false))
            return -1;
        c->ib[idx + 1] &= 0xFF;
        return track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_2:
        if (count != 4)
            return BAD_COUNT(name);
        if (reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFFu, name, hdr, 1, false))
            return -1;
        c->ib[idx + 2] &= 0xFF;
        return track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_AUTO:
        return count != 1 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_MULTI_AUTO:
        return count != 2 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_IMMD:
        return count < 2 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_OFFSET:
        return count != 2 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_DRAW_INDEX_OFFSET_2:
        return count != 3 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_SET_BASE:
        if (count != 2)
            return BAD_COUNT(name);
        if (v != 1)   /* only the DRAW_INDEX_INDIRECT patch table base */
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, name, "SET_BASE index %u", v);
        if (next_reloc(c, name, (uint32_t)hdr, &bo))
            return -1;
        c->indirect_draw_size = bo->size;
        c->ib[idx + 1] = (uint32_t)bo->gpu_offset;
        c->ib[idx + 2] = (uint32_t)(bo->gpu_offset >> 32) & 0xFF;
        return 0;
    case PKT3_DRAW_INDIRECT:
    case PKT3_DRAW_INDEX_INDIRECT: {
        uint64_t size = op == PKT3_DRAW_INDIRECT ? 16 : 20;
        if (count != 1)
            return BAD_COUNT(name);
        if (v + size > c->indirect_draw_size)
            return vc_fail(c->err, VC_E_BO_RANGE, (uint32_t)hdr, name,
                           "%s: %u + %llu past the %llu-byte indirect buffer", name, v,
                           (unsigned long long)size, (unsigned long long)c->indirect_draw_size);
        return track_check(c, (uint32_t)hdr);
    }
    case PKT3_DISPATCH_DIRECT:
        return count != 3 ? BAD_COUNT(name) : track_check(c, (uint32_t)hdr);
    case PKT3_DISPATCH_INDIRECT:
        if (count != 1)
            return BAD_COUNT(name);
        if (next_reloc(c, name, (uint32_t)hdr, &bo))
            return -1;
        c->ib[idx] = v + (uint32_t)bo->gpu_offset;
        return track_check(c, (uint32_t)hdr);
    case PKT3_WAIT_REG_MEM:
        if (count != 5)
            return BAD_COUNT(name);
        if (G_WAIT_REG_MEM_WAIT_REG_MEM_CNTL__MEM_SPACE(v))
            return reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFCu, name, hdr, 4, false);
        if (G_WAIT_REG_MEM_WAIT_REG_MEM_CNTL__ENGINE(v))
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, name, "WAIT_REG_MEM: PFP on a register wait");
        return 0;
    case PKT3_CP_DMA:
        return cp_dma(c, hdr, count);
    case PKT3_SURFACE_SYNC:
        if (count != 3)
            return BAD_COUNT(name);
        /* CP_COHER_SIZE 0xFFFFFFFF with base 0 flushes everything: no address */
        if (c->ib[idx + 1] != 0xFFFFFFFFu || c->ib[idx + 2] != 0) {
            if (next_reloc(c, name, (uint32_t)hdr, &bo))
                return -1;
            c->ib[idx + 2] += (uint32_t)(bo->gpu_offset >> 8);
        }
        return 0;
    case PKT3_EVENT_WRITE:
        if (count != 2 && count != 0)
            return BAD_COUNT(name);
        if (count)
            return reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFF8u, name, hdr, 8, false);
        return 0;
    case PKT3_EVENT_WRITE_EOP:
        if (count != 4)
            return BAD_COUNT(name);
        return reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFCu, name, hdr,
                            G_EVENT_WRITE_EOP_EOP_CNTL__DATA_SEL(c->ib[idx + 2]) == V_EOP_DATA_SEL__DATA_SEL_LOW32 ? 4 : 8,
                            false);
    case PKT3_EVENT_WRITE_EOS:
        if (count != 3)
            return BAD_COUNT(name);
        return reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFCu, name, hdr, 4, false);
    case PKT3_SET_CONFIG_REG:
        return set_regs(c, hdr, count, SPACE_CONFIG_START, SPACE_CONFIG_END);
    case PKT3_SET_CONTEXT_REG:
        return set_regs(c, hdr, count, SPACE_CONTEXT_START, SPACE_CONTEXT_END);
    case PKT3_SET_RESOURCE:
        return set_resource(c, hdr, count);
    case PKT3_SET_ALU_CONST:     /* the kernel does not look ("XXX fix me") */
    case PKT3_SET_BOOL_CONST:    /* ranges: checked by the walker */
    case PKT3_SET_LOOP_CONST:
    case PKT3_SET_CTL_CONST:
    case PKT3_SET_SAMPLER:
        return 0;
    case PKT3_STRMOUT_BUFFER_UPDATE:
        if (count != 4)
            return BAD_COUNT(name);
        if ((v & 1) && reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFFu, "STRMOUT_BUFFER_UPDATE destination",
                                    hdr, 4, true))
            return -1;
        if (((v >> 1) & 3) == 2 && reloc_addr40(c, idx + 3, idx + 4, 0xFFFFFFFFu,
                                                  "STRMOUT_BUFFER_UPDATE source", hdr, 4, true))
            return -1;
        return 0;
    case PKT3_MEM_WRITE: {
        if (count != 3)
            return BAD_COUNT(name);
        uint64_t off = v + ((uint64_t)(c->ib[idx + 1] & 0xFF) << 32);
        if (off & 7) {
            (void)next_reloc(c, name, (uint32_t)hdr, &bo);
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, name,
                           "MEM_WRITE: address 0x%llX not 8-byte aligned", (unsigned long long)off);
        }
        if (reloc_addr40(c, idx, idx + 1, 0xFFFFFFFFu, name, hdr, 8, true))
            return -1;
        c->ib[idx + 1] &= 0xFF;   /* the kernel writes back only the address byte */
        return 0;
    }
    case PKT3_COPY_DW:
        if (count != 4)
            return BAD_COUNT(name);
        if (v & 1) {
            if (reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFFu, "COPY_DW source", hdr, 4, true))
                return -1;
        } else if (!is_safe_reg(c->ib[idx + 1] << 2)) {
            char buf[32];
            return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)(idx + 1), "COPY_DW",
                           "COPY_DW: forbidden source register %s", reg_name(c->ib[idx + 1] << 2, buf, sizeof(buf)));
        }
        if (v & 2) {
            if (reloc_addr40(c, idx + 3, idx + 4, 0xFFFFFFFFu, "COPY_DW destination", hdr, 4, true))
                return -1;
        } else if (!is_safe_reg(c->ib[idx + 3] << 2)) {
            char buf[32];
            return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)(idx + 3), "COPY_DW",
                           "COPY_DW: forbidden destination register %s",
                           reg_name(c->ib[idx + 3] << 2, buf, sizeof(buf)));
        }
        return 0;
    case PKT3_SET_APPEND_CNT: {
        /* evergreen_cs.c: one of the twelve GDS_APPEND_COUNT_n, loaded from
         * memory only; the kernel relocates the address, keeping the SWAP
         * bits, and checks no size */
        if (count != 2)
            return BAD_COUNT(name);
        uint32_t reg = SPACE_CONTEXT_START + 4 * G_SET_APPEND_CNT_APPEND_CNT_CNTL__WR_REG_OFFSET(v);
        if (reg < REG_GDS_APPEND_COUNT_0 || reg > REG_GDS_APPEND_COUNT_11) {
            char buf[32];
            return vc_fail(c->err, VC_E_REG_FORBIDDEN, (uint32_t)hdr, name,
                           "SET_APPEND_CNT: %s is not an append counter", reg_name(reg, buf, sizeof(buf)));
        }
        if (G_SET_APPEND_CNT_APPEND_CNT_CNTL__SRC_SELECT(v) != V_SAC_SRC_SEL__SRC_MEM)
            return vc_fail(c->err, VC_E_PKT_OPERAND, (uint32_t)hdr, name,
                           "SET_APPEND_CNT: source %u, only memory (%u) is accepted",
                           G_SET_APPEND_CNT_APPEND_CNT_CNTL__SRC_SELECT(v), V_SAC_SRC_SEL__SRC_MEM);
        return reloc_addr40(c, idx + 1, idx + 2, 0xFFFFFFFCu, name, hdr, 4, false);
    }
    default:
        return vc_fail(c->err, VC_E_PKT_UNSUPPORTED, (uint32_t)hdr, name,
                       "packet %s (opcode 0x%02X) not accepted by the kernel", name, op);
    }
}

/* ---- the walk ------------------------------------------------------------------ */

static int on_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct vc_ck *c = ctx;
    if (p->offset < c->consumed)
        return 0;   /* a NOP already taken as a relocation */
    c->idx = p->offset + 1 + p->npayload;
    c->consumed = c->idx;
    switch (p->type) {
    case V_PM4_TYPE__TYPE2:
        return 0;
    case V_PM4_TYPE__TYPE0: {
        /* Only the display VLINE registers are allowed, for a wait this
         * model has no display for. */
        uint32_t reg = G_PM4_TYPE0_HEADER__BASE_INDEX(p->header) * 4u;
        char buf[32];
        return vc_fail(c->err, VC_E_PKT_TYPE, (uint32_t)p->offset, "type-0",
                       "type-0 packet writing %s: forbidden", reg_name(reg, buf, sizeof(buf)));
    }
    default:
        return packet3(c, p->offset, p->opcode, p->count) ? 1 : 0;
    }
}

static enum vc_err_code walker_code(int code)
{
    switch (code) {
    case EG_PM4_ERR_TRUNCATED: return VC_E_PKT_TRUNCATED;
    case EG_PM4_ERR_RESERVED_TYPE: return VC_E_PKT_TYPE;
    case EG_PM4_ERR_BAD_RANGE: return VC_E_REG_RANGE;
    default: return VC_E_PKT_COUNT;
    }
}

int vc_check_gfx(const struct vc_check_cfg *cfg, uint32_t *ib, size_t ndw,
                 const uint32_t *reloc_chunk, size_t reloc_dw,
                 const struct vc_reloc_bo *bos, struct vc_error *err)
{
    struct vc_ck c = {
        .cfg = cfg, .ib = ib, .ndw = ndw, .relocs = reloc_chunk, .reloc_dw = reloc_chunk ? reloc_dw : 0,
        .bos = bos, .err = err, .strict = cfg->mode == VC_CHECK_STRICT,
    };
    if (err)
        memset(err, 0, sizeof(*err));
    vc_tiling_decode(cfg->tiling_config, &c.t);
    track_init(&c);
    if (ndw == 0)
        return vc_fail(err, VC_E_CHUNKS, 0, "IB", "empty IB");
    struct eg_pm4_opts wo = { .tiling_from_relocs = !(cfg->cs_flags & RADEON_CS_KEEP_TILING_FLAGS),
                              .lenient_counts = true, .empty_set_ok = !c.strict };
    struct eg_pm4_sink sink = { .ctx = &c, .packet = on_packet };
    struct eg_pm4_error we;
    int r = eg_pm4_walk(ib, ndw, &wo, &sink, &we);
    if (r == EG_PM4_ERR_ABORTED)
        return -1;
    if (r) {
        const char *what = "packet";
        if (we.offset < ndw && G_PM4_HEADER__TYPE(ib[we.offset]) == V_PM4_TYPE__TYPE3)
            what = pkt_name(G_PM4_TYPE3_HEADER__OPCODE(ib[we.offset]));
        return vc_fail(err, walker_code(r), (uint32_t)we.offset, what, "%s", we.message);
    }
    return 0;
}
