// See include/easel_png.h. Every function that calls into libpng sets its own setjmp
// point first; libpng's error callback records the message and longjmps back there.

#include "easel_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *easel_png_libpng_version(void) { return png_get_libpng_ver(NULL); }

// libpng cannot describe a side longer than 2^31-1; Easel refuses anything over 2^30.
#define EASEL_PNG_MAX_SIDE (1u << 30)
// The most bytes libpng may allocate for one ancillary chunk it keeps (PLTE, tRNS, ...).
#define EASEL_PNG_MAX_CHUNK_BYTES (1u << 20)

// ---- shared helpers ------------------------------------------------------------------

typedef struct {
    char message[256];
    int truncated;    // the reader ran out of bytes
    int out_of_memory;
} easel_png_error_state;

static void easel_png_on_error(png_structp png, png_const_charp message) {
    easel_png_error_state *state = (easel_png_error_state *)png_get_error_ptr(png);
    if (state != NULL && state->message[0] == '\0') {
        snprintf(state->message, sizeof state->message, "%s", message ? message : "libpng error");
    }
    png_longjmp(png, 1);
}

static void easel_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; // warnings (for example a bad CRC in an ancillary chunk) are not failures
}

static inline uint8_t premultiply(uint8_t color, uint8_t alpha) {
    unsigned int t = (unsigned int)color * alpha + 0x80; // cairo's own rounding
    return (uint8_t)((t + (t >> 8)) >> 8);
}

static inline uint8_t unpremultiply(uint8_t color, uint8_t alpha) {
    unsigned int value = ((unsigned int)color * 255 + alpha / 2) / alpha;
    return (uint8_t)(value > 255 ? 255 : value);
}

// ---- decoding ------------------------------------------------------------------------

struct easel_png_reader {
    const uint8_t *bytes;
    size_t length;
    size_t offset;
    png_structp png;
    png_infop info;
    easel_png_header header;
    int header_read;
    int pixels_read;
    uint64_t time_allowed_ns;
    uint64_t deadline_ns;
    int libpng_only;  // never Easel's own reader (the tests compare the two)
    int two_threads;  // Easel's own reader may use a second thread
    int past_deadline;
    easel_png_error_state error;
};

static void easel_png_read_from_memory(png_structp png, png_bytep out, png_size_t count) {
    easel_png_reader *reader = (easel_png_reader *)png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        reader->error.truncated = 1;
        png_error(png, "the PNG data ends early (truncated file)");
    }
    memcpy(out, reader->bytes + reader->offset, count);
    reader->offset += count;
}

static easel_png_status easel_png_reader_fail(easel_png_reader *reader, easel_png_status status,
                                              const char *message) {
    if (message != NULL) {
        snprintf(reader->error.message, sizeof reader->error.message, "%s", message);
    }
    return status;
}

// The status for a longjmp out of libpng, from what the callbacks recorded.
static easel_png_status easel_png_reader_status_after_error(const easel_png_reader *reader) {
    if (reader->past_deadline) return EASEL_PNG_DEADLINE;
    if (reader->error.truncated) return EASEL_PNG_TRUNCATED;
    if (reader->error.out_of_memory) return EASEL_PNG_OUT_OF_MEMORY;
    return EASEL_PNG_CORRUPT;
}

static uint64_t easel_png_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// libpng's row callback: stops the decode once its deadline has passed.
static void easel_png_row_done(png_structp png, png_uint_32 row, int pass) {
    (void)pass;
    easel_png_reader *reader = (easel_png_reader *)png_get_io_ptr(png);
    if (reader->deadline_ns == 0 || row % 16 != 0) return;
    if (easel_png_now_ns() >= reader->deadline_ns) {
        reader->past_deadline = 1;
        png_error(png, "the decode ran past its deadline and was stopped");
    }
}

void easel_png_reader_use_libpng_only(easel_png_reader *reader) {
    if (reader != NULL) reader->libpng_only = 1;
}

void easel_png_reader_allow_two_threads(easel_png_reader *reader) {
    if (reader != NULL) reader->two_threads = 1;
}

