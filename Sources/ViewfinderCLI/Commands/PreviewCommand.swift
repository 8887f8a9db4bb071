import Viewfinder
import ViewfinderHTTP

/// `viewfinder preview DEVICE`: shows a capture device's live frames in a browser.
enum PreviewCommand: Command {
    static let spec = CommandSpec(
        name: "preview",
        abstract: "Show a capture device's or a network camera's live frames in a browser, with the frame rate.",
        discussion: """
            Serves a page that shows the live frames as Motion JPEG, with the source's frame rate and frame count \
            and the frames the page was shown. Other addresses: /stream.mjpeg (the stream alone, for players such \
            as ffplay or VLC), /snapshot.jpg (the newest frame) and /stats (figures as JSON). A slow browser gets \
            fewer frames rather than a delay. It listens on loopback only, unless --bind says otherwise, on a free \
            port unless --port gives one, and prints the address to open, which holds a random token: the page \
            gets it as a cookie, and the other addresses need it (add ?token=... for a player). Requests must name \
            this machine (--allow-host adds names). Press Ctrl-C to stop. With \
            --test-pattern it shows moving colour bars instead of a device, to try it without a camera. With \
            'camera' instead of DEVICE it shows a network camera's live view, found as 'viewfinder discover' finds \
            it (the default gateway, unless --interface or --host says otherwise), at up to 30 fps.
            """,
        options: [
            .value("format", "FORMAT", help: FormatSpecifier.help),
            .value("quality", "1-100", help: "The JPEG quality of the frames.", default: "80"),
            .flag("test-pattern", help: "Show a moving test pattern instead of a device."),
        ] + HTTPServer.Configuration.options(maximumConnections: 8) + CameraTarget.options,
        arguments: [
            ArgumentSpec(
                name: "DEVICE",
                help: "A capture device, as for 'formats', or 'camera' for a network camera (not with --test-pattern).",
                isOptional: true)
        ],
        examples: [
            Example(commandLine: "preview /dev/video0", comment: "Serves the preview on a free port of 127.0.0.1."),
            Example(
                commandLine: "preview 0 --format 1280x720@30/yuyv --port 8080",
                comment: "A 1280x720 preview at http://127.0.0.1:8080/."),
            Example(
                commandLine: "preview --test-pattern --format 640x360@30",
                comment: "Moving colour bars, to try the preview without a camera."),
            Example(
                commandLine: "preview camera --host 192.168.1.1",
                comment: "The live view of the network camera at 192.168.1.1."),
        ]
    )

    private enum Ending: Sendable {
        case interrupted
        case failed(String)
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let commandPath = arguments.commandPath
        var configuration = PreviewServer.Configuration()
        configuration.http = try HTTPServer.Configuration(arguments, maximumConnections: 8, in: 1...64)
        let quality = try arguments.integer("quality", default: 80, in: 1...100)
        let specifier = try arguments.value("format").map { try FormatSpecifier($0, commandPath: commandPath) }

        let (endings, ending) = AsyncStream.makeStream(of: Ending.self, bufferingPolicy: .bufferingNewest(1))
        let feed = PreviewFeed(quality: quality) { ending.yield(.failed($0)) }
        let source = try makeSource(arguments, specifier: specifier, feed: feed)
        let format = try await source.start()
        let server: PreviewServer
        do {
            server = try PreviewServer(feed: feed, title: source.title, format: format, configuration: configuration)
            try server.start()
        } catch {
            await source.stop()
            throw error
        }
        Interrupt.beginHandling()
        Console.print("Previewing \(source.title) at \(format)")
        Console.print("Open \(server.url) in a browser; Ctrl-C stops.")
        Console.print(
            "Players such as ffplay take \(server.http.url(for: "/stream.mjpeg")); /snapshot.jpg and /stats take the "
                + "token too.")
        server.http.printReachability()
        Task {
            await Interrupt.wait()
            ending.yield(.interrupted)
        }
        var end = Ending.interrupted
        for await first in endings {
            end = first
            break
        }
        server.stop()
        await source.stop()
        let served = server.served
        let streams = served.streams == 1 ? "1 stream" : "\(served.streams) streams"
        Console.print(
            "Stopped after \(feed.statistics.frames) frames from the source; sent \(served.frames) in \(streams).")
        if case .failed(let reason) = end {
            throw CommandFailure(
                reason, hint: "Check the device or camera and start the preview again.",
                exitStatus: ExitStatus.unavailable)
        }
    }

    /// The source the command line asks for: a device, or the test pattern.
    private static func makeSource(_ arguments: ParsedArguments, specifier: FormatSpecifier?, feed: PreviewFeed)
        throws -> any PreviewSource
    {
        let named = arguments.positionals.first
        if named == "camera" {
            guard specifier == nil, !arguments.flag("test-pattern") else {
                throw UsageError(
                    "a network camera's preview takes neither --format nor --test-pattern",
                    commandPath: arguments.commandPath)
            }
            return CameraPreviewSource(target: try CameraTarget(arguments), feed: feed)
        }
        let targetOptions = ["gateway", "interface", "host", "family"]
        if let option = targetOptions.first(where: { arguments.flag($0) || arguments.value($0) != nil }) {
            throw UsageError(
                "--\(option) is for a network camera: 'preview camera --\(option) ...'",
                commandPath: arguments.commandPath)
        }
        if arguments.flag("test-pattern") {
            guard named == nil else {
                throw UsageError("give DEVICE or --test-pattern, not both", commandPath: arguments.commandPath)
            }
            guard specifier?.fourCC == nil || specifier?.fourCC == "NV12" else {
                throw UsageError("the test pattern is NV12 only", commandPath: arguments.commandPath)
            }
            let rate = specifier?.framesPerSecond.flatMap { FrameRate(framesPerSecond: $0) }
            return try TestPatternSource(
                dimensions: specifier?.dimensions ?? Dimensions(width: 640, height: 480),
                frameRate: rate ?? 30,
                feed: feed)
        }
        guard let named else {
            throw UsageError("preview needs DEVICE, or --test-pattern", commandPath: arguments.commandPath)
        }
        let device = try DeviceLookup.device(named: named)
        let format = try specifier?.select(from: CameraSource.supportedFormats(for: device), device: device)
        return CaptureDevicePreviewSource(device: device, format: format, feed: feed)
    }
}
