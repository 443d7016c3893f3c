/* The relocation table and the NOP that carries a relocation index.
 * Facts: libdrm radeon/radeon_cs_gem.c cs_gem_write_reloc (one entry per
 * buffer, domain merging, NOP payload = index x 4 because each entry is 4
 * dwords); the kernel reads the NOP in radeon_cs_packet_next_reloc. */
#include "cedar/cmdbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "eg_regs.h"

/* A relocation entry is 4 dwords in the RELOCS chunk; the NOP payload is the
 * dword offset of the entry in that chunk. */
#define RELOC_ENTRY_DWORDS (sizeof(struct drm_radeon_cs_reloc) / sizeof(uint32_t))

static int merge(struct drm_radeon_cs_reloc *e, uint32_t rd, uint32_t wd)
{
    if (wd && (e->read_domains & wd)) {
        e->read_domains = 0;
        e->write_domain = wd;
    } else if (rd & e->write_domain) {
        e->read_domains = rd;
    } else if (wd != e->write_domain || rd != e->read_domains) {
        return -EINVAL;
    }
    return 0;
}

int cedar_cmdbuf_add_reloc(struct cedar_cmdbuf *cb, uint32_t handle, uint32_t read_domain,
                           uint32_t write_domain, uint32_t flags, unsigned *index)
{
    if (cb->error)
        return cb->error;
    if (!read_domain == !write_domain || read_domain == RADEON_GEM_DOMAIN_CPU ||
        write_domain == RADEON_GEM_DOMAIN_CPU)
        return cb->error = -EINVAL;
    /* From the end: a builder usually references the buffer it just used. */
    for (unsigned i = cb->nrelocs; i-- > 0;) {
        if (cb->relocs[i].handle != handle)
            continue;
        if (merge(&cb->relocs[i], read_domain, write_domain))
            return cb->error = -EINVAL;
        if (index)
            *index = i;
        return 0;
    }
    /* The NOP payload index x 4 must fit a dword. */
    if (cb->nrelocs >= UINT32_MAX / RELOC_ENTRY_DWORDS)
        return cb->error = -ENOSPC;
    if (cb->nrelocs == cb->reloc_cap) {
        unsigned cap = cb->reloc_cap ? cb->reloc_cap * 2 : 16;
        if (cap < cb->reloc_cap || cap > UINT32_MAX / RELOC_ENTRY_DWORDS)
            cap = UINT32_MAX / RELOC_ENTRY_DWORDS;
        /* reallocarray checks cap * size for overflow. */
        struct drm_radeon_cs_reloc *p = reallocarray(cb->relocs, cap, sizeof(*p));
        if (!p)
            return cb->error = -ENOMEM;
        cb->relocs = p;
        cb->reloc_cap = cap;
    }
    cb->relocs[cb->nrelocs] = (struct drm_radeon_cs_reloc){
        .handle = handle, .read_domains = read_domain, .write_domain = write_domain,
        .flags = flags,
    };
    if (index)
        *index = cb->nrelocs;
    cb->nrelocs++;
    return 0;
}

int cedar_cmdbuf_reloc(struct cedar_cmdbuf *cb, uint32_t handle, uint32_t read_domain,
                       uint32_t write_domain, uint32_t flags)
{
    unsigned idx;
    int r = cedar_cmdbuf_add_reloc(cb, handle, read_domain, write_domain, flags, &idx);
    if (r)
        return r;
    uint32_t payload = (uint32_t)(idx * RELOC_ENTRY_DWORDS);
    return cedar_cmdbuf_packet(cb, PKT3_NOP, &payload, 1);
}
