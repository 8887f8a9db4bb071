// The C interface of include/CZXing.h over zxing-cpp 1.4.
#include "CZXing.h"

// Result::text() as UTF-8.
#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>

#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

/// One code found: what the Swift side asks for, with corners already in the caller's image.
struct Code {
    uint32_t format = 0;
    std::string text;
    std::vector<uint8_t> bytes;
    int32_t corners[8] = {};
};

}  // namespace

struct vf_zxing_reader {
    std::vector<Code> codes;
    /// The reads for `options`, made again only when the options change.
    std::vector<ZXing::DecodeHints> passes;
    vf_zxing_options options = {};
    std::string error;
    /// The reduced copies' pixels: a half, then a quarter of the image.
    std::vector<uint8_t> reduced[2];
};

namespace {

/// Averages each 2x2 block of `width` x `height` pixels into `destination`, (width / 2) x (height / 2) tightly packed.
void halve(const uint8_t *data, int width, int height, int rowStride, int pixelStride, std::vector<uint8_t> &destination)
{
    const int halfWidth = width / 2, halfHeight = height / 2;
    destination.resize(static_cast<size_t>(halfWidth) * halfHeight);
    for (int y = 0; y < halfHeight; ++y) {
        const uint8_t *top = data + static_cast<ptrdiff_t>(2 * y) * rowStride;
        const uint8_t *bottom = top + rowStride;
        uint8_t *out = destination.data() + static_cast<size_t>(y) * halfWidth;
        for (int x = 0; x < halfWidth; ++x) {
            const ptrdiff_t left = static_cast<ptrdiff_t>(2 * x) * pixelStride, right = left + pixelStride;
            out[x] = static_cast<uint8_t>((top[left] + top[right] + bottom[left] + bottom[right] + 2) / 4);
        }
    }
}

/// The GS1 DataBar formats, read in a pass of their own (see passes).
constexpr uint32_t dataBarFormats =
    static_cast<uint32_t>(ZXing::BarcodeFormat::DataBar) | static_cast<uint32_t>(ZXing::BarcodeFormat::DataBarExpanded);

/// Micro QR, read in a pass of its own as a pure image (see passes).
constexpr uint32_t microQRFormat = static_cast<uint32_t>(ZXing::BarcodeFormat::MicroQRCode);

/// The reads each image gets: one for every format but GS1 DataBar and Micro QR, one for GS1 DataBar that stops at
/// the first code, and one for Micro QR as a pure image. Debian builds zxing-cpp 1.4 with its assertions on, and two
/// of them abort the process on pictures a camera can see:
/// - a linear code found again on another row must have been seen on one row only; a DataBar code comes with an
///   estimate of its rows and fails that check whenever the reader goes on looking after finding one, which it does
///   only while it wants more codes;
/// - the Micro QR finder fits a square to the ring around each candidate finder pattern and asserts that each side
///   had points to fit; a ring of a few pixels, or one bent out of square, has a side without, and aborts. The pure
///   reading finds the code from its bounding box instead and never fits rings.
std::vector<ZXing::DecodeHints> passes(const vf_zxing_options &options)
{
    const int maximumCount = options.maximum_count < 1 ? 1 : options.maximum_count > 255 ? 255 : options.maximum_count;
    ZXing::DecodeHints hints;
    hints.setTryHarder(options.try_harder != 0)
        .setTryRotate(options.try_rotate != 0)
        // Reduced copies are read by vf_zxing_read instead: zxing-cpp's own reduced reads compare the codes of each
        // size with the same assertion, which fails on some ITF images.
        .setTryDownscale(false);
    std::vector<ZXing::DecodeHints> result;
    if (const uint32_t others = options.formats & ~(dataBarFormats | microQRFormat)) {
        ZXing::DecodeHints main = hints;
        main.setFormats(static_cast<ZXing::BarcodeFormat>(others)).setMaxNumberOfSymbols(static_cast<uint8_t>(maximumCount));
        result.push_back(main);
    }
    if (const uint32_t dataBar = options.formats & dataBarFormats) {
        ZXing::DecodeHints only = hints;
        only.setFormats(static_cast<ZXing::BarcodeFormat>(dataBar)).setMaxNumberOfSymbols(1);
        result.push_back(only);
    }
    if (options.formats & microQRFormat) {
        ZXing::DecodeHints pure = hints;
        pure.setFormats(ZXing::BarcodeFormat::MicroQRCode).setIsPure(true).setMaxNumberOfSymbols(1);
        result.push_back(pure);
    }
    return result;
}

void readPass(
    vf_zxing_reader &reader, const ZXing::ImageView &image, const ZXing::DecodeHints &hints, int scale,
    int originalWidth, bool mirrored)
{
    const ZXing::Results results = ZXing::ReadBarcodes(image, hints);
    for (const ZXing::Result &result : results) {
        if (!result.isValid()) continue;
        Code code;
        code.format = static_cast<uint32_t>(result.format());
        code.text = result.text();
        const ZXing::ByteArray &bytes = result.bytes();
        code.bytes.assign(bytes.begin(), bytes.end());
        const ZXing::Position &position = result.position();
        for (int corner = 0; corner < 4; ++corner) {
            // A reduced pixel covers `scale` pixels: its centre is half of them further in.
            int32_t x = position[corner].x * scale + scale / 2;
            const int32_t y = position[corner].y * scale + scale / 2;
            if (mirrored) x = originalWidth - 1 - x;
            code.corners[2 * corner] = x;
            code.corners[2 * corner + 1] = y;
        }
        reader.codes.push_back(std::move(code));
    }
}

/// Reads one image with each pass and appends what it finds, with corners scaled by `scale` and mirrored when
/// `mirrored` (pixel_stride -1, whose x counts from the right edge of the caller's image).
void readInto(
    vf_zxing_reader &reader, const ZXing::ImageView &image, const std::vector<ZXing::DecodeHints> &passes, int scale,
    int originalWidth, bool mirrored)
{
    for (const ZXing::DecodeHints &hints : passes) {
        readPass(reader, image, hints, scale, originalWidth, mirrored);
    }
}

}  // namespace

