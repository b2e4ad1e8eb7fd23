// Easel's own reader for the PNGs photos are saved as: 8-bit RGB or RGBA, not interlaced, no
// transparent colour (tRNS). Every chunk's CRC is checked (ISA-L's vectorised CRC-32), the
// pixel stream is inflated with ISA-L's igzip (the library Easel already writes PNGs with,
// about twice zlib's speed), the rows are unfiltered and turned into premultiplied ARGB32 a
// band at a time, so no more than a band of the raw stream is ever held.
//
// It decodes the files it takes to exactly the pixels libpng gives (a test compares them on
// every filter and both colour types); anything else, or anything unexpected on the way (a
// bad CRC, a broken stream, too few rows or too many, a stream that does not end cleanly with
// its chunk, a filter type past 4, chunks out of order), is left
// to libpng, which says what is wrong in its own words: this path only has to be right on
// well-formed files, and to stop without harm on the rest.

#include "easel_png.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BAND_ROWS = 32 };

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static inline uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc) ? b : c);
}

// Undoes row filter `type` on `row` (`length` bytes, `bpp` bytes a pixel) given the row above
// (unfiltered; all zero for the first row). 0 when the type is unknown.
static int unfilter(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
    switch (type) {
    case 0: return 1;
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + above[i]);
        return 1;
    case 3:
        for (size_t i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + (above[i] >> 1));
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + above[i]) >> 1));
        return 1;
    case 4:
        for (size_t i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + above[i]);  // paeth(0, b, 0) = b
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + paeth(row[i - bpp], above[i], above[i - bpp]));
        return 1;
    default: return 0;
    }
}

