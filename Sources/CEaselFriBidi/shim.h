#ifndef EASEL_FRIBIDI_SHIM_H
#define EASEL_FRIBIDI_SHIM_H
// FriBidi resolves the Unicode bidirectional algorithm: which runs of a line read right to left.
#include <fribidi/fribidi.h>
#endif
