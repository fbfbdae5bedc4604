/* Finding the preloaded libc seam from the worker, which never links it. */
#define _GNU_SOURCE
#include "chaos_libc_seam.h"

#include <dlfcn.h>
#include <stddef.h>

const chaos_libc_seam *chaos_libc_seam_find(void) {
    const chaos_libc_seam *(*get)(void) = (const chaos_libc_seam *(*)(void))dlsym(RTLD_DEFAULT, "chaos_libc_seam_get");
    if (!get) return NULL;
    const chaos_libc_seam *seam = get();
    return seam && seam->version == CHAOS_LIBC_SEAM_VERSION ? seam : NULL;
}
