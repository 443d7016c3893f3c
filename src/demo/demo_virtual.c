/* Opening the virtual Cedar (src/vcedar/: the radeon kernel interface, its
 * command-stream checker, command processor and renderer) behind the same
 * ioctl seam as the real kernel. */
#include <stdio.h>
#include <string.h>

#include "cedar/demo.h"
#include "cedar/vcedar.h"

int cedar_demo_open_virtual(struct cedar_dev **dev, char *err, size_t errlen)
{
    return cedar_demo_open_virtual_poisoned(false, dev, err, errlen);
}

int cedar_demo_open_virtual_poisoned(bool poison_state, struct cedar_dev **dev, char *err, size_t errlen)
{
    struct vcedar_opts o = { .poison_state = poison_state };
    int rc = cedar_dev_open_virtual(&o, dev);
    if (rc != 0) {
        *dev = NULL;
        snprintf(err, errlen, "cannot start the virtual Cedar: %s", strerror(-rc));
        return -1;
    }
    return 0;
}

int cedar_demo_device_fault(struct cedar_dev *dev, char *buf, size_t len)
{
    /* A GPU fault does not fail the CS ioctl (the kernel had accepted the
     * submission); the virtual Cedar records the first one.  The real
     * kernel has no such report: there the frame is the evidence. */
    struct vcedar *vc = vcedar_of(dev);
    if (len)
        buf[0] = '\0';
    if (!vc)
        return 0;
    const struct vc_error *e = vcedar_exec_error(vc);
    if (e->code == VC_OK)
        return 0;
    vc_error_format(e, buf, len);
    return 1;
}

int cedar_demo_zero_pages(struct cedar_dev *dev, const void *ptr, size_t len, uint8_t *zero)
{
    struct vcedar *vc = vcedar_of(dev);
    return vc ? vcedar_zero_pages(vc, ptr, len, zero) : -1;
}
