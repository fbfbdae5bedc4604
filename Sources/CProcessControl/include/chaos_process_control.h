#ifndef CHAOS_PROCESS_CONTROL_H
#define CHAOS_PROCESS_CONTROL_H
/*
** CProcessControl: the two Linux calls the controller needs to keep every process a
** target starts within reach, which Swift cannot make itself (`syscall` and `prctl`
** are variadic). Mechanism only; when to use them is ChildProcess's and
** ProcessLeftovers' business.
*/
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A descriptor that becomes readable when process `pid` ends (pidfd_open(2), Linux
/// 5.3+): a wait on a worker is a poll with a deadline, not a blocking waitpid. -1 with
/// errno set where the kernel has no pidfd or the process is gone.
int chaos_pidfd_open(pid_t pid);

/// Makes this process the "child subreaper" of its descendants (prctl(2)
/// PR_SET_CHILD_SUBREAPER): a worker's descendant whose parent died is re-parented
/// here, not to init, so it can still be found and ended. 0 on success, else an errno.
int chaos_become_child_subreaper(void);

/// Whether this process is a child subreaper.
int chaos_is_child_subreaper(void);

/// posix_spawn's POSIX_SPAWN_SETSID flag (glibc declares it only for _GNU_SOURCE): the
/// child leads a new session.
short chaos_posix_spawn_setsid_flag(void);

#ifdef __cplusplus
}
#endif

#endif
