/* A PNG cover's pixels, decoded without libpng: its zlib stream inflated by libdeflate and its
 * rows unfiltered with SSE2, then handed to libvips to resize as libvips would have after
 * decoding it itself. For a 1200 px photo, libvips 8.14's own decode (libpng over zlib, a row
 * at a time) took about 24 ms of the 40 ms from the PNG to its 300 px thumbnail, and this one
 * takes 12: libdeflate inflates in about half zlib's time, and the rows are unfiltered a whole
 * pixel at a time. (Without SSE2, as on ARM, a byte at a time.)
 *
 * Only what is sure to come out as libpng decodes it is taken: 8 bits a sample, grey, grey and
 * alpha, RGB or RGBA, not interlaced, every chunk's CRC right, the IDAT chunks together and
 * their stream exactly the image's size, and no chunk that libvips would read into the
 * thumbnail (a colour profile, transparency, EXIF with an orientation) or that libpng does not
 * know. Anything else, damaged files included, goes to libvips as before, so that what it
 * accepts, refuses or warns of is unchanged. A test compares the thumbnails both ways.
 *
 * libdeflate is a library libvips already loads (through libtiff): its functions are looked up
 * in the libvips handle, or else in the system's libdeflate.so.0; without it, every PNG goes to
 * libvips. The thumbnails were compared both ways with libvips 8.14 (libpng) and 8.18 (libspng,
 * pyvips-binary's). */

#include "vips_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* From vips_shim.c. */
void *gallery_vips_library_handle(void);

static struct {
    void *(*alloc_decompressor)(void);
    void (*free_decompressor)(void *decompressor);
    int (*zlib_decompress_ex)(void *decompressor, const void *in, size_t in_length, void *out, size_t out_available,
                              size_t *in_used, size_t *out_made);
    uint32_t (*crc32)(uint32_t crc, const void *buffer, size_t length);
} api;
static int api_loaded = 0;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;
/* Set on a thread that is to leave everything to libvips (the tests' comparisons): PNGs here,
   and reduce_rows.c's reduce. */
_Thread_local int gallery_shim_paths_disabled = 0;
/* How many images gallery_png_shrink_rows() has shrunk, and gallery_png_pixels() decoded, on this
   thread (for the tests). */
static _Thread_local int shrunk = 0;
static _Thread_local int decoded = 0;

static void load_api(void) {
    void *vips = gallery_vips_library_handle();
    if (vips == NULL) return;
    /* A libvips built with everything inside it (pyvips-binary's) has no libdeflate of its own:
       then the system's, if it has one. */
    if (dlsym(vips, "libdeflate_crc32") == NULL) vips = dlopen("libdeflate.so.0", RTLD_NOW | RTLD_LOCAL);
    if (vips == NULL) return;
#define GALLERY_FIND(field, symbol) \
    if ((*(void **)&api.field = dlsym(vips, symbol)) == NULL) return;
    GALLERY_FIND(alloc_decompressor, "libdeflate_alloc_decompressor")
    GALLERY_FIND(free_decompressor, "libdeflate_free_decompressor")
    GALLERY_FIND(zlib_decompress_ex, "libdeflate_zlib_decompress_ex")
    GALLERY_FIND(crc32, "libdeflate_crc32")
#undef GALLERY_FIND
    api_loaded = 1;
}

void gallery_shim_paths_set_enabled(int on) {
    gallery_shim_paths_disabled = !on;
}

int gallery_png_rows_shrunk_on_this_thread(void) {
    return shrunk;
}

int gallery_png_decoded_on_this_thread(void) {
    return decoded;
}

