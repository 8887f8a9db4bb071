import ViewfinderCore

/// How a capture device is attached, the Linux counterpart of a camera's device type.
public enum CaptureDeviceType: Hashable, Sendable {
    /// A USB camera (UVC webcams and most external cameras).
    case usb
    /// A PCI or PCIe capture card.
    case pci
    /// A camera built into a system on chip.
    case platform
    /// A software device, such as the kernel's `vivid` test driver or a loopback device.
    case virtual
}

extension CaptureDevice {
    /// How the device is attached, judged from its bus and driver.
    public var deviceType: CaptureDeviceType {
        if ["vivid", "v4l2 loopback", "v4l2loopback", "vim2m"].contains(driver) { return .virtual }
        let bus = bus.lowercased()
        if bus.hasPrefix("usb") { return .usb }
        if bus.hasPrefix("pci") { return .pci }
        return .platform
    }

    /// Where the device faces: what ``CameraSource/assignPosition(_:to:)`` or ``CameraSource/positionsVariable``
    /// says, else ``reportedPosition``.
    public var position: CaptureDevicePosition {
        CaptureDevicePositions.position(of: self) ?? reportedPosition
    }

    /// The first of `devices` at `position` (any, for `.unspecified`) and of `type` (any, for `nil`).
    package static func first(
        at position: CaptureDevicePosition, type: CaptureDeviceType?, among devices: [CaptureDevice]
    ) -> CaptureDevice? {
        devices.first { device in
            (type == nil || device.deviceType == type) && (position == .unspecified || device.position == position)
        }
    }
}

extension CameraSource {
    /// Every capture device: the `/dev/videoN` nodes that capture video, in node order.
    public static var captureDevices: [CaptureDevice] {
        CaptureDevice.all()
    }

    /// The first capture device at a position, or `nil` if there is none; `.unspecified` matches any device.
    ///
    /// Positions come from ``assignPosition(_:to:)``, ``positionsVariable`` or the driver; see
    /// ``assignPosition(_:to:)``.
    public static func captureDevice(for position: CaptureDevicePosition) -> CaptureDevice? {
        CaptureDevice.first(at: position, type: nil, among: captureDevices)
    }

    /// The first capture device of a type at a position, or `nil` if there is none.
    public static func captureDevice(for position: CaptureDevicePosition, type: CaptureDeviceType) -> CaptureDevice? {
        CaptureDevice.first(at: position, type: type, among: captureDevices)
    }

    /// The formats a device offers, ordered by increasing size, then frame rate.
    ///
    /// Every pixel format Viewfinder can describe, at every frame size (discrete sizes as listed; for stepwise and
    /// continuous ranges the common sizes inside the range plus its ends) and every frame rate (likewise). Returns an
    /// empty list when the device cannot be opened.
    public static func supportedFormats(for device: CaptureDevice) -> [VideoFormat] {
        guard let opened = try? V4L2Device(path: device.path) else { return [] }
        return (try? supportedFormats(of: opened)) ?? []
    }

