#include "easel_harfbuzz.h"

#include <easel_on_demand.h>

#define CALL(name) EASEL_ON_DEMAND(EASEL_LIBRARY_HARFBUZZ, name)

int easel_harfbuzz_open(void) { return easel_library_open(EASEL_LIBRARY_HARFBUZZ); }

const char *easel_harfbuzz_error(void) { return easel_library_error(EASEL_LIBRARY_HARFBUZZ); }

const char *easel_hb_version_string(void) { return CALL(hb_version_string)(); }

hb_script_t easel_hb_unicode_script(hb_unicode_funcs_t *ufuncs, hb_codepoint_t unicode) { return CALL(hb_unicode_script)(ufuncs, unicode); }

hb_unicode_funcs_t *easel_hb_unicode_funcs_get_default(void) { return CALL(hb_unicode_funcs_get_default)(); }

void easel_hb_shape(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features, unsigned int num_features) { CALL(hb_shape)(font, buffer, features, num_features); }

hb_language_t easel_hb_language_get_default(void) { return CALL(hb_language_get_default)(); }

hb_bool_t easel_hb_font_get_nominal_glyph(hb_font_t *font, hb_codepoint_t unicode, hb_codepoint_t *glyph) { return CALL(hb_font_get_nominal_glyph)(font, unicode, glyph); }

void easel_hb_font_destroy(hb_font_t *font) { CALL(hb_font_destroy)(font); }

hb_font_t *easel_hb_font_create(hb_face_t *face) { return CALL(hb_font_create)(face); }

hb_bool_t easel_hb_feature_from_string(const char *str, int len, hb_feature_t *feature) { return CALL(hb_feature_from_string)(str, len, feature); }

unsigned int easel_hb_face_get_upem(const hb_face_t *face) { return CALL(hb_face_get_upem)(face); }

void easel_hb_face_destroy(hb_face_t *face) { CALL(hb_face_destroy)(face); }

hb_face_t *easel_hb_face_create(hb_blob_t *blob, unsigned int index) { return CALL(hb_face_create)(blob, index); }

void easel_hb_buffer_set_script(hb_buffer_t *buffer, hb_script_t script) { CALL(hb_buffer_set_script)(buffer, script); }

void easel_hb_buffer_set_language(hb_buffer_t *buffer, hb_language_t language) { CALL(hb_buffer_set_language)(buffer, language); }

void easel_hb_buffer_set_direction(hb_buffer_t *buffer, hb_direction_t direction) { CALL(hb_buffer_set_direction)(buffer, direction); }

void easel_hb_buffer_set_cluster_level(hb_buffer_t *buffer, hb_buffer_cluster_level_t cluster_level) { CALL(hb_buffer_set_cluster_level)(buffer, cluster_level); }

hb_glyph_position_t *easel_hb_buffer_get_glyph_positions(hb_buffer_t *buffer, unsigned int *length) { return CALL(hb_buffer_get_glyph_positions)(buffer, length); }

hb_glyph_info_t *easel_hb_buffer_get_glyph_infos(hb_buffer_t *buffer, unsigned int *length) { return CALL(hb_buffer_get_glyph_infos)(buffer, length); }

void easel_hb_buffer_destroy(hb_buffer_t *buffer) { CALL(hb_buffer_destroy)(buffer); }

hb_buffer_t *easel_hb_buffer_create(void) { return CALL(hb_buffer_create)(); }

void easel_hb_blob_destroy(hb_blob_t *blob) { CALL(hb_blob_destroy)(blob); }

hb_blob_t *easel_hb_blob_create_from_file_or_fail(const char *file_name) { return CALL(hb_blob_create_from_file_or_fail)(file_name); }

void easel_hb_buffer_add_utf32(hb_buffer_t *buffer, const uint32_t *text, int text_length, unsigned int item_offset, int item_length) { CALL(hb_buffer_add_utf32)(buffer, text, text_length, item_offset, item_length); }
