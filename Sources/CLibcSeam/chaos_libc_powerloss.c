/*
** CLibcSeam: power loss at the file level, for any file under the seam's scope.
**
** Method (LazyFS's model, kept as an undo log as the fault VFS keeps its own):
**
**   A power cut loses what the OS had not put on the disk. Below a file system that
**   is two things: the contents of a file since its last fsync, and the directory
**   entries (a create, a rename, an unlink) since the last fsync of their folder.
**   Every call goes through to the real file at once, so the app reads what it
**   would read without the simulator; what the cut would lose is logged:
**
**   - Contents, per inode: before each write or truncate (and an open with O_TRUNC,
**     a fallocate that changes what is read, a copy into the file) the bytes it
**     overwrites and the old size (CPowerCut's entry), trimmed to what the call did.
**     fsync, fdatasync or msync(MS_SYNC) of the file clears the inode's log; a write
**     through an O_SYNC or O_DSYNC descriptor (or with RWF_DSYNC) is durable at once.
**     Closing is not durable, nor is sync_file_range (no metadata, no disk cache).
**   - Directory entries, in order: each create (open with O_CREAT of a new file,
**     mkstemp, link), rename (an exchange too) and unlink of a regular file, with
**     what undoing it needs (the replaced or unlinked file's bytes, kept in memory).
**     fsync of a folder makes the entries in it durable (a rename: both folders).
**   - A file made with O_TMPFILE has no name until linkat gives it one (AT_EMPTY_PATH
**     or /proc/self/fd/N): its writes are logged against its inode; the link is a
**     create like any other, undone at a cut unless its folder was synced after it,
**     and the contents stay pending unless the fd was synced. A name replaced the
**     way swift-nio replaces one (linkat, EEXIST, remove(3), linkat) is an unlink
**     and a link: undone newest first, the old file comes back with its bytes.
**   - A failed fsync (an injected one) behaves as Linux does (ext4, XFS; the
**     PostgreSQL "fsyncgate"): the dirty pages are marked clean, so what was pending
**     is lost for good ("doomed": reverted at a cut whatever its mode) while the app
**     still reads it, and a retried fsync succeeds without writing it. Only bytes a
**     later write made durable again survive.
**   - sync() and syncfs() make everything durable. Syncs are modelled, not paid: the
**     cut is simulated on a machine that keeps its page cache.
**
**   The cut (a trigger, or chaos_lpl_crash): the calling thread takes the lock for
**   good, so no other thread changes a tracked file again. Directory entries first:
**   file systems journal metadata in order, so a prefix of the pending entries
**   survives (DROP: none, KEEP: all, TORN: a seeded length) and the rest are undone
**   newest first — a create removed, a rename moved back (and the file it replaced
**   restored), an unlink restored. Then each inode that still has a name has its
**   pending changes undone newest first, per mode (CPowerCut: DROP, KEEP, or TORN
**   sector by sector), and its doomed changes reverted. Then _exit(86).
**
**   Not modelled: folders themselves (mkdir, rmdir are durable), symlinks and
**   special files (their changes are durable), writes through mmap. Kept bytes are bounded (1 GiB); past that a change fails
**   with ENOMEM rather than go unrecorded.
*/
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include "chaos_libc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LPL_MAX_BYTES ((int64_t)1 << 30)

/* A change a failed fsync doomed, and the ranges later durable writes covered. */
typedef struct lpl_doom {
    chaos_cut_entry entry;
    int64_t *covered; /* pairs: [covered[2i], covered[2i+1]) */
    int covered_count, covered_capacity;
} lpl_doom;

/* One inode the app changed, and where its contents live now. */
typedef struct lpl_node {
    dev_t dev;
    ino_t ino;
    char *path; /* NULL: no name (unlinked, replaced, never created) */
    chaos_cut_entry *entries;
    int count, capacity;
    lpl_doom *doomed;
    int doomed_count, doomed_capacity;
    struct lpl_node *next;
} lpl_node;

enum { DIR_CREATE = 1, DIR_RENAME, DIR_UNLINK, DIR_LINK, DIR_EXCHANGE };

