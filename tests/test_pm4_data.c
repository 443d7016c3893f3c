/* The PM4 walker and the register database on real command buffers: the
 * real-card buffer (tests/data/cedar/eg.cmds.0.bin) and Mesa's reference
 * streams (tests/data/mesa-r600-msaa8x/cs_00[1-4].bin).  Checks that every
 * packet and register is known, and cross-checks the walker's relocation
 * ties against the independent decode Mesa's capture tool wrote next to
 * each stream (cs_NNN.txt, "[for NAME]" after each relocation NOP). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/pm4.h"
#include "cedar/regdb.h"
#include "eg_regs.h"
#include "tests/common/test_util.h"

#define MESA "tests/data/mesa-r600-msaa8x/"

/* --- everything known ---------------------------------------------------- */
struct census {
    unsigned packets, regs, unknown_packets, unknown_regs, relocs, untied;
    char first_unknown[128];
};

static void note(struct census *c, const char *fmt, size_t off, uint32_t what)
{
    if (!c->first_unknown[0])
        snprintf(c->first_unknown, sizeof(c->first_unknown), fmt, off, what);
}

static int census_packet(void *ctx, const struct eg_pm4_packet *p)
{
    struct census *c = ctx;
    c->packets++;
    if (p->type == 3 && !p->def) {
        c->unknown_packets++;
        note(c, "packet @%zu opcode 0x%X", p->offset, p->opcode);
    }
    return 0;
}

/* Resource and sampler words are descriptors, described by bitsets. */
static int census_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    struct census *c = ctx;
    c->regs++;
    bool descriptor = p->opcode == PKT3_SET_RESOURCE || p->opcode == PKT3_SET_SAMPLER;
    if (!w->reg && !descriptor) {
        c->unknown_regs++;
        note(c, "register in packet @%zu offset 0x%X", p->offset, w->offset);
    }
    return 0;
}

static int census_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    struct census *c = ctx;
    c->relocs++;
    if (!r->tied) {
        c->untied++;
        note(c, "NOP @%zu reloc %u not tied", nop->offset, r->index);
    }
    return 0;
}

static struct census walk_file(const char *path)
{
    size_t n;
    uint32_t *dw = test_read_dwords(path, &n);
    struct census c = { 0 };
    struct eg_pm4_sink s = { &c, census_packet, census_reg, census_reloc };
    struct eg_pm4_error e;
    int rc = eg_pm4_walk(dw, n, NULL, &s, &e);
    free(dw);
    if (rc)
        fail_msg("%s: %s", path, e.message);
    if (c.unknown_packets || c.unknown_regs || c.untied)
        fail_msg("%s: %u unknown packets, %u unknown registers, %u untied relocations; first: %s",
                 path, c.unknown_packets, c.unknown_regs, c.untied, c.first_unknown);
    return c;
}

static void real_card_buffer_all_known(void **state)
{
    (void)state;
    struct census c = walk_file("tests/data/cedar/eg.cmds.0.bin");
    /* 613 dwords; bare-metal addresses are absolute: no relocation NOPs */
    assert_true(c.packets > 100);
    assert_int_equal(c.relocs, 0);
}

static void mesa_streams_all_known(void **state)
{
    (void)state;
    /* NOP counts from Mesa's decode (cs_NNN.txt: grep -c 'PKT3 NOP') */
    static const struct { const char *path; unsigned nops; } s[] = {
        { MESA "cs_001.bin", 1 }, { MESA "cs_002.bin", 1 },
        { MESA "cs_003.bin", 10 }, { MESA "cs_004.bin", 14 },
    };
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
        struct census c = walk_file(s[i].path);
        assert_int_equal(c.relocs, s[i].nops);
    }
}

/* --- relocation ties against Mesa's decode ------------------------------- */
struct tie {
    size_t nop;
    uint32_t index;
    char what[64];
};

struct ties {
    struct tie t[64];
    unsigned n;
};

static int tie_reloc(void *ctx, const struct eg_pm4_packet *nop, const struct eg_pm4_reloc *r)
{
    struct ties *t = ctx;
    assert_true(t->n < 64);
    struct tie *x = &t->t[t->n++];
    x->nop = nop->offset;
    x->index = r->index;
    if (!r->tied)
        snprintf(x->what, sizeof(x->what), "(untied)");
    else if (r->target->opcode == PKT3_SET_RESOURCE)
        /* Mesa: "SET_RESOURCE slot N base" */
        snprintf(x->what, sizeof(x->what), "SET_RESOURCE slot %u base",
                 (r->slot.reg_offset - SPACE_RESOURCE_START) / 32);
    else if (r->slot.reg)
        snprintf(x->what, sizeof(x->what), "%s", r->slot.reg->name);
    else if (r->target->opcode == PKT3_CP_DMA && r->slot.payload_index == 2)
        snprintf(x->what, sizeof(x->what), "CP_DMA dst");
    else
        snprintf(x->what, sizeof(x->what), "%s +%u", r->target->def->name, r->slot.payload_index);
    return 0;
}

/* Mesa's register names drop the SQ_ prefix of ALU_CONST_CACHE_*. */
static bool same_name(const char *ours, const char *mesa)
{
    if (strcmp(ours, mesa) == 0)
        return true;
    return strncmp(ours, "SQ_", 3) == 0 && strcmp(ours + 3, mesa) == 0;
}

