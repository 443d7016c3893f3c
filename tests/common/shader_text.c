/* A shader's disassembly as text (test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "cedar/shader.h"
#include "tests/common/test_util.h"

char *test_disasm(const uint32_t *w, size_t ndw)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(eg_shader_disasm(w, ndw, f, NULL), EG_DISASM_OK);
    fclose(f);
    return text;
}
