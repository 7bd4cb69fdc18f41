/* gallery_tune_allocator(): see vips_shim.h. In this target as the project's only C code. */
#include "vips_shim.h"
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void gallery_tune_allocator(void) {
#ifdef __GLIBC__
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables != NULL && strstr(tunables, "glibc.malloc") != NULL) return;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

void gallery_release_freed_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
