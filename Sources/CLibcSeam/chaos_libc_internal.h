#ifndef CHAOS_LIBC_INTERNAL_H
#define CHAOS_LIBC_INTERNAL_H
/*
** Shared between the interposers (chaos_libc.c; chaos_libc_calls.c for the rarer
** calls, chaos_libc_stdio.c for stdio streams) and the file-level crash simulator
** (chaos_libc_powerloss.c). Not part of the interface: hidden from the symbol table,
** so a preloaded name never stands in for one of the app's own.
*/
#include "chaos_libc_seam.h"
#include "chaos_power_cut.h"

#include <dirent.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/uio.h>

#define CHAOS_HIDDEN __attribute__((visibility("hidden")))

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
    /* chaos_libc.c: removing */
    int (*remove)(const char *);
    /* chaos_libc_calls.c */
    ssize_t (*pwritev)(int, const struct iovec *, int, off_t);
    ssize_t (*pwritev2)(int, const struct iovec *, int, off_t, int);
    int (*fallocate)(int, int, off_t, off_t);
    int (*posix_fallocate)(int, off_t, off_t);
    int (*truncate)(const char *, off_t);
    ssize_t (*copy_file_range)(int, off_t *, int, off_t *, size_t, unsigned int);
    ssize_t (*sendfile)(int, int, off_t *, size_t);
    int (*sync_file_range)(int, off_t, off_t, unsigned int);
    int (*msync)(void *, size_t, int);
    int (*statfs)(const char *, struct statfs *);
    int (*fstatfs)(int, struct statfs *);
    int (*statvfs)(const char *, struct statvfs *);
    int (*fstatvfs)(int, struct statvfs *);
    /* chaos_libc_stdio.c */
    FILE *(*fopen)(const char *, const char *);
    FILE *(*freopen)(const char *, const char *, FILE *);
    FILE *(*fdopen)(int, const char *);
    /* chaos_libc_watch.c */
    int (*access)(const char *, int);
    int (*faccessat)(int, const char *, int, int);
    int (*euidaccess)(const char *, int);
} chaos_real;

extern chaos_real chaos_real_fn CHAOS_HIDDEN;
void chaos_libc_resolve(void) CHAOS_HIDDEN;
#define REAL(f) (chaos_real_fn.f ? chaos_real_fn.f : (chaos_libc_resolve(), chaos_real_fn.f))

/* While positive, this thread's calls go straight to libc: the seam's own I/O, the
** hook's, and a crash in progress. Initial-exec TLS: the library is preloaded. */
extern __thread int chaos_libc_depth __attribute__((tls_model("initial-exec"))) CHAOS_HIDDEN;

/* ---- the interposers' common part (chaos_libc.c), for the other files ----
** A scope is set (cheap: one relaxed load), and whether a call on fd may be on a
** file under it (the fast path, no lock). */
extern atomic_int chaos_libc_active CHAOS_HIDDEN;
#define CHAOS_LOOKING() (atomic_load_explicit(&chaos_libc_active, memory_order_relaxed) && !chaos_libc_depth)
int chaos_libc_looks_at(int fd) CHAOS_HIDDEN;
/* Whether fd's file is under the scope; its canonical path in `path` if so. */
int chaos_libc_fd_in_scope(int fd, char path[PATH_MAX]) CHAOS_HIDDEN;
/* `path` relative to dirfd, its folder canonical; 0 on success. */
int chaos_libc_resolve_at(int dirfd, const char *path, char out[PATH_MAX]) CHAOS_HIDDEN;
int chaos_libc_scope_holds(const char *canon) CHAOS_HIDDEN;
/* Counts the call and asks the hook (0: go through; an errno; CHAOS_LIBC_SHORT). */
int chaos_libc_ask(int op, const char *path, long long offset, long long amount) CHAOS_HIDDEN;
/* The seam's open (asked, counted, tracked), as open(2) answers. */
int chaos_libc_openat(int dirfd, const char *path, int flags, mode_t mode) CHAOS_HIDDEN;
/* Whether the hook's last answer to a write or a growth under the scope was ENOSPC. */
int chaos_libc_disk_full(void) CHAOS_HIDDEN;
long long chaos_libc_reported_free(void) CHAOS_HIDDEN;
/* What the app did that no fault asked about (chaos_libc_watch.c): a call under the
** scope the kernel refused (EACCES, EPERM, EROFS), not one the hook failed; a file
** made or opened for writing outside it. */
void chaos_libc_note_refused(int op, int failed, int injected, int error) CHAOS_HIDDEN;
void chaos_libc_note_outside(const char *canon, int flags) CHAOS_HIDDEN;
/* A call under the scope the seam carried out, and its result: 0, or the errno. */
void chaos_libc_note_seen(int op, const char *canon, int error) CHAOS_HIDDEN;
int chaos_libc_calls(char *buffer, int capacity) CHAOS_HIDDEN;
void chaos_libc_watch_reset(void) CHAOS_HIDDEN;
void chaos_libc_refused(long long out[CHAOS_LIBC_OP_COUNT]) CHAOS_HIDDEN;
int chaos_libc_outside(char *buffer, int capacity) CHAOS_HIDDEN;
static inline int chaos_libc_tracking(void);

/* One write as the seam forwards it: write, pwrite, writev, pwritev, pwritev2. */
typedef struct chaos_write {
    const void *buf;          /* write, pwrite */
    size_t n;
    const struct iovec *iov;  /* writev, pwritev, pwritev2: not NULL */
    int iovcnt;
    int64_t off;              /* -1: the fd's position */
    int rwf;                  /* pwritev2's RWF_* flags; -1 for the others */
} chaos_write;
ssize_t chaos_libc_real_write(int fd, const chaos_write *w) CHAOS_HIDDEN;
/* The seam's write: asked, counted, tracked; the fd is one looks_at said may be in scope. */
ssize_t chaos_libc_write(int fd, const chaos_write *w) CHAOS_HIDDEN;

/* ---- the crash simulator (chaos_libc_powerloss.c) ----
** Each is called with chaos_libc_depth > 0, for a file under the scope, while
** chaos_lpl_active; each performs the real call itself. Paths are canonical. */
extern atomic_int chaos_lpl_active CHAOS_HIDDEN;
static inline int chaos_libc_tracking(void) { return atomic_load_explicit(&chaos_lpl_active, memory_order_relaxed); }

/* The real call that makes a change, on fd; returns what that call returns. */
typedef ssize_t (*chaos_perform)(int fd, void *ctx);

int chaos_lpl_open(int dirfd, const char *path, const char *canon, int flags, mode_t mode);
void chaos_lpl_created(const char *canon, int fd);
/* A write of up to `len` bytes at `off` (-1: the fd's position; its end if `append` or
** the fd is O_APPEND), made by perform, which returns the bytes written; durable when
** it returns if `durable` or the fd is O_DSYNC. */
ssize_t chaos_lpl_write(int fd, int64_t off, int64_t len, int append, int durable, chaos_perform perform, void *ctx);
/* A change perform makes (0 on success) to the bytes [from, to) and the size (to
** new_size): fallocate's modes. */
int chaos_lpl_reshape(int fd, int64_t from, int64_t to, int64_t new_size, chaos_perform perform, void *ctx);
int chaos_lpl_truncate(int fd, off_t size);
int chaos_lpl_truncate_path(const char *path, const char *canon, off_t size);
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
