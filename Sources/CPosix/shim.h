#ifndef GIFVIEW_CPOSIX_SHIM_H
#define GIFVIEW_CPOSIX_SHIM_H
#include <poll.h>
#include <time.h>

// ppoll is declared only under _GNU_SOURCE, which the Swift importer does not set.
int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const void *sigmask);
static inline int gv_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t) { return ppoll(fds, n, t, 0); }

// pipe2 is declared only under _GNU_SOURCE too.
int pipe2(int fds[2], int flags);
static inline int gv_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

#endif
