import ViewfinderCore

extension LumixCamera: CameraFileAccess {
    /// The card: one storage, whose files are all at its top.
    public func storages() async throws -> [CameraStorage] {
        _ = try driverCore.connection(.fileAccess, for: "list the card")
        return [
            CameraStorage(
                id: 1, storageDescription: "SD card", volumeLabel: "", capacityByteCount: nil, freeByteCount: nil,
                isWritable: true)
        ]
    }

    /// The files on the card, listed by its content directory; a Lumix keeps no folders there.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a folder, or what listing throws.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        guard folder == nil, storage.id == 1 else {
            throw ViewfinderError(.notFound, "a Lumix lists all its files at the top of its one card")
        }
        return try await driverCore.withConnection(.fileAccess, for: "list the card") { try await $0.listFiles() }
    }

    /// Downloads a file listed by ``contents(of:in:)`` in pieces, at the pace `chunkHandler` takes them.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        try await driverCore.withConnection(.fileAccess, for: "download \(item.name)") {
            try await $0.download(item, chunkHandler: chunkHandler)
        }
    }

    /// The thumbnail the camera keeps for a file listed by ``contents(of:in:)``.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        try await driverCore.withConnection(.fileAccess, for: "fetch \(item.name)'s thumbnail") {
            try await $0.thumbnail(of: item)
        }
    }

    /// Throws `ViewfinderError/Code/notAvailable`: Viewfinder knows no way to delete a Lumix's files over WiFi.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable,
            "Viewfinder knows no way to delete \(item.name) from a Lumix over WiFi; delete it on the camera")
    }
}
