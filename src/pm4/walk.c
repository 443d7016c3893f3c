/* The PM4 walker: frames packets, checks them against the database, and
 * reports packets, register writes and relocations to a sink (cedar/pm4.h).
 * Header layout: regs/pm4.regs (PM4_HEADER, PM4_TYPE0_HEADER,
 * PM4_TYPE3_HEADER); SET_* semantics and bounds: the radeon kernel's
 * evergreen_packet3_check. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eg_regs.h"
#include "pm4_internal.h"

/* Slots are fetched from the relocation rules in batches. */
enum { SLOT_BATCH = 32 };

struct walker {
    const uint32_t *dw;
    size_t ndw;
    const struct eg_pm4_opts *opts;
    const struct eg_pm4_sink *sink;
    struct eg_pm4_error *err;
    /* The last address-carrying packet and the relocation NOPs it awaits. */
    struct eg_pm4_packet target;
    unsigned nslots, next_slot;
    struct eg_pm4_slot batch[SLOT_BATCH];
    unsigned batch_first, batch_len;
};

static int fail(struct walker *w, enum eg_pm4_errcode code, size_t offset, const char *fmt, ...)
{
    if (w->err) {
        w->err->code = code;
        w->err->offset = offset;
        int n = snprintf(w->err->message, sizeof(w->err->message), "dword %zu (0x%zX): ",
                         offset, offset);
        if (n < 0 || (size_t)n >= sizeof(w->err->message))
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->err->message + n, sizeof(w->err->message) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int aborted(struct walker *w, size_t offset, int status)
{
    int r = fail(w, EG_PM4_ERR_ABORTED, offset, "stopped by the sink (%d)", status);
    if (w->err)
        w->err->sink_status = status;
    return r;
}

static const char *pkt_name(const struct eg_pm4_packet *p)
{
    return p->def ? p->def->name : "type-3 packet";
}

/* Register-writing packets: range checks, then one event per register. */
static int walk_set_regs(struct walker *w, const struct eg_pm4_packet *p)
{
    const struct eg_space *s = p->space;
    size_t nregs = p->npayload - 1;
    if (p->npayload < 2 && !(p->npayload == 1 && w->opts->empty_set_ok))
        return fail(w, EG_PM4_ERR_BAD_COUNT, p->offset, "%s count %u writes no register",
                    pkt_name(p), p->count);
    /* The kernel's whole-descriptor rules (evergreen_packet3_check). */
    if ((p->opcode == PKT3_SET_RESOURCE && nregs % 8) ||
        (p->opcode == PKT3_SET_SAMPLER && nregs % 3))
        return fail(w, EG_PM4_ERR_BAD_COUNT, p->offset, "%s count %u: %zu dwords is not whole %s",
                    pkt_name(p), p->count, nregs,
                    p->opcode == PKT3_SET_RESOURCE ? "resources (8 dwords)" : "samplers (3 dwords)");
    uint64_t first = (uint64_t)s->start + (uint64_t)p->payload[0] * 4u;
    uint64_t end = first + (uint64_t)nregs * 4u;
    if (first >= s->end || end > s->end)
        return fail(w, EG_PM4_ERR_BAD_RANGE, p->offset,
                    "%s index 0x%X: registers 0x%llX..0x%llX outside the %s space 0x%X..0x%X",
                    pkt_name(p), p->payload[0], (unsigned long long)first,
                    (unsigned long long)end - 4, s->name, s->start, s->end - 4);
    if (!w->sink || !w->sink->reg)
        return 0;
    for (size_t i = 1; i < p->npayload; i++) {
        struct eg_pm4_reg_write rw = {
            .offset = (uint32_t)(first + (i - 1) * 4u), .value = p->payload[i],
            .payload_index = (unsigned)i, .space = s,
        };
        rw.reg = eg_pm4_reg_in_space(rw.offset, s);
        int r = w->sink->reg(w->sink->ctx, p, &rw);
        if (r)
            return aborted(w, p->offset, r);
    }
    return 0;
}

/* Type 0: COUNT + 1 consecutive registers from BASE_INDEX (dwords).  The
 * kernel accepts only the VLINE ones; the walker reports them all. */
static int walk_type0(struct walker *w, const struct eg_pm4_packet *p)
{
    if (!w->sink || !w->sink->reg)
        return 0;
    uint32_t base = G_PM4_TYPE0_HEADER__BASE_INDEX(p->header);
    for (size_t i = 0; i < p->npayload; i++) {
        struct eg_pm4_reg_write rw = {
            .offset = (uint32_t)(base + i) * 4u, .value = p->payload[i],
            .payload_index = (unsigned)i,
        };
        rw.reg = eg_reg_find(rw.offset);
        int r = w->sink->reg(w->sink->ctx, p, &rw);
        if (r)
            return aborted(w, p->offset, r);
    }
    return 0;
}

static const struct eg_pm4_slot *slot_at(struct walker *w, unsigned k)
{
    if (k < w->batch_first || k >= w->batch_first + w->batch_len) {
        eg_pm4_collect_slots(&w->target, w->opts, k, w->batch, SLOT_BATCH);
        w->batch_first = k;
        w->batch_len = w->nslots - k < SLOT_BATCH ? w->nslots - k : SLOT_BATCH;
    }
    return &w->batch[k - w->batch_first];
}

/* A type-3 NOP: a relocation for the awaited address, if any. */
static int walk_nop(struct walker *w, const struct eg_pm4_packet *p)
{
    bool tied = w->next_slot < w->nslots;
    /* A NOP nothing awaits is a relocation only in its one-dword form. */
    if (!tied && p->npayload != 1)
        return 0;
    struct eg_pm4_reloc rl = {
        .nop_offset = p->offset, .value = p->payload[0], .index = p->payload[0] / 4u,
        .tied = tied,
    };
    if (tied) {
        rl.packet_offset = w->target.offset;
        rl.target = &w->target;
        rl.slot = *slot_at(w, w->next_slot++);
    }
    if (w->sink && w->sink->reloc) {
        int r = w->sink->reloc(w->sink->ctx, p, &rl);
        if (r)
            return aborted(w, p->offset, r);
    }
    return 0;
}

static int walk_type3(struct walker *w, struct eg_pm4_packet *p)
{
    p->opcode = G_PM4_TYPE3_HEADER__OPCODE(p->header);
    p->predicate = G_PM4_TYPE3_HEADER__PREDICATE(p->header);
    p->shader_type = G_PM4_TYPE3_HEADER__SHADER_TYPE(p->header);
    p->def = eg_packet_find(p->opcode);
    p->space = eg_pm4_space_of_packet(p->opcode);
    if (p->def && p->def->count_min >= 0 && !w->opts->lenient_counts &&
        ((int)p->count < p->def->count_min || (int)p->count > p->def->count_max))
        return fail(w, EG_PM4_ERR_BAD_COUNT, p->offset, "%s count %u, expected %d%s%.0d",
                    p->def->name, p->count, p->def->count_min,
                    p->def->count_max != p->def->count_min ? ".." : "",
                    p->def->count_max != p->def->count_min ? p->def->count_max : 0);
    bool is_nop = p->opcode == PKT3_NOP;
    if (!is_nop) {
        /* A new packet: whatever the previous one still awaited is lost. */
        w->target = *p;
        w->nslots = eg_pm4_collect_slots(p, w->opts, 0, NULL, 0);
        w->next_slot = 0;
        w->batch_len = 0;
        p->nslots = w->nslots;
    }
    /* Bounds first, so a sink never sees a packet the walker rejects. */
    if (p->space && p->opcode != PKT3_NOP) {
        struct walker dry = *w;
        dry.sink = NULL;
        int r = walk_set_regs(&dry, p);
        if (r)
            return r;
    }
    if (w->sink && w->sink->packet) {
        int r = w->sink->packet(w->sink->ctx, p);
        if (r)
            return aborted(w, p->offset, r);
    }
    if (is_nop)
        return walk_nop(w, p);
    if (p->space)
        return walk_set_regs(w, p);
    return 0;
}

int eg_pm4_walk(const uint32_t *dw, size_t ndw, const struct eg_pm4_opts *opts,
                const struct eg_pm4_sink *sink, struct eg_pm4_error *err)
{
    static const struct eg_pm4_opts defaults;
    struct walker w = { .dw = dw, .ndw = ndw, .opts = opts ? opts : &defaults, .sink = sink,
                        .err = err };
    if (err)
        memset(err, 0, sizeof(*err));
    if (!dw && ndw)
        return fail(&w, EG_PM4_ERR_ARG, 0, "no buffer");
    size_t i = 0;
    while (i < ndw) {
        struct eg_pm4_packet p = { .offset = i, .header = dw[i] };
        p.type = G_PM4_HEADER__TYPE(p.header);
        switch (p.type) {
        case V_PM4_TYPE__TYPE2:
            w.nslots = w.next_slot = 0;
            if (sink && sink->packet) {
                int r = sink->packet(sink->ctx, &p);
                if (r)
                    return aborted(&w, i, r);
            }
            i++;
            continue;
        case V_PM4_TYPE__TYPE1:
            return fail(&w, EG_PM4_ERR_RESERVED_TYPE, i, "reserved packet type 1 (header 0x%08X)",
                        p.header);
        default:
            break;
        }
        /* Types 0 and 3 share the COUNT field position. */
        p.count = G_PM4_TYPE3_HEADER__COUNT(p.header);
        p.npayload = (size_t)p.count + 1;
        if (p.npayload > ndw - i - 1)
            return fail(&w, EG_PM4_ERR_TRUNCATED, i,
                        "header 0x%08X: count %u needs %zu payload dwords, %zu left in the buffer",
                        p.header, p.count, p.npayload, ndw - i - 1);
        p.payload = dw + i + 1;
        int r;
        if (p.type == V_PM4_TYPE__TYPE0) {
            w.nslots = w.next_slot = 0;
            if (sink && sink->packet && (r = sink->packet(sink->ctx, &p)) != 0)
                return aborted(&w, i, r);
            r = walk_type0(&w, &p);
        } else {
            r = walk_type3(&w, &p);
        }
        if (r)
            return r;
        i += 1 + p.npayload;
    }
    return 0;
}
