// See include/easel_png.h. Every function that calls into libpng sets its own setjmp
// point first; libpng's error callback records the message and longjmps back there.

#include "easel_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (reader->error.truncated) return EASEL_PNG_TRUNCATED;
    if (reader->error.out_of_memory) return EASEL_PNG_OUT_OF_MEMORY;
    return EASEL_PNG_CORRUPT;
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

    if (setjmp(png_jmpbuf(reader->png))) {
        free(rows);
        return easel_png_reader_status_after_error(reader);
    }

    // Normalise every colour type and depth to 8-bit RGBA.
    png_structp png = reader->png;
    png_set_expand(png);                     // palette -> RGB, grey < 8 bits -> 8, tRNS -> alpha
    if (reader->header.bit_depth == 16) png_set_scale_16(png);
    int color_type = reader->header.color_type;
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, reader->info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
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

    // RGBA bytes -> premultiplied native-endian ARGB32, in place (both are 4 bytes a pixel).
    for (png_uint_32 y = 0; y < height; y++) {
        uint8_t *row = destination + (size_t)y * stride;
        for (png_uint_32 x = 0; x < width; x++) {
            uint8_t *p = row + (size_t)x * 4;
            uint8_t a = p[3];
            uint32_t argb = ((uint32_t)a << 24) | ((uint32_t)premultiply(p[0], a) << 16) |
                            ((uint32_t)premultiply(p[1], a) << 8) | premultiply(p[2], a);
            memcpy(p, &argb, 4);
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
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t argb;
            memcpy(&argb, row + (size_t)x * 4, 4);
            if ((argb >> 24) != 0xFF) return 0;
        }
    }
    return 1;
}

static void easel_png_copy_message(char *message, size_t capacity, const char *text) {
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", text);
}

static void easel_png_row_bytes(const uint8_t *source, uint32_t width, int keep_alpha, uint8_t *out);

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

void easel_png_buffer_free(easel_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

// ---- the fast writer's parts ------------------------------------------------------------

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

int easel_png_pixels_are_opaque(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride) {
    return easel_png_is_opaque(pixels, width, height, stride);
}

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

size_t easel_png_filter_rows(const uint8_t *pixels, uint32_t width, size_t stride, uint32_t first_row,
                             uint32_t end_row, int keep_alpha, uint8_t *out) {
    const size_t row_bytes = (size_t)width * (keep_alpha ? 4 : 3);
    // Two rows of unfiltered bytes, this band's only allocation.
    uint8_t *rows = malloc(row_bytes * 2);
    if (rows == NULL) return 0;
    uint8_t *previous = rows, *current = rows + row_bytes;
    if (first_row > 0) {
        easel_png_row_bytes(pixels + (size_t)(first_row - 1) * stride, width, keep_alpha, previous);
    } else {
        memset(previous, 0, row_bytes);
    }
    uint8_t *cursor = out;
    for (uint32_t y = first_row; y < end_row; y++) {
        easel_png_row_bytes(pixels + (size_t)y * stride, width, keep_alpha, current);
        *cursor++ = 2;  // UP
        for (size_t i = 0; i < row_bytes; i++) cursor[i] = (uint8_t)(current[i] - previous[i]);
        cursor += row_bytes;
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
    free(rows);
    return (size_t)(cursor - out);
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

easel_png_status easel_png_deflate_band(const uint8_t *input, size_t length, int level, int last,
                                        easel_png_buffer *output) {
    if (level < 0 || level > 3 || (input == NULL && length > 0) || output == NULL || length > UINT32_MAX) {
        return EASEL_PNG_INVALID_ARGUMENT;
    }
    static const uint32_t level_buffers[] = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    uint8_t *level_buffer = NULL;
    if (level > 0 && (level_buffer = malloc(level_buffers[level])) == NULL) return EASEL_PNG_OUT_OF_MEMORY;
    struct isal_zstream stream;
    isal_deflate_init(&stream);
    stream.level = (uint32_t)level;
    stream.level_buf = level_buffer;
    stream.level_buf_size = level_buffers[level];
    stream.next_in = (uint8_t *)input;
    stream.avail_in = (uint32_t)length;
    stream.end_of_stream = last ? 1 : 0;
    stream.flush = last ? NO_FLUSH : FULL_FLUSH;
    easel_png_status status = EASEL_PNG_OK;
    // Room for incompressible data: stored blocks add 5 bytes per 64 KiB, plus the flush.
    if (!easel_png_reserve(output, length + length / 8 + 4096)) status = EASEL_PNG_OUT_OF_MEMORY;
    while (status == EASEL_PNG_OK) {
        stream.next_out = output->bytes + output->length;
        stream.avail_out = (uint32_t)(output->capacity - output->length > UINT32_MAX ? UINT32_MAX
                                                                                       : output->capacity - output->length);
        uint32_t room = stream.avail_out;
        if (isal_deflate(&stream) != COMP_OK) {
            status = EASEL_PNG_ENCODE_FAILED;
            break;
        }
        output->length += room - stream.avail_out;
        // Done when everything was taken and written out: the stream's end, or (a band) the
        // flush, which ISA-L completes whenever it returns with room left.
        int done = stream.avail_in == 0 && (last ? stream.internal_state.state == ZSTATE_END : stream.avail_out > 0);
        if (done) break;
        if (!easel_png_reserve(output, 65536)) status = EASEL_PNG_OUT_OF_MEMORY;
    }
    free(level_buffer);
    return status;
}

uint32_t easel_png_adler32(uint32_t adler, const uint8_t *bytes, size_t length) {
    // ISA-L's vectorised Adler-32 (zlib's showed in the profile).
    return isal_adler32(adler, bytes, length);
}

uint32_t easel_png_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

uint32_t easel_png_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
    // PNG's CRC is gzip's: ISA-L's vectorised one, the same values as zlib's crc32.
    return crc32_gzip_refl(crc, bytes, length);
}
