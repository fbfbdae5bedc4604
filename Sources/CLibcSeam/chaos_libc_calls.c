/*
** CLibcSeam: the rarer ways Linux changes, syncs and measures a file, each mapped
** onto the seam's operations (chaos_libc_seam.h) so the hook's policy needs nothing
** new. The common part (scope, fd slots, asking the hook) is chaos_libc.c's.
**
** Method:
**
**   Each call here forwards to the real function (dlsym RTLD_NEXT) and, for a file
**   under the scope, is counted and asked of the hook first, as chaos_libc.c's are:
**
**   - pwritev, pwritev2 (and their 64-bit names): a WRITE at the offset (-1: the
**     descriptor's position, pwritev2's offset -1), amount = the bytes of all the
**     vectors. RWF_APPEND writes at the end; RWF_DSYNC and RWF_SYNC make the write
**     durable when it returns, as an O_DSYNC descriptor does.
**   - fallocate, posix_fallocate: a TRUNCATE, offset = the size after it, amount 1
**     when it asks for space past the end of the file (mode 0 or KEEP_SIZE past the
**     end, INSERT_RANGE): a full disk refuses those, as it refuses a growing
**     ftruncate. The crash simulator logs what the mode changes: the size (mode 0,
**     ZERO_RANGE, COLLAPSE_RANGE, INSERT_RANGE) and the bytes that change in place
**     (PUNCH_HOLE, ZERO_RANGE, and the bytes a collapse or an insert shifts).
**     KEEP_SIZE alone changes nothing a reader sees, so nothing is logged.
**   - truncate (by path): a TRUNCATE of that path, as ftruncate is.
**   - copy_file_range, sendfile: a READ of the source if it is under the scope, then
**     a WRITE of the destination (at its offset, or its position), amount = the
**     bytes the source still holds past its offset, if fewer than asked: a copy
**     "to the end" asks for SSIZE_MAX. Logged as a write of the destination,
**     trimmed to what the call copied.
**   - sync_file_range: a SYNC (the hook may fail it), never a durable one: Linux
**     starts or waits for the write-back of the range's data pages only; it writes
**     no metadata (a new file's size, its blocks' allocation) and flushes no disk
**     cache, so its man page promises nothing after a crash. The simulator is not
**     told: what was pending stays pending, and it is no sync point of an armed cut.
**   - msync: a SYNC of the file mapped at the address, found in /proc/self/maps
**     (no mmap is wrapped); MS_SYNC writes the range's pages back as fdatasync
**     does, so the simulator counts it as a sync of that file (making its pending
**     writes durable); MS_ASYNC (a no-op since Linux 2.6.19) and MS_INVALIDATE make
**     nothing durable. Memory that maps no file under the scope goes straight to
**     msync. Writes through the mapping are not seen (chaos_libc_powerloss.c).
**   - statfs, fstatfs, statvfs, fstatvfs (and 64): not asked, not counted (the
**     table has no operation for them, and one would change its counters): they
**     agree with the disk the hook plays. While the hook's last answer to a write
**     or a growth under the scope was ENOSPC, they report no free blocks
**     (f_bfree = f_bavail = 0) for a file under the scope; once a write passes
**     again, the real figures. An app that checks for space before it writes sees
**     the disk full only once it has filled, as on a real disk. A figure set with
**     set_reported_free wins over both: the disk says it has that much room while
**     writes fail (iOS keeps a reserve the app cannot write into).
**
**   The 64-bit names are the same functions on a 64-bit system (off_t is 64 bits),
**   as in chaos_libc.c.
*/
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include "chaos_libc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- pwritev, pwritev2 -------------------------------------------------- */

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t off) {
    return chaos_libc_looks_at(fd) && iov && iovcnt >= 0 && off >= 0
               ? chaos_libc_write(fd, &(chaos_write){NULL, 0, iov, iovcnt, off, -1})
               : REAL(pwritev)(fd, iov, iovcnt, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int iovcnt, off_t off) { return pwritev(fd, iov, iovcnt, off); }

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags) {
    if (chaos_libc_looks_at(fd) && iov && iovcnt >= 0 && off >= -1 && flags >= 0)
        return chaos_libc_write(fd, &(chaos_write){NULL, 0, iov, iovcnt, off, flags});
    if (!REAL(pwritev2)) {
        errno = ENOSYS;
        return -1;
    }
    return REAL(pwritev2)(fd, iov, iovcnt, off, flags);
}

ssize_t pwritev64v2(int fd, const struct iovec *iov, int iovcnt, off_t off, int flags) {
    return pwritev2(fd, iov, iovcnt, off, flags);
}

/* ---- fallocate, posix_fallocate, truncate ------------------------------- */

typedef struct alloc_call {
    int mode;
    off_t off, len;
    int posix; /* posix_fallocate: returns the errno instead of setting it */
} alloc_call;

