/*
** CChaosVFS: the crash simulator (power loss).
**
** Method:
**
**   A power cut loses what the OS had not yet put on the disk: everything
**   written to a file since that file's last fsync may be there, may be
**   missing, or (a sector being written when the power went) may be garbage.
**   SQLite is designed to survive exactly that, given honest answers from
**   xSync, xSectorSize and xDeviceCharacteristics.
**
**   SQLite's own crash VFS (src/test6.c) buffers writes in memory until xSync.
**   That image is per file handle, which breaks when several connections share
**   a file (GRDB's DatabasePool). This simulator is an undo log instead:
**
**   - Writes go through to the real file at once, so every connection sees
**     them as it would without the simulator.
**   - Before each xWrite, and each xTruncate, of a main database, rollback
**     journal or WAL file, the pre-image is kept: the byte range, its old
**     bytes (read from the real file) and the file's old size. The log is kept
**     per PATH, shared by every handle on that path.
**   - xSync of a file makes its path durable: that path's log is cleared. The
**     sync is modelled, not passed on: no fsync reaches the real disk while the
**     simulator tracks (the cut is simulated on a machine that keeps its page
**     cache; a real fsync cost a third of a crash trial for nothing).
**     Closing a file is not durable; its log stays.
**   - xDelete of a file is treated as durable (its log is dropped), as are
**     file creation and directory entries in general: the simulator models
**     file contents, not the directory. That can hide a loss (SQLite syncs the
**     directory after deleting a journal only with synchronous=EXTRA), never
**     invent one.
**   - The -shm wal-index is not tracked: it is shared memory that SQLite
**     rebuilds from the WAL when the first connection opens after a crash. On
**     a crash it is deleted, as a reboot would lose it.
**
**   On a crash (a trigger, or chaos_vfs_powerloss_crash) the calling thread
**   takes the simulator's lock for good, so no other thread writes, truncates
**   or syncs a tracked file again. Then, for each path in the order it was
**   first written, and for each pending entry newest to oldest, it decides:
**
**     DROP  revert every entry: a clean cut that loses everything unsynced;
**     KEEP  keep every entry: the OS had flushed it all;
**     TORN  per SECTOR of each entry, a seeded choice of keep, revert or
**           garble (the bytes the write covered in that sector become random);
**           a truncate is kept or reverted as a whole.
**
**   Reverting newest to oldest leaves each sector holding one of the values
**   it had since the last sync (or garbage), which is what a disk may hold.
**   A reverted entry that had grown the file truncates it back, unless a newer
**   kept entry grew it further (then the reverted tail reads as zeros, a hole).
**   Then the process ends with _exit(CHAOS_POWER_LOSS_EXIT): no atexit
**   handlers, no stdio flush.
**
**   Torn sectors are only honest if SQLite knows sectors can tear: while
**   tearing is enabled, tracked files report the simulated sector size from
**   xSectorSize and do not claim SQLITE_IOCAP_POWERSAFE_OVERWRITE (nor atomic
**   or sequential writes) in xDeviceCharacteristics. Garbling 512-byte sectors
**   behind a file that promises power-safe overwrite reports lost commits that
**   a real disk honouring that promise would never lose.
**
**   A garbled sector is garbage only where the write touched it, not edge to
**   edge. Whole-sector garbage is the letter of "no powersafe overwrite" (and
**   of SQLite's own test6.c), but SQLite itself does not survive it over two
**   cuts: a FULL commit in WAL mode is padded with a copy of its last frame,
**   synced only up to the sector boundary; a cut drops the copy's tail, so the
**   next transaction's first frame is written into the synced sector that ends
**   the commit frame, and garbage across that whole sector loses the commit.
**   Found by `chaos hunt` (a cut, a failed write, a torn cut: 3 seeds of 8 lost
**   an acknowledged save in every app). Garbage within the write is what a disk
**   that keeps its powersafe-overwrite promise (SQLite's default, and every
**   device an app ships on) may leave, so an app is never blamed for SQLite's
**   own limit; the advertisement above stays, keeping SQLite in its careful
**   mode.
**
**   Randomness is SplitMix64 (the algorithm of Chaos's SplitMix64.swift) seeded
**   from the crash's seed, drawn in a fixed order, so a seed replays a crash.
**
**   Cost: nothing unless enabled (one relaxed atomic load in the shim). While
**   enabled, every tracked write, truncate and sync holds one process-wide
**   mutex around the pre-image read and the real call, so that a crash on
**   another thread can never see a write whose pre-image is not logged.
*/
#include "chaos_internal.h"
#include "chaos_power_cut.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A limit on pre-image bytes kept at once (all paths); past it writes fail. */
#define PL_MAX_LOG_BYTES ((sqlite3_int64)1 << 30)