/* One directory entry changed and not yet durable. */
typedef struct lpl_dirop {
    int kind;
    char *path;          /* the name created, unlinked, or renamed to */
    char *old_path;      /* a rename: the name it had */
    char *folder, *old_folder;
    int folder_synced, old_folder_synced;
    lpl_node *node;      /* the inode the name is about */
    lpl_node *replaced;  /* a rename over an existing file: that file; an exchange: the other */
    unsigned char *copy; /* an unlink: the file's bytes; a rename: the replaced file's */
    int64_t copy_len;
    mode_t mode;
    struct lpl_dirop *next;
} lpl_dirop;

atomic_int chaos_lpl_active;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_sector = 512;
static lpl_node *g_nodes;
static lpl_dirop *g_ops, **g_ops_tail = &g_ops;
static int64_t g_bytes;                       /* kept bytes: pre-images and copies */
static chaos_cut_moment g_moment;             /* counts since enabling; the armed cut */

static void crash_locked(int mode, unsigned long long seed) __attribute__((noreturn));

/* ---- nodes ------------------------------------------------------------- */

static void set_path(lpl_node *n, const char *path) {
    if (!n) return;
    char *copy = path ? strdup(path) : NULL;
    free(n->path);
    n->path = copy;
}

static lpl_node *node_get(dev_t dev, ino_t ino, const char *path) {
    for (lpl_node *n = g_nodes; n; n = n->next)
        if (n->dev == dev && n->ino == ino) return n;
    lpl_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->dev = dev;
    n->ino = ino;
    set_path(n, path);
    n->next = g_nodes;
    g_nodes = n;
    return n;
}

/* An inode with no link (O_TMPFILE, not linked yet) has no name: its /proc path
 * ("/data/#1234 (deleted)") is not one. */
static lpl_node *node_of_fd(int fd, const struct stat *st) {
    char path[PATH_MAX];
    int named = st->st_nlink > 0 && chaos_libc_fd_path(fd, path) == 0;
    return node_get(st->st_dev, st->st_ino, named ? path : NULL);
}

static void free_entries(lpl_node *n) {
    for (int i = 0; i < n->count; i++) {
        g_bytes -= n->entries[i].pre_len;
        free(n->entries[i].pre);
    }
    n->count = 0;
}

/* Forgets the newest `k` entries of n: the call they were logged for changed nothing. */
static void drop_last(lpl_node *n, int k) {
    for (; n && k > 0 && n->count > 0; k--) {
        n->count--;
        g_bytes -= n->entries[n->count].pre_len;
        free(n->entries[n->count].pre);
    }
}

/* The write just logged on n wrote `done` bytes: a short one is trimmed to them, a
 * failed one (done <= 0) forgotten, so a cut undoes what the call did, no more. */
static void settle(lpl_node *n, int64_t done) {
    if (!n || n->count == 0) return;
    chaos_cut_entry *e = &n->entries[n->count - 1];
    if (done <= 0) {
        drop_last(n, 1);
    } else if (done < e->len) {
        e->len = done;
        e->new_size = e->off + done > e->old_size ? e->off + done : e->old_size;
        if (e->pre_len > done) {
            g_bytes -= e->pre_len - done;
            e->pre_len = done;
        }
    }
}

static int append_entry(lpl_node *n, const chaos_cut_entry *e) {
    if (n->count == n->capacity) {
        int capacity = n->capacity ? n->capacity * 2 : 16;
        chaos_cut_entry *grown = realloc(n->entries, (size_t)capacity * sizeof *grown);
        if (!grown) return ENOMEM;
        n->entries = grown;
        n->capacity = capacity;
    }
    n->entries[n->count++] = *e;
    g_bytes += e->pre_len;
    return 0;
}

/* A descriptor that can read fd's file (fd itself unless it is write-only). */
static int readable(int fd, int *opened) {
    int flags = fcntl(fd, F_GETFL);
    *opened = 0;
    if (flags >= 0 && (flags & O_ACCMODE) != O_WRONLY) return fd;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    *opened = 1;
    return REAL(openat)(AT_FDCWD, link, O_RDONLY | O_CLOEXEC);
}

