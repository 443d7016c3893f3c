/* The PM4 walker: one parser for Evergreen command buffers, shared by the
 * disassembler (tools/cedar-pm4), the virtual Cedar's checker and command
 * processor, and the tests.
 *
 * It walks an array of little-endian-decoded dwords once, front to back,
 * never reading outside [0, ndw), and reports what it finds to a sink:
 *
 *   packet  every packet (type 0, 2, 3), with its dword offset, header
 *           fields, payload pointer and length, and the database definition;
 *   reg     for register-writing packets (type 0, SET_CONFIG_REG,
 *           SET_CONTEXT_REG, SET_RESOURCE, SET_SAMPLER, SET_*_CONST), one
 *           event per register written, in payload order, so sinks never
 *           re-decode the base offset;
 *   reloc   for each type-3 NOP that follows an address-carrying packet, the
 *           relocation index it carries (payload / 4) and the register or
 *           packet operand it patches.
 *
 * Relocations follow the radeon kernel's rule (radeon_cs_packet_next_reloc,
 * evergreen_cs.c): after a packet whose payload holds buffer addresses come
 * one PACKET3 NOP per address, in the order the kernel consumes them: per
 * register in payload order for SET_* packets (registers flagged `reloc` in
 * the database, CB_COLORn_ATTRIB always, CB_COLORn_INFO / DB_Z_INFO when the
 * CS lacks RADEON_CS_KEEP_TILING_FLAGS), per operand for the other packets
 * (CP_DMA source then destination when they are memory, SURFACE_SYNC unless
 * it is the flush-all 0xFFFFFFFF/0 form, a texture's base then mip base, a
 * vertex buffer's base, ...).  eg_pm4_reloc_slots() lists them.
 *
 * Errors are structured: a code, the dword offset of the offending packet
 * and a one-line message.  Walking stops at the first error.
 */
#ifndef CEDAR_PM4_H
#define CEDAR_PM4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/regdb.h"

enum eg_pm4_errcode {
    EG_PM4_OK = 0,
    EG_PM4_ERR_ARG,           /* NULL buffer with ndw > 0, or similar misuse */
    EG_PM4_ERR_TRUNCATED,     /* the packet's payload runs past the end of the buffer */
    EG_PM4_ERR_RESERVED_TYPE, /* a type-1 header (reserved) */
    EG_PM4_ERR_BAD_COUNT,     /* COUNT outside what the packet allows (database count=,
                                 SET_* without a register, SET_RESOURCE not 8n, ...) */
    EG_PM4_ERR_BAD_RANGE,     /* a SET_* register range outside its address space */
    EG_PM4_ERR_ABORTED,       /* a sink callback returned non-zero */
    EG_PM4_ERR_UNKNOWN_PACKET,/* DMA ring: a command whose length the database does not
                                 give, so the rest cannot be framed */
};

struct eg_pm4_error {
    enum eg_pm4_errcode code;
    size_t offset;            /* dword offset of the packet (header) at fault */
    int sink_status;          /* EG_PM4_ERR_ABORTED: what the callback returned */
    char message[160];        /* "dword 0x12: SET_CONTEXT_REG count 0 has no register" */
};

/* The packet types of the PM4 header TYPE field (regs/pm4.regs PM4_TYPE). */
struct eg_pm4_packet {
    size_t offset;                 /* dword offset of the header */
    uint32_t header;
    unsigned type;                 /* 0, 2 or 3 */
    unsigned opcode;               /* type 3: IT_OPCODE; otherwise 0 */
    unsigned count;                /* header COUNT (payload dwords - 1); type 2: 0 */
    bool predicate;                /* type 3 PREDICATE bit */
    bool shader_type;              /* type 3 SHADER_TYPE bit (1 = compute) */
    const uint32_t *payload;       /* points into the caller's buffer */
    size_t npayload;               /* types 0 and 3: count + 1; type 2: 0 */
    const struct eg_packet *def;   /* type 3 definition, NULL when the opcode is unknown */
    const struct eg_space *space;  /* register-writing type-3 packets: the space written */
    unsigned nslots;               /* address slots awaiting a NOP relocation after it */
};

/* One register written by a packet. */
struct eg_pm4_reg_write {
    uint32_t offset;               /* byte offset of the register */
    uint32_t value;
    unsigned payload_index;        /* index into packet->payload */
    const struct eg_space *space;  /* NULL for type-0 writes */
    const struct eg_reg *reg;      /* NULL when the database does not know it */
};

/* One address a packet carries, which the kernel patches from a relocation. */
struct eg_pm4_slot {
    unsigned payload_index;        /* the patched payload dword of the packet */
    uint32_t reg_offset;           /* register byte offset; 0 for packet operands */
    const struct eg_reg *reg;      /* the register, NULL for packet operands */
    const char *what;              /* register name or operand name, never NULL */
    bool optional;                 /* the kernel takes it only if a NOP follows
                                      (an MSAA texture's FMask mip address) */
};

