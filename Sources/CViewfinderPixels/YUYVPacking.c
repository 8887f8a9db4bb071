#include "CViewfinderPixels.h"

#include "Narrowing.h"

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

int viewfinder_pack_yuyv_mapped(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
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
