import ViewfinderCore
import ViewfinderImaging

/// Decodes JPEG images in tests to check what the simulator rendered.
enum JPEGProbe {
    /// The size of a JPEG image and the mean luma (0–255) of the rows in `rows` (fractions of the height), or `nil`
    /// when it does not decode.
    static func measure(
        _ jpeg: some Collection<UInt8>, rows: Range<Double> = 0..<1
    ) -> (width: Int, height: Int, meanLuma: Double)? {
        guard let gray = try? JPEGDecoder().decode(jpeg, to: .gray8) else { return nil }
        let first = Int(rows.lowerBound * Double(gray.height))
        let end = max(first + 1, Int(rows.upperBound * Double(gray.height)))
        let sum = gray.withUnsafePlanes { planes in
            var total = 0
            for row in first..<end {
                let start = planes[0].baseAddress + row * planes[0].bytesPerRow
                for byte in UnsafeRawBufferPointer(start: start, count: gray.width) {
                    total += Int(byte)
                }
            }
            return total
        }
        return (gray.width, gray.height, Double(sum) / Double(gray.width * (end - first)))
    }
}
