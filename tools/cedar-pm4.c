/* cedar-pm4: disassembles Evergreen PM4 command buffers (and DMA-ring
 * buffers) from a file of little-endian dwords, using the PM4 walker
 * (src/pm4/) and the register database (regs/).
 *
 * Exit status: 0 everything decoded, 1 something was unknown (an opcode,
 * a register, an enum value, a relocation not tied to an address), 2 bad
 * usage or a malformed / unreadable file. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cedar/pm4.h"
#include "cedar/regdb.h"
#include "eg_regs.h"

#include "cedar/shader.h"

enum { EXIT_OK = 0, EXIT_UNKNOWN = 1, EXIT_BAD = 2 };

struct opts {
    bool json, summary, dma_ring;
    bool ring_given;
    struct eg_pm4_opts walk;
    char **regs;        /* --regs names (NULL-terminated), or NULL */
    const char *shader; /* --shader FILE */
};

/* --- output: one packet is built in memory, then printed or dropped ------- */
struct out {
    const struct opts *o;
    FILE *f;            /* the current packet's text (open_memstream) */
    char *buf;
    size_t len;
    bool selected;      /* --regs: the packet wrote a selected register */
    bool first_item;    /* JSON: no comma before the next array item */
    bool regs_open;     /* JSON: the packet's "regs":[ array is open */
    unsigned unknown;   /* unknown things in the whole file */
};

static void begin(struct out *ot)
{
    ot->f = open_memstream(&ot->buf, &ot->len);
    if (!ot->f) {
        perror("cedar-pm4: open_memstream");
        exit(EXIT_BAD);
    }
    ot->selected = false;
}

static void end(struct out *ot)
{
    fclose(ot->f);
    ot->f = NULL;
    if (!ot->o->regs || ot->selected)
        fwrite(ot->buf, 1, ot->len, stdout);
    free(ot->buf);
    ot->buf = NULL;
}

static void pr(struct out *ot, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pr(struct out *ot, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ot->f, fmt, ap);
    va_end(ap);
}

/* JSON strings: names are identifiers, but quote and backslash anyway. */
static void jstr(struct out *ot, const char *s)
{
    fputc('"', ot->f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', ot->f);
        if ((unsigned char)*s < 0x20)
            fprintf(ot->f, "\\u%04x", *s);
        else
            fputc(*s, ot->f);
    }
    fputc('"', ot->f);
}

static void jsep(struct out *ot)
{
    if (!ot->first_item)
        fputc(',', ot->f);
    ot->first_item = false;
}

static bool reg_selected(const struct opts *o, const char *name)
{
    if (!o->regs)
        return true;
    for (char **r = o->regs; *r; r++)
        if (name && strcmp(*r, name) == 0)
            return true;
    return false;
}

/* --- values and fields -------------------------------------------------- */
static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, sizeof(f));
    return f;
}

/* One value shown by kind, text form. */
static void text_value(struct out *ot, unsigned kind, uint32_t v, unsigned width)
{
    switch (kind) {
    case EG_KIND_SINT: {
        int64_t s = v;
        if (width < 32 && (v >> (width - 1)) & 1)
            s -= (int64_t)1 << width;
        else if (width == 32)
            s = (int32_t)v;
        pr(ot, "%lld", (long long)s);
        break;
    }
    case EG_KIND_BOOL: pr(ot, "%u", v); break;
    case EG_KIND_FLOAT: pr(ot, "%g(0x%08X)", (double)as_float(v), v); break;
    case EG_KIND_ADDR8: pr(ot, "0x%X(addr 0x%llX)", v, (unsigned long long)v << 8); break;
    case EG_KIND_ADDR: pr(ot, "0x%08X", v); break;
    case EG_KIND_HEX: pr(ot, "0x%X", v); break;
    default: pr(ot, v > 9 ? "%u(0x%X)" : "%u", v, v); break;
    }
}

