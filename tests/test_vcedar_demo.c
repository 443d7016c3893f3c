/* The demo's own command streams on the virtual Cedar: every sample count,
 * both checker modes, every CS accepted; and what the CP executed is where
 * the layout library (not the model) says it should be: after the MSAA
 * fast clear the CMask holds zeros (Mesa: "CMask filled with 0 by CP_DMA"). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cedar/demo.h"
#include "cedar/vcedar.h"

static void run(unsigned samples, enum vc_check_mode mode)
{
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    cfg.samples = samples;
    struct cedar_demo_plan plan;
    char err[256];
    if (cedar_demo_plan_build(&cfg, &plan, err, sizeof(err)))
        fail_msg("%ux plan: %s", samples, err);
    struct vcedar_opts o = { .mode = mode, .no_render = true };
    struct cedar_dev *dev;
    assert_int_equal(cedar_dev_open_virtual(&o, &dev), 0);
    struct cedar_demo_result res;
    memset(&res, 0, sizeof(res));
    if (cedar_demo_run(dev, &plan, NULL, &res, err, sizeof(err)))
        fail_msg("%ux %s: %s", samples, mode == VC_CHECK_STRICT ? "strict" : "kernel", err);
    struct vcedar_stats st;
    vcedar_stats(vcedar_of(dev), &st);
    assert_int_equal(st.cs_rejected, 0);
    assert_int_equal(st.cs_submitted, plan.nibs);
    assert_true(st.draws >= 1);
    if (samples > 1 && cfg.fast_clear) {
        const struct cedar_cmask *cm = &plan.layout.cmask;
        assert_true(cm->size > 0);
        assert_true(cm->offset + cm->size <= res.color_size);
        for (uint64_t i = 0; i < cm->size; i++)
            if (res.color[cm->offset + i] != 0)
                fail_msg("%ux: CMask byte %llu is 0x%02X after the fast clear", samples,
                         (unsigned long long)i, res.color[cm->offset + i]);
    }
    cedar_demo_result_free(&res);
    cedar_demo_plan_free(&plan);
    cedar_dev_destroy(dev);
}

static void demo_streams_strict(void **state)
{
    (void)state;
    for (unsigned s = 1; s <= 8; s *= 2)
        run(s, VC_CHECK_STRICT);
}

static void demo_streams_kernel(void **state)
{
    (void)state;
    for (unsigned s = 1; s <= 8; s *= 2)
        run(s, VC_CHECK_KERNEL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demo_streams_strict),
        cmocka_unit_test(demo_streams_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
