import ViewfinderCore

/// What a camera says about one of its storages, such as a memory card.
///
/// Returned by ``PTPOperationCode/getStorageInfo``.
public struct PTPStorageInfo: Hashable, Sendable {
    /// The kind of storage: 1 fixed ROM, 2 removable ROM, 3 fixed RAM, 4 removable RAM.
    public var storageType: UInt16
    /// The file system: 1 generic flat, 2 generic hierarchical, 3 DCF (a DCIM tree).
    public var filesystemType: UInt16
    /// Access: 0 read-write, 1 read-only, 2 read-only with delete.
    public var accessCapability: UInt16
    /// The capacity in bytes.
    public var maximumCapacity: UInt64
    /// The free space in bytes.
    public var freeSpaceInBytes: UInt64
    /// The number of images that still fit, or `0xFFFFFFFF` when unknown.
    public var freeSpaceInImages: UInt32
    /// A description of the storage.
    public var storageDescription: String
    /// The volume label.
    public var volumeLabel: String

    /// Creates a storage info dataset.
    public init(
        storageType: UInt16, filesystemType: UInt16, accessCapability: UInt16, maximumCapacity: UInt64,
        freeSpaceInBytes: UInt64, freeSpaceInImages: UInt32, storageDescription: String, volumeLabel: String
    ) {
        self.storageType = storageType
        self.filesystemType = filesystemType
        self.accessCapability = accessCapability
        self.maximumCapacity = maximumCapacity
        self.freeSpaceInBytes = freeSpaceInBytes
        self.freeSpaceInImages = freeSpaceInImages
        self.storageDescription = storageDescription
        self.volumeLabel = volumeLabel
    }

    /// Decodes the dataset.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes are not a StorageInfo dataset.
    public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(bytes, reading: "StorageInfo")
        storageType = try reader.read(UInt16.self)
        filesystemType = try reader.read(UInt16.self)
        accessCapability = try reader.read(UInt16.self)
        maximumCapacity = try reader.read(UInt64.self)
        freeSpaceInBytes = try reader.read(UInt64.self)
        freeSpaceInImages = try reader.read(UInt32.self)
        storageDescription = try reader.readString()
        volumeLabel = try reader.readString()
    }

    /// The dataset's wire form.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a string too long for PTP.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 64)
        writer.append(storageType)
        writer.append(filesystemType)
        writer.append(accessCapability)
        writer.append(maximumCapacity)
        writer.append(freeSpaceInBytes)
        writer.append(freeSpaceInImages)
        try writer.append(string: storageDescription)
        try writer.append(string: volumeLabel)
        return writer.bytes
    }
}
