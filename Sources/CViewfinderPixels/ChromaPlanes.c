#include "CViewfinderPixels.h"

void viewfinder_copy_plane(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width, int height) {
    for (int row = 0; row < height; row++) {
        memcpy(dst + (long)row * dst_stride, src + (long)row * src_stride, (size_t)width);
    }
}

void viewfinder_set_plane(uint8_t *dst, int dst_stride, int width, int height, uint8_t value) {
    for (int row = 0; row < height; row++) {
        memset(dst + (long)row * dst_stride, value, (size_t)width);
    }
}

void viewfinder_merge_uv_plane(const uint8_t *first, int first_stride, const uint8_t *second, int second_stride,
                               uint8_t *dst, int dst_stride, int width, int height) {
    for (int row = 0; row < height; row++) {
        const uint8_t *a = first + (long)row * first_stride;
        const uint8_t *b = second + (long)row * second_stride;
        uint8_t *out = dst + (long)row * dst_stride;
        for (int x = 0; x < width; x++) {
            out[2 * x] = a[x];
            out[2 * x + 1] = b[x];
        }
    }
}

/// How a resampling filters, once sizes have simplified it: both ways, across only, or not at all.
enum viewfinder_filter { viewfinder_filter_none, viewfinder_filter_linear, viewfinder_filter_bilinear };

/// `num / div` in 16.16 fixed point.
static int fixed_div(int num, int div) { return (int)(((int64_t)num << 16) / div); }

/// `(num - 1) / (div - 1)` in 16.16 fixed point, so that the last output sample falls on the last input sample.
static int fixed_div1(int num, int div) { return (int)((((int64_t)num << 16) - 0x00010001) / (div - 1)); }

/// A position half a step in, less half a sample (`bias` = -32768) or not (0): the centre of the first output
/// sample's span.
static int center_start(int step, int bias) { return (step >> 1) + bias; }

/// Blends row `row` and the next by `fraction` 256ths of the next, rounding to nearest; an even blend rounds up, as
/// the average of the two.
static void blend_rows(const uint8_t *row, long stride, uint8_t *out, int width, int fraction) {
    const uint8_t *next = row + stride;
    if (fraction == 0) {
        memcpy(out, row, (size_t)width);
    } else if (fraction == 128) {
        for (int x = 0; x < width; x++) out[x] = (uint8_t)((row[x] + next[x] + 1) >> 1);
    } else {
        for (int x = 0; x < width; x++) {
            out[x] = (uint8_t)((row[x] * (256 - fraction) + next[x] * fraction + 128) >> 8);
        }
    }
}

/// Fills `width` output samples from a row, each blended between the two input samples about its 16.16 position
/// with a 7-bit weight, rounding to nearest.
static void blend_columns(const uint8_t *row, uint8_t *out, int width, int x, int step) {
    for (int column = 0; column < width; column++, x += step) {
        int a = row[x >> 16], b = row[(x >> 16) + 1];
        out[column] = (uint8_t)(a + ((((x & 0xFFFF) >> 9) * (b - a) + 0x40) >> 7));
    }
}

/// Steps and first positions across and down, for a filter, as 16.16 fixed point.
static void slope(int src_width, int src_height, int dst_width, int dst_height, enum viewfinder_filter filter,
                  int *x, int *y, int *dx, int *dy) {
    if (filter == viewfinder_filter_none) {
        *dx = fixed_div(src_width, dst_width);
        *dy = fixed_div(src_height, dst_height);
        *x = center_start(*dx, 0);
        *y = center_start(*dy, 0);
        return;
    }
    *x = 0;
    *dx = 0;
    if (dst_width <= src_width) {
        *dx = fixed_div(src_width, dst_width);
        *x = center_start(*dx, -32768);
    } else if (src_width > 1 && dst_width > 1) {
        *dx = fixed_div1(src_width, dst_width);
    }
    *dy = fixed_div(src_height, dst_height);
    *y = filter == viewfinder_filter_linear ? *dy >> 1 : center_start(*dy, -32768);
}

