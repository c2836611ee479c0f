#ifndef GIFVIEW_CX11_SHIM_H
#define GIFVIEW_CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XShm.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// XDestroyImage is a macro over the image's function table.
static inline int gv_destroy_image(XImage *image) { return XDestroyImage(image); }
// XGetPixel is a macro over the image's function table.
static inline unsigned long gv_get_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }
// shmat's (void *)-1 failure value is not expressible in Swift.
static inline int gv_shmat_failed(void *p) { return p == (void *)-1; }

// Visual's `class` member is spelled c_class only under C++.
#if defined(__cplusplus) || defined(c_plusplus)
static inline int gv_visual_class(Visual *v) { return v->c_class; }
#else
static inline int gv_visual_class(Visual *v) { return v->class; }
#endif

#endif
