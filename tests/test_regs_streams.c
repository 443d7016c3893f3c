/* The register database against real command streams and an independent
 * decode of them:
 *  - every packet and every register written in the real card's command buffer
 *    (tests/data/cedar/eg.cmds.0.bin) and in Mesa's reference streams
 *    (tests/data/mesa-r600-msaa8x/cs_00[1-4].bin) is in the database;
 *  - the relocation flags (reloc, reloc_tiling, reloc_tiling_always) predict
 *    exactly how many relocation NOPs Mesa put after each SET_* packet (Mesa
 *    emits them for the radeon kernel's rule; the streams were recorded
 *    against a simulated kernel and never submitted to a real one, so this
 *    checks the database against Mesa's emission, not the kernel's verdict);
 *  - register names and field values agree with the decode Mesa's
 *    evergreend.h gives (cs_00N.txt, produced by another tool);
 *  - the DMA packet bitsets decode the DMA-ring stream cs_005 as its decode says.
 * Run from the repository root. */
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

#define MESA_DIR "tests/data/mesa-r600-msaa8x/"

/* ---- every packet and register of a stream is known ---------------------- */

struct coverage {
    const char *file;
    bool keep_tiling;         /* the CS had RADEON_CS_KEEP_TILING_FLAGS */
    bool check_relocs;        /* the stream went through the radeon kernel */
    unsigned packets, regs, descriptors;
    unsigned pending;         /* relocations the last SET_* packet needs */
    unsigned nops_seen;       /* NOPs after it so far */
    size_t set_offset;
    bool in_set;              /* the last non-NOP packet was a SET_*_REG */
    unsigned relocs_checked;
};

static void close_set_packet(struct coverage *c)
{
    /* NOPs after other packets (CP_DMA, SURFACE_SYNC, draws) relocate their
     * operands: the PM4 walker's business, not the register flags'. */
    if (c->check_relocs && c->in_set && c->pending != c->nops_seen)
        fail_msg("%s: SET packet at dword 0x%zX writes %u relocated registers but %u NOPs follow",
                 c->file, c->set_offset, c->pending, c->nops_seen);
    c->relocs_checked += c->pending;
    c->pending = c->nops_seen = 0;
}

static int on_packet(void *ctx, const struct eg_pm4_packet *pkt)
{
    struct coverage *c = ctx;
    c->packets++;
    if (pkt->type == 0)
        fail_msg("%s: type-0 packet at dword 0x%zX", c->file, pkt->offset);
    if (pkt->type != 3)
        return 0;
    if (!pkt->def)
        fail_msg("%s: unknown opcode 0x%02X at dword 0x%zX", c->file, pkt->opcode, pkt->offset);
    if (pkt->opcode == PKT3_NOP) {
        c->nops_seen++;
        return 0;
    }
    close_set_packet(c);
    c->set_offset = pkt->offset;
    c->in_set = pkt->opcode == PKT3_SET_CONTEXT_REG || pkt->opcode == PKT3_SET_CONFIG_REG;
    return 0;
}

static int on_reg(void *ctx, const struct eg_pm4_packet *pkt, const struct eg_pm4_reg_write *w)
{
    struct coverage *c = ctx;
    if (pkt->opcode == PKT3_SET_RESOURCE || pkt->opcode == PKT3_SET_SAMPLER) {
        /* Descriptors, not registers: whole 8- / 3-dword records
         * (regs/resource.regs), which the walker has checked. */
        c->descriptors++;
        return 0;
    }
    const struct eg_reg *r = eg_pm4_reg_in_space(w->offset, w->space);
    if (!r)
        fail_msg("%s: register 0x%05X (dword 0x%zX, %s) not in the database", c->file, w->offset,
                 pkt->offset, pkt->def ? pkt->def->name : "?");
    c->regs++;
    if (r->flags & (EG_REGF_RELOC | EG_REGF_RELOC_TILING_ALWAYS))
        c->pending++;
    if ((r->flags & EG_REGF_RELOC_TILING) && !c->keep_tiling)
        c->pending++;
    return 0;
}

