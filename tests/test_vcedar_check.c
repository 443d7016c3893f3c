/* The command-stream checker: Mesa's reference streams (what Mesa 22.3
 * submitted to the radeon kernel for the 8x MSAA scene) pass in both modes
 * with buffers of their recorded sizes, and a catalogue of malformed
 * streams is rejected with the expected error code.  Malformed streams are
 * Mesa's own with one thing broken (found by walking the bytes here, not
 * with the checker's code) or small streams built with the project's
 * encoder. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <radeon_drm.h>

#include "cedar/cmdbuf.h"
#include "cedar/vcedar.h"
#include "eg_regs.h"

#define DATA "tests/data/mesa-r600-msaa8x/"
#define MAXR 16

struct stream {
    uint32_t *ib;
    size_t ndw;
    struct vc_reloc_bo bos[MAXR];
    uint32_t relocs[MAXR * 4];
    size_t nrelocs;
    uint32_t flags;
};

/* cs_NNN.bin and the sizes / domains of cs_NNN.relocs.txt */
static void load(struct stream *s, int n)
{
    char path[128];
    memset(s, 0, sizeof(*s));
    snprintf(path, sizeof(path), DATA "cs_%03d.bin", n);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    s->ib = malloc((size_t)len + 64);
    assert_int_equal(fread(s->ib, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    s->ndw = (size_t)len / 4;
    snprintf(path, sizeof(path), DATA "cs_%03d.relocs.txt", n);
    f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    uint64_t gpu = 1u << 20;
    while (fgets(line, sizeof(line), f)) {
        if (strstr(line, "KEEP_TILING_FLAGS"))
            s->flags |= RADEON_CS_KEEP_TILING_FLAGS;
        const char *sz = strstr(line, " size="), *init = strstr(line, "init=");
        if (!sz || !init || line[0] == '#')
            continue;
        assert_true(s->nrelocs < MAXR);
        struct vc_reloc_bo *b = &s->bos[s->nrelocs];
        b->size = strtoull(sz + 6, NULL, 10);
        b->domain = !strncmp(init + 5, "GTT", 3) ? RADEON_GEM_DOMAIN_GTT : RADEON_GEM_DOMAIN_VRAM;
        b->gpu_offset = gpu;   /* distinct, 1 MiB apart, as a kernel could place them */
        gpu += (b->size + (1u << 20)) & ~((1ull << 20) - 1);
        s->relocs[s->nrelocs * 4] = (uint32_t)s->nrelocs + 1;
        s->relocs[s->nrelocs * 4 + 1] = b->domain;
        s->nrelocs++;
    }
    fclose(f);
    assert_true(s->nrelocs > 0);
}

static int check(struct stream *s, enum vc_check_mode mode, bool dma, struct vc_error *e)
{
    struct vc_check_cfg cfg = { .mode = mode, .tiling_config = VCEDAR_TILING_CONFIG, .cs_flags = s->flags };
    uint32_t *copy = malloc(s->ndw * 4 + 4);
    memcpy(copy, s->ib, s->ndw * 4);
    int r = dma ? vc_check_dma(&cfg, copy, s->ndw, s->nrelocs, s->bos, e)
                : vc_check_gfx(&cfg, copy, s->ndw, s->relocs, s->nrelocs * 4, s->bos, e);
    free(copy);
    return r;
}

/* The value dword of register reg in the first SET_CONTEXT_REG / SET_CONFIG_REG writing it. */
static size_t find_reg(const struct stream *s, uint32_t reg)
{
    for (size_t i = 0; i < s->ndw;) {
        uint32_t h = s->ib[i];
        unsigned type = h >> 30, count = (h >> 16) & 0x3FFF, op = (h >> 8) & 0xFF;
        if (type == 2) {
            i++;
            continue;
        }
        uint32_t base = op == 0x69 ? 0x28000 : op == 0x68 ? 0x8000 : 0;
        if (type == 3 && base) {
            uint32_t first = base + s->ib[i + 1] * 4;
            if (reg >= first && reg < first + count * 4)
                return i + 2 + (reg - first) / 4;
        }
        i += count + 2;
    }
    fail_msg("register 0x%X not written", reg);
    return 0;
}

static size_t find_packet(const struct stream *s, unsigned opcode)
{
    for (size_t i = 0; i < s->ndw;) {
        uint32_t h = s->ib[i];
        if (h >> 30 == 2) {
            i++;
            continue;
        }
        if (h >> 30 == 3 && ((h >> 8) & 0xFF) == opcode)
            return i;
        i += ((h >> 16) & 0x3FFF) + 2;
    }
    fail_msg("packet 0x%X not found", opcode);
    return 0;
}

static void mesa_streams_pass(void **state)
{
    (void)state;
    for (int n = 1; n <= 5; n++) {
        for (int m = 0; m < 2; m++) {
            struct stream s;
            struct vc_error e;
            load(&s, n);
            int r = check(&s, m ? VC_CHECK_KERNEL : VC_CHECK_STRICT, n == 5, &e);
            if (r)
                fail_msg("cs_%03d (%s): %s at 0x%X", n, m ? "kernel" : "strict", e.text, e.dword);
            free(s.ib);
        }
    }
}

/* ---- malformed: Mesa's draw stream with one thing broken ------------------- */

struct mutation {
    const char *name;
    uint32_t reg;          /* register whose value changes (0: none) */
    uint32_t value;
    int bo0_size;          /* >0: size of relocation 0's buffer */
    enum vc_err_code strict, kernel;   /* expected codes (VC_OK: accepted) */
};

static const struct mutation mutations[] = {
    { "colour buffer larger than its buffer", 0, 0, 3000000, VC_E_ADDR_RANGE, VC_E_SURF_SIZE },
    /* 1280x896 8x: 36.7 MB of samples; the kernel checks one sample (4.6 MB) */
    { "8x colour surface larger than its buffer (strict)", 0x28C68, 1280 * 896 / 64 - 1, 0, VC_E_SURF_SIZE, VC_OK },
    { "2D pitch not aligned to the macro tile", 0x28C64, 1288 / 8 - 1, 0, VC_E_SURF_PITCH, VC_E_SURF_PITCH },
    { "2D height not aligned to the macro tile", 0x28C68, 1280 * 740 / 64 - 1, 0, VC_E_SURF_HEIGHT, VC_E_SURF_HEIGHT },
    { "tile split 7 does not exist", 0x28C74, 0x00080860 | (7u << 5), 0, VC_E_SURF_TILING, VC_E_SURF_TILING },
    { "invalid colour format", 0x28C70, (0x012E0468 & ~0xFCu) | (0x3Fu << 2), 0, VC_E_CB_FORMAT, VC_E_CB_FORMAT },
    { "array mode 3 is not an Evergreen mode", 0x28C70, (0x012E0468 & ~0xF00u) | (3u << 8), 0,
      VC_E_SURF_ARRAY_MODE, VC_E_SURF_ARRAY_MODE },
    { "colour base not aligned to its macro tile", 0x28C60, 1, 0, VC_E_SURF_BASE_ALIGN, VC_E_SURF_BASE_ALIGN },
    { "CMask slice too small for the surface", 0x28C80, 10, 0, VC_E_CMASK_SIZE, VC_OK },
    { "FMask slice too small for the surface", 0x28C88, 100, 0, VC_E_FMASK_SIZE, VC_OK },
    { "CMask past the end of its buffer", 0, 0, 33920000, VC_E_CMASK_SIZE, VC_OK },
    { "CMask address outside its buffer", 0x28C7C, 0x30000, 0, VC_E_ADDR_RANGE, VC_OK },
};

static void mesa_mutations(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof(mutations) / sizeof(mutations[0]); k++) {
        const struct mutation *m = &mutations[k];
        for (int mode = 0; mode < 2; mode++) {
            struct stream s;
            struct vc_error e;
            load(&s, 3);
            if (m->reg)
                s.ib[find_reg(&s, m->reg)] = m->value;
            if (m->bo0_size)
                s.bos[0].size = (uint64_t)m->bo0_size;
            enum vc_err_code want = mode ? m->kernel : m->strict;
            int r = check(&s, mode ? VC_CHECK_KERNEL : VC_CHECK_STRICT, false, &e);
            if ((r == 0) != (want == VC_OK) || (r && e.code != want))
                fail_msg("%s (%s): expected %s, got %s (%s)", m->name, mode ? "kernel" : "strict",
                         vc_err_code_name(want), r ? vc_err_code_name(e.code) : "accepted", r ? e.text : "");
            free(s.ib);
        }
    }
}

/* Relocation damage in Mesa's stream. */
static void mesa_relocations(void **state)
{
    (void)state;
    struct stream s;
    struct vc_error e;
    /* the NOP after CB_COLOR0_BASE's packet replaced by type-2 fillers */
    load(&s, 3);
    size_t base = find_reg(&s, 0x28C60), hdr = base - 2;
    size_t nop = hdr + 2 + ((s.ib[hdr] >> 16) & 0x3FFF);
    assert_int_equal(s.ib[nop], 0xC0001000u);
    s.ib[nop] = s.ib[nop + 1] = 0x80000000u;
    assert_int_not_equal(check(&s, VC_CHECK_KERNEL, false, &e), 0);
    assert_int_equal(e.code, VC_E_RELOC_MISSING);
    assert_int_equal(e.dword, base);
    assert_non_null(strstr(e.text, "CB_COLOR0_BASE without a relocation"));
    free(s.ib);
    /* a relocation index past the chunk (7 relocations: index 7) */
    load(&s, 3);
    s.ib[nop + 1] = (uint32_t)s.nrelocs * 4;
    assert_int_not_equal(check(&s, VC_CHECK_KERNEL, false, &e), 0);
    assert_int_equal(e.code, VC_E_RELOC_RANGE);
    /* the kernel divides the NOP value by 4: 0 x 4 + 3 still means relocation 0 */
    s.ib[nop + 1] = 3;
    assert_int_equal(check(&s, VC_CHECK_KERNEL, false, &e), 0);
    free(s.ib);
    /* no RELOCS chunk at all */
    load(&s, 3);
    struct vc_check_cfg cfg = { .mode = VC_CHECK_KERNEL, .tiling_config = VCEDAR_TILING_CONFIG, .cs_flags = s.flags };
    assert_int_not_equal(vc_check_gfx(&cfg, s.ib, s.ndw, NULL, 0, s.bos, &e), 0);
    assert_int_equal(e.code, VC_E_RELOC_NO_CHUNK);
    free(s.ib);
    /* truncated: the IB cut in the middle of the draw packet */
    load(&s, 3);
    s.ndw = find_packet(&s, 0x2D) + 2;
    assert_int_not_equal(check(&s, VC_CHECK_KERNEL, false, &e), 0);
    assert_int_equal(e.code, VC_E_PKT_TRUNCATED);
    free(s.ib);
    /* the resolve stream's DMA readback: the linear buffer one row short */
    load(&s, 5);
    s.bos[1].size -= 5120;
    assert_int_not_equal(check(&s, VC_CHECK_KERNEL, true, &e), 0);
    assert_int_equal(e.code, VC_E_BO_RANGE);
    free(s.ib);
}

/* ---- malformed: small streams built with the encoder ------------------------ */

struct built {
    struct cedar_cmdbuf cb;
    struct vc_reloc_bo bos[4];
    uint32_t handles[4];
};

static void built_init(struct built *b)
{
    cedar_cmdbuf_init(&b->cb, 0);
    for (unsigned i = 0; i < 4; i++) {
        b->handles[i] = i + 1;
        b->bos[i] = (struct vc_reloc_bo){ .size = 1u << 20, .gpu_offset = (uint64_t)(i + 1) << 24,
                                          .domain = RADEON_GEM_DOMAIN_VRAM };
    }
}

static void reloc(struct built *b, unsigned i)
{
    cedar_cmdbuf_reloc(&b->cb, b->handles[i], RADEON_GEM_DOMAIN_VRAM, 0, 0);
}

static enum vc_err_code run_built(struct built *b, enum vc_check_mode mode)
{
    /* relocation i of the chunk is buffer handles[]-1 */
    struct vc_reloc_bo bos[16];
    for (unsigned i = 0; i < b->cb.nrelocs; i++)
        bos[i] = b->bos[b->cb.relocs[i].handle - 1];
    struct vc_check_cfg cfg = { .mode = mode, .tiling_config = VCEDAR_TILING_CONFIG,
                                .cs_flags = RADEON_CS_KEEP_TILING_FLAGS };
    struct vc_error e;
    assert_int_equal(b->cb.error, 0);
    /* libdrm always sends a RELOCS chunk, empty or not */
    static const uint32_t empty[4];
    const uint32_t *chunk = b->cb.nrelocs ? (const uint32_t *)b->cb.relocs : empty;
    int r = vc_check_gfx(&cfg, b->cb.dw, b->cb.ndw, chunk, b->cb.nrelocs * 4, bos, &e);
    enum vc_err_code code = r ? e.code : VC_OK;
    cedar_cmdbuf_fini(&b->cb);
    return code;
}

/* One named case: build, expect a code in strict and in kernel mode. */
#define CASE(name, strict_code, kernel_code, ...)                                                    \
    do {                                                                                               \
        for (int mode_ = 0; mode_ < 2; mode_++) {                                                      \
            struct built b;                                                                            \
            built_init(&b);                                                                            \
            __VA_ARGS__;                                                                               \
            enum vc_err_code want_ = mode_ ? (kernel_code) : (strict_code);                            \
            enum vc_err_code got_ = run_built(&b, mode_ ? VC_CHECK_KERNEL : VC_CHECK_STRICT);          \
            if (got_ != want_)                                                                         \
                fail_msg("%s (%s): expected %s, got %s", name, mode_ ? "kernel" : "strict",             \
                         vc_err_code_name(want_), vc_err_code_name(got_));                              \
            ncases++;                                                                                  \
        }                                                                                              \
    } while (0)

static void emit(struct built *b, unsigned op, const uint32_t *p, unsigned n)
{
    cedar_cmdbuf_packet(&b->cb, op, p, n);
}

/* SET_APPEND_CNT writing context dword `reg`, from source `src`, with n
 * payload dwords (address 0x100), and a relocation when `with_reloc`. */
static void append_cnt(struct built *b, uint32_t reg, uint32_t src, unsigned n, bool with_reloc)
{
    uint32_t p[3] = { reg << 16 | src, 0x100, 0 };
    emit(b, PKT3_SET_APPEND_CNT, p, n);
    if (with_reloc)
        reloc(b, 1);
}

static void built_streams(void **state)
{
    (void)state;
    unsigned ncases = 0;
    const uint32_t eop[5] = { 0x514, 0, 1u << 29, 1, 0 };
    const uint32_t one = 0;

    CASE("a valid fence", VC_OK, VC_OK, { emit(&b, PKT3_EVENT_WRITE_EOP, eop, 5); reloc(&b, 0); });
    CASE("DB_EQAA is Cayman only", VC_E_REG_FORBIDDEN, VC_E_REG_FORBIDDEN,
         { cedar_cmdbuf_set_context_reg(&b.cb, 0x28804, 0); });
    CASE("CAYMAN_PA_SC_AA_CONFIG on Evergreen", VC_E_REG_FORBIDDEN, VC_E_REG_FORBIDDEN,
         { cedar_cmdbuf_set_context_reg(&b.cb, 0x28BE0, 0); });
    CASE("GRBM_STATUS is not writable", VC_E_REG_FORBIDDEN, VC_E_REG_FORBIDDEN,
         { cedar_cmdbuf_set_config_reg(&b.cb, 0x8010, 0); });
    CASE("a safe register passes", VC_OK, VC_OK, { cedar_cmdbuf_set_context_reg(&b.cb, 0x28350, 0); });
    CASE("SET_CONTEXT_REG past the context space", VC_E_REG_RANGE, VC_E_REG_RANGE, {
        uint32_t p[3] = { (0x28FFC - 0x28000) / 4, 0, 0 };
        emit(&b, PKT3_SET_CONTEXT_REG, p, 3);
    });
    /* evergreen_packet3_check: start and end register checked, a loop over
     * count (0) registers: the kernel takes it (Mesa r600 emits such). */
    CASE("SET_CONTEXT_REG count 0 writes nothing", VC_E_PKT_COUNT, VC_OK, {
        uint32_t p[1] = { (0x28350 - 0x28000) / 4 };
        emit(&b, PKT3_SET_CONTEXT_REG, p, 1);
    });
    CASE("SET_CONTEXT_REG count 0 outside the context space", VC_E_PKT_COUNT, VC_E_REG_RANGE, {
        uint32_t p[1] = { 0x4000 };
        emit(&b, PKT3_SET_CONTEXT_REG, p, 1);
    });
    CASE("SET_CONFIG_REG index outside the config space", VC_E_REG_RANGE, VC_E_REG_RANGE, {
        uint32_t p[2] = { 0x4000, 0 };
        emit(&b, PKT3_SET_CONFIG_REG, p, 2);
    });
    CASE("DRAW_INDEX_AUTO with count 2", VC_E_PKT_COUNT, VC_E_PKT_COUNT, {
        uint32_t p[3] = { 3, 2, 0 };
        emit(&b, PKT3_DRAW_INDEX_AUTO, p, 3);
    });
    CASE("CONTEXT_CONTROL with count 0", VC_E_PKT_COUNT, VC_E_PKT_COUNT, { emit(&b, PKT3_CONTEXT_CONTROL, &one, 1); });
    CASE("EVENT_WRITE with count 1", VC_E_PKT_COUNT, VC_E_PKT_COUNT, {
        uint32_t p[2] = { 0x16, 0 };
        emit(&b, PKT3_EVENT_WRITE, p, 2);
    });
    CASE("ME_INITIALIZE from user space", VC_E_PKT_UNSUPPORTED, VC_E_PKT_UNSUPPORTED, {
        uint32_t p[6] = { 0 };
        emit(&b, PKT3_ME_INITIALIZE, p, 6);
    });
    /* SET_APPEND_CNT as the kernel's evergreen_cs.c checks it: count 2,
     * WR_REG_OFFSET (bits 16..31) one of GDS_APPEND_COUNT_0..11 (0x2872C..
     * 0x28758: context dword offsets 0x1CB..0x1D6), source 3 (memory) only,
     * with a relocation. */
    CASE("SET_APPEND_CNT into GDS_APPEND_COUNT_11 from memory", VC_OK, VC_OK, append_cnt(&b, 0x1D6, 3, 3, true));
    CASE("SET_APPEND_CNT into the register after the counters", VC_E_REG_FORBIDDEN, VC_E_REG_FORBIDDEN,
         append_cnt(&b, 0x1D7, 3, 3, true));
    CASE("SET_APPEND_CNT from its own data", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, append_cnt(&b, 0x1CB, 0, 3, false));
    CASE("SET_APPEND_CNT with count 1", VC_E_PKT_COUNT, VC_E_PKT_COUNT, append_cnt(&b, 0x1CB, 3, 2, true));
    CASE("SET_APPEND_CNT from memory without its relocation", VC_E_RELOC_MISSING, VC_E_RELOC_MISSING,
         append_cnt(&b, 0x1CB, 3, 3, false));
    CASE("a type-0 register write", VC_E_PKT_TYPE, VC_E_PKT_TYPE, {
        cedar_cmdbuf_emit(&b.cb, (0u << 30) | (0x28C60u >> 2));
        cedar_cmdbuf_emit(&b.cb, 0);
    });
    CASE("a type-1 header", VC_E_PKT_TYPE, VC_E_PKT_TYPE, { cedar_cmdbuf_emit(&b.cb, 1u << 30); });
    CASE("a packet past the end of the IB", VC_E_PKT_TRUNCATED, VC_E_PKT_TRUNCATED, {
        cedar_cmdbuf_emit(&b.cb, cedar_pm4_type3_header(PKT3_EVENT_WRITE_EOP, 5, false));
        cedar_cmdbuf_emit(&b.cb, 0x514);
    });
    CASE("EVENT_WRITE_EOP without its relocation", VC_E_RELOC_MISSING, VC_E_RELOC_MISSING,
         { emit(&b, PKT3_EVENT_WRITE_EOP, eop, 5); });
    CASE("a relocation followed by a non-NOP", VC_E_RELOC_MISSING, VC_E_RELOC_MISSING, {
        emit(&b, PKT3_EVENT_WRITE_EOP, eop, 5);
        emit(&b, PKT3_EVENT_WRITE_EOP, eop, 5);
        reloc(&b, 0);
    });
    CASE("CP_DMA destination past its buffer", VC_E_BO_RANGE, VC_E_BO_RANGE, {
        uint32_t p[5] = { 0, 2u << 29, (1u << 20) - 8, 0, 16 };
        emit(&b, PKT3_CP_DMA, p, 5);
        reloc(&b, 0);
    });
    CASE("CP_DMA source past its buffer", VC_E_BO_RANGE, VC_E_BO_RANGE, {
        uint32_t p[5] = { (1u << 20) - 4, 0, 0, 0, 16 };
        emit(&b, PKT3_CP_DMA, p, 5);
        reloc(&b, 0);
        reloc(&b, 1);
    });
    CASE("CP_DMA from GDS without SAS", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t p[5] = { 0, 1u << 29, 0, 0, 16 };
        emit(&b, PKT3_CP_DMA, p, 5);
    });
    CASE("CP_DMA register fill of 3 bytes", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t p[5] = { 0, 2u << 29, 0, 0, 3 };
        emit(&b, PKT3_CP_DMA, p, 5);
        reloc(&b, 0);
    });
    CASE("MEM_WRITE not 8-byte aligned", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t p[4] = { 4, 0, 1, 0 };
        emit(&b, PKT3_MEM_WRITE, p, 4);
        reloc(&b, 0);
    });
    CASE("MEM_WRITE past its buffer", VC_E_BO_RANGE, VC_E_BO_RANGE, {
        uint32_t p[4] = { 1u << 20, 0, 1, 0 };
        emit(&b, PKT3_MEM_WRITE, p, 4);
        reloc(&b, 0);
    });
    CASE("SURFACE_SYNC on a range without its relocation", VC_E_RELOC_MISSING, VC_E_RELOC_MISSING, {
        uint32_t p[4] = { 1u << 25, 16, 0, 10 };
        emit(&b, PKT3_SURFACE_SYNC, p, 4);
    });
    CASE("SURFACE_SYNC flush-all needs no relocation", VC_OK, VC_OK, {
        uint32_t p[4] = { 1u << 25, 0xFFFFFFFFu, 0, 10 };
        emit(&b, PKT3_SURFACE_SYNC, p, 4);
    });
    CASE("WAIT_REG_MEM on a register with the PFP", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t p[6] = { 0x100 | 3, 0x2000, 0, 1, 1, 10 };
        emit(&b, PKT3_WAIT_REG_MEM, p, 6);
    });
    CASE("SET_BASE other than the indirect-draw base", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t p[3] = { 2, 0, 0 };
        emit(&b, PKT3_SET_BASE, p, 3);
    });
    CASE("SQ_PGM_START_PS outside its buffer (strict)", VC_E_ADDR_RANGE, VC_OK, {
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28840, (2u << 20) >> 8);
        reloc(&b, 0);
    });
    CASE("a resource of type 'invalid texture'", VC_E_PKT_OPERAND, VC_E_PKT_OPERAND, {
        uint32_t w[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
        cedar_cmdbuf_set_resource(&b.cb, 0x30000, w, 8);
    });
    CASE("a vertex buffer larger than its buffer (the kernel clamps it)", VC_E_VERTEX, VC_OK, {
        uint32_t w[8] = { 0, 2u << 20, 0, 0, 0, 0, 0, 3u << 30 };
        cedar_cmdbuf_set_resource(&b.cb, 0x30000 + 160 * 32, w, 8);
        reloc(&b, 0);
    });
    CASE("a 2D texture larger than its buffer", VC_E_SURF_SIZE, VC_E_SURF_SIZE, {
        /* 1024x1024 FMT_8_8_8_8 linear-aligned: 4 MiB in a 1 MiB buffer */
        uint32_t w[8] = { 1 | ((1024 / 8 - 1) << 6) | (1023u << 18), 1023 | (1u << 28), 0, 0, 0, 0, 0,
                          26 | (2u << 30) };
        cedar_cmdbuf_set_resource(&b.cb, 0x30000, w, 8);
        reloc(&b, 0);
        reloc(&b, 0);
    });
    CASE("an enabled colour buffer without a buffer", VC_E_CB_NO_BO, VC_E_CB_NO_BO, {
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28C70 + 0x3C, 26u << 2);   /* CB_COLOR1_INFO: 8_8_8_8 */
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28238, 0xF0);              /* CB_TARGET_MASK: CB1 */
        uint32_t p[2] = { 3, 2 };
        emit(&b, PKT3_DRAW_INDEX_AUTO, p, 2);
    });
    /* The kernel starts its depth state at 0xFFFFFFFF (evergreen_cs_track_init):
     * a draw before DB_DEPTH_CONTROL / DB_Z_INFO are written fails its depth check. */
    CASE("a draw before any depth state", VC_E_SURF_ARRAY_MODE, VC_E_SURF_ARRAY_MODE, {
        uint32_t p[2] = { 3, 2 };
        emit(&b, PKT3_DRAW_INDEX_AUTO, p, 2);
    });
    CASE("a draw with no colour buffer enabled", VC_OK, VC_OK, {
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28800, 0);   /* DB_DEPTH_CONTROL: no Z, no stencil */
        uint32_t p[2] = { 3, 2 };
        emit(&b, PKT3_DRAW_INDEX_AUTO, p, 2);
    });
    CASE("a stream-out buffer enabled without a buffer", VC_E_STREAMOUT, VC_E_STREAMOUT, {
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28B94, 1);   /* VGT_STRMOUT_CONFIG: stream 0 */
        cedar_cmdbuf_set_context_reg(&b.cb, 0x28B98, 1);   /* stream 0 -> buffer 0 */
        uint32_t p[2] = { 3, 2 };
        emit(&b, PKT3_DRAW_INDEX_AUTO, p, 2);
    });
    CASE("COPY_DW to a forbidden register", VC_E_REG_FORBIDDEN, VC_E_REG_FORBIDDEN, {
        uint32_t p[5] = { 1, 0, 0, 0x8010 / 4, 0 };
        emit(&b, PKT3_COPY_DW, p, 5);
        reloc(&b, 0);
    });
    assert_true(ncases >= 2 * 30);
}