/* Logs the change of [off, off + len) of a file of old_size (to new_size; -1:
** whatever the write makes it), reading the bytes it overwrites through fd. */
static int log_change(int fd, lpl_node *n, int64_t off, int64_t len, int64_t old_size, int64_t new_size, int is_truncate) {
    if (!n) return ENOMEM;
    chaos_cut_entry e = {off, len, old_size, new_size >= 0 ? new_size : (off + len > old_size ? off + len : old_size),
                         is_truncate, 0, NULL};
    int64_t pre_end = off + len < old_size ? off + len : old_size;
    if (pre_end > off) {
        int64_t count = pre_end - off;
        if (g_bytes + count > LPL_MAX_BYTES) return ENOMEM;
        if (!(e.pre = malloc((size_t)count))) return ENOMEM;
        int opened;
        int rfd = readable(fd, &opened);
        int64_t got = 0;
        while (rfd >= 0 && got < count) {
            ssize_t r = REAL(pread)(rfd, e.pre + got, (size_t)(count - got), (off_t)(off + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            got += r;
        }
        if (opened && rfd >= 0) REAL(close)(rfd);
        if (got < count) memset(e.pre + got, 0, (size_t)(count - got));
        e.pre_len = count;
    }
    int rc = append_entry(n, &e);
    if (rc) free(e.pre);
    return rc;
}

/* The file's whole contents, kept to restore it (an unlink, a replacing rename). */
static int keep_copy(const char *path, const struct stat *st, unsigned char **out, int64_t *len) {
    *out = NULL;
    *len = 0;
    if (st->st_size <= 0) return 0;
    if (g_bytes + st->st_size > LPL_MAX_BYTES) return ENOMEM;
    unsigned char *bytes = malloc((size_t)st->st_size);
    if (!bytes) return ENOMEM;
    int fd = REAL(openat)(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    int64_t got = 0;
    while (fd >= 0 && got < st->st_size) {
        ssize_t r = REAL(pread)(fd, bytes + got, (size_t)(st->st_size - got), (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += r;
    }
    if (fd >= 0) REAL(close)(fd);
    *out = bytes;
    *len = got;
    g_bytes += got;
    return 0;
}

/* ---- directory entries ------------------------------------------------- */

static char *folder_of(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash && slash != path ? (size_t)(slash - path) : 1;
    char *folder = malloc(n + 1);
    if (folder) {
        memcpy(folder, slash && slash != path ? path : "/", n);
        folder[n] = '\0';
    }
    return folder;
}

static void free_op(lpl_dirop *op) {
    g_bytes -= op->copy_len;
    free(op->copy);
    free(op->path);
    free(op->old_path);
    free(op->folder);
    free(op->old_folder);
    free(op);
}

static lpl_dirop *append_op(int kind, const char *path, const char *old_path, lpl_node *node) {
    lpl_dirop *op = calloc(1, sizeof *op);
    if (!op) return NULL;
    op->kind = kind;
    op->path = strdup(path);
    op->folder = folder_of(path);
    if (old_path) {
        op->old_path = strdup(old_path);
        op->old_folder = folder_of(old_path);
    }
    op->old_folder_synced = old_path == NULL;
    op->node = node;
    *g_ops_tail = op;
    g_ops_tail = &op->next;
    return op;
}

/* The folder `folder` was synced: its entries are durable. */
static void folder_synced(const char *folder) {
    lpl_dirop **link = &g_ops;
    g_ops_tail = &g_ops;
    while (*link) {
        lpl_dirop *op = *link;
        if (op->folder && strcmp(op->folder, folder) == 0) op->folder_synced = 1;
        if (op->old_folder && strcmp(op->old_folder, folder) == 0) op->old_folder_synced = 1;
        if (op->folder_synced && op->old_folder_synced) {
            *link = op->next;
            free_op(op);
        } else {
            link = &op->next;
            g_ops_tail = link;
        }
    }
    g_ops_tail = link;
}

/* ---- durability -------------------------------------------------------- */

static void cover(lpl_doom *d, int64_t from, int64_t to) {
    if (d->covered_count == d->covered_capacity) {
        int capacity = d->covered_capacity ? d->covered_capacity * 2 : 8;
        int64_t *grown = realloc(d->covered, (size_t)capacity * 2 * sizeof *grown);
        if (!grown) return;
        d->covered = grown;
        d->covered_capacity = capacity;
    }
    d->covered[2 * d->covered_count] = from;
    d->covered[2 * d->covered_count + 1] = to;
    d->covered_count++;
}

/* The inode's pending changes reached the disk; doomed bytes they overwrote are safe again. */
static void make_durable(lpl_node *n) {
    for (int i = 0; i < n->count; i++) {
        const chaos_cut_entry *e = &n->entries[i];
        if (e->is_truncate) continue;
        for (int k = 0; k < n->doomed_count; k++) cover(&n->doomed[k], e->off, e->off + e->len);
    }
    free_entries(n);
}

static void count_change(void) {
    if (chaos_cut_moment_write(&g_moment)) crash_locked(g_moment.mode, g_moment.seed);
}

static void count_sync(void) {
    if (chaos_cut_moment_sync(&g_moment)) crash_locked(g_moment.mode, g_moment.seed);
}

static void created_locked(const char *canon, int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    lpl_node *n = node_get(st.st_dev, st.st_ino, canon);
    set_path(n, canon);
    append_op(DIR_CREATE, canon, NULL, n);
    count_change();
}

/* ---- the calls --------------------------------------------------------- */

int chaos_lpl_open(int dirfd, const char *path, const char *canon, int flags, mode_t mode) {
    pthread_mutex_lock(&g_lock);
    struct stat st;
    int existed = stat(canon, &st) == 0;
    int truncates = existed && S_ISREG(st.st_mode) && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY &&
                    st.st_size > 0;
    if (truncates) {
        int rfd = REAL(openat)(AT_FDCWD, canon, O_RDONLY | O_CLOEXEC);
        int rc = rfd >= 0 ? log_change(rfd, node_get(st.st_dev, st.st_ino, canon), 0, st.st_size, st.st_size, 0, 1) : 0;
        if (rfd >= 0) REAL(close)(rfd);
        if (rc) {
            pthread_mutex_unlock(&g_lock);
            errno = rc;
            return -1;
        }
    }
    int fd = REAL(openat)(dirfd, path, flags, mode);
    int e = errno;
    if (fd >= 0) {
        if (!existed && (flags & O_CREAT)) created_locked(canon, fd);
        if (truncates) count_change();
    }
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return fd;
}

void chaos_lpl_created(const char *canon, int fd) {
    pthread_mutex_lock(&g_lock);
    created_locked(canon, fd);
    pthread_mutex_unlock(&g_lock);
}

ssize_t chaos_lpl_write(int fd, int64_t off, int64_t len, int append, int durable, chaos_perform perform, void *ctx) {
    pthread_mutex_lock(&g_lock);
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    ssize_t r;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0) {
        r = perform(fd, ctx);
    } else {
        /* Linux writes at the end of an O_APPEND file whatever the offset (pwrite's too). */
        int64_t at = append || (flags & O_APPEND) ? (int64_t)st.st_size : off >= 0 ? off : (int64_t)lseek(fd, 0, SEEK_CUR);
        lpl_node *node = node_of_fd(fd, &st);
        int rc = at >= 0 ? log_change(fd, node, at, len, st.st_size, -1, 0) : EINVAL;
        if (rc) {
            pthread_mutex_unlock(&g_lock);
            errno = rc;
            return -1;
        }
        r = perform(fd, ctx);
        int e = errno;
        settle(node, r);
        if (r > 0) {
            /* O_SYNC, O_DSYNC, RWF_SYNC, RWF_DSYNC: the write is durable when it returns. */
            if (durable || (flags & O_DSYNC) == O_DSYNC) drop_last(node, 1);
            count_change();
        }
        errno = e;
    }
    int e = errno;
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return r;
}

int chaos_lpl_reshape(int fd, int64_t from, int64_t to, int64_t new_size, chaos_perform perform, void *ctx) {
    pthread_mutex_lock(&g_lock);
    struct stat st;
    lpl_node *node = NULL;
    int logged = 0, rc = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        int64_t old = st.st_size;
        node = node_of_fd(fd, &st);
        /* The size first (a shrink keeps the bytes cut off), then the bytes that stay
         * in the file and change: undone newest first, they put the file back. */
        if (new_size != old) {
            rc = log_change(fd, node, new_size < old ? new_size : old, new_size < old ? old - new_size : new_size - old, old, new_size, 1);
            logged += rc == 0;
        }
        int64_t end = to < old ? to : old;
        if (end > new_size) end = new_size;
        if (!rc && end > from) {
            rc = log_change(fd, node, from, end - from, new_size, new_size, 0);
            logged += rc == 0;
        }
    }
    int r = -1;
    if (rc) {
        errno = rc;
    } else {
        r = (int)perform(fd, ctx);
    }
    int e = errno;
    if (r != 0) drop_last(node, logged);
    else count_change();
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return r;
}

/* ftruncate and truncate: a reshape that changes the size alone. */
static ssize_t perform_ftruncate(int fd, void *size) { return REAL(ftruncate)(fd, *(off_t *)size); }

int chaos_lpl_truncate(int fd, off_t size) { return chaos_lpl_reshape(fd, size, size, size, perform_ftruncate, &size); }

typedef struct { const char *path; off_t size; } truncate_call;
static ssize_t perform_truncate(int fd, void *call) {
    (void)fd; /* read for the pre-image only: the call is by path */
    const truncate_call *t = call;
    return REAL(truncate)(t->path, t->size);
}

int chaos_lpl_truncate_path(const char *path, const char *canon, off_t size) {
    truncate_call call = {path, size};
    int fd = REAL(openat)(AT_FDCWD, canon, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return REAL(truncate)(path, size); /* unreadable: the kernel answers, untracked */
    int r = chaos_lpl_reshape(fd, size, size, size, perform_truncate, &call);
    int e = errno;
    REAL(close)(fd);
    errno = e;
    return r;
}

int chaos_lpl_sync(int fd) {
    pthread_mutex_lock(&g_lock);
    count_sync(); /* a cut at this sync comes before it reaches the disk */
    struct stat st;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            char folder[PATH_MAX];
            if (chaos_libc_fd_path(fd, folder) == 0) folder_synced(folder);
        } else {
            for (lpl_node *n = g_nodes; n; n = n->next)
                if (n->dev == st.st_dev && n->ino == st.st_ino) make_durable(n);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return 0;
}

void chaos_lpl_sync_failed(int fd) {
    pthread_mutex_lock(&g_lock);
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        for (lpl_node *n = g_nodes; n; n = n->next) {
            if (n->dev != st.st_dev || n->ino != st.st_ino) continue;
            for (int i = 0; i < n->count; i++) {
                if (n->doomed_count == n->doomed_capacity) {
                    int capacity = n->doomed_capacity ? n->doomed_capacity * 2 : 8;
                    lpl_doom *grown = realloc(n->doomed, (size_t)capacity * sizeof *grown);
                    if (!grown) break;
                    n->doomed = grown;
                    n->doomed_capacity = capacity;
                }
                n->doomed[n->doomed_count++] = (lpl_doom){n->entries[i], NULL, 0, 0};
            }
            n->count = 0; /* the pre-images now belong to the doomed entries */
        }
    }
    pthread_mutex_unlock(&g_lock);
}

void chaos_lpl_sync_all(void) {
    pthread_mutex_lock(&g_lock);
    count_sync();
    for (lpl_node *n = g_nodes; n; n = n->next) make_durable(n);
    while (g_ops) {
        lpl_dirop *op = g_ops;
        g_ops = op->next;
        free_op(op);
    }
    g_ops_tail = &g_ops;
    pthread_mutex_unlock(&g_lock);
}

/* Hands a folder operation the copy of the file it replaced or removed (kept for
 * the undo); the copy is the operation's from then on. */
static void give_copy(lpl_dirop *op, unsigned char **copy, int64_t copy_len, mode_t mode) {
    if (!op) return;
    op->copy = *copy;
    op->copy_len = copy_len;
    op->mode = mode;
    *copy = NULL;
}

/* The end of a tracked folder operation: a copy no operation took is freed (and
 * leaves the budget), the lock is released, and the call returns r with errno e. */
static int release(unsigned char *copy, int64_t copy_len, int r, int e) {
    if (copy) {
        g_bytes -= copy_len;
        free(copy);
    }
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return r;
}

/* RENAME_EXCHANGE: two files swap names; undone by swapping them back. */
static int exchange(int olddirfd, const char *oldpath, const char *oldcanon, int newdirfd, const char *newpath,
                    const char *newcanon, unsigned int flags) {
    struct stat from, to;
    int tracked = lstat(oldcanon, &from) == 0 && S_ISREG(from.st_mode) && lstat(newcanon, &to) == 0 && S_ISREG(to.st_mode);
    int r = REAL(renameat2)(olddirfd, oldpath, newdirfd, newpath, flags);
    int e = errno;
    if (r == 0 && tracked) {
        lpl_node *a = node_get(from.st_dev, from.st_ino, oldcanon), *b = node_get(to.st_dev, to.st_ino, newcanon);
        set_path(a, newcanon);
        set_path(b, oldcanon);
        lpl_dirop *op = append_op(DIR_EXCHANGE, newcanon, oldcanon, a);
        if (op) op->replaced = b;
        count_change();
    }
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return r;
}

int chaos_lpl_rename(int olddirfd, const char *oldpath, const char *oldcanon, int newdirfd, const char *newpath,
                     const char *newcanon, unsigned int flags) {
    pthread_mutex_lock(&g_lock);
    if (flags & RENAME_EXCHANGE) return exchange(olddirfd, oldpath, oldcanon, newdirfd, newpath, newcanon, flags);
    struct stat from, to;
    int tracked = lstat(oldcanon, &from) == 0 && S_ISREG(from.st_mode);
    int replaces = tracked && lstat(newcanon, &to) == 0;
    if (replaces && (!S_ISREG(to.st_mode) || (to.st_dev == from.st_dev && to.st_ino == from.st_ino))) tracked = replaces = 0;
    unsigned char *copy = NULL;
    int64_t copy_len = 0;
    if (replaces) {
        int rc = keep_copy(newcanon, &to, &copy, &copy_len);
        if (rc) {
            pthread_mutex_unlock(&g_lock);
            errno = rc;
            return -1;
        }
    }
    int r = flags ? REAL(renameat2)(olddirfd, oldpath, newdirfd, newpath, flags)
                  : REAL(renameat)(olddirfd, oldpath, newdirfd, newpath);
    int e = errno;
    if (r == 0 && tracked) {
        lpl_node *node = node_get(from.st_dev, from.st_ino, oldcanon);
        lpl_node *replaced = replaces ? node_get(to.st_dev, to.st_ino, newcanon) : NULL;
        set_path(node, newcanon);
        set_path(replaced, NULL);
        lpl_dirop *op = append_op(DIR_RENAME, newcanon, oldcanon, node);
        if (op) op->replaced = replaced;
        give_copy(op, &copy, copy_len, replaces ? to.st_mode & 07777 : 0);
        count_change();
    }
    return release(copy, copy_len, r, e);
}

int chaos_lpl_unlink(int dirfd, const char *path, const char *canon, int flags) {
    pthread_mutex_lock(&g_lock);
    struct stat st;
    int tracked = lstat(canon, &st) == 0 && S_ISREG(st.st_mode);
    unsigned char *copy = NULL;
    int64_t copy_len = 0;
    if (tracked) {
        int rc = keep_copy(canon, &st, &copy, &copy_len);
        if (rc) {
            pthread_mutex_unlock(&g_lock);
            errno = rc;
            return -1;
        }
    }
    int r = REAL(unlinkat)(dirfd, path, flags);
    int e = errno;
    if (r == 0 && tracked) {
        lpl_node *node = node_get(st.st_dev, st.st_ino, canon);
        if (node && node->path && strcmp(node->path, canon) == 0) set_path(node, NULL);
        give_copy(append_op(DIR_UNLINK, canon, NULL, node), &copy, copy_len, st.st_mode & 07777);
        count_change();
    }
    return release(copy, copy_len, r, e);
}

int chaos_lpl_link(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, const char *newcanon, int flags) {
    pthread_mutex_lock(&g_lock);
    int r = REAL(linkat)(olddirfd, oldpath, newdirfd, newpath, flags);
    int e = errno;
    struct stat st;
    if (r == 0 && lstat(newcanon, &st) == 0 && S_ISREG(st.st_mode)) {
        lpl_node *node = node_get(st.st_dev, st.st_ino, newcanon);
        /* A file with no name (O_TMPFILE, or unlinked while open) is named by the link:
         * its unsynced contents are undone there, if the name survives the cut. */
        if (node && !node->path) set_path(node, newcanon);
        append_op(DIR_LINK, newcanon, NULL, node);
        count_change();
    }
    pthread_mutex_unlock(&g_lock);
    errno = e;
    return r;
}

/* ---- the cut ----------------------------------------------------------- */

/* The calls the cut makes on the files it undoes (CPowerCut's): libc's, past the interposers. */
#define REAL_IO (&(chaos_cut_io){REAL(pwrite), REAL(ftruncate)})

static void restore_copy(const char *path, const unsigned char *bytes, int64_t len, mode_t mode) {
    int fd = REAL(openat)(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, mode ? mode : 0644);
    if (fd < 0) return;
    if (bytes && len > 0) chaos_cut_pwrite_all(REAL_IO, fd, bytes, len, 0);
    REAL(close)(fd);
}

static int names(const lpl_node *n, const char *path) { return n && n->path && strcmp(n->path, path) == 0; }

static void undo_op(lpl_dirop *op) {
    switch (op->kind) {
    case DIR_CREATE:
    case DIR_LINK:
        REAL(unlinkat)(AT_FDCWD, op->path, 0);
        if (names(op->node, op->path)) set_path(op->node, NULL);
        break;
    case DIR_RENAME:
        REAL(renameat)(AT_FDCWD, op->path, AT_FDCWD, op->old_path);
        if (names(op->node, op->path)) set_path(op->node, op->old_path);
        if (op->replaced || op->copy) {
            restore_copy(op->path, op->copy, op->copy_len, op->mode);
            set_path(op->replaced, op->path);
        }
        break;
    case DIR_UNLINK:
        restore_copy(op->path, op->copy, op->copy_len, op->mode);
        set_path(op->node, op->path);
        break;
    case DIR_EXCHANGE:
        REAL(renameat2)(AT_FDCWD, op->path, AT_FDCWD, op->old_path, RENAME_EXCHANGE);
        if (names(op->node, op->path)) set_path(op->node, op->old_path);
        if (names(op->replaced, op->old_path)) set_path(op->replaced, op->path);
        break;
    }
}

/* Puts back what a failed fsync lost, except bytes a later durable write covered. */
static void revert_doomed(int fd, const lpl_doom *d, int64_t *size) {
    const chaos_cut_entry *e = &d->entry;
    uint64_t unused = 0;
    if (d->covered_count == 0 || e->is_truncate) {
        chaos_cut_undo(REAL_IO, fd, e, CHAOS_CUT_DROP, g_sector, &unused, size);
        return;
    }
    for (int64_t at = e->off; at < e->off + e->pre_len;) {
        int64_t next = e->off + e->pre_len;
        int covered = 0;
        for (int k = 0; k < d->covered_count; k++) {
            int64_t a = d->covered[2 * k], b = d->covered[2 * k + 1];
            if (a <= at && at < b) {
                covered = 1;
                if (b < next) next = b;
            } else if (a > at && a < next) {
                next = a;
            }
        }
        if (!covered && e->pre) chaos_cut_pwrite_all(REAL_IO, fd, e->pre + (at - e->off), next - at, at);
        at = next;
    }
}

static void crash_locked(int mode, unsigned long long seed) {
    uint64_t rng = seed;
    /* Directory entries: a prefix survives, the rest is undone newest first. */
    int count = 0;
    for (lpl_dirop *op = g_ops; op; op = op->next) count++;
    int kept = mode == CHAOS_CUT_DROP ? 0 : mode == CHAOS_CUT_KEEP ? count : (int)chaos_cut_below(&rng, (uint64_t)count + 1);
    for (int i = count - 1; i >= kept; i--) {
        lpl_dirop *op = g_ops;
        for (int k = 0; k < i; k++) op = op->next;
        undo_op(op);
    }
    /* Contents of every inode that still has a name. */
    for (lpl_node *n = g_nodes; n; n = n->next) {
        if (!n->path || (n->count == 0 && n->doomed_count == 0)) continue;
        int fd = REAL(openat)(AT_FDCWD, n->path, O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        int64_t size = fstat(fd, &st) == 0 ? (int64_t)st.st_size : 0;
        for (int i = n->count - 1; i >= 0; i--) chaos_cut_undo(REAL_IO, fd, &n->entries[i], mode, g_sector, &rng, &size);
        for (int i = n->doomed_count - 1; i >= 0; i--) revert_doomed(fd, &n->doomed[i], &size);
        REAL(close)(fd); /* no fsync: the machine does not really lose its page cache */
    }
    _exit(CHAOS_LIBC_POWER_LOSS_EXIT);
}

/* ---- the table's power-loss entries ------------------------------------ */

static void forget_everything(void) {
    while (g_nodes) {
        lpl_node *n = g_nodes;
        g_nodes = n->next;
        free_entries(n);
        for (int i = 0; i < n->doomed_count; i++) {
            g_bytes -= n->doomed[i].entry.pre_len;
            free(n->doomed[i].entry.pre);
            free(n->doomed[i].covered);
        }
        free(n->doomed);
        free(n->entries);
        free(n->path);
        free(n);
    }
    while (g_ops) {
        lpl_dirop *op = g_ops;
        g_ops = op->next;
        free_op(op);
    }
    g_ops_tail = &g_ops;
    g_bytes = 0;
}

void chaos_lpl_enable(int enabled, int sector_size, int torn) {
    pthread_mutex_lock(&g_lock);
    if (enabled) {
        g_sector = chaos_cut_sector_size(sector_size);
        (void)torn; /* nothing to advertise: a plain file has no sector size to report */
        if (!atomic_load(&chaos_lpl_active)) chaos_cut_moment_start(&g_moment);
        atomic_store(&chaos_lpl_active, 1);
    } else {
        atomic_store(&chaos_lpl_active, 0);
        chaos_cut_moment_disarm(&g_moment);
        forget_everything();
    }
    pthread_mutex_unlock(&g_lock);
}

void chaos_lpl_arm(int at_sync, int after_writes, int mode, unsigned long long seed) {
    pthread_mutex_lock(&g_lock);
    chaos_cut_moment_arm(&g_moment, at_sync, after_writes, mode, seed);
    pthread_mutex_unlock(&g_lock);
}

void chaos_lpl_crash(int mode, unsigned long long seed) {
    pthread_mutex_lock(&g_lock); /* never released */
    crash_locked(mode, seed);
}

void chaos_lpl_stats(long long *writes, long long *syncs, long long *pending) {
    pthread_mutex_lock(&g_lock);
    long long count = 0;
    for (lpl_node *n = g_nodes; n; n = n->next) count += n->count + n->doomed_count;
    for (lpl_dirop *op = g_ops; op; op = op->next) count++;
    if (writes) *writes = g_moment.writes;
    if (syncs) *syncs = g_moment.syncs;
    if (pending) *pending = count;
    pthread_mutex_unlock(&g_lock);
}
