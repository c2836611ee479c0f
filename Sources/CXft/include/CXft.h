#ifndef GIFVIEW_CXFT_H
#define GIFVIEW_CXFT_H
// Xft (anti-aliased client-side text through fontconfig and FreeType), opened with dlopen
// on first use: a GIF's first frame never waits for the fonts, the headless modes never
// load the ~8 libraries Xft pulls in, and without libXft text falls back to core fonts.
// The few Xft types used are declared here as libXft 2 defines them (stable since 2002),
// so building needs no freetype headers.
#include <X11/Xlib.h>

typedef struct {
  unsigned short red, green, blue, alpha;
} GVRenderColor;

typedef struct {
  unsigned long pixel;
  GVRenderColor color;
} GVXftColor;

typedef struct {
  unsigned short width, height;
  short x, y;
  short xOff, yOff;
} GVGlyphInfo;

typedef struct {
  int ascent;
  int descent;
  int height;
  int max_advance_width;
  void *charset;
  void *pattern;
} GVXftFont;

typedef struct GVXftDraw GVXftDraw;

/// Loads libXft once (thread-safe); NULL when ready, else what went wrong.
const char *gv_xft_load(void);

GVXftFont *gv_xft_font_open_name(Display *d, int screen, const char *name);
void gv_xft_font_close(Display *d, GVXftFont *font);
int gv_xft_char_exists(Display *d, GVXftFont *font, unsigned int ucs4);
GVXftDraw *gv_xft_draw_create(Display *d, Drawable drawable, Visual *visual, Colormap colormap);
void gv_xft_draw_change(GVXftDraw *draw, Drawable drawable);
void gv_xft_draw_destroy(GVXftDraw *draw);
int gv_xft_color_alloc(Display *d, Visual *v, Colormap c, const GVRenderColor *rc, GVXftColor *out);
void gv_xft_color_free(Display *d, Visual *v, Colormap c, GVXftColor *color);
void gv_xft_draw_string(GVXftDraw *draw, const GVXftColor *color, GVXftFont *font, int x, int y,
                        const unsigned char *utf8, int len);
void gv_xft_text_extents(Display *d, GVXftFont *font, const unsigned char *utf8, int len, GVGlyphInfo *out);
void gv_xft_draw_rect(GVXftDraw *draw, const GVXftColor *color, int x, int y, unsigned int w, unsigned int h);

#endif