extern "C" vf_zxing_reader *vf_zxing_reader_create(void)
{
    return new (std::nothrow) vf_zxing_reader();
}

extern "C" void vf_zxing_reader_destroy(vf_zxing_reader *reader)
{
    delete reader;
}

extern "C" int vf_zxing_read(
    vf_zxing_reader *reader, const uint8_t *data, int width, int height, int rowStride, int pixelStride,
    const vf_zxing_options *options)
{
    reader->codes.clear();
    reader->error.clear();
    if (width <= 0 || height <= 0 || (pixelStride != 1 && pixelStride != -1) || rowStride < width) {
        reader->error = "an image needs a size, a pixel stride of 1 or -1 and rows at least as long as its width";
        return -1;
    }
    if (options->formats == 0) return 0;
    try {
        const vf_zxing_options &last = reader->options;
        if (reader->passes.empty() || last.formats != options->formats || last.try_harder != options->try_harder ||
            last.try_rotate != options->try_rotate || last.maximum_count != options->maximum_count) {
            reader->passes = passes(*options);
            reader->options = *options;
        }
        const std::vector<ZXing::DecodeHints> &hints = reader->passes;
        const bool mirrored = pixelStride < 0;
        readInto(*reader, ZXing::ImageView(data, width, height, ZXing::ImageFormat::Lum, rowStride, pixelStride), hints, 1,
            width, mirrored);
        if (reader->codes.empty() && options->try_reduced) {
            const uint8_t *source = data;
            int sourceWidth = width, sourceHeight = height, sourceRowStride = rowStride, sourcePixelStride = pixelStride;
            for (int level = 0; level < 2 && reader->codes.empty(); ++level) {
                if (sourceWidth < 64 || sourceHeight < 64) break;
                std::vector<uint8_t> &half = reader->reduced[level];
                halve(source, sourceWidth, sourceHeight, sourceRowStride, sourcePixelStride, half);
                sourceWidth /= 2;
                sourceHeight /= 2;
                sourceRowStride = sourceWidth;
                sourcePixelStride = 1;
                source = half.data();
                // The copy is the right way round; its corners are scaled up, then mirrored like the full read's.
                ZXing::ImageView view(source, sourceWidth, sourceHeight, ZXing::ImageFormat::Lum, sourceRowStride, 1);
                readInto(*reader, view, hints, 2 << level, width, mirrored);
            }
        }
        return static_cast<int>(reader->codes.size());
    } catch (const std::exception &error) {
        reader->codes.clear();
        reader->error = error.what();
        return -1;
    } catch (...) {
        reader->codes.clear();
        reader->error = "zxing-cpp failed";
        return -1;
    }
}

extern "C" const char *vf_zxing_reader_error(const vf_zxing_reader *reader)
{
    return reader->error.c_str();
}

extern "C" uint32_t vf_zxing_result_format(const vf_zxing_reader *reader, int index)
{
    return reader->codes[static_cast<size_t>(index)].format;
}

extern "C" const char *vf_zxing_result_text(const vf_zxing_reader *reader, int index, size_t *length)
{
    const std::string &text = reader->codes[static_cast<size_t>(index)].text;
    *length = text.size();
    return text.data();
}

extern "C" const uint8_t *vf_zxing_result_bytes(const vf_zxing_reader *reader, int index, size_t *length)
{
    const std::vector<uint8_t> &bytes = reader->codes[static_cast<size_t>(index)].bytes;
    *length = bytes.size();
    return bytes.data();
}

extern "C" void vf_zxing_result_corners(const vf_zxing_reader *reader, int index, int32_t corners[8])
{
    for (int value = 0; value < 8; ++value) corners[value] = reader->codes[static_cast<size_t>(index)].corners[value];
}
