#ifndef CHAOS_VFS_H
#define CHAOS_VFS_H
/*
** CChaosVFS: a pass-through SQLite VFS named "chaos" over "unix", with one
** process-wide hook that may fail any call. Mechanism only; see chaos_vfs.c.
**
** This header names no type of SQLite's and includes no sqlite3.h: a target that links
** ChaosTarget and compiles a copy of SQLite of its own (sqlite-nio's VaporCSQLite) sees
** one definition of each SQLite type, its copy's, never a second from the system's
** header (clang refused such a pair: "'sqlite3_module' has different definitions in
** different modules"). A `sqlite3_vfs *` is a `void *` here, a `sqlite3_int64` a
** `long long` (what sqlite3.h makes it); the C files include sqlite3.h themselves.
*/

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
    CHAOS_OP_TRUNCATE,           /* offset = new size, amount = 1 if that grows the file, else 0 */
    CHAOS_OP_SYNC,               /* amount = sync flags */
    CHAOS_OP_FILESIZE,
    CHAOS_OP_LOCK,               /* amount = lock level */
    CHAOS_OP_UNLOCK,             /* amount = lock level */
    CHAOS_OP_CHECK_RESERVED_LOCK,
    CHAOS_OP_FILE_CONTROL,       /* amount = SQLITE_FCNTL_* op */
    CHAOS_OP_SECTOR_SIZE,        /* called after forwarding, amount = real answer; non-zero result replaces it */
    CHAOS_OP_DEVICE_CHARACTERISTICS, /* same as SECTOR_SIZE */
    CHAOS_OP_SHM_MAP,            /* offset = region index, amount = region size */
    CHAOS_OP_SHM_LOCK,           /* lock requests only (unlocks are always forwarded);
                                    offset = first slot, amount = slot count. Slot 0 is
                                    the WAL write lock, 1 checkpoint, 2 recover, 3+ readers */
    CHAOS_OP_SHM_BARRIER,        /* notification only; result ignored */
    CHAOS_OP_SHM_UNMAP,          /* always forwarded, like CLOSE; amount = delete flag */
    CHAOS_OP_FETCH,              /* offset, amount = byte range */
    CHAOS_OP_UNFETCH,            /* always forwarded, like CLOSE; offset = page offset */
    CHAOS_OP_DELETE              /* path = deleted file, kind guessed from its suffix; amount = syncDir */
};

/*
** The hook. Called first by every io method, xOpen and xDelete while set.
** Return 0 to let the call through, or an SQLite result code (e.g. SQLITE_FULL,
** or an extended SQLITE_IOERR_*) to fail it with that code. To a READ, the answer
** SQLITE_IOERR_SHORT_READ zero-fills the buffer, as SQLite requires of a short
** read. `path` is NULL for anonymous temp files. May be called from any thread,
** concurrently.
*/
typedef int (*chaos_vfs_hook)(void *context, int op, int file_kind, const char *path,
                              long long offset, int amount);

/*
** Registers the "chaos" VFS (once; thread-safe). With make_default != 0 it
** becomes the default VFS of connections opened afterwards; a later call with
** make_default != 0 re-registers it as default if something else took over.
** Returns SQLITE_OK, or an SQLite error code (SQLITE_ERROR if "unix" is missing).
*/
int chaos_vfs_register(int make_default);

/* The few entry points of one copy of SQLite the shim needs to install itself into it:
** the system library (chaos_vfs_register), or a copy compiled into the app under other
** names (sqlite-nio's sqlite_nio_sqlite3_*, SQLCipher's). The sqlite3_vfs struct is
** the same in every copy; the functions are that copy's own. */
typedef struct chaos_sqlite_api {
    void *(*vfs_find)(const char *name);                 /* returns a sqlite3_vfs * */
    int (*vfs_register)(void *vfs, int make_default);    /* takes a sqlite3_vfs * */
    void *(*malloc)(int size);
    void (*free)(void *pointer);
} chaos_sqlite_api;

/* Installs the shim into the copy of SQLite whose functions `api` holds (its "unix"
** VFS wrapped, as chaos_vfs_register does for the system library). Installing into the
** same copy twice is one installation. SQLITE_OK, or an error code (SQLITE_FULL when
** more copies than the shim keeps were installed). */
int chaos_vfs_register_library(const chaos_sqlite_api *api, int make_default);

/* The address of a function linked into the running executable, by its name in the
** executable's ELF symbol table (statically linked code is not in the dynamic symbol
** table dlsym reads); NULL when there is none, or the executable was stripped. */
void *chaos_linked_symbol(const char *name);

/* The last `PRAGMA synchronous` (0 off … 3 extra) and `PRAGMA journal_mode` (1 wal, 0
** another) the app set on a database through the fault VFS; -1 for one never set. */
void chaos_vfs_store_settings(int *synchronous, int *wal);

/* How many copies of SQLite the shim is installed into. */
int chaos_vfs_library_count(void);

/* The registered VFS (a sqlite3_vfs *), or NULL before chaos_vfs_register succeeded. */
void *chaos_vfs_get(void);

/* The system library's four entry points, as chaos_vfs_register installs into it. */
chaos_sqlite_api chaos_vfs_system_api(void);

/* The system library's words for a result code (sqlite3_errstr). */
const char *chaos_vfs_errstr(int code);

/* The VFS name of connection `db`'s main database (a sqlite3 * of the system library),
** as SQLITE_FCNTL_VFSNAME answers it, copied into `name` (at most `size` bytes with its
** NUL). Returns 0 (SQLITE_OK), or the error code when the connection cannot tell. */
int chaos_vfs_name_of_connection(void *db, char *name, int size);

