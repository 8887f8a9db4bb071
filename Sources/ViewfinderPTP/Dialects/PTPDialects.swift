/// The dialects Viewfinder speaks, and the one place that chooses among them.
enum PTPDialects {
    /// Every dialect, most particular first; the standard dialect claims every camera and comes last.
    static let all: [any PTPDialect.Type] = [
        NikonDialect.self, CanonEOSDialect.self, SonyDialect.self, StandardDialect.self,
    ]

    /// The dialect for the camera `deviceInfo` describes: the first in ``all`` that claims it.
    static func dialect(for deviceInfo: PTPDeviceInfo) -> any PTPDialect.Type {
        all.first { $0.claims(deviceInfo) } ?? StandardDialect.self
    }
}
