#define _GNU_SOURCE
#include "chaos_trap_sites.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_SITES 512
#define KEY_FRAMES 10

static uint64_t sites[MAX_SITES];
static int site_count;
static char executable[4096];
static size_t executable_length;
static struct sigaction previous_ill, previous_trap;
/// The thread whose trap is being handled: the first to trap. 0 until one does.
static long trapping_thread;

static uintptr_t trap_address(void *context) {
    ucontext_t *state = context;
#if defined(__x86_64__)
    return (uintptr_t)state->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)state->uc_mcontext.pc;
#else
    (void)state;
    return 0;
#endif
}

static uint64_t mix(uint64_t hash, uint64_t value) {
    for (int i = 0; i < 8; i++) {
        hash ^= (value >> (8 * i)) & 0xff;
        hash *= 1099511628211ULL;
    }
    return hash;
}

/// The trap's key: the trapping instruction and the calls that led to it (up to
/// KEY_FRAMES), each as its offset in its image and the image's name, so a forked and a
/// spawned worker of one executable give the same key. The same instruction reached
/// from other callers (a `fatalError` inside the runtime) is another key.
static uint64_t trap_key(uintptr_t address) {
    void *frames[KEY_FRAMES + 8];
    int count = backtrace(frames, KEY_FRAMES + 8);
    int first = 0;
    while (first < count && (uintptr_t)frames[first] != address) first++;
    if (first == count) { frames[0] = (void *)address; first = 0; count = 1; }
    uint64_t hash = 14695981039346656037ULL;
    for (int i = first; i < count && i < first + KEY_FRAMES; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fbase) {
            hash = mix(hash, (uintptr_t)frames[i] - (uintptr_t)info.dli_fbase);
            const char *name = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
            for (const char *c = name ? name + 1 : (info.dli_fname ? info.dli_fname : ""); *c; c++) {
                hash ^= (unsigned char)*c;
                hash *= 1099511628211ULL;
            }
        } else {
            hash = mix(hash, (uintptr_t)frames[i]);
        }
    }
    return hash;
}

static size_t append(char *line, size_t length, const char *text) {
    for (const char *c = text; *c; c++) line[length++] = *c;
    return length;
}

static size_t append_hex(char *line, size_t length, uint64_t value) {
    char digits[16];
    int count = 0;
    do { digits[count++] = "0123456789abcdef"[value & 0xf]; value >>= 4; } while (value && count < 16);
    while (count) line[length++] = digits[--count];
    return length;
}

/// One line, one write: `chaos: trap: key K in EXE`, or the known-site line. Small on
/// the stack: the handler may run on the runtime's alternate stack (24 KiB), before the
/// runtime's own handler runs on it.
static void say(const char *marker, int signal, uint64_t key) {
    char head[128];
    size_t length = append(head, 0, marker);
    if (signal) {
        length = append(head, length, "signal ");
        if (signal >= 10) head[length++] = (char)('0' + signal / 10);
        head[length++] = (char)('0' + signal % 10);
        head[length++] = ' ';
    }
    length = append(head, length, "key ");
    length = append_hex(head, length, key);
    length = append(head, length, " in ");
    struct iovec parts[3] = {
        { .iov_base = head, .iov_len = length },
        { .iov_base = executable, .iov_len = executable_length },
        { .iov_base = "\n", .iov_len = 1 },
    };
    ssize_t ignored = writev(2, parts, 3);
    (void)ignored;
}

static void handler(int signal, siginfo_t *info, void *context) {
    // The first trap is the one the process ends with. A second thread that traps while
    // the first is being handled (a connection's `deinit` asserting on a pool thread as
    // the main thread's `fatalError` is being unwound) must not end the process before
    // the first trap's backtrace is written: it waits for the first to end it.
    long self = syscall(SYS_gettid);
    long expected = 0;
    if (!__atomic_compare_exchange_n(&trapping_thread, &expected, self, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
        && expected != self) {
        for (;;) pause();
    }
    uint64_t key = trap_key(trap_address(context));
    struct sigaction *previous = signal == SIGILL ? &previous_ill : &previous_trap;
    for (int i = 0; i < site_count; i++) {
        if (sites[i] != key) continue;
        say(CHAOS_TRAP_SITES_MARKER, signal, key);
        // Returning runs the trapping instruction again, now under the default action:
        // the process ends by the same signal, as it would have.
        struct sigaction plain;
        memset(&plain, 0, sizeof plain);
        plain.sa_handler = SIG_DFL;
        sigaction(signal, &plain, NULL);
        return;
    }
    say(CHAOS_TRAP_KEY_MARKER, 0, key);
    if (previous->sa_flags & SA_SIGINFO) {
        previous->sa_sigaction(signal, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal);
    } else {
        sigaction(signal, previous, NULL);
    }
}

int chaos_trap_sites_handling(void) {
    return __atomic_load_n(&trapping_thread, __ATOMIC_SEQ_CST) != 0;
}

int chaos_trap_sites_install(const char *keys) {
#if !defined(__x86_64__) && !defined(__aarch64__)
    (void)keys;
    return -1;
#else
    site_count = 0;
    for (const char *cursor = keys ? keys : ""; *cursor && site_count < MAX_SITES;) {
        char *end = NULL;
        unsigned long long value = strtoull(cursor, &end, 16);
        if (end == cursor) break;
        sites[site_count++] = value;
        if (*end != ',') break;
        cursor = end + 1;
    }
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return -1;
    executable_length = (size_t)length;
    // backtrace() loads the unwinder on its first call: never first in the handler.
    void *warm[2];
    backtrace(warm, 2);
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = handler;
    if (sigaction(SIGILL, NULL, &previous_ill) != 0 || sigaction(SIGTRAP, NULL, &previous_trap) != 0) return -1;
    // As the handler in place was installed (its stack, its mask), plus siginfo.
    ours.sa_flags = previous_ill.sa_flags | SA_SIGINFO;
    ours.sa_mask = previous_ill.sa_mask;
    if (sigaction(SIGILL, &ours, NULL) != 0) return -1;
    ours.sa_flags = previous_trap.sa_flags | SA_SIGINFO;
    ours.sa_mask = previous_trap.sa_mask;
    if (sigaction(SIGTRAP, &ours, NULL) != 0) return -1;
    return site_count;
#endif
}
