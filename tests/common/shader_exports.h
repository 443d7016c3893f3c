/* Whether two shader runs exported the same values: only what the program
 * exported counts (the rest of an output struct is whatever the caller's
 * struct held).  Shared by the interpreter tests and the shader fuzz target. */
#ifndef CEDAR_TESTS_SHADER_EXPORTS_H
#define CEDAR_TESTS_SHADER_EXPORTS_H

#include <stdbool.h>
#include <string.h>

#include "cedar/shader.h"

static inline bool test_vs_exports_equal(const struct eg_vs_output *a, const struct eg_vs_output *b)
{
    if (a->pos_mask != b->pos_mask || a->param_mask != b->param_mask)
        return false;
    for (unsigned k = 0; k < 4; k++)
        if ((a->pos_mask >> k & 1) && memcmp(&a->pos[k], &b->pos[k], sizeof a->pos[k]))
            return false;
    for (unsigned k = 0; k < 32; k++)
        if ((a->param_mask >> k & 1) && memcmp(&a->param[k], &b->param[k], sizeof a->param[k]))
            return false;
    return true;
}

static inline bool test_ps_exports_equal(const struct eg_ps_output *a, const struct eg_ps_output *b)
{
    if (a->color_mask != b->color_mask || a->killed != b->killed || a->depth_written != b->depth_written)
        return false;
    if (a->depth_written && memcmp(&a->depth, &b->depth, sizeof a->depth))
        return false;
    for (unsigned k = 0; k < 8; k++)
        if ((a->color_mask >> k & 1) && memcmp(&a->color[k], &b->color[k], sizeof a->color[k]))
            return false;
    return true;
}

#endif
