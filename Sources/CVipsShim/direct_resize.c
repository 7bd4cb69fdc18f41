/* Thumbnails resized without libvips's pipeline, where that is sure to give libvips's bytes: a PNG
 * decoded by png_pixels.c (its rows box-shrunk as libvips's resize would begin), and the Lanczos
 * reduces of libvips 8.14 made by reduce_rows.c. Called from vips_shim.c's fitted() and
 * thumbnails(); everything else, and anything these decline, goes through libvips as before. */

#include "vips_shim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vips_symbols.h"

static _Thread_local int jpegs_reduced = 0;

int gallery_jpegs_reduced_on_this_thread(void) {
    return jpegs_reduced;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void)image;
    free(pixels);
}

/* The shrink libvips's thumbnail asks of its resize for a `side` px square into a `size` px one:
   its scale, 1 / (side / size), inverted again by its reduce. */
static double thumbnail_shrink(int side, int size) {
    return 1.0 / (1.0 / ((double)side / size));
}

/* The box shrink libvips 8.13+'s reduce makes before its Lanczos pass, from `side` pixels into
   `out` (its "gap" of 2), as reducev and reduceh compute it. */
static int reduce_box(int side, int out) {
    return VIPS_MAX(1, (int)VIPS_FLOOR((double)side / out / 2.0));
}

/* Whether reduce_rows.c is sure to make libvips 8.14's reduce by `shrink` with `offset` into
   `size` rows: 8.14 with its vector paths off (as gallery runs it), no more points than it
   handles, and a shrink and offset with at most 8 binary places (see reduce_rows.c). */
