import Foundation
import Viewfinder
import ViewfinderSystem

/// `viewfinder camera liveview`: saves live view frames as JPEG files and reports the frame rate achieved.
enum CameraLiveViewCommand: Command {
    static let spec = CommandSpec(
        name: "liveview",
        abstract: "Save the camera's live view frames as JPEG files and print the frame rate achieved.",
        discussion: """
            Saves --frames frames as DIR/liveview-0001.jpg and so on, replacing files of the same name, exactly as \
            the camera sent them. The next frame is asked for only once the previous one is saved, so a slow disk \
            means fewer frames from the camera rather than frames piling up. Prints the frame rate achieved, from \
            the frames' arrival times. Progress is drawn on a terminal; otherwise each saved file is printed on its \
            own line.
            """,
        options: CameraTarget.options + [
            .value("frames", "N", short: "n", help: "How many frames to save.", default: "30"),
            .value("out", "DIR", short: "o", help: "The directory to save into; created when missing.", default: "."),
            .value(
                "max-fps", "RATE",
                help: "The most frames to fetch per second; 0 fetches as fast as frames are saved. A camera that is "
                    + "asked more often than it makes frames sends the same frame again.", default: "30"),
            .json,
        ],
        examples: [
            Example(commandLine: "camera liveview", comment: "Saves 30 live view frames into the current directory."),
            Example(
                commandLine: "camera liveview --frames 100 --out frames --host 127.0.0.1:15740",
                comment: "Saves 100 frames of the simulated camera ('simulate --identity nikon') into ./frames."),
        ]
    )

    /// What the live view subscriber passes to the command's task.
    private enum Event: Sendable {
        case frame(LiveViewFrame, Subscribers.ReadyHandler)
        case ended(Subscribers.Completion<LiveViewTerminationReason>)
        case interrupted
    }

    private struct SavedFrame: Encodable {
        var path: String
        var sequence: UInt64
        var width: Int
        var height: Int
        var bytes: Int
    }

    private struct Report: Encodable {
        var files: [SavedFrame]
        var seconds: Double
        var framesPerSecond: Double?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let count = try arguments.integer("frames", default: 30, in: 1...100_000)
        let directory = try OutputDirectory(arguments.value("out") ?? ".")
        let json = arguments.flag("json")
        let maximumRate = try arguments.integer("max-fps", default: 30, in: 0...1000)
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.liveView, of: camera, else: "does not offer live view")
            camera.applyLiveViewOptions([
                .skipImageDecoding: true, .maximumFramesPerSecond: .number(Double(maximumRate)),
            ])
            return try await save(count, framesOf: camera, to: directory, json: json)
        }
        if json {
            try Console.printJSON(report)
            return
        }
        let rate = report.framesPerSecond.map { String(format: "%.1f fps achieved", $0) } ?? "too few frames to measure"
        Console.print(
            "Saved \(report.files.count) frames to \(directory.path): \(rate)"
                + String(format: " over %.2f s", report.seconds))
    }

    /// Subscribes to live view and saves frames until `count` are saved; one frame is in flight at a time.
    private static func save(_ count: Int, framesOf camera: any Camera, to directory: OutputDirectory, json: Bool)
        async throws -> Report
    {
        // At most one frame waits at a time (the next is asked for once it is saved), then the end and Ctrl-C.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingOldest(4))
        Interrupt.beginHandling()
        let subscription = camera.liveViewPublisher.sinkWithReadyHandler {
            continuation.yield(.ended($0))
        } receiveValue: { frame, ready in
            continuation.yield(.frame(frame, ready))
        }
        Task {
            await Interrupt.wait()
            continuation.yield(.interrupted)
        }
        defer { subscription.cancel() }
        let bar =
            !json && Console.isErrorTerminal
            ? ProgressBar(title: "live view", total: Int64(count), unit: .items("frames")) : nil
        var saved: [SavedFrame] = []
        var first: MonotonicTimestamp?
        var last: MonotonicTimestamp?
        for await event in events {
            switch event {
            case .frame(let frame, let ready):
                let name = String(format: "liveview-%04d.jpg", saved.count + 1)
                let path = try directory.write(frame.jpegData, to: name)
                first = first ?? frame.timestamp
                last = frame.timestamp
                let record = SavedFrame(
                    path: path, sequence: frame.sequenceNumber, width: frame.pixelSize.width,
                    height: frame.pixelSize.height, bytes: frame.jpegData.count)
                saved.append(record)
                if let bar {
                    bar.update(Int64(saved.count))
                } else if !json {
                    let size = ProgressBar.bytes(Int64(record.bytes))
                    Console.print("\(path)  \(record.width)x\(record.height)  \(size)  frame \(record.sequence)")
                }
                guard saved.count < count else {
                    bar?.finish()
                    return report(saved, from: first, to: last)
                }
                ready()
            case .ended(let completion):
                bar?.finish()
                throw failure(completion, saved: saved.count, of: count)
            case .interrupted:
                bar?.finish()
                throw CommandFailure(
                    "interrupted after saving \(saved.count) of \(count) frames", exitStatus: ExitStatus.interrupted)
            }
        }
        throw CancellationError()
    }

    private static func report(_ saved: [SavedFrame], from first: MonotonicTimestamp?, to last: MonotonicTimestamp?)
        -> Report
    {
        let seconds = first.flatMap { first in last.map { $0.duration(since: first).inSeconds } } ?? 0
        let rate = saved.count > 1 && seconds > 0 ? Double(saved.count - 1) / seconds : nil
        return Report(files: saved, seconds: seconds, framesPerSecond: rate)
    }

    /// The failure for live view that ended before `count` frames were saved.
    private static func failure(
        _ completion: Subscribers.Completion<LiveViewTerminationReason>, saved: Int, of count: Int
    ) -> CommandFailure {
        let progress = "after saving \(saved) of \(count) frames"
        guard case .failure(.failed(let error)) = completion else {
            return CommandFailure("live view ended \(progress)", exitStatus: ExitStatus.unavailable)
        }
        return CommandFailure(
            "live view failed \(progress): \(error.message)",
            hint: "Check that the camera is in a mode that allows live view, and try again.",
            exitStatus: error.code == .timeout ? ExitStatus.timeout : ExitStatus.unavailable)
    }
}
