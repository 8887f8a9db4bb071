import ViewfinderSystem

/// A preview of a picture the camera has just taken: a small JPEG to show at once, before or instead of reading the
/// picture itself.
///
/// A camera that reports new pictures on its card and gives their thumbnails offers a preview of each picture it
/// takes, whoever pressed the shutter: ``fetchPreview()`` reads the thumbnail the camera made, a few kilobytes, where
/// the picture is megabytes. A preview is valid while the connection that offered it lasts.
///
/// ```swift
/// let token = files.addShotPreviewObserver { preview in
///     Task { show(try await preview.fetchPreview()) }
/// }
/// ```
public final class CameraShotPreview: Sendable {
    /// The picture, as the camera described it when it reported it.
    public let file: CameraFileItem

    private weak let camera: (any CameraFileAccess)?
    private let connectionIsCurrent: @Sendable () -> Bool
    private let fetching = Locked(false)

    /// Creates the preview of a picture `camera` reported over the connection for which `connectionIsCurrent`
    /// holds.
    init(file: CameraFileItem, camera: any CameraFileAccess, connectionIsCurrent: @escaping @Sendable () -> Bool) {
        self.file = file
        self.camera = camera
        self.connectionIsCurrent = connectionIsCurrent
    }

    /// The name the camera gave the picture, to name its file by.
    public var fileNameHint: String { file.name }

    /// Whether the preview can still be fetched: the connection that offered it is the camera's current one.
    public var isValid: Bool { camera != nil && connectionIsCurrent() }

    /// Whether the preview is being fetched.
    public var isFetching: Bool { fetching.withLock { $0 } }

    /// Reads the preview from the camera: the thumbnail it made of the picture, a JPEG.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` once the connection that offered it has ended,
    ///   ``ViewfinderError/Code/alreadyRunning`` while it is being fetched, or what reading the thumbnail threw (it
    ///   can then be fetched again while it is valid).
    public func fetchPreview() async throws -> [UInt8] {
        guard let camera, connectionIsCurrent() else {
            throw ViewfinderError(
                .notAvailable, "the preview of \(file.name) ended with the connection that offered it")
        }
        let started = fetching.withLock { fetching in
            defer { fetching = true }
            return !fetching
        }
        guard started else { throw ViewfinderError(.alreadyRunning, "the preview of \(file.name) is being read") }
        defer { fetching.withLock { $0 = false } }
        return try await camera.thumbnail(of: file)
    }
}
