// A fork server for Chaos's workers (AFL's idea): a worker process that has started
// once, with its runtime initialised, forks a new worker for every launch instead of
// the controller spawning a fresh one. Mechanism only, in C (descriptors travel with
// SCM_RIGHTS, children are reaped through a signalfd); when to use it is the Swift
// side's decision.
//
// Wire (SOCK_SEQPACKET, one message a datagram):
//   controller → server: "STDERR_PATH\0ARG\0ARG\0..." with two descriptors attached,
//                        the child's stdin and stdout
//   server → controller: "ready", "spawned PID", "failed ERRNO", "exit PID STATUS"
//                        (STATUS as waitpid(2) gives it)
#ifndef CHAOS_FORK_SERVER_H
#define CHAOS_FORK_SERVER_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Serves spawn orders on `sock` until it closes. Returns 0 in each forked child, with
/// its arguments in `*argv_out` / `*argc_out` (malloc'd; the child's descriptors 0, 1
/// and 2 are already in place and it leads a session of its own). Returns -1 in
/// the server when the controller goes away or the socket fails: the server then exits.
int chaos_fork_server_serve(int sock, char ***argv_out, int *argc_out);

/// Sends `length` bytes and two descriptors over `sock`. 0 on success, else an errno.
int chaos_fork_server_send(int sock, const void *data, size_t length, int fd_in, int fd_out);

/// The number of threads of this process (from /proc/self/task): a process may fork
/// safely only while it has one.
int chaos_fork_server_thread_count(void);

#ifdef __cplusplus
}
#endif

#endif
