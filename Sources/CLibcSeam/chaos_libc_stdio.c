/*
** CLibcSeam: stdio streams on files under the scope.
**
** Method:
**
**   glibc's stdio opens and writes inside libc: fopen calls its own open, and
**   fwrite, fputs, fprintf and fflush reach the file through its own write, never
**   through the PLT, so a preload that wraps open and write sees none of it
**   (measured with strace and the seam's counters: a fopen "w" + fputs + fflush +
**   fclose of a file under the scope was 0 opens and 0 writes). Wrapping every
**   stdio writer (fputc, putc, fprintf, vfprintf, fwrite_unlocked...) would still
**   miss when a buffer fills, and the FILE's own table of functions cannot be
**   replaced (glibc checks it). So a stream on a file under the scope is made here:
**
**   - fopen, fopen64: the mode is turned into open flags as glibc does ("w":
**     O_WRONLY|O_CREAT|O_TRUNC, "a": O_APPEND, '+', 'x': O_EXCL, 'e': O_CLOEXEC),
**     the file is opened through the seam's own open (asked as an OPEN, failable,
**     its create or truncation tracked by the crash simulator), and the stream is
**     a cookie stream (fopencookie) on that descriptor: its buffer reaches the
**     file through the seam's read, write and lseek, so a write is seen, failable
**     and tracked at the moment it reaches the file: fflush, fclose, a full
**     buffer, exit. A write the hook fails fails that fflush or fclose, as a full
**     disk fails it (the buffer's bytes are dropped, as glibc drops them).
**   - fileno of such a stream: a cookie stream's is -1, and an app that syncs with
**     fsync(fileno(f)) would sync nothing. The stream's _fileno is set to its
**     descriptor, so fileno answers it; glibc reads _fileno of a cookie stream only
**     to tell it open (-1 means closed), and every call on it goes through the
**     cookie functions. fclose closes the descriptor through the seam's close.
**   - fdopen of a descriptor under the scope: a cookie stream on it (EINVAL for a
**     mode the descriptor's access forbids, O_APPEND set for "a", as glibc does).
**   - freopen, freopen64 onto a file under the scope: the open goes through the
**     seam (seen, failable: a refused one returns NULL and leaves the stream as it
**     was), then glibc reopens the stream on that file (/proc/self/fd/N). The
**     stream stays glibc's own (freopen must return the same FILE, often stdout),
**     so its writes are not seen; fsync(fileno(f)) is.
**   - A mode with ",ccs=" (a wide stream, which a cookie stream cannot be) and
**     streams outside the scope go straight to glibc.
**
**   Measured with strace: the same system calls as glibc's own stream (openat,
**   one write per flush, fsync, close), plus the seam's readlinks; glibc sizes a
**   cookie stream's buffer BUFSIZ (8 KiB) where a file's is st_blksize (4 KiB),
**   so a stream that overflows its buffer writes in larger pieces.
*/
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE
#include "chaos_libc_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* The cookie is the descriptor itself. Each function calls the seam's own wrapper
 * (read, write, lseek, close: not REAL), so the stream's I/O is the app's. */
#define COOKIE_FD(cookie) ((int)(intptr_t)(cookie))

static ssize_t cookie_read(void *cookie, char *buf, size_t n) { return read(COOKIE_FD(cookie), buf, n); }

/* All of it, as glibc's own file write loops: a short write is retried. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(COOKIE_FD(cookie), buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += (size_t)w;
    }
    return done > 0 || n == 0 ? (ssize_t)done : -1;
}

static int cookie_seek(void *cookie, off64_t *at, int whence) {
    off64_t r = lseek(COOKIE_FD(cookie), *at, whence);
    if (r < 0) return -1;
    *at = r;
    return 0;
}

static int cookie_close(void *cookie) { return close(COOKIE_FD(cookie)); }

static FILE *cookie_stream(int fd, const char *mode) {
    cookie_io_functions_t io = {cookie_read, cookie_write, cookie_seek, cookie_close};
    FILE *f = fopencookie((void *)(intptr_t)fd, mode, io);
    if (f) f->_fileno = fd; /* fileno(f) answers fd; see Method */
    return f;
}

