// Pixel kernels Easel runs on its own instead of through pixman, where pixman has no fast
// path or Swift's scalar code is several times slower: sampling a turned image and shrinking
// an image by area (EaselCairo's TurnedImageSampler and PixelBuffer's resampler call it).
#ifndef EASEL_PIXELS_H
#define EASEL_PIXELS_H

#include <stddef.h>
#include <stdint.h>

// Fills `region_width` x `region_height` premultiplied ARGB32 pixels of `target` (rows
// `target_stride` bytes apart), which are device pixels (`region_x` + i, `region_y` + j),
// with bilinear samples of `source` (`width` x `height` ARGB32 pixels, rows `source_stride`
// bytes apart; `opaque`: RGB24, whose top byte is padding and reads as 255). Device pixel
// (x, y) samples the image at (origin_x + x * step_x + y * row_step_x, and likewise for y),
// in 32.32 fixed point, less half a pixel already: the four pixels around that position
// (beyond an edge, the edge's own), weighed by its fraction in 128ths, as pixman weighs
// them. The caller keeps every position within 2^31 pixels.
void easel_sample_turned(const uint8_t *source, int32_t width, int32_t height, size_t source_stride, int opaque,
                         uint8_t *target, size_t target_stride, int32_t region_x, int32_t region_y,
                         int32_t region_width, int32_t region_height, int64_t origin_x, int64_t origin_y,
                         int64_t step_x, int64_t step_y, int64_t row_step_x, int64_t row_step_y);

// One row of `width` ARGB32 pixels (`target`), each the mean of the source pixels under it:
// down, each of the `source_width` pixels of the `row_taps` source rows at `rows[i]` weighed
// `row_weights[i]` and summed (into `column`, scratch memory for 4 x `source_width` values);
// then across, target pixel x the sum of `column_taps` of those, the source pixels
// `column_sources[x * column_taps + k]` weighed `column_weights[x * column_taps + k]` (a
// weight of 0 where a pixel has fewer). Both sets of weights are in 256ths and add up to 256,
// so each channel's sum is in 65536ths of a level; it is rounded to the nearest level.
void easel_box_reduce_row(const uint8_t *const *rows, const uint16_t *row_weights, ptrdiff_t row_taps,
                          ptrdiff_t source_width, uint16_t *column, const ptrdiff_t *column_sources,
                          const uint16_t *column_weights, ptrdiff_t column_taps, ptrdiff_t width, uint8_t *target);

#endif
