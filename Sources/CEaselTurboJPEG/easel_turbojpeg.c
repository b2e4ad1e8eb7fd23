#include "easel_turbojpeg.h"

#include <easel_on_demand.h>

#define CALL(name) EASEL_ON_DEMAND(EASEL_LIBRARY_TURBOJPEG, name)

int easel_turbojpeg_open(void) { return easel_library_open(EASEL_LIBRARY_TURBOJPEG); }

const char *easel_turbojpeg_error(void) { return easel_library_error(EASEL_LIBRARY_TURBOJPEG); }

tjhandle easel_tjInitDecompress(void) { return CALL(tjInitDecompress)(); }

int easel_tjDestroy(tjhandle handle) { return CALL(tjDestroy)(handle); }

int easel_tjDecompressHeader3(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, int *width,
                              int *height, int *jpegSubsamp, int *jpegColorspace) {
    return CALL(tjDecompressHeader3)(handle, jpegBuf, jpegSize, width, height, jpegSubsamp, jpegColorspace);
}

int easel_tjDecompress2(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, unsigned char *dstBuf,
                        int width, int pitch, int height, int pixelFormat, int flags) {
    return CALL(tjDecompress2)(handle, jpegBuf, jpegSize, dstBuf, width, pitch, height, pixelFormat, flags);
}

int easel_tjGetErrorCode(tjhandle handle) { return CALL(tjGetErrorCode)(handle); }

char *easel_tjGetErrorStr2(tjhandle handle) { return CALL(tjGetErrorStr2)(handle); }
