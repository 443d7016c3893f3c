/* The demo on the virtual Cedar, through the same seam a card owner's run
 * takes: the device answers as an HD 7350 (tiling facts from the device),
 * every command buffer is accepted by the virtual kernel's checker (strict
 * mode, modelled on evergreen_cs.c), and --capture's files read back with
 * the BOF reader hold exactly the IBs, relocations and buffer contents that
 * were submitted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cedar/demo.h"
#include "cedar/pci.h"
#include "cedar/vc_bof.h"
#include "cedar/vcedar.h"

static void virtual_answers_as_a_cedar(void **state)
{
    (void)state;
    struct cedar_dev *dev;
    char err[256];
    assert_int_equal(cedar_demo_open_virtual(&dev, err, sizeof err), 0);
    struct cedar_dev_facts f;
    assert_int_equal(cedar_dev_query_facts(dev, &f, err, sizeof err), 0);
    assert_true(cedar_pci_is_cedar((uint16_t)f.device_id));
    struct cedar_tiling t;
    assert_int_equal(cedar_tiling_from_config(f.tiling_config, &t), 0);
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    assert_memory_equal(&t, &cfg.tiling, sizeof t);
    cedar_dev_destroy(dev);
}

static void run_and_capture(unsigned samples)
{
    struct cedar_demo_config cfg;
    cedar_demo_config_default(&cfg);
    cfg.samples = samples;
    cfg.width = 256;     /* small: the capture holds every buffer */
    cfg.height = 128;
    struct cedar_demo_plan plan;
    char err[256];
    assert_int_equal(cedar_demo_plan_build(&cfg, &plan, err, sizeof err), 0);
    struct cedar_dev *dev;
    assert_int_equal(cedar_demo_open_virtual(&dev, err, sizeof err), 0);

    char dir[] = "/tmp/cedar-demo-cap-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/frame.bof", dir);
    struct cedar_demo_capture cap;
    struct cedar_demo_hook hook;
    cedar_demo_capture_init(&cap, path, 0x68F9, &hook);
    struct cedar_demo_result res;
    if (cedar_demo_run(dev, &plan, &hook, &res, err, sizeof err) != 0)
        fail_msg("run: %s (%s)", err, cap.err);
    assert_int_equal(cap.files, plan.nibs);
    assert_int_equal(res.submissions, plan.nibs);

    for (unsigned i = 0; i < plan.nibs; i++) {
        char f[300];
        snprintf(f, sizeof f, "%s/frame.%03u.bof", dir, i);
        struct vc_bof_cs cs;
        if (vc_bof_read(f, &cs, err, sizeof err) != 0)
            fail_msg("%s: %s", f, err);
        const struct cedar_cmdbuf *cb = &plan.ibs[i].cb;
        assert_int_equal(cs.ndw, cb->ndw);
        assert_memory_equal(cs.ib, cb->dw, cb->ndw * 4);
        assert_int_equal(cs.nrelocs, cb->nrelocs);
        assert_int_equal(cs.nbos, cb->nrelocs);
        assert_int_equal(cs.device_id, 0x68F9);
        for (unsigned r = 0; r < cs.nbos; r++) {
            unsigned id = cb->relocs[r].handle - 1;
            assert_int_equal(cs.bos[r].size, plan.bufs[id].size);
            if (id == CEDAR_DEMO_BUF_SHADERS)
                assert_memory_equal(cs.bos[r].data, plan.shader_code, plan.shader_size);
            if (id == CEDAR_DEMO_BUF_VERTICES)
                assert_memory_equal(cs.bos[r].data, plan.vertices, plan.vertices_size);
        }
        vc_bof_free(&cs);
        unlink(f);
    }
    rmdir(dir);
    cedar_demo_result_free(&res);
    cedar_dev_destroy(dev);
    cedar_demo_plan_free(&plan);
}

static void runs_and_captures_8x(void **state)
{
    (void)state;
    run_and_capture(8);
}

static void runs_and_captures_1x(void **state)
{
    (void)state;
    run_and_capture(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(virtual_answers_as_a_cedar),
        cmocka_unit_test(runs_and_captures_8x),
        cmocka_unit_test(runs_and_captures_1x),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
