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
#include <pthread.h>
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

#if defined(__SSE2__)
#include <emmintrin.h>

// The Paeth filter on four-byte pixels (RGBA) a pixel at a time in SSE2 lanes: it depends on
// the pixel to the left, so it cannot go faster than a pixel at a time, but a pixel's four
// bytes go at once and without branches, about twice the scalar loop's speed (measured on a
// 4000x3000 photo; Sub and Average gain nothing so, and stay scalar). The same arithmetic as
// the scalar loop below, to the same bytes.
static inline __m128i load_pixel(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), _mm_setzero_si128());
}

static inline void store_pixel(uint8_t *p, __m128i lanes) {
    int32_t v = _mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    memcpy(p, &v, 4);
}

static inline __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

static inline __m128i select16(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

static void unfilter_paeth_rgba(uint8_t *row, const uint8_t *above, size_t length) {
    const __m128i byte = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();  // left and above-left
    for (size_t i = 0; i < length; i += 4) {
        const __m128i x = load_pixel(row + i), b = load_pixel(above + i);
        // p = a + b - c: |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |(b - c) + (a - c)|.
        const __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c);
        const __m128i pa = abs16(bc), pb = abs16(ac), pc = abs16(_mm_add_epi16(bc, ac));
        // a where |p - a| is least, else b where |p - b| is, else c (the format's tie order).
        const __m128i least = _mm_min_epi16(pa, _mm_min_epi16(pb, pc));
        const __m128i predicted = select16(_mm_cmpeq_epi16(least, pa), a, select16(_mm_cmpeq_epi16(least, pb), b, c));
        a = _mm_and_si128(_mm_add_epi16(x, predicted), byte);
        c = b;
        store_pixel(row + i, a);
    }
}
#endif

// Undoes row filter `type` on `row` (`length` bytes, `bpp` bytes a pixel) given the row above
// (unfiltered; all zero for the first row). 0 when the type is unknown.
static int unfilter(int type, uint8_t *row, const uint8_t *above, size_t length, size_t bpp) {
#if defined(__SSE2__)
    if (bpp == 4 && type == 4) {
        unfilter_paeth_rgba(row, above, length);
        return 1;
    }
#endif
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
    const uint8_t *p = r->row;
    uint32_t *sum = r->sums;
    const uint32_t f = r->factor, whole = r->width / f;
    if (f == 2) {
        // The common case (a photo drawn at a half to a third of its size), without a loop
        // per block.
        for (uint32_t x = 0; x < whole; x++, p += 8, sum += 4) {
            sum[0] += (uint32_t)p[0] + p[4], sum[1] += (uint32_t)p[1] + p[5];
            sum[2] += (uint32_t)p[2] + p[6], sum[3] += (uint32_t)p[3] + p[7];
        }
    } else {
        for (uint32_t x = 0; x < whole; x++, sum += 4) {
            uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (uint32_t k = 0; k < f; k++, p += 4) s0 += p[0], s1 += p[1], s2 += p[2], s3 += p[3];
            sum[0] += s0, sum[1] += s1, sum[2] += s2, sum[3] += s3;
        }
    }
    // A narrower last block at the right edge.
    for (uint32_t k = whole * f; k < r->width; k++, p += 4) sum[0] += p[0], sum[1] += p[1], sum[2] += p[2], sum[3] += p[3];
    r->rows++;
}

