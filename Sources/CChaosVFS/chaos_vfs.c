/*
** CChaosVFS: the "chaos" SQLite VFS.
**
** Method:
**
**   This VFS wraps the platform's "unix" VFS. Every VFS method and every
**   io method (version 3: shared memory and memory-mapped fetch included, so
**   WAL mode works) is forwarded to the real implementation. Each open file
**   is a chaos_file followed, in the same allocation, by the real VFS's own
**   sqlite3_file; the chaos_file remembers the real file, the full path and
**   what kind of file it is (main database, main journal, WAL, other), so
**   that later per-path state (an undo log for power loss, say) has a key.
**
**   Before forwarding, each io method, xOpen and xDelete ask one process-wide
**   hook "fail this?". The hook answers 0 (go on) or an SQLite result code,
**   which is returned instead of forwarding. When no hook is set that costs
**   one relaxed atomic load. SQLITE_FCNTL_VFSNAME is answered as "chaos/<inner>",
**   so a test can check a connection really goes through the shim.
**
**   Power loss is the one piece of mechanism that is not a yes/no answer: while
**   it is enabled, writes, truncates and syncs of the main database, journal
**   and WAL go through the crash simulator's undo log (chaos_powerloss.c,
**   which explains its model) instead of straight to the real file.
**
**   Deciding *what* to fail, when and how often (seeds, schedules, scenario
**   steps, per-path rules) is policy and lives in Swift, in the Chaos target.
**   Keeping it out of C keeps this file small, obviously correct and free of
**   allocation on the hot path, and lets the policy be tested and changed in
**   the language the rest of the framework is written in.
*/
#include "chaos_internal.h"
#include "chaos_seam_calls.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- state ------------------------------------------------------------- */

/* A hook and its context, published together. Cells are immutable once
** published and never freed (a concurrent caller may still hold one); they
** are interned, so memory is bounded by the number of distinct pairs set. */
typedef struct hook_cell {
    chaos_vfs_hook fn;
    void *ctx;
    struct hook_cell *next;
} hook_cell;

#define CHAOS_MAX_LIBRARIES 8

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
/* The copies of SQLite the shim is installed into; entries are never removed, so a
** file's `lib` stays valid. Guarded by g_mutex when written. */
static chaos_library g_libraries[CHAOS_MAX_LIBRARIES];
static int g_library_count;
static hook_cell *g_cells; /* guarded by g_mutex */
static _Atomic(hook_cell *) g_hook;
static _Atomic(sqlite3_int64) g_opens, g_reads, g_writes, g_syncs;
/* What the app's SQLite did to its files through the shim, with what each call answered. */
static chaos_seam_calls g_calls;

#define LIBRARY(v) ((const chaos_library *)(v)->pAppData)
#define REAL_VFS(v) (LIBRARY(v)->real)
#define REAL(f) (((chaos_file *)(f))->real)
#define COUNT(c) atomic_fetch_add_explicit(&(c), 1, memory_order_relaxed)

static inline const hook_cell *hook_get(void) {
    hook_cell *c = atomic_load_explicit(&g_hook, memory_order_relaxed);
    if (c) atomic_thread_fence(memory_order_acquire);
    return c;
}

static inline int hook_call(int op, int kind, const char *path, sqlite3_int64 off, int amt) {
    const hook_cell *h = hook_get();
    return h ? h->fn(h->ctx, op, kind, path, off, amt) : 0;
}

/* Ask the hook; return its code from the enclosing io method if non-zero. */
#define HOOK(pFile, op, off, amt)                                                  \
    do {                                                                           \
        chaos_file *f_ = (chaos_file *)(pFile);                                    \
        int rc_ = hook_call((op), f_->kind, f_->path, (off), (amt));               \
        if (rc_ != 0) return rc_;                                                  \
    } while (0)

/* ---- io methods -------------------------------------------------------- */