static int reduces_exactly(double shrink, double offset, int size) {
    if (vips_version(0) != 8 || vips_version(1) != 14 || vips_vector_isenabled()) return 0;
    return shrink * 256 == floor(shrink * 256) && offset * 256 == floor(offset * 256) && shrink * size <= 1e6
        && shrink != 1.0 && gallery_reduce_rows_points(shrink) <= 64;
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
    double total = thumbnail_shrink(side, size);
    int height = VIPS_ROUND_UINT((double)side / total);
    int box = reduce_box(side, height);
    if (height != size || box < 2 || box > 8 || side % box != 0) return 0;
    /* libvips 8.15 and later (Highway) round a box of 3 or 5 rows otherwise than 8.14's
       (sum + box / 2) / box (seen with 8.18); by 2, 4 and 8 they agree, as the tests check. */
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
VipsImage *gallery_decoded_png(const void *buffer, size_t length, int size, double *rest) {
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
   by `rest`, made by reduce_rows.c, when that is sure to be libvips's (reduces_exactly). NULL
   otherwise (nothing to undo); `in` is left as it is. */
static VipsImage *reduced_rows(VipsImage *in, int size, double rest) {
    int rows = vips_image_get_height(in);
    double extra_pixels = size * rest - rows; /* as reducev computes its offset */
    double offset = (1 + extra_pixels) / 2.0 - 1;
    if (!reduces_exactly(rest, offset, size)) return NULL;
    int width = vips_image_get_width(in), bands = in->Bands;
    size_t row_length = (size_t)width * bands;
    const unsigned char *data = vips_image_get_data(in);
    unsigned char *pixels = data != NULL ? malloc(row_length * size) : NULL;
    if (pixels == NULL) return NULL;
    if (gallery_reduce_rows(data, row_length, rows, pixels, size, rest, offset) != 0) {
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
    int box = reduce_box(width, size);
    double rest = total;
    if (box > 1) {
        rest /= box;
        extra_pixels /= box;
    }
    double offset = (1 + extra_pixels) / 2.0 - 1;
    if (!reduces_exactly(rest, offset, size) || box > 8 || width % box != 0) return NULL;
    const unsigned char *data = vips_image_get_data(in);
    unsigned char *pixels = data != NULL ? malloc((size_t)size * rows * bands) : NULL;
    if (pixels == NULL) return NULL;
    if (gallery_reduce_columns(data, width, rows, bands, pixels, size, box, rest, offset) != 0) {
        free(pixels);
        return NULL;
    }
    VipsImage *image = wrapped(pixels, size, rows, bands);
    if (image != NULL) inherit(image, in);
    return image;
}

/* Whether libvips's thumbnail of a `side` px square into a `size` px square is a resize with no
   box shrink (the square is under 4 times the size) whose reducev and reduceh reduce_rows.c
   makes exactly (see reduced_rows and reduced_columns, whose conditions these are). */
static int square_reduces_exactly(int side, int size) {
    if (size < 1 || size >= side) return 0;
    double total = thumbnail_shrink(side, size);
    double extra_pixels = size * total - side; /* as reducev and reduceh compute their offset */
    double offset = (1 + extra_pixels) / 2.0 - 1;
    return VIPS_ROUND_UINT((double)side / total) == size && reduce_box(side, size) == 1 && reduces_exactly(total, offset, size);
}

/* libvips's thumbnail of a square opaque 8-bit image into a `size` px square, when its resize
   begins with no box shrink (the image is under 4 times the size: the tile and its 2x copy made
   from the album page's image) and reduce_rows.c can make its reducev (see reduced_rows): that
   reducev, then libvips's reduceh. 1 when made, 0 when not (nothing made: the caller asks
   libvips), -1 on error. */
int gallery_reduced_square(VipsImage *in, int size, VipsImage **out) {
    int side = vips_image_get_width(in);
    if (side != vips_image_get_height(in) || !gallery_opaque_8bit(in) || !square_reduces_exactly(side, size)) return 0;
    double total = thumbnail_shrink(side, size);
    VipsImage *rows = reduced_rows(in, size, total);
    if (rows == NULL) return 0;
    *out = reduced_columns(rows, size, total);
    int result = *out != NULL ? 0 : vips_reduceh(rows, out, total, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
    g_object_unref(rows);
    return result == 0 ? 1 : -1;
}

/* libvips 8.14's thumbnail of a square opaque JPEG (its header opened: `header`) into a `size` px
   square, where the resize after its shrink-on-load is one gallery_reduced_square makes: 1200 px
   into 300 (loaded at 600), 1500 or 3000 px (at 750), 600 px. The JPEG is loaded as the thumbnail
   loads it, libjpeg shrinking it by the factor libvips's find_jpegshrink picks (leaving at least
   2 to the resize), into memory (by jpeg_direct.c where it can), then reduced by reduce_rows.c:
   libvips 8.14's reduce without its pipeline, which took a quarter of such a cover's time
   summing a byte at a time. A cover libvips would turn upright is left to it. 1 when made; 0
   when not (nothing made: the caller asks libvips's thumbnail, which also gives a damaged JPEG
   its own error); -1 on error. */
int gallery_reduced_jpeg(VipsImage *header, const void *buffer, size_t length, int size, const char *fail_on, VipsImage **out) {
    int side = vips_image_get_width(header);
    if (gallery_shim_paths_disabled || side != vips_image_get_height(header) || !gallery_opaque_8bit(header)
        || vips_image_get_orientation(header) != 1) return 0;
    double shrink = (double)side / size;
    int factor = shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1;
    int loaded = side / factor; /* jpegload crops libjpeg's rounded-up size to this */
    if (!square_reduces_exactly(loaded, size) || (double)loaded * loaded > 16e6) return 0;
    /* Decoded by jpeg_direct.c where it can (the cover's metadata taken from its header, as the
       loader would have set it), else by libvips as its thumbnail loads it, into memory. */
    VipsImage *memory = NULL;
    int width = 0, height = 0, bands = 0;
    unsigned char *pixels = NULL;
    if (gallery_jpeg_pixels(buffer, length, factor, &width, &height, &bands, &pixels) == 1) {
        memory = wrapped(pixels, width, height, bands);
        if (memory != NULL) inherit(memory, header);
    } else {
        VipsImage *image = vips_image_new_from_buffer((void *)buffer, length, fail_on, "access", VIPS_ACCESS_SEQUENTIAL, "shrink", factor, NULL);
        memory = image != NULL ? vips_image_copy_memory(image) : NULL;
        if (image != NULL) g_object_unref(image);
    }
    int made = 0;
    if (memory != NULL && vips_image_get_width(memory) == loaded && vips_image_get_height(memory) == loaded) {
        made = gallery_reduced_square(memory, size, out);
    }
    if (memory != NULL) g_object_unref(memory);
    if (made == 0) vips_error_clear();
    jpegs_reduced += made == 1;
    return made;
}

/* What libvips's thumbnail would do with a PNG from gallery_decoded_png whose rows came shrunk
   (*rest > 0): its reducev of what is left and its reduceh (Lanczos 3, gap 2), made here where
   reduce_rows.c is sure to make libvips's bytes, else by libvips. Square into square, there is
   nothing to cut. Takes `png` over (unreferenced); 0 with *out, or -1. */
int gallery_resize_decoded_png(VipsImage *png, int width, int height, double rest, VipsImage **out) {
    double across = thumbnail_shrink(vips_image_get_width(png), width);
    VipsImage *rows = reduced_rows(png, height, rest);
    *out = rows != NULL ? reduced_columns(rows, width, across) : NULL;
    int result = rows != NULL ? 0 : vips_reducev(png, &rows, rest, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
    g_object_unref(png);
    if (result != 0) return -1;
    if (*out == NULL) result = vips_reduceh(rows, out, across, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
    g_object_unref(rows);
    return result;
}
