#ifndef CHAOS_TIMERFD_SHIM_H
#define CHAOS_TIMERFD_SHIM_H

// The timerfd preload shim: built as libChaosTimerfdShim.so next to the `chaos`
// executable and listed before libfaketime in a clock case's LD_PRELOAD. Nothing
// links it; see timerfd_shim.c for why it exists.

/// 1: lets a check see that the library in LD_PRELOAD is this shim (dlsym).
int chaos_timerfd_shim_version(void);

#endif
