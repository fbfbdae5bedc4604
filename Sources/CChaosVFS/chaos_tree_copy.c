/*
** CChaosVFS: a folder copied whole (a crash image's starting point, chaos_powerloss.c).
**
** Regular files are copied byte for byte, folders made, symbolic links made again;
** anything else (sockets, fifos) is left out. Nothing is followed out of the folder.
** A file some other thread writes meanwhile is copied as it reads: the power-loss
** simulator takes its images under its lock, so no tracked file moves while it copies.
*/
#include "chaos_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_file(const char *from, const char *to, mode_t mode) {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) return errno == ENOENT ? 0 : -1; /* gone meanwhile: as a crash would find it */
    int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 0777);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buffer[65536];
    int rc = 0;
    for (;;) {
        ssize_t n = read(in, buffer, sizeof(buffer));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            rc = n < 0 ? -1 : 0;
            break;
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, buffer + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                rc = -1;
                break;
            }
            done += w;
        }
        if (rc) break;
    }
    close(in);
    if (close(out) != 0) rc = -1;
    return rc;
}

int chaos_tree_copy(const char *from, const char *to) {
    if (mkdir(to, 0755) != 0 && errno != EEXIST) return -1;
    DIR *dir = opendir(from);
    if (!dir) return errno == ENOENT ? 0 : -1;
    int rc = 0;
    struct dirent *entry;
    while (rc == 0 && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char source[PATH_MAX], target[PATH_MAX];
        if (snprintf(source, sizeof(source), "%s/%s", from, entry->d_name) >= (int)sizeof(source) ||
            snprintf(target, sizeof(target), "%s/%s", to, entry->d_name) >= (int)sizeof(target)) {
            rc = -1;
            break;
        }
        struct stat st;
        if (lstat(source, &st) != 0) continue; /* gone meanwhile */
        if (S_ISDIR(st.st_mode)) {
            rc = chaos_tree_copy(source, target);
        } else if (S_ISREG(st.st_mode)) {
            rc = copy_file(source, target, st.st_mode);
        } else if (S_ISLNK(st.st_mode)) {
            char link[PATH_MAX];
            ssize_t n = readlink(source, link, sizeof(link) - 1);
            if (n >= 0) {
                link[n] = 0;
                if (symlink(link, target) != 0) rc = -1;
            }
        }
    }
    closedir(dir);
    return rc;
}

long long chaos_tree_size(const char *root) {
    DIR *dir = opendir(root);
    if (!dir) return 0;
    long long total = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof(path), "%s/%s", root, entry->d_name) >= (int)sizeof(path)) continue;
        struct stat st;
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) total += chaos_tree_size(path);
        else if (S_ISREG(st.st_mode)) total += (long long)st.st_size;
    }
    closedir(dir);
    return total;
}
