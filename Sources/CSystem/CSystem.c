#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include "CSystem.h"

int csystem_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

int csystem_syncfs(int fd) {
    return syncfs(fd);
}

int csystem_lower_thread_priority(int nice) {
    // Linux keeps a nice value per thread: PRIO_PROCESS with the thread's id.
    pid_t tid = (pid_t)syscall(SYS_gettid);
    return setpriority(PRIO_PROCESS, (id_t)tid, nice);
}
