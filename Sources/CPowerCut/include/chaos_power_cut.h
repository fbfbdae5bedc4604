#ifndef CHAOS_POWER_CUT_H
#define CHAOS_POWER_CUT_H
/*
** CPowerCut: what a power cut leaves of writes that were not synced. Shared by the
** two crash simulators: the fault VFS's (SQLite files, chaos_powerloss.c) and the
** libc seam's (any file, CLibcSeam). Each keeps an undo log of its own; this is the
** part they share: one logged change, and undoing it as a cut of a given mode would.
** Plain C, no SQLite, no Swift: the libc seam is a preloaded library. It makes no call
** of its own on the files it undoes: each simulator hands it the calls to make
** (chaos_cut_io), so it depends on neither.
*/
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `enum : int` (C23, clang) makes Swift import the constants as Int32; gcc before
** 13 lacks it, and builds the preloads (PreloadLibrary.swift) with a plain enum. */
#ifndef CHAOS_INT_ENUM
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 13)
#define CHAOS_INT_ENUM enum : int
#else
#define CHAOS_INT_ENUM enum
#endif
#endif

/* What a cut does with each pending change (the values of CHAOS_POWERLOSS_*). */
CHAOS_INT_ENUM {
    CHAOS_CUT_DROP = 0, /* revert every change: a clean cut losing everything unsynced */
    CHAOS_CUT_KEEP = 1, /* keep every change: the OS had flushed it all */
    CHAOS_CUT_TORN = 2  /* per sector, a seeded keep / revert / garble */
};

/* The calls a cut makes on the files it undoes. The fault VFS hands in libc's; the libc
** seam the ones behind its own interposers (dlsym RTLD_NEXT), which a cut must not meet. */
typedef struct chaos_cut_io {
    ssize_t (*pwrite)(int fd, const void *buf, size_t n, off_t off);
    int (*ftruncate)(int fd, off_t size);
} chaos_cut_io;

/* One logged change to a file, with what it overwrote. */
typedef struct chaos_cut_entry {
    int64_t off;          /* the changed range: [off, off + len) */
    int64_t len;
    int64_t old_size;     /* the file's size before the change */
    int64_t new_size;     /* and after it */
    int is_truncate;
    int64_t pre_len;      /* min(off + len, old_size) - off, or 0 */
    unsigned char *pre;   /* the old bytes of [off, off + pre_len); NULL if none */
} chaos_cut_entry;

/* One draw of SplitMix64 (advances *state): the generator of Chaos's SplitMix64.swift. */
uint64_t chaos_cut_splitmix64_next(uint64_t *state);

/* Uniform in [0, bound): Lemire's multiply-and-reject, as SplitMix64.nextInt(below:). */
uint64_t chaos_cut_below(uint64_t *state, uint64_t bound);

/*
** Undoes (or not, per `mode`) one entry on the open file `fd` through `io`, whose simulated size
** is *size (updated). `sector` is the torn-write unit. Undo a file's entries newest
** to oldest: each sector then holds one of the values it had since the last sync, or
** garbage, which is what a disk may hold after a cut.
** A garbled sector is garbage only in the bytes the write covered, as a file system
** keeps earlier synced data (LazyFS's torn writes) and a disk keeps its powersafe-
** overwrite promise: an app cannot be asked to survive garbage in bytes it had
** already synced (chaos_powerloss.c says why not even SQLite can).
*/
void chaos_cut_undo(const chaos_cut_io *io, int fd, const chaos_cut_entry *entry, int mode, int sector, uint64_t *rng, int64_t *size);

/*
** When an armed cut comes: the changes and syncs counted since tracking started, and
** the counts at which the armed cut falls (0: not armed). Both simulators keep one,
** under their own lock.
*/
typedef struct chaos_cut_moment {
    int64_t writes, syncs;
    int64_t at_sync, after_write; /* absolute counts; 0 = none */
    int mode;
    unsigned long long seed;
} chaos_cut_moment;

/* Counts from zero, nothing armed (tracking starts). */
void chaos_cut_moment_start(chaos_cut_moment *m);
/* Nothing armed; the counts stay. */
void chaos_cut_moment_disarm(chaos_cut_moment *m);
/* Arms the cut at the `at_sync`th sync or after the `after_writes`th change from now
** (0: not on that count). */
void chaos_cut_moment_arm(chaos_cut_moment *m, int at_sync, int after_writes, int mode, unsigned long long seed);
/* Counts a change (a sync); true when the armed cut is due now. */
int chaos_cut_moment_write(chaos_cut_moment *m);
int chaos_cut_moment_sync(chaos_cut_moment *m);

/* The torn-write unit asked for, if it is a power of two from 512 to 65536; else 512. */
int chaos_cut_sector_size(int requested);

/* Writes all of [buf, buf + n) at `off` through `io`, retrying short writes; gives up
** silently (nothing better to do while the power goes). */
void chaos_cut_pwrite_all(const chaos_cut_io *io, int fd, const void *buf, int64_t n, int64_t off);

#ifdef __cplusplus
}
#endif
#endif /* CHAOS_POWER_CUT_H */
