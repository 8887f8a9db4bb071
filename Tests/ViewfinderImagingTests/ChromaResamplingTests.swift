import CLibYUV
import CViewfinderPixels
import Testing

/// The chroma resampling JPEG decoding does without libyuv, against libyuv's box-filtered `ScalePlane`, which it
/// replaces: equal sample for sample at every size a decode resamples between.
@Suite struct ChromaResamplingTests {
    /// The size of an image's chroma at each subsampling a JPEG may have, for a picture of `width` by `height`.
    static func chromaSizes(width: Int, height: Int) -> [(name: String, width: Int, height: Int)] {
        [
            ("4:4:4", width, height), ("4:2:2", (width + 1) / 2, height), ("4:4:0", width, (height + 1) / 2),
            ("4:1:1", (width + 3) / 4, height),
        ]
    }

    @Test func everySubsamplingResamplesTo420AsLibyuvDoes() {
        var generator = SystemRandomNumberGenerator()
        var differing: [String] = []
        var compared = 0
        for width in 1...90 {
            for height in 1...40 {
                let (targetWidth, targetHeight) = ((width + 1) / 2, (height + 1) / 2)
                for source in Self.chromaSizes(width: width, height: height) {
                    let stride = source.width + 3
                    let samples = (0..<(stride * source.height)).map { _ in UInt8.random(in: 0...255, using: &generator)
                    }
                    var theirs = [UInt8](repeating: 0, count: targetWidth * targetHeight)
                    var ours = theirs
                    var row = [UInt8](repeating: 0, count: source.width)
                    ScalePlane(
                        samples, Int32(stride), Int32(source.width), Int32(source.height), &theirs, Int32(targetWidth),
                        Int32(targetWidth), Int32(targetHeight), kFilterBox)
                    let done = viewfinder_resample_chroma(
                        samples, Int32(stride), Int32(source.width), Int32(source.height), &ours, Int32(targetWidth),
                        Int32(targetWidth), Int32(targetHeight), &row)
                    compared += 1
                    if done == 0 || ours != theirs {
                        differing.append("\(source.name) of \(width)x\(height)")
                    }
                }
            }
        }
        #expect(compared == 90 * 40 * 4)
        #expect(differing.isEmpty, "\(differing.count) differ, such as \(differing.prefix(5))")
    }

    @Test func aTallerOutputIsRefusedUnwritten() {
        let samples = [UInt8](repeating: 7, count: 4)
        var output = [UInt8](repeating: 1, count: 8)
        var row = [UInt8](repeating: 0, count: 2)
        #expect(viewfinder_resample_chroma(samples, 2, 2, 2, &output, 2, 2, 4, &row) == 0)
        #expect(output == [UInt8](repeating: 1, count: 8))
    }
}
