/*
** CSeamCalls: the table of the calls a seam carried out (chaos_seam_calls.h).
**
** Method: a fixed array searched from the start, guarded by a spin flag tried a bounded
** number of times (yielding between tries). Linear search is right at this size: a case
** touches a few files with a few operations, and an entry once found stays put. An entry
** is compared by its operation, result, length and last 8 bytes before its whole path:
** the paths of one data folder share a long start and differ at the end.
*/
#define _GNU_SOURCE
#include "chaos_seam_calls.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

enum { TRIES = 1000 };

static int acquire(chaos_seam_calls *calls) {
    for (int i = 0; i < TRIES; i++) {
        if (!atomic_flag_test_and_set_explicit(&calls->busy, memory_order_acquire)) return 1;
        sched_yield();
    }
    return 0;
}

static void release(chaos_seam_calls *calls) { atomic_flag_clear_explicit(&calls->busy, memory_order_release); }

/* The last (up to) 8 bytes of the first `length` of `name`. */
static uint64_t tail_of(const char *name, int length) {
    uint64_t tail = 0;
    int from = length > 8 ? length - 8 : 0;
    memcpy(&tail, name + from, (size_t)(length - from));
    return tail;
}

void chaos_seam_calls_note(chaos_seam_calls *calls, int op, const char *file, int result) {
    const char *name = file ? file : "";
    int length = (int)strnlen(name, CHAOS_SEAM_CALLS_PATH - 1);
    uint64_t tail = tail_of(name, length);
    if (!acquire(calls)) {
        atomic_fetch_add_explicit(&calls->dropped, 1, memory_order_relaxed);
        return;
    }
    chaos_seam_call *found = NULL;
    for (int i = 0; i < calls->used && !found; i++) {
        chaos_seam_call *e = &calls->entries[i];
        if (e->op == op && e->result == result && e->length == length && e->tail == tail && !memcmp(e->file, name, (size_t)length)) found = e;
    }
    if (!found && calls->used < CHAOS_SEAM_CALLS_MAX) {
        found = &calls->entries[calls->used++];
        found->op = op;
        found->result = result;
        found->count = 0;
        found->length = length;
        found->tail = tail;
        memcpy(found->file, name, (size_t)length);
        found->file[length] = '\0';
    }
    if (found) found->count++;
    else atomic_fetch_add_explicit(&calls->dropped, 1, memory_order_relaxed);
    release(calls);
}

int chaos_seam_calls_take(chaos_seam_calls *calls, char *buffer, int capacity) {
    if (capacity <= 0) return 0;
    buffer[0] = '\0';
    if (!acquire(calls)) return 0;
    int used = 0, lines = 0, kept = 0;
    for (int i = 0; i < calls->used; i++) {
        chaos_seam_call *e = &calls->entries[i];
        int n = used < 0 ? -1 : snprintf(buffer + used, (size_t)(capacity - used), "%d %d %lld %s\n", e->op, e->result,
                                          (long long)e->count, e->file);
        if (n < 0 || used + n >= capacity) {
            /* No room: it waits for the next take, where it was. */
            if (used >= 0) buffer[used] = '\0';
            used = -1;
            if (kept != i) calls->entries[kept] = *e;
            kept++;
            continue;
        }
        used += n;
        lines++;
    }
    calls->used = kept;
    int64_t dropped = atomic_load_explicit(&calls->dropped, memory_order_relaxed);
    if (used >= 0 && dropped > calls->dropped_told) {
        int n = snprintf(buffer + used, (size_t)(capacity - used), "dropped %lld\n", (long long)(dropped - calls->dropped_told));
        if (n >= 0 && used + n < capacity) {
            calls->dropped_told = dropped;
            lines++;
        } else {
            buffer[used] = '\0';
        }
    }
    release(calls);
    return lines;
}

void chaos_seam_calls_reset(chaos_seam_calls *calls) {
    if (!acquire(calls)) return;
    calls->used = 0;
    atomic_store_explicit(&calls->dropped, 0, memory_order_relaxed);
    calls->dropped_told = 0;
    release(calls);
}
