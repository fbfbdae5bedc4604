#ifndef CHAOS_LIBC_SEAM_H
#define CHAOS_LIBC_SEAM_H
/*
** The libc seam's interface: storage faults and power loss for any file, below any
** storage stack (plain files, a JSON store, a copy of SQLite the fault VFS is not
** installed into). The seam is a library preloaded into the worker (LD_PRELOAD,
** libChaosLibcSeam.so, Sources/CLibcSeam) that interposes open, read, write, fsync,
** rename, ftruncate, unlink and their relatives. The worker never links it: it
** finds it at run time (chaos_libc_seam_find) and drives it through this table.
**
** Mechanism only, as the fault VFS: a hook asked about every call on a file under
** the scope decides (Swift, Seams/Libc), the seam carries the answer out.
*/
#ifdef __cplusplus
extern "C" {
#endif

/* The version of the table below; a worker refuses a seam of another version. */
#define CHAOS_LIBC_SEAM_VERSION 4

/* `enum : int` (C23, clang) makes Swift import the constants as Int32; gcc before
** 13 lacks it, and builds the preloads (PreloadLibrary.swift) with a plain enum. */
#ifndef CHAOS_INT_ENUM
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 13)
#define CHAOS_INT_ENUM enum : int
#else
#define CHAOS_INT_ENUM enum
#endif
#endif

/* What a hook call is about; `amount` says more. */
CHAOS_INT_ENUM {
    CHAOS_LIBC_OP_OPEN = 1,   /* open, openat, creat, mkstemp...: amount = open flags */
    CHAOS_LIBC_OP_READ,       /* read, pread: offset (-1: the current one), amount = bytes */
    CHAOS_LIBC_OP_WRITE,      /* write, pwrite, writev: offset (-1: current), amount = bytes */
    CHAOS_LIBC_OP_SYNC,       /* fsync, fdatasync: amount = 1 for a directory */
    CHAOS_LIBC_OP_TRUNCATE,   /* ftruncate: offset = new size, amount = 1 if that grows the file */
    CHAOS_LIBC_OP_RENAME,     /* rename, renameat, renameat2: path = the new name */
    CHAOS_LIBC_OP_DELETE,     /* unlink, unlinkat */
    CHAOS_LIBC_OP_COUNT
};

/* A hook's answer that is not an errno: the read returns fewer bytes than asked. */
#define CHAOS_LIBC_SHORT (-1)

/*
** The hook: 0 lets the call through, a positive errno fails it with that errno
** (ENOSPC, EIO, EROFS, EDQUOT...), CHAOS_LIBC_SHORT shortens a read. Called for
** calls on files under the scope only, on the caller's thread, with the seam
** turned off for that thread (the hook's own I/O passes straight through).
*/
typedef int (*chaos_libc_hook)(int op, const char *path, long long offset, long long amount);

/* What a power cut does with unsynced changes (the values of CHAOS_POWERLOSS_*). */
CHAOS_INT_ENUM { CHAOS_LIBC_CUT_DROP = 0, CHAOS_LIBC_CUT_KEEP = 1, CHAOS_LIBC_CUT_TORN = 2 };

/* The exit status of a simulated power loss, as the fault VFS's. */
#define CHAOS_LIBC_POWER_LOSS_EXIT 86

typedef struct chaos_libc_seam {
    int version;
    /* Files under `directory` (an absolute path; NULL: none) are the seam's: it looks
    ** at calls on them only. Setting a scope turns the seam on; until then every call
    ** costs one relaxed atomic load more than the bare call. */
    void (*set_scope)(const char *directory);
    /* Sets (or, with NULL, clears) the hook. */
    void (*set_hook)(chaos_libc_hook hook);
    /* Calls on files under the scope since it was set, by CHAOS_LIBC_OP_*
    ** (out[0] unused), whatever the hook answered. */
    void (*counters)(long long out[CHAOS_LIBC_OP_COUNT]);
    /* Power loss at the file level (chaos_libc_powerloss.c explains the model).
    ** Enable before the app writes; enabling sets nothing else. */
    void (*powerloss_enable)(int enabled, int sector_size, int torn);
    /* Crash at the `at_sync`-th sync (before it happens) or right after the
    ** `after_writes`-th change, counted from now; 0: not that trigger. */
    void (*powerloss_arm)(int at_sync, int after_writes, int mode, unsigned long long seed);
    /* Crashes now: undoes what was not durable, then _exit(86). */
    void (*powerloss_crash)(int mode, unsigned long long seed);
    /* Since enabling: changes and syncs counted, and changes pending now. */
    void (*powerloss_stats)(long long *writes, long long *syncs, long long *pending);
    /* Calls on files under the scope since it was set that the kernel refused with
    ** EACCES, EPERM or EROFS (not faults the hook injected), by CHAOS_LIBC_OP_*. */
    void (*refused)(long long out[CHAOS_LIBC_OP_COUNT]);
    /* The folders outside the scope where the app made or wrote files since it was
    ** set, one a line, the first CHAOS_LIBC_OUTSIDE_MAX; returns how many it knows. */
    int (*outside)(char *buffer, int capacity);
    /* The calls under the scope since the last take, each distinct CHAOS_LIBC_OP_*,
    ** result (0 or the errno the app got) and file: lines "OP ERRNO COUNT PATH", then
    ** "dropped N" for calls not kept; forgets them. Returns the number of lines. */
    int (*calls)(char *buffer, int capacity);
    /* While `bytes` >= 0, statfs and statvfs (and their fd forms) of a file under the
    ** scope report that many bytes free (f_bfree, f_bavail), whatever the disk holds
    ** and whatever the hook answers: a disk that says it has room. -1: the real
    ** figures (none free while the hook's last answer to a write was ENOSPC). */
    void (*set_reported_free)(long long bytes);
} chaos_libc_seam;

/* How many folders outside the scope the seam remembers. */
#define CHAOS_LIBC_OUTSIDE_MAX 8

/* The preloaded library's table (exported by libChaosLibcSeam.so). */
const chaos_libc_seam *chaos_libc_seam_get(void);

/* The table of the seam loaded in this process, or NULL when none is (no preload, a
** statically linked executable, or a seam of another version). */
const chaos_libc_seam *chaos_libc_seam_find(void);

#ifdef __cplusplus
}
#endif
#endif /* CHAOS_LIBC_SEAM_H */
