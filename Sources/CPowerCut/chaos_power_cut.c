/*
** CPowerCut: undoing a logged change as a power cut would (chaos_power_cut.h).
**
** A reverted entry that had grown the file truncates it back, unless a newer kept
** entry grew it further (then the reverted tail reads as zeros, a hole). TORN decides
** per sector: keep, revert, or garble (the write's part of the sector becomes random
** bytes); a truncate is kept or reverted as a whole. Randomness is drawn in a fixed
** order from the cut's seed, so a seed replays a cut.
*/
#include "chaos_power_cut.h"

#include <errno.h>
#include <stdlib.h>

uint64_t chaos_cut_splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t chaos_cut_below(uint64_t *state, uint64_t bound) {
    if (bound <= 1) return 0;
    __uint128_t product = (__uint128_t)chaos_cut_splitmix64_next(state) * bound;
    if ((uint64_t)product < bound) {
        uint64_t threshold = (0 - bound) % bound;
        while ((uint64_t)product < threshold)
            product = (__uint128_t)chaos_cut_splitmix64_next(state) * bound;
    }
    return (uint64_t)(product >> 64);
}

void chaos_cut_pwrite_all(const chaos_cut_io *io, int fd, const void *buf, int64_t n, int64_t off) {
    const unsigned char *b = buf;
    while (n > 0) {
        ssize_t w = io->pwrite(fd, b, (size_t)n, (off_t)off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        b += w;
        n -= w;
        off += w;
    }
}

static void zero_fill(const chaos_cut_io *io, int fd, int64_t from, int64_t to) {
    static const unsigned char zeros[4096];
    while (from < to) {
        int64_t n = to - from < (int64_t)sizeof(zeros) ? to - from : (int64_t)sizeof(zeros);
        chaos_cut_pwrite_all(io, fd, zeros, n, from);
        from += n;
    }
}

static void garble(const chaos_cut_io *io, int fd, int64_t from, int64_t to, uint64_t *rng) {
    unsigned char bytes[4096];
    while (from < to) {
        int64_t n = to - from < (int64_t)sizeof(bytes) ? to - from : (int64_t)sizeof(bytes);
        for (int64_t i = 0; i < n; i += 8) {
            uint64_t word = chaos_cut_splitmix64_next(rng);
            for (int k = 0; k < 8 && i + k < n; k++) bytes[i + k] = (unsigned char)(word >> (8 * k));
        }
        chaos_cut_pwrite_all(io, fd, bytes, n, from);
        from += n;
    }
}

enum { KEEP = 0, REVERT = 1, GARBLE = 2 };

static int choose(int mode, uint64_t *rng, int choices) {
    if (mode == CHAOS_CUT_DROP) return REVERT;
    if (mode == CHAOS_CUT_KEEP) return KEEP;
    return (int)chaos_cut_below(rng, (uint64_t)choices);
}

void chaos_cut_undo(const chaos_cut_io *io, int fd, const chaos_cut_entry *e, int mode, int sector_size, uint64_t *rng, int64_t *size) {
    if (e->is_truncate) {
        if (choose(mode, rng, 2) != REVERT) return;
        if (e->new_size < e->old_size) { /* shrank: put the cut bytes back */
            if (e->pre) chaos_cut_pwrite_all(io, fd, e->pre, e->pre_len, e->off);
            if (*size < e->old_size) *size = e->old_size;
        } else if (*size == e->new_size) { /* grew: shrink back if nothing newer grew it more */
            if (io->ftruncate(fd, (off_t)e->old_size) == 0) *size = e->old_size;
        }
        return;
    }
    if (e->len <= 0) return;
    const int64_t sector = sector_size > 0 ? sector_size : 512;
    const int64_t end = e->off + e->len;
    int tail_reverted = 1; /* every part past old_size was reverted */
    int any_tail = end > e->old_size;
    /* First pass: decide and apply, sector by sector, in file order. */
    int n = (int)((end - 1) / sector - e->off / sector + 1);
    unsigned char *choices = malloc((size_t)n);
    for (int i = 0; i < n; i++) {
        int64_t s0 = (e->off / sector + i) * sector, s1 = s0 + sector;
        int64_t a = s0 > e->off ? s0 : e->off, b = s1 < end ? s1 : end;
        int c = choose(mode, rng, 3);
        if (choices) choices[i] = (unsigned char)c;
        if (c == KEEP) {
            if (b > e->old_size) tail_reverted = 0;
        } else if (c == REVERT) {
            int64_t pre_end = b < e->off + e->pre_len ? b : e->off + e->pre_len;
            if (pre_end > *size) pre_end = *size;
            if (e->pre && pre_end > a) chaos_cut_pwrite_all(io, fd, e->pre + (a - e->off), pre_end - a, a);
        } else { /* GARBLE: the write's part of the sector, within the file */
            if (b > e->old_size) tail_reverted = 0;
            int64_t g1 = b < *size ? b : *size;
            if (g1 > a) garble(io, fd, a, g1, rng);
        }
    }
    /* Then the size: truncate back, or leave the reverted tail as a hole. */
    if (any_tail && tail_reverted && *size == e->new_size) {
        if (io->ftruncate(fd, (off_t)e->old_size) == 0) *size = e->old_size;
    } else if (any_tail) {
        for (int i = 0; i < n; i++) {
            if (choices ? choices[i] != REVERT : mode != CHAOS_CUT_DROP) continue;
            int64_t s0 = (e->off / sector + i) * sector, s1 = s0 + sector;
            int64_t a = s0 > e->off ? s0 : e->off, b = s1 < end ? s1 : end;
            if (a < e->old_size) a = e->old_size;
            if (b > *size) b = *size;
            if (b > a) zero_fill(io, fd, a, b);
        }
    }
    free(choices);
}

void chaos_cut_moment_start(chaos_cut_moment *m) {
    m->writes = m->syncs = 0;
    chaos_cut_moment_disarm(m);
}

void chaos_cut_moment_disarm(chaos_cut_moment *m) { m->at_sync = m->after_write = 0; }

void chaos_cut_moment_arm(chaos_cut_moment *m, int at_sync, int after_writes, int mode, unsigned long long seed) {
    m->at_sync = at_sync > 0 ? m->syncs + at_sync : 0;
    m->after_write = after_writes > 0 ? m->writes + after_writes : 0;
    m->mode = mode;
    m->seed = seed;
}

int chaos_cut_moment_write(chaos_cut_moment *m) {
    m->writes++;
    return m->after_write && m->writes >= m->after_write;
}

int chaos_cut_moment_sync(chaos_cut_moment *m) {
    m->syncs++;
    return m->at_sync && m->syncs >= m->at_sync;
}

int chaos_cut_sector_size(int requested) {
    return requested >= 512 && requested <= 65536 && (requested & (requested - 1)) == 0 ? requested : 512;
}
