/// How the pixels of a frame are laid out in memory: a four-character code plus the colour range of its YCbCr values.
///
/// The named formats cover what cameras and capture devices deliver and what processors want. Each knows its
/// planes and their subsampling, so buffers can be sized and checked without special cases:
///
/// ```swift
/// let format = PixelFormat.nv12FullRange
/// format.planes.count                     // 2: luma, then interleaved CbCr at half width and height
/// format.bytesPerRow(ofPlane: 1, width: 641)   // 642
/// ```
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// Whether YCbCr values span the whole 0–255 range or the video range (16–235 luma, 16–240 chroma).
    public enum ColorRange: Hashable, Sendable {
        /// Values span 0–255 (JPEG and most still-image pipelines).
        case full
        /// Luma spans 16–235 and chroma 16–240 (broadcast video).
        case video
        /// The format carries RGB, greyscale or compressed data, where a YCbCr range does not apply.
        case notApplicable
    }

    /// One plane of a format: how many bytes each element takes and how many pixels share an element.
    ///
    /// An element is the unit a plane stores per sample site: one luma byte in NV12's first plane, a Cb/Cr byte pair
    /// in its second, a four-byte `Y0 Cb Y1 Cr` group covering two pixels in YUYV.
    public struct Plane: Hashable, Sendable {
        /// How many bytes one element takes.
        public let bytesPerElement: Int
        /// How many pixels of a row share one element.
        public let horizontalSubsampling: Int
        /// How many rows share one row of elements.
        public let verticalSubsampling: Int

        /// Creates a plane description.
        public init(bytesPerElement: Int, horizontalSubsampling: Int = 1, verticalSubsampling: Int = 1) {
            self.bytesPerElement = bytesPerElement
            self.horizontalSubsampling = horizontalSubsampling
            self.verticalSubsampling = verticalSubsampling
        }

        /// The number of elements in a row of this plane for an image `width` pixels wide.
        public func elementsPerRow(width: Int) -> Int {
            (width + horizontalSubsampling - 1) / horizontalSubsampling
        }

        /// The number of rows of this plane for an image `height` pixels tall.
        public func rows(height: Int) -> Int {
            (height + verticalSubsampling - 1) / verticalSubsampling
        }
    }

    /// The four-character code, as V4L2 names the format.
    public let fourCC: FourCharacterCode
    /// The colour range of YCbCr values.
    public let colorRange: ColorRange
    /// The planes, in memory order; empty for compressed formats.
    public let planes: [Plane]
    /// A short name for people, such as `"NV12 (full range)"`.
    public let name: String

    /// Creates a format description.
    ///
    /// Use the named formats, such as ``nv12FullRange``, unless a device delivers a layout they do not cover.
    public init(fourCC: FourCharacterCode, colorRange: ColorRange, planes: [Plane], name: String) {
        self.fourCC = fourCC
        self.colorRange = colorRange
        self.planes = planes
        self.name = name
    }

    /// Whether the format is compressed (JPEG), so its bytes are not addressable by pixel.
    public var isCompressed: Bool { planes.isEmpty }

    /// The tightest bytes per row for a plane of an image `width` pixels wide.
    public func bytesPerRow(ofPlane plane: Int, width: Int) -> Int {
        planes[plane].elementsPerRow(width: width) * planes[plane].bytesPerElement
    }

    /// The name, for people.
    public var description: String { name }

    /// Two formats are the same when their code and range are; names and plane tables follow from those.
    public static func == (lhs: PixelFormat, rhs: PixelFormat) -> Bool {
        lhs.fourCC == rhs.fourCC && lhs.colorRange == rhs.colorRange
    }

    /// Hashes the code and the range.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fourCC)
        hasher.combine(colorRange)
    }
}

extension PixelFormat {
    private static let luma = Plane(bytesPerElement: 1)
    private static let halfChroma = Plane(bytesPerElement: 1, horizontalSubsampling: 2, verticalSubsampling: 2)
    private static let halfChromaPairs = Plane(bytesPerElement: 2, horizontalSubsampling: 2, verticalSubsampling: 2)
    private static let packed422 = Plane(bytesPerElement: 4, horizontalSubsampling: 2)

