import ViewfinderCore
import ViewfinderImaging

/// Decodes JPEG images in tests to check what the simulator rendered.
enum JPEGProbe {
    /// The size and mean luma (0–255) of a JPEG image, or `nil` when it does not decode.
    static func measure(_ jpeg: some Collection<UInt8>) -> (width: Int, height: Int, meanLuma: Double)? {
        guard let gray = try? JPEGDecoder().decode(jpeg, to: .gray8) else { return nil }
        let sum = gray.withUnsafePlanes { planes in
            var total = 0
            for row in 0..<planes[0].height {
                let start = planes[0].baseAddress + row * planes[0].bytesPerRow
                for byte in UnsafeRawBufferPointer(start: start, count: gray.width) {
                    total += Int(byte)
                }
            }
            return total
        }
        return (gray.width, gray.height, Double(sum) / Double(gray.width * gray.height))
    }
}
