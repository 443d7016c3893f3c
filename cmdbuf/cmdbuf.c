/* The growable dword buffer and the type-3 / type-2 packet encoders.
 * Packet layout: regs/pm4.regs (PM4_TYPE3_HEADER, spaces); the kernel's
 * reading of them: drivers/gpu/drm/radeon/evergreen_cs.c. */
#include "cedar/cmdbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "eg_regs.h"

/* The header COUNT field is 14 bits: at most 16384 payload dwords. */
#define PKT3_MAX_PAYLOAD ((PM4_TYPE3_HEADER__COUNT__MASK >> PM4_TYPE3_HEADER__COUNT__SHIFT) + 1u)

void cedar_cmdbuf_init(struct cedar_cmdbuf *cb, size_t max_dw)
{
    memset(cb, 0, sizeof(*cb));
    cb->max_dw = max_dw;
}

void cedar_cmdbuf_fini(struct cedar_cmdbuf *cb)
{
    free(cb->dw);
    free(cb->relocs);
    memset(cb, 0, sizeof(*cb));
}

void cedar_cmdbuf_reset(struct cedar_cmdbuf *cb)
{
    cb->ndw = 0;
    cb->nrelocs = 0;
    cb->error = 0;
}

/* Makes room for n more dwords; sets the sticky error on failure. */
static int reserve(struct cedar_cmdbuf *cb, size_t n)
{
    if (cb->error)
        return cb->error;
    if (n > SIZE_MAX / sizeof(uint32_t) - cb->ndw ||
        (cb->max_dw && cb->ndw + n > cb->max_dw))
        return cb->error = -ENOSPC;
    size_t need = cb->ndw + n;
    if (need <= cb->cap)
        return 0;
    size_t cap = cb->cap ? cb->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 / sizeof(uint32_t) ? need : cap * 2;
    if (cb->max_dw && cap > cb->max_dw)
        cap = cb->max_dw;
    uint32_t *p = realloc(cb->dw, cap * sizeof(uint32_t));
    if (!p)
        return cb->error = -ENOMEM;
    cb->dw = p;
    cb->cap = cap;
    return 0;
}

int cedar_cmdbuf_emit(struct cedar_cmdbuf *cb, uint32_t v)
{
    int r = reserve(cb, 1);
    if (r)
        return r;
    cb->dw[cb->ndw++] = v;
    return 0;
}

int cedar_cmdbuf_emit_n(struct cedar_cmdbuf *cb, const uint32_t *v, size_t n)
{
    int r = reserve(cb, n);
    if (r)
        return r;
    if (n)
        memcpy(cb->dw + cb->ndw, v, n * sizeof(uint32_t));
    cb->ndw += n;
    return 0;
}

uint32_t cedar_pm4_type3_header(unsigned opcode, unsigned ndw, bool predicate)
{
    if (ndw < 1 || ndw > PKT3_MAX_PAYLOAD)
        eg_field_overflow("PM4 type-3 payload dwords", ndw, 1, PKT3_MAX_PAYLOAD);
    return S_PM4_TYPE3_HEADER__TYPE(V_PM4_TYPE__TYPE3) |
           S_PM4_TYPE3_HEADER__COUNT(ndw - 1) |
           S_PM4_TYPE3_HEADER__OPCODE(opcode) |
           S_PM4_TYPE3_HEADER__PREDICATE(predicate ? 1 : 0);
}

uint32_t cedar_pm4_type2(void)
{
    return S_PM4_HEADER__TYPE(V_PM4_TYPE__TYPE2);
}

int cedar_cmdbuf_pkt3(struct cedar_cmdbuf *cb, unsigned opcode, unsigned ndw)
{
    uint32_t h = cedar_pm4_type3_header(opcode, ndw, false);
    /* Reserve the whole packet so a failure never leaves a header without payload. */
    int r = reserve(cb, (size_t)ndw + 1);
    if (r)
        return r;
    cb->dw[cb->ndw++] = h;
    return 0;
}

int cedar_cmdbuf_packet(struct cedar_cmdbuf *cb, unsigned opcode, const uint32_t *payload,
                        unsigned ndw)
{
    int r = cedar_cmdbuf_pkt3(cb, opcode, ndw);
    if (r)
        return r;
    return cedar_cmdbuf_emit_n(cb, payload, ndw);
}

/* SET_* packet: first payload dword is the dword index of reg from the space
 * start; every register [reg, reg + 4n) must lie inside [start, end). */
