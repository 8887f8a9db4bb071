import ViewfinderCore

extension OlympusCamera: CameraFileAccess {
    /// The card: one storage, its folders under `/DCIM`.
    public func storages() async throws -> [CameraStorage] {
        _ = try driverCore.connection(.fileAccess, for: "list the card")
        return [
            CameraStorage(
                id: 1, storageDescription: "SD card", volumeLabel: "", capacityByteCount: nil, freeByteCount: nil,
                isWritable: true)
        ]
    }

    /// The folders at the top of the card's `/DCIM`, or the files in `folder`, listed in playback mode.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a storage other than the card or a folder not listed, or what
    ///   listing throws.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        guard storage.id == 1 else {
            throw ViewfinderError(.notFound, "an Olympus has one card, storage 1, not \(storage.id)")
        }
        return try await driverCore.withConnection(.fileAccess, for: "list the card") { connection in
            let path = try folder.map { folder throws(ViewfinderError) in try connection.entry(folder).path }
            return try await connection.contents(of: path ?? OlympusConnection.pictureFolder)
        }
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

    /// Throws `ViewfinderError/Code/notAvailable`: Viewfinder sends no delete to an Olympus over WiFi.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable,
            "Viewfinder knows no way to delete \(item.name) from an Olympus over WiFi; delete it on the camera")
    }
}