/* One logged change: CPowerCut's entry (what it overwrote, and how the size moved). */
typedef chaos_cut_entry pl_entry;

typedef struct pl_path {
    char *path;
    int kind;
    pl_entry *entries;
    int count, capacity;
    struct pl_path *next;
} pl_path;

atomic_int chaos_pl_active;

/* All guarded by g_lock. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_torn;                 /* tearing advertised (sector size, no POWERSAFE_OVERWRITE) */
static int g_sector = 512;
static char *g_scope;              /* only paths starting with this are tracked; NULL = all */
static size_t g_scope_len;
static pl_path *g_paths, **g_paths_tail = &g_paths;
static sqlite3_int64 g_log_bytes;
/* The calls a cut makes on the files it undoes (CPowerCut's): libc's. */
static const chaos_cut_io g_io = {pwrite, ftruncate};
static chaos_cut_moment g_moment;               /* tracked counts, since enable; the armed cut */

/* ---- the log ----------------------------------------------------------- */

static int in_scope(const char *path) {
    return g_scope == NULL || strncmp(path, g_scope, g_scope_len) == 0;
}

static pl_path *find_path(const char *path) {
    for (pl_path *r = g_paths; r; r = r->next)
        if (strcmp(r->path, path) == 0) return r;
    return NULL;
}

/* The record of p's path, created on first use and cached on the file. */
static pl_path *record_of(chaos_file *p) {
    if (p->pl) return p->pl;
    pl_path *r = find_path(p->path);
    if (!r) {
        r = calloc(1, sizeof(*r));
        if (!r || !(r->path = strdup(p->path))) {
            free(r);
            return NULL;
        }
        r->kind = p->kind;
        *g_paths_tail = r;
        g_paths_tail = &r->next;
    }
    return p->pl = r;
}

static void clear_log(pl_path *r) {
    for (int i = 0; i < r->count; i++) {
        g_log_bytes -= r->entries[i].pre_len;
        free(r->entries[i].pre);
    }
    r->count = 0;
}

static int append(pl_path *r, const pl_entry *e) {
    if (r->count == r->capacity) {
        int capacity = r->capacity ? r->capacity * 2 : 16;
        pl_entry *grown = realloc(r->entries, (size_t)capacity * sizeof(pl_entry));
        if (!grown) return SQLITE_IOERR_NOMEM;
        r->entries = grown;
        r->capacity = capacity;
    }
    r->entries[r->count++] = *e;
    g_log_bytes += e->pre_len;
    return SQLITE_OK;
}

/*
** Logs the change of [off, off + len) to size new_size (lock held): reads the
** old bytes that exist from the real file. The entry is appended before the
** real call, so a change that fails half way is still undone by a crash.
*/
static int log_change(chaos_file *p, sqlite3_int64 off, sqlite3_int64 len, sqlite3_int64 new_size,
                      int is_truncate, pl_path **out) {
    pl_path *r = record_of(p);
    if (!r) return SQLITE_IOERR_NOMEM;
    sqlite3_int64 old_size = 0;
    int rc = p->real->pMethods->xFileSize(p->real, &old_size);
    if (rc != SQLITE_OK) return rc;
    pl_entry e = {off, len, old_size, new_size < 0 ? (off + len > old_size ? off + len : old_size) : new_size,
                  is_truncate, 0, NULL};
    sqlite3_int64 pre_end = off + len < old_size ? off + len : old_size;
    if (pre_end > off) {
        sqlite3_int64 n = pre_end - off;
        if (g_log_bytes + n > PL_MAX_LOG_BYTES || n > INT32_MAX) return SQLITE_IOERR_NOMEM;
        if (!(e.pre = malloc((size_t)n))) return SQLITE_IOERR_NOMEM;
        rc = p->real->pMethods->xRead(p->real, e.pre, (int)n, off);
        if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
            free(e.pre);
            return rc;
        }
        e.pre_len = n;
    }
    if ((rc = append(r, &e)) != SQLITE_OK) {
        free(e.pre);
        return rc;
    }
    *out = r;
    return SQLITE_OK;
}

