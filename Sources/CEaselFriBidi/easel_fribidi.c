#include "easel_fribidi.h"

#include <easel_on_demand.h>

#define CALL(name) EASEL_ON_DEMAND(EASEL_LIBRARY_FRIBIDI, name)

int easel_fribidi_open(void) { return easel_library_open(EASEL_LIBRARY_FRIBIDI); }

const char *easel_fribidi_error(void) { return easel_library_error(EASEL_LIBRARY_FRIBIDI); }

void easel_fribidi_get_bidi_types(const FriBidiChar *str, const FriBidiStrIndex len, FriBidiCharType *btypes) {
    CALL(fribidi_get_bidi_types)(str, len, btypes);
}

void easel_fribidi_get_bracket_types(const FriBidiChar *str, const FriBidiStrIndex len, const FriBidiCharType *types,
                                     FriBidiBracketType *btypes) {
    CALL(fribidi_get_bracket_types)(str, len, types, btypes);
}

FriBidiLevel easel_fribidi_get_par_embedding_levels_ex(const FriBidiCharType *bidi_types,
                                                       const FriBidiBracketType *bracket_types,
                                                       const FriBidiStrIndex len, FriBidiParType *pbase_dir,
                                                       FriBidiLevel *embedding_levels) {
    return CALL(fribidi_get_par_embedding_levels_ex)(bidi_types, bracket_types, len, pbase_dir, embedding_levels);
}
