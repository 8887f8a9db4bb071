// The zxing-cpp peer of include/BarcodePeer.h.
#include "BarcodePeer.h"

#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>

#include <exception>

extern "C" int barcode_peer_zxing_read(const uint8_t *data, int width, int height, int rowStride, uint32_t formats)
{
    try {
        ZXing::DecodeHints hints;
        hints.setFormats(static_cast<ZXing::BarcodeFormat>(formats));
        const ZXing::Results results =
            ZXing::ReadBarcodes(ZXing::ImageView(data, width, height, ZXing::ImageFormat::Lum, rowStride), hints);
        int valid = 0;
        for (const ZXing::Result &result : results) valid += result.isValid() ? 1 : 0;
        return valid;
    } catch (const std::exception &) {
        return -1;
    }
}
