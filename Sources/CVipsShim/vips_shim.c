#define _GNU_SOURCE /* dladdr */
#include "vips_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vips_symbols.h"

#define GALLERY_DEFINE(name) __typeof__(gallery_p_##name) gallery_p_##name;
GALLERY_VIPS_SYMBOLS(GALLERY_DEFINE)
#undef GALLERY_DEFINE

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = -1;
/* Set (with release order) once libvips has started, for callers that must not start it. */
static int vips_running = 0;
static int library_loaded = 0;
/* Why libvips could not be loaded, for gallery_vips_error(). */
static char load_error[512];
/* The file libvips was loaded from (set once, while loading). */
static char library_file[1024];
/* Its handle, for the libraries it loads (svg_webp.c). */
static void *library_handle;

const char *gallery_vips_load_advice(const char *reason) {
    if (reason == NULL || strstr(reason, "No such file") != NULL) return "install it (apt-get install libvips42)";
    /* Under `ulimit -v` or a container's memory limit the library is there, but cannot be mapped. */
    if (strstr(reason, "failed to map segment") != NULL || strstr(reason, "Cannot allocate memory") != NULL)
        return "the process is out of memory or address space (a ulimit -v, or a container's memory limit): raise the limit";
    return "reinstall it (apt-get install --reinstall libvips42)";
}

/* Opens libvips: $GALLERY_LIBVIPS if set, else the soname these headers were written for. */
static int load_vips(void) {
    char soname[64];
    snprintf(soname, sizeof soname, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    const char *override = getenv("GALLERY_LIBVIPS");
    const char *name = override != NULL && override[0] != '\0' ? override : soname;
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        if (name == override) {
            snprintf(load_error, sizeof load_error, "cannot load libvips from GALLERY_LIBVIPS (%s): %s; point it at a libvips.so, or unset it to use the system's",
                     name, reason != NULL ? reason : "unknown error");
        } else {
            snprintf(load_error, sizeof load_error, "cannot load libvips (%s): %s; %s",
                     name, reason != NULL ? reason : "unknown error", gallery_vips_load_advice(reason));
        }
        return -1;
    }
#define GALLERY_LOAD(symbol) \
    gallery_p_##symbol = (__typeof__(gallery_p_##symbol))dlsym(library, #symbol); \
    if (gallery_p_##symbol == NULL) { \
        snprintf(load_error, sizeof load_error, "cannot use libvips (%s): it has no %s", name, #symbol); \
        return -1; \
    }
    GALLERY_VIPS_SYMBOLS(GALLERY_LOAD)
#undef GALLERY_LOAD
    Dl_info info;
    if (dladdr((void *)gallery_p_vips_init, &info) != 0 && info.dli_fname != NULL) {
        snprintf(library_file, sizeof library_file, "%s", info.dli_fname);
    }
    library_handle = library;
    library_loaded = 1;
    return 0;
}

/* libvips keeps one error buffer for the whole process: with thumbnails made on several threads,
   a failing call could read another's error along with its own, or find its own already taken.
   So calls run under the shared side of this lock, and a call that fails runs again alone, under
   the exclusive side, and keeps the errors of that run, its own, for its thread. (A damaged
   cover fails the same way twice; a call that succeeds the second time just succeeds.) Writers
   are preferred, so a failure is not starved by the calls that keep starting. */
static pthread_rwlock_t calls_lock;
static __thread char *thread_error;

static void start_calls_lock(void) {
    pthread_rwlockattr_t attributes;
    pthread_rwlockattr_init(&attributes);
    pthread_rwlockattr_setkind_np(&attributes, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&calls_lock, &attributes);
    pthread_rwlockattr_destroy(&attributes);
}

/* Runs CALL (an int expression, 0 on success) as described above; with libvips started. */
#define GALLERY_ATTRIBUTED(CALL) \
    do { \
        if (gallery_vips_init() != 0) return -1; \
        pthread_rwlock_rdlock(&calls_lock); \
        int gallery_result = (CALL); \
        pthread_rwlock_unlock(&calls_lock); \
        if (gallery_result != -1) return gallery_result; /* done, or -2: no loader, no text */ \
        pthread_rwlock_wrlock(&calls_lock); \
        vips_error_clear(); \
        gallery_result = (CALL); \
        if (gallery_result != 0) { \
            g_free(thread_error); \
            thread_error = vips_error_buffer_copy(); \
        } \
        pthread_rwlock_unlock(&calls_lock); \
        return gallery_result; \
    } while (0)

/* libvips's warnings (a damaged chunk, a short read) would go to stderr; the failure they lead to
   reaches the caller through the error buffer instead. */
static void ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/* Whether libvips's JPEG loader, closing on this thread, said libjpeg had warned ("read gave 1
   warnings"): see jpeg_warned_late(). */
static _Thread_local int jpeg_read_warned = 0;

static void libvips_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)data;
    if (message != NULL && strncmp(message, "read gave ", 10) == 0) jpeg_read_warned = 1;
}

