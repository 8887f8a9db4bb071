/// Checks that bytes are a whole baseline or progressive JPEG image, without decoding it.
public enum JPEGCheck {
    /// The image's size from its start-of-frame segment, when the bytes start with SOI, end with EOI, and have a
    /// well-formed chain of segments up to the frame header; `nil` otherwise.
    public static func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8,
            bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
        else { return nil }
        var offset = 2
        while offset + 9 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader {
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }
}
