#ifndef EASEL_JPEG_H
#define EASEL_JPEG_H
// libjpeg-turbo's libjpeg API decodes JPEG photos. Errors longjmp inside this file only:
// every function returns a status, and no Swift frame is ever crossed.
//
// A decode is bounded three ways, each checked by libjpeg's progress monitor (called for
// every row of every scan): a deadline, a number of scans (a progressive file of thousands
// of empty scans costs a pass over the whole image each), and the header's own figures
// (the decoder's coefficient memory is known before any of it exists: see `work_bytes`).
// A warning stops the decode (corrupt data is where decoder bombs live), except the two a
// truncated file gives, which keep what arrived, as the Cards app shows such a photo.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    EASEL_JPEG_OK = 0,
    // Decoded, but the file ended early: the rest of the image is grey. `message` says so.
    EASEL_JPEG_TRUNCATED = 1,
    // Not a JPEG libjpeg can read, or corrupt: `message` says what libjpeg said.
    EASEL_JPEG_ERROR = -1,
    // The deadline passed; the decode stopped between two rows.
    EASEL_JPEG_DEADLINE = -2,
    // More scans than the limit.
    EASEL_JPEG_TOO_MANY_SCANS = -3,
} easel_jpeg_status;

typedef struct {
    uint32_t width, height;
    // Colour components in the file (1 grey, 3 YCbCr or RGB, 4 CMYK/YCCK).
    int components;
    // 1 when the file is progressive or has several scans: it is buffered whole as DCT
    // coefficients before any pixel comes out.
    int multiple_scans;
    // Bytes the decoder allocates besides the output pixels: the whole-image coefficient
    // buffers of a multi-scan file (2 bytes per sample of each component), else a few rows.
    uint64_t work_bytes;
} easel_jpeg_header;

typedef struct {
    // Nanoseconds the decode may take from its start; 0 for no limit.
    uint64_t time_allowed_ns;
    // The most scans read; 0 for libjpeg's own behaviour (no limit).
    int max_scans;
    // 1: a file that ends early stops the decode at once (EASEL_JPEG_TRUNCATED) instead of
    // padding the rest grey; for a decode that will be done again whole if anything is amiss.
    int stop_when_cut_short;
} easel_jpeg_limits;

// Reads the header of `length` bytes at `bytes` into `header`; on failure writes libjpeg's
// message into `message` (NUL-terminated, at most `message_size` bytes).
easel_jpeg_status easel_jpeg_read_header(const uint8_t *bytes, size_t length, easel_jpeg_header *header,
                                         char *message, size_t message_size);

// Decodes into `destination`, `stride` bytes a row, as B, G, R, A bytes (cairo's native
// ARGB32 on a little-endian machine; JPEG is opaque, so premultiplied already), within
// `limits`, at `eighths`/8 of its size (1 to 8: libjpeg-turbo's DCT scaling, which computes
// fewer pixels from the same coefficients rather than reducing whole pixels). `destination`
// must hold ceil(header.height * eighths / 8) rows of ceil(header.width * eighths / 8) pixels.
easel_jpeg_status easel_jpeg_decode(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                    const easel_jpeg_limits *limits, unsigned eighths, char *message,
                                    size_t message_size);

// Decodes only rows `first_row` to `end_row` (excluded; clamped to the image) of what
// `easel_jpeg_decode` writes, into the same rows of `destination`, byte for byte as it writes
// them: the rows above are read past (libjpeg-turbo's jpeg_skip_scanlines decodes their
// coefficients, which the rows below depend on, but makes no pixels of them), and a decode
// that stops before the last row does not read the rest of the file. Two threads decoding a
// top and a bottom part of one file finish sooner than one decoding it all: the bottom's
// thread reads past the top while the top's makes its pixels.
easel_jpeg_status easel_jpeg_decode_rows(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                         const easel_jpeg_limits *limits, unsigned eighths, uint32_t first_row,
                                         uint32_t end_row, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
