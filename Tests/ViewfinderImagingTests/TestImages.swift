import Testing
import ViewfinderCore

/// An RGB colour with 8-bit channels.
struct RGB: Hashable, CustomStringConvertible {
    var r: Int
    var g: Int
    var b: Int

    static let red = RGB(r: 255, g: 0, b: 0)
    static let green = RGB(r: 0, g: 255, b: 0)
    static let blue = RGB(r: 0, g: 0, b: 255)
    static let white = RGB(r: 255, g: 255, b: 255)
    static let black = RGB(r: 0, g: 0, b: 0)
    static let grey = RGB(r: 128, g: 128, b: 128)
    static let darkGrey = RGB(r: 64, g: 64, b: 64)
    static let lightGrey = RGB(r: 192, g: 192, b: 192)

    /// The bars of the test images: primaries, white, greys and black.
    static let bars: [RGB] = [.red, .green, .blue, .white, .grey, .darkGrey, .lightGrey, .black]

    var description: String { "(\(r), \(g), \(b))" }

    /// The largest difference of any channel.
    func distance(to other: RGB) -> Int {
        max(abs(r - other.r), abs(g - other.g), abs(b - other.b))
    }
}

/// Textbook BT.601 conversions, written independently of the code under test, in floating point.
enum Reference {
    static func clamp(_ value: Double) -> Int { Int(min(255, max(0, value.rounded()))) }

    /// The Y, Cb, Cr samples of a colour in a range.
    static func ycbcr(_ color: RGB, range: PixelFormat.ColorRange) -> (y: Int, cb: Int, cr: Int) {
        let (r, g, b) = (Double(color.r), Double(color.g), Double(color.b))
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        let cb = (b - y) / 1.772
        let cr = (r - y) / 1.402
        if range == .full {
            return (clamp(y), clamp(128 + cb), clamp(128 + cr))
        }
        return (clamp(16 + y * 219 / 255), clamp(128 + cb * 224 / 255), clamp(128 + cr * 224 / 255))
    }

    /// The colour of Y, Cb, Cr samples in a range.
    static func rgb(y: Int, cb: Int, cr: Int, range: PixelFormat.ColorRange) -> RGB {
        var (luma, blue, red) = (Double(y), Double(cb) - 128, Double(cr) - 128)
        if range != .full {
            luma = (luma - 16) * 255 / 219
            blue = blue * 255 / 224
            red = red * 255 / 224
        }
        let r = luma + 1.402 * red
        let b = luma + 1.772 * blue
        let g = (luma - 0.299 * r - 0.114 * b) / 0.587
        return RGB(r: clamp(r), g: clamp(g), b: clamp(b))
    }

    /// The grey level of a colour: its full-range luma.
    static func gray(_ color: RGB) -> Int { ycbcr(color, range: .full).y }
}

/// Where each format keeps a pixel's samples, for writing and reading test images by hand.
enum Samples {
    /// The plane and byte offset of the pixel's luma (or R, or grey), then Cb (or G), then Cr (or B).
    static func locate(_ format: PixelFormat, x: Int, y: Int, strides: [Int]) -> [(plane: Int, offset: Int)] {
        let row = y * strides[0]
        let chromaRow = strides.count > 1 ? y / 2 * strides[1] : 0
        let pair = x / 2 * 2
        switch format.fourCC.description {
        case "NV12": return [(0, row + x), (1, chromaRow + pair), (1, chromaRow + pair + 1)]
        case "NV21": return [(0, row + x), (1, chromaRow + pair + 1), (1, chromaRow + pair)]
        case "YU12": return [(0, row + x), (1, chromaRow + x / 2), (2, y / 2 * strides[2] + x / 2)]
        case "YUYV": return [(0, row + x * 2), (0, row + pair * 2 + 1), (0, row + pair * 2 + 3)]
        case "UYVY": return [(0, row + x * 2 + 1), (0, row + pair * 2), (0, row + pair * 2 + 2)]
        case "RGB3": return [(0, row + x * 3), (0, row + x * 3 + 1), (0, row + x * 3 + 2)]
        case "BGR3": return [(0, row + x * 3 + 2), (0, row + x * 3 + 1), (0, row + x * 3)]
        case "AR24", "XR24": return [(0, row + x * 4 + 2), (0, row + x * 4 + 1), (0, row + x * 4)]
        case "AB24", "XB24": return [(0, row + x * 4), (0, row + x * 4 + 1), (0, row + x * 4 + 2)]
        case "BA24", "BX24": return [(0, row + x * 4 + 1), (0, row + x * 4 + 2), (0, row + x * 4 + 3)]
        case "RA24", "RX24": return [(0, row + x * 4 + 3), (0, row + x * 4 + 2), (0, row + x * 4 + 1)]
        default: return [(0, row + x)]
        }
    }

    /// Where a four-byte format keeps its alpha or padding byte, and the value test images put there.
    static func fourthByte(_ format: PixelFormat) -> (offset: Int, value: UInt8)? {
        switch format.fourCC.description {
        case "AR24", "AB24": (3, 255)
        case "BA24", "RA24": (0, 255)
        case "XR24", "XB24": (3, 0x11)
        case "BX24", "RX24": (0, 0x11)
        default: nil
        }
    }

    /// Whether the format stores Y, Cb, Cr (rather than R, G, B or grey).
    static func isYCbCr(_ format: PixelFormat) -> Bool {
        ["NV12", "NV21", "YU12", "YUYV", "UYVY"].contains(format.fourCC.description)
    }
}

