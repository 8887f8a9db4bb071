import CV4L2
import ViewfinderCore

extension FourCharacterCode {
    /// Packed 4:2:2 luma and chroma, Y0 U Y1 V (`V4L2_PIX_FMT_YUYV`).
    static let v4l2YUYV = FourCharacterCode(rawValue: cv4l2_PIX_FMT_YUYV)
    /// Packed 4:2:2 luma and chroma, U Y0 V Y1 (`V4L2_PIX_FMT_UYVY`).
    static let v4l2UYVY = FourCharacterCode(rawValue: cv4l2_PIX_FMT_UYVY)
    /// 4:2:0, a luma plane and an interleaved CbCr plane (`V4L2_PIX_FMT_NV12`).
    static let v4l2NV12 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_NV12)
    /// 4:2:0, a luma plane and an interleaved CrCb plane (`V4L2_PIX_FMT_NV21`).
    static let v4l2NV21 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_NV21)
    /// 4:2:0 in three planes Y, Cb, Cr (`V4L2_PIX_FMT_YUV420`).
    static let v4l2YUV420 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_YUV420)
    /// Packed R, G, B (`V4L2_PIX_FMT_RGB24`).
    static let v4l2RGB24 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_RGB24)
    /// Packed B, G, R (`V4L2_PIX_FMT_BGR24`).
    static let v4l2BGR24 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_BGR24)
    /// B, G, R, A in memory (`V4L2_PIX_FMT_ABGR32`, `AR24`).
    static let v4l2ABGR32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_ABGR32)
    /// R, G, B, A in memory (`V4L2_PIX_FMT_RGBA32`, `AB24`).
    static let v4l2RGBA32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_RGBA32)
    /// A, R, G, B in memory (`V4L2_PIX_FMT_ARGB32`, `BA24`).
    static let v4l2ARGB32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_ARGB32)
    /// A, B, G, R in memory (`V4L2_PIX_FMT_BGRA32`, `RA24`).
    static let v4l2BGRA32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_BGRA32)
    /// B, G, R, padding in memory (`V4L2_PIX_FMT_XBGR32`, `XR24`).
    static let v4l2XBGR32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_XBGR32)
    /// R, G, B, padding in memory (`V4L2_PIX_FMT_RGBX32`, `XB24`).
    static let v4l2RGBX32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_RGBX32)
    /// Padding, R, G, B in memory (`V4L2_PIX_FMT_XRGB32`, `BX24`).
    static let v4l2XRGB32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_XRGB32)
    /// Padding, B, G, R in memory (`V4L2_PIX_FMT_BGRX32`, `RX24`).
    static let v4l2BGRX32 = FourCharacterCode(rawValue: cv4l2_PIX_FMT_BGRX32)
    /// 8-bit luma (`V4L2_PIX_FMT_GREY`).
    static let v4l2GREY = FourCharacterCode(rawValue: cv4l2_PIX_FMT_GREY)
    /// Motion JPEG (`V4L2_PIX_FMT_MJPEG`).
    static let v4l2MJPEG = FourCharacterCode(rawValue: cv4l2_PIX_FMT_MJPEG)
    /// JPEG (`V4L2_PIX_FMT_JPEG`).
    static let v4l2JPEG = FourCharacterCode(rawValue: cv4l2_PIX_FMT_JPEG)
}

extension PixelFormat {
    /// The Viewfinder pixel format for a V4L2 code, or `nil` when Viewfinder has no name for it.
    ///
    /// - Parameters:
    ///   - code: The V4L2 pixel format.
    ///   - fullRange: Whether the driver reports full-range YCbCr (`V4L2_QUANTIZATION_FULL_RANGE`); it matters only
    ///     for NV12, the one format Viewfinder names in both ranges.
    package init?(v4l2 code: FourCharacterCode, fullRange: Bool = false) {
        switch code {
        case .v4l2NV12: self = fullRange ? .nv12FullRange : .nv12VideoRange
        case .v4l2NV21: self = .nv21
        case .v4l2YUV420: self = .i420
        case .v4l2YUYV: self = .yuyv
        case .v4l2UYVY: self = .uyvy
        case .v4l2RGB24: self = .rgb24
        case .v4l2BGR24: self = .bgr24
        // V4L2 names these by the bytes of a big-endian word or by memory order, depending on the code; the
        // header's comments say the memory order, which is how Viewfinder names them.
        case .v4l2ABGR32: self = .bgra
        case .v4l2RGBA32: self = .rgba
        case .v4l2ARGB32: self = .argb
        case .v4l2BGRA32: self = .abgr
        case .v4l2XBGR32: self = .bgrx
        case .v4l2RGBX32: self = .rgbx
        case .v4l2XRGB32: self = .xrgb
        case .v4l2BGRX32: self = .xbgr
        case .v4l2GREY: self = .gray8
        case .v4l2MJPEG, .v4l2JPEG: self = .jpeg
        default: return nil
        }
    }

    /// The V4L2 code to ask a driver for this format.
    package var v4l2Code: FourCharacterCode {
        self == .jpeg ? .v4l2MJPEG : fourCC
    }
}
