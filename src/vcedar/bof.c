/* libdrm's BOF capture format (radeon/bof.c): our own reader and writer of
 * the same bytes, see cedar/vc_bof.h.  The reader checks every size against
 * the file: a damaged capture is an error message, never a crash. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <drm.h>
#include <radeon_drm.h>

#include "cedar/vc_bof.h"

/* Node types (bof.h BOF_TYPE_*). */
enum { BOF_STRING = 0, BOF_NULL = 1, BOF_BLOB = 2, BOF_OBJECT = 3, BOF_ARRAY = 4, BOF_INT32 = 5 };
#define BOF_HEADER 12u
#define BOF_MAX_DEPTH 8

static int bof_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bof_err(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- writer ----------------------------------------------------------------- */

struct wbuf {
    uint8_t *p;
    size_t n, cap;
    int failed;
};

static void put(struct wbuf *b, const void *data, size_t len)
{
    if (b->failed)
        return;
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + len)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
}

static void put_u32(struct wbuf *b, uint32_t v)
{
    put(b, &v, 4);   /* BOF is little-endian, as the hosts libdrm runs on */
}

static void put_header(struct wbuf *b, uint32_t type, uint64_t size, uint32_t count)
{
    if (size > UINT32_MAX)
        b->failed = 1;
    put_u32(b, type);
    put_u32(b, (uint32_t)size);
    put_u32(b, count);
}

static size_t str_size(const char *s)
{
    return BOF_HEADER + strlen(s) + 1;
}

static void put_string(struct wbuf *b, const char *s)
{
    put_header(b, BOF_STRING, str_size(s), 0);
    put(b, s, strlen(s) + 1);
}

static void put_int_kv(struct wbuf *b, const char *key, uint32_t v)
{
    put_string(b, key);
    put_header(b, BOF_INT32, BOF_HEADER + 4, 0);
    put_u32(b, v);
}

static void put_blob_kv(struct wbuf *b, const char *key, const void *data, size_t len)
{
    put_string(b, key);
    put_header(b, BOF_BLOB, BOF_HEADER + len, 0);
    put(b, data, len);
}

#define KV_INT(key) (str_size(key) + BOF_HEADER + 4)
#define KV_BLOB(key, len) (str_size(key) + BOF_HEADER + (uint64_t)(len))

static uint64_t bo_node_size(const struct vc_bof_bo *bo)
{
    return BOF_HEADER + KV_INT("size") + KV_INT("handle") + KV_BLOB("data", bo->size) + KV_INT("domain") +
           KV_INT("tiling") + KV_INT("pitch");
}

int vc_bof_write(const char *path, const struct vc_bof_cs *cs, char *err, size_t errlen)
{
    struct wbuf b = { 0 };
    uint64_t bo_array = BOF_HEADER;
    for (uint32_t i = 0; i < cs->nbos; i++)
        bo_array += bo_node_size(&cs->bos[i]);
    uint64_t root = BOF_HEADER + KV_INT("device_id") + KV_BLOB("reloc", (uint64_t)cs->nrelocs * 16) +
                    KV_BLOB("pm4", (uint64_t)cs->ndw * 4) + str_size("bo") + bo_array + KV_INT("ring") +
                    KV_INT("flags");
    put_header(&b, BOF_OBJECT, root, 2 * 6);
    put_int_kv(&b, "device_id", cs->device_id);
    put_blob_kv(&b, "reloc", cs->relocs, (size_t)cs->nrelocs * 16);
    put_blob_kv(&b, "pm4", cs->ib, (size_t)cs->ndw * 4);
    put_string(&b, "bo");
    put_header(&b, BOF_ARRAY, bo_array, cs->nbos);
    for (uint32_t i = 0; i < cs->nbos; i++) {
        const struct vc_bof_bo *bo = &cs->bos[i];
        put_header(&b, BOF_OBJECT, bo_node_size(bo), 2 * 6);
        put_int_kv(&b, "size", bo->size);
        put_int_kv(&b, "handle", bo->handle);
        put_blob_kv(&b, "data", bo->data, bo->size);
        put_int_kv(&b, "domain", bo->domain);
        put_int_kv(&b, "tiling", bo->tiling_flags);
        put_int_kv(&b, "pitch", bo->pitch);
    }
    put_int_kv(&b, "ring", cs->ring);
    put_int_kv(&b, "flags", cs->flags);
    if (b.failed || b.n != root) {
        free(b.p);
        return bof_err(err, errlen, "%s: capture too large for the BOF format", path);
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(b.p);
        return bof_err(err, errlen, "%s: %s", path, strerror(errno));
    }
    size_t w = fwrite(b.p, 1, b.n, f);
    int closed = fclose(f);
    free(b.p);
    if (w != b.n || closed)
        return bof_err(err, errlen, "%s: write failed", path);
    return 0;
}

