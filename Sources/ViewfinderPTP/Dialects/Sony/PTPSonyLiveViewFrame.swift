import ViewfinderCore

/// One live view frame from a Sony camera: the object at ``PTPSonyLiveViewFrame/handle``, a header and a JPEG image.
///
/// The data starts with `[u32 offset][u32 size]`: where the image starts and how long it is; what lies between the
/// header and the image (focus frames, on some bodies) is skipped. A header whose offset does not point at a JPEG's
/// start (one body's blob held the bytes FF D8 before its image, gphoto2 #389) is passed over: the image is then the
/// first JPEG found after the header.
public struct PTPSonyLiveViewFrame: Sendable {
    /// The object handle live view frames are read from, with GetObjectInfo and GetObject.
    public static let handle: UInt32 = 0xFFFF_C002
    /// The object handle of a picture the camera holds in its memory for the computer.
    public static let pictureHandle: UInt32 = 0xFFFF_C001
    /// The length of the header the simulated camera and ``encode(jpeg:)`` write: the offset and the size.
    static let headerLength = 8

    /// Where the JPEG image is in the data of a live view frame.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the data holds no JPEG image.
    public static func jpegRange(in data: [UInt8]) throws(ViewfinderError) -> Range<Int> {
        var start: Int?
        if data.count >= headerLength {
            let offset = Int(data.littleEndianUInt32(at: 0))
            let size = Int(data.littleEndianUInt32(at: 4))
            if offset >= headerLength, offset <= data.count - 2, data[offset] == 0xFF, data[offset + 1] == 0xD8 {
                if size >= 4, size <= data.count - offset, data[offset + size - 2] == 0xFF,
                    data[offset + size - 1] == 0xD9
                {
                    return offset..<offset + size
                }
                start = offset
            }
        }
        let from = start ?? PTPNikonLiveViewFrame.firstStartOfImage(in: data, from: min(headerLength, data.count))
        guard let from, let end = PTPNikonLiveViewFrame.lastEndOfImage(in: data), end > from + 2 else {
            throw ViewfinderError(.malformedData, "a Sony live view frame of \(data.count) bytes holds no JPEG image")
        }
        return from..<end
    }

    /// A live view frame holding `jpeg` right after the header, as the simulated camera sends it.
    public static func encode(jpeg: some Collection<UInt8>) -> [UInt8] {
        var writer = PTPDataWriter(capacity: headerLength + jpeg.count)
        writer.append(UInt32(headerLength))
        writer.append(UInt32(jpeg.count))
        writer.append(bytes: jpeg)
        return writer.bytes
    }
}
