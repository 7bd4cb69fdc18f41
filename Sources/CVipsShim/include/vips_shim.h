#ifndef GALLERY_VIPS_SHIM_H
#define GALLERY_VIPS_SHIM_H

#include <stddef.h>

/* Non-variadic wrappers around libvips calls that Swift cannot make (C variadics).
   The header uses plain C types only, so Swift never sees glib. Every function that can fail
   returns 0 on success and -1 on failure, leaving libvips's error buffer for
   gallery_vips_error(). Buffers handed out are freed with gallery_vips_free(). */

/// Bumped whenever the shim's output for the same input and settings may change, so cached
/// thumbnails made by an older shim are not reused; and when the cache's names change meaning.
/// 4: a thumbnail resized from a larger one names it (`-140-of300-`); under 3 a plain name such
/// as `-300-` could hold one resized from a 400, so no name of 3 is trusted. 5: covers with a
/// colour profile are converted to sRGB, and no thumbnail keeps the cover's metadata (WebP kept
/// its EXIF, GPS position included). 6: a JPEG with damaged scan data fails instead of coming
/// out partly grey (such thumbnails were cached); a CMYK JPEG is converted with its own profile;
/// every thumbnail says 72 dpi, not its cover's resolution.
#define GALLERY_VIPS_SHIM_VERSION 6

/// How a thumbnail fills its box.
enum {
    /// Scale to cover the box, then cut the centre out.
    GALLERY_FIT_CROP = 0,
    /// Scale to fit inside the box and pad the rest (transparent except in JPEG, which is white).
    GALLERY_FIT_CONTAIN = 1,
    /// Scale to cover the box, then cut out the most interesting region.
    GALLERY_FIT_ATTENTION = 2
};

/// The encodings the shim writes.
enum {
    GALLERY_FORMAT_WEBP = 0,
    GALLERY_FORMAT_JPEG = 1,
    /// Lossless: the quality is ignored.
    GALLERY_FORMAT_PNG = 2,
    /// AVIF (HEIF with AV1), only when libvips has its heif module and libheif an AV1 encoder.
    GALLERY_FORMAT_AVIF = 3
};

/// Loads and starts libvips once (thread safe): $GALLERY_LIBVIPS, or the libvips soname of the
/// headers the shim was built with, through dlopen; returns 0 on success, and otherwise
/// gallery_vips_error() says why. Also turns off libvips's operation
/// cache (buffers are reused, so cached results could be stale), its internal threads (the
/// caller runs one thumbnail per core instead) and, before libvips 8.15, its orc vector code
/// (not thread safe).
int gallery_vips_init(void);

/// Keeps libvips from loading its modules (ImageMagick, PDF, OpenSlide, JPEG XL, HEIF) when it
/// starts, unless the user set VIPSHOME: it sets VIPSHOME to a folder that is not there. Call it
/// first thing in the process, before any thread is started (setenv is not thread safe).
void gallery_vips_load_only_used_modules(void);

/// Loads libvips's HEIF module (for AVIF), once, when gallery_vips_load_only_used_modules() kept
/// libvips from loading it.
void gallery_vips_load_heif(void);

/// 1 when libvips runs its vector code (orc before 8.15, Highway since), 0 when it does not or
/// cannot be loaded.
int gallery_vips_vectorised(void);

/// The file libvips was loaded from, or NULL when it cannot be loaded or the loader does not say.
const char *gallery_vips_library_file(void);

/// libvips's version: major × 10000 + minor × 100 + micro (81401 for 8.14.1), or 0 when it
/// cannot be loaded.
int gallery_vips_version(void);

/// Frees what libvips keeps for the calling thread (its buffers). libvips requires it of a thread
/// it did not create before that thread exits; a thread that exits without it leaves libvips to
/// clean up from a thread-local destructor. Does nothing before libvips is loaded.
void gallery_vips_thread_shutdown(void);

/// Why the calling thread's last failed call failed: the errors libvips reported for that call
/// alone (a failed call runs again on its own to get them), else libvips's error buffer, cleared
/// after reading. Free it with gallery_vips_free().
char *gallery_vips_error(void);

/// What to do when the system's libvips could not be loaded for `reason` (dlerror()'s text):
/// install it when it is missing, raise the limit when it could not be mapped (`ulimit -v`).
const char *gallery_vips_load_advice(const char *reason);

/// Frees a buffer the shim handed out.
void gallery_vips_free(void *pointer);

