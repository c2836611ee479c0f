#ifndef GIFVIEW_CCURL_H
#define GIFVIEW_CCURL_H
// libcurl, opened on first use: showing a local file never pays for loading libcurl and
// the ~40 libraries it pulls in (about 6 ms of start-up), and the binary runs where
// libcurl is missing (URLs then fail with a clear message). Types and constants come
// from <curl/curl.h>; every call goes through these wrappers (curl_easy_setopt and
// curl_easy_getinfo are variadic, so they get typed ones).
#include <curl/curl.h>

/// Loads libcurl once (thread-safe); NULL when ready, else what went wrong.
const char *gv_curl_load(void);

CURLcode gv_global_init(long flags);
CURL *gv_easy_init(void);
void gv_easy_cleanup(CURL *c);
CURLcode gv_easy_perform(CURL *c);
const char *gv_easy_strerror(CURLcode code);
void gv_free(void *p);
struct curl_slist *gv_slist_append(struct curl_slist *list, const char *line);
void gv_slist_free_all(struct curl_slist *list);
CURLU *gv_url(void);
void gv_url_cleanup(CURLU *u);
CURLUcode gv_url_set(CURLU *u, CURLUPart part, const char *content, unsigned int flags);
CURLUcode gv_url_get(CURLU *u, CURLUPart part, char **content, unsigned int flags);

CURLcode gv_setopt_long(CURL *c, CURLoption o, long v);
CURLcode gv_setopt_str(CURL *c, CURLoption o, const char *v);
CURLcode gv_setopt_ptr(CURL *c, CURLoption o, void *v);
CURLcode gv_setopt_off(CURL *c, CURLoption o, curl_off_t v);
CURLcode gv_setopt_write(CURL *c, size_t (*f)(char *, size_t, size_t, void *));
CURLcode gv_setopt_header(CURL *c, size_t (*f)(char *, size_t, size_t, void *));
CURLcode gv_setopt_xferinfo(CURL *c, int (*f)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode gv_getinfo_long(CURL *c, CURLINFO i, long *v);
CURLcode gv_getinfo_off(CURL *c, CURLINFO i, curl_off_t *v);
CURLcode gv_getinfo_str(CURL *c, CURLINFO i, char **v);

#endif
