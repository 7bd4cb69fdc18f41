/* gallery_name_thread(), gallery_lower_thread_priority() and gallery_thread_priority(): see
 * vips_shim.h. In C because Swift's Glibc module has neither gettid nor pthread_setname_np (both
 * need _GNU_SOURCE). */
#define _GNU_SOURCE
#include "vips_shim.h"
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

void gallery_name_thread(const char *name) {
#ifdef __linux__
    pthread_setname_np(pthread_self(), name);
#else
    (void)name;
#endif
}

int gallery_lower_thread_priority(int nice) {
#ifdef __linux__
    /* On Linux a nice value belongs to one thread: PRIO_PROCESS with a thread id sets it alone.
     * Only ever lower: under `nice -n 15 gallery build` (as root, which may raise) the thread
     * stays at 15. */
    id_t thread = (id_t)gettid();
    errno = 0;
    int current = getpriority(PRIO_PROCESS, thread);
    if (errno != 0) return -1;
    if (current >= nice) return 0;
    return setpriority(PRIO_PROCESS, thread, nice);
#else
    (void)nice;
    return -1;
#endif
}

int gallery_thread_priority(void) {
#ifdef __linux__
    return getpriority(PRIO_PROCESS, (id_t)gettid());
#else
    return 0;
#endif
}
