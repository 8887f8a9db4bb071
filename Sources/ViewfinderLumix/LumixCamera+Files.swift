import ViewfinderCore

extension LumixCamera: CameraFileAccess {
    /// The files on the card, listed by its content directory; a Lumix keeps no folders there.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` for a folder, or what listing throws.
    public func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        guard folder == nil, storage.id == 1 else {
            throw ViewfinderError(.notFound, "a Lumix lists all its files at the top of its one card")
        }
        return try await driverCore.withConnection(.fileAccess, for: "list the card") { try await $0.listFiles() }
    }

    /// Throws `ViewfinderError/Code/notAvailable`: Viewfinder knows no way to delete a Lumix's files over WiFi.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable,
            "Viewfinder knows no way to delete \(item.name) from a Lumix over WiFi; delete it on the camera")
    }
}