/* The fields of word by bitset b: "NAME=VALUE ..." or a JSON object. */
static void fields(struct out *ot, const struct eg_bitset *b, uint32_t word)
{
    bool json = ot->o->json;
    if (json)
        pr(ot, "{");
    for (unsigned i = 0; i < b->count; i++) {
        const struct eg_field *f = &b->fields[i];
        uint32_t v = eg_field_get(f, word);
        const char *en = f->enm ? eg_enum_value_name(f->enm, v) : NULL;
        if (f->enm && !en)
            ot->unknown++;
        if (json) {
            pr(ot, "%s", i ? "," : "");
            jstr(ot, f->name);
            if (f->enm) {
                pr(ot, ":{\"value\":%u,\"name\":", v);
                if (en)
                    jstr(ot, en);
                else
                    pr(ot, "null");
                pr(ot, "}");
            } else if (f->kind == EG_KIND_FLOAT) {
                pr(ot, ":{\"value\":%u,\"float\":%.9g}", v, (double)as_float(v));
            } else {
                pr(ot, ":%u", v);
            }
            continue;
        }
        pr(ot, " %s=", f->name);
        if (f->enm)
        {
            if (en)
                pr(ot, "%s(%u)", en, v);
            else
                pr(ot, "unknown(%u)", v);
        }
        else
            text_value(ot, f->kind, v, (unsigned)(f->high - f->low + 1));
    }
    if (json)
        pr(ot, "}");
}

/* A whole register or dword: fields if it has a bitset, else its value. */
static void word_decode(struct out *ot, const struct eg_bitset *b, unsigned kind, uint32_t v)
{
    if (ot->o->json) {
        if (b) {
            pr(ot, ",\"fields\":");
            fields(ot, b, v);
        } else if (kind == EG_KIND_FLOAT) {
            pr(ot, ",\"float\":%.9g", (double)as_float(v));
        }
        return;
    }
    if (b)
        fields(ot, b, v);
    else if (kind != EG_KIND_HEX) {
        pr(ot, " ");
        text_value(ot, kind, v, 32);
    }
}

/* --- the sink ------------------------------------------------------------ */
struct ctx {
    struct out out;
    size_t pending_resource;   /* SET_RESOURCE / SET_SAMPLER: words seen in this packet */
};

static void finish_packet(struct ctx *x);

static const char *type_name(unsigned type)
{
    return type == 0 ? "TYPE0" : type == 2 ? "TYPE2" : "TYPE3";
}

/* Operand dwords of a non-register packet, from its database description. */
static const struct eg_pkt_dword *pkt_dword(const struct eg_packet *def, size_t i)
{
    const struct eg_pkt_dword *tail = NULL;
    for (unsigned k = 0; k < def->ndwords; k++) {
        if (def->dwords[k].index == (int)i)
            return &def->dwords[k];
        if (def->dwords[k].index < 0)
            tail = &def->dwords[k];
    }
    return tail;
}

static void operands(struct out *ot, const struct eg_pm4_packet *p)
{
    bool json = ot->o->json;
    if (json)
        pr(ot, ",\"dwords\":[");
    for (size_t i = 0; i < p->npayload; i++) {
        const struct eg_pkt_dword *d = p->def ? pkt_dword(p->def, i) : NULL;
        uint32_t v = p->payload[i];
        if (json) {
            pr(ot, "%s{\"index\":%zu,\"value\":%u", i ? "," : "", i, v);
            if (d) {
                pr(ot, ",\"name\":");
                jstr(ot, d->name);
                word_decode(ot, d->bitset, d->kind, v);
            }
            pr(ot, "}");
            continue;
        }
        pr(ot, "        +%zu 0x%08X", i, v);
        if (d) {
            pr(ot, " %s", d->name);
            word_decode(ot, d->bitset, d->kind, v);
        }
        pr(ot, "\n");
    }
    if (json)
        pr(ot, "]");
}

