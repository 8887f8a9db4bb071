// ViewfinderImaging at 1920x1080 against the same libyuv and libjpeg-turbo calls made directly, against ffmpeg doing
// the same work in the same run, and against a plain memory copy of the same bytes.
//
// Usage: imaging-benchmark   (build it with `-c release`; `make bench-imaging` does both)
import AllocationCounter
import CLibYUV
import CTurboJPEG
import CViewfinderPixels
import ViewfinderCore
import ViewfinderImaging

#if canImport(Glibc)
import Glibc
#endif

let width = 1920
let height = 1080
let quality: Int32 = 85
let decodeFlags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING

/// A made-up scene with gradients, edges and fine texture, so JPEG has realistic work to do.
func makeScene() throws -> PixelBuffer {
    var noise: UInt32 = 12345
    return try PixelBuffer(width: width, height: height, format: .bgra) { planes in
        let plane = planes[0]
        for y in 0..<height {
            let row = plane.baseAddress.advanced(by: y * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                noise = noise &* 1_103_515_245 &+ 12345
                let grain = Int(noise >> 28) - 8
                let edge = ((x / 96) ^ (y / 72)) & 1 == 0 ? 40 : 0
                row[x * 4] = UInt8(clamping: x * 255 / width + grain)
                row[x * 4 + 1] = UInt8(clamping: y * 255 / height + edge + grain)
                row[x * 4 + 2] = UInt8(clamping: 255 - x * 200 / width + edge)
                row[x * 4 + 3] = 255
            }
        }
    }
}

/// Writable memory shaped like a pool buffer of `format`, for the direct calls to write into.
func destination(_ format: PixelFormat) -> [UnsafeMutablePointer<UInt8>] {
    format.planes.indices.map { index in
        let bytes = format.bytesPerRow(ofPlane: index, width: width) * format.planes[index].rows(height: height)
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64).bindMemory(
            to: UInt8.self, capacity: bytes)
    }
}

/// The planes of a buffer, for direct calls; the buffer outlives the benchmark.
func planes(of buffer: PixelBuffer) -> [(UnsafeMutablePointer<UInt8>, Int32)] {
    buffer.withUnsafePlanes { planes in
        planes.map {
            (UnsafeMutablePointer(mutating: $0.baseAddress.assumingMemoryBound(to: UInt8.self)), Int32($0.bytesPerRow))
        }
    }
}

/// Stops the benchmark when a pool runs out, which would mean buffers are not coming back.
func expectBuffer(_ buffer: PixelBuffer?) {
    precondition(buffer != nil, "a pool ran out of buffers")
}

func pool(_ format: PixelFormat) throws -> PixelBufferPool {
    try PixelBufferPool(width: width, height: height, format: format, capacity: 2)
}

let converter = PixelConverter()
let decoder = JPEGDecoder()
let encoder = JPEGEncoder()

let scene = try makeScene()
let yuyv = try PixelBuffer(width: width, height: height, format: .yuyv) { target in
    let source = planes(of: scene)[0]
    ARGBToYUY2(
        source.0, source.1, target[0].baseAddress.assumingMemoryBound(to: UInt8.self), Int32(target[0].bytesPerRow),
        Int32(width), Int32(height))
}
let nv12 = try converter.convert(scene, to: .nv12FullRange)
let jpeg = try encoder.encode(nv12, quality: Int(quality))
let (w, h) = (Int32(width), Int32(height))

print("ViewfinderImaging benchmark: \(width)x\(height), JPEG quality \(quality) (\(jpeg.count) bytes)")
print(
    "Times are CPU time of the measuring thread per frame, the median of 41 rounds of about 10 ms, Viewfinder and\n"
        + "the direct calls interleaved round by round; ffmpeg's are its user + system time, one thread.\n")

var results: [Comparison] = []

// A plain copy of the YUYV frame's bytes: the floor for any pass over them.
let yuyvBytes = width * 2 * height
let copyTarget = UnsafeMutableRawPointer.allocate(byteCount: yuyvBytes, alignment: 64)
let yuyvSource = planes(of: yuyv)[0]
let memcpyTime = median((0..<41).map { _ in secondsPerCall(100) { memcpy(copyTarget, yuyvSource.0, yuyvBytes) } })