/* Whether a JPEG read with fail_on=warning warned where libvips 8.14 no longer looks: its loader
   checks for warnings before each strip of 8 rows it reads, so one that first comes in the last
   strip (damage that libjpeg-turbo reads past silently until its buffer runs low near the end,
   "premature end of data segment") let a thumbnail through, its lower part garbled. The loader
   does say so as it closes, in a log message, which is how it is seen here: the thumbnail then
   fails with a message that sends the caller to its own reading of the whole file (Thumbnailer's
   wholeDespiteWarnings, jpeg_scan.c), which tells lost scan data from harmless bytes. */
static int jpeg_warned_late(int jpeg_warnings_pass) {
    if (jpeg_warnings_pass || !jpeg_read_warned) return 0;
    vips_error("VipsJpeg", "%s", "libjpeg warned while reading the image's last rows");
    return 1;
}

static void start_vips(void) {
    start_calls_lock();
    if (load_vips() != 0) return;
    init_result = VIPS_INIT("gallery");
    if (init_result == 0) {
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, libvips_log, NULL);
        /* And GObject's, which libvips's loaders set off with a cover's own numbers (an SVG whose
           viewBox is 100000000 wide: "value is invalid or out of range for property 'width'"),
           printed amid the build's output without naming the cover; the thumbnail is made. */
        g_log_set_handler("GLib-GObject", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, ignore_log, NULL);
        vips_cache_set_max(0);
        vips_concurrency_set(1);
        /* No orc: libvips compiles orc programs as it builds resize operations and frees them as it
           disposes of them, and orc (0.4.33, Debian 12, among others) splits and merges its code
           memory outside its lock. Thumbnails made on two threads at once then corrupt the heap:
           a cold build of 500 covers crashed about one time in thirty, and 3000 small covers on
           four threads every time. libvips's plain C paths are about 13 % slower here. libvips
           8.15 and later use no orc: there the same switch turns off Highway's thread-safe SIMD
           paths, so it is left on. */
        if (vips_version(0) == 8 && vips_version(1) < 15) vips_vector_set_enabled(0);
        __atomic_store_n(&vips_running, 1, __ATOMIC_RELEASE);
    }
}

int gallery_vips_init(void) {
    pthread_once(&init_once, start_vips);
    return init_result;
}

void gallery_vips_thread_shutdown(void) {
    /* Only once libvips is running: a thread that never made a thumbnail has nothing to free,
       and must not load libvips to say so. */
    if (__atomic_load_n(&vips_running, __ATOMIC_ACQUIRE)) {
        g_free(thread_error);
        thread_error = NULL;
        vips_thread_shutdown();
    }
}

const char *gallery_vips_library_file(void) {
    if (gallery_vips_init() != 0) return NULL;
    return library_file[0] != '\0' ? library_file : NULL;
}

int gallery_vips_version(void) {
    if (gallery_vips_init() != 0) return 0;
    return vips_version(0) * 10000 + vips_version(1) * 100 + vips_version(2);
}

int gallery_vips_vectorised(void) {
    return gallery_vips_init() == 0 && vips_vector_isenabled() ? 1 : 0;
}

char *gallery_vips_error(void) {
    if (!library_loaded) return strdup(load_error[0] != '\0' ? load_error : "libvips is not loaded");
    if (thread_error != NULL) {
        char *text = thread_error;
        thread_error = NULL;
        return text;
    }
    /* Read and cleared in one step, under libvips's lock: the buffer is the whole process's, and
       another thread's error must not land between the two and be cleared unread. */
    return vips_error_buffer_copy();
}

/* For svg_webp.c: the libvips handle once libvips has started (NULL before, or if it could
   not), and a buffer that gallery_vips_free() frees. */
