/* The DMA-ring walker: frames asynchronous-DMA packets by the lengths the
 * register database gives (regs/dma.regs: DMA_HEADER, DMA_CMD,
 * DMA_WRITE_SUB_CMD / DMA_COPY_SUB_CMD, DMA_COPY_PACKET_DWORDS,
 * DMA_OTHER_PACKET_DWORDS, all from the kernel's evergreen_dma_cs_parse).
 * The tables are looked up by name at run time, so the lengths live in the
 * database only. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cedar/pm4.h"

struct dma_db {
    const struct eg_field *cmd, *sub_cmd, *count;
    const struct eg_enum *cmds, *write_subs, *copy_subs, *copy_len, *other_len;
};

static bool load_db(struct dma_db *db)
{
    const struct eg_bitset *h = eg_bitset_find_name("DMA_HEADER");
    if (!h)
        return false;
    db->cmd = eg_bitset_field(h, "CMD");
    db->sub_cmd = eg_bitset_field(h, "SUB_CMD");
    db->count = eg_bitset_field(h, "COUNT");
    db->cmds = eg_enum_find_name("DMA_CMD");
    db->write_subs = eg_enum_find_name("DMA_WRITE_SUB_CMD");
    db->copy_subs = eg_enum_find_name("DMA_COPY_SUB_CMD");
    db->copy_len = eg_enum_find_name("DMA_COPY_PACKET_DWORDS");
    db->other_len = eg_enum_find_name("DMA_OTHER_PACKET_DWORDS");
    return db->cmd && db->sub_cmd && db->count && db->cmds && db->write_subs &&
           db->copy_subs && db->copy_len && db->other_len;
}

static int fail(struct eg_pm4_error *err, enum eg_pm4_errcode code, size_t off, const char *fmt, ...)
{
    if (err) {
        err->code = code;
        err->offset = off;
        int n = snprintf(err->message, sizeof(err->message), "dword %zu (0x%zX): ", off, off);
        if (n < 0 || (size_t)n >= sizeof(err->message))
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof(err->message) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

static bool value_of(const struct eg_enum *e, const char *name, uint32_t *v)
{
    return name && eg_enum_value_find(e, name, v);
}

/* Total length (header included) of a packet, 0 when unknown. */
static uint64_t packet_dwords(const struct dma_db *db, struct eg_dma_packet *p)
{
    uint32_t fixed;
    p->sub_name = NULL;
    if (!p->name)
        return 0;
    if (strcmp(p->name, "DMA_WRITE") == 0) {
        p->sub_name = eg_enum_value_name(db->write_subs, p->sub_cmd);
        if (!p->sub_name)
            return 0;
        char key[64];
        snprintf(key, sizeof(key), "DMA_%s", p->sub_name); /* WRITE_LINEAR -> DMA_WRITE_LINEAR */
        return value_of(db->other_len, key, &fixed) ? (uint64_t)fixed + p->count : 0;
    }
    if (strcmp(p->name, "DMA_COPY") == 0) {
        p->sub_name = eg_enum_value_name(db->copy_subs, p->sub_cmd);
        return value_of(db->copy_len, p->sub_name, &fixed) ? fixed : 0;
    }
    return value_of(db->other_len, p->name, &fixed) ? fixed : 0;
}

int eg_dma_walk(const uint32_t *dw, size_t ndw,
                int (*cb)(void *ctx, const struct eg_dma_packet *pkt), void *ctx,
                struct eg_pm4_error *err)
{
    struct dma_db db;
    if (err)
        memset(err, 0, sizeof(*err));
    if (!dw && ndw)
        return fail(err, EG_PM4_ERR_ARG, 0, "no buffer");
    if (!load_db(&db))
        return fail(err, EG_PM4_ERR_UNKNOWN_PACKET, 0, "the register database has no DMA packets");
    size_t i = 0;
    while (i < ndw) {
        struct eg_dma_packet p = { .offset = i, .header = dw[i] };
        p.cmd = eg_field_get(db.cmd, p.header);
        p.sub_cmd = eg_field_get(db.sub_cmd, p.header);
        p.count = eg_field_get(db.count, p.header);
        p.name = eg_enum_value_name(db.cmds, p.cmd);
        uint64_t len = packet_dwords(&db, &p);
        if (len == 0)
            return fail(err, EG_PM4_ERR_UNKNOWN_PACKET, i,
                        "header 0x%08X: DMA command %u sub-command 0x%X of unknown length",
                        p.header, p.cmd, p.sub_cmd);
        if (len > ndw - i)
            return fail(err, EG_PM4_ERR_TRUNCATED, i,
                        "header 0x%08X: %s needs %llu dwords, %zu left in the buffer", p.header,
                        p.name, (unsigned long long)len, ndw - i);
        p.payload = dw + i + 1;
        p.npayload = (size_t)len - 1;
        if (cb) {
            int r = cb(ctx, &p);
            if (r) {
                fail(err, EG_PM4_ERR_ABORTED, i, "stopped by the sink (%d)", r);
                if (err)
                    err->sink_status = r;
                return EG_PM4_ERR_ABORTED;
            }
        }
        i += (size_t)len;
    }
    return 0;
}