static int cClose(sqlite3_file *pFile) {
    chaos_file *p = (chaos_file *)pFile;
    int hrc = hook_call(CHAOS_OP_CLOSE, p->kind, p->path, 0, 0);
    int rc = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
    if (p->path) p->lib->api.free(p->path);
    p->path = NULL;
    return hrc ? hrc : rc;
}
/* Counts the call among what the seam saw, and gives its result back. */
static inline int seen(int op, const chaos_file *p, int rc) {
    chaos_seam_calls_note(&g_calls, op, p->path, rc);
    return rc;
}
static int cRead(sqlite3_file *pFile, void *buf, int amt, sqlite3_int64 off) {
    COUNT(g_reads);
    chaos_file *p = (chaos_file *)pFile;
    int hrc = hook_call(CHAOS_OP_READ, p->kind, p->path, off, amt);
    if (hrc == SQLITE_IOERR_SHORT_READ) {
        /* SQLite requires the unread part of a short read to be zero-filled. */
        memset(buf, 0, (size_t)amt);
        return seen(CHAOS_OP_READ, p, hrc);
    }
    if (hrc != 0) return seen(CHAOS_OP_READ, p, hrc);
    /* A real short read is the end of the file, which SQLite reads past by design (a new
    ** page, a journal's header): no failure the app meets, so it is seen as a success.
    ** An injected one (above) is the fault's, and seen as it is. */
    int rc = REAL(pFile)->pMethods->xRead(REAL(pFile), buf, amt, off);
    chaos_seam_calls_note(&g_calls, CHAOS_OP_READ, p->path, rc == SQLITE_IOERR_SHORT_READ ? SQLITE_OK : rc);
    return rc;
}
static int cWrite(sqlite3_file *pFile, const void *buf, int amt, sqlite3_int64 off) {
    COUNT(g_writes);
    chaos_file *p = (chaos_file *)pFile;
    int rc = hook_call(CHAOS_OP_WRITE, p->kind, p->path, off, amt);
    if (rc == 0) rc = chaos_pl_tracks(p) ? chaos_pl_write(p, buf, amt, off) : REAL(pFile)->pMethods->xWrite(REAL(pFile), buf, amt, off);
    return seen(CHAOS_OP_WRITE, p, rc);
}
static int cTruncate(sqlite3_file *pFile, sqlite3_int64 size) {
    chaos_file *p = (chaos_file *)pFile;
    const hook_cell *h = hook_get();
    if (h) { /* the hook is told whether the file grows (disk-full fails only that) */
        sqlite3_int64 now = 0;
        int grows = p->real->pMethods->xFileSize(p->real, &now) == SQLITE_OK && size > now;
        int rc = h->fn(h->ctx, CHAOS_OP_TRUNCATE, p->kind, p->path, size, grows);
        if (rc != 0) return seen(CHAOS_OP_TRUNCATE, p, rc);
    }
    if (chaos_pl_tracks(p)) return seen(CHAOS_OP_TRUNCATE, p, chaos_pl_truncate(p, size));
    return seen(CHAOS_OP_TRUNCATE, p, REAL(pFile)->pMethods->xTruncate(REAL(pFile), size));
}
static int cSync(sqlite3_file *pFile, int flags) {
    COUNT(g_syncs);
    chaos_file *p = (chaos_file *)pFile;
    int rc = hook_call(CHAOS_OP_SYNC, p->kind, p->path, 0, flags);
    if (rc == 0) rc = chaos_pl_tracks(p) ? chaos_pl_sync(p, flags) : REAL(pFile)->pMethods->xSync(REAL(pFile), flags);
    return seen(CHAOS_OP_SYNC, p, rc);
}
static int cFileSize(sqlite3_file *pFile, sqlite3_int64 *pSize) {
    HOOK(pFile, CHAOS_OP_FILESIZE, 0, 0);
    return REAL(pFile)->pMethods->xFileSize(REAL(pFile), pSize);
}
static int cLock(sqlite3_file *pFile, int level) {
    HOOK(pFile, CHAOS_OP_LOCK, 0, level);
    return REAL(pFile)->pMethods->xLock(REAL(pFile), level);
}
static int cUnlock(sqlite3_file *pFile, int level) {
    HOOK(pFile, CHAOS_OP_UNLOCK, 0, level);
    return REAL(pFile)->pMethods->xUnlock(REAL(pFile), level);
}
static int cCheckReservedLock(sqlite3_file *pFile, int *pResOut) {
    HOOK(pFile, CHAOS_OP_CHECK_RESERVED_LOCK, 0, 0);
    return REAL(pFile)->pMethods->xCheckReservedLock(REAL(pFile), pResOut);
}
/* The durability settings the app gave its store, as SQLite reports each PRAGMA to the
** main database's file (SQLITE_FCNTL_PRAGMA: azArg[1] the name, azArg[2] the value or
** NULL for a query): what a lost commit's cause is read from. -1: never set. */
static _Atomic int store_synchronous = -1;  /* 0 off, 1 normal, 2 full, 3 extra */
static _Atomic int store_wal = -1;          /* 1 wal, 0 another journal mode */

