#ifndef CHAOS_SEAM_CALLS_H
#define CHAOS_SEAM_CALLS_H
/*
** CSeamCalls: what a seam saw the app do. Each seam (the fault VFS for SQLite's files,
** the libc seam for any file under the data folder) keeps one table of the distinct
** calls it carried out — an operation on a file with its result, an errno or an SQLite
** result code, 0 for success — each with how many times since the worker last took
** them (it takes them with each reply, so the controller knows the step they came in);
** a take empties the table.
** The table is the caller's (state lives in each seam, none here): the libc seam is a
** preloaded library that holds a copy of this code beside the worker's own.
**
** Noting never waits long: a call may come from any thread, or a crash handler, so the
** table's lock is tried a bounded number of times; a call that never gets it, or finds
** the table full, is counted as dropped, and the worker says how many.
*/
#include <stdatomic.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Distinct (operation, file, result) a table holds; a file's path, bytes at most. */
#define CHAOS_SEAM_CALLS_MAX 64
#define CHAOS_SEAM_CALLS_PATH 512

typedef struct chaos_seam_call {
    int op;          /* the seam's own operation code (CHAOS_OP_*, CHAOS_LIBC_OP_*) */
    int result;      /* 0, an errno (libc) or an SQLite result code (VFS) */
    int length;      /* of file, and its last 8 bytes: what tells most paths apart at once */
    uint64_t tail;
    int64_t count;   /* since the last take */
    char file[CHAOS_SEAM_CALLS_PATH];
} chaos_seam_call;

typedef struct chaos_seam_calls {
    atomic_flag busy;
    int used;
    _Atomic int64_t dropped; /* noted without the flag */
    int64_t dropped_told;
    chaos_seam_call entries[CHAOS_SEAM_CALLS_MAX];
} chaos_seam_calls;

/* Counts one call; `file` may be NULL (SQLite's temporary files have no name). */
void chaos_seam_calls_note(chaos_seam_calls *calls, int op, const char *file, int result);

/*
** Writes the calls since the last take as lines "OP RESULT COUNT FILE\n", then
** "dropped N\n" when calls were dropped since then, into buffer (NUL-terminated) and
** forgets them; lines that do not fit stay for the next take. Returns the number of
** lines written.
*/
int chaos_seam_calls_take(chaos_seam_calls *calls, char *buffer, int capacity);

/* Forgets every call: a new scope, a new run. */
void chaos_seam_calls_reset(chaos_seam_calls *calls);

#ifdef __cplusplus
}
#endif
#endif /* CHAOS_SEAM_CALLS_H */
