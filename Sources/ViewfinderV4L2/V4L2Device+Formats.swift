import CV4L2
import ViewfinderCore

/// A pixel format a capture node lists (`VIDIOC_ENUM_FMT`).
package struct V4L2FormatDescription: Hashable, Sendable {
    /// The pixel format.
    package var pixelFormat: FourCharacterCode
    /// The driver's name for it.
    package var description: String
    /// Whether the frames are compressed (JPEG, H.264, …).
    package var isCompressed: Bool
    /// Whether the format is converted in software by the driver or a library rather than native.
    package var isEmulated: Bool
}

/// A frame width and height in pixels.
package struct V4L2Size: Hashable, Sendable, Comparable {
    /// The width in pixels.
    package var width: UInt32
    /// The height in pixels.
    package var height: UInt32

    /// Makes a size.
    package init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    /// Orders by area, then by width.
    package static func < (lhs: V4L2Size, rhs: V4L2Size) -> Bool {
        let (left, right) = (UInt64(lhs.width) * UInt64(lhs.height), UInt64(rhs.width) * UInt64(rhs.height))
        return left != right ? left < right : lhs.width < rhs.width
    }
}

/// A frame interval in seconds, as a fraction (1/30 is 30 frames per second).
package struct V4L2Fraction: Hashable, Sendable {
    /// The numerator.
    package var numerator: UInt32
    /// The denominator.
    package var denominator: UInt32

    /// Makes a fraction.
    package init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// Reads the C structure.
    package init(_ fraction: v4l2_fract) {
        self.init(numerator: fraction.numerator, denominator: fraction.denominator)
    }

    /// The C structure.
    package var cValue: v4l2_fract { v4l2_fract(numerator: numerator, denominator: denominator) }

    /// The frame rate this interval gives, in frames per second; zero for a zero numerator.
    package var framesPerSecond: Double {
        numerator == 0 ? 0 : Double(denominator) / Double(numerator)
    }
}

/// The frame sizes a pixel format offers (`VIDIOC_ENUM_FRAMESIZES`).
package enum V4L2FrameSizes: Hashable, Sendable {
    /// A list of sizes.
    case discrete([V4L2Size])
    /// Any size from `minimum` to `maximum` in steps of `step`.
    case stepwise(minimum: V4L2Size, maximum: V4L2Size, step: V4L2Size)
    /// Any size from `minimum` to `maximum`.
    case continuous(minimum: V4L2Size, maximum: V4L2Size)
}

/// The frame intervals a pixel format and size offer (`VIDIOC_ENUM_FRAMEINTERVALS`).
package enum V4L2FrameIntervals: Hashable, Sendable {
    /// A list of intervals.
    case discrete([V4L2Fraction])
    /// Any interval from `minimum` to `maximum` in steps of `step`.
    case stepwise(minimum: V4L2Fraction, maximum: V4L2Fraction, step: V4L2Fraction)
    /// Any interval from `minimum` to `maximum`.
    case continuous(minimum: V4L2Fraction, maximum: V4L2Fraction)
}

/// The single-planar format a capture node is set to (`VIDIOC_G_FMT`, `VIDIOC_S_FMT`).
package struct V4L2PixelFormat: Hashable, Sendable {
    /// The frame size.
    package var size: V4L2Size
    /// The pixel format.
    package var pixelFormat: FourCharacterCode
    /// Bytes from one row to the next in the first plane.
    package var bytesPerLine: UInt32
    /// Bytes in a whole frame.
    package var sizeImage: UInt32
    /// Whether YCbCr values use the full 0–255 range (`V4L2_QUANTIZATION_FULL_RANGE`).
    package var isFullRange: Bool = false
}

extension V4L2Device {
    /// The most entries any enumeration reads, so a driver that never ends a list cannot hang the caller.
    static var enumerationLimit: UInt32 { 4096 }

    /// The pixel formats the capture node lists, in the driver's order (`VIDIOC_ENUM_FMT`).
    package func formats() throws(V4L2Error) -> [V4L2FormatDescription] {
        var formats: [V4L2FormatDescription] = []
        for index in 0..<Self.enumerationLimit {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            do {
                try control(cv4l2_VIDIOC_ENUM_FMT, "VIDIOC_ENUM_FMT", &description)
            } catch  where error.code == .invalidArgument {
                break
            }
            formats.append(
                V4L2FormatDescription(
                    pixelFormat: FourCharacterCode(rawValue: description.pixelformat),
                    description: V4L2Capability.string(description.description),
                    isCompressed: description.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                    isEmulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
                )
            )
        }
        return formats
    }

