#include "CViewfinderPixels.h"

#include <string.h>

#include "Narrowing.h"

/// Bilinear positions of `count` output samples spread over `length` input samples, centres aligned: the input
/// sample each output sample starts from (at most `length - 2`) and the weight of the next one, in 128ths.
static inline void viewfinder_bilinear_positions(int length, int count, int32_t *index, int16_t *weight) {
    for (int x = 0; x < count; x++) {
        // In 128ths of an input sample: the output sample's centre, less half an input sample.
        long long position = ((2LL * x + 1) * length * 128) / (2LL * count) - 64;
        if (position < 0) position = 0;
        int start = (int)(position >> 7), fraction = (int)(position & 127);
        if (length < 2) {
            start = 0;
            fraction = 0;
        } else if (start >= length - 1) {
            start = length - 2;
            fraction = 128;
        }
        index[x] = start;
        weight[x] = (int16_t)fraction;
    }
}

/// One row scaled across to `count` samples in 16-bit lanes, each mapped through `narrowing`.
///
/// `weight` holds each output sample's weight of the next input sample in 256ths (0 to 256): the blend keeps eight
/// fraction bits up to the map, which rounds once, exactly as the map alone does where the weight is 0 or 256. With
/// `interleaved`, the row is Cb and Cr side by side as YUYV pairs them: even samples from `in`, odd ones from `other`,
/// sample `x` at input position `index[x / 2]`.
static inline void viewfinder_scale_row16(const uint8_t *in, const uint8_t *other, int interleaved, int length,
                                          const int32_t *index, const int16_t *weight, uint16_t *out, int count,
                                          viewfinder_narrowing narrowing) {
    if (length < 2) {
        for (int x = 0; x < count; x++) {
            int sample = ((interleaved && (x & 1)) ? other : in)[0];
            out[x] = (uint16_t)(narrowing.add + ((((sample << 8) | narrowing.bias) * narrowing.multiplier) >> 16));
        }
        return;
    }
    int x = 0;
#if defined(__SSE2__)
    __m128i low = _mm_set1_epi16(0xFF), bias = _mm_set1_epi16(narrowing.bias);
    __m128i factor = _mm_set1_epi16((short)narrowing.multiplier), add = _mm_set1_epi16(narrowing.add);
    for (; x + 8 <= count; x += 8) {
        // Each 16-bit lane gathers an input sample (low byte) and the next (high byte), a lane at a time: kept opaque
        // to the optimiser, which would otherwise build the vector from eight moves and seven unpacks.
        __m128i pairs = _mm_setzero_si128();
        uint16_t pair;
#define VIEWFINDER_GATHER(lane)                                                                                       \
    if (interleaved) {                                                                                                 \
        memcpy(&pair, ((lane) & 1 ? other : in) + index[(x + (lane)) >> 1], 2);                                        \
    } else {                                                                                                           \
        memcpy(&pair, in + index[x + (lane)], 2);                                                                      \
    }                                                                                                                  \
    pairs = _mm_insert_epi16(pairs, pair, lane);                                                                       \
    __asm__("" : "+x"(pairs));
        VIEWFINDER_GATHER(0) VIEWFINDER_GATHER(1) VIEWFINDER_GATHER(2) VIEWFINDER_GATHER(3)
        VIEWFINDER_GATHER(4) VIEWFINDER_GATHER(5) VIEWFINDER_GATHER(6) VIEWFINDER_GATHER(7)
#undef VIEWFINDER_GATHER
        __m128i first = _mm_and_si128(pairs, low);
        __m128i difference = _mm_sub_epi16(_mm_srli_epi16(pairs, 8), first);
        // The blend in 256ths, from 0 to 255 << 8: the product wraps, but the sum is in range.
        __m128i blend = _mm_add_epi16(_mm_slli_epi16(first, 8),
                                      _mm_mullo_epi16(difference, _mm_loadu_si128((const __m128i *)(weight + x))));
        __m128i value = _mm_add_epi16(_mm_mulhi_epu16(_mm_add_epi16(blend, bias), factor), add);
        _mm_storeu_si128((__m128i *)(out + x), value);
    }
#endif
    for (; x < count; x++) {
        const uint8_t *source = interleaved ? ((x & 1) ? other : in) + index[x >> 1] : in + index[x];
        int blend = (source[0] << 8) + (source[1] - source[0]) * weight[x];
        out[x] = (uint16_t)(narrowing.add + (((blend + narrowing.bias) * narrowing.multiplier) >> 16));
    }
}