    /// 4:2:0 YCbCr, a luma plane then interleaved Cb/Cr at half size, values in the full range.
    ///
    /// The format of `SequenceFrameSource`, the counterpart of `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange`.
    public static let nv12FullRange = PixelFormat(
        fourCC: "NV12", colorRange: .full, planes: [luma, halfChromaPairs], name: "NV12 (full range)")
    /// 4:2:0 YCbCr, a luma plane then interleaved Cb/Cr at half size, values in the video range.
    public static let nv12VideoRange = PixelFormat(
        fourCC: "NV12", colorRange: .video, planes: [luma, halfChromaPairs], name: "NV12 (video range)")
    /// 4:2:0 YCbCr, a luma plane then interleaved Cr/Cb at half size, values in the video range.
    public static let nv21 = PixelFormat(
        fourCC: "NV21", colorRange: .video, planes: [luma, halfChromaPairs], name: "NV21")
    /// 4:2:0 YCbCr in three planes, Y then Cb then Cr, values in the video range (V4L2's `YU12`).
    public static let i420 = PixelFormat(
        fourCC: "YU12", colorRange: .video, planes: [luma, halfChroma, halfChroma], name: "I420")
    /// 4:2:0 YCbCr in three planes, Y then Cb then Cr, values in the full range, as JPEG images hold them.
    ///
    /// The planes a JPEG decodes to without changing its samples; for V4L2 devices, ``i420`` is the usual one.
    public static let i420FullRange = PixelFormat(
        fourCC: "YU12", colorRange: .full, planes: [luma, halfChroma, halfChroma], name: "I420 (full range)")
    /// 4:2:2 YCbCr packed as `Y0 Cb Y1 Cr`, values in the video range.
    public static let yuyv = PixelFormat(fourCC: "YUYV", colorRange: .video, planes: [packed422], name: "YUYV")
    /// 4:2:2 YCbCr packed as `Cb Y0 Cr Y1`, values in the video range.
    public static let uyvy = PixelFormat(fourCC: "UYVY", colorRange: .video, planes: [packed422], name: "UYVY")
    /// Three bytes per pixel in the order R, G, B.
    public static let rgb24 = PixelFormat(
        fourCC: "RGB3", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 3)], name: "RGB24")
    /// Three bytes per pixel in the order B, G, R.
    public static let bgr24 = PixelFormat(
        fourCC: "BGR3", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 3)], name: "BGR24")
    /// Four bytes per pixel in the order B, G, R, A (V4L2's `AR24`).
    public static let bgra = PixelFormat(
        fourCC: "AR24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "BGRA")
    /// Four bytes per pixel in the order R, G, B, A (V4L2's `AB24`).
    public static let rgba = PixelFormat(
        fourCC: "AB24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "RGBA")
    /// Four bytes per pixel in the order A, R, G, B (V4L2's `BA24`); conversions read it but do not write it.
    public static let argb = PixelFormat(
        fourCC: "BA24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "ARGB")
    /// Four bytes per pixel in the order A, B, G, R (V4L2's `RA24`); conversions read it but do not write it.
    public static let abgr = PixelFormat(
        fourCC: "RA24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "ABGR")
    /// Four bytes per pixel in the order B, G, R, then one to ignore (V4L2's `XR24`); read only.
    public static let bgrx = PixelFormat(
        fourCC: "XR24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "BGRX")
    /// Four bytes per pixel in the order R, G, B, then one to ignore (V4L2's `XB24`); read only.
    public static let rgbx = PixelFormat(
        fourCC: "XB24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "RGBX")
    /// Four bytes per pixel, one to ignore, then R, G, B (V4L2's `BX24`); read only.
    public static let xrgb = PixelFormat(
        fourCC: "BX24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "XRGB")
    /// Four bytes per pixel, one to ignore, then B, G, R (V4L2's `RX24`); read only.
    public static let xbgr = PixelFormat(
        fourCC: "RX24", colorRange: .notApplicable, planes: [Plane(bytesPerElement: 4)], name: "XBGR")
    /// One byte of luma per pixel (V4L2's `GREY`).
    public static let gray8 = PixelFormat(fourCC: "GREY", colorRange: .notApplicable, planes: [luma], name: "GRAY8")
    /// A JPEG image, compressed; camera live view and USB webcams deliver these (V4L2's `MJPG` is the same data).
    public static let jpeg = PixelFormat(fourCC: "JPEG", colorRange: .full, planes: [], name: "JPEG")

    /// Every format this module names.
    public static let allNamed: [PixelFormat] = [
        .nv12FullRange, .nv12VideoRange, .nv21, .i420, .i420FullRange, .yuyv, .uyvy, .rgb24, .bgr24, .bgra, .rgba,
        .argb, .abgr, .bgrx, .rgbx, .xrgb, .xbgr, .gray8, .jpeg,
    ]
}
