/* Which of libvips's modules gallery loads.
 *
 * libvips loads every module in its libdir's vips-modules-X.Y when it starts: on Debian 12
 * ImageMagick, poppler (PDF), OpenSlide, JPEG XL and HEIF, with the libraries each pulls in,
 * 12 ms of the 13 that vips_init takes, on the path of every cold build's first thumbnail.
 * gallery reads JPEG, PNG, WebP, GIF and SVG (all in libvips itself) and writes AVIF through the
 * HEIF module alone. So, unless the user set VIPSHOME, the executable points it at a folder
 * that is not there before anything starts (libvips then finds no modules), and the HEIF module
 * is loaded here, by its path beside libvips, the first time an AVIF is written. A hostile
 * cover cannot reach ImageMagick's or poppler's decoders either. */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GALLERY_VIPSHOME "/nonexistent/gallery-loads-the-libvips-modules-it-uses"

void gallery_vips_load_only_used_modules(void) {
    if (getenv("VIPSHOME") == NULL) setenv("VIPSHOME", GALLERY_VIPSHOME, 1);
}

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

static void load_heif(void) {
    const char *home = getenv("VIPSHOME");
    /* libvips loaded its modules itself (the user's VIPSHOME, or a test process). */
    if (home == NULL || strcmp(home, GALLERY_VIPSHOME) != 0) return;
    const char *file = gallery_vips_library_file();
    int version = gallery_vips_version();
    if (file == NULL || version == 0) return;
    char folder[1024];
    snprintf(folder, sizeof folder, "%s", file);
    char *slash = strrchr(folder, '/');
    if (slash == NULL) return;
    *slash = '\0';
    char path[1200];
    snprintf(path, sizeof path, "%s/vips-modules-%d.%d/vips-heif.so", folder, version / 10000, version / 100 % 100);
    void *vips = dlopen(file, RTLD_LAZY | RTLD_NOLOAD);
    if (vips == NULL) return;
    /* GModule's, as libvips opens its modules: it calls the module's g_module_check_init, which
       registers heifload and heifsave. G_MODULE_BIND_LAZY is 1. */
    void *(*open_module)(const char *, int) = (void *(*)(const char *, int))dlsym(vips, "g_module_open");
    if (open_module != NULL) (void)open_module(path, 1);
    dlclose(vips);
}

void gallery_vips_load_heif(void) {
    pthread_once(&heif_once, load_heif);
}