static int word_is(const char *word, const char *name) {
    if (!word) return 0;
    for (; *word && *name; word++, name++) {
        char c = *word >= 'A' && *word <= 'Z' ? (char)(*word + 32) : *word;
        if (c != *name) return 0;
    }
    return *word == 0 && *name == 0;
}

static void note_pragma(char **azArg) {
    if (!azArg || !azArg[1] || !azArg[2]) return;
    if (word_is(azArg[1], "synchronous")) {
        const char *v = azArg[2];
        int level = word_is(v, "off") || word_is(v, "0") ? 0 : word_is(v, "normal") || word_is(v, "1") ? 1
                  : word_is(v, "full") || word_is(v, "2") ? 2 : word_is(v, "extra") || word_is(v, "3") ? 3 : -1;
        if (level >= 0) atomic_store(&store_synchronous, level);
    } else if (word_is(azArg[1], "journal_mode")) {
        atomic_store(&store_wal, word_is(azArg[2], "wal") ? 1 : 0);
    }
}

void chaos_vfs_store_settings(int *synchronous, int *wal) {
    *synchronous = atomic_load(&store_synchronous);
    *wal = atomic_load(&store_wal);
}

static int cFileControl(sqlite3_file *pFile, int op, void *pArg) {
    HOOK(pFile, CHAOS_OP_FILE_CONTROL, 0, op);
    if (op == SQLITE_FCNTL_PRAGMA) note_pragma((char **)pArg);
    int rc = REAL(pFile)->pMethods->xFileControl(REAL(pFile), op, pArg);
    if (op == SQLITE_FCNTL_VFSNAME) {
        /* "chaos/<inner>", allocated by the copy of SQLite that will free it. */
        const chaos_library *lib = ((chaos_file *)pFile)->lib;
        char **pz = (char **)pArg;
        char *inner = rc == SQLITE_OK ? *pz : NULL;
        const char *name = inner ? inner : lib->real->zName;
        size_t n = strlen(CHAOS_VFS_NAME) + 1 + strlen(name) + 1;
        char *joined = lib->api.malloc((int)n);
        if (joined) snprintf(joined, n, "%s/%s", CHAOS_VFS_NAME, name);
        if (inner) lib->api.free(inner);
        *pz = joined;
        rc = joined ? SQLITE_OK : SQLITE_NOMEM;
    }
    return rc;
}
static int cSectorSize(sqlite3_file *pFile) {
    chaos_file *p = (chaos_file *)pFile;
    int v = p->real->pMethods->xSectorSize(p->real);
    if (chaos_pl_tracks(p)) v = chaos_pl_sector_size(p, v);
    int h = hook_call(CHAOS_OP_SECTOR_SIZE, p->kind, p->path, 0, v);
    return h ? h : v;
}
static int cDeviceCharacteristics(sqlite3_file *pFile) {
    chaos_file *p = (chaos_file *)pFile;
    int v = p->real->pMethods->xDeviceCharacteristics(p->real);
    if (chaos_pl_tracks(p)) v = chaos_pl_device_characteristics(p, v);
    int h = hook_call(CHAOS_OP_DEVICE_CHARACTERISTICS, p->kind, p->path, 0, v);
    return h ? h : v;
}
static int cShmMap(sqlite3_file *pFile, int iPg, int pgsz, int bExtend, void volatile **pp) {
    HOOK(pFile, CHAOS_OP_SHM_MAP, iPg, pgsz);
    return REAL(pFile)->pMethods->xShmMap(REAL(pFile), iPg, pgsz, bExtend, pp);
}
static int cShmLock(sqlite3_file *pFile, int ofst, int n, int flags) {
    /* Only lock requests ask: failing an unlock is not something SQLite meets. */
    if (flags & SQLITE_SHM_LOCK) HOOK(pFile, CHAOS_OP_SHM_LOCK, ofst, n);
    return REAL(pFile)->pMethods->xShmLock(REAL(pFile), ofst, n, flags);
}
static void cShmBarrier(sqlite3_file *pFile) {
    chaos_file *p = (chaos_file *)pFile;
    (void)hook_call(CHAOS_OP_SHM_BARRIER, p->kind, p->path, 0, 0);
    p->real->pMethods->xShmBarrier(p->real);
}
static int cShmUnmap(sqlite3_file *pFile, int deleteFlag) {
    chaos_file *p = (chaos_file *)pFile;
    int hrc = hook_call(CHAOS_OP_SHM_UNMAP, p->kind, p->path, 0, deleteFlag);
    int rc = p->real->pMethods->xShmUnmap(p->real, deleteFlag);
    return hrc ? hrc : rc;
}
static int cFetch(sqlite3_file *pFile, sqlite3_int64 off, int amt, void **pp) {
    chaos_file *p = (chaos_file *)pFile;
    int hrc = hook_call(CHAOS_OP_FETCH, p->kind, p->path, off, amt);
    if (hrc) {
        *pp = NULL;
        return hrc;
    }
    return p->real->pMethods->xFetch(p->real, off, amt, pp);
}
static int cUnfetch(sqlite3_file *pFile, sqlite3_int64 off, void *pPage) {
    chaos_file *p = (chaos_file *)pFile;
    int hrc = hook_call(CHAOS_OP_UNFETCH, p->kind, p->path, off, pPage != NULL);
    int rc = p->real->pMethods->xUnfetch(p->real, off, pPage);
    return hrc ? hrc : rc;
}