    /// The formats an open device offers, ordered by increasing size, then frame rate, then the driver's order.
    package static func supportedFormats(of device: V4L2Device) throws(V4L2Error) -> [VideoFormat] {
        var formats: [VideoFormat] = []
        var seen = Set<VideoFormat>()
        for description in try device.formats() {
            guard let pixelFormat = PixelFormat(v4l2: description.pixelFormat) else { continue }
            for size in try sizes(of: description.pixelFormat, on: device) {
                let dimensions = Dimensions(width: Int(size.width), height: Int(size.height))
                for rate in try rates(of: description.pixelFormat, size: size, on: device) {
                    let format = VideoFormat(dimensions: dimensions, frameRate: rate, pixelFormat: pixelFormat)
                    if seen.insert(format).inserted { formats.append(format) }
                }
            }
        }
        let order = Dictionary(formats.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return formats.sorted {
            if $0.dimensions != $1.dimensions { return $0.dimensions < $1.dimensions }
            if $0.frameRate != $1.frameRate { return $0.frameRate < $1.frameRate }
            return order[$0]! < order[$1]!
        }
    }

    /// The format to use when the caller names none: closest to 640x480, then to 30 fps, then the pixel format
    /// Viewfinder handles with the least work (NV12 first, compressed formats last).
    package static func preferredFormat(among formats: [VideoFormat]) throws(ViewfinderError) -> VideoFormat {
        func cost(_ format: VideoFormat) -> (Double, Double, Int) {
            let area = Double(max(format.dimensions.area, 1))
            let sizeCost = abs((area / (640.0 * 480.0)).squareRoot() - 1) + (area < 640 * 480 ? 0.01 : 0)
            let rateCost = abs(format.frameRate.framesPerSecond - 30)
            return (sizeCost, rateCost, conversionCost(format.pixelFormat))
        }
        guard let best = formats.min(by: { cost($0) < cost($1) }) else {
            throw ViewfinderError(.noValidFormat, "the device offers no format Viewfinder can read")
        }
        return best
    }

    private static func conversionCost(_ pixelFormat: PixelFormat) -> Int {
        switch pixelFormat.fourCC {
        case PixelFormat.nv12FullRange.fourCC: 0
        case PixelFormat.yuyv.fourCC, PixelFormat.uyvy.fourCC, PixelFormat.i420.fourCC, PixelFormat.nv21.fourCC: 1
        case _ where pixelFormat.isCompressed: 3
        default: 2
        }
    }

    /// The sizes to offer for a pixel format.
    private static func sizes(of code: FourCharacterCode, on device: V4L2Device) throws(V4L2Error) -> [V4L2Size] {
        switch try device.frameSizes(for: code) {
        case .discrete(let sizes):
            return sizes
        case .stepwise(let minimum, let maximum, let step):
            return sizes(from: minimum, to: maximum, step: step)
        case .continuous(let minimum, let maximum):
            return sizes(from: minimum, to: maximum, step: V4L2Size(width: 1, height: 1))
        case nil:
            return [try device.format().size]
        }
    }

    private static let commonSizes: [V4L2Size] = [
        (160, 120), (320, 240), (640, 360), (640, 480), (800, 600), (1280, 720), (1920, 1080), (3840, 2160),
    ].map { V4L2Size(width: $0.0, height: $0.1) }

    /// The common sizes inside a range (on its step grid), plus the range's ends.
    package static func sizes(from minimum: V4L2Size, to maximum: V4L2Size, step: V4L2Size) -> [V4L2Size] {
        func fits(_ size: V4L2Size) -> Bool {
            (minimum.width...maximum.width).contains(size.width)
                && (minimum.height...maximum.height).contains(size.height)
                && (size.width - minimum.width) % max(step.width, 1) == 0
                && (size.height - minimum.height) % max(step.height, 1) == 0
        }
        let candidates = [minimum] + commonSizes.filter(fits) + [maximum]
        return Array(Set(candidates)).sorted()
    }

    /// The frame rates to offer for a pixel format and size.
    private static func rates(of code: FourCharacterCode, size: V4L2Size, on device: V4L2Device) throws(V4L2Error)
        -> [FrameRate]
    {
        switch try device.frameIntervals(for: code, size: size) {
        case .discrete(let intervals):
            return intervals.compactMap(frameRate)
        case .stepwise(let minimum, let maximum, _), .continuous(let minimum, let maximum):
            return rates(fastest: minimum, slowest: maximum)
        case nil:
            return [(try device.frameInterval()).flatMap(frameRate) ?? 30]
        }
    }

    /// The common frame rates between two intervals, plus the ends.
    package static func rates(fastest: V4L2Fraction, slowest: V4L2Fraction) -> [FrameRate] {
        let ends = [frameRate(fastest), frameRate(slowest)].compactMap { $0 }
        guard ends.count == 2 else { return ends }
        let range = ends[1]...ends[0]
        let common: [FrameRate] = [5, 10, 15, 20, 24, 25, 30, 50, 60].filter(range.contains)
        return Array(Set(ends + common)).sorted()
    }

    private static func frameRate(_ interval: V4L2Fraction) -> FrameRate? {
        FrameRate(frames: interval.denominator, seconds: interval.numerator)
    }
}
