import Viewfinder

/// `viewfinder formats DEVICE`: lists the formats a capture device offers.
enum FormatsCommand: Command {
    static let spec = CommandSpec(
        name: "formats",
        abstract: "List the sizes, frame rates and pixel formats a capture device offers.",
        discussion: """
            Lists every format Viewfinder reads (NV12, YUYV, I420, NV21, UYVY, MJPEG, RGB and grey formats), \
            ordered by size, one line per size and pixel format with its frame rates. Any of them can be given to \
            'capture' and 'preview' as --format WIDTHxHEIGHT@FPS/PIXELFORMAT.
            """,
        options: [.json],
        arguments: [DeviceLookup.argument],
        examples: [
            Example(commandLine: "formats /dev/video0", comment: "A table of the formats of /dev/video0."),
            Example(commandLine: "formats 0 --json", comment: "Every format of the first device, as JSON."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let device = try DeviceLookup.device(named: try arguments.positional(0, named: "DEVICE"))
        let formats = CameraSource.supportedFormats(for: device)
        guard !formats.isEmpty else {
            throw CommandFailure(
                "could not read any format Viewfinder reads from \(device)",
                hint: "The device may have gone away or offer only formats Viewfinder does not read; try again.",
                exitStatus: ExitStatus.unavailable)
        }
        if arguments.flag("json") {
            try Console.printJSON(Listing(device: DeviceRecord(device), formats: formats.map(FormatRecord.init)))
            return
        }
        Console.print("\(device), \(device.driver) on \(device.bus)")
        var groups: [(key: String, size: Dimensions, pixelFormat: PixelFormat, rates: [FrameRate])] = []
        for format in formats {
            let key = "\(format.dimensions)/\(format.pixelFormat.fourCC)"
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].rates.append(format.frameRate)
            } else {
                groups.append((key, format.dimensions, format.pixelFormat, [format.frameRate]))
            }
        }
        let rows = groups.map { group in
            [
                group.size.description, FormatSpecifier.name(of: group.pixelFormat),
                group.rates.sorted().map(\.description).joined(separator: ", "),
            ]
        }
        Console.printTable(header: ["SIZE", "PIXEL FORMAT", "FRAME RATES (FPS)"], rows: rows)
        let example = FormatSpecifier.preferred(among: formats) ?? formats[0]
        Console.print(
            "\(formats.count) formats; capture one with: viewfinder capture \(device.path) --format "
                + FormatSpecifier.describe(example))
    }

    private struct Listing: Encodable {
        var device: DeviceRecord
        var formats: [FormatRecord]
    }
}