static void crash_locked(int mode, unsigned long long seed) __attribute__((noreturn));
static int g_image_count;                /* images waiting to be taken, or taken */
static void take_images_locked(int at_sync);

int chaos_pl_write(chaos_file *p, const void *buf, int amt, sqlite3_int64 off) {
    pthread_mutex_lock(&g_lock);
    int rc;
    if (!atomic_load(&chaos_pl_active) || !in_scope(p->path)) {
        rc = p->real->pMethods->xWrite(p->real, buf, amt, off);
    } else {
        pl_path *r;
        rc = log_change(p, off, amt, -1, 0, &r);
        if (rc == SQLITE_OK) rc = p->real->pMethods->xWrite(p->real, buf, amt, off);
        if (rc == SQLITE_OK) {
            int due = chaos_cut_moment_write(&g_moment);
            if (g_image_count) take_images_locked(0);
            if (due) crash_locked(g_moment.mode, g_moment.seed);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int chaos_pl_truncate(chaos_file *p, sqlite3_int64 size) {
    pthread_mutex_lock(&g_lock);
    int rc = SQLITE_OK;
    if (atomic_load(&chaos_pl_active) && in_scope(p->path)) {
        sqlite3_int64 old_size = 0;
        rc = p->real->pMethods->xFileSize(p->real, &old_size);
        pl_path *r;
        if (rc == SQLITE_OK && size < old_size) rc = log_change(p, size, old_size - size, size, 1, &r);
        else if (rc == SQLITE_OK && size > old_size) rc = log_change(p, old_size, size - old_size, size, 1, &r);
    }
    if (rc == SQLITE_OK) rc = p->real->pMethods->xTruncate(p->real, size);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int chaos_pl_sync(chaos_file *p, int flags) {
    pthread_mutex_lock(&g_lock);
    int rc;
    if (!atomic_load(&chaos_pl_active) || !in_scope(p->path)) {
        rc = p->real->pMethods->xSync(p->real, flags);
    } else {
        int due = chaos_cut_moment_sync(&g_moment);
        if (g_image_count) take_images_locked(1);
        if (due) crash_locked(g_moment.mode, g_moment.seed);
        /* The sync is modelled, not paid: what it makes durable is what the undo log no
           longer holds, and the power cut that follows is simulated on this machine,
           whose page cache the next launch reads. A real fsync here cost a third of a
           crash trial on a real disk, for nothing. */
        (void)flags;
        rc = SQLITE_OK;
        pl_path *r = record_of(p);
        if (r) clear_log(r);
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

void chaos_pl_deleted(const char *path) {
    if (!atomic_load_explicit(&chaos_pl_active, memory_order_relaxed)) return;
    pthread_mutex_lock(&g_lock);
    pl_path *r = find_path(path);
    if (r) clear_log(r);
    pthread_mutex_unlock(&g_lock);
}

int chaos_pl_sector_size(const chaos_file *p, int real_answer) {
    pthread_mutex_lock(&g_lock);
    int v = g_torn && in_scope(p->path) ? g_sector : real_answer;
    pthread_mutex_unlock(&g_lock);
    return v;
}

int chaos_pl_device_characteristics(const chaos_file *p, int real_answer) {
    pthread_mutex_lock(&g_lock);
    int v = real_answer;
    if (g_torn && in_scope(p->path)) {
        v &= ~(SQLITE_IOCAP_POWERSAFE_OVERWRITE | SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 |
               SQLITE_IOCAP_ATOMIC1K | SQLITE_IOCAP_ATOMIC2K | SQLITE_IOCAP_ATOMIC4K |
               SQLITE_IOCAP_ATOMIC8K | SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K |
               SQLITE_IOCAP_ATOMIC64K | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL |
               SQLITE_IOCAP_BATCH_ATOMIC);
    }
    pthread_mutex_unlock(&g_lock);
    return v;
}

/* ---- the crash --------------------------------------------------------- */

/*
** Undoes every pending entry per `mode` and `seed` (lock held), path by path in the
** order each was first written, newest entry first; then deletes each tracked
** database's -shm. Into the real files (root NULL: a crash), or into their copies
** under `root`, a copy of the scope folder (an image): the same choices either way.
*/
static void undo_pending(const char *root, int mode, unsigned long long seed) {
    uint64_t rng64 = seed;
    for (pl_path *r = g_paths; r; r = r->next) {
        if (root && (!g_scope || strncmp(r->path, g_scope, g_scope_len) != 0)) continue;
        char path[PATH_MAX];
        int n = root ? snprintf(path, sizeof(path), "%s/%s", root, r->path + g_scope_len)
                     : snprintf(path, sizeof(path), "%s", r->path);
        if (n < 0 || n >= (int)sizeof(path) - 4) continue;
        if (r->count > 0) {
            int fd = open(path, O_RDWR | O_CLOEXEC);
            if (fd >= 0) {
                struct stat st;
                int64_t size = fstat(fd, &st) == 0 ? (int64_t)st.st_size : 0;
                for (int i = r->count - 1; i >= 0; i--) chaos_cut_undo(&g_io, fd, &r->entries[i], mode, g_sector, &rng64, &size);
                close(fd);  /* no fsync: the machine does not really lose its page cache */
            }
        }
        if (r->kind == CHAOS_FILE_MAIN_DB) {
            memcpy(path + n, "-shm", 5);
            unlink(path);
        }
    }
}

static void crash_locked(int mode, unsigned long long seed) {
    undo_pending(NULL, mode, seed);
    _exit(CHAOS_POWER_LOSS_EXIT);
}

/* ---- images: what a cut would leave, the app going on ------------------ */

/*
** A crash sweep asks what each of hundreds of cuts leaves on the disk. Cutting the
** power in a run of the app per cut costs a run of the app's workload per cut; an
** image costs a copy of the data folder: at the moment a cut would come, under the
** lock (so no tracked file moves), the scope folder is copied and its pending
** entries undone in the copy exactly as crash_locked would undo them in place — the
** same entries, order and seeded choices — and the app goes on to the next moment.
** The folder the app would find after that cut is then the image.
*/
typedef struct pl_image {
    int64_t at_write, at_sync; /* absolute counts; 0 = not on that count */
    int mode;
    unsigned long long seed;
    char *dir;
    int taken;
} pl_image;

static pl_image *g_images;
static int g_image_capacity;
static long long g_image_budget = -1; /* bytes the images may still take; -1: no limit */

/* Made in `dir`.part and renamed `dir` once whole: a folder named `dir` is an image. */
static int take_image(const pl_image *m) {
    if (!g_scope || g_scope_len < 2) return -1;
    char from[PATH_MAX], part[PATH_MAX];
    if (g_scope_len >= sizeof(from) || snprintf(part, sizeof(part), "%s.part", m->dir) >= (int)sizeof(part)) return -1;
    memcpy(from, g_scope, g_scope_len - 1); /* the scope without its closing slash */
    from[g_scope_len - 1] = 0;
    if (g_image_budget >= 0) { /* past the budget, no image: its trial runs whole */
        long long size = chaos_tree_size(from);
        if (size > g_image_budget) return -1;
        g_image_budget -= size;
    }
    if (chaos_tree_copy(from, part) != 0) return -1;
    undo_pending(part, m->mode, m->seed);
    return rename(part, m->dir) == 0 ? 0 : -1;
}

/* Takes the images due at this write (at_sync 0) or sync count (lock held). */
static void take_images_locked(int at_sync) {
    for (int i = 0; i < g_image_count; i++) {
        pl_image *m = &g_images[i];
        int due = at_sync ? m->at_sync && m->at_sync == g_moment.syncs : m->at_write && m->at_write == g_moment.writes;
        if (m->taken || !due) continue;
        m->taken = 1;
        (void)take_image(m); /* one not taken leaves no folder named `dir`: its trial runs whole */
    }
}

static void drop_images_locked(void) {
    for (int i = 0; i < g_image_count; i++) free(g_images[i].dir);
    free(g_images);
    g_images = NULL;
    g_image_count = g_image_capacity = 0;
}

/* ---- public API -------------------------------------------------------- */

void chaos_vfs_powerloss_enable(int enabled, int sector_size, int torn) {
    pthread_mutex_lock(&g_lock);
    if (enabled) {
        g_sector = chaos_cut_sector_size(sector_size);
        g_torn = torn != 0;
        if (!atomic_load(&chaos_pl_active)) chaos_cut_moment_start(&g_moment);
        atomic_store(&chaos_pl_active, 1);
    } else {
        atomic_store(&chaos_pl_active, 0);
        g_torn = 0;
        chaos_cut_moment_disarm(&g_moment);
        for (pl_path *r = g_paths; r; r = r->next) clear_log(r);
        drop_images_locked();
    }
    pthread_mutex_unlock(&g_lock);
}

void chaos_vfs_powerloss_set_scope(const char *path_prefix) {
    char *copy = path_prefix && *path_prefix ? strdup(path_prefix) : NULL;
    pthread_mutex_lock(&g_lock);
    free(g_scope);
    g_scope = copy;
    g_scope_len = copy ? strlen(copy) : 0;
    pthread_mutex_unlock(&g_lock);
}

void chaos_vfs_powerloss_arm(int at_sync, int after_writes, int mode, unsigned long long seed) {
    pthread_mutex_lock(&g_lock);
    chaos_cut_moment_arm(&g_moment, at_sync, after_writes, mode, seed);
    pthread_mutex_unlock(&g_lock);
}

void chaos_vfs_powerloss_image_budget(long long bytes) {
    pthread_mutex_lock(&g_lock);
    g_image_budget = bytes;
    pthread_mutex_unlock(&g_lock);
}

int chaos_vfs_powerloss_image_at(int at_sync, int after_writes, int mode, unsigned long long seed, const char *dir) {
    if (!dir || !*dir || (at_sync <= 0) == (after_writes <= 0)) return EINVAL;
    pthread_mutex_lock(&g_lock);
    int rc = 0;
    if (g_image_count == g_image_capacity) {
        int capacity = g_image_capacity ? g_image_capacity * 2 : 64;
        pl_image *grown = realloc(g_images, (size_t)capacity * sizeof(pl_image));
        if (grown) {
            g_images = grown;
            g_image_capacity = capacity;
        } else {
            rc = ENOMEM;
        }
    }
    char *copy = rc == 0 ? strdup(dir) : NULL;
    if (rc == 0 && copy) {
        /* Counted from now, as an armed cut is. */
        g_images[g_image_count++] = (pl_image){after_writes > 0 ? g_moment.writes + after_writes : 0,
                                               at_sync > 0 ? g_moment.syncs + at_sync : 0, mode, seed, copy, 0};
    } else if (rc == 0) {
        rc = ENOMEM;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

void chaos_vfs_powerloss_crash(int mode, unsigned long long seed) {
    pthread_mutex_lock(&g_lock); /* never released */
    crash_locked(mode, seed);
}

void chaos_vfs_powerloss_stats(sqlite3_int64 *writes, sqlite3_int64 *syncs, sqlite3_int64 *pending_entries) {
    pthread_mutex_lock(&g_lock);
    sqlite3_int64 pending = 0;
    for (pl_path *r = g_paths; r; r = r->next) pending += r->count;
    if (writes) *writes = g_moment.writes;
    if (syncs) *syncs = g_moment.syncs;
    if (pending_entries) *pending_entries = pending;
    pthread_mutex_unlock(&g_lock);
}
