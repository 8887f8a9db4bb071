import Foundation
import Viewfinder

/// A format as people write it on the command line, `WIDTHxHEIGHT@FPS/PIXELFORMAT`, each part optional:
/// `1280x720@30/nv12`, `640x480`, `@25`, `/yuyv`.
struct FormatSpecifier: Equatable {
    /// The frame size, if given.
    var dimensions: Dimensions?
    /// The frames per second, if given.
    var framesPerSecond: Double?
    /// The pixel format's code, if given.
    var fourCC: FourCharacterCode?

    /// What the `--format` option says about its value, for help texts.
    static let help = "WIDTHxHEIGHT@FPS/PIXELFORMAT, each part optional, such as 1280x720@30/nv12 or 640x480."

    /// Parses `text`; throws a ``UsageError`` that shows the expected shape.
    init(_ text: String, commandPath: String) throws {
        func fail(_ problem: String) -> UsageError {
            UsageError("--format \(text): \(problem); write it as \(Self.help)", commandPath: commandPath)
        }
        var rest = Substring(text)
        if let slash = rest.firstIndex(of: "/") {
            let name = String(rest[rest.index(after: slash)...])
            guard let code = Self.fourCC(named: name) else {
                throw fail("'\(name)' is not a pixel format (try \(Self.names.map(\.name).joined(separator: ", ")))")
            }
            fourCC = code
            rest = rest[..<slash]
        }
        if let at = rest.firstIndex(of: "@") {
            let rate = rest[rest.index(after: at)...]
            guard let value = Double(rate), value <= 1000, FrameRate(framesPerSecond: value) != nil else {
                throw fail("'\(rate)' is not a frame rate from 0.001 to 1000 frames per second")
            }
            framesPerSecond = value
            rest = rest[..<at]
        }
        if !rest.isEmpty {
            let sides = rest.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
                (1...65_536).contains(width), (1...65_536).contains(height)
            else {
                throw fail("'\(rest)' is not a size")
            }
            dimensions = Dimensions(width: width, height: height)
        }
        guard dimensions != nil || framesPerSecond != nil || fourCC != nil else { throw fail("it is empty") }
    }

    /// Whether `format` has every part this specifier gives.
    func matches(_ format: VideoFormat) -> Bool {
        if let dimensions, format.dimensions != dimensions { return false }
        if let framesPerSecond, abs(format.frameRate.framesPerSecond - framesPerSecond) > 0.01 { return false }
        if let fourCC, format.pixelFormat.fourCC != fourCC { return false }
        return true
    }

    /// The format among `formats` that has every given part; for parts not given, see ``preferred(among:)``.
    ///
    /// - Throws: ``CommandFailure`` naming what the device offers instead.
    func select(from formats: [VideoFormat], device: CaptureDevice) throws -> VideoFormat {
        if let best = Self.preferred(among: formats.filter(matches)) {
            return best
        }
        throw CommandFailure(
            "\(device) offers no format that is \(self)\(alternatives(in: formats))",
            hint: "Run 'viewfinder formats \(device.path)' for every format it offers.",
            exitStatus: ExitStatus.badValue)
    }

    /// The format closest to 640x480, then to 30 fps, then earliest in ``names``; `nil` when there is none.
    static func preferred(among formats: [VideoFormat]) -> VideoFormat? {
        func cost(_ format: VideoFormat) -> (Double, Double, Int) {
            let size = abs(Double(format.dimensions.area).squareRoot() - (640.0 * 480).squareRoot())
            let rate = abs(format.frameRate.framesPerSecond - 30)
            let order = names.firstIndex { $0.fourCC == format.pixelFormat.fourCC } ?? names.count
            return (size, rate, order)
        }
        return formats.min { cost($0) < cost($1) }
    }

    /// What the device offers near the request: at the requested size, or the sizes in the requested pixel format.
    private func alternatives(in formats: [VideoFormat]) -> String {
        if let dimensions {
            let atSize = formats.filter { $0.dimensions == dimensions }
            if !atSize.isEmpty {
                let rates = Set(atSize.map(\.frameRate)).sorted().map(\.description).joined(separator: ", ")
                let pixels = Self.uniqueNames(atSize).joined(separator: ", ")
                return "; at \(dimensions) it offers \(rates) fps in \(pixels)"
            }
        }
        let sizes = Set(formats.map(\.dimensions)).sorted().map(\.description)
        return sizes.isEmpty
            ? "; it offers no format Viewfinder reads" : "; its sizes are \(sizes.joined(separator: ", "))"
    }

    /// The names of the pixel formats among `formats`, in first-seen order.
    static func uniqueNames(_ formats: [VideoFormat]) -> [String] {
        var seen = Set<String>()
        return formats.map { name(of: $0.pixelFormat) }.filter { seen.insert($0).inserted }
    }

    /// A format written the way `--format` takes it, such as `640x480@25/yuyv`.
    static func describe(_ format: VideoFormat) -> String {
        "\(format.dimensions)@\(format.frameRate)/\(name(of: format.pixelFormat))"
    }

    /// The command-line name of a pixel format, such as `nv12`, or its FourCC in lower case.
    static func name(of pixelFormat: PixelFormat) -> String {
        names.first { $0.fourCC == pixelFormat.fourCC }?.name ?? pixelFormat.fourCC.description.lowercased()
    }

    /// The pixel formats' command-line names, in order of preference, with their codes.
    static let names: [(name: String, fourCC: FourCharacterCode)] = [
        ("nv12", "NV12"), ("yuyv", "YUYV"), ("i420", "YU12"), ("nv21", "NV21"), ("uyvy", "UYVY"), ("mjpeg", "JPEG"),
        ("rgb24", "RGB3"), ("bgr24", "BGR3"), ("bgra", "AR24"), ("rgba", "AB24"), ("argb", "BA24"), ("abgr", "RA24"),
        ("bgrx", "XR24"), ("rgbx", "XB24"), ("xrgb", "BX24"), ("xbgr", "RX24"), ("gray8", "GREY"),
    ]

    /// Other spellings people use for the same formats.
    private static let aliases: [String: FourCharacterCode] = [
        "yuy2": "YUYV", "yu12": "YU12", "yuv420": "YU12", "mjpg": "JPEG", "jpeg": "JPEG", "rgb": "RGB3",
        "bgr": "BGR3", "grey": "GREY", "gray": "GREY", "y8": "GREY",
    ]

    /// The code a command-line pixel-format name stands for: a name from ``names``, an alias, or a FourCC.
    static func fourCC(named name: String) -> FourCharacterCode? {
        let lowered = name.lowercased()
        if let entry = names.first(where: { $0.name == lowered }) { return entry.fourCC }
        if let code = aliases[lowered] { return code }
        let known = PixelFormat.allNamed.first { $0.fourCC.description.lowercased() == lowered }
        return known?.fourCC
    }
}

extension FormatSpecifier: CustomStringConvertible {
    /// The specifier as it was written, normalised, such as `640x480@25/yuyv`.
    var description: String {
        var text = dimensions?.description ?? ""
        if let framesPerSecond {
            text +=
                "@"
                + (framesPerSecond.rounded() == framesPerSecond ? String(Int(framesPerSecond)) : "\(framesPerSecond)")
        }
        if let fourCC {
            text += "/" + (Self.names.first { $0.fourCC == fourCC }?.name ?? fourCC.description)
        }
        return text
    }
}
