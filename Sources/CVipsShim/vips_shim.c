#define _GNU_SOURCE /* dladdr */
#include "vips_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>
#include <vips/vector.h>

/* libvips is loaded with dlopen the first time a thumbnail is made, not linked: it pulls in about
   a hundred shared libraries (glib, cairo, pango, gnutls, hdf5…), and binding them cost every
   gallery command some 45 ms before main, even `gallery list` and builds whose thumbnails are all
   cached. The functions below are called through pointers of their declared types (__typeof__),
   and the #defines after them send the rest of this file, VIPS_INIT included, to those pointers. */
#define GALLERY_VIPS_SYMBOLS(X) \
    X(vips_init) X(vips_version) X(vips_error) X(vips_error_buffer_copy) X(vips_error_clear) \
    X(vips_cache_set_max) X(vips_concurrency_set) X(vips_foreign_find_load_buffer) \
    X(vips_image_new_from_buffer) X(vips_image_get_width) X(vips_image_get_height) \
    X(vips_image_hasalpha) X(vips_image_copy_memory) X(vips_array_double_new) X(vips_area_unref) \
    X(vips_gravity) X(vips_addalpha) X(vips_flatten) X(vips_copy) X(vips_cast_uchar) X(vips_linear) \
    X(vips_bandjoin_const1) X(vips_xyz) X(vips_getpoint) X(vips_thumbnail_image) \
    X(vips_thumbnail_buffer) X(vips_webpsave_buffer) X(vips_jpegsave_buffer) X(vips_pngsave_buffer) \
    X(vips_heifsave_buffer) X(vips_thread_shutdown) X(vips_vector_set_enabled) X(vips_vector_isenabled) \
    X(vips_icc_transform) X(vips_black) X(vips_image_get_typeof) X(vips_image_get_fields) X(vips_image_remove) \
    X(vips_image_new_from_memory) X(vips_image_set_int) X(g_signal_connect_data) X(vips_reducev) X(vips_reduceh) X(vips_image_get_data) X(vips_image_get) X(vips_image_set) X(g_value_unset) \
    X(g_object_ref) X(g_object_unref) X(g_malloc) X(g_free) X(g_strdup) X(g_strfreev) X(g_log) X(g_log_set_handler)

#define GALLERY_DECLARE(name) static __typeof__(name) *gallery_p_##name;
GALLERY_VIPS_SYMBOLS(GALLERY_DECLARE)

