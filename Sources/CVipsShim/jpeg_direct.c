/* JPEG through libjpeg directly, as libvips 8.14 reads and writes it, without libvips's pipeline
 * and thread pool around every image: a cover's shrink-on-load decoded as its jpegload decodes it
 * (gallery_jpeg_pixels, for direct_resize.c's reduce), and a thumbnail in memory written as its
 * jpegsave writes it (gallery_jpeg_encoded, for vips_shim.c's encode()). Both call the libjpeg
 * libvips itself loaded, found through its handle (another libjpeg may decode or write other
 * bytes), and only with libvips 8.14, whose jpeg2vips.c and vips2jpeg.c they follow call for
 * call. Anything they are not sure of is left to libvips.
 *
 * The decode: libjpeg's defaults, the shrink as a scale of 1 / shrink, every row read in order,
 * the result cropped to the size divided by the shrink, rounded down (read_jpeg_header and
 * read_jpeg_generate). libvips's sequential loader fed the rows through its thread pool 8 at a
 * time, some 290 futex calls a cover, a third of a 1200 px JPEG cover's time. Only for what
 * libjpeg gives as grey or RGB without one warning: CMYK, a damaged scan or any warning goes to
 * libvips, which decides as before.
 *
 * The encode ("strip" and "optimize_coding", as encode() asks): write_vips's settings in its
 * order. For a 100 px tile libvips's saver took 264 µs against libjpeg's own 68. Only for an
 * image already in memory, 8-bit sRGB or grey (what libvips would write unchanged). */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "jpeg_window.h"
#include "vips_symbols.h"

#define GALLERY_JPEG_DIRECT_SYMBOLS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_resync_to_restart) X(jpeg_read_header) X(jpeg_start_decompress) \
    X(jpeg_read_scanlines) X(jpeg_destroy_decompress) X(jpeg_CreateCompress) X(jpeg_mem_dest) X(jpeg_set_defaults) \
    X(jpeg_set_quality) X(jpeg_start_compress) X(jpeg_write_scanlines) X(jpeg_finish_compress) X(jpeg_destroy_compress)
#define GALLERY_JPEG_DECLARE(name) static __typeof__(name) *direct_##name;
GALLERY_JPEG_DIRECT_SYMBOLS(GALLERY_JPEG_DECLARE)
#undef GALLERY_JPEG_DECLARE
static pthread_once_t api_once = PTHREAD_ONCE_INIT;
static int api_loaded = 0;
static _Thread_local int decoded = 0;
static _Thread_local int encoded = 0;

int gallery_jpegs_decoded_on_this_thread(void) {
    return decoded;
}

int gallery_jpegs_encoded_on_this_thread(void) {
    return encoded;
}

