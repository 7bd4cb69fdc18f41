/* A square SVG cover drawn straight into a WebP thumbnail: librsvg draws the vector into a
 * cairo surface and libwebp encodes it, as libvips's svgload and webpsave do, but without
 * libvips's pipeline around them. For the 100, 200 and 300 px WebP tiles of a 300 px SVG the
 * pipeline (its operations, region and thread machinery, loading the SVG once for its header
 * and again to draw it) took a third of each thumbnail's time, more than drawing the vector.
 *
 * The bytes are libvips's own: the same calls with the same settings, the DPI libvips gives
 * librsvg (72), its way of undoing cairo's premultiplied alpha, libwebp's default preset at the
 * quality asked for, effort 4, alpha at quality 100, and the VP8X header libvips's muxer writes
 * (flags cleared, as gallery_vips_thumbnail leaves them once it drops the EXIF chunk). A test
 * compares the two on covers with text, gradients, transparency and sizes that do not divide.
 * Only what is sure to come out alike is drawn here: an SVG whose size in pixels is whole and
 * square, and the same as libvips reads, so that libvips would draw it at the thumbnail's size
 * exactly, with nothing to cut, pad or resize. Anything else (and any failure) goes to libvips.
 *
 * librsvg, cairo and libwebp are libraries libvips itself loads: their functions are looked up
 * in the libvips handle, once libvips is loaded. */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* From vips_shim.c. */
void *gallery_vips_library_handle(void);
void *gallery_vips_malloc(size_t size);

typedef struct GalleryRsvgHandle GalleryRsvgHandle;
typedef struct GalleryCairo GalleryCairo;
typedef struct GalleryCairoSurface GalleryCairoSurface;
typedef struct {
    double x, y, width, height;
} GalleryRsvgRectangle;

static struct {
    GalleryRsvgHandle *(*new_from_data)(const uint8_t *data, size_t length, void **error);
    void (*set_dpi)(GalleryRsvgHandle *handle, double dpi);
    int (*intrinsic_size)(GalleryRsvgHandle *handle, double *width, double *height);
    int (*render_document)(GalleryRsvgHandle *handle, GalleryCairo *cairo, const GalleryRsvgRectangle *viewport, void **error);
    void (*object_unref)(void *object);
    GalleryCairoSurface *(*surface_create)(int format, int width, int height);
    int (*surface_status)(GalleryCairoSurface *surface);
    void (*surface_flush)(GalleryCairoSurface *surface);
    unsigned char *(*surface_data)(GalleryCairoSurface *surface);
    int (*surface_stride)(GalleryCairoSurface *surface);
    void (*surface_destroy)(GalleryCairoSurface *surface);
    GalleryCairo *(*create)(GalleryCairoSurface *surface);
    int (*status)(GalleryCairo *cairo);
    void (*destroy)(GalleryCairo *cairo);
    size_t (*encode_rgba)(const uint8_t *rgba, int width, int height, int stride, float quality, uint8_t **output);
    void (*webp_free)(void *pointer);
} api;
static int api_loaded = 0;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void load_api(void) {
    void *vips = gallery_vips_library_handle();
    if (vips == NULL) return;
#define GALLERY_FIND(field, symbol) \
    if ((*(void **)&api.field = dlsym(vips, symbol)) == NULL) return;
    GALLERY_FIND(new_from_data, "rsvg_handle_new_from_data")
    GALLERY_FIND(set_dpi, "rsvg_handle_set_dpi")
    GALLERY_FIND(intrinsic_size, "rsvg_handle_get_intrinsic_size_in_pixels")
    GALLERY_FIND(render_document, "rsvg_handle_render_document")
    GALLERY_FIND(object_unref, "g_object_unref")
    GALLERY_FIND(surface_create, "cairo_image_surface_create")
    GALLERY_FIND(surface_status, "cairo_surface_status")
    GALLERY_FIND(surface_flush, "cairo_surface_flush")
    GALLERY_FIND(surface_data, "cairo_image_surface_get_data")
    GALLERY_FIND(surface_stride, "cairo_image_surface_get_stride")
    GALLERY_FIND(surface_destroy, "cairo_surface_destroy")
    GALLERY_FIND(create, "cairo_create")
    GALLERY_FIND(status, "cairo_status")
    GALLERY_FIND(destroy, "cairo_destroy")
    GALLERY_FIND(encode_rgba, "WebPEncodeRGBA")
    GALLERY_FIND(webp_free, "WebPFree")
#undef GALLERY_FIND
    api_loaded = 1;
}

