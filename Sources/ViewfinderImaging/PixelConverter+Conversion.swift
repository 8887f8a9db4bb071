import CLibYUV
import CViewfinderPixels

/// The libyuv calls behind each conversion, chosen by layout, byte order and sample range.
///
/// libyuv names byte orders by little-endian words: its ARGB is Viewfinder's BGRA, ABGR is RGBA, RAW is RGB24 and
/// RGB24 is BGR24. A converter for one order serves the other when U and V (or R and B) swap roles, which libyuv's
/// "Yvu" constants do for YCbCr to RGB.
enum Conversion {
    /// Converts `source` into `destination`, which has the same size; both layouts are supported ones.
    static func convert(_ source: ImagePlanes, to destination: ImagePlanes, scratch: ConversionScratch) {
        if source.layout == destination.layout {
            source.copy(to: destination)
            return
        }
        if case .otherRGB32(let order) = source.layout {
            // Into B, G, R, A first, in the destination when that is the target; the second scratch, as no
            // conversion from B, G, R, A uses it.
            let bgra =
                destination.layout == .bgra
                ? destination
                : scratch.second.image(width: source.width, height: source.height, layout: .bgra, range: .full)
            order.shuffle(source, intoBGRA: bgra, opaqueRow: scratch.first.plane(bytesPerRow: source.width, rows: 1))
            if destination.layout != .bgra { convert(bgra, to: destination, scratch: scratch) }
            return
        }
        switch destination.layout {
        case .nv12, .nv21, .i420: toYCbCr(source, destination, scratch)
        case .yuyv: toYUYV(source, destination, scratch)
        case .gray: toGray(source, destination)
        default: toRGB(source, destination, scratch)
        }
    }

    // MARK: - To packed 4:2:2

    /// Packs YCbCr as YUYV: through planar 4:2:0 in the destination's range, each chroma sample serving two rows.
    private static func toYUYV(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        if source.layout == .i420, let luma = RangeMap.luma(from: source.range, to: destination.range),
            let chroma = RangeMap.chroma(from: source.range, to: destination.range),
            packMapped(source, into: destination, luma: luma, chroma: chroma)
        {
            return
        }
        var planar = source
        if source.layout != .i420 || source.range != destination.range {
            planar = scratch.third.image(
                width: source.width, height: source.height, layout: .i420, range: destination.range)
            convert(source, to: planar, scratch: scratch)
        }
        let (p, d) = (planar, destination)
        _ = I420ToYUY2(
            p.y.base, p.y.stride, p.u.base, p.u.stride, p.v.base, p.v.stride, d.y.base, d.y.stride, source.width,
            source.height)
    }

    /// Packs planar 4:2:0 as YUYV and maps its range in one pass; `false`, having written nothing, for maps that
    /// widen the range, which go through planar samples in the destination's range instead.
    private static func packMapped(
        _ source: ImagePlanes, into destination: ImagePlanes, luma: RangeMap, chroma: RangeMap
    ) -> Bool {
        let (s, d) = (source, destination)
        return viewfinder_pack_yuyv_mapped(
            s.y.base, s.y.stride, s.u.base, s.u.stride, s.v.base, s.v.stride, d.y.base, d.y.stride, s.width, s.height,
            luma.multiplier, luma.offset, chroma.multiplier, chroma.offset) != 0
    }

    // MARK: - To greyscale

    private static func toGray(_ source: ImagePlanes, _ destination: ImagePlanes) {
        let (s, d, width, height) = (source.y, destination.y, source.width, source.height)
        switch source.layout {
        case .nv12, .nv21, .i420:
            if let map = RangeMap.luma(from: source.range, to: .full) {
                map.apply(from: s, to: d, byteWidth: width, rows: height)
            } else {
                CopyPlane(s.base, s.stride, d.base, d.stride, width, height)
            }
        case .yuyv, .uyvy:
            if source.layout == .yuyv {
                YUY2ToY(s.base, s.stride, d.base, d.stride, width, height)
            } else {
                UYVYToY(s.base, s.stride, d.base, d.stride, width, height)
            }
            RangeMap.luma(from: source.range, to: .full)?.apply(from: d, to: d, byteWidth: width, rows: height)
        case .bgra: ARGBToJ400(s.base, s.stride, d.base, d.stride, width, height)
        case .rgba: ABGRToJ400(s.base, s.stride, d.base, d.stride, width, height)
        case .rgb24: RAWToJ400(s.base, s.stride, d.base, d.stride, width, height)
        case .bgr24: RGB24ToJ400(s.base, s.stride, d.base, d.stride, width, height)
        case .otherRGB32, .gray, .jpeg: break
        }
    }

    // MARK: - To YCbCr

