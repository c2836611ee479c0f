// See include/CCurl.h: libcurl is resolved with dlopen/dlsym on first use. Each pointer
// has the function's own C type (variadic where libcurl's is), so every call is exactly
// the call the linker would have made.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static struct {
  CURLcode (*global_init)(long);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  CURLcode (*easy_perform)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  void (*free)(void *);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  CURLU *(*url)(void);
  void (*url_cleanup)(CURLU *);
  CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
  CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} api;

static const char *load_error = "libcurl is not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                   \
  if (!(*(void **)&api.field = dlsym(lib, name))) {            \
    load_error = "libcurl.so.4 lacks " name;                   \
    return;                                                    \
  }

static void load(void) {
  void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    load_error = "libcurl.so.4 is not installed (apt-get install libcurl4)";
    return;
  }
  RESOLVE(global_init, "curl_global_init")
  RESOLVE(easy_init, "curl_easy_init")
  RESOLVE(easy_cleanup, "curl_easy_cleanup")
  RESOLVE(easy_perform, "curl_easy_perform")
  RESOLVE(easy_strerror, "curl_easy_strerror")
  RESOLVE(free, "curl_free")
  RESOLVE(slist_append, "curl_slist_append")
  RESOLVE(slist_free_all, "curl_slist_free_all")
  RESOLVE(url, "curl_url")
  RESOLVE(url_cleanup, "curl_url_cleanup")
  RESOLVE(url_set, "curl_url_set")
  RESOLVE(url_get, "curl_url_get")
  RESOLVE(easy_setopt, "curl_easy_setopt")
  RESOLVE(easy_getinfo, "curl_easy_getinfo")
  load_error = NULL;
}

const char *gv_curl_load(void) {
  pthread_once(&once, load);
  return load_error;
}

// Callers run gv_curl_load() first (GIFLoader's Curl.swift does, once).
CURLcode gv_global_init(long flags) { return api.global_init(flags); }
CURL *gv_easy_init(void) { return api.easy_init(); }
void gv_easy_cleanup(CURL *c) { api.easy_cleanup(c); }
CURLcode gv_easy_perform(CURL *c) { return api.easy_perform(c); }
const char *gv_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
void gv_free(void *p) { api.free(p); }
struct curl_slist *gv_slist_append(struct curl_slist *l, const char *s) { return api.slist_append(l, s); }
void gv_slist_free_all(struct curl_slist *l) { api.slist_free_all(l); }
CURLU *gv_url(void) { return api.url(); }
void gv_url_cleanup(CURLU *u) { api.url_cleanup(u); }
CURLUcode gv_url_set(CURLU *u, CURLUPart p, const char *s, unsigned int f) { return api.url_set(u, p, s, f); }
CURLUcode gv_url_get(CURLU *u, CURLUPart p, char **s, unsigned int f) { return api.url_get(u, p, s, f); }

CURLcode gv_setopt_long(CURL *c, CURLoption o, long v) { return api.easy_setopt(c, o, v); }
CURLcode gv_setopt_str(CURL *c, CURLoption o, const char *v) { return api.easy_setopt(c, o, v); }
CURLcode gv_setopt_ptr(CURL *c, CURLoption o, void *v) { return api.easy_setopt(c, o, v); }
CURLcode gv_setopt_off(CURL *c, CURLoption o, curl_off_t v) { return api.easy_setopt(c, o, v); }
CURLcode gv_setopt_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
  return api.easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
}
CURLcode gv_setopt_header(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
  return api.easy_setopt(c, CURLOPT_HEADERFUNCTION, f);
}
CURLcode gv_setopt_xferinfo(CURL *c, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
  return api.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f);
}
CURLcode gv_getinfo_long(CURL *c, CURLINFO i, long *v) { return api.easy_getinfo(c, i, v); }
CURLcode gv_getinfo_off(CURL *c, CURLINFO i, curl_off_t *v) { return api.easy_getinfo(c, i, v); }
CURLcode gv_getinfo_str(CURL *c, CURLINFO i, char **v) { return api.easy_getinfo(c, i, v); }
