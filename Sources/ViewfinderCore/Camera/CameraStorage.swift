/// A storage of a camera, such as a memory card in one of its slots.
public struct CameraStorage: Hashable, Sendable, Identifiable {
    /// The camera's identifier for the storage.
    public let id: UInt32
    /// The camera's description of the storage, such as "SD card slot 1".
    public var storageDescription: String
    /// The volume label of the card.
    public var volumeLabel: String
    /// The capacity in bytes, when the camera reports it.
    public var capacityByteCount: UInt64?
    /// The free space in bytes, when the camera reports it.
    public var freeByteCount: UInt64?
    /// Whether files can be written and deleted.
    public var isWritable: Bool

    /// Creates a storage record.
    public init(
        id: UInt32,
        storageDescription: String,
        volumeLabel: String,
        capacityByteCount: UInt64?,
        freeByteCount: UInt64?,
        isWritable: Bool
    ) {
        self.id = id
        self.storageDescription = storageDescription
        self.volumeLabel = volumeLabel
        self.capacityByteCount = capacityByteCount
        self.freeByteCount = freeByteCount
        self.isWritable = isWritable
    }
}