static void walk_stream(struct coverage *c, const char *path)
{
    size_t ndw;
    uint32_t *dw = test_read_dwords(path, &ndw);
    struct eg_pm4_sink sink = { .ctx = c, .packet = on_packet, .reg = on_reg };
    struct eg_pm4_opts opts = { .tiling_from_relocs = !c->keep_tiling };
    struct eg_pm4_error err;
    c->file = path;
    int rc = eg_pm4_walk(dw, ndw, &opts, &sink, &err);
    if (rc)
        fail_msg("%s: %s", path, err.message);
    close_set_packet(c);
    free(dw);
}

static void real_card_stream_covered(void **state)
{
    (void)state;
    struct coverage c = { 0 };
    walk_stream(&c, "tests/data/cedar/eg.cmds.0.bin");
    /* 613 dwords: a full state setup and a draw. */
    assert_true(c.packets > 50);
    assert_true(c.regs > 200);
}

static void mesa_streams_covered(void **state)
{
    (void)state;
    unsigned regs = 0, relocs = 0, descriptors = 0;
    for (int n = 1; n <= 4; n++) {
        char path[64], txt[64];
        snprintf(path, sizeof path, MESA_DIR "cs_%03d.bin", n);
        snprintf(txt, sizeof txt, MESA_DIR "cs_%03d.txt", n);
        char *decode = (char *)test_read_file(txt, NULL);
        struct coverage c = { .check_relocs = true };
        /* the CS flags the recording tool saw, on the decode's first line */
        char *eol = strchr(decode, '\n');
        assert_non_null(eol);
        *eol = '\0';
        c.keep_tiling = strstr(decode, "KEEP_TILING_FLAGS") != NULL;
        free(decode);
        walk_stream(&c, path);
        regs += c.regs;
        relocs += c.relocs_checked;
        descriptors += c.descriptors;
    }
    print_message("Mesa streams: %u register writes, %u relocated registers, %u descriptor words\n",
                  regs, relocs, descriptors);
    assert_true(regs > 1000);
    /* CB_COLOR0/1 BASE, ATTRIB, CMASK, FMASK, SQ_PGM_START_*, ... */
    assert_true(relocs >= 20);
    assert_true(descriptors >= 8);
}

/* ---- names and field values against Mesa's decode ------------------------ */

struct decode_stats {
    unsigned regs, fields, enums;
    unsigned cb_color0_info, pa_sc_aa_config, pa_sc_aa_mask, cb_color0_attrib, sample_locs;
};

/* Our name for a register the decode names `theirs`: the same, or (our CHOICE in
 * regs/sq.regs) the kernel's SQ_-prefixed name of Mesa's ALU_CONST_* arrays. */
static bool same_name(const char *ours, const char *theirs)
{
    if (strcmp(ours, theirs) == 0)
        return true;
    return strncmp(theirs, "ALU_CONST_", 10) == 0 && strncmp(ours, "SQ_", 3) == 0 &&
           strcmp(ours + 3, theirs) == 0;
}

/* One "NAME=VALUE[(ENUMNAME)]" token of a field line. */
static void check_field(struct decode_stats *st, const struct eg_reg *r, uint32_t value,
                        const char *tok)
{
    char name[64];
    const char *eq = strchr(tok, '=');
    if (!eq || (size_t)(eq - tok) >= sizeof name)
        return;
    memcpy(name, tok, (size_t)(eq - tok));
    name[eq - tok] = '\0';
    char *end;
    long long v = strtoll(eq + 1, &end, 10);
    if (end == eq + 1)
        return; /* "S0=(-1,1)", "bytes=..": not a plain number */
    const struct eg_field *f = eg_bitset_field(r->bitset, name);
    if (!f)
        return; /* fields the decode has and the database does not: not checked here */
    uint32_t got = eg_field_get(f, value);
    if ((long long)got != v)
        fail_msg("%s.%s: database decodes %u, Mesa's decode says %lld (value 0x%08X)", r->name,
                 name, got, v, value);
    st->fields++;
    if (f->enm && *end == '(') {
        const char *vn = eg_enum_value_name(f->enm, got);
        size_t len = strcspn(end + 1, ")");
        if (vn && !(strlen(vn) == len && strncmp(vn, end + 1, len) == 0) && strncmp(end + 1, "0x", 2) != 0)
            fail_msg("%s.%s = %u: database calls it %s, decode %.*s", r->name, name, got, vn,
                     (int)len, end + 1);
        if (vn)
            st->enums++;
    }
    if (strcmp(r->name, "CB_COLOR0_INFO") == 0)
        st->cb_color0_info++;
    else if (strcmp(r->name, "PA_SC_AA_CONFIG") == 0)
        st->pa_sc_aa_config++;
    else if (strcmp(r->name, "PA_SC_AA_MASK") == 0)
        st->pa_sc_aa_mask++;
    else if (strcmp(r->name, "CB_COLOR0_ATTRIB") == 0)
        st->cb_color0_attrib++;
}