int viewfinder_resample_chroma(const uint8_t *src, int src_stride, int src_width, int src_height, uint8_t *dst,
                               int dst_stride, int dst_width, int dst_height, uint8_t *row_scratch) {
    if (src_width <= 0 || src_height <= 0 || dst_width <= 0 || dst_height <= 0 || dst_height > src_height) {
        return 0;
    }
    // Averaging in both directions where both shrink, across only where the rows stay, none for a single column.
    enum viewfinder_filter filter = viewfinder_filter_bilinear;
    if (src_height == 1 || dst_height == src_height || dst_height * 3 == src_height) filter = viewfinder_filter_linear;
    if (src_width == 1 || (filter == viewfinder_filter_linear && (dst_width == src_width || dst_width * 3 == src_width))) {
        filter = viewfinder_filter_none;
    }
    if (dst_width == src_width && dst_height == src_height) {
        viewfinder_copy_plane(src, src_stride, dst, dst_stride, dst_width, dst_height);
    } else if (dst_width == src_width) {
        // Rows blended, columns as they are: rows centred on each output row's span, the last pair at most.
        int dy = fixed_div(src_height, dst_height), y = center_start(dy, -32768);
        int max_y = src_height > 1 ? ((src_height - 1) << 16) - 1 : 0;
        for (int row = 0; row < dst_height; row++, y += dy) {
            if (y > max_y) y = max_y;
            blend_rows(src + (long)(y >> 16) * src_stride, src_stride, dst + (long)row * dst_stride, dst_width,
                       filter == viewfinder_filter_none ? 0 : (y >> 8) & 255);
        }
    } else if (2 * dst_width == src_width && 2 * dst_height == src_height) {
        // Exactly half both ways: each output sample the rounded mean of its 2x2 block.
        for (int row = 0; row < dst_height; row++) {
            const uint8_t *top = src + (long)(2 * row) * src_stride, *bottom = top + src_stride;
            uint8_t *out = dst + (long)row * dst_stride;
            for (int x = 0; x < dst_width; x++) {
                out[x] = (uint8_t)((top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + 2) >> 2);
            }
        }
    } else if ((dst_width + 1) / 2 == src_width && filter == viewfinder_filter_linear) {
        // Twice as wide, rows kept: each inner pair a 3:1 and a 1:3 blend of two neighbours, the ends as they are.
        int dy = dst_height > 1 ? fixed_div(src_height - 1, dst_height - 1) : 0;
        int y = dst_height > 1 ? (1 << 15) - 1 : ((src_height - 1) / 2) << 16;
        for (int row = 0; row < dst_height; row++, y += dy) {
            const uint8_t *in = src + (long)(y >> 16) * src_stride;
            uint8_t *out = dst + (long)row * dst_stride;
            int inner = (dst_width - 1) & ~1;
            out[0] = in[0];
            for (int x = 0; x < inner / 2; x++) {
                out[2 * x + 1] = (uint8_t)((in[x] * 3 + in[x + 1] + 2) >> 2);
                out[2 * x + 2] = (uint8_t)((in[x] + in[x + 1] * 3 + 2) >> 2);
            }
            out[dst_width - 1] = in[(dst_width - 1) / 2];
        }
    } else if (filter == viewfinder_filter_none) {
        int x, y, dx, dy;
        slope(src_width, src_height, dst_width, dst_height, filter, &x, &y, &dx, &dy);
        for (int row = 0; row < dst_height; row++, y += dy) {
            const uint8_t *in = src + (long)(y >> 16) * src_stride;
            uint8_t *out = dst + (long)row * dst_stride;
            for (int column = 0, position = x; column < dst_width; column++, position += dx) {
                out[column] = in[position >> 16];
            }
        }
    } else {
        // Rows blended into the scratch row (or read as they are, for the linear filter), then columns blended.
        int x, y, dx, dy;
        slope(src_width, src_height, dst_width, dst_height, filter, &x, &y, &dx, &dy);
        int max_y = (src_height - 1) << 16;
        for (int row = 0; row < dst_height; row++, y += dy) {
            if (y > max_y) y = max_y;
            const uint8_t *in = src + (long)(y >> 16) * src_stride;
            if (filter == viewfinder_filter_bilinear) {
                blend_rows(in, src_stride, row_scratch, src_width, (y >> 8) & 255);
                in = row_scratch;
            }
            blend_columns(in, dst + (long)row * dst_stride, dst_width, x, dx);
        }
    }
    return 1;
}