static int on_packet(void *c, const struct eg_pm4_packet *p)
{
    struct ctx *x = c;
    struct out *ot = &x->out;
    finish_packet(x);
    begin(ot);
    const char *name = p->type == 3 ? (p->def ? p->def->name : NULL) : type_name(p->type);
    if (p->type == 3 && !p->def)
        ot->unknown++;
    if (ot->o->json) {
        pr(ot, "{\"offset\":%zu,\"header\":%u,\"type\":%u", p->offset, p->header, p->type);
        if (p->type == 3)
            pr(ot, ",\"opcode\":%u,\"predicate\":%d", p->opcode, p->predicate);
        pr(ot, ",\"packet\":");
        if (name)
            jstr(ot, name);
        else
            pr(ot, "null");
        pr(ot, ",\"count\":%u", p->count);
        if (p->type == 0)
            pr(ot, ",\"base\":%u", G_PM4_TYPE0_HEADER__BASE_INDEX(p->header) * 4u);
        if (p->space)
            pr(ot, ",\"space\":\"%s\",\"index\":%u", p->space->name, p->payload[0]);
        if (p->type == 3 && !p->space && p->opcode != PKT3_NOP && !ot->o->summary)
            operands(ot, p);
        ot->regs_open = (p->type == 0 || p->space) && !ot->o->summary;
        if (ot->regs_open)
            pr(ot, ",\"regs\":[");
        ot->first_item = true;
        return 0;
    }
    pr(ot, "[%04zX] %08X  ", p->offset, p->header);
    if (name)
        pr(ot, "%-24s", name);
    else
        pr(ot, "unknown opcode 0x%02X     ", p->opcode);
    if (p->type != 2)
        pr(ot, " count=%u", p->count);
    if (p->predicate)
        pr(ot, " predicated");
    if (p->space)
        pr(ot, " %s index 0x%X", p->space->name, p->payload[0]);
    pr(ot, "\n");
    if (p->type == 3 && !p->space && p->opcode != PKT3_NOP && !ot->o->summary)
        operands(ot, p);
    return 0;
}

/* Resource and sampler words have no registers: 8 (3) words per slot, a
 * texture or a vertex buffer by WORD7.TYPE (regs/resource.regs). */
static const struct eg_bitset *descriptor_word(const struct eg_pm4_packet *p, unsigned word,
                                               char *label, size_t n, bool *unused)
{
    char name[40];
    *unused = false;
    if (p->opcode == PKT3_SET_SAMPLER) {
        snprintf(name, sizeof(name), "SQ_TEX_SAMPLER_WORD%u", word % 3);
    } else {
        size_t first = 1 + (size_t)(word / 8) * 8;
        uint32_t w7 = first + 7 < p->npayload ? p->payload[first + 7] : 0;
        bool buffer = G_SQ_TEX_RESOURCE_WORD7__TYPE(w7) == V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER;
        snprintf(name, sizeof(name), "%s%u", buffer ? "SQ_VTX_CONSTANT_WORD" : "SQ_TEX_RESOURCE_WORD",
                 word % 8);
        /* A buffer descriptor uses words 0..3 and 7 (regs/resource.regs). */
        *unused = buffer && word % 8 >= 4 && word % 8 <= 6;
    }
    snprintf(label, n, "%s", name);
    return eg_bitset_find_name(name);
}