// YUYV to NV12, both video range: one libyuv call.
do {
    let output = try pool(.nv12VideoRange)
    let target = destination(.nv12VideoRange)
    results.append(
        try compare("YUYV → NV12 (video range)") {
            expectBuffer(try converter.convert(yuyv, into: output))
        } direct: {
            YUY2ToNV12(yuyvSource.0, yuyvSource.1, target[0], w, target[1], w, w, h)
        })
}

// YUYV (video range) to NV12 full range, as a V4L2 webcam's frames become NV12 for processors: libyuv's layout
// conversion and the range map.
do {
    let output = try pool(.nv12FullRange)
    let target = destination(.nv12FullRange)
    results.append(
        try compare("YUYV → NV12 (video → full range)") {
            expectBuffer(try converter.convert(yuyv, into: output))
        } direct: {
            YUY2ToNV12(yuyvSource.0, yuyvSource.1, target[0], w, target[1], w, w, h)
            viewfinder_map_plane(target[0], w, target[0], w, w, h, 298, -16 * 298 + 128)
            viewfinder_map_plane(target[1], w, target[1], w, w, h / 2, 291, 128 * 256 - 128 * 291 + 128)
        })
}

// NV12 (full range) to BGRA with the JPEG coefficients.
let nv12Planes = planes(of: nv12)
do {
    let output = try pool(.bgra)
    let target = destination(.bgra)
    results.append(
        try compare("NV12 (full range) → BGRA") {
            expectBuffer(try converter.convert(nv12, into: output))
        } direct: {
            NV12ToARGBMatrix(
                nv12Planes[0].0, nv12Planes[0].1, nv12Planes[1].0, nv12Planes[1].1, target[0], 4 * w,
                viewfinder_yuv_bt601_full(), w, h)
        })
}

// I420 full range (a JPEG's own samples) to YUYV, video range, as a webcam output takes it: Viewfinder packs and maps
// the range in one pass; the direct calls map the planes into video range, then pack them with libyuv.
do {
    let i420 = try converter.convert(nv12, to: .i420FullRange)
    let source = planes(of: i420)
    let output = try pool(.yuyv)
    let mapped = destination(.i420)
    let target = destination(.yuyv)
    results.append(
        try compare("I420 (full range) → YUYV") {
            expectBuffer(try converter.convert(i420, into: output))
        } direct: {
            viewfinder_map_plane(source[0].0, source[0].1, mapped[0], w, w, h, 220, 16 * 256 + 128)
            viewfinder_map_plane(source[1].0, source[1].1, mapped[1], w / 2, w / 2, h / 2, 225, 4096)
            viewfinder_map_plane(source[2].0, source[2].1, mapped[2], w / 2, w / 2, h / 2, 225, 4096)
            I420ToYUY2(mapped[0], w, mapped[1], w / 2, mapped[2], w / 2, target[0], 2 * w, w, h)
        })
}

// I420 full range at 1280x720, enlarged to 1920x1080 YUYV in video range, as a webcam output fits a camera's live view:
// Viewfinder scales, maps and packs in one pass; the direct calls scale with libyuv (bilinear), then map and pack the
// scaled planes in one pass.
do {
    let small = try converter.convert(
        try converter.scale(nv12, to: Dimensions(width: 1280, height: 720)), to: .i420FullRange)
    let source = planes(of: small)
    let scaled = destination(.i420)
    let target = destination(.yuyv)
    results.append(
        try compare("I420 720p → YUYV 1080p, scaled") {
            try converter.scaleAndPack(
                small, to: Dimensions(width: width, height: height), into: target[0], bytesPerRow: 2 * width,
                format: .yuyv)
        } direct: {
            I420Scale(
                source[0].0, source[0].1, source[1].0, source[1].1, source[2].0, source[2].1, 1280, 720, scaled[0], w,
                scaled[1], w / 2, scaled[2], w / 2, w, h, kFilterBilinear)
            _ = viewfinder_pack_yuyv_mapped(
                scaled[0], w, scaled[1], w / 2, scaled[2], w / 2, target[0], 2 * w, w, h, 220, 16 * 256 + 128, 225, 4096
            )
        })
}

