/*
 * giflib_bench: the reference side of `make bench`: giflib 5 decoding a GIF
 * held in memory and compositing every frame into an RGBA canvas, timed.
 *
 *   giflib_bench [-n N] [-m stream|slurp] FILE...
 *
 * Each file is read once; then one untimed warm-up run and N timed runs.  A
 * run opens the memory with DGifOpen() and a read callback, decodes every
 * image and composites it with gifview's rules (DESIGN.md section 2):
 *   - the canvas starts transparent (0,0,0,0); the background index is ignored;
 *   - images are clipped to the logical screen;
 *   - a pixel equal to the Graphic Control's transparent index is not drawn;
 *   - an index beyond the colour table, or any index without one, is opaque
 *     black;
 *   - before image n, image n-1's disposal: 2 clears its clipped rectangle to
 *     transparent, 3 and 4 restore it as it was before image n-1, others keep.
 * The canvas is allocated once per file (a viewer reuses its surface).
 *
 * Modes: stream (default): DGifGetRecordType()/DGifGetLine() a row at a time
 * into one row buffer, composited at once: giflib's fastest use.  slurp:
 * DGifSlurp() (every image decoded into its own raster), then composite.
 *
 * Output, one line per file, the format Benchmarks/gifbench prints too:
 *   NAME frames=F canvas=WxH reps=N median_ms=M min_ms=M hash=H
 * hash: FNV-1a (64-bit) over every composited frame's pixels as little-endian
 * 32-bit RGBA words (R in the low byte), from the warm-up run.
 *
 * Build: gcc -O2 -o giflib_bench giflib_bench.c -lgif
 */
#define _POSIX_C_SOURCE 200809L
#include <gif_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  const uint8_t *data;
  size_t size, at;
} source;

