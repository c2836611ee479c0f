// See include/CXft.h: libXft is resolved with dlopen/dlsym on first use; each pointer has
// the function's own C type, with the mirrored structs in place of Xft's.
#include "CXft.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static struct {
  GVXftFont *(*font_open_name)(Display *, int, const char *);
  void (*font_close)(Display *, GVXftFont *);
  int (*char_exists)(Display *, GVXftFont *, unsigned int);
  GVXftDraw *(*draw_create)(Display *, Drawable, Visual *, Colormap);
  void (*draw_change)(GVXftDraw *, Drawable);
  void (*draw_destroy)(GVXftDraw *);
  int (*color_alloc_value)(Display *, Visual *, Colormap, const GVRenderColor *, GVXftColor *);
  void (*color_free)(Display *, Visual *, Colormap, GVXftColor *);
  void (*draw_string_utf8)(GVXftDraw *, const GVXftColor *, GVXftFont *, int, int, const unsigned char *, int);
  void (*text_extents_utf8)(Display *, GVXftFont *, const unsigned char *, int, GVGlyphInfo *);
  void (*draw_rect)(GVXftDraw *, const GVXftColor *, int, int, unsigned int, unsigned int);
} api;

static const char *load_error = "libXft is not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                        \
  if (!(*(void **)&api.field = dlsym(lib, name))) { \
    load_error = "libXft.so.2 lacks " name;         \
    return;                                         \
  }

static void load(void) {
  void *lib = dlopen("libXft.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    load_error = "libXft.so.2 is not installed";
    return;
  }
  RESOLVE(font_open_name, "XftFontOpenName")
  RESOLVE(font_close, "XftFontClose")
  RESOLVE(char_exists, "XftCharExists")
  RESOLVE(draw_create, "XftDrawCreate")
  RESOLVE(draw_change, "XftDrawChange")
  RESOLVE(draw_destroy, "XftDrawDestroy")
  RESOLVE(color_alloc_value, "XftColorAllocValue")
  RESOLVE(color_free, "XftColorFree")
  RESOLVE(draw_string_utf8, "XftDrawStringUtf8")
  RESOLVE(text_extents_utf8, "XftTextExtentsUtf8")
  RESOLVE(draw_rect, "XftDrawRect")
  load_error = NULL;
}

const char *gv_xft_load(void) {
  pthread_once(&once, load);
  return load_error;
}

GVXftFont *gv_xft_font_open_name(Display *d, int screen, const char *name) {
  return api.font_open_name(d, screen, name);
}
void gv_xft_font_close(Display *d, GVXftFont *font) { api.font_close(d, font); }
int gv_xft_char_exists(Display *d, GVXftFont *font, unsigned int ucs4) { return api.char_exists(d, font, ucs4); }
GVXftDraw *gv_xft_draw_create(Display *d, Drawable drawable, Visual *visual, Colormap colormap) {
  return api.draw_create(d, drawable, visual, colormap);
}
void gv_xft_draw_change(GVXftDraw *draw, Drawable drawable) { api.draw_change(draw, drawable); }
void gv_xft_draw_destroy(GVXftDraw *draw) { api.draw_destroy(draw); }
int gv_xft_color_alloc(Display *d, Visual *v, Colormap c, const GVRenderColor *rc, GVXftColor *out) {
  return api.color_alloc_value(d, v, c, rc, out);
}
void gv_xft_color_free(Display *d, Visual *v, Colormap c, GVXftColor *color) { api.color_free(d, v, c, color); }
void gv_xft_draw_string(GVXftDraw *draw, const GVXftColor *color, GVXftFont *font, int x, int y,
                        const unsigned char *utf8, int len) {
  api.draw_string_utf8(draw, color, font, x, y, utf8, len);
}
void gv_xft_text_extents(Display *d, GVXftFont *font, const unsigned char *utf8, int len, GVGlyphInfo *out) {
  api.text_extents_utf8(d, font, utf8, len, out);
}
void gv_xft_draw_rect(GVXftDraw *draw, const GVXftColor *color, int x, int y, unsigned int w, unsigned int h) {
  api.draw_rect(draw, color, x, y, w, h);
}
