#include "vips_shim.h"
#include <vips/vips.h>

int gallery_vips_init(void) {
    return VIPS_INIT("gallery");
}

char *gallery_vips_error(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}
