import ViewfinderCore

/// One live view frame from a Canon EOS camera: the blobs of GetViewFinderData, one of them a JPEG image.
///
/// The data is a run of blobs, each `[u32 length][u32 type][data]` with the length counting its own header; the
/// image is the blob of type 1 (or 11, on some bodies). The other blobs (the histogram, the focus frame) are skipped.
public struct PTPCanonEOSLiveViewFrame: Sendable {
    /// The bytes GetViewFinderData returned.
    public let data: [UInt8]
    /// Where the JPEG image is in ``data``.
    public let jpegRange: Range<Int>

    /// The blob types that hold the image.
    static let imageTypes: Set<UInt32> = [1, 11]

    /// Finds the JPEG image among the blobs of GetViewFinderData.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when a blob's length runs past the data or no blob holds
    ///   an image.
    public init(data: [UInt8]) throws(ViewfinderError) {
        var offset = 0
        while data.count - offset >= 8 {
            let length = Int(data.littleEndianUInt32(at: offset))
            guard length >= 8, length <= data.count - offset else {
                throw ViewfinderError(
                    .malformedData,
                    "a live view blob at byte \(offset) claims \(length) bytes of the \(data.count) the camera sent")
            }
            if Self.imageTypes.contains(data.littleEndianUInt32(at: offset + 4)) {
                self.data = data
                jpegRange = (offset + 8)..<(offset + length)
                return
            }
            offset += length
        }
        throw ViewfinderError(.malformedData, "the camera's live view data of \(data.count) bytes holds no JPEG image")
    }

    /// The JPEG image, without copying it.
    public var jpeg: ArraySlice<UInt8> { data[jpegRange] }

    /// GetViewFinderData's answer holding one image blob, as a camera sends it.
    public static func encode(jpeg: some Collection<UInt8>) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 8 + jpeg.count)
        writer.append(UInt32(8 + jpeg.count))
        writer.append(UInt32(1))
        writer.append(bytes: jpeg)
        return writer.bytes
    }
}
