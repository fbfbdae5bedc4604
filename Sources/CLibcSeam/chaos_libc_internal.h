#ifndef CHAOS_LIBC_INTERNAL_H
#define CHAOS_LIBC_INTERNAL_H
/*
** Shared between the interposers (chaos_libc.c) and the file-level crash simulator
** (chaos_libc_powerloss.c). Not part of the interface.
*/
#include "chaos_libc_seam.h"
#include "chaos_power_cut.h"

#include <dirent.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/uio.h>

/* The libc functions the seam stands in front of, found with dlsym(RTLD_NEXT). */
typedef struct chaos_real {
    int (*openat)(int, const char *, int, ...);
    ssize_t (*read)(int, void *, size_t);
    ssize_t (*pread)(int, void *, size_t, off_t);
    ssize_t (*write)(int, const void *, size_t);
    ssize_t (*pwrite)(int, const void *, size_t, off_t);
    ssize_t (*writev)(int, const struct iovec *, int);
    int (*fsync)(int);
    int (*fdatasync)(int);
    int (*ftruncate)(int, off_t);
    int (*renameat2)(int, const char *, int, const char *, unsigned int);
    int (*renameat)(int, const char *, int, const char *);
    int (*unlinkat)(int, const char *, int);
    int (*linkat)(int, const char *, int, const char *, int);
    int (*close)(int);
    int (*dup2)(int, int);
    int (*dup3)(int, int, int);
    int (*fclose)(FILE *);
    int (*closedir)(DIR *);
    int (*mkstemp)(char *);
    int (*mkostemp)(char *, int);
    int (*mkstemps)(char *, int);
    int (*mkostemps)(char *, int, int);
    void (*sync)(void);
    int (*syncfs)(int);
} chaos_real;

extern chaos_real chaos_real_fn;
void chaos_libc_resolve(void);
#define REAL(f) (chaos_real_fn.f ? chaos_real_fn.f : (chaos_libc_resolve(), chaos_real_fn.f))

/* While positive, this thread's calls go straight to libc: the seam's own I/O, the
** hook's, and a crash in progress. Initial-exec TLS: the library is preloaded. */
extern __thread int chaos_libc_depth __attribute__((tls_model("initial-exec")));

/* ---- the crash simulator (chaos_libc_powerloss.c) ----
** Each is called with chaos_libc_depth > 0, for a file under the scope, while
** chaos_lpl_active; each performs the real call itself. Paths are canonical. */
extern atomic_int chaos_lpl_active;

int chaos_lpl_open(int dirfd, const char *path, const char *canon, int flags, mode_t mode);
void chaos_lpl_created(const char *canon, int fd);
ssize_t chaos_lpl_write(int fd, const void *buf, size_t n, int64_t off, const struct iovec *iov, int iovcnt);
int chaos_lpl_truncate(int fd, off_t size);
int chaos_lpl_sync(int fd);
void chaos_lpl_sync_failed(int fd);
void chaos_lpl_sync_all(void);
int chaos_lpl_rename(int olddirfd, const char *oldpath, const char *oldcanon, int newdirfd, const char *newpath,
                     const char *newcanon, unsigned int flags);
int chaos_lpl_unlink(int dirfd, const char *path, const char *canon, int flags);
int chaos_lpl_link(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, const char *newcanon, int flags);

void chaos_lpl_enable(int enabled, int sector_size, int torn);
void chaos_lpl_arm(int at_sync, int after_writes, int mode, unsigned long long seed);
void chaos_lpl_crash(int mode, unsigned long long seed) __attribute__((noreturn));
void chaos_lpl_stats(long long *writes, long long *syncs, long long *pending);

/* The canonical path of an open file (/proc/self/fd), without " (deleted)";
** 0 on success. */
int chaos_libc_fd_path(int fd, char out[PATH_MAX]);

#endif /* CHAOS_LIBC_INTERNAL_H */