/* "S0=(-1,1)": sample 0 at x -1, y 1 (1/16 pixel) */
static void check_sample_locs(struct decode_stats *st, const struct eg_reg *r, uint32_t value,
                              const char *tok)
{
    int s, x, y;
    if (sscanf(tok, "S%d=(%d,%d)", &s, &x, &y) != 3)
        return;
    char fx[8], fy[8];
    snprintf(fx, sizeof fx, "S%d_X", s);
    snprintf(fy, sizeof fy, "S%d_Y", s);
    const struct eg_field *f = eg_bitset_field(r->bitset, fx);
    const struct eg_field *g = eg_bitset_field(r->bitset, fy);
    assert_non_null(f);
    assert_non_null(g);
    assert_int_equal(eg_field_get_signed(f, value), x);
    assert_int_equal(eg_field_get_signed(g, value), y);
    st->sample_locs++;
}

static void decode_file(struct decode_stats *st, const char *path)
{
    char *text = (char *)test_read_file(path, NULL);
    const struct eg_reg *cur = NULL;
    uint32_t cur_value = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned off, value;
        char name[80];
        if (sscanf(line, " 0x%6X %79s = 0x%8X", &off, name, &value) == 3 && strncmp(line, "        0x", 10) == 0) {
            /* a register line: "        0x028C70 CB_COLOR0_INFO   = 0x012E0468" */
            cur = eg_reg_find_name(name);
            if (!cur) {
                /* named differently: find it by offset and compare names */
                const struct eg_space *sp = eg_space_of(off, -1);
                cur = sp ? eg_pm4_reg_in_space(off, sp) : NULL;
                if (!cur)
                    fail_msg("%s: %s (0x%06X) not in the database", path, name, off);
                if (!same_name(cur->name, name))
                    fail_msg("%s: 0x%06X is %s in the database, %s in the decode", path, off,
                             cur->name, name);
            }
            assert_int_equal(cur->offset, off);
            cur_value = value;
            st->regs++;
            continue;
        }
        if (cur && strncmp(line, "                    ", 20) == 0) {
            char *save = NULL;
            for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
                if (tok[0] == 'S' && strchr(tok, '(') && cur->bitset &&
                    strcmp(cur->bitset->name, "PA_SC_AA_SAMPLE_LOCS") == 0)
                    check_sample_locs(st, cur, cur_value, tok);
                else if (cur->bitset)
                    check_field(st, cur, cur_value, tok);
            }
            continue;
        }
        cur = NULL;
    }
    free(text);
}

static void field_values_match_mesa_decode(void **state)
{
    (void)state;
    struct decode_stats st = { 0 };
    for (int n = 1; n <= 4; n++) {
        char path[64];
        snprintf(path, sizeof path, MESA_DIR "cs_%03d.txt", n);
        decode_file(&st, path);
    }
    print_message("decode: %u registers, %u field values, %u enum names, %u sample positions agree\n",
                  st.regs, st.fields, st.enums, st.sample_locs);
    assert_true(st.regs > 1000);
    assert_true(st.fields > 1000);
    assert_true(st.enums > 50);
    /* the registers the MSAA demo hinges on were among them */
    assert_true(st.cb_color0_info >= 8);
    assert_true(st.cb_color0_attrib >= 8);
    assert_true(st.pa_sc_aa_config >= 3);
    assert_true(st.pa_sc_aa_mask >= 4);
    assert_true(st.sample_locs >= 32);
}

/* ---- the DMA ring stream ------------------------------------------------- */

static unsigned txt_value(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        fail_msg("cs_005.txt has no %s", key);
    return (unsigned)strtoul(p + strlen(key), NULL, 10);
}

