import Foundation
import Viewfinder
import ViewfinderSystem

/// `viewfinder rig liveview`: watches every camera's live view, and saves each camera's last frame.
enum RigLiveViewCommand: Command {
    static let spec = CommandSpec(
        name: "liveview",
        abstract:
            "Watch every camera's live view for a while, print each camera's frame rate, and save its last frame.",
        discussion: """
            Each camera's frames are fetched one at a time, as fast as --max-fps allows; a camera that is slow or \
            stops does not slow the others. With --out DIR the last frame of each camera is saved as DIR/NAME.jpg, \
            exactly as the camera sent it. Ctrl-C stops early and still prints the figures.
            """,
        options: RigTarget.options + [
            .value("duration", "SECONDS", help: "How long to watch.", default: "5"),
            .value("max-fps", "RATE", help: "The most frames to fetch per camera per second.", default: "15"),
            .value("out", "DIR", short: "o", help: "Save each camera's last frame into DIR."),
            .json,
        ],
        examples: [
            Example(
                commandLine: "rig liveview --hosts 127.0.0.1:15740+4 --out frames",
                comment: "Four simulated Nikons ('simulate --identity nikon --count 4'); saves frames/cam0.jpg …")
        ]
    )

    /// What one camera's live view gave.
    private struct Watch: Sendable {
        var frames = 0
        var first: MonotonicTimestamp?
        var last: MonotonicTimestamp?
        var lastJPEG: [UInt8] = []
        var ended: String?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let seconds = try arguments.seconds("duration", default: 5, in: 0.1...86_400)
        let rate = try arguments.integer("max-fps", default: 15, in: 1...1000)
        let directory = try arguments.value("out").map { try OutputDirectory($0) }
        let target = try RigTarget(arguments)
        try await target.withConnectedRig(commandPath: arguments.commandPath) { rig, connectFailures in
            let watches = Locked<[String: Watch]>([:])
            let began = ContinuousClock.now
            let watching = rig.liveView(options: [
                .skipImageDecoding: true, .maximumFramesPerSecond: .number(Double(rate)),
            ]) {
                camera, completion in
                let reason: String =
                    switch completion {
                    case .finished: "live view ended"
                    case .failure(let reason): "live view \(reason)"
                    }
                watches.withLock { $0[camera, default: Watch()].ended = reason }
            } receiveFrame: { camera, frame, ready in
                watches.withLock { watches in
                    var watch = watches[camera, default: Watch()]
                    watch.frames += 1
                    watch.first = watch.first ?? frame.timestamp
                    watch.last = frame.timestamp
                    watch.lastJPEG = frame.jpegData
                    watches[camera] = watch
                }
                ready()
            }
            Interrupt.beginHandling()
            let stop = Task {
                try? await Task.sleep(for: .seconds(seconds))
            }
            let interrupt = Task {
                await Interrupt.wait()
                stop.cancel()
            }
            await stop.value
            interrupt.cancel()
            watching.cancel()
            let elapsed = began.duration(to: .now)
            let results = watches.withLock { $0 }
            var records: [RigOutcomeRecord] = []
            for member in rig.members {
                let watch = results[member.name] ?? Watch()
                var saved: [String]?
                if let directory, !watch.lastJPEG.isEmpty {
                    saved = [try directory.write(watch.lastJPEG, to: "\(member.name).jpg")]
                }
                let result: Result<Watch, ViewfinderError> =
                    watch.frames > 0
                    ? .success(watch) : .failure(ViewfinderError(.notAvailable, watch.ended ?? "no frame arrived"))
                let outcome = RigReport<Watch>.Outcome(camera: member.name, result: result, duration: elapsed)
                records.append(
                    RigOutcomeRecord(outcome, address: target.address(of: member.name)) { watch in
                        var text = "\(watch.frames) frames"
                        if let first = watch.first, let last = watch.last, watch.frames > 1 {
                            let span = Double(last.nanoseconds - first.nanoseconds) / 1e9
                            text += String(format: ", %.1f fps", Double(watch.frames - 1) / span)
                        }
                        return text + (watch.ended.map { "; \($0)" } ?? "")
                    } files: { _ in
                        saved
                    })
            }
            try RigOutcomeRecord.finish(connectFailures + records, json: arguments.flag("json"))
        }
    }
}
