/* Vertex fetch data formats (src/shader/vtx_format.c): for every FMT_* of
 * the ISA's data-format table (regs/resource.regs SQ_DATA_FORMAT), whether
 * the Cedar's vertex fetch reads it, where its components lie, and how the
 * fetched bits become the four 32-bit values a VTX instruction writes
 * (NUM_FORMAT_ALL, FORMAT_COMP_ALL, SRF_MODE_ALL, ENDIAN_SWAP; DST_SEL is
 * applied by the caller). */
#ifndef CEDAR_VTX_FORMAT_H
#define CEDAR_VTX_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cedar/shader.h"

enum eg_vtx_fetchable {
    EG_VTX_FETCH_NO,        /* never fetched: a draw that does is a GPU fault */
    EG_VTX_FETCH_YES,       /* every NUM_FORMAT */
    EG_VTX_FETCH_INT_ONLY,  /* 32-bit integer channels: NUM_FORMAT INT, or SCALED read as INT */
};

struct eg_vtx_format {
    unsigned data_format;   /* V_SQ_DATA_FORMAT__* */
    uint8_t bytes;          /* element size; 0 when the layout is not modelled */
    uint8_t ncomp;          /* components X.. in the element */
    uint8_t lo[4], bits[4]; /* component c: bits lo[c] .. lo[c] + bits[c] - 1 of the
                               little-endian element */
    uint8_t float_mask;     /* bit c: component c is a float (16-bit: IEEE half;
                               11 / 10-bit: unsigned, 5-bit exponent; 32-bit: IEEE) */
    uint8_t fetch;          /* enum eg_vtx_fetchable */
    const char *why;        /* the source of the fetch decision */
};

/* How the integer components are read (the fetch instruction's *_ALL fields,
 * or the resource's with USE_CONST_FIELDS). */
struct eg_vtx_numfmt {
    unsigned num_format;    /* V_SQ_NUM_FORMAT__*: NORM, INT, SCALED */
    unsigned format_comp;   /* V_SQ_FORMAT_COMP__*: UNSIGNED, SIGNED */
    unsigned srf_mode;      /* V_SQ_SRF_MODE__*: signed NORM rule */
};

/* Every entry, in data-format order; *n gets the count. */
const struct eg_vtx_format *eg_vtx_format_table(size_t *n);
/* The entry of a data format, or NULL for a value outside the ISA table. */
const struct eg_vtx_format *eg_vtx_format_find(unsigned data_format);
/* Why a fetch of this format and number format is refused (a GPU fault),
 * or NULL when the vertex fetch reads it. */
const char *eg_vtx_format_refusal(unsigned data_format, unsigned num_format);
/* The same for the entry f (NULL: a value outside the ISA table). */
const char *eg_vtx_format_refusal_of(const struct eg_vtx_format *f, unsigned num_format);
/* Whether a fetch of f with this number format yields integer bits (INT,
 * and SCALED of 32-bit integer channels). */
bool eg_vtx_fetch_int(const struct eg_vtx_format *f, unsigned num_format);
/* ENDIAN_SWAP applied to an element of n bytes, in place. */
void eg_vtx_endian_swap(uint8_t *p, unsigned n, unsigned endian);
/* Converts one element (f->bytes bytes, already endian-swapped) to four
 * values: floats, or integers for NUM_FORMAT INT; components the format
 * lacks are 0, w 1 (1.0, or 1 for INT).  Returns the component count, or
 * -1 (nothing written) when eg_vtx_format_refusal refuses the pair. */
int eg_vtx_format_convert(const struct eg_vtx_format *f, const struct eg_vtx_numfmt *nf, const uint8_t *bytes,
                          union eg_vec4 *out);

/* A conversion prepared once for a format and number format (a fetch
 * instruction over many vertices): eg_vtx_conv_run gives exactly what
 * eg_vtx_format_convert gives.  Two layouts take a shorter way: every
 * component a whole 32-bit word read as its bits (the 32-bit floats, and
 * the 32-bit integers, which are fetched only as integers), and every
 * component a whole 8- or 16-bit integer (FMT_8, 8_8, 8_8_8_8, 16, 16_16,
 * 16_16_16_16); the rest go through eg_vtx_format_convert. */
enum eg_vtx_conv_path {
    EG_VTX_CONV_GENERAL,    /* eg_vtx_format_convert */
    EG_VTX_CONV_WORDS,      /* 32-bit words, as they are */
    EG_VTX_CONV_UNITS,      /* 8- or 16-bit integers */
};
enum eg_vtx_conv_op {       /* EG_VTX_CONV_UNITS: an integer c (sign-extended when SIGNED) becomes */
    EG_VTX_OP_BITS,         /* its 32 bits (INT) */
    EG_VTX_OP_SCALED,       /* (float)c */
    EG_VTX_OP_UNORM,        /* c / (2^b - 1) */
    EG_VTX_OP_SNORM,        /* max(c / (2^(b-1) - 1), -1) */
    EG_VTX_OP_SNORM_NO_ZERO,/* (2c + 1) / (2^b - 1) */
};
struct eg_vtx_conv {
    const struct eg_vtx_format *f;
    struct eg_vtx_numfmt nf;
    uint8_t path;           /* enum eg_vtx_conv_path */
    uint8_t op;             /* enum eg_vtx_conv_op (UNITS) */
    uint8_t ncomp, unit;    /* components, and bytes of each (UNITS: 1 or 2) */
    bool is_signed;
    double div;             /* NORM: the divisor of the op */
    union eg_vec4 fill;     /* components ncomp..3: 0, w 1 (1.0, or 1 for integers) */
};
/* 0, or -1 (cv unusable) when eg_vtx_format_refusal refuses the pair. */
int eg_vtx_conv_init(struct eg_vtx_conv *cv, const struct eg_vtx_format *f, const struct eg_vtx_numfmt *nf);
/* One element (cv->f->bytes bytes, already endian-swapped) to four values. */
void eg_vtx_conv_run(const struct eg_vtx_conv *cv, const uint8_t *bytes, union eg_vec4 *out);

#endif
