// A preload that keeps timers real under libfaketime.
//
// Method: libfaketime 0.9.10 wraps timerfd_settime and timerfd_gettime and shifts
// the absolute deadlines it is given by the fake clock's offset (by years when it
// also fakes the monotonic clock). libdispatch arms every Task.sleep, asyncAfter and
// timer source as an absolute CLOCK_MONOTONIC deadline on a timerfd, so a Swift
// program under libfaketime sleeps for ever, or not at all. Listed before
// libfaketime in LD_PRELOAD, these two definitions are found first and go straight
// to the kernel: timers stay real while the wall clock (Date, gettimeofday,
// SQLite's datetime('now')) follows the fake one. Together with
// FAKETIME_DONT_FAKE_MONOTONIC=1, ContinuousClock stays real too.
//
// Mechanism only, no policy: nothing here reads the environment or keeps state.
// Related: wolfcw/libfaketime issues #378 and #320 (absolute monotonic timerfds).

#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "timerfd_shim.h"

int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
    return (int)syscall(SYS_timerfd_settime, fd, flags, new_value, old_value);
}

int timerfd_gettime(int fd, struct itimerspec *curr_value) {
    return (int)syscall(SYS_timerfd_gettime, fd, curr_value);
}

int chaos_timerfd_shim_version(void) {
    return 1;
}
