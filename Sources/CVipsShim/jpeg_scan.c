/* gallery_jpeg_scan(): a JPEG read whole by libjpeg to see every warning (libvips passes on
   only the first). See vips_shim.h. */
#include "vips_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

#include "jpeg_window.h"

/* libjpeg, opened with dlopen like libvips: gallery runs without either until a thumbnail is
   made. */
#define GALLERY_JPEG_SYMBOLS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_resync_to_restart) X(jpeg_read_header) \
    X(jpeg_start_decompress) X(jpeg_read_scanlines) X(jpeg_finish_decompress) X(jpeg_destroy_decompress)
#define GALLERY_JPEG_DECLARE(name) static __typeof__(name) *gallery_j_##name;
GALLERY_JPEG_SYMBOLS(GALLERY_JPEG_DECLARE)
#undef GALLERY_JPEG_DECLARE
static pthread_once_t jpeg_once = PTHREAD_ONCE_INIT;
static int jpeg_loaded = 0;

static void load_jpeg(void) {
    void *library = dlopen("libjpeg.so.62", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define GALLERY_JPEG_LOAD(name) \
    gallery_j_##name = (__typeof__(gallery_j_##name))dlsym(library, #name); \
    if (gallery_j_##name == NULL) return;
    GALLERY_JPEG_SYMBOLS(GALLERY_JPEG_LOAD)
#undef GALLERY_JPEG_LOAD
    jpeg_loaded = 1;
}

struct scan_errors {
    struct jpeg_error_mgr manager;
    jmp_buf failed;
    char lost[JMSG_LENGTH_MAX];
};

/* A warning that means scan data was lost: what libjpeg could not read, it fills with grey. */
static int loses_scan_data(int code) {
    return code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE || code == JWRN_ARITH_BAD_CODE
        || code == JWRN_MUST_RESYNC || code == JWRN_JPEG_EOF || code == JWRN_BOGUS_PROGRESSION;
}

static void scan_message(j_common_ptr decoder, int level) {
    struct scan_errors *errors = (struct scan_errors *)decoder->err;
    if (level < 0 && errors->lost[0] == '\0' && loses_scan_data(errors->manager.msg_code)) {
        errors->manager.format_message(decoder, errors->lost);
    }
}

static void scan_failed(j_common_ptr decoder) {
    struct scan_errors *errors = (struct scan_errors *)decoder->err;
    if (errors->lost[0] == '\0') errors->manager.format_message(decoder, errors->lost);
    longjmp(errors->failed, 1);
}

int gallery_jpeg_scan(const void *buffer, size_t length, char *message, size_t message_size) {
    pthread_once(&jpeg_once, load_jpeg);
    if (!jpeg_loaded) return -1;
    struct jpeg_decompress_struct decoder;
    struct scan_errors errors;
    errors.lost[0] = '\0';
    decoder.err = gallery_j_jpeg_std_error(&errors.manager);
    errors.manager.emit_message = scan_message;
    errors.manager.error_exit = scan_failed;
    /* Every libjpeg call below may come back here, through scan_failed(). */
    volatile int created = 0;
    JSAMPARRAY volatile rows = NULL;
    if (setjmp(errors.failed)) {
        if (created) gallery_j_jpeg_destroy_decompress(&decoder);
        free(rows);
        snprintf(message, message_size, "%s", errors.lost);
        return 0;
    }
    gallery_j_jpeg_CreateDecompress(&decoder, JPEG_LIB_VERSION, sizeof decoder);
    created = 1;
    /* Windows too short for libjpeg-turbo's fast path, which reads a bad Huffman code as 0
       without a warning (see jpeg_window.h). */
    struct gallery_jpeg_window source;
    gallery_jpeg_window_source(&decoder, &source, buffer, length, 256, gallery_j_jpeg_resync_to_restart);
    gallery_j_jpeg_read_header(&decoder, TRUE);
    /* An eighth of the size: every coefficient is still read, so every loss is still found. */
    decoder.scale_num = 1;
    decoder.scale_denom = 8;
    decoder.dct_method = JDCT_IFAST;
    decoder.do_fancy_upsampling = FALSE;
    gallery_j_jpeg_start_decompress(&decoder);
    size_t row = (size_t)decoder.output_width * (size_t)decoder.output_components;
    rows = malloc(sizeof(JSAMPROW) + row);
    if (rows == NULL) {
        gallery_j_jpeg_destroy_decompress(&decoder);
        snprintf(message, message_size, "out of memory");
        return 0;
    }
    rows[0] = (JSAMPROW)((char *)rows + sizeof(JSAMPROW));
    while (decoder.output_scanline < decoder.output_height) {
        gallery_j_jpeg_read_scanlines(&decoder, rows, 1);
    }
    gallery_j_jpeg_finish_decompress(&decoder);
    gallery_j_jpeg_destroy_decompress(&decoder);
    free(rows);
    if (errors.lost[0] != '\0') {
        snprintf(message, message_size, "%s", errors.lost);
        return 0;
    }
    return 1;
}
