import ViewfinderCore
import ViewfinderSystem

extension SonyRemoteCamera: CameraFileAccess {
    /// The postviews of the pictures taken on this connection: one storage, as the camera serves no card over this
    /// API.
    public func storages() async throws -> [CameraStorage] {
        _ = try driverCore.connection(.fileAccess, for: "list the postviews")
        return [
            CameraStorage(
                id: 1, storageDescription: "Postviews", volumeLabel: "", capacityByteCount: nil, freeByteCount: nil,
                isWritable: false)
        ]
    }

    /// The postviews of the pictures taken on this connection; there are no folders.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a storage other than the postviews' or a folder.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        guard storage.id == 1, folder == nil else {
            throw ViewfinderError(.notFound, "a Sony over its Camera Remote API lists its postviews alone")
        }
        return try driverCore.connection(.fileAccess, for: "list the postviews").postviews()
    }

    /// Downloads a picture's postview in pieces, at the pace `chunkHandler` takes them.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        try await driverCore.withConnection(.fileAccess, for: "download \(item.name)") {
            try await $0.download(item, chunkHandler: chunkHandler)
        }
    }

    /// The postview itself, whole: the camera keeps no smaller picture.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a postview longer than ``Configuration/maximumFrameLength``,
    ///   or what ``download(_:chunkHandler:)`` throws.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        let bytes = Locked<[UInt8]>([])
        let bound = configuration.maximumFrameLength
        try await download(item) { chunk, _ in
            try bytes.withLock { bytes throws(ViewfinderError) in
                guard bytes.count + chunk.count <= bound else {
                    throw ViewfinderError(.malformedData, "the postview \(item.name) is longer than \(bound) bytes")
                }
                bytes += chunk
            }
        }
        return bytes.withLock { $0 }
    }

    /// Throws `ViewfinderError/Code/notAvailable`: the Camera Remote API deletes nothing from the card.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable, "Sony's Camera Remote API cannot delete \(item.name); delete it on the camera")
    }
}
