#include "vips_shim.h"
#include <pthread.h>
#include <vips/vips.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = -1;

/* libvips's warnings (a damaged chunk, a short read) would go to stderr; the failure they lead to
   reaches the caller through the error buffer instead. */
static void ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

static void start_vips(void) {
    init_result = VIPS_INIT("gallery");
    if (init_result == 0) {
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, ignore_log, NULL);
        vips_cache_set_max(0);
        vips_concurrency_set(1);
    }
}

int gallery_vips_init(void) {
    pthread_once(&init_once, start_vips);
    return init_result;
}

char *gallery_vips_error(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

void gallery_vips_free(void *pointer) {
    g_free(pointer);
}

int gallery_vips_header(const void *buffer, size_t length, int *width, int *height) {
    if (gallery_vips_init() != 0) return -1;
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

static int encode(VipsImage *image, int format, int quality, void **output, size_t *output_length) {
    switch (format) {
    case GALLERY_FORMAT_WEBP:
        return vips_webpsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE, NULL);
    case GALLERY_FORMAT_JPEG:
        return vips_jpegsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE,
                                    "optimize_coding", TRUE, NULL);
    case GALLERY_FORMAT_PNG:
        return vips_pngsave_buffer(image, output, output_length, "strip", TRUE, NULL);
    case GALLERY_FORMAT_AVIF:
        return vips_heifsave_buffer(image, output, output_length, "Q", quality, "strip", TRUE,
                                    "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
    default:
        vips_error("gallery", "unknown output format %d", format);
        return -1;
    }
}

/* Decodes and fits an image to exactly width × height (before encoding): shrink-on-load, the
   fit, padding for "contain", and a white background for JPEG. */
static int fitted(const void *buffer, size_t length, int width, int height, int fit, int format, VipsImage **out) {
    VipsInteresting crop = fit == GALLERY_FIT_ATTENTION ? VIPS_INTERESTING_ATTENTION
                         : fit == GALLERY_FIT_CONTAIN ? VIPS_INTERESTING_NONE
                         : VIPS_INTERESTING_CENTRE;
    VipsImage *current = NULL;
    VipsImage *next = NULL;
    /* libvips does not change the buffer; its signature predates const. */
    if (vips_thumbnail_buffer((void *)buffer, length, &current, width, "height", height,
                              "crop", crop, "size", VIPS_SIZE_BOTH,
                              "option_string", "fail_on=error", NULL) != 0) {
        return -1;
    }
    if (fit == GALLERY_FIT_CONTAIN && (vips_image_get_width(current) != width || vips_image_get_height(current) != height)) {
        int result = pad(current, &next, width, height, format);
        g_object_unref(current);
        if (result != 0) return -1;
        current = next;
    }
    if (format == GALLERY_FORMAT_JPEG && vips_image_hasalpha(current)) {
        double white[] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int result = vips_flatten(current, &next, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(current);
        if (result != 0) return -1;
        current = next;
    }
    *out = current;
    return 0;
}

int gallery_vips_thumbnail(const void *buffer, size_t length, int width, int height, int fit,
                           int format, int quality, void **output, size_t *output_length) {
    if (gallery_vips_init() != 0) return -1;
    VipsImage *image = NULL;
    if (fitted(buffer, length, width, height, fit, format, &image) != 0) return -1;
    int result = encode(image, format, quality, output, output_length);
    g_object_unref(image);
    return result;
}

int gallery_vips_thumbnails(const void *buffer, size_t length, int count, const int *sizes, int fit,
                            int format, int quality, void **outputs, size_t *output_lengths) {
    if (gallery_vips_init() != 0) return -1;
    if (count < 1) return 0;
    int largest = 0;
    for (int i = 0; i < count; i++) {
        outputs[i] = NULL;
        output_lengths[i] = 0;
        if (sizes[i] > sizes[largest]) largest = i;
    }
    VipsImage *image = NULL;
    if (fitted(buffer, length, sizes[largest], sizes[largest], fit, format, &image) != 0) return -1;
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
        result = vips_thumbnail_image(memory, &smaller, sizes[i], "height", sizes[i], "size", VIPS_SIZE_BOTH, NULL);
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

int gallery_vips_pattern(int width, int height, int format, void **output, size_t *output_length) {
    if (gallery_vips_init() != 0) return -1;
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

int gallery_vips_pixel(const void *buffer, size_t length, int x, int y, int *red, int *green, int *blue) {
    if (gallery_vips_init() != 0) return -1;
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
    g_free(values);
    return 0;
}
