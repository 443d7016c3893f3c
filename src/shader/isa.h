/* Internal to src/shader/: what the encoder, disassembler and interpreter
 * share about Evergreen ALU opcodes beyond their values (which are in the
 * register database). */
#ifndef CEDAR_SHADER_ISA_H
#define CEDAR_SHADER_ISA_H

#include <stdbool.h>
#include <stdint.h>

/* Slots an ALU instruction may occupy (Mesa r600_isa.c, Evergreen column). */
enum {
    EG_SLOT_VEC = 1,    /* any of x, y, z, w */
    EG_SLOT_TRANS = 2,  /* t */
    EG_SLOT_4V = 4,     /* needs all four vector slots (DOT4, INTERP_XY, ...) */
};

struct eg_alu_op_info {
    uint8_t nsrc;       /* sources read */
    uint8_t slots;      /* EG_SLOT_* bits */
};

/* NULL when the opcode is not an Evergreen ALU instruction. */
const struct eg_alu_op_info *eg_alu_op_info(bool op3, unsigned op);

/* How many literal dwords (highest literal channel + 1, 0 when none) the ALU
 * instruction w0/w1 reads through its first nsrc sources (src2 only for OP3
 * instructions).  The group's literals follow its last instruction. */
unsigned eg_alu_literals_read(uint32_t w0, uint32_t w1, unsigned nsrc);

/* Instruction-group slots. */
enum { EG_SLOT_X, EG_SLOT_Y, EG_SLOT_Z, EG_SLOT_W, EG_SLOT_T, EG_NSLOTS };

/* Classify an 8-bit CF_INST (CF word 1 bits 22..29). */
enum eg_cf_form { EG_CF_PLAIN, EG_CF_ALU, EG_CF_EXPORT };
enum eg_cf_form eg_cf_form_of(uint32_t cf_word1);

/* Whether an ALU word 1 is in the OP3 form. */
bool eg_alu_is_op3(uint32_t alu_word1);

/* The ALU opcode of an instruction (OP2 or OP3 per eg_alu_is_op3). */
unsigned eg_alu_opcode(uint32_t alu_word1);

#endif