static void check_ties(const char *bin, const char *txt)
{
    size_t n;
    uint32_t *dw = test_read_dwords(bin, &n);
    struct ties t = { .n = 0 };
    struct eg_pm4_sink s = { &t, NULL, NULL, tie_reloc };
    assert_int_equal(eg_pm4_walk(dw, n, NULL, &s, NULL), 0);
    free(dw);

    FILE *f = fopen(txt, "r");
    assert_non_null(f);
    char line[512];
    unsigned seen = 0;
    size_t nop_off = 0;
    while (fgets(line, sizeof(line), f)) {
        unsigned off, hdr;
        if (sscanf(line, "[%x] %x  PKT3 NOP", &off, &hdr) == 2 && strstr(line, "PKT3 NOP")) {
            nop_off = off;
            continue;
        }
        char *rl = strstr(line, "reloc[");
        char *fr = strstr(line, "[for ");
        if (!rl || !fr || line[0] == '#')
            continue;
        unsigned idx;
        assert_int_equal(sscanf(rl, "reloc[%u]", &idx), 1);
        char what[64];
        char *e = strchr(fr, ']');
        assert_non_null(e);
        snprintf(what, sizeof(what), "%.*s", (int)(e - fr - 5), fr + 5);
        assert_true(seen < t.n);
        struct tie *x = &t.t[seen++];
        if (x->nop != nop_off || x->index != idx || !same_name(x->what, what))
            fail_msg("%s: NOP @0x%zX reloc %u tied to '%s'; Mesa: NOP @0x%zX reloc %u for '%s'",
                     bin, x->nop, x->index, x->what, nop_off, idx, what);
    }
    fclose(f);
    assert_int_equal(seen, t.n);
    assert_true(seen > 0);
}

static void reloc_ties_match_mesa(void **state)
{
    (void)state;
    check_ties(MESA "cs_001.bin", MESA "cs_001.txt");
    check_ties(MESA "cs_002.bin", MESA "cs_002.txt");
    check_ties(MESA "cs_003.bin", MESA "cs_003.txt");
    check_ties(MESA "cs_004.bin", MESA "cs_004.txt");
}

/* --- specific decodes ---------------------------------------------------- */
struct find {
    const char *name;
    uint32_t value;
    unsigned hits;
};

static int find_reg(void *ctx, const struct eg_pm4_packet *p, const struct eg_pm4_reg_write *w)
{
    (void)p;
    struct find *fd = ctx;
    if (w->reg && strcmp(w->reg->name, fd->name) == 0) {
        fd->value = w->value;
        fd->hits++;
    }
    return 0;
}

static uint32_t last_value(const char *path, const char *reg, unsigned *hits)
{
    size_t n;
    uint32_t *dw = test_read_dwords(path, &n);
    struct find fd = { .name = reg };
    struct eg_pm4_sink s = { &fd, NULL, find_reg, NULL };
    assert_int_equal(eg_pm4_walk(dw, n, NULL, &s, NULL), 0);
    free(dw);
    *hits = fd.hits;
    return fd.value;
}

static const char *field_enum_name(const char *reg, const char *field, uint32_t v)
{
    const struct eg_reg *r = eg_reg_find_name(reg);
    assert_non_null(r);
    assert_non_null(r->bitset);
    const struct eg_field *f = eg_bitset_field(r->bitset, field);
    if (!f)
        fail_msg("%s has no field %s", reg, field);
    assert_non_null(f->enm);
    return eg_enum_value_name(f->enm, eg_field_get(f, v));
}

static uint32_t field(const char *reg, const char *name, uint32_t v)
{
    const struct eg_reg *r = eg_reg_find_name(reg);
    assert_non_null(r);
    const struct eg_field *f = eg_bitset_field(r->bitset, name);
    if (!f)
        fail_msg("%s has no field %s", reg, name);
    return eg_field_get(f, v);
}

static void cs_003_colour_buffer(void **state)
{
    (void)state;
    unsigned hits;
    uint32_t info = last_value(MESA "cs_003.bin", "CB_COLOR0_INFO", &hits);
    assert_int_equal(hits, 1);
    /* The raw value and its reading, from Mesa's decode (cs_003.txt):
     * 0x012E0468: FORMAT 0x1A (COLOR_8_8_8_8), ARRAY_MODE 4 (2D tiled thin),
     * FAST_CLEAR (bit 17) and COMPRESSION (bit 18) set. */
    assert_int_equal(info, 0x012E0468u);
    assert_string_equal(field_enum_name("CB_COLOR0_INFO", "FORMAT", info), "COLOR_8_8_8_8");
    assert_string_equal(field_enum_name("CB_COLOR0_INFO", "ARRAY_MODE", info), "ARRAY_2D_TILED_THIN1");
    assert_int_equal(field("CB_COLOR0_INFO", "FAST_CLEAR", info), 1);
    assert_int_equal(field("CB_COLOR0_INFO", "COMPRESSION", info), 1);

    uint32_t aa = last_value(MESA "cs_003.bin", "PA_SC_AA_CONFIG", &hits);
    assert_int_equal(hits, 1);
    /* MSAA_NUM_SAMPLES is log2 of the sample count: 8 samples */
    assert_int_equal(1u << field("PA_SC_AA_CONFIG", "MSAA_NUM_SAMPLES", aa), 8);
}

static void cs_004_resolve(void **state)
{
    (void)state;
    unsigned hits;
    /* the resolve: CB_COLOR_CONTROL mode CB_RESOLVE (stream README) */
    uint32_t ctl = last_value(MESA "cs_004.bin", "CB_COLOR_CONTROL", &hits);
    assert_true(hits >= 1);
    const char *mode = field_enum_name("CB_COLOR_CONTROL", "MODE", ctl);
    assert_non_null(mode);
    assert_non_null(strstr(mode, "RESOLVE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_card_buffer_all_known),
        cmocka_unit_test(mesa_streams_all_known),
        cmocka_unit_test(reloc_ties_match_mesa),
        cmocka_unit_test(cs_003_colour_buffer),
        cmocka_unit_test(cs_004_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