/// Two input rows scaled across, kept while the output rows between them are made: slot `k` holds input row
/// `rows[k]`.
typedef struct viewfinder_row_pair {
    uint16_t *slots[2];
    int rows[2];
} viewfinder_row_pair;

/// The slot for input row `row`, keeping the one that holds `keep`; `*fresh` is set when it must be filled.
static inline uint16_t *viewfinder_row_slot(viewfinder_row_pair *pair, int row, int keep, int *fresh) {
    for (int k = 0; k < 2; k++) {
        if (pair->rows[k] == row) {
            *fresh = 0;
            return pair->slots[k];
        }
    }
    int k = pair->rows[0] == keep ? 1 : 0;
    pair->rows[k] = row;
    *fresh = 1;
    return pair->slots[k];
}

/// Samples of a row scaled across, in 16-bit lanes: `(count + 7) / 8` whole vectors and one more.
static inline size_t viewfinder_scale_pack_row_samples(int count) { return (((size_t)count + 7) & ~(size_t)7) + 8; }

size_t viewfinder_scale_pack_scratch_bytes(int width, int height) {
    size_t pairs = (size_t)(width + 1) / 2;
    size_t tables = sizeof(int32_t) * ((size_t)width + pairs + 2 * (size_t)height) +
                    sizeof(int16_t) * ((size_t)width + 2 * pairs + 2 * (size_t)height) + 16;
    size_t rows = 2 * viewfinder_scale_pack_row_samples(width) + 2 * viewfinder_scale_pack_row_samples(2 * (int)pairs);
    return tables + sizeof(uint16_t) * rows;
}

