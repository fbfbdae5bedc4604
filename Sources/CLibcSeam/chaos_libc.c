/*
** CLibcSeam: storage faults for any file, at libc, in a preloaded library.
**
** Method:
**
**   Preloaded (LD_PRELOAD) into a worker, this library defines open, read, write,
**   fsync, ftruncate, rename, unlink and their relatives (openat, pread, pwrite,
**   writev, fdatasync, renameat, unlinkat, the 64-bit names, mkstemp...), so every
**   call the app makes through the dynamic libc reaches it first, whatever the stack:
**   Foundation, a JSON encoder, a copy of SQLite compiled into the app. Each forwards
**   to the real function (dlsym RTLD_NEXT).
**
**   Off (no scope set), a call costs one relaxed atomic load more than the bare call.
**   On, a call is looked at only if its file is under the scope (the app's data
**   folder): path calls compare the canonical path; fd calls read a per-fd slot
**   that says "outside" after the first look (the path comes from /proc/self/fd
**   once, and close, dup2, fclose, closedir forget it). Calls on a file under the
**   scope are counted, then the hook (the Swift policy, Seams/Libc) says what the
**   call does: go through, fail with an errno, or read short. While tracking is on
**   (power loss), changes go through the crash simulator (chaos_libc_powerloss.c).
**
**   The calls, by the operation the hook is asked (chaos_libc_seam.h), so a policy
**   written for the seven operations sees every way a file is changed:
**     OPEN      open, openat, creat (and 64), mkstemp..., fopen/fdopen/freopen
**               (chaos_libc_stdio.c); O_TMPFILE: the path is the folder, the fd's
**               slot its unnamed file
**     READ      read, pread; the source of copy_file_range and sendfile
**     WRITE     write, pwrite, writev, pwritev(2), stdio's buffer as it reaches the
**               file; the destination of copy_file_range and sendfile
**     SYNC      fsync, fdatasync, sync_file_range and msync (chaos_libc_calls.c
**               says which of them are durable)
**     TRUNCATE  ftruncate, truncate, fallocate, posix_fallocate
**     RENAME    rename, renameat, renameat2 (exchange too); link, linkat (amount
**               1): a new name, AT_EMPTY_PATH and /proc/self/fd/N alike
**     DELETE    unlink, unlinkat, rmdir, remove(3) (amount 1 for a folder)
**   remove(3) is wrapped itself: glibc unlinks inside libc, past the PLT.
**
**   The seam never acts on itself: a thread-local depth counter sends the hook's own
**   I/O, the simulator's and a crash's straight to libc.
**
**   Not seen: calls glibc makes to itself that no entry point here stands for (a
**   freopen'd stream's writes; mkstemp's open is seen as mkstemp), raw syscalls,
**   writes through mmap, and executables linked statically against libc. The
**   worker says when the seam is not loaded.
*/
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include "chaos_libc_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

chaos_real chaos_real_fn;
__thread int chaos_libc_depth __attribute__((tls_model("initial-exec")));

