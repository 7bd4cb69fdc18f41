/* libvips's functions as the shim calls them, through pointers set once libvips is loaded (see
 * vips_shim.c), and the shim's own functions shared between its files. Private to CVipsShim. */
#ifndef GALLERY_VIPS_SYMBOLS_H
#define GALLERY_VIPS_SYMBOLS_H

#include <vips/vips.h>
#include <vips/vector.h>

/* libvips is loaded with dlopen the first time a thumbnail is made, not linked: it pulls in about
   a hundred shared libraries (glib, cairo, pango, gnutls, hdf5…), and binding them cost every
   gallery command some 45 ms before main, even `gallery list` and builds whose thumbnails are all
   cached. The functions below are called through pointers of their declared types (__typeof__),
   and the #defines after them send the rest of every file that includes this one, VIPS_INIT
   included, to those pointers (defined and loaded in vips_shim.c). */
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
    X(vips_image_get_orientation) X(vips_image_get_blob) \
    X(g_object_ref) X(g_object_unref) X(g_malloc) X(g_free) X(g_strdup) X(g_strfreev) X(g_log) X(g_log_set_handler)

#define GALLERY_DECLARE(name) extern __typeof__(name) *gallery_p_##name;
GALLERY_VIPS_SYMBOLS(GALLERY_DECLARE)
#undef GALLERY_DECLARE

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
#define vips_image_get_orientation (*gallery_p_vips_image_get_orientation)
#define vips_image_get_blob (*gallery_p_vips_image_get_blob)
#undef g_object_ref /* glib's own macro casts the result to the argument's type */
#define g_object_ref (*gallery_p_g_object_ref)
#define g_object_unref (*gallery_p_g_object_unref)
#define g_malloc (*gallery_p_g_malloc)
#define g_free (*gallery_p_g_free)
#define g_strdup (*gallery_p_g_strdup)
#define g_strfreev (*gallery_p_g_strfreev)
#define g_log (*gallery_p_g_log)
#define g_log_set_handler (*gallery_p_g_log_set_handler)

/* png_pixels.c: set on a thread that is to leave everything to libvips (the tests' switch). */
extern _Thread_local int gallery_shim_paths_disabled;

/* vips_shim.c: libvips's handle once it runs (its libraries' functions are found through it),
   else NULL. */
void *gallery_vips_library_handle(void);

/* vips_shim.c: the same, only for libvips 8.14, whose loaders and savers the shim's direct JPEG
   and WebP paths follow call for call (its source, and the tests), else NULL. */
void *gallery_vips814_handle(void);

/* Whether an image is 8-bit, opaque, and grey or sRGB: what the direct resizes and encoders
   take (libvips's savers write such an image as it is). */
static inline int gallery_opaque_8bit(VipsImage *image) {
    int grey = image->Bands == 1 && image->Type == VIPS_INTERPRETATION_B_W;
    int srgb = image->Bands == 3 && image->Type == VIPS_INTERPRETATION_sRGB;
    return (grey || srgb) && image->BandFmt == VIPS_FORMAT_UCHAR && image->Coding == VIPS_CODING_NONE;
}

/* Whether an image's pixels are in memory already, to be read without libvips's pipeline. */
static inline int gallery_in_memory(VipsImage *image) {
    return image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
}

/* direct_resize.c: resizes made without libvips's pipeline where they are sure to be its bytes. */
VipsImage *gallery_decoded_png(const void *buffer, size_t length, int size, double *rest);
int gallery_resize_decoded_png(VipsImage *png, int width, int height, double rest, VipsImage **out);
int gallery_reduced_square(VipsImage *in, int size, VipsImage **out);
/* jpeg_direct.c: libvips 8.14's jpegsave (strip, optimize_coding) of an image in memory, by
   libjpeg directly; 1 when written, 0 when left to libvips (nothing made). */
int gallery_jpeg_encoded(VipsImage *image, int quality, void **output, size_t *output_length);
/* webp_encode.c: libvips 8.14's webpsave of an opaque sRGB image in memory, as strip_webp_chunks()
   leaves it, by libwebp directly; 1 when written, 0 when left to libvips (nothing made). */
int gallery_webp_encoded(VipsImage *image, int quality, void **output, size_t *output_length);
/* jpeg_direct.c: a JPEG decoded as libvips 8.14's jpegload decodes it, shrunk by 1, 2, 4 or 8
   while it loads; 1 with *pixels (free() it), 0 when left to libvips (nothing allocated). */
int gallery_jpeg_pixels(const void *buffer, size_t length, int shrink, int *width, int *height, int *bands,
                        unsigned char **pixels);
int gallery_reduced_jpeg(VipsImage *header, const void *buffer, size_t length, int size, const char *fail_on, VipsImage **out);

#endif
