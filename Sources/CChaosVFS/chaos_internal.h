#ifndef CHAOS_INTERNAL_H
#define CHAOS_INTERNAL_H
/*
** Shared between the shim (chaos_vfs.c) and the crash simulator
** (chaos_powerloss.c). Not part of the public API.
*/
#include <sqlite3.h>

#include "chaos_vfs.h"

#include <stdatomic.h>

struct pl_path;

/* One copy of SQLite the shim is installed into: its VFS of ours (whose pAppData
** points back here), that copy's "unix" VFS, and its allocator. */
typedef struct chaos_library {
    sqlite3_vfs vfs;
    sqlite3_vfs *real;
    chaos_sqlite_api api;
} chaos_library;

/* One open file of the shim: ours first, the real VFS's own file just after. */
typedef struct chaos_file {
    sqlite3_file base;   /* must be first */
    sqlite3_file *real;  /* points just past this struct, inside the same allocation */
    char *path;          /* full path (the copy's malloc), NULL for anonymous temp files */
    const chaos_library *lib; /* the copy of SQLite that opened it */
    int kind;            /* CHAOS_FILE_* */
    struct pl_path *pl;  /* the power-loss record of `path`, cached; records are never freed */
} chaos_file;

/* The file kinds whose writes the crash simulator tracks. */
#define CHAOS_PL_KINDS (CHAOS_FILE_MAIN_DB | CHAOS_FILE_MAIN_JOURNAL | CHAOS_FILE_WAL)

/* Non-zero while undo logging is on: the shim's one relaxed load on the fast path. */
extern atomic_int chaos_pl_active;

static inline int chaos_pl_tracks(const chaos_file *p) {
    return atomic_load_explicit(&chaos_pl_active, memory_order_relaxed) && p->path &&
           (p->kind & CHAOS_PL_KINDS);
}

/*
** Called by the shim, instead of forwarding, for files chaos_pl_tracks()
** accepts (after the hook let the call through). Each performs the real call.
*/
int chaos_pl_write(chaos_file *p, const void *buf, int amt, sqlite3_int64 off);
int chaos_pl_truncate(chaos_file *p, sqlite3_int64 size);
int chaos_pl_sync(chaos_file *p, int flags);
/* After a successful xDelete of `path` (any kind; a no-op for untracked paths). */
void chaos_pl_deleted(const char *path);
/* What to advertise, given the real VFS's answer (tearing changes it). */
int chaos_pl_sector_size(const chaos_file *p, int real_answer);
int chaos_pl_device_characteristics(const chaos_file *p, int real_answer);

/* Copies the folder `from` into `to` (made if missing): files, folders, links
** (chaos_tree_copy.c). 0, or -1 with errno set. */
int chaos_tree_copy(const char *from, const char *to);
/* The bytes of the regular files under `root`, its folders walked (not links). */
long long chaos_tree_size(const char *root);

#endif /* CHAOS_INTERNAL_H */
