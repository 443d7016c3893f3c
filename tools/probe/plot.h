/* A line plot as a PNG (cedar-probe reuse's ATVR against cache size): axes,
 * grid lines, one coloured curve per series, a legend, numbers and labels in
 * a built-in 5x7 pixel font. */
#ifndef CEDAR_PROBE_PLOT_H
#define CEDAR_PROBE_PLOT_H

#include <stddef.h>

struct plot_series {
    const char *name;
    const double *y;          /* one value per x; NaN: no point */
};

struct plot {
    const char *title, *xlabel, *ylabel;
    const double *x;          /* shared x values, increasing */
    size_t n;
    const struct plot_series *series;
    size_t nseries;
    double ymin, ymax, ystep; /* the y axis and its grid */
    double xstep;             /* grid step along x */
};

/* Writes the plot to path (width x height pixels).  0, or -1 with a reason. */
int plot_png(const struct plot *pl, unsigned width, unsigned height, const char *path, char *err, size_t errlen);

#endif
