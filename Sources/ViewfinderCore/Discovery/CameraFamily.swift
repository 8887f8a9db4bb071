/// A maker's cameras: which kind of camera to look for, and the name to show for it.
///
/// Manual discovery hands the family to the connectors for the kind of address the camera has, which choose the
/// protocol and port to try; a searcher says which family a camera it found belongs to. The families Viewfinder
/// knows are constants; a driver in another package adds its own:
///
/// ```swift
/// extension CameraFamily {
///     static let leica = CameraFamily("leica", name: "Leica")
/// }
/// ```
public struct CameraFamily: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The family's identifier, such as `canon`: lower case, as the tool's `--family` takes it.
    public let rawValue: String
    /// The family's name, such as "Canon".
    public let name: String

    /// Makes a family.
    ///
    /// - Parameters:
    ///   - rawValue: Its identifier, such as `leica`; families are equal when their identifiers are.
    ///   - name: Its name, such as "Leica".
    public init(_ rawValue: String, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// The family Viewfinder knows by the identifier `rawValue`, such as ``canon`` for `canon`; `nil` for any other.
    public init?(rawValue: String) {
        guard let family = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = family
    }

    /// Canon EOS and PowerShot cameras: PTP/IP.
    public static let canon = CameraFamily("canon", name: "Canon")
    /// Nikon cameras: PTP/IP.
    public static let nikon = CameraFamily("nikon", name: "Nikon")
    /// Sony cameras: PTP/IP, in "PC Remote" mode (the α7 III/IV, α7R, α7S III, α9, α1, α6x00 and ZV bodies).
    public static let sony = CameraFamily("sony", name: "Sony")
    /// Sony cameras that speak Sony's older Camera Remote API over HTTP instead (QX, HX400V, α5000, α6000 and
    /// α7 I–II with the Smart Remote app).
    public static let sonyRemoteAPI = CameraFamily("sonyRemoteAPI", name: "Sony (Camera Remote API)")
    /// Fujifilm cameras: Fujifilm's own PTP/IP variant on port 55740.
    public static let fujifilm = CameraFamily("fujifilm", name: "Fujifilm")
    /// Olympus and OM System cameras: HTTP.
    public static let olympus = CameraFamily("olympus", name: "Olympus")
    /// Panasonic Lumix cameras: HTTP.
    public static let panasonic = CameraFamily("panasonic", name: "Panasonic")
    /// Any other camera that speaks standard PTP/IP on port 15740.
    public static let genericPTPIP = CameraFamily("genericPTPIP", name: "PTP/IP")

    /// The families Viewfinder knows.
    public static let allCases: [CameraFamily] = [
        .canon, .nikon, .sony, .sonyRemoteAPI, .fujifilm, .olympus, .panasonic, .genericPTPIP,
    ]

    /// The family's name, such as "Canon".
    public var description: String { name }

    /// Equal when the identifiers are.
    public static func == (lhs: CameraFamily, rhs: CameraFamily) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }
}