static ssize_t perform_alloc(int fd, void *ctx) {
    const alloc_call *a = ctx;
    if (!a->posix) return REAL(fallocate)(fd, a->mode, a->off, a->len);
    int e = REAL(posix_fallocate)(fd, a->off, a->len);
    if (e == 0) return 0;
    errno = e;
    return -1;
}

/* 0, or -1 with errno set (posix_fallocate's caller turns it into the result). */
static int seam_fallocate(int fd, int mode, off_t off, off_t len, int posix) {
    char path[PATH_MAX];
    alloc_call a = {mode, off, len, posix};
    struct stat st;
    int r;
    chaos_libc_depth++;
    if (!chaos_libc_fd_in_scope(fd, path) || off < 0 || len <= 0 || off > INT64_MAX - len || fstat(fd, &st) != 0) {
        r = (int)perform_alloc(fd, &a); /* outside the scope, or a call the kernel refuses itself */
    } else {
        int64_t size = st.st_size, end = (int64_t)off + len, new_size = size, from = off, to = off;
        int space;
        if (mode & FALLOC_FL_PUNCH_HOLE) { /* always with KEEP_SIZE: the range reads as zeros */
            to = end;
            space = 0;
        } else if (mode & FALLOC_FL_COLLAPSE_RANGE) { /* the range goes, the rest moves down */
            new_size = size - len;
            to = size;
            space = 0;
        } else if (mode & FALLOC_FL_INSERT_RANGE) { /* a hole of len goes in, the rest moves up */
            new_size = size + len;
            to = size;
            space = 1;
        } else {
            if (mode & FALLOC_FL_ZERO_RANGE) to = end;
            if (!(mode & FALLOC_FL_KEEP_SIZE) && end > size) new_size = end;
            space = end > size;
        }
        int verdict = chaos_libc_ask(CHAOS_LIBC_OP_TRUNCATE, path, new_size, space);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else {
            r = chaos_libc_tracking() ? chaos_lpl_reshape(fd, from, to, new_size, perform_alloc, &a) : (int)perform_alloc(fd, &a);
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_TRUNCATE, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

int fallocate(int fd, int mode, off_t off, off_t len) {
    return chaos_libc_looks_at(fd) ? seam_fallocate(fd, mode, off, len, 0) : REAL(fallocate)(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len) { return fallocate(fd, mode, off, len); }

int posix_fallocate(int fd, off_t off, off_t len) {
    if (!chaos_libc_looks_at(fd)) return REAL(posix_fallocate)(fd, off, len);
    int saved = errno;
    int r = seam_fallocate(fd, 0, off, len, 1) == 0 ? 0 : errno;
    errno = saved;
    return r;
}

int posix_fallocate64(int fd, off_t off, off_t len) { return posix_fallocate(fd, off, len); }

int truncate(const char *path, off_t size) {
    char canon[PATH_MAX];
    if (!CHAOS_LOOKING() || chaos_libc_resolve_at(AT_FDCWD, path, canon) != 0 || !chaos_libc_scope_holds(canon))
        return REAL(truncate)(path, size); /* path is nonnull (glibc's declaration) */
    chaos_libc_depth++;
    struct stat st;
    int grows = stat(canon, &st) == 0 && size > st.st_size;
    int r;
    int verdict = chaos_libc_ask(CHAOS_LIBC_OP_TRUNCATE, canon, size, grows);
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else {
        r = chaos_libc_tracking() ? chaos_lpl_truncate_path(path, canon, size) : REAL(truncate)(path, size);
    }
    int e = errno;
    chaos_libc_note_seen(CHAOS_LIBC_OP_TRUNCATE, canon, r < 0 ? e : 0);
    chaos_libc_depth--;
    errno = e;
    return r;
}

int truncate64(const char *path, off_t size) { return truncate(path, size); }

/* ---- copy_file_range, sendfile ------------------------------------------ */

typedef struct copy_call {
    int in;
    off_t *off_in, *off_out; /* sendfile: off_in is its offset, off_out unused */
    size_t len;
    unsigned int flags;
    int sendfile;
} copy_call;

static ssize_t perform_copy(int out, void *ctx) {
    const copy_call *c = ctx;
    if (c->sendfile) return REAL(sendfile)(out, c->in, c->off_in, c->len);
    if (!REAL(copy_file_range)) {
        errno = ENOSYS;
        return -1;
    }
    return REAL(copy_file_range)(c->in, c->off_in, out, c->off_out, c->len, c->flags);
}

/* The bytes a copy of `len` from `in` can move: what the source holds past its offset. */
static int64_t copy_length(int in, const off_t *off_in, size_t len) {
    int64_t asked = len > (size_t)INT64_MAX ? INT64_MAX : (int64_t)len;
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) return asked;
    int64_t at = off_in ? (int64_t)*off_in : (int64_t)lseek(in, 0, SEEK_CUR);
    int64_t left = at >= 0 && st.st_size > at ? st.st_size - at : 0;
    return left < asked ? left : asked;
}

static ssize_t seam_copy(int out, copy_call *c) {
    char from[PATH_MAX], to[PATH_MAX];
    chaos_libc_depth++;
    int in_scope = chaos_libc_fd_in_scope(c->in, from);
    int out_scope = chaos_libc_fd_in_scope(out, to);
    int64_t n = in_scope || out_scope ? copy_length(c->in, c->off_in, c->len) : 0;
    int64_t at = !c->sendfile && c->off_out ? (int64_t)*c->off_out : -1;
    int verdict = 0;
    if (in_scope) verdict = chaos_libc_ask(CHAOS_LIBC_OP_READ, from, c->off_in ? (long long)*c->off_in : -1, n);
    if (verdict <= 0 && out_scope) verdict = chaos_libc_ask(CHAOS_LIBC_OP_WRITE, to, at, n);
    ssize_t r;
    if (verdict > 0) {
        errno = verdict;
        r = -1;
    } else if (out_scope && chaos_libc_tracking()) {
        r = chaos_lpl_write(out, at, n, 0, 0, perform_copy, c);
    } else {
        r = perform_copy(out, c);
    }
    int e = errno;
    if (in_scope) chaos_libc_note_seen(CHAOS_LIBC_OP_READ, from, r < 0 ? e : 0);
    if (out_scope) chaos_libc_note_seen(CHAOS_LIBC_OP_WRITE, to, r < 0 ? e : 0);
    chaos_libc_depth--;
    errno = e;
    return r;
}

ssize_t copy_file_range(int in, off_t *off_in, int out, off_t *off_out, size_t len, unsigned int flags) {
    copy_call c = {in, off_in, off_out, len, flags, 0};
    if (CHAOS_LOOKING() && (chaos_libc_looks_at(out) || chaos_libc_looks_at(in))) return seam_copy(out, &c);
    return perform_copy(out, &c);
}

ssize_t sendfile(int out, int in, off_t *offset, size_t count) {
    copy_call c = {in, offset, NULL, count, 0, 1};
    if (CHAOS_LOOKING() && (chaos_libc_looks_at(out) || chaos_libc_looks_at(in))) return seam_copy(out, &c);
    return perform_copy(out, &c);
}

ssize_t sendfile64(int out, int in, off_t *offset, size_t count) { return sendfile(out, in, offset, count); }

/* ---- sync_file_range, msync --------------------------------------------- */

int sync_file_range(int fd, off_t off, off_t n, unsigned int flags) {
    char path[PATH_MAX];
    if (!chaos_libc_looks_at(fd)) return REAL(sync_file_range)(fd, off, n, flags);
    chaos_libc_depth++;
    int r;
    if (!chaos_libc_fd_in_scope(fd, path)) {
        r = REAL(sync_file_range)(fd, off, n, flags);
    } else {
        int verdict = chaos_libc_ask(CHAOS_LIBC_OP_SYNC, path, off, 0);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else {
            r = REAL(sync_file_range)(fd, off, n, flags); /* not durable: the simulator is not told */
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_SYNC, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

/* One line of /proc/self/maps, "start-end perms offset dev inode   path": the file
 * it maps at `at`, and the offset there. 0 if it is that line. */
static int maps_line(const char *line, uintptr_t at, char path[PATH_MAX], long long *offset) {
    unsigned long start, stop, inode;
    unsigned long long off;
    int name = 0;
    if (sscanf(line, "%lx-%lx %*s %llx %*s %lu %n", &start, &stop, &off, &inode, &name) != 4) return -1;
    if (at < start || at >= stop || name <= 0 || line[name] != '/' || inode == 0) return -1;
    size_t n = strlen(line + name);
    static const char deleted[] = " (deleted)";
    const size_t k = sizeof deleted - 1;
    if (n > k && strcmp(line + name + n - k, deleted) == 0) n -= k;
    if (n >= PATH_MAX) return -1;
    memcpy(path, line + name, n);
    path[n] = '\0';
    *offset = (long long)(off + (at - start));
    return 0;
}

/* The file mapped at addr and the offset in it, from /proc/self/maps; 0 if found. */
static int mapped_file(const void *addr, char path[PATH_MAX], long long *offset) {
    int fd = REAL(openat)(AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[PATH_MAX + 256]; /* a whole line: its path is shorter than PATH_MAX */
    size_t have = 0;
    int found = -1, more = 1;
    while (found != 0 && (more || have > 0)) {
        if (more && have < sizeof buf - 1) {
            ssize_t r = REAL(read)(fd, buf + have, sizeof buf - 1 - have);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) more = 0;
            else have += (size_t)r;
        }
        char *newline = memchr(buf, '\n', have);
        if (!newline && more && have < sizeof buf - 1) continue; /* the line is not all here yet */
        size_t len = newline ? (size_t)(newline - buf) : have;
        buf[len] = '\0';
        found = maps_line(buf, (uintptr_t)addr, path, offset);
        size_t used = newline ? len + 1 : have;
        memmove(buf, buf + used, have - used);
        have -= used;
    }
    REAL(close)(fd);
    return found;
}

int msync(void *addr, size_t len, int flags) {
    if (!CHAOS_LOOKING()) return REAL(msync)(addr, len, flags);
    char path[PATH_MAX];
    long long offset = 0;
    chaos_libc_depth++;
    int r;
    if (mapped_file(addr, path, &offset) != 0 || !chaos_libc_scope_holds(path)) {
        r = REAL(msync)(addr, len, flags);
    } else {
        int verdict = chaos_libc_ask(CHAOS_LIBC_OP_SYNC, path, offset, 0);
        if (verdict > 0) {
            errno = verdict;
            r = -1;
        } else {
            if ((flags & MS_SYNC) && chaos_libc_tracking()) {
                int fd = REAL(openat)(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
                if (fd >= 0) {
                    chaos_lpl_sync(fd); /* a cut armed at this sync comes before it */
                    REAL(close)(fd);
                }
            }
            r = REAL(msync)(addr, len, flags);
        }
        chaos_libc_note_seen(CHAOS_LIBC_OP_SYNC, path, r < 0 ? errno : 0);
    }
    int e = errno;
    chaos_libc_depth--;
    errno = e;
    return r;
}

/* ---- statfs, statvfs ---------------------------------------------------- */

/* The bytes a query about this path (or, path NULL, this fd) reports free: -1 the
 * real figures; the reported figure when one is set; else 0 while the disk reads full. */
static long long reported_free(const char *path, int fd) {
    if (!CHAOS_LOOKING()) return -1;
    long long reported = chaos_libc_reported_free();
    if (reported < 0 && !chaos_libc_disk_full()) return -1;
    char canon[PATH_MAX];
    int in;
    chaos_libc_depth++;
    if (path) in = chaos_libc_resolve_at(AT_FDCWD, path, canon) == 0 && chaos_libc_scope_holds(canon);
    else in = chaos_libc_fd_in_scope(fd, canon);
    chaos_libc_depth--;
    if (!in) return -1;
    return reported >= 0 ? reported : 0;
}

/* Sets the free blocks of `buf` (a struct statfs or statvfs) to what `path`/`fd` reports. */
#define REPORT_FREE(buf, path, fd) do {                                              \
        long long free_bytes = reported_free((path), (fd));                          \
        if (free_bytes >= 0) {                                                       \
            unsigned long long unit = (buf)->f_frsize ? (unsigned long long)(buf)->f_frsize \
                                                      : (unsigned long long)(buf)->f_bsize;  \
            if (unit == 0) unit = 4096;                                              \
            (buf)->f_bfree = (buf)->f_bavail = (unsigned long long)free_bytes / unit; \
        }                                                                            \
    } while (0)

int statfs(const char *path, struct statfs *buf) {
    int r = REAL(statfs)(path, buf);
    if (r == 0) REPORT_FREE(buf, path, -1);
    return r;
}

int fstatfs(int fd, struct statfs *buf) {
    int r = REAL(fstatfs)(fd, buf);
    if (r == 0) REPORT_FREE(buf, NULL, fd);
    return r;
}

int statvfs(const char *path, struct statvfs *buf) {
    int r = REAL(statvfs)(path, buf);
    if (r == 0) REPORT_FREE(buf, path, -1);
    return r;
}

int fstatvfs(int fd, struct statvfs *buf) {
    int r = REAL(fstatvfs)(fd, buf);
    if (r == 0) REPORT_FREE(buf, NULL, fd);
    return r;
}

/* The 64-bit names: the same structures on a 64-bit system. */
_Static_assert(sizeof(struct statfs) == sizeof(struct statfs64), "statfs64 is statfs");
_Static_assert(sizeof(struct statvfs) == sizeof(struct statvfs64), "statvfs64 is statvfs");
int statfs64(const char *path, struct statfs64 *buf) { return statfs(path, (struct statfs *)buf); }
int fstatfs64(int fd, struct statfs64 *buf) { return fstatfs(fd, (struct statfs *)buf); }
int statvfs64(const char *path, struct statvfs64 *buf) { return statvfs(path, (struct statvfs *)buf); }
int fstatvfs64(int fd, struct statvfs64 *buf) { return fstatvfs(fd, (struct statvfs *)buf); }
