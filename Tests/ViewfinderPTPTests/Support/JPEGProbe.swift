import CTurboJPEG
import ViewfinderCore

/// Decodes JPEG images in tests to check what the simulator rendered.
enum JPEGProbe {
    /// The size and mean luma (0–255) of a JPEG image, or `nil` when it does not decode.
    static func measure(_ jpeg: some Collection<UInt8>) -> (width: Int, height: Int, meanLuma: Double)? {
        let bytes = Array(jpeg)
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
        else { return nil }
        var gray = [UInt8](repeating: 0, count: Int(width * height))
        guard
            tjDecompress2(
                handle, bytes, UInt(bytes.count), &gray, width, width, height, Int32(TJPF_GRAY.rawValue), 0) == 0
        else { return nil }
        let sum = gray.reduce(0) { $0 + Int($1) }
        return (Int(width), Int(height), Double(sum) / Double(max(gray.count, 1)))
    }
}
