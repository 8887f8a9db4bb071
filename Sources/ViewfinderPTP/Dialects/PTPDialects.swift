import ViewfinderSystem

/// The dialects Viewfinder speaks, those other packages registered, and the one place that chooses among them.
public enum PTPDialects {
    /// Viewfinder's own dialects, most particular first; the standard dialect claims every camera and comes last.
    static let builtIn: [any PTPDialect.Type] = [
        NikonDialect.self, CanonEOSDialect.self, SonyDialect.self, FujiDialect.self, StandardDialect.self,
    ]

    /// The dialects registered with ``register(_:)``, the last registered first.
    private static let registered = Locked<[any PTPDialect.Type]>([])

    /// Adds a dialect, from this package or another, asked before every dialect there already, so that it can claim
    /// cameras a built-in dialect would; registering it again does nothing.
    ///
    /// Register before connecting: a camera's dialect is chosen once, when it connects.
    public static func register(_ dialect: any PTPDialect.Type) {
        registered.withLock { registered in
            guard !registered.contains(where: { $0 == dialect }) else { return }
            registered.insert(dialect, at: 0)
        }
    }

    /// Every dialect in the order they are asked: the registered ones, the last registered first, then
    /// Viewfinder's own.
    public static var all: [any PTPDialect.Type] {
        registered.withLock { $0 } + builtIn
    }

    /// The dialect for the camera `deviceInfo` describes: the first in ``all`` that claims it.
    public static func dialect(for deviceInfo: PTPDeviceInfo) -> any PTPDialect.Type {
        all.first { $0.claims(deviceInfo) } ?? StandardDialect.self
    }
}