#define FIND(f) \
    if (!chaos_real_fn.f) chaos_real_fn.f = (__typeof__(chaos_real_fn.f))dlsym(RTLD_NEXT, #f)

void chaos_libc_resolve(void) {
    FIND(openat); FIND(read); FIND(pread); FIND(write); FIND(pwrite); FIND(writev);
    FIND(fsync); FIND(fdatasync); FIND(ftruncate); FIND(renameat2); FIND(renameat);
    FIND(unlinkat); FIND(linkat); FIND(close); FIND(dup2); FIND(dup3); FIND(fclose);
    FIND(closedir); FIND(mkstemp); FIND(mkostemp); FIND(mkstemps); FIND(mkostemps);
    FIND(sync); FIND(syncfs); FIND(remove);
    FIND(pwritev); FIND(pwritev2); FIND(fallocate); FIND(posix_fallocate); FIND(truncate);
    FIND(copy_file_range); FIND(sendfile); FIND(sync_file_range); FIND(msync);
    FIND(statfs); FIND(fstatfs); FIND(statvfs); FIND(fstatvfs);
    FIND(fopen); FIND(freopen); FIND(fdopen); FIND(access); FIND(faccessat); FIND(euidaccess);
}

__attribute__((constructor)) static void chaos_libc_init(void) { chaos_libc_resolve(); }

/* ---- scope and fd slots ------------------------------------------------ */

#define FD_SLOTS 4096
#define GEN_MASK 0x3fffffffu
enum { SLOT_UNKNOWN = 0, SLOT_OUT = 1, SLOT_IN = 2 };

atomic_int chaos_libc_active;               /* a scope is set */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* slot paths, scope changes */
/* Canonical, ending "/". Read without a lock: a call on a file outside the scope
 * must never wait, for it may come from a crash handler on a signal stack while
 * another thread, stopped, holds a lock. A replaced scope is kept, never freed
 * (a worker sets one or two in its life). */
static _Atomic(const char *) g_scope;
static _Atomic(chaos_libc_hook) g_hook;
static atomic_int g_disk_full;              /* the hook's last answer to a write or growth was ENOSPC */
static _Atomic long long g_reported_free = -1; /* bytes statfs reports free under the scope; -1: the real figures */
static atomic_llong g_counts[CHAOS_LIBC_OP_COUNT];
static _Atomic uint32_t g_slot[FD_SLOTS];   /* (generation << 2) | SLOT_* */
static char *g_slot_path[FD_SLOTS];         /* for SLOT_IN; guarded by g_lock */
static atomic_uint g_generation = 1;        /* a new scope forgets every slot */

#define LOOKING() CHAOS_LOOKING()

static inline uint32_t generation(void) {
    return atomic_load_explicit(&g_generation, memory_order_relaxed) & GEN_MASK;
}

static int first_look(int fd);

/* Whether a call on fd may be on a file under the scope (the fast path). */
static inline int looks_at(int fd) {
    if (!LOOKING() || fd < 0) return 0;
    if (fd >= FD_SLOTS) return 1;
    uint32_t v = atomic_load_explicit(&g_slot[fd], memory_order_relaxed);
    if ((v >> 2) == generation() && (v & 3) != SLOT_UNKNOWN) return (v & 3) == SLOT_IN;
    return first_look(fd);
}

/* An fd not seen before: is its file under the scope? Decided on a small stack,
 * with no lock, no allocation and no printf: the first calls on a descriptor may
 * come from a crash handler on its signal stack, or from the Swift runtime's
 * memory-server thread while the process dies (a few KiB of stack). A path
 * longer than the buffer only needs its first bytes to be told out of scope;
 * an fd under the scope goes on to the full look (fd_in_scope). */
static __attribute__((noinline)) int first_look(int fd) {
    const char *scope = atomic_load(&g_scope);
    if (!scope) return 0;
    size_t len = strlen(scope); /* ends with '/' */
    char target[384];
    if (len > sizeof target) return 1;
    char link[32] = "/proc/self/fd/";
    char digits[12];
    int count = 0;
    for (unsigned value = (unsigned)fd; count == 0 || value > 0; value /= 10) digits[count++] = (char)('0' + value % 10);
    for (int i = 0; i < count; i++) link[14 + i] = digits[count - 1 - i];
    link[14 + count] = '\0';
    ssize_t n = readlink(link, target, sizeof target);
    if (n <= 0) return 0; /* not open: the call fails as it would */
    int in = (size_t)n >= len - 1 && memcmp(target, scope, len - 1) == 0 && ((size_t)n == len - 1 || target[len - 1] == '/');
    if (in) return 1;
    uint32_t old = atomic_load(&g_slot[fd]);
    if ((old & 3) != SLOT_IN) atomic_compare_exchange_strong(&g_slot[fd], &old, (generation() << 2) | (uint32_t)SLOT_OUT);
    return 0;
}

static int scope_holds(const char *canon) {
    const char *scope = atomic_load(&g_scope);
    if (!scope) return 0;
    size_t len = strlen(scope);
    /* The folder itself ("/data") or anything under it ("/data/x"). */
    return strncmp(canon, scope, len - 1) == 0 && (canon[len - 1] == '/' || canon[len - 1] == '\0');
}

int chaos_libc_fd_path(int fd, char out[PATH_MAX]) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, PATH_MAX - 1);
    if (n <= 0) return -1;
    out[n] = '\0';
    static const char deleted[] = " (deleted)";
    size_t k = sizeof deleted - 1;
    if ((size_t)n > k && strcmp(out + n - k, deleted) == 0) out[n - k] = '\0';
    return 0;
}

/* Kernel file systems: never under a scope, and opened by code that must not
 * be slowed or disturbed (the Swift runtime's crash handler opens
 * /proc/self/task on its signal stack, where a path walk overflows). Not
 * /dev/shm, a tmpfs where trials keep their data. */
static int kernel_path(const char *path) {
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/sys/", 5) == 0 ||
           (strncmp(path, "/dev/", 5) == 0 && strncmp(path, "/dev/shm/", 9) != 0);
}

