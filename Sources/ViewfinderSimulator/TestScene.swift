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

    /// The part of the scene a picture shows, as fractions of the scene's width and height: all of it, or the
    /// part a magnified live view shows.
    struct Region: Equatable {
        var x = 0.0
        var y = 0.0
        var width = 1.0
        var height = 1.0

        /// The whole scene.
        static let whole = Region()

        /// The part of the scene magnified `factor` times around `center` (fractions of the scene), moved inside the
        /// scene where the centre is too close to an edge.
        static func magnified(_ factor: Int, around center: (x: Double, y: Double)) -> Region {
            let side = 1 / Double(max(1, factor))
            func origin(_ center: Double) -> Double { min(max(center - side / 2, 0), 1 - side) }
            return Region(x: origin(center.x), y: origin(center.y), width: side, height: side)
        }
    }

    /// Renders the scene as a new full-range NV12 buffer.
    ///
    /// - Parameters:
    ///   - width: The width in pixels.
    ///   - height: The height in pixels.
    ///   - lighting: The exposure and white balance.
    ///   - time: Seconds since some start; the marker crosses the picture every five seconds.
    ///   - region: The part of the scene the picture shows, enlarged to its size.
    static func render(
        width: Int, height: Int, lighting: Lighting, time: Double, region: Region = .whole, outline: Region? = nil
    ) throws -> PixelBuffer {
        // The picture is a window of `width` by `height` onto the scene drawn at a size that makes `region` fill it.
        let scene = View(
            width: max(width, Int((Double(width) / region.width).rounded())),
            height: max(height, Int((Double(height) / region.height).rounded())),
            left: 0, top: 0)
        let view = View(
            width: scene.width, height: scene.height,
            left: min(Int((region.x * Double(scene.width)).rounded()), scene.width - width),
            top: min(Int((region.y * Double(scene.height)).rounded()), scene.height - height))
        return try PixelBuffer(width: width, height: height, format: .nv12FullRange) { planes in
            draw(into: planes, width: width, height: height, view: view, lighting: lighting, time: time)
            if let outline {
                drawOutline(outline, into: planes[0], width: width, height: height)
            }
        }
    }

    /// Draws the edges of `frame` (fractions of the picture), two pixels wide, in white on the luma plane: the
    /// autofocus area a camera shows over its live view.
    private static func drawOutline(_ frame: Region, into luma: PixelBuffer.MutablePlane, width: Int, height: Int) {
        let left = min(max(Int(frame.x * Double(width)), 0), width - 1)
        let top = min(max(Int(frame.y * Double(height)), 0), height - 1)
        let right = min(max(Int((frame.x + frame.width) * Double(width)), left + 1), width)
        let bottom = min(max(Int((frame.y + frame.height) * Double(height)), top + 1), height)
        for y in top..<bottom {
            let row = luma.baseAddress + y * luma.bytesPerRow
            if y < top + 2 || y >= bottom - 2 {
                (row + left).initializeMemory(as: UInt8.self, repeating: 235, count: right - left)
            } else {
                for x in [left, left + 1, right - 2, right - 1] where x >= left && x < right {
                    row.storeBytes(of: 235, toByteOffset: x, as: UInt8.self)
                }
            }
        }
    }

    /// The scene at a size of `width` by `height` pixels, seen from its pixel (`left`, `top`).
    private struct View {
        var width: Int
        var height: Int
        var left: Int
        var top: Int
    }

    private static func draw(
        into planes: PixelBuffer.MutablePlanes, width: Int, height: Int, view: View, lighting: Lighting, time: Double
    ) {
        let luma = planes[0]
        let chroma = planes[1]
        let sceneWidth = view.width
        let barsEnd = view.height * 55 / 100
        let rampEnd = view.height * 75 / 100
        let barRow = row(width: width, lighting: lighting) { x in
            bars[min(bars.count - 1, (view.left + x) * bars.count / sceneWidth)]
        }
        let rampRow = row(width: width, lighting: lighting) { x in
            let level = sceneWidth > 1 ? Double(view.left + x) / Double(sceneWidth - 1) : 0.5
            return RGB(red: level, green: level, blue: level)
        }
        let stepRow = row(width: width, lighting: lighting) { x in
            let level = 0.9 * exp2(-Double(min(stepCount - 1, (view.left + x) * stepCount / sceneWidth)))
            return RGB(red: level, green: level, blue: level)
        }
        func source(_ y: Int) -> (luma: [UInt8], chroma: [UInt8]) {
            let sceneRow = view.top + y
            return sceneRow < barsEnd ? barRow : (sceneRow < rampEnd ? rampRow : stepRow)
        }
        for y in 0..<height {
            copy(source(y).luma, to: luma.baseAddress + y * luma.bytesPerRow)
        }
        for y in 0..<chroma.height {
            copy(source(y * 2).chroma, to: chroma.baseAddress + y * chroma.bytesPerRow)
        }
        drawMarker(
            into: planes, width: width, height: height, view: view, barsEnd: barsEnd, lighting: lighting, time: time)
    }

    private static func drawMarker(
        into planes: PixelBuffer.MutablePlanes, width: Int, height: Int, view: View, barsEnd: Int, lighting: Lighting,
        time: Double
    ) {
        let side = min(view.height / 5, view.width / 4) & ~1
        guard side >= 2, barsEnd > side else { return }
        let phase = time / 5 - (time / 5).rounded(.down)
        let sceneLeft = Int(phase * Double(view.width - side)) & ~1
        let sceneTop = ((barsEnd - side) / 2) & ~1
        // The marker's part within the picture, on even pixels as the chroma planes need.
        let left = max(sceneLeft - view.left, 0) & ~1
        let right = min(sceneLeft + side - view.left, width) & ~1
        let top = max(sceneTop - view.top, 0) & ~1
        let bottom = min(sceneTop + side - view.top, height) & ~1
        guard left < right, top < bottom else { return }
        let color = encode(marker, lighting: lighting)
        let luma = planes[0]
        let chroma = planes[1]
        for y in top..<bottom {
            (luma.baseAddress + y * luma.bytesPerRow + left).initializeMemory(
                as: UInt8.self, repeating: color.y, count: right - left)
        }
        for y in (top / 2)..<(bottom / 2) {
            let pairs = (chroma.baseAddress + y * chroma.bytesPerRow + left).assumingMemoryBound(to: UInt8.self)
            for index in 0..<((right - left) / 2) {
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
