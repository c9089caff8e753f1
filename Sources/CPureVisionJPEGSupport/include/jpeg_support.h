#ifndef PUREVISION_JPEG_SUPPORT_H
#define PUREVISION_JPEG_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Result codes of `pv_jpeg_decode`.
enum {
    PV_JPEG_OK = 0,
    /// libjpeg refused the data (bad markers, bad tables, bad header values).
    PV_JPEG_CORRUPT = 1,
    /// The data ends before the image does.
    PV_JPEG_TRUNCATED = 2,
    /// Width or height is past `max_dimension`, or their product past `max_pixels`.
    PV_JPEG_TOO_LARGE = 3,
    /// A color space other than grayscale, YCbCr or RGB (CMYK, YCCK, ...).
    PV_JPEG_UNSUPPORTED = 4,
    /// The pixel buffer could not be allocated.
    PV_JPEG_OUT_OF_MEMORY = 5,
};

/// A decoded JPEG: `height` rows of `width * channels` bytes, tightly packed, top row first.
typedef struct pv_jpeg_result {
    /// Owned by the caller after a successful decode; release with `pv_jpeg_free`.
    uint8_t *pixels;
    int width;
    int height;
    /// 1 (gray) or 3 (RGB).
    int channels;
} pv_jpeg_result;

/// Decodes the JPEG in `data[0..<size]` with libjpeg's default (PIL's) settings: JDCT_ISLOW, fancy upsampling,
/// block smoothing for progressive files. Grayscale → 1 channel; YCbCr and RGB → 3 channels (RGB).
///
/// libjpeg's fatal errors are caught with setjmp and turned into a result code; a premature end of data (which
/// libjpeg only warns about) is reported as `PV_JPEG_TRUNCATED`. Other warnings (corrupt entropy data, which
/// libjpeg substitutes) do not fail the decode. The header's dimensions are checked before any pixel buffer is
/// allocated. On failure `out->pixels` is NULL, `out->width` and `out->height` hold the header's values once it
/// was read (0 before), and `message` (if not NULL) holds a NUL-terminated reason.
/// Returns one of the `PV_JPEG_*` codes.
int pv_jpeg_decode(const uint8_t *data, size_t size, int max_dimension, long max_pixels, pv_jpeg_result *out,
                   char *message, size_t message_size);

/// Frees the pixels of a successful `pv_jpeg_decode` and clears `result->pixels`. Safe on NULL pixels.
void pv_jpeg_free(pv_jpeg_result *result);

#endif
