#ifndef VIEWFINDER_CLIBYUV_SHIM_H
#define VIEWFINDER_CLIBYUV_SHIM_H
#include <libyuv.h>
#include <libyuv/scale_rgb.h>
#include <stdint.h>

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

/// Maps every byte of a plane through `v' = clamp((v * multiplier + offset) >> 8, 0, 255)`.
///
/// This is the affine map between full-range and video-range YCbCr samples, which libyuv 1857 offers only inside
/// its RGB converters. `src` and `dst` may be the same plane. The loop is written so compilers vectorise it.
static inline void viewfinder_map_plane(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width,
                                        int height, int multiplier, int offset) {
    for (int row = 0; row < height; row++) {
        const uint8_t *in = src + (long)row * src_stride;
        uint8_t *out = dst + (long)row * dst_stride;
        for (int x = 0; x < width; x++) {
            int value = (in[x] * multiplier + offset) >> 8;
            out[x] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
        }
    }
}
#endif
