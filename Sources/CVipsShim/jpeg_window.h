/* A JPEG in memory handed to libjpeg a window at a time, for jpeg_direct.c and jpeg_scan.c.
 *
 * Where the buffer libjpeg reads from ends decides what it says of a damaged scan:
 * libjpeg-turbo decodes Huffman codes on a fast path only while a whole MCU's worth of bytes
 * (512 per block) is left in the buffer, and its fast path reads a bad code as 0 without the
 * warning its slow path gives ("Corrupt JPEG data: bad Huffman code"). jpeg_mem_src's one
 * buffer of the whole file takes the fast path nearly everywhere.
 *
 * - jpeg_direct.c reads 4096 bytes at a time, as libvips 8.14's source manager does (jpeg2vips.c,
 *   source_fill_input_buffer and skip_input_data, on a memory source), for libvips's warnings
 *   and so its verdict.
 * - jpeg_scan.c reads 256 bytes at a time, less than any MCU's fast path needs, so that every
 *   bad code warns.
 *
 * Past the end, libjpeg is warned (JWRN_JPEG_EOF) and given an end marker, as by libvips and
 * jpeg_mem_src. */
#ifndef GALLERY_JPEG_WINDOW_H
#define GALLERY_JPEG_WINDOW_H

#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>

struct gallery_jpeg_window {
    struct jpeg_source_mgr manager;
    const unsigned char *bytes;
    size_t length;
    size_t position;
    size_t window;
};

static void gallery_jpeg_window_start(j_decompress_ptr decoder) {
    decoder->src->bytes_in_buffer = 0;
}

static boolean gallery_jpeg_window_fill(j_decompress_ptr decoder) {
    static const JOCTET end[2] = {0xFF, JPEG_EOI};
    struct gallery_jpeg_window *source = (struct gallery_jpeg_window *)decoder->src;
    if (source->position >= source->length) {
        WARNMS(decoder, JWRN_JPEG_EOF);
        source->manager.next_input_byte = end;
        source->manager.bytes_in_buffer = 2;
        return TRUE;
    }
    size_t count = source->length - source->position;
    if (count > source->window) count = source->window;
    source->manager.next_input_byte = source->bytes + source->position;
    source->manager.bytes_in_buffer = count;
    source->position += count;
    return TRUE;
}

static void gallery_jpeg_window_skip(j_decompress_ptr decoder, long count) {
    if (count <= 0) return;
    while (count > (long)decoder->src->bytes_in_buffer) {
        count -= (long)decoder->src->bytes_in_buffer;
        gallery_jpeg_window_fill(decoder);
    }
    decoder->src->next_input_byte += (size_t)count;
    decoder->src->bytes_in_buffer -= (size_t)count;
}

static void gallery_jpeg_window_end(j_decompress_ptr decoder) {
    (void)decoder;
}

/* `source`, reading `length` bytes at `bytes` `window` bytes at a time, made `decoder`'s source;
   `resync` is the libjpeg's own jpeg_resync_to_restart. */
static void gallery_jpeg_window_source(j_decompress_ptr decoder, struct gallery_jpeg_window *source, const void *bytes,
                                       size_t length, size_t window,
                                       boolean (*resync)(j_decompress_ptr, int)) {
    source->manager.next_input_byte = NULL;
    source->manager.bytes_in_buffer = 0;
    source->manager.init_source = gallery_jpeg_window_start;
    source->manager.fill_input_buffer = gallery_jpeg_window_fill;
    source->manager.skip_input_data = gallery_jpeg_window_skip;
    source->manager.resync_to_restart = resync;
    source->manager.term_source = gallery_jpeg_window_end;
    source->bytes = bytes;
    source->length = length;
    source->position = 0;
    source->window = window;
    decoder->src = &source->manager;
}

#endif