/// Test images: filled by hand, read back by hand.
enum TestImage {
    /// Makes an image whose pixel (x, y) has `color(x, y)`, with `padding` spare bytes at the end of every row.
    ///
    /// Chroma shared by several pixels takes the colour of the top-left one; spare bytes are 0xEE. Alpha is 255,
    /// padding bytes 0x11.
    static func make(
        width: Int, height: Int, format: PixelFormat, padding: Int = 0, color: (Int, Int) -> RGB
    ) throws -> PixelBuffer {
        let strides = format.planes.indices.map { format.bytesPerRow(ofPlane: $0, width: width) + padding }
        let sizes = format.planes.indices.map { strides[$0] * format.planes[$0].rows(height: height) }
        let memory = sizes.map { size -> UnsafeMutableRawBufferPointer in
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0xEE)
            return bytes
        }
        for y in 0..<height {
            for x in 0..<width {
                let value = color(x, y)
                let spots = Samples.locate(format, x: x, y: y, strides: strides)
                let samples: [Int]
                if Samples.isYCbCr(format) {
                    let luma = Reference.ycbcr(value, range: format.colorRange).y
                    let ownerY = format.planes.count > 1 ? y & ~1 : y
                    let owner = Reference.ycbcr(color(x & ~1, ownerY), range: format.colorRange)
                    samples = [luma, owner.cb, owner.cr]
                } else if spots.count == 1 {
                    samples = [Reference.gray(value)]
                } else {
                    samples = [value.r, value.g, value.b]
                }
                for (spot, sample) in zip(spots, samples) {
                    memory[spot.plane][spot.offset] = UInt8(sample)
                }
                if let (offset, value) = Samples.fourthByte(format) {
                    memory[0][y * strides[0] + x * 4 + offset] = value
                }
            }
        }
        let planes = format.planes.indices.map {
            PixelBuffer.Plane(
                baseAddress: UnsafeRawPointer(memory[$0].baseAddress!), bytesPerRow: strides[$0],
                width: format.planes[$0].elementsPerRow(width: width), height: format.planes[$0].rows(height: height),
                byteCount: sizes[$0])
        }
        let owned = UncheckedBox(memory)
        return try PixelBuffer(width: width, height: height, format: format, borrowing: planes) {
            for bytes in owned.value { bytes.deallocate() }
        }
    }

    /// Makes vertical colour bars, each `barWidth` pixels wide, cycling through ``RGB/bars``.
    static func bars(width: Int, height: Int, format: PixelFormat, barWidth: Int = 16, padding: Int = 0) throws
        -> PixelBuffer
    {
        try make(width: width, height: height, format: format, padding: padding, color: barColor(barWidth: barWidth))
    }

    /// The colour at (x, y) of a bars image.
    static func barColor(barWidth: Int = 16) -> (Int, Int) -> RGB {
        { x, _ in RGB.bars[(x / barWidth) % RGB.bars.count] }
    }

    /// The centres of the bars of a bars image, on two rows.
    static func barCentres(width: Int, height: Int, barWidth: Int = 16) -> [(Int, Int)] {
        stride(from: barWidth / 2, to: width, by: barWidth).flatMap { [($0, height / 4), ($0, height * 3 / 4)] }
    }

    /// Reads the colour of pixel (x, y) by hand.
    static func pixel(_ buffer: PixelBuffer, x: Int, y: Int) -> RGB {
        buffer.withUnsafePlanes { planes in
            let spots = Samples.locate(buffer.format, x: x, y: y, strides: planes.map(\.bytesPerRow))
            let samples = spots.map { Int(planes[$0.plane].bytes[$0.offset]) }
            if Samples.isYCbCr(buffer.format) {
                return Reference.rgb(y: samples[0], cb: samples[1], cr: samples[2], range: buffer.format.colorRange)
            }
            if samples.count == 1 {
                return RGB(r: samples[0], g: samples[0], b: samples[0])
            }
            return RGB(r: samples[0], g: samples[1], b: samples[2])
        }
    }

    /// The colour a format can hold for `color`: greyscale keeps only luma.
    static func representable(_ color: RGB, in format: PixelFormat) -> RGB {
        guard format.fourCC == "GREY" else { return color }
        let gray = Reference.gray(color)
        return RGB(r: gray, g: gray, b: gray)
    }

    /// Expects every listed pixel of `buffer` within `tolerance` of `expected(x, y)` in every channel.
    static func expectColors(
        _ buffer: PixelBuffer, tolerance: Int, at points: [(Int, Int)], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation, expected: (Int, Int) -> RGB
    ) {
        for (x, y) in points {
            let want = representable(expected(x, y), in: buffer.format)
            let got = pixel(buffer, x: x, y: y)
            #expect(
                got.distance(to: want) <= tolerance,
                "\(context): pixel (\(x), \(y)) is \(got), expected \(want) ± \(tolerance)",
                sourceLocation: sourceLocation)
        }
    }

    /// Every pixel of a `width` × `height` image.
    static func everyPixel(width: Int, height: Int) -> [(Int, Int)] {
        (0..<height).flatMap { y in (0..<width).map { ($0, y) } }
    }
}

/// Carries memory into a `@Sendable` release callback; the buffer owning it is its only user.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The uncompressed formats the core names.
let uncompressedFormats: [PixelFormat] = PixelFormat.allNamed.filter { !$0.isCompressed }
