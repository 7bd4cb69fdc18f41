// The floor under a cold `gallery build`: what the work it must do costs with nothing else around
// it, measured on the very files a build wrote.
//
//   floor parse OPTIONS < list    libxml2's SAX2 parser, no callbacks, over every file named on
//                                 standard input (one path a line), with gallery's parse options
//   floor write DEST < list       the same files written into a new tree under DEST: one mkdir per
//                                 new folder, then open, write and close per file
//
// Each file is read into memory just before its timed part, outside the timing, so its bytes are
// in the cache as a freshly rendered page's are (reading all of them first and then working
// through gigabytes of cold memory made the 100k figures half as fast again). Each prints one
// JSON object: files, bytes, and the thread's CPU seconds (user and system) in the timed parts. Built by bench-floor.sh with `gcc -O2 floor.c $(xml2-config --cflags --libs)`.
#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static double thread_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

/// Reads a file into `*buffer` (grown as needed), so its bytes are in the cache when the timed
/// part starts, as a page gallery has just rendered is.
static long read_file(const char *path, char **buffer, long *capacity) {
    FILE *file = fopen(path, "rb");
    if (!file) { fprintf(stderr, "floor: cannot read %s: %s\n", path, strerror(errno)); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    if (size > *capacity) { *capacity = size; *buffer = realloc(*buffer, size); }
    if (fread(*buffer, 1, size, file) != (size_t)size) { fprintf(stderr, "floor: short read of %s\n", path); exit(1); }
    fclose(file);
    return size;
}

static void make_parents(char *path) {
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST) { fprintf(stderr, "floor: mkdir %s: %s\n", path, strerror(errno)); exit(1); }
        *slash = '/';
    }
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "parse") && strcmp(argv[1], "write"))) {
        fprintf(stderr, "usage: floor parse OPTIONS < list | floor write DEST < list\n");
        return 2;
    }
    int parse = !strcmp(argv[1], "parse");
    int options = parse ? atoi(argv[2]) : 0;
    char path[4096], target[8192], folder[8192] = "";
    long capacity = 1 << 20, files = 0, total = 0, faulty = 0;
    char *bytes = malloc(capacity);
    double seconds = 0;
    if (parse) xmlInitParser();
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        if (!*path) continue;
        long size = read_file(path, &bytes, &capacity);
        files++;
        total += size;
        double start = thread_seconds();
        if (parse) {
            xmlSAXHandler handler;
            memset(&handler, 0, sizeof handler);
            handler.initialized = XML_SAX2_MAGIC;
            xmlParserCtxtPtr parser = xmlCreateMemoryParserCtxt(bytes, (int)size);
            xmlSAXHandlerPtr own = parser->sax;
            parser->sax = &handler;
            xmlCtxtUseOptions(parser, options);
            xmlParseDocument(parser);
            if (!parser->wellFormed) faulty++;
            parser->sax = own;
            xmlFreeParserCtxt(parser);
        } else {
            snprintf(target, sizeof target, "%s/%s", argv[2], path);
            // Paths come grouped by folder: make each folder once, as a build that knows its
            // folders would.
            long length = strrchr(target, '/') - target;
            if (strncmp(folder, target, length) || folder[length]) {
                make_parents(target);
                memcpy(folder, target, length);
                folder[length] = 0;
            }
            int descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (descriptor < 0) { fprintf(stderr, "floor: open %s: %s\n", target, strerror(errno)); return 1; }
            for (long done = 0; done < size;) {
                ssize_t written = write(descriptor, bytes + done, size - done);
                if (written < 0) { if (errno == EINTR) continue; fprintf(stderr, "floor: write %s: %s\n", target, strerror(errno)); return 1; }
                done += written;
            }
            close(descriptor);
        }
        seconds += thread_seconds() - start;
    }
    if (parse) {
        printf("{\"step\": \"parse\", \"files\": %ld, \"bytes\": %ld, \"cpu_s\": %.4f, \"not_well_formed\": %ld}\n", files, total, seconds, faulty);
    } else {
        printf("{\"step\": \"write\", \"files\": %ld, \"bytes\": %ld, \"cpu_s\": %.4f}\n", files, total, seconds);
    }
    return 0;
}
