#ifndef EASEL_HARFBUZZ_SHIM_H
#define EASEL_HARFBUZZ_SHIM_H
// HarfBuzz shapes text: kerning, ligatures, marks, complex scripts. Fonts are read from
// their files with HarfBuzz's own OpenType functions, never looked up by name.
#include <hb.h>
#include <hb-ot.h>
#endif
