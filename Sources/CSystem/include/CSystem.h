#ifndef CSYSTEM_H
#define CSYSTEM_H
// Headers and shims that Swift's Glibc module does not export (or cannot call,
// such as the variadic ioctl). Everything here is used only by PuzzleSystem.
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <sys/file.h>
#include <termios.h>
#include <signal.h>
#include <netinet/tcp.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>

/// epoll flag values as plain integers: the C enum imports as a distinct
/// Swift type, and EPOLLET/EPOLLRDHUP do not fit a signed enum cleanly.
static inline uint32_t csystem_epoll_in(void) { return EPOLLIN; }
static inline uint32_t csystem_epoll_out(void) { return EPOLLOUT; }
static inline uint32_t csystem_epoll_err(void) { return EPOLLERR; }
static inline uint32_t csystem_epoll_hup(void) { return EPOLLHUP; }
static inline uint32_t csystem_epoll_rdhup(void) { return EPOLLRDHUP; }

/// accept4(2): declared by glibc only under _GNU_SOURCE, which Swift's Glibc
/// module does not set; CSystem.c defines it and forwards.
int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// setpriority(2) for the calling thread only (Linux keeps a nice value per
/// thread; gettid needs _GNU_SOURCE). 0, or -1 with errno set.
int csystem_lower_thread_priority(int nice);

/// syncfs(2): flushes the whole file system holding `fd` in one call; also
/// declared only under _GNU_SOURCE.
int csystem_syncfs(int fd);

/// Sets `sig` to SIG_IGN via sigaction; Swift cannot tell the sigaction
/// function from the struct of the same name. 0 or -1 with errno set.
static inline int csystem_ignore_signal(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, NULL);
}

/// flock(2) with LOCK_EX | LOCK_NB: Swift cannot tell the flock function from
/// the struct of the same name. 0, or -1 with errno set (EWOULDBLOCK if held).
static inline int csystem_flock_exclusive_nonblocking(int fd) {
    return flock(fd, LOCK_EX | LOCK_NB);
}

/// flock(2) with LOCK_UN. 0, or -1 with errno set.
static inline int csystem_flock_unlock(int fd) {
    return flock(fd, LOCK_UN);
}

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
/// Sets errno; lets tests drive the EINTR retry path deterministically.
static inline void csystem_set_errno(int value) { errno = value; }
#endif