/* ---- reader --------------------------------------------------------------------- */

struct node {
    uint32_t type, size, count;
    const uint8_t *payload;   /* size - 12 bytes */
};

static int node_at(const uint8_t *p, size_t avail, struct node *n)
{
    if (avail < BOF_HEADER)
        return -1;
    memcpy(&n->type, p, 4);
    memcpy(&n->size, p + 4, 4);
    memcpy(&n->count, p + 8, 4);
    if (n->size < BOF_HEADER || n->size > avail)
        return -1;
    if (n->type == BOF_NULL && n->size != BOF_HEADER)
        return -1;
    n->payload = p + BOF_HEADER;
    return 0;
}

/* The children of an object / array, iterated. */
struct iter {
    const uint8_t *p;
    size_t left;
};

static int next_child(struct iter *it, struct node *n)
{
    if (it->left == 0)
        return 0;
    if (node_at(it->p, it->left, n))
        return -1;
    it->p += n->size;
    it->left -= n->size;
    return 1;
}

static int is_key(const struct node *n, const char *key)
{
    size_t len = strlen(key) + 1;
    return n->type == BOF_STRING && n->size - BOF_HEADER == len && memcmp(n->payload, key, len) == 0;
}

static int int_value(const struct node *n, uint32_t *v)
{
    if (n->type != BOF_INT32 || n->size != BOF_HEADER + 4)
        return -1;
    memcpy(v, n->payload, 4);
    return 0;
}

/* Find key in an object; returns 1 and the value, 0 if absent, -1 on damage. */
static int object_get(const struct node *obj, const char *key, struct node *val)
{
    struct iter it = { obj->payload, obj->size - BOF_HEADER };
    struct node k;
    int r;
    while ((r = next_child(&it, &k)) > 0) {
        if (next_child(&it, val) <= 0)
            return -1;
        if (is_key(&k, key))
            return 1;
    }
    return r;
}

