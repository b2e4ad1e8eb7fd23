#ifndef EASEL_TURBOJPEG_H
#define EASEL_TURBOJPEG_H
// libjpeg-turbo's TurboJPEG API decodes JPEG photos (it reports errors by return value).
// Opened on first use (easel_on_demand.h): call the easel_tj functions, not its own.
#include <turbojpeg.h>

#ifdef __cplusplus
extern "C" {
#endif

// Whether libjpeg-turbo can be used: opens it on the first call (1), or 0, and then
// `easel_turbojpeg_error` says why.
int easel_turbojpeg_open(void);
// Why libjpeg-turbo could not be opened (the dynamic loader's message), or NULL.
const char *easel_turbojpeg_error(void);

tjhandle easel_tjInitDecompress(void);
int easel_tjDestroy(tjhandle handle);
int easel_tjDecompressHeader3(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, int *width,
                              int *height, int *jpegSubsamp, int *jpegColorspace);
int easel_tjDecompress2(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize, unsigned char *dstBuf,
                        int width, int pitch, int height, int pixelFormat, int flags);
int easel_tjGetErrorCode(tjhandle handle);
char *easel_tjGetErrorStr2(tjhandle handle);

#ifdef __cplusplus
}
#endif

#endif
