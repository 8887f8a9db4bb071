import Testing
import ViewfinderCore
import ViewfinderImaging

@Suite struct SharingTests {
    @Test func oneDecoderEncoderAndConverterServeManyTasksAtOnce() async throws {
        let decoder = JPEGDecoder()
        let encoder = JPEGEncoder()
        let converter = PixelConverter()
        let image = try TestImage.bars(width: 64, height: 16, format: .yuyv)
        let jpeg = try encoder.encode(try converter.convert(image, to: .nv12FullRange), quality: 95)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    for round in 0..<20 {
                        let format = [PixelFormat.bgra, .nv12VideoRange, .rgb24][(task + round) % 3]
                        let decoded = try decoder.decode(jpeg, to: format)
                        let converted = try converter.convert(image, to: format)
                        let turned = try converter.rotate(converted, by: .clockwise180)
                        _ = try encoder.encode(turned, quality: 80) { $0.count }
                        for buffer in [decoded, converted] {
                            TestImage.expectColors(
                                buffer, tolerance: 2, at: TestImage.barCentres(width: 64, height: 16),
                                "task \(task) round \(round) \(format)", expected: TestImage.barColor())
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