void easel_png_reader_set_time_allowed(easel_png_reader *reader, uint64_t nanoseconds) {
    if (reader != NULL) reader->time_allowed_ns = nanoseconds;
}

easel_png_reader *easel_png_reader_create(const uint8_t *bytes, size_t length) {
    easel_png_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->bytes = bytes;
    reader->length = bytes == NULL ? 0 : length;
    return reader;
}

easel_png_status easel_png_reader_read_header(easel_png_reader *reader, uint64_t max_pixels,
                                              easel_png_header *header) {
    if (reader == NULL || header == NULL || reader->header_read) {
        return reader ? easel_png_reader_fail(reader, EASEL_PNG_INVALID_ARGUMENT, "invalid reader state")
                      : EASEL_PNG_INVALID_ARGUMENT;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (reader->length == 0) {
        return easel_png_reader_fail(reader, EASEL_PNG_NOT_PNG, "the file is empty");
    }
    size_t compared = reader->length < 8 ? reader->length : 8;
    if (memcmp(reader->bytes, signature, compared) != 0) {
        return easel_png_reader_fail(reader, EASEL_PNG_NOT_PNG, "the data does not start with the PNG signature");
    }
    if (reader->length < 8) {
        return easel_png_reader_fail(reader, EASEL_PNG_TRUNCATED, "the PNG data ends inside its signature");
    }

    // Check the size the IHDR chunk claims before libpng reads further, so that a file
    // claiming a giant image is refused as too large whatever else is wrong with it.
    if (reader->length >= 24 && memcmp(reader->bytes + 12, "IHDR", 4) == 0) {
        const uint8_t *p = reader->bytes + 16;
        uint64_t claimed_width = ((uint64_t)p[0] << 24) | ((uint64_t)p[1] << 16) | ((uint64_t)p[2] << 8) | p[3];
        uint64_t claimed_height = ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) | ((uint64_t)p[6] << 8) | p[7];
        if (claimed_width * claimed_height > max_pixels) {
            char message[160];
            snprintf(message, sizeof message, "the image is %llux%llu pixels, over the limit of %llu pixels",
                     (unsigned long long)claimed_width, (unsigned long long)claimed_height,
                     (unsigned long long)max_pixels);
            return easel_png_reader_fail(reader, EASEL_PNG_TOO_LARGE, message);
        }
    }

    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->error,
                                         easel_png_on_error, easel_png_on_warning);
    if (reader->png == NULL) return easel_png_reader_fail(reader, EASEL_PNG_OUT_OF_MEMORY, "out of memory");
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) return easel_png_reader_fail(reader, EASEL_PNG_OUT_OF_MEMORY, "out of memory");
#if defined(PNG_SET_OPTION_SUPPORTED) && defined(PNG_IGNORE_ADLER32)
    // zlib's Adler-32 of the pixel stream is not computed: every chunk's CRC is still
    // checked, so damaged bytes are still found, for 7 % less decoding time.
    png_set_option(reader->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif

    if (setjmp(png_jmpbuf(reader->png))) {
        return easel_png_reader_status_after_error(reader);
    }
    // Easel applies its own pixel limit below, so libpng's 1,000,000-per-side default
    // must not turn a large-but-allowed image into a confusing "corrupt" error.
    png_set_user_limits(reader->png, EASEL_PNG_MAX_SIDE, EASEL_PNG_MAX_SIDE);
    // Ancillary chunks Easel never draws with (text, colour profiles, EXIF, ...) are skipped
    // without being stored or decompressed: a chunk that claims gigabytes, or a zTXt
    // decompression bomb, costs nothing. Any other chunk libpng allocates for is capped.
    static const png_byte ignored[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0eXIf\0tIME\0hIST\0pCAL\0sCAL\0sTER\0";
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, ignored, (int)(sizeof ignored / 5));
    png_set_chunk_malloc_max(reader->png, EASEL_PNG_MAX_CHUNK_BYTES);
    png_set_chunk_cache_max(reader->png, 1000);
    png_set_read_fn(reader->png, reader, easel_png_read_from_memory);
    png_read_info(reader->png, reader->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace,
                 NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace == PNG_INTERLACE_ADAM7;
    reader->header = *header;

    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        char message[160];
        snprintf(message, sizeof message, "the image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        return easel_png_reader_fail(reader, EASEL_PNG_TOO_LARGE, message);
    }
    reader->header_read = 1;
    return EASEL_PNG_OK;
}

easel_png_status easel_png_reader_read_argb32(easel_png_reader *reader, uint8_t *destination,
                                              size_t stride) {
    if (reader == NULL) return EASEL_PNG_INVALID_ARGUMENT;
    if (!reader->header_read || reader->pixels_read || destination == NULL ||
        stride < (size_t)reader->header.width * 4) {
        return easel_png_reader_fail(reader, EASEL_PNG_INVALID_ARGUMENT, "invalid reader state or stride");
    }
    reader->pixels_read = 1;
    const png_uint_32 width = reader->header.width, height = reader->header.height;
    png_bytep *volatile rows = NULL;
    // One allowance for the whole read: what Easel's reader spends before it declines a file
    // (it finds a fault at the stream's end only after the last row) is not given again.
    const uint64_t started_ns = reader->time_allowed_ns != 0 ? easel_png_now_ns() : 0;

    if (setjmp(png_jmpbuf(reader->png))) {
        free(rows);
        return easel_png_reader_status_after_error(reader);
    }

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // The files photos are saved as: Easel's own reader, twice libpng's speed (libpng
    // takes whatever it declines, and says what is wrong with it).
    if (!reader->libpng_only) {
        easel_png_fast_status fast = easel_png_fast_read(reader->bytes, reader->length, destination, stride,
                                                         reader->time_allowed_ns, reader->two_threads);
        if (fast == EASEL_PNG_FAST_OK) return EASEL_PNG_OK;
        if (fast == EASEL_PNG_FAST_DEADLINE) {
            reader->past_deadline = 1;
            snprintf(reader->error.message, sizeof reader->error.message,
                     "the decode ran past its deadline and was stopped");
            return EASEL_PNG_DEADLINE;
        }
    }
#endif

    // Normalise every colour type and depth to 8-bit RGBA; on a little-endian machine in the
    // order B, G, R, A, which is already cairo's native ARGB32 word.
    png_structp png = reader->png;
    png_set_expand(png);                     // palette -> RGB, grey < 8 bits -> 8, tRNS -> alpha
    if (reader->header.bit_depth == 16) png_set_scale_16(png);
    int color_type = reader->header.color_type;
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    const int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, reader->info, PNG_INFO_tRNS);
    if (!has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    png_set_bgr(png);
    const int native_order = 1;
#else
    const int native_order = 0;
#endif
    png_set_interlace_handling(png);
    if (reader->time_allowed_ns != 0) {
        reader->deadline_ns = started_ns + reader->time_allowed_ns;
        png_set_read_status_fn(png, easel_png_row_done);
    }
    png_read_update_info(png, reader->info);
    if (png_get_rowbytes(png, reader->info) != (png_size_t)width * 4) {
        png_error(png, "unexpected row size after conversion to RGBA");
    }

    rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) {
        reader->error.out_of_memory = 1;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = destination + (size_t)y * stride;
    png_read_image(png, rows);
    free(rows);
    rows = NULL;

    // Premultiplied alpha. Opaque pixels are already right in native order (premultiplying
    // by 255 changes nothing), so an image without alpha needs no pass at all.
    if (native_order && !has_alpha) return EASEL_PNG_OK;
    for (png_uint_32 y = 0; y < height; y++) {
        uint8_t *row = destination + (size_t)y * stride;
        for (png_uint_32 x = 0; x < width; x++) {
            uint8_t *p = row + (size_t)x * 4;
            uint8_t a = p[3];
            if (native_order) {
                if (a == 0xFF) continue;
                p[0] = premultiply(p[0], a);  // B
                p[1] = premultiply(p[1], a);  // G
                p[2] = premultiply(p[2], a);  // R
            } else {
                // RGBA bytes -> premultiplied native-endian ARGB32, in place.
                uint32_t argb = ((uint32_t)a << 24) | ((uint32_t)premultiply(p[0], a) << 16) |
                                ((uint32_t)premultiply(p[1], a) << 8) | premultiply(p[2], a);
                memcpy(p, &argb, 4);
            }
        }
    }
    return EASEL_PNG_OK;
}

const char *easel_png_reader_message(const easel_png_reader *reader) {
    return reader == NULL ? "" : reader->error.message;
}

void easel_png_reader_destroy(easel_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) {
        png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    }
    free(reader);
}

