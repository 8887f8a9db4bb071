import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// The simulator's test scene: colour bars, a grey ramp and a grey step wedge in stops, with a yellow marker that
/// moves across the bars as time passes.
///
/// The scene is described in linear reflectances; ``render(width:height:lighting:time:)`` lights it, applies the
/// exposure and the camera's white balance, encodes it with a 2.2 gamma and writes it as full-range NV12. Every
/// region is one repeated row, so rendering costs a few row copies per image line.
struct TestScene {
    /// How the rendered image is exposed and tinted.
    struct Lighting: Equatable {
        /// How much light reaches the sensor compared with a correct exposure: 1 is correct, 2 one stop over.
        var exposure: Double = 1
        /// Per-channel gains from the camera's white balance, for red, green and blue.
        var gains: (red: Double, green: Double, blue: Double) = (1, 1, 1)

        static func == (lhs: Lighting, rhs: Lighting) -> Bool {
            lhs.exposure == rhs.exposure && lhs.gains == rhs.gains
        }
    }

    private struct RGB {
        var red: Double
        var green: Double
        var blue: Double
    }

    private static let bars: [RGB] = [
        RGB(red: 0.75, green: 0.75, blue: 0.75), RGB(red: 0.75, green: 0.75, blue: 0),
        RGB(red: 0, green: 0.75, blue: 0.75), RGB(red: 0, green: 0.75, blue: 0), RGB(red: 0.75, green: 0, blue: 0.75),
        RGB(red: 0.75, green: 0, blue: 0), RGB(red: 0, green: 0, blue: 0.75),
    ]
    private static let marker = RGB(red: 0.85, green: 0.8, blue: 0.05)
    private static let stepCount = 10

    /// Renders the scene as a new full-range NV12 buffer.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - lighting: The exposure and white balance.
    ///   - time: Seconds since some start; the marker crosses the picture every five seconds.
    static func render(width: Int, height: Int, lighting: Lighting, time: Double) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .nv12FullRange) { planes in
            draw(into: planes, width: width, height: height, lighting: lighting, time: time)
        }
    }

    private static func draw(
        into planes: PixelBuffer.MutablePlanes, width: Int, height: Int, lighting: Lighting, time: Double
    ) {
        let luma = planes[0]
        let chroma = planes[1]
        let barsEnd = height * 55 / 100
        let rampEnd = height * 75 / 100
        let barRow = row(width: width, lighting: lighting) { bars[min(bars.count - 1, $0 * bars.count / width)] }
        let rampRow = row(width: width, lighting: lighting) { x in
            let level = width > 1 ? Double(x) / Double(width - 1) : 0.5
            return RGB(red: level, green: level, blue: level)
        }
        let stepRow = row(width: width, lighting: lighting) { x in
            let level = 0.9 * exp2(-Double(min(stepCount - 1, x * stepCount / width)))
            return RGB(red: level, green: level, blue: level)
        }
        for y in 0..<height {
            let source = y < barsEnd ? barRow : (y < rampEnd ? rampRow : stepRow)
            copy(source.luma, to: luma.baseAddress + y * luma.bytesPerRow)
        }
        for y in 0..<chroma.height {
            let imageRow = y * 2
            let source = imageRow < barsEnd ? barRow : (imageRow < rampEnd ? rampRow : stepRow)
            copy(source.chroma, to: chroma.baseAddress + y * chroma.bytesPerRow)
        }
        drawMarker(into: planes, width: width, height: height, barsEnd: barsEnd, lighting: lighting, time: time)
    }

    private static func drawMarker(
        into planes: PixelBuffer.MutablePlanes, width: Int, height: Int, barsEnd: Int, lighting: Lighting, time: Double
    ) {
        let side = min(height / 5, width / 4) & ~1
        guard side >= 2, barsEnd > side else { return }
        let phase = time / 5 - (time / 5).rounded(.down)
        let left = Int(phase * Double(width - side)) & ~1
        let top = ((barsEnd - side) / 2) & ~1
        let color = encode(marker, lighting: lighting)
        let luma = planes[0]
        let chroma = planes[1]
        for y in top..<(top + side) {
            (luma.baseAddress + y * luma.bytesPerRow + left).initializeMemory(
                as: UInt8.self, repeating: color.y, count: side)
        }
        for y in (top / 2)..<((top + side) / 2) {
            let pairs = (chroma.baseAddress + y * chroma.bytesPerRow + left).assumingMemoryBound(to: UInt8.self)
            for index in 0..<(side / 2) {
                pairs[index * 2] = color.cb
                pairs[index * 2 + 1] = color.cr
            }
        }
    }

    private static func copy(_ bytes: [UInt8], to destination: UnsafeMutableRawPointer) {
        bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// One image row of a region: its luma bytes and its interleaved Cb/Cr pairs.
    private static func row(
        width: Int, lighting: Lighting, color: (Int) -> RGB
    ) -> (luma: [UInt8], chroma: [UInt8]) {
        var luma = [UInt8](repeating: 0, count: width)
        var chroma = [UInt8](repeating: 128, count: (width + 1) / 2 * 2)
        var previous: RGB?
        var previousValue = (y: UInt8(0), cb: UInt8(128), cr: UInt8(128))
        for x in 0..<width {
            let rgb = color(x)
            let value: (y: UInt8, cb: UInt8, cr: UInt8)
            if let previous, previous.red == rgb.red, previous.green == rgb.green, previous.blue == rgb.blue {
                value = previousValue
            } else {
                value = encode(rgb, lighting: lighting)
            }
            previous = rgb
            previousValue = value
            luma[x] = value.y
            if x % 2 == 0 {
                chroma[x] = value.cb
                chroma[x + 1] = value.cr
            }
        }
        return (luma, chroma)
    }

    /// A linear reflectance, lit, exposed, gamma-encoded and converted to full-range BT.601 YCbCr as JPEG uses.
    private static func encode(_ color: RGB, lighting: Lighting) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        func channel(_ value: Double, _ gain: Double) -> Double {
            pow(min(1, max(0, value * gain * lighting.exposure)), 1 / 2.2)
        }
        let red = channel(color.red, lighting.gains.red)
        let green = channel(color.green, lighting.gains.green)
        let blue = channel(color.blue, lighting.gains.blue)
        let y = 0.299 * red + 0.587 * green + 0.114 * blue
        let cb = 0.5 + (-0.168_736 * red - 0.331_264 * green + 0.5 * blue)
        let cr = 0.5 + (0.5 * red - 0.418_688 * green - 0.081_312 * blue)
        func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, (value * 255).rounded()))) }
        return (byte(y), byte(cb), byte(cr))
    }
}