#define CHAOS_IO_METHODS(version)                                                  \
    {                                                                              \
        (version), cClose, cRead, cWrite, cTruncate, cSync, cFileSize, cLock,      \
        cUnlock, cCheckReservedLock, cFileControl, cSectorSize,                    \
        cDeviceCharacteristics, cShmMap, cShmLock, cShmBarrier, cShmUnmap,         \
        cFetch, cUnfetch                                                           \
    }
/* Index = iVersion; SQLite never calls past the version a file advertises. */
static const sqlite3_io_methods g_io[4] = {
    CHAOS_IO_METHODS(0), CHAOS_IO_METHODS(1), CHAOS_IO_METHODS(2), CHAOS_IO_METHODS(3)
};

/* ---- VFS methods ------------------------------------------------------- */

static int kind_of_flags(int flags) {
    if (flags & SQLITE_OPEN_MAIN_DB) return CHAOS_FILE_MAIN_DB;
    if (flags & SQLITE_OPEN_MAIN_JOURNAL) return CHAOS_FILE_MAIN_JOURNAL;
    if (flags & SQLITE_OPEN_WAL) return CHAOS_FILE_WAL;
    return CHAOS_FILE_OTHER;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static int cOpen(sqlite3_vfs *pVfs, const char *zName, sqlite3_file *pFile, int flags,
                 int *pOutFlags) {
    sqlite3_vfs *real = REAL_VFS(pVfs);
    chaos_file *p = (chaos_file *)pFile;
    int rc;
    memset(p, 0, sizeof(*p)); /* pMethods = NULL until the real open succeeded */
    p->real = (sqlite3_file *)&p[1];
    p->lib = LIBRARY(pVfs);
    p->kind = kind_of_flags(flags);
    COUNT(g_opens);
    if ((rc = hook_call(CHAOS_OP_OPEN, p->kind, zName, 0, flags)) != 0) {
        chaos_seam_calls_note(&g_calls, CHAOS_OP_OPEN, zName, rc);
        return rc;
    }
    if (zName) {
        size_t n = strlen(zName) + 1;
        if (!(p->path = p->lib->api.malloc((int)n))) return SQLITE_NOMEM;
        memcpy(p->path, zName, n);
    }
    rc = real->xOpen(real, zName, p->real, flags, pOutFlags);
    if (rc != SQLITE_OK || p->real->pMethods == NULL) {
        /* A VFS that set pMethods expects xClose even after failing. */
        if (p->real->pMethods) p->real->pMethods->xClose(p->real);
        if (p->path) p->lib->api.free(p->path);
        p->path = NULL;
        chaos_seam_calls_note(&g_calls, CHAOS_OP_OPEN, zName, rc != SQLITE_OK ? rc : SQLITE_CANTOPEN);
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    chaos_seam_calls_note(&g_calls, CHAOS_OP_OPEN, zName, SQLITE_OK);
    int v = p->real->pMethods->iVersion;
    p->base.pMethods = &g_io[v < 0 ? 0 : v > 3 ? 3 : v];
    return SQLITE_OK;
}

static int cDelete(sqlite3_vfs *pVfs, const char *zName, int syncDir) {
    int kind = CHAOS_FILE_OTHER;
    if (zName && ends_with(zName, "-journal")) kind = CHAOS_FILE_MAIN_JOURNAL;
    else if (zName && ends_with(zName, "-wal")) kind = CHAOS_FILE_WAL;
    int rc = hook_call(CHAOS_OP_DELETE, kind, zName, 0, syncDir);
    if (rc == 0) {
        rc = REAL_VFS(pVfs)->xDelete(REAL_VFS(pVfs), zName, syncDir);
        if (zName && (rc == SQLITE_OK || rc == SQLITE_IOERR_DELETE_NOENT)) chaos_pl_deleted(zName);
    }
    chaos_seam_calls_note(&g_calls, CHAOS_OP_DELETE, zName, rc);
    return rc;
}
static int cAccess(sqlite3_vfs *pVfs, const char *zName, int flags, int *pResOut) {
    return REAL_VFS(pVfs)->xAccess(REAL_VFS(pVfs), zName, flags, pResOut);
}
static int cFullPathname(sqlite3_vfs *pVfs, const char *zName, int nOut, char *zOut) {
    return REAL_VFS(pVfs)->xFullPathname(REAL_VFS(pVfs), zName, nOut, zOut);
}
static void *cDlOpen(sqlite3_vfs *pVfs, const char *zPath) {
    return REAL_VFS(pVfs)->xDlOpen(REAL_VFS(pVfs), zPath);
}
static void cDlError(sqlite3_vfs *pVfs, int nByte, char *zErrMsg) {
    REAL_VFS(pVfs)->xDlError(REAL_VFS(pVfs), nByte, zErrMsg);
}
static void (*cDlSym(sqlite3_vfs *pVfs, void *h, const char *zSym))(void) {
    return REAL_VFS(pVfs)->xDlSym(REAL_VFS(pVfs), h, zSym);
}
static void cDlClose(sqlite3_vfs *pVfs, void *h) {
    REAL_VFS(pVfs)->xDlClose(REAL_VFS(pVfs), h);
}
static int cRandomness(sqlite3_vfs *pVfs, int nByte, char *zOut) {
    return REAL_VFS(pVfs)->xRandomness(REAL_VFS(pVfs), nByte, zOut);
}
static int cSleep(sqlite3_vfs *pVfs, int micro) {
    return REAL_VFS(pVfs)->xSleep(REAL_VFS(pVfs), micro);
}
static int cCurrentTime(sqlite3_vfs *pVfs, double *pOut) {
    return REAL_VFS(pVfs)->xCurrentTime(REAL_VFS(pVfs), pOut);
}
static int cGetLastError(sqlite3_vfs *pVfs, int n, char *z) {
    return REAL_VFS(pVfs)->xGetLastError(REAL_VFS(pVfs), n, z);
}
static int cCurrentTimeInt64(sqlite3_vfs *pVfs, sqlite3_int64 *pOut) {
    return REAL_VFS(pVfs)->xCurrentTimeInt64(REAL_VFS(pVfs), pOut);
}
static int cSetSystemCall(sqlite3_vfs *pVfs, const char *zName, sqlite3_syscall_ptr fn) {
    return REAL_VFS(pVfs)->xSetSystemCall(REAL_VFS(pVfs), zName, fn);
}
static sqlite3_syscall_ptr cGetSystemCall(sqlite3_vfs *pVfs, const char *zName) {
    return REAL_VFS(pVfs)->xGetSystemCall(REAL_VFS(pVfs), zName);
}
static const char *cNextSystemCall(sqlite3_vfs *pVfs, const char *zName) {
    return REAL_VFS(pVfs)->xNextSystemCall(REAL_VFS(pVfs), zName);
}

/* ---- public API -------------------------------------------------------- */

/* Fills `lib`'s VFS: ours, wrapping the copy's "unix". */
static void fill_vfs(chaos_library *lib) {
    sqlite3_vfs *real = lib->real;
    sqlite3_vfs *v = &lib->vfs;
    memset(v, 0, sizeof(*v));
    v->iVersion = real->iVersion < 3 ? real->iVersion : 3;
    v->szOsFile = (int)sizeof(chaos_file) + real->szOsFile;
    v->mxPathname = real->mxPathname;
    v->zName = CHAOS_VFS_NAME;
    v->pAppData = lib;
    v->xOpen = cOpen;
    v->xDelete = cDelete;
    v->xAccess = cAccess;
    v->xFullPathname = cFullPathname;
    v->xDlOpen = real->xDlOpen ? cDlOpen : NULL;
    v->xDlError = real->xDlError ? cDlError : NULL;
    v->xDlSym = real->xDlSym ? cDlSym : NULL;
    v->xDlClose = real->xDlClose ? cDlClose : NULL;
    v->xRandomness = cRandomness;
    v->xSleep = cSleep;
    v->xCurrentTime = cCurrentTime;
    v->xGetLastError = real->xGetLastError ? cGetLastError : NULL;
    if (v->iVersion >= 2) v->xCurrentTimeInt64 = real->xCurrentTimeInt64 ? cCurrentTimeInt64 : NULL;
    if (v->iVersion >= 3) {
        v->xSetSystemCall = real->xSetSystemCall ? cSetSystemCall : NULL;
        v->xGetSystemCall = real->xGetSystemCall ? cGetSystemCall : NULL;
        v->xNextSystemCall = real->xNextSystemCall ? cNextSystemCall : NULL;
    }
}

int chaos_vfs_register_library(const chaos_sqlite_api *api, int make_default) {
    if (!api || !api->vfs_find || !api->vfs_register || !api->malloc || !api->free) return SQLITE_MISUSE;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&g_mutex);
    chaos_library *lib = NULL;
    for (int i = 0; i < g_library_count; i++) {
        if (g_libraries[i].api.vfs_find == api->vfs_find) lib = &g_libraries[i];
    }
    if (lib) {
        if (make_default && api->vfs_find(NULL) != &lib->vfs) rc = api->vfs_register(&lib->vfs, 1);
    } else if (g_library_count == CHAOS_MAX_LIBRARIES) {
        rc = SQLITE_FULL;
    } else {
        /* Its "unix" (not the default, which may already be ours in another copy). */
        sqlite3_vfs *real = api->vfs_find("unix");
        if (real == NULL) {
            rc = SQLITE_ERROR;
        } else {
            lib = &g_libraries[g_library_count];
            lib->real = real;
            lib->api = *api;
            fill_vfs(lib);
            rc = api->vfs_register(&lib->vfs, make_default ? 1 : 0);
            if (rc == SQLITE_OK) g_library_count++;
        }
    }
    pthread_mutex_unlock(&g_mutex);
    return rc;
}

int chaos_vfs_library_count(void) {
    pthread_mutex_lock(&g_mutex);
    int n = g_library_count;
    pthread_mutex_unlock(&g_mutex);
    return n;
}

/* The system library's entry points under the header's types (a sqlite3_vfs * is a
** void * there). */
static void *system_vfs_find(const char *name) { return sqlite3_vfs_find(name); }
static int system_vfs_register(void *vfs, int make_default) { return sqlite3_vfs_register(vfs, make_default); }

chaos_sqlite_api chaos_vfs_system_api(void) {
    /* The system library, linked by name: the only place the shim names its functions. */
    chaos_sqlite_api system = { system_vfs_find, system_vfs_register, sqlite3_malloc, sqlite3_free };
    return system;
}

int chaos_vfs_register(int make_default) {
    const chaos_sqlite_api system = chaos_vfs_system_api();
    return chaos_vfs_register_library(&system, make_default);
}

void *chaos_vfs_get(void) {
    pthread_mutex_lock(&g_mutex);
    sqlite3_vfs *v = NULL;
    for (int i = 0; i < g_library_count && !v; i++) {
        if (g_libraries[i].api.vfs_find == system_vfs_find) v = &g_libraries[i].vfs;
    }
    pthread_mutex_unlock(&g_mutex);
    return v;
}

const char *chaos_vfs_errstr(int code) { return sqlite3_errstr(code); }

int chaos_vfs_name_of_connection(void *db, char *name, int size) {
    char *found = NULL;
    int rc = sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_VFSNAME, &found);
    if (rc == SQLITE_OK && found == NULL) rc = SQLITE_NOTFOUND;
    if (rc == SQLITE_OK && size > 0) snprintf(name, (size_t)size, "%s", found);
    sqlite3_free(found);
    return rc;
}

