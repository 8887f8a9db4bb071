import Foundation
import Viewfinder

/// `viewfinder capture DEVICE`: captures frames from a capture device and saves them as JPEG images.
enum CaptureCommand: Command {
    static let spec = CommandSpec(
        name: "capture",
        abstract: "Capture frames from a capture device, save them as JPEG images, and report the frame rate.",
        discussion: """
            Saves --frames frames as DIR/videoN-0001.jpg and so on, replacing files of the same name, then prints \
            the device's frame rate measured from the driver's timestamps and sequence numbers, and how many \
            frames were dropped: gaps in the sequence, frames the driver skipped or could not hand over while the \
            tool held every buffer. Frames that arrive while the tool is still saving are skipped rather than \
            queued, and counted. Without --format the device's format closest to 640x480 at 30 fps is used. \
            Progress is drawn on a terminal; otherwise each saved file is printed on its own line.
            """,
        options: [
            .value("format", "FORMAT", help: FormatSpecifier.help),
            .value("frames", "N", short: "n", help: "How many frames to save.", default: "10"),
            .value("out", "DIR", short: "o", help: "The directory to save into; created when missing.", default: "."),
            .value("quality", "1-100", help: "The JPEG quality of the saved images.", default: "90"),
            .value("timeout", "SECONDS", help: "How long to wait for a frame before giving up.", default: "5"),
            .json,
        ],
        arguments: [DeviceLookup.argument],
        examples: [
            Example(commandLine: "capture /dev/video0", comment: "Saves ten frames into the current directory."),
            Example(
                commandLine: "capture 0 --format 1280x720@30/nv12 --frames 100 --out shots",
                comment: "Saves 100 frames at 1280x720 into ./shots and prints the measured frame rate."),
            Example(commandLine: "capture vivid --frames 1 --json", comment: "One snapshot, with a JSON summary."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let count = try arguments.integer("frames", default: 10, in: 1...100_000)
        let jpeg = FrameJPEG(quality: try arguments.integer("quality", default: 90, in: 1...100))
        let stallTimeout = Duration.seconds(try arguments.seconds("timeout", default: 5, in: 0.5...600))
        let json = arguments.flag("json")
        let specifier = try arguments.value("format").map {
            try FormatSpecifier($0, commandPath: arguments.commandPath)
        }
        let device = try DeviceLookup.device(named: try arguments.positional(0, named: "DEVICE"))
        let requested = try specifier?.select(from: CameraSource.supportedFormats(for: device), device: device)
        let directory = try OutputDirectory(arguments.value("out") ?? ".")

        let recorder = CaptureRecorder()
        let source = CameraSource(delegate: recorder)
        source.setFrameHandler { recorder.receive($0) }
        let format: VideoFormat
        if let requested {
            format = try await source.startCapture(device: device, format: requested)
        } else {
            format = try await source.startCapture(device: device)
        }
        if !json {
            Console.print("Capturing \(count) frames from \(device) at \(FormatSpecifier.describe(format))")
        }
        Task {
            await Interrupt.wait()
            recorder.end(.interrupted)
        }
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                recorder.endIfStalled(after: stallTimeout)
            }
        }
        let saved: [SavedFrame]
        do {
            saved = try await save(recorder.frames, count: count, from: device, as: jpeg, into: directory, json: json)
        } catch {
            watchdog.cancel()
            await source.stopCapture()
            throw error
        }
        watchdog.cancel()
        await source.stopCapture()
        source.setFrameHandler(nil)
        try report(saved, count: count, recorder: recorder, device: device, format: format, json: json, directory)
    }

    /// A frame written to disk.
    private struct SavedFrame: Encodable {
        var path: String
        var sequence: UInt64
        var bytes: Int
    }

    /// Encodes and writes frames until `count` are saved or the frames end; shows progress meanwhile.
    private static func save(
        _ frames: AsyncStream<Frame>, count: Int, from device: CaptureDevice, as jpeg: FrameJPEG,
        into directory: OutputDirectory, json: Bool
    ) async throws -> [SavedFrame] {
        let node = device.path.split(separator: "/").last.map(String.init) ?? "frame"
        let progress =
            !json && Console.isErrorTerminal
            ? ProgressBar(title: "capturing", total: Int64(count), unit: .items("frames")) : nil
        var saved: [SavedFrame] = []
        for await frame in frames {
            let bytes = try jpeg.encode(frame.pixelBuffer)
            let name = "\(node)-\(String(format: "%04d", saved.count + 1)).jpg"
            let path = try directory.write(bytes, to: name)
            saved.append(SavedFrame(path: path, sequence: frame.sequenceNumber, bytes: bytes.count))
            if let progress {
                progress.update(Int64(saved.count))
            } else if !json {
                let size = "\(frame.pixelBuffer.width)x\(frame.pixelBuffer.height)"
                Console.print(
                    "\(path)  \(size)  \(ProgressBar.bytes(Int64(bytes.count)))  sequence \(frame.sequenceNumber)")
            }
            if saved.count == count { break }
        }
        progress?.finish()
        return saved
    }

    /// Prints what was saved and measured, and fails when the capture ended early.
    private static func report(
        _ saved: [SavedFrame], count: Int, recorder: CaptureRecorder, device: CaptureDevice, format: VideoFormat,
        json: Bool, _ directory: OutputDirectory
    ) throws {
        let summary = recorder.summary
        if json {
            try Console.printJSON(
                Report(
                    device: DeviceRecord(device), format: FormatRecord(format), directory: directory.path,
                    files: saved, framesDelivered: summary.delivered, measuredFramesPerSecond: summary.framesPerSecond,
                    dropped: summary.dropped, skipped: summary.skipped, seconds: summary.seconds))
        } else if !saved.isEmpty {
            let rate =
                summary.framesPerSecond.map { String(format: "%.2f fps measured", $0) } ?? "too few frames to measure"
            var line = "Saved \(saved.count) frames to \(directory.path): \(rate)"
            line += String(format: " over %.2f s", summary.seconds) + " (\(format.frameRate) wanted), "
            line += "\(summary.dropped) dropped"
            if summary.skipped > 0 { line += ", \(summary.skipped) skipped while saving" }
            Console.print(line)
        }
        switch recorder.ending {
        case .interrupted where saved.count < count:
            throw CommandFailure(
                "interrupted after saving \(saved.count) of \(count) frames", exitStatus: ExitStatus.interrupted)
        case .stalled where saved.count < count:
            let what = summary.delivered == 0 ? "no frames arrived" : "frames stopped arriving"
            throw CommandFailure(
                "\(what) from \(device) (saved \(saved.count) of \(count))",
                hint: "The device may have been unplugged or stopped streaming; check it and try again, "
                    + "or allow longer with --timeout.",
                exitStatus: ExitStatus.timeout)
        case .failed(let error) where saved.count < count:
            throw CommandFailure(
                "capture from \(device) stopped after \(saved.count) of \(count) frames: \(error.message)",
                hint: error.code == .deviceRemoved ? "Check the device's cable and try again." : nil,
                exitStatus: ExitStatus.of(error))
        default:
            break
        }
    }

    private struct Report: Encodable {
        var device: DeviceRecord
        var format: FormatRecord
        var directory: String
        var files: [SavedFrame]
        var framesDelivered: Int
        var measuredFramesPerSecond: Double?
        var dropped: Int
        var skipped: Int
        var seconds: Double
    }
}
