import CLibYUV
import CTurboJPEG

/// The orders of four-byte RGB pixels that conversions read but do not write: alpha first, or a byte to ignore.
///
/// Conversions shuffle these into B, G, R, A (libyuv's ARGB) and go on from there; JPEG encoding reads them as
/// they are.
enum RGB32Order: Hashable, Sendable {
    /// A, R, G, B.
    case argb
    /// A, B, G, R.
    case abgr
    /// B, G, R, then a byte to ignore.
    case bgrx
    /// R, G, B, then a byte to ignore.
    case rgbx
    /// A byte to ignore, then R, G, B.
    case xrgb
    /// A byte to ignore, then B, G, R.
    case xbgr

    /// Where in a source pixel the B, G, R and A bytes of a B, G, R, A pixel come from.
    private var offsets: (UInt8, UInt8, UInt8, UInt8) {
        switch self {
        case .argb, .xrgb: (3, 2, 1, 0)
        case .abgr, .xbgr: (1, 2, 3, 0)
        case .bgrx: (0, 1, 2, 3)
        case .rgbx: (2, 1, 0, 3)
        }
    }

    /// Whether the fourth byte is padding, so a written alpha must be made opaque.
    var isPadded: Bool {
        switch self {
        case .argb, .abgr: false
        case .bgrx, .rgbx, .xrgb, .xbgr: true
        }
    }

    /// The TurboJPEG name of the order.
    var turboJPEG: TJPF {
        switch self {
        case .argb: TJPF_ARGB
        case .abgr: TJPF_ABGR
        case .bgrx: TJPF_BGRX
        case .rgbx: TJPF_RGBX
        case .xrgb: TJPF_XRGB
        case .xbgr: TJPF_XBGR
        }
    }

    /// Reorders `source` into `destination`, a B, G, R, A image of the same size; `opaqueRow` is a scratch row at
    /// least as wide as the image, for making a padding byte an opaque alpha.
    func shuffle(_ source: ImagePlanes, intoBGRA destination: ImagePlanes, opaqueRow: PlaneRef) {
        let (b, g, r, a) = offsets
        // libyuv's mask covers four pixels at a time; a tuple keeps it off the heap.
        var mask = (b, g, r, a, b + 4, g + 4, r + 4, a + 4, b + 8, g + 8, r + 8, a + 8, b + 12, g + 12, r + 12, a + 12)
        withUnsafeBytes(of: &mask) { mask in
            _ = ARGBShuffle(
                source.y.base, source.y.stride, destination.y.base, destination.y.stride,
                mask.baseAddress?.assumingMemoryBound(to: UInt8.self), source.width, source.height)
        }
        guard isPadded else { return }
        // A row stride of zero reads the one row of 255s for every row of the image.
        SetPlane(opaqueRow.base, opaqueRow.stride, source.width, 1, 255)
        _ = ARGBCopyYToAlpha(opaqueRow.base, 0, destination.y.base, destination.y.stride, source.width, source.height)
    }
}
