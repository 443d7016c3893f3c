/* Opening the virtual Cedar (src/vcedar/, cedar_dev_open_virtual in
 * include/cedar/vcedar.h).
 *
 * TODO(vcedar): the virtual Cedar has not landed in main yet; until it
 * does, opening it fails with that reason (nothing pretends to be a GPU). */
#include <stdio.h>

#include "cedar/demo.h"

int cedar_demo_open_virtual(struct cedar_dev **dev, char *err, size_t errlen)
{
    *dev = NULL;
    snprintf(err, errlen, "the virtual Cedar (src/vcedar) is not built into this tree yet");
    return -1;
}
