import ViewfinderCore

/// Tethered shooting: every picture the camera reports as new, such as one the photographer takes with the camera's
/// own button, is downloaded as it arrives, streamed to a file in a directory.
///
/// Each file is written chunk by chunk under a temporary name and takes its own name once complete
/// (`CameraFileAccess/download(_:toFile:progress:)`); a name already in the directory gets `-2`, `-3`… before its
/// extension rather than replacing the earlier file. A handler, when given, runs for each file once it is saved.
/// Tethering runs until it is cancelled, ``duration`` has passed or ``maximumFiles`` are saved; a camera that goes
/// away ends it with `ViewfinderError/Code/disconnected`.
///
/// ```swift
/// let tethering = Tethering(directory: "/home/me/shoot") { file, path in
///     print("saved \(file.name) at \(path)")
/// }
/// for try await _ in tethering.start(on: camera).events {}
/// ```
public struct Tethering: Sendable, AutomationWork {
    /// Where the files go.
    public var directory: String
    /// How long to tether; `nil` until cancelled.
    public var duration: Duration?
    /// How many files to save before ending; `nil` for no limit.
    public var maximumFiles: Int?
    /// Runs for each file once it is saved, with the path it was saved at; a throw ends tethering.
    public var fileHandler: (@Sendable (CameraFileItem, String) async throws -> Void)?

    /// Creates tethering into `directory`.
    public init(
        directory: String, duration: Duration? = nil, maximumFiles: Int? = nil,
        fileHandler: (@Sendable (CameraFileItem, String) async throws -> Void)? = nil
    ) {
        self.directory = directory
        self.duration = duration
        self.maximumFiles = maximumFiles
        self.fileHandler = fileHandler
    }

    /// Starts tethering to `camera`.
    ///
    /// The events report each wait for the next file as ``AutomationEvent/waiting(frame:delay:)`` (the delay is the
    /// longest it may last), each file as ``AutomationEvent/captured(frame:files:)`` and, once written,
    /// ``AutomationEvent/saved(frame:file:path:)``, numbered in the order they came; they throw
    /// `ViewfinderError/Code/notAvailable` for a camera that gives no access to its files, and what the camera
    /// answered or the file system said.
    public func start(on camera: any Camera) -> AutomationRun {
        started(on: camera)
    }

    func run(on camera: any Camera, report: @escaping @Sendable (AutomationEvent) -> Void) async throws {
        guard camera.supportedFunctionality.contains(.fileAccess), let access = camera.fileAccess else {
            throw ViewfinderError(.notAvailable, "the camera gives no access to its files, so it cannot be tethered")
        }
        if let maximumFiles, maximumFiles < 1 {
            throw ViewfinderError(.invalidArgument, "tethering needs room for at least one file")
        }
        var watch = NewFileWatch(access)
        defer { watch.finish() }
        let clock = ContinuousClock()
        let end = duration.map { clock.now + $0 }
        var number = 0
        while maximumFiles.map({ number < $0 }) ?? true {
            // Without an end, each wait still has one; the next wait follows it.
            let wait = end.map { clock.now.duration(to: $0) } ?? .seconds(3600)
            guard wait > .zero else { return }
            report(.waiting(frame: number + 1, delay: wait))
            guard let file = try await watch.next(within: wait) else { continue }
            number += 1
            report(.captured(frame: number, files: [file]))
            let path = FrameTaker.unusedPath(in: directory, for: file.safeFileName)
            try await access.download(file, toFile: path)
            report(.saved(frame: number, file: file, path: path))
            try await fileHandler?(file, path)
        }
    }
}