    /// The frame sizes of a pixel format, or `nil` when the driver does not enumerate them.
    package func frameSizes(for pixelFormat: FourCharacterCode) throws(V4L2Error) -> V4L2FrameSizes? {
        var sizes: [V4L2Size] = []
        for index in 0..<Self.enumerationLimit {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = pixelFormat.rawValue
            do {
                try control(cv4l2_VIDIOC_ENUM_FRAMESIZES, "VIDIOC_ENUM_FRAMESIZES", &size)
            } catch  where error.code == .invalidArgument || error.code == .notSupported {
                break
            }
            switch size.type {
            case V4L2_FRMSIZE_TYPE_DISCRETE.rawValue:
                sizes.append(V4L2Size(width: size.discrete.width, height: size.discrete.height))
            case V4L2_FRMSIZE_TYPE_STEPWISE.rawValue, V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue:
                let range = size.stepwise
                let minimum = V4L2Size(width: range.min_width, height: range.min_height)
                let maximum = V4L2Size(width: range.max_width, height: range.max_height)
                let step = V4L2Size(width: range.step_width, height: range.step_height)
                let isContinuous =
                    size.type == V4L2_FRMSIZE_TYPE_CONTINUOUS.rawValue || (step.width, step.height) == (1, 1)
                return isContinuous
                    ? .continuous(minimum: minimum, maximum: maximum)
                    : .stepwise(minimum: minimum, maximum: maximum, step: step)
            default:
                continue
            }
        }
        return sizes.isEmpty ? nil : .discrete(sizes)
    }

    /// The frame intervals of a pixel format at a size, or `nil` when the driver does not enumerate them.
    package func frameIntervals(for pixelFormat: FourCharacterCode, size: V4L2Size) throws(V4L2Error)
        -> V4L2FrameIntervals?
    {
        var intervals: [V4L2Fraction] = []
        for index in 0..<Self.enumerationLimit {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = pixelFormat.rawValue
            interval.width = size.width
            interval.height = size.height
            do {
                try control(cv4l2_VIDIOC_ENUM_FRAMEINTERVALS, "VIDIOC_ENUM_FRAMEINTERVALS", &interval)
            } catch  where error.code == .invalidArgument || error.code == .notSupported {
                break
            }
            switch interval.type {
            case V4L2_FRMIVAL_TYPE_DISCRETE.rawValue:
                intervals.append(V4L2Fraction(interval.discrete))
            case V4L2_FRMIVAL_TYPE_STEPWISE.rawValue, V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue:
                let range = interval.stepwise
                let (minimum, maximum) = (V4L2Fraction(range.min), V4L2Fraction(range.max))
                return interval.type == V4L2_FRMIVAL_TYPE_CONTINUOUS.rawValue
                    ? .continuous(minimum: minimum, maximum: maximum)
                    : .stepwise(minimum: minimum, maximum: maximum, step: V4L2Fraction(range.step))
            default:
                continue
            }
        }
        return intervals.isEmpty ? nil : .discrete(intervals)
    }

    /// The format the capture node is set to (`VIDIOC_G_FMT`).
    package func format() throws(V4L2Error) -> V4L2PixelFormat {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try control(cv4l2_VIDIOC_G_FMT, "VIDIOC_G_FMT", &format)
        return V4L2PixelFormat(format.fmt.pix)
    }

    /// Asks for a pixel format and size (`VIDIOC_S_FMT`) and returns what the driver chose, which may differ.
    package func setFormat(_ pixelFormat: FourCharacterCode, size: V4L2Size) throws(V4L2Error) -> V4L2PixelFormat {
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = size.width
        format.fmt.pix.height = size.height
        format.fmt.pix.pixelformat = pixelFormat.rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        return V4L2PixelFormat(format.fmt.pix)
    }

    /// The frame interval the node streams at (`VIDIOC_G_PARM`), or `nil` when the driver does not report one.
    package func frameInterval() throws(V4L2Error) -> V4L2Fraction? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try control(cv4l2_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parameters)
        let interval = V4L2Fraction(parameters.parm.capture.timeperframe)
        return interval.numerator == 0 || interval.denominator == 0 ? nil : interval
    }

    /// Asks for a frame interval (`VIDIOC_S_PARM`) and returns what the driver chose, or `nil` when it cannot.
    package func setFrameInterval(_ interval: V4L2Fraction) throws(V4L2Error) -> V4L2Fraction? {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try control(cv4l2_VIDIOC_G_PARM, "VIDIOC_G_PARM", &parameters)
        guard parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
        parameters.parm.capture.timeperframe = interval.cValue
        try control(cv4l2_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parameters)
        let chosen = V4L2Fraction(parameters.parm.capture.timeperframe)
        return chosen.numerator == 0 || chosen.denominator == 0 ? nil : chosen
    }
}

extension V4L2PixelFormat {
    /// Reads the C structure.
    package init(_ format: v4l2_pix_format) {
        self.init(
            size: V4L2Size(width: format.width, height: format.height),
            pixelFormat: FourCharacterCode(rawValue: format.pixelformat),
            bytesPerLine: format.bytesperline,
            sizeImage: format.sizeimage,
            isFullRange: format.quantization == V4L2_QUANTIZATION_FULL_RANGE.rawValue
        )
    }
}