/* `path` (relative to dirfd) as an absolute path whose folder is canonical.
 * Keeps its stack small (two path buffers, `out` doubling as scratch): it
 * runs inside any open in the process, signal handlers' included. */
static int resolve_at(int dirfd, const char *path, char out[PATH_MAX]) {
    if (kernel_path(path)) return -1;
    char joined[PATH_MAX];
    if (path[0] == '/') {
        if (strlen(path) >= PATH_MAX) return -1;
        strcpy(joined, path);
    } else {
        if (dirfd == AT_FDCWD) {
            if (!getcwd(out, PATH_MAX)) return -1;
        } else if (chaos_libc_fd_path(dirfd, out) != 0) {
            return -1;
        }
        if (snprintf(joined, sizeof joined, "%s/%s", out, path) >= PATH_MAX) return -1;
    }
    size_t len = strlen(joined);
    while (len > 1 && joined[len - 1] == '/') joined[--len] = '\0';
    char *slash = strrchr(joined, '/');
    const char *name = slash + 1;
    int root = slash == joined;
    *slash = '\0';
    if (!realpath(root ? "/" : joined, out)) {
        *slash = '/';
        strcpy(out, joined); /* the folder does not exist (yet): as given */
        return 0;
    }
    if (*name == '\0' || strcmp(name, ".") == 0) return 0;
    size_t at = strcmp(out, "/") == 0 ? 0 : strlen(out);
    if (at + 1 + strlen(name) >= PATH_MAX) return -1;
    out[at] = '/';
    strcpy(out + at + 1, name);
    return 0;
}

/* Remembers what fd is: under the scope (canon) or not (NULL). An fd outside
 * the scope whose slot held no path is noted without a lock or an allocation. */
static void note_slot(int fd, const char *canon) {
    if (fd < 0 || fd >= FD_SLOTS) return;
    if (!canon) {
        uint32_t old = atomic_load(&g_slot[fd]);
        if ((old & 3) != SLOT_IN &&
            atomic_compare_exchange_strong(&g_slot[fd], &old, (generation() << 2) | (uint32_t)SLOT_OUT)) return;
    }
    char *copy = canon ? strdup(canon) : NULL;
    pthread_mutex_lock(&g_lock);
    free(g_slot_path[fd]);
    g_slot_path[fd] = copy;
    atomic_store(&g_slot[fd], (generation() << 2) | (uint32_t)(copy ? SLOT_IN : SLOT_OUT));
    pthread_mutex_unlock(&g_lock);
}

/* Forgets fd, which is being closed (or replaced by dup2). */
static void forget_slot(int fd) {
    if (fd < 0 || fd >= FD_SLOTS || !atomic_load_explicit(&chaos_libc_active, memory_order_relaxed)) return;
    uint32_t v = atomic_load_explicit(&g_slot[fd], memory_order_relaxed);
    if (v == 0) return;
    if ((v & 3) != SLOT_IN) {
        atomic_store(&g_slot[fd], 0);
        return;
    }
    pthread_mutex_lock(&g_lock);
    free(g_slot_path[fd]);
    g_slot_path[fd] = NULL;
    atomic_store(&g_slot[fd], 0);
    pthread_mutex_unlock(&g_lock);
}

/* Whether fd's file is under the scope; its canonical path in `path` if so. */
static int fd_in_scope(int fd, char path[PATH_MAX]) {
    if (fd < FD_SLOTS) {
        uint32_t seen = atomic_load(&g_slot[fd]);
        if ((seen >> 2) == generation() && (seen & 3) == SLOT_OUT) return 0;
        pthread_mutex_lock(&g_lock);
        uint32_t v = atomic_load(&g_slot[fd]);
        int known = (v >> 2) == generation() && (v & 3) != SLOT_UNKNOWN;
        int in = known && (v & 3) == SLOT_IN && g_slot_path[fd];
        if (in) strcpy(path, g_slot_path[fd]);
        pthread_mutex_unlock(&g_lock);
        if (known) return in;
    }
    char resolved[PATH_MAX];
    int in = chaos_libc_fd_path(fd, resolved) == 0 && scope_holds(resolved);
    if (in) strcpy(path, resolved);
    note_slot(fd, in ? resolved : NULL);
    return in;
}

/* A file under the scope was renamed: its open fds now name the new path (an
 * exchange: and the other file's fds the old one). */
