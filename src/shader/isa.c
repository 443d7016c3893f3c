/* Evergreen ALU opcode properties (source count, allowed slots) and word
 * classification helpers.  Opcode values come from the register database;
 * the properties are Mesa r600_isa.c's Evergreen column (slots AF_V / AF_S /
 * AF_4V, src_count). */
#include <stddef.h>

#include "eg_regs.h"
#include "isa.h"

/* Indexed by opcode so the interpreter's per-slot lookup is one load; an
 * entry with no slots is not an Evergreen instruction.  The OP2 field is
 * 11 bits wide, but Evergreen opcodes stay below 256 (the array bound makes
 * the compiler reject one that does not). */
#define OP2_LIMIT 256
#define OP3_LIMIT 32

static const struct eg_alu_op_info op2_table[OP2_LIMIT] = {
    [V_SQ_ALU_OP2__ADD] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MUL] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MUL_IEEE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MAX] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MIN] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MAX_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MIN_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETNE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETE_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGT_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGE_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETNE_DX10] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__FRACT] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__TRUNC] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__CEIL] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RNDNE] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__FLOOR] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__ASHR_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__LSHR_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__LSHL_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MOV] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__ALU_NOP] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGT_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGE_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETNE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SET_INV] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SET_POP] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SET_CLR] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SET_RESTORE] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETE_PUSH] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGT_PUSH] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGE_PUSH] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETNE_PUSH] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLNE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__AND_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__OR_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__XOR_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__NOT_INT] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__ADD_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SUB_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MAX_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MIN_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MAX_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MIN_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGT_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETNE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGT_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SETGE_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGT_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGE_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGT_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETNE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGT_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLGE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__KILLNE_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETE_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGT_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETGE_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETNE_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETLT_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__PRED_SETLE_PUSH_INT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__FLT_TO_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__BFREV_INT] = { 1, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__ADDC_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SUBB_UINT] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__GROUP_BARRIER] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__GROUP_SEQ_BEGIN] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__GROUP_SEQ_END] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SET_MODE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SET_CF_IDX0] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SET_CF_IDX1] = { 0, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SET_LDS_SIZE] = { 2, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__EXP_IEEE] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__LOG_CLAMPED] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__LOG_IEEE] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_CLAMPED] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_FF] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_IEEE] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIPSQRT_CLAMPED] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIPSQRT_FF] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIPSQRT_IEEE] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SQRT_IEEE] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SIN] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__COS] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MULLO_INT] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MULHI_INT] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MULLO_UINT] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__MULHI_UINT] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_INT] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_UINT] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_64] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIP_CLAMPED_64] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIPSQRT_64] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__RECIPSQRT_CLAMPED_64] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__SQRT_64] = { 2, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__FLT_TO_UINT] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__INT_TO_FLT] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__UINT_TO_FLT] = { 1, EG_SLOT_TRANS },
    [V_SQ_ALU_OP2__BFM_INT] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT32_TO_FLT16] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT16_TO_FLT32] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__UBYTE0_FLT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__UBYTE1_FLT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__UBYTE2_FLT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__UBYTE3_FLT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__BCNT_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FFBH_UINT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FFBL_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FFBH_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT_TO_UINT4] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__DOT_IEEE] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT_TO_INT_RPI] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT_TO_INT_FLOOR] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MULHI_UINT24] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MBCNT_32HI_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__OFFSET_TO_FLT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MUL_UINT24] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__BCNT_ACCUM_PREV_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MBCNT_32LO_ACCUM_PREV_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__SETE_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__SETNE_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__SETGT_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__SETGE_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MIN_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MAX_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__DOT4] = { 2, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__DOT4_IEEE] = { 2, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__CUBE] = { 2, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__MAX4] = { 1, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__FREXP_64] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__LDEXP_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FRACT_64] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__PRED_SETGT_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__PRED_SETE_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__PRED_SETGE_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MUL_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__ADD_64] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MOVA_INT] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT64_TO_FLT32] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__FLT32_TO_FLT64] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__SAD_ACCUM_PREV_UINT] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__DOT] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MUL_PREV] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MUL_IEEE_PREV] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__ADD_PREV] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MULADD_PREV] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__MULADD_IEEE_PREV] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__INTERP_XY] = { 2, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__INTERP_ZW] = { 2, EG_SLOT_VEC | EG_SLOT_4V },
    [V_SQ_ALU_OP2__INTERP_X] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__INTERP_Z] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__STORE_FLAGS] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__LOAD_STORE_FLAGS] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__LDS_1A] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__LDS_1A1D] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__LDS_2A] = { 2, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__INTERP_LOAD_P0] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__INTERP_LOAD_P10] = { 1, EG_SLOT_VEC },
    [V_SQ_ALU_OP2__INTERP_LOAD_P20] = { 1, EG_SLOT_VEC },
};

