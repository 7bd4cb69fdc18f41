/* JPEG thumbnails written by libjpeg directly, as libvips 8.14's jpegsave writes them (its
 * write_vips in vips2jpeg.c, with "strip" and "optimize_coding", as vips_shim.c's encode() asks):
 * the same libjpeg, the same settings in the same order, the rows in order, so the same bytes.
 * libvips's saver runs its pipeline and a thread pool for every image, and for the 100 and 200 px
 * thumbnails that took longer than libjpeg itself: 264 µs against 68 for a 100 px tile.
 *
 * Only for an image already in memory, 8-bit sRGB or grey (what libvips would write unchanged),
 * and only with libvips 8.14 and the libjpeg it loaded (found through its handle, not the
 * system's: another libjpeg may write other bytes). Everything else goes to libvips. */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

#include "vips_symbols.h"

/* From png_pixels.c: set on a thread that is to leave everything to libvips. */
extern _Thread_local int gallery_shim_paths_disabled;
/* From vips_shim.c. */
void *gallery_vips_library_handle(void);

#define GALLERY_JPEG_ENCODE_SYMBOLS(X) \
    X(jpeg_std_error) X(jpeg_CreateCompress) X(jpeg_mem_dest) X(jpeg_set_defaults) X(jpeg_set_quality) \
    X(jpeg_start_compress) X(jpeg_write_scanlines) X(jpeg_finish_compress) X(jpeg_destroy_compress)
#define GALLERY_JPEG_DECLARE(name) static __typeof__(name) *encode_##name;
GALLERY_JPEG_ENCODE_SYMBOLS(GALLERY_JPEG_DECLARE)
#undef GALLERY_JPEG_DECLARE
static pthread_once_t encoder_once = PTHREAD_ONCE_INIT;
static int encoder_loaded = 0;
static _Thread_local int encoded = 0;

int gallery_jpegs_encoded_on_this_thread(void) {
    return encoded;
}

static void load_encoder(void) {
    void *vips = gallery_vips_library_handle();
    if (vips == NULL || vips_version(0) != 8 || vips_version(1) != 14) return;
#define GALLERY_JPEG_LOAD(name) \
    encode_##name = (__typeof__(encode_##name))dlsym(vips, #name); \
    if (encode_##name == NULL) return;
    GALLERY_JPEG_ENCODE_SYMBOLS(GALLERY_JPEG_LOAD)
#undef GALLERY_JPEG_LOAD
    encoder_loaded = 1;
}

struct encode_errors {
    struct jpeg_error_mgr manager;
    jmp_buf failed;
};

static void encode_failed(j_common_ptr encoder) {
    longjmp(((struct encode_errors *)encoder->err)->failed, 1);
}

/* libjpeg's warnings (none are expected when writing) are not printed. */
static void encode_message(j_common_ptr encoder, int level) {
    (void)encoder;
    (void)level;
}

int gallery_jpeg_encoded(VipsImage *image, int quality, void **output, size_t *output_length) {
    if (gallery_shim_paths_disabled) return 0;
    int in_memory = image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
    int grey = image->Bands == 1 && image->Type == VIPS_INTERPRETATION_B_W;
    int srgb = image->Bands == 3 && image->Type == VIPS_INTERPRETATION_sRGB;
    if (!in_memory || !(grey || srgb) || image->BandFmt != VIPS_FORMAT_UCHAR || image->Coding != VIPS_CODING_NONE
        || quality < 1 || quality > 100) return 0;
    pthread_once(&encoder_once, load_encoder);
    if (!encoder_loaded) return 0;
    const unsigned char *pixels = vips_image_get_data(image);
    if (pixels == NULL) {
        vips_error_clear();
        return 0;
    }
    int width = vips_image_get_width(image), height = vips_image_get_height(image), bands = image->Bands;
    struct jpeg_compress_struct encoder;
    struct encode_errors errors;
    unsigned char *volatile bytes = NULL;
    unsigned long length = 0;
    encoder.err = encode_jpeg_std_error(&errors.manager);
    errors.manager.error_exit = encode_failed;
    errors.manager.emit_message = encode_message;
    /* Every libjpeg call below may come back here, through encode_failed(): libvips then writes
       the image, or says why it cannot. */
    volatile int created = 0;
    if (setjmp(errors.failed)) {
        if (created) encode_jpeg_destroy_compress(&encoder);
        free(bytes);
        return 0;
    }
    encode_jpeg_CreateCompress(&encoder, JPEG_LIB_VERSION, sizeof encoder);
    created = 1;
    encode_jpeg_mem_dest(&encoder, (unsigned char **)&bytes, &length);
    /* write_vips, step by step. */
    encoder.image_width = (JDIMENSION)width;
    encoder.image_height = (JDIMENSION)height;
    encoder.input_components = bands;
    encoder.in_color_space = bands == 3 ? JCS_RGB : JCS_GRAYSCALE;
    encode_jpeg_set_defaults(&encoder);
    encoder.optimize_coding = TRUE;
    encode_jpeg_set_quality(&encoder, quality, TRUE);
    /* Its "auto" chroma subsampling: none from quality 90. */
    if (quality >= 90) {
        for (int i = 0; i < bands; i++) {
            encoder.comp_info[i].h_samp_factor = 1;
            encoder.comp_info[i].v_samp_factor = 1;
        }
    }
    /* "strip": no JFIF header, no other marker. */
    encoder.write_JFIF_header = FALSE;
    encode_jpeg_start_compress(&encoder, TRUE);
    size_t stride = (size_t)width * (size_t)bands;
    while (encoder.next_scanline < encoder.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder.next_scanline * stride);
        encode_jpeg_write_scanlines(&encoder, &row, 1);
    }
    encode_jpeg_finish_compress(&encoder);
    encode_jpeg_destroy_compress(&encoder);
    *output = bytes;
    *output_length = length;
    encoded++;
    return 1;
}