/* The DMA ring's own rules. */
static void dma_streams(void **state)
{
    (void)state;
    struct vc_reloc_bo bos[3] = {
        { .size = 4096, .gpu_offset = 1u << 20 }, { .size = 4096, .gpu_offset = 2u << 20 },
        { .size = 4096, .gpu_offset = 3u << 20 },
    };
    struct vc_check_cfg cfg = { .mode = VC_CHECK_STRICT, .tiling_config = VCEDAR_TILING_CONFIG };
    struct vc_error e;
    uint32_t bad_cmd[1] = { 0x80000000u };   /* command 8 does not exist */
    assert_int_not_equal(vc_check_dma(&cfg, bad_cmd, 1, 3, bos, &e), 0);
    assert_int_equal(e.code, VC_E_DMA_PACKET);
    uint32_t fill[4] = { (0xDu << 28) | 1025, 0, 0, 0 };   /* 1025 dwords in 4096 bytes */
    assert_int_not_equal(vc_check_dma(&cfg, fill, 4, 3, bos, &e), 0);
    assert_int_equal(e.code, VC_E_BO_RANGE);
    fill[0] = (0xDu << 28) | 1024;
    assert_int_equal(vc_check_dma(&cfg, fill, 4, 3, bos, &e), 0);
    assert_int_not_equal(vc_check_dma(&cfg, fill, 4, 0, bos, &e), 0);
    assert_int_equal(e.code, VC_E_RELOC_RANGE);
    assert_int_not_equal(vc_check_dma(&cfg, fill, 3, 3, bos, &e), 0);
    assert_int_equal(e.code, VC_E_PKT_TRUNCATED);
    uint32_t partial[9] = { (3u << 28) | (0x41u << 20) | 4 };   /* L2L partial: Cayman only */
    assert_int_not_equal(vc_check_dma(&cfg, partial, 9, 3, bos, &e), 0);
    assert_int_equal(e.code, VC_E_DMA_PACKET);
}

