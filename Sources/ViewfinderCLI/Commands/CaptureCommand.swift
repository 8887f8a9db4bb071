import Foundation
import Viewfinder

/// `viewfinder capture DEVICE`: captures frames from a capture device and saves them as JPEG images.
enum CaptureCommand: Command {
    static let spec = CommandSpec(
        name: "capture",
        abstract: "Capture frames from a capture device, save them as JPEG images, and report the frame rate.",
        discussion: """
            Saves --frames frames as DIR/videoN-0001.jpg and so on, replacing files of the same name, then prints \
            the device's frame rate measured from the driver's timestamps and sequence numbers, and the frames \
            dropped: by the driver (gaps in its sequence numbers: a device hiccup, or no free buffer to fill), and \
            while saving (frames are never queued: one frame is saved at a time, and frames that arrive meanwhile \
            are dropped). Without --format the device's format closest to 640x480 at 30 fps is used. \
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
        let node = device.path.split(separator: "/").last.map(String.init) ?? "frame"

        // The saver is the context's processor: one frame in flight, so frames that arrive while it saves are
        // dropped by the source rather than queued.
        let saver = FrameSaver(count: count, name: node, directory: directory, jpeg: jpeg)
        let source = CameraSource(delegate: saver)
        let context = DataCaptureContext()
        context.addProcessor(saver)
        await context.setFrameSource(source)
        Interrupt.beginHandling()
        let format = try await source.startCapture(device: device, formatIfGiven: requested)
        if !json {
            Console.print("Capturing \(count) frames from \(device) at \(FormatSpecifier.describe(format))")
        }
        Task {
            await Interrupt.wait()
            saver.end(.interrupted)
        }
        let progress = await follow(saver, stallTimeout: stallTimeout, count: count, json: json)
        let drops = Drops(device: source.statistics, pipeline: source.frameSourceEngine.statistics)
        await source.stopCapture()
        await context.setFrameSource(nil)
        try report(progress, drops: drops, count: count, device: device, format: format, json: json, directory)
    }

    /// Shows progress until the saver ends: a bar on a terminal, a line for each saved file otherwise.
    private static func follow(_ saver: FrameSaver, stallTimeout: Duration, count: Int, json: Bool) async
        -> FrameSaver.Progress
    {
        let bar =
            !json && Console.isErrorTerminal
            ? ProgressBar(title: "capturing", total: Int64(count), unit: .items("frames")) : nil
        var shown = 0
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            saver.endIfStalled(after: stallTimeout)
            let progress = saver.progress
            if let bar {
                bar.update(Int64(progress.saved.count))
            } else if !json {
                for file in progress.saved[shown...] {
                    let size = ProgressBar.bytes(Int64(file.bytes))
                    Console.print("\(file.path)  \(file.width)x\(file.height)  \(size)  sequence \(file.sequence)")
                }
            }
            shown = progress.saved.count
            if progress.ending != nil {
                bar?.finish()
                return progress
            }
        }
    }

    /// Frames that did not reach the saver, by where they were lost.
    private struct Drops: Encodable {
        /// Frames the driver skipped (gaps in its sequence numbers) or marked corrupted.
        var byDriver: Int
        /// Frames given back while the saver was busy: to the driver while every buffer was held, or from the
        /// source's queue.
        var whileSaving: Int

        init(device: CameraSourceStatistics, pipeline: FrameSourceStatistics) {
            byDriver = device.droppedByDriver + device.corrupted
            whileSaving = device.droppedWhileBuffersHeld + pipeline.dropped
        }
    }

    /// Prints what was saved and measured, and fails when the capture ended early.
    private static func report(
        _ progress: FrameSaver.Progress, drops: Drops, count: Int, device: CaptureDevice, format: VideoFormat,
        json: Bool, _ directory: OutputDirectory
    ) throws {
        let saved = progress.saved
        let measurement = progress.measurement
        if json {
            try Console.printJSON(
                Report(
                    device: DeviceRecord(device), format: FormatRecord(format), directory: directory.path,
                    files: saved, measuredFramesPerSecond: measurement.framesPerSecond, seconds: measurement.seconds,
                    dropped: drops))
        } else if !saved.isEmpty {
            let rate =
                measurement.framesPerSecond.map { String(format: "%.2f fps measured", $0) }
                ?? "too few frames to measure"
            var line = "Saved \(saved.count) frames to \(directory.path): \(rate)"
            line += String(format: " over %.2f s", measurement.seconds) + " (\(format.frameRate) wanted), "
            line += "dropped \(drops.byDriver) by the driver and \(drops.whileSaving) while saving"
            Console.print(line)
        }
        guard saved.count < count else { return }
        switch progress.ending {
        case .interrupted:
            throw CommandFailure(
                "interrupted after saving \(saved.count) of \(count) frames", exitStatus: ExitStatus.interrupted)
        case .stalled:
            let what = measurement.seen == 0 ? "no frames arrived" : "frames stopped arriving"
            throw CommandFailure(
                "\(what) from \(device) (saved \(saved.count) of \(count))",
                hint: "The device may have been unplugged or stopped streaming; check it and try again, "
                    + "or allow longer with --timeout.",
                exitStatus: ExitStatus.timeout)
        case .failed(let error):
            throw CommandFailure(
                "capture from \(device) stopped after \(saved.count) of \(count) frames: \(error.message)",
                hint: error.code == .deviceRemoved ? "Check the device's cable and try again." : nil,
                exitStatus: ExitStatus.of(error))
        case .saveFailed(let failure):
            throw failure
        case .finished, nil:
            break
        }
    }

    private struct Report: Encodable {
        var device: DeviceRecord
        var format: FormatRecord
        var directory: String
        var files: [FrameSaver.SavedFrame]
        var measuredFramesPerSecond: Double?
        var seconds: Double
        var dropped: Drops
    }
}
