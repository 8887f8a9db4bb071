#ifndef VIEWFINDER_PIXELS_NARROWING_H
#define VIEWFINDER_PIXELS_NARROWING_H
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

#endif
