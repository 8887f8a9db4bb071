#ifndef VIEWFINDER_CLIBYUV_SHIM_H
#define VIEWFINDER_CLIBYUV_SHIM_H
#include <libyuv.h>
#include <libyuv/scale_rgb.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/// A narrowing affine map of bytes in the form SSE2 multiplies cheaply: `v' = add + (((v << 8) | bias) * multiplier
/// >> 16)`, equal for every byte to `(v * m + o) >> 8` (see `viewfinder_prepare_narrowing`).
typedef struct viewfinder_narrowing {
    uint8_t bias;
    uint8_t add;
    uint16_t multiplier;
} viewfinder_narrowing;

/// The fast form of `v' = (v * multiplier + offset) >> 8`: 1 when `narrowing` now holds it, 0 when the map does not
/// narrow (it could leave 0–255) or has no such form.
static inline int viewfinder_prepare_narrowing(int multiplier, int offset, viewfinder_narrowing *narrowing) {
    if (multiplier <= 0 || multiplier > 0xFFFF || offset < 0 || multiplier * 255 + offset > 0xFFFF) return 0;
    int rounding = offset & 255;
    // (v * 256 + bias) * m >> 16 floors to the same value as (v * m + rounding) >> 8 for every v when
    // bias * m / 256 lies in [rounding, rounding + 1).
    int bias = (rounding * 256 + multiplier - 1) / multiplier;
    if (bias > 255 || bias * multiplier >= (rounding + 1) * 256) return 0;
    narrowing->bias = (uint8_t)bias;
    narrowing->add = (uint8_t)(offset >> 8);
    narrowing->multiplier = (uint16_t)multiplier;
    return 1;
}

#if defined(__SSE2__)
/// Maps sixteen bytes through a narrowing map: two unpacks, two high-half multiplies, a pack and an add.
static inline __m128i viewfinder_narrow16(__m128i value, __m128i bias, __m128i multiplier, __m128i add) {
    // Each 16-bit lane holds `value << 8 | bias`.
    __m128i low = _mm_mulhi_epu16(_mm_unpacklo_epi8(bias, value), multiplier);
    __m128i high = _mm_mulhi_epu16(_mm_unpackhi_epi8(bias, value), multiplier);
    return _mm_add_epi8(_mm_packus_epi16(low, high), add);
}
#endif

/// Packs one row of YUYV from a luma row and its chroma rows, mapping every sample; the SIMD loop leaves the columns
/// from `x` on.
static inline void viewfinder_pack_yuyv_row_tail(const uint8_t *luma_row, const uint8_t *cb, const uint8_t *cr,
                                                 uint8_t *out, int x, int width, int luma_multiplier,
                                                 int luma_offset, int chroma_multiplier, int chroma_offset) {
    for (; x < width; x += 2) {
        uint8_t y0 = (uint8_t)((luma_row[x] * luma_multiplier + luma_offset) >> 8);
        out[2 * x] = y0;
        out[2 * x + 1] = (uint8_t)((cb[x / 2] * chroma_multiplier + chroma_offset) >> 8);
        out[2 * x + 2] = x + 1 < width ? (uint8_t)((luma_row[x + 1] * luma_multiplier + luma_offset) >> 8) : y0;
        out[2 * x + 3] = (uint8_t)((cr[x / 2] * chroma_multiplier + chroma_offset) >> 8);
    }
}

/// Packs planar 4:2:0 as YUYV (`Y0 Cb Y1 Cr`) and maps its samples between ranges in the same pass, two rows at a
/// time so each chroma sample is mapped once. A last odd column's pair repeats its luma (libyuv's packers write 0
/// there, below black in video range).
///
/// Returns 0, having written nothing, when either map (`(v * multiplier + offset) >> 8`) does not narrow; the caller
/// then maps and packs in two passes.
static inline int viewfinder_pack_yuyv_mapped(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                                              const uint8_t *v, int v_stride, uint8_t *dst, int dst_stride, int width,
                                              int height, int luma_multiplier, int luma_offset,
                                              int chroma_multiplier, int chroma_offset) {
    viewfinder_narrowing luma, chroma;
    if (!viewfinder_prepare_narrowing(luma_multiplier, luma_offset, &luma) ||
        !viewfinder_prepare_narrowing(chroma_multiplier, chroma_offset, &chroma)) {
        return 0;
    }
#if defined(__SSE2__)
    __m128i luma_bias = _mm_set1_epi8((char)luma.bias), luma_factor = _mm_set1_epi16((short)luma.multiplier);
    __m128i luma_add = _mm_set1_epi8((char)luma.add);
    __m128i chroma_bias = _mm_set1_epi8((char)chroma.bias), chroma_factor = _mm_set1_epi16((short)chroma.multiplier);
    __m128i chroma_add = _mm_set1_epi8((char)chroma.add);
    // Opaque to the optimiser, which would otherwise rebuild each unpack with a known splat as a longer sequence.
    __asm__("" : "+x"(luma_bias), "+x"(chroma_bias));
#endif
    for (int row = 0; row < height; row += 2) {
        int rows = row + 1 < height ? 2 : 1;
        const uint8_t *cb = u + (long)(row / 2) * u_stride;
        const uint8_t *cr = v + (long)(row / 2) * v_stride;
        int x = 0;
#if defined(__SSE2__)
        for (; x + 16 <= width; x += 16) {
            // Cb and Cr interleaved as the pairs YUYV holds, then mapped together.
            __m128i pairs = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(cb + x / 2)),
                                              _mm_loadl_epi64((const __m128i *)(cr + x / 2)));
            pairs = viewfinder_narrow16(pairs, chroma_bias, chroma_factor, chroma_add);
            for (int pair = 0; pair < rows; pair++) {
                const uint8_t *luma_row = y + (long)(row + pair) * y_stride;
                uint8_t *out = dst + (long)(row + pair) * dst_stride;
                __m128i samples = viewfinder_narrow16(_mm_loadu_si128((const __m128i *)(luma_row + x)), luma_bias,
                                                      luma_factor, luma_add);
                _mm_storeu_si128((__m128i *)(out + 2 * x), _mm_unpacklo_epi8(samples, pairs));
                _mm_storeu_si128((__m128i *)(out + 2 * x + 16), _mm_unpackhi_epi8(samples, pairs));
            }
        }
#endif
        for (int pair = 0; pair < rows; pair++) {
            viewfinder_pack_yuyv_row_tail(y + (long)(row + pair) * y_stride, cb, cr,
                                          dst + (long)(row + pair) * dst_stride, x, width, luma_multiplier,
                                          luma_offset, chroma_multiplier, chroma_offset);
        }
    }
    return 1;
}
#endif