static void dma_stream_decodes(void **state)
{
    (void)state;
    size_t ndw;
    uint32_t *dw = test_read_dwords(MESA_DIR "cs_005.bin", &ndw);
    char *text = (char *)test_read_file(MESA_DIR "cs_005.txt", NULL);
    const struct eg_enum *copy_len = eg_enum_find_name("DMA_COPY_PACKET_DWORDS");
    const struct eg_enum *sub = eg_enum_find_name("DMA_COPY_SUB_CMD");
    const struct eg_enum *other = eg_enum_find_name("DMA_OTHER_PACKET_DWORDS");
    assert_non_null(copy_len);
    assert_non_null(sub);
    assert_non_null(other);

    /* the copy header: "308E1000  DMA COPY (tiled<->linear, sub_cmd=0x8) size=921600 dwords" */
    assert_int_equal(G_DMA_HEADER__CMD(dw[0]), V_DMA_CMD__DMA_COPY);
    assert_int_equal(G_DMA_HEADER__SUB_CMD(dw[0]), V_DMA_COPY_SUB_CMD__L2T_T2L);
    assert_int_equal(G_DMA_HEADER__COUNT(dw[0]), txt_value(text, ") size="));
    assert_int_equal(G_DMA_TILED_INFO__DETILE(dw[2]), txt_value(text, "DETILE="));
    assert_int_equal(G_DMA_TILED_INFO__ARRAY_MODE(dw[2]), txt_value(text, "ARRAY_MODE="));
    assert_int_equal(G_DMA_TILED_INFO__LBPP(dw[2]), txt_value(text, "LBPP="));
    assert_int_equal(G_DMA_TILED_INFO__BANK_H(dw[2]), txt_value(text, "BANK_H="));
    assert_int_equal(G_DMA_TILED_INFO__BANK_W(dw[2]), txt_value(text, "BANK_W="));
    assert_int_equal(G_DMA_TILED_INFO__MT_ASPECT(dw[2]), txt_value(text, "MT_ASPECT="));
    assert_int_equal(G_DMA_TILED_PITCH__PITCH_TILE_MAX(dw[3]), txt_value(text, "PITCH_TILE_MAX="));
    assert_int_equal(G_DMA_TILED_PITCH__HEIGHT_MAX(dw[3]), txt_value(text, "HEIGHT-1="));
    assert_int_equal(G_DMA_TILED_SLICE__SLICE_TILE_MAX(dw[4]), txt_value(text, "SLICE_TILE_MAX="));
    assert_int_equal(G_DMA_TILED_Y__TILE_SPLIT(dw[6]), txt_value(text, "TILE_SPLIT="));
    assert_int_equal(G_DMA_TILED_Y__NUM_BANKS(dw[6]), txt_value(text, "NUM_BANKS="));
    assert_int_equal(G_DMA_TILED_Y__NON_DISP_TILING(dw[6]), txt_value(text, "NON_DISP_TILING="));

    /* walking the ring by the database's packet lengths ends exactly at the end */
    size_t i = 0;
    unsigned packets = 0, nops = 0;
    while (i < ndw) {
        uint32_t h = dw[i];
        uint32_t len = 0;
        switch (G_DMA_HEADER__CMD(h)) {
        case V_DMA_CMD__DMA_COPY: {
            const char *name = eg_enum_value_name(sub, G_DMA_HEADER__SUB_CMD(h));
            assert_non_null(name);
            assert_true(eg_enum_value_find(copy_len, name, &len));
            break;
        }
        case V_DMA_CMD__DMA_NOP:
            assert_true(eg_enum_value_find(other, "DMA_NOP", &len));
            nops++;
            break;
        default:
            fail_msg("unexpected DMA command 0x%X at %zu", G_DMA_HEADER__CMD(h), i);
        }
        i += len;
        packets++;
    }
    assert_int_equal(i, ndw);
    assert_int_equal(packets, 8); /* one copy, seven NOPs of padding, as decoded */
    assert_int_equal(nops, 7);
    free(text);
    free(dw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_card_stream_covered),
        cmocka_unit_test(mesa_streams_covered),
        cmocka_unit_test(field_values_match_mesa_decode),
        cmocka_unit_test(dma_stream_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
