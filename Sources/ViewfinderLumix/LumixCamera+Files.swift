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
        let connection = try driverCore.connection(.fileAccess, for: "list the card")
        do {
            return try await connection.listFiles()
        } catch {
            throw driverCore.passingOn(error, from: connection, while: "list the card")
        }
    }

    /// Downloads a file listed by ``contents(of:in:)`` in pieces, at the pace `chunkHandler` takes them.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        let connection = try driverCore.connection(.fileAccess, for: "download \(item.name)")
        do {
            try await connection.download(item, chunkHandler: chunkHandler)
        } catch let error as ViewfinderError {
            throw driverCore.passingOn(error, from: connection, while: "download \(item.name)")
        }
    }

    /// The thumbnail the camera keeps for a file listed by ``contents(of:in:)``.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        let connection = try driverCore.connection(.fileAccess, for: "fetch \(item.name)'s thumbnail")
        do {
            return try await connection.thumbnail(of: item)
        } catch let error as ViewfinderError {
            throw driverCore.passingOn(error, from: connection, while: "fetch \(item.name)'s thumbnail")
        }
    }

    /// Throws `ViewfinderError/Code/notAvailable`: Viewfinder knows no way to delete a Lumix's files over WiFi.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable,
            "Viewfinder knows no way to delete \(item.name) from a Lumix over WiFi; delete it on the camera")
    }
}