static uint32_t read_be32(const unsigned char *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static int is_chunk(const unsigned char *type, const char *name) {
    return memcmp(type, name, 4) == 0;
}

/* Chunks libvips 8.14 and libpng leave out of a thumbnail's pixels: resolution, text, time,
   and the colour hints libvips does not apply (gamma, chromaticities, sRGB intent, significant
   bits, background). Any other chunk sends the PNG to libvips. */
static int is_harmless(const unsigned char *type) {
    static const char *names[] = {"pHYs", "tEXt", "zTXt", "iTXt", "tIME", "gAMA", "cHRM", "sRGB", "sBIT", "bKGD"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (is_chunk(type, names[i])) return 1;
    }
    return 0;
}

/* Compiled twice where the loader can choose between them (an ifunc, on x86-64 ELF): for CPUs
   with AVX2 the same 128-bit intrinsics get AVX's three-operand forms and SSSE3's and SSE4.1's
   absolute values and blends, some 2 % of a cold thumbnail build. The same source, so the same
   pixels. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__)
#define GALLERY_ALSO_FOR_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define GALLERY_ALSO_FOR_AVX2
#endif

#ifdef __SSE2__
/* The 4 bytes at `bytes`, one to a 16-bit lane: a pixel of 4 bytes, or of 3 and the next byte.
   (A 3-byte copy went through the stack, and stalled on every pixel.) */
static inline __m128i load_pixel(const unsigned char *bytes) {
    uint32_t value;
    memcpy(&value, bytes, 4);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)value), _mm_setzero_si128());
}

static inline void store_pixel(unsigned char *bytes, __m128i lanes) {
    uint32_t value = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes));
    memcpy(bytes, &value, 4);
}

/* What filter 1 (sub), 3 (average) or 4 (Paeth) predicts of a pixel from its left, up and upper
   left neighbours, in 16-bit lanes. Paeth: the nearest of left, up and upper left to left + up −
   upper left, ties to left, then up. */
static inline __attribute__((always_inline)) __m128i predicted(int filter, __m128i left, __m128i up, __m128i upper_left) {
    if (filter == 1) return left;
    if (filter == 3) return _mm_srli_epi16(_mm_add_epi16(left, up), 1);
    __m128i zero = _mm_setzero_si128();
    __m128i to_left = _mm_sub_epi16(up, upper_left);
    __m128i to_up = _mm_sub_epi16(left, upper_left);
    __m128i to_upper_left = _mm_add_epi16(to_left, to_up);
    to_left = _mm_max_epi16(to_left, _mm_sub_epi16(zero, to_left));
    to_up = _mm_max_epi16(to_up, _mm_sub_epi16(zero, to_up));
    to_upper_left = _mm_max_epi16(to_upper_left, _mm_sub_epi16(zero, to_upper_left));
    __m128i smallest = _mm_min_epi16(to_upper_left, _mm_min_epi16(to_left, to_up));
    __m128i is_left = _mm_cmpeq_epi16(smallest, to_left);
    __m128i is_up = _mm_cmpeq_epi16(smallest, to_up);
    __m128i chosen = _mm_or_si128(_mm_and_si128(is_up, up), _mm_andnot_si128(is_up, upper_left));
    return _mm_or_si128(_mm_and_si128(is_left, left), _mm_andnot_si128(is_left, chosen));
}

/* Sub, average or Paeth, a pixel of 3 or 4 bytes at a time, in 16-bit lanes. A 3-byte pixel is
   read and written 4 bytes at a time: the lanes do not mix, and the fourth byte written is the
   next pixel's (or the next row's first), written again in its turn. So the buffers have a few
   bytes to spare at their ends. */
static inline __attribute__((always_inline)) void unfilter_pixels(int filter, const unsigned char *filtered, unsigned char *row,
                                                                  const unsigned char *above, size_t stride, int bpp) {
    __m128i left = _mm_setzero_si128();
    __m128i upper_left = _mm_setzero_si128();
    for (size_t i = 0; i < stride; i += (size_t)bpp) {
        __m128i up = load_pixel(above + i);
        left = _mm_and_si128(_mm_add_epi16(load_pixel(filtered + i), predicted(filter, left, up, upper_left)), _mm_set1_epi16(0xff));
        upper_left = up;
        store_pixel(row + i, left);
    }
}