/*
** Sets (or, with hook == NULL, clears) the hook and its context as one unit.
** The context must stay valid until no call can still be inside the old hook.
*/
void chaos_vfs_set_hook(chaos_vfs_hook hook, void *context);

/* Whether a hook is set now (1) or every call passes straight through (0). */
int chaos_vfs_has_hook(void);

/*
** ---- Power loss: the crash simulator (chaos_powerloss.c explains the model) ----
**
** While enabled, writes and truncates of main database, rollback journal and
** WAL files keep an undo log per path that each xSync of the path clears; a
** crash undoes (per mode) what was not synced, fsyncs, and _exits. It works
** with or without a hook set: the hook is asked first, and a call it fails
** never reaches the log.
*/

/* The exit status of a simulated power loss: distinctive, not a signal's 128+N. */
#define CHAOS_POWER_LOSS_EXIT 86

/* What a crash does with each pending (unsynced) write. */
enum : int {
    CHAOS_POWERLOSS_DROP = 0, /* revert them all: a clean cut losing everything unsynced */
    CHAOS_POWERLOSS_KEEP = 1, /* keep them all: the OS had flushed everything */
    CHAOS_POWERLOSS_TORN = 2  /* per sector, a seeded keep / revert / garble */
};

/*
** Starts (enabled != 0) or stops undo logging. Enabling again only updates the
** sector size and tearing; stopping drops every log and disarms the triggers.
** With torn != 0, tracked files report `sector_size` (a power of two in
** 512...65536, else 512) from xSectorSize and do not advertise
** SQLITE_IOCAP_POWERSAFE_OVERWRITE (nor atomic or sequential writes), so
** SQLite protects itself against torn sectors. Enable before opening the
** databases: SQLite reads those answers when it opens a file.
*/
void chaos_vfs_powerloss_enable(int enabled, int sector_size, int torn);

/*
** Limits tracking (and the tearing answers) to paths starting with
** `path_prefix` (copied), e.g. "/data/dir/"; NULL or "" tracks every path.
*/
void chaos_vfs_powerloss_set_scope(const char *path_prefix);

/*
** Arms the crash triggers, counted from now over tracked files: crash at the
** `at_sync`-th xSync, before it reaches the disk, or right after the
** `after_writes`-th xWrite returned; 0 disables that trigger; whichever comes
** first. `mode` is a CHAOS_POWERLOSS_*; `seed` seeds a TORN crash. Arming again
** replaces both triggers.
*/
void chaos_vfs_powerloss_arm(int at_sync, int after_writes, int mode, unsigned long long seed);

/*
** Crashes now: undoes per `mode` and `seed`, fsyncs, deletes the -shm of each
** tracked database, and ends the process with _exit(CHAOS_POWER_LOSS_EXIT).
** Other threads block for good on their next tracked write or sync.
*/
void chaos_vfs_powerloss_crash(int mode, unsigned long long seed) __attribute__((noreturn));

/*
** Adds an image to take at the `at_sync`-th xSync (before it) or right after the
** `after_writes`-th xWrite (exactly one of them > 0), counted from now as
** chaos_vfs_powerloss_arm counts: the tracked folder (the scope, which must be set)
** is copied into `dir` (outside it) and undone there as a crash in `mode` with `seed`
** would undo it in place. The app goes on. 0, or an errno. Disabling drops them.
*/
int chaos_vfs_powerloss_image_at(int at_sync, int after_writes, int mode, unsigned long long seed, const char *dir);

/* The bytes the images may take in all, from now (-1: no limit, the default): an
** image that would pass it is not taken (a trial run whole instead of a full disk). */
void chaos_vfs_powerloss_image_budget(long long bytes);

/*
** Since enabling: tracked xWrite and xSync calls that reached the disk (or were
** about to), and undo-log entries pending now (across all paths). Any may be NULL.
*/
void chaos_vfs_powerloss_stats(long long *writes, long long *syncs,
                               long long *pending_entries);

/*
** Process-wide call counters (relaxed atomics): xOpen, xRead, xWrite and xSync
** calls that reached the shim, including those the hook or the real VFS failed.
*/
void chaos_vfs_counters(long long *opens, long long *reads,
                        long long *writes, long long *syncs);
void chaos_vfs_reset_counters(void);

/*
** What the shim saw SQLite do to its files since the last take: lines "OP RC COUNT PATH"
** (OP a CHAOS_OP_*: open, read, write, truncate, sync, delete; RC the SQLite result code
** the call answered, SQLITE_OK included), then "dropped N" for calls not kept
** (chaos_seam_calls.h). Returns the number of lines.
*/
int chaos_vfs_take_calls(char *buffer, int capacity);

/*
** Another process of the app on a shared store (chaos_peer.c): opens PATH with the
** plain "unix" VFS and takes its write lock (BEGIN IMMEDIATE, waiting up to 5 s for it);
** with DIRTY, also writes about 512 KiB it never commits, with the cache kept small so
** the pages reach the files (a hot journal, or WAL frames). Returns 0 and the open
** connection in *HANDLE, or the SQLite result code (nothing left open).
*/
int chaos_peer_hold_write(const char *path, int dirty, void **handle);
/* Rolls back and closes what chaos_peer_hold_write opened. */
void chaos_peer_release(void *handle);
/*
** The store opened by a newer version of the app: in one transaction, a table of its own
** (chaos_newer_version), user_version + 1, and a migration of its own in GRDB's
** grdb_migrations when the store has that table. Returns 0 or the SQLite result code.
*/
int chaos_peer_migrate(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* CHAOS_VFS_H */