static void rename_slots(const char *from, const char *to, int exchange) {
    pthread_mutex_lock(&g_lock);
    for (int fd = 0; fd < FD_SLOTS; fd++) {
        const char *now = !g_slot_path[fd] ? NULL : strcmp(g_slot_path[fd], from) == 0 ? to
                        : exchange && strcmp(g_slot_path[fd], to) == 0 ? from : NULL;
        if (now) {
            char *copy = strdup(now);
            if (copy) {
                free(g_slot_path[fd]);
                g_slot_path[fd] = copy;
            }
        }
    }
    pthread_mutex_unlock(&g_lock);
}

/* Counts the call and asks the hook; errno is left as it was. Remembers whether the
 * last write or growth was refused as a full disk refuses it (statfs says so). */
static int ask(int op, const char *path, long long offset, long long amount) {
    atomic_fetch_add_explicit(&g_counts[op], 1, memory_order_relaxed);
    chaos_libc_hook hook = atomic_load(&g_hook);
    int verdict = 0;
    if (hook) {
        int saved = errno;
        verdict = hook(op, path, offset, amount);
        errno = saved;
    }
    if (op == CHAOS_LIBC_OP_WRITE || (op == CHAOS_LIBC_OP_TRUNCATE && amount != 0))
        atomic_store_explicit(&g_disk_full, verdict == ENOSPC, memory_order_relaxed);
    return verdict;
}

/* The common part, for the other interposer files (chaos_libc_internal.h). */
int chaos_libc_looks_at(int fd) { return looks_at(fd); }
int chaos_libc_fd_in_scope(int fd, char path[PATH_MAX]) { return fd_in_scope(fd, path); }
int chaos_libc_resolve_at(int dirfd, const char *path, char out[PATH_MAX]) { return resolve_at(dirfd, path, out); }
int chaos_libc_scope_holds(const char *canon) { return scope_holds(canon); }
int chaos_libc_ask(int op, const char *path, long long offset, long long amount) { return ask(op, path, offset, amount); }
int chaos_libc_disk_full(void) { return atomic_load_explicit(&g_disk_full, memory_order_relaxed); }
long long chaos_libc_reported_free(void) { return atomic_load_explicit(&g_reported_free, memory_order_relaxed); }

static inline int tracking(void) { return atomic_load_explicit(&chaos_lpl_active, memory_order_relaxed); }

/* ---- open -------------------------------------------------------------- */

static int seam_openat(int dirfd, const char *path, int flags, mode_t mode) {
    if (!LOOKING() || !path) return REAL(openat)(dirfd, path, flags, mode);
    char canon[PATH_MAX];
    int resolved = resolve_at(dirfd, path, canon) == 0;
    if (!resolved || !scope_holds(canon)) {
        int fd = REAL(openat)(dirfd, path, flags, mode);
        int e = errno;
        if (fd >= 0) note_slot(fd, NULL);
        if (fd >= 0 && resolved) chaos_libc_note_outside(canon, flags);
        errno = e;
        return fd;
    }
    chaos_libc_depth++;
    int verdict = ask(CHAOS_LIBC_OP_OPEN, canon, 0, flags);
    int fd;
    if (verdict > 0) {
        fd = -1;
        errno = verdict;
    } else {
        fd = tracking() ? chaos_lpl_open(dirfd, path, canon, flags, mode) : REAL(openat)(dirfd, path, flags, mode);
    }
    int e = errno;
    chaos_libc_note_refused(CHAOS_LIBC_OP_OPEN, fd < 0, verdict > 0, e);
    chaos_libc_note_seen(CHAOS_LIBC_OP_OPEN, canon, fd < 0 ? e : 0);
    /* O_TMPFILE: canon is the folder; the file is "#inode" in it, with no name yet. */
    if (fd >= 0 && (flags & O_TMPFILE) == O_TMPFILE) chaos_libc_fd_path(fd, canon);
    if (fd >= 0) note_slot(fd, canon);
    chaos_libc_depth--;
    errno = e;
    return fd;
}

