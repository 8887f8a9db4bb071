/// The file operations of a connection to a camera with one card, such as the HTTP cameras': downloads and
/// thumbnails of the files it listed.
///
/// A ``DriverBackedCamera`` whose connection conforms gets ``CameraFileAccess/storages()``,
/// ``CameraFileAccess/download(_:chunkHandler:)`` and ``CameraFileAccess/thumbnail(of:)`` from its core, and adds
/// only the listing and deletion of its own.
public protocol CameraDriverCardAccess: CameraDriverConnection {
    /// Downloads a file the connection listed in pieces, each handed to `chunkHandler` before the next is read.
    ///
    /// - Throws: ``ViewfinderError/Code/notFound`` for a file not listed, or what the camera answered.
    func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws

    /// The thumbnail the camera keeps for a file the connection listed.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the file has none, or what the camera answered.
    func thumbnail(of item: CameraFileItem) async throws -> [UInt8]
}

extension DriverBackedCamera where Self: CameraFileAccess, DriverConnection: CameraDriverCardAccess {
    /// The card: one storage, with id 1.
    public func storages() async throws -> [CameraStorage] {
        _ = try driverCore.connection(.fileAccess, for: "list the card")
        return [
            CameraStorage(
                id: 1, storageDescription: "SD card", volumeLabel: "", capacityByteCount: nil, freeByteCount: nil,
                isWritable: true)
        ]
    }

    /// Downloads a file listed by ``CameraFileAccess/contents(of:in:)`` in pieces, at the pace `chunkHandler` takes
    /// them.
    public func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        try await driverCore.withConnection(.fileAccess, for: "download \(item.name)") {
            try await $0.download(item, chunkHandler: chunkHandler)
        }
    }

    /// The thumbnail the camera keeps for a file listed by ``CameraFileAccess/contents(of:in:)``.
    public func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        try await driverCore.withConnection(.fileAccess, for: "fetch \(item.name)'s thumbnail") {
            try await $0.thumbnail(of: item)
        }
    }
}
