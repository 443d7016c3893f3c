/* Whole-file read (transparently gunzipping via zlib's gzread) and write
 * (blocks known to be zeros never read, see cedar/image.h). */
#include "cedar/image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

int cedar_file_read(const char *path, size_t max_size, uint8_t **data, size_t *size,
                    struct cedar_image_err *err)
{
    *data = NULL;
    *size = 0;
    gzFile f = gzopen(path, "rb");
    if (!f) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno ? errno : ENOENT));
        return -1;
    }
    size_t cap = 1 << 20, len = 0;
    uint8_t *buf = malloc(cap);
    int rc = -1;
    while (buf) {
        if (len == cap) {
            if (cap > max_size) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%s: larger than %zu bytes", path, max_size);
                break;
            }
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb)
                break;
            buf = nb;
            cap *= 2;
        }
        size_t want = cap - len;
        if (want > (1u << 30))
            want = 1u << 30;
        int n = gzread(f, buf + len, (unsigned)want);
        if (n < 0) {
            int zerr;
            const char *msg = gzerror(f, &zerr);
            if (err) {
                if (zerr == Z_ERRNO)   /* gzerror's text already names the path */
                    snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
                else {
                    size_t pl = strlen(path);   /* gzerror says "PATH: what" */
                    if (!strncmp(msg, path, pl) && !strncmp(msg + pl, ": ", 2))
                        msg += pl + 2;
                    snprintf(err->msg, sizeof err->msg, "%s: corrupt gzip data (%s)", path, msg);
                }
            }
            break;
        }
        if (n == 0) {
            /* gzread hands back what it could decompress of a cut-off gzip
             * stream and flags the end as Z_BUF_ERROR (zlib.h, gzread) */
            int zerr;
            gzerror(f, &zerr);
            if (zerr == Z_BUF_ERROR) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%s: truncated gzip data (the stream ends after %zu bytes)",
                             path, len);
                break;
            }
            if (len > max_size) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%s: larger than %zu bytes", path, max_size);
                break;
            }
            rc = 0;
            break;
        }
        len += (size_t)n;
    }
    gzclose(f);
    if (rc != 0) {
        if (!buf && err)
            snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        free(buf);
        return -1;
    }
    *data = buf;
    *size = len;
    return 0;
}

#define BLOCK 4096u
/* A run of known-zero blocks at least this long becomes a hole (lseek) in a
 * regular file; shorter ones are written from a zero buffer.  Holes save the
 * page cache the zeros would fill, but each extent between them costs its
 * own discard when the file is later truncated or removed (on a file system
 * mounted with -o discard, as here: a file with ~100 holes measured 0.8 s to
 * truncate), so only long runs are worth one. */
#define HOLE_MIN_BLOCKS 256u   /* 1 MiB */
#define IOV_BATCH 256u

static const uint8_t zeros[BLOCK];

struct block_writer {
    int fd;
    struct iovec iov[IOV_BATCH];
    unsigned n;
    int bad;
};

static void flush_iov(struct block_writer *w)
{
    struct iovec *v = w->iov;
    unsigned n = w->n;
    while (n > 0 && !w->bad) {
        ssize_t k = writev(w->fd, v, (int)n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            w->bad = 1;
            break;
        }
        while (n > 0 && (size_t)k >= v->iov_len) {
            k -= (ssize_t)v->iov_len;
            v++;
            n--;
        }
        if (n > 0) {
            v->iov_base = (uint8_t *)v->iov_base + k;
            v->iov_len -= (size_t)k;
        }
    }
    w->n = 0;
}

static void add_iov(struct block_writer *w, const void *p, size_t len)
{
    if (w->n > 0 && (const uint8_t *)w->iov[w->n - 1].iov_base + w->iov[w->n - 1].iov_len == p) {
        w->iov[w->n - 1].iov_len += len;   /* contiguous with the last piece */
        return;
    }
    if (w->n == IOV_BATCH)
        flush_iov(w);
    w->iov[w->n].iov_base = (void *)(uintptr_t)p;
    w->iov[w->n].iov_len = len;
    w->n++;
}

int cedar_file_write(const char *path, const void *data, size_t size, struct cedar_image_err *err)
{
    return cedar_file_write_known(path, data, size, NULL, err);
}

int cedar_file_write_known(const char *path, const void *data, size_t size, const uint8_t *known_zero,
                           struct cedar_image_err *err)
{
    struct block_writer w = {.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)};
    if (w.fd < 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* Known-zero blocks are never read: written from `zeros`, or skipped
     * as a hole where the file is a regular one (then the size is set at
     * the end, so that a zero tail still counts). */
    struct stat st;
    bool holes = known_zero && fstat(w.fd, &st) == 0 && S_ISREG(st.st_mode);
    const uint8_t *p = data;
    size_t nblocks = (size_t)((size + BLOCK - 1) / BLOCK), b = 0;
    bool ends_in_hole = false;
    while (b < nblocks && !w.bad) {
        size_t len = b + 1 < nblocks ? BLOCK : size - b * BLOCK;
        if (!known_zero || !known_zero[b]) {
            add_iov(&w, p + b * BLOCK, len);
            b++;
            continue;
        }
        size_t e = b;
        while (e < nblocks && known_zero[e])
            e++;
        if (holes && e - b >= HOLE_MIN_BLOCKS) {
            flush_iov(&w);
            off_t to = (off_t)(e < nblocks ? e * BLOCK : size);
            if (lseek(w.fd, to, SEEK_SET) != to)
                w.bad = 1;
            ends_in_hole = e == nblocks;
        } else {
            for (size_t k = b; k < e; k++)
                add_iov(&w, zeros, k + 1 < nblocks ? BLOCK : size - k * BLOCK);
        }
        b = e;
    }
    flush_iov(&w);
    if (!w.bad && ends_in_hole && ftruncate(w.fd, (off_t)size) != 0)
        w.bad = 1;
    if (close(w.fd) != 0)
        w.bad = 1;
    if (w.bad) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
