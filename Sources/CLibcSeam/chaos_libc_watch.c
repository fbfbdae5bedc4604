/*
** CLibcSeam: what the app did that no fault asked about, for the controller to measure.
**
** Method:
**
**   Two records, kept while a scope is set, read by the worker through the table:
**
**   - Refused calls. A call on a file under the scope that the kernel itself refused
**     with EACCES, EPERM or EROFS (not a fault the hook injected) is counted by op.
**     That is what a read-only fault measures: what the app tried and was refused,
**     never a file's size and time compared afterwards.
**
**   - Folders outside the scope where the app made or wrote files (an open for
**     writing, or with O_CREAT): the first CHAOS_LIBC_OUTSIDE_MAX distinct ones. An
**     app whose faults had no effect because its files live elsewhere (Foundation's
**     documents folder as root ignores HOME) is told where they went. /dev, /proc,
**     /sys and Chaos's own scratch folders (a path component `chaos-` and a digit,
**     as ScratchFolder names them) are not the app's files.
**
**   - Asking whether a file may be written (access, faccessat, euidaccess with W_OK):
**     an app that checks before it writes meets a read-only file there, not at a
**     write. Under the scope it is asked of the hook as an open for writing, and a
**     refusal (the hook's, or the kernel's EACCES/EROFS) is what the app met.
**
**   - The calls under the scope the seam carried out, each distinct operation, file and
**     result (0 or the errno the app was given) with a count (CSeamCalls): what the
**     app did to its files, and what it was told, whatever fault was armed.
**
**   Recording never waits: a call outside the scope may come from a crash handler on
**   a signal stack while another thread holds a lock, so the folder list is taken
**   with a try-lock, and a call that finds it busy is not recorded.
*/
#define _GNU_SOURCE
#include "chaos_libc_internal.h"
#include "chaos_seam_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

static atomic_llong g_refused[CHAOS_LIBC_OP_COUNT];
static pthread_mutex_t g_outside_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_outside[CHAOS_LIBC_OUTSIDE_MAX][PATH_MAX];
static int g_outside_count;

void chaos_libc_note_refused(int op, int failed, int injected, int error) {
    if (!failed || injected || op <= 0 || op >= CHAOS_LIBC_OP_COUNT) return;
    if (error == EACCES || error == EPERM || error == EROFS) atomic_fetch_add(&g_refused[op], 1);
}

/* A path Chaos's own scratch holds: a component that starts "chaos-" and a digit. */
static int in_chaos_scratch(const char *path) {
    for (const char *p = strstr(path, "/chaos-"); p; p = strstr(p + 1, "/chaos-")) {
        if (p[7] >= '0' && p[7] <= '9') return 1;
    }
    return 0;
}

/* The calls under the scope the seam carried out, with their results. */
static chaos_seam_calls g_seen;

void chaos_libc_note_seen(int op, const char *canon, int error) {
    chaos_seam_calls_note(&g_seen, op, canon, error);
}

int chaos_libc_calls(char *buffer, int capacity) { return chaos_seam_calls_take(&g_seen, buffer, capacity); }

void chaos_libc_note_outside(const char *canon, int flags) {
    if ((flags & O_ACCMODE) == O_RDONLY && !(flags & O_CREAT)) return;
    if (!strncmp(canon, "/dev/", 5) || !strncmp(canon, "/proc/", 6) || !strncmp(canon, "/sys/", 5)) return;
    if (in_chaos_scratch(canon)) return;
    char folder[PATH_MAX];
    size_t n = strnlen(canon, PATH_MAX - 1);
    memcpy(folder, canon, n);
    folder[n] = '\0';
    /* O_TMPFILE names the folder itself; any other open names a file in one. */
    if ((flags & O_TMPFILE) != O_TMPFILE) {
        char *slash = strrchr(folder, '/');
        if (slash) slash[slash == folder ? 1 : 0] = '\0';
    }
    if (pthread_mutex_trylock(&g_outside_lock) != 0) return;
    int known = 0;
    for (int i = 0; i < g_outside_count && !known; i++) known = !strcmp(g_outside[i], folder);
    if (!known && g_outside_count < CHAOS_LIBC_OUTSIDE_MAX) {
        memcpy(g_outside[g_outside_count++], folder, strlen(folder) + 1);
    }
    pthread_mutex_unlock(&g_outside_lock);
}

void chaos_libc_watch_reset(void) {
    for (int op = 0; op < CHAOS_LIBC_OP_COUNT; op++) atomic_store(&g_refused[op], 0);
    chaos_seam_calls_reset(&g_seen);
    pthread_mutex_lock(&g_outside_lock);
    g_outside_count = 0;
    pthread_mutex_unlock(&g_outside_lock);
}

void chaos_libc_refused(long long out[CHAOS_LIBC_OP_COUNT]) {
    for (int op = 0; op < CHAOS_LIBC_OP_COUNT; op++) out[op] = atomic_load(&g_refused[op]);
}

int chaos_libc_outside(char *buffer, int capacity) {
    if (capacity <= 0) return 0;
    buffer[0] = '\0';
    pthread_mutex_lock(&g_outside_lock);
    int count = g_outside_count, used = 0;
    for (int i = 0; i < count; i++) {
        size_t n = strlen(g_outside[i]);
        if (used + (int)n + 2 > capacity) break;
        memcpy(buffer + used, g_outside[i], n);
        used += (int)n;
        buffer[used++] = '\n';
        buffer[used] = '\0';
    }
    pthread_mutex_unlock(&g_outside_lock);
    return count;
}

/* ---- asking whether a file may be written -------------------------------- */

typedef int (*real_access)(int dirfd, const char *path, int mode, int flags);

static int seam_access(int dirfd, const char *path, int mode, int flags, real_access real) {
    char canon[PATH_MAX];
    if (!CHAOS_LOOKING() || !path || !(mode & W_OK) || chaos_libc_resolve_at(dirfd, path, canon) != 0 ||
        !chaos_libc_scope_holds(canon))
        return real(dirfd, path, mode, flags);
    chaos_libc_depth++;
    int verdict = chaos_libc_ask(CHAOS_LIBC_OP_OPEN, canon, 0, O_WRONLY);
    int r;
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else {
        r = real(dirfd, path, mode, flags);
    }
    int e = errno;
    chaos_libc_note_refused(CHAOS_LIBC_OP_OPEN, r < 0, verdict > 0, e);
    chaos_libc_depth--;
    errno = e;
    return r;
}

static int real_plain(int dirfd, const char *path, int mode, int flags) { (void)dirfd; (void)flags; return REAL(access)(path, mode); }
static int real_at(int dirfd, const char *path, int mode, int flags) { return REAL(faccessat)(dirfd, path, mode, flags); }
static int real_euid(int dirfd, const char *path, int mode, int flags) { (void)dirfd; (void)flags; return REAL(euidaccess)(path, mode); }

int access(const char *path, int mode) { return seam_access(AT_FDCWD, path, mode, 0, real_plain); }
int faccessat(int dirfd, const char *path, int mode, int flags) { return seam_access(dirfd, path, mode, flags, real_at); }
int euidaccess(const char *path, int mode) { return seam_access(AT_FDCWD, path, mode, 0, real_euid); }
int eaccess(const char *path, int mode) { return seam_access(AT_FDCWD, path, mode, 0, real_euid); }