static int set_regs(struct cedar_cmdbuf *cb, unsigned opcode, const char *what, uint32_t start,
                    uint32_t end, uint32_t reg, const uint32_t *v, unsigned n)
{
    if (n < 1 || n > PKT3_MAX_PAYLOAD - 1)
        eg_field_overflow(what, n, 1, PKT3_MAX_PAYLOAD - 1);
    if (reg % 4 || reg < start || reg >= end || (uint64_t)reg + 4ull * n > end)
        eg_field_overflow(what, reg, start, (int64_t)end - 4);
    int r = cedar_cmdbuf_pkt3(cb, opcode, n + 1);
    if (r)
        return r;
    cb->dw[cb->ndw++] = (reg - start) / 4;
    return cedar_cmdbuf_emit_n(cb, v, n);
}

int cedar_cmdbuf_set_config_regs(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_CONFIG_REG, "SET_CONFIG_REG register", SPACE_CONFIG_START,
                    SPACE_CONFIG_END, reg, v, n);
}

int cedar_cmdbuf_set_config_reg(struct cedar_cmdbuf *cb, uint32_t reg, uint32_t v)
{
    return cedar_cmdbuf_set_config_regs(cb, reg, &v, 1);
}

int cedar_cmdbuf_set_context_regs(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_CONTEXT_REG, "SET_CONTEXT_REG register", SPACE_CONTEXT_START,
                    SPACE_CONTEXT_END, reg, v, n);
}

int cedar_cmdbuf_set_context_reg(struct cedar_cmdbuf *cb, uint32_t reg, uint32_t v)
{
    return cedar_cmdbuf_set_context_regs(cb, reg, &v, 1);
}

/* The kernel rejects SET_RESOURCE whose COUNT is not a multiple of 8 and
 * SET_SAMPLER not of 3 (evergreen_packet3_check): whole descriptors only. */
#define RESOURCE_DWORDS 8u
#define SAMPLER_DWORDS 3u

int cedar_cmdbuf_set_resource(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    if (n == 0 || n % RESOURCE_DWORDS)
        eg_field_overflow("SET_RESOURCE dwords (multiple of 8)", n, RESOURCE_DWORDS,
                          PKT3_MAX_PAYLOAD - 1);
    return set_regs(cb, PKT3_SET_RESOURCE, "SET_RESOURCE register", SPACE_RESOURCE_START,
                    SPACE_RESOURCE_END, reg, v, n);
}

int cedar_cmdbuf_set_sampler(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    if (n == 0 || n % SAMPLER_DWORDS)
        eg_field_overflow("SET_SAMPLER dwords (multiple of 3)", n, SAMPLER_DWORDS,
                          PKT3_MAX_PAYLOAD - 1);
    return set_regs(cb, PKT3_SET_SAMPLER, "SET_SAMPLER register", SPACE_SAMPLER_START,
                    SPACE_SAMPLER_END, reg, v, n);
}

int cedar_cmdbuf_set_alu_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_ALU_CONST, "SET_ALU_CONST register", SPACE_ALU_CONST_START,
                    SPACE_ALU_CONST_END, reg, v, n);
}

int cedar_cmdbuf_set_loop_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_LOOP_CONST, "SET_LOOP_CONST register", SPACE_LOOP_CONST_START,
                    SPACE_LOOP_CONST_END, reg, v, n);
}

int cedar_cmdbuf_set_bool_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_BOOL_CONST, "SET_BOOL_CONST register", SPACE_BOOL_CONST_START,
                    SPACE_BOOL_CONST_END, reg, v, n);
}

int cedar_cmdbuf_set_ctl_const(struct cedar_cmdbuf *cb, uint32_t reg, const uint32_t *v, unsigned n)
{
    return set_regs(cb, PKT3_SET_CTL_CONST, "SET_CTL_CONST register", SPACE_CTL_CONST_START,
                    SPACE_CTL_CONST_END, reg, v, n);
}

int cedar_cmdbuf_pad(struct cedar_cmdbuf *cb, unsigned multiple)
{
    if (multiple < 1)
        eg_field_overflow("type-2 padding multiple", multiple, 1, UINT32_MAX);
    if (cb->error)
        return cb->error;
    size_t n = (multiple - cb->ndw % multiple) % multiple;
    int r = reserve(cb, n);
    if (r)
        return r;
    while (n--)
        cb->dw[cb->ndw++] = cedar_pm4_type2();
    return 0;
}
