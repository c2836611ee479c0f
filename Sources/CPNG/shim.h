#ifndef GIFVIEW_CPNG_SHIM_H
#define GIFVIEW_CPNG_SHIM_H
// libpng's simplified API (png_image), from Debian's libpng-dev.
#include <png.h>
#endif
