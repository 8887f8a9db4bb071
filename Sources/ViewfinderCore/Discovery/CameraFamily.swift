/// A family of cameras that share a way of being reached over the network.
///
/// Manual discovery uses the family to choose the protocol and port to try at an address. Viewfinder speaks
/// PTP/IP, which Canon, Nikon and Sony cameras use over WiFi; for the other families discovery says which protocol
/// the camera would need.
public enum CameraFamily: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Canon EOS and PowerShot cameras: PTP/IP.
    case canon
    /// Nikon cameras: PTP/IP.
    case nikon
    /// Sony cameras: PTP/IP, in "PC Remote" mode (the α7 III/IV, α7R, α7S III, α9, α1, α6x00 and ZV bodies).
    case sony
    /// Sony cameras that speak Sony's older Camera Remote API over HTTP instead (QX, HX400V, α5000, α6000 and
    /// α7 I–II with the Smart Remote app).
    case sonyRemoteAPI
    /// Fujifilm cameras: Fujifilm's own PTP/IP variant on port 55740.
    case fujifilm
    /// Olympus and OM System cameras: HTTP.
    case olympus
    /// Panasonic Lumix cameras: HTTP.
    case panasonic
    /// Any other camera that speaks standard PTP/IP on port 15740.
    case genericPTPIP

    /// The family's name, such as "Canon".
    public var description: String {
        switch self {
        case .canon: return "Canon"
        case .nikon: return "Nikon"
        case .sony: return "Sony"
        case .sonyRemoteAPI: return "Sony (Camera Remote API)"
        case .fujifilm: return "Fujifilm"
        case .olympus: return "Olympus"
        case .panasonic: return "Panasonic"
        case .genericPTPIP: return "PTP/IP"
        }
    }
}