void *gallery_vips_library_handle(void) {
    return __atomic_load_n(&vips_running, __ATOMIC_ACQUIRE) ? library_handle : NULL;
}

void *gallery_vips814_handle(void) {
    void *handle = gallery_vips_library_handle();
    return handle != NULL && vips_version(0) == 8 && vips_version(1) == 14 ? handle : NULL;
}

void *gallery_vips_malloc(size_t size) {
    return g_malloc(size);
}

void gallery_vips_free(void *pointer) {
    /* Before libvips is loaded the only buffers handed out are error texts from strdup. */
    if (library_loaded) g_free(pointer); else free(pointer);
}

static int header(const void *buffer, size_t length, int *width, int *height) {
    if (vips_foreign_find_load_buffer(buffer, length) == NULL) {
        vips_error_clear();
        return -2;
    }
    VipsImage *image = vips_image_new_from_buffer(buffer, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

/* Pads an image that fits inside the box out to exactly width × height, centred. */
static int pad(VipsImage *in, VipsImage **out, int width, int height, int format) {
    if (format == GALLERY_FORMAT_JPEG) {
        double white[] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int result = vips_gravity(in, out, VIPS_COMPASS_DIRECTION_CENTRE, width, height,
                                  "extend", VIPS_EXTEND_BACKGROUND, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        return result;
    }
    VipsImage *with_alpha = NULL;
    if (vips_image_hasalpha(in)) {
        with_alpha = in;
        g_object_ref(with_alpha);
    } else if (vips_addalpha(in, &with_alpha, NULL) != 0) {
        return -1;
    }
    int result = vips_gravity(with_alpha, out, VIPS_COMPASS_DIRECTION_CENTRE, width, height,
                              "extend", VIPS_EXTEND_BLACK, NULL);
    g_object_unref(with_alpha);
    return result;
}

static uint32_t read_le32(const unsigned char *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static void write_le32(unsigned char *bytes, uint32_t value) {
    for (int i = 0; i < 4; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

/* Removes the EXIF, XMP and ICC chunks from a WebP file, in place, and their flags from its VP8X
   header. libvips 8.14's WebP saver ignores "strip" and always writes an EXIF chunk it builds
   from the image (resolution, orientation: 186 bytes, on a 300-byte tile), so what is left after
   `published` removed the cover's own metadata is taken out here. A file not laid out as the
   WebP container says is left as it is. */
static void strip_webp_chunks(unsigned char *bytes, size_t *length) {
    if (*length < 12 || memcmp(bytes, "RIFF", 4) != 0 || memcmp(bytes + 8, "WEBP", 4) != 0) return;
    size_t read = 12, write = 12;
    unsigned char *vp8x = NULL;
    while (read + 8 <= *length) {
        uint32_t size = read_le32(bytes + read + 4);
        size_t whole = 8 + (size_t)size + (size & 1);
        if (whole > *length - read) return; /* not as expected: leave the file alone */
        int drop = memcmp(bytes + read, "EXIF", 4) == 0 || memcmp(bytes + read, "XMP ", 4) == 0 || memcmp(bytes + read, "ICCP", 4) == 0;
        if (!drop) {
            if (write != read) memmove(bytes + write, bytes + read, whole);
            if (memcmp(bytes + write, "VP8X", 4) == 0 && size >= 1) vp8x = bytes + write;
            write += whole;
        }
        read += whole;
    }
    if (read != *length) return;
    /* VP8X flags: ICC 0x20, EXIF 0x08, XMP 0x04. */
    if (vp8x != NULL) vp8x[8] &= (unsigned char)~(0x20 | 0x08 | 0x04);
    write_le32(bytes + 4, (uint32_t)(write - 8));
    *length = write;
}

static int encode(VipsImage *image, int format, int quality, void **output, size_t *output_length) {
    switch (format) {
    case GALLERY_FORMAT_WEBP: {
        if (gallery_webp_encoded(image, quality, output, output_length)) return 0;
        int result = vips_webpsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE, NULL);
        if (result == 0) strip_webp_chunks(*output, output_length);
        return result;
    }
    case GALLERY_FORMAT_JPEG:
        if (gallery_jpeg_encoded(image, quality, output, output_length)) return 0;
        return vips_jpegsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE,
                                    "optimize_coding", TRUE, NULL);
    case GALLERY_FORMAT_PNG:
        return vips_pngsave_buffer(image, output, output_length, "strip", TRUE, NULL);
    case GALLERY_FORMAT_AVIF:
        gallery_vips_load_heif();
        return vips_heifsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE,
                                    "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    default:
        vips_error("gallery", "unknown output format %d", format);
        return -1;
    }
}

/* Whether a metadata field may carry what the cover's owner did not mean to publish, or what a
   thumbnail must not keep: EXIF (a phone's GPS position, camera serial number, owner's name and
   an embedded preview of the uncropped photo), XMP, IPTC, the colour profile (the pixels are
   sRGB by then), comments and text chunks. */
static int is_private_field(const char *name) {
    static const char *prefixes[] = {"exif-", "xmp-", "iptc-", "icc-", "png-comment-", "gif-comment", "heif-", "orientation"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    }
    return 0;
}

/* Whether the colour profile an image carries is one for its kind of pixels, by the colour space
   its header names (bytes 16 to 19): grey for grey, RGB for RGB, CMYK for CMYK. A cover may carry
   another (an RGB JPEG with a grey profile, a QA pass found), and libvips 8.14 converts with it
   all the same: an RGB image through a grey profile came out grey, its green made an alpha
   channel. Browsers ignore a profile that does not fit the pixels, and so does gallery. Profiles
   of other spaces (Lab, say) are left to libvips, as before. */
static int profile_fits(VipsImage *image) {
    const void *data = NULL;
    size_t length = 0;
    if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, &length) != 0) {
        vips_error_clear();
        return 0;
    }
    if (data == NULL || length < 20) return 0;
    const char *space = (const char *)data + 16;
    int colours = image->Type == VIPS_INTERPRETATION_CMYK ? 4 : image->Bands >= 3 ? 3 : 1;
    if (memcmp(space, "GRAY", 4) == 0) return colours == 1;
    if (memcmp(space, "RGB ", 4) == 0) return colours == 3;
    if (memcmp(space, "CMYK", 4) == 0) return colours == 4;
    return 1;
}

/* The image's pixels in sRGB, with no metadata but what describes the pixels.
 *
 * A cover with a colour profile of its own (Display P3 from a phone, Adobe RGB from a scanner)
 * is converted to sRGB with it: without, its numbers would be shown as sRGB, dull and off by
 * dozens of levels, once the profile is dropped. (libvips's thumbnail keeps the cover's own
 * colour space and attaches the profile; a saver's "strip" then drops it.)
 *
 * The savers' "strip" is not enough to drop the metadata: libvips 8.14's WebP saver ignores it
 * (its own "strip" shadows the parent's and is never set), and every WebP tile carried the
 * cover's EXIF, GPS position included. So the fields are removed from the image itself, on a
 * new header (the pixels are shared), whatever the saver. A libvips without colour management
 * (no lcms) keeps the cover's numbers, as before. */
static int published(VipsImage **image) {
    VipsImage *current = *image;
    VipsImage *next = NULL;
    if (vips_image_get_typeof(current, VIPS_META_ICC_NAME) != 0 && profile_fits(current)) {
        if (vips_icc_transform(current, &next, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL) == 0) {
            g_object_unref(current);
            current = next;
        } else {
            vips_error_clear();
        }
    }
    /* The resolution, which PNG (pHYs) and JPEG (JFIF) write, is the same 72 dpi for every
       thumbnail: not the cover's own, so equal pixels give equal bytes whatever its DPI.
       An image direct_resize.c made (pixels in memory, referenced only here) is changed in
       place: a copy's header would not be in memory, and the chain's copy of it into memory
       would run libvips's pipeline and thread pool again for the same pixels. */
    if (current->dtype == VIPS_IMAGE_SETBUF_FOREIGN && ((GObject *)current)->ref_count == 1) {
        current->Xres = 72 / 25.4;
        current->Yres = 72 / 25.4;
    } else if (vips_copy(current, &next, "xres", 72 / 25.4, "yres", 72 / 25.4, NULL) == 0) {
        g_object_unref(current);
        current = next;
    } else {
        *image = current;
        return -1;
    }
    char **fields = vips_image_get_fields(current);
    for (char **field = fields; field != NULL && *field != NULL; field++) {
        if (is_private_field(*field)) vips_image_remove(current, *field);
    }
    g_strfreev(fields);
    *image = current;
    return 0;
}

/* A CMYK cover with a colour profile of its own (a print file), decoded and converted to sRGB
   with that profile, in *out; 1 when it is one, 0 when it is not (nothing made), -1 on error.
   libvips's thumbnail converts CMYK with its built-in profile whatever the cover carries, so
   SWOP, FOGRA or a newspaper's profile all came out alike, visibly off. JPEG is the only CMYK
   kind gallery takes (`header` is the cover's, opened); it still shrinks while it loads, by as
   much as keeps `size` pixels. */
static int cmyk_in_srgb(VipsImage *header, const void *buffer, size_t length, int size, const char *fail_on, VipsImage **out) {
    int is_cmyk = header->Type == VIPS_INTERPRETATION_CMYK && vips_image_get_typeof(header, VIPS_META_ICC_NAME) != 0
                  && profile_fits(header);
    int shortest = MIN(vips_image_get_width(header), vips_image_get_height(header));
    if (!is_cmyk) return 0;
    int shrink = 1;
    while (shrink < 8 && shortest / (shrink * 2) >= size) shrink *= 2;
    char options[64];
    snprintf(options, sizeof options, "%s,shrink=%d", fail_on, shrink);
    VipsImage *image = vips_image_new_from_buffer(buffer, length, options, NULL);
    if (image == NULL) return -1;
    /* Perceptual, as browsers read a CMYK profile: a print profile may hold no other table
       (Ghostscript's PS CMYK has only that one), and libvips would then use its own. */
    VipsImage *srgb = NULL;
    int result = vips_icc_transform(image, &srgb, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_PERCEPTUAL, NULL);
    g_object_unref(image);
    if (result != 0) return -1;
    /* Decoded once into memory, as the thumbnail reads it more than once. */
    *out = vips_image_copy_memory(srgb);
    g_object_unref(srgb);
    return *out == NULL ? -1 : 1;
}

/* Decodes and fits an image to exactly width × height (before encoding): shrink-on-load, the
   fit, the pixels in sRGB without metadata, padding for "contain", and a white background for
   JPEG. */
static int fitted(const void *buffer, size_t length, int width, int height, int fit, int format, int jpeg_warnings_pass, VipsImage **out) {
    VipsInteresting crop = fit == GALLERY_FIT_ATTENTION ? VIPS_INTERESTING_ATTENTION
                         : fit == GALLERY_FIT_CONTAIN ? VIPS_INTERESTING_NONE
                         : VIPS_INTERESTING_CENTRE;
    VipsImage *current = NULL;
    VipsImage *next = NULL;
    /* A JPEG whose scan data is damaged (cut short and closed with an end marker, flipped
       bytes) gives libjpeg warnings only, "Corrupt JPEG data: premature end of data segment",
       and decodes to a thumbnail that is partly flat grey: so for JPEG a warning fails it. Not
       for PNG, whose decoders warn of harmless things ("known incorrect sRGB profile"). */
    const char *loader = vips_foreign_find_load_buffer(buffer, length);
    int is_jpeg = loader != NULL && strstr(loader, "Jpeg") != NULL;
    const char *fail_on = is_jpeg && !jpeg_warnings_pass ? "fail_on=warning" : "fail_on=error";
    VipsImage *cmyk = NULL;
    int is_cmyk = 0, is_reduced = 0;
    if (is_jpeg) {
        VipsImage *header = vips_image_new_from_buffer((void *)buffer, length, fail_on, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        if (header == NULL) return -1;
        is_cmyk = cmyk_in_srgb(header, buffer, length, MAX(width, height), fail_on, &cmyk);
        if (is_cmyk == 0 && width == height) is_reduced = gallery_reduced_jpeg(header, buffer, length, width, fail_on, &current);
        g_object_unref(header);
        if (is_cmyk < 0 || is_reduced < 0) return -1;
    }
    double rest = 0;
    VipsImage *png = loader != NULL && strstr(loader, "Png") != NULL && width == height ? gallery_decoded_png(buffer, length, width, &rest) : NULL;
    /* (The buffer goes to libvips as void *: it does not change it; its signature predates const.) */
    if (is_reduced) {
        /* Made by gallery_reduced_jpeg, as libvips's thumbnail would have. */
    } else if (is_cmyk) {
        int result = vips_thumbnail_image(cmyk, &current, width, "height", height, "crop", crop, "size", VIPS_SIZE_BOTH, NULL);
        g_object_unref(cmyk);
        if (result != 0) return -1;
    } else if (png != NULL && rest > 0) {
        if (gallery_resize_decoded_png(png, width, height, rest, &current) != 0) return -1;
    } else if (png != NULL) {
        int result = vips_thumbnail_image(png, &current, width, "height", height, "crop", crop, "size", VIPS_SIZE_BOTH, NULL);
        g_object_unref(png);
        if (result != 0) return -1;
    } else if (vips_thumbnail_buffer((void *)buffer, length, &current, width, "height", height,
                                     "crop", crop, "size", VIPS_SIZE_BOTH,
                                     "option_string", fail_on, NULL) != 0) {
        return -1;
    }
    if (published(&current) != 0) {
        g_object_unref(current);
        return -1;
    }
    /* Flattened before any padding: the padding's white has no alpha to go with a cover's. */
    if (format == GALLERY_FORMAT_JPEG && vips_image_hasalpha(current)) {
        double white[] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int result = vips_flatten(current, &next, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(current);
        if (result != 0) return -1;
        current = next;
    }
    if (fit == GALLERY_FIT_CONTAIN && (vips_image_get_width(current) != width || vips_image_get_height(current) != height)) {
        int result = pad(current, &next, width, height, format);
        g_object_unref(current);
        if (result != 0) return -1;
        current = next;
    }
    *out = current;
    return 0;
}

static int thumbnail(const void *buffer, size_t length, int width, int height, int fit,
                     int format, int quality, int jpeg_warnings_pass, void **output, size_t *output_length) {
    VipsImage *image = NULL;
    jpeg_read_warned = 0;
    if (fitted(buffer, length, width, height, fit, format, jpeg_warnings_pass, &image) != 0) return -1;
    int result = encode(image, format, quality, output, output_length);
    g_object_unref(image);
    if (result == 0 && jpeg_warned_late(jpeg_warnings_pass)) {
        g_free(*output);
        *output = NULL;
        *output_length = 0;
        return -1;
    }
    return result;
}

static int thumbnails(const void *buffer, size_t length, int count, const int *sizes, int fit,
                      int format, int quality, int jpeg_warnings_pass, void **outputs, size_t *output_lengths) {
    if (count < 1) return 0;
    int largest = 0;
    for (int i = 0; i < count; i++) {
        outputs[i] = NULL;
        output_lengths[i] = 0;
        if (sizes[i] > sizes[largest]) largest = i;
    }
    VipsImage *image = NULL;
    jpeg_read_warned = 0;
    if (fitted(buffer, length, sizes[largest], sizes[largest], fit, format, jpeg_warnings_pass, &image) != 0) return -1;
    /* Decoded once, into memory; every smaller size is a resize of it. */
    VipsImage *memory = vips_image_copy_memory(image);
    g_object_unref(image);
    if (memory == NULL) return -1;
    /* The loader has closed: whether it warned late is known. */
    int result = jpeg_warned_late(jpeg_warnings_pass) ? -1 : 0;
    for (int i = 0; i < count && result == 0; i++) {
        if (sizes[i] == sizes[largest]) {
            result = encode(memory, format, quality, &outputs[i], &output_lengths[i]);
            continue;
        }
        VipsImage *smaller = NULL;
        int made = gallery_reduced_square(memory, sizes[i], &smaller);
        result = made < 0 ? -1 : made ? 0 : vips_thumbnail_image(memory, &smaller, sizes[i], "height", sizes[i], "size", VIPS_SIZE_BOTH, NULL);
        if (result == 0) {
            result = encode(smaller, format, quality, &outputs[i], &output_lengths[i]);
            g_object_unref(smaller);
        }
    }
    g_object_unref(memory);
    if (result != 0) {
        for (int i = 0; i < count; i++) {
            g_free(outputs[i]);
            outputs[i] = NULL;
        }
        return -1;
    }
    return 0;
}

int gallery_vips_header(const void *buffer, size_t length, int *width, int *height) {
    GALLERY_ATTRIBUTED(header(buffer, length, width, height));
}

int gallery_vips_thumbnail(const void *buffer, size_t length, int width, int height, int fit,
                           int format, int quality, int jpeg_warnings_pass, void **output, size_t *output_length) {
    GALLERY_ATTRIBUTED(thumbnail(buffer, length, width, height, fit, format, quality, jpeg_warnings_pass, output, output_length));
}

int gallery_vips_thumbnails(const void *buffer, size_t length, int count, const int *sizes, int fit,
                            int format, int quality, int jpeg_warnings_pass, void **outputs, size_t *output_lengths) {
    GALLERY_ATTRIBUTED(thumbnails(buffer, length, count, sizes, fit, format, quality, jpeg_warnings_pass, outputs, output_lengths));
}

static int pattern(int width, int height, int format, void **output, size_t *output_length) {
    VipsImage *xyz = NULL, *scaled = NULL, *joined = NULL, *bytes = NULL, *srgb = NULL;
    int result = -1;
    double factors[] = {255.0 / (width > 1 ? width - 1 : 1), 255.0 / (height > 1 ? height - 1 : 1)};
    double offsets[] = {0, 0};
    if (vips_xyz(&xyz, width, height, NULL) == 0
        && vips_linear(xyz, &scaled, factors, offsets, 2, NULL) == 0
        && vips_bandjoin_const1(scaled, &joined, 96, NULL) == 0
        && vips_cast_uchar(joined, &bytes, NULL) == 0
        && vips_copy(bytes, &srgb, "interpretation", VIPS_INTERPRETATION_sRGB, NULL) == 0) {
        result = encode(srgb, format, 90, output, output_length);
    }
    VipsImage *images[] = {xyz, scaled, joined, bytes, srgb};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++) {
        if (images[i] != NULL) g_object_unref(images[i]);
    }
    return result;
}

static int cmyk_pattern(const char *profile, int width, int height, int red, int green, int blue, void **output, size_t *output_length) {
    VipsImage *black = NULL, *coloured = NULL, *bytes = NULL, *srgb = NULL, *cmyk = NULL;
    int result = -1;
    double factors[] = {1, 1, 1};
    double offsets[] = {red, green, blue};
    if (vips_black(&black, width, height, "bands", 3, NULL) == 0
        && vips_linear(black, &coloured, factors, offsets, 3, NULL) == 0
        && vips_cast_uchar(coloured, &bytes, NULL) == 0
        && vips_copy(bytes, &srgb, "interpretation", VIPS_INTERPRETATION_sRGB, NULL) == 0
        && vips_icc_transform(srgb, &cmyk, profile, "input_profile", "srgb", "intent", VIPS_INTENT_RELATIVE, NULL) == 0) {
        result = vips_jpegsave_buffer(cmyk, output, output_length, "Q", 95, NULL);
    }
    VipsImage *images[] = {black, coloured, bytes, srgb, cmyk};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; i++) {
        if (images[i] != NULL) g_object_unref(images[i]);
    }
    return result;
}

static int pixel(const void *buffer, size_t length, int x, int y, int *red, int *green, int *blue, int *alpha) {
    VipsImage *image = vips_image_new_from_buffer(buffer, length, "", NULL);
    if (image == NULL) return -1;
    double *values = NULL;
    int count = 0;
    int result = vips_getpoint(image, &values, &count, x, y, NULL);
    g_object_unref(image);
    if (result != 0) return -1;
    *red = count > 0 ? (int)values[0] : 0;
    *green = count > 1 ? (int)values[1] : *red;
    *blue = count > 2 ? (int)values[2] : *red;
    /* Grey with alpha has two bands, colour with alpha four. */
    *alpha = count == 2 ? (int)values[1] : count > 3 ? (int)values[3] : 255;
    if (count == 2) *green = *blue = *red;
    g_free(values);
    return 0;
}

int gallery_vips_pattern(int width, int height, int format, void **output, size_t *output_length) {
    GALLERY_ATTRIBUTED(pattern(width, height, format, output, output_length));
}

int gallery_vips_cmyk_pattern(const char *profile, int width, int height, int red, int green, int blue, void **output, size_t *output_length) {
    GALLERY_ATTRIBUTED(cmyk_pattern(profile, width, height, red, green, blue, output, output_length));
}

int gallery_vips_pixel(const void *buffer, size_t length, int x, int y, int *red, int *green, int *blue, int *alpha) {
    GALLERY_ATTRIBUTED(pixel(buffer, length, x, y, red, green, blue, alpha));
}
