import CViewfinderPixels

/// The affine map between full-range and video-range samples, in the 8.8 fixed point of `viewfinder_map_plane`.
///
/// Full range spans 0–255; video range puts luma in 16–235 and chroma in 16–240 around 128.
package struct RangeMap {
    package let multiplier: Int32
    package let offset: Int32

    /// Video-range luma to full range: `(y - 16) × 255 / 219`.
    package static let lumaToFull = RangeMap(multiplier: 298, offset: -16 * 298 + 128)
    /// Full-range luma to video range: `16 + y × 219 / 255`.
    package static let lumaToVideo = RangeMap(multiplier: 220, offset: 16 * 256 + 128)
    /// Video-range chroma to full range: `128 + (c - 128) × 255 / 224`.
    package static let chromaToFull = RangeMap(multiplier: 291, offset: 128 * 256 - 128 * 291 + 128)
    /// Full-range chroma to video range: `128 + (c - 128) × 224 / 255`.
    package static let chromaToVideo = RangeMap(multiplier: 225, offset: 128 * 256 - 128 * 225 + 128)
    /// Every sample as it is, for code that maps in any case.
    package static let identity = RangeMap(multiplier: 256, offset: 0)

    /// The map for luma between two ranges, or `nil` when they are the same.
    package static func luma(from source: SampleRange, to destination: SampleRange) -> RangeMap? {
        switch (source, destination) {
        case (.video, .full): lumaToFull
        case (.full, .video): lumaToVideo
        case (.full, .full), (.video, .video): nil
        }
    }

    /// The map for chroma between two ranges, or `nil` when they are the same.
    package static func chroma(from source: SampleRange, to destination: SampleRange) -> RangeMap? {
        switch (source, destination) {
        case (.video, .full): chromaToFull
        case (.full, .video): chromaToVideo
        case (.full, .full), (.video, .video): nil
        }
    }

    /// Maps `rows` rows of `byteWidth` bytes from `source` to `destination`, which may be the same plane.
    package func apply(from source: PlaneRef, to destination: PlaneRef, byteWidth: Int32, rows: Int32) {
        viewfinder_map_plane(
            source.base, source.stride, destination.base, destination.stride, byteWidth, rows, multiplier, offset)
    }
}

extension ImagePlanes {
    /// What a plane's bytes hold, which decides how a change of range treats them.
    package enum PlaneContent {
        case luma
        case chroma
        case other
    }

    /// The bytes per row, the rows and the content of plane `index`.
    package func extent(ofPlane index: Int) -> (byteWidth: Int32, rows: Int32, content: PlaneContent) {
        Self.extent(ofPlane: index, layout: layout, width: width, height: height)
    }

    /// The bytes per row, the rows and the content of plane `index` of an image of a size and layout.
    package static func extent(ofPlane index: Int, layout: PixelLayout, width: Int32, height: Int32) -> (
        byteWidth: Int32, rows: Int32, content: PlaneContent
    ) {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        return switch (layout, index) {
        case (.nv12, 0), (.nv21, 0), (.i420, 0), (.gray, 0): (width, height, .luma)
        case (.nv12, _), (.nv21, _): (2 * chromaWidth, chromaHeight, .chroma)
        case (.i420, _): (chromaWidth, chromaHeight, .chroma)
        case (.yuyv, _), (.uyvy, _): (4 * chromaWidth, height, .other)
        case (.rgb24, _), (.bgr24, _): (3 * width, height, .other)
        case (.bgra, _), (.rgba, _), (.otherRGB32, _): (4 * width, height, .other)
        case (.gray, _), (.jpeg, _): (width, height, .other)
        }
    }

    /// Plane `index`.
    package func plane(_ index: Int) -> PlaneRef {
        switch index {
        case 0: planes.0
        case 1: planes.1
        default: planes.2
        }
    }

    /// The map plane `index` needs to go from this image's range to `destination`, or `nil` for a plain copy.
    private func map(forPlane index: Int, to destination: SampleRange) -> RangeMap? {
        switch extent(ofPlane: index).content {
        case .luma: RangeMap.luma(from: range, to: destination)
        case .chroma: RangeMap.chroma(from: range, to: destination)
        case .other: nil
        }
    }

    /// Copies every plane to `destination`, which has the same size and layout, mapping samples between ranges.
    package func copy(to destination: ImagePlanes) {
        for index in 0..<layout.planeCount {
            let (byteWidth, rows, _) = extent(ofPlane: index)
            let source = plane(index)
            let target = destination.plane(index)
            if let map = map(forPlane: index, to: destination.range) {
                map.apply(from: source, to: target, byteWidth: byteWidth, rows: rows)
            } else {
                viewfinder_copy_plane(source.base, source.stride, target.base, target.stride, byteWidth, rows)
            }
        }
    }

    /// Maps the samples of this image in place, as if they were written in `source` range, to its own range.
    package func mapInPlace(from source: SampleRange) {
        var original = self
        original.range = source
        for index in 0..<layout.planeCount {
            if let map = original.map(forPlane: index, to: range) {
                let (byteWidth, rows, _) = extent(ofPlane: index)
                map.apply(from: plane(index), to: plane(index), byteWidth: byteWidth, rows: rows)
            }
        }
    }
}