static int read_memory(GifFileType *gif, GifByteType *out, int want) {
  source *s = gif->UserData;
  size_t n = s->size - s->at;
  if ((size_t)want < n) n = (size_t)want;
  memcpy(out, s->data + s->at, n);
  s->at += n;
  return (int)n;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What one run needs between images. */
typedef struct {
  int width, height;
  uint32_t *canvas, *saved;
  int disposal; /* pending disposal of the previous image */
  int x0, y0, x1, y1; /* its clipped rectangle */
  int frames;
  int hashing;
  uint64_t hash, check;
} state;

static void palette_table(uint32_t table[256], const ColorMapObject *map) {
  int i = 0;
  if (map != NULL) {
    int n = map->ColorCount < 256 ? map->ColorCount : 256;
    for (; i < n; i++) {
      const GifColorType *c = &map->Colors[i];
      table[i] = 0xFF000000u | (uint32_t)c->Blue << 16 | (uint32_t)c->Green << 8 | c->Red;
    }
  }
  for (; i < 256; i++) table[i] = 0xFF000000u; /* opaque black */
}

static void start_run(state *s) {
  memset(s->canvas, 0, (size_t)s->width * s->height * 4);
  s->disposal = 0;
  s->x0 = s->y0 = s->x1 = s->y1 = 0;
  s->frames = 0;
  s->check = 0;
}

/* Applies the previous image's disposal and records this one's (l, t, w, h). */
static void begin_image(state *s, int l, int t, int w, int h, int disposal) {
  size_t W = (size_t)s->width;
  if (s->x1 > s->x0 && s->y1 > s->y0) {
    size_t bytes = (size_t)(s->x1 - s->x0) * 4;
    for (int y = s->y0; y < s->y1; y++) {
      if (s->disposal == 2)
        memset(s->canvas + y * W + s->x0, 0, bytes);
      else if (s->disposal == 3 || s->disposal == 4)
        memcpy(s->canvas + y * W + s->x0, s->saved + y * W + s->x0, bytes);
    }
  }
  s->x0 = l < s->width ? l : s->width;
  s->y0 = t < s->height ? t : s->height;
  s->x1 = l + w < s->width ? l + w : s->width;
  s->y1 = t + h < s->height ? t + h : s->height;
  s->disposal = disposal;
  if ((disposal == 3 || disposal == 4) && s->x1 > s->x0) {
    for (int y = s->y0; y < s->y1; y++)
      memcpy(s->saved + y * W + s->x0, s->canvas + y * W + s->x0,
             (size_t)(s->x1 - s->x0) * 4);
  }
}

/* Draws image row `row` (already de-interlaced) of the image begun last. */
static inline void draw_row(state *s, const uint8_t *indices, int l, int t, int row,
                            const uint32_t table[256], int transparent) {
  int y = t + row;
  if (y < s->y0 || y >= s->y1 || s->x1 <= s->x0) return;
  /* Images start inside the screen (offsets are unsigned): only the right and
     bottom edges clip, so image column 0 is canvas column l. */
  uint32_t *out = s->canvas + (size_t)y * s->width + l;
  int n = s->x1 - l;
  if (transparent < 0) {
    for (int x = 0; x < n; x++) out[x] = table[indices[x]];
  } else {
    for (int x = 0; x < n; x++)
      if (indices[x] != transparent) out[x] = table[indices[x]];
  }
}

static void end_image(state *s) {
  size_t n = (size_t)s->width * s->height;
  if (s->hashing) {
    uint64_t h = s->hash;
    for (size_t i = 0; i < n; i++) h = (h ^ s->canvas[i]) * 0x100000001B3ull;
    s->hash = h;
  }
  s->check = s->check * 31 + s->canvas[0] + s->canvas[n / 2] + s->canvas[n - 1];
  s->frames++;
}

static void gcb_of(const GifByteType *ext, int *disposal, int *transparent) {
  /* ext[0] is the block length (4), then packed, delay (2), transparent index. */
  if (ext == NULL || ext[0] < 4) return;
  *disposal = (ext[1] >> 2) & 7;
  *transparent = (ext[1] & 1) ? ext[4] : -1;
}

/* A giflib decoder over the in-memory file, from its first byte. */
static GifFileType *open_memory(source *src) {
  int error = 0;
  src->at = 0;
  GifFileType *gif = DGifOpen(src, read_memory, &error);
  if (gif == NULL) fprintf(stderr, "DGifOpen: %s\n", GifErrorString(error));
  return gif;
}

static int run_stream(state *s, source *src, uint8_t **row, size_t *row_size) {
  int error = 0;
  GifFileType *gif = open_memory(src);
  if (gif == NULL) return -1;
  start_run(s);
  uint32_t global[256], local[256];
  palette_table(global, gif->SColorMap);
  int disposal = 0, transparent = -1;
  int rc = 0;
  GifRecordType type;
  do {
    if (DGifGetRecordType(gif, &type) != GIF_OK) {
      rc = -1;
      break;
    }
    if (type == IMAGE_DESC_RECORD_TYPE) {
      if (DGifGetImageDesc(gif) != GIF_OK) {
        rc = -1;
        break;
      }
      GifImageDesc *d = &gif->Image;
      const uint32_t *table = global;
      if (d->ColorMap != NULL) {
        palette_table(local, d->ColorMap);
        table = local;
      }
      if ((size_t)d->Width > *row_size) {
        *row_size = (size_t)d->Width;
        *row = realloc(*row, *row_size);
      }
      begin_image(s, d->Left, d->Top, d->Width, d->Height, disposal);
      static const int first[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
      int passes = d->Interlace ? 4 : 1;
      for (int p = 0; p < passes && rc == 0; p++) {
        int y0 = d->Interlace ? first[p] : 0, dy = d->Interlace ? step[p] : 1;
        for (int y = y0; y < d->Height; y += dy) {
          if (DGifGetLine(gif, *row, d->Width) != GIF_OK) {
            rc = -1;
            break;
          }
          draw_row(s, *row, d->Left, d->Top, y, table, transparent);
        }
      }
      if (rc != 0) break;
      end_image(s);
      disposal = 0; /* a Graphic Control applies to the next image only */
      transparent = -1;
    } else if (type == EXTENSION_RECORD_TYPE) {
      int code;
      GifByteType *ext;
      if (DGifGetExtension(gif, &code, &ext) != GIF_OK) {
        rc = -1;
        break;
      }
      if (code == GRAPHICS_EXT_FUNC_CODE) gcb_of(ext, &disposal, &transparent);
      while (ext != NULL) {
        if (DGifGetExtensionNext(gif, &ext) != GIF_OK) {
          rc = -1;
          break;
        }
      }
    }
  } while (rc == 0 && type != TERMINATE_RECORD_TYPE);
  if (rc != 0) fprintf(stderr, "giflib: %s\n", GifErrorString(gif->Error));
  DGifCloseFile(gif, &error);
  return rc;
}

static int run_slurp(state *s, source *src) {
  int error = 0;
  GifFileType *gif = open_memory(src);
  if (gif == NULL) return -1;
  if (DGifSlurp(gif) != GIF_OK) {
    fprintf(stderr, "DGifSlurp: %s\n", GifErrorString(gif->Error));
    DGifCloseFile(gif, &error);
    return -1;
  }
  start_run(s);
  uint32_t global[256], local[256];
  palette_table(global, gif->SColorMap);
  for (int i = 0; i < gif->ImageCount; i++) {
    const SavedImage *image = &gif->SavedImages[i];
    const GifImageDesc *d = &image->ImageDesc;
    int disposal = 0, transparent = -1;
    for (int e = 0; e < image->ExtensionBlockCount; e++) {
      const ExtensionBlock *b = &image->ExtensionBlocks[e];
      if (b->Function == GRAPHICS_EXT_FUNC_CODE && b->ByteCount >= 4) {
        disposal = (b->Bytes[0] >> 2) & 7;
        transparent = (b->Bytes[0] & 1) ? b->Bytes[3] : -1;
      }
    }
    const uint32_t *table = global;
    if (d->ColorMap != NULL) {
      palette_table(local, d->ColorMap);
      table = local;
    }
    begin_image(s, d->Left, d->Top, d->Width, d->Height, disposal);
    /* DGifSlurp de-interlaces (giflib 5). */
    for (int y = 0; y < d->Height; y++)
      draw_row(s, image->RasterBits + (size_t)y * d->Width, d->Left, d->Top, y, table,
               transparent);
    end_image(s);
  }
  DGifCloseFile(gif, &error);
  return 0;
}

static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 20, n = 0, got;
  uint8_t *data = malloc(cap);
  while (data != NULL && (got = fread(data + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) data = realloc(data, cap *= 2);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(data);
    return NULL;
  }
  *size = n;
  return data;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int usage(void) {
  fprintf(stderr, "usage: giflib_bench [-n N] [-m stream|slurp] FILE...  (-n 0: one decode, untimed)\n");
  return 2;
}

int main(int argc, char **argv) {
  int reps = 5, slurp = 0, status = 0, first_file = argc;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 0) return usage();
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      const char *m = argv[++i];
      if (strcmp(m, "stream") && strcmp(m, "slurp")) return usage();
      slurp = !strcmp(m, "slurp");
    } else if (argv[i][0] == '-') {
      return usage();
    } else {
      first_file = i;
      break;
    }
  }
  if (first_file >= argc) return usage();
  double *times = malloc(sizeof *times * reps);
  uint8_t *row = NULL;
  size_t row_size = 0;
  volatile uint64_t sink = 0;
  for (int fi = first_file; fi < argc; fi++) {
    const char *path = argv[fi];
    source src = {0};
    src.data = read_file(path, &src.size);
    if (src.data == NULL) {
      fprintf(stderr, "giflib_bench: %s: cannot read\n", path);
      status = 1;
      continue;
    }
    int error = 0;
    GifFileType *gif = DGifOpen(&src, read_memory, &error);
    if (gif == NULL) {
      fprintf(stderr, "giflib_bench: %s: DGifOpen: %s\n", path, GifErrorString(error));
      free((void *)src.data);
      status = 1;
      continue;
    }
    state s = {.width = gif->SWidth, .height = gif->SHeight};
    DGifCloseFile(gif, &error);
    size_t pixels = (size_t)s.width * s.height;
    s.canvas = malloc(pixels * 4);
    s.saved = calloc(pixels, 4);
    int failed = 0, once = reps == 0;
    for (int r = once ? 0 : -1; r < (once ? 1 : reps) && !failed; r++) {
      s.hashing = r < 0;
      if (s.hashing) s.hash = 0xCBF29CE484222325ull;
      double t0 = seconds();
      failed = slurp ? run_slurp(&s, &src) : run_stream(&s, &src, &row, &row_size);
      double t1 = seconds();
      if (r >= 0 && !once) times[r] = t1 - t0;
      sink += s.check;
    }
    if (failed || s.frames == 0) {
      fprintf(stderr, "giflib_bench: %s: decode failed\n", path);
      status = 1;
    } else if (once) {
      const char *name = strrchr(path, '/');
      printf("%s frames=%d canvas=%dx%d reps=0\n", name ? name + 1 : path, s.frames, s.width, s.height);
    } else {
      qsort(times, reps, sizeof *times, by_value);
      double median = reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2;
      const char *name = strrchr(path, '/');
      printf("%s frames=%d canvas=%dx%d reps=%d median_ms=%.3f min_ms=%.3f hash=%016llx\n",
             name ? name + 1 : path, s.frames, s.width, s.height, reps, median * 1e3,
             times[0] * 1e3, (unsigned long long)s.hash);
      fflush(stdout);
    }
    free(s.canvas);
    free(s.saved);
    free((void *)src.data);
  }
  free(times);
  free(row);
  return status;
}
