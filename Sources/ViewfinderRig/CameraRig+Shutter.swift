import ViewfinderCore
import ViewfinderSystem

extension CameraRig {
    /// Fires every camera's shutter as close together as their connections allow.
    ///
    /// Each camera first gets ready (a camera that cannot take pictures fails here); once every camera still taking
    /// part is ready, all shutter requests go out at once. A camera that fails or is slow to get ready is left out and
    /// does not hold the others back.
    ///
    /// Given an instant, the requests go out at that instant instead (or at once, if the cameras get ready after
    /// it), as a rig of many hosts fires every host's cameras at one time agreed beforehand.
    ///
    /// - Parameters:
    ///   - engageAutoFocus: Whether each camera focuses before its picture (it then fires when focused, which spreads
    ///     the pictures by the cameras' focusing times).
    ///   - instant: When the shutter requests go out; as soon as every camera is ready when `nil`.
    ///   - timeout: How long each camera may take, from the start to its picture taken (the wait for `instant`
    ///     included).
    /// - Returns: Each camera's ``ShutterRelease``, or the error that kept it from taking the picture.
    public func fireShutters(
        engagingAutoFocus engageAutoFocus: Bool = false, at instant: ContinuousClock.Instant? = nil,
        timeout: Duration = .seconds(30)
    ) async -> RigReport<ShutterRelease> {
        await perform("take a picture", timeout: timeout, startingAt: instant) { member, start in
            try Self.requireStillCapture(member)
            await start()
            return try await Self.release(member, engagingAutoFocus: engageAutoFocus)
        }
    }

    /// Fires every camera's shutter together, then downloads each camera's new picture into `directory`.
    ///
    /// Each picture is saved as the camera's name, a dash and the name the camera gave the file, such as
    /// `cam07-IMG_0042.JPG` (`CameraFileItem/safeFileName`, so that no name leaves `directory`); a camera that makes several files for one picture (JPEG and raw) gives all of them.
    /// Downloads of different cameras run side by side; each file appears under its name only once complete.
    ///
    /// - Parameters:
    ///   - directory: An existing folder for the pictures.
    ///   - engageAutoFocus: Whether each camera focuses before its picture.
    ///   - instant: When the shutter requests go out, as for ``fireShutters(engagingAutoFocus:at:timeout:)``; as
    ///     soon as every camera is ready when `nil`.
    ///   - filesPerPicture: The most files one picture is taken to make.
    ///   - settleTime: How long to wait after a picture's first file for more files of the same picture.
    ///   - timeout: How long each camera may take, from the start to its last file downloaded.
    /// - Returns: Each camera's pictures, or the error that ended its part; a camera whose picture was taken but
    ///   whose file did not arrive in time fails with `ViewfinderError/Code/timeout`.
    public func capturePictures(
        into directory: String, engagingAutoFocus engageAutoFocus: Bool = false,
        at instant: ContinuousClock.Instant? = nil, filesPerPicture: Int = 4, settleTime: Duration = .milliseconds(300),
        timeout: Duration = .seconds(60)
    ) async -> RigReport<RigCapture> {
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let limit = max(filesPerPicture, 1)
        return await perform("take and download a picture", timeout: timeout, startingAt: instant) { member, start in
            try Self.requireStillCapture(member)
            guard let access = member.camera.fileAccess else {
                throw ViewfinderError(.notAvailable, "camera '\(member.name)' gives no access to its files")
            }
            let arrivals = NewFiles(limit: limit)
            let token = access.addNewFileObserver { arrivals.add($0) }
            defer { token.cancel() }
            await start()
            let release = try await Self.release(member, engagingAutoFocus: engageAutoFocus)
            let files = try await arrivals.wait(settleTime: settleTime)
            var pictures: [RigCapture.File] = []
            for item in files {
                let path = "\(folder)/\(member.name)-\(item.safeFileName)"
                try await access.download(item, toFile: path)
                pictures.append(RigCapture.File(item: item, path: path))
            }
            return RigCapture(release: release, files: pictures)
        }
    }

    /// Fails unless the camera is connected and takes pictures on request.
    private static func requireStillCapture(_ member: RigMember) throws {
        guard member.camera.connectionState == .connected else {
            throw ViewfinderError(.notConnected, "camera '\(member.name)' is not connected")
        }
        guard member.camera.supportedFunctionality.contains(.stillCapture) else {
            throw ViewfinderError(.notAvailable, "camera '\(member.name)' does not take pictures on request")
        }
    }

    /// Takes one picture, noting when it was asked for and when the camera reported it taken.
    private static func release(_ member: RigMember, engagingAutoFocus: Bool) async throws -> ShutterRelease {
        let requested = ContinuousClock.now
        try await member.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(engagingAutoFocus)
        return ShutterRelease(requested: requested, completed: .now)
    }
}

/// The files a camera reports after a picture: the first, and any that follow it within the settle time.
private final class NewFiles: Sendable {
    private struct State {
        var items: [CameraFileItem] = []
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    func add(_ item: CameraFileItem) {
        guard !item.isFolder else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.items.count < limit else { return nil }
            state.items.append(item)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits for the first file (as long as the caller's deadline allows), then `settleTime` for more.
    func wait(settleTime: Duration) async throws -> [CameraFileItem] {
        while true {
            try Task.checkCancellation()
            let arrived = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        if !state.items.isEmpty || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
                return state.withLock { !$0.items.isEmpty }
            } onCancel: {
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
            if arrived { break }
        }
        try await Task.sleep(for: settleTime)
        return state.withLock { $0.items }
    }
}
