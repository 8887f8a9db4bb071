#ifndef VIEWFINDER_CVIEWFINDERPIXELS_H
#define VIEWFINDER_CVIEWFINDERPIXELS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Pixel kernels of Viewfinder's own: maps between full-range and video-range samples, and packing planar 4:2:0 as
// YUYV with the map (and scaling) in the same pass, for ViewfinderImaging; the plane copies, fills, merges and the
// chroma resampling that ViewfinderJPEG's decoder needs, so that JPEG decoding links no libyuv. SSE2 where the target
// has it, plain C elsewhere.

/// Sixteen bytes, and sixteen 16-bit lanes, as vectors of the compiler's own (SSE2 registers on x86-64).
typedef uint8_t viewfinder_u8x16 __attribute__((vector_size(16)));
typedef uint16_t viewfinder_u16x16 __attribute__((vector_size(32)));

/// Maps every byte of a plane through `v' = clamp((v * multiplier + offset) >> 8, 0, 255)`.
///
/// This is the affine map between full-range and video-range YCbCr samples, which libyuv 1857 offers only inside
/// its RGB converters. `src` and `dst` may be the same plane. A map that narrows the range (full to video) fits in
/// 16-bit lanes and needs no clamping, so it runs sixteen samples at a time in explicit vectors, which in-place use
/// does not defeat as it does the compiler's own vectorisation; widening maps and row ends go a sample at a time.
///
/// Inline, so that at each call site the compiler sees whether the planes are one and vectorises the widening maps
/// too.
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

/// Packs planar 4:2:0 as YUYV (`Y0 Cb Y1 Cr`) and maps its samples between ranges in the same pass, two rows at a
/// time so each chroma sample is mapped once. A last odd column's pair repeats its luma (libyuv's packers write 0
/// there, below black in video range).
///
/// Returns 0, having written nothing, when either map (`(v * multiplier + offset) >> 8`) does not narrow; the caller
/// then maps and packs in two passes.
int viewfinder_pack_yuyv_mapped(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride, const uint8_t *v,
                                int v_stride, uint8_t *dst, int dst_stride, int width, int height, int luma_multiplier,
                                int luma_offset, int chroma_multiplier, int chroma_offset);

/// The scratch memory `viewfinder_scale_pack_yuyv_mapped` needs for an output of `width` x `height` pixels.
size_t viewfinder_scale_pack_scratch_bytes(int width, int height);

/// Scales planar 4:2:0 (I420) to `dst_width` x `dst_height` and packs it as YUYV, mapping its samples between
/// ranges, in one pass over the output.
///
/// Bilinear, with positions in 128ths of a sample: each input row is scaled across and mapped once, into 16-bit
/// samples, and each output row blends the two input rows about it as it packs them. The chroma planes are scaled to
/// the output's pixel pairs and rows, centres aligned. A last odd column's pair repeats its luma. `scratch` holds at
/// least `viewfinder_scale_pack_scratch_bytes(dst_width, dst_height)` bytes, 16-byte aligned. Suited to sizes from
/// half to many times the input's; smaller outputs skip input samples.
///
/// Returns 0, having written nothing, when either map (`(v * multiplier + offset) >> 8`) does not narrow, as for
/// `viewfinder_pack_yuyv_mapped`, or a size is empty.
int viewfinder_scale_pack_yuyv_mapped(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride, const uint8_t *v,
                                      int v_stride, int src_width, int src_height, uint8_t *dst, int dst_stride,
                                      int dst_width, int dst_height, int luma_multiplier, int luma_offset,
                                      int chroma_multiplier, int chroma_offset, void *scratch);

/// Copies `height` rows of `width` bytes.
void viewfinder_copy_plane(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width, int height);

/// Sets `height` rows of `width` bytes to `value`.
void viewfinder_set_plane(uint8_t *dst, int dst_stride, int width, int height, uint8_t value);

/// Interleaves two planes of `width` x `height` samples into one of sample pairs (`first second`), as NV12's chroma.
void viewfinder_merge_uv_plane(const uint8_t *first, int first_stride, const uint8_t *second, int second_stride,
                               uint8_t *dst, int dst_stride, int width, int height);

/// Resamples a chroma plane of a JPEG image's own subsampling to another size of at most as many rows: rows and
/// columns are blended about the centre of each output sample's span (16.16 fixed point positions, 8-bit weights
/// down and 7-bit weights across, rounded to nearest), an exact halving both ways is the rounded mean of each 2x2
/// block, a doubling across of a single kept row is 3:1 blends of neighbours, and a size kept in one direction is not
/// filtered in it. These are, sample for sample, the results libyuv's `ScalePlane` gives with its box filter for the
/// sizes JPEG decoding resamples between (any subsampling to 4:2:0), which this replaces there.
///
/// `row_scratch` holds at least `src_width` bytes. Returns 0, having written nothing, for an empty size or an output
/// taller than the input.
int viewfinder_resample_chroma(const uint8_t *src, int src_stride, int src_width, int src_height, uint8_t *dst,
                               int dst_stride, int dst_width, int dst_height, uint8_t *row_scratch);

#endif
