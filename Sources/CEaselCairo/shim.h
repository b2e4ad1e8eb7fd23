#ifndef EASEL_CAIRO_SHIM_H
#define EASEL_CAIRO_SHIM_H
// Everything Easel uses from cairo: the core API, FreeType fonts, and the vector surfaces.
#include <cairo/cairo.h>
#include <cairo/cairo-ft.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
#endif
