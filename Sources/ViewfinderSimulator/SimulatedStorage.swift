import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an object on the simulated card: stored, or made from their offsets as they are sent, for files too
/// big to hold; shared and never changed, so replies send stored bytes without copying.
final class ObjectBytes: Sendable {
    /// The stored bytes; `nil` for generated ones.
    let stored: [UInt8]?
    /// How many bytes the object holds.
    let count: UInt64

    /// The length of a page of generated content, which starts with the page's number.
    static let pageLength: UInt64 = 4096

    init(_ bytes: [UInt8]) {
        stored = bytes
        count = UInt64(bytes.count)
    }

    /// Content of `count` bytes made on the fly: each page of ``pageLength`` bytes starts with its number as a
    /// little-endian 64-bit integer, and its other bytes are the number's low byte.
    init(generatedCount count: UInt64) {
        stored = nil
        self.count = count
    }

    /// Calls `body` with the bytes of `range` in pieces of at most `chunkSize`, saying which is the last; an empty
    /// range gives one empty piece.
    func forEachPiece(
        of range: Range<UInt64>, chunkSize: Int, _ body: (UnsafeRawBufferPointer, _ isLast: Bool) throws -> Void
    ) rethrows {
        let chunk = UInt64(max(chunkSize, 1))
        if let stored {
            try stored.withUnsafeBytes { all in
                var offset = range.lowerBound
                repeat {
                    let end = min(range.upperBound, offset + chunk)
                    try body(UnsafeRawBufferPointer(rebasing: all[Int(offset)..<Int(end)]), end == range.upperBound)
                    offset = end
                } while offset < range.upperBound
            }
            return
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(min(chunk, max(range.upperBound - range.lowerBound, 1))), alignment: 8)
        defer { scratch.deallocate() }
        var offset = range.lowerBound
        repeat {
            let end = min(range.upperBound, offset + chunk)
            let piece = UnsafeMutableRawBufferPointer(rebasing: scratch[..<Int(end - offset)])
            Self.generate(into: piece, from: offset)
            try body(UnsafeRawBufferPointer(piece), end == range.upperBound)
            offset = end
        } while offset < range.upperBound
    }

    /// Writes the generated content from `start` into `buffer`, a page at a time.
    private static func generate(into buffer: UnsafeMutableRawBufferPointer, from start: UInt64) {
        guard let base = buffer.baseAddress else { return }
        var written = 0
        while written < buffer.count {
            let offset = start + UInt64(written)
            let page = offset / pageLength
            let inPage = Int(offset % pageLength)
            let length = min(buffer.count - written, Int(pageLength) - inPage)
            memset(base + written, Int32(truncatingIfNeeded: page & 0xFF), length)
            // The page number's bytes that fall inside this piece.
            for index in inPage..<min(8, inPage + length) {
                base.storeBytes(
                    of: UInt8(truncatingIfNeeded: page >> (8 * index)), toByteOffset: written + index - inPage,
                    as: UInt8.self)
            }
            written += length
        }
    }
}

/// An object on the simulated card: a folder or a file.
struct SimulatedObject: Sendable {
    /// The object's handle.
    let handle: UInt32
    /// What GetObjectInfo returns for it.
    var info: PTPObjectInfo
    /// The file's bytes; `nil` for folders.
    var data: ObjectBytes?
    /// The file's thumbnail, a small JPEG; `nil` when it has none.
    var thumbnail: [UInt8]?
}

/// The simulated memory card: one storage with a DCIM folder and a camera folder inside it.
struct SimulatedStorage: Sendable {
    /// The storage's ID.
    static let storageID: UInt32 = 0x0001_0001
    /// The card's capacity in bytes.
    static let capacity: UInt64 = 32_000_000_000

    private(set) var objects: [UInt32: SimulatedObject] = [:]
    /// Handles in the order the objects were added.
    private(set) var order: [UInt32] = []
    private var nextHandle: UInt32 = 1
    private var nextFileNumber = 1
    /// The handle of the folder new files go to.
    private(set) var cameraFolder: UInt32 = 0
    let volumeLabel: String
    /// How file names begin, such as `DSC_`.
    let filePrefix: String

    /// Creates a card with `DCIM/<folderName>` whose files are named `<filePrefix><number>`.
    init(folderName: String, volumeLabel: String, filePrefix: String, date: String) {
        self.volumeLabel = volumeLabel
        self.filePrefix = filePrefix
        let dcim = addFolder("DCIM", parent: 0, date: date)
        cameraFolder = addFolder(folderName, parent: dcim, date: date)
    }

    private mutating func takeHandle() -> UInt32 {
        defer { nextHandle += 1 }
        return nextHandle
    }

    private mutating func addFolder(_ name: String, parent: UInt32, date: String) -> UInt32 {
        let handle = takeHandle()
        let info = PTPObjectInfo(
            storageID: Self.storageID, format: .association, compressedSize: 0, parentObject: parent,
            associationType: 1, filename: name, captureDate: date, modificationDate: date)
        objects[handle] = SimulatedObject(handle: handle, info: info)
        order.append(handle)
        return handle
    }