#define vips_init (*gallery_p_vips_init)
#define vips_version (*gallery_p_vips_version)
#define vips_error (*gallery_p_vips_error)
#define vips_error_buffer_copy (*gallery_p_vips_error_buffer_copy)
#define vips_error_clear (*gallery_p_vips_error_clear)
#define vips_cache_set_max (*gallery_p_vips_cache_set_max)
#define vips_concurrency_set (*gallery_p_vips_concurrency_set)
#define vips_foreign_find_load_buffer (*gallery_p_vips_foreign_find_load_buffer)
#define vips_image_new_from_buffer (*gallery_p_vips_image_new_from_buffer)
#define vips_image_get_width (*gallery_p_vips_image_get_width)
#define vips_image_get_height (*gallery_p_vips_image_get_height)
#define vips_image_hasalpha (*gallery_p_vips_image_hasalpha)
#define vips_image_copy_memory (*gallery_p_vips_image_copy_memory)
#define vips_array_double_new (*gallery_p_vips_array_double_new)
#define vips_area_unref (*gallery_p_vips_area_unref)
#define vips_gravity (*gallery_p_vips_gravity)
#define vips_addalpha (*gallery_p_vips_addalpha)
#define vips_flatten (*gallery_p_vips_flatten)
#define vips_copy (*gallery_p_vips_copy)
#define vips_cast_uchar (*gallery_p_vips_cast_uchar)
#define vips_linear (*gallery_p_vips_linear)
#define vips_bandjoin_const1 (*gallery_p_vips_bandjoin_const1)
#define vips_xyz (*gallery_p_vips_xyz)
#define vips_getpoint (*gallery_p_vips_getpoint)
#define vips_thumbnail_image (*gallery_p_vips_thumbnail_image)
#define vips_thumbnail_buffer (*gallery_p_vips_thumbnail_buffer)
#define vips_webpsave_buffer (*gallery_p_vips_webpsave_buffer)
#define vips_jpegsave_buffer (*gallery_p_vips_jpegsave_buffer)
#define vips_pngsave_buffer (*gallery_p_vips_pngsave_buffer)
#define vips_heifsave_buffer (*gallery_p_vips_heifsave_buffer)
#define vips_thread_shutdown (*gallery_p_vips_thread_shutdown)
#define vips_vector_set_enabled (*gallery_p_vips_vector_set_enabled)
#define vips_vector_isenabled (*gallery_p_vips_vector_isenabled)
#define vips_icc_transform (*gallery_p_vips_icc_transform)
#define vips_black (*gallery_p_vips_black)
#define vips_image_get_typeof (*gallery_p_vips_image_get_typeof)
#define vips_image_get_fields (*gallery_p_vips_image_get_fields)
#define vips_image_remove (*gallery_p_vips_image_remove)
#define vips_image_new_from_memory (*gallery_p_vips_image_new_from_memory)
#define vips_image_set_int (*gallery_p_vips_image_set_int)
#define g_signal_connect_data (*gallery_p_g_signal_connect_data)
#define vips_reducev (*gallery_p_vips_reducev)
#define vips_reduceh (*gallery_p_vips_reduceh)
#define vips_image_get_data (*gallery_p_vips_image_get_data)
#define vips_image_get (*gallery_p_vips_image_get)
#define vips_image_set (*gallery_p_vips_image_set)
#define g_value_unset (*gallery_p_g_value_unset)
#undef g_object_ref /* glib's own macro casts the result to the argument's type */
#define g_object_ref (*gallery_p_g_object_ref)
#define g_object_unref (*gallery_p_g_object_unref)
#define g_malloc (*gallery_p_g_malloc)
#define g_free (*gallery_p_g_free)
#define g_strdup (*gallery_p_g_strdup)
#define g_strfreev (*gallery_p_g_strfreev)
#define g_log (*gallery_p_g_log)
#define g_log_set_handler (*gallery_p_g_log_set_handler)

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

static void start_vips(void) {
    start_calls_lock();
    if (load_vips() != 0) return;
    init_result = VIPS_INIT("gallery");
    if (init_result == 0) {
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, ignore_log, NULL);
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
        int result = vips_webpsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE, NULL);
        if (result == 0) strip_webp_chunks(*output, output_length);
        return result;
    }
    case GALLERY_FORMAT_JPEG:
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
    if (vips_image_get_typeof(current, VIPS_META_ICC_NAME) != 0) {
        if (vips_icc_transform(current, &next, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL) == 0) {
            g_object_unref(current);
            current = next;
        } else {
            vips_error_clear();
        }
    }
    /* The resolution, which PNG (pHYs) and JPEG (JFIF) write, is the same 72 dpi for every
       thumbnail: not the cover's own, so equal pixels give equal bytes whatever its DPI. */
    if (vips_copy(current, &next, "xres", 72 / 25.4, "yres", 72 / 25.4, NULL) != 0) {
        *image = current;
        return -1;
    }
    g_object_unref(current);
    current = next;
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
   kind gallery takes; it still shrinks while it loads, by as much as keeps `size` pixels. */