    private static func toYCbCr(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        switch source.layout {
        case .nv12, .nv21, .i420, .yuyv, .uyvy:
            reorderYCbCr(source, destination, scratch)
            destination.mapInPlace(from: source.range)
        case .bgra, .rgba, .rgb24, .bgr24:
            rgbToYCbCr(source, destination, scratch)
        case .gray:
            let (byteWidth, rows, _) = destination.extent(ofPlane: 1)
            var luma = source
            luma.layout = .gray
            var target = destination
            target.layout = .gray
            luma.copy(to: target)
            SetPlane(destination.u.base, destination.u.stride, byteWidth, rows, 128)
            if destination.layout == .i420 {
                SetPlane(destination.v.base, destination.v.stride, byteWidth, rows, 128)
            }
        case .otherRGB32, .jpeg: break
        }
    }

    /// Moves YCbCr samples between layouts without changing their range.
    private static func reorderYCbCr(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        let (s, d, width, height) = (source, destination, source.width, source.height)
        switch (source.layout, destination.layout) {
        case (.yuyv, .nv12), (.uyvy, .nv12):
            let convert = source.layout == .yuyv ? YUY2ToNV12 : UYVYToNV12
            _ = convert(s.y.base, s.y.stride, d.y.base, d.y.stride, d.u.base, d.u.stride, width, height)
        case (.yuyv, .i420), (.uyvy, .i420):
            let convert = source.layout == .yuyv ? YUY2ToI420 : UYVYToI420
            _ = convert(
                s.y.base, s.y.stride, d.y.base, d.y.stride, d.u.base, d.u.stride, d.v.base, d.v.stride, width, height)
        case (.yuyv, .nv21), (.uyvy, .nv21):
            let (cb, cr) = scratch.first.chromaPlanes(bytesPerRow: s.chromaWidth, rows: s.chromaHeight)
            var planar = destination
            planar.layout = .i420
            planar.planes = (d.y, cb, cr)
            reorderYCbCr(source, planar, scratch)
            MergeUVPlane(cr.base, cr.stride, cb.base, cb.stride, d.u.base, d.u.stride, s.chromaWidth, s.chromaHeight)
        case (.i420, _):
            let convert = destination.layout == .nv12 ? I420ToNV12 : I420ToNV21
            _ = convert(
                s.y.base, s.y.stride, s.u.base, s.u.stride, s.v.base, s.v.stride, d.y.base, d.y.stride, d.u.base,
                d.u.stride, width, height)
        case (_, .i420):
            let convert = source.layout == .nv12 ? NV12ToI420 : NV21ToI420
            _ = convert(
                s.y.base, s.y.stride, s.u.base, s.u.stride, d.y.base, d.y.stride, d.u.base, d.u.stride, d.v.base,
                d.v.stride, width, height)
        default:
            // NV12 to NV21 and back: the same swap of the chroma pairs.
            NV21ToNV12(
                s.y.base, s.y.stride, s.u.base, s.u.stride, d.y.base, d.y.stride, d.u.base, d.u.stride, width, height)
        }
    }

    /// Converts RGB to YCbCr of the destination's range, with libyuv's BT.601 ("I") or JPEG ("J") coefficients.
    private static func rgbToYCbCr(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        let (s, d, width, height) = (source, destination, source.width, source.height)
        let video = destination.range == .video
        if video, destination.layout != .i420, source.layout == .bgra || source.layout == .rgba {
            let convert =
                switch (source.layout, destination.layout) {
                case (.bgra, .nv12): ARGBToNV12
                case (.bgra, _): ARGBToNV21
                case (_, .nv12): ABGRToNV12
                default: ABGRToNV21
                }
            _ = convert(s.y.base, s.y.stride, d.y.base, d.y.stride, d.u.base, d.u.stride, width, height)
            return
        }
        let (cb, cr) =
            destination.layout == .i420
            ? (d.u, d.v) : scratch.first.chromaPlanes(bytesPerRow: d.chromaWidth, rows: d.chromaHeight)
        let convert =
            switch (source.layout, video) {
            case (.bgra, true): ARGBToI420
            case (.bgra, false): ARGBToJ420
            case (.rgba, true): ABGRToI420
            case (.rgba, false): ABGRToJ420
            case (.rgb24, true): RAWToI420
            case (.rgb24, false): RAWToJ420
            case (_, true): RGB24ToI420
            case (_, false): RGB24ToJ420
            }
        _ = convert(s.y.base, s.y.stride, d.y.base, d.y.stride, cb.base, cb.stride, cr.base, cr.stride, width, height)
        switch destination.layout {
        case .nv12:
            MergeUVPlane(cb.base, cb.stride, cr.base, cr.stride, d.u.base, d.u.stride, d.chromaWidth, d.chromaHeight)
        case .nv21:
            MergeUVPlane(cr.base, cr.stride, cb.base, cb.stride, d.u.base, d.u.stride, d.chromaWidth, d.chromaHeight)
        default:
            break
        }
    }

    // MARK: - To RGB

    /// Whether a layout stores red before blue in memory.
    private static func isRedFirst(_ layout: PixelLayout) -> Bool {
        layout == .rgba || layout == .rgb24
    }

