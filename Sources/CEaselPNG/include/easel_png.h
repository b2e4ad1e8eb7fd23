#ifndef EASEL_PNG_H
#define EASEL_PNG_H
// A small C edge over libpng. libpng reports errors by longjmp, which must never unwind
// through Swift frames, so every libpng call happens here behind setjmp and every failure
// comes back as a status code with a message.
//
// Pixels crossing this edge are cairo's CAIRO_FORMAT_ARGB32: one native-endian uint32 per
// pixel, alpha in the high byte, colour premultiplied by alpha, rows `stride` bytes apart.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    EASEL_PNG_OK = 0,
    EASEL_PNG_INVALID_ARGUMENT = 1, // a caller error: null pointer, zero size, bad option
    EASEL_PNG_NOT_PNG = 2,          // the bytes do not start with the PNG signature
    EASEL_PNG_TRUNCATED = 3,        // the data ended before the image did
    EASEL_PNG_CORRUPT = 4,          // libpng rejected the data (bad CRC, bad chunk, bad zlib...)
    EASEL_PNG_TOO_LARGE = 5,        // the header claims more pixels than the caller allows
    EASEL_PNG_OUT_OF_MEMORY = 6,
    EASEL_PNG_ENCODE_FAILED = 7,
    EASEL_PNG_DEADLINE = 8,         // the decode ran past the time allowed (easel_png_reader_set_time_allowed)
} easel_png_status;

// The version of the libpng loaded at run time ("1.6.39"), for `easel doctor`.
const char *easel_png_libpng_version(void);

// ---- Decoding -------------------------------------------------------------------------

typedef struct easel_png_reader easel_png_reader;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;   // 1, 2, 4, 8 or 16 as stored in the file
    int color_type;  // libpng's PNG_COLOR_TYPE_* as stored in the file
    int interlaced;  // 1 for Adam7
} easel_png_header;

// Makes a reader over `length` bytes at `bytes`, which must stay alive until it is
// destroyed. Returns NULL only when out of memory.
easel_png_reader *easel_png_reader_create(const uint8_t *bytes, size_t length);

// Reads the signature and header. Refuses (EASEL_PNG_TOO_LARGE) an image with more than
// `max_pixels` pixels, or a side over 2^30, before any pixel memory is allocated.
easel_png_status easel_png_reader_read_header(easel_png_reader *reader, uint64_t max_pixels,
                                              easel_png_header *header);

// Bounds the next easel_png_reader_read_argb32 to `nanoseconds` from its start (0: no
// limit): it is checked after every 16 rows of every pass, and the decode stops with
// EASEL_PNG_DEADLINE once the time is up.
void easel_png_reader_set_time_allowed(easel_png_reader *reader, uint64_t nanoseconds);

// Decodes the whole image, any colour type and bit depth, interlaced or not, into
// premultiplied ARGB32 at `destination` (height rows of `stride` bytes, stride >= 4 * width).
// Must follow a successful easel_png_reader_read_header, once.
easel_png_status easel_png_reader_read_argb32(easel_png_reader *reader, uint8_t *destination,
                                              size_t stride);

// The message of the last failure ("" when none). Owned by the reader.
const char *easel_png_reader_message(const easel_png_reader *reader);

void easel_png_reader_destroy(easel_png_reader *reader);

// ---- Encoding -------------------------------------------------------------------------

typedef enum {
    EASEL_PNG_COLOR_AUTO = 0, // RGB when every pixel is opaque, RGBA otherwise
    EASEL_PNG_COLOR_RGBA = 1,
    EASEL_PNG_COLOR_RGB = 2,  // alpha is dropped (the caller knows the image is opaque)
} easel_png_color_mode;

// Row filters, combinable; the values are libpng's PNG_FILTER_* bits.
enum {
    EASEL_PNG_FILTER_NONE = 0x08,
    EASEL_PNG_FILTER_SUB = 0x10,
    EASEL_PNG_FILTER_UP = 0x20,
    EASEL_PNG_FILTER_AVG = 0x40,
    EASEL_PNG_FILTER_PAETH = 0x80,
    EASEL_PNG_FILTER_ALL = 0xF8,
};

typedef struct {
    int compression_level;         // zlib level 0...9
    int filters;                   // EASEL_PNG_FILTER_* bits, at least one
    easel_png_color_mode color_mode;
} easel_png_encode_options;

// A growable byte buffer that the encoder fills; free with easel_png_buffer_free.
typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} easel_png_buffer;

// Encodes premultiplied ARGB32 pixels as a PNG (8 bits per channel, straight alpha).
// On failure `message` (of `message_capacity` bytes) receives the reason.
easel_png_status easel_png_encode_argb32(const uint8_t *pixels, uint32_t width, uint32_t height,
                                         size_t stride, const easel_png_encode_options *options,
                                         easel_png_buffer *output, char *message,
                                         size_t message_capacity);

// Appends `length` bytes; 0 when out of memory.
int easel_png_buffer_append(easel_png_buffer *buffer, const uint8_t *bytes, size_t length);

void easel_png_buffer_free(easel_png_buffer *buffer);

