// The benchmark's baseline: a minimal C program that draws a scene with cairo and encodes
// it with libpng directly, with the same settings as Easel (grey antialiasing, unhinted
// fonts, GOOD image filter with padded edges, the same zlib level and row filter). It reads
// the scene from a replay script Easel wrote (see SceneReplayScript.swift), so both draw
// exactly the same thing; its times are the limit Easel is measured against.
//
// usage: easel-cairo-reference SCRIPT OUT.png WIDTH HEIGHT ITERATIONS LEVEL FILTER(none|sub|up|paeth|all) COLOR(rgb|rgba) [THREADS]
// THREADS (default 1): the timed rasterising draws the image in strips of 512 rows, each its
// own context over its rows of the same memory, shared among this many threads, as Easel
// draws an image of 1.5 million pixels or more; so the floor on several cores is measured
// rather than assumed (two cores of a virtual machine rarely draw twice as fast as one).
// prints: {"rasterize": [ms...], "encode": [ms...], "whole": [ms...], "decode": [ms...], "bytes": N}
// (decode: the script's images decoded again, one after another, with libpng.)

#include <cairo/cairo.h>
#include <cairo/cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <png.h>
#include <pthread.h>
#include <stdatomic.h>
#include "easel_png.h"
#include <zlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(n + 1);
    if (fread(text, 1, n, f) != (size_t)n) { perror(path); exit(1); }
    text[n] = 0;
    fclose(f);
    return text;
}

// ---- images: libpng's simplified reader, then premultiplied for cairo ----

static cairo_surface_t *load_png(const char *path) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) { fprintf(stderr, "%s: %s\n", path, image.message); exit(1); }
    image.format = PNG_FORMAT_BGRA;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, image.width, image.height);
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    if (!png_image_finish_read(&image, NULL, data, stride, NULL)) { fprintf(stderr, "%s: %s\n", path, image.message); exit(1); }
    for (unsigned y = 0; y < image.height; y++) {
        unsigned char *p = data + (size_t)y * stride;
        for (unsigned x = 0; x < image.width; x++, p += 4) {
            unsigned a = p[3];
            if (a != 255) {
                for (int c = 0; c < 3; c++) { unsigned t = p[c] * a + 0x80; p[c] = (unsigned char)((t + (t >> 8)) >> 8); }
            }
        }
    }
    cairo_surface_mark_dirty(surface);
    return surface;
}

// ---- fonts ----

static FT_Library ft;
static struct { char path[1024]; cairo_font_face_t *face; } fonts[32];
static int font_count;

static cairo_font_face_t *font_face(const char *path) {
    for (int i = 0; i < font_count; i++) if (!strcmp(fonts[i].path, path)) return fonts[i].face;
    FT_Face face;
    if (FT_New_Face(ft, path, 0, &face)) { fprintf(stderr, "cannot load %s\n", path); exit(1); }
    snprintf(fonts[font_count].path, sizeof fonts[font_count].path, "%s", path);
    fonts[font_count].face = cairo_ft_font_face_create_for_ft_face(face, 0);
    return fonts[font_count++].face;
}

// ---- the replay ----

// Per thread: the strips replay the script at once.
static _Thread_local const char *cursor;
static char *word(char *buffer, size_t size) {
    while (*cursor == ' ') cursor++;
    size_t n = 0;
    while (*cursor && *cursor != ' ' && *cursor != '\n' && n + 1 < size) buffer[n++] = *cursor++;
    buffer[n] = 0;
    return buffer;
}
static double number(void) { char b[64]; return atof(word(b, sizeof b)); }

static void path(cairo_t *cr) {
    cairo_new_path(cr);
    int count = (int)number();
    char op[8];
    for (int i = 0; i < count; i++) {
        word(op, sizeof op);
        if (op[0] == 'M') { double x = number(), y = number(); cairo_move_to(cr, x, y); }
        else if (op[0] == 'L') { double x = number(), y = number(); cairo_line_to(cr, x, y); }
        else if (op[0] == 'C') { double a = number(), b = number(), c = number(), d = number(), e = number(), f = number(); cairo_curve_to(cr, a, b, c, d, e, f); }
        else if (op[0] == 'Z') cairo_close_path(cr);
    }
}

static int clip_or_nothing(cairo_t *cr) {
    while (*cursor == ' ') cursor++;
    if (*cursor == '-') { cursor++; return 0; }
    path(cr);
    cairo_clip(cr);
    return 1;
}

static void matrix(cairo_matrix_t *m) {
    m->xx = number(); m->yx = number(); m->xy = number(); m->yy = number(); m->x0 = number(); m->y0 = number();
}