    /// The next camera-style file name with `extension`, such as `DSC_0007.JPG` or `IMG_0007.JPG`.
    mutating func nextFilename(extension fileExtension: String) -> String {
        defer { nextFileNumber = nextFileNumber % 9999 + 1 }
        let digits = String(nextFileNumber)
        return filePrefix + String(repeating: "0", count: 4 - digits.count) + digits + "." + fileExtension
    }

    /// Adds a file to the camera folder and returns its handle.
    mutating func addFile(
        named filename: String, format: PTPObjectFormatCode, data: [UInt8], thumbnail: [UInt8]?,
        imageSize: (width: Int, height: Int, thumbWidth: Int, thumbHeight: Int)?, date: String
    ) -> UInt32 {
        addFile(
            named: filename, format: format, content: ObjectBytes(data), thumbnail: thumbnail, imageSize: imageSize,
            date: date)
    }

    /// Adds a file of any content to the camera folder and returns its handle; GetObjectInfo gives the size of a
    /// file of 4 GiB or more as `0xFFFFFFFF`, as MTP says.
    mutating func addFile(
        named filename: String, format: PTPObjectFormatCode, content: ObjectBytes, thumbnail: [UInt8]?,
        imageSize: (width: Int, height: Int, thumbWidth: Int, thumbHeight: Int)?, date: String
    ) -> UInt32 {
        let handle = takeHandle()
        var info = PTPObjectInfo(
            storageID: Self.storageID, format: format, compressedSize: UInt32(clamping: content.count),
            parentObject: cameraFolder, filename: filename, captureDate: date, modificationDate: date)
        if let imageSize, let thumbnail {
            info.thumbFormat = .jfif
            info.thumbCompressedSize = UInt32(thumbnail.count)
            info.thumbPixelWidth = UInt32(imageSize.thumbWidth)
            info.thumbPixelHeight = UInt32(imageSize.thumbHeight)
            info.imagePixelWidth = UInt32(imageSize.width)
            info.imagePixelHeight = UInt32(imageSize.height)
            info.imageBitDepth = imageSize.width > 0 ? 24 : 0
        }
        objects[handle] = SimulatedObject(handle: handle, info: info, data: content, thumbnail: thumbnail)
        order.append(handle)
        return handle
    }

    /// Files a Canon holds for the computer to read, which are not on the card's listing.
    private(set) var heldForTransfer: Set<UInt32> = []

    /// Takes a file off the card's listing: it waits to be read once and removed (Canon's pictures to the computer).
    mutating func holdForTransfer(_ handle: UInt32) {
        heldForTransfer.insert(handle)
    }

    /// Whether a file waits to be read and removed instead of being on the card.
    func isHeldForTransfer(_ handle: UInt32) -> Bool {
        heldForTransfer.contains(handle)
    }

    /// Removes a file.
    mutating func remove(_ handle: UInt32) {
        heldForTransfer.remove(handle)
        objects[handle] = nil
        order.removeAll { $0 == handle }
    }

    /// The handles of the files, not folders, in the order they were added.
    var fileHandles: [UInt32] { order.filter { objects[$0]?.data != nil && !heldForTransfer.contains($0) } }

    /// The bytes the files take.
    var usedBytes: UInt64 { objects.values.reduce(0) { $0 + ($1.data?.count ?? 0) } }

    /// What GetStorageInfo returns.
    var storageInfo: PTPStorageInfo {
        let free = Self.capacity - min(Self.capacity, usedBytes)
        return PTPStorageInfo(
            storageType: 4, filesystemType: 3, accessCapability: 0, maximumCapacity: Self.capacity,
            freeSpaceInBytes: free, freeSpaceInImages: UInt32(clamping: free / 3_000_000),
            storageDescription: "SD card",
            volumeLabel: volumeLabel)
    }

    /// The handles GetObjectHandles returns: everything for parent 0, the root for `0xFFFFFFFF`, else a folder's
    /// children.
    ///
    /// - Returns: The handles and ``PTPResponseCode/ok``, or no handles and the response code that explains why.
    func handles(
        storageID: UInt32, format: PTPObjectFormatCode, parent: UInt32
    ) -> (handles: [UInt32], code: PTPResponseCode) {
        guard storageID == 0xFFFF_FFFF || storageID == Self.storageID else { return ([], .invalidStorageID) }
        if parent != 0, parent != 0xFFFF_FFFF {
            guard let folder = objects[parent] else { return ([], .invalidObjectHandle) }
            guard folder.info.isFolder else { return ([], .invalidParentObject) }
        }
        let matching = order.filter { handle in
            guard let info = objects[handle]?.info, !heldForTransfer.contains(handle) else { return false }
            let inFolder =
                switch parent {
                case 0: true
                case 0xFFFF_FFFF: info.parentObject == 0
                default: info.parentObject == parent
                }
            return inFolder && (format == .any || info.format == format)
        }
        return (matching, .ok)
    }
}
