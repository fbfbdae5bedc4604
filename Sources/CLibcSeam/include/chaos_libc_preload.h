#ifndef CHAOS_LIBC_PRELOAD_H
#define CHAOS_LIBC_PRELOAD_H
/*
** The libc seam, as a library: built as libChaosLibcSeam.so next to the `chaos`
** executable and preloaded into workers (LD_PRELOAD). Nothing links it; the worker
** drives it through the table in chaos_libc_seam.h (CLibcSeamAPI).
*/
#include "chaos_libc_seam.h"

#endif