static int cmyk_in_srgb(const void *buffer, size_t length, int size, const char *fail_on, VipsImage **out) {
    VipsImage *header = vips_image_new_from_buffer(buffer, length, fail_on, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (header == NULL) return -1;
    int is_cmyk = header->Type == VIPS_INTERPRETATION_CMYK && vips_image_get_typeof(header, VIPS_META_ICC_NAME) != 0;
    int shortest = MIN(vips_image_get_width(header), vips_image_get_height(header));
    g_object_unref(header);
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

static void free_pixels(VipsImage *image, void *pixels) {
    (void)image;
    free(pixels);
}

/* Whether libvips's thumbnail of a `side` px square cover into a `size` px square would begin with
   a box shrink of its rows (its reducev's integer part: libvips 8.13's "gap" of 2) by 2 to 8, into
   *factor, and the rest of its reducev would be the same on the rows shrunk beforehand: the same
   output height, shrink and offset, computed as libvips computes them. The thumbnail is then that
   reducev of the shrunk rows and libvips's reduceh (decoded_png, fitted): byte for byte the same,
   as a test checks on sides the size divides and sides it does not, without libvips's shrinkv,
   a third of the resize of a 1200 px PNG. Into *shrink, the vertical shrink left after the box. */
static int shrinks_rows_first(int side, int size, int *factor, double *shrink) {
    if (size < 1) return 0;
    double total = 1.0 / (1.0 / ((double)side / size)); /* thumbnail's scale, inverted by reduce */
    int height = VIPS_ROUND_UINT((double)side / total);
    int box = VIPS_MAX(1, (int)VIPS_FLOOR((double)side / height / 2.0));
    if (height != size || box < 2 || box > 8 || side % box != 0) return 0;
    /* libvips 8.15 and later (Highway) round a box of 3, 5 or 6 rows otherwise than 8.14's
       (sum + box / 2) / box; by 2, 4 and 8 they agree, as the tests check with 8.18. */
    if ((vips_version(0) > 8 || vips_version(1) >= 15) && (box & (box - 1)) != 0) return 0;
    double rest = total / box;
    int rest_height = VIPS_ROUND_UINT((double)(side / box) / rest);
    double invented = (height * total - side) / box; /* the offset's part, as reducev divides it */
    double invented_after = rest_height * rest - (double)(side / box);
    if (rest_height != height || invented_after != invented) return 0;
    *factor = box;
    *shrink = rest;
    return 1;
}

/* 8-bit pixels from malloc() as an image (freed with it), marked as libvips's loader marks its
   images, read in order: libvips 8.14's shrink then reads the rows a strip at a time and takes a
   quarter of the time it takes on an image it may read anywhere. NULL (the pixels freed) when
   libvips cannot make it. */
static VipsImage *wrapped(unsigned char *pixels, int width, int height, int bands) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t)width * height * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        free(pixels);
        vips_error_clear();
        return NULL;
    }
    g_signal_connect_data(image, "postclose", G_CALLBACK(free_pixels), pixels, NULL, 0);
    image->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    vips_image_set_int(image, VIPS_META_SEQUENTIAL, 1);
    return image;
}

/* A PNG decoded by png_pixels.c, as an image libvips resizes as it would its own decode (see
   wrapped), or NULL (nothing to undo) when png_pixels.c leaves it to libvips.
   When the thumbnail is a square `size` px of a square opaque cover whose rows libvips would
   box-shrink first (shrinks_rows_first), they come shrunk already, and *rest is the vertical
   shrink left to reducev; 0 otherwise. */
static VipsImage *decoded_png(const void *buffer, size_t length, int size, double *rest) {
    int width = 0, height = 0, bands = 0;
    unsigned char *pixels = NULL;
    *rest = 0;
    if (gallery_png_pixels(buffer, length, &width, &height, &bands, &pixels) != 1) return NULL;
    int factor = 0;
    if (width == height && (bands == 1 || bands == 3) && shrinks_rows_first(height, size, &factor, rest)) {
        height = gallery_png_shrink_rows(pixels, width, height, bands, factor);
    }
    VipsImage *image = wrapped(pixels, width, height, bands);
    if (image == NULL) *rest = 0;
    return image;
}

