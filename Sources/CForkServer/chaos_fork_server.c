// The fork server's mechanism: see include/chaos_fork_server.h.
#define _GNU_SOURCE
#include "chaos_fork_server.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MESSAGE_MAX 65536

int chaos_fork_server_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

static void reply(int sock, const char *text) {
    while (send(sock, text, strlen(text), MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

/// Reaps every child that has ended and tells the controller how each ended.
static void report_exits(int sock) {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        char line[64];
        snprintf(line, sizeof line, "exit %d %d", (int)pid, status);
        reply(sock, line);
    }
}

/// Splits "STDERR\0ARG\0ARG\0" into the stderr path and a NULL-terminated argv.
static char **split(const char *data, size_t length, const char **stderr_path, int *argc) {
    size_t count = 0;
    for (size_t i = 0; i < length; i++) if (data[i] == '\0') count++;
    if (count == 0) return NULL;
    char **argv = calloc(count + 1, sizeof(char *));
    if (!argv) return NULL;
    const char *start = data;
    *stderr_path = start;
    start += strlen(start) + 1;
    int n = 0;
    while ((size_t)(start - data) < length) {
        argv[n++] = strdup(start);
        start += strlen(start) + 1;
    }
    argv[n] = NULL;
    *argc = n;
    return argv;
}

/// One spawn order: receive it, fork. Returns 1 in the child (argv set), 0 in the
/// server when it went on, -1 when the socket is closed or broken.
static int serve_one(int sock, int signals, const sigset_t *previous, char ***argv_out, int *argc_out) {
    char data[MESSAGE_MAX];
    char control[CMSG_SPACE(2 * sizeof(int))];
    struct iovec vector = { .iov_base = data, .iov_len = sizeof data - 1 };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    ssize_t received = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return errno == EINTR ? 0 : -1;
    if (received == 0) return -1;
    data[received] = '\0';
    int fds[2] = { -1, -1 };
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS && header->cmsg_len == CMSG_LEN(2 * sizeof(int))) {
            memcpy(fds, CMSG_DATA(header), 2 * sizeof(int));
        }
    }
    const char *stderr_path = NULL;
    int argc = 0;
    char **argv = split(data, (size_t)received, &stderr_path, &argc);
    char line[64];
    if (fds[0] < 0 || fds[1] < 0 || !argv) {
        snprintf(line, sizeof line, "failed %d", EINVAL);
    } else if (chaos_fork_server_thread_count() != 1) {
        snprintf(line, sizeof line, "failed %d", EBUSY);  // forking a threaded process is not safe
    } else {
        int err = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        pid_t pid = err < 0 ? -1 : fork();
        if (pid == 0) {
            // A session of its own, as a spawned worker has: what it starts and leaves
            // behind is found by session as well as by group.
            setsid();
            close(sock);
            close(signals);
            dup2(fds[0], 0);
            dup2(fds[1], 1);
            dup2(err, 2);
            close(fds[0]);
            close(fds[1]);
            close(err);
            sigprocmask(SIG_SETMASK, previous, NULL);
            *argv_out = argv;
            *argc_out = argc;
            return 1;
        }
        snprintf(line, sizeof line, pid > 0 ? "spawned %d" : "failed %d", pid > 0 ? (int)pid : errno);
        if (err >= 0) close(err);
    }
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
    if (argv) {
        for (int i = 0; i < argc; i++) free(argv[i]);
        free(argv);
    }
    reply(sock, line);
    return 0;
}

int chaos_fork_server_serve(int sock, char ***argv_out, int *argc_out) {
    sigset_t children, previous;
    sigemptyset(&children);
    sigaddset(&children, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &children, &previous) != 0) return -1;
    int signals = signalfd(-1, &children, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signals < 0) return -1;
    reply(sock, "ready");
    for (;;) {
        struct pollfd watched[2] = { { .fd = sock, .events = POLLIN }, { .fd = signals, .events = POLLIN } };
        if (poll(watched, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (watched[1].revents & POLLIN) {
            struct signalfd_siginfo info;
            while (read(signals, &info, sizeof info) == sizeof info) {}
            report_exits(sock);
        }
        if (watched[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            int outcome = serve_one(sock, signals, &previous, argv_out, argc_out);
            if (outcome == 1) return 0;
            if (outcome < 0) break;
        }
    }
    close(signals);
    return -1;
}

int chaos_fork_server_send(int sock, const void *data, size_t length, int fd_in, int fd_out) {
    char control[CMSG_SPACE(2 * sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec vector = { .iov_base = (void *)data, .iov_len = length };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(2 * sizeof(int));
    int fds[2] = { fd_in, fd_out };
    memcpy(CMSG_DATA(header), fds, sizeof fds);
    while (sendmsg(sock, &message, MSG_NOSIGNAL) < 0) {
        if (errno != EINTR) return errno;
    }
    return 0;
}