/// Reads only the header of an encoded image: its width and height in pixels, without
/// decoding any pixels. Returns -2 when no loader recognises the bytes, -1 when the header is
/// damaged.
int gallery_vips_header(const void *buffer, size_t length, int *width, int *height);

/// Decodes an image, fits it to exactly width × height (see the GALLERY_FIT_ values), and
/// encodes it (a GALLERY_FORMAT_ value) at quality 1…100 without metadata. Decoding
/// errors fail rather than produce a partly grey image; for a JPEG so do libjpeg's warnings
/// (damaged scan data only makes it warn), unless `jpeg_warnings_pass` is 1 (for a JPEG whose
/// only warnings the caller knows to be harmless).
int gallery_vips_thumbnail(const void *buffer, size_t length, int width, int height, int fit,
                           int format, int quality, int jpeg_warnings_pass, void **output, size_t *output_length);

/// Makes several square thumbnails of one image, `count` of them, sides `sizes[i]`, with one
/// decode: the largest is made from the buffer as gallery_vips_thumbnail() would, and the others
/// are resized from it in memory. On success `outputs[i]` and `output_lengths[i]` hold each
/// encoding (free each with gallery_vips_free()); on failure none is left allocated.
int gallery_vips_thumbnails(const void *buffer, size_t length, int count, const int *sizes, int fit,
                            int format, int quality, int jpeg_warnings_pass, void **outputs, size_t *output_lengths);

/// Draws a square SVG straight into a WebP thumbnail of `size` pixels a side, with librsvg and
/// libwebp and without libvips's pipeline, byte for byte as gallery_vips_thumbnail() would make it
/// (see svg_webp.c), when that is sure: the SVG's size in pixels must be whole, square and `side`
/// (libvips's header's). 1 when made (free `output` with gallery_vips_free()), 0 when not: the
/// caller then makes it with gallery_vips_thumbnail() or gallery_vips_thumbnails().
int gallery_svg_webp(const void *buffer, size_t length, int side, int size, int quality, void **output, size_t *output_length);

/// A PNG's pixels decoded with libdeflate and SSE2 instead of libpng (see png_pixels.c), when
/// that is sure to give libpng's pixels: 1 with `*pixels` (width × height × bands bytes, rows
/// packed; free() it) and its size, 0 (nothing allocated) for anything else, which libvips
/// then decodes, damaged files included.
int gallery_png_pixels(const void *buffer, size_t length, int *width, int *height, int *bands, unsigned char **pixels);

/// Turns gallery_png_pixels(), gallery_reduce_rows(), the JPEG reduce, decoder and encoder and
/// the WebP encoder off (0: they leave everything to libvips) or on (1, the default) on the
/// calling thread only: for the tests, which compare the thumbnails made both ways.
void gallery_shim_paths_set_enabled(int on);

/// Averages each group of `factor` rows (2 to 8) of `pixels` (as gallery_png_pixels() gives
/// them) into one, in place, as libvips's shrinkv does ((sum + factor / 2) / factor): the box
/// shrink that libvips's reduce would make first (see vips_shim.c). `height` must be a multiple
/// of `factor`. Returns the new height.
int gallery_png_shrink_rows(unsigned char *pixels, int width, int height, int bands, int factor);

/// gallery_png_shrink_rows() without counting (for gallery_reduce_columns()).
int gallery_shrink_rows(unsigned char *pixels, int width, int height, int bands, int factor);

/// How many images gallery_png_shrink_rows() has shrunk on the calling thread: for the tests.
int gallery_png_rows_shrunk_on_this_thread(void);

/// How many PNGs gallery_png_pixels() has decoded on the calling thread: for the tests.
int gallery_png_decoded_on_this_thread(void);

/// libvips 8.14's reducev of 8-bit rows with the Lanczos 3 kernel (see reduce_rows.c):
/// `in_rows` rows of `row_length` bytes into `out_rows` rows, by `shrink`, with libvips's offset
/// `offset`. The caller makes sure the result is libvips's (vips_shim.c). 0, or -1 (nothing
/// made) when the shrink needs more points than it handles or the calling thread has turned the
/// shim's paths off.
int gallery_reduce_rows(const unsigned char *in, size_t row_length, int in_rows, unsigned char *out, int out_rows,
                        double shrink, double offset);