/* Two rows at once, both sub, average or Paeth (`filter` above `next_filter`): each pixel waits
   for its left neighbour, Paeth's some 10 cycles, so a row alone keeps the core waiting. The
   second row's pixel takes the first's, just made, as its up neighbour, straight from the
   register: two chains of pixels side by side, in the time of about one. The second row goes
   to `next_row`, not over its filtered bytes: packed in place it would write over the end of
   the first row's, not yet read. */
static inline __attribute__((always_inline)) void unfilter_pair(int filter, int next_filter, const unsigned char *filtered,
                                                                unsigned char *row, const unsigned char *above,
                                                                const unsigned char *next_filtered, unsigned char *next_row,
                                                                size_t stride, int bpp) {
    const __m128i bytes = _mm_set1_epi16(0xff);
    __m128i left = _mm_setzero_si128(), upper_left = _mm_setzero_si128();
    __m128i next_left = _mm_setzero_si128(), next_upper_left = _mm_setzero_si128();
    for (size_t i = 0; i < stride; i += (size_t)bpp) {
        __m128i up = load_pixel(above + i);
        left = _mm_and_si128(_mm_add_epi16(load_pixel(filtered + i), predicted(filter, left, up, upper_left)), bytes);
        upper_left = up;
        store_pixel(row + i, left);
        next_left = _mm_and_si128(_mm_add_epi16(load_pixel(next_filtered + i), predicted(next_filter, next_left, left, next_upper_left)), bytes);
        next_upper_left = left;
        store_pixel(next_row + i, next_left);
    }
}

/* Rows y and y + 1 (`filter`, `next_filter`) undone together when both are sub, average or
   Paeth and their pixels are 3 or 4 bytes (see unfilter_pair): the first packed in place as
   unfilter_row does it, the second through `spare` (stride + 4 bytes) into place after it.
   1 when done, 0 when the rows are not such a pair. */
GALLERY_ALSO_FOR_AVX2 static int unfilter_two_rows(int filter, int next_filter, const unsigned char *filtered,
                                                   unsigned char *row, const unsigned char *above,
                                                   const unsigned char *next_filtered, unsigned char *spare, size_t stride,
                                                   int bpp) {
    if (filter == 0 || filter == 2 || next_filter == 0 || next_filter == 2) return 0;
    /* Each combination with its filters and pixel size constant, for a loop of its own. */
#define GALLERY_PAIR(f, g, b) \
    else if (filter == (f) && next_filter == (g) && bpp == (b)) unfilter_pair((f), (g), filtered, row, above, next_filtered, spare, stride, (b));
#define GALLERY_PAIRS(b) \
    GALLERY_PAIR(1, 1, b) GALLERY_PAIR(1, 3, b) GALLERY_PAIR(1, 4, b) GALLERY_PAIR(3, 1, b) GALLERY_PAIR(3, 3, b) \
    GALLERY_PAIR(3, 4, b) GALLERY_PAIR(4, 1, b) GALLERY_PAIR(4, 3, b) GALLERY_PAIR(4, 4, b)
    if (0) {
    }
    GALLERY_PAIRS(3) GALLERY_PAIRS(4)
    else return 0;
#undef GALLERY_PAIRS
#undef GALLERY_PAIR
    memcpy(row + stride, spare, stride);
    return 1;
}
#endif

/* One row's filter undone, from `filtered` into `row`, given the row above (zeros for the
   first). `row` may start before `filtered` in the same buffer (the rows are packed as they are
   undone): every byte is read before anything is written over it. */
GALLERY_ALSO_FOR_AVX2 static void unfilter_row(int filter, const unsigned char *filtered, unsigned char *row,
                                               const unsigned char *above, size_t stride, int bpp) {
    size_t i = 0;
    if (filter == 0) {
        memmove(row, filtered, stride);
        return;
    }
#ifdef __SSE2__
    if (filter == 2) {
        for (; i + 16 <= stride; i += 16) {
            __m128i sum = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(filtered + i)),
                                       _mm_loadu_si128((const __m128i *)(above + i)));
            _mm_storeu_si128((__m128i *)(row + i), sum);
        }
    }
    /* Each case with its filter and pixel size constant, for a loop of its own. */
