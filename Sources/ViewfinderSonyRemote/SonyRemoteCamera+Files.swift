import ViewfinderCore

extension SonyRemoteCamera: CameraFileAccess {
    /// The camera's card, for a camera that serves it (switching the camera to `Contents Transfer` first); else one
    /// storage of the postviews of the pictures taken on this connection.
    public func storages() async throws -> [CameraStorage] {
        try await driverCore.withConnection(.fileAccess, for: "list the storages") { connection in
            if connection.servesCard { return try await connection.cardStorages() }
            return [
                CameraStorage(
                    id: 1, storageDescription: "Postviews", volumeLabel: "", capacityByteCount: nil,
                    freeByteCount: nil, isWritable: false)
            ]
        }
    }

    /// The stills on the card, listed a page at a time, or the postviews of the pictures taken on this connection.
    ///
    /// There are no folders.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a folder, or a storage the camera does not list.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        try await driverCore.withConnection(.fileAccess, for: "list \(storage.storageDescription)") { connection in
            guard folder == nil else {
                throw ViewfinderError(.notFound, "a Sony over its Camera Remote API lists its files without folders")
            }
            if connection.servesCard { return try await connection.cardContents(of: storage.id) }
            guard storage.id == 1 else {
                throw ViewfinderError(.notFound, "a Sony over its Camera Remote API lists its postviews alone")
            }
            return connection.postviews()
        }
    }

    /// Downloads a still from the card, or a picture's postview, in pieces, at the pace `chunkHandler` takes them.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        try await driverCore.withConnection(.fileAccess, for: "download \(item.name)") {
            try await $0.download(item, chunkHandler: chunkHandler)
        }
    }

    /// A still's thumbnail from the card, or a postview whole, as the camera keeps no smaller picture of it.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a thumbnail longer than
    ///   ``Configuration/maximumFrameLength``, or what ``download(_:chunkHandler:)`` throws.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        try await driverCore.withConnection(.fileAccess, for: "read the thumbnail of \(item.name)") {
            try await $0.thumbnail(of: item)
        }
    }

    /// Throws `ViewfinderError/Code/notAvailable`: the Camera Remote API deletes nothing from the card.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable, "Sony's Camera Remote API cannot delete \(item.name); delete it on the camera")
    }
}