#define MAX_IMAGES 256
static struct { char path[1024]; cairo_surface_t *surface; } images[MAX_IMAGES];
static int image_count;

static cairo_surface_t *image(const char *file) {
    for (int i = 0; i < image_count; i++) if (!strcmp(images[i].path, file)) return images[i].surface;
    snprintf(images[image_count].path, sizeof images[image_count].path, "%s", file);
    images[image_count].surface = load_png(file);
    return images[image_count++].surface;
}

static void free_images(void) {
    for (int i = 0; i < image_count; i++) cairo_surface_destroy(images[i].surface);
    image_count = 0;
}

// Replays the script onto `surface`, whose first row is row `top` of a WIDTH x HEIGHT image.
static void draw_onto(cairo_surface_t *surface, const char *script, int width, int height, int top) {
    cairo_t *cr = cairo_create(surface);
    cairo_translate(cr, 0, -top);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    double opacities[64];
    int depth = 0;
    char verb[16], text[1024];
    cursor = script;
    while (*cursor) {
        word(verb, sizeof verb);
        if (!strcmp(verb, "canvas")) {
            double w = number(), h = number();
            cairo_scale(cr, width / w, height / h);
        } else if (!strcmp(verb, "fill")) {
            double r = number(), g = number(), b = number(), a = number();
            cairo_set_source_rgba(cr, r, g, b, a);
            path(cr);
            cairo_fill(cr);
        } else if (!strcmp(verb, "stroke")) {
            double r = number(), g = number(), b = number(), a = number(), w = number();
            char cap[16], join[16];
            word(cap, sizeof cap); word(join, sizeof join);
            int n = (int)number();
            double dash[64];
            for (int i = 0; i < n; i++) dash[i] = number();
            path(cr);
            cairo_set_source_rgba(cr, r, g, b, a);
            cairo_set_line_width(cr, w);
            cairo_set_line_cap(cr, cap[0] == 'r' ? CAIRO_LINE_CAP_ROUND : cap[0] == 's' ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
            cairo_set_line_join(cr, join[0] == 'r' ? CAIRO_LINE_JOIN_ROUND : join[0] == 'b' ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
            cairo_set_dash(cr, dash, n, 0);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        } else if (!strcmp(verb, "image")) {
            word(text, sizeof text);
            cairo_surface_t *source = image(text);
            cairo_matrix_t m;
            matrix(&m);
            cairo_save(cr);
            clip_or_nothing(cr);
            cairo_transform(cr, &m);
            cairo_set_source_surface(cr, source, 0, 0);
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
            cairo_new_path(cr);
            cairo_rectangle(cr, 0, 0, cairo_image_surface_get_width(source), cairo_image_surface_get_height(source));
            cairo_fill(cr);
            cairo_restore(cr);
        } else if (!strcmp(verb, "text")) {
            word(text, sizeof text);
            double size = number(), r = number(), g = number(), b = number(), a = number();
            cairo_matrix_t m;
            matrix(&m);
            int n = (int)number();
            cairo_glyph_t *glyphs = malloc(sizeof(cairo_glyph_t) * (n ? n : 1));
            for (int i = 0; i < n; i++) { glyphs[i].index = (unsigned long)number(); glyphs[i].x = number(); glyphs[i].y = number(); }
            cairo_save(cr);
            cairo_transform(cr, &m);
            cairo_set_source_rgba(cr, r, g, b, a);
            cairo_set_font_options(cr, options);
            cairo_set_font_face(cr, font_face(text));
            cairo_set_font_size(cr, size);
            cairo_show_glyphs(cr, glyphs, n);
            cairo_restore(cr);
            free(glyphs);
        } else if (!strcmp(verb, "group")) {
            double opacity = number();
            cairo_save(cr);
            clip_or_nothing(cr);
            if (opacity < 1) cairo_push_group(cr);
            opacities[depth++] = opacity;
        } else if (!strcmp(verb, "end")) {
            double opacity = opacities[--depth];
            if (opacity < 1) { cairo_pop_group_to_source(cr); cairo_paint_with_alpha(cr, opacity); }
            cairo_restore(cr);
        }
        while (*cursor && *cursor != '\n') cursor++;
        if (*cursor) cursor++;
    }
    if (cairo_status(cr)) { fprintf(stderr, "cairo: %s\n", cairo_status_to_string(cairo_status(cr))); exit(1); }
    cairo_font_options_destroy(options);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
}

static cairo_surface_t *draw(const char *script, int width, int height) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    draw_onto(surface, script, width, height, 0);
    return surface;
}

// ---- the same drawing in strips, on several threads ----

enum { STRIP_ROWS = 512 };

typedef struct {
    const char *script;
    unsigned char *data;
    int width, height, stride;
    atomic_int next;
} strips_t;

static void *draw_strips_worker(void *argument) {
    strips_t *job = argument;
    for (;;) {
        int top = atomic_fetch_add(&job->next, 1) * STRIP_ROWS;
        if (top >= job->height) return NULL;
        int rows = job->height - top < STRIP_ROWS ? job->height - top : STRIP_ROWS;
        cairo_surface_t *strip = cairo_image_surface_create_for_data(
            job->data + (size_t)top * job->stride, CAIRO_FORMAT_ARGB32, job->width, rows, job->stride);
        draw_onto(strip, job->script, job->width, job->height, top);
        cairo_surface_destroy(strip);
    }
}

static cairo_surface_t *draw_in_strips(const char *script, int width, int height, int threads) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_surface_flush(surface);
    strips_t job = {script, cairo_image_surface_get_data(surface), width, height, cairo_image_surface_get_stride(surface)};
    atomic_init(&job.next, 0);
    pthread_t workers[64];
    for (int i = 1; i < threads; i++) pthread_create(&workers[i], NULL, draw_strips_worker, &job);
    draw_strips_worker(&job);
    for (int i = 1; i < threads; i++) pthread_join(workers[i], NULL);
    cairo_surface_mark_dirty(surface);
    return surface;
}

