import CV4L2

/// A V4L2 four-character pixel-format code, such as `YUYV` or `NV12`.
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    /// The code as the kernel stores it: the first character in the lowest byte.
    public var rawValue: UInt32

    /// Wraps a raw code.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Builds a code from its four characters; `nil` unless the string has exactly four ASCII characters.
    public init?(_ characters: String) {
        let bytes = Array(characters.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = cv4l2_fourcc(bytes[0], bytes[1], bytes[2], bytes[3])
    }

    /// Packed 4:2:2 luma and chroma, Y0 U Y1 V.
    public static let yuyv = FourCC(rawValue: cv4l2_PIX_FMT_YUYV)
    /// Packed 4:2:2 luma and chroma, U Y0 V Y1.
    public static let uyvy = FourCC(rawValue: cv4l2_PIX_FMT_UYVY)
    /// 4:2:0 with a luma plane and an interleaved CbCr plane.
    public static let nv12 = FourCC(rawValue: cv4l2_PIX_FMT_NV12)
    /// 4:2:0 with a luma plane and an interleaved CrCb plane.
    public static let nv21 = FourCC(rawValue: cv4l2_PIX_FMT_NV21)
    /// 4:2:0 with three planes, Y, Cb, Cr (I420).
    public static let yuv420 = FourCC(rawValue: cv4l2_PIX_FMT_YUV420)
    /// 4:2:0 with three planes, Y, Cr, Cb.
    public static let yvu420 = FourCC(rawValue: cv4l2_PIX_FMT_YVU420)
    /// 4:2:2 with a luma plane and an interleaved CbCr plane.
    public static let nv16 = FourCC(rawValue: cv4l2_PIX_FMT_NV16)
    /// Packed 8-bit R, G, B.
    public static let rgb24 = FourCC(rawValue: cv4l2_PIX_FMT_RGB24)
    /// Packed 8-bit B, G, R.
    public static let bgr24 = FourCC(rawValue: cv4l2_PIX_FMT_BGR24)
    /// 32-bit B, G, R, X in memory.
    public static let xrgb32 = FourCC(rawValue: cv4l2_PIX_FMT_XRGB32)
    /// 32-bit B, G, R, A in memory.
    public static let argb32 = FourCC(rawValue: cv4l2_PIX_FMT_ARGB32)
    /// 32-bit R, G, B, X in memory.
    public static let xbgr32 = FourCC(rawValue: cv4l2_PIX_FMT_XBGR32)
    /// 32-bit R, G, B, A in memory.
    public static let abgr32 = FourCC(rawValue: cv4l2_PIX_FMT_ABGR32)
    /// 8-bit luma only.
    public static let grey = FourCC(rawValue: cv4l2_PIX_FMT_GREY)
    /// Motion JPEG.
    public static let mjpeg = FourCC(rawValue: cv4l2_PIX_FMT_MJPEG)
    /// JPEG frames.
    public static let jpeg = FourCC(rawValue: cv4l2_PIX_FMT_JPEG)
    /// H.264 elementary stream.
    public static let h264 = FourCC(rawValue: cv4l2_PIX_FMT_H264)

    /// The four characters, with non-printable bytes shown as `.`.
    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> ($0 * 8)) }
        return String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
    }
}