void chaos_vfs_set_hook(chaos_vfs_hook hook, void *context) {
    hook_cell *cell = NULL;
    if (hook) {
        pthread_mutex_lock(&g_mutex);
        for (cell = g_cells; cell; cell = cell->next)
            if (cell->fn == hook && cell->ctx == context) break;
        if (!cell && (cell = malloc(sizeof(*cell))) != NULL) {
            cell->fn = hook;
            cell->ctx = context;
            cell->next = g_cells;
            g_cells = cell;
        }
        pthread_mutex_unlock(&g_mutex);
        if (!cell) return; /* out of memory: leave the previous hook in place */
    }
    atomic_store_explicit(&g_hook, cell, memory_order_release);
}

int chaos_vfs_has_hook(void) { return hook_get() != NULL; }

void chaos_vfs_counters(sqlite3_int64 *opens, sqlite3_int64 *reads, sqlite3_int64 *writes,
                        sqlite3_int64 *syncs) {
    if (opens) *opens = atomic_load_explicit(&g_opens, memory_order_relaxed);
    if (reads) *reads = atomic_load_explicit(&g_reads, memory_order_relaxed);
    if (writes) *writes = atomic_load_explicit(&g_writes, memory_order_relaxed);
    if (syncs) *syncs = atomic_load_explicit(&g_syncs, memory_order_relaxed);
}

int chaos_vfs_take_calls(char *buffer, int capacity) { return chaos_seam_calls_take(&g_calls, buffer, capacity); }

void chaos_vfs_reset_counters(void) {
    atomic_store_explicit(&g_opens, 0, memory_order_relaxed);
    atomic_store_explicit(&g_reads, 0, memory_order_relaxed);
    atomic_store_explicit(&g_writes, 0, memory_order_relaxed);
    atomic_store_explicit(&g_syncs, 0, memory_order_relaxed);
    chaos_seam_calls_reset(&g_calls);
}
