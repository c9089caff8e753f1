/* libjpeg exists on Linux only: on Apple platforms JPEG files are decoded by ImageIO and this file compiles to
 * nothing (the target links nothing there either). */
#if defined(__linux__)

#include "jpeg_support.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct pv_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int code;
} pv_error_manager;

/* libjpeg requires error_exit not to return: jump back to pv_jpeg_decode, which reports the code. */
static void pv_error_exit(j_common_ptr cinfo) {
    pv_error_manager *manager = (pv_error_manager *)cinfo->err;
    if (manager->code == PV_JPEG_OK) manager->code = PV_JPEG_CORRUPT;
    longjmp(manager->jump, 1);
}

/* Warnings are tolerated except running out of data, which libjpeg would paper over with a fake EOI. */
static void pv_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        ((pv_error_manager *)cinfo->err)->code = PV_JPEG_TRUNCATED;
        pv_error_exit(cinfo);
    }
    if (level < 0) cinfo->err->num_warnings++;
}

static void pv_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void pv_set_message(char *message, size_t size, const char *text) {
    if (message == NULL || size == 0) return;
    snprintf(message, size, "%s", text);
}

int pv_jpeg_decode(const uint8_t *data, size_t size, int max_dimension, long max_pixels, pv_jpeg_result *out,
                   char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    pv_error_manager manager;
    /* volatile: modified between setjmp and a possible longjmp. */
    uint8_t *volatile pixels = NULL;

    out->pixels = NULL;
    out->width = out->height = out->channels = 0;
    pv_set_message(message, message_size, "");
    if (data == NULL || size == 0 || size > (size_t)0xFFFFFFFFu) {
        pv_set_message(message, message_size, "no data");
        return PV_JPEG_TRUNCATED;
    }

    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = pv_error_exit;
    manager.base.emit_message = pv_emit_message;
    manager.base.output_message = pv_output_message;
    manager.code = PV_JPEG_OK;

    if (setjmp(manager.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
        pv_set_message(message, message_size, text);
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return manager.code;
    }

    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);

    long width = (long)cinfo.image_width, height = (long)cinfo.image_height;
    out->width = (int)width;
    out->height = (int)height;
    if (width <= 0 || height <= 0) {
        pv_set_message(message, message_size, "zero image size");
        jpeg_destroy_decompress(&cinfo);
        return PV_JPEG_CORRUPT;
    }
    if (width > max_dimension || height > max_dimension || width * height > max_pixels) {
        pv_set_message(message, message_size, "image too large");
        jpeg_destroy_decompress(&cinfo);
        return PV_JPEG_TOO_LARGE;
    }

    int channels;
    switch (cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE:
        cinfo.out_color_space = JCS_GRAYSCALE;
        channels = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo.out_color_space = JCS_RGB;
        channels = 3;
        break;
    default: {
        char text[80];
        snprintf(text, sizeof text, "JPEG color space %d (CMYK and YCCK are not read)", (int)cinfo.jpeg_color_space);
        pv_set_message(message, message_size, text);
        jpeg_destroy_decompress(&cinfo);
        return PV_JPEG_UNSUPPORTED;
    }
    }
    /* libjpeg's defaults, spelled out: they are what PIL decodes with. */
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    cinfo.do_block_smoothing = TRUE;
    cinfo.scale_num = 1;
    cinfo.scale_denom = 1;

    jpeg_start_decompress(&cinfo);
    if ((long)cinfo.output_width != width || (long)cinfo.output_height != height ||
        cinfo.output_components != channels) {
        pv_set_message(message, message_size, "unexpected output geometry");
        jpeg_destroy_decompress(&cinfo);
        return PV_JPEG_CORRUPT;
    }
    size_t row_bytes = (size_t)width * (size_t)channels;
    pixels = malloc(row_bytes * (size_t)height);
    if (pixels == NULL) {
        pv_set_message(message, message_size, "out of memory");
        jpeg_destroy_decompress(&cinfo);
        return PV_JPEG_OUT_OF_MEMORY;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + row_bytes * cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
            pv_set_message(message, message_size, "no scanline decoded");
            jpeg_destroy_decompress(&cinfo);
            free(pixels);
            return PV_JPEG_CORRUPT;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);

    out->pixels = pixels;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = channels;
    return PV_JPEG_OK;
}

void pv_jpeg_free(pv_jpeg_result *result) {
    if (result == NULL) return;
    free(result->pixels);
    result->pixels = NULL;
}

#else
/* ISO C wants at least one declaration in a translation unit. */
typedef int pv_jpeg_support_unused;
#endif /* defined(__linux__) */
