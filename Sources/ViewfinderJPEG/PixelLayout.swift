import ViewfinderCore

/// How a pixel format arranges its bytes, as far as the imaging code cares: the format's code without its range.
///
/// Viewfinder names byte orders by memory order; libyuv names them by a little-endian word. The cases say which
/// libyuv name each one is.
package enum PixelLayout: Hashable, Sendable {
    /// A luma plane, then interleaved Cb/Cr at half size.
    case nv12
    /// A luma plane, then interleaved Cr/Cb at half size.
    case nv21
    /// Luma, Cb and Cr planes, chroma at half size.
    case i420
    /// 4:2:2 packed as `Y0 Cb Y1 Cr` (libyuv's YUY2).
    case yuyv
    /// 4:2:2 packed as `Cb Y0 Cr Y1`.
    case uyvy
    /// Bytes R, G, B (libyuv's RAW).
    case rgb24
    /// Bytes B, G, R (libyuv's RGB24).
    case bgr24
    /// Bytes B, G, R, A (libyuv's ARGB).
    case bgra
    /// Bytes R, G, B, A (libyuv's ABGR).
    case rgba
    /// Four bytes per pixel in another order, read only.
    case otherRGB32(RGB32Order)
    /// One byte of luma per pixel, full range.
    case gray
    /// JPEG data.
    case jpeg

    /// The layout of a format, or `nil` when the imaging code does not know its code.
    package init?(_ format: PixelFormat) {
        switch format.fourCC {
        case Code.nv12: self = .nv12
        case Code.nv21: self = .nv21
        case Code.i420: self = .i420
        case Code.yuyv: self = .yuyv
        case Code.uyvy: self = .uyvy
        case Code.rgb24: self = .rgb24
        case Code.bgr24: self = .bgr24
        case Code.bgra: self = .bgra
        case Code.rgba: self = .rgba
        case Code.argb: self = .otherRGB32(.argb)
        case Code.abgr: self = .otherRGB32(.abgr)
        case Code.bgrx: self = .otherRGB32(.bgrx)
        case Code.rgbx: self = .otherRGB32(.rgbx)
        case Code.xrgb: self = .otherRGB32(.xrgb)
        case Code.xbgr: self = .otherRGB32(.xbgr)
        case Code.gray: self = .gray
        case Code.jpeg, Code.motionJPEG: self = .jpeg
        default: return nil
        }
        guard self == .jpeg || format.planes.count == planeCount else { return nil }
    }

    /// The codes, built once: building a code from a string allocates.
    private enum Code {
        static let nv12: FourCharacterCode = "NV12"
        static let nv21: FourCharacterCode = "NV21"
        static let i420: FourCharacterCode = "YU12"
        static let yuyv: FourCharacterCode = "YUYV"
        static let uyvy: FourCharacterCode = "UYVY"
        static let rgb24: FourCharacterCode = "RGB3"
        static let bgr24: FourCharacterCode = "BGR3"
        static let bgra: FourCharacterCode = "AR24"
        static let rgba: FourCharacterCode = "AB24"
        static let argb: FourCharacterCode = "BA24"
        static let abgr: FourCharacterCode = "RA24"
        static let bgrx: FourCharacterCode = "XR24"
        static let rgbx: FourCharacterCode = "XB24"
        static let xrgb: FourCharacterCode = "BX24"
        static let xbgr: FourCharacterCode = "RX24"
        static let gray: FourCharacterCode = "GREY"
        static let jpeg: FourCharacterCode = "JPEG"
        static let motionJPEG: FourCharacterCode = "MJPG"
    }

    /// The number of planes a buffer of this layout has.
    package var planeCount: Int {
        switch self {
        case .nv12, .nv21: 2
        case .i420: 3
        case .yuyv, .uyvy, .rgb24, .bgr24, .bgra, .rgba, .otherRGB32, .gray, .jpeg: 1
        }
    }

    /// Whether scaling and rotation handle this layout: all but packed 4:2:2, the other four-byte orders and JPEG.
    package var isOutput: Bool {
        switch self {
        case .nv12, .nv21, .i420, .bgra, .rgba, .rgb24, .bgr24, .gray: true
        case .yuyv, .uyvy, .otherRGB32, .jpeg: false
        }
    }

    /// Whether conversions write this layout: those scaling handles, and YUYV, which video output devices take.
    package var isConversionOutput: Bool { isOutput || self == .yuyv }

    /// Whether the layout holds YCbCr samples, whose range matters.
    package var isYCbCr: Bool {
        switch self {
        case .nv12, .nv21, .i420, .yuyv, .uyvy: true
        case .rgb24, .bgr24, .bgra, .rgba, .otherRGB32, .gray, .jpeg: false
        }
    }
}

/// Whether YCbCr samples use the full range; the scale the imaging code converts between.
package enum SampleRange: Sendable {
    case full
    case video

    /// The range of a format's samples; RGB, greyscale and JPEG data count as full range.
    ///
    /// A YCbCr format that does not state its range is taken to be video range, as V4L2 devices deliver by default.
    package init(_ format: PixelFormat) {
        switch format.colorRange {
        case .full: self = .full
        case .video: self = .video
        case .notApplicable: self = PixelLayout(format)?.isYCbCr == true ? .video : .full
        }
    }
}