    /// Whether a layout has four bytes per pixel.
    private static func hasAlpha(_ layout: PixelLayout) -> Bool {
        layout == .bgra || layout == .rgba
    }

    private static func toRGB(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        switch source.layout {
        case .nv12, .nv21, .i420, .yuyv, .uyvy: yCbCrToRGB(source, destination, scratch)
        case .bgra, .rgba, .rgb24, .bgr24: reorderRGB(source, destination)
        case .gray:
            if hasAlpha(destination.layout) {
                J400ToARGB(
                    source.y.base, source.y.stride, destination.y.base, destination.y.stride, source.width,
                    source.height)
            } else {
                let argb = scratch.first.image(width: source.width, height: source.height, layout: .bgra, range: .full)
                J400ToARGB(source.y.base, source.y.stride, argb.y.base, argb.y.stride, source.width, source.height)
                reorderRGB(argb, destination)
            }
        case .otherRGB32, .jpeg: break
        }
    }

    /// Moves RGB bytes between orders and sizes; alpha becomes 255.
    private static func reorderRGB(_ source: ImagePlanes, _ destination: ImagePlanes) {
        let swap = isRedFirst(source.layout) != isRedFirst(destination.layout)
        let convert =
            switch (hasAlpha(source.layout), hasAlpha(destination.layout), swap) {
            case (true, true, _): ARGBToABGR
            case (true, false, false): ARGBToRGB24
            case (true, false, true): ARGBToRAW
            case (false, true, false): RGB24ToARGB
            case (false, true, true): RAWToARGB
            case (false, false, _): RAWToRGB24
            }
        _ = convert(
            source.y.base, source.y.stride, destination.y.base, destination.y.stride, source.width, source.height)
    }

    /// The YCbCr-to-RGB constants for a range; the swapped ones write red first when U and V are swapped too.
    private static func constants(for range: SampleRange, swapped: Bool) -> UnsafePointer<YuvConstants> {
        switch (range, swapped) {
        case (.video, false): viewfinder_yuv_bt601_video()
        case (.full, false): viewfinder_yuv_bt601_full()
        case (.video, true): viewfinder_yvu_bt601_video()
        case (.full, true): viewfinder_yvu_bt601_full()
        }
    }

    private static func yCbCrToRGB(_ source: ImagePlanes, _ destination: ImagePlanes, _ scratch: ConversionScratch) {
        let (s, d, width, height) = (source, destination, source.width, source.height)
        let swapped = isRedFirst(destination.layout)
        let matrix = constants(for: source.range, swapped: swapped)
        let alpha = hasAlpha(destination.layout)
        switch source.layout {
        case .i420:
            let (u, v) = swapped ? (s.v, s.u) : (s.u, s.v)
            let convert = alpha ? I420ToARGBMatrix : I420ToRGB24Matrix
            _ = convert(
                s.y.base, s.y.stride, u.base, u.stride, v.base, v.stride, d.y.base, d.y.stride, matrix, width, height)
        case .nv12, .nv21:
            let readsVU = (source.layout == .nv21) != swapped
            let convert =
                switch (readsVU, alpha) {
                case (false, true): NV12ToARGBMatrix
                case (false, false): NV12ToRGB24Matrix
                case (true, true): NV21ToARGBMatrix
                case (true, false): NV21ToRGB24Matrix
                }
            _ = convert(s.y.base, s.y.stride, s.u.base, s.u.stride, d.y.base, d.y.stride, matrix, width, height)
        default:
            if source.range == .video, destination.layout == .bgra {
                let convert = source.layout == .yuyv ? YUY2ToARGB : UYVYToARGB
                _ = convert(s.y.base, s.y.stride, d.y.base, d.y.stride, width, height)
                return
            }
            // Packed 4:2:2 to planar 4:2:2 in scratch, then libyuv's matrix converter for 4:2:2.
            let luma = scratch.first.plane(bytesPerRow: width, rows: height)
            let (cb, cr) = scratch.second.chromaPlanes(bytesPerRow: s.chromaWidth, rows: height)
            let split = source.layout == .yuyv ? YUY2ToI422 : UYVYToI422
            _ = split(
                s.y.base, s.y.stride, luma.base, luma.stride, cb.base, cb.stride, cr.base, cr.stride, width, height)
            let (u, v) = swapped ? (cr, cb) : (cb, cr)
            let convert = alpha ? I422ToARGBMatrix : I422ToRGB24Matrix
            _ = convert(
                luma.base, luma.stride, u.base, u.stride, v.base, v.stride, d.y.base, d.y.stride, matrix, width, height)
        }
    }
}

/// Scratch memory a conversion may need for intermediate planes.
///
/// Unchecked `Sendable`: it moves between threads only through ``ReusableResources``, one user at a time.
final class ConversionScratch: @unchecked Sendable {
    let first = ScratchMemory()
    let second = ScratchMemory()
    /// Planar samples on their way to a packed layout, kept apart from the two the conversion into them uses.
    let third = ScratchMemory()
}
