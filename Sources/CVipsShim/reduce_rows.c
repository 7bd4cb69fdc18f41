/* libvips 8.14's reducev, its plain C path for 8-bit pixels with the Lanczos 3 kernel (what its
 * thumbnail resizes with, with vector paths off as gallery runs 8.14), with SSE2: the same
 * coefficient tables, computed as libvips computes them, the same rows, the same rounding. After
 * png_pixels.c's box shrink this vertical reduce was the largest part of a 1200 px PNG's 300 px
 * thumbnail, about 8 ms, libvips summing one byte at a time.
 *
 * vips_shim.c calls it only where the result is sure to be libvips's: libvips 8.14 exactly, and a
 * shrink and offset with at most 8 binary places, so that every row position comes out exactly
 * whichever way libvips would split the rows between its regions (it adds the shrink row by row
 * from each region's top). The tests compare the thumbnails with libvips's own. */

#include "vips_shim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

enum {
    transform_scale = 64,     /* VIPS_TRANSFORM_SCALE: table entries per pixel */
    interpolate_shift = 12,   /* VIPS_INTERPOLATE_SHIFT: the coefficients' fixed point */
    most_points = 64,
};

static _Thread_local int reduced = 0;
static _Thread_local int reduced_columns = 0;
/* From png_pixels.c: set on a thread that is to leave everything to libvips. */
extern _Thread_local int gallery_shim_paths_disabled;

int gallery_rows_reduced_on_this_thread(void) {
    return reduced;
}

int gallery_columns_reduced_on_this_thread(void) {
    return reduced_columns;
}

/* calculate_coefficients_lanczos (libvips's templates.h) for a = 3, expression for expression. */
static void lanczos3(double *c, double shrink, double x) {
    const int a = 3;
    const int n_points = 2 * rint(a * shrink) + 1;
    const double half = x + n_points / 2.0 - 1;
    const double pi = 3.14159265358979323846; /* VIPS_PI */
    double sum = 0;
    for (int i = 0; i < n_points; i++) {
        const double xp = (i - half) / shrink;
        double l;
        if (xp == 0.0) l = 1.0;
        else if (xp < -a) l = 0.0;
        else if (xp > a) l = 0.0;
        else l = (double)a * sin(pi * xp) * sin(pi * xp / (double)a) / (pi * pi * xp * xp);
        c[i] = l;
        sum += l;
    }
    for (int i = 0; i < n_points; i++) c[i] /= sum;
}

int gallery_reduce_rows_points(double shrink) {
    return 2 * rint(3 * shrink) + 1;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* reduce_row's loop 32 bytes at a time, for CPUs with AVX2 (chosen when the tables are made): the
   same sums in the same 32-bit lanes, so the same bytes. Its unpacks and packs work within each
   128-bit half, and undo each other there, so the bytes come out in order. Returns how many bytes
   it made (a multiple of 32). */
__attribute__((target("avx2"))) static size_t reduce_row_avx2(const unsigned char *const *rows, const int *mask, int n, size_t length,
                                                              unsigned char *out) {
    size_t z = 0;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i round = _mm256_set1_epi32(1 << (interpolate_shift - 1));
    for (; z + 32 <= length; z += 32) {
        __m256i sums[4] = {zero, zero, zero, zero};
        for (int i = 0; i < n; i += 2) {
            int second = i + 1 < n ? i + 1 : i;
            int weight = i + 1 < n ? mask[i + 1] : 0;
            __m256i pair = _mm256_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)mask[i] | (uint32_t)(uint16_t)(int16_t)weight << 16));
            __m256i first_bytes = _mm256_loadu_si256((const __m256i *)(rows[i] + z));
            __m256i second_bytes = _mm256_loadu_si256((const __m256i *)(rows[second] + z));
            __m256i first_low = _mm256_unpacklo_epi8(first_bytes, zero), first_high = _mm256_unpackhi_epi8(first_bytes, zero);
            __m256i second_low = _mm256_unpacklo_epi8(second_bytes, zero), second_high = _mm256_unpackhi_epi8(second_bytes, zero);
            sums[0] = _mm256_add_epi32(sums[0], _mm256_madd_epi16(_mm256_unpacklo_epi16(first_low, second_low), pair));
            sums[1] = _mm256_add_epi32(sums[1], _mm256_madd_epi16(_mm256_unpackhi_epi16(first_low, second_low), pair));
            sums[2] = _mm256_add_epi32(sums[2], _mm256_madd_epi16(_mm256_unpacklo_epi16(first_high, second_high), pair));
            sums[3] = _mm256_add_epi32(sums[3], _mm256_madd_epi16(_mm256_unpackhi_epi16(first_high, second_high), pair));
        }
        for (int k = 0; k < 4; k++) sums[k] = _mm256_srai_epi32(_mm256_add_epi32(sums[k], round), interpolate_shift);
        __m256i low = _mm256_packs_epi32(sums[0], sums[1]);
        __m256i high = _mm256_packs_epi32(sums[2], sums[3]);
        _mm256_storeu_si256((__m256i *)(out + z), _mm256_packus_epi16(low, high));
    }
    return z;
}
#endif

