// The measurement behind Easel's text stack (docs/fonts.md, "HarfBuzz and FriBidi, not
// Pango"): `make text-bench`. Lays out the same lines with HarfBuzz + FriBidi (as Easel
// does: fonts opened by file, one shaping call per run) and with Pango (pangocairo, its font
// map restricted by a fontconfig configuration to the very same files), and prints the time
// per line and the font each picked for every line.
#include <fontconfig/fontconfig.h>
#include <fribidi.h>
#include <hb.h>
#include <hb-ot.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *lines[] = {
    "AV To WAVE Ta", "مرحبا بالعالم", "שלום עולם 123", "สวัสดีครับ", "नमस्ते दुनिया", "你好世界 こんにちは",
    "Hello שלום world",
};
static const char *files[] = {
    "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
};
enum { FILES = sizeof files / sizeof *files, LINES = sizeof lines / sizeof *lines, RUNS = 2000 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

// HarfBuzz + FriBidi: per character, the first font with a glyph; runs of one font and
// level shaped separately (the same work as Easel's layout, minus its Swift bookkeeping).
static hb_font_t *fonts[FILES];
static int harfbuzz_line(const char *utf8, int *first_font) {
    uint32_t text[256];
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)utf8; *p && n < 256;) {
        uint32_t c = *p++;
        if (c >= 0xF0) { c = (c & 7) << 18 | (p[0] & 63) << 12 | (p[1] & 63) << 6 | (p[2] & 63); p += 3; }
        else if (c >= 0xE0) { c = (c & 15) << 12 | (p[0] & 63) << 6 | (p[1] & 63); p += 2; }
        else if (c >= 0xC0) { c = (c & 31) << 6 | (p[0] & 63); p += 1; }
        text[n++] = c;
    }
    FriBidiCharType types[256];
    FriBidiBracketType brackets[256];
    FriBidiLevel levels[256];
    FriBidiParType direction = FRIBIDI_PAR_ON;
    fribidi_get_bidi_types(text, n, types);
    fribidi_get_bracket_types(text, n, types, brackets);
    if (!fribidi_get_par_embedding_levels_ex(types, brackets, n, &direction, levels)) return 0;
    int font_of[256];
    for (int i = 0; i < n; i++) {
        font_of[i] = 0;
        hb_codepoint_t g;
        for (int f = 0; f < FILES; f++)
            if (hb_font_get_nominal_glyph(fonts[f], text[i], &g)) { font_of[i] = f; break; }
        if (text[i] == ' ' && i > 0) font_of[i] = font_of[i - 1];
    }
    *first_font = font_of[0];
    int glyphs = 0;
    hb_buffer_t *buffer = hb_buffer_create();
    for (int start = 0; start < n;) {
        int end = start + 1;
        while (end < n && font_of[end] == font_of[start] && levels[end] == levels[start]) end++;
        hb_buffer_clear_contents(buffer);
        hb_buffer_add_utf32(buffer, text, n, start, end - start);
        hb_buffer_set_direction(buffer, levels[start] % 2 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
        hb_buffer_guess_segment_properties(buffer);
        hb_shape(fonts[font_of[start]], buffer, NULL, 0);
        glyphs += hb_buffer_get_length(buffer);
        start = end;
    }
    hb_buffer_destroy(buffer);
    return glyphs;
}

int main(void) {
    for (int f = 0; f < FILES; f++) {
        hb_blob_t *blob = hb_blob_create_from_file(files[f]);
        hb_face_t *face = hb_face_create(blob, 0);
        fonts[f] = hb_font_create(face);
        hb_face_destroy(face);
        hb_blob_destroy(blob);
    }
    // Pango over a fontconfig configuration that knows only the same files.
    FcConfig *config = FcConfigCreate();
    for (int f = 0; f < FILES; f++) FcConfigAppFontAddFile(config, (const FcChar8 *)files[f]);
    PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    PangoContext *context = pango_font_map_create_context(map);
    PangoFontDescription *description = pango_font_description_from_string("Open Sans 30");

    printf("| line | HarfBuzz + FriBidi | Pango | Pango / HarfBuzz | first font (HarfBuzz, Pango) |\n|---|---|---|---|---|\n");
    double total_hb = 0, total_pango = 0;
    for (int l = 0; l < LINES; l++) {
        int first = 0;
        double start = now();
        for (int r = 0; r < RUNS; r++) harfbuzz_line(lines[l], &first);
        double hb = (now() - start) / RUNS * 1e6;
        char pango_font[128] = "?";
        start = now();
        for (int r = 0; r < RUNS; r++) {
            PangoLayout *layout = pango_layout_new(context);
            pango_layout_set_font_description(layout, description);
            pango_layout_set_text(layout, lines[l], -1);
            PangoRectangle ink, logical;
            pango_layout_get_pixel_extents(layout, &ink, &logical);
            if (r == 0) {
                PangoLayoutIter *iter = pango_layout_get_iter(layout);
                PangoGlyphItem *run = pango_layout_iter_get_run_readonly(iter);
                if (run) {
                    PangoFontDescription *used = pango_font_describe(run->item->analysis.font);
                    snprintf(pango_font, sizeof pango_font, "%s", pango_font_description_get_family(used));
                    pango_font_description_free(used);
                }
                pango_layout_iter_free(iter);
            }
            g_object_unref(layout);
        }
        double pango = (now() - start) / RUNS * 1e6;
        total_hb += hb;
        total_pango += pango;
        const char *name = strrchr(files[first], '/') + 1;
        printf("| %s | %.1f µs | %.1f µs | %.1fx | %s, %s |\n", lines[l], hb, pango, pango / hb, name, pango_font);
    }
    printf("| all lines | %.1f µs | %.1f µs | %.1fx | |\n", total_hb, total_pango, total_pango / total_hb);
    return 0;
}
