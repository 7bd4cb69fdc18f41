/* WebP thumbnails written by libwebp directly, as libvips 8.14's webpsave writes an opaque image
 * and vips_shim.c's strip_webp_chunks() then leaves it: libwebp's lossy encoder with webpsave's
 * settings (the default preset at the quality, alpha quality 100, method 4, no smart
 * subsampling), so the same VP8 bitstream, in the container libvips's muxer makes of it (a VP8X
 * header, whose EXIF flag and chunk the strip then removes). libvips's saver runs its pipeline and
 * a thread pool for every image: 0.3 to 1.2 ms more than libwebp's own 0.8 to 5.5 ms.
 *
 * Only for an image already in memory, 8-bit sRGB with three bands, and only with libvips 8.14
 * and the libwebp it loaded (found through its handle). Everything else goes to libvips. */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

#include "vips_symbols.h"

#define GALLERY_WEBP_SYMBOLS(X) \
    X(WebPConfigInitInternal) X(WebPValidateConfig) X(WebPPictureInitInternal) X(WebPPictureImportRGB) X(WebPEncode) \
    X(WebPPictureFree) X(WebPMemoryWriterInit) X(WebPMemoryWrite) X(WebPMemoryWriterClear)
#define GALLERY_WEBP_DECLARE(name) static __typeof__(name) *encode_##name;
GALLERY_WEBP_SYMBOLS(GALLERY_WEBP_DECLARE)
#undef GALLERY_WEBP_DECLARE
static pthread_once_t encoder_once = PTHREAD_ONCE_INIT;
static int encoder_loaded = 0;
static _Thread_local int encoded = 0;

int gallery_webps_encoded_on_this_thread(void) {
    return encoded;
}

static void load_encoder(void) {
    void *vips = gallery_vips814_handle();
    if (vips == NULL) return;
#define GALLERY_WEBP_LOAD(name) \
    encode_##name = (__typeof__(encode_##name))dlsym(vips, #name); \
    if (encode_##name == NULL) return;
    GALLERY_WEBP_SYMBOLS(GALLERY_WEBP_LOAD)
#undef GALLERY_WEBP_LOAD
    encoder_loaded = 1;
}

static uint32_t get_le32(const unsigned char *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static void put_le32(unsigned char *bytes, uint32_t value) {
    for (int i = 0; i < 4; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

static void put_le24(unsigned char *bytes, uint32_t value) {
    for (int i = 0; i < 3; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

int gallery_webp_encoded(VipsImage *image, int quality, void **output, size_t *output_length) {
    if (gallery_shim_paths_disabled) return 0;
    /* Grey goes to libvips, which writes it as RGB. */
    if (!gallery_in_memory(image) || !gallery_opaque_8bit(image) || image->Bands != 3 || quality < 0 || quality > 100) return 0;
    int width = vips_image_get_width(image), height = vips_image_get_height(image);
    if (width > 16383 || height > 16383) return 0;
    pthread_once(&encoder_once, load_encoder);
    if (!encoder_loaded) return 0;
    const unsigned char *pixels = vips_image_get_data(image);
    if (pixels == NULL) {
        vips_error_clear();
        return 0;
    }
    /* vips_foreign_save_webp_init_config and _pic_init, for a lossy single image. */
    WebPConfig config;
    if (!encode_WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, (float)quality, WEBP_ENCODER_ABI_VERSION)) return 0;
    config.lossless = 0;
    config.alpha_quality = 100;
    config.method = 4;
    if (!encode_WebPValidateConfig(&config)) return 0;
    WebPPicture picture;
    if (!encode_WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION)) return 0;
    WebPMemoryWriter writer;
    encode_WebPMemoryWriterInit(&writer);
    picture.writer = encode_WebPMemoryWrite;
    picture.custom_ptr = &writer;
    picture.use_argb = 0;
    picture.width = width;
    picture.height = height;
    int made = encode_WebPPictureImportRGB(&picture, pixels, width * 3) && encode_WebPEncode(&config, &picture);
    encode_WebPPictureFree(&picture);
    /* libwebp's simple file: RIFF, WEBP, then one VP8 chunk (even-padded) and nothing else. */
    const size_t header = 12;
    size_t chunk = writer.size >= header + 8 ? 8 + (size_t)get_le32(writer.mem + 16) : 0;
    chunk += chunk & 1;
    if (!made || chunk == 0 || memcmp(writer.mem, "RIFF", 4) != 0 || memcmp(writer.mem + 8, "WEBPVP8 ", 8) != 0
        || header + chunk != writer.size) {
        encode_WebPMemoryWriterClear(&writer);
        return 0;
    }
    /* As libvips's muxer lays it out, less the EXIF chunk and flag strip_webp_chunks removes: a
       VP8X header with no flags and the canvas size, then the VP8 chunk. */
    size_t length = header + 18 + chunk;
    unsigned char *bytes = g_malloc(length);
    memcpy(bytes, "RIFF", 4);
    put_le32(bytes + 4, (uint32_t)(length - 8));
    memcpy(bytes + 8, "WEBPVP8X", 8);
    put_le32(bytes + 16, 10);
    memset(bytes + 20, 0, 4);
    put_le24(bytes + 24, (uint32_t)(width - 1));
    put_le24(bytes + 27, (uint32_t)(height - 1));
    memcpy(bytes + 30, writer.mem + header, chunk);
    encode_WebPMemoryWriterClear(&writer);
    *output = bytes;
    *output_length = length;
    encoded++;
    return 1;
}