/* Whether reduce_row may use AVX2: the CPU has it, and the calling thread has not turned it off
   (the tests compare both loops). */
static _Thread_local int avx2_disabled = 0;

void gallery_reduce_rows_set_avx2(int on) {
    avx2_disabled = !on;
}

static int use_avx2(void) {
#if defined(__x86_64__) && defined(__GNUC__)
    return !avx2_disabled && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/* One output row: the sum of `n` rows weighted by `mask`, rounded and clipped. */
static void reduce_row(const unsigned char *const *rows, const int *mask, int n, size_t length, unsigned char *out, int avx2) {
    size_t z = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) z = reduce_row_avx2(rows, mask, n, length, out);
#else
    (void)avx2;
#endif
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    const __m128i round = _mm_set1_epi32(1 << (interpolate_shift - 1));
    for (; z + 16 <= length; z += 16) {
        __m128i sums[4] = {zero, zero, zero, zero};
        for (int i = 0; i < n; i += 2) {
            /* Rows i and i + 1 side by side in 16-bit lanes, against their two coefficients (the
               last row of an odd count against a zero one). */
            int second = i + 1 < n ? i + 1 : i;
            int weight = i + 1 < n ? mask[i + 1] : 0;
            __m128i pair = _mm_set1_epi32((int)((uint32_t)(uint16_t)(int16_t)mask[i] | (uint32_t)(uint16_t)(int16_t)weight << 16));
            __m128i first_bytes = _mm_loadu_si128((const __m128i *)(rows[i] + z));
            __m128i second_bytes = _mm_loadu_si128((const __m128i *)(rows[second] + z));
            __m128i first_low = _mm_unpacklo_epi8(first_bytes, zero), first_high = _mm_unpackhi_epi8(first_bytes, zero);
            __m128i second_low = _mm_unpacklo_epi8(second_bytes, zero), second_high = _mm_unpackhi_epi8(second_bytes, zero);
            sums[0] = _mm_add_epi32(sums[0], _mm_madd_epi16(_mm_unpacklo_epi16(first_low, second_low), pair));
            sums[1] = _mm_add_epi32(sums[1], _mm_madd_epi16(_mm_unpackhi_epi16(first_low, second_low), pair));
            sums[2] = _mm_add_epi32(sums[2], _mm_madd_epi16(_mm_unpacklo_epi16(first_high, second_high), pair));
            sums[3] = _mm_add_epi32(sums[3], _mm_madd_epi16(_mm_unpackhi_epi16(first_high, second_high), pair));
        }
        for (int k = 0; k < 4; k++) sums[k] = _mm_srai_epi32(_mm_add_epi32(sums[k], round), interpolate_shift);
        __m128i low = _mm_packs_epi32(sums[0], sums[1]);
        __m128i high = _mm_packs_epi32(sums[2], sums[3]);
        _mm_storeu_si128((__m128i *)(out + z), _mm_packus_epi16(low, high));
    }
#endif
    for (; z < length; z++) {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += mask[i] * rows[i][z];
        sum = (sum + (1 << (interpolate_shift - 1))) >> interpolate_shift;
        out[z] = (unsigned char)(sum < 0 ? 0 : sum > 255 ? 255 : sum);
    }
}