// ---- encoding ------------------------------------------------------------------------

typedef struct {
    easel_png_buffer *output;
    easel_png_error_state error;
} easel_png_writer;

static void easel_png_write_to_memory(png_structp png, png_bytep data, png_size_t count) {
    easel_png_writer *writer = (easel_png_writer *)png_get_io_ptr(png);
    easel_png_buffer *buffer = writer->output;
    if (count > buffer->capacity - buffer->length) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity - buffer->length < count) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) {
            writer->error.out_of_memory = 1;
            png_error(png, "out of memory while encoding");
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, count);
    buffer->length += count;
}

static void easel_png_flush_nothing(png_structp png) { (void)png; }

static int easel_png_is_opaque(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride) {
    return easel_png_rows_are_opaque(pixels, width, stride, 0, height);
}

static void easel_png_copy_message(char *message, size_t capacity, const char *text) {
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", text);
}

static void easel_png_row_bytes(const uint8_t *source, uint32_t width, int keep_alpha, uint8_t *out);
static int easel_png_reserve(easel_png_buffer *buffer, size_t more);

easel_png_status easel_png_encode_argb32(const uint8_t *pixels, uint32_t width, uint32_t height,
                                         size_t stride, const easel_png_encode_options *options,
                                         easel_png_buffer *output, char *message,
                                         size_t message_capacity) {
    if (pixels == NULL || output == NULL || options == NULL || width == 0 || height == 0 ||
        width > EASEL_PNG_MAX_SIDE || height > EASEL_PNG_MAX_SIDE || stride < (size_t)width * 4 ||
        options->compression_level < 0 || options->compression_level > 9 ||
        (options->filters & EASEL_PNG_FILTER_ALL) == 0 || (options->filters & ~EASEL_PNG_FILTER_ALL) != 0) {
        easel_png_copy_message(message, message_capacity, "invalid encoder arguments");
        return EASEL_PNG_INVALID_ARGUMENT;
    }
    int keep_alpha;
    switch (options->color_mode) {
    case EASEL_PNG_COLOR_RGBA: keep_alpha = 1; break;
    case EASEL_PNG_COLOR_RGB: keep_alpha = 0; break;
    default: keep_alpha = !easel_png_is_opaque(pixels, width, height, stride); break;
    }

    easel_png_writer writer;
    memset(&writer, 0, sizeof writer);
    writer.output = output;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer.error,
                                              easel_png_on_error, easel_png_on_warning);
    if (png == NULL) {
        easel_png_copy_message(message, message_capacity, "out of memory");
        return EASEL_PNG_OUT_OF_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile row = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_write_struct(&png, info ? &info : NULL);
        easel_png_copy_message(message, message_capacity,
                               writer.error.message[0] ? writer.error.message : "out of memory");
        return writer.error.out_of_memory || info == NULL ? EASEL_PNG_OUT_OF_MEMORY : EASEL_PNG_ENCODE_FAILED;
    }

    png_set_write_fn(png, &writer, easel_png_write_to_memory, easel_png_flush_nothing);
    png_set_compression_level(png, options->compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options->filters);
    png_set_IHDR(png, info, width, height, 8, keep_alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(png, info);

    const size_t channels = keep_alpha ? 4 : 3;
    row = malloc((size_t)width * channels);
    if (row == NULL) {
        writer.error.out_of_memory = 1;
        png_error(png, "out of memory");
    }
    for (uint32_t y = 0; y < height; y++) {
        easel_png_row_bytes(pixels + (size_t)y * stride, width, keep_alpha, row);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    free(row);
    row = NULL;
    png_destroy_write_struct(&png, &info);
    return EASEL_PNG_OK;
}

int easel_png_buffer_append(easel_png_buffer *buffer, const uint8_t *bytes, size_t length) {
    if (!easel_png_reserve(buffer, length)) return 0;
    if (length > 0) memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    return 1;
}

void easel_png_buffer_free(easel_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

// ---- the fast writer's parts ------------------------------------------------------------

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

// One row of straight-alpha RGB(A) bytes.
static void easel_png_row_bytes(const uint8_t *source, uint32_t width, int keep_alpha, uint8_t *out) {
    for (uint32_t x = 0; x < width; x++) {
        uint32_t argb;
        memcpy(&argb, source + (size_t)x * 4, 4);
        uint8_t a = (uint8_t)(argb >> 24), r = (uint8_t)(argb >> 16), g = (uint8_t)(argb >> 8), b = (uint8_t)argb;
        if (keep_alpha && a != 0xFF) {
            if (a == 0) {
                r = g = b = 0;
            } else {
                r = unpremultiply(r, a);
                g = unpremultiply(g, a);
                b = unpremultiply(b, a);
            }
        }
        out[0] = r;
        out[1] = g;
        out[2] = b;
        if (keep_alpha) {
            out[3] = a;
            out += 4;
        } else {
            out += 3;
        }
    }
}

static int easel_png_reserve(easel_png_buffer *buffer, size_t more) {
    if (more <= buffer->capacity - buffer->length) return 1;
    size_t capacity = buffer->capacity ? buffer->capacity : 65536;
    while (capacity - buffer->length < more) capacity *= 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (grown == NULL) return 0;
    buffer->bytes = grown;
    buffer->capacity = capacity;
    return 1;
}

// Pixels [x, width) of a row filtered one at a time (UP over RGB, or NONE with `above`
// NULL) into `out`: the tail the four-pixel steps below leave.
static inline void easel_png_filter_pixels_rgb(const uint32_t *row, const uint32_t *above, uint32_t x,
                                               uint32_t width, uint8_t *out) {
    for (; x < width; x++, out += 3) {
        uint32_t c = row[x], p = above ? above[x] : 0;
        out[0] = (uint8_t)((c >> 16) - (p >> 16));
        out[1] = (uint8_t)((c >> 8) - (p >> 8));
        out[2] = (uint8_t)(c - p);
    }
}

// One UP-filtered scanline of an opaque image as RGB, straight from the ARGB32 words of the
// row and the row above (NULL for a band's first row: NONE, the row above taken as zeros). Four
// pixels at a time become three little-endian words; the subtraction is byte by byte
// without borrows between bytes (SWAR), so nothing is converted twice. Portable C: the
// reference for the SSSE3 version below, and the filter where that cannot run.
static void easel_png_filter_row_rgb_portable(const uint32_t *row, const uint32_t *above, uint32_t width,
                                              uint8_t *out) {
    *out++ = above ? 2 : 0;  // UP, or NONE for a band's first row (its bytes minus zeros)
    uint32_t x = 0;
    const uint32_t high = 0x80808080u;
    for (; x + 4 <= width; x += 4, out += 12) {
        uint32_t rgb[4];
        for (int i = 0; i < 4; i++) {
            uint32_t c = row[x + i], p = above ? above[x + i] : 0;
            uint32_t d = ((c | high) - (p & ~high)) ^ ((c ^ ~p) & high);  // c - p per byte
            rgb[i] = __builtin_bswap32(d) >> 8;                            // bytes R, G, B in memory order
        }
        uint32_t words[3] = {rgb[0] | rgb[1] << 24, rgb[1] >> 8 | rgb[2] << 16, rgb[2] >> 16 | rgb[3] << 8};
        memcpy(out, words, 12);
    }
    easel_png_filter_pixels_rgb(row, above, x, width, out);
}

#if defined(__x86_64__)
#include <immintrin.h>

// The same bytes as the portable filter, four pixels a step with SSSE3: one byte-wise
// subtraction and one shuffle that drops X and puts R, G, B in order. The portable filter
// was 11.6 % of a 2600x4000 export's CPU samples on one core (perf record), this one is
// 3.4 %. Only whole 16-byte stores that stay inside the row's own output are made (a
// row's last pixels go the portable way), so nothing past the row is written.
__attribute__((target("ssse3"))) static void easel_png_filter_row_rgb_ssse3(const uint32_t *row,
                                                                           const uint32_t *above, uint32_t width,
                                                                           uint8_t *out) {
    *out++ = above ? 2 : 0;
    const __m128i to_rgb = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    uint32_t x = 0;
    // Four pixels read, 16 bytes stored of which 12 are theirs: the store stays inside the
    // row while two more pixels follow (3 * (x + 6) >= 3 * x + 16).
    for (; x + 6 <= width; x += 4, out += 12) {
        __m128i c = _mm_loadu_si128((const __m128i *)(row + x));
        __m128i d = above ? _mm_sub_epi8(c, _mm_loadu_si128((const __m128i *)(above + x))) : c;
        _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(d, to_rgb));
    }
    easel_png_filter_pixels_rgb(row, above, x, width, out);
}
#endif

int easel_png_filter_uses_ssse3(void) {
#if defined(__x86_64__)
    return __builtin_cpu_supports("ssse3") ? 1 : 0;
#else
    return 0;
#endif
}

static void easel_png_filter_row_rgb(const uint32_t *row, const uint32_t *above, uint32_t width, uint8_t *out) {
#if defined(__x86_64__)
    if (easel_png_filter_uses_ssse3()) {
        easel_png_filter_row_rgb_ssse3(row, above, width, out);
        return;
    }
#endif
    easel_png_filter_row_rgb_portable(row, above, width, out);
}

int easel_png_filter_rows_agree(const uint32_t *pixels, uint32_t width, uint32_t rows) {
    if (pixels == NULL || width == 0 || rows == 0) return 0;
    const size_t line_bytes = (size_t)width * 3 + 1;
    uint8_t *expected = malloc(line_bytes), *actual = malloc(line_bytes);
    int agree = expected != NULL && actual != NULL;
    for (uint32_t y = 0; agree && y < rows; y++) {
        const uint32_t *row = pixels + (size_t)y * width, *above = y > 0 ? row - width : NULL;
        easel_png_filter_row_rgb_portable(row, above, width, expected);
        easel_png_filter_row_rgb(row, above, width, actual);
        agree = memcmp(expected, actual, line_bytes) == 0;
    }
    free(expected);
    free(actual);
    return agree;
}

int easel_png_rows_are_opaque(const uint8_t *pixels, uint32_t width, size_t stride, uint32_t first_row,
                              uint32_t end_row) {
    for (uint32_t y = first_row; y < end_row; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        // The AND of every pixel's word: its top byte is 0xFF only when every alpha is (the
        // loop vectorises; one row at a time, so a transparent image stops early).
        uint32_t all = 0xFFFFFFFFu;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t argb;
            memcpy(&argb, row + (size_t)x * 4, 4);
            all &= argb;
        }
        if ((all >> 24) != 0xFF) return 0;
    }
    return 1;
}

