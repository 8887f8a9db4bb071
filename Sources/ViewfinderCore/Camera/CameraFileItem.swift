/// A file or folder on a camera's storage.
public struct CameraFileItem: Hashable, Sendable, Identifiable {
    /// What a file holds.
    public enum Kind: Hashable, Sendable {
        /// A folder.
        case folder
        /// A JPEG picture.
        case jpegImage
        /// A raw picture.
        case rawImage
        /// A video.
        case video
        /// Anything else.
        case other
        /// An object the camera lists but would not describe (it refused its information): its name, size and kind
        /// are not known.
        case undescribed
    }

    /// The camera's identifier for the file, unique on the camera while the connection lasts.
    public let id: UInt32
    /// The identifier of the storage the file is on.
    public var storageID: UInt32
    /// The identifier of the folder the file is in; `nil` at the top of the storage.
    public var parentID: UInt32?
    /// The file's name, such as "DSC_0042.JPG".
    public var name: String
    /// What the file holds.
    public var kind: Kind
    /// The size in bytes; ``sizeOf4GiBOrMore`` when the camera says only that the file holds 4 GiB or more, as
    /// PTP's 32-bit size does, and `nil` when the camera gives no size at all (a Sony's Camera Remote API, a Lumix
    /// that leaves it out of its listing): either way the size is known only once a download starts.
    public var byteCount: UInt64?

    /// What ``byteCount`` is for a file whose size the camera gives only as "4 GiB or more": `0xFFFFFFFF`.
    public static let sizeOf4GiBOrMore: UInt64 = 0xFFFF_FFFF

    /// Whether ``byteCount`` is the file's size: given, and not ``sizeOf4GiBOrMore``.
    public var isByteCountKnown: Bool { knownByteCount != nil }

    /// The file's size in bytes when the camera gives it; `nil` when it gives none or says only "4 GiB or more".
    public var knownByteCount: UInt64? { byteCount.flatMap { $0 == Self.sizeOf4GiBOrMore ? nil : $0 } }
    /// When the picture was taken, as the camera writes it (ISO 8601 basic format, such as "20240131T154502").
    public var captureDate: String?
    /// The picture's size in pixels, when the camera reports it.
    public var pixelSize: Dimensions?

    /// Creates a file record.
    public init(
        id: UInt32,
        storageID: UInt32,
        parentID: UInt32?,
        name: String,
        kind: Kind,
        byteCount: UInt64?,
        captureDate: String? = nil,
        pixelSize: Dimensions? = nil
    ) {
        self.id = id
        self.storageID = storageID
        self.parentID = parentID
        self.name = name
        self.kind = kind
        self.byteCount = byteCount
        self.captureDate = captureDate
        self.pixelSize = pixelSize
    }

    /// Whether this is a folder.
    public var isFolder: Bool { kind == .folder }
}
