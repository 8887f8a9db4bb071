import ViewfinderCore

extension OlympusCamera: CameraFileAccess {
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

    /// Throws `ViewfinderError/Code/notAvailable`: Viewfinder sends no delete to an Olympus over WiFi.
    public func delete(_ item: CameraFileItem) async throws {
        throw ViewfinderError(
            .notAvailable,
            "Viewfinder knows no way to delete \(item.name) from an Olympus over WiFi; delete it on the camera")
    }
}