// Writes the group's means as one row of `out` and starts the next group. A mean is the
// rounded quotient of a block's sum by its pixel count; for the whole blocks that count is
// the same, and the division is a multiplication by its reciprocal rounded up, 2^32 / count:
// exact for every sum a block of count pixels can have (below 256 x count) while
// count <= 4096 = 64 x 64, the largest block (the error, under 256 x count / 2^32, stays
// below the 1 / count a quotient needs to round the wrong way; checked for every count and sum).
static void emit_row(reduction *r, uint8_t *out) {
    const uint32_t f = r->factor, whole = r->width / f;
    const uint64_t count = (uint64_t)f * r->rows, inverse = ((1ull << 32) + count - 1) / count;
    const uint32_t *sum = r->sums;
    for (uint32_t x = 0; x < whole; x++, sum += 4, out += 4) {
        for (int c = 0; c < 4; c++) out[c] = (uint8_t)(((sum[c] + count / 2) * inverse) >> 32);
    }
    if (whole < r->reduced_width) {
        const uint32_t partial = (r->width - whole * f) * r->rows;
        for (int c = 0; c < 4; c++) out[c] = (uint8_t)((sum[c] + partial / 2) / partial);
    }
    memset(r->sums, 0, (size_t)r->reduced_width * 4 * sizeof *r->sums);
    r->rows = 0;
}

// The pixel stream, inflated from the IDAT chunks as they come.
typedef struct {
    const uint8_t *bytes;
    size_t length, offset;
    int seen_idat, idat_ended;
    struct inflate_state *state;
} inflater;

// Inflates exactly `size` bytes of raw rows into `out`: 1, or 0 for anything unexpected.
static int inflate_rows(inflater *in, uint8_t *out, size_t size) {
    struct inflate_state *state = in->state;
    state->next_out = out;
    state->avail_out = (uint32_t)size;
    while (state->avail_out > 0) {
        if (state->avail_in == 0 && !in->idat_ended) {
            const int more = next_idat(in->bytes, in->length, &in->offset, &in->seen_idat, state);
            if (more < 0) return 0;
            if (more == 0) in->idat_ended = 1;
        }
        const uint32_t out_before = state->avail_out, in_before = state->avail_in;
        // End of input and of output are how a call ends; below 0 is damage.
        const int status = isal_inflate(state);
        if (status < 0 || status == ISAL_NEED_DICT) return 0;
        if (state->block_state == ISAL_BLOCK_FINISH && state->avail_out > 0) return 0;  // too few rows
        // No progress (the pixels ended with the chunks, or the stream stalls): libpng says why.
        if (state->avail_out == out_before && state->avail_in == in_before) return 0;
    }
    return 1;
}

// 1 when the stream ends here, whole (ISA-L checks its Adler-32) and with no pixels to spare
// or bytes left in its chunk: libpng reads on to the stream's end as well and fails on what
// is broken there, so anything but a clean end is left to it.
static int inflate_ends_cleanly(inflater *in) {
    struct inflate_state *state = in->state;
    for (;;) {
        if (state->block_state == ISAL_BLOCK_FINISH) break;
        if (state->avail_in == 0 && !in->idat_ended) {
            const int more = next_idat(in->bytes, in->length, &in->offset, &in->seen_idat, state);
            if (more < 0) return 0;
            if (more == 0) in->idat_ended = 1;
        }
        uint8_t spare[16];
        state->next_out = spare;
        state->avail_out = sizeof spare;
        const uint32_t in_before = state->avail_in;
        const int status = isal_inflate(state);
        if (status < 0 || status == ISAL_NEED_DICT || state->avail_out != sizeof spare) return 0;
        if (state->block_state != ISAL_BLOCK_FINISH && state->avail_in == in_before) return 0;
    }
    return state->avail_in == 0;
}

// Raw rows made pixels: unfiltered against the row above, converted, and written (or
// summed into a reduction).
typedef struct {
    uint32_t width, height, factor;
    int has_alpha;
    size_t bpp, row_bytes, raw_row, stride, row;  // `row`: the next row's index
    uint8_t *destination, *above;
    reduction group;
} row_writer;