#define GALLERY_UNFILTER(f, b) \
    if (filter == (f) && bpp == (b)) { \
        unfilter_pixels((f), filtered, row, above, stride, (b)); \
        return; \
    }
    GALLERY_UNFILTER(1, 4) GALLERY_UNFILTER(3, 4) GALLERY_UNFILTER(4, 4)
    GALLERY_UNFILTER(1, 3) GALLERY_UNFILTER(3, 3) GALLERY_UNFILTER(4, 3)
#undef GALLERY_UNFILTER
#endif
    for (; i < stride; i++) {
        int left = i >= (size_t)bpp ? row[i - (size_t)bpp] : 0;
        int up = above[i];
        int upper_left = i >= (size_t)bpp ? above[i - (size_t)bpp] : 0;
        int predicted;
        if (filter == 1) {
            predicted = left;
        } else if (filter == 2) {
            predicted = up;
        } else if (filter == 3) {
            predicted = (left + up) >> 1;
        } else {
            int to_left = abs(up - upper_left), to_up = abs(left - upper_left), to_upper_left = abs(left + up - 2 * upper_left);
            predicted = to_left <= to_up && to_left <= to_upper_left ? left : to_up <= to_upper_left ? up : upper_left;
        }
        row[i] = (unsigned char)(filtered[i] + predicted);
    }
}

int gallery_png_pixels(const void *buffer, size_t length, int *width, int *height, int *bands, unsigned char **pixels) {
    *pixels = NULL;
    if (gallery_shim_paths_disabled) return 0;
    pthread_once(&api_once, load_api);
    if (!api_loaded) return 0;
    const unsigned char *bytes = buffer;
    if (length < 8 || memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) != 0) return 0;
    uint32_t columns = 0, rows = 0;
    int samples = 0;
    unsigned char *stream = NULL;
    size_t stream_length = 0;
    int idat_state = 0; /* 0 before the IDAT chunks, 1 among them, 2 after */
    int ended = 0;
    size_t position = 8;
    while (!ended) {
        if (length - position < 12) goto refuse;
        uint32_t size = read_be32(bytes + position);
        const unsigned char *type = bytes + position + 4;
        const unsigned char *data = type + 4;
        if (size > length - position - 12) goto refuse;
        if (api.crc32(0, type, (size_t)size + 4) != read_be32(data + size)) goto refuse;
        if (position == 8) {
            if (!is_chunk(type, "IHDR") || size != 13) goto refuse;
            columns = read_be32(data);
            rows = read_be32(data + 4);
            /* 8 bits; colour type grey, RGB, grey and alpha, RGBA; compression, filter method 0;
               not interlaced. */
            if (data[8] != 8 || data[10] != 0 || data[11] != 0 || data[12] != 0) goto refuse;
            samples = data[9] == 0 ? 1 : data[9] == 2 ? 3 : data[9] == 4 ? 2 : data[9] == 6 ? 4 : 0;
            /* Larger images stay with libvips, which decodes them a strip at a time. */
            if (samples == 0 || columns == 0 || rows == 0 || (uint64_t)columns * rows > 16u << 20) goto refuse;
            stream = malloc(length);
            if (stream == NULL) goto refuse;
        } else if (is_chunk(type, "IDAT")) {
            if (idat_state == 2) goto refuse;
            idat_state = 1;
            memcpy(stream + stream_length, data, size);
            stream_length += size;
        } else if (is_chunk(type, "IEND")) {
            ended = 1;
        } else if (is_harmless(type)) {
            if (idat_state == 1) idat_state = 2;
        } else {
            goto refuse;
        }
        position += (size_t)size + 12;
    }
    if (idat_state == 0) goto refuse;
    size_t stride = (size_t)columns * (size_t)samples;
    size_t filtered_size = (stride + 1) * rows;
    /* The rows are undone in place, each moved back over its filter bytes; the first has zeros
       above it. Room for the 4-byte reads and writes of 3-byte pixels past the ends. */
    unsigned char *image = malloc(filtered_size + 4);
    unsigned char *zeros = calloc(stride + 16, 1);
    void *decompressor = api.alloc_decompressor();
    size_t used = 0, made = 0;
    int inflated = image != NULL && zeros != NULL && decompressor != NULL &&
                   api.zlib_decompress_ex(decompressor, stream, stream_length, image, filtered_size, &used, &made) == 0 &&
                   used == stream_length && made == filtered_size;
    if (decompressor != NULL) api.free_decompressor(decompressor);
    free(stream);
    stream = NULL;
    int valid = inflated;
    unsigned char *spare = valid ? malloc(stride + 4) : NULL;
    valid = spare != NULL;
    for (uint32_t y = 0; valid && y < rows; y++) {
        const unsigned char *filtered = image + (size_t)y * (stride + 1);
        unsigned char *row = image + (size_t)y * stride;
        const unsigned char *above = y == 0 ? zeros : row - stride;
        int filter = filtered[0];
        if (filter > 4) {
            valid = 0;
            break;
        }
#ifdef __SSE2__
        const unsigned char *next = filtered + stride + 1;
        if (y + 1 < rows && next[0] <= 4 && unfilter_two_rows(filter, next[0], filtered + 1, row, above, next + 1, spare, stride, samples)) {
            y++;
            continue;
        }
#endif
        unfilter_row(filter, filtered + 1, row, above, stride, samples);
    }
    free(spare);
    free(zeros);
    if (!valid) {
        free(image);
        return 0;
    }
    *width = (int)columns;
    *height = (int)rows;
    *bands = samples;
    *pixels = image;
    decoded++;
    return 1;
