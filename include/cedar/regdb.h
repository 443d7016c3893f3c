/* The Evergreen register database as C tables, for decoders and checkers.
 *
 * The data is generated at build time from the regs/ database files by regs/gen_regs.py
 * (build/gen/eg_regs_db.c); the builders use the generated macros and
 * setters in build/gen/eg_regs.h instead.  See regs/README.md.
 */
#ifndef CEDAR_REGDB_H
#define CEDAR_REGDB_H

#include <stdbool.h>
#include <stdint.h>

/* How a field or a whole register is shown. */
enum eg_kind {
    EG_KIND_UINT,   /* unsigned decimal */
    EG_KIND_SINT,   /* two's complement of the field's width */
    EG_KIND_BOOL,
    EG_KIND_HEX,
    EG_KIND_FLOAT,  /* IEEE-754 single (32-bit fields only) */
    EG_KIND_ADDR8,  /* an address in 256-byte units: byte address = value << 8 */
    EG_KIND_ADDR,   /* a byte address (or its low 32 bits) */
};

struct eg_enum_value {
    const char *name;
    uint32_t value;
    const char *doc;
};

struct eg_enum {
    const char *name;
    unsigned count;
    const struct eg_enum_value *values;
};

struct eg_field {
    const char *name;
    uint8_t low, high;          /* bit positions, inclusive */
    uint8_t kind;               /* enum eg_kind */
    const struct eg_enum *enm;  /* NULL when the field has no enum */
    const char *doc;
};

struct eg_bitset {
    const char *name;
    unsigned count;
    const struct eg_field *fields;
};

/* Address spaces, each written by its own SET_* packet. */
struct eg_space {
    const char *name;           /* "config", "context", "resource", ... */
    uint32_t start, end;        /* byte offsets, end exclusive */
    int packet;                 /* type-3 opcode that writes it, -1 if none */
};

struct eg_reg {
    const char *name;
    uint32_t offset;            /* byte offset */
    uint8_t space;              /* index into eg_spaces */
    uint8_t kind;               /* how to show it when it has no bitset */
    uint32_t flags;             /* EG_REGF_* bits (generated) */
    const struct eg_bitset *bitset;
    const char *doc;
};

/* One payload dword of a type-3 packet. index < 0: a repeated tail. */
struct eg_pkt_dword {
    const char *name;
    int index;
    uint8_t kind;
    uint32_t flags;
    const struct eg_bitset *bitset;
};

struct eg_packet {
    const char *name;
    uint8_t opcode;
    int16_t count_min, count_max; /* header COUNT field (payload dwords - 1); -1 = unchecked */
    uint32_t flags;               /* EG_PKTF_* bits (generated) */
    unsigned ndwords;
    const struct eg_pkt_dword *dwords;
    const char *doc;
};

extern const struct eg_space eg_spaces[];
extern const unsigned eg_spaces_count;
extern const struct eg_reg eg_regs[];         /* sorted by offset */
extern const unsigned eg_regs_count;
extern const struct eg_packet eg_packets[];   /* sorted by opcode */
extern const unsigned eg_packets_count;
extern const struct eg_enum eg_enums[];
extern const unsigned eg_enums_count;
extern const struct eg_bitset eg_bitsets[];
extern const unsigned eg_bitsets_count;
extern const char *const eg_reg_flag_names[32];   /* bit -> name, NULL if unused */
extern const char *const eg_pkt_flag_names[32];

const struct eg_reg *eg_reg_find(uint32_t offset);
const struct eg_reg *eg_reg_find_name(const char *name);
const struct eg_space *eg_space_of(uint32_t offset, int packet_opcode); /* packet -1: any */
const struct eg_space *eg_space_find_name(const char *name);
const struct eg_packet *eg_packet_find(unsigned opcode);
const struct eg_packet *eg_packet_find_name(const char *name);
const struct eg_enum *eg_enum_find_name(const char *name);
const struct eg_bitset *eg_bitset_find_name(const char *name);
const struct eg_field *eg_bitset_field(const struct eg_bitset *b, const char *name);
/* Name of an enum value, NULL when the value has none. */
const char *eg_enum_value_name(const struct eg_enum *e, uint32_t value);
bool eg_enum_value_find(const struct eg_enum *e, const char *name, uint32_t *value);

static inline uint32_t eg_field_get(const struct eg_field *f, uint32_t word)
{
    unsigned width = (unsigned)(f->high - f->low + 1);
    uint32_t mask = width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1u);
    return (word >> f->low) & mask;
}

static inline int32_t eg_field_get_signed(const struct eg_field *f, uint32_t word)
{
    unsigned width = (unsigned)(f->high - f->low + 1);
    uint32_t v = eg_field_get(f, word);
    if (width < 32 && (v & (1u << (width - 1))))
        v |= ~((1u << width) - 1u);
    return (int32_t)v;
}

/* Called by the generated S_* setters when a value does not fit its field:
 * prints the field and the value and aborts (a builder bug, never user input). */
_Noreturn void eg_field_overflow(const char *field, int64_t value, int64_t min, int64_t max);

#endif
