#ifndef EASEL_FRIBIDI_H
#define EASEL_FRIBIDI_H
// FriBidi resolves the Unicode bidirectional algorithm: which runs of a line read right to
// left. Opened on first use (easel_on_demand.h): call the easel_fribidi_ functions, not
// FriBidi's own.
#include <fribidi/fribidi.h>

#ifdef __cplusplus
extern "C" {
#endif

// Whether FriBidi can be used: opens it on the first call (1), or 0, and then
// `easel_fribidi_error` says why.
int easel_fribidi_open(void);
// Why FriBidi could not be opened (the dynamic loader's message), or NULL.
const char *easel_fribidi_error(void);

void easel_fribidi_get_bidi_types(const FriBidiChar *str, const FriBidiStrIndex len, FriBidiCharType *btypes);
void easel_fribidi_get_bracket_types(const FriBidiChar *str, const FriBidiStrIndex len, const FriBidiCharType *types,
                                     FriBidiBracketType *btypes);
FriBidiLevel easel_fribidi_get_par_embedding_levels_ex(const FriBidiCharType *bidi_types,
                                                       const FriBidiBracketType *bracket_types,
                                                       const FriBidiStrIndex len, FriBidiParType *pbase_dir,
                                                       FriBidiLevel *embedding_levels);

#ifdef __cplusplus
}
#endif

#endif
