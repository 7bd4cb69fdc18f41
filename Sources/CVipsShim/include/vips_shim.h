#ifndef GALLERY_VIPS_SHIM_H
#define GALLERY_VIPS_SHIM_H

#include <stddef.h>

/* Non-variadic wrappers around libvips calls that Swift cannot make (C variadics).
   Filled in by the thumbnailer; every function returns 0 on success and -1 on failure,
   leaving libvips's error buffer for gallery_vips_error(). */

/// Starts libvips once; returns 0 on success.
int gallery_vips_init(void);

/// The text of libvips's error buffer, cleared after reading. The caller frees it with g_free.
char *gallery_vips_error(void);

#endif
