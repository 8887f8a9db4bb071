import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// Takes an automation's pictures: releases the shutter (or holds it for a bulb exposure), waits for the camera to
/// report the new files, and saves them into a directory when one is given.
///
/// The shutter is released without focusing, so every frame keeps the focus the camera has (or a focus stack set).
struct FrameTaker {
    /// The most files one picture makes that are reported with it, such as a raw file and a JPEG.
    static let maximumFilesPerFrame = 8

    let camera: any Camera
    /// Where the pictures go; `nil` leaves them on the camera's card.
    let directory: String?
    /// How long to wait for the camera to report a picture's file.
    let fileTimeout: Duration
    private let files: (any CameraFileAccess)?
    private var watch: NewFileWatch?

    /// Checks that `camera` can take the pictures (and hold its shutter for `bulb` exposures), and starts watching
    /// its new files.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a camera that cannot take pictures on request, hold its
    ///   shutter for a bulb exposure, or give its files for saving.
    init(camera: any Camera, directory: String?, fileTimeout: Duration, bulb: Bool = false) throws {
        let functionality = camera.supportedFunctionality
        guard functionality.contains(.stillCapture) else {
            throw ViewfinderError(.notAvailable, "the camera does not take pictures on request")
        }
        if bulb, !functionality.contains(.heldShutter) {
            throw ViewfinderError(
                .notAvailable, "the camera cannot hold its shutter open, so it cannot make bulb exposures")
        }
        files = functionality.contains(.fileAccess) ? camera.fileAccess : nil
        if directory != nil, files == nil {
            throw ViewfinderError(.notAvailable, "the camera gives no access to its files, so they cannot be saved")
        }
        self.camera = camera
        self.directory = directory
        self.fileTimeout = fileTimeout
        watch = files.map(NewFileWatch.init)
    }

    /// Stops watching the camera's new files.
    func finish() {
        watch?.finish()
    }

    /// Takes frame `frame`, holding the shutter open for `bulb` when given, and reports it and its saved files.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when the camera reports no file in time, what the camera answered,
    ///   or why a file could not be saved.
    mutating func take(
        frame: Int, bulb: Duration? = nil, setting: String? = nil,
        report: @Sendable (AutomationEvent) -> Void
    ) async throws {
        report(.exposing(frame: frame, setting: setting))
        if let bulb {
            try await holdShutter(for: bulb)
        } else {
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
        }
        var made: [CameraFileItem] = []
        let fileTimeout = fileTimeout
        if watch != nil {
            guard let first = try await watch?.next(within: fileTimeout) else {
                throw ViewfinderError(
                    .timeout, "the camera took frame \(frame) but reported no new file within \(fileTimeout)")
            }
            made.append(first)
            // The other files of the same picture, reported with it.
            while made.count < Self.maximumFilesPerFrame, let more = try await watch?.next(within: .zero) {
                made.append(more)
            }
        }
        report(.captured(frame: frame, files: made))
        guard let directory, let files else { return }
        for file in made {
            let path = Self.unusedPath(in: directory, for: file.safeFileName)
            try await files.download(file, toFile: path)
            report(.saved(frame: frame, file: file, path: path))
        }
    }

    /// Holds the shutter down for `duration`, and lets it go whatever ends the wait.
    private func holdShutter(for duration: Duration) async throws {
        let camera = camera
        try await camera.engageShutter()
        do {
            try await Task.sleep(for: duration)
        } catch {
            try? await uncancelled { try await camera.disengageShutter() }
            throw error
        }
        try await camera.disengageShutter()
    }

    /// The path of `name` in `directory`, or of `name` with `-2`, `-3`… before its extension when a file of that name
    /// is there already, so that a camera that starts its numbering again does not replace earlier pictures.
    static func unusedPath(in directory: String, for name: String) -> String {
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        guard access(folder + name, F_OK) == 0 else { return folder + name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 } ?? name.endIndex
        let stem = name[..<dot]
        let suffix = name[dot...]
        for number in 2... {
            let candidate = folder + stem + "-\(number)" + suffix
            if access(candidate, F_OK) != 0 { return candidate }
        }
        return folder + name
    }
}
