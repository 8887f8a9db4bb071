// The barcode benchmark's peers: zxing-cpp called directly, as an application would call it, and zbar's C API.
#ifndef VIEWFINDER_BARCODE_PEER_H
#define VIEWFINDER_BARCODE_PEER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a luminance image with ZXing::ReadBarcodes and zxing-cpp's default hints (reduced copies, rotation) for
/// `formats` (zxing-cpp's BarcodeFormat bits); returns the number of valid codes, or -1 when it threw.
int barcode_peer_zxing_read(const uint8_t *data, int width, int height, int row_stride, uint32_t formats);

/// Reads a luminance image with zbar's image scanner (every symbology zbar has, or QR only); returns the number of
/// codes, or -1 when zbar could not be set up. The scanner is made once and kept.
int barcode_peer_zbar_read(const uint8_t *data, int width, int height, int qr_only);

#ifdef __cplusplus
}
#endif

#endif