/* fopen's mode as open flags, as glibc reads it (the first letter, then up to six
 * of "+xebmc"), and the mode fopencookie takes ("r", "w+"...). -1: a mode the seam
 * leaves to glibc (an invalid one, which glibc refuses itself, or a wide ",ccs=").*/
static int mode_flags(const char *mode, char cookie_mode[3]) {
    int flags;
    switch (mode[0]) {
    case 'r': flags = O_RDONLY; break;
    case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; break;
    case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; break;
    default: return -1;
    }
    int plus = 0;
    for (int i = 1; i < 7 && mode[i]; i++) {
        switch (mode[i]) {
        case '+': plus = 1; break;
        case 'x': flags |= O_EXCL; break;
        case 'e': flags |= O_CLOEXEC; break;
        case ',': return -1;
        default: break; /* 'b', 'm', 'c': nothing a cookie stream needs */
        }
    }
    if (plus) flags = (flags & ~O_ACCMODE) | O_RDWR;
    cookie_mode[0] = mode[0];
    cookie_mode[1] = plus ? '+' : '\0';
    cookie_mode[2] = '\0';
    return flags;
}

/* The canonical path of `path` if it is under the scope. */
static int scoped(const char *path, char canon[PATH_MAX]) {
    if (!CHAOS_LOOKING() || !path) return 0;
    return chaos_libc_resolve_at(AT_FDCWD, path, canon) == 0 && chaos_libc_scope_holds(canon);
}

static FILE *seam_fopen(const char *path, const char *mode) {
    char canon[PATH_MAX], cookie_mode[3];
    int flags = mode ? mode_flags(mode, cookie_mode) : -1;
    if (flags < 0 || !scoped(path, canon)) return REAL(fopen)(path, mode);
    int fd = chaos_libc_openat(AT_FDCWD, path, flags, 0666);
    if (fd < 0) return NULL;
    FILE *f = cookie_stream(fd, cookie_mode);
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

FILE *fopen(const char *path, const char *mode) { return seam_fopen(path, mode); }
FILE *fopen64(const char *path, const char *mode) { return seam_fopen(path, mode); }

FILE *fdopen(int fd, const char *mode) {
    char path[PATH_MAX], cookie_mode[3];
    int flags = mode ? mode_flags(mode, cookie_mode) : -1;
    if (flags < 0 || !chaos_libc_looks_at(fd)) return REAL(fdopen)(fd, mode);
    chaos_libc_depth++;
    int in = chaos_libc_fd_in_scope(fd, path);
    chaos_libc_depth--;
    if (!in) return REAL(fdopen)(fd, mode);
    int have = fcntl(fd, F_GETFL);
    if (have < 0) return NULL; /* EBADF */
    int want = flags & O_ACCMODE, access = have & O_ACCMODE;
    if ((want != O_WRONLY && access == O_WRONLY) || (want != O_RDONLY && access == O_RDONLY)) {
        errno = EINVAL;
        return NULL;
    }
    if ((flags & O_APPEND) && !(have & O_APPEND) && fcntl(fd, F_SETFL, have | O_APPEND) < 0) return NULL;
    return cookie_stream(fd, cookie_mode);
}

static FILE *seam_freopen(const char *path, const char *mode, FILE *stream) {
    char canon[PATH_MAX], cookie_mode[3];
    int flags = mode ? mode_flags(mode, cookie_mode) : -1;
    if (flags < 0 || !scoped(path, canon)) return REAL(freopen)(path, mode, stream);
    int fd = chaos_libc_openat(AT_FDCWD, path, flags, 0666);
    if (fd < 0) return NULL;
    /* The file exists now, created or truncated already: reopened without 'x'. */
    char again[8], link[32];
    size_t k = 0;
    for (size_t i = 0; mode[i] && k < sizeof again - 1; i++)
        if (mode[i] != 'x') again[k++] = mode[i];
    again[k] = '\0';
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    FILE *f = REAL(freopen)(link, again, stream);
    int e = errno;
    close(fd);
    errno = e;
    return f;
}

FILE *freopen(const char *path, const char *mode, FILE *stream) { return seam_freopen(path, mode, stream); }
FILE *freopen64(const char *path, const char *mode, FILE *stream) { return seam_freopen(path, mode, stream); }
