#ifndef GIFVIEW_CCURL_SHIM_H
#define GIFVIEW_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: typed wrappers for Swift.
static inline CURLcode gv_setopt_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode gv_setopt_str(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode gv_setopt_ptr(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode gv_setopt_off(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode gv_setopt_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
  return curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode gv_setopt_header(CURL *c, size_t (*f)(char *, size_t, size_t, void *)) {
  return curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode gv_setopt_xferinfo(CURL *c, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
  return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode gv_getinfo_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode gv_getinfo_off(CURL *c, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode gv_getinfo_str(CURL *c, CURLINFO i, char **v) { return curl_easy_getinfo(c, i, v); }

#endif
