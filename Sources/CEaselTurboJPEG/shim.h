#ifndef EASEL_TURBOJPEG_SHIM_H
#define EASEL_TURBOJPEG_SHIM_H
// libjpeg-turbo's TurboJPEG API decodes JPEG photos (it reports errors by return value).
#include <turbojpeg.h>
#endif
