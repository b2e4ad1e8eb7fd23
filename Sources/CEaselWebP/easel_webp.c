#include "easel_webp.h"

#include <easel_on_demand.h>

#define CALL(name) EASEL_ON_DEMAND(EASEL_LIBRARY_WEBP, name)

int easel_webp_open(void) { return easel_library_open(EASEL_LIBRARY_WEBP); }

const char *easel_webp_error(void) { return easel_library_error(EASEL_LIBRARY_WEBP); }

int easel_WebPGetDecoderVersion(void) { return CALL(WebPGetDecoderVersion)(); }

int easel_WebPGetInfo(const uint8_t *data, size_t data_size, int *width, int *height) {
    return CALL(WebPGetInfo)(data, data_size, width, height);
}

uint8_t *easel_WebPDecodeBGRAInto(const uint8_t *data, size_t data_size, uint8_t *output_buffer,
                                  size_t output_buffer_size, int output_stride) {
    return CALL(WebPDecodeBGRAInto)(data, data_size, output_buffer, output_buffer_size, output_stride);
}
