import CTurboJPEG
import ViewfinderCore

/// How a JPEG image samples its chroma relative to its luma.
public enum JPEGChromaSubsampling: Hashable, Sendable, CustomStringConvertible {
    /// Chroma at full resolution (4:4:4).
    case yuv444
    /// Chroma at half width (4:2:2).
    case yuv422
    /// Chroma at half width and half height (4:2:0), what cameras and the simulator produce.
    case yuv420
    /// Chroma at half height (4:4:0).
    case yuv440
    /// Chroma at a quarter width (4:1:1).
    case yuv411
    /// No chroma: a greyscale image.
    case grayscale

    /// The subsampling TurboJPEG reports as `value`, or `nil` for one it does not name.
    init?(turboJPEG value: Int32) {
        switch value {
        case Int32(TJSAMP_444.rawValue): self = .yuv444
        case Int32(TJSAMP_422.rawValue): self = .yuv422
        case Int32(TJSAMP_420.rawValue): self = .yuv420
        case Int32(TJSAMP_440.rawValue): self = .yuv440
        case Int32(TJSAMP_411.rawValue): self = .yuv411
        case Int32(TJSAMP_GRAY.rawValue): self = .grayscale
        default: return nil
        }
    }

    /// TurboJPEG's constant for the subsampling.
    package var turboJPEG: Int32 {
        switch self {
        case .yuv444: Int32(TJSAMP_444.rawValue)
        case .yuv422: Int32(TJSAMP_422.rawValue)
        case .yuv420: Int32(TJSAMP_420.rawValue)
        case .yuv440: Int32(TJSAMP_440.rawValue)
        case .yuv411: Int32(TJSAMP_411.rawValue)
        case .grayscale: Int32(TJSAMP_GRAY.rawValue)
        }
    }

    /// The usual name, such as `4:2:0`.
    public var description: String {
        switch self {
        case .yuv444: "4:4:4"
        case .yuv422: "4:2:2"
        case .yuv420: "4:2:0"
        case .yuv440: "4:4:0"
        case .yuv411: "4:1:1"
        case .grayscale: "greyscale"
        }
    }
}

/// What a JPEG image's header says: its size, chroma subsampling and colour space.
///
/// Read it with ``JPEGDecoder/header(of:)-(Collection<UInt8>)`` to size a pool before decoding, or to choose a
/// ``JPEGDecoder/Scale`` for a preview.
public struct JPEGHeader: Hashable, Sendable {
    /// The colour space of a JPEG image's samples.
    public enum ColorSpace: Hashable, Sendable {
        /// YCbCr, as nearly every camera writes.
        case yCbCr
        /// RGB without a colour transform.
        case rgb
        /// Greyscale.
        case gray
        /// CMYK, from print workflows; Viewfinder does not decode it.
        case cmyk
        /// YCCK, from print workflows; Viewfinder does not decode it.
        case ycck
    }

    /// The image's size in pixels.
    public var dimensions: Dimensions
    /// How the chroma is sampled.
    public var chromaSubsampling: JPEGChromaSubsampling
    /// The colour space of the samples.
    public var colorSpace: ColorSpace

    /// The size of the image decoded at `scale`.
    public func dimensions(scaledBy scale: JPEGDecoder.Scale) -> Dimensions {
        Dimensions(width: scale.apply(to: dimensions.width), height: scale.apply(to: dimensions.height))
    }

    /// The size of the image decoded at `scale`, rounded up to whole chroma samples (even sides for 4:2:0).
    ///
    /// The decoder writes planar pictures at this size: decoding into a pool of NV12, NV21 or I420 buffers of this
    /// size writes the planes in place, where a pool of the exact size costs a copy of the luma plane when a side is
    /// odd. The extra row or column repeats the picture's last one.
    public func paddedDimensions(scaledBy scale: JPEGDecoder.Scale) -> Dimensions {
        let size = dimensions(scaledBy: scale)
        return Dimensions(
            width: Int(tjPlaneWidth(0, Int32(size.width), chromaSubsampling.turboJPEG)),
            height: Int(tjPlaneHeight(0, Int32(size.height), chromaSubsampling.turboJPEG)))
    }
}

extension JPEGHeader.ColorSpace {
    /// The colour space TurboJPEG reports as `value`, or `nil` for one it does not name.
    init?(turboJPEG value: Int32) {
        switch value {
        case Int32(TJCS_YCbCr.rawValue): self = .yCbCr
        case Int32(TJCS_RGB.rawValue): self = .rgb
        case Int32(TJCS_GRAY.rawValue): self = .gray
        case Int32(TJCS_CMYK.rawValue): self = .cmyk
        case Int32(TJCS_YCCK.rawValue): self = .ycck
        default: return nil
        }
    }
}

extension JPEGHeader {
    /// The image size a JPEG's start-of-frame segment gives, found by walking its marker segments without decoding
    /// anything, or `nil` when the data does not start with SOI or no frame header comes before the image data.
    ///
    /// Live view that skips decoding needs only the size, which this reads for a fraction of a full header's cost.
    package static func frameSize(scanning jpeg: ArraySlice<UInt8>) -> Dimensions? {
        guard jpeg.count >= 2, jpeg[jpeg.startIndex] == 0xFF, jpeg[jpeg.startIndex + 1] == 0xD8 else { return nil }
        var index = jpeg.startIndex + 2
        while index + 9 <= jpeg.endIndex, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            // SOF0 to SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(jpeg[index + 5]) << 8 | Int(jpeg[index + 6])
                let width = Int(jpeg[index + 7]) << 8 | Int(jpeg[index + 8])
                return Dimensions(width: width, height: height)
            }
            guard marker != 0xDA, length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }
}
