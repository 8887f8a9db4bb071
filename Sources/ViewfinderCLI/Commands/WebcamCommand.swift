import Foundation
import Viewfinder
import ViewfinderSimulator

/// `viewfinder webcam OUTPUT`: a camera's live view, or a capture device's frames, as a webcam for other programs.
enum WebcamCommand: Command {
    static let spec = CommandSpec(
        name: "webcam",
        abstract: "Show a camera's live view on a video output device, such as a v4l2loopback webcam.",
        discussion: """
            Writes frames to OUTPUT, a V4L2 video output device (a v4l2loopback device, made with 'modprobe \
            v4l2loopback exclusive_caps=1 card_label=Viewfinder', is a webcam that video-call programs and browsers \
            read), at a steady frame rate and size: the camera's newest frame at each tick, scaled to fit with black \
            bars, the last one again when the camera is slower, black before the first. A slow reader never holds \
            up the camera. The frames come from a network camera's live view (found as 'viewfinder discover' finds \
            it, with --host, --gateway, --interface or --camera), from a capture device with --device, or from the \
            built-in simulated camera when neither is given. It runs until Ctrl-C or for --duration seconds, says \
            how it goes every five seconds, and ends with the frames written (as JSON with --json).
            """,
        options: [
            .value(
                "format", "WIDTHxHEIGHT@FPS", help: "The output's size and frame rate, such as 1280x720@30.",
                default: "1280x720@30"),
            .value("pixel-format", "yuyv|nv12|i420", help: "The pixel format written.", default: "yuyv"),
            .value("device", "DEVICE", help: "Take frames from this capture device instead of a network camera."),
            .value(
                "jpeg-decoding", "auto|transform|packing",
                help: "How a network camera's JPEG frames are fitted: enlarged in the JPEG transform, scaled while "
                    + "packed (YUYV), or auto, the one the first frames show to cost less CPU.",
                default: "auto"),
            .value("duration", "SECONDS", help: "Stop after this many seconds."),
            .flag("json", help: "Print the summary as JSON."),
        ] + CameraTarget.options,
        arguments: [ArgumentSpec(name: "OUTPUT", help: "The video output device, such as /dev/video10.")],
        examples: [
            Example(commandLine: "webcam /dev/video10", comment: "The simulated camera, to try the loopback device."),
            Example(
                commandLine: "webcam /dev/video10 --host 192.168.1.1 --family nikon --format 1920x1080@30",
                comment: "A Nikon's live view as a 1080p webcam."),
            Example(
                commandLine: "webcam /dev/video10 --device /dev/video0 --format 640x480@15",
                comment: "A capture device's frames, at 15 frames a second."),
        ]
    )

    /// What the command prints at the end.
    struct Summary: Encodable {
        var output: String
        var width: Int
        var height: Int
        var pixelFormat: String
        var framesPerSecond: Int
        var seconds: Double
        var framesWritten: Int
        var framesRepeated: Int
        var writesSkipped: Int
        var framesFromSource: Int
        var framesDropped: Int
        var writtenPerSecond: Double
        /// How the camera's JPEG frames were decoded, the way that cost less: `inTheTransform` or `whilePacking`.
        var jpegDecoding: String?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let commandPath = arguments.commandPath
        let specifier = try FormatSpecifier(arguments.value("format") ?? "1280x720@30", commandPath: commandPath)
        guard let size = specifier.dimensions, let rate = specifier.framesPerSecond, rate >= 1, rate <= 240,
            rate == rate.rounded(), specifier.fourCC == nil
        else {
            throw UsageError(
                "--format takes WIDTHxHEIGHT@FPS with a whole frame rate from 1 to 240, such as 1280x720@30",
                commandPath: commandPath)
        }
        let formats: [String: PixelFormat] = ["yuyv": .yuyv, "nv12": .nv12VideoRange, "i420": .i420]
        let name = (arguments.value("pixel-format") ?? "yuyv").lowercased()
        guard let pixelFormat = formats[name] else {
            throw UsageError("--pixel-format takes yuyv, nv12 or i420, not '\(name)'", commandPath: commandPath)
        }
        let duration = try arguments.value("duration").map { text -> Double in
            guard let seconds = Double(text), seconds > 0 else {
                throw UsageError("--duration takes a number of seconds, not '\(text)'", commandPath: commandPath)
            }
            return seconds
        }
        let decodings: [String: VideoOutput.JPEGDecoding?] = [
            "auto": nil, "transform": .inTheTransform, "packing": .whilePacking,
        ]
        let decodingName = (arguments.value("jpeg-decoding") ?? "auto").lowercased()
        guard let jpegDecoding = decodings[decodingName] else {
            throw UsageError(
                "--jpeg-decoding takes auto, transform or packing, not '\(decodingName)'", commandPath: commandPath)
        }
        let named = arguments.positionals[0]
        let path = Int(named).map { "/dev/video\($0)" } ?? named
        let output: VideoOutput
        do {
            output = try VideoOutput(
                path: path,
                configuration: .init(
                    size: size, framesPerSecond: Int(rate), pixelFormat: pixelFormat, jpegDecoding: jpegDecoding))
        } catch let error as ViewfinderError {
            throw CommandFailure(error.message, exitStatus: ExitStatus.of(error))
        }
        let source = try await WebcamSource.start(arguments, rate: Int(rate), output: output)
        do {
            try output.start()
        } catch {
            await source.stop()
            throw error
        }
        let json = arguments.flag("json")
        if !json {
            Console.print(
                "Showing \(source.title) on \(path) at \(output.size.width)x\(output.size.height)@\(Int(rate)) "
                    + "\(pixelFormat.name); Ctrl-C stops.")
        }
        Interrupt.beginHandling()
        let started = ContinuousClock.now
        let progress = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                guard !Task.isCancelled, !json else { continue }
                let figures = output.statistics
                Console.printToError(
                    "webcam: \(figures.framesWritten) frames written (\(figures.framesRepeated) repeats), "
                        + "\(figures.framesShown) from the camera")
            }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await Interrupt.wait() }
            if let duration {
                group.addTask { try? await Task.sleep(for: .milliseconds(Int(duration * 1000))) }
            }
            await group.next()
            group.cancelAll()
        }
        progress.cancel()
        let seconds = started.duration(to: .now).inSeconds
        await offThePool { output.stop() }
        await source.stop()
        let figures = output.statistics
        let summary = Summary(
            output: path, width: output.size.width, height: output.size.height, pixelFormat: pixelFormat.name,
            framesPerSecond: Int(rate), seconds: seconds, framesWritten: figures.framesWritten,
            framesRepeated: figures.framesRepeated, writesSkipped: figures.writesSkipped,
            framesFromSource: figures.framesShown, framesDropped: figures.framesDropped,
            writtenPerSecond: Double(figures.framesWritten) / max(seconds, 0.001),
            jpegDecoding: figures.jpegDecoding?.rawValue)
        if json {
            try Console.printJSON(summary)
        } else {
            Console.print(
                "Wrote \(summary.framesWritten) frames in \(seconds.formatted(decimals: 1)) s "
                    + "(\(summary.writtenPerSecond.formatted(decimals: 1)) a second), \(summary.framesRepeated) "
                    + "repeated; \(summary.framesFromSource) frames from \(source.title).")
        }
        if let failure = figures.failure {
            throw CommandFailure("\(path) stopped taking frames: \(failure)", exitStatus: ExitStatus.ioError)
        }
    }
}