// ---- The fast writer's parts ----------------------------------------------------------
// Easel writes PNG itself on its fast path (see PNGEncoder.swift): the scanlines filtered
// with UP, deflated in row bands by ISA-L (level 1), each band a raw deflate stream ending
// in a full flush so bands made on different cores join into one zlib stream.

// 1 when the fast writer's RGB scanline filter (SSSE3 where the processor has it) gives
// the bytes of its portable C version for every row of `pixels` (`rows` rows of `width`
// ARGB32 words, each filtered against the one above, the first against zeros). For tests.
int easel_png_filter_rows_agree(const uint32_t *pixels, uint32_t width, uint32_t rows);

// 1 when the fast writer filters RGB rows with SSSE3 (x86-64 processors that have it). For
// tests: on such a machine, `easel_png_filter_rows_agree` compares two different filters.
int easel_png_filter_uses_ssse3(void);

// 1 when every pixel of rows [first_row, end_row) is opaque.
int easel_png_rows_are_opaque(const uint8_t *pixels, uint32_t width, size_t stride, uint32_t first_row,
                              uint32_t end_row);

// Encodes rows [first_row, end_row) as one band of the fast writer: scanlines filtered with
// UP (a filter byte, then the row's straight-alpha RGB or RGBA bytes each minus the byte
// above), the band's first row with NONE (its bytes as they are: no row outside the band is
// read, so a band can be drawn and deflated before or without the rows above it), deflated
// as a raw deflate stream: a stored block holding the band's first byte, then the rest deflated by ISA-L at `level` (0 to 3) with that byte as
// its dictionary (see easel_png.c for why), the final block when `last`, else ending with a
// full flush (byte-aligned, no reference to earlier bands). Appends to `output`. The
// filtered bytes pass through a small buffer, never the whole band; their Adler-32 (from 1)
// and count come back in `adler` and `filtered_length`, for joining the bands into one zlib
// stream. The same pixels always give the same bytes.
easel_png_status easel_png_encode_band(const uint8_t *pixels, uint32_t width, size_t stride, uint32_t first_row,
                                       uint32_t end_row, int keep_alpha, int level, int last,
                                       easel_png_buffer *output, uint32_t *adler, size_t *filtered_length);

// The bytes of ISA-L's stream state, for easel_png_encode_band_in.
size_t easel_png_deflate_state_size(void);

// easel_png_encode_band with ISA-L's stream state in `state` (easel_png_deflate_state_size()
// bytes, 16-byte aligned) rather than in memory it allocates: the tests place the state at
// thousands of addresses and check the bytes never change.
easel_png_status easel_png_encode_band_in(void *state, const uint8_t *pixels, uint32_t width, size_t stride,
                                          uint32_t first_row, uint32_t end_row, int keep_alpha, int level, int last,
                                          easel_png_buffer *output, uint32_t *adler, size_t *filtered_length);

// zlib's Adler-32 and CRC-32 (PNG's chunk CRC), and joining two Adler-32 sums.
uint32_t easel_png_adler32(uint32_t adler, const uint8_t *bytes, size_t length);
uint32_t easel_png_adler32_combine(uint32_t first, uint32_t second, size_t second_length);
uint32_t easel_png_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

// Easel's own reader for 8-bit RGB and RGBA PNGs that are not interlaced and have no tRNS
// (easel_png_fast_read.c): the whole file `bytes` into `destination` (rows `stride` bytes
// apart, room for the IHDR's size, already checked by the caller) as premultiplied ARGB32,
// exactly as libpng would give them. DECLINED for any other file, and for any problem on
// the way: the caller then decodes with libpng, which reports it. With `time_allowed_ns`
// (0: none), DEADLINE once that much time has passed.
typedef enum {
    EASEL_PNG_FAST_OK = 0,
    EASEL_PNG_FAST_DECLINED = 1,
    EASEL_PNG_FAST_DEADLINE = 2,
} easel_png_fast_status;

// Decode with libpng alone, never Easel's own reader (for tests comparing the two).
void easel_png_reader_use_libpng_only(easel_png_reader *reader);

// Let Easel's own reader use a second thread (easel_png_fast_read's `two_threads`).
void easel_png_reader_allow_two_threads(easel_png_reader *reader);

// With `two_threads`, a second thread turns the rows inflated so far into pixels while this
// one inflates the next (same pixels; for large images, when a core is idle).
easel_png_fast_status easel_png_fast_read(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                          uint64_t time_allowed_ns, int two_threads);

// As easel_png_fast_read, reduced by a whole `factor` (1 to 64) as the rows go by: each
// pixel of `destination` (ceil(width / factor) x ceil(height / factor), rows `stride` bytes
// apart) is the rounded mean of a factor x factor block of premultiplied pixels (fewer at
// the right and bottom edges), exactly as PixelBuffer.reduced computes it, so that the
// whole image is never held.
easel_png_fast_status easel_png_fast_read_reduced(const uint8_t *bytes, size_t length, uint8_t *destination,
                                                  size_t stride, uint64_t time_allowed_ns, uint32_t factor,
                                                  int two_threads);

// A CRC-64 (ECMA) of `length` bytes, with easel_png_crc32 a content key for decoded images.
uint64_t easel_crc64(const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