int viewfinder_scale_pack_yuyv_mapped(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride,
                                      const uint8_t *v, int v_stride, int src_width, int src_height,
                                      uint8_t *dst, int dst_stride, int dst_width, int dst_height,
                                      int luma_multiplier, int luma_offset, int chroma_multiplier,
                                      int chroma_offset, void *scratch) {
    viewfinder_narrowing luma_map, chroma_map;
    if (!viewfinder_prepare_narrowing(luma_multiplier, luma_offset, &luma_map) ||
        !viewfinder_prepare_narrowing(chroma_multiplier, chroma_offset, &chroma_map) || src_width < 1 ||
        src_height < 1 || dst_width < 1 || dst_height < 1) {
        return 0;
    }
    int chroma_width = (src_width + 1) / 2, chroma_height = (src_height + 1) / 2, pairs = (dst_width + 1) / 2;
    // Tables: 32-bit input positions, then 16-bit weights, then the rows, sixteen-byte aligned.
    int32_t *luma_x = (int32_t *)scratch, *chroma_x = luma_x + dst_width;
    int32_t *luma_y = chroma_x + pairs, *chroma_y = luma_y + dst_height;
    int16_t *luma_xw = (int16_t *)(chroma_y + dst_height), *chroma_xw = luma_xw + dst_width;
    int16_t *luma_yw = chroma_xw + 2 * pairs, *chroma_yw = luma_yw + dst_height;
    uint16_t *rows = (uint16_t *)(((uintptr_t)(chroma_yw + dst_height) + 15) & ~(uintptr_t)15);
    size_t luma_samples = viewfinder_scale_pack_row_samples(dst_width);
    size_t chroma_samples = viewfinder_scale_pack_row_samples(2 * pairs);
    viewfinder_row_pair luma = {{rows, rows + luma_samples}, {-1, -1}};
    viewfinder_row_pair chroma = {{rows + 2 * luma_samples, rows + 2 * luma_samples + chroma_samples}, {-1, -1}};
    // Across, weights in 256ths; each chroma pair's twice, for Cb and Cr side by side (from the end, as the table
    // grows in place).
    viewfinder_bilinear_positions(src_width, dst_width, luma_x, luma_xw);
    for (int x = 0; x < dst_width; x++) luma_xw[x] *= 2;
    viewfinder_bilinear_positions(chroma_width, pairs, chroma_x, chroma_xw);
    for (int pair = pairs - 1; pair >= 0; pair--) {
        chroma_xw[2 * pair + 1] = chroma_xw[2 * pair] = (int16_t)(2 * chroma_xw[pair]);
    }
    viewfinder_bilinear_positions(src_height, dst_height, luma_y, luma_yw);
    viewfinder_bilinear_positions(chroma_height, dst_height, chroma_y, chroma_yw);
    for (int row = 0; row < dst_height; row++) {
        const uint16_t *scaled[2][2];
        for (int plane = 0; plane < 2; plane++) {
            int height = plane == 0 ? src_height : chroma_height;
            int first = plane == 0 ? luma_y[row] : chroma_y[row];
            int wanted[2] = {first, first + 1 < height ? first + 1 : first};
            viewfinder_row_pair *pair = plane == 0 ? &luma : &chroma;
            for (int k = 0; k < 2; k++) {
                int fresh;
                uint16_t *slot = viewfinder_row_slot(pair, wanted[k], wanted[1 - k], &fresh);
                scaled[plane][k] = slot;
                if (!fresh) continue;
                if (plane == 0) {
                    viewfinder_scale_row16(y + (long)wanted[k] * y_stride, NULL, 0, src_width, luma_x, luma_xw, slot,
                                           dst_width, luma_map);
                } else {
                    viewfinder_scale_row16(u + (long)wanted[k] * u_stride, v + (long)wanted[k] * v_stride, 1,
                                           chroma_width, chroma_x, chroma_xw, slot, 2 * pairs, chroma_map);
                }
            }
        }
        int luma_next = luma_yw[row], chroma_next = chroma_yw[row];
        const uint16_t *luma_a = scaled[0][0], *luma_b = scaled[0][1];
        const uint16_t *chroma_a = scaled[1][0], *chroma_b = scaled[1][1];
        uint8_t *out = dst + (long)row * dst_stride;
        int x = 0;
#if defined(__SSE2__)
        // Each output pixel is a 16-bit word: luma in the low byte, its Cb or Cr in the high one.
        __m128i luma_weight = _mm_set1_epi16((short)luma_next), luma_rest = _mm_set1_epi16((short)(128 - luma_next));
        __m128i chroma_weight = _mm_set1_epi16((short)chroma_next);
        __m128i chroma_rest = _mm_set1_epi16((short)(128 - chroma_next));
        __m128i rounding = _mm_set1_epi16(64), high_rounding = _mm_set1_epi16(128);
        __m128i high = _mm_set1_epi16((short)0xFF00);
        for (; x + 8 <= dst_width; x += 8) {
            __m128i samples = _mm_add_epi16(
                _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)(luma_a + x)), luma_rest),
                _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)(luma_b + x)), luma_weight));
            samples = _mm_srli_epi16(_mm_add_epi16(samples, rounding), 7);
            __m128i chroma_words = _mm_add_epi16(
                _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)(chroma_a + x)), chroma_rest),
                _mm_mullo_epi16(_mm_loadu_si128((const __m128i *)(chroma_b + x)), chroma_weight));
            // Doubled, the blend in 128ths holds the sample in its high byte.
            chroma_words = _mm_and_si128(_mm_add_epi16(_mm_add_epi16(chroma_words, chroma_words), high_rounding), high);
            _mm_storeu_si128((__m128i *)(out + 2 * x), _mm_or_si128(samples, chroma_words));
        }
#endif
        for (; x < 2 * pairs; x++) {
            int column = x < dst_width ? x : dst_width - 1;
            out[2 * x] = (uint8_t)((luma_a[column] * (128 - luma_next) + luma_b[column] * luma_next + 64) >> 7);
            out[2 * x + 1] = (uint8_t)((chroma_a[x] * (128 - chroma_next) + chroma_b[x] * chroma_next + 64) >> 7);
        }
    }
    return 1;
}