// Writes `rows` raw rows from `band`: 1, or 0 for an unknown filter type.
static int write_rows(row_writer *w, uint8_t *band, size_t rows) {
    for (size_t r = 0; r < rows; r++, w->row++) {
        uint8_t *raw = band + r * w->raw_row;
        if (!unfilter(raw[0], raw + 1, w->above, w->row_bytes, w->bpp)) return 0;
        if (w->factor == 1) {
            convert(raw + 1, w->destination + w->row * w->stride, w->width, w->has_alpha);
        } else {
            convert(raw + 1, w->group.row, w->width, w->has_alpha);
            add_row(&w->group);
            if (w->group.rows == w->factor || w->row + 1 == w->height) {
                emit_row(&w->group, w->destination + (w->row / w->factor) * w->stride);
            }
        }
        memcpy(w->above, raw + 1, w->row_bytes);
    }
    return 1;
}

// Two cores on one image: this thread inflates bands into a ring of slots while a second
// thread turns the bands already inflated into pixels. Inflating and the rest each take
// about half of a large photo's decoding, so the image is read in a little over half the
// time. The slots pass between the threads under `lock`; nothing else is shared.
enum { SLOTS = 4 };
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint8_t *slot[SLOTS];
    size_t rows[SLOTS];
    size_t bands, inflated, written;  // bands in all, and so far on each side
    int failed;                       // either side stopped: the other stops too
    row_writer *writer;
} pipeline;

static void *write_bands(void *argument) {
    pipeline *p = argument;
    for (size_t band = 0; band < p->bands; band++) {
        pthread_mutex_lock(&p->lock);
        while (p->inflated <= band && !p->failed) pthread_cond_wait(&p->changed, &p->lock);
        const int stop = p->failed;
        pthread_mutex_unlock(&p->lock);
        if (stop) break;
        const int ok = write_rows(p->writer, p->slot[band % SLOTS], p->rows[band % SLOTS]);
        pthread_mutex_lock(&p->lock);
        if (!ok) p->failed = 1;
        p->written = band + 1;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->lock);
        if (!ok) break;
    }
    return NULL;
}

// The bands through the pipeline; OK, DECLINED or DEADLINE. -1 when no second thread could
// be started (nothing was read: the caller reads on one core).
static int read_pipelined(inflater *in, row_writer *w, uint64_t deadline) {
    pipeline p = {.bands = (w->height + BAND_ROWS - 1) / BAND_ROWS, .writer = w};
    int slots = 0;
    for (; slots < SLOTS; slots++) {
        if ((p.slot[slots] = malloc(w->raw_row * BAND_ROWS)) == NULL) break;
    }
    pthread_t thread;
    int started = slots == SLOTS && pthread_mutex_init(&p.lock, NULL) == 0;
    if (started && pthread_cond_init(&p.changed, NULL) != 0) {
        pthread_mutex_destroy(&p.lock);
        started = 0;
    }
    if (started && pthread_create(&thread, NULL, write_bands, &p) != 0) {
        pthread_cond_destroy(&p.changed);
        pthread_mutex_destroy(&p.lock);
        started = 0;
    }
    if (!started) {
        for (int i = 0; i < slots; i++) free(p.slot[i]);
        return -1;
    }
    int result = EASEL_PNG_FAST_OK;
    for (size_t band = 0; band < p.bands; band++) {
        pthread_mutex_lock(&p.lock);
        while (band - p.written >= SLOTS && !p.failed) pthread_cond_wait(&p.changed, &p.lock);
        const int stop = p.failed;
        pthread_mutex_unlock(&p.lock);
        if (stop) {
            result = EASEL_PNG_FAST_DECLINED;
            break;
        }
        const size_t first = band * BAND_ROWS;
        const size_t rows = w->height - first < BAND_ROWS ? w->height - first : BAND_ROWS;
        int ok = inflate_rows(in, p.slot[band % SLOTS], w->raw_row * rows);
        if (ok && deadline && now_ns() >= deadline) {
            result = EASEL_PNG_FAST_DEADLINE;
            ok = 0;
        } else if (!ok) {
            result = EASEL_PNG_FAST_DECLINED;
        }
        pthread_mutex_lock(&p.lock);
        p.rows[band % SLOTS] = rows;
        if (ok) p.inflated = band + 1;
        else p.failed = 1;
        pthread_cond_broadcast(&p.changed);
        pthread_mutex_unlock(&p.lock);
        if (!ok) break;
    }
    // The stream's end is checked while the last bands are written.
    if (result == EASEL_PNG_FAST_OK && !inflate_ends_cleanly(in)) result = EASEL_PNG_FAST_DECLINED;
    pthread_join(thread, NULL);
    if (result == EASEL_PNG_FAST_OK && (p.failed || p.written != p.bands)) result = EASEL_PNG_FAST_DECLINED;
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    for (int i = 0; i < SLOTS; i++) free(p.slot[i]);
    return result;
}

