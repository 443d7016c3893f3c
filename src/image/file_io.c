/* Whole-file read (transparently gunzipping via zlib's gzread) and write. */
#include "cedar/image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int cedar_file_write(const char *path, const void *data, size_t size, struct cedar_image_err *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t n = fwrite(data, 1, size, f);
    int bad = n != size;
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: write failed", path);
        return -1;
    }
    return 0;
}