int chaos_libc_openat(int dirfd, const char *path, int flags, mode_t mode) { return seam_openat(dirfd, path, flags, mode); }

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, unsigned int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return seam_openat(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return seam_openat(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return seam_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return seam_openat(dirfd, path, flags, mode);
}

/* The fortified entries (_FORTIFY_SOURCE builds call these when no mode is given). */
int __open_2(const char *path, int flags) { return seam_openat(AT_FDCWD, path, flags, 0); }
int __open64_2(const char *path, int flags) { return seam_openat(AT_FDCWD, path, flags, 0); }
int __openat_2(int dirfd, const char *path, int flags) { return seam_openat(dirfd, path, flags, 0); }
int __openat64_2(int dirfd, const char *path, int flags) { return seam_openat(dirfd, path, flags, 0); }

int creat(const char *path, mode_t mode) { return seam_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return seam_openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

/* mkstemp and its relatives create the file themselves, inside glibc. */
enum { MK_STEMP, MK_OSTEMP, MK_STEMPS, MK_OSTEMPS };

static int real_mkstemp(int which, char *template, int flags, int suffix) {
    switch (which) {
    case MK_OSTEMP: return REAL(mkostemp)(template, flags);
    case MK_STEMPS: return REAL(mkstemps)(template, suffix);
    case MK_OSTEMPS: return REAL(mkostemps)(template, suffix, flags);
    default: return REAL(mkstemp)(template);
    }
}

static int seam_mkstemp(int which, char *template, int flags, int suffix) {
    char canon[PATH_MAX];
    if (!LOOKING() || !template || resolve_at(AT_FDCWD, template, canon) != 0 || !scope_holds(canon)) {
        int fd = real_mkstemp(which, template, flags, suffix);
        int e = errno;
        if (fd >= 0 && atomic_load_explicit(&chaos_libc_active, memory_order_relaxed)) note_slot(fd, NULL);
        errno = e;
        return fd;
    }
    chaos_libc_depth++;
    int verdict = ask(CHAOS_LIBC_OP_OPEN, canon, 0, O_CREAT | O_EXCL | O_RDWR | flags);
    int fd = -1;
    if (verdict > 0) {
        errno = verdict;
    } else {
        fd = real_mkstemp(which, template, flags, suffix);
        int e = errno;
        if (fd >= 0 && resolve_at(AT_FDCWD, template, canon) == 0) {
            note_slot(fd, canon);
            if (tracking()) chaos_lpl_created(canon, fd);
        }
        errno = e;
    }
    int e = errno;
    chaos_libc_note_seen(CHAOS_LIBC_OP_OPEN, canon, fd < 0 ? e : 0);
    chaos_libc_depth--;
    errno = e;
    return fd;
}

int mkstemp(char *template) { return seam_mkstemp(MK_STEMP, template, 0, 0); }
int mkstemp64(char *template) { return seam_mkstemp(MK_STEMP, template, 0, 0); }
int mkostemp(char *template, int flags) { return seam_mkstemp(MK_OSTEMP, template, flags, 0); }
int mkostemp64(char *template, int flags) { return seam_mkstemp(MK_OSTEMP, template, flags, 0); }
int mkstemps(char *template, int suffix) { return seam_mkstemp(MK_STEMPS, template, 0, suffix); }
int mkstemps64(char *template, int suffix) { return seam_mkstemp(MK_STEMPS, template, 0, suffix); }
int mkostemps(char *template, int suffix, int flags) { return seam_mkstemp(MK_OSTEMPS, template, flags, suffix); }
int mkostemps64(char *template, int suffix, int flags) { return seam_mkstemp(MK_OSTEMPS, template, flags, suffix); }

/* ---- read -------------------------------------------------------------- */

static ssize_t seam_read(int fd, void *buf, size_t n, off_t off) {
    char path[PATH_MAX];
    chaos_libc_depth++;
    ssize_t r;
    if (!fd_in_scope(fd, path)) {
        r = off < 0 ? REAL(read)(fd, buf, n) : REAL(pread)(fd, buf, n, off);
    } else {
        int verdict = ask(CHAOS_LIBC_OP_READ, path, off, (long long)n);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else {
            r = off < 0 ? REAL(read)(fd, buf, n) : REAL(pread)(fd, buf, n, off);
            if (verdict == CHAOS_LIBC_SHORT && r > 1) { /* half of what was there; the rest is read next */
                ssize_t kept = r / 2;
                if (off < 0) lseek(fd, (off_t)(kept - r), SEEK_CUR);
                r = kept;
            }
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_READ, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

ssize_t read(int fd, void *buf, size_t n) {
    return looks_at(fd) ? seam_read(fd, buf, n, -1) : REAL(read)(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) {
    return looks_at(fd) && off >= 0 ? seam_read(fd, buf, n, off) : REAL(pread)(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off) {
    return looks_at(fd) && off >= 0 ? seam_read(fd, buf, n, off) : REAL(pread)(fd, buf, n, off);
}

/* ---- write ------------------------------------------------------------- */

ssize_t chaos_libc_real_write(int fd, const chaos_write *w) {
    if (w->rwf >= 0) {
        if (!REAL(pwritev2)) {
            errno = ENOSYS;
            return -1;
        }
        return REAL(pwritev2)(fd, w->iov, w->iovcnt, (off_t)w->off, w->rwf);
    }
    if (w->iov) return w->off < 0 ? REAL(writev)(fd, w->iov, w->iovcnt) : REAL(pwritev)(fd, w->iov, w->iovcnt, (off_t)w->off);
    return w->off < 0 ? REAL(write)(fd, w->buf, w->n) : REAL(pwrite)(fd, w->buf, w->n, (off_t)w->off);
}

static ssize_t perform_write(int fd, void *w) { return chaos_libc_real_write(fd, w); }

ssize_t chaos_libc_write(int fd, const chaos_write *w) {
    char path[PATH_MAX];
    chaos_libc_depth++;
    ssize_t r;
    if (!fd_in_scope(fd, path)) {
        r = chaos_libc_real_write(fd, w);
    } else {
        size_t total = w->n;
        if (w->iov) {
            total = 0;
            for (int i = 0; i < w->iovcnt; i++) total += w->iov[i].iov_len;
        }
        int verdict = ask(CHAOS_LIBC_OP_WRITE, path, w->off, (long long)total);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else if (tracking()) {
            int rwf = w->rwf > 0 ? w->rwf : 0;
            r = chaos_lpl_write(fd, w->off, (int64_t)total, (rwf & RWF_APPEND) != 0, (rwf & (RWF_DSYNC | RWF_SYNC)) != 0,
                                perform_write, (void *)w);
        } else {
            r = chaos_libc_real_write(fd, w);
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_WRITE, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

ssize_t write(int fd, const void *buf, size_t n) {
    return looks_at(fd) ? chaos_libc_write(fd, &(chaos_write){buf, n, NULL, 0, -1, -1}) : REAL(write)(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    return looks_at(fd) && off >= 0 ? chaos_libc_write(fd, &(chaos_write){buf, n, NULL, 0, off, -1}) : REAL(pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    return looks_at(fd) && off >= 0 ? chaos_libc_write(fd, &(chaos_write){buf, n, NULL, 0, off, -1}) : REAL(pwrite)(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    return looks_at(fd) && iov && iovcnt >= 0 ? chaos_libc_write(fd, &(chaos_write){NULL, 0, iov, iovcnt, -1, -1})
                                              : REAL(writev)(fd, iov, iovcnt);
}

/* ---- sync, truncate ---------------------------------------------------- */

static int seam_sync(int fd, int data_only) {
    char path[PATH_MAX];
    chaos_libc_depth++;
    int r;
    if (!fd_in_scope(fd, path)) {
        r = data_only ? REAL(fdatasync)(fd) : REAL(fsync)(fd);
    } else {
        struct stat st;
        int folder = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        int verdict = ask(CHAOS_LIBC_OP_SYNC, path, 0, folder);
        if (verdict > 0) {
            if (tracking()) chaos_lpl_sync_failed(fd);
            errno = verdict;
            r = -1;
        } else {
            r = tracking() ? chaos_lpl_sync(fd) : data_only ? REAL(fdatasync)(fd) : REAL(fsync)(fd);
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_SYNC, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

int fsync(int fd) { return looks_at(fd) ? seam_sync(fd, 0) : REAL(fsync)(fd); }
int fdatasync(int fd) { return looks_at(fd) ? seam_sync(fd, 1) : REAL(fdatasync)(fd); }

static int seam_truncate(int fd, off_t size) {
    char path[PATH_MAX];
    chaos_libc_depth++;
    int r;
    if (!fd_in_scope(fd, path)) {
        r = REAL(ftruncate)(fd, size);
    } else {
        struct stat st;
        int grows = fstat(fd, &st) == 0 && size > st.st_size;
        int verdict = ask(CHAOS_LIBC_OP_TRUNCATE, path, size, grows);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else {
            r = tracking() ? chaos_lpl_truncate(fd, size) : REAL(ftruncate)(fd, size);
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_TRUNCATE, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

int ftruncate(int fd, off_t size) { return looks_at(fd) ? seam_truncate(fd, size) : REAL(ftruncate)(fd, size); }
int ftruncate64(int fd, off_t size) { return looks_at(fd) ? seam_truncate(fd, size) : REAL(ftruncate)(fd, size); }

void sync(void) {
    if (LOOKING() && tracking()) {
        chaos_libc_depth++;
        chaos_lpl_sync_all();
        chaos_libc_depth--;
        return;
    }
    REAL(sync)();
}

int syncfs(int fd) {
    if (LOOKING() && tracking()) {
        chaos_libc_depth++;
        chaos_lpl_sync_all();
        chaos_libc_depth--;
        return 0;
    }
    return REAL(syncfs)(fd);
}

/* ---- directory entries ------------------------------------------------- */

static int real_rename(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return flags ? REAL(renameat2)(olddirfd, oldpath, newdirfd, newpath, flags)
                 : REAL(renameat)(olddirfd, oldpath, newdirfd, newpath);
}

static int seam_rename(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    char from[PATH_MAX], to[PATH_MAX];
    if (!LOOKING() || !oldpath || !newpath || resolve_at(olddirfd, oldpath, from) != 0 ||
        resolve_at(newdirfd, newpath, to) != 0 || !(scope_holds(from) || scope_holds(to))) {
        return real_rename(olddirfd, oldpath, newdirfd, newpath, flags);
    }
    chaos_libc_depth++;
    int r;
    int verdict = ask(CHAOS_LIBC_OP_RENAME, to, 0, 0);
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else if (tracking()) {
        r = chaos_lpl_rename(olddirfd, oldpath, from, newdirfd, newpath, to, flags);
    } else {
        r = real_rename(olddirfd, oldpath, newdirfd, newpath, flags);
    }
    int e = errno;
    chaos_libc_note_refused(CHAOS_LIBC_OP_RENAME, r < 0, verdict > 0, e);
    chaos_libc_note_seen(CHAOS_LIBC_OP_RENAME, to, r < 0 ? e : 0);
    if (r == 0) rename_slots(from, to, (flags & RENAME_EXCHANGE) != 0);
    chaos_libc_depth--;
    errno = e;
    return r;
}

int rename(const char *oldpath, const char *newpath) { return seam_rename(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0); }
int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return seam_rename(olddirfd, oldpath, newdirfd, newpath, 0);
}
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return seam_rename(olddirfd, oldpath, newdirfd, newpath, flags);
}

/* unlink, unlinkat (AT_REMOVEDIR: a folder), rmdir and remove(3), which glibc
 * carries out inside itself (unlink, then rmdir on EISDIR): each is one DELETE,
 * amount 1 for a folder. Folders are not tracked (their removal is durable). */
enum { RM_FILE, RM_FOLDER, RM_EITHER };

static int real_remove(int dirfd, const char *path, int how) {
    if (how == RM_EITHER) return REAL(remove)(path); /* remove(3) takes no dirfd: AT_FDCWD */
    return REAL(unlinkat)(dirfd, path, how == RM_FOLDER ? AT_REMOVEDIR : 0);
}

static int seam_unlink(int dirfd, const char *path, int how) {
    char canon[PATH_MAX];
    if (!LOOKING() || !path || resolve_at(dirfd, path, canon) != 0 || !scope_holds(canon)) return real_remove(dirfd, path, how);
    chaos_libc_depth++;
    struct stat st;
    int folder = how == RM_FOLDER || (how == RM_EITHER && lstat(canon, &st) == 0 && S_ISDIR(st.st_mode));
    int r;
    int verdict = ask(CHAOS_LIBC_OP_DELETE, canon, 0, folder);
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else if (folder) {
        r = REAL(unlinkat)(dirfd, path, AT_REMOVEDIR);
    } else {
        r = tracking() ? chaos_lpl_unlink(dirfd, path, canon, 0) : REAL(unlinkat)(dirfd, path, 0);
        if (r != 0 && errno == EISDIR && how == RM_EITHER) r = REAL(unlinkat)(dirfd, path, AT_REMOVEDIR);
    }
    int e = errno;
    chaos_libc_note_refused(CHAOS_LIBC_OP_DELETE, r < 0, verdict > 0, e);
    chaos_libc_note_seen(CHAOS_LIBC_OP_DELETE, canon, r < 0 ? e : 0);
    chaos_libc_depth--;
    errno = e;
    return r;
}

int unlink(const char *path) { return seam_unlink(AT_FDCWD, path, RM_FILE); }
int unlinkat(int dirfd, const char *path, int flags) {
    if (flags & ~AT_REMOVEDIR) return REAL(unlinkat)(dirfd, path, flags); /* EINVAL, as the kernel says */
    return seam_unlink(dirfd, path, flags & AT_REMOVEDIR ? RM_FOLDER : RM_FILE);
}
int rmdir(const char *path) { return seam_unlink(AT_FDCWD, path, RM_FOLDER); }
int remove(const char *path) { return seam_unlink(AT_FDCWD, path, RM_EITHER); }

/* link, linkat (AT_EMPTY_PATH, or /proc/self/fd/N with AT_SYMLINK_FOLLOW: an
 * O_TMPFILE file given its first name): a new name, asked as a RENAME to it
 * (amount 1: a link), as a rename is the other way to make a name. */
static int seam_link(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags) {
    char to[PATH_MAX];
    if (!LOOKING() || !oldpath || !newpath || resolve_at(newdirfd, newpath, to) != 0 || !scope_holds(to)) {
        return REAL(linkat)(olddirfd, oldpath, newdirfd, newpath, flags);
    }
    chaos_libc_depth++;
    int r;
    int verdict = ask(CHAOS_LIBC_OP_RENAME, to, 0, 1);
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else {
        r = tracking() ? chaos_lpl_link(olddirfd, oldpath, newdirfd, newpath, to, flags)
                       : REAL(linkat)(olddirfd, oldpath, newdirfd, newpath, flags);
    }
    int e = errno;
    chaos_libc_note_refused(CHAOS_LIBC_OP_RENAME, r < 0, verdict > 0, e);
    chaos_libc_note_seen(CHAOS_LIBC_OP_RENAME, to, r < 0 ? e : 0);
    chaos_libc_depth--;
    errno = e;
    return r;
}

int link(const char *oldpath, const char *newpath) { return seam_link(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0); }
int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags) {
    return seam_link(olddirfd, oldpath, newdirfd, newpath, flags);
}

/* ---- closing: the fd's slot is forgotten ------------------------------- */

int close(int fd) {
    forget_slot(fd);
    return REAL(close)(fd);
}

int dup2(int oldfd, int newfd) {
    forget_slot(newfd);
    return REAL(dup2)(oldfd, newfd);
}

int dup3(int oldfd, int newfd, int flags) {
    forget_slot(newfd);
    return REAL(dup3)(oldfd, newfd, flags);
}

int fclose(FILE *stream) {
    if (stream && atomic_load_explicit(&chaos_libc_active, memory_order_relaxed)) forget_slot(fileno(stream));
    return REAL(fclose)(stream);
}

int closedir(DIR *folder) {
    if (atomic_load_explicit(&chaos_libc_active, memory_order_relaxed)) forget_slot(dirfd(folder));
    return REAL(closedir)(folder);
}

/* ---- the table the worker drives --------------------------------------- */

static void api_set_scope(const char *directory) {
    char *copy = NULL;
    if (directory && *directory) {
        char real[PATH_MAX];
        const char *base = realpath(directory, real) ? real : directory;
        size_t n = strlen(base);
        if ((copy = malloc(n + 2))) {
            memcpy(copy, base, n);
            if (n == 0 || base[n - 1] != '/') copy[n++] = '/';
            copy[n] = '\0';
        }
    }
    pthread_mutex_lock(&g_lock);
    atomic_store(&g_scope, copy);
    atomic_fetch_add(&g_generation, 1);
    for (int fd = 0; fd < FD_SLOTS; fd++) {
        free(g_slot_path[fd]);
        g_slot_path[fd] = NULL;
        atomic_store(&g_slot[fd], 0);
    }
    for (int op = 0; op < CHAOS_LIBC_OP_COUNT; op++) atomic_store(&g_counts[op], 0);
    chaos_libc_watch_reset();
    atomic_store(&g_disk_full, 0);
    atomic_store(&g_reported_free, -1);
    atomic_store(&chaos_libc_active, copy != NULL);
    pthread_mutex_unlock(&g_lock);
}

static void api_set_hook(chaos_libc_hook hook) { atomic_store(&g_hook, hook); }

static void api_set_reported_free(long long bytes) { atomic_store(&g_reported_free, bytes < 0 ? -1 : bytes); }

static void api_counters(long long out[CHAOS_LIBC_OP_COUNT]) {
    for (int op = 0; op < CHAOS_LIBC_OP_COUNT; op++) out[op] = atomic_load(&g_counts[op]);
}

static void api_crash(int mode, unsigned long long seed) {
    chaos_libc_depth++;
    chaos_lpl_crash(mode, seed);
}

static const chaos_libc_seam g_table = {
    .version = CHAOS_LIBC_SEAM_VERSION,
    .set_scope = api_set_scope,
    .set_hook = api_set_hook,
    .counters = api_counters,
    .powerloss_enable = chaos_lpl_enable,
    .powerloss_arm = chaos_lpl_arm,
    .powerloss_crash = api_crash,
    .powerloss_stats = chaos_lpl_stats,
    .refused = chaos_libc_refused,
    .outside = chaos_libc_outside,
    .calls = chaos_libc_calls,
    .set_reported_free = api_set_reported_free,
};

__attribute__((visibility("default"))) const chaos_libc_seam *chaos_libc_seam_get(void) { return &g_table; }
