/* Times decoding PNG covers to pixels in memory, one thread: libvips's own decode (libpng over
 * zlib, as gallery's thumbnails used before stop 44) against gallery_png_pixels
 * (Sources/CVipsShim/png_pixels.c: libdeflate and SSE2), and checks that both give the same
 * pixels. Built and run by bench-png-decode.sh. */
#include <vips/vips.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int gallery_png_pixels(const void *buffer, size_t length, int *width, int *height, int *bands, unsigned char **pixels);

/* png_pixels.c looks libdeflate up in libvips's handle; here libvips is linked, not opened. */
void *gallery_vips_library_handle(void) {
    return dlopen("libvips.so.42", RTLD_NOW | RTLD_NOLOAD);
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return time.tv_sec + time.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0]) != 0) vips_error_exit(NULL);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    int rounds = 3;
    double libvips = 0, direct = 0;
    int decoded = 0, same = 0, count = argc - 1;
    for (int round = 0; round < rounds; round++) {
        for (int i = 1; i < argc; i++) {
            gchar *bytes;
            gsize length;
            if (!g_file_get_contents(argv[i], &bytes, &length, NULL)) vips_error_exit("cannot read %s", argv[i]);
            double start = now();
            VipsImage *image = vips_image_new_from_buffer(bytes, length, "access=sequential", NULL);
            VipsImage *memory = image == NULL ? NULL : vips_image_copy_memory(image);
            if (memory == NULL) vips_error_exit("%s", argv[i]);
            g_object_unref(image);
            double middle = now();
            int width, height, bands;
            unsigned char *pixels = NULL;
            int ok = gallery_png_pixels(bytes, length, &width, &height, &bands, &pixels);
            double end = now();
            libvips += middle - start;
            direct += end - middle;
            if (round == 0 && ok) {
                decoded++;
                size_t size = (size_t)width * height * bands;
                if (size == VIPS_IMAGE_SIZEOF_IMAGE(memory) && memcmp(pixels, vips_image_get_data(memory), size) == 0) same++;
            }
            free(pixels);
            g_object_unref(memory);
            g_free(bytes);
        }
    }
    printf("%d PNGs, %d rounds: libvips %.2f ms a cover, gallery_png_pixels %.2f ms (%.2fx); %d of %d decoded directly, %d with the same pixels\n",
           count, rounds, libvips * 1e3 / (count * rounds), direct * 1e3 / (count * rounds), libvips / direct, decoded, count, same);
    return decoded == same ? 0 : 1;
}
