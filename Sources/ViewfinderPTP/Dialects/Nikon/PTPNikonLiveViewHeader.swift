import ViewfinderCore
import ViewfinderJPEG

/// The geometry in the header Nikon bodies put before each live view JPEG: big-endian sizes and points in the
/// coordinates of the whole picture the sensor sees.
///
/// Older bodies start the header with the image's size; newer ones put 8 bytes before it, and every field follows 8
/// bytes later. From that start: the image's size (0), the whole picture's size (4), the size of the area shown (8)
/// and its centre (12), the autofocus area's size (16) and centre (20), and at 29 the rotation (0 level, 1 and 2 the
/// quarter turns, 3 upside down). The layout is the one whose image size is the JPEG's; a header that matches
/// neither, or whose sizes are zero or outside the picture, gives no geometry. An autofocus area of no size, or one
/// outside the picture, gives no area; the header does not say whether the area is in focus.
package enum PTPNikonLiveViewHeader {
    /// Where the fields start in each layout: older bodies, then newer ones.
    static let layoutStarts = [0, 8]

    /// The geometry the header gives for a JPEG of `imageSize`, or `nil` when it gives none.
    package static func geometry(header: ArraySlice<UInt8>, imageSize: Dimensions) -> LiveViewGeometry? {
        for layoutStart in layoutStarts where header.count >= layoutStart + 30 {
            let start = header.startIndex + layoutStart
            func field(_ offset: Int) -> Int {
                Int(header[start + offset]) << 8 | Int(header[start + offset + 1])
            }
            guard field(0) == imageSize.width, field(2) == imageSize.height else { continue }
            let whole = Dimensions(width: field(4), height: field(6))
            guard whole.width > 0, whole.height > 0 else { return nil }
            let shown = (width: field(8), height: field(10), x: field(12), y: field(14))
            var zoomRect: LiveViewRect?
            if shown.width > 0, shown.height > 0, shown.width <= whole.width, shown.height <= whole.height,
                shown.width < whole.width || shown.height < whole.height
            {
                zoomRect = LiveViewRect(
                    x: min(max(shown.x - shown.width / 2, 0), whole.width - shown.width),
                    y: min(max(shown.y - shown.height / 2, 0), whole.height - shown.height),
                    width: shown.width, height: shown.height)
            }
            let orientations: [LiveViewOrientation] = [.landscape, .portraitRight, .portraitLeft, .upsideDown]
            let rotation = Int(header[start + 29])
            let af = (width: field(16), height: field(18), x: field(20), y: field(22))
            var afAreas: [FocusPoint] = []
            if af.width > 0, af.height > 0, af.width <= whole.width, af.height <= whole.height, af.x <= whole.width,
                af.y <= whole.height
            {
                let rect = LiveViewRect(
                    x: min(max(af.x - af.width / 2, 0), whole.width - af.width),
                    y: min(max(af.y - af.height / 2, 0), whole.height - af.height),
                    width: af.width, height: af.height)
                afAreas = [FocusPoint(rect: rect, isActive: true)]
            }
            return LiveViewGeometry(
                aspect: whole, imageFrame: LiveViewRect(x: 0, y: 0, width: whole.width, height: whole.height),
                zoomRect: zoomRect, orientation: rotation < orientations.count ? orientations[rotation] : nil,
                afAreas: afAreas)
        }
        return nil
    }

    /// The size a JPEG's start-of-frame segment gives, or `nil` when none comes before its image data.
    package static func jpegSize(_ jpeg: ArraySlice<UInt8>) -> Dimensions? {
        JPEGHeader.frameSize(scanning: jpeg)
    }

    /// A header of the older layout for a JPEG of `imageSize` out of a whole picture of `whole`, showing `shown`
    /// (the whole picture when `nil`), with its autofocus area at `afArea` (none when `nil`) and `rotation`, `length`
    /// bytes long as a camera sends it.
    package static func encode(
        imageSize: Dimensions, whole: Dimensions, shown: LiveViewRect? = nil, afArea: LiveViewRect? = nil,
        rotation: UInt8 = 0, length: Int = 384
    ) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(length, 30))
        func put(_ value: Int, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: value >> 8)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
        }
        let area = shown ?? LiveViewRect(x: 0, y: 0, width: whole.width, height: whole.height)
        put(imageSize.width, at: 0)
        put(imageSize.height, at: 2)
        put(whole.width, at: 4)
        put(whole.height, at: 6)
        put(area.width, at: 8)
        put(area.height, at: 10)
        put(area.x + area.width / 2, at: 12)
        put(area.y + area.height / 2, at: 14)
        if let afArea {
            put(afArea.width, at: 16)
            put(afArea.height, at: 18)
            put(afArea.x + afArea.width / 2, at: 20)
            put(afArea.y + afArea.height / 2, at: 22)
        }
        bytes[29] = rotation
        return bytes
    }
}
