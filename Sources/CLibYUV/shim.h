#ifndef VIEWFINDER_CLIBYUV_SHIM_H
#define VIEWFINDER_CLIBYUV_SHIM_H
#include <libyuv.h>
#include <libyuv/scale_rgb.h>
#include <stdint.h>
#include <string.h>

/// The address of libyuv's BT.601 video-range YUV-to-RGB constants, in their own aligned storage.
///
/// Swift would copy an imported `extern const` struct before taking its address, losing the alignment libyuv's
/// SIMD rows expect; these accessors hand out the library's own storage.
static inline const struct YuvConstants *viewfinder_yuv_bt601_video(void) { return &kYuvI601Constants; }
/// The address of libyuv's BT.601 full-range (JPEG) YUV-to-RGB constants.
static inline const struct YuvConstants *viewfinder_yuv_bt601_full(void) { return &kYuvJPEGConstants; }
/// The address of libyuv's BT.601 video-range constants with U and V swapped, for outputs in R,G,B byte order.
static inline const struct YuvConstants *viewfinder_yvu_bt601_video(void) { return &kYvuI601Constants; }
/// The address of libyuv's BT.601 full-range constants with U and V swapped, for outputs in R,G,B byte order.
static inline const struct YuvConstants *viewfinder_yvu_bt601_full(void) { return &kYvuJPEGConstants; }

/// Sixteen bytes, and sixteen 16-bit lanes, as vectors of the compiler's own (SSE2 registers on x86-64).
typedef uint8_t viewfinder_u8x16 __attribute__((vector_size(16)));
typedef uint16_t viewfinder_u16x16 __attribute__((vector_size(32)));

/// Maps every byte of a plane through `v' = clamp((v * multiplier + offset) >> 8, 0, 255)`.
///
/// This is the affine map between full-range and video-range YCbCr samples, which libyuv 1857 offers only inside
/// its RGB converters. `src` and `dst` may be the same plane. A map that narrows the range (full to video) fits in
/// 16-bit lanes and needs no clamping, so it runs sixteen samples at a time in explicit vectors, which in-place use
/// does not defeat as it does the compiler's own vectorisation; widening maps and row ends go a sample at a time.
static inline void viewfinder_map_plane(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width,
                                        int height, int multiplier, int offset) {
    int narrows = multiplier >= 0 && offset >= 0 && multiplier * 255 + offset <= 0xFFFF;
    for (int row = 0; row < height; row++) {
        const uint8_t *in = src + (long)row * src_stride;
        uint8_t *out = dst + (long)row * dst_stride;
        int x = 0;
        if (narrows) {
            for (; x + 16 <= width; x += 16) {
                viewfinder_u8x16 bytes;
                memcpy(&bytes, in + x, sizeof bytes);
                viewfinder_u16x16 wide = __builtin_convertvector(bytes, viewfinder_u16x16);
                wide = (wide * (uint16_t)multiplier + (uint16_t)offset) >> 8;
                bytes = __builtin_convertvector(wide, viewfinder_u8x16);
                memcpy(out + x, &bytes, sizeof bytes);
            }
        }
        for (; x < width; x++) {
            int value = (in[x] * multiplier + offset) >> 8;
            out[x] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
        }
    }
}
#endif