static inline uint8_t premultiply(uint8_t value, uint8_t alpha) {
    // As libpng's and cairo's own: round(value * alpha / 255).
    unsigned t = (unsigned)value * alpha + 0x80;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

// One unfiltered row as native-endian premultiplied ARGB32 (B, G, R, A on little-endian).
static void convert(const uint8_t *row, uint8_t *out, uint32_t width, int has_alpha) {
    if (has_alpha) {
        for (uint32_t x = 0; x < width; x++, row += 4) {
            uint8_t a = row[3];
            uint32_t argb = (uint32_t)a << 24;
            if (a == 0xFF) argb |= (uint32_t)row[0] << 16 | (uint32_t)row[1] << 8 | row[2];
            else argb |= (uint32_t)premultiply(row[0], a) << 16 | (uint32_t)premultiply(row[1], a) << 8 | premultiply(row[2], a);
            memcpy(out + (size_t)x * 4, &argb, 4);
        }
    } else {
        for (uint32_t x = 0; x < width; x++, row += 3) {
            uint32_t argb = 0xFF000000u | (uint32_t)row[0] << 16 | (uint32_t)row[1] << 8 | row[2];
            memcpy(out + (size_t)x * 4, &argb, 4);
        }
    }
}

// Feeds the next chunk's data to `state` when it is an IDAT (1), after checking its CRC and
// skipping the ancillary chunks that may come before the pixels; 0 when the chunk after the
// pixels is not an IDAT (they have ended); -1 for anything else (a bad CRC or length, a
// chunk out of place, a transparent colour).
static int next_idat(const uint8_t *bytes, size_t length, size_t *offset, int *seen_idat, struct inflate_state *state) {
    for (;;) {
        if (*offset + 12 > length) return -1;
        const uint32_t chunk_length = be32(bytes + *offset);
        if (chunk_length > length - *offset - 12) return -1;
        const uint8_t *type = bytes + *offset + 4;
        if (crc32_gzip_refl(0, type, chunk_length + 4) != be32(type + 4 + chunk_length)) return -1;
        if (memcmp(type, "IDAT", 4) == 0) {
            *seen_idat = 1;
            *offset += 12 + (size_t)chunk_length;
            state->next_in = (uint8_t *)(type + 4);
            state->avail_in = chunk_length;
            return 1;
        }
        if (*seen_idat) return 0;
        // Before the pixels: only ancillary chunks (a lower-case first letter) and a suggested
        // palette, and never a transparent colour (tRNS), which changes the pixels.
        const int ancillary = (type[0] & 0x20) != 0;
        if (memcmp(type, "tRNS", 4) == 0 || (!ancillary && memcmp(type, "PLTE", 4) != 0)) return -1;
        *offset += 12 + (size_t)chunk_length;
    }
}

// Sums of a group of `factor` rows, by reduced pixel and channel (bytes B, G, R, A of the
// native ARGB32 word on a little-endian machine, or the reverse; any order sums alike).
typedef struct {
    uint32_t factor, width, reduced_width, rows;  // rows summed so far in the group
    uint32_t *sums;
    uint8_t *row;  // one converted source row
} reduction;

static void add_row(reduction *r) {
    const uint32_t f = r->factor;
    for (uint32_t x = 0; x < r->width; x++) {
        uint32_t *sum = r->sums + (size_t)(x / f) * 4;
        const uint8_t *p = r->row + (size_t)x * 4;
        sum[0] += p[0], sum[1] += p[1], sum[2] += p[2], sum[3] += p[3];
    }
    r->rows++;
}

// Writes the group's means as one row of `out` and starts the next group.
static void emit_row(reduction *r, uint8_t *out) {
    const uint32_t f = r->factor;
    for (uint32_t x = 0; x < r->reduced_width; x++) {
        const uint32_t columns = (x + 1) * f <= r->width ? f : r->width - x * f;
        const uint32_t count = columns * r->rows;
        const uint32_t *sum = r->sums + (size_t)x * 4;
        for (int c = 0; c < 4; c++) out[(size_t)x * 4 + c] = (uint8_t)((sum[c] + count / 2) / count);
    }
    memset(r->sums, 0, (size_t)r->reduced_width * 4 * sizeof *r->sums);
    r->rows = 0;
}

static easel_png_fast_status fast_read(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                       uint64_t time_allowed_ns, uint32_t factor);

easel_png_fast_status easel_png_fast_read(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                          uint64_t time_allowed_ns) {
    return fast_read(bytes, length, destination, stride, time_allowed_ns, 1);
}

easel_png_fast_status easel_png_fast_read_reduced(const uint8_t *bytes, size_t length, uint8_t *destination,
                                                  size_t stride, uint64_t time_allowed_ns, uint32_t factor) {
    if (factor < 1 || factor > 64) return EASEL_PNG_FAST_DECLINED;
    return fast_read(bytes, length, destination, stride, time_allowed_ns, factor);
}

static easel_png_fast_status fast_read(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                       uint64_t time_allowed_ns, uint32_t factor) {
    if (bytes == NULL || length < 8 + 25) return EASEL_PNG_FAST_DECLINED;
    // IHDR, first, as the format requires.
    const uint8_t *ihdr = bytes + 8;
    if (be32(ihdr) != 13 || memcmp(ihdr + 4, "IHDR", 4) != 0) return EASEL_PNG_FAST_DECLINED;
    const uint32_t width = be32(ihdr + 8), height = be32(ihdr + 12);
    const int depth = ihdr[16], color = ihdr[17], interlace = ihdr[20];
    if (depth != 8 || (color != 2 && color != 6) || interlace != 0 || ihdr[18] != 0 || ihdr[19] != 0) {
        return EASEL_PNG_FAST_DECLINED;
    }
    if (width == 0 || height == 0) return EASEL_PNG_FAST_DECLINED;
    const uint32_t reduced_width = (uint32_t)(((uint64_t)width + factor - 1) / factor);
    if (stride < (size_t)reduced_width * 4) return EASEL_PNG_FAST_DECLINED;
    const int has_alpha = color == 6;
    const size_t bpp = has_alpha ? 4 : 3, row_bytes = (size_t)width * bpp, raw_row = row_bytes + 1;
    const uint64_t deadline = time_allowed_ns ? now_ns() + time_allowed_ns : 0;

    uint8_t *band = malloc(raw_row * BAND_ROWS), *above = calloc(row_bytes, 1);
    struct inflate_state *state = malloc(sizeof *state);
    reduction group = {factor, width, reduced_width, 0, NULL, NULL};
    if (factor > 1) {
        group.sums = calloc((size_t)reduced_width * 4, sizeof *group.sums);
        group.row = malloc((size_t)width * 4);
    }
    easel_png_fast_status result = EASEL_PNG_FAST_DECLINED;
    if (band == NULL || above == NULL || state == NULL || (factor > 1 && (group.sums == NULL || group.row == NULL))) {
        goto done;
    }
    isal_inflate_init(state);
    state->crc_flag = ISAL_ZLIB;

    // IHDR's CRC (libpng checked it too), then the chunks after it.
    if (crc32_gzip_refl(0, ihdr + 4, 17) != be32(ihdr + 21)) goto done;
    size_t offset = 8 + 25, row = 0;
    int seen_idat = 0, idat_ended = 0;
    while (row < height) {
        // Inflate up to a band of rows, feeding IDAT chunks as the stream asks for them.
        const size_t rows = height - row < BAND_ROWS ? height - row : BAND_ROWS;
        state->next_out = band;
        state->avail_out = (uint32_t)(raw_row * rows);
        while (state->avail_out > 0) {
            if (state->avail_in == 0 && !idat_ended) {
                const int more = next_idat(bytes, length, &offset, &seen_idat, state);
                if (more < 0) goto done;
                if (more == 0) idat_ended = 1;
            }
            const uint32_t out_before = state->avail_out, in_before = state->avail_in;
            // End of input and of output are how a call ends; below 0 is damage.
            const int status = isal_inflate(state);
            if (status < 0 || status == ISAL_NEED_DICT) goto done;
            if (state->block_state == ISAL_BLOCK_FINISH && state->avail_out > 0) goto done;  // too few rows
            // No progress (the pixels ended with the chunks, or the stream stalls): libpng says why.
            if (state->avail_out == out_before && state->avail_in == in_before) goto done;
        }
        // Unfilter the band's rows and write them out.
        for (size_t r = 0; r < rows; r++, row++) {
            uint8_t *raw = band + r * raw_row;
            if (!unfilter(raw[0], raw + 1, above, row_bytes, bpp)) goto done;
            if (factor == 1) {
                convert(raw + 1, destination + row * stride, width, has_alpha);
            } else {
                convert(raw + 1, group.row, width, has_alpha);
                add_row(&group);
                if (group.rows == factor || row + 1 == height) emit_row(&group, destination + (row / factor) * stride);
            }
            memcpy(above, raw + 1, row_bytes);
        }
        if (deadline && now_ns() >= deadline) {
            result = EASEL_PNG_FAST_DEADLINE;
            goto done;
        }
    }
    // The stream must end here, whole (ISA-L checks its Adler-32) and with no pixels to
    // spare or bytes left in its chunk: libpng reads on to the stream's end as well and
    // fails on what is broken there, so anything but a clean end is left to it.
    for (;;) {
        if (state->block_state == ISAL_BLOCK_FINISH) break;
        if (state->avail_in == 0 && !idat_ended) {
            const int more = next_idat(bytes, length, &offset, &seen_idat, state);
            if (more < 0) goto done;
            if (more == 0) idat_ended = 1;
        }
        uint8_t spare[16];
        state->next_out = spare;
        state->avail_out = sizeof spare;
        const uint32_t in_before = state->avail_in;
        const int status = isal_inflate(state);
        if (status < 0 || status == ISAL_NEED_DICT || state->avail_out != sizeof spare) goto done;
        if (state->block_state != ISAL_BLOCK_FINISH && state->avail_in == in_before) goto done;
    }
    if (state->avail_in != 0) goto done;
    result = EASEL_PNG_FAST_OK;
done:
    free(group.sums);
    free(group.row);
    free(band);
    free(above);
    free(state);
    return result;
}