static int read_file(const char *path, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return bof_err(err, errlen, "%s: %s", path, strerror(errno));
    /* a regular file is read into a block of its size and one byte more
     * (the byte shows whether it grew meanwhile): a capture of hundreds of
     * MB is not copied from block to doubling block; a pipe or a growing
     * file takes the doubling loop */
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1;
    uint8_t *p = malloc(cap);
    while (p) {
        size_t r = fread(p + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        uint8_t *q = realloc(p, cap * 2);
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    /* exactly the file's bytes: a parser read past them is past the block
     * (shrinking a block of the file's size by its spare byte moves nothing) */
    uint8_t *exact = p ? realloc(p, n ? n : 1) : NULL;
    if (!exact || bad) {
        free(exact ? exact : p);
        return bof_err(err, errlen, "%s: read failed", path);
    }
    *out = exact;
    *len = n;
    return 0;
}

int vc_bof_read(const char *path, struct vc_bof_cs *out, char *err, size_t errlen)
{
    uint8_t *file = NULL;
    size_t len = 0;
    memset(out, 0, sizeof(*out));
    if (read_file(path, &file, &len, err, errlen))
        return -1;
    struct node root, v;
    int r = -1;
    if (node_at(file, len, &root) || root.type != BOF_OBJECT) {
        bof_err(err, errlen, "%s: not a BOF capture (no root object)", path);
        goto out;
    }
    if (object_get(&root, "device_id", &v) != 1 || int_value(&v, &out->device_id)) {
        bof_err(err, errlen, "%s: no device_id", path);
        goto out;
    }
    if (object_get(&root, "pm4", &v) != 1 || v.type != BOF_BLOB || (v.size - BOF_HEADER) % 4 ||
        v.size == BOF_HEADER) {
        bof_err(err, errlen, "%s: no pm4 blob (or not whole dwords)", path);
        goto out;
    }
    out->ndw = (v.size - BOF_HEADER) / 4;
    out->ib = malloc((size_t)out->ndw * 4);
    if (!out->ib)
        goto nomem;
    memcpy(out->ib, v.payload, (size_t)out->ndw * 4);
    if (object_get(&root, "reloc", &v) != 1 || v.type != BOF_BLOB || (v.size - BOF_HEADER) % 16) {
        bof_err(err, errlen, "%s: no reloc blob (or not whole relocations)", path);
        goto out;
    }
    out->nrelocs = (v.size - BOF_HEADER) / 16;
    out->relocs = malloc((size_t)out->nrelocs * 16 + 16);
    if (!out->relocs)
        goto nomem;
    memcpy(out->relocs, v.payload, (size_t)out->nrelocs * 16);
    out->ring = RADEON_CS_RING_GFX;
    if (object_get(&root, "ring", &v) == 1 && int_value(&v, &out->ring))
        goto damaged;
    if (object_get(&root, "flags", &v) == 1 && int_value(&v, &out->flags))
        goto damaged;
    if (object_get(&root, "bo", &v) != 1 || v.type != BOF_ARRAY) {
        bof_err(err, errlen, "%s: no bo array", path);
        goto out;
    }
    /* every element takes at least a node header: a count beyond that is
     * damage, not a size to allocate for */
    if (v.count > (v.size - BOF_HEADER) / BOF_HEADER)
        goto damaged;
    out->bos = calloc(v.count ? v.count : 1, sizeof(*out->bos));
    if (!out->bos)
        goto nomem;
    struct iter it = { v.payload, v.size - BOF_HEADER };
    struct node bo;
    int k;
    while ((k = next_child(&it, &bo)) > 0) {
        if (bo.type != BOF_OBJECT || out->nbos >= v.count)
            goto damaged;
        struct vc_bof_bo *b = &out->bos[out->nbos];
        struct node f;
        if (object_get(&bo, "size", &f) != 1 || int_value(&f, &b->size) ||
            object_get(&bo, "handle", &f) != 1 || int_value(&f, &b->handle) ||
            object_get(&bo, "data", &f) != 1 || f.type != BOF_BLOB || f.size - BOF_HEADER != b->size)
            goto damaged;
        b->data = malloc(b->size ? b->size : 1);
        if (!b->data)
            goto nomem;
        memcpy(b->data, f.payload, b->size);
        out->nbos++;
        if (object_get(&bo, "domain", &f) == 1 && int_value(&f, &b->domain))
            goto damaged;
        if (object_get(&bo, "tiling", &f) == 1 && int_value(&f, &b->tiling_flags))
            goto damaged;
        if (object_get(&bo, "pitch", &f) == 1 && int_value(&f, &b->pitch))
            goto damaged;
    }
    if (k < 0)
        goto damaged;
    r = 0;
    goto out;
damaged:
    bof_err(err, errlen, "%s: damaged capture (a node's size or type is wrong)", path);
    goto out;
nomem:
    bof_err(err, errlen, "%s: out of memory", path);
out:
    free(file);
    if (r)
        vc_bof_free(out);
    return r;
}

void vc_bof_free(struct vc_bof_cs *cs)
{
    for (uint32_t i = 0; i < cs->nbos; i++)
        free(cs->bos[i].data);
    free(cs->bos);
    free(cs->relocs);
    free(cs->ib);
    memset(cs, 0, sizeof(*cs));
}

/* ---- capture from a device ------------------------------------------------------------ */

int vc_bof_capture(struct cedar_dev *dev, const struct drm_radeon_cs *cs, const uint64_t *bo_sizes,
                   const char *path, char *err, size_t errlen)
{
    struct vc_bof_cs c = { .ring = RADEON_CS_RING_GFX };
    const uint64_t *chunks = (const uint64_t *)(uintptr_t)cs->chunks;
    struct drm_radeon_info info = { .request = RADEON_INFO_DEVICE_ID, .value = (uintptr_t)&c.device_id };
    if (cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_INFO, &info))
        c.device_id = 0;
    for (uint32_t i = 0; chunks && i < cs->num_chunks; i++) {
        const struct drm_radeon_cs_chunk *ch = (const void *)(uintptr_t)chunks[i];
        const uint32_t *data = (const uint32_t *)(uintptr_t)ch->chunk_data;
        if (ch->chunk_id == RADEON_CHUNK_ID_IB) {
            c.ib = (uint32_t *)data;
            c.ndw = ch->length_dw;
        } else if (ch->chunk_id == RADEON_CHUNK_ID_RELOCS) {
            c.relocs = (uint32_t *)data;
            c.nrelocs = ch->length_dw / 4;
        } else if (ch->chunk_id == RADEON_CHUNK_ID_FLAGS && ch->length_dw) {
            c.flags = data[0];
            if (ch->length_dw > 1)
                c.ring = data[1];
        }
    }
    if (!c.ib)
        return bof_err(err, errlen, "capture: the CS has no IB");
    c.bos = calloc(c.nrelocs ? c.nrelocs : 1, sizeof(*c.bos));
    if (!c.bos)
        return bof_err(err, errlen, "capture: out of memory");
    int r = 0;
    for (uint32_t i = 0; i < c.nrelocs && !r; i++) {
        const struct drm_radeon_cs_reloc *rl = (const void *)&c.relocs[i * 4];
        struct vc_bof_bo *b = &c.bos[i];
        b->handle = rl->handle;
        b->size = (uint32_t)bo_sizes[i];
        b->domain = rl->write_domain ? rl->write_domain : rl->read_domains;
        struct drm_radeon_gem_get_tiling t = { .handle = rl->handle };
        if (!cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_GET_TILING, &t)) {
            b->tiling_flags = t.tiling_flags;
            b->pitch = t.pitch;
        }
        struct drm_radeon_gem_mmap m = { .handle = rl->handle, .size = bo_sizes[i] };
        void *p = NULL;
        if (bo_sizes[i] > UINT32_MAX || cedar_dev_ioctl(dev, DRM_IOCTL_RADEON_GEM_MMAP, &m) ||
            !(p = cedar_dev_mmap(dev, m.addr_ptr, bo_sizes[i]))) {
            r = bof_err(err, errlen, "capture: cannot map buffer %u (handle %u)", i, rl->handle);
            break;
        }
        b->data = malloc(b->size ? b->size : 1);
        if (b->data)
            memcpy(b->data, p, b->size);
        cedar_dev_munmap(dev, p, bo_sizes[i]);
        c.nbos++;
        if (!b->data)
            r = bof_err(err, errlen, "capture: out of memory");
    }
    if (!r)
        r = vc_bof_write(path, &c, err, errlen);
    for (uint32_t i = 0; i < c.nbos; i++)
        free(c.bos[i].data);
    free(c.bos);
    return r;
}
