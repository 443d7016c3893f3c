/* The PM4 encoder: a growable command buffer of dwords plus its relocation
 * table, in the form the radeon kernel's CS ioctl takes (the IB chunk and the
 * RADEON_CHUNK_ID_RELOCS chunk of struct drm_radeon_cs_reloc).
 *
 * Packets are type-3 (header: TYPE=3, COUNT = payload dwords - 1, IT_OPCODE;
 * regs/pm4.regs PM4_TYPE3_HEADER).  SET_* packets take a register's byte
 * offset and write (offset - space start) / 4 as their first payload dword,
 * the space being the database's (SPACE_CONTEXT_START, ...).
 *
 * Relocations the radeon way (no GPU virtual memory on Evergreen): the
 * address written in the IB is an offset inside a buffer object, and right
 * after the packet carrying it comes a PACKET3 NOP whose one payload dword is
 * the relocation index x 4; the kernel (radeon_cs_packet_next_reloc) adds the
 * buffer's GPU address.  A buffer gets one relocation entry however often it
 * is referenced (as libdrm's radeon_cs_write_reloc does): each reference
 * names exactly one of a read domain or a write domain.
 *
 * Errors are sticky: after an allocation failure or a size-limit overflow,
 * every later call does nothing and returns the same negative errno, and
 * cmdbuf->error keeps it, so a builder can emit a whole frame and check once.
 * A value that does not fit its field (a register outside its space, an
 * opcode over 255) is a builder bug: it aborts via the generated setters.
 */
#ifndef CEDAR_CMDBUF_H
#define CEDAR_CMDBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <radeon_drm.h>   /* struct drm_radeon_cs_reloc, RADEON_GEM_DOMAIN_* */

struct cedar_cmdbuf {
    uint32_t *dw;          /* the IB: dw[0..ndw) */
    size_t ndw;
    size_t cap;            /* allocated dwords */
    size_t max_dw;         /* hard limit (0: none); the kernel's IB is at most 16 K dwords on r600 */
    struct drm_radeon_cs_reloc *relocs;   /* relocs[0..nrelocs) */
    unsigned nrelocs;
    unsigned reloc_cap;
    int error;             /* 0, or the first failure (-ENOMEM, -ENOSPC, -EINVAL) */
};

/* max_dw: 0 for no limit.  Never fails (allocation is lazy). */
void cedar_cmdbuf_init(struct cedar_cmdbuf *cb, size_t max_dw);
void cedar_cmdbuf_fini(struct cedar_cmdbuf *cb);
/* Empties the buffer and the relocation table, keeps the memory, clears error. */
void cedar_cmdbuf_reset(struct cedar_cmdbuf *cb);

/* Raw dwords.  Return 0 or cb->error. */
int cedar_cmdbuf_emit(struct cedar_cmdbuf *cb, uint32_t v);
int cedar_cmdbuf_emit_n(struct cedar_cmdbuf *cb, const uint32_t *v, size_t n);

/* A type-3 header for a packet of ndw payload dwords (1..16384). */
uint32_t cedar_pm4_type3_header(unsigned opcode, unsigned ndw, bool predicate);
/* The one-dword filler, type 2. */
uint32_t cedar_pm4_type2(void);

/* Header of a packet with ndw payload dwords; the caller emits the payload. */
int cedar_cmdbuf_pkt3(struct cedar_cmdbuf *cb, unsigned opcode, unsigned ndw);
/* Header and payload at once. */
int cedar_cmdbuf_packet(struct cedar_cmdbuf *cb, unsigned opcode, const uint32_t *payload,
                        unsigned ndw);

/* Register writes.  reg is the byte offset of the first register (REG_*);
 * it must lie in the packet's space with all n registers: else abort. */
int cedar_cmdbuf_set_config_regs(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_config_reg(struct cedar_cmdbuf *cb, uint32_t reg, uint32_t v);
int cedar_cmdbuf_set_context_regs(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_context_reg(struct cedar_cmdbuf *cb, uint32_t reg, uint32_t v);
/* Resources are 8 dwords (SQ_TEX_RESOURCE / SQ_VTX_CONSTANT WORD0..7), samplers 3
 * (SQ_TEX_SAMPLER_WORD0..2); n counts dwords and must be a multiple of that. */
int cedar_cmdbuf_set_resource(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_sampler(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_alu_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_loop_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_bool_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);
int cedar_cmdbuf_set_ctl_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n);

/* Pads with type-2 dwords until ndw is a multiple of `multiple` (>= 1). */
int cedar_cmdbuf_pad(struct cedar_cmdbuf *cb, unsigned multiple);

/* Relocations.  handle: the GEM handle (or any buffer id the consumer
 * understands).  Exactly one of read_domain / write_domain is non-zero and
 * neither is RADEON_GEM_DOMAIN_CPU, else -EINVAL (sticky).  A handle already
 * in the table reuses its entry, merged as libdrm's cs_gem_write_reloc does:
 * a write into a domain the entry reads makes it write-only {0, write}; a
 * read from a domain the entry writes adds the read {read, write}; otherwise
 * the domains must equal the entry's, else -EINVAL.  The first reference's
 * flags are kept.  add_reloc returns the entry's index in *index (may be
 * NULL); reloc also emits the NOP + index x 4 the kernel expects right after
 * the packet carrying the address. */
int cedar_cmdbuf_add_reloc(struct cedar_cmdbuf *cb, uint32_t handle, uint32_t read_domain,
                           uint32_t write_domain, uint32_t flags, unsigned *index);
int cedar_cmdbuf_reloc(struct cedar_cmdbuf *cb, uint32_t handle, uint32_t read_domain,
                       uint32_t write_domain, uint32_t flags);

#endif
