#ifndef EASEL_WEBP_SHIM_H
#define EASEL_WEBP_SHIM_H
// libwebp decodes WebP images.
#include <webp/decode.h>
#endif
