#ifndef EASEL_WEBP_H
#define EASEL_WEBP_H
// libwebp decodes WebP images. Opened on first use (easel_on_demand.h): call the
// easel_WebP functions, not its own.
#include <webp/decode.h>

#ifdef __cplusplus
extern "C" {
#endif

// Whether libwebp can be used: opens it on the first call (1), or 0, and then
// `easel_webp_error` says why.
int easel_webp_open(void);
// Why libwebp could not be opened (the dynamic loader's message), or NULL.
const char *easel_webp_error(void);

int easel_WebPGetDecoderVersion(void);
int easel_WebPGetInfo(const uint8_t *data, size_t data_size, int *width, int *height);
uint8_t *easel_WebPDecodeBGRAInto(const uint8_t *data, size_t data_size, uint8_t *output_buffer,
                                  size_t output_buffer_size, int output_stride);

#ifdef __cplusplus
}
#endif

#endif