static const struct eg_alu_op_info op3_table[OP3_LIMIT] = {
    [V_SQ_ALU_OP3__BFE_UINT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__BFE_INT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__BFI_INT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__FMA] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__CNDNE_64] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__FMA_64] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__LERP_UINT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__BIT_ALIGN_INT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__BYTE_ALIGN_INT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__SAD_ACCUM_UINT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__SAD_ACCUM_HI_UINT] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__MULADD_UINT24] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__LDS_IDX_OP] = { 3, EG_SLOT_VEC },
    [V_SQ_ALU_OP3__MULADD] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__MULADD_M2] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__MULADD_M4] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__MULADD_D2] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__MULADD_IEEE] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDE] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDGT] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDGE] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDE_INT] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDGT_INT] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__CNDGE_INT] = { 3, EG_SLOT_VEC | EG_SLOT_TRANS },
    [V_SQ_ALU_OP3__MUL_LIT] = { 3, EG_SLOT_TRANS },
};

const struct eg_alu_op_info *eg_alu_op_info(bool op3, unsigned op)
{
    const struct eg_alu_op_info *info = NULL;
    if (op3 && op < OP3_LIMIT)
        info = &op3_table[op];
    else if (!op3 && op < OP2_LIMIT)
        info = &op2_table[op];
    return info && info->slots ? info : NULL;
}

unsigned eg_alu_literals_read(uint32_t w0, uint32_t w1, unsigned nsrc)
{
    unsigned sel[3] = { G_SQ_ALU_WORD0__SRC0_SEL(w0), G_SQ_ALU_WORD0__SRC1_SEL(w0),
                        G_SQ_ALU_WORD1_OP3__SRC2_SEL(w1) };
    unsigned chan[3] = { G_SQ_ALU_WORD0__SRC0_CHAN(w0), G_SQ_ALU_WORD0__SRC1_CHAN(w0),
                         G_SQ_ALU_WORD1_OP3__SRC2_CHAN(w1) };
    unsigned n = eg_alu_is_op3(w1) ? 3 : 2, used = 0;
    for (unsigned k = 0; k < n && k < nsrc; k++)
        if (sel[k] == V_SQ_ALU_SRC__LITERAL && chan[k] + 1 > used)
            used = chan[k] + 1;
    return used;
}

enum eg_cf_form eg_cf_form_of(uint32_t cf_word1)
{
    unsigned inst = G_SQ_CF_WORD1__CF_INST(cf_word1);
    if (inst >= V_SQ_CF_CLASS__ALU_MIN)
        return EG_CF_ALU;
    if (inst >= V_SQ_CF_CLASS__EXPORT_MIN)
        return EG_CF_EXPORT;
    return EG_CF_PLAIN;
}

bool eg_alu_is_op3(uint32_t alu_word1)
{
    return G_SQ_ALU_WORD1__ENCODING(alu_word1) != 0;
}

unsigned eg_alu_opcode(uint32_t alu_word1)
{
    return eg_alu_is_op3(alu_word1) ? G_SQ_ALU_WORD1_OP3__ALU_INST(alu_word1)
                                    : G_SQ_ALU_WORD1_OP2__ALU_INST(alu_word1);
}