/* SET_APPEND_CNT's address relocated as the kernel does: the buffer's GPU
 * offset added to the dword-aligned offset, the SWAP bits 0..1 kept, the
 * high byte in the next dword. */
static void set_append_cnt_relocated(void **state)
{
    (void)state;
    struct built b;
    built_init(&b);
    b.bos[1].gpu_offset = 0x1234560000ull;
    uint32_t p[3] = { 0x1CBu << 16 | 3, 0x100 | 2, 0 };
    emit(&b, PKT3_SET_APPEND_CNT, p, 3);
    reloc(&b, 1);
    struct vc_reloc_bo bos[1] = { b.bos[1] };
    struct vc_check_cfg cfg = { .mode = VC_CHECK_KERNEL, .tiling_config = VCEDAR_TILING_CONFIG,
                                .cs_flags = RADEON_CS_KEEP_TILING_FLAGS };
    struct vc_error e;
    assert_int_equal(vc_check_gfx(&cfg, b.cb.dw, b.cb.ndw, (const uint32_t *)b.cb.relocs, 4, bos, &e), 0);
    assert_int_equal(b.cb.dw[2], 0x34560000u + 0x100 + 2);
    assert_int_equal(b.cb.dw[3], 0x12u);
    cedar_cmdbuf_fini(&b.cb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mesa_streams_pass),
        cmocka_unit_test(mesa_mutations),
        cmocka_unit_test(mesa_relocations),
        cmocka_unit_test(built_streams),
        cmocka_unit_test(dma_streams),
        cmocka_unit_test(set_append_cnt_relocated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