// ---- PNG encoding with libpng ----

typedef struct { unsigned char *bytes; size_t length, capacity; } buffer_t;

static void write_to_buffer(png_structp png, png_bytep data, png_size_t n) {
    buffer_t *b = png_get_io_ptr(png);
    if (b->length + n > b->capacity) {
        while (b->length + n > b->capacity) b->capacity = b->capacity ? b->capacity * 2 : 1 << 20;
        b->bytes = realloc(b->bytes, b->capacity);
    }
    memcpy(b->bytes + b->length, data, n);
    b->length += n;
}

static void write_to_buffer_raw(buffer_t *b, const unsigned char *data, size_t n) {
    if (n == 0) return;
    if (b->length + n > b->capacity) {
        while (b->length + n > b->capacity) b->capacity = b->capacity ? b->capacity * 2 : 1 << 20;
        b->bytes = realloc(b->bytes, b->capacity);
    }
    memcpy(b->bytes + b->length, data, n);
    b->length += n;
}

static void encode(cairo_surface_t *surface, int level, int filters, int rgba, buffer_t *out) {
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { fprintf(stderr, "libpng failed\n"); exit(1); }
    png_set_write_fn(png, out, write_to_buffer, NULL);
    png_set_compression_level(png, level);
    png_set_filter(png, 0, filters);
    png_set_IHDR(png, info, width, height, 8, rgba ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    unsigned char *row = malloc((size_t)width * 4);
    for (int y = 0; y < height; y++) {
        const uint32_t *src = (const uint32_t *)(data + (size_t)y * stride);
        unsigned char *o = row;
        for (int x = 0; x < width; x++) {
            uint32_t p = src[x];
            unsigned a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            if (rgba && a && a != 255) { r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a; }
            *o++ = r; *o++ = g; *o++ = b;
            if (rgba) *o++ = a;
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
}

// The fast encoder Easel uses by default — the very band encoder (CEaselPNG's
// easel_png_encode_band: UP-filtered scanlines deflated by ISA-L level 1) — over all the
// rows as one stream on one core, with the chunks and their CRCs.
static void put32(buffer_t *b, uint32_t v) {
    unsigned char bytes[4] = {v >> 24, v >> 16, v >> 8, v};
    write_to_buffer_raw(b, bytes, 4);
}
static void chunk(buffer_t *b, const char *type, const unsigned char *data, size_t n) {
    put32(b, (uint32_t)n);
    write_to_buffer_raw(b, (const unsigned char *)type, 4);
    write_to_buffer_raw(b, data, n);
    uint32_t crc = crc32(crc32(0, (const unsigned char *)type, 4), data, (uInt)n);
    put32(b, crc);
}
static void encode_fast(cairo_surface_t *surface, int rgba, buffer_t *out) {
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    easel_png_buffer z = {0};
    uint8_t header[2] = {0x78, 0x01};
    if (!easel_png_buffer_append(&z, header, 2)) { fprintf(stderr, "out of memory\n"); exit(1); }
    uint32_t adler = 1;
    size_t filtered = 0;
    if (easel_png_encode_band(data, (uint32_t)width, (size_t)stride, 0, (uint32_t)height, rgba, 1, 1, &z, &adler,
                              &filtered) != EASEL_PNG_OK) {
        fprintf(stderr, "isal failed\n");
        exit(1);
    }
    uint8_t trailer[4] = {adler >> 24, adler >> 16, adler >> 8, adler};
    if (!easel_png_buffer_append(&z, trailer, 4)) { fprintf(stderr, "out of memory\n"); exit(1); }
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', 13, 10, 26, 10};
    write_to_buffer_raw(out, signature, 8);
    unsigned char ihdr[13] = {width >> 24, width >> 16, width >> 8, width, height >> 24, height >> 16, height >> 8, height,
                              8, rgba ? 6 : 2, 0, 0, 0};
    chunk(out, "IHDR", ihdr, 13);
    static const unsigned char srgb[1] = {0};
    chunk(out, "sRGB", srgb, 1);
    chunk(out, "IDAT", z.bytes, z.length);
    chunk(out, "IEND", NULL, 0);
    easel_png_buffer_free(&z);
}

static void print_list(const char *name, double *values, int n, int last) {
    printf("\"%s\": [", name);
    for (int i = 0; i < n; i++) printf("%s%.4f", i ? ", " : "", values[i]);
    printf("]%s", last ? "" : ", ");
}

int main(int argc, char **argv) {
    if (argc != 9 && argc != 10) {
        fprintf(stderr, "usage: %s SCRIPT OUT.png WIDTH HEIGHT ITERATIONS LEVEL FILTER COLOR [THREADS]\n", argv[0]);
        return 64;
    }
    const char *script_path = argv[1], *out_path = argv[2];
    int width = atoi(argv[3]), height = atoi(argv[4]), iterations = atoi(argv[5]), level = atoi(argv[6]);
    // FILTER "fast": Easel's default encoder (UP, ISA-L level 1) instead of libpng and zlib.
    int fast = !strcmp(argv[7], "fast");
    int filters = !strcmp(argv[7], "none") ? PNG_FILTER_NONE : !strcmp(argv[7], "sub") ? PNG_FILTER_SUB
                : !strcmp(argv[7], "up") ? PNG_FILTER_UP : !strcmp(argv[7], "paeth") ? PNG_FILTER_PAETH : PNG_ALL_FILTERS;
    int rgba = !strcmp(argv[8], "rgba");
    int threads = argc == 10 ? atoi(argv[9]) : 1;
    if (threads < 1 || threads > 64) { fprintf(stderr, "THREADS must be 1 to 64\n"); return 64; }
    FT_Init_FreeType(&ft);
    double *raster = calloc(iterations, sizeof(double)), *enc = calloc(iterations, sizeof(double)), *whole = calloc(iterations, sizeof(double));
    double *decode = calloc(iterations, sizeof(double));
    size_t bytes = 0;
    char *script = read_file(script_path);
    (void)draw(script, 8, 8); // warm up: fonts loaded, images decoded once
    for (int i = 0; i < iterations; i++) {
        // Rasterise (images already decoded) and encode.
        double t0 = now_ms();
        cairo_surface_t *surface = threads > 1 ? draw_in_strips(script, width, height, threads) : draw(script, width, height);
        double t1 = now_ms();
        buffer_t out = {0};
        if (fast) encode_fast(surface, rgba, &out); else encode(surface, level, filters, rgba, &out);
        double t2 = now_ms();
        raster[i] = t1 - t0;
        enc[i] = t2 - t1;
        bytes = out.length;
        free(out.bytes);
        cairo_surface_destroy(surface);
        // The images decoded again, one after another.
        double d0 = now_ms();
        for (int k = 0; k < image_count; k++) {
            cairo_surface_t *fresh = load_png(images[k].path);
            cairo_surface_destroy(fresh);
        }
        decode[i] = now_ms() - d0;
        // The whole export: read the script, decode its images, draw, encode, write.
        free_images();
        double w0 = now_ms();
        char *fresh = read_file(script_path);
        cairo_surface_t *again = draw(fresh, width, height);
        buffer_t file = {0};
        if (fast) encode_fast(again, rgba, &file); else encode(again, level, filters, rgba, &file);
        FILE *f = fopen(out_path, "wb");
        fwrite(file.bytes, 1, file.length, f);
        fclose(f);
        whole[i] = now_ms() - w0;
        free(file.bytes);
        free(fresh);
        cairo_surface_destroy(again);
    }
    printf("{");
    print_list("rasterize", raster, iterations, 0);
    print_list("encode", enc, iterations, 0);
    print_list("whole", whole, iterations, 0);
    print_list("decode", decode, iterations, 0);
    printf("\"bytes\": %zu}\n", bytes);
    return 0;
}
