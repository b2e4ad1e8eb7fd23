#ifndef EASEL_HARFBUZZ_H
#define EASEL_HARFBUZZ_H
// HarfBuzz shapes text: kerning, ligatures, marks, complex scripts. Fonts are read from
// their files with HarfBuzz's own OpenType functions, never looked up by name. Opened on
// first use (easel_on_demand.h): call the easel_hb_ functions, not HarfBuzz's own.
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>

#ifdef __cplusplus
extern "C" {
#endif

// Whether HarfBuzz can be used: opens it on the first call (1), or 0, and then
// `easel_harfbuzz_error` says why.
int easel_harfbuzz_open(void);
// Why HarfBuzz could not be opened (the dynamic loader's message), or NULL.
const char *easel_harfbuzz_error(void);

const char *easel_hb_version_string(void);
hb_script_t easel_hb_unicode_script(hb_unicode_funcs_t *ufuncs, hb_codepoint_t unicode);
hb_unicode_funcs_t *easel_hb_unicode_funcs_get_default(void);
void easel_hb_shape(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned int num_features);
hb_language_t easel_hb_language_get_default(void);
hb_bool_t easel_hb_font_get_nominal_glyph(hb_font_t *font, hb_codepoint_t unicode, hb_codepoint_t *glyph);
void easel_hb_font_destroy(hb_font_t *font);
hb_font_t *easel_hb_font_create(hb_face_t *face);
hb_bool_t easel_hb_feature_from_string(const char *str, int len, hb_feature_t *feature);
unsigned int easel_hb_face_get_upem(const hb_face_t *face);
void easel_hb_face_destroy(hb_face_t *face);
hb_face_t *easel_hb_face_create(hb_blob_t *blob, unsigned int index);
void easel_hb_buffer_set_script(hb_buffer_t *buffer, hb_script_t script);
void easel_hb_buffer_set_language(hb_buffer_t *buffer, hb_language_t language);
void easel_hb_buffer_set_direction(hb_buffer_t *buffer, hb_direction_t direction);
void easel_hb_buffer_set_cluster_level(hb_buffer_t *buffer, hb_buffer_cluster_level_t cluster_level);
hb_glyph_position_t *easel_hb_buffer_get_glyph_positions(hb_buffer_t *buffer, unsigned int *length);
hb_glyph_info_t *easel_hb_buffer_get_glyph_infos(hb_buffer_t *buffer, unsigned int *length);
void easel_hb_buffer_destroy(hb_buffer_t *buffer);
hb_buffer_t *easel_hb_buffer_create(void);
void easel_hb_blob_destroy(hb_blob_t *blob);
hb_blob_t *easel_hb_blob_create_from_file_or_fail(const char *file_name);
void easel_hb_buffer_add_utf32(hb_buffer_t *buffer, const uint32_t *text, int text_length, unsigned int item_offset, int item_length);

#ifdef __cplusplus
}
#endif

#endif