/* A NOP carrying a relocation index, tied to the slot it patches. */
struct eg_pm4_reloc {
    size_t nop_offset;             /* dword offset of the NOP */
    uint32_t value;                /* the NOP's first payload dword */
    uint32_t index;                /* value / 4: index into the relocation list */
    bool tied;                     /* false: no address was waiting (a stray NOP) */
    size_t packet_offset;          /* dword offset of the packet it patches (if tied) */
    const struct eg_pm4_packet *target; /* that packet (if tied; valid during the callback) */
    struct eg_pm4_slot slot;       /* what it patches (if tied) */
};

/* Callbacks: any may be NULL.  Returning non-zero stops the walk with
 * EG_PM4_ERR_ABORTED.  Order: packet, then its reg events; for a NOP,
 * packet then reloc.  Pointers are valid only during the callback. */
struct eg_pm4_sink {
    void *ctx;
    int (*packet)(void *ctx, const struct eg_pm4_packet *pkt);
    int (*reg)(void *ctx, const struct eg_pm4_packet *pkt, const struct eg_pm4_reg_write *w);
    int (*reloc)(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r);
};

struct eg_pm4_opts {
    /* The CS lacks RADEON_CS_KEEP_TILING_FLAGS, so the kernel also takes a
     * relocation after CB_COLORn_INFO and DB_Z_INFO (to fill in tiling from
     * the buffer).  Mesa always sets the flag on Evergreen: default false. */
    bool tiling_from_relocs;
    /* Accept a count outside the database's count= range (decode anyway). */
    bool lenient_counts;
    /* Accept a SET_* packet whose only payload is its register index (count
     * 0): it writes nothing.  evergreen_packet3_check range-checks the index
     * and loops over no register, so the kernel takes it (Mesa r600 emits
     * some); by default the walker reports it as a count error. */
    bool empty_set_ok;
};

/* Walk dw[0..ndw).  opts may be NULL (defaults), sink may be NULL (just
 * validate).  Returns 0, or the error code with *err filled (err may be NULL). */
int eg_pm4_walk(const uint32_t *dw, size_t ndw, const struct eg_pm4_opts *opts,
                const struct eg_pm4_sink *sink, struct eg_pm4_error *err);

/* The address slots of one packet (already framed by the walker), in the
 * order the kernel consumes relocations.  Writes up to max slots to out
 * (out may be NULL) and returns how many there are. */
unsigned eg_pm4_reloc_slots(const struct eg_pm4_packet *pkt, const struct eg_pm4_opts *opts,
                            struct eg_pm4_slot *out, unsigned max);

/* The register at byte offset in the given space (spaces overlap: resources
 * and ALU constants share 0x30000..), NULL when the database lacks it. */
const struct eg_reg *eg_pm4_reg_in_space(uint32_t offset, const struct eg_space *space);

/* The register-writing space of a type-3 opcode (SET_CONTEXT_REG -> context),
 * NULL for other opcodes. */
const struct eg_space *eg_pm4_space_of_packet(unsigned opcode);

/* --- the asynchronous DMA ring ---------------------------------------------
 * DMA-ring buffers are not PM4: each packet is a DMA_HEADER (CMD, SUB_CMD,
 * COUNT) and a length given by the command (regs/dma.regs, from the kernel's
 * evergreen_dma_cs_parse).  Their relocations carry no NOP: the kernel takes
 * the relocation list in order, one per address. */
struct eg_dma_packet {
    size_t offset;                 /* dword offset of the header */
    uint32_t header;
    unsigned cmd, sub_cmd, count;  /* DMA_HEADER fields */
    const char *name;              /* DMA_CMD value name; NULL when unknown */
    const char *sub_name;          /* WRITE / COPY sub-command name; NULL when none */
    const uint32_t *payload;       /* the dwords after the header */
    size_t npayload;
};

/* Walks dw[0..ndw) as DMA-ring packets, calling cb (may be NULL) for each;
 * cb returning non-zero stops with EG_PM4_ERR_ABORTED.  Errors as eg_pm4_walk,
 * plus EG_PM4_ERR_UNKNOWN_PACKET for a command of unknown length. */
int eg_dma_walk(const uint32_t *dw, size_t ndw,
                int (*cb)(void *ctx, const struct eg_dma_packet *pkt), void *ctx,
                struct eg_pm4_error *err);

/* The fewest payload dwords a type-3 packet of this definition has: COUNT's
 * minimum + 1 where the database gives count=, else its numbered (fixed)
 * payload dwords; 0 for an unknown opcode (def NULL).  A walk with
 * lenient_counts passes shorter packets on: a sink that reads the fixed
 * dwords must check npayload against this first. */
size_t eg_pm4_min_payload(const struct eg_packet *def);

/* "truncated", "reserved type", ... */
const char *eg_pm4_errcode_name(enum eg_pm4_errcode code);

#endif