/// libvips 8.14's reduceh of 8-bit pixels (see reduce_rows.c): `rows` rows of `width` pixels of
/// `bands` bytes into rows of `out_width` pixels, with a box shrink of `box` pixels (1 for none;
/// `width` must be a multiple), then the Lanczos 3 reduce by `shrink` with libvips's `offset`.
/// The caller makes sure the result is libvips's (vips_shim.c). 0, or -1 (nothing made) as for
/// gallery_reduce_rows().
int gallery_reduce_columns(const unsigned char *in, int width, int rows, int bands, unsigned char *out, int out_width,
                           int box, double shrink, double offset);

/// Lets gallery_reduce_rows() and gallery_reduce_columns() use AVX2 where the CPU has it (1, the
/// default) or not (0), on the calling thread only: for the tests, which compare both.
void gallery_reduce_rows_set_avx2(int on);

/// How many rows libvips's Lanczos 3 reduce by `shrink` weighs into each (vips_reduce_get_points).
int gallery_reduce_rows_points(double shrink);

/// How many images gallery_reduce_rows() has reduced on the calling thread: for the tests.
int gallery_rows_reduced_on_this_thread(void);

/// How many images gallery_reduce_columns() has reduced on the calling thread: for the tests.
int gallery_columns_reduced_on_this_thread(void);

/// How many JPEG thumbnails direct_resize.c has made from the JPEG's shrink-on-load with
/// gallery_reduce_rows() and gallery_reduce_columns(), rather than libvips's thumbnail, on the
/// calling thread: for the tests.
int gallery_jpegs_reduced_on_this_thread(void);

/// How many JPEG thumbnails jpeg_direct.c has written with libjpeg directly, rather than through
/// libvips's jpegsave, on the calling thread: for the tests.
int gallery_jpegs_encoded_on_this_thread(void);

/// How many JPEG covers jpeg_direct.c has decoded with libjpeg directly, rather than through
/// libvips's jpegload, on the calling thread: for the tests.
int gallery_jpegs_decoded_on_this_thread(void);

/// How many WebP thumbnails webp_encode.c has written with libwebp directly, rather than through
/// libvips's webpsave, on the calling thread: for the tests.
int gallery_webps_encoded_on_this_thread(void);

/// Sets glibc's allocator for a process that reads and writes many megabytes in a few hundred
/// milliseconds (see GalleryKit's AllocatorTuning); nothing elsewhere, or when GLIBC_TUNABLES
/// sets a glibc.malloc value.
void gallery_tune_allocator(void);

/// Gives the system back the freed memory glibc keeps (see gallery_tune_allocator): for a
/// process that runs on, as the preview server does, after a large file or a rebuild.
void gallery_release_freed_memory(void);

/// Names the calling thread (at most 15 bytes are kept), as `top -H` and /proc show it.
void gallery_name_thread(const char *name);

/// Lowers the calling thread's priority to nice value `nice`, and no other thread's (Linux); a
/// thread already at that value or lower is left as it is. 0 on success, -1 when it could not or
/// elsewhere.
int gallery_lower_thread_priority(int nice);

/// The calling thread's nice value (Linux; 0 elsewhere).
int gallery_thread_priority(void);

/// Reads a whole JPEG with libjpeg (at an eighth of its size: every coefficient is still read)
/// and says whether its scan data is all there: 1 when it decodes with no warning that means
/// data was lost (a premature end, a bad Huffman or arithmetic code, a marker where the scan
/// goes on, a broken progression), 0 when one does or libjpeg fails (its message in `message`),
/// -1 when libjpeg (libjpeg.so.62) cannot be loaded. libvips passes on only the first of a
/// JPEG's warnings; this sees them all, reading the file in windows too short for
/// libjpeg-turbo's fast path, which passes over a bad Huffman code without one (see
/// jpeg_window.h).
int gallery_jpeg_scan(const void *buffer, size_t length, char *message, size_t message_size);

/// Makes a gradient test image of width × height (red follows x, green follows y), encoded as
/// GALLERY_FORMAT_PNG, _JPEG or _WEBP.
int gallery_vips_pattern(int width, int height, int format, void **output, size_t *output_length);

/// Makes a test image of one sRGB colour converted to CMYK with the ICC profile in the file
/// `profile`, which it embeds, encoded as JPEG.
int gallery_vips_cmyk_pattern(const char *profile, int width, int height, int red, int green, int blue, void **output, size_t *output_length);

/// The colour of one pixel of an encoded image, as 0…255 red, green and blue.
int gallery_vips_pixel(const void *buffer, size_t length, int x, int y, int *red, int *green, int *blue, int *alpha);

#endif
