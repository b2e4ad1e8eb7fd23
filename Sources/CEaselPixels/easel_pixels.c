// Bilinear samples of a turned image (see easel_pixels.h): pixman's generic fetcher for a
// transform that turns takes about 15 ns a pixel with no SIMD; this one reads the two pixels
// of each row as one 8-byte load, weighs the rows in SSE2 lanes and then the columns in one
// multiply-add (a scalar loop with the same arithmetic serves machines without SSE2).

#include "easel_pixels.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// How many samples ahead the source row below is fetched into the cache.
enum { PREFETCH_AHEAD = 32 };

// The four pixels around (x, y), edge pixels repeated outward: top left, top right, bottom
// left, bottom right.
static inline void corners(const uint8_t *source, int64_t width, int64_t height, size_t stride, int64_t x, int64_t y,
                           uint32_t out[4]) {
    const int64_t x0 = x < 0 ? 0 : x >= width ? width - 1 : x;
    const int64_t x1 = x + 1 < 0 ? 0 : x + 1 >= width ? width - 1 : x + 1;
    const int64_t y0 = y < 0 ? 0 : y >= height ? height - 1 : y;
    const int64_t y1 = y + 1 < 0 ? 0 : y + 1 >= height ? height - 1 : y + 1;
    const uint8_t *top = source + (size_t)y0 * stride, *bottom = source + (size_t)y1 * stride;
    memcpy(&out[0], top + (size_t)x0 * 4, 4);
    memcpy(&out[1], top + (size_t)x1 * 4, 4);
    memcpy(&out[2], bottom + (size_t)x0 * 4, 4);
    memcpy(&out[3], bottom + (size_t)x1 * 4, 4);
}

#if !defined(__SSE2__)
// Each channel: (tl·(128−dy) + bl·dy)·(128−dx) + (tr·(128−dy) + br·dy)·dx, cut to a level.
static inline uint32_t blend(const uint32_t p[4], uint32_t dx, uint32_t dy) {
    uint32_t result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        const uint32_t tl = p[0] >> shift & 0xFF, tr = p[1] >> shift & 0xFF;
        const uint32_t bl = p[2] >> shift & 0xFF, br = p[3] >> shift & 0xFF;
        const uint32_t left = tl * (128 - dy) + bl * dy, right = tr * (128 - dy) + br * dy;
        result |= ((left * (128 - dx) + right * dx) >> 14) << shift;
    }
    return result;
}
#endif

void easel_sample_turned(const uint8_t *source, int32_t width, int32_t height, size_t source_stride, int opaque,
                         uint8_t *target, size_t target_stride, int32_t region_x, int32_t region_y,
                         int32_t region_width, int32_t region_height, int64_t origin_x, int64_t origin_y,
                         int64_t step_x, int64_t step_y, int64_t row_step_x, int64_t row_step_y) {
    if (!source || !target || width <= 0 || height <= 0 || region_width <= 0 || region_height <= 0) return;
    const uint32_t padding = opaque ? 0xFF000000u : 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), pad = _mm_set1_epi32((int)padding), whole = _mm_set1_epi16(128);
#endif
    for (int32_t row = 0; row < region_height; row++) {
        const int64_t device_y = (int64_t)region_y + row;
        // Each row's first position from the device origin, so that any band samples alike.
        int64_t u = origin_x + (int64_t)region_x * step_x + device_y * row_step_x;
        int64_t v = origin_y + (int64_t)region_x * step_y + device_y * row_step_y;
        uint32_t *out = (uint32_t *)(target + (size_t)row * target_stride);
        for (int32_t column = 0; column < region_width; column++, u += step_x, v += step_y) {
            const int64_t x = u >> 32, y = v >> 32;
            // The fraction in 128ths.
            const uint32_t dx = (uint32_t)(u >> 25 & 0x7F), dy = (uint32_t)(v >> 25 & 0x7F);
#if defined(__SSE2__)
            __m128i top, bottom;  // two pixels each, left then right, in the low 8 bytes
            // The row below a position is new to the cache more often than not (a turned row
            // of samples crosses the image's rows): asking for it a few dozen samples ahead
            // overlaps those misses instead of waiting out each (the sampling took 3x as long).
            // (Every fourth sample asks: a cache line holds 16 pixels.)
            if ((column & 3) == 0) {
                const int64_t ahead_x = (u + PREFETCH_AHEAD * step_x) >> 32;
                const int64_t ahead_y = ((v + PREFETCH_AHEAD * step_y) >> 32) + 1;
                if (ahead_x >= 0 && ahead_x < width && ahead_y >= 0 && ahead_y < height) {
                    _mm_prefetch((const char *)(source + (size_t)ahead_y * source_stride + (size_t)ahead_x * 4), _MM_HINT_T0);
                }
            }
            if (x >= 0 && x < width - 1 && y >= 0 && y < height - 1) {
                const uint8_t *p = source + (size_t)y * source_stride + (size_t)x * 4;
                top = _mm_loadl_epi64((const __m128i *)p);
                bottom = _mm_loadl_epi64((const __m128i *)(p + source_stride));
            } else {
                uint32_t p[4];
                corners(source, width, height, source_stride, x, y, p);
                top = _mm_set_epi32(0, 0, (int)p[1], (int)p[0]);
                bottom = _mm_set_epi32(0, 0, (int)p[3], (int)p[2]);
            }
            // Down first: each channel of the top pair times 128 − dy plus the bottom pair's
            // times dy (at most 255 × 128, within a signed 16-bit lane); then across, the left
            // and right sums side by side, times 128 − dx and dx and added in one multiply-add
            // to 32 bits (at most 255 × 128 × 128), cut to a level. The same integer sum as
            // weighing the four pixels at once, so the same bytes.
            const __m128i down = _mm_set1_epi16((short)dy);
            const __m128i t = _mm_mullo_epi16(_mm_unpacklo_epi8(_mm_or_si128(top, pad), zero), _mm_sub_epi16(whole, down));
            const __m128i b = _mm_mullo_epi16(_mm_unpacklo_epi8(_mm_or_si128(bottom, pad), zero), down);
            const __m128i column_sums = _mm_add_epi16(t, b);  // left pixel's four channels, then the right's
            const __m128i pairs = _mm_unpacklo_epi16(column_sums, _mm_srli_si128(column_sums, 8));
            const __m128i across = _mm_set1_epi32((int)((uint32_t)dx << 16 | (128 - dx)));
            __m128i sum = _mm_srli_epi32(_mm_madd_epi16(pairs, across), 14);
            sum = _mm_packs_epi32(sum, zero);
            sum = _mm_packus_epi16(sum, zero);
            out[column] = (uint32_t)_mm_cvtsi128_si32(sum);
#else
            uint32_t p[4];
            corners(source, width, height, source_stride, x, y, p);
            for (int i = 0; i < 4; i++) p[i] |= padding;
            out[column] = blend(p, dx, dy);
#endif
        }
    }
}