/* What a libvips operation's output takes from its input besides the pixels: the resolution
   and offsets (PNG and JPEG write the resolution), and every metadata field. */
static void inherit(VipsImage *image, VipsImage *from) {
    image->Xres = from->Xres;
    image->Yres = from->Yres;
    image->Xoffset = from->Xoffset;
    image->Yoffset = from->Yoffset;
    static const char *header[] = {"width", "height", "bands", "format", "coding", "interpretation", "xoffset", "yoffset", "xres", "yres", "filename"};
    char **fields = vips_image_get_fields(from);
    for (char **field = fields; field != NULL && *field != NULL; field++) {
        int is_header = 0;
        for (size_t i = 0; i < sizeof header / sizeof header[0]; i++) is_header |= strcmp(*field, header[i]) == 0;
        GValue value = G_VALUE_INIT;
        if (is_header || vips_image_get(from, *field, &value) != 0) continue;
        vips_image_set(image, *field, &value);
        g_value_unset(&value);
    }
    g_strfreev(fields);
}

/* libvips 8.14's reducev (Lanczos 3, gap 2) of the shrunk rows of a decoded PNG into `size` rows,
   by `rest`, made by reduce_rows.c, when that is sure to be libvips's: 8.14 with its vector
   paths off (as gallery runs it), and a shrink and offset with at most 8 binary places (see
   reduce_rows.c). NULL otherwise (nothing to undo); `in` is left as it is. */
static VipsImage *reduced_rows(VipsImage *in, int size, double rest) {
    if (vips_version(0) != 8 || vips_version(1) != 14 || vips_vector_isenabled()) return NULL;
    int rows = vips_image_get_height(in);
    double extra_pixels = size * rest - rows; /* as reducev computes its offset */
    double offset = (1 + extra_pixels) / 2.0 - 1;
    if (rest * 256 != floor(rest * 256) || offset * 256 != floor(offset * 256) || rest * size > 1e6) return NULL;
    if (gallery_reduce_rows_points(rest) > 64) return NULL;
    int width = vips_image_get_width(in), bands = in->Bands;
    size_t row_length = (size_t)width * bands;
    unsigned char *pixels = malloc(row_length * size);
    if (pixels == NULL) return NULL;
    if (gallery_reduce_rows(vips_image_get_data(in), row_length, rows, pixels, size, rest, offset) != 0) {
        free(pixels);
        return NULL;
    }
    VipsImage *image = wrapped(pixels, width, size, bands);
    if (image != NULL) inherit(image, in);
    return image;
}

/* libvips 8.14's reduceh (Lanczos 3, gap 2: a box shrink of the columns first when it is 4 times
   or more) of an image made by reduced_rows into `size` columns, made by reduce_rows.c when that
   is sure to be libvips's, as for reduced_rows. NULL otherwise (nothing to undo). */
static VipsImage *reduced_columns(VipsImage *in, int size, double total) {
    int width = vips_image_get_width(in), rows = vips_image_get_height(in), bands = in->Bands;
    /* As reduceh computes them. */
    if (VIPS_ROUND_UINT((double)width / total) != size) return NULL;
    double extra_pixels = size * total - width;
    int box = VIPS_MAX(1, (int)VIPS_FLOOR((double)width / size / 2.0));
    double rest = total;
    if (box > 1) {
        rest /= box;
        extra_pixels /= box;
    }
    double offset = (1 + extra_pixels) / 2.0 - 1;
    if (rest * 256 != floor(rest * 256) || offset * 256 != floor(offset * 256) || rest * size > 1e6 || rest == 1.0) return NULL;
    if (gallery_reduce_rows_points(rest) > 64 || box > 8 || width % box != 0) return NULL;
    unsigned char *pixels = malloc((size_t)size * rows * bands);
    if (pixels == NULL) return NULL;
    if (gallery_reduce_columns(vips_image_get_data(in), width, rows, bands, pixels, size, box, rest, offset) != 0) {
        free(pixels);
        return NULL;
    }
    VipsImage *image = wrapped(pixels, size, rows, bands);
    if (image != NULL) inherit(image, in);
    return image;
}

