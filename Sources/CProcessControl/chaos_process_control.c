#define _GNU_SOURCE
#include "chaos_process_control.h"

#include <errno.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int chaos_pidfd_open(pid_t pid) {
    long fd = syscall(SYS_pidfd_open, pid, 0);
    return fd < 0 ? -1 : (int)fd;
}

int chaos_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
}

int chaos_is_child_subreaper(void) {
    int value = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, &value, 0, 0, 0) == 0 && value != 0;
}

short chaos_posix_spawn_setsid_flag(void) {
    return POSIX_SPAWN_SETSID;
}
