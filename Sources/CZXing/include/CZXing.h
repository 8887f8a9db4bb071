// A C interface to the parts of zxing-cpp that ViewfinderBarcode uses: reading barcodes from a luminance image.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to look for and how hard.
typedef struct {
    /// The barcode formats to read, as a mask of zxing-cpp's BarcodeFormat bits; 0 reads none.
    uint32_t formats;
    /// Spends more time per image for codes that are hard to find.
    int try_harder;
    /// Also reads linear codes that run top to bottom.
    int try_rotate;
    /// The most codes to return from one image, 1 to 255.
    int maximum_count;
    /// After a read of the whole image finds nothing, reads copies reduced to a half and to a quarter.
    int try_reduced;
} vf_zxing_options;

/// What reads return, kept from one read to the next so that its memory is reused.
typedef struct vf_zxing_reader vf_zxing_reader;

/// Creates a reader, or returns NULL when there is no memory.
vf_zxing_reader *vf_zxing_reader_create(void);

/// Frees a reader and its results.
void vf_zxing_reader_destroy(vf_zxing_reader *reader);

/// Reads barcodes from a luminance image with one byte per pixel.
///
/// `data` is the first pixel of the first row; `pixel_stride` is 1, or -1 to read each row from right to left
/// (a mirrored image, with `data` at the last pixel of the first row). Returns the number of codes found, or -1
/// when zxing-cpp failed, with a message in vf_zxing_reader_error.
int vf_zxing_read(
    vf_zxing_reader *reader, const uint8_t *data, int width, int height, int row_stride, int pixel_stride,
    const vf_zxing_options *options);

/// The message of the last failed read.
const char *vf_zxing_reader_error(const vf_zxing_reader *reader);

/// The format of code `index` of the last read, one BarcodeFormat bit.
uint32_t vf_zxing_result_format(const vf_zxing_reader *reader, int index);

/// The text of code `index`, UTF-8, with its length in bytes.
const char *vf_zxing_result_text(const vf_zxing_reader *reader, int index, size_t *length);

/// The bytes code `index` holds, with their count.
const uint8_t *vf_zxing_result_bytes(const vf_zxing_reader *reader, int index, size_t *length);

/// The corners of code `index` in the image read: top left, top right, bottom right, bottom left, as x and y pairs.
void vf_zxing_result_corners(const vf_zxing_reader *reader, int index, int32_t corners[8]);

#ifdef __cplusplus
}
#endif

#endif