static int reduce_rows(const unsigned char *in, size_t row_length, int in_rows, unsigned char *out, int out_rows,
                       double shrink, double offset) {
    const int n = gallery_reduce_rows_points(shrink);
    if (gallery_shim_paths_disabled || n < 1 || n > most_points || in_rows < 1) return -1;
    /* libvips pads the image with copies of its edge rows, this many above. */
    const int margin = (int)ceil(n / 2.0) - 1;
    int masks[transform_scale + 1][most_points];
    int made[transform_scale + 1] = {0};
    const unsigned char *rows[most_points];
    const int avx2 = use_avx2();
    double y_position = (0 + 0.5) * shrink - 0.5 - offset;
    for (int y = 0; y < out_rows; y++) {
        const int py = (int)y_position;
        const int sy = y_position * transform_scale * 2;
        const int siy = sy & (transform_scale * 2 - 1);
        const int ty = (siy + 1) >> 1;
        if (!made[ty]) {
            double coefficients[most_points];
            lanczos3(coefficients, shrink, (float)ty / transform_scale);
            for (int i = 0; i < n; i++) masks[ty][i] = coefficients[i] * (1 << interpolate_shift);
            made[ty] = 1;
        }
        for (int i = 0; i < n; i++) {
            int row = py + i - margin;
            row = row < 0 ? 0 : row >= in_rows ? in_rows - 1 : row;
            rows[i] = in + (size_t)row * row_length;
        }
        reduce_row(rows, masks[ty], n, row_length, out + (size_t)y * row_length, avx2);
        y_position += shrink;
    }
    return 0;
}

int gallery_reduce_rows(const unsigned char *in, size_t row_length, int in_rows, unsigned char *out, int out_rows,
                        double shrink, double offset) {
    if (reduce_rows(in, row_length, in_rows, out, out_rows, shrink, offset) != 0) return -1;
    reduced++;
    return 0;
}

/* `rows` rows of `width` pixels of `bands` bytes (1 or 3) into `width` rows of `rows` pixels, a
   tile of 32 × 32 pixels at a time: a pixel at a time down whole columns, every write went to
   another cache line, and the two turns took as long as the reduce between them. */
static void transpose(const unsigned char *in, int width, int rows, int bands, unsigned char *out) {
    enum { tile = 32 };
    const size_t in_stride = (size_t)width * bands, out_stride = (size_t)rows * bands;
    for (int y0 = 0; y0 < rows; y0 += tile) {
        int y1 = y0 + tile < rows ? y0 + tile : rows;
        for (int x0 = 0; x0 < width; x0 += tile) {
            int x1 = x0 + tile < width ? x0 + tile : width;
            for (int y = y0; y < y1; y++) {
                const unsigned char *row = in + (size_t)y * in_stride;
                unsigned char *column = out + (size_t)y * bands;
                if (bands == 3) {
                    for (int x = x0; x < x1; x++) memcpy(column + (size_t)x * out_stride, row + (size_t)x * 3, 3);
                } else {
                    for (int x = x0; x < x1; x++) column[(size_t)x * out_stride] = row[x];
                }
            }
        }
    }
}

/* libvips's reduceh is its reducev turned on its side: the same box shrink and rounding
   (shrinkh), the same coefficient tables, the same pixel positions (adding the shrink pixel by
   pixel from each region's left), the same edge padding. So the rows are turned into columns,
   shrunk and reduced as rows, and turned back. */
int gallery_reduce_columns(const unsigned char *in, int width, int rows, int bands, unsigned char *out, int out_width,
                           int box, double shrink, double offset) {
    if (gallery_shim_paths_disabled || (bands != 1 && bands != 3) || box < 1 || box > 8 || width % box != 0) return -1;
    unsigned char *turned = malloc((size_t)width * rows * bands);
    unsigned char *reduced_turned = malloc((size_t)out_width * rows * bands);
    int result = -1;
    if (turned != NULL && reduced_turned != NULL) {
        transpose(in, width, rows, bands, turned);
        int columns = box > 1 ? gallery_shrink_rows(turned, rows, width, bands, box) : width;
        result = reduce_rows(turned, (size_t)rows * bands, columns, reduced_turned, out_width, shrink, offset);
        if (result == 0) transpose(reduced_turned, rows, out_width, bands, out);
    }
    free(turned);
    free(reduced_turned);
    if (result == 0) reduced_columns++;
    return result;
}