static int on_reg(void *c, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    struct ctx *x = c;
    struct out *ot = &x->out;
    const struct eg_bitset *b = NULL;
    unsigned kind = EG_KIND_HEX;
    char label[64];
    bool descriptor = p->type == 3 &&
                      (p->opcode == PKT3_SET_RESOURCE || p->opcode == PKT3_SET_SAMPLER);
    if (w->reg) {
        snprintf(label, sizeof(label), "%s", w->reg->name);
        b = w->reg->bitset;
        kind = w->reg->kind;
    } else if (descriptor) {
        unsigned word = w->payload_index - 1;
        bool unused;
        b = descriptor_word(p, word, label, sizeof(label), &unused);
        if (unused)
            strncat(label, " (unused)", sizeof(label) - strlen(label) - 1);
        else if (!b) {
            ot->unknown++;
            snprintf(label, sizeof(label), "unknown");
        }
    } else if (p->type == 3 && p->opcode == PKT3_SET_ALU_CONST) {
        snprintf(label, sizeof(label), "ALU_CONST[%u].%c", (w->offset - w->space->start) / 16,
                 "xyzw"[(w->offset / 4) % 4]);
        kind = EG_KIND_FLOAT;
    } else {
        ot->unknown++;
        snprintf(label, sizeof(label), "unknown");
    }
    const char *selname = w->reg ? w->reg->name : label;
    bool sel = reg_selected(ot->o, selname);
    ot->selected |= sel && ot->o->regs;
    if (ot->o->summary || !sel)
        return 0;
    if (ot->o->json) {
        jsep(ot);
        pr(ot, "{\"offset\":%u,\"name\":", w->offset);
        if (strcmp(label, "unknown"))
            jstr(ot, label);
        else
            pr(ot, "null");
        pr(ot, ",\"value\":%u", w->value);
        if (descriptor)
            pr(ot, ",\"slot\":%u", (w->offset - w->space->start) /
                                      (p->opcode == PKT3_SET_SAMPLER ? 12u : 32u));
        word_decode(ot, b, kind, w->value);
        pr(ot, "}");
        return 0;
    }
    if (descriptor && p->opcode == PKT3_SET_RESOURCE && (w->payload_index - 1) % 8 == 0) {
        uint32_t w7 = p->payload[w->payload_index + 7];
        bool buffer = G_SQ_TEX_RESOURCE_WORD7__TYPE(w7) == V_SQ_TEX_VTX_TYPE__SQ_TEX_VTX_VALID_BUFFER;
        pr(ot, "        resource %u: %s\n", (w->offset - w->space->start) / 32,
           buffer ? "vertex buffer" : "texture");
    } else if (descriptor && (w->payload_index - 1) % 3 == 0) {
        pr(ot, "        sampler %u\n", (w->offset - w->space->start) / 12);
    }
    pr(ot, "        0x%05X %-32s = 0x%08X", w->offset, label, w->value);
    word_decode(ot, b, kind, w->value);
    pr(ot, "\n");
    return 0;
}

static int on_reloc(void *c, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    (void)nop;
    struct ctx *x = c;
    struct out *ot = &x->out;
    /* An untied one-dword NOP is a known packet: no address precedes it, so
     * the kernel consumes nothing from it (padding, e.g. to align an IB). */
    if (ot->o->regs && r->tied && r->slot.reg && reg_selected(ot->o, r->slot.reg->name))
        ot->selected = true;
    if (ot->o->json) {
        pr(ot, ",\"reloc\":{\"index\":%u,\"tied\":%s", r->index, r->tied ? "true" : "false");
        if (!r->tied)
            pr(ot, ",\"padding\":true");
        if (r->tied) {
            pr(ot, ",\"packet_offset\":%zu,\"payload_index\":%u,\"what\":", r->packet_offset,
               r->slot.payload_index);
            jstr(ot, r->slot.what);
            if (r->slot.reg_offset)
                pr(ot, ",\"reg_offset\":%u", r->slot.reg_offset);
        }
        pr(ot, "}");
        return 0;
    }
    if (ot->o->summary)
        return 0;
    if (r->tied)
        pr(ot, "        reloc %u -> %s (%s @%04zX +%u)\n", r->index, r->slot.what,
           r->target && r->target->def ? r->target->def->name : "packet", r->packet_offset,
           r->slot.payload_index);
    else
        pr(ot, "        (no address before it awaits a relocation: padding, raw 0x%08X)\n", r->value);
    return 0;
}

static void finish_packet(struct ctx *x)
{
    struct out *ot = &x->out;
    if (!ot->f)
        return;
    if (ot->o->json)
        pr(ot, "%s}\n", ot->regs_open ? "]" : "");
    end(ot);
}

