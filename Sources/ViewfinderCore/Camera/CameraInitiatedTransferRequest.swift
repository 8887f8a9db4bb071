import ViewfinderSystem

/// A picture the camera offers the computer by itself as it takes it, such as one the photographer took with the
/// camera's own button while its pictures go to the computer.
///
/// The camera holds such a picture in its memory until the computer has read it: ``isOnlyDestination`` says it is on
/// no card, so a request no one executes loses the picture, and ``executionRequiredToClearBuffer`` says the camera
/// keeps its memory for it, so it takes fewer pictures, and in the end none, while requests go unexecuted. A request
/// is valid until it has been executed or the connection that offered it has ended.
///
/// ```swift
/// let token = files.addCameraInitiatedTransferHandler { request in
///     Task { try await request.execute(toFile: "/home/me/shoot/" + request.file.safeFileName) }
/// }
/// ```
public final class CameraInitiatedTransferRequest: Sendable {
    /// Where a request is in its life.
    public enum State: Hashable, Sendable {
        /// Not executed yet.
        case notStarted
        /// Being executed.
        case inProgress
        /// Executed: the picture has been read and the camera has let go of it.
        case complete
    }

    /// The picture, as the camera described it when it offered it.
    public let file: CameraFileItem
    /// Whether the picture is in the camera's memory alone, on no card: unread, it is lost.
    public let isOnlyDestination: Bool
    /// Whether the camera keeps memory for the picture until it is read, and takes fewer pictures meanwhile.
    public let executionRequiredToClearBuffer: Bool

    private weak let camera: (any CameraFileAccess)?
    private let connectionIsCurrent: @Sendable () -> Bool
    private let progressState = Locked(State.notStarted)

    /// Creates a request for a picture `camera` offers over the connection for which `connectionIsCurrent` holds.
    init(
        file: CameraFileItem, camera: any CameraFileAccess, isOnlyDestination: Bool,
        executionRequiredToClearBuffer: Bool, connectionIsCurrent: @escaping @Sendable () -> Bool
    ) {
        self.file = file
        self.camera = camera
        self.isOnlyDestination = isOnlyDestination
        self.executionRequiredToClearBuffer = executionRequiredToClearBuffer
        self.connectionIsCurrent = connectionIsCurrent
    }

    /// The name the camera gave the picture, to name its file by.
    public var fileNameHint: String { file.name }

    /// The picture's size in bytes as the camera told it; `nil` when the camera did not say.
    public var predictedByteCount: UInt64? { file.knownByteCount }

    /// Where the request is in its life.
    public var state: State { progressState.withLock { $0 } }

    /// Whether the request can still be executed: not yet executed, and offered over the camera's current
    /// connection.
    public var isValid: Bool {
        camera != nil && progressState.withLock { $0 != .complete } && connectionIsCurrent()
    }

    /// Reads the picture from the camera into a file at `path`, streamed chunk by chunk and given its name only once
    /// complete; the camera then lets go of it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for a request that is no longer valid,
    ///   ``ViewfinderError/Code/alreadyRunning`` while the request is being executed, or what the download threw
    ///   (the request can then be executed again while it is valid).
    public func execute(
        toFile path: String, progress: @escaping @Sendable (CameraTransferProgress) throws -> Void = { _ in }
    ) async throws {
        let camera = try begin()
        do {
            try await camera.download(file, toFile: path, progress: progress)
        } catch {
            progressState.withLock { $0 = .notStarted }
            throw error
        }
        progressState.withLock { $0 = .complete }
    }

    /// Reads the picture from the camera into memory, refusing one larger than `maximumByteCount`; the camera then
    /// lets go of it.
    ///
    /// - Throws: As ``execute(toFile:progress:)``, and ``ViewfinderError/Code/invalidArgument`` for a picture larger
    ///   than `maximumByteCount`.
    public func executeData(maximumByteCount: Int = 256 << 20) async throws -> [UInt8] {
        let camera = try begin()
        let bytes: [UInt8]
        do {
            bytes = try await camera.downloadData(of: file, maximumByteCount: maximumByteCount)
        } catch {
            progressState.withLock { $0 = .notStarted }
            throw error
        }
        progressState.withLock { $0 = .complete }
        return bytes
    }

    /// Marks the request as being executed, returning the camera to read from.
    private func begin() throws(ViewfinderError) -> any CameraFileAccess {
        guard let camera, connectionIsCurrent() else {
            throw ViewfinderError(
                .notAvailable, "the camera's offer of \(file.name) ended with the connection that made it")
        }
        let previous = progressState.withLock { state -> State in
            defer { if state == .notStarted { state = .inProgress } }
            return state
        }
        switch previous {
        case .notStarted: return camera
        case .inProgress: throw ViewfinderError(.alreadyRunning, "\(file.name) is being read already")
        case .complete: throw ViewfinderError(.notAvailable, "\(file.name) has been read already")
        }
    }
}