static void load_api(void) {
    void *vips = gallery_vips814_handle();
    if (vips == NULL) return;
#define GALLERY_JPEG_LOAD(name) \
    direct_##name = (__typeof__(direct_##name))dlsym(vips, #name); \
    if (direct_##name == NULL) return;
    GALLERY_JPEG_DIRECT_SYMBOLS(GALLERY_JPEG_LOAD)
#undef GALLERY_JPEG_LOAD
    api_loaded = 1;
}

/* libjpeg's errors, and its warnings, end the call: through longjmp() back to it. */
struct direct_errors {
    struct jpeg_error_mgr manager;
    jmp_buf failed;
};

static void direct_failed(j_common_ptr codec) {
    longjmp(((struct direct_errors *)codec->err)->failed, 1);
}

/* A warning while decoding (damaged data libjpeg works around) ends the direct decode: libvips
   decides. None is expected while writing; it would end that too. */
static void direct_message(j_common_ptr codec, int level) {
    if (level < 0) direct_failed(codec);
}

static struct jpeg_error_mgr *direct_error_manager(struct direct_errors *errors) {
    struct jpeg_error_mgr *manager = direct_jpeg_std_error(&errors->manager);
    manager->error_exit = direct_failed;
    manager->emit_message = direct_message;
    return manager;
}

/* libvips 8.14's source manager reads 4096 bytes at a time: see jpeg_window.h. */
enum { GALLERY_LIBVIPS_JPEG_WINDOW = 4096 };

int gallery_jpeg_pixels(const void *buffer, size_t length, int shrink, int *width, int *height, int *bands,
                        unsigned char **pixels) {
    *pixels = NULL;
    if (gallery_shim_paths_disabled || (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8)) return 0;
    pthread_once(&api_once, load_api);
    if (!api_loaded) return 0;
    struct jpeg_decompress_struct decoder;
    struct direct_errors errors;
    decoder.err = direct_error_manager(&errors);
    volatile int created = 0;
    unsigned char *volatile image = NULL;
    unsigned char *volatile row = NULL;
    /* Every libjpeg call below may come back here, through direct_failed(). */
    if (setjmp(errors.failed)) {
        if (created) direct_jpeg_destroy_decompress(&decoder);
        free(image);
        free(row);
        return 0;
    }
    direct_jpeg_CreateDecompress(&decoder, JPEG_LIB_VERSION, sizeof decoder);
    created = 1;
    struct gallery_jpeg_window source;
    gallery_jpeg_window_source(&decoder, &source, buffer, length, GALLERY_LIBVIPS_JPEG_WINDOW, direct_jpeg_resync_to_restart);
    direct_jpeg_read_header(&decoder, TRUE);
    decoder.scale_denom = (unsigned int)shrink;
    decoder.scale_num = 1;
    direct_jpeg_start_decompress(&decoder);
    int components = decoder.output_components;
    /* libvips crops libjpeg's rounded-up size to the size divided by the shrink, rounded down. */
    size_t columns = decoder.image_width / (unsigned)shrink, rows = decoder.image_height / (unsigned)shrink;
    int colour = decoder.out_color_space == JCS_RGB && components == 3;
    int grey = decoder.out_color_space == JCS_GRAYSCALE && components == 1;
    if (!(colour || grey) || columns < 1 || rows < 1 || columns > decoder.output_width || rows > decoder.output_height
        || (double)columns * rows > 16e6) {
        direct_jpeg_destroy_decompress(&decoder);
        return 0;
    }
    size_t stride = columns * (size_t)components;
    /* A row of libjpeg's width to crop from, only when it is wider. */
    int cropped = columns != decoder.output_width;
    image = malloc(stride * rows);
    row = cropped ? malloc((size_t)decoder.output_width * (size_t)components) : NULL;
    if (image == NULL || (cropped && row == NULL)) longjmp(errors.failed, 1);
    while (decoder.output_scanline < rows) {
        unsigned char *pixels_row = image + (size_t)decoder.output_scanline * stride;
        JSAMPROW into = cropped ? (JSAMPROW)row : (JSAMPROW)pixels_row;
        direct_jpeg_read_scanlines(&decoder, &into, 1);
        if (cropped) memcpy(pixels_row, row, stride);
    }
    /* The rows below are not needed (libvips may read a few of them, to no effect on these). */
    direct_jpeg_destroy_decompress(&decoder);
    free(row);
    *width = (int)columns;
    *height = (int)rows;
    *bands = components;
    *pixels = image;
    decoded++;
    return 1;
}

int gallery_jpeg_encoded(VipsImage *image, int quality, void **output, size_t *output_length) {
    if (gallery_shim_paths_disabled) return 0;
    if (!gallery_in_memory(image) || !gallery_opaque_8bit(image) || quality < 1 || quality > 100) return 0;
    pthread_once(&api_once, load_api);
    if (!api_loaded) return 0;
    const unsigned char *pixels = vips_image_get_data(image);
    if (pixels == NULL) {
        vips_error_clear();
        return 0;
    }
    int width = vips_image_get_width(image), height = vips_image_get_height(image), bands = image->Bands;
    struct jpeg_compress_struct encoder;
    struct direct_errors errors;
    unsigned char *volatile bytes = NULL;
    unsigned long length = 0;
    encoder.err = direct_error_manager(&errors);
    /* Every libjpeg call below may come back here, through direct_failed(): libvips then writes
       the image, or says why it cannot. */
    volatile int created = 0;
    if (setjmp(errors.failed)) {
        if (created) direct_jpeg_destroy_compress(&encoder);
        free(bytes);
        return 0;
    }
    direct_jpeg_CreateCompress(&encoder, JPEG_LIB_VERSION, sizeof encoder);
    created = 1;
    direct_jpeg_mem_dest(&encoder, (unsigned char **)&bytes, &length);
    /* write_vips, step by step. */
    encoder.image_width = (JDIMENSION)width;
    encoder.image_height = (JDIMENSION)height;
    encoder.input_components = bands;
    encoder.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
    direct_jpeg_set_defaults(&encoder);
    encoder.optimize_coding = TRUE;
    direct_jpeg_set_quality(&encoder, quality, TRUE);
    /* Its "auto" chroma subsampling: none from quality 90. */
    if (quality >= 90) {
        for (int i = 0; i < bands; i++) {
            encoder.comp_info[i].h_samp_factor = 1;
            encoder.comp_info[i].v_samp_factor = 1;
        }
    }
    /* "strip": no JFIF header, no other marker. */
    encoder.write_JFIF_header = FALSE;
    direct_jpeg_start_compress(&encoder, TRUE);
    size_t stride = (size_t)width * (size_t)bands;
    while (encoder.next_scanline < encoder.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder.next_scanline * stride);
        direct_jpeg_write_scanlines(&encoder, &row, 1);
    }
    direct_jpeg_finish_compress(&encoder);
    direct_jpeg_destroy_compress(&encoder);
    *output = bytes;
    *output_length = length;
    encoded++;
    return 1;
}
