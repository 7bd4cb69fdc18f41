/* A JPEG's pixels decoded by libjpeg directly, as libvips 8.14's jpegload decodes them (its
 * read_jpeg_header and read_jpeg_generate in jpeg2vips.c): the same libjpeg, libjpeg's defaults,
 * the shrink-on-load as a scale of 1 / shrink, every row read in order, the result cropped to
 * the width and height divided by the shrink, rounded down. So the same pixels, without
 * libvips's pipeline: its sequential loader fed the rows through a thread pool 8 at a time,
 * some 290 futex calls a cover, and took a third of a 1200 px JPEG cover's time.
 *
 * Only with libvips 8.14 and the libjpeg it loaded (found through its handle), and only for what
 * libjpeg gives as grey or RGB without one warning: anything else (CMYK, a damaged scan, any
 * warning) is left to libvips, which decides as before. */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "vips_symbols.h"

/* From png_pixels.c: set on a thread that is to leave everything to libvips. */
extern _Thread_local int gallery_shim_paths_disabled;
/* From vips_shim.c. */
void *gallery_vips_library_handle(void);

#define GALLERY_JPEG_DECODE_SYMBOLS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_mem_src) X(jpeg_read_header) X(jpeg_start_decompress) \
    X(jpeg_read_scanlines) X(jpeg_destroy_decompress)
#define GALLERY_JPEG_DECLARE(name) static __typeof__(name) *decode_##name;
GALLERY_JPEG_DECODE_SYMBOLS(GALLERY_JPEG_DECLARE)
#undef GALLERY_JPEG_DECLARE
static pthread_once_t decoder_once = PTHREAD_ONCE_INIT;
static int decoder_loaded = 0;
static _Thread_local int decoded = 0;

int gallery_jpegs_decoded_on_this_thread(void) {
    return decoded;
}

static void load_decoder(void) {
    void *vips = gallery_vips_library_handle();
    if (vips == NULL || vips_version(0) != 8 || vips_version(1) != 14) return;
#define GALLERY_JPEG_LOAD(name) \
    decode_##name = (__typeof__(decode_##name))dlsym(vips, #name); \
    if (decode_##name == NULL) return;
    GALLERY_JPEG_DECODE_SYMBOLS(GALLERY_JPEG_LOAD)
#undef GALLERY_JPEG_LOAD
    decoder_loaded = 1;
}

struct decode_errors {
    struct jpeg_error_mgr manager;
    jmp_buf failed;
};

static void decode_failed(j_common_ptr decoder) {
    longjmp(((struct decode_errors *)decoder->err)->failed, 1);
}

/* A warning (damaged data libjpeg works around) ends the direct decode: libvips decides. */
static void decode_message(j_common_ptr decoder, int level) {
    if (level < 0) decode_failed(decoder);
}

int gallery_jpeg_pixels(const void *buffer, size_t length, int shrink, int *width, int *height, int *bands,
                        unsigned char **pixels) {
    *pixels = NULL;
    if (gallery_shim_paths_disabled || (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8)) return 0;
    pthread_once(&decoder_once, load_decoder);
    if (!decoder_loaded) return 0;
    struct jpeg_decompress_struct decoder;
    struct decode_errors errors;
    decoder.err = decode_jpeg_std_error(&errors.manager);
    errors.manager.error_exit = decode_failed;
    errors.manager.emit_message = decode_message;
    volatile int created = 0;
    unsigned char *volatile image = NULL;
    unsigned char *volatile row = NULL;
    /* Every libjpeg call below may come back here, through decode_failed(). */
    if (setjmp(errors.failed)) {
        if (created) decode_jpeg_destroy_decompress(&decoder);
        free(image);
        free(row);
        return 0;
    }
    decode_jpeg_CreateDecompress(&decoder, JPEG_LIB_VERSION, sizeof decoder);
    created = 1;
    decode_jpeg_mem_src(&decoder, (const unsigned char *)buffer, (unsigned long)length);
    decode_jpeg_read_header(&decoder, TRUE);
    decoder.scale_denom = (unsigned int)shrink;
    decoder.scale_num = 1;
    decode_jpeg_start_decompress(&decoder);
    int components = decoder.output_components;
    /* libvips crops libjpeg's rounded-up size to the size divided by the shrink, rounded down. */
    size_t columns = decoder.image_width / (unsigned)shrink, rows = decoder.image_height / (unsigned)shrink;
    int colour = decoder.out_color_space == JCS_RGB && components == 3;
    int grey = decoder.out_color_space == JCS_GRAYSCALE && components == 1;
    if (!(colour || grey) || columns < 1 || rows < 1 || columns > decoder.output_width || rows > decoder.output_height
        || (double)columns * rows > 16e6) {
        decode_jpeg_destroy_decompress(&decoder);
        return 0;
    }
    size_t stride = columns * (size_t)components;
    image = malloc(stride * rows);
    row = malloc((size_t)decoder.output_width * (size_t)components);
    if (image == NULL || row == NULL) longjmp(errors.failed, 1);
    while (decoder.output_scanline < rows) {
        size_t y = decoder.output_scanline;
        JSAMPROW into = columns == decoder.output_width ? (JSAMPROW)(image + y * stride) : (JSAMPROW)row;
        decode_jpeg_read_scanlines(&decoder, &into, 1);
        if (into == (JSAMPROW)row) memcpy(image + y * stride, row, stride);
    }
    /* The rows below are not needed (libvips may read a few of them, to no effect on these). */
    decode_jpeg_destroy_decompress(&decoder);
    free(row);
    *width = (int)columns;
    *height = (int)rows;
    *bands = components;
    *pixels = image;
    decoded++;
    return 1;
}