/* --- files --------------------------------------------------------------- */
static uint32_t *read_dwords(const char *path, size_t *ndw)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cedar-pm4: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool err = ferror(f);
    fclose(f);
    if (!buf || err) {
        fprintf(stderr, "cedar-pm4: %s: %s\n", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    if (n % 4) {
        fprintf(stderr, "cedar-pm4: %s: %zu bytes is not a whole number of dwords\n", path, n);
        free(buf);
        return NULL;
    }
    uint32_t *dw = malloc(n ? n : 4);
    if (!dw) {
        free(buf);
        fprintf(stderr, "cedar-pm4: %s: out of memory\n", path);
        return NULL;
    }
    for (size_t i = 0; i < n / 4; i++) /* little-endian, whatever the host */
        dw[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 |
                (uint32_t)buf[4 * i + 2] << 16 | (uint32_t)buf[4 * i + 3] << 24;
    free(buf);
    *ndw = n / 4;
    return dw;
}

/* --- the DMA ring --------------------------------------------------------- */
/* Payload dword layouts by sub-command, from regs/dma.regs (the kernel's
 * evergreen_dma_cs_parse and Mesa's evergreen_dma_copy_tile).  NULL bitset:
 * shown as a raw value under that name. */
struct dma_layout {
    const char *sub;
    const char *dwords[9][2]; /* {name, bitset} */
};

static const struct dma_layout dma_layouts[] = {
    { "L2T_T2L", { { "TILED_BASE_256B", NULL }, { "TILED_INFO", "DMA_TILED_INFO" },
                   { "TILED_PITCH", "DMA_TILED_PITCH" }, { "TILED_SLICE", "DMA_TILED_SLICE" },
                   { "TILED_XZ", "DMA_TILED_XZ" }, { "TILED_Y", "DMA_TILED_Y" },
                   { "LINEAR_ADDR_LO", NULL }, { "LINEAR_ADDR_HI", "DMA_ADDR_HI" } } },
    { "L2L_DW", { { "DST_ADDR_LO", NULL }, { "SRC_ADDR_LO", NULL }, { "DST_ADDR_HI", "DMA_ADDR_HI" },
                  { "SRC_ADDR_HI", "DMA_ADDR_HI" } } },
    { "L2L_BYTE", { { "DST_ADDR_LO", NULL }, { "SRC_ADDR_LO", NULL }, { "DST_ADDR_HI", "DMA_ADDR_HI" },
                    { "SRC_ADDR_HI", "DMA_ADDR_HI" } } },
    { "WRITE_LINEAR", { { "DST_ADDR_LO", NULL }, { "DST_ADDR_HI", "DMA_ADDR_HI" } } },
    { "DMA_CONSTANT_FILL", { { "DST_ADDR_LO", NULL }, { "DATA", NULL }, { "DST_ADDR_HI", "DMA_FILL_ADDR_HI" } } },
};

static int on_dma(void *c, const struct eg_dma_packet *p)
{
    struct ctx *x = c;
    struct out *ot = &x->out;
    begin(ot);
    const char *key = p->sub_name ? p->sub_name : p->name;
    const struct dma_layout *lay = NULL;
    for (size_t i = 0; i < sizeof(dma_layouts) / sizeof(dma_layouts[0]); i++)
        if (key && strcmp(dma_layouts[i].sub, key) == 0)
            lay = &dma_layouts[i];
    bool json = ot->o->json;
    if (json) {
        pr(ot, "{\"offset\":%zu,\"header\":%u,\"packet\":", p->offset, p->header);
        jstr(ot, p->name);
        pr(ot, ",\"sub\":");
        if (p->sub_name)
            jstr(ot, p->sub_name);
        else
            pr(ot, "null");
        pr(ot, ",\"count\":%u", p->count);
        if (!ot->o->summary)
            pr(ot, ",\"dwords\":[");
    } else {
        pr(ot, "[%04zX] %08X  %s%s%s count=%u\n", p->offset, p->header, p->name,
           p->sub_name ? " " : "", p->sub_name ? p->sub_name : "", p->count);
    }
    for (size_t i = 0; i < p->npayload && !ot->o->summary; i++) {
        const char *name = lay && i < 9 ? lay->dwords[i][0] : NULL;
        const char *bs = lay && i < 9 ? lay->dwords[i][1] : NULL;
        const struct eg_bitset *b = bs ? eg_bitset_find_name(bs) : NULL;
        if (bs && !b)
            ot->unknown++;
        if (json) {
            pr(ot, "%s{\"index\":%zu,\"value\":%u", i ? "," : "", i, p->payload[i]);
            if (name) {
                pr(ot, ",\"name\":");
                jstr(ot, name);
            }
            word_decode(ot, b, EG_KIND_HEX, p->payload[i]);
            pr(ot, "}");
            continue;
        }
        pr(ot, "        +%zu 0x%08X %s", i, p->payload[i], name ? name : "data");
        word_decode(ot, b, EG_KIND_HEX, p->payload[i]);
        pr(ot, "\n");
    }
    if (json)
        pr(ot, "%s}\n", ot->o->summary ? "" : "]");
    end(ot);
    return 0;
}

static int disasm_dma(const struct opts *o, const uint32_t *dw, size_t ndw, const char *path)
{
    struct ctx x = { .out = { .o = o } };
    struct eg_pm4_error err;
    int rc = eg_dma_walk(dw, ndw, on_dma, &x, &err);
    if (rc) {
        if (o->json)
            printf("{\"error\":{\"code\":\"%s\",\"offset\":%zu}}\n", eg_pm4_errcode_name(err.code),
                   err.offset);
        bool unknown = rc == EG_PM4_ERR_UNKNOWN_PACKET;
        fprintf(stderr, "cedar-pm4: %s: %s: %s\n", path, unknown ? "unknown" : "malformed",
                err.message);
        return unknown ? EXIT_UNKNOWN : EXIT_BAD;
    }
    if (x.out.unknown) {
        fprintf(stderr, "cedar-pm4: %s: %u unknown item(s)\n", path, x.out.unknown);
        return EXIT_UNKNOWN;
    }
    return EXIT_OK;
}

/* --- main ---------------------------------------------------------------- */
static void usage(FILE *f)
{
    fprintf(f,
            "usage: cedar-pm4 [options] FILE\n"
            "       cedar-pm4 --shader FILE\n"
            "Disassembles a file of little-endian PM4 dwords (an Evergreen command buffer).\n"
            "  --json            one JSON object per packet (JSON lines), stable keys\n"
            "  --regs A,B,...    only these registers (and packets writing them)\n"
            "  --summary         packets only, no registers or operands\n"
            "  --ring gfx|dma    the ring the buffer is for (default: gfx; dma decodes\n"
            "                    the asynchronous DMA engine's packets)\n"
            "  --tiling-relocs   the CS lacks RADEON_CS_KEEP_TILING_FLAGS (the kernel then\n"
            "                    takes relocations after CB_COLORn_INFO and DB_Z_INFO)\n"
            "  --shader FILE     disassemble Evergreen shader microcode instead\n"
            "  -h, --help        this text\n"
            "Exit status: 0 all decoded, 1 something unknown, 2 bad usage or malformed file.\n");
}

static char **split_names(const char *arg)
{
    size_t n = 1;
    for (const char *c = arg; *c; c++)
        n += *c == ',';
    char **v = calloc(n + 1, sizeof(*v));
    char *copy = strdup(arg);
    if (!v || !copy) {
        fprintf(stderr, "cedar-pm4: out of memory\n");
        exit(EXIT_BAD);
    }
    size_t k = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        v[k++] = t;
    if (k == 0) {
        free(copy);
        free(v);
        return NULL;
    }
    return v;
}

static void free_names(char **v)
{
    if (v) {
        free(v[0]);
        free(v);
    }
}

static int disasm_gfx(const struct opts *o, const uint32_t *dw, size_t ndw, const char *path)
{
    struct ctx x = { .out = { .o = o } };
    struct eg_pm4_sink sink = { &x, on_packet, on_reg, on_reloc };
    struct eg_pm4_error err;
    int rc = eg_pm4_walk(dw, ndw, &o->walk, &sink, &err);
    finish_packet(&x);
    if (o->regs)
        for (char **r = o->regs; *r; r++)
            if (!eg_reg_find_name(*r))
                fprintf(stderr, "cedar-pm4: warning: --regs %s: no such register in the database\n", *r);
    if (rc) {
        if (o->json)
            printf("{\"error\":{\"code\":\"%s\",\"offset\":%zu}}\n", eg_pm4_errcode_name(err.code),
                   err.offset);
        fprintf(stderr, "cedar-pm4: %s: malformed: %s\n", path, err.message);
        return EXIT_BAD;
    }
    if (x.out.unknown) {
        fprintf(stderr, "cedar-pm4: %s: %u unknown item(s)\n", path, x.out.unknown);
        return EXIT_UNKNOWN;
    }
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    struct opts o = { 0 };
    /* a SET_*_REG of no register is taken by the kernel and emitted by Mesa's
     * r600: list it, as the kernel would run it, rather than refuse the buffer */
    o.walk.empty_set_ok = true;
    enum { OPT_JSON = 256, OPT_REGS, OPT_SUMMARY, OPT_RING, OPT_SHADER, OPT_TILING };
    static const struct option longopts[] = {
        { "json", no_argument, NULL, OPT_JSON },
        { "regs", required_argument, NULL, OPT_REGS },
        { "summary", no_argument, NULL, OPT_SUMMARY },
        { "ring", required_argument, NULL, OPT_RING },
        { "shader", required_argument, NULL, OPT_SHADER },
        { "tiling-relocs", no_argument, NULL, OPT_TILING },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: o.json = true; break;
        case OPT_REGS:
            free_names(o.regs);
            o.regs = split_names(optarg);
            break;
        case OPT_SUMMARY: o.summary = true; break;
        case OPT_RING:
            if (strcmp(optarg, "gfx") && strcmp(optarg, "dma")) {
                fprintf(stderr, "cedar-pm4: --ring takes gfx or dma, not '%s'\n", optarg);
                free_names(o.regs);
                return EXIT_BAD;
            }
            o.dma_ring = strcmp(optarg, "dma") == 0;
            o.ring_given = true;
            break;
        case OPT_SHADER: o.shader = optarg; break;
        case OPT_TILING: o.walk.tiling_from_relocs = true; break;
        case 'h':
            usage(stdout);
            free_names(o.regs);
            return EXIT_OK;
        default:
            usage(stderr);
            free_names(o.regs);
            return EXIT_BAD;
        }
    }
    const char *path = o.shader;
    if (o.shader ? optind != argc : optind != argc - 1) {
        usage(stderr);
        free_names(o.regs);
        return EXIT_BAD;
    }
    if (!path)
        path = argv[optind];
    size_t ndw = 0;
    uint32_t *dw = read_dwords(path, &ndw);
    if (!dw) {
        free_names(o.regs);
        return EXIT_BAD;
    }
    int rc;
    if (o.shader) {
        /* EG_DISASM_OK / _UNKNOWN / _MALFORMED are 0 / 1 / 2, as our exit codes.
         * The listing marks where a program is broken; stderr says that it is. */
        rc = ndw ? eg_shader_disasm(dw, ndw, stdout, NULL) : EXIT_BAD;
        if (!ndw)
            fprintf(stderr, "cedar-pm4: %s: empty file\n", path);
        else if (rc == EG_DISASM_MALFORMED)
            fprintf(stderr, "cedar-pm4: %s: malformed shader (see the error line in the listing)\n", path);
    } else if (ndw == 0) {
        fprintf(stderr, "cedar-pm4: %s: empty file\n", path);
        rc = EXIT_BAD;
    } else if (o.dma_ring) {
        rc = disasm_dma(&o, dw, ndw, path);
    } else {
        rc = disasm_gfx(&o, dw, ndw, path);
    }
    free(dw);
    free_names(o.regs);
    return rc;
}