size_t easel_png_deflate_state_size(void) { return sizeof(struct isal_zstream); }

easel_png_status easel_png_encode_band(const uint8_t *pixels, uint32_t width, size_t stride, uint32_t first_row,
                                       uint32_t end_row, int keep_alpha, int level, int last,
                                       easel_png_buffer *output, uint32_t *adler, size_t *filtered_length) {
    // On the heap: ISA-L's stream state is 80 KiB, too much for a worker thread's stack.
    void *state = malloc(sizeof(struct isal_zstream));
    if (state == NULL) return EASEL_PNG_OUT_OF_MEMORY;
    easel_png_status status = easel_png_encode_band_in(state, pixels, width, stride, first_row, end_row, keep_alpha,
                                                       level, last, output, adler, filtered_length);
    free(state);
    return status;
}

easel_png_status easel_png_encode_band_in(void *state, const uint8_t *pixels, uint32_t width, size_t stride,
                                          uint32_t first_row, uint32_t end_row, int keep_alpha, int level, int last,
                                          easel_png_buffer *output, uint32_t *adler, size_t *filtered_length) {
    if (state == NULL || pixels == NULL || output == NULL || adler == NULL || filtered_length == NULL || width == 0 ||
        first_row >= end_row || level < 0 || level > 3 || stride < (size_t)width * 4) {
        return EASEL_PNG_INVALID_ARGUMENT;
    }
    const size_t row_bytes = (size_t)width * (keep_alpha ? 4 : 3), line_bytes = row_bytes + 1;
    const uint64_t total = (uint64_t)line_bytes * (end_row - first_row);
    if (total > UINT32_MAX) return EASEL_PNG_INVALID_ARGUMENT;
    // The filtered lines go through a buffer of about 128 KiB (at least one line), each
    // chunk handed to ISA-L, which keeps the history the next chunk refers to.
    const uint32_t chunk_rows = line_bytes >= 131072 ? 1 : (uint32_t)(131072 / line_bytes);
    static const uint32_t level_buffers[] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    // Zeroed, with room past the last line: ISA-L's vector loads reach a few bytes beyond
    // the input it is given. Garbage there was measured not to change the output (the rare
    // differing bytes once blamed on it came from ISA-L's first-byte path, see the stream
    // below), but nothing ISA-L reads should be undefined.
    uint8_t *chunk = calloc(1, line_bytes * chunk_rows + 64);
    // The alpha path converts each row once: the row above is kept unfiltered.
    uint8_t *rows = keep_alpha ? malloc(row_bytes * 2) : NULL;
    // Zeroed, as the stream below and the chunk (see the chunk).
    uint8_t *level_buffer = level > 0 ? calloc(1, level_buffers[level]) : NULL;
    easel_png_status status = EASEL_PNG_OK;
    if (chunk == NULL || (keep_alpha && rows == NULL) || (level > 0 && level_buffer == NULL) ||
        !easel_png_reserve(output, (size_t)total + (size_t)total / 8 + 4096)) {
        status = EASEL_PNG_OUT_OF_MEMORY;
    }
    uint8_t *previous = rows, *current = rows ? rows + row_bytes : NULL;
    // A band's first row is stored unfiltered (NONE: its bytes minus a row of zeros): a band
    // never reads a row outside its own, so each band can be drawn and deflated on its own
    // (BandedPNGExport.swift), at the cost of one unfiltered row per band (256 rows).
    if (status == EASEL_PNG_OK && keep_alpha) memset(previous, 0, row_bytes);
    struct isal_zstream *stream = state;
    memset(stream, 0, sizeof *stream);
    isal_deflate_init(stream);
    stream->level = (uint32_t)level;
    stream->level_buf = level_buffer;
    stream->level_buf_size = level_buffers[level];
    uint32_t sum = 1;
    // ISA-L 2.30 (Debian 12) deflates the first byte of a stream without history through a
    // path of its AVX2 match finder (isal_deflate_icf_body_hash_hist_04, `.write_first_byte`)
    // that hashes a register the entry never loaded: it still holds the address of the
    // stream state, so the next position lands in a hash slot chosen by where the state
    // lives. The output stays valid, but now and then a match is found at another distance:
    // the same rows gave different bytes in different processes. With history (a preset
    // dictionary) that path is never taken. So each band begins with its first byte in a
    // stored block of our own, and that byte becomes ISA-L's dictionary: six bytes a band,
    // and the bytes no longer depend on any address (EaselCairoTests places the state at
    // thousands of addresses). The decoder has that byte in its window, as the dictionary
    // says.
    int first_byte_written = 0;
    for (uint32_t y = first_row; status == EASEL_PNG_OK && y < end_row;) {
        uint32_t chunk_end = end_row - y > chunk_rows ? y + chunk_rows : end_row;
        uint8_t *cursor = chunk;
        for (; y < chunk_end; y++, cursor += line_bytes) {
            const uint8_t *row = pixels + (size_t)y * stride;
            if (keep_alpha) {
                easel_png_row_bytes(row, width, 1, current);
                cursor[0] = y > first_row ? 2 : 0;  // UP, or NONE for the band's first row
                for (size_t i = 0; i < row_bytes; i++) cursor[1 + i] = (uint8_t)(current[i] - previous[i]);
                uint8_t *swap = previous;
                previous = current;
                current = swap;
            } else {
                const uint32_t *above = y > first_row ? (const uint32_t *)(row - stride) : NULL;
                easel_png_filter_row_rgb((const uint32_t *)row, above, width, cursor);
            }
        }
        size_t length = (size_t)(cursor - chunk);
        sum = isal_adler32(sum, chunk, length);
        uint8_t *next = chunk;
        if (!first_byte_written) {
            // A non-final stored block holding the byte: BFINAL 0 and BTYPE 00 padded to a
            // byte, LEN 1 and NLEN (little-endian), the byte. A line is at least two bytes
            // (the filter and a pixel), so input remains for ISA-L.
            const uint8_t stored_block[6] = {0x00, 0x01, 0x00, 0xFE, 0xFF, chunk[0]};
            if (!easel_png_buffer_append(output, stored_block, sizeof stored_block)) {
                status = EASEL_PNG_OUT_OF_MEMORY;
                break;
            }
            if (isal_deflate_set_dict(stream, chunk, 1) != COMP_OK) {
                status = EASEL_PNG_ENCODE_FAILED;
                break;
            }
            next += 1;
            length -= 1;
            first_byte_written = 1;
        }
        const int final = y == end_row;
        stream->next_in = next;
        stream->avail_in = (uint32_t)length;
        stream->end_of_stream = final && last ? 1 : 0;
        stream->flush = final && !last ? FULL_FLUSH : NO_FLUSH;
        for (;;) {
            if (!easel_png_reserve(output, 65536)) {
                status = EASEL_PNG_OUT_OF_MEMORY;
                break;
            }
            stream->next_out = output->bytes + output->length;
            size_t room = output->capacity - output->length;
            stream->avail_out = room > UINT32_MAX ? UINT32_MAX : (uint32_t)room;
            uint32_t offered = stream->avail_out;
            if (isal_deflate(stream) != COMP_OK) {
                status = EASEL_PNG_ENCODE_FAILED;
                break;
            }
            output->length += offered - stream->avail_out;
            if (stream->avail_in > 0) continue;
            // A middle chunk is taken once all its input is; the last one once the stream
            // ends (the final band) or the flush is written, which ISA-L completes whenever
            // it returns with room left.
            if (!final || (last ? stream->internal_state.state == ZSTATE_END : stream->avail_out > 0)) break;
        }
    }
    free(chunk);
    free(rows);
    free(level_buffer);
    *adler = sum;
    *filtered_length = (size_t)total;
    return status;
}

uint32_t easel_png_adler32(uint32_t adler, const uint8_t *bytes, size_t length) {
    // ISA-L's vectorised Adler-32 (zlib's showed in the profile).
    return isal_adler32(adler, bytes, length);
}

uint32_t easel_png_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

uint64_t easel_crc64(const uint8_t *bytes, size_t length) {
    // ISA-L's vectorised CRC-64 (ECMA polynomial), several gigabytes a second.
    return crc64_ecma_refl(0, bytes, length);
}

uint32_t easel_png_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
    // PNG's CRC is gzip's: ISA-L's vectorised one, the same values as zlib's crc32.
    return crc32_gzip_refl(crc, bytes, length);
}