/* cairo's ARGB32 (native-endian words of premultiplied alpha) as RGBA bytes, alpha undone as
   libvips's svgload undoes it (vips__premultiplied_bgra2rgba): a pixel neither opaque nor clear
   gets 255 * c / a, in integers. */
static void unpremultiply(const unsigned char *surface, int stride, int side, unsigned char *rgba) {
    for (int y = 0; y < side; y++) {
        const uint32_t *row = (const uint32_t *)(surface + (size_t)y * (size_t)stride);
        unsigned char *out = rgba + (size_t)y * (size_t)side * 4;
        for (int x = 0; x < side; x++) {
            uint32_t pixel = row[x];
            unsigned a = pixel >> 24, r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF;
            if (a != 0 && a != 255) {
                r = 255 * r / a;
                g = 255 * g / a;
                b = 255 * b / a;
            }
            out[4 * x] = (unsigned char)r;
            out[4 * x + 1] = (unsigned char)g;
            out[4 * x + 2] = (unsigned char)b;
            out[4 * x + 3] = (unsigned char)a;
        }
    }
}

static void put_le32(unsigned char *bytes, uint32_t value) {
    for (int i = 0; i < 4; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

static void put_le24(unsigned char *bytes, uint32_t value) {
    for (int i = 0; i < 3; i++) bytes[i] = (unsigned char)(value >> (8 * i));
}

/* The encoding in a buffer of libvips's allocator, with the VP8X chunk libvips's muxer puts
   before a still image's VP8 or VP8L chunk (no flags: nothing else is in the file); an encoding
   that has one already (an image with transparency) is copied as it is. */
static int wrapped(const uint8_t *encoded, size_t length, int side, void **output, size_t *output_length) {
    if (length < 20 || memcmp(encoded, "RIFF", 4) != 0 || memcmp(encoded + 8, "WEBP", 4) != 0) return 0;
    int simple = memcmp(encoded + 12, "VP8 ", 4) == 0 || memcmp(encoded + 12, "VP8L", 4) == 0;
    if (!simple && memcmp(encoded + 12, "VP8X", 4) != 0) return 0;
    size_t total = length + (simple ? 18 : 0);
    unsigned char *bytes = gallery_vips_malloc(total);
    if (bytes == NULL) return 0;
    if (simple) {
        memcpy(bytes, encoded, 12);
        memcpy(bytes + 12, "VP8X", 4);
        put_le32(bytes + 16, 10);
        memset(bytes + 20, 0, 4);
        put_le24(bytes + 24, (uint32_t)(side - 1));
        put_le24(bytes + 27, (uint32_t)(side - 1));
        memcpy(bytes + 30, encoded + 12, length - 12);
        put_le32(bytes + 4, (uint32_t)(total - 8));
    } else {
        memcpy(bytes, encoded, length);
    }
    *output = bytes;
    *output_length = total;
    return 1;
}

int gallery_svg_webp(const void *buffer, size_t length, int side, int size, int quality, void **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (size < 1 || size > 4096 || side < 1 || quality < 0 || quality > 100) return 0;
    if (gallery_vips_init() != 0) return 0;
    pthread_once(&api_once, load_api);
    if (!api_loaded) return 0;
    GalleryRsvgHandle *handle = api.new_from_data(buffer, length, NULL);
    if (handle == NULL) return 0;
    /* libvips's default, which sizes given in points, inches or centimetres depend on. */
    api.set_dpi(handle, 72.0);
    int made = 0;
    double width = 0, height = 0;
    if (api.intrinsic_size(handle, &width, &height) && width == (double)side && height == (double)side) {
        GalleryCairoSurface *surface = api.surface_create(0 /* CAIRO_FORMAT_ARGB32 */, size, size);
        unsigned char *rgba = malloc((size_t)size * (size_t)size * 4);
        if (api.surface_status(surface) == 0 && rgba != NULL) {
            GalleryCairo *cairo = api.create(surface);
            GalleryRsvgRectangle viewport = {0, 0, size, size};
            int drawn = api.render_document(handle, cairo, &viewport, NULL) && api.status(cairo) == 0;
            api.destroy(cairo);
            api.surface_flush(surface);
            unsigned char *pixels = api.surface_data(surface);
            if (drawn && pixels != NULL) {
                unpremultiply(pixels, api.surface_stride(surface), size, rgba);
                uint8_t *encoded = NULL;
                size_t encoded_length = api.encode_rgba(rgba, size, size, size * 4, (float)quality, &encoded);
                if (encoded_length > 0) made = wrapped(encoded, encoded_length, size, output, output_length);
                if (encoded != NULL) api.webp_free(encoded);
            }
        }
        free(rgba);
        api.surface_destroy(surface);
    }
    api.object_unref(handle);
    return made;
}
