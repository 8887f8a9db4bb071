#ifndef VIEWFINDER_CLIBYUV_SHIM_H
#define VIEWFINDER_CLIBYUV_SHIM_H
#include <libyuv.h>
#include <libyuv/scale_rgb.h>

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
#endif