// JPEG decoding: planar YCbCr from TurboJPEG, chroma interleaved by libyuv; and BGRA straight from TurboJPEG.
let decompressor = tjInitDecompress()

// Reads the JPEG header, as any caller must to learn the image's size before decoding it.
let readHeader = {
    var (imageWidth, imageHeight, subsampling, colorSpace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    let status = jpeg.withUnsafeBufferPointer {
        tjDecompressHeader3(
            decompressor, $0.baseAddress, UInt($0.count), &imageWidth, &imageHeight, &subsampling, &colorSpace)
    }
    precondition(status == 0 && imageWidth == w && imageHeight == h)
}
let chroma = destination(.i420)
do {
    let output = try pool(.nv12FullRange)
    let target = destination(.nv12FullRange)
    // The argument arrays are made once, as a caller decoding a stream would.
    let decodePlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 3)
    decodePlanes.initialize(from: [target[0], chroma[1], chroma[2]], count: 3)
    let decodeStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
    decodeStrides.initialize(from: [w, w / 2, w / 2], count: 3)
    results.append(
        try compare("JPEG → NV12 (full range)") {
            expectBuffer(try decoder.decode(jpeg, into: output))
        } direct: {
            readHeader()
            let status = jpeg.withUnsafeBufferPointer {
                tjDecompressToYUVPlanes(
                    decompressor, $0.baseAddress, UInt($0.count), decodePlanes, w, decodeStrides, h, decodeFlags)
            }
            precondition(status == 0)
            MergeUVPlane(chroma[1], w / 2, chroma[2], w / 2, target[1], w, w / 2, h / 2)
        })
}
do {
    let output = try pool(.bgra)
    let target = destination(.bgra)
    results.append(
        try compare("JPEG → BGRA") {
            expectBuffer(try decoder.decode(jpeg, into: output))
        } direct: {
            readHeader()
            let status = jpeg.withUnsafeBufferPointer {
                tjDecompress2(
                    decompressor, $0.baseAddress, UInt($0.count), target[0], w, 4 * w, h, TJPF_BGRA.rawValue,
                    decodeFlags)
            }
            precondition(status == 0)
        })
}

// A 640x424 live view frame into a 1280x720 YUYV webcam output, the two ways a video output can take: Viewfinder's
// column decodes at full size and scales the picture to fit as it packs it (1086x720); the direct column decodes at
// 13/8 in the JPEG transform (1040x689) and packs that.
do {
    let small = try converter.scale(nv12, to: Dimensions(width: 640, height: 424))
    let liveView = try encoder.encode(small, quality: 80)
    let decoded = try PixelBufferPool(width: 640, height: 424, format: .i420FullRange, capacity: 2)
    let fitted = Dimensions(width: 1086, height: 720)
    let target = destination(.yuyv)
    let enlarged = UnsafeMutablePointer<UInt8>.allocate(capacity: 1040 * 689 * 3 / 2 + 1040)
    let enlargedPlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 3)
    enlargedPlanes.initialize(from: [enlarged, enlarged + 1040 * 689, enlarged + 1040 * 689 + 520 * 345], count: 3)
    let enlargedStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
    enlargedStrides.initialize(from: [1040, 520, 520], count: 3)
    results.append(
        try compare("live view JPEG → YUYV 720p") {
            let picture = try decoder.decode(liveView, into: decoded)
            expectBuffer(picture)
            try converter.scaleAndPack(
                picture!, to: fitted, into: target[0] + 2 * 96, bytesPerRow: 2 * width, format: .yuyv)
        } direct: {
            var (imageWidth, imageHeight, subsampling, colorSpace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            let status = liveView.withUnsafeBufferPointer {
                tjDecompressHeader3(
                    decompressor, $0.baseAddress, UInt($0.count), &imageWidth, &imageHeight, &subsampling,
                    &colorSpace) == 0 && imageWidth == 640
                    ? tjDecompressToYUVPlanes(
                        decompressor, $0.baseAddress, UInt($0.count), enlargedPlanes, 1040, enlargedStrides, 689,
                        decodeFlags) : -1
            }
            precondition(status == 0)
            _ = viewfinder_pack_yuyv_mapped(
                enlarged, 1040, enlargedPlanes[1], 520, enlargedPlanes[2], 520, target[0] + 2 * 120, 2 * w, 1040,
                689, 220, 16 * 256 + 128, 225, 4096)
        })
}

