/// A camera whose card can be browsed: storages, folders, downloads, thumbnails, deletion and new files.
///
/// ```swift
/// if let files = camera.fileAccess {
///     for storage in try await files.storages() {
///         for item in try await files.contents(of: nil, in: storage) where !item.isFolder {
///             let bytes = try await files.downloadData(of: item)
///             print("\(item.name): \(bytes.count) bytes")
///         }
///     }
/// }
/// ```
public protocol CameraFileAccess: Camera {
    /// The camera's storages, such as its card slots.
    func storages() async throws -> [CameraStorage]

    /// The files and folders in a folder of a storage, or at its top when `folder` is `nil`.
    ///
    /// - Throws: ``ViewfinderError/Code/notFound`` for a folder or storage that is gone, or what the camera answered.
    func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem]

    /// Downloads a file in chunks, handing each to `chunkHandler` before fetching the next.
    ///
    /// The handler paces the download: the next chunk is fetched only once it returns, so memory stays at one chunk
    /// however large the file is.
    ///
    /// - Parameters:
    ///   - item: The file.
    ///   - chunkHandler: Takes the next bytes of the file and the progress so far; throwing stops the download.
    func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws

    /// The thumbnail the camera keeps for a file, usually a small JPEG.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the file has none.
    func thumbnail(of item: CameraFileItem) async throws -> [UInt8]

    /// Deletes a file from the card.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/fileDeletion``, or what the
    ///   camera answered, such as a protected file.
    func delete(_ item: CameraFileItem) async throws

    /// Calls `observer` with each file that appears on the card, such as a picture just taken.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    func addNewFileObserver(_ observer: @escaping @Sendable (CameraFileItem) -> Void) -> ObservationToken

    /// Calls `handler` with each picture the camera offers the computer by itself as it takes it, such as one the
    /// photographer takes with the camera's own button while its pictures go to the computer.
    ///
    /// Such a picture is also reported to ``addNewFileObserver(_:)``'s observers. Cameras with
    /// ``CameraFunctionality/cameraInitiatedTransfer`` offer them; others never call `handler`.
    ///
    /// - Returns: A token that keeps the handler: it ends when the token is released or cancelled.
    func addCameraInitiatedTransferHandler(
        _ handler: @escaping @Sendable (CameraInitiatedTransferRequest) -> Void
    ) -> ObservationToken

    /// Calls `observer` with a preview of each picture the camera reports writing to its card, whoever pressed the
    /// shutter: the camera's thumbnail of it, read only when asked for.
    ///
    /// JPEG and raw pictures have previews; pictures the camera holds for the computer come to
    /// ``addCameraInitiatedTransferHandler(_:)`` instead. A camera that reports no new files never calls `observer`.
    ///
    /// - Returns: A token that keeps the observer: it ends when the token is released or cancelled.
    func addShotPreviewObserver(_ observer: @escaping @Sendable (CameraShotPreview) -> Void) -> ObservationToken

    /// How many reports of new files, camera-initiated transfers and shot previews were dropped, oldest first,
    /// because an observer was still busy while more arrived than wait for it (a few hundred of each kind).
    ///
    /// Observers that return promptly never miss one; one that downloads each file before returning may, in a long
    /// burst: when the count rises, list the card's contents to find what was missed.
    var droppedFileEventCount: Int { get }
}

extension Camera {
    /// The camera's files, when it gives access to them.
    public var fileAccess: (any CameraFileAccess)? {
        self as? any CameraFileAccess
    }
}

extension CameraFileAccess {
    /// Downloads a whole file into memory, refusing one larger than `maximumByteCount`.
    ///
    /// - Parameters:
    ///   - item: The file.
    ///   - maximumByteCount: The most bytes to hold; by default 256 MiB. Stream larger files with
    ///     ``download(_:chunkHandler:)``.
    ///   - progress: Called after each chunk.
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` when the file is larger than `maximumByteCount`.
    public func downloadData(
        of item: CameraFileItem,
        maximumByteCount: Int = 256 << 20,
        progress: @escaping @Sendable (CameraTransferProgress) -> Void = { _ in }
    ) async throws -> [UInt8] {
        let collected = DownloadBuffer(limit: maximumByteCount, name: item.name)
        try await download(item) { chunk, transferred in
            try collected.append(chunk)
            progress(transferred)
        }
        return collected.bytes
    }
}
