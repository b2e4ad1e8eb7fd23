#ifndef EASEL_CAIRO_SHIM_H
#define EASEL_CAIRO_SHIM_H
// Everything Easel uses from cairo: the core API, FreeType fonts, and the vector surfaces.
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
