#ifndef CHAOS_VFS_H
#define CHAOS_VFS_H
/*
** CChaosVFS: a pass-through SQLite VFS named "chaos" over "unix", with one
** process-wide hook that may fail any call. Mechanism only; see chaos_vfs.c.
*/
#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The name the shim registers under. */
#define CHAOS_VFS_NAME "chaos"

/*
** The enums have a fixed underlying type (a clang extension in C11) so Swift
** imports their constants as Int32, the type of the hook's parameters.
*/

/* What a file is, from its xOpen flags (bit values, so policy can mask). */
enum : int {
    CHAOS_FILE_MAIN_DB      = 1,
    CHAOS_FILE_MAIN_JOURNAL = 2,
    CHAOS_FILE_WAL          = 4,
    CHAOS_FILE_OTHER        = 8   /* temp db, temp/sub/super journal, transient */
};

/*
** The operation a hook call is about, and what `offset` / `amount` carry.
** Unless noted, a non-zero hook result is returned instead of forwarding.
*/
enum : int {
    CHAOS_OP_OPEN = 1,           /* amount = open flags */
    CHAOS_OP_CLOSE,              /* always forwarded; a non-zero hook result is returned after */
    CHAOS_OP_READ,               /* offset, amount = byte range */
    CHAOS_OP_WRITE,              /* offset, amount = byte range */
    CHAOS_OP_TRUNCATE,           /* offset = new size */
    CHAOS_OP_SYNC,               /* amount = sync flags */
    CHAOS_OP_FILESIZE,
    CHAOS_OP_LOCK,               /* amount = lock level */
    CHAOS_OP_UNLOCK,             /* amount = lock level */
    CHAOS_OP_CHECK_RESERVED_LOCK,
    CHAOS_OP_FILE_CONTROL,       /* amount = SQLITE_FCNTL_* op */
    CHAOS_OP_SECTOR_SIZE,        /* called after forwarding, amount = real answer; non-zero result replaces it */
    CHAOS_OP_DEVICE_CHARACTERISTICS, /* same as SECTOR_SIZE */
    CHAOS_OP_SHM_MAP,            /* offset = region index, amount = region size */
    CHAOS_OP_SHM_LOCK,           /* offset = first slot, amount = slot count */
    CHAOS_OP_SHM_BARRIER,        /* notification only; result ignored */
    CHAOS_OP_SHM_UNMAP,          /* always forwarded, like CLOSE; amount = delete flag */
    CHAOS_OP_FETCH,              /* offset, amount = byte range */
    CHAOS_OP_UNFETCH,            /* always forwarded, like CLOSE; offset = page offset */
    CHAOS_OP_DELETE              /* path = deleted file, kind guessed from its suffix; amount = syncDir */
};

/*
** The hook. Called first by every io method, xOpen and xDelete while set.
** Return 0 to let the call through, or an SQLite result code (e.g. SQLITE_FULL,
** or an extended SQLITE_IOERR_*) to fail it with that code. `path` is NULL for
** anonymous temp files. May be called from any thread, concurrently.
*/
typedef int (*chaos_vfs_hook)(void *context, int op, int file_kind, const char *path,
                              sqlite3_int64 offset, int amount);

/*
** Registers the "chaos" VFS (once; thread-safe). With make_default != 0 it
** becomes the default VFS of connections opened afterwards; a later call with
** make_default != 0 re-registers it as default if something else took over.
** Returns SQLITE_OK, or an SQLite error code (SQLITE_ERROR if "unix" is missing).
*/
int chaos_vfs_register(int make_default);

/* The registered VFS, or NULL before chaos_vfs_register succeeded. */
sqlite3_vfs *chaos_vfs_get(void);

/*
** Sets (or, with hook == NULL, clears) the hook and its context as one unit.
** The context must stay valid until no call can still be inside the old hook.
*/
void chaos_vfs_set_hook(chaos_vfs_hook hook, void *context);

/*
** Process-wide call counters (relaxed atomics): xOpen, xRead, xWrite and xSync
** calls that reached the shim, including those the hook or the real VFS failed.
*/
void chaos_vfs_counters(sqlite3_int64 *opens, sqlite3_int64 *reads,
                        sqlite3_int64 *writes, sqlite3_int64 *syncs);
void chaos_vfs_reset_counters(void);

#ifdef __cplusplus
}
#endif
#endif /* CHAOS_VFS_H */
