/* Structured rejections: a stable code, the dword, the register or packet,
 * one line of text. */
#include <stdio.h>
#include <string.h>

#include "vc_internal.h"

static const char *const code_names[VC_E_COUNT_] = {
    [VC_OK] = "ok",
    [VC_E_CHUNKS] = "chunks",
    [VC_E_RING] = "ring",
    [VC_E_BO_HANDLE] = "bo-handle",
    [VC_E_BO_DOMAIN] = "bo-domain",
    [VC_E_PKT_TYPE] = "packet-type",
    [VC_E_PKT_TRUNCATED] = "packet-truncated",
    [VC_E_PKT_COUNT] = "packet-count",
    [VC_E_PKT_UNSUPPORTED] = "packet-unsupported",
    [VC_E_PKT_OPERAND] = "packet-operand",
    [VC_E_RELOC_NO_CHUNK] = "reloc-no-chunk",
    [VC_E_RELOC_MISSING] = "reloc-missing",
    [VC_E_RELOC_RANGE] = "reloc-range",
    [VC_E_REG_RANGE] = "reg-range",
    [VC_E_REG_FORBIDDEN] = "reg-forbidden",
    [VC_E_CB_NO_BO] = "cb-no-bo",
    [VC_E_CB_FORMAT] = "cb-format",
    [VC_E_SURF_TILING] = "surf-tiling",
    [VC_E_SURF_ARRAY_MODE] = "surf-array-mode",
    [VC_E_SURF_PITCH] = "surf-pitch",
    [VC_E_SURF_HEIGHT] = "surf-height",
    [VC_E_SURF_BASE_ALIGN] = "surf-base-align",
    [VC_E_SURF_SIZE] = "surf-size",
    [VC_E_DB] = "db",
    [VC_E_TEXTURE] = "texture",
    [VC_E_VERTEX] = "vertex",
    [VC_E_STREAMOUT] = "streamout",
    [VC_E_BO_RANGE] = "bo-range",
    [VC_E_CMASK_SIZE] = "cmask-size",
    [VC_E_FMASK_SIZE] = "fmask-size",
    [VC_E_ADDR_RANGE] = "addr-range",
    [VC_E_DMA_PACKET] = "dma-packet",
    [VC_E_EXEC] = "exec",
};

const char *vc_err_code_name(enum vc_err_code code)
{
    if ((unsigned)code >= VC_E_COUNT_ || !code_names[code])
        return "unknown";
    return code_names[code];
}

void vc_error_format(const struct vc_error *e, char *buf, size_t len)
{
    if (!len)
        return;
    if (e->code == VC_OK) {
        snprintf(buf, len, "accepted");
        return;
    }
    snprintf(buf, len, "dword 0x%X: %s [%s]", e->dword, e->text, vc_err_code_name(e->code));
}

int vc_fail(struct vc_error *err, enum vc_err_code code, uint32_t dword, const char *what,
            const char *fmt, ...)
{
    if (err) {
        err->code = code;
        err->dword = dword;
        snprintf(err->what, sizeof(err->what), "%s", what ? what : "");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof(err->text), fmt, ap);
        va_end(ap);
    }
    return -1;
}
