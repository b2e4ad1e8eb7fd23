// One row of an image shrunk by area (see easel_pixels.h). Down first, then across: the same
// integer sums as weighing each source pixel by its row's and its column's weight at once,
// so the same bytes as the Swift loop this replaced, in about half the time (15 % of 100
// folder cards' samples then, 8 % now; docs/architecture.md). Down, every source pixel of
// the row's taps, four at a time in 16-bit lanes; across, a fixed number of taps a pixel with
// zero weights for padding, so that no branch depends on how many source pixels one covers.

#include "easel_pixels.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void easel_box_reduce_row(const uint8_t *const *rows, const uint16_t *row_weights, ptrdiff_t row_taps,
                          ptrdiff_t source_width, uint16_t *column, const ptrdiff_t *column_sources,
                          const uint16_t *column_weights, ptrdiff_t column_taps, ptrdiff_t width, uint8_t *target) {
    if (!rows || !row_weights || row_taps <= 0 || source_width <= 0 || !column || !column_sources || !column_weights ||
        column_taps <= 0 || width <= 0 || !target)
        return;
    // Down: a channel's sum is at most 255 x 256 (the weights add up to 256), which an
    // unsigned 16-bit lane holds.
    const ptrdiff_t channels = source_width * 4;
    ptrdiff_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= channels; i += 16) {
        __m128i low = zero, high = zero;
        for (ptrdiff_t tap = 0; tap < row_taps; tap++) {
            const __m128i weight = _mm_set1_epi16((short)row_weights[tap]);
            const __m128i pixels = _mm_loadu_si128((const __m128i *)(rows[tap] + i));
            low = _mm_add_epi16(low, _mm_mullo_epi16(_mm_unpacklo_epi8(pixels, zero), weight));
            high = _mm_add_epi16(high, _mm_mullo_epi16(_mm_unpackhi_epi8(pixels, zero), weight));
        }
        _mm_storeu_si128((__m128i *)(column + i), low);
        _mm_storeu_si128((__m128i *)(column + i + 8), high);
    }
#endif
    for (; i < channels; i++) {
        uint32_t sum = 0;
        for (ptrdiff_t tap = 0; tap < row_taps; tap++) sum += (uint32_t)rows[tap][i] * row_weights[tap];
        column[i] = (uint16_t)sum;
    }
    // Across: at most 255 x 65536 a channel, in 32 bits.
    for (ptrdiff_t x = 0; x < width; x++) {
        const ptrdiff_t *sources = column_sources + x * column_taps;
        const uint16_t *weights = column_weights + x * column_taps;
#if defined(__SSE2__)
        __m128i sum = zero;
        for (ptrdiff_t k = 0; k < column_taps; k++) {
            const __m128i values = _mm_loadl_epi64((const __m128i *)(column + sources[k] * 4));
            const __m128i weight = _mm_set1_epi16((short)weights[k]);
            // The 32-bit products from their low and high halves.
            sum = _mm_add_epi32(sum, _mm_unpacklo_epi16(_mm_mullo_epi16(values, weight), _mm_mulhi_epu16(values, weight)));
        }
        // Rounded to a level; packing saturates at 255.
        sum = _mm_srli_epi32(_mm_add_epi32(sum, _mm_set1_epi32(32768)), 16);
        sum = _mm_packus_epi16(_mm_packs_epi32(sum, zero), zero);
        const uint32_t pixel = (uint32_t)_mm_cvtsi128_si32(sum);
        memcpy(target + x * 4, &pixel, 4);
#else
        for (int channel = 0; channel < 4; channel++) {
            uint32_t sum = 0;
            for (ptrdiff_t k = 0; k < column_taps; k++) sum += (uint32_t)column[sources[k] * 4 + channel] * weights[k];
            const uint32_t level = (sum + 32768) >> 16;
            target[x * 4 + channel] = (uint8_t)(level > 255 ? 255 : level);
        }
#endif
    }
}
