/* --poison-state (vcedar_opts.poison_state): the state a command stream
 * inherits on a real card.  Nothing resets the context and config registers
 * between the command streams of different processes (the X server, a
 * compositor, Mesa), so a register a CS does not write holds whatever the
 * last client left there.  The model starts each CS with every context and
 * config register it does not write holding junk (0xBAD00000 | its offset)
 * and reports, once per register per CS, each read the model makes of such
 * a register, naming the register and the reader.
 *
 * What a CS can load without writing, as on Evergreen:
 *  - CLEAR_STATE resets every context register to the clear state the
 *    kernel recorded at ring start (evergreen_cp_start: evergreen_default_state
 *    between PREAMBLE_CNTL BEGIN/END_CLEAR_STATE).  The model resets them to
 *    zero (vc_cp.c); either way they are defined from then on, config
 *    registers are not touched.
 *  - CONTEXT_CONTROL loads nothing by itself: LOAD_CONTROL's LOAD_ENABLE lets
 *    the CP honour the LOAD_*_REG shadow packets and SHADOW_CONTROL makes it
 *    shadow register writes to memory; the radeon kernel accepts neither the
 *    shadow packets nor a shadow base on Evergreen, so Mesa's 0x80000000 pair
 *    loads nothing and the model treats the packet as loading nothing.
 *  - VGT_VERTEX_REUSE_BLOCK_CNTL and VGT_OUT_DEALLOC_CNTL hold what the kernel
 *    wrote at ring start (evergreen_cp_start), which Mesa relies on. */
#include <stdio.h>
#include <string.h>

#include "vc_internal.h"

#define POISON_JUNK 0xBAD00000u

enum { DEFINED = 1, REPORTED = 2 };

/* Index of a context/config register in the flags array, or -1. */
static long flag_index(uint32_t offset)
{
    if (offset >= SPACE_CONFIG_START && offset < SPACE_CONFIG_END)
        return (long)(offset - SPACE_CONFIG_START) / 4;
    if (offset >= SPACE_CONTEXT_START && offset < SPACE_CONTEXT_END)
        return VC_CONFIG_DWORDS + (long)(offset - SPACE_CONTEXT_START) / 4;
    return -1;
}

/* The hardware block a source file of the model stands for. */
static const char *unit_of(const char *file)
{
    static const struct { const char *file, *unit; } units[] = {
        { "vc_cp.c", "CP" },           { "vc_hw.h", "CP (border colour latch)" },
        { "vgt.c", "VGT" },            { "raster.c", "PA/SC" },
        { "interp.c", "SPI" },         { "shade.c", "SQ/SPI" },
        { "texture.c", "TA/TD" },      { "cb.c", "CB" },
        { "draw.c", "draw set-up" },   { "depth.c", "DB" },
        { "export.c", "SX" },          { "resolve.c", "CB (resolve)" },
    };
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (!strcmp(base, units[i].file))
            return units[i].unit;
    return base;
}

static void on_read(struct vc_reg_watch *w, uint32_t offset, const char *func, const char *file)
{
    struct vc_poison *p = (struct vc_poison *)w;
    long i = flag_index(offset);
    if (i < 0 || p->flags[i])
        return;
    p->flags[i] = REPORTED;
    p->vc->stats.poisoned_reads++;
    const struct eg_reg *r = eg_reg_find(offset);
    char line[200];
    snprintf(line, sizeof(line),
             "poison-state: CS %llu: %s (0x%05X) read by the %s (%s, %s) but not written by this CS: it holds 0x%08X",
             (unsigned long long)p->cs, r ? r->name : "unnamed register", offset, unit_of(file), func, file,
             vc_reg_peek(&p->vc->cp.regs, offset));
    fprintf(stderr, "%s\n", line);
    if (p->vc->trace)
        fprintf(p->vc->trace, "        ! %s\n", line);
}

void vc_poison_begin(struct vcedar *vc)
{
    struct vc_poison *p = &vc->cp.poison;
    struct vc_regs *regs = &vc->cp.regs;
    p->watch.read = on_read;
    p->vc = vc;
    p->cs++;
    memset(p->flags, 0, sizeof(p->flags));
    for (uint32_t i = 0; i < VC_CONFIG_DWORDS; i++)
        regs->config[i] = POISON_JUNK | (SPACE_CONFIG_START + 4 * i);
    for (uint32_t i = 0; i < VC_CONTEXT_DWORDS; i++)
        regs->context[i] = POISON_JUNK | (SPACE_CONTEXT_START + 4 * i);
    /* The kernel writes these at ring start and no radeon client rewrites
     * them, so a CS inherits the kernel's values, not a stranger's. */
    static const uint32_t ring_start[][2] = {
        { REG_VGT_VERTEX_REUSE_BLOCK_CNTL, V_VGT_KERNEL_RING_START__VERTEX_REUSE_BLOCK_CNTL },
        { REG_VGT_OUT_DEALLOC_CNTL, V_VGT_KERNEL_RING_START__OUT_DEALLOC_CNTL },
    };
    for (size_t i = 0; i < sizeof ring_start / sizeof ring_start[0]; i++) {
        long f = flag_index(ring_start[i][0]);
        regs->context[(ring_start[i][0] - SPACE_CONTEXT_START) / 4] = ring_start[i][1];
        p->flags[f] |= DEFINED;
    }
    regs->watch = &p->watch;
}

void vc_poison_wrote(struct vcedar *vc, uint32_t offset)
{
    long i = flag_index(offset);
    if (vc->cp.regs.watch && i >= 0)
        vc->cp.poison.flags[i] |= DEFINED;
}

void vc_poison_clear_state(struct vcedar *vc)
{
    if (vc->cp.regs.watch)
        memset(vc->cp.poison.flags + VC_CONFIG_DWORDS, DEFINED, VC_CONTEXT_DWORDS);
}