easel_png_fast_status easel_png_fast_read(const uint8_t *bytes, size_t length, uint8_t *destination, size_t stride,
                                          uint64_t time_allowed_ns, int two_threads) {
    return easel_png_fast_read_reduced(bytes, length, destination, stride, time_allowed_ns, 1, two_threads);
}

easel_png_fast_status easel_png_fast_read_reduced(const uint8_t *bytes, size_t length, uint8_t *destination,
                                                  size_t stride, uint64_t time_allowed_ns, uint32_t factor,
                                                  int two_threads) {
    if (bytes == NULL || length < 8 + 25 || factor < 1 || factor > 64) return EASEL_PNG_FAST_DECLINED;
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
    // IHDR's CRC (libpng checked it too).
    if (crc32_gzip_refl(0, ihdr + 4, 17) != be32(ihdr + 21)) return EASEL_PNG_FAST_DECLINED;
    const int has_alpha = color == 6;
    const size_t bpp = has_alpha ? 4 : 3, row_bytes = (size_t)width * bpp;
    const uint64_t deadline = time_allowed_ns ? now_ns() + time_allowed_ns : 0;

    row_writer w = {
        .width = width, .height = height, .factor = factor, .has_alpha = has_alpha, .bpp = bpp,
        .row_bytes = row_bytes, .raw_row = row_bytes + 1, .stride = stride, .row = 0,
        .destination = destination, .above = calloc(row_bytes, 1),
        .group = {factor, width, reduced_width, 0, NULL, NULL},
    };
    if (factor > 1) {
        w.group.sums = calloc((size_t)reduced_width * 4, sizeof *w.group.sums);
        w.group.row = malloc((size_t)width * 4);
    }
    inflater in = {.bytes = bytes, .length = length, .offset = 8 + 25, .state = malloc(sizeof(struct inflate_state))};
    uint8_t *band = NULL;
    int result = EASEL_PNG_FAST_DECLINED;
    if (w.above == NULL || in.state == NULL || (factor > 1 && (w.group.sums == NULL || w.group.row == NULL))) goto done;
    isal_inflate_init(in.state);
    in.state->crc_flag = ISAL_ZLIB;

    if (two_threads && height > BAND_ROWS) {
        result = read_pipelined(&in, &w, deadline);
        if (result >= 0) goto done;
        result = EASEL_PNG_FAST_DECLINED;  // no second thread: on this one
    }
    if ((band = malloc(w.raw_row * BAND_ROWS)) == NULL) goto done;
    while (w.row < height) {
        const size_t rows = height - w.row < BAND_ROWS ? height - w.row : BAND_ROWS;
        if (!inflate_rows(&in, band, w.raw_row * rows) || !write_rows(&w, band, rows)) goto done;
        if (deadline && now_ns() >= deadline) {
            result = EASEL_PNG_FAST_DEADLINE;
            goto done;
        }
    }
    result = inflate_ends_cleanly(&in) ? EASEL_PNG_FAST_OK : EASEL_PNG_FAST_DECLINED;
done:
    free(band);
    free(w.group.sums);
    free(w.group.row);
    free(w.above);
    free(in.state);
    return (easel_png_fast_status)result;
}