refuse:
    free(stream);
    return 0;
}

int gallery_shrink_rows(unsigned char *pixels, int width, int height, int bands, int factor) {
    size_t stride = (size_t)width * (size_t)bands;
    int rows = height / factor;
    unsigned amend = (unsigned)factor / 2;
#ifdef __SSE2__
    /* (sum + amend) / factor as a multiply: with the multiplier rounded up, the error stays under
       1 / factor for sums up to 2^16 / factor, and these are at most 255 × 8 + 4. */
    __m128i multiplier = _mm_set1_epi16((short)(uint16_t)((65536 + factor - 1) / factor));
    __m128i rounding = _mm_set1_epi16((short)amend);
    __m128i zero = _mm_setzero_si128();
#endif
    /* Row r is written over the first row of its group (the first), or over rows already read. */
    for (int r = 0; r < rows; r++) {
        const unsigned char *first = pixels + (size_t)r * (size_t)factor * stride;
        unsigned char *row = pixels + (size_t)r * stride;
        size_t i = 0;
#ifdef __SSE2__
        for (; i + 16 <= stride; i += 16) {
            __m128i mean;
            if (factor == 2) {
                mean = _mm_avg_epu8(_mm_loadu_si128((const __m128i *)(first + i)), _mm_loadu_si128((const __m128i *)(first + stride + i)));
            } else {
                __m128i low = rounding, high = rounding;
                for (int k = 0; k < factor; k++) {
                    __m128i bytes = _mm_loadu_si128((const __m128i *)(first + (size_t)k * stride + i));
                    low = _mm_add_epi16(low, _mm_unpacklo_epi8(bytes, zero));
                    high = _mm_add_epi16(high, _mm_unpackhi_epi8(bytes, zero));
                }
                mean = _mm_packus_epi16(_mm_mulhi_epu16(low, multiplier), _mm_mulhi_epu16(high, multiplier));
            }
            _mm_storeu_si128((__m128i *)(row + i), mean);
        }
#endif
        for (; i < stride; i++) {
            unsigned sum = amend;
            for (int k = 0; k < factor; k++) sum += first[(size_t)k * stride + i];
            row[i] = (unsigned char)(sum / (unsigned)factor);
        }
    }
    return rows;
}

int gallery_png_shrink_rows(unsigned char *pixels, int width, int height, int bands, int factor) {
    shrunk++;
    return gallery_shrink_rows(pixels, width, height, bands, factor);
}
