import CTurboJPEG

/// The orders of four-byte RGB pixels that conversions read but do not write: alpha first, or a byte to ignore.
///
/// Conversions shuffle these into B, G, R, A (libyuv's ARGB) and go on from there; JPEG encoding reads them as
/// they are.
package enum RGB32Order: Hashable, Sendable {
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
    package var offsets: (UInt8, UInt8, UInt8, UInt8) {
        switch self {
        case .argb, .xrgb: (3, 2, 1, 0)
        case .abgr, .xbgr: (1, 2, 3, 0)
        case .bgrx: (0, 1, 2, 3)
        case .rgbx: (2, 1, 0, 3)
        }
    }

    /// Whether the fourth byte is padding, so a written alpha must be made opaque.
    package var isPadded: Bool {
        switch self {
        case .argb, .abgr: false
        case .bgrx, .rgbx, .xrgb, .xbgr: true
        }
    }

    /// The TurboJPEG name of the order.
    package var turboJPEG: TJPF {
        switch self {
        case .argb: TJPF_ARGB
        case .abgr: TJPF_ABGR
        case .bgrx: TJPF_BGRX
        case .rgbx: TJPF_RGBX
        case .xrgb: TJPF_XRGB
        case .xbgr: TJPF_XBGR
        }
    }
}