// JPEG encoding from NV12: chroma separated by libyuv, planes compressed by TurboJPEG into a reused buffer.
do {
    let compressor = tjInitCompress()
    let capacity = tjBufSize(w, h, Int32(TJSAMP_420.rawValue))
    let output = tjAlloc(Int32(capacity))
    let encodePlanes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 3)
    encodePlanes.initialize(
        from: [UnsafePointer(nv12Planes[0].0), UnsafePointer(chroma[1]), UnsafePointer(chroma[2])], count: 3)
    let encodeStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 3)
    encodeStrides.initialize(from: [nv12Planes[0].1, w / 2, w / 2], count: 3)
    var encodedSize = 0
    results.append(
        try compare("NV12 (full range) → JPEG") {
            encodedSize = try encoder.encode(nv12, quality: Int(quality)) { $0.count }
        } direct: {
            SplitUVPlane(nv12Planes[1].0, nv12Planes[1].1, chroma[1], w / 2, chroma[2], w / 2, w / 2, h / 2)
            var buffer = output
            var size = capacity
            let status = tjCompressFromYUVPlanes(
                compressor, encodePlanes, w, encodeStrides, h, Int32(TJSAMP_420.rawValue), &buffer, &size, quality,
                TJFLAG_NOREALLOC)
            precondition(status == 0)
        })
    precondition(encodedSize > 0)
}

// ffmpeg doing the same work, one thread, in the same run.
var template = Array("/tmp/imaging-benchmark-XXXXXX".utf8CString)
guard let made = mkdtemp(&template) else { fatalError("cannot make a temporary directory") }
let workDirectory = String(cString: made)
if let ffmpeg = FFmpeg(directory: workDirectory) {
    let yuyvFile = "\(workDirectory)/frame.yuyv"
    let nv12File = "\(workDirectory)/frame.nv12"
    let jpegFile = "\(workDirectory)/frame.jpg"
    yuyv.withUnsafeBytes(ofPlane: 0) { writeFile(yuyvFile, $0) }
    // The NV12 file holds the planes back to back, as ffmpeg's rawvideo reader expects.
    var nv12Bytes = [UInt8]()
    nv12.withUnsafePlanes { planes in
        for plane in planes {
            for row in 0..<plane.height {
                nv12Bytes += UnsafeRawBufferPointer(start: plane.baseAddress + row * plane.bytesPerRow, count: width)
            }
        }
    }
    nv12Bytes.withUnsafeBytes { writeFile(nv12File, $0) }
    jpeg.withUnsafeBytes { writeFile(jpegFile, $0) }
    let raw = ["-f", "rawvideo", "-video_size", "\(width)x\(height)"]
    let yuyvInput = raw + ["-pix_fmt", "yuyv422"]
    let nv12Input = raw + ["-pix_fmt", "nv12"]
    let jpegInput = ["-f", "mjpeg"]
    let cases: [(String, [String], String, Int, [String], [String])] = [
        ("YUYV → NV12 (video range)", yuyvInput, yuyvFile, 200, [], ["-pix_fmt", "nv12"]),
        (
            "YUYV → NV12 (video → full range)", yuyvInput, yuyvFile, 200, [],
            ["-vf", "scale=in_range=tv:out_range=pc", "-pix_fmt", "nv12"]
        ),
        ("NV12 (full range) → BGRA", nv12Input, nv12File, 200, [], ["-vf", "scale=in_range=pc", "-pix_fmt", "bgra"]),
        (
            "JPEG → NV12 (full range)", jpegInput, jpegFile, 100, ["-c:v", "copy"],
            ["-vf", "scale=in_range=pc:out_range=pc", "-pix_fmt", "nv12"]
        ),
        ("JPEG → BGRA", jpegInput, jpegFile, 100, ["-c:v", "copy"], ["-pix_fmt", "bgra"]),
        (
            "NV12 (full range) → JPEG", nv12Input, nv12File, 50, [],
            ["-pix_fmt", "yuvj420p", "-c:v", "mjpeg", "-q:v", "3"]
        ),
    ]
    for (name, input, file, frames, baseline, work) in cases {
        let index = results.firstIndex { $0.name == name }!
        results[index].ffmpeg = ffmpeg.secondsPerFrame(
            input: input, file: file, frames: frames, baseline: baseline, work: work)
    }
    for file in [yuyvFile, nv12File, jpegFile, "\(workDirectory)/ffmpeg.log"] { unlink(file) }
} else {
    print("ffmpeg is not on the PATH: its column is empty and its target is not judged.\n")
}
rmdir(workDirectory)

