#ifndef CSYSTEM_H
#define CSYSTEM_H
// Headers and shims that Swift's Glibc module does not export (or cannot call,
// such as the variadic ioctl). Everything here is used only by PuzzleSystem.
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <termios.h>
#include <signal.h>
#include <netinet/tcp.h>

/// Terminal size of `fd` via TIOCGWINSZ; returns 0 on success, -1 with errno set.
static inline int csystem_window_size(int fd, unsigned short *rows, unsigned short *cols) {
    struct winsize ws;
    int rc = ioctl(fd, TIOCGWINSZ, &ws);
    if (rc == 0) { *rows = ws.ws_row; *cols = ws.ws_col; }
    return rc;
}

/// Bytes queued for reading on `fd` via FIONREAD; -1 with errno set on failure.
static inline int csystem_readable_bytes(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

/// errno as a plain function: Swift cannot always see the thread-local macro.
#include <errno.h>
static inline int csystem_errno(void) { return errno; }
#endif