/* libvips's thumbnail of a square opaque 8-bit image into a `size` px square, when its resize
   begins with no box shrink (the image is under 4 times the size: the tile and its 2x copy made
   from the album page's image) and reduce_rows.c can make its reducev (see reduced_rows): that
   reducev, then libvips's reduceh. 1 when made, 0 when not (nothing made: the caller asks
   libvips), -1 on error. */
static int reduced_square(VipsImage *in, int size, VipsImage **out) {
    int side = vips_image_get_width(in);
    int opaque_grey = in->Bands == 1 && in->Type == VIPS_INTERPRETATION_B_W;
    int opaque_srgb = in->Bands == 3 && in->Type == VIPS_INTERPRETATION_sRGB;
    if (side != vips_image_get_height(in) || in->BandFmt != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE
        || !(opaque_grey || opaque_srgb) || size < 1 || size >= side) return 0;
    double total = 1.0 / (1.0 / ((double)side / size)); /* as in shrinks_rows_first */
    if (VIPS_ROUND_UINT((double)side / total) != size || VIPS_MAX(1, (int)VIPS_FLOOR((double)side / size / 2.0)) != 1) return 0;
    VipsImage *rows = reduced_rows(in, size, total);
    if (rows == NULL) return 0;
    *out = reduced_columns(rows, size, total);
    int result = *out != NULL ? 0 : vips_reduceh(rows, out, total, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
    g_object_unref(rows);
    return result == 0 ? 1 : -1;
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
    int is_cmyk = is_jpeg ? cmyk_in_srgb(buffer, length, MAX(width, height), fail_on, &cmyk) : 0;
    if (is_cmyk < 0) return -1;
    double rest = 0;
    VipsImage *png = loader != NULL && strstr(loader, "Png") != NULL && width == height ? decoded_png(buffer, length, width, &rest) : NULL;
    /* (The buffer goes to libvips as void *: it does not change it; its signature predates const.) */
    if (is_cmyk) {
        int result = vips_thumbnail_image(cmyk, &current, width, "height", height, "crop", crop, "size", VIPS_SIZE_BOTH, NULL);
        g_object_unref(cmyk);
        if (result != 0) return -1;
    } else if (png != NULL && rest > 0) {
        /* The rows shrunk: the rest of what libvips's thumbnail would do, its reducev and reduceh
           (Lanczos 3, gap 2). Square into square, there is nothing to cut. */
        double across = 1.0 / (1.0 / ((double)vips_image_get_width(png) / width));
        VipsImage *rows = reduced_rows(png, height, rest);
        current = rows != NULL ? reduced_columns(rows, width, across) : NULL;
        int result = rows != NULL ? 0 : vips_reducev(png, &rows, rest, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
        g_object_unref(png);
        if (result != 0) return -1;
        if (current == NULL) result = vips_reduceh(rows, &current, across, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
        g_object_unref(rows);
        if (result != 0) return -1;
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
    if (fitted(buffer, length, width, height, fit, format, jpeg_warnings_pass, &image) != 0) return -1;
    int result = encode(image, format, quality, output, output_length);
    g_object_unref(image);
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
    if (fitted(buffer, length, sizes[largest], sizes[largest], fit, format, jpeg_warnings_pass, &image) != 0) return -1;
    /* Decoded once, into memory; every smaller size is a resize of it. */
    VipsImage *memory = vips_image_copy_memory(image);
    g_object_unref(image);
    if (memory == NULL) return -1;
    int result = 0;
    for (int i = 0; i < count && result == 0; i++) {
        if (sizes[i] == sizes[largest]) {
            result = encode(memory, format, quality, &outputs[i], &output_lengths[i]);
            continue;
        }
        VipsImage *smaller = NULL;
        int made = reduced_square(memory, sizes[i], &smaller);
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