// The report.
print(
    padded("operation", 38) + padded("Viewfinder", 13) + padded("direct", 13) + padded("VF/direct", 11)
        + padded("ffmpeg", 13) + padded("ffmpeg/VF", 11) + "allocations per frame (VF, direct)")
print(padded("memcpy of the YUYV frame (\(yuyvBytes) B)", 38) + padded("-", 13) + milliseconds(memcpyTime))
for result in results {
    print(
        padded(result.name, 38) + padded(milliseconds(result.viewfinder), 13) + padded(milliseconds(result.direct), 13)
            + padded(ratio(result.overhead), 11) + padded(milliseconds(result.ffmpeg), 13)
            + padded(ratio(result.speedUpOverFFmpeg), 11)
            + "\(ratio(result.viewfinderAllocations)), \(ratio(result.directAllocations))")
}

func verdict(_ met: Bool) -> String { met ? "met    " : "NOT MET" }

print("\nTargets")
let worst = results.max { $0.overhead < $1.overhead }!
print(
    "  [\(verdict(worst.overhead <= 1.10))] Viewfinder within 10% of the direct calls: worst \(ratio(worst.overhead)) "
        + "(\(worst.name))")
let conversions = results.filter { !$0.name.contains("JPEG") }
let codecs = results.filter { $0.name.contains("JPEG") }
for (label, group) in [("conversions", conversions), ("JPEG", codecs)] {
    let compared = group.filter { $0.ffmpeg != nil }
    guard let slowest = compared.min(by: { $0.speedUpOverFFmpeg! < $1.speedUpOverFFmpeg! }) else { continue }
    let speedUp = slowest.speedUpOverFFmpeg!
    print("  [\(verdict(speedUp >= 5))] at least 5x ffmpeg, \(label): least \(ratio(speedUp))x (\(slowest.name))")
}
let yuyvToNV12 = results[0]
let speedOfCopy = memcpyTime / yuyvToNV12.viewfinder
print(
    "  [\(verdict(speedOfCopy >= 0.8))] YUYV → NV12 at least 80% of memcpy speed: \(ratio(speedOfCopy * 100))% "
        + "(\(milliseconds(yuyvToNV12.viewfinder)) against \(milliseconds(memcpyTime)))")
let withRangeChange = memcpyTime / results[1].viewfinder
print("  [info   ] YUYV → NV12 with the range change: \(ratio(withRangeChange * 100))% of memcpy speed")
let conversionAllocations = conversions.map(\.viewfinderAllocations).max() ?? 0
print(
    "  [\(verdict(conversionAllocations == 0))] zero allocations per frame, conversions: at most "
        + ratio(conversionAllocations))
let extra = results.map { $0.viewfinderAllocations - $0.directAllocations }.max()!
print(
    "  [\(verdict(extra <= 0))] zero allocations per frame added by Viewfinder, JPEG: at most \(ratio(max(extra, 0)))")
let turboJPEG = codecs.map(\.directAllocations)
print(
    "  [info   ] TurboJPEG itself allocates \(ratio(turboJPEG.min() ?? 0)) to \(ratio(turboJPEG.max() ?? 0)) times per "
        + "image (libjpeg's memory pools), called directly or through Viewfinder")
