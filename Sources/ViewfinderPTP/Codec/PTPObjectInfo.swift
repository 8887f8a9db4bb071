import ViewfinderCore

/// What a camera says about an object on a storage: a file or a folder.
///
/// Returned by ``PTPOperationCode/getObjectInfo``. Folders have the format ``PTPObjectFormatCode/association``.
public struct PTPObjectInfo: Hashable, Sendable {
    /// The storage the object is on.
    public var storageID: UInt32
    /// The object's format.
    public var format: PTPObjectFormatCode
    /// Protection: 0 none, 1 read-only.
    public var protectionStatus: UInt16
    /// The object's size in bytes; `0xFFFFFFFF` for objects of 4 GiB or more.
    public var compressedSize: UInt32
    /// The thumbnail's format.
    public var thumbFormat: PTPObjectFormatCode
    /// The thumbnail's size in bytes.
    public var thumbCompressedSize: UInt32
    /// The thumbnail's width in pixels.
    public var thumbPixelWidth: UInt32
    /// The thumbnail's height in pixels.
    public var thumbPixelHeight: UInt32
    /// The image's width in pixels.
    public var imagePixelWidth: UInt32
    /// The image's height in pixels.
    public var imagePixelHeight: UInt32
    /// Bits per pixel.
    public var imageBitDepth: UInt32
    /// The handle of the folder the object is in, or 0 at the storage's root.
    public var parentObject: UInt32
    /// The kind of folder: 1 generic folder; 0 for files.
    public var associationType: UInt16
    /// Folder-specific data.
    public var associationDescription: UInt32
    /// The object's position in a sequence, or 0.
    public var sequenceNumber: UInt32
    /// The file name, such as `DSC_0001.JPG`.
    public var filename: String
    /// When the object was captured, as `YYYYMMDDThhmmss`.
    public var captureDate: String
    /// When the object was last changed, as `YYYYMMDDThhmmss`.
    public var modificationDate: String
    /// Keywords.
    public var keywords: String

    /// Creates an object info dataset.
    public init(
        storageID: UInt32, format: PTPObjectFormatCode, protectionStatus: UInt16 = 0, compressedSize: UInt32,
        thumbFormat: PTPObjectFormatCode = .any, thumbCompressedSize: UInt32 = 0, thumbPixelWidth: UInt32 = 0,
        thumbPixelHeight: UInt32 = 0, imagePixelWidth: UInt32 = 0, imagePixelHeight: UInt32 = 0,
        imageBitDepth: UInt32 = 0, parentObject: UInt32, associationType: UInt16 = 0,
        associationDescription: UInt32 = 0, sequenceNumber: UInt32 = 0, filename: String, captureDate: String = "",
        modificationDate: String = "", keywords: String = ""
    ) {
        self.storageID = storageID
        self.format = format
        self.protectionStatus = protectionStatus
        self.compressedSize = compressedSize
        self.thumbFormat = thumbFormat
        self.thumbCompressedSize = thumbCompressedSize
        self.thumbPixelWidth = thumbPixelWidth
        self.thumbPixelHeight = thumbPixelHeight
        self.imagePixelWidth = imagePixelWidth
        self.imagePixelHeight = imagePixelHeight
        self.imageBitDepth = imageBitDepth
        self.parentObject = parentObject
        self.associationType = associationType
        self.associationDescription = associationDescription
        self.sequenceNumber = sequenceNumber
        self.filename = filename
        self.captureDate = captureDate
        self.modificationDate = modificationDate
        self.keywords = keywords
    }

    /// Whether the object is a folder.
    public var isFolder: Bool { format == .association }

    /// Decodes the dataset.
    ///
    /// The file name, the dates and the keywords may be missing at the end, as some cameras send them; they are then
    /// empty.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes are not an ObjectInfo dataset.
    public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(bytes, reading: "ObjectInfo")
        storageID = try reader.read(UInt32.self)
        format = PTPObjectFormatCode(rawValue: try reader.read(UInt16.self))
        protectionStatus = try reader.read(UInt16.self)
        compressedSize = try reader.read(UInt32.self)
        thumbFormat = PTPObjectFormatCode(rawValue: try reader.read(UInt16.self))
        thumbCompressedSize = try reader.read(UInt32.self)
        thumbPixelWidth = try reader.read(UInt32.self)
        thumbPixelHeight = try reader.read(UInt32.self)
        imagePixelWidth = try reader.read(UInt32.self)
        imagePixelHeight = try reader.read(UInt32.self)
        imageBitDepth = try reader.read(UInt32.self)
        parentObject = try reader.read(UInt32.self)
        associationType = try reader.read(UInt16.self)
        associationDescription = try reader.read(UInt32.self)
        sequenceNumber = try reader.read(UInt32.self)
        // Cameras leave the strings out, or cut them short; libgphoto2 reads ObjectInfo without them.
        filename = reader.readTrailingString()
        captureDate = reader.readTrailingString()
        modificationDate = reader.readTrailingString()
        keywords = reader.readTrailingString()
    }

    /// The dataset's wire form.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a string too long for PTP.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 128)
        writer.append(storageID)
        writer.append(format.rawValue)
        writer.append(protectionStatus)
        writer.append(compressedSize)
        writer.append(thumbFormat.rawValue)
        writer.append(thumbCompressedSize)
        writer.append(thumbPixelWidth)
        writer.append(thumbPixelHeight)
        writer.append(imagePixelWidth)
        writer.append(imagePixelHeight)
        writer.append(imageBitDepth)
        writer.append(parentObject)
        writer.append(associationType)
        writer.append(associationDescription)
        writer.append(sequenceNumber)
        try writer.append(string: filename)
        try writer.append(string: captureDate)
        try writer.append(string: modificationDate)
        try writer.append(string: keywords)
        return writer.bytes
    }
}
