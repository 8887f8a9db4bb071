import CLibYUV

/// The libyuv calls behind scaling, rotation and mirroring, by layout.
///
/// Mirroring never costs a pass of its own: a left-to-right flip after a rotation by θ is the same as libyuv's
/// rotation by 180° − θ of the source read bottom row first, which libyuv does when given a negative height.
enum Geometry {
    /// Scales `source` to the size of `destination`, which has the same layout and range.
    static func scale(_ source: ImagePlanes, to destination: ImagePlanes, filter: FilterMode) {
        let (s, d) = (source, destination)
        switch source.layout {
        case .i420:
            I420Scale(
                s.y.base, s.y.stride, s.u.base, s.u.stride, s.v.base, s.v.stride, s.width, s.height, d.y.base,
                d.y.stride, d.u.base, d.u.stride, d.v.base, d.v.stride, d.width, d.height, filter)
        case .nv12, .nv21:
            NV12Scale(
                s.y.base, s.y.stride, s.u.base, s.u.stride, s.width, s.height, d.y.base, d.y.stride, d.u.base,
                d.u.stride, d.width, d.height, filter)
        case .bgra, .rgba:
            ARGBScale(s.y.base, s.y.stride, s.width, s.height, d.y.base, d.y.stride, d.width, d.height, filter)
        case .rgb24, .bgr24:
            RGBScale(s.y.base, s.y.stride, s.width, s.height, d.y.base, d.y.stride, d.width, d.height, filter)
        case .gray:
            ScalePlane(s.y.base, s.y.stride, s.width, s.height, d.y.base, d.y.stride, d.width, d.height, filter)
        case .yuyv, .uyvy, .otherRGB32, .jpeg:
            break
        }
    }

    /// Rotates `source` clockwise by `quarterTurns` and then, when `mirrored`, flips it left to right, into
    /// `destination`, which has the same layout and range and the rotated size.
    static func rotate(
        _ source: ImagePlanes, quarterTurns: Int, mirrored: Bool, into destination: ImagePlanes,
        scratch: ConversionScratch
    ) {
        let turns = mirrored ? (6 - quarterTurns) % 4 : quarterTurns % 4
        let mode = RotationMode(rawValue: UInt32(turns * 90))
        // A negative height makes libyuv read the source bottom row first.
        let height = mirrored ? -source.height : source.height
        let (s, d, width) = (source, destination, source.width)
        switch source.layout {
        case .i420:
            I420Rotate(
                s.y.base, s.y.stride, s.u.base, s.u.stride, s.v.base, s.v.stride, d.y.base, d.y.stride, d.u.base,
                d.u.stride, d.v.base, d.v.stride, width, height, mode)
        case .nv12, .nv21:
            RotatePlane(s.y.base, s.y.stride, d.y.base, d.y.stride, width, height, mode)
            // libyuv rotates interleaved chroma only into separate planes; interleave them again afterwards.
            let (first, second) = scratch.first.chromaPlanes(bytesPerRow: d.chromaWidth, rows: d.chromaHeight)
            let chromaHeight = mirrored ? -s.chromaHeight : s.chromaHeight
            SplitRotateUV(
                s.u.base, s.u.stride, first.base, first.stride, second.base, second.stride, s.chromaWidth,
                chromaHeight, mode)
            MergeUVPlane(
                first.base, first.stride, second.base, second.stride, d.u.base, d.u.stride, d.chromaWidth,
                d.chromaHeight)
        case .bgra, .rgba:
            ARGBRotate(s.y.base, s.y.stride, d.y.base, d.y.stride, width, height, mode)
        case .gray:
            RotatePlane(s.y.base, s.y.stride, d.y.base, d.y.stride, width, height, mode)
        case .rgb24, .bgr24:
            // libyuv rotates four-byte pixels only: widen, rotate, narrow, keeping the byte order throughout.
            let wide = scratch.first.image(width: s.width, height: s.height, layout: .bgra, range: .full)
            let turned = scratch.second.image(width: d.width, height: d.height, layout: .bgra, range: .full)
            RGB24ToARGB(s.y.base, s.y.stride, wide.y.base, wide.y.stride, width, s.height)
            ARGBRotate(wide.y.base, wide.y.stride, turned.y.base, turned.y.stride, width, height, mode)
            ARGBToRGB24(turned.y.base, turned.y.stride, d.y.base, d.y.stride, d.width, d.height)
        case .yuyv, .uyvy, .otherRGB32, .jpeg:
            break
        }
    }
}
